"""Hopper's asynchronous ops in the simulator: wgmma chains, TMA bytes, pipeline depth, refusals.

Hand-computed references: the H100's Tensor rate is 989.4 TFLOP/s dense FP16 at 1830 MHz
on 132 SMs x 4 sub-partitions = 1024 FLOP per clock per sub-partition, so one warp's share
of a wgmma m64n256k16 (2 x 16 x 256 x 16 FLOP) holds its Tensor pipe 128 cycles.
"""

import json

import numpy as np
import pytest

from explorer.cli.main import main
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.sim import simulate
from explorer.sim.states import CODE, MEANING, NAMES
from explorer.model.units import DRAM, L2, SHARED, TENSOR

WGMMA_N256_CYCLES = 2 * 16 * 256 * 16 / (989.4e12 / (132 * 4 * 1830e6))  # 128.0: one warp's share


def _scenario(body, *, grid=1, warps=4, loop=1, stages=1, producers=0, l2_hit=0.0, gpu="H100"):
    return Scenario.from_dict({
        "gpu": gpu, "program": "model",
        "launch": {"grid": [grid, 1, 1], "block": [32 * warps, 1, 1], "registers_per_thread": 128,
                   "dynamic_shared_bytes": 100_000},
        "workload": {"loop": loop, "stages": stages, "producer_warps": producers, "l2_hit_rate": l2_hit,
                     "body": body},
    })


def _pipeline(stages, *, grid=33, loop=32, l2_hit=0.8, pending=0):
    body = [{"op": "tma", "bytes": 16384}, {"op": "tma", "bytes": 16384},
            {"op": "wgmma", "count": 4, "n": 256, "pending": pending}]
    return _scenario(body, grid=grid, warps=12, loop=loop, stages=stages, producers=4, l2_hit=l2_hit)


# -- hand-computed cases ---------------------------------------------------------------------------
def test_a_warpgroups_wgmma_chain_takes_count_tensor_intervals():
    assert WGMMA_N256_CYCLES == pytest.approx(128.0, abs=0.01)

    def run(count):
        return simulate(_scenario([{"op": "wgmma", "count": count, "n": 256}]))

    four, eight = run(4), run(8)
    assert four.params.mma_interval * 32 == pytest.approx(WGMMA_N256_CYCLES)
    # four more wgmmas per warp, queued on each warp's own Tensor pipe: 4 x 128 cycles more
    assert eight.cycles - four.cycles == pytest.approx(4 * WGMMA_N256_CYCLES, abs=1)
    # the Tensor pipes were busy count x 128 cycles on each of the warpgroup's 4 sub-partitions
    assert eight.unit_busy_cycles[:, TENSOR].sum() == pytest.approx(4 * 8 * WGMMA_N256_CYCLES)
    # the descriptor reads: per wgmma 64 x 16 (A) + 256 x 16 (B) 2-byte elements from shared memory
    assert eight.memory_bytes["shared"] == 8 * (64 + 256) * 16 * 2
    assert eight.unit_busy_cycles[:, SHARED].sum() == pytest.approx(8 * (64 + 256) * 16 * 2 / 128)
    # the warps waited for their MMAs at wait_group, not in a pipe queue
    states = eight.summary()["warp_state_cycles"]
    assert states["wgmma_wait"] > 4 * 7 * WGMMA_N256_CYCLES and states["math_pipe_throttle"] == 0


def test_wait_group_with_a_group_in_flight_overlaps_the_next_k_step():
    def run(pending):
        return simulate(_scenario([{"op": "wgmma", "count": 1, "n": 256, "pending": pending},
                                   {"op": "ffma", "count": 64}], loop=8))

    # pending 0: every K-step's FMAs wait for its MMA; pending 1: they overlap the next MMA
    assert run(1).cycles < run(0).cycles


