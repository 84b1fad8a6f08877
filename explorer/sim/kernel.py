"""The cycle loop: block dispatch, per-sub-partition warp scheduling, issue.

Written as plain loops over numpy arrays for numba (see ``jit.py``). Everything the
loop needs lives in arrays owned by ``engine``; the loop runs a range of cycles and
returns, so the caller can report progress, cancel, and hand it a fresh buffer.

Per cycle ``t``:
1. the dispatcher places pending blocks, in grid order, round-robin over SMs, at
   most one per SM, on SMs with fewer resident blocks than theoretical occupancy
   allows (all blocks of a launch are alike, so the count check *is* the
   register/shared-memory/slot check);
2. every sub-partition classifies its warps (stall reason or eligible) and issues
   one eligible warp's next instruction, chosen by the policy;
3. GPU-wide counts and, for recorded SMs, each slot's state are written for ``t``;
4. when nothing issued anywhere, time jumps to the next event (every state is
   constant until then) and the skipped cycles are filled in.

Each step is a named stage, inlined into ``run_cycles`` at numba's IR level: ``_apply_pending``,
``_dispatch`` (``_place_warp``), per due sub-partition ``_classify`` (``_classify_warp``),
``_two_level_active``, ``_pick_warp`` (one branch per policy: ``_pick_round_robin``, ``_pick_oldest``),
``_select``, the issue by path (``_hold_pipe``, then ``_issue_exit``, ``_issue_memory``, ``_issue_shared``,
``_issue_pipeline``, ``_issue_alu``) and ``_advance``; then ``_record`` and ``_skip_idle``. They read
the loop's state records (``Program``, ``Config``, ``Warps``, ``Places``, ``Blocks``, ``Memory``,
``Outputs``: named tuples of arrays that the engine builds, ``engine._loop_records``) and the call's
fixed figures (``Fixed``). The issue's paths are called from the loop itself, not from one
``_issue`` stage: numba re-inlines (and copies) a callee's whole subtree at each level it is nested
in, and with the memory path one level deeper the loop measured ~13% slower (docs/performance.md).
The stages still cost compile time: ~1.4x the single function's (numba's inlining pass; 43 s of CPU
against 31 s on an idle core).

Throughput units (``explorer.model.units``) count their busy time where the work
happens, into per-window sums ``ub[window, unit]`` (window = cycle >> win_shift):
a pipe when an instruction issues into it, L1/shared when the SM's data path moves
the wavefronts, L2 and DRAM when their queues move the bytes (possibly cycles after
the request; past ``ub``'s end they go to an overflow list the engine folds in). A
pipe is a budget in
fractional cycles: an instruction may issue while the pipe frees within the
cycle, and the pipe's free time advances by the (possibly fractional) interval, so
a 4.33-cycle pipe issues 3 of every 13 cycles, not every 4 or 5.

The program (``loop_program.LoopProgram``, lowered from a ``WarpProgram``): a warp
starts at row 0 (a flat program's warp at its own entry row), runs the loop body
``[loop_start, loop_end)`` ``trip`` times (``_next_pc``), and ends at the EXIT row; a warp
that exits while the rest of its block waits at a barrier releases it when it was the last. Issue takes the row's *path*: ALU (every
destination ready after the row's latency: ``_set_results``), global/local memory
(``_access_by_address`` where its lines are known: a generated kernel's, computed, and a user kernel's executed
global loads and stores, from the feed; else ``_global_access``, by the scenario's hit rates), shared memory, barrier, EXIT (which waits for the warp's drain: its loads'
registers written, its stores out of L1TEX, its MMAs done, its last row on a pipe slower than one
cycle out of that pipe). Per row and state the loop counts warp-cycles (``_account``: at every
change of a slot's state or next row), and for recorded SMs logs when each slot's next row changes (``_pc_event``).

Memory: L1TEX per SM (a queue of 128-byte wavefronts), L2 (one GPU-wide queue at
its bandwidth), device memory as row bursts (``_dram_burst``: a request's bytes open a row in
one bank of one channel, picked by a seeded draw; the bank is busy a row cycle plus the burst,
the channel's bus the burst; sim_model.toml [dram]).

Hopper's pipeline (the model's tma / wgmma paths, kept in their own functions:
``_own_next``, ``_async_ready``, ``_issue_async``, ``_wake_block``): a warp-specialized
block's warps skip the rows of the other role; the producer's copies fill a stage's
mbarrier, consumers parked on it (P_MBAR) wake when the K-step's last copy issues, and
the producer, parked for a free stage, wakes when the last consumer releases it; a
wgmma queues on its warp's Tensor pipe and completes its group, which wait_group awaits.

Why it is fast: an instruction's result time is fixed when it issues (fixed
latencies; memory through queues), so each warp's next possible change is known,
and so is its next instruction's scoreboard (resolved at issue). A sub-partition
none of whose warps can change this cycle is skipped outright (``sp_next``; the
due ones are found without a branch each), and inside a busy one a warp whose
state cannot change yet (``w_next``: waiting on memory, a dependency, a pipe, its
launch) costs one comparison; eligible warps get their final state once, after
the pick; a warp that issues and then waits changes to its wait state at the next
cycle without a visit (``pend_slot``); per-state counts are kept incrementally.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from enum import IntEnum

import numpy as np

from explorer.jit.runtime import ctz, njit, prefetch
from explorer.sim import loop_program as _lp
from explorer.sass import model_program as _program
from explorer.sass.warp_program import ATOMIC, L1_ALLOCATE
from explorer.sim.loop_program import EXIT, GLOAD, GSTORE, SHARED, SYNC
from explorer.toolchain import addresses as _ad
from explorer.model.units import DRAM, FIRST_PIPE, ISSUE, L1, L2, LAST_PIPE, LSU, TENSOR
from explorer.model.units import SHARED as SHARED_UNIT
from explorer.sim.states import NAMES as STATE_NAMES
from explorer.sim.states import (
    BARRIER,
    DRAIN,
    EMPTY,
    LG_THROTTLE,
    LONG_SB,
    MATH_THROTTLE,
    MBARRIER,
    MIO_THROTTLE,
    NOT_SELECTED,
    SELECTED,
    WAIT,
    WGMMA_WAIT,
)

# numba's disk cache keys on this file's text and freezes imported globals into the compiled loop:
# the paths and roles the asynchronous branches test are written here, checked against their owners
TMA, MBWAIT, WGMMA, WGWAIT = 6, 7, 8, 9
FIRST_ASYNC = TMA
ROLE_ALL, ROLE_PRODUCER, ROLE_CONSUMER, ROLE_IDLE = 0, 1, 2, 3
assert (TMA, MBWAIT, WGMMA, WGWAIT, FIRST_ASYNC) == (_lp.TMA, _lp.MBWAIT, _lp.WGMMA, _lp.WGWAIT, _lp.FIRST_ASYNC)
assert (ROLE_ALL, ROLE_PRODUCER, ROLE_CONSUMER, ROLE_IDLE) == (_program.ROLE_ALL, _program.ROLE_PRODUCER,
                                                               _program.ROLE_CONSUMER, _program.ROLE_IDLE)
assert (MBARRIER, WGMMA_WAIT) == (11, 12)  # explorer.sim.states, frozen likewise

# the generated kernels' address plan (explorer.toolchain.addresses), frozen into the loop as the paths are
A_SLAB, A_STRIDE, A_BYTES, A_LOAD = 0, 1, 2, 3
P_ITER_BYTES, P_WRAP, P_N_ACCESS, P_HITS, P_T_L1, P_T_L2, P_L2_REGION, P_SEED, P_HOT_BASE = range(9)
L1_SLOT_BYTES, L1_SLOTS, LCG_A, LCG_C, WARP_HASH = 512, 1024, 1664525, 1013904223, 2654435761
assert (A_SLAB, A_STRIDE, A_BYTES, A_LOAD) == (_ad.A_SLAB, _ad.A_STRIDE, _ad.A_BYTES, _ad.A_LOAD)
assert (P_ITER_BYTES, P_WRAP, P_N_ACCESS, P_HITS, P_T_L1, P_T_L2, P_L2_REGION, P_SEED, P_HOT_BASE) == (
    _ad.P_ITER_BYTES, _ad.P_WRAP, _ad.P_N_ACCESS, _ad.P_HITS, _ad.P_T_L1, _ad.P_T_L2, _ad.P_L2_REGION, _ad.P_SEED,
    _ad.P_HOT_BASE)
assert (L1_SLOT_BYTES, L1_SLOTS, LCG_A, LCG_C, WARP_HASH) == (_ad.L1_SLOT_BYTES, _ad.L1_SLOTS, _ad.LCG_A, _ad.LCG_C,
                                                             _ad.WARP_HASH)
# a TMA copy's tile (explorer.toolchain.addresses.tma_layout): row 0 of the table the tile grid, then per operand
T_TILES_M, T_TILES_N, T_GROUP = 0, 1, 2
T_BASE, T_PITCH, T_BOX_ROWS, T_COPY_ROWS, T_ROW_BYTES, T_ROW_AT, T_COL_AT, T_MULTICAST, T_SHARE_AT = range(9)
AXIS_M, AXIS_N, AXIS_K = 0, 1, 2
TMA_PREFETCH = 16  # a copy's first lines whose L2 sets are asked for before its lookups start (_prefetch_set)
assert (T_TILES_M, T_TILES_N, T_GROUP) == (_ad.T_TILES_M, _ad.T_TILES_N, _ad.T_GROUP)
assert (T_BASE, T_PITCH, T_BOX_ROWS, T_COPY_ROWS, T_ROW_BYTES, T_ROW_AT, T_COL_AT, T_MULTICAST, T_SHARE_AT) == (
    _ad.T_BASE, _ad.T_PITCH, _ad.T_BOX_ROWS, _ad.T_COPY_ROWS, _ad.T_ROW_BYTES, _ad.T_ROW_AT, _ad.T_COL_AT,
    _ad.T_MULTICAST, _ad.T_SHARE_AT)
assert (AXIS_M, AXIS_N, AXIS_K) == tuple(_ad.AXIS_CODE[a] for a in "mnk")
# cache entries (l1c, l2c: rows of the entries' fields, so a set's tags are contiguous in the host's cache): the
# line's address + 1 (0: empty), its sectors' bits (4 valid, then 4 dirty), when it was last used (LRU): in L1 the
# cycle; in L2 the cycle << L2_AGE_SHIFT, plus for a TMA copy's line its place among the lines copies looked up in
# that cycle (a copy's lines reach L2 one after another: up to thousands in one cycle, they must not tie)
C_TAG, C_BITS, C_AGE = 0, 1, 2
# L2: C_BITS bits 8-11 are the sectors of the line's last fill from device memory, which lands at ``l2f[entry]``
# (the cycle its requester has the data): until then a request for those sectors finds them allocated (a hit, as
# Nsight counts it) but waits for the same fill (_l2_lookup)
FILL_SHIFT = 8
LBUF_ROWS = 4  # Memory.lbuf: a request's lines, their sectors, their L2 and L1 fills (_access_by_address)
L2_AGE_SHIFT = 24  # the cycles (below 2**26: sim_model.toml [trace] max_cycles) << 24 stay far below 2**63

# warp phases (P_MBAR: waiting on a stage's mbarrier for another warp's tma or release)
P_FREE, P_PENDING, P_RUN, P_BARRIER, P_DRAIN, P_MBAR = 0, 1, 2, 3, 4, 5
# policies (index into scenario.POLICIES)
LRR, GTO, OLDEST, TWO_LEVEL = 0, 1, 2, 3
READY = 255  # w_wkind: the next instruction's registers are all available
RESOLVED = 128  # w_wkind bit: its scoreboard is known (ready at w_wake; until then the stall kind below the bit)
NEVER = np.int64(2**62)
ALL_LANES = np.uint32(0xFFFFFFFF)  # a warp-instruction every lane issues (p_active empty)
MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)
INDEX = np.int64(2**63 - 1)  # see _ix
BIT = np.array([1 << k for k in range(63)] + [-(1 << 63)], np.int64)  # BIT[k] = 1 << k (_due_later)

# The loop's packed inputs and scalar state. Each tuple is the one list of the slots:
# the engine packs by it, the loop reads ``cfg_i[CFG_I.SM_COUNT]``, ``g[G.T]`` by the
# names made from it (IntEnum members are compile-time constants to numba).
CFG_INT_FIELDS = (  # SimParams fields, as int64
    "sm_count", "warps_per_sm", "sub_partitions", "active_blocks_per_sm", "warps_per_block",
    "total_blocks", "lat_shared", "lat_l1", "lat_l2", "lat_dram", "l1_bytes_per_cycle", "l1_queue_cycles",
    "shared_bytes_per_cycle", "shared_queue_cycles", "block_launch_latency", "barrier_latency",
    "policy", "active_warps", "block_capacity", "warp_capacity_per_sp", "warp_launch_cycles", "dram_channels",
    "dram_banks_per_channel", "dram_burst_bytes", "dram_writeback_burst_bytes", "l1_sets", "l1_ways", "l2_sets", "l2_ways",
    "l1_allocates_loads",
    "stages", "producer_warps", "posted_stores", "l2_bytes",
)
CFG_FLOAT_FIELDS = (  # SimParams fields, as float64
    "dram_bytes_per_cycle", "l2_bytes_per_cycle", "dram_row_cycles", "dram_read_bytes_per_cycle",
    "dram_write_bytes_per_cycle", "l1_hit_rate", "l2_hit_rate",
)
# memory statistics: bytes per level; loads' observed latency (sum, count) per level
MEM_SLOTS = ("l1_bytes", "l2_bytes", "dram_bytes", "shared_bytes", "l1_lat", "l2_lat", "dram_lat",
             "l1_loads", "l2_loads", "dram_loads",
             # sectors by the caches' tags (requests with addresses): L1 lookups that hit / missed (loads; a
             # store is a miss: write-through, no allocation), L2 sectors that hit / missed (a store's sectors
             # hit: write-back with write allocation, no fetch), device memory bytes read and written (loads'
             # missing sectors; evicted dirty sectors)
             "l1_hit_sectors", "l1_miss_sectors", "l2_hit_sectors", "l2_miss_sectors", "dram_read_bytes",
             "dram_write_bytes")
# GPU-wide memory queues: the cycle each becomes free (float: bytes move at fractional rates);
# the DRAM bank queues are an array of their own (dram_q)
Q_SLOTS = ("l2_free",)
N_COUNTS = 4  # series columns 0-3: launched, resident, eligible, issued; then one per warp state
N_STATES = len(STATE_NAMES)  # the row length of the loop's flat stall counts
G_SLOTS = (
    "t",  # the next cycle to simulate
    "next_block",  # the next block of the grid to place
    "rr_sm",  # where the dispatcher's round-robin over SMs resumes
    "exited",  # warps that have left
    "done",  # 1 once every warp has left and its posted stores completed (or on deadlock)
    "events",  # residency events written
    "deadlock",  # 1: no warp can ever issue again (a model bug)
    "dispatch",  # 1: the dispatcher may place a block (a warp left, or its last pass placed one); 0: nothing fits
    "overflow",  # entries in the unit-busy overflow list (see _add)
    "pending",  # state changes queued for the next cycle (pend_slot, pend_gi, pend_state)
    "pc_events",  # entries in the next-instruction event list (pe_t, pe_cell, pe_row) of recorded SMs
    "st_events",  # entries in the state-change event list (st_t, st_cell, st_state) of recorded SMs
    "loaded_blocks",  # blocks whose program entries are loaded (a streamed flat program; else every block)
    "stores_done",  # the latest cycle L2 has acknowledged a posted store (the kernel ends no earlier)
    "dram_bus_end",  # the latest cycle a store's line the model sends to device memory left its bank
    "wb_pending",  # bytes of evicted dirty sectors gathered for the next write-back burst (kernel._l2_evict)
    "copy_t",  # the cycle the last TMA copy of a tile looked its lines up in L2 (_issue_async)
    "copy_lines",  # lines TMA copies looked up in L2 in that cycle (their L2 ages order them, L2_AGE_SHIFT)
)


def warp_of_slot(sm_count: int, W: int, SP: int) -> np.ndarray:
    """int64[sm_count * W]: for each entry of the slot-ordered arrays (``w_state``, ``w_since``), the
    index of its warp in the warp-ordered ones (``w_pc``, ``w_block``, ...): the loop's two layouts."""
    slot = np.arange(sm_count * W)
    local = slot % W
    return slot - local + (local % SP) * (W // SP) + local // SP


def _slots(name: str, fields: tuple[str, ...]) -> IntEnum:
    return IntEnum(name, [(f.upper(), i) for i, f in enumerate(fields)])


# Hopper's asynchronous pipeline (tma / wgmma): per warp slot w_async[slot, A_*] = the open wgmma
# group's completion, the groups committed, then a ring of the last RING committed groups'
# completions; per block and stage b_mbar[block, stage, M_*] = the mbarriers: the K-step whose
# copies are all issued (full), when they land, the K-step being filled, the last K-step every
# consumer released (free), and the consumers released so far for the next one
A_OPEN, A_COUNT, A_RING = 0, 1, 2
RING = 8
M_FULL_ITER, M_FULL_T, M_FILL_ITER, M_FREE_ITER, M_FREE_CNT = range(5)
M_SLOTS = 5

CFG_I = _slots("CFG_I", CFG_INT_FIELDS)
CFG_F = _slots("CFG_F", CFG_FLOAT_FIELDS)
G = _slots("G", G_SLOTS)
MEM = _slots("MEM", MEM_SLOTS)
Q = _slots("Q", Q_SLOTS)


@njit
def _splitmix(state):
    """One splitmix64 step: (next state, uniform float in [0, 1)). Scalars only, so it
    inlines into the loop without touching reference counts."""
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & MASK64
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & MASK64
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & MASK64
    z = z ^ (z >> np.uint64(31))
    return state, (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline=True)
def _release_barrier(b, gi, sm, W, SP, t, bar_lat, w_block, w_phase, w_wake, w_wkind, w_next, sp_next, b_arrived):
    """Every warp of block ``b`` waiting at its barrier (and ``gi``, the last to arrive, if any) goes on."""
    per_sp = W // SP
    b_arrived[b] = 0
    for s3 in range(W):
        g2 = sm * W + s3
        if w_block[g2] == b and (w_phase[g2] == P_BARRIER or g2 == gi):
            w_phase[g2] = P_RUN
            w_wake[g2] = t + bar_lat
            w_wkind[g2] = BARRIER
            w_next[g2] = t  # reclassify now if its sub-partition comes later
            # this cycle (it may still show the cycle it arrived), else next cycle
            sp2 = sm * SP + s3 // per_sp
            if t + 1 < sp_next[sp2]:
                sp_next[sp2] = t + 1


@njit
def _exit_warp(gi, sm, W, SP, when, bar_lat, w_phase, w_block, w_wake, w_wkind, w_next, sp_next, b_alive, b_arrived,
               b_end, sm_blocks, sp_warps, g, ev_t, ev_sm, ev_d):
    """The warp leaves at cycle ``when``: its warp slot and its registers are free at once (a new block may
    start on them before the rest of this block has left: the H200's records show up to 13 blocks' spans on
    an SM whose resources hold 8, sim_model.toml [dispatch]); the last warp of a block frees the block's
    place (its block slot and shared memory). Returns 1 when its leaving completes a barrier the block's
    other warps wait at (a user kernel's warps may exit before the others reach a barrier: they no longer
    count), else 0.

    A real call (not inlined): it runs once per warp, and inlining it would put
    array reference counting into the hot loop."""
    w_phase[gi] = P_FREE
    b = w_block[gi]
    ne = g[G.EVENTS]
    ev_t[ne] = when
    ev_sm[ne] = sm
    ev_d[ne] = -1
    g[G.EVENTS] = ne + 1
    g[G.EXITED] += 1
    w_block[gi] = -1
    sp_warps[sm * SP + (gi - sm * W) // (W // SP)] -= 1
    g[G.DISPATCH] = 1  # the dispatcher may place a block again
    b_alive[b] -= 1
    if b_alive[b] == 0:
        b_end[b] = when
        sm_blocks[sm] -= 1
    elif b_arrived[b] > 0 and b_arrived[b] >= b_alive[b]:
        _release_barrier(b, -1, sm, W, SP, when, bar_lat, w_block, w_phase, w_wake, w_wkind, w_next, sp_next,
                         b_arrived)
        return 1
    return 0


@njit(inline=True)
def _scoreboard(reg_ready, reg_kind, gi, p_dst, p_src, pc, t):
    """(the cycle warp gi's instruction pc can issue, at the earliest t; the kind of wait until then):
    every register it reads, and every one it writes (in-order issue: RAW and WAW)."""
    wake = t
    kind = WAIT
    # each row's registers come first, then -1s (loop_program.lower); the latest ready time and the
    # first register to reach it win, by selects rather than branches (which register is later is
    # data-dependent, so a branch would mispredict)
    for q in range(p_dst.shape[1]):
        r = p_dst[pc, q]
        if r < 0:
            break
        ready = reg_ready[gi, r]
        later = ready > wake
        kind = reg_kind[gi, r] if later else kind
        wake = ready if later else wake
    for q in range(p_src.shape[1]):
        r = p_src[pc, q]
        if r < 0:
            break
        ready = reg_ready[gi, r]
        later = ready > wake
        kind = reg_kind[gi, r] if later else kind
        wake = ready if later else wake
    return wake, kind


@njit(inline=True)
def _ix(i):
    """``i`` (an index, never negative) as one LLVM can see is not negative.

    numba wraps a signed index (``a[i]`` reads ``a[len(a) + i]`` for i < 0): a compare, a select and
    the array's length kept at hand for every access. Where the index is known not to be negative
    LLVM drops all three; clearing the sign bit tells it so and costs nothing (an address
    computation drops that bit anyway). Applied where the hot loop derives its indices (slot, warp,
    sub-partition, row, window), it took 14% of the loop's executed instructions (issue 27: 1,114 ->
    955 per warp-instruction on the saturated example, callgrind; same results). Only for indices
    that are valid by construction: a negative one would become a huge one, not a wrapped one."""
    return i & INDEX


@njit(inline=True)
def _due_mask(when, t):
    """Bit k set where when[k] <= t (at most 64 entries): branch-free and vectorized by LLVM (SSE4.2's
    64-bit compare, an and with BIT, an or: a few instructions per pair of entries)."""
    mask = np.int64(0)
    for k in range(when.shape[0]):
        mask |= BIT[k] & -np.int64(when[k] <= t)
    return mask


@njit(inline=True)
def _due(when, t, out):
    """Write into ``out`` the indices k with when[k] <= t, in order; return how many.

    Which sub-partitions are due is data-dependent, so a branch per element would mispredict:
    64 at a time into a bit mask (:func:`_due_mask`), then one step per due one (``ctz``)."""
    m = 0
    n = when.shape[0]
    for w0 in range(0, n, 64):
        mask = _due_mask(when[w0:w0 + 64 if w0 + 64 < n else n], t)
        while mask != 0:
            out[m] = w0 + ctz(mask)
            m += 1
            mask &= mask - 1
    return m


@njit(inline=True)
def _due_later(when, t):
    """The warps with when[k] <= t as a bit mask (bit k), and the earliest when[k] after t (NEVER if
    none): one branch-free pass over a sub-partition's warps that LLVM vectorizes (SSE4.2's 64-bit
    compare and blend: ~7 instructions per warp against 11 for a scalar pass that also wrote the due
    indices out); the caller walks the mask's bits (``ctz``), lowest first, in the same order."""
    mask = np.int64(0)
    nxt = NEVER
    for k in range(when.shape[0]):
        w = when[k]
        due = w <= t
        mask |= BIT[k] & -np.int64(due)
        w = NEVER if due else w
        nxt = w if w < nxt else nxt
    return mask, nxt


@njit(inline=True)
def _add(ub, ovf, g, w, col, amount):
    """ub[w, col] += amount; a window past ub's end (a queue moving bytes far ahead) goes to the
    overflow list ``ovf`` [(window, unit, amount)], merged by the engine after the chunk (the
    loop never reallocates: an array it could replace would slow every access to it)."""
    if w < ub.shape[0]:
        ub[w, col] += amount
        return
    n = g[G.OVERFLOW]
    if n >= ovf.shape[0]:  # full (not seen in practice): merge into the last entry, time approximate
        n = ovf.shape[0] - 1
        amount += ovf[n, 2]
        w = np.int64(ovf[n, 0])
        col = np.int64(ovf[n, 1])
    else:
        g[G.OVERFLOW] = n + 1
    ovf[n, 0] = w
    ovf[n, 1] = col
    ovf[n, 2] = amount


@njit(inline=True)
def _spread(ub, ovf, g, col, start, length, amount, win_shift):
    """Add ``amount`` spread evenly over cycles [start, start + length) (a DRAM line's transfer
    may span windows)."""
    end = start + length
    w = np.int64(start) >> win_shift
    while True:
        edge = float((w + 1) << win_shift)
        if edge >= end:
            _add(ub, ovf, g, w, col, amount * (end - start) / length)
            return
        _add(ub, ovf, g, w, col, amount * (edge - start) / length)
        start = edge
        w += 1


@njit(inline=True)
def _account(stall, w_since, old, w_pc, p_row, s2, gi, t):
    """Before slot s2's state ``old`` or its warp's next instruction changes at cycle t: the cycles
    since the last change go to stall[row * N_STATES + old], row = p_row[pc] (``SimResult.
    stall_by_instruction``; branch-free: an empty slot's cycles go to the EMPTY column, which the
    engine discards)."""
    stall[_ix(np.int64(p_row[_ix(w_pc[gi])]) * N_STATES + old)] += t - w_since[s2]
    w_since[s2] = t


@njit(inline=True)
def _pc_event(pe_t, pe_cell, pe_row, pe_mask, g, ri, W, s2, t, row, mask):
    """A recorded slot's next instruction becomes ``row`` from cycle t (``SimResult.pc_trace``), issued
    by the lanes ``mask`` (``SimResult.mask_trace``)."""
    if ri >= 0:
        n = _ix(g[G.PC_EVENTS])
        pe_t[n] = t
        pe_cell[n] = ri * W + s2
        pe_row[n] = row
        pe_mask[n] = mask
        g[G.PC_EVENTS] = n + 1


@njit(inline=True)
def _next_pc(pc, gi, w_iter, loop_start, loop_end, trip):
    """The row after ``pc``: back to the loop's start until the body has run ``trip`` times."""
    pc += 1
    if pc == loop_end and loop_end > loop_start:
        w_iter[gi] += 1
        if w_iter[gi] < trip:
            pc = loop_start
    return pc


@njit(inline=True)
def _set_results(reg_ready, reg_kind, gi, p_dst, pc, ready, kind):
    """Every destination register of instruction pc is ready at ``ready``; until then a dependent
    waits in state ``kind``."""
    for q in range(p_dst.shape[1]):
        r = p_dst[pc, q]
        if r < 0:
            break
        reg_ready[gi, r] = ready
        reg_kind[gi, r] = kind


@njit(inline=True)
def _dram_burst(ub, ovf, g, dram_q, rng_state, b2, moved, write, cfg_i, cfg_f, long_windows, win_shift):
    """One burst of ``moved`` bytes through device memory from cycle b2 on: (rng state, cycles from b2 until
    its last byte has crossed its channel's bus).

    The burst opens a row in one bank of one channel (a seeded draw: address interleaving spreads requests
    over channels and banks). The bank is busy a row cycle (activate + precharge) plus the burst; the
    channel's data bus carries the burst once the row is open, half a row cycle after the bank started, at
    the channel's share of the sustained read or write bandwidth. ``dram_q`` holds the channels' bus-free
    cycles, then every bank's (channel-major). sim_model.toml [dram] says why this mechanism: a request of
    one line costs a bank a whole row cycle, so small requests saturate the banks long before the bus."""
    channels = cfg_i[CFG_I.DRAM_CHANNELS]
    per_channel = cfg_i[CFG_I.DRAM_BANKS_PER_CHANNEL]
    row = cfg_f[CFG_F.DRAM_ROW_CYCLES]
    rate = cfg_f[CFG_F.DRAM_WRITE_BYTES_PER_CYCLE] if write else cfg_f[CFG_F.DRAM_READ_BYTES_PER_CYCLE]
    rng_state, pick = _splitmix(rng_state)
    q = np.int64(pick * (channels * per_channel))
    c = q // per_channel
    bq = dram_q[channels + q] if dram_q[channels + q] > b2 else b2
    burst = moved * channels / rate
    dram_q[channels + q] = bq + row + burst
    on = bq + 0.5 * row
    if dram_q[c] > on:
        on = dram_q[c]
    dram_q[c] = on + burst
    # the bytes cross the bus during the burst (the DRAM unit counts them at the datasheet rate): at its
    # midpoint when windows are long, else spread over the windows it spans
    dram_bpc = cfg_f[CFG_F.DRAM_BYTES_PER_CYCLE]
    if long_windows:
        _add(ub, ovf, g, np.int64(on + 0.5 * burst) >> win_shift, DRAM, moved / dram_bpc)
    else:
        _spread(ub, ovf, g, DRAM, on, burst, moved / dram_bpc, win_shift)
    return rng_state, on + burst - b2


@njit(inline=True)
def _dram_fixed(cfg_i, cfg_f):
    """The part of a load's device-memory latency that no queue adds: lat_dram (a one-line request on an idle
    GPU) less the half row cycle and the line's bus time that ``_dram_burst`` counts itself."""
    line = 128.0 * cfg_i[CFG_I.DRAM_CHANNELS] / cfg_f[CFG_F.DRAM_READ_BYTES_PER_CYCLE]
    fixed = cfg_i[CFG_I.LAT_DRAM] - np.int64(np.ceil(0.5 * cfg_f[CFG_F.DRAM_ROW_CYCLES] + line))
    return fixed if fixed > 0 else np.int64(0)


@njit(inline=True)
def _long_windows(cfg_i, cfg_f, win_shift):
    """Whether the unit windows are long against the longest burst (then a burst's bytes count at its middle)."""
    longest = cfg_i[CFG_I.DRAM_BURST_BYTES] * cfg_i[CFG_I.DRAM_CHANNELS] / cfg_f[CFG_F.DRAM_WRITE_BYTES_PER_CYCLE]
    return (1 << win_shift) >= 4 * longest


# ------------------------------------------------------------------ the asynchronous ops (tma, wgmma)
@njit(inline=True)
def _warp_role(k, producers):
    """ROLE_* of warp k of its block (warp specialization; every warp runs everything without it)."""
    if producers == 0:
        return ROLE_ALL
    if k == 0:
        return ROLE_PRODUCER
    if k < producers:
        return ROLE_IDLE
    return ROLE_CONSUMER


@njit(inline=True)
def _own_next(p_role, pc, gi, w_iter, loop_start, loop_end, trip, role):
    """The row at or after ``pc`` that the warp's role runs, advancing as the warp would
    (``_next_pc``); a loop body without a row of its role is skipped whole (EXIT is every
    warp's)."""
    body_has = False
    for k in range(loop_start, loop_end):
        if p_role[k] == ROLE_ALL or p_role[k] == role:
            body_has = True
            break
    for _ in range(2 * p_role.shape[0] + 1):
        r = p_role[pc]
        if r == ROLE_ALL or r == role:
            return pc
        if not body_has and pc >= loop_start and pc < loop_end:
            w_iter[gi] = trip
            pc = loop_end
        else:
            pc = _next_pc(pc, gi, w_iter, loop_start, loop_end, trip)
    return pc


@njit
def _async_ready(op, pc, gi, b, t, it, stages, p_arg, w_async, w_phase, b_mbar):
    """(state, until) for an asynchronous op whose registers are ready: SELECTED, or the wait before it.

    The producer's tma waits until every consumer released the stage's previous K-step;
    a consumer's mbarrier wait until the stage's copies for this K-step landed; a
    wait_group until the group ``arg`` back (the open one counted) completed. A wait for
    another warp's instruction (not yet issued) parks the warp in P_MBAR: that warp wakes it."""
    s = it % stages
    if op == TMA:
        if it >= stages and b_mbar[b, s, M_FREE_ITER] < it - stages:
            w_phase[gi] = P_MBAR
            return MBARRIER, NEVER
        return SELECTED, t
    if op == MBWAIT:
        if b_mbar[b, s, M_FULL_ITER] < it:
            w_phase[gi] = P_MBAR
            return MBARRIER, NEVER
        if b_mbar[b, s, M_FULL_T] > t:
            return MBARRIER, b_mbar[b, s, M_FULL_T]
        return SELECTED, t
    if op == WGWAIT:
        n = p_arg[pc]
        wake = np.int64(0)
        if n == 0:
            wake = w_async[gi, A_OPEN]
        elif w_async[gi, A_COUNT] >= n:
            wake = w_async[gi, A_RING + (w_async[gi, A_COUNT] - n) % RING]
        if wake > t:
            return WGMMA_WAIT, wake
    return SELECTED, t


@njit
def _wake_block(b, sm, W, SP, per_sp, t, wake, only_slot, w_block, w_phase, w_wake, w_wkind, w_next, sp_next):
    """Warps of block b parked on an mbarrier (P_MBAR) run again, ready at ``wake`` (only warp slot
    ``only_slot`` when >= 0: the producer)."""
    for s2 in range(W):
        if only_slot >= 0 and s2 != only_slot:
            continue
        g2 = sm * W + (s2 % SP) * per_sp + s2 // SP
        if w_block[g2] == b and w_phase[g2] == P_MBAR:
            w_phase[g2] = P_RUN
            w_wake[g2] = wake
            w_wkind[g2] = MBARRIER
            w_next[g2] = t  # reclassify now if its sub-partition comes later this cycle, else next cycle
            sp2 = sm * SP + s2 % SP
            if t + 1 < sp_next[sp2]:
                sp_next[sp2] = t + 1


@njit(nrt=False)
def _issue_async(op, pc, gi, b, sm, spi, t, prog, cfg, w, places, blocks, mem_r, out, rng_state):
    """Issue a tma, wgmma or wait_group (the mbarrier wait has waited already) of warp gi at row pc; returns the
    rng state. It takes the loop's state records (``run_cycles``) as the inlined stages do, but is a real call
    (rare, and large: inlined, it would lengthen the loop's compile). ``op`` and the program's paths are
    loop_program's; the pipeline's rows are in the loop body.

    tma: the copy crosses L2 (one GPU-wide queue) with no L1 and no registers; its sectors that
    miss L2 come from device memory (bank queues) as a load's do. A copy of a tile (``arg`` > 0:
    ``tiles``, explorer.toolchain.addresses.tma_layout) looks its lines up in L2's tags
    (``_tma_copy_lines``, ``_l2_lookup``: what an earlier copy of the same tile left there hits);
    a copy without one draws the scenario's L2 hit rate per 128-byte line. The stage's
    mbarrier completes when the K-step's last copy lands, waking the consumers parked on it.
    wgmma: queued on the warp's Tensor pipe (asynchronous: the warp goes on), holding it
    ``arg`` MMA intervals; its descriptor reads count on the SM's shared-memory banks.
    wait_group: commits the open group; the last one of a body releases the newest K-step
    whose groups are all done, and the last consumer's release wakes the producer.

    No reference counting (``nrt=False``, as the loop itself): a copy looks up hundreds of lines, each through
    helpers that bind a dozen arrays, and counting their references cost ~80 ns a line (8x the lookup itself)."""
    cfg_i, cfg_f, pipe_iv, tiles, win_shift = cfg.cfg_i, cfg.cfg_f, cfg.pipe_iv, cfg.tiles, cfg.win_shift
    p_op, loop_start, loop_end, p_req, p_arg, p_lat, p_row = (prog.path, prog.loop_start, prog.loop_end, prog.req,
                                                             prog.arg, prog.lat, prog.row)
    w_block, w_phase, w_wake, w_wkind, w_next, w_drain, w_async = (w.block, w.phase, w.wake, w.wkind, w.next,
                                                                   w.drain, w.asyn)
    b_mbar, b_slot = blocks.mbar, blocks.slot
    sp_next, sp_pipe, sm_smem = places.sp_next, places.sp_pipe, places.sm_smem
    mq, dram_q, mem, ub, ovf, l2c, lbuf = mem_r.mq, mem_r.dram_q, mem_r.mem, mem_r.ub, mem_r.ovf, mem_r.l2c, mem_r.lbuf
    l2f = mem_r.l2f
    g, row_sect = out.g, out.row_sect
    it = w.iter[gi]
    l2_inv = 1.0 / max(cfg_i[CFG_I.L2_SETS], 1)  # _set_of's (Fixed.l2_inv, the same figure)
    W = cfg_i[CFG_I.WARPS_PER_SM]
    SP = cfg_i[CFG_I.SUB_PARTITIONS]
    per_sp = W // SP
    stages = cfg_i[CFG_I.STAGES]
    if op == TMA:
        nbytes = p_req[pc]
        l2_bpc = cfg_f[CFG_F.L2_BYTES_PER_CYCLE]
        burst_max = cfg_i[CFG_I.DRAM_BURST_BYTES]
        long_windows = _long_windows(cfg_i, cfg_f, win_shift)
        tile = p_arg[pc]
        n_lines = 0
        if tile > 0:  # the tile's lines and sectors: L2 moves those sectors
            n_lines = _tma_copy_lines(tiles, tile, b, it, lbuf[0], lbuf[1])
            nbytes = 0
            for k in range(n_lines):
                nbytes += 32 * _popcount4(lbuf[1, k])
        b2 = mq[Q.L2_FREE] if mq[Q.L2_FREE] > t else float(t)
        mq[Q.L2_FREE] = b2 + nbytes / l2_bpc
        _add(ub, ovf, g, np.int64(b2) >> win_shift, L2, nbytes / l2_bpc)
        done_at = t + np.int64(np.ceil(b2 + nbytes / l2_bpc - t)) + cfg_i[CFG_I.LAT_L2]
        waited = -1.0
        left = 0 if tile > 0 else nbytes
        missed = 0
        in_flight = np.int64(0)  # the latest fill still on its way that a hit sector waits for (_l2_lookup)
        if tile > 0:  # by the tile's addresses: each line's sectors looked up in L2
            l2_sets = cfg_i[CFG_I.L2_SETS]
            l2_ways = cfg_i[CFG_I.L2_WAYS]
            h0 = mem[MEM.L2_HIT_SECTORS]
            m0 = mem[MEM.L2_MISS_SECTORS]
            if g[G.COPY_T] != t:  # the first copy of the cycle
                g[G.COPY_T] = t
                g[G.COPY_LINES] = 0
            age = (np.int64(t) << L2_AGE_SHIFT) + g[G.COPY_LINES]  # after the cycle's loads and earlier copies
            g[G.COPY_LINES] += n_lines
            for k in range(n_lines if n_lines < TMA_PREFETCH else TMA_PREFETCH):  # the first lines' sets
                _prefetch_set(l2c, _set_of(lbuf[0, k], l2_sets, l2_inv) * l2_ways, l2_ways)
            for k in range(n_lines):
                miss, rng_state, e, pending = _l2_lookup(l2c, l2f, lbuf[0, k], lbuf[1, k], True, False, t, age + k + 1,
                                                         l2_sets, l2_ways, l2_inv, ub, ovf, g, dram_q, rng_state, mem,
                                                         cfg_i, cfg_f, long_windows, win_shift)
                lbuf[2, k] = (e << 4) | miss if miss != 0 else -1  # a fill on its way (_fills)
                if pending > in_flight:
                    in_flight = pending
                missed += 32 * _popcount4(miss)
            mem[MEM.L2_BYTES] += nbytes - missed
            mem[MEM.DRAM_BYTES] += missed
            mem[MEM.DRAM_READ_BYTES] += missed
            r4 = np.int64(p_row[pc]) * 4  # this instruction's own sectors (the SASS view's)
            row_sect[r4 + 2] += np.int64(mem[MEM.L2_HIT_SECTORS] - h0)
            row_sect[r4 + 3] += np.int64(mem[MEM.L2_MISS_SECTORS] - m0)
            while missed > 0:  # the copy's missing sectors, as bursts
                moved = burst_max if missed > burst_max else missed
                missed -= moved
                rng_state, w = _dram_burst(ub, ovf, g, dram_q, rng_state, b2, moved, False, cfg_i, cfg_f,
                                           long_windows, win_shift)
                waited = w if w > waited else waited
        while left > 0:  # line by line: an L2 hit, or a line device memory sends (bursts of the missed lines)
            moved = 128 if left > 128 else left
            left -= moved
            rng_state, draw = _splitmix(rng_state)
            if draw < cfg_f[CFG_F.L2_HIT_RATE]:
                mem[MEM.L2_BYTES] += moved
            else:
                missed += moved
                mem[MEM.DRAM_BYTES] += moved
            if missed > 0 and (missed >= burst_max or left == 0):
                rng_state, w = _dram_burst(ub, ovf, g, dram_q, rng_state, b2, missed, False, cfg_i, cfg_f,
                                           long_windows, win_shift)
                waited = w if w > waited else waited
                missed = 0
        if waited >= 0.0:
            dram_done = t + np.int64(np.ceil(b2 - t + waited)) + _dram_fixed(cfg_i, cfg_f)
            done_at = dram_done if dram_done > done_at else done_at
            _fills(l2c, l2f, lbuf[2], n_lines, t, dram_done)  # a tile's missed lines, on their way until then
        done_at = in_flight if in_flight > done_at else done_at
        s = it % stages
        if b_mbar[b, s, M_FILL_ITER] != it:
            b_mbar[b, s, M_FILL_ITER] = it
            b_mbar[b, s, M_FULL_T] = done_at
        elif done_at > b_mbar[b, s, M_FULL_T]:
            b_mbar[b, s, M_FULL_T] = done_at
        last = pc
        for k in range(pc + 1, loop_end):
            if p_op[k] == TMA:
                last = k
        if last == pc:  # the K-step's copies are all on their way: the stage completes when they land
            b_mbar[b, s, M_FULL_ITER] = it
            _wake_block(b, sm, W, SP, per_sp, t, b_mbar[b, s, M_FULL_T], -1, w_block, w_phase, w_wake, w_wkind,
                        w_next, sp_next)
    elif op == WGMMA:
        pi = TENSOR - FIRST_PIPE
        f0 = sp_pipe[spi, pi]
        if f0 < t:
            f0 = t
        busy = pipe_iv[pi] * p_arg[pc]
        sp_pipe[spi, pi] = f0 + busy
        _add(ub, ovf, g, np.int64(f0) >> win_shift, TENSOR, busy)
        # its operands are read from shared memory over the SM's shared-memory data path, in turn with
        # the SM's other shared accesses; the MMA cannot complete before they are read
        sh_bpc = cfg_i[CFG_I.SHARED_BYTES_PER_CYCLE]
        r0 = sm_smem[sm] if sm_smem[sm] > t else t
        sm_smem[sm] = r0 + (p_req[pc] + sh_bpc - 1) // sh_bpc
        _add(ub, ovf, g, r0 >> win_shift, SHARED_UNIT, p_req[pc] / sh_bpc)
        mem[MEM.SHARED_BYTES] += p_req[pc]
        done = np.int64(np.ceil(f0 + busy))
        done = (sm_smem[sm] if sm_smem[sm] > done else done) + p_lat[pc]
        if done > w_async[gi, A_OPEN]:
            w_async[gi, A_OPEN] = done
        if done > w_drain[gi]:
            w_drain[gi] = done  # an exiting warp waits for its MMAs (drain)
    elif op == WGWAIT:
        count = w_async[gi, A_COUNT]
        w_async[gi, A_RING + count % RING] = w_async[gi, A_OPEN]
        count += 1
        w_async[gi, A_COUNT] = count
        last = -1
        groups = 0  # wait_groups per K-step
        has_tma = False
        for k in range(loop_start, loop_end):
            if p_op[k] == WGWAIT:
                last = k
                groups += 1
            has_tma = has_tma or p_op[k] == TMA
        if has_tma and pc == last:
            j = (count - p_arg[pc]) // groups - 1  # the newest K-step whose groups are all done
            if j >= 0:
                s = j % stages
                n_cons = cfg_i[CFG_I.WARPS_PER_BLOCK] - cfg_i[CFG_I.PRODUCER_WARPS]
                arrived = b_mbar[b, s, M_FREE_CNT] + 1
                if arrived >= n_cons:
                    b_mbar[b, s, M_FREE_ITER] = j
                    b_mbar[b, s, M_FREE_CNT] = 0
                    _wake_block(b, sm, W, SP, per_sp, t, t + 1, b_slot[b, 0], w_block, w_phase, w_wake, w_wkind,
                                w_next, sp_next)
                else:
                    b_mbar[b, s, M_FREE_CNT] = arrived
    return rng_state


# ------------------------------------------------------------------ addresses and caches (issue 29)
@njit(inline=True)
def _lcg_draw(n, x):
    """The generated kernel's warp-uniform draw after ``n`` LCG steps from ``x`` (mod 2^32), by squaring: the
    access's draw depends on how many accesses came before it, not on the order they issued in."""
    m = np.uint64(0xFFFFFFFF)
    a = np.uint64(1)
    c = np.uint64(0)
    ba = np.uint64(LCG_A)
    bc = np.uint64(LCG_C)
    k = n
    while k > 0:
        if k & 1:
            c = (ba * c + bc) & m
            a = (ba * a) & m
        bc = (ba * bc + bc) & m
        ba = (ba * ba) & m
        k >>= 1
    return np.int64((a * np.uint64(x) + c) & m)


@njit(inline=True)
def _add_line(lines, masks, n, last, line, sectors):
    """Append ``line`` with its sector bits to the first ``n`` of ``lines``/``masks``, or add the bits to the last
    one when it is the same line (consecutive accesses in one line are one request line); returns (n, last)."""
    if line == last:
        masks[n - 1] |= sectors
        return n, last
    lines[n] = line
    masks[n] = sectors
    return n + 1, line


@njit(inline=True)
def _request_lines(acc_i, q, plan, gwarp, it, lines, masks):
    """The lines one warp's access ``q`` in iteration ``it`` touches and each line's sectors (4 bits), as the
    generated kernel computes its 32 lanes' addresses (explorer.toolchain.addresses.request_addresses is the
    reference, tested equal); returns how many lines."""
    slab = acc_i[q, A_SLAB]
    stride = acc_i[q, A_STRIDE]
    eb = acc_i[q, A_BYTES]
    where = 2  # the stream
    if plan[P_HITS] != 0:
        x = (plan[P_SEED] ^ ((gwarp * WARP_HASH) & 0xFFFFFFFF)) & 0xFFFFFFFF
        draw = _lcg_draw(it * plan[P_N_ACCESS] + q + 1, x)
        if acc_i[q, A_LOAD] != 0 and draw < plan[P_T_L1]:
            where = 0  # this warp's L1 slot
        elif draw < plan[P_T_L2]:
            where = 1  # the L2 region
    step = stride * eb if where != 0 else 16
    if where != 1 and step <= 32:
        # lanes at most a sector apart (the common, coalesced case): every sector from the first lane's to the
        # last lane's is touched; the lines between, each with its sectors of that range (a few, not 32 lanes)
        if where == 0:
            first = plan[P_HOT_BASE] + (gwarp & (L1_SLOTS - 1)) * L1_SLOT_BYTES
        else:
            first = gwarp * 32 * step + slab + (it % plan[P_WRAP]) * plan[P_ITER_BYTES]
        s0 = first >> 5
        s1 = (first + 31 * step + eb - 1) >> 5
        n = 0
        for line in range(s0 >> 2, (s1 >> 2) + 1):
            lo = s0 - (line << 2) if s0 > (line << 2) else 0
            hi = s1 - (line << 2) if s1 < (line << 2) + 3 else 3
            lines[n] = line
            masks[n] = ((np.int64(1) << (hi + 1)) - 1) & ~((np.int64(1) << lo) - 1)
            n += 1
        return n
    n = 0
    last = np.int64(-1)
    for lane in range(32):
        toff = (gwarp * 32 * stride + lane * stride) * eb
        if where == 0:
            addr = plan[P_HOT_BASE] + (gwarp & (L1_SLOTS - 1)) * L1_SLOT_BYTES + lane * 16
        elif where == 1:
            addr = plan[P_HOT_BASE] + L1_SLOTS * L1_SLOT_BYTES + (((toff + slab) & 0xFFFFFFFF)
                                                                   & (plan[P_L2_REGION] - 1))
        else:
            addr = toff + slab + (it % plan[P_WRAP]) * plan[P_ITER_BYTES]
        n, last = _add_line(lines, masks, n, last, addr >> 7, np.int64(1) << ((addr >> 5) & 3))
    return n


@njit(inline=True)
def _tma_copy_lines(tiles, op, b, it, lines, masks):
    """The lines one TMA copy reads and each line's sectors (4 bits): block ``b``'s copy of operand ``op`` (its row
    of ``tiles``) in K-step ``it``; returns how many lines (explorer.toolchain.addresses.TmaLayout.copy_lines is
    the reference, tested equal). Block b computes output tile (m, n) in the grouped order (tma_tiles.tile_position);
    the operand's tile is the one its indices name, a multicast copy the slice of its rows m or n picks; each of
    the copy's rows is row_bytes at base + row * pitch + column tile * row_bytes."""
    tiles_m = tiles[0, T_TILES_M]
    tiles_n = tiles[0, T_TILES_N]
    group = tiles[0, T_GROUP]
    span = group * tiles_n
    grp = b // span
    within = b - grp * span
    first = grp * group
    rows_g = tiles_m - first if tiles_m - first < group else group
    tn = within // rows_g
    tm = first + within - tn * rows_g
    at_r = tiles[op, T_ROW_AT]
    at_c = tiles[op, T_COL_AT]
    r = tm if at_r == AXIS_M else (tn if at_r == AXIS_N else np.int64(it))
    c = tm if at_c == AXIS_M else (tn if at_c == AXIS_N else np.int64(it))
    copy_rows = tiles[op, T_COPY_ROWS]
    row0 = r * tiles[op, T_BOX_ROWS]
    mc = tiles[op, T_MULTICAST]
    if mc > 1:
        row0 += ((tm if tiles[op, T_SHARE_AT] == AXIS_M else tn) % mc) * copy_rows
    rb = tiles[op, T_ROW_BYTES]
    pitch = tiles[op, T_PITCH]
    addr = tiles[op, T_BASE] + row0 * pitch + c * rb
    n = 0
    last = np.int64(-1)
    for _ in range(copy_rows):
        s0 = addr >> 5
        s1 = (addr + rb - 1) >> 5
        for line in range(s0 >> 2, (s1 >> 2) + 1):
            lo = s0 - (line << 2) if s0 > (line << 2) else 0
            hi = s1 - (line << 2) if s1 < (line << 2) + 3 else 3
            mask = ((np.int64(1) << (hi + 1)) - 1) & ~((np.int64(1) << lo) - 1)
            n, last = _add_line(lines, masks, n, last, line, mask)  # rows closer than a line apart share one
        addr += pitch
    return n


@njit(inline=True)
def _executed_lines(ref, line_tab, lines, masks):
    """A user kernel's executed access (explorer.sim.executed.ProgramFeed): ``ref`` = start << 8 | count in
    ``line_tab``, whose entries are line << 4 | the line's sectors (4 bits); unpacked into ``lines``/``masks``.
    Returns how many lines."""
    start = ref >> 8
    n = ref & 255
    for k in range(n):
        v = line_tab[start + k]
        lines[k] = v >> 4
        masks[k] = v & 15
    return n


@njit(inline=True)
def _hash_index(key, size):
    """A multiplicative hash of ``key`` into [0, size): DRAM banks from an address."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(29)) % np.uint64(size))


@njit(inline=True)
def _set_index(line, sets):
    """A cache set for ``line``: neighbouring lines in neighbouring sets (a stream walks the tag arrays in order),
    higher address bits folded in, so power-of-two strides do not all land in one set (caches hash their set
    index; NVIDIA's function is not published)."""
    return (line ^ (line >> 13) ^ (line >> 26)) % sets


@njit(inline=True)
def _set_of(line, sets, inv):
    """:func:`_set_index` without a hardware division (tens of cycles, twice per line of every request):
    the quotient by a multiply with ``inv`` = 1.0 / sets, exact to within one for a key below 2**52, then
    corrected; any other key takes ``%``. The same set as ``_set_index``, always."""
    x = line ^ (line >> 13) ^ (line >> 26)
    if x < 0 or x >= 4503599627370496:  # 2**52
        return x % sets
    r = x - np.int64(x * inv) * sets
    if r < 0:
        r += sets
    elif r >= sets:
        r -= sets
    return r


@njit(inline=True)
def _find(cache, base, ways, tag):
    for w in range(ways):
        if cache[_ix(base + w), C_TAG] == tag:
            return base + w
    return -1


@njit(inline=True)
def _victim(cache, base, ways):
    """An empty way, else the least recently used (the first of the oldest)."""
    best = base
    best_age = cache[_ix(base), C_AGE]
    for w in range(ways):
        e = _ix(base + w)
        if cache[e, C_TAG] == 0:
            return e
        age = cache[e, C_AGE]
        if age < best_age:
            best = e
            best_age = age
    return best


@njit(inline=True)
def _prefetch_set(cache, base, ways):
    """Ask the host for every line of the set at ``base`` (its ``ways`` rows of 3 int64, 24 bytes each)
    before it is looked up: the tag arrays are larger than the host's L2 cache, so each set a request
    touches is a miss, and prefetched together the misses of a request's lines overlap instead of
    following one another. Changes nothing the loop computes."""
    first = _ix(base) * 3
    last = first + ways * 3 - 1
    for i in range(first, last, 8):  # 8 int64: one 64-byte line of the host
        prefetch(cache, i)
    prefetch(cache, last)


@njit(inline=True)
def _popcount4(x):
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1)


@njit(inline=True)
def _l2_evict(l2c, e, t, ub, ovf, g, dram_q, rng_state, mem, cfg_i, cfg_f, long_windows, win_shift):
    """Make room in L2 entry ``e``: its dirty sectors go to device memory (nobody waits for them).

    The memory controller holds write-backs in its write queue and drains them in batches that it orders for
    row hits (first-ready scheduling), so they cost device memory what a sequential write costs, not a row
    cycle per evicted line: the evicted bytes are gathered and sent as bursts of ``dram_writeback_burst_bytes``,
    each opening one row (sim_model.toml [dram]). Returns the random state."""
    dirty = (l2c[e, C_BITS] >> 4) & 15
    if l2c[e, C_TAG] != 0 and dirty != 0:
        nbytes = 32 * _popcount4(dirty)
        mem[MEM.DRAM_BYTES] += nbytes
        mem[MEM.DRAM_WRITE_BYTES] += nbytes
        g[G.WB_PENDING] += nbytes
        if g[G.WB_PENDING] >= cfg_i[CFG_I.DRAM_WRITEBACK_BURST_BYTES]:
            rng_state, w = _dram_burst(ub, ovf, g, dram_q, rng_state, float(t), g[G.WB_PENDING], True, cfg_i,
                                       cfg_f, long_windows, win_shift)
            g[G.WB_PENDING] = 0
            bus_end = np.int64(np.ceil(t + w))  # the drain holds the bus as long as any read's burst does
            if bus_end > g[G.DRAM_BUS_END]:
                g[G.DRAM_BUS_END] = bus_end
    return rng_state


@njit(inline=True)
def _l2_lookup(l2c, l2f, line, m, reads, dirty, t, age, l2_sets, l2_ways, l2_inv, ub, ovf, g, dram_q, rng_state, mem,
               cfg_i, cfg_f, long_windows, win_shift):
    """Sectors ``m`` (4 bits) of ``line`` looked up in L2 at cycle t, for a load's, a store's, an atomic's or a TMA
    copy's request (``_access_by_address``, ``_issue_async``): returns (the sectors device memory must send, the
    random state, the line's entry, the cycle a fill still on its way brings the hit sectors: 0 if none).
    ``age``: the line's LRU age from now on (``C_AGE``: t << L2_AGE_SHIFT, a copy's lines after).
    ``reads``: the request reads the sectors, so those L2 does not hold miss (a load, an atomic, a copy; counted as
    hit and missed sectors); else (a store) they are written without a fetch and count as hits.
    A line L2 does not hold takes the set's least recently used entry (``_victim``; its dirty sectors go to device
    memory, ``_l2_evict``); the sectors are then valid, and dirty when ``dirty`` (a store, an atomic); the line is
    the set's most recently used.
    In-flight fills: a sector whose fill from device memory has not landed yet (``FILL_SHIFT``, ``l2f``) is
    allocated, so a read of it counts as a hit, but its data is the fill's: the request waits for that fill (the
    cycle is returned) instead of taking L2's latency as if the data were there. L2 merges such a read into the
    miss already outstanding rather than asking device memory again (Jia et al. 2018, "Dissecting the NVIDIA
    Volta GPU architecture via microbenchmarking", 3.6; GPGPU-Sim's gpu-cache.cc: a hit on a reserved line,
    HIT_RESERVED, waits in the MSHR for its fill)."""
    base = _set_of(line, l2_sets, l2_inv) * l2_ways
    e = _find(l2c, base, l2_ways, line + 1)
    pending = np.int64(0)
    if reads:
        hit = m & l2c[e, C_BITS] & 15 if e >= 0 else 0
        miss = m & ~hit
        mem[MEM.L2_HIT_SECTORS] += _popcount4(hit)
        mem[MEM.L2_MISS_SECTORS] += _popcount4(miss)
        if hit & (l2c[e, C_BITS] >> FILL_SHIFT) != 0 and l2f[e] > t:
            pending = l2f[e]
    else:
        miss = 0  # a store's sectors are written without a fetch
        mem[MEM.L2_HIT_SECTORS] += _popcount4(m)
    if e < 0:
        e = _victim(l2c, base, l2_ways)
        rng_state = _l2_evict(l2c, e, t, ub, ovf, g, dram_q, rng_state, mem, cfg_i, cfg_f, long_windows, win_shift)
        l2c[e, C_TAG] = line + 1
        l2c[e, C_BITS] = 0
        l2f[e] = 0
    l2c[e, C_BITS] |= (m | (m << 4)) if dirty else m
    l2c[e, C_AGE] = age
    return miss, rng_state, e, pending


@njit(inline=True)
def _fill(cache, fills, e, miss, t, lands):
    """Sectors ``miss`` of entry ``e`` of a cache (L2: ``l2c``, ``l2f``; an SM's L1: ``l1c``, ``l1f``) are on their
    way from the level below, the requester's at cycle ``lands`` (the in-flight fills of ``_l2_lookup`` and
    ``_fills``): a line whose earlier fill is still on its way keeps one outstanding fill, its
    sectors and its latest landing together."""
    bits = cache[e, C_BITS]
    if fills[e] > t:  # merged with the fill still outstanding
        cache[e, C_BITS] = bits | (miss << FILL_SHIFT)
        if lands > fills[e]:
            fills[e] = lands
    else:
        cache[e, C_BITS] = (bits & 255) | (miss << FILL_SHIFT)
        fills[e] = lands


@njit(inline=True)
def _access_by_address(path, l1_mode, t, sm, n, lbuf, sm_l1, l1c, l1f, l2c, l2f, dram_q, rng_state,
                       lat_l1, lat_l2, lat_fixed, l2_bpc, cfg_i, cfg_f, long_windows, mq, mem, ub, ovf, g,
                       win_shift, l1_inv, l2_inv):
    """One warp-instruction's global access by its addresses (issue 29): its ``n`` lines and each line's
    sectors (``lines[:n]``, ``masks[:n]``: a generated kernel's from ``_request_lines``, a user kernel's as its
    lanes executed, ``_executed_lines``), through L1 (loads), L2 and device memory, each level's tags deciding
    what hits (``lbuf``'s rows: ``lines``, ``masks``, then scratch for their L2 and L1 entries). Returns
    ``_global_access``'s tuple: (data back, L2's
    acknowledgement, last byte on device memory's bus (0: none), the deepest level (0 L1, 1 L2, 2 DRAM), the
    random state).

    In-flight fills at both levels: a sector L1 or L2 holds while its fill from below is still on its way is a hit
    whose data comes with that fill (``_l2_lookup``); a load that allocates in L1 leaves its missed sectors on
    their way there until its own data is back (``_fills``; ``ents`` and ``l1ents``: line k's L2 and L1 entry << 4
    | its sectors on their way, -1: none).

    L1TEX takes one line per cycle (its tag stage); the request's sectors that miss L1 cross L2's queue; those
    that miss L2 come from device memory as bursts of at most ``dram_burst_bytes`` (``_dram_burst``: a row in a
    bank of a channel). A load is back when its slowest sector is; one that misses L1 leaves a copy there when
    ``l1_mode`` is L1_ALLOCATE (sim_model.toml [caches]: a read-only, .ca or local load, or every load with
    l1_allocates_loads). A store writes through L1 (no allocation) into L2 (allocated, dirty: it reaches device
    memory when the line is evicted, ``_l2_evict``). An atomic (``l1_mode`` ATOMIC, on the store path) passes L1
    as a store does and is resolved in L2 on the line it changes: its missing sectors are read from device
    memory first, then the line is dirty; it is done (its result back, its acknowledgement) when that read is."""
    lines, masks, ents, l1ents = lbuf[0], lbuf[1], lbuf[2], lbuf[3]
    t_l1 = sm_l1[sm] if sm_l1[sm] > t else t
    sm_l1[sm] = t_l1 + n
    ub[t_l1 >> win_shift, L1] += n
    arrive = t_l1 + n
    load = path == GLOAD
    atomic = l1_mode == ATOMIC
    l1_sets = cfg_i[CFG_I.L1_SETS]
    l1_ways = cfg_i[CFG_I.L1_WAYS]
    to_l2 = 0
    l1_served = 0
    l1_wait = np.int64(0)  # the latest L1 fill on its way that a hit sector waits for
    for k in range(n):
        _prefetch_set(l1c, (sm * l1_sets + _set_of(lines[k], l1_sets, l1_inv)) * l1_ways, l1_ways)
    for k in range(n):
        base = (sm * l1_sets + _set_of(lines[k], l1_sets, l1_inv)) * l1_ways
        e = _find(l1c, base, l1_ways, lines[k] + 1)
        l1ents[k] = -1
        if load:
            hit = masks[k] & l1c[e, C_BITS] & 15 if e >= 0 else 0
            miss = masks[k] & ~hit
            l1_served += _popcount4(hit)
            mem[MEM.L1_MISS_SECTORS] += _popcount4(miss)
            if hit & (l1c[e, C_BITS] >> FILL_SHIFT) != 0 and l1f[e] > t and l1f[e] > l1_wait:
                l1_wait = l1f[e]
            if e < 0 and l1_mode != L1_ALLOCATE:  # a load that does not allocate in L1 (L1 keeps no copy)
                masks[k] = miss
                to_l2 += _popcount4(miss)
                continue
            if e < 0:
                e = _victim(l1c, base, l1_ways)
                l1c[e, C_TAG] = lines[k] + 1
                l1c[e, C_BITS] = masks[k]
                l1f[e] = 0
            else:
                l1c[e, C_BITS] |= masks[k]
            l1c[e, C_AGE] = t
            if miss != 0:  # on their way into L1 until this load's data is back
                l1ents[k] = (e << 4) | miss
            masks[k] = miss
        else:
            mem[MEM.L1_MISS_SECTORS] += _popcount4(masks[k])
            if e >= 0:
                l1c[e, C_BITS] |= masks[k]  # the line's copy takes the written bytes
                l1c[e, C_AGE] = t
        to_l2 += _popcount4(masks[k])
    mem[MEM.L1_HIT_SECTORS] += l1_served
    mem[MEM.L1_BYTES] += 32 * l1_served
    if to_l2 == 0:  # every sector hit L1
        back = arrive + lat_l1 if arrive + lat_l1 > l1_wait else l1_wait
        return back, back, np.int64(0), np.int64(0), rng_state
    b2 = mq[Q.L2_FREE] if mq[Q.L2_FREE] > arrive else float(arrive)
    mq[Q.L2_FREE] = b2 + 32 * to_l2 / l2_bpc
    _add(ub, ovf, g, np.int64(b2) >> win_shift, L2, 32 * to_l2 / l2_bpc)
    l2_sets = cfg_i[CFG_I.L2_SETS]
    l2_ways = cfg_i[CFG_I.L2_WAYS]
    waited = -1.0
    from_dram = 0
    in_flight = np.int64(0)  # the latest fill on its way that a hit sector waits for (_l2_lookup)
    for k in range(n):
        if masks[k] != 0:
            _prefetch_set(l2c, _set_of(lines[k], l2_sets, l2_inv) * l2_ways, l2_ways)
    for k in range(n):
        m = masks[k]
        ents[k] = -1
        if m == 0:
            continue
        # an atomic reads the sectors it changes; a store's and an atomic's sectors are dirty
        miss, rng_state, e, pending = _l2_lookup(l2c, l2f, lines[k], m, load or atomic, not load, t,
                                                 t << L2_AGE_SHIFT, l2_sets, l2_ways, l2_inv, ub, ovf, g, dram_q,
                                                 rng_state, mem, cfg_i, cfg_f, long_windows, win_shift)
        if miss != 0:  # on their way into L2 until this request's data is back (_fills)
            ents[k] = (e << 4) | miss
        if pending > in_flight:
            in_flight = pending
        if miss != 0:
            from_dram += 32 * _popcount4(miss)
    left = from_dram  # the request's missing sectors, as bursts
    burst_max = cfg_i[CFG_I.DRAM_BURST_BYTES]
    while left > 0:
        moved = burst_max if left > burst_max else left
        left -= moved
        rng_state, w = _dram_burst(ub, ovf, g, dram_q, rng_state, b2, moved, False, cfg_i, cfg_f, long_windows,
                                   win_shift)
        if w > waited:
            waited = w
    mem[MEM.L2_BYTES] += 32 * to_l2 - from_dram
    flushed = arrive + np.int64(np.ceil(b2 - arrive)) + lat_l2  # L2 has the request (a store's acknowledgement)
    if from_dram > 0:
        mem[MEM.DRAM_BYTES] += from_dram
        mem[MEM.DRAM_READ_BYTES] += from_dram
    back = flushed
    on_bus = np.int64(0)
    level = np.int64(1)
    if from_dram > 0:
        back = arrive + np.int64(np.ceil(b2 - arrive + waited)) + lat_fixed
        on_bus = np.int64(np.ceil(b2 + waited))
        level = np.int64(2)
        _fills(l2c, l2f, ents, n, t, back)
    if in_flight > back:  # sectors L2 holds that are still on their way
        back = in_flight
    _fills(l1c, l1f, l1ents, n, t, back)
    if l1_wait > back:
        back = l1_wait
    return back, back if atomic else flushed, on_bus, level, rng_state


@njit(inline=True)
def _fills(cache, fills, ents, n, t, lands):
    """A request's fills (``ents[k]``: line k's entry << 4 | its sectors on their way, -1: none) land at ``lands``
    (``_fill``), in L2 or in an SM's L1."""
    for k in range(n):
        if ents[k] >= 0:
            _fill(cache, fills, ents[k] >> 4, ents[k] & 15, t, lands)


@njit(inline=True)
def _global_access(path, nbytes, t, sm, sm_l1, l1_bpc, l1_hit, l2_hit, l2_bpc, lat_l1, lat_l2, lat_fixed,
                   cfg_i, cfg_f, long_windows, mq, dram_q, mem, ub, ovf, g, win_shift, rng_state):
    """One warp-instruction's global/local memory request through L1TEX, L2 and device memory:
    (the cycle its data is back, the cycle L2 acknowledges it, the cycle its last byte crossed device
    memory's bus (0 if none went there), the level that served it (0 L1, 1 L2, 2 DRAM), the random state).
    Only loads (GLOAD) may hit in L1; stores and atomics go on to L2. The two later cycles tell when a posted
    store is complete (sim_model.toml [stores], ``_kernel_end``). A request that misses L2 goes to device
    memory as bursts of at most ``dram_burst_bytes`` (``_dram_burst``); ``lat_fixed`` is ``_dram_fixed``."""
    waves = (nbytes + l1_bpc - 1) // l1_bpc
    t_l1 = sm_l1[sm] if sm_l1[sm] > t else t
    sm_l1[sm] = t_l1 + waves
    ub[_ix(t_l1 >> win_shift), L1] += waves
    rng_state, draw = _splitmix(rng_state)
    arrive = t_l1 + waves  # the request leaves L1TEX
    if draw < l1_hit and path == GLOAD:
        level = 0
        done_at = arrive + lat_l1
        flushed = done_at
        on_bus = np.int64(0)
        mem[MEM.L1_BYTES] += nbytes
    else:
        # every L1 miss crosses L2 (one GPU-wide queue at the L2 bandwidth)
        b2 = mq[Q.L2_FREE] if mq[Q.L2_FREE] > arrive else float(arrive)
        mq[Q.L2_FREE] = b2 + nbytes / l2_bpc
        _add(ub, ovf, g, np.int64(b2) >> win_shift, L2, nbytes / l2_bpc)
        if draw < l1_hit + (1.0 - l1_hit) * l2_hit:
            level = 1
            done_at = arrive + np.int64(np.ceil(b2 - arrive)) + lat_l2
            flushed = done_at
            on_bus = np.int64(0)
            mem[MEM.L2_BYTES] += nbytes
        else:
            # device memory: the request's bytes as row bursts
            level = 2
            waited = 0.0
            left = nbytes
            burst_max = cfg_i[CFG_I.DRAM_BURST_BYTES]
            while left > 0:
                moved = burst_max if left > burst_max else left
                left -= moved
                rng_state, w = _dram_burst(ub, ovf, g, dram_q, rng_state, b2, moved, path != GLOAD, cfg_i, cfg_f,
                                           long_windows, win_shift)
                if w > waited:
                    waited = w
            done_at = arrive + np.int64(np.ceil(b2 - arrive + waited)) + lat_fixed
            flushed = arrive + np.int64(np.ceil(b2 - arrive)) + lat_l2  # L2's acknowledgement
            on_bus = np.int64(np.ceil(b2 + waited))  # the last byte has crossed the bus
            mem[MEM.DRAM_BYTES] += nbytes
            if path == GLOAD:
                mem[MEM.DRAM_READ_BYTES] += nbytes
            else:
                mem[MEM.DRAM_WRITE_BYTES] += nbytes
    return done_at, flushed, on_bus, level, rng_state


@njit(inline=True)
def _admits(sm, SP, per_sp, wpb, block_cap, warp_cap, sm_blocks, sp_warps):
    """Whether the SM has room for a block: a block place (block slots, shared memory, barriers: held until
    the block's last warp leaves) and ``wpb`` warp places (slots and registers, per sub-partition: back as
    each warp leaves)."""
    if sm_blocks[sm] >= block_cap:
        return False
    free = 0
    for j in range(SP):
        room = warp_cap - sp_warps[sm * SP + j]
        if room > 0:
            free += room
    return free >= wpb


@njit(inline=True)
def _kernel_end(g, mem, dram_bpc, l2_lag):
    """The first cycle the kernel may have ended by, once every warp has left: its posted stores are
    complete (sim_model.toml [stores]). L2 has acknowledged every store; device memory may still be
    writing the lines the model sent on to it (a load's bursts or the write drain's: ``DRAM_BUS_END``
    holds the later), but no more than a full L2 of them (what L2 holds as
    dirty lines when the kernel ends), and never fewer than the bus time of every byte device memory
    moved for the run, so its share of peak over the run stays within 100%."""
    end = g[G.STORES_DONE]
    if g[G.DRAM_BUS_END] > end:
        behind = np.int64(np.ceil(g[G.DRAM_BUS_END] - l2_lag))
        moved = np.int64(np.ceil(mem[MEM.DRAM_BYTES] / dram_bpc))
        dram_end = behind if behind > moved else moved
        if dram_end > g[G.DRAM_BUS_END]:
            dram_end = g[G.DRAM_BUS_END]
        if dram_end > end:
            end = dram_end
    return end


# ------------------------------------------------------------------ the loop's state records
# Named tuples of arrays (and a few scalars): numba passes a record as its fields, so grouping costs nothing
# over separate arguments, and each stage below takes the records it reads. The engine builds them
# (``engine._loop_records``); field order is the records' own, never positional at a call.
Program = namedtuple("Program", (  # loop_program.LoopProgram, as the loop reads it
    # per row: path, unit, result latency, the state a dependent waits in, registers, bytes moved
    "path", "unit", "lat", "kind", "dst", "src", "req",
    # warp specialization and the asynchronous paths: per row the warps' role and its argument
    "role", "arg",
    # per row, the row its stall counts and next-instruction events name (the listing row of a flat program's
    # entry; else the row itself); per warp of the grid, the row it starts at (empty: 0); per entry of a flat
    # program, the lanes that issued it (uint32; empty: all 32, every warp's)
    "row", "entry", "active",
    # addresses (issue 29): per row the generated kernel's access it performs (-1: none known, the scenario's hit
    # rates are drawn; empty: no row has one); per listing row 1 where a global load that misses L1 leaves a copy
    # there (empty: none beyond l1_allocates_loads); a user kernel's executed addresses, per entry of the flat
    # program start << 8 | count of its lines in Memory.line_tab (0: none; empty: no entry has them)
    "acc", "l1a", "lines",
    # the loop body [loop_start, loop_end) x trip
    "loop_start", "loop_end", "trip",
))
Config = namedtuple("Config", (
    # SimParams packed by CFG_INT_FIELDS / CFG_FLOAT_FIELDS; per-pipe intervals; the access plan
    # (explorer.toolchain.addresses); per SM its row in the trace (-1: not recorded); unit windows of 1 << win_shift cycles;
    # the TMA copies' tiles (explorer.toolchain.addresses.tma_layout: T_* columns; one empty row: none)
    "cfg_i", "cfg_f", "pipe_iv", "acc_i", "plan", "rec_map", "win_shift", "tiles",
))
Warps = namedtuple("Warps", (
    # indexed sm * W + sub-partition * (W / SP) + k: a sub-partition's warps are contiguous; except state and
    # since, kept in warp-slot order (sm * W + sub-partition + k * SP, the trace's order: a slot's cell in it is
    # its SM's recorded index * W + its place in this order)
    "block", "phase", "state", "start", "pc", "iter", "wake", "wkind", "drain", "age", "tl", "next", "since",
    "reg_ready", "reg_kind", "asyn",
))
Places = namedtuple("Places", (
    # per sub-partition: next visit, last issued warp, pipes' free times, live warps, slots ever used (its warps
    # sit in slots [0, sp_hi): the visit scans those only); per SM: L1TEX and shared memory queues, blocks holding
    # a place; dispatch: sm_order[0] the GPU's SM order the dispatcher goes round, sm_order[1] each SM's last
    # placement cycle; b_fixed the SM each of the first blocks goes to (a measured launch's placement; empty: none)
    "sp_next", "sp_last", "sp_pipe", "sp_warps", "sp_hi", "sm_l1", "sm_smem", "sm_blocks", "sm_order", "b_fixed",
))
Blocks = namedtuple("Blocks", ("sm", "start", "end", "alive", "arrived", "slot", "mbar"))
Memory = namedtuple("Memory", (
    # L1 of every SM, when each L1 entry's fill lands (FILL_SHIFT), L2 (per entry C_TAG, C_BITS, C_AGE side by
    # side), when each L2 entry's fill from device memory lands, scratch for a request's lines (LBUF_ROWS rows:
    # line, sectors, then its L2 and its L1 entry << 4 | the sectors on their way there, _fills), the
    # feed's line table (entries line << 4 | sectors), memory queues (Q_SLOTS), DRAM banks, random state,
    # statistics (MEM_SLOTS), unit busy per window and its overflow list
    "l1c", "l1f", "l2c", "l2f", "lbuf", "line_tab", "mq", "dram_q", "rng", "mem", "ub", "ovf",
))
Outputs = namedtuple("Outputs", (
    # scalars (G_SLOTS); warp slots per state; residency events; GPU-wide series (N_COUNTS counts, then warp
    # slots per state); per row warp-cycles in each state while it was the warp's next instruction; per row the
    # sectors its accesses looked up (row_sect[row * 4 + k]: L1 hit, L1 miss, L2 hit, L2 miss); recorded slots'
    # next-instruction events (pe_cell = ri * W + slot) and state changes (st_cell likewise; rec_cell: per warp
    # slot in slot order its cell, -1 where its SM is not recorded); state changes queued for the next cycle;
    # scratch (int64[2 * W / SP + S * SP]: the loop allocates nothing)
    "g", "sc", "ev_t", "ev_sm", "ev_d", "series", "stall", "row_sect",
    "pe_t", "pe_cell", "pe_row", "pe_mask", "st_t", "st_cell", "st_state", "rec_cell",
    "pend_slot", "pend_gi", "pend_state", "scratch",
))
# what stays fixed over one call (sizes, latencies, rates): made once at the call's start, read by every stage
Fixed = namedtuple("Fixed", (
    "S", "W", "SP", "per_sp", "sp_shift", "sp_pow2", "wpb", "total_blocks", "total_warps", "block_cap",
    "warp_cap", "warp_iv", "n_fixed", "n_acc", "n_lines", "n_l1a", "l1_alloc_all", "lat_l1", "lat_l2", "l1_bpc",
    "l1_q", "sh_bpc", "sh_q", "launch_lat", "bar_lat", "policy", "active_cap", "stages", "producers", "posted",
    "dram_bpc", "l2_bpc", "long_windows", "lat_fixed", "l2_lag", "l1_hit", "l2_hit", "l1_inv", "l2_inv",
    "pe_room", "st_room", "n_cols", "win_shift",
))


@njit(inline=True)
def _fixed(cfg, pe_len, st_len, n_cols, prog, places):
    """The call's :data:`Fixed` figures from its configuration and arrays."""
    cfg_i = cfg.cfg_i
    cfg_f = cfg.cfg_f
    S = cfg_i[CFG_I.SM_COUNT]
    W = cfg_i[CFG_I.WARPS_PER_SM]
    SP = cfg_i[CFG_I.SUB_PARTITIONS]
    wpb = cfg_i[CFG_I.WARPS_PER_BLOCK]
    total_blocks = cfg_i[CFG_I.TOTAL_BLOCKS]
    dram_bpc = cfg_f[CFG_F.DRAM_BYTES_PER_CYCLE]
    sp_shift = 0
    while (2 << sp_shift) <= SP:
        sp_shift += 1
    return Fixed(
        S, W, SP, W // SP, sp_shift, (1 << sp_shift) == SP, wpb, total_blocks, total_blocks * wpb,
        cfg_i[CFG_I.BLOCK_CAPACITY],  # blocks an SM holds by block slots, shared memory, barriers
        cfg_i[CFG_I.WARP_CAPACITY_PER_SP],  # warps a sub-partition holds by slots and registers
        cfg_i[CFG_I.WARP_LAUNCH_CYCLES], places.b_fixed.shape[0], prog.acc.shape[0], prog.lines.shape[0],
        prog.l1a.shape[0], cfg_i[CFG_I.L1_ALLOCATES_LOADS], cfg_i[CFG_I.LAT_L1], cfg_i[CFG_I.LAT_L2],
        cfg_i[CFG_I.L1_BYTES_PER_CYCLE], cfg_i[CFG_I.L1_QUEUE_CYCLES], cfg_i[CFG_I.SHARED_BYTES_PER_CYCLE],
        cfg_i[CFG_I.SHARED_QUEUE_CYCLES], cfg_i[CFG_I.BLOCK_LAUNCH_LATENCY], cfg_i[CFG_I.BARRIER_LATENCY],
        cfg_i[CFG_I.POLICY], cfg_i[CFG_I.ACTIVE_WARPS], cfg_i[CFG_I.STAGES], cfg_i[CFG_I.PRODUCER_WARPS],
        cfg_i[CFG_I.POSTED_STORES], dram_bpc, cfg_f[CFG_F.L2_BYTES_PER_CYCLE],
        _long_windows(cfg_i, cfg_f, cfg.win_shift), _dram_fixed(cfg_i, cfg_f),
        cfg_i[CFG_I.L2_BYTES] / dram_bpc,  # cycles device memory needs to write back a full L2
        cfg_f[CFG_F.L1_HIT_RATE], cfg_f[CFG_F.L2_HIT_RATE],
        1.0 / max(cfg_i[CFG_I.L1_SETS], 1), 1.0 / max(cfg_i[CFG_I.L2_SETS], 1),  # _set_of
        pe_len - S * (SP + wpb),  # a cycle adds at most an issue per sub-partition and a block per SM
        # a cycle changes a slot's state at most twice (its visit, then its selection) and a sub-partition's
        # queued state once
        st_len - S * (2 * W + SP),
        n_cols, cfg.win_shift,
    )


# ------------------------------------------------------------------ the cycle's stages
@njit(inline=True)
def _apply_pending(t, w, out):
    """States that change at cycle t's start without a visit (warps that issued last cycle and now wait);
    nothing to account: the issue accounted the slot's cycle as selected up to now (since[slot] == t)."""
    g = out.g
    sc = out.sc
    for i in range(g[G.PENDING]):
        s2 = _ix(out.pend_slot[i])
        old = w.state[s2]
        new = out.pend_state[i]
        if old != new:
            sc[old] -= 1
            sc[new] += 1
            w.state[s2] = new
            _state_event(out, s2, new, t)
    g[G.PENDING] = 0


@njit(inline=True)
def _dispatch(t, f, prog, cfg, w, places, blocks, out):
    """Place pending blocks, in grid order (a measured launch's SMs first), round robin over the SMs whose
    resources admit one, at most one per SM per cycle; each block's warps go to their sub-partitions' first
    free slots and start one after another."""
    S = f.S
    SP = f.SP
    per_sp = f.per_sp
    wpb = f.wpb
    g = out.g
    sm_order = places.sm_order
    placed = 0
    rr0 = g[G.RR_SM]
    for i in range(S):
        b = g[G.NEXT_BLOCK]
        if b >= f.total_blocks:
            break
        if b < f.n_fixed:  # the measured launch's placement, in grid order: wait for that SM
            pos = -1
            sm = places.b_fixed[b]
            if sm_order[1, sm] == t or not _admits(sm, SP, per_sp, wpb, f.block_cap, f.warp_cap, places.sm_blocks,
                                                   places.sp_warps):
                break
        else:  # round robin in the GPU's SM order over the SMs whose resources admit the block
            pos = (rr0 + i) % S
            sm = sm_order[0, pos]
            if sm_order[1, sm] == t or not _admits(sm, SP, per_sp, wpb, f.block_cap, f.warp_cap, places.sm_blocks,
                                                   places.sp_warps):
                continue
        g[G.NEXT_BLOCK] += 1
        placed += 1
        places.sm_blocks[sm] += 1
        sm_order[1, sm] = t  # one block per SM per cycle
        start = t + f.launch_lat
        blocks.sm[b] = sm
        blocks.start[b] = start
        blocks.alive[b] = wpb
        blocks.arrived[b] = 0
        for k in range(wpb):
            _place_warp(t, f, prog, cfg, w, places, blocks, out, b, k, sm, start)
        if pos >= 0:
            g[G.RR_SM] = (pos + 1) % S
    if placed == 0:
        g[G.DISPATCH] = 0  # nothing fits: wait until a warp leaves


@njit(inline=True)
def _place_warp(t, f, prog, cfg, w, places, blocks, out, b, k, sm, start):
    """Warp k of block b to sub-partition k % SP, or the next one with room for a warp (slots and registers come
    back per warp, so a sub-partition may be fuller than the others), its first free slot."""
    W = f.W
    SP = f.SP
    per_sp = f.per_sp
    sp_warps = places.sp_warps
    sp = k % SP
    for _j in range(SP):
        if sp_warps[sm * SP + sp] < f.warp_cap:
            break
        sp = (sp + 1) % SP
    sp_warps[sm * SP + sp] += 1
    kk = 0
    while w.block[sm * W + sp * per_sp + kk] != -1:
        kk += 1
    if kk >= places.sp_hi[sm * SP + sp]:  # the sub-partition's visits scan its slots up to this one
        places.sp_hi[sm * SP + sp] = kk + 1
    gi = sm * W + sp * per_sp + kk
    slot = sp + kk * SP
    wstart = start + k * f.warp_iv  # the SM launches a block's warps one after another
    w.block[gi] = b
    blocks.slot[b, k] = slot
    w.phase[gi] = P_PENDING
    w.start[gi] = wstart
    _account(out.stall, w.since, w.state[sm * W + slot], w.pc, prog.row, sm * W + slot, gi, t)
    w.pc[gi] = prog.entry[b * f.wpb + k] if prog.entry.shape[0] > 0 else 0
    w.iter[gi] = 0
    if f.producers > 0:  # warp specialization: start at the first row of its role
        w.pc[gi] = _own_next(prog.role, 0, gi, w.iter, prog.loop_start, prog.loop_end, prog.trip,
                             _warp_role(k, f.producers))
    _pc_event(out.pe_t, out.pe_cell, out.pe_row, out.pe_mask, out.g, cfg.rec_map[sm], W, slot, t,
              prog.row[w.pc[gi]], prog.active[w.pc[gi]] if prog.active.shape[0] > 0 else ALL_LANES)
    w.asyn[gi, A_OPEN] = 0
    w.asyn[gi, A_COUNT] = 0
    w.wake[gi] = wstart
    w.wkind[gi] = WAIT
    w.drain[gi] = 0
    w.age[gi] = b * f.wpb + k
    w.tl[gi] = 0
    w.next[gi] = t  # classify the new warp this cycle (its slot may show a warp that just left)
    for r in range(w.reg_ready.shape[1]):
        w.reg_ready[gi, r] = 0
    spi = sm * SP + sp
    if wstart < places.sp_next[spi]:
        places.sp_next[spi] = wstart
    g = out.g
    ne = g[G.EVENTS]
    out.ev_t[ne] = wstart
    out.ev_sm[ne] = sm
    out.ev_d[ne] = 1
    g[G.EVENTS] = ne + 1


@njit(inline=True)
def _state_event(out, s2, st, t):
    """Slot s2 shows state ``st`` from cycle t: an event where its SM is recorded (``SimResult.trace``: the
    per-slot states, rebuilt from these on demand; of two events in one cycle the later holds)."""
    cell = out.rec_cell[s2]
    if cell >= 0:
        g = out.g
        n = _ix(g[G.ST_EVENTS])
        out.st_t[n] = t
        out.st_cell[n] = cell
        out.st_state[n] = st
        g[G.ST_EVENTS] = n + 1


@njit(inline=True)
def _set_state(w, out, prog, s2, gi, st, t):
    """Slot s2 (warp gi) shows state ``st`` from cycle t: the cycles in its old one are counted."""
    old = w.state[s2]
    if old != st:
        _account(out.stall, w.since, old, w.pc, prog.row, s2, gi, t)
        out.sc[old] -= 1
        out.sc[st] += 1
        w.state[s2] = st
        _state_event(out, s2, st, t)


@njit(inline=True)
def _classify_warp(t, f, prog, cfg, w, places, blocks, out, sm, spi, base, gi):
    """(state, until): the state of warp gi of a sub-partition this cycle (SELECTED: eligible) and the earliest
    cycle it may change (NEVER: only by another warp's doing); a warp whose launch, barrier or drain ends
    moves on to its next phase."""
    ph = w.phase[gi]
    st = EMPTY
    when = NEVER  # earliest cycle this warp's state may change
    if ph == P_PENDING:
        if t >= w.start[gi]:
            ph = P_RUN
            w.phase[gi] = P_RUN
            if f.policy == TWO_LEVEL:
                cnt = 0
                for kk in range(f.per_sp):
                    g2 = base + kk
                    if w.tl[g2] == 1 and w.phase[g2] >= P_RUN:
                        cnt += 1
                w.tl[gi] = 1 if cnt < f.active_cap else 0
        else:
            when = w.start[gi]
    if ph == P_RUN:
        if t < w.wake[gi]:
            st = w.wkind[gi] & (RESOLVED - 1)
            when = w.wake[gi]
        else:
            pc = _ix(w.pc[gi])
            ready = True
            if w.wkind[gi] < RESOLVED:
                wake, kind = _scoreboard(w.reg_ready, w.reg_kind, gi, prog.dst, prog.src, pc, t)
                if wake > t:
                    w.wake[gi] = wake
                    w.wkind[gi] = kind
                    st = kind
                    when = wake
                    ready = False
                else:
                    w.wkind[gi] = READY
            if ready:
                path = prog.path[pc]
                st = SELECTED
                u = prog.unit[pc]
                if u >= FIRST_PIPE and u <= LAST_PIPE and path != WGMMA:  # wgmma: queued (async)
                    free = places.sp_pipe[spi, u - FIRST_PIPE]
                    if free >= t + 1:  # the pipe does not free within this cycle
                        if u != LSU:
                            st = MATH_THROTTLE
                        elif path == GLOAD or path == GSTORE:
                            st = LG_THROTTLE
                        else:
                            st = MIO_THROTTLE
                        when = np.int64(free)
                if st != SELECTED:
                    pass
                elif path >= FIRST_ASYNC:
                    st, when = _async_ready(path, pc, gi, w.block[gi], t, w.iter[gi], f.stages, prog.arg,
                                            w.asyn, w.phase, blocks.mbar)
                elif path == GLOAD or path == GSTORE:
                    if places.sm_l1[sm] - t > f.l1_q:
                        st = LG_THROTTLE
                        when = places.sm_l1[sm] - f.l1_q
                elif path == SHARED:
                    if places.sm_smem[sm] - t > f.sh_q:
                        st = MIO_THROTTLE
                        when = places.sm_smem[sm] - f.sh_q
    elif ph == P_BARRIER:
        st = BARRIER
    elif ph == P_MBAR:
        st = MBARRIER
    elif ph == P_DRAIN:
        if t >= w.drain[gi]:
            if _leave(t, f, w, places, blocks, out, gi, sm):
                when = t + 1  # warps of this sub-partition it released are classified then
        else:
            st = DRAIN
            when = w.drain[gi]
    return st, when


@njit(inline=True)
def _leave(when, f, w, places, blocks, out, gi, sm):
    """``_exit_warp`` over the records: warp gi leaves at cycle ``when``; 1 when that releases a barrier."""
    return _exit_warp(gi, sm, f.W, f.SP, when, f.bar_lat, w.phase, w.block, w.wake, w.wkind, w.next,
                      places.sp_next, blocks.alive, blocks.arrived, blocks.end, places.sm_blocks, places.sp_warps,
                      out.g, out.ev_t, out.ev_sm, out.ev_d)


@njit(inline=True)
def _classify(t, f, prog, cfg, w, places, blocks, out, sm, spi, base, sbase, elig):
    """Classify the sub-partition's due warps (the rest keep their state: the earliest of their ``next`` bounds
    its next visit): a stalled warp's state is written now, an eligible one's index goes to ``elig`` (its state,
    selected or not, is written after the pick). Returns (eligible warps, their bit mask, the next visit)."""
    n_el = 0
    el_mask = np.int64(0)  # bit k: warp k of this sub-partition is eligible this cycle
    # the slots that ever held a warp (a slot never used stays NEVER: scanning it changes nothing); a GPU
    # holding few warps per sub-partition (the mission example: ~4 of 16) scans a quarter of them
    due_mask, nxt = _due_later(w.next[base:base + places.sp_hi[spi]], t)
    while due_mask != 0:
        k = ctz(due_mask)
        due_mask &= due_mask - 1
        gi = _ix(base + k)
        st, when = _classify_warp(t, f, prog, cfg, w, places, blocks, out, sm, spi, base, gi)
        if st == SELECTED:  # eligible: its next check (t + 1, or later if it issues) is set after the issue
            elig[n_el] = k
            n_el += 1
            el_mask |= np.int64(1) << k
            w.next[gi] = t + 1
        else:
            _set_state(w, out, prog, _ix(sbase + k * f.SP), gi, st, t)
            w.next[gi] = when
            if when < nxt:
                nxt = when
    return n_el, el_mask, nxt


@njit(inline=True)
def _two_level_active(f, w, base, sbase, elig, n_el, el_mask):
    """Two-level scheduling: warps stalled on memory (long scoreboard) leave the active set, eligible ones join
    it, oldest first, up to its size."""
    cnt = 0
    for k in range(f.per_sp):
        gi = base + k
        if w.tl[gi] == 1 and w.phase[gi] >= P_RUN:
            if (el_mask >> k) & 1 == 0 and w.state[sbase + k * f.SP] == LONG_SB:
                w.tl[gi] = 0
            else:
                cnt += 1
    while cnt < f.active_cap:
        best = -1
        best_age = NEVER
        for j in range(n_el):
            gi = base + elig[j]
            if w.tl[gi] == 0 and w.age[gi] < best_age:
                best = j
                best_age = w.age[gi]
        if best < 0:
            break
        w.tl[base + elig[best]] = 1
        cnt += 1


@njit(inline=True)
def _pick_oldest(w, base, elig, n_el):
    """The eligible warp of the earliest launch (OLDEST; GTO after a stall; two-level with no active warp ready)."""
    pick = -1
    best_age = NEVER
    for j in range(n_el):
        a = w.age[base + elig[j]]
        if a < best_age:
            best_age = a
            pick = elig[j]
    return pick


@njit(inline=True)
def _pick_round_robin(w, base, elig, n_el, last, per_sp, active_only):
    """The first eligible warp after the last issued one, circular (LRR; two-level within the active set:
    ``active_only``); -1 if none."""
    pick = -1
    best_d = per_sp + 1
    for j in range(n_el):
        k = elig[j]
        if active_only and w.tl[base + k] == 0:
            continue
        d = k - last - 1  # distance after the last issued warp, circular
        if d < 0:
            d += per_sp
        if d < best_d:
            best_d = d
            pick = k
    return pick


@njit(inline=True)
def _pick_warp(f, w, places, spi, base, elig, n_el, el_mask):
    """The eligible warp the policy issues (one branch per policy)."""
    last = places.sp_last[spi]
    policy = f.policy
    pick = -1
    if policy == GTO:  # greedy: stay with the last warp while it is ready, else the oldest
        if last >= 0 and (el_mask >> last) & 1:
            pick = last
    elif policy == LRR:
        pick = _pick_round_robin(w, base, elig, n_el, last, f.per_sp, False)
    elif policy == TWO_LEVEL:
        pick = _pick_round_robin(w, base, elig, n_el, last, f.per_sp, True)
    if pick < 0:
        pick = _pick_oldest(w, base, elig, n_el)
    return pick


@njit(inline=True)
def _select(t, f, prog, w, out, base, sbase, elig, n_el, pick):
    """The eligible warps' states for this cycle: SELECTED for the pick, NOT_SELECTED for the others."""
    for j in range(n_el):
        new = SELECTED if elig[j] == pick else NOT_SELECTED
        _set_state(w, out, prog, _ix(sbase + elig[j] * f.SP), base + elig[j], new, t)


@njit(inline=True)
def _issue_memory(t, f, prog, cfg, w, places, mem_r, out, path, pc, gi, sm, rng_state):
    """A global or local load or store (or atomic) goes out: by its addresses through the caches' tags where its
    lines are known, else by the scenario's hit rates; its results, the warp's drain and the kernel's end wait
    for it. Returns the random state."""
    mem = mem_r.mem
    g = out.g
    lbuf = mem_r.lbuf
    nbytes = prog.req[pc]
    generated = f.n_acc > 0 and prog.acc[pc] >= 0
    if generated or (f.n_lines > 0 and prog.lines[pc] > 0):  # by its addresses: the tags decide
        s0 = (mem[MEM.L1_HIT_SECTORS], mem[MEM.L1_MISS_SECTORS], mem[MEM.L2_HIT_SECTORS], mem[MEM.L2_MISS_SECTORS])
        if generated:
            n_l = _request_lines(cfg.acc_i, np.int64(prog.acc[pc]), cfg.plan, w.age[gi], w.iter[gi], lbuf[0],
                                 lbuf[1])
        else:
            n_l = _executed_lines(prog.lines[pc], mem_r.line_tab, lbuf[0], lbuf[1])
        l1_alloc = f.l1_alloc_all  # L1_ALLOCATE (1) for every load, or PLAIN (0)
        if f.n_l1a > 0 and prog.l1a[_ix(np.int64(prog.row[pc]))] != 0:
            l1_alloc = np.int64(prog.l1a[_ix(np.int64(prog.row[pc]))])  # the row's: allocate, atomic
        done_at, flushed, on_bus, level, rng_state = _access_by_address(
            path, l1_alloc, t, sm, n_l, lbuf, places.sm_l1, mem_r.l1c, mem_r.l1f, mem_r.l2c, mem_r.l2f, mem_r.dram_q,
            rng_state, f.lat_l1, f.lat_l2, f.lat_fixed, f.l2_bpc, cfg.cfg_i, cfg.cfg_f, f.long_windows, mem_r.mq,
            mem, mem_r.ub, mem_r.ovf, g, f.win_shift, f.l1_inv, f.l2_inv)
        r4 = _ix(np.int64(prog.row[pc]) * 4)  # this instruction's own hits (the SASS view's)
        row_sect = out.row_sect
        row_sect[r4] += np.int64(mem[MEM.L1_HIT_SECTORS] - s0[0])
        row_sect[r4 + 1] += np.int64(mem[MEM.L1_MISS_SECTORS] - s0[1])
        row_sect[r4 + 2] += np.int64(mem[MEM.L2_HIT_SECTORS] - s0[2])
        row_sect[r4 + 3] += np.int64(mem[MEM.L2_MISS_SECTORS] - s0[3])
    else:
        done_at, flushed, on_bus, level, rng_state = _global_access(
            path, nbytes, t, sm, places.sm_l1, f.l1_bpc, f.l1_hit, f.l2_hit, f.l2_bpc, f.lat_l1, f.lat_l2,
            f.lat_fixed, cfg.cfg_i, cfg.cfg_f, f.long_windows, mem_r.mq, mem_r.dram_q, mem, mem_r.ub, mem_r.ovf, g,
            f.win_shift, rng_state)
    if prog.dst[pc, 0] >= 0:  # a load (or an atomic's result)
        _set_results(w.reg_ready, w.reg_kind, gi, prog.dst, pc, done_at, prog.kind[pc])
        if done_at > w.drain[gi]:  # its registers are written even if nothing reads
            w.drain[gi] = done_at  # them: the warp's exit waits for that (drain)
        if path == GLOAD:
            mem[MEM.L1_LAT + level] += done_at - t
            mem[MEM.L1_LOADS + level] += 1
    else:  # a store: posted, the warp's exit waits only until it left L1TEX (sm_l1[sm] is this request's
        # departure), not for L2 or DRAM (sim_model.toml [stores])
        sent = places.sm_l1[sm] if f.posted else done_at
        if sent > w.drain[gi]:
            w.drain[gi] = sent
        if flushed > g[G.STORES_DONE]:  # the kernel ends no earlier (_kernel_end)
            g[G.STORES_DONE] = flushed
        if on_bus > g[G.DRAM_BUS_END]:
            g[G.DRAM_BUS_END] = on_bus
    return rng_state


@njit(inline=True)
def _hold_pipe(t, f, cfg, places, mem_r, spi, u, path):
    """An issued instruction holds its pipe (budget in fractional cycles) and counts its busy time; a wgmma is
    queued on its warp's Tensor pipe instead (``_issue_async``)."""
    if u >= FIRST_PIPE and u <= LAST_PIPE and path != WGMMA:
        pi = u - FIRST_PIPE
        f0 = places.sp_pipe[spi, pi]
        if f0 < t:
            f0 = t
        places.sp_pipe[spi, pi] = f0 + cfg.pipe_iv[pi]
        mem_r.ub[_ix(t >> f.win_shift), u] += cfg.pipe_iv[pi]


@njit(inline=True)
def _issue_shared(t, f, prog, w, places, mem_r, pc, gi, sm):
    """A shared-memory access: its wavefronts queue on the SM's banks; results, and the warp's drain, after."""
    waves = (prog.req[pc] + f.sh_bpc - 1) // f.sh_bpc
    sm_smem = places.sm_smem
    t_s = sm_smem[sm] if sm_smem[sm] > t else t
    sm_smem[sm] = t_s + waves
    mem_r.ub[_ix(t_s >> f.win_shift), SHARED_UNIT] += waves
    mem_r.mem[MEM.SHARED_BYTES] += prog.req[pc]
    _set_results(w.reg_ready, w.reg_kind, gi, prog.dst, pc, t_s + waves + prog.lat[pc], prog.kind[pc])
    # the exit waits until the access has left the banks, and a load until its registers are
    # written, as for a global load (a warp could leave with its wavefronts still queued)
    left_at = t_s + waves + (prog.lat[pc] if prog.dst[pc, 0] >= 0 else 0)
    if left_at > w.drain[gi]:
        w.drain[gi] = left_at


@njit(inline=True)
def _issue_pipeline(t, f, prog, cfg, w, places, blocks, mem_r, out, path, pc, gi, b, sm, spi, rng_state):
    """A tma, wgmma or wait_group (``_issue_async``, a real call: rare); returns the random state."""
    return _issue_async(path, pc, gi, b, sm, spi, t, prog, cfg, w, places, blocks, mem_r, out, rng_state)


@njit(inline=True)
def _issue_alu(t, f, prog, cfg, w, places, pc, gi, spi, u):
    """An ALU instruction (or a memory instruction no thread performs): results after its latency."""
    _set_results(w.reg_ready, w.reg_kind, gi, prog.dst, pc, t + prog.lat[pc], prog.kind[pc])
    # the warp's exit waits until the instruction has left its pipe (an MMA holds a V100's
    # Tensor pipe 16 cycles: a kernel ending on one ended before its pipe was free, the pipe
    # above 100% over the run); a pipe of one cycle or less is free by then anyway, and the
    # result's write is not waited for (the model's choice; a load's is, above)
    if u >= FIRST_PIPE and u <= LAST_PIPE and cfg.pipe_iv[u - FIRST_PIPE] > 1.0:
        freed = np.int64(np.ceil(places.sp_pipe[spi, u - FIRST_PIPE]))
        if freed > w.drain[gi]:
            w.drain[gi] = freed


@njit(inline=True)
def _issue_exit(t, f, w, places, blocks, out, gi, sm):
    """EXIT: the warp leaves at t + 1 (1), or drains first while its loads, stores or pipes are busy (0)."""
    if w.drain[gi] > t + 1:
        w.phase[gi] = P_DRAIN
        return 0
    _leave(t + 1, f, w, places, blocks, out, gi, sm)
    return 1


@njit(inline=True)
def _advance(t, f, prog, cfg, w, places, blocks, out, sm, sbase, pick, gi, b, pc, path):
    """After an issue at row pc: the warp's next row from t + 1 and its scoreboard, queued as a pending state
    when it waits (or, for a barrier, its arrival). Returns the warp's next possible change."""
    picked_next = t + 1
    # its cycle as the selected warp at row pc ends; from t + 1 the next row is its next
    s2 = _ix(sbase + pick * f.SP)
    _account(out.stall, w.since, SELECTED, w.pc, prog.row, s2, gi, t + 1)
    pc = _next_pc(pc, gi, w.iter, prog.loop_start, prog.loop_end, prog.trip)
    if f.producers > 0:  # warp specialization: skip the rows of the other role
        pc = _own_next(prog.role, pc, gi, w.iter, prog.loop_start, prog.loop_end, prog.trip,
                       _warp_role(w.age[gi] - b * f.wpb, f.producers))
    w.pc[gi] = pc
    _pc_event(out.pe_t, out.pe_cell, out.pe_row, out.pe_mask, out.g, cfg.rec_map[sm], f.W, s2 - sm * f.W, t + 1,
              prog.row[pc], prog.active[pc] if pc < prog.active.shape[0] else ALL_LANES)
    w.wake[gi] = t + 1  # one instruction per warp per cycle
    w.wkind[gi] = WAIT
    if path != SYNC:
        # the next instruction's scoreboard is known now (the ready times of its
        # registers were fixed when their producers issued): resolve it once, here
        wake, kind = _scoreboard(w.reg_ready, w.reg_kind, gi, prog.dst, prog.src, pc, t + 1)
        w.wake[gi] = wake
        w.wkind[gi] = kind | RESOLVED
        if wake > t + 1:
            # it waits from the next cycle until wake: its state changes then without a
            # visit (applied at the start of t + 1), and nothing else changes it before
            g = out.g
            n = _ix(g[G.PENDING])
            out.pend_slot[n] = s2
            out.pend_gi[n] = gi
            out.pend_state[n] = kind
            g[G.PENDING] = n + 1
            w.next[gi] = wake
            picked_next = wake
    else:
        blocks.arrived[b] += 1
        if blocks.arrived[b] >= blocks.alive[b]:  # last arrival: release every warp of the block
            _release_barrier(b, gi, sm, f.W, f.SP, t, f.bar_lat, w.block, w.phase, w.wake, w.wkind, w.next,
                             places.sp_next, blocks.arrived)
        else:
            w.phase[gi] = P_BARRIER
    return picked_next


@njit(inline=True)
def _record(t, row, f, mem_r, out, issued, leaving):
    """Cycle t's GPU-wide counts (series row ``row``) and its issue slots' use (the recorded SMs' slot states are
    events, written where they change: ``_state_event``)."""
    g = out.g
    sc = out.sc
    series = out.series
    S = f.S
    W = f.W
    series[row, 0] = f.total_warps - (g[G.EXITED] - leaving)
    series[row, 1] = S * W - sc[EMPTY]
    series[row, 2] = sc[SELECTED] + sc[NOT_SELECTED]
    series[row, 3] = issued
    for c in range(f.n_cols - N_COUNTS):
        series[row, N_COUNTS + c] = sc[c]
    mem_r.ub[_ix(t >> f.win_shift), ISSUE] += issued


@njit(inline=True)
def _skip_idle(t, t0, row, t_limit, f, places, mem_r, out):
    """After a cycle in which nothing issued: the next cycle anything can change (every state is constant until
    then; NEVER: nothing ever will, a deadlock), at most ``t_limit``, the skipped cycles' series rows filled in as
    copies of cycle t's."""
    g = out.g
    nxt = NEVER
    sp_next = places.sp_next
    for spi in range(sp_next.shape[0]):  # branch-free: vectorized
        v = sp_next[spi]
        nxt = v if v < nxt else nxt
    if g[G.NEXT_BLOCK] < f.total_blocks and g[G.DISPATCH] > 0 and t + 1 < nxt:
        nxt = t + 1
    if g[G.EXITED] == f.total_warps:  # every warp has left: the last cycle is the stores' last
        nxt = _kernel_end(g, mem_r.mem, f.dram_bpc, f.l2_lag) - 1
    if nxt >= NEVER:
        return NEVER
    nt = t + 1
    if nxt > t + 1:
        nt = nxt if nxt < t_limit else t_limit
        series = out.series
        for rr in range(row + 1, nt - t0):
            series[rr, 0] = f.total_warps - g[G.EXITED]
            for c in range(1, f.n_cols):
                series[rr, c] = series[row, c]
    return nt


# ------------------------------------------------------------------ the loop
@njit(nrt=False)
def run_cycles(prog, cfg, w, places, blocks, mem_r, out, t_limit):
    """Simulate cycles [g[G.T], t_limit), or fewer when the unit-busy overflow list is half full
    or the next-instruction event list could not take another cycle's events.

    The records: :data:`Program`, :data:`Config`, :data:`Warps`, :data:`Places` (sub-partitions and SMs),
    :data:`Blocks`, :data:`Memory`, :data:`Outputs`. Per cycle the stages: pending states, dispatch, then per
    due sub-partition classify, pick (by the policy), select and issue; record; skip an idle stretch."""
    f = _fixed(cfg, out.pe_t.shape[0], out.st_t.shape[0], out.series.shape[1], prog, places)
    g = out.g
    per_sp = f.per_sp
    t0 = g[G.T]
    t = t0
    elig = out.scratch[0:per_sp]
    due_sp = out.scratch[2 * per_sp:2 * per_sp + f.S * f.SP]
    rng_state = mem_r.rng[0]

    while t < t_limit and g[G.DONE] == 0:
        if (g[G.LOADED_BLOCKS] < f.total_blocks and g[G.DISPATCH] > 0
                and g[G.NEXT_BLOCK] + f.S > g[G.LOADED_BLOCKS]):
            break  # a streamed program: this cycle may place blocks not loaded yet; the engine loads them
        row = _ix(t - t0)
        _apply_pending(t, w, out)
        if g[G.NEXT_BLOCK] < f.total_blocks and g[G.DISPATCH] > 0:
            _dispatch(t, f, prog, cfg, w, places, blocks, out)
        issued = 0
        leaving = 0  # warps whose EXIT issued this cycle: still launched until t + 1
        # the sub-partitions where something can change this cycle (the rest are skipped)
        n_sp = _due(places.sp_next, t, due_sp)
        for d in range(n_sp):
            spi = _ix(due_sp[d])
            sm = _ix(spi >> f.sp_shift) if f.sp_pow2 else _ix(spi // f.SP)  # no division on every GPU's 4
            sp = _ix(spi - sm * f.SP)
            base = _ix(sm * f.W + sp * per_sp)  # this sub-partition's warps are contiguous
            sbase = _ix(sm * f.W + sp)  # its warp slots, SP apart (Warps.state)
            n_el, el_mask, nxt = _classify(t, f, prog, cfg, w, places, blocks, out, sm, spi, base, sbase, elig)
            if n_el > 0:
                if f.policy == TWO_LEVEL:
                    _two_level_active(f, w, base, sbase, elig, n_el, el_mask)
                pick = _pick_warp(f, w, places, spi, base, elig, n_el, el_mask)
                _select(t, f, prog, w, out, base, sbase, elig, n_el, pick)
                places.sp_last[spi] = pick
                issued += 1
                if n_el > 1 and t + 1 < nxt:
                    nxt = t + 1  # the warps not picked try again next cycle
                # -- issue the picked warp's instruction by its path, then move the warp to its next row
                gi = _ix(base + pick)
                b = w.block[gi]
                pc = _ix(w.pc[gi])
                path = prog.path[pc]
                if path == EXIT:
                    leaving += _issue_exit(t, f, w, places, blocks, out, gi, sm)
                    picked_next = t + 1
                else:
                    u = prog.unit[pc]
                    _hold_pipe(t, f, cfg, places, mem_r, spi, u, path)
                    if (path == GLOAD or path == GSTORE) and prog.req[pc] > 0:
                        rng_state = _issue_memory(t, f, prog, cfg, w, places, mem_r, out, path, pc, gi, sm, rng_state)
                    elif path == SHARED:
                        _issue_shared(t, f, prog, w, places, mem_r, pc, gi, sm)
                    elif path >= FIRST_ASYNC:
                        rng_state = _issue_pipeline(t, f, prog, cfg, w, places, blocks, mem_r, out, path, pc, gi,
                                                    b, sm, spi, rng_state)
                    else:
                        _issue_alu(t, f, prog, cfg, w, places, pc, gi, spi, u)
                    # the warp's next possible change: t + 1, or later if it waits
                    picked_next = _advance(t, f, prog, cfg, w, places, blocks, out, sm, sbase, pick, gi, b, pc,
                                           path)
                if picked_next < nxt:
                    nxt = picked_next
            places.sp_next[spi] = nxt
        _record(t, row, f, mem_r, out, issued, leaving)
        if g[G.EXITED] == f.total_warps and t + 1 >= _kernel_end(g, mem_r.mem, f.dram_bpc, f.l2_lag):
            # the kernel ends when its last warp has left and its posted stores have completed
            # (sim_model.toml [stores]); until then the memory system still works for it
            g[G.DONE] = 1
            t += 1
            break
        nt = t + 1
        if issued == 0:
            nt = _skip_idle(t, t0, row, t_limit, f, places, mem_r, out)
            if nt >= NEVER:
                g[G.DEADLOCK] = 1  # nothing can ever change: a model bug, reported by the engine
                g[G.DONE] = 1
                t += 1
                break
        t = nt
        if g[G.OVERFLOW] > mem_r.ovf.shape[0] // 2:
            break  # the overflow list fills: return early for the engine to grow ub (a cycle adds far fewer)
        if g[G.PC_EVENTS] > f.pe_room or g[G.ST_EVENTS] > f.st_room:
            break  # the next-instruction or state events fill: return early for the engine to collect them
    g[G.T] = t
    mem_r.rng[0] = rng_state


# a fresh install: the build's compiled loop, put where numba looks before anything is compiled
from explorer.jit import seed as _seed  # noqa: E402 - after the dispatchers it seeds

_seed.install(sys.modules[__name__])
