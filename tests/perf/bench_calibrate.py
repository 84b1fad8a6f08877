"""``measure --calibrate`` benchmark: the CLI's wall time on the shared H200 measurements, A/B against a commit.

Each run is a fresh ``python -m explorer measure --from ... --calibrate --json`` (Python's start, the imports,
loading the measurements, the search and its simulations: what a user waits for), timed from outside. With
``--before REF`` the same command runs in a copy of that commit's tree (``git archive``, kept in the temporary
folder so its numba cache is built once, untimed, before the first run), alternating with this tree, so both
meet the same machine load. Each run's fitted figures, RMS error and number of simulations are printed beside
its time: a faster search that fits worse is no gain.

The sets (``--sets``):

* ``five``: the measurements of the five presets whose kernels read device memory (the ones the fit
  constrains; ``compute-bound-fma`` and ``tail-effect`` run the ``compute`` workload, which loads nothing):
  example-240x256, memory-bound-stream, latency-bound-low-occupancy, barrier-tiling, tensor-gemm;
* ``device-check``: the three ``scripts/device_check.py --calibrate`` fits;
* ``all``: every ``.npz`` in the folder (11).

Usage: ``python tests/perf/bench_calibrate.py [--sets five,all] [--before REF] [--rounds N] [--jobs N]``.
Target (issue 27 item 4): the five files in under two minutes on the project's 2-core machine, with progress.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "h200-2026-12-04" / "measurements"
SETS = {
    "five": ["example-240x256", "memory-bound-stream", "latency-bound-low-occupancy", "barrier-tiling",
             "tensor-gemm"],
    "device-check": ["example-240x256", "memory-bound-stream", "latency-bound-low-occupancy-matched"],
}


def files_of(name: str) -> list[Path]:
    if name == "all":
        return sorted(DATA.glob("*.npz"))
    if name not in SETS:
        raise SystemExit(f"bench_calibrate: --sets: unknown set {name!r} (five, device-check, all)")
    return [DATA / f"{stem}.npz" for stem in SETS[name]]


def tree_of(ref: str) -> Path:
    """A copy of commit ``ref``'s tree (kept between runs), its numba cache built."""
    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.strip()
    root = Path(tempfile.gettempdir()) / f"warp-explorer-bench-{sha}"
    if not (root / "explorer").is_dir():
        root.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    print(f"bench_calibrate: {ref} ({sha}) in {root}: loading its simulator (numba compiles it the first time)",
          file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-c", "from explorer.sim.engine import warm_up; warm_up()"], cwd=root,
                   env=dict(os.environ, PYTHONPATH=str(root)), check=True)
    return root


def run_once(root: Path, files: list[Path], jobs: int | None) -> dict:
    cmd = [sys.executable, "-m", "explorer", "measure", "--calibrate", "--json"]
    for f in files:
        cmd += ["--from", str(f)]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, env=dict(os.environ, PYTHONPATH=str(root)), capture_output=True,
                          text=True, timeout=3600)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])}...: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
    cal = json.loads(proc.stdout.splitlines()[-1])["calibration"]
    return {"wall_s": wall, "simulations": cal["evaluations"], "lat_dram": cal["after"]["lat_dram"],
            "dram_bytes_per_cycle": cal["after"]["dram_bytes_per_cycle"], "rms_before": cal["rms_error_before"],
            "rms_after": cal["rms_error_after"], "progress_lines": len(proc.stderr.splitlines())}


def machine() -> dict:
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    model = next((line.split(":", 1)[1].strip() for line in sh(["lscpu"]).splitlines()
                  if line.startswith("Model name")), "?")
    return {"date": sh(["date", "-u", "+%Y-%m-%d %H:%M UTC"]), "uptime": sh(["uptime"]), "cpu": model,
            "cores": os.cpu_count(), "python": sys.version.split()[0]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="five", help="comma-separated: five, device-check, all (default five)")
    ap.add_argument("--before", metavar="REF", help="also run this commit's tree, alternating (A/B)")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each tree per set (default 1)")
    ap.add_argument("--jobs", type=int, help="measure --jobs for this tree's runs (default: its own)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    trees = [("after", REPO, args.jobs)]
    if args.before:
        trees.insert(0, ("before", tree_of(args.before), None))
    info = machine()
    print(f"bench_calibrate: {info['date']}, {info['cpu']} ({info['cores']} cores), {info['uptime']}",
          file=sys.stderr, flush=True)
    rows = []
    for name in args.sets.split(","):
        files = files_of(name)
        for r in range(args.rounds):
            for label, root, jobs in trees:
                out = run_once(root, files, jobs)
                row = {"set": name, "files": len(files), "tree": label, "round": r + 1, **out,
                       "load_after": os.getloadavg()[0]}
                rows.append(row)
                print(f"bench_calibrate: {name} ({len(files)} files) {label} #{r + 1}: {out['wall_s']:.0f} s, "
                      f"{out['simulations']} simulations, lat_dram {out['lat_dram']}, "
                      f"{out['dram_bytes_per_cycle']:.1f} B/cycle, RMS {100 * out['rms_before']:.1f}% -> "
                      f"{100 * out['rms_after']:.1f}%, load {row['load_after']:.1f}", file=sys.stderr, flush=True)
    info["uptime_end"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    if args.json:
        print(json.dumps({"machine": info, "runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
