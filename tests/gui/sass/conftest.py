"""A run in the simulator's SASS contract, for the SASS view's tests.

``contract_run(scenario)`` simulates the scenario and presents its result the way the
simulator's SASS contract does (``warp_program``, ``pc_trace(sm)``,
``stall_by_instruction``), built from the run's own per-slot states and the scenario's
real SASS program (``explorer.sass.kernel_program``): a warp's next instruction advances
one row of the program (loop included) each cycle it issues, and each non-empty
warp-cycle is counted against that row in its state. So the counts and traces agree with
the states the timeline shows, and a test can check the view against the trace itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.sim.states import EMPTY, SELECTED


def program_rows(program) -> np.ndarray:
    """The program rows one warp executes, in order (prologue, body x trip, epilogue)."""
    s, e = program.loop_start, program.loop_end
    return np.concatenate([np.arange(s), np.tile(np.arange(s, e), program.trip), np.arange(e, program.length)])


class ContractResult:
    """A SimResult with the SASS contract's three members, derived from its own states."""

    def __init__(self, result, program, notice=None):
        self._result = result
        self.warp_program = program
        if notice:
            self.program_notice = notice
        order = program_rows(program)
        self._pc = {}
        stall = np.zeros((program.length, 11), np.int64)
        for sm in result.recorded_sms.tolist():
            states = result.sm_trace(sm)
            issued = np.cumsum(states == SELECTED, axis=0) - (states == SELECTED)  # issues before this cycle
            busy = states != EMPTY
            # a slot's count restarts with each warp: subtract the count at the warp's first cycle
            start = np.zeros_like(issued)
            for slot in range(states.shape[1]):
                col, st = busy[:, slot], issued[:, slot]
                edges = np.nonzero(col & ~np.concatenate([[False], col[:-1]]))[0]
                base = np.zeros(len(col), np.int64)
                for a in edges.tolist():
                    base[a:] = st[a]
                start[:, slot] = base
            k = np.minimum(issued - start, len(order) - 1)
            pc = np.where(busy, order[k], -1).astype(np.int16)
            self._pc[sm] = pc
            np.add.at(stall, (pc[busy].astype(np.int64), states[busy].astype(np.int64)), 1)
        self.stall_by_instruction = stall

    def pc_trace(self, sm):
        return self._pc.get(sm)

    def __getattr__(self, name):
        return getattr(self._result, name)


def contract_run(scenario, program=None, notice=None):
    from explorer.gui.explore.run_data import SimRun
    from explorer.sass.kernel_program import program_for
    from explorer.sim import simulate

    if program is None:
        program, notice = program_for(scenario)
    return SimRun.from_result(ContractResult(simulate(scenario), program, notice))


@pytest.fixture(scope="session")
def example():
    """The mission's example (its SASS is compiled once, then cached on disk)."""
    from explorer.model.presets import load_preset

    return load_preset("example-240x256")
