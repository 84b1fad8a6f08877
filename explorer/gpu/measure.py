"""Measure a scenario on the real GPU: prepare (codegen + compile, no GPU), then run in a child.

``explorer.toolchain.prepare`` works anywhere NVRTC (or nvcc) does; ``measure`` additionally needs a
GPU: it probes the driver in a child process first (no hang, no poisoned process),
then runs ``explorer.gpu.worker`` in another child with a timeout, and turns its raw
records into a :class:`~explorer.gpu.measurement.Measurement`. The compiled kernel may use
other registers than the scenario asks for (``explorer.toolchain.prepare`` says why): the
overlay re-simulates with the count the compiler produced (:func:`resim_scenario`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from explorer.model.atomic import atomic_write_text
from explorer.model.catalog import GpuSpec, load_catalog
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.model.tomlio import dumps
from explorer.toolchain.errors import GpuRunError, GpuUnavailable
from explorer.toolchain.folders import private_tempdir
from explorer.toolchain.prepare import Prepared, check_launch_fits, prepare, write_sources
from explorer.toolchain.sandbox import PARENT_ENV


@dataclass
class MeasureOptions:
    per_warp: bool | None = None  # None: per warp unless the grid has millions of warps
    repeats: int = 5
    warmup: int = 1  # launches before the timed ones, at least; and at least warm_seconds of them
    warm_seconds: float = 0.2  # an idle GPU runs at low clocks: ~200 ms of work brings it up
    nvml_seconds: float = 1.0
    timeout: float = 180.0
    probe_timeout: float = 20.0
    ordinal: int = 0
    steer_registers: bool = True
    match_occupancy: bool = False  # pad dynamic shared memory so blocks/SM equal the scenario's
    workdir: str | None = None  # keep the source, cubin and raw files here (default: a temporary folder)
    iteration_clocks: bool = False  # the diagnostic kernel: every warp's clock at each iteration (codegen)


def match_catalog_gpu(device: dict) -> GpuSpec | None:
    """The catalog entry for a device (by name, checked against CC and SM count), or None."""
    name = re.sub(r"[^a-z0-9]+", " ", str(device.get("name", "")).lower()).split()
    cc = device.get("compute_capability")
    sms = device.get("sm_count") or device.get("multiprocessor_count")
    best = None
    for spec in load_catalog().values():
        keys = {spec.name.lower(), *[a.lower() for a in spec.aliases]}
        tokens = set(name)
        joined = "".join(name)
        hit = any(k in tokens or k.replace("-", "") in joined for k in keys if len(k) >= 2)
        if not hit:
            continue
        if cc and spec.compute_capability != cc:
            continue
        if sms and spec.sm_count != sms:
            best = best or spec  # same product name, another SKU: keep looking for an exact one
            continue
        return spec
    return best


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[2])


def run_worker(request: dict, workdir: Path, timeout: float, progress: Callable[[str], None] | None = None,
               cancel: Callable[[], bool] | None = None, module: str = "explorer.gpu.worker") -> tuple[dict, dict]:
    """Run ``module`` (``explorer.gpu.worker``) in a child process; kill it (and its group) on timeout or cancel.

    The child is run as ``python -m MODULE REQUEST.json OUT.npz`` and writes ``OUT.npz.json``
    last (``explorer.gpu.microbench`` follows the same protocol).
    """
    import numpy as np

    workdir.mkdir(parents=True, exist_ok=True)
    req_path = workdir / "request.json"
    out_path = workdir / "raw.npz"
    err_path = workdir / "worker.log"
    for p in (out_path, Path(str(out_path) + ".json")):
        if p.exists():
            p.unlink()
    atomic_write_text(req_path, json.dumps(request))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([_package_root(), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env[PARENT_ENV] = str(os.getpid())  # the worker exits when we are gone (it is in a session of its own)
    kwargs = {"start_new_session": True} if os.name == "posix" else {}
    with open(err_path, "w", encoding="utf-8") as err:
        proc = subprocess.Popen([sys.executable, "-m", module, str(req_path), str(out_path)],
                                stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=env, **kwargs)
        started = time.monotonic()
        seen = 0
        reason = None
        try:
            while proc.poll() is None:
                if time.monotonic() - started > timeout:
                    reason = f"the measurement did not finish within {timeout:g} s and was stopped"
                elif cancel is not None and cancel():
                    reason = "cancelled"
                if reason:
                    break
                if progress is not None:
                    seen = _forward_progress(err_path, seen, progress)
                time.sleep(0.1)
        finally:  # a timeout, a cancel, or an exception here (Ctrl+C): never leave the worker running
            if proc.poll() is None:
                _kill(proc)
            proc.wait()
    if progress is not None:
        _forward_progress(err_path, seen, progress)
    if reason:
        raise GpuRunError(reason)
    info_path = Path(str(out_path) + ".json")
    if not info_path.exists():
        tail = [line for line in err_path.read_text(encoding="utf-8", errors="replace").splitlines()
                if line.strip() and not line.startswith("stage:")]
        what = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
        raise GpuRunError(f"the measurement process died ({what})" + (f": {tail[-1]}" if tail else ""))
    info = json.loads(info_path.read_text(encoding="utf-8"))
    if not info.get("ok"):
        if info.get("unavailable"):
            raise GpuUnavailable(info.get("error", "no GPU"))
        raise GpuRunError(info.get("error", "the measurement failed"))
    with np.load(out_path, allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    return info, arrays


def _kill(proc: subprocess.Popen) -> None:
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


def _forward_progress(path: Path, seen: int, progress: Callable[[str], None]) -> int:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return seen
    for line in lines[seen:]:
        if line.startswith("stage: "):
            progress(line[len("stage: "):])
    return len(lines)


def worker_request(prepared: Prepared, cubin_path: str | os.PathLike, options: MeasureOptions) -> dict:
    """What the worker process needs to run a prepared kernel (JSON-able)."""
    gen = prepared.generated
    return {
        "cubin_path": str(cubin_path), "kernel": prepared.compiled.symbol, "tick_kernel": gen.tick_kernel,
        "arch": prepared.arch, "ordinal": options.ordinal, "grid": list(gen.grid), "block": list(gen.block),
        "dynamic_shared_bytes": prepared.dynamic_shared_bytes, "carveout": prepared.scenario.launch.carveout,
        "per_warp": gen.per_warp, "records": gen.records, "buffer_bytes": gen.buffer_bytes,
        "hot_bytes": gen.hot_bytes, "warmup": options.warmup, "warm_seconds": options.warm_seconds,
        "repeats": options.repeats,
        "nvml_seconds": options.nvml_seconds, "seed": prepared.scenario.seed,
        "iteration_clock_words": gen.iteration_clock_words,
    }


def measure(scenario: Scenario, options: MeasureOptions | None = None, *,
            progress: Callable[[str], None] | None = None, cancel: Callable[[], bool] | None = None):
    """Run the scenario on the GPU and return a Measurement (GpuUnavailable without one)."""
    import numpy as np

    from explorer.gpu.analysis import RawRecords, analyze, tick_from_deltas
    from explorer.gpu.measurement import Measurement
    from explorer.gpu.probe import require_gpu

    options = options or MeasureOptions()
    check_launch_fits(scenario)
    if progress:
        progress("probing the driver")
    probe, device = require_gpu(options.probe_timeout, options.ordinal)
    catalog_gpu = match_catalog_gpu(device)
    cc = device.get("compute_capability", "")
    gpu = catalog_gpu
    notes = []
    if gpu is None:
        same_arch = [g for g in load_catalog().values() if g.compute_capability == cc]
        if not same_arch:
            raise GpuUnavailable(f"{device.get('name', 'the GPU')} (CC {cc}) is not an architecture Warp Explorer knows")
        gpu = scenario.gpu if scenario.gpu.compute_capability == cc else same_arch[0]
        notes.append(f"{device.get('name')} is not in the GPU catalog; the kernel is built as for {gpu.name} (CC {cc})")
    if gpu.name != scenario.gpu.name:
        notes.append(f"the scenario is for {scenario.gpu.name}; it runs on {device.get('name')} ({gpu.name})")
    if progress:
        progress("compiling")
    prepared = prepare(scenario, gpu=gpu, per_warp=options.per_warp, steer_registers=options.steer_registers,
                       match_occupancy=options.match_occupancy, iteration_clocks=options.iteration_clocks)
    notes = prepared.notes + notes

    gen = prepared.generated
    keep = Path(options.workdir) if options.workdir else None
    with (nullcontext(keep) if keep else private_tempdir("warp-explorer-measure-")) as work:
        _src, cubin = write_sources(prepared, work / "kernel")
        request = worker_request(prepared, cubin, options)
        info, arrays = run_worker(request, work, options.timeout, progress, cancel)

    props = info["device"]
    tick_words = arrays["tick"].astype(np.int64)
    changes = int(tick_words[2])
    tick = tick_from_deltas(tick_words[4:4 + min(changes, len(tick_words) - 4)])
    tick["span_ns"] = int(tick_words[0])
    tick["span_cycles"] = int(tick_words[1])
    tick["clock_mhz"] = _tick_mhz(tick_words)
    probe_mhz = _tick_mhz(arrays["clock_probe"].astype(np.int64)) if "clock_probe" in arrays else None
    raw = RawRecords.decode(arrays["records"], gen.per_warp)
    max_warps = int(props.get("max_threads_per_multiprocessor", gpu.arch.max_threads_per_sm)) // 32
    analysis = analyze(raw, warps_per_block=gen.warps_per_block,
                       device_sm_count=int(props.get("multiprocessor_count", gpu.sm_count)),
                       max_warps_per_sm=max_warps, tick_ns=float(tick.get("tick_ns") or 0.0),
                       fallback_clock_mhz=probe_mhz or tick.get("clock_mhz"))
    driver_blocks = info.get("driver_active_blocks_per_sm")
    ours = prepared.occupancy_compiled
    if driver_blocks is not None and driver_blocks != ours["active_blocks_per_sm"]:
        notes.append(f"the driver allows {driver_blocks} blocks/SM, our occupancy rules {ours['active_blocks_per_sm']}")
    fattr = info.get("function_attributes", {})
    r = prepared.compiled.resources
    if fattr.get("num_regs") is not None and fattr["num_regs"] != r.registers:
        notes.append(f"the driver reports {fattr['num_regs']} registers, the cubin {r.registers}")
    meta = {
        "scenario_toml": dumps(scenario.to_dict()),
        "scenario_name": scenario.name,
        "gpu": catalog_gpu.name if catalog_gpu else "",
        "device": {**props, "driver_version": info.get("driver_version"), "cuda_bindings": info.get("cuda_bindings"),
                   "memory_free_bytes": info.get("memory_free_bytes")},
        "kernel": {**prepared.compiled.to_json(), "sha256": prepared.compiled.sha256,
                   "function_attributes": fattr, "steering": prepared.steering},
        "source": gen.source,
        "launch": {"grid": list(gen.grid), "block": list(gen.block), "threads_per_block": gen.threads_per_block,
                   "warps_per_block": gen.warps_per_block, "total_blocks": gen.total_blocks,
                   "dynamic_shared_bytes": prepared.dynamic_shared_bytes, "carveout": scenario.launch.carveout,
                   "occupancy_pad_bytes": prepared.occupancy_pad_bytes,
                   "per_warp": gen.per_warp, "buffer_bytes": gen.buffer_bytes, "footprint_bytes": gen.footprint,
                   "iteration_clocks": (gen.loop + 1) if gen.iteration_clock_words else None},
        "occupancy": {"ours": ours, "scenario": prepared.occupancy_scenario,
                      "driver_active_blocks_per_sm": driver_blocks},
        "timing": {"event_ms": info.get("event_ms"), "kernel_ms": info.get("kernel_ms"), "globaltimer": tick,
                   "clock_mhz_tick_kernel": probe_mhz or tick.get("clock_mhz"), "repeats": options.repeats,
                   "clock_probe_mhz": {"before_warm_up": tick.get("clock_mhz"), "after_recorded_launch": probe_mhz},
                   "warm_up_ms": info.get("warm_up", {}).get("ms"), "warm_up_launches": info.get("warm_up", {}).get(
                       "launches"), "l2_flush_bytes": info.get("l2_flush_bytes")},
        "nvml": info.get("nvml", {}),
        "notes": notes,
        "warnings": info.get("warnings", []),
        "synthetic": False,
    }
    return Measurement.from_analysis(meta, analysis, iteration_clocks=_iteration_clocks(arrays, raw, gen))


def _iteration_clocks(arrays: dict, raw, gen):
    """The diagnostic kernel's clocks as cycles since each warp's entry clock: [warps, loop + 1] (or None).

    Relative to the warp's own ``clock64`` at entry, so they stay on that warp's SM clock; the warp's aligned
    start (``warps["start"]``) places them on the launch's common time axis (:mod:`explorer.gpu.iterations`)."""
    import numpy as np

    if not gen.iteration_clock_words or "iteration_clocks" not in arrays:
        return None
    clocks = arrays["iteration_clocks"].astype(np.uint64).reshape(gen.total_warps, gen.loop + 1)
    return (clocks - raw.start_clk[:, None]).astype(np.int64)


