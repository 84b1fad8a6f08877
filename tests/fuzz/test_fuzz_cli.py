"""Fuzz: every command's flags with random and hostile values (issue 12, the fuzz suite).

Each example runs ``main([...])`` in a fresh empty folder and checks the contract
in :mod:`tests.fuzz.harness`: exit 0 or 2 (3 for ``measure`` without a GPU), one
line on stderr for exit 2, no exception but ours, no file but the named output.
Flags are drawn valid and then up to two of them hostile, so runs get past the
first validator (``--hypothesis-show-statistics`` shows the exit codes reached).
"""

from __future__ import annotations

import json

from hypothesis import example, given
from hypothesis import strategies as st

from explorer.model.catalog import gpu_names
from tests.fuzz.harness import (FAST, MEDIUM, SLOW, assert_no_new_markers, check, marker_files, run_main,
                                 workdir)
from tests.fuzz.strategies import flag_value, gpu_name, mostly, nasty_text, set_flags, with_faults

OUTPUT_NAMES = st.one_of(st.sampled_from(["o.npz", "o.png", "o.toml", "o.gif", "o.cubin", "sub/o.npz", "o", ".",
                                          "", "..", "o.npz/"]), nasty_text(12))


def _out(flags: list[str], flag: str = "--out"):
    return (flags[flags.index(flag) + 1],) if flag in flags else ()


OCCUPANCY = {
    "--gpu": st.sampled_from(gpu_names()),
    "--threads": st.integers(1, 2048).map(str),
    "--regs": st.integers(0, 300).map(str),
    "--smem-static": st.sampled_from(["0", "1024", "49152", "300000"]),
    "--smem-dynamic": st.sampled_from(["0", "4096", "65536", "232448"]),
    "--carveout": st.integers(-1, 100).map(str),
    "--barriers": st.integers(0, 16).map(str),
}


@FAST
@given(flags=with_faults(OCCUPANCY, st.one_of(flag_value(), gpu_name()),
                         optional=("--smem-static", "--smem-dynamic", "--carveout", "--barriers")),
       as_json=st.booleans(), lang=st.sampled_from([[], ["--lang", "ru"], ["--lang", "xx"]]))
def test_occupancy_flags(flags, as_json, lang):
    with workdir():
        outcome = run_main(lang + ["occupancy"] + flags + (["--json"] if as_json else []))
        check(outcome)
        if outcome.code == 0 and as_json:
            result = json.loads(outcome.out)
            assert 0 <= result["occupancy"] <= 1
            assert result["active_warps_per_sm"] <= result["max_warps_per_sm"]


@MEDIUM
@given(scenario=mostly(st.sampled_from(["example-240x256", "tail-effect", "compute-bound-fma", "tensor-gemm"]),
                       st.sampled_from(["nope", "x.toml", "/dev/zero", "", "-", "a\0b", ".", "/"])),
       sets=set_flags(), out=mostly(st.sampled_from([None, "o.npz"]), OUTPUT_NAMES), as_json=st.booleans())
def test_simulate_flags(scenario, sets, out, as_json):
    argv = ["simulate", scenario, *sets] + (["--out", out] if out is not None else [])
    with workdir():
        check(run_main(argv + (["--json"] if as_json else [])), outputs=(out,) if out else ())


GEMM = {
    "--gpu": st.sampled_from(gpu_names()),
    "--m": st.integers(1, 8192).map(str),
    "--n": st.integers(1, 8192).map(str),
    "--k": st.integers(1, 8192).map(str),
    "--dtype": st.sampled_from(["fp32", "tf32", "fp16", "bf16", "fp8"]),
    "--tile": st.sampled_from(["128x128x64", "64x64x32", "128x256x32", "256x128x64", "16x16x16"]),
    "--warps": st.sampled_from(["1", "2", "4", "8", "16"]),
    "--warp-tile": st.sampled_from(["64x64", "32x32", "64x32"]),
    "--stages": st.integers(1, 8).map(str),
    "--scenario-out": OUTPUT_NAMES,
}


@MEDIUM
@given(flags=with_faults(GEMM, st.one_of(flag_value(), nasty_text()),
                         optional=("--tile", "--warps", "--warp-tile", "--stages", "--scenario-out")),
       as_json=st.booleans())
def test_gemm_flags(flags, as_json):
    with workdir():
        check(run_main(["gemm"] + flags + (["--json"] if as_json else [])), outputs=_out(flags, "--scenario-out"))


RENDER = {
    "--size": st.sampled_from(["800x500", "800×500", "801x501"]),
    "--cycle": st.integers(0, 3000).map(str),
    "--sm": st.integers(0, 200).map(str),
    "--theme": st.sampled_from(["light", "dark"]),
    "--out": st.sampled_from(["r.png", "r.png", "r.gif"]),
}
RENDER_HOSTILE = {
    "--size": st.one_of(st.sampled_from(["²x900", "0x0", "99999x1", "800x", "x", "8e2x5e2"]), nasty_text()),
    "--cycle": flag_value(), "--sm": flag_value(), "--theme": nasty_text(), "--out": OUTPUT_NAMES,
}


