"""The stream strip (issue 19 item 4): shown for a stream of launches, drawn exactly and decimated, zoomable.

References are independent of the strip: the kernel's duration from the run's own
cycles and clock, the gap and count as the test sets them, NVML's utilization as
n * kernel / (n * kernel + (n - 1) * gap) (the stream's busy share, hand-computed).
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from explorer.gui.explore.stream_strip import FIGURES, StreamStrip
from explorer.model.presets import load_preset
from explorer.sim.engine import simulate
from explorer.sim.stream import compose
from tests.gui.support import wait_run

TINY = {"workload.loop": 2}


@pytest.fixture(scope="module")
def tiny_result():
    return simulate(load_preset("example-240x256").with_values(**TINY))


def stream_of(result, **stream):
    """The composed stream of ``result``'s kernel under the given ``[stream]`` values."""
    scenario = result.scenario.with_values(**{f"stream.{k}": v for k, v in stream.items()})
    return compose(simulate(scenario)) if scenario != result.scenario else compose(result)


def kernel_us(result) -> float:
    return result.cycles / result.params.clock_mhz


def busy_share(n: int, k: float, gap: float) -> float:
    return n * k / (n * k + (n - 1) * gap)


def make_strip(qtbot, stream, width=600) -> StreamStrip:
    strip = StreamStrip()
    qtbot.addWidget(strip)
    strip.resize(width, 120)
    strip.show_stream(stream)
    strip.show()
    qtbot.waitExposed(strip)
    return strip


def test_hidden_for_one_kernel_shown_for_a_stream(page, qtbot):
    """One launch: no strip (the metrics say 100% over its own duration); ten: the strip with its figures."""
    assert not page.stream_strip.isVisible()
    one = page.workspace.session.scenario
    page.workspace.change_scenario(one.with_values(**{"stream.kernels": 10, "stream.launch_gap_us": 5.0}), "preset")
    run = wait_run(qtbot, page)
    qtbot.waitUntil(page.stream_strip.isVisible)
    k = kernel_us(run.result)
    expected = busy_share(10, k, 5.0)
    assert page.stream_strip.meters["nvml_utilization"].fraction == pytest.approx(expected, rel=1e-9)
    # the strip sits above the counts plot, inside the counts panel
    assert page.stream_strip.parentWidget() is page.counts_panel
    assert page.stream_strip.geometry().bottom() <= page.counts.geometry().top()
    assert page.window().lesson_targets["stream"] is page.stream_strip
    # the counts pane grew by the strip's height (taken from the SM grid's): the plot keeps its room
    qtbot.waitUntil(lambda: page.counts.height() >= page.counts.minimumHeight())
    assert "gaps included" in page.stream_strip.title.toolTip()
    page.workspace.undo()
    wait_run(qtbot, page)
    qtbot.waitUntil(lambda: not page.stream_strip.isVisible())


def test_four_readings_in_order_and_side_by_side(qtbot, tiny_result):
    stream = stream_of(tiny_result, kernels=1000, launch_gap_us=2.0)
    strip = make_strip(qtbot, stream)
    values = [strip.meters[key].fraction for key in FIGURES]
    assert values[0] == pytest.approx(busy_share(1000, kernel_us(tiny_result), 2.0), rel=1e-9)
    # each reading is at most NVML's, and occupancy and issue slots at most SM active (the module's contract)
    assert values[1] <= values[0] and values[2] <= values[1] and values[3] <= values[1]
    meters = [strip.meters[key] for key in FIGURES]
    assert len({m.y() for m in meters}) == 1  # one row
    xs = [m.x() for m in meters]
    assert xs == sorted(xs)
    for key in FIGURES:  # every figure says what it means
        assert strip.meters[key].toolTip() and strip.names[key].toolTip() == strip.meters[key].toolTip()


