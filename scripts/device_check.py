"""The GPU check a session with an NVIDIA GPU runs once (called by scripts/device_check.sh).

Needs only Python 3.11+, numpy and cuda-bindings (nvidia-ml-py, pytest, nvcc, cuobjdump,
ncu and numba are used when present, skipped with a note when not). Installs nothing.

Order (what matters most first; what may leave the GPU unusable last):
  1. environment          versions, driver, probe answer, nvidia-smi
  2. measurements         every shipped preset (+ variants), loops lengthened for the timer
  2b. microbenchmarks     ``warp-explorer microbench``: latencies, the loaded-latency curve,
                          bandwidths, FFMA, launch costs, NVML (explorer/gpu/microbench.py);
                          an estimated 15-30 s, at most CAP_MICROBENCH; writes the catalog fragment
  3. GPU tests            tests/gpu/test_device.py, except the fault and hang tests
  4. Nsight Compute       the same kernels, ``--clock-control none`` (clocks are never locked)
  5. calibration          only with ``--calibrate`` (CPU work: do it later from the archive)
  6. fault and hang tests a faulting and a spinning kernel; if the GPU does not recover from
                          those, nothing after them is lost
Every step runs in a process session of its own and is killed as a group when its time is
up (so a measurement's worker cannot outlive it), and no step starts past ``--budget``
seconds or runs past ``--hard``. SIGTERM (the shell script's ``timeout``) kills the running
step's group and ends the run at once.

Writes into ``--stage`` (default ./device-stage):
  log.txt                       everything, step by step
  summary.txt                   one line per measurement, measured vs theoretical, timer step
  environment.json              versions, driver, probe answer (+ nvidia-smi.txt)
  pytest-gpu.txt, pytest-fault.txt
  measurements/RUN.npz          one measurement per run, with its summary (RUN.json)
  kernels/RUN.cu                the generated kernel that ran
  ncu/RUN.csv                   Nsight Compute's figures for the same kernel
  measured/GPU.toml             the catalog fragment of the GPU it ran on (this run's figures over
                                the shipped resources/measured/GPU.toml), measured/microbench.json
                                every repetition, microbench.txt the figures as text
``--adopt RESULTS.tar.gz|GPU.toml ...`` puts a returned fragment into resources/measured/ (checked
against the schema, merged over the file there, written atomically): the next run on any GPU
refreshes that GPU's file this way.
``--pack STAGE --out OUT`` then packs the stage into at most six archives of <= 15 MiB
in OUT, beside copies of log.txt and summary.txt (a GPU run brings back at most 8 files,
16 MiB each, 64 MiB in all, 2 folders deep, names of letters, digits, ``.``, ``_``, ``-``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
START = time.monotonic()

# Loops for device runs. The globaltimer steps in ~1 us on H100/H200 (about 2,000 cycles at
# 1980 MHz); a block should span >= 100 steps (>= ~200,000 cycles) for +-1% placement and
# duration. Simulated block length at the preset's loop (H100, cycles) -> device loop:
#   example-240x256 10,458 @16 -> 320 | memory-bound-stream 61,327 @8 -> 32 |
#   compute-bound-fma 1,284 @8 -> 1280 | latency-bound-low-occupancy 10,046 @16 -> 320 |
#   barrier-tiling 11,147 @16 -> 320 | tail-effect 1,032 @4 -> 800 | tensor-gemm 20,333 @32 -> 320
# Only workload.loop changes: the body, grid, block and resources are the preset's.
LOOPS = {"example-240x256": 320, "memory-bound-stream": 32, "compute-bound-fma": 1280,
         "latency-bound-low-occupancy": 320, "barrier-tiling": 320, "tail-effect": 800, "tensor-gemm": 320}

# (run name, preset, extra measure flags); the loop from LOOPS unless the flags set one
RUNS = [
    ("example-240x256", "example-240x256", []),
    ("example-240x256-preset-loop", "example-240x256", ["--set", "workload.loop=16"]),  # as the window shows it
    # the same with lane 0 of each warp stamping clock64 at every iteration's top (measure --iteration-clocks):
    # which iterations of which warps take the ~3,000-cycle waits of the loop-16 tail (docs/real-gpu.md). Its
    # duration carries the probe's stores, so the fidelity test does not compare it
    ("example-240x256-preset-loop-iterations", "example-240x256",
     ["--set", "workload.loop=16", "--iteration-clocks"]),
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
    "lts__t_sector_hit_rate.pct",
])
# a second, separate pass (an unknown metric name fails ncu's whole run, so these cannot cost the pass above):
# how Nsight counts an L2 access on a two-partition L2 (GA100, GH100). A request is looked up first in one
# partition; a miss there may hit in the other, reached over the LTC fabric, and each lookup is counted
# (lts__t_sector_hit_rate). The shared H200 run's hit rates fit "a load of a line homed in the other partition
# is looked up twice" on the stream, the example and barrier-tiling, not on tensor-gemm (docs/model.md, L2):
# these counters say which lookups hit where, per operation
L2_METRICS = ",".join([
    "lts__t_sectors.sum",
    "lts__t_sectors_lookup_hit.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_read_lookup_hit.sum",
    "lts__t_sectors_op_write.sum",
    "lts__t_sectors_op_write_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex.sum",
    "lts__t_sectors_srcunit_tex_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sectors_srcunit_ltcfabric.sum",
    "lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum",
    "lts__t_requests_srcunit_ltcfabric.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
])
# run last: a faulting kernel and one that spins until it is killed
FAULT_TESTS = ("test_a_faulty_kernel_is_one_error_and_leaves_us_usable", "test_a_hung_kernel_is_stopped_by_the_timeout")
DEVICE_TESTS = "tests/gpu/test_device.py"

# step time caps (seconds); each is also cut to what --hard leaves
CAP_MEASURE, CAP_NCU, CAP_TESTS, CAP_FAULT, CAP_CALIBRATE = 90, 120, 150, 90, 180
CAP_MICROBENCH = 150  # the microbenchmarks' own budget is this less MICROBENCH_STARTUP (they skip what would not fit)
MICROBENCH_STARTUP = 45  # start-up, compile, driver initialisation and writing, around the groups
FAULT_RESERVE = 50  # seconds kept for the fault and hang tests when Nsight Compute runs

# what comes back from a GPU run (see the module docstring)
RETURN_FILES, RETURN_FILE_BYTES, RETURN_TOTAL_BYTES = 8, 16 << 20, 64 << 20
PART_BYTES = 15 << 20  # an archive part, with a margin under the 16 MiB limit
MAX_PARTS = RETURN_FILES - 2  # log.txt and summary.txt come back beside the archives
SAFE_NAME = re.compile(r"[A-Za-z0-9._-]+")


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


_current: subprocess.Popen | None = None  # the running step, killed with its group on SIGTERM


def _die_with_us() -> None:
    """In the step's child, before exec: SIGKILL when this script dies (Linux), a backstop to SIGTERM."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001
        pass


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the step's whole process group (its session: the step and everything it started)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def run(log: Log, cmd: list[str], timeout: float, *, out_file: Path | None = None, env: dict | None = None,
        cwd: Path = REPO) -> tuple[int, str]:
    """Run one step in a session of its own; on timeout kill the whole group. Returns (exit code, output)."""
    global _current
    log("$ " + " ".join(cmd) + f"   (limit {timeout:.0f} s)")
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=str(cwd), env=env or env_for_child(), start_new_session=True,
                                preexec_fn=_die_with_us if sys.platform.startswith("linux") else None)
    except OSError as exc:
        text, code = f"cannot run: {exc}", 127
    else:
        _current = proc
        try:
            out, _ = proc.communicate(timeout=max(1.0, timeout))
            code = proc.returncode
        except subprocess.TimeoutExpired:
            kill_group(proc)
            out, _ = proc.communicate()
            code = 124
            out = (out or b"") + f"\n(timed out after {timeout:.0f} s; its process group was killed)".encode()
        finally:
            kill_group(proc)  # whatever it left running (a worker, an ncu target) goes with it
            _current = None
        text = (out or b"").decode("utf-8", "replace")
    if out_file is not None:
        out_file.write_text(text, encoding="utf-8")
    for line in text.strip().splitlines()[-15:]:
        log("    " + line)
    log(f"    -> exit {code}")
    return code, text


