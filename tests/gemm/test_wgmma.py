"""The wgmma + TMA path: resources, instructions and bytes by hand; H100 vs A100; the cuBLAS-class ranges."""

import json

import pytest

from explorer.cli.main import main
from explorer.gemm import gemm_points, gemm_scenario, plan_gemm, plan_roofs, roofline, tile_resources
from explorer.gemm.data import gemm_clock
from explorer.gemm.waves import grouped_position, wave_panels
from explorer.model.catalog import get_gpu, load_catalog
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.occupancy import theoretical_occupancy

MB = 4096 * 4096 * 2  # one 4096 x 4096 bf16 matrix


def test_h100_default_resources_by_hand():
    r = tile_resources("H100", "bf16")
    p = r.pipeline
    assert p.path == "wgmma" and p.schedule == "cooperative" and p.persistent
    assert p.instruction == "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"
    assert str(r.tile) == "128x256x64" and p.cluster == (2, 1)
    # 1 producer + 2 consumer warpgroups of 4 warps; launched with 65536 / 384 = 170 -> 168 registers
    assert r.warps == 12 and r.threads == 384 and r.registers_per_thread == 168
    assert p.register_budget == {"producer": 40, "consumer": 232, "launch": 168}
    assert 128 * 40 + 256 * 232 <= 65536
    # each consumer: 64 x 256 FP32 accumulators over 128 threads = 128 registers
    assert r.register_breakdown == {"accumulators": 128, "a_fragments": 0, "overhead": 24}
    # a stage: (128 + 256) x 64 x 2 B + two 8-byte mbarriers; epilogue: 2 x 128 x 32 x 2 B
    stage = (128 + 256) * 64 * 2 + 16
    epilogue = 2 * 128 * 32 * 2
    assert r.stages == (232448 - epilogue) // stage == 4
    assert r.shared_bytes_per_block == 4 * stage + epilogue == 213056
    assert r.occupancy == theoretical_occupancy(get_gpu("H100"), 384, 168, 0, 213056, -1, 1)
    assert r.blocks_per_sm == 1
    assert p.a_source == "shared" and p.b_source == "shared" and p.accumulators == "registers"
    assert p.steps == ("TMA", "shared", "wgmma.mma_async", "registers", "epilogue")


def test_h100_4096_instructions_and_bytes_by_hand():
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    assert p.path == "wgmma" and (p.tiles_m, p.tiles_n, p.k_steps) == (32, 16, 64)
    steps = 512 * 64  # tiles x K-steps
    # per K-step of a tile: 2 consumers x 1 (M 64) x 1 (N 256) x 4 (K 64 / 16) wgmmas, each issued by 4 warps
    assert p.split.per_k_step == 8
    assert p.mma_instructions == steps * 8 * 4 == 1_048_576
    assert steps * 8 * (2 * 64 * 256 * 16) == p.flops  # every wgmma is m64n256k16
    assert p.instructions["global_to_shared"] == steps * 2  # one TMA per operand per stage
    assert p.instructions["barrier"] == steps * (2 + 2 * 8)  # producer wait + arrive; consumers wait + release
    assert p.instructions["mma_sync"] == steps * 3 * 8  # fence, commit, wait_group per consumer warp
    assert "shared_to_registers" not in p.instructions  # no operand staging through registers
    # L2 -> shared: A read once per tile column, B once per cluster of 2 tile rows (multicast)
    l2 = p.level("l2")
    assert l2.read_bytes == 16 * MB + 16 * MB and l2.write_bytes == MB
    # shared -> Tensor Cores: per K-step A (128 x 64) once, B (64 x 256) once per consumer warpgroup
    sh = p.level("shared")
    assert sh.read_bytes == steps * (128 + 2 * 256) * 64 * 2
    assert sh.write_bytes == 16 * MB + 32 * MB  # what lands: every CTA's own A and B panels
    reg = p.level("registers")
    assert reg.read_bytes == 0 and reg.reuse == 0.0 and reg.write_bytes == 512 * 128 * 256 * 4
    assert p.ctas == 132 and p.waves.full_waves == 4  # 512 tiles over 132 persistent CTAs


