"""Export: PNG at 1x/2x/3x, SVG and PDF through Qt's generators, GIF and MP4 of a cycle range."""

from __future__ import annotations

import builtins
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage

from explorer.gui.files import export as ex
from tests.gui.support import wait_run


@pytest.fixture
def win(window, qtbot):
    window.resize(1280, 760)
    wait_run(qtbot, window.explorer)
    window.workspace.session.set_cycle(3000)
    return window


def rgb(path) -> np.ndarray:
    return ex.rgb_array(QImage(str(path)))


def no_temp_files(folder) -> bool:
    return not [p for p in folder.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_png_of_a_panel_at_1x_2x_3x(win, tmp_path, scale):
    grid = win.explorer.grid
    out = tmp_path / f"grid-{scale}x.png"
    win.feature("export").export_picture("sm_grid", out, scale)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = QImage(str(out))
    assert (img.width(), img.height()) == (grid.width() * scale, grid.height() * scale)
    px = rgb(out)
    colours = np.unique(px.reshape(-1, 3), axis=0)
    assert len(colours) > 8, "the warp states, not a blank picture"
    assert no_temp_files(tmp_path)


def test_png_at_2x_is_drawn_sharper_not_enlarged(win, tmp_path):
    """Text drawn at 2x has more distinct grey levels per glyph than a 1x picture scaled up."""
    one, two = tmp_path / "m1.png", tmp_path / "m2.png"
    win.feature("export").export_picture("metrics", one, 1)
    win.feature("export").export_picture("metrics", two, 2)
    a, b = rgb(one), rgb(two)
    assert b.shape[0] == 2 * a.shape[0]
    upscaled = np.repeat(np.repeat(a, 2, axis=0), 2, axis=1)
    assert np.abs(upscaled.astype(int) - b.astype(int)).mean() > 1.0


def test_whole_window_and_current_view(win, tmp_path):
    out = tmp_path / "window.png"
    win.feature("export").export_picture("window", out, 1)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (win.width(), win.height())
    view = tmp_path / "view.png"
    win.feature("export").export_picture("view", view, 2)
    page = win.tabs.currentWidget()
    assert (QImage(str(view)).width(), QImage(str(view)).height()) == (2 * page.width(), 2 * page.height())


def test_svg_parses_and_holds_the_drawing(win, tmp_path):
    counts = win.explorer.counts_panel  # the plot with its legend
    out = tmp_path / "counts.svg"
    win.feature("export").export_picture("counts", out)
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == f"0 0 {counts.width()} {counts.height()}"
    tags = {el.tag.split("}")[-1] for el in root.iter()}
    assert {"g", "path"} <= tags or {"g", "polyline"} <= tags
    text = out.read_text(encoding="utf-8")
    assert "cycle" in text  # the axis label is text, not pixels
    for name in ("unfinished", "resident", "ready (eligible)", "issued"):  # the legend is in the picture
        assert f">{name}<" in text, name
    assert no_temp_files(tmp_path)


def test_svg_of_the_window(win, tmp_path):
    out = tmp_path / "window.svg"
    win.feature("export").export_picture("window", out)
    root = ET.parse(out).getroot()
    assert root.get("viewBox") == f"0 0 {win.width()} {win.height()}"
    assert "Launched" in out.read_text(encoding="utf-8")


def test_pdf_page_is_the_widget_at_its_dpi(win, tmp_path):
    metrics = win.explorer.metrics
    out = tmp_path / "metrics.pdf"
    win.feature("export").export_picture("metrics", out)
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert box is not None
    dpi = metrics.logicalDpiX()
    assert float(box.group(1)) == pytest.approx(metrics.width() * 72 / dpi, abs=1)
    assert float(box.group(2)) == pytest.approx(metrics.height() * 72 / dpi, abs=1)


def test_gif_of_a_cycle_range(win, tmp_path):
    from PIL import Image

    grid = win.explorer.grid
    out = tmp_path / "grid.gif"
    cr = ex.parse_cycle_range("100:2100:500", win.workspace.session.run.cycles)
    assert cr.cycles == [100, 600, 1100, 1600, 2100]
    count = win.feature("export").export_animation("sm_grid", out, cr, fps=5)
    assert count == 5
    with Image.open(out) as im:
        assert im.format == "GIF" and im.size == (grid.width(), grid.height())
        assert im.info.get("loop") == 0
        # Pillow merges a frame identical to the one before into it (their durations add up)
        assert 2 <= im.n_frames <= 5
        frames, total = [], 0
        for k in range(im.n_frames):
            im.seek(k)
            total += im.info["duration"]
            frames.append(np.asarray(im.convert("RGB")))
        assert total == 5 * 200
    assert not np.array_equal(frames[0], frames[-1]), "the grid changes over the cycles"
    assert win.workspace.session.cycle == 3000  # put back
    assert no_temp_files(tmp_path)


def test_animation_frames_take_the_workspace_cursor(win):
    """The frames are drawn from the workspace's cursor (no page in between): a playing clock pauses while
    the export holds the cursor, and the cursor is let go of and put back afterwards."""
    explorer, session = win.explorer, win.workspace.session
    explorer.clock.play()
    assert session.playing is explorer
    frames = list(ex.explorer_frames(win.workspace, explorer.grid, [0, 500]))
    assert len(frames) == 2 and all(not f.isNull() for f in frames)
    assert not explorer.clock.playing
    assert session.playing is None
    assert session.cycle == 3000


def test_mp4_of_a_cycle_range(win, tmp_path):
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    out = tmp_path / "window.mp4"
    cr = ex.CycleRange(0, 1200, 300)
    count = win.feature("export").export_animation("window", out, cr, fps=10)
    assert count == 5
    head = out.read_bytes()[:12]
    assert head[4:8] == b"ftyp"
    frames, _secs = ffmpeg.count_frames_and_secs(str(out))
    assert frames == 5
    assert no_temp_files(tmp_path)


def test_missing_video_extra_is_one_clear_line(win, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_ffmpeg(name, *args, **kwargs):
        if name == "imageio_ffmpeg":
            raise ImportError("No module named 'imageio_ffmpeg'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ffmpeg)
    out = tmp_path / "clip.mp4"
    out.write_bytes(b"old")
    with pytest.raises(ex.ExportError) as err:
        win.feature("export").export_animation("window", out, ex.CycleRange(0, 100, 50))
    message = str(err.value)
    assert "\n" not in message and "video" in message and "imageio-ffmpeg" in message
    assert out.read_bytes() == b"old"  # nothing written over it
    assert not ex.video_available()


def test_missing_pillow_is_one_clear_line(win, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("No module named 'PIL'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    with pytest.raises(ex.ExportError, match="Pillow"):
        win.feature("export").export_animation("window", tmp_path / "a.gif", ex.CycleRange(0, 100, 50))


@pytest.mark.parametrize("text, message", [
    ("100", "START:END"),
    ("a:b", "START"),
    ("500:100", "must come after"),
    ("0:99999999", "outside"),
    ("0:100:0", "at least 1"),
    ("0:10000:1", "more than"),
    ("0:150%", "outside 0%"),
])
def test_bad_cycle_ranges(text, message):
    with pytest.raises(ex.ExportError, match=message):
        ex.parse_cycle_range(text, 10_589)


def test_cycle_range_words_and_default_step():
    cr = ex.parse_cycle_range("start:end", 10_001)
    assert (cr.start, cr.end) == (0, 10_000) and cr.frames <= 101 and cr.cycles[-1] == 10_000
    cr = ex.parse_cycle_range("10%:50%:1000", 10_001)
    assert cr.cycles == [1000, 2000, 3000, 4000, 5000]


def test_wrong_suffix_or_folder(win, tmp_path):
    with pytest.raises(ex.ExportError, match="must end in"):
        win.feature("export").export_picture("window", tmp_path / "a.jpg")
    with pytest.raises(ex.ExportError, match="does not exist"):
        win.feature("export").export_picture("window", tmp_path / "no" / "a.png")


def test_picture_dialog_writes_the_file(win, tmp_path, qtbot):
    dialog = win.feature("export").picture_dialog()
    dialog.subject.setCurrentIndex(dialog.subject.findData("timeline"))
    dialog.format.setCurrentIndex(dialog.format.findData("png"))
    dialog.scale.setCurrentIndex(dialog.scale.findData(3))
    assert "3×" in dialog.scale.currentText() and str(3 * win.explorer.timeline.width()) in dialog.scale.currentText()
    dialog.path.setText(str(tmp_path / "slide"))
    dialog.format.setCurrentIndex(dialog.format.findData("svg"))
    assert not dialog.scale.isEnabled()
    dialog.format.setCurrentIndex(dialog.format.findData("png"))
    dialog.accept()
    out = tmp_path / "slide.png"
    qtbot.waitUntil(lambda: not win.feature("export").tasks.running(), timeout=10_000)  # written in a worker
    assert out.is_file() and QImage(str(out)).width() == 3 * win.explorer.timeline.width()
    assert win.settings.value("export/folder") == str(tmp_path)


def test_animation_dialog_writes_a_gif(win, tmp_path, qtbot):
    from PIL import Image

    dialog = win.feature("export").animation_dialog()
    dialog.subject.setCurrentIndex(dialog.subject.findData("counts"))
    dialog.start.setValue(0)
    dialog.end.setValue(900)
    dialog.every.setValue(300)
    assert dialog.frames.text().startswith("4 frames")
    dialog.path.setText(str(tmp_path / "clip.gif"))
    dialog.accept()
    qtbot.waitUntil(lambda: not win.feature("export").tasks.running(), timeout=30_000)  # encoded in a worker
    with Image.open(tmp_path / "clip.gif") as im:
        total = 0
        for k in range(im.n_frames):
            im.seek(k)
            total += im.info["duration"]
        assert total == 4 * 100
