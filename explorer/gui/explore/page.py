"""The "Explorer" tab: scenario panel, SM grid, timeline, counts plot, metrics, playback.

This is the controller: it turns panel edits into scenarios (the core validates
them), runs simulations through ``SimRunner`` (newest wins, the old one is
cancelled), keeps the last good run on screen while input is invalid or a new
run is computing, and forwards the session's cycle and selection to the views.
It computes nothing about GPUs itself.

Playback frame: the session moves the cycle; the SM grid repaints (one numpy
gather + one image), the two plot cursors move, the "right now" numbers change.
Nothing re-uploads the timeline image or the curves.
"""

from __future__ import annotations

import sys
import tomllib

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from explorer.gui.explore.counts_plot import CountsPlot
from explorer.gui.common.error_texts import core_error
from explorer.gui.explore.session import ExplorerSession
from explorer.gui.common.legend import StateLegend
from explorer.gui.explore.metrics import MetricsPanel
from explorer.gui.common.numbers import num
from explorer.gui.explore.run_data import SimRun
from explorer.gui.explore.scenario_fields import build_scenario, field_of, scenario_to_texts
from explorer.gui.explore.scenario_panel import ScenarioPanel
from explorer.gui.common.settings import read_str, restore_splitters, save_splitters
from explorer.gui.explore.sim_runner import SimRunner
from explorer.gui.explore.sm_grid import SmGridView
from explorer.gui.common.theme import LIGHT, Theme, restyle
from explorer.gui.explore.timeline import TimelineView
from explorer.gui.explore.transport import DEFAULT_SPEED, SPEEDS, PlaybackClock, TransportBar
from explorer.gui.common.widgets import scroll_area, splitter
from explorer.model.errors import InputError
from explorer.model.presets import default_scenario, load_preset
from explorer.model.scenario import Scenario

EDIT_DEBOUNCE_MS = 30


