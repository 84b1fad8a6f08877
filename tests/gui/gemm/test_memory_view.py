"""The Memory tab: the hierarchy to scale, live traffic from the Explorer, coalescing, attention, lessons."""

from __future__ import annotations

import pytest

from explorer.gemm import coalescing_table, compare_attention, flash_hbm_bytes, memory_hierarchy, naive_hbm_bytes
from explorer.gui.common import palette as oi
from explorer.texts.numbers import si_bytes
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.gemm.memory_page import LEVEL_COLORS, MemoryPage
from explorer.model.lessons import get_lesson
from explorer.model.presets import load_preset
from explorer.sim import simulate
from tests.gui.gemm.pixels import count_color
from tests.gui.support import RUN_TIMEOUT, show_page, wait_run


@pytest.fixture
def page(window, qtbot) -> MemoryPage:
    return show_page(window, qtbot, "memory")


def test_hierarchy_rows_show_the_cores_figures_drawn(page):
    h = page.hierarchy
    levels = memory_hierarchy("H100")
    assert [lv.key for lv in h.levels] == ["registers", "shared", "l1", "l2", "hbm"]
    assert h.levels == levels
    rows = h.rows
    assert rows["registers"]["scope"].text() == "per thread"
    assert rows["shared"]["scope"].text() == "per block"
    assert rows["l1"]["scope"].text() == "per SM"
    assert rows["hbm"]["scope"].text() == "whole GPU"
    assert rows["registers"]["capacity"].text == "256 KiB per SM"
    assert "at most 1,020 B per thread" in rows["registers"]["capacity_note"].text()
    assert rows["shared"]["capacity"].text == "228 KiB per SM"
    assert rows["l2"]["capacity"].text == "50 MiB on the GPU"
    assert rows["hbm"]["capacity"].text == "80 GiB on the GPU"
    assert rows["shared"]["latency"].text == "29 cycles" and rows["hbm"]["latency"].text == "703 cycles"  # measured on the H200 (same die), resources/gpus.toml
    assert rows["hbm"]["bandwidth"].text == "3.35 TB/s" and rows["shared"]["bandwidth"].text == "33.5 TB/s"
    # to scale: capacities on a log axis, latencies linear, bandwidths on a log axis
    cap = {k: r["capacity"].fraction for k, r in rows.items()}
    assert cap["shared"] < cap["l2"] < cap["hbm"]
    assert rows["hbm"]["latency"].fraction == 1.0
    assert rows["shared"]["latency"].fraction == pytest.approx(29 / 703)
    assert rows["hbm"]["bandwidth"].fraction < rows["l2"]["bandwidth"].fraction < rows["shared"]["bandwidth"].fraction
    for key in ("shared", "l2", "hbm"):  # each level's bars are on screen in its colour
        assert count_color(h, LEVEL_COLORS[key]) > 50, key


def test_gpu_choice_redraws_the_hierarchy(page):
    page.set_gpu("A100")
    assert page.hierarchy.gpu_name == "A100" and "A100" in page.hierarchy.title_label.text()
    assert page.hierarchy.rows["hbm"]["capacity"].text == "80 GiB on the GPU"
    assert page.hierarchy.rows["l2"]["capacity"].text == "40 MiB on the GPU"
    assert page.attention.comparison.gpu == "A100"


