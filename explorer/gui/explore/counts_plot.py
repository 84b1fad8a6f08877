"""Unfinished / resident / eligible / issued warps per cycle: the mission's three quantities plus issue.

The first curve is the data's ``launched`` series: the launched warps not finished
yet. It starts at the launch's total (the work launched, 1,920 in the mission's
example) and falls as warps finish, so the legend calls it "unfinished" rather than
"launched", which the scenario panel's constant total already says.
GPU-wide by default; "Selected SM" shows the same counts for one SM (unfinished
has no per-SM meaning and is hidden). Ready and issued warps are a few dozen
where launched and resident are thousands (1,920 in the mission's example), so
they have their own scale on the right axis (a second view box sharing the
cycles): on the left scale they would lie flat on zero. Issued warps are ready
ones (issued never exceeds ready), so issued is a filled area and ready a line on
top of it: where every ready warp issues, the line runs along the area's edge and
both stay visible. Zoomed out, the two are drawn from bins of 2**k cycles, each
bin's average (``run_data.halvings``, one level per zoom as the timeline does, so
a bin covers about a pixel): a thousand alternating cycles would otherwise paint
the plot solid; the right axis names the bin then, and zoomed in every cycle is
exact. Launched and resident are drawn whole, every step (pyqtgraph's own
decimation does not keep a step curve's x/y lengths). Each curve has its own
colour *and* line style, and the legend names them.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.legend import LegendRow
from explorer.texts.numbers import num
from explorer.gui.common.plots import CursorPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.workspace.run_data import SimRun, halvings

SERIES = ("launched", "resident", "eligible", "issued")
RIGHT = ("eligible", "issued")  # on the right axis: their own scale
ISSUED_FILL_ALPHA = 110  # of 255: the issued area under the ready line
HEADROOM = 1.3  # the y ranges go to 1.3 x the highest value (the right one: of the usual value)
READY_PERCENTILE = 99  # the right axis fits this percentile of ready warps: a launch's burst is left off the top
LAUNCH_SHARE = 0.25  # a ready peak in the run's first quarter is the launch's burst (ready_scale)


def ready_scale(ready: np.ndarray) -> float:
    """The ready count the right axis is scaled for: the 99th percentile of what is drawn after the
    launch's burst.

    At launch every warp is ready (1,920 of the example's 1,920): the model's
    warps stall on their first load within a few cycles, a kernel's own SASS runs
    its prologue first (a few hundred cycles, 2% of the example's run); then a
    handful are. Scaled for the burst, the rest of the run would lie flat on zero
    again, so the cycles up to the last one in the run's first quarter with more
    than a quarter of that peak ready are left out (a peak later in the run is no
    launch: nothing is). The title says when the burst is off the top.
    """
    if not len(ready):
        return 0.0
    peak_at = int(np.argmax(ready))
    early = ready[: max(1, int(LAUNCH_SHARE * len(ready)))]
    if peak_at < len(early):
        burst = np.flatnonzero(early > ready[peak_at] / 4)  # the burst and its first echoes
        ready = ready[int(burst[-1]) + 1:] if burst[-1] + 1 < len(ready) else ready
    return float(np.percentile(ready, READY_PERCENTILE))


MIN_HEIGHT = 110  # px: the curves, both axes' numbers and the cycle axis title


class CountsPlot(CursorPlot):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("counts_plot")
        self.setMinimumHeight(MIN_HEIGHT)
        item = self.getPlotItem()
        item.showGrid(x=False, y=True, alpha=0.25)
        item.getAxis("left").setWidth(64)
        # ready / issued: a second view box with its own y range on the right axis, the same cycles as
        # the main one, drawn over it (ready would hide under resident where the two coincide, as on an
        # SM whose resident warps are all ready); it takes no mouse: the main box keeps cursor drags,
        # clicks and x zoom
        self.ready_view = pg.ViewBox(enableMouse=False, enableMenu=False)
        self.ready_view.setMouseEnabled(x=False, y=False)
        self.ready_view.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ready_view.setAcceptHoverEvents(False)
        self.ready_view.setZValue(10)
        item.showAxis("right")
        item.scene().addItem(self.ready_view)
        right = item.getAxis("right")
        right.linkToView(self.ready_view)
        right.setWidth(48)
        self.ready_view.setXLink(item.getViewBox())
        self.ready_view.sigRangeChanged.connect(self.fit_axes)  # the right axis's ticks fit its own range too
        item.getViewBox().sigResized.connect(self._sync_views)
        item.getViewBox().sigXRangeChanged.connect(self._choose_level)
        self._levels: dict[str, list[np.ndarray]] = {}  # ready / issued per zoom level (bins of 2**k rows)
        self.level = -1
        self._stride, self._end = 1, 0  # cycles per row of the data shown (a binned run's > 1), its last cycle
        self.curves: dict[str, pg.PlotDataItem] = {}
        for z, key in zip((4, 1, 3, 2), SERIES):  # launched (dashed) on top of resident, ready on issued
            curve = pg.PlotDataItem(name=self._names()[key], antialias=False)
            curve.setZValue(z)
            # playback repaints the strip under the moving cursor: blit the curves, never re-stroke them
            curve.curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.curves[key] = curve
            if key in RIGHT:
                curve.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                curve.curve.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.ready_view.addItem(curve)
                curve.setZValue(self.ready_view.zValue() + z)  # the view lifts its items to its own z
            else:
                self.addItem(curve)
        self.curves["issued"].setFillLevel(0)
        self.run: SimRun | None = None
        self.ready_peak: tuple[int, int] | None = None  # (ready warps, cycle) above the right axis, if any
        self.title_text = ""
        self._base_title = self._short_title = ""
        self.per_sm: int | None = None  # None: the whole GPU
        self.compact_title = False  # a short title, for a view half as wide (the A/B compare's columns)
        self.legends: list[CurveLegend] = []
        self.pens: dict = {}
        # room that curves added from outside (a GPU measurement) need: cycles, warps
        self.extra_cycles = 0
        self.extra_top = 0.0
        self.apply_theme(LIGHT)

    def make_legend(self, parent: QWidget) -> "CurveLegend":
        """A legend row for outside the plot (inside, it would hide the curves of a short plot)."""
        legend = CurveLegend(self, parent)
        self.legends.append(legend)
        return legend

    def _names(self) -> dict[str, str]:
        return {
            "launched": self.tr("unfinished"),
            "resident": self.tr("resident"),
            "eligible": self.tr("ready (eligible)"),
            "issued": self.tr("issued"),
        }

    def _sync_views(self) -> None:
        """The ready view covers the main one exactly (it moves with the plot's layout)."""
        main = self.getPlotItem().getViewBox()
        self.ready_view.setGeometry(main.sceneBoundingRect())
        self.ready_view.linkedViewChanged(main, self.ready_view.XAxis)
        self._choose_level()
        self._label_axes()

    def axis_labels(self) -> dict[str, list[str]]:
        """Each y axis's label, longest first: the plot uses the longest that fits its height."""
        right = [self.tr("mean ready, issued"), self.tr("ready, issued")] if self.level > 0 or self._stride > 1 else []
        return {"left": [self.tr("unfinished, resident"), self.tr("warps")],
                "right": right + [self.tr("ready, issued"), self.tr("ready")]}

    def _label_axes(self) -> None:
        """Axis labels that fit: a short plot (a small window, a projector) gets the short names, or none."""
        item = self.getPlotItem()
        room = item.getViewBox().height() - 4
        fg = self.theme.plot_foreground
        for side, texts in self.axis_labels().items():
            axis = item.getAxis(side)
            chosen = ""
            for text in texts:  # measured as drawn (the label's own font and size), on one line: a width
                axis.setLabel(text, color=fg)  # left from wrapping the last one would break a word ("launc hed")
                axis.label.setTextWidth(-1)
                if axis.label.boundingRect().width() <= room:
                    chosen = text
                    break
            if not chosen:
                axis.setLabel("", color=fg)
            axis.showLabel(bool(chosen))
            # pyqtgraph centres the title on the axis only when the axis is resized: a fixed-width side axis
            # kept the place of the title before, and a longer one ("mean ready, issued" after "ready", when a
            # zoom level changed) stuck out above the plot
            axis.resizeEvent()

    def cycles_per_pixel(self) -> float:
        vb = self.getPlotItem().getViewBox()
        (x0, x1), _ = vb.viewRange()
        return max(x1 - x0, 1e-9) / max(vb.width(), 1.0)

    def _choose_level(self, *_args) -> None:
        """Ready and issued at the zoom level where one bin covers about a pixel (or less), on their scale."""
        if not self._levels:
            return
        cpp = self.cycles_per_pixel() / self._stride  # rows per pixel: a binned run's rows are bins already
        count = len(self._levels["eligible"])
        level = max(0, min(0 if cpp <= 1 else math.ceil(math.log2(cpp) - 1e-9), count - 1))
        if level == self.level:
            return
        self.level = level
        for key in RIGHT:
            y = self._levels[key][level]
            self.curves[key].setData(self._edges(len(y), self._stride << level), y.astype(np.float64),
                                     stepMode="center")
        self._scale_right()

    def _scale_right(self) -> None:
        """The right axis fits what ready shows at this zoom; the title names a peak left off the top."""
        shown = self._levels["eligible"][self.level]
        top = max(ready_scale(shown) * HEADROOM, 4.0)
        self.ready_view.setLimits(yMin=0, yMax=max(top, float(shown.max()) if len(shown) else 0.0))
        self.ready_view.setYRange(0, top, padding=0)
        ready = self._levels["eligible"][0]
        title, self.ready_peak = self._base_title, None
        if len(shown) and shown.max() > top:
            row = int(np.argmax(ready))
            self.ready_peak = (int(ready[row]), row * self._stride)  # a binned run's peak: its bin's first cycle
            title = self.tr("{title} · ready peaks at {peak}, above the scale").format(
                title=title, peak=num(int(ready[row])))
        self.title_text = title
        # the longest that fits the plot's width: with the peak, without it, the short one
        self.set_titles(title, self._base_title, self._short_title, color=self.theme.plot_foreground, size="10pt")
        self._label_axes()
        n = self._stride << max(self.level, 0)  # cycles per step of ready and issued
        if self._stride > 1:  # a long run's series are kept per bin: zooming in cannot show single cycles
            tip = self.tr("Each step of the ready and issued curves is their average over {n} cycles; this long "
                          "run keeps its GPU-wide counts per {bin} cycles.").format(n=num(n), bin=num(self._stride))
        elif n > 1:
            tip = self.tr("Zoomed out, each step of the ready and issued curves is their average over {n} "
                          "cycles; zoom in (mouse wheel) for single cycles.").format(n=num(n))
        else:
            tip = ""
        self.setToolTip(tip)

    def set_run(self, run: SimRun | None, keep_range: bool = False) -> None:
        new_length = run is None or self.run is None or run.cycles != self.run.cycles
        self.run = run
        if run is None:
            self._levels, self.level = {}, -1
            for curve in self.curves.values():
                curve.clear()
            return
        self.set_x_max(max(run.cycles, self.extra_cycles))
        self._fill()
        if new_length or not keep_range:
            self.show_all()

    def show_sm(self, sm: int | None) -> None:
        """Counts of one SM (None: the whole GPU)."""
        self.per_sm = sm
        if self.run is not None:
            self._fill()

    def _edges(self, rows: int, cycles_per_row: int) -> np.ndarray:
        """The step curve's x: row k holds cycles [k * n, (k + 1) * n), the last row ends with the data."""
        return np.minimum(np.arange(rows + 1, dtype=np.float64) * cycles_per_row, self._end)

    def _fill(self) -> None:
        run = self.run
        sm_counts = run.sm_counts(self.per_sm) if self.per_sm is not None else None
        if sm_counts is None:
            # a long run's GPU-wide series are bin means of series_stride cycles (explorer.sim.result)
            self._stride, self._end = int(run.result.series_stride), run.cycles
            data = {key: run.result.counts[:, i] for i, key in enumerate(SERIES)}
            title = (self.tr("Warps per cycle ({sms} SMs)") if self.compact_title
                     else self.tr("Warps per cycle, whole GPU ({sms} SMs)")).format(sms=run.sm_count)
            short = self.tr("Warps per cycle, whole GPU")
            self.curves["launched"].show()
        else:
            # one SM's counts come from its trace: per cycle, and as long as the trace was kept
            self._stride, self._end = 1, min(run.cycles, len(sm_counts))
            data = {"resident": sm_counts[:, 0], "eligible": sm_counts[:, 1], "issued": sm_counts[:, 2]}
            title = self.tr("Warps per cycle on SM {sm}").format(sm=self.per_sm)
            short = self.tr("SM {sm}").format(sm=self.per_sm)
            self.curves["launched"].clear()
            self.curves["launched"].hide()
        for key, y in data.items():
            if key not in RIGHT:  # step curve: a value holds for its whole cycle [t, t+1) (or its bin)
                self.curves[key].setData(self._edges(len(y), self._stride), np.asarray(y, dtype=np.float64),
                                         stepMode="center")
        self._levels = {key: halvings(np.asarray(data[key]), "mean") for key in RIGHT}
        self.level = -1

        def peak(keys) -> float:
            return max((float(np.max(data[k])) for k in keys if k in data and len(data[k])), default=0.0)

        item = self.getPlotItem()
        top = max(max(peak(("launched", "resident")), self.extra_top) * HEADROOM, 4.0)
        item.getViewBox().setLimits(yMin=0, yMax=top)  # first: the old limit would clamp a taller range
        item.setYRange(0, top, padding=0)
        self._base_title, self._short_title = title, short
        self.title_text = title
        self._sync_views()  # and the zoom level of ready / issued; sets the title

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        fg = theme.plot_foreground
        pens = {
            "launched": pg.mkPen(fg, width=2, style=Qt.PenStyle.DashLine),
            "resident": pg.mkPen(oi.REDDISH_PURPLE, width=3),
            "eligible": pg.mkPen(oi.ORANGE, width=2),
            "issued": pg.mkPen(oi.BLUISH_GREEN, width=1),
        }
        for key, curve in self.curves.items():
            curve.setPen(pens[key])
        fill = QColor(oi.BLUISH_GREEN)
        fill.setAlpha(ISSUED_FILL_ALPHA)
        self.curves["issued"].setBrush(fill)
        item = self.getPlotItem()
        right = item.getAxis("right")
        right.setPen(pg.mkPen(fg))
        right.setTextPen(pg.mkPen(fg))
        item.setLabel("bottom", self.tr("cycle"), color=fg)
        self._label_axes()
        self.pens = pens
        for legend in self.legends:
            legend.refresh()
        if self.run is not None:
            self._fill()


class CurveLegend(LegendRow):
    """Line samples and names of the counts plot's curves, in one row."""

    def __init__(self, plot: CountsPlot, parent: QWidget):
        super().__init__(parent)
        self.plot = plot
        tips = {
            "launched": self.tr("Launched warps not finished yet: resident plus still waiting for a place; it starts at every launched warp."),
            "resident": self.tr("Warps placed on an SM (holding a slot, registers, shared memory)."),
            "eligible": self.tr("Resident warps whose next instruction could issue this cycle."),
            "issued": self.tr("Warp-instructions issued this cycle (at most one per scheduler)."),
        }
        for key in SERIES:
            self.add_curve(lambda k=key: plot.pens.get(k), plot._names()[key], tips[key])
        self.layout().addStretch(1)  # the plot's title and tooltips say what a clipped row leaves out
