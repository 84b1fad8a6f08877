"""Runs for the SASS view's tests: real simulations of the mission's example, each computed once per session."""

from __future__ import annotations

import numpy as np
import pytest

_runs: dict = {}


def program_rows(program) -> np.ndarray:
    """The program rows one warp executes, in order (prologue, body x trip, epilogue)."""
    s, e = program.loop_start, program.loop_end
    return np.concatenate([np.arange(s), np.tile(np.arange(s, e), program.trip), np.arange(e, program.length)])


def run_of(scenario):
    """The window's run of ``scenario`` (workspace.run_data.simulate_run), simulated once."""
    from explorer.gui.workspace.run_data import simulate_run

    if scenario not in _runs:
        _runs[scenario] = simulate_run(scenario)
    return _runs[scenario]


@pytest.fixture(scope="session")
def example():
    """The mission's example (its SASS is compiled once, then cached on disk)."""
    from explorer.model.presets import load_preset

    return load_preset("example-240x256")


@pytest.fixture(scope="session")
def divergent():
    """A user kernel whose warps diverge (tests/kernels/divergence.cu: odd/even paths, lane-dependent and
    data-dependent loops): its run carries partial active masks."""
    from explorer.model.scenario import Scenario
    from tests.execute.cases import KERNELS, buf

    n = 256
    return Scenario.from_dict({
        "gpu": "H100", "launch": {"grid": [2, 1, 1], "block": [128, 1, 1]},
        "kernel": {"file": str(KERNELS / "divergence.cu"), "name": "divergent",
                   "args": {"in": buf("i32", n, "random"), "out": buf("i32", n), "n": n}}})


def partial_point(result):
    """(sm, slot, cycle, mask) of the first recorded cycle where a warp's next instruction is partial."""
    for sm in result.recorded_sms.tolist():
        masks = result.mask_trace(sm)
        hits = np.argwhere((masks != 0) & (masks != 0xFFFFFFFF))
        if len(hits):
            cycle, slot = hits[0]
            return sm, int(slot), int(cycle), int(masks[cycle, slot])
    return None
