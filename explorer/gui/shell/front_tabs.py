"""The window's tab widget, as small as the tab in front needs.

A ``QTabWidget`` is at least as large as its largest page, shown or not (its stack counts every page's
minimum size), so a hidden tab held the window's minimum: the Explorer's height kept a window showing the
Occupancy calculator taller than that page needs, presentation mode then picked a smaller scale for the
Occupancy, GEMM or Memory tab than a window showing only that page would, and the lesson panel got less
room for its narration. :class:`FrontPageTabs` asks only the page in front; when another tab comes to the
front, the window asks again (and grows, where that page needs more).
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget, QTabWidget, QWidget


class FrontPageTabs(QTabWidget):
    """A tab widget whose minimum size is the tab bar and frame around the front page's minimum."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())  # another page's minimum now

    def _stack(self) -> QStackedWidget | None:
        return self.findChild(QStackedWidget, "qt_tabwidget_stackedwidget")

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """Qt's own hint with the stack's minimum (every page's) replaced by the front page's.

        Qt adds the tab bar's height and a fixed frame to the stack's height and takes the wider of the stack
        and the tab bar, so the front page's share is swapped in exactly."""
        full = super().minimumSizeHint()
        stack, front = self._stack(), self.currentWidget()
        if stack is None or front is None or stack.layout() is None:
            return full
        every = stack.minimumSizeHint()
        item = stack.layout().itemAt(stack.indexOf(front))
        own = item.minimumSize() if item is not None else front.minimumSizeHint()  # Qt's smart minimum
        bar = 0 if self.tabBar().isHidden() else self.tabBar().minimumSizeHint().width()
        frame = full.width() - max(every.width(), bar)
        return QSize(frame + max(own.width(), bar), full.height() - every.height() + own.height())
