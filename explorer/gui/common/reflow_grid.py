"""A grid that re-arranges its widgets to fit its width: the Memory tab's tables on a projector, the
Explorer's stream readings on an 800 px screen.

The Memory tab's tables (the hierarchy's six columns, attention's four) are wider than their panes in
Russian and in presentation mode at 150% and more on 1280x720, and a lecturer cannot scroll sideways in
front of a hall. A :class:`ReflowGrid` holds the same widgets in several arrangements, widest first (the
table; its first column above the others; one value under the other), and shows the first whose minimum
width fits its own width. Its minimum width is the narrowest arrangement's, so the pane never scrolls
sideways for it; every text keeps its widget, only its place changes. The stream strip's four readings
(``explore.stream_strip``) stand in one line, two a line, or one under the other the same way, so the
strip never makes the window wider than an 800 px screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import shiboken6
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget


@dataclass(frozen=True)
class Cell:
    """One widget's place in an arrangement (``QGridLayout.addWidget``'s arguments)."""

    widget: QWidget
    row: int
    col: int
    row_span: int = 1
    col_span: int = 1
    align: Qt.AlignmentFlag = Qt.AlignmentFlag(0)


@dataclass
class Arrangement:
    """The cells of one arrangement and its columns' stretch factors; a widget it leaves out is hidden.
    ``shown``: called once it is laid out (a name that turns bold where it no longer heads a table row)."""

    cells: list[Cell]
    stretch: dict[int, int] = field(default_factory=dict)
    shown: Callable[[], None] | None = None


def smart_min_width(w: QWidget) -> int:
    """The width a layout gives ``w`` at least (Qt's ``qSmartMinSize``), also while ``w`` is hidden."""
    policy = w.sizePolicy().horizontalPolicy()
    width = 0
    if policy != QSizePolicy.Policy.Ignored:
        hint = w.minimumSizeHint().width()
        width = hint if policy.value & QSizePolicy.PolicyFlag.ShrinkFlag.value else max(hint, w.sizeHint().width())
    if w.minimumWidth() > 0:
        width = w.minimumWidth()
    return max(0, min(width, w.maximumWidth()))


class ReflowGrid(QWidget):
    """The first of ``arrangements`` (callables, widest first) whose minimum width fits, laid out in a grid.

    Call :meth:`rearrange` after the arrangements' widgets changed (rows added, texts of another length)."""

    def __init__(self, arrangements: Sequence[Callable[[], Arrangement]], parent: QWidget | None = None,
                 h_spacing: int = 10, v_spacing: int = 4):
        super().__init__(parent)
        self.arrangements = list(arrangements)
        self.spacing = (h_spacing, v_spacing)
        self.current = -1
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self._grid()
        self.rearrange()

    def _grid(self) -> QGridLayout:
        grid = self.layout()
        if grid is None:
            grid = QGridLayout(self)
            grid.setContentsMargins(0, 0, 0, 0)
            grid.setHorizontalSpacing(self.spacing[0])
            grid.setVerticalSpacing(self.spacing[1])
        return grid

    def min_width(self, arrangement: Arrangement) -> int:
        """What ``arrangement`` needs: each column its widest single-column cell, a spanning cell's lack given
        to its last column, and the spacing between the columns."""
        cols: dict[int, int] = {}
        for c in arrangement.cells:
            for k in range(c.col, c.col + c.col_span):
                cols.setdefault(k, 0)
            if c.col_span == 1:
                cols[c.col] = max(cols[c.col], smart_min_width(c.widget))
        for c in arrangement.cells:
            if c.col_span > 1:
                have = sum(cols[k] for k in range(c.col, c.col + c.col_span)) + self.spacing[0] * (c.col_span - 1)
                cols[c.col + c.col_span - 1] += max(0, smart_min_width(c.widget) - have)
        return sum(cols.values()) + self.spacing[0] * max(0, len(cols) - 1)

    def fitting(self, width: int) -> int:
        """The index of the first arrangement that fits ``width`` (the narrowest where none does)."""
        for i, make in enumerate(self.arrangements[:-1]):
            if self.min_width(make()) <= width:
                return i
        return len(self.arrangements) - 1

    def rearrange(self, force: bool = True) -> None:
        index = self.fitting(self.width()) if self.isVisible() or self.current >= 0 else 0
        if index == self.current and not force:
            return
        self.current = index
        arrangement = self.arrangements[index]()
        old = self.layout()
        if old is not None:
            while old.count():
                # deleted now, not when Python drops it: a widget's size hints reach only its first layout
                # item (Qt's QWidgetItemV2), so the new grid's would keep a stale height for width
                shiboken6.delete(old.takeAt(0))
            shiboken6.delete(old)  # a new grid: the old one's columns and rows would linger empty
        grid = self._grid()
        placed = set()
        for c in arrangement.cells:
            grid.addWidget(c.widget, c.row, c.col, c.row_span, c.col_span, c.align)
            placed.add(id(c.widget))
        for col, factor in arrangement.stretch.items():
            grid.setColumnStretch(col, factor)
        for make in self.arrangements:
            for c in make().cells:
                c.widget.setVisible(id(c.widget) in placed)
        if arrangement.shown is not None:
            arrangement.shown()
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As narrow as the narrowest arrangement: the pane never scrolls sideways for this grid."""
        return QSize(self.min_width(self.arrangements[-1]()), super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.rearrange(force=False)

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        """A widget's hints changed (a font: presentation mode's scale, a longer text) at the same width: the
        arrangement that fits them now."""
        done = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:
            self.rearrange(force=False)
        return done
