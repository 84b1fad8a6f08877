"""``warp-explorer render``: the window drawn headless into a PNG of the requested size."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from explorer.cli.main import main
from explorer.gui.common import palette as oi
from explorer.gui.common.theme import DARK, LIGHT
from explorer.gui.headless.render import parse_size, render_png
from explorer.gui.shell.i18n import install_translators
from explorer.model.errors import InputError
from explorer.model.presets import default_scenario

ROOT = Path(__file__).resolve().parents[3]


def pixels(path: Path) -> np.ndarray:
    """uint8[h, w, 3] RGB of a PNG."""
    img = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=stride * h).reshape(h, stride)
    return buf[:, : 3 * w].reshape(h, w, 3).copy()


def share(region: np.ndarray, hex_colour: str) -> float:
    c = QColor(hex_colour)
    match = np.all(region == (c.red(), c.green(), c.blue()), axis=-1)
    return float(match.mean())


def test_render_draws_the_explorer_views(tmp_path, light_theme):
    out = tmp_path / "example.png"
    width, height, cycle = render_png(default_scenario(), out, size=(1280, 720), cycle=3000)
    assert (width, height, cycle) == (1280, 720, 3000)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)
    px = pixels(out)
    # SM grid (upper middle): most resident warps wait on HBM (long_scoreboard, Okabe-Ito blue),
    # the empty slots (3/4 of them: 22.5% occupancy) in the empty colour
    grid = px[70:300, 260:900]
    assert share(grid, oi.BLUE) > 0.01
    assert share(grid, "#D6D6D6") > 0.05
    # timeline, unit-use strip and counts (lower middle): blue rows, the resident curve in reddish purple (the
    # strip names every unit since issue 31, so the timeline sits higher)
    lower = px[260:650, 300:990]
    assert share(lower, oi.BLUE) > 0.02
    assert share(lower, oi.REDDISH_PURPLE) > 0.0005
    # metrics (right): the NVML bar in vermillion, the issue bar in bluish green
    right = px[60:700, 930:]
    assert share(right, oi.VERMILLION) > 0.002
    assert share(right, oi.BLUISH_GREEN) > 0.0002
    # the light theme's window colour dominates the frame
    assert share(px, LIGHT.window) > 0.1
    assert not list(tmp_path.glob(".*.png"))  # no temporary file left behind


def test_render_dark_theme_and_size(tmp_path, light_theme):
    out = tmp_path / "dark.png"
    render_png(default_scenario(), out, size=(1024, 640), theme="dark", sm=7)
    px = pixels(out)
    assert px.shape[:2] == (640, 1024)
    assert share(px, DARK.window) > 0.1
    # no light background anywhere: no 3x3 patch of its colour (a white label's antialiased edge over the
    # SASS run's grey "drain" bar can hit #EFEFEF in a lone pixel; a painted background is a patch)
    c = QColor(LIGHT.window)
    light = np.all(px == (c.red(), c.green(), c.blue()), axis=-1)
    patches = light[:-2, :-2] & light[1:-1, :-2] & light[2:, :-2] & light[:-2, 1:-1] & light[1:-1, 1:-1] \
        & light[2:, 1:-1] & light[:-2, 2:] & light[1:-1, 2:] & light[2:, 2:]
    assert not patches.any()


def test_parse_size():
    assert parse_size("1600x900") == (1600, 900)
    assert parse_size("1920×1080") == (1920, 1080)
    for bad in ("1600", "axb", "10x10", "100000x900", "1600x900x2"):
        with pytest.raises(InputError):
            parse_size(bad)


@pytest.mark.parametrize("args, field", [
    (["--size", "12x12"], "--size"),
    (["--size", "big"], "--size"),
    (["--cycle", "99999999"], "--cycle"),
    (["--sm", "500"], "--sm"),
    (["--set", "launch.registers_per_thread=300"], "launch.registers_per_thread"),
])
def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys, args, field, light_theme):
    out = tmp_path / "x.png"
    out.write_bytes(b"old")
    code = main(["render", "example-240x256", "--out", str(out), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and field in err
    assert out.read_bytes() == b"old"  # untouched: the PNG is only ever replaced whole
    assert not list(tmp_path.glob(".*.png"))


def test_bad_output_paths(tmp_path, capsys):
    assert main(["render", "example-240x256", "--out", str(tmp_path / "x.jpg")]) == 2
    assert main(["render", "example-240x256", "--out", str(tmp_path / "nope" / "x.png")]) == 2
    assert main(["render", "no-such-preset", "--out", str(tmp_path / "x.png")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 3


def test_cli_render_in_a_fresh_process(tmp_path):
    out = tmp_path / "cli.png"
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("QT_QPA_PLATFORM", None)  # render goes offscreen by itself
    env.pop("DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "explorer", "render", "example-240x256", "--out", str(out),
         "--size", "1200x700", "--cycle", "100"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"wrote {out} (1200x700, cycle 100)"
    assert proc.stderr == ""
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1200, 700)


# -- --presentation, --scale, --tab, --check-layout: the projector preflight ----------------------------
def test_check_layout_preflight_passes_and_says_what_it_checked(tmp_path, capsys, light_theme):
    code = main(["render", "example-240x256", "--presentation", "--size", "1280x720", "--check-layout"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert len(out) == 1 and out[0].startswith("layout check: all ")
    assert out[0].endswith("texts fit (1280x720, presentation 150%, en, explorer tab)")
    assert not list(tmp_path.iterdir())  # no --out: nothing written


def test_a_tab_in_russian_with_a_picture(tmp_path, capsys, light_theme, qapp):
    out = tmp_path / "gemm.png"
    try:
        code = main(["--lang", "ru", "render", "example-240x256", "--tab", "gemm", "--size", "1280x720",
                     "--check-layout", "--out", str(out)])
    finally:
        install_translators(qapp, "en")
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0, lines
    assert lines[0] == f"wrote {out} (1280x720, cycle {lines[0].split('cycle ')[1]}"
    assert lines[1].endswith("(1280x720, normal mode, ru, gemm tab)")
    assert QImage(str(out)).size().toTuple() == (1280, 720)


def test_a_lesson_step_presented_at_a_scale(capsys, light_theme):
    assert main(["render", "--lesson", "scheduler-picks-ready-warps", "--step", "4", "--scale", "200",
                 "--size", "1920x1080", "--check-layout"]) == 0
    assert "(1920x1080, presentation 200%, en, lesson scheduler-picks-ready-warps step 4)" in capsys.readouterr().out


def test_check_layout_exits_1_and_lists_what_does_not_fit(capsys, monkeypatch, light_theme):
    """Exit 1 is the preflight's verdict: a text that does not fit, planted here in the real window."""
    from PySide6.QtWidgets import QLabel

    from explorer.gui.common.widgets import FittingLabel

    monkeypatch.setattr(FittingLabel, "_fit", lambda self: QLabel.setText(self, "SM grid " + "and more " * 60))
    code = main(["render", "example-240x256", "--size", "1280x720", "--check-layout"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 1
    assert out[0].startswith("layout check: 1 problem in ") and out[0].endswith("(1280x720, normal mode, en, explorer tab):")
    assert out[1].startswith("  clipped  ") and "grid_title" in out[1] and "SM grid and more" in out[1]


@pytest.mark.parametrize("args, field", [
    (["example-240x256", "--scale", "130", "--check-layout"], "--scale"),
    (["--lesson", "waves-and-tail", "--tab", "gemm", "--check-layout"], "--tab"),
    (["example-240x256", "--animate", "0:10", "--check-layout", "--out", "x.gif"], "--check-layout"),
    (["example-240x256", "--animate", "0:10", "--presentation", "--out", "x.gif"], "--presentation"),
    (["example-240x256", "--tab", "explorer"], "--out"),
])
def test_bad_preflight_arguments_exit_2(tmp_path, monkeypatch, capsys, args, field):
    monkeypatch.chdir(tmp_path)
    assert main(["render", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and field in err[0]
    assert not list(tmp_path.iterdir())