@pytest.mark.parametrize("l2_hit", [0.0, 0.5, 1.0])
def test_a_tma_stages_bytes_cross_l2_and_dram_as_the_tile(l2_hit):
    loop = 8
    body = [{"op": "tma", "bytes": 16384}, {"op": "tma", "bytes": 32768}, {"op": "wgmma", "count": 4, "n": 256,
                                                                            "pending": 1}]
    r = simulate(_scenario(body, warps=8, loop=loop, stages=2, producers=4, l2_hit=l2_hit))
    tile = 16384 + 32768
    mem = r.memory_bytes
    assert mem["l2"] + mem["dram"] == loop * tile  # every byte crosses L2; the misses come from device memory
    assert mem["l1"] == 0  # TMA bypasses L1
    if l2_hit == 0.0:
        assert mem["dram"] == loop * tile
    if l2_hit == 1.0:
        assert mem["dram"] == 0
    p = r.params
    assert r.unit_busy_cycles[:, L2].sum() == pytest.approx(loop * tile / p.l2_bytes_per_cycle)
    assert r.unit_busy_cycles[:, DRAM].sum() == pytest.approx(mem["dram"] / p.dram_bytes_per_cycle)
    # one producer thread per copy: 2 instructions per K-step, no per-thread loads
    s = r.summary()
    consumer = (1 + 4 + 1) * 4  # mbarrier wait + 4 wgmma + wait_group, by 4 consumer warps
    assert s["warp_instructions"] == loop * (2 + consumer) + 8  # + EXIT of all 8 warps


def test_pipeline_depth_hides_the_load_latency():
    one, four = simulate(_pipeline(1)), simulate(_pipeline(4))
    assert four.cycles * 1.3 < one.cycles
    # four stages keep the Tensor Cores of the busy SMs fed: a quarter of the SMs, nearly all busy
    assert four.summary()["throughput"]["tensor"]["pct_of_peak"] > 0.9 * 25
    waits = one.summary()["warp_state_cycles"], four.summary()["warp_state_cycles"]
    assert waits[0]["mbarrier"] > waits[1]["mbarrier"]  # with one stage the consumers wait for every copy
    assert four.memory_bytes["l2"] + four.memory_bytes["dram"] == one.memory_bytes["l2"] + one.memory_bytes["dram"]


def test_the_producer_waits_for_a_free_stage():
    # a Tensor-bound pipeline: the producer runs ahead until every stage is full, then waits for releases
    r = simulate(_pipeline(2, grid=1, loop=16, l2_hit=1.0))
    s = r.summary()["warp_state_cycles"]
    assert s["mbarrier"] > 0 and s["wgmma_wait"] > 0
    assert r.summary()["warp_instructions"] == 16 * (2 + 8 * 6) + 12


def test_idle_producer_warps_leave_at_once():
    r = simulate(_pipeline(2, grid=1, loop=4))
    slots = r.block_slots[0]
    trace = r.sm_trace(int(r.blocks.sm[0]))
    for k in (1, 2, 3):  # warps 1-3 of the producer warpgroup issue only their EXIT
        assert (trace[100:, slots[k]] == CODE["empty"]).all()


