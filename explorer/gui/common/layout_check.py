"""Does every text on screen fit? A walk over a window that lists what is clipped or overlapped.

A projector shows what the window shows, and a lecturer finds out too late that
"memory wait" reads "memory wai". This module answers the question for a window
as it stands (any size, language, presentation scale), so the same check runs as
``warp-explorer render --check-layout`` (a preflight for a projector size) and in
the tests.

What is looked at (every visible widget of the window, and what it draws):

- labels (plain and rich text, wrapped or not), push buttons, check boxes, radio
  buttons, tool buttons with text, combo boxes, line edits (their text, or the
  placeholder when empty), group-box titles, tab-bar tabs;
- item views (tables, trees, lists): the cells in view and the header sections;
- pyqtgraph plots: axis tick labels and axis titles, plot titles, legends and
  annotations (``TextItem``), clipped by the view box they live in;
- custom-painted widgets that say where they draw text (``painted_texts()``:
  :class:`PaintedText` items: the SM grid's SM numbers, the meters' values).

A widget with the ``essential`` property (the Explorer's verdict sentences) must be
whole on screen: scrolled partly out of view is a problem too, and one a view hid
for want of room is reported by that view (``dropped_texts``).

A text is **clipped** when the room it is drawn into is smaller than the text, or
when a parent (a splitter pane, a scroll area's viewport, the window's edge)
cuts it. Two texts **overlap** when what they draw intersects. A text is
**dropped** when a view had to leave it out for want of room and says so
(``dropped_texts()``: a plot axis without a single number, the SM grid without
its SM numbers, the timeline without its scheduler names). A scroll area that
shows its scroll bar in that direction lets the user reach what it hides, so its
clipping is not a problem; one without a scroll bar (presentation mode turns the
Explorer's off) is.

Qt-bound (it measures with Qt's own font metrics and size hints), but it changes
nothing in the window it looks at. Presentation mode runs it too, to find the
largest scale that fits the screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionFrame,
    QStyleOptionGroupBox,
    QTabBar,
    QToolButton,
    QWidget,
)

TOLERANCE = 1  # px: rounding in Qt's own layouts
OVERLAP_MIN = 3  # px in both directions: touching is not overlapping
OVERLAP_SHARE = 0.15  # of the shorter line: a line box's leading above and below the ink may touch


@dataclass(frozen=True)
class PaintedText:
    """A text a custom-painted widget draws: ``text`` in ``font`` into ``rect`` (widget pixels) with ``flags``
    (alignment, wrapping): the values its ``paintEvent`` passes to ``drawText``."""

    text: str
    rect: QRect
    font: QFont
    flags: int = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class Problem:
    """One text that does not fit (``kind`` "clipped"), two that overlap ("overlap"), or one a view left out
    for want of room ("dropped")."""

    kind: str
    where: str  # the widget (or plot item) that shows it, by object names
    text: str
    detail: str
    other: str = ""  # the other text of an overlap

    def __str__(self) -> str:
        if self.kind == "dropped":
            return f"dropped  {self.where}: {_quote(self.text)} ({self.detail})"
        if self.kind == "overlap":
            return f"overlap  {self.where}: {_quote(self.text)} and {_quote(self.other)} ({self.detail})"
        return f"clipped  {self.where}: {_quote(self.text)} ({self.detail})"


@dataclass
class _Text:
    where: str
    text: str
    drawn: QRect  # window pixels: where the text's ink is
    owner: object  # widget or item, so a text is not compared with itself


def _quote(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return f'"{one[: limit - 1]}…"' if len(one) > limit else f'"{one}"'


def _plain(text: str) -> str:
    """A mnemonic's ampersand is not drawn ("&&" is one "&")."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _rich(label: QLabel, text: str) -> bool:
    from PySide6 import QtGui

    fmt = label.textFormat()
    return fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text))


