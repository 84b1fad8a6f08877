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
    """The window's run of ``scenario`` (explore.run_data.simulate_run), simulated once."""
    from explorer.gui.explore.run_data import simulate_run

    if scenario not in _runs:
        _runs[scenario] = simulate_run(scenario)
    return _runs[scenario]


@pytest.fixture(scope="session")
def example():
    """The mission's example (its SASS is compiled once, then cached on disk)."""
    from explorer.model.presets import load_preset

    return load_preset("example-240x256")
