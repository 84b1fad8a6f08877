"""Presentation mode: the window as a projector needs it.

View > Presentation: **Presentation mode** (F5; Esc or F5 leaves) goes full screen,
scales fonts, fixed sizes, plot text and pens by the chosen factor, hides
everything but the views and the lesson narration (menu bar, tab bar, status
bar, scenario panel, transport: their shortcuts keep working), uses the
high-contrast palette when that option is on, and turns clicks into a fading
laser-pointer dot. **Full screen** (F11) on its own. The options (scale,
high contrast, hide controls, laser pointer) are remembered in the window's
settings and can be changed while presenting.

Each page names the controls of its own to hide (``presentation_hidden_widgets()``:
the Explorer's scenario panel and transport) and hears when presenting starts and
stops (``presentation_changed(on)``: the Explorer's metrics column then has to fit
without a scroll bar). Whether the window is presenting is part of its state
(``capture_state``), so a language switch keeps it.

Nothing is ever clipped: the chosen scale is what the lecturer asks for, and the
scale *shown* (``shown_scale``) is the largest of the steps up to it at which the
tab in front and the narration pass the layout check
(:mod:`explorer.gui.common.layout_check`) on this screen; it is found again when
presenting starts, the scale or the window's size changes, and at each lesson
step and tab (a crowded step shows smaller; the next one as large as it fits). Leaving gives the splitters back the sizes they
had before.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QMenu, QSplitter, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.presentation_scales import DEFAULT_SCALE, SCALES
from explorer.gui.common.settings import as_bool
from explorer.gui.common.theme import Theme, set_app_theme
from explorer.gui.lessons.display_scale import DisplayScaler
from explorer.gui.lessons.overlay import overlay_for

KEY = "presentation/"


def high_contrast(theme: Theme) -> Theme:
    """Pure black on white (or white on black), darker muted text, black outlines."""
    if theme.dark:
        return replace(
            theme, name=f"{theme.name}-contrast", window="#000000", window_text="#FFFFFF", base="#000000",
            alternate_base="#161616", text="#FFFFFF", button="#000000", button_text="#FFFFFF", mid="#FFFFFF",
            disabled_text="#E6E6E6", highlight=oi.BLUE, highlighted_text="#FFFFFF", link=oi.SKY_BLUE,
            tooltip_base="#000000", tooltip_text="#FFFFFF", plot_background="#000000", plot_foreground="#FFFFFF",
            curve=oi.SKY_BLUE, marker=oi.YELLOW, error_text="#FFA070", limiter="rgba(230, 159, 0, 120)",
        )
    return replace(
        theme, name=f"{theme.name}-contrast", window="#FFFFFF", window_text="#000000", base="#FFFFFF",
        alternate_base="#EDEDED", text="#000000", button="#FFFFFF", button_text="#000000", mid="#000000",
        disabled_text="#262626", highlight=oi.BLUE, highlighted_text="#FFFFFF", link="#004C80",
        tooltip_base="#FFFFFF", tooltip_text="#000000", plot_background="#FFFFFF", plot_foreground="#000000",
        curve=oi.BLUE, marker=oi.VERMILLION, error_text="#8F3500", limiter="rgba(213, 94, 0, 70)",
    )


def _read_scale(settings) -> float:
    try:
        value = float(settings.value(KEY + "scale", DEFAULT_SCALE))
    except (TypeError, ValueError):
        return DEFAULT_SCALE
    return min(SCALES, key=lambda s: abs(s - value))


class Presentation(QObject):
    """Owns presentation mode and its options for one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.settings = window.settings
        self.scaler = DisplayScaler(window)
        self.overlay = overlay_for(window)
        self.presenting = False
        self.scale = _read_scale(self.settings)
        self.high_contrast = as_bool(self.settings.value(KEY + "high_contrast"), False)
        self.views_only = as_bool(self.settings.value(KEY + "views_only"), True)
        self.laser = as_bool(self.settings.value(KEY + "laser"), True)
        self._hidden: list[QWidget] = []
        self._bare_docks: list[QDockWidget] = []
        self._contrast_on = False
        self._state_before = Qt.WindowState.WindowNoState
        self._widget_count = 0
        self.shown_scale = 1.0  # the scale on screen: self.scale, or less where that does not fit
        self._sizes_before: dict = {}  # splitter -> sizes when presenting began
        self._unsized_pages: list = []  # pages with no layout yet when presenting began
        self.target_size = None  # QSize: the picture ``render --presentation`` draws (offscreen, no real screen)
        self._fitting = False  # fit_now is trying the scales
        self._said = ""  # the status bar's last "does not fit" message
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(60)
        self._fit_timer.timeout.connect(self.fit_now)
        self._build_actions()
        window.theme.changed.connect(self._theme_changed)
        window.tabs.currentChanged.connect(self._tab_changed)
        lessons = window.feature("lessons")
        if lessons is not None:  # a step may show new labels (a timeline's block numbers) and a longer narration
            lessons.step_shown.connect(lambda _i: self.presenting and QTimer.singleShot(0, self, self._step_shown))
        window.installEventFilter(self)

    # -- menu -----------------------------------------------------------------------
    def _build_actions(self) -> None:
        w = self.window
        menu = self.menu = QMenu(self.tr("&Presentation"), w)
        w.view_menu.addSeparator()
        w.view_menu.addMenu(menu)

        self.present_action = QAction(self.tr("&Presentation mode"), w, checkable=True)
        self.present_action.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.present_action.setStatusTip(self.tr(
            "Full screen, larger text and lines, only the views and the narration; Esc leaves."))
        self.present_action.toggled.connect(self.set_presenting)
        self.fullscreen_action = QAction(self.tr("&Full screen"), w, checkable=True)
        self.fullscreen_action.setShortcut(QKeySequence(Qt.Key.Key_F11))
        self.fullscreen_action.toggled.connect(self.set_full_screen)
        self.leave_action = QAction(self.tr("Leave presentation mode"), w)
        self.leave_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.leave_action.setEnabled(False)
        self.leave_action.triggered.connect(self.leave)
        menu.addAction(self.present_action)
        menu.addAction(self.fullscreen_action)
        menu.addSeparator()

        scale_menu = self.scale_menu = menu.addMenu(self.tr("&Scale in presentation mode"))
        group = QActionGroup(self)
        group.setExclusive(True)
        self.scale_actions: dict[float, QAction] = {}
        for s in SCALES:
            action = QAction(self.tr("{pct}%").format(pct=round(s * 100)), w, checkable=True)
            action.setChecked(s == self.scale)
            action.triggered.connect(lambda _c=False, v=s: self.set_scale(v))
            group.addAction(action)
            scale_menu.addAction(action)
            self.scale_actions[s] = action
        scale_menu.addSeparator()
        self.larger_action = QAction(self.tr("&Larger"), w)
        self.larger_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.larger_action.triggered.connect(lambda: self.step_scale(+1))
        self.smaller_action = QAction(self.tr("S&maller"), w)
        self.smaller_action.setShortcut(QKeySequence("Ctrl+-"))
        self.smaller_action.triggered.connect(lambda: self.step_scale(-1))
        scale_menu.addAction(self.larger_action)
        scale_menu.addAction(self.smaller_action)

        self.views_only_action = QAction(self.tr("Show only the &views and the narration"), w, checkable=True)
        self.views_only_action.setChecked(self.views_only)
        self.views_only_action.setStatusTip(self.tr(
            "In presentation mode, hide the menu bar, tabs, scenario panel, transport and status bar "
            "(their keys still work)."))
        self.views_only_action.toggled.connect(self.set_views_only)
        self.contrast_action = QAction(self.tr("&High-contrast colours"), w, checkable=True)
        self.contrast_action.setChecked(self.high_contrast)
        self.contrast_action.setStatusTip(self.tr("In presentation mode, pure black and white behind the views."))
        self.contrast_action.toggled.connect(self.set_high_contrast)
        self.laser_action = QAction(self.tr("Laser &pointer on click"), w, checkable=True)
        self.laser_action.setChecked(self.laser)
        self.laser_action.setStatusTip(self.tr("In presentation mode, a click leaves a red dot that fades."))
        self.laser_action.toggled.connect(self.set_laser)
        for action in (self.views_only_action, self.contrast_action, self.laser_action):
            menu.addAction(action)
        # window-wide keys, also while the menu bar is hidden
        for action in (self.present_action, self.fullscreen_action, self.leave_action,
                       self.larger_action, self.smaller_action):
            w.addAction(action)

    # -- modes ----------------------------------------------------------------------
    def set_presenting(self, on: bool, full_screen: bool = True) -> None:
        """Start or stop presenting; ``full_screen=False`` keeps the window's size (``render --presentation``)."""
        on = bool(on)
        if on == self.presenting:
            return
        self.presenting = on
        if self.present_action.isChecked() != on:
            self.present_action.setChecked(on)
        w = self.window
        if on:
            w.build_pages()  # the scale is applied to what exists: no page may be built after it
            self._state_before = w.windowState()
            # a page built at F5 and never shown has splitter sizes nobody laid out: they are neither kept nor
            # scaled from; shown while presenting, it is laid out afresh when presenting stops (it kept the
            # squeezed sizes of a page first sized at 150%, and a GEMM column at its minimum then scrolled)
            self._unsized_pages = [p for p in w.pages() if not getattr(p, "laid_out", True)]
            laid_out = [s for s in w.findChildren(QSplitter)
                        if not any(p.isAncestorOf(s) for p in self._unsized_pages)]
            self._sizes_before = {s: s.sizes() for s in laid_out}
            self.scaler.rebase(laid_out)  # the user's layout, with the controls still shown, is every scale's 100%
            self._apply_contrast()
            self._notify_pages(True)
            # the controls go before the first scale, as they are gone for every later one: a scale's layout is
            # the same however it was reached (the scenario panel took a share of the side panels' room when it
            # was still there, and the metrics column was then narrower at F5 than after a fallback)
            self._apply_views_only()
            self._show_scale(self.scale)
            if full_screen:
                self.set_full_screen(True)
            self.overlay.set_laser_enabled(self.laser)
            self._fit_timer.start()
        else:
            self._fit_timer.stop()
            self.overlay.set_laser_enabled(False)
            self._restore_chrome()
            self._show_scale(1.0)
            self._notify_pages(False)
            self._apply_contrast()
            self.set_full_screen(bool(self._state_before & Qt.WindowState.WindowFullScreen))
            for splitter, sizes in self._sizes_before.items():
                try:
                    splitter.setSizes(sizes)
                except RuntimeError:  # rebuilt since
                    pass
            self._sizes_before = {}
            for page in self._unsized_pages:
                if page.laid_out:  # first shown while presenting: the layout a fresh window gives it, once the
                    QTimer.singleShot(0, page, page.default_layout)  # 100% fonts and sizes are laid out
            self._unsized_pages = []
            bar = w.statusBar()
            if self._said and bar.currentMessage() == self._said:  # no longer true: it would lie over the status
                bar.clearMessage()
            # the narration's panel again as a fresh window's, once the controls and the 100% layout are back (the
            # dock area otherwise kept a few pixels the plots then lacked)
            QTimer.singleShot(0, self, self._fit_dock_left)
        self._widget_count = len(w.findChildren(QWidget))
        self._update_leave()

    def _fit_dock_left(self) -> None:
        lessons = self.window.feature("lessons")
        if lessons is not None and not self.presenting:
            lessons.fit_dock(exact=True)

    def _notify_pages(self, on: bool) -> None:
        for page in self.window.pages():
            hook = getattr(page, "presentation_changed", None)
            if callable(hook):
                hook(on)

    def _show_scale(self, scale: float) -> None:
        """Fonts, sizes and pens at ``scale`` (the narration fitted to its panel again)."""
        self.shown_scale = scale
        self.scaler.apply(scale)
        if self.target_size is not None and self.window.size() != self.target_size:
            self.window.resize(self.target_size)  # a larger scale may have grown it past the picture
        self.overlay.set_scale(scale)
        lessons = self.window.feature("lessons")
        if lessons is not None:
            lessons.fit_dock()

    # -- fitting the screen -------------------------------------------------------------
    def fit_problems(self) -> list:
        """What the layout check finds on the tab in front and the narration."""
        from explorer.gui.common.layout_check import LayoutChecker, settle_layouts

        settle_layouts(self.window)
        # a column that fits its details to its height (the Explorer's metrics) does so now, at this scale's
        # heights: its short sentences were measured long before its own queued refit ran (150% at 1280x720)
        fitted = [w for w in self.window.findChildren(QWidget) if callable(getattr(w, "refit_now", None))]
        for widget in fitted:
            if widget.isVisible():
                widget.refit_now()
        if fitted:
            settle_layouts(self.window)
        roots = [self.window.tabs.currentWidget()] if self.window.tabs.currentWidget() is not None else []
        lessons = self.window.feature("lessons")
        if lessons is not None and lessons.dock.isVisible():
            roots.append(lessons.dock)
        return LayoutChecker(self.window, roots=roots, screen=self.screen_size()).run() if roots else []

    def screen_size(self):
        """What the window has to fit: the size ``render`` asked for, else the screen it fills (None where
        there is no real one: the offscreen platform's is a placeholder)."""
        if self.target_size is not None:
            return self.target_size
        screen = self.window.screen()
        if screen is None or QApplication.platformName() == "offscreen" or not self.window.isFullScreen():
            return None
        return screen.geometry().size()

    def fit_now(self, start: float | None = None) -> None:
        """Show the largest scale up to ``start`` (default: the chosen scale) at which nothing is clipped;
        where every step clips something, the one that clips least (the larger of equals). Each smaller step
        is laid out as when asked alone: from 100%, with what the scale change queued run before the check."""
        if not self.presenting or self._fitting:
            return
        self._fit_timer.stop()
        start = self.scale if start is None else start
        best = None
        self._fitting = True  # the events run between the checks must not start another fit
        # a scale shown while the controls were back (set_scale measures them) may have grown the window past
        # the picture: that one is laid out again too, from 100%, as when asked alone
        grown = self.target_size is not None and self.window.size() != self.target_size
        try:
            for scale in sorted((s for s in SCALES if s <= start + 1e-9), reverse=True):
                if scale != self.shown_scale or grown:
                    if (scale < self.shown_scale or grown) and scale != 1.0:
                        # from the plain layout, as when asked alone: the panes a larger scale shared (a
                        # timeline that dropped its axis numbers asks for less) must not decide a smaller one
                        self._show_scale(1.0)
                        self._settle()
                    self._show_scale(scale)
                    grown = False
                self._settle()
                count = len(self.fit_problems())
                if best is None or count < best[1]:
                    best = (scale, count)
                if count == 0:
                    break
            if best is not None and best[0] != self.shown_scale:
                self._show_scale(best[0])
                self._settle()
        finally:
            self._fitting = False
            self._fit_timer.stop()  # the resizes just run asked for this fit
        self._apply_views_only()  # widgets a page built meanwhile
        self._say_scale()

    def _settle(self, rounds: int = 4) -> None:
        """Let what a new scale queued run before it is checked: the pages share their splitters, the lesson
        panel fits its narration, in posted events and zero timers (``settle_layouts`` alone only lays out, and a
        scale that fits once they ran, 125% in Russian at 1280x720, was measured before they did). Not the
        user's input: a click meanwhile waits for the fit."""
        for _ in range(rounds):
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)

    def _say_scale(self) -> None:
        """When the chosen scale does not fit, the status bar says what is shown instead."""
        if self.presenting and self.shown_scale < self.scale:
            self._said = self.tr("{asked}% does not fit this screen: showing {shown}%.").format(
                asked=round(self.scale * 100), shown=round(self.shown_scale * 100))
            self.window.statusBar().showMessage(self._said, 8000)

    def _step_shown(self) -> None:
        """A new lesson step (or tab): its narration and view at the largest scale up to the chosen one that
        fits them, so one crowded step does not keep the rest of the lecture small."""
        self.scaler.reapply()
        lessons = self.window.feature("lessons")
        if lessons is not None:
            lessons.fit_dock()
        if self.shown_scale != self.scale or self.fit_problems():
            self.fit_now()

    def leave(self) -> None:
        if self.presenting:
            self.set_presenting(False)
        elif self.window.isFullScreen() or self.fullscreen_action.isChecked():
            self.set_full_screen(False)

    def set_full_screen(self, on: bool) -> None:
        w = self.window
        on = bool(on)
        if on and not w.isFullScreen():
            if not self.presenting:
                self._state_before = w.windowState()
            w.setWindowState(w.windowState() | Qt.WindowState.WindowFullScreen)
        elif not on and (w.windowState() & Qt.WindowState.WindowFullScreen):
            state = self._state_before & ~Qt.WindowState.WindowFullScreen
            w.setWindowState(state)
        if self.fullscreen_action.isChecked() != on:
            self.fullscreen_action.blockSignals(True)
            self.fullscreen_action.setChecked(on)
            self.fullscreen_action.blockSignals(False)
        self._update_leave()

    def _update_leave(self) -> None:
        self.leave_action.setEnabled(self.presenting or bool(self.window.windowState() & Qt.WindowState.WindowFullScreen))

    # -- options --------------------------------------------------------------------
    def set_scale(self, scale: float) -> None:
        scale = min(SCALES, key=lambda s: abs(s - float(scale)))
        self.scale = scale
        self.settings.setValue(KEY + "scale", scale)
        self.scale_actions[scale].setChecked(True)
        if self.presenting:
            self._show_scale(scale)  # with the controls hidden, as every scale is laid out (see set_presenting)
            self._apply_views_only()
            self.fit_now()
        else:
            self.window.statusBar().showMessage(
                self.tr("Presentation mode (F5) will show text and lines at {pct}%.").format(pct=round(scale * 100)),
                5000)

    def step_scale(self, direction: int) -> None:
        index = SCALES.index(self.scale) + (1 if direction > 0 else -1)
        self.set_scale(SCALES[max(0, min(len(SCALES) - 1, index))])

    def set_views_only(self, on: bool) -> None:
        self.views_only = bool(on)
        self.settings.setValue(KEY + "views_only", self.views_only)
        if self.presenting:
            if self.views_only:
                self._apply_views_only()
            else:
                self._restore_chrome()

    def set_high_contrast(self, on: bool) -> None:
        self.high_contrast = bool(on)
        self.settings.setValue(KEY + "high_contrast", self.high_contrast)
        if self.contrast_action.isChecked() != self.high_contrast:
            self.contrast_action.setChecked(self.high_contrast)
        self._apply_contrast()

    def set_laser(self, on: bool) -> None:
        self.laser = bool(on)
        self.settings.setValue(KEY + "laser", self.laser)
        self.overlay.set_laser_enabled(self.laser and self.presenting)

    # -- chrome -----------------------------------------------------------------------
    def chrome(self) -> list[QWidget]:
        """What 'only the views and the narration' hides."""
        w = self.window
        widgets = [w.menuBar(), w.statusBar(), w.tabs.tabBar()]
        for page in w.pages():
            hook = getattr(page, "presentation_hidden_widgets", None)
            if callable(hook):
                widgets += list(hook())
        return [x for x in widgets if x is not None]

    def _apply_views_only(self) -> None:
        if not (self.presenting and self.views_only):
            return
        self._keep_shortcuts()
        for widget in self.chrome():
            if not widget.isHidden() and widget not in self._hidden:
                widget.hide()
                self._hidden.append(widget)
        for dock in self.window.findChildren(QDockWidget):  # the narration without its title bar
            if dock.titleBarWidget() is None and dock not in self._bare_docks:
                dock.setTitleBarWidget(QWidget(dock))
                self._bare_docks.append(dock)

    def _restore_chrome(self) -> None:
        for widget in self._hidden:
            try:
                widget.show()
            except RuntimeError:
                pass
        self._hidden.clear()
        for dock in self._bare_docks:
            try:
                bar = dock.titleBarWidget()
                dock.setTitleBarWidget(None)
                if bar is not None:
                    bar.deleteLater()
            except RuntimeError:
                pass
        self._bare_docks.clear()

    def _keep_shortcuts(self) -> None:
        """A hidden menu bar disables its actions' shortcuts: give them to the window as well."""
        w = self.window
        have = set(w.actions())

        def walk(menu: QMenu) -> None:
            for action in menu.actions():
                if action.menu() is not None:
                    walk(action.menu())
                elif not action.isSeparator() and not action.shortcut().isEmpty() and action not in have:
                    w.addAction(action)
                    have.add(action)

        for action in w.menuBar().actions():
            if action.menu() is not None:
                walk(action.menu())

    # -- contrast and theme -----------------------------------------------------------
    def _apply_contrast(self) -> None:
        want = self.presenting and self.high_contrast
        if want:
            self._contrast_on = True
            self._set_theme(high_contrast(self.window.theme.theme))
        elif self._contrast_on:
            self._contrast_on = False
            self.window.theme.apply()  # the normal theme again, to every page through ``changed``
        self.overlay.set_dark(self.window.theme.theme.dark)

    def _set_theme(self, theme: Theme) -> None:
        set_app_theme(QApplication.instance(), theme)
        self.window.apply_theme(theme)
        if self.presenting:
            self.scaler.reapply()  # the pages just reset their pens

    def _theme_changed(self, _theme) -> None:
        # the window's own handler runs after this one: act once it is done
        QTimer.singleShot(0, self, self._after_theme_change)

    def _after_theme_change(self) -> None:
        if self._contrast_on:
            self._set_theme(high_contrast(self.window.theme.theme))
        elif self.presenting:
            self.scaler.reapply()
        self.overlay.set_dark(self.window.theme.theme.dark)

    def _tab_changed(self, _index: int) -> None:
        if not self.presenting:
            return
        count = len(self.window.findChildren(QWidget))
        if count != self._widget_count:  # a page built widgets since: scale them too
            self._widget_count = count
        QTimer.singleShot(0, self, self._step_shown)  # the page in front must fit too

    # -- state: a rebuilt window keeps presentation mode ----------------------------------
    def capture_state(self, live: bool = False) -> dict:
        """The options are saved as they change; for a rebuilt window, whether it presents."""
        return {"presenting": self.presenting} if live else {}

    def restore_state(self, state: dict) -> None:
        if state.get("presenting") is True:
            self.set_presenting(True)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.window:
            if event.type() == QEvent.Type.Close and self.presenting:
                self.set_presenting(False)  # the saved geometry and the app's palette are the normal ones
            elif event.type() == QEvent.Type.Resize and self.presenting:
                self._fit_timer.start()  # a new screen size: find the scale that fits it
            elif event.type() == QEvent.Type.WindowStateChange:
                full = bool(self.window.windowState() & Qt.WindowState.WindowFullScreen)
                if self.fullscreen_action.isChecked() != full:
                    self.fullscreen_action.blockSignals(True)
                    self.fullscreen_action.setChecked(full)
                    self.fullscreen_action.blockSignals(False)
                self._update_leave()
        return False


def install(window) -> None:
    window.add_feature("presentation", Presentation(window))
