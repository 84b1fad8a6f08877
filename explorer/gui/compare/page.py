"""The "A/B compare" tab: a pinned run (A) beside the Explorer's run (B), one playback for both.

A is pinned from the Explorer (the run object itself: nothing is copied or
re-simulated, so it keeps exactly what the run keeps); B is whatever run the
Explorer shows, and follows every change there (an edit, a preset, undo, a
lesson). Both columns are the Explorer's views at one compare position
(``compare.session``: same cycle, or same share of each run), which is the
workspace's one cursor (B's cycle is the Explorer's cycle: moving one moves the
other); below them, the table of differences and the scenario keys B changed. The
page has its own transport, clock and the same keys as the Explorer's, over the
longer run's cycles, so the shorter run can be seen to finish; one clock plays at a
time (``ExplorerSession.playing``).

The page reads the Explorer's run from the window's workspace only: its session
(``run``, ``cycle`` and their events, which the compare session follows;
``simulation_changed`` for B's heading; ``playing``), and
``run_data.simulate_sm_trace`` for an SM a long run did not keep.
"""

from __future__ import annotations

import tomllib

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QComboBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from explorer.gui.common.error_texts import core_error
from explorer.gui.common.legend import StateLegend
from explorer.texts.numbers import num
from explorer.gui.common.page import Page
from explorer.gui.common.settings import as_str
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.common.widgets import select_data, splitter
from explorer.gui.compare.column import RunColumn, scenario_line
from explorer.gui.compare.differences import scenario_changes
from explorer.gui.compare.session import ALIGNMENTS, SIDES, CompareSession
from explorer.gui.compare.table import CompareTable, speed_text
from explorer.gui.workspace.run_data import SimRun, simulate_run, simulate_sm_trace
from explorer.gui.explore.transport import PlaybackClock, TransportBar, playback_keys
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

MAX_CHANGES_SHOWN = 4  # scenario keys named in the "B differs from A in" line (all of them in its tooltip)
# Below this many lines of text in the page's height, the columns are compact (1280x720 holds ~45 lines at
# 100%, ~41 at 125%, ~34 at 150%; 1920x1080 ~51 at 150%, ~31 at 250%):
# no timelines (the grid, the counts and the table tell the A/B story) and no scenario line in the titles
# (the "B differs from A in" line says what changed), so nothing is squeezed until it cannot be read.
COMPACT_LINES = 40


