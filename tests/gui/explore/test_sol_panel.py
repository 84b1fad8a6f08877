"""The Speed-of-Light panel and the unit-use strip show the run's own units (issue 15 item 4).

The panel answers "what limits useful work right now?" with every throughput unit's
share of its peak, at the cursor's window and over the run, the bottleneck marked
with the simulator's sentence; the strip shows the same shares over time on the
timeline's axis. Every figure is checked against the run's summary and result
(the ``simulate --json`` contract), not against the panel's own arithmetic.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication

from explorer.gui.common.widgets import whole_text
from explorer.gui.workspace.run_data import SHOWN_WINDOWS, SimRun, unit_windows
from explorer.gui.explore.sol_texts import bottleneck_head, bottleneck_text, unit_meanings
from explorer.model.presets import load_preset
from explorer.sim import simulate
from explorer.sim.bottleneck import pick
from explorer.model.units import MEANING, UNITS
from explorer.texts.bottleneck import REASONS
from tests.gui.support import RUN_TIMEOUT

L2_BOUND = ("memory-bound-stream", {"launch.grid": [1056, 1, 1], "workload.l2_hit_rate": 1.0})


def show(page, qtbot, preset: str, changes: dict | None = None) -> SimRun:
    scenario = load_preset(preset).with_values(**changes) if changes else load_preset(preset)
    page.workspace.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.workspace.session.run is not None
                    and page.workspace.session.run.result.scenario == scenario
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    return page.workspace.session.run


def test_the_panel_is_titled_with_the_question_and_lists_every_unit(page, qtbot):
    run = show(page, qtbot, *L2_BOUND)
    sol = page.sol
    assert sol.title() == "What limits useful work right now?"
    assert sol.isVisible() and page.metrics.isAncestorOf(sol)
    through = run.summary["throughput"]
    assert list(sol.bars) == list(UNITS) == list(through)
    for unit in UNITS:
        share = through[unit]["pct_of_peak"] / 100
        assert sol.run_texts[unit].text() == f"{100 * share:.0f}%"
        assert sol.bars[unit].run == pytest.approx(min(share, 1.0))
    # the bottleneck row is marked (text, not colour alone) and only that one
    assert run.summary["bottleneck"]["unit"] == "l2"
    marked = [u for u in UNITS if sol.names[u].property("role") == "limiter"]
    assert marked == ["l2"]
    # the simulator's own sentence, word for word in English
    assert whole_text(sol.why) == "Whole run: " + run.summary["bottleneck"]["why"]
    assert f"L2 at {run.summary['throughput']['l2']['pct_of_peak']:.0f}% of 12.4 TB/s" in whole_text(sol.why)


def test_the_bars_follow_the_cursors_window(page, qtbot):
    run = show(page, qtbot, *L2_BOUND)
    sol, windows = page.sol, run.unit_windows
    for cycle in (0, run.cycles // 3, run.cycles // 2, run.cycles - 1):
        page.workspace.session.set_cycle(cycle)
        w = cycle // windows.cycles
        assert sol.at_window == w
        for i, unit in enumerate(UNITS):
            assert sol.bars[unit].now == pytest.approx(min(float(windows.shares[w, i]), 1.0))
            assert sol.now_texts[unit].text() == f"{100 * windows.shares[w, i]:.0f}%"
        top = int(windows.bottleneck[w])
        expected = pick(windows.shares[w])[0]
        assert (UNITS[top] if top >= 0 else "latency") == expected
        assert f"{w * windows.cycles:,}" in whole_text(sol.now_line)
        hot = [u for u in UNITS if sol.bars[u].hot]
        assert hot == ([expected] if expected != "latency" else [])
        assert ("latency" in whole_text(sol.now_line)) == (expected == "latency")


def test_a_frame_inside_one_window_changes_nothing(page, qtbot):
    run = show(page, qtbot, "compute-bound-fma")
    sol = page.sol
    page.workspace.session.set_cycle(run.unit_windows.cycles)  # the second window's first cycle
    texts = {u: sol.now_texts[u].text() for u in UNITS}
    geometry = sol.geometry()
    sol.now_texts["issue"].setText("sentinel")  # a frame that touched the labels would overwrite it
    for cycle in range(run.unit_windows.cycles + 1, 2 * run.unit_windows.cycles):
        page.workspace.session.set_cycle(cycle)
    assert sol.now_texts["issue"].text() == "sentinel"
    assert {u: sol.now_texts[u].text() for u in UNITS if u != "issue"} == {u: t for u, t in texts.items()
                                                                         if u != "issue"}
    assert sol.geometry() == geometry


def test_tooltips_say_what_each_unit_does_and_where_its_peak_comes_from(page, qtbot):
    run = show(page, qtbot, "example-240x256")
    for unit in UNITS:
        tip = page.sol.names[unit].toolTip()
        assert MEANING[unit] in tip
        assert run.summary["throughput"][unit]["source"] in tip
        assert page.sol.bars[unit].toolTip() == tip


def test_the_strip_shows_the_same_windows_on_the_timelines_axis(page, qtbot):
    run = show(page, qtbot, "memory-bound-stream", {"launch.grid": [1056, 1, 1]})
    strip, windows = page.unit_strip, run.unit_windows
    busy_units = [u for i, u in enumerate(UNITS) if windows.shares[:, i].max() >= 0.01]
    assert strip.rows == busy_units + ["latency"] and "dram" in strip.rows and "tensor" not in strip.rows
    img = strip.image.image
    assert img.shape == (len(strip.rows), windows.shares.shape[0])
    d = strip.rows.index("dram")
    assert np.array_equal(img[d], np.clip(np.rint(windows.shares[:, UNITS.index("dram")] * 100), 0, 100))
    # the bottleneck bars: one segment per window, in the row of its bottleneck (DRAM through the steady state)
    x, y = strip.marks.getData()
    assert len(x) == 2 * windows.shares.shape[0]
    dram_windows = int((windows.bottleneck == UNITS.index("dram")).sum())
    assert dram_windows > 0.5 * windows.shares.shape[0]
    assert int(np.sum(np.isclose(y[::2], d + 0.5))) == dram_windows
    # one time axis: zooming the timeline zooms the strip; the cursor is the session's cycle
    page.timeline.getPlotItem().setXRange(1000, 5000, padding=0)
    qtbot.waitUntil(lambda: strip.getPlotItem().getViewBox().viewRange()[0] == pytest.approx([1000, 5000]),
                    timeout=2000)
    page.workspace.session.set_cycle(2345)
    assert strip.cursor.value() == pytest.approx(page.timeline.cursor.value())
    # hovering a cell names its unit and share
    unit, w, share = strip.share_at(2345, d)
    assert unit == "dram" and w == 2345 // windows.cycles
    assert share == pytest.approx(float(windows.shares[w, UNITS.index("dram")]))


def test_shown_windows_are_the_simulators_merged():
    """Merged windows keep the busy time exact: their length-weighted mean is the run's share of peak, and a run
    with few windows shows the simulator's own."""
    for preset in ("compute-bound-fma", "example-240x256"):
        result = simulate(load_preset(preset))
        shown = unit_windows(result)
        assert shown.shares.shape[0] <= SHOWN_WINDOWS and shown.cycles % result.window_cycles == 0
        n = shown.shares.shape[0]
        lengths = np.minimum((np.arange(n) + 1) * shown.cycles, result.cycles) - np.arange(n) * shown.cycles
        mean = (shown.shares * lengths[:, None]).sum(axis=0) / result.cycles
        assert mean == pytest.approx(result.unit_fraction(), rel=1e-5, abs=1e-7)
        if shown.cycles == result.window_cycles:
            assert np.allclose(shown.shares, result.unit_busy)


