"""The Explorer tab driven through its real widgets: edits, keys, clicks, workers, render.

Expected numbers come from the core (occupancy rules, the simulator); these
tests prove the widgets show them, stay responsive, and keep the last good run.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from explorer.gui.common.widgets import whole_text
from explorer.gui.common.state_order import PRIORITY, SELECTED
from explorer.gui.shell.main_window import MainWindow
from tests.gui.support import RUN_TIMEOUT, wait_run


def type_into(field, text: str) -> None:
    field.set_text(text)


# -- start-up ------------------------------------------------------------------------
def test_explorer_is_the_first_tab_and_shows_the_mission_example(window, page):
    assert window.tabs.tabText(0) == "&Explorer"
    assert window.tabs.currentWidget() is page
    run = page.workspace.session.run
    sc = run.result.scenario
    assert sc.name == "example-240x256" and sc.gpu_name == "H100"
    assert (sc.launch.grid.x, sc.launch.block.x) == (240, 256)
    # every SM of the H100, each with its 64 slots in 4 scheduler rows
    lay = page.grid.layout_
    assert (lay.sm_count, lay.warps_per_sm, lay.sub_partitions) == (132, 64, 4)
    assert page.panel.fields["regs"].text() == "32"
    assert page.panel.launched.text().endswith("61,440 threads = 1,920 warps")


def test_right_now_answers_launched_resident_ready(page, qtbot):
    s = page.workspace.session
    run = s.run
    s.set_cycle(3000)
    launched, resident, eligible, issued = run.counts_at(3000)
    now = page.metrics.now
    assert now.values["launched"].text() == f"{launched:,}" == "1,920"
    assert now.values["resident"].text() == f"{resident:,}"
    assert now.values["eligible"].text() == f"{eligible:,}"
    assert now.values["issued"].text() == f"{issued:,}"
    assert f"{eligible:,} of {resident:,} resident warps are ready" in now.why.text()
    assert "memory wait" in now.why.text()  # the example waits on HBM
    assert "limited by warp slots, registers" in now.residency.text()
    whole = page.metrics.whole
    assert whole.nvml.text == "100%"
    # the meter shows the run's issue-slot use, and ~90% of the slots are idle (the kernel's SASS: 10.4%, its
    # stores no longer hold DRAM banks for whole lines; the workload model: 5%)
    assert whole.issue.fraction == pytest.approx(run.summary["issue_slot_utilization"])
    assert whole.issue.fraction < 0.12
    assert "utilized" in whole_text(whole.point)
    assert whole.occ_theoretical.text == "100%"


# -- edits -----------------------------------------------------------------------------
def test_changing_registers_updates_occupancy_grid_and_counts(page, qtbot):
    old = page.workspace.session.run
    assert old.result.resident.max() == 1920
    type_into(page.panel.fields["regs"], "200")
    # theoretical occupancy follows at once (no simulation needed) ...
    qtbot.waitUntil(lambda: page.workspace.session.occupancy.active_blocks_per_sm == 1, timeout=2000)
    assert page.metrics.whole.occ_theoretical.text == "12.5%"
    assert "registers" in page.metrics.whole.limiter.text()
    # ... and the simulation in the worker
    run = wait_run(qtbot, page)
    qtbot.waitUntil(lambda: page.workspace.session.run is not old, timeout=RUN_TIMEOUT)
    run = page.workspace.session.run
    assert run.result.scenario.launch.registers_per_thread == 200
    # SM grid: at most one block (8 warps) resident per SM now
    page.workspace.session.set_cycle(100)
    assert page.grid.resident.max() == 8
    assert int(page.grid.resident.sum()) == 132 * 8
    states = page.grid._states
    recorded = (states != 255).all(axis=1)  # 255: an SM the trace did not record (a longer run keeps fewer)
    assert recorded.any() and int((states[recorded] != 0).sum(axis=1).max()) <= 8
    # counts plot: resident tops out at 132 x 8 = 1,056 of 1,920 launched
    resident_curve = page.counts.curves["resident"].yData
    launched_curve = page.counts.curves["launched"].yData
    assert resident_curve.max() == 1056 and launched_curve.max() == 1920
    assert page.metrics.now.values["resident"].text() == "1,056"
    assert "not resident yet" in page.metrics.now.residency.text()


def test_invalid_input_shows_a_message_and_keeps_the_last_good_run(page, qtbot):
    good = page.workspace.session.run
    submitted = page.runner.submitted["simulate"]
    field = page.panel.fields["regs"]
    type_into(field, "abc")
    qtbot.waitUntil(lambda: field.is_invalid, timeout=2000)
    assert field.message == "'abc' is not an integer"
    assert field.error.isVisible()
    assert page.workspace.session.run is good
    assert page.runner.submitted["simulate"] == submitted  # nothing was simulated
    assert "Invalid input" in page.run_state.text()
    assert page.metrics.whole.stale.isVisible()
    # a launch that fits no block: the core's message names the limiter
    type_into(field, "300")
    qtbot.waitUntil(lambda: "above the limit of 256" in field.message, timeout=2000)
    assert "registers" in field.message
    assert page.workspace.session.run is good
    # fixed: the same run is still the right one, nothing to re-simulate
    type_into(field, "32")
    qtbot.waitUntil(lambda: not field.is_invalid, timeout=2000)
    assert page.workspace.session.run is good and page.workspace.session.run_is_current
    assert not page.metrics.whole.stale.isVisible()


def test_several_bad_fields_are_all_marked(page, qtbot):
    f = page.panel.fields
    type_into(f["grid"], "0")
    type_into(f["seed"], "-3")
    type_into(f["l2_hit"], "150")
    type_into(f["regs"], "300")  # fits no block: judged with the others at their last good values
    qtbot.waitUntil(lambda: len(page.workspace.session.errors) == 4, timeout=2000)
    assert "above the limit of 256" in f["regs"].message  # cuda_occupancy.h: 256 per thread fits
    assert "fix the marked input" in page.metrics.whole.stale.text()
    assert f["grid"].message == "0 is below the minimum of 1"
    assert f["seed"].message == "-3 is below the minimum of 0"
    assert f["l2_hit"].message == "150 is above the maximum of 100"


def test_a_superseded_simulation_is_cancelled(page, qtbot):
    runner = page.runner
    page.workspace.simulation.test_delay_s = 2.0  # every run now waits (cancellably) before simulating
    shown = []
    page.workspace.session.run_changed.connect(
        lambda run: shown.append(run.result.scenario.launch.registers_per_thread))
    started = []
    runner.task_started.connect(started.append)
    type_into(page.panel.fields["regs"], "40")
    qtbot.waitUntil(lambda: len(started) == 1, timeout=5000)
    first = started[0]
    page.workspace.simulation.test_delay_s = 0.0
    type_into(page.panel.fields["regs"], "48")
    qtbot.waitUntil(lambda: first.state == "cancelled", timeout=5000)
    qtbot.waitUntil(lambda: shown == [48], timeout=RUN_TIMEOUT)
    assert page.workspace.session.run.result.scenario.launch.registers_per_thread == 48
    assert not page.workspace.session.simulating


def test_choosing_a_preset_loads_the_whole_scenario(page, qtbot):
    old = page.workspace.session.run
    index = page.panel.preset.findData("tail-effect")
    page.panel.preset.setCurrentIndex(index)
    page.panel.preset.activated.emit(index)
    qtbot.waitUntil(lambda: page.workspace.session.run is not old and not page.workspace.session.simulating,
                    timeout=RUN_TIMEOUT)
    from explorer.model.presets import load_preset

    preset = load_preset("tail-effect")
    assert page.workspace.session.run.result.scenario == preset
    assert page.panel.fields["grid"].text() == str(preset.launch.grid.x)
    assert page.panel.fields["regs"].text() == str(preset.launch.registers_per_thread)
    assert page.panel.description.text() == " ".join(preset.description.split())


def test_gpu_change_relayouts_the_grid(page, qtbot):
    old = page.workspace.session.run
    page.panel.gpu.setCurrentIndex(page.panel.gpu.findData("T4"))
    qtbot.waitUntil(lambda: page.workspace.session.run is not old and not page.workspace.session.simulating,
                    timeout=RUN_TIMEOUT)
    lay = page.grid.layout_
    assert (lay.sm_count, lay.warps_per_sm) == (40, 32)


# -- playback --------------------------------------------------------------------------
def test_keys_step_play_and_pause(page, qtbot):
    s = page.workspace.session
    page.grid.setFocus()
    qtbot.waitUntil(page.grid.hasFocus, timeout=2000)
    s.set_cycle(500)
    qtbot.keyClick(page.grid, Qt.Key.Key_Right)
    assert s.cycle == 501
    qtbot.keyClick(page.grid, Qt.Key.Key_Left)
    qtbot.keyClick(page.grid, Qt.Key.Key_Left)
    assert s.cycle == 499
    qtbot.keyClick(page.grid, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert s.cycle == 599
    qtbot.keyClick(page.grid, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert s.cycle == 499
    qtbot.keyClick(page.grid, Qt.Key.Key_End)
    assert s.cycle == s.run.cycles - 1
    qtbot.keyClick(page.grid, Qt.Key.Key_Right)
    assert s.cycle == s.run.cycles - 1  # clamped
    qtbot.keyClick(page.grid, Qt.Key.Key_Home)
    assert s.cycle == 0
    qtbot.keyClick(page.grid, Qt.Key.Key_Space)
    assert page.clock.playing
    assert page.transport.play.text() == "▮▮ Pause"
    qtbot.waitUntil(lambda: s.cycle > 20, timeout=5000)
    qtbot.keyClick(page.grid, Qt.Key.Key_Space)
    assert not page.clock.playing
    stopped = s.cycle
    qtbot.wait(100)
    assert s.cycle == stopped
    # the views follow the cycle
    assert page.transport.slider.value() == stopped
    assert page.timeline.cursor.value() == pytest.approx(stopped + 0.5)
    assert page.metrics.now.heading.text().startswith(f"Cycle {stopped:,} of")


def test_typing_in_a_field_does_not_trigger_playback_keys(page, qtbot):
    field = page.panel.fields["seed"]
    field.edit.setFocus()
    qtbot.waitUntil(field.edit.hasFocus, timeout=2000)
    page.workspace.session.set_cycle(10)
    qtbot.keyClick(field.edit, Qt.Key.Key_Left)
    qtbot.keyClick(field.edit, Qt.Key.Key_Space)
    assert page.workspace.session.cycle == 10 and not page.clock.playing


def test_transport_buttons_slider_and_speed(page, qtbot):
    s = page.workspace.session
    t = page.transport
    t.slider.setValue(1234)
    assert s.cycle == 1234
    qtbot.mouseClick(t.fwd100, Qt.MouseButton.LeftButton)
    assert s.cycle == 1334
    qtbot.mouseClick(t.back1, Qt.MouseButton.LeftButton)
    assert s.cycle == 1333
    qtbot.mouseClick(t.end_button, Qt.MouseButton.LeftButton)
    assert s.cycle == s.last_cycle
    t.speed.setCurrentIndex(t.speed.findData(3000))
    assert page.clock.speed == 3000
    qtbot.mouseClick(t.play, Qt.MouseButton.LeftButton)  # at the end: plays from the start
    assert page.clock.playing and s.cycle < 200
    qtbot.waitUntil(lambda: not page.clock.playing, timeout=10_000)  # 10,589 cycles at 3,000/s
    assert s.cycle == s.last_cycle


def test_playback_never_reuploads_the_timeline_image(page, qtbot):
    image = page.timeline.image
    uploads = []
    original = image.setImage
    image.setImage = lambda *a, **k: (uploads.append(1), original(*a, **k))
    try:
        for c in range(0, 2000, 37):
            page.workspace.session.set_cycle(c)
            QApplication.processEvents()
    finally:
        image.setImage = original
    assert uploads == []


# -- SM grid and timeline --------------------------------------------------------------
def cell_center(grid, sm: int, slot: int) -> QPoint:
    return grid.layout_.cell_rect(sm, slot).center()


def test_clicking_an_sm_selects_it_in_the_timeline(page, qtbot):
    grid = page.grid
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=cell_center(grid, 37, 5))
    assert page.workspace.session.selected_sm == 37
    assert grid.selected_sm == 37
    assert page.timeline.sm == 37
    assert "SM 37" in page.timeline.getPlotItem().titleLabel.text
    run = page.workspace.session.run
    trace = run.sm_trace(37)
    used = np.nonzero((trace != 0).any(axis=0))[0]  # slots SM 37 ever used
    assert sorted(page.timeline.rows.tolist()) == used.tolist()
    assert [int(s) % 4 for s in page.timeline.rows] == sorted(int(s) % 4 for s in used)  # grouped by scheduler
    full = run.pyramid(37)[page.timeline.level]
    shown = [int(np.nonzero(run.order == s)[0][0]) for s in page.timeline.rows]
    assert np.array_equal(page.timeline.image.image, full[:, shown])
    # a click between tiles changes nothing
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))
    assert page.workspace.session.selected_sm == 37


def test_timeline_outlines_the_blocks_of_the_selected_sm(page):
    page.workspace.session.select_sm(3)
    run = page.workspace.session.run
    b = run.result.blocks
    mine = np.nonzero(b.sm == 3)[0]
    rect = page.timeline.outlines.path().boundingRect()
    assert rect.left() == pytest.approx(b.start[mine].min())
    assert rect.right() == pytest.approx(b.end[mine].max())
    assert len(page.timeline.labels) == len(mine)


def test_per_sm_counts_follow_the_selection(page, qtbot):
    page.per_sm.setChecked(True)
    page.workspace.session.select_sm(3)
    run = page.workspace.session.run
    expected = run.sm_counts(3)
    assert np.array_equal(page.counts.curves["resident"].yData, expected[:, 0])
    assert not page.counts.curves["launched"].isVisible()
    page.per_sm.setChecked(False)
    assert page.counts.curves["launched"].isVisible()


def test_hover_tooltip_names_sm_block_warp_and_state(page):
    s = page.workspace.session
    s.set_cycle(3000)
    grid = page.grid
    run = s.run
    owner = run.slot_owner(3000)
    sm = 5
    slot = int(np.nonzero(owner[sm] >= 0)[0][0])
    text = grid.tooltip_at(cell_center(grid, sm, slot))
    block = int(owner[sm, slot])
    assert f"<b>SM {sm}</b>" in text
    assert f"Block {block}, warp" in text
    assert f"scheduler {slot % 4}" in text
    code = int(run.states_at(3000)[sm, slot])
    from explorer.gui.common.state_colors import display_names, meanings

    assert display_names()[code] in text and meanings()[code] in text


def test_grid_pixels_show_the_states(page):
    """The painted colour of a cell is its state's colour (not just the model)."""
    from PySide6.QtGui import QColor

    from explorer.gui.common.state_colors import state_color

    s = page.workspace.session
    s.set_cycle(3000)
    img = page.grid.grab().toImage()
    states = s.run.states_at(3000)
    checked = 0
    for sm in (0, 50, 131):
        for slot in (0, 9, 18, 63):
            c = cell_center(page.grid, sm, slot)
            got = QColor(img.pixel(c.x(), c.y())).name().upper()
            assert got == state_color(int(states[sm, slot]), False).upper()
            checked += 1
    assert checked == 12


