"""The window on an 800x600 screen (issue 14: an old projector, a small netbook): it is never wider than
800 px, in English and Russian, and the metrics column shows its texts whole at that width.

The Russian metrics column once needed 326 px (the Speed-of-Light panel's title and its "Разделяемая
память" row), which made the window 866 px wide: its right side was off an 800 px screen. The unit names
now wrap onto two lines and the title is shorter, so the column fits its 260 px. A stream of launches (lesson
5) made it wider still (1,120 px in Russian): the stream strip's four readings stood in one line; they now
stand two a line, or one under the other, where the column is narrow (``common.reflow_grid``)."""

from __future__ import annotations

import pytest

from explorer.gui.common.layout_check import LayoutChecker
from explorer.gui.workspace.run_data import simulate_run
from explorer.model.lessons import get_lesson
from explorer.model.presets import default_scenario

from tests.gui.support import explorer_run_at

SIZE = (800, 600)


def stream_scenario():
    lesson = get_lesson("occupancy-vs-utilization")
    index = next(i for i, step in enumerate(lesson.steps) if "stream" in step.highlight)
    return lesson.scenario_at(index)


@pytest.fixture(scope="module", params=["single", "stream"])
def run(request):
    return simulate_run(default_scenario() if request.param == "single" else stream_scenario())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_window_is_no_wider_than_an_800_px_screen(qapp, run, lang):
    with explorer_run_at(qapp, SIZE, lang, run) as (_app, window):
        page = window.explorer
        assert window.minimumSizeHint().width() <= SIZE[0]
        assert window.width() == SIZE[0], "the window grew past the screen's width to its minimum"
        # the columns at their narrowest: every text whole (a unit name wraps, a number never shortens)
        columns = [page.metrics_scroll, page.panel_scroll, page.stream_strip]
        assert page.stream_strip.isVisible() == (run.result.scenario.stream.kernels > 1)
        assert [str(p) for p in LayoutChecker(window, roots=columns, screen=None).run()] == []
        for unit, name in page.sol.names.items():
            if name.isVisible():
                assert name.height() >= name.heightForWidth(name.width()), unit
