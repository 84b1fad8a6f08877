"""Hand-computed GEMM cases: grid, waves, wave quantization, FLOPs, bytes, intensity, bound (mma.sync path;
the wgmma path's cases are in test_wgmma.py)."""

import math

import pytest

from explorer.gemm import plan_gemm, wave_stats
from explorer.gemm.mapper import Tile, parse_tile, parse_warp_tile
from explorer.model.errors import InputError


def test_h100_4096_cube_bf16_by_hand():
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16", tile="128x128x64", path="mma.sync")
    assert p.path == "mma.sync" and p.pipeline.a_source == p.pipeline.b_source == "registers"
    assert p.grid == (32, 32, 1) and p.tiles == 1024
    assert p.k_steps == 4096 // 64
    # 216 registers -> 6912 per warp -> 2 warps per sub-partition -> 8 warps -> 2 CTAs of 4 warps;
    # shared 98304 + 1024 reserved = 99328 B; 233472 // 99328 = 2
    assert p.blocks_per_sm == 2
    assert p.waves.waves == pytest.approx(1024 / 264)
    assert p.waves.full_waves == 4
    assert p.waves.efficiency == pytest.approx(1024 / (4 * 264))
    assert p.waves.last_wave_tiles == 1024 - 3 * 264
    assert p.flops == 2 * 4096**3 == 137_438_953_472
    assert p.min_hbm_bytes == 3 * 4096 * 4096 * 2 == 100_663_296
    assert p.arithmetic_intensity == pytest.approx(137_438_953_472 / 100_663_296)  # 1365.3
    assert p.executed_flops == p.flops and p.tile_efficiency == 1.0
    assert p.output_bytes_per_element == p.element_bytes == 2
    assert p.mma_instructions == 2 * 4096**3 // (2 * 16 * 8 * 16)


def test_json_contract_formulas_hold():
    p = plan_gemm("A100", 5000, 3000, 1000, "fp16")
    d = p.to_json()
    bm, bn, _ = (p.tile.bm, p.tile.bn, p.tile.bk)
    sms = 108
    assert d["tiles"] == math.ceil(5000 / bm) * math.ceil(3000 / bn)
    assert d["waves"] == pytest.approx(d["tiles"] / (d["blocks_per_sm"] * sms))
    assert d["wave_efficiency"] == pytest.approx(d["tiles"] / (math.ceil(d["waves"]) * d["blocks_per_sm"] * sms))
    assert d["flops"] == 2 * 5000 * 3000 * 1000
    assert d["min_hbm_bytes"] == (5000 * 1000 + 1000 * 3000 + 5000 * 3000) * 2
    assert d["arithmetic_intensity"] == pytest.approx(d["flops"] / d["min_hbm_bytes"])
    assert d["bound"] in ("compute", "memory", "latency") and d["path"] == "mma.sync"
    assert d["mainloop_seconds"] == max(d["times_seconds"].values())
    assert d["predicted_seconds"] == pytest.approx(d["mainloop_seconds"] + sum(d["overheads_seconds"].values()))


def test_wave_quantization_133_tiles_on_132_sms_costs_two_waves():
    s = wave_stats(133, 132, 1)
    assert s.waves == pytest.approx(133 / 132) and s.full_waves == 2
    assert s.efficiency == pytest.approx(133 / 264)  # ~50%: nearly a whole wave wasted
    assert s.last_wave_tiles == 1 and s.idle_slots == 131
    assert "133 tiles" in s.explain()
    # the same out of a real GEMM: a 128x256 tile is 1 CTA per SM on an H100; 7 x 19 = 133 tiles
    p = plan_gemm("H100", 7 * 128, 19 * 256, 4096, "fp16", tile="128x256x64")
    assert p.tiles == 133 and p.blocks_per_sm == 1
    assert p.waves.full_waves == 2 and p.waves.efficiency == pytest.approx(133 / 264)
    # one tile fewer fits one wave: almost the same work, about half the math time
    q = plan_gemm("H100", 7 * 128, 19 * 256 - 256 + 128, 4096, "fp16", tile="128x256x64")
    assert q.tiles == 133  # 128 wide last column still makes a tile
    r = plan_gemm("H100", 4 * 128, 33 * 256, 4096, "fp16", tile="128x256x64")
    assert r.tiles == 132 and r.waves.full_waves == 1
    assert p.times["tensor_core"] == pytest.approx(2 * r.times["tensor_core"])


def test_wave_stats_small_grid_and_exact_multiple():
    s = wave_stats(264, 132, 2)
    assert (s.waves, s.full_waves, s.efficiency, s.last_wave_tiles) == (1.0, 1, 1.0, 264)
    s = wave_stats(10, 132, 2)
    assert s.full_waves == 1 and s.efficiency == pytest.approx(10 / 264)
    with pytest.raises(ValueError):
        wave_stats(0, 132, 1)


