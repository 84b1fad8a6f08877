"""``execute`` and ``simulate`` on a [kernel] scenario: the JSON and text contract, the buffer dump,
and every kind of bad input as one line and exit 2, with nothing written."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from explorer.cli.main import main
from tests.execute.cases import KERNELS
from tests.helpers import assert_one_line_error, run_cli
from tests.sass.support import needs_sass

pytestmark = needs_sass

SCENARIO = """name = "mine"
gpu = "H100"
[launch]
grid = [8, 1, 1]
block = [128, 1, 1]
[kernel]
file = "saxpy.cu"
name = "saxpy"
[kernel.args]
n = 3000
a = 2.0
x = { dtype = "f32", count = 3000, init = "arange" }
y = { dtype = "f32", count = 3000, init = "ones" }
"""


class Proc:
    def __init__(self, code, out, err):
        self.returncode, self.stdout, self.stderr = code, out, err


def cli(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return Proc(code, out.out, out.err)


@pytest.fixture
def scenario(tmp_path):
    shutil.copy(KERNELS / "saxpy.cu", tmp_path / "saxpy.cu")
    path = tmp_path / "mine.toml"
    path.write_text(SCENARIO)
    return path


def test_execute_json_contract(capsys, scenario):
    p = cli(capsys, "execute", str(scenario), "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["gpu"] == "H100" and s["arch"] == "sm_90" and s["timing"] is None and "functional" in s["note"]
    assert s["kernel"]["registers_per_thread"] > 0 and s["kernel"]["static_shared_bytes"] == 0
    assert [p["name"] for p in s["kernel"]["parameters"]] == ["n", "a", "x", "y"]
    assert s["simt_efficiency"] == pytest.approx(s["thread_instructions"] / (32 * s["warp_instructions"]))
    # 3000 elements over 1024 threads: 32 + 32 + 29 full warps and one of 24 lanes (3 sectors) per access
    assert s["sectors_per_request"] == {"global_load": 375 / 94, "global_store": 375 / 94}
    assert s["bank_conflicts"] == {}
    assert s["launched_warps"] == 32 and s["blocks"] == 8
    assert s["buffers"]["y"]["changed"] == 2999 and s["buffers"]["x"]["changed"] == 0  # y[0] = 2 * 0 + 1
    assert s["arguments"]["x"]["address"].startswith("0x7f")


def test_dump_buffers_before_and_after(capsys, scenario, tmp_path):
    out = tmp_path / "bufs.npz"
    p = cli(capsys, "execute", str(scenario), "--dump-buffers", str(out), "--set", "kernel.args.a=3.0")
    assert p.returncode == 0, p.stderr
    assert "buffers written to" in p.stdout and "functional execution only" in p.stdout
    with np.load(out) as d:
        assert set(d.files) == {"x", "x.in", "y", "y.in"}
        assert np.array_equal(d["x"], d["x.in"])
        assert np.array_equal(d["y"], (3.0 * d["x.in"].astype(np.float64) + d["y.in"]).astype(np.float32))


def test_simulate_times_what_executed(capsys, scenario, tmp_path):
    out, dump = tmp_path / "run.npz", tmp_path / "bufs.npz"
    p = cli(capsys, "simulate", str(scenario), "--json", "--out", str(out), "--dump-buffers", str(dump))
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    executed = json.loads(cli(capsys, "execute", str(scenario), "--json").stdout)
    assert s["cycles"] > 0 and "timing" not in s and "note" not in s
    assert s["program"]["source"] == "sass" and s["program"]["dynamic_instructions_per_warp"] > 0
    # every executed warp-instruction issued once; what executed stays in the JSON
    assert s["warp_instructions"] == executed["warp_instructions"] == s["program"]["dynamic_instructions_per_warp"] * 32
    for key in ("simt_efficiency", "sectors_per_request", "bank_conflicts", "memory", "buffers", "kernel"):
        assert s[key] == executed[key], key
    # the caches by the executed addresses (issue 29): saxpy's loads read each sector once from device memory,
    # its stores are written into L2 and stay there
    assert s["caches"]["by_address"]
    assert s["dram_bytes"] == s["caches"]["dram__bytes_read.sum"] == 32 * executed["memory"]["global_load"]["sectors"]
    assert s["bottleneck"]["unit"] and s["warp_state_cycles"]["long_scoreboard"] > 0
    with np.load(out) as d:
        assert d["issued"].sum() == s["warp_instructions"] and d["launched"][0] == 32
        assert json.loads(str(d["summary_json"]))["cycles"] == s["cycles"]
    with np.load(dump) as d:
        assert set(d.files) == {"x", "x.in", "y", "y.in"}
    text = cli(capsys, "simulate", str(scenario)).stdout
    assert f"cycles                   {s['cycles']:,} " in text and "SIMT efficiency" in text
    assert "kernel saxpy from saxpy.cu" in text and "sectors" in text


def test_one_line_errors(capsys, scenario, tmp_path):
    def err(*args, contains):
        dump = tmp_path / "never.npz"
        p = cli(capsys, "execute", str(scenario), "--dump-buffers", str(dump), *args)
        assert_one_line_error(p, 2, contains)
        assert not dump.exists()  # nothing written half

    err("--set", "kernel.name=nope", contains="no kernel named 'nope' in saxpy.cu; its kernels: saxpy")
    err("--set", "kernel.args.n=2.5", contains="kernel.args.n: 2.5: the parameter is int, an integer type")
    err("--set", "kernel.args.x=4", contains="kernel.args.x: 4: the parameter is const float* __restrict__ "
                                               "(a buffer")
    err("--set", 'kernel.args.x={ dtype = "i32", count = 3000 }',
        contains="kernel.args.x.dtype: 'i32': the parameter is const float* __restrict__, whose elements are f32")
    err("--set", "kernel.args.z=1", contains="kernel.args.z: saxpy has no parameter 'z'; its parameters: n: int")
    err("--set", "kernel.args.n=4000", contains="invalid global read of 4 bytes at pc 0x")  # x has 3000 elements
    err("--set", "kernel.file=missing.cu", contains="kernel.file")
    err("--set", "launch.registers_per_thread=64", contains="launch.registers_per_thread: read-only with [kernel]")
    err("--set", 'kernel.args.y={ dtype = "f32", count = 3000, init = "gauss" }', contains="kernel.args.y.init")
    err("--set", "kernel.args.x.count=2000000000",
        contains="kernel.args.x.count: 2000000000 is above the maximum of 268435456")


def test_every_catalog_gpu_runs_saxpy_and_v100_is_refused_in_one_line(capsys, scenario):
    """Issue 30, item 4: T4 (sm_75) refused every kernel (a false out-of-bounds at 0x0), B200 and RTX5090
    every kernel (LDCU). V100 is sm_70, which NVRTC 13 does not target: one line, exit 2, nothing run."""
    from explorer.model.catalog import load_catalog

    for name, gpu in load_catalog().items():
        p = cli(capsys, "execute", str(scenario), "--json", "--set", f'gpu="{name}"')
        if gpu.arch.sm_arch == "sm_70":
            assert_one_line_error(p, 2, f"gpu: {name} (sm_70): the executor runs SASS of sm_75 and newer (what "
                                        "NVRTC 13 builds); choose a newer GPU")
            assert_one_line_error(cli(capsys, "simulate", str(scenario), "--set", f'gpu="{name}"'), 2,
                                  "the executor runs SASS of sm_75 and newer")
            continue
        assert p.returncode == 0, (name, p.stderr)
        s = json.loads(p.stdout)
        assert s["arch"] == gpu.arch.sm_arch and s["buffers"]["y"]["changed"] == 2999  # y[0] = 2 * 0 + 1 stays


@pytest.mark.parametrize("args,contains", [
    ("low = 2", "kernel.args.x.low: 2 leaves an empty range with the default high of 1.0 for f32"),
    ("high = -1", "kernel.args.x.high: -1 leaves an empty range with the default low of 0.0 for f32"),
])
def test_a_random_fill_with_one_end_of_an_empty_range(capsys, tmp_path, args, contains):
    """Issue 30, item 6: low = 2 alone met numpy's "high - low < 0" (exit 1)."""
    shutil.copy(KERNELS / "saxpy.cu", tmp_path / "saxpy.cu")
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.replace('init = "arange" }', f'init = "random", {args} }}'))
    assert_one_line_error(cli(capsys, "execute", str(path)), 2, contains)
    for dtype, end in (("i32", "high = -1"), ("u8", "low = 300")):
        bad = f'{{ dtype = "{dtype}", count = 3, init = "random", {end} }}'
        assert_one_line_error(cli(capsys, "execute", str(scenario_file(tmp_path)), "--set", f"kernel.args.x={bad}"),
                              2, "kernel.args.x.")
    ok = cli(capsys, "execute", str(scenario_file(tmp_path)), "--json", "--set",
             'kernel.args.x={ dtype = "f32", count = 3000, init = "random", high = 5 }')
    assert ok.returncode == 0, ok.stderr


