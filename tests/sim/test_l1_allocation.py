"""Which global loads leave their line in L1 when they miss there (resources/sim_model.toml [caches]), and what
that does to the schedulers (issue 29 item 5).

A plain load (SASS ``LDG.E``) does not: measured on the H200 (l1_allocates_loads = false). A read-only load
(``ld.global.nc``, ``__ldg``, a ``const __restrict__`` pointer: ``LDG.E.CONSTANT``) or one cached at all levels on
request (``ld.global.ca``, ``-dlcm=ca``: ``LDG.E.STRONG.SM``) does: the CUDA Programming Guide. The references are
hand-computed from the access patterns; the SASS spellings are nvdisasm's (CUDA 13.0, sm_80 and sm_90).
"""

from __future__ import annotations

import pytest

from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario
from explorer.sass.build import allocates_in_l1
from explorer.sass.listing import parse_instruction
from explorer.sim.engine import simulate
from tests.execute.cases import buf
from tests.sass.support import needs_sass


@pytest.mark.parametrize("text,keeps", [
    ("LDG.E.CONSTANT R4, desc[UR4][R4.64]", True),  # __ldg, ld.global.nc
    ("LDG.E.128.CONSTANT R4, desc[UR4][R4.64]", True),
    ("LDG.E.EL.CONSTANT R17, desc[UR4][R2.64+0x700]", True),  # ld.global.nc.L1::evict_last
    ("LDG.E.NA.CONSTANT R18, desc[UR4][R2.64+0x800]", False),  # ld.global.nc.L1::no_allocate
    ("LDG.E.STRONG.SM R8, desc[UR4][R2.64+0x100]", True),  # ld.global.ca, -Xptxas -dlcm=ca
    ("LDG.E R11, desc[UR4][R2.64+0x300]", False),  # a plain load
    ("LDG.E.128 R4, [R2.64]", False),
    ("LDG.E.STRONG.GPU R10, desc[UR4][R2.64+0x200]", False),  # ld.global.cg
    ("LDG.E.STRONG.SYS R14, desc[UR4][R2.64+0x600]", False),  # ld.global.cv
    ("LDG.E.EF R12, desc[UR4][R2.64+0x400]", False),  # ld.global.cs
    ("LDG.E.LU R13, desc[UR4][R2.64+0x500]", False),  # ld.global.lu
    ("LDS R4, [R2]", False),
    ("STG.E desc[UR4][R4.64], R17", False),
])
def test_the_loads_that_allocate_in_l1_by_their_sass_modifiers(text, keeps):
    assert allocates_in_l1(parse_instruction(0, text)) is keeps


def _one_warp(read_only: bool, program: str, wrap: int = 2) -> Scenario:
    """One warp on an H100: 4 iterations of a coalesced 4-byte load (one 128-byte line, 4 sectors) and an FMA,
    its addresses repeating every ``wrap`` iterations."""
    return Scenario.from_dict({
        "name": "one-warp", "gpu": "H100", "seed": 1, "program": program,
        "launch": {"grid": [1, 1, 1], "block": [32, 1, 1]},
        "workload": {"loop": 4, "wrap": wrap, "body": [{"op": "ldg", "bytes": 4, "read_only": read_only},
                                                       {"op": "ffma"}]}})


def _hand_case(program: str):
    # wrap 2: iterations 0 and 1 read two new lines (8 sectors miss L1 and L2), iterations 2 and 3 the same two
    # lines again. Read-only: L1 kept them, 8 sectors hit L1 and only the 8 first ones cross L2. Plain: L1 kept
    # nothing, all 16 miss L1, and the second 8 hit L2 (the first reads brought them there).
    ro = simulate(_one_warp(True, program)).memory
    plain = simulate(_one_warp(False, program)).memory
    assert (ro["l1_hit_sectors"], ro["l1_miss_sectors"], ro["l2_hit_sectors"], ro["l2_miss_sectors"]) == (8, 8, 0, 8)
    assert (plain["l1_hit_sectors"], plain["l1_miss_sectors"], plain["l2_hit_sectors"],
            plain["l2_miss_sectors"]) == (0, 16, 8, 8)
    assert ro["dram_read_bytes"] == plain["dram_read_bytes"] == 2 * 128


