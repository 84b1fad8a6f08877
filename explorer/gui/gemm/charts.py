"""The GEMM view's charts: the roofline, the time split, and bytes per memory level.

* :class:`RooflinePlot` (log-log): a compute roof per data type the GPU supports
  (the chosen one bold), the HBM and L2 bandwidth slopes, and the kernel at its
  HBM and its L2 arithmetic intensity, at the predicted throughput.
* :class:`TimeSplitView`: the predicted time split into Tensor Core (or FP32
  pipe) work at peak and everything else; the warp-instruction mix; each time
  term of the model with the largest (the bound) marked in words.
* :class:`LevelTrafficView`: bytes crossing each boundary HBM -> L2 -> shared ->
  registers -> math units, their FLOP per byte and the reuse the tiling buys.

Colour never carries meaning alone: every line and bar has its words beside it.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from explorer.gemm import GemmPlan, Roofline, gemm_points
from explorer.gui.common import palette as oi
from explorer.gui.common.bars import Meter, SegmentBar
from explorer.gui.common.numbers import bandwidth_text, count_text, figure, num, seconds_text, si_bytes, tflops_text, unit
from explorer.gui.common.plots import ThemedPlot
from explorer.gui.common.theme import LIGHT, Theme

HBM_COLOR = oi.VERMILLION
L2_COLOR = oi.BLUISH_GREEN


# ---------------------------------------------------------------------------
# Roofline
# ---------------------------------------------------------------------------
class RooflinePlot(ThemedPlot):
    """Attainable TFLOPS against FLOP/byte, both axes logarithmic."""

    declutter = True  # a small roofline shows fewer roof labels, never a pile of them

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_roofline")
        self.setMinimumSize(260, 200)
        item = self.getPlotItem()
        item.setLogMode(x=True, y=True)
        item.showGrid(x=True, y=True, alpha=0.18)
        self.plan: GemmPlan | None = None
        self.roofline: Roofline | None = None
        self.point_xy: dict[str, tuple[float, float]] = {}  # level -> (FLOP/B, TFLOPS) of the kernel
        self._label_font = QFont(self.font())
        self._label_font.setPointSizeF(self.font().pointSizeF() * 1.05)
        self.apply_theme(LIGHT)

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        fg = theme.plot_foreground
        item = self.getPlotItem()
        item.setLabel("bottom", self.tr("Arithmetic intensity (FLOP per byte, log scale)"), color=fg)
        item.setLabel("left", self.tr("TFLOPS (log scale)"), color=fg)
        if self.plan is not None:
            self.show_plan(self.plan, self.roofline)

    def _text(self, text: str, x: float, y: float, anchor, color: str, bold: bool = False) -> pg.TextItem:
        item = pg.TextItem(text, color=color, anchor=anchor)
        font = QFont(self._label_font)
        font.setBold(bold)
        item.setFont(font)
        item.setPos(math.log10(x), math.log10(y))
        self.addItem(item)
        return item

    def show_plan(self, plan: GemmPlan, roof: Roofline) -> None:
        self.plan, self.roofline = plan, roof
        item = self.getPlotItem()
        item.clear()
        t = self.theme
        points = {p.level: p for p in gemm_points(plan)}
        self.point_xy = {level: (p.intensity, p.tflops) for level, p in points.items()}
        lo, hi = roof.intensity_range(1, 2)
        for p in points.values():
            lo, hi = min(lo, p.intensity / 4), max(hi, p.intensity * 4)
        max_roof = max(r.tflops for r in roof.roofs)
        min_roof = min(r.tflops for r in roof.roofs)
        slopes = {s.level: s for s in roof.slopes}
        y_lo = min(slopes["hbm"].gbs * 1e9 * lo / 1e12, min_roof / 10)
        y_lo = min([y_lo] + [p.tflops / 3 for p in points.values()])
        y_hi = max_roof * 2.2

        # bandwidth slopes: from the left edge up to the highest roof
        for level, color, style in (("hbm", HBM_COLOR, Qt.PenStyle.SolidLine),
                                    ("l2", L2_COLOR, Qt.PenStyle.DashLine)):
            s = slopes[level]
            bw = s.gbs * 1e9 / 1e12  # TFLOPS per (FLOP/B)
            x_top = max_roof / bw
            item.plot([lo, x_top], [bw * lo, max_roof], pen=pg.mkPen(color, width=2.5, style=style))
            name = self.tr("HBM") if level == "hbm" else self.tr("L2")
            x_label = lo * 1.6
            self._text(f"{name} {bandwidth_text(s.gbs)}", x_label, bw * x_label * 1.15, (0.0, 1.0), color, True)

        # compute roofs, from where the steepest slope meets them; equal roofs share one label
        steepest = max(s.gbs for s in roof.slopes) * 1e9 / 1e12
        by_value: dict[float, list] = {}
        for r in roof.roofs:
            by_value.setdefault(round(r.tflops, 3), []).append(r)
        for value, roofs in sorted(by_value.items()):
            chosen = any(r.dtype == plan.dtype for r in roofs)
            color = t.curve if chosen else t.plot_foreground
            pen = pg.mkPen(color, width=3 if chosen else 1.2,
                           style=Qt.PenStyle.SolidLine if chosen else Qt.PenStyle.DotLine)
            item.plot([value / steepest, hi], [value, value], pen=pen)
            names = ", ".join(r.dtype.upper() for r in roofs)
            self._text(f"{names}: {tflops_text(value)}", hi / 1.05, value, (1.0, 1.0), color, chosen)

        # the kernel: at its HBM intensity (filled) and its L2 intensity (hollow)
        hbm, l2 = points["hbm"], points["l2"]
        marker = t.text
        item.plot([l2.intensity, hbm.intensity], [hbm.tflops, hbm.tflops],
                  pen=pg.mkPen(marker, width=1, style=Qt.PenStyle.DotLine))
        item.plot([hbm.intensity], [hbm.tflops], pen=None, symbol="o", symbolSize=16,
                  symbolBrush=pg.mkBrush(marker), symbolPen=pg.mkPen(t.plot_background, width=2))
        item.plot([l2.intensity], [l2.tflops], pen=None, symbol="d", symbolSize=15,
                  symbolBrush=pg.mkBrush(t.plot_background), symbolPen=pg.mkPen(marker, width=2.5))
        self._text(self.tr("this GEMM"), hbm.intensity, hbm.tflops / 1.3, (0.5, 0.0), marker, True)
        self._text(self.tr("L2"), l2.intensity / 1.2, l2.tflops, (1.0, 0.5), marker)
        item.setXRange(math.log10(lo), math.log10(hi), padding=0.01)
        item.setYRange(math.log10(y_lo), math.log10(y_hi), padding=0.01)


# ---------------------------------------------------------------------------
# Stacked bar
# ---------------------------------------------------------------------------
class StackBar(SegmentBar):
    """Segments (name, value, colour) side by side; shares written inside where they fit."""

    HINT_WIDTH = 260

    def __init__(self, parent: QWidget | None = None, height: int = 26):
        super().__init__(parent, height)
        self.segments: list[tuple[str, float, str]] = []
        self.unit = ""

    def set_segments(self, segments: list[tuple[str, float, str]], unit: str = "") -> None:
        self.segments = [(n, float(v), c) for n, v, c in segments if v > 0]
        self.unit = unit
        self.update()

    @property
    def total(self) -> float:
        return sum(v for _n, v, _c in self.segments)

    def _rects(self) -> list[tuple[str, float, str, QRectF]]:
        spans = self.spans([v for _n, v, _c in self.segments])
        return [(name, v, c, QRectF(x, 1, width, self.height() - 2))
                for (name, v, c), (x, width) in zip(self.segments, spans)]

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(self.theme.base))
        fm = QFontMetrics(self.font())
        total = self.total
        for name, v, c, r in self._rects():
            p.fillRect(r, QColor(c))
            share = f"{100 * v / total:.0f}%"
            label = f"{name} {share}"
            text = label if fm.horizontalAdvance(label) + 8 <= r.width() else share
            if fm.horizontalAdvance(text) + 6 <= r.width():
                color = QColor(c)
                p.setPen(QColor("#000000") if color.lightness() > 140 else QColor("#FFFFFF"))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        self.draw_frame(p)
        p.end()

    def tooltip_at(self, x: int) -> str:
        for name, v, _c, r in self._rects():
            if r.left() <= x <= r.right():
                return f"<b>{name}</b>: {self.format_value(v)} ({num(100 * v / self.total, 1)}%)"
        return ""

    def format_value(self, v: float) -> str:
        if self.unit == "s":
            return seconds_text(v)
        return f"{count_text(v)} {self.unit}".strip()


def _legend_html(items: list[tuple[str, str]]) -> str:
    return " &nbsp; ".join(f'<span style="color:{c}">■</span>&nbsp;{name.replace(" ", "&nbsp;")}'
                           for name, c in items)


# ---------------------------------------------------------------------------
# Time split
# ---------------------------------------------------------------------------
INSTRUCTION_COLORS = {
    "mma": oi.BLUE, "ffma": oi.BLUE, "global_to_shared": oi.ORANGE, "shared_to_registers": oi.SKY_BLUE,
    "barrier": oi.REDDISH_PURPLE, "address_and_loop": oi.BLUISH_GREEN, "epilogue": oi.YELLOW,
}
OTHER_COLOR = "#9A9A9A"


class TimeSplitView(QGroupBox):
    """Tensor Core work beside everything else, in time and in instructions, and the model's terms."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_time_split")
        self.setTitle(self.tr("Tensor Cores beside everything else"))
        self.time_bar = StackBar(self)
        self.time_bar.setObjectName("gemm_time_bar")
        self.time_text = QLabel(self)
        self.time_text.setObjectName("gemm_time_text")
        self.time_text.setWordWrap(True)
        self.time_text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.instr_bar = StackBar(self)
        self.instr_bar.setObjectName("gemm_instruction_bar")
        self.instr_legend = QLabel(self)
        self.instr_legend.setWordWrap(True)
        self.instr_legend.setTextFormat(Qt.TextFormat.RichText)
        self.instr_legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.terms_title = QLabel(self)
        self.terms_title.setWordWrap(True)
        self.terms = QGridLayout()
        self.terms.setHorizontalSpacing(8)
        self.terms.setVerticalSpacing(3)
        self.term_rows: list[tuple[QLabel, Meter]] = []  # largest term first
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addWidget(self.time_bar)
        layout.addWidget(self.time_text)
        layout.addWidget(self.instr_bar)
        layout.addWidget(self.instr_legend)
        layout.addWidget(self.terms_title)
        layout.addLayout(self.terms)
        layout.addStretch(1)
        self.theme: Theme = LIGHT

    def term_names(self) -> dict[str, str]:
        return {
            "tensor_core": self.tr("Tensor Core math"),
            "fp32_pipe": self.tr("FP32 math (CUDA cores)"),
            "issue": self.tr("instruction issue"),
            "shared": self.tr("shared-memory bandwidth"),
            "hbm": self.tr("HBM bandwidth"),
            "l2": self.tr("L2 bandwidth"),
            "latency": self.tr("latency (waves one after another)"),
        }

    def instruction_names(self) -> dict[str, str]:
        return {
            "mma": self.tr("MMA (Tensor Cores)"), "ffma": self.tr("FFMA (FP32 math)"),
            "global_to_shared": self.tr("global → shared copies"),
            "shared_to_registers": self.tr("shared → register loads"), "barrier": self.tr("barriers"),
            "address_and_loop": self.tr("address math and loop"), "epilogue": self.tr("epilogue"),
        }

    def show_plan(self, plan: GemmPlan) -> None:
        tc = plan.resources.dtype != "fp32"
        unit = self.tr("Tensor Cores") if tc else self.tr("FP32 pipes")
        split = plan.time_split
        self.time_bar.set_segments([(unit, split["math"], oi.BLUE),
                                    (self.tr("everything else"), split["other"], OTHER_COLOR)], "s")
        self.time_text.setText(self.tr(
            "Predicted {total}: the {unit} need {math} at their peak ({share} of the time); the other {other} go "
            "to moving data, waiting and the last wave. Tensor Core instructions are {ishare} of all "
            "warp-instructions ({mma} of {total_i}).").format(
            total=seconds_text(plan.predicted_seconds), unit=unit, math=seconds_text(split["math"]),
            share=f"{100 * split['math_fraction']:.0f}%", other=seconds_text(split["other"]),
            ishare=f"{100 * plan.tensor_core_instruction_fraction:.0f}%" if tc else "0%",
            mma=count_text(plan.mma_instructions), total_i=count_text(plan.total_instructions)))
        names = self.instruction_names()
        segs = [(names.get(k, k), v, INSTRUCTION_COLORS.get(k, OTHER_COLOR)) for k, v in plan.instructions.items()]
        self.instr_bar.set_segments(segs, self.tr("warp-instructions"))
        self.instr_legend.setText(self.tr("Warp-instructions: ") + _legend_html([(n, c) for n, _v, c in segs]))
        # the model's time terms: the largest is the bound
        self.terms_title.setText(self.tr("<b>What limits the time</b> (the model's terms; the largest is the bound):"))
        longest = max(plan.times.values())
        tnames = self.term_names()
        for row in range(len(plan.times), len(self.term_rows)):  # fewer terms than before: hide the rest
            for w in self.term_rows[row]:
                w.hide()
        for row, (key, seconds) in enumerate(sorted(plan.times.items(), key=lambda kv: -kv[1])):
            if row >= len(self.term_rows):
                label, meter = QLabel(self), Meter(oi.SKY_BLUE, self, height=20)
                label.setWordWrap(True)  # a long term name (Russian) takes two lines, not the column's width
                meter.apply_theme(self.theme)
                self.terms.addWidget(label, row, 0)
                self.terms.addWidget(meter, row, 1)
                self.term_rows.append((label, meter))
            label, meter = self.term_rows[row]
            bound = key == plan.bound_term
            label.setText(tnames.get(key, key))
            label.setObjectName(f"gemm_term_{key}")
            meter.setObjectName(f"gemm_term_bar_{key}")
            meter.color = oi.VERMILLION if bound else oi.SKY_BLUE
            text = seconds_text(seconds) + ("  ← " + self.tr("the bound") if bound else "")
            meter.set_value(seconds / longest if longest else 0.0, text)
            f = QFont(label.font())
            f.setBold(bound)
            label.setFont(f)
            label.show()
            meter.show()
        self.terms.setColumnStretch(1, 1)

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.time_bar.apply_theme(theme)
        self.instr_bar.apply_theme(theme)
        for _label, meter in self.term_rows:
            meter.apply_theme(theme)


