"""The "Explorer" tab: scenario panel, SM grid, timeline, counts plot, metrics, playback.

A view of the window's workspace (``workspace.Workspace``: the scenario, its run,
the cycle and selected SM, the command stack, the simulation): the page lays out
the views, turns the panel's texts into edits (commands on the workspace, undoable
from the Edit menu), attaches its task runner to the workspace's simulation, and
forwards the workspace's changes to the views, keeping the last good run on screen
while input is invalid or a new run is computing. It computes nothing about GPUs
itself.

A long run keeps the per-slot states of its first SMs only; the workspace fills in
the others in the background (``workspace.simulation``), and the grid shows them as
they arrive. While a new run is simulated, or SMs are filled in, the SM grid and the
timeline say so on the picture itself (``explore.banner``).

Playback frame: the session moves the cycle; the SM grid repaints (one numpy
gather + one image), the two plot cursors move, the "right now" numbers change.
Nothing re-uploads the timeline image or the curves.
"""

from __future__ import annotations

import tomllib

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from explorer.gui.common.compile_watch import INTERPRETER, SIMULATOR, CompileWatch
from explorer.gui.common.error_texts import core_error
from explorer.gui.common.legend import StateLegend
from explorer.texts.numbers import num, pct
from explorer.gui.common.page import Page, pane_minimum
from explorer.gui.common.settings import as_bool, as_int, as_str
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.common.theme import restyle
from explorer.gui.common.widgets import FittingLabel, scroll_area, splitter
from explorer.gui.explore.counts_plot import MIN_HEIGHT as COUNTS_MIN_HEIGHT
from explorer.gui.explore.counts_plot import CountsPlot
from explorer.gui.explore.metrics import MetricsPanel, cited_figures, program_text
from explorer.gui.explore.scenario_fields import build_scenario, field_of, scenario_to_texts
from explorer.gui.explore.scenario_panel import ScenarioPanel
from explorer.gui.explore.sol_panel import SolPanel
from explorer.gui.explore.sm_grid import SmGridView
from explorer.gui.explore.stream_strip import StreamStrip
from explorer.gui.explore.timeline import MIN_HEIGHT as TIMELINE_MIN_HEIGHT
from explorer.gui.explore.timeline import TimelineView
from explorer.gui.explore.transport import DEFAULT_SPEED, SPEEDS, PlaybackClock, TransportBar, playback_keys
from explorer.gui.explore.unit_strip import UnitStrip
from explorer.gui.workspace.commands import ScenarioChange
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.workspace.session import ExplorerSession
from explorer.gui.workspace.simulation import Simulation
from explorer.gui.workspace.workspace import Workspace
from explorer.model.errors import InputError
from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario

EDIT_DEBOUNCE_MS = 30
STRIP_ROOM = 560  # px of the center column from which the unit-use strip starts open (see first_sizes)
PLOTS_SHARES = (19, 27)  # the timeline and the counts plot (its legend may wrap): shares of their pane
# px the plots keep at least while the stream strip takes part of their column (110 without): the Explorer with
# the strip then leaves a lesson's narration its three lines on a 1280x720 screen (Russian); each y axis keeps
# two numbers, the timeline one scheduler's name at least
COUNTS_UNDER_STRIP, TIMELINE_UNDER_STRIP = 100, 104
PLOTS_BESIDE_VIEWS = 420  # px the timeline and counts plot keep beside the views added next to them
# px the center column keeps at first before the scenario column is laid out as wide as its labels beside its
# fields (narrower, it stacks them): the SM grid with its SM numbers, its legend in four columns (1024x640)
CENTER_ROOM = 600


