"""The Memory tab presented on a 1280x720 projector (issue 14 items 4, 14): no pane scrolls sideways — the
hierarchy's table puts the scope under the level's name, then stacks each level's measures; the attention
table puts its rows' names above their values, then one value a line; the coalescing bars' texts go under
their bars and the strides' names above them; the panes' titles and the attention inputs wrap — and every
text there fits, in English and Russian. (The layout check accepts a text a sideways scroll bar reaches; a
lecturer cannot scroll sideways in front of a hall.)"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel, QWidget

from explorer.gui.common.layout_check import LayoutChecker, settle_layouts
from explorer.gui.common.widgets import ColumnScroll
from explorer.gui.headless.render import offscreen_window, present, settle
from explorer.gui.lessons.presentation import SCALES
from explorer.gui.shell.i18n import install_translators

SIZE = (1280, 720)


@pytest.fixture(scope="module", params=["en", "ru"])
def lang_window(request, qapp):
    with offscreen_window(SIZE, "light", request.param) as (app, window):
        window.show_view("memory")
        settle(app, 4)
        yield request.param, app, window
        window.feature("presentation").set_presenting(False)
    install_translators(qapp, "en")


def bottom_panes(page) -> list[ColumnScroll]:
    return [page.bottom.widget(i) for i in range(page.bottom.count())]


def memory_panes(page) -> list[ColumnScroll]:
    """The hierarchy's pane and the bottom ones (coalescing; attention)."""
    return [page.splitter.widget(0), *bottom_panes(page)]


def assert_wrapped_labels_whole(root: QWidget) -> None:
    """Every wrapped label as tall as its text at its width (a table re-arranged with a stale height for
    width squeezes its rows onto each other)."""
    for label in root.findChildren(QLabel):
        if label.isVisible() and label.wordWrap() and label.text():
            need = label.heightForWidth(label.width())
            assert label.height() >= need - 1, f"{label.text()!r}: {label.height()} px high, needs {need}"


def no_sideways_scroll(area: ColumnScroll, what: str) -> None:
    assert area.horizontalScrollBar().maximum() == 0, f"{what} scrolls sideways"
    assert area.widget().width() <= area.viewport().width(), what


def assert_panes_fit(window, areas: list[ColumnScroll], size: tuple[int, int], when: str) -> None:
    """No pane scrolls sideways, every wrapped text is whole, the layout check finds nothing in them."""
    settle_layouts(window)
    for area in areas:
        no_sideways_scroll(area, f"{area.widget().objectName()} {when}")
        assert_wrapped_labels_whole(area.widget())
    found = LayoutChecker(window, roots=list(areas), screen=QSize(*size)).run()
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("scale", SCALES, ids=lambda s: f"{round(s * 100)}")
def test_the_coalescing_and_attention_panes_never_scroll_sideways(lang_window, scale):
    lang, app, window = lang_window
    page = window.views["memory"]
    shown = present(window, app, SIZE, scale)
    settle(app, 4)
    assert_panes_fit(window, bottom_panes(page), SIZE, f"at {shown:.0%} ({lang})")


def test_a_bar_with_its_text_under_it_keeps_the_rows_to_one_scale(lang_window):
    lang, app, window = lang_window
    page = window.views["memory"]
    present(window, app, SIZE, 1.5)
    settle(app, 4)
    bars = [bar for _label, bar in page.coalescing.rows]
    assert all(not bar.text_beside() for bar in bars)  # 150% on 720p: every text under its bar
    widths = [bar._moved_w() for bar in bars]
    moved = [bar.moved for bar in bars]
    for w, m in zip(widths, moved):  # the hatched length is the bytes moved, to one scale for every row
        assert w == pytest.approx(widths[-1] * m / moved[-1])
    for bar in bars:  # the text under the bar, whole and inside the bar's widget
        (text,) = bar.painted_texts()
        assert text.rect.top() >= bar._bar_h() and text.rect.bottom() <= bar.height()
        assert bar.height() == bar.heightForWidth(bar.width())
    window.feature("presentation").set_presenting(False)
    settle(app, 4)
    if lang == "en":  # 100%: beside the bars again where the pane has the room (the Russian texts are longer)
        assert all(bar.text_beside() for bar in bars)
    assert len({bar.text_beside() for bar in bars}) == 1  # all rows alike: one scale


@pytest.mark.parametrize("scale", [s for s in SCALES if s >= 1.5], ids=lambda s: f"{round(s * 100)}")
def test_the_hierarchy_pane_never_scrolls_sideways_and_its_texts_fit(lang_window, scale):
    """150% and more: the six columns no longer fit 1280 px; the hierarchy re-arranges instead of scrolling."""
    lang, app, window = lang_window
    page = window.views["memory"]
    shown = present(window, app, SIZE, scale)
    settle(app, 4)
    area = page.splitter.widget(0)
    assert area.widget() is page.hierarchy
    assert_panes_fit(window, [area], SIZE, f"at {shown:.0%} ({lang})")
    table = page.hierarchy.table
    assert table.current > 0  # not the six columns: they need more than the pane has
    assert table.min_width(table.arrangements[table.current]()) <= table.width()
    assert table.min_width(table.arrangements[0]()) > table.width()
    for row in page.hierarchy.rows.values():  # every measure of every level on screen, with its heading
        for m in ("capacity", "latency", "bandwidth", "traffic"):
            assert row[m].isVisible() and row[m].width() > 0
            if table.current >= 2:
                assert row["head_" + m].isVisible() and row["head_" + m].width() > 0


def test_each_table_takes_the_widest_arrangement_that_fits(lang_window):
    """Back at 100% on 1280x720 every table is a table again (the arrangements follow the width both ways)."""
    lang, app, window = lang_window
    page = window.views["memory"]
    present(window, app, SIZE, 2.0)
    settle(app, 4)
    window.feature("presentation").set_presenting(False)
    settle(app, 6)
    settle_layouts(window)
    for table in (page.hierarchy.table, page.attention.table, page.coalescing.grid):
        assert table.current == table.fitting(table.width())
    assert page.hierarchy.table.current == 0 and page.attention.table.current == 0
    assert_panes_fit(window, memory_panes(page), SIZE, f"at 100% ({lang})")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_full_hd_every_pane_fits_in_normal_mode_and_presented(qapp, lang):
    """1920x1080, the window as it opens and presented at 150% (the default) and 250%: no pane scrolls
    sideways, every wrapped text is whole, the layout check finds nothing."""
    size = (1920, 1080)
    try:
        with offscreen_window(size, "light", lang) as (app, window):
            window.show_view("memory")
            settle(app, 4)
            page = window.views["memory"]
            for scale in (None, 1.5, 2.5):
                shown = "normal" if scale is None else f"{present(window, app, size, scale):.0%}"
                settle(app, 4)
                assert_panes_fit(window, memory_panes(page), size, f"at {shown} ({lang})")
            window.feature("presentation").set_presenting(False)
    finally:
        install_translators(qapp, "en")