def scenario_file(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(SCENARIO)
    return path


def test_missing_argument_names_the_parameter_and_type(capsys, tmp_path):
    shutil.copy(KERNELS / "saxpy.cu", tmp_path / "saxpy.cu")
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.replace("a = 2.0\n", ""))
    assert_one_line_error(cli(capsys, "execute", str(path)), 2,
                          "kernel.args.a: missing: the kernel's parameter 'a' is float (a number)")


@pytest.mark.parametrize("source,contains", [
    ('extern "C" __global__ void saxpy(int n, float a, float* x, float* y) { y[0] = q; }',
     "saxpy.cu: does not compile: "),
    ('extern "C" __global__ void saxpy(int n, float a, float* x, float* y) {\n'
     '  unsigned v;\n  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(v) : "r"(n), "r"(n), "r"(n));\n'
     '  y[threadIdx.x] = v; }',
     "the executor does not support PRMT.F4E (the byte-permute mode F4E) at pc 0x"),
    ('extern "C" __global__ void saxpy(int n, float a, float* x, float* y) {\n'
     '  while (x[0] < 1e30f) y[threadIdx.x] += 1.0f; }',
     "kernel.max_instructions: the kernel executed more than 100,000 warp-instructions"),
])
def test_bad_kernels(capsys, tmp_path, source, contains):
    (tmp_path / "saxpy.cu").write_text(source)
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.replace('name = "saxpy"\n', 'name = "saxpy"\nmax_instructions = 100000\n'))
    p = cli(capsys, "execute", str(path))
    assert_one_line_error(p, 2, contains)
    if "PRMT" in contains:
        assert "s.toml" not in p.stderr and "saxpy.cu line 3" in p.stderr  # the source line (-lineinfo)


