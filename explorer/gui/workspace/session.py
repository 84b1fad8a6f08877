"""The explorer's state, Qt-free: scenario, last good run, its simulation, current cycle, selected SM.

The cycle is the window's one playback cursor: the Explorer's views show it, the A/B
compare's position moves it and follows it (``compare.session``), and ``playing``
says which view's clock advances it (one at a time).

Views observe it through tiny events (``connect``/``emit``) and change it only
through its methods, so the same rules hold whether a key, the slider, a click
on the SM grid or a test moved the cycle: the cycle stays inside the run, the
selected SM inside the GPU, and an invalid edit never replaces the last good
simulation (the session keeps it, and the errors, side by side).

The session also knows where the scenario's simulation is — requested (``pending``),
computing (with its ``progress``) or refused (``failure``) — so whether the run on
screen is the scenario's own (:attr:`run_is_current`) is decided here, once, for
the views, the lessons, the language switch and the measurement comparison.
"""

from __future__ import annotations

from explorer.gui.common.events import Event
from explorer.gui.workspace.run_data import SimRun
from explorer.model.scenario import Scenario
from explorer.occupancy import OccupancyResult, occupancy_for_launch


class ExplorerSession:
    """What the explorer shows; owns no widgets and no threads."""

    def __init__(self, scenario: Scenario):
        self.scenario_changed = Event()  # (scenario): a new valid scenario (its run may follow)
        self.run_changed = Event()  # (run): a finished simulation replaced the shown one
        self.cycle_changed = Event()  # (cycle)
        self.selection_changed = Event()  # (sm)
        self.errors_changed = Event()  # (errors: dict field -> message)
        self.simulation_changed = Event()  # (): pending, progress or failure changed
        self.playing_changed = Event()  # (view or None): whose clock plays the cycle now
        self.scenario = scenario
        self.occupancy: OccupancyResult = occupancy_for_launch(scenario.gpu, scenario.launch)
        self.run: SimRun | None = None
        self.errors: dict[str, str] = {}
        self.cycle = 0
        self.playing: object | None = None  # the view whose clock advances the cycle (a page: the Explorer, A/B), if any
        self.selected_sm = 0
        self.pending: Scenario | None = None  # being simulated
        self.progress = 0.0  # of the pending simulation
        self.failure: tuple[Scenario, str] | None = None  # the last refused scenario and why

    # -- scenario and run -----------------------------------------------------------
    def set_scenario(self, scenario: Scenario) -> None:
        """A valid scenario from the panel; its simulation is the controller's business."""
        self.scenario = scenario
        self.occupancy = occupancy_for_launch(scenario.gpu, scenario.launch)
        self.scenario_changed.emit(scenario)

    def set_errors(self, errors: dict[str, str]) -> None:
        if errors != self.errors:
            self.errors = dict(errors)
            self.errors_changed.emit(self.errors)

    def set_run(self, run: SimRun) -> None:
        """A finished simulation: shown, and nothing is pending any more."""
        self.run = run
        self.pending, self.progress, self.failure = None, 0.0, None
        self.cycle = run.clamp(self.cycle)
        if not 0 <= self.selected_sm < run.sm_count:
            self.selected_sm = 0
            self.selection_changed.emit(0)
        self.run_changed.emit(run)
        self.simulation_changed.emit()
        self.cycle_changed.emit(self.cycle)

    # -- the scenario's simulation ----------------------------------------------------
    def begin_simulation(self, scenario: Scenario) -> None:
        self.pending, self.progress = scenario, 0.0
        self.simulation_changed.emit()

    def simulation_progress(self, fraction: float) -> None:
        if self.pending is not None:
            self.progress = float(fraction)
            self.simulation_changed.emit()

    def simulation_failed(self, scenario: Scenario, message: str) -> None:
        self.pending, self.progress, self.failure = None, 0.0, (scenario, message)
        self.simulation_changed.emit()

    def simulation_dropped(self) -> None:
        """The pending simulation was cancelled (a run computed elsewhere is shown instead)."""
        if self.pending is not None:
            self.pending, self.progress = None, 0.0
            self.simulation_changed.emit()

    @property
    def simulating(self) -> bool:
        return self.pending is not None

    @property
    def failed(self) -> str:
        """Why the scenario's simulation was refused ("" unless it was)."""
        return self.failure[1] if self.failure is not None and self.failure[0] == self.scenario else ""

    @property
    def run_is_current(self) -> bool:
        """The run on screen is the scenario's own: nothing invalid, nothing pending, nothing refused."""
        return (self.run is not None and self.run.result.scenario == self.scenario and not self.errors
                and self.pending is None and not self.failed)

    # -- cycle ----------------------------------------------------------------------
    @property
    def last_cycle(self) -> int:
        return max(self.run.cycles - 1, 0) if self.run is not None else 0

    def set_cycle(self, cycle: int) -> None:
        cycle = self.run.clamp(cycle) if self.run is not None else 0
        if cycle != self.cycle:
            self.cycle = cycle
            self.cycle_changed.emit(cycle)

    def step(self, delta: int) -> None:
        self.set_cycle(self.cycle + delta)

    def to_start(self) -> None:
        self.set_cycle(0)

    def to_end(self) -> None:
        self.set_cycle(self.last_cycle)

    # -- playback -------------------------------------------------------------------
    def set_playing(self, view: object | None) -> None:
        """``view`` plays the cycle now (None: nothing plays). One view at a time: a view whose clock runs
        pauses it when another starts, so two clocks never advance the one cursor together."""
        if view != self.playing:
            self.playing = view
            self.playing_changed.emit(view)

    def stopped(self, view: object) -> None:
        """``view``'s clock paused (the cursor plays no more unless another view took it over)."""
        if self.playing == view:
            self.set_playing(None)

    # -- selection ------------------------------------------------------------------
    def select_sm(self, sm: int) -> None:
        count = self.run.sm_count if self.run is not None else self.scenario.gpu.sm_count
        sm = max(0, min(int(sm), count - 1))
        if sm != self.selected_sm:
            self.selected_sm = sm
            self.selection_changed.emit(sm)
