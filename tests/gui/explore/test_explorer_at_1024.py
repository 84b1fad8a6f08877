"""The Explorer at 1024x640 (issue 14: a small laptop, an old projector): the window is exactly that size, not
stretched to its minimum (the SM grid, its legend, the plots and the columns need at most 600 px of height at
1024 px of width), and every text fits, in English and Russian, out of and in presentation mode.

``render`` scales what it grabs to the requested size, so its PNG alone cannot tell: the window's own size and
its minimum are what is asserted (``render`` draws the window it tests here: ``offscreen_window``)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from explorer.gui.common.layout_check import LayoutChecker
from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.headless.render import parse_scale, present, settle
from explorer.model.presets import default_scenario

from tests.gui.support import explorer_run_at

SIZE = (1024, 640)


@pytest.fixture(scope="module")
def run():
    return simulate_run(default_scenario())


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_explorer_fits_1024x640_exactly(qapp, run, lang, presenting):
    with explorer_run_at(qapp, SIZE, lang, run) as (app, window):
        if presenting:
            present(window, app, SIZE, parse_scale(None))
        settle(app, 6)
        assert window.minimumSizeHint().height() <= 600
        assert window.size().toTuple() == SIZE, "the window grew past the requested size to its minimum"
        assert window.grab().size().toTuple() == SIZE
        assert [str(p) for p in LayoutChecker(window, screen=QSize(*SIZE)).run()] == []
