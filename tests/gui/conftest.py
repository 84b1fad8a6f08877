"""GUI test set-up: settings in a temporary directory, a window fixture, leak checks.

Every test gets its own QSettings location (``QSettings.setPath``) so nothing
reads or writes the user's real settings, and the window fixture injects an
INI file under ``tmp_path`` as well. After each test, no top-level widget the
test created may survive (menus, dialogs, windows).
"""

from __future__ import annotations

import gc

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QSettings
from PySide6.QtWidgets import QApplication

from explorer.gui.common.settings import set_application_names


def _flush_deletes(collect: int = 1) -> None:
    """Deliver pending deletions (which may post more), then collect ``collect`` times. One collection is
    what a widget Python still holds needs; the leak check repeats the thorough form only when something
    seems left (each full collection of this process costs a few ms with the heap frozen after collection,
    tests/suite_timing.py, ~50 ms without)."""
    for _ in range(3):
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()
    for _ in range(collect):
        gc.collect()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()


def _top_level_ids() -> set[int]:
    return {shiboken6.getCppPointer(w)[0] for w in QApplication.topLevelWidgets()}


@pytest.fixture(autouse=True)
def isolated_settings(qapp, tmp_path_factory):
    """Point every QSettings default location at a fresh temporary directory."""
    root = tmp_path_factory.mktemp("qsettings")
    set_application_names(qapp)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
            QSettings.setPath(fmt, scope, str(root))
    yield root


@pytest.fixture(autouse=True)
def no_leaked_top_level_widgets(qapp):
    """Set up before qtbot, so this check runs after pytest-qt closed the test's widgets."""
    _flush_deletes(collect=0)
    before = _top_level_ids()
    yield
    _flush_deletes()
    leaked = [w for w in QApplication.topLevelWidgets() if shiboken6.getCppPointer(w)[0] not in before]
    if leaked:  # the thorough form before calling it a leak
        del leaked
        _flush_deletes(collect=3)
        leaked = [w for w in QApplication.topLevelWidgets() if shiboken6.getCppPointer(w)[0] not in before]
    assert not leaked, f"top-level widgets left after the test: {[type(w).__name__ for w in leaked]}"


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "warp-explorer.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def light_theme(qapp):
    """Tests that switch themes leave the app in the light theme for the next test.

    Only what differs is set again (``set_app_theme``, as the window does): this runs while the test's
    window still has every widget, and each ``setStyleSheet`` re-polishes all of them (~0.45 s a window
    here, paid by every GUI test when it was unconditional)."""
    yield
    from explorer.gui.common.theme import LIGHT, set_app_theme

    set_app_theme(qapp, LIGHT)


@pytest.fixture
def window(qtbot, settings, light_theme):
    from explorer.gui.shell.main_window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def panel(window):
    """The occupancy calculator, on screen (the Explorer is the first tab)."""
    window.tabs.setCurrentWidget(window.occupancy)
    return window.occupancy


@pytest.fixture
def english(qapp):
    """Whatever a test switches to, the next test starts in English."""
    yield
    from explorer.texts import numbers
    from explorer.gui.shell.i18n import current_language, install_translators

    install_translators(qapp, "en")
    assert current_language() == "en" and numbers.num(1234.5, 1) == "1,234.5"
