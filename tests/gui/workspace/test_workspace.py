"""The application's document without Qt: commands on the workspace, its simulation through a fake runner port,
the one cursor every view follows, a second set of views on the same workspace (issue 32 item 1)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import numpy as np
import pytest

from explorer.gui.workspace.commands import ScenarioChange
from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.workspace.workspace import Workspace
from explorer.model.presets import default_scenario, load_preset
from tests.sass.support import needs_sass


@dataclass
class FakeError:
    kind: str
    message: str = ""
    field: str | None = None


class FakeTask:
    cancelled = False

    def is_cancelled(self) -> bool:
        return self.cancelled

    def sleep(self, _seconds: float) -> None:
        pass

    def progress(self, _text: str, _fraction: float) -> None:
        pass


class SyncRunner:
    """The task-runner port, run at once in the caller's thread; ``hold`` keeps tasks queued instead."""

    def __init__(self, hold: bool = False):
        self.hold = hold
        self.queued: list[tuple[str, object, dict]] = []
        self.started: list[str] = []

    def start(self, name, fn, *, on_done=None, on_error=None, on_progress=None, newest_wins=False):
        if newest_wins:
            self.cancel(name, disconnect=True)
        self.started.append(name)
        if self.hold:
            self.queued.append((name, fn, {"on_done": on_done, "on_error": on_error}))
            return None
        self._run(fn, on_done, on_error)
        return None

    def _run(self, fn, on_done, on_error):
        try:
            result = fn(FakeTask())
        except Exception as exc:  # noqa: BLE001 - the port reports every failure
            if on_error is not None:
                on_error(FakeError("bug", str(exc)))
            return
        if on_done is not None:
            on_done(result)

    def release(self) -> None:
        queued, self.queued = self.queued, []
        for _name, fn, callbacks in queued:
            self._run(fn, callbacks["on_done"], callbacks["on_error"])

    def cancel(self, name=None, disconnect=False):
        kept = []
        for entry in self.queued:
            if name is None or entry[0] == name:
                if not disconnect and entry[2]["on_error"] is not None:
                    entry[2]["on_error"](FakeError("cancelled"))
            else:
                kept.append(entry)
        self.queued = kept

    def running(self, name=None):
        return [entry for entry in self.queued if name is None or entry[0] == name]


@pytest.fixture(scope="module")
def small():
    """A short scenario and another one, both quick to simulate."""
    base = load_preset("example-240x256").with_values(**{"workload.loop": 2})
    return base, base.with_values(**{"launch.registers_per_thread": 64})


