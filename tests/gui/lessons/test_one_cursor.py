"""One cursor for every view: after a lesson step the timeline, the unit-use strip and the counts plot
draw the playback cursor at the same cycle and the same screen column (issue 31 item 8).

Before: after a lesson step the unit strip's cursor sat at ~7,700 cycles while the timeline and the
counts plot were at ~5,630.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF

from tests.gui.support import RUN_TIMEOUT


def screen_x(plot, value: float) -> float:
    """Where ``value`` on the plot's x axis lies on the screen."""
    vb = plot.getPlotItem().getViewBox()
    scene = vb.mapViewToScene(QPointF(value, 0.0))
    return plot.mapToGlobal(plot.mapFromScene(scene)).x()


def cursors(page) -> dict[str, tuple[float, float]]:
    out = {}
    for name in ("timeline", "unit_strip", "counts"):
        plot = getattr(page, name)
        if plot.isVisible():
            value = plot.cursor.value()
            out[name] = (value, screen_x(plot, value))
    return out


@pytest.mark.parametrize("lesson, step", [("what-limits-useful-work", 1), ("what-limits-useful-work", 3),
                                          ("latency-hiding", 2)])
def test_every_view_shows_the_cursor_at_the_same_cycle(win, qtbot, lesson, step):
    page, ctl = win.explorer, win.feature("lessons")
    ctl.start(lesson, step)
    qtbot.waitUntil(lambda: ctl.ready, timeout=RUN_TIMEOUT)
    qtbot.wait(50)
    seen = cursors(page)
    assert "unit_strip" in seen and "timeline" in seen and "counts" in seen
    cycle = page.workspace.session.cycle + 0.5
    for name, (value, x) in seen.items():
        assert value == pytest.approx(cycle), name
    xs = [x for _v, x in seen.values()]
    assert max(xs) - min(xs) <= 2, seen
