"""The numbers beside the pictures: right now (this cycle) and over the whole run.

"Right now" answers the mission's question for the current cycle: how many warps
are launched, resident and ready, how many issued, and why the others are not
ready (the states of the resident warps, largest first) or not resident (the
residency limit and its limiter). "Whole run" puts theoretical beside achieved
occupancy, NVML-style "GPU utilization" (a kernel was running) beside the issue
slots actually used, and the DRAM bandwidth the run moved beside the GPU's peak
(what lessons point at when they say HBM is near its limit); a sentence names
what was idle and what was busy (``run_verdict``: worded from the simulator's
bottleneck), plus waves, IPC and the Nsight-style
warp-state breakdown.

Per frame only the "right now" labels change; their widths are fixed up front so
new numbers never trigger a relayout, and the two sentences only ever grow
(``SteadyLabel``).

When the column is too short for everything (a small window with the lesson
panel open, presentation mode at a projector's scale, where the column has no
scroll bar) the details go first, least important first — the notes under the
counts, the captions, the run's heading, waves and IPC, the Speed-of-Light bars
(their compact form lists every unit), the residency sentence (each keeps its text
in a tooltip) — so the counts, the meters, the limiter and the warp-state breakdown
the lessons talk about stay whole, in large type. The sentences that say what the
run means (the whole run's verdict here, the Speed-of-Light panel's two) never make
way: a widget with the ``essential`` property is never hidden, and the layout check
reports one that is (``dropped_texts``). While
a lesson step is shown, a detail that shows a figure its narration cites ("1.33
waves", "132 fit at once") makes way only after every detail that shows none
(``MetricsPanel.cite``), so the number the lecturer points at is on screen.
"""

from __future__ import annotations

from functools import partial

import re

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QGroupBox, QLabel, QLayout, QSizePolicy, QVBoxLayout, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.bars import Meter, StateBar
from explorer.gui.common.core_texts import limiter_names, unit_labels
from explorer.texts.figures import figure_text, summary_figure
from explorer.texts.numbers import counted, figure, figures_in, num, pct, plural, three, unit

from explorer.gui.common.state_colors import short_names
from explorer.gui.common.state_order import NAMES
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.common.widgets import SteadyLabel, error_label, muted_label, set_short, set_texts_long_short
from explorer.gui.workspace.run_data import SimRun, state_breakdown
from explorer.gui.explore.run_verdict import Verdict, run_verdict
from explorer.gui.explore.sol_texts import busy_text
from explorer.occupancy import OccupancyResult


DETAIL = "detail"  # a widget's property: how long it stays when the column is short (higher: longer)
SHORTEN = 4.5  # the essential sentences take their short form: after the run's facts, before the residency
# sentence, the Speed-of-Light bars and the limiter (a sentence citing a lesson's figure keeps its whole form longer)


def cycles_text(cycles: float, forms: str) -> str:
    """"4 cycles", "128 тактов", "4.5 такта": the noun agrees with the number (a fraction takes Russian's "few"
    form, as "2" does); ``forms`` is the translated "cycle|cycles"."""
    whole = float(cycles).is_integer()
    return f"{three(cycles)} {plural(int(cycles) if whole else 2, forms)}"


def program_text(summary: dict) -> str:
    """Which instruction stream ran, in words: the same preset gives other figures with the kernel's SASS than
    with the workload model, so every view that shows a run's figures names it (issue 31 item 9: the status
    bar alone said it, and presenting hides the status bar)."""
    source = summary.get("program", {})
    if source.get("source") == "sass":
        return QCoreApplication.translate("ExplorerPage", "the kernel's SASS ({arch})").format(arch=source.get("arch", ""))
    return QCoreApplication.translate("ExplorerPage", "the workload model")


