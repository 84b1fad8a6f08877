"""A/B compare driven through the real window: pin, edit a field, both runs and the table, keys, export,
presentation mode, a language switch, a restart, and ``render --compare``.

Expected figures come from the two runs' own summaries (the simulator) and the
interface's number style; the widgets must show them.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from explorer.cli.main import main
from explorer.texts.numbers import num, pct
from explorer.gui.shell.main_window import MainWindow
from tests.gui.support import RUN_TIMEOUT, wait_run


@pytest.fixture
def compare(window, qtbot):
    window.resize(1600, 900)
    wait_run(qtbot, window.explorer)
    return window.feature("compare")


def key(window, qtbot, key_code, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.focusWidget() or window, key_code, modifiers)


def edit_registers(window, qtbot, value: int):
    """Type into the Explorer's registers field and wait for its simulation; the new run."""
    page = window.explorer
    page.panel.fields["regs"].set_text(str(value))
    qtbot.waitUntil(lambda: page.workspace.session.run.result.scenario.launch.registers_per_thread == value
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    return page.workspace.session.run


def show_grid(window, qtbot, blocks: int):
    """Put a grid of ``blocks`` x 1 x 1 on screen (a preset-like change) and wait for its simulation; the run."""
    explorer = window.explorer
    explorer.workspace.change_scenario(explorer.workspace.scenario.with_overrides([f"launch.grid=[{blocks},1,1]"]),
                                       "preset")
    qtbot.waitUntil(lambda: explorer.workspace.session.run.result.scenario.launch.grid.x == blocks
                    and not explorer.workspace.session.simulating, timeout=RUN_TIMEOUT)
    return explorer.workspace.session.run


def pin_a_longer_run_then_show_a_shorter(window, compare, qtbot):
    """Pin a run of 480 blocks as A, then show one of 120 (B); (A's run, B's run)."""
    longer = show_grid(window, qtbot, 480)
    compare.pin()
    return longer, show_grid(window, qtbot, 120)


def test_pin_edit_a_field_and_see_both_runs_and_the_table(window, compare, qtbot):
    explorer = window.explorer
    first = explorer.workspace.session.run
    window.activateWindow()
    key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # pin and look
    assert window.tabs.currentWidget() is compare and compare.pinned is first
    assert compare.session.same_run and "same run" in compare.changes.text()
    key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # back to the Explorer
    assert window.tabs.currentWidget() is explorer

    second = edit_registers(window, qtbot, 128)  # 128 registers: 2 blocks of 256 threads per SM instead of 8
    key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is compare
    assert compare.pinned is first and compare.session.current is second
    a, b = first.summary, second.summary
    cells = compare.table.cells
    assert cells[("a", "cycles")].text() == num(a["cycles"]) and cells[("b", "cycles")].text() == num(b["cycles"])
    assert cells[("a", "theoretical_occupancy")].text().startswith(pct(a["theoretical_occupancy"]))
    assert cells[("b", "theoretical_occupancy")].text().startswith(pct(b["theoretical_occupancy"]))
    change = cells[("change", "theoretical_occupancy")]
    assert change.text().startswith("−75 pp") or change.text().startswith("\u221275")  # 100% -> 25%
    assert change.property("changed") is True and change.font().bold()  # a changed figure stands out
    assert change.autoFillBackground()
    same = cells[("change", "issue_slot_utilization")] if a["issue_slot_utilization"] == b["issue_slot_utilization"] \
        else None
    assert same is None or not same.font().bold()
    assert "launch.registers_per_thread 32 → 128" in compare.changes.text()
    # both columns: the Explorer's views with each run
    assert compare.columns["a"].grid.run is first and compare.columns["b"].grid.run is second
    assert compare.columns["a"].counts.run is first and compare.columns["b"].timeline.run is second
    assert "32 registers" in compare.columns["a"].title.text() and "128 registers" in compare.columns["b"].title.text()


def test_one_playback_drives_both_and_the_shorter_run_says_finished(window, compare, qtbot):
    explorer = window.explorer
    longer, shorter = pin_a_longer_run_then_show_a_shorter(window, compare, qtbot)
    assert shorter.cycles < longer.cycles
    window.feature("compare_actions").toggle_action.trigger()
    s = compare.session
    assert s.length == longer.cycles and compare.transport.slider.maximum() == longer.cycles - 1

    key(window, qtbot, Qt.Key.Key_End)
    assert s.t == longer.cycles - 1
    b = compare.columns["b"]
    assert b.grid.cycle == shorter.cycles - 1 and "Finished" in b.now.text()
    assert "Finished" not in compare.columns["a"].now.text()
    assert b.counts.cursor.value() == pytest.approx(longer.cycles - 0.5)  # the shared cycle axis
    key(window, qtbot, Qt.Key.Key_Home)
    key(window, qtbot, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert s.t == 100 and compare.columns["a"].grid.cycle == 100 and b.grid.cycle == 100
    key(window, qtbot, Qt.Key.Key_Space)
    assert compare.clock.playing
    qtbot.waitUntil(lambda: s.t > 150, timeout=5000)
    key(window, qtbot, Qt.Key.Key_Space)
    assert not compare.clock.playing

    # same share of each run: half-way through both
    compare.align.setCurrentIndex(compare.align.findData("progress"))
    s.set_position((longer.cycles - 1) // 2)
    assert abs(b.grid.cycle - (shorter.cycles - 1) / 2) <= 1 and "Finished" not in b.now.text()

    # a click on B's plot at its cycle c moves both to the position that shows c
    b.counts.cycle_requested.emit(1000)
    assert b.grid.cycle == 1000
    key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # back: the Explorer at B's moment
    assert window.tabs.currentWidget() is explorer and explorer.workspace.session.cycle == 1000


def test_one_cursor_the_explorer_and_the_compare_view_move_together(window, compare, qtbot):
    """The cycle is the workspace's one cursor: the compare's slider moves the Explorer's views (timeline, unit
    strip, counts, grid, transport) and the Explorer's slider and plots move the compare's columns; one clock
    plays it at a time."""
    explorer = window.explorer
    longer, shorter = pin_a_longer_run_then_show_a_shorter(window, compare, qtbot)
    window.feature("compare_actions").toggle_action.trigger()
    assert window.tabs.currentWidget() is compare
    a, b = compare.columns["a"], compare.columns["b"]

    def explorer_shows(cycle: int) -> bool:
        return (window.workspace.session.cycle == cycle and explorer.transport.slider.value() == cycle
                and explorer.grid.cycle == cycle and explorer.timeline.cursor.value() == pytest.approx(cycle + 0.5)
                and explorer.unit_strip.cursor.value() == pytest.approx(cycle + 0.5)
                and explorer.counts.cursor.value() == pytest.approx(cycle + 0.5))

    compare.transport.slider.setValue(700)  # the compare's scrub slider, as a drag sets it
    assert b.grid.cycle == a.grid.cycle == 700 and explorer_shows(700)
    key(window, qtbot, Qt.Key.Key_End)  # past B's end: the Explorer holds B's last cycle, A plays on
    assert compare.session.t == longer.cycles - 1 and explorer_shows(shorter.cycles - 1)

    window.tabs.setCurrentWidget(explorer)
    explorer.transport.slider.setValue(300)  # the Explorer's slider
    explorer.unit_strip.cycle_requested.emit(350)  # a click on the unit strip
    assert explorer_shows(350)
    assert b.grid.cycle == shorter.cycles - 1  # the hidden tab draws nothing while the cursor moves ...
    window.tabs.setCurrentWidget(compare)
    assert compare.transport.slider.value() == 350 and b.grid.cycle == a.grid.cycle == 350  # ... until shown
    assert "Cycle 350 of" in b.now.text()

    explorer.toggle_play()  # the Explorer plays; the compare's clock, started, takes over
    assert explorer.clock.playing and window.workspace.session.playing is explorer
    compare.toggle_play()
    assert compare.clock.playing and not explorer.clock.playing and window.workspace.session.playing is compare
    qtbot.waitUntil(lambda: compare.session.t > 400, timeout=5000)
    compare.toggle_play()
    assert not compare.clock.playing and window.workspace.session.playing is None
    assert explorer_shows(compare.session.frame("b").cycle)


def test_export_the_comparison_as_one_picture(window, compare, qtbot, tmp_path):
    compare.pin()
    window.feature("compare_actions").toggle_action.trigger()
    QApplication.processEvents()
    export = window.feature("export")
    body = compare.body  # the current view's picture: both columns, the legends and the table, no buttons
    assert export.widget_for("view") is body and "compare" not in window.views
    png = export.export_picture("view", tmp_path / "ab.png", scale=2.0)
    img = QImage(str(png))
    assert (img.width(), img.height()) == (2 * body.width(), 2 * body.height())
    svg = export.export_picture("view", tmp_path / "ab.svg")
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "Cycles" in text and "A (pinned)" in text and "Pin B as A" not in text
    pdf = export.export_picture("view", tmp_path / "ab.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_presentation_mode_keeps_the_views_and_the_keys(window, compare, qtbot):
    compare.pin()
    presentation = window.feature("presentation")
    base = QApplication.font().pointSizeF()
    presentation.set_presenting(True)  # before the tab's views exist: they are scaled when built
    try:
        window.feature("compare_actions").toggle_action.trigger()
        qtbot.waitUntil(lambda: compare.table.cells[("a", "cycles")].font().pointSizeF()
                        == pytest.approx(base * presentation.scale), timeout=2000)
        assert not compare.toolbar.isVisible() and not compare.transport.isVisible()
        assert not window.menuBar().isVisible() and not window.tabs.tabBar().isVisible()
        assert compare.columns["a"].grid.isVisible() and compare.table.isVisible()
        key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # the menu bar is hidden: still works
        assert window.tabs.currentWidget() is window.explorer
        key(window, qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
        assert window.tabs.currentWidget() is compare
    finally:
        presentation.set_presenting(False)


def test_the_pin_survives_a_language_switch(window, compare, qtbot, english):
    from explorer.gui.shell.language import switch_language

    pinned = compare.pin() and compare.pinned
    edit_registers(window, qtbot, 64)
    compare.session.set_position(1234)
    window.feature("presentation").set_presenting(True)  # a lecturer switching language mid-talk
    new = switch_language(window, "ru")
    qtbot.addWidget(new)
    page = new.feature("compare")
    assert page.pinned is pinned  # the run itself: nothing re-simulated
    assert page.session.t == 1234
    new.tabs.setCurrentWidget(page)
    presentation = new.feature("presentation")
    assert presentation.presenting
    cell = page.table.cells[("a", "cycles")].font().pointSizeF()
    assert cell == pytest.approx(QApplication.font().pointSizeF() * presentation.scale)  # scaled like the rest
    presentation.set_presenting(False)
    assert page.table.cells[("a", "cycles")].text() == num(pinned.summary["cycles"])  # Russian digit groups
    assert page.table.cells[("a", "cycles")].text() != f"{pinned.summary['cycles']:,}"
    assert new.feature("compare_actions").menu.title() == "Сравнение A/&B"
    assert new.tabs.tabText(new.tabs.indexOf(page)) == "Сравнение A/&B"
    assert page.table.cells[("change", "cycles")].text() != "same"
    back = switch_language(new, "en")
    qtbot.addWidget(back)
    assert back.feature("compare").pinned is pinned


def test_the_pin_is_remembered_as_its_scenario_and_resimulated_after_a_restart(qtbot, settings, light_theme):
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.show()
    wait_run(qtbot, first.explorer)
    edit_registers(first, qtbot, 96)
    first.feature("compare").pin()
    pinned = first.feature("compare").pinned
    first.close()

    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    second.show()
    page = second.feature("compare")
    assert page.pinned is None and page.pending_pin == pinned.result.scenario  # lazy: nothing simulated yet
    second.feature("compare_actions").toggle_action.trigger()
    qtbot.waitUntil(lambda: page.pinned is not None, timeout=RUN_TIMEOUT)
    assert page.pinned.result.scenario == pinned.result.scenario
    assert page.pinned.summary["cycles"] == pinned.summary["cycles"]  # deterministic for its seed
    page.unpin()
    second.close()

    third = MainWindow(settings=settings)
    qtbot.addWidget(third)
    assert third.feature("compare").pending_pin is None  # unpinned stays unpinned


def test_shortcuts_and_mnemonic_are_unique_in_the_window(window):
    from PySide6.QtGui import QAction

    keys = [a.shortcut().toString() for a in window.findChildren(QAction)
            if not a.shortcut().isEmpty() and a.shortcut().toString() in ("Ctrl+B", "Ctrl+Shift+B")]
    assert sorted(keys) == ["Ctrl+B", "Ctrl+Shift+B"]
    tab = window.tabs.tabText(window.tabs.indexOf(window.feature("compare")))
    letters = [window.tabs.tabText(i).split("&")[1][0].lower() for i in range(window.tabs.count())
               if "&" in window.tabs.tabText(i)]
    assert tab == "A/&B compare" and letters.count("b") == 1


def test_the_tab_builds_its_views_when_first_shown_and_draws_only_when_shown(window, compare, qtbot):
    assert compare.columns == {}  # nothing built at start-up: the window comes up as fast as without the tab
    compare.pin()
    window.tabs.setCurrentWidget(compare)
    first = compare.session.pinned
    assert compare.columns["b"].grid.run is first
    window.show_view("explorer")
    second = edit_registers(window, qtbot, 64)
    assert compare.session.current is second and compare.columns["b"].grid.run is first  # not drawn while hidden
    window.tabs.setCurrentWidget(compare)
    assert compare.columns["b"].grid.run is second and compare.columns["b"].counts.run is second


def test_dark_theme_reaches_both_columns(window, compare):
    compare.pin()
    window.set_theme_mode("dark")
    try:
        assert all(c.grid.theme.dark and c.counts.theme.dark for c in compare.columns.values())
    finally:
        window.set_theme_mode("light")


def test_unpinning_clears_the_table_and_says_how_to_pin(window, compare):
    window.feature("compare_actions").toggle_action.trigger()  # pins the Explorer's run and shows both
    assert compare.table.cells[("a", "cycles")].text() == num(compare.pinned.summary["cycles"])
    window.feature("compare_actions").unpin_action.trigger()
    assert compare.pinned is None and compare.table.cells[("a", "cycles")].text() == "–"
    assert "Ctrl+Shift+B" in compare.changes.text()
    assert not compare.unpin_button.isEnabled()


def test_render_compare_writes_a_png(tmp_path, capsys, light_theme):
    out = tmp_path / "ab.png"
    code = main(["render", "example-240x256", "--compare", "example-240x256", "--compare-set",
                 "launch.registers_per_thread=128", "--out", str(out), "--size", "1280x720", "--cycle", "3000"])
    assert code == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() == f"wrote {out} (1280x720, cycle 3000, A/B compare)"
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)
    assert not list(tmp_path.glob(".*.png"))


@pytest.mark.parametrize("args, field", [
    (["--compare", "example-240x256", "--cycle", "99999999"], "--cycle"),
    (["--compare-set", "seed=2"], "--compare-set"),
    (["--compare", "example-240x256", "--compare-set", "launch.registers_per_thread=300"],
     "launch.registers_per_thread"),
    (["--compare", "no-such-preset"], "no-such-preset"),
])
def test_render_compare_refuses_bad_arguments_with_one_line(tmp_path, capsys, args, field, light_theme):
    out = tmp_path / "x.png"
    assert main(["render", "example-240x256", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and field in err
    assert not out.exists()