def test_live_traffic_equals_the_explorers_simresult(window, page, qtbot):
    run = wait_run(qtbot, window.explorer)
    mb = run.result.memory_bytes
    expected = {"shared": int(mb["shared"]), "l1": int(mb["l1"]), "l2": int(mb["l2"]), "hbm": int(mb["dram"])}
    assert page.hierarchy.traffic == expected
    assert expected["hbm"] > 0
    assert page.hierarchy.rows["hbm"]["traffic"].text.startswith(si_bytes(expected["hbm"]))
    assert page.hierarchy.rows["hbm"]["traffic_note"].text() == f"{expected['hbm']:,} bytes"
    assert page.hierarchy.rows["registers"]["traffic"].text == "not counted"
    assert run.result.scenario.name in page.hierarchy.run_text.text()
    # L1 serves no hit of this kernel yet carries every sector: the row says both, with the Speed-of-Light
    # panel's share (one source of figures for both views, issue 31 item 10)
    l1 = run.summary["throughput"]["l1"]
    assert expected["l1"] == 0 and l1["pct_of_peak"] > 1
    assert page.hierarchy.rows["l1"]["traffic"].text.startswith("0 B · ")
    assert page.hierarchy.rows["l1"]["traffic"].text.endswith(f"({l1['pct_of_peak']:.0f}% of peak)")
    # a new simulation in the Explorer replaces the numbers (a run with L2 hits and shared-memory traffic)
    scenario = load_preset("tensor-gemm")
    other = SimRun.from_result(simulate(scenario))
    window.workspace.show_run(other)
    mb = other.result.memory_bytes
    assert page.hierarchy.traffic == {"shared": int(mb["shared"]), "l1": int(mb["l1"]), "l2": int(mb["l2"]),
                                      "hbm": int(mb["dram"])}
    assert page.hierarchy.traffic["shared"] > 0 and page.hierarchy.rows["shared"]["traffic"].fraction > 0
    assert f"HBM {si_bytes(mb['dram'])}" in page.status_text
    assert count_color(page.hierarchy.rows["shared"]["traffic"], LEVEL_COLORS["shared"]) > 20


def test_coalescing_shows_bytes_per_request(page):
    c = page.coalescing
    table = coalescing_table(4)
    assert [label.text() for label, _bar in c.rows] == ["stride 1 (coalesced)"] + [f"stride {a.stride}"
                                                                                   for a in table[1:]]
    assert c.rows[0][1].text == "128 B moved, 4 sectors · 100% used"
    assert c.rows[3][1].text == "1,024 B moved, 32 sectors · 12.5% used"
    assert [bar.moved for _l, bar in c.rows] == [a.bytes_per_request for a in table]
    # drawn: the used bytes solid blue, the wasted bytes hatched vermillion
    assert count_color(c.rows[0][1], oi.BLUE) > 20
    assert count_color(c.rows[5][1], oi.VERMILLION) > 20
    c.width_box.setCurrentIndex(c.width_box.findData(16))
    table16 = coalescing_table(16)
    assert [bar.moved for _l, bar in c.rows] == [a.bytes_per_request for a in table16]
    assert c.rows[0][1].text.startswith("512 B moved")


def test_attention_side_by_side_for_the_typed_sizes(page):
    a = page.attention
    a.fields["seq_len"].set_text("1024")
    a.fields["head_dim"].set_text("64")
    c = a.comparison
    assert (c.seq_len, c.head_dim) == (1024, 64)
    assert c.naive.global_bytes == naive_hbm_bytes(1024, 64, 2)
    assert c.flash.global_bytes == flash_hbm_bytes(1024, 64, 2, c.block_q)
    assert a.cells[("hbm", "naive")].text() == si_bytes(c.naive.hbm_bytes)
    assert a.cells[("hbm", "flash")].text() == si_bytes(c.flash.hbm_bytes)
    assert a.cells[("intensity", "flash")].text() == f"{c.flash.arithmetic_intensity:,.1f} FLOP/B"
    assert a.cells[("hbm", "ratio")].text() == f"×{c.hbm_reduction:.2f}"
    assert "forward pass only" in a.assumptions.text()
    assert a.bytes_bars[0].fraction == 1.0 and a.bytes_bars[1].fraction == pytest.approx(
        c.flash.hbm_bytes / c.naive.hbm_bytes)
    # a bad head size: the core's message, the last comparison kept
    a.fields["head_dim"].set_text("0")
    assert a.fields["head_dim"].message == "0 is below the minimum of 1"
    assert a.comparison is c and a.stale.isVisible()
    a.fields["head_dim"].set_text("64")
    assert not a.stale.isVisible()


