"""Measured fragments (resources/measured/<GPU>.toml): the schema, the shipped H200 figures, merging, gpus --json."""

from __future__ import annotations

import copy
import json
import math
import os
import tomllib

import pytest

from explorer.model import measured as M
from explorer.paths import resource

H200 = resource("measured", "H200.toml")


def h200_doc() -> dict:
    return tomllib.loads(H200.read_text(encoding="utf-8"))


def test_the_shipped_h200_figures_are_microbench_md_s():
    """Hand-copied from gpu-runs/h200-2026-12-04/MICROBENCH.md: the file holds those figures, nothing else."""
    f = M.read_fragment(H200)
    assert f.gpu == "H200" and f.run["date"] == "2026-12-04" and f.run["driver"] == "580.159.04"
    assert f.run["cuda"] == "13.0" and f.run["clock_mhz"] == 1980.0
    assert f.value("device", "l2_bytes") == 62_914_560 == 60 * 2**20  # not the H100's 50 MB
    assert f.value("device", "memory_bytes") == 150_109_880_320
    lat = {k: f.value("latency_cycles", k) for k in M.SECTIONS["latency_cycles"]}
    assert lat == {"l1_hit": 39.0, "shared": 28.7, "l2_hit_bypass_l1": 298.5, "l2_hit_1mib": 337.0,
                   "l2_hit_8mib": 380.0, "l2_hit_32mib": 382.0, "dram_256mib": 613.0, "dram_2gib": 671.0,
                   "ffma_dependent": 4.28}
    assert (296 + 301) / 2 == lat["l2_hit_bypass_l1"] and "296-301" in f.figure("latency_cycles",
                                                                                 "l2_hit_bypass_l1").source
    curve = f.sections["loaded_latency"]
    assert curve["warps_per_sm"].value == (1, 2, 4, 8, 12, 16, 24, 32, 48)
    assert curve["dram_cycles"].value == (729, 706, 754, 777, 800, 837, 922, 1061, 1433)
    assert curve["dram_gbs"].value[-1] == 4329 and curve["l2_cycles"].value[-1] == 407
    assert curve["l2_gbs"].value == (333, 742, 1505, 2985, 4368, 5801, 8443, 10251, 13419)
    assert "l2_bypass_l1_cycles" not in curve  # MICROBENCH.md took the L2 curve with plain ld only
    bw = f.sections["bandwidth_gbs"]
    assert [bw[k].value for k in ("dram_read", "dram_write", "dram_copy")] == [4319.0, 4235.0, 3960.0]
    # the L2 bandwidths are the file's B/clk at its clock
    for key, bpc in (("l2_read_4mib", 3254), ("l2_read_32mib", 3843)):
        assert bw[key].value * 1e9 / 1980e6 == pytest.approx(bpc, abs=1)
    comp = f.sections["compute"]
    assert comp["ffma_tflops"].value == 61.1
    assert comp["ffma_tflops"].value * 1e12 / 2 / 132 / 1980e6 == pytest.approx(comp["ffma_per_clk_per_sm"].value,
                                                                                abs=0.1)
    launch = {k: v.value for k, v in f.sections["launch_us"].items()}
    assert launch == {"launch_gap": 1.66, "back_to_back_5us_kernel": 6.66, "graph_node": 0.69,
                      "launch_call_cpp": 3.23, "launch_sync_cpp": 8.11}
    assert launch["back_to_back_5us_kernel"] - 5.0 == pytest.approx(launch["launch_gap"])
    assert {k: v.value for k, v in f.sections["nvml_utilization_pct"].items()} == {
        "idle": 0.0, "one_warp": 100.0, "duty_20pct": 20.0}


def test_every_shipped_figure_cites_its_gpu_date_and_method():
    for facts in M.load_measured_all().values():
        for section, figures in facts.sections.items():
            for name, fig in figures.items():
                m = M.SOURCE_RE.match(fig.source)
                assert m and m.group("gpu") == facts.gpu, (section, name, fig.source)
                rest = fig.source.split(", ", 3)[3]
                assert len(rest) > 15, (section, name, fig.source)  # a method, not a bare date
                kind = "driver" if section == "device" else "measured"
                assert fig.source.startswith(kind + ", "), (section, name)


