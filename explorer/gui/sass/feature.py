"""Plug the SASS view into the main window (listed in ``main_window.FEATURES``; feature name "sass").

``install(window)`` puts the view beside the Explorer's timeline
(``ExplorerPage.add_beside_timeline``), hidden until asked for (the plots keep the whole
width, as lessons and presentation mode lay them out), and adds View > **SASS view**
(**Ctrl+I**, for instructions) to show or hide it; the action belongs to the window, so the key works in
presentation mode too. The view follows the workspace's session (the Explorer's): a new run, the cycle
(playback), the selected SM, and a click on a timeline row (its warp slot). Whether it
is shown, its sort, tab and warp slot are the feature's state (kept between runs and
across a language switch).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from explorer.gui.common.settings import as_bool, as_int
from explorer.gui.sass.view import SassView

FEATURE = "sass"
SHORTCUT = "Ctrl+I"


class SassFeature(QObject):
    """The view, its View-menu action and its wiring to one window's Explorer."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        page = self.page = window.explorer
        self.view = SassView(page)
        page.add_beside_timeline(self.view)

        self.toggle_action = QAction(self.tr("&SASS view"), window)
        self.toggle_action.setObjectName("sass_toggle")
        self.toggle_action.setCheckable(True)
        self.toggle_action.setChecked(False)  # off until asked for: the plots keep the Explorer's whole width
        self.view.hide()
        self.toggle_action.setShortcut(QKeySequence(SHORTCUT))
        self.toggle_action.setStatusTip(self.tr("Show or hide the SASS view beside the timeline: the instructions "
                                                "the simulator ran, where the selected warp is, and where time went."))
        self.toggle_action.setToolTip(self.toggle_action.statusTip())
        self.toggle_action.toggled.connect(self.set_shown)
        window.view_menu.addAction(self.toggle_action)
        window.addAction(self.toggle_action)  # also while presentation mode hides the menu bar

        s = window.workspace.session  # the Explorer's run, cursor and selected SM
        s.run_changed.connect(self.view.set_run)
        s.cycle_changed.connect(self.view.set_cycle)
        s.selection_changed.connect(self.view.set_sm)
        page.slot_clicked.connect(self.view.set_slot)
        self.view.set_sm(s.selected_sm)
        if s.run is not None:
            self.view.set_run(s.run)
            self.view.set_cycle(s.cycle)

    @property
    def shown(self) -> bool:
        return not self.view.isHidden()

    def set_shown(self, on: bool) -> None:
        on = bool(on)
        if self.toggle_action.isChecked() != on:
            self.toggle_action.setChecked(on)  # -> here again
            return
        self.view.setVisible(on)
        if on:
            self.view.set_cycle(self.window.workspace.session.cycle)

    # -- window hooks ----------------------------------------------------------------------
    def apply_theme(self, theme) -> None:
        self.view.apply_theme(theme)

    def capture_state(self, live: bool = False) -> dict:
        v = self.view
        state = {"shown": self.shown, "hottest": v.hottest_first, "tab": v.tabs.currentIndex(),
                 "follow": v.follow.isChecked(), "slot": v.slot if v.slot_chosen else -1}
        if live:  # a rebuilt window (a language switch) shows the same run: the clicked instruction stays selected
            state["row"] = v.clicked_row if v.clicked_row is not None else -1
        return state

    def restore_state(self, state: dict) -> None:
        v = self.view
        self.set_shown(as_bool(state.get("shown"), False))
        v.set_hottest_first(as_bool(state.get("hottest"), False))
        v.follow.setChecked(as_bool(state.get("follow"), True))
        tab = as_int(state.get("tab"), 0)
        if 0 <= tab < v.tabs.count():
            v.tabs.setCurrentIndex(tab)
        slot = as_int(state.get("slot"), -1)
        if slot >= 0:
            v.set_slot(slot)
        row = as_int(state.get("row"), -1)
        if row >= 0 and v.data is not None:
            v.select_row(row)


def install(window) -> SassFeature:
    return window.add_feature(FEATURE, SassFeature(window))
