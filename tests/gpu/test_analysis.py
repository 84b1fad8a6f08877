"""Measurement analysis on synthetic kernel records, against hand-computed residency and occupancy."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.gpu.analysis import RawRecords, align_cycles, analyze, clock_mhz_from_records, tick_from_deltas

T0 = 1_000_000  # globaltimer at the kernel's first warp (ns)
CLOCK_BASE = {4: 5_000, 10: 123_456}  # each SM's clock64 is its own counter


def words(rows, per_warp=True, mhz=1000.0, tick=0):
    """rows: (block, hw_sm, start_ns, end_ns) relative to T0 -> the kernel's u64[n, 8] record buffer."""
    out = np.zeros((len(rows), 8), np.uint64)
    f = mhz / 1000.0
    for i, (block, sm, s, e) in enumerate(rows):
        gs, ge = T0 + s, T0 + e
        if tick:  # the timer shows the last step at or before the true time
            gs, ge = gs - gs % tick, ge - ge % tick
        cs, ce = CLOCK_BASE[sm] + round(s * f), CLOCK_BASE[sm] + round(e * f)
        if per_warp:
            out[i, :4] = (gs, ge, cs, ce)
        else:
            out[i, :4] = (~np.uint64(gs), ge, ~np.uint64(cs), ce)
        out[i, 4] = sm | (sm << 32)
        out[i, 5] = i % 64
        out[i, 6] = 132
        out[i, 7] = block
    return out


# block 0 and 1 on SM 4, block 2 on SM 10; two warps each
WARPS = [
    (0, 4, 0, 100), (0, 4, 0, 80),
    (1, 4, 50, 150), (1, 4, 60, 150),
    (2, 10, 10, 110), (2, 10, 10, 110),
]


def test_per_warp_records_give_hand_computed_residency():
    raw = RawRecords.decode(words(WARPS), per_warp=True)
    a = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4)
    assert a.clock_mhz == pytest.approx(1000.0)
    assert a.alignment.startswith("clock64")
    assert list(a.sm_ids) == [4, 10]  # dense SM index -> hardware %smid
    b = a.blocks
    assert list(b.block) == [0, 1, 2]
    assert list(b.sm) == [0, 0, 1]
    assert list(b.start) == [0, 50, 10] and list(b.end) == [100, 150, 110]
    assert list(a.blocks_ns.start) == [0, 50, 10] and list(a.blocks_ns.end) == [100, 150, 110]
    assert a.cycles == 150 and a.duration_ns == 150
    # SM 4: 2 warps [0,50), 3 [50,60), 4 [60,80), 3 [80,100), 2 [100,150) -> 370 warp-cycles over 150
    # SM 10: 2 warps [10,110) -> 200 over 100.  (370 + 200) / (150 + 100) / 4 slots = 0.57
    warp_cycles, active = a.residency.warp_cycles_and_active_cycles()
    assert list(warp_cycles) == [370, 200] and list(active) == [150, 100]
    assert a.achieved_occupancy == pytest.approx(0.57)
    assert list(a.residency.at(65)) == [4, 2]
    assert list(a.residency.at(149)) == [2, 0]
    assert list(a.max_blocks_per_sm()) == [2, 1]
    assert list(a.blocks_per_sm()) == [2, 1]
    assert a.sm_active_fraction() == pytest.approx(250 / 300)
    assert a.warps is not None and list(a.warps["sm"]) == [0, 0, 0, 0, 1, 1]
    assert a.problems == ()


def test_per_block_records_fold_warps_with_inverted_starts():
    blocks = [(0, 4, 0, 100), (1, 4, 50, 150), (2, 10, 10, 110)]
    raw = RawRecords.decode(words(blocks, per_warp=False), per_warp=False)
    assert list(raw.start_ns - np.uint64(T0)) == [0, 50, 10]
    a = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4)
    # SM 4: 2 warps [0,50), 4 [50,100), 2 [100,150) = 400; SM 10: 200.  600 / 250 / 4 = 0.6
    assert a.achieved_occupancy == pytest.approx(0.6)
    assert list(a.blocks.start) == [0, 50, 10] and a.warps is None


def test_unused_sms_are_padded_to_the_device_count():
    raw = RawRecords.decode(words(WARPS), per_warp=True)
    a = analyze(raw, warps_per_block=2, device_sm_count=132, max_warps_per_sm=64)
    assert a.sm_count == 132 and list(a.sm_ids[:3]) == [4, 10, -1]
    assert a.residency.sm_count == 132


def test_clock_and_alignment_survive_a_coarse_globaltimer():
    rng = np.random.default_rng(7)
    rows = []
    for block in range(64):
        sm = (4, 10)[block % 2]
        s = int(rng.integers(0, 50_000))
        rows.append((block, sm, s, s + int(rng.integers(20_000, 40_000))))
    raw = RawRecords.decode(words(rows, mhz=1980.0, tick=1000), per_warp=True)
    assert clock_mhz_from_records(raw, tick_ns=1000) == pytest.approx(1980.0, rel=0.08)
    start, end, method = align_cycles(raw, 1980.0, tick_ns=1000)
    truth_s = np.array([r[2] for r in rows]) * 1.98
    truth_e = np.array([r[3] for r in rows]) * 1.98
    truth_s -= truth_s.min()
    truth_e -= np.array([r[2] for r in rows]).min() * 1.98
    # within an SM, durations are exact (clock64); across SMs, aligned to within a timer step
    assert np.abs((end - start) - (truth_e - truth_s)).max() <= 1
    assert np.abs(start - truth_s).max() <= 1.98 * 1000
    assert method.startswith("clock64")


def test_a_warp_that_moved_sm_falls_back_to_the_globaltimer():
    w = words(WARPS)
    w[0, 4] = 4 | (10 << 32)  # started on SM 4, ended on SM 10 (preempted and resumed)
    raw = RawRecords.decode(w, per_warp=True)
    a = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4, clock_mhz=1000.0)
    assert a.alignment.startswith("globaltimer")
    assert list(a.blocks.start) == [0, 50, 10]


def test_unwritten_records_are_reported():
    w = words(WARPS)
    w[3, :4] = 0
    raw = RawRecords.decode(w, per_warp=True)
    assert any("never written" in p for p in raw.problems())


def test_tick_from_deltas():
    t = tick_from_deltas(np.array([32, 32, 64, 32, 0, 32]))
    assert t["tick_ns"] == 32 and t["min_ns"] == 32 and t["changes"] == 5
    assert tick_from_deltas(np.array([]))["tick_ns"] is None


def test_short_kernels_on_a_coarse_timer_take_the_probe_clock():
    # 150 ns of records on a 1 us timer: the records cannot tell the clock; the probe kernel can
    raw = RawRecords.decode(words(WARPS, mhz=1000.0), per_warp=True)
    a = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4, tick_ns=1000.0,
                fallback_clock_mhz=1755.0)
    assert a.clock_mhz == 1755.0 and "timer-probe" in a.alignment
    b = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4, tick_ns=1.0,
                fallback_clock_mhz=1755.0)
    assert b.clock_mhz == pytest.approx(1000.0) and "clock from records" in b.alignment
