"""The explorer's state, Qt-free: scenario, last good run, current cycle, selected SM.

Views observe it through tiny events (``connect``/``emit``) and change it only
through its methods, so the same rules hold whether a key, the slider, a click
on the SM grid or a test moved the cycle: the cycle stays inside the run, the
selected SM inside the GPU, and an invalid edit never replaces the last good
simulation (the session keeps it, and the errors, side by side).
"""

from __future__ import annotations

from typing import Callable

from explorer.model.scenario import Scenario
from explorer.occupancy import OccupancyResult, occupancy_for_launch

from explorer.gui.explore.run_data import SimRun


class Event:
    """A list of callbacks; ``emit`` calls them in order."""

    def __init__(self):
        self._callbacks: list[Callable] = []

    def connect(self, callback: Callable) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable) -> None:
        self._callbacks.remove(callback)

    def emit(self, *args) -> None:
        for callback in list(self._callbacks):
            callback(*args)


class ExplorerSession:
    """What the explorer shows; owns no widgets and no threads."""

    def __init__(self, scenario: Scenario):
        self.scenario_changed = Event()  # (scenario): a new valid scenario (its run may follow)
        self.run_changed = Event()  # (run): a finished simulation replaced the shown one
        self.cycle_changed = Event()  # (cycle)
        self.selection_changed = Event()  # (sm)
        self.errors_changed = Event()  # (errors: dict field -> message)
        self.scenario = scenario
        self.occupancy: OccupancyResult = occupancy_for_launch(scenario.gpu, scenario.launch)
        self.run: SimRun | None = None
        self.errors: dict[str, str] = {}
        self.cycle = 0
        self.selected_sm = 0

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

    @property
    def run_is_current(self) -> bool:
        """Whether the run on screen belongs to the scenario the panel shows."""
        return self.run is not None and self.run.result.scenario == self.scenario and not self.errors

    def set_run(self, run: SimRun) -> None:
        self.run = run
        self.cycle = run.clamp(self.cycle)
        if not 0 <= self.selected_sm < run.sm_count:
            self.selected_sm = 0
            self.selection_changed.emit(0)
        self.run_changed.emit(run)
        self.cycle_changed.emit(self.cycle)

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

    # -- selection ------------------------------------------------------------------
    def select_sm(self, sm: int) -> None:
        count = self.run.sm_count if self.run is not None else self.scenario.gpu.sm_count
        sm = max(0, min(int(sm), count - 1))
        if sm != self.selected_sm:
            self.selected_sm = sm
            self.selection_changed.emit(sm)
