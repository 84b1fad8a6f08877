"""The listing as a table: one row per SASS instruction, its stall counts, the warp's current one marked.

A plain ``QAbstractTableModel`` over :class:`~explorer.gui.sass.program_data.ProgramData`
with its own row order (program order, or hottest first: :meth:`ListingModel.sort`),
so sorting is one ``layoutChanged`` and moving the highlight during playback is two
``dataChanged`` signals for the old and the new row: nothing is laid out again per
frame. The stall column is drawn by :class:`StallBarDelegate` (a stacked bar of the
row's warp-cycles by state, the share of the whole run in its length); its numbers are in
the tooltip and the next column names the top stall, so colour is never the only carrier.
The Lanes column is each instruction's average active lanes per executed
warp-instruction; the view hides it for a run whose every instruction ran with 32
(:meth:`ListingModel.has_partial_rows`). Instrumentation (the generated kernel's %smid/%globaltimer/clock64 recording) and
instructions no warp executes are drawn dimmed.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from explorer.texts.numbers import num, pct
from explorer.gui.common.state_colors import display_names, meanings, short_names, state_color
from explorer.gui.common.state_order import DISPLAY_ORDER, EMPTY
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.sass.program_data import ProgramData
from explorer.gui.sass.texts import latency_text, unit_meaning

# the bar (and the lanes, where a warp diverged) before the text: a narrow view still shows them
PC, BAR, LANES, TEXT, CYCLES, TOP, UNIT, LATENCY, HITS = range(9)
COLUMNS = 9
MARK = "▶"  # the selected warp's next instruction: a glyph as well as a colour
STATES_ROLE = Qt.ItemDataRole.UserRole + 1  # BAR: (counts per state, the run's hottest row's total)


def code_font(point_size: float = 0.0) -> QFont:
    """The system's fixed-pitch font (SASS and CUDA), at ``point_size`` when given."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if point_size > 0:
        font.setPointSizeF(point_size)
    return font


translate = QCoreApplication.translate


