"""The data files behind the GEMM model: typed, validated, sourced, consistent with the catalog."""

import tomllib

import pytest

from explorer.gemm.data import (
    DTYPES,
    GemmDataError,
    dtype_spec,
    gemm_data,
    load_throughput,
    parse_gemm_data,
    parse_throughput,
    peak_tflops,
    throughput,
)
from explorer.model.catalog import get_gpu, load_catalog
from explorer.model.errors import InputError
from explorer.paths import resource


def _raw(name):
    with open(resource(name), "rb") as fh:
        return tomllib.load(fh)


def test_every_catalog_gpu_has_throughput_figures_with_sources():
    tp = load_throughput()
    assert set(tp) == set(load_catalog())
    for name, t in tp.items():
        for dtype in DTYPES:
            fig = t.peak_tflops[dtype]
            assert fig.source, (name, dtype)
        assert t.l2_bandwidth_gbs.value > 0 and t.l2_bandwidth_gbs.source
        assert t.l1_shared_bytes_per_sm.value >= get_gpu(name).arch.shared_per_sm


def test_fp16_and_fp32_peaks_come_from_the_catalog_not_a_copy():
    for spec in load_catalog().values():
        t = throughput(spec)
        assert t.peak_tflops["fp16"].value == spec.tensor_fp16_tflops
        assert t.peak_tflops["fp32"].value == pytest.approx(spec.fp32_tflops)


def test_published_peaks_and_l2_bandwidth():
    h100 = throughput(get_gpu("H100"))
    assert h100.peak_tflops["bf16"].value == 989.4
    assert h100.peak_tflops["fp8"].value == 1978.9
    assert h100.peak_tflops["tf32"].value == 494.7
    a100 = throughput(get_gpu("A100"))
    assert a100.l2_bandwidth_gbs.value == pytest.approx(5120 * 1410 / 1000)  # WP-Ampere 5120 B/clk
    assert a100.supported_dtypes == ("fp32", "tf32", "fp16", "bf16")
    assert throughput(get_gpu("V100")).supported_dtypes == ("fp32", "fp16")


def test_unsupported_dtype_is_an_input_error_naming_the_choices():
    with pytest.raises(InputError) as err:
        peak_tflops(get_gpu("T4"), "bf16")
    assert err.value.field == "dtype" and "fp16" in err.value.message


def test_unknown_dtype():
    with pytest.raises(InputError) as err:
        dtype_spec("int4")
    assert err.value.field == "dtype" and "fp32, tf32, fp16, bf16, fp8" in err.value.message


def test_dtype_table():
    d = gemm_data().dtypes
    assert [d[x].bytes for x in DTYPES] == [4, 4, 2, 2, 1]
    assert d["fp16"].flops_per_instruction == 2 * 16 * 8 * 16
    assert d["tf32"].flops_per_instruction == 2 * 16 * 8 * 8
    assert d["fp8"].flops_per_instruction == 2 * 16 * 8 * 32
    assert d["fp32"].flops_per_instruction == 64 and not d["fp32"].tensor_core


def test_a_figure_without_source_is_refused():
    data = _raw("gpu_throughput.toml")
    del data["gpu"]["H100"]["sources"]["bf16_tflops"]
    with pytest.raises(GemmDataError, match="no source"):
        parse_throughput(data, load_catalog())


def test_zero_must_be_marked_unsupported():
    data = _raw("gpu_throughput.toml")
    data["gpu"]["H100"]["fp8_tflops"] = 0
    with pytest.raises(GemmDataError, match="unsupported"):
        parse_throughput(data, load_catalog())


def test_missing_gpu_table_is_refused():
    data = _raw("gpu_throughput.toml")
    del data["gpu"]["L4"]
    with pytest.raises(GemmDataError, match="L4"):
        parse_throughput(data, load_catalog())


def test_the_gemm_figures_are_the_models_one_load():
    """gpu_throughput.toml is read and validated once, by the model; the GEMM builds on the same figures."""
    from explorer.model.units import throughput_table, unit_facts

    table = throughput_table()
    for spec in load_catalog().values():
        t, facts = throughput(spec), unit_facts(spec)
        assert t.l2_bytes_per_clock is facts.l2_bytes_per_clock is table.gpu[spec.name]["l2_bytes_per_clock"]
        assert t.l1_shared_bytes_per_sm is facts.l1_shared_bytes_per_sm
        for dt in ("tf32", "bf16", "fp8"):
            assert t.peak_tflops[dt] is table.gpu[spec.name][f"{dt}_tflops"]


