"""Roofline data and the memory hierarchy of each GPU."""

import pytest

from explorer.gemm import (
    SCOPES,
    access_pattern,
    coalescing_table,
    gemm_points,
    hierarchy_json,
    memory_hierarchy,
    plan_gemm,
    roofline,
)
from explorer.model.catalog import get_gpu, load_catalog
from explorer.model.errors import InputError


def test_h100_roofline():
    r = roofline("H100")
    assert [x.dtype for x in r.roofs] == ["fp32", "tf32", "fp16", "bf16", "fp8"]
    assert r.roof("fp16").tflops == 989.4 and r.roof("fp16").tensor_core
    assert not r.roof("fp32").tensor_core
    assert r.slope("hbm").gbs == 3350
    assert r.ridge_point("fp16", "hbm") == pytest.approx(989.4e12 / 3350e9)
    assert r.attainable_tflops(10, "fp16", "hbm") == pytest.approx(3350e9 * 10 / 1e12)
    assert r.attainable_tflops(1e6, "fp16", "hbm") == 989.4
    assert r.curve("fp8", "l2", [1, 1e6])[-1] == 1978.9
    lo, hi = r.intensity_range()
    assert lo < r.ridge_point("fp32", "l2") and hi > r.ridge_point("fp8", "hbm")
    d = r.to_json()
    assert "fp16/hbm" in d["ridge_points"] and all(s["source"] for s in d["slopes"])


def test_roofline_lists_only_supported_types():
    r = roofline("V100")
    assert [x.dtype for x in r.roofs] == ["fp32", "fp16"]
    with pytest.raises(InputError):
        r.roof("bf16")
    with pytest.raises(InputError):
        r.slope("l1")


def test_gemm_point_sits_under_the_roof():
    p = plan_gemm("A100", 4096, 4096, 4096, "fp16")
    r = roofline("A100")
    for pt in gemm_points(p):
        assert pt.tflops <= r.attainable_tflops(pt.intensity, "fp16", pt.level) * (1 + 1e-9)


def test_hierarchy_levels_scopes_and_sources():
    for spec in load_catalog().values():
        levels = memory_hierarchy(spec)
        assert [lv.key for lv in levels] == ["registers", "shared", "l1", "l2", "hbm"]
        assert [lv.scope for lv in levels] == ["thread", "block", "SM", "GPU", "GPU"]
        assert all(lv.scope in SCOPES for lv in levels)
        reg, smem, l1, l2, hbm = levels
        assert reg.capacity_bytes == spec.arch.registers_per_sm * 4 and reg.instances == spec.sm_count
        assert reg.limit_bytes == spec.arch.max_registers_per_thread * 4
        assert smem.capacity_bytes == spec.arch.shared_per_sm and smem.limit_bytes == spec.arch.shared_per_block_optin
        assert l1.capacity_bytes >= smem.capacity_bytes
        assert l2.capacity_bytes == spec.l2_bytes and l2.instances == 1
        assert hbm.capacity_bytes == spec.memory_bytes and hbm.bandwidth_gbs == spec.memory_bandwidth_gbs
        # latency grows and bandwidth falls away from the math units
        lats = [lv.latency_cycles for lv in levels[1:]]
        assert lats == sorted(lats)
        bws = [lv.bandwidth_gbs for lv in levels]
        assert bws == sorted(bws, reverse=True), (spec.name, bws)
        for lv in levels:
            assert {"capacity_bytes", "latency_cycles", "bandwidth_gbs"} <= set(lv.sources), (spec.name, lv.key)
            assert all(isinstance(v, str) and v for v in lv.sources.values())


def test_hierarchy_json():
    d = hierarchy_json("H100")
    assert d["gpu"] == "H100" and len(d["levels"]) == 5
    hbm = d["levels"][-1]
    assert hbm["latency_ns"] == pytest.approx(get_gpu("H100").lat_dram * 1000 / 1980)
    assert d["levels"][0]["latency_ns"] is None


def test_coalesced_vs_strided_bytes_per_request():
    assert access_pattern(4, 1).bytes_per_request == 128 and access_pattern(4, 1).efficiency == 1.0
    assert access_pattern(4, 2).bytes_per_request == 256
    assert access_pattern(4, 32).bytes_per_request == 1024 and access_pattern(4, 32).efficiency == 0.125
    assert access_pattern(16, 1).bytes_per_request == 512
    table = coalescing_table(4)
    assert [a.bytes_per_request for a in table] == [128, 256, 512, 1024, 1024, 1024]
    with pytest.raises(InputError):
        access_pattern(3, 1)