# -- the GEMM main loop ------------------------------------------------------------------------------
def test_big_bf16_gemm_on_h100_is_tensor_bound(tmp_path, capsys):
    path = tmp_path / "g.toml"
    assert main(["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                 "--scenario-out", str(path)]) == 0
    capsys.readouterr()
    assert main(["simulate", str(path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["bottleneck"]["unit"] == "tensor"
    assert d["throughput"]["tensor"]["pct_of_peak"] > 80
    assert d["warp_state_cycles"]["wgmma_wait"] > d["warp_state_cycles"]["mbarrier"]
    assert d["program"]["source"] == "model" and d["program"]["warp_specialized"] is True


def test_on_a100_the_gemm_runs_mma_sync_and_wgmma_is_refused(tmp_path, capsys):
    path = tmp_path / "a.toml"
    assert main(["gemm", "--gpu", "A100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                 "--scenario-out", str(path)]) == 0
    capsys.readouterr()
    ops = {op.op for op in Scenario.load(path).workload.body}
    assert "mma" in ops and not ops & {"tma", "wgmma"}
    hopper = tmp_path / "h.toml"
    assert main(["gemm", "--gpu", "H100", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "bf16",
                 "--scenario-out", str(hopper)]) == 0
    capsys.readouterr()
    assert main(["simulate", str(hopper), "--set", 'gpu="A100"']) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "workload.body[0].op" in err and "A100" in err and "9.0" in err
    # nor can the generated CUDA kernel measure them
    assert main(["measure", str(hopper), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "workload.body[0].op" in err and "no TMA or wgmma" in err


# -- validation: one line naming the field -------------------------------------------------------------
BAD = [
    ({"body": [{"op": "tma", "bytes": 1000}, {"op": "wgmma"}], "producer_warps": 4}, "workload.body[0].bytes"),
    ({"body": [{"op": "tma"}, {"op": "wgmma"}], "producer_warps": 4}, "workload.body[0].bytes"),
    ({"body": [{"op": "tma", "bytes": 2**20}, {"op": "wgmma"}], "producer_warps": 4}, "workload.body[0].bytes"),
    ({"body": [{"op": "wgmma", "n": 100}]}, "workload.body[0].n"),
    ({"body": [{"op": "wgmma", "n": 512}]}, "workload.body[0].n"),
    ({"body": [{"op": "wgmma", "pending": 8}]}, "workload.body[0].pending"),
    ({"body": [{"op": "ffma", "n": 64}]}, "workload.body[0].n"),
    ({"body": [{"op": "tma", "bytes": 1024}, {"op": "wgmma"}]}, "workload.producer_warps"),
    ({"body": [{"op": "wgmma"}], "producer_warps": 4}, "workload.producer_warps"),
    ({"body": [{"op": "wgmma"}], "stages": 3}, "workload.stages"),
    ({"body": [{"op": "tma", "bytes": 1024}], "producer_warps": 4}, "workload.body"),
    ({"body": [{"op": "tma", "bytes": 1024}, {"op": "wgmma"}, {"op": "sync"}], "producer_warps": 4},
     "workload.body[2].op"),
    ({"body": [{"op": "tma", "bytes": 1024}, {"op": "wgmma", "pending": 2}], "producer_warps": 4, "stages": 2},
     "workload.body[1].pending"),
]


@pytest.mark.parametrize("workload,field", BAD)
def test_bad_async_workloads_name_the_field(workload, field):
    data = {"gpu": "H100", "program": "model", "launch": {"block": [384, 1, 1]}, "workload": workload}
    with pytest.raises(InputError) as exc:
        Scenario.from_dict(data)
    assert exc.value.field == field and "\n" not in str(exc.value)


def test_async_ops_need_hopper_the_model_and_whole_warpgroups():
    ok = {"gpu": "H100", "program": "model", "launch": {"block": [384, 1, 1]},
          "workload": {"body": [{"op": "tma", "bytes": 1024}, {"op": "wgmma"}], "producer_warps": 4}}
    Scenario.from_dict(ok)
    for change, field in (({"gpu": "A100"}, "workload.body[0].op"), ({"gpu": "RTX4090"}, "workload.body[0].op"),
                          ({"program": "sass"}, "program"), ({"launch": {"block": [320, 1, 1]}}, "launch.block"),
                          ({"launch": {"block": [128, 1, 1]}}, "workload.producer_warps")):
        with pytest.raises(InputError) as exc:
            Scenario.from_dict({**ok, **change})
        assert exc.value.field == field
    Scenario.from_dict({**ok, "gpu": "B200"})  # CC 10.0 runs them too


def test_the_new_states_are_named_and_explained():
    for name in ("mbarrier", "wgmma_wait"):
        assert name in NAMES and MEANING[name].endswith(".")
    assert np.unique([CODE[n] for n in NAMES]).size == len(NAMES)
