"""What the lesson tests share: the window at 1600x900 with its first run on screen, narrating in English."""

from __future__ import annotations

import pytest

from tests.gui.support import wait_run


@pytest.fixture
def win(window, qtbot):
    window.resize(1600, 900)
    wait_run(qtbot, window.explorer)
    window.feature("lessons").set_language("en")
    return window
