"""NVRTC that loads but cannot compile (not the source's fault) falls back to nvcc (issue 20, item 9);
a source that does not compile stays the user's error, whichever compiler ran.

The backends are patched in this process, so these compile in it (``isolated=False``); the
compiling child runs the same ``build_cubin`` (tests/gpu/test_compiler_sandbox.py)."""

from __future__ import annotations

import pytest

from explorer.toolchain import backends as compiler  # the compilers the child runs (and tests run in-process)
from explorer.toolchain import compiler as front
from explorer.toolchain.errors import CompileError, CompilerUnavailable
from tests.gpu.support import nvrtc_problem

SRC = 'extern "C" __global__ void k(float* o) { o[0] = 1.f; }\n'

pytestmark = pytest.mark.skipif(bool(nvrtc_problem()), reason=f"needs NVRTC: {nvrtc_problem()}")


class BrokenNvrtc:
    """The real NVRTC module, except that compiling fails with NVRTC_ERROR_BUILTIN_OPERATION_FAILURE."""

    def __init__(self, real):
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)

    def nvrtcCompileProgram(self, prog, n, opts):  # noqa: N802 - NVRTC's name
        return (self.real.nvrtcResult.NVRTC_ERROR_BUILTIN_OPERATION_FAILURE,)


@pytest.fixture()
def broken(monkeypatch):
    real = compiler._nvrtc_module()
    monkeypatch.setattr(compiler, "_nvrtc_module", lambda: BrokenNvrtc(real))
    monkeypatch.delenv("WARP_EXPLORER_COMPILER", raising=False)


def test_broken_nvrtc_falls_back_to_nvcc(broken):
    if compiler.find_tool("nvcc") is None:
        pytest.skip("needs nvcc")
    result = front.compile_source(SRC, "k", "sm_90", isolated=False)
    assert result.compiler.startswith("nvcc") and "BUILTIN_OPERATION_FAILURE" in result.compiler
    assert result.symbol == "k" and result.cubin[:4] == b"\x7fELF"


def test_broken_nvrtc_without_nvcc_says_so(broken, monkeypatch):
    monkeypatch.setattr(compiler, "find_tool", lambda name: None)
    with pytest.raises(CompilerUnavailable, match="NVRTC cannot compile"):
        front.compile_source(SRC, "k", "sm_90", isolated=False)
    # NVRTC wrote its empty (one-byte) log into a buffer of ours, not into Python's shared b" "
    assert " ".encode()[0] == 32 and (b" " * 1)[0] == 32


def test_forcing_nvrtc_means_no_fallback(broken, monkeypatch):
    monkeypatch.setenv("WARP_EXPLORER_COMPILER", "nvrtc")
    with pytest.raises(CompilerUnavailable):
        front.compile_source(SRC, "k", "sm_90", isolated=False)


def test_a_source_error_is_not_a_reason_to_try_nvcc(monkeypatch):
    calls = []
    monkeypatch.setattr(compiler, "_compile_nvcc", lambda *a, **k: calls.append(a))
    with pytest.raises(CompileError, match="does not compile"):
        front.compile_source('extern "C" __global__ void k(float* o) { o[0] = nope; }\n', "k", "sm_90",
                                isolated=False)
    assert calls == []
