"""Small building blocks the pages share: scroll areas, splitters, labels, combo boxes.

Each is what several pages wrote out line by line; the pages keep their own
object names, texts and stretch factors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QScrollArea, QSizePolicy, QSplitter, QWidget

from explorer.gui.common.error_texts import core_message
from explorer.gui.common.page import pane_minimum
from explorer.gui.common.theme import restyle
from explorer.model.catalog import GpuSpec, load_catalog

DEFAULT_GPU = "H100"  # every GPU picker starts here: the mission's example runs on an H100


class ColumnScroll(QScrollArea):
    """A scroll area for a column of a page: it scrolls vertically, and sideways only when what it
    holds cannot be narrower (a long word, a field's number) — it never cuts a text off.

    ``fit_width``: the column is never narrower than what it holds (its splitter gives it the room;
    for a column whose page scrolls as a whole, so the window's size does not grow with it)."""

    def __init__(self, parent: QWidget | None = None, fit_width: bool = False):
        super().__init__(parent)
        self.fit_width = fit_width

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        inner = self.widget()
        if not self.fit_width or inner is None:
            return hint
        bar = self.verticalScrollBar().sizeHint().width() if self.verticalScrollBarPolicy() != \
            Qt.ScrollBarPolicy.ScrollBarAlwaysOff else 0
        width = inner.minimumSizeHint().width() + bar + 2 * self.frameWidth()
        return QSize(max(hint.width(), width), hint.height())

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if self.fit_width and obj is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # what it holds got wider or narrower (a font, a longer text)
        return super().eventFilter(obj, event)


def scroll_area(widget: QWidget, parent: QWidget, fit_width: bool = False) -> QScrollArea:
    """``widget`` in a frameless scroll area for a column of a page (:class:`ColumnScroll`)."""
    area = ColumnScroll(parent, fit_width)
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    return area


class FittingSplitter(QSplitter):
    """A splitter that never squeezes a pane below what its layout needs at its width (wrapped text
    included: Qt's own minimum ignores it, and a caption then lies over the plot above it).

    A collapsible pane (``setCollapsible``) is either folded away or at least its minimum: the splitter's
    own minimum leaves it out (it can fold), and when the splitter gets too short to give it its minimum
    it folds, its room going to the others, instead of showing a squeezed, unreadable part of itself."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        vertical = self.orientation() == Qt.Orientation.Vertical
        fold = sum(pane_minimum(self, i) for i in self._foldable())
        return QSize(hint.width(), hint.height() - fold) if vertical else QSize(hint.width() - fold, hint.height())

    def setCollapsible(self, index: int, collapse: bool) -> None:  # noqa: N802 - Qt API
        """Qt's ``isCollapsible`` says True for a pane nobody set (it follows ``childrenCollapsible`` then):
        the panes set collapsible are remembered here."""
        super().setCollapsible(index, collapse)
        self.widget(index).setProperty("foldable", bool(collapse))

    def _foldable(self) -> list[int]:
        return [i for i in range(self.count()) if not self.widget(i).isHidden()
                and (self.widget(i).property("foldable") or (self.widget(i).property("foldable") is None
                                                             and self.childrenCollapsible()))]

    resized = Signal()  # after a resize, once the panes have their new sizes (an event filter sees the old)

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None):
        super().__init__(orientation, parent)
        self.splitterMoved.connect(self._moved_by_hand)

    def _moved_by_hand(self, *_args) -> None:
        """The user moved a handle: what is folded now stays so until they open it."""
        for i in range(self.count()):
            self.widget(i).setProperty("folded_for_room", False)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fold_squeezed()
        self.reopen_folded()
        self.resized.emit()

    def reopen_folded(self) -> None:
        """A pane folded for want of room opens again, at its minimum, once the others can spare that."""
        sizes = self.sizes()
        least = [pane_minimum(self, i) for i in range(self.count())]
        for i in self._foldable():
            if sizes[i] > 0 or not self.widget(i).property("folded_for_room"):
                continue
            spare = sum(max(0, sizes[k] - least[k]) for k in range(len(sizes)) if sizes[k] > 0)
            if spare < least[i]:
                continue
            want = least[i]
            for k in sorted(range(len(sizes)), key=lambda k: sizes[k] - least[k], reverse=True):
                give = min(want, max(0, sizes[k] - least[k])) if sizes[k] > 0 else 0
                sizes[k] -= give
                want -= give
            sizes[i] = least[i]
            self.widget(i).setProperty("folded_for_room", False)
            self.setSizes(sizes)

    def fold_squeezed(self) -> None:
        """Fold the collapsible panes (the last first) while the open panes' minimums do not fit, and any
        with less than its minimum; the open panes share their room."""
        sizes = self.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        least = [pane_minimum(self, i) for i in range(self.count())]
        fold = [i for i in self._foldable() if 0 < sizes[i] < least[i] - 1]
        need = sum(least[i] for i in range(len(sizes)) if sizes[i] > 0 and i not in fold)
        for i in reversed(self._foldable()):
            if need <= total or i in fold or sizes[i] <= 0:
                continue
            fold.append(i)
            need -= least[i]
        if not fold:
            return
        for i in fold:
            sizes[i] = 0
            self.widget(i).setProperty("folded_for_room", True)
        rest = [i for i in range(len(sizes)) if sizes[i] > 0]
        if rest:  # the open panes share the room in proportion to their sizes (all of it to the last one left a
            room = total - sum(sizes)  # timeline at its minimum above a counts plot with room to spare)
            open_total = sum(sizes[i] for i in rest)
            for i in rest[:-1]:
                sizes[i] += room * sizes[i] // open_total
            sizes[rest[-1]] += total - sum(sizes)
        self.setSizes(sizes)

    def addWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt API
        super().addWidget(widget)
        widget.setProperty("own_minimum", (widget.minimumWidth(), widget.minimumHeight()))
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) and isinstance(obj, QWidget) \
                and obj.parentWidget() is self:
            self._fit(obj)
        return super().eventFilter(obj, event)

    def _fit(self, pane: QWidget) -> None:
        lay = pane.layout()
        if lay is None or not lay.hasHeightForWidth() or self.orientation() != Qt.Orientation.Vertical:
            return
        own = pane.property("own_minimum") or (0, 0)
        need = max(int(own[1]), lay.totalMinimumHeightForWidth(pane.width()))
        if need != pane.minimumHeight():
            pane.setMinimumHeight(need)


def splitter(orientation: Qt.Orientation, parent: QWidget, name: str, widgets: Sequence[QWidget],
             stretch: Sequence[int] = (), fit_panes: bool = False) -> QSplitter:
    """A splitter named ``name`` holding ``widgets`` (never collapsed), with their stretch factors if given.

    ``fit_panes``: never squeeze a pane below what it needs (:class:`FittingSplitter`) — for a page that
    scrolls as a whole, so the window's minimum size does not grow with it."""
    s = FittingSplitter(orientation, parent) if fit_panes else QSplitter(orientation, parent)
    s.setObjectName(name)
    s.setChildrenCollapsible(False)
    for widget in widgets:
        s.addWidget(widget)
    for index, factor in enumerate(stretch):
        s.setStretchFactor(index, factor)
    return s


def input_form(parent: QWidget | None = None) -> QFormLayout:
    """A form of inputs: the fields grow with the column, the labels stand right-aligned beside them."""
    form = QFormLayout(parent) if parent is not None else QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return form


def add_row(form: QFormLayout, parent: QWidget, text: str, widget: QWidget, tip: str = "") -> QLabel:
    """A labelled row whose Alt+letter focuses ``widget``; ``tip`` explains both (a field's help, or its tooltip)."""
    label = QLabel(text, parent)
    label.setBuddy(widget)
    if tip:
        label.setToolTip(tip)
        if callable(getattr(widget, "set_help", None)):
            widget.set_help(tip)
        else:
            widget.setToolTip(tip)
    form.addRow(label, widget)
    return label


def wrap(label: QLabel) -> QLabel:
    """Word-wrapped, and as narrow as its column (a long text never widens the window)."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def muted_label(parent: QWidget, text: str = "") -> QLabel:
    """A wrapped label in the theme's muted colour (notes, explanations)."""
    label = QLabel(text, parent)
    label.setProperty("role", "muted")
    return wrap(label)


class FittingLabel(QLabel):
    """One line that shows the first of its wordings (longest first) that fits its width: a title that is
    never cut, only shortened ("SM grid — H100: 132 SMs × 64 warp slots · row = scheduler ..." -> "SM grid")."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._texts: tuple[str, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_texts(self, *texts: str) -> None:
        self._texts = tuple(texts)
        self._fit()

    def _width(self, text: str) -> int:
        from PySide6.QtGui import QTextDocument

        if self.textFormat() == Qt.TextFormat.PlainText:
            return self.fontMetrics().horizontalAdvance(text)
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(text)
        return int(doc.idealWidth() + 0.999)

    def _fit(self) -> None:
        if not self._texts:
            return
        room = self.contentsRect().width() - 2 * self.margin()
        for text in self._texts:
            if self._width(text) <= room:
                break
        if text != self.text():
            super().setText(text)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()


class SteadyLabel(QLabel):
    """A word-wrapped label as tall as its text needs, that only grows while its width stays the same.

    For a sentence that changes every frame of playback ("1 of 1,920 resident warps are
    ready..."): a shorter one never makes the column jump, a longer one is never cut
    (it grows once, ``grew`` says so). A new width or font measures the text afresh.
    At least ``lines`` lines tall.
    """

    grew = Signal()

    def __init__(self, parent: QWidget | None = None, lines: int = 2):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._lines = lines
        self._height = 0

    def _need(self) -> int:
        fm = QFontMetrics(self.font())
        floor = fm.lineSpacing() * self._lines + 4
        return max(floor, QLabel.heightForWidth(self, self.width()) if self.width() > 1 else floor)

    def _measure(self, reset: bool) -> None:
        need = self._need()
        height = need if reset else max(self._height, need)
        if height != self._height:
            grown = height > self._height and not reset
            self._height = height
            self.updateGeometry()
            if grown:
                self.grew.emit()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        if text != self.text():
            super().setText(text)
            self._measure(reset=False)

    def remeasure(self) -> None:
        """As tall as the text now on it (its short form replaced a longer one)."""
        self._measure(reset=True)

    def sizeHint(self) -> QSize:  # noqa: D401 - Qt API
        return QSize(super().sizeHint().width(), self._height or self._need())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(0, self._height or self._need())

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API: the height is this label's own
        return False

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._measure(reset=True)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._measure(reset=True)


def error_label(parent: QWidget, text: str = "") -> QLabel:
    """A word-wrapped label in the theme's error colour, hidden until there is something to say."""
    label = QLabel(text, parent)
    label.setProperty("role", "error")
    label.setWordWrap(True)
    label.hide()
    return label


def show_combo_error(combo: QComboBox, label: QLabel, message: str | None) -> None:
    """Mark ``combo`` invalid (red border) and show ``message`` in ``label``; None or "" clears both."""
    message = core_message(message)
    label.setText(message or "")
    label.setVisible(bool(message))
    combo.setProperty("invalid", bool(message))
    restyle(combo)


def select_data(combo: QComboBox, value) -> bool:
    """Make the item whose data is ``value`` current; False (and no change) when there is none."""
    index = combo.findData(value)
    if index >= 0:
        combo.setCurrentIndex(index)
    return index >= 0


def add_gpus(combo: QComboBox, tooltip: Callable[[GpuSpec], str]) -> None:
    """One item per catalog GPU (text and data: its name), with ``tooltip(spec)`` as the item's tooltip;
    :data:`DEFAULT_GPU` is selected."""
    for spec in load_catalog().values():
        combo.addItem(spec.name, spec.name)
        combo.setItemData(combo.count() - 1, tooltip(spec), Qt.ItemDataRole.ToolTipRole)
    select_data(combo, DEFAULT_GPU)


def set_texts_long_short(label: QLabel, long: str, short: str) -> None:
    """A sentence with a short form for a column too short for it (``explore.metrics`` switches with
    :func:`set_short`; shortened, the tooltip has the whole sentence)."""
    label.setProperty("long_text", long)
    label.setProperty("short_text", short if short != long else "")
    set_short(label, bool(label.property("shortened")))


def set_short(label: QLabel, on: bool) -> None:
    """Show ``label``'s short form (``on``) or its whole sentence."""
    if label.property("base_tip") is None:
        label.setProperty("base_tip", label.toolTip())
    on = bool(on and label.property("short_text"))
    label.setProperty("shortened", on)
    text = label.property("short_text") if on else label.property("long_text")
    if text and label.text() != text:
        label.setText(text)
        if isinstance(label, SteadyLabel) and on:
            label.remeasure()  # a steady label keeps its height while it grows: the short form measures afresh
    base = label.property("base_tip") or ""
    tip = f"{label.property('long_text')}<br><br>{base}" if on and base else label.property("long_text") if on else base
    if label.toolTip() != tip:
        label.setToolTip(tip)


def whole_text(label: QLabel) -> str:
    """The sentence ``label`` says, whole, whether it shows its short form or not."""
    return label.property("long_text") or label.text()
