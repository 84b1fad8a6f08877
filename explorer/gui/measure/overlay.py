"""A GPU measurement drawn over the simulation: counts-plot curves and SM-grid outlines.

Both views keep their simulated content; the measurement is added on top:

* counts plot: measured resident warps (dotted) and measured unfinished warps
  (dash-dot), in the theme's curve colour, with a legend row that names them
  "measured" — never told apart by colour alone; with "Counts of the selected SM
  only" the measured resident warps of that SM;
* SM grid: a transparent child widget draws, on every SM, one hatched box per
  block the GPU had resident there at the current cycle (how many, not which
  slots: the hardware does not say), and the tooltip adds the measured numbers.

Time is aligned by kernel start: both are cycles since the kernel's first warp.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QLabel, QToolTip, QWidget

from explorer.gui.common.legend import LegendRow
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.measure import data as md


def measured_pens(theme: Theme) -> dict[str, QPen]:
    color = QColor(theme.curve)
    return {
        "resident": pg.mkPen(color, width=2.5, style=Qt.PenStyle.DotLine),
        "launched": pg.mkPen(color, width=1.5, style=Qt.PenStyle.DashDotLine),
    }


class CountsOverlay(QObject):
    """Measured curves on the explorer's counts plot (``page``'s views; ``session``: the window's workspace's)."""

    def __init__(self, page, session, parent: QObject | None = None):
        super().__init__(parent)
        self.page = page
        self.plot = page.counts
        self.measurement = None
        self.theme: Theme = LIGHT
        self.curves: dict[str, pg.PlotDataItem] = {}
        for z, key in ((6, "resident"), (5, "launched")):
            curve = pg.PlotDataItem(antialias=False)
            curve.setZValue(z)
            curve.setClipToView(True)
            curve.hide()
            self.curves[key] = curve
            self.plot.addItem(curve)
        self.data: dict[str, md.StepCurve | None] = {"resident": None, "launched": None}
        self._gpu_top = 0.0
        self._sm_top = 0.0
        self.legend = MeasuredLegend(self, self.plot.parentWidget())  # the box the legend row joins
        s = session
        s.run_changed.connect(lambda _run: self._run_changed())
        s.selection_changed.connect(lambda _sm: self._selection())
        page.per_sm.toggled.connect(lambda _on: self.refresh())
        self.apply_theme(LIGHT)

    # -- input ----------------------------------------------------------------------
    def set_measurement(self, measurement) -> None:
        self.measurement = measurement
        if measurement is None:
            self._gpu_top = self._sm_top = 0.0
            self.plot.extra_cycles, self.plot.extra_top = 0, 0.0
            for curve in self.curves.values():
                curve.clear()
                curve.hide()
            self.data = {"resident": None, "launched": None}
            self.legend.hide()
            self._rescale()
            return
        self._gpu_top = float(max(md.resident_curve(measurement).top, md.unfinished_curve(measurement).top))
        self._sm_top = float(md.sm_max_resident(measurement))
        self.plot.extra_cycles = measurement.cycles + 1
        self.legend.set_measurement(measurement)
        self.legend.show()
        self.refresh()
        self._align_x()

    def per_sm(self) -> int | None:
        """The SM the plot shows now (None: the whole GPU), by the plot's own rule."""
        plot = self.plot
        if plot.per_sm is None or plot.run is None or not plot.run.is_recorded(plot.per_sm):
            return None
        return plot.per_sm

    def _selection(self) -> None:
        if self.measurement is not None and self.plot.per_sm is not None:
            self.refresh()

    def refresh(self) -> None:
        m = self.measurement
        if m is None:
            return
        sm = self.per_sm()
        if sm is None:
            self.data = {"resident": md.resident_curve(m), "launched": md.unfinished_curve(m)}
            top = self._gpu_top
        else:
            self.data = {"resident": md.resident_curve(m, sm) if sm < m.sm_count else None, "launched": None}
            top = self._sm_top
        for key, curve in self.curves.items():
            d = self.data[key]
            if d is None:
                curve.clear()
                curve.hide()
            else:
                curve.setData(d.x, d.y, stepMode="center")
                curve.show()
            self.legend.show_key(key, d is not None)
        if top != self.plot.extra_top:
            self.plot.extra_top = top
            if self.plot.run is not None:
                self.plot.show_sm(self.plot.per_sm)  # re-fills: the y range takes extra_top into account

    def _run_changed(self) -> None:
        if self.measurement is not None:
            self.refresh()
            self._align_x()

    def _align_x(self) -> None:
        """Both x-linked plots (timeline, counts) span the longer of the two runs, so their cursors line up."""
        plot = self.plot
        if plot.run is None:
            return
        x_max = max(plot.run.cycles, plot.extra_cycles)
        for view in (self.page.timeline, plot):
            view.set_x_max(x_max)
        plot.show_all()
        self.page.timeline.show_all()

    def _rescale(self) -> None:
        plot = self.plot
        if plot.run is None:
            return
        plot.show_sm(plot.per_sm)  # re-fills: the y range takes extra_top into account
        self._align_x()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        pens = measured_pens(theme)
        for key, curve in self.curves.items():
            curve.setPen(pens[key])
        self.legend.refresh()


