"""A 720p lecture hall (issue 31 items 3-7): nothing clipped or hidden with the SASS view open, the verdict sentences
always on screen, the plots' right ends whole, every Speed-of-Light unit listed and every unit-use row named.

Each case is drawn as ``render`` draws it (``headless.render.draw``: the real window offscreen) and judged by the
layout check that ``render --check-layout`` runs, plus what the check cannot see by itself (a sentence the view
hid, a unit left out of the panel)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from explorer.gui.common.layout_check import LayoutChecker
from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.headless.render import draw, offscreen_window, present, settle, show_lesson_step
from explorer.model.presets import default_scenario
from explorer.model.units import UNITS

HD = (1280, 720)


@pytest.fixture(scope="module")
def run():
    return simulate_run(default_scenario())


@pytest.fixture
def english_after(qapp):
    yield
    from explorer.gui.shell.i18n import install_translators

    install_translators(qapp, "en")


def problems(window, size=HD) -> list[str]:
    return [str(p) for p in LayoutChecker(window, screen=QSize(*size)).run()]


def essentials_whole(window) -> list[str]:
    """The verdict sentences that are not whole on screen: hidden, or partly scrolled out of their column."""
    page = window.explorer
    bad = []
    for label in (page.metrics.whole.point, page.sol.now_line, page.sol.why):
        if not label.isVisible() or not label.text().strip():
            bad.append(f"{label.objectName()} hidden")
            continue
        viewport = page.metrics_scroll.viewport()
        top = label.mapTo(viewport, label.rect().topLeft()).y()
        if top < 0 or top + label.height() > viewport.height() + 1:
            bad.append(f"{label.objectName()} scrolled out of view")
    return bad


def units_listed(page) -> set[str]:
    """The units the Speed-of-Light panel shows: a bar each, or the compact line's names."""
    import re

    from explorer.gui.explore.sol_texts import short_labels

    labels = short_labels()
    shown = {u for u in UNITS if page.sol.bars[u].isVisible()}
    if page.sol.compact.isVisible():
        words = set(re.split(r"[\s,:·()<>/b]+", page.sol.compact.text().replace("&nbsp;", " ")))
        shown |= {u for u in UNITS if labels[u] in words}
    return shown


# -- item 3: the SASS view open at 1280x720 -------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sass_view_leaves_the_window_within_a_720p_screen(qapp, run, lang, english_after):
    """Its minimum width was the sum of its controls (342 px, 372 in Russian): the plots' column narrowed, its
    legends wrapped, and the window needed 755-785 px of height."""
    with offscreen_window(HD, "light", lang) as (app, window):
        window.workspace.show_run(run)
        window.feature("sass").set_shown(True)
        window.resize(*HD)
        settle(app, 6)
        assert window.minimumSizeHint().height() <= HD[1] and window.size().toTuple() == HD
        assert window.feature("sass").view.minimumSizeHint().width() < 200
        assert problems(window) == []


def test_lesson_5_step_5_in_russian_with_the_sass_view_fits_in_f5_and_after_esc(qapp, english_after):
    """The window grew to 1280x851 in F5 and stayed 1280x779 after Esc, narration and step buttons off-screen."""
    from explorer.model.lessons import get_lesson

    with offscreen_window(HD, "light", "ru") as (app, window):
        window.feature("sass").set_shown(True)
        window.resize(*HD)
        show_lesson_step(window, app, get_lesson("occupancy-vs-utilization"), 4, "ru")
        present(window, app, HD, 1.5)
        assert window.size().toTuple() == HD and problems(window) == []
        window.feature("presentation").set_presenting(False)
        settle(app, 6)
        window.resize(*HD)
        settle(app, 6)
        assert window.size().toTuple() == HD and window.minimumSizeHint().height() <= HD[1]
        assert problems(window) == []