# -- the simulator's sentences in the interface language ----------------------------------------------------------
SENTENCE_RUNS = (("memory-bound-stream", {"launch.grid": [1056, 1, 1]}), L2_BOUND, ("compute-bound-fma", {}),
                 ("compute-bound-fma", {"gpu": "A100"}), ("example-240x256", {}), ("tail-effect", {}),
                 ("tensor-gemm", {"workload.body": [{"op": "mma", "count": 32, "ilp": 4}]}))


@pytest.mark.parametrize("preset,changes", SENTENCE_RUNS, ids=lambda v: v if isinstance(v, str) else "")
def test_every_bottleneck_sentence_of_real_runs_is_worded_from_its_record(qapp, preset, changes):
    """The panel writes the simulator's record: in English exactly what the CLI prints, in Russian the same
    figures with no English template left (every reason code has a translation)."""
    from explorer.gui.shell.i18n import install_translators
    from explorer.texts.numbers import figures_in

    scenario = load_preset(preset).with_values(**changes) if changes else load_preset(preset)
    summary = simulate(scenario).summary()
    b = summary["bottleneck"]
    assert b["reason"]["code"] in REASONS
    assert bottleneck_text(summary) == b["why"]  # English: the panel writes what the CLI prints
    assert b["why"].startswith(bottleneck_head(summary) + ": ")
    try:
        install_translators(qapp, "ru")
        russian = bottleneck_text(summary)
        assert russian != b["why"] and not any(w in russian for w in ("would help", "warps", "cycles", " at "))
        assert figures_in(russian) == figures_in(b["why"], english=True), (b["why"], russian)
    finally:
        install_translators(qapp, "en")


