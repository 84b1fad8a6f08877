"""From raw timer records to the timeline shapes the simulator produces (pure numpy).

The kernel writes one record per warp (or per block): ``%globaltimer`` (ns, one clock
for the whole GPU but updated in coarse steps on some systems) and ``clock64`` (SM
cycles, exact but each SM has its own counter) at entry and exit, plus ``%smid``.

Cycles on one time axis: per SM, the offset between its ``clock64`` and the global
timer is estimated from all of that SM's records (median of ``clock - ns x f``), so
times within an SM keep cycle precision and SMs line up to within a timer step.
When ``clock64`` cannot be trusted (a warp changed SM: preemption) the global timer
alone is used, converted with the measured clock. Time 0 is the kernel's first warp.

Residency: each warp adds one resident warp to its SM from its start to its end (a
sweep over start/end events, as ``explorer.timeline.Residency`` stores it); achieved
occupancy is Nsight's definition, resident warps averaged over active SM cycles,
divided by the SM's warp slots.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.toolchain.codegen import RECORD_WORDS  # the layout the generated kernel writes
from explorer.timeline import BlockRecords, Residency


@dataclass(frozen=True)
class RawRecords:
    """Decoded kernel records (one row per warp, or per block)."""

    per_warp: bool
    start_ns: np.ndarray  # uint64
    end_ns: np.ndarray
    start_clk: np.ndarray
    end_clk: np.ndarray
    sm_start: np.ndarray  # uint32 (%smid at entry)
    sm_end: np.ndarray  # uint32 (%smid at exit)
    hw_warp: np.ndarray  # uint32 (%warpid: the warp slot on its SM, at entry)
    nsmid: np.ndarray  # uint32
    block: np.ndarray  # int64: linear block index

    def __len__(self) -> int:
        return int(self.start_ns.shape[0])

    @classmethod
    def decode(cls, words: np.ndarray, per_warp: bool) -> "RawRecords":
        """From the kernel's ``u64[n, 8]`` buffer; per-block start fields are stored inverted."""
        w = np.asarray(words, dtype=np.uint64).reshape(-1, RECORD_WORDS)
        start_ns, start_clk = w[:, 0], w[:, 2]
        if not per_warp:
            start_ns, start_clk = ~start_ns, ~start_clk
        return cls(
            per_warp=per_warp,
            start_ns=start_ns.copy(),
            end_ns=w[:, 1].copy(),
            start_clk=start_clk.copy(),
            end_clk=w[:, 3].copy(),
            sm_start=(w[:, 4] & np.uint64(0xFFFFFFFF)).astype(np.uint32),
            sm_end=(w[:, 4] >> np.uint64(32)).astype(np.uint32),
            hw_warp=w[:, 5].astype(np.uint32),
            nsmid=w[:, 6].astype(np.uint32),
            block=w[:, 7].astype(np.int64),
        )

    def problems(self) -> list[str]:
        """Records that cannot be right (unwritten, time running backwards)."""
        out = []
        unwritten = int(((self.end_ns == 0) & (self.start_ns == 0)).sum()) if len(self) else 0
        if unwritten:
            out.append(f"{unwritten} of {len(self)} records were never written (the kernel did not finish?)")
        backwards = int((self.end_ns < self.start_ns).sum())
        if backwards:
            out.append(f"{backwards} records end before they start (globaltimer)")
        return out


def clock_mhz_from_records(raw: RawRecords, tick_ns: float, *, min_ticks: float = 0.0) -> float | None:
    """The SM clock while the kernel ran: clock64 cycles over globaltimer ns, per SM over its whole span.

    Each SM contributes (last clock64 - first clock64) / (last ns - first ns) over all its
    records, the longest interval it offers, so the timer's step matters least; the median
    over SMs is returned. None when no SM's span covers ``min_ticks`` timer steps (and at
    least one ns)."""
    ok = (raw.sm_start == raw.sm_end) & (raw.end_ns > raw.start_ns) & (raw.end_clk > raw.start_clk)
    if not ok.any():
        return None
    sms = raw.sm_start[ok]
    s_ns, e_ns = raw.start_ns[ok].astype(np.float64), raw.end_ns[ok].astype(np.float64)
    base = int(raw.start_clk[ok].min())
    s_clk = (raw.start_clk[ok] - np.uint64(base)).astype(np.float64)
    e_clk = (raw.end_clk[ok] - np.uint64(base)).astype(np.float64)
    rates, spans = [], []
    for sm in np.unique(sms):
        m = sms == sm
        span_ns = e_ns[m].max() - s_ns[m].min()
        span_clk = e_clk[m].max() - s_clk[m].min()
        if span_ns > 0 and span_clk > 0:
            rates.append(span_clk / span_ns)
            spans.append(span_ns)
    if not rates or max(spans) < max(min_ticks * max(tick_ns, 0.0), 1.0):
        return None
    return float(np.median(rates) * 1000.0)