def test_mma_sync_stages_both_operands_in_registers_wgmma_does_not():
    w = plan_gemm("H100", 4096, 4096, 4096, "bf16", tile="128x256x64")
    s = plan_gemm("H100", 4096, 4096, 4096, "bf16", tile="128x256x64", path="mma.sync")
    assert s.path == "mma.sync" and s.resources.warps == 8
    # mma.sync: every m16n8k16 reads its A (16 x 16) and B (16 x 8) from registers
    assert s.level("registers").read_bytes == s.mma_instructions * (16 * 16 + 16 * 8) * 2
    assert w.level("registers").read_bytes == 0
    # ldmatrix: each of 8 warps reads its 64 x 64 A and 64 x 64 B slices per K-step
    assert s.level("shared").read_bytes == 512 * 64 * 8 * (64 + 64) * 64 * 2
    assert w.level("shared").read_bytes < s.level("shared").read_bytes
    assert w.total_instructions < s.total_instructions / 10  # the wgmma loop is almost instruction-free
    # on Hopper mma.sync is memory-bound (shared memory or L2) and slower; wgmma is Tensor-bound
    assert s.bound == "memory" and s.bound_term in ("shared", "l2")
    assert w.bound == "compute" and w.bound_term == "tensor_core"
    assert w.predicted_seconds < s.predicted_seconds


def test_cluster_multicast_halves_b_from_l2_not_what_lands():
    one = plan_gemm("H100", 4096, 4096, 4096, "bf16", cluster="1x1")
    two = plan_gemm("H100", 4096, 4096, 4096, "bf16", cluster="2x1")
    wide = plan_gemm("H100", 4096, 4096, 4096, "bf16", cluster="1x2")
    assert one.level("l2").read_bytes == 16 * MB + 32 * MB
    assert two.level("l2").read_bytes == 16 * MB + 16 * MB
    assert wide.level("l2").read_bytes == 8 * MB + 32 * MB  # A shared by the 2 CTAs along N
    assert one.level("shared").write_bytes == two.level("shared").write_bytes == wide.level("shared").write_bytes
    assert two.times["l2"] < one.times["l2"]
    assert one.pipeline.multicast == "" and "B tile multicast" in two.pipeline.multicast


def test_pingpong_and_a_from_registers():
    pp = plan_gemm("H100", 4096, 4096, 4096, "bf16", tile="128x128x64", schedule="pingpong")
    r = pp.resources
    # each consumer owns a 128 x 128 tile: 128 x 128 / 128 threads = 128 accumulators; B read once per tile
    assert r.register_breakdown["accumulators"] == 128 and pp.split.b_reads_per_tile == 1
    assert pp.split.per_k_step == 1 * 2 * 1 * 4  # 1 consumer x 2 (M 128 / 64) x 1 (N 128) x 4 (K)
    assert pp.level("shared").read_bytes == 1024 * 64 * (128 + 128) * 64 * 2
    co = plan_gemm("H100", 4096, 4096, 4096, "bf16", tile="128x128x64")
    # cooperative exposes every tile's epilogue; ping-pong hides all but the last behind the other consumer
    assert co.overheads["epilogue"] == pytest.approx(8 * pp.overheads["epilogue"])  # 1024 tiles / 132: 8 rounds
    rs = plan_gemm("H100", 4096, 4096, 4096, "bf16", a_source="registers")
    assert rs.pipeline.a_source == "registers"
    assert rs.resources.register_breakdown["a_fragments"] == 64 * 64 * 2 // (128 * 4)
    assert rs.level("registers").read_bytes == 512 * 64 * 128 * 64 * 2
    assert rs.instructions["shared_to_registers"] > 0


def test_b200_runs_tcgen05_with_accumulators_in_tensor_memory():
    p = plan_gemm("B200", 8192, 8192, 8192, "bf16")
    r = p.resources
    assert p.path == "wgmma" and p.pipeline.instruction.startswith("tcgen05.mma")
    assert p.pipeline.accumulators == "tensor_memory" and r.register_breakdown["accumulators"] == 0
    assert r.threads == 256 and p.split.issuing_warps == 1 and p.split.b_reads_per_tile == 1
    # one 128-row tcgen05.mma per K-slice: 2 x 128 x 256 x 64 per K-step
    assert p.mma_instructions * 2 * 128 * 256 * 16 == p.executed_flops
    with pytest.raises(InputError) as err:
        plan_gemm("B200", 4096, 4096, 4096, "bf16", schedule="pingpong")
    assert err.value.field == "schedule"


