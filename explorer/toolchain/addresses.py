"""Where a workload's global accesses go: one layout for the generated CUDA kernel and for the simulator.

The generated kernel (``explorer.toolchain.codegen``) computes every global address from a few numbers:
a streaming buffer with, per iteration, a slab per global instruction (loads first, then stores),
each ``total_warps x 32 lanes x stride x bytes``; the stream restarting every ``wrap`` iterations (when the
buffer would pass ``STREAM_CAP_BYTES``, or sooner when the workload sets ``wrap``: then each warp re-reads its
own lines of the first ``wrap`` iterations, a per-warp working set);
and, when the workload asks for L1 or L2 hits, a warp-uniform random draw per access (a 32-bit LCG
seeded by the launch's seed and the warp) that sends the access to a small per-warp L1 slot, to an
L2-sized region whose addresses repeat every iteration, or to the stream. :func:`memory_layout`
computes those numbers once; codegen writes them into the kernel, and the simulator computes the same
addresses per warp and iteration (``kernel._request_lines``), so its caches see what the hardware saw
(issue 29: hits come from addresses, not from a rate).

The address space the simulator uses: the stream at byte 0, the hot regions at ``HOT_BASE``, the L2
flush buffer of a measured launch at ``FLUSH_BASE`` (explorer.gpu.compare), all 2 MiB aligned as the
driver aligns allocations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.model.tma_tiles import DATA_LIMIT

L1_SLOT_BYTES = 32 * 16  # one warp's L1-hit region: 32 lanes x 16 B
L1_SLOTS = 1024
STREAM_CAP_BYTES = 1 << 30  # the streaming buffer's largest size before addresses wrap
HOT_BASE = 1 << 40  # where the simulator places the hot regions (any 2 MiB-aligned place off the stream)
FLUSH_BASE = 1 << 41  # and a measured launch's L2 flush buffer
assert DATA_LIMIT <= HOT_BASE  # a TMA tile's addresses (explorer.model.tma_tiles) stay below the hot regions
LCG_A, LCG_C = 1664525, 1013904223  # we_rng = we_rng * A + C (mod 2^32), per global access
WARP_HASH = 2654435761  # the warp's seed: seed ^ (gwarp * WARP_HASH)

# per access, the columns of MemoryLayout.access_array (int64)
A_SLAB, A_STRIDE, A_BYTES, A_LOAD, A_INDEX = 0, 1, 2, 3, 4
A_COLS = 5
# the plan's scalars (MemoryLayout.plan_array)
P_ITER_BYTES, P_WRAP, P_N_ACCESS, P_HITS, P_T_L1, P_T_L2, P_L2_REGION, P_SEED, P_HOT_BASE = range(9)
P_COLS = 9


def _pow2_floor(x: int) -> int:
    return 1 << (max(1, x).bit_length() - 1)


@dataclass(frozen=True)
class MemoryLayout:
    """The numbers every global address of a generated kernel is made of (see the module docstring)."""

    in_slabs: tuple[int, ...]  # byte offset of each load's slab within an iteration (body order, counts expanded)
    out_slabs: tuple[int, ...]  # and of each store's
    iter_bytes: int
    footprint: int
    wrap: int  # the stream restarts every this many iterations
    buffer_bytes: int
    hits: bool  # the workload asks for L1 or L2 hits: accesses draw where they go
    l2_region: int
    hot_bytes: int
    t_l1: int  # a load goes to its L1 slot when the draw is below this (of 2^32)
    t_l2: int  # an access goes to the L2 region when the draw is below this (and not to L1)
    # per global access in source order (the order of the LCG's steps): slab, stride, bytes, is a load
    accesses: tuple[tuple[int, int, int, bool], ...]

    def access_array(self) -> np.ndarray:
        """int64[n, A_COLS]: per access in source order its slab, stride, element bytes, load flag, index."""
        a = np.zeros((max(1, len(self.accesses)), A_COLS), np.int64)
        for i, (slab, stride, nbytes, load) in enumerate(self.accesses):
            a[i] = (slab, stride, nbytes, int(load), i)
        return a

    def plan_array(self, seed: int) -> np.ndarray:
        """int64[P_COLS]: the scalars the cycle loop computes addresses with."""
        p = np.zeros(P_COLS, np.int64)
        p[P_ITER_BYTES] = self.iter_bytes
        p[P_WRAP] = max(1, self.wrap)
        p[P_N_ACCESS] = len(self.accesses)
        p[P_HITS] = int(self.hits)
        p[P_T_L1] = self.t_l1
        p[P_T_L2] = self.t_l2
        p[P_L2_REGION] = max(1, self.l2_region)
        p[P_SEED] = int(seed) & 0xFFFFFFFF
        p[P_HOT_BASE] = HOT_BASE
        return p


def memory_layout(workload, gpu, total_warps: int, stream_cap_bytes: int = STREAM_CAP_BYTES) -> MemoryLayout:
    """The layout of a workload's global accesses on ``gpu`` for a launch of ``total_warps`` warps."""
    in_slabs: list[int] = []
    out_slabs: list[int] = []
    iter_bytes = 0
    for op in workload.body:
        if op.op == "ldg":
            for _ in range(op.count):
                in_slabs.append(iter_bytes)
                iter_bytes += total_warps * 32 * op.stride * op.bytes
    for op in workload.body:
        if op.op == "stg":
            for _ in range(op.count):
                out_slabs.append(iter_bytes)
                iter_bytes += total_warps * 32 * op.stride * op.bytes
    footprint = iter_bytes * workload.loop
    wrap = max(1, min(workload.loop, stream_cap_bytes // iter_bytes)) if iter_bytes else workload.loop
    if workload.wrap:  # the workload's own: each warp re-reads its lines of the first ``wrap`` iterations
        wrap = min(wrap, workload.wrap)
    hits = workload.l1_hit_rate > 0 or workload.l2_hit_rate > 0
    l2_region = max(1 << 20, _pow2_floor(gpu.l2_bytes // 4)) if hits else 0
    hot_bytes = (L1_SLOTS * L1_SLOT_BYTES + l2_region) if hits else 0
    t_l1 = min(1 << 32, round(workload.l1_hit_rate * (1 << 32)))
    t_l2 = min(1 << 32, round((workload.l1_hit_rate + (1 - workload.l1_hit_rate) * workload.l2_hit_rate) * (1 << 32)))
    accesses = []
    q_in = q_out = 0
    for op in workload.body:  # source order: each op's accesses in turn, as codegen emits them
        if op.op == "ldg":
            for _ in range(op.count):
                accesses.append((in_slabs[q_in], op.stride, op.bytes, True))
                q_in += 1
        elif op.op == "stg":
            for _ in range(op.count):
                accesses.append((out_slabs[q_out], op.stride, op.bytes, False))
                q_out += 1
    return MemoryLayout(tuple(in_slabs), tuple(out_slabs), iter_bytes, footprint, wrap, iter_bytes * wrap, hits,
                        l2_region, hot_bytes, t_l1, t_l2, tuple(accesses))


def lcg_power(n: int) -> tuple[int, int]:
    """(a, c) with LCG^n(x) = a * x + c (mod 2^32): the draw after n steps (tested against stepping)."""
    a, c = 1, 0
    ba, bc = LCG_A, LCG_C
    while n:
        if n & 1:
            a, c = (ba * a) & 0xFFFFFFFF, (ba * c + bc) & 0xFFFFFFFF
        ba, bc = (ba * ba) & 0xFFFFFFFF, (ba * bc + bc) & 0xFFFFFFFF
        n >>= 1
    return a, c


def request_addresses(layout: MemoryLayout, seed: int, gwarp: int, iteration: int, access: int) -> np.ndarray:
    """uint64[32]: each lane's byte address of one access (the reference the cycle loop's version is tested
    against; kernel._request_lines computes the same in compiled code)."""
    slab, stride, nbytes, load = layout.accesses[access]
    lane = np.arange(32, dtype=np.int64)
    toff = (gwarp * 32 * stride + lane * stride) * nbytes
    if layout.hits:
        a, c = lcg_power(iteration * len(layout.accesses) + access + 1)
        x = ((seed & 0xFFFFFFFF) ^ ((gwarp * WARP_HASH) & 0xFFFFFFFF)) & 0xFFFFFFFF
        draw = (a * x + c) & 0xFFFFFFFF
        if load and draw < layout.t_l1:
            return (HOT_BASE + (gwarp & (L1_SLOTS - 1)) * L1_SLOT_BYTES + lane * 16).astype(np.uint64)
        if draw < layout.t_l2:
            off = ((toff + slab) % (1 << 32)) & (layout.l2_region - 1)
            return (HOT_BASE + L1_SLOTS * L1_SLOT_BYTES + off).astype(np.uint64)
    return (toff + slab + (iteration % max(1, layout.wrap)) * layout.iter_bytes).astype(np.uint64)


# ---------------------------------------------------------------------------------------------- TMA copies' tiles
# The table the cycle loop reads (int64[1 + operands, T_COLS], kernel._tma_copy_lines): row 0 the tile grid, then
# per operand of [workload.tiles] (explorer.model.tma_tiles), in the table's order (a tma row's ``arg`` - 1)
T_TILES_M, T_TILES_N, T_GROUP = 0, 1, 2
T_BASE, T_PITCH, T_BOX_ROWS, T_COPY_ROWS, T_ROW_BYTES, T_ROW_AT, T_COL_AT, T_MULTICAST, T_SHARE_AT = range(9)
T_COLS = 9
AXIS_CODE = {"m": 0, "n": 1, "k": 2}
LINE_BYTES, SECTOR_BYTES = 128, 32  # L2's lines and sectors (resources/sim_model.toml [caches])


@dataclass(frozen=True)
class TmaLayout:
    """Where each TMA copy of a workload's tiles reads (``[workload.tiles]``, explorer.model.tma_tiles): the
    table the cycle loop computes a copy's lines from, and the reference it is tested against."""

    tiles: object  # explorer.model.tma_tiles.TmaTiles

    def table(self) -> np.ndarray:
        """int64[1 + operands, T_COLS]: the tile grid, then each operand's numbers (kernel._tma_copy_lines)."""
        t = self.tiles
        tab = np.zeros((1 + len(t.operands), T_COLS), np.int64)
        tab[0, [T_TILES_M, T_TILES_N, T_GROUP]] = (t.grid[0], t.grid[1], t.group)
        for i, o in enumerate(t.operands, start=1):
            tab[i, T_BASE] = o.base
            tab[i, T_PITCH] = o.pitch
            tab[i, T_BOX_ROWS] = o.box[0]
            tab[i, T_COPY_ROWS] = o.copy_rows
            tab[i, T_ROW_BYTES] = o.row_bytes
            tab[i, T_ROW_AT] = AXIS_CODE[o.at[0]]
            tab[i, T_COL_AT] = AXIS_CODE[o.at[1]]
            tab[i, T_MULTICAST] = o.multicast
            tab[i, T_SHARE_AT] = AXIS_CODE[o.share_axis] if o.share_axis else -1
        return tab

    def max_lines(self) -> int:
        """The most lines one copy can touch (a row of ``row_bytes`` starting anywhere within a line spans at most
        row_bytes // 128 + 2 lines): the loop's scratch for a copy's lines is this long."""
        return max(o.copy_rows * (o.row_bytes // LINE_BYTES + 2) for o in self.tiles.operands)

    def copy_rows(self, block: int, iteration: int, operand: str) -> tuple[int, int, int, int]:
        """(first byte, rows, bytes per row, pitch) of block ``block``'s copy of ``operand`` in K-step
        ``iteration``."""
        t = self.tiles
        o = t.operands[t.index(operand)]
        m, n = t.position(block)
        idx = {"m": m, "n": n, "k": iteration}
        row0 = idx[o.at[0]] * o.box[0]
        if o.multicast > 1:
            row0 += (idx[o.share_axis] % o.multicast) * o.copy_rows
        return o.base + row0 * o.pitch + idx[o.at[1]] * o.row_bytes, o.copy_rows, o.row_bytes, o.pitch

    def copy_lines(self, block: int, iteration: int, operand: str) -> dict[int, int]:
        """{line: its sectors (4 bits)} one copy reads, from its bytes (the reference for kernel._tma_copy_lines)."""
        first, rows, row_bytes, pitch = self.copy_rows(block, iteration, operand)
        starts = first + pitch * np.arange(rows, dtype=np.int64)
        sectors = np.unique(np.concatenate([np.arange(a // SECTOR_BYTES, (a + row_bytes - 1) // SECTOR_BYTES + 1)
                                            for a in starts.tolist()]))
        out: dict[int, int] = {}
        for sec in sectors.tolist():
            out[sec >> 2] = out.get(sec >> 2, 0) | (1 << (sec & 3))
        return out

    def first_touch_bytes(self, blocks: int, loop: int) -> int:
        """Bytes of the distinct copies a launch of ``blocks`` blocks over ``loop`` K-steps makes (each operand's tiles,
        or multicast slices, that some block copies): what L2 must fetch at least once, all other copies of a tile
        hitting if nothing is evicted. Tiles whose edges share a line are counted apart (an estimate: the loop's
        up-front bound of device-memory traffic, engine.estimate_cycles)."""
        t = self.tiles
        b = np.arange(min(blocks, t.tiles), dtype=np.int64)
        span = t.group * t.grid[1]
        first = b // span * t.group
        rows = np.minimum(t.group, t.grid[0] - first)
        within = b % span
        idx = {"m": first + within % rows, "n": within // rows}
        total = 0
        for o in t.operands:
            keys = [idx[a] for a in o.at if a != "k"]
            if o.share_axis:
                keys.append(idx[o.share_axis] % o.multicast)
            distinct = len(np.unique(np.stack(keys), axis=1).T) if keys else 1
            total += distinct * (loop if "k" in o.at else 1) * o.copy_bytes
        return int(total)


def tma_layout(tiles) -> TmaLayout:
    """The layout of a workload's TMA copies (``Workload.tiles``, explorer.model.tma_tiles.TmaTiles)."""
    return TmaLayout(tiles)
