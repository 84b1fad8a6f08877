"""The text layer (explorer/texts): one number formatter and the bottleneck's sentence from a record, Qt-free."""

from __future__ import annotations

import pytest

from explorer.texts import bottleneck as bt
from explorer.texts.numbers import ENGLISH, si, significant

RUSSIAN = ("\u00a0", ",", {"T": "Т", "G": "Г", "B/s": "Б/с", "warp-instructions/s": "варп-инструкций/с"}.get)


@pytest.mark.parametrize("value,units,text", [
    (3.35e12, "B/s", "3.35 TB/s"), (8.67e9, "FLOP", "8.67 GFLOP"), (1.05e12, "warp-instructions/s",
                                                                      "1.05 T warp-instructions/s"),
    (1200.0, "", "1.2 k"), (512.0, "", "512"), (512.0, "B", "512 B"), (999.6e9, "B/s", "1,000 GB/s"),
    (0.75, "B", "0.75 B"), (-2.5e6, "B", "-2.5 MB"),
])
def test_si_in_english(value, units, text):
    assert si(value, units, style=ENGLISH) == text


def test_si_in_another_style_translates_the_prefix_and_the_unit():
    assert si(3.35e12, "B/s", style=RUSSIAN) == "3,35 ТБ/с"
    assert si(1.05e12, "warp-instructions/s", style=RUSSIAN) == "1,05 Т варп-инструкций/с"


def test_significant_never_writes_an_exponent():
    assert significant(123.4, 2, ENGLISH) == "120"  # Python's .2g says 1.2e+02
    assert significant(6.24, 2, ENGLISH) == "6.2" and significant(0.000123, 2, ENGLISH) == "0.00012"
    assert significant(1234567.0, 3, ENGLISH) == "1,230,000"


def test_every_reason_code_renders_from_its_figures():
    """Each template's fields are the figures its record carries (a hand-made record per code)."""
    figures = {"dram_per_fma": {"per": 6.24}, "dram_bytes": {"mb": 4.42}, "l2": {"mb": 3.93}, "l1": {"busy": "busy"},
               "shared": {"busy": "full"}, "lsu": {}, "issue": {"busy": "busy"},
               "issue_and_pipe": {"busy": "full", "label": "fp32", "pct": 97.4, "pipe": "fp32"},
               "fp32": {"busy": "full"}, "tensor": {"busy": "busy"}, "sfu": {}, "int": {"busy": "full"},
               "idle_sms": {"pct": 94.2}, "idle_sms_one_full": {"pct": 54.0, "label": "tensor", "share": 91.0},
               "wait_level": {"warps": 1920, "cycles": 741.3, "level": "hbm"},
               "waiting": {"warps": 8448, "state": "barrier"}}
    assert set(figures) == set(bt.REASONS)
    for code, f in figures.items():
        unit = "latency" if code in ("idle_sms", "idle_sms_one_full", "wait_level", "waiting") else "dram"
        record = {"unit": unit, "pct_of_peak": 84.3,
                  "reason": {"code": code, "figures": f, "peak": 3.35e12, "peak_units": "B/s", "top": "dram"}}
        text = bt.sentence(record)
        assert "{" not in text and text.startswith("DRAM at 84% of 3.35 TB/s: " if unit == "dram"
                                                   else "no unit above 84% (DRAM): ")
    wait = {"unit": "latency", "pct_of_peak": 18.1,
            "reason": {"code": "wait_level", "top": "dram", "figures": {"warps": 1920, "cycles": 1595.4, "level": "dram"}}}
    assert bt.sentence(wait) == ("no unit above 18% (DRAM): 1,920 warps each wait ~1,595 cycles for DRAM; more bytes "
                                 "in flight per SM (more warps, or more independent loads per warp) would help")
    pipe = {"unit": "issue", "pct_of_peak": 82.9, "reason": {"code": "issue_and_pipe", "peak": 1.05e12,
            "peak_units": "warp-instructions/s", "figures": {"busy": "busy", "label": "fp32", "pct": 81.6, "pipe": "fp32"}}}
    assert bt.sentence(pipe) == ("Issue slots at 83% of 1.05 T warp-instructions/s: the schedulers issue in most "
                                 "cycles; FP32 is at 82% too (here one FP32 instruction per scheduler per cycle is "
                                 "both peaks); only fewer instructions per result would help, not more warps")


def test_the_text_layer_imports_nothing_of_the_project_above_it():
    import ast
    from pathlib import Path

    for path in (Path(__file__).resolve().parents[1] / "explorer" / "texts").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("explorer"):
                assert node.module.startswith("explorer.texts"), (path.name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith(("explorer.", "PySide6")) and not a.name.startswith("explorer.texts")
                               for a in node.names), path.name


def test_the_names_tables_are_the_cores():
    """The core's tables are the text layer's (one English copy); the states' sentences are in code order, which
    the window's legend relies on."""
    from explorer.model.scenario import POLICY_DOC
    from explorer.model.workload import PRESETS
    from explorer.sim.states import MEANING as STATES
    from explorer.sim.states import NAMES
    from explorer.model.units import MEANING as UNITS
    from explorer.texts import names

    assert list(names.STATE_MEANING) == list(NAMES) and STATES is names.STATE_MEANING
    assert UNITS is names.UNIT_MEANING and POLICY_DOC is names.POLICY_DOC
    assert {k: v["doc"] for k, v in PRESETS.items()} == names.WORKLOAD_DOC


