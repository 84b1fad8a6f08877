"""``warp-explorer --smoke-test`` from the source tree: the same check every bundle runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.gui.headless.smoke import choose_platform

ROOT = Path(__file__).resolve().parents[1]


def _env(tmp_path, **extra) -> dict:
    env = dict(os.environ)
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "WARP_EXPLORER_SMOKE_PNG"):
        env.pop(key, None)
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), **extra)
    return env


def _smoke(env, *prefix, timeout=180) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, "-m", "explorer", "--smoke-test"], check=False, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _assert_png(path: Path) -> None:
    from PySide6.QtGui import QImage

    from explorer.gui.headless.smoke import FRAME_SIZE, check_not_blank

    image = QImage(str(path))
    assert not image.isNull(), path
    assert (image.width(), image.height()) == FRAME_SIZE
    colours, top = check_not_blank(image, str(path))
    assert colours >= 16 and top < 0.98


def test_smoke_test_renders_a_png_and_says_where(tmp_path):
    png = tmp_path / "out" / "smoke.png"
    proc = _smoke(_env(tmp_path, WARP_EXPLORER_SMOKE_PNG=str(png)))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    assert lines[0].startswith("warp-explorer: smoke test ok: example-240x256")
    assert "Qt 'offscreen'" in lines[0]
    assert lines[0].endswith(f"PNG: {png}")
    assert "Traceback" not in proc.stderr
    _assert_png(png)


def test_smoke_test_without_a_chosen_path_uses_a_temporary_folder(tmp_path):
    proc = _smoke(_env(tmp_path, TMPDIR=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    png = Path(proc.stdout.strip().rsplit("PNG: ", 1)[1])
    assert png.parent.parent == tmp_path and png.name == "smoke.png"
    _assert_png(png)


def test_a_failing_step_is_one_line_and_exit_1(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    proc = _smoke(_env(tmp_path, WARP_EXPLORER_SMOKE_PNG=str(blocker / "smoke.png")))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("warp-explorer: smoke test failed: write the PNG:")
    assert proc.stdout == ""


def test_a_missing_platform_plugin_is_one_line_and_exit_1(tmp_path):
    proc = _smoke(_env(tmp_path, QT_QPA_PLATFORM="no-such-plugin"))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("warp-explorer: cannot open a window")


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed (apt-get install xvfb xauth)")
def test_smoke_test_on_a_virtual_x_server(tmp_path):
    """The xcb platform plugin and the X libraries it needs (Qt names libxcb-cursor0 for any of them)."""
    png = tmp_path / "x.png"
    proc = _smoke(_env(tmp_path, WARP_EXPLORER_SMOKE_PNG=str(png)), "xvfb-run", "-a")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Qt 'xcb'" in proc.stdout
    _assert_png(png)


@pytest.mark.parametrize("env, expected", [
    ({}, "offscreen"),
    ({"DISPLAY": ":1"}, None),
    ({"WAYLAND_DISPLAY": "wayland-0"}, None),
    ({"QT_QPA_PLATFORM": "xcb"}, None),
    ({"QT_QPA_PLATFORM": "", "DISPLAY": ""}, "offscreen"),
])
def test_the_platform_is_offscreen_unless_a_display_is_given(env, expected):
    assert choose_platform(env) == expected