def where_of(widget: QWidget) -> str:
    """``page/panel/name`` from the object names above ``widget`` (class names where there is none)."""
    parts = []
    w = widget
    while w is not None and not w.isWindow():
        name = w.objectName()
        if name and not name.startswith("qt_"):
            parts.append(name)
        w = w.parentWidget()
    parts.reverse()
    own = widget.objectName()
    if not own or own.startswith("qt_"):
        parts.append(type(widget).__name__)
    return "/".join(parts[-4:])


class LayoutChecker:
    """Walks one window; :meth:`run` returns the problems (empty: everything fits)."""

    def __init__(self, window: QWidget, roots: list[QWidget] | None = None, screen: QSize | None = None):
        self.window = window
        self.screen = screen  # the screen's size: a window that cannot shrink to it is cut by its edge
        self.roots = list(roots) if roots else [window]  # look only at these and what they hold
        self.texts: list[_Text] = []
        self.problems: list[Problem] = []
        self.checked = 0  # texts looked at

    # -- entry point --------------------------------------------------------------------
    def run(self) -> list[Problem]:
        self.texts, self.problems, self.checked = [], [], 0
        window = self.window
        seen = set()
        for root in self.roots:
            for w in [root, *root.findChildren(QWidget)]:
                if id(w) in seen or not w.isVisible() or w.window() is not window:
                    continue
                seen.add(id(w))
                try:
                    self._widget(w)
                except RuntimeError:  # deleted while we looked
                    continue
        self._overlaps()
        if self.screen is not None:
            need = window.size().expandedTo(window.minimumSizeHint())
            if need.width() > self.screen.width() + TOLERANCE or need.height() > self.screen.height() + TOLERANCE:
                self.problems.append(Problem("clipped", "window", window.windowTitle(),
                                             f"needs at least {need.width()}x{need.height()} px, the screen is "
                                             f"{self.screen.width()}x{self.screen.height()}"))
        return list(self.problems)

    # -- geometry -----------------------------------------------------------------------
    def _to_window(self, widget: QWidget, rect: QRect) -> QRect:
        return QRect(widget.mapTo(self.window, rect.topLeft()), rect.size())

    def _clip(self, widget: QWidget) -> tuple[QRect, bool, bool]:
        """The part of the window where ``widget``'s pixels can show, and whether a scroll bar
        lets the user reach what is cut horizontally / vertically."""
        rect = self._to_window(widget, widget.rect())
        scroll_x = scroll_y = False
        child, parent = widget, widget.parentWidget()
        while parent is not None and child is not self.window:
            rect = rect.intersected(self._to_window(parent, parent.rect()))
            area = parent.parentWidget()
            if isinstance(area, QAbstractScrollArea) and parent is area.viewport():
                scroll_x |= area.horizontalScrollBar().isVisible()
                scroll_y |= area.verticalScrollBar().isVisible()
            if parent.isWindow():
                break
            child, parent = parent, parent.parentWidget()
        return rect, scroll_x, scroll_y

    def _place(self, widget: QWidget, where: str, text: str, need: QRect, room: QRect | None = None,
               why: str = "") -> None:
        """Record a text that needs ``need`` (widget pixels) and is drawn into ``room`` (default: the widget)."""
        self.checked += 1
        room = widget.rect() if room is None else room
        clip, scroll_x, scroll_y = self._clip(widget)
        need_w = self._to_window(widget, need)
        room_w = self._to_window(widget, room).intersected(clip)
        if room_w.isEmpty() and (scroll_x or scroll_y):
            return  # scrolled out of view: the scroll bar reaches it
        short_w = need.width() - room.width() if not scroll_x else 0
        short_h = need.height() - room.height() if not scroll_y else 0
        problem = ""
        if short_w > TOLERANCE or short_h > TOLERANCE:
            problem = why or f"needs {need.width()}x{need.height()} px, has {room.width()}x{room.height()}"
        else:
            cut_l = room_w.left() - need_w.left() if not scroll_x else 0
            cut_r = need_w.right() - room_w.right() if not scroll_x else 0
            cut_t = room_w.top() - need_w.top() if not scroll_y else 0
            cut_b = need_w.bottom() - room_w.bottom() if not scroll_y else 0
            if room_w.isEmpty() and not (scroll_x or scroll_y):
                problem = "hidden: no room left on screen"
            elif max(cut_l, cut_r, cut_t, cut_b) > TOLERANCE:
                sides = [name for name, cut in (("left", cut_l), ("right", cut_r), ("top", cut_t),
                                                ("bottom", cut_b)) if cut > TOLERANCE]
                problem = f"cut at the {' and '.join(sides)} by the view around it"
        if not problem and widget.property("essential") and (scroll_x or scroll_y) \
                and not room_w.contains(need_w.adjusted(TOLERANCE, TOLERANCE, -TOLERANCE, -TOLERANCE)):
            # a sentence that says what the view means must be on screen, not only reachable by scrolling
            problem = "scrolled out of view: this text must stay on screen"
        if problem:
            self.problems.append(Problem("clipped", where, text, problem))
        drawn = need_w.intersected(room_w)
        if not drawn.isEmpty():
            self.texts.append(_Text(where, text, drawn, widget))

    @staticmethod
    def _aligned(size: QSize, alignment, rect: QRect) -> QRect:
        """``size`` placed in ``rect`` as ``alignment`` says (it may stick out when too big)."""
        return QStyle.alignedRect(Qt.LayoutDirection.LeftToRight, Qt.AlignmentFlag(int(alignment)), size, rect)

    # -- widgets ------------------------------------------------------------------------
    def _widget(self, w: QWidget) -> None:
        painted = getattr(w, "painted_texts", None)
        if callable(painted):
            for item in painted():
                self._painted(w, item)
        dropped = getattr(w, "dropped_texts", None)
        if callable(dropped):
            for text in dropped():
                self.checked += 1
                self.problems.append(Problem("dropped", where_of(w), text, "left out: no room for it"))
        if isinstance(w, QLabel):
            self._label(w)
        elif isinstance(w, (QCheckBox, QRadioButton)):
            self._check_box(w)
        elif isinstance(w, (QPushButton, QToolButton)):
            self._button(w)
        elif isinstance(w, QComboBox):
            self._combo(w)
        elif isinstance(w, QLineEdit):
            self._line_edit(w)
        elif isinstance(w, QGroupBox):
            self._group_box(w)
        elif isinstance(w, QTabBar):
            self._tab_bar(w)
        elif isinstance(w, QHeaderView):
            self._header(w)
        elif isinstance(w, QAbstractItemView):
            self._item_view(w)
        import pyqtgraph as pg

        if isinstance(w, pg.GraphicsView):
            self._plot(w)

    def _label(self, label: QLabel) -> None:
        text = label.text()
        if not text.strip() or (label.pixmap() is not None and not label.pixmap().isNull()):
            return
        shown = text if label.buddy() is None else _plain(text)
        cr = label.contentsRect()
        m = label.margin()
        cr = cr.adjusted(m, m, -m, -m)
        if label.wordWrap():
            need_h = QLabel.heightForWidth(label, label.width())  # Qt's own, even where a subclass keeps a steadier height
            frame = label.height() - cr.height()
            width = max(self._longest_word(label, shown), min(cr.width(), self._one_line_width(label, shown)))
            box = self._aligned(QSize(width, max(0, need_h - frame)), label.alignment(), cr)
        else:
            hint = label.sizeHint()
            frame = QSize(label.width() - cr.width(), label.height() - cr.height())
            need = QSize(max(0, hint.width() - frame.width()), max(0, hint.height() - frame.height()))
            box = self._aligned(need, label.alignment(), cr)
        self._place(label, where_of(label), shown, box, cr)

    @staticmethod
    def _one_line_width(label: QLabel, text: str) -> int:
        if _rich(label, text):
            from PySide6.QtGui import QTextDocument

            doc = QTextDocument()
            doc.setDefaultFont(label.font())
            doc.setDocumentMargin(0)
            doc.setHtml(text)
            return int(doc.idealWidth() + 0.999)
        fm = label.fontMetrics()
        return max((fm.horizontalAdvance(line) for line in text.split("\n")), default=0)

    @staticmethod
    def _longest_word(label: QLabel, text: str) -> int:
        """The widest word: wrapping cannot make a label narrower than that."""
        if _rich(label, text):
            from PySide6.QtGui import QTextDocument

            doc = QTextDocument()
            doc.setDefaultFont(label.font())
            doc.setDocumentMargin(0)
            doc.setHtml(text)
            doc.setTextWidth(1)  # every word on its own line
            return int(doc.idealWidth() + 0.999)
        fm = label.fontMetrics()
        return max((fm.horizontalAdvance(word) for word in text.split()), default=0)

    def _button(self, b: QAbstractButton) -> None:
        text = _plain(b.text())
        if not text.strip():
            return
        if isinstance(b, QToolButton) and b.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly \
                and not b.icon().isNull():
            return
        fm = b.fontMetrics()
        icon = b.iconSize().width() + 4 if not b.icon().isNull() else 0
        frame = b.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, b)
        need = QSize(fm.horizontalAdvance(text) + icon + 2 * frame + 2, fm.height())
        self._place(b, where_of(b), text, self._aligned(need, Qt.AlignmentFlag.AlignCenter, b.rect()))

    def _check_box(self, b: QAbstractButton) -> None:
        text = _plain(b.text())
        if not text.strip():
            return
        style, fm = b.style(), b.fontMetrics()
        if isinstance(b, QCheckBox):
            ind = style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth, None, b)
            gap = style.pixelMetric(QStyle.PixelMetric.PM_CheckBoxLabelSpacing, None, b)
        else:
            ind = style.pixelMetric(QStyle.PixelMetric.PM_ExclusiveIndicatorWidth, None, b)
            gap = style.pixelMetric(QStyle.PixelMetric.PM_RadioButtonLabelSpacing, None, b)
        need = QSize(ind + gap + fm.horizontalAdvance(text), fm.height())
        self._place(b, where_of(b), text, self._aligned(need, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                                        b.rect()))

    def _combo(self, c: QComboBox) -> None:
        text = c.currentText()
        if not text.strip() or c.isEditable():  # an editable combo's line edit is looked at as one
            return
        opt = QStyleOptionComboBox()
        c.initStyleOption(opt)
        field = c.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                         QStyle.SubControl.SC_ComboBoxEditField, c)
        fm = c.fontMetrics()
        icon = c.iconSize().width() + 4 if not c.itemIcon(c.currentIndex()).isNull() else 0
        need = QSize(fm.horizontalAdvance(text) + icon, fm.height())
        self._place(c, where_of(c), text, self._aligned(need, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                                        field), field)

    def _line_edit(self, e: QLineEdit) -> None:
        text = e.text() if e.text() else e.placeholderText()
        if not text.strip() or e.echoMode() != QLineEdit.EchoMode.Normal:
            return
        opt = QStyleOptionFrame()
        e.initStyleOption(opt)
        room = e.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, e)
        margins = e.textMargins()
        room = room.adjusted(margins.left() + 2, margins.top(), -margins.right() - 2, -margins.bottom())
        fm = e.fontMetrics()
        need = QSize(fm.horizontalAdvance(text), min(fm.height(), max(room.height(), 0)) if e.text() else fm.height())
        box = self._aligned(need, e.alignment(), room)
        self._place(e, where_of(e), text, box, room)

    def _group_box(self, g: QGroupBox) -> None:
        text = _plain(g.title())
        if not text.strip():
            return
        opt = QStyleOptionGroupBox()
        g.initStyleOption(opt)
        label = g.style().subControlRect(QStyle.ComplexControl.CC_GroupBox, opt, QStyle.SubControl.SC_GroupBoxLabel, g)
        fm = QFontMetrics(g.font())
        need = QSize(fm.horizontalAdvance(text), fm.height())
        box = QRect(label.topLeft(), need)
        room = QRect(0, label.top(), g.width(), max(label.height(), fm.height()))
        self._place(g, where_of(g), text, box, room)

    def _tab_bar(self, bar: QTabBar) -> None:
        fm = bar.fontMetrics()
        for i in range(bar.count()):
            text = _plain(bar.tabText(i))
            if not text.strip() or not bar.isTabVisible(i):
                continue
            rect = bar.tabRect(i)
            need = QSize(fm.horizontalAdvance(text) + 8, fm.height())
            box = self._aligned(need, Qt.AlignmentFlag.AlignCenter, rect)
            if not bar.rect().contains(rect.adjusted(TOLERANCE, 0, -TOLERANCE, 0)):
                self.checked += 1
                self.problems.append(Problem("clipped", f"{where_of(bar)} tab {i + 1}", text,
                                             "the tab bar is too narrow for every tab"))
                continue
            self._place(bar, f"{where_of(bar)} tab {i + 1}", text, box, rect)

    def _cell_need(self, view: QAbstractItemView, index, rect: QRect) -> tuple[str, QSize] | None:
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if text is None:
            return None
        text = str(text)
        if not text.strip():
            return None
        font = index.data(Qt.ItemDataRole.FontRole)
        fm = QFontMetrics(font if isinstance(font, QFont) else view.font())
        margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
        icon = 0
        if index.data(Qt.ItemDataRole.DecorationRole) is not None:
            icon = view.iconSize().width() + 4 if view.iconSize().width() > 0 else 20
        avail = rect.width() - 2 * margin - icon
        one = QSize(fm.horizontalAdvance(text) + 2 * margin + icon, fm.height())
        wrap = getattr(view, "wordWrap", lambda: False)()
        if one.width() > rect.width() + TOLERANCE and wrap and " " in text and avail > 0:
            br = fm.boundingRect(QRect(0, 0, avail, 10**6), int(Qt.TextFlag.TextWordWrap), text)
            return text, QSize(br.width() + 2 * margin + icon, br.height())
        return text, one

    def _item_view(self, view: QAbstractItemView) -> None:
        model = view.model()
        if model is None:
            return
        viewport = view.viewport()
        vr = viewport.rect()
        root = view.rootIndex()
        rows, cols = model.rowCount(root), model.columnCount(root)
        for r in range(min(rows, 500)):
            for c in range(min(cols, 64)):
                index = model.index(r, c, root)
                rect = view.visualRect(index)
                if rect.isEmpty() or not rect.intersects(vr):
                    continue
                got = self._cell_need(view, index, rect)
                if got is None:
                    continue
                text, need = got
                where = f"{where_of(view)} cell {r + 1},{c + 1}"
                if self._scrolled_part(view, rect, vr, where, text, need):
                    continue
                box = self._aligned(need, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, rect)
                self._place(viewport, where, text, box, rect)

    def _scrolled_part(self, view: QAbstractScrollArea, rect: QRect, vr: QRect, where: str, text: str,
                       need: QSize) -> bool:
        """A cell or header section partly scrolled out of its view, which shows the scroll bar that reaches
        the rest: only a cell too small for its text is a problem (True: checked here)."""
        out_x = rect.left() < vr.left() - TOLERANCE or rect.right() > vr.right() + TOLERANCE
        out_y = rect.top() < vr.top() - TOLERANCE or rect.bottom() > vr.bottom() + TOLERANCE
        if not ((out_x and view.horizontalScrollBar().isVisible()) or (out_y and view.verticalScrollBar().isVisible())):
            return False
        self.checked += 1
        if need.width() > rect.width() + TOLERANCE or need.height() > rect.height() + TOLERANCE:
            self.problems.append(Problem("clipped", where, text,
                                         f"needs {need.width()}x{need.height()} px, has {rect.width()}x{rect.height()}"))
        return True

    def _header(self, header: QHeaderView) -> None:
        model = header.model()
        if model is None:
            return
        orientation = header.orientation()
        count = model.columnCount() if orientation == Qt.Orientation.Horizontal else model.rowCount()
        fm = header.fontMetrics()
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        vp = header.viewport()
        for section in range(min(count, 64)):
            if header.isSectionHidden(section):
                continue
            text = model.headerData(section, orientation, Qt.ItemDataRole.DisplayRole)
            if text is None or not str(text).strip():
                continue
            text = str(text)
            pos, size = header.sectionViewportPosition(section), header.sectionSize(section)
            if orientation == Qt.Orientation.Horizontal:
                rect = QRect(pos, 0, size, vp.height())
            else:
                rect = QRect(0, pos, vp.width(), size)
            if not rect.intersects(vp.rect()):
                continue
            lines = text.split("\n")
            need = QSize(max(fm.horizontalAdvance(x) for x in lines) + 2 * margin, fm.height() * len(lines))
            where = f"{where_of(header.parentWidget() or header)} header {section + 1}"
            table = header.parentWidget()
            if isinstance(table, QAbstractScrollArea) and self._scrolled_part(table, rect, vp.rect(), where, text, need):
                continue
            box = self._aligned(need, Qt.AlignmentFlag.AlignCenter, rect)
            self._place(vp, where, text, box, rect)

    def _painted(self, w: QWidget, item: PaintedText) -> None:
        if not item.text.strip():
            return
        fm = QFontMetrics(item.font)
        br = fm.boundingRect(QRect(item.rect), int(item.flags), item.text)
        need = QSize(br.width(), fm.height() if not item.flags & int(Qt.TextFlag.TextWordWrap) else br.height())
        box = self._aligned(need, Qt.AlignmentFlag(int(item.flags) & 0x1FF), item.rect)
        self._place(w, where_of(w), item.text, box, item.rect)

    # -- pyqtgraph ----------------------------------------------------------------------
    def _scene_to_window(self, view, rect: QRectF) -> QRect:
        poly = view.mapFromScene(rect)
        return QRect(view.viewport().mapTo(self.window, poly.boundingRect().topLeft()), poly.boundingRect().size())

    def _plot(self, view) -> None:
        import pyqtgraph as pg
        from PySide6.QtWidgets import QGraphicsItem, QGraphicsTextItem

        scene = view.scene()
        if scene is None:
            return
        clip, _sx, _sy = self._clip(view.viewport())
        base = where_of(view)
        for item in scene.items():
            if not item.isVisible():
                continue
            if isinstance(item, pg.AxisItem):
                self._axis(view, item, clip, base)
            elif isinstance(item, QGraphicsTextItem):
                text = item.toPlainText()
                if not text.strip():
                    continue
                margin = item.document().documentMargin()
                local = item.boundingRect().adjusted(margin, margin, -margin, -margin)
                drawn = self._scene_to_window(view, item.mapRectToScene(local))
                room = QRect(clip)
                parent = item.parentItem()
                while parent is not None:  # a view box clips its children (annotations) to its shape
                    if parent.flags() & QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape:
                        room = room.intersected(self._scene_to_window(view, parent.sceneBoundingRect()))
                    parent = parent.parentItem()
                self._place_drawn(f"{base} {self._item_name(item)}", text, drawn, room, item)

    @staticmethod
    def _item_name(item) -> str:
        import pyqtgraph as pg

        parent = item.parentItem()
        while parent is not None:
            if isinstance(parent, pg.AxisItem):
                return f"{parent.orientation} axis title"
            if isinstance(parent, pg.LegendItem):
                return "legend"
            if isinstance(parent, pg.TextItem):
                return "annotation"
            if isinstance(parent, pg.LabelItem):
                grand = parent.parentItem()
                return "legend" if isinstance(grand, pg.LegendItem) else "title"
            parent = parent.parentItem()
        return "text"

    def _place_drawn(self, where: str, text: str, drawn: QRect, room: QRect, owner) -> None:
        """A text already placed (window pixels) that must lie inside ``room``."""
        self.checked += 1
        cuts = {"left": room.left() - drawn.left(), "right": drawn.right() - room.right(),
                "top": room.top() - drawn.top(), "bottom": drawn.bottom() - room.bottom()}
        sides = [side for side, cut in cuts.items() if cut > TOLERANCE]
        if sides:
            self.problems.append(Problem("clipped", where, text, f"cut at the {' and '.join(sides)} "
                                                                 f"({drawn.width()}x{drawn.height()} px text)"))
        shown = drawn.intersected(room)
        if not shown.isEmpty():
            self.texts.append(_Text(where, text, shown, owner))

    def _axis(self, view, axis, clip: QRect, base: str) -> None:
        if not axis.style.get("showValues", True):
            return
        specs = axis_specs(axis)
        if not specs:
            return
        room = clip.intersected(self._scene_to_window(view, axis.mapRectToScene(axis.boundingRect())))
        for rect, _flags, text in specs[2]:
            if not str(text).strip():
                continue
            # pyqtgraph's own box: 80% of the line's height, about the digits' ink
            drawn = self._scene_to_window(view, axis.mapRectToScene(QRectF(rect)))
            self._place_drawn(f"{base} {axis.orientation} axis", str(text), drawn, room, axis)

    # -- overlaps -----------------------------------------------------------------------
    def _overlaps(self) -> None:
        texts = sorted(self.texts, key=lambda t: t.drawn.left())
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if b.drawn.left() > a.drawn.right():
                    break
                if a.owner is b.owner and a.where == b.where and a.text == b.text:
                    continue
                both = a.drawn.intersected(b.drawn)
                line = OVERLAP_SHARE * min(a.drawn.height(), b.drawn.height())
                if both.width() >= OVERLAP_MIN and both.height() >= max(OVERLAP_MIN, line) and not self._nested(a, b):
                    self.problems.append(Problem("overlap", a.where, a.text,
                                                 f"{both.width()}x{both.height()} px in common at "
                                                 f"{both.x()},{both.y()}; the other is {b.where}", b.text))

    @staticmethod
    def _nested(a: _Text, b: _Text) -> bool:
        """A widget's text and its child's (a group box's title is above its children, so only a
        real collision counts; a combo box and its own line edit are the same text)."""
        oa, ob = a.owner, b.owner
        if isinstance(oa, QWidget) and isinstance(ob, QWidget):
            if (isinstance(oa, QComboBox) and ob.parentWidget() is oa) or \
                    (isinstance(ob, QComboBox) and oa.parentWidget() is ob):
                return True
        return False


