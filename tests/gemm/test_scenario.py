"""The generated scenario validates, round-trips through TOML, and simulates the GEMM main loop."""

import pytest

from explorer.gemm import gemm_scenario, gemm_workload, plan_gemm
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.occupancy import occupancy_for_launch


def _body_ops(scenario):
    return [op.op for op in scenario.workload.body]


def test_scenario_matches_the_plan():
    p = plan_gemm("H100", 2048, 2048, 2048, "fp16", path="mma.sync")
    s = gemm_scenario(p)
    r = p.resources
    assert s.gpu_name == "H100"
    assert s.launch.total_blocks == p.tiles and s.launch.threads_per_block == r.threads
    assert s.launch.registers_per_thread == r.registers_per_thread
    assert s.launch.dynamic_shared_bytes == r.shared_bytes_per_block
    assert occupancy_for_launch(s.gpu, s.launch) == r.occupancy
    assert s.workload.loop == p.k_steps
    assert s.workload.l2_hit_rate == pytest.approx(p.l2_hit_rate, abs=1e-6)
    ops = _body_ops(s)
    # pipelined: global loads first, fragments + MMAs, then the shared stores and one barrier per K-step
    assert ops[0] == "ldg" and ops[-2:] == ["sts", "sync"] and ops.count("sync") == 1
    # per warp per K-step the body issues exactly the plan's MMAs
    mma = sum(op.count for op in s.workload.body if op.op == "mma")
    assert mma * r.warps * p.k_steps * p.tiles == p.mma_instructions
    # and it survives a save/load
    assert Scenario.from_dict(s.to_dict()) == s


def test_single_stage_exposes_the_load():
    p = plan_gemm("A100", 1024, 1024, 1024, "fp16", stages=1)
    ops = _body_ops(gemm_scenario(p))
    assert ops[:3] == ["ldg", "sts", "sync"] and ops[-1] == "sync" and ops.count("sync") == 2


def test_fp32_uses_ffma():
    p = plan_gemm("A100", 512, 512, 512, "fp32")
    w = gemm_workload(p)
    ops = [op["op"] for op in w["body"]]
    assert "ffma" in ops and "mma" not in ops
    ffma = sum(op["count"] for op in w["body"] if op["op"] == "ffma")
    assert ffma * p.resources.warps * p.k_steps * p.tiles == p.instructions["ffma"]


def test_limits():
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    s = gemm_scenario(p, k_steps=4, max_tiles=10)
    assert s.launch.total_blocks == 10 and s.workload.loop == 4
    with pytest.raises(InputError):
        gemm_scenario(p, k_steps=0)
    with pytest.raises(InputError):
        gemm_scenario(p, max_tiles=0)


def test_the_scenario_simulates():
    sim = pytest.importorskip("explorer.sim")
    p = plan_gemm("H100", 7 * 128, 19 * 256, 512, "fp16", tile="128x256x64")  # 133 tiles, 1 CTA per SM
    s = gemm_scenario(p)
    result = sim.simulate(s)
    summary = result.summary()
    assert summary["total_blocks"] == 133
    assert summary["waves"] == pytest.approx(133 / 132)
    assert summary["warp_state_cycles"]["selected"] > 0
    assert summary["memory_bytes"]["shared"] > 0
    # tile -> SM from the simulator's block records; the 133rd tile runs in a second wave
    starts = result.blocks.start
    assert int(starts[132]) > int(starts[:132].max())
    # the model's prediction and the simulation agree within a factor of two here
    assert 0.5 < (summary["kernel_time_us"] * 1e-6) / p.predicted_seconds < 2.0