class NowBox(QGroupBox):
    """This cycle's counts, big, and why."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("now_box")
        self.setTitle(self.tr("Right now"))
        self.heading = QLabel(self)
        self.heading.setObjectName("now_heading")
        self.heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        big = QFont(self.font())
        big.setPointSizeF(self.font().pointSizeF() * 1.6)
        big.setBold(True)
        name_font = QFont(self.font())
        name_font.setPointSizeF(self.font().pointSizeF() * 1.3)
        name_font.setBold(True)
        digits = QFontMetrics(big).horizontalAdvance("888,888")
        rows = (
            # "launched" is the data's name (simulate --out); on screen the count is what it holds: the
            # launched warps not finished yet, beside the launch's constant total (issue 31 item 12)
            ("launched", self.tr("Unfinished"), "", None),  # the theme's text colour
            ("resident", self.tr("Resident"), self.tr("warps on the SMs"), oi.REDDISH_PURPLE),
            ("eligible", self.tr("Ready"), self.tr("eligible: could issue this cycle"), oi.ORANGE),
            ("issued", self.tr("Issued"), self.tr("this cycle"), oi.BLUISH_GREEN),
        )
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(0)
        grid.setColumnStretch(1, 1)
        self.values: dict[str, QLabel] = {}
        self.notes: dict[str, QLabel] = {}
        self.marks: dict[str, QFrame] = {}
        tips = {
            "launched": self.tr("Launched warps that have not finished: resident ones plus those still waiting "
                                "for a place on an SM; it starts at every launched warp and falls to 0."),
            "resident": self.tr("Warps placed on an SM, holding a warp slot, registers and shared memory."),
            "eligible": self.tr("Resident warps whose next instruction could issue this cycle; each scheduler "
                                "picks one of its eligible warps."),
            "issued": self.tr("Warp-instructions issued this cycle: at most one per scheduler."),
        }
        for row, (key, name, note, color) in enumerate(rows):
            label = QLabel(name, self)
            label.setFont(name_font)
            value = QLabel("–", self)
            value.setFont(big)
            value.setObjectName(f"now_{key}")
            value.setMinimumWidth(digits)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            small = muted_label(self, note)
            small.setProperty(DETAIL, 1)
            for w in (label, value, small):
                w.setToolTip(tips[key])
            mark = QFrame(self)  # the colour of this count's curve in the plot below
            mark.setFixedWidth(5)
            mark.setAutoFillBackground(True)
            mark.setProperty("curve_color", color)
            grid.addWidget(mark, 2 * row, 0, 2, 1)
            grid.addWidget(label, 2 * row, 1)
            grid.addWidget(value, 2 * row, 2, 2, 1)
            grid.addWidget(small, 2 * row + 1, 1)
            self.values[key], self.notes[key], self.marks[key] = value, small, mark
        self.bar = StateBar(self)
        self.bar.setObjectName("now_state_bar")
        self.bar.setProperty(DETAIL, 6)  # the sentence under it says the same in words
        self.why = SteadyLabel(self)  # grows, never shrinks, while playing: the panel does not jump
        self.why.setObjectName("now_why")
        self.why.setTextFormat(Qt.TextFormat.PlainText)
        self.why.setProperty(DETAIL, 8)
        self.residency = SteadyLabel(self)
        self.residency.setObjectName("now_residency")
        self.residency.setProperty(DETAIL, 6.5)  # after the limiter, which it says in words too
        self.heading.setProperty(DETAIL, 6)
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addLayout(grid)
        caption = QLabel(self.tr("What the resident warps are doing:"), self)
        caption.setWordWrap(True)  # two lines rather than a column too wide for an 800 px screen (Russian)
        caption.setProperty(DETAIL, 2)
        layout.addWidget(caption)
        layout.addWidget(self.bar)
        layout.addWidget(self.why)
        layout.addWidget(self.residency)
        self.counts: tuple[int, int, int, int] = (0, 0, 0, 0)

    def show_cycle(self, run: SimRun, cycle: int, occupancy: OccupancyResult) -> None:
        launched, resident, eligible, issued = run.counts_at(cycle)
        self.counts = (launched, resident, eligible, issued)
        p = run.result.params
        us = cycle / p.clock_mhz
        self.heading.setText(self.tr("Cycle {c} of {total} ({us} µs)").format(
            c=num(cycle), total=num(run.cycles), us=num(us, 2)))
        for key, value in zip(("launched", "resident", "eligible", "issued"), self.counts):
            self.values[key].setText(num(value))
        slots = p.sm_count * p.warps_per_sm
        schedulers = p.sm_count * p.sub_partitions
        self.notes["launched"].setText(self.tr("of {n} launched warps").format(n=num(p.total_blocks * p.warps_per_block)))
        self.notes["resident"].setText(self.tr("on the SMs (of {slots} slots)").format(slots=num(slots)))
        self.notes["issued"].setText(self.tr("this cycle (max {n})").format(n=num(schedulers)))
        states = run.state_counts_at(cycle)
        parts = state_breakdown(states)
        self.bar.set_segments(parts, self.tr("warps"))
        self.why.setText(self._why(resident, eligible, parts))
        self.residency.setText(self._residency(run, cycle, launched, resident, occupancy))

    def _why(self, resident: int, eligible: int, parts: list[tuple[int, int]]) -> str:
        if resident == 0:
            return self.tr("No warp is resident at this cycle.")
        names = short_names()
        stalls = [(c, k) for c, k in parts if c not in (1, 2)]
        head = self.tr("{ready} of {resident} resident warps are ready.").format(ready=num(eligible), resident=num(resident))
        if not stalls:
            return head
        items = ", ".join(self.tr("{k} {name}").format(k=num(k), name=names[c]) for c, k in stalls[:3])
        return head + " " + self.tr("The others wait: {items}.").format(items=items)

    def _residency(self, run: SimRun, cycle: int, launched: int, resident: int, occ: OccupancyResult) -> str:
        p = run.result.params
        cap = p.active_blocks_per_sm * p.warps_per_block * p.sm_count
        limit = ", ".join(limiter_names().get(k, k) for k in occ.limiters)
        waiting = launched - resident
        if launched == 0:
            left = run.cycles - 1 - cycle  # the kernel's end waits for its posted stores (sim_model.toml [stores])
            if left > 0:
                return self.tr("Every warp has left; the kernel ends once L2 has taken its last stores, "
                               "{n} cycles from now.").format(n=num(left))
            return self.tr("The kernel has finished.")
        if waiting <= 0:
            return self.tr("Every unfinished warp is resident. At most {cap} fit at once "
                           "({blocks} per SM, limited by {limit}).").format(
                cap=num(cap), blocks=counted(p.active_blocks_per_sm, self.tr("block|blocks")), limit=limit)
        return self.tr("{w} launched warps are not resident yet: they wait for a free place (at most {cap} fit "
                       "at once: {blocks} per SM, limited by {limit}) or are being launched.").format(
            w=num(waiting), cap=num(cap), blocks=counted(p.active_blocks_per_sm, self.tr("block|blocks")), limit=limit)

    def apply_theme(self, theme: Theme) -> None:
        self.bar.apply_theme(theme)
        for mark in self.marks.values():
            pal = mark.palette()
            pal.setColor(QPalette.ColorRole.Window, QColor(mark.property("curve_color") or theme.plot_foreground))
            mark.setPalette(pal)


class RunBox(QGroupBox):
    """Whole-run metrics of the ``simulate --json`` contract, explained."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("run_box")
        self.setTitle(self.tr("Whole run"))
        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        self.occ_theoretical = Meter(oi.SKY_BLUE, self)
        self.occ_achieved = Meter(oi.BLUE, self)
        self.nvml = Meter(oi.VERMILLION, self)
        self.issue = Meter(oi.BLUISH_GREEN, self)
        self.dram = Meter(oi.YELLOW, self)
        self.dram.setObjectName("meter_dram")
        self.occ_theoretical.setObjectName("meter_theoretical")
        self.occ_achieved.setObjectName("meter_achieved")
        self.nvml.setObjectName("meter_nvml")
        self.issue.setObjectName("meter_issue")
        self.limiter = QLabel(self)
        self.limiter.setObjectName("run_limiter")
        self.limiter.setWordWrap(True)
        self.point = QLabel(self)
        self.point.setObjectName("run_point")
        self.point.setWordWrap(True)
        bold = QFont(self.font())
        bold.setBold(True)
        self.point.setFont(bold)
        self.facts = QLabel(self)
        self.facts.setObjectName("run_facts")
        self.facts.setWordWrap(True)
        self.bar = StateBar(self)
        self.bar.setObjectName("run_state_bar")
        self.bar_text = QLabel(self)
        self.bar_text.setWordWrap(True)
        self.bar_text.setProperty("role", "muted")
        for label in (self.heading, self.limiter, self.point, self.facts, self.bar_text):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for widget, detail in ((self.heading, 3), (self.facts, 4), (self.limiter, 6), (self.bar, 9),
                               (self.bar_text, 9)):
            widget.setProperty(DETAIL, detail)
        # the verdict is what the box says (NVML's 100% against the idle issue slots): it never makes way
        # (issue 31 item 5: dropped at 1280x720, and at 1600x900 once playback grew the "right now" sentence)
        self.point.setProperty("essential", True)

        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        grid.setColumnStretch(1, 1)
        rows = (
            (self.tr("Theoretical occupancy"), self.occ_theoretical,
             self.tr("The most warps an SM can hold for this launch ÷ its warp slots (NVIDIA's occupancy rules).")),
            (self.tr("Achieved occupancy"), self.occ_achieved,
             self.tr("Resident warps averaged over the cycles an SM was active ÷ its warp slots (Nsight's "
                     "sm__warps_active).")),
            (self.tr("“GPU utilization” (NVML)"), self.nvml,
             self.tr("What nvidia-smi reports: the share of time at least one kernel was running. One resident "
                     "warp is enough for 100%.")),
            (self.tr("Issue slots used"), self.issue,
             self.tr("Instructions issued ÷ (cycles × SMs × schedulers): how much of the GPU's issue capacity "
                     "did work.")),
            (self.tr("DRAM (HBM) bandwidth"), self.dram,
             self.tr("Bytes the run moved to and from device memory ÷ its duration, against the GPU's peak "
                     "memory bandwidth.")),
        )
        # the DRAM meter with its figures under it, one widget: what a lesson's "dram" spotlight outlines
        self.dram_box = QWidget(self)
        self.dram_box.setObjectName("dram_box")
        box = QVBoxLayout(self.dram_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(1)
        self.dram_figures = QLabel(self.dram_box)
        self.dram_figures.setObjectName("dram_figures")
        self.dram_figures.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.dram_figures.setWordWrap(True)  # a narrow column wraps the figures rather than cutting them
        self.dram_figures.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.dram_figures.setProperty(DETAIL, 3)  # the meter shows the share; its tooltip the figures
        box.addWidget(self.dram)
        box.addWidget(self.dram_figures)
        for row, (text, meter, tip) in enumerate(rows):
            label = QLabel(text, self)
            label.setWordWrap(True)  # a long name ("Использовано слотов выдачи") takes two lines, not the meter's room
            label.setToolTip(tip)
            meter.setToolTip(tip)
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop if meter is self.dram else Qt.AlignmentFlag(0))
            grid.addWidget(self.dram_box if meter is self.dram else meter, row, 1)
        line = QFrame(self)
        line.setFrameShape(QFrame.Shape.HLine)
        line.setProperty(DETAIL, 4)
        # which instruction stream ran: the same preset's figures differ between the kernel's SASS and the workload
        # model, and presenting hides the status bar that says it too (issue 31 item 9); a line that wraps, not
        # the box's title, which would set the column's least width (an 800 px screen)
        self.program = QLabel(self)
        self.program.setObjectName("run_program")
        self.program.setWordWrap(True)
        self.program.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.program.setProperty("role", "muted")
        self.program.setProperty("essential", True)
        self.program.setToolTip(self.tr("The instruction stream the simulator ran: the generated kernel's SASS, "
                                        "or the workload model (one instruction per modelled operation); the same "
                                        "scenario gives slightly different figures with each."))
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addWidget(self.program)
        layout.addWidget(self.heading)
        # the verdict above the meters it reads: a column that must scroll (1280x720, the lesson panel and the
        # SASS view open) scrolls the meters out of view, never the sentence (issue 31 item 5)
        layout.addWidget(self.point)
        layout.addLayout(grid)
        layout.addWidget(self.limiter)
        layout.addWidget(line)
        layout.addWidget(self.facts)
        caption = QLabel(self.tr("Warp states over the run (Nsight-style breakdown):"), self)
        caption.setWordWrap(True)
        caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        caption.setProperty(DETAIL, 2)
        layout.addWidget(caption)
        layout.addWidget(self.bar)
        layout.addWidget(self.bar_text)
        self.stale = error_label(self, self.tr("Numbers of the previous simulation: the new one is still running."))
        self.stale.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.stale)

    def show_occupancy(self, occ: OccupancyResult) -> None:
        """Instant (no simulation needed): the theoretical side."""
        self.occ_theoretical.set_value(occ.occupancy, figure_text("theoretical_occupancy", occ.occupancy, None))
        limit = ", ".join(limiter_names().get(k, k) for k in occ.limiters) or "–"
        self.limiter.setText(self.tr("Limiter: {limit} — {blocks} ({warps}) per SM of {max}.").format(
            limit=limit, blocks=counted(occ.active_blocks_per_sm, self.tr("block|blocks")),
            warps=counted(occ.active_warps_per_sm, self.tr("warp|warps")), max=occ.max_warps_per_sm))

    def show_run(self, run: SimRun) -> None:
        s = run.summary
        f = partial(summary_figure, s, style=None)  # a figure as the CLI writes it, in the window's number style
        p = run.result.params
        self.program.setText(self.tr("Program: {program}").format(program=program_text(s)))
        self.heading.setText(self.tr("{gpu}: {blocks} blocks × {wpb} warps = {warps} warps, {cycles} cycles "
                                     "({us} µs at {mhz} MHz)").format(
            gpu=s["gpu"], blocks=f("total_blocks"), wpb=f("warps_per_block"), warps=f("launched_warps"),
            cycles=f("cycles"), us=f("kernel_time_us"), mhz=num(p.clock_mhz)))
        self.heading.setToolTip(self.tr(
            "The kernel runs from its launch until its last warp has left and its stores have completed: "
            "the last {tail} cycles no warp was resident while L2 and device memory still took its stores."
        ).format(tail=f("store_tail_cycles")))
        self.occ_achieved.set_value(s["achieved_occupancy"], f("achieved_occupancy"))
        self.nvml.set_value(s["kernel_active_fraction"], f("kernel_active_fraction"))
        self.issue.set_value(s["issue_slot_utilization"], f("issue_slot_utilization"))
        verdict = run_verdict(s, run.result.scenario.gpu.memory_bandwidth_gbs, run.mma_share, run.mma_cycles)
        self.dram.set_value(verdict.dram_fraction, pct(verdict.dram_fraction, 0))
        self.dram_figures.setText(self.dram_text(verdict.dram_gbs, verdict.peak_gbs))
        sustained = p.dram_bytes_per_cycle * p.clock_mhz * 1e6 / 1e9
        tip = self.tr("{bw} GB/s of the peak {peak} GB/s; the simulator's memory system sustains at most "
                      "{sustained} GB/s (what a streaming kernel reaches).").format(
            bw=num(verdict.dram_gbs), peak=num(verdict.peak_gbs), sustained=num(sustained))
        self.dram_box.setToolTip(tip)
        self.dram.setToolTip(tip)
        set_texts_long_short(self.point, self.verdict_text(verdict), self.verdict_text(verdict, short=True))
        per_wave = p.active_blocks_per_sm * p.sm_count
        self.facts.setText(self.tr(
            "Waves: {waves} ({blocks} blocks; {per_wave} fit at once)\n"
            "IPC: {ipc} instructions per active SM per cycle (max {sp})\n"
            "Ready warps per scheduler: {elig} on average").format(
            waves=f("waves"), blocks=f("total_blocks"), per_wave=num(per_wave), ipc=f("ipc"), sp=p.sub_partitions,
            elig=f("avg_eligible_per_scheduler")))
        cycles = s["warp_state_cycles"]
        parts = sorted(((NAMES.index(k), v) for k, v in cycles.items() if v > 0), key=lambda p: -p[1])
        self.bar.set_segments(parts, self.tr("warp-cycles"))
        total = sum(v for _, v in parts) or 1
        names = short_names()
        self.bar_text.setText(" · ".join(f"{names[c]} {pct(v / total, 0)}" for c, v in parts[:4]))

    def dram_text(self, gbs: float, peak_gbs: float) -> str:
        """'2.94 of 3.35 TB/s peak': the run's DRAM bandwidth in the peak's unit."""
        scale, symbol = (1000.0, "TB/s") if peak_gbs >= 1000 else (1.0, "GB/s")
        return self.tr("{bw} of {peak} {unit} peak").format(
            bw=figure(gbs / scale) if gbs > 0 else num(0), peak=figure(peak_gbs / scale), unit=unit(symbol))

    def verdict_text(self, v: Verdict, short: bool = False) -> str:
        """The whole-run sentence: what was idle and what was busy, worded from the run's bottleneck
        (``run_verdict`` decides the kind; the Speed-of-Light panel above has the simulator's own sentence).
        ``short``: its first point alone, for a column too short for the whole (never left out: issue 31)."""
        util, idle, used = pct(v.utilization, 0), pct(v.issue_idle, 0), pct(v.issue_used, 0)
        labels = unit_labels()
        share = pct(v.unit_share, 0)
        busy = busy_text(v.unit_share)  # the simulator's one wording rule, as the CLI's sentence words it
        if short:
            return self._short_verdict(v, util, idle, used, share, busy, labels)
        if v.kind == "tensor" and v.on_busy_sms:
            return self.tr("The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but issue "
                           "slots are the wrong measure here: on the SMs that have work the Tensor Cores run at "
                           "{share} of their peak (busy {busy}; {gpu} over the whole GPU, whose other SMs have no "
                           "block), and each MMA ({mma} of the warp-instructions) keeps its scheduler's Tensor Core "
                           "pipe busy for {n}.").format(
                util=util, idle=idle, share=share, busy=busy, gpu=pct(v.gpu_share, 0), mma=pct(v.mma_share, 0),
                n=cycles_text(v.mma_cycles, self.tr("cycle|cycles")))
        if v.kind == "tensor":
            return self.tr("The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but issue "
                           "slots are the wrong measure here: the Tensor Cores run at {share} of their peak (busy "
                           "{busy}), and each MMA ({mma} of the warp-instructions) keeps its scheduler's Tensor Core "
                           "pipe busy for {n}.").format(util=util, idle=idle, share=share, busy=busy, mma=pct(v.mma_share, 0),
                                                           n=cycles_text(v.mma_cycles, self.tr("cycle|cycles")))
        if v.kind == "issue":
            return self.tr("The GPU reads {util} “utilized”, and here its schedulers are busy too: they issue "
                           "{busy} ({used} of their slots). Issuing instructions is the limit, not waiting.").format(
                util=util, busy=busy, used=used)
        if v.kind == "compute":
            return self.tr("The GPU reads {util} “utilized”, and here it is busy too: {unit} at {share} of the "
                           "peak (busy {busy}) is the limit, not waiting.").format(
                util=util, unit=labels[v.unit], share=share, busy=busy)
        if v.kind == "hbm":
            return self.tr("The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps "
                           "wait for memory, and HBM moves {share} of its peak bandwidth.").format(
                util=util, idle=idle, share=pct(v.dram_fraction, 0))
        if v.kind == "memory":
            return self.tr("The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps "
                           "wait for memory, and {unit} runs at {share} of its peak.").format(
                util=util, idle=idle, unit=labels[v.unit], share=share)
        names = short_names()
        code = NAMES.index(v.stall) if v.stall in NAMES else None
        text = self.tr("The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: utilization "
                       "only says a kernel was running.").format(util=util, idle=idle)
        if code is not None:
            text += " " + self.tr("Most warp-cycles are “{state}” ({share}).").format(
                state=names[code], share=pct(v.stall_share, 0))
        text += " " + self.tr("No unit is near its peak (the busiest: {unit}, {share}).").format(
            unit=labels[v.busiest], share=share)
        return text

    def _short_verdict(self, v: Verdict, util: str, idle: str, used: str, share: str, busy: str,
                       labels: dict) -> str:
        if v.kind == "tensor" and v.on_busy_sms:
            return self.tr("The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but where "
                           "there is work the Tensor Cores run at {share} of their peak.").format(
                util=util, idle=idle, share=share)
        if v.kind == "tensor":
            return self.tr("The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but the "
                           "Tensor Cores run at {share} of their peak.").format(util=util, idle=idle, share=share)
        if v.kind == "issue":
            return self.tr("The GPU reads {util} “utilized”, and its schedulers issue {busy} ({used} of their "
                           "slots).").format(util=util, busy=busy, used=used)
        if v.kind == "compute":
            return self.tr("The GPU reads {util} “utilized”: {unit} at {share} of its peak is the limit.").format(
                util=util, unit=labels[v.unit], share=share)
        if v.kind in ("hbm", "memory"):
            return self.tr("The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps "
                           "wait for memory.").format(util=util, idle=idle)
        return self.tr("The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing.").format(
            util=util, idle=idle)

    def set_stale(self, stale: bool, invalid: bool = False) -> None:
        self.stale.setText(self.tr("Numbers of the last good simulation: fix the marked input.") if invalid
                           else self.tr("Numbers of the previous simulation: the new one is still running."))
        self.stale.setVisible(stale)

    def apply_theme(self, theme: Theme) -> None:
        for w in (self.occ_theoretical, self.occ_achieved, self.nvml, self.issue, self.dram, self.bar):
            w.apply_theme(theme)


