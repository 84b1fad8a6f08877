"""Scenario files: File > Open (and drag-and-drop) of ``.toml``, Save, Save As, Open Recent.

A scenario file is what ``Scenario.save`` writes (TOML; written to a temporary
file and renamed, so a crash never leaves half a file). Opening one goes through
the CLI's own loader (``Scenario.load``: a regular file under the size cap, valid
TOML, every value validated): a file that cannot be used is one message that
names the file and the problem, and the scenario on screen (with any edit in
progress) stays as it was. An opened file is an undoable change of the Explorer's
scenario. Saving while a field is invalid is refused with the same kind of
message, rather than quietly saving the last good values.

The feature (called "files") keeps the recent files (``recent``: window settings,
``files/recent``); other features may ``recent.add(path)`` their own kinds, which
reopen through ``window.open_path``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from explorer.gui.common.messages import warn
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

RECENT_KEY = "files/recent"
RECENT_MAX = 8


class RecentFiles(QObject):
    """Most recent first, absolute paths, at most RECENT_MAX, kept in the settings."""

    changed = Signal()

    def __init__(self, settings, parent: QObject | None = None):
        super().__init__(parent)
        self.settings = settings

    def paths(self) -> list[str]:
        value = self.settings.value(RECENT_KEY, [])
        if isinstance(value, str):
            value = [value] if value else []
        if not isinstance(value, (list, tuple)):
            return []
        return [str(v) for v in value if isinstance(v, str) and v][:RECENT_MAX]

    def _store(self, paths: list[str]) -> None:
        self.settings.setValue(RECENT_KEY, paths[:RECENT_MAX])
        self.changed.emit()

    def add(self, path: str | Path) -> None:
        try:
            text = str(Path(path).resolve())
        except (OSError, RuntimeError):  # a symlink loop: keep the name as given
            text = str(Path(path).absolute())
        self._store([text] + [p for p in self.paths() if p != text])

    def remove(self, path: str | Path) -> None:
        text = str(path)
        self._store([p for p in self.paths() if p != text])

    def clear(self) -> None:
        self._store([])


class ScenarioFiles(QObject):
    """Open/save of the Explorer's scenario for one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.workspace = window.workspace  # the scenario opened and saved
        self.page = window.explorer  # its panel's texts (apply_edits)
        self.path: Path | None = None  # the file the scenario came from or went to
        self._saved: Scenario | None = None  # the scenario as that file holds it
        self.last_message: QMessageBox | None = None
        self.recent = RecentFiles(window.settings, self)
        window.register_file_handler((".toml",), self.tr("Scenarios"), self.open_file)
        self._build_actions()
        self.workspace.session.scenario_changed.connect(lambda _s: self._update_title())
        self.workspace.session.errors_changed.connect(lambda _e: self._update_title())

    # -- menu -----------------------------------------------------------------------
    def _build_actions(self) -> None:
        w = self.window
        menu = w.file_menu
        before = w.file_menu_end
        self.recent_menu = QMenu(self.tr("Open &Recent"), w)
        self.recent_menu.setObjectName("recent_menu")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        menu.insertMenu(before, self.recent_menu)
        self.save_action = QAction(self.tr("&Save Scenario"), w)
        self.save_action.setShortcut(QKeySequence("Ctrl+S"))
        self.save_action.setStatusTip(self.tr("Save the Explorer's scenario to its file (TOML)."))
        self.save_action.triggered.connect(self.save)
        self.save_as_action = QAction(self.tr("Save Scenario &As…"), w)
        self.save_as_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.save_as_action.setStatusTip(self.tr("Save the Explorer's scenario to a new TOML file."))
        self.save_as_action.triggered.connect(self.save_as)
        menu.insertAction(before, self.save_action)
        menu.insertAction(before, self.save_as_action)
        self._fill_recent()

    def _fill_recent(self) -> None:
        menu = self.recent_menu
        menu.clear()
        paths = self.recent.paths()
        for i, text in enumerate(paths, 1):
            path = Path(text)
            action = menu.addAction(f"&{i}  {path.name}  —  {path.parent}")
            action.setData(text)
            action.setStatusTip(text)
            action.triggered.connect(lambda _c=False, p=text: self.open_recent(p))
        if not paths:
            none = menu.addAction(self.tr("(no recent files)"))
            none.setEnabled(False)
        menu.addSeparator()
        clear = menu.addAction(self.tr("&Clear the list"))
        clear.setEnabled(bool(paths))
        clear.triggered.connect(self.recent.clear)

    # -- open -------------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Load a scenario file into the Explorer; a bad file is a message, nothing changes."""
        path = Path(path)
        try:
            scenario = Scenario.load(path).anchored()  # a [kernel]'s .cu by its absolute path from here on
        except InputError as exc:
            self._complain(self.tr("Cannot open {name}").format(name=path.name),
                           self.tr("{name} is not a scenario this app can use:\n{problem}").format(
                               name=path.name, problem=self._problem(exc, path)))
            return False
        except (OSError, RecursionError, TypeError, ValueError, KeyError, AttributeError) as exc:
            # the loader should have said InputError (deep nesting, a list where a name belongs, a
            # 5000-digit number): still one message, never an exception in the event loop
            self._complain(self.tr("Cannot open {name}").format(name=path.name),
                           self.tr("{name} is not a scenario this app can use:\n{problem}").format(
                               name=path.name, problem=f"{type(exc).__name__}: {exc}"[:500]))
            return False
        self.workspace.change_scenario(scenario, "file")
        self.path = path.resolve()
        self._saved = scenario
        self.recent.add(self.path)
        self.window.show_view("explorer")
        self._update_title()
        self.window.statusBar().showMessage(self.tr("Opened {path}").format(path=str(self.path)), 5000)
        return True

    def open_recent(self, text: str) -> bool:
        if not Path(text).exists():  # gone (or a dangling link); anything else is judged by its loader
            self.recent.remove(text)
            self._complain(self.tr("Cannot open {name}").format(name=Path(text).name),
                           self.tr("{path} no longer exists; it was taken off the recent files.").format(path=text))
            return False
        return self.window.open_path(text)

    @staticmethod
    def _problem(exc: InputError, path: Path) -> str:
        text = str(exc)
        for prefix in (f"{path}: ", f"{path.name}: "):
            text = text.removeprefix(prefix)
        return text

    # -- save -------------------------------------------------------------------------
    def current(self) -> Scenario | None:
        """The scenario to save: the panel's values; None (with a message) while any is invalid."""
        self.page.apply_edits()  # an edit typed in the last few milliseconds counts
        errors = self.workspace.session.errors
        if errors:
            fields = ", ".join(sorted(errors))
            self._complain(self.tr("Not saved"), self.tr(
                "Some fields are invalid ({fields}). Fix them first: saving now would not save what you see.")
                .format(fields=fields))
            return None
        return self.workspace.scenario

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        if self.current() is None:
            return False
        start = str(self.path) if self.path else str(Path.home() / f"{self.workspace.scenario.name or 'scenario'}.toml")
        name, _ = QFileDialog.getSaveFileName(self.window, self.tr("Save Scenario"), start,
                                              self.tr("Scenarios (*.toml)"))
        if not name:
            return False
        path = Path(name)
        if path.suffix.lower() != ".toml":
            path = path.with_name(path.name + ".toml")
        return self.save_to(path)

    def save_to(self, path: str | Path) -> bool:
        """Write the scenario (atomically) to ``path``; remembers it as the current file."""
        path = Path(path)
        scenario = self.current()
        if scenario is None:
            return False
        try:
            scenario.save(path)
        except OSError as exc:
            self._complain(self.tr("Not saved"), self.tr("Cannot write {path}: {err}").format(
                path=str(path), err=exc.strerror or str(exc)))
            return False
        self.path = path.resolve()
        self._saved = scenario
        self.recent.add(self.path)
        self._update_title()
        self.window.statusBar().showMessage(self.tr("Saved {path}").format(path=str(self.path)), 5000)
        return True

    # -- state ------------------------------------------------------------------------
    @property
    def modified(self) -> bool:
        session = self.workspace.session
        return self._saved is not None and (session.scenario != self._saved or bool(session.errors))

    def _update_title(self) -> None:
        w = self.window
        if self.path is None:
            return
        w.setWindowTitle(self.tr("{name}[*] — Warp Explorer").format(name=self.path.name))
        w.setWindowModified(self.modified)

    def _complain(self, title: str, text: str) -> QMessageBox:
        """A window-modal message that does not block (tests and scripts go on)."""
        self.last_message = warn(self.window, title, text)
        self.window.statusBar().showMessage(text.replace("\n", " "), 10000)
        return self.last_message

    # -- state: a rebuilt window keeps the scenario's file --------------------------------
    def capture_state(self, live: bool = False) -> dict:
        return {"path": self.path, "saved": self._saved} if live and self.path is not None else {}

    def restore_state(self, state: dict) -> None:
        self.path, self._saved = state.get("path"), state.get("saved")
        self._update_title()


def install(window) -> None:
    window.add_feature("files", ScenarioFiles(window))
