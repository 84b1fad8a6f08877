"""The overlay's numbers, without Qt: step curves equal the measurement's residency; huge grids are binned."""

from __future__ import annotations

import numpy as np

from explorer.gpu.measurement import load_measurement
from explorer.gui.measure import data as md
from explorer.timeline import BlockRecords, Residency
from tests.gui.gpu_support import FIXTURE


def test_resident_curve_is_the_residency_step_function():
    m = load_measurement(FIXTURE)
    curve = md.resident_curve(m)
    assert len(curve.x) == len(curve.y) + 1 and curve.x[0] == 0
    cycles = np.arange(0, m.cycles + 2)
    assert np.array_equal(curve.at(cycles), m.residency.total(cycles))
    per_sm = md.resident_curve(m, 7)
    assert np.array_equal(per_sm.at(cycles), m.residency.sample(cycles)[:, 7])
    assert md.sm_max_resident(m) == int(m.residency.sample(cycles).max())


def test_unfinished_curve_counts_warps_not_ended():
    m = load_measurement(FIXTURE)
    curve = md.unfinished_curve(m)
    cycles = np.arange(0, m.cycles + 2, 7)
    ended = (m.blocks.end[None, :] <= cycles[:, None]).sum(axis=1)
    assert np.array_equal(curve.at(cycles), (len(m.blocks) - ended) * m.warps_per_block)


class _Fake:
    """Just the fields the overlay reads."""

    def __init__(self, blocks: BlockRecords, residency: Residency, wpb: int, warps=None):
        self.blocks, self.residency, self.warps_per_block, self.warps = blocks, residency, wpb, warps
        self.sm_count = residency.sm_count

    @property
    def cycles(self):
        return int(self.blocks.end.max())


def test_per_warp_records_count_each_warp():
    blocks = BlockRecords(np.array([0, 1]), np.array([0, 1], np.int32), np.array([0, 0]), np.array([10, 20]))
    warps = {"end": np.array([4, 10, 15, 20])}
    res = Residency.from_blocks(2, blocks, 2)
    curve = md.unfinished_curve(_Fake(blocks, res, 2, warps))
    assert curve.at([0, 4, 9, 10, 15, 19, 20]).tolist() == [4, 3, 3, 2, 1, 1, 0]


def test_live_per_sm_and_blocks_on_an_sm():
    m = load_measurement(FIXTURE)
    warps, blocks = md.live_per_sm(m, 2000)
    assert np.array_equal(warps, m.residency.at(2000))
    live = m.blocks.live_at(2000)
    assert blocks.sum() == len(live)
    sm = int(m.blocks.sm[live[0]])
    assert set(md.blocks_live_on(m, 2000, sm).tolist()) == set(m.blocks.block[live][m.blocks.sm[live] == sm].tolist())


def test_a_huge_grid_is_binned_keeping_the_peaks(monkeypatch):
    monkeypatch.setattr(md, "MAX_CURVE_POINTS", 1000)
    n = 5000
    rng = np.random.default_rng(1)
    start = np.sort(rng.integers(0, 100_000, n))
    end = start + rng.integers(1, 500, n)
    blocks = BlockRecords(np.arange(n), np.zeros(n, np.int32), start, end)
    res = Residency.from_blocks(1, blocks, 1)
    curve = md.resident_curve(_Fake(blocks, res, 1))
    assert len(curve.y) == 500 and len(curve.x) == 501
    exact = res.total(np.arange(0, int(end.max()) + 1))
    assert curve.top == exact.max()  # the peak survives
    # every bin shows at least what the exact curve holds at the bin's end
    edges = curve.x[1:-1].astype(np.int64) - 1
    assert (curve.y[:-1] >= exact[np.clip(edges, 0, len(exact) - 1)]).all()
