"""Cubin resources of hand-written kernels, compiled for real (NVRTC or nvcc), checked
against what the source declares and against ``cuobjdump --dump-resource-usage``."""

from __future__ import annotations

import struct

import pytest

from explorer.toolchain.cubin import Cubin, CubinError, ptxas_spills, read_resources
from explorer.model.errors import InputError
from tests.gpu.support import cuobjdump, needs_compiler

KERNELS = r'''
extern "C" __global__ void no_shared(float* o) { o[threadIdx.x] = 1.0f; }

extern "C" __global__ void __launch_bounds__(128) tile(float* o) {
    __shared__ float s[1024];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[1023 - threadIdx.x];
}

extern "C" __global__ void dynamic_only(float* o) {
    extern __shared__ float d[];
    d[threadIdx.x] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = d[threadIdx.x ^ 1];
}

extern "C" __global__ void named_barriers(float* o) {
    __shared__ float s[64];
    s[threadIdx.x & 63] = threadIdx.x;
    asm volatile("bar.sync 5, 128;");
    o[threadIdx.x] = s[(threadIdx.x + 1) & 63];
}

extern "C" __global__ void spills(float* o, int n) {
    float a[64];
    for (int i = 0; i < 64; i++) a[i] = o[i * n + threadIdx.x];
    float s = 0;
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 64; i++) s += a[(i * j + n) & 63] * a[i];
    o[threadIdx.x] = s;
}

template <typename T>
__global__ void scale(T* x, T a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }
template __global__ void scale<float>(float*, float, int);
'''

ARCHS = ("sm_80", "sm_90")


@pytest.fixture(scope="module")
def compiled():
    from explorer.toolchain.compiler import compile_source

    out = {}
    for arch in ARCHS:
        for kernel in ("no_shared", "tile", "dynamic_only", "named_barriers", "scale<float>"):
            out[arch, kernel] = compile_source(KERNELS, kernel, arch, filename="hand.cu")
        out[arch, "spills"] = compile_source(KERNELS, "spills", arch, filename="hand.cu", maxrregcount=32)
    return out


@needs_compiler
@pytest.mark.parametrize("arch", ARCHS)
def test_static_shared_memory_excludes_the_reserved_region(compiled, arch):
    tile = compiled[arch, "tile"].resources
    assert tile.static_shared_bytes == 4096  # float s[1024]
    if arch == "sm_90":  # the section holds the 1 KB the system reserves per block
        assert tile.shared_section_bytes == 5120 and tile.reserved_shared_bytes == 1024
    else:
        assert tile.shared_section_bytes == 4096 and tile.reserved_shared_bytes == 0
    assert compiled[arch, "no_shared"].resources.static_shared_bytes == 0
    assert compiled[arch, "dynamic_only"].resources.static_shared_bytes == 0
    assert compiled[arch, "named_barriers"].resources.static_shared_bytes == 256


@needs_compiler
@pytest.mark.parametrize("arch", ARCHS)
def test_barriers_launch_bounds_and_register_limits(compiled, arch):
    assert compiled[arch, "no_shared"].resources.barriers == 0
    assert compiled[arch, "tile"].resources.barriers == 1
    assert compiled[arch, "named_barriers"].resources.barriers == 6  # bar.sync 5 -> barriers 0..5
    assert compiled[arch, "tile"].resources.max_threads_per_block == 128
    assert compiled[arch, "no_shared"].resources.max_threads_per_block is None
    sp = compiled[arch, "spills"].resources
    assert sp.registers <= 32 and sp.max_registers == 32
    assert sp.spill_store_bytes and sp.spill_store_bytes > 0 and sp.spill_load_bytes > 0
    assert sp.stack_frame_bytes >= sp.spill_store_bytes
    for key in ("no_shared", "tile", "dynamic_only"):
        r = compiled[arch, key].resources
        assert 1 <= r.registers <= 64 and r.spill_bytes == 0 and r.arch == arch


@needs_compiler
def test_cpp_kernel_names_resolve_to_their_mangled_symbol(compiled):
    res = compiled["sm_90", "scale<float>"]
    assert res.symbol.startswith("_Z") and "scale" in res.symbol
    assert res.resources.name == res.symbol


@needs_compiler
@pytest.mark.skipif(cuobjdump() is None, reason="needs cuobjdump (pip install nvidia-cuda-cuobjdump or a CUDA toolkit)")
def test_resources_match_cuobjdump(compiled, tmp_path):
    from explorer.toolchain.tools import cuobjdump_resource_usage

    for (arch, kernel), result in compiled.items():
        path = tmp_path / f"{arch}-{kernel.replace('<', '_').replace('>', '_')}.cubin"
        path.write_bytes(result.cubin)
        usage = cuobjdump_resource_usage(path)
        row = usage[result.symbol]
        r = result.resources
        assert row["REG"] == r.registers, (arch, kernel, row)
        assert row["SHARED"] == r.shared_section_bytes, (arch, kernel, row)
        assert row["SHARED"] - r.reserved_shared_bytes == r.static_shared_bytes
        assert row["STACK"] == r.stack_frame_bytes, (arch, kernel, row)


def test_ptxas_log_spills_are_read_per_function():
    log = """ptxas info    : Compiling entry function 'a' for 'sm_90'
ptxas info    : Function properties for a
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'b' for 'sm_90'
ptxas info    : Function properties for b
ptxas         .     624 bytes stack frame, 392 bytes spill stores, 512 bytes spill loads"""
    assert ptxas_spills(log, "a") == (0, 0)
    assert ptxas_spills(log, "b") == (392, 512)
    assert ptxas_spills(log, "c") is None


@pytest.mark.parametrize("data, message", [
    (b"", "not an ELF"),
    (b"hello world" * 10, "not an ELF"),
    (b"\x7fELF" + b"\x01\x01" + b"\0" * 100, "64-bit"),
    (b"\x7fELF\x02\x01" + b"\0" * 10 + struct.pack("<HH", 2, 62) + b"\0" * 60, "not CUDA"),
])
def test_malformed_cubins_are_input_errors(data, message):
    with pytest.raises(CubinError) as info:
        Cubin(data)
    assert isinstance(info.value, InputError)
    assert message in str(info.value)


@needs_compiler
def test_truncated_cubin_and_unknown_kernel(compiled):
    blob = compiled["sm_90", "tile"].cubin
    with pytest.raises(CubinError):
        Cubin(blob[: len(blob) // 3]).resources("tile")
    with pytest.raises(InputError, match="no kernel named 'nope'.*tile"):
        read_resources(blob, "nope")
