"""What the Explorer tab says about the run on screen: current, stale, invalid, simulating, compiling, filling in.

Why apart from the page: one state of the workspace (errors, a simulation under way and its progress, a
numba compile it waits for, the SMs a long run did not keep coming in) is said in several places at once, and
they must agree: the line over the SM grid (``run_state``), the grid's placeholder and banners, the timeline's
banner, the whole-run metrics marked stale, and the status bar (the run's summary when all is well). One
:meth:`RunStateView.refresh` writes all of them from the workspace; the page calls it whenever any of that
changes.

The texts keep the page's translation context (``ExplorerPage``): the catalogue has them there, and they
are the page's words wherever the code that writes them lives.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QLabel

from explorer.gui.common.compile_watch import INTERPRETER, SIMULATOR, CompileWatch
from explorer.gui.common.page import Page
from explorer.gui.common.theme import restyle
from explorer.gui.explore.metrics import MetricsPanel, program_text
from explorer.gui.explore.sm_grid import SmGridView
from explorer.gui.explore.timeline import TimelineView
from explorer.gui.workspace.workspace import Workspace
from explorer.model.scenario import Scenario
from explorer.texts.numbers import num, pct

translate = QCoreApplication.translate


class RunStateView(QObject):
    """Writes the run's state into ``label`` (the line over the grid), the grid, the timeline, the metrics and
    ``page``'s status line; owns the watch on numba's first compile (a first start never waits silently)."""

    def __init__(self, page: Page, workspace: Workspace, label: QLabel, grid: SmGridView, timeline: TimelineView,
                 metrics: MetricsPanel):
        super().__init__(page)
        self.page, self.workspace = page, workspace
        self.label, self.grid, self.timeline, self.metrics = label, grid, timeline, metrics
        self.compile_watch = CompileWatch(page)
        self.compile_watch.changed.connect(self.refresh)

    def sim_started(self, scenario: Scenario) -> None:
        """A simulation started: the compiled functions it may wait for (the interpreter for your own kernel)."""
        self.compile_watch.start(SIMULATOR, *((INTERPRETER,) if scenario.kernel is not None else ()))

    def refresh(self) -> None:
        s, simulation = self.workspace.session, self.workspace.simulation
        stale = s.run is not None and not s.run_is_current
        if s.errors:
            text = translate("ExplorerPage", "Invalid input ({n}): showing the last good simulation").format(
                n=len(s.errors))
            role = "error"
        elif s.simulating and self.compile_watch.active:  # short here; the whole line over the grid and below
            text = translate("ExplorerPage", "Compiling… {pct}").format(pct=pct(self.compile_watch.fraction, 0))
            role = "muted"
        elif s.simulating:
            text = translate("ExplorerPage", "Simulating… {pct:.0f}%").format(pct=100 * s.progress)
            role = "muted"
            if s.run is not None:
                text += " " + translate("ExplorerPage", "(showing the previous run)")
        elif s.failed:
            text = translate("ExplorerPage", "Simulation refused: showing the last good run")
            role = "error"
        else:
            text, role = "", "muted"
        coming = simulation.fill  # the run whose missing SMs come in, its plan and the batches done
        fill = self._fill_text() if coming is not None and s.run is coming[0] else ""
        if not text and fill:
            text = translate("ExplorerPage", "Filling in SMs… {pct:.0f}%").format(
                pct=100 * coming[2] / len(coming[1].batches))
        if self.label.property("role") != role:
            self.label.setProperty("role", role)
            restyle(self.label)
        self.label.setText(text)
        compiling = self.compile_text() if s.simulating else ""
        self.grid.set_placeholder(compiling or text or translate("ExplorerPage", "Simulating…"))
        busy = ""
        if s.simulating and s.run is not None and compiling:
            busy = compiling
        elif s.simulating and s.run is not None:
            busy = translate("ExplorerPage", "Simulating… {pct:.0f}%\nThis is the previous run until the new one is "
                                             "done.").format(pct=100 * s.progress)
        self.grid.set_notice(busy, fill)
        self.timeline.set_notice(busy)
        self.metrics.whole.set_stale(stale, invalid=bool(s.errors or s.failed))
        self.page.set_status(compiling or (self._summary_text() if not (s.errors or s.failed) else text))

    def compile_text(self) -> str:
        """The line for a simulation that waits for numba's compile ("" when it does not)."""
        watch = self.compile_watch
        return f"{watch.text} {pct(watch.fraction, 0)}" if watch.active else ""

    def _fill_text(self) -> str:
        run, plan, done = self.workspace.simulation.fill
        missing = run.missing_sms()
        if not missing:
            return ""
        if missing == list(range(missing[0], missing[-1] + 1)):
            which = translate("ExplorerPage", "SMs {first}–{last}").format(first=missing[0], last=missing[-1])
        else:
            which = translate("ExplorerPage", "{n} SMs").format(n=len(missing))
        return translate("ExplorerPage", "{which}: this long run did not keep their states; filling them in… "
                                         "{pct:.0f}%").format(which=which, pct=100 * done / len(plan.batches))

    def _summary_text(self) -> str:
        s = self.workspace.session
        run = s.run
        if run is None:
            return translate("ExplorerPage", "Simulating {name}…").format(
                name=s.scenario.name or translate("ExplorerPage", "the scenario"))
        sm = run.summary
        # the same formatter as the panels and tooltips: 12.5% everywhere, digits grouped (1,920; ru 1 920)
        # and which instruction stream ran, always on screen (the SASS view, which says more, may be closed)
        program = program_text(sm)
        return translate("ExplorerPage", "{gpu}: {warps} warps launched · theoretical occupancy {theo} · achieved "
                                         "{ach} · issue slots used {iss} · {cycles} cycles · {program}").format(
            gpu=sm["gpu"], warps=num(sm["launched_warps"]), theo=pct(sm["theoretical_occupancy"]),
            ach=pct(sm["achieved_occupancy"]), iss=pct(sm["issue_slot_utilization"]), cycles=num(sm["cycles"]),
            program=program)
