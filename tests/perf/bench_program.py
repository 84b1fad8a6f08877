"""SASS program extraction benchmark: cold (compile + disassemble + build) and cached.

For every preset on its own GPU:

* **cold**: a fresh Python process with an empty program cache builds the program: the
  imports of the SASS layer and the toolchain (cuda-bindings, libnvrtc), NVRTC compiling
  the generated kernel (twice when registers are steered), nvdisasm, parsing and the
  program build. Python's own start-up is not counted;
* **cached**: the same process builds it again: the cache key (generating the source,
  the toolchain versions) and the program build from the cached disassembly.

Usage: ``python tests/perf/bench_program.py [--json] [--repeats N]``.
Targets (issue 16): cold <= 1 s, cached well below it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from explorer.model.presets import load_preset
from explorer.sass.kernel_program import sass_program
scenario = load_preset(sys.argv[1])
t1 = time.perf_counter()
program = sass_program(scenario)
t2 = time.perf_counter()
again = sass_program(scenario)
t3 = time.perf_counter()
print(json.dumps({"imports_s": t1 - t0, "cold_s": t2 - t1, "cached_s": t3 - t2, "cache": [program.meta["cache"],
      again.meta["cache"]], "static": len(program.listing), "per_warp": program.dynamic_instructions_per_warp}))
"""


def run_one(preset: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="warp-explorer-bench-") as cache:
        env = dict(os.environ, WARP_EXPLORER_SASS_CACHE=cache, PYTHONPATH=str(REPO))
        proc = subprocess.run([sys.executable, "-c", CHILD, preset], capture_output=True, text=True, env=env,
                              timeout=300, cwd=str(REPO))
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    return json.loads(proc.stdout)


def run_benchmark(repeats: int = 3) -> dict:
    from explorer.model.presets import preset_names

    out = {}
    for preset in preset_names():
        runs = [run_one(preset) for _ in range(repeats)]
        out[preset] = {
            "cold_s": statistics.median(r["cold_s"] + r["imports_s"] for r in runs),
            "cold_without_imports_s": statistics.median(r["cold_s"] for r in runs),
            "cached_s": statistics.median(r["cached_s"] for r in runs),
            "cache": runs[0]["cache"], "static_instructions": runs[0]["static"],
            "instructions_per_warp": runs[0]["per_warp"],
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    result = run_benchmark(args.repeats)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{'preset':30s} {'cold':>8s} {'(no imports)':>13s} {'cached':>8s}  instructions/warp")
    for preset, r in result.items():
        print(f"{preset:30s} {r['cold_s']:7.3f}s {r['cold_without_imports_s']:12.3f}s {r['cached_s'] * 1000:6.1f}ms"
              f"  {r['instructions_per_warp']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
