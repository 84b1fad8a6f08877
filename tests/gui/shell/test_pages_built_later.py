"""Pages built when first needed (issue 14 item 18: the first result on screen within ~2 s).

The calculator, GEMM and Memory tabs are not in front at start-up; building them first made the first
simulation wait for them. They are built when shown, when asked for a widget, or once the first
simulation is on screen; until then the window's hooks (theme, saved state, the Explorer's runs) are
kept for them. These tests drive a real window and check each path against a page built at once.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from explorer.gui.common.theme import DARK
from explorer.gui.shell import main_window
from explorer.gui.shell.main_window import MainWindow

from tests.gui.support import wait_run

LATER = ("occupancy", "gemm", "memory")


def unbuilt(window) -> set[str]:
    return {name for name in LATER if not window.views[name].built}


@pytest.fixture
def held(monkeypatch):
    """The build after the first result put off for the test's length (a test builds what it asks for)."""
    monkeypatch.setattr(main_window, "BUILD_LATER_MS", 10 ** 7)


def new_window(qtbot, settings) -> MainWindow:
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    return w


def test_hidden_pages_wait_for_the_first_result_then_build_one_by_one(qtbot, settings, light_theme):
    w = new_window(qtbot, settings)
    assert unbuilt(w) == set(LATER), "no hidden page is built before the window is up"
    assert w.explorer.built
    w.show()
    qtbot.waitExposed(w)
    wait_run(qtbot, w.explorer)
    qtbot.waitUntil(lambda: not unbuilt(w), timeout=20_000)
    # built later, each is what a page built at once is: the calculator's evaluation and its source row
    assert w.occupancy.evaluation is not None
    assert w.feature("gpu").cu_row.parent() is not None
    assert w.views["memory"].run is w.workspace.session.run, "the Memory tab got the run it missed"


def test_a_page_is_built_when_shown_or_asked_for_a_widget(qtbot, settings, light_theme, held):
    w = new_window(qtbot, settings)
    w.show()
    qtbot.waitExposed(w)
    wait_run(qtbot, w.explorer)
    assert unbuilt(w) == set(LATER), "the held build left them"
    w.show_view("gemm")
    qtbot.waitUntil(lambda: w.views["gemm"].built)
    assert w.views["gemm"].plan is not None
    assert not w.occupancy.built
    fields = w.occupancy.inputs.fields  # a widget of an unbuilt page: built on the spot
    assert w.occupancy.built and "threads" in fields
    assert w.lesson_targets["memory"] is w.views["memory"].hierarchy, "a lesson target builds its page"
    assert w.views["memory"].run is w.workspace.session.run


def test_an_unbuilt_page_keeps_the_saved_state_and_the_theme(qtbot, settings, light_theme, held):
    first = new_window(qtbot, settings)
    gemm = first.views["gemm"]
    gemm.ensure_built()
    gemm.inputs.set_values({"m": "1024"})
    first.save_settings()
    first.close()

    w = new_window(qtbot, settings)
    page = w.views["gemm"]
    assert not page.built
    assert page.capture_state().get("m") == "1024", "an unbuilt page saves back what it was given"
    w.theme.set_mode("dark")
    assert not page.built, "a theme change waits for the build"
    page.ensure_built()
    assert page.inputs.raw_values()["m"] == "1024"
    assert page.theme == DARK
    assert page.capture_state().get("m") == "1024"


def test_closing_before_anything_was_built_builds_nothing(qtbot, settings, light_theme, held):
    w = new_window(qtbot, settings)
    w.close()
    assert unbuilt(w) == set(LATER)
    saved = QSettings(settings.fileName(), QSettings.Format.IniFormat)
    assert saved.value("window/tab") is not None


def test_a_page_made_outside_the_window_is_built_at_once(qtbot):
    from explorer.gui.gemm.page import GemmPage

    page = GemmPage()
    qtbot.addWidget(page)
    assert page.built and page.plan is not None
    with pytest.raises(AttributeError):
        page.no_such_widget  # noqa: B018 - a built page answers as any object does


def test_presentation_builds_every_page_first_so_each_is_scaled(qtbot, settings, light_theme, held):
    w = new_window(qtbot, settings)
    w.show()
    qtbot.waitExposed(w)
    presentation = w.feature("presentation")
    try:
        presentation.set_presenting(True, full_screen=False)
        assert not unbuilt(w)
        scale = presentation.shown_scale
        assert scale > 1
        presented = w.views["gemm"].inputs.font().pointSizeF()
    finally:
        presentation.set_presenting(False)
    assert presented == pytest.approx(w.views["gemm"].inputs.font().pointSizeF() * scale, rel=0.05)


def test_asking_the_pages_for_a_rebuild_blocker_builds_none(qtbot, settings, light_theme, held):
    w = new_window(qtbot, settings)
    assert w.rebuild_blocker() is None
    state = w.capture_state(live=True)  # what a language switch hands the new window
    assert unbuilt(w) == set(LATER)
    assert {"occupancy", "gemm", "memory"} <= set(state)