def test_a_read_only_load_hits_l1_after_its_first_miss_and_a_plain_one_does_not_model():
    _hand_case("model")


@needs_sass
def test_a_read_only_load_hits_l1_after_its_first_miss_and_a_plain_one_does_not_sass():
    """The generated kernel's read-only load is ld.global.nc: LDG.E.CONSTANT in its SASS, the same rule."""
    from explorer.sass.kernel_program import sass_program

    listing = sass_program(_one_warp(True, "sass")).listing
    assert any(row.opcode == "LDG" and "CONSTANT" in row.text for row in listing)
    _hand_case("sass")


@needs_sass
def test_a_user_kernels_ldg_constant_allocates_in_l1_and_its_plain_ldg_does_not():
    """Every lane of every warp reads in[0] (stride 0): one sector. With __ldg the first warp on each SM misses L1
    and leaves the line there, every later warp on that SM hits it; L2 sees one miss (the first SM's) and a hit
    from each other SM. The plain load (copy.cu) never hits L1: every warp's read crosses to L2."""
    from tests.sim.test_kernel_timing import KERNELS, scenario, timed

    n = 64 * 1024
    warps = n // 32
    blocks = n // 256  # 256 blocks: every one of the H100's 132 SMs gets at least one
    sms = 132
    stores = n * 4 // 32  # out[]: sectors written through L1 into L2
    for file, name, l1_hits in (("readonly.cu", "copy_strided_ldg", warps - sms), ("copy.cu", "copy_strided", 0)):
        assert (KERNELS / file).exists()
        args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n, "stride": 0}
        r, _ = timed(scenario(file, name, args, (blocks, 1, 1), (256, 1, 1)))
        m = r.memory
        l2_reads = warps - l1_hits  # the loads' sectors that missed L1
        assert m["l1_hit_sectors"] == l1_hits and m["l1_miss_sectors"] == l2_reads + stores, name
        assert m["l2_miss_sectors"] == 1 and m["l2_hit_sectors"] == l2_reads - 1 + stores, name


def _policies(sc: Scenario):
    return [simulate(sc.with_values(**{"scheduler.policy": p})) for p in ("gto", "lrr")]


@pytest.mark.parametrize("program", ["model", pytest.param("sass", marks=needs_sass)])
def test_gto_keeps_the_cache_sensitive_working_sets_in_l1_and_finishes_first(program):
    """64 warps x 1 KB per SM against 28 KB of L1: LRR rotates through all of them and thrashes (its misses fill
    L2's bandwidth); GTO keeps issuing the oldest ready warps, whose lines stay and hit (Rogers et al. 2012)."""
    sc = load_preset("cache-sensitive").with_values(program=program)
    assert sc.workload.body[0].read_only and sc.workload.wrap == 2
    gto, lrr = _policies(sc)
    assert gto.warp_instructions == lrr.warp_instructions
    hit = [r.cache_counters()["l1tex__t_sector_hit_rate"] for r in (gto, lrr)]
    assert hit[0] > 75.0 and hit[1] < 10.0, hit
    assert gto.cycles < 0.97 * lrr.cycles, (gto.cycles, lrr.cycles)
    assert lrr.summary()["bottleneck"]["unit"] == "l2" and gto.summary()["bottleneck"]["unit"] == "issue"


def test_without_read_only_loads_l1_keeps_nothing_and_the_policies_see_the_same_caches():
    """The same kernel with plain loads: no line stays in L1 under either policy, and L2 sees the same sectors
    (each line missed once, then hit): the policies no longer differ in what the caches do."""
    sc = load_preset("cache-sensitive").with_values(program="model")
    body = [{"op": "ldg", "bytes": 16}, {"op": "ffma", "count": 20, "ilp": 4}]
    plain = Scenario.from_dict({**sc.to_dict(), "workload": {**sc.workload.to_dict(), "body": body}})
    gto, lrr = _policies(plain)
    for r in (gto, lrr):
        m = r.memory
        assert m["l1_hit_sectors"] == 0
        lines = r.params.total_blocks * r.params.warps_per_block * 2 * 4  # 2 iterations' lines, 4 per 16-byte load
        assert m["l2_miss_sectors"] == 4 * lines
    assert gto.memory["l2_hit_sectors"] == lrr.memory["l2_hit_sectors"]
