"""Plain-language answers to "what limits occupancy, and what would raise it?".

Each hint is computed, not canned: it re-runs the calculator with one input
changed to find the smallest change that buys another block per SM.
"""

from __future__ import annotations

from explorer.model.catalog import GpuSpec
from explorer.occupancy.calc import OccupancyResult
from explorer.occupancy.sweeps import Query, best_block_size


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _state(r: OccupancyResult) -> str:
    blocks = "1 block" if r.active_blocks_per_sm == 1 else f"{r.active_blocks_per_sm} blocks"
    return f"{blocks} per SM ({r.active_warps_per_sm} of {r.max_warps_per_sm} warps, {_pct(r.occupancy)})"


def _registers_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> str:
    arch = gpu.arch
    if q.registers > arch.max_registers_per_thread:
        return (f"{q.registers} registers per thread is above the hardware maximum of "
                f"{arch.max_registers_per_thread}: the kernel cannot launch.")
    for regs in range(q.registers - 1, 0, -1):
        better = q.run(gpu, registers=regs)
        if better.active_blocks_per_sm > r.active_blocks_per_sm:
            return (f"Registers limit you to {_state(r)}. With at most {regs} registers per thread, "
                    f"{_state(better)} would fit.")
    return f"Registers limit you to {_state(r)}; fewer registers alone would not help, another limit binds too."


def _shared_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> str:
    arch = gpu.arch
    asked = q.static_shared + q.dynamic_shared
    if r.active_blocks_per_sm == 0:
        return (f"The block needs {r.allocated_shared_per_block} bytes of shared memory (with "
                f"{arch.shared_reserved_per_block} reserved), above the per-block limit of "
                f"{r.shared_limit_per_block}: the kernel cannot launch.")
    text = f"Shared memory limits you to {_state(r)}."
    if q.carveout != -1:
        wider = q.run(gpu, carveout=100)
        if wider.active_blocks_per_sm > r.active_blocks_per_sm:
            text += f" The carveout of {q.carveout}% leaves {r.shared_per_sm_config // 1024} KB; 100% would allow {_state(wider)}."
    unit = arch.shared_alloc_unit
    for size in range((asked // unit) * unit - (unit if asked % unit == 0 else 0), -1, -unit):
        better = q.run(gpu, static_shared=0, dynamic_shared=size)
        if better.active_blocks_per_sm > r.active_blocks_per_sm:
            return text + f" With at most {size} bytes per block, {_state(better)} would fit."
    return text


def _warps_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> str:
    arch = gpu.arch
    if q.threads > arch.max_threads_per_block:
        return (f"{q.threads} threads per block is above the limit of {arch.max_threads_per_block}: "
                "the kernel cannot launch.")
    if r.occupancy >= 1.0:
        return f"Every warp slot is in use: {_state(r)}."
    size, blocks = best_block_size(gpu, q)
    empty = r.max_warps_per_sm - r.active_warps_per_sm
    text = (f"Blocks of {r.warps_per_block} warps leave {empty} of {r.max_warps_per_sm} warp slots empty "
            f"({_state(r)}).")
    if size and size != q.threads:
        best = q.run(gpu, threads=size)
        if best.occupancy > r.occupancy:
            text += f" Blocks of {size} threads would reach {_pct(best.occupancy)}."
    return text


def _blocks_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> str:
    arch = gpu.arch
    warps_needed = -(-arch.max_warps_per_sm // arch.max_blocks_per_sm)
    text = f"An SM holds at most {arch.max_blocks_per_sm} blocks: {_state(r)}."
    if r.occupancy < 1.0:
        text += f" Blocks of at least {warps_needed * arch.warp_size} threads could fill every warp slot."
    return text


def _barriers_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> str:
    arch = gpu.arch
    total = arch.max_blocks_per_sm * arch.barriers_per_block_slot
    return (f"Named barriers limit you to {_state(r)}: the SM has {total} and each block uses {q.barriers}.")


_HINTS = {
    "registers": _registers_hint,
    "shared_memory": _shared_hint,
    "warps": _warps_hint,
    "blocks": _blocks_hint,
    "barriers": _barriers_hint,
}


def _headroom(gpu: GpuSpec, q: Query, r: OccupancyResult) -> list[str]:
    """At full occupancy: how much more of each resource the kernel could use first."""
    out = []
    for regs in range(q.registers + 1, gpu.arch.max_registers_per_thread + 1):
        if q.run(gpu, registers=regs).active_blocks_per_sm < r.active_blocks_per_sm:
            out.append(f"Registers are at the edge: {regs} or more per thread would drop occupancy."
                       if regs == q.registers + 1 else
                       f"Up to {regs - 1} registers per thread keep full occupancy.")
            break
    return out


def hints(gpu: GpuSpec, q: Query, r: OccupancyResult) -> list[str]:
    """One sentence or two per limiting resource, most actionable first."""
    if r.active_blocks_per_sm and r.occupancy >= 1.0:
        return [f"Every warp slot is in use: {_state(r)}."] + _headroom(gpu, q, r)
    order = ("registers", "shared_memory", "warps", "blocks", "barriers")
    return [_HINTS[name](gpu, q, r) for name in order if name in r.limiters]
