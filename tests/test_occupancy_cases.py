"""Hand-computed occupancy cases (worked out from NVIDIA's published rules)."""

import pytest

from explorer.model.catalog import get_gpu
from explorer.occupancy import Query, best_block_size, hints, sweep_registers, sweep_shared, sweep_threads
from explorer.occupancy import theoretical_occupancy as occ


def test_mission_example_h100_32_registers():
    # 256 threads = 8 warps; 32 regs x 32 lanes = 1024 regs per warp (a multiple of 256);
    # 65536 / 4 sub-partitions = 16384 -> 16 warps each -> 64 warps -> 8 blocks. Warp slots:
    # 64 / 8 = 8 blocks. Both bind: 8 blocks, 64 warps, 100%.
    r = occ(get_gpu("H100"), 256, 32)
    assert r.active_blocks_per_sm == 8
    assert r.active_warps_per_sm == 64
    assert r.occupancy == 1.0
    assert set(r.limiters) == {"warps", "registers"}
    # The launch: 240 blocks x 256 threads = 61,440 threads = 1,920 warps; 132 SMs x 8 blocks
    # = 1,056 resident blocks at most, so all 240 blocks are resident at once (one wave).
    assert 240 * 256 // 32 == 1920
    assert 240 <= 132 * r.active_blocks_per_sm


def test_register_rounding_33_vs_40():
    h100 = get_gpu("H100")
    # 33 regs -> 1056 per warp -> rounded to 1280 (5 x 256); 16384 // 1280 = 12 warps per
    # sub-partition -> 48 warps -> 6 blocks of 8 warps
    r33 = occ(h100, 256, 33)
    assert r33.allocated_registers_per_warp == 1280
    assert r33.active_blocks_per_sm == 6
    # 40 regs -> 1280 per warp exactly: the same allocation, the same 6 blocks
    r40 = occ(h100, 256, 40)
    assert r40.allocated_registers_per_warp == 1280
    assert r40.active_blocks_per_sm == 6
    # 41 -> 1312 -> 1536: 16384 // 1536 = 10 warps per sub-partition -> 40 -> 5 blocks
    assert occ(h100, 256, 41).active_blocks_per_sm == 5
    assert r33.limiters == ("registers",)


def test_register_allocation_is_per_sub_partition():
    # 1024 threads x 33 regs: 32 warps x 1280 = 40960 regs per block fits 65536, but per
    # sub-partition 16384 // 1280 = 12 warps, x4 = 48 warps < 64 -> only 1 block of 32 warps
    r = occ(get_gpu("A100"), 1024, 33)
    assert r.active_blocks_per_sm == 1
    assert r.occupancy == 0.5


def test_reserved_shared_memory_cc8_vs_none_cc7():
    # 0 B asked: on CC >= 8.0 each block still takes the 1 KB the driver reserves
    a100 = occ(get_gpu("A100"), 32, 16, 0, 0)
    assert a100.allocated_shared_per_block == 1024
    v100 = occ(get_gpu("V100"), 32, 16, 0, 0)
    assert v100.allocated_shared_per_block == 0
    assert v100.block_limits["shared_memory"] is None
    # 10,000 B on A100: 10000 + 1024 = 11024 -> rounded to 128 B: 11136; 164 KB // 11136 = 15
    r = occ(get_gpu("A100"), 64, 16, 0, 10000)
    assert r.allocated_shared_per_block == 11136
    assert r.block_limits["shared_memory"] == 167936 // 11136 == 15
    # on V100 the unit is 256 B and there is no reserve: 10000 -> 10240; 96 KB // 10240 = 9
    r = occ(get_gpu("V100"), 64, 16, 0, 10000)
    assert r.allocated_shared_per_block == 10240
    assert r.block_limits["shared_memory"] == 9


def test_carveout_rounds_up_to_next_supported_size():
    h100 = get_gpu("H100")
    # 50% of 228 KB = 114 KB -> next supported size 132 KB; block 20 KB + 1 KB = 21 KB -> 6 blocks
    r = occ(h100, 128, 32, 0, 20 * 1024, carveout=50)
    assert r.shared_per_sm_config == 132 * 1024
    assert r.block_limits["shared_memory"] == 6
    # carveout 0 -> 0 KB preferred, but one block must fit: raised to the next size (32 KB
    # holds 21 KB) -> 1 block
    r = occ(h100, 128, 32, 0, 20 * 1024, carveout=0)
    assert r.shared_per_sm_config == 32 * 1024
    assert r.active_blocks_per_sm == 1
    # Turing only has 32 or 64 KB: carveout 10% of 64 KB = 6.4 KB -> 32 KB
    assert occ(get_gpu("T4"), 128, 32, 0, 4096, carveout=10).shared_per_sm_config == 32 * 1024


def test_optin_limit():
    h100 = get_gpu("H100")
    # 227 KB dynamic + 1 KB reserved = 228 KB: exactly the opt-in limit, 1 block
    assert occ(h100, 128, 32, 0, 227 * 1024).active_blocks_per_sm == 1
    # one byte more fits nowhere
    r = occ(h100, 128, 32, 0, 227 * 1024 + 1)
    assert r.active_blocks_per_sm == 0
    assert r.limiters == ("shared_memory",)


