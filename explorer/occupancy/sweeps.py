"""Occupancy as one input varies: the three Nsight-style graphs and the best block size."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.model.catalog import GpuSpec
from explorer.occupancy.calc import theoretical_occupancy


@dataclass(frozen=True)
class Query:
    """One calculator input: the launch-side numbers theoretical occupancy depends on."""

    threads: int
    registers: int
    static_shared: int = 0
    dynamic_shared: int = 0
    carveout: int = -1
    barriers: int = 1

    def run(self, gpu: GpuSpec, **changes):
        values = {**self.__dict__, **changes}
        return theoretical_occupancy(
            gpu,
            values["threads"],
            values["registers"],
            values["static_shared"],
            values["dynamic_shared"],
            values["carveout"],
            values["barriers"],
        )


@dataclass(frozen=True)
class Sweep:
    """x values and the occupancy (0..1) and active warps per SM at each."""

    name: str
    x_label: str
    xs: tuple[int, ...]
    occupancy: tuple[float, ...]
    active_warps: tuple[int, ...]
    current_x: int


def sweep_threads(gpu: GpuSpec, q: Query) -> Sweep:
    """Occupancy vs threads per block, every warp multiple up to the block limit."""
    step = gpu.arch.warp_size
    xs = sorted(set(range(step, gpu.arch.max_threads_per_block + 1, step)) | {min(q.threads, gpu.arch.max_threads_per_block)})
    results = [q.run(gpu, threads=x) for x in xs]
    return Sweep("threads", "threads per block", tuple(xs), tuple(r.occupancy for r in results),
                 tuple(r.active_warps_per_sm for r in results), q.threads)


def sweep_registers(gpu: GpuSpec, q: Query) -> Sweep:
    """Occupancy vs registers per thread, 1 to the per-thread maximum."""
    xs = list(range(1, gpu.arch.max_registers_per_thread + 1))
    results = [q.run(gpu, registers=x) for x in xs]
    return Sweep("registers", "registers per thread", tuple(xs), tuple(r.occupancy for r in results),
                 tuple(r.active_warps_per_sm for r in results), q.registers)


def sweep_shared(gpu: GpuSpec, q: Query, points: int = 0) -> Sweep:
    """Occupancy vs shared memory per block (static + dynamic), up to the opt-in limit.

    The x axis is the bytes the kernel asks for (static + dynamic, without the
    reserved 1 KB); steps are the allocation unit so every step of the curve shows.
    """
    arch = gpu.arch
    top = arch.shared_per_block_optin
    step = arch.shared_alloc_unit if not points else max(arch.shared_alloc_unit, top // points)
    xs = sorted(set(range(0, top + 1, step)) | {min(q.static_shared + q.dynamic_shared, top)})
    results = [q.run(gpu, static_shared=0, dynamic_shared=x) for x in xs]
    return Sweep("shared", "shared memory per block (bytes)", tuple(xs), tuple(r.occupancy for r in results),
                 tuple(r.active_warps_per_sm for r in results), q.static_shared + q.dynamic_shared)


def best_block_size(gpu: GpuSpec, q: Query) -> tuple[int, int]:
    """(block size, blocks per SM) with the most active threads per SM.

    NVIDIA's launch configurator rule (``cudaOccMaxPotentialOccupancyBlockSize``):
    try block sizes from the largest warp multiple down, keep the first that gives
    strictly more active threads, stop early at full occupancy. Ties go to the
    larger block.
    """
    arch = gpu.arch
    best_threads, best_size, best_blocks = 0, 0, 0
    for size in range(arch.max_threads_per_block, 0, -arch.warp_size):
        blocks = q.run(gpu, threads=size).active_blocks_per_sm
        if size * blocks > best_threads:
            best_threads, best_size, best_blocks = size * blocks, size, blocks
        if best_threads == arch.max_threads_per_sm:
            break
    return best_size, best_blocks
