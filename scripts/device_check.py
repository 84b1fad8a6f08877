"""The GPU check a session with an NVIDIA GPU runs once (called by scripts/device_check.sh).

Needs only Python 3.11+, numpy and cuda-bindings (nvidia-ml-py, pytest, nvcc, cuobjdump,
ncu and numba are used when present, skipped with a note when not). Installs nothing.
Every step has its own timeout and the whole run stops starting new steps after
``--budget`` seconds, so it finishes well inside ten minutes.

Writes to ``--out`` (default ``$OUT`` or ./device-out):
  log.txt                       everything, step by step
  environment.json              versions, driver, probe answer
  pytest-gpu.txt                the GPU-backend tests (device tests included)
  measurements/PRESET.npz       one measurement per shipped preset (+ variants)
  measurements/PRESET.json      its summary line (measure --json)
  kernels/PRESET.cu             the generated kernel that ran
  ncu/PRESET.csv                Nsight Compute's occupancy figures for the same kernel
  calibration.json              the simulator's DRAM figures fitted to the measurements
  summary.txt                   one line per measurement, measured vs theoretical
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
START = time.monotonic()

# (file stem, preset, extra measure flags)
RUNS = [
    ("example-240x256", "example-240x256", []),
    ("memory-bound-stream", "memory-bound-stream", []),
    ("compute-bound-fma", "compute-bound-fma", []),
    ("latency-bound-low-occupancy", "latency-bound-low-occupancy", []),
    ("latency-bound-low-occupancy-matched", "latency-bound-low-occupancy", ["--match-occupancy"]),
    ("barrier-tiling", "barrier-tiling", []),
    ("tail-effect", "tail-effect", []),
    ("tail-effect-matched", "tail-effect", ["--match-occupancy"]),
    ("tensor-gemm", "tensor-gemm", []),
    ("tensor-gemm-per-block", "tensor-gemm", ["--per-block", "--match-occupancy"]),
]
NCU_RUNS = ["example-240x256", "memory-bound-stream", "latency-bound-low-occupancy", "tensor-gemm"]
NCU_METRICS = ",".join([
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
    "gpu__time_duration.sum",
    "sm__cycles_active.avg",
    "smsp__issue_active.avg.per_cycle_active",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
])


class Log:
    def __init__(self, path: Path):
        self.fh = open(path, "a", encoding="utf-8")

    def __call__(self, text: str = "") -> None:
        line = f"[{time.monotonic() - START:6.1f}s] {text}"
        print(line, flush=True)
        self.fh.write(line + "\n")
        self.fh.flush()


def env_for_child() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return env


def run(log: Log, cmd: list[str], timeout: float, *, out_file: Path | None = None, env: dict | None = None) -> tuple[int, str]:
    log("$ " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(REPO),
                              env=env or env_for_child(), stdin=subprocess.DEVNULL)
        text, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        text = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        text += f"\n(timed out after {timeout:g} s)"
        code = 124
    except OSError as exc:
        text, code = f"cannot run: {exc}", 127
    if out_file is not None:
        out_file.write_text(text, encoding="utf-8")
    tail = text.strip().splitlines()[-15:]
    for line in tail:
        log("    " + line)
    log(f"    -> exit {code}")
    return code, text


def have(module: str) -> bool:
    try:
        __import__(module)
        return True
    except Exception:  # noqa: BLE001
        return False


def left(budget: float) -> float:
    return budget - (time.monotonic() - START)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT") or str(REPO / "device-out"))
    ap.add_argument("--budget", type=float, default=480.0, help="seconds after which no new step starts")
    ap.add_argument("--skip-tests", action="store_true")
    ap.add_argument("--skip-ncu", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    for sub in ("measurements", "kernels", "ncu"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    log = Log(out / "log.txt")
    py = sys.executable
    sys.path.insert(0, str(REPO))

    # -- 1. environment --------------------------------------------------------------------
    log(f"Warp Explorer device check; repository {REPO}; output {out}")
    env: dict = {"python": sys.version, "platform": platform.platform(), "executable": py}
    for mod in ("numpy", "cuda.bindings", "cuda.core", "pynvml", "pytest", "numba", "PySide6"):
        try:
            m = __import__(mod, fromlist=["__version__"])
            env[mod] = getattr(m, "__version__", "present")
        except Exception as exc:  # noqa: BLE001
            env[mod] = f"missing ({type(exc).__name__})"
    for tool in ("nvidia-smi", "nvcc", "ncu", "cuobjdump", "nvdisasm"):
        env[tool] = shutil.which(tool) or "missing"
    from explorer.gpu.probe import probe

    p = probe(30.0, use_cache=False)
    env["probe"] = p.to_json()
    try:
        from explorer.gpu.compiler import compiler_backend, nvrtc_version

        env["compiler"] = compiler_backend()
        try:
            env["nvrtc"] = "%d.%d" % nvrtc_version()
        except Exception as exc:  # noqa: BLE001
            env["nvrtc"] = f"unavailable: {exc}"
    except Exception as exc:  # noqa: BLE001
        env["compiler"] = f"unavailable: {exc}"
    for key, value in env.items():
        log(f"{key}: {value}")
    (out / "environment.json").write_text(json.dumps(env, indent=2, default=str), encoding="utf-8")
    if shutil.which("nvidia-smi"):
        run(log, ["nvidia-smi"], 30, out_file=out / "nvidia-smi.txt")
    if shutil.which("nvcc"):
        run(log, ["nvcc", "--version"], 30)
    if not p.ok:
        log(f"NO GPU: {p.reason}; the measurement steps are skipped")

    # -- 2. the GPU-backend tests --------------------------------------------------------------
    if not args.skip_tests:
        if have("pytest"):
            run(log, [py, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:pytest-qt",
                      "-p", "no:hypothesispytest", "--noconftest", "tests/gpu"],
                min(300, max(60, left(args.budget) - 200)), out_file=out / "pytest-gpu.txt")
        else:
            log("pytest is not installed: the device tests run under scripts/mini_pytest.py")
            run(log, [py, str(REPO / "scripts" / "mini_pytest.py")], min(300, max(60, left(args.budget) - 200)),
                out_file=out / "pytest-gpu.txt")

    # -- 3. measure every preset ---------------------------------------------------------------
    summaries = []
    if p.ok:
        for stem, preset, flags in RUNS:
            if left(args.budget) < 40:
                log(f"budget spent: {stem} not measured")
                continue
            npz = out / "measurements" / f"{stem}.npz"
            cmd = [py, "-m", "explorer", "measure", preset, "--out", str(npz), "--json", "--nvml-seconds", "1.5",
                   "--timeout", "120", *flags]
            code, text = run(log, cmd, 150)
            if code != 0 and "cuModuleLoadData" in text and shutil.which("nvcc"):
                log("the driver rejected the NVRTC cubin: retrying with nvcc")
                code, text = run(log, cmd, 150, env={**env_for_child(), "WARP_EXPLORER_COMPILER": "nvcc"})
            if code == 0:
                line = next((x for x in text.splitlines() if x.startswith("{")), "{}")
                (out / "measurements" / f"{stem}.json").write_text(line + "\n", encoding="utf-8")
                try:
                    s = json.loads(line)
                    summaries.append((stem, s))
                    from explorer.gpu.measurement import load_measurement

                    m = load_measurement(npz)
                    (out / "kernels" / f"{stem}.cu").write_text(m.meta.get("source", ""), encoding="utf-8")
                except Exception as exc:  # noqa: BLE001
                    log(f"    (cannot read the result: {exc})")

    # -- 4. Nsight Compute on the same kernels ---------------------------------------------------
    if p.ok and not args.skip_ncu and shutil.which("ncu"):
        for preset in NCU_RUNS:
            if left(args.budget) < 60:
                log(f"budget spent: no ncu run for {preset}")
                continue
            cmd = ["ncu", "--target-processes", "all", "--kernel-name", "we_kernel", "--launch-skip", "1",
                   "--launch-count", "1", "--metrics", NCU_METRICS, "--csv",
                   py, "-m", "explorer", "measure", preset, "--nvml-seconds", "0", "--repeats", "1",
                   "--timeout", "150"]
            run(log, cmd, 180, out_file=out / "ncu" / f"{preset}.csv")

    # -- 5. calibration from the measurements ---------------------------------------------------
    files = [str(out / "measurements" / f"{stem}.npz") for stem in
             ("example-240x256", "memory-bound-stream", "latency-bound-low-occupancy-matched")
             if (out / "measurements" / f"{stem}.npz").exists()]
    if files and have("numba") and left(args.budget) > 90:
        cmd = [py, "-m", "explorer", "measure", "--calibrate", "--compare", "--json"]
        for f in files:
            cmd += ["--from", f]
        code, text = run(log, cmd, min(240, left(args.budget) - 20))
        if code == 0:
            (out / "calibration.json").write_text(text, encoding="utf-8")
    elif files:
        log("calibration skipped (needs numba for the simulator, or the time budget is spent); "
            "run later: warp-explorer measure --from FILE.npz ... --calibrate --compare")

    # -- 6. summary ------------------------------------------------------------------------------
    lines = [f"{'measurement':38} {'us':>8} {'cycles':>9} {'MHz':>6} {'theor.':>7} {'achieved':>8} "
             f"{'blk/SM':>6} {'drv':>4} {'max':>4} {'NVML%':>6} {'GPM occ%':>8}"]
    for stem, s in summaries:
        def f(v, spec):
            return "-" if v is None else format(v, spec)
        lines.append(f"{stem:38} {f(s.get('kernel_time_us'), '8.1f')} {f(s.get('cycles'), '9d')} "
                     f"{f(s.get('clock_mhz'), '6.0f')} {f(s.get('theoretical_occupancy'), '7.3f')} "
                     f"{f(s.get('achieved_occupancy'), '8.3f')} {f(s.get('active_blocks_per_sm'), '6d')} "
                     f"{f(s.get('driver_active_blocks_per_sm'), '4d')} {f(s.get('measured_max_blocks_per_sm'), '4d')} "
                     f"{f(s.get('nvml_utilization_gpu'), '6.0f')} {f(s.get('gpm_sm_occupancy'), '8.1f')}")
    (out / "summary.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines:
        log(line)
    log(f"done in {time.monotonic() - START:.0f} s; {len(summaries)} of {len(RUNS)} measurements")
    return 0 if (summaries or not p.ok) else 1


if __name__ == "__main__":
    sys.exit(main())
