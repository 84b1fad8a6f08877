"""The microbenchmarks (issue 28), everywhere but on a GPU: the CUDA code compiles for sm_90 with NVRTC and nvcc,
each measured load is the instruction its figure claims (SASS), the pointer chain is one cycle through every line
(the chain and chase kernels executed on the CPU by the project's SASS executor), the launch table matches the
kernels' signatures, and the whole run (child process, parsing, fragment, files, budget, a stop) works against the
fake driver, whose answers are chosen so every figure can be computed by hand (tests/gpu/fake_libcuda.c)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.gpu import microbench as MB
from explorer.model import measured as M
from explorer.paths import resource
from tests.gpu.support import (REPO, assert_one_line_error, build_fake_driver, compiler_problem, needs_compiler,
                               pids_alive, run_cli, sass, sass_available)

SOURCE = resource(*MB.CUDA_SOURCE)
FAKE_NVML = REPO / "tests" / "gpu" / "fake_nvml"


def _backends() -> list[str]:
    from explorer.toolchain.compiler import nvrtc_version
    from explorer.toolchain.tools import find_tool

    found = []
    try:
        nvrtc_version()
        found.append("nvrtc")
    except Exception:  # noqa: BLE001
        pass
    if find_tool("nvcc"):
        found.append("nvcc")
    return found


@pytest.fixture(scope="module")
def cubins(tmp_path_factory):
    """The microbenchmarks compiled for sm_90 by every compiler here: {backend: (cubin path, CompileResult)}."""
    from explorer.toolchain.compiler import compile_source

    if compiler_problem():
        pytest.skip(compiler_problem())
    folder = tmp_path_factory.mktemp("mb")
    out = {}
    saved = os.environ.get("WARP_EXPLORER_COMPILER")
    try:
        for backend in _backends():
            os.environ["WARP_EXPLORER_COMPILER"] = backend
            r = compile_source(SOURCE.read_text(), "mb_empty", "sm_90", filename="microbench.cu")
            path = folder / f"{backend}.cubin"
            path.write_bytes(r.cubin)
            out[backend] = (path, r)
    finally:
        if saved is None:
            os.environ.pop("WARP_EXPLORER_COMPILER", None)
        else:
            os.environ["WARP_EXPLORER_COMPILER"] = saved
    return out


# -- the CUDA code ----------------------------------------------------------------------------------
C_TYPES = {"u64": "u64", "u32": "u32", "float": "f32", "unsigned long long": "u64", "unsigned int": "u32"}


def signatures(text: str) -> dict[str, tuple[str, ...]]:
    """``extern "C" __global__ void NAME(PARAMS)`` -> the parameter kinds (pointers are ``ptr``)."""
    out = {}
    for name, params in re.findall(r'extern "C" __global__ void (\w+)\(([^)]*)\)', text):
        kinds = []
        for p in filter(None, (x.strip() for x in params.split(","))):
            decl = re.sub(r"\b(const|__restrict__)\b", "", p).strip()
            if "*" in decl:
                kinds.append("ptr")
            else:
                kinds.append(C_TYPES[" ".join(decl.split()[:-1])])
        out[name] = tuple(kinds)
    return out


def test_the_launch_table_matches_every_kernel_signature():
    assert signatures(SOURCE.read_text()) == MB.KERNELS


@needs_compiler
def test_every_kernel_compiles_for_sm_90_with_every_compiler(cubins):
    from explorer.toolchain.cubin import Cubin

    assert cubins, "no compiler"
    for backend, (path, result) in cubins.items():
        parsed = Cubin(path.read_bytes())
        assert set(parsed.kernels()) == set(MB.KERNELS), backend
        for name in MB.KERNELS:
            assert parsed.resources(name).registers <= 64, (backend, name)
        spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", result.log)
        assert len(spills) == len(MB.KERNELS) and set(spills) == {("0", "0")}, (backend, spills)  # ptxas -v, each
        assert parsed.resources("mb_chase_shared").static_shared_bytes == 4096
        assert parsed.resources("mb_loaded").static_shared_bytes == 0  # the pad is dynamic, sized per point


def _ops(path, fn: str) -> list[tuple[int, str]]:
    out = []
    for line in sass(path, fn):
        address, text = line.split(" ", 1)
        out.append((int(address, 16), text))
    return out


def _op(text: str) -> str:
    parts = text.split()
    return parts[1] if parts[0].startswith("@") else parts[0]


def _loops(ops) -> list[tuple[int, int]]:
    """(start, end) of every backward branch's loop."""
    out = []
    for address, text in ops:
        target = re.search(r"0x([0-9a-f]+)", text)
        if _op(text) == "BRA" and target and int(target.group(1), 16) <= address:
            out.append((int(target.group(1), 16), address))
    return out