def test_dump_path_is_checked_before_running(capsys, scenario, tmp_path):
    assert_one_line_error(cli(capsys, "execute", str(scenario), "--dump-buffers", str(tmp_path / "x.txt")), 2,
                          "--dump-buffers: ")
    assert_one_line_error(cli(capsys, "execute", str(scenario), "--dump-buffers", str(tmp_path / "no" / "x.npz")),
                          2, "does not exist")
    assert_one_line_error(cli(capsys, "simulate", str(scenario), "--out", str(tmp_path / "x.txt")), 2,
                          "--out: ")
    assert_one_line_error(cli(capsys, "simulate", str(scenario), "--dump-buffers", str(tmp_path / "x.txt")), 2,
                          "--dump-buffers: ")
    assert_one_line_error(cli(capsys, "simulate", "example-240x256", "--dump-buffers", str(tmp_path / "x.npz")), 2,
                          "--dump-buffers: only a [kernel] scenario has buffers")
    assert_one_line_error(cli(capsys, "execute", "example-240x256"), 2, "has no [kernel] section")


def test_an_empty_dump_name_and_one_file_for_both_outputs_are_refused(capsys, scenario, tmp_path):
    """Issue 30, item 7: --dump-buffers "" was silently ignored; --out X --dump-buffers X kept one of the two
    while saying both were written."""
    for command in ("execute", "simulate"):
        assert_one_line_error(cli(capsys, command, str(scenario), "--dump-buffers", ""), 2,
                              "--dump-buffers: give a file name")
    out = tmp_path / "both.npz"
    for other in (str(out), str(tmp_path / "." / "both.npz")):
        assert_one_line_error(cli(capsys, "simulate", str(scenario), "--out", str(out), "--dump-buffers", other), 2,
                              "is the --out file too")
    assert not out.exists()


def test_long_quoted_input_is_cut_in_the_error_line(capsys, scenario, tmp_path):
    """Issue 30, item 7: a 5,000-character error line (the compiler's first error quoting a 5,000-character
    identifier; a key of that length). Quoted input and words are cut to ~200 characters, saying how long."""
    from explorer.model.errors import cut_long

    assert cut_long("short 'x'") == "short 'x'"
    long_id = "A" * 5000
    (tmp_path / "long.cu").write_text('extern "C" __global__ void k(int* o) { o[0] = ' + long_id + "; }\n")
    p = cli(capsys, "compile", str(tmp_path / "long.cu"), "--kernel", "k", "--arch", "sm_90")
    assert_one_line_error(p, 2, "(5,002 characters) is undefined")
    assert len(p.stderr) < 400
    p = cli(capsys, "execute", str(scenario), "--set", f"kernel.args.{'x' * 5000}=1")
    assert_one_line_error(p, 2, "(5,012 characters)")
    assert len(p.stderr) < 600


