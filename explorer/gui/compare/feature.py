"""Plug A/B compare into the main window (listed in ``main_window.FEATURES``).

``install(window)`` adds the "A/B compare" tab (feature name "compare"; File >
Export's "current view" on it is one picture of the two columns, the legends and
the table) and View > A/B compare:

* **Compare A and B** (**Ctrl+B**): opens the compare tab at the Explorer's cycle (the one cursor),
  pinning the Explorer's run as A first when nothing is pinned; pressed on the
  compare tab, it goes back to the Explorer at the same moment of B. So a lecture
  runs: Ctrl+B (pin and look), Ctrl+B (back), change a field, Ctrl+B (both).
* **Pin the Explorer's run as A** (**Ctrl+Shift+B**) and **Unpin A**.

The actions belong to the window, so they work in presentation mode, where the
menu bar and the tab bar are hidden.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence

from explorer.gui.compare.page import ComparePage

FEATURE = "compare"


class CompareActions(QObject):
    """The View > A/B compare submenu and its keys for one window."""

    def __init__(self, window, page: ComparePage):
        super().__init__(window)
        self.window = window
        self.page = page
        self.menu = window.view_menu.addMenu(self.tr("A/&B compare"))
        self.menu.setObjectName("compare_menu")
        self.toggle_action = QAction(self.tr("&Compare A and B"), window)
        self.toggle_action.setObjectName("compare_toggle")
        self.toggle_action.setShortcut(QKeySequence("Ctrl+B"))
        self.toggle_action.setStatusTip(self.tr(
            "Show the pinned run (A) beside the Explorer's run (B), pinning the Explorer's run first when nothing "
            "is pinned; again to go back to the Explorer."))
        self.toggle_action.triggered.connect(self.toggle)
        self.pin_action = QAction(self.tr("&Pin the Explorer's run as A"), window)
        self.pin_action.setObjectName("compare_pin_action")
        self.pin_action.setShortcut(QKeySequence("Ctrl+Shift+B"))
        self.pin_action.setStatusTip(self.tr("Keep the run on screen as A, to compare the next ones with."))
        self.pin_action.triggered.connect(self.pin)
        self.unpin_action = QAction(self.tr("&Unpin A"), window)
        self.unpin_action.setObjectName("compare_unpin_action")
        self.unpin_action.setStatusTip(self.tr("Forget the pinned run."))
        self.unpin_action.triggered.connect(page.unpin)
        for action in (self.toggle_action, self.pin_action, self.unpin_action):
            self.menu.addAction(action)
            window.addAction(action)  # also while presentation mode hides the menu bar

    def toggle(self) -> None:
        w, page = self.window, self.page
        if w.tabs.currentWidget() is page:  # the Explorer is at B's moment already: the cursor is one
            w.show_view("explorer")
            return
        if page.pinned is None and page.pending_pin is None and not page.pin():
            w.statusBar().showMessage(page.status_text, 5000)
            return
        w.explorer.clock.pause()
        w.tabs.setCurrentWidget(page)
        page.columns["b"].grid.setFocus()  # the playback keys act here now

    def pin(self) -> None:
        if self.page.pin():
            self.window.statusBar().showMessage(self.tr("Pinned the Explorer's run as A."), 5000)
        else:
            self.window.statusBar().showMessage(self.page.status_text, 5000)


def install(window) -> ComparePage:
    page = ComparePage(window.workspace, window)
    # a tab, not a lesson view: a lesson cannot pin a run, so it has nothing to show there
    window.add_page(page, QCoreApplication.translate("CompareFeature", "A/&B compare"))
    window.add_feature(FEATURE, page)
    window.add_feature("compare_actions", CompareActions(window, page))
    return page