def axis_specs(axis):
    """pyqtgraph's own plan for drawing ``axis`` (line, ticks, tick texts), as its ``paint`` makes it."""
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        if axis.style.get("tickFont"):
            painter.setFont(axis.style["tickFont"])
        return axis.generateDrawSpecs(painter)
    finally:
        painter.end()


def settle_layouts(root: QWidget | None = None, rounds: int = 3) -> None:
    """Carry out the layout changes Qt has queued (fonts and sizes just changed), without running other
    events: what the check measures is then what the next frame shows. pyqtgraph sizes an axis for its
    tick texts only while painting it, so the plots under ``root`` plan their axes first."""
    from PySide6.QtCore import QCoreApplication, QEvent

    for _ in range(rounds):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if root is None:
            continue
        import pyqtgraph as pg

        for view in root.findChildren(pg.GraphicsView):
            if view.isVisible() and view.scene() is not None:
                for item in view.scene().items():
                    if isinstance(item, pg.AxisItem) and item.isVisible():
                        axis_specs(item)


def check_layout(window: QWidget) -> list[Problem]:
    """Every text of ``window`` that is clipped or overlapped (empty: all fit)."""
    return LayoutChecker(window).run()


def report(problems: list[Problem], checked: int, what: str) -> str:
    """The verdict as ``render --check-layout`` prints it."""
    if not problems:
        return f"layout check: all {checked} texts fit ({what})"
    lines = [f"layout check: {len(problems)} problem{'s' if len(problems) != 1 else ''} in {checked} texts ({what}):"]
    lines += [f"  {p}" for p in problems]
    return "\n".join(lines)


__all__ = ["LayoutChecker", "PaintedText", "Problem", "check_layout", "report", "settle_layouts", "where_of"]