def needs_nvcc_retry(code: int, text: str) -> bool:
    """A failed measurement that nvcc may fix: the driver rejected NVRTC's cubin, or NVRTC itself is broken."""
    if code == 0:
        return False
    return any(s in text for s in ("cuModuleLoadData", "NVRTC", "nvrtc", "CUDA_ERROR_INVALID_IMAGE",
                                   "CUDA_ERROR_NO_BINARY_FOR_GPU", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"))


def have(module: str) -> bool:
    try:
        __import__(module)
        return True
    except Exception:  # noqa: BLE001
        return False


class Budget:
    """No new step after ``soft`` seconds; no step past ``hard``."""

    def __init__(self, soft: float, hard: float):
        self.soft, self.hard = soft, hard

    def elapsed(self) -> float:
        return time.monotonic() - START

    def allows(self, needed: float = 10.0) -> bool:
        return self.elapsed() < self.soft and self.hard - self.elapsed() >= needed

    def limit(self, cap: float) -> float:
        return max(1.0, min(cap, self.hard - self.elapsed() - 5.0))


def loop_flags(preset: str, flags: list[str]) -> list[str]:
    if any(f.startswith("workload.loop=") for f in flags) or preset not in LOOPS:
        return []
    return ["--set", f"workload.loop={LOOPS[preset]}"]


def step_environment(log: Log, stage: Path, py: str, budget: Budget):
    env: dict = {"python": sys.version, "platform": platform.platform(), "executable": py}
    for mod in ("numpy", "cuda.bindings", "cuda.core", "pynvml", "pytest", "numba", "PySide6"):
        try:
            m = __import__(mod, fromlist=["__version__"])
            env[mod] = getattr(m, "__version__", "present")
        except Exception as exc:  # noqa: BLE001
            env[mod] = f"missing ({type(exc).__name__})"
    from explorer.toolchain.tools import find_tool

    for tool in ("nvidia-smi", "nvcc", "ncu", "cuobjdump", "nvdisasm"):
        env[tool] = shutil.which(tool) or find_tool(tool) or "missing"
    from explorer.gpu.probe import probe

    p = probe(30.0, use_cache=False)
    env["probe"] = p.to_json()
    try:
        from explorer.toolchain.compiler import compiler_backend, nvrtc_version

        env["compiler"] = compiler_backend()
        try:
            env["nvrtc"] = "%d.%d" % nvrtc_version()
        except Exception as exc:  # noqa: BLE001
            env["nvrtc"] = f"unavailable: {exc}"
    except Exception as exc:  # noqa: BLE001
        env["compiler"] = f"unavailable: {exc}"
    for key, value in env.items():
        log(f"{key}: {value}")
    (stage / "environment.json").write_text(json.dumps(env, indent=2, default=str), encoding="utf-8")
    if shutil.which("nvidia-smi"):
        run(log, ["nvidia-smi"], budget.limit(30), out_file=stage / "nvidia-smi.txt")
    nvcc = find_tool("nvcc")
    if nvcc:
        run(log, [nvcc, "--version"], budget.limit(30))
    return p


def step_measure(log: Log, stage: Path, py: str, budget: Budget, runs) -> list:
    from explorer.toolchain.tools import find_tool

    summaries = []
    for stem, preset, flags in runs:
        if not budget.allows(40):
            log(f"budget spent: {stem} not measured")
            continue
        npz = stage / "measurements" / f"{stem}.npz"
        cmd = [py, "-m", "explorer", "measure", preset, *loop_flags(preset, flags), *flags, "--out", str(npz),
               "--json", "--nvml-seconds", "1.5", "--timeout", "75"]
        code, text = run(log, cmd, budget.limit(CAP_MEASURE))
        if needs_nvcc_retry(code, text) and find_tool("nvcc") and budget.allows(30):
            log("NVRTC failed or the driver rejected its cubin: retrying with nvcc")
            code, text = run(log, cmd, budget.limit(CAP_MEASURE), env={**env_for_child(), "WARP_EXPLORER_COMPILER": "nvcc"})
        if code != 0:
            continue
        line = next((x for x in text.splitlines() if x.startswith("{")), "{}")
        (stage / "measurements" / f"{stem}.json").write_text(line + "\n", encoding="utf-8")
        try:
            summaries.append((stem, json.loads(line)))
            from explorer.gpu.measurement import load_measurement

            m = load_measurement(npz)
            (stage / "kernels" / f"{stem}.cu").write_text(m.meta.get("source", ""), encoding="utf-8")
        except Exception as exc:  # noqa: BLE001
            log(f"    (cannot read the result: {exc})")
    return summaries


def step_microbench(log: Log, stage: Path, py: str, budget: Budget) -> None:
    """The microbenchmarks: ``measured/GPU.toml`` + ``measured/microbench.json``, the figures in microbench.txt."""
    if not budget.allows(MICROBENCH_STARTUP + 20):
        log("budget spent: microbenchmarks not run")
        return
    limit = budget.limit(CAP_MICROBENCH)
    own = max(10, int(limit - MICROBENCH_STARTUP))
    cmd = [py, "-m", "explorer", "microbench", "--out", str(stage / "measured"), "--budget", str(own)]
    code, text = run(log, cmd, limit)
    figures = [line for line in text.splitlines() if not line.startswith("microbench: ")]
    (stage / "microbench.txt").write_text("\n".join(figures) + "\n", encoding="utf-8")


def adopt(sources: list[str], folder: Path | None = None) -> list[str]:
    """Put returned fragments (``GPU.toml`` files, or the ``measured/*.toml`` in result archives) into
    ``resources/measured/``, each checked against the schema and merged over the file already there."""
    sys.path.insert(0, str(REPO))
    from explorer.model.atomic import atomic_write_text
    from explorer.model.errors import read_user_text
    from explorer.model.measured import (MAX_FRAGMENT_BYTES, MeasuredError, format_fragment, merge_fragments,
                                         parse_fragment, read_fragment)

    folder = folder or REPO / "resources" / "measured"
    texts: list[tuple[str, str]] = []
    for source in sources:
        path = Path(source)
        if path.suffix == ".toml":
            texts.append((str(path), read_user_text(path, kind="a measured-figures TOML file",
                                                    limit=MAX_FRAGMENT_BYTES)))
            continue
        with tarfile.open(path) as tar:
            for member in tar.getmembers():
                if not (member.isfile() and re.fullmatch(r"measured/[A-Za-z0-9._-]+\.toml", member.name)):
                    continue
                if member.size > MAX_FRAGMENT_BYTES:
                    raise MeasuredError(member.name, f"{member.size:,} B, above {MAX_FRAGMENT_BYTES:,}")
                texts.append((f"{path.name}:{member.name}", tar.extractfile(member).read().decode("utf-8")))
    done = []
    import tomllib

    for where, text in texts:
        facts = parse_fragment(tomllib.loads(text), where)
        if not SAFE_NAME.fullmatch(facts.gpu) or facts.gpu.startswith("."):
            raise MeasuredError(where, f"{facts.gpu!r} is not a file name")
        target = folder / f"{facts.gpu}.toml"
        old = read_fragment(target).to_document() if target.is_file() else None
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, format_fragment(merge_fragments(old, facts.to_document())))
        done.append(f"{where} -> {target}")
    return done


def pytest_cmd(py: str, *args: str) -> list[str]:
    if have("pytest"):
        return [py, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:pytest-qt",
                "-p", "no:hypothesispytest", "--noconftest", *args]
    return [py, str(REPO / "scripts" / "mini_pytest.py"), *args]


def step_tests(log: Log, stage: Path, py: str, budget: Budget) -> None:
    if not budget.allows(60):
        log("budget spent: GPU tests not run")
        return
    if have("pytest"):
        # the device tests only: the rest of tests/gpu runs anywhere (and may need test extras this machine lacks)
        args = [DEVICE_TESTS, "-m", "gpu", *[a for t in FAULT_TESTS for a in ("--deselect", f"{DEVICE_TESTS}::{t}")]]
    else:
        log("pytest is not installed: the device tests run under scripts/mini_pytest.py")
        args = ["--skip", ",".join(FAULT_TESTS)]
    run(log, pytest_cmd(py, *args), budget.limit(CAP_TESTS), out_file=stage / "pytest-gpu.txt")


def step_fault_tests(log: Log, stage: Path, py: str, budget: Budget) -> None:
    if not budget.allows(45):
        log("budget spent: fault and hang tests not run")
        return
    args = [f"{DEVICE_TESTS}::{t}" for t in FAULT_TESTS] if have("pytest") else ["--only", ",".join(FAULT_TESTS)]
    run(log, pytest_cmd(py, *args), budget.limit(CAP_FAULT), out_file=stage / "pytest-fault.txt")


def step_ncu(log: Log, stage: Path, py: str, budget: Budget, presets) -> None:
    ncu = shutil.which("ncu")
    if ncu is None:
        log("ncu is not installed: no Nsight Compute comparison")
        return
    for preset in presets:
        if not budget.allows(60 + FAULT_RESERVE):  # the fault and hang tests still get their turn
            log(f"budget spent: no ncu run for {preset}")
            continue
        run(log, ncu_cmd(ncu, NCU_METRICS, py, preset), budget.limit(CAP_NCU), out_file=stage / "ncu" / f"{preset}.csv")
    for preset in presets:  # the L2 partitions' counters, after every preset has its main figures
        if not budget.allows(60 + FAULT_RESERVE):
            log(f"budget spent: no ncu L2 run for {preset}")
            continue
        run(log, ncu_cmd(ncu, L2_METRICS, py, preset), budget.limit(CAP_NCU),
            out_file=stage / "ncu-l2" / f"{preset}.csv")


def ncu_cmd(ncu: str, metrics: str, py: str, preset: str) -> list[str]:
    """Nsight Compute on the preset's measured launch (the second one: the first warms the module), the card's
    clocks left as they are, the caches flushed before it as ``measure`` flushes L2."""
    return [ncu, "--clock-control", "none", "--cache-control", "all", "--target-processes", "all",
            "--kernel-name", "we_kernel", "--launch-skip", "1", "--launch-count", "1", "--metrics", metrics,
            "--csv", py, "-m", "explorer", "measure", preset, *loop_flags(preset, []), "--nvml-seconds", "0",
            "--repeats", "1", "--timeout", "100"]


def step_calibrate(log: Log, stage: Path, py: str, budget: Budget) -> None:
    files = [str(stage / "measurements" / f"{s}.npz") for s in
             ("example-240x256", "memory-bound-stream", "latency-bound-low-occupancy-matched")
             if (stage / "measurements" / f"{s}.npz").exists()]
    if not files or not have("numba") or not budget.allows(90):
        log("calibration skipped (needs measurements, numba and time)")
        return
    cmd = [py, "-m", "explorer", "measure", "--calibrate", "--compare", "--json"]
    for f in files:
        cmd += ["--from", f]
    code, text = run(log, cmd, budget.limit(CAP_CALIBRATE))
    if code == 0:  # the JSON lines (stdout); its progress lines (stderr) are in the log
        (stage / "calibration.json").write_text("".join(line + "\n" for line in text.splitlines()
                                                        if line.startswith("{")), encoding="utf-8")


def summary_lines(summaries) -> list[str]:
    def f(v, spec):
        return "-" if v is None else format(v, spec)

    lines = [f"{'measurement':38} {'us':>8} {'cycles':>10} {'MHz':>6} {'tick ns':>7} {'L2 flush MB':>11} "
             f"{'theor.':>7} {'achieved':>8} {'blk/SM':>6} {'drv':>4} {'max':>4} {'NVML%':>6} {'GPM occ%':>8}"]
    for stem, s in summaries:
        flush = s.get("l2_flush_bytes")
        lines.append(f"{stem:38} {f(s.get('kernel_time_us'), '8.1f')} {f(s.get('cycles'), '10d')} "
                     f"{f(s.get('clock_mhz'), '6.0f')} {f(s.get('globaltimer_tick_ns'), '7.0f')} "
                     f"{f(flush / 2**20 if flush else None, '11.0f')} "
                     f"{f(s.get('theoretical_occupancy'), '7.3f')} "
                     f"{f(s.get('achieved_occupancy'), '8.3f')} {f(s.get('active_blocks_per_sm'), '6d')} "
                     f"{f(s.get('driver_active_blocks_per_sm'), '4d')} {f(s.get('measured_max_blocks_per_sm'), '4d')} "
                     f"{f(s.get('nvml_utilization_gpu'), '6.0f')} {f(s.get('gpm_sm_occupancy'), '8.1f')}")
    return lines


def _on_sigterm(signum, _frame):
    if _current is not None:
        kill_group(_current)
    raise SystemExit(128 + signum)


def main_check(args) -> int:
    stage = Path(args.stage)
    for sub in ("measurements", "kernels", "ncu"):
        (stage / sub).mkdir(parents=True, exist_ok=True)
    log = Log(stage / "log.txt")
    signal.signal(signal.SIGTERM, _on_sigterm)
    py = sys.executable
    sys.path.insert(0, str(REPO))
    budget = Budget(args.budget, args.hard)
    runs = [r for r in RUNS if not args.runs or r[0] in args.runs.split(",")]
    ncu_runs = [r for r in NCU_RUNS if not args.ncu or r in args.ncu.split(",")]
    log(f"Warp Explorer device check; repository {REPO}; staging in {stage}")
    log(f"budget: no step starts after {args.budget:.0f} s, none runs past {args.hard:.0f} s; "
        f"{len(runs)} measurements, {'no ' if args.skip_microbench else ''}microbenchmarks, then GPU tests, "
        f"{0 if args.skip_ncu else len(ncu_runs)} ncu runs, "
        f"{'calibration, ' if args.calibrate else ''}fault and hang tests last")

    p = step_environment(log, stage, py, budget)
    summaries = []
    if not p.ok:
        log(f"NO GPU: {p.reason}; the GPU steps are skipped")
    else:
        summaries = step_measure(log, stage, py, budget, runs)
        if not args.skip_microbench:
            step_microbench(log, stage, py, budget)
        if not args.skip_tests:
            step_tests(log, stage, py, budget)
        if not args.skip_ncu:
            step_ncu(log, stage, py, budget, ncu_runs)
        if args.calibrate:
            step_calibrate(log, stage, py, budget)
        if not args.skip_tests:
            step_fault_tests(log, stage, py, budget)

    lines = summary_lines(summaries)
    if (stage / "microbench.txt").is_file():
        lines += ["", "microbenchmarks (warp-explorer microbench):"]
        lines += (stage / "microbench.txt").read_text(encoding="utf-8").rstrip("\n").splitlines()
    (stage / "summary.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines:
        log(line)
    log(f"done in {time.monotonic() - START:.0f} s; {len(summaries)} of {len(runs)} measurements")
    return 0 if (summaries or not p.ok) else 1


# -- packing for the trip back -------------------------------------------------------------
PRIORITY = ("summary.txt", "log.txt", "environment.json", "measurements/", "measured/", "microbench.txt", "kernels/",
            "pytest-", "ncu/", "calibration.json", "nvidia-smi.txt")


def _priority(rel: str) -> int:
    return next((i for i, p in enumerate(PRIORITY) if rel.startswith(p)), len(PRIORITY))


def pack(stage: Path, out: Path) -> list[str]:
    """Pack ``stage`` into ``out`` within the return limits; returns notes on anything left out."""
    out.mkdir(parents=True, exist_ok=True)
    notes: list[str] = []
    for name in ("log.txt", "summary.txt"):
        src = stage / name
        if src.is_file() and src.stat().st_size <= RETURN_FILE_BYTES:
            shutil.copyfile(src, out / name)
        else:
            (out / name).write_text(f"({name} was not written or is too large: the run was stopped early; "
                                    "see the archive)\n", encoding="utf-8")
    files = sorted((p for p in stage.rglob("*") if p.is_file()), key=lambda p: (_priority(str(p.relative_to(stage))),
                                                                                 str(p)))
    parts: list[list[tuple[Path, int]]] = [[]]
    sizes = [0]
    for path in files:
        size = len(_gz(path.read_bytes()))  # what it adds to a part, compressed
        if size > PART_BYTES - 65536:
            notes.append(f"left out {path.relative_to(stage)}: {size:,} B compressed, above one archive's limit")
            continue
        if sizes[-1] + size + 4096 > PART_BYTES:
            if len(parts) == MAX_PARTS:
                notes.append(f"left out {path.relative_to(stage)}: the {MAX_PARTS} archives are full")
                continue
            parts.append([])
            sizes.append(0)
        parts[-1].append((path, size))
        sizes[-1] += size + 1024
    manifest = ["file bytes"] + [f"{p.relative_to(stage)} {p.stat().st_size}" for part in parts for p, _ in part]
    manifest += [f"# {n}" for n in notes]
    for i, part in enumerate(parts):
        name = "results.tar.gz" if len(parts) == 1 else f"results-{i + 1}-of-{len(parts)}.tar.gz"
        with tarfile.open(out / name, "w:gz", compresslevel=6) as tar:
            if i == 0:
                data = ("\n".join(manifest) + "\n").encode()
                info = tarfile.TarInfo("MANIFEST.txt")
                info.size, info.mtime = len(data), int(time.time())
                tar.addfile(info, io.BytesIO(data))
            for path, _ in part:
                tar.add(path, arcname=str(path.relative_to(stage)), recursive=False)
    check_return_limits(out)
    return notes


def _gz(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=6)


def check_return_limits(out: Path) -> list[str]:
    """What in ``out`` breaks the return limits ([] when everything will come back)."""
    problems = []
    files = [p for p in out.rglob("*") if p.is_file()]
    if len(files) > RETURN_FILES:
        problems.append(f"{len(files)} files, above {RETURN_FILES}")
    total = 0
    for p in files:
        rel = p.relative_to(out)
        size = p.stat().st_size
        total += size
        if size > RETURN_FILE_BYTES:
            problems.append(f"{rel}: {size:,} B, above {RETURN_FILE_BYTES:,}")
        if len(rel.parts) > 3 or not all(SAFE_NAME.fullmatch(part) for part in rel.parts):
            problems.append(f"{rel}: too deep or not a plain name")
    if total > RETURN_TOTAL_BYTES:
        problems.append(f"{total:,} B in all, above {RETURN_TOTAL_BYTES:,}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="the device check (see the module docstring)")
    ap.add_argument("--stage", default=str(REPO / "device-stage"), help="where every result is written")
    ap.add_argument("--budget", type=float, default=345.0, help="seconds after which no new step starts")
    ap.add_argument("--hard", type=float, default=370.0, help="seconds no step may run past")
    ap.add_argument("--runs", default="", help="comma-separated run names (default: all)")
    ap.add_argument("--ncu", default="", help="comma-separated presets for Nsight Compute (default: four)")
    ap.add_argument("--skip-tests", action="store_true")
    ap.add_argument("--skip-ncu", action="store_true")
    ap.add_argument("--skip-microbench", action="store_true", help="no microbenchmarks (warp-explorer microbench)")
    ap.add_argument("--calibrate", action="store_true", help="also fit the simulator (CPU work, numba)")
    ap.add_argument("--pack", metavar="STAGE", help="pack STAGE into --out instead of running the check")
    ap.add_argument("--out", help="with --pack: the folder that comes back ($OUT)")
    ap.add_argument("--adopt", nargs="+", metavar="RESULTS.tar.gz|GPU.toml",
                    help="put returned fragments into resources/measured/ instead of running the check")
    args = ap.parse_args(argv)
    if args.adopt:
        for line in adopt(args.adopt):
            print(f"device_check: adopted {line}")
        return 0
    if args.pack:
        if not args.out:
            ap.error("--pack needs --out")
        notes = pack(Path(args.pack), Path(args.out))
        for n in notes:
            print(f"device_check: {n}")
        problems = check_return_limits(Path(args.out))
        for p in problems:
            print(f"device_check: will not come back: {p}")
        return 1 if problems else 0
    return main_check(args)


if __name__ == "__main__":
    sys.exit(main())