def _tick_mhz(words) -> float | None:
    """The SM clock a tick-kernel run saw: cycles over nanoseconds (words 1 and 0 of its output)."""
    return float(words[1] / words[0] * 1000.0) if len(words) > 1 and words[0] > 0 else None


def resim_scenario(measurement) -> Scenario:
    """The scenario to simulate beside a measurement: the measured GPU, the compiled registers and shared memory."""
    scenario = measurement.scenario
    if scenario is None:
        raise InputError("measurement", "the file carries no scenario to simulate")
    kernel = measurement.meta.get("kernel", {})
    changes = {}
    gpu = measurement.meta.get("gpu")
    if gpu:
        changes["gpu"] = gpu
    if kernel.get("registers"):
        changes["launch.registers_per_thread"] = int(kernel["registers"])
    if kernel.get("static_shared_bytes") is not None:
        changes["launch.static_shared_bytes"] = int(kernel["static_shared_bytes"])
    launch = measurement.meta.get("launch", {})
    if launch.get("dynamic_shared_bytes") is not None:
        changes["launch.dynamic_shared_bytes"] = int(launch["dynamic_shared_bytes"])
    if kernel.get("barriers") is not None and not measurement.meta.get("synthetic"):
        changes["launch.barriers"] = int(kernel["barriers"])
    return scenario.with_values(**changes) if changes else scenario
