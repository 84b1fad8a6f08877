"""A GPU measurement over the simulation: counts plot, SM grid, side-by-side numbers, re-simulate, calibrate."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer.gpu.measurement import load_measurement
from explorer.texts.numbers import num, pct
from explorer.gui.measure import data as md
from tests.gui.gpu_support import (
    FIXTURE,
    close_message,
    open_file,
    step_value,
    synthetic_measurement,
    wait_for_run,
)


@pytest.fixture
def gpu(window, qtbot):
    wait_for_run(qtbot, window)
    return window.feature("gpu")


def test_file_menu_has_the_gpu_actions(window):
    texts = [a.text() for a in window.file_menu.actions()]
    for text in ("Open &measurement…", "Run on &GPU", "Sa&ve measurement as…",
                 "Re-simulate with the compiled &kernel's resources",
                 "Ca&librate the simulator from the measurement(s)", "Close measuremen&t"):
        assert text in texts
    assert texts.index("Run on &GPU") < texts.index("&Quit")
    g = window.feature("gpu")
    assert not g.save_action.isEnabled() and not g.resim_action.isEnabled() and not g.calibrate_action.isEnabled()
    assert window.handler_for(FIXTURE) == g.open_measurement


def test_fixture_overlays_the_counts_plot(window, gpu, qtbot):
    m = load_measurement(FIXTURE)
    assert open_file(qtbot, window, FIXTURE)
    assert gpu.measurement is not None and gpu.measurement.path == str(FIXTURE)
    curves = gpu.counts_overlay.curves
    assert curves["resident"].isVisible() and curves["launched"].isVisible()
    assert curves["resident"] in window.explorer.counts.getPlotItem().listDataItems()
    cycles = np.unique(np.linspace(0, m.cycles + 5, 400).astype(np.int64))
    resident = curves["resident"]
    shown = step_value(resident.xData, resident.yData, cycles)
    assert np.array_equal(shown, m.residency.total(cycles))
    # unfinished warps: all at the start, none after the last block ended
    launched = curves["launched"]
    assert step_value(launched.xData, launched.yData, [0])[0] == 240 * 8
    assert step_value(launched.xData, launched.yData, [m.cycles])[0] == 0
    mid = m.cycles // 2
    ended = int((m.blocks.end <= mid).sum())
    assert step_value(launched.xData, launched.yData, [mid])[0] == (240 - ended) * 8
    # told apart from the simulated curves by line style and legend text, not colour alone
    sim_styles = {c.opts["pen"].style() for c in window.explorer.counts.curves.values()}
    assert resident.opts["pen"].style() == Qt.PenStyle.DotLine and Qt.PenStyle.DotLine not in sim_styles
    assert launched.opts["pen"].style() == Qt.PenStyle.DashDotLine and Qt.PenStyle.DashDotLine not in sim_styles
    legend = gpu.counts_overlay.legend
    assert legend.isVisible()
    assert legend.labels["resident"].text() == "measured resident"
    assert "synthetic" in legend.title.text()
    # the plot has room for the measured curves
    counts = window.explorer.counts
    assert counts.extra_cycles >= m.cycles
    assert counts.getPlotItem().getViewBox().viewRange()[1][1] >= m.residency.total([mid])[0]


def test_per_sm_counts_show_the_measured_sm(window, gpu, qtbot):
    m = load_measurement(FIXTURE)
    open_file(qtbot, window, FIXTURE)
    page = window.explorer
    page.per_sm.setChecked(True)
    page.workspace.session.select_sm(5)
    curve = gpu.counts_overlay.curves["resident"]
    assert gpu.counts_overlay.per_sm() == 5
    cycles = np.unique(np.linspace(0, m.cycles, 200).astype(np.int64))
    assert np.array_equal(step_value(curve.xData, curve.yData, cycles), m.residency.sample(cycles)[:, 5])
    assert not gpu.counts_overlay.curves["launched"].isVisible()
    assert not gpu.counts_overlay.legend.labels["launched"].isVisible()
    page.per_sm.setChecked(False)
    assert gpu.counts_overlay.legend.labels["launched"].isVisible()
    assert gpu.counts_overlay.per_sm() is None
    assert np.array_equal(step_value(curve.xData, curve.yData, cycles), m.residency.total(cycles))


def test_sm_grid_shows_measured_blocks_per_sm(window, gpu, qtbot):
    m = load_measurement(FIXTURE)
    open_file(qtbot, window, FIXTURE)
    page = window.explorer
    overlay = gpu.grid_overlay
    assert overlay.isVisible() and overlay.geometry() == page.grid.rect()
    for cycle in (0, 3000, m.cycles - 50):
        page.workspace.session.set_cycle(cycle)
        live = m.blocks.live_at(cycle)
        assert np.array_equal(overlay.blocks, np.bincount(m.blocks.sm[live], minlength=m.sm_count))
        assert np.array_equal(overlay.warps, m.residency.at(cycle))
    page.workspace.session.set_cycle(3000)
    before = overlay.paint_count
    page.grid.grab()
    assert overlay.paint_count > before  # drawn on top of the grid
    assert gpu.grid_note.isVisible() and "Hatched boxes" in gpu.grid_note.text()
    sm = int(m.blocks.sm[m.blocks.live_at(3000)][0])
    tip = overlay.tooltip_for(sm)
    assert f"{int(m.residency.at(3000)[sm])} warps in {int(overlay.blocks[sm])} blocks" in tip


def test_side_by_side_numbers_are_the_two_summaries(window, gpu, qtbot):
    m = load_measurement(FIXTURE)
    open_file(qtbot, window, FIXTURE)
    run = window.workspace.session.run
    box = gpu.box
    assert box.isVisible() and box.warning.isVisible()  # a synthetic file says so
    ms, ss = m.summary(), run.summary
    rows = box.rows
    for key in ("cycles", "achieved_occupancy", "theoretical_occupancy", "active_blocks_per_sm",
                "sm_active_fraction"):
        assert rows[key].simulated == ss[key] and rows[key].measured == ms[key], key
    assert rows["kernel_time_us"].simulated == ss["kernel_time_us"]
    assert rows["kernel_time_us"].measured == ms["kernel_time_us"]
    assert rows["max_blocks_per_sm"].measured == ms["measured_max_blocks_per_sm"]
    assert rows["max_blocks_per_sm"].simulated == int(run.result.blocks.max_concurrent_per_sm(132).max())
    assert rows["mean_block_cycles"].measured == pytest.approx(float((m.blocks.end - m.blocks.start).mean()))
    assert "driver_active_blocks_per_sm" not in rows  # this file has no driver answer
    assert not box.cells["driver_active_blocks_per_sm"][0].isVisible()
    # what the labels say
    sim_cell, meas_cell = box.cells["cycles"][1], box.cells["cycles"][2]
    assert sim_cell.text() == num(ss["cycles"]) and meas_cell.text() == num(ms["cycles"])
    assert box.cells["achieved_occupancy"][2].text() == pct(ms["achieved_occupancy"])
    assert box.cells["achieved_occupancy"][1].text() == pct(ss["achieved_occupancy"])
    assert box.cells["active_blocks_per_sm"][2].text() == str(ms["active_blocks_per_sm"])


def test_the_drivers_occupancy_answer_sits_beside_ours(window, gpu, qtbot, tmp_path):
    m = synthetic_measurement(driver_blocks=7)
    path = m.save(tmp_path / "driver.npz")
    open_file(qtbot, window, path)
    rows = gpu.box.rows
    assert rows["driver_active_blocks_per_sm"].measured == 7 == m.summary()["driver_active_blocks_per_sm"]
    assert rows["active_blocks_per_sm"].measured == 8
    assert gpu.box.cells["driver_active_blocks_per_sm"][2].text() == "7"
    assert gpu.box.cells["driver_active_blocks_per_sm"][0].isVisible()


def test_a_malformed_measurement_is_a_message_and_keeps_the_state(window, gpu, qtbot, tmp_path):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    assert open_file(qtbot, window, bad)  # handled (by the measurement handler): a message, not a crash
    assert gpu.measurement is None and not gpu.box.isVisible()
    kind, text = gpu.last_message
    assert kind == "error" and "broken.npz" in text
    assert gpu.message_box is not None and gpu.message_box.isVisible()
    assert "broken.npz" in window.statusBar().currentMessage()
    close_message(gpu)
    # with a measurement on screen, a bad file changes nothing
    open_file(qtbot, window, FIXTURE)
    scenario = window.workspace.session.scenario
    sim = tmp_path / "sim.npz"
    run = window.workspace.session.run
    run.result.save_npz(sim)
    open_file(qtbot, window, sim)
    assert "simulation file" in gpu.last_message[1]
    assert gpu.measurement is not None and gpu.measurement.path == str(FIXTURE)
    assert window.workspace.session.scenario == scenario and window.workspace.session.run is run
    assert gpu.counts_overlay.curves["resident"].isVisible()
    close_message(gpu)


def test_opening_switches_to_the_measured_scenario(window, gpu, qtbot):
    window.explorer.load_preset("tensor-gemm")
    qtbot.waitUntil(lambda: window.workspace.session.scenario.name == "tensor-gemm")
    assert wait_for_run(qtbot, window).result.scenario.name == "tensor-gemm"
    open_file(qtbot, window, FIXTURE)
    assert window.workspace.session.scenario == load_measurement(FIXTURE).scenario
    assert gpu.box.cells["cycles"][1].text() == "…"  # the old run's numbers are not shown as this one's
    assert gpu.box.cells["cycles"][2].text() == num(load_measurement(FIXTURE).cycles)
    run = wait_for_run(qtbot, window)
    assert run.result.scenario.name == "example-240x256"
    assert gpu.box.rows["cycles"].simulated == run.summary["cycles"]


def test_resimulate_uses_the_compiled_kernels_registers(window, gpu, qtbot, tmp_path):
    m = synthetic_measurement(registers=24)
    path = m.save(tmp_path / "compiled24.npz")
    open_file(qtbot, window, path)
    session = window.workspace.session
    assert session.scenario.launch.registers_per_thread == 32  # as the scenario asked
    assert gpu.resim_action.isEnabled() and gpu.box.resim_button.isEnabled()
    assert gpu.box.differs.isVisible() and "registers/thread 32 vs 24" in gpu.box.differs.text()
    gpu.box.resim_button.click()
    assert session.scenario.launch.registers_per_thread == 24
    assert session.scenario.gpu.name == m.meta["gpu"]
    run = wait_for_run(qtbot, window)
    assert run.result.scenario.launch.registers_per_thread == 24
    assert gpu.box.rows["registers"].simulated == 24 == gpu.box.rows["registers"].measured
    assert not gpu.resim_action.isEnabled() and not gpu.box.differs.isVisible()
    assert window.explorer.panel.texts()["regs"] == "24"  # the panel shows what is simulated


def test_calibration_shows_the_error_before_and_after(window, gpu, qtbot, tmp_path):
    m = synthetic_measurement(lat_scale=1.4)  # a "GPU" whose DRAM is 40% slower than the catalog says
    path = m.save(tmp_path / "slow-dram.npz")
    open_file(qtbot, window, path)
    gpu.calibrate_kwargs = {"max_points": 4}
    assert gpu.calibrate_action.isEnabled()
    gpu.box.calibrate_button.click()
    assert gpu.long_task is not None and gpu.cancel_button.isVisible()
    assert not gpu.calibrate_action.isEnabled()  # one at a time
    qtbot.waitUntil(lambda: gpu.calibration is not None, timeout=120_000)
    cal = gpu.calibration
    assert cal.error_after < cal.error_before
    text = gpu.box.calibration.text()
    assert gpu.box.calibration.isVisible()
    assert f"<b>{pct(cal.error_before)}</b> → <b>{pct(cal.error_after)}</b>" in text
    assert str(cal.before["lat_dram"]) in text.replace(",", "") and str(cal.after["lat_dram"]) in text.replace(",", "")
    assert not gpu.cancel_button.isVisible() and gpu.calibrate_action.isEnabled()


def test_calibration_can_be_cancelled(window, gpu, qtbot):
    open_file(qtbot, window, FIXTURE)
    gpu.calibrate()
    gpu.cancel_button.click()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=60_000)
    assert gpu.calibration is None and gpu.last_message[0] == "cancelled" and gpu.message_box is None


def test_close_measurement_removes_the_overlay(window, gpu, qtbot):
    open_file(qtbot, window, FIXTURE)
    run = window.workspace.session.run
    gpu.close_action.trigger()
    assert gpu.measurement is None
    assert not gpu.counts_overlay.curves["resident"].isVisible()
    assert not gpu.counts_overlay.legend.isVisible() and not gpu.grid_overlay.isVisible()
    assert not gpu.box.isVisible() and not gpu.grid_note.isVisible()
    assert window.explorer.counts.extra_cycles == 0 and window.explorer.counts._x_max == run.cycles
    assert window.explorer.timeline._x_max == run.cycles


def test_theme_recolours_the_measured_curves(window, gpu, qtbot):
    from explorer.gui.common.theme import DARK, LIGHT

    open_file(qtbot, window, FIXTURE)
    curve = gpu.counts_overlay.curves["resident"]
    assert curve.opts["pen"].color().name().upper() == LIGHT.curve.upper()
    window.set_theme_mode("dark")
    assert curve.opts["pen"].color().name().upper() == DARK.curve.upper()
    assert gpu.grid_overlay.theme is DARK
    window.set_theme_mode("light")


def test_comparison_rows_match_the_summaries_without_qt():
    from explorer.gui.workspace.run_data import SimRun
    from explorer.sim import simulate

    m = load_measurement(FIXTURE)
    result = simulate(m.scenario)
    rows = {r.key: r for r in md.comparison(result.summary(), result, m)}
    assert rows["cycles"].measured == m.cycles and rows["cycles"].simulated == result.cycles
    assert rows["cycles"].difference == pytest.approx(result.cycles / m.cycles - 1)  # as measure --compare's error
    assert rows["cycles"].word in ("within 5%", "within 15%", "off")
    assert rows["achieved_occupancy"].difference == pytest.approx(
        rows["achieved_occupancy"].simulated - rows["achieved_occupancy"].measured)  # in points
    assert SimRun.from_result(result).summary["cycles"] == result.cycles


def test_another_gpu_in_the_simulation_keeps_the_curves_but_not_the_grid_boxes(window, gpu, qtbot):
    open_file(qtbot, window, FIXTURE)
    scenario = window.workspace.session.scenario
    window.workspace.change_scenario(scenario.with_values(gpu="T4"), "preset")
    run = wait_for_run(qtbot, window)
    assert run.sm_count == 40
    overlay = gpu.grid_overlay
    assert "132 SMs" in overlay.mismatch and "40" in overlay.mismatch
    assert "not drawn on the SM grid" in gpu.grid_note.text()
    assert gpu.counts_overlay.curves["resident"].isVisible()  # time still lines up: cycles from kernel start
    assert window.explorer.counts._x_max == max(run.cycles, gpu.measurement.cycles + 1)
    assert window.explorer.timeline._x_max == window.explorer.counts._x_max
    assert gpu.box.rows["cycles"].simulated == run.summary["cycles"]
    assert gpu.resim_action.isEnabled() and "GPU T4 vs H100" in gpu.box.differs.text()


@pytest.mark.parametrize("lang,error,points,share", [("en", "+1.5%", "+1.5 pt", "97.5%"),
                                                      ("ru", "+1,5%", "+1,5 п. п.", "97,5%")])
def test_the_error_is_written_in_the_windows_number_style(qapp, qtbot, lang, error, points, share):
    """The error beside the two figures reads as they do: a decimal comma in a Russian window (``+1,5%`` beside
    ``97,5%``), not the CLI's English ``+1.5%``; a point in an English one."""
    from types import SimpleNamespace

    from explorer.gpu.compare import Figure
    from explorer.gui.measure.panel import MeasurementBox
    from explorer.gui.shell.i18n import install_translators
    from explorer.texts.figures import COMPARE_NOTES

    try:
        install_translators(qapp, lang)
        box = MeasurementBox()
        qtbot.addWidget(box)
        box.show_comparison([md.Row("cycles", 10_150, 10_000, "int"),
                             md.Row("achieved_occupancy", 0.99, 0.975, "pct")])
        assert box.cells["achieved_occupancy"][2].text() == share
        assert box.cells["cycles"][3].text().startswith(error + " ")
        assert box.cells["achieved_occupancy"][3].text().startswith(points + " ")
        assert f" {error} " in box.verdict.text()
        head = Figure("warp_span_cycles", "duration", 10_150, 10_000, "cycles")
        box.show_as_ran(SimpleNamespace(headline=head, figures=[head], notes=[],
                                        dispatch_note=COMPARE_NOTES("placed", n=240, placed=240)))
        assert f", {error} " in box.as_ran.text() and num(10_150) in box.as_ran.text()
    finally:
        install_translators(qapp, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_as_it_ran_table_is_in_the_windows_language(qapp, qtbot, lang):
    """The tooltip of "As it ran" is measure --compare's table: word for word the CLI's lines in an English window,
    and in a Russian one the same table translated (labels, verdicts, the placement and the notes) with the
    window's number style, no English left in it."""
    import numpy as np

    from explorer.gpu.compare import Comparison, Figure
    from explorer.gui.measure.panel import MeasurementBox
    from explorer.gui.shell.i18n import install_translators
    from explorer.texts.figures import COMPARE_NOTES, COMPARED_LABELS

    figures = [Figure("warp_span_cycles", COMPARED_LABELS["warp_span_cycles"], 10_150, 10_000, "cycles"),
               Figure("achieved_occupancy", COMPARED_LABELS["achieved_occupancy"], 0.99, 0.975, "fraction"),
               Figure("kernel_cycles", COMPARED_LABELS["kernel_cycles"], 10_400, None, "cycles")]
    comparison = Comparison(figures, None, np.zeros(2, np.int64), np.zeros(2, np.int64), 240,
                            COMPARE_NOTES("placed", n=240, placed=236),
                            [COMPARE_NOTES("l2_dirty", bytes=62_914_560)])
    try:
        install_translators(qapp, lang)
        box = MeasurementBox()
        qtbot.addWidget(box)
        box.show_as_ran(comparison)
        tip = box.as_ran.toolTip()
        # the table's cells (a proportional font does not keep the CLI's columns of spaces), word for word the
        # CLI's table in English
        assert tip.startswith("<table") and tip.count("<tr>") == 1 + len(figures)
        plain = html.unescape(re.sub(r"<[^>]+>", " ", tip))
        if lang == "en":
            assert plain.split() == "\n".join(comparison.text()).split()
            assert '<td align="right">+1.5%</td>' in tip
            assert "+1.5%" in tip and "within 5%" in tip and "dispatch: the first 240 blocks" in tip
        else:
            for english in ("duration", "achieved occupancy", "simulated", "measured", "dispatch:", "note:",
                            "within", "blocks placed", "dirty lines"):
                assert english not in tip
            assert "длительность (от первого варпа до последнего, такты)" in tip
            assert "+1,5%" in tip and "+1,5 п. п." in tip and "в пределах 5%" in tip
            assert "размещение: первые 240 блоков" in tip and "примечание: L2 в начале полон" in tip
            assert num(62_914_560) in tip  # the window's digit grouping
            assert ">н/д<" in tip and "n/a" not in tip  # the figure the measurement lacks
    finally:
        install_translators(qapp, "en")


def test_the_error_and_its_word_are_shown_up_front(window, gpu, qtbot):
    """Issue 28: the user never computes an error. Each row says simulated ÷ measured − 1 (points for shares)
    and its word; the duration's verdict sits above the table; the launch simulated as it ran (the CLI's
    measure --compare) arrives from a worker with the same figures."""
    from explorer.gpu.compare import compare

    m = load_measurement(FIXTURE)
    open_file(qtbot, window, FIXTURE)
    box = gpu.box
    row = box.rows["cycles"]
    err = row.simulated / row.measured - 1
    assert box.cells["cycles"][3].text().startswith(f"{100 * err:+.1f}%")
    assert row.word in box.cells["cycles"][3].text()
    assert box.verdict.isVisible() and row.word in box.verdict.text()
    occ = box.rows["achieved_occupancy"]
    assert box.cells["achieved_occupancy"][3].text().startswith(f"{100 * (occ.simulated - occ.measured):+.1f} pt")
    qtbot.waitUntil(box.as_ran.isVisible, timeout=60_000)
    head = compare(m).headline
    assert head.error_text() in box.as_ran.text() and head.word in box.as_ran.text()
    assert num(head.measured) in box.as_ran.text()