def test_edge_tiles_are_padded():
    p = plan_gemm("H100", 1000, 1000, 1000, "fp16", tile="128x128x64")
    assert p.tiles_m == p.tiles_n == 8 and p.k_steps == 16
    assert p.executed_flops == 64 * 2 * 128 * 128 * 64 * 16
    assert p.tile_efficiency == pytest.approx(2 * 1000**3 / p.executed_flops)


def test_bytes_per_level_by_hand():
    p = plan_gemm("H100", 4096, 4096, 4096, "fp16", tile="128x128x64", path="mma.sync")
    b = 2
    l2 = p.level("l2")
    assert l2.read_bytes == 32 * 4096 * 4096 * b + 32 * 4096 * 4096 * b  # A read 32x, B read 32x
    assert l2.write_bytes == 4096 * 4096 * b
    sh = p.level("shared")
    # per warp per K-step: (64 + 64) x 64 x 2 B; 4 warps, 64 K-steps, 1024 tiles
    assert sh.read_bytes == 1024 * 64 * 4 * (64 + 64) * 64 * b
    reg = p.level("registers")
    assert reg.read_bytes == p.mma_instructions * (16 * 16 + 16 * 8) * b
    untiled = 2 * 4096**3 * b
    assert l2.reuse == pytest.approx(untiled / l2.read_bytes) == 128  # = harmonic tile size 2/(1/128+1/128)
    hbm = p.level("hbm")
    assert p.min_hbm_bytes - 4096 * 4096 * b <= hbm.read_bytes <= l2.read_bytes
    assert p.hbm_bytes == hbm.read_bytes + hbm.write_bytes
    assert [t.level for t in p.traffic] == ["hbm", "l2", "shared", "registers"]
    # each path is its places' codes (the JSON and the CLI print its English)
    assert [(t.places, t.via) for t in p.traffic] == [(("hbm", "l2"), None), (("l2", "shared"), None),
                                                      (("shared", "registers"), None), (("registers", "tensor"), None)]
    assert [t.path for t in p.traffic] == ["HBM -> L2", "L2 -> shared memory", "shared memory -> registers",
                                           "registers -> Tensor Cores"]
    # intensity grows toward HBM: the tiling's reuse
    assert hbm.intensity > l2.intensity > sh.intensity > reg.intensity


def test_inputs_that_fit_l2_are_read_once():
    p = plan_gemm("H100", 1024, 1024, 1024, "fp16")
    assert p.hbm_bytes == p.min_hbm_bytes
    assert p.l2_hit_rate == pytest.approx(1 - (2 * 1024 * 1024 * 2) / p.level("l2").read_bytes)


def test_instruction_counts_per_dtype():
    m = n = k = 2048
    for dtype, per in (("fp16", 4096), ("bf16", 4096), ("tf32", 2048), ("fp8", 8192)):
        p = plan_gemm("H100", m, n, k, dtype, path="mma.sync")
        assert p.mma_instructions == 2 * m * n * k // per, dtype
        assert 0 < p.tensor_core_instruction_fraction < 1
        assert p.instructions["global_to_shared"] > 0 and p.instructions["shared_to_registers"] > 0
    p = plan_gemm("H100", m, n, k, "fp32")
    assert p.mma_instructions == 0 and p.instructions["ffma"] == 2 * m * n * k // 64
    assert p.tensor_core_instruction_fraction == 0
    # before CC 8.0 a global->shared copy is LDG + STS, after it one cp.async
    v = plan_gemm("V100", m, n, k, "fp16")
    a = plan_gemm("A100", m, n, k, "fp16", stages=v.resources.stages)
    assert v.instructions["global_to_shared"] == 2 * a.instructions["global_to_shared"]


def test_bounds():
    tiny = plan_gemm("H100", 128, 128, 4096, "fp16", stages=1, path="mma.sync")  # one CTA, no overlap
    assert tiny.bound == "latency" and tiny.bound_term == "latency"
    assert tiny.waves.efficiency == pytest.approx(1 / 264)
    gemv = plan_gemm("H100", 16384, 16, 16384, "fp16", path="mma.sync")
    assert gemv.bound == "memory" and gemv.bound_term == "hbm"
    big = plan_gemm("A100", 8192, 8192, 8192, "fp16")
    assert big.bound == "compute" and big.bound_term == "tensor_core"
    # more pipeline stages hide more latency
    one = plan_gemm("H100", 1024, 1024, 1024, "fp16", stages=1, path="mma.sync")
    three = plan_gemm("H100", 1024, 1024, 1024, "fp16", stages=3, path="mma.sync")
    assert one.times["latency"] > 2 * three.times["latency"]
    split = big.time_split
    assert split["math"] + split["other"] == pytest.approx(big.predicted_seconds)


def test_schedule_maps_tiles_to_sms_and_waves():
    p = plan_gemm("H100", 7 * 128, 19 * 256, 4096, "fp16", tile="128x256x64")
    s = p.schedule()
    assert s.tiles == 133 and s.waves == 2
    assert s.wave_of(131) == 0 and s.wave_of(132) == 1 and s.sm_of(132) == 0
    grid = s.wave_grid()
    assert len(grid) == 7 and len(grid[0]) == 19
    assert grid[6][18] == 1 and sum(row.count(1) for row in grid) == 1
    assert s.position(20) == (1, 1) and s.tile_index(1, 1) == 20
    q = plan_gemm("H100", 4096, 4096, 4096, "fp16", path="mma.sync")
    sq = q.schedule()
    assert sq.slot_of(132) == 1 and sq.sm_of(133) == 1
    assert list(sq.tiles_in_wave(3)) == list(range(792, 1024))