def test_paths_the_gpu_or_type_cannot_run_are_refused():
    with pytest.raises(InputError) as err:
        plan_gemm("A100", 4096, 4096, 4096, "bf16", path="wgmma")
    assert err.value.field == "path" and "A100 is CC 8.0" in err.value.message
    with pytest.raises(InputError) as err:
        plan_gemm("H100", 4096, 4096, 4096, "fp32", path="wgmma")
    assert err.value.field == "path" and "simt" in err.value.message
    with pytest.raises(InputError) as err:
        plan_gemm("H100", 4096, 4096, 4096, "bf16", path="simt")
    assert err.value.field == "path"
    with pytest.raises(InputError) as err:
        plan_gemm("H100", 4096, 4096, 4096, "bf16", path="hmma")
    assert err.value.field == "path" and "mma.sync, wgmma, simt" in err.value.message
    assert plan_gemm("H100", 1024, 1024, 1024, "fp32").path == "simt"
    assert plan_gemm("A100", 1024, 1024, 1024, "bf16").path == "mma.sync"
    assert plan_gemm("RTX5090", 1024, 1024, 1024, "bf16").path == "mma.sync"  # CC 12.0: no wgmma


@pytest.mark.parametrize("kwargs, field, text", [
    ({"warps": 8}, "warps", "choose the mma.sync path"),
    ({"warp_tile": "64x64"}, "warp_tile", "choose the mma.sync path"),
    ({"tile": "64x256x64", "schedule": "cooperative"}, "tile", "BM = 64 is not a multiple of 128"),
    ({"tile": "100x256x64"}, "tile", "BM = 100 is not a multiple of 64, the m64nNk16 bf16 MMA shape"),
    ({"tile": "128x260x64"}, "tile", "BN = 260 is not a multiple of 8, the m64nNk16 bf16 MMA shape"),
    ({"tile": "128x256x40"}, "tile", "BK = 40 is not a multiple of 16, the m64nNk16 bf16 MMA shape"),
    ({"tile": "256x256x64"}, "tile", "setmaxnreg budget of 232"),
    ({"tile": "256x256x128"}, "tile", "fewer than the 2 stages"),
    ({"stages": 1}, "stages", "minimum of 2"),
    ({"stages": 5}, "stages", "above the limit of 232448 B"),
    ({"schedule": "stream-k"}, "schedule", "cooperative, pingpong"),
    ({"cluster": "4x4"}, "cluster", "portable cluster limit of 8"),
    ({"cluster": "2"}, "cluster", "2x1"),
    ({"a_source": "tmem"}, "a_source", "shared or registers"),
])
def test_bad_wgmma_input_names_the_field(kwargs, field, text):
    with pytest.raises(InputError) as err:
        plan_gemm("H100", 4096, 4096, 4096, "bf16", **kwargs)
    assert err.value.field == field, err.value
    assert text in err.value.message, err.value.message


def test_a_64_row_tile_runs_pingpong():
    p = plan_gemm("H100", 1024, 2048, 512, "fp16", tile="64x64x64")
    assert p.pipeline.schedule == "pingpong" and any("pingpong" in n for n in p.notes)
    assert p.split.consumers_per_tile == 1 and p.resources.register_breakdown["accumulators"] == 64 * 64 // 128


def test_mma_sync_refuses_wgmma_knobs():
    with pytest.raises(InputError) as err:
        plan_gemm("A100", 4096, 4096, 4096, "bf16", schedule="pingpong")
    assert err.value.field == "schedule" and "mma.sync" in err.value.message


# -- realistic rates: the ranges of REFERENCES.md -----------------------------------------
@pytest.mark.parametrize("gpu", ["H100", "H200"])
@pytest.mark.parametrize("size", [4096, 8192])
def test_big_hopper_bf16_gemms_land_in_the_cublas_range(gpu, size):
    p = plan_gemm(gpu, size, size, size, "bf16")
    assert p.path == "wgmma" and p.bound == "compute" and p.bound_term == "tensor_core"
    assert 600 <= p.achieved_tflops <= 750, p.achieved_tflops  # cuBLAS on H100 SXM: roughly 600-750
    assert p.peak.value == 989.4  # the datasheet figure, at the 1830 MHz Tensor clock
    assert p.clock.peak_clock_mhz == 1830


