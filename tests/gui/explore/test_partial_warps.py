"""The timeline marks partially active warps (issue 17 item 4): a line along the top of a slot's row where its
warp's next instruction issues with fewer than 32 lanes, zoomed like the states, explained by the title and
the hover. Expectations come from the run's own masks (``SimResult.mask_trace``: the executor's entry masks)."""

from __future__ import annotations

import numpy as np

from explorer.gui.workspace.run_data import halvings
from explorer.gui.explore.timeline import PARTIAL_SUBROWS
from tests.gui.sass.conftest import divergent, partial_point, run_of  # noqa: F401 - the fixture
from tests.gui.support import wait_run
from tests.sass.support import needs_sass


@needs_sass
def test_partial_warps_are_marked_where_their_masks_are_partial(window, qtbot, divergent):  # noqa: F811
    window.resize(1600, 900)
    page = window.explorer
    wait_run(qtbot, page)
    run = run_of(divergent)
    result = run.result
    sm, slot, cycle, mask = partial_point(result)
    masks = result.mask_trace(sm)
    partial = ((masks != 0) & (masks != 0xFFFFFFFF)).astype(np.uint8)[:, run.order]
    levels = run.partial_pyramid(sm)
    assert levels is not None
    assert np.array_equal(levels[0], partial)
    for got, want in zip(levels, halvings(partial)):  # a bin is marked if any of its cycles is
        assert np.array_equal(got, want)
    page.workspace.show_run(run)
    qtbot.waitUntil(lambda: page.workspace.session.run is run)
    page.workspace.session.select_sm(sm)
    qtbot.waitUntil(lambda: page.timeline.sm == sm)
    view = page.timeline
    assert view.sm == sm and view.has_partial_marks()
    marks = view.partial_image.image
    flags = view._partial_levels[view.level]
    assert marks.shape == (flags.shape[0], flags.shape[1] * PARTIAL_SUBROWS)
    assert np.array_equal(marks[:, 0::PARTIAL_SUBROWS], flags) and not marks[:, 1::PARTIAL_SUBROWS].any()
    assert flags.any()
    # the mark's colour is the plot's foreground (a shape on top of any state colour), transparent elsewhere
    lut = view._partial_lut()
    assert lut[0, 3] == 0 and lut[1, 3] == 255


    # the title names the mark where the width holds it; the hover explains it
    assert "32 lanes" in view.getPlotItem().titleLabel.text


def test_whole_warps_have_no_marks(window, qtbot):
    page = window.explorer
    run = wait_run(qtbot, page)  # the default scenario: every warp issues with its 32 lanes
    assert run.partial_pyramid(page.workspace.session.selected_sm) is None
    assert not page.timeline.has_partial_marks() and page.timeline.partial_image.image is None
