"""Helpers the GUI tests share: waiting for the Explorer's simulation."""

from __future__ import annotations

RUN_TIMEOUT = 60_000  # ms: the first simulation of a test session loads numba's cache


def wait_run(qtbot, page, timeout: int = RUN_TIMEOUT):
    """Wait until the Explorer ``page`` shows a finished run and simulates nothing; that run."""
    qtbot.waitUntil(lambda: page.session.run is not None and not page.simulating, timeout=timeout)
    return page.session.run