@pytest.mark.parametrize(
    "gpu,blocks",
    [("A6000", 16), ("RTX4090", 24), ("L4", 24), ("RTX5090", 24), ("A100", 32), ("H100", 32), ("T4", 16)],
)
def test_block_slot_limits_per_cc(gpu, blocks):
    # 32-thread blocks with few registers: only the block-slot limit binds
    r = occ(get_gpu(gpu), 32, 16, 0, 0, barriers=0)
    assert r.active_blocks_per_sm == blocks
    assert "blocks" in r.limiters


def test_cc12_single_barrier_ties_with_block_slots():
    # CC 12.0 has one named-barrier set per block slot: a 1-barrier kernel ties at 24
    r = occ(get_gpu("RTX5090"), 32, 16, 0, 0, barriers=1)
    assert r.active_blocks_per_sm == 24
    assert set(r.limiters) == {"blocks", "barriers"}
    # CC 9.0 has two per slot: three barriers per block allow 64 // 3 = 21 blocks
    r = occ(get_gpu("H100"), 32, 16, 0, 0, barriers=3)
    assert r.active_blocks_per_sm == 21
    assert r.limiters == ("barriers",)
    # barriers do not limit before CC 9.0
    assert occ(get_gpu("A100"), 32, 16, 0, 0, barriers=16).active_blocks_per_sm == 32


def test_zero_block_configs_name_their_limiters():
    h100 = get_gpu("H100")
    r = occ(h100, 1025, 32)
    assert r.active_blocks_per_sm == 0 and r.limiters == ("warps",)
    r = occ(h100, 256, 257)
    assert r.active_blocks_per_sm == 0 and r.limiters == ("registers",)
    # 256 registers: above the hardware's 255 but NVIDIA's calculator accepts it (same
    # allocation as 255)
    assert occ(h100, 256, 256).active_blocks_per_sm == occ(h100, 256, 255).active_blocks_per_sm == 1
    # 1024 threads x 128 regs = 131072 registers > 65536 per block
    r = occ(h100, 1024, 128)
    assert r.active_blocks_per_sm == 0 and r.limiters == ("registers",)
    # two limiters at once
    r = occ(h100, 2048, 300)
    assert set(r.limiters) == {"warps", "registers"}


def test_warp_granularity_and_warps_limit():
    # 33 threads occupy 2 warps; T4 has 32 warps per SM -> 16 blocks by warps, 16 by slots
    r = occ(get_gpu("T4"), 33, 16)
    assert r.warps_per_block == 2
    assert r.active_blocks_per_sm == 16
    assert set(r.limiters) == {"warps", "blocks"}
    # 768 threads on a 48-warp SM: 2 blocks = 48 warps = 100%
    assert occ(get_gpu("RTX4090"), 768, 32).occupancy == 1.0


def test_sweeps_and_best_block_size():
    h100 = get_gpu("H100")
    q = Query(256, 64)
    regs = sweep_registers(h100, q)
    assert regs.xs[0] == 1 and regs.xs[-1] == 255
    assert regs.occupancy[regs.xs.index(32)] == 1.0
    assert regs.occupancy[regs.xs.index(64)] == 0.5
    assert regs.current_x == 64
    threads = sweep_threads(h100, q)
    assert threads.xs[0] == 32 and threads.xs[-1] == 1024
    # occupancy never rises with more registers (monotone non-increasing)
    assert all(a >= b for a, b in zip(regs.occupancy, regs.occupancy[1:]))
    smem = sweep_shared(h100, q)
    assert smem.xs[0] == 0 and smem.xs[-1] == 227 * 1024
    assert all(a >= b for a, b in zip(smem.occupancy, smem.occupancy[1:]))
    # with 64 registers any block size is register-bound at 32 warps: the largest wins ties
    size, blocks = best_block_size(h100, q)
    assert size * blocks == 1024
    assert best_block_size(h100, Query(256, 32)) == (1024, 2)


def test_hints_name_the_fix():
    h100 = get_gpu("H100")
    q = Query(256, 64)
    text = " ".join(hints(h100, q, occ(h100, 256, 64)))
    assert "Registers limit you to 4 blocks" in text
    assert "at most 48 registers" in text and "5 blocks" in text
    text = " ".join(hints(h100, Query(256, 300), occ(h100, 256, 300)))
    assert "cannot launch" in text
    text = " ".join(hints(h100, Query(32, 16), occ(h100, 32, 16)))
    assert "at most 32 blocks" in text and "64 threads" in text


def test_hints_are_templates_a_translator_can_fill():
    from explorer.occupancy import hint_items
    from explorer.occupancy.hints import STATE, TEMPLATES

    h100 = get_gpu("H100")
    items = hint_items(h100, Query(256, 64), occ(h100, 256, 64))
    assert items[0].parts[0][0] == "regs_fewer"
    fake = {TEMPLATES["regs_fewer"]: "R:{state}|{regs}|{better}", STATE: "{blocks}b"}
    assert items[0].text(lambda t: fake.get(t, t)) == "R:4b|48|5b"
    assert items[0].text() == hints(h100, Query(256, 64), occ(h100, 256, 64))[0]
