"""The roofline behind another tab: resizes and theme changes do not redraw it until it is shown (the window's
start once placed its labels three times for a tab nobody had opened), and shown it is drawn for its real size,
the same as one that was on screen all along."""

from __future__ import annotations

from explorer.gui.gemm.charts import RooflinePlot
from tests.gui.support import show_page


def _count_draws(plot: RooflinePlot, monkeypatch) -> list:
    calls = []
    draw = plot.show_plan

    def counted(plan, roof):
        calls.append(plot.isVisible())
        draw(plan, roof)

    monkeypatch.setattr(plot, "show_plan", counted)
    return calls


def test_a_hidden_roofline_is_not_redrawn_on_resizes_or_themes_but_on_show(window, qtbot, monkeypatch):
    window.resize(1600, 900)
    page = window.views["gemm"]
    assert not page.roofline.isVisible()  # the Explorer tab is in front
    calls = _count_draws(page.roofline, monkeypatch)
    window.resize(1280, 720)
    qtbot.wait(50)
    window.theme_actions["dark"].trigger()
    window.theme_actions["light"].trigger()
    assert calls == []  # nothing drawn for a plot nobody sees
    show_page(window, qtbot, "gemm")
    qtbot.wait(50)
    assert calls and all(calls)  # drawn once it is on screen, and only then
    plot = page.roofline
    assert plot._placed_for == plot.getPlotItem().getViewBox().size()  # for the size it is shown at


def test_the_labels_of_a_roofline_first_shown_late_match_one_shown_all_along(window, qtbot):
    late = show_page(window, qtbot, "gemm").roofline  # built hidden, resized hidden, then shown
    qtbot.wait(50)
    labels, legend = dict(late.roof_labels), list(late.legend_entries)
    late.show_plan(late.plan, late.roofline)  # drawn again now that it is on screen at its final size
    assert late.roof_labels == labels and late.legend_entries == legend
    assert late.point_xy and late.slopes_drawn
