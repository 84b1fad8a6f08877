"""A language switch keeps everything the user had (issue 31 item 2): the selected SASS instruction, the window's
place and size to the pixel, and it does not re-style the whole application twice."""

from __future__ import annotations

import pytest

from tests.gui.support import wait_run

pytestmark = pytest.mark.usefixtures("english")


def test_the_selected_instruction_and_the_cycle_stay(window, qtbot):
    from explorer.gui.shell.language import switch_language

    page = window.explorer
    run = wait_run(qtbot, page)
    sass = window.feature("sass")
    sass.set_shown(True)
    if sass.view.data is None:
        pytest.skip("this run carries no instruction stream")
    page.clock.pause()
    page.workspace.session.set_cycle(996)
    sass.view.select_row(5)
    assert sass.view.clicked_row == 5
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert ru.workspace.session.run is run and ru.workspace.session.cycle == 996
    view = ru.feature("sass").view
    assert view.clicked_row == 5 and view.details.text() == view.details_html(5)


def test_the_window_keeps_its_place_and_size_where_restoring_the_saved_geometry_would_move_it(window, qtbot,
                                                                                           monkeypatch):
    """restoreGeometry() fits a window to the screen again: at QT_SCALE_FACTOR=1.5 a 1280x720 window came back
    1278x694. The new window takes the old one's geometry as it is."""
    from explorer.gui.shell import language
    from explorer.gui.shell.main_window import MainWindow

    wait_run(qtbot, window.explorer)
    window.setGeometry(64, 36, 1280, 720)
    where = window.geometry()
    # what a screen-fitting restore does (offscreen has no window manager to do it)
    monkeypatch.setattr(MainWindow, "restoreGeometry", lambda self, data: self.setGeometry(1, 25, 1278, 694) or True)
    ru = language.switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert ru.geometry() == where


def test_the_new_window_does_not_set_the_applications_style_again(window, qtbot, monkeypatch):
    """Setting the style or style sheet re-polishes every widget of both windows: half of a switch's time."""
    from PySide6.QtWidgets import QApplication

    from explorer.gui.shell.language import switch_language

    wait_run(qtbot, window.explorer)
    app = QApplication.instance()
    calls = []
    monkeypatch.setattr(app, "setStyleSheet", lambda sheet: calls.append("sheet"))
    monkeypatch.setattr(app, "setStyle", lambda style: calls.append("style"))
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert calls == []
