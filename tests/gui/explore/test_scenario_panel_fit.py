"""The scenario column at 1280x720 (issue 14, item 14): every field's value on screen without a sideways
scroll, in English and Russian (whose labels are longer), and the SM grid keeps its SM numbers; dragged
narrower (down to its 220 px minimum), the panel puts its labels above their fields instead of scrolling.

The window starts at 1280x720 as on a projector: sized before it is shown, so the first layout is the one
a user sees (the layout check accepts a value a sideways scroll bar reaches; a user does not)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint

from explorer.gui.common.layout_check import LayoutChecker
from explorer.gui.headless.render import offscreen_window, settle
from explorer.gui.shell.i18n import install_translators


@pytest.fixture(params=["en", "ru"])
def page_at_1280(request, qapp):
    with offscreen_window((1280, 720), "light", request.param) as (app, window):
        settle(app, 6)
        yield app, window.explorer
    install_translators(qapp, "en")  # the rest of the session is in English


def test_every_field_of_the_scenario_panel_is_on_screen_without_a_sideways_scroll(page_at_1280):
    _app, page = page_at_1280
    area = page.panel_scroll
    assert area.horizontalScrollBar().maximum() == 0, "the panel scrolls sideways"
    view = area.viewport()
    panel = page.panel
    for widget in [*panel.fields.values(), panel.gpu, panel.workload, panel.policy, *panel._labels.values()]:
        if not widget.isVisibleTo(panel):  # the stream section's rows while it is folded
            continue
        left = widget.mapTo(view, QPoint(0, 0)).x()
        assert left >= 0 and left + widget.width() <= view.width(), widget.objectName() or widget.text()
        if widget in panel.fields.values():  # room for its value: a field as wide as a short number is not
            assert widget.width() >= widget.fontMetrics().horizontalAdvance("1, 1, 1") + 16, widget.objectName()


def test_the_sm_grid_keeps_its_numbers_beside_the_wider_column(page_at_1280):
    _app, page = page_at_1280
    assert page.grid.dropped_texts() == []
    # the first sizes were laid out for the window's width, not for the wider page before its layout ran
    assert sum(page.splitter.sizes()) <= page.window().width()
    assert page.metrics_scroll.width() <= max(page.metrics_scroll.minimumWidth(), page.window().width() * 0.22 + 1)


def _panel_fits(page) -> list[str]:
    """What of the scenario column a user cannot see whole without a sideways scroll (empty: all of it)."""
    area = page.panel_scroll
    view = area.viewport()
    panel = page.panel
    out = [f"scrolls sideways by {area.horizontalScrollBar().maximum()} px"] if area.horizontalScrollBar().maximum() else []
    for widget in [*panel.fields.values(), panel.preset, panel.gpu, panel.workload, panel.policy, panel.graph,
                   panel.stream_toggle, *panel._labels.values()]:
        if not widget.isVisibleTo(panel):  # the stream section's rows while it is folded
            continue
        left = widget.mapTo(view, QPoint(0, 0)).x()
        name = widget.objectName() or widget.text()
        if left < 0 or left + widget.width() > view.width():
            out.append(f"{name} spans {left}..{left + widget.width()} of a {view.width()} px viewport")
        if widget in panel.fields.values() and widget.width() < widget.fontMetrics().horizontalAdvance("1, 1, 1") + 16:
            out.append(f"{name} is {widget.width()} px, too narrow for '1, 1, 1'")
    out += [str(p) for p in LayoutChecker(page.window(), roots=[area]).run()]
    return out


def _drag_column_to(app, page, width: int) -> None:
    sizes = page.splitter.sizes()
    page.splitter.setSizes([width, sum(sizes) - width - sizes[2], sizes[2]])
    settle(app, 6)


@pytest.mark.parametrize("width", [220, 250, 280, 310, 340, 380])
def test_the_column_dragged_narrow_reflows_instead_of_scrolling_sideways(page_at_1280, width):
    """From the column's 220 px minimum up, the labels stand above their fields where they no longer fit
    beside them (Russian: below about 337 px): no sideways scroll, nothing cut."""
    app, page = page_at_1280
    _drag_column_to(app, page, width)
    assert page.splitter.sizes()[0] == width
    assert _panel_fits(page) == []


def test_the_column_reflows_both_ways_and_cannot_be_dragged_below_its_minimum(page_at_1280):
    app, page = page_at_1280
    first = page.splitter.sizes()[0]
    panel = page.panel
    label, field = panel._labels["regs"], panel.fields["regs"]
    assert label.geometry().center().y() > field.geometry().top(), "at first the labels stand beside their fields"
    _drag_column_to(app, page, 100)
    assert page.splitter.sizes()[0] == page.panel_scroll.minimumWidth() == 220
    assert label.geometry().bottom() <= field.geometry().top(), "narrow, each label stands above its field"
    assert _panel_fits(page) == []
    _drag_column_to(app, page, first)
    assert label.geometry().center().y() > field.geometry().top(), "wide again, beside them again"
    assert _panel_fits(page) == []


@pytest.mark.parametrize("width", [None, 220, 300])
def test_the_stream_section_opened_fits_the_column(page_at_1280, width):
    """The "Stream of launches" section (issue 31 item 15), folded at first for a single launch; opened, its
    rows fit the column beside or under their labels, the column scrolls to it, and the window stays 1280x720."""
    app, page = page_at_1280
    panel = page.panel
    assert not panel.stream_open and not panel.fields["kernels"].isVisibleTo(panel)
    if width is not None:
        _drag_column_to(app, page, width)
    panel.stream_toggle.click()
    settle(app, 6)
    assert panel.stream_open and panel.fields["kernels"].isVisibleTo(panel) and panel.graph.isVisibleTo(panel)
    assert page.window().size().toTuple() == (1280, 720)
    assert _panel_fits(page) == []
    view = page.panel_scroll.viewport()
    top = panel.stream_toggle.mapTo(view, QPoint(0, 0)).y()
    assert 0 <= top and top + panel.stream_toggle.height() <= view.height(), "the opened section is scrolled to"
