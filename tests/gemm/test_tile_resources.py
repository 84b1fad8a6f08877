"""Tile -> registers and shared memory -> occupancy, checked by hand and against explorer.occupancy."""

import pytest

from explorer.gemm import plan_gemm, tile_resources
from explorer.gemm.data import DTYPES, throughput
from explorer.model.catalog import get_gpu, load_catalog
from explorer.occupancy import theoretical_occupancy


def test_fp16_default_tile_by_hand():
    r = tile_resources("A100", "fp16")
    assert str(r.tile) == "128x128x64" and r.warps == 4 and r.threads == 128
    assert (r.warp_tile_m, r.warp_tile_n) == (64, 64)
    # accumulators: 64 x 64 FP32 values over 32 lanes; fragments: (64 + 64) x 16 x 2 B / (32 lanes x 4 B), x2
    assert r.register_breakdown == {"accumulators": 128, "fragments": 64, "overhead": 24}
    assert r.registers_per_thread == 216
    assert r.shared_bytes_per_block == 3 * (128 + 128) * 64 * 2 == 98304
    # A100: 98304 + 1024 reserved per block; 167936 B per SM -> 1 block
    assert r.blocks_per_sm == 1
    assert r.occupancy.allocated_shared_per_block == 98304 + 1024


def test_fp32_simt_tile_by_hand():
    r = tile_resources("H100", "fp32")
    assert (r.thread_tile_m, r.thread_tile_n) == (8, 8)
    assert r.register_breakdown == {"accumulators": 64, "fragments": 32, "overhead": 24}
    assert r.shared_bytes_per_block == 2 * (128 + 128) * 8 * 4


CASES = [
    (gpu, dtype, tile, warps, stages)
    for gpu in ("V100", "T4", "A100", "A6000", "RTX4090", "L4", "H100", "H200", "B200", "RTX5090")
    for dtype, tile, warps, stages in (
        ("fp32", None, None, None),
        ("fp32", "64x64x16", 4, 2),
        ("fp16", None, None, None),
        ("fp16", "64x64x32", 4, 2),
        ("fp16", "128x256x32", 8, 2),
        ("bf16", "64x128x64", 4, None),
        ("tf32", "64x64x32", 2, 3),
        ("fp8", "128x128x128", 8, 2),
    )
    if throughput(get_gpu(gpu)).supports(dtype)
]


@pytest.mark.parametrize("gpu, dtype, tile, warps, stages", CASES)
def test_occupancy_agrees_with_the_occupancy_module(gpu, dtype, tile, warps, stages):
    spec = get_gpu(gpu)
    path = None if dtype == "fp32" else "mma.sync"  # the wgmma path's resources: test_wgmma.py
    r = tile_resources(spec, dtype, tile, warps, None, stages, path=path)
    direct = theoretical_occupancy(spec, r.threads, r.registers_per_thread, 0, r.shared_bytes_per_block, -1, 1)
    assert r.occupancy == direct
    assert r.registers_per_thread == sum(r.register_breakdown.values())
    sb = r.shared_breakdown
    assert r.shared_bytes_per_block == sb["stages"] * (sb["a_per_stage"] + sb["b_per_stage"])
    assert r.shared_bytes_per_block <= spec.arch.shared_per_block_optin
    assert r.warps_m * r.warp_tile_m == r.tile.bm and r.warps_n * r.warp_tile_n == r.tile.bn
    assert r.warps == r.warps_m * r.warps_n
    # the plan's waves use exactly this occupancy
    p = plan_gemm(spec, 2048, 2048, 2048, dtype, tile, warps, None, stages, path=path)
    assert p.blocks_per_sm == direct.active_blocks_per_sm
    assert p.waves.slots == direct.active_blocks_per_sm * spec.sm_count


def test_every_default_plans_on_every_gpu():
    for spec in load_catalog().values():
        for dtype in DTYPES:
            if throughput(spec).supports(dtype):
                p = plan_gemm(spec, 4096, 4096, 4096, dtype)
                assert p.blocks_per_sm >= 1 and p.predicted_seconds > 0, (spec.name, dtype)


def test_more_stages_trade_occupancy_for_latency_hiding():
    two = tile_resources("H100", "fp16", "128x128x64", stages=2, path="mma.sync")
    four = tile_resources("H100", "fp16", "128x128x64", stages=4, path="mma.sync")
    assert two.blocks_per_sm == 2 and four.blocks_per_sm == 1
    assert "shared_memory" in four.occupancy.limiters
