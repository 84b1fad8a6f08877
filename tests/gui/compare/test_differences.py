"""The A/B table's figures and the compare session, Qt-free: hand-computed differences and frames.

``differences`` and ``session`` import no Qt (checked in a child process that cannot
import PySide6); the figures are checked against values worked out by hand from
small summaries written here, and against a real simulator summary.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.gui.compare.differences import (
    ROWS,
    Bandwidth,
    Bottleneck,
    bottleneck_of,
    differences,
    scenario_changes,
    speedup,
)
from explorer.gui.compare.session import CompareSession, SideFrame, position_of, side_frame
from explorer.model.presets import load_preset

ROOT = Path(__file__).resolve().parents[3]

A = {
    "cycles": 1000, "kernel_time_us": 0.5, "theoretical_occupancy": 0.25, "achieved_occupancy": 0.2,
    "issue_slot_utilization": 0.1, "dram_bandwidth_gbs": 1000.0, "limiters": ["registers"],
    "warp_state_cycles": {"selected": 100, "not_selected": 10, "long_scoreboard": 800, "wait": 50, "barrier": 0},
}
B = {
    "cycles": 800, "kernel_time_us": 0.4, "theoretical_occupancy": 0.5, "achieved_occupancy": 0.45,
    "issue_slot_utilization": 0.125, "dram_bandwidth_gbs": 2500.0, "limiters": ["warps", "registers"],
    "warp_state_cycles": {"selected": 125, "not_selected": 900, "long_scoreboard": 300, "wait": 400},
}
PEAK = 3350.0  # H100 SXM, GB/s


def by_key(rows):
    return {d.key: d for d in rows}


def test_the_modules_import_without_qt():
    code = ("import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None\n"
            "import explorer.gui.compare.differences, explorer.gui.compare.session\n"
            "assert not any(m.startswith('PySide6') for m in sys.modules if sys.modules[m] is not None)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_differences_against_hand_computed_values():
    rows = differences(A, B, (PEAK, PEAK))
    assert [d.key for d in rows] == list(ROWS)
    d = by_key(rows)
    assert (d["cycles"].a, d["cycles"].b, d["cycles"].delta, d["cycles"].ratio) == (1000, 800, -200, 0.8)
    assert d["time_us"].delta == pytest.approx(-0.1) and d["time_us"].ratio == pytest.approx(0.8)
    assert speedup(A, B) == pytest.approx(1.25)
    assert d["theoretical_occupancy"].delta == pytest.approx(0.25) and d["theoretical_occupancy"].ratio == 2.0
    assert d["achieved_occupancy"].delta == pytest.approx(0.25) and d["achieved_occupancy"].ratio == 2.25
    assert d["issue_slot_utilization"].delta == pytest.approx(0.025)
    assert d["limiters"].changed and d["limiters"].a == ("registers",) and d["limiters"].b == ("warps", "registers")
    bw = d["dram_bandwidth"]
    assert bw.a == Bandwidth(1000.0, 1000 / 3350) and bw.b == Bandwidth(2500.0, 2500 / 3350)
    assert (bw.delta, bw.ratio) == (1500.0, 2.5)
    # A: 30% of DRAM's peak and 10% of issue: latency, waiting mostly on memory (800 of 850 waiting warp-cycles);
    # B: 2500/3350 = 75% of DRAM's peak, past the 60% rule: DRAM-bound
    bn = d["bottleneck"]
    assert bn.a == Bottleneck("latency", 1000 / 3350, "long_scoreboard", "warp states")
    assert bn.b == Bottleneck("dram", 2500 / 3350, None, "warp states")
    assert bn.changed and all(x.changed for x in rows)


def test_without_a_peak_the_bandwidth_has_no_share_and_only_issue_use_decides():
    d = by_key(differences(A, B))
    assert d["dram_bandwidth"].b.share is None
    assert d["bottleneck"].b == Bottleneck("latency", 0.125, "wait", "warp states")  # wait 400 > long_sb 300


def test_the_simulators_own_bottleneck_and_throughput_win():
    own = dict(B, bottleneck={"unit": "tensor", "pct_of_peak": 87.0, "why": "Tensor Cores at 87%"},
               throughput={"dram": {"pct_of_peak": 12.5, "achieved": 4.2e11, "peak": 3.35e12}})
    assert bottleneck_of(own, PEAK) == Bottleneck("tensor", 0.87, None, "simulator")
    row = by_key(differences(A, own, (PEAK, PEAK)))["dram_bandwidth"]
    assert row.b == Bandwidth(2500.0, 0.125)  # the simulator's share, not 2500/3350
    latency = dict(A, bottleneck={"unit": "latency", "pct_of_peak": 31.0})
    assert bottleneck_of(latency) == Bottleneck("latency", 0.31, "long_scoreboard", "simulator")


def test_issue_bound_when_the_schedulers_issue_most_cycles():
    busy = dict(A, issue_slot_utilization=0.72)
    assert bottleneck_of(busy, PEAK) == Bottleneck("issue", 0.72, None, "warp states")
    assert bottleneck_of(dict(A, warp_state_cycles={"selected": 5}), None).waiting_for is None


def test_the_same_summary_twice_differs_in_nothing():
    rows = differences(A, dict(A), (PEAK, PEAK))
    assert not any(d.changed for d in rows)
    assert all(d.delta == 0 and d.ratio == 1 for d in rows if d.delta is not None)


def test_a_zero_on_the_a_side_gives_no_ratio():
    d = by_key(differences(dict(A, dram_bandwidth_gbs=0.0, issue_slot_utilization=0.0), B))
    assert d["dram_bandwidth"].ratio is None and d["issue_slot_utilization"].ratio is None
    assert d["dram_bandwidth"].delta == 2500.0


share = st.floats(0.0, 1.0, allow_nan=False, allow_subnormal=False)
positive = st.floats(1e-3, 1e6, allow_nan=False)


@st.composite
def summaries(draw):
    return {"cycles": draw(st.integers(1, 10**7)), "kernel_time_us": draw(positive),
            "theoretical_occupancy": draw(share), "achieved_occupancy": draw(share),
            "issue_slot_utilization": draw(share), "dram_bandwidth_gbs": draw(positive),
            "limiters": draw(st.lists(st.sampled_from(["warps", "registers", "shared_memory"]), max_size=2)),
            "warp_state_cycles": draw(st.dictionaries(st.sampled_from(["selected", "wait", "long_scoreboard"]),
                                                      st.integers(0, 10**6)))}


@given(summaries(), summaries())
def test_swapping_a_and_b_mirrors_every_difference(a, b):
    ab, ba = by_key(differences(a, b, (PEAK, PEAK))), by_key(differences(b, a, (PEAK, PEAK)))
    for key in ROWS:
        x, y = ab[key], ba[key]
        assert (x.a, x.b, x.changed) == (y.b, y.a, y.changed)
        if x.delta is not None:
            assert x.delta == -y.delta
        if x.ratio is not None and y.ratio is not None:
            assert math.isclose(x.ratio * y.ratio, 1.0, rel_tol=1e-9)
        for r in (x.ratio, y.ratio):
            assert r is None or math.isfinite(r)


def test_a_real_summary_has_every_figure_the_table_reads():
    from explorer.sim import simulate

    summary = simulate(load_preset("example-240x256")).summary()
    d = by_key(differences(summary, summary, (3350.0, 3350.0)))
    assert d["cycles"].a == summary["cycles"]
    assert d["dram_bandwidth"].a.share == pytest.approx(summary["dram_bandwidth_gbs"] / 3350.0)
    # the mission's example: ~5% of issue slots, ~1.5 TB/s of 3.35: latency, waiting on HBM
    assert d["bottleneck"].a.unit == "latency" and d["bottleneck"].a.waiting_for == "long_scoreboard"


# -- what the scenarios differ in ---------------------------------------------------------
def test_scenario_changes_name_the_changed_keys_only():
    base = load_preset("example-240x256")
    other = base.with_overrides(["launch.registers_per_thread=64", "launch.grid=[480,1,1]", "seed=2"])
    other = other.with_values(name="renamed", description="another text")
    changes = scenario_changes(base.to_dict(), other.to_dict())
    assert changes == [("seed", "1", "2"), ("launch.grid", "[240, 1, 1]", "[480, 1, 1]"),
                       ("launch.registers_per_thread", "32", "64")]  # in the scenario's own order
    assert scenario_changes(base.to_dict(), base.to_dict()) == []


def test_scenario_changes_word_workload_bodies_and_missing_keys():
    a = {"workload": {"body": [{"op": "ldg", "count": 1}, {"op": "ffma", "count": 8}], "l2_hit_rate": 0.0}}
    b = {"workload": {"body": [{"op": "ldg", "count": 1}, {"op": "ffma", "count": 4}], "l2_hit_rate": 0.5},
         "stream": {"kernels": 4}}
    assert scenario_changes(a, b) == [("workload.body", "ldg, ffma×8", "ldg, ffma×4"),
                                      ("workload.l2_hit_rate", "0", "0.5"), ("stream.kernels", "–", "4")]


# -- the session: one position, two runs -------------------------------------------------------
class FakeRun:
    def __init__(self, cycles: int, sms: int = 132):
        self.cycles, self.sm_count = cycles, sms


def test_same_cycle_alignment_holds_a_finished_run_at_its_last_cycle():
    assert side_frame(30_000, 24_281, 80_824, "cycle") == SideFrame(24_280, True, 30_000)
    assert side_frame(24_280, 24_281, 80_824, "cycle") == SideFrame(24_280, False, 24_280)
    assert side_frame(500, 24_281, 80_824, "cycle") == SideFrame(500, False, 500)
    assert side_frame(10**9, 80_824, 80_824, "cycle") == SideFrame(80_823, False, 80_823)  # clamped to the timeline


def test_same_share_alignment_maps_by_fraction_and_back():
    # half-way through the 80,824-cycle timeline is half-way through the 24,281-cycle run
    assert side_frame(40_411, 24_281, 80_824, "progress") == SideFrame(12_140, False, 12_140)
    assert side_frame(80_823, 24_281, 80_824, "progress") == SideFrame(24_280, True, 24_280)
    # back: 12,140 × 80,823 / 24,280 = 40,411.5, which rounds to 40,412; that position shows cycle 12,140 again
    assert position_of(12_140, 24_281, 80_824, "progress") == 40_412
    assert side_frame(40_412, 24_281, 80_824, "progress").cycle == 12_140
    assert position_of(12_140, 24_281, 80_824, "cycle") == 12_140


def test_the_session_spans_the_longer_run_and_clamps_the_sm_per_side():
    s = CompareSession()
    seen = []
    s.runs_changed.connect(lambda: seen.append("runs"))
    s.position_changed.connect(lambda t: seen.append(t))
    assert not s.ready and s.length == 1 and s.frame("a") is None
    a, b = FakeRun(100, sms=132), FakeRun(40, sms=108)
    s.set_current(b)
    s.pin(a)
    assert s.ready and not s.same_run and s.length == 100
    s.set_position(70)
    assert s.frame("b") == SideFrame(39, True, 70) and s.frame("a") == SideFrame(70, False, 70)
    s.to_end()
    assert s.at_end and s.t == 99
    s.select_sm(120)
    assert (s.sm_for("a"), s.sm_for("b")) == (120, 107)
    s.unpin()
    assert s.length == 40 and s.t == 39 and seen.count("runs") == 3
    s.pin(b)
    assert s.same_run
    with pytest.raises(ValueError):
        s.set_alignment("diagonal")
