"""View > Language: English or Russian, switched while the app runs.

The window's ~750 texts are set when its widgets are built, so a switch
*rebuilds the main window in place*: the current state is saved (the window's
own settings: geometry, docks, tab, every page's inputs) and the in-memory
state is captured (the simulation on screen, its cycle, SM and playback, the
lesson and its step, presentation mode, the open measurement and calibration,
the scenario's file), the translators are swapped, a new window of the same
kind is built from those settings and given that state, shown where the old
one was, and the old one closes without saving over it. Nothing re-simulates
when the run on screen is current.

The choice is remembered in the settings (``view/language``); ``--lang`` on the
command line overrides it for one run. A GPU measurement or calibration in
progress blocks the switch (it would be cancelled): the status bar says so.
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
    gpu = getattr(window, "gpu", None)
    if gpu is not None and gpu.long_task is not None:
        window.statusBar().showMessage(QCoreApplication.translate(
            "LanguageMenu", "Finish or cancel the GPU run first: changing the language rebuilds the window."), 8000)
        return window
    window.settings.setValue(SETTINGS_KEY, code)
    state = _capture(window)
    presentation = getattr(window, "presentation", None)
    if presentation is not None and presentation.presenting:
        presentation.set_presenting(False)  # saved geometry and the app's palette: the normal ones
    window.save_settings()
    install_translators(QApplication.instance(), code)

    new = type(window)(settings=window.settings)
    if window.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose):
        new.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _restore(new, state)
    new.show()
    if state["presenting"]:
        new.presentation.set_presenting(True)
    window.replaced_by = new  # its closeEvent must not save over the settings the new window uses
    window.close()
    new.activateWindow()
    new.statusBar().showMessage(
        QCoreApplication.translate("LanguageMenu", "Language: {name}").format(name=LANGUAGES[code]), 5000)
    return new


def _capture(window) -> dict:
    page = window.explorer
    session = page.session
    run = session.run
    current = run is not None and run.result.scenario == session.scenario and not page.simulating \
        and not session.errors
    lessons = getattr(window, "lessons", None)
    files = getattr(window, "scenario_files", None)
    gpu = getattr(window, "gpu", None)
    presentation = getattr(window, "presentation", None)
    return {
        "tab": window.tabs.currentIndex(),
        "run": run if current else None,
        "cycle": session.cycle,
        "sm": session.selected_sm,
        "playing": page.clock.playing,
        "lesson": lessons.state() if lessons is not None else None,
        "file": (files.path, files._saved) if files is not None else None,
        "gpu": (gpu.measurement, gpu.saved, list(gpu.measurements), gpu.calibration) if gpu is not None else None,
        "presenting": bool(presentation is not None and presentation.presenting),
    }


def _restore(window, state: dict) -> None:
    page = window.explorer
    run = state["run"]
    if run is not None:
        page.show_run(run)  # the same result object: nothing re-simulates
    gpu = getattr(window, "gpu", None)
    if gpu is not None and state["gpu"] is not None:
        measurement, saved, measurements, calibration = state["gpu"]
        gpu.measurements = measurements
        if measurement is not None:
            gpu.show_measurement(measurement, saved)
        if calibration is not None:
            gpu.calibration = calibration
            gpu.box.show_calibration(calibration)
    files = getattr(window, "scenario_files", None)
    if files is not None and state["file"] is not None:
        files.path, files._saved = state["file"]
        files._update_title()
    lessons = getattr(window, "lessons", None)
    if lessons is not None and state["lesson"] is not None:
        lessons.resume(state["lesson"])
    if run is not None:
        page.session.select_sm(state["sm"])
        page.session.set_cycle(state["cycle"])
        if state["playing"]:
            page.clock.play()
    if 0 <= state["tab"] < window.tabs.count():
        window.tabs.setCurrentIndex(state["tab"])


def install(window) -> None:
    window.language_menu = LanguageMenu(window)