def _loop_body(ops, opcode_prefix: str) -> list[str]:
    """The instructions of the innermost loop (one holding no other loop) with the most ``opcode_prefix`` ops."""
    loops = _loops(ops)
    best: list[str] = []
    for start, end in loops:
        if any(start <= s and e < end for s, e in loops if (s, e) != (start, end)):
            continue  # an outer loop
        body = [t for a, t in ops if start <= a <= end]
        if sum(_op(t).startswith(opcode_prefix) for t in body) > sum(_op(t).startswith(opcode_prefix) for t in best):
            best = body
    return best


@needs_compiler
@pytest.mark.skipif(not sass_available(), reason="needs cuobjdump and nvdisasm")
def test_each_measured_load_is_the_instruction_its_figure_names(cubins):
    for backend, (path, _) in cubins.items():
        # chases: 16 dependent 64-bit loads per trip, each from the address the one before loaded
        for fn, suffix in (("mb_chase", ""), ("mb_chase_cg", ".STRONG.GPU")):
            body = [t for t in _loop_body(_ops(path, fn), "LDG") if _op(t).startswith("LDG")]
            assert len(body) == 16 and all(_op(t) == "LDG.E.64" + suffix for t in body), (backend, fn, body)
            regs = [re.match(r"\S+ (R\d+), desc\[\w+\]\[(R\d+)\.64\]", t).groups() for t in body]
            assert all(regs[i][1] == regs[i - 1][0] for i in range(1, 16)), (backend, fn, regs)  # dependent
        body = [t for t in _loop_body(_ops(path, "mb_chase_shared"), "LDS") if _op(t).startswith("LDS")]
        assert len(body) == 16, (backend, body)
        # loaded latency: one 128-bit load per warp-lane (512 B per warp), through L1 or not
        for fn, suffix in (("mb_loaded", ""), ("mb_loaded_cg", ".STRONG.GPU")):
            loads = [t for t in _loop_body(_ops(path, fn), "LDG") if _op(t).startswith("LDG")]
            assert [_op(t) for t in loads] == ["LDG.E.128" + suffix], (backend, fn, loads)
        # bandwidth: four 128-bit loads in flight per thread per trip
        for fn, op in (("mb_read", "LDG.E.128.CONSTANT"), ("mb_copy", "LDG.E.128.CONSTANT"),
                       ("mb_read_l2", "LDG.E.128.STRONG.GPU")):
            loads = [_op(t) for t in _loop_body(_ops(path, fn), "LDG") if _op(t).startswith("LDG")]
            assert loads == [op] * 4, (backend, fn, loads)
        assert sum(_op(t) == "FFMA" for t in _loop_body(_ops(path, "mb_ffma_dep"), "FFMA")) == 64
        assert sum(_op(t) == "FFMA" for t in _loop_body(_ops(path, "mb_ffma_rate"), "FFMA")) == 128
        spin = _loop_body(_ops(path, "mb_spin"), "CS2R")
        assert any("SR_GLOBALTIMER" in t for t in spin), spin  # spins on the GPU's nanosecond timer


# -- the chain and the chase, executed on the CPU -----------------------------------------------------
def py_mix(x: int, bits: int, seed: int) -> int:
    """mb_mix, written again from its description (an independent reference)."""
    mask = (1 << bits) - 1
    shift = (bits + 1) >> 1
    x = (x ^ seed) & mask
    for _ in range(3):
        x = (x * 0x9E3779B97F4A7C15) & mask
        x ^= x >> shift
    return x & mask


def _execute(tmp_path, kernel: str, grid: int, block: int, args: dict, preset: dict | None = None):
    """Run one microbenchmark kernel through the SASS executor; ``preset`` gives buffers' contents before it."""
    from explorer.model.presets import load_scenario_arg
    from explorer.sass.execute import session
    from explorer.sass.execute.run import run_kernel

    (tmp_path / "microbench.cu").write_text(SOURCE.read_text())
    lines = ['gpu = "H100"', "seed = 1", "[launch]", f"grid = [{grid}, 1, 1]", f"block = [{block}, 1, 1]", "[kernel]",
             'file = "microbench.cu"', f'name = "{kernel}"', "[kernel.args]"]
    lines += [f"{k} = {v}" for k, v in args.items()]
    path = tmp_path / f"{kernel}.toml"
    path.write_text("\n".join(lines) + "\n")
    original = session.initial_chunks

    def initial(buf, seed, index, chunk=None):
        if preset and buf.name in preset:
            yield preset[buf.name].copy()
            return
        yield from (original(buf, seed, index) if chunk is None else original(buf, seed, index, chunk))

    session.initial_chunks = initial  # the executor's own way in for a buffer's contents before the kernel
    try:
        run = run_kernel(load_scenario_arg(str(path)))
    finally:
        session.initial_chunks = original
    return run.result


