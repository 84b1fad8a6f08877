"""A user kernel's executed stream as the engine's program: execution first, then timing, chunk by chunk.

:func:`kernel_feed` compiles the ``[kernel]`` scenario's kernel for its GPU and returns a
:class:`ProgramFeed`: the executor (``explorer.sass.execute.session.execute_chunks``) runs
blocks lane by lane, in grid order, a chunk of about a million warp-instructions at a time,
and each chunk's executed stream is lowered into the loop's arrays
(``explorer.sass.execute.flat_program.lower``, then the same class, pipe and scoreboard
mapping as every WarpProgram: ``loop_program.lower_flat``). The engine runs the feed's
*window*: the entries of the blocks still running or not yet placed, each warp from its
own first entry to its EXIT, so coalescing, bank conflicts, divergence and barriers come
out of the timing. Before each call of the cycle loop the engine asks the feed to
:meth:`ProgramFeed.prepare`: it drops the entries no warp can reach again (finished
blocks'), shifts the warps' positions by as much, and executes and appends chunks until
every block the next cycle may place is loaded (the loop stops early, at a cycle
boundary, when it would place a block that is not: ``kernel.G.LOADED_BLOCKS``). The run is
the same, cycle for cycle, whatever the chunk size (tested), and memory stays bounded: the
window holds about the resident blocks' instructions plus one chunk, however long the
kernel runs; the run's limits are the executor's instruction limit (``kernel.max_instructions``)
and the simulator's cycle limit. A window that outgrows the simulator's memory budget
(blocks that stay resident while millions of instructions of later blocks arrive) is
refused with the count and the limit.

Its stall counts and next-instruction events name the kernel's listing rows, and the
result's ``warp_program`` is that listing (:func:`listing_program`: one row per static
instruction, none of them a loop).

Why execute first, then time (trace-driven at block granularity): a block's results do
not depend on timing (see ``explorer.sass.execute``), and the engine's loop stays the one
compiled loop every run uses.

The up-front estimate (issue 12's contract: refuse before the run what cannot fit) is the
engine's own, on the first chunk's blocks, scaled to the grid: exact for a launch that
fits one chunk (most lessons and studies of one kernel), an extrapolation beyond.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from explorer.model.errors import InputError
from explorer.model import units
from explorer.sim.loop_program import UNIT_MAP, LoopProgram, row_flags

MAX_ROWS = 32767  # next-instruction events store the listing row as int16 (result.PcEvents)
_LOOP_ARRAYS = ("path", "unit", "latency", "wait_state", "dst", "src", "req_bytes", "role", "arg", "row", "active")
_MOVED = _LOOP_ARRAYS + ("lines_at",)  # what moving a segment moves (lines_at: references into the line table)
MAX_LINES = 128  # the most lines one entry's access names (ProgramFeed.MAX_REQ_BYTES / 32; the loop's lbuf)
MIN_LINE_TABLE = 1 << 16


def chunk_lines(st) -> tuple[np.ndarray, np.ndarray]:
    """A chunk's global and local loads, stores and global atomics as the cache model's lines (issue 29): (per entry of ``st`` the
    number of 128-byte lines its executed lanes touched, uint8; the lines in entry order, each ``line << 4 |
    sectors``, the line's 32-byte sectors as 4 bits), from the sectors the executor recorded
    (``stream.ExecutedStream``). Local memory's sectors are those of its interleaved layout (a warp's threads'
    words of one offset side by side, in a window of addresses no buffer uses: ``arguments.LOCAL_WINDOW``) and
    a global atomic's those its lanes changed (the loop resolves it in L2: ``kernel._access_by_address``)."""
    from explorer.sass.execute.isa import MEMORY_CLASSES

    n = st.entries
    sel = np.isin(st.mem_class, [MEMORY_CLASSES.index(c) for c in ("global_load", "global_store", "global_atomic",
                                                                   "local_load", "local_store")])
    cnt = st.mem_count[sel].astype(np.int64)
    if not cnt.any():
        return np.zeros(n, np.uint8), np.zeros(0, np.int64)
    sec = st.sectors[_ranges(st.sector_start[sel], cnt)]
    ev = np.repeat(st.mem_entry[sel], cnt)
    order = np.lexsort((sec, ev))
    sec, ev = sec[order], ev[order]
    line = sec >> 2
    new = np.ones(sec.shape[0], np.bool_)
    new[1:] = (ev[1:] != ev[:-1]) | (line[1:] != line[:-1])
    first = np.flatnonzero(new)
    masks = np.bitwise_or.reduceat(np.left_shift(1, sec & 3), first)
    count = np.bincount(ev[first], minlength=n)
    if count.max() > MAX_LINES:  # 32 lanes of at most 16 bytes each: 64 sectors at most
        raise AssertionError(f"an access touched {int(count.max())} lines, more than the {MAX_LINES} the loop holds")
    return count.astype(np.uint8), (line[first] << 4) | masks