class ExplorerPage(QWidget):
    """Owns the session, the simulation worker and the playback clock."""

    status = Signal(str)

    def __init__(self, parent: QWidget | None = None, scenario: Scenario | None = None, autoplay: bool = False):
        super().__init__(parent)
        self.setObjectName("explorer_page")
        scenario = scenario or default_scenario()
        self.session = ExplorerSession(scenario)
        self.runner = SimRunner(self)
        self.clock = PlaybackClock(self)
        self.autoplay = autoplay
        self.theme: Theme = LIGHT
        self.status_text = ""
        self._base = scenario
        self._good = scenario_to_texts(scenario)
        self._pending: int | None = None
        self._pending_scenario: Scenario | None = None
        self._progress = 0.0
        self._shown_once = False
        self._last_error = ""

        # -- views --------------------------------------------------------------------
        self.panel = ScenarioPanel(self)
        self.grid = SmGridView(self)
        self.legend = StateLegend(parent=self)
        self.timeline = TimelineView(self)
        self.counts = CountsPlot(self)
        self.counts.setXLink(self.timeline)
        self.metrics = MetricsPanel(self)
        self.transport = TransportBar(self)

        self.grid_title = QLabel(self)
        self.grid_title.setObjectName("grid_title")
        self.grid_title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.run_state = QLabel(self)
        self.run_state.setObjectName("run_state")
        self.run_state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # a fixed-height head row: a changing message must never resize (and re-layout) the SM grid
        head_h = self.fontMetrics().height() + 4
        self.grid_title.setFixedHeight(head_h)
        self.run_state.setFixedHeight(head_h)
        self.per_sm = QCheckBox(self.tr("Counts of the selected SM only"), self)
        self.per_sm.setObjectName("per_sm_counts")
        self.per_sm.setToolTip(self.tr("Show resident, eligible and issued warps of the selected SM instead of the whole GPU."))
        self.per_sm.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        grid_box = QWidget(self)
        gl = QVBoxLayout(grid_box)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.setSpacing(2)
        head = QHBoxLayout()
        head.addWidget(self.grid_title, 1)
        head.addWidget(self.run_state)
        gl.addLayout(head)
        gl.addWidget(self.grid, 1)
        gl.addWidget(self.legend)

        counts_box = QWidget(self)
        cl = QVBoxLayout(counts_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.counts, 1)
        row = QHBoxLayout()
        row.addWidget(self.counts.make_legend(counts_box), 1)
        row.addWidget(self.per_sm)
        cl.addLayout(row)

        self.center = splitter(Qt.Orientation.Vertical, self, "explorer_center", (grid_box, self.timeline, counts_box),
                               stretch=(5, 3, 3))

        self.panel_scroll = scroll_area(self.panel, self)
        self.panel_scroll.setMinimumWidth(220)
        self.metrics_scroll = scroll_area(self.metrics, self)
        # never narrower than the panel: clipped numbers would be worse than a narrower grid
        self.metrics_scroll.setMinimumWidth(max(260, self.metrics.minimumSizeHint().width()
                                                + self.metrics_scroll.verticalScrollBar().sizeHint().width() + 2))
        self.splitter = splitter(Qt.Orientation.Horizontal, self, "explorer_splitter",
                                 (self.panel_scroll, self.center, self.metrics_scroll), stretch=(0, 1, 0))
        self._sized = False

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.transport)

        # -- wiring -------------------------------------------------------------------
        s = self.session
        s.scenario_changed.connect(self._on_scenario)
        s.run_changed.connect(self._on_run)
        s.cycle_changed.connect(self._on_cycle)
        s.selection_changed.connect(self._on_selection)
        s.errors_changed.connect(self._on_errors)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(EDIT_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.apply_edits)
        self.panel.edited.connect(self._debounce.start)
        self.panel.preset_chosen.connect(self.load_preset)
        sig = self.runner.signals
        sig.finished.connect(self._sim_finished)
        sig.failed.connect(self._sim_failed)
        sig.crashed.connect(self._sim_crashed)
        sig.progress.connect(self._sim_progress)
        sig.sm_recorded.connect(self._sm_recorded)
        self.grid.sm_clicked.connect(self.session.select_sm)
        self.timeline.cycle_requested.connect(self.session.set_cycle)
        self.counts.cycle_requested.connect(self.session.set_cycle)
        self.timeline.needs_trace.connect(self._record_sm)
        self.transport.cycle_requested.connect(self.session.set_cycle)
        self.transport.step_requested.connect(self.session.step)
        self.transport.play_toggled.connect(self.toggle_play)
        self.transport.speed_changed.connect(self.set_speed)
        self.clock.advance.connect(self._advance)
        self.clock.playing_changed.connect(self.transport.set_playing)
        self.per_sm.toggled.connect(self._per_sm_toggled)
        self._build_actions()

        self.panel.set_scenario(scenario)
        self._on_scenario(scenario)
        self._submit_soon()

    # -- keyboard -------------------------------------------------------------------
    def _build_actions(self) -> None:
        """Playback keys, active anywhere in the tab except while typing in a field."""
        self.key_actions: dict[str, QAction] = {}

        def action(name: str, text: str, keys: str, slot) -> None:
            a = QAction(text, self)
            a.setShortcut(QKeySequence(keys))
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(slot)
            self.addAction(a)
            self.key_actions[name] = a

        action("play", self.tr("Play / pause"), "Space", self.toggle_play)
        action("back1", self.tr("Back one cycle"), "Left", lambda: self.session.step(-1))
        action("fwd1", self.tr("Forward one cycle"), "Right", lambda: self.session.step(1))
        action("back100", self.tr("Back 100 cycles"), "Shift+Left", lambda: self.session.step(-100))
        action("fwd100", self.tr("Forward 100 cycles"), "Shift+Right", lambda: self.session.step(100))
        action("start", self.tr("First cycle"), "Home", self.session.to_start)
        action("end", self.tr("Last cycle"), "End", self.session.to_end)

    # -- playback -------------------------------------------------------------------
    def toggle_play(self) -> None:
        if self.clock.playing:
            self.clock.pause()
        elif self.session.run is not None:
            if self.session.cycle >= self.session.last_cycle:
                self.session.to_start()
            self.clock.play()

    def set_speed(self, speed: int) -> None:
        self.clock.speed = int(speed)

    def _advance(self, steps: int) -> None:
        s = self.session
        if s.run is None:
            self.clock.pause()
            return
        target = s.cycle + steps
        s.set_cycle(target)
        if target >= s.last_cycle:
            self.clock.pause()

    # -- edits and simulations ------------------------------------------------------
    def load_preset(self, name: str) -> None:
        try:
            scenario = load_preset(name)
        except InputError as exc:
            self._set_status(core_error(exc.field, exc.message))
            return
        self.set_scenario(scenario)

    def set_scenario(self, scenario: Scenario) -> None:
        """Show and simulate a whole scenario (a preset, a file, the saved one)."""
        self._take_scenario(scenario)
        self._submit_soon()

    def show_run(self, run: SimRun) -> None:
        """Show a run computed elsewhere (``render``, tests): its scenario fills the panel, nothing re-simulates."""
        self.runner.cancel_all()
        self._pending = None
        self._take_scenario(run.result.scenario)
        self.session.set_run(run)

    def _take_scenario(self, scenario: Scenario) -> None:
        """A whole new scenario: pending edits dropped, the panel filled, no errors, the session's scenario."""
        self._debounce.stop()
        self._base = scenario
        self._good = scenario_to_texts(scenario)
        self.panel.set_scenario(scenario)
        self.session.set_errors({})
        self.session.set_scenario(scenario)

    def apply_edits(self) -> None:
        """The panel's texts -> a valid scenario (simulated) or the errors (last run kept)."""
        self._debounce.stop()
        scenario, errors = build_scenario(self._base, self.panel.texts(), self._good)
        self.session.set_errors(errors)
        if errors:
            return
        self._good = self.panel.texts()
        if scenario != self.session.scenario or self.session.run is None:
            self.session.set_scenario(scenario)
            self._submit()
        elif not self.session.run_is_current and self._pending is None:
            self._on_run(self.session.run)  # back to the shown run's values: nothing to simulate

    def _submit_soon(self) -> None:
        QTimer.singleShot(0, self, self._submit)

    def _submit(self) -> None:
        scenario = self.session.scenario
        run = self.session.run
        if self._pending is not None and self._pending_scenario == scenario:
            return  # already on its way
        if run is not None and run.result.scenario == scenario and self._pending is None:
            return
        self.runner.prefetch_sm = self.session.selected_sm
        self._pending = self.runner.submit(scenario)
        self._pending_scenario = scenario
        self._progress = 0.0
        self._update_run_state()

    def _sim_progress(self, gen: int, fraction: float) -> None:
        if gen == self._pending:
            self._progress = fraction
            self._update_run_state()

    def _sim_finished(self, gen: int, run: SimRun) -> None:
        if not self.runner.is_latest(gen):
            return  # superseded while finishing
        self._pending = None
        self._last_error = ""
        self.session.set_run(run)
        if self.autoplay and not self._shown_once:
            self.clock.play()
        self._shown_once = True

    def _sim_failed(self, gen: int, field: str, message: str) -> None:
        if not self.runner.is_latest(gen):
            return
        self._pending = None
        key = field_of(field) if field else None
        self._last_error = core_error(field, message)
        if key is not None:
            self.panel.show_errors({key: message})
        self._update_run_state()
        self._set_status(self.tr("The simulation refused this scenario: {msg}. Showing the last good run.").format(
            msg=self._last_error))

    def _sim_crashed(self, gen: int, text: str) -> None:
        sys.stderr.write(text)
        if not self.runner.is_latest(gen):
            return
        self._pending = None
        self._last_error = text.strip().splitlines()[-1] if text.strip() else "?"
        self._update_run_state()
        self._set_status(self.tr("The simulation failed (a bug): {msg}").format(msg=self._last_error))

    def _record_sm(self, sm: int) -> None:
        run = self.session.run
        if run is not None:
            self.runner.record_sm(run.result.scenario, sm)

    def _sm_recorded(self, gen: int, sm: int, trace) -> None:
        run = self.session.run
        if run is None or trace is None or not self.runner.is_latest_sm(gen) or trace.shape[0] != run.cycles:
            return
        run.add_trace(sm, trace)
        self.timeline.trace_arrived(sm)
        self.grid.set_run(run)

    @property
    def simulating(self) -> bool:
        return self._pending is not None

    # -- session -> views -----------------------------------------------------------
    def _on_scenario(self, scenario: Scenario) -> None:
        self.panel.update_summary(scenario)
        self.metrics.whole.show_occupancy(self.session.occupancy)
        self._update_run_state()

    def _on_run(self, run: SimRun) -> None:
        s = self.session
        gpu = run.result.scenario.gpu
        self.grid_title.setText(self.tr(
            "<b>SM grid</b> — {gpu}: {sms} SMs × {w} warp slots · row = scheduler · "
            "outline = block · bar = resident warps"
        ).format(gpu=gpu.name, sms=run.sm_count, w=run.warps_per_sm))
        self.grid.set_run(run)
        self.grid.set_selected(s.selected_sm)
        self.timeline.set_run(run, s.selected_sm)
        self.counts.set_run(run)
        if self.per_sm.isChecked():
            self.counts.show_sm(s.selected_sm)
        self.metrics.whole.show_run(run)
        self.metrics.whole.show_occupancy(run.result.theoretical)
        self.transport.set_length(run.cycles)
        self._update_run_state()
        self._on_cycle(s.cycle)

    def _on_cycle(self, cycle: int) -> None:
        run = self.session.run
        if run is None:
            return
        self.grid.set_cycle(cycle)
        self.timeline.set_cycle(cycle)
        self.counts.set_cycle(cycle)
        self.metrics.now.show_cycle(run, cycle, run.result.theoretical)
        self.transport.set_cycle(cycle)

    def _on_selection(self, sm: int) -> None:
        self.grid.set_selected(sm)
        self.timeline.set_sm(sm)
        if self.per_sm.isChecked():
            self.counts.show_sm(sm)

    def _per_sm_toggled(self, on: bool) -> None:
        self.counts.show_sm(self.session.selected_sm if on else None)

    def _on_errors(self, errors: dict) -> None:
        self.panel.show_errors(errors)
        self._update_run_state()

    def _update_run_state(self) -> None:
        s = self.session
        stale = s.run is not None and not s.run_is_current
        if s.errors:
            text = self.tr("Invalid input ({n}): showing the last good simulation").format(n=len(s.errors))
            role = "error"
        elif self._pending is not None:
            text = self.tr("Simulating… {pct:.0f}%").format(pct=100 * self._progress)
            role = "muted"
            if s.run is not None:
                text += " " + self.tr("(showing the previous run)")
        elif self._last_error:
            text = self.tr("Simulation refused: showing the last good run")
            role = "error"
        else:
            text, role = "", "muted"
        if self.run_state.property("role") != role:
            self.run_state.setProperty("role", role)
            restyle(self.run_state)
        self.run_state.setText(text)
        self.grid.set_placeholder(text or self.tr("Simulating…"))
        self.metrics.whole.set_stale(stale, invalid=bool(s.errors or self._last_error))
        self._set_status(self._summary_text() if not (s.errors or self._last_error) else text)

    def _summary_text(self) -> str:
        run = self.session.run
        if run is None:
            return self.tr("Simulating {name}…").format(name=self.session.scenario.name or self.tr("the scenario"))
        sm = run.summary
        return self.tr("{gpu}: {warps} warps launched · theoretical occupancy {theo:.0f}% · achieved {ach}% · "
                       "issue slots used {iss}% · {cycles} cycles").format(
            gpu=sm["gpu"], warps=sm["launched_warps"], theo=100 * sm["theoretical_occupancy"],
            ach=num(100 * sm["achieved_occupancy"], 1), iss=num(100 * sm["issue_slot_utilization"], 1),
            cycles=sm["cycles"])

    def _set_status(self, text: str) -> None:
        if text != self.status_text:
            self.status_text = text
            self.status.emit(text)

    # -- window hooks ---------------------------------------------------------------
    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for view in (self.grid, self.timeline, self.counts, self.metrics, self.legend):
            view.apply_theme(theme)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            total = max(self.splitter.width(), 900)
            left = max(self.panel_scroll.minimumWidth(), min(300, self.panel.sizeHint().width() + 16))
            right = max(self.metrics_scroll.minimumWidth(), min(360, int(total * 0.22)))
            self.splitter.setSizes([left, total - left - right, right])
            h = max(self.center.height(), 500)
            self.center.setSizes([int(h * 0.54), int(h * 0.22), h - int(h * 0.54) - int(h * 0.22)])

    def shutdown(self) -> None:
        """Stop playback and the worker (the window is closing)."""
        self.clock.pause()
        self._debounce.stop()
        self.runner.shutdown()

    def _splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "center": self.center}

    def save_state(self, settings: QSettings) -> None:
        from explorer.model.tomlio import dumps

        settings.beginGroup("explorer")
        settings.setValue("scenario", dumps(self.session.scenario.to_dict()))
        settings.setValue("sm", self.session.selected_sm)
        settings.setValue("speed", self.clock.speed)
        settings.setValue("per_sm", self.per_sm.isChecked())
        save_splitters(settings, self._splitters())
        settings.endGroup()

    def restore_state(self, settings: QSettings) -> None:
        settings.beginGroup("explorer")
        try:
            text = read_str(settings, "scenario", "")
            if text:
                try:
                    scenario = Scenario.from_dict(tomllib.loads(text))
                except (InputError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
                    scenario = None  # a hand-edited or outdated file: start from the default
                if scenario is not None and scenario != self.session.scenario:
                    self.set_scenario(scenario)
            try:
                sm = int(settings.value("sm", 0))
            except (TypeError, ValueError):
                sm = 0
            self.session.select_sm(sm)
            try:
                speed = int(settings.value("speed", DEFAULT_SPEED))
            except (TypeError, ValueError):
                speed = DEFAULT_SPEED
            if speed in SPEEDS:
                self.transport.set_speed(speed)
                self.clock.speed = speed
            self.per_sm.setChecked(str(settings.value("per_sm", "false")).lower() == "true")
            if restore_splitters(settings, self._splitters()):
                self._sized = True
        finally:
            settings.endGroup()

