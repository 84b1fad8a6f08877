"""Executor benchmark: saxpy over 1 M elements (resources/kernels/saxpy.toml), functional execution.

Per case, the median of ``--repeats`` runs in this process after one warm-up (numba's
compile is cached on disk; the first run on a machine pays it once, reported apart):

* ``execute``: every block executed, metrics accumulated, no stream kept;
* ``execute + stream``: the executed stream built chunk by chunk, then dropped;
* ``execute + timing``: what ``simulate`` does with a [kernel] scenario: executed chunk by
  chunk as the engine places the blocks, each chunk lowered into the engine's program
  window, and timed cycle by cycle (``explorer.sim.engine.simulate_kernel``).

Both wall-clock and CPU seconds are given: on a shared machine the wall time includes
waiting for a core. Usage: ``python tests/perf/bench_execute.py [--json] [--repeats N]``;
``--threads 1,2`` measures blocks executed on 1 and 2 threads instead (issue 27, item 3).
Target (issue 17): functional execution plus timing >= 1 M warp-instructions/s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def run_benchmark(repeats: int = 3) -> dict:
    from explorer.model.scenario import Scenario
    from explorer.sass.execute.run import compile_for, run_kernel

    scenario = Scenario.load(REPO / "resources" / "kernels" / "saxpy.toml")
    t0 = time.perf_counter()
    kernel = compile_for(scenario)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    run_kernel(scenario.with_overrides(["launch.grid=[1,1,1]", "kernel.args.n=256"]), kernel=kernel)
    first_s = time.perf_counter() - t0  # includes loading (or compiling) the interpreter
    out = {"case": "saxpy 1M elements, H100 (sm_90), grid 4096 x 256", "compile_s": compile_s,
           "first_call_s": first_s}
    from explorer.sim.engine import simulate_kernel

    simulate_kernel(scenario.with_overrides(["launch.grid=[1,1,1]", "kernel.args.n=256"]), kernel=kernel)  # load
    for label, consumer in (("execute", None), ("execute + stream", lambda chunk: None), ("execute + timing", None)):
        walls, cpus, wi = [], [], 0
        for _ in range(repeats):
            w0, c0 = time.perf_counter(), time.process_time()
            if label == "execute + timing":
                run = simulate_kernel(scenario, kernel=kernel, jobs=1)[1]
            else:
                run = run_kernel(scenario, kernel=kernel, on_chunk=consumer)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
            wi = run.result.metrics["warp_instructions"]
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        out[label] = {"warp_instructions": wi, "wall_s": wall, "cpu_s": cpu,
                      "M_warp_instructions_per_s_wall": wi / wall / 1e6, "M_warp_instructions_per_s_cpu": wi / cpu / 1e6}
    return out


def run_threads(jobs_list=(1, 2), repeats: int = 3) -> dict:
    """Issue 27, item 3: saxpy over 16 M elements (12.6 M warp-instructions) executed on 1, 2, ... threads,
    the runs alternating (a shared machine's load touches each alike): the wall time, and the executing
    threads' CPU time (the per-core rate, which threads must not lower)."""
    from explorer.model.scenario import Scenario
    from explorer.sass.execute.run import compile_for, run_kernel

    n = 1 << 24
    scenario = Scenario.load(REPO / "resources" / "kernels" / "saxpy.toml").with_overrides(
        [f"kernel.args.n={n}", f"kernel.args.x.count={n}", f"kernel.args.y.count={n}", "launch.grid=[65536,1,1]"])
    kernel = compile_for(scenario)
    run_kernel(scenario.with_overrides(["launch.grid=[1,1,1]"]), kernel=kernel)  # load the interpreter
    runs = {j: [] for j in jobs_list}
    for _ in range(repeats):
        for j in jobs_list:
            m = run_kernel(scenario, kernel=kernel, jobs=j).result.metrics
            runs[j].append((m["execution_seconds"], m["execution_cpu_seconds"], m["warp_instructions"], m["jobs"]))
    out = {"case": f"saxpy {n:,} elements, H100 (sm_90), grid 65536 x 256"}
    for j, rs in runs.items():
        wall = statistics.median(r[0] for r in rs)
        cpu = statistics.median(r[1] for r in rs)
        wi = rs[0][2]
        out[f"jobs={j}"] = {"threads": rs[0][3], "warp_instructions": wi, "wall_s": wall, "cpu_s": cpu,
                            "M_per_s_wall": wi / wall / 1e6, "M_per_s_per_core": wi / cpu / 1e6}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", metavar="J,J...", help="instead: saxpy over 16 M elements on J threads each, "
                                                        "alternating (e.g. 1,2)")
    args = ap.parse_args(argv)
    if args.threads:
        r = run_threads(tuple(int(j) for j in args.threads.split(",")), args.repeats)
        if args.json:
            print(json.dumps(r, indent=1))
            return 0
        print(r["case"])
        for key, c in r.items():
            if key != "case":
                print(f"  {key:8s} {c['threads']} thread(s): wall {c['wall_s']:.3f} s ({c['M_per_s_wall']:.2f} M/s), "
                      f"CPU {c['cpu_s']:.3f} s ({c['M_per_s_per_core']:.2f} M/s per core)")
        return 0
    r = run_benchmark(args.repeats)
    if args.json:
        print(json.dumps(r, indent=1))
        return 0
    print(f"{r['case']}: compile {r['compile_s']:.2f} s, first call {r['first_call_s']:.2f} s")
    for label in ("execute", "execute + stream", "execute + timing"):
        c = r[label]
        print(f"  {label:18s} {c['warp_instructions']:,} warp-instructions: wall {c['wall_s']:.3f} s "
              f"({c['M_warp_instructions_per_s_wall']:.2f} M/s), CPU {c['cpu_s']:.3f} s "
              f"({c['M_warp_instructions_per_s_cpu']:.2f} M/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
