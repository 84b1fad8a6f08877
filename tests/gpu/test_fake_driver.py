"""The whole measure path (probe, compile, child worker via cuda-bindings, analysis, file) against a
fake ``libcuda.so.1`` (tests/gpu/fake_libcuda.c): the driver calls, their arguments and the error
and timeout handling are exercised on machines without a GPU. The numbers are the fake's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from explorer.gpu.measurement import load_measurement
from tests.gpu.support import assert_one_line_error, compiler_problem, run_cli

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")


def _bindings_problem() -> str:
    try:
        from cuda.bindings import driver  # noqa: F401

        return ""
    except ImportError:
        try:
            from cuda import cuda  # noqa: F401

            return ""
        except ImportError as exc:
            return str(exc)


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    if _bindings_problem():
        pytest.skip(f"needs cuda-bindings: {_bindings_problem()}")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build the fake driver library")
    d = tmp_path_factory.mktemp("fakecuda")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(d / "libcuda.so.1"), str(HERE / "fake_libcuda.c"), "-ldl"],
                   check=True, capture_output=True)
    return {"LD_LIBRARY_PATH": str(d), "WARP_EXPLORER_NO_GPU": ""}


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