@needs_compiler
@pytest.mark.parametrize("bits, grid, block", [(6, 2, 32), (10, 2, 64)])  # (10: a grid-stride loop, 8 lines a thread)
def test_the_chain_is_one_cycle_through_every_line(tmp_path, bits, grid, block):
    lines, stride = 1 << bits, MB.LINE // 8
    r = _execute(tmp_path, "mb_chain", grid, block,
                 {"base": f'{{ dtype = "u64", count = {lines * stride}, init = "zeros" }}', "bits": bits,
                  "stride_words": stride, "seed": MB.SEED})
    base = r.bound.buffers[0].address
    words = r.outputs["base"].reshape(lines, stride)
    assert (words[:, 1:] == 0).all()  # one word per 128 B line
    nxt = (words[:, 0].astype(np.int64) - base) // MB.LINE
    assert ((words[:, 0].astype(np.int64) - base) % MB.LINE == 0).all() and ((0 <= nxt) & (nxt < lines)).all()
    seen, line = [], 0
    for _ in range(lines):
        seen.append(line)
        line = int(nxt[line])
    assert line == 0 and sorted(seen) == list(range(lines))  # one cycle, every line once
    for k in range(lines):  # in the order mb_mix gives
        assert nxt[py_mix(k, bits, MB.SEED)] == py_mix((k + 1) % lines, bits, MB.SEED)


@needs_compiler
def test_the_chase_follows_the_chain_from_its_first_line(tmp_path):
    bits, stride = 6, MB.LINE // 8
    lines = 1 << bits
    base_arg = f'{{ dtype = "u64", count = {lines * stride}, init = "zeros" }}'
    chain = _execute(tmp_path, "mb_chain", 2, 32, {"base": base_arg, "bits": bits, "stride_words": stride,
                                                  "seed": MB.SEED})
    words = chain.outputs["base"]
    base = chain.bound.buffers[0].address
    r = _execute(tmp_path, "mb_chase", 1, 1, {"base": base_arg, "bits": bits, "stride_words": stride, "seed": MB.SEED,
                                               "first": 5, "warm": 3, "steps": 20,
                                               "out": '{ dtype = "u64", count = 8, init = "zeros" }'},
                 preset={"base": words})
    assert r.bound.buffers[0].address == base  # the same layout: the chain's absolute addresses hold
    out = r.outputs["out"]
    assert out[1] == 32  # 20 steps, in trips of 16
    line = py_mix(5, bits, MB.SEED)
    for _ in range(3 + 32):
        line = (int(words[line * stride]) - base) // MB.LINE
    assert out[2] == base + line * MB.LINE


# -- pure helpers --------------------------------------------------------------------------------------
def test_memory_plan_fits_the_gpu():
    h200 = MB.plan_sizes(140 << 30, 62_914_560, 2 * 62_914_560)
    assert h200["bw_bytes"] == 2 << 30 and h200["dram_sets"] == MB.DRAM_SETS
    assert set(h200["l2_sets"]) == set(MB.L2_SETS) and set(h200["l2_bw_sets"]) == set(MB.L2_BW_SETS)  # 32 MiB fits 60
    assert h200["device_bytes"] == (4 << 30) + 2 * 62_914_560
    h100 = MB.plan_sizes(79 << 30, 52_428_800, 2 * 52_428_800)
    assert "l2_hit_32mib" not in h100["l2_sets"] and h100["loaded_l2"] == 16 << 20
    small = MB.plan_sizes(3 << 30, 4 << 20, 8 << 20)  # a T4-like 4 MiB L2 with 3 GiB free
    assert small["bw_bytes"] == 1 << 30 and small["dram_sets"] == MB.DRAM_SETS
    assert small["device_bytes"] <= 0.9 * (3 << 30)
    assert small["l2_sets"] == {"l2_hit_1mib": 1 << 20} and small["loaded_l2"] == 2 << 20
    with pytest.raises(ValueError, match="at least 1 GiB"):
        MB.plan_sizes(700 << 20, 50 << 20, 100 << 20)