def test_bars_are_kernels_and_gaps_when_zoomed_in(qtbot, tiny_result):
    """Zoomed to the first two kernels, each pixel column is 1 inside a kernel and 0 in a gap."""
    k, gap = kernel_us(tiny_result), 3.0
    stream = stream_of(tiny_result, kernels=50, launch_gap_us=gap)
    strip = make_strip(qtbot, stream, width=800)
    t = strip.timeline
    t.set_view(0.0, 2 * k + gap)
    cols = t.columns()
    dt = (2 * k + gap) / len(cols)
    mid = (np.arange(len(cols)) + 0.5) * dt
    inside = (mid < k - dt) | ((mid > k + gap + dt) & (mid < 2 * k + gap - dt))
    in_gap = (mid > k + dt) & (mid < k + gap - dt)
    assert np.allclose(cols[inside], 1.0, rtol=0, atol=1e-9) and np.allclose(cols[in_gap], 0.0, rtol=0, atol=1e-9)
    assert cols.sum() * dt == pytest.approx(2 * k, rel=1e-9)  # the busy time in view, exactly


def test_ten_thousand_launches_are_drawn_decimated(qtbot, tiny_result):
    """10,000 kernels on a few hundred pixels: one column per pixel, each the busy share of its time."""
    k, gap = kernel_us(tiny_result), 2.1
    stream = stream_of(tiny_result, kernels=10_000, launch_gap_us=gap)
    strip = make_strip(qtbot, stream, width=500)
    t = strip.timeline
    cols = t.columns()
    assert len(cols) == t.bar_rect().width()  # the view's ends stand beside the bar
    assert cols.mean() == pytest.approx(busy_share(10_000, k, gap), rel=1e-9)
    assert t.kernels_in_view() == 10_000
    tip = t.tooltip_at(250)
    assert "pixel column" in tip and "kernel" in tip
    strip.grab()  # paints without error


def test_wheel_zooms_about_the_mouse_and_double_click_shows_all(qtbot, tiny_result):
    stream = stream_of(tiny_result, kernels=1000, launch_gap_us=2.0)
    strip = make_strip(qtbot, stream)
    t = strip.timeline
    span = stream.span_us
    x = t.width() / 4
    at = t.time_at(x)
    event = QWheelEvent(QPointF(x, 5), QPointF(t.mapToGlobal(QPoint(int(x), 5))), QPoint(0, 0), QPoint(0, 120 * 4),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(t, event)
    lo, hi = t.view
    assert hi - lo == pytest.approx(span / 1.25 ** 4, rel=1e-9)
    assert t.time_at(x) == pytest.approx(at, rel=1e-9)  # the time under the mouse stays put
    t.set_view(-100.0, -100.0 + 1e-9)  # too narrow and before the start: clamped
    lo, hi = t.view
    assert lo == 0.0 and hi == pytest.approx(stream.kernel_us * 0.05)
    qtbot.mouseDClick(t, Qt.MouseButton.LeftButton)
    assert t.view == (0.0, span)


def test_tooltip_names_the_kernel_gap_and_nvml_window(qtbot, tiny_result):
    """A 1 ms NVML window over a longer stream: the tooltip gives the window's reading, from the core's figure."""
    k, gap = kernel_us(tiny_result), 2.0
    stream = stream_of(tiny_result, kernels=2000, launch_gap_us=gap, nvml_period_ms=1.0)
    assert stream.nvml_windows >= 2
    strip = make_strip(qtbot, stream, width=600)
    t = strip.timeline
    t.set_view(0.0, 2 * (k + gap))
    bar = t.bar_rect()  # the view's ends stand beside the bar
    inside = t.tooltip_at(bar.left() + bar.width() * (k / 2) / (2 * (k + gap)))
    assert inside.startswith("kernel 1 of 2,000")
    gap_tip = t.tooltip_at(bar.left() + bar.width() * (k + gap / 2) / (2 * (k + gap)))
    assert gap_tip.startswith("the gap after kernel 1")
    reading = float(stream.window_utilization(0, 1)[0])
    assert f"{100 * reading:.1f}".rstrip("0").rstrip(".") + "%" in inside
    first, last = t.windows_in_view()
    assert (first, last) == (0, 0)
    t.show_all()
    assert t.windows_in_view()[1] == int(stream.span_us // 1000.0)
    strip.grab()


def test_title_says_graph_and_window(qtbot, tiny_result):
    stream = stream_of(tiny_result, kernels=100, graph=True)
    strip = make_strip(qtbot, stream, width=1200)
    assert "100 graph nodes" in strip.title.text()
    assert "shorter than one NVML window" in strip.title.toolTip()
    strip.show_stream(None)
    assert not strip.isVisible()