def test_the_workspace_is_qt_free():
    code = ("import sys; import explorer.gui.workspace.workspace; "
            "print([m for m in sys.modules if m.split('.')[0] == 'PySide6'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_a_simulation_through_a_synchronous_runner_port(small):
    base, _other = small
    ws = Workspace(base)
    arrived = []
    ws.simulation.finished.connect(arrived.append)
    ws.simulation.submit()  # no runner yet: nothing happens
    assert ws.run is None and not ws.session.simulating
    runner = SyncRunner()
    ws.simulation.attach(runner)
    ws.simulation.submit()
    assert runner.started[0] == "simulate" and arrived == [ws.run]
    assert ws.run.result.scenario == base and ws.session.run_is_current
    ws.simulation.submit()  # its run is on screen: nothing is simulated again
    assert runner.started.count("simulate") == 1


def test_commands_do_and_undo_on_the_workspace(small):
    base, other = small
    ws = Workspace(base)
    ws.simulation.attach(SyncRunner())
    ws.simulation.submit()
    first = ws.run
    shown = []
    ws.scenario_shown.connect(shown.append)
    ws.do(ScenarioChange("preset", other))
    assert ws.scenario == other and ws.run.result.scenario == other and shown == [other]
    assert ws.commands.undo_kind == "preset"
    assert ws.undo() and ws.scenario == base and ws.run.result.scenario == base and ws.run is not first
    assert ws.redo() and ws.scenario == other
    assert ws.commands.history == [("do", "preset"), ("undo", "preset"), ("redo", "preset")]
    ws.change_scenario(base, "lesson")  # logged, not a step of its own
    assert ws.commands.undo_kind == "preset" and ws.commands.history[-1] == ("do", "lesson")


def held_simulation(scenario) -> tuple[Workspace, SyncRunner]:
    """A workspace whose scenario's simulation was handed to a runner that holds it (not run yet)."""
    ws = Workspace(scenario)
    runner = SyncRunner(hold=True)
    ws.simulation.attach(runner)
    ws.simulation.submit()
    return ws, runner


def test_a_run_computed_elsewhere_is_shown_without_simulating(small):
    base, other = small
    ws, runner = held_simulation(base)
    assert ws.session.simulating
    run = simulate_run(other)
    ws.show_run(run, "gemm")
    assert ws.run is run and not ws.session.simulating and not runner.queued
    assert runner.started == ["simulate"] and ws.commands.undo_kind == "gemm"


def test_newest_wins_and_a_refusal_keeps_the_last_good_run(small):
    base, other = small
    ws, runner = held_simulation(base)
    ws.apply_scenario(other, from_panel=True)  # the newer scenario supersedes the queued one
    assert len(runner.queued) == 1
    runner.release()
    assert ws.run.result.scenario == other
    failures = []
    ws.simulation.failed.connect(lambda scenario, error: failures.append(error.kind))
    ws.simulation._failed(other, FakeError("input", "too many registers", "launch.regs"))
    assert failures == ["input"] and ws.run.result.scenario == other and not ws.session.run_is_current


def test_one_cursor_for_every_view(small):
    """The Explorer's cycle is the window's one cursor: the A/B compare's position (B is the Explorer's run) moves
    it and follows it, and keeps what the cycle cannot say (how far past a shorter B's end it stands)."""
    from explorer.gui.compare.session import CompareSession

    base, other = small
    ws = Workspace(base)
    ws.simulation.attach(SyncRunner())
    ws.simulation.submit()
    b = ws.run
    a = simulate_run(base.with_values(**{"workload.loop": 6}))  # the pinned run, longer than B
    assert a.cycles > b.cycles + 100
    explorer = []
    ws.session.cycle_changed.connect(explorer.append)
    compare = CompareSession(ws.session)
    compare.set_current(b)
    compare.pin(a)
    ws.session.set_cycle(40)  # the Explorer's slider: the compare position follows
    assert compare.t == 40 and compare.frame("b").cycle == compare.frame("a").cycle == 40
    compare.set_position(50)  # the compare's slider: the Explorer's views follow
    assert ws.session.cycle == 50 and explorer == [40, 50]
    compare.to_end()  # past B's end: B (and the Explorer) hold B's last cycle, A plays on
    assert compare.t == a.cycles - 1 and ws.session.cycle == b.cycles - 1 and compare.frame("b").finished
    assert explorer == [40, 50, b.cycles - 1]
    compare.step(-1)  # still past B's end: the cursor does not move, nor pull the position back
    assert compare.t == a.cycles - 2 and explorer == [40, 50, b.cycles - 1]
    compare.set_alignment("progress")  # the cursor stays, and so does the position: it shows B's last cycle too
    assert ws.session.cycle == compare.frame("b").cycle == b.cycles - 1 and compare.t == a.cycles - 2
    compare.to_start()
    ws.session.set_cycle(b.cycles - 1)  # the cursor moved elsewhere: the position that shows it
    assert compare.t == a.cycles - 1
    ws.session.set_cycle(b.cycles // 2)
    assert compare.frame("b").cycle == b.cycles // 2 and compare.frame("a").cycle > b.cycles // 2
    ws.change_scenario(other, "file")  # a new B: at the Explorer's cycle
    assert compare.current is ws.run and compare.frame("b").cycle == ws.session.cycle

    playing = []
    ws.session.playing_changed.connect(playing.append)
    explorer_view, compare_view = object(), object()
    ws.session.set_playing(explorer_view)
    ws.session.set_playing(compare_view)  # the Explorer's clock hears this and pauses
    ws.session.stopped(explorer_view)  # ... and its pause does not stop the compare's
    assert ws.session.playing is compare_view
    ws.session.stopped(compare_view)
    assert playing == [explorer_view, compare_view, None] and ws.session.playing is None


def test_a_second_set_of_views_on_the_same_workspace_and_the_first_released(small):
    """A language switch: the new window's views listen, the old one's are released; stack and run carry over."""
    base, other = small
    ws = Workspace(base)
    ws.simulation.attach(SyncRunner())
    ws.simulation.submit()
    ws.change_scenario(other, "file")
    old = []
    ws.session.cycle_changed.connect(old.append)
    ws.commands.changed.connect(lambda: old.append("stack"))
    listeners = ws.listeners()
    new = []
    ws.session.cycle_changed.connect(new.append)
    runner = SyncRunner()
    ws.simulation.attach(runner)  # the new window's runner
    ws.release(listeners)
    ws.session.set_cycle(5)
    assert old == [] and new == [5]
    assert ws.commands.undo_kind == "file" and ws.run.result.scenario == other
    assert ws.undo() and ws.scenario == base and runner.started == ["simulate"]


def test_the_default_workspace_holds_the_default_scenario():
    assert Workspace().scenario == default_scenario()


@needs_sass
def test_a_kernel_run_beyond_the_trace_budget_is_filled_in_as_the_direct_run(monkeypatch):
    """A ``[kernel]`` run (the user's own kernel) that outgrows the trace budget keeps its first SMs; the window's
    fill-in executes the kernel again batch by batch, and what it brings is the direct run's, cycle for cycle."""
    import explorer.sim as sim
    from explorer.gui.workspace import run_data
    from explorer.model.scenario import Scenario
    from tests.execute.cases import KERNELS, buf

    n = 264 * 128  # two blocks per SM of an H100: every SM busy
    sc = Scenario.from_dict({"gpu": "H100", "launch": {"grid": [264, 1, 1], "block": [128, 1, 1]},
                             "kernel": {"file": str(KERNELS / "copy.cu"), "name": "copy_coalesced",
                                        "args": {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n}}})
    direct = sim.simulate(sc)  # the budget keeps every SM of so short a run: the reference
    sms = direct.params.sm_count
    assert len(direct.recorded_sms) == sms
    per_sm = direct.cycles * direct.params.warps_per_sm  # bytes of one SM's trace
    real = sim.simulate

    def first_pass_over_budget(scenario, **kw):  # the window's run keeps a few SMs; the fill-in's re-runs all theirs
        return real(scenario, **({"trace_budget_bytes": 20 * per_sm} if kw.get("record_sms") is None else {}) | kw)

    monkeypatch.setitem(sim.__dict__, "simulate", first_pass_over_budget)
    monkeypatch.setattr(run_data, "trace_budget", lambda: 2 * sms * per_sm)  # every cycle, in two batches
    ws = Workspace(sc)
    runner = SyncRunner()
    ws.simulation.attach(runner)
    ws.simulation.submit()
    run = ws.run
    kept = len(run.result.recorded_sms)
    assert 0 < kept < sms and run.result.cycles == direct.cycles
    assert runner.started.count("fill_sms") >= 2 and not ws.simulation.filling
    assert run.missing_sms() == [] and sorted(run.sampled) == list(range(kept, sms))
    for sm, (stride, samples) in run.sampled.items():
        assert stride == 1 and np.array_equal(samples, direct.sm_trace(sm)), sm
    for cycle in (0, direct.cycles // 3, direct.cycles // 2, direct.cycles - 1):
        assert np.array_equal(run.states_at(cycle), direct.states_at(cycle)), cycle
    wall_clock = {"sim_seconds"}
    assert {k: v for k, v in run.summary.items() if k not in wall_clock} == {
        k: v for k, v in direct.summary().items() if k not in wall_clock}
