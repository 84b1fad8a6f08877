"""A run that is still coming in says so on the picture (issue 14 item 10).

Lesson 3 step 1 (1,056 blocks, 80,824 cycles) showed SMs 56-131 as empty outlines
while the panel counted 1,056 resident warps: the simulator keeps the per-slot
states of the first SMs only for so long a run. Now those SMs are hatched under a
banner while the page fills them in, a batch at a time, and a run being simulated
dims the previous picture under a "Simulating… n%" banner.
"""

from __future__ import annotations

import numpy as np

from explorer.model.presets import load_preset
from explorer.sim import simulate
from tests.gui.support import RUN_TIMEOUT, wait_run

LONG = "latency-bound-low-occupancy"  # lesson 3 step 1


def test_missing_sms_are_hatched_under_a_banner_then_filled_in(window, qtbot):
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    seen = []
    page.workspace.session.run_changed.connect(lambda run: seen.append(
        (run, list(page.grid.missing), page.grid.banner.isVisibleTo(page.grid), page.grid.banner.text(),
         page.run_state.text())))
    page.load_preset(LONG)
    qtbot.waitUntil(lambda: bool(seen) and seen[-1][0].result.scenario.name == LONG, timeout=RUN_TIMEOUT)
    run, missing, banner_on, banner, state = seen[-1]
    kept = len(run.result.recorded_sms)
    assert 0 < kept < 132 and missing == list(range(kept, 132))
    assert banner_on and f"SMs {kept}–131" in banner and "filling them in" in banner
    assert state.startswith("Filling in SMs")
    # the banner sits over the hatched tiles, not over the SMs that have states
    area = page.grid.missing_rect()
    assert area.contains(page.grid.banner.geometry().center())
    assert not page.grid.layout_.tile_rect(0).intersects(page.grid.banner.geometry())

    qtbot.waitUntil(lambda: not page.workspace.simulation.filling, timeout=4 * RUN_TIMEOUT)
    assert page.workspace.session.run is run and run.missing_sms() == [] and page.grid.missing == []
    assert not page.grid.banner.isVisible() and page.run_state.text() == ""
    # a filled-in SM shows the states an independent simulation of that SM has, at the sampled cycle
    sm, (stride, _samples) = 100, run.sampled[100]
    reference = simulate(run.result.scenario, record_sms=[sm]).sm_trace(sm)
    for cycle in (0, 777, run.cycles // 3, run.cycles - 1):
        page.workspace.session.set_cycle(cycle)
        assert np.array_equal(page.grid._states[sm], reference[cycle - cycle % stride])
    tip = page.grid.tooltip_at(page.grid.layout_.cell_rect(sm, 0).center())
    assert f"every {stride} cycles" in tip


def test_a_run_being_simulated_dims_the_picture_under_a_banner(window, qtbot):
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    old = page.workspace.session.run
    page.workspace.simulation.test_delay_s = 1.5
    page.load_preset("compute-bound-fma")
    qtbot.waitUntil(lambda: page.workspace.session.simulating, timeout=5000)
    assert page.workspace.session.run is old  # the previous picture stays, dimmed (below) under the banner
    assert page.grid.busy_text.startswith("Simulating…") and "previous run" in page.grid.busy_text
    assert page.grid.banner.isVisible() and page.grid.banner.text() == page.grid.busy_text
    assert page.timeline.banner.isVisible() and page.timeline.banner.text() == page.grid.busy_text
    qtbot.waitUntil(lambda: not page.workspace.session.simulating and page.workspace.session.run is not old,
                    timeout=RUN_TIMEOUT)
    assert page.grid.busy_text == "" and not page.grid.banner.isVisible() and not page.timeline.banner.isVisible()


def test_the_dimmed_picture_is_lighter(window, qtbot):
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    page.workspace.session.set_cycle(3000)
    qtbot.wait(20)
    before = page.grid.grab().toImage()
    page.grid.set_notice(busy="Simulating… 0%")
    after = page.grid.grab().toImage()
    page.grid.set_notice()
    cell = page.grid.layout_.cell_rect(0, 0).center()
    a, b = before.pixelColor(cell), after.pixelColor(cell)
    assert b.lightness() > a.lightness() + 20


def test_a_new_scenario_stops_the_filling_in(window, qtbot):
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    page.load_preset(LONG)
    qtbot.waitUntil(lambda: page.workspace.session.run.result.scenario.name == LONG
                    and page.workspace.simulation.filling,
                    timeout=RUN_TIMEOUT)
    long_run = page.workspace.session.run
    page.load_preset("example-240x256")
    # cancelled as the new simulation starts
    qtbot.waitUntil(lambda: not page.workspace.simulation.filling, timeout=1000)
    filled = len(long_run.sampled)
    qtbot.waitUntil(lambda: page.workspace.session.run.result.scenario == load_preset("example-240x256")
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    qtbot.wait(1500)  # a batch that was running when it was cancelled delivers nothing
    assert len(long_run.sampled) == filled
    assert page.grid.missing == [] and not page.grid.banner.isVisible()
