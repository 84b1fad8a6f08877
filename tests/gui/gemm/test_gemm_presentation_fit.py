"""The GEMM tab in presentation mode on a projector (issue 14 items 4, 5): lesson 8's pipeline step at
1280x720 and 150% shows the diagram's top without scrolling the page (which cut the roofline's numbers and
the inputs at the top), the GEMM tab's texts all fit there, and the tiles come back with the lesson's end."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSize

from explorer.gui.common.layout_check import LayoutChecker, settle_layouts
from explorer.gui.headless.render import offscreen_window, present, settle, show_lesson_step
from explorer.gui.shell.i18n import install_translators
from explorer.model.lessons import get_lesson

SIZE = (1280, 720)


@pytest.fixture(scope="module", params=["en", "ru"])
def lang_window(request, qapp):
    with offscreen_window(SIZE, "light", request.param) as (app, window):
        yield request.param, app, window
        window.feature("presentation").set_presenting(False)
    install_translators(qapp, "en")


def gemm_problems(window) -> list[str]:
    settle_layouts(window)
    page = window.views["gemm"]
    return [str(p) for p in LayoutChecker(window, roots=[page], screen=QSize(*SIZE)).run()]


def test_the_pipeline_step_shows_the_diagram_without_cutting_the_other_columns(lang_window):
    lang, app, window = lang_window
    lesson = get_lesson("tensor-cores")
    index = next(i for i, s in enumerate(lesson.steps) if "pipeline" in s.highlight)
    page = window.views["gemm"]
    saved = page.view_state()  # what the lesson controller keeps to give back when the lesson ends
    show_lesson_step(window, app, lesson, index, lang)
    present(window, app, SIZE, 1.5)
    settle(app, 4)
    assert window.tabs.currentWidget() is page
    assert page.page_scroll.verticalScrollBar().value() == 0  # the page is not scrolled down to the diagram
    assert gemm_problems(window) == []
    # the diagram's top (its first box) is inside its pane
    viewport = page.below_scroll.viewport()
    top = page.pipeline.diagram.mapTo(viewport, QPoint(0, 0)).y()
    assert 0 <= top < viewport.height() // 2
    # the lesson ends (the controller gives the page's view state back): the tiles are back
    window.feature("lessons").stop()
    page.restore_view_state(saved)
    settle(app, 4)
    assert not page.center_top.isHidden() and page.tiles.isVisibleTo(page)
    # as they are after the step with the next GEMM
    show_lesson_step(window, app, lesson, index, lang)
    settle(app, 4)
    assert page.center_top.isHidden()
    page.inputs.fields["k"].set_text("2048")
    assert not page.center_top.isHidden()


# the largest scales take 11-23 s a language (a fresh-clone run of 2026-12-07): with the slow set (tests/suite_timing.py)
@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5] + [pytest.param(s, marks=pytest.mark.slow(expect_s=40)) for s in (2.0, 2.5)])
def test_the_gemm_tab_fits_at_every_scale(lang_window, scale):
    lang, app, window = lang_window
    lessons = window.feature("lessons")
    lessons.stop()
    lessons.dock.hide()
    window.show_view("gemm")
    settle(app, 4)
    present(window, app, SIZE, scale)
    window.feature("presentation")._step_shown()
    assert gemm_problems(window) == []
