"""The window shell: tabs, menus, themes, persistence, About, leaks."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox

from explorer.gui.common.settings import open_settings
from explorer.gui.common.theme import DARK, LIGHT
from explorer.gui.shell.main_window import MainWindow


def menu_titles(window) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def test_shell_has_the_explorer_and_calculator_tabs_and_menus(window):
    assert window.windowTitle() == "Warp Explorer"
    assert window.tabs.count() >= 2  # features (FEATURES) add their tabs after these two
    assert window.tabs.tabText(0) == "&Explorer"
    assert window.tabs.tabText(1) == "&Occupancy calculator"
    assert window.tabs.currentWidget() is window.explorer  # what a new user sees first
    assert menu_titles(window) == ["&File", "E&dit", "&View", "&Lessons", "&Help"]
    assert window.quit_action.shortcut() == QKeySequence("Ctrl+Q")
    assert set(window.theme_actions) == {"system", "light", "dark"}
    assert window.theme_actions["system"].isChecked()


def test_status_bar_summarises_the_result(window, qtbot):
    qtbot.waitUntil(lambda: window.workspace.session.run is not None, timeout=60_000)
    # the same number formats as the panels: grouped digits, one percentage formatter (one decimal, ".0" dropped);
    # the simulated figures come from the run's summary (they move with the model), the launch's are hand-computed
    s = window.workspace.session.run.summary
    assert (s["launched_warps"], s["theoretical_occupancy"]) == (240 * 256 // 32, 1.0)

    def percent(fraction):
        text = f"{100 * fraction:.1f}"
        return (text[:-2] if text.endswith(".0") else text) + "%"

    assert window.status_label.text() == (
        f"H100: 1,920 warps launched · theoretical occupancy 100% · achieved {percent(s['achieved_occupancy'])} · "
        f"issue slots used {percent(s['issue_slot_utilization'])} · {s['cycles']:,} cycles · "
        + (f"the kernel's SASS ({s['program']['arch']})" if s["program"]["source"] == "sass" else "the workload model"))
    assert s["program"]["arch"] == "sm_90"
    window.tabs.setCurrentWidget(window.occupancy)
    assert window.status_label.text().startswith("H100: occupancy 100%")
    window.occupancy.inputs.fields["regs"].set_text("64")
    assert window.status_label.text() == (
        "H100: occupancy 50%, warps per SM 32/64, blocks per SM 4; limited by registers"
    )


def test_quit_closes_the_window(window, qtbot):
    window.quit_action.trigger()
    assert not window.isVisible()


def test_ctrl_q_quits(window, qtbot):
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)


def test_theme_switch_recolours_window_and_plots(window, qapp, settings):
    window.theme_actions["dark"].trigger()
    assert window.theme.mode == "dark"
    assert qapp.palette().color(QPalette.ColorRole.Window).name().upper() == DARK.window
    assert pg.getConfigOption("background") == DARK.plot_background
    plot = window.occupancy.graphs.registers
    assert plot.backgroundBrush().color().name().upper() == DARK.plot_background.upper()
    assert plot.curve.opts["pen"].color().name().upper() == DARK.curve.upper()
    assert settings.value("view/theme") == "dark"

    window.theme_actions["light"].trigger()
    assert qapp.palette().color(QPalette.ColorRole.Window).name().upper() == LIGHT.window
    assert plot.backgroundBrush().color().name().upper() == LIGHT.plot_background.upper()
    assert window.theme_actions["light"].isChecked() and not window.theme_actions["dark"].isChecked()


def test_state_survives_a_restart(qtbot, settings, light_theme):
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.show()
    # a size the offscreen screen (800×600) holds, so restoring clamps nothing
    hint = first.minimumSizeHint()
    assert hint.width() <= 800 and hint.height() <= 560, "the window must fit a small screen"
    size = (hint.width(), hint.height() + 30)
    first.resize(*size)
    first.occupancy.inputs.set_gpu("T4")
    first.occupancy.inputs.fields["regs"].set_text("64")
    first.set_theme_mode("dark")
    first.close()

    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    second.show()
    assert (second.width(), second.height()) == size
    assert second.occupancy.inputs.gpu_name() == "T4"
    assert second.occupancy.evaluation.query.registers == 64
    assert second.theme.mode == "dark" and second.theme_actions["dark"].isChecked()


def test_garbage_in_settings_falls_back_to_defaults(qtbot, settings, light_theme):
    settings.setValue("window/geometry", "not a geometry")
    settings.setValue("window/tab", "seven")
    settings.setValue("view/theme", "purple")
    settings.setValue("occupancy/gpu", "NoSuchGPU")
    settings.setValue("occupancy/regs", "abc")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    assert w.theme.mode == "system"
    assert w.occupancy.inputs.gpu_name() == "H100"
    assert w.occupancy.inputs.fields["regs"].message == "'abc' is not an integer"
    assert w.occupancy.evaluation is not None  # the defaults were computed before the bad value arrived


def test_tests_never_touch_the_users_settings(window, settings, tmp_path, isolated_settings):
    assert settings.fileName().startswith(str(tmp_path))
    assert open_settings().fileName().startswith(str(isolated_settings))
    window.close()
    assert (tmp_path / "warp-explorer.ini").is_file()


def test_about_box_is_non_blocking(window, qtbot):
    box = window.show_about()
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "Warp Explorer" in box.text()
    box.close()  # deletes itself (WA_DeleteOnClose); the leak check proves it


def test_closing_leaves_no_top_level_widgets(qtbot, settings, light_theme):
    """Windows, menus and pyqtgraph's context menus all go when the window goes."""
    before = set(QApplication.topLevelWidgets())
    w = MainWindow(settings=settings)
    w.show()
    assert len(set(QApplication.topLevelWidgets()) - before) > 1  # the window and its menus
    w.close()
    w.deleteLater()
    qtbot.waitUntil(lambda: not (set(QApplication.topLevelWidgets()) - before), timeout=2000)


def test_settings_file_is_ini_in_tmp(settings):
    assert settings.format() == QSettings.Format.IniFormat


def test_files_open_through_registered_handlers(window, tmp_path):
    opened = []
    window.register_file_handler((".wxtest",), "Test files", opened.append)
    good = tmp_path / "a.WXTEST"
    good.write_text("x")
    assert window.open_path(good) is True
    assert opened == [good]
    assert window.open_path(tmp_path / "b.unknown") is False
    assert "not a file kind this app reads" in window.statusBar().currentMessage()
    assert window.acceptDrops()


def test_lesson_hooks_name_views_and_panels(window):
    from explorer.model.lessons import TARGETS, VIEWS

    assert {"explorer", "occupancy"} <= set(window.views) <= set(VIEWS)
    assert set(window.lesson_targets) <= set(TARGETS)
    assert {"sm_grid", "timeline", "counts", "metrics", "legend", "scenario", "occupancy"} <= set(window.lesson_targets)
    assert window.show_view("occupancy") and window.tabs.currentWidget() is window.occupancy
    assert window.show_view("no-such-view") is False