def test_the_bottleneck_sentence_is_a_catalog_message():
    """The sentence is the SolTexts catalogue's Message (one mechanism with the GEMM's sentences): it pickles as
    its record and renders the same in any number style the template names."""
    import pickle

    from explorer.texts.message import Message

    record = {"unit": "latency", "pct_of_peak": 18.1,
              "reason": {"code": "waiting", "top": "dram", "figures": {"warps": 8448, "state": "barrier"}}}
    m = bt.message(record)
    assert isinstance(m, Message) and m.catalog is bt.SOL and m == bt.sentence(record)
    assert pickle.loads(pickle.dumps(m)) == m and m.figures["reason"].code == "waiting"
    assert bt.sentence(record, style=RUSSIAN).startswith("no unit above 18% (DRAM): 8\u00a0448 warps mostly wait at")
    odd = {**record, "reason": {**record["reason"], "figures": {"warps": 32, "state": "long_scoreboard"}}}
    assert bt.reason(odd) == "32 warps mostly long_scoreboard"  # a state without a phrase is named as it is


def test_a_catalog_spec_may_be_a_function_of_the_value_and_the_style():
    from explorer.texts.message import Catalog

    c = Catalog("TestSpecTexts", {"t": "{a} and {b} ({w})"}, specs={"t": {"a": lambda v, style: f"<{v}>"}},
                words={"w": {"x": "ex"}})
    assert c("t", a=1.5, b=2, w="x") == "<1.5> and 2 (ex)" and c("t", a=1, b=2, w="y") == "<1> and 2 (y)"


def test_traffic_paths_and_level_names_are_worded_from_their_codes():
    from explorer.texts.gemm import path_text
    from explorer.texts.names import LEVEL_NAME

    assert path_text(("l2", "shared"), "tma") == "L2 -> shared memory (TMA)"
    assert path_text(("tensor", "tensor_memory", "registers")) == "Tensor Cores -> Tensor Memory -> registers"
    assert path_text(("registers", "fp32"), None, lambda ctx, text: text.upper(), " → ") == "REGISTERS → FP32 PIPES"
    hbm = LEVEL_NAME("hbm", kind="HBM3")
    assert hbm == "Device memory (HBM3)" and hbm.figures == {"kind": "HBM3"}


@pytest.mark.parametrize("value,unit,text", [
    (12345.4, "cycles", "12,345"), (7, "blocks", "7"), (132, "sms", "132"), (0.5, "fraction", "50%"),
    (0.6254, "fraction", "62.5%"), (0.0312, "share", "3.1%"), (12.345, "warps", "12.35"), (128.0, "warps", "128"),
    (59.0e6, "bytes", "59 MB"), (1.534e9, "bytes", "1.53 GB"), (None, "cycles", "n/a"),
])
def test_a_comparisons_figures_are_written_by_their_unit(value, unit, text):
    """``measure --compare``'s table (explorer.gpu.compare) writes its figures with the one number formatter."""
    from explorer.texts.figures import compared_text

    assert compared_text(value, unit) == text


def test_a_comparisons_error_is_signed_in_percent_or_points():
    from explorer.texts.figures import error_text

    assert error_text(0.0321, "cycles") == "+3.2%" and error_text(-0.25, "warps") == "-25.0%"
    assert error_text(0.0, "blocks") == "+0.0%" and error_text(-0.015, "fraction") == "-1.5 pt"
    assert error_text(None, "cycles") == "" and error_text(0.0321, "cycles", RUSSIAN) == "+3,2%"


def test_percent_and_a_figure_not_known():
    from explorer.texts.numbers import known, num, pct, percent

    assert percent(90.0, style=ENGLISH) == "90%" and percent(22.34, style=ENGLISH) == "22.3%"
    assert percent(97.46, 0, style=ENGLISH) == "97%" and percent(97.5, 1, RUSSIAN) == "97,5%"
    assert known(None, pct, style=ENGLISH) == "n/a" and known(0.75, pct, style=ENGLISH) == "75%"
    assert known(None) == "n/a" and known(9540, style=ENGLISH) == "9,540"
    assert known(1979.6, num, group=False, style=ENGLISH) == "1980"


def test_the_measure_report_writes_its_figures_as_the_other_commands_do():
    """``measure``'s report: percentages as simulate and measure --compare write them (``100%``, not ``100.0%``),
    a figure not known as ``n/a`` (not ``n/a%``)."""
    from pathlib import Path

    from explorer.cli.cmd_measure import format_measurement
    from explorer.gpu.measurement import load_measurement

    m = load_measurement(Path(__file__).parent / "data" / "measurement-v1-synthetic-example.npz")
    text = format_measurement(m)
    assert "records 5.3 us = 10,588 cycles at 1980 MHz" in text
    assert "theoretical 100% (8 blocks/SM; driver: n/a), achieved 22.5%" in text and "SMs busy 99.4%" in text
    m.meta["nvml"] = {"available": True, "gpm": {"available": True, "sm_occupancy": 22.34, "sm_util": 90.0},
                      "kernel_busy_fraction": 1.0, "launches": 9540, "elapsed_s": 1.5}
    assert ("utilization n/a | GPM SM occupancy 22.3%, SM util 90% | kernels busy 100% of 9,540 launches in 1.5 s"
            in format_measurement(m))
