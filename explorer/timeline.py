"""Timeline shapes shared by simulation and measurement, so an overlay is a join.

Both ``SimResult`` and ``Measurement`` describe a kernel's run as:

* ``BlockRecords``: one row per block, ``(block, sm, start, end)`` in cycles;
* ``Residency``: per-SM resident warps as a step function, stored as events
  ``(cycle, sm, +/- warps)`` — compact (two events per warp or block) however
  long the run, and exact at every cycle.

A simulation writes warp-level events; a measurement writes block-level ones
(each block's warps arrive and leave together, as far as block timestamps tell).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BlockRecords:
    block: np.ndarray  # int64[n]
    sm: np.ndarray  # int32[n]
    start: np.ndarray  # int64[n], cycles
    end: np.ndarray  # int64[n], cycles

    def __len__(self) -> int:
        return int(self.block.shape[0])

    def live_at(self, t: int) -> np.ndarray:
        """Indices of blocks resident at cycle ``t`` (start <= t < end)."""
        return np.nonzero((self.start <= t) & (self.end > t))[0]

    def blocks_per_sm(self, sm_count: int) -> np.ndarray:
        """How many blocks each SM ran over the whole kernel."""
        return np.bincount(self.sm, minlength=sm_count)

    def max_concurrent_per_sm(self, sm_count: int) -> np.ndarray:
        """The most blocks each SM held at one time (a sweep over start/end events)."""
        out = np.zeros(sm_count, dtype=np.int64)
        if len(self) == 0:
            return out
        times = np.concatenate([self.start, self.end])
        deltas = np.concatenate([np.ones(len(self), np.int64), -np.ones(len(self), np.int64)])
        sms = np.concatenate([self.sm, self.sm])
        # ends before starts at the same cycle: a block leaving frees its place first
        order = np.lexsort((deltas, times))
        sms, deltas = sms[order], deltas[order]
        for sm in range(sm_count):
            mask = sms == sm
            if mask.any():
                out[sm] = np.cumsum(deltas[mask]).max()
        return out


@dataclass(frozen=True)
class Residency:
    """Per-SM resident warps over time, from sorted change events."""

    sm_count: int
    time: np.ndarray  # int64[n], sorted
    sm: np.ndarray  # int32[n]
    delta: np.ndarray  # int32[n]

    @classmethod
    def from_events(cls, sm_count: int, time, sm, delta) -> "Residency":
        time = np.asarray(time, dtype=np.int64)
        order = np.lexsort((np.asarray(delta), time))  # leaving before arriving at a tie
        return cls(sm_count, time[order], np.asarray(sm, np.int32)[order], np.asarray(delta, np.int32)[order])

    @classmethod
    def from_blocks(cls, sm_count: int, blocks: BlockRecords, warps_per_block: int) -> "Residency":
        n = len(blocks)
        return cls.from_events(
            sm_count,
            np.concatenate([blocks.start, blocks.end]),
            np.concatenate([blocks.sm, blocks.sm]),
            np.concatenate([np.full(n, warps_per_block), np.full(n, -warps_per_block)]),
        )

    @property
    def end(self) -> int:
        return int(self.time[-1]) if self.time.size else 0

    def at(self, t: int) -> np.ndarray:
        """Resident warps on every SM at cycle ``t``."""
        k = np.searchsorted(self.time, t, side="right")
        return np.bincount(self.sm[:k], weights=self.delta[:k], minlength=self.sm_count).astype(np.int64)

    def _per_sm(self):
        """Events grouped by SM (time order kept): [(times, levels)] per SM."""
        order = np.argsort(self.sm, kind="stable")
        sms = self.sm[order]
        bounds = np.searchsorted(sms, np.arange(self.sm_count + 1))
        t, d = self.time[order], self.delta[order]
        return [(t[a:b], np.cumsum(d[a:b])) for a, b in zip(bounds[:-1], bounds[1:])]

    def sample(self, times: np.ndarray) -> np.ndarray:
        """Resident warps per SM at each of ``times``: shape (len(times), sm_count)."""
        times = np.asarray(times, dtype=np.int64)
        out = np.zeros((len(times), self.sm_count), dtype=np.int32)
        for sm, (t, level) in enumerate(self._per_sm()):
            if t.size:
                idx = np.searchsorted(t, times, side="right")
                out[:, sm] = np.where(idx > 0, level[np.maximum(idx - 1, 0)], 0)
        return out

    def total(self, times: np.ndarray) -> np.ndarray:
        """GPU-wide resident warps at each of ``times``."""
        times = np.asarray(times, dtype=np.int64)
        cum = np.concatenate([[0], np.cumsum(self.delta, dtype=np.int64)])
        return cum[np.searchsorted(self.time, times, side="right")]

    def warp_cycles_and_active_cycles(self, until: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per SM: resident warp-cycles, and cycles with at least one resident warp."""
        until = self.end if until is None else until
        warp_cycles = np.zeros(self.sm_count, dtype=np.float64)
        active = np.zeros(self.sm_count, dtype=np.float64)
        for sm, (t, level) in enumerate(self._per_sm()):
            if not t.size:
                continue
            spans = np.diff(np.append(t, max(until, int(t[-1]))))
            warp_cycles[sm] = float((level * spans).sum())
            active[sm] = float(spans[level > 0].sum())
        return warp_cycles, active

    def achieved_occupancy(self, max_warps_per_sm: int) -> float:
        """Resident warps averaged over active SM cycles, over the SM's warp slots (Nsight's definition)."""
        warp_cycles, active = self.warp_cycles_and_active_cycles()
        total_active = active.sum()
        return float(warp_cycles.sum() / total_active / max_warps_per_sm) if total_active else 0.0
