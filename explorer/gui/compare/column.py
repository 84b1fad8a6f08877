"""One side of the A/B compare: the Explorer's own views (SM grid, timeline, counts) over one run.

The views are the Explorer's classes (``explore.sm_grid``, ``timeline``,
``counts_plot``), fed the run and a cycle through their public methods, so A and B
look exactly as the Explorer draws a run. Above them: which run this is, what it
is, and this cycle's four counts (or "finished" once the run has ended before the
compare position: the views then hold its last cycle).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from explorer.texts.numbers import num
from explorer.gui.common.theme import Theme
from explorer.gui.compare.session import SideFrame
from explorer.gui.explore.counts_plot import CountsPlot
from explorer.gui.explore.sm_grid import SmGridView
from explorer.gui.explore.timeline import TimelineView

MIN_PLOT_HEIGHT = 70  # two stacked plots under a grid still fit a 720-pixel projector at 150%


class RunColumn(QWidget):
    """A run's SM grid, timeline and counts at one cycle, with its name and counts on top."""

    sm_clicked = Signal(int)
    cycle_requested = Signal(int)  # a cycle of this column's run (a click or drag on its plots)
    needs_trace = Signal(int)  # the SM's trace was not kept: the page re-simulates it

    def __init__(self, side: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.side = side
        self.setObjectName(f"compare_column_{side}")
        self.run = None
        self.title = QLabel(self)
        self.title.setObjectName(f"compare_title_{side}")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.now = QLabel(self)
        self.now.setObjectName(f"compare_now_{side}")
        self.now.setTextFormat(Qt.TextFormat.RichText)
        self.now.setWordWrap(True)
        self.now.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.now.setFixedHeight(QFontMetrics(self.now.font()).lineSpacing() * 2 + 4)  # a new cycle never relayouts
        self.now.setToolTip(self.tr("This cycle's warps: unfinished (launched, not finished yet), resident on the SMs, ready "
                                    "(eligible) to issue, and issued."))
        self.grid = SmGridView(self)
        self.grid.setObjectName(f"compare_grid_{side}")
        self.grid.setMinimumSize(200, 100)
        self.timeline = TimelineView(self)
        self.timeline.setObjectName(f"compare_timeline_{side}")
        self.counts = CountsPlot(self)
        self.counts.setObjectName(f"compare_counts_{side}")
        for plot in (self.timeline, self.counts):
            plot.setMinimumHeight(MIN_PLOT_HEIGHT)
            plot.compact_title = True  # half the Explorer's width: a long title would widen the plot
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.now)
        layout.addWidget(self.grid, 5)
        layout.addWidget(self.timeline, 3)
        layout.addWidget(self.counts, 3)
        self.grid.sm_clicked.connect(self.sm_clicked)
        self.timeline.cycle_requested.connect(self.cycle_requested)
        self.counts.cycle_requested.connect(self.cycle_requested)
        self.timeline.needs_trace.connect(self.needs_trace)

    # -- run ---------------------------------------------------------------------------
    def set_run(self, run, heading: str, sm: int, x_max: int) -> None:
        """Show ``run`` (None: ``heading`` says why there is none) on an x range of ``x_max`` cycles."""
        self.run = run
        self.title.setText(heading)
        self.grid.set_run(run)
        if run is None:
            self.timeline.set_run(None, 0)
            self.counts.set_run(None)
            self.now.setText("")
            return
        self.grid.set_selected(sm)
        self.timeline.set_run(run, sm)
        self.counts.extra_cycles = x_max  # both columns on one cycle axis when aligned by cycle
        self.counts.set_run(run)
        self.timeline.set_x_max(x_max)
        self.show_all()

    def show_all(self) -> None:
        """Both plots over the whole x range (by value: a hidden tab has no geometry to link plots by)."""
        for plot in self.plots():
            plot.show_all()

    def plots(self) -> tuple:
        return self.timeline, self.counts

    def set_sm(self, sm: int) -> None:
        if self.run is not None:
            self.grid.set_selected(sm)
            self.timeline.set_sm(sm)

    def trace_arrived(self, sm: int) -> None:
        self.timeline.trace_arrived(sm)
        self.grid.set_run(self.run)

    def set_placeholder(self, text: str) -> None:
        self.grid.set_placeholder(text)

    # -- cycle -------------------------------------------------------------------------
    def show_frame(self, frame: SideFrame) -> None:
        run = self.run
        if run is None:
            return
        self.grid.set_cycle(frame.cycle)
        self.timeline.set_cycle(frame.cursor)
        self.counts.set_cycle(frame.cursor)
        launched, resident, eligible, issued = run.counts_at(frame.cycle)
        if frame.finished:
            head = self.tr("<b>Finished</b> after {n} cycles: its last cycle is shown").format(n=num(run.cycles))
        else:
            head = self.tr("Cycle {c} of {n}").format(c=num(frame.cycle), n=num(run.cycles))
        self.now.setText(head + " · " + self.tr(
            "{launched} unfinished · {resident} resident · {ready} ready · {issued} issued").format(
            launched=num(launched), resident=num(resident), ready=num(eligible), issued=num(issued)))

    def set_compact(self, on: bool) -> None:
        """No timeline, and the counts plot gets its room (a short screen at a large presentation scale)."""
        self.timeline.setVisible(not on)
        layout = self.layout()
        layout.setStretchFactor(self.counts, 4 if on else 3)

    # -- look --------------------------------------------------------------------------
    def views(self) -> tuple:
        return self.grid, self.timeline, self.counts

    def apply_theme(self, theme: Theme) -> None:
        for view in self.views():
            view.apply_theme(theme)


def scenario_line(scenario) -> str:
    """What a run is, in one line of rich text: GPU, launch, registers, shared memory, workload, policy."""
    launch = scenario.launch
    shared = launch.static_shared_bytes + launch.dynamic_shared_bytes
    workload = scenario.workload.preset or QCoreApplication.translate("RunColumn", "custom workload")
    return html.escape(QCoreApplication.translate(
        "RunColumn", "{gpu} · {blocks} × {threads} threads · {regs} registers · {smem} B shared · {workload} · "
                     "{policy}").format(
        gpu=scenario.gpu.name, blocks=num(launch.total_blocks), threads=num(launch.threads_per_block),
        regs=launch.registers_per_thread, smem=num(shared), workload=workload, policy=scenario.scheduler.policy))
