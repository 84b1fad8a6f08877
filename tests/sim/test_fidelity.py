"""The simulator against the H200 it was measured on (issue 28's fidelity test; issue 29's hit rates).

The data: ``tests/data/h200-2026-12-04`` (the device check's 11 measurements of the presets on an NVIDIA H200
SXM, Nsight Compute's sections of the same kernels, the microbenchmarks of MICROBENCH.md). Each preset is
simulated as its measured launch ran (``explorer.gpu.compare``: the measured GPU, the compiled kernel's
resources, L2 dirty from the launch's flush, the launch's own first-wave placement) and, for Nsight's figures,
as Nsight ran it (caches flushed and invalidated: L2 clean).

The issue's targets: duration within 10%, achieved occupancy within 2 points, blocks per SM as measured,
eligible warps per scheduler and issue-slot use within 15% of Nsight's, L1 and L2 hit rates within 10 points,
DRAM bytes within 10%, and the microbenchmarks' loaded-latency curve within 10% at every point. Where the model
does not meet a target yet, the gap is in ``KNOWN_GAPS`` with what was measured and why it is open; a gap that
closes fails ``test_every_known_gap_is_still_open``, so the table cannot go stale.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from tests.sass.support import needs_sass

pytestmark = needs_sass

DATA = Path(__file__).resolve().parents[1] / "data" / "h200-2026-12-04"
# the FMA-bound presets execute ~180 M warp-instructions each (loop 1280 / 800): 15-30 s of simulation apiece,
# so they run with the slow set (tests/suite_timing.py); the memory-bound presets are the main set's
HEAVY = {"compute-bound-fma", "tail-effect", "tail-effect-matched"}


def _cases(names):
    return [pytest.param(n, marks=[pytest.mark.slow(expect_s=60), pytest.mark.timeout(600)]) if n in HEAVY else n
            for n in names]


# a run with the per-iteration clock probe (measure --iteration-clocks) times the probe's stores too: not a preset
PRESETS = sorted(p.stem for p in (DATA / "measurements").glob("*.npz") if not p.stem.endswith("-iterations"))
NSIGHT = sorted(p.stem for p in (DATA / "ncu-sections").glob("*.csv") if "loop16" not in p.stem)

# (preset, figure) -> why the target is not met yet (each still fails: test_every_known_gap_is_still_open)
KNOWN_GAPS = {
    ("example-240x256-preset-loop", "warp_span_cycles"):
        "16 iterations, all while L2 writes back the flush's dirty lines: same median block span (14,797 vs 15,066), "
        "but 6.5% of the H200's warps lose one or two whole ~3,000-cycle waits, runs of neighbouring warps in address "
        "order (docs/real-gpu.md), a step the model's queues do not produce; simulated ~15% short",
    ("compute-bound-fma", "achieved_occupancy"):
        "the H200 runs a scheduler's 8 warps two at a time, oldest first (ends in 4 tiers ~90k cycles apart; the "
        "compiler sets the yield bit on every loop FFMA), the model's GTO one at a time, a warp that stalled once "
        "waiting until the newer one stalls (ends at ~180k, 269k, 314k, 4 at 359k): occupancy 41% vs 36%; obeying "
        "the yield bit gives the pairs but 31% (and tail-effect 32% vs 44%): not the rule (docs/real-gpu.md)",
    ("tail-effect", "achieved_occupancy"): "as compute-bound-fma (2.5 points)",
    ("tail-effect-matched", "achieved_occupancy"): "as compute-bound-fma (2.4 points)",
    ("memory-bound-stream", "achieved_occupancy"):
        "2.5 points low: a warp's records end before its EXIT drains, the model counts the drain",
    ("latency-bound-low-occupancy", "achieved_occupancy"): "2.2 points high (block starts, see the stream's)",
    ("barrier-tiling", "l2_hit_rate"):
        "Nsight reads 30.6% L2 hits where the kernel's addresses give 50%: counting a far partition's load twice "
        "gives 33.1% (scripts/l2_partitions.py, docs/model.md); not modelled until the ncu-l2 counters decide it",
    ("tensor-gemm", "l2_hit_rate"): "53.7% measured, 70% from the addresses, 46.5% by the two-partition rule",
    ("barrier-tiling", "dram_bytes"): "follows its L2 gap: 20% fewer DRAM bytes than measured",
    ("tensor-gemm", "dram_bytes"): "follows its L2 gap: 17% fewer DRAM bytes than measured",
    ("barrier-tiling", "eligible_per_scheduler"): "16% high (its iterations are 10% short, see its duration)",
    ("tail-effect", "warp_cycles_per_issue"): "as compute-bound-fma's occupancy: warps issue in pairs on the H200",
    ("memory-bound-stream", "blocks_per_sm"):
        "the H200 spread the stream's 2,640 blocks unevenly over its SMs (16 to 32 blocks each, a pair of SMs 32), "
        "the model's dispatcher evenly (19-21): from the first wave those SMs ran their blocks 1.65x / 1.41x faster "
        "(a larger share of saturated HBM, whole TPC groups), the model's one queue shares it evenly",
}
LIMITS = {"blocks_per_sm": 1, "warp_span_cycles": 0.10, "achieved_occupancy": 0.02, "eligible_per_scheduler": 0.15,
          "issue_slots_busy": 0.15, "l1_hit_rate": 0.10, "l2_hit_rate": 0.10, "dram_bytes": 0.10}


@cache
def _comparison(name: str):
    from explorer.gpu.compare import compare
    from explorer.gpu.measurement import load_measurement

    m = load_measurement(DATA / "measurements" / f"{name}.npz")
    return m, compare(m)


@cache
def _nsight(name: str) -> dict:
    from explorer.gpu.compare import comparison_setup
    from explorer.gpu.measurement import load_measurement
    from explorer.gpu.nsight import nsight_figures, read_details
    from explorer.sim import simulate

    scenario, params, placement, program = comparison_setup(load_measurement(DATA / "measurements" / f"{name}.npz"))
    r = simulate(scenario, params=dataclasses.replace(params, l2_dirty_bytes=0), placement=placement,
                 program=program)
    return {f.key: f for f in nsight_figures(r, read_details(DATA / "ncu-sections" / f"{name}.csv"))}


def _blocks_per_sm_miss(m, c) -> str | None:
    """Blocks per SM on the hardware's SM numbering: identical where every block was placed in the first wave;
    where later blocks went where room freed, the same spread to within a block."""
    first_wave_only = len(m.blocks) == len(c.result.blocks) and int(m.blocks.start.max()) < int(m.blocks.end.min())
    sim, meas = c.blocks_per_sm_simulated, c.blocks_per_sm_measured
    if first_wave_only:
        return None if np.array_equal(sim, meas) else f"blocks_per_sm: {int((sim != meas).sum())} SMs differ"
    worst = int(np.abs(np.sort(sim) - np.sort(meas)).max())
    return None if worst <= 1 else f"blocks_per_sm: sorted counts differ by up to {worst} (simulated {sim.min()}-" \
                                    f"{sim.max()}, measured {meas.min()}-{meas.max()})"


def _misses(name: str, figures: dict) -> dict[str, str]:
    out = {}
    for key, limit in LIMITS.items():
        if key == "blocks_per_sm":
            continue
        f = figures.get(key)
        if f is not None and f.error is not None and abs(f.error) > limit + 1e-9:
            out[key] = f"{key}: simulated {f.simulated:.4g}, measured {f.measured:.4g}, error {f.error_text()}"
    return out


@pytest.mark.parametrize("name", _cases(PRESETS))
def test_each_measured_launch_within_the_targets(name):
    m, c = _comparison(name)
    misses = _misses(name, {f.key: f for f in c.figures})
    blocks = _blocks_per_sm_miss(m, c)
    if blocks:
        misses["blocks_per_sm"] = blocks
    misses = {k: v for k, v in misses.items() if (name, k) not in KNOWN_GAPS}
    assert not misses, "\n".join(misses.values())
    # every figure comes with its word, and the headline is the duration
    assert c.headline.key == "warp_span_cycles" and c.headline.word


@pytest.mark.parametrize("name", _cases(NSIGHT))
def test_nsight_figures_within_the_targets(name):
    misses = {k: v for k, v in _misses(name, _nsight(name)).items() if (name, k) not in KNOWN_GAPS}
    assert not misses, "\n".join(misses.values())


@pytest.mark.slow(expect_s=120)
@pytest.mark.timeout(900)
def test_every_known_gap_is_still_open():
    """A gap the model has closed comes off the table (and docs/real-gpu.md's)."""
    closed = []
    for (name, key), why in KNOWN_GAPS.items():
        if key == "blocks_per_sm":
            m, c = _comparison(name)
            if _blocks_per_sm_miss(m, c) is None:
                closed.append(f"{name} {key} ({why})")
            continue
        figures = _nsight(name) if key in ("eligible_per_scheduler", "issue_slots_busy", "l1_hit_rate", "l2_hit_rate",
                                            "dram_bytes", "warp_cycles_per_issue") else \
            {f.key: f for f in _comparison(name)[1].figures}
        f = figures[key]
        limit = LIMITS.get(key, 0.15)
        if f.error is not None and abs(f.error) <= limit:
            closed.append(f"{name} {key}: {f.error_text()} ({why})")
    assert not closed, "closed gaps still listed:\n" + "\n".join(closed)


# the microbenchmark of MICROBENCH.md mirrored: W warps on every SM, each with one coalesced 512 B load in
# flight (a 16 B load per lane, then an FMA on it); latency = cycles per load per warp, bandwidth = bytes / time
LOADED = {1: (729, 177), 2: (706, 362), 4: (754, 680), 8: (777, 1317), 12: (800, 1923), 16: (837, 2453),
          24: (922, 3360), 32: (1061, 3876), 48: (1433, 4329)}


def _loaded(warps: int, loop: int = 100):
    from explorer.model.scenario import Scenario
    from explorer.sim import simulate

    k = (warps + 31) // 32
    s = Scenario().with_values(**{"gpu": "H200", "program": "model", "launch.grid": [132 * k, 1, 1],
                                  "launch.block": [warps * 32 // k, 1, 1], "workload.loop": loop,
                                  "workload.body": [{"op": "ldg", "bytes": 16}, {"op": "ffma"}]})
    r = simulate(s)
    per_load = r.latency_cycles()["dram"] + r.params.lat_fma + 1  # the load, the FMA on it, the next load's issue
    gbs = 132 * warps * 512 * loop / (r.cycles / (r.params.clock_mhz * 1e6)) / 1e9
    return per_load, gbs


@pytest.mark.parametrize("warps", sorted(LOADED))
def test_the_loaded_latency_curve_within_10_percent(warps):
    latency, bandwidth = LOADED[warps]
    sim_latency, sim_gbs = _loaded(warps)
    assert sim_latency == pytest.approx(latency, rel=0.10)
    assert sim_gbs == pytest.approx(bandwidth, rel=0.10)


# the same microbenchmark from a 16 MiB array (MICROBENCH.md's L2 columns: plain `ld`, lines already in L2), as
# the project's own microbench runs it (explorer.gpu.microbench.loaded: W/32 blocks per SM held there by dynamic
# shared memory, so the L1 left beside it is ~92-124 KiB, less than the ~123-127 KiB of lines an SM's warps
# touch per pass over the array). Simulated: two runs, one pass and several, of the workload wrapping over the
# array; the latency is the L2 hits' mean, the bandwidth the passes after the first (all L2 hits) per time
LOADED_L2 = {1: (355, 333), 2: (336, 742), 4: (336, 1505), 8: (339, 2985), 12: (340, 4368), 16: (343, 5801),
             24: (351, 8443), 32: (381, 10251), 48: (407, 13419)}
L2_ARRAY = 16 << 20
# (warps per SM, figure) -> why the 10% target is not met yet (each still fails: test_every_l2_curve_gap_is_open)
L2_CURVE_GAPS = {
    (1, "bandwidth"):
        "the H200's loop takes 47 cycles besides the load at 1 warp per SM and 25 at 2 (DRAM: 27 at 1): the model's "
        "loop is the load and its FMA, so 372 GB/s against 333; latency within 1%",
    (32, "bandwidth"):
        "11,630 GB/s simulated against 10,251: the H200's L2 hits slow down from 24 warps per SM on (351 -> 381 "
        "cycles), the model's not before its L2 limit, an estimate (A100's per-SM figure x 132, "
        "resources/gpu_throughput.toml); the plain `ld` rows carry some L1 hits, so they do not pin the L2's own "
        "limit: the device check's `.cg` curve (microbench `loaded`, l2_bypass_l1) will",
    (48, "latency"):
        "505 cycles simulated against 407: the model's estimated L2 limit (6,257 B/clk) is reached, and the H200's "
        "row carries L1 hits (MICROBENCH.md: read it as an upper bound on L2 throughput); as 32's bandwidth",
}


@cache
def _loaded_l2(warps: int) -> tuple[float, float]:
    from explorer.gpu.microbench import shared_pad
    from explorer.model.catalog import get_gpu
    from explorer.model.scenario import Scenario
    from explorer.sim import simulate

    arch = get_gpu("H200").arch
    k = (warps + 31) // 32
    pad = shared_pad(arch.shared_per_sm, arch.shared_reserved_per_block,
                     arch.shared_per_sm - arch.shared_reserved_per_block, k)
    slab = 132 * warps * 512  # one 512 B load per warp and iteration
    wrap = L2_ARRAY // slab
    passes = max(2, -(-64 // wrap))

    def run(loop):
        return simulate(Scenario().with_values(**{
            "gpu": "H200", "program": "model", "launch.grid": [132 * k, 1, 1], "launch.block": [warps * 32 // k, 1, 1],
            "launch.dynamic_shared_bytes": pad, "workload.loop": loop, "workload.wrap": wrap,
            "workload.body": [{"op": "ldg", "bytes": 16}, {"op": "ffma"}]}))

    one, many = run(wrap), run(wrap * passes)
    assert many.latency_cycles()["l1"] is None  # every pass misses L1, as the array is meant to
    seconds = (many.cycles - one.cycles) / (many.params.clock_mhz * 1e6)
    return many.latency_cycles()["l2"], slab * wrap * (passes - 1) / seconds / 1e9


@pytest.mark.parametrize("warps", sorted(LOADED_L2))
def test_the_l2_loaded_latency_curve_within_10_percent(warps):
    figures = dict(zip(("latency", "bandwidth"), LOADED_L2[warps]))
    simulated = dict(zip(("latency", "bandwidth"), _loaded_l2(warps)))
    for key, measured in figures.items():
        if (warps, key) not in L2_CURVE_GAPS:
            assert simulated[key] == pytest.approx(measured, rel=0.10), key


def test_every_l2_curve_gap_is_open():
    closed = [f"{w} warps per SM, {key}" for (w, key) in L2_CURVE_GAPS
              if _loaded_l2(w)[("latency", "bandwidth").index(key)] == pytest.approx(
                  LOADED_L2[w][("latency", "bandwidth").index(key)], rel=0.10)]
    assert not closed, "closed gaps still listed: " + ", ".join(closed)


def test_the_l2_partition_hypothesis_reads_the_shared_data(capsys):
    """scripts/l2_partitions.py (docs/model.md): one L2 and two partitions agree on a load-and-store stream, and
    the measured rate is printed beside them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("l2_partitions", Path(__file__).resolve().parents[2] / "scripts"
                                                  / "l2_partitions.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.main([str(DATA / "measurements" / "example-240x256.npz")]) == 0
    (row,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("example-240x256")]
    assert row.split()[-3:] == ["50.0", "50.0", "50.1"]
