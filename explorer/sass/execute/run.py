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


def default_jobs() -> int:
    """The cores this process may use (the window executes on all of them)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def compile_for(scenario, *, cancel=None, build=None, builds=None):
    """The scenario's kernel compiled for its GPU (a UserKernel); ``cancel()`` stops the compiler's child;
    ``build``: its file's compile already made (``kernel.open_kernels``), reused when it serves; ``builds``: the
    window's ``toolchain.compiler.FileBuilds``, the file's compile for this GPU taken from (or made into) it."""
    from explorer.sass.execute.kernel import build_kernel
    from explorer.sass.opcodes import load_table

    spec = scenario.kernel
    if spec is None:
        raise InputError("kernel", "the scenario has no [kernel] section")
    arch = scenario.gpu.arch.sm_arch
    if load_table().family(arch) is None:
        raise InputError("gpu", f"{scenario.gpu.name} ({arch}): the executor runs SASS of sm_75 and newer (what "
                                "NVRTC 13 builds); choose a newer GPU")
    if builds is not None:
        build = builds.build(spec.path, arch, cancel=cancel)
    return build_kernel(spec.path, spec.name, arch, cancel=cancel, build=build)


def resolve(scenario, kernel):
    """The scenario with the launch fields the cubin decides (read-only in a [kernel] scenario)."""
    launch = replace(scenario.launch, registers_per_thread=kernel.registers,
                     static_shared_bytes=kernel.static_shared_bytes, barriers=kernel.barriers)
    return replace(scenario, launch=launch)


def run_kernel(scenario, *, keep_inputs: bool = False, on_chunk=None, kernel=None, progress=None,
               jobs: int = 1) -> KernelRun:
    """Compile (unless ``kernel`` is given), resolve and execute; ``progress`` and ``jobs`` (threads) as
    ``session.execute_chunks``'s."""
    from explorer.occupancy.calc import occupancy_that_fits
    from explorer.sass.execute.session import execute

    kernel = kernel or compile_for(scenario)
    scenario = resolve(scenario, kernel)
    occ = occupancy_that_fits(scenario.gpu, scenario.launch)
    result = execute(kernel, scenario.launch, scenario.kernel, seed=scenario.seed, sm_count=scenario.gpu.sm_count,
                     keep_inputs=keep_inputs, on_chunk=on_chunk, progress=progress, jobs=jobs)
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
            entry["changed"] = changed_count(r.inputs.chunks(buf.name), out)
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
        "jobs": m.get("jobs", 1), "execution_cpu_seconds": m.get("execution_cpu_seconds", m["execution_seconds"]),
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


REPORT_CHUNK = 1 << 20  # elements a report reads at a time: its temporaries stay a few MiB for a 1 GiB buffer


def value_range(a: np.ndarray) -> dict:
    """min, max and sum of a buffer's finite values (None when it has none), a chunk at a time (no widened
    copy, no mask the size of the buffer). The sum adds the chunks' float64 sums, in order."""
    lo = hi = None
    total = 0.0
    for k in range(0, a.shape[0], REPORT_CHUNK):
        part = a[k:k + REPORT_CHUNK]
        if part.dtype.kind == "f":
            finite = np.isfinite(part)
            if not finite.all():
                part = part[finite]
        if part.size == 0:
            continue
        pmin, pmax = part.min(), part.max()
        lo = pmin if lo is None or pmin < lo else lo
        hi = pmax if hi is None or pmax > hi else hi
        total += float(part.sum(dtype=np.float64))
    if lo is None:
        return {"min": None, "max": None, "sum": None}
    return {"min": float(lo), "max": float(hi), "sum": total}


def changed_elements(before: np.ndarray, after: np.ndarray) -> int:
    """Elements whose bytes differ (NaN-safe: compares bits, not values)."""
    return changed_count([before], after)


def changed_count(before_chunks, after: np.ndarray) -> int:
    """Elements whose bytes differ between the chunks of the contents before and ``after``, chunk by chunk."""
    width = after.dtype.itemsize
    pos, changed = 0, 0
    for part in before_chunks:
        n = part.shape[0]
        a = part.view(np.uint8).reshape(-1, width)
        b = after[pos:pos + n].view(np.uint8).reshape(-1, width)
        changed += int(np.count_nonzero(np.any(a != b, axis=1)))
        pos += n
    return changed


def check_dump_path(path: str, field: str = "--dump-buffers") -> Path:
    """Refuse a dump path before the run, not after it (``explorer.model.atomic.check_target``, and .npz)."""
    from explorer.model.atomic import check_target

    target = check_target(path, field)
    if not str(path).endswith(".npz"):
        raise InputError(field, f"{shown(path)}: the file name must end in .npz")
    return target


def dump_buffers(run: KernelRun, path: str) -> None:
    """Every buffer argument after the kernel as ``NAME`` and before it as ``NAME.in`` (atomic write).

    An ``np.savez`` file (``np.load`` reads it), written member by member and chunk by chunk: the contents
    before the kernel are made again as they are written, so a dump of 1 GiB of buffers needs no second GiB.
    """
    from explorer.model.atomic import atomic_write

    r = run.result
    members = []
    for buf in r.bound.buffers:
        out = r.outputs[buf.name]
        members.append((buf.name, out.dtype, out.shape, lambda out=out: _chunks_of(out)))
        if r.inputs is not None:
            members.append((f"{buf.name}.in", out.dtype, out.shape,
                            lambda name=buf.name: r.inputs.chunks(name, REPORT_CHUNK)))
    atomic_write(path, lambda fh: write_npz(fh, members), field="--dump-buffers")


def _chunks_of(a: np.ndarray):
    for k in range(0, a.shape[0], REPORT_CHUNK):
        yield a[k:k + REPORT_CHUNK]


def write_npz(fh, members) -> None:
    """An uncompressed ``.npz`` (what ``np.savez`` writes) from (name, dtype, shape, chunks()) members."""
    import zipfile

    from numpy.lib import format as npy

    with zipfile.ZipFile(fh, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, dtype, shape, chunks in members:
            with zf.open(f"{name}.npy", mode="w", force_zip64=True) as out:
                header = {"descr": npy.dtype_to_descr(np.dtype(dtype)), "fortran_order": False,
                          "shape": tuple(shape)}
                npy.write_array_header_1_0(out, header)  # the version np.save writes for such headers
                for part in chunks():
                    out.write(np.ascontiguousarray(part).tobytes())
