"""The differences of A and B in one table: a row each for A, B and "B vs A", a column per figure.

The figures are :func:`explorer.gui.compare.differences.differences` of the two
summaries; this module only words them: shares as percentages and their changes in
percentage points, counts and times with their ratio ("B 1.25× faster"), the
bottleneck by the unit's name. Labels, not a ``QTableWidget``: they wrap, follow the
theme and scale with presentation mode like every other text in the window.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QWidget

from explorer.gui.common.core_texts import limiter_names, unit_labels
from explorer.texts.numbers import bandwidth_text, num, pct
from explorer.gui.common.state_colors import short_names
from explorer.gui.common.state_order import NAMES
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.compare.differences import Bandwidth, Bottleneck, Difference, differences, speedup

# table columns: the differences they show (limiters join the theoretical occupancy's column)
COLUMNS = ("cycles", "time_us", "theoretical_occupancy", "achieved_occupancy", "issue_slot_utilization",
           "dram_bandwidth", "bottleneck")
MINUS = "\u2212"


def css_color(text: str) -> QColor:
    """A theme colour written for style sheets ("#D55E00", "rgba(213, 94, 0, 40)") as a QColor."""
    text = text.strip()
    if text.startswith("rgba(") and text.endswith(")"):
        r, g, b, a = (int(float(v)) for v in text[5:-1].split(","))
        return QColor(r, g, b, a)
    return QColor(text)


def signed(value: float, decimals: int = 0) -> str:
    """+1,234 / −1,234 / 0, in the interface's number style (a real minus sign)."""
    text = num(abs(value), decimals)
    if text == num(0.0, decimals):
        return text
    return ("+" if value > 0 else MINUS) + text


def ratio_text(ratio: float) -> str:
    return "×" + num(ratio, 2)


def speed_text(a: dict, b: dict) -> str:
    """The words for B's speed against A's ("B 1.25× faster", "B 1.25× slower", "same"), for the table and
    the status bar."""
    translate = QCoreApplication.translate
    faster = speedup(a, b)
    if faster is None or a["kernel_time_us"] == b["kernel_time_us"]:
        return translate("CompareTable", "same")
    if faster >= 1:
        return translate("CompareTable", "B {x}× faster").format(x=num(faster, 2))
    return translate("CompareTable", "B {x}× slower").format(x=num(1 / faster, 2))


