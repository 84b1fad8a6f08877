"""The SM grid: every SM as a tile of its warp slots, coloured by state at the current cycle.

A tile has one row per scheduler (sub-partition) and one column per group of
slots: slot ``s`` sits in row ``s % SP``, column ``s // SP``, so a block's
consecutive warps form a rectangle spanning the schedulers, outlined. Under
each tile a bar shows the SM's resident warps out of its slots; above it, when
there is room, the SM's number. Hover for the SM, block, warp and state (with
its one-sentence meaning); click to select the SM.

While a new run is simulated the grid keeps the last one, dimmed, under a
"Simulating… n%" banner; while a long run's SMs that the simulator did not keep
are filled in (``run_data.fill_plan``), those tiles are hatched and a banner over
them says so, so a tile without states never looks like an idle SM.

Speed (playback repaints this every frame): the layout is computed on resize
into a per-pixel map from screen pixel to warp slot, so a frame is one numpy
gather (state -> colour -> pixel) and one ``drawImage``. Block outlines, labels
and SM numbers change only when a block starts or ends; they are drawn into a
cached transparent pixmap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.gui.common.layout_check import PaintedText
from explorer.texts.numbers import pct
from explorer.gui.common.state_colors import argb32_table, display_names, meanings
from explorer.gui.common.state_order import UNKNOWN
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.explore.banner import Banner
from explorer.gui.workspace.run_data import SimRun

BACKGROUND = 254  # the colour-table entry for the space between cells
VEIL_ALPHA = 120  # of 255: how much the previous run is dimmed while a new one is simulated


@dataclass(frozen=True)
class GridLayout:
    """Where everything is, in widget pixels."""

    sm_count: int
    warps_per_sm: int
    sub_partitions: int
    cols: int  # tiles per row
    rows: int
    cell_w: int
    cell_h: int
    gap: int  # between cells
    tile_w: int
    tile_h: int  # cells only
    title_h: int
    bar_h: int
    tile_gap_x: int
    tile_gap_y: int
    x0: int
    y0: int
    numbered: bool = True  # SM numbers drawn (not in a tiny view packed tight)

    @property
    def slot_cols(self) -> int:
        return self.warps_per_sm // self.sub_partitions

    def tile_origin(self, sm: int) -> tuple[int, int]:
        """Top-left of the tile's cells."""
        r, c = divmod(sm, self.cols)
        x = self.x0 + c * (self.tile_w + self.tile_gap_x)
        y = self.y0 + r * (self.title_h + self.tile_h + self.bar_h + self.tile_gap_y) + self.title_h
        return x, y

    def tile_rect(self, sm: int) -> QRect:
        """The whole tile: title, cells and bar."""
        x, y = self.tile_origin(sm)
        return QRect(x, y - self.title_h, self.tile_w, self.title_h + self.tile_h + self.bar_h)

    def cell_rect(self, sm: int, slot: int) -> QRect:
        x, y = self.tile_origin(sm)
        row, col = slot % self.sub_partitions, slot // self.sub_partitions
        return QRect(x + col * (self.cell_w + self.gap), y + row * (self.cell_h + self.gap), self.cell_w, self.cell_h)

    def bar_rect(self, sm: int) -> QRect:
        x, y = self.tile_origin(sm)
        return QRect(x, y + self.tile_h + 1, self.tile_w, self.bar_h - 2)

    def sm_at(self, x: int, y: int) -> int | None:
        """The SM whose tile (or the gap right of/below it) holds the point."""
        col = (x - self.x0) // (self.tile_w + self.tile_gap_x)
        row = (y - self.y0) // (self.title_h + self.tile_h + self.bar_h + self.tile_gap_y)
        if x < self.x0 or y < self.y0 or not 0 <= col < self.cols or not 0 <= row < self.rows:
            return None
        sm = row * self.cols + col
        return sm if sm < self.sm_count else None