def test_memory_lesson_steps_match_the_view(window, page, qtbot):
    lesson = get_lesson("memory-hierarchy")
    first = lesson.steps[0]
    assert first.view == "memory" and "memory" in first.highlight
    # the lesson panel would load the step's scenario into the Explorer and show this view
    window.workspace.change_scenario(lesson.scenario_at(0), "lesson")
    qtbot.waitUntil(lambda: window.workspace.session.run is not None
                    and window.workspace.session.run.result.scenario == lesson.scenario_at(0)
                    and not window.workspace.session.simulating, timeout=RUN_TIMEOUT)
    assert window.show_view(first.view)
    en = first.text("en")
    rows = page.hierarchy.rows
    for text in ("256 KiB", "1,020 B", "228 KiB", "50 MiB", "80 GiB", "29 cycles", "703", "33.5 TB/s", "3.35 TB/s",
                 si_bytes(page.hierarchy.traffic["hbm"])):
        assert text in en, text
    # the loads all come from HBM; the stores, as many bytes, are absorbed by the write-back L2
    assert rows["hbm"]["traffic"].text.startswith("4.33 MB")
    assert page.hierarchy.traffic["l2"] == page.hierarchy.traffic["hbm"] and page.hierarchy.traffic["l1"] == 0
    # the caches' counters from the addresses (Nsight's sector hit rates): no load is kept in L1, the stores'
    # sectors (half of them) are written into L2 without a fetch
    assert rows["l1"]["traffic_note"].text() == "0 bytes · 0% of 270,336 sectors hit"
    assert rows["l2"]["traffic_note"].text() == "4,325,376 bytes · 50% of 270,336 sectors hit"
    assert "hits come from the addresses" in page.hierarchy.run_text.text()
    # the attention step: its inputs reach the view, its numbers are the view's
    step = next(s for s in lesson.steps if s.gemm)
    window.views[step.view].apply_lesson_gemm(step.gemm)
    c = page.attention.comparison
    assert (c.seq_len, c.head_dim, c.dtype) == (4096, 128, "fp16")
    for text in (si_bytes(c.naive.hbm_bytes), si_bytes(c.flash.global_bytes), si_bytes(c.flash.hbm_bytes),
                 "45.9 µs", "10.4 µs"):
        assert text in step.text("en"), text
    assert page.attention.cells[("time", "naive")].text() == "45.9 µs"
    ref = compare_attention("H100", 4096, 128, dtype="fp16")
    assert ref.global_reduction == pytest.approx(2.0, abs=0.01) and ref.flash.reuse_level == "l2"
    assert ref.hbm_reduction == pytest.approx(ref.naive.hbm_bytes / ref.flash.hbm_bytes)


def test_memory_inputs_survive_a_restart(qtbot, settings, light_theme):
    from explorer.gui.shell.main_window import MainWindow

    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    m = first.views["memory"]
    m.attention.set_inputs({"seq_len": "2048", "head_dim": "64"}, "bf16")
    m.coalescing.width_box.setCurrentIndex(2)
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    m2 = second.views["memory"]
    assert m2.attention.raw_values() == {"seq_len": "2048", "head_dim": "64"}
    assert m2.attention.comparison.dtype == "bf16" and m2.coalescing.width_box.currentData() == 16


