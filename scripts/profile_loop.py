#!/usr/bin/env python3
"""Where the compiled cycle loop spends its time, by line of ``explorer/sim/kernel.py``.

numba's machine code has no symbols ``perf`` can see, and ``run_cycles`` inlines every stage, so a profile of a
simulation shows one anonymous block. This script makes the block readable: it compiles the loop with line tables
(``NUMBA_DEBUGINFO=1``, into a private cache so the product's own is untouched), runs one simulation under
``perf record`` (or ``valgrind --tool=callgrind`` with its cache simulation: ``--callgrind``, slower but
independent of the machine's load, and it counts first-level data-cache misses per line), then maps every sampled
address back through the compiled object's line table (``addr2line -i``: the innermost source line of the inlined
frames) and prints the lines that cost the most.

Usage (from the tree's root; Linux with perf or valgrind, and binutils):

    PYTHONPATH=. python scripts/profile_loop.py [--preset NAME] [--grid N] [--program sass|model] [--callgrind]

What it found on 2026-12-06 (docs/performance.md, "Where the loop's time goes"). The child it runs is this file
with ``--child``: it writes the loop's address and object file, then simulates.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "explorer" / "sim" / "kernel.py"


def child(work: Path, preset: str, grid: int, program: str) -> None:
    """In the profiled process: compile (or load) the loop, note where it sits, then run the simulation."""
    from explorer.model.presets import load_preset
    from explorer.sim import kernel
    from explorer.sim.engine import simulate

    scenario = load_preset(preset)
    if grid:
        scenario = scenario.with_values(**{"launch.grid": [grid, 1, 1]})
    if program == "model":
        scenario = scenario.with_values(program="model")
    simulate(scenario.with_values(**{"launch.grid": [min(8, scenario.launch.total_blocks), 1, 1]}))  # compile
    (cres,) = kernel.run_cycles.overloads.values()
    info = {"addr": cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name),
            "symbol": cres.fndesc.llvm_func_name}
    obj = work / "run_cycles.o"
    try:  # compiled in this process: its object code (loaded from the cache: the object a compile left before)
        obj.write_bytes(cres.library._get_compiled_object())  # noqa: SLF001 - numba has no public accessor
    except RuntimeError:
        pass
    (work / "loop.json").write_text(json.dumps(info))
    started = time.process_time()
    result = simulate(scenario)
    used = time.process_time() - started
    print(f"{scenario.name}: {result.cycles:,} cycles, {result.warp_instructions:,} warp-instructions, "
          f"{used:.2f} CPU s ({result.warp_instructions / used / 1e6:.2f} M/s with line tables)", flush=True)


def _symbol_range(obj: Path, symbol: str) -> tuple[int, int]:
    out = subprocess.run(["nm", "-S", "--defined-only", str(obj)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == symbol:
            return int(parts[0], 16), int(parts[1], 16)
    raise SystemExit(f"profile_loop: {symbol[:40]}... not in {obj}")


def _lines(obj: Path, offsets: list[int]) -> dict[int, str]:
    """offset -> 'kernel.py:LINE' of the innermost inlined frame."""
    out = subprocess.run(["addr2line", "-a", "-i", "-e", str(obj)], input="\n".join(hex(o) for o in offsets),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    where: dict[int, str] = {}
    current = None
    for line in out:
        if line.startswith("0x"):
            current = int(line, 16)
        elif current is not None and current not in where:
            where[current] = line.rsplit("/", 1)[-1].split(" ")[0]
    return where


def _perf_samples(data: Path, start: int, size: int) -> dict[int, list[int]]:
    out = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True,
                         check=True).stdout
    counts: dict[int, list[int]] = collections.defaultdict(lambda: [0])
    for word in out.split():
        ip = int(word, 16)
        if start <= ip < start + size:
            counts[ip - start][0] += 1
    return counts


def _callgrind_samples(data: Path, start: int, size: int) -> tuple[list[str], dict[int, list[int]]]:
    """Per instruction of the loop: callgrind's events (Ir, Dr, Dw, I1mr, D1mr, ...)."""
    events: list[str] = []
    counts: dict[int, list[int]] = {}
    last = 0
    with open(data) as fh:
        for line in fh:
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            m = re.match(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+(.*)$", line)
            if not m or line.startswith(("calls=", "jump=", "jcnd=")):
                continue
            a = m.group(1)
            last = int(a, 16) if a.startswith("0x") else last + int(a) if a[0] in "+-" else last
            if start <= last < start + size:
                values = [int(v) for v in m.group(2).split()[1:]]  # the first position is the source line
                row = counts.setdefault(last - start, [0] * len(values))
                for i, v in enumerate(values):
                    row[i] += v
    return events, counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="example-240x256")
    ap.add_argument("--grid", type=int, default=2640, help="blocks (0: the preset's own)")
    ap.add_argument("--program", choices=("sass", "model"), default="sass")
    ap.add_argument("--callgrind", action="store_true", help="count instructions and cache misses (slow, exact)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child), args.preset, args.grid, args.program)
        return 0
    for tool in ("addr2line", "nm", "valgrind" if args.callgrind else "perf"):
        if shutil.which(tool) is None:
            print(f"profile_loop: {tool} is not installed", file=sys.stderr)
            return 2
    work = Path(tempfile.mkdtemp(prefix="wx-profile-"))
    env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=str(work / "numba"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    me = [sys.executable, str(Path(__file__).resolve()), "--child", str(work), "--preset", args.preset,
          "--grid", str(args.grid), "--program", args.program]
    data = work / ("loop.cg" if args.callgrind else "perf.data")
    if args.callgrind:
        cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--dump-instr=yes", f"--callgrind-out-file={data}"]
    else:
        cmd = ["perf", "record", "-q", "-F", "1999", "-o", str(data)]
    subprocess.run(cmd + me, env=env, check=True)
    info = json.loads((work / "loop.json").read_text())
    obj = work / "run_cycles.o"
    off, size = _symbol_range(obj, info["symbol"])
    if args.callgrind:
        events, counts = _callgrind_samples(data, info["addr"], size)
    else:
        events, counts = ["samples"], _perf_samples(data, info["addr"], size)
    where = _lines(obj, [o + off for o in counts])
    by_line: dict[str, list[int]] = collections.defaultdict(lambda: [0] * len(events))
    for o, values in counts.items():
        row = by_line[where.get(o + off, "?")]
        for i, v in enumerate(values):
            row[i] += v
    source = KERNEL.read_text().splitlines()
    total = [sum(r[i] for r in by_line.values()) or 1 for i in range(len(events))]
    keys = [e for e in ("samples", "Ir", "D1mr") if e in events]
    for key in keys:
        k = events.index(key)
        print(f"\n-- by {key} (total {total[k]:,})")
        for name, values in sorted(by_line.items(), key=lambda kv: -kv[1][k])[:args.top]:
            n = name.split(":")[-1]
            text = source[int(n) - 1].strip()[:72] if n.isdigit() and int(n) <= len(source) else ""
            print(f"{100 * values[k] / total[k]:5.1f}%  {name:16s} {text}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
