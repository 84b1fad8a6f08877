"""The stream strip: N launches of the kernel on one time axis, NVML's windows behind them, four readings.

Why a strip: NVML's "GPU utilization" is the share of a sample period in which a
kernel runs, so one kernel reads 100% over its own duration; what it says about a
program depends on the gaps between launches. The strip draws the stream the
scenario's ``[stream]`` describes (``explorer.sim.stream`` composes it from the one
simulated kernel; nothing here computes a figure): kernels as bars with their
gaps, NVML's sample windows shaded behind them (each complete one with its
reading as a tick), and beside it the same work read four ways: NVML
utilization, SM active, achieved occupancy over the span, issue slots used.

Drawn decimated, exactly: each pixel column is as high as the share of its time
in which a kernel runs (``StreamResult.busy_us``, closed form), so zoomed in a
kernel is a full bar and a gap an empty column, and zoomed out over 10,000
launches a column is as high as the busy share of the kernels it covers. A paint
costs one call for the visible pixels, whatever N is. The wheel zooms about the
mouse, a drag pans, a double click shows the whole stream again.

It shows when the scenario's stream has more than one kernel; one kernel has no
gaps, and the metrics panel's NVML figure (100% over its own duration) says it all.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.bars import Meter, SegmentBar
from explorer.gui.common.layout_check import PaintedText
from explorer.texts.numbers import counted, num, pct, seconds_text, unit
from explorer.gui.common.reflow_grid import Arrangement, Cell, ReflowGrid
from explorer.gui.common.theme import Theme
from explorer.gui.common.widgets import FittingLabel
from explorer.gui.workspace.run_data import SimRun
from explorer.sim.stream import StreamResult, compose

FIGURES = ("nvml_utilization", "sm_active", "achieved_occupancy", "issue_slot_utilization")
COLORS = {"nvml_utilization": oi.BLUE, "sm_active": oi.SKY_BLUE, "achieved_occupancy": oi.REDDISH_PURPLE,
          "issue_slot_utilization": oi.BLUISH_GREEN}
KERNEL_COLOR = oi.BLUE
READING_COLOR = oi.VERMILLION  # NVML's reading of a complete window
MAX_WINDOWS_DRAWN = 400  # NVML windows shaded one by one; more in view: too thin to tell apart
ZOOM_STEP = 1.25  # per wheel notch
MIN_VIEW_KERNELS = 0.05  # the narrowest view: a twentieth of one kernel


def stream_of(run: SimRun | None) -> StreamResult | None:
    """The run's stream when it has more than one kernel (None otherwise: nothing to draw)."""
    if run is None or run.result.scenario.stream.kernels <= 1:
        return None
    return compose(run.result)


