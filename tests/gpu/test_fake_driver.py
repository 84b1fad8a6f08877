"""The whole measure path (probe, compile, child worker via cuda-bindings, analysis, file) against a
fake ``libcuda.so.1`` (tests/gpu/fake_libcuda.c): the driver calls, their arguments and the error
and timeout handling are exercised on machines without a GPU. The numbers are the fake's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorer.gpu.measurement import load_measurement
from tests.gpu.support import REPO, assert_one_line_error, build_fake_driver, compiler_problem, pids_alive, run_cli

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    return build_fake_driver(tmp_path_factory.mktemp("fakecuda"))


def test_measure_runs_end_to_end(fake_driver, tmp_path):
    out = tmp_path / "m.npz"
    proc = run_cli("measure", "example-240x256", "--out", str(out), "--json", "--nvml-seconds", "0.3",
                   env=fake_driver, timeout=300)
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout.splitlines()[0])
    assert s["gpu"] == "H200" and s["device"] == "NVIDIA H200" and s["total_blocks"] == 240
    assert s["driver_active_blocks_per_sm"] == 8 == s["active_blocks_per_sm"]
    assert s["clock_mhz"] == pytest.approx(1980, rel=0.01) and s["globaltimer_tick_ns"] == 32
    assert s["measured_max_blocks_per_sm"] == 2  # 240 blocks round-robin over 132 SMs
    m = load_measurement(out)
    assert len(m.blocks) == 240 and m.warps is not None and len(m.warps["block"]) == 1920
    assert sorted(set(m.sm_ids.tolist())) == list(range(132))
    assert m.meta["kernel"]["function_attributes"]["num_regs"] == 24
    assert m.meta["device"]["uuid"].startswith("GPU-abababab")
    assert "we_kernel" in m.meta["source"] and len(m.meta["timing"]["event_ms"]) == 5
    nvml = m.meta["nvml"]
    assert nvml.get("available") is not None  # sampled, or why not (no NVML library here)


def test_iteration_clocks_end_to_end(fake_driver, tmp_path):
    """--iteration-clocks: the kernel's extra buffer comes back as cycles since each warp's entry, is saved and
    reopened, and the slow iterations the fake planted (warps 100-119 lose 3,000 cycles in iteration 5, at
    about the same time) are found, in one episode, as one run of neighbouring warps."""
    out = tmp_path / "i.npz"
    proc = run_cli("measure", "example-240x256", "--set", "workload.loop=16", "--iteration-clocks", "--out", str(out),
                   "--json", "--nvml-seconds", "0", env={**fake_driver, "FAKE_CUDA_ITERATION_CLOCKS": "17"},
                   timeout=300)
    assert proc.returncode == 0, proc.stderr
    it = json.loads(proc.stdout.splitlines()[0])["iterations"]
    assert it["warps"] == 1920 and it["iterations"] == 16
    assert it["slow_iterations"] == 20 == it["slow_warps"] and it["slow_per_iteration"][5] == 20
    assert it["slow_extra_cycles_median"] == pytest.approx(3000, abs=50)  # over the median: steps differ by warp
    assert it["episodes"] == 1 and it["episodes_across_iterations"] == 0
    assert it["largest_episode"]["warp_runs"] == [[100, 119]] and it["largest_episode"]["iterations"] == [5]
    m = load_measurement(out)
    assert m.iteration_clocks.shape == (1920, 17) and m.meta["launch"]["iteration_clocks"] == 17
    assert (m.iteration_clocks[:, 0] >= 0).all() and "iclk" in m.meta["source"]
    text = run_cli("measure", "--from", str(out), env=fake_driver, timeout=120)
    assert text.returncode == 0 and "slow iterations" in text.stdout and "runs 100-119" in text.stdout


def test_dynamic_shared_memory_opt_in_path(fake_driver, tmp_path):
    proc = run_cli("measure", "latency-bound-low-occupancy", "--match-occupancy", "--nvml-seconds", "0", "--json",
                   "--out", str(tmp_path / "l.npz"), env=fake_driver, timeout=300)
    assert proc.returncode == 0, proc.stderr
    m = load_measurement(tmp_path / "l.npz")
    assert m.meta["launch"]["dynamic_shared_bytes"] > 48 * 1024
    assert m.meta["occupancy"]["ours"]["active_blocks_per_sm"] == 1


def test_a_kernel_fault_is_one_line(fake_driver):
    proc = run_cli("measure", "example-240x256", "--nvml-seconds", "0", env={**fake_driver, "FAKE_CUDA_FAULT": "1"},
                   timeout=300)
    line = assert_one_line_error(proc, 1, "CUDA_ERROR_ILLEGAL_ADDRESS")
    assert "cuLaunchKernel" in line and "the GPU run failed" in line


def test_a_hung_kernel_is_stopped(fake_driver):
    import time

    t = time.monotonic()
    proc = run_cli("measure", "example-240x256", "--nvml-seconds", "0", "--timeout", "5",
                   env={**fake_driver, "FAKE_CUDA_HANG": "1"}, timeout=300)
    assert_one_line_error(proc, 1, "did not finish within 5 s")
    assert time.monotonic() - t < 90


def test_per_block_records(fake_driver, tmp_path):
    proc = run_cli("measure", "tensor-gemm", "--per-block", "--nvml-seconds", "0", "--out", str(tmp_path / "b.npz"),
                   env=fake_driver, timeout=300)
    assert proc.returncode == 0, proc.stderr
    m = load_measurement(tmp_path / "b.npz")
    assert m.warps is None and len(m.blocks) == 264 and not m.meta["launch"]["per_warp"]
    assert (m.blocks.end > m.blocks.start).all()


# -- issue 20: what the recorded launch sees, proven on the fake driver's call log ---------------------
def call_log(fake_driver, tmp_path, *args, extra_env=None) -> tuple[subprocess.CompletedProcess, list[str]]:
    log = tmp_path / "calls.log"
    proc = run_cli("measure", *args, env={**fake_driver, "FAKE_CUDA_LOG": str(log), **(extra_env or {})},
                   timeout=300)
    return proc, log.read_text().splitlines() if log.exists() else []


def test_l2_is_flushed_before_every_timed_launch_and_the_clock_probed_right_after(fake_driver, tmp_path):
    out = tmp_path / "m.npz"
    proc, calls = call_log(fake_driver, tmp_path, "example-240x256", "--out", str(out), "--nvml-seconds", "0",
                           "--repeats", "4")
    assert proc.returncode == 0, proc.stderr
    calls = [c for c in calls if not c.startswith("missing ")]
    l2 = 52428800  # the fake's L2_CACHE_SIZE
    kernel = [i for i, c in enumerate(calls) if c.startswith("launch we_kernel")]
    ticks = [i for i, c in enumerate(calls) if c.startswith("launch we_tick")]
    assert len(ticks) == 2 and ticks[0] < kernel[0]  # the timer step first, the clock probe last
    timed = [i for i in kernel if i < ticks[1]][-4:]
    assert len(kernel) > 4 + 1, "the warm-up runs for ~200 ms, many launches"
    for i in timed:  # each timed launch: a write of >= 2 x L2 after the launch before it
        since = calls[max(k for k in kernel if k < i) + 1:i]
        assert any(c.startswith("memset ") and int(c.split()[1]) >= 2 * l2 for c in since), since
    assert ticks[1] == timed[-1] + 1  # the probe follows the recorded launch directly
    warm = [i for i in kernel if i < timed[0]]
    assert f"memset {2 * l2}" not in calls[warm[0]:warm[-1]]  # the warm-up needs no flush
    s = json.loads(run_cli("measure", "--from", str(out), "--json").stdout.splitlines()[0])
    assert s["l2_flush_bytes"] == 2 * l2
    m = load_measurement(out)
    timing = m.meta["timing"]
    assert timing["clock_probe_mhz"]["after_recorded_launch"] == pytest.approx(1980)
    assert timing["warm_up_ms"] >= 200 and timing["warm_up_launches"] == len(warm)


def test_dynamic_shared_memory_is_opted_in_when_static_plus_dynamic_pass_48k(fake_driver, tmp_path):
    # 8 KB static + 45,000 B dynamic: the dynamic part alone is below 48 KB, the sum is not
    proc, calls = call_log(fake_driver, tmp_path, "barrier-tiling", "--set", "launch.dynamic_shared_bytes=45000",
                           "--nvml-seconds", "0", "--repeats", "1")
    assert proc.returncode == 0, proc.stderr
    first = next(i for i, c in enumerate(calls) if c.startswith("launch we_kernel"))
    assert "setattr 8 45000" in calls[:first]  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    assert not [c for c in calls if c.startswith("launch-refused")]


def test_the_fake_driver_holds_launches_to_the_48k_rule(fake_driver, tmp_path):
    """What the test above relies on: without the opt-in, the fake refuses such a launch, as the driver does."""
    import ctypes

    import numpy as np

    from explorer.toolchain.prepare import prepare
    from explorer.model.presets import load_preset

    cubin = prepare(load_preset("barrier-tiling")).compiled.cubin  # 8 KB static shared memory
    lib = ctypes.CDLL(str(Path(fake_driver["LD_LIBRARY_PATH"]) / "libcuda.so.1"))
    module, fn, value = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_int()
    image = np.frombuffer(cubin, np.uint8).copy()
    assert lib.cuModuleLoadData(ctypes.byref(module), image.ctypes.data_as(ctypes.c_void_p)) == 0
    assert lib.cuModuleGetFunction(ctypes.byref(fn), module, b"we_kernel") == 0
    assert lib.cuFuncGetAttribute(ctypes.byref(value), 1, fn) == 0 and value.value == 8192
    launch = lib.cuLaunchKernel
    launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
    assert launch(fn, 1, 1, 1, 256, 1, 1, 45000, None, None, None) == 1  # CUDA_ERROR_INVALID_VALUE
    assert lib.cuFuncSetAttribute(fn, 8, 45000) == 0


def test_the_nvml_window_launches_from_a_cuda_graph(fake_driver, tmp_path):
    """BatchLauncher (the NVML window's launches) captures a graph and replays it (no NVML needed here)."""
    from explorer.toolchain.prepare import prepare
    from explorer.model.presets import load_preset

    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(prepare(load_preset("example-240x256")).compiled.cubin)
    script = f"""
import numpy as np
from explorer.gpu import driver as D
from explorer.gpu.worker import BatchLauncher
drv = D.drv
D.ck(drv.cuInit(0), "init"); dev = D.ck(drv.cuDeviceGet(0), "dev")
ctx = D.ck(drv.cuDevicePrimaryCtxRetain(dev), "ctx"); D.ck(drv.cuCtxSetCurrent(ctx), "set")
image = np.frombuffer(open({str(cubin)!r}, "rb").read(), np.uint8).copy()
mod = D.ck(drv.cuModuleLoadData(image.ctypes.data), "load"); fn = D.ck(drv.cuModuleGetFunction(mod, b"we_kernel"), "fn")
rec = D.Buffer(240 * 8 * 64, "records"); stream = D.ck(drv.cuStreamCreate(0), "stream")
ev = D.ck(drv.cuEventCreate(0), "event")
args = [(rec.address, "uint64")] * 4 + [(1, "uint32"), (0, "uint32"), (1.0, "float32"), (1.0, "float32")]
b = BatchLauncher(fn, (240, 1, 1), (256, 1, 1), 0, stream, args)
b.prepare(50)
print(b.method, "|", b.reason)
print(b(120, ev))
b.close()
"""
    log = tmp_path / "calls.log"
    env = {**os.environ, **fake_driver, "FAKE_CUDA_LOG": str(log), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    method, queued = proc.stdout.splitlines()
    assert method.startswith("CUDA graph of 50 launches"), method
    assert int(queued) == 100  # two graph launches of 50
    calls = [c for c in log.read_text().splitlines() if not c.startswith("missing ")]
    assert calls.count("capture-launch we_kernel 0") == 50 and "capture-end 50" in calls
    assert calls.count("graph-launch 50") == 2 and not [c for c in calls if c.startswith("launch we_kernel")]


def test_a_killed_measure_takes_its_worker_with_it(fake_driver, tmp_path):
    """The worker runs in a session of its own; when the measure process is killed (a step timeout), it goes too."""
    pidfile = tmp_path / "pids"
    env = {**os.environ, **fake_driver, "FAKE_CUDA_HANG": "1", "FAKE_CUDA_PIDFILE": str(pidfile),
           "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "explorer", "measure", "example-240x256", "--nvml-seconds", "0",
                             "--timeout", "600"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(p != proc.pid for p in pids_alive(pidfile)):
            time.sleep(0.2)
        worker = [p for p in pids_alive(pidfile) if p != proc.pid]
        assert worker, "the worker never started"
        time.sleep(1.0)  # it is now waiting on the hung kernel
        assert pids_alive(pidfile)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and pids_alive(pidfile):
        time.sleep(0.2)
    assert pids_alive(pidfile) == [], "the worker outlived the measure process"


def test_a_broken_nvrtc_falls_back_to_nvcc(fake_driver, tmp_path):
    """NVRTC loads but fails to compile (not the source's fault): the measurement still runs, built by nvcc."""
    from explorer.toolchain.tools import find_tool

    if find_tool("nvcc") is None:
        pytest.skip("needs nvcc")
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "from cuda.bindings import nvrtc\n"
        "def _broken(prog, n, opts):\n"
        "    return (nvrtc.nvrtcResult.NVRTC_ERROR_BUILTIN_OPERATION_FAILURE,)\n"
        "nvrtc.nvrtcCompileProgram = _broken\n")
    out = tmp_path / "m.npz"
    proc = run_cli("measure", "example-240x256", "--nvml-seconds", "0", "--repeats", "1", "--out", str(out),
                   env={**fake_driver, "PYTHONPATH": f"{shim}{os.pathsep}{REPO}"}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    compiler = load_measurement(out).meta["kernel"]["compiler"]
    assert compiler.startswith("nvcc") and "NVRTC could not" in compiler and "BUILTIN_OPERATION" in compiler
