"""Presentation mode: full screen, scaled fonts and pens, views only, high contrast, laser pointer."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from explorer.gui.common.theme import DARK, LIGHT
from explorer.gui.lessons.presentation import SCALES, high_contrast
from explorer.gui.shell.main_window import MainWindow
from tests.gui.support import wait_run


@pytest.fixture
def win(window, qtbot):
    window.resize(1600, 900)
    wait_run(qtbot, window.explorer)
    yield window
    window.feature("presentation").set_presenting(False)
    window.feature("presentation").target_size = None


def sizes(window) -> dict:
    page = window.explorer
    label = page.panel.findChildren(QLabel)[0]
    axis = page.counts.getPlotItem().getAxis("bottom")
    tick = axis.style["tickFont"]
    return {
        "label": label.font().pointSizeF(),
        "big": page.metrics.now.values["launched"].font().pointSizeF(),
        "narration": window.feature("lessons").panel.narration.font().pointSizeF(),
        "grid": page.grid._label_font.pointSizeF(),
        "tick": tick.pointSizeF() if tick is not None else None,
        "axis_label": axis.label.font().pointSizeF(),
        "left_axis_width": page.counts.getPlotItem().getAxis("left").width(),
        "resident_pen": page.counts.curves["resident"].opts["pen"].widthF(),
        "cursor_pen": page.counts.cursor.pen.widthF(),
        "head": page.grid_title.height(),
    }


def test_presentation_mode_scales_fonts_pens_and_plot_text(win, qtbot):
    p = win.feature("presentation")
    p.set_scale(2.0)
    before = sizes(win)
    p.set_presenting(True)
    assert p.presenting and p.present_action.isChecked()
    after = sizes(win)
    for key in ("label", "big", "narration", "grid", "axis_label", "resident_pen", "cursor_pen"):
        assert after[key] == pytest.approx(2 * before[key], rel=0.02), key
    assert after["tick"] == pytest.approx(2 * before["label"], rel=0.02)
    assert after["left_axis_width"] == 2 * before["left_axis_width"]
    assert after["head"] >= 1.8 * before["head"]  # fixed heights that hold a line of text
    # a theme change resets the pens; presentation mode widens them again, to the scale shown (the fit that
    # runs meanwhile may show less than the 200% asked where this window cannot hold it unclipped)
    win.set_theme_mode("dark")
    qtbot.wait(20)
    assert p.shown_scale > 1.0
    assert sizes(win)["resident_pen"] == pytest.approx(p.shown_scale * before["resident_pen"])
    assert sizes(win)["label"] == pytest.approx(p.shown_scale * before["label"], rel=0.02)
    win.set_theme_mode("light")
    qtbot.wait(20)
    p.set_presenting(False)
    assert sizes(win) == before  # exactly back


def test_changing_the_scale_while_presenting(win):
    p = win.feature("presentation")
    p.set_scale(1.0)
    base = sizes(win)["label"]
    # on a 1600x900 picture, as render draws one (offscreen, full screen is an 800x800 placeholder where
    # 125% clips once the fit lets the window take that size before it checks)
    p.target_size = QSize(1600, 900)
    p.set_presenting(True, full_screen=False)
    assert sizes(win)["label"] == pytest.approx(base)
    p.step_scale(+1)
    assert p.scale == SCALES[1] and p.scale_actions[SCALES[1]].isChecked()
    assert sizes(win)["label"] == pytest.approx(base * SCALES[1])
    p.set_scale(2.5)  # the largest step up to 2.5 at which nothing is clipped on this screen is shown
    assert p.scale == 2.5 and p.scale_actions[2.5].isChecked() and 1.0 <= p.shown_scale <= 2.5
    assert sizes(win)["label"] == pytest.approx(base * p.shown_scale)
    assert not p.fit_problems() or p.shown_scale == 1.0
    p.set_presenting(False)
    assert sizes(win)["label"] == pytest.approx(base)


def test_views_only_hides_the_controls_and_keeps_their_keys(win, qtbot):
    p = win.feature("presentation")
    p.set_views_only(True)
    p.set_presenting(True)
    page = win.explorer
    for widget in (win.menuBar(), win.statusBar(), win.tabs.tabBar(), page.panel_scroll, page.transport):
        assert widget.isHidden()
    assert page.grid.isVisible() and page.timeline.isVisible() and page.counts.isVisible()
    win.feature("lessons").start("launched-resident-ready")
    assert win.feature("lessons").dock.isVisible()  # the narration stays
    # a menu shortcut still works with the menu bar hidden
    win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not win.isVisible(), timeout=2000)
    assert not p.presenting  # closing left presentation mode (settings and palette are the normal ones)
    assert not win.menuBar().isHidden()


def test_f5_presents_escape_leaves_f11_toggles_full_screen(win, qtbot):
    p = win.feature("presentation")
    win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_F5)
    assert p.presenting and win.windowState() & Qt.WindowState.WindowFullScreen
    qtbot.keyClick(win, Qt.Key.Key_Escape)
    assert not p.presenting and not win.windowState() & Qt.WindowState.WindowFullScreen
    assert not p.leave_action.isEnabled()
    qtbot.keyClick(win, Qt.Key.Key_F11)
    assert win.windowState() & Qt.WindowState.WindowFullScreen and p.fullscreen_action.isChecked()
    assert not p.presenting
    qtbot.keyClick(win, Qt.Key.Key_F11)
    assert not win.windowState() & Qt.WindowState.WindowFullScreen and not p.fullscreen_action.isChecked()


def test_high_contrast_palette_while_presenting(win, qapp, qtbot):
    p = win.feature("presentation")
    p.set_high_contrast(True)
    assert qapp.palette().color(QPalette.ColorRole.Window).name().upper() == LIGHT.window  # not yet
    p.set_presenting(True)
    assert qapp.palette().color(QPalette.ColorRole.Window).name().upper() == "#FFFFFF"
    assert qapp.palette().color(QPalette.ColorRole.WindowText).name().upper() == "#000000"
    assert win.explorer.counts.backgroundBrush().color().name().upper() == "#FFFFFF"
    win.set_theme_mode("dark")  # follows the theme: white on black
    qtbot.waitUntil(lambda: qapp.palette().color(QPalette.ColorRole.Window).name().upper() == "#000000",
                    timeout=2000)
    assert pg.getConfigOption("background") == "#000000"
    p.set_high_contrast(False)
    assert qapp.palette().color(QPalette.ColorRole.Window).name().upper() == DARK.window
    p.set_presenting(False)
    win.set_theme_mode("light")


def test_high_contrast_themes_are_pure():
    light, dark = high_contrast(LIGHT), high_contrast(DARK)
    assert (light.window, light.window_text, light.plot_background) == ("#FFFFFF", "#000000", "#FFFFFF")
    assert (dark.window, dark.window_text, dark.plot_background) == ("#000000", "#FFFFFF", "#000000")
    assert not light.dark and dark.dark


class _StoppedClock:
    """The overlay's clock held still until a test moves it: a dot's fade is then a function of the
    test's steps, not of how long a loaded machine takes between the click and the grab."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_laser_pointer_dot_fades_and_a_click_on_a_view_only_points(win, qtbot, monkeypatch):
    from explorer.gui.lessons import overlay as overlay_module

    clock = _StoppedClock()
    monkeypatch.setattr(overlay_module, "time", clock)
    p = win.feature("presentation")
    p.set_laser(True)
    p.set_presenting(True)
    overlay = win.feature("overlay")
    grid = win.explorer.grid
    layout = grid.layout_
    x, y = layout.tile_origin(5)
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=QPoint(x + 3, y + 3))
    assert win.workspace.session.selected_sm == 0  # only a pointer: no SM selected
    dots = overlay.laser_dots()
    assert len(dots) == 1
    expected = grid.mapTo(win, QPoint(x + 3, y + 3))
    assert abs(dots[0].x() - expected.x()) <= 1 and abs(dots[0].y() - expected.y()) <= 1
    assert overlay.isVisible()
    image = win.grab().toImage()
    red = image.pixelColor(expected)
    assert red.red() > 150 and red.green() < 120  # the dot is drawn
    clock.now += overlay_module.LASER_SECONDS * 0.5
    assert len(overlay.laser_dots()) == 1  # half way: still there
    clock.now += overlay_module.LASER_SECONDS * 0.6
    qtbot.waitUntil(lambda: not overlay.laser_dots(), timeout=4000)  # then gone at the next tick
    p.set_presenting(False)
    qtbot.wait(50)
    x, y = grid.layout_.tile_origin(5)  # the grid's layout at the normal scale
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=QPoint(x + 3, y + 3))
    assert not overlay.laser_dots()  # only while presenting
    assert win.workspace.session.selected_sm == 5  # and then a click selects again


