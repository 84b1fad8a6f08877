"""The CLI's GPU commands: compile (no GPU), measure without a GPU (exit 3), dry runs, bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.toolchain.cubin import Cubin
from tests.gpu.support import assert_one_line_error, needs_compiler, needs_nvrtc, run_cli

NO_GPU = {"WARP_EXPLORER_NO_GPU": "1"}

USER_KERNELS = r'''
#include "helper.cuh"
extern "C" __global__ void __launch_bounds__(256) saxpy(float* y, const float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + SCALE * y[i];
}
template <int TILE>
__global__ void transpose(float* out, const float* in, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}
template __global__ void transpose<32>(float*, const float*, int);
'''


@pytest.fixture()
def user_file(tmp_path) -> Path:
    (tmp_path / "helper.cuh").write_text("#define SCALE 2.0f\n")
    path = tmp_path / "user.cu"
    path.write_text(USER_KERNELS)
    return path


@needs_compiler
def test_compile_json_contract(user_file, tmp_path):
    cubin = tmp_path / "out.cubin"
    proc = run_cli("compile", str(user_file), "--kernel", "transpose<32>", "--arch", "sm_90", "--json",
                   "--cubin-out", str(cubin))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in ("registers", "static_shared_bytes", "spill_bytes", "barriers"):
        assert isinstance(data[key], int), key
    assert data["static_shared_bytes"] == 32 * 33 * 4 and data["barriers"] == 1 and data["spill_bytes"] == 0
    assert data["arch"] == "sm_90" and data["cubin_out"] == str(cubin)
    assert data["symbol"] in Cubin(cubin.read_bytes()).kernels()


@needs_compiler
def test_compile_text_and_includes_next_to_the_file(user_file):
    proc = run_cli("compile", str(user_file), "--kernel", "saxpy", "--arch", "9.0")
    assert proc.returncode == 0, proc.stderr
    assert "saxpy for sm_90" in proc.stdout and "registers per thread" in proc.stdout
    assert "max threads per block  256" in proc.stdout


@needs_compiler
@pytest.mark.parametrize("args, contains", [
    (["--kernel", "nope", "--arch", "sm_90"], "no kernel named 'nope'"),
    (["--kernel", "saxpy", "--arch", "sm_abc"], "--arch"),
    (["--kernel", "saxpy", "--arch", "sm_90", "--maxrregcount", "300"], "--maxrregcount"),
    (["--arch", "sm_90"], "--kernel"),  # two kernels: name one
])
def test_compile_bad_input_is_one_line_exit_2(user_file, args, contains):
    assert_one_line_error(run_cli("compile", str(user_file), *args), 2, contains)


@needs_nvrtc
def test_compile_rejects_an_arch_nvrtc_cannot_target(user_file):
    assert_one_line_error(run_cli("compile", str(user_file), "--kernel", "saxpy", "--arch", "sm_50",
                                  env={"WARP_EXPLORER_COMPILER": "nvrtc"}), 2, "sm_50")


@needs_compiler
def test_compile_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "broken.cu"
    bad.write_text('extern "C" __global__ void k(float* o) {\n  o[0] = undefined_thing;\n}\n')
    line = assert_one_line_error(run_cli("compile", str(bad), "--kernel", "k", "--arch", "sm_90"), 2, "broken.cu")
    assert "does not compile" in line and "undefined_thing" in line


def test_compile_missing_file_is_exit_2(tmp_path):
    assert_one_line_error(run_cli("compile", str(tmp_path / "none.cu"), "--kernel", "k", "--arch", "sm_90"), 2,
                          "file not found")


def test_compile_and_measure_refuse_files_that_are_not_regular(tmp_path):
    import os

    fifo = tmp_path / "k.cu"
    os.mkfifo(fifo)
    for args in (["compile", "/dev/zero", "--kernel", "k", "--arch", "sm_90"],
                 ["compile", "/dev/zero", "--arch", "sm_90"],  # the kernel name is looked for in the file first
                 ["compile", str(fifo), "--arch", "sm_90"],
                 ["measure", "--from", "/dev/zero"]):
        assert_one_line_error(run_cli(*args, timeout=60), 2, "not a regular file")


def test_compile_without_a_compiler_is_exit_3(user_file, tmp_path):
    fake = tmp_path / "shadow" / "cuda"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('cuda-python is hidden for this test')\n")
    proc = run_cli("compile", str(user_file), "--kernel", "saxpy", "--arch", "sm_90",
                   env={"PYTHONPATH": f"{fake.parent}:{Path(__file__).resolve().parents[2]}",
                        "WARP_EXPLORER_COMPILER": "nvrtc"})
    line = assert_one_line_error(proc, 3, "no GPU")
    assert "cuda-bindings" in line or "NVRTC" in line


def test_measure_without_a_gpu_is_one_line_exit_3():
    proc = run_cli("measure", "example-240x256", env=NO_GPU, timeout=120)
    assert_one_line_error(proc, 3, "no GPU")


def test_measure_without_a_driver_says_so():
    from explorer.gpu.probe import find_driver_library

    if find_driver_library() is not None:
        pytest.skip("this machine has an NVIDIA driver library")
    line = assert_one_line_error(run_cli("measure", "example-240x256"), 3, "no GPU")
    assert "libcuda" in line


@pytest.mark.parametrize("args, contains", [
    (["no-such-preset"], "unknown preset"),
    ([], "scenario"),
    (["example-240x256", "--repeats", "0"], "--repeats"),
    (["example-240x256", "--nvml-seconds", "lots"], "--nvml-seconds"),
    (["example-240x256", "--set", "launch.registers_per_thread=255", "--set", "launch.block=[1024,1,1]"],
     "registers"),
    (["example-240x256", "--set", "launch.grid=oops"], "launch.grid"),
])
def test_measure_bad_input_is_one_line_exit_2(args, contains):
    assert_one_line_error(run_cli("measure", *args, env=NO_GPU), 2, contains)


@needs_compiler
def test_measure_dry_run_compiles_without_a_gpu(tmp_path):
    proc = run_cli("measure", "barrier-tiling", "--dry-run", "--out", str(tmp_path / "bt.npz"), env=NO_GPU)
    assert proc.returncode == 0, proc.stderr
    src = tmp_path / "bt.cu"
    assert src.is_file() and "we_kernel" in src.read_text()
    assert (tmp_path / "bt.cubin").read_bytes()[:4] == b"\x7fELF"
    assert f"source   {src}" in proc.stdout and "registers per thread" in proc.stdout
    js = run_cli("measure", "tensor-gemm", "--dry-run", "--json", "--match-occupancy", "--out", str(tmp_path / "tg"),
                 env=NO_GPU)
    assert js.returncode == 0, js.stderr
    data = json.loads(js.stdout)
    for key in ("source", "cubin", "registers", "static_shared_bytes", "spill_bytes", "barriers", "dynamic_shared_bytes"):
        assert key in data
    assert data["occupancy_compiled"]["active_blocks_per_sm"] == data["occupancy_scenario"]["active_blocks_per_sm"]
    assert data["occupancy_pad_bytes"] > 0


@needs_compiler
def test_measure_dry_run_default_location(tmp_path):
    proc = run_cli("measure", "example-240x256", "--dry-run", env={**NO_GPU, "XDG_CACHE_HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    path = Path(proc.stdout.splitlines()[0].split(None, 1)[1])
    assert path.is_file() and path.suffix == ".cu"
    assert path.parent == tmp_path / "warp-explorer" / "kernels"  # the per-user folder, not a shared /tmp one


@needs_compiler
def test_the_probed_kernel_has_its_own_dry_run_files(tmp_path):
    """`--iteration-clocks` compiles another kernel: its dry run must not replace the plain kernel's files."""
    env = {**NO_GPU, "XDG_CACHE_HOME": str(tmp_path)}
    plain = run_cli("measure", "example-240x256", "--dry-run", "--set", "workload.loop=4", env=env)
    probed = run_cli("measure", "example-240x256", "--dry-run", "--set", "workload.loop=4", "--iteration-clocks",
                     env=env)
    assert plain.returncode == 0 and probed.returncode == 0, plain.stderr + probed.stderr
    p = Path(plain.stdout.splitlines()[0].split(None, 1)[1])
    q = Path(probed.stdout.splitlines()[0].split(None, 1)[1])
    assert q.name == p.stem + "-iterations.cu" and p.is_file() and q.is_file()
    assert "iclk" not in p.read_text() and "iclk" in q.read_text()
    assert "iteration clocks" in probed.stdout
