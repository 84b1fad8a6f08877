"""The device tests' faulty and hung kernels are what they claim to be, with every compiler here (no GPU).

On the H200 (2026-12-04) ``test_a_hung_kernel_is_stopped_by_the_timeout`` failed with "DID NOT
RAISE": the worker ran the "hung" kernel to completion in about a second. Its spin,
``volatile int spin = 1; while (spin) { }``, is deleted by CUDA 13.0's compiler (NVRTC 13.0 there,
nvcc 13.0 here): the SASS has no loop and no trace of the flag test, so nothing hung and the
timeout had nothing to stop. The timeout itself was never at fault (the fake driver's hang, in
``cuStreamSynchronize``, is stopped by the same code). These tests read the SASS of the patched
kernels, so a compiler that drops the hang or the fault fails here, on any machine, before a GPU
session is spent on it.
"""

from __future__ import annotations

import re

import pytest

from tests.gpu.support import (FAULT_PATCH, HANG_PATCH, PATCH_ANCHOR, needs_compiler, patched_example_source, sass,
                               sass_available)

pytestmark = [needs_compiler, pytest.mark.skipif(not sass_available(), reason="needs cuobjdump and nvdisasm")]


def _backends() -> list[str]:
    from explorer.toolchain.compiler import nvrtc_version
    from explorer.toolchain.tools import find_tool

    found = []
    try:
        nvrtc_version()
        found.append("nvrtc")
    except Exception:  # noqa: BLE001 - no NVRTC: nvcc alone
        pass
    if find_tool("nvcc"):
        found.append("nvcc")
    return found


def _compiled_sass(tmp_path, monkeypatch, backend: str, patch: str | None) -> list[tuple[int, str]]:
    from explorer.toolchain.compiler import compile_source
    from explorer.toolchain.prepare import prepare
    from explorer.model.presets import load_preset

    monkeypatch.setenv("WARP_EXPLORER_COMPILER", backend)
    prepared = prepare(load_preset("example-240x256"))
    source = prepared.generated.source if patch is None else patched_example_source(prepared.generated.source, patch)
    compiled = compile_source(source, prepared.generated.kernel, prepared.arch)
    assert compiled.compiler.lower().startswith(backend)
    path = tmp_path / f"{backend}-{'plain' if patch is None else 'patched'}.cubin"
    path.write_bytes(compiled.cubin)
    out = []
    for line in sass(path, compiled.symbol):
        address, text = line.split(" ", 1)
        out.append((int(address, 16), text))
    return out


def _opcode(text: str) -> str:
    parts = text.split()
    if parts and parts[0].startswith("@"):  # a predicate
        parts = parts[1:]
    return parts[0] if parts else ""


def _spin_loops(code: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """Backward branches whose body loads from memory: (target, branch address)."""
    loops = []
    for address, text in code:
        target = re.search(r"0x([0-9a-f]+)", text)
        if _opcode(text) != "BRA" or target is None or int(target.group(1), 16) > address:
            continue
        start = int(target.group(1), 16)
        if any(_opcode(x).startswith("LD") for a, x in code if start <= a <= address):
            loops.append((start, address))
    return loops


@pytest.mark.parametrize("backend", _backends())
def test_the_hung_kernel_spins_on_a_load_the_compiler_keeps(tmp_path, monkeypatch, backend):
    plain = _compiled_sass(tmp_path, monkeypatch, backend, None)
    hung = _compiled_sass(tmp_path, monkeypatch, backend, HANG_PATCH)
    # the workload's own loop loads too: the hang adds one loop, the first, before the workload's
    loops = _spin_loops(hung)
    assert len(loops) == len(_spin_loops(plain)) + 1, (backend, loops)
    start, end = min(loops)
    body = [text for address, text in hung if start <= address <= end]
    assert len(body) <= 6, body  # a tight spin: the load, the compare, the branch
    assert any(text.startswith("LDG") and "STRONG.SYS" in text for text in body), body  # a volatile device load


@pytest.mark.parametrize("backend", _backends())
def test_the_faulty_kernel_keeps_its_wild_store(tmp_path, monkeypatch, backend):
    plain = _compiled_sass(tmp_path, monkeypatch, backend, None)
    faulty = _compiled_sass(tmp_path, monkeypatch, backend, FAULT_PATCH)
    stores = [text for _, text in faulty if _opcode(text).startswith("STG")]
    plain_stores = [text for _, text in plain if _opcode(text).startswith("STG")]
    assert len(stores) == len(plain_stores) + 1 and any("STRONG.SYS" in s for s in stores), stores


def test_the_patches_land_in_the_generated_kernel():
    from explorer.toolchain.prepare import prepare
    from explorer.model.presets import load_preset

    source = prepare(load_preset("example-240x256")).generated.source
    assert source.count(PATCH_ANCHOR) == 1  # one loop: the patch runs once per thread, before it
    for patch in (HANG_PATCH, FAULT_PATCH):
        patched = patched_example_source(source, patch)
        assert patched.index(patch) < patched.index(PATCH_ANCHOR) and "flag == 0u" in patch
    with pytest.raises(AssertionError):
        patched_example_source(source.replace(PATCH_ANCHOR, "    #pragma unroll 2"), HANG_PATCH)
