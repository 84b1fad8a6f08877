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