@pytest.mark.parametrize("size", [8192, 16384])
def test_a100_stays_below_its_peak(size):
    p = plan_gemm("A100", size, size, size, "bf16")
    assert p.path == "mma.sync" and p.bound_term == "tensor_core"
    assert 250 <= p.achieved_tflops <= 290 < 312, p.achieved_tflops  # cuBLAS on A100: roughly 250-290


def test_h100_vs_a100_contrast():
    h = plan_gemm("H100", 8192, 8192, 8192, "bf16")
    a = plan_gemm("A100", 8192, 8192, 8192, "bf16")
    assert (h.path, a.path) == ("wgmma", "mma.sync")
    assert 2.4 < h.achieved_tflops / a.achieved_tflops < 3.2  # 989.4 / 312 = 3.2 at the datasheet peaks
    # per FLOP, Hopper's loop issues far fewer instructions and stages nothing in registers
    assert h.total_instructions / h.flops < a.total_instructions / a.flops / 10
    assert h.level("registers").read_bytes == 0 < a.level("registers").read_bytes


def test_efficiency_terms_multiply_to_the_achieved_share_of_peak():
    for p in (plan_gemm("H100", 4096, 4096, 4096, "bf16"), plan_gemm("A100", 5000, 3000, 1000, "fp16")):
        e = p.efficiency
        product = e["sustained_clock"] * e["waves_and_tiles"] * e["mainloop"] * e["fill_and_epilogue"]
        assert product == pytest.approx(e["of_peak"])
        assert all(0 < v <= 1 for v in e.values())
        assert p.predicted_seconds == pytest.approx(p.mainloop_seconds + sum(p.overheads.values()))


def test_every_catalog_gpu_has_a_sourced_clock():
    for spec in load_catalog().values():
        c = gemm_clock(spec)
        assert 0 < c.sustained_fraction <= 1 and c.peak_clock_mhz > 0
        assert c.sources["sustained_fraction"] and c.sources["peak_clock_mhz"]
        assert gemm_clock(spec, tensor_core=False).peak_clock_mhz == spec.boost_clock_mhz  # the FP32 peak's clock
    h = gemm_clock(get_gpu("H100"))
    assert h.peak_clock_mhz * 132 * 4096 / 1e6 == pytest.approx(989.4, rel=1e-3)  # 4096 FLOP/clk/SM


# -- the roofline the bound names ------------------------------------------------------------
def test_plan_roofs_name_every_term_and_the_bound_is_the_lowest():
    for p in (plan_gemm("H100", 4096, 4096, 4096, "bf16"), plan_gemm("H100", 4096, 4096, 4096, "bf16",
                                                                        path="mma.sync")):
        roofs = plan_roofs(p)
        assert {r["term"] for r in roofs} == set(p.times)
        lowest = min(roofs, key=lambda r: r["tflops"])
        assert lowest["term"] == max(p.times, key=p.times.get) and lowest["bound"] == (lowest["term"] == p.bound_term)
        shared = next(r for r in roofs if r["term"] == "shared")
        assert shared["kind"] == "bandwidth"
        assert shared["intensity"] == pytest.approx(p.flops / p.shared_bytes_charged)
        for r in roofs:
            assert r["tflops"] == pytest.approx(p.flops / p.times[r["term"]] / 1e12)
    slopes = {s.level for s in roofline("H100").slopes}
    assert slopes == {"hbm", "l2", "shared"}
    assert roofline("H100").slope("shared").gbs == pytest.approx(128 * 132 * 1.98)
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    r = roofline("H100")
    for pt in gemm_points(p):
        assert pt.tflops <= r.attainable_tflops(pt.intensity, "bf16", pt.level) * (1 + 1e-9)
    assert {pt.level for pt in gemm_points(p)} == {"hbm", "l2", "shared"}


# -- the HBM model's tile order ---------------------------------------------------------------
def test_grouped_tile_order_by_hand():
    # 4 x 4 tiles in groups of 2 rows: (0,0) (1,0) (0,1) (1,1) (0,2) ... then rows 2-3
    assert [grouped_position(i, 4, 4, 2) for i in range(5)] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
    assert grouped_position(8, 4, 4, 2) == (2, 0)
    assert wave_panels(0, 3, 4, 4, 2) == ([(0, 1)], [(0, 1)])
    assert wave_panels(6, 10, 4, 4, 2) == ([(0, 3)], [(0, 0), (3, 3)])
    assert wave_panels(0, 5, 4, 4, 1) == ([(0, 1)], [(0, 3)])  # group 1 = row-major
    # a last group with fewer rows: 5 tile rows, groups of 2 -> rows 4 alone
    assert grouped_position(16, 5, 4, 2) == (4, 0) and grouped_position(19, 5, 4, 2) == (4, 3)


