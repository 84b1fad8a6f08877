"""Skip conditions and helpers shared by the GPU-backend tests (no conftest: the device
script may run these with ``--noconftest`` on a machine without the test extras)."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"

# The device tests' faulty and hung kernels: one line each, pasted into the generated example kernel
# before its loop (see test_device._prepared_with). Each must survive every compiler the device check
# may use. The first hang, `volatile int spin = 1; while (spin) { }`, did not: CUDA 13.0's compiler
# (NVRTC 13.0 on the H200 of 2026-12-04, nvcc 13.0 here) deletes that loop, since a volatile *local*
# whose address never escapes is no side effect anyone can see, so the kernel simply finished and the
# timeout test failed with "DID NOT RAISE" (NVRTC 13.5 happens to keep it). A volatile load of device
# memory is a side effect no compiler may drop: the hang spins on the sink buffer, which the worker
# zeroes and no launch ever writes (the kernel writes it only when flag is 0x5EED5EED, never passed).
PATCH_ANCHOR = "    #pragma unroll 1"
HANG_PATCH = "    if (flag == 0u) { while (*(volatile const unsigned int*)sink == 0u) { } }"
FAULT_PATCH = "    if (flag == 0u && blk == 7) { *(volatile int*)(gbuf - (1ull << 40)) = 1; }"


def patched_example_source(source: str, patch: str) -> str:
    """The generated kernel with ``patch`` before its loop; refuses a source without the anchor."""
    if PATCH_ANCHOR not in source:
        raise AssertionError(f"the generated kernel has no {PATCH_ANCHOR.strip()!r} to patch before")
    return source.replace(PATCH_ANCHOR, patch + "\n" + PATCH_ANCHOR, 1)


@cache
def compiler_problem() -> str:
    """Why no CUDA compiler is usable here ('' when one is)."""
    try:
        from explorer.toolchain.compiler import compiler_backend

        compiler_backend()
        return ""
    except Exception as exc:  # noqa: BLE001 - any failure is a reason to skip
        return f"{type(exc).__name__}: {exc}"


@cache
def nvrtc_problem() -> str:
    try:
        from explorer.toolchain.compiler import nvrtc_version

        nvrtc_version()
        return ""
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


needs_compiler = pytest.mark.skipif(
    bool(compiler_problem()),
    reason=f"needs NVRTC (pip install cuda-bindings nvidia-cuda-nvrtc) or nvcc: {compiler_problem()}",
)
needs_nvrtc = pytest.mark.skipif(
    bool(nvrtc_problem()),
    reason=f"needs NVRTC (pip install cuda-bindings nvidia-cuda-nvrtc): {nvrtc_problem()}",
)


@cache
def gpu_problem() -> str:
    from explorer.gpu.probe import probe

    result = probe(30.0)
    return "" if result.ok else result.reason


def needs_gpu(fn):
    """``@pytest.mark.gpu`` plus a skip naming why no GPU is usable."""
    reason = gpu_problem()
    fn = pytest.mark.gpu(fn)
    return pytest.mark.skipif(bool(reason), reason=f"needs an NVIDIA GPU and driver: {reason}")(fn)


@cache
def cuobjdump() -> str | None:
    from explorer.toolchain.tools import find_tool

    return find_tool("cuobjdump")


@cache
def sass_available() -> bool:
    """cuobjdump -sass needs nvdisasm next to it or on PATH."""
    from explorer.toolchain.tools import find_tool

    return cuobjdump() is not None and find_tool("nvdisasm") is not None


def sass(cubin_path, function: str) -> list[str]:
    """The SASS instructions of one function (opcode first), via cuobjdump -sass."""
    from explorer.toolchain.tools import find_tool

    nvdisasm = find_tool("nvdisasm")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(nvdisasm).parent), env.get("PATH", "")])
    out = subprocess.run([cuobjdump(), "-sass", "-fun", function, str(cubin_path)], capture_output=True, text=True,
                         env=env, timeout=60, check=True).stdout
    import re

    lines = []
    for line in out.splitlines():
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            lines.append(f"{m.group(1)} {m.group(2)}")
    return lines


def run_cli(*args, env=None, timeout=300):
    full = dict(os.environ)
    full.setdefault("QT_QPA_PLATFORM", "offscreen")
    full["PYTHONPATH"] = os.pathsep.join([str(REPO), full.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    if env:
        full.update(env)
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, env=full,
                          timeout=timeout, cwd=str(REPO))


def assert_one_line_error(proc, code: int, contains: str = "") -> str:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert contains in lines[0], lines[0]
    return lines[0]


def bindings_problem() -> str:
    """Why cuda-bindings' driver module cannot be imported ('' when it can)."""
    try:
        from cuda.bindings import driver  # noqa: F401

        return ""
    except ImportError:
        try:
            from cuda import cuda  # noqa: F401

            return ""
        except ImportError as exc:
            return str(exc)


def build_fake_driver(folder: Path) -> dict:
    """Build tests/gpu/fake_libcuda.c into ``folder``; the environment that makes the CLI use it.

    Skips the calling test when cuda-bindings or a C compiler is missing."""
    import shutil

    if bindings_problem():
        pytest.skip(f"needs cuda-bindings: {bindings_problem()}")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build the fake driver library")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(folder / "libcuda.so.1"),
                    str(REPO / "tests" / "gpu" / "fake_libcuda.c"), "-ldl"], check=True, capture_output=True)
    return {"LD_LIBRARY_PATH": str(folder), "WARP_EXPLORER_NO_GPU": ""}


def pids_alive(pidfile: Path) -> list[int]:
    """The pids listed in a FAKE_CUDA_PIDFILE that are still running (zombies count as gone)."""
    alive = []
    for line in (pidfile.read_text().split() if pidfile.exists() else []):
        pid = int(line)
        try:
            with open(f"/proc/{pid}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive
