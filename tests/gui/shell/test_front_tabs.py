"""The tab area is as small as the tab in front needs (``shell.front_tabs``): a hidden tab (the Explorer, the
tallest) no longer holds the window's minimum, so presentation mode on the Occupancy tab fits a screen that
page fits, at the scale a window showing only that page would pick."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QWidget

from explorer.gui.headless.render import offscreen_window, present, settle

SIZE = (1024, 540)  # the Occupancy page fits it; the Explorer's minimum height (about 570 px) does not


def plain_tabs_holding_only(window, page) -> QTabWidget:
    """Qt's own tab widget with the window's tab titles, whose only page with a minimum is ``page``'s."""
    tabs = QTabWidget()
    tabs.setDocumentMode(window.tabs.documentMode())
    tabs.setFont(window.tabs.font())
    for i in range(window.tabs.count()):
        stand_in = QWidget()
        if window.tabs.widget(i) is page:
            stand_in.setMinimumSize(page.minimumSizeHint())
        tabs.addTab(stand_in, window.tabs.tabText(i))
    tabs.setCurrentIndex(window.tabs.currentIndex())
    return tabs


def test_the_tab_area_takes_the_front_pages_minimum_only(qapp):
    with offscreen_window((1280, 720), "light", "en") as (app, window):
        explorer, occupancy = window.explorer, window.occupancy
        assert explorer.minimumSizeHint().height() > occupancy.minimumSizeHint().height()
        window.show_view("occupancy")
        settle(app)
        reference = plain_tabs_holding_only(window, occupancy)
        try:
            assert window.tabs.minimumSizeHint() == reference.minimumSizeHint()
        finally:
            reference.deleteLater()
        window.show_view("explorer")  # back in front: its minimum holds the window again
        settle(app)
        assert window.tabs.minimumSizeHint().height() > explorer.minimumSizeHint().height()
        assert window.minimumSizeHint().height() > explorer.minimumSizeHint().height()


def shown_scale_on_occupancy(only_that_page: bool) -> tuple[float, list]:
    with offscreen_window(SIZE, "light", "en") as (app, window):
        window.show_view("occupancy")
        settle(app)
        if only_that_page:  # the other tabs out of the window: nothing behind the page can hold its size
            for i in reversed(range(window.tabs.count())):
                if window.tabs.widget(i) is not window.occupancy:
                    window.tabs.removeTab(i)
            settle(app)
        presentation = window.feature("presentation")
        shown = present(window, app, SIZE, 1.5)
        found = [str(p) for p in presentation.fit_problems()]
        presentation.set_presenting(False)
        return shown, found


def test_presentation_on_the_occupancy_tab_fits_as_that_page_alone_would(qapp):
    shown, found = shown_scale_on_occupancy(only_that_page=False)
    alone, _ = shown_scale_on_occupancy(only_that_page=True)
    assert found == []  # the hidden Explorer's height cut the window at the screen's bottom edge
    assert shown == alone
