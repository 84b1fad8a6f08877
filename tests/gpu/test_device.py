"""On a real NVIDIA GPU (``@pytest.mark.gpu``; skipped with the probe's reason elsewhere).

What only the hardware can tell: that the kernel runs and records every warp, that our
occupancy rules give the driver's answer, that the cubin's registers and static shared
memory (reserved region excluded) are what the driver reports, that dynamic shared
memory above 48 KB is opted in, that a hung or faulty kernel is stopped in its child
process and leaves this process and the GPU usable.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.gpu.measure import MeasureOptions, measure, run_worker, worker_request
from explorer.toolchain.prepare import prepare
from explorer.gpu.measurement import load_measurement
from explorer.model.presets import load_preset
from tests.gpu.support import FAULT_PATCH, HANG_PATCH, needs_gpu, patched_example_source

QUICK = dict(repeats=3, nvml_seconds=0.0, timeout=120)


@needs_gpu
def test_probe_describes_the_gpu():
    from explorer.gpu.probe import probe

    result = probe(30, use_cache=False)
    assert result.ok and result.driver_version and result.devices
    d = result.devices[0]
    assert d["sm_count"] > 0 and d["compute_capability"]


@needs_gpu
def test_measure_the_mission_example(tmp_path):
    m = measure(load_preset("example-240x256"), MeasureOptions(nvml_seconds=1.0, repeats=5, workdir=str(tmp_path)))
    s = m.summary()
    meta = m.meta
    assert len(m.blocks) == 240 and sorted(m.blocks.block.tolist()) == list(range(240))
    assert (m.blocks.end > m.blocks.start).all() and (m.blocks_ns.end > m.blocks_ns.start).all()
    assert m.warps is not None and len(m.warps["block"]) == 240 * 8
    assert 300 <= s["clock_mhz"] <= 3500
    assert 0 < s["achieved_occupancy"] <= 1
    assert s["measured_max_blocks_per_sm"] <= meta["occupancy"]["ours"]["active_blocks_per_sm"]
    # our occupancy rules and the driver agree
    assert meta["occupancy"]["driver_active_blocks_per_sm"] == meta["occupancy"]["ours"]["active_blocks_per_sm"]
    # the cubin parser and the driver agree on registers and static shared memory
    fattr = meta["kernel"]["function_attributes"]
    assert fattr["num_regs"] == meta["kernel"]["registers"]
    assert fattr["shared_size_bytes"] == meta["kernel"]["static_shared_bytes"]
    assert meta["timing"]["globaltimer"]["tick_ns"] and meta["timing"]["kernel_ms"] > 0
    assert not meta.get("problems")
    back = load_measurement(m.save(tmp_path / "m.npz"))
    assert back.summary()["cycles"] == s["cycles"]


@needs_gpu
def test_static_shared_memory_matches_the_driver(tmp_path):
    m = measure(load_preset("barrier-tiling"), MeasureOptions(**QUICK, workdir=str(tmp_path)))
    kernel = m.meta["kernel"]
    assert kernel["static_shared_bytes"] == 8192
    assert kernel["function_attributes"]["shared_size_bytes"] == kernel["static_shared_bytes"]
    occ = m.meta["occupancy"]
    assert occ["driver_active_blocks_per_sm"] == occ["ours"]["active_blocks_per_sm"]


@needs_gpu
def test_dynamic_shared_memory_above_48k_and_matched_occupancy(tmp_path):
    sc = load_preset("latency-bound-low-occupancy")
    m = measure(sc, MeasureOptions(**QUICK, match_occupancy=True, workdir=str(tmp_path)))
    assert m.meta["launch"]["dynamic_shared_bytes"] > 48 * 1024
    occ = m.meta["occupancy"]
    assert occ["ours"]["active_blocks_per_sm"] == occ["scenario"]["active_blocks_per_sm"] == 1
    assert occ["driver_active_blocks_per_sm"] == 1
    assert m.summary()["measured_max_blocks_per_sm"] == 1


@needs_gpu
def test_per_block_records(tmp_path):
    m = measure(load_preset("tensor-gemm"), MeasureOptions(**QUICK, per_warp=False, workdir=str(tmp_path)))
    assert m.warps is None and len(m.blocks) == 264
    assert (m.blocks.end > m.blocks.start).all()
    occ = m.meta["occupancy"]
    assert occ["driver_active_blocks_per_sm"] == occ["ours"]["active_blocks_per_sm"]


def _prepared_with(tmp_path, patch: str):
    prepared = prepare(load_preset("example-240x256"))
    src = patched_example_source(prepared.generated.source, patch)
    from explorer.toolchain.compiler import compile_source

    compiled = compile_source(src, prepared.generated.kernel, prepared.arch)
    prepared.compiled = compiled
    cubin = tmp_path / "patched.cubin"
    cubin.write_bytes(compiled.cubin)
    return prepared, cubin


@needs_gpu
def test_a_faulty_kernel_is_one_error_and_leaves_us_usable(tmp_path):
    from explorer.toolchain.errors import GpuRunError

    prepared, cubin = _prepared_with(tmp_path, FAULT_PATCH)
    req = worker_request(prepared, cubin, MeasureOptions(**QUICK))
    with pytest.raises(GpuRunError) as info:
        run_worker(req, tmp_path / "w", timeout=60)
    assert "\n" not in str(info.value) and "CUDA_ERROR" in str(info.value)
    m = measure(load_preset("example-240x256"), MeasureOptions(**QUICK, workdir=str(tmp_path / "after")))
    assert len(m.blocks) == 240


@needs_gpu
def test_a_hung_kernel_is_stopped_by_the_timeout(tmp_path):
    import time

    from explorer.toolchain.errors import GpuRunError

    prepared, cubin = _prepared_with(tmp_path, HANG_PATCH)
    req = worker_request(prepared, cubin, MeasureOptions(**QUICK))
    t = time.monotonic()
    with pytest.raises(GpuRunError, match="did not finish within 10 s"):
        run_worker(req, tmp_path / "w", timeout=10)
    assert time.monotonic() - t < 40
    m = measure(load_preset("example-240x256"), MeasureOptions(**QUICK, workdir=str(tmp_path / "after")))
    assert len(m.blocks) == 240 and np.isfinite(m.summary()["achieved_occupancy"])


@needs_gpu
def test_the_microbenchmarks_order_the_memory_levels(tmp_path):
    """The project's own latency and FFMA microbenchmarks on the hardware: every level slower than the one above it,
    a dependent FFMA of 4 cycles plus at most a few (published: 4 on Volta to Hopper), the FFMA rate within the
    FP32 lanes the catalog gives (cuda_occupancy.h's architecture, the whitepapers' lane counts)."""
    from explorer.gpu.measure import match_catalog_gpu
    from explorer.gpu.microbench import MicrobenchOptions, run_microbenchmarks, write_outputs
    from explorer.model.measured import read_fragment

    run = run_microbenchmarks(MicrobenchOptions(budget_s=40, groups=("latency", "ffma")))
    assert not run.results["errors"] and not run.results["skipped"], run.results
    _raw, toml, _doc = write_outputs(run, tmp_path, merge=False)
    f = read_fragment(toml)
    lat = {k: v.value for k, v in f.sections["latency_cycles"].items()}
    assert lat["shared"] < lat["l1_hit"] < lat["l2_hit_bypass_l1"] < lat["dram_256mib"], lat
    assert lat["l1_hit"] < lat["l2_hit_1mib"] < lat["dram_256mib"], lat
    assert 3.5 <= lat["ffma_dependent"] <= 8, lat
    spec = match_catalog_gpu(run.results["device"])
    if spec is not None:
        lanes = spec.arch.fp32_lanes_per_sub_partition * spec.arch.sub_partitions
        assert 0.5 * lanes <= f.value("compute", "ffma_per_clk_per_sm") <= 1.02 * lanes