def compute_layout(width: int, height: int, sm_count: int, warps_per_sm: int, sub_partitions: int,
                   title_font_h: int, label_w: int = 0, scale: float = 1.0) -> GridLayout | None:
    """The tiling that gives the biggest cells (ties: fewer columns).

    Each tile gets its SM number above it when the cells are big enough to pay for
    the line; otherwise every row of tiles is labelled once at the left (``label_w``).
    ``scale`` (presentation mode) widens the gaps and the resident-warps bars, so
    they stay visible from the back of a hall.
    """
    for gaps in (scale, 1.0) if scale != 1.0 else (1.0,):  # scaled gaps where there is room for them
        found = _best_tiling(width, height, sm_count, warps_per_sm, sub_partitions, title_font_h, label_w, gaps,
                             scale)
        if found is not None:
            return found
    return None


def _best_tiling(width: int, height: int, sm_count: int, warps_per_sm: int, sub_partitions: int,
                 title_font_h: int, label_w: int, gaps: float, scale: float) -> GridLayout | None:
    slot_cols = max(1, warps_per_sm // sub_partitions)
    best = None
    tile_gap_x, tile_gap_y, bar_h, gap = round(5 * gaps), round(3 * gaps), round(5 * gaps), max(1, round(gaps))
    smallest = 2
    narrow = width < slot_cols * 3 * 8  # 384 px for 64 warp slots: a compare column, a thumbnail
    if narrow or height < 12 * (sub_partitions * 3 + 8):  # a tiny view: pack cells tight
        tile_gap_x, tile_gap_y, bar_h, gap, smallest = 2, 2, 3, 0, 1
        if narrow:
            label_w = 0  # no room beside the tiles either: no SM numbers
    for cols in range(1, sm_count + 1):
        rows = math.ceil(sm_count / cols)
        if cols > 1 and math.ceil(sm_count / (cols - 1)) == rows:
            continue  # the same rows with fewer columns is at least as good
        for titled in (True, False):
            title_h = title_font_h + 1 if titled else 0
            margin = 0 if titled else label_w
            tile_w = (width - margin - (cols - 1) * tile_gap_x) // cols
            tile_h = (height - (rows - 1) * tile_gap_y) // rows - title_h - bar_h
            cell_w = (tile_w - (slot_cols - 1) * gap) // slot_cols
            cell_h = (tile_h - (sub_partitions - 1) * gap) // sub_partitions
            if cell_w < smallest or cell_h < smallest:
                continue
            cell_h = min(cell_h, 2 * cell_w)  # no needle-thin tall cells: leave space instead
            cell_w = min(cell_w, 2 * cell_h)
            if titled and cell_h < 9 * scale:
                continue  # the title costs more than it tells
            score = min(cell_w, cell_h)
            if best is None or score > best[0]:
                best = (score, cols, rows, cell_w, cell_h, title_h, margin)
            break
    if best is None:
        return None
    numbered = label_w > 0 or best[5] > 0
    _, cols, rows, cell_w, cell_h, title_h, margin = best
    tile_w = slot_cols * cell_w + (slot_cols - 1) * gap
    tile_h = sub_partitions * cell_h + (sub_partitions - 1) * gap
    total_w = margin + cols * tile_w + (cols - 1) * tile_gap_x
    total_h = rows * (title_h + tile_h + bar_h) + (rows - 1) * tile_gap_y
    return GridLayout(sm_count, warps_per_sm, sub_partitions, cols, rows, cell_w, cell_h, gap, tile_w, tile_h,
                      title_h, bar_h, tile_gap_x, tile_gap_y, max(0, (width - total_w) // 2) + margin,
                      max(0, (height - total_h) // 2), numbered)


def pixel_map(layout: GridLayout, width: int, height: int) -> np.ndarray:
    """int32[height, width]: the flat slot index (sm * W + slot) under each pixel; S*W elsewhere."""
    L = layout
    S, W, SP = L.sm_count, L.warps_per_sm, L.sub_partitions
    none = S * W
    xs = np.arange(width) - L.x0
    pitch_x = L.tile_w + L.tile_gap_x
    tcol = xs // pitch_x
    in_x = xs - tcol * pitch_x
    ccol = in_x // (L.cell_w + L.gap)
    ok_x = (xs >= 0) & (tcol < L.cols) & (in_x < L.tile_w) & (in_x - ccol * (L.cell_w + L.gap) < L.cell_w)
    ys = np.arange(height) - L.y0
    pitch_y = L.title_h + L.tile_h + L.bar_h + L.tile_gap_y
    trow = ys // pitch_y
    in_y = ys - trow * pitch_y - L.title_h
    crow = np.where(in_y >= 0, in_y // (L.cell_h + L.gap), -1)
    ok_y = (ys >= 0) & (trow < L.rows) & (in_y >= 0) & (in_y < L.tile_h) & (in_y - crow * (L.cell_h + L.gap) < L.cell_h)
    sm = trow[:, None] * L.cols + tcol[None, :]
    slot = ccol[None, :] * SP + crow[:, None]
    ok = ok_y[:, None] & ok_x[None, :] & (sm < S)
    return np.where(ok, sm * W + slot, none).astype(np.int32)


class SmGridView(QWidget):
    """Paints a ``SimRun`` at one cycle; emits ``sm_clicked`` on a click."""

    sm_clicked = Signal(int)
    run_painted = Signal()  # a frame drew a run the frame before did not (e.g. the first result is on screen)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sm_grid")
        self.setMouseTracking(False)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # paintEvent covers every pixel
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(300, 120)  # 132 SMs still as cells of 2x2 px at 528 px (1024x640: the window's height)
        self.setAccessibleName(self.tr("SM grid"))
        self.setAccessibleDescription(self.tr(
            "Every SM of the GPU; each cell is a warp slot coloured by its state at the current cycle."))
        self.run: SimRun | None = None
        self.cycle = 0
        self.selected_sm = 0
        self.theme: Theme = LIGHT
        self.placeholder = self.tr("Simulating…")
        self.layout_: GridLayout | None = None
        self._map: np.ndarray | None = None
        self._bars: list[QRect] = []  # each SM's resident-warps bar, from the layout
        self._colors = argb32_table(False, LIGHT.plot_background)
        self._states: np.ndarray | None = None
        self._codes = None  # flat codes + background entry, reused every frame
        self.resident = np.zeros(0, np.int64)  # resident warps per SM at the current cycle
        self._live = np.zeros(0, np.int64)
        self._overlay: QPixmap | None = None
        self._overlay_key = None
        self.paint_count = 0  # for the benchmark and tests: frames actually painted
        self.painted_run: SimRun | None = None  # the run the last frame drew (None: the placeholder)
        self.scale = 1.0  # presentation mode's scale: wider gaps and bars
        self._title_font = QFont(self.font())
        self._title_font.setPointSizeF(max(6.5, self.font().pointSizeF() * 0.75))
        self._label_font = QFont(self.font())
        self._label_font.setPointSizeF(max(6.5, self.font().pointSizeF() * 0.8))
        self.missing: list[int] = []  # SMs of the run with no states (yet): hatched
        self.busy_text = ""  # a new run is being simulated: the picture is the previous one
        self.fill_text = ""  # the missing SMs are being filled in
        self.banner = Banner(self, "sm_grid_banner")

    # -- input ----------------------------------------------------------------------
    def set_run(self, run: SimRun | None) -> None:
        shape_changed = (
            run is None or self.run is None
            or (run.sm_count, run.warps_per_sm, run.sub_partitions)
            != (self.run.sm_count, self.run.warps_per_sm, self.run.sub_partitions)
        )
        self.run = run
        self.missing = run.missing_sms() if run is not None else []
        if shape_changed:
            self.relayout()
        self._overlay_key = None
        self._refresh_cycle()
        self._place_banner()
        self.update()

    def set_cycle(self, cycle: int) -> None:
        self.cycle = cycle
        self._refresh_cycle()
        self.update()

    def set_selected(self, sm: int) -> None:
        if sm != self.selected_sm:
            self.selected_sm = sm
            self.update()

    def set_placeholder(self, text: str) -> None:
        self.placeholder = text
        if self.run is None:
            self.update()

    def set_notice(self, busy: str = "", filling: str = "") -> None:
        """``busy``: a new run is on its way (the picture is dimmed); ``filling``: the missing SMs are coming in."""
        if (busy, filling) == (self.busy_text, self.fill_text):
            return
        self.busy_text, self.fill_text = busy, filling
        self._place_banner()
        self.update()

    def missing_rect(self) -> QRect | None:
        """The bounding box of the tiles without states (None when there are none, or no layout)."""
        if not self.missing or self.layout_ is None:
            return None
        rect = QRect()
        for sm in self.missing:
            rect = rect.united(self.layout_.tile_rect(sm))
        return rect

    def _place_banner(self) -> None:
        if self.run is None:
            self.banner.show_text("")
        elif self.busy_text:
            self.banner.show_text(self.busy_text)
        else:
            self.banner.show_text(self.fill_text if self.missing else "", self.missing_rect())

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._colors = argb32_table(theme.dark, theme.plot_background)
        self._overlay_key = None
        self.banner.apply_theme(theme)
        self.update()

    # -- per cycle ------------------------------------------------------------------
    def _refresh_cycle(self) -> None:
        run = self.run
        if run is None:
            self._states = None
            return
        c = run.clamp(self.cycle)
        self._states = run.states_at(c)
        self.resident = run.resident_per_sm(c)
        self._live = run.live_blocks(c)

    # -- layout ---------------------------------------------------------------------
    def relayout(self) -> None:
        run = self.run
        if run is None or self.width() < 10 or self.height() < 10:
            self.layout_, self._map, self._bars = None, None, []
            return
        fm = QFontMetrics(self._title_font)
        label_w = fm.horizontalAdvance(self.tr("SM {n}").format(n=run.sm_count - 1)) + 6
        self.layout_ = compute_layout(self.width(), self.height(), run.sm_count, run.warps_per_sm,
                                      run.sub_partitions, fm.height(), label_w, self.scale)
        self._map = pixel_map(self.layout_, self.width(), self.height()) if self.layout_ else None
        self._bars = [self.layout_.bar_rect(sm) for sm in range(run.sm_count)] if self.layout_ else []
        self._codes = np.empty(run.sm_count * run.warps_per_sm + 1, np.uint8)
        self._codes[-1] = BACKGROUND
        self._overlay_key = None

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.relayout()
        self._place_banner()

    def display_scale_changed(self, scale: float) -> None:
        """Presentation mode scaled the fonts (``_title_font``, ``_label_font``): lay out again."""
        self.scale = scale
        self.relayout()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: D401 - Qt API
        return QSize(900, 420)

    # -- painting -------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.paint_count += 1
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(self.theme.plot_background))
        if self.run is None or self._map is None or self._states is None:
            p.setPen(QColor(self.theme.plot_foreground))
            text = self.placeholder if self.run is None else self.tr("Too small to draw every SM: enlarge the window.")
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)
            p.end()
            self.painted_run = None
            return
        new_run = self.painted_run is not self.run
        self.painted_run = self.run
        L = self.layout_
        self._codes[:-1] = self._states.ravel()
        pixels = self._colors[self._codes][self._map]  # state -> colour, then slot -> pixel
        h, w = pixels.shape
        image = QImage(pixels.data, w, h, w * 4, QImage.Format.Format_RGB32)
        p.drawImage(0, 0, image)
        p.drawPixmap(0, 0, self._overlay_pixmap())
        # resident-warps bar under each tile
        fill = QColor(self.theme.plot_foreground)
        trough = QColor(self.theme.mid)
        W = L.warps_per_sm
        for sm, r in enumerate(self._bars):
            p.fillRect(r, trough)
            n = int(self.resident[sm]) if sm < len(self.resident) else 0
            if n > 0:
                p.fillRect(QRect(r.x(), r.y(), max(1, round(r.width() * n / W)), r.height()), fill)
        # SMs without states (not kept by a long run, being filled in): hatched, never plain like idle cells
        if self.missing:
            hatch = QColor(self.theme.plot_foreground)
            hatch.setAlpha(110)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(hatch, Qt.BrushStyle.BDiagPattern))
            for sm in self.missing:
                x, y = L.tile_origin(sm)
                p.drawRect(QRect(x, y, L.tile_w, L.tile_h))
        # the selected SM
        sel = L.tile_rect(self.selected_sm).adjusted(-3, -2, 3, 2)
        pen = QPen(QColor(self.theme.marker), 2.5 * self.scale)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(sel)
        if self.busy_text:  # the previous run, dimmed under the banner
            veil = QColor(self.theme.plot_background)
            veil.setAlpha(VEIL_ALPHA)
            p.fillRect(self.rect(), veil)
        p.end()
        if new_run:
            self.run_painted.emit()

    def _overlay_pixmap(self) -> QPixmap:
        """Block outlines and labels, SM numbers: redrawn only when a block starts or ends."""
        key = (self._live.tobytes(), id(self.layout_), self.theme.name, id(self.run), self.width(), self.height(),
               self._title_font.pointSizeF(), self._label_font.pointSizeF())
        if self._overlay is not None and key == self._overlay_key:
            return self._overlay
        pm = QPixmap(self.size())
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        text_color = QColor(self.theme.plot_foreground)
        p.setFont(self._title_font)
        p.setPen(text_color)
        for item in self._sm_labels():
            p.drawText(item.rect, item.flags, item.text)
        # block outlines: in the gaps around the block's cells
        outline = QPen(text_color, 1)
        outline.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        p.setPen(outline)
        p.setBrush(Qt.BrushStyle.NoBrush)
        labels = []
        for rect, b, cells in self._block_shapes():
            if rect is not None:
                p.drawRect(rect)
                labels.append((rect, b))
            else:  # a ragged block (warps per block not a multiple of the schedulers): outline each cell
                for c in cells:
                    p.drawRect(QRectF(c.left() - 0.5, c.top() - 0.5, c.width() + 1, c.height() + 1))
        p.setFont(self._label_font)
        for item in self._block_labels(labels):
            p.setPen(QColor("#FFFFFF"))
            p.drawText(item.rect.translated(1, 1), item.flags, item.text)
            p.setPen(QColor("#000000"))
            p.drawText(item.rect, item.flags, item.text)
        p.end()
        self._overlay, self._overlay_key = pm, key
        return pm

    def _sm_labels(self) -> list[PaintedText]:
        """The SM numbers: above each tile, or once per row of tiles at the left."""
        L = self.layout_
        out = []
        if not L.numbered:
            return out
        if L.title_h:
            for sm in range(L.sm_count):
                x, y = L.tile_origin(sm)
                out.append(PaintedText(self.tr("SM {n}").format(n=sm), QRect(x, y - L.title_h, L.tile_w, L.title_h),
                                       self._title_font, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)))
        else:  # one label per row of tiles (the first SM of the row), every few rows where rows are short
            pitch = L.tile_h + L.bar_h + L.tile_gap_y
            every = max(1, math.ceil(QFontMetrics(self._title_font).height() / max(pitch, 1)))
            height = max(L.tile_h + L.bar_h, QFontMetrics(self._title_font).height())
            bottom = -1
            for row in range(0, L.rows, every):
                sm = row * L.cols
                x, y = L.tile_origin(sm)
                y = min(y, self.height() - height)  # the last one stays inside the view
                if y <= bottom:
                    break
                bottom = y + height - 1
                out.append(PaintedText(self.tr("SM {n}").format(n=sm), QRect(0, y, x - 4, height),
                                       self._title_font, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)))
        return out

    def _block_labels(self, outlined: list[tuple[QRectF, int]]) -> list[PaintedText]:
        """Block numbers inside their outlines, only where every block number fits (a few labelled
        blocks among many would mislead)."""
        fm = QFontMetrics(self._label_font)
        room = fm.horizontalAdvance(str(max(len(self.run.result.blocks) - 1, 0))) + 4
        return [PaintedText(str(b), rect.toRect(), self._label_font, int(Qt.AlignmentFlag.AlignCenter))
                for rect, b in outlined if room <= rect.width() and fm.height() <= rect.height()]

    def dropped_texts(self) -> list[str]:
        """The SM numbers, when the tiles are packed too tight for them."""
        if self.run is not None and self.layout_ is not None and not self.layout_.numbered:
            return [self.tr("the SM numbers")]
        return []

    def painted_texts(self) -> list[PaintedText]:
        """What the layout check measures: the SM numbers and the block numbers drawn now."""
        if self.run is None or self.layout_ is None:
            return []
        outlined = [(rect, b) for rect, b, _cells in self._block_shapes() if rect is not None]
        return self._sm_labels() + self._block_labels(outlined)

    def _block_shapes(self) -> list[tuple[QRectF | None, int, list[QRect]]]:
        """Each live block's outline (its slots form one rectangle) or, for a ragged block, its cells."""
        L, run = self.layout_, self.run
        SP = L.sub_partitions
        blocks = run.result.blocks
        out = []
        for b in self._live.tolist():
            sm = int(blocks.sm[b])
            slots = run.block_slots[b]
            slots = slots[slots >= 0]
            if slots.size == 0:
                continue
            rows, cols = slots % SP, slots // SP
            r0, r1, c0, c1 = int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())
            if (r1 - r0 + 1) * (c1 - c0 + 1) == slots.size:
                a = L.cell_rect(sm, c0 * SP + r0)
                z = L.cell_rect(sm, c1 * SP + r1)
                rect = QRectF(a.left() - 0.5, a.top() - 0.5, z.right() - a.left() + 2, z.bottom() - a.top() + 2)
                out.append((rect, b, []))
            else:
                out.append((None, b, [L.cell_rect(sm, s) for s in slots.tolist()]))
        return out

    # -- mouse ----------------------------------------------------------------------
    def slot_at(self, pos: QPoint) -> tuple[int | None, int | None]:
        """(sm, slot) under a point; slot None between cells, sm None off the tiles."""
        if self.layout_ is None or self._map is None:
            return None, None
        x, y = pos.x(), pos.y()
        if not (0 <= x < self._map.shape[1] and 0 <= y < self._map.shape[0]):
            return None, None
        flat = int(self._map[y, x])
        W = self.layout_.warps_per_sm
        if flat < self.layout_.sm_count * W:
            return flat // W, flat % W
        return self.layout_.sm_at(x, y), None

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            sm, _ = self.slot_at(event.position().toPoint())
            if sm is not None:
                self.sm_clicked.emit(sm)
                event.accept()
                return
        super().mousePressEvent(event)

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, pos: QPoint) -> str:
        sm, slot = self.slot_at(pos)
        if sm is None or self.run is None:
            return ""
        run = self.run
        W = run.warps_per_sm
        resident = int(self.resident[sm]) if sm < len(self.resident) else 0
        lines = [self.tr("<b>SM {sm}</b>: {n} of {w} warp slots resident ({pct})").format(
            sm=sm, n=resident, w=W, pct=pct(resident / W))]
        live = [b for b in self._live.tolist() if int(run.result.blocks.sm[b]) == sm]
        if live:
            lines.append(self.tr("Blocks here: {blocks}").format(blocks=", ".join(str(b) for b in live)))
        if slot is not None:
            SP = run.sub_partitions
            owner = None
            for b in live:
                if slot in run.block_slots[b].tolist():
                    owner = b
            code = int(self._states[sm, slot])
            if owner is not None:
                k = run.block_slots[owner].tolist().index(slot)
                wpb = run.block_slots.shape[1]
                lines.append(self.tr("Block {b}, warp {k} of {n} (warp {g} of the grid)").format(
                    b=owner, k=k, n=wpb, g=owner * wpb + k))
            lines.append(self.tr("Slot {slot} · scheduler {sp}").format(slot=slot, sp=slot % SP))
            name = display_names().get(code, "?")
            meaning = meanings().get(code, "")
            lines.append(f"<b>{name}</b>: {meaning}")
        if not run.has_states(sm):
            lines.append(meanings()[UNKNOWN])
        elif sm in run.sampled and not run.is_recorded(sm):
            lines.append(self.tr("<i>This long run's states of SM {sm} were re-simulated after it and are shown "
                                 "every {n} cycles.</i>").format(sm=sm, n=run.sampled[sm][0]))
        lines.append(self.tr("<i>Click to show this SM in the timeline.</i>"))
        return "<br>".join(lines)