def test_the_meanings_and_waits_cover_the_simulators():
    from explorer.sim.states import NAMES
    from explorer.texts import bottleneck as bt

    assert set(unit_meanings()) == set(MEANING)
    assert all(unit_meanings()[u] == MEANING[u] for u in MEANING)  # English: the same sentences
    assert set(bt.WAITING) <= set(NAMES)  # every phrase words a warp state the simulator has
    assert QCoreApplication.translate("SolTexts", "L2") == "L2"


def test_a_step_about_the_whole_run_folds_the_panel_one_about_it_keeps_it(window, page, qtbot):
    from explorer.model.lessons import get_lesson

    lessons = window.feature("lessons")
    lessons.start(get_lesson("latency-hiding"), 2)  # HBM near its limit: the DRAM row and the whole run's figures
    qtbot.waitUntil(lambda: lessons.ready, timeout=RUN_TIMEOUT)
    assert page.sol.mode == "folded"  # it points at the panel too: the rows make way first, the sentence stays
    assert {page.sol.names[u].property("detail") for u in UNITS} == {1}
    lessons.start(get_lesson("latency-hiding"), 3)  # about the SM grid and the metrics: its bars go first
    qtbot.waitUntil(lambda: lessons.ready, timeout=RUN_TIMEOUT)
    # the panel itself and its sentences never go (issue 31 item 5): the bars make way for the compact form
    assert page.sol.mode == "away" and page.sol.property("detail") is None
    assert {page.sol.names[u].property("detail") for u in UNITS} == {1}
    assert page.sol.now_line.property("detail") is None and page.sol.why.property("detail") is None
    lessons.start(get_lesson("what-limits-useful-work"), 0)
    qtbot.waitUntil(lambda: lessons.ready, timeout=RUN_TIMEOUT)
    assert page.sol.expanded
    qtbot.waitUntil(lambda: page.sol.why.isVisible(), timeout=5000)  # the answer stays on screen
    assert page.sol.names["dram"].isVisible() and page.sol.names["dram"].property("role") == "limiter"
    lessons.stop()
    assert page.sol.expanded


def test_the_strip_is_folded_or_shows_its_units_names(page, qtbot, window):
    """At its minimum the strip names every unit (issue 31 item 7: the busiest row had no name when only every
    other row was named); shorter, its splitter folds it and it draws nothing (no title squeezed over the
    cells); with room again it opens (issue 14 item 4, 1280x720)."""
    show(page, qtbot, *L2_BOUND)
    strip, plots = page.unit_strip, page.plots
    i = plots.indexOf(strip)
    least = strip.minimumHeight()
    assert least == strip.readable_height() and least > 20
    sizes = plots.sizes()
    plots.setSizes([sizes[0], least, sum(sizes) - sizes[0] - least])
    qtbot.waitUntil(lambda: plots.sizes()[i] == least)
    ticks = strip.getPlotItem().getAxis("left")._tickLevels[0]
    assert len(ticks) == len(strip.rows) and not strip.dropped_texts()
    plots.setSizes([sizes[0], least - 10, sum(sizes) - sizes[0] - least + 10])  # below: Qt keeps the minimum
    assert plots.sizes()[i] >= least
    window.resize(1280, 600)  # a column too short for every pane's minimum: the strip folds first
    qtbot.waitUntil(lambda: plots.sizes()[i] == 0)
    assert strip.folded and not strip.getPlotItem().isVisible() and not strip.dropped_texts()
    assert all(plots.sizes()[k] >= plots.widget(k).minimumHeight() for k in range(plots.count()) if k != i)
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: plots.sizes()[i] >= least)
    assert strip.getPlotItem().isVisible() and not strip.dropped_texts()
