"""Parameters by name and type from the source and the demangled symbol (no compiler needed)."""

from __future__ import annotations

import pytest

from explorer.model.errors import InputError
from explorer.sass.execute.signature import declarations, demangle, demangled_parts, kernel_parameters, parse_type

SOURCE = r'''
#define REAL float
typedef unsigned int uint;
// __global__ void commented_out(int x);
/* __global__ void also_not(int y); */
extern "C" __global__ void __launch_bounds__(256) saxpy(int n, float a, const float* __restrict__ x,
                                                       REAL *y)
{ const char* s = "__global__ void in_a_string(int)"; }
template <typename T, int N>
__global__ void scale(T* data, uint n, float4 v, double)
{}
__global__ void add_one(int* data, long long n, unsigned short step) {}
'''


def test_declarations_skip_comments_strings_and_attributes():
    found = {d.name: d for d in declarations(SOURCE)}
    assert set(found) == {"saxpy", "scale", "add_one"}
    assert [n for n, _ in found["saxpy"].params] == ["n", "a", "x", "y"]
    assert found["scale"].template and found["scale"].params[3] == (None, "double")


def test_types():
    t = parse_type("const float * __restrict__")
    assert t.pointer and t.dtype == "f32" and t.size == 8
    assert parse_type("float4*").lanes == 4 and parse_type("float4").size == 16
    assert parse_type("unsigned short").dtype == "u16" and parse_type("long long").size == 8
    assert parse_type("REAL *", {"REAL": "float"}).dtype == "f32"
    assert parse_type("void*").pointer and parse_type("void*").dtype is None
    assert parse_type("struct Foo").dtype is None  # by value: not supported (refused when bound)


def test_demangling():
    assert demangle("_Z7add_onePixt") == "add_one(int*, long long, unsigned short)"
    assert demangle("saxpy") == "saxpy"
    name, params = demangled_parts("void scale<float, 4>(float*, unsigned int, float4, double)")
    assert name == "scale<float, 4>" and params == ["float*", "unsigned int", "float4", "double"]


def test_kernel_parameters_use_the_demangled_types_and_the_source_names():
    names, types = kernel_parameters(SOURCE, "_Z5scaleIfLi4EEvPT_j6float4d", [8, 4, 16, 8])
    assert names == ["data", "n", "v", "arg3"]
    assert [t.dtype for t in types] == ["f32", "u32", "f32", "f64"] and types[2].lanes == 4
    names, types = kernel_parameters(SOURCE, "saxpy", [4, 4, 8, 8])
    assert names == ["n", "a", "x", "y"] and types[3].dtype == "f32"  # REAL is float


def test_a_size_the_cubin_disagrees_with_is_refused():
    with pytest.raises(InputError, match=r"kernel.args.n: the parameter's type int is 4 bytes in the source but 8"):
        kernel_parameters(SOURCE, "saxpy", [8, 4, 8, 8])
    with pytest.raises(InputError, match="no __global__ declaration of 'missing'"):
        kernel_parameters(SOURCE, "missing", [4])


def test_list_kernels_of_a_file():
    from explorer.sass.execute.kernel import list_kernels
    from tests.execute.cases import KERNELS
    from tests.sass.support import needs_sass

    if needs_sass.args[0]:
        pytest.skip(needs_sass.kwargs["reason"])
    names = list_kernels(KERNELS / "mixed.cu", "sm_90")
    assert {"halves", "local_mem", "scale_by<3>(float*, int)", "add_one(int*, long long, unsigned short)"} <= set(names)
    # as the file defines them, first to last (the compiler's symbols come in another order)
    first = ["halves", "half2_axpy", "int_math", "float_math", "doubles", "local_mem", "scale_by<3>(float*, int)",
             "add_one(int*, long long, unsigned short)", "add_min_max"]
    assert [n for n in names if n in first] == first


def test_a_file_is_compiled_once_for_its_list_and_any_of_its_kernels(monkeypatch):
    """Opening a file (the Your kernel tab) compiles it once: the compile that lists the kernels holds every one
    of them, so building one, or a C++ kernel asked for by its short name, compiles nothing again; the same build
    for another GPU, or for a changed source, compiles again."""
    from explorer.sass.execute.kernel import build_kernel, open_kernels
    from explorer.toolchain import compiler
    from tests.execute.cases import KERNELS
    from tests.sass.support import needs_sass

    if needs_sass.args[0]:
        pytest.skip(needs_sass.kwargs["reason"])
    compiles = []
    real = compiler._build_in_child
    monkeypatch.setattr(compiler, "_build_in_child", lambda *a, **k: compiles.append(a[0]["kernel"]) or real(*a, **k))
    names, build = open_kernels(KERNELS / "mixed.cu", "sm_90")
    assert "halves" in names and len(compiles) == 1
    by_list = build_kernel(KERNELS / "mixed.cu", "halves", "sm_90", build=build)
    short = build_kernel(KERNELS / "mixed.cu", "add_one", "sm_90", build=build)  # a C++ kernel by its short name
    assert len(compiles) == 1
    fresh = build_kernel(KERNELS / "mixed.cu", "halves", "sm_90")  # what a compile of its own gives: the same
    assert len(compiles) == 2
    # the same code (the two cubins differ in the name expressions the compiler was given, not in the kernel)
    assert (by_list.symbol, by_list.registers, by_list.static_shared_bytes, by_list.barriers, by_list.params) == (
        fresh.symbol, fresh.registers, fresh.static_shared_bytes, fresh.barriers, fresh.params)
    assert [(i.text, i.encoding) for i in by_list.instructions] == [(i.text, i.encoding) for i in fresh.instructions]
    assert short.demangled.startswith("add_one(")
    build_kernel(KERNELS / "mixed.cu", "halves", "sm_80", build=build)  # another GPU: its own compile
    assert len(compiles) == 3
