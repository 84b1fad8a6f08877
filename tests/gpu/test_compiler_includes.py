"""Includes are confined to the kernel's folder, the folders the user names and the CUDA headers
(issue 30, item 7: ``#include "/etc/passwd"`` and ``"../../secret.h"`` were read, and the compiler's
first error quoted them back); a scenario's ``kernel.file`` names a CUDA source only."""

from __future__ import annotations

import os

import pytest

from explorer.toolchain import compiler
from explorer.toolchain.compiler import check_includes, includes_of
from explorer.toolchain.errors import CompileError
from explorer.model.errors import InputError
from tests.gpu.support import nvrtc_problem

needs_nvrtc = pytest.mark.skipif(bool(nvrtc_problem()), reason=f"needs NVRTC: {nvrtc_problem()}")
KERNEL = 'extern "C" __global__ void k(int* o) { o[0] = VALUE; }\n'


def test_the_scan_reads_directives_as_the_preprocessor_does():
    text = ('#include "a.h"\n  #  include <b.h>\n#include_next "c.h"\n// #include "commented.h"\n'
            '/* #include "block.h" */\nconst char* s = "#include \\"in_a_string.h\\"";\n#include \\\n  "joined.h"\n'
            "#include HEADER\n")
    assert includes_of(text) == [('"', "a.h"), ("<", "b.h"), ('"', "c.h"), ('"', "joined.h"), ("macro", "HEADER")]


@pytest.fixture
def tree(tmp_path):
    """kernel/ (the kernel's folder, with sub/), outside/ (a secret), a link from kernel/ to outside/."""
    kernel, outside = tmp_path / "kernel", tmp_path / "outside"
    (kernel / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.h").write_text("#define VALUE 42\n")
    (kernel / "sub" / "ok.h").write_text('#include "../value.h"\n')
    (kernel / "value.h").write_text("#define VALUE 7\n")
    (kernel / "sneaky.h").write_text('#include "../outside/secret.h"\n')
    os.symlink(outside / "secret.h", kernel / "link.h")
    return kernel, outside


@pytest.mark.parametrize("line, why", [
    ('#include "/etc/passwd"', "is an absolute path"),
    ('#include "../outside/secret.h"', "is outside the kernel's folder"),
    ('#include "sneaky.h"', "sneaky.h: #include '../outside/secret.h' is outside"),  # through a header
    ('#include "link.h"', "is outside the kernel's folder"),  # a symbolic link out
    ('#include "../../../../../../../../etc/missing"', "leaves the include folders"),
    ("#define H <value.h>\n#include H", "names its header through a macro"),
])
def test_includes_outside_the_allowed_folders_are_refused(tree, line, why):
    kernel, _ = tree
    with pytest.raises(CompileError, match=why):
        check_includes(line + "\n" + KERNEL, "k.cu", [str(kernel)], [])


def test_includes_inside_are_allowed_and_a_given_folder_allows_more(tree):
    kernel, outside = tree
    check_includes('#include "sub/ok.h"\n#include <value.h>\n#include <cuda_fp16.h>\n' + KERNEL, "k.cu",
                   [str(kernel)], [])
    check_includes('#include "secret.h"\n' + KERNEL, "k.cu", [str(kernel), str(outside)], [])  # -I outside


@needs_nvrtc
def test_compile_refuses_before_the_compiler_reads_anything(tree):
    kernel, _ = tree
    src = kernel / "k.cu"
    src.write_text('#include "../outside/secret.h"\n' + KERNEL)
    with pytest.raises(CompileError, match="k.cu: #include '../outside/secret.h' is outside"):
        compiler.compile_file(src, "k", "sm_90")
    src.write_text('#include "sub/ok.h"\n' + KERNEL)
    assert compiler.compile_file(src, "k", "sm_90").symbol == "k"
    r = compiler.compile_file(kernel / "k.cu", "k", "sm_90", include_dirs=[str(tree[1])])
    assert r.symbol == "k"


def test_a_scenario_names_a_cuda_source_only():
    from explorer.model.kernel_spec import parse_kernel

    for name in ("/etc/passwd", "id_rsa", "notes.txt", "k.cu.bak"):
        with pytest.raises(InputError, match="is not a CUDA source; the file name must end in .cu or .cuh"):
            parse_kernel({"file": name, "name": "k", "args": {}})
    assert parse_kernel({"file": "k.CU", "name": "k", "args": {}}).file == "k.CU"
    assert parse_kernel({"file": "lib/k.cuh", "name": "k", "args": {}}).file == "lib/k.cuh"
