"""A ``[kernel]`` scenario from end to end: compile for the GPU, resolve the launch, execute, report.

``run_kernel(scenario)`` compiles the scenario's kernel for its GPU's architecture, takes
registers, static shared memory and barriers from the cubin into the launch (the fields
a ``[kernel]`` scenario may not set), checks that a block fits an SM (the occupancy rules:
a launch that fits no block is refused, naming the limiter, as ``simulate`` and
``measure`` refuse it), executes every block and returns a :class:`KernelRun`.
:func:`summary` is the JSON the CLI prints; :func:`dump_buffers` writes the buffers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from explorer.model.errors import InputError, shown

NOTE = "functional execution only: no cycle count (`simulate` times what executed)"


@dataclass(frozen=True)
class KernelRun:
    scenario: object  # the scenario with the cubin's registers, static shared memory and barriers
    kernel: object  # UserKernel
    result: object  # ExecutionResult
    occupancy: object  # OccupancyResult


def compile_for(scenario, *, cancel=None):
    """The scenario's kernel compiled for its GPU (a UserKernel); ``cancel()`` stops the compiler's child."""
    from explorer.sass.execute.kernel import build_kernel
    from explorer.sass.opcodes import load_table

    spec = scenario.kernel
    if spec is None:
        raise InputError("kernel", "the scenario has no [kernel] section")
    arch = scenario.gpu.arch.sm_arch
    if load_table().family(arch) is None:
        raise InputError("gpu", f"{scenario.gpu.name} ({arch}): the executor runs SASS of sm_75 and newer (what "
                                "NVRTC 13 builds); choose a newer GPU")
    return build_kernel(spec.path, spec.name, arch, cancel=cancel)


def resolve(scenario, kernel):
    """The scenario with the launch fields the cubin decides (read-only in a [kernel] scenario)."""
    launch = replace(scenario.launch, registers_per_thread=kernel.registers,
                     static_shared_bytes=kernel.static_shared_bytes, barriers=kernel.barriers)
    return replace(scenario, launch=launch)


def run_kernel(scenario, *, keep_inputs: bool = False, on_chunk=None, kernel=None) -> KernelRun:
    from explorer.occupancy.calc import occupancy_that_fits
    from explorer.sass.execute.session import execute

    kernel = kernel or compile_for(scenario)
    scenario = resolve(scenario, kernel)
    occ = occupancy_that_fits(scenario.gpu, scenario.launch)
    result = execute(kernel, scenario.launch, scenario.kernel, seed=scenario.seed, sm_count=scenario.gpu.sm_count,
                     keep_inputs=keep_inputs, on_chunk=on_chunk)
    return KernelRun(scenario=scenario, kernel=kernel, result=result, occupancy=occ)


def summary(run: KernelRun) -> dict:
    """The ``execute --json`` object (``simulate --json`` adds its own keys)."""
    sc, k, r = run.scenario, run.kernel, run.result
    spec = sc.kernel
    launch = sc.launch
    args = {}
    for name, value in r.bound.values.items():
        buf = next((b for b in r.bound.buffers if b.name == name), None)
        args[name] = ({**buf.arg.to_dict(), "address": f"0x{buf.address:x}"} if buf is not None else value)
    buffers = {}
    for buf in r.bound.buffers:
        out = r.outputs[buf.name]
        entry = {"dtype": buf.arg.dtype, "count": buf.arg.count}
        if buf.arg.dtype != "bf16":
            entry.update(value_range(out))
        if r.inputs is not None:
            entry["changed"] = changed_elements(r.inputs[buf.name], out)
        buffers[buf.name] = entry
    m = r.metrics
    return {
        "scenario": sc.name,
        "gpu": sc.gpu.name,
        "arch": k.arch,
        "kernel": {
            "file": spec.file, "name": k.name, "symbol": k.symbol, "demangled": k.demangled, "compiler": k.compiler,
            "registers_per_thread": k.registers, "static_shared_bytes": k.static_shared_bytes,
            "local_bytes_per_thread": k.frame_bytes, "barriers": k.barriers,
            "parameters": [{"name": p.name, "type": p.type.text, "offset": p.offset, "size": p.size}
                           for p in k.params],
            "static_instructions": k.decoded.n, "unsupported_instructions": len(k.decoded.unsupported),
            "source_lines": bool(k.lines),
        },
        "launch": {"grid": launch.grid.to_list(), "block": launch.block.to_list(),
                   "dynamic_shared_bytes": launch.dynamic_shared_bytes, "blocks": launch.total_blocks,
                   "threads": launch.total_blocks * launch.threads_per_block},
        "occupancy": {"theoretical_occupancy": run.occupancy.occupancy,
                      "active_blocks_per_sm": run.occupancy.active_blocks_per_sm,
                      "limiters": list(run.occupancy.limiters)},
        "arguments": args,
        **{key: m[key] for key in ("blocks", "launched_warps", "warp_instructions", "thread_instructions",
                                   "predicated_on_thread_instructions", "warp_instructions_per_warp",
                                   "simt_efficiency", "predicated_on_efficiency", "sectors_per_request",
                                   "bank_conflicts", "memory", "execution_seconds", "warp_instructions_per_second")},
        "buffers": buffers,
        "timing": None,
        "note": NOTE,
    }


def listing(run: KernelRun) -> list[dict]:
    """Per static instruction (the padding NOPs after the code left out): pc, text, source line, how
    often it issued, and its lanes summed over those issues (active; guard true)."""
    k, r = run.kernel, run.result
    texts = k.decoded.texts
    end = len(texts)
    while end > 1 and texts[end - 1] == "NOP":
        end -= 1
    out = []
    for i in range(end):
        n = int(r.executions[i])
        out.append({"pc": 16 * i, "text": texts[i], "line": k.lines.get(i), "executions": n,
                    "active_lanes": int(r.active_lanes[i]), "executed_lanes": int(r.executed_lanes[i]),
                    "average_active_lanes": int(r.active_lanes[i]) / n if n else None,
                    "unsupported": k.decoded.unsupported.get(i)})
    return out


def value_range(a: np.ndarray) -> dict:
    """min, max and sum of a buffer's finite values (None when it has none), without a widened copy."""
    if a.dtype.kind == "f":
        finite = np.isfinite(a)
        if not finite.all():
            a = a[finite]
    if a.size == 0:
        return {"min": None, "max": None, "sum": None}
    return {"min": float(a.min()), "max": float(a.max()), "sum": float(a.sum(dtype=np.float64))}


