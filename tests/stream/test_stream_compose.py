"""Composing a stream from one simulated kernel, against hand-computed cases and a brute-force timeline."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.model.scenario import Scenario
from explorer.model.stream import StreamTiming
from explorer.sim import simulate
from explorer.sim.stream import MAX_VIEW, KernelFigures, StreamResult, compose
from explorer.timeline import Residency


def figures(us: float = 3.0, clock_mhz: float = 1000.0, sm_count: int = 4) -> KernelFigures:
    """A made-up kernel of ``us`` microseconds: every SM active 80% of it, 16 of 64 warps, 1 issue in 10."""
    cycles = int(round(us * clock_mhz))
    return KernelFigures(cycles=cycles, clock_mhz=clock_mhz, sm_count=sm_count, warps_per_sm=64, schedulers_per_sm=4,
                         active_sm_cycles=0.8 * cycles * sm_count, warp_cycles=16 * 0.8 * cycles * sm_count,
                         issued=int(0.1 * cycles * sm_count * 4))


def timing(kernels, gap_us, period_ms=1000.0, sync_every=0, sync_gap_us=6.7, graph=False) -> StreamTiming:
    return StreamTiming(kernels=kernels, gap_us=gap_us, graph=graph, sync_every=sync_every, sync_gap_us=sync_gap_us,
                        nvml_period_ms=period_ms)


# -- hand-computed -------------------------------------------------------------------------

def test_fixed_gaps_read_kernel_over_kernel_plus_gap_in_every_period():
    """3 us kernels 1 us apart: every 1 ms period holds 250 whole kernels, 750 us busy: NVML reads 75%."""
    s = StreamResult(figures(3.0), timing(10_000, 1.0, period_ms=1.0))
    assert s.span_us == pytest.approx(10_000 * 3.0 + 9_999 * 1.0)
    assert s.nvml_windows == 39
    assert np.allclose(s.window_utilization(), 0.75, atol=1e-9)
    out = s.summary()
    assert out["nvml_utilization"] == pytest.approx(3.0 / (3.0 + 1.0), abs=1e-4)
    assert out["nvml_utilization"] == pytest.approx(30_000 / 39_999, rel=1e-12)
    assert out["nvml_min"] == pytest.approx(0.75) and out["nvml_max"] == pytest.approx(0.75)
    assert "39 complete NVML sample periods of 1 ms" in out["nvml_window_note"]
    # the SM-side figures scale by the same busy share
    assert out["sm_active"] == pytest.approx(0.8 * 30_000 / 39_999, rel=1e-12)
    assert out["achieved_occupancy"] == pytest.approx(16 / 64 * 0.8 * 30_000 / 39_999, rel=1e-12)
    assert out["issue_slot_utilization"] == pytest.approx(0.1 * 30_000 / 39_999, rel=1e-6)


def test_a_stream_shorter_than_one_period_is_read_over_its_span_and_says_so():
    s = StreamResult(figures(3.0), timing(10, 1.0, period_ms=1.0))
    out = s.summary()
    assert out["span_us"] == pytest.approx(39.0) and out["nvml_windows"] == 0
    assert out["nvml_utilization"] == pytest.approx(30 / 39)
    assert out["nvml_min"] is None and out["nvml_max"] is None
    note = out["nvml_window_note"]
    assert "shorter than one NVML sample period (1 ms)" in note and "over the stream's span" in note
    assert "would read 3%" in note  # 30 us busy in a 1,000 us period


def test_the_period_windows_see_uneven_readings_when_gaps_are_long():
    """A 1 ms kernel every 10 ms, read in 3 ms periods: a period holds a third of one kernel or nothing."""
    s = StreamResult(figures(1000.0), timing(10, 9000.0, period_ms=3.0))
    readings = s.window_utilization()
    assert s.nvml_windows == (10 * 1000 + 9 * 9000) // 3000 == len(readings) == 30
    # kernel 0 runs 0-1 ms (period 0), kernel 1 10-11 ms (period 3), kernel 2 20-21 ms (period 6) ...
    assert readings[:7] == pytest.approx([1 / 3, 0, 0, 1 / 3, 0, 0, 1 / 3])
    assert readings.max() == pytest.approx(1 / 3) and readings.min() == 0.0
    out = s.summary()
    assert out["nvml_utilization"] == pytest.approx(10_000 / 91_000)  # busy share of the span
    assert "read 0.0% to 33.3%" in out["nvml_window_note"] and "read as the stream ends" in out["nvml_window_note"]


def test_back_to_back_launches_read_100_percent():
    s = StreamResult(figures(3.0), timing(5000, 0.0, period_ms=1.0))
    out = s.summary()
    assert out["nvml_utilization"] == 1.0 and np.allclose(s.window_utilization(), 1.0)
    assert out["sm_active"] == pytest.approx(0.8)  # an SM is idle while its kernel launches blocks: not NVML's business


def test_sync_every_k_launches_adds_a_round_trip():
    """7 kernels, a sync after kernels 3 and 6: 7 x 3 us + 4 x 1 us + 2 x 5 us."""
    s = StreamResult(figures(3.0), timing(7, 1.0, sync_every=3, sync_gap_us=5.0))
    assert s.span_us == pytest.approx(21 + 4 + 10)
    starts, ends = s.kernel_intervals()
    assert starts == pytest.approx([0, 4, 8, 16, 20, 24, 32]) and ends == pytest.approx(starts + 3)
    six = StreamResult(figures(3.0), timing(6, 1.0, sync_every=3, sync_gap_us=5.0))
    assert six.span_us == pytest.approx(18 + 4 + 5)  # the sync after the last kernel is outside the span


def test_one_kernel_is_100_percent_over_its_own_duration(small):
    result, _ = small
    out = compose(result).summary()
    s = result.summary()
    assert out["kernels"] == 1 and out["span_us"] == pytest.approx(s["kernel_time_us"])
    assert out["nvml_utilization"] == 1.0 == s["kernel_active_fraction"]
    assert out["sm_active"] == pytest.approx(s["sm_active_fraction"], rel=1e-12)
    assert out["issue_slot_utilization"] == pytest.approx(s["issue_slot_utilization"], rel=1e-12)
    # occupancy over the span counts inactive SM-time as zero; Nsight's figure only active cycles
    assert out["achieved_occupancy"] == pytest.approx(s["achieved_occupancy"] * s["sm_active_fraction"], rel=1e-9)


def test_a_graph_reads_higher_than_plain_launches_for_the_same_work(small):
    result, scenario = small
    plain = compose(_with(result, scenario.with_overrides(["stream.kernels=1000"]))).summary()
    graph = compose(_with(result, scenario.with_overrides(["stream.kernels=1000", "stream.graph=true"]))).summary()
    assert graph["busy_us"] == pytest.approx(plain["busy_us"])
    assert graph["gap_us"] < plain["gap_us"] and graph["span_us"] < plain["span_us"]
    for key in ("nvml_utilization", "sm_active", "achieved_occupancy", "issue_slot_utilization"):
        assert graph[key] > plain[key], key


# -- a real kernel, and the brute-force composition ------------------------------------------

@pytest.fixture(scope="module")
def small():
    scenario = Scenario().with_values(**{"launch.grid": [16, 1, 1], "launch.block": [64, 1, 1], "workload.loop": 2})
    return simulate(scenario), scenario


def _with(result, scenario):
    """The same simulated kernel under another [stream] (only the stream differs: no re-simulation)."""
    return dataclasses.replace(result, scenario=scenario)


def _brute_force(result, t: StreamTiming):
    """Build the whole timeline in cycles, kernel by kernel, and read it directly."""
    clock = result.params.clock_mhz
    gap, sync = round(t.gap_us * clock), round(t.sync_gap_us * clock)
    assert gap == t.gap_us * clock and sync == t.sync_gap_us * clock, "choose whole-cycle gaps"
    starts, now = [], 0
    for i in range(t.kernels):
        starts.append(now)
        now += result.cycles + (sync if t.sync_every and (i + 1) % t.sync_every == 0 else gap)
    span = starts[-1] + result.cycles
    busy = np.zeros(span, dtype=bool)
    issued = np.zeros(span, dtype=np.int64)
    for s in starts:
        busy[s:s + result.cycles] = True
        issued[s:s + result.cycles] += result.issued
    r = result.residency
    composed = Residency.from_events(r.sm_count, np.concatenate([r.time + s for s in starts]),
                                     np.tile(r.sm, len(starts)), np.tile(r.delta, len(starts)))
    warp_cycles, active = composed.warp_cycles_and_active_cycles(span)
    p = result.params
    period = round(t.nvml_period_ms * 1000 * clock)
    windows = span // period
    readings = busy[:windows * period].reshape(windows, period).mean(axis=1) if windows else np.zeros(0)
    return {
        "span_us": span / clock,
        "nvml_utilization": busy.mean(),
        "readings": readings,
        "sm_active": active.sum() / (p.sm_count * span),
        "achieved_occupancy": warp_cycles.sum() / (p.sm_count * p.warps_per_sm * span),
        "issue_slot_utilization": issued.sum() / (p.sm_count * p.sub_partitions * span),
    }


@pytest.mark.parametrize(
    "t",
    [
        timing(5, 1.0),  # shorter than a period
        timing(7, 0.0, sync_every=3, sync_gap_us=5.0),  # back to back, with host syncs
        timing(3000, 1.0, period_ms=1.0, sync_every=50, sync_gap_us=5.0),  # several periods
    ],
    ids=["short", "syncs", "several-periods"],
)
def test_composition_equals_the_brute_force_timeline(small, t):
    result, _ = small
    s = StreamResult(KernelFigures.of(result), t)
    out, ref = s.summary(), _brute_force(result, t)
    for key in ("span_us", "nvml_utilization", "sm_active", "achieved_occupancy", "issue_slot_utilization"):
        assert out[key] == pytest.approx(ref[key], rel=1e-9), key
    assert out["nvml_windows"] == len(ref["readings"])
    assert s.window_utilization() == pytest.approx(ref["readings"], abs=1e-9)
    if len(ref["readings"]):
        assert out["nvml_min"] == pytest.approx(ref["readings"].min()) and out["nvml_windows"] >= 5


@settings(max_examples=100)
@given(n=st.integers(1, 200), gap=st.floats(0, 50), k=st.integers(0, 30), sync=st.floats(0, 200),
       kernel_us=st.floats(0.001, 100), probes=st.lists(st.floats(-10, 30_000), min_size=1, max_size=20))
def test_timeline_queries_match_an_explicit_cumulative_sum(n, gap, k, sync, kernel_us, probes):
    s = StreamResult(figures(kernel_us), timing(n, gap, sync_every=k, sync_gap_us=sync))
    K = s.kernel_us
    gaps = [sync if k and (i + 1) % k == 0 else gap for i in range(n - 1)]
    starts = np.concatenate([[0.0], np.cumsum(np.array(gaps) + K)]) if n > 1 else np.zeros(1)
    assert s.starts_us(np.arange(n)) == pytest.approx(starts, abs=1e-9 * (1 + starts[-1]))
    assert s.span_us == pytest.approx(starts[-1] + K)
    times = np.concatenate([np.array(probes), starts, starts + K])  # boundaries included
    expected = np.array([np.clip(t - starts, 0, K).sum() for t in times])
    assert s.busy_us(times) == pytest.approx(expected, abs=1e-6 * (1 + s.span_us))


@settings(max_examples=150)
@given(n=st.integers(1, 10**6), gap=st.floats(0, 1e4), k=st.integers(0, 10**6), sync=st.floats(0, 1e4),
       period=st.floats(1, 60_000))
def test_the_four_readings_are_ordered_whatever_the_stream(small, n, gap, k, sync, period):
    """NVML >= SM active >= occupancy and issue slots: SMs are active only while a kernel runs."""
    result, _ = small
    out = StreamResult(KernelFigures.of(result), timing(n, gap, period, k, sync)).summary()
    assert 0 < out["sm_active"] <= out["nvml_utilization"] <= 1
    assert 0 < out["achieved_occupancy"] <= out["sm_active"]
    assert 0 < out["issue_slot_utilization"] <= out["sm_active"]
    if out["nvml_windows"]:
        assert 0 <= out["nvml_min"] <= out["nvml_max"] <= 1


def test_a_million_launches_cost_one_simulation(small, monkeypatch):
    """Composition reads the one result; nothing simulates again, and the views stay bounded."""
    import explorer.sim.engine as engine

    result, scenario = small
    monkeypatch.setattr(engine, "run_cycles", lambda *a, **k: pytest.fail("the stream simulated again"))
    s = compose(_with(result, scenario.with_overrides(["stream.kernels=1000000", "stream.launch_gap_us=1000",
                                                                  "stream.nvml_period_ms=1"])))
    out = s.summary()
    assert out["kernels"] == 10**6 and out["nvml_windows"] > MAX_VIEW
    assert len(s.kernel_intervals()[0]) == MAX_VIEW and len(s.readings) == MAX_VIEW
    assert "the first 100,000" in out["nvml_window_note"]


def test_which_kernel_runs_when():
    """Whole-microsecond figures, so every boundary is exact: 3 us kernels, 1 us gaps, a 5 us sync after every 3rd."""
    s = StreamResult(figures(3.0), timing(7, 1.0, sync_every=3, sync_gap_us=5.0))
    # starts 0, 4, 8, 16, 20, 24, 32
    times = [-1, 0, 3.5, 4, 11, 15.9, 16, 31, 32, 1e9]
    assert s.last_started(times).tolist() == [-1, 0, 0, 1, 2, 2, 3, 5, 6, 6]
    assert s.busy_us(times) == pytest.approx([0, 0, 3, 3, 9, 9, 9, 18, 18, 21])