# ---------------------------------------------------------------------------
# Bytes per level
# ---------------------------------------------------------------------------
LEVEL_COLORS = {"hbm": HBM_COLOR, "l2": L2_COLOR, "shared": oi.SKY_BLUE, "registers": oi.BLUE}


class LevelTrafficView(QGroupBox):
    """Rows HBM -> L2 -> shared -> registers -> math: bytes (log bar), FLOP/byte, reuse."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_levels")
        self.setTitle(self.tr("Bytes per level: where the data comes from"))
        grid = self.grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(4)
        heads = (self.tr("Path"), self.tr("Bytes moved (log scale)"), self.tr("FLOP/byte"), self.tr("Reuse"))
        tips = ("", self.tr("Bytes crossing this boundary over the whole GEMM (reads toward the math units + "
                            "writes of C)."),
                self.tr("FLOPs of the whole GEMM per byte crossing this boundary."),
                self.tr("How many times each operand byte read here is used: 2·M·N·K·element size / bytes read. "
                        "An untiled GEMM that read every operand from memory would have reuse 1."))
        for col, (text, tip) in enumerate(zip(heads, tips)):
            label = QLabel(f"<b>{text}</b>", self)
            label.setToolTip(tip)
            grid.addWidget(label, 0, col)
        self.rows: dict[str, dict[str, QWidget]] = {}
        self.footer = QLabel(self)
        self.footer.setObjectName("gemm_levels_footer")
        self.footer.setWordWrap(True)
        self.footer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addLayout(grid)
        layout.addWidget(self.footer)
        layout.addStretch(1)
        grid.setColumnStretch(1, 1)
        self.theme: Theme = LIGHT

    def path_names(self) -> dict[str, str]:
        return {"hbm": self.tr("HBM → L2"), "l2": self.tr("L2 → shared memory"),
                "shared": self.tr("shared memory → registers"), "registers": self.tr("registers → math units")}

    def show_plan(self, plan: GemmPlan) -> None:
        names = self.path_names()
        if plan.dtype != "fp32":
            names["registers"] = self.tr("registers → Tensor Cores")
        biggest = max(t.bytes for t in plan.traffic)
        smallest = min(t.bytes for t in plan.traffic)
        lo = math.log10(max(1.0, smallest / 10))
        span = max(1e-9, math.log10(biggest) - lo)
        for r, t in enumerate(plan.traffic, start=1):
            row = self.rows.get(t.level)
            if row is None:
                row = {"path": QLabel(self), "bar": Meter(LEVEL_COLORS.get(t.level, oi.BLUE), self, height=22),
                       "intensity": QLabel(self), "reuse": QLabel(self)}
                row["bar"].apply_theme(self.theme)
                for key in ("intensity", "reuse"):
                    row[key].setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.grid.addWidget(row["path"], r, 0)
                self.grid.addWidget(row["bar"], r, 1)
                self.grid.addWidget(row["intensity"], r, 2)
                self.grid.addWidget(row["reuse"], r, 3)
                self.rows[t.level] = row
            row["path"].setText(names.get(t.level, t.path))
            row["bar"].set_value((math.log10(t.bytes) - lo) / span, si_bytes(t.bytes))
            row["intensity"].setText(figure(t.intensity))
            row["reuse"].setText(f"×{figure(t.reuse)}")
            for w in row.values():
                w.setToolTip(self.tr("{path}: read {rd}, written {wr}. {note}").format(
                    path=t.path, rd=si_bytes(t.read_bytes), wr=si_bytes(t.write_bytes), note=t.note))
        self.footer.setText(self.tr(
            "Minimum HBM traffic (A and B read once, C written once): {min} → arithmetic intensity {ai} FLOP/byte. "
            "The model's HBM traffic: {hbm} (L2 hit rate of the tile loads {hit}).").format(
            min=si_bytes(plan.min_hbm_bytes), ai=figure(plan.arithmetic_intensity), hbm=si_bytes(plan.hbm_bytes),
            hit=f"{100 * plan.l2_hit_rate:.0f}%"))

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for row in self.rows.values():
            row["bar"].apply_theme(theme)