def changed_elements(before: np.ndarray, after: np.ndarray) -> int:
    """Elements whose bytes differ (NaN-safe: compares bits, not values)."""
    width = before.dtype.itemsize
    a = before.view(np.uint8).reshape(-1, width)
    b = after.view(np.uint8).reshape(-1, width)
    return int(np.count_nonzero(np.any(a != b, axis=1)))


def check_dump_path(path: str, field: str = "--dump-buffers") -> Path:
    """Refuse a dump path before the run, not after it (``explorer.atomic.check_target``, and .npz)."""
    from explorer.atomic import check_target

    target = check_target(path, field)
    if not str(path).endswith(".npz"):
        raise InputError(field, f"{shown(path)}: the file name must end in .npz")
    return target


def dump_buffers(run: KernelRun, path: str) -> None:
    """Every buffer argument after the kernel as ``NAME`` and before it as ``NAME.in`` (atomic write)."""
    from explorer.atomic import atomic_write

    r = run.result
    arrays = {}
    for buf in r.bound.buffers:
        arrays[buf.name] = r.outputs[buf.name]
        if r.inputs is not None:
            arrays[f"{buf.name}.in"] = r.inputs[buf.name]
    atomic_write(path, lambda fh: np.savez(fh, **arrays), field="--dump-buffers")