class MeasuredLegend(LegendRow):
    """"Measured on <device>: ┈ resident ┈· unfinished" under the counts plot."""

    def __init__(self, overlay: CountsOverlay, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("measured_legend")
        self.overlay = overlay
        self.title = QLabel(self)
        self.title.setObjectName("measured_legend_title")
        self.layout().addWidget(self.title)
        names = {
            "resident": self.tr("measured resident"),
            "launched": self.tr("measured unfinished"),
        }
        tips = {
            "resident": self.tr("Warps resident on the SMs of the real GPU, from each warp's (or block's) start and "
                                "end timestamps. Dotted; the simulated curve is solid."),
            "launched": self.tr("Warps of the real launch not finished yet. Dash-dot; the simulated 'launched' "
                                "curve is dashed."),
        }
        self.labels: dict[str, QLabel] = {}
        for key in ("resident", "launched"):
            label = self.add_curve(lambda k=key: measured_pens(overlay.theme)[k], names[key], tips[key],
                                   antialias=False)
            label.setObjectName(f"measured_legend_{key}")
            self.labels[key] = label
        self.layout().addStretch(1)
        self.hide()

    def set_measurement(self, m) -> None:
        device = m.meta.get("device", {}).get("name", m.gpu_name)
        synthetic = m.meta.get("synthetic")
        self.title.setText(self.tr("<b>GPU (synthetic):</b>") if synthetic else self.tr("<b>GPU:</b>"))
        tip = self.tr("Measured on {device}; time from the kernel's first warp, in its SM cycles.").format(
            device=device)
        if synthetic:
            tip += " " + self.tr("Synthetic: made from a simulation, not measured.")
        self.title.setToolTip(tip)

    def show_key(self, key: str, shown: bool) -> None:
        """Name only the curves on the plot (one SM's counts have no "launched")."""
        i = ("resident", "launched").index(key)
        self.samples[i].setVisible(shown)
        self.labels[key].setVisible(shown)


class GridOverlay(QWidget):
    """Measured blocks per SM at the current cycle, drawn over the SM grid (mouse passes through); ``session``: the
    window's workspace's (its cursor and run)."""

    def __init__(self, page, session):
        super().__init__(page.grid)
        self.setObjectName("measured_grid_overlay")
        self.page = page
        self.grid = page.grid
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.measurement = None
        self.theme: Theme = LIGHT
        self.cycle = 0
        self.warps = np.zeros(0, np.int64)  # measured resident warps per SM at ``cycle``
        self.blocks = np.zeros(0, np.int64)  # measured resident blocks per SM at ``cycle``
        self.mismatch = ""  # why nothing is drawn (the simulated GPU has another shape)
        self.paint_count = 0
        self.grid.installEventFilter(self)
        session.cycle_changed.connect(self.set_cycle)
        session.run_changed.connect(lambda _run: self._update_data(force=True))
        self.hide()

    def set_measurement(self, measurement) -> None:
        self.measurement = measurement
        self.setVisible(measurement is not None)
        self._update_data(force=True)

    def set_cycle(self, cycle: int) -> None:
        self.cycle = int(cycle)
        self._update_data()

    def _update_data(self, force: bool = False) -> None:
        m = self.measurement
        run = self.grid.run
        if m is None or run is None:
            self.warps = self.blocks = np.zeros(0, np.int64)
            self.mismatch = ""
            self.update()
            return
        self.mismatch = ""
        if m.sm_count != run.sm_count or m.max_warps_per_sm != run.warps_per_sm:
            self.mismatch = self.tr("the measured GPU has {ms} SMs × {mw} warp slots, the simulated one {ss} × {sw}"
                                    ).format(ms=m.sm_count, mw=m.max_warps_per_sm, ss=run.sm_count, sw=run.warps_per_sm)
        warps, blocks = md.live_per_sm(m, self.cycle, run.sm_count)
        changed = force or not (np.array_equal(warps, self.warps) and np.array_equal(blocks, self.blocks))
        self.warps, self.blocks = warps, blocks
        if changed:
            self.update()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.update()

    # -- geometry and tooltips follow the grid --------------------------------------
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        if watched is self.grid:
            if event.type() == QEvent.Type.Resize:
                self.setGeometry(self.grid.rect())
            elif event.type() == QEvent.Type.ToolTip and self.measurement is not None:
                text = self.grid.tooltip_at(event.pos())
                if text:
                    sm, _slot = self.grid.slot_at(event.pos())
                    extra = self.tooltip_for(sm) if sm is not None else ""
                    if extra:
                        marker = "<i>"  # before the grid's closing hint line
                        at = text.rfind("<br>" + marker)
                        text = text[:at] + "<br>" + extra + text[at:] if at >= 0 else text + "<br>" + extra
                    QToolTip.showText(event.globalPos(), text, self.grid)
                else:
                    QToolTip.hideText()
                    event.ignore()
                return True
        return super().eventFilter(watched, event)

    def tooltip_for(self, sm: int) -> str:
        m = self.measurement
        if m is None or sm >= len(self.warps):
            return ""
        ids = md.blocks_live_on(m, self.cycle, sm)
        shown = ", ".join(str(int(b)) for b in ids[:8]) + (" …" if len(ids) > 8 else "")
        total = int((m.blocks.sm == sm).sum())
        hw = int(m.sm_ids[sm]) if sm < len(m.sm_ids) else -1
        line = self.tr("<b>Measured</b> (hatched boxes): {w} warps in {b} blocks{ids} at this cycle; "
                       "{total} blocks ran here in all").format(
            w=int(self.warps[sm]), b=int(self.blocks[sm]), ids=f" ({shown})" if len(ids) else "", total=total)
        if hw >= 0 and hw != sm:
            line += self.tr(" (hardware %smid {hw})").format(hw=hw)
        return line

    # -- painting -------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        L = self.grid.layout_
        m = self.measurement
        if m is None or L is None or self.mismatch or not len(self.blocks):
            return
        self.paint_count += 1
        p = QPainter(self)
        SP = L.sub_partitions
        pitch = L.cell_w + L.gap
        wpb = m.warps_per_block
        block_cols = wpb / SP  # columns one block's warps fill (packed; the real slots are not known)
        color = QColor(self.theme.curve)
        halo = QPen(QColor(self.theme.plot_background), 3.0)
        edge = QPen(color, 1.5)
        edge.setStyle(Qt.PenStyle.DashLine)
        halo.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        edge.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        hatch = QBrush(color, Qt.BrushStyle.BDiagPattern)  # hatched = measured, whatever the colours
        h = L.tile_h
        for sm in np.flatnonzero(self.blocks[: L.sm_count]).tolist():
            x0, y0 = L.tile_origin(sm)
            n = int(self.blocks[sm])
            for k in range(n):
                c0 = min(k * block_cols, L.slot_cols)
                c1 = min((k + 1) * block_cols, L.slot_cols)
                if c1 <= c0:
                    break
                left = x0 + c0 * pitch + 1.5
                right = x0 + c1 * pitch - L.gap - 1.5
                if right - left < 2:
                    right = left + 2
                rect = QRectF(left, y0 + 1.5, right - left, h - 3)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(halo)  # the background colour under the edge: visible on every state colour
                p.drawRect(rect)
                p.setPen(edge)
                p.setBrush(hatch)
                p.drawRect(rect)
        p.end()
