"""What the window keeps of a kernel's run: the execution summary and a preview of each buffer (Qt-free).

The run itself holds every buffer (up to 1 GiB; their contents before the kernel are made again when
read); the window keeps only ``run.summary`` (what ``execute --json`` prints) and the first elements of
each buffer before and after the kernel, so an old report costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PREVIEW = 8  # elements of each buffer shown


@dataclass(frozen=True)
class BufferPreview:
    name: str
    dtype: str
    count: int
    changed: int | None  # elements whose bytes the kernel changed
    low: float | None  # finite minimum after the kernel (None: bf16, or nothing finite)
    high: float | None
    before: tuple  # the first PREVIEW values before the kernel
    after: tuple  # ... and after it


@dataclass(frozen=True)
class KernelReport:
    scenario: object  # the scenario as run (the cubin's registers, static shared memory, barriers in its launch)
    summary: dict  # explorer.sass.execute.run.summary
    buffers: tuple[BufferPreview, ...]


def _values(a: np.ndarray, dtype: str) -> tuple:
    head = a[:PREVIEW]
    if dtype == "bf16":  # raw 16-bit patterns: widen to float32 (the upper half of its bits)
        head = (head.astype(np.uint32) << 16).view(np.float32)
    return tuple(v.item() for v in head)


def execution_report(run, scenario=None) -> KernelReport:
    """The report of a KernelRun; ``scenario``: the one to keep with it (the timed run's, when the run was
    timed: ``simulate_kernel``'s result carries the same launch the execution resolved)."""
    from explorer.sass.execute.run import summary

    s = summary(run)
    r = run.result
    previews = []
    for buf in r.bound.buffers:
        entry = s["buffers"][buf.name]
        before = r.inputs.head(buf.name, PREVIEW) if r.inputs is not None else None  # not the whole buffer again
        previews.append(BufferPreview(
            name=buf.name, dtype=buf.arg.dtype, count=buf.arg.count, changed=entry.get("changed"),
            low=entry.get("min"), high=entry.get("max"),
            before=_values(before, buf.arg.dtype) if before is not None else (),
            after=_values(r.outputs[buf.name], buf.arg.dtype)))
    return KernelReport(scenario=run.scenario if scenario is None else scenario, summary=s, buffers=tuple(previews))
