"""A stream of identical launches, composed from one simulated kernel, read four ways.

Why composed: a run is a pure function of its scenario, so N launches of the same
kernel are N copies of one ``SimResult`` placed on a timeline
``kernel, gap, kernel, gap, ...`` (every ``sync_every``-th gap is a host round trip
instead of a launch gap). Every figure below is a sum over identical kernels
divided by a span, so 10,000 launches cost one simulation plus a few divisions,
and nothing here grows with N but the optional per-kernel and per-window views,
which are bounded.

The four figures, as the tools define them:

- ``nvml_utilization``: NVML's "GPU utilization", the share of each sample period
  in which at least one kernel was running (periods start with the first kernel),
  averaged over the stream with each period weighted by the part of it the stream
  covers (the last one is read as the stream ends): the busy share of the span.
  ``nvml_min``/``nvml_max`` are the lowest and highest reading of a complete
  period. A stream shorter than one period is read over its own span, and
  ``nvml_window_note`` says so and what a period holding only this stream reads.
- ``sm_active``: the share of SM-time with at least one resident warp (NVML GPM's
  ``SM_UTIL``, DCGM's SM active), over the span.
- ``achieved_occupancy``: resident warps over the SMs' warp slots, averaged over
  all SM-time of the span (GPM's ``SM_OCCUPANCY``). Nsight Compute's per-kernel
  figure, averaged over active cycles only, is the summary's ``achieved_occupancy``.
- ``issue_slot_utilization``: warp-instructions issued over the issue slots of the
  span (every scheduler, every cycle).

Each is at most the one before it in this list (issue slots and occupancy are both
at most SM active), whatever the gaps: the point of showing them side by side.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from explorer.model.stream import StreamTiming
from explorer.sim.result import SimResult

MAX_VIEW = 100_000  # kernels or windows one call to a view returns


@dataclass(frozen=True)
class KernelFigures:
    """What one launch contributes, read once from its SimResult."""

    cycles: int
    clock_mhz: float
    sm_count: int
    warps_per_sm: int
    schedulers_per_sm: int
    active_sm_cycles: float  # SM-cycles with >= 1 resident warp
    warp_cycles: float  # resident warp-cycles, all SMs
    issued: int  # warp-instructions

    @classmethod
    def of(cls, result: SimResult) -> "KernelFigures":
        p = result.params
        warp_cycles, active = result.residency.warp_cycles_and_active_cycles(result.cycles)
        return cls(
            cycles=result.cycles,
            clock_mhz=float(p.clock_mhz),
            sm_count=p.sm_count,
            warps_per_sm=p.warps_per_sm,
            schedulers_per_sm=p.sub_partitions,
            active_sm_cycles=float(active.sum()),
            warp_cycles=float(warp_cycles.sum()),
            issued=result.count_total("issued"),  # exact also where the series are binned
        )

    @property
    def us(self) -> float:
        return self.cycles / self.clock_mhz


class StreamResult:
    """The composed timeline of ``timing.kernels`` launches of one kernel (microseconds from the first start)."""

    def __init__(self, kernel: KernelFigures, timing: StreamTiming):
        self.kernel = kernel
        self.timing = timing
        self.kernel_us = kernel.us
        n, k = timing.kernels, timing.sync_every
        syncs = (n - 1) // k if k else 0  # the gap after kernel j (1-based, j < n) is a round trip if k | j
        self.gaps_us = (n - 1 - syncs) * timing.gap_us + syncs * timing.sync_gap_us
        self.busy_total_us = n * self.kernel_us
        self.span_us = self.busy_total_us + self.gaps_us

    # -- the timeline ----------------------------------------------------------------
    def starts_us(self, index) -> np.ndarray:
        """Start time of kernel ``index`` (0-based; arrays welcome), closed form."""
        i = np.asarray(index, dtype=np.int64)
        t = self.timing
        out = i * (self.kernel_us + t.gap_us)
        if t.sync_every:
            out = out + (i // t.sync_every) * (t.sync_gap_us - t.gap_us)
        return out

    def last_started(self, time_us) -> np.ndarray:
        """Index of the last kernel started at or before ``time_us`` (-1 before the first).

        Closed form, so any time costs the same. Exactly at a boundary, float rounding
        may name the neighbour; :meth:`busy_us` is continuous there, so it does not care.
        """
        t = np.asarray(time_us, dtype=np.float64)
        timing, K = self.timing, self.kernel_us
        step = K + timing.gap_us  # > 0: a kernel lasts at least one cycle
        k = timing.sync_every
        if k:
            group = k * K + (k - 1) * timing.gap_us + timing.sync_gap_us  # k kernels and their gaps, sync included
            q = np.floor(t / group)
            j = np.minimum(np.floor((t - q * group) / step), k - 1)
            i = q * k + j
        else:
            i = np.floor(t / step)
        return np.where(t < 0, -1, np.minimum(i, timing.kernels - 1)).astype(np.int64)

    def busy_us(self, time_us) -> np.ndarray:
        """Time with a kernel running in [0, ``time_us``]: the stream's cumulative busy time."""
        t = np.asarray(time_us, dtype=np.float64)
        i = self.last_started(t)
        inside = np.clip(t - self.starts_us(np.maximum(i, 0)), 0.0, self.kernel_us)
        return np.where(i < 0, 0.0, i * self.kernel_us + inside)

    def kernel_intervals(self, first: int = 0, count: int = MAX_VIEW) -> tuple[np.ndarray, np.ndarray]:
        """(start, end) in us of kernels ``first`` .. ``first + count - 1`` (at most MAX_VIEW), for a strip."""
        first = max(0, int(first))
        count = max(0, min(int(count), MAX_VIEW, self.timing.kernels - first))
        starts = self.starts_us(np.arange(first, first + count))
        return starts, starts + self.kernel_us

    # -- NVML's sample windows --------------------------------------------------------
    @property
    def period_us(self) -> float:
        return self.timing.nvml_period_ms * 1000.0

    @property
    def nvml_windows(self) -> int:
        """Complete NVML sample periods in the span (windows start with the first kernel)."""
        return int(self.span_us // self.period_us)

    def window_utilization(self, first: int = 0, count: int = MAX_VIEW) -> np.ndarray:
        """NVML's reading for complete periods ``first`` .. (at most MAX_VIEW of them)."""
        first = max(0, int(first))
        count = max(0, min(int(count), MAX_VIEW, self.nvml_windows - first))
        edges = (first + np.arange(count + 1)) * self.period_us
        return np.clip(np.diff(self.busy_us(edges)) / self.period_us, 0.0, 1.0)  # a share, float rounding aside

    @cached_property
    def readings(self) -> np.ndarray:
        """NVML's reading of each complete period, the first MAX_VIEW of them."""
        return self.window_utilization(0, MAX_VIEW)

    def nvml_utilization(self) -> tuple[float, str]:
        """(utilization, note): NVML's readings over the stream, each period weighted by the part the
        stream covers, the last one read as the stream ends; that is the busy share of the span, so
        it never reads below SM active. A stream shorter than one period is read over its span."""
        p_ms = self.timing.nvml_period_ms
        util = self.busy_total_us / self.span_us
        windows = self.nvml_windows
        if windows == 0:
            alone = self.busy_total_us / self.period_us
            return util, (f"the stream ({self.span_us:,.2f} us) is shorter than one NVML sample period "
                          f"({p_ms:g} ms): utilization over the stream's span; a period holding only this "
                          f"stream would read {100 * alone:.4g}%")
        readings = self.readings
        first = "" if windows <= MAX_VIEW else f" (the first {MAX_VIEW:,})"
        note = (f"{windows:,} complete NVML sample periods of {p_ms:g} ms read {100 * readings.min():.1f}% "
                f"to {100 * readings.max():.1f}%{first}")
        left = self.span_us - windows * self.period_us
        if left > 0:
            note += f"; the last {left / 1000:,.3f} ms, part of a period, read as the stream ends"
        return util, note

    # -- the contract -----------------------------------------------------------------
    def summary(self) -> dict:
        """The ``stream`` object of ``simulate --json``."""
        k, t = self.kernel, self.timing
        n = t.kernels
        span_cycles = self.span_us * k.clock_mhz
        sm_time = k.sm_count * span_cycles
        nvml, note = self.nvml_utilization()
        readings = self.readings
        return {
            "kernels": n,
            "kernel_us": self.kernel_us,
            "gap_us": t.gap_us,
            "graph": t.graph,
            "sync_every": t.sync_every,
            "sync_gap_us": t.sync_gap_us if t.sync_every else None,  # only a stream with syncs has one
            "span_us": self.span_us,
            "busy_us": self.busy_total_us,
            "nvml_period_ms": t.nvml_period_ms,
            "nvml_windows": self.nvml_windows,
            "nvml_utilization": nvml,
            "nvml_min": float(readings.min()) if readings.size else None,
            "nvml_max": float(readings.max()) if readings.size else None,
            "nvml_window_note": note,
            "sm_active": n * k.active_sm_cycles / sm_time,
            "achieved_occupancy": n * k.warp_cycles / (sm_time * k.warps_per_sm),
            "issue_slot_utilization": n * k.issued / (sm_time * k.schedulers_per_sm),
            "defaults": dict(t.sources),
        }


def compose(result: SimResult) -> StreamResult:
    """The stream of the result's scenario (``[stream]``; absent: one kernel) from its one simulated kernel."""
    scenario = result.scenario
    return StreamResult(KernelFigures.of(result), scenario.stream.resolve(scenario.gpu))