def test_the_file_is_exactly_what_the_writer_writes():
    """The shared run's figures and a future run's look alike: one writer, one format."""
    text = H200.read_text(encoding="utf-8")
    assert M.format_fragment(h200_doc()) == text
    assert M.format_fragment(M.read_fragment(H200).to_document()) == text


def test_catalog_figures_are_not_changed_by_a_fragment():
    from explorer.model.catalog import get_gpu

    h200 = get_gpu("H200")
    assert h200.measured is not None and h200.measured.value("latency_cycles", "dram_256mib") == 613.0
    # gpus.toml's own figures (the simulator's: lat_dram is a one-line warp load's, fitted to the loaded-latency
    # curve; the fragment's is a one-thread chase's): a fragment informs the catalog, it does not overwrite it
    assert h200.lat_dram == 703 and h200.l2_bytes == 62_914_560
    assert get_gpu("V100").measured is None


def test_gpus_json_shows_measured_figures_with_sources(capsys):
    from explorer.cli.main import main

    assert main(["gpus", "--json"]) == 0
    gpus = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    m = gpus["H200"]["measured"]
    assert m["file"] == "measured/H200.toml" and m["run"]["date"] == "2026-12-04"
    assert m["latency_cycles"]["dram_2gib"] == {"value": 671.0, "unit": "cycles",
                                                "source": M.read_fragment(H200).figure("latency_cycles",
                                                                                       "dram_2gib").source}
    assert m["loaded_latency"]["warps_per_sm"]["value"][-1] == 48
    assert m["device"]["l2_bytes"]["source"].startswith("driver, H200, 2026-12-04, ")
    assert gpus["H100"]["measured"] is None
    assert main(["gpus"]) == 0
    assert "measured on the GPU itself: H200 (2026-12-04, resources/measured/H200.toml)" in capsys.readouterr().out


# -- the schema refuses -------------------------------------------------------------------------
def _broken(change) -> dict:
    doc = copy.deepcopy(h200_doc())
    change(doc)
    return doc


@pytest.mark.parametrize("change, words", [
    (lambda d: d["latency_cycles"].__setitem__("l3_hit", 50.0), "not a figure of [latency_cycles]"),
    (lambda d: d["latency_cycles"]["sources"].pop("l1_hit"), "has no source"),
    (lambda d: d["latency_cycles"]["sources"].__setitem__("l1_hit", "LUO24"), "has no source"),
    (lambda d: d["latency_cycles"]["sources"].__setitem__("l1_hit", "measured, H200, 2026-13-04, chase"), "ISO date"),
    (lambda d: d["latency_cycles"]["sources"].__setitem__("l9", "measured, H200, 2026-12-04, x"), "not there"),
    (lambda d: d["latency_cycles"].__setitem__("l1_hit", -1.0), ">= 0"),
    (lambda d: d["latency_cycles"].__setitem__("l1_hit", math.nan), "finite"),
    (lambda d: d["latency_cycles"].__setitem__("l1_hit", "39"), "expected a number"),
    (lambda d: d["latency_cycles"].__setitem__("l1_hit", True), "expected a number"),
    (lambda d: d["loaded_latency"]["dram_cycles"].pop(), "8 points for 9 warps_per_sm"),
    (lambda d: d["loaded_latency"]["warps_per_sm"].reverse(), "ascending"),
    (lambda d: d["loaded_latency"].__setitem__("dram_cycles", [1.0] * 65), "1 to 64 numbers"),
    (lambda d: d.__setitem__("schema", 2), "schema"),
    (lambda d: d["run"].pop("driver"), "run.driver: missing"),
    (lambda d: d["run"].__setitem__("date", "4 Dec 2026"), "ISO date"),
    (lambda d: d["run"].__setitem__("colour", "green"), "unknown key"),
    (lambda d: d.__setitem__("latencies", {}), "unknown table"),
])
def test_the_schema_refuses(change, words):
    with pytest.raises(M.MeasuredError) as info:
        M.parse_fragment(_broken(change), "H200.toml")
    assert words in str(info.value) and "\n" not in str(info.value)


