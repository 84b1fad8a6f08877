"""The three Nsight-style graphs: occupancy as one input varies, current point marked.

Curves are steps because every resource is allocated in units (a warp of
threads, 256 registers per warp, 128/256 bytes of shared memory): occupancy is
constant between unit boundaries and jumps at them. A value applies to the
interval ending at its x (``stepMode="right"``), as rounding up allocates.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QWidget

from explorer.texts.numbers import localize
from explorer.texts.numbers import pct
from explorer.gui.common.plots import ThemedPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.occupancy.session import Evaluation
from explorer.occupancy import Sweep

KB = 1024


class SweepPlot(ThemedPlot):
    """One graph: a step curve, the current point, a dashed line through it."""

    def __init__(self, title: str, x_label: str, x_scale: float = 1.0, parent: QWidget | None = None):
        super().__init__(parent)  # a fixed 0–100% graph: no pan or zoom
        self.title, self.x_label, self.x_scale = title, x_label, x_scale
        self.setMinimumSize(200, 180)
        item = self.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.2)
        item.setYRange(-3, 105, padding=0)  # a little room below 0 so a 0% curve is not hidden by the axis
        item.getAxis("left").setTicks([[(v, f"{v}") for v in (0, 25, 50, 75, 100)]])
        self.curve = pg.PlotDataItem(stepMode="right")
        self.vline = pg.InfiniteLine(angle=90, movable=False)
        self.point = pg.ScatterPlotItem(size=12, symbol="o")
        self.label = pg.TextItem()
        for graphics in (self.curve, self.vline, self.point, self.label):
            self.addItem(graphics)
        self._sweep: Sweep | None = None
        self._x_max = 1.0
        self.current = (0.0, 0.0)
        self.apply_theme(LIGHT)

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        fg = theme.plot_foreground
        item = self.getPlotItem()
        item.setTitle(self.title, color=fg, size="11pt")
        item.setLabel("bottom", self.x_label, color=fg)
        item.setLabel("left", QCoreApplication.translate("OccupancyGraphs", "Occupancy (%)"), color=fg)
        self.curve.setPen(pg.mkPen(theme.curve, width=2))
        self.vline.setPen(pg.mkPen(theme.marker, width=1, style=Qt.PenStyle.DashLine))
        self.point.setPen(pg.mkPen(theme.plot_background, width=1.5))
        self.point.setBrush(pg.mkBrush(theme.marker))
        self.label.setColor(fg)

    def format_x(self, x: float) -> str:
        if self.x_scale == 1:
            return f"{x:g}"
        return localize(f"{x:.1f}".removesuffix(".0")) + " " + QCoreApplication.translate("OccupancyGraphs", "KB")

    def show_sweep(self, sweep: Sweep, current_x: float, occupancy: float) -> None:
        """Redraw the curve only when the sweep changed; always move the point."""
        if sweep is not self._sweep:
            self._sweep = sweep
            xs = np.asarray(sweep.xs, dtype=float) / self.x_scale
            self.curve.setData(xs, 100.0 * np.asarray(sweep.occupancy))
            self._x_max = float(xs[-1])
        x, y = current_x / self.x_scale, 100.0 * occupancy
        self.current = (x, y)
        self.point.setData([x], [y])
        self.vline.setValue(x)
        right = max(self._x_max, x)
        self.setXRange(0, right, padding=0.02)
        self.label.setText(f"{self.format_x(x)}: {pct(occupancy)}")
        # keep the label inside the plot: left of the point in the right half, below it near the top
        self.label.setAnchor((1.0 if x > right / 2 else 0.0, 0.0 if y > 80 else 1.0))
        self.label.setPos(x, y)


class OccupancyGraphs(QWidget):
    """Occupancy vs threads per block, registers per thread, shared memory per block."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.threads = SweepPlot(self.tr("Varying block size"), self.tr("Threads per block"), parent=self)
        self.registers = SweepPlot(self.tr("Varying register count"), self.tr("Registers per thread"), parent=self)
        self.shared = SweepPlot(
            self.tr("Varying shared memory"), self.tr("Shared memory per block (KB)"), x_scale=KB, parent=self
        )
        self.threads.setToolTip(self.tr("Occupancy for every block size, the other inputs unchanged."))
        self.registers.setToolTip(self.tr("Occupancy for every register count, the other inputs unchanged."))
        self.shared.setToolTip(
            self.tr("Occupancy for every shared-memory size per block (static + dynamic), the other inputs unchanged.")
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for plot in self.plots():
            layout.addWidget(plot)

    def plots(self) -> tuple[SweepPlot, SweepPlot, SweepPlot]:
        return self.threads, self.registers, self.shared

    def apply_theme(self, theme: Theme) -> None:
        for plot in self.plots():
            plot.apply_theme(theme)

    def show_evaluation(self, ev: Evaluation) -> None:
        q, occ = ev.query, ev.result.occupancy
        self.threads.show_sweep(ev.threads_sweep, q.threads, occ)
        self.registers.show_sweep(ev.registers_sweep, q.registers, occ)
        self.shared.show_sweep(ev.shared_sweep, q.static_shared + q.dynamic_shared, occ)