class _RowTables:
    """The loop's arrays per listing row, and what a compact entry's flags change (``flat_program.compact``)."""

    def __init__(self, t):
        from explorer.sass.warp_program import OP, SB
        from explorer.sim.loop_program import _PATH, _UNIT, _WAIT

        op = np.asarray(t.op, np.int64).copy()
        op[np.asarray(t.barrier) >= 0] = OP["sync"]  # block barriers, whatever the table's class for the form
        self.path = np.take(_PATH, op)
        self.unit = np.take(_UNIT, np.asarray(t.unit, np.int64))
        self.latency = np.ascontiguousarray(t.latency, dtype=np.int32)
        self.wait = np.take(_WAIT, np.asarray(t.scoreboard, np.int64))
        self.dst = np.ascontiguousarray(t.dst, dtype=np.int16)
        self.src = np.ascontiguousarray(t.src, dtype=np.int16)
        self.branch_path = _PATH[OP["branch"]]
        self.none_wait = _WAIT[SB["none"]]


class ProgramFeed:
    """A launch's executed stream, fed to the cycle loop a window of each warp's entries at a time.

    The executor runs whole blocks (``execute_chunks``); their entries are kept *compact*
    (``flat_program.compact``: listing row, flags, bytes moved, active lanes: 11 bytes each) in
    ``store``, and each warp of a block that is resident or ready to place owns a *region* of the
    loop's arrays (``loop``: an arena of ``max_warps`` regions of ``region`` entries) holding its
    next entries, its *segment*. The engine calls the loop for at most ``cycles_per_call`` cycles
    at a time, and before each call :meth:`prepare` frees the regions of warps that finished,
    refills every segment that holds fewer than ``cycles_per_call + 2`` entries past its warp's
    position (and is not at its EXIT: appended in place, or its unused entries first moved to the
    region's start; the warp's position moves with them), and gives regions to the warps of the
    blocks the call may place (``LOADED_BLOCKS``). A warp issues at most one instruction per
    cycle, so no warp runs past its segment within a call.

    The blocks the call may place: ``BLOCKS_AHEAD`` SM-counts of blocks past the next one to place.
    The loop returns as soon as a cycle might place a block that is not loaded (at most one per SM per
    cycle), so with one SM-count ahead it returned after the first block it placed: a grid of short
    blocks (saxpy's 4,096) made ~2,200 calls of ~4 cycles each, their Python around the loop 4x the
    loop's own time. Four ahead, a call runs until three SM-counts of blocks are placed.

    So the window holds a bounded number of entries per warp in flight, whatever the blocks
    execute (a 512^3 matmul's 15.8 M warp-instructions, all in flight at once on an H100, took
    1.1 GB expanded and were refused; compact they take 170 MB), and the run is the same cycle
    for cycle whatever the chunk, region and call sizes (tested).

    ``entries``: warp-instructions executed so far; ``result``: the executor's ExecutionResult
    once every block ran.
    """

    # the most one entry moves: 32 sectors of 32 B (a global or local access: aligned lanes touch one
    # sector each at most), or 32 shared wavefronts of the 128 B data path (every phase's worst case)
    MAX_REQ_BYTES = 32 * 128
    MIN_CYCLES_PER_CALL = 16
    BLOCKS_AHEAD = 4  # SM-counts of blocks loaded past the next one to place (see above)

    def __init__(self, kernel, scenario, timing, chunks, *, sm_count: int, wavefront_bytes: int, budget_bytes: int,
                 warps_per_sm: int, chunk_cycles: int, segment_entries: int | None = None):
        from explorer.sass.execute import isa
        from explorer.sass.execute.flat_program import COMPACT_BYTES, bytes_per_entry

        self.kernel, self.scenario, self.t = kernel, scenario, timing
        self.widths = np.asarray(kernel.decoded.rows[:, isa.C_WIDTH], dtype=np.int32)
        self.chunks = chunks  # the executor's generator (execute_chunks)
        self.tables = _RowTables(timing)
        self.wpb = scenario.launch.warps_per_block()
        self.total_blocks = scenario.launch.total_blocks
        self.total_warps = self.total_blocks * self.wpb
        self.sm_count = sm_count
        self.wavefront_bytes = int(wavefront_bytes)
        self.per_entry = bytes_per_entry(timing) + 4 + 8  # + the loop's mask and its lines' reference
        self.compact_bytes = COMPACT_BYTES + 9  # + where its lines start in the store's, and how many
        self.n_rows = kernel.decoded.n
        self.budget = int(budget_bytes)
        # regions: one per warp resident (the SMs' warp slots) or ready to place (BLOCKS_AHEAD SM-counts of blocks); the
        # arena takes at most half the budget, the compact store the rest
        self.max_warps = max(1, min(self.total_warps, sm_count * warps_per_sm
                                    + self.BLOCKS_AHEAD * sm_count * self.wpb))
        per_warp = self.budget // 2 // self.per_entry // self.max_warps
        if segment_entries is None:
            cycles = min(int(chunk_cycles), (per_warp - 2) // 4)
            if cycles < self.MIN_CYCLES_PER_CALL:
                raise InputError("kernel", f"the timing engine's window would hold {max(0, per_warp):,} "
                                           f"warp-instructions per warp in flight ({self.max_warps:,} warps, "
                                           f"{self.per_entry} bytes each), fewer than the "
                                           f"{4 * self.MIN_CYCLES_PER_CALL + 2} it needs within the simulator's "
                                           "memory budget; use smaller buffers, or `execute` for the functional "
                                           "run alone")
        else:  # tests: a given (small) region
            cycles = max(1, (int(segment_entries) - 2) // 4)
        self.cycles_per_call = int(cycles)
        self.margin = self.cycles_per_call + 2  # entries past a warp's position a call may read
        self.region = 4 * self.cycles_per_call + 2  # a refill appends >= 3 calls' worth, or moves < 1 first
        self.capacity = self.max_warps * self.region
        self.store_budget = self.budget - self.capacity * self.per_entry - 8 * 8 * self.total_warps
        # per grid warp: its region (-1: none), its position before it is placed (-1: not ready), the end of its
        # segment, and the part of the compact store not yet expanded (global store indices)
        self.warp_region = np.full(self.total_warps, -1, np.int64)
        self.entry = np.full(self.total_warps, -1, np.int64)
        self.seg_end = np.zeros(self.total_warps, np.int64)
        self.cpos = np.zeros(self.total_warps, np.int64)
        self.cend = np.zeros(self.total_warps, np.int64)
        self.live_from = 0  # no warp before this one has compact entries left to expand (_drop_store)
        self.owner = np.full(self.max_warps, -1, np.int64)  # per region: its grid warp
        self.free = np.arange(self.max_warps - 1, -1, -1, dtype=np.int64)  # a stack of free regions
        self.n_free = self.max_warps
        self.executed_blocks = 0
        self.loaded_blocks = 0  # blocks whose warps have segments (the engine may place them)
        self.entries = 0
        self.result = None
        self.store = {name: np.zeros(0, dt) for name, dt in
                      (("row", np.int16), ("flags", np.uint8), ("req", np.int32), ("active", np.uint32),
                       ("lpos", np.int64), ("lcount", np.uint8))}
        self.store_base = 0  # the global index of store[...][0] (a dropped prefix moves it)
        self.store_len = 0
        # the stored entries' lines (chunk_lines), in store order: entry k's are store_lines[lpos[k] - lines_base:][:lcount[k]]
        self.store_lines = np.zeros(0, np.int64)
        self.lines_base = 0
        self.lines_len = 0
        # the window's line table (run_cycles' line_tab): the arena's lines_at refer into it; appended as segments
        # fill, compacted to the live segments' lines when half full (prepare)
        self.line_table = np.zeros(MIN_LINE_TABLE, np.int64)
        self.n_table = 0
        self.first_chunk = None  # (row, flags, req, active, warp_start) of the first chunk, for the estimate
        self.seconds = 0.0  # spent executing, keeping and expanding chunks (inside the engine's run: not its timing)
        started = time.perf_counter()
        self.loop = self._arena()
        self._execute(1)
        self._ready(min(self.total_blocks, self.BLOCKS_AHEAD * self.sm_count))
        self.seconds += time.perf_counter() - started

    # -- what the engine asks -----------------------------------------------------------------
    def prepare(self, a: dict) -> LoopProgram:
        """The window for the loop's next call of at most ``cycles_per_call`` cycles (``a``: the engine's state
        arrays; warps' positions move in place): every warp has a segment it cannot overrun in the call, and
        every block the call may place is ready."""
        from explorer.sim.kernel import G

        started = time.perf_counter()
        g = a["g"]
        next_block = int(g[G.NEXT_BLOCK])
        warps, pos, slots = self._positions(a)
        self._release(warps)
        if self.n_table > self.line_table.shape[0] // 2:
            self._compact_lines(warps, pos)
        self._refill(a, warps, pos, slots)
        self._ready(min(self.total_blocks, next_block + self.BLOCKS_AHEAD * self.sm_count))
        g[G.LOADED_BLOCKS] = self.loaded_blocks
        self._drop_store()
        self.seconds += time.perf_counter() - started
        return self.loop

    def loaded_loop(self) -> LoopProgram:
        """The first chunk's warps fully expanded, as a flat LoopProgram (what the engine's estimate reads)."""
        row, flags, req, active, start = self.first_chunk
        return replace(self.loop, **self._expand(row, flags, req, active), entry=start[:-1].copy(),
                       lines_at=np.zeros(0, np.int64))

    def held_bytes(self) -> int:
        """What the feed may hold: its arena and the compact store's budget (and its per-warp arrays), and its line
        table's first size (it grows with the window's global accesses: at most 4 x the lines of the accesses the
        window holds)."""
        return int(self.capacity * self.per_entry + max(0, self.store_budget) + 8 * 8 * self.total_warps
                   + 8 * MIN_LINE_TABLE)

    @property
    def estimate_blocks(self) -> int:
        """The blocks of the first chunk (what the up-front estimate runs on)."""
        return max(1, (self.first_chunk[4].shape[0] - 1) // self.wpb)

    def in_flight_estimate(self, blocks_in_flight: int) -> int:
        """Compact bytes of ``blocks_in_flight`` blocks of the first chunk's average size."""
        row = self.first_chunk[0]
        return int(row.shape[0] / self.estimate_blocks * blocks_in_flight * self.compact_bytes)

    def check_in_flight(self, active_blocks_per_sm: int) -> None:
        """Refuse now, after the first chunk, a launch whose blocks in flight would not fit the compact store:
        the blocks resident at once, those ready to place and a chunk's worth, at the first chunk's size."""
        blocks = min(self.total_blocks, self.sm_count * (active_blocks_per_sm + self.BLOCKS_AHEAD) + self.estimate_blocks)
        need = self.in_flight_estimate(blocks)
        if need > self.store_budget:
            per_block = self.first_chunk[0].shape[0] / self.estimate_blocks
            raise InputError("kernel", f"the timing engine would hold about {need / 2**20:,.0f} MiB of executed "
                                       f"instructions in flight ({blocks:,} blocks of about {per_block:,.0f} "
                                       f"warp-instructions, {self.compact_bytes} bytes each), above the "
                                       f"{max(0, self.store_budget) / 2**20:,.0f} MiB left for them within the "
                                       "simulator's memory budget; use a smaller grid or smaller buffers, or "
                                       "`execute` for the functional run alone")

    def row_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """(per listing row the warp-instructions that executed it, their active lanes): the executor's tallies."""
        return (np.asarray(self.result.executions, np.int64).copy(),
                np.asarray(self.result.active_lanes, np.int64).copy())

    # -- expanding ----------------------------------------------------------------------------
    def _expand(self, row, flags, req, active) -> dict:
        tb = self.tables
        r = row.astype(np.int64)
        path = np.take(tb.path, r)
        wait = np.take(tb.wait, r)
        dst = np.take(tb.dst, r, axis=0)
        flagged = flags != 0
        if flagged.any():
            path[flagged] = tb.branch_path
            wait[flagged] = tb.none_wait
            dst[flags == 2] = -1  # flat_program.F_IDLE
        n = r.shape[0]
        return {"path": path, "unit": np.take(tb.unit, r), "latency": np.take(tb.latency, r), "wait_state": wait,
                "dst": dst, "src": np.take(tb.src, r, axis=0), "req_bytes": req.astype(np.int32, copy=False),
                "role": np.zeros(n, np.int8), "arg": np.zeros(n, np.int32), "row": r.astype(np.int32),
                "active": active.astype(np.uint32, copy=False)}

    def _arena(self) -> LoopProgram:
        """The arena (the loop reads it whole: entries outside segments are never reached; zeros, so the pages
        of regions never used are never touched)."""
        tb = self.tables
        cap = self.capacity
        return LoopProgram(
            path=np.zeros(cap, np.int8), unit=np.zeros(cap, np.int8), latency=np.zeros(cap, np.int32),
            wait_state=np.zeros(cap, np.uint8), dst=np.zeros((cap, tb.dst.shape[1]), np.int16),
            src=np.zeros((cap, tb.src.shape[1]), np.int16), req_bytes=np.zeros(cap, np.int32),
            loop_start=0, loop_end=0, trip=1, n_regs=max(1, len(self.t.reg_names)), role=np.zeros(cap, np.int8),
            arg=np.zeros(cap, np.int32), row=np.zeros(cap, np.int32), n_rows=int(self.n_rows), entry=self.entry,
            active=np.zeros(cap, np.uint32), lines_at=np.zeros(cap, np.int64),
            l1_alloc=row_flags(np.zeros(self.n_rows, bool) if self.t.l1_alloc is None else self.t.l1_alloc))

    def _fill(self, warps: np.ndarray, at: np.ndarray, n: np.ndarray) -> None:
        """Expand each warp's next ``n`` compact entries into the arena from position ``at``."""
        if not n.any():
            return
        k = _ranges(self.cpos[warps], n) - self.store_base
        dst = _ranges(at, n)
        st = self.store
        cols = self._expand(st["row"][k], st["flags"][k], st["req"][k], st["active"][k])
        lp = self.loop
        for name in _LOOP_ARRAYS:
            getattr(lp, name)[dst] = cols[name]
        # the entries' lines, appended to the line table; an entry's reference start << 8 | count (0: none)
        count = st["lcount"][k].astype(np.int64)
        has = count > 0
        total = int(count.sum())
        refs = np.zeros(k.shape[0], np.int64)
        if total:
            self._table_room(total)
            src = _ranges(st["lpos"][k][has] - self.lines_base, count[has])
            self.line_table[self.n_table:self.n_table + total] = self.store_lines[src]
            at_table = self.n_table + np.cumsum(count) - count
            refs[has] = (at_table[has] << 8) | count[has]
            self.n_table += total
        lp.lines_at[dst] = refs
        self.cpos[warps] += n

    def _copy(self, src: np.ndarray, dst: np.ndarray, n: np.ndarray) -> None:
        """Move ranges of the arena (``arr[dst] = arr[src]`` reads every source first: overlaps are safe)."""
        if not n.any():
            return
        s, d = _ranges(src, n), _ranges(dst, n)
        lp = self.loop
        for name in _MOVED:
            arr = getattr(lp, name)
            arr[d] = arr[s]

    def _table_room(self, more: int) -> None:
        """Room in the line table for ``more`` lines (grown by half again, at least)."""
        need = self.n_table + more
        size = self.line_table.shape[0]
        if need > size:
            grown = np.zeros(max(size + size // 2, need), np.int64)
            grown[:self.n_table] = self.line_table[:self.n_table]
            self.line_table = grown

    def _compact_lines(self, warps: np.ndarray, pos: np.ndarray) -> None:
        """Keep only the lines of the entries a warp may still issue (its position to its segment's end), at the
        table's start; the arena's references move with them. Sized to leave as much room again."""
        live = _ranges(pos, np.maximum(self.seg_end[warps] - pos, 0))
        refs = self.loop.lines_at[live]
        has = refs > 0
        live, refs = live[has], refs[has]
        count = refs & 255
        total = int(count.sum())
        src = _ranges(refs >> 8, count)
        table = np.zeros(max(MIN_LINE_TABLE, 4 * total), np.int64)
        table[:total] = self.line_table[src]
        self.loop.lines_at[live] = ((np.cumsum(count) - count) << 8) | count
        self.line_table = table
        self.n_table = total

    # -- the window ---------------------------------------------------------------------------
    def _positions(self, a: dict):
        """(the grid warps that keep a region, their arena positions, their loop indices or -1 unplaced): the
        placed warps still running or whose last state is not booked yet, and those of ready blocks."""
        from explorer.sim.kernel import G

        next_block = int(a["g"][G.NEXT_BLOCK])
        unplaced = np.arange(next_block * self.wpb, self.loaded_blocks * self.wpb, dtype=np.int64)
        keep = (a["w_block"] >= 0) | self._unaccounted(a)
        a["w_pc"][~keep] = 0  # an empty slot's position: only its (discarded) empty cycles read it
        gi = np.nonzero(keep)[0]
        warps = np.concatenate([a["w_age"][gi].astype(np.int64), unplaced])
        pos = np.concatenate([a["w_pc"][gi].astype(np.int64), self.entry[unplaced]])
        slots = np.concatenate([gi, np.full(unplaced.shape[0], -1, np.int64)])
        return warps, pos, slots

    def _release(self, keep: np.ndarray) -> None:
        """Free the regions of warps that no longer need one (finished, their last state booked)."""
        owned = self.owner >= 0
        held = np.zeros(self.total_warps, np.bool_)
        held[keep] = True
        done = np.nonzero(owned & ~held[np.where(owned, self.owner, 0)])[0]
        if done.shape[0]:
            self.warp_region[self.owner[done]] = -1
            self.owner[done] = -1
            self.free[self.n_free:self.n_free + done.shape[0]] = done
            self.n_free += done.shape[0]

    def _refill(self, a: dict, warps, pos, slots) -> None:
        """A longer segment for every warp that could run past its own in the next call."""
        left = self.cend[warps] - self.cpos[warps]
        short = (self.seg_end[warps] - pos < self.margin) & (left > 0)
        if not short.any():
            return
        w, p, s, left = warps[short], pos[short], slots[short], left[short]
        rem = self.seg_end[w] - p
        r0 = self.warp_region[w] * self.region
        room = r0 + self.region - self.seg_end[w]
        in_place = (np.minimum(left, room) + rem >= self.margin) | (left <= room)
        # in place: append after the segment
        wi = w[in_place]
        self._fill(wi, self.seg_end[wi], np.minimum(left[in_place], room[in_place]))
        self.seg_end[wi] += np.minimum(left[in_place], room[in_place])
        # moved: the unused entries to the region's start, then append; the warp's position moves there
        mv = ~in_place
        if mv.any():
            wm, pm, rm, start = w[mv], p[mv], rem[mv], r0[mv]
            self._copy(pm, start, rm)
            add = np.minimum(left[mv], self.region - rm)
            self._fill(wm, start + rm, add)
            self.seg_end[wm] = start + rm + add
            sm = s[mv]
            placed = sm >= 0
            a["w_pc"][sm[placed]] = start[placed]
            self.entry[wm[~placed]] = start[~placed]

    def _ready(self, need: int) -> None:
        """Regions and first segments for the warps of blocks up to ``need`` (executed first)."""
        if self.loaded_blocks >= need:
            return
        self._execute(need)
        need = min(need, self.executed_blocks)
        warps = np.arange(self.loaded_blocks * self.wpb, need * self.wpb, dtype=np.int64)
        n = warps.shape[0]
        if n > self.n_free:  # sized so that it cannot (see __init__): a bug if it does
            raise AssertionError(f"the feed has {self.n_free} free regions for {n} warps")
        regions = self.free[self.n_free - n:self.n_free][::-1].copy()
        self.n_free -= n
        self.owner[regions] = warps
        self.warp_region[warps] = regions
        start = regions * self.region
        add = np.minimum(self.region, self.cend[warps] - self.cpos[warps])
        self._fill(warps, start, add)
        self.entry[warps] = start
        self.seg_end[warps] = start + add
        self.loaded_blocks = need

    def _unaccounted(self, a: dict) -> np.ndarray:
        """Per warp (in the loop's warp order) whether its slot still holds a state not yet booked to its
        last instruction's row: a warp that left at the cycle before the window moves has its last cycles
        booked when its leaving is processed, through its position, which must then still point at its
        ``EXIT`` (without this, posted stores made a chunked run book one cycle to another row)."""
        from explorer.sim.kernel import warp_of_slot
        from explorer.sim.states import EMPTY

        n = a["w_state"].shape[0]
        gi = warp_of_slot(self.sm_count, n // self.sm_count, a["sp_next"].shape[0] // self.sm_count)
        out = np.zeros(n, np.bool_)
        out[gi] = a["w_state"] != EMPTY  # w_state is in slot order, w_pc in warp order
        return out

    # -- the compact store --------------------------------------------------------------------
    def _execute(self, need: int) -> None:
        """Execute chunks until ``need`` blocks have executed (or every block has), keeping them compact."""
        from explorer.sass.execute.flat_program import compact

        while self.executed_blocks < need and self.result is None:
            try:
                st = next(self.chunks)
            except StopIteration as done:
                self.result = done.value
                break
            row, flags, req, active = compact(st, self.t, self.wavefront_bytes)
            lcount, lines = chunk_lines(st)
            if self.first_chunk is None:
                self.first_chunk = (row, flags, req, active, st.warp_start.copy())
            base = self.store_base + self.store_len
            w0 = st.first_block * self.wpb
            self.cpos[w0:w0 + st.n_warps] = base + st.warp_start[:-1]
            self.cend[w0:w0 + st.n_warps] = base + st.warp_start[1:]
            self._append(row, flags, req, active, lcount, lines)
            self.executed_blocks = st.first_block + st.n_blocks
            self.entries += st.entries
        if self.executed_blocks == self.total_blocks and self.result is None:
            try:  # the executor's result (its tallies, the buffers): the generator's return value
                next(self.chunks)
            except StopIteration as done:
                self.result = done.value

    def _append(self, row, flags, req, active, lcount, lines) -> None:
        n = row.shape[0]
        n_lines = lines.shape[0]
        if (self.store_len + n) * self.compact_bytes + 8 * (self.lines_len + n_lines) > self.store_budget:
            raise InputError("kernel", f"the kernel keeps more than {self.store_budget // self.compact_bytes:,} "
                                       "warp-instructions of its blocks in flight, the most the timing engine holds "
                                       f"({self.compact_bytes} bytes each, within the simulator's memory budget); use "
                                       "a smaller grid, or `execute` for the functional run alone")
        size = self.store["row"].shape[0]
        if self.store_len + n > size:  # grow by half again: each entry is copied O(1) times
            new = max(size + size // 2, self.store_len + n, 1 << 16)
            if new * self.compact_bytes > self.store_budget:
                new = max(self.store_len + n, self.store_budget // self.compact_bytes)
            for name, arr in self.store.items():
                grown = np.empty(new, arr.dtype)
                grown[:self.store_len] = arr[:self.store_len]
                self.store[name] = grown
        count = lcount.astype(np.int64)
        lpos = self.lines_base + self.lines_len + np.cumsum(count) - count
        for name, part in zip(("row", "flags", "req", "active", "lpos", "lcount"),
                              (row, flags, req, active, lpos, lcount)):
            self.store[name][self.store_len:self.store_len + n] = part
        self.store_len += n
        if self.lines_len + n_lines > self.store_lines.shape[0]:
            grown = np.empty(max(self.store_lines.shape[0] * 3 // 2, self.lines_len + n_lines, 1 << 16), np.int64)
            grown[:self.lines_len] = self.store_lines[:self.lines_len]
            self.store_lines = grown
        self.store_lines[self.lines_len:self.lines_len + n_lines] = lines
        self.lines_len += n_lines

    def _drop_store(self) -> None:
        """Drop the store's prefix every warp has expanded already (when it is at least half the store)."""
        if self.store_len == 0:
            return
        # the warps from the first one with entries still to expand (a warp expanded to its end stays so: the
        # ones before are never looked at again; looking at every executed warp on every call made the 16 M
        # saxpy's 1,097 calls scan 524 k warps each, 1.9 s)
        lo, n = self.live_from, self.executed_blocks * self.wpb
        live = self.cend[lo:n] > self.cpos[lo:n]
        if live.any():
            self.live_from = lo + int(np.argmax(live))
            first = int(self.cpos[lo:n][live].min())
        else:
            self.live_from = n
            first = self.store_base + self.store_len
        cut = first - self.store_base
        if cut <= 0 or cut < self.store_len // 2:
            return
        lcut = (int(self.store["lpos"][cut]) - self.lines_base if cut < self.store_len else self.lines_len)
        for arr in self.store.values():
            arr[:self.store_len - cut] = arr[cut:self.store_len].copy()
        self.store_len -= cut
        self.store_base = first
        self.store_lines[:self.lines_len - lcut] = self.store_lines[lcut:self.lines_len].copy()
        self.lines_len -= lcut
        self.lines_base += lcut


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of arange(s, s + n) for each (s, n)."""
    lengths = np.asarray(lengths, np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    return np.repeat(np.asarray(starts, np.int64) - offsets, lengths) + np.arange(total, dtype=np.int64)


@dataclass(frozen=True)
class KernelFeed:
    scenario: object  # with the cubin's registers, static shared memory and barriers
    params: object  # SimParams
    feed: ProgramFeed  # what runs
    kernel: object  # UserKernel
    timing: object  # StaticTiming
    occupancy: object
    keep_inputs: bool

    def listing(self, result=None):
        """The kernel's listing (the rows the stall counts name); executed rows marked once ``result`` ran."""
        return listing_program(self.kernel, self.timing, result)

    def run(self):
        """The KernelRun (buffers and execution metrics), once every block executed."""
        from explorer.sass.execute.run import KernelRun

        return KernelRun(scenario=self.scenario, kernel=self.kernel, result=self.feed.result, occupancy=self.occupancy)


def kernel_feed(scenario, *, budget: Callable[[object, int, int], int], keep_inputs: bool = False,
                kernel=None, chunk_instructions: int | None = None, chunk_cycles: int | None = None,
                segment_entries: int | None = None, progress=None, jobs: int = 1) -> KernelFeed:
    """Compile the scenario's kernel and start executing it into a :class:`ProgramFeed` (its first chunk runs now).

    ``budget(params, n_regs, n_rows)``: the bytes the simulator may hold beyond its records
    (``engine.program_budget``); the execution's own (its buffers, state and chunk arrays,
    ``session.estimate_parts``) come off it, before anything runs, and a run that leaves too little
    is refused there. ``chunk_instructions``: the executor's chunk size
    (``session.CHUNK_INSTRUCTIONS`` by default); ``chunk_cycles`` the engine's cycles per chunk
    (sim_model.toml); ``segment_entries`` a given segment size (tests: the run is the same);
    ``progress`` and ``jobs``: the execution's (``session.execute_chunks``: threads that execute blocks
    ahead while the engine times the ones placed).
    """
    from explorer.occupancy.calc import occupancy_that_fits
    from explorer.sass.execute.run import compile_for, resolve
    from explorer.sass.execute.session import CHUNK_INSTRUCTIONS, MEMORY_BUDGET, check_memory, estimate_parts, \
        execute_chunks
    from explorer.sass.execute.timing import static_timing
    from explorer.sass.warp_program import UNIT_NAMES
    from explorer.model.sim_model import model_constants
    from explorer.sim.params import params_for

    kernel = kernel or compile_for(scenario)
    if kernel.decoded.n > MAX_ROWS:
        raise InputError("kernel", f"{kernel.name} has {kernel.decoded.n:,} instructions; the timing engine names "
                                   f"at most {MAX_ROWS:,} (`execute` runs it)")
    scenario = resolve(scenario, kernel)
    occ = occupancy_that_fits(scenario.gpu, scenario.launch)
    timing = static_timing(kernel, scenario.gpu)
    tensor = any(UNIT_MAP[UNIT_NAMES[u]] == units.TENSOR for u in set(timing.unit.tolist()))
    params = params_for(scenario, uses_tensor_cores=tensor)
    n_regs = max(1, len(timing.reg_names))
    # one budget for the whole run (issue 30, item 2): the simulator's records, the execution, the feed
    sim_budget = budget(params, n_regs, kernel.decoded.n)
    execution = estimate_parts(kernel, scenario.launch, scenario.kernel, record=True)
    parts = {**execution, "the simulator's records": MEMORY_BUDGET - sim_budget}
    check_memory(parts, MEMORY_BUDGET)
    feed_budget = sim_budget - sum(execution.values())
    chunks = execute_chunks(kernel, scenario.launch, scenario.kernel, seed=scenario.seed,
                            sm_count=scenario.gpu.sm_count, keep_inputs=keep_inputs,
                            chunk_instructions=chunk_instructions or CHUNK_INSTRUCTIONS, progress=progress,
                            jobs=jobs)
    feed = ProgramFeed(kernel, scenario, timing, chunks, sm_count=params.sm_count,
                       wavefront_bytes=model_constants()["shared"]["bytes_per_cycle"], budget_bytes=feed_budget,
                       warps_per_sm=params.warps_per_sm,
                       chunk_cycles=chunk_cycles or int(model_constants()["trace"]["chunk_cycles"]),
                       segment_entries=segment_entries)
    feed.check_in_flight(occ.active_blocks_per_sm)
    return KernelFeed(scenario=scenario, params=params, feed=feed, kernel=kernel, timing=timing, occupancy=occ,
                      keep_inputs=keep_inputs)


def listing_program(kernel, timing, result):
    """The kernel's static instructions as a WarpProgram without a loop: row k is pc 16 k, with its
    timing facts, executed or not (``segment`` "body" or "skipped"). It names the rows of a flat run's
    stall counts and next-instruction events; it is not what each warp ran (that was its own path)."""
    from explorer.sass.warp_program import OP_NAMES, SB_NAMES, UNIT_NAMES, ListingRow, WarpProgram

    names = timing.reg_names
    ran = result.executions if result is not None else np.zeros(len(kernel.instructions), np.int64)
    rows = []
    for k, ins in enumerate(kernel.instructions):
        sb = SB_NAMES[timing.scoreboard[k]]
        rows.append(ListingRow(
            pc=ins.pc, opcode=ins.opcode, mnemonic=ins.mnemonic, text=ins.text, unit=UNIT_NAMES[timing.unit[k]],
            op_class=OP_NAMES[timing.op[k]], latency=None if sb == "long" else int(timing.latency[k]),
            scoreboard=sb, dst=tuple(names[r] for r in timing.dst[k] if r >= 0),
            src=tuple(names[r] for r in timing.src[k] if r >= 0),
            segment="body" if ran[k] else "skipped", executed=bool(ran[k]),
            known=bool(timing.known[k]), control=ins.control.to_json() if ins.control else None,
            source="the opcode table (resources/sass/opcodes.toml)"))
    n = len(rows)
    return WarpProgram(
        source="sass", arch=kernel.arch, function=kernel.demangled, op=timing.op, unit=timing.unit,
        latency=timing.latency, scoreboard=timing.scoreboard, dst=timing.dst, src=timing.src,
        req_bytes=np.zeros(n, np.int32), useful_bytes=np.zeros(n, np.int32), instrumentation=np.zeros(n, bool),
        static_index=np.arange(n, dtype=np.int32), loop_start=0, loop_end=0, trip=1, reg_names=names,
        listing=tuple(rows),
        notes=("your own kernel: each warp ran its own executed path (explorer.sass.execute); these rows are "
               "its static instructions, which the stall counts and the next-instruction trace name",),
        meta={"executed": True})
