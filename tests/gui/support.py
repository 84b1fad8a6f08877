"""Helpers the GUI tests share: waiting for the Explorer's simulation, bringing a tab to the front."""

from __future__ import annotations

from contextlib import contextmanager

RUN_TIMEOUT = 60_000  # ms: the first simulation of a test session loads numba's cache


def wait_run(qtbot, page, timeout: int = RUN_TIMEOUT):
    """Wait until the Explorer ``page`` shows a finished run and simulates nothing; that run."""
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating,
                    timeout=timeout)
    return page.workspace.session.run


def show_page(window, qtbot, view_id: str):
    """The window at 1600x900 with the ``view_id`` tab in front and exposed; that tab's page."""
    window.resize(1600, 900)
    assert window.show_view(view_id)
    page = window.views[view_id]
    qtbot.waitExposed(page)
    return page


def known_gap(reason: str):
    """A test that fails until an open issue is done: an xfail naming the issue, not strict (a fix
    shows as XPASS, and the mark comes off with it)."""
    import pytest

    return pytest.mark.xfail(reason=reason, strict=False)


@contextmanager
def explorer_run_at(qapp, size: tuple[int, int], lang: str, run):
    """An offscreen window at ``size`` in ``lang`` showing ``run`` at its busiest cycle, as ``render`` draws it;
    (app, window). The rest of the session is in English again afterwards."""
    from explorer.gui.headless.render import default_cycle, offscreen_window, settle
    from explorer.gui.shell.i18n import install_translators

    try:
        with offscreen_window(size, "light", lang) as (app, window):
            page = window.explorer
            page.workspace.show_run(run)
            page.workspace.session.set_cycle(default_cycle(run))
            settle(app, 6)
            yield app, window
    finally:
        install_translators(qapp, "en")
