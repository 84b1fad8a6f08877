"""Theoretical occupancy, computed by NVIDIA's rules.

A re-implementation (not a copy) of the rules in the CUDA toolkit's
``cuda_occupancy.h`` for the compute capabilities in our catalog (7.0 and newer),
which the test suite checks against the header itself, config by config:

* warps: ``floor(max warps per SM / ceil(threads / 32))``; a block above 1024
  threads fits nowhere;
* registers: per warp ``ceil(regs * 32 / 256) * 256``; each of the SM's
  sub-partitions holds ``floor((regs per SM / sub-partitions) / regs per warp)``
  warps; the block must also pass the per-block checks (its warps rounded up to
  the sub-partition count, and the per-thread maximum);
* shared memory: per block ``static + dynamic + reserved`` (1 KB from CC 8.0)
  rounded up to the allocation unit (256 B up to 7.x, 128 B from 8.0); the SM's
  capacity is the carveout preference rounded up to the next supported size, or
  raised to the smallest supported size that holds one block; a block above the
  per-block limit (48 KB, or the opt-in maximum when the kernel asks for more)
  fits nowhere;
* blocks: the per-architecture block-slot limit;
* barriers (CC >= 9.0): named barriers available (1 or 2 per block slot) / barriers
  per block.

The result is the minimum; the *limiters* are every resource whose limit equals it.

Assumptions where the header leaves a choice open (documented in docs/cli.md, `occupancy`): the
kernel opts in to exactly the dynamic shared memory it launches with (what a
program using more than 48 KB must do), and it uses ``barriers`` named barriers
(default 1: ``__syncthreads``), as the header assumes for a kernel's attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, asdict

from explorer.model.catalog import ArchSpec, GpuSpec
from explorer.model.errors import InputError, require_int
from explorer.model.scenario import BYTES_MAX, MAX_BARRIERS
from explorer.texts.errors import ERRORS
from explorer.texts.message import Message

LIMITERS = ("warps", "registers", "shared_memory", "blocks", "barriers")
LIMITER_TEXT = {
    "warps": "warp slots (threads per SM)",
    "registers": "registers",
    "shared_memory": "shared memory",
    "blocks": "block slots per SM",
    "barriers": "named barriers",
}


@dataclass(frozen=True)
class OccupancyResult:
    """Everything the calculator knows about one configuration on one architecture."""

    active_blocks_per_sm: int
    active_warps_per_sm: int
    max_warps_per_sm: int
    occupancy: float
    block_limits: dict  # resource -> blocks per SM it allows (None: no limit)
    limiters: tuple[str, ...]
    warps_per_block: int
    allocated_registers_per_block: int
    allocated_registers_per_warp: int
    allocated_shared_per_block: int
    shared_per_sm_config: int  # the SM's shared-memory capacity under this launch
    shared_limit_per_block: int  # the most one block may allocate (incl. reserved)

    def to_json(self) -> dict:
        d = asdict(self)
        d["limiters"] = list(self.limiters)
        return d


def _carveout_capacity(arch: ArchSpec, wanted: int) -> int | None:
    """Round a shared-memory capacity up to the next size the SM supports."""
    for kb in arch.carveout_kb:
        if wanted <= kb * 1024:
            return kb * 1024
    return None


def shared_per_sm_preference(arch: ArchSpec, carveout: int) -> int:
    """The SM's shared-memory capacity the carveout preference asks for."""
    if carveout == -1:
        wanted = arch.shared_per_sm
    else:
        wanted = carveout * arch.shared_per_sm // 100
    capacity = _carveout_capacity(arch, wanted)
    assert capacity is not None  # wanted <= shared_per_sm, which the catalog checks is listed
    return capacity


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _round_up(a: int, b: int) -> int:
    return _ceil_div(a, b) * b


def validate_inputs(threads, registers, static_shared, dynamic_shared, carveout, barriers):
    """Type/range checks for a calculator query; returns the values as ints.

    Values the hardware cannot run (threads > 1024, registers above the header's
    per-thread maximum, shared memory above the opt-in limit) are *not* errors: they give 0 blocks with a limiter, as
    NVIDIA's calculator does. Only nonsense (negative, non-integer, absurd) is.
    """
    return (
        require_int("threads", threads, lo=1, hi=BYTES_MAX),
        require_int("regs", registers, lo=0, hi=65536),
        require_int("smem_static", static_shared, lo=0, hi=BYTES_MAX),
        require_int("smem_dynamic", dynamic_shared, lo=0, hi=BYTES_MAX),
        _carveout(carveout),
        require_int("barriers", barriers, lo=0, hi=MAX_BARRIERS),
    )


def _carveout(value) -> int:
    value = require_int("carveout", value, lo=-1, hi=100)
    return value


