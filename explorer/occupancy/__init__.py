"""Theoretical occupancy by NVIDIA's rules, sweeps for the graphs, and hints."""

from explorer.occupancy.calc import (
    LIMITERS,
    LIMITER_TEXT,
    OccupancyResult,
    no_block_reasons,
    occupancy_for_launch,
    occupancy_that_fits,
    theoretical_occupancy,
    why_no_block_fits,
)
from explorer.occupancy.hints import Hint, hint_items, hints
from explorer.occupancy.sweeps import Query, Sweep, best_block_size, sweep_registers, sweep_shared, sweep_threads

__all__ = [
    "LIMITERS",
    "LIMITER_TEXT",
    "OccupancyResult",
    "no_block_reasons",
    "occupancy_for_launch",
    "occupancy_that_fits",
    "theoretical_occupancy",
    "why_no_block_fits",
    "Hint",
    "hint_items",
    "hints",
    "Query",
    "Sweep",
    "best_block_size",
    "sweep_registers",
    "sweep_shared",
    "sweep_threads",
]