# -- item 5: the verdict sentences always on screen ----------------------------------------------------------
@pytest.mark.parametrize("size", [(1600, 900), HD])
def test_the_verdict_sentences_are_whole_at_cycle_0_and_while_playing(qapp, run, size):
    """At 1600x900 the NVML sentence was left out at cycle 0 and vanished while playing ("right now" grew); at
    1280x720 both Speed-of-Light sentences went too."""
    with offscreen_window(size, "light", "en") as (app, window):
        page = window.explorer
        page.workspace.show_run(run)
        for cycle in (0, run.cycles // 3, run.cycles // 2, run.cycles - 1):  # playback grows "right now"
            page.workspace.session.set_cycle(cycle)
            settle(app, 4)
            assert essentials_whole(window) == [], cycle
            assert problems(window, size) == [], cycle
        assert "utilized" in page.metrics.whole.point.text()


def test_the_verdict_sentences_stay_with_the_lesson_panel_and_the_sass_view_open(qapp, english_after):
    """The tightest column: 1280x720 in Russian, the lesson panel's three lines and the SASS view: the meters
    scroll, the sentences stay on screen."""
    drawn_checked = draw(HD, lang="ru", lesson=_lesson("occupancy-vs-utilization"), index=4, check=True, sass=True)
    assert [str(p) for p in drawn_checked.problems] == []
    with offscreen_window(HD, "light", "ru") as (app, window):
        window.feature("sass").set_shown(True)
        window.resize(*HD)
        show_lesson_step(window, app, _lesson("occupancy-vs-utilization"), 4, "ru")
        settle(app, 6)
        assert essentials_whole(window) == []


def _lesson(name):
    from explorer.model.lessons import get_lesson

    return get_lesson(name)


def test_a_hidden_verdict_sentence_is_a_layout_problem(qapp, run):
    """``render --check-layout`` said "all texts fit" while these sentences were left out."""
    with offscreen_window(HD, "light", "en") as (app, window):
        window.workspace.show_run(run)
        settle(app, 4)
        point = window.explorer.metrics.whole.point
        point.hide()  # what the old column did to make room
        found = problems(window)
        assert any(p.startswith("dropped") and "utilized" in p for p in found), found


# -- item 6: the plots' right ends ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_narrow_plot_column_keeps_its_right_axis_and_the_runs_last_cycles(qapp, run, lang, english_after):
    """A hidden title kept the size hints of its last text: the plot item stayed wider than its widget and ran
    past its right edge ("10000" read "1000", the ready axis cut off) with the SASS view beside the plots."""
    with offscreen_window(HD, "light", lang) as (app, window):
        page = window.explorer
        page.workspace.show_run(run)
        window.feature("sass").set_shown(True)
        window.resize(*HD)
        settle(app, 6)
        total = sum(page.lower.sizes())
        for width in (360, 300, 260):
            page.lower.setSizes([width, total - width])
            settle(app, 6)
            for plot in (page.timeline, page.counts):
                assert plot.getPlotItem().geometry().width() <= plot.width() + 1, (width, plot.objectName())
            assert [p for p in problems(window) if "axis" in p] == [], width


# -- item 7: every unit listed, every strip row named ----------------------------------------------------------
@pytest.mark.parametrize("size", [(1920, 1080), (1600, 900), HD])
def test_the_speed_of_light_panel_lists_every_unit(qapp, run, size):
    """It folded to 2-4 of its 10 units (lesson 9 step 5: L2 and DRAM only, also after Esc and in exports)."""
    with offscreen_window(size, "light", "en") as (app, window):
        window.workspace.show_run(run)
        settle(app, 6)
        assert units_listed(window.explorer) == set(UNITS)


def test_lesson_9_step_5_lists_every_unit_and_after_esc_too(qapp):
    lesson = _lesson("what-limits-useful-work")
    with offscreen_window((1920, 1080), "light", "en") as (app, window):
        show_lesson_step(window, app, lesson, len(lesson.steps) - 1, "en")
        page = window.explorer
        assert units_listed(page) == set(UNITS)
        present(window, app, (1920, 1080), 1.5)
        assert units_listed(page) == set(UNITS)
        window.feature("presentation").set_presenting(False)
        settle(app, 6)
        assert units_listed(page) == set(UNITS)


def test_every_unit_strip_row_is_named(qapp, run):
    """Only every other row was named where rows were short: the busiest (DRAM) had none."""
    with offscreen_window((1600, 900), "light", "en") as (app, window):
        page = window.explorer
        page.workspace.show_run(run)
        settle(app, 6)
        strip = page.unit_strip
        assert not strip.folded
        ticks = strip.getPlotItem().getAxis("left")._tickLevels[0]
        assert [name for _pos, name in ticks] == [strip_names()[u] for u in strip.rows]


def strip_names():
    from explorer.gui.explore.sol_texts import short_labels

    return short_labels()


def test_render_checks_the_window_with_the_sass_view_open(capsys, qapp, english_after):
    """``render --sass --check-layout``: the preflight for the SASS view's layout (it could not be asked for)."""
    from explorer.cli.main import main

    code = main(["--lang", "ru", "render", "example-240x256", "--sass", "--size", "1280x720", "--check-layout"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.strip().endswith("(1280x720, normal mode, ru, explorer tab, SASS view)")