def cited_figures(narration: str) -> frozenset[float]:
    """The figures an English narration cites that can point at one detail: a one-digit whole number
    ("6 blocks", "8 warps") is in too many lines to say which."""
    return frozenset(x for x in figures_in(narration, english=True) if x >= 10 or x != int(x))


class MetricsPanel(QWidget):
    """"Right now" over "Whole run"; details make way when the column is too short (see the module's text)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.now = NowBox(self)
        self.whole = RunBox(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.now)
        layout.addWidget(self.whole)
        layout.addStretch(1)
        self.dropped: list[QWidget] = []  # details hidden to make the rest fit
        self.cited: frozenset[float] = frozenset()  # the figures a lesson step's narration cites
        self._fitting = False
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self.fit)
        for label in (self.now.why, self.now.residency):
            label.grew.connect(self._refit.start)

    def cite(self, figures: frozenset[float]) -> None:
        """The figures a lesson step's narration cites (:func:`cited_figures`; empty: no lesson): details
        showing one of them make way last."""
        if figures != self.cited:
            self.cited = frozenset(figures)
            self.fit()

    def rank(self, widget: QWidget) -> tuple[bool, float]:
        """How long ``widget`` stays: details showing a cited figure outrank the others, then by ``DETAIL``.
        Widgets of one ``detail_group`` (a Speed-of-Light row: name, bar, figures) rank as one."""
        group = widget.property("detail_group")
        members = [w for w in self.findChildren(QLabel) if w.property("detail_group") == group] if group else [widget]
        shown = set()
        for w in members:
            if isinstance(w, QLabel):
                shown |= figures_in(re.sub(r"<[^>]+>", " ", w.text()))
        return bool(self.cited & shown), float(widget.property(DETAIL))

    def short_rank(self, label: QLabel) -> tuple[bool, float]:
        """When a sentence takes its short form: with the details of rank ``SHORTEN``, or with those that show a
        cited figure when only its whole form shows one (a lesson's "12 B per FMA")."""
        def figures(text) -> set:
            return figures_in(re.sub(r"<[^>]+>", " ", str(text or "")))

        lost = figures(label.property("long_text")) - figures(label.property("short_text"))
        return bool(self.cited & lost), SHORTEN

    def refit_soon(self) -> None:
        """Fit again once the event loop has laid out what just changed (a new run's texts and ranks)."""
        self._refit.start()

    def details(self) -> list[QWidget]:
        """The widgets that may make way, least important first."""
        found = [w for w in self.findChildren(QWidget) if w.property(DETAIL) is not None]
        return sorted(found, key=self.rank)

    def _room(self) -> tuple[int, int] | None:
        """(width, height) the column shows (its scroll area's viewport), or None outside one."""
        viewport = self.parentWidget()
        if viewport is None or viewport.height() <= 0:
            return None
        return viewport.width(), viewport.height()

    def _need(self, width: int) -> int:
        """The height the panel needs at ``width`` (Qt's size caches cleared first: details just changed)."""
        for lay in self.findChildren(QLayout):
            lay.invalidate()
        for box in self.findChildren(QGroupBox):  # the boxes (and the Speed-of-Light panel between them)
            box.updateGeometry()
        self.layout().invalidate()
        return self.layout().totalHeightForWidth(width)

    def fit(self) -> None:
        """Show every detail that fits the column's height, dropping the least important first."""
        room = self._room()
        if room is None or self._fitting:
            return
        width, height = room
        self._fitting = True
        try:
            for widget in self.dropped:
                widget.setProperty("made_way", False)
                widget.setVisible(True)
            self.dropped = []
            shortened = [w for w in self.findChildren(QLabel) if w.property("short_text")]
            for label in shortened:
                set_short(label, False)
            self._sync_compact()
            ranked = [(self.rank(w), w) for w in self.details()]
            ranked += [(self.short_rank(w), w) for w in shortened]  # sentences never go: their short form instead
            for level in sorted({r for r, _ in ranked}):  # details of one rank go together (the notes under the counts)
                if self._need(width) <= height:
                    break
                for rank, widget in ranked:
                    if rank == level:
                        if widget.property("short_text"):
                            set_short(widget, True)
                            continue
                        widget.setVisible(False)
                        widget.setProperty("made_way", True)
                        self.dropped.append(widget)
                self._sync_compact()
        finally:
            self._fitting = False

    def refit_now(self) -> None:
        """Fit at the heights laid out now (presentation mode's check, before the queued refit runs)."""
        self.fit()

    def _sync_compact(self) -> None:
        """A panel whose rows made way shows its compact form (the Speed-of-Light panel: every unit listed)."""
        for panel in self.findChildren(QWidget):
            sync = getattr(panel, "sync_compact", None)
            if callable(sync):
                sync()

    def dropped_texts(self) -> list[str]:
        """The essential sentences hidden (none should be: the layout check reports each one)."""
        out = []
        for w in self.findChildren(QLabel):
            if w.property("essential") and w.text().strip() and w.isHidden() and w.parentWidget().isVisible() \
                    and w.objectName() != "sol_compact":
                out.append(w.text())
        return out

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        if event.type() == QEvent.Type.ParentChange and self.parentWidget() is not None:
            self.parentWidget().installEventFilter(self)  # the scroll area's viewport: its height is the room
        return super().event(event)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode changed every font: measure again."""
        self.fit()

    def apply_theme(self, theme: Theme = LIGHT) -> None:
        self.now.apply_theme(theme)
        self.whole.apply_theme(theme)
