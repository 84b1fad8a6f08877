"""The application's document, Qt-free: one per main window, handed to every feature (``window.workspace``).

napari's ``ViewerModel`` to the pages' views: the :class:`Workspace` holds the
Explorer's state (``session``: scenario, last good run, cycle — the one playback
cursor every view follows — and selected SM), the command stack (``commands``:
every change of the scenario, Edit > Undo / Redo) and the scenario's simulation
(``simulation``: the window attaches its task runner as a port). Commands ``do`` and
``undo`` on the workspace (glue's session argument): :meth:`apply_scenario` is their
target. The pages are views of it: they listen to its events and change it only
through its methods, so a language switch builds the new window's pages on the *same*
workspace (its stack, run and cursor carry over as they are) and drops the old
window's listeners (:meth:`listeners`, :meth:`release`).
"""

from __future__ import annotations

from explorer.gui.common.events import Event
from explorer.gui.workspace.commands import CommandStack, ScenarioChange
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.workspace.session import ExplorerSession
from explorer.gui.workspace.simulation import Simulation
from explorer.model.scenario import Scenario


class Workspace:
    """The scenario, its run and cursor, the command stack and the simulation; no widgets, no threads."""

    def __init__(self, scenario: Scenario | None = None):
        if scenario is None:
            from explorer.model.presets import default_scenario

            scenario = default_scenario()
        self.session = ExplorerSession(scenario)
        self.commands = CommandStack()
        self.simulation = Simulation(self.session)
        self.scenario_shown = Event()  # (scenario): a command put a whole scenario on screen (the fields show it)
        from explorer.toolchain.compiler import FileBuilds

        # the window's compiles of .cu files: the Your kernel tab and the occupancy calculator's row open the same
        # file, and one compile per file and GPU serves both (thread-safe: they compile in their workers)
        self.builds = FileBuilds()

    @property
    def scenario(self) -> Scenario:
        return self.session.scenario

    @property
    def run(self) -> SimRun | None:
        return self.session.run

    # -- commands -------------------------------------------------------------------
    def do(self, command: ScenarioChange) -> None:
        self.commands.do(command, self)

    def undo(self) -> bool:
        return self.commands.undo(self)

    def redo(self) -> bool:
        return self.commands.redo(self)

    def change_scenario(self, scenario: Scenario, kind: str, run: SimRun | None = None) -> None:
        """Show and simulate a whole scenario (``kind``: what changed it, ``commands.KINDS``).

        Presets, files, the GEMM and GPU features and lessons come here; the change is
        one step for Edit > Undo unless it is a lesson step or a restored session.
        """
        self.do(ScenarioChange(kind, scenario, run=run))

    def show_run(self, run: SimRun, kind: str = "restore") -> None:
        """Show a run computed elsewhere (``render``, a lesson): its scenario fills the panel, nothing re-simulates."""
        self.change_scenario(run.result.scenario, kind, run=run)

    def show_result(self, result, kind: str) -> None:
        """Show a SimResult simulated elsewhere (the Your kernel tab's one execution): one step, nothing re-simulates."""
        run = SimRun.from_result(result)
        run.pyramid(min(self.session.selected_sm, run.sm_count - 1))  # the selected SM's timeline
        self.change_scenario(result.scenario, kind, run=run)

    def apply_scenario(self, scenario: Scenario, run: SimRun | None = None, from_panel: bool = False) -> None:
        """The command target: make ``scenario`` the one on screen (only commands call this)."""
        s = self.session
        if from_panel:  # the panel shows it already
            s.set_scenario(scenario)
            self.simulation.submit()
            return
        self.scenario_shown.emit(scenario)
        s.set_errors({})
        s.set_scenario(scenario)
        if run is not None and run.result.scenario == scenario:
            self.simulation.show(run)
        else:
            self.simulation.submit_soon()

    # -- views ----------------------------------------------------------------------
    def events(self) -> list[Event]:
        """Every event a view may listen to."""
        return [value for owner in (self, self.session, self.commands, self.simulation)
                for value in vars(owner).values() if isinstance(value, Event)]

    def listeners(self) -> dict[Event, list]:
        """The callbacks connected now (a window about to be replaced: :meth:`release` them once it is gone)."""
        return {event: event.callbacks() for event in self.events()}

    def release(self, listeners: dict[Event, list]) -> None:
        """Disconnect the callbacks :meth:`listeners` returned (those still connected)."""
        for event, callbacks in listeners.items():
            for callback in callbacks:
                if event.is_connected(callback):
                    event.disconnect(callback)
