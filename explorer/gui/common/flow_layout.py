"""A layout that wraps its items onto as many lines as the width needs: legends that never clip.

A legend in one fixed row loses its last entries when the column is narrow or the
text is large (presentation mode: "memory wai", "launcl"). :class:`FlowLayout`
puts items left to right and starts a new line when the next one does not fit;
it has a height for each width, so the layout above gives it the lines it needs.
With ``uniform=True`` every item gets the widest item's width, so the entries line
up in columns (as many columns as fit) — unless that takes more lines than packing
them at their own widths does: then they are packed (the SM grid's legend in Russian
took four lines in columns, three packed, and the window at 1280x720 with the SASS
view and a lesson open lacked that line for the narration). A widget with the property
``flow_keep_with_next`` set (a curve's line sample) never ends a line: it moves to
the next line with the item after it.

``addSpacing`` puts a gap after the last item; ``addStretch`` is accepted (and
does nothing: the lines are left-aligned), so code written for a QHBoxLayout row
reads the same.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QSpacerItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 4, line_spacing: int = 2,
                 uniform: bool = False):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._h_space = spacing
        self._v_space = line_spacing
        self.uniform = uniform
        self.lines = 0  # lines in the last layout (for tests)

    # -- QLayout --------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)

    def addSpacing(self, size: int) -> None:  # noqa: N802 - as QBoxLayout
        self.addItem(QSpacerItem(size, 0, QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Minimum))

    def addStretch(self, _stretch: int = 0) -> None:  # noqa: N802 - as QBoxLayout
        """Nothing to stretch: the lines are left-aligned."""

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802 - Qt API
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt API
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """One line of everything (what the row would like); the height follows the width given."""
        m = self.contentsMargins()
        items = self._visible()
        width = sum(self._width(i, items) for i in items) + self._h_space * max(0, len(items) - 1)
        height = max((i.sizeHint().height() for i in items), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        """As narrow as the widest item (one item per line)."""
        m = self.contentsMargins()
        items = self._visible()
        width = max((self._width(i, items) for i in items), default=0)
        height = max((i.minimumSize().height() for i in items), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    # -- arranging ------------------------------------------------------------------
    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not (i.widget() is not None and i.widget().isHidden())]

    def _width(self, item: QLayoutItem, items: list[QLayoutItem], uniform: bool | None = None) -> int:
        uniform = self.uniform if uniform is None else uniform
        if uniform and item.widget() is not None:
            return max(i.sizeHint().width() for i in items if i.widget() is not None)
        return item.sizeHint().width()

    def _groups(self, items: list[QLayoutItem]) -> list[list[QLayoutItem]]:
        """Items that must stay on one line together (a sample and its name)."""
        groups, current = [], []
        for item in items:
            if item.widget() is None and not current and groups:
                groups[-1].append(item)  # a gap belongs to the item before it, never starts a line
                continue
            current.append(item)
            widget = item.widget()
            if not (widget is not None and widget.property("flow_keep_with_next")):
                groups.append(current)
                current = []
        if current:
            groups.append(current)
        return groups

    def _lines(self, area: QRect, items: list[QLayoutItem], uniform: bool) -> list[list[tuple[QLayoutItem, int]]]:
        lines: list[list[tuple[QLayoutItem, int]]] = []
        x = area.x()
        for group in self._groups(items):
            placed = [(i, self._width(i, items, uniform)) for i in group]
            group_w = sum(w for _i, w in placed) + self._h_space * (len(group) - 1)
            if not lines or (x > area.x() and x + group_w > area.right() + 1):
                lines.append([])
                x = area.x()
            lines[-1] += placed
            x += group_w + self._h_space
        return lines

    def _arrange(self, rect: QRect, apply: bool) -> int:
        """Place the items (``apply``) or only measure; the height used. Each line's items are centred on it."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        items = self._visible()
        lines = self._lines(area, items, self.uniform)
        if self.uniform:
            packed = self._lines(area, items, False)
            if len(packed) < len(lines):
                lines = packed
        y = area.y()
        for n, line in enumerate(lines):
            line_h = max(i.sizeHint().height() for i, _w in line)
            x = area.x()
            for item, w in line:
                h = item.sizeHint().height()
                if apply:
                    item.setGeometry(QRect(QPoint(x, y + (line_h - h) // 2), QSize(w, h)))
                x += w + self._h_space
            y += line_h + (self._v_space if n < len(lines) - 1 else 0)
        if apply:
            self.lines = len(lines)
        return y - rect.y() + m.bottom()
