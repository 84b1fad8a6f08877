"""The SASS view (issue 16 item 4), driven as a user does: the run's program beside the timeline, the warp's
next instruction marked at the cursor and following playback, hottest first, a click's details, Ctrl+I, both
themes, the language switch.

The run is the simulator's own on the mission's example (its SASS program, ``pc_trace``, ``stall_by_instruction``);
every expectation is read from the run's per-slot trace and program, not from the view.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer.gui.sass.listing_model import CYCLES, MARK, PC, TEXT
from explorer.gui.sass.program_data import ProgramData
from explorer.sim.states import EMPTY
from tests.gui.sass.conftest import partial_point, program_rows, run_of
from tests.sass.support import needs_sass
from tests.gui.support import wait_run


@pytest.fixture
def shown(window, qtbot, example):
    """The window at 1600x900 with the example's run on screen; (window, the SASS feature, the run)."""
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    run = run_of(example)
    page.workspace.show_run(run)
    qtbot.waitUntil(lambda: page.workspace.session.run is run)
    feature = window.feature("sass")
    assert feature.view.isHidden() and not feature.toggle_action.isChecked()  # off until asked for
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: feature.view.isVisible())
    return window, feature, run


def test_the_listing_is_the_programs_and_its_counts_are_the_traces(example):
    run = run_of(example)
    result = run.result
    data = ProgramData(result)
    program = data.program
    assert program.source == "sass" and data.rows == len(program.listing)
    # every non-empty warp-cycle of the recorded SMs lands on exactly one listing row
    busy = int((result.trace != EMPTY).sum())
    assert data.total == busy
    by_hand = np.zeros(data.rows, np.int64)
    for row, counts in zip(program.static_index.tolist(), result.stall_by_instruction):
        by_hand[row] += counts[1:].sum()
    assert np.array_equal(data.totals, by_hand)
    hot = data.hottest_first()
    assert sorted(hot.tolist()) == list(range(data.rows))
    assert np.all(np.diff(data.totals[hot]) <= 0)
    # where a warp is: the trace's program row, shown as its listing row
    trace = result.pc_trace(0)
    cycle, slot = np.argwhere(trace >= 0)[len(np.argwhere(trace >= 0)) // 2]
    assert data.row_at(0, int(slot), int(cycle)) == int(program.static_index[trace[cycle, slot]])
    empty = np.argwhere(trace < 0)
    if len(empty):
        assert data.row_at(0, int(empty[0][1]), int(empty[0][0])) is None
    assert data.row_at(0, 0, result.cycles + 5) is None


def test_what_an_instruction_waits_on_is_its_registers_last_writer(example):
    data = ProgramData(run_of(example).result)
    program = data.program
    order = program_rows(program)
    checked = 0
    for i in range(program.loop_start, program.loop_end):  # the loop body: the steady state a warp spends most in
        row = int(program.static_index[i])
        for producer in data.waits_on(row):
            reg = program.reg_names.index(producer.register)
            # independent: walk the executed stream backwards from the body's second iteration
            at = program.loop_start + (program.loop_end - program.loop_start) + (i - program.loop_start)
            before = [j for j in order[:at][::-1] if reg in program.dst[j]]
            expected = int(program.static_index[before[0]]) if before else None
            assert producer.row == expected, (program.listing[row].text, producer)
            checked += 1
    assert checked > 10


def test_the_view_sits_beside_the_timeline_and_says_which_program_ran(shown):
    window, feature, run = shown
    view, page = feature.view, window.explorer
    assert view.parentWidget() is page.lower and page.lower.indexOf(page.plots) == 0
    assert view.mapTo(page, view.rect().topLeft()).x() > page.timeline.mapTo(page, page.timeline.rect().topRight()).x()
    assert view.model.rowCount() == len(run.result.warp_program.listing)
    assert view.program_label.toolTip().startswith("SASS of we_kernel (sm_90) · ")
    assert "instructions per warp" in view.program_label.toolTip()
    # instrumentation is dimmed, the workload's instructions are not
    listing = run.result.warp_program.listing
    inst = next(r for r, row in enumerate(listing) if row.instrumentation)
    work = next(r for r, row in enumerate(listing) if not row.instrumentation and row.executed)
    model = view.model
    fg = Qt.ItemDataRole.ForegroundRole
    assert model.data(model.index(model.table_row(inst), TEXT), fg) is not None
    assert model.data(model.index(model.table_row(work), TEXT), fg) is None


def test_the_cursor_moves_the_highlight_without_relaying_out_the_listing(shown, qtbot):
    window, feature, run = shown
    view, session = feature.view, window.workspace.session
    trace = run.result.pc_trace(session.selected_sm)
    program = run.result.warp_program
    slot = view.slot
    assert (trace[:, slot] >= 0).any()  # the default warp is a slot that ran one
    resets = []
    view.model.modelReset.connect(lambda: resets.append("reset"))
    view.model.layoutChanged.connect(lambda: resets.append("layout"))
    busy = np.nonzero(trace[:, slot] >= 0)[0]
    seen = set()
    for cycle in busy[:: max(1, len(busy) // 40)].tolist():
        session.set_cycle(cycle)
        row = int(program.static_index[trace[cycle, slot]])
        assert view.model.current == row
        k = view.model.table_row(row)
        assert view.model.data(view.model.index(k, PC)).startswith(MARK)
        seen.add(row)
    assert len(seen) > 3 and not resets
    # following: the marked row is in view
    k = view.model.table_row(view.model.current)
    rect = view.table.visualRect(view.model.index(k, PC))
    assert view.table.viewport().rect().intersects(rect)
    # a click on a timeline row picks that warp slot
    timeline = window.explorer.timeline
    other = int(timeline.rows[min(3, len(timeline.rows) - 1)])
    window.explorer.slot_clicked.emit(other)
    assert view.slot == other and view.slot_box.value() == other


def test_hottest_first_and_back_to_program_order(shown, qtbot):
    _window, feature, run = shown
    view = feature.view
    data = view.data
    qtbot.mouseClick(view.hot_button, Qt.MouseButton.LeftButton)
    assert view.hottest_first
    shown_rows = [view.model.listing_row(k) for k in range(view.model.rowCount())]
    assert shown_rows[0] == int(np.argmax(data.totals))
    assert all(data.totals[a] >= data.totals[b] for a, b in zip(shown_rows, shown_rows[1:]))
    assert view.model.data(view.model.index(0, CYCLES)) == f"{int(data.totals.max()):,}"
    qtbot.mouseClick(view.hot_button, Qt.MouseButton.LeftButton)
    assert not view.hottest_first
    pcs = [run.result.warp_program.listing[view.model.listing_row(k)].pc for k in range(view.model.rowCount())]
    assert pcs == sorted(pcs)
    # a header click sorts too, and the button says whether that is "hottest first"
    view.table.horizontalHeader().sectionClicked.emit(CYCLES)
    assert view.hottest_first and view.hot_button.isChecked()


def test_a_click_shows_latency_unit_and_the_registers_it_waits_on(shown, qtbot):
    _window, feature, run = shown
    view = feature.view
    program = run.result.warp_program
    data = view.data
    # a loop instruction that reads a register another instruction wrote
    row = next(int(program.static_index[i]) for i in range(program.loop_start, program.loop_end)
               if any(p.row is not None and not p.write for p in data.waits_on(int(program.static_index[i]))))
    k = view.model.table_row(row)
    view.table.scrollTo(view.model.index(k, TEXT))
    rect = view.table.visualRect(view.model.index(k, TEXT))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.clicked_row == row
    text = view.details.text()
    ins = program.listing[row]
    assert f"{ins.pc:04x}" in text and f"<b>Unit</b> {ins.unit}" in text
    assert "<b>Latency</b>" in text and "<b>Waits on</b> (reads):" in text
    producer = next(p for p in data.waits_on(row) if p.row is not None and not p.write)
    assert f"{producer.register} ← {program.listing[producer.row].pc:04x}" in text
    assert view.details_bar.total == int(data.totals[row])


def test_ctrl_i_hides_and_shows_the_view_and_the_state_is_kept(shown, qtbot):
    window, feature, _run = shown
    view = feature.view
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert view.isHidden() and not feature.toggle_action.isChecked()
    assert feature.capture_state()["shown"] is False
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert view.isVisible() and feature.toggle_action.isChecked()
    view.set_hottest_first(True)
    state = feature.capture_state()
    assert state["shown"] is True and state["hottest"] is True


def test_both_themes_mark_the_warps_instruction(shown, qtbot):
    window, feature, run = shown
    view = feature.view
    trace = run.result.pc_trace(window.workspace.session.selected_sm)
    window.workspace.session.set_cycle(int(np.nonzero(trace[:, view.slot] >= 0)[0][10]))
    row = view.model.current
    assert row is not None
    index = view.model.index(view.model.table_row(row), PC)
    light = view.model.data(index, Qt.ItemDataRole.BackgroundRole)
    window.set_theme_mode("dark")
    dark = view.model.data(index, Qt.ItemDataRole.BackgroundRole)
    assert view.model.theme.dark and light is not None and dark is not None and light != dark
    window.set_theme_mode("light")


@pytest.mark.parametrize("gpu, why", [("H100", 'the scenario chose program = "model"'),
                                      ("V100", "NVRTC 13.5 cannot target sm_70")])
def test_the_model_program_says_why_it_ran(window, qtbot, example, gpu, why):
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    scenario = example.with_values(**{"gpu": gpu, "program": "model"} if gpu == "H100" else {"gpu": gpu})
    run = run_of(scenario)
    assert run.result.warp_program.source == "model"
    page.workspace.show_run(run)
    window.feature("sass").set_shown(True)
    view = window.feature("sass").view
    assert view.program_label.toolTip().startswith(f"Workload model, not SASS: {why}")
    assert view.model.rowCount() == len(run.result.warp_program.listing)


def test_the_language_switch_keeps_the_view_and_speaks_russian(shown, qtbot, english):
    from explorer.gui.shell.language import switch_language

    window, feature, run = shown
    feature.view.set_hottest_first(True)
    feature.view.set_slot(5)
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    view = ru.feature("sass").view
    assert ru.workspace.session.run is run
    assert view.hottest_first and view.slot == 5
    assert view.tabs.tabText(1) == "Исходник CUDA"
    assert view.model.headerData(TEXT, Qt.Orientation.Horizontal) == "Инструкция"
    assert view.program_label.toolTip().startswith("SASS функции we_kernel")
    assert ru.feature("sass").toggle_action.text() == "&SASS-листинг"


# -- a divergent kernel: the warp's active lanes (issue 17 item 4) ------------------------------------------
@needs_sass
def test_the_warps_active_lanes_and_each_rows_average(qtbot, divergent):
    from explorer.gui.sass.lane_mask import active_lanes
    from explorer.gui.sass.listing_model import LANES, lanes_text
    from explorer.gui.sass.view import SassView

    run = run_of(divergent)
    result = run.result
    sm, slot, cycle, mask = partial_point(result)
    view = SassView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.set_run(run)
    view.set_sm(sm)
    view.set_slot(slot)
    view.set_cycle(cycle)
    # the strip: the mask the executor issued that warp's next instruction with (read from the run's events)
    assert view.lanes.mask == mask != 0xFFFFFFFF
    assert f"0x{mask:08x}" in view.lanes.toolTip() and str(active_lanes(mask)) in view.lanes.toolTip()
    assert f"{active_lanes(mask)}/32" in view.now_label.text()
    # an empty slot: no mask
    empty = np.argwhere(result.sm_trace(sm) == EMPTY)
    view.set_slot(int(empty[0][1]))
    view.set_cycle(int(empty[0][0]))
    assert view.lanes.mask is None
    # per row: the executor's own counts, independent of the engine (its tallies of what issued)
    from explorer.sass.execute.run import compile_for
    from explorer.sass.execute.session import execute
    from explorer.sass.execute.run import resolve

    kernel = compile_for(divergent)
    sc = resolve(divergent, kernel)
    ex = execute(kernel, sc.launch, sc.kernel, seed=sc.seed, sm_count=sc.gpu.sm_count)
    model = view.model
    partial_rows = 0
    for k in range(model.rowCount()):
        r = model.listing_row(k)
        shown = model.data(model.index(k, LANES))
        if ex.executions[r] == 0:
            assert shown == "—"
        else:
            assert shown == lanes_text(ex.active_lanes[r] / ex.executions[r])
            partial_rows += ex.active_lanes[r] < 32 * ex.executions[r]
    assert partial_rows >= 4
    view.select_row(int(np.nonzero(ex.executions)[0][0]))
    assert "lanes active on average" in view.details.text()


def test_each_load_and_store_shows_its_own_sector_hit_rates(example, shown, qtbot):
    """Issue 29 item 4: the SASS view gives each global access its L1 / L2 sector hit rates from the addresses
    (the example: the LDG's sectors miss both levels on a fresh L2, the STG's miss L1, written through, and hit L2,
    written without a fetch); other instructions show a dash; the column is shown, sortable, and the click's
    details say it in words."""
    from explorer.gui.sass.listing_model import HITS, hits_text

    window, feature, run = shown
    data = ProgramData(run.result)
    rows = {data.program.listing[r].text.split()[0]: r for r in range(data.rows) if data.hit_rates(r) is not None}
    assert set(rows) == {"LDG.E", "STG.E"}
    assert data.hit_rates(rows["LDG.E"]) == (0.0, 0.0)
    assert data.hit_rates(rows["STG.E"]) == (0.0, 1.0)
    assert data.sectors.sum(axis=0).tolist() == [int(run.result.memory[k]) for k in (
        "l1_hit_sectors", "l1_miss_sectors", "l2_hit_sectors", "l2_miss_sectors")]
    model, table = feature.view.model, feature.view.table
    assert not table.isColumnHidden(HITS)
    shown_texts = {model.order[k]: model.data(model.index(k, HITS)) for k in range(model.rowCount())}
    assert shown_texts[rows["STG.E"]] == "0% / 100%" and shown_texts[rows["LDG.E"]] == "0% / 0%"
    assert all(v == "—" for r, v in shown_texts.items() if r not in rows.values())  # the instrumentation's too
    assert hits_text(None) == "—"
    html = feature.view.details_html(rows["STG.E"])
    assert "L2: 122,880 of 122,880 sectors hit (100%)" in html
    # the Speed-of-Light panel's L1 and L2 rows say the run's sector hit rates, the Memory tab's figures
    caches = run.summary["caches"]
    sol = window.explorer.sol
    assert (f"Sectors hit: {caches['lts__t_sector_hit_rate']:.0f}% of {caches['lts__t_sectors']:,} looked up"
            in sol.names["l2"].toolTip())
    assert f"Sectors hit: 0% of {caches['l1tex__t_sectors']:,} looked up" in sol.names["l1"].toolTip()
    assert "Sectors hit" not in sol.names["dram"].toolTip()
