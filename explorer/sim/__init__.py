"""The cycle-level simulator: blocks onto SMs, warp schedulers, per-cycle warp states.

``simulate``, ``SimResult``, ``Cancelled`` and ``SimulationError`` load the engine
(numba, ~0.5 s) on first use, so the state vocabulary (``explorer.sim.states``) can
be imported on its own: the window names and colours the states without loading
the simulator until it simulates.
"""

from __future__ import annotations

import importlib

_WHERE = {"Cancelled": "engine", "SimulationError": "engine", "simulate": "engine", "SimResult": "result"}

__all__ = ["Cancelled", "SimulationError", "SimResult", "simulate"]

# No ``if TYPE_CHECKING:`` imports of the engine here: importing any ``explorer.sim.*`` module runs
# this file, so even a type-only import would make every user of a light module (``explorer.sim.states``:
# the window's state vocabulary) look as if it loaded the engine and everything the engine reads:
# tests/test_import_cycles.py counts such imports as real.


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'explorer.sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"explorer.sim.{module}"), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
