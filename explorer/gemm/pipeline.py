"""Which main loop a GEMM runs, and how its pipeline moves the operands (plain data).

Three paths, named after the instruction that does the math:

* ``mma.sync`` (Volta..Ada, and Hopper/Blackwell when asked): CUTLASS 2.x
  multistage kernels. Every warp copies part of each stage global -> shared
  (``cp.async`` from CC 8.0, LDG + STS before), waits at ``__syncthreads``, loads
  its A and B fragments shared -> registers (``ldmatrix``) and issues warp-level
  ``mma.sync``. Both operands are staged through registers.
* ``wgmma`` (CC 9.0 ``wgmma.mma_async``; CC 10.0 ``tcgen05.mma``): CUTLASS 3.x
  warp-specialized persistent kernels. A producer warp issues TMA bulk copies
  (``cp.async.bulk.tensor``) that complete on mbarriers; consumer warpgroups issue
  asynchronous MMAs that read A and B from shared memory through descriptors, so
  B is never staged in registers (A may be, in the RS variant).
* ``simt``: FP32 GEMMs on the CUDA cores (FFMA), with the mma.sync path's
  multistage structure (CUTLASS's SIMT SGEMM).

:func:`resolve_path` picks the default (wgmma where the GPU has it) and refuses a
path the GPU or data type cannot run; :class:`Pipeline` describes the chosen
path's stages for the views (the TMA -> shared -> wgmma -> registers -> epilogue
diagram) and the JSON output.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.gemm.data import SCHEDULES, DTypeSpec, gemm_data
from explorer.model.catalog import GpuSpec
from explorer.model.errors import InputError
from explorer.texts.errors import ERRORS

PATHS = ("mma.sync", "wgmma", "simt")
A_SOURCES = ("shared", "registers")


def wgmma_capable(gpu: GpuSpec) -> bool:
    return gpu.compute_capability in gemm_data().wgmma.compute_capabilities


def resolve_path(gpu: GpuSpec, dt: DTypeSpec, path=None) -> str:
    """The main-loop path for this GPU and type: ``path`` if it can run, else InputError (field ``path``)."""
    if path is None:
        if not dt.tensor_core:
            return "simt"
        return "wgmma" if wgmma_capable(gpu) else "mma.sync"
    key = path.strip().lower() if isinstance(path, str) else path
    if key not in PATHS:
        raise InputError("path", f"{path!r} is not a main-loop path; choose one of {', '.join(PATHS)}")
    if not dt.tensor_core:
        if key != "simt":
            raise InputError("path", ERRORS("path_ffma", dtype=dt.name, choices="tf32, fp16, bf16 or fp8"))
        return key
    if key == "simt":
        raise InputError("path", ERRORS("path_simt_or_wgmma" if wgmma_capable(gpu) else "path_simt", dtype=dt.name))
    if key == "wgmma" and not wgmma_capable(gpu):
        ccs = " or ".join(gemm_data().wgmma.compute_capabilities)
        raise InputError("path", ERRORS("path_wgmma_cc", ccs=ccs, gpu=gpu.name, cc=gpu.compute_capability))
    return key


def resolve_schedule(value) -> str:
    if value is None:
        return gemm_data().wgmma.default_schedule
    key = value.strip().lower() if isinstance(value, str) else value
    if key not in SCHEDULES:
        raise InputError("schedule", f"{value!r} is not a wgmma schedule; choose one of {', '.join(SCHEDULES)}")
    return key


def resolve_a_source(value) -> str:
    if value is None:
        return "shared"
    key = value.strip().lower() if isinstance(value, str) else value
    if key not in A_SOURCES:
        raise InputError("a_source", f"{value!r}: the wgmma A operand comes from {' or '.join(A_SOURCES)}")
    return key


@dataclass(frozen=True)
class Pipeline:
    """How the chosen path moves the operands, stage by stage (what the GEMM view draws)."""

    path: str  # one of PATHS
    instruction: str  # the math instruction with its shape, e.g. wgmma.mma_async.m64n256k16
    copy: str  # how tiles reach shared memory
    stages: int
    schedule: str  # multistage, cooperative, pingpong
    persistent: bool  # one CTA per SM walks the tiles (wgmma) or one CTA per tile
    producer_warps: int  # warps that only copy (0: every warp copies and computes)
    consumer_warps: int  # warps that issue the math
    a_source: str  # where the MMA reads A: registers, shared
    b_source: str
    accumulators: str  # registers, tensor_memory
    register_budget: dict  # role -> registers per thread
    cluster: tuple[int, int] = (1, 1)  # CTAs per cluster along M x N
    multicast: str = ""  # which operand the cluster's CTAs share
    steps: tuple[str, ...] = ()  # the data's way: e.g. ("TMA", "shared", "wgmma", "registers", "epilogue")
    notes: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict:
        return {
            "path": self.path, "instruction": self.instruction, "copy": self.copy, "stages": self.stages,
            "schedule": self.schedule, "persistent": self.persistent, "producer_warps": self.producer_warps,
            "consumer_warps": self.consumer_warps, "a_source": self.a_source, "b_source": self.b_source,
            "accumulators": self.accumulators, "register_budget": dict(self.register_budget),
            "cluster": list(self.cluster), "multicast": self.multicast, "steps": list(self.steps),
            "notes": list(self.notes),
        }


def multistage_pipeline(gpu: GpuSpec, dt: DTypeSpec, stages: int, warps: int, registers: int) -> Pipeline:
    """The mma.sync / SIMT pipeline: every warp copies, waits at the barrier, loads fragments, computes."""
    async_copy = gpu.arch.cc >= (8, 0)
    copy = "cp.async (16 B per thread, global -> shared)" if async_copy else "LDG + STS (through registers)"
    if dt.tensor_core:
        instr = f"mma.sync.aligned.m{dt.mma_m}n{dt.mma_n}k{dt.mma_k}"
        math = "mma.sync"
        frag = "ldmatrix -> registers"
    else:
        instr, math, frag = "FFMA", "FFMA", "LDS -> registers"
    return Pipeline(
        path="mma.sync" if dt.tensor_core else "simt", instruction=instr, copy=copy, stages=stages,
        schedule="multistage", persistent=False, producer_warps=0, consumer_warps=warps,
        a_source="registers", b_source="registers", accumulators="registers",
        register_budget={"all": registers},
        steps=("cp.async" if async_copy else "LDG + STS", "shared", frag, math, "registers", "epilogue"),
    )
