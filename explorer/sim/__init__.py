"""The cycle-level simulator: blocks onto SMs, warp schedulers, per-cycle warp states."""

from explorer.sim.engine import Cancelled, SimulationError, simulate
from explorer.sim.result import SimResult

__all__ = ["Cancelled", "SimulationError", "SimResult", "simulate"]
