"""The compiler and nvdisasm in a child process with limits (issue 30, item 1).

A 517 KB .cu made the in-process NVRTC grow to 5.2 GB and abort the app. Reproduced here
with generated sources that make the compiler's memory or time grow without bound: a
macro that expands to 10^8 tokens (EDG's preprocessor: 1.5 GB in 3 s) and a recursive
template of 2^14 forced-inline calls (LLVM: 40 s). Each test uses a small limit, so it
runs in seconds, and checks that the child and its process group are gone afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from explorer.toolchain import compiler, sandbox
from explorer.toolchain.errors import CompileError
from explorer.toolchain.sandbox import ChildCancelled, CompileLimitExceeded, Limits
from explorer.model.errors import InputError
from tests.gpu.support import nvrtc_problem

needs_nvrtc = pytest.mark.skipif(bool(nvrtc_problem()), reason=f"needs NVRTC: {nvrtc_problem()}")
SRC = 'extern "C" __global__ void k(float* o, int n) { if (threadIdx.x < n) o[threadIdx.x] = 2.f * n; }\n'


def macro_bomb() -> str:
    """10^8 tokens after preprocessing from 9 lines (the preprocessor's memory grows with them)."""
    lines = ["#define X0 (1+1+1+1+1+1+1+1+1+1)"]
    lines += [f"#define X{k} (" + "+".join([f"X{k - 1}"] * 10) + ")" for k in range(1, 9)]
    return "\n".join(lines) + '\nextern "C" __global__ void bomb(int* o) { o[threadIdx.x] = X8; }\n'


def template_bomb(depth: int = 14) -> str:
    """2^depth forced-inline calls: the optimiser's time grows with them (depth 14: ~40 s here)."""
    return ("template<int N> __device__ __forceinline__ float f(float x) "
            "{ return f<N-1>(x * 1.0001f) + f<N-1>(x + 0.5f); }\n"
            "template<> __device__ __forceinline__ float f<0>(float x) { return x * x; }\n"
            f'extern "C" __global__ void bomb(float* o) {{ o[threadIdx.x] = f<{depth}>(o[threadIdx.x]); }}\n')


@pytest.fixture
def children(monkeypatch):
    """The pids of the child processes started (each leads its own process group)."""
    pids = []
    real = subprocess.Popen

    def popen(*args, **kwargs):
        proc = real(*args, **kwargs)
        pids.append(proc.pid)
        return proc

    monkeypatch.setattr(sandbox.subprocess, "Popen", popen)
    return pids


def assert_gone(pids):
    assert pids
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.killpg(pid, 0)  # no process left in the child's group (nvcc's cicc/ptxas would be there)


@needs_nvrtc
def test_the_isolated_compile_gives_the_same_cubin_as_in_process():
    inside = compiler.compile_source(SRC, "k", "sm_90", isolated=False)
    child = compiler.compile_source(SRC, "k", "sm_90")
    assert child.cubin == inside.cubin and child.symbol == "k"
    assert child.resources == inside.resources and child.compiler == inside.compiler
    # with line info the code is the same (the line table names the child's private working folder)
    lined = compiler.compile_source(SRC, "k", "sm_90", line_info=True)
    assert code_of(lined) == code_of(child)


def code_of(result) -> bytes:
    from explorer.toolchain.cubin import Cubin

    cubin = Cubin(result.cubin)
    text = cubin.section(f".text.{result.symbol}")
    return cubin.data[text.offset:text.offset + text.size]


@needs_nvrtc
def test_the_childs_errors_are_the_same_errors():
    with pytest.raises(CompileError, match=r"bad\.cu: does not compile: .*identifier \"nope\" is undefined"):
        compiler.compile_source(SRC.replace("2.f", "nope"), "k", "sm_90", filename="bad.cu")
    with pytest.raises(InputError, match="no kernel named 'other'"):
        compiler.compile_source(SRC, "other", "sm_90")


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS is POSIX")
@needs_nvrtc
def test_a_source_that_takes_all_memory_is_stopped_at_the_limit(children):
    t0 = time.monotonic()
    with pytest.raises(CompileLimitExceeded) as info:
        compiler.compile_source(macro_bomb(), "bomb", "sm_90", filename="bomb.cu",
                                limits=Limits(memory_bytes=400 << 20, seconds=60))
    assert time.monotonic() - t0 < 30
    assert info.value.field == "bomb.cu"
    assert "more memory than its limit of 400 MiB" in info.value.message and sandbox.MEMORY_ENV in info.value.message
    assert_gone(children)
    # the same source compiles its first macros fine: the limit is what stopped it
    small = macro_bomb().replace("X8; }", "X2; }")
    assert compiler.compile_source(small, "bomb", "sm_90", limits=Limits(400 << 20, 60)).symbol == "bomb"


@needs_nvrtc
def test_a_source_that_compiles_for_ever_is_stopped_at_the_time_limit(children):
    t0 = time.monotonic()
    with pytest.raises(CompileLimitExceeded, match=r"did not finish within its limit of 1 s .*"
                                                   + sandbox.SECONDS_ENV):
        compiler.compile_source(template_bomb(), "bomb", "sm_90", limits=Limits(seconds=1))
    assert time.monotonic() - t0 < 10
    assert_gone(children)


@needs_nvrtc
def test_cancel_kills_the_compiler(children):
    t0 = time.monotonic()
    with pytest.raises(ChildCancelled) as info:
        compiler.compile_source(template_bomb(), "bomb", "sm_90", cancel=lambda: time.monotonic() - t0 > 0.5)
    assert str(info.value) == "cancelled"
    assert time.monotonic() - t0 < 5
    assert_gone(children)


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS is POSIX")
def test_a_tool_gets_the_memory_limit_and_the_time_limit(children):
    # an executable under run_tool: RLIMIT_AS set before exec (the Python here allocates 600 MiB)
    big = [sys.executable, "-c", "x = bytearray(600 << 20); print(len(x))"]
    with pytest.raises(CompileLimitExceeded, match="more memory than its limit of 300 MiB"):
        sandbox.run_tool(big, field="nvdisasm", what="nvdisasm", limits=Limits(300 << 20, 30))
    code, out, _ = sandbox.run_tool(big, field="nvdisasm", what="nvdisasm", limits=Limits(None, 30))
    assert code == 0 and out.strip() == str(600 << 20)
    t0 = time.monotonic()
    with pytest.raises(CompileLimitExceeded, match="within its limit of 1 s"):
        sandbox.run_tool([sys.executable, "-c", "import time; time.sleep(60)"], field="nvdisasm", what="nvdisasm",
                         limits=Limits(seconds=1))
    assert time.monotonic() - t0 < 10
    assert_gone(children)


def test_the_limits_come_from_the_environment():
    assert Limits.from_env({}) == Limits(2048 << 20, 120.0)
    assert Limits.from_env({sandbox.MEMORY_ENV: "512", sandbox.SECONDS_ENV: "2.5"}) == Limits(512 << 20, 2.5)
    with pytest.raises(InputError, match="is not an integer"):
        Limits.from_env({sandbox.MEMORY_ENV: "lots"})
    with pytest.raises(InputError, match="outside 64"):
        Limits.from_env({sandbox.MEMORY_ENV: "1"})
    with pytest.raises(InputError, match="outside 1"):
        Limits.from_env({sandbox.SECONDS_ENV: "0"})


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS is POSIX")
@needs_nvrtc
def test_the_cli_says_one_line_and_exits_2(tmp_path):
    src = tmp_path / "bomb.cu"
    src.write_text(macro_bomb())
    env = {**os.environ, sandbox.MEMORY_ENV: "400"}
    proc = subprocess.run([sys.executable, "-m", "explorer", "compile", str(src), "--kernel", "bomb", "--arch", "sm_90"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "bomb.cu: compiling needed more memory than its limit of 400 MiB" in lines[0]