@pytest.mark.parametrize("gpu, blocks", [("H100", 1), ("H100", 2), ("A100", 1), ("A100", 2), ("RTX4090", 1)])
def test_the_shared_memory_pad_makes_exactly_that_many_blocks_fit(gpu, blocks):
    """Checked with the project's occupancy rules (cuda_occupancy.h's), which the driver's answer matched on the H200."""
    from explorer.model.catalog import get_gpu
    from explorer.occupancy import theoretical_occupancy

    spec = get_gpu(gpu)
    a = spec.arch
    pad = MB.shared_pad(a.shared_per_sm, a.shared_reserved_per_block, a.shared_per_block_optin, blocks)
    assert pad is not None and pad % a.shared_alloc_unit == 0
    threads = 32 * min(32, a.max_warps_per_sm // blocks)
    occ = theoretical_occupancy(spec, threads, 32, 0, pad, -1, 0)
    assert occ.active_blocks_per_sm == blocks, (gpu, blocks, pad, occ)


def _results(**groups) -> dict:
    return {"date": "2027-01-15", "device": {"name": "NVIDIA H200", "multiprocessor_count": 132,
                                             "l2_cache_size": 62914560}, "driver": "590.1", "cuda": "13.1",
            "compiler": "NVRTC 13.1", "clock_mhz": [["start", 1975.0], ["after latency", 1985.0]], "groups": groups,
            "skipped": {"nvml": "not run: 3 s of the 10 s budget were left, it needs ~9 s"}, "errors": {},
            "warnings": []}


def _point(w: int, seen: int) -> dict:
    kind = {"cycles": {"median": 700.0}, "gbs": {"median": 100.0}, "array_bytes": 2 << 30,
            "warps_per_sm_seen": [seen, seen]}
    return {"warps_per_sm": w, "dram": kind, "l2": {**kind, "array_bytes": 16 << 20},
            "l2_bypass_l1": {**kind, "array_bytes": 16 << 20}}


def test_a_figure_whose_own_check_failed_is_left_out():
    spin = {"host_kept_ahead": False, "all_recorded": True, "median": 6.7, "kernels": 500, "grid": 132, "block": 128,
            "spin_ns": 5000, "gate_ns": 2e7}
    doc = MB.fragment_from_results(_results(
        loaded={"points": [_point(1, 1), _point(2, 3), _point(4, 4)]},
        launch={"back_to_back_5us_kernel": spin, "launch_gap": {"median": 1.7, "kernel_span_us": 5.0},
                "graph_node": {"median": 0.7, "nodes": 1000},
                "empty_kernel_queued": {"median": 1.1, "kernels": 500, "host_kept_ahead": False}}), "H200")
    facts = M.parse_fragment(doc)  # what is written always passes the schema
    assert facts.value("loaded_latency", "warps_per_sm") == (1, 4)  # W = 2 ran as 3 warps on some SM: dropped
    assert facts.sections["launch_us"].keys() == {"graph_node"}  # the host fell behind the queue: no gap figure
    assert facts.run["clock_mhz"] == 1980.0 and facts.run["clock_mhz_min"] == 1975.0
    assert any("nvml: not run" in n for n in facts.run["notes"]) and "nvml_utilization_pct" not in facts.sections
    assert facts.value("device", "l2_bytes") == 62914560
    assert facts.figure("device", "l2_bytes").source == "driver, H200, 2027-01-15, cuDeviceGetAttribute(L2_CACHE_SIZE)"


# -- against the fake driver ------------------------------------------------------------------------------
pytestmark_fake = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    return {**build_fake_driver(tmp_path_factory.mktemp("fakecuda")),
            "PYTHONPATH": os.pathsep.join([str(FAKE_NVML), str(REPO)])}


def _fake_figures_for(w: int) -> dict:
    """The fake driver's loaded-latency answers at W warps per SM (tests/gpu/fake_libcuda.c)."""
    return {"dram_cycles": 700 + 10 * w, "dram_gbs": 50 * w, "l2_cycles": 330 + w, "l2_gbs": 200 * w,
            "l2_bypass_l1_cycles": 300 + w, "l2_bypass_l1_gbs": 250 * w}


@pytestmark_fake
def test_a_run_on_the_fake_driver_measures_every_figure(fake_driver, tmp_path):
    out = tmp_path / "out"
    proc = run_cli("microbench", "--out", str(out), "--json", env=fake_driver, timeout=300)
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)
    assert s["gpu"] == "H200" and s["errors"] == {} and s["skipped"] == {} and not s["stopped"]
    assert s["fragment"] == str(out / "H200.toml") and s["raw"] == str(out / "microbench.json")
    facts = M.read_fragment(out / "H200.toml")
    assert facts.run["driver"] == "580.0-fake" and facts.run["cuda"] == "13.0" and facts.run["clock_mhz"] == 1980.0
    lat = {k: facts.value("latency_cycles", k) for k in M.SECTIONS["latency_cycles"]}
    # 100 + log2(lines) cycles per load (300 + with .cg), shared 29, FFMA 4: the chases ran on the planned sets
    assert lat == {"l1_hit": 106.0, "shared": 29.0, "l2_hit_bypass_l1": 313.0, "l2_hit_1mib": 113.0,
                   "l2_hit_8mib": 116.0, "l2_hit_32mib": 382.0,  # the fake's L2 is 50 MiB: 32 MiB not measured,
                   "dram_256mib": 121.0, "dram_2gib": 124.0, "ffma_dependent": 4.0}  # ... the shipped 382 kept
    assert facts.figure("latency_cycles", "l2_hit_32mib").source.startswith("measured, H200, 2026-12-04")
    assert facts.figure("latency_cycles", "l1_hit").source.endswith("(explorer.gpu.microbench)")
    curve = facts.sections["loaded_latency"]
    assert curve["warps_per_sm"].value == MB.LOADED_WARPS
    for key in ("dram_cycles", "dram_gbs", "l2_cycles", "l2_gbs", "l2_bypass_l1_cycles", "l2_bypass_l1_gbs"):
        assert curve[key].value == pytest.approx([_fake_figures_for(w)[key] for w in MB.LOADED_WARPS], rel=1e-3), key
    bw = facts.sections["bandwidth_gbs"]
    assert [bw[k].value for k in ("dram_read", "dram_write", "dram_copy")] == pytest.approx([4000] * 3, rel=1e-3)
    assert [bw[k].value for k in ("l2_read_4mib", "l2_read_16mib")] == pytest.approx([8000] * 2, rel=1e-3)
    assert "l2_read_32mib" not in s["measured"]["bandwidth_gbs"] and "l2_hit_32mib" not in s["measured"]["latency_cycles"]
    assert facts.value("compute", "ffma_tflops") == pytest.approx(60, rel=1e-3)
    assert facts.value("compute", "ffma_per_clk_per_sm") == pytest.approx(60e12 / 2 / 132 / 1980e6, rel=1e-3)
    launch = {k: v.value for k, v in facts.sections["launch_us"].items()}
    assert launch["launch_gap"] == pytest.approx(1.7, abs=0.002) and launch["graph_node"] == pytest.approx(6.0)
    assert launch["back_to_back_5us_kernel"] == pytest.approx(6.7, abs=0.002)
    assert launch["launch_call_python"] > 0 and launch["launch_sync_python"] > 0
    assert launch["launch_call_cpp"] == 3.23  # MICROBENCH.md's C++ figure, not measured from Python: kept
    assert {k: v.value for k, v in facts.sections["nvml_utilization_pct"].items()} == {
        "idle": 37.0, "one_warp": 37.0, "duty_20pct": 37.0}
    raw = json.loads((out / "microbench.json").read_text())
    assert raw["format"] == 1 and raw["gpu"] == "H200" and set(raw["groups"]) == set(MB.GROUPS)
    assert raw["groups"]["loaded"]["points"][-1]["dynamic_shared_bytes"] > 0
    assert raw["groups"]["loaded"]["points"][-1]["driver_blocks_per_sm"] == 2  # 48 warps: 2 blocks of 24
    assert not list(out.glob(".*.tmp"))  # every write atomic, no leftovers


