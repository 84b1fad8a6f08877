"""What the window's pyqtgraph plots share: theme colours, no pyqtgraph menus, a movable cursor.

:class:`ThemedPlot` is every plot's base (the explorer's timeline and counts, the
calculator's sweeps, the GEMM roofline): pyqtgraph's context menus and buttons
off, its parentless menus parented, axes in the theme's colours, and text that
is never cut or piled up: a title in the longest of its wordings that fits the
plot's width (:meth:`ThemedPlot.set_titles`), no more tick labels than the axis
has room for at its font (pyqtgraph always draws at least three, which pile up on
a short plot or at a projector's scale), and room at the edges for the outermost
tick labels.

:class:`CursorPlot` adds the playback position: dragging the cursor (or clicking
in the plot) asks for a cycle through ``cycle_requested``; playback moves it with
``set_cycle``, which touches nothing but the line, so a frame never re-uploads an
image or a curve.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QMenu, QToolTip, QWidget

from explorer.gui.common.theme import LIGHT, Theme


class ThemedPlot(pg.PlotWidget):
    """A PlotWidget without pyqtgraph's menus and buttons, zoomed by the mouse along x at most.

    ``declutter = True`` (a chart of labelled lines, the roofline): an annotation (``pg.TextItem``)
    that would stick out of the plot or run into one added after it is hidden until there is room
    again, so a small plot shows fewer labels rather than a pile of them."""

    declutter = False

    def __init__(self, parent: QWidget | None = None, mouse_x: bool = False):
        existing = set(QApplication.topLevelWidgets())
        super().__init__(parent=parent)
        self._adopt_menus(existing)
        self.setMenuEnabled(False)  # pan/zoom/export menus add nothing to these plots
        self.hideButtons()
        self.setMouseEnabled(x=mouse_x, y=False)
        self.theme: Theme = LIGHT
        self._titles: tuple[str, ...] = ()
        self._title_style: dict = {}
        self._decluttered: set[int] = set()  # annotations hidden for want of room
        self._lined_up: ThemedPlot | None = None  # the plot whose view box this one's spans (line_up_with)
        vb = self.getPlotItem().getViewBox()
        vb.sigResized.connect(self.fit_axes)
        vb.sigRangeChanged.connect(self.fit_axes)
        vb.sigTransformChanged.connect(lambda *_a: self.declutter and self._declutter(vb))

    def _adopt_menus(self, existing: set) -> None:
        """Parent the context menus pyqtgraph creates without one.

        Parentless, they are top-level windows that outlive the plot for as long
        as any Python reference to it does; as children they go with the plot.
        """
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QMenu) and widget not in existing:
                widget.setParent(self, widget.windowFlags())

    def set_titles(self, *texts: str, color=None, size: str = "10pt") -> None:
        """A one-line title: the first of ``texts`` (longest first) that fits the plot's width; none fits, no title."""
        self._titles = tuple(t for t in texts if t)
        self._title_style = {"color": color, "size": size}
        self.fit_title()

    def fit_title(self) -> None:
        if not getattr(self, "_titles", ()):  # pyqtgraph resizes before __init__ is done
            return
        item = self.getPlotItem()
        # the title sits over the view box: a wider one would widen the plot past its widget (the right
        # axis's numbers cut off at the widget's edge)
        axes = sum(axis.width() for axis in (item.getAxis("left"), item.getAxis("right")) if axis.isVisible())
        margin_l, _top, margin_r, _bottom = item.layout.getContentsMargins()
        room = self.width() - axes - margin_l - margin_r - 12
        for text in self._titles:
            item.setTitle(text, **self._title_style)
            if item.titleLabel.item.boundingRect().width() <= room:
                return
        item.setTitle(None)
        # a hidden title keeps the size hints of the last text it measured (pyqtgraph's LabelItem): the plot item
        # then stays that wide and runs past a narrower widget (its right axis cut off)
        item.titleLabel.setText("")

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        # the title for the new width first: pyqtgraph then gives the plot item the widget's size, which a
        # title chosen for a wider widget would hold wider (the plot past the widget's right edge, its last
        # numbers cut off: Russian at 1600x900, then 1280x720)
        if event is None or event.size().width() != event.oldSize().width():  # pyqtgraph sends None
            self.fit_title()
        super().resizeEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.fit_title()
        self.fit_axes()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """At least as wide as its axes and a view box that holds two of the bottom axis's numbers: narrower, the
        plot item keeps its own minimum and runs past the widget's right edge (the right axis cut off, the run's
        last cycles missing: "10000" read "1000", with the SASS view beside the plots at 1280x720)."""
        hint = super().minimumSizeHint()
        item = self.getPlotItem()
        axes = sum(axis.width() for axis in (item.getAxis("left"), item.getAxis("right")) if axis.isVisible())
        bottom = item.getAxis("bottom")
        fm = QFontMetrics(bottom.style.get("tickFont") or self.font())
        margin_l, _t, margin_r, _b = item.layout.getContentsMargins()
        width = int(axes + 2 * fm.horizontalAdvance("88888") + 8 + margin_l + margin_r) + 2 * self.frameWidth()
        return QSize(max(hint.width(), width), hint.height())

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the title's and the axes' fonts: fit them again."""
        self.fit_title()
        self.fit_axes()

    def dropped_texts(self) -> list[str]:
        """The numbers of an axis that has room for none of them (the layout check reports it)."""
        from explorer.gui.common.layout_check import axis_specs

        out = []
        item = self.getPlotItem()
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            if not axis.isVisible() or not axis.style.get("showValues", True):
                continue
            if axis._tickLevels is not None and not any(level for level in axis._tickLevels):
                continue  # the owner chose no labels (and says so with dropped_texts of its own)
            specs = axis_specs(axis)
            if specs is not None and not specs[2]:
                out.append(self.tr("the numbers of the {side} axis").format(side=side))
        return out

    def fit_axes(self, *_args) -> None:
        """At most as many tick labels on the left, bottom (and a shown right) axes as fit their length at the
        tick font (automatic ticks only), and margins for the half labels that stick out at the ends."""
        if not hasattr(self, "_titles"):  # pyqtgraph resizes before __init__ is done
            return
        item = self.getPlotItem()
        vb = item.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        sides = [("left", vb.height(), y0, y1), ("bottom", vb.width(), x0, x1)]
        right = item.getAxis("right")
        if right.isVisible():  # a second scale (the counts plot's ready warps): its own view's range
            view = right.linkedView() or vb
            r0, r1 = view.viewRange()[1]
            # the main view box's height: the second view lies over it, but its own geometry follows a resize
            # only after this runs (its stale, taller height gave "50" and "100" 3 px apart, overlapping)
            sides.append(("right", vb.height(), r0, r1))
        for side, length, lo, hi in sides:
            axis = item.getAxis(side)
            if not axis.isVisible() or axis._tickLevels is not None or axis.logMode or length <= 0:
                continue
            fm = QFontMetrics(axis.style.get("tickFont") or self.font())
            if side in ("left", "right"):
                size = fm.height()
            else:
                size = fm.horizontalAdvance("8" * (max(len(f"{abs(v):.0f}") for v in (lo, hi)) + 1))
            spacing = _fitting_spacing(lo, hi, length, size)
            wanted = None
            if spacing is not None and abs(hi - lo) / spacing < _auto_intervals(length):
                wanted = [(spacing, 0)]  # fewer numbers than pyqtgraph would draw: they would pile up
            if wanted != axis._tickSpacing:
                axis.setTickSpacing(levels=wanted) if wanted else axis.setTickSpacing()
        for side, length, _lo, _hi in sides:
            self._wrap_label(item.getAxis(side), length)
        if self.declutter:
            self._declutter(vb)
        left = item.getAxis("left")
        fm = QFontMetrics(left.style.get("tickFont") or self.font())
        titled = item.titleLabel.isVisible() and item.titleLabel.text
        top = 2 if titled else fm.height() // 2 + 2
        right = self._right_margin()
        if self._lined_up is not None:
            right = max(right, self._lined_up.right_extent() - self.right_axis_width())
        left_m, top_m, right_m, bottom_m = item.layout.getContentsMargins()
        if (round(top_m), round(right_m)) != (top, right):
            item.layout.setContentsMargins(left_m, top, right, bottom_m)

    def line_up_with(self, other: "ThemedPlot") -> None:
        """Leave as much room right of the view box as ``other`` does (its right axis and margin): two
        x-linked plots stacked in one column then show the same cycles at the same pixels, and the other's
        right axis keeps room for its numbers inside its widget."""
        self._lined_up = other
        self.fit_axes()

    def right_axis_width(self) -> float:
        right = self.getPlotItem().getAxis("right")
        return right.width() if right.isVisible() else 0.0

    def _right_margin(self) -> int:
        """Room right of the axes for the bottom axis's last number, half of which sticks out past the view
        box (a right axis gives it that room already)."""
        bottom = self.getPlotItem().getAxis("bottom")
        half = QFontMetrics(bottom.style.get("tickFont") or self.font()).horizontalAdvance("88888") // 2 + 2 \
            if bottom.isVisible() else 2
        return max(2, half - int(self.right_axis_width()))

    def right_extent(self) -> float:
        """Pixels between the view box's right edge and the plot's: the right axis and the margin."""
        return self.right_axis_width() + self._right_margin()

    def apply_theme(self, theme: Theme) -> None:
        """Background and the left and bottom axes in the theme's plot colours."""
        self.theme = theme
        fg = theme.plot_foreground
        self.setBackground(theme.plot_background)
        item = self.getPlotItem()
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            axis.setPen(pg.mkPen(fg))
            axis.setTextPen(pg.mkPen(fg))


    @staticmethod
    def _wrap_label(axis, length: float) -> None:
        """An axis title longer than its axis wraps at its spaces; one that cannot (a word longer than the
        axis: a short plot's "warps") is not shown — the plot's title names the quantity."""
        if not axis.isVisible() or length <= 0:
            return
        label = axis.label
        if not label.toPlainText().strip():
            return
        label.setTextWidth(-1)
        doc = label.document()
        width = doc.idealWidth()
        margin = 2 * doc.documentMargin()
        words = label.toPlainText().split()
        widest = max(QFontMetrics(label.font()).horizontalAdvance(w) for w in words) + margin
        if width <= length:
            want = -1
        elif widest <= length:
            want = int(length)
        else:
            want = 0  # no room even for one word
        if want > 0:
            label.setTextWidth(want)
        shown = want != 0
        if getattr(axis, "_wrapped_at", None) != want or axis.label.isVisible() != shown:
            axis._wrapped_at = want
            axis.label.setVisible(shown)
            axis._updateWidth() if axis.orientation in ("left", "right") else axis._updateHeight()
            axis._updateLabel()

    def _declutter(self, vb) -> None:
        """Show the annotations that fit, the later ones first (a chart adds its main label last)."""
        hidden = self._decluttered
        area = vb.sceneBoundingRect()
        kept = []
        self._decluttered = set()
        for text in reversed([i for i in vb.addedItems if isinstance(i, pg.TextItem)]):
            if not text.isVisible() and id(text) not in hidden:
                continue  # the chart hid it itself
            margin = text.textItem.document().documentMargin()
            rect = text.textItem.mapRectToScene(text.textItem.boundingRect().adjusted(margin, margin, -margin, -margin))
            fits = area.contains(rect) and not any(rect.intersects(other) for other in kept)
            text.setVisible(fits)
            if fits:
                kept.append(rect)
            else:
                self._decluttered.add(id(text))


