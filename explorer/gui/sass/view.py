"""The SASS view: the program a run executed, where the selected warp is, and where time went.

Two tabs: **SASS** (the listing with per-instruction simulated warp-cycles by state,
the selected warp's next instruction marked at the cursor, the clicked instruction's
details) and **CUDA source** (the kernel the scenario generates: what ``measure``
compiles and the SASS comes from). A line above the listing always says which program
ran: the kernel's SASS, or the workload model with the one-line reason.

Beside the warp's slot, a strip of 32 cells shows which of its lanes issue that
instruction (its active mask: a diverged warp's partial paths), with the mask in
hexadecimal in its tooltip; the listing's Lanes column is each instruction's average.

The warp is a slot of the selected SM (the spin box, or a click on a timeline row).
Per playback frame the view reads one entry of the SM's next-instruction trace and,
when it changed, moves the highlight (two table rows repaint) and, when following,
scrolls it into view; the listing is never rebuilt for a frame. A hidden view does
nothing per frame and catches up when shown.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QTableView,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.gui.common.bars import StateBar
from explorer.gui.common.flow_layout import FlowLayout
from explorer.texts.numbers import num
from explorer.gui.common.state_colors import display_names
from explorer.gui.common.state_order import DISPLAY_ORDER, EMPTY
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.common.widgets import FittingLabel, scroll_area, splitter
from explorer.gui.sass.listing_model import (
    BAR,
    COLUMNS,
    CYCLES,
    HITS,
    LANES,
    LATENCY,
    MARK,
    PC,
    TEXT,
    TOP,
    UNIT,
    ListingModel,
    StallBarDelegate,
    code_font,
    hits_sentence,
    lanes_sentence,
)
from explorer.gui.sass.lane_mask import LaneMaskStrip, active_lanes, mask_text
from explorer.gui.sass.program_data import WAIT_STATE, ProgramData, program_of
from explorer.gui.sass.texts import latency_text, program_line, scoreboard_meaning, segment_text, unit_meaning

SASS_TAB, SOURCE_TAB = 0, 1
BAR_WIDTH = 90  # px of the States column (at 1x; scaled with the font)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class SassView(QWidget):
    """The listing of one run's program, following the session's cycle, SM and a chosen warp slot."""

    slot_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sass_view")
        self.data: ProgramData | None = None
        self.run = None
        self.sm = 0
        self.slot = 0
        self.slot_chosen = False  # the user picked the slot: a new SM or run keeps it
        self.cycle = 0
        self.clicked_row: int | None = None
        self.theme: Theme = LIGHT
        self._source_for = None  # the scenario the CUDA source tab shows
        self._now_key = None

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("sass_tabs")
        self.tabs.setDocumentMode(True)

        # -- SASS tab -------------------------------------------------------------------
        page = QWidget(self.tabs)
        self.program_label = FittingLabel(page)
        self.program_label.setObjectName("sass_program")
        self.now_label = FittingLabel(page)
        self.now_label.setObjectName("sass_now")
        for label in (self.program_label, self.now_label):
            label.setFixedHeight(label.fontMetrics().height() + 4)  # a changing text never re-lays the view out

        self.slot_box = QSpinBox(page)
        self.slot_box.setObjectName("sass_slot")
        self.slot_box.setRange(0, 0)
        self.slot_box.setToolTip(self.tr("The warp slot of the selected SM whose next instruction is marked ▶ "
                                         "(or click a row of the timeline)."))
        self.slot_box.setPrefix(self.tr("warp slot "))
        self.slot_box.valueChanged.connect(self._slot_edited)
        self.follow = QCheckBox(self.tr("Follow"), page)
        self.follow.setObjectName("sass_follow")
        self.follow.setChecked(True)
        self.follow.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space stays the play key
        self.follow.setToolTip(self.tr("Scroll the listing so the warp's next instruction stays in view during "
                                       "playback."))
        self.lanes = LaneMaskStrip(page)
        self.hot_button = QToolButton(page)
        self.hot_button.setObjectName("sass_hottest")
        self.hot_button.setText(self.tr("Hottest first"))
        self.hot_button.setCheckable(True)
        self.hot_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hot_button.setToolTip(self.tr("Sort the instructions by the warp-cycles spent at them, most first "
                                           "(again: program order). A click on a column header sorts by it."))
        self.hot_button.toggled.connect(self.set_hottest_first)

        self.model = ListingModel(self)
        self.table = QTableView(page)
        self.table.setObjectName("sass_listing")
        self.table.setModel(self.model)
        self.table.installEventFilter(self)  # its font (presentation mode): the code font and the columns follow
        self.model.set_font(self.table.font())
        self.table.setItemDelegateForColumn(BAR, StallBarDelegate(self.model, self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setShowGrid(False)
        self.table.verticalHeader().hide()
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(False)
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.sectionClicked.connect(self._header_clicked)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._row_clicked(cur.row()))
        self.table.clicked.connect(lambda index: self._row_clicked(index.row()))

        self.details = QLabel(page)
        self.details.setObjectName("sass_details")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_bar = StateBar(page, height=16)
        self.details_bar.setObjectName("sass_details_bar")
        details_box = QWidget(page)
        dl = QVBoxLayout(details_box)
        dl.setContentsMargins(2, 2, 2, 2)
        dl.setSpacing(2)
        dl.addWidget(self.details_bar)
        dl.addWidget(self.details)
        dl.addStretch(1)
        self.details_scroll = scroll_area(details_box, page)
        self.details_scroll.setMinimumHeight(self.fontMetrics().height() * 2 + 12)
        self.split = splitter(Qt.Orientation.Vertical, page, "sass_split", (self.table, self.details_scroll),
                              stretch=(3, 2))
        self._split_sized = False

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.program_label, 1)
        top.addWidget(self.hot_button)
        # the slot, Follow and the lane strip wrap onto two lines where the view is narrow, and the line on the
        # warp's next instruction has its own row: the view's minimum width is its widest control, not their
        # sum (342 px in English, 372 in Russian took the plots' width at 1280x720, their legends and the
        # stream strip wrapped onto more lines, and the window needed 785 px of height)
        controls_box = QWidget(page)
        controls_box.setObjectName("sass_controls")
        controls = FlowLayout(controls_box, spacing=6)
        controls.setContentsMargins(0, 0, 0, 0)
        controls.addWidget(self.slot_box)
        controls.addWidget(self.follow)
        controls.addWidget(self.lanes)
        self.now_label.setMinimumWidth(0)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(controls_box)
        layout.addWidget(self.now_label)
        layout.addWidget(self.split, 1)
        self.tabs.addTab(page, self.tr("SASS"))
        self.tabs.setTabToolTip(SASS_TAB, self.tr("The instructions the simulator ran, with the warp-cycles spent at "
                                                  "each (simulated, every cycle)."))

        # -- CUDA source tab ------------------------------------------------------------
        self.source = QPlainTextEdit(self.tabs)
        self.source.setObjectName("sass_source")
        self.source.setReadOnly(True)
        self.source.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.source.setFont(code_font(self.font().pointSizeF()))
        self.tabs.addTab(self.source, self.tr("CUDA source"))
        self.tabs.setTabToolTip(SOURCE_TAB, self.tr("The CUDA kernel the scenario generates: what Run on GPU "
                                                    "compiles, and where the SASS comes from."))
        self.tabs.currentChanged.connect(lambda _i: self._fill_source())

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)
        self._size_columns()
        self._show_details()

    # -- run, SM, slot, cycle -------------------------------------------------------------
    def set_run(self, run) -> None:
        """A new run on screen (``workspace.run_data.SimRun``): its program, counts and traces."""
        self.run = run
        program = program_of(run.result) if run is not None else None
        self.data = ProgramData(run.result) if program is not None else None
        self.model.set_data(self.data)
        self.clicked_row = None
        self._now_key = None
        self._source_for = None
        if self.data is None:
            self.program_label.set_texts(self.tr("This run carries no instruction stream."))
            self.program_label.setToolTip("")
        else:
            line, tip = program_line(self.data.program, self.data.notice)
            self.program_label.set_texts(line, line.split(" · ")[0], self.data.program.source.upper()
                                         if self.data.program.source == "sass" else self.tr("Model"), "")
            self.program_label.setToolTip(f"{line}<br>{tip}")
        warps = run.warps_per_sm if run is not None else 1
        self.slot_box.blockSignals(True)
        self.slot_box.setRange(0, max(warps - 1, 0))
        self.slot_box.setValue(min(self.slot, self.slot_box.maximum()))
        self.slot = self.slot_box.value()
        self.slot_box.blockSignals(False)
        self.table.setColumnHidden(LANES, not self.model.has_partial_rows())  # all 32: nothing to read there
        self.table.setColumnHidden(HITS, not self.model.has_hit_rates())  # no access looked up by address
        self._size_columns()
        self._default_slot()
        self._show_details()
        self._update_now(force=True)
        if self.tabs.currentIndex() == SOURCE_TAB:
            self._fill_source()

    def set_sm(self, sm: int) -> None:
        self.sm = int(sm)
        self._default_slot()
        self._update_now(force=True)

    def set_slot(self, slot: int, chosen: bool = True) -> None:
        """The warp slot whose instruction is marked (a timeline click, the spin box, a restored state)."""
        self.slot_chosen = self.slot_chosen or chosen
        if self.run is None:  # a restored state before the first run: set_run applies it
            self.slot = max(0, int(slot))
            return
        slot = max(0, min(int(slot), self.slot_box.maximum()))
        if slot != self.slot_box.value():
            self.slot_box.setValue(slot)  # -> _slot_edited
        else:
            self._apply_slot(slot)

    def _slot_edited(self, value: int) -> None:
        self.slot_chosen = True
        self._apply_slot(value)

    def _apply_slot(self, slot: int) -> None:
        if slot != self.slot:
            self.slot = slot
            self.slot_changed.emit(slot)
        self._update_now(force=True)

    def _default_slot(self) -> None:
        if self.slot_chosen or self.data is None:
            return
        first = self.data.first_busy_slot(self.sm)
        if first is not None and first != self.slot:
            self.slot_box.blockSignals(True)
            self.slot_box.setValue(first)
            self.slot_box.blockSignals(False)
            self.slot = first
            self.slot_changed.emit(first)

    def set_cycle(self, cycle: int) -> None:
        """A playback frame: one trace lookup; the highlight moves only when the instruction changed."""
        self.cycle = int(cycle)
        if self.isVisible():
            self._update_now()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._split_sized:  # the details get a third of the height the first time
            self._split_sized = True
            h = max(sum(self.split.sizes()), 200)
            self.split.setSizes([h - h // 3, h // 3])
        self._update_now(force=True)

    # -- the marked instruction -----------------------------------------------------------
    def current_row(self) -> int | None:
        return None if self.data is None else self.data.row_at(self.sm, self.slot, self.cycle)

    def _update_now(self, force: bool = False) -> None:
        d = self.data
        if d is None:
            self.model.set_current(None)
            self._set_now(("none",), self.tr("No instructions to follow."), "")
            return
        row = d.row_at(self.sm, self.slot, self.cycle)
        state = self._state(self.sm, self.slot, self.cycle)
        mask = d.mask_at(self.sm, self.slot, self.cycle) if row is not None else None
        key = (row, state, self.sm, self.slot, mask)
        if key == self._now_key and not force:
            return
        moved = row != self.model.current
        self.model.set_current(row)
        if row is not None and moved and self.follow.isChecked():
            k = self.model.table_row(row)
            if k is not None:
                self.table.scrollTo(self.model.index(k, PC), QAbstractItemView.ScrollHint.EnsureVisible)
        self._now_key = key
        self._show_mask(mask)
        if row is not None:
            ins = d.program.listing[row]
            what = f"{MARK} {ins.pc:04x} {ins.opcode}"
            short = f"{MARK} {ins.pc:04x}"
            if mask is not None and mask != 0xFFFFFFFF:  # a partial warp: the count beside the instruction
                lanes = self.tr("{n}/32 lanes").format(n=active_lanes(mask))
                what, short = f"{what} · {lanes}", f"{short} · {lanes}"
            if state is not None:
                self._set_now(key, self.tr("{what}: {state}").format(what=what, state=display_names()[state]),
                              what, short, f"{MARK} {ins.pc:04x}", "")
            else:
                self._set_now(key, what, short, f"{MARK} {ins.pc:04x}", "")
        elif d.pc_trace(self.sm) is None:
            self._set_now(key, self.tr("SM {sm}'s instructions were not recorded in this run.").format(sm=self.sm),
                          self.tr("not recorded"), "")
        elif self.cycle >= d.recorded_cycles(self.sm):
            self._set_now(key, self.tr("Cycle {c} is past the recorded cycles.").format(c=num(self.cycle)),
                          self.tr("not recorded"), "")
        else:
            self._set_now(key, self.tr("Slot {s} holds no warp now.").format(s=self.slot), self.tr("no warp"), "")

    def _show_mask(self, mask: int | None) -> None:
        if mask is None:
            self.lanes.set_mask(None, self.tr("The warp's active lanes: no warp in this slot now (or not recorded)."))
            return
        n = active_lanes(mask)
        if n == 32:
            tip = self.tr("All 32 lanes of the warp issue its next instruction (mask {mask}).")
        else:
            tip = self.tr("{n} of the warp's 32 lanes issue its next instruction (mask {mask}, bit k = lane k): "
                          "filled cells, lane 0 on the left; the others diverged away or exited.")
        self.lanes.set_mask(mask, tip.format(n=n, mask=mask_text(mask)))

    def _set_now(self, _key, *texts: str) -> None:
        self.now_label.set_texts(*texts)

    def _state(self, sm: int, slot: int, cycle: int) -> int | None:
        result = self.run.result if self.run is not None else None
        trace = result.sm_trace(sm) if result is not None and hasattr(result, "sm_trace") else None
        if trace is None or not (0 <= cycle < trace.shape[0]) or not (0 <= slot < trace.shape[1]):
            return None
        state = int(trace[cycle, slot])
        return state if state != EMPTY else None

    # -- sorting --------------------------------------------------------------------------
    def set_hottest_first(self, on: bool) -> None:
        if self.hot_button.isChecked() != on:
            self.hot_button.setChecked(on)  # -> here again
            return
        if on:
            self._sort(CYCLES, Qt.SortOrder.DescendingOrder)
        elif self.model.hottest_first:
            self._sort(PC, Qt.SortOrder.AscendingOrder)

    @property
    def hottest_first(self) -> bool:
        return self.model.hottest_first

    def _header_clicked(self, column: int) -> None:
        m = self.model
        if column == m.sort_column:
            order = (Qt.SortOrder.AscendingOrder if m.sort_order == Qt.SortOrder.DescendingOrder
                     else Qt.SortOrder.DescendingOrder)
        else:  # counts start with the most, everything else in reading order
            order = Qt.SortOrder.DescendingOrder if column in (CYCLES, BAR, TOP) else Qt.SortOrder.AscendingOrder
        self._sort(column, order)

    def _sort(self, column: int, order: Qt.SortOrder) -> None:
        self.model.sort(column, order)
        self.table.horizontalHeader().setSortIndicator(column, order)
        self.hot_button.blockSignals(True)
        self.hot_button.setChecked(self.model.hottest_first)
        self.hot_button.blockSignals(False)
        if self.clicked_row is not None:
            k = self.model.table_row(self.clicked_row)
            if k is not None:
                self.table.selectRow(k)
        self.table.scrollToTop()

    # -- details --------------------------------------------------------------------------
    def select_row(self, listing_row: int) -> None:
        """Show listing row ``listing_row``'s details (what a click on it does)."""
        k = self.model.table_row(listing_row)
        if k is not None:
            self.table.selectRow(k)
            self._row_clicked(k)

    def _row_clicked(self, table_row: int) -> None:
        r = self.model.listing_row(table_row)
        if r is None or r == self.clicked_row:
            return
        self.clicked_row = r
        self._show_details()

    def _show_details(self) -> None:
        d, r = self.data, self.clicked_row
        if d is None or r is None:
            self.details_bar.set_segments([], "")
            self.details.setText(self.tr("Click an instruction for its unit, latency and the registers it waits "
                                         "on."))
            return
        self.details.setText(self.details_html(r))
        counts = d.stalls[r]
        self.details_bar.set_segments([(c, int(counts[c])) for c in DISPLAY_ORDER if c != EMPTY],
                                      self.tr("warp-cycles"))

    def details_html(self, r: int) -> str:
        """The clicked instruction: unit, latency, where it runs, the registers it waits on and what it writes."""
        d = self.data
        prog = d.program
        ins = prog.listing[r]
        lines = [f"<b><tt>{ins.pc:04x}&nbsp;&nbsp;{_escape(ins.text)}</tt></b>"]
        if ins.instrumentation:
            lines.append("<i>" + self.tr("Instrumentation (the measurement's clock and SM-id recording): dimmed, "
                                         "but it runs and takes issue slots.") + "</i>")
        lines.append(self.tr("<b>Unit</b> {unit}: {meaning}").format(unit=ins.unit, meaning=unit_meaning(ins.unit)))
        lines.append(self.tr("<b>Latency</b> {lat}; {kind}.").format(lat=latency_text(ins),
                                                                      kind=scoreboard_meaning(ins.scoreboard)))
        lines.append(self.tr("<b>Runs</b> {where}.").format(where=segment_text(ins.segment, prog.trip)))
        waits = d.waits_on(r)
        reads = [p for p in waits if not p.write]
        writes = [p for p in waits if p.write]
        if reads:
            lines.append(self.tr("<b>Waits on</b> (reads):") + "<br>" + "<br>".join(
                "&nbsp;&nbsp;" + self._producer_html(p) for p in reads))
        else:
            lines.append(self.tr("<b>Waits on</b> no register."))
        if writes:
            lines.append(self.tr("<b>Writes</b> {regs} (it also waits for earlier writes to these registers to "
                                 "finish).").format(
                regs=", ".join(p.register for p in writes)))
        if d.executions is not None:
            lines.append(self.tr("<b>Lanes</b>: {what}").format(what=lanes_sentence(d, r)))
        if d.hit_rates(r) is not None:  # a global access whose sectors the caches' tags decided
            lines.append(self.tr("<b>Caches</b>: {what}").format(what=hits_sentence(d, r)))
        total = int(d.totals[r])
        if total:
            share = total / max(d.total, 1)
            lines.append(self.tr("<b>Simulated</b>: {n} warp-cycles with it next, {share} of the run's.").format(
                n=num(total), share=f"{100 * share:.1f}%"))
        return "<br>".join(lines)

    def _producer_html(self, p) -> str:
        prog = self.data.program
        if p.row is None:
            return self.tr("{reg}: ready from the start (never written before)").format(reg=p.register)
        src = prog.listing[p.row]
        when = ""
        if p.previous_iteration:
            when = " " + self.tr("(the loop's previous iteration)")
        elif p.prologue:
            when = " " + self.tr("(before the loop: first iteration only)")
        state = WAIT_STATE.get(src.scoreboard)
        how = latency_text(src) + (f", {display_names()[state]}" if state is not None else "")
        return self.tr("{reg} ← {pc} {op}{when}: {how}").format(
            reg=p.register, pc=f"{src.pc:04x}", op=_escape(src.opcode), when=when, how=how)

    # -- CUDA source ----------------------------------------------------------------------
    def _fill_source(self) -> None:
        if self.tabs.currentIndex() != SOURCE_TAB or self.run is None:
            return
        scenario = self.run.result.scenario
        if self._source_for is scenario:
            return
        self._source_for = scenario
        self.source.setPlainText(self.source_text(scenario))

    def source_text(self, scenario) -> str:
        from explorer.model.errors import InputError

        try:
            from explorer.toolchain.codegen import generate

            return generate(scenario).source
        except (InputError, ValueError) as exc:
            return self.tr("// This scenario's kernel cannot be generated: {why}").format(
                why=getattr(exc, "message", str(exc)))

    # -- look -----------------------------------------------------------------------------
    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.model.set_theme(theme)
        self.details_bar.apply_theme(theme)
        self.lanes.apply_theme(theme)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.table and event.type() == QEvent.Type.FontChange:
            self.model.set_font(self.table.font())
            self._size_columns()
        return super().eventFilter(obj, event)

    def _size_columns(self) -> None:
        """Each column as wide as its widest text (once per run or font, never per frame)."""
        fm = self.table.fontMetrics()
        bold = code_font(self.table.font().pointSizeF())
        bold.setBold(True)
        bfm = QFontMetrics(bold)
        pad = 16
        header = self.table.horizontalHeader()
        texts: dict[int, list[str]] = {c: [str(self.model.headerData(c, Qt.Orientation.Horizontal))]
                                       for c in range(COLUMNS)}
        texts[PC].append(f"{MARK} 0000")
        for k in range(self.model.rowCount()):
            for c in (PC, TEXT, CYCLES, TOP, UNIT, LATENCY, LANES, HITS):
                texts[c].append(str(self.model.data(self.model.index(k, c)) or ""))
        for c in range(COLUMNS):
            metrics = bfm if c in (PC, TEXT) else fm
            need = max(metrics.horizontalAdvance(t) for t in texts[c]) + pad
            if c == BAR:
                need = max(need, round(BAR_WIDTH * fm.height() / 16))
            header.resizeSection(c, need + 12)  # room for the sort indicator
        self.table.verticalHeader().setDefaultSectionSize(max(bfm.height(), fm.height()) + 4)
