"""When each warp's iterations ran, from a measurement taken with ``measure --iteration-clocks``.

Why: the example at loop 16 on the H200 has a tail the model does not produce: 6.5% of its warps each
lose one or two whole ~3,000-cycle waits, in runs of warps that are neighbours in address order
(docs/real-gpu.md). The per-warp records say how much a warp lost, not when. With every iteration's clock
the question the records left open can be answered: did the warps that lost time lose it *at the same
time* (one event of the memory system: a DRAM refresh or write turnaround, L2 writing back the flush's
dirty lines) or *at the same place in their streams* (the same iteration, whatever the time: a translation
miss on the first touch of a page)? This module finds the slow iterations and groups them both ways; it
interprets nothing (the figures go in docs/real-gpu.md once a GPU run has them).

The diagnostic kernel (``explorer.toolchain.codegen``) reads ``clock64`` at the top of every iteration and
after the loop; an iteration's time here runs from its top to the next top. In the generated loops a load's
wait falls inside the iteration that issued it (its value is consumed before the next top).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# A slow iteration: at least SLOW_FACTOR x that iteration's median over all warps *and* SLOW_MIN_CYCLES more
# than it. Thresholds of this analysis, not hardware figures: the waits looked for are ~3,000 cycles on
# iterations of ~900 (docs/real-gpu.md), so the two together separate them from ordinary queueing noise.
SLOW_FACTOR = 2.0
SLOW_MIN_CYCLES = 1000


@dataclass(frozen=True)
class IterationWaits:
    """Per warp and iteration, the cycles taken, and which iterations were slow (with when they started)."""

    durations: np.ndarray  # int64 [warps, loop]: top of iteration i to top of i + 1 (the last: to the loop's end)
    median: np.ndarray  # float64 [loop]: each iteration's median over the warps
    slow_warp: np.ndarray  # int64 [k]: the warp (its global index) of each slow iteration
    slow_iteration: np.ndarray  # int64 [k]: which iteration
    slow_start: np.ndarray  # int64 [k]: its start on the launch's cycle axis (the warp's aligned start + offset)
    slow_extra: np.ndarray  # int64 [k]: cycles above that iteration's median

    @property
    def warps(self) -> int:
        return int(self.durations.shape[0])

    @property
    def loop(self) -> int:
        return int(self.durations.shape[1])


def iteration_waits(measurement) -> IterationWaits | None:
    """The iterations of ``measurement`` (None when it was not taken with iteration clocks)."""
    clocks = measurement.iteration_clocks
    if clocks is None or measurement.warps is None or clocks.shape[1] < 2:
        return None
    durations = np.diff(clocks, axis=1).astype(np.int64)
    median = np.median(durations, axis=0)
    slow = (durations >= SLOW_FACTOR * median[None, :]) & (durations - median[None, :] >= SLOW_MIN_CYCLES)
    warp, it = np.nonzero(slow)
    start = np.asarray(measurement.warps["start"], np.int64)[warp] + clocks[warp, it]
    extra = (durations[warp, it] - median[it]).astype(np.int64)
    order = np.argsort(start, kind="stable")
    return IterationWaits(durations=durations, median=median, slow_warp=warp[order].astype(np.int64),
                          slow_iteration=it[order].astype(np.int64), slow_start=start[order].astype(np.int64),
                          slow_extra=extra[order])


@dataclass(frozen=True)
class Episode:
    """Slow iterations whose time spans overlap (chained): one stretch of time in which warps lost time."""

    first: int  # cycle the earliest of them started
    last_end: int  # cycle the latest of them ended
    warps: tuple[int, ...]  # the warps (global index), sorted
    iterations: tuple[int, ...]  # the iteration indices involved, sorted, distinct
    count: int  # slow iterations in it


def episodes(w: IterationWaits) -> list[Episode]:
    """Group the slow iterations by time: those whose [start, start + duration) overlap form one episode."""
    if w.slow_warp.size == 0:
        return []
    ends = w.slow_start + w.durations[w.slow_warp, w.slow_iteration]
    out: list[Episode] = []
    lo, end = 0, int(ends[0])
    for k in range(1, w.slow_warp.size + 1):
        if k < w.slow_warp.size and int(w.slow_start[k]) < end:
            end = max(end, int(ends[k]))
            continue
        sl = slice(lo, k)
        out.append(Episode(first=int(w.slow_start[lo]), last_end=end,
                           warps=tuple(int(x) for x in np.unique(w.slow_warp[sl])),
                           iterations=tuple(int(x) for x in np.unique(w.slow_iteration[sl])), count=k - lo))
        if k < w.slow_warp.size:
            lo, end = k, int(ends[k])
    return out


def runs(warps: tuple[int, ...] | np.ndarray) -> list[tuple[int, int]]:
    """Consecutive global warp indices as (first, last) runs: neighbours in address order."""
    a = np.unique(np.asarray(warps, np.int64))
    if a.size == 0:
        return []
    cut = np.flatnonzero(np.diff(a) != 1) + 1
    return [(int(s[0]), int(s[-1])) for s in np.split(a, cut)]


def summary(measurement) -> dict | None:
    """The figures ``measure`` prints and puts in ``--json`` (``iterations``); None without iteration clocks."""
    w = iteration_waits(measurement)
    if w is None:
        return None
    eps = episodes(w)
    slow_warps = np.unique(w.slow_warp)
    per_iteration = np.bincount(w.slow_iteration, minlength=w.loop)
    biggest = max(eps, key=lambda e: e.count) if eps else None
    return {
        "warps": w.warps,
        "iterations": w.loop,
        "median_cycles": [float(x) for x in w.median],
        "slow_rule": {"factor": SLOW_FACTOR, "min_extra_cycles": SLOW_MIN_CYCLES},
        "slow_iterations": int(w.slow_warp.size),
        "slow_warps": int(slow_warps.size),
        "slow_per_iteration": [int(x) for x in per_iteration],
        "slow_extra_cycles_median": float(np.median(w.slow_extra)) if w.slow_extra.size else None,
        "episodes": len(eps),
        # how many episodes span more than one iteration index: together in time though at different places
        "episodes_across_iterations": sum(1 for e in eps if len(e.iterations) > 1),
        "largest_episode": None if biggest is None else {
            "slow_iterations": biggest.count, "warps": len(biggest.warps), "warp_runs": runs(biggest.warps)[:8],
            "iterations": list(biggest.iterations), "first_cycle": biggest.first, "last_cycle": biggest.last_end},
    }


def format_lines(s: dict) -> list[str]:
    """``summary``'s figures as text (``measure`` and ``measure --from``)."""
    med = np.asarray(s["median_cycles"])
    lines = [f"iteration clocks: {s['warps']:,} warps x {s['iterations']} iterations; an iteration's median "
             f"{np.median(med):,.0f} cycles (per iteration {med.min():,.0f}-{med.max():,.0f})"]
    if not s["slow_iterations"]:
        lines.append(f"  no slow iteration (>= {s['slow_rule']['factor']:g}x its median and "
                     f"{s['slow_rule']['min_extra_cycles']:,} cycles more)")
        return lines
    per = ", ".join(f"{i}: {n}" for i, n in enumerate(s["slow_per_iteration"]) if n)
    lines.append(f"  slow iterations (>= {s['slow_rule']['factor']:g}x its median and "
                 f"{s['slow_rule']['min_extra_cycles']:,} cycles more): {s['slow_iterations']:,} in "
                 f"{s['slow_warps']:,} warps, {s['slow_extra_cycles_median']:,.0f} cycles extra (median); "
                 f"by iteration {per}")
    noun = "episode" if s["episodes"] == 1 else "episodes"
    lines.append(f"  in time: {s['episodes']} {noun} (slow iterations overlapping in time), "
                 f"{s['episodes_across_iterations']} of them across more than one iteration index")
    b = s["largest_episode"]
    warp_runs = ", ".join(f"{a}-{z}" if a != z else f"{a}" for a, z in b["warp_runs"])
    lines.append(f"  the largest: {b['slow_iterations']} slow iterations of {b['warps']} warps (runs {warp_runs}), "
                 f"iterations {', '.join(map(str, b['iterations']))}, cycles {b['first_cycle']:,}-{b['last_cycle']:,}")
    return lines
