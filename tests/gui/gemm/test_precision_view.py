"""The GEMM tab's Precision view through its real widgets: the curves are the core's numbers, the legend says
them in words, the inputs choice recomputes, the theme colours it, lessons bring it to the front, and it fits
1280x720, 1600x900 and 1920x1080 in English and Russian."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QSize

from explorer.gemm.precision import CURVES, precision_study
from explorer.gui.common.layout_check import LayoutChecker, settle_layouts
from explorer.gui.common.theme import DARK
from explorer.gui.gemm.precision_view import percent_text
from explorer.gui.headless.render import offscreen_window, settle, show_lesson_step
from explorer.gui.shell.i18n import install_translators
from explorer.model.lessons import get_lesson
from tests.gui.support import show_page

LESSON = "precision-and-misread-metrics"


@pytest.fixture
def page(window, qtbot):
    return show_page(window, qtbot, "gemm")


def show_precision(page, qtbot):
    page.lower_right.setCurrentWidget(page.precision)
    qtbot.waitUntil(lambda: page.precision.study is not None, timeout=5000)
    return page.precision


def test_computed_when_first_shown_and_the_curves_are_the_cores(page, qtbot):
    assert page.lower_right.currentIndex() == 0  # the time split first: the precision view costs nothing until seen
    assert page.precision.study is None
    view = show_precision(page, qtbot)
    study = precision_study()
    assert view.study == study
    assert list(view.plot.lines) == list(CURVES)
    for c in study.curves:
        x, y = view.plot.lines[(c.inputs, c.accumulator)].getOriginalDataset()
        assert list(x) == list(study.ks)
        assert np.allclose(y, 100 * np.array(c.relative_error))
    legend = view.legend.text().replace("&nbsp;", " ")
    for label, key in (("BF16", ("bf16", "fp32")), ("FP8 E4M3", ("fp8_e4m3", "fp32")),
                       ("FP16, FP16 sum", ("fp16", "fp16"))):
        c = study.curve(*key)
        assert f"{label}: {percent_text(c.relative_error[-1])}%" in legend
    assert "16,384" in view.caption.text() and "80×" in view.caption.text()
    assert "DeepSeek-V3" in view.note.text() and "not modelled" in view.note.text()
    assert view.plot.toolTip() and view.inputs.toolTip() and view.legend.toolTip()


def test_the_inputs_choice_recomputes(page, qtbot):
    view = show_precision(page, qtbot)
    view.inputs.setCurrentIndex(view.inputs.findData("uniform"))
    assert view.study.distribution == "uniform"
    swamped = precision_study(distribution="uniform").curve("fp16", "fp16").relative_error[-1]
    assert "FP16, FP16 sum: 50%" in view.legend.text().replace("&nbsp;", " ") and percent_text(swamped) == "50"
    _x, y = view.plot.lines[("fp16", "fp16")].getOriginalDataset()
    assert y[-1] == pytest.approx(100 * swamped)
    assert page.capture_state()["precision_inputs"] == "uniform"


def test_percent_text():
    assert [percent_text(v) for v in (0.0021, 0.0000021, 0.035, 0.5, 0.02)] == ["0.21", "0.00021", "3.5", "50", "2.0"]


def test_the_dark_theme(page, qtbot, window):
    view = show_precision(page, qtbot)
    window.theme_actions["dark"].trigger()
    assert view.plot.backgroundBrush().color().name().upper() == DARK.plot_background.upper()
    pen = view.plot.lines[("fp32", "fp32")].opts["pen"]
    assert pen.color().name().lower() == DARK.plot_foreground.lower()
    assert DARK.plot_foreground.lower() in view.legend.text().lower()


def test_a_lesson_step_brings_the_view_to_the_front(window, qtbot):
    window.resize(1600, 900)
    lessons = window.feature("lessons")
    lessons.set_language("en")
    page = window.views["gemm"]
    lessons.start(get_lesson(LESSON), 2)  # the all-positive inputs
    qtbot.waitUntil(lambda: page.precision.study is not None, timeout=10000)
    assert page.lower_right.currentWidget() is page.precision and page.precision.distribution == "uniform"
    assert window.lesson_targets["precision"] is page.precision
    lessons.start(get_lesson("tensor-cores"), 3)  # a GEMM step about the roofline: the time split again
    qtbot.waitUntil(lambda: page.lower_right.currentIndex() == 0, timeout=5000)
    assert page.precision.distribution == "normal"
    lessons.stop()


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_precision_steps_fit(qapp, size, lang):
    lesson = get_lesson(LESSON)
    try:
        with offscreen_window(size, "light", lang) as (app, window):
            page = window.views["gemm"]
            for index in (0, 2):
                show_lesson_step(window, app, lesson, index, lang)
                settle(app, 4)
                assert page.lower_right.currentWidget() is page.precision
                assert page.precision.plot.height() >= 120, (size, lang, page.precision.plot.height())
                settle_layouts(window)
                problems = [str(p) for p in LayoutChecker(window, roots=[page], screen=QSize(*size)).run()]
                assert problems == [], problems
    finally:
        install_translators(qapp, "en")
