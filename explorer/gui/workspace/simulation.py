"""The scenario's simulation, Qt-free: requested, computed through a task-runner port, its missing SMs filled in.

The service owns no thread: the window *attaches* its task runner (``common.tasks.TaskRunner``;
tests a synchronous fake) and a ``defer`` callable ("soon": the window's next event-loop turn).
The port is what ``TaskRunner`` offers: ``start(name, fn, *, on_done, on_error, on_progress,
newest_wins)`` (``fn(task)`` with ``task.is_cancelled``, ``task.cancelled``, ``task.sleep``,
``task.progress``), ``cancel(name=None, disconnect=False)`` and ``running(name)``; an error
has ``kind`` ("cancelled", "input", …), ``field`` and ``message``.

Newest wins: a newer scenario cancels the run still computing. A long run keeps the
per-slot states of its first SMs only (the simulator's trace budget); once it is
shown, its other SMs are filled in batch by batch (``run_data.fill_plan``), one task
per batch, so a click's one-SM re-simulation or a new run never waits for all of them.
The views hear about it through the events below (and the session's).
"""

from __future__ import annotations

from typing import Callable, Protocol

from explorer.gui.common.events import Event
from explorer.gui.workspace.run_data import FillPlan, SimRun, fill_plan, record_batch, simulate_run, simulate_sm_trace
from explorer.gui.workspace.session import ExplorerSession
from explorer.model.scenario import Scenario


class TaskRunnerPort(Protocol):
    """What the service needs of a task runner (``common.tasks.TaskRunner`` is one)."""

    def start(self, name: str, fn: Callable, *, on_done=None, on_error=None, on_progress=None,
              newest_wins: bool = False): ...

    def cancel(self, name: str | None = None, disconnect: bool = False) -> None: ...

    def running(self, name: str | None = None) -> list: ...


TASKS = ("simulate", "record_sm", "fill_sms")  # the names of the service's tasks in the runner


def _now(fn: Callable[[], None]) -> None:
    fn()


