#!/usr/bin/env python3
"""Digests of every SimResult array and figure for 59 runs (presets x policies x programs, other GPUs, small budgets,
recorded SMs, saxpy as a [kernel]): run it from two trees (PYTHONPATH=the tree) and diff the lines, timings aside.
Optional argument: only the runs whose name contains it."""

import hashlib
import sys
import time
import dataclasses
import numpy as np
from explorer.model.presets import load_preset
from explorer.sim.engine import simulate

PRESETS = [
    "example-240x256",
    "memory-bound-stream",
    "compute-bound-fma",
    "tensor-gemm",
    "barrier-tiling",
    "latency-bound-low-occupancy",
    "tail-effect",
    "cache-sensitive",
]
POLICIES = ["gto", "lrr", "oldest", "two_level"]


def h(x, acc):
    if x is None:
        acc.update(b"None")
        return
    if isinstance(x, np.ndarray):
        acc.update(str(x.dtype).encode())
        acc.update(str(x.shape).encode())
        acc.update(np.ascontiguousarray(x).tobytes())
        return
    if dataclasses.is_dataclass(x):
        for f in dataclasses.fields(x):
            acc.update(f.name.encode())
            h(getattr(x, f.name), acc)
        return
    if isinstance(x, dict):
        for k in sorted(x):
            acc.update(str(k).encode())
            h(x[k], acc)
        return
    acc.update(repr(x).encode())


def digest(r):
    acc = hashlib.sha256()
    for name in [
        "cycles",
        "series",
        "series_totals",
        "trace",
        "recorded_sms",
        "blocks",
        "block_slots",
        "residency",
        "memory",
        "unit_busy_cycles",
        "window_cycles",
        "warp_instructions",
        "stall_by_instruction",
        "sectors_by_instruction",
        "pc_events",
        "row_executions",
        "row_active_lanes",
        "program_notice",
    ]:
        acc.update(name.encode())
        h(getattr(r, name), acc)
    # summary figures
    try:
        from explorer.sim.bottleneck import __dict__ as _b  # noqa
    except Exception:
        pass
    for m in ("achieved_occupancy", "issue_utilization", "ipc"):
        v = getattr(r, m, None)
        if v is not None and not callable(v):
            acc.update(repr(v).encode())
    return acc.hexdigest()[:16]


def runs():
    out = []
    for pr in PRESETS:
        base = load_preset(pr)
        for pol in POLICIES:
            for prog in ("sass", "model"):
                if prog == "sass" and pol not in ("gto", "lrr"):
                    continue
                out.append((f"{pr}/{pol}/{prog}", base.with_values(**{"scheduler.policy": pol, "program": prog}), {}))
    ex = load_preset("example-240x256")
    for gpu in ("A100", "H200", "RTX 4090"):
        out.append((f"example/{gpu}/sass", ex.with_values(gpu=gpu), {}))
    ms = load_preset("memory-bound-stream")
    for gpu in ("A100", "H200", "RTX 4090"):
        out.append((f"stream/{gpu}/model", ms.with_values(gpu=gpu, program="model"), {}))
    out.append(("example/smallbudget/sass", ex, {"trace_budget_bytes": 200_000}))
    out.append(
        (
            "example/1600blk/smallbudget/model",
            ex.with_values(**{"launch.grid": [1600, 1, 1], "program": "model"}),
            {"trace_budget_bytes": 1_000_000, "series_budget_bytes": 100_000},
        )
    )
    out.append(("example/record/model", ex.with_values(program="model"), {"record_sms": [0, 5, 7]}))
    return out


def main():
    import explorer

    print("USING", explorer.__file__, flush=True)
    only = sys.argv[1:] and sys.argv[1]
    total = hashlib.sha256()
    for name, sc, kw in runs():
        if only and only not in name:
            continue
        t0 = time.process_time()
        try:
            r = simulate(sc, **kw)
            d = digest(r) + f" cyc={r.cycles}"
        except Exception as e:
            d = "ERR " + type(e).__name__ + ": " + str(e)[:80]
        total.update(d.encode())
        print(f"{name:45s} {d}  ({time.process_time() - t0:.2f}s)", flush=True)
    # user kernel
    try:
        from explorer.model.scenario import Scenario
        from explorer.paths import resource
        from explorer.sim.engine import simulate_kernel

        sc = Scenario.load(resource("kernels", "saxpy.toml")).with_overrides(["kernel.args.n=65536"])
        r, _ = simulate_kernel(sc, jobs=1)
        d = digest(r) + f" cyc={r.cycles}"
    except Exception as e:
        d = "ERR " + type(e).__name__ + ": " + str(e)[:120]
    total.update(d.encode())
    print(f"{'kernel/saxpy':45s} {d}", flush=True)
    print("TOTAL", total.hexdigest()[:16])


if __name__ == "__main__":
    main()