def test_attention_bytes_time_and_bound_agree_and_the_headline_names_the_reuse_level(page):
    a = page.attention
    a.set_inputs({"seq_len": "4096", "head_dim": "128"}, "fp16")
    c = a.comparison
    n, d, b = 4096, 128, 2
    # through L2, exact: naive (4·N·d + 4·N²)·2 B; flash N·d·(2 + 2·ceil(N/128))·2 B + 4·N (logsumexp)
    assert c.naive.global_bytes == (4 * n * d + 4 * n * n) * b == 138_412_032
    assert c.flash.global_bytes == n * d * (2 + 2 * 32) * b + 4 * n == 69_222_400
    assert a.cells[("global", "naive")].text() == "138 MB" and a.cells[("global", "flash")].text() == "69.2 MB"
    assert a.cells[("global", "ratio")].text() == "×2.00"
    # HBM, modelled: K and V of the head in flight stay in L2, so HBM sees Q, K, V and O once (+ logsumexp)
    assert c.flash.reuse_level == "l2" and c.flash.hbm_bytes == 4 * n * d * b + 4 * n
    assert a.cells[("hbm", "flash")].text() == "4.21 MB" and a.cells[("reuse", "flash")].text() == "L2"
    assert a.cells[("reuse", "naive")].text() == "HBM"  # S and P (33.6 MB each) do not fit the usable 25 MiB
    # the time is the largest of the kernel's terms, and the bound names it: flash at 3.0 TB/s would need
    # 4.21 MB / 3.015 TB/s = 1.4 µs for its HBM bytes, far below its 10.4 µs of math
    assert c.flash.hbm_bytes / (3350e9 * 0.9) < c.flash.predicted_seconds
    assert a.cells[("bound", "flash")].text() == "compute" and a.cells[("time", "flash")].text() == "10.4 µs"
    text = a.verdict.text()
    assert "2.0× fewer bytes through L2 (69.2 MB vs 138 MB, exact)" in text
    assert "Its K/V re-reads come from L2" in text and "32.9× fewer bytes (4.21 MB vs 138 MB, modelled)" in text
    assert "Predicted 10.4 µs, limited by compute, against 45.9 µs, limited by HBM bandwidth: 4.4× faster" in text
    assert "fewer HBM bytes" not in text  # the old headline's claim without its reuse level
    assert a.global_bars[1].fraction == pytest.approx(c.flash.global_bytes / c.naive.global_bytes)
    # too long for L2: the re-reads come from HBM, and the headline says so
    a.set_inputs({"seq_len": "65536", "head_dim": "128"}, "fp16")
    c = a.comparison
    assert c.flash.reuse_level == "hbm" and c.flash.hbm_bytes == c.flash.global_bytes
    assert "Its K/V re-reads come from HBM" in a.verdict.text()
    assert a.cells[("reuse", "flash")].text() == "HBM"


def test_an_l2_bound_kernel_is_named(page):
    page.set_gpu("B200")
    a = page.attention
    a.set_inputs({"seq_len": "1024", "head_dim": "128"}, "fp16")
    assert a.comparison.flash.bound == "l2"
    assert a.cells[("bound", "flash")].text() == "L2 bandwidth" and "limited by L2 bandwidth" in a.verdict.text()


def test_every_level_is_in_view_at_720p(qtbot, settings, light_theme):
    """A 1280x720 window's first look at the tab shows every level's row whole (the HBM row was cut in half by
    the hierarchy's pane, which took only half the height): the panes below scroll instead."""
    from explorer.gui.shell.main_window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    wait_run(qtbot, w.explorer)  # the run's traffic fills the last column: its rows grow
    assert w.show_view("memory")
    page = w.views["memory"]
    qtbot.waitExposed(page)
    h = page.hierarchy
    viewport = h.parentWidget()  # the scroll area's viewport
    for key, row in h.rows.items():
        for cell in ("name", "cell_latency", "cell_traffic"):
            widget = row[cell]
            if not widget.isVisible():
                continue
            bottom = widget.mapTo(viewport, widget.rect().bottomLeft()).y()
            assert 0 <= bottom < viewport.height(), f"{key} {cell}: bottom {bottom} of a {viewport.height()} px pane"
    assert page.coalescing.parentWidget().height() >= 150  # the panes below keep room