def test_the_models_validator_refuses_a_unit_figure_the_gemm_does_not_read():
    from explorer.model.catalog import CatalogError
    from explorer.model.units import parse_throughput_table

    data = _raw("gpu_throughput.toml")
    del data["arch"]["9.0"]["int32_lanes_per_sub_partition"]
    with pytest.raises(CatalogError, match=r'arch\."9\.0"\.int32_lanes_per_sub_partition: expected a positive number'):
        parse_throughput_table(data, load_catalog())
    with pytest.raises(GemmDataError, match="int32_lanes_per_sub_partition"):
        parse_throughput(data, load_catalog())


def test_a_label_in_two_languages():
    spec = gemm_data().dtypes["bf16"]
    assert spec.label == "BF16 (Tensor Cores, FP32 accumulate)" and spec.label_in("en") == spec.label
    assert "тензорные ядра" in spec.label_in("ru") and spec.label_in("de") == spec.label


def test_gemm_toml_validation():
    data = _raw("gemm.toml")
    data["dtype"]["fp16"]["tile"] = [128, 128, 40]
    with pytest.raises(GemmDataError, match="multiple of the MMA shape"):
        parse_gemm_data(data)
    data = _raw("gemm.toml")
    del data["model"]["sources"]["l2_usable_fraction"]
    with pytest.raises(GemmDataError, match="no source"):
        parse_gemm_data(data)
    data = _raw("gemm.toml")
    data["model"]["l2_usable_fraction"] = 1.5
    with pytest.raises(GemmDataError, match="above 1"):
        parse_gemm_data(data)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d["dtype"]["bf16"].__setitem__("wgmma_tile", [96, 256, 64]), "multiple of"),
    (lambda d: d["dtype"]["fp32"].__setitem__("wgmma_tile", [128, 128, 8]), "no wgmma tile"),
    (lambda d: d["dtype"]["bf16"]["sources"].pop("wgmma_tile"), "no source"),
    (lambda d: d["wgmma"].__setitem__("default_schedule", "stream-k"), "default_schedule"),
    (lambda d: d["wgmma"].__setitem__("default_cluster", [2, 9]), "default_cluster"),
    (lambda d: d["wgmma"].__setitem__("consumer_warpgroups", 3), "2 consumer"),
    (lambda d: d["wgmma"]["sources"].pop("consumer_registers"), "no source"),
    (lambda d: d["async_mma"].pop("10.0"), "no \\[async_mma"),
    (lambda d: d["async_mma"]["9.0"].__setitem__("accumulators", "smem"), "accumulators"),
    (lambda d: d["async_mma"]["9.0"].__setitem__("mma_m", 48), "multiple of 64"),
    (lambda d: d["dtype"]["fp16"]["label"].pop("en"), "dtype.fp16.label.en: missing"),
    (lambda d: d["dtype"]["fp16"]["label"].__setitem__("rus", "x"), "two-letter language code"),
    (lambda d: d["dtype"]["fp16"].__setitem__("label", ""), "dtype.fp16.label: expected text"),
])
def test_wgmma_tables_are_validated(edit, match):
    data = _raw("gemm.toml")
    edit(data)
    with pytest.raises(GemmDataError, match=match):
        parse_gemm_data(data)


def test_the_shipped_wgmma_tables():
    g = gemm_data()
    assert g.wgmma.compute_capabilities == ("9.0", "10.0")
    assert (g.wgmma.producer_registers, g.wgmma.consumer_registers) == (40, 232)
    assert g.async_mma["9.0"].instruction == "wgmma.mma_async" and g.async_mma["9.0"].mma_m == 64
    assert g.async_mma["10.0"].accumulators == "tensor_memory"
    assert g.dtypes["bf16"].wgmma_tile == (128, 256, 64) and g.dtypes["fp32"].wgmma_tile is None
    assert set(g.clocks) == set(load_catalog())
    for table in g.clocks.values():
        assert set(table["sources"]) >= {k for k in table if k != "sources"}