SPIN = 'extern "C" __global__ void saxpy(int n, float a, float* x, float* y) {\n' \
       '  while (x[0] < 1e30f) y[threadIdx.x] += 1.0f; }\n'


def test_an_endless_loop_stops_at_max_instructions_with_progress_on_a_terminal(tmp_path, monkeypatch):
    """Issue 30, item 7: an endless loop was stopped only after 5-9 minutes at the default limit, silently.
    --max-instructions lowers the limit; on a terminal a status line shows the blocks, the instructions, the
    limit and how long it is at the current rate, and is cleared before the one-line error."""
    import io
    import sys

    from explorer.cli import progress as progress_module

    (tmp_path / "saxpy.cu").write_text(SPIN)
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(progress_module, "INTERVAL_S", 0.0)
    monkeypatch.setattr(sys, "stderr", term)
    for command in ("execute", "simulate"):
        assert main([command, str(path), "--max-instructions", "3000000"]) == 2
    text = term.getvalue()
    assert "executing saxpy: 0 of 8 blocks" in text and "of at most 3.0 M (--max-instructions)" in text
    assert "/s: the limit in " in text
    errors = [line for line in text.replace("\r", "\n").replace("\x1b[K", "").splitlines()
              if line.startswith("warp-explorer: error:")]
    assert len(errors) == 2 and all("more than 3,000,000 warp-instructions" in e and "--max-instructions" in e
                                    for e in errors)
    monkeypatch.undo()
    assert main(["execute", str(path), "--max-instructions", "lots"]) == 2  # argparse: an integer


def test_max_instructions_is_for_kernel_scenarios(capsys):
    assert_one_line_error(cli(capsys, "simulate", "example-240x256", "--max-instructions", "1000"), 2,
                          "--max-instructions: only a [kernel] scenario executes instructions")


def test_end_to_end_in_a_subprocess(scenario):
    proc = run_cli("execute", str(scenario), "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["warp_instructions"] > 0
    bad = run_cli("execute", str(scenario), "--set", "kernel.name=nope", timeout=600)
    assert_one_line_error(bad, 2, "its kernels: saxpy")


def test_listing_counts_issues_per_instruction(capsys, scenario):
    s = json.loads(cli(capsys, "execute", str(scenario), "--json", "--listing").stdout)
    rows = s["instructions"]
    assert [r["pc"] for r in rows] == [16 * k for k in range(len(rows))]
    assert sum(r["executions"] for r in rows) == s["warp_instructions"]
    assert sum(r["active_lanes"] for r in rows) == s["thread_instructions"]
    loop = [r for r in rows if r["text"].startswith("FFMA")]
    assert loop and loop[0]["executions"] == 94 and loop[0]["line"] == 6  # saxpy.cu line 6: y[i] = a * x[i] + y[i]
    assert "issued  lanes  instruction" in cli(capsys, "execute", str(scenario), "--listing").stdout


def test_program_and_measure_point_a_kernel_scenario_to_execute(capsys, scenario):
    assert_one_line_error(cli(capsys, "program", str(scenario)), 2, "execute SCENARIO --listing")
    assert_one_line_error(cli(capsys, "measure", str(scenario), "--dry-run"), 2, "kernel: measure runs the "
                                                                                 "scenario's generated kernel")


@pytest.mark.parametrize("name", ["add_one", "add_one(int*, long long, unsigned short)", "_Z7add_onePixt"])
def test_cpp_kernels_by_any_of_their_names(capsys, tmp_path, name):
    shutil.copy(KERNELS / "mixed.cu", tmp_path / "mixed.cu")
    path = tmp_path / "s.toml"
    path.write_text('gpu = "A100"\n[launch]\ngrid = [1, 1, 1]\nblock = [64, 1, 1]\n[kernel]\nfile = "mixed.cu"\n'
                    f'name = "{name}"\n[kernel.args]\nn = 10\nstep = 2\n'
                    'data = { dtype = "i32", count = 64, init = "arange" }\n')
    p = cli(capsys, "execute", str(path), "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["kernel"]["symbol"] == "_Z7add_onePixt" and s["buffers"]["data"]["changed"] == 10