def align_cycles(raw: RawRecords, clock_mhz: float, tick_ns: float) -> tuple[np.ndarray, np.ndarray, str]:
    """Start and end of every record in cycles since the kernel's first record, and the method used."""
    n = len(raw)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), "none"
    f = clock_mhz / 1000.0  # cycles per ns
    t0 = int(raw.start_ns.min())
    s_ns = (raw.start_ns - np.uint64(t0)).astype(np.float64)
    e_ns = (raw.end_ns - np.uint64(t0)).astype(np.float64)
    trusted = bool((raw.sm_start == raw.sm_end).all() and (raw.end_clk >= raw.start_clk).all())
    if trusted:
        start = np.empty(n, np.float64)
        end = np.empty(n, np.float64)
        # the timer shows the last step at or before the true time: on average half a step early
        mid = s_ns + tick_ns / 2.0
        sms = raw.sm_start
        order = np.argsort(sms, kind="stable")
        bounds = np.flatnonzero(np.diff(sms[order])) + 1
        for group in np.split(order, bounds):
            clk_s = raw.start_clk[group]
            base = int(clk_s.min())  # keep the arithmetic in small numbers
            cs = (clk_s - np.uint64(base)).astype(np.float64)
            ce = (raw.end_clk[group] - np.uint64(base)).astype(np.float64)
            offset = float(np.median(cs - mid[group] * f))
            start[group] = cs - offset
            end[group] = ce - offset
        shift = start.min()
        start -= shift
        end -= shift
        method = "clock64 per SM, aligned across SMs by globaltimer"
    else:
        start, end = s_ns * f, e_ns * f
        method = "globaltimer x measured clock (a warp changed SM: clock64 not comparable)"
    start_i = np.maximum(np.rint(start), 0).astype(np.int64)
    end_i = np.maximum(np.rint(end), start_i).astype(np.int64)
    return start_i, end_i, method


@dataclass(frozen=True)
class Analysis:
    """Everything derived from one launch's records."""

    sm_count: int
    sm_ids: np.ndarray  # int64[sm_count]: hardware %smid of each dense SM index (-1: no block ran there)
    blocks: BlockRecords  # cycles
    blocks_ns: BlockRecords  # ns since the first record
    residency: Residency  # cycles
    warps: dict | None  # per-warp arrays (cycles and ns) when the kernel recorded warps
    cycles: int
    duration_ns: int
    clock_mhz: float
    alignment: str
    achieved_occupancy: float
    max_warps_per_sm: int
    problems: tuple[str, ...] = ()

    def blocks_per_sm(self) -> np.ndarray:
        return self.blocks.blocks_per_sm(self.sm_count)

    def max_blocks_per_sm(self) -> np.ndarray:
        return self.blocks.max_concurrent_per_sm(self.sm_count)

    def sm_active_fraction(self) -> float:
        _, active = self.residency.warp_cycles_and_active_cycles(self.cycles)
        return float(active.sum() / (max(self.cycles, 1) * self.sm_count))


