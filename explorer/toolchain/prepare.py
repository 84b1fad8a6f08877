"""Prepare a scenario's kernel for a GPU: generate it, compile it, steer its registers. No GPU needed.

The step before a measurement (``explorer.gpu.measure``) and the whole of ``measure --dry-run``; the
default simulation's own SASS (``explorer.sass.kernel_program``) is compiled from what it prepares, so
it lives here, below the simulator, and not with the device.

Registers: ``__launch_bounds__``/``--maxrregcount`` can only lower a kernel's register
count. When the scenario asks for fewer registers than the compiler uses, the kernel
is recompiled with ``--maxrregcount``; when it asks for more, nothing can force them.
Either way the count the compiler produced is reported (and the overlay should
re-simulate with it: :func:`explorer.gpu.measure.resim_scenario`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from explorer.model.atomic import atomic_write_bytes, atomic_write_text
from explorer.model.catalog import GpuSpec
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.occupancy import occupancy_for_launch, occupancy_that_fits, theoretical_occupancy
from explorer.toolchain.codegen import GeneratedKernel, generate
from explorer.toolchain.compiler import CompileResult, compile_source
from explorer.toolchain.errors import CompileError
from explorer.toolchain.folders import user_output_dir
from explorer.toolchain.names import slug

MIN_MAXRREGCOUNT = 16  # ptxas does not go below this


@dataclass
class Prepared:
    scenario: Scenario
    gpu: GpuSpec  # the catalog GPU the kernel is built for
    arch: str
    generated: GeneratedKernel
    compiled: CompileResult
    steering: dict
    occupancy_scenario: dict
    occupancy_compiled: dict
    notes: list[str] = field(default_factory=list)
    occupancy_pad_bytes: int = 0  # dynamic shared memory added so blocks/SM match the scenario

    @property
    def dynamic_shared_bytes(self) -> int:
        return self.generated.dynamic_shared_bytes + self.occupancy_pad_bytes

    def to_json(self) -> dict:
        r = self.compiled.resources
        return {
            "scenario": self.scenario.name,
            "gpu": self.gpu.name,
            "arch": self.arch,
            "kernel": self.compiled.symbol,
            "compiler": self.compiled.compiler,
            "registers": r.registers,
            "static_shared_bytes": r.static_shared_bytes,
            "dynamic_shared_bytes": self.dynamic_shared_bytes,
            "spill_bytes": r.spill_bytes,
            "barriers": r.barriers,
            "stack_frame_bytes": r.stack_frame_bytes,
            "max_threads_per_block": r.max_threads_per_block,
            "registers_requested": self.steering["requested"],
            "registers_natural": self.steering["natural"],
            "maxrregcount": self.steering.get("maxrregcount"),
            "occupancy_pad_bytes": self.occupancy_pad_bytes,
            "records": self.generated.records,
            "per_warp": self.generated.per_warp,
            "buffer_bytes": self.generated.buffer_bytes,
            "occupancy_scenario": self.occupancy_scenario,
            "occupancy_compiled": self.occupancy_compiled,
            "notes": list(self.notes),
        }


def _occ_json(result) -> dict:
    return {"active_blocks_per_sm": result.active_blocks_per_sm, "active_warps_per_sm": result.active_warps_per_sm,
            "occupancy": result.occupancy, "limiters": list(result.limiters),
            "block_limits": dict(result.block_limits)}


def check_launch_fits(scenario: Scenario) -> None:
    occupancy_that_fits(scenario.gpu, scenario.launch)


def occupancy_pad(gpu: GpuSpec, launch, registers: int, static_shared: int, dynamic_shared: int, barriers: int,
                  target_blocks: int) -> int:
    """The least extra dynamic shared memory that brings blocks/SM down to ``target_blocks`` (0 if none can)."""
    arch = gpu.arch
    unit = arch.shared_alloc_unit

    def blocks(pad: int) -> int:
        return theoretical_occupancy(gpu, launch.threads_per_block, registers, static_shared, dynamic_shared + pad,
                                     launch.carveout, barriers).active_blocks_per_sm

    if blocks(0) <= target_blocks:
        return 0
    hi = max(0, arch.shared_per_block_optin - static_shared - dynamic_shared)
    hi -= hi % unit
    if blocks(hi) > target_blocks:
        return 0
    lo = 0  # blocks(lo) > target, blocks(hi) <= target
    while hi - lo > unit:
        mid = (lo + hi) // 2
        mid -= mid % unit
        if mid <= lo:
            break
        if blocks(mid) > target_blocks:
            lo = mid
        else:
            hi = mid
    return hi if blocks(hi) == target_blocks else 0


def prepare(scenario: Scenario, *, gpu: GpuSpec | None = None, per_warp: bool | None = None,
            steer_registers: bool = True, match_occupancy: bool = False, iteration_clocks: bool = False) -> Prepared:
    """Generate and compile the scenario's kernel for ``gpu`` (default: the scenario's GPU). No GPU needed.

    ``match_occupancy``: when the compiled kernel would fit more blocks per SM than the
    scenario (it uses fewer registers than the scenario says), request extra dynamic
    shared memory so the SM holds exactly the scenario's number of blocks.
    ``iteration_clocks``: the diagnostic kernel that also records each warp's iteration clocks
    (:func:`explorer.toolchain.codegen.generate` says what it writes and costs).
    """
    check_launch_fits(scenario)
    gpu = gpu or scenario.gpu
    arch = gpu.arch.sm_arch
    gen = generate(scenario, per_warp=per_warp, gpu=gpu, iteration_clocks=iteration_clocks)
    name = f"{slug(scenario.name)}.cu"  # what compiler messages call the generated source
    compiled = compile_source(gen.source, gen.kernel, arch, filename=name)
    want = scenario.launch.registers_per_thread
    natural = compiled.resources.registers
    steering = {"requested": want, "natural": natural}
    notes = list(gen.notes)
    if steer_registers and 0 < want < natural:
        limit = max(want, MIN_MAXRREGCOUNT)
        try:  # __maxnreg__ (CUDA 12.4+): ptxas ignores --maxrregcount under __launch_bounds__
            gen = generate(scenario, per_warp=per_warp, gpu=gpu, max_registers=limit,
                           iteration_clocks=iteration_clocks)
            compiled = compile_source(gen.source, gen.kernel, arch, filename=name)
            steering["method"] = "__maxnreg__"
        except CompileError:
            gen = generate(scenario, per_warp=per_warp, gpu=gpu, launch_bounds=False,
                           iteration_clocks=iteration_clocks)
            compiled = compile_source(gen.source, gen.kernel, arch, filename=name, maxrregcount=limit)
            steering["method"] = "--maxrregcount"
        steering["maxrregcount"] = limit
    actual = compiled.resources.registers
    steering["actual"] = actual
    if want and actual != want:
        why = ("registers can only be lowered (maxrregcount / __launch_bounds__), never forced up"
               if actual < want else "the compiler could not fit the kernel in fewer")
        notes.append(f"the scenario asks for {want} registers per thread, the compiled kernel uses {actual}: {why}; "
                     f"re-simulate with {actual} for a fair comparison")
    if compiled.resources.spill_bytes:
        notes.append(f"the kernel spills {compiled.resources.spill_bytes} B per thread to local memory")
    r = compiled.resources
    occ_s = occupancy_for_launch(gpu, scenario.launch)
    occ_c = theoretical_occupancy(gpu, scenario.launch.threads_per_block, r.registers, r.static_shared_bytes,
                                  gen.dynamic_shared_bytes, scenario.launch.carveout, r.barriers)
    if occ_c.active_blocks_per_sm == 0:
        raise InputError("launch", f"the compiled kernel fits no block on an SM ({r.registers} registers, "
                                   f"{r.static_shared_bytes} B static + {gen.dynamic_shared_bytes} B dynamic shared "
                                   f"memory; limiters: {', '.join(occ_c.limiters)})")
    pad = 0
    if match_occupancy and occ_c.active_blocks_per_sm > occ_s.active_blocks_per_sm:
        pad = occupancy_pad(gpu, scenario.launch, r.registers, r.static_shared_bytes, gen.dynamic_shared_bytes,
                            r.barriers, occ_s.active_blocks_per_sm)
        if pad:
            occ_c = theoretical_occupancy(gpu, scenario.launch.threads_per_block, r.registers, r.static_shared_bytes,
                                          gen.dynamic_shared_bytes + pad, scenario.launch.carveout, r.barriers)
            notes.append(f"{pad} B of dynamic shared memory added per block so an SM holds "
                         f"{occ_c.active_blocks_per_sm} blocks, as the scenario's {want} registers allow")
        else:
            notes.append("cannot match the scenario's occupancy with shared-memory padding")
    if occ_c.active_blocks_per_sm != occ_s.active_blocks_per_sm:
        notes.append(f"theoretical occupancy: {occ_s.active_blocks_per_sm} blocks/SM as the scenario says, "
                     f"{occ_c.active_blocks_per_sm} with the compiled kernel's resources")
    return Prepared(scenario=scenario, gpu=gpu, arch=arch, generated=gen, compiled=compiled, steering=steering,
                    occupancy_scenario=_occ_json(occ_s), occupancy_compiled=_occ_json(occ_c), notes=notes,
                    occupancy_pad_bytes=pad)


def write_sources(prepared: Prepared, stem: str | os.PathLike) -> tuple[Path, Path]:
    """Write ``STEM.cu`` and ``STEM.cubin`` (each atomically); return their paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    src = stem.with_name(stem.name + ".cu")
    cubin = stem.with_name(stem.name + ".cubin")
    atomic_write_text(src, prepared.generated.source)
    atomic_write_bytes(cubin, prepared.compiled.cubin)
    return src, cubin


def dry_run_stem(prepared: Prepared, out: str | os.PathLike | None = None) -> Path:
    """Where ``measure --dry-run`` writes: ``--out`` (a file stem or a folder), else the per-user folder.

    Only the slug of the scenario's name is part of a path we choose, so a name like
    ``../../x`` stays a file inside the folder. The kernel with the iteration-clock probe gets its own
    name (``-iterations``): a dry run of it must not replace the plain kernel's source beside it.
    """
    name = f"{slug(prepared.scenario.name)}-{prepared.arch}"
    if prepared.generated.iteration_clock_words:  # the probed kernel never overwrites the plain one's files
        name += "-iterations"
    if out is None:
        return user_output_dir("kernels") / name
    out = Path(out)
    if out.is_dir():
        return out / name
    return out.with_suffix("") if out.suffix else out
