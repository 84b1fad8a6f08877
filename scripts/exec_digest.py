#!/usr/bin/env python3
"""Digests of what the functional executor produces: every buffer after the kernel, the executed streams, the
per-row tallies and the metrics (timings aside), for every kernel of resources/kernels/*.toml and every case of
the executor's kernel suite (tests/execute/cases.py) on the architectures tests/execute/test_suite.py runs.

Run it from two trees (PYTHONPATH=the tree; the tree's tests/ gives the cases) and diff the lines: one per run.
Optional argument: only the runs whose name contains it."""

import hashlib
import sys
from pathlib import Path

import numpy as np

STREAM_FIELDS = ("first_block", "n_blocks", "warps_per_block", "warp_start", "row", "active", "executed",
                 "mem_entry", "mem_class", "mem_count", "mem_ideal", "sector_start", "sectors")
TIMING_KEYS = ("execution_seconds", "warp_instructions_per_second", "execution_cpu_seconds")


def _update(acc, x):
    if isinstance(x, np.ndarray):
        acc.update(f"{x.dtype}{x.shape}".encode())
        acc.update(np.ascontiguousarray(x).tobytes())
    elif isinstance(x, dict):
        for k in sorted(x, key=str):
            if k in TIMING_KEYS:
                continue
            acc.update(str(k).encode())
            _update(acc, x[k])
    else:
        acc.update(repr(x).encode())


def digest(result, streams) -> str:
    acc = hashlib.sha256()
    for name in sorted(result.outputs):
        acc.update(name.encode())
        _update(acc, np.asarray(result.outputs[name]))
    for part in (result.executions, result.active_lanes, result.executed_lanes, result.metrics):
        _update(acc, part)
    for s in streams:
        for f in STREAM_FIELDS:
            if hasattr(s, f):
                _update(acc, getattr(s, f))
    return acc.hexdigest()[:16]


def runs():
    """(name, thunk -> (result, streams))."""
    from explorer.model.scenario import Scenario
    from explorer.sass.execute.run import run_kernel

    root = Path(__file__).resolve().parents[1]
    for toml in sorted((root / "resources" / "kernels").glob("*.toml")):
        def one(toml=toml):
            streams = []
            r = run_kernel(Scenario.load(toml), on_chunk=streams.append)
            return r.result, streams
        yield f"resource:{toml.stem}", one
    from tests.execute.cases import CATALOG, cases
    from tests.execute.support import run_case

    archs = ("sm_80", "sm_89", "sm_90")
    others = ("sm_75", "sm_86", "sm_100", "sm_120")
    all_cases = cases()
    pairs = [(c, a) for a in archs for c in all_cases] + [(c, a) for a in others for c in all_cases if c.id in CATALOG]
    for case, arch in pairs:
        def one(case=case, arch=arch):
            streams = []
            result, _ = run_case(case, arch, on_chunk=streams.append)
            return result, streams
        yield f"case:{case.id}-{arch}", one


def main() -> int:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    for name, thunk in runs():
        if only and only not in name:
            continue
        try:
            result, streams = thunk()
            line = digest(result, streams)
        except Exception as e:  # noqa: BLE001 - a failing run is a line too
            line = f"error {type(e).__name__}: {e}"
        print(f"{name} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