def test_zoomed_out_timeline_keeps_one_cycle_issues(page, qtbot):
    tl = page.timeline
    run = page.workspace.session.run
    tl.show_all()
    QApplication.processEvents()
    assert tl.level > 0  # 10,589 cycles on < 1,000 pixels
    assert tl.image.autoDownsample is False
    level = tl.level
    img = tl.image.image
    full = tl._levels[0]  # full resolution, the rows on display
    assert full.shape == (run.cycles, len(tl.rows)) and len(tl.rows) == 16  # 2 blocks x 8 warps on SM 0
    # every issue (SELECTED) in the full trace shows as SELECTED in its bin
    cycles, rows = np.nonzero(full == PRIORITY[SELECTED])
    assert cycles.size
    assert np.all(img[cycles >> level, rows] == PRIORITY[SELECTED])
    # zoomed in, the image is the full resolution
    tl.getPlotItem().setXRange(1000, 1100, padding=0)
    QApplication.processEvents()
    assert tl.level == 0 and tl.image.image.shape[0] == run.cycles
    assert tl.image.autoDownsample is False


def test_unrecorded_sm_is_resimulated_on_demand(window, qtbot):
    """memory-bound-stream outgrows the trace budget: SMs past the first few are re-simulated."""
    page = window.explorer
    wait_run(qtbot, page)
    page.load_preset("memory-bound-stream")
    qtbot.waitUntil(lambda: page.workspace.session.run.result.scenario.name == "memory-bound-stream"
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    run = page.workspace.session.run
    recorded = set(run.result.recorded_sms.tolist())
    sm = max(set(range(run.sm_count)) - recorded)
    page.workspace.session.select_sm(sm)
    assert page.timeline.message.isVisible()
    qtbot.waitUntil(lambda: run.is_recorded(sm), timeout=RUN_TIMEOUT)
    qtbot.waitUntil(lambda: page.timeline._levels is not None, timeout=5000)
    assert not page.timeline.message.isVisible()
    assert run.sm_trace(sm).shape == (run.cycles, run.warps_per_sm)


# -- persistence and leaks -------------------------------------------------------------
def test_explorer_state_survives_a_restart(qtbot, settings, light_theme):
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.show()
    p = first.explorer
    wait_run(qtbot, p)
    type_into(p.panel.fields["regs"], "64")
    qtbot.waitUntil(lambda: p.workspace.session.scenario.launch.registers_per_thread == 64, timeout=2000)
    p.workspace.session.select_sm(17)
    p.transport.set_speed(1000)
    first.close()

    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    second.show()
    p2 = second.explorer
    assert p2.panel.fields["regs"].text() == "64"
    assert p2.workspace.session.selected_sm == 17
    assert p2.clock.speed == 1000
    run = wait_run(qtbot, p2)
    assert run.result.scenario.launch.registers_per_thread == 64
    assert p2.runner.submitted["simulate"] == 1  # only the restored scenario was simulated (not the default first)


def test_closing_mid_simulation_stops_the_worker(qtbot, settings, light_theme):
    w = MainWindow(settings=settings)
    w.show()
    w.workspace.simulation.test_delay_s = 5.0
    w.workspace.change_scenario(w.workspace.session.scenario.with_values(seed=99), "preset")
    qtbot.waitUntil(w.explorer.runner.busy, timeout=5000)
    w.close()
    assert not w.explorer.runner.busy()
    w.deleteLater()
    QApplication.processEvents()
