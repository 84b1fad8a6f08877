"""The timeline: one SM's warp slots (rows, grouped by scheduler) × cycles, coloured by state.

An ``ImageItem`` of uint8 priority ranks with a 256-entry colour table and fixed
levels (pyqtgraph's fast path). ``autoDownsample=False`` on every ``setImage``:
pyqtgraph otherwise switches it on for images of 32,768 px or more, and frames
get ~100× slower. Zoomed out, the image is a level of the run's pyramid
(``run_data.pyramid``) chosen so one image column covers at least one screen
pixel: each column shows the most important state of its cycles, so a single
issue cycle is never dropped by scaling. The image changes only on zoom and on a
new run or SM; playback only moves the cursor.

Partially active warps (a user kernel's diverged warps, a block's last warp short of
32 threads: the slot's next instruction issues with fewer than 32 lanes) get a second mark that is a shape, not a colour: a
line along the top third of the row, in the plot's foreground colour, over whatever
state colour the row has (``run_data.SimRun.partial_pyramid``, zoomed like the states:
a bin is marked if any of its cycles is). The title and the hover say what it means.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem, QToolTip, QWidget

from explorer.gui.common.plots import CursorPlot
from explorer.gui.common.state_colors import display_names, meanings, priority_table
from explorer.gui.common.state_order import PRIORITY
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.explore.banner import Banner
from explorer.gui.workspace.run_data import SimRun

_CODE_OF_RANK = {rank: code for code, rank in enumerate(PRIORITY)}
MAX_OUTLINED_BLOCKS = 2000  # per SM; beyond that outlines would be a grey smear anyway
MAX_LABELLED_BLOCKS = 300
PARTIAL_SUBROWS = 3  # a partial warp's mark: the top one of three sub-rows of its row


MIN_HEIGHT = 110  # px: the scheduler rows' names, the cycle axis's numbers and its title


class TimelineView(CursorPlot):
    """Warp states of the selected SM over the whole run."""

    needs_trace = Signal(int)  # the SM's trace was not kept: the page re-simulates it
    slot_clicked = Signal(int)  # a click on a row: that warp slot (the SASS view follows its warp)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("timeline")
        self.setMinimumHeight(MIN_HEIGHT)
        self.image = pg.ImageItem(axisOrder="col-major")
        self.image.setAutoDownsample(False)
        self.addItem(self.image)
        self.partial_image = pg.ImageItem(axisOrder="col-major")  # partial warps: a line along the row's top
        self.partial_image.setAutoDownsample(False)
        self.partial_image.setZValue(2)
        self.addItem(self.partial_image)
        self._partial_levels: list[np.ndarray] | None = None
        item = self.getPlotItem()
        item.invertY(True)
        item.getAxis("left").setWidth(64)
        self.message = pg.TextItem(anchor=(0.5, 0.5))
        self.message.setZValue(30)
        self.addItem(self.message, ignoreBounds=True)
        self.separators: list[pg.InfiniteLine] = []
        # blocks on this SM: outlined over their slots and lifetime, labelled when there is room
        self.outlines = QGraphicsPathItem()
        self.outlines.setZValue(5)
        self.addItem(self.outlines, ignoreBounds=True)
        self.labels: list[tuple[pg.TextItem, float, int]] = []  # label, cycles, rows it spans
        self._sched_ticks: list = []  # (row, "sched k") at each scheduler's middle
        self._minor_ticks: list = []  # the scheduler groups' edges
        self._ticks_shown: list | None = None
        self.run: SimRun | None = None
        self.sm = 0
        self.rows = np.zeros(0, np.int64)  # the slot shown on each row
        self.level = -1
        self.compact_title = False  # a short title, for a view half as wide (the A/B compare's columns)
        self._levels: list[np.ndarray] | None = None
        self._lut = priority_table(False)
        self.getPlotItem().getViewBox().sigXRangeChanged.connect(self._range_changed)
        self.getPlotItem().getViewBox().sigResized.connect(self._range_changed)  # pixels per cycle changed too
        self.scene().sigMouseMoved.connect(self._hover)
        self.scene().sigMouseClicked.connect(self._row_clicked)
        self.banner = Banner(self, "timeline_banner")  # "simulating…": the picture is the previous run
        self.apply_theme(LIGHT)

    # -- data -----------------------------------------------------------------------
    def set_run(self, run: SimRun | None, sm: int, keep_range: bool = False) -> None:
        new_length = run is None or self.run is None or run.cycles != self.run.cycles
        self.run = run
        self.sm = sm
        if run is None:
            self.image.clear()
            self.partial_image.clear()
            return
        self.set_x_max(run.cycles)
        self._show_sm(sm)
        if new_length or not keep_range:
            self.show_all()
        self._update_title()

    def set_sm(self, sm: int) -> None:
        self.sm = sm
        if self.run is not None:
            self._show_sm(sm)
            self._update_title()

    def set_notice(self, text: str) -> None:
        """A banner over the view ("" removes it): what is shown is not the current scenario's run yet."""
        self.banner.show_text(text if self.run is not None else "")

    def trace_arrived(self, sm: int) -> None:
        if sm == self.sm and self.run is not None:
            self._show_sm(sm)

    def _show_blocks(self, sm: int) -> None:
        """Outline each block of the SM: its slots' rows (runs of adjacent rows) from start to end."""
        for label, _, _ in self.labels:
            self.removeItem(label)
        self.labels = []
        run = self.run
        path = QPainterPath()
        if run is None:
            self.outlines.setPath(path)
            return
        b = run.result.blocks
        mine = np.nonzero((b.sm == sm) & (b.start >= 0))[0]
        if len(mine) > MAX_OUTLINED_BLOCKS:
            self.outlines.setPath(path)
            return
        row_of = np.full(run.warps_per_sm, -1, np.int64)
        row_of[self.rows] = np.arange(len(self.rows))
        end_default = run.cycles
        for blk in mine.tolist():
            start = float(b.start[blk])
            end = float(b.end[blk]) if b.end[blk] >= 0 else float(end_default)
            rows = row_of[run.block_slots[blk][run.block_slots[blk] >= 0]]
            rows = np.sort(rows[rows >= 0])
            if rows.size == 0:
                continue
            breaks = np.nonzero(np.diff(rows) != 1)[0]
            firsts = np.concatenate([[rows[0]], rows[breaks + 1]])
            lasts = np.concatenate([rows[breaks], [rows[-1]]])
            for r0, r1 in zip(firsts.tolist(), lasts.tolist()):
                path.addRect(QRectF(start, r0, end - start, r1 - r0 + 1))
            if len(mine) <= MAX_LABELLED_BLOCKS:
                label = pg.TextItem(self.tr("block {b}").format(b=blk), anchor=(0, 0), color=self.theme.plot_foreground)
                label.setPos(start, float(firsts[0]))
                label.setZValue(6)
                self.addItem(label, ignoreBounds=True)
                self.labels.append((label, end - start, int(lasts[0] - firsts[0] + 1)))
        self.outlines.setPath(path)
        self._place_labels()

    def _place_labels(self) -> None:
        """A label shows when its block spans enough pixels for it."""
        if not self.labels:
            return
        cpp = self.cycles_per_pixel()
        vb = self.getPlotItem().getViewBox()
        row_px = vb.height() / max(len(self.rows), 1)
        width = self.fontMetrics().horizontalAdvance(self.tr("block {b}").format(b=88888)) + 6
        height = self.fontMetrics().height()
        for label, cycles, rows in self.labels:
            label.setVisible(cycles / cpp >= width and rows * row_px >= height)

    def _show_sm(self, sm: int) -> None:
        run = self.run
        levels = run.pyramid(sm)
        self.level = -1
        self._partial_levels = None
        self.partial_image.clear()
        if levels is None:
            self.rows = run.order
            self._levels = None
            self._set_rows(run.warps_per_sm)
            self._show_blocks(sm)
            self.image.clear()
            self._say(self.tr("SM {sm}'s warp states were not kept for this long run; re-simulating this SM…").format(sm=sm))
            self.needs_trace.emit(sm)
            return
        used = np.nonzero(levels[-1].max(axis=0) > 0)[0]  # the top level holds every slot's busiest state
        self.rows = run.order[used]
        self._levels = [lvl[:, used] for lvl in levels] if len(used) < run.warps_per_sm else levels
        partial = run.partial_pyramid(sm)
        if partial is not None and len(partial) == len(levels):
            self._partial_levels = [lvl[:, used] for lvl in partial] if len(used) < run.warps_per_sm else partial
        self._set_rows(len(used))
        self._show_blocks(sm)
        if len(used) == 0:
            self.image.clear()
            self._say(self.tr("SM {sm} ran no warp in this run.").format(sm=sm))
            return
        self.message.hide()
        self._choose_level()

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setPos(self.run.cycles / 2, max(len(self.rows), 1) / 2)
        self.message.show()

    def _set_rows(self, n: int) -> None:
        """Y range and scheduler groups for the displayed rows (slots in scheduler order)."""
        n_view = max(n, 1)
        vb = self.getPlotItem().getViewBox()
        vb.setLimits(yMin=0, yMax=n_view)
        self.getPlotItem().setYRange(0, n_view, padding=0)
        SP = self.run.sub_partitions
        sched = self.rows % SP if n else np.zeros(0, np.int64)
        ticks, minor, bounds = [], [(0, "")], []
        for k in range(SP):
            where = np.nonzero(sched == k)[0]
            if where.size:
                ticks.append(((where[0] + where[-1] + 1) / 2, self.tr("sched {k}").format(k=k)))
                minor.append((where[-1] + 1, ""))
                if where[-1] + 1 < n:
                    bounds.append(where[-1] + 1)
        self._sched_ticks, self._minor_ticks = ticks, minor
        self._fit_ticks()
        for line in self.separators:
            self.removeItem(line)
        self.separators = []
        for y in bounds:
            line = pg.InfiniteLine(pos=y, angle=0, movable=False, pen=pg.mkPen(self.theme.plot_background, width=2))
            line.setZValue(10)
            self.addItem(line, ignoreBounds=True)
            self.separators.append(line)

    def _fit_ticks(self) -> None:
        """The schedulers' names on the left, as many as the rows' height holds without overlapping
        (short plots and large presentation fonts: every other one, or none: the title says it)."""
        ticks = self._sched_ticks
        axis = self.getPlotItem().getAxis("left")
        if not ticks:
            axis.setTicks([[], self._minor_ticks])
            return
        font = axis.style.get("tickFont") or self.font()
        line = QFontMetrics(font).height()
        vb = self.getPlotItem().getViewBox()
        n_view = max(len(self.rows), 1)
        px = vb.height() / n_view  # pixels per row
        gaps = [abs(b[0] - a[0]) * px for a, b in zip(ticks, ticks[1:])]
        spacing = min(gaps) if gaps else float("inf")
        edge = min(ticks[0][0], n_view - ticks[-1][0]) * px  # room above the first, below the last
        step = next((k for k in (1, 2, 4) if spacing * k >= line and edge >= 0.3 * line), None)
        shown = ticks[::step] if step else []
        if shown != self._ticks_shown:
            self._ticks_shown = shown
            axis.setTicks([shown, self._minor_ticks])

    def dropped_texts(self) -> list[str]:
        """The scheduler names when the rows are too short for any of them."""
        out = super().dropped_texts()
        if self._sched_ticks and not self._ticks_shown and self.isVisible():
            out.append(self.tr("the schedulers' names"))
        return out

    def _update_title(self) -> None:
        if self.run is None:
            return
        fg = self.theme.plot_foreground
        shown, total = len(self.rows), self.run.warps_per_sm
        if self.compact_title:
            text = self.tr("SM {sm}: {n} of {w} warp slots, by scheduler").format(sm=self.sm, n=shown, w=total)
        elif shown < total:
            text = self.tr("Timeline of SM {sm}: its {n} busy warp slots (of {w}), grouped by scheduler").format(
                sm=self.sm, n=shown, w=total)
        else:
            text = self.tr("Timeline of SM {sm}: each row is a warp slot, grouped by scheduler").format(sm=self.sm)
        short = self.tr("Timeline of SM {sm}").format(sm=self.sm)
        if self._partial_levels:  # the mark's legend, as long as the width holds it
            mark = self.tr("a line along a row's top: fewer than 32 lanes active")
            self.set_titles(f"{text}; {mark}", f"{short}; {mark}", text, short, color=fg, size="10pt")
        else:
            self.set_titles(text, short, color=fg, size="10pt")

    # -- zoom -----------------------------------------------------------------------
    def _range_changed(self, *_args) -> None:
        self._choose_level()
        self._place_labels()
        self._fit_ticks()

    def display_scale_changed(self, scale: float) -> None:
        """Presentation mode scaled the axis fonts: the title's wording and the scheduler names again."""
        super().display_scale_changed(scale)
        self._fit_ticks()

    def cycles_per_pixel(self) -> float:
        vb = self.getPlotItem().getViewBox()
        (x0, x1), _ = vb.viewRange()
        return max(x1 - x0, 1e-9) / max(vb.width(), 1.0)

    def _choose_level(self) -> None:
        if not self._levels:
            return
        cpp = self.cycles_per_pixel()
        level = 0 if cpp <= 1 else math.ceil(math.log2(cpp) - 1e-9)
        level = max(0, min(level, len(self._levels) - 1))
        if level == self.level:
            return
        self.level = level
        img = self._levels[level]
        if img.shape[0] == 0 or img.shape[1] == 0:  # an SM that held no warp (8 blocks on 132 SMs): no rows
            self.image.clear()
            return
        self.image.setImage(img, autoDownsample=False, levels=(0, 255), lut=self._lut)
        self.image.setRect(QRectF(0, 0, img.shape[0] * (1 << level), img.shape[1]))
        self._show_partial(level)

    def _show_partial(self, level: int) -> None:
        """The partial-warp marks at the states' zoom level: each row's top sub-row where its warp is partial."""
        if not self._partial_levels:
            self.partial_image.clear()
            return
        flags = self._partial_levels[level]
        marks = np.zeros((flags.shape[0], flags.shape[1] * PARTIAL_SUBROWS), np.uint8)
        marks[:, 0::PARTIAL_SUBROWS] = flags
        self.partial_image.setImage(marks, autoDownsample=False, levels=(0, 1), lut=self._partial_lut())
        self.partial_image.setRect(QRectF(0, 0, flags.shape[0] * (1 << level), flags.shape[1]))

    def _partial_lut(self) -> np.ndarray:
        """0: transparent; 1: the plot's foreground (dark on the light theme, light on the dark one)."""
        lut = np.zeros((2, 4), np.uint8)
        fg = QColor(self.theme.plot_foreground)
        lut[1] = (fg.red(), fg.green(), fg.blue(), 255)
        return lut

    def has_partial_marks(self) -> bool:
        """Whether the SM on screen shows partially active warps (its title and hover explain the mark)."""
        return bool(self._partial_levels)

    # -- look -----------------------------------------------------------------------
    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        item = self.getPlotItem()
        item.setLabel("bottom", self.tr("cycle"), color=theme.plot_foreground)
        self._lut = priority_table(theme.dark)
        for line in self.separators:
            line.setPen(pg.mkPen(theme.plot_background, width=2))
        self.message.setColor(theme.plot_foreground)
        self.banner.apply_theme(theme)
        pen = pg.mkPen(theme.plot_foreground, width=1)
        pen.setCosmetic(True)
        self.outlines.setPen(pen)
        for label, _, _ in self.labels:
            label.setColor(theme.plot_foreground)
        if self._levels:
            self.level = -1
            self._choose_level()
        self._update_title()

    # -- hover ----------------------------------------------------------------------
    def state_at(self, cycle: int, row: int) -> int | None:
        """State code of the slot on image row ``row`` at ``cycle`` (full resolution)."""
        if not self._levels or not (0 <= cycle < self.run.cycles) or not (0 <= row < len(self.rows)):
            return None
        return _CODE_OF_RANK.get(int(self._levels[0][cycle, row]))

    def _row_clicked(self, event) -> None:
        """A left click on a row names its warp slot (the click also moves the cursor: CursorPlot)."""
        if self.run is None or event.button() != Qt.MouseButton.LeftButton:
            return
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        row = int(vb.mapSceneToView(event.scenePos()).y())
        if 0 <= row < len(self.rows):
            self.slot_clicked.emit(int(self.rows[row]))

    def _hover(self, pos) -> None:
        if self.run is None or not self._levels:
            return
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(pos):
            QToolTip.hideText()
            return
        p = vb.mapSceneToView(pos)
        cycle, row = int(p.x()), int(p.y())
        code = self.state_at(cycle, row)
        if code is None:
            QToolTip.hideText()
            return
        slot = int(self.rows[row])
        SP = self.run.sub_partitions
        text = self.tr("SM {sm} · slot {slot} (scheduler {sp}) · cycle {cycle}").format(
            sm=self.sm, slot=slot, sp=slot % SP, cycle=cycle)
        text += "<br><b>{}</b>: {}".format(display_names()[code], meanings()[code])
        mask = self.run.result.mask_at(self.sm, slot, cycle) if hasattr(self.run.result, "mask_at") else None
        if mask is not None and mask != 0xFFFFFFFF:
            text += "<br>" + self.tr(
                "Partially active warp: its next instruction issues with {n} of 32 lanes (lanes {mask}); "
                "marked by a line along the row's top.").format(n=bin(mask).count("1"), mask=f"0x{mask:08x}")
        elif self._partial_levels and self.level > 0 and int(self._partial_levels[self.level][
                min(cycle >> self.level, self._partial_levels[self.level].shape[0] - 1), row]):
            text += "<br>" + self.tr("A line along the row's top: in some of these cycles the warp's next "
                                     "instruction issues with fewer than 32 lanes.")
        if self.level > 0:
            text += "<br><i>" + self.tr(
                "Zoomed out: each column covers {n} cycles and shows its most important state "
                "(issued > eligible > stalls > memory wait > empty). Zoom in (mouse wheel) for single cycles."
            ).format(n=1 << self.level) + "</i>"
        view = self.mapFromScene(pos)
        QToolTip.showText(self.viewport().mapToGlobal(view), text, self)
