"""Launched / resident / eligible / issued warps per cycle: the mission's three quantities plus issue.

GPU-wide by default; "Selected SM" shows the same counts for one SM (launched
has no per-SM meaning and is hidden). Curves are drawn with peak downsampling,
so a one-cycle burst of issue survives when a pixel covers many cycles. Each
curve has its own colour *and* line style, and the legend names them.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.legend import LegendRow
from explorer.gui.common.plots import CursorPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.explore.run_data import SimRun

SERIES = ("launched", "resident", "eligible", "issued")


class CountsPlot(CursorPlot):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("counts_plot")
        self.setMinimumHeight(110)
        item = self.getPlotItem()
        item.showGrid(x=False, y=True, alpha=0.25)
        item.getAxis("left").setWidth(64)
        self.curves: dict[str, pg.PlotDataItem] = {}
        for z, key in zip((4, 1, 2, 3), SERIES):  # launched (dashed) on top of resident: both stay visible
            curve = pg.PlotDataItem(name=self._names()[key], antialias=False)
            curve.setZValue(z)
            # playback repaints the strip under the moving cursor: blit the curves, never re-stroke them
            curve.curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
            self.curves[key] = curve
            self.addItem(curve)
        self.run: SimRun | None = None
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
            "launched": self.tr("launched"),
            "resident": self.tr("resident"),
            "eligible": self.tr("ready (eligible)"),
            "issued": self.tr("issued"),
        }

    def set_run(self, run: SimRun | None, keep_range: bool = False) -> None:
        new_length = run is None or self.run is None or run.cycles != self.run.cycles
        self.run = run
        if run is None:
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

    def _fill(self) -> None:
        run = self.run
        x = np.arange(run.cycles + 1, dtype=np.float64)
        sm_counts = run.sm_counts(self.per_sm) if self.per_sm is not None else None
        if sm_counts is None:
            data = {key: run.result.counts[:, i] for i, key in enumerate(SERIES)}
            title = (self.tr("Warps per cycle ({sms} SMs)") if self.compact_title
                     else self.tr("Warps per cycle, whole GPU ({sms} SMs)")).format(sms=run.sm_count)
            short = self.tr("Warps per cycle, whole GPU")
            self.curves["launched"].show()
        else:
            data = {"resident": sm_counts[:, 0], "eligible": sm_counts[:, 1], "issued": sm_counts[:, 2]}
            title = self.tr("Warps per cycle on SM {sm}").format(sm=self.per_sm)
            short = self.tr("SM {sm}").format(sm=self.per_sm)
            self.curves["launched"].clear()
            self.curves["launched"].hide()
        for key, y in data.items():
            # step curve: a value holds for its whole cycle [t, t+1)
            self.curves[key].setData(x, np.asarray(y, dtype=np.float64), stepMode="center")
        top = max(float(np.max(v)) if len(v) else 0.0 for v in data.values())
        item = self.getPlotItem()
        top = max(max(top, self.extra_top) * 1.3, 4.0)  # headroom for the legend
        item.getViewBox().setLimits(yMin=0, yMax=top)  # first: the old limit would clamp a taller range
        item.setYRange(0, top, padding=0)
        self.set_titles(title, short, color=self.theme.plot_foreground, size="10pt")

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        fg = theme.plot_foreground
        pens = {
            "launched": pg.mkPen(fg, width=2, style=Qt.PenStyle.DashLine),
            "resident": pg.mkPen(oi.REDDISH_PURPLE, width=3),
            "eligible": pg.mkPen(oi.ORANGE, width=1),
            "issued": pg.mkPen(oi.BLUISH_GREEN, width=1),
        }
        for key, curve in self.curves.items():
            curve.setPen(pens[key])
        item = self.getPlotItem()
        item.setLabel("left", self.tr("warps"), color=fg)
        item.setLabel("bottom", self.tr("cycle"), color=fg)
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
            "launched": self.tr("Warps of the grid not finished yet: resident plus still waiting for a place."),
            "resident": self.tr("Warps placed on an SM (holding a slot, registers, shared memory)."),
            "eligible": self.tr("Resident warps whose next instruction could issue this cycle."),
            "issued": self.tr("Warp-instructions issued this cycle (at most one per scheduler)."),
        }
        for key in SERIES:
            self.add_curve(lambda k=key: plot.pens.get(k), plot._names()[key], tips[key])
        self.layout().addStretch(1)  # the plot's title and tooltips say what a clipped row leaves out