class CompareTable(QFrame):
    """Header, A, B, and how B differs from A; :meth:`show_runs` fills it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compare_table")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(6, 4, 6, 4)
        self.grid.setHorizontalSpacing(12)
        self.grid.setVerticalSpacing(2)
        self.rows: list[Difference] = []
        self.highlight = css_color(LIGHT.limiter)
        self.cells: dict[tuple[str, str], QLabel] = {}  # (row "a" | "b" | "change", column) -> label
        bold = QFont(self.font())
        bold.setBold(True)
        heads = self._heads()
        for col, key in enumerate(COLUMNS, start=1):
            name, tip = heads[key]
            head = self._label(name, bold)
            head.setObjectName(f"compare_head_{key}")
            head.setToolTip(tip)
            self.grid.addWidget(head, 0, col)
            self.grid.setColumnStretch(col, 1)
        row_names = {"a": self.tr("A (pinned)"), "b": self.tr("B (current)"), "change": self.tr("B vs A")}
        row_tips = {"a": self.tr("The run pinned as A."), "b": self.tr("The run on screen in the Explorer."),
                    "change": self.tr("How B differs from A: counts and times with their ratio, shares in "
                                      "percentage points (pp).")}
        for r, row in enumerate(("a", "b", "change"), start=1):
            name = self._label(row_names[row], bold)
            name.setWordWrap(False)
            name.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # never narrower
            name.setToolTip(row_tips[row])
            self.grid.addWidget(name, r, 0)
            for col, key in enumerate(COLUMNS, start=1):
                cell = self._label("–")
                cell.setObjectName(f"compare_{row}_{key}")
                cell.setToolTip(heads[key][1])
                self.grid.addWidget(cell, r, col)
                self.cells[(row, key)] = cell
        self.fit_columns()

    # -- widths: a column is never narrower than its longest word (words do not break) --------------
    def fit_columns(self) -> None:
        for col, key in enumerate(COLUMNS, start=1):
            labels = [self.grid.itemAtPosition(0, col).widget()]
            labels += [self.cells[(row, key)] for row in ("a", "b", "change")]
            widest = max((label.fontMetrics().horizontalAdvance(word) for label in labels
                          for word in label.text().split()), default=0)
            self.grid.setColumnMinimumWidth(col, widest + 6)

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the fonts (``lessons.display_scale`` calls this)."""
        self.fit_columns()

    def _label(self, text: str, font: QFont | None = None) -> QLabel:
        label = QLabel(text, self)
        label.setWordWrap(True)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setTextFormat(Qt.TextFormat.PlainText)
        if font is not None:
            label.setFont(font)
        return label

    def _heads(self) -> dict[str, tuple[str, str]]:
        return {
            "cycles": (self.tr("Cycles"), self.tr("SM clock cycles from launch until the last warp finished and its stores completed.")),
            "time_us": (self.tr("Kernel time"), self.tr("The cycles at the GPU's boost clock, in microseconds.")),
            "theoretical_occupancy": (self.tr("Theoretical occupancy"), self.tr(
                "The most warps an SM can hold for this launch ÷ its warp slots, and the resource that limits it.")),
            "achieved_occupancy": (self.tr("Achieved occupancy"), self.tr(
                "Resident warps averaged over the cycles an SM was active ÷ its warp slots.")),
            "issue_slot_utilization": (self.tr("Issue slots used"), self.tr(
                "Instructions issued ÷ (cycles × SMs × schedulers): the share of issue capacity that did work.")),
            "dram_bandwidth": (self.tr("DRAM bandwidth"), self.tr(
                "Bytes moved to and from device memory ÷ kernel time · its share of the GPU's peak.")),
            "bottleneck": (self.tr("Bottleneck"), self.tr(
                "What limits the run: the unit busiest against its peak, from the simulator's throughput units; "
                "without them, estimated: issue slots or DRAM when it reaches 60% of its peak, else latency, with "
                "the state most warps wait in.")),
        }

    # -- filling -----------------------------------------------------------------------
    def clear(self) -> None:
        self.rows = []
        for (row, _key), cell in self.cells.items():
            cell.setText("–")
            self._mark(cell, False)

    def show_runs(self, a, b) -> None:
        """The table of runs ``a`` and ``b`` (``SimRun``); both must be there."""
        peaks = tuple(run.result.scenario.gpu.memory_bandwidth_gbs for run in (a, b))
        self.rows = differences(a.summary, b.summary, peaks)
        by_key = {d.key: d for d in self.rows}
        limiters = by_key["limiters"]
        for key in COLUMNS:
            d = by_key[key]
            self.cells[("a", key)].setText(self._value(d, d.a, limiters.a))
            self.cells[("b", key)].setText(self._value(d, d.b, limiters.b))
            change = self.cells[("change", key)]
            changed = d.changed or (key == "theoretical_occupancy" and limiters.changed)
            change.setText(self._change(d, limiters, a.summary, b.summary))
            self._mark(change, changed)
        self.fit_columns()

    def _mark(self, cell: QLabel, changed: bool) -> None:
        """A changed figure stands out: bold on the theme's limiter highlight. Font and palette, not a style-sheet
        role: re-polishing would put back the font the label had when first polished (presentation mode scales
        the font)."""
        font = QFont(cell.font())
        font.setBold(changed)
        cell.setFont(font)
        cell.setProperty("changed", changed)
        cell.setAutoFillBackground(changed)
        self._paint(cell)

    def _paint(self, cell: QLabel) -> None:
        palette = cell.palette()
        palette.setColor(QPalette.ColorRole.Window, self.highlight)
        cell.setPalette(palette)

    def apply_theme(self, theme: Theme) -> None:
        self.highlight = css_color(theme.limiter)
        for cell in self.cells.values():
            self._paint(cell)

    def _value(self, d: Difference, value, limiters: tuple) -> str:
        key = d.key
        if key == "cycles":
            return num(int(value))
        if key == "time_us":
            return self.tr("{us} µs").format(us=num(value, 2))
        if key == "theoretical_occupancy":
            names = limiter_names()
            limit = ", ".join(names.get(k, k) for k in limiters) or "–"
            return self.tr("{pct} ({limit})").format(pct=pct(value), limit=limit)
        if key in ("achieved_occupancy", "issue_slot_utilization"):
            return pct(value)
        if key == "dram_bandwidth":
            return self._bandwidth(value)
        return self._bottleneck(value)

    def _bandwidth(self, bw: Bandwidth) -> str:
        if bw.share is None:
            return bandwidth_text(bw.gbs)
        return self.tr("{bw} · {pct}").format(bw=bandwidth_text(bw.gbs), pct=pct(bw.share, 0))

    def _bottleneck(self, b: Bottleneck) -> str:
        name = unit_labels().get(b.unit, b.unit)
        if b.unit == "latency":
            if b.waiting_for is None:
                return name
            state = short_names()[NAMES.index(b.waiting_for)] if b.waiting_for in NAMES else b.waiting_for
            return self.tr("{unit} ({state})").format(unit=name, state=state)
        return self.tr("{unit}: {pct} of peak").format(unit=name, pct=pct(b.share, 0))

    def _change(self, d: Difference, limiters: Difference, a: dict, b: dict) -> str:
        key = d.key
        if key == "bottleneck":
            return self.tr("changed") if d.changed else self.tr("same")
        if key == "time_us":
            return speed_text(a, b)
        if key in ("theoretical_occupancy", "achieved_occupancy", "issue_slot_utilization"):
            text = self.tr("{pp} pp").format(pp=signed(100 * d.delta, 1)) if d.changed else self.tr("same")
            if key == "theoretical_occupancy" and limiters.changed:
                text += " · " + self.tr("other limiter")
            return text
        if not d.changed:
            return self.tr("same")
        if key == "dram_bandwidth":
            delta = ("+" if d.delta > 0 else MINUS) + bandwidth_text(abs(d.delta))
        else:
            delta = signed(d.delta)
        if d.ratio is None:
            return delta
        return self.tr("{delta} ({ratio})").format(delta=delta, ratio=ratio_text(d.ratio))
