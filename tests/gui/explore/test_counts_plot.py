"""The counts plot: ready and issued get a readable scale and both stay visible (issue 14 item 16).

They used to share the left axis with launched (1,920 in the mission's example):
a few dozen warps lay flat on zero, and the issued line hid the ready one, which is
never below it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel

from explorer.gui.explore.counts_plot import HEADROOM, READY_PERCENTILE, ready_scale
from explorer.gui.workspace.run_data import halvings
from explorer.gui.common import palette as oi
from explorer.model.presets import load_preset
from tests.gui.support import RUN_TIMEOUT


def show(page, qtbot, preset: str):
    scenario = load_preset(preset)
    page.workspace.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.workspace.session.run is not None
                    and page.workspace.session.run.result.scenario == scenario
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    qtbot.wait(20)
    return page.workspace.session.run


def rgb(widget) -> np.ndarray:
    img = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    return np.frombuffer(img.constBits(), np.uint8, count=stride * h).reshape(h, stride)[:, : 3 * w].reshape(h, w, 3).copy()


def near(px: np.ndarray, colour: tuple[int, int, int], tol: int = 24) -> np.ndarray:
    return np.all(np.abs(px.astype(int) - np.array(colour)) <= tol, axis=-1)


def after_launch(ready: np.ndarray) -> np.ndarray:
    """The cycles after the launch's burst: after the last one of the first quarter above a quarter of the peak."""
    early = ready[: len(ready) // 4]
    return ready[np.flatnonzero(early > ready.max() / 4)[-1] + 1:]


def test_ready_and_issued_have_their_own_readable_scale(page, qtbot):
    run = page.workspace.session.run  # the mission's example: 1,920 launched, a few dozen ready
    counts = page.counts
    eligible, issued = run.result.eligible, run.result.issued
    assert counts.curves["eligible"].getViewBox() is counts.ready_view
    assert counts.curves["issued"].getViewBox() is counts.ready_view
    assert counts.curves["launched"].getViewBox() is counts.getPlotItem().getViewBox()
    left_top = counts.getPlotItem().getViewBox().viewRange()[1][1]
    right_top = counts.ready_view.viewRange()[1][1]
    assert left_top == pytest.approx(1920 * HEADROOM)
    shown = halvings(eligible, "mean")[counts.level]  # what the ready line draws at this zoom
    # the launch's burst (every warp ready while the kernel's SASS prologue runs: 2% of this run, more than
    # the 1% a percentile leaves off) is left out: the scale fits the cycles after it
    after = after_launch(shown)
    assert len(after) > 0.9 * len(shown)
    assert right_top == pytest.approx(np.percentile(after, READY_PERCENTILE) * HEADROOM)
    assert right_top < left_top / 10
    # a typical busy stretch's ready warps reach well up the plot, not a hair above zero
    busy = shown[shown > 0]
    assert np.median(busy) / right_top > 0.1
    # the right axis is linked to that view and labelled
    axis = counts.getPlotItem().getAxis("right")
    assert axis.isVisible() and axis.linkedView() is counts.ready_view
    # the longest label that fits the plot's height ("ready, issued"; "ready" where the plots splitter also
    # holds the unit-use strip at this window size)
    assert axis.labelText in counts.axis_labels()["right"] and "ready" in axis.labelText
    # the launch burst (every warp ready at first) is off the top, and the title says so
    peak = int(eligible.max())
    assert shown.max() > right_top and counts.ready_peak == (peak, int(np.argmax(eligible)))
    assert f"ready peaks at {peak:,}" in counts.title_text
    assert issued.max() <= eligible.max()


def test_the_ready_scale_leaves_a_long_launch_burst_off_the_top():
    """30 of 1,000 cycles with all 1,920 warps ready, then 40: a plain 99th percentile would be 1,920."""
    ready = np.array([1920.0] * 30 + [40.0] * 970)
    assert np.percentile(ready, READY_PERCENTILE) == 1920
    assert ready_scale(ready) == 40
    late = np.array([40.0] * 970 + [1920.0] * 30)  # a peak at the end is no launch: the percentile as it is
    assert ready_scale(late) == 1920
    assert ready_scale(np.zeros(0)) == 0


def test_both_are_visible_where_they_coincide(page, qtbot):
    counts = page.counts
    qtbot.wait(50)  # the plot's first layout and paint
    px = rgb(counts)
    vb = counts.getPlotItem().getViewBox()
    r = vb.sceneBoundingRect().toRect()
    area = px[r.top() + 2: r.bottom() - 2, r.left() + 2: r.right() - 2]
    orange = tuple(int(oi.ORANGE[i:i + 2], 16) for i in (1, 3, 5))
    ready_line = near(area, orange, 30).sum()
    issued_fill = near(area, (145, 213, 195), 30).sum()  # bluish green at alpha 110 over white
    assert ready_line > 200, ready_line
    assert issued_fill > 2000, issued_fill
    # ready is drawn over issued
    assert counts.curves["eligible"].zValue() > counts.curves["issued"].zValue()
    assert counts.curves["issued"].opts["fillLevel"] == 0


def test_zoomed_out_ready_and_issued_are_bin_averages_and_exact_when_zoomed_in(page, qtbot):
    run = show(page, qtbot, "memory-bound-stream")  # 171,022 cycles on ~900 pixels
    counts = page.counts
    assert counts.level > 0
    n = 1 << counts.level
    assert counts.cycles_per_pixel() <= n < 2 * counts.cycles_per_pixel()  # a bin covers about a pixel
    x, y = counts.curves["eligible"].getOriginalDataset()
    assert len(x) == len(y) + 1 and x[1] - x[0] == n
    eligible = run.result.eligible.astype(np.float64)
    assert y[3] == pytest.approx(eligible[3 * n: 4 * n].mean(), rel=1e-5)  # numpy's mean of those cycles
    assert np.array_equal(y, halvings(run.result.eligible, "mean")[counts.level])
    _x, issued = counts.curves["issued"].getOriginalDataset()
    assert np.all(issued <= y + 1e-4)  # the issued area never rises above the ready line
    right = counts.getPlotItem().getAxis("right")
    assert counts.axis_labels()["right"][0] == "mean ready, issued"  # said when the axis is tall enough
    assert right.labelText in counts.axis_labels()["right"]
    assert right.label.boundingRect().width() <= counts.getPlotItem().getViewBox().height()  # never clipped
    assert f"average over {n:,} cycles" in counts.toolTip()
    counts.getPlotItem().setXRange(1000, 1300, padding=0)
    qtbot.waitUntil(lambda: counts.level == 0, timeout=2000)
    x, y = counts.curves["issued"].getOriginalDataset()
    assert np.array_equal(y, run.result.issued) and x[-1] == run.cycles
    assert counts.getPlotItem().getAxis("right").labelText in ("ready, issued", "ready")


def test_selected_sm_counts_use_the_same_scales(page, qtbot):
    run = page.workspace.session.run
    page.per_sm.setChecked(True)
    counts = page.counts
    sm = run.sm_counts(page.workspace.session.selected_sm)
    x, y = counts.curves["resident"].getOriginalDataset()
    assert np.array_equal(y, sm[:, 0])
    _x, ready = counts.curves["eligible"].getOriginalDataset()
    assert np.array_equal(ready, halvings(sm[:, 1], "mean")[counts.level])
    assert counts.ready_view.viewRange()[1][1] == pytest.approx(
        max(np.percentile(after_launch(ready), READY_PERCENTILE) * HEADROOM, 4.0))
    assert not counts.curves["launched"].isVisible()
    page.per_sm.setChecked(False)
    assert counts.curves["launched"].isVisible()


def test_the_legend_names_every_curve_under_the_plot(page):
    legend = page.counts.legends[0]
    names = [w.text() for w in legend.findChildren(QLabel) if w.text()]
    assert names == ["unfinished", "resident", "ready (eligible)", "issued"]
    assert page.counts_panel.isAncestorOf(legend) and page.counts_panel.isAncestorOf(page.counts)
    assert page.window().lesson_targets["counts"] is page.counts_panel


def test_ready_is_drawn_over_resident_and_the_plot_still_takes_clicks(page, qtbot):
    """On an SM whose resident warps are all ready the two lines coincide: ready stays on top; the
    ready view lets clicks through to the plot (a click asks for that cycle)."""
    counts = page.counts
    assert counts.ready_view.zValue() > counts.getPlotItem().zValue()
    vb = counts.getPlotItem().getViewBox()
    asked = []
    counts.cycle_requested.connect(asked.append)
    qtbot.wait(50)
    scene_point = vb.mapViewToScene(pg.Point(4000, 100))
    view_point = counts.mapFromScene(scene_point)
    qtbot.mouseClick(counts.viewport(), Qt.MouseButton.LeftButton, pos=view_point)
    assert asked and abs(asked[-1] - 4000) <= 2 * counts.cycles_per_pixel() + 1


def test_a_run_with_binned_series_is_drawn_per_bin(page, qtbot):
    """A long run keeps its GPU-wide counts per bin of series_stride cycles (explorer.sim.result): the plot draws
    each bin over its cycles (it raised "len(X) must be len(Y)+1" on such runs), says so, and one SM's counts,
    from its per-cycle trace, still step per cycle."""
    from explorer.gui.workspace.run_data import SimRun
    from explorer.sim import simulate

    result = simulate(load_preset("example-240x256"), series_budget_bytes=64 * 1024)
    stride = result.series_stride
    assert stride > 1
    page.workspace.show_run(SimRun.from_result(result))
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and page.workspace.session.run.result is result,
                    timeout=RUN_TIMEOUT)
    counts = page.counts
    x, y = counts.curves["resident"].getOriginalDataset()
    assert len(x) == len(y) + 1 == len(result.counts) + 1
    assert x[1] - x[0] == stride and x[-1] == result.cycles
    assert np.array_equal(y, result.counts[:, 1].astype(np.float64))
    xe, ye = counts.curves["eligible"].getOriginalDataset()
    assert len(xe) == len(ye) + 1 and (xe[1] - xe[0]) % stride == 0 and xe[-1] == result.cycles
    assert f"per {stride:,} cycles" in counts.toolTip()
    assert counts.axis_labels()["right"][0] == "mean ready, issued"
    if counts.ready_peak is not None:
        assert counts.ready_peak[1] % stride == 0
    page.per_sm.setChecked(True)
    xs, ys = counts.curves["resident"].getOriginalDataset()
    assert len(xs) == len(ys) + 1 and xs[1] - xs[0] == 1
    page.per_sm.setChecked(False)