def theoretical_occupancy(
    target: GpuSpec | ArchSpec,
    threads: int,
    registers: int,
    static_shared: int = 0,
    dynamic_shared: int = 0,
    carveout: int = -1,
    barriers: int = 1,
) -> OccupancyResult:
    arch = target.arch if isinstance(target, GpuSpec) else target
    threads, registers, static_shared, dynamic_shared, carveout, barriers = validate_inputs(
        threads, registers, static_shared, dynamic_shared, carveout, barriers
    )
    warp = arch.warp_size
    max_warps = arch.max_warps_per_sm
    warps_per_block = _ceil_div(threads, warp)

    # -- warps ------------------------------------------------------------------
    limit_warps = 0 if threads > arch.max_threads_per_block else max_warps // warps_per_block

    # -- registers --------------------------------------------------------------
    regs_per_warp = _round_up(registers * warp, arch.register_alloc_unit)
    regs_per_block = regs_per_warp * warps_per_block
    regs_checked_per_block = regs_per_warp * _round_up(warps_per_block, arch.sub_partitions)
    if (
        regs_checked_per_block > arch.registers_per_block
        or regs_per_block > arch.registers_per_block
        or registers > arch.reg_alloc_max_per_thread
    ):
        limit_regs: int | None = 0
    elif regs_per_warp == 0:
        limit_regs = None
    else:
        warps_per_sub_partition = (arch.registers_per_sm // arch.sub_partitions) // regs_per_warp
        limit_regs = (warps_per_sub_partition * arch.sub_partitions) // warps_per_block

    # -- shared memory ----------------------------------------------------------
    static_total = static_shared + arch.shared_reserved_per_block
    smem_per_block = _round_up(static_total + dynamic_shared, arch.shared_alloc_unit)
    # the kernel opts in to exactly its dynamic size, so the opt-in limit applies
    # when static + reserved + dynamic exceeds the default per-block limit
    wants_optin = static_total + dynamic_shared > arch.shared_per_block
    smem_limit_block = (arch.shared_per_block_optin if wants_optin else arch.shared_per_block) + (
        arch.shared_reserved_per_block
    )
    preference = shared_per_sm_preference(arch, carveout)
    if smem_per_block > smem_limit_block:
        limit_smem: int | None = 0
        smem_per_sm = preference
    else:
        if preference >= smem_per_block:
            smem_per_sm = preference
        else:
            raised = _carveout_capacity(arch, smem_per_block)
            smem_per_sm = raised if raised is not None else preference
        limit_smem = None if smem_per_block == 0 else smem_per_sm // smem_per_block

    # -- block slots ------------------------------------------------------------
    limit_blocks = arch.max_blocks_per_sm

    def value(x: int | None) -> float:
        return float("inf") if x is None else x

    limits = {"warps": limit_warps, "registers": limit_regs, "shared_memory": limit_smem, "blocks": limit_blocks}
    result = int(min(value(v) for v in limits.values()))
    limiters = [name for name, v in limits.items() if value(v) == result]

    # -- named barriers (CC >= 9.0) ---------------------------------------------
    limit_bars: int | None = None
    if arch.cc[0] >= 9 and barriers > 0:
        limit_bars = (arch.max_blocks_per_sm * arch.barriers_per_block_slot) // barriers
        result = min(result, limit_bars)
        if limit_bars == result:
            limiters.append("barriers")
    limits["barriers"] = limit_bars
    # the header tests each resource against the final minimum only for barriers;
    # a barrier limit below the rest makes it the sole limiter
    limiters = [name for name in limiters if value(limits[name]) == result]

    active_warps = result * warps_per_block
    return OccupancyResult(
        active_blocks_per_sm=result,
        active_warps_per_sm=active_warps,
        max_warps_per_sm=max_warps,
        occupancy=active_warps / max_warps,
        block_limits=limits,
        limiters=tuple(limiters),
        warps_per_block=warps_per_block,
        allocated_registers_per_block=regs_per_block,
        allocated_registers_per_warp=regs_per_warp,
        allocated_shared_per_block=smem_per_block,
        shared_per_sm_config=smem_per_sm,
        shared_limit_per_block=smem_limit_block,
    )


def occupancy_for_launch(gpu: GpuSpec, launch) -> OccupancyResult:
    """Theoretical occupancy of a scenario's launch configuration."""
    return theoretical_occupancy(
        gpu,
        launch.threads_per_block,
        launch.registers_per_thread,
        launch.static_shared_bytes,
        launch.dynamic_shared_bytes,
        launch.carveout,
        launch.barriers,
    )


def no_block_reasons(gpu: GpuSpec, launch, result: OccupancyResult) -> list[tuple[str, Message]]:
    """(field, message) for each resource that forbids a single block; the window marks each field."""
    arch = gpu.arch
    reasons = []
    if "warps" in result.limiters:
        reasons.append(("launch.block", ERRORS("threads_above_limit", threads=launch.threads_per_block,
                                               limit=arch.max_threads_per_block)))
    if "registers" in result.limiters:
        if launch.registers_per_thread > arch.reg_alloc_max_per_thread:  # the number the test above used
            reasons.append(("launch.registers_per_thread", ERRORS(
                "registers_above_limit", value=launch.registers_per_thread, limit=arch.reg_alloc_max_per_thread)))
        else:
            reasons.append(("launch.registers_per_thread", ERRORS(
                "registers_per_block", regs=launch.registers_per_thread, threads=launch.threads_per_block,
                need=result.allocated_registers_per_block, limit=arch.registers_per_block)))
    if "shared_memory" in result.limiters:
        reasons.append(("launch.dynamic_shared_bytes", ERRORS(
            "shared_per_block", need=result.allocated_shared_per_block, reserved=arch.shared_reserved_per_block,
            limit=result.shared_limit_per_block)))
    if "barriers" in result.limiters:
        reasons.append(("launch.barriers", ERRORS("barriers_no_slot", value=launch.barriers)))
    return reasons


def why_no_block_fits(gpu: GpuSpec, launch, result: OccupancyResult) -> str:
    """One line naming the resource that forbids a single block (for exit code 2)."""
    return ("; ".join(f"{name}: {message}" for name, message in no_block_reasons(gpu, launch, result))
            or "no block of this launch fits on an SM")


def occupancy_that_fits(gpu: GpuSpec, launch) -> OccupancyResult:
    """The launch's occupancy, or InputError (exit code 2) naming what forbids a single block: the one check
    every path that runs a launch (simulate, execute, measure) makes first."""
    occ = occupancy_for_launch(gpu, launch)
    if occ.active_blocks_per_sm == 0:
        raise InputError("", why_no_block_fits(gpu, launch, occ))  # the message names its fields
    return occ