@pytestmark_fake
def test_only_and_no_merge(fake_driver, tmp_path):
    proc = run_cli("microbench", "--out", str(tmp_path), "--only", "ffma,latency", "--no-merge", env=fake_driver,
                   timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "latency_cycles.l1_hit" in proc.stdout and "fragment" in proc.stdout
    facts = M.read_fragment(tmp_path / "H200.toml")
    assert set(facts.sections) == {"device", "latency_cycles", "compute"}
    assert "launch_call_cpp" not in str(facts.to_json())


@pytestmark_fake
def test_the_budget_skips_the_groups_that_do_not_fit(fake_driver, tmp_path):
    """The worker's own budget: a group whose estimate is above what is left is skipped, the rest run."""
    script = f"""
import json, sys
from explorer.gpu import microbench as MB
from explorer.toolchain.compiler import compile_source
from explorer.paths import resource
MB.GROUP_SECONDS.update(latency=1, loaded=1000, bandwidth=1, ffma=1000, launch=1, nvml=1000)
r = compile_source(resource(*MB.CUDA_SOURCE).read_text(), "mb_empty", "sm_90")
open({str(tmp_path / "mb.cubin")!r}, "wb").write(r.cubin)
res = MB.run({{"cubin_path": {str(tmp_path / "mb.cubin")!r}, "budget_s": 60, "groups": list(MB.GROUPS),
              "arch": "sm_90"}}, __import__("pathlib").Path({str(tmp_path / "partial.json")!r}))
print(json.dumps({{"ran": sorted(res["groups"]), "skipped": res["skipped"]}}))
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ,
                          **fake_driver}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["ran"] == ["bandwidth", "latency", "launch"]
    assert set(out["skipped"]) == {"loaded", "ffma", "nvml"}
    assert "it needs ~1000 s" in out["skipped"]["loaded"]
    assert json.loads((tmp_path / "partial.json").read_text())["groups"].keys() == {"latency", "bandwidth", "launch"}


@pytestmark_fake
def test_a_run_stopped_by_its_time_limit_keeps_what_it_measured(fake_driver, tmp_path):
    """The child hangs in the loaded-latency group; the parent stops it at the budget and writes the latencies."""
    pidfile = tmp_path / "pids"
    script = f"""
import json
from pathlib import Path
from explorer.gpu import microbench as MB
run = MB.run_microbenchmarks(MB.MicrobenchOptions(budget_s=60, timeout_s=8))
raw, toml, doc = MB.write_outputs(run, Path({str(tmp_path / "out")!r}), merge=False)
print(json.dumps({{"stopped": run.stopped, "groups": sorted(run.results["groups"])}}))
"""
    env = {**os.environ, **fake_driver, "FAKE_CUDA_HANG_KERNEL": "mb_loaded", "FAKE_CUDA_PIDFILE": str(pidfile)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.splitlines()[-1])
    assert "did not finish within 8 s" in out["stopped"] and out["groups"] == ["latency"]
    facts = M.read_fragment(tmp_path / "out" / "H200.toml")
    assert facts.value("latency_cycles", "l1_hit") == 106.0 and "loaded_latency" not in facts.sections
    assert any("stopped before the end" in n for n in facts.run["notes"])
    assert pids_alive(pidfile) == []  # the hung child went with its group


@pytestmark_fake
def test_a_group_that_fails_is_reported_and_the_others_still_run(fake_driver, tmp_path):
    proc = run_cli("microbench", "--out", str(tmp_path), "--only", "latency,bandwidth,ffma", "--no-merge", "--json",
                   env={**fake_driver, "FAKE_CUDA_REFUSE_KERNEL": "mb_read"}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)
    assert set(s["errors"]) == {"bandwidth"} and "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE" in s["errors"][
        "bandwidth"]
    facts = M.read_fragment(tmp_path / "H200.toml")
    assert set(facts.sections) == {"device", "latency_cycles", "compute"}  # after the failure, FFMA still ran
    assert any(n.startswith("bandwidth failed: cuLaunchKernel failed") for n in facts.run["notes"])


@pytestmark_fake
def test_a_fault_is_one_line(fake_driver):
    proc = run_cli("microbench", "--out", "/nonexistent-never-written", env={**fake_driver, "FAKE_CUDA_FAULT": "1"},
                   timeout=300)
    line = [x for x in proc.stderr.splitlines() if not x.startswith("microbench: ")]
    assert proc.returncode == 1 and len(line) == 1 and "CUDA_ERROR_ILLEGAL_ADDRESS" in line[0], proc.stderr
    assert "Traceback" not in proc.stderr and not Path("/nonexistent-never-written").exists()


def test_no_gpu_is_exit_3_in_one_line(tmp_path):
    proc = run_cli("microbench", "--out", str(tmp_path), env={"WARP_EXPLORER_NO_GPU": "1"})
    assert_one_line_error(proc, 3, "no GPU")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [(["--budget", "5"], "--budget: 5 is outside 10..600"),
                                         (["--only", "latency,l3"], "--only: l3 is not a group"),
                                         (["--ordinal", "x"], "--ordinal")])
def test_bad_flags_are_one_line(args, words):
    assert_one_line_error(run_cli("microbench", *args), 2, words)
