"""View > Language: English or Russian, switched while the app runs.

The window's ~750 texts are set when its widgets are built, so a switch
*rebuilds the main window in place*: the window's settings are saved (geometry,
docks, tab, every page's inputs), its live state is captured
(``MainWindow.capture_state(live=True)``: every feature says what it holds — the
playback, the lesson and its step, presentation mode, the open measurements and
calibration, the scenario's file), the translators are swapped, a new window of the
same kind is built from those settings *on the same workspace* (the scenario, its
run, cycle and selected SM, the undo steps: ``workspace.Workspace``) and given that
state, shown where the old one was, and the old one closes without saving over it
(its views stop listening to the workspace first). Nothing re-simulates when the
run on screen is current, and the switch itself is not an undo step.

The choice is remembered in the settings (``view/language``); ``--lang`` on the
command line overrides it for one run. A feature whose work would be lost (a GPU
measurement or calibration in progress) blocks the switch
(``rebuild_blocker()``): the status bar says why.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from explorer.gui.shell.i18n import LANGUAGES, SETTINGS_KEY, current_language, install_translators


class LanguageMenu(QObject):
    """The View > Language submenu of one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.menu = QMenu(self.tr("&Language"), window)
        self.menu.setObjectName("language_menu")
        window.view_menu.addMenu(self.menu)
        group = QActionGroup(self)
        group.setExclusive(True)
        self.actions: dict[str, QAction] = {}
        current = current_language()
        for code, name in LANGUAGES.items():  # each language named in itself, as language menus do
            action = QAction(name, window, checkable=True)
            action.setObjectName(f"language_{code}")
            action.setChecked(code == current)
            action.setStatusTip(self.tr("Show the interface and the lessons in this language."))
            action.triggered.connect(lambda _checked=False, c=code: self.choose(c))
            group.addAction(action)
            self.menu.addAction(action)
            self.actions[code] = action

    def choose(self, code: str) -> None:
        """The menu's slot: switch (the new window takes over), or say why not."""
        if switch_language(self.window, code) is self.window:
            self.actions[current_language()].setChecked(True)


def switch_language(window, code: str):
    """Show ``window`` in language ``code``; returns the window now on screen (a new one, or ``window``)."""
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {tuple(LANGUAGES)}, not {code!r}")
    if code == current_language():
        window.settings.setValue(SETTINGS_KEY, code)
        return window
    blocker = window.rebuild_blocker()
    if blocker:
        window.statusBar().showMessage(blocker, 8000)
        return window
    window.settings.setValue(SETTINGS_KEY, code)
    state = window.capture_state(live=True)
    # the window's place and size as they are, not as saved bytes restored: restoreGeometry() fits a window to the
    # screen again (at QT_SCALE_FACTOR=1.5 a 1280x720 window came back 1278x694, one pixel over)
    geometry, window_state = window.geometry(), window.windowState()
    presentation = window.feature("presentation")
    if presentation is not None:
        presentation.set_presenting(False)  # saved geometry and the app's palette: the normal ones
    window.save_settings()
    install_translators(QApplication.instance(), code)

    # the old window's views stop listening before the new one's restore changes the workspace (a view of the
    # closing window must not act on it: the Your kernel page would reopen its file)
    window.workspace.release(window.workspace.listeners())
    new = type(window)(settings=window.settings, workspace=window.workspace)
    if window.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose):
        new.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    plain = not window_state & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen)
    if plain:
        new.setGeometry(geometry)
    new.show()
    if plain and new.geometry() != geometry:
        new.setGeometry(geometry)
    new.restore_state(state)
    window.replaced_by = new  # its closeEvent must not save over the settings the new window uses
    window.close()
    new.activateWindow()
    new.statusBar().showMessage(
        QCoreApplication.translate("LanguageMenu", "Language: {name}").format(name=LANGUAGES[code]), 5000)
    return new


def install(window) -> None:
    window.add_feature("language", LanguageMenu(window))
