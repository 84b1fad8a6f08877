"""``warp-explorer render --lesson NAME --step K`` and ``--animate START:END[:STEP]``."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from explorer.cli.main import main
from explorer.gui.common import palette as oi
from explorer.gui.files.export import rgb_array
from explorer.gui.shell.i18n import install_translators


def test_render_a_lesson_step(tmp_path, capsys, light_theme):
    out = tmp_path / "step3.png"
    assert main(["render", "--lesson", "launched-resident-ready", "--step", "3", "--out", str(out),
                 "--size", "1280x720"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"wrote {out} (1280x720, cycle ") and "step 3 of 5" in line
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)
    px = rgb_array(img)
    c = QColor(oi.VERMILLION)
    outline = np.all(px == (c.red(), c.green(), c.blue()), axis=-1)
    assert outline.sum() > 500, "the spotlight around the timeline"
    assert len(np.unique(px.reshape(-1, 3), axis=0)) > 50
    assert not list(tmp_path.glob(".*"))


def test_render_a_lesson_step_in_russian(tmp_path, light_theme, qapp):
    """The narration and the window's own text are Russian: the menu bar differs as well as the narration."""
    en, ru = tmp_path / "en.png", tmp_path / "ru.png"
    assert main(["render", "--lesson", "waves-and-tail", "--out", str(en), "--size", "1280x720"]) == 0
    try:
        assert main(["--lang", "ru", "render", "--lesson", "waves-and-tail", "--out", str(ru), "--size",
                     "1280x720"]) == 0
    finally:
        install_translators(qapp, "en")  # this process goes on in English
    a, b = rgb_array(QImage(str(en))), rgb_array(QImage(str(ru)))
    differ = np.any(a != b, axis=-1)
    rows = np.nonzero(differ.any(axis=1))[0]
    assert rows.size and rows.min() < 30, "the menu bar at the top is translated"
    assert differ[int(720 * 0.85):].any(), "the narration at the bottom is Russian"


def test_render_an_animation_gif(tmp_path, capsys, light_theme):
    from PIL import Image

    out = tmp_path / "anim.gif"
    # 1024x640: the Explorer needs at most 600 px of height at 1024 px of width (test_explorer_at_1024.py)
    assert main(["render", "example-240x256", "--animate", "0:3000:1000", "--fps", "4", "--out", str(out),
                 "--size", "1024x640"]) == 0
    assert "4 frames at 4 per second" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.size == (1024, 640)
        total = 0
        for k in range(im.n_frames):
            im.seek(k)
            total += im.info["duration"]
        assert im.n_frames == 4 and total == 4 * 250  # the cursor moves: no two frames alike


def test_render_a_lesson_step_as_mp4(tmp_path, light_theme):
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    out = tmp_path / "step.mp4"
    assert main(["render", "--lesson", "waves-and-tail", "--step", "2", "--animate", "start:end:500",
                 "--out", str(out), "--size", "1024x640"]) == 0
    frames, _ = ffmpeg.count_frames_and_secs(str(out))
    assert frames >= 3


@pytest.mark.parametrize("args, message", [
    (["--step", "2", "example-240x256"], "--step: needs --lesson"),
    (["--lesson", "nope"], "unknown lesson 'nope'"),
    (["--lesson", "waves-and-tail", "--step", "9"], "--step: 9 is outside the lesson's steps 1.."),
    (["--lesson", "waves-and-tail", "--step", "0"], "outside"),
    (["--lesson", "waves-and-tail", "example-240x256"], "--lesson: takes its scenario from the lesson"),
    (["--lesson", "waves-and-tail", "--set", "seed=2"], "--set: cannot be combined with --lesson"),
    (["example-240x256", "--animate", "0:100"], "must end in .gif or .mp4"),
    (["example-240x256", "--animate", "100", "OUT.gif"], "START:END"),
    (["example-240x256", "--animate", "500:100", "OUT.gif"], "must come after"),
    (["example-240x256", "--animate", "0:100", "--fps", "0", "OUT.gif"], "--fps"),
    (["example-240x256", "--animate", "0:100", "--cycle", "5", "OUT.gif"], "--cycle: cannot be combined"),
    (["--lesson", "waves-and-tail", "OUT.gif"], "must end in .png"),
    (["--lesson", "waves-and-tail", "--step", "two"], "invalid int value"),
    ([], "give a scenario file or a preset name"),
])
def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys, args, message):
    out = str(tmp_path / "x.png")
    argv = ["render"]
    for a in args:
        argv.append(str(tmp_path / "x.gif") if a == "OUT.gif" else a)
    if not any(a.endswith((".gif", ".png")) for a in argv):
        argv += ["--out", out]
    elif "--out" not in argv:
        i = next(i for i, a in enumerate(argv) if a.endswith(".gif"))
        argv.insert(i, "--out")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err
    assert not list(tmp_path.iterdir())


def test_missing_video_extra_exits_2(tmp_path, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ffmpeg(name, *args, **kwargs):
        if name == "imageio_ffmpeg":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ffmpeg)
    assert main(["render", "example-240x256", "--animate", "0:100", "--out", str(tmp_path / "a.mp4")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "warp-explorer[video]" in err
