"""The GEMM view's charts: the roofline, the time split, and bytes per memory level.

* :class:`RooflinePlot` (log-log): a compute roof per data type the GPU supports
  (the chosen one bold), the HBM, L2 and shared-memory bandwidth slopes, the
  kernel at its HBM, L2 and shared-memory arithmetic intensity at the predicted
  throughput, and the roof that binds it (``plan_roofs``) at the model's rate.
* :class:`TimeSplitView`: the predicted time split into Tensor Core (or FP32
  pipe) work at peak and everything else; the warp-instruction mix; each time
  term of the model with the largest (the bound) marked in words, then what the
  main loop does not hide (pipeline fill, epilogue).
* :class:`LevelTrafficView`: bytes crossing each boundary of the path's way
  (``LevelTraffic.places``: HBM -> L2 -> shared -> registers -> math units, or
  shared -> Tensor Cores through descriptors on the wgmma path), their FLOP per
  byte and the reuse the tiling buys ("—" where no operand is read).

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

from explorer.gemm import GemmPlan, Roofline, gemm_points, plan_roofs
from explorer.gui.common import palette as oi
from explorer.gui.common.bars import Meter, SegmentBar
from explorer.texts.numbers import bandwidth_text, count_text, figure, num, seconds_text, si_bytes, tflops_text
from explorer.gui.common.plots import ThemedPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.gemm.model_texts import traffic_path

HBM_COLOR = oi.VERMILLION
L2_COLOR = oi.BLUISH_GREEN
SHARED_COLOR = oi.ORANGE  # not sky blue: that is the chosen roof in the dark theme


# ---------------------------------------------------------------------------
# Roofline
# ---------------------------------------------------------------------------
SLOPE_STYLES = {"hbm": (HBM_COLOR, Qt.PenStyle.SolidLine), "l2": (L2_COLOR, Qt.PenStyle.DashLine),
                "shared": (SHARED_COLOR, Qt.PenStyle.DashDotLine)}
POINT_SYMBOLS = {"hbm": "o", "l2": "d", "shared": "s"}  # ● ◆ ■ in the caption
THIS_GEMM_BELOW = 1.3  # "this GEMM" hangs from 1/1.3 of the kernel's TFLOPS, under its marker
TEXT_MARGIN = 4  # px around a pg.TextItem's text (its QGraphicsTextItem's document margin)
BOUND_COLOR = oi.REDDISH_PURPLE


class RooflinePlot(ThemedPlot):
    """Attainable TFLOPS against FLOP/byte, both axes logarithmic.

    The datasheet roofs and the HBM, L2 and shared-memory slopes (``roofline``),
    the kernel at its intensity against each of those levels, and the roof that
    binds it at the rate the model uses (``plan_roofs``, ``bound=True``), drawn
    thick in reddish purple and named.
    """

    declutter = True  # a small roofline shows fewer roof labels, never a pile of them

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_roofline")
        self.setMinimumSize(260, 140)  # a short plot rather than its legend and caption over it
        item = self.getPlotItem()
        item.setLogMode(x=True, y=True)
        item.showGrid(x=True, y=True, alpha=0.18)
        self.plan: GemmPlan | None = None
        self.roofline: Roofline | None = None
        self.point_xy: dict[str, tuple[float, float]] = {}  # level -> (FLOP/B, TFLOPS) of the kernel
        self.slopes_drawn: dict[str, float] = {}  # level -> GB/s of each slope on screen
        self.bound_roof: dict | None = None  # the plan_roofs entry drawn as the bound (None: it has no line)
        self.roof_labels: dict[str, tuple] = {}  # compute roof label -> its anchor (above or below its line)
        self._label_font = QFont(self.font())
        self._label_font.setPointSizeF(self.font().pointSizeF() * 1.05)
        self.legend_entries: list[tuple[str, str, Qt.PenStyle, bool]] = []  # (text, colour, line style, the bound)
        self._placed_for = None  # the view box size the roof labels were placed for
        # hidden (the GEMM tab behind the Explorer at start), a resize or a theme change only marks the labels
        # stale: they are placed again when the plot is shown (the window's start once paid ~0.3 s of CPU
        # placing them three times for a tab nobody had opened)
        self._stale = False
        item.getViewBox().sigResized.connect(self._view_resized)
        self.apply_theme(LIGHT)

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        fg = theme.plot_foreground
        item = self.getPlotItem()
        item.setLabel("bottom", self.tr("Arithmetic intensity (FLOP per byte, log scale)"), color=fg)
        item.setLabel("left", self.tr("TFLOPS (log scale)"), color=fg)
        if self.plan is not None:
            self._replot()

    def _text(self, text: str, x: float, y: float, anchor, color: str, bold: bool = False) -> pg.TextItem:
        item = pg.TextItem(text, color=color, anchor=anchor)
        font = QFont(self._label_font)
        font.setBold(bold)
        item.setFont(font)
        item.setPos(math.log10(x), math.log10(y))
        self.addItem(item)
        return item

    def slope_names(self) -> dict[str, str]:
        return {"hbm": self.tr("HBM"), "l2": self.tr("L2"), "shared": self.tr("shared")}

    def show_plan(self, plan: GemmPlan, roof: Roofline) -> None:
        self.plan, self.roofline = plan, roof
        item = self.getPlotItem()
        item.clear()
        t = self.theme
        points = {p.level: p for p in gemm_points(plan)}
        self.point_xy = {level: (p.intensity, p.tflops) for level, p in points.items()}
        roofs = plan_roofs(plan)
        lo, hi = roof.intensity_range(1, 2)
        for p in points.values():
            lo, hi = min(lo, p.intensity / 4), max(hi, p.intensity * 4)
        max_roof = max(r.tflops for r in roof.roofs)
        min_roof = min(r.tflops for r in roof.roofs)
        slopes = {s.level: s for s in roof.slopes}
        y_lo = min(slopes["hbm"].gbs * 1e9 * lo / 1e12, min_roof / 10)
        y_lo = min([y_lo] + [p.tflops / 3 for p in points.values()])
        y_hi = max_roof * (2.2 if self.height() >= 260 else 3.5)  # room above the top roof for its name

        # bandwidth slopes: from the left edge up to the highest roof, named in the legend under the plot
        self.legend_entries = []
        names = self.slope_names()
        self.slopes_drawn = {}
        for level in ("hbm", "l2", "shared"):
            if level not in slopes:
                continue
            s = slopes[level]
            color, style = SLOPE_STYLES[level]
            bw = s.gbs * 1e9 / 1e12  # TFLOPS per (FLOP/B)
            x_top = max_roof / bw
            item.plot([lo, x_top], [bw * lo, max_roof], pen=pg.mkPen(color, width=2.5, style=style))
            self.legend_entries.append((f"{names[level]} {bandwidth_text(s.gbs)}", color, style, False))
            self.slopes_drawn[level] = s.gbs

        # compute roofs, from where the steepest slope drawn meets them; equal roofs share one label
        steepest = max(self.slopes_drawn.values()) * 1e9 / 1e12
        by_value: dict[float, list] = {}
        for r in roof.roofs:
            by_value.setdefault(round(r.tflops, 3), []).append(r)
        self.bound_roof = next((r for r in roofs if r["bound"] and r["kind"] != "latency"), None)
        self._roof_labels(plan, by_value, steepest, points, lo, hi, y_lo, y_hi)

        # the roof that binds, at the rate the model uses (sustained clock, derated bandwidth)
        b = self.bound_roof
        if b is not None:  # the line, named in the legend under the plot
            pen = pg.mkPen(BOUND_COLOR, width=5)
            name = self.roof_names().get(b["term"], b["label"])
            if b["kind"] == "compute":
                x0 = min(p.intensity for p in points.values()) / 2.5
                xs_, ys_ = [x0, hi], [b["peak_tflops"], b["peak_tflops"]]
                rate = tflops_text(b["peak_tflops"])
            else:
                bw = b["gbs"] * 1e9 / 1e12
                x1 = min(hi, max_roof / bw)
                xs_, ys_ = [lo, x1], [bw * lo, bw * x1]
                rate = bandwidth_text(b["gbs"])
            item.plot(xs_, ys_, pen=pen)
            self.legend_entries.append((self.tr("bound: {name}, {rate}").format(name=name, rate=rate), BOUND_COLOR,
                                        Qt.PenStyle.SolidLine, True))

        # the kernel: at its HBM (filled), L2 (hollow diamond) and shared-memory (hollow square) intensity
        marker = t.text
        xs = sorted(p.intensity for p in points.values())
        y = points["hbm"].tflops
        item.plot([xs[0], xs[-1]], [y, y], pen=pg.mkPen(marker, width=1, style=Qt.PenStyle.DotLine))
        for level, p in points.items():
            filled = level == "hbm"
            item.plot([p.intensity], [p.tflops], pen=None, symbol=POINT_SYMBOLS.get(level, "o"),
                      symbolSize=16 if filled else 14,
                      symbolBrush=pg.mkBrush(marker if filled else t.plot_background),
                      symbolPen=pg.mkPen(t.plot_background if filled else marker, width=2 if filled else 2.5))
        hbm = points["hbm"]
        self._text(self.tr("this GEMM"), hbm.intensity, hbm.tflops / THIS_GEMM_BELOW, (0.5, 0.0), marker, True)
        item.setXRange(math.log10(lo), math.log10(hi), padding=0.01)
        item.setYRange(math.log10(y_lo), math.log10(y_hi), padding=0.01)
        self._declutter(item.getViewBox())  # the labels just added: an unchanged range sends no signal that would

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        plan = getattr(self, "plan", None)  # pyqtgraph resizes once before __init__ has set it
        if event is not None and plan is not None and event.size().height() != event.oldSize().height():
            self._replot()  # the roof labels' room depends on the height

    def _view_resized(self, *_args) -> None:
        """The view box got its final size after the widget's resize: place the labels for it."""
        size = self.getPlotItem().getViewBox().size()
        if self.plan is not None and size != self._placed_for:
            if self._replot():
                self._placed_for = size

    def _replot(self) -> bool:
        """Draw the plan again now if the plot is on screen (True), else when it is shown."""
        if not self.isVisible():
            self._stale = True
            return False
        self._stale = False
        self.show_plan(self.plan, self.roofline)
        return True

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._stale and self.plan is not None:
            self._replot()
            self._placed_for = self.getPlotItem().getViewBox().size()

    def _roof_labels(self, plan, by_value: dict, steepest: float, points: dict, lo, hi, y_lo, y_hi) -> None:
        """Each compute roof's line and name; no name over another line, name or the kernel's points.

        The chosen type's roof is named left of where its line starts (above the slopes, a corner nothing else
        uses); the others at the right edge, above their line or else below it, or not at all when the roofs
        crowd together on a small plot (their lines stay).
        """
        t, item = self.theme, self.getPlotItem()
        # the plot area: the view box once it is laid out (it follows a resize late: ``_view_resized`` places
        # the labels again then), before that the widget less its axes
        view = item.getViewBox()
        axis_h = item.getAxis("bottom").height() or 45.0
        axis_w = item.getAxis("left").width() or 55.0
        plot_h = view.height() if view.height() > 1 else max(60.0, self.height() - axis_h - 12)
        plot_w = view.width() if view.width() > 1 else max(80.0, self.width() - axis_w - 12)
        px_y = plot_h / max(1e-9, math.log10(y_hi / y_lo))
        px_x = plot_w / max(1e-9, math.log10(hi / lo))
        bold = QFont(self._label_font)
        bold.setBold(True)
        # from a label's anchor on its line to the far edge of its text: a TextItem's text sits inside a margin
        text_h = QFontMetrics(self._label_font).height() + TEXT_MARGIN
        taken = [(math.log10(v) * px_y - 2, math.log10(v) * px_y + 2) for v in by_value]  # (low, high) pixels
        if self.bound_roof is not None and self.bound_roof["kind"] == "compute":
            yb = math.log10(self.bound_roof["peak_tflops"]) * px_y
            taken.append((yb - 4, yb + 4))
        for p in points.values():
            yp = math.log10(p.tflops) * px_y
            taken.append((yp - 9, yp + 9))  # the marker
        hbm = math.log10(points["hbm"].tflops / THIS_GEMM_BELOW) * px_y
        taken.append((hbm - text_h, hbm - TEXT_MARGIN))  # "this GEMM", hanging under the filled marker
        top, bottom = math.log10(y_hi) * px_y, math.log10(y_lo) * px_y
        taken += [(top - 2, top + 1e6), (bottom - 1e6, bottom + 2)]  # the plot's edges
        self.roof_labels = {}
        # the chosen type's roof first (it is always named), then the others, where they cover nothing
        order = sorted(by_value.items(), key=lambda kv: (not any(r.dtype == plan.dtype for r in kv[1]), -kv[0]))
        for value, group in order:
            chosen = any(r.dtype == plan.dtype for r in group)
            color = t.curve if chosen else t.plot_foreground
            pen = pg.mkPen(color, width=3 if chosen else 1.2,
                           style=Qt.PenStyle.SolidLine if chosen else Qt.PenStyle.DotLine)
            start = value / steepest
            item.plot([start, hi], [value, value], pen=pen)
            y = math.log10(value) * px_y
            if chosen:
                text = f"{plan.dtype.upper()}: {tflops_text(value)}"
                room = (math.log10(start / lo) * px_x) - 10
                if QFontMetrics(bold).horizontalAdvance(text) <= room:
                    self._text(text, start / 1.08, value, (1.0, 0.5), color, True)
                    self.roof_labels[text] = "left"
                    continue
            else:
                text = f"{', '.join(r.dtype.upper() for r in group)}: {tflops_text(value)}"
            sides = (("above", (1.0, 1.0), (y + 3, y + text_h)), ("below", (1.0, 0.0), (y - text_h, y - 3)))
            overlap = {side: sum(max(0.0, min(b, span[1]) - max(a, span[0])) for a, b in taken)
                       for side, _anchor, span in sides}
            side, anchor, span = min(sides, key=lambda c: overlap[c[0]])
            if overlap[side] == 0 or chosen:  # the chosen roof is always named, where it covers least
                taken.append(span)
                self._text(text, hi / 1.05, value, anchor, color, chosen)
                self.roof_labels[text] = side

    def legend_html(self) -> str:
        """The slopes and the bound as a line of coloured entries (a label under the plot: never over a line)."""
        marks = {Qt.PenStyle.SolidLine: "——", Qt.PenStyle.DashLine: "– –", Qt.PenStyle.DashDotLine: "–·–"}
        return " &nbsp; ".join(
            f'<span style="color:{color}"><b>{"━━" if bold else marks.get(style, "——")}</b></span>&nbsp;'
            + (f"<b>{text}</b>" if bold else text.replace(" ", "&nbsp;"))  # the bound's long name may wrap
            for text, color, style, bold in self.legend_entries)

    def roof_names(self) -> dict[str, str]:
        """``plan_roofs`` terms, as the bound's label on the plot names them."""
        return {"tensor_core": self.tr("Tensor Cores (sustained)"), "fp32_pipe": self.tr("FP32 pipes (sustained)"),
                "issue": self.tr("instruction issue"), "shared": self.tr("shared-memory bandwidth"),
                "l2": self.tr("L2 bandwidth"), "hbm": self.tr("HBM bandwidth"),
                "latency": self.tr("latency (memory in flight)")}


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


