"""Fuzz ``execute`` (the tests/fuzz contract): hostile --set values on a [kernel] scenario and hostile
kernel files exit 0 or 2 with one line, never a traceback, and write nothing but the named dump."""

from __future__ import annotations

import shutil

from hypothesis import given
from hypothesis import strategies as st

from tests.execute.cases import KERNELS
from tests.execute.test_cli_execute import SCENARIO
from tests.fuzz.harness import SLOW, check, run_main, workdir
from tests.fuzz.strategies import mostly, nasty_text, toml_scalar_text
from tests.sass.support import needs_sass

KEYS = ["kernel.name", "kernel.file", "kernel.args.n", "kernel.args.a", "kernel.args.x", "kernel.args.x.count",
        "kernel.args.x.dtype", "kernel.args.y.init", "kernel.args.y.seed", "kernel.args.q", "kernel.max_instructions",
        "kernel.args", "kernel", "kernel.args.x.count.deeper", "launch.block", "launch.grid", "gpu",
        "launch.dynamic_shared_bytes"]


@needs_sass
@SLOW
@given(sets=st.lists(st.tuples(mostly(st.sampled_from(KEYS), nasty_text(12)), toml_scalar_text()), max_size=2),
       dump=st.booleans())
def test_execute_set_flags(sets, dump):
    with workdir() as folder:
        shutil.copy(KERNELS / "saxpy.cu", folder / "saxpy.cu")
        (folder / "s.toml").write_text(SCENARIO.replace("max_instructions", "#"))
        argv = ["execute", "s.toml", "--set", "kernel.max_instructions=200000"]
        for key, value in sets:
            argv += ["--set", f"{key}={value}"]
        if dump:
            argv += ["--dump-buffers", "out.npz"]
        check(run_main(argv), outputs=("out.npz",) if dump else ())


@needs_sass
@SLOW
@given(source=st.one_of(nasty_text(200), st.sampled_from([
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { y[n] = x[-n]; }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { __syncthreads(); if (threadIdx.x) '
    '__syncthreads(); }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { ((int*)x)[threadIdx.x * 3 + 1] = 0; '
    '*(double*)(y + 1) = 1.0; }',
    'struct S { int a; }; extern "C" __global__ void saxpy(S n, float a, float* x, float* y) {}',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { __shared__ int s[4]; '
    's[threadIdx.x] = 1; }',
])))
def test_execute_hostile_kernels(source):
    with workdir() as folder:
        (folder / "saxpy.cu").write_text(source, encoding="utf-8", errors="surrogatepass")
        (folder / "s.toml").write_text(SCENARIO)
        check(run_main(["execute", "s.toml", "--set", "kernel.max_instructions=200000"]))


# -- the compiler's inputs, compiled in its child process (issue 30) ------------------------------------
ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120", "sm_70", "sm_90a", "sm_999"]
HOSTILE_LINES = [
    '#include "/etc/passwd"', '#include "../../../../etc/hostname"', "#include <../../etc/passwd>",
    "#define H </etc/passwd>\n#include H", '#include "nonexistent.h"', "#include <cuda_fp16.h>",
    '#pragma once', "#error stop here", "#line 99999999999999999999 \"x\"", "#include \\\n \"/etc/passwd\"",
    "/* #include \"/etc/passwd\" */", '__device__ int v = "unterminated;',
    "#define X0 1+1+1+1+1+1+1+1+1+1\n" + "".join(f"#define X{k} X{k - 1}+X{k - 1}+X{k - 1}+X{k - 1}+X{k - 1}+"
                                               f"X{k - 1}+X{k - 1}+X{k - 1}+X{k - 1}+X{k - 1}\n" for k in range(1, 9))
    + "__device__ int big = X8;",
]
KERNEL_LINE = 'extern "C" __global__ void k(int* o) { o[threadIdx.x] = 1; }'


@needs_sass
@SLOW
@given(lines=st.lists(st.one_of(st.sampled_from(HOSTILE_LINES), nasty_text(80)), max_size=3),
       arch=st.sampled_from(ARCHS), kernel=mostly(st.just("k"), nasty_text(20)))
def test_compile_hostile_sources_in_the_child(lines, arch, kernel):
    """Whatever the source, the architecture and the kernel name: exit 0 or 2 in one line, no file outside
    the folder read back (an include outside is refused), and no compiler process left running. Small limits
    (400 MiB, 20 s) keep a source that expands without bound to seconds."""
    import os
    import subprocess

    from explorer.toolchain import sandbox

    pids = []
    real = subprocess.Popen

    def popen(*args, **kwargs):
        proc = real(*args, **kwargs)
        pids.append(proc.pid)
        return proc

    old = {k: os.environ.get(k) for k in (sandbox.MEMORY_ENV, sandbox.SECONDS_ENV)}
    os.environ[sandbox.MEMORY_ENV], os.environ[sandbox.SECONDS_ENV] = "400", "20"
    sandbox.subprocess.Popen = popen
    try:
        with workdir() as folder:
            (folder / "k.cu").write_text("\n".join(lines + [KERNEL_LINE]) + "\n", encoding="utf-8",
                                         errors="surrogatepass")
            out = run_main(["compile", "k.cu", "--kernel", kernel, "--arch", arch, "--json"])
            check(out, allowed_codes=(0, 2, 3))
            assert "root:x:0:0" not in out.err and "root:x:0:0" not in out.out
    finally:
        sandbox.subprocess.Popen = real
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    for pid in pids:
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            continue
        raise AssertionError(f"process group {pid} left running")


GPUS = ["V100", "T4", "A100", "A6000", "RTX4090", "L4", "H100", "H200", "B200", "RTX5090"]


@needs_sass
@SLOW
@given(gpu=st.sampled_from(GPUS), source=st.sampled_from([
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { y[n] = x[-n]; }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { '
    'atomicCAS((unsigned long long*)x + 1, 0ull, (unsigned long long)n); atomicAdd(y, a); }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { switch (n & 7) { case 0: y[0] = 1; '
    'break; case 1: y[1] = 2; break; case 2: y[2] = 3; break; case 3: y[3] = a; break; case 4: y[4] = 5; break; '
    'case 5: y[5] = 6; break; default: y[6] = 7; } }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { __shared__ double s[2]; '
    'atomicAdd(&s[threadIdx.x & 1], 1.0); __syncthreads(); y[threadIdx.x] = s[0] + __shfl_xor_sync(~0u, a, 3); }',
    'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { while (y[0] < 1e30f) y[1] += 1; }',
]))
def test_execute_on_every_architecture(gpu, source):
    """Every GPU of the catalog (V100: refused in one line, sm_70 is not NVRTC 13's) runs or refuses a
    kernel with atomics, a switch, shared-memory atomics, shuffles or an endless loop: exit 0 or 2."""
    with workdir() as folder:
        (folder / "saxpy.cu").write_text(source)
        (folder / "s.toml").write_text(SCENARIO)
        out = run_main(["execute", "s.toml", "--set", f'gpu="{gpu}"', "--max-instructions", "200000"])
        check(out)
        if gpu == "V100":
            assert out.code == 2 and "sm_75 and newer" in out.err