def _plot_point(plot, fraction: float) -> QPoint:
    """A point inside the plot's view box, ``fraction`` of the way along x."""
    vb = plot.getPlotItem().getViewBox()
    rect = vb.sceneBoundingRect()
    return plot.mapFromScene(rect.left() + fraction * rect.width(), rect.center().y())


def test_a_laser_click_on_a_plot_does_not_move_the_playback_cursor(win, qtbot):
    """Issue 14 item 7: in presentation mode the laser click is only a pointer (the cursor stayed at 4,235)."""
    page = win.explorer
    page.workspace.session.set_cycle(1000)
    p = win.feature("presentation")
    p.set_laser(True)
    p.set_presenting(True)
    qtbot.wait(100)
    overlay = win.feature("overlay")
    for plot in (page.counts, page.timeline):
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=_plot_point(plot, 0.7))
        assert page.workspace.session.cycle == 1000
    assert len(overlay.laser_dots()) == 2
    # a control still works: the lesson panel's Next button steps on
    lessons = win.feature("lessons")
    lessons.start("launched-resident-ready")
    qtbot.waitUntil(lambda: lessons.ready, timeout=60_000)
    qtbot.wait(100)
    button = lessons.panel.next_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert lessons.index == 1
    lessons.stop()
    # laser off: a click on the plot moves the cursor again
    p.set_laser(False)
    page.workspace.session.set_cycle(1000)
    qtbot.mouseClick(page.counts.viewport(), Qt.MouseButton.LeftButton, pos=_plot_point(page.counts, 0.7))
    assert page.workspace.session.cycle != 1000
    p.set_presenting(False)


