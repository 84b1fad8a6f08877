"""Throughput units against references computed here: datasheet peaks, Little's law, the L2 figure.

Every reference below is typed from its public source or derived in the test, not read from
the catalog the simulator uses, so a wrong catalog figure fails too.
"""

import numpy as np
import pytest

from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario
from explorer.sim import simulate
from explorer.model.units import UNITS

MMA_FLOP = 2 * 16 * 8 * 16  # one m16n8k16 warp-level MMA
SMS = {"H100": 132, "A100": 108}
# datasheets: dense FP16 Tensor; FP32 = SMs x 128 (H100) / 64 (A100) lanes x 2 x boost clock
TENSOR_PEAK = {"H100": 989.4e12, "A100": 312e12}
FP32_PEAK = {"H100": 132 * 128 * 2 * 1.98e9, "A100": 108 * 64 * 2 * 1.41e9}
A100_L2_BYTES_PER_CLOCK = 5120  # NVIDIA A100 whitepaper
H100_HBM = 3.35e12  # H100 SXM datasheet


def kernel(gpu, blocks, threads, body, loop, regs=32, **extra):
    values = {"gpu": gpu, "launch.grid": [blocks, 1, 1], "launch.block": [threads, 1, 1],
              "launch.registers_per_thread": regs, "workload.loop": loop, "workload.body": body,
              "program": "model"}  # the model program: its instructions are the workload's, counted by hand
    values.update(extra)
    return Scenario().with_values(**values)


def seconds(result):
    return result.summary()["kernel_time_us"] * 1e-6


@pytest.mark.parametrize("gpu", ["H100", "A100"])
def test_mma_saturated_run_reaches_the_datasheet_tensor_peak(gpu):
    blocks, warps, loop, count = SMS[gpu] * 4, 8, 64, 16
    r = simulate(kernel(gpu, blocks, warps * 32, [{"op": "mma", "count": count, "ilp": 8}], loop, regs=64))
    flops = blocks * warps * loop * count * MMA_FLOP
    assert flops / seconds(r) == pytest.approx(TENSOR_PEAK[gpu], rel=0.02)
    s = r.summary()
    assert s["bottleneck"]["unit"] == "tensor"
    assert s["throughput"]["tensor"]["peak"] == pytest.approx(TENSOR_PEAK[gpu], rel=0.001)


def test_h100_tensor_peak_is_stated_at_1830_mhz():
    r = simulate(kernel("H100", 132, 256, [{"op": "mma", "count": 4, "ilp": 4}], 4, regs=64))
    assert r.summary()["clock_mhz"] == pytest.approx(TENSOR_PEAK["H100"] / (132 * 4096) / 1e6, rel=0.001)


@pytest.mark.parametrize("gpu", ["H100", "A100"])
def test_fma_saturated_run_reaches_the_fp32_peak(gpu):
    blocks, warps, loop, count = SMS[gpu] * 4, 8, 64, 32
    r = simulate(kernel(gpu, blocks, warps * 32, [{"op": "ffma", "count": count, "ilp": 8}], loop))
    flops = blocks * warps * loop * count * 32 * 2
    assert flops / seconds(r) == pytest.approx(FP32_PEAK[gpu], rel=0.02)
    s = r.summary()
    assert s["throughput"]["fp32"]["pct_of_peak"] > 97
    # on H100 one FMA per scheduler per cycle is also the issue peak: either names it
    assert s["bottleneck"]["unit"] in (("fp32", "issue") if gpu == "H100" else ("fp32",))


def test_l2_hit_stream_is_capped_at_the_published_l2_bandwidth():
    s = kernel("A100", 108 * 8, 256, [{"op": "ldg", "bytes": 16, "count": 4}, {"op": "ffma"}], 32,
               **{"workload.l2_hit_rate": 1.0})
    r = simulate(s)
    per_clock = r.memory_bytes["l2"] / r.cycles
    assert per_clock <= A100_L2_BYTES_PER_CLOCK * 1.001
    assert per_clock > 0.95 * A100_L2_BYTES_PER_CLOCK  # the stream saturates it
    assert r.summary()["bottleneck"]["unit"] == "l2"


