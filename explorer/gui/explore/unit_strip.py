"""The unit-use strip: every throughput unit's share of its peak (rows) over time (unit windows).

On the same cycle axis as the timeline and the counts plot (x-linked: it follows
their zoom, and the playback cursor is the same line), so the bottleneck can be
seen changing during a run: blocks ramping up, the steady state, the tail. Each
cell is one unit window as the views show them (``SimRun.unit_windows``: the
simulator's windows merged, a power of two of them, so a run has at most 160),
shaded from the plot's background (idle) to full colour (100% of the unit's
peak), and a bar along one row marks each window's bottleneck by the simulator's
rule, in the bottom row "latency" when no unit is near its peak. Every row is named. Hovering a cell
names the unit, the window and its share. Units idle all run (below 1% of their
peak in every window) make way for readable rows of the others; the
Speed-of-Light panel always lists all ten.

One ``ImageItem`` of uint8 shares with a 101-entry colour table and fixed levels
(the fast path); the image changes only with the run, playback only moves the cursor.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QToolTip, QWidget

from explorer.gui.common import palette as oi
from explorer.texts.numbers import num, pct
from explorer.gui.common.plots import CursorPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.common.core_texts import unit_labels
from explorer.gui.explore.sol_texts import short_labels
from explorer.sim.bottleneck import threshold
from explorer.model.units import UNITS

ROWS = (*UNITS, "latency")
NAME_SCALE = 0.85  # the units' names against the axes' font  # the last row: windows without a bottleneck unit (latency)
SHADE = oi.BLUE  # 100% of a unit's peak
MARK_LIGHT, MARK_DARK = oi.VERMILLION, oi.ORANGE  # the bottleneck's bar, apart from the blue shades


def share_table(background: str, full: str = SHADE) -> np.ndarray:
    """uint8[101, 4]: share 0..100% blended from ``background`` to ``full`` (one hue: readable without colour)."""
    a, b = QColor(background), QColor(full)
    t = np.linspace(0.0, 1.0, 101)[:, None] ** 0.7  # a little darker early: 20% is not lost in the background
    lo = np.array([a.red(), a.green(), a.blue()], np.float64)
    hi = np.array([b.red(), b.green(), b.blue()], np.float64)
    rgb = lo + (hi - lo) * t
    return np.concatenate([rgb, np.full((101, 1), 255.0)], axis=1).round().astype(np.uint8)


class UnitStrip(CursorPlot):
    """Units x time: each unit's share of its peak per window, the window's bottleneck marked along its row."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("unit_strip")
        self.setMinimumHeight(20)  # until the first layout: then readable_height() (_fit_ticks)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setAutoDownsample(False)
        self.addItem(self.image)
        self.marks = pg.PlotCurveItem()  # each window's bottleneck: a bar along its row
        self.marks.setZValue(10)
        self.addItem(self.marks)
        item = self.getPlotItem()
        item.invertY(True)
        item.getAxis("left").setWidth(64)
        bottom = item.getAxis("bottom")  # the counts plot below carries the cycle axis: ticks without numbers
        bottom.setStyle(showValues=False)
        bottom.setHeight(6)
        self.rows: list[str] = list(ROWS)  # the rows shown, top to bottom
        item.getViewBox().setLimits(yMin=0, yMax=len(self.rows))
        item.setYRange(0, len(self.rows), padding=0)
        self.run: SimRun | None = None
        self._ticks_shown: list | None = None
        self._lut = share_table(LIGHT.plot_background)
        self._name_font()
        item.getViewBox().sigResized.connect(self._fit_ticks)
        self.scene().sigMouseMoved.connect(self._hover)
        self.apply_theme(LIGHT)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As short as its minimum height: what the splitter allows is what a saved layout may hold."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), self.minimumHeight())

    def readable_height(self) -> int:
        """The least height that shows the title, the cells and every unit's name at the tick font (the
        presentation scale's): the minimum height. The strip is collapsible: below this its splitter folds it
        away, it is never a strip of cells without names, nor with a row (the busiest, as it happened) that
        has none (issue 31 item 7)."""
        item = self.getPlotItem()
        font = item.getAxis("left").style.get("tickFont") or self.font()
        names = len(self.rows) * QFontMetrics(font).height() * 0.95  # _fit_ticks: every row named
        vb = item.getViewBox()
        if item.isVisible() and vb.height() > 0 and self.height() > vb.height():
            # laid out: what is not the view box, as measured (the layout's spacing included: an estimate from
            # its parts was 11 px short in Russian, and the names were left out of a strip at "its minimum")
            return math.ceil(names + self.height() - vb.height()) + 1
        _l, top, _r, bottom = item.layout.getContentsMargins()
        title = item.layout.rowMaximumHeight(0) if item.titleLabel.isVisibleTo(item) else 0  # folded: hidden
        axis = item.getAxis("bottom").height() if item.getAxis("bottom").isVisible() else 0
        spacing = 2 * max(0.0, item.layout.verticalSpacing())
        return math.ceil(names + title + axis + top + bottom + spacing) + 2 * self.frameWidth() + 4

    # -- data -----------------------------------------------------------------------
    def set_run(self, run: SimRun | None) -> None:
        self.run = run
        if run is None:
            self.image.clear()
            self.marks.clear()
            return
        windows = run.unit_windows
        busy = windows.shares  # [windows, units], fraction of peak
        shares = np.clip(np.rint(busy * 100.0), 0, 100).astype(np.uint8)
        # units idle all run (below 1% in every window) make way, so the others get readable rows
        self.rows = [u for i, u in enumerate(UNITS) if shares[:, i].max() >= 1] + ["latency"]
        index = {u: k for k, u in enumerate(self.rows)}
        img = np.zeros((len(self.rows), shares.shape[0]), np.uint8)
        for k, unit in enumerate(self.rows[:-1]):
            img[k] = shares[:, UNITS.index(unit)]
        self.image.setImage(img, autoDownsample=False, levels=(0, 100), lut=self._lut)
        wc = float(windows.cycles)
        self.image.setRect(QRectF(0, 0, shares.shape[0] * wc, len(self.rows)))
        vb = self.getPlotItem().getViewBox()
        vb.setLimits(yMin=0, yMax=len(self.rows))
        self.getPlotItem().setYRange(0, len(self.rows), padding=0)
        top = windows.bottleneck.astype(np.int64)
        rows = np.repeat(np.array([index.get(UNITS[t], 0) if t >= 0 else len(self.rows) - 1 for t in top]) + 0.5, 2)
        ends = np.minimum(np.arange(top.size + 1) * wc, run.cycles)
        x = np.stack([ends[:-1], ends[1:]], axis=1).ravel()  # one segment per window, in its bottleneck's row
        self.marks.setData(x=x, y=rows, connect="pairs")
        self._ticks_shown = None
        self._fit_ticks()
        self.set_x_max(run.cycles)
        self._update_title()

    # -- rows -----------------------------------------------------------------------
    def _fit_ticks(self, *_args) -> None:
        """The units' names on the left, one per row, or none while the rows are too short for them (the strip's
        minimum height is what they need: its splitter folds it below that)."""
        axis = self.getPlotItem().getAxis("left")
        font = axis.style.get("tickFont") or self.font()
        line = QFontMetrics(font).height()
        px = self.getPlotItem().getViewBox().height() / len(self.rows)
        names = short_labels()
        ticks = [(i + 0.5, names[u]) for i, u in enumerate(self.rows)]
        shown = ticks if px >= line * 0.95 else []
        if shown != self._ticks_shown:
            self._ticks_shown = shown
            axis.setTicks([shown, []])
        need = self.readable_height()
        if need != self.minimumHeight():
            self.setMinimumHeight(need)

    def dropped_texts(self) -> list[str]:
        out = super().dropped_texts()
        if not self._ticks_shown and self.isVisible() and not self.folded:
            out.append(self.tr("the units' names"))
        return out

    @property
    def folded(self) -> bool:
        """Folded away by its splitter (which moves a folded pane out of its own rect): it draws nothing
        then, not a squeezed title."""
        parent = self.parentWidget()
        return self.height() <= 0 or (parent is not None and not parent.rect().intersects(self.geometry()))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._show_if_open()

    def moveEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().moveEvent(event)
        self._show_if_open()

    def _show_if_open(self) -> None:
        item = self.getPlotItem()  # None while pyqtgraph builds the view
        if item is not None and item.isVisible() == self.folded:
            item.setVisible(not self.folded)

    def display_scale_changed(self, scale: float) -> None:
        super().display_scale_changed(scale)
        self._name_font()
        self._fit_ticks()

    def _name_font(self) -> None:
        """The units' names a little smaller than the other axes' numbers: every row is named (issue 31 item 7),
        so the strip's rows are a name's height, and the plots around it keep their room."""
        axis = self.getPlotItem().getAxis("left")
        base = QFont(axis.style.get("tickFont") or self.font())
        if axis.property("names_from") == base.toString():
            return
        small = QFont(base)
        size = base.pointSizeF() if base.pointSizeF() > 0 else float(self.font().pointSizeF())
        small.setPointSizeF(max(6.0, size * NAME_SCALE))
        axis.setStyle(tickFont=small)
        axis.setProperty("names_from", small.toString())

    def _update_title(self) -> None:
        fg = self.theme.plot_foreground
        self.set_titles(self.tr("Unit use: each unit's share of its peak over time · red bar = the bottleneck"),
                        self.tr("Unit use over time · red bar = bottleneck"), self.tr("Unit use"), color=fg,
                        size="10pt")

    # -- look -----------------------------------------------------------------------
    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        self._lut = share_table(theme.plot_background)
        self.marks.setPen(pg.mkPen(MARK_DARK if theme.dark else MARK_LIGHT, width=3))
        self._ticks_shown = None
        self._fit_ticks()
        if self.run is not None:
            self.image.setLookupTable(self._lut)
        self._update_title()

    # -- hover ----------------------------------------------------------------------
    def share_at(self, cycle: float, row: int) -> tuple[str, int, float] | None:
        """(unit, window, share of its peak) under a point of the strip; None off the cells."""
        run = self.run
        if run is None or not (0 <= cycle < run.cycles) or not (0 <= row < len(self.rows) - 1):
            return None
        window = run.unit_window(int(cycle))
        unit = self.rows[row]
        return unit, window, float(run.unit_windows.shares[window, UNITS.index(unit)])

    def _hover(self, pos) -> None:
        p = self.hover_point(pos) if self.run is not None else None
        if p is None:
            return
        row = int(p.y())
        run = self.run
        labels = unit_labels()
        if row == len(self.rows) - 1 and 0 <= p.x() < run.cycles:
            window = run.unit_window(int(p.x()))
            top = int(run.unit_windows.bottleneck[window])
            text = self._window_text(window) + "<br>" + (
                self.tr("Bottleneck: {unit}").format(unit=labels[UNITS[top]]) if top >= 0 else
                self.tr("No unit at {limit} of its peak or more: latency (not enough work in flight).").format(
                    limit=pct(threshold(), 0)))
        else:
            hit = self.share_at(p.x(), row)
            if hit is None:
                QToolTip.hideText()
                return
            unit, window, share = hit
            text = self._window_text(window) + "<br>" + self.tr("<b>{unit}</b>: {share} of its peak").format(
                unit=labels[unit], share=pct(share, 0))
        self.show_tip(pos, text)

    def _window_text(self, window: int) -> str:
        wc = self.run.unit_windows.cycles
        return self.tr("Cycles {a}–{b} (one window of {n} cycles)").format(
            a=num(window * wc), b=num(min((window + 1) * wc, self.run.cycles) - 1), n=num(wc))
