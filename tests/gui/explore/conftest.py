"""What the Explorer's tests share: the window's Explorer tab with its first run on screen."""

from __future__ import annotations

import pytest

from tests.gui.support import wait_run


@pytest.fixture
def page(window, qtbot):
    """The Explorer page at 1600x900 (the size its layout is designed for; offscreen does not clamp a resize),
    once the mission's example is simulated."""
    window.resize(1600, 900)
    p = window.explorer
    wait_run(qtbot, p)
    return p