def test_format_refuses_what_it_could_not_read_back():
    with pytest.raises(M.MeasuredError, match="has no source"):
        M.format_fragment(_broken(lambda d: d["compute"]["sources"].clear()))


def test_files_are_read_within_limits(tmp_path):
    from explorer.model.errors import InputError

    ok = tmp_path / "H200.toml"
    ok.write_text(H200.read_text())
    assert M.read_fragment(ok).gpu == "H200"
    wrong = tmp_path / "H100.toml"
    wrong.write_text(H200.read_text())
    with pytest.raises(M.MeasuredError, match="does not match the file name"):
        M.read_fragment(wrong)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * M.MAX_FRAGMENT_BYTES)
    with pytest.raises(InputError, match="limit"):
        M.read_fragment(big)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(InputError):
        M.read_fragment(folder)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.toml"
        os.mkfifo(fifo)
        with pytest.raises(InputError, match="regular file"):
            M.read_fragment(fifo)
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = [")
    with pytest.raises(M.MeasuredError, match="not valid TOML"):
        M.read_fragment(bad)


# -- a later run refreshes ------------------------------------------------------------------------
def _new_run() -> dict:
    src = "measured, H200, 2027-01-15, explorer.gpu.microbench: chase"
    return {"schema": 1, "gpu": "H200",
            "run": {"date": "2027-01-15", "device": "NVIDIA H200", "driver": "590.1", "cuda": "13.1",
                    "clock_mhz": 1975.0, "tool": "explorer.gpu.microbench"},
            "latency_cycles": {"l1_hit": 35.5, "dram_256mib": 600.25, "sources": {"l1_hit": src, "dram_256mib": src}},
            "loaded_latency": {"warps_per_sm": [1, 2], "dram_cycles": [700.0, 690.0],
                               "sources": {"warps_per_sm": src, "dram_cycles": src}}}


def test_a_new_run_replaces_what_it_measured_and_keeps_the_rest():
    merged = M.parse_fragment(M.merge_fragments(h200_doc(), _new_run()))
    assert merged.run["date"] == "2027-01-15" and merged.run["driver"] == "590.1"
    assert merged.value("latency_cycles", "l1_hit") == 35.5
    assert merged.figure("latency_cycles", "l1_hit").source.startswith("measured, H200, 2027-01-15")
    assert merged.value("latency_cycles", "shared") == 28.7  # not measured again: kept, with its own date
    assert merged.figure("latency_cycles", "shared").source.startswith("measured, H200, 2026-12-04")
    assert list(merged.sections["latency_cycles"]) == [k for k in M.SECTIONS["latency_cycles"]]  # schema order
    # curves at other warp counts cannot be mixed: the new section replaces the old one whole
    assert merged.sections["loaded_latency"].keys() == {"warps_per_sm", "dram_cycles"}
    assert merged.value("loaded_latency", "dram_cycles") == (700.0, 690.0)
    assert merged.value("bandwidth_gbs", "dram_read") == 4319.0
    same_warps = _new_run()
    same_warps["loaded_latency"] = {"warps_per_sm": [1, 2, 4, 8, 12, 16, 24, 32, 48],
                                    "l2_bypass_l1_cycles": [300.0] * 9,
                                    "sources": {"warps_per_sm": "measured, H200, 2027-01-15, curve",
                                                "l2_bypass_l1_cycles": "measured, H200, 2027-01-15, curve"}}
    kept = M.parse_fragment(M.merge_fragments(h200_doc(), same_warps)).sections["loaded_latency"]
    assert kept["dram_cycles"].value[0] == 729 and kept["l2_bypass_l1_cycles"].value[0] == 300.0
    assert M.parse_fragment(M.merge_fragments(None, _new_run())).sections.keys() == {"latency_cycles",
                                                                                     "loaded_latency"}
    other = _new_run()
    other["gpu"] = "H100"
    with pytest.raises(M.MeasuredError, match="cannot merge"):
        M.merge_fragments(h200_doc(), other)