class StreamTimeline(SegmentBar):
    """The painted time axis: NVML windows shaded, each pixel as high as its busy share, the range's ends
    (a painted bar whose tooltip names what is under the mouse)."""

    HINT_WIDTH = 400

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("stream_timeline")
        self.setMouseTracking(True)
        self.stream: StreamResult | None = None
        self.view = (0.0, 1.0)  # visible time range, us
        self._drag: tuple[float, tuple[float, float]] | None = None
        self._fit_height()
        self.setToolTip(self.tr("Kernels of the stream as bars, the gaps between them empty, NVML's sample "
                                "windows shaded behind them; wheel: zoom, drag: pan, double click: the whole stream."))

    # -- geometry -------------------------------------------------------------------
    # one line: the view's ends beside the bar, not under it (the Explorer with the strip must leave a lesson's
    # narration its lines on a 1280x720 screen)
    def _fit_height(self) -> None:
        line = QFontMetrics(self.font()).height()
        self.setFixedHeight(line + 2)

    def _label_width(self) -> int:
        """Room for either end of the view: three digits and a time unit ("888 µs")."""
        fm = QFontMetrics(self.font())
        return max(fm.horizontalAdvance(f"8,888 {unit(u)}") for u in ("s", "ms", "µs", "ns")) + 4

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()
        super().changeEvent(event)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(120 + 2 * self._label_width(), self.height())

    def bar_rect(self) -> QRect:
        """The bar between the view's two ends."""
        side = self._label_width()
        return QRect(side, 0, max(1, self.width() - 2 * side), self.height())

    def _label_rects(self) -> tuple[QRect, QRect]:
        bar = self.bar_rect()
        side = self._label_width() - 4
        return QRect(0, 0, side, self.height()), QRect(bar.right() + 5, 0, side, self.height())

    # -- data -----------------------------------------------------------------------
    def set_stream(self, stream: StreamResult | None) -> None:
        keep = (self.stream is not None and stream is not None and self.stream.span_us == stream.span_us
                and self.stream.kernel_us == stream.kernel_us)
        self.stream = stream
        if not keep:
            self.show_all()
        self.update()

    def show_all(self) -> None:
        self.view = (0.0, self.stream.span_us) if self.stream is not None else (0.0, 1.0)
        self.update()

    def set_view(self, lo: float, hi: float) -> None:
        """Show [lo, hi] us, kept inside the stream and no narrower than a twentieth of a kernel."""
        s = self.stream
        if s is None:
            return
        span = s.span_us
        width = min(span, max(hi - lo, s.kernel_us * MIN_VIEW_KERNELS))
        lo = min(max(0.0, lo), span - width)
        self.view = (lo, lo + width)
        self.update()

    def time_at(self, x: float) -> float:
        """The time under ``x`` (the widget's pixels; the bar starts after the left end's label)."""
        lo, hi = self.view
        bar = self.bar_rect()
        return lo + (hi - lo) * (x - bar.left()) / bar.width()

    def columns(self) -> np.ndarray:
        """The busy share of each pixel column of the bar (0..1): what the bars are drawn from."""
        s = self.stream
        w = self.bar_rect().width()
        if s is None:
            return np.zeros(w)
        lo, hi = self.view
        edges = np.linspace(lo, hi, w + 1)
        return np.clip(np.diff(s.busy_us(edges)) / ((hi - lo) / w), 0.0, 1.0)

    def kernels_in_view(self) -> int:
        s = self.stream
        if s is None:
            return 0
        first, last = s.last_started([self.view[0], self.view[1]])
        return int(last - max(first, 0) + 1)

    def windows_in_view(self) -> tuple[int, int]:
        """First and last NVML window index the view touches."""
        s = self.stream
        p = s.period_us
        return int(self.view[0] // p), int(self.view[1] // p)

    # -- painting -------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        bar = self.bar_rect()
        p.fillRect(bar, QColor(self.theme.base))
        s = self.stream
        if s is not None:
            self._paint_windows(p, bar)
            self._paint_kernels(p, bar)
            p.setPen(QColor(self.theme.text))
            for item in self.painted_texts():
                p.drawText(item.rect, item.flags, item.text)
        p.setPen(QColor(self.theme.mid))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(bar.adjusted(0, 0, -1, -1))
        p.end()

    def _x(self, t: float) -> float:
        lo, hi = self.view
        bar = self.bar_rect()
        return bar.left() + (t - lo) / (hi - lo) * bar.width()

    def _paint_windows(self, p: QPainter, bar: QRect) -> None:
        s = self.stream
        first, last = self.windows_in_view()
        if last - first + 1 > MAX_WINDOWS_DRAWN:
            return
        shade = QColor(self.theme.mid)
        shade.setAlpha(70)
        readings = s.window_utilization(first, last - first + 1)
        reading = QColor(READING_COLOR)
        for k in range(first, last + 1):
            x0 = max(bar.left(), math.floor(self._x(k * s.period_us)))
            x1 = min(bar.right() + 1, math.ceil(self._x((k + 1) * s.period_us)))
            if k % 2 == 0:
                p.fillRect(QRect(x0, bar.top(), max(1, x1 - x0), bar.height()), shade)
            if k - first < len(readings):  # a complete window: its reading, as a tick at that height
                y = bar.bottom() - round(readings[k - first] * (bar.height() - 2))
                p.fillRect(QRect(x0, y - 1, max(1, x1 - x0), 2), reading)

    def _paint_kernels(self, p: QPainter, bar: QRect) -> None:
        share = self.columns()
        color = QColor(KERNEL_COLOR)
        h = bar.height() - 2
        heights = np.rint(share * h).astype(np.int64)
        # runs of equal height as one rectangle each: a zoomed-in kernel is one call, not one per pixel
        change = np.flatnonzero(np.diff(heights)) + 1
        starts = np.concatenate([[0], change])
        ends = np.concatenate([change, [len(heights)]])
        for a, b in zip(starts.tolist(), ends.tolist()):
            hh = int(heights[a])
            if hh > 0:
                p.fillRect(QRect(bar.left() + a, bar.bottom() - hh, b - a, hh), color)

    def painted_texts(self) -> list[PaintedText]:
        if self.stream is None:
            return []
        left, right = self._label_rects()
        lo, hi = self.view
        return [PaintedText(seconds_text(lo * 1e-6) if lo > 0 else "0", left, self.font(),
                            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)),
                PaintedText(seconds_text(hi * 1e-6), right, self.font(),
                            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter))]

    # -- the mouse --------------------------------------------------------------------
    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt API
        if self.stream is None:
            return
        notches = event.angleDelta().y() / 120
        if not notches:
            return
        lo, hi = self.view
        t = self.time_at(event.position().x())
        factor = ZOOM_STEP ** (-notches)
        self.set_view(t - (t - lo) * factor, t + (hi - t) * factor)
        event.accept()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton and self.stream is not None:
            self._drag = (event.position().x(), self.view)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt API
        if self._drag is not None:
            x0, (lo, hi) = self._drag
            dt = (event.position().x() - x0) / self.bar_rect().width() * (hi - lo)
            self.set_view(lo - dt, hi - dt)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt API
        self._drag = None

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.show_all()

    def tooltip_at(self, x: float) -> str:
        """What is under ``x``: the kernel or gap, and the NVML window with its reading."""
        s = self.stream
        if s is None:
            return self.toolTip()
        t = self.time_at(x)
        i = int(s.last_started(t))
        start = float(s.starts_us(max(i, 0)))
        if i >= 0 and t - start <= s.kernel_us:
            where = self.tr("kernel {i} of {n}: {start} to {end}").format(
                i=num(i + 1), n=num(s.timing.kernels), start=seconds_text(start * 1e-6),
                end=seconds_text((start + s.kernel_us) * 1e-6))
        else:
            where = self.tr("the gap after kernel {i}: no kernel runs").format(i=num(i + 1))
        k = int(t // s.period_us)
        if k < s.nvml_windows:
            reading = float(s.window_utilization(k, 1)[0])
            window = self.tr("NVML window {k}: reads {pct}").format(k=num(k + 1), pct=pct(reading))
        else:
            window = self.tr("NVML window {k}: the stream ends before it does").format(k=num(k + 1))
        w = self.bar_rect().width()
        column = 1 if self.kernels_in_view() < w else max(1, round(self.kernels_in_view() / w))
        decimated = "" if column <= 1 else "<br>" + self.tr(
            "Each pixel column covers about {n} kernels: its height is the share of its time a kernel runs.").format(
            n=num(column))
        return f"{where}<br>{window}{decimated}"


class StreamStrip(QWidget):
    """The strip above the counts plot: a title line, the timeline and the four readings side by side."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("stream_strip")
        self.stream: StreamResult | None = None
        self.title = FittingLabel(self)
        self.title.setObjectName("stream_title")
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.timeline = StreamTimeline(self)
        names = {
            "nvml_utilization": self.tr("NVML utilization"),
            "sm_active": self.tr("SM active"),
            "achieved_occupancy": self.tr("Occupancy"),
            "issue_slot_utilization": self.tr("Issue slots"),
        }
        tips = {
            "nvml_utilization": self.tr("NVML's “GPU utilization”: the share of time in which at least one kernel "
                                        "runs, whatever it does on the GPU."),
            "sm_active": self.tr("SM active (GPM SM_UTIL, DCGM): the share of SM-time with at least one warp "
                                 "resident on the SM."),
            "achieved_occupancy": self.tr("Achieved occupancy over the stream (GPM SM_OCCUPANCY): resident warps "
                                          "over all warp slots, averaged over the whole span, gaps included."),
            "issue_slot_utilization": self.tr("Issue slots used: warp-instructions issued over every scheduler's "
                                              "issue slots in the span, the work actually done."),
        }
        self.names: dict[str, QLabel] = {}
        self.meters: dict[str, Meter] = {}
        for key in FIGURES:
            label = QLabel(names[key], self)
            label.setObjectName(f"stream_{key}_name")
            label.setToolTip(tips[key])
            meter = Meter(COLORS[key], self)
            meter.setObjectName(f"stream_{key}")
            meter.setToolTip(tips[key])
            self.names[key], self.meters[key] = label, meter
        # each name beside its meter: the four in one line where the column has room, else two a line, else
        # one under the other (an 800 px screen: the strip never makes the window wider)
        self.readings = ReflowGrid([lambda n=n: self._readings(n) for n in (4, 2, 1)], self, h_spacing=6, v_spacing=2)
        self.readings.setObjectName("stream_readings")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.timeline)
        layout.addWidget(self.readings)
        self.setVisible(False)

    def _readings(self, per_line: int) -> Arrangement:
        cells = []
        for k, key in enumerate(FIGURES):
            row, col = divmod(k, per_line)
            cells += [Cell(self.names[key], row, 2 * col), Cell(self.meters[key], row, 2 * col + 1)]
        return Arrangement(cells, {2 * col + 1: 1 for col in range(per_line)})

    def set_run(self, run: SimRun | None) -> None:
        """Show the run's stream, or hide the strip when the scenario launches its kernel once."""
        self.show_stream(stream_of(run))

    def show_stream(self, stream: StreamResult | None) -> None:
        self.stream = stream
        self.timeline.set_stream(stream)
        if stream is None:
            self.setVisible(False)
            return
        s = stream.summary()
        kernels = counted(s["kernels"], self.tr("graph node|graph nodes") if s["graph"]
                          else self.tr("launch|launches"))
        gap = seconds_text(s["gap_us"] * 1e-6)
        sync = ""
        if s["sync_every"]:
            sync = " " + self.tr("· a {rt} host sync every {k}").format(
                rt=seconds_text(s["sync_gap_us"] * 1e-6), k=num(s["sync_every"]))
        span = seconds_text(s["span_us"] * 1e-6)
        period = seconds_text(s["nvml_period_ms"] * 1e-3)
        kernel = seconds_text(s["kernel_us"] * 1e-6)
        self.title.set_texts(
            self.tr("<b>Stream</b> — {kernels} of {kernel}, {gap} apart{sync} · {span} · NVML window {period}").format(
                kernels=kernels, kernel=kernel, gap=gap, sync=sync, span=span, period=period),
            self.tr("<b>Stream</b> — {kernels} of {kernel}, {gap} apart · {span}").format(
                kernels=kernels, kernel=kernel, gap=gap, span=span),
            self.tr("<b>Stream</b> — {kernels}").format(kernels=kernels))
        if s["nvml_windows"] == 0:
            window = self.tr("The stream is shorter than one NVML window ({period}): NVML is read over the "
                             "stream's span.").format(period=period)
        else:
            window = self.tr("{n} complete NVML windows of {period} read {lo} to {hi}.").format(
                n=num(s["nvml_windows"]), period=period, lo=pct(s["nvml_min"]), hi=pct(s["nvml_max"]))
        self.title.setToolTip(window + " " + self.tr(
            "The metrics panel reads one kernel over its own duration (100% by definition); this strip reads "
            "the stream, gaps included."))
        for key in FIGURES:
            self.meters[key].set_value(s[key], pct(s[key]))
        self.setVisible(True)

    def apply_theme(self, theme: Theme) -> None:
        self.timeline.apply_theme(theme)
        for meter in self.meters.values():
            meter.apply_theme(theme)
