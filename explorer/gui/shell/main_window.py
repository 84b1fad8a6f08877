"""The main window: tabs, menus, status bar, and the state it remembers.

The first tab is the Explorer (SM grid, timeline, counts, playback) on the
mission's example; the occupancy calculator follows. A view joins with
:meth:`MainWindow.add_page`, and gets theme changes, persistence and shutdown
through the optional ``apply_theme`` / ``save_state`` / ``restore_state`` /
``shutdown`` methods and its ``status`` signal (shown while its tab is
current), so the shell never needs to know what a page contains.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox, QTabWidget, QWidget

from explorer import __version__
from explorer.gui.explore.page import ExplorerPage
from explorer.gui.occupancy.panel import OccupancyPanel
from explorer.gui.common.settings import open_settings, read_bytes, read_str
from explorer.gui.common.theme import MODES, Theme, ThemeManager

DEFAULT_SIZE = (1600, 900)

# Features that plug into the window: each module has ``install(window)``, which adds
# its pages, menu actions and file handlers through the hooks below. One line each.
FEATURES: list[str] = [
    "explorer.gui.measure.feature",
    "explorer.gui.gemm.feature",
    "explorer.gui.lessons.panel",
    "explorer.gui.shell.language",
    "explorer.gui.lessons.presentation",
    "explorer.gui.files.scenario_files",
    "explorer.gui.files.export_menu",
]


class MainWindow(QMainWindow):
    """Tabs of views over the same core; settings and theme are injected for tests."""

    def __init__(
        self,
        settings: QSettings | None = None,
        theme: ThemeManager | None = None,
        parent: QWidget | None = None,
        autoplay: bool = False,
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Warp Explorer"))
        self.settings = settings if settings is not None else open_settings()
        app = QApplication.instance()
        self.theme = theme or ThemeManager(app, read_str(self.settings, "view/theme", "system"), parent=self)

        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("status_summary")
        self.statusBar().addWidget(self.status_label, 1)

        # lesson hooks: view id -> tab page, panel id -> widget (explorer.lessons.VIEWS / TARGETS)
        self.views: dict[str, QWidget] = {}
        self.lesson_targets: dict[str, QWidget] = {}
        self.explorer = ExplorerPage(self, autoplay=autoplay)
        self.add_page(self.explorer, self.tr("&Explorer"), view_id="explorer")
        self.lesson_targets.update({
            "scenario": self.explorer.panel, "sm_grid": self.explorer.grid, "timeline": self.explorer.timeline,
            "counts": self.explorer.counts, "metrics": self.explorer.metrics, "legend": self.explorer.legend,
        })
        self.occupancy = OccupancyPanel(self)
        self.add_page(self.occupancy, self.tr("&Occupancy calculator"), view_id="occupancy")
        self.lesson_targets["occupancy"] = self.occupancy
        self.lesson_targets["occupancy_graphs"] = self.occupancy.graphs
        self.tabs.currentChanged.connect(self._show_page_status)
        self._show_page_status()

        self._file_handlers: list[tuple[tuple[str, ...], str, Callable[[Path], None]]] = []
        self._build_menus()
        self.setAcceptDrops(True)
        for name in FEATURES:
            importlib.import_module(name).install(self)
        self.theme.changed.connect(self._on_theme_changed)
        self._on_theme_changed(self.theme.theme)
        self._restore()

    # -- pages --------------------------------------------------------------------
    def add_page(self, page: QWidget, title: str, view_id: str | None = None) -> int:
        """Add a tab; ``&`` in the title gives it an Alt+letter shortcut; ``view_id`` lets lessons show it."""
        index = self.tabs.addTab(page, title)
        if view_id:
            self.views[view_id] = page
        if hasattr(page, "status"):
            page.status.connect(lambda _text, p=page: self._show_page_status())
        return index

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
        """Open a file with the handler for its kind; an unknown kind or a bad file is a message, never a crash."""
        path = Path(path)
        handler = self.handler_for(path)
        if handler is None:
            kinds = ", ".join(s for suffixes, _d, _o in self._file_handlers for s in suffixes) or self.tr("none")
            self.statusBar().showMessage(self.tr("Cannot open {name}: not a file kind this app reads ({kinds}).")
                                         .format(name=path.name, kinds=kinds), 8000)
            return False
        handler(path)
        return True

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

    def set_theme_mode(self, mode: str) -> None:
        self.theme.set_mode(mode)
        self.theme_actions[mode].setChecked(True)
        self.settings.setValue("view/theme", mode)

    def _on_theme_changed(self, theme: Theme) -> None:
        for page in self.pages():
            if hasattr(page, "apply_theme"):
                page.apply_theme(theme)

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

    # -- persistence --------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings
        geometry = read_bytes(s, "window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            self._default_geometry()
        state = read_bytes(s, "window/state")
        if state is not None:
            self.restoreState(state)
        for page in self.pages():
            if hasattr(page, "restore_state"):
                page.restore_state(s)
        try:
            tab = int(s.value("window/tab", 0))
        except (TypeError, ValueError):
            tab = 0
        if 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)

    def _default_geometry(self) -> None:
        """1400×900, or 90% of a smaller screen, centred."""
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
        s.setValue("window/tab", self.tabs.currentIndex())
        s.setValue("view/theme", self.theme.mode)
        for page in self.pages():
            if hasattr(page, "save_state"):
                page.save_state(s)
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if getattr(self, "replaced_by", None) is None:  # a language switch saved already, for its new window
            self.save_settings()
        for page in self.pages():
            if hasattr(page, "shutdown"):
                page.shutdown()
        super().closeEvent(event)