class ExplorerPage(Page):
    """A view of the workspace (its own one unless the window hands it the window's); owns the layout, the task
    runner it attaches to the workspace's simulation and the playback clock."""

    slot_clicked = Signal(int)  # a warp slot of the selected SM was clicked on the timeline

    def __init__(self, parent: QWidget | None = None, scenario: Scenario | None = None, autoplay: bool = False,
                 workspace: Workspace | None = None):
        super().__init__(parent)
        self.setObjectName("explorer_page")
        self.workspace = workspace if workspace is not None else Workspace(scenario)
        scenario = self.workspace.scenario
        self.runner = TaskRunner(self, threads=1)  # one simulation at a time
        self.clock = PlaybackClock(self)
        self.autoplay = autoplay
        self._base = scenario
        self._good = scenario_to_texts(scenario)
        self._shown_once = False
        self._lower_moved = False  # the user moved the handle beside the plots: their share is theirs
        self._presenting = False  # presentation mode: the center's panes shared by the text they need
        self._strip_step = False  # the lesson step on screen points at the unit-use strip
        self._plots_back: dict | None = None  # a lesson ended: the user's splitters, to give back (_give_back_plots)
        self.compile_watch = CompileWatch(self)  # a first start that waits for numba says so (never silently)
        self.compile_watch.changed.connect(self._update_run_state)

        # -- views --------------------------------------------------------------------
        self.panel = ScenarioPanel(self)
        self.grid = SmGridView(self)
        self.legend = StateLegend(parent=self)
        self.timeline = TimelineView(self)
        self.counts = CountsPlot(self)
        self.counts.setXLink(self.timeline)
        self.timeline.line_up_with(self.counts)  # the link lines cycles up by pixels: the same view box span
        self.metrics = MetricsPanel(self)
        # Speed of Light: "what limits useful work right now?" (bars in the metrics column, the strip on the time axis)
        self.sol = SolPanel(self.metrics)
        self.metrics.layout().insertWidget(1, self.sol)
        self.unit_strip = UnitStrip(self)
        self.unit_strip.setXLink(self.timeline)
        self.unit_strip.line_up_with(self.counts)  # its view box spans the timeline's and the counts plot's pixels
        self.stream_strip = StreamStrip(self)  # shown when the scenario launches its kernel more than once
        self.transport = TransportBar(self)

        self.grid_title = FittingLabel(self)  # shortened, never cut, when the column is narrow
        self.grid_title.setObjectName("grid_title")
        self.grid_title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.run_state = QLabel(self)
        self.run_state.setObjectName("run_state")
        self.run_state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # a fixed-height head row: a changing message must never resize (and re-layout) the SM grid
        head_h = self.fontMetrics().height() + 4
        self.grid_title.setFixedHeight(head_h)
        self.run_state.setFixedHeight(head_h)
        self.per_sm = QCheckBox(self.tr("Counts of the selected SM only"), self)
        self.per_sm.setObjectName("per_sm_counts")
        self.per_sm.setToolTip(self.tr("Show resident, eligible and issued warps of the selected SM instead of the whole GPU."))
        self.per_sm.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        grid_box = QWidget(self)
        gl = self._grid_layout = QVBoxLayout(grid_box)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.setSpacing(2)
        head = QHBoxLayout()
        head.addWidget(self.grid_title, 1)
        head.addWidget(self.run_state)
        gl.addLayout(head)
        gl.addWidget(self.grid, 1)
        gl.addWidget(self.legend)

        # the counts plot with its legend: what a lesson outlines and File > Export draws as "Counts plot"
        counts_box = self.counts_panel = QWidget(self)
        counts_box.setObjectName("counts_panel")
        cl = self._counts_layout = QVBoxLayout(counts_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.stream_strip)
        cl.addWidget(self.counts, 1)
        legend = self.counts.make_legend(counts_box)
        legend.layout().addWidget(self.per_sm)  # after the curves' names, on a line of its own when narrow
        cl.addWidget(legend)

        # the two plots one above the other with the unit-use strip between them (their cycle axes line up), in a
        # row other features add a view beside (the SASS view: add_beside_timeline); the SM grid keeps the width
        # (fit_panes: the counts pane never lets its legend, wrapped onto two lines, lie over the cycle axis)
        self.plots = splitter(Qt.Orientation.Vertical, self, "explorer_plots", (self.timeline, self.unit_strip, counts_box),
                              stretch=(PLOTS_SHARES[0], 12, PLOTS_SHARES[1]), fit_panes=True)
        self.plots.setCollapsible(self.plots.indexOf(self.unit_strip), True)
        self.lower = splitter(Qt.Orientation.Horizontal, self, "explorer_lower", (self.plots,), stretch=(3,))
        self.center = splitter(Qt.Orientation.Vertical, self, "explorer_center", (grid_box, self.lower),
                               stretch=(5, 6), fit_panes=True)
        self.center.installEventFilter(self)  # presenting, the panes are shared by their text (_share_center)
        self.center.resized.connect(self._center_resized)  # not presenting: each pane keeps what its text needs

        # first laid out as wide as its fields and labels need (first_sizes: Russian labels are longer) where the
        # window has room, but never a minimum that wide: the window must still fit an 800 px screen (narrower,
        # the panel puts its labels above its fields: it never scrolls sideways)
        self.panel_scroll = scroll_area(self.panel, self)
        self.panel_scroll.setMinimumWidth(220)
        self.metrics_scroll = scroll_area(self.metrics, self)
        # never narrower than the panel: clipped numbers would be worse than a narrower grid
        self.metrics_scroll.setMinimumWidth(max(260, self.metrics.minimumSizeHint().width()
                                                + self.metrics_scroll.verticalScrollBar().sizeHint().width() + 2))
        self.splitter = splitter(Qt.Orientation.Horizontal, self, "explorer_splitter",
                                 (self.panel_scroll, self.center, self.metrics_scroll), stretch=(0, 1, 0))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.transport)

        # -- wiring -------------------------------------------------------------------
        s, sim = self.session, self.simulation
        s.scenario_changed.connect(self._on_scenario)
        s.run_changed.connect(self._on_run)
        s.cycle_changed.connect(self._on_cycle)
        s.selection_changed.connect(self._on_selection)
        s.errors_changed.connect(self._on_errors)
        s.simulation_changed.connect(self._update_run_state)
        self.workspace.scenario_shown.connect(self._show_scenario)
        sim.started.connect(self._sim_started)
        sim.finished.connect(self._sim_finished)
        sim.failed.connect(self._sim_failed)
        sim.trace_arrived.connect(self._sm_recorded)
        sim.filled.connect(self.grid.set_run)
        sim.fill_changed.connect(self._update_run_state)
        sim.fill_failed.connect(self._fill_failed)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(EDIT_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.apply_edits)
        self.panel.edited.connect(self._debounce.start)
        self.panel.preset_chosen.connect(self.load_preset)
        self.panel.stream_toggle.toggled.connect(self._stream_section_toggled)
        self.grid.sm_clicked.connect(self.session.select_sm)
        self.timeline.cycle_requested.connect(self.session.set_cycle)
        self.counts.cycle_requested.connect(self.session.set_cycle)
        self.unit_strip.cycle_requested.connect(self.session.set_cycle)
        self.timeline.needs_trace.connect(sim.record_sm)
        self.timeline.slot_clicked.connect(self.slot_clicked)
        self.transport.cycle_requested.connect(self.session.set_cycle)
        self.transport.step_requested.connect(self.session.step)
        self.transport.play_toggled.connect(self.toggle_play)
        self.transport.speed_changed.connect(self.set_speed)
        self.clock.advance.connect(self._advance)
        self.clock.playing_changed.connect(self.transport.set_playing)
        # one clock plays the shared cursor: this one says so, and pauses when another view's (A/B compare) starts
        self.clock.playing_changed.connect(lambda on: s.set_playing(self) if on else s.stopped(self))
        s.playing_changed.connect(lambda view: self.clock.pause() if view is not None and view is not self else None)
        self.per_sm.toggled.connect(self._per_sm_toggled)
        self._build_actions()

        self.panel.set_scenario(scenario)
        s.set_errors({})  # a rebuilt window's panel shows the scenario's own values
        self._on_scenario(scenario)
        if s.run is not None:  # a rebuilt window: the workspace's run, at its cycle
            self._on_run(s.run)
        sim.attach(self.runner, defer=lambda fn: QTimer.singleShot(0, self, fn))
        sim.submit_soon()

    # -- the workspace --------------------------------------------------------------
    @property
    def session(self) -> ExplorerSession:
        return self.workspace.session

    @property
    def simulation(self) -> Simulation:
        return self.workspace.simulation

    # -- keyboard -------------------------------------------------------------------
    def _build_actions(self) -> None:
        """Playback keys, active anywhere in the tab except while typing in a field."""
        s = self.session
        self.key_actions = playback_keys(self, play=self.toggle_play, step=s.step, to_start=s.to_start,
                                         to_end=s.to_end)

    # -- playback -------------------------------------------------------------------
    def toggle_play(self) -> None:
        if self.clock.playing:
            self.clock.pause()
        elif self.session.run is not None:
            if self.session.cycle >= self.session.last_cycle:
                self.session.to_start()
            self.clock.play()

    def set_speed(self, speed: int) -> None:
        self.clock.speed = int(speed)

    def _advance(self, steps: int) -> None:
        s = self.session
        if s.run is None:
            self.clock.pause()
            return
        target = s.cycle + steps
        s.set_cycle(target)
        if target >= s.last_cycle:
            self.clock.pause()

    # -- places other features add to (the measurement overlay) ----------------------
    def add_under_grid(self, widget: QWidget) -> None:
        """A one-line note right under the SM grid."""
        self._grid_layout.insertWidget(self._grid_layout.indexOf(self.grid) + 1, widget)

    def add_under_counts(self, widget: QWidget) -> None:
        """A row under the counts plot's legend."""
        self._counts_layout.addWidget(widget)

    def add_beside_timeline(self, widget: QWidget) -> None:
        """A view right of the timeline and the counts plot, as tall as both (the splitter between is the user's)."""
        self.lower.addWidget(widget)
        self.lower.setStretchFactor(self.lower.count() - 1, 2)
        widget.installEventFilter(self)  # shown or hidden: the row is shared again (_share_lower)
        if self.lower.count() == 2:
            self.lower.installEventFilter(self)  # its share kept on resizes
            self.lower.splitterMoved.connect(lambda *_: setattr(self, "_lower_moved", True))

    def add_to_metrics(self, widget: QWidget) -> None:
        """A box at the top of the metrics column."""
        self.metrics.layout().insertWidget(0, widget)

    def _stream_section_toggled(self, on: bool) -> None:
        """The stream section opened (a click, a scenario with a stream): scroll the column to it, once laid out."""
        if on:
            QTimer.singleShot(0, self, self._show_stream_section)

    def _show_stream_section(self) -> None:
        self.panel_scroll.ensureWidgetVisible(self.panel.stream_info, 0, 4)  # its last row, then its header
        self.panel_scroll.ensureWidgetVisible(self.panel.stream_toggle, 0, 4)

    # -- scenario changes: all commands on the workspace ----------------------------------
    def load_preset(self, name: str) -> None:
        try:
            scenario = load_preset(name)
        except InputError as exc:
            self.set_status(core_error(exc.field, exc.message))
            return
        self.workspace.change_scenario(scenario, "preset")

    def _show_scenario(self, scenario: Scenario) -> None:
        """A command put a whole scenario on screen: the panel shows its values (the texts typed are dropped)."""
        self._debounce.stop()
        self._base = scenario
        self._good = scenario_to_texts(scenario)
        self.panel.set_scenario(scenario)

    def apply_edits(self) -> None:
        """The panel's texts -> a valid scenario (simulated, one undoable edit) or the errors (last run kept)."""
        self._debounce.stop()
        texts = self.panel.texts()
        scenario, errors = build_scenario(self._base, texts, self._good)
        self.session.set_errors(errors)
        if errors:
            return
        changed = frozenset(key for key, text in texts.items() if text != self._good.get(key))
        self._good = texts
        s = self.session
        if scenario != s.scenario:
            self.workspace.do(ScenarioChange("edit", scenario, fields=changed))
        elif s.run is None:
            self.simulation.submit()
        elif not s.run_is_current and not s.simulating:
            self._on_run(s.run)  # back to the shown run's values: nothing to simulate

    # -- the workspace's simulation -> the page -------------------------------------------
    def _sim_started(self, scenario: Scenario) -> None:
        self.compile_watch.start(SIMULATOR, *((INTERPRETER,) if scenario.kernel is not None else ()))

    def _sim_finished(self, _run: SimRun) -> None:
        self.compile_watch.stop()
        if self.autoplay and not self._shown_once:
            self.clock.play()
        self._shown_once = True

    def _sim_failed(self, _scenario: Scenario, error: TaskError) -> None:
        if not self.simulation.running():
            self.compile_watch.stop()
        if error.kind == "cancelled":
            return
        if error.kind == "input":
            message = core_error(error.field, error.message)
            key = field_of(error.field) if error.field else None
            if key is not None:
                self.panel.show_errors({key: error.message})
            status = self.tr("The simulation refused this scenario: {msg}. Showing the last good run.")
        else:  # a bug: the runner logged the traceback
            message = error.message
            status = self.tr("The simulation failed (a bug): {msg}")
        self.set_status(status.format(msg=message))

    def _sm_recorded(self, run: SimRun, sm: int) -> None:
        self.timeline.trace_arrived(sm)
        self.grid.set_run(run)

    def _fill_failed(self, _run: SimRun, error: TaskError) -> None:
        self.set_status(self.tr("The SMs this run did not keep could not be filled in: {msg}").format(
            msg=error.message))

    def _fill_text(self) -> str:
        run, plan, done = self.simulation.fill
        missing = run.missing_sms()
        if not missing:
            return ""
        if missing == list(range(missing[0], missing[-1] + 1)):
            which = self.tr("SMs {first}–{last}").format(first=missing[0], last=missing[-1])
        else:
            which = self.tr("{n} SMs").format(n=len(missing))
        return self.tr("{which}: this long run did not keep their states; filling them in… {pct:.0f}%").format(
            which=which, pct=100 * done / len(plan.batches))

    # -- session -> views -----------------------------------------------------------
    def _on_scenario(self, scenario: Scenario) -> None:
        self.panel.update_summary(scenario)
        self.metrics.whole.show_occupancy(self.session.occupancy)
        self._update_run_state()

    def _on_run(self, run: SimRun) -> None:
        s = self.session
        gpu = run.result.scenario.gpu
        self.grid_title.set_texts(
            self.tr("<b>SM grid</b> — {gpu}: {sms} SMs × {w} warp slots · row = scheduler · "
                    "outline = block · bar = resident warps").format(gpu=gpu.name, sms=run.sm_count, w=run.warps_per_sm),
            self.tr("<b>SM grid</b> — {gpu}: {sms} SMs × {w} warp slots").format(
                gpu=gpu.name, sms=run.sm_count, w=run.warps_per_sm),
            self.tr("<b>SM grid</b> — {gpu}").format(gpu=gpu.name))
        self.grid.set_run(run)
        self.grid.set_selected(s.selected_sm)
        self.timeline.set_run(run, s.selected_sm)
        self.counts.set_run(run)
        had_strip = self.stream_strip.isVisibleTo(self)
        self.stream_strip.set_run(run)
        strip = self.stream_strip.isVisibleTo(self)  # the plots a little shorter under it (COUNTS_UNDER_STRIP)
        self.counts.setMinimumHeight(COUNTS_UNDER_STRIP if strip else COUNTS_MIN_HEIGHT)
        self.timeline.setMinimumHeight(TIMELINE_UNDER_STRIP if strip else TIMELINE_MIN_HEIGHT)
        self._room_for_strip(had_strip)
        if self.per_sm.isChecked():
            self.counts.show_sm(s.selected_sm)
        self.metrics.whole.show_run(run)
        self.sol.set_run(run)
        self.metrics.refit_soon()  # the panel's idle rows changed: what the column can show, once laid out
        self.unit_strip.set_run(run)
        self.metrics.whole.show_occupancy(run.result.theoretical)
        self.transport.set_length(run.cycles)
        self._update_run_state()
        self._on_cycle(s.cycle)

    def _room_for_strip(self, had_strip: bool) -> None:
        """The stream strip came or went: the counts pane grows or shrinks by its height, the grid's gives it."""
        shown = self.stream_strip.isVisibleTo(self)
        sizes = self.center.sizes()
        if shown == had_strip or self._presenting or sum(sizes) <= 0:
            return  # presenting, _share_center shares the panes
        h = self.stream_strip.sizeHint().height() * (1 if shown else -1)
        h = min(h, sizes[0] - self.center.widget(0).minimumSizeHint().height())
        # the center is the grid over the plots' row; in that row the counts pane (the strip's) is last
        self.center.setSizes([sizes[0] - h, *sizes[1:-1], sizes[-1] + h])
        plots = self.plots.sizes()
        if sum(plots) > 0:
            self.plots.setSizes([*plots[:-1], max(0, plots[-1] + h)])

    def _on_cycle(self, cycle: int) -> None:
        run = self.session.run
        if run is None:
            return
        self.grid.set_cycle(cycle)
        self.timeline.set_cycle(cycle)
        self.counts.set_cycle(cycle)
        self.unit_strip.set_cycle(cycle)
        self.sol.set_cycle(cycle)
        self.metrics.now.show_cycle(run, cycle, run.result.theoretical)
        self.transport.set_cycle(cycle)

    def _on_selection(self, sm: int) -> None:
        self.grid.set_selected(sm)
        self.timeline.set_sm(sm)
        if self.per_sm.isChecked():
            self.counts.show_sm(sm)

    def _per_sm_toggled(self, on: bool) -> None:
        self.counts.show_sm(self.session.selected_sm if on else None)

    def _on_errors(self, errors: dict) -> None:
        self.panel.show_errors(errors)
        self._update_run_state()

    def _update_run_state(self) -> None:
        s = self.session
        stale = s.run is not None and not s.run_is_current
        if s.errors:
            text = self.tr("Invalid input ({n}): showing the last good simulation").format(n=len(s.errors))
            role = "error"
        elif s.simulating and self.compile_watch.active:  # short here; the whole line over the grid and below
            text = self.tr("Compiling… {pct}").format(pct=pct(self.compile_watch.fraction, 0))
            role = "muted"
        elif s.simulating:
            text = self.tr("Simulating… {pct:.0f}%").format(pct=100 * s.progress)
            role = "muted"
            if s.run is not None:
                text += " " + self.tr("(showing the previous run)")
        elif s.failed:
            text = self.tr("Simulation refused: showing the last good run")
            role = "error"
        else:
            text, role = "", "muted"
        coming = self.simulation.fill  # the run whose missing SMs come in, its plan and the batches done
        fill = self._fill_text() if coming is not None and s.run is coming[0] else ""
        if not text and fill:
            text = self.tr("Filling in SMs… {pct:.0f}%").format(pct=100 * coming[2] / len(coming[1].batches))
        if self.run_state.property("role") != role:
            self.run_state.setProperty("role", role)
            restyle(self.run_state)
        self.run_state.setText(text)
        compiling = self.compile_text() if s.simulating else ""
        self.grid.set_placeholder(compiling or text or self.tr("Simulating…"))
        busy = ""
        if s.simulating and s.run is not None and compiling:
            busy = compiling
        elif s.simulating and s.run is not None:
            busy = self.tr("Simulating… {pct:.0f}%\nThis is the previous run until the new one is done.").format(
                pct=100 * s.progress)
        self.grid.set_notice(busy, fill)
        self.timeline.set_notice(busy)
        self.metrics.whole.set_stale(stale, invalid=bool(s.errors or s.failed))
        self.set_status(compiling or (self._summary_text() if not (s.errors or s.failed) else text))

    def compile_text(self) -> str:
        """The line for a simulation that waits for numba's compile ("" when it does not)."""
        watch = self.compile_watch
        return f"{watch.text} {pct(watch.fraction, 0)}" if watch.active else ""

    def _summary_text(self) -> str:
        run = self.session.run
        if run is None:
            return self.tr("Simulating {name}…").format(name=self.session.scenario.name or self.tr("the scenario"))
        sm = run.summary
        # the same formatter as the panels and tooltips: 12.5% everywhere, digits grouped (1,920; ru 1 920)
        # and which instruction stream ran, always on screen (the SASS view, which says more, may be closed)
        program = program_text(sm)
        return self.tr("{gpu}: {warps} warps launched · theoretical occupancy {theo} · achieved {ach} · "
                       "issue slots used {iss} · {cycles} cycles · {program}").format(
            gpu=sm["gpu"], warps=num(sm["launched_warps"]), theo=pct(sm["theoretical_occupancy"]),
            ach=pct(sm["achieved_occupancy"]), iss=pct(sm["issue_slot_utilization"]), cycles=num(sm["cycles"]),
            program=program)

    # -- window hooks ---------------------------------------------------------------
    def themed_views(self) -> tuple:
        return (self.grid, self.timeline, self.counts, self.metrics, self.legend, self.stream_strip, self.sol,
                self.unit_strip)

    def first_sizes(self) -> None:
        # shown the first time, the page can be wider than the window (its layout has not run yet: 2,686 px
        # in a 1280x720 window): the page will not be wider than the window
        total = max(min(self.splitter.width(), self.window().width()), 900)
        right = max(self.metrics_scroll.minimumWidth(), min(360, int(total * 0.22)))
        room = total - right - CENTER_ROOM - 2 * self.splitter.handleWidth()  # a small screen: the center first
        left = max(self.panel_scroll.minimumWidth(), min(360, self.panel.sizeHint().width() + 16, room))
        self.splitter.setSizes([left, total - left - right, right])
        h = max(self.center.height(), 500)
        strip = self.stream_strip.sizeHint().height() if self.stream_strip.isVisibleTo(self) else 0
        grid = int(h * 0.54) - strip
        lower = h - grid - self.center.handleWidth()
        # what the plots' text needs at the column's width: the timeline's minimum, the counts plot with its
        # legend (wrapped: two lines at 1280x720) and the stream strip, the unit strip's names
        width = self.center.width() if self.center.width() > 100 else total - left - right
        counts = self.counts_panel.layout().totalMinimumHeightForWidth(width)
        timeline_min = pane_minimum(self.plots, self.plots.indexOf(self.timeline))
        handles = 2 * self.plots.handleWidth()
        # a short column (1280x720 with the lesson panel open) cannot give the plots and the unit strip the lines
        # their text needs: the strip starts folded there (its splitter handle drags it open)
        unit = max(self.unit_strip.readable_height(), (lower - strip) * 22 // 100) if h >= STRIP_ROOM else 0
        grid_box = self.center.widget(0)
        grid_min = grid_box.layout().totalMinimumHeightForWidth(width)
        if lower < timeline_min + unit + counts + handles:  # the SM grid gives the plots' text its lines ...
            grid = max(grid_min, h - self.center.handleWidth() - (timeline_min + unit + counts + handles))
            lower = h - grid - self.center.handleWidth()
        if lower < timeline_min + unit + counts + handles:  # ... and the unit strip folds if that is not enough
            unit = 0
        rest = lower - handles - unit
        timeline = max(timeline_min, min((rest - strip) * PLOTS_SHARES[0] // sum(PLOTS_SHARES), rest - counts))
        self.center.setSizes([grid, lower])
        self.plots.setSizes([timeline, unit, rest - timeline])

        self._lower_moved = False
        self._share_lower()
        self._keep_grid()

    def _share_lower(self) -> None:
        """The views beside the plots get 40% of the row, the plots at least room for their legends' two lines;
        kept on every resize until the user moves the handle."""
        row = self.lower
        shown = [i for i in range(1, row.count()) if not row.widget(i).isHidden()]
        if not shown or self._lower_moved:
            return
        width = row.width() - row.handleWidth() * len(shown)
        side_min = sum(row.widget(i).minimumSizeHint().width() for i in shown)
        plots = max(int(width * 0.6), min(PLOTS_BESIDE_VIEWS, width - side_min))
        side = (width - plots) // len(shown)
        row.setSizes([width - side * len(shown)] + [side if i in shown else 0 for i in range(1, row.count())])

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "center": self.center, "plots": self.plots}

    def presentation_hidden_widgets(self) -> list[QWidget]:
        return [self.panel_scroll, self.transport, self.per_sm]

    def presentation_changed(self, on: bool) -> None:
        """Presenting, the metrics column has no scroll bar: its details make way instead (nothing is cut)."""
        self._presenting = on
        if not on:
            self.unit_strip.setVisible(True)
        policy = Qt.ScrollBarPolicy.ScrollBarAlwaysOff if on else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        self.metrics_scroll.setVerticalScrollBarPolicy(policy)
        self.metrics_scroll.setHorizontalScrollBarPolicy(policy)
        self.metrics.fit()

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the text: the plots get the lines of text they need, the grid the rest."""
        self._share_center()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.center and event.type() == QEvent.Type.Resize:
            if self._presenting:
                self._share_center()  # the narration panel grew or the screen changed
        elif (obj is self.lower and event.type() == QEvent.Type.Resize) or (
                obj is not self.plots and obj.parent() is self.lower
                and event.type() in (QEvent.Type.Show, QEvent.Type.Hide)):
            QTimer.singleShot(0, self, self._share_lower)  # once the splitter has laid out its new width
        return super().eventFilter(obj, event)

    def _center_resized(self) -> None:
        """The column's new height, once its splitter has shared it (not presenting)."""
        if not self._presenting:
            self._give_back_plots()  # the lesson just ended: the user's plots first
            self._keep_grid()
            self._room_for_plots()

    def _keep_grid(self) -> None:
        """Not presenting: when the column shrinks (the lesson panel opens) below what the SM grid's title, grid
        and legend need, the unit strip gives the grid that room first, collapsing if it must (its handle drags
        it open again)."""
        sizes, plots = self.center.sizes(), self.plots.sizes()
        strip = self.plots.indexOf(self.unit_strip)
        grid_box = self.center.widget(0)
        short = grid_box.layout().totalMinimumHeightForWidth(grid_box.width()) - sizes[0]
        if short <= 0 or plots[strip] <= 0 or not self.center.isVisible():
            return
        take = min(short, plots[strip])
        if plots[strip] - take < self.unit_strip.minimumHeight():
            take = plots[strip]
        plots[strip] -= take
        self.center.setSizes([sizes[0] + take, sizes[1] - take])
        self.plots.setSizes(plots)

    def _room_for_plots(self) -> None:
        """Not presenting: the plots' panes keep what their text needs (the timeline's and the counts plot's
        minimum, the unit strip's names unless the user folded it): the SM grid gives it, down to its own."""
        sizes, plots = self.center.sizes(), self.plots.sizes()
        if len(sizes) != 2 or sum(plots) <= 0 or not self.center.isVisible():
            return
        strip = self.plots.indexOf(self.unit_strip)
        want_strip = plots[strip] > 0 or bool(self.unit_strip.property("folded_for_room"))
        need = sum(pane_minimum(self.plots, i) for i in range(self.plots.count()) if i != strip or want_strip)
        need += self.plots.handleWidth() * (self.plots.count() - 1)
        grid_box = self.center.widget(0)
        spare = sizes[0] - grid_box.layout().totalMinimumHeightForWidth(grid_box.width())
        lack = need - sizes[1]
        if lack > 0 and spare > 0:
            take = min(lack, spare)
            self.center.setSizes([sizes[0] - take, sizes[1] + take])

    def _open_strip(self) -> None:
        """A lesson step points at the unit strip: it gets room for its rows, from the timeline and the counts."""
        sizes = self.plots.sizes()
        strip = self.plots.indexOf(self.unit_strip)
        want = self.fontMetrics().lineSpacing() * 6
        lack = want - sizes[strip]
        if lack <= 0:
            return
        for i in (0, 2):  # the timeline, the counts plot: each gives half, down to its minimum
            pane = self.plots.widget(i)
            give = max(0, min(lack // 2 + lack % 2 * (i == 0), sizes[i] - pane.minimumSizeHint().height()))
            sizes[i] -= give
            sizes[strip] += give
        self.plots.setSizes(sizes)

    def _share_center(self) -> None:
        """The SM grid's pane gets what its title, grid and legend need; the plots share the rest, each at least
        its minimum at this scale (the unit strip's names, the counts plot with its wrapped legend) and up to
        the lines of text it needs (title, four scheduler names or two numbers, the axis, the legend). Short of
        room the unit strip makes way first (unless the step points at it), then the grid's spare lines; what
        still does not fit is the layout check's to find, and presentation mode shows a smaller scale."""
        if not self._presenting:
            return
        line = self.fontMetrics().lineSpacing()
        total = sum(self.center.sizes())
        grid_box = self.center.widget(0)
        grid_min = grid_box.layout().totalMinimumHeightForWidth(grid_box.width())
        strip = self.stream_strip.sizeHint().height() if self.stream_strip.isVisibleTo(self) else 0  # fixed
        counts_box = self.counts_panel
        mins = [pane_minimum(self.plots, 0), self.unit_strip.readable_height(),
                max(self.counts.minimumHeight(), counts_box.layout().totalMinimumHeightForWidth(counts_box.width()))]
        # the timeline, the unit strip, the counts (the stream strip, fixed, above it)
        wish = [max(mins[0], round(line * 8.5)), max(mins[1], round(line * 6)), max(mins[2], round(line * 8) + strip)]
        handle = 2 * self.plots.handleWidth()
        rest = max(0, total - grid_min - line * 2 - handle)
        # short of room, the unit strip makes way (the Speed-of-Light panel keeps the figures) unless the
        # lesson step on screen points at it
        unit = self._strip_step or rest >= sum(wish)
        self.unit_strip.setVisible(unit)
        if not unit:
            wish[1] = mins[1] = 0
        if rest < sum(mins):  # the grid gives its spare lines, all of them: the plots at their bare minimums
            rest = max(0, total - grid_min - handle)  # drop their axis numbers while the grid kept a line or two
        extra = max(0, rest - sum(mins))
        spread = sum(w - m for w, m in zip(wish, mins))
        share = min(1.0, extra / spread) if spread else 1.0
        panes = [m + round((w - m) * share) for w, m in zip(wish, mins)]
        self.center.setSizes([total - sum(panes) - handle, sum(panes) + handle])
        self.plots.setSizes(panes)

    # -- lessons --------------------------------------------------------------------
    def follow_lesson(self, step, scenario=None) -> None:
        """The view state a step's narration talks about: GPU-wide or per-SM counts, the whole run in view."""
        self.per_sm.setChecked(getattr(step, "counts", "gpu") == "sm")
        self.metrics.cite(cited_figures(step.text("en")))  # the figures the narration points at stay on screen
        highlight = set(getattr(step, "highlight", ()))
        self._strip_step = "unit_strip" in highlight
        # the Speed-of-Light panel makes way for the figures a step cites unless the step is about it
        about = bool({"sol", "unit_strip"} & highlight)
        self.sol.set_mode("away" if not about else "folded" if {"metrics", "dram"} & highlight else "focus")
        self.metrics.refit_soon()
        if self._strip_step and not self._presenting:
            self._open_strip()
        if self.session.run is not None:
            self.timeline.show_all()
            self.counts.show_all()

    def view_state(self) -> dict:
        """What a lesson changes here and gives back: the splitters (their saved states, and the sizes on
        screen, which a state saved after a squeeze does not hold) and the per-SM counts (not the scenario)."""
        return self.splitter_state() | {"per_sm": self.per_sm.isChecked(), "center_shown": self.center.sizes(),
                                        "plots_shown": self.plots.sizes()}

    def restore_view_state(self, state: dict) -> None:
        self.metrics.cite(frozenset())  # the lesson ended: no narration cites a figure
        self._strip_step = False
        self.sol.set_mode("open")
        self.metrics.refit_soon()
        self.per_sm.setChecked(as_bool(state.get("per_sm"), False))
        self.restore_splitters(state)
        self._plots_back = state  # the page may be hidden: applied once the column has its height
        if self.isVisible():
            self._give_back_plots()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self, lambda: setattr(self, "_plots_back", None))  # after the show's resizes

    def _give_back_plots(self) -> None:
        """The lesson's end gives the timeline and the counts plot their sizes back. A column shorter than
        the user's (the lesson panel still open) is taken from the unit strip first (folded if it must),
        then from the SM grid, down to what its text needs."""
        state, self._plots_back = self._plots_back, None
        if state is None:
            return
        center, plots = state.get("center_shown"), state.get("plots_shown")
        if self._presenting or not isinstance(center, list) or not isinstance(plots, list) or len(center) != 2 \
                or len(plots) != self.plots.count() or min(plots) < 0:
            return
        center, plots = list(center), list(plots)
        total = sum(self.center.sizes())
        short = sum(center) - total
        if total <= 0:
            return
        if short <= 0:  # as tall as the user's column, or taller: the grid takes the rest
            lower = sum(plots) + self.plots.handleWidth() * (self.plots.count() - 1)
            self.center.setSizes([total - lower, lower])
            self.plots.setSizes(plots)
            return
        strip = self.plots.indexOf(self.unit_strip)
        give = min(short, plots[strip])
        if plots[strip] - give < pane_minimum(self.plots, strip):
            give = plots[strip]
            self.unit_strip.setProperty("folded_for_room", True)  # it opens again with the room (the dock closes)
        plots[strip] -= give
        grid_box = self.center.widget(0)
        grid = max(grid_box.layout().totalMinimumHeightForWidth(grid_box.width()), center[0] - (short - give))
        self.center.setSizes([grid, total - grid])
        self.plots.setSizes(plots)

    def shutdown(self) -> None:
        """Stop playback and the worker (the window is closing)."""
        self.clock.pause()
        self._debounce.stop()
        self.runner.shutdown()
        if self.simulation.runner is self.runner:  # not a rebuilt window's
            self.simulation.stop_fill()

    def capture_state(self, live: bool = False) -> dict:
        """The scenario (TOML), selected SM, speed, per-SM counts and splitters; ``live`` adds the run
        (when it is the scenario's), cycle and playback (a rebuilt window shares the workspace: its command stack
        too)."""
        from explorer.model.tomlio import dumps

        s = self.session
        state = super().capture_state(live) | {
            "scenario": dumps(s.scenario.to_dict()), "sm": s.selected_sm, "speed": self.clock.speed,
            "per_sm": self.per_sm.isChecked(), "stream_open": self.panel.stream_open,
        }
        if live:  # the scenario itself too: a [kernel] scenario's TOML leaves out what its cubin gives (registers)
            state |= {"run": s.run if s.run_is_current else None, "cycle": s.cycle, "playing": self.clock.playing,
                      "scenario_object": s.scenario}
        return state

    def restore_state(self, state: dict) -> None:
        """What :meth:`capture_state` gave (here or in another window), or the settings' copy of it."""
        text = as_str(state.get("scenario"), "")
        scenario = state.get("scenario_object")
        if isinstance(scenario, Scenario):
            text = ""  # a rebuilt window: the very scenario, not its TOML (which a [kernel] scenario's cubin completes)
        else:
            scenario = None
        if text:
            try:
                scenario = Scenario.from_dict(tomllib.loads(text))
            except (InputError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, RecursionError):
                scenario = None  # a hand-edited or outdated file: start from the default
        run = state.get("run")
        if isinstance(run, SimRun) and run is self.session.run and scenario == self.session.scenario:
            pass  # a window rebuilt on the same workspace: the run is on screen already
        elif isinstance(run, SimRun) and run.result.scenario == scenario:
            self.workspace.show_run(run)  # the same result object: nothing re-simulates
        elif scenario is not None and scenario != self.session.scenario:
            self.workspace.change_scenario(scenario, "restore")
        self.session.select_sm(as_int(state.get("sm"), 0))
        speed = as_int(state.get("speed"), DEFAULT_SPEED)
        if speed in SPEEDS:
            self.transport.set_speed(speed)
            self.clock.speed = speed
        self.per_sm.setChecked(as_bool(state.get("per_sm"), False))
        if as_bool(state.get("stream_open"), False):  # opened by hand for a single launch: still open
            self.panel.stream_toggle.setChecked(True)
        super().restore_state(state)
        if isinstance(run, SimRun) and self.session.run is run:
            self.session.set_cycle(as_int(state.get("cycle"), 0))
            if state.get("playing") is True:
                self.clock.play()