def _load_stream(warps_per_sm):
    """Each warp: one independent 16-byte load (512 B per warp), then an FMA that needs it."""
    return kernel("H100", 132 * warps_per_sm // 4, 128, [{"op": "ldg", "bytes": 16}, {"op": "ffma"}], 64)


def test_dram_throughput_follows_littles_law_with_a_smooth_knee():
    warps = (4, 8, 16, 32, 64)
    achieved, latency = [], []
    for warps_per_sm in warps:
        r = simulate(_load_stream(warps_per_sm))
        s = r.summary()
        x = s["dram_bytes"] / r.cycles  # bytes per cycle
        lat = s["latency_cycles"]["dram"]
        in_flight = 132 * warps_per_sm * 512  # every warp has its load outstanding but for ~2 cycles per trip
        # Little's law: throughput = bytes in flight / round-trip time (the loaded latency, plus the FMA
        # and the next load's issue); the run's length is the slowest warp's (each load waits a random bank's
        # time), so a run's throughput is a little below its mean round trip's
        assert x == pytest.approx(in_flight / (lat + 2), rel=0.12)
        assert x * 1.98e9 <= H100_HBM  # never above the datasheet
        achieved.append(x)
        latency.append(lat)
    slopes = np.diff(achieved) / np.diff(warps)
    assert (slopes > 0).all()  # more warps in flight always help ...
    assert (np.diff(slopes) < 0).all()  # ... less and less: a smooth knee, not a corner
    assert achieved[-1] * 1.98e9 > 0.75 * H100_HBM  # the plateau is near the datasheet
    assert achieved[0] * 1.98e9 < 0.35 * H100_HBM  # and far below it with few warps
    # loaded latency: nearly flat far below the plateau, rising steeply past the knee
    assert latency[1] < 1.15 * latency[0] and latency[-1] > 1.5 * latency[-2]
    assert all(b > a for a, b in zip(latency, latency[1:]))


def test_few_warps_are_latency_bound():
    r = simulate(kernel("H100", 132, 32, [{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 4}], 32))
    b = r.summary()["bottleneck"]
    assert b["unit"] == "latency" and b["pct_of_peak"] < 60
    assert "wait" in b["why"] and "HBM" in b["why"]


@pytest.mark.parametrize("preset", ["example-240x256", "memory-bound-stream", "tensor-gemm", "barrier-tiling",
                                    "compute-bound-fma"])
def test_unit_windows_add_up_and_stay_within_peak(preset):
    r = simulate(load_preset(preset))
    busy = r.unit_busy.astype(np.float64)
    assert busy.shape == (-(-r.cycles // r.window_cycles), len(UNITS))
    lengths = np.minimum(r.window_cycles, r.cycles - np.arange(busy.shape[0]) * r.window_cycles)
    capacity = np.array([u.capacity for u in r.unit_peaks])
    assert np.allclose((busy * lengths[:, None] * capacity).sum(axis=0), r.unit_busy_cycles.sum(axis=0), rtol=1e-5)
    assert (r.unit_fraction() <= 1 + 1e-9).all()
    # a window may hold a request's wavefronts that start in it: a few cycles over at most
    assert (busy[:-1] <= 1.0 + 64 / r.window_cycles).all()
    issued = r.summary()["issue_slot_utilization"]
    assert r.unit_fraction()[UNITS.index("issue")] == pytest.approx(issued)


def test_the_latency_reason_is_a_state_that_cannot_issue():
    """Ready warps waiting their turn wait while another issues: issue slots go unused only in cycles no
    warp is ready, so the sentence names the commonest stall (here drain), not "not_selected"."""
    from types import SimpleNamespace

    from explorer.sim.bottleneck import _why_latency
    from explorer.sim.states import NAMES

    def run(**totals):
        states = np.array([totals.get(name, 0) for name in NAMES], np.int64)
        residency = SimpleNamespace(warp_cycles_and_active_cycles=lambda cycles: (None, np.full(2, cycles)))
        return SimpleNamespace(params=SimpleNamespace(total_blocks=4, warps_per_block=8, sm_count=2), cycles=100,
                               residency=residency, series_totals=np.concatenate([np.zeros(4, np.int64), states]))

    from explorer.texts.bottleneck import reason

    def _why(result, share):  # the record in English, as the CLI words it
        return reason({"reason": {**_why_latency(result, share), "top": "issue"}})

    why = _why(run(selected=1500, not_selected=7100, drain=5200, math_pipe_throttle=500), 0.49)
    assert why.endswith("32 warps mostly wait for their stores to complete before they can exit")
    why = _why(run(selected=100, not_selected=50), 0.2)  # nothing stalls: the top state as is
    assert why.endswith("32 warps mostly issue whenever they can, yet too few are ready")


def test_a_grid_too_small_for_the_gpu_is_latency_bound_yet_full_where_it_runs():
    """A wgmma GEMM of 32 tiles on 132 SMs (``gemm --scenario-out``, one block per SM): over the GPU the
    Tensor Cores are at ~32/132 of their peak (latency: "SMs sit idle"), over the SMs' active cycles (Nsight's
    pct_of_peak_sustained_active) near full. The reference: each consumer warp's wgmmas hold its scheduler's
    Tensor pipe N/8 MMA intervals each (989.4 TFLOP/s / (132 SMs x 4 x 1,830 MHz) = 1,024 FLOP/clk per
    scheduler: 4 cycles per m16n8k16), over the block records' lifetimes."""
    from explorer.gemm import gemm_scenario, plan_gemm

    scenario = gemm_scenario(plan_gemm("H100", 1024, 1024, 512, "bf16"))
    r = simulate(scenario)
    s = r.summary()
    wl, p = scenario.workload, r.params
    wgmma = next(op for op in wl.body if op.op == "wgmma")
    interval = MMA_FLOP / (TENSOR_PEAK["H100"] / (132 * 4 * 1.83e9))
    consumers = p.warps_per_block - wl.producer_warps
    busy_per_block = consumers * wl.loop * wgmma.count * wgmma.n / 8 * interval  # scheduler-cycles
    assert p.total_blocks == 32 and p.active_blocks_per_sm == 1
    lifetimes = (r.blocks.end - r.blocks.start).astype(np.float64)  # one block per SM: its SM's active cycles
    assert len(np.unique(r.blocks.sm)) == 32
    active = p.total_blocks * busy_per_block / (lifetimes.sum() * p.sub_partitions)
    elapsed = p.total_blocks * busy_per_block / (r.cycles * 132 * p.sub_partitions)
    t = s["throughput"]["tensor"]
    assert t["pct_of_peak"] / 100 == pytest.approx(elapsed, rel=1e-3)
    assert t["pct_of_peak_active"] / 100 == pytest.approx(active, rel=1e-3)
    assert t["pct_of_peak_active"] > 85 and t["pct_of_peak"] < 25
    for unit in ("l2", "dram"):  # shared by the whole GPU: no SM is idle for them
        assert s["throughput"][unit]["pct_of_peak_active"] == s["throughput"][unit]["pct_of_peak"]
    b = s["bottleneck"]
    assert b["unit"] == "latency"
    assert f"on the SMs with work, Tensor Cores at {t['pct_of_peak_active']:.0f}% of the peak" in b["why"]


def test_a_gpu_full_of_blocks_is_as_busy_where_it_runs():
    """compute-bound-fma's model loop fills every SM until its last cycles: the active shares are the run's
    (up to the ramp and tail), and its sentence names no SMs with work."""
    r = simulate(load_preset("compute-bound-fma").with_values(program="model"))
    s = r.summary()
    for t in s["throughput"].values():
        assert t["pct_of_peak"] <= t["pct_of_peak_active"] <= 1.1 * t["pct_of_peak"] + 1e-9
    assert "SMs with work" not in s["bottleneck"]["why"]