@SLOW
@given(flags=with_faults(RENDER, RENDER_HOSTILE, optional=("--cycle", "--sm", "--theme")),
       target=st.sampled_from([["example-240x256", "--set", "launch.grid=[8,1,1]"], ["example-240x256"],
                               ["--lesson", "launched-resident-ready"], ["--lesson", "nope"],
                               ["--lesson", "waves-and-tail", "--step", "2"], ["--step", "1"], []]),
       extra=st.one_of(st.just([]), st.tuples(st.sampled_from(["--step", "--fps", "--animate", "--set", "--lang"]),
                                              st.one_of(flag_value(), nasty_text())).map(list)))
def test_render_flags(flags, target, extra):
    if "--animate" in extra and extra[1][:1].isdigit():
        return  # a valid animation is many frames: covered by tests/gui/test_render_slides.py
    with workdir():
        check(run_main(["render", *target, *flags, *extra]), outputs=_out(flags))


SOURCES = st.one_of(
    st.just('extern "C" __global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n'),
    st.just('__global__ void k(int *x) { __shared__ int s[256]; s[threadIdx.x] = 1; x[0] = s[3]; }\n'),
    st.just("#include \"/dev/zero\"\n"), st.just("#error boom\n"), nasty_text(60),
)
COMPILE = {"--kernel": st.just("k"), "--arch": st.sampled_from(["sm_90", "9.0", "sm_80", "sm_75"]),
           "--cubin-out": st.sampled_from(["k.cubin", "out.cubin"])}


@SLOW
@given(flags=with_faults(COMPILE, st.one_of(nasty_text(12), st.sampled_from(["sm_1", "compute_90", "k<float>"])),
                         optional=("--kernel", "--cubin-out")),
       extra=st.one_of(st.just([]), st.tuples(st.sampled_from(["-D", "-I", "--maxrregcount"]),
                                              st.one_of(nasty_text(12), flag_value())).map(list)),
       source=SOURCES, name=st.sampled_from(["k.cu", "k$(touch pwned).cu", "-k.cu", "k\n#error x.cu"]))
def test_compile_flags(flags, extra, source, name):
    with workdir() as folder:
        (folder / name).write_text(source, encoding="utf-8", errors="surrogatepass")
        before = marker_files()
        outcome = run_main(["compile", name, *flags, *extra], cwd=folder)
        check(outcome, allowed_codes=(0, 2, 3), outputs=(name,) + _out(flags, "--cubin-out"))
        assert_no_new_markers(before)


@SLOW
@given(scenario=mostly(st.sampled_from(["example-240x256", "tensor-gemm"]), nasty_text()),
       sets=mostly(st.just([]), set_flags(max_faults=1)), as_json=st.booleans())
def test_program_flags(scenario, sets, as_json):
    """``program`` compiles the scenario's kernel (NVRTC, no GPU) or lists the model's program."""
    with workdir():
        before = marker_files()
        check(run_main(["program", scenario, *sets] + (["--json"] if as_json else [])))
        assert_no_new_markers(before)


MEASURE = {"--repeats": st.integers(1, 1000).map(str), "--nvml-seconds": st.sampled_from(["0", "0.5", "120"]),
           "--timeout": st.sampled_from(["1", "180", "86400"])}


@MEDIUM
@given(flags=with_faults(MEASURE, flag_value(), optional=tuple(MEASURE)),
       scenario=mostly(st.sampled_from(["example-240x256", "tensor-gemm"]), nasty_text()),
       sets=mostly(st.just([]), set_flags(max_faults=1)), dry_run=mostly(st.just(True), st.just(False), one_in=3),
       name=st.sampled_from(["", "demo$(touch pwned)", "../../evil", "x\n#error boom", "a" * 200, "k\\\"; system(0)"]))
def test_measure_flags(flags, scenario, sets, dry_run, name):
    """No GPU here: a run exits 3; --dry-run compiles; a hostile scenario name writes nothing beside us."""
    argv = ["measure", scenario, *flags, *sets] + (["--dry-run"] if dry_run else [])
    if name:
        argv += ["--set", f"name={json.dumps(name)}"]
    with workdir():
        before = marker_files()
        check(run_main(argv), allowed_codes=(0, 2, 3))
        assert_no_new_markers(before)  # nothing landed outside the tool's own folder, no command ran


@FAST
@given(argv=st.lists(st.one_of(st.sampled_from(["gpus", "occupancy", "gemm", "--json", "--batch", "--out", "--set",
                                                "--help", "--version", "--lang", "-"]),
                               nasty_text(10)), min_size=1, max_size=4))
@example(argv=["gpus", "\n"])  # argparse quoted the newline as is: two lines
def test_any_argument_list(argv):
    """Random words: usage errors are one line and exit 2, never a traceback."""
    long_running = {"render", "simulate", "measure", "bench", "compile", "program"}
    if long_running & set(argv) or not any(a and not a.startswith("-") for a in argv):
        return  # their flags are fuzzed above; no command at all opens the window
    with workdir():
        check(run_main(argv), outputs=tuple(a for a in argv if not a.startswith("-")))
