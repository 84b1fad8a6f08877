"""The GEMM main loop's pipeline as a small diagram: how the operands reach the math units.

Drawn from the plan's ``Pipeline.steps`` (the core says which steps the path
has) with the numbers of ``register_budget``, the shared-memory breakdown and
the overheads beside each step. On Hopper's wgmma path: global memory -> TMA
(a producer warp's bulk copies) -> shared memory -> wgmma (reading A and B
straight from shared memory through descriptors) -> registers (the
accumulators) -> epilogue; on the mma.sync path: cp.async (or LDG + STS) ->
shared memory -> ldmatrix -> registers -> mma.sync -> registers -> epilogue.

Units that move or compute are filled boxes (in the colours of the instruction
mix: copies orange, fragment loads sky blue, MMAs blue, epilogue yellow);
places where the data sits are outlined boxes (in the bytes-per-level colours);
the words are inside, so colour never carries meaning alone. Under the diagram:
the warp roles, why the bound is what it is (``bound_reason``) and what the
main loop does not hide (``overheads``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGroupBox, QLabel, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from explorer.gemm import GemmPlan
from explorer.gui.common import palette as oi
from explorer.texts.numbers import binary_bytes, num, seconds_text, si_bytes
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.common.widgets import muted_label, wrap
from explorer.gui.gemm.model_texts import model_text, path_names, schedule_names

# the copies, fragment loads, math and epilogue in the colours of the instruction mix (charts.INSTRUCTION_COLORS)
UNIT_COLORS = {"copy": oi.ORANGE, "fragments": oi.SKY_BLUE, "math": oi.BLUE, "epilogue": oi.YELLOW}
# the places in the colours of bytes per level (charts.LEVEL_COLORS)
PLACE_COLORS = {"global": oi.VERMILLION, "shared": oi.SKY_BLUE, "registers": oi.BLUE, "tensor memory": oi.BLUE}
MATH_STEPS = ("wgmma.mma_async", "tcgen05.mma", "mma.sync", "FFMA")


@dataclass(frozen=True)
class Box:
    """One step of the diagram: ``kind`` is copy, fragments, math, epilogue (units) or a place."""

    kind: str
    title: str
    lines: tuple[str, ...]
    tooltip: str = ""

    @property
    def is_unit(self) -> bool:
        return self.kind in UNIT_COLORS

    @property
    def color(self) -> str:
        return UNIT_COLORS.get(self.kind) or PLACE_COLORS.get(self.kind, oi.BLUE)


def step_kind(step: str, index: int) -> str:
    """What a ``Pipeline.steps`` entry is: the first is the copy engine; then places, fragment loads, math."""
    if index == 0:
        return "copy"
    if step in ("shared", "registers", "tensor memory"):
        return step
    if step == "epilogue":
        return "epilogue"
    if "->" in step:
        return "fragments"
    return "math"


class PipelineDiagram(QWidget):
    """Boxes joined by arrows, left to right, wrapping onto more rows when the column is narrow."""

    PAD = 4
    INNER = 8
    ROW_GAP = 26

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_pipeline_diagram")
        self.boxes: list[Box] = []
        self.theme: Theme = LIGHT
        sp = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        sp.setHeightForWidth(True)
        self.setSizePolicy(sp)
        self.setMouseTracking(True)

    def set_boxes(self, boxes: list[Box]) -> None:
        self.boxes = list(boxes)
        self.updateGeometry()
        self.update()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.update()

    # -- geometry --------------------------------------------------------------------
    def _fonts(self) -> tuple[QFont, QFont]:
        title = QFont(self.font())
        title.setBold(True)
        small = QFont(self.font())
        small.setPointSizeF(self.font().pointSizeF() * 0.92)
        return title, small

    def _arrow_w(self) -> int:
        return max(22, QFontMetrics(self.font()).height() * 3 // 2)

    def _box_size(self, box: Box, max_w: int) -> tuple[int, int]:
        title_font, small_font = self._fonts()
        tf, sf = QFontMetrics(title_font), QFontMetrics(small_font)
        cap = 15 * sf.height()  # long detail lines wrap, so more boxes share a row
        natural = max([tf.horizontalAdvance(box.title)] + [min(cap, sf.horizontalAdvance(line)) for line in box.lines])
        w = min(natural + 2 * self.INNER + 2, max_w)
        inner = w - 2 * self.INNER
        h = self._text_height(tf, box.title, inner) + 2 * self.INNER
        for line in box.lines:
            h += self._text_height(sf, line, inner) + 1
        return w, h

    @staticmethod
    def _text_height(fm: QFontMetrics, text: str, width: int) -> int:
        return fm.boundingRect(QRect(0, 0, max(1, width), 100_000), int(Qt.TextFlag.TextWordWrap), text).height()

    def layout_rects(self, width: int | None = None) -> list[QRectF]:
        """Each box's rectangle at ``width`` (default: the widget's), rows wrapped to fit."""
        width = self.width() if width is None else width
        avail = max(80, width - 2 * self.PAD)
        gap = self._arrow_w()
        sizes = [self._box_size(b, avail) for b in self.boxes]
        rows: list[list[int]] = [[]]
        x = 0
        for i, (w, _h) in enumerate(sizes):
            if rows[-1] and x + gap + w > avail:
                rows.append([])
                x = 0
            x += (gap if rows[-1] else 0) + w
            rows[-1].append(i)
        rects: list[QRectF] = [QRectF()] * len(sizes)
        y = self.PAD
        for row in rows:
            height = max((sizes[i][1] for i in row), default=0)
            x = self.PAD
            for i in row:
                w, h = sizes[i]
                rects[i] = QRectF(x, y + (height - h) / 2, w, h)
                x += w + gap
            y += height + self.ROW_GAP
        return rects

    def _height_at(self, width: int) -> int:
        rects = self.layout_rects(width)
        return int(max((r.bottom() for r in rects), default=0) + self.PAD + 1)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._height_at(width)

    def sizeHint(self) -> QSize:  # noqa: D401 - Qt API
        return QSize(560, self._height_at(560))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(160, self._height_at(max(160, self.width())))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.height() != self._height_at(self.width()):
            self.updateGeometry()

    # -- drawing ---------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rects = self.layout_rects()
        fg = QColor(self.theme.text)
        for a, b in zip(rects, rects[1:]):
            self._arrow(p, a, b, fg)
        title_font, small_font = self._fonts()
        for box, r in zip(self.boxes, rects):
            color = QColor(box.color)
            if box.is_unit:
                p.setPen(QPen(color.darker(130), 1.2))
                p.setBrush(color)
                p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 10, 10)
                text = QColor("#000000") if color.lightness() > 140 else QColor("#FFFFFF")
            else:
                p.setPen(QPen(color, 2.6))
                p.setBrush(QColor(self.theme.base))
                p.drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), 3, 3)
                text = fg
            inner = r.adjusted(self.INNER, self.INNER, -self.INNER, -self.INNER)
            p.setPen(text)
            p.setFont(title_font)
            flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
            used = p.boundingRect(inner, flags, box.title)
            p.drawText(inner, flags, box.title)
            y = used.bottom() + 1
            p.setFont(small_font)
            for line in box.lines:
                rect = QRectF(inner.left(), y, inner.width(), inner.bottom() - y + 2)
                used = p.boundingRect(rect, flags, line)
                p.drawText(rect, flags, line)
                y = used.bottom() + 1
        p.end()

    def _arrow(self, p: QPainter, a: QRectF, b: QRectF, color: QColor) -> None:
        p.setPen(QPen(color, 1.6))
        p.setBrush(Qt.BrushStyle.NoBrush)
        if abs(a.center().y() - b.center().y()) < 1 and b.left() > a.right():  # same row
            start, end = QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y())
            p.drawLine(start, QPointF(end.x() - 6, end.y()))
            head = (end, QPointF(end.x() - 8, end.y() - 4.5), QPointF(end.x() - 8, end.y() + 4.5))
        else:  # down to the next row, then along it to the first box
            mid = a.bottom() + (b.top() - a.bottom()) / 2 if b.top() > a.bottom() else a.bottom() + self.ROW_GAP / 2
            path = QPainterPath(QPointF(a.center().x(), a.bottom()))
            path.lineTo(a.center().x(), mid)
            path.lineTo(b.center().x(), mid)
            path.lineTo(b.center().x(), b.top() - 6)
            p.drawPath(path)
            end = QPointF(b.center().x(), b.top())
            head = (end, QPointF(end.x() - 4.5, end.y() - 8), QPointF(end.x() + 4.5, end.y() - 8))
        p.setBrush(color)
        p.drawPolygon(QPolygonF(list(head)))

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        if event.type() == QEvent.Type.ToolTip:
            for box, r in zip(self.boxes, self.layout_rects()):
                if r.contains(QPointF(event.pos())) and box.tooltip:
                    QToolTip.showText(event.globalPos(), box.tooltip, self)
                    return True
            QToolTip.hideText()
            return True
        return super().event(event)


class PipelineView(QGroupBox):
    """The path and its instruction, the diagram, the warp roles, why the bound, the overheads."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_pipeline")
        self.setTitle(self.tr("The main loop's pipeline"))  # short: a group box's title never wraps
        self.plan: GemmPlan | None = None
        self.header = wrap(QLabel(self))
        self.header.setObjectName("gemm_pipeline_header")
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.diagram = PipelineDiagram(self)
        self.legend = muted_label(self, self.tr("How the operands reach the math units. Filled: a unit that moves "
                                                "or computes · outlined: where the data sits. Hover a box for its "
                                                "numbers."))
        self.roles = wrap(QLabel(self))
        self.roles.setObjectName("gemm_pipeline_roles")
        self.reason = wrap(QLabel(self))
        self.reason.setObjectName("gemm_bound_reason")
        self.reason.setTextFormat(Qt.TextFormat.RichText)
        self.overheads = wrap(QLabel(self))
        self.overheads.setObjectName("gemm_overheads")
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        for w in (self.header, self.diagram, self.legend, self.roles, self.reason, self.overheads):
            layout.addWidget(w)

    def apply_theme(self, theme: Theme) -> None:
        self.diagram.apply_theme(theme)

    # -- the boxes ---------------------------------------------------------------------
    def boxes(self, plan: GemmPlan) -> list[Box]:
        """One box per step of ``plan.pipeline.steps``, after the global memory the operands come from."""
        p, r = plan.pipeline, plan.resources
        l2, shared = plan.level("l2"), plan.level("shared")
        out = [Box("global", self.tr("global memory"),
                   (self.tr("A and B, through L2"), self.tr("{hit}% L2 hits").format(hit=num(100 * plan.l2_hit_rate))),
                   self.tr("HBM → L2: {hbm}; L2 → shared memory: {l2}").format(
                       hbm=si_bytes(plan.level("hbm").bytes), l2=si_bytes(l2.read_bytes)))]
        for i, step in enumerate(p.steps):
            kind = step_kind(step, i)
            out.append(getattr(self, f"_{kind.replace(' ', '_')}_box")(plan, step, p, r, l2, shared))
        return out

    def _copy_box(self, plan, step, p, r, l2, shared) -> Box:
        copies = {"TMA": self.tr("TMA bulk tensor copies (cp.async.bulk.tensor), one per operand per stage, each "
                                 "completing on the stage's mbarrier"),
                  "cp.async": self.tr("cp.async: 16 B per thread from global to shared memory, not through registers"),
                  "LDG + STS": self.tr("LDG + STS: every thread loads into registers, then stores to shared memory")}
        tip = self.tr("{copy}. L2 → shared memory: {b} over the whole GEMM.").format(
            copy=copies.get(step, p.copy), b=si_bytes(l2.read_bytes))
        if p.path == "wgmma":
            cm, cn = p.cluster
            multicast = []
            if cm > 1:
                multicast.append(self.tr("B multicast to {n} CTAs").format(n=cm))
            if cn > 1:
                multicast.append(self.tr("A multicast to {n} CTAs").format(n=cn))
            lines = (self.tr("{n} producer warp, no per-thread loads").format(n=p.producer_warps),
                     self.tr("a bulk copy per operand per stage: {n} in all").format(
                         n=num(plan.instructions.get("global_to_shared", 0))),
                     self.tr("cluster {c}: {m}").format(c=f"{cm}×{cn}", m=", ".join(multicast))
                     if multicast else self.tr("no cluster multicast"))
            return Box("copy", step, lines, tip)
        lines = (self.tr("all {n} warps copy").format(n=r.warps),
                 self.tr("16 B per thread, asynchronous") if step == "cp.async" else self.tr("through registers"))
        return Box("copy", step, lines, tip)

    def _shared_box(self, plan, step, p, r, l2, shared) -> Box:
        s = r.shared_breakdown
        lines = [self.tr("{s} stages × {b} (A + B)").format(s=r.stages, b=binary_bytes(s["a_per_stage"] +
                                                                                     s["b_per_stage"]))]
        if "epilogue" in s:
            lines.append(self.tr("+ {b} epilogue staging").format(b=binary_bytes(s["epilogue"])))
        tip = self.tr("{total} per CTA. Read toward the math units: {rd} over the whole GEMM.").format(
            total=binary_bytes(r.shared_bytes_per_block), rd=si_bytes(shared.read_bytes))
        return Box("shared", self.tr("shared memory"), tuple(lines), tip)

    def _fragments_box(self, plan, step, p, r, l2, shared) -> Box:
        unit = step.split("->")[0].strip()
        frag = r.register_breakdown.get("fragments", 0)
        return Box("fragments", f"{unit} → {self.tr('registers')}",
                   (self.tr("A and B fragments"), self.tr("{n} registers per thread").format(n=frag)),
                   self.tr("Every warp loads its fragments of A and B from shared memory into registers before "
                           "each MMA step."))

    def _math_box(self, plan, step, p, r, l2, shared) -> Box:
        shape = re.search(r"m\d+n\d+k\d+", p.instruction)
        head = (shape.group(0),) if shape else ()
        if step == "wgmma.mma_async":
            groups = p.consumer_warps // 4
            lines = head + (self.tr("{g} consumer warpgroup(s), {s}").format(
                g=groups, s=schedule_names().get(p.schedule, p.schedule)),
                self.tr("A from {a}, B from shared memory").format(
                    a=self.tr("registers") if p.a_source == "registers" else self.tr("shared memory")))
        elif step == "tcgen05.mma":
            lines = head + (self.tr("one thread issues for the whole CTA"), self.tr("A and B from shared memory"))
        elif step == "FFMA":
            lines = (self.tr("{w} warps, {tm}×{tn} outputs per thread").format(
                w=r.warps, tm=r.thread_tile_m, tn=r.thread_tile_n),)
        else:
            lines = head + (self.tr("{w} warps, {wm}×{wn} each").format(w=r.warps, wm=r.warp_tile_m,
                                                                         wn=r.warp_tile_n),)
        tip = self.tr("{instr}: {n} instructions over the whole GEMM.").format(
            instr=p.instruction, n=num(plan.instructions.get("mma", plan.instructions.get("ffma", 0))))
        return Box("math", step, lines, tip)

    def _registers_box(self, plan, step, p, r, l2, shared) -> Box:
        acc = r.register_breakdown.get("accumulators", 0)
        budget = p.register_budget
        if "consumer" in budget:
            lines = (self.tr("{n} FP32 accumulators per thread").format(n=acc),
                     self.tr("setmaxnreg: {c} per consumer, {p} per producer thread").format(
                         c=budget["consumer"], p=budget["producer"]))
            tip = self.tr("Launched with {n} registers per thread; setmaxnreg moves registers from the producer "
                          "warpgroup to the consumers.").format(n=budget.get("launch", r.registers_per_thread))
        else:
            lines = (self.tr("{n} accumulators per thread").format(n=acc),
                     self.tr("{n} registers per thread in all").format(n=r.registers_per_thread))
            tip = self.tr("Registers per thread = accumulators + fragments + the rest (an estimate).")
        return Box("registers", self.tr("registers"), lines, tip)

    def _tensor_memory_box(self, plan, step, p, r, l2, shared) -> Box:
        return Box("tensor memory", self.tr("Tensor Memory"),
                   (self.tr("FP32 accumulators, not in registers"),
                    self.tr("{n} registers per thread").format(n=p.register_budget.get("all", r.registers_per_thread))),
                   self.tr("The epilogue warps read the accumulators with tcgen05.ld."))

    def _epilogue_box(self, plan, step, p, r, l2, shared) -> Box:
        t = plan.overheads.get("epilogue", 0.0)
        return Box("epilogue", self.tr("epilogue"),
                   (self.tr("C tile → global memory"), self.tr("{t} not hidden").format(t=seconds_text(t))),
                   self.tr("The accumulators are converted, staged in shared memory and stored; {t} of it is not "
                           "hidden behind the main loop.").format(t=seconds_text(t)))

    # -- the page's call ------------------------------------------------------------------
    def show_plan(self, plan: GemmPlan, bound_name: str) -> None:
        self.plan = plan
        p, r = plan.pipeline, plan.resources
        names = path_names()
        where = (self.tr("{s} schedule, persistent: {ctas} CTAs walk the {tiles} tiles").format(
            s=schedule_names().get(p.schedule, p.schedule), ctas=num(plan.ctas), tiles=num(plan.tiles))
            if p.persistent else self.tr("one CTA per tile ({tiles} CTAs)").format(tiles=num(plan.tiles)))
        self.header.setText(self.tr("<b>Path: {path}</b> · {instr} · {where}").format(
            path=names.get(p.path, p.path), instr=p.instruction, where=where))
        self.diagram.set_boxes(self.boxes(plan))
        if p.path == "wgmma":
            if p.producer_warps and p.consumer_warps > 1:
                self.roles.setText(self.tr(
                    "Warp specialization: {p} producer warp issues the TMA copies and {c} consumer warps ({g} "
                    "warpgroups) issue the MMAs; the copies complete on mbarriers, so no thread waits at "
                    "__syncthreads.").format(p=p.producer_warps, c=p.consumer_warps, g=p.consumer_warps // 4))
            else:
                self.roles.setText(self.tr(
                    "Warp specialization: one warp issues the TMA copies, one thread of the MMA warp issues the "
                    "MMAs for the whole CTA, and {n} warps in all share the CTA's other work (epilogue, "
                    "scheduling).").format(n=r.warps))
        else:
            self.roles.setText(self.tr(
                "Every one of the {n} warps copies its part of each stage, waits at the barrier, loads its "
                "fragments and computes: both operands pass through registers.").format(n=r.warps))
        self.reason.setText(self.tr("<b>Why {bound}:</b> {reason}").format(
            bound=bound_name, reason=model_text(plan.bound_reason)))
        fill = plan.overheads.get("pipeline_fill", 0.0)
        epi = plan.overheads.get("epilogue", 0.0)
        self.overheads.setText(self.tr(
            "Predicted {t} = the main loop's {m} + what it does not hide: pipeline fill {f}, epilogue {e}.").format(
            t=seconds_text(plan.predicted_seconds), m=seconds_text(plan.mainloop_seconds), f=seconds_text(fill),
            e=seconds_text(epi)))