def test_options_are_remembered(qtbot, settings, light_theme):
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    p = first.feature("presentation")
    p.set_scale(2.0)
    p.set_high_contrast(True)
    p.views_only_action.setChecked(False)
    p.laser_action.setChecked(False)
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    q = second.feature("presentation")
    assert (q.scale, q.high_contrast, q.views_only, q.laser) == (2.0, True, False, False)
    assert q.scale_actions[2.0].isChecked() and q.contrast_action.isChecked()
    assert not q.views_only_action.isChecked() and not q.laser_action.isChecked()
    second.close()


def test_garbage_options_fall_back(qtbot, settings, light_theme):
    settings.setValue("presentation/scale", "huge")
    settings.setValue("presentation/high_contrast", "maybe")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    assert w.feature("presentation").scale == 1.5 and w.feature("presentation").high_contrast is False
    settings.setValue("presentation/scale", 9)
    w.close()


def test_scaled_fonts_survive_a_restyle_and_new_plot_labels_scale(win, qtbot):
    """A style-sheet rule (the limiter row in bold) puts a label's old font back when it stops
    applying; presentation mode puts the scaled one back. Plot annotations scale too."""
    p = win.feature("presentation")
    p.set_scale(2.0)
    win.tabs.setCurrentWidget(win.occupancy)
    result = win.occupancy.result
    label = next(lbl for lbl in result.findChildren(QLabel) if lbl.text() == "Warp slots")
    assert label.property("role") == "limiter"  # 256 threads, 32 registers: warps and registers tie
    base = label.font().pointSizeF()
    annotation = win.occupancy.graphs.registers.label.textItem.font().pointSizeF()
    p.set_presenting(True)
    assert label.font().pointSizeF() == pytest.approx(2 * base)
    assert win.occupancy.graphs.registers.label.textItem.font().pointSizeF() == pytest.approx(2 * annotation)
    win.occupancy.inputs.fields["regs"].set_text("64")
    assert label.property("role") == "limit"
    # (meanwhile presentation mode may show a smaller scale if 200% does not fit this window)
    qtbot.waitUntil(lambda: label.font().pointSizeF() == pytest.approx(p.shown_scale * base), timeout=2000)
    p.set_presenting(False)
    assert label.font().pointSizeF() == pytest.approx(base)
