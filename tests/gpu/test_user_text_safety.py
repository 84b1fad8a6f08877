"""User text (scenario names, file names, folders, macros, kernel names) never runs, never injects
source lines and never leads a write out of its folder (issue 12, items 1 and 2), with both compilers.

An injected command would be ``touch $MARK``: ``$MARK`` is an absolute path set in the
environment, so whichever folder a shell runs it in, the file appears where the test looks.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.toolchain.names import check_kernel_name, one_line, parse_define, slug
from explorer.model.errors import InputError
from tests.gpu.support import assert_one_line_error, compiler_problem, nvrtc_problem, run_cli

HOSTILE = "demo$(touch $MARK)`touch $MARK`\n#error INJECTED\n../../somewhere/evil"


def _nvcc_problem() -> str:
    from explorer.toolchain.tools import find_tool

    return "" if find_tool("nvcc") else "nvcc is not installed"


BACKENDS = [
    pytest.param("nvcc", marks=pytest.mark.skipif(bool(_nvcc_problem()), reason=_nvcc_problem() or "-")),
    pytest.param("nvrtc", marks=pytest.mark.skipif(bool(nvrtc_problem()), reason=f"needs NVRTC: {nvrtc_problem()}")),
]


@pytest.fixture()
def mark(tmp_path):
    """The file an injected command would create, and an environment that names it."""
    path = tmp_path / "INJECTED-COMMAND-RAN"
    env = {"MARK": str(path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "WARP_EXPLORER_NO_GPU": "1"}
    return path, env


# -- the rules, as properties --------------------------------------------------------------------
@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_a_slug_is_a_plain_file_name_that_stays_in_its_folder(text):
    s = slug(text)
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,64}", s)
    assert ".." not in s and not s.startswith((".", "-"))
    base = Path("/base/folder")
    assert (base / s).resolve().parent == base.resolve()


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_one_line_has_no_line_breaks(text):
    out = one_line(text)
    assert "\n" not in out and "\r" not in out and len(out) <= 200


@pytest.mark.parametrize("name", ["saxpy", "ns::k<float, 32>", "transpose<32>", "k<float*, (1 + 2)>", "_Z5saxpyfPKfPfi"])
def test_kernel_names_that_are_names(name):
    assert check_kernel_name(name) == name


@pytest.mark.parametrize("name", ["k\n#error x", "k); system(\"id\"); //", "k$(touch x)", "k`id`", "k;", "#k", "",
                                  "k{}", "k\"", "a" * 600])
def test_kernel_names_that_are_not(name):
    with pytest.raises(InputError):
        check_kernel_name(name)


def test_defines():
    assert parse_define("X") == ("X", None)
    assert parse_define('MSG="$(touch x)"') == ("MSG", '"$(touch x)"')
    for bad in ["X\n#error y", "1X=2", "X Y=1", "$(id)=1", "X=a\\", "X=a\rb", ""]:
        with pytest.raises(InputError):
            parse_define(bad)


# -- compile: hostile file, folder and macro names, both backends ------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_compile_hostile_file_names_run_nothing(tmp_path, mark, backend):
    marker, env = mark
    folder = tmp_path / "inc$(touch $MARK)"
    folder.mkdir()
    (folder / "h.cuh").write_text("#define SCALE 3.0f\n")
    src = tmp_path / "k$(touch $MARK)`touch $MARK`.cu"
    src.write_text('#include "h.cuh"\nextern "C" __global__ void k(float* o) { const char* m = MSG; '
                   "o[0] = X * SCALE + m[0]; }\n")
    cubin = tmp_path / "out$(touch $MARK).cubin"
    proc = run_cli("compile", str(src), "--arch", "sm_90", "-D", "X=2", "-D", 'MSG="$(touch $MARK)`touch $MARK`"',
                   "-I", str(folder), "--json", "--cubin-out", str(cubin),
                   env={**env, "WARP_EXPLORER_COMPILER": backend})
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists(), "a command in a name was executed"
    assert cubin.read_bytes()[:4] == b"\x7fELF"
    assert backend in proc.stdout.lower()


@pytest.mark.parametrize("backend", BACKENDS)
def test_compile_errors_show_the_users_file_name_on_one_line(tmp_path, mark, backend):
    marker, env = mark
    src = tmp_path / "bad$(touch $MARK).cu"
    src.write_text('extern "C" __global__ void k(float* o) {\n  o[0] = undefined_thing;\n}\n')
    line = assert_one_line_error(run_cli("compile", str(src), "--kernel", "k", "--arch", "sm_90",
                                         env={**env, "WARP_EXPLORER_COMPILER": backend}), 2, "bad$(touch $MARK).cu")
    assert "undefined_thing" in line and "kernel.cu" not in line
    assert not marker.exists()


@pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")
@pytest.mark.parametrize("args, contains", [
    (["--kernel", "k\n#error INJECTED"], "--kernel"),
    (["--kernel", "k", "-D", "X=1\n#error INJECTED"], "-D"),
    (["--kernel", "k", "-D", "$(touch $MARK)"], "-D"),
    (["--kernel", "k", "--cubin-out", ""], "--cubin-out"),
])
def test_compile_refuses_text_that_would_inject(tmp_path, mark, args, contains):
    marker, env = mark
    src = tmp_path / "k.cu"
    src.write_text('extern "C" __global__ void k(float* o) { o[0] = 1.f; }\n')
    assert_one_line_error(run_cli("compile", str(src), "--arch", "sm_90", *args, env=env), 2, contains)
    assert not marker.exists()


# -- measure --dry-run: hostile scenario names ----------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_dry_run_with_a_hostile_scenario_name(tmp_path, mark, backend):
    marker, env = mark
    name = HOSTILE.replace("\n", "\\n").replace('"', '\\"')
    proc = run_cli("measure", "example-240x256", "--dry-run", "--set", f'name="{name}"',
                   env={**env, "WARP_EXPLORER_COMPILER": backend})
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists(), "a command in the scenario name was executed"
    folder = tmp_path / "cache" / "warp-explorer" / "kernels"
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 2 and all(re.fullmatch(r"[A-Za-z0-9._-]+", f) for f in files), files
    assert not (tmp_path / "somewhere").exists() and not (tmp_path / "cache" / "somewhere").exists()
    source = (folder / files[0]).read_text()
    assert not [line for line in source.splitlines() if line.lstrip().startswith("#error")]
    assert "$(" not in source and "`" not in source
    assert os.stat(folder).st_mode & 0o077 == 0  # the per-user folder is private
    assert len(proc.stdout.splitlines()[2].split("'")) == 3  # the name is shown on its own line, escaped


@pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")
def test_dry_run_traversal_name_stays_in_the_folder_and_out_can_be_a_folder(tmp_path, mark):
    marker, env = mark
    out = tmp_path / "outdir"
    out.mkdir()
    proc = run_cli("measure", "example-240x256", "--dry-run", "--json", "--out", str(out), "--set",
                   'name="../../somewhere/evil"', env=env)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["somewhere-evil-sm_90.cu", "somewhere-evil-sm_90.cubin"]
    assert not (tmp_path / "somewhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outdir"]  # and nothing else anywhere here


@pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")
@pytest.mark.parametrize("setup", ["symlink", "world-writable"])
def test_dry_run_refuses_an_output_folder_that_is_not_ours(tmp_path, mark, setup):
    _marker, env = mark
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache = tmp_path / "cache"
    cache.mkdir()
    if setup == "symlink":
        (cache / "warp-explorer").symlink_to(elsewhere, target_is_directory=True)
    else:
        (cache / "warp-explorer").mkdir()
        os.chmod(cache / "warp-explorer", 0o777)
    assert_one_line_error(run_cli("measure", "example-240x256", "--dry-run", env=env), 2, "refusing")
    assert list(elsewhere.iterdir()) == []


def test_measure_out_must_not_be_empty(mark):
    assert_one_line_error(run_cli("measure", "example-240x256", "--out", "", env=mark[1]), 2, "--out")