class ComparePage(Page):
    """Owns the compare session, its playback and the re-simulation of SMs a long run did not keep."""

    def __init__(self, workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compare_page")
        self.workspace = workspace  # the window's: the Explorer's run is B
        self.session = CompareSession(workspace.session)  # B and the cursor: the Explorer's run and cycle
        self.runner = TaskRunner(self, threads=1)
        self.clock = PlaybackClock(self)
        self.pending_pin: Scenario | None = None  # a pin remembered from the last run, simulated on first show
        self.pin_failed = ""
        self.compact = False
        self._stale = False  # runs changed while the tab was hidden: redrawn when it is shown

        # -- the bar on top (hidden in presentation mode) ----------------------------------
        self.toolbar = QWidget(self)
        self.toolbar.setObjectName("compare_toolbar")
        title = QLabel(self.tr("<b>A/B compare</b>"), self.toolbar)
        self.align = QComboBox(self.toolbar)
        self.align.setObjectName("compare_alignment")
        self.align.addItem(self.tr("Same cycle (aligned at launch)"), "cycle")
        self.align.addItem(self.tr("Same share of each run"), "progress")
        self.align.setToolTip(self.tr("Same cycle: both columns show the same cycle since launch; a shorter run "
                                      "shows its end. Same share: both are the same fraction of the way through."))
        self.align.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the playback shortcuts
        align_label = QLabel(self.tr("Align:"), self.toolbar)
        align_label.setToolTip(self.align.toolTip())
        self.pin_button = QPushButton(self.tr("Pin B as A"), self.toolbar)
        self.pin_button.setObjectName("compare_pin")
        self.pin_button.setToolTip(self.tr("Make the Explorer's current run the new A (Ctrl+Shift+B)."))
        self.unpin_button = QPushButton(self.tr("Unpin A"), self.toolbar)
        self.unpin_button.setObjectName("compare_unpin")
        self.unpin_button.setToolTip(self.tr("Forget the pinned run."))
        for button in (self.pin_button, self.unpin_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        bar = QHBoxLayout(self.toolbar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(title)
        bar.addStretch(1)
        bar.addWidget(align_label)
        bar.addWidget(self.align)
        bar.addWidget(self.pin_button)
        bar.addWidget(self.unpin_button)

        # -- what is exported as one picture: columns, legends, changes, table (built when first shown:
        # four plots and two grids cost the window's start a few hundred milliseconds) ------------
        self.body = QWidget(self)
        self.body.setObjectName("compare_body")
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.body_layout.setSpacing(2)
        self.columns: dict[str, RunColumn] = {}  # side -> column, once built

        self.transport = TransportBar(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.transport)

        # -- wiring ------------------------------------------------------------------------
        s = self.session
        s.runs_changed.connect(self._show_runs)
        s.position_changed.connect(self._show_position)
        s.selection_changed.connect(self._show_selection)
        self.align.currentIndexChanged.connect(lambda _i: s.set_alignment(self.align.currentData()))
        self.pin_button.clicked.connect(self.pin)
        self.unpin_button.clicked.connect(self.unpin)
        self.transport.cycle_requested.connect(s.set_position)
        self.transport.step_requested.connect(s.step)
        self.transport.play_toggled.connect(self.toggle_play)
        self.transport.speed_changed.connect(lambda speed: setattr(self.clock, "speed", int(speed)))
        self.clock.advance.connect(self._advance)
        self.clock.playing_changed.connect(self.transport.set_playing)
        es = workspace.session
        # one clock plays the shared cursor: this one says so, and pauses when the Explorer's starts
        self.clock.playing_changed.connect(lambda on: es.set_playing(self) if on else es.stopped(self))
        es.playing_changed.connect(lambda view: self.clock.pause() if view is not None and view is not self else None)
        self._syncing = False
        self.key_actions = playback_keys(self, play=self.toggle_play, step=s.step, to_start=s.to_start,
                                         to_end=s.to_end)
        es.simulation_changed.connect(self._explorer_state)  # (the session follows its run: B)
        self._show_runs()

    def build_views(self) -> None:
        """The columns, legends and table (once; the tab's first show does it, so does a headless render)."""
        if self.columns:
            return
        s = self.session
        self.columns = {side: RunColumn(side, self.body) for side in SIDES}
        self.split = splitter(Qt.Orientation.Horizontal, self.body, "compare_columns",
                              (self.columns["a"], self.columns["b"]), stretch=(1, 1))
        self.legend = StateLegend(parent=self.body)
        self.changes = QLabel(self.body)
        self.changes.setObjectName("compare_changes")
        self.changes.setWordWrap(True)
        self.changes.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.changes.setTextFormat(Qt.TextFormat.PlainText)
        below = QHBoxLayout()  # what B changed, beside the counts plots' legend
        below.addWidget(self.changes, 1)
        curves = self.columns["a"].counts.make_legend(self.body)
        curves.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # all four names, always
        below.addWidget(curves)
        self.table = CompareTable(self.body)
        self.body_layout.addWidget(self.split, 1)
        self.body_layout.addWidget(self.legend)
        self.body_layout.addLayout(below)
        self.body_layout.addWidget(self.table)
        for w in (self.split, self.legend, self.changes, curves, self.table):
            w.setVisible(True)  # now, not at the next event-loop turn (a layout shows new children later)
        for side, column in self.columns.items():
            column.sm_clicked.connect(s.select_sm)
            column.cycle_requested.connect(lambda cycle, sd=side: s.set_position(s.position_for(sd, cycle)))
            column.needs_trace.connect(lambda sm, sd=side: self._record_sm(sd, sm))
            for plot in column.plots():
                plot.getPlotItem().getViewBox().sigXRangeChanged.connect(
                    lambda _vb, x_range, c=column: self._sync_range(c, x_range))
        for view in self.themed_views():
            view.apply_theme(self.theme)
        self._match_display_scale()
        half = max(self.body.width(), 800) // 2
        self.split.setSizes([half, half])
        self.compact = None  # decided again for the new columns
        self._fit()
        self._stale = True

    def _match_display_scale(self) -> None:
        """Views built while presentation mode scales the window get the fonts and fixed sizes they would have had.

        The display scaler (``lessons.display_scale``) takes a widget it first sees while scaled as built at
        that scale; new widgets start from the application's font (the theme's style sheet passes no parent
        font on), so the views are brought to the page's scale here, once, and the scaler keeps them from then
        on (leaving presentation mode restores them exactly).
        """
        base = QApplication.font().pointSizeF()
        scale = self.font().pointSizeF() / base if base > 0 else 1.0
        if abs(scale - 1.0) < 1e-6:
            return
        for w in self.body.findChildren(QWidget):
            if w.font().pointSizeF() > 0:
                font = QFont(w.font())
                font.setPointSizeF(font.pointSizeF() * scale)
                w.setFont(font)
            for attr in vars(w).values():  # fonts a painted view keeps (the SM grid's labels)
                if isinstance(attr, QFont) and attr.pointSizeF() > 0:
                    attr.setPointSizeF(attr.pointSizeF() * scale)
            if 0 < w.minimumHeight() == w.maximumHeight():
                w.setFixedHeight(round(w.minimumHeight() * scale))
            if 0 < w.minimumWidth() == w.maximumWidth():
                w.setFixedWidth(round(w.minimumWidth() * scale))
            if callable(getattr(w, "relayout", None)):
                w.relayout()

    # -- pinning -----------------------------------------------------------------------------
    def pin(self, run: SimRun | None = None) -> bool:
        """Pin ``run`` (default: the Explorer's run on screen) as A; False when there is no run yet."""
        run = run if run is not None else self.workspace.run
        if run is None:
            self.set_status(self.tr("Nothing to pin yet: the Explorer is still simulating."))
            return False
        self.runner.cancel("pin", disconnect=True)
        self.pending_pin, self.pin_failed = None, ""
        self.session.pin(run)
        return True

    def unpin(self) -> None:
        self.runner.cancel("pin", disconnect=True)
        self.pending_pin, self.pin_failed = None, ""
        self.clock.pause()
        self.session.unpin()

    @property
    def pinned(self) -> SimRun | None:
        return self.session.pinned

    def _simulate_pending_pin(self) -> None:
        """A pin remembered from the last session: simulated once (deterministic: the same run as before)."""
        scenario = self.pending_pin
        if scenario is None or self.runner.running("pin"):
            return

        def failed(error: TaskError) -> None:
            if error.kind != "cancelled":
                self.pending_pin = None
                self.pin_failed = core_error(error.field, error.message) if error.kind == "input" else error.message
                self._show_runs()

        self.runner.start("pin", lambda task: simulate_run(scenario, cancel=task.is_cancelled),
                          newest_wins=True, on_done=self.pin, on_error=failed)

    # -- the Explorer's run (B) ------------------------------------------------------------------
    def _explorer_state(self) -> None:
        self._show_heading("b")

    # -- playback ------------------------------------------------------------------------------
    def toggle_play(self) -> None:
        s = self.session
        if self.clock.playing:
            self.clock.pause()
        elif s.ready:
            if s.at_end:
                s.to_start()
            self.clock.play()

    def _advance(self, steps: int) -> None:
        s = self.session
        s.step(steps)
        if s.at_end or not s.ready:
            self.clock.pause()

    # -- session -> views ------------------------------------------------------------------------
    def _heading(self, side: str) -> str:
        s = self.session
        run = s.run(side)
        if side == "a":
            head = self.tr("<b>A</b> · pinned")
        else:
            es = self.workspace.session
            head = self.tr("<b>B</b> · the Explorer's run")
            if run is not None and not es.run_is_current:
                head += " · " + (self.tr("invalid input in the Explorer: its last good run") if es.errors or es.failed
                                 else self.tr("the Explorer is simulating a new one…"))
        return head if run is None or self.compact else head + " — " + scenario_line(run.result.scenario)

    def _show_heading(self, side: str) -> None:
        if self.columns:
            self.columns[side].title.setText(self._heading(side))

    def _placeholder(self, side: str) -> str:
        if side == "b":
            return self.tr("The Explorer is simulating…")
        if self.pending_pin is not None:
            return self.tr("Simulating the pinned scenario {name}…").format(name=self.pending_pin.name or "")
        if self.pin_failed:
            return self.tr("The pinned scenario cannot be simulated: {why}").format(why=self.pin_failed)
        return self.tr("Nothing pinned: Ctrl+Shift+B pins the Explorer's run as A (Ctrl+B pins it and opens this "
                       "view).")

    def _show_runs(self) -> None:
        s = self.session
        self.unpin_button.setEnabled(s.pinned is not None or self.pending_pin is not None)
        self.transport.set_length(s.length)
        self.set_status(self._summary())
        if not self.isVisible() or not self.columns:  # every Explorer edit changes B: drawn when someone looks
            self._stale = True
            return
        self._stale = False
        same_axis = s.alignment == "cycle"
        for side, column in self.columns.items():
            run = s.run(side)
            column.set_placeholder(self._placeholder(side))
            x_max = s.length if same_axis else (run.cycles if run else 1)
            column.set_run(run, self._heading(side), s.sm_for(side), x_max)
        if s.ready:
            self.table.show_runs(s.pinned, s.current)
        else:
            self.table.clear()
        text, tip = self._changes_text()
        self.changes.setText(text)
        self.changes.setToolTip(tip)
        self._show_position(s.t)

    def _changes_text(self) -> tuple[str, str]:
        """The line under the columns (what B changed, or what to do) and its tooltip (every change)."""
        s = self.session
        if s.pinned is None:
            return self._placeholder("a"), ""
        if s.current is None:
            return self.tr("Waiting for the Explorer's run."), ""
        if s.same_run:
            return self.tr("A and B are the same run: change the scenario in the Explorer (Ctrl+B goes there and "
                           "back) and B follows."), ""
        changes = scenario_changes(s.pinned.result.scenario.to_dict(), s.current.result.scenario.to_dict())
        if not changes:
            return self.tr("A and B are the same scenario, simulated twice."), ""
        items = [self.tr("{key} {a} → {b}").format(key=k, a=va, b=vb) for k, va, vb in changes]
        shown = "; ".join(items[:MAX_CHANGES_SHOWN])
        if len(items) > MAX_CHANGES_SHOWN:
            shown += " " + self.tr("and {n} more").format(n=len(items) - MAX_CHANGES_SHOWN)
        return self.tr("B differs from A in: {changes}").format(changes=shown), "\n".join(items)

    def _summary(self) -> str:
        s = self.session
        if not s.ready:
            return self.tr("A/B compare: nothing pinned yet (Ctrl+Shift+B pins the Explorer's run).")
        a, b = s.pinned.summary, s.current.summary
        return self.tr("A: {a} cycles · B: {b} cycles").format(a=num(a["cycles"]), b=num(b["cycles"])) + \
            " · " + speed_text(a, b)

    def _sync_range(self, source: RunColumn, x_range) -> None:
        """A zoom or pan of one plot moves the others on the same cycle axis: the column's other plot, and
        the other column's too when both are aligned by cycle. By value, not pyqtgraph's XLink: that maps
        ranges through screen geometry, which a hidden tab does not have."""
        if self._syncing:
            return
        self._syncing = True
        try:
            for column in self.columns.values():
                if column is source or self.session.alignment == "cycle":
                    for plot in column.plots():
                        plot.getPlotItem().setXRange(*x_range, padding=0)
        finally:
            self._syncing = False

    def _show_position(self, t: int) -> None:
        s = self.session
        self.transport.set_cycle(t)
        if not self.isVisible():  # the cursor moves with the Explorer's playback: drawn when someone looks
            self._stale = True
        if self._stale:
            return
        for side, column in self.columns.items():
            frame = s.frame(side)
            if frame is not None:
                column.show_frame(frame)

    def _show_selection(self, _sm: int) -> None:
        if self._stale:
            return  # drawn with the runs when the tab is shown
        for side, column in self.columns.items():
            column.set_sm(self.session.sm_for(side))

    # -- SMs a long run did not keep ----------------------------------------------------------------
    def _record_sm(self, side: str, sm: int) -> None:
        run = self.session.run(side)
        if run is None:
            return
        scenario = run.result.scenario
        self.runner.start(f"record_{side}", lambda task: simulate_sm_trace(scenario, sm, cancel=task.is_cancelled),
                          newest_wins=True, on_done=lambda trace: self._sm_recorded(side, run, sm, trace))

    def _sm_recorded(self, side: str, run: SimRun, sm: int, trace) -> None:
        if self.session.run(side) is not run or trace is None or trace.shape[0] != run.cycles:
            return
        run.add_trace(sm, trace)
        for other, column in self.columns.items():  # A and B may be the same run
            if self.session.run(other) is run:
                column.trace_arrived(sm)

    # -- window hooks ----------------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.build_views()
        super().showEvent(event)
        QTimer.singleShot(0, self, self._simulate_pending_pin)
        if self._stale:
            self._show_runs()
        for column in self.columns.values():  # the whole run, now that the plots have their sizes
            column.show_all()

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.clock.pause()  # no playback nobody sees
        super().hideEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def display_scale_changed(self, _scale: float) -> None:
        """Presentation mode scaled the fonts (``lessons.display_scale`` calls this)."""
        self._fit()

    def _fit(self) -> None:
        """Compact columns when the page holds fewer than :data:`COMPACT_LINES` lines of its text."""
        compact = self.height() < COMPACT_LINES * self.fontMetrics().lineSpacing()
        if compact == self.compact or not self.columns:
            return
        self.compact = compact
        for side, column in self.columns.items():
            column.set_compact(compact)
            self._show_heading(side)

    def picture_widget(self) -> QWidget:
        """What File > Export draws for this tab: both columns, the legends and the table (no buttons)."""
        self.build_views()
        return self.body

    def themed_views(self) -> tuple:
        return (*self.columns.values(), self.legend, self.table) if self.columns else ()

    def presentation_hidden_widgets(self) -> list[QWidget]:
        return [self.toolbar, self.transport]

    def shutdown(self) -> None:
        self.clock.pause()
        self.runner.shutdown()

    def capture_state(self, live: bool = False) -> dict:
        """The alignment and the pinned run's scenario (TOML: a restart re-simulates it, the same run for its
        seed); ``live`` adds the pinned run itself (a language switch keeps it, nothing re-simulates), the
        position and the selected SM."""
        from explorer.model.tomlio import dumps

        s = self.session
        scenario = s.pinned.result.scenario if s.pinned is not None else self.pending_pin
        state = super().capture_state(live) | {
            "alignment": s.alignment, "pinned_scenario": dumps(scenario.to_dict()) if scenario is not None else "",
        }
        if live:
            state |= {"pinned": s.pinned, "position": s.t, "sm": s.selected_sm}
        return state

    def restore_state(self, state: dict) -> None:
        s = self.session
        if "position" in state:  # a rebuilt window's hand-over: the views now, before presentation mode returns
            self.build_views()
        alignment = as_str(state.get("alignment"), ALIGNMENTS[0])
        if alignment in ALIGNMENTS:
            select_data(self.align, alignment)
        pinned = state.get("pinned")
        if isinstance(pinned, SimRun):
            self.pin(pinned)
        else:
            text = as_str(state.get("pinned_scenario"), "")
            try:
                self.pending_pin = Scenario.from_dict(tomllib.loads(text)) if text else None
            except (InputError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, RecursionError):
                self.pending_pin = None  # a hand-edited or outdated settings file: nothing pinned
            self._show_runs()
            if self.pending_pin is not None and self.isVisible():
                self._simulate_pending_pin()
        if "sm" in state:
            s.select_sm(state["sm"] if isinstance(state["sm"], int) else 0)
        if isinstance(state.get("position"), int):
            s.set_position(state["position"])
        super().restore_state(state)
