"""`simulate` and `bench` against the CLI contract."""

import json

import numpy as np
import pytest

from explorer.model.presets import load_preset, preset_names
from tests.helpers import assert_one_line_error, run_cli

CONTRACT_KEYS = {
    "gpu", "total_blocks", "launched_warps", "cycles", "theoretical_occupancy", "achieved_occupancy", "waves",
    "issue_slot_utilization", "kernel_active_fraction", "sm_active_fraction", "avg_eligible_per_scheduler", "ipc",
    "warp_state_cycles", "limiters", "warp_instructions", "sim_seconds", "program",
}


def test_simulate_json_contract(tmp_path):
    out = tmp_path / "run.npz"
    proc = run_cli("simulate", "example-240x256", "--json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)
    assert CONTRACT_KEYS <= set(s)
    assert s["gpu"] == "H100" and s["total_blocks"] == 240 and s["launched_warps"] == 1920
    assert s["theoretical_occupancy"] == 1.0 and set(s["limiters"]) == {"warps", "registers"}
    assert 0 < s["sim_seconds"] < 5
    data = np.load(out)
    for key in ("launched", "resident", "eligible", "issued"):
        assert data[key].shape == (s["cycles"],)
    assert data["launched"][0] == 1920
    assert int(data["issued"].sum()) == s["warp_instructions"]
    assert json.loads(str(data["summary_json"]))["cycles"] == s["cycles"]
    # issue 15: throughput units, the bottleneck, loaded latencies; per-window unit busy in --out
    units = ("issue", "fp32", "int", "sfu", "tensor", "lsu", "l1", "shared", "l2", "dram")
    assert set(s["throughput"]) == set(units)
    for t in s["throughput"].values():
        assert {"pct_of_peak", "achieved", "peak", "units"} <= set(t) and 0 <= t["pct_of_peak"] <= 100
        assert t["achieved"] == pytest.approx(t["pct_of_peak"] / 100 * t["peak"])
    b = s["bottleneck"]
    assert set(b) == {"unit", "pct_of_peak", "reason", "why"} and b["unit"] in units + ("latency",) and b["why"]
    # the record the sentence is written from: the example waits on HBM (hand-read from its 1,920 warps)
    assert b["reason"]["code"] == "wait_level" and b["reason"]["top"] == "dram"
    assert b["reason"]["figures"]["warps"] == 1920 and b["reason"]["figures"]["level"] == "hbm"
    assert f"~{b['reason']['figures']['cycles']:,.0f} cycles for HBM" in b["why"]
    assert set(s["latency_cycles"]) == {"l1", "l2", "dram"} and s["latency_cycles"]["dram"] > 0
    assert s["latency_cycles"]["l1"] is None  # the example never hits L1
    assert data["unit_busy"].dtype == np.float32 and data["unit_busy"].shape[1] == len(units)
    assert tuple(str(u) for u in data["unit_names"]) == units
    windows = data["unit_busy"].shape[0]
    assert windows == -(-s["cycles"] // int(data["window_cycles"]))
    assert int(data["series_stride"]) == 1 and int(data["trace_cycles"]) == s["cycles"]


def test_simulate_set_overrides_and_scenario_file(tmp_path):
    proc = run_cli("simulate", "example-240x256", "--set", "launch.grid=[480,1,1]", "--set", "scheduler.policy=lrr",
                   "--set", "seed=5", "--json")
    s = json.loads(proc.stdout)
    assert s["total_blocks"] == 480 and s["scheduler_policy"] == "lrr" and s["seed"] == 5
    scenario = tmp_path / "mine.toml"
    scenario.write_text('gpu = "A100"\n[launch]\ngrid = [108, 1, 1]\nblock = [128, 1, 1]\n'
                        '[workload]\npreset = "compute"\nloop = 2\n')
    s = json.loads(run_cli("simulate", str(scenario), "--json").stdout)
    assert s["gpu"] == "A100" and s["total_blocks"] == 108


def test_simulate_text_output():
    proc = run_cli("simulate", "example-240x256")
    assert proc.returncode == 0
    assert "launched warps           1,920" in proc.stdout
    assert "issue slots used" in proc.stdout and "'GPU utilization' (NVML)" in proc.stdout
    assert "  bottleneck               latency: no unit above" in proc.stdout
    assert "  % of peak                issue " in proc.stdout


def test_simulate_text_output_names_a_unit_bottleneck():
    proc = run_cli("simulate", "memory-bound-stream")
    assert "  bottleneck               dram: DRAM at" in proc.stdout


@pytest.mark.parametrize(
    "args,contains",
    [
        (["--set", "launch.block=[32,32,2]"], "limiter: warps"),
        (["--set", "launch.registers_per_thread=300"],  # named once (the SASS path used to say "launch: launch....")
         "error: launch.registers_per_thread: 300 is above the limit of 256 (limiter: registers)"),
        (["--set", "launch.registers_per_thread=300", "--set", "program=model"],
         "error: launch.registers_per_thread: 300 is above the limit of 256 (limiter: registers)"),
        (["--set", "launch.dynamic_shared_bytes=300000"], "limiter: shared_memory"),
        (["--set", "launch.grid=[0,1,1]"], "launch.grid.x: 0 is below the minimum of 1"),
        (["--set", "scheduler.policy=random"], "scheduler.policy"),
        (["--set", "nonsense"], "not key=value"),
        (["--set", "launch.grid=[1,"], "launch.grid"),
        (["--out", "/tmp/x.txt"], "must end in .npz"),
        (["--out", "/nonexistent-dir/x.npz"], "--out"),
    ],
)
def test_simulate_bad_input(args, contains):
    assert_one_line_error(run_cli("simulate", "example-240x256", *args), 2, contains)


def test_simulate_bad_scenario_files(tmp_path):
    assert_one_line_error(run_cli("simulate", "no-such-preset"), 2, "unknown preset")
    bad = tmp_path / "bad.toml"
    bad.write_text("[launch\n")
    assert_one_line_error(run_cli("simulate", str(bad)), 2, "invalid TOML")
    bad.write_text('[workload]\nbody = [{ op = "ffma", count = 0 }]\n')
    assert_one_line_error(run_cli("simulate", str(bad)), 2, "workload.body[0].count: 0 is below the minimum of 1")


def test_bench_quick_json():
    proc = run_cli("bench", "--quick", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["machine"]["cores"] >= 1
    cases = report["cases"]
    extracted = report["program_extraction"]
    sass = [c for c in cases if c["program"] == "sass"]
    executed = [c for c in cases if c["program"] == "executed"]  # your own kernel, where NVRTC and nvdisasm are
    assert len(cases) - len(sass) - len(executed) == 4 and len(sass) in (0, 3)
    assert len(extracted) == 1 and (("error" in extracted[0]) == (not sass))
    assert len(executed) == (not report["notes"])
    for case in cases:
        assert case["warp_instructions_per_second"] > 0 and case["result_bytes_per_warp_slot_cycle"] <= 1.1
        assert case["warp_instructions"] % case["dynamic_instructions_per_warp"] == 0
    for case in executed:
        assert case["warp_instructions"] == 786_432 and case["sim_seconds"] >= case["execution_seconds"]


# -- the program that ran (issue 16 item 2) ----------------------------------------------------
def _json(*args):
    proc = run_cli("simulate", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr


@pytest.mark.parametrize("preset", preset_names())
def test_simulate_json_reports_the_program_and_counts_its_instructions(preset):
    from explorer.sass.kernel_program import program_for

    s, err = _json(preset)
    prog = s["program"]
    assert set(prog) == {"source", "arch", "dynamic_instructions_per_warp"}
    expected, notice = program_for(load_preset(preset), fallback_on_missing_toolchain=True)
    assert prog["source"] == expected.source and prog["arch"] == expected.arch
    assert prog["dynamic_instructions_per_warp"] == expected.dynamic_instructions_per_warp
    assert s["warp_instructions"] == s["launched_warps"] * prog["dynamic_instructions_per_warp"]
    assert ("note:" in err) == (notice is not None)


def test_simulate_model_program_on_request_and_as_the_fallback():
    s, err = _json("example-240x256", "--set", "program=model")
    assert s["program"]["source"] == "model" and err == ""
    # model: 16 iterations x (ldg, 8 ffma, stg) + EXIT
    assert s["program"]["dynamic_instructions_per_warp"] == 16 * 10 + 1
    s, err = _json("example-240x256", "--set", "gpu=V100")
    lines = [line for line in err.splitlines() if line.strip()]
    if s["program"]["source"] == "model":  # NVRTC 13 cannot target sm_70: one line says so
        assert len(lines) == 1 and "sm_70" in lines[0] and "model" in lines[0]
    else:  # an older compiler that still builds sm_70
        assert lines == []