def test_defaults_adapt_to_the_gpu_and_tile():
    t4 = plan_gemm("T4", 4096, 4096, 4096, "fp16")
    assert t4.resources.stages == 2 and any("stages" in n for n in t4.notes)  # 3 x 32 KB > 64 KB
    wide = plan_gemm("H100", 4096, 4096, 4096, "fp16", tile="128x256x64", path="mma.sync")
    assert wide.resources.warps == 8 and (wide.resources.warp_tile_m, wide.resources.warp_tile_n) == (64, 64)
    simt = plan_gemm("H100", 4096, 4096, 4096, "fp32")
    r = simt.resources
    assert (r.warps, r.warp_tile_m, r.warp_tile_n, r.thread_tile_m, r.thread_tile_n) == (8, 64, 32, 8, 8)


def test_parsing():
    assert parse_tile("128x256x32") == Tile(128, 256, 32)
    assert parse_tile("64 X 64 × 16") == Tile(64, 64, 16)
    assert parse_tile([16, 8, 16]) == Tile(16, 8, 16)
    assert parse_warp_tile("64x32") == (64, 32)
    for bad in ("128x128", "axbxc", "0x128x64", "128x128x64x1", "", "2048x128x64"):
        with pytest.raises(InputError) as err:
            parse_tile(bad)
        assert err.value.field == "tile"


@pytest.mark.parametrize("kwargs, field, text", [
    ({"m": 0}, "m", "minimum of 1"),
    ({"n": -3}, "n", "minimum of 1"),
    ({"k": "x"}, "k", "not an integer"),
    ({"m": 2**31}, "m", "maximum"),
    ({"dtype": "int8"}, "dtype", "fp32, tf32"),
    ({"tile": "128x128"}, "tile", "128x128x64"),
    ({"tile": "128x128x40"}, "tile", "multiple of 16"),
    ({"tile": "512x512x128"}, "tile", "above the limit of 232448 B"),
    ({"tile": "256x256x64", "stages": 4}, "stages", "shared memory"),
    ({"tile": "256x256x64"}, "tile", "registers per thread"),
    ({"warps": 3}, "warps", "cannot split"),
    ({"warps": 64}, "warps", "maximum of 32"),
    ({"tile": "256x256x64", "warps": 16, "stages": 1}, "warps", "registers per CTA"),
    ({"warp_tile": "48x64"}, "warp_tile", "does not divide"),
    ({"warp_tile": "64x64", "warps": 8}, "warp_tile", "not the 8"),
    ({"stages": 0}, "stages", "minimum of 1"),
    ({"stages": 9}, "stages", "maximum of 8"),
])
def test_bad_input_names_the_field_and_limit(kwargs, field, text):
    args = {"m": 4096, "n": 4096, "k": 4096, "dtype": "fp16", "path": "mma.sync"}
    args.update(kwargs)
    with pytest.raises(InputError) as err:
        plan_gemm("H100", **args)
    assert err.value.field == field, err.value
    assert text in err.value.message, err.value.message


def test_dtype_without_tensor_cores_on_the_gpu():
    with pytest.raises(InputError) as err:
        plan_gemm("A100", 1024, 1024, 1024, "fp8")
    assert err.value.field == "dtype" and "A100" in err.value.message


def test_huge_shapes_stay_fast():
    p = plan_gemm("H100", 2**20, 2**20, 4096, "fp16", path="mma.sync")  # 67 M tiles, ~250 k waves: sampled
    assert p.tiles == 8192 * 8192
    assert p.min_hbm_bytes <= p.hbm_bytes <= p.level("l2").bytes
    w = plan_gemm("H100", 2**20, 2**20, 4096, "fp16")  # the persistent wgmma kernel: 128x256 tiles
    assert w.path == "wgmma" and w.tiles == 8192 * 4096 and w.min_hbm_bytes <= w.hbm_bytes


def test_the_plan_says_its_l2_hit_rate_is_an_estimate_the_simulation_does_not_take():
    """The wgmma path's scenario copies tiles the simulated L2 looks up by address (explorer.gemm.scenario): the
    plan's own L2 figure, from an assumed share of L2, is named among the differences with its value; the
    mma.sync path's loads still take the plan's rate, so there it is not."""
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    assert p.pipeline.path == "wgmma"
    (said,) = [d for d in p.simulation_differences if d.code == "l2_from_tiles"]
    assert f"{100 * p.l2_hit_rate:.1f}% of the copies hit in L2" in said
    q = plan_gemm("H100", 4096, 4096, 4096, "fp16", tile="128x128x64", path="mma.sync")
    assert not [d for d in q.simulation_differences if d.code == "l2_from_tiles"]