class ListingModel(QAbstractTableModel):
    """The rows of one program; ``order[k]`` is the listing row shown at table row ``k``."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.data_: ProgramData | None = None
        self.order: list[int] = []
        self.position: dict[int, int] = {}  # listing row -> table row
        self.current: int | None = None  # listing row of the selected warp's next instruction
        self.sort_column, self.sort_order = PC, Qt.SortOrder.AscendingOrder
        self.theme: Theme = LIGHT
        self._max_total = 1
        self.set_font(QFont())

    def set_font(self, font: QFont) -> None:
        """The code columns in the fixed-pitch font at the table's size (presentation mode scales it)."""
        self._font = code_font(font.pointSizeF())
        self._bold = QFont(self._font)
        self._bold.setBold(True)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, COLUMNS - 1))

    # -- data ---------------------------------------------------------------------------
    def set_data(self, data: ProgramData | None) -> None:
        self.beginResetModel()
        self.data_ = data
        self.current = None
        self._max_total = max(int(data.totals.max(initial=0)), 1) if data is not None else 1
        self._apply_order()
        self.endResetModel()

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, COLUMNS - 1))

    def set_current(self, row: int | None) -> None:
        """Mark listing row ``row`` as the warp's next instruction: repaints two rows, lays out nothing."""
        if row == self.current:
            return
        old, self.current = self.current, row
        for r in (old, row):
            k = self.position.get(r) if r is not None else None
            if k is not None:
                self.dataChanged.emit(self.index(k, 0), self.index(k, COLUMNS - 1))

    def has_partial_rows(self) -> bool:
        """Whether some instruction ran with fewer than 32 active lanes on average (a diverged warp's)."""
        d = self.data_
        if d is None or d.executions is None:
            return False
        ran = d.executions > 0
        return bool((d.lanes[ran] < 32 * d.executions[ran]).any())

    def has_hit_rates(self) -> bool:
        """Whether some instruction looked up sectors by address (the column is empty otherwise)."""
        return self.data_ is not None and self.data_.sectors is not None

    def table_row(self, listing_row: int) -> int | None:
        return self.position.get(listing_row)

    def listing_row(self, table_row: int) -> int | None:
        return self.order[table_row] if 0 <= table_row < len(self.order) else None

    # -- order --------------------------------------------------------------------------
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:  # noqa: D401 - Qt API
        self.layoutAboutToBeChanged.emit()
        self.sort_column, self.sort_order = column, order
        self._apply_order()
        self.layoutChanged.emit()

    @property
    def hottest_first(self) -> bool:
        return self.sort_column == CYCLES and self.sort_order == Qt.SortOrder.DescendingOrder

    def _apply_order(self) -> None:
        d = self.data_
        if d is None:
            self.order, self.position = [], {}
            return
        rows = d.program.listing
        if self.sort_column == CYCLES:
            order = d.hottest_first().tolist()
            if self.sort_order == Qt.SortOrder.AscendingOrder:
                order = order[::-1]
        else:
            key = {
                TEXT: lambda r: rows[r].text, UNIT: lambda r: rows[r].unit,
                LATENCY: lambda r: -1 if rows[r].latency is None else rows[r].latency,
                TOP: lambda r: (d.top_stall(r) or (-1, 0.0))[1],
                BAR: lambda r: int(d.totals[r]),
                LANES: lambda r: d.average_lanes(r) if d.average_lanes(r) is not None else -1.0,
                HITS: lambda r: tuple(-1.0 if v is None else v for v in (d.hit_rates(r) or (None, None))),
            }.get(self.sort_column, lambda r: r)
            order = sorted(range(d.rows), key=lambda r: (key(r), r),
                           reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        self.order = [int(r) for r in order]
        self.position = {r: k for k, r in enumerate(self.order)}

    # -- Qt model -------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 - Qt API
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                PC: translate("SassListing", "PC"),
                TEXT: translate("SassListing", "Instruction"),
                CYCLES: translate("SassListing", "Warp-cycles"),
                BAR: translate("SassListing", "States"),
                TOP: translate("SassListing", "Top stall"),
                UNIT: translate("SassListing", "Unit"),
                LATENCY: translate("SassListing", "Latency"),
                LANES: translate("SassListing", "Lanes"),
                HITS: translate("SassListing", "L1 / L2 hits"),
            }[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                PC: translate("SassListing",
                              "The instruction's address in the function (hexadecimal). ▶ marks the selected warp's "
                              "next instruction at the cursor."),
                TEXT: translate("SassListing", "The SASS instruction as nvdisasm prints it."),
                CYCLES: translate("SassListing",
                                  "Warp-cycles the simulated warps spent with this instruction next (every state but "
                                  "an empty slot), over the whole run: the hottest instructions are where time goes."),
                BAR: translate("SassListing",
                               "Those warp-cycles by warp state; the bar's length is relative to the hottest "
                               "instruction."),
                TOP: translate("SassListing",
                               "The state, other than issuing, that held warps longest at this instruction, and its "
                               "share."),
                UNIT: translate("SassListing", "The pipe the instruction is issued to (Nsight Compute's names)."),
                LATENCY: translate("SassListing",
                                   "Cycles until a dependent instruction may issue (memory: decided by the memory "
                                   "system)."),
                LANES: translate("SassListing",
                                 "Active lanes per warp-instruction that executed it, of 32, over the whole run "
                                 "(Nsight Compute's average active threads per warp): below 32 where warps diverged "
                                 "or some of their threads had exited."),
                HITS: translate("SassListing",
                                "Of the 32-byte sectors this instruction's accesses looked up, the share that hit in "
                                "L1 and in L2 over the whole run (Nsight Compute's per-instruction sector hit rates), "
                                "decided by the addresses the warps touched."),
            }[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        d = self.data_
        if d is None or not index.isValid():
            return None
        r = self.order[index.row()]
        row = d.program.listing[r]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(d, r, row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(d, r, row, col)
        if role == Qt.ItemDataRole.FontRole:
            if col in (PC, TEXT):
                return self._bold if r == self.current else self._font
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.instrumentation or not row.executed:
                return QColor(self.theme.disabled_text)
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            if r == self.current:
                color = QColor(self.theme.marker)
                color.setAlpha(70 if self.theme.dark else 55)
                return color
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col == LANES:  # centred: a right-aligned count would read as part of the instruction beside it
                return int(Qt.AlignmentFlag.AlignCenter)
            if col in (CYCLES, LATENCY, HITS):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == STATES_ROLE and col == BAR:
            return d.stalls[r], self._max_total
        return None

    def _display(self, d: ProgramData, r: int, row, col: int):
        if col == PC:
            return f"{MARK if r == self.current else ' '} {row.pc:04x}"
        if col == TEXT:
            return row.text
        if col == CYCLES:
            return num(int(d.totals[r]))
        if col == TOP:
            top = d.top_stall(r)
            return "" if top is None else f"{short_names()[top[0]]} {pct(top[1], 0)}"
        if col == UNIT:
            return row.unit
        if col == LATENCY:
            if row.scoreboard == "none":
                return "—"
            return "mem" if row.latency is None else str(row.latency)
        if col == LANES:
            return lanes_text(d.average_lanes(r))
        if col == HITS:
            return hits_text(d.hit_rates(r))
        return None

    def _tooltip(self, d: ProgramData, r: int, row, col: int) -> str:
        lines = [f"<b>{row.pc:04x}</b> <tt>{_escape(row.text)}</tt>"]
        if row.instrumentation:
            lines.append(translate("SassListing",
                                   "Instrumentation: the generated kernel records %smid, %globaltimer and clock64 for "
                                   "the measurement; not part of the workload."))
        if not row.executed:
            lines.append(translate("SassListing", "No warp executes this instruction with the kernel's arguments."))
        if col in (BAR, CYCLES, TOP):
            lines.append(breakdown_html(d.stalls[r]))
        elif col == UNIT:
            lines.append(unit_meaning(row.unit))
        elif col == LATENCY:
            lines.append(latency_text(row))
        elif col == LANES:
            lines.append(lanes_sentence(d, r))
        elif col == HITS:
            lines.append(hits_sentence(d, r))
        lines.append("<i>" + translate("SassListing", "Click for its details.") + "</i>")
        return "<br>".join(lines)


def lanes_text(avg: float | None) -> str:
    """An average of active lanes as the column shows it: ``32``, ``13.5``; ``—`` for an instruction no warp ran."""
    if avg is None:
        return "—"
    return str(round(avg)) if abs(avg - round(avg)) < 0.05 else f"{avg:.1f}"


def hits_text(rates: tuple[float | None, float | None] | None) -> str:
    """An instruction's L1 and L2 sector hit rates as the column shows them: ``0% / 50%``; ``—`` where it looked
    up no sector by address (or none reached that level)."""
    if rates is None:
        return "—"
    return " / ".join("—" if r is None else pct(r, 0) for r in rates)


def hits_sentence(d: ProgramData, r: int) -> str:
    """What listing row ``r``'s sectors did in L1 and L2, in words."""
    sect = d.sectors
    if sect is None or not sect[r].any():
        return translate("SassListing", "No sector of this instruction was looked up by address: it is not a "
                                        "global access, or its hits were drawn from the scenario's hit rates.")
    h1, m1, h2, m2 = (int(v) for v in sect[r])
    parts = []
    if h1 + m1:
        parts.append(translate("SassListing", "L1: {hit} of {n} sectors hit ({rate}).").format(
            hit=num(h1), n=num(h1 + m1), rate=pct(h1 / (h1 + m1), 0)))
    if h2 + m2:
        parts.append(translate("SassListing", "L2: {hit} of {n} sectors hit ({rate}); the {miss} others came "
                                              "from device memory.").format(
            hit=num(h2), n=num(h2 + m2), rate=pct(h2 / (h2 + m2), 0), miss=num(m2)))
    parts.append(translate("SassListing", "Global loads do not allocate in L1 here unless they read through the "
                                          "read-only path; stores write through L1 (misses there) and are written "
                                          "into L2 without a fetch (hits)."))
    return " ".join(parts)


def lanes_sentence(d: ProgramData, r: int) -> str:
    """How many warp-instructions executed listing row ``r`` and how many of their lanes were active."""
    avg = d.average_lanes(r)
    if avg is None:
        return translate("SassListing", "No warp-instruction executed it in this run.")
    return translate("SassListing", "{n} warp-instructions executed it, {avg} of 32 lanes active on average "
                                    "({eff} SIMT efficiency).").format(
        n=num(int(d.executions[r])), avg=lanes_text(avg), eff=pct(avg / 32, 0))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def breakdown_html(counts) -> str:
    """The row's warp-cycles by state, most first, each with its share and meaning."""
    total = int(sum(int(c) for c in counts))
    if total <= 0:
        return translate("SassListing", "No simulated warp-cycles at this instruction.")
    names, means = display_names(), meanings()
    parts = [translate("SassListing", "{n} warp-cycles with this instruction next:").format(n=num(total))]
    for code in sorted((c for c in DISPLAY_ORDER if c != EMPTY and counts[c] > 0), key=lambda c: -int(counts[c])):
        parts.append("&nbsp;&nbsp;<b>{}</b>: {} ({}) — {}".format(names[code], num(int(counts[code])),
                                                               pct(int(counts[code]) / total), means[code]))
    return "<br>".join(parts)


class StallBarDelegate(QStyledItemDelegate):
    """Paints the BAR column: the row's warp-cycles as state segments, as long as its share of the hottest row."""

    def __init__(self, model: ListingModel, parent=None):
        super().__init__(parent)
        self.model = model

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        super().paint(painter, option, index)  # background (the current row's highlight), selection
        got = index.data(STATES_ROLE)
        if got is None:
            return
        counts, hottest = got
        total = int(counts.sum())
        if total <= 0:
            return
        rect = option.rect.adjusted(3, 3, -3, -3)
        length = rect.width() * total / max(hottest, 1)
        x = float(rect.left())
        dark = self.model.theme.dark
        painter.save()
        for code in DISPLAY_ORDER:
            v = int(counts[code]) if code != EMPTY else 0
            if v <= 0:
                continue
            w = length * v / total
            painter.fillRect(QRect(round(x), rect.top(), max(1, round(x + w) - round(x)), rect.height()),
                             QColor(state_color(code, dark)))
            x += w
        painter.restore()