def analyze(
    raw: RawRecords,
    *,
    warps_per_block: int,
    device_sm_count: int,
    max_warps_per_sm: int,
    tick_ns: float = 0.0,
    clock_mhz: float | None = None,
    fallback_clock_mhz: float | None = None,
) -> Analysis:
    """Block records, per-SM residency and achieved occupancy from one launch's records."""
    if len(raw) == 0:
        raise ValueError("no records")
    problems = list(raw.problems())
    if clock_mhz:
        clock, source = clock_mhz, "given"
    else:
        clock = clock_mhz_from_records(raw, tick_ns, min_ticks=50)  # spans of >= 50 timer steps: < 2% error
        source = "records"
        if clock is None and fallback_clock_mhz:
            clock, source = fallback_clock_mhz, "timer-probe kernel (records too short for the timer step)"
        if clock is None:
            clock = clock_mhz_from_records(raw, tick_ns)
    if not clock or clock <= 0:
        raise ValueError("cannot tell the SM clock from the records (no record has both timers advancing)")
    start, end, method = align_cycles(raw, clock, tick_ns)
    t0 = int(raw.start_ns.min())
    start_ns = (raw.start_ns - np.uint64(t0)).astype(np.int64)
    end_ns = (raw.end_ns - np.uint64(t0)).astype(np.int64)

    # dense SM indices: hardware ids in increasing order (ids need not be contiguous)
    hw = raw.sm_start.astype(np.int64)
    seen = np.unique(hw)
    sm_count = max(int(device_sm_count), int(seen.size))
    sm_ids = np.full(sm_count, -1, np.int64)
    sm_ids[: seen.size] = seen
    dense = np.searchsorted(seen, hw).astype(np.int32)

    if raw.per_warp:
        order = np.lexsort((start, raw.block))
        blk_sorted = raw.block[order]
        firsts = np.concatenate([[0], np.flatnonzero(np.diff(blk_sorted)) + 1])
        block_ids = blk_sorted[firsts]
        b_start = np.minimum.reduceat(start[order], firsts)
        b_end = np.maximum.reduceat(end[order], firsts)
        b_start_ns = np.minimum.reduceat(start_ns[order], firsts)
        b_end_ns = np.maximum.reduceat(end_ns[order], firsts)
        b_sm = dense[order][firsts]  # the SM of the block's first warp
        split = np.minimum.reduceat(dense[order], firsts) != np.maximum.reduceat(dense[order], firsts)
        if split.any():
            problems.append(f"{int(split.sum())} blocks have warps on different SMs (preemption?)")
        residency = Residency.from_events(
            sm_count,
            np.concatenate([start, end]),
            np.concatenate([dense, dense]),
            np.concatenate([np.ones(len(raw), np.int32), -np.ones(len(raw), np.int32)]),
        )
        warps = {
            "block": raw.block.copy(),
            "sm": dense.copy(),
            "start": start,
            "end": end,
            "start_ns": start_ns,
            "end_ns": end_ns,
            "hw_warp": raw.hw_warp.astype(np.int32),
        }
    else:
        order = np.argsort(raw.block, kind="stable")
        block_ids = raw.block[order]
        b_start, b_end = start[order], end[order]
        b_start_ns, b_end_ns = start_ns[order], end_ns[order]
        b_sm = dense[order]
        residency = Residency.from_blocks(
            sm_count, BlockRecords(block_ids, b_sm, b_start, b_end), warps_per_block)
        warps = None
    blocks = BlockRecords(block=block_ids.astype(np.int64), sm=b_sm.astype(np.int32),
                          start=b_start.astype(np.int64), end=b_end.astype(np.int64))
    blocks_ns = BlockRecords(block=blocks.block, sm=blocks.sm, start=b_start_ns.astype(np.int64),
                             end=b_end_ns.astype(np.int64))
    cycles = int(end.max()) if end.size else 0
    return Analysis(
        sm_count=sm_count,
        sm_ids=sm_ids,
        blocks=blocks,
        blocks_ns=blocks_ns,
        residency=residency,
        warps=warps,
        cycles=cycles,
        duration_ns=int(end_ns.max()) if end_ns.size else 0,
        clock_mhz=float(clock),
        alignment=f"{method}; clock from {source}",
        achieved_occupancy=residency.achieved_occupancy(max_warps_per_sm),
        max_warps_per_sm=max_warps_per_sm,
        problems=tuple(problems),
    )


def tick_from_deltas(deltas: np.ndarray) -> dict:
    """The globaltimer's update step from the differences between successive distinct readings."""
    d = np.asarray(deltas, dtype=np.int64)
    d = d[d > 0]
    if d.size == 0:
        return {"tick_ns": None, "min_ns": None, "changes": 0}
    return {"tick_ns": float(np.median(d)), "min_ns": int(d.min()), "max_ns": int(d.max()), "changes": int(d.size)}
