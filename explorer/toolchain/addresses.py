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

L1_SLOT_BYTES = 32 * 16  # one warp's L1-hit region: 32 lanes x 16 B
L1_SLOTS = 1024
STREAM_CAP_BYTES = 1 << 30  # the streaming buffer's largest size before addresses wrap
HOT_BASE = 1 << 40  # where the simulator places the hot regions (any 2 MiB-aligned place off the stream)
FLUSH_BASE = 1 << 41  # and a measured launch's L2 flush buffer
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
