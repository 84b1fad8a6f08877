"""Edit > Undo / Redo: every change of the Explorer's scenario is a command on one stack."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from explorer.gui.workspace.commands import CommandStack, ScenarioChange
from explorer.model.presets import default_scenario, load_preset
from tests.gui.support import RUN_TIMEOUT


def settled(page):
    session = page.workspace.session
    return session.run_is_current and session.run.result.scenario == session.scenario


def edit(qtbot, page, key: str, text: str):
    """Type ``text`` into a field and wait for its simulation."""
    before = page.workspace.session.scenario
    page.panel.fields[key].set_text(text)
    qtbot.waitUntil(lambda: page.workspace.session.scenario != before and settled(page), timeout=RUN_TIMEOUT)
    return page.workspace.session.scenario


def same_simulation(a, b) -> bool:
    """The two runs are the same simulation: summaries (but the wall time) and per-cycle counts."""
    sa = {k: v for k, v in a.summary.items() if k != "sim_seconds"}
    sb = {k: v for k, v in b.summary.items() if k != "sim_seconds"}
    return sa == sb and np.array_equal(a.result.counts, b.result.counts)


def test_three_edits_and_a_preset_undone_give_the_original_scenario_and_simulation(window, page, qtbot):
    original, original_run = page.workspace.session.scenario, page.workspace.session.run
    assert not window.undo_action.isEnabled() and window.undo_action.text() == "&Undo"
    edit(qtbot, page, "regs", "64")
    edit(qtbot, page, "grid", "300")
    edited = edit(qtbot, page, "seed", "7")
    assert (edited.launch.registers_per_thread, edited.launch.grid.x, edited.seed) == (64, 300, 7)
    assert window.undo_action.text() == "&Undo Field Edit"
    index = page.panel.preset.findData("tail-effect")
    page.panel.preset.setCurrentIndex(index)
    page.panel.preset.activated.emit(index)
    qtbot.waitUntil(lambda: page.workspace.session.scenario == load_preset("tail-effect") and settled(page),
                    timeout=RUN_TIMEOUT)
    assert window.undo_action.text() == "&Undo Loading a Preset"
    assert [c.kind for c in page.workspace.commands.done] == ["edit", "edit", "edit", "preset"]

    for _ in range(4):
        window.undo_action.trigger()
    qtbot.waitUntil(lambda: settled(page), timeout=RUN_TIMEOUT)
    assert page.workspace.session.scenario == original
    assert same_simulation(page.workspace.session.run, original_run)
    assert page.panel.texts()["regs"] == "32" and page.panel.texts()["grid"] == "240"
    assert not window.undo_action.isEnabled() and window.redo_action.text() == "&Redo Field Edit"

    window.redo_action.trigger()  # back to the first edit
    qtbot.waitUntil(lambda: settled(page), timeout=RUN_TIMEOUT)
    assert (page.workspace.session.scenario.launch.registers_per_thread == 64
            and page.panel.fields["regs"].text() == "64")
    assert page.workspace.session.scenario.launch.grid.x == 240
    assert page.workspace.commands.history[-5:] == [("undo", "preset"), ("undo", "edit"), ("undo", "edit"),
                                                    ("undo", "edit"), ("redo", "edit")]


def test_ctrl_z_and_ctrl_shift_z_in_the_edit_menu(window, page, qtbot):
    assert window.undo_action in window.edit_menu.actions() and window.redo_action in window.edit_menu.actions()
    assert window.undo_action.shortcut() == QKeySequence("Ctrl+Z")
    assert QKeySequence("Ctrl+Shift+Z") in window.redo_action.shortcuts()
    original = page.workspace.session.scenario
    edit(qtbot, page, "regs", "40")
    window.tabs.setFocus()  # not typing in a field (a field's own Ctrl+Z undoes its text)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: page.workspace.session.scenario == original and settled(page), timeout=RUN_TIMEOUT)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: page.workspace.session.scenario.launch.registers_per_thread == 40, timeout=RUN_TIMEOUT)


def test_typing_in_one_field_is_one_step_and_a_new_edit_drops_redo(window, page, qtbot):
    original = page.workspace.session.scenario
    for text in ("1", "12", "128"):  # keystrokes: each applied, one undo step
        page.panel.fields["regs"].set_text(text)
        page.apply_edits()
    assert page.workspace.session.scenario.launch.registers_per_thread == 128
    assert [c.kind for c in page.workspace.commands.done] == ["edit"]
    page.workspace.undo()
    assert page.workspace.session.scenario == original
    assert page.workspace.commands.redo_kind == "edit"
    edit(qtbot, page, "seed", "5")
    assert page.workspace.commands.redo_kind is None and len(page.workspace.commands.done) == 1


def test_an_invalid_edit_is_no_step_and_undo_clears_it(window, page, qtbot):
    edited = edit(qtbot, page, "regs", "64")
    page.panel.fields["grid"].set_text("0")
    qtbot.waitUntil(lambda: "grid" in page.workspace.session.errors, timeout=2000)
    assert len(page.workspace.commands.done) == 1 and page.workspace.session.scenario == edited
    page.workspace.undo()
    assert not page.workspace.session.errors and not page.panel.fields["grid"].is_invalid
    assert (page.panel.fields["grid"].text() == "240"
            and page.workspace.session.scenario.launch.registers_per_thread == 32)


def test_opened_files_gemm_and_measurements_are_undoable_lesson_steps_are_not(window, page, qtbot, tmp_path):
    original = page.workspace.session.scenario
    path = tmp_path / "s.toml"
    original.with_values(seed=11).save(path)
    assert window.open_path(path)
    gemm = window.views["gemm"]
    sent = gemm.send_to_explorer()
    qtbot.waitUntil(lambda: page.workspace.session.scenario == sent and settled(page), timeout=RUN_TIMEOUT)
    assert [c.kind for c in page.workspace.commands.done] == ["file", "gemm"]
    assert window.undo_action.text() == "&Undo Simulate in the Explorer"
    lessons = window.feature("lessons")
    lessons.start("launched-resident-ready", 1)
    qtbot.waitUntil(lambda: lessons.ready, timeout=RUN_TIMEOUT)
    lessons.next()
    assert [c.kind for c in page.workspace.commands.done] == ["file", "gemm"]  # lesson steps are not undo steps ...
    assert ("do", "lesson") in page.workspace.commands.history  # ... but they are in the log
    lessons.stop()
    page.workspace.undo()
    assert page.workspace.session.scenario.seed == 11  # before the GEMM: the opened file
    page.workspace.undo()
    assert page.workspace.session.scenario == original


def test_the_undo_steps_survive_a_language_switch(window, page, qtbot, english):
    from explorer.gui.shell.language import switch_language

    original = page.workspace.session.scenario
    edit(qtbot, page, "regs", "48")
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert ru.undo_action.isEnabled() and ru.undo_action.text().startswith("&Отменить")
    ru.undo_action.trigger()
    qtbot.waitUntil(lambda: ru.workspace.session.scenario == original, timeout=RUN_TIMEOUT)


# -- the stack itself (Qt-free) ----------------------------------------------------------
class Target:
    """What a command acts on: a scenario on screen."""

    def __init__(self, scenario):
        self.scenario = scenario
        self.applied = []

    def apply_scenario(self, scenario, run=None, from_panel=False):
        self.scenario = scenario
        self.applied.append((scenario.seed, from_panel))


def test_the_command_stack_without_qt():
    base = default_scenario()
    target, stack = Target(base), CommandStack(limit=3)
    events = []
    stack.changed.connect(lambda: events.append((stack.undo_kind, stack.redo_kind)))
    for seed in (2, 3, 4, 5):
        stack.do(ScenarioChange("preset", base.with_values(seed=seed)), target)
    assert target.scenario.seed == 5 and len(stack.done) == 3  # the oldest step fell off
    assert stack.undo(target) and stack.undo(target) and stack.undo(target)
    assert target.scenario.seed == 2 and not stack.undo(target)
    assert stack.redo(target) and target.scenario.seed == 3
    stack.do(ScenarioChange("lesson", base.with_values(seed=9)), target)  # not a step: redo is kept
    assert stack.redo_kind == "preset" and stack.undo_kind == "preset"
    assert events[-1] == ("preset", "preset")
    edit_ = ScenarioChange("edit", base.with_values(seed=10), fields=frozenset({"seed"}))
    stack.do(edit_, target)
    assert target.applied[-1] == (10, True)  # the first time: the panel shows it already
    stack.undo(target)
    stack.redo(target)
    assert target.applied[-1] == (10, False)  # a redo fills the panel
    with pytest.raises(ValueError):
        ScenarioChange("typo", base)
