#!/usr/bin/env python3
"""What Nsight's L2 hit rate would read if Hopper's two L2 partitions counted a load twice: the hypothesis behind
the L2 gaps of tests/sim/test_fidelity.py, computed from the shared H200 measurements and the simulator's own
per-instruction sector counts.

Nsight Compute's ``lts__t_sector_hit_rate`` counts every L2 lookup. On GA100 and GH100 the L2 is two partitions
joined by the LTC fabric: a request is looked up in the partition it reaches first and, on a miss there, in the
other (``lts__t_sectors_srcunit_ltcfabric``), and both lookups are counted. If a load of a line homed in the other
partition (a share ``--far``, 0.5 for an even address hash) misses in the first and is looked up again, and a store
is counted as a hit in both, the hit rate Nsight reads is

    (load hits + (1 + far) x store sectors) / ((1 + far) x (load sectors + store sectors))

where the simulator's single L2 gives (load hits + store sectors) / (load sectors + store sectors). This prints
both beside the measured rate for each file. It is a hypothesis to test with the device check's ``ncu-l2`` pass
(scripts/device_check.py L2_METRICS), not a part of the model: nothing in the simulator uses it.

Usage: PYTHONPATH=. python scripts/l2_partitions.py [--far 0.5] [FILE.npz ...]
(default: the measurements of tests/data/h200-2026-12-04 that Nsight profiled).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "h200-2026-12-04"


def lookups(result) -> tuple[int, int, int, int]:
    """(load sectors, load hits, store sectors, store hits) in L2, from the run's per-instruction counts."""
    prog, counts = result.warp_program, result.sectors_by_instruction
    load = [0, 0]
    store = [0, 0]
    for row in np.nonzero(counts.sum(axis=1))[0]:
        opcode = prog.listing[int(prog.static_index[row])].opcode
        side = store if opcode.startswith(("ST", "RED")) else load
        side[0] += int(counts[row, 2] + counts[row, 3])
        side[1] += int(counts[row, 2])
    return load[0], load[1], store[0], store[1]


def main(argv=None) -> int:
    from explorer.gpu.compare import compare
    from explorer.gpu.measurement import load_measurement
    from explorer.gpu.nsight import read_details

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--far", type=float, default=0.5, help="share of lines homed in the other partition")
    args = ap.parse_args(argv)
    files = args.files or sorted(DATA / "measurements" / f"{p.stem}.npz" for p in (DATA / "ncu-sections").glob("*.csv")
                                 if (DATA / "measurements" / f"{p.stem}.npz").exists())
    print(f"{'file':34} {'loads':>11} {'hits':>11} {'stores':>11} {'one L2':>7} {'2 parts':>7} {'Nsight':>7}")
    for path in files:
        result = compare(load_measurement(path)).result
        ld, ld_hit, st, st_hit = lookups(result)
        single = 100.0 * (ld_hit + st_hit) / max(1, ld + st)
        two = 100.0 * (ld_hit + (1 + args.far) * st_hit) / max(1, (1 + args.far) * (ld + st))
        ncu = DATA / "ncu-sections" / f"{path.stem}.csv"
        measured = read_details(ncu).get("L2 Hit Rate") if ncu.exists() else None
        shown = f"{float(measured):7.1f}" if measured is not None else f"{'-':>7}"
        print(f"{path.stem:34} {ld:11,} {ld_hit:11,} {st:11,} {single:7.1f} {two:7.1f} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
