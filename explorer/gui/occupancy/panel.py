"""The "Occupancy calculator" tab: inputs, answer, advice and graphs, kept live.

Every edit re-runs the core at once (a query costs well under a millisecond; a
changed sweep at most ~25 ms, and unchanged sweeps come from the session's
cache), so there is no "calculate" button and no worker thread. While any field
is invalid, the last valid answer stays on screen and says so.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import QHBoxLayout, QScrollArea, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from explorer.texts.numbers import pct
from explorer.gui.common.page import Page
from explorer.gui.common.settings import as_str
from explorer.gui.occupancy.advice import OccupancyAdvice
from explorer.gui.occupancy.graphs import OccupancyGraphs
from explorer.gui.occupancy.inputs import OccupancyInputs
from explorer.gui.occupancy.result import OccupancyResultView
from explorer.gui.occupancy.session import DEFAULTS, FIELDS, Evaluation, check_fields, evaluate
from explorer.model.scenario import Scenario

MIN_INPUT_LINES = 8  # the least height of the inputs' pane, in lines of text


class OccupancyPanel(Page):
    """Wires the calculator's views to the session; owns no numbers of its own."""

    def __init__(self, parent: QWidget | None = None, build_now: bool = True):
        super().__init__(parent)
        if build_now:
            self.build()
        else:
            self.build_later()

    def build(self) -> None:
        self.inputs = OccupancyInputs(self)
        self.result = OccupancyResultView(self)
        self.advice = OccupancyAdvice(self)
        self.graphs = OccupancyGraphs(self)

        top = QWidget(self)
        row = QHBoxLayout(top)
        row.setContentsMargins(0, 0, 0, 0)
        # Widths by stretch alone (size hints ignored), so the columns stay put while
        # wrapped texts change length; the minimums keep every column readable.
        for group, stretch, minimum in ((self.inputs, 4, 330), (self.result, 4, 330), (self.advice, 4, 260)):
            policy = group.sizePolicy()
            policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
            group.setSizePolicy(policy)
            group.setMinimumWidth(minimum)
            row.addWidget(group, stretch)
        scroll = QScrollArea(self)
        scroll.setWidget(top)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # the GPU and a few fields at least: a thinner strip is a collapsed pane (saved sizes that small are ignored)
        scroll.setMinimumHeight(MIN_INPUT_LINES * self.fontMetrics().lineSpacing())
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("occupancy_splitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(self.graphs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)
        self._top = top

        self.evaluation: Evaluation | None = None
        self._good = dict(DEFAULTS)  # last valid value of every field
        self.inputs.changed.connect(self.recompute)
        self.advice.use_block_size.connect(lambda threads: self.inputs.fields["threads"].set_text(str(threads)))
        self.setTabOrder(self.inputs.fields[FIELDS[-1]].edit, self.advice.use_best)
        self.recompute()

    def recompute(self) -> None:
        values, errors = check_fields(self.inputs.raw_values(), self._good)
        self.inputs.show_errors(errors)
        self.result.set_stale(bool(errors) and self.evaluation is not None)
        if errors:
            self.set_status(self.tr("Invalid inputs: {count}. Showing the last valid result.").format(count=len(errors)))
            return
        ev = evaluate(self.inputs.gpu_name(), values)
        self._good, self.evaluation = values, ev
        self.result.show_result(ev.gpu, ev.result)
        self.advice.show_evaluation(ev)
        self.graphs.show_evaluation(ev)
        self.set_status(self._summary(ev))

    def follow_lesson(self, step, scenario: Scenario | None = None) -> None:
        """Every lesson step, whichever view it shows: the calculator holds the step's launch."""
        if scenario is not None:
            self.show_launch(scenario)

    def show_launch(self, scenario: Scenario) -> None:
        """The scenario's GPU and launch in the inputs (a lesson step), computed once.

        The GPU picker's own signal is held too: it would have a compiled ``.cu``
        kernel recompiled for the new GPU and put back into the fields; instead the
        fields hold the lesson's launch and the ``.cu`` row sees (``changed``) that
        they no longer hold its kernel's numbers.
        """
        launch = scenario.launch
        with QSignalBlocker(self.inputs), QSignalBlocker(self.inputs.gpu):
            self.inputs.set_gpu(scenario.gpu_name)
            self.inputs.set_values({
                "threads": launch.threads_per_block, "regs": launch.registers_per_thread,
                "smem_static": launch.static_shared_bytes, "smem_dynamic": launch.dynamic_shared_bytes,
                "carveout": launch.carveout, "barriers": launch.barriers,
            })
        self.inputs.show_gpu_info()
        self.inputs.changed.emit()  # one recompute, and whoever else reads the fields (the .cu row) sees them

    def _summary(self, ev: Evaluation) -> str:
        r = ev.result
        limiters = ", ".join(self.result.limit_name[key].text() for key in r.limiters)
        return self.tr("{gpu}: occupancy {occ}, warps per SM {warps}/{max}, blocks per SM {blocks}; limited by {limiters}").format(
            gpu=ev.gpu.name, blocks=r.active_blocks_per_sm, warps=r.active_warps_per_sm,
            max=r.max_warps_per_sm, occ=pct(r.occupancy), limiters=limiters.lower(),
        )

    # -- window hooks ---------------------------------------------------------------
    def themed_views(self) -> tuple:
        return (self.graphs,)

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter}

    def first_sizes(self) -> None:
        # room for the inputs plus two error lines, so a mistake does not bring up a scroll bar
        top = self._top.sizeHint().height() + 2 * self.fontMetrics().lineSpacing() + 8
        total = sum(self.splitter.sizes()) or self.height()
        self.splitter.setSizes([top, max(total - top, self.graphs.minimumSizeHint().height())])

    def capture_state(self, live: bool = False) -> dict:
        return super().capture_state(live) | {"gpu": self.inputs.gpu_name()} | self.inputs.raw_values()

    def restore_state(self, state: dict) -> None:
        """The saved inputs and splitter; recomputed only when they differ from those on screen."""
        before = (self.inputs.gpu_name(), self.inputs.raw_values())
        self.inputs.blockSignals(True)
        try:
            self.inputs.set_gpu(as_str(state.get("gpu"), self.inputs.gpu_name()))
            self.inputs.set_values({name: as_str(state.get(name), str(DEFAULTS[name])) for name in FIELDS})
        finally:
            self.inputs.blockSignals(False)
        super().restore_state(state)
        if (self.inputs.gpu_name(), self.inputs.raw_values()) != before:
            self.inputs.changed.emit()
