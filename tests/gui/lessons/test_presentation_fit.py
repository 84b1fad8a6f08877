"""Presentation mode never clips (issue 14, items 4-6): the layout check over every lesson step at
1280x720 and 1920x1080 in English and Russian, the Explorer at every presentation scale, and every tab.

One window per language serves the whole module (building a window costs more than a check), and each
lesson step's simulation is computed once for both languages and sizes.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel

from explorer.gui.common.layout_check import LayoutChecker, report, settle_layouts
from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.headless.render import TABS, offscreen_window, present, settle, show_lesson_step
from explorer.gui.lessons.panel import NARRATION_SCALE
from explorer.gui.lessons.presentation import DEFAULT_SCALE, SCALES
from explorer.gui.shell.i18n import install_translators
from explorer.model.lessons import get_lesson, load_lessons

# The order-dependent cases (axes' text room, axis titles' places, the layout of a scale reached by a fallback,
# the narration's dock after leaving, a tab first shown while presenting) are fixed; the module's sequence is
# their regression test, and test_presentation_order pins each cause it could in one short sequence. The last:
# the GEMM tab, built at F5 but never shown, had [0, 0, 0] splitter sizes that Esc put back, so after the first
# test its columns sat at their minimum widths and, in Russian, lesson 8's GEMM step scrolled over the
# roofline's bottom title (presentation.set_presenting: pages not laid out are left out and laid out anew).

SIZES = ((1280, 720), (1920, 1080))
_runs: dict = {}  # scenario -> SimRun, shared by every check


def run_of(lesson, index: int):
    scenario = lesson.scenario_at(index)
    if scenario not in _runs:
        _runs[scenario] = simulate_run(scenario)
    return _runs[scenario]


@pytest.fixture(scope="module", params=["en", "ru"])
def lang_window(request, qapp):
    lang = request.param
    with offscreen_window(SIZES[0], "light", lang) as (app, window):
        yield lang, app, window
        window.feature("presentation").set_presenting(False)
    install_translators(qapp, "en")  # the rest of the session is in English


def step(window, app, lang: str, name: str, index: int) -> None:
    lesson = get_lesson(name)
    show_lesson_step(window, app, lesson, index, lang, run=run_of(lesson, index))
    settle(app, 2)


def problems(window, size) -> list:
    settle_layouts(window)
    checker = LayoutChecker(window, screen=QSize(*size))
    found = checker.run()
    return [f"{p}" for p in found]


def normal_mode(window, app, size) -> None:
    presentation = window.feature("presentation")
    presentation.set_presenting(False)
    presentation.target_size = None
    for _ in range(2):  # once more after the fonts are back: a larger minimum may have held the first one
        window.resize(*size)
        settle(app, 4)


@pytest.mark.slow  # every step of every lesson: ~35 s a case
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_lesson_step_fits_in_presentation_mode(lang_window, size):
    """F5 at the default scale on a projector's screen, then every step of every lesson, as a lecturer
    pages through them: nothing clipped or overlapped; on 1920x1080 the default 150% is what shows."""
    lang, app, window = lang_window
    normal_mode(window, app, size)
    step(window, app, lang, "launched-resident-ready", 0)
    present(window, app, size, DEFAULT_SCALE)
    presentation = window.feature("presentation")
    failures, shown = [], set()
    for lesson in load_lessons():
        for index in range(len(lesson.steps)):
            step(window, app, lang, lesson.name, index)
            found = problems(window, size)
            shown.add(presentation.shown_scale)
            if found:
                failures.append(f"{lesson.name} step {index + 1} at {presentation.shown_scale:.0%}:\n  " +
                                "\n  ".join(found))
    assert not failures, "\n".join(failures)
    if size == (1920, 1080):
        assert shown == {DEFAULT_SCALE}
    else:
        assert min(shown) >= 1.0 and max(shown) == DEFAULT_SCALE  # the Explorer's steps at 150% on 720p


# 720p makes way at every scale (the metrics' details, the narration): 40-75 s a language on this project's 2-core
# machine under load, over the main set's 60 s guard (a fresh-clone .ci/run of 2026-12-06): with the slow set
@pytest.mark.parametrize("size", [pytest.param(s, marks=pytest.mark.slow(expect_s=90)) if s == (1280, 720) else s
                                  for s in SIZES], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_explorer_at_every_scale(lang_window, size):
    """100-250% with the narration open: nothing clipped; the scale shown is the one asked up to 200% on
    1920x1080 and 125% on 1280x720; the SM grid's labels, the legends, the plot axes and the narration grow
    with the scale shown."""
    lang, app, window = lang_window
    normal_mode(window, app, size)
    step(window, app, lang, "launched-resident-ready", 3)  # the metrics step
    page = window.explorer
    base = {
        "grid": page.grid._title_font.pointSizeF(),
        "legend": page.legend.labels[5].font().pointSizeF(),
        "tick": (window.font().pointSizeF()),
    }
    panel = window.feature("lessons").panel
    presentation = window.feature("presentation")
    for scale in SCALES:
        shown = present(window, app, size, scale)
        found = problems(window, size)
        assert not found, f"{scale:.0%} asked, {shown:.0%} shown:\n" + "\n".join(found)
        # with the narration open: full HD shows up to 200% as asked, a 720p projector 125%
        assert shown >= min(scale, 2.0 if size == (1920, 1080) else 1.25)
        assert page.grid._title_font.pointSizeF() == pytest.approx(base["grid"] * shown)
        assert page.legend.labels[5].font().pointSizeF() == pytest.approx(base["legend"] * shown)
        tick = page.counts.getPlotItem().getAxis("bottom").style["tickFont"]
        assert shown == 1.0 or tick.pointSizeF() == pytest.approx(base["tick"] * shown)
        narration = panel.narration.font().pointSizeF()  # as large as its panel allows, never below the text's
        assert panel._base_pt * shown - 1e-6 <= narration <= panel._base_pt * NARRATION_SCALE * shown + 1e-6
        # no scroll bar on the metrics: what does not fit makes way, the rest is whole
        assert not page.metrics_scroll.verticalScrollBar().isVisible()
        for label in page.legend.labels.values():  # every legend entry whole ("memory wait", not "memory wai")
            assert label.width() >= QFontMetrics(label.font()).horizontalAdvance(label.text())
    presentation.set_presenting(False)


@pytest.mark.slow  # every scale twice over: ~20 s a language
def test_a_scale_that_does_not_fit_falls_back_to_the_largest_that_does(lang_window):
    """The fallback from a scale that clips shows the largest smaller one that fits when asked alone (from
    the plain 100% layout): Russian at 1280x720 with the narration open asked 175% and got 100% while 125%
    fitted (the panes a larger scale shared, and the events it queued, decided the smaller one)."""
    lang, app, window = lang_window
    size = (1280, 720)
    normal_mode(window, app, size)
    step(window, app, lang, "launched-resident-ready", 3)  # the metrics step
    presentation = window.feature("presentation")
    fits = []
    for scale in SCALES:  # each asked alone, from 100%
        present(window, app, size, 1.0)
        if present(window, app, size, scale) == scale and not problems(window, size):
            fits.append(scale)
    assert 1.0 in fits
    for scale in sorted(SCALES, reverse=True):  # each asked after a larger one
        shown = present(window, app, size, scale)
        assert shown == max(s for s in fits if s <= scale), f"{scale:.0%} asked, {shown:.0%} shown, fits {fits}"
        assert not problems(window, size)
    presentation.set_presenting(False)


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_every_tab_at_1280x720(lang_window, presenting):
    lang, app, window = lang_window
    size = (1280, 720)
    normal_mode(window, app, size)
    lessons = window.feature("lessons")
    lessons.stop()
    lessons.dock.hide()
    if presenting:
        present(window, app, size, DEFAULT_SCALE)
    failures = []
    for tab in TABS:
        window.show_view(tab)
        settle(app, 6)
        if presenting:
            window.feature("presentation")._step_shown()
        found = problems(window, size)
        if found:
            failures.append(f"{tab}:\n  " + "\n  ".join(found))
    window.show_view("explorer")
    assert not failures, "\n".join(failures)


def test_lesson_panel_at_1600x900_keeps_the_breakdown_and_right_now_whole(lang_window):
    """Item 6: with the lesson panel open, the warp-state breakdown the narration cites ("barrier about a
    quarter") is on screen and the "Right now" sentences are not cut at the top and bottom."""
    lang, app, window = lang_window
    size = (1600, 900)
    normal_mode(window, app, size)
    step(window, app, lang, "scheduler-picks-ready-warps", 3)
    window.feature("lessons").fit_dock()
    settle(app, 4)
    metrics, viewport = window.explorer.metrics, window.explorer.metrics_scroll.viewport()
    for widget in (metrics.whole.bar, metrics.whole.bar_text, metrics.now.why, metrics.now.residency):
        assert widget.isVisible()
        top = widget.mapTo(viewport, widget.rect().topLeft()).y()
        assert 0 <= top and top + widget.height() <= viewport.height(), widget.objectName()
    for label in (metrics.now.why, metrics.now.residency):
        assert label.height() >= QLabel.heightForWidth(label, label.width())
    found = LayoutChecker(window, roots=[window.explorer, window.feature("lessons").dock]).run()
    assert not found, report(found, 0, "1600x900")


@pytest.mark.parametrize("name, index", [("launched-resident-ready", 3), ("memory-hierarchy", 4),
                                         ("tensor-cores", 3)],
                         ids=["explorer-metrics", "memory-attention", "gemm-tab"])
def test_narration_is_whole_at_1280x720_in_normal_mode(lang_window, name, index):
    """Not presenting, on a 1280x720 window: the narration gets the height it needs or is set smaller (never
    below the window's text size), never cut. Lesson 1 step 4 in Russian was cut after one and a half lines
    (its 40% cap ignored that the Explorer's views need 540 px); the steps on the Memory and GEMM tabs had the
    Explorer's minimum height taken from them though the Explorer was not in front."""
    lang, app, window = lang_window
    size = (1280, 720)
    normal_mode(window, app, size)
    step(window, app, lang, name, index)
    lessons = window.feature("lessons")
    panel = lessons.panel
    found = problems(window, size)
    assert not found, "\n".join(found)
    text = panel.narration
    assert text.height() >= text.heightForWidth(text.width())
    assert text.font().pointSizeF() >= panel._base_pt - 1e-6
    # the pages behind the tab in front do not hold the tab area's minimum, with the panel or without it
    # (shell.front_tabs: one rule for the whole window, tests/gui/shell/test_front_tabs.py)
    explorer_min = window.explorer.minimumSizeHint().height()
    for shown in (True, False):
        lessons.dock.setVisible(shown)
        settle(app, 4)
        if window.tabs.currentWidget() is not window.explorer:
            assert window.tabs.minimumSizeHint().height() < explorer_min
        else:
            assert window.tabs.minimumSizeHint().height() >= explorer_min
    lessons.dock.show()
    settle(app, 4)