def fit_or_wrap(label: QLabel, widest: int) -> None:
    """``label`` on one line where its text fits in ``widest`` pixels, word-wrapped beyond (never wider)."""
    label.setWordWrap(True)
    natural = label.fontMetrics().horizontalAdvance(label.text())
    label.setMinimumWidth(min(natural + 4, widest))


def _legend_html(items: list[tuple[str, str]]) -> str:
    return " &nbsp; ".join(f'<span style="color:{c}">■</span>&nbsp;{name.replace(" ", "&nbsp;")}'
                           for name, c in items)


# ---------------------------------------------------------------------------
# Time split
# ---------------------------------------------------------------------------
INSTRUCTION_COLORS = {
    "mma": oi.BLUE, "ffma": oi.BLUE, "global_to_shared": oi.ORANGE, "shared_to_registers": oi.SKY_BLUE,
    "barrier": oi.REDDISH_PURPLE, "address_and_loop": oi.BLUISH_GREEN, "epilogue": oi.YELLOW,
    "mma_sync": oi.VERMILLION,
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
        self.term_rows: list[tuple[QLabel, Meter]] = []  # largest main-loop term first, then the overheads
        self.overhead_title = QLabel(self)
        self.overhead_title.setObjectName("gemm_overheads_title")
        self.overhead_title.setWordWrap(True)
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
            "fill_and_epilogue": self.tr("pipeline fill and epilogue"),
        }

    def overhead_names(self) -> dict[str, str]:
        """``GemmPlan.overheads``: what the main loop does not hide."""
        return {"pipeline_fill": self.tr("pipeline fill"), "epilogue": self.tr("epilogue")}

    def instruction_names(self) -> dict[str, str]:
        return {
            "mma": self.tr("MMA (Tensor Cores)"), "ffma": self.tr("FFMA (FP32 math)"),
            "global_to_shared": self.tr("global → shared copies"),
            "shared_to_registers": self.tr("shared → register loads"), "barrier": self.tr("barriers"),
            "address_and_loop": self.tr("address math and loop"), "epilogue": self.tr("epilogue"),
            "mma_sync": self.tr("MMA fences and waits"),
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
        # the model's time terms: the largest is the bound; then what the main loop does not hide
        self.terms_title.setText(self.tr("<b>What limits the time</b> (the model's terms; the largest is the bound):"))
        longest = max(list(plan.times.values()) + [sum(plan.overheads.values())])
        tnames, onames = self.term_names(), self.overhead_names()
        together = plan.bound_term == "fill_and_epilogue"
        rows = [(key, tnames.get(key, key), seconds, key == plan.bound_term)
                for key, seconds in sorted(plan.times.items(), key=lambda kv: -kv[1])]
        rows += [(key, onames.get(key, key), seconds, together) for key, seconds in plan.overheads.items()]
        self.overhead_title.setText(self.tr("<b>+ not hidden by the main loop</b> (added to the largest term):"))
        for row in range(len(rows), len(self.term_rows)):  # fewer terms than before: hide the rest
            for w in self.term_rows[row]:
                w.hide()
        self.terms.removeWidget(self.overhead_title)
        for row, (key, name, seconds, bound) in enumerate(rows):
            grid_row = row + (1 if row >= len(plan.times) else 0)
            if row >= len(self.term_rows):
                label, meter = QLabel(self), Meter(oi.SKY_BLUE, self, height=20)
                label.setWordWrap(True)  # a long term name (Russian) takes two lines, not the column's width
                meter.apply_theme(self.theme)
                self.term_rows.append((label, meter))
            label, meter = self.term_rows[row]
            self.terms.addWidget(label, grid_row, 0)
            self.terms.addWidget(meter, grid_row, 1)
            label.setText(name)
            label.setObjectName(f"gemm_term_{key}")
            meter.setObjectName(f"gemm_term_bar_{key}")
            overhead = row >= len(plan.times)
            meter.color = oi.VERMILLION if bound else (oi.YELLOW if overhead else oi.SKY_BLUE)
            mark = self.tr("the bound (together)") if bound and overhead else self.tr("the bound")
            text = seconds_text(seconds) + ("  ← " + mark if bound else "")
            meter.set_value(seconds / longest if longest else 0.0, text)
            f = QFont(label.font())
            f.setBold(bound)
            label.setFont(f)
            fit_or_wrap(label, 170)
            label.show()
            meter.show()
        self.terms.addWidget(self.overhead_title, len(plan.times), 0, 1, 2)
        self.overhead_title.setVisible(bool(plan.overheads))
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
            label.setWordWrap(True)  # a long heading wraps rather than widen the column
            grid.addWidget(label, 0, col, Qt.AlignmentFlag.AlignBottom)
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

    def show_plan(self, plan: GemmPlan) -> None:
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
                row["path"].setWordWrap(True)  # "shared memory → Tensor Cores (descriptors)" wraps in a narrow column
                self.grid.addWidget(row["path"], r, 0)
                self.grid.addWidget(row["bar"], r, 1)
                self.grid.addWidget(row["intensity"], r, 2)
                self.grid.addWidget(row["reuse"], r, 3)
                self.rows[t.level] = row
            row["path"].setText(traffic_path(t.places, t.via))
            fit_or_wrap(row["path"], 170)
            row["bar"].set_value((math.log10(t.bytes) - lo) / span, si_bytes(t.bytes))
            row["intensity"].setText(figure(t.intensity))
            row["reuse"].setText(f"×{figure(t.reuse)}" if t.reuse > 0 else "—")
            tip = self.tr("{path}: read {rd}, written {wr}. {note}").format(
                path=traffic_path(t.places, t.via), rd=si_bytes(t.read_bytes), wr=si_bytes(t.write_bytes), note=t.note)
            for w in row.values():
                w.setToolTip(tip)
            if t.reuse <= 0:
                row["reuse"].setToolTip(self.tr("No operand bytes are read here, so there is no reuse to count. "
                                                "{tip}").format(tip=tip))
        self.footer.setText(self.tr(
            "Minimum HBM traffic (A and B read once, C written once): {min} → arithmetic intensity {ai} FLOP/byte. "
            "The model's HBM traffic: {hbm} (L2 hit rate of the tile loads {hit}).").format(
            min=si_bytes(plan.min_hbm_bytes), ai=figure(plan.arithmetic_intensity), hbm=si_bytes(plan.hbm_bytes),
            hit=f"{100 * plan.l2_hit_rate:.0f}%"))

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for row in self.rows.values():
            row["bar"].apply_theme(theme)