class Simulation:
    """Simulates the session's scenario; owns no widgets and no threads."""

    def __init__(self, session: ExplorerSession):
        self.session = session
        self.runner: TaskRunnerPort | None = None
        self.defer: Callable[[Callable[[], None]], None] = _now
        self.test_delay_s = 0.0  # tests only: every simulation first waits this long (cancellably)
        self.fill: tuple[SimRun, FillPlan, int] | None = None  # a run whose missing SMs come in: plan, batches done
        self.started = Event()  # (scenario): its simulation was handed to the runner
        self.finished = Event()  # (run): the scenario's run arrived (the session shows it already)
        self.failed = Event()  # (scenario, error): cancelled, refused or a bug (the session knows already)
        self.trace_arrived = Event()  # (run, sm): one SM's per-slot trace re-simulated
        self.filled = Event()  # (run): a batch of the SMs the run did not keep came in
        self.fill_changed = Event()  # (): filling began, went on or ended
        self.fill_failed = Event()  # (run, error): the missing SMs could not be filled in (not cancelled)

    def attach(self, runner: TaskRunnerPort, defer: Callable[[Callable[[], None]], None] | None = None) -> None:
        """A window's runner takes over (a language switch rebuilt the window): a simulation pending on the
        previous one is asked for again, the run on screen's missing SMs filled in again."""
        if self.runner is not None and self.runner is not runner:
            for name in TASKS:  # the previous window's tasks report nowhere now
                self.runner.cancel(name, disconnect=True)
        self.runner = runner
        self.defer = defer or _now
        self.fill = None
        self.session.simulation_dropped()
        if self.session.run is not None:
            self._start_fill(self.session.run)

    # -- the scenario's run -----------------------------------------------------------
    def submit_soon(self) -> None:
        self.defer(self.submit)

    def submit(self) -> None:
        """Simulate the session's scenario unless its run is on screen or on its way."""
        s = self.session
        scenario = s.scenario
        if self.runner is None or s.pending == scenario:
            return  # no runner yet (it submits when attached), or already on its way
        if s.run is not None and s.run.result.scenario == scenario and s.pending is None:
            return
        sm, delay = s.selected_sm, self.test_delay_s
        self.stop_fill()

        def work(task):
            if delay:  # tests: a run slow enough to be superseded
                task.sleep(delay)
                if task.cancelled:
                    return None
            return simulate_run(scenario, prefetch_sm=sm, cancel=task.is_cancelled, fill=False,
                                progress=lambda done, total: task.progress("", done / max(total, 1)))

        s.begin_simulation(scenario)
        self.started.emit(scenario)
        self.runner.start("simulate", work, newest_wins=True, on_done=self._finished,
                          on_error=lambda error: self._failed(scenario, error),
                          on_progress=lambda _text, fraction: s.simulation_progress(fraction))

    def running(self) -> bool:
        """Whether a simulation of a scenario is still in the runner."""
        return bool(self.runner is not None and self.runner.running("simulate"))

    def show(self, run: SimRun) -> None:
        """A run computed elsewhere is the scenario's: whatever is computing is dropped."""
        if self.runner is not None:
            self.runner.cancel(disconnect=True)
        self.session.simulation_dropped()
        self._put_on_screen(run)

    def _finished(self, run: SimRun) -> None:
        self._put_on_screen(run)
        self.finished.emit(run)

    def _put_on_screen(self, run: SimRun) -> None:
        """The session shows ``run``; its missing SMs are planned first (the views that hear of the run see that
        they are coming in), then the first batch starts."""
        self.stop_fill()
        plan = fill_plan(run) if self.runner is not None else None
        if plan is not None:
            self.fill = (run, plan, 0)
        self.session.set_run(run)
        if self.fill is not None and self.fill[0] is run:
            self._next_fill()

    def _failed(self, scenario: Scenario, error) -> None:
        if error.kind == "cancelled":
            self.session.simulation_dropped()
        else:
            self.session.simulation_failed(scenario, error.message)
        self.failed.emit(scenario, error)

    # -- one SM the run did not keep, re-simulated on demand (newest request wins) -------------
    def record_sm(self, sm: int) -> None:
        run = self.session.run
        if run is None or self.runner is None:
            return
        scenario, params = run.result.scenario, run.result.params  # a calibrated run re-simulates as calibrated

        def work(task):
            return simulate_sm_trace(scenario, sm, cancel=task.is_cancelled, params=params)

        self.runner.start("record_sm", work, newest_wins=True, on_done=lambda trace: self._recorded(run, sm, trace))

    def _recorded(self, run: SimRun, sm: int, trace) -> None:
        if self.session.run is not run or trace is None or trace.shape[0] != run.cycles:
            return
        run.add_trace(sm, trace)
        self.trace_arrived.emit(run, sm)

    # -- the SMs a long run did not keep, filled in batch by batch ------------------------
    @property
    def filling(self) -> bool:
        """Whether missing SMs of the run on screen are still coming in."""
        return self.fill is not None

    def _start_fill(self, run: SimRun) -> None:
        self.stop_fill()
        plan = fill_plan(run)
        if plan is not None and self.runner is not None:
            self.fill = (run, plan, 0)
            self._next_fill()

    def stop_fill(self) -> None:
        if self.runner is not None:
            self.runner.cancel("fill_sms", disconnect=True)
        self.fill = None

    def _next_fill(self) -> None:
        if self.fill is None:
            return
        run, plan, done = self.fill
        if self.session.run is not run or done >= len(plan.batches):
            self.fill = None
            self.fill_changed.emit()
            return
        batch = plan.batches[done]
        self.runner.start("fill_sms", lambda task: record_batch(run, batch, plan.stride, task.is_cancelled),
                          newest_wins=True, on_done=lambda samples: self._filled(run, samples),
                          on_error=lambda error: self._fill_failed(run, error))
        self.fill_changed.emit()

    def _filled(self, run: SimRun, samples: dict) -> None:
        if self.fill is None or self.fill[0] is not run:
            return
        _run, plan, done = self.fill
        for sm, states in samples.items():
            run.add_samples(sm, plan.stride, states)
        self.fill = (run, plan, done + 1)
        if self.session.run is run:
            self.filled.emit(run)
        self._next_fill()

    def _fill_failed(self, run: SimRun, error) -> None:
        if self.fill is not None and self.fill[0] is run:
            self.fill = None
        if error.kind != "cancelled":
            self.fill_failed.emit(run, error)
        self.fill_changed.emit()
