"""The Speed-of-Light panel: "What limits useful work right now?", one bar per throughput unit.

The source text ends on that question, and Nsight Compute answers it with its
Speed-of-Light section: how busy each unit is against its peak. Each row is one
of the simulator's units (``explorer.sim.units``: issue slots, FP32, INT32, SFU,
Tensor Cores, LSU, L1, shared memory, L2, DRAM): a bar filled to the unit's share
of its peak in the unit window under the playback cursor, a tick at its share over
the whole run, a dashed line at the 60% of Nsight's rule, and both figures in
text. The whole run's bottleneck row is marked, with the simulator's own sentence
under the bars (``explorer.sim.bottleneck``; worded in the interface language by
``sol_texts``); the line above the bars names the cursor window's bottleneck by the
same rule (``SimRun.unit_windows``). The panel computes nothing: every
figure is the run's.

When the metrics column is too short for everything (a small window, presentation
mode at a projector's scale), the rows of units idle for the whole run make way
first, then those that stayed low (``explore.metrics``: details by rank), so the
units that did the work, the bottleneck and the run's figures stay. A lesson step
decides how it makes way (``set_mode``): a step about this panel keeps its rows; a
step about it and the whole-run figures folds it (the rows go first, the title and
the sentence stay a while); a step about something else lets all of it go first,
so the figures the step cites stay.

Per playback frame only the bars and the "now" figures change, and only when the
cursor enters another window; the figures' widths are fixed up front, so new
numbers never re-lay out the column.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QSizePolicy, QVBoxLayout, QWidget

from explorer.gui.common import palette as oi
from explorer.gui.common.bars import PaintedBar
from explorer.gui.common.numbers import num, pct
from explorer.gui.common.theme import LIGHT, Theme, restyle
from explorer.gui.common.widgets import SteadyLabel
from explorer.gui.explore.run_data import SimRun
from explorer.gui.explore.sol_texts import bottleneck_text, rate_text, unit_labels, unit_meanings
from explorer.sim.bottleneck import threshold
from explorer.sim.units import UNITS

DETAIL = "detail"  # as explore.metrics: how long a widget stays when the column is short
IDLE = 3  # the rows of units idle all run: after the captions, before the run's figures and sentences
FOLDED = 1  # folded: the rows go first, before any note of the other boxes
# open: the panel keeps its rows (a lesson step about it, or no lesson); folded: the rows go first, the title
# and the sentence stay a while (a step about it and the whole-run figures); away: all of it goes first
MODES = ("open", "folded", "away")
MINOR = 6  # units that stayed low (under 10% of their peak over the run, 25% in any window): after the run sentence
NOW_COLOR = oi.BLUE  # the cursor window's share
BOTTLENECK_COLOR = oi.VERMILLION  # the window's bottleneck unit (its row is named in text too)


class SolBar(PaintedBar):
    """A unit's share of its peak: filled to the cursor window's share, a tick at the whole run's."""

    HINT_WIDTH = 120

    def __init__(self, parent: QWidget | None = None, height: int = 14):
        super().__init__(parent, height)
        self.now = 0.0
        self.run = 0.0
        self.limit = threshold()
        self.hot = False  # this window's bottleneck

    def set_now(self, fraction: float, hot: bool) -> None:
        fraction = max(0.0, min(1.0, float(fraction)))
        if (fraction, hot) != (self.now, self.hot):
            self.now, self.hot = fraction, hot
            self.update()

    def set_run(self, fraction: float) -> None:
        self.run = max(0.0, min(1.0, float(fraction)))
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        r = self.rect().adjusted(0, 0, -1, -1)
        p.fillRect(r, QColor(self.theme.base))
        inner = r.adjusted(1, 1, 0, 0)
        fill = QRect(inner.x(), inner.y(), round(inner.width() * self.now), inner.height())
        p.fillRect(fill, QColor(BOTTLENECK_COLOR if self.hot else NOW_COLOR))
        x = inner.x() + round(inner.width() * self.limit)
        pen = QPen(QColor(self.theme.mid), 1, Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.drawLine(x, r.top(), x, r.bottom())
        x = inner.x() + round(inner.width() * self.run)  # the whole run: a tick across the bar
        p.setPen(QPen(QColor(self.theme.text), 3))
        p.drawLine(max(x, inner.x() + 1), r.top(), max(x, inner.x() + 1), r.bottom())
        self.draw_frame(p)
        p.end()


class SolPanel(QGroupBox):
    """Every unit's share of its peak, now and over the run, and the bottleneck in one sentence."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sol_panel")
        self.setTitle(self.tr("What limits useful work right now?"))
        labels = unit_labels()
        self.now_line = SteadyLabel(self)  # the cursor window's bottleneck
        self.now_line.setObjectName("sol_now")
        self.now_line.setTextFormat(Qt.TextFormat.PlainText)
        self.now_line.setProperty(DETAIL, 6)  # with the "right now" heading: the bars' "now" column still says it
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(1, 1)
        head_now = QLabel(self.tr("now"), self)
        head_run = QLabel(self.tr("run"), self)
        for col, head in ((2, head_now), (3, head_run)):
            head.setProperty("role", "muted")
            head.setProperty(DETAIL, 2)
            head.setAlignment(Qt.AlignmentFlag.AlignRight)
            grid.addWidget(head, 0, col)
        head_now.setToolTip(self.tr("Share of the unit's peak in the time window under the playback cursor."))
        head_run.setToolTip(self.tr("Share of the unit's peak over the whole run (the tick in the bar)."))
        digits = QFontMetrics(self.font()).horizontalAdvance("100%") + 6
        self.names: dict[str, QLabel] = {}
        self.bars: dict[str, SolBar] = {}
        self.now_texts: dict[str, QLabel] = {}
        self.run_texts: dict[str, QLabel] = {}
        for row, unit in enumerate(UNITS, start=1):
            name = QLabel(labels[unit], self)
            name.setObjectName(f"sol_name_{unit}")
            name.setWordWrap(True)  # "Разделяемая память" on two lines in a narrow column (an 800 px screen)
            bar = SolBar(self, height=max(10, QFontMetrics(self.font()).height() - 4))
            bar.setObjectName(f"sol_bar_{unit}")
            now, run = QLabel("–", self), QLabel("–", self)
            for w in (now, run):
                w.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                w.setMinimumWidth(digits)
            now.setObjectName(f"sol_now_{unit}")
            run.setObjectName(f"sol_run_{unit}")
            grid.addWidget(name, row, 0)
            grid.addWidget(bar, row, 1)
            grid.addWidget(now, row, 2)
            grid.addWidget(run, row, 3)
            self.names[unit], self.bars[unit], self.now_texts[unit], self.run_texts[unit] = name, bar, now, run
        self.why = QLabel(self)  # the whole run's bottleneck, the simulator's sentence
        self.why.setObjectName("sol_why")
        self.why.setWordWrap(True)
        self.why.setTextFormat(Qt.TextFormat.PlainText)
        self.why.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.why.setProperty(DETAIL, 7)
        layout = QVBoxLayout(self)
        layout.setSpacing(3)
        layout.addWidget(self.now_line)
        layout.addLayout(grid)
        layout.addWidget(self.why)
        self.heads = (head_now, head_run)
        self.ranks: dict[str, int | None] = {}  # unit -> its rows' rank in the column (idle, low, or kept)
        self.mode = "open"
        self.run: SimRun | None = None
        self.at_window = -1
        self.bottleneck = ""  # the whole run's: a unit name or "latency"

    # -- data -------------------------------------------------------------------------
    def set_run(self, run: SimRun) -> None:
        self.run = run
        self.at_window = -1
        s = run.summary
        through = s["throughput"]
        self.bottleneck = s["bottleneck"]["unit"]
        labels, meanings = unit_labels(), unit_meanings()
        busiest = run.unit_windows.shares.max(axis=0)
        for i, unit in enumerate(UNITS):
            t = through[unit]
            share = t["pct_of_peak"] / 100.0
            # a unit idle all run (under 0.5% in every window) is the first of the panel to make way for the rest
            most = max(share, float(busiest[i]))
            self.ranks[unit] = IDLE if most < 0.005 else MINOR if share < 0.10 and most < 0.25 else None
            self.bars[unit].set_run(share)
            self.run_texts[unit].setText(pct(share, 0))
            name = self.names[unit]
            role = "limiter" if unit == self.bottleneck else ""
            if name.property("role") != role:
                name.setProperty("role", role)
                restyle(name)
            tip = self.tr("<b>{name}</b>: {meaning}<br>Peak: {peak} — {source}<br>Whole run: {share} of the peak "
                          "({achieved}).").format(
                name=labels[unit], meaning=meanings[unit], peak=rate_text(t["peak"], t["units"]),
                source=t.get("source", ""), share=pct(share, 0), achieved=rate_text(t["achieved"], t["units"]))
            for w in (name, self.bars[unit], self.now_texts[unit], self.run_texts[unit]):
                w.setToolTip(tip)
        self._rank()
        self.why.setText(self.tr("Whole run: {sentence}").format(sentence=bottleneck_text(s)))
        self.why.setToolTip(self.tr("The bottleneck is the unit with the highest share of its peak when that share "
                                    "is at least {limit} (Nsight Compute's Speed-of-Light rule); below it, no unit "
                                    "is near its peak: not enough independent work is in flight (latency).").format(
            limit=pct(threshold(), 0)))

    def set_mode(self, mode: str) -> None:
        """How the panel makes way when the metrics column is short (a lesson step decides, see MODES)."""
        self.mode = mode if mode in MODES else "open"
        self._rank()

    @property
    def expanded(self) -> bool:
        return self.mode == "open"

    def _rank(self) -> None:
        open_ = self.mode == "open"
        for unit in UNITS:
            rank = self.ranks.get(unit) if open_ else FOLDED
            for w in (self.names[unit], self.bars[unit], self.now_texts[unit], self.run_texts[unit]):
                w.setProperty(DETAIL, rank)
        for w in self.heads:
            w.setProperty(DETAIL, 2 if open_ else FOLDED)
        self.now_line.setProperty(DETAIL, 6 if open_ else FOLDED)
        self.why.setProperty(DETAIL, 7 if open_ else 4)
        # away: all of it goes first; folded: the title too, late (before the counts' breakdown), rather than
        # push the "right now" counts out of a column that has no room left
        self.setProperty(DETAIL, {"away": FOLDED, "folded": 8}.get(self.mode))

    def set_cycle(self, cycle: int) -> None:
        """The cursor moved: new figures only when it entered another unit window."""
        run = self.run
        if run is None:
            return
        window = run.unit_window(cycle)
        if window == self.at_window:
            return
        self.at_window = window
        windows = run.unit_windows
        shares = windows.shares[window]
        top = int(windows.bottleneck[window])
        for i, unit in enumerate(UNITS):
            share = float(shares[i])
            self.bars[unit].set_now(share, i == top)
            self.now_texts[unit].setText(pct(share, 0))
        wc = windows.cycles
        first, last = window * wc, min((window + 1) * wc, run.cycles) - 1
        labels = unit_labels()
        if top >= 0:
            text = self.tr("Right now (cycles {a}–{b}): {unit} at {share} of its peak is the limit.").format(
                a=num(first), b=num(last), unit=labels[UNITS[top]], share=pct(float(shares[top]), 0))
        else:
            text = self.tr("Right now (cycles {a}–{b}): no unit at {limit} of its peak or more — not enough "
                           "work in flight (latency).").format(a=num(first), b=num(last), limit=pct(threshold(), 0))
        self.now_line.setText(text)

    # -- look -------------------------------------------------------------------------
    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the text: the bars follow the rows' height."""
        height = max(10, QFontMetrics(self.font()).height() - 4)
        for bar in self.bars.values():
            bar.setFixedHeight(height)

    def apply_theme(self, theme: Theme = LIGHT) -> None:
        for bar in self.bars.values():
            bar.apply_theme(theme)
