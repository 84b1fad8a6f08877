"""Global stores are posted (resources/sim_model.toml [stores]): a warp's exit waits only until
its stores have left the SM's L1TEX, never for the DRAM round trip; their bytes still count.

Hand-computed on one warp of an H100 whose stores all go to device memory (no L2 hits):
the store issues at cycle c0; its 128-byte request is one L1TEX wavefront (128 B per cycle),
so it leaves L1TEX at c0 + 1; EXIT issues at c0 + 1 and the warp leaves at the next cycle.
Before this rule the warp waited in ``drain`` until DRAM answered: c0 + 1 + lat_dram (an empty
L2 queue and an idle bank add nothing). The kernel itself still waits for its stores: it ends
once L2 has acknowledged them, with device memory at most a full L2 of lines behind.
"""

import math
from dataclasses import replace

import pytest

from explorer.model.scenario import Scenario

from explorer.sim import simulate
from explorer.sim.params import params_for
from explorer.sim.states import DRAIN
from explorer.model.units import DRAM, L2
from tests.sim.programs import issue_cycles, one_warp, program, row


def _run(req: int, posted: bool = True):
    s = one_warp(**{"workload.l2_hit_rate": 0.0})
    prog = program([row("stg", src=["R0"], req=req)])
    params = replace(params_for(s), posted_stores=int(posted))
    return simulate(s, program=prog, params=params)


def test_a_store_does_not_hold_the_warp_until_dram_answers():
    r = _run(128)
    c0 = issue_cycles(r)[0]
    assert int(r.blocks.end[0]) == c0 + 2  # left L1TEX at c0 + 1, EXIT issued then, gone the next cycle
    assert r.stall_by_instruction[:, DRAIN].sum() == 0
    # the bytes still crossed L2 and device memory
    assert r.memory_bytes["dram"] == 128
    busy = r.unit_busy_cycles.sum(axis=0)
    assert busy[L2] > 0 and busy[DRAM] > 0


def test_exit_waits_for_the_store_to_leave_l1tex():
    # 4,096 bytes: 32 wavefronts, the last leaves L1TEX at c0 + 32; the warp drains until then
    r = _run(4096)
    c0 = issue_cycles(r)[0]
    assert int(r.blocks.end[0]) == c0 + 32
    assert r.stall_by_instruction[-1, DRAIN] == 32 - 2  # EXIT issued at c0 + 1, drain from c0 + 2
    assert r.memory_bytes["dram"] == 4096


def test_the_old_rule_waited_for_the_dram_round_trip():
    r = _run(128, posted=False)
    c0 = issue_cycles(r)[0]
    p = r.params
    # lat_dram is a read's; a write's line crosses the bus at the write rate (a little slower)
    row_open = 0.5 * p.dram_row_cycles
    read_bus = 128 * p.dram_channels / p.dram_read_bytes_per_cycle
    write_bus = 128 * p.dram_channels / p.dram_write_bytes_per_cycle
    fixed = p.lat_dram - math.ceil(row_open + read_bus)
    assert int(r.blocks.end[0]) == c0 + 1 + fixed + math.ceil(row_open + write_bus)


def test_the_kernel_ends_when_l2_has_acknowledged_its_stores():
    """The kernel (not the warp) waits for its stores: it left L1TEX at c0 + 1 into an empty L2 queue, so
    L2 acknowledges it an L2 round trip later; device memory's write of the line (a few cycles on its bank)
    may follow the kernel's end, L2 being write-back."""
    r = _run(128)
    c0 = issue_cycles(r)[0]
    assert r.cycles == c0 + 1 + r.params.lat_l2
    assert r.summary()["store_tail_cycles"] == r.params.lat_l2 - 1
    assert (r.unit_fraction() <= 1).all()


def test_a_store_stream_stays_dirty_in_l2_until_it_is_evicted():
    """L2 is write-back (resources/sim_model.toml [caches]): 264 blocks x 256 threads writing 16 B x 4 x 4 each
    (17,301,504 B) fit in an H100's 50 MB L2: no byte reaches device memory during the kernel, which ends when
    L2 has acknowledged the last store. Four times as many (69 MB) overflow it: what L2 cannot hold is evicted
    and written back, about the stream less L2's capacity (its hashed sets fill unevenly: within 10%)."""
    def stream(loop):
        return Scenario().with_values(**{
            "gpu": "H100", "program": "model", "launch.grid": [264, 1, 1], "launch.block": [256, 1, 1],
            "workload.body": [{"op": "stg", "bytes": 16, "count": 4}], "workload.loop": loop})

    fits = simulate(stream(4))
    assert fits.memory["dram_bytes"] == 0 and fits.memory["dram_write_bytes"] == 0
    sectors = 264 * 256 * 16 * 4 * 4 // 32
    assert fits.memory["l2_hit_sectors"] == sectors  # a store's sectors are written without a fetch
    # the warps leave fast (posted stores), the kernel when L2 has taken every byte at its bandwidth and
    # acknowledged the last
    p = fits.params
    through_l2 = sectors * 32 / p.l2_bytes_per_cycle
    assert int(fits.blocks.end.max()) < through_l2 <= fits.cycles <= through_l2 + p.lat_l2 + 64
    big = simulate(stream(16))
    written = 264 * 256 * 16 * 4 * 16
    assert big.memory["dram_write_bytes"] == pytest.approx(written - big.params.l2_bytes, rel=0.10)
    for r in (fits, big):
        assert (r.unit_fraction() <= 1 + 1e-9).all() and (r.unit_busy[:, DRAM] <= 1 + 1e-6).all()
