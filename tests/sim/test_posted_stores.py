"""Global stores are posted (resources/sim_model.toml [stores]): a warp's exit waits only until
its stores have left the SM's L1TEX, never for the DRAM round trip; their bytes still count.

Hand-computed on one warp of an H100 whose stores all go to device memory (no L2 hits):
the store issues at cycle c0; its 128-byte request is one L1TEX wavefront (128 B per cycle),
so it leaves L1TEX at c0 + 1; EXIT issues at c0 + 1 and the warp leaves at the next cycle.
Before this rule the warp waited in ``drain`` until DRAM answered: c0 + 1 + lat_dram (an empty
L2 queue and an idle bank add nothing).
"""

from dataclasses import replace

from explorer.sim import simulate
from explorer.sim.params import params_for
from explorer.sim.states import DRAIN
from explorer.sim.units import DRAM, L2
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
    assert r.cycles == c0 + 2 < r.params.lat_dram / 10  # the run ends when its last warp left
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
    assert int(r.blocks.end[0]) == c0 + 1 + r.params.lat_dram
