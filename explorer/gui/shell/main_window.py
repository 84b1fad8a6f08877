"""The main window: tabs, menus, status bar, the features plugged into it, and the state it remembers.

The first tab is the Explorer (SM grid, timeline, counts, playback) on the
mission's example; the occupancy calculator follows. Everything else joins as a
*feature*: a module in :data:`FEATURES` whose ``install(window)`` adds pages
(:meth:`MainWindow.add_page`), menu actions, file handlers, and registers itself
under a name (:meth:`MainWindow.add_feature`; :meth:`MainWindow.feature` finds it).

The window talks to its pages and features only through their optional hooks:
``apply_theme``, ``capture_state(live)`` / ``restore_state(state)`` (the settings
between runs, and a rebuilt window's hand-over: see :meth:`capture_state`),
``rebuild_blocker()`` (why the window cannot be rebuilt now), ``shutdown`` and a
page's ``status`` signal (shown while its tab is current). So the shell never
needs to know what a page contains, and no feature reaches into another.

The window owns the application's document, a Qt-free :class:`Workspace` (the
scenario, its run and cursor, the command stack, the simulation): every feature
reaches it as ``window.workspace``, and the pages are views of it. Edit > Undo / Redo
(Ctrl+Z, Ctrl+Shift+Z) step through its scenario changes (``workspace.commands``). A
language switch builds a new window on the same workspace.

Pages not in front at start-up (the calculator, GEMM, Memory) are built when first
needed (``common.page``: shown, asked for a widget) and otherwise after the frame that
shows the first simulation, one every ``BUILD_LATER_MS``: building them first made
the first result wait ~0.6 s for tabs nobody had opened yet. Their lesson targets are
named by (page, attribute) until then (:class:`LessonTargets`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable, NamedTuple

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox, QWidget

from explorer import __version__
from explorer.gui.common.messages import warn
from explorer.gui.common.page import Page
from explorer.gui.common.settings import as_int, open_settings, read_bytes, read_state, read_str, write_state
from explorer.gui.common.theme import MODES, Theme, ThemeManager
from explorer.gui.explore.page import ExplorerPage
from explorer.gui.occupancy.panel import OccupancyPanel
from explorer.gui.shell.front_tabs import FrontPageTabs
from explorer.gui.workspace.workspace import Workspace

DEFAULT_SIZE = (1600, 900)
# after the frame that shows the first simulation, the pages put off are built one per timer tick this far
# apart (each takes 0.1-0.4 s of the GUI thread: the first result and its first moments of playback come first)
BUILD_LATER_MS = 250


class LessonTargets(dict):
    """Panel id -> widget, for lessons and export. A widget of a page built later is named by (page,
    attribute) and looked up, building the page, only when something asks for it."""

    def add_later(self, name: str, page: Page, attribute: str) -> None:
        super().__setitem__(name, _Later(page, attribute))

    def __getitem__(self, name: str):
        value = super().__getitem__(name)
        return getattr(value.page, value.attribute) if isinstance(value, _Later) else value

    def get(self, name: str, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


class _Later(NamedTuple):
    """A LessonTargets entry on a page built later: the page and the name of the widget."""

    page: Page
    attribute: str

# Features that plug into the window: each module has ``install(window)``, which adds
# its pages, menu actions and file handlers through the hooks below. One line each.
FEATURES: list[str] = [
    "explorer.gui.measure.feature",
    "explorer.gui.gemm.feature",
    "explorer.gui.compare.feature",
    "explorer.gui.sass.feature",
    "explorer.gui.kernel.feature",
    "explorer.gui.lessons.panel",
    "explorer.gui.shell.language",
    "explorer.gui.lessons.presentation",
    "explorer.gui.files.scenario_files",
    "explorer.gui.files.export_menu",
]
WINDOW_STATE = "window"  # capture_state's key for the window's own part (the current tab)


class MainWindow(QMainWindow):
    """Tabs of views over the same core; settings and theme are injected for tests."""

    def __init__(
        self,
        settings: QSettings | None = None,
        theme: ThemeManager | None = None,
        parent: QWidget | None = None,
        autoplay: bool = False,
        workspace: Workspace | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Warp Explorer"))
        self.settings = settings if settings is not None else open_settings()
        app = QApplication.instance()
        self.theme = theme or ThemeManager(app, read_str(self.settings, "view/theme", "system"), parent=self)

        self.tabs = FrontPageTabs(self)  # as small as the tab in front needs, not the largest tab
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("status_summary")
        self.statusBar().addWidget(self.status_label, 1)

        # lesson hooks: view id -> tab page, panel id -> widget (explorer.model.lessons.VIEWS / TARGETS)
        self.views: dict[str, QWidget] = {}
        self.lesson_targets = LessonTargets()
        self.features: dict[str, object] = {}  # name -> page or feature object, in the order they joined
        self.replaced_by: MainWindow | None = None  # set by a language switch: the window that took over
        self.workspace = workspace if workspace is not None else Workspace()  # handed on by a language switch
        self.explorer = ExplorerPage(self, autoplay=autoplay, workspace=self.workspace)
        self.add_page(self.explorer, self.tr("&Explorer"), view_id="explorer")
        self.lesson_targets.update({
            "scenario": self.explorer.panel, "sm_grid": self.explorer.grid, "timeline": self.explorer.timeline,
            "counts": self.explorer.counts_panel, "metrics": self.explorer.metrics, "legend": self.explorer.legend,
            "dram": self.explorer.metrics.whole.dram_box, "stream": self.explorer.stream_strip,
            "sol": self.explorer.sol, "unit_strip": self.explorer.unit_strip,
        })
        self.occupancy = OccupancyPanel(self, build_now=False)
        self.add_page(self.occupancy, self.tr("&Occupancy calculator"), view_id="occupancy")
        self.lesson_targets["occupancy"] = self.occupancy
        self.lesson_targets.add_later("occupancy_graphs", self.occupancy, "graphs")
        self.explorer.grid.run_painted.connect(self._first_result)
        self.workspace.session.simulation_changed.connect(self._first_result)
        self.tabs.currentChanged.connect(self._show_page_status)
        self._show_page_status()
        self.file_message: QMessageBox | None = None  # the last "cannot open" message

        self._file_handlers: list[tuple[tuple[str, ...], str, Callable[[Path], None]]] = []
        self._build_menus()
        self.setAcceptDrops(True)
        for name in FEATURES:
            importlib.import_module(name).install(self)
        self.theme.changed.connect(self.apply_theme)
        self.apply_theme(self.theme.theme)
        self._restore()

    # -- pages and features -------------------------------------------------------
    def add_page(self, page: QWidget, title: str, view_id: str | None = None) -> int:
        """Add a tab; ``&`` in the title gives it an Alt+letter shortcut; ``view_id`` lets lessons show it
        (and names the page as a feature: its state is kept under that name)."""
        index = self.tabs.addTab(page, title)
        if view_id:
            self.views[view_id] = page
            self.add_feature(view_id, page)
        if hasattr(page, "status"):
            page.status.connect(lambda _text, p=page: self._show_page_status())
        return index

    def _first_result(self) -> None:
        """The first simulation's frame is painted (or it failed): build the pages put off, one per timer tick
        (not as soon as the run arrives: the frame that shows it comes first)."""
        session = self.workspace.session
        if self.explorer.grid.painted_run is None and session.failure is None:
            return
        self._stop_waiting_for_first_result()
        QTimer.singleShot(BUILD_LATER_MS, self, self._build_next_page)

    def _stop_waiting_for_first_result(self) -> None:
        if self.workspace.session.simulation_changed.is_connected(self._first_result):
            self.workspace.session.simulation_changed.disconnect(self._first_result)
            self.explorer.grid.run_painted.disconnect(self._first_result)

    def _unbuilt_pages(self) -> list[Page]:
        return [page for page in self.pages() if isinstance(page, Page) and not page.built]

    def _build_next_page(self) -> None:
        unbuilt = self._unbuilt_pages()
        if unbuilt:
            unbuilt[0].ensure_built()
            QTimer.singleShot(BUILD_LATER_MS, self, self._build_next_page)

    def build_pages(self) -> None:
        """Every page built now (presentation mode scales what exists: a page built later would not be)."""
        for page in self._unbuilt_pages():
            page.ensure_built()

    def _show_page_status(self, *_args) -> None:
        """The status bar speaks for the current tab."""
        page = self.tabs.currentWidget()
        self.status_label.setText(getattr(page, "status_text", ""))

    def show_view(self, view_id: str) -> bool:
        """Bring a view's tab to the front (False if this build has no such view)."""
        page = self.views.get(view_id)
        if page is None:
            return False
        self.tabs.setCurrentWidget(page)
        return True

    def pages(self) -> list[QWidget]:
        return [self.tabs.widget(i) for i in range(self.tabs.count())]

    def add_feature(self, name: str, feature):
        """Register a page or feature under ``name`` (its state's key); returns it."""
        if name in self.features and self.features[name] is not feature:
            raise ValueError(f"a feature called {name!r} is installed already")
        self.features[name] = feature
        return feature

    def feature(self, name: str):
        """The feature called ``name`` (e.g. "gpu", "lessons", "files"), or None in a build without it."""
        return self.features.get(name)

    def _hooks(self, hook: str) -> list[tuple[str, Callable]]:
        return [(name, getattr(f, hook)) for name, f in self.features.items() if callable(getattr(f, hook, None))]

    # -- files ----------------------------------------------------------------------
    def register_file_handler(self, suffixes: tuple[str, ...], description: str,
                              open_file: Callable[[Path], None]) -> None:
        """Let File > Open and drag-and-drop open files ending in ``suffixes`` (e.g. ``(".toml",)``)."""
        self._file_handlers.append((tuple(s.lower() for s in suffixes), description, open_file))

    def handler_for(self, path: Path) -> Callable[[Path], None] | None:
        name = path.name.lower()
        for suffixes, _description, open_file in self._file_handlers:
            if name.endswith(suffixes):
                return open_file
        return None

    def open_path(self, path: str | Path) -> bool:
        """Open a file with the handler for its kind (True: a handler took it).

        The handler reads it with the CLI's own validated loader and says what is
        wrong with a bad file; an unknown kind is a message here. Nothing a file
        holds can raise out of this call: anything a handler did not expect is
        shown as one message too (and logged as a bug).
        """
        try:
            path = Path(path)
            name = path.name or str(path)
        except (TypeError, ValueError):
            return False
        handler = self.handler_for(path)
        if handler is None:
            kinds = ", ".join(s for suffixes, _d, _o in self._file_handlers for s in suffixes) or self.tr("none")
            self.statusBar().showMessage(self.tr("Cannot open {name}: not a file kind this app reads ({kinds}).")
                                         .format(name=name, kinds=kinds), 8000)
            return False
        try:
            handler(path)
        except Exception as exc:  # noqa: BLE001 - a handler's bug must not reach the event loop
            import traceback

            from explorer.gui.common.guard import report_bug

            report_bug(f"opening {name}", traceback.format_exc())
            self.show_file_problem(name, f"{type(exc).__name__}: {exc}")
        return True

    def show_file_problem(self, name: str, why: str) -> QMessageBox:
        """The one message for a file that cannot be opened (features use it for their kinds)."""
        if self.file_message is not None:
            self.file_message.close()
        text = self.tr("{name} cannot be opened:\n{why}").format(name=name, why=why)
        box = self.file_message = warn(self, self.tr("Cannot open {name}").format(name=name), text)
        box.destroyed.connect(lambda *_: setattr(self, "file_message", None))
        self.statusBar().showMessage(text.replace("\n", " "), 10000)
        return box

    def open_dialog(self) -> None:
        filters = [f"{d} ({' '.join('*' + s for s in suffixes)})" for suffixes, d, _o in self._file_handlers]
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open"), "", ";;".join(filters))
        if path:
            self.open_path(path)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt API
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if any(url.isLocalFile() and self.handler_for(Path(url.toLocalFile())) for url in urls):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt API
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
        event.acceptProposedAction()

    # -- menus --------------------------------------------------------------------
    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = self.file_menu = bar.addMenu(self.tr("&File"))
        self.open_action = QAction(self.tr("&Open…"), self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.setStatusTip(self.tr("Open a scenario or a measurement (files can also be dropped on the window)."))
        self.open_action.triggered.connect(self.open_dialog)
        file_menu.addAction(self.open_action)
        self.file_menu_end = file_menu.addSeparator()  # features insert their actions before this
        self.quit_action = QAction(self.tr("&Quit"), self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        if self.quit_action.shortcut().isEmpty():  # some platforms define no standard Quit key
            self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self.close)
        file_menu.addAction(self.quit_action)

        edit_menu = self.edit_menu = bar.addMenu(self.tr("E&dit"))
        self.undo_action = QAction(self.tr("&Undo"), self)
        self.undo_action.setObjectName("undo_action")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.workspace.undo)
        self.redo_action = QAction(self.tr("&Redo"), self)
        self.redo_action.setObjectName("redo_action")
        redo_keys = [QKeySequence("Ctrl+Shift+Z")] + QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        self.redo_action.setShortcuts(list(dict.fromkeys(redo_keys)))  # Ctrl+Shift+Z everywhere, Ctrl+Y on Windows
        self.redo_action.triggered.connect(self.workspace.redo)
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            edit_menu.addAction(action)
        self.workspace.commands.changed.connect(self._update_undo)
        self._update_undo()

        view_menu = self.view_menu = bar.addMenu(self.tr("&View"))
        theme_menu = view_menu.addMenu(self.tr("&Theme"))
        self.theme_actions: dict[str, QAction] = {}
        group = QActionGroup(self)
        group.setExclusive(True)
        names = {"system": self.tr("&System"), "light": self.tr("&Light"), "dark": self.tr("&Dark")}
        tips = {
            "system": self.tr("Follow the operating system's light or dark setting."),
            "light": self.tr("Dark text on a light background."),
            "dark": self.tr("Light text on a dark background."),
        }
        for mode in MODES:
            action = QAction(names[mode], self, checkable=True)
            action.setStatusTip(tips[mode])
            action.setChecked(mode == self.theme.mode)
            action.triggered.connect(lambda _checked=False, m=mode: self.set_theme_mode(m))
            group.addAction(action)
            theme_menu.addAction(action)
            self.theme_actions[mode] = action

        help_menu = self.help_menu = bar.addMenu(self.tr("&Help"))
        self.about_action = QAction(self.tr("&About Warp Explorer"), self)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(self.show_about)
        help_menu.addAction(self.about_action)
        about_qt = QAction(self.tr("About &Qt"), self)
        about_qt.setMenuRole(QAction.MenuRole.AboutQtRole)
        about_qt.triggered.connect(QApplication.aboutQt)
        help_menu.addAction(about_qt)

    def _change_names(self) -> dict[str, str]:
        return {
            "edit": self.tr("Field Edit"), "preset": self.tr("Loading a Preset"), "file": self.tr("Opening a File"),
            "gemm": self.tr("Simulate in the Explorer"), "measurement": self.tr("Measured Scenario"),
            "resimulate": self.tr("Re-simulation with the Compiled Kernel"),
            "kernel": self.tr("Simulating Your Kernel"),
        }

    def _update_undo(self) -> None:
        """Edit > Undo / Redo say what they would undo or redo, and are off when there is nothing."""
        stack, names = self.workspace.commands, self._change_names()
        for action, kind, with_name, plain in (
            (self.undo_action, stack.undo_kind, self.tr("&Undo {what}"), self.tr("&Undo")),
            (self.redo_action, stack.redo_kind, self.tr("&Redo {what}"), self.tr("&Redo")),
        ):
            action.setEnabled(kind is not None)
            action.setText(with_name.format(what=names.get(kind, kind)) if kind is not None else plain)

    def set_theme_mode(self, mode: str) -> None:
        self.theme.set_mode(mode)
        self.theme_actions[mode].setChecked(True)
        self.settings.setValue("view/theme", mode)

    def apply_theme(self, theme: Theme) -> None:
        """Every page and feature in ``theme`` (the theme manager's, or presentation mode's high contrast)."""
        for _name, apply_theme in self._hooks("apply_theme"):
            apply_theme(theme)

    def show_about(self) -> QMessageBox:
        """A non-blocking About box (window-modal; deletes itself when closed)."""
        box = QMessageBox(self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowTitle(self.tr("About Warp Explorer"))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(
            self.tr(
                "<h3>Warp Explorer {version}</h3>"
                "<p>See how a GPU runs a kernel: the work you <b>launch</b>, the work <b>resident</b> "
                "on the SMs, and the warps <b>ready</b> to issue right now.</p>"
                "<p>Occupancy follows NVIDIA's rules (cuda_occupancy.h). Colours: the Okabe–Ito "
                "colour-blind-safe palette.</p>"
            ).format(version=__version__)
        )
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.open()
        return box

    # -- state --------------------------------------------------------------------
    def capture_state(self, live: bool = False) -> dict:
        """Every feature's state under its name, and the window's own (the tab) under "window".

        ``live=False``: plain values, what the settings keep between runs; ``live=True``
        adds what a window rebuilt in another language takes over (the run on screen,
        the open measurement, the lesson, presentation mode, the undo steps).
        """
        state = {name: capture(live) for name, capture in self._hooks("capture_state")}
        state[WINDOW_STATE] = {"tab": self.tabs.currentIndex()}
        return state

    def restore_state(self, state: dict) -> None:
        """Give each feature its part of ``state`` (from :meth:`capture_state`, here or in another window)."""
        for name, restore in self._hooks("restore_state"):
            part = state.get(name)
            if isinstance(part, dict) and part:
                restore(part)
        own = state.get(WINDOW_STATE)
        tab = as_int(own.get("tab"), -1) if isinstance(own, dict) else -1
        if 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)

    def rebuild_blocker(self) -> str | None:
        """Why the window cannot be rebuilt now (a GPU run would be lost), or None."""
        for _name, blocker in self._hooks("rebuild_blocker"):
            reason = blocker()
            if reason:
                return reason
        return None

    # -- persistence --------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings
        geometry = read_bytes(s, "window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self._default_geometry()
        state = read_bytes(s, "window/state")
        if state is not None:
            self.restoreState(state)
        saved = {name: read_state(s, name) for name, _hook in self._hooks("restore_state")}
        saved[WINDOW_STATE] = {"tab": s.value("window/tab", 0)}
        self.restore_state(saved)

    def _default_geometry(self) -> None:
        """1600×900, or 90% of a smaller screen, centred."""
        width, height = DEFAULT_SIZE
        screen = self.screen()
        if screen is not None:
            area = screen.availableGeometry()
            width, height = min(width, int(area.width() * 0.9)), min(height, int(area.height() * 0.9))
            self.resize(width, height)
            frame = self.frameGeometry()
            frame.moveCenter(area.center())
            self.move(frame.topLeft())
        else:
            self.resize(width, height)

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("view/theme", self.theme.mode)
        for name, part in self.capture_state(live=False).items():
            if name == WINDOW_STATE:
                s.setValue("window/tab", part["tab"])
            elif part:
                write_state(s, name, part)
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.replaced_by is None:  # a language switch saved already, for its new window
            self.save_settings()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop every feature's timers and workers (the window is closing, or a headless render is done)."""
        self._stop_waiting_for_first_result()
        for _name, shutdown in self._hooks("shutdown"):
            shutdown()
        if self.file_message is not None:
            self.file_message.close()
