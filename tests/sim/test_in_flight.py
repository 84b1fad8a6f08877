"""In-flight fills at L2 (kernel._l2_lookup, kernel._fill), on the loop's own helpers: a read of a sector whose
fill from device memory has not landed counts as a hit but returns that fill's landing; a miss on another sector
of the same line while the first fill is outstanding joins it (one outstanding fill per line: its sectors, its
latest landing); a landed fill is history; a store (no read) never waits. Hand-computed on an empty 8-set,
4-way L2; the whole loop's case (every warp reading one sector) is tests/sim/test_kernel_caches.py's."""

from __future__ import annotations

import numpy as np

from explorer.sim import kernel as K

WAYS, SETS = 4, 8


def _l2():
    return np.zeros((WAYS * SETS, 3), np.int64), np.zeros(WAYS * SETS, np.int64)


def _lookup(l2c, l2f, line, sectors, t, reads=True):
    """(sectors to fetch, entry, the landing a hit waits for) of one lookup at cycle t."""
    g = np.zeros(len(K.G), np.int64)
    cfg_i = np.zeros(len(K.CFG_I), np.int64)
    cfg_i[K.CFG_I.DRAM_WRITEBACK_BURST_BYTES] = 1 << 40  # an evicted dirty sector waits in the write queue
    miss, _rng, e, pending = K._l2_lookup(
        l2c, l2f, np.int64(line), np.int64(sectors), reads, not reads, np.int64(t), np.int64(t) << K.L2_AGE_SHIFT,
        SETS, WAYS, 1.0 / SETS, np.zeros((64, 16)), np.zeros((8, 3)), g, np.zeros(64), np.uint64(1),
        np.zeros(len(K.MEM)), cfg_i, np.zeros(len(K.CFG_F)), 0, 10)
    return int(miss), int(e), int(pending)


def test_a_hit_on_a_fill_on_its_way_waits_for_it_and_not_after_it_lands():
    l2c, l2f = _l2()
    miss, e, pending = _lookup(l2c, l2f, 5, 0b0011, 100)
    assert (miss, pending) == (0b0011, 0)  # a cold line: both sectors come from device memory
    K._fill(l2c, l2f, e, miss, 100, 800)  # ... back to their requester at cycle 800
    assert _lookup(l2c, l2f, 5, 0b0001, 150) == (0, e, 800)  # a hit that waits for the fill
    assert _lookup(l2c, l2f, 5, 0b0001, 800) == (0, e, 0)  # landed: an ordinary hit
    assert _lookup(l2c, l2f, 5, 0b0011, 900) == (0, e, 0)


def test_a_second_miss_on_the_line_joins_the_outstanding_fill():
    l2c, l2f = _l2()
    miss, e, _ = _lookup(l2c, l2f, 9, 0b0001, 100)
    K._fill(l2c, l2f, e, miss, 100, 700)
    miss2, e2, pending = _lookup(l2c, l2f, 9, 0b0100, 120)  # another sector: a miss of its own
    assert (miss2, e2, pending) == (0b0100, e, 0)
    K._fill(l2c, l2f, e, miss2, 120, 760)
    assert _lookup(l2c, l2f, 9, 0b0100, 130)[2] == 760
    assert _lookup(l2c, l2f, 9, 0b0001, 130)[2] == 760  # one fill per line: the first sector waits with it
    assert _lookup(l2c, l2f, 9, 0b0010, 130)[0] == 0b0010  # a sector never asked for is still a miss
    # after the landing a new miss starts a new fill of its own sectors only
    miss3, _, _ = _lookup(l2c, l2f, 9, 0b1000, 1000)
    K._fill(l2c, l2f, e, miss3, 1000, 1600)
    assert _lookup(l2c, l2f, 9, 0b0001, 1001)[2] == 0
    assert _lookup(l2c, l2f, 9, 0b1000, 1001)[2] == 1600


def test_a_store_never_waits_and_an_evicted_line_forgets_its_fill():
    l2c, l2f = _l2()
    miss, e, _ = _lookup(l2c, l2f, 3, 0b0001, 100)
    K._fill(l2c, l2f, e, miss, 100, 900)
    assert _lookup(l2c, l2f, 3, 0b0001, 200, reads=False) == (0, e, 0)  # a store writes without a fetch
    # lines of the same set (set index: line ^ line >> 13 ^ line >> 26, mod 8) push line 3 out (4 ways, LRU)
    others = [3 + SETS * k for k in range(1, WAYS + 1)]
    for k, line in enumerate(others):
        _lookup(l2c, l2f, line, 0b0001, 300 + k)
    miss, e3, pending = _lookup(l2c, l2f, 3, 0b0001, 400)
    assert (miss, pending) == (0b0001, 0) and l2f[e3] == 0  # a new miss; the old fill went with the old line