def _auto_intervals(length: float) -> float:
    """How many intervals pyqtgraph's automatic ticks aim for on an axis of ``length`` pixels (AxisItem.tickSpacing)."""
    return max(2.25, 2.25 * math.sqrt(max(length, 1.0) / 300.0))


def _fitting_spacing(lo: float, hi: float, length: float, size: float) -> float | None:
    """The shortest 1-2-5 x 10^k tick step whose labels (``size`` pixels along an axis of ``length``) do not
    pile up and of which at least one sits clear of the ends (pyqtgraph drops a label that sticks out)."""
    span = abs(hi - lo)
    if span <= 0 or length <= 0 or not math.isfinite(span):
        return None
    per_px = span / length
    edge = 0.6 * size * per_px  # a label's half plus a little, in axis units
    mag = 10.0 ** math.floor(math.log10(span / 50))
    steps = [m * mag * 10 ** k for k in range(8) for m in (1, 2, 5)]

    def clear(step: float) -> bool:  # a label between the ends, clear of them
        first = math.ceil((min(lo, hi) + edge) / step) * step
        return first <= max(lo, hi) - edge

    for step in steps:
        if step / per_px >= 1.15 * size and clear(step):  # neighbours apart, one label clear of the ends
            return step
    return next((step for step in reversed(steps) if step <= span and clear(step)), None)  # one in the middle