# -- the scenario ---------------------------------------------------------------------------------
def test_wgmma_scenario_runs_the_real_main_loop():
    p = plan_gemm("H100", 2048, 2048, 1024, "bf16")  # 128x256x64 cooperative, cluster 2x1 (B multicast)
    s = gemm_scenario(p)
    body = s.workload.body
    assert [op.op for op in body] == ["tma", "tma", "wgmma"]
    # the producer copies A (128 x 64 x 2 B) and its half of the multicast B (256 x 64 x 2 B / 2) per K-step
    assert (body[0].bytes, body[1].bytes) == (16384, 16384)
    # a producer warpgroup + 2 consumer warpgroups, at the launch's registers (setmaxnreg moves them)
    assert s.launch.threads_per_block == 384 and s.workload.producer_warps == 4
    assert s.launch.registers_per_thread == p.resources.registers_per_thread == 168
    assert s.launch.dynamic_shared_bytes == p.resources.shared_bytes_per_block
    assert s.workload.stages == p.resources.stages == 4 and body[2].pending == 1
    # each consumer warpgroup: its 64 rows x one n256 x 4 K slices; 2 of them per tile give the plan's FLOPs
    assert (body[2].count, body[2].n) == (4, 256)
    assert body[2].count * 2 * p.k_steps * p.tiles * (2 * 64 * 256 * 16) == p.executed_flops
    assert s.program == "model" and "simplified" in s.description
    assert Scenario.from_dict(s.to_dict()) == s
    assert not any("no wgmma or TMA ops" in d for d in p.simulation_differences)


def test_simulated_main_loop_vs_the_plan_is_explained():
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16", path="mma.sync")
    diffs = " ".join(p.simulation_differences)
    assert f"{1e6 * sum(p.overheads.values()):.1f} µs" in diffs  # the overheads the simulation leaves out (the window's unit symbol, in the CLI too)
    assert "1980 MHz" in diffs and "cp.async" in diffs


def test_the_wgmma_scenario_simulates():
    sim = pytest.importorskip("explorer.sim")
    p = plan_gemm("H100", 1024, 2048, 512, "bf16")  # 8 x 8 = 64 tiles: one round
    summary = sim.simulate(gemm_scenario(p)).summary()
    assert summary["total_blocks"] == 64
    assert summary["warp_state_cycles"]["selected"] > 0
    assert 0.5 < (summary["kernel_time_us"] * 1e-6) / p.mainloop_seconds < 2.0


# -- the CLI contract ---------------------------------------------------------------------------------
def test_cli_json_has_the_path_and_pipeline(capsys):
    assert main(["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["path"] == "wgmma" and d["bound"] == "compute" and d["bound_term"] == "tensor_core"
    assert d["pipeline"]["schedule"] == "cooperative" and d["register_budget"]["consumer"] == 232
    assert {r["term"] for r in d["roofs"]} == set(d["times_seconds"])
    assert d["bound_reason"].startswith("Tensor Core math")
    assert main(["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                 "--path", "mma.sync", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["path"] == "mma.sync" and d["bound"] == "memory"


def test_cli_text_names_the_path(capsys):
    assert main(["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                 "--schedule", "pingpong", "--tile", "128x128x64", "--cluster", "1x1"]) == 0
    out = capsys.readouterr().out
    for text in ("path                 wgmma: wgmma.mma_async", "pingpong", "cluster 1x1", "persistent CTAs",
                 "40/232 registers", "not hidden:", "why "):
        assert text in out, text


def test_scenario_out_for_wgmma(tmp_path, capsys):
    path = tmp_path / "w.toml"
    assert main(["gemm", "--gpu", "H100", "--m", "2048", "--n", "2048", "--k", "1024", "--dtype", "bf16",
                 "--scenario-out", str(path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    s = Scenario.load(path)
    assert d["path"] == "wgmma" and s.launch.total_blocks == d["tiles"] and "simplified" in s.description
