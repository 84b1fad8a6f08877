"""The "Explorer" tab: scenario panel, SM grid, timeline, counts plot, metrics, playback.

A view of the window's workspace (``workspace.Workspace``: the scenario, its run,
the cycle and selected SM, the command stack, the simulation): the page turns the
panel's texts into edits (commands on the workspace, undoable from the Edit menu),
attaches its task runner to the workspace's simulation, and forwards the workspace's
changes to the views, keeping the last good run on screen while input is invalid or
a new run is computing. It computes nothing about GPUs itself. Its widgets, their
splitters and how the panes share the room are ``explore.layout``'s; what it says
about the run on screen (stale, invalid, simulating, compiling, filling in) is
``explore.run_state``'s.

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

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QSplitter, QWidget

from explorer.gui.common.error_texts import core_error
from explorer.gui.common.page import Page
from explorer.gui.common.settings import as_bool, as_int, as_str
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.explore.layout import ExplorerLayout
from explorer.gui.explore.metrics import cited_figures
from explorer.gui.explore.run_state import RunStateView
from explorer.gui.explore.scenario_fields import build_scenario, field_of, scenario_to_texts
from explorer.gui.explore.transport import DEFAULT_SPEED, SPEEDS, PlaybackClock, playback_keys
from explorer.gui.workspace.commands import ScenarioChange
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.workspace.workspace import Workspace
from explorer.model.errors import InputError
from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario

EDIT_DEBOUNCE_MS = 30


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

        # -- views, in their splitters (explore.layout): the page's own attributes, which features and tests use --
        lay = self.arrangement = ExplorerLayout(self)
        self.panel, self.grid, self.legend, self.metrics = lay.panel, lay.grid, lay.legend, lay.metrics
        self.sol, self.timeline, self.counts, self.unit_strip = lay.sol, lay.timeline, lay.counts, lay.unit_strip
        self.stream_strip, self.transport, self.per_sm = lay.stream_strip, lay.transport, lay.per_sm
        self.grid_title, self.run_state, self.counts_panel = lay.grid_title, lay.run_state, lay.counts_panel
        self.splitter, self.center, self.lower, self.plots = lay.splitter, lay.center, lay.lower, lay.plots
        self.panel_scroll, self.metrics_scroll = lay.panel_scroll, lay.metrics_scroll
        # what the page says about the run (explore.run_state), with the watch on numba's first compile
        self.run_state_view = RunStateView(self, self.workspace, self.run_state, self.grid, self.timeline, self.metrics)
        self.compile_watch = self.run_state_view.compile_watch

        # -- wiring -------------------------------------------------------------------
        s, sim = self.workspace.session, self.workspace.simulation
        s.scenario_changed.connect(self._on_scenario)
        s.run_changed.connect(self._on_run)
        s.cycle_changed.connect(self._on_cycle)
        s.selection_changed.connect(self._on_selection)
        s.errors_changed.connect(self._on_errors)
        s.simulation_changed.connect(self.run_state_view.refresh)
        self.workspace.scenario_shown.connect(self._show_scenario)
        sim.started.connect(self.run_state_view.sim_started)
        sim.finished.connect(self._sim_finished)
        sim.failed.connect(self._sim_failed)
        sim.trace_arrived.connect(self._sm_recorded)
        sim.filled.connect(self.grid.set_run)
        sim.fill_changed.connect(self.run_state_view.refresh)
        sim.fill_failed.connect(self._fill_failed)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(EDIT_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.apply_edits)
        self.panel.edited.connect(self._debounce.start)
        self.panel.preset_chosen.connect(self.load_preset)
        self.panel.stream_toggle.toggled.connect(self._stream_section_toggled)
        self.grid.sm_clicked.connect(s.select_sm)
        self.timeline.cycle_requested.connect(s.set_cycle)
        self.counts.cycle_requested.connect(s.set_cycle)
        self.unit_strip.cycle_requested.connect(s.set_cycle)
        self.timeline.needs_trace.connect(sim.record_sm)
        self.timeline.slot_clicked.connect(self.slot_clicked)
        self.transport.cycle_requested.connect(s.set_cycle)
        self.transport.step_requested.connect(s.step)
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

    # -- keyboard -------------------------------------------------------------------
    def _build_actions(self) -> None:
        """Playback keys, active anywhere in the tab except while typing in a field."""
        s = self.workspace.session
        self.key_actions = playback_keys(self, play=self.toggle_play, step=s.step, to_start=s.to_start,
                                         to_end=s.to_end)

    # -- playback -------------------------------------------------------------------
    def toggle_play(self) -> None:
        s = self.workspace.session
        if self.clock.playing:
            self.clock.pause()
        elif s.run is not None:
            if s.cycle >= s.last_cycle:
                s.to_start()
            self.clock.play()

    def set_speed(self, speed: int) -> None:
        self.clock.speed = int(speed)

    def _advance(self, steps: int) -> None:
        s = self.workspace.session
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
        self.arrangement.add_under_grid(widget)

    def add_under_counts(self, widget: QWidget) -> None:
        """A row under the counts plot's legend."""
        self.arrangement.add_under_counts(widget)

    def add_beside_timeline(self, widget: QWidget) -> None:
        """A view right of the timeline and the counts plot, as tall as both (the splitter between is the user's)."""
        self.arrangement.add_beside_timeline(widget)

    def add_to_metrics(self, widget: QWidget) -> None:
        """A box at the top of the metrics column."""
        self.arrangement.add_to_metrics(widget)

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
        self.workspace.session.set_errors(errors)
        if errors:
            return
        changed = frozenset(key for key, text in texts.items() if text != self._good.get(key))
        self._good = texts
        s = self.workspace.session
        if scenario != s.scenario:
            self.workspace.do(ScenarioChange("edit", scenario, fields=changed))
        elif s.run is None:
            self.workspace.simulation.submit()
        elif not s.run_is_current and not s.simulating:
            self._on_run(s.run)  # back to the shown run's values: nothing to simulate

    # -- the workspace's simulation -> the page -------------------------------------------
    def _sim_finished(self, _run: SimRun) -> None:
        self.compile_watch.stop()
        if self.autoplay and not self._shown_once:
            self.clock.play()
        self._shown_once = True

    def _sim_failed(self, _scenario: Scenario, error: TaskError) -> None:
        if not self.workspace.simulation.running():
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

    # -- session -> views -----------------------------------------------------------
    def _on_scenario(self, scenario: Scenario) -> None:
        self.panel.update_summary(scenario)
        self.metrics.whole.show_occupancy(self.workspace.session.occupancy)
        self.run_state_view.refresh()

    def _on_run(self, run: SimRun) -> None:
        s = self.workspace.session
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
        self.arrangement.room_for_strip(had_strip)
        if self.per_sm.isChecked():
            self.counts.show_sm(s.selected_sm)
        self.metrics.whole.show_run(run)
        self.sol.set_run(run)
        self.metrics.refit_soon()  # the panel's idle rows changed: what the column can show, once laid out
        self.unit_strip.set_run(run)
        self.metrics.whole.show_occupancy(run.result.theoretical)
        self.transport.set_length(run.cycles)
        self.run_state_view.refresh()
        self._on_cycle(s.cycle)

    def _on_cycle(self, cycle: int) -> None:
        run = self.workspace.session.run
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
        self.counts.show_sm(self.workspace.session.selected_sm if on else None)

    def _on_errors(self, errors: dict) -> None:
        self.panel.show_errors(errors)
        self.run_state_view.refresh()

    def compile_text(self) -> str:
        """The line for a simulation that waits for numba's compile ("" when it does not)."""
        return self.run_state_view.compile_text()

    # -- window hooks ---------------------------------------------------------------
    def themed_views(self) -> tuple:
        return (self.grid, self.timeline, self.counts, self.metrics, self.legend, self.stream_strip, self.sol,
                self.unit_strip)

    def first_sizes(self) -> None:
        self.arrangement.first_sizes()

    def splitters(self) -> dict[str, QSplitter]:
        return self.arrangement.splitters()

    def presentation_hidden_widgets(self) -> list[QWidget]:
        return [self.panel_scroll, self.transport, self.per_sm]

    def presentation_changed(self, on: bool) -> None:
        self.arrangement.set_presenting(on)

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the text: the plots get the lines of text they need, the grid the rest."""
        self.arrangement.share_center()

    # -- lessons --------------------------------------------------------------------
    def follow_lesson(self, step, scenario=None) -> None:
        """The view state a step's narration talks about: GPU-wide or per-SM counts, the whole run in view."""
        self.per_sm.setChecked(getattr(step, "counts", "gpu") == "sm")
        self.metrics.cite(cited_figures(step.text("en")))  # the figures the narration points at stay on screen
        highlight = set(getattr(step, "highlight", ()))
        self.arrangement.strip_step = "unit_strip" in highlight
        # the Speed-of-Light panel makes way for the figures a step cites unless the step is about it
        about = bool({"sol", "unit_strip"} & highlight)
        self.sol.set_mode("away" if not about else "folded" if {"metrics", "dram"} & highlight else "focus")
        self.metrics.refit_soon()
        self.arrangement.open_strip_for_step()
        if self.workspace.session.run is not None:
            self.timeline.show_all()
            self.counts.show_all()

    def view_state(self) -> dict:
        """What a lesson changes here and gives back: the splitters (their saved states, and the sizes on
        screen, which a state saved after a squeeze does not hold) and the per-SM counts (not the scenario)."""
        return self.splitter_state() | {"per_sm": self.per_sm.isChecked()} | self.arrangement.shown_sizes()

    def restore_view_state(self, state: dict) -> None:
        self.metrics.cite(frozenset())  # the lesson ended: no narration cites a figure
        self.arrangement.strip_step = False
        self.sol.set_mode("open")
        self.metrics.refit_soon()
        self.per_sm.setChecked(as_bool(state.get("per_sm"), False))
        self.restore_splitters(state)
        self.arrangement.give_back(state, now=self.isVisible())  # hidden: once the column has its height

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self, self.arrangement.forget_plots_back)  # after the show's resizes

    def shutdown(self) -> None:
        """Stop playback and the worker (the window is closing)."""
        self.clock.pause()
        self._debounce.stop()
        self.runner.shutdown()
        if self.workspace.simulation.runner is self.runner:  # not a rebuilt window's
            self.workspace.simulation.stop_fill()

    def capture_state(self, live: bool = False) -> dict:
        """The scenario (TOML), selected SM, speed, per-SM counts and splitters; ``live`` adds the run
        (when it is the scenario's), cycle and playback (a rebuilt window shares the workspace: its command stack
        too)."""
        from explorer.model.tomlio import dumps

        s = self.workspace.session
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
        run, s = state.get("run"), self.workspace.session
        if isinstance(run, SimRun) and run is s.run and scenario == s.scenario:
            pass  # a window rebuilt on the same workspace: the run is on screen already
        elif isinstance(run, SimRun) and run.result.scenario == scenario:
            self.workspace.show_run(run)  # the same result object: nothing re-simulates
        elif scenario is not None and scenario != s.scenario:
            self.workspace.change_scenario(scenario, "restore")
        s.select_sm(as_int(state.get("sm"), 0))
        speed = as_int(state.get("speed"), DEFAULT_SPEED)
        if speed in SPEEDS:
            self.transport.set_speed(speed)
            self.clock.speed = speed
        self.per_sm.setChecked(as_bool(state.get("per_sm"), False))
        if as_bool(state.get("stream_open"), False):  # opened by hand for a single launch: still open
            self.panel.stream_toggle.setChecked(True)
        super().restore_state(state)
        if isinstance(run, SimRun) and s.run is run:
            s.set_cycle(as_int(state.get("cycle"), 0))
            if state.get("playing") is True:
                self.clock.play()
