"""The lesson panel: every shipped lesson played step by step through the real window."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from explorer.gui.common import palette as oi
from explorer.gui.lessons.panel import LessonController
from explorer.model.lessons import load_lessons, parse_lesson
from explorer.sim import simulate
from tests.gui.support import RUN_TIMEOUT

LESSONS = load_lessons()


def wait_ready(qtbot, lessons: LessonController, timeout: int = RUN_TIMEOUT) -> None:
    qtbot.waitUntil(lambda: lessons.ready, timeout=timeout)


def test_lessons_menu_lists_the_ten_lessons_in_order(win):
    titles = [a.text() for a in win.menuBar().actions()]
    assert "&Lessons" in titles
    assert titles.index("&Lessons") == titles.index("&Help") - 1
    actions = [win.feature("lessons").lesson_actions[lesson.name] for lesson in LESSONS]
    # the mission's eight concepts, "What limits useful work right now?" and "Precision, and metrics easy to misread"
    assert len(actions) == 10
    numbers = [f"&{i}" for i in range(1, 10)] + ["1&0"]  # Alt+0 for the tenth: "&10" would be Alt+1 again
    assert [a.text() for a in actions] == [f"{n}  {lesson.title['en']}" for n, lesson in zip(numbers, LESSONS)]
    assert [lesson.order for lesson in LESSONS] == sorted(lesson.order for lesson in LESSONS)
    # the panel offers the same lessons (the menu bar is hidden in presentation mode)
    combo = win.feature("lessons").panel.choose
    assert [combo.itemData(i) for i in range(combo.count())][1:] == [lesson.name for lesson in LESSONS]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.name for lesson in LESSONS])
def test_each_lesson_steps_through_in_both_languages(win, qtbot, lesson):
    ctl = win.feature("lessons")
    win.feature("lessons").lesson_actions[lesson.name].trigger()  # as from the menu
    # equal, not the same object: another test may have reloaded the lessons (load_lessons.cache_clear) after this
    # module collected them, and the suite's order must not matter
    assert ctl.lesson == lesson and ctl.dock.isVisible()
    session = win.workspace.session
    for k, step in enumerate(lesson.steps):
        if k:
            ctl.next()
        wait_ready(qtbot, ctl)
        assert ctl.index == k
        assert ctl.panel.counter.text() == f"Step {k + 1} of {len(lesson.steps)}" + (
            " · figures of the workload model" if lesson.program == "model" and step.view == "explorer" else "")
        expected = lesson.scenario_at(k)
        run = session.run
        assert session.scenario == expected and run.result.scenario == expected
        assert session.cycle == step.resolve_cycle(run.cycles)
        if step.select_sm is not None:
            assert session.selected_sm == step.select_sm
        if step.view in win.views:
            assert win.tabs.currentWidget() is win.views[step.view]
        wanted = [win.lesson_targets[t] for t in step.highlight if t in win.lesson_targets]
        assert ctl.highlighted() == wanted
        if wanted:
            assert win.feature("overlay").visible_target_rects(), "a spotlight is on screen"
        assert ctl.panel.narration.text() == step.text("en")
        ctl.set_language("ru")
        assert ctl.panel.narration.text() == step.text("ru") != step.text("en")
        assert ctl.panel.counter.text() == f"Step {k + 1} of {len(lesson.steps)}" + (
            " · figures of the workload model" if lesson.program == "model" and step.view == "explorer" else "")
        ctl.set_language("en")
    assert not ctl.panel.next_button.isEnabled() and not ctl.next_action.isEnabled()
    assert ctl.panel.prev_button.isEnabled() == (len(lesson.steps) > 1)


def test_every_scenario_a_lesson_reaches_simulates(qtbot):
    """Valid is not enough: the simulator must accept each one (no launch that fits no block)."""
    for lesson in LESSONS:
        for k in range(len(lesson.steps)):
            result = simulate(lesson.scenario_at(k))
            assert result.cycles > 0, f"{lesson.name} step {k + 1}"


def test_pagedown_advances_and_pageup_goes_back(win, qtbot):
    ctl = win.feature("lessons")
    ctl.start("launched-resident-ready")
    wait_ready(qtbot, ctl)
    win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_PageDown)
    assert ctl.index == 1
    wait_ready(qtbot, ctl)
    qtbot.keyClick(win, Qt.Key.Key_PageDown)
    assert ctl.index == 2
    qtbot.keyClick(win, Qt.Key.Key_PageUp)
    assert ctl.index == 1
    wait_ready(qtbot, ctl)
    assert win.workspace.session.cycle == 20
    # from inside a text field too: a clicker does not know where the focus is
    field = win.explorer.panel.fields["regs"]
    field.edit.setFocus()
    qtbot.keyClick(field.edit, Qt.Key.Key_PageDown)
    assert ctl.index == 2
    # the buttons do the same
    ctl.panel.prev_button.click()
    assert ctl.index == 1
    ctl.panel.next_button.click()
    assert ctl.index == 2


def test_keys_do_nothing_without_a_lesson(win, qtbot):
    ctl = win.feature("lessons")
    assert not ctl.next_action.isEnabled() and not ctl.previous_action.isEnabled()
    win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_PageDown)
    assert ctl.lesson is None


def test_leaving_a_lesson_leaves_the_scenario_usable(win, qtbot):
    ctl = win.feature("lessons")
    lesson = ctl.find("launched-resident-ready")
    ctl.start(lesson, len(lesson.steps) - 1)
    wait_ready(qtbot, ctl)
    reached = win.workspace.session.scenario
    assert reached.launch.grid.x == 1056
    ctl.panel.end_button.click()
    assert ctl.lesson is None and ctl.highlighted() == []
    assert not win.feature("overlay").visible_target_rects()
    before = ctl._start.program  # kept, run by the program the user had before the lesson (issue 31 item 9)
    assert win.workspace.session.scenario == reached.with_values(program=before)
    assert "Choose a lesson" in ctl.panel.narration.text()
    # ... and editable: an edit re-simulates as usual
    win.explorer.panel.fields["regs"].set_text("64")
    qtbot.waitUntil(lambda: win.workspace.session.run.result.scenario.launch.registers_per_thread == 64
                    and not win.workspace.session.simulating, timeout=RUN_TIMEOUT)
    assert win.workspace.session.run.result.scenario.launch.grid.x == 1056


def test_an_edit_while_a_step_simulates_wins(win, qtbot):
    ctl = win.feature("lessons")
    ctl.start("latency-hiding")
    win.explorer.load_preset("compute-bound-fma")  # the user picks something else at once
    qtbot.waitUntil(lambda: win.workspace.session.run.result.scenario.name == "compute-bound-fma"
                    and not win.workspace.session.simulating, timeout=RUN_TIMEOUT)
    qtbot.wait(50)
    assert not ctl.ready  # the lesson stopped waiting; nothing jumped
    assert win.workspace.session.scenario.name == "compute-bound-fma"


def test_occupancy_steps_give_the_calculator_their_launch(win, qtbot):
    ctl = win.feature("lessons")
    ctl.start("what-limits-residency", 1)  # 64 registers per thread
    wait_ready(qtbot, ctl)
    assert win.tabs.currentWidget() is win.occupancy
    assert win.occupancy.inputs.fields["regs"].text() == "64"
    assert win.occupancy.evaluation.result.occupancy == pytest.approx(0.5)
    assert ctl.highlighted() == [win.occupancy, win.occupancy.graphs]


def test_a_step_on_a_missing_view_or_panel_degrades_quietly(win, qtbot, monkeypatch):
    lesson = parse_lesson({
        "title": {"en": "Test", "ru": "Тест"},
        "steps": [
            {"scenario": "example-240x256", "view": "memory", "highlight": ["memory", "counts"],
             "narration": {"en": "One.", "ru": "Один."}},
        ],
    }, "test")
    monkeypatch.delitem(win.views, "memory", raising=False)
    monkeypatch.delitem(win.lesson_targets, "memory", raising=False)
    ctl = win.feature("lessons")
    ctl.start(lesson)
    wait_ready(qtbot, ctl)
    assert ctl.panel.narration.text() == "One."
    assert ctl.panel.note.isVisible() and "view" in ctl.panel.note.text()
    assert ctl.highlighted() == [win.explorer.counts_panel]


def test_unknown_language_falls_back_to_english(win):
    ctl = win.feature("lessons")
    ctl.start("waves-and-tail")
    ctl.set_language("de")
    assert ctl.language == "en"
    assert ctl.panel.narration.text() == LESSONS[5].steps[0].text("en")
    ctl.set_language("ru_RU")
    assert ctl.language == "ru"
    assert ctl.menu.actions()[0].text() == f"&1  {LESSONS[0].title['ru']}"
    assert ctl.dock.windowTitle() == f"Lesson: {LESSONS[5].title['ru']}"


def test_spotlight_outlines_the_targets_and_dims_the_rest(win, qtbot):
    ctl = win.feature("lessons")
    ctl.start("launched-resident-ready", 3)  # the metrics panel
    wait_ready(qtbot, ctl)
    win.feature("overlay").freeze()
    qtbot.wait(50)
    image = win.grab().toImage().convertToFormat(image_format())
    px = array(image)
    (rect,) = win.feature("overlay").visible_target_rects()
    colour = QColor(oi.VERMILLION)
    ring = np.all(px[rect.top() - 2: rect.top() + 3, rect.left() + 40: rect.right() - 40]
                  == (colour.red(), colour.green(), colour.blue()), axis=-1)
    assert ring.mean() > 0.15, "an outline in the highlight colour along the top edge"
    # the scenario panel (not a target) is dimmed; the narration is not
    left = px[400, 20]
    assert left.mean() < 239 - 30
    narration = ctl.panel.narration
    pos = narration.mapTo(win, narration.rect().center())
    assert abs(int(px[pos.y(), 5].mean()) - QColor(win.palette().window().color()).red()) < 8


def image_format():
    from PySide6.QtGui import QImage

    return QImage.Format.Format_RGB888


def array(img) -> np.ndarray:
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=stride * h).reshape(h, stride)
    return buf[:, : 3 * w].reshape(h, w, 3).copy()


def test_a_taller_run_gets_a_taller_counts_plot(win, qtbot):
    """Lesson 1's last step launches 8,448 warps after 1,920: the counts plot must show them all
    (its old y limit used to clamp the new range)."""
    ctl = win.feature("lessons")
    lesson = ctl.find("launched-resident-ready")
    ctl.start(lesson, len(lesson.steps) - 1)
    wait_ready(qtbot, ctl)
    run = win.workspace.session.run
    top = win.explorer.counts.getPlotItem().viewRange()[1][1]
    assert top >= run.result.counts.max()
