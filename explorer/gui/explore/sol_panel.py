"""The Speed-of-Light panel: "What limits useful work right now?", one bar per throughput unit.

The source text ends on that question, and Nsight Compute answers it with its
Speed-of-Light section: how busy each unit is against its peak. Each row is one
of the simulator's units (``explorer.model.units``: issue slots, FP32, INT32, SFU,
Tensor Cores, LSU, L1, shared memory, L2, DRAM): a bar filled to the unit's share
of its peak in the unit window under the playback cursor, a tick at its share over
the whole run, a dashed line at the 60% of Nsight's rule, and both figures in
text. The whole run's bottleneck row is marked, with the simulator's own sentence
under the bars (``explorer.sim.bottleneck``; worded in the interface language by
``sol_texts``); the line above the bars names the cursor window's bottleneck by the
same rule (``SimRun.unit_windows``). The panel computes nothing: every
figure is the run's.

When the metrics column is too short for everything (a small window, presentation
mode at a projector's scale), the bars make way for a compact form that still lists
every unit with its figures ("Issue slots 48% (11%) · FP32 7% (5%) · …", the
window's bottleneck in bold), so no unit ever disappears from the panel; the two
sentences (the window's bottleneck above, the whole run's below) never make way:
they are what the panel says (issue 31 items 5 and 7). A lesson step decides when
the bars make way (``set_mode``): a step about this panel keeps them longest; any
other step lets them go first, so the figures the step cites stay.

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
from explorer.texts.numbers import num, pct, si
from explorer.gui.common.theme import LIGHT, Theme, restyle
from explorer.gui.common.widgets import SteadyLabel
from explorer.gui.workspace.run_data import SimRun
from explorer.gui.common.core_texts import unit_labels
from explorer.gui.explore.sol_texts import (bottleneck_head, bottleneck_text, short_labels,
                                           unit_meanings)
from explorer.gui.common.widgets import set_texts_long_short
from explorer.sim.bottleneck import threshold
from explorer.model.units import UNITS

DETAIL = "detail"  # as explore.metrics: how long a widget stays when the column is short
IDLE = 2  # the bars of units idle all run: with the captions (the compact line names them)
ROWS = 5  # the other bars: after the run's facts
FOCUS = 10  # ... while a lesson step points at this panel: the last details of the column to go
FOLDED = 1  # folded or away: the bars go first, before any note of the other boxes
# open: no lesson; focus: a lesson step about this panel (its bars stay longest); folded (a step about it and the
# whole-run figures) and away (a step about something else): the bars go first. The sentences and every unit's
# figures (a bar, or the compact line) stay in every mode.
MODES = ("open", "focus", "folded", "away")
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
        self.now_line = SteadyLabel(self, lines=1)  # the cursor window's bottleneck (one line in its short form)
        self.now_line.setObjectName("sol_now")
        self.now_line.setTextFormat(Qt.TextFormat.PlainText)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(1, 1)
        head_now = QLabel(self.tr("now"), self)
        head_run = QLabel(self.tr("run"), self)
        for col, head in ((2, head_now), (3, head_run)):
            head.setProperty("role", "muted")
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
        self.compact = QLabel(self)  # every unit in a few lines, while the bars make way
        self.compact.setObjectName("sol_compact")
        self.compact.setWordWrap(True)
        self.compact.setTextFormat(Qt.TextFormat.RichText)
        self.compact.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.compact.setToolTip(self.tr("Each unit's share of its peak in the window under the cursor, and over "
                                        "the whole run in brackets; the window's bottleneck in bold. The bars "
                                        "come back when the column has room."))
        self.compact.hide()
        self._compact_for: list[str] = []
        for w in (self.now_line, self.why, self.compact):
            w.setProperty("essential", True)  # never made way for: the layout check says so if one is hidden
        layout = QVBoxLayout(self)
        layout.setSpacing(3)
        layout.addWidget(self.now_line)
        layout.addWidget(self.why)  # both sentences first: a column that must scroll scrolls the bars, not them
        layout.addLayout(grid)
        layout.addWidget(self.compact)
        self.heads = (head_now, head_run)
        self.mode = "open"
        self.idle: dict[str, bool] = {}  # units idle all run: their bars make way first
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
            self.idle[unit] = max(share, float(busiest[i])) < 0.005  # under 0.5% in every window: makes way first
            self.bars[unit].set_run(share)
            self.run_texts[unit].setText(pct(share, 0))
            name = self.names[unit]
            role = "limiter" if unit == self.bottleneck else ""
            if name.property("role") != role:
                name.setProperty("role", role)
                restyle(name)
            tip = self.tr("<b>{name}</b>: {meaning}<br>Peak: {peak} — {source}<br>Whole run: {share} of the peak "
                          "({achieved}).").format(
                name=labels[unit], meaning=meanings[unit], peak=si(t["peak"], t["units"]),
                source=t.get("source", ""), share=pct(share, 0), achieved=si(t["achieved"], t["units"]))
            hits = self._hits_text(unit, s.get("caches") or {})
            if hits:
                tip += "<br>" + hits
            for w in (name, self.bars[unit], self.now_texts[unit], self.run_texts[unit]):
                w.setToolTip(tip)
        self._rank()
        self.compact.setText(self.compact_text())
        set_texts_long_short(self.why, self.tr("Whole run: {sentence}").format(sentence=bottleneck_text(s)),
                             self.tr("Whole run: {sentence}.").format(sentence=bottleneck_head(s)))
        self.why.setToolTip(self.tr("The bottleneck is the unit with the highest share of its peak when that share "
                                    "is at least {limit} (Nsight Compute's Speed-of-Light rule); below it, no unit "
                                    "is near its peak: not enough independent work is in flight (latency).").format(
            limit=pct(threshold(), 0)))

    def _hits_text(self, unit: str, caches: dict) -> str:
        """An L1 or L2 row's sector hit rate over the run, the Memory tab's figure (``SimResult.cache_counters``):
        the bar says how busy the level was, this how much of what it was asked for it already held."""
        key = {"l1": "l1tex__t", "l2": "lts__t"}.get(unit)
        if key is None or not caches.get("by_address"):
            return ""
        n, rate = caches.get(f"{key}_sectors", 0), caches.get(f"{key}_sector_hit_rate")
        if not n or rate is None:
            return ""
        return self.tr("Sectors hit: {rate} of {n} looked up (from the addresses the warps touched).").format(
            rate=pct(rate / 100.0, 0), n=num(int(n)))

    def set_mode(self, mode: str) -> None:
        """How the panel makes way when the metrics column is short (a lesson step decides, see MODES)."""
        self.mode = mode if mode in MODES else "open"
        self._rank()

    @property
    def expanded(self) -> bool:
        return self.mode in ("open", "focus")

    def _rank(self) -> None:
        kept = {"open": ROWS, "focus": FOCUS}.get(self.mode, FOLDED)
        for unit in UNITS:
            rank = min(IDLE, kept) if self.idle.get(unit) else kept
            for w in (self.names[unit], self.bars[unit], self.now_texts[unit], self.run_texts[unit]):
                w.setProperty(DETAIL, rank)
                w.setProperty("detail_group", f"sol_{unit}")  # a row goes whole (a cited figure keeps all of it)
        for w in self.heads:
            w.setProperty(DETAIL, kept)  # the columns' heads go with the last bars (the compact line says its own)
        # the compact line lists every unit whose bar made way; a lesson step about something else lets it go
        # too (with the bars, first), so the figures that step cites stay: the two sentences stay in every mode
        away = self.mode == "away"
        self.compact.setProperty(DETAIL, FOLDED if away else None)
        self.compact.setProperty("essential", not away)
        self.compact.setText(self.compact_text())

    def hidden_units(self) -> list[str]:
        """The units whose bars made way (the compact line lists them)."""
        return [u for u in UNITS if self.bars[u].isHidden()]

    def sync_compact(self) -> None:
        """The compact line stands in for the bars that made way (``explore.metrics`` hides them)."""
        hidden = self.hidden_units()
        if hidden != self._compact_for:
            self._compact_for = hidden
            self.compact.setText(self.compact_text())
        self.compact.setVisible(bool(hidden) and self.run is not None and not self.compact.property("made_way"))

    def compact_text(self) -> str:
        """The units whose bars made way, each with its share now and (over the run), the window's bottleneck
        in bold, units idle now and all run named together."""
        run = self.run
        if run is None:
            return ""
        labels = short_labels()  # the strip's short names: the line stays short
        window = max(self.at_window, 0)
        shares = run.unit_windows.shares[window]
        top = int(run.unit_windows.bottleneck[window])
        through = run.summary["throughput"]
        items, idle = [], []
        hidden = set(self.hidden_units())
        for i, unit in enumerate(UNITS):
            if unit not in hidden:
                continue
            now, whole = pct(float(shares[i]), 0), pct(through[unit]["pct_of_peak"] / 100.0, 0)
            if now == whole == pct(0.0, 0) and i != top:
                idle.append(labels[unit])  # idle now and all run: named together, once
                continue
            item = self.tr("{unit} {now} ({run})").format(unit=labels[unit], now=now, run=whole)
            item = item.replace(" ", "&nbsp;")  # one unit never breaks across lines
            items.append(f"<b>{item}</b>" if i == top else item)
        if idle:
            items.append(self.tr("{units}: {share}").format(units=", ".join(idle), share=pct(0.0, 0)))
        return " · ".join(items)

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
        self.compact.setText(self.compact_text())
        wc = windows.cycles
        first, last = window * wc, min((window + 1) * wc, run.cycles) - 1
        labels = unit_labels()
        if top >= 0:
            text = self.tr("Right now (cycles {a}–{b}): {unit} at {share} of its peak is the limit.").format(
                a=num(first), b=num(last), unit=labels[UNITS[top]], share=pct(float(shares[top]), 0))
            short = self.tr("Now: {unit} at {share} of its peak is the limit.").format(
                unit=labels[UNITS[top]], share=pct(float(shares[top]), 0))
        else:
            text = self.tr("Right now (cycles {a}–{b}): no unit at {limit} of its peak or more — not enough "
                           "work in flight (latency).").format(a=num(first), b=num(last), limit=pct(threshold(), 0))
            short = self.tr("Now: no unit at {limit} of its peak (latency).").format(limit=pct(threshold(), 0))
        set_texts_long_short(self.now_line, text, short)

    # -- look -------------------------------------------------------------------------
    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the text: the bars follow the rows' height."""
        height = max(10, QFontMetrics(self.font()).height() - 4)
        for bar in self.bars.values():
            bar.setFixedHeight(height)

    def apply_theme(self, theme: Theme = LIGHT) -> None:
        for bar in self.bars.values():
            bar.apply_theme(theme)
