"""What the explorer views read from one simulation (Qt-free numpy).

``SimRun`` wraps a ``SimResult`` with the few derived arrays the views need and
the core does not keep:

* the timeline's zoom pyramid per SM: level k holds, for each bin of 2**k
  cycles, the most important state in the bin (``state_order.PRIORITY``), so a
  one-cycle issue stays visible when a pixel covers a hundred cycles;
* slot order by scheduler (slot ``s`` belongs to sub-partition ``s % SP``).

Everything here is computed once per run (in the simulation worker where it
costs anything) or per selected SM, never per frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from explorer.gui.common.state_order import EMPTY, N_STATES, NOT_SELECTED, PRIORITY, SELECTED

_RANK = np.asarray(PRIORITY, np.uint8)
MIN_PYRAMID_COLUMNS = 256  # stop halving once a level is this narrow


def scheduler_order(warps_per_sm: int, sub_partitions: int) -> np.ndarray:
    """Slots sorted by scheduler, then by position: [0, 4, 8, ..., 1, 5, ...] for 4 schedulers."""
    slots = np.arange(warps_per_sm)
    return np.lexsort((slots // sub_partitions, slots % sub_partitions)).astype(np.int64)


def max_levels(level0: np.ndarray) -> list[np.ndarray]:
    """``level0`` and its halvings along axis 0 (bins of 2**k rows), each bin's maximum, level 0 first.

    Halving stops once a level is MIN_PYRAMID_COLUMNS long; an odd length is padded
    with zeros (the smallest value of every series here).
    """
    level = np.ascontiguousarray(level0)
    levels = [level]
    while level.shape[0] > MIN_PYRAMID_COLUMNS:
        if level.shape[0] % 2:
            level = np.concatenate([level, np.zeros((1, *level.shape[1:]), level.dtype)])
        level = level.reshape(-1, 2, *level.shape[1:]).max(axis=1)
        levels.append(level)
    return levels


def pyramid(trace_sm: np.ndarray, order: np.ndarray) -> list[np.ndarray]:
    """Priority-rank images [cycles / 2**k, W] (slots in scheduler order), level 0 first."""
    return max_levels(_RANK[trace_sm[:, order]] if trace_sm.size else np.zeros((0, len(order)), np.uint8))


@dataclass(eq=False)
class SimRun:
    """One finished simulation and what the views derive from it."""

    result: object  # explorer.sim.SimResult (not imported here: the window starts without numba)
    summary: dict
    block_slots: np.ndarray  # int16[blocks, warps_per_block]
    order: np.ndarray  # slots in scheduler order
    extra_traces: dict = field(default_factory=dict)  # sm -> uint8[cycles, W], re-simulated on demand
    _pyramids: dict = field(default_factory=dict)

    @classmethod
    def from_result(cls, result) -> "SimRun":
        p = result.params
        return cls(result, result.summary(), result.block_slots, scheduler_order(p.warps_per_sm, p.sub_partitions))

    # -- shape ----------------------------------------------------------------------
    @property
    def cycles(self) -> int:
        return int(self.result.cycles)

    @property
    def sm_count(self) -> int:
        return int(self.result.params.sm_count)

    @property
    def warps_per_sm(self) -> int:
        return int(self.result.params.warps_per_sm)

    @property
    def sub_partitions(self) -> int:
        return int(self.result.params.sub_partitions)

    @cached_property
    def mma_share(self) -> float:
        """The share of the run's warp-instructions that are Tensor Core MMAs (from the program it ran)."""
        from explorer.sim.program import MMA, build_program

        program = build_program(self.result.scenario.workload)
        mmas = int((program.op == MMA).sum()) * program.loop
        return mmas / program.instructions_per_warp if program.instructions_per_warp else 0.0

    # -- per cycle ------------------------------------------------------------------
    def clamp(self, cycle: int) -> int:
        return max(0, min(int(cycle), max(self.cycles - 1, 0)))

    def states_at(self, cycle: int) -> np.ndarray:
        """uint8[sm_count, W]; 255 for SMs whose slots were not recorded."""
        out = self.result.states_at(cycle)
        for sm, trace in self.extra_traces.items():
            if 0 <= cycle < trace.shape[0]:
                out[sm] = trace[cycle]
        return out

    def counts_at(self, cycle: int) -> tuple[int, int, int, int]:
        c = self.result.counts[self.clamp(cycle)]
        return int(c[0]), int(c[1]), int(c[2]), int(c[3])

    def state_counts_at(self, cycle: int) -> np.ndarray:
        return self.result.state_counts[self.clamp(cycle)]

    def resident_per_sm(self, cycle: int) -> np.ndarray:
        return self.result.residency.at(cycle)

    def live_blocks(self, cycle: int) -> np.ndarray:
        return self.result.blocks.live_at(cycle)

    def slot_owner(self, cycle: int) -> np.ndarray:
        """int64[sm_count, W]: the block holding each slot at ``cycle`` (-1: none)."""
        owner = np.full((self.sm_count, self.warps_per_sm), -1, np.int64)
        live = self.live_blocks(cycle)
        if live.size:
            owner[self.result.blocks.sm[live][:, None], self.block_slots[live]] = live[:, None]
        return owner

    # -- per SM ---------------------------------------------------------------------
    def sm_trace(self, sm: int) -> np.ndarray | None:
        trace = self.result.sm_trace(sm)
        return trace if trace is not None else self.extra_traces.get(sm)

    def is_recorded(self, sm: int) -> bool:
        return self.sm_trace(sm) is not None

    def add_trace(self, sm: int, trace: np.ndarray) -> None:
        self.extra_traces[sm] = trace
        self._pyramids.pop(sm, None)

    def pyramid(self, sm: int) -> list[np.ndarray] | None:
        if sm not in self._pyramids:
            trace = self.sm_trace(sm)
            if trace is None:
                return None
            self._pyramids[sm] = pyramid(trace, self.order)
        return self._pyramids[sm]

    def sm_counts(self, sm: int) -> np.ndarray | None:
        """int32[cycles, 3]: resident, eligible, issued warps of one SM per cycle."""
        trace = self.sm_trace(sm)
        if trace is None:
            return None
        resident = (trace != EMPTY).sum(axis=1, dtype=np.int32)
        issued = (trace == SELECTED).sum(axis=1, dtype=np.int32)
        eligible = issued + (trace == NOT_SELECTED).sum(axis=1, dtype=np.int32)
        return np.stack([resident, eligible, issued], axis=1)


def simulate_run(scenario, *, prefetch_sm: int | None = None, progress=None, cancel=None) -> SimRun:
    """Simulate ``scenario`` and wrap the result; ``prefetch_sm``'s timeline pyramid is built too.

    The one way a view's run is made (the window's worker, ``render``, slides): the
    simulator (and numba) is imported here, on first use, not when the window starts.
    """
    from explorer.sim import simulate

    run = SimRun.from_result(simulate(scenario, progress=progress, cancel=cancel))
    if prefetch_sm is not None:
        run.pyramid(prefetch_sm)  # the selected SM's timeline, ready on arrival
    return run


def state_breakdown(counts: np.ndarray) -> list[tuple[int, int]]:
    """[(state code, warps)] for the non-empty states with warps, largest first."""
    counts = np.asarray(counts)
    pairs = [(code, int(counts[code])) for code in range(1, min(len(counts), N_STATES)) if counts[code] > 0]
    return sorted(pairs, key=lambda p: -p[1])
