"""Lesson 5's stream steps in normal mode on a 1280x720 screen (issue 14, item 4): the Explorer with its
stream strip once needed about 772 px of height in Russian, so the window outgrew the screen and the lesson
panel's narration was cut to one line. The strip is one line shorter now (the view's ends beside its bar) and
the plots under it a little shorter, so the narration gets its lines, in English and Russian."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel

from explorer.gui.common.layout_check import LayoutChecker, settle_layouts
from explorer.gui.headless.render import offscreen_window, settle, show_lesson_step
from explorer.gui.shell.i18n import install_translators
from explorer.model.lessons import get_lesson

SIZE = (1280, 720)
LESSON = "occupancy-vs-utilization"


def stream_steps() -> list[int]:
    return [i for i, step in enumerate(get_lesson(LESSON).steps) if "stream" in step.highlight]


def test_the_lesson_has_stream_steps():
    assert len(stream_steps()) >= 2


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_stream_steps_fit_1280x720_with_their_narration(qapp, lang):
    lesson = get_lesson(LESSON)
    try:
        with offscreen_window(SIZE, "light", lang) as (app, window):
            failures = []
            for index in stream_steps():
                show_lesson_step(window, app, lesson, index, lang)
                settle(app, 4)
                settle_layouts(window)
                page, panel = window.explorer, window.feature("lessons").panel
                assert page.stream_strip.isVisible()
                assert window.size().toTuple() == SIZE, "the window grew past the screen to its minimum"
                narration = panel.narration
                assert narration.height() >= QLabel.heightForWidth(narration, narration.width()), index
                found = [str(p) for p in LayoutChecker(window, screen=QSize(*SIZE)).run()]
                if found:
                    failures.append(f"step {index + 1}:\n  " + "\n  ".join(found))
            assert not failures, "\n".join(failures)
    finally:
        install_translators(qapp, "en")  # the rest of the session is in English
