"""The output matrix C as a grid of CTA tiles, coloured by the wave (or the SM) that computes it.

Drawn to scale: each cell is one BM x BN tile of C = A x B, the grid is M x N
rounded up to whole tiles (a dashed line marks the true M x N edge when the last
tiles are padded). The colours come from the core's ``TileSchedule`` (grid-order
dispatch): tile t runs in wave t // slots on SM (t mod slots) mod SMs.

Playing the waves shows them one at a time: the wave being computed in full
colour and outlined, the finished ones faded, the ones still to come empty. So
133 tiles on 132 SMs light up 132 cells, then a single one, while the other 131
SMs have nothing to do. Numbers go with the colours: every cell big enough
carries its wave (or SM) number, and the tooltip names tile, CTA, SM and wave.

The grid is one small image (a cell per tile, or a regular sample of the tiles
when a side has more than 512) scaled without smoothing, so even a 512 x 512
grid paints in a few milliseconds.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from explorer.gemm import GemmPlan, TileSchedule
from explorer.gui.common import palette as oi
from explorer.texts.numbers import num
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.gemm.session import sample_axis, sm_image, wave_image, wave_sms

# Seven distinguishable Okabe–Ito colours for waves 1, 2, 3, … (black is kept for text).
WAVE_COLORS = (oi.BLUE, oi.ORANGE, oi.BLUISH_GREEN, oi.REDDISH_PURPLE, oi.SKY_BLUE, oi.VERMILLION, oi.YELLOW)
DONE_ALPHA = 0.30  # finished waves: this much of their colour over the background
MIN_THIN_SIDE = 56  # px: a very flat matrix is stretched to at least this (and says so)


def wave_color(wave: int) -> str:
    return WAVE_COLORS[int(wave) % len(WAVE_COLORS)]


def _rgb(color: str) -> np.ndarray:
    c = QColor(color)
    return np.array([c.red(), c.green(), c.blue()], np.float64)


def _sm_lut(sm_count: int) -> np.ndarray:
    """cividis (colour-vision-deficiency friendly, light to dark readable) over the SMs."""
    return pg.colormap.get("cividis").getLookupTable(0.0, 1.0, max(2, sm_count), alpha=False).astype(np.float64)


def text_on(rgb) -> QColor:
    r, g, b = (float(v) for v in rgb[:3])
    return QColor("#000000") if 0.299 * r + 0.587 * g + 0.114 * b > 150 else QColor("#FFFFFF")


class TileGridView(QWidget):
    """Paints the tile grid; ``current`` is the wave being played (None: all waves at once)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_tiles")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)
        self.setMouseTracking(True)
        self.theme: Theme = LIGHT
        self.plan: GemmPlan | None = None
        self.schedule: TileSchedule | None = None
        self.mode = "wave"  # or "sm"
        self.current: int | None = None
        self.waves = np.zeros((0, 0), np.int64)  # per drawn cell
        self.sms = np.zeros((0, 0), np.int64)
        self.rows = np.zeros(0, np.int64)  # tile row of each drawn cell row
        self.cols = np.zeros(0, np.int64)
        self.sampled = False
        self._image: QImage | None = None
        self._rgb = np.zeros((0, 0, 3), np.uint8)
        self.paint_count = 0

    def sizeHint(self) -> QSize:  # noqa: D401 - Qt API
        return QSize(640, 420)

    # -- data --------------------------------------------------------------------
    def set_plan(self, plan: GemmPlan) -> None:
        self.plan = plan
        self.schedule = plan.schedule()
        s = self.schedule
        self.rows = sample_axis(s.tiles_m)
        self.cols = sample_axis(s.tiles_n)
        self.sampled = len(self.rows) < s.tiles_m or len(self.cols) < s.tiles_n
        self.waves = wave_image(s)
        self.sms = sm_image(s)
        if self.current is not None and self.current >= s.waves:
            self.current = None
        self._recolor()

    def set_mode(self, mode: str) -> None:
        if mode not in ("wave", "sm"):
            raise ValueError(mode)
        if mode != self.mode:
            self.mode = mode
            self._recolor()

    def set_current(self, wave: int | None) -> None:
        if wave is not None and self.schedule is not None:
            wave = max(0, min(int(wave), self.schedule.waves - 1))
        if wave != self.current:
            self.current = wave
            self._recolor()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._recolor()

    def cell_colors(self) -> np.ndarray:
        """uint8[rows, cols, 3]: what each drawn cell shows now (tests read it too)."""
        return self._rgb

    def _recolor(self) -> None:
        if self.schedule is None:
            self._image = None
            self.update()
            return
        if self.mode == "wave":
            lut = np.array([_rgb(c) for c in WAVE_COLORS])
            rgb = lut[self.waves % len(WAVE_COLORS)]
        else:
            rgb = _sm_lut(self.schedule.sm_count)[self.sms]
        if self.current is not None:
            bg = _rgb(self.theme.base)
            done = self.waves < self.current
            todo = self.waves > self.current
            rgb = rgb.copy()
            rgb[done] = DONE_ALPHA * rgb[done] + (1 - DONE_ALPHA) * bg
            rgb[todo] = bg
        self._rgb = np.ascontiguousarray(np.clip(np.round(rgb), 0, 255).astype(np.uint8))
        h, w = self._rgb.shape[:2]
        self._image = QImage(self._rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()
        self.update()

    # -- geometry ------------------------------------------------------------------
    def _margins(self) -> tuple[int, int]:
        fm = QFontMetrics(self.font())
        return fm.height() + 10, fm.height() + 8  # left (M label), top (N label)

    def grid_rect(self) -> QRectF:
        """Where the padded M x N grid is drawn (to scale unless very flat)."""
        if self.plan is None:
            return QRectF()
        p = self.plan
        left, top = self._margins()
        avail_w, avail_h = max(10.0, self.width() - left - 8.0), max(10.0, self.height() - top - 8.0)
        width_units = self.schedule.tiles_n * p.tile.bn
        height_units = self.schedule.tiles_m * p.tile.bm
        scale = min(avail_w / width_units, avail_h / height_units)
        w, h = width_units * scale, height_units * scale
        w, h = max(w, min(avail_w, MIN_THIN_SIDE)), max(h, min(avail_h, MIN_THIN_SIDE))
        x = left + (avail_w - w) / 2
        y = top + max(0.0, (avail_h - h) / 2)
        return QRectF(x, y, w, h)

    @property
    def to_scale(self) -> bool:
        if self.plan is None:
            return True
        r = self.grid_rect()
        ratio = (self.schedule.tiles_n * self.plan.tile.bn) / (self.schedule.tiles_m * self.plan.tile.bm)
        return abs(r.width() / r.height() - ratio) / ratio < 0.02

    def cell_rect(self, i: int, j: int) -> QRectF:
        """The rectangle of drawn cell (i, j)."""
        g = self.grid_rect()
        cw, ch = g.width() / len(self.cols), g.height() / len(self.rows)
        return QRectF(g.x() + j * cw, g.y() + i * ch, cw, ch)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        g = self.grid_rect()
        if self.plan is None or not g.contains(QPointF(x, y)):
            return None
        j = int((x - g.x()) / g.width() * len(self.cols))
        i = int((y - g.y()) / g.height() * len(self.rows))
        return min(i, len(self.rows) - 1), min(j, len(self.cols) - 1)

    # -- painting ------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.paint_count += 1
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(self.theme.base))
        if self._image is None or self.plan is None:
            p.setPen(QColor(self.theme.disabled_text))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No valid GEMM yet"))
            p.end()
            return
        g = self.grid_rect()
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        p.drawImage(g, self._image)
        rows, cols = len(self.rows), len(self.cols)
        cw, ch = g.width() / cols, g.height() / rows
        grid_pen = QPen(QColor(self.theme.plot_background), 1)
        if cw >= 5 and ch >= 5:
            p.setPen(grid_pen)
            for j in range(1, cols):
                x = g.x() + j * cw
                p.drawLine(QPointF(x, g.top()), QPointF(x, g.bottom()))
            for i in range(1, rows):
                y = g.y() + i * ch
                p.drawLine(QPointF(g.left(), y), QPointF(g.right(), y))
        self._paint_labels(p, g, cw, ch)
        self._paint_current_outline(p, cw, ch)
        # the true M x N edge when the last row / column of tiles is padded
        pl = self.plan
        if not self.sampled and (pl.m % pl.tile.bm or pl.n % pl.tile.bn):
            pen = QPen(QColor(self.theme.text), 1.5, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            sx = g.width() / (self.schedule.tiles_n * pl.tile.bn)
            sy = g.height() / (self.schedule.tiles_m * pl.tile.bm)
            p.drawRect(QRectF(g.x(), g.y(), pl.n * sx, pl.m * sy))
        p.setPen(QPen(QColor(self.theme.mid), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(g)
        self._paint_axes(p, g)
        p.end()

    def _paint_labels(self, p: QPainter, g: QRectF, cw: float, ch: float) -> None:
        values = self.waves + 1 if self.mode == "wave" else self.sms
        widest = max(1, len(str(int(values.max()))) if values.size else 1)
        font = QFont(self.font())
        # the largest font (up to 1.5x) whose widest number fits a cell
        size = font.pointSizeF()
        for factor in (1.5, 1.25, 1.0, 0.85):  # smaller would be unreadable on a projector
            font.setPointSizeF(size * factor)
            fm = QFontMetrics(font)
            if fm.horizontalAdvance("8" * widest) + 4 <= cw and fm.height() <= ch:
                break
        else:
            return
        p.setFont(font)
        rgb = self._rgb
        show = np.ones(values.shape, bool) if self.current is None else self.waves <= self.current
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                if not show[i, j]:
                    continue
                p.setPen(text_on(rgb[i, j]))
                p.drawText(QRectF(g.x() + j * cw, g.y() + i * ch, cw, ch), Qt.AlignmentFlag.AlignCenter,
                           str(int(values[i, j])))

    def _paint_current_outline(self, p: QPainter, cw: float, ch: float) -> None:
        """A strong outline around each cell of the wave being played (when cells are big enough)."""
        if self.current is None or cw < 20 or ch < 20:  # small cells: the colour alone marks the wave
            return
        p.setPen(QPen(QColor(self.theme.text), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        idx = np.argwhere(self.waves == self.current)
        if len(idx) > 4000:
            return
        for i, j in idx:
            p.drawRect(self.cell_rect(int(i), int(j)).adjusted(1, 1, -1, -1))

    def _paint_axes(self, p: QPainter, g: QRectF) -> None:
        pl, s = self.plan, self.schedule
        p.setPen(QColor(self.theme.text))
        p.setFont(self.font())
        fm = QFontMetrics(self.font())
        top = self.tr("N = {n} → {cols} tiles of {bn}").format(n=num(pl.n), cols=num(s.tiles_n), bn=pl.tile.bn)
        if not self.to_scale:
            top += "  " + self.tr("(stretched: not to scale)")
        p.drawText(QRectF(g.x(), 0, max(g.width(), fm.horizontalAdvance(top) + 4), g.y() - 2),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, top)
        left = self.tr("M = {m} ↓ {rows} tiles of {bm}").format(m=num(pl.m), rows=num(s.tiles_m), bm=pl.tile.bm)
        p.save()
        p.translate(g.x() - 6, g.y())
        p.rotate(-90)
        length = max(g.height(), fm.horizontalAdvance(left) + 4)
        p.drawText(QRectF(-length, -fm.height() - 2, length, fm.height() + 2),
                   Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, left)
        p.restore()

    # -- tooltip ---------------------------------------------------------------------
    def tile_text(self, i: int, j: int) -> str:
        pl, s = self.plan, self.schedule
        row, col = int(self.rows[i]), int(self.cols[j])
        t = s.tile_index(row, col)
        bm, bn = pl.tile.bm, pl.tile.bn
        return self.tr(
            "<b>Tile {t}</b>: C rows {r0}–{r1}, columns {c0}–{c1}<br>"
            "CTA blockIdx = ({col}, {row}) · runs on <b>SM {sm}</b> (CTA slot {slot})<br>"
            "<b>wave {w} of {waves}</b>"
        ).format(t=num(t), r0=num(row * bm), r1=num(min(pl.m, (row + 1) * bm) - 1), c0=num(col * bn),
                 c1=num(min(pl.n, (col + 1) * bn) - 1), col=num(col), row=num(row), sm=s.sm_of(t),
                 slot=s.slot_of(t), w=num(s.wave_of(t) + 1), waves=num(s.waves))

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        if event.type() == QEvent.Type.ToolTip:
            cell = self.cell_at(event.pos().x(), event.pos().y())
            if cell is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.tile_text(*cell), self)
            return True
        return super().event(event)


class WaveStrip(QWidget):
    """CTA slots busy in each wave, time running right: the tail effect as a picture.

    Every wave takes the same time (equal tiles), so each gets an equal column;
    its filled height is the share of the GPU's CTA slots it keeps busy.
    """

    MAX_COLUMNS = 400

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_wave_strip")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        fm = QFontMetrics(self.font())
        self.setFixedHeight(fm.height() + 46)
        self.theme: Theme = LIGHT
        self.schedule: TileSchedule | None = None
        self.current: int | None = None
        self.waves: list[int] = []  # the wave shown in each column
        self.busy: list[int] = []  # tiles (busy CTA slots) in that wave

    def set_schedule(self, schedule: TileSchedule) -> None:
        self.schedule = schedule
        n = schedule.waves
        if n <= self.MAX_COLUMNS:
            self.waves = list(range(n))
        else:
            self.waves = sorted({round(i * (n - 1) / (self.MAX_COLUMNS - 1)) for i in range(self.MAX_COLUMNS)})
        self.busy = [len(schedule.tiles_in_wave(w)) for w in self.waves]
        self.update()

    def set_current(self, wave: int | None) -> None:
        self.current = wave
        self.update()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(self.theme.window))
        fm = QFontMetrics(self.font())
        s = self.schedule
        if s is None:
            p.end()
            return
        p.setPen(QColor(self.theme.text))
        title = self.tr("CTA slots busy in each wave ({slots} per wave; time →)").format(slots=num(s.slots))
        p.drawText(QRectF(2, 0, self.width() - 4, fm.height()), Qt.AlignmentFlag.AlignLeft, title)
        area = QRectF(1, fm.height() + 4, self.width() - 2, self.height() - fm.height() - 6)
        p.fillRect(area, QColor(self.theme.base))
        n = len(self.waves)
        cw = area.width() / n
        for i, (w, busy) in enumerate(zip(self.waves, self.busy)):
            x = area.x() + i * cw
            h = max(3.0, area.height() * busy / s.slots)  # a single busy slot stays visible
            color = QColor(wave_color(w))
            if self.current is not None and w != self.current:
                color.setAlphaF(0.35)
            p.fillRect(QRectF(x, area.bottom() - h, cw, h), color)
            label = f"{num(busy)} / {num(s.slots)}"
            if cw >= fm.horizontalAdvance(label) + 8:
                rgb = (color.red(), color.green(), color.blue())
                inside = h >= fm.height() + 2
                p.setPen(text_on(rgb) if inside and color.alphaF() == 1.0 else QColor(self.theme.text))
                rect = QRectF(x, area.bottom() - h if inside else area.bottom() - h - fm.height() - 2, cw,
                              fm.height() + 2)
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
            if cw >= 3:
                p.setPen(QPen(QColor(self.theme.mid), 1))
                p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
        if self.current is not None and self.current in self.waves:
            i = self.waves.index(self.current)
            p.setPen(QPen(QColor(self.theme.text), 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(area.x() + i * cw + 1, area.y() + 1, max(2.0, cw - 2), area.height() - 2))
        p.setPen(QPen(QColor(self.theme.mid), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(area)
        p.end()


class TilePanel(QWidget):
    """The tile grid, its colour choice and legend, and the wave player."""

    wave_changed = Signal(object)  # int or None

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_tile_panel")
        self.view = TileGridView(self)
        self.strip = WaveStrip(self)
        self.title = QLabel(self)
        self.title.setObjectName("gemm_tiles_title")
        self.title.setWordWrap(True)  # a long title (Russian, presentation mode) takes two lines, never cut
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setWordWrap(True)  # wraps rather than hide under the colour choice in a narrow column
        self.color_by = QComboBox(self)
        self.color_by.setObjectName("gemm_color_by")
        self.color_by.addItem(self.tr("Colour by wave"), "wave")
        self.color_by.addItem(self.tr("Colour by SM"), "sm")
        self.color_by.setToolTip(self.tr("Colour each tile by the wave it runs in, or by the SM that computes it."))
        self.legend = QLabel(self)
        self.legend.setObjectName("gemm_tiles_legend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self.first = QPushButton("|◀", self)
        self.first.setToolTip(self.tr("First wave"))
        self.back = QPushButton("◀", self)
        self.back.setToolTip(self.tr("Previous wave"))
        self.play = QPushButton(self.tr("▶ Play waves"), self)
        self.play.setObjectName("gemm_play")
        self.play.setCheckable(True)
        self.play.setToolTip(self.tr("Show the waves one after another, as the GPU runs them."))
        self.fwd = QPushButton("▶|", self)
        self.fwd.setToolTip(self.tr("Next wave"))
        self.all = QPushButton(self.tr("All waves"), self)
        self.all.setToolTip(self.tr("Show every tile coloured at once."))
        for b in (self.first, self.back, self.fwd):
            b.setFixedWidth(QFontMetrics(b.font()).horizontalAdvance("|◀◀") + 18)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("gemm_wave_slider")
        self.slider.setToolTip(self.tr("The wave to show"))
        self.wave_label = QLabel(self)
        self.wave_label.setObjectName("gemm_wave_label")
        self.wave_label.setWordWrap(True)  # two lines rather than cut (Russian, presentation mode)
        self.wave_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.wave_label.setWordWrap(True)

        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.color_by)
        player = QHBoxLayout()
        for w in (self.first, self.back, self.play, self.fwd, self.all):
            player.addWidget(w)
        player.addWidget(self.slider, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(head)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.legend)
        layout.addWidget(self.strip)
        layout.addLayout(player)
        layout.addWidget(self.wave_label)

        self.timer = QTimer(self)
        self._stride = 1  # waves per tick, set when playing starts
        self.timer.timeout.connect(self._tick)
        self.color_by.currentIndexChanged.connect(lambda _i: self._set_mode(self.color_by.currentData()))
        self.first.clicked.connect(lambda: self.show_wave(0))
        self.back.clicked.connect(lambda: self.step(-1))
        self.fwd.clicked.connect(lambda: self.step(1))
        self.all.clicked.connect(lambda: self.show_wave(None))
        self.play.toggled.connect(self._play_toggled)
        self.slider.valueChanged.connect(self._slider_moved)

    # -- plan --------------------------------------------------------------------
    def set_plan(self, plan: GemmPlan) -> None:
        self.view.set_plan(plan)
        s = self.view.schedule
        self.strip.set_schedule(s)
        self.strip.set_current(self.view.current)
        self.title.setText(self.tr("<b>Output matrix C</b> — {tiles} tiles ({tm} × {tn}) of {bm} × {bn} · "
                                   "one CTA per tile").format(
            tiles=num(s.tiles), tm=num(s.tiles_m), tn=num(s.tiles_n), bm=plan.tile.bm, bn=plan.tile.bn))
        self.slider.blockSignals(True)
        self.slider.setRange(0, min(s.waves, 2**31 - 2))  # 0 = all waves, w = wave w
        self.slider.setValue(0 if self.view.current is None else self.view.current + 1)
        self.slider.blockSignals(False)
        self._update_texts()

    @property
    def current(self) -> int | None:
        return self.view.current

    def show_wave(self, wave: int | None) -> None:
        self.view.set_current(wave)
        self.strip.set_current(self.view.current)
        self.slider.blockSignals(True)
        self.slider.setValue(0 if self.view.current is None else min(self.view.current + 1, self.slider.maximum()))
        self.slider.blockSignals(False)
        self._update_texts()
        self.wave_changed.emit(self.view.current)

    def step(self, delta: int) -> None:
        s = self.view.schedule
        if s is None:
            return
        cur = self.view.current
        if cur is None:  # from "all waves": forward starts at the first, back at the last
            target = 0 if delta > 0 else s.waves - 1
        else:
            target = min(max(cur + delta, 0), s.waves - 1)
        self.show_wave(target)

    def _slider_moved(self, value: int) -> None:
        self.show_wave(None if value == 0 else value - 1)

    def _set_mode(self, mode: str) -> None:
        self.view.set_mode(mode)
        self._update_texts()

    # -- playback --------------------------------------------------------------------
    def _play_toggled(self, on: bool) -> None:
        s = self.view.schedule
        if not on or s is None:
            self.timer.stop()
            self.play.setText(self.tr("▶ Play waves"))
            return
        self.play.setText(self.tr("⏸ Pause"))
        self._stride = max(1, -(-s.waves // 60))  # at most ~60 frames for very many waves
        self.timer.setInterval(int(max(120, min(900, 9000 / max(1, s.waves)))))
        if self.view.current is None or self.view.current >= s.waves - 1:
            self.show_wave(0)
        self.timer.start()

    def _tick(self) -> None:
        s = self.view.schedule
        cur = self.view.current
        if s is None or cur is None or cur >= s.waves - 1:
            self.play.setChecked(False)
            self.show_wave(None)  # the end of the run: every wave at once
            return
        self.show_wave(min(s.waves - 1, cur + self._stride))

    def stop(self) -> None:
        self.play.setChecked(False)

    # -- texts -------------------------------------------------------------------------
    def _update_texts(self) -> None:
        s = self.view.schedule
        if s is None:
            return
        cur = self.view.current
        if cur is None:
            self.wave_label.setText(self.tr("All {waves} wave(s) at once: {slots} tiles run together "
                                            "({sms} SMs × {b} CTA(s) each).").format(
                waves=num(s.waves), slots=num(s.slots), sms=s.sm_count, b=s.blocks_per_sm))
        else:
            tiles, busy = wave_sms(s, cur)
            idle = s.sm_count - busy
            text = self.tr("Wave {w} of {waves}: {tiles} tile(s) on {busy} SM(s)").format(
                w=num(cur + 1), waves=num(s.waves), tiles=num(tiles), busy=num(busy))
            if idle:
                text += self.tr("; {idle} SM(s) have nothing to do.").format(idle=num(idle))
            elif tiles < s.slots:
                text += self.tr("; {free} of {slots} CTA slots are empty.").format(
                    free=num(s.slots - tiles), slots=num(s.slots))
            else:
                text += self.tr(": every CTA slot busy.")
            self.wave_label.setText(text)
        sample = self.tr(" Too many tiles to draw one by one: every cell is a sample of the tiles around it.") \
            if self.view.sampled else ""
        if self.view.mode == "wave":
            shown = min(s.waves, len(WAVE_COLORS))
            wave = self.tr("wave {n}")
            items = " &nbsp; ".join(
                f'<span style="color:{wave_color(w)}">■</span>&nbsp;{wave.format(n=w + 1)}' for w in range(shown))
            more = self.tr(" … (the colours repeat every {n} waves; a tile big enough shows its wave number, hover for more)").format(
                n=len(WAVE_COLORS)) if s.waves > len(WAVE_COLORS) else self.tr(" (a tile big enough shows its wave number; hover for more)")
            self.legend.setText(items + more + sample)
        else:
            lut = _sm_lut(s.sm_count)
            first = QColor(*[int(v) for v in lut[0]]).name()
            last = QColor(*[int(v) for v in lut[-1]]).name()
            self.legend.setText(self.tr('<span style="color:{c0}">■</span>&nbsp;SM 0 → '
                                        '<span style="color:{c1}">■</span>&nbsp;SM {last}: the number in a tile is '
                                        'the SM that computes it.').format(c0=first, c1=last, last=s.sm_count - 1)
                                + sample)

    def apply_theme(self, theme: Theme) -> None:
        self.view.apply_theme(theme)
        self.strip.apply_theme(theme)