class CursorPlot(ThemedPlot):
    """A themed plot with a playback cursor and x-only zoom."""

    cycle_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, mouse_x=True)
        item = self.getPlotItem()
        item.getViewBox().setLimits(xMin=0)
        self.cursor = pg.InfiniteLine(angle=90, movable=True)
        self.cursor.setZValue(20)
        self.cursor.setHoverPen(pg.mkPen(LIGHT.marker, width=4))
        self.cursor.sigDragged.connect(self._cursor_dragged)
        self.addItem(self.cursor, ignoreBounds=True)
        self.scene().sigMouseClicked.connect(self._clicked)
        self._x_max = 1.0
        self.paint_count = 0

    def set_cycle(self, cycle: int) -> None:
        self.cursor.setValue(cycle + 0.5)

    def set_x_max(self, x_max: float) -> None:
        self._x_max = max(1.0, float(x_max))
        vb = self.getPlotItem().getViewBox()
        vb.setLimits(xMin=0, xMax=self._x_max, minXRange=min(20.0, self._x_max))
        if vb.linkedView(0) is not None:
            # an x-linked plot took its partner's range under the old run's limits (clamped to the shorter run):
            # take it again now that the limits allow it, or its cursor stands at another cycle's pixel than the
            # partner's (issue 31 item 8: the unit strip at ~7,700 while the timeline showed ~5,630)
            vb.linkedXChanged()

    def show_all(self) -> None:
        self.getPlotItem().setXRange(0, self._x_max, padding=0)

    def hover_point(self, pos):
        """The view coordinates under a mouse position in the scene, or None (and no tooltip) outside the plot."""
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(pos):
            QToolTip.hideText()
            return None
        return vb.mapSceneToView(pos)

    def show_tip(self, pos, text: str) -> None:
        """A tooltip at a scene position of the plot."""
        QToolTip.showText(self.viewport().mapToGlobal(self.mapFromScene(pos)), text, self)

    def _cursor_dragged(self) -> None:
        self.cycle_requested.emit(int(self.cursor.value()))

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.isAccepted():
            return
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        x = vb.mapSceneToView(event.scenePos()).x()
        if 0 <= x <= self._x_max:
            self.cycle_requested.emit(int(x))
            event.accept()

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        self.cursor.setPen(pg.mkPen(theme.marker, width=2))
        self.cursor.setHoverPen(pg.mkPen(theme.marker, width=4))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.paint_count += 1
        super().paintEvent(event)
