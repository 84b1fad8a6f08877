"""Guided lessons in the window: a Lessons menu, a narration panel, steps on PageDown/PageUp.

The lessons are data (``resources/lessons/*.toml``, read by the Qt-free
:mod:`explorer.model.lessons`). Playing step *k*:

1. the narration, title and "step k of n" show at once;
2. the step's scenario (the last one a step loaded, plus every change since) goes
   to the Explorer as a scenario change that is not an undo step, so the worker
   re-simulates it (nothing happens when it is already on screen);
3. once that simulation is on screen: the step's cycle (``Step.resolve_cycle``),
   its SM, its view (``window.show_view``) and a spotlight on its panels
   (``window.lesson_targets``). A view or panel this build lacks is skipped
   quietly. The step's view page gets ``show_lesson_step(step, scenario)`` (the
   GEMM view reads ``step.gemm``), and every page ``follow_lesson(step, scenario)``,
   so no tab contradicts the narration: the Explorer shows the counts the step
   names (``step.counts``: GPU-wide or the selected SM) with the whole run in view,
   the calculator holds the step's launch.

Starting a lesson remembers each page's view state (``Page.view_state``: splitters,
per-SM counts, the calculator's inputs, the GEMM inputs) and the tab, and lays the
pages out in their default layout (outside presentation mode, which fits the
layout itself); leaving the lesson gives all of that back. The scenario it reached
stays, simulated and editable.

The narration panel is as tall as the narration needs at the window's width (it
follows the text, the window's size and presentation mode's scale), up to 40% of
the window and no more than the tab in front leaves it (its minimum height: a
short window at 1280x720 leaves the Explorer's views less than 40%); a narration
that would need more is set a little smaller (never below the window's own text
size) rather than cut. While it shows, only the tab in front sets how short the
tab area may be (the other pages' heights are ignored), so a step on the Memory
or GEMM tab gets the room the Explorer's taller minimum would take.
Narration follows :meth:`LessonController.set_language` ("en" by default, or the
application's language when it is one the lessons are written in).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from explorer.gui.common.core_texts import interface_language
from explorer.gui.lessons.overlay import overlay_for
from explorer.model.lessons import LANGUAGES, Lesson, load_lessons, skipped_lessons
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

NARRATION_SCALE = 1.45  # narration text, relative to the window's font
TITLE_SCALE = 1.25
MAX_SHARE = 0.4  # of the window's height, at most, for the narration panel


def app_language() -> str:
    """The application's language when the lessons speak it, else English."""
    code = interface_language()
    return code if code in LANGUAGES else "en"


class LessonPanel(QWidget):
    """Title, counter, narration and the buttons; shows what the controller says."""

    previous_requested = Signal()
    next_requested = Signal()
    close_requested = Signal()
    lesson_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("lesson_panel")
        self.choose = QComboBox(self)
        self.choose.setObjectName("lesson_choose")
        self.choose.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.choose.setToolTip(self.tr("Choose a lesson"))
        self.choose.activated.connect(self._chosen)
        self.counter = QLabel(self)
        self.counter.setObjectName("lesson_counter")
        self.pending = QLabel(self)
        self.pending.setObjectName("lesson_pending")
        self.pending.setProperty("role", "muted")
        self.prev_button = QPushButton(self.tr("◀ Previous"), self)
        self.prev_button.setObjectName("lesson_previous")
        self.prev_button.setToolTip(self.tr("Previous step (Page Up)"))
        self.next_button = QPushButton(self.tr("Next ▶"), self)
        self.next_button.setObjectName("lesson_next")
        self.next_button.setToolTip(self.tr("Next step (Page Down)"))
        self.end_button = QPushButton(self.tr("End lesson"), self)
        self.end_button.setObjectName("lesson_end")
        self.end_button.setToolTip(self.tr("Leave the lesson; the scenario it reached stays, ready to edit."))
        for button in (self.prev_button, self.next_button, self.end_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # PageDown/PageUp keep working
        self.prev_button.clicked.connect(self.previous_requested)
        self.next_button.clicked.connect(self.next_requested)
        self.end_button.clicked.connect(self.close_requested)

        self.narration = QLabel(self)
        self.narration.setObjectName("lesson_narration")
        self.narration.setWordWrap(True)
        self.narration.setTextFormat(Qt.TextFormat.PlainText)
        self.narration.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.narration.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.narration.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.note = QLabel(self)
        self.note.setObjectName("lesson_note")
        self.note.setProperty("role", "muted")
        self.note.setWordWrap(True)
        self.note.hide()
        base = self.font().pointSizeF()
        self._base_pt = base
        self.scale = 1.0  # presentation mode's (display_scale_changed)
        big = QFont(self.font())
        big.setPointSizeF(base * NARRATION_SCALE)
        self.narration.setFont(big)
        self.narration.setProperty("display_scale_own_font", True)  # sized here: fit_narration
        bold = QFont(self.font())
        bold.setPointSizeF(base * TITLE_SCALE)
        bold.setBold(True)
        self.counter.setFont(bold)
        self.choose.setFont(bold)

        head = QHBoxLayout()
        head.setSpacing(10)
        head.addWidget(self.choose)
        head.addWidget(self.counter)
        head.addWidget(self.pending)
        head.addStretch(1)
        head.addWidget(self.prev_button)
        head.addWidget(self.next_button)
        head.addWidget(self.end_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 3, 10, 3)  # thin: on a 1280x720 window every pixel is a narration line's
        layout.setSpacing(4)
        layout.addLayout(head)
        layout.addWidget(self.narration, 1)
        layout.addWidget(self.note)
        self.show_idle()

    def set_lessons(self, lessons, lang: str, current: str | None) -> None:
        self.choose.blockSignals(True)
        self.choose.clear()
        if current is None:
            self.choose.addItem(self.tr("Choose a lesson…"), "")
        for i, lesson in enumerate(lessons, 1):
            self.choose.addItem(f"{i}. {lesson.title_text(lang)}", lesson.name)
        index = self.choose.findData(current or "")
        self.choose.setCurrentIndex(max(0, index))
        self.choose.blockSignals(False)

    def _chosen(self, index: int) -> None:
        name = self.choose.itemData(index)
        if name:
            self.lesson_chosen.emit(name)

    def show_idle(self) -> None:
        self.counter.setText("")
        self.pending.setText("")
        self.narration.setText(self.tr(
            "Choose a lesson above or in the Lessons menu. Page Down and Page Up (what presentation "
            "clickers send) move through its steps."))
        self.note.hide()
        for button in (self.prev_button, self.next_button, self.end_button):
            button.setEnabled(False)

    def show_step(self, index: int, count: int, text: str, program: str = "") -> None:
        """``program``: the instruction stream whose figures the narration quotes ("model", "sass"; "" when the
        lesson runs whatever the user's start runs), said beside the step counter (issue 31 item 9)."""
        counter = self.tr("Step {k} of {n}").format(k=index + 1, n=count)
        if program == "model":
            counter += " · " + self.tr("figures of the workload model")
        elif program == "sass":
            counter += " · " + self.tr("figures of the kernel's SASS")
        self.counter.setText(counter)
        self.counter.setToolTip(self.tr("This lesson runs its scenarios with the workload model (the generated "
                                        "kernel's loop as the simulator's own program), so its figures differ a "
                                        "little from the default start's, which runs the kernel's SASS; leaving the "
                                        "lesson restores the program you had.") if program == "model" else "")
        self.narration.setText(text)
        self.prev_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < count - 1)
        self.end_button.setEnabled(True)

    def set_pending(self, pending: bool) -> None:
        self.pending.setText(self.tr("Simulating…") if pending else "")

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def display_scale_changed(self, scale: float) -> None:
        """Presentation mode's scale: the narration's largest size follows it (fit_narration may set it smaller)."""
        self.scale = scale
        self.set_narration_size(self._base_pt * NARRATION_SCALE * scale)

    def set_narration_size(self, points: float) -> None:
        font = QFont(self.narration.font())
        if abs(font.pointSizeF() - points) > 1e-6:
            font.setPointSizeF(points)
            self.narration.setFont(font)

    def fit_narration(self, max_height: int) -> None:
        """The narration at its full size if the panel then fits in ``max_height``; else in steps of 5%
        smaller, down to the window's own text size."""
        top = self._base_pt * NARRATION_SCALE * self.scale
        floor = self.smallest_narration_size()
        points = top
        while True:
            self.set_narration_size(points)
            if self.wanted_height() <= max_height or points <= floor:
                return
            points = max(floor, points * 0.95)

    def smallest_narration_size(self) -> float:
        """The window's own text size (at presentation mode's scale): the narration is never set smaller."""
        return self._base_pt * self.scale

    def wanted_height(self) -> int:
        """Height that shows the whole narration at the current width."""
        margins = self.layout().contentsMargins()
        width = max(200, self.width() - margins.left() - margins.right())
        text_h = self.narration.heightForWidth(width)
        head_h = max(self.choose.sizeHint().height(), self.next_button.sizeHint().height())
        spacing = self.layout().spacing()
        note_h = self.note.heightForWidth(width) + spacing if self.note.isVisible() else 0
        return margins.top() + head_h + spacing + text_h + note_h + margins.bottom() + 4


class LessonController(QObject):
    """Plays lessons on a main window (its workspace, the Explorer's playback clock, views and lesson targets)."""

    lesson_changed = Signal(object)  # the Lesson now playing, or None
    step_changed = Signal(int)  # a new step's narration is showing (its simulation may follow)
    step_shown = Signal(int)  # the step is fully on screen: its run, cycle, SM, view, spotlight

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.lessons: tuple[Lesson, ...] = load_lessons()
        skipped = skipped_lessons()
        if skipped:  # a malformed lesson file costs that lesson, said once (issue 30, item 7)
            window.statusBar().showMessage(self.tr("Lesson skipped: {why}").format(why=skipped[0]), 20000)
        self.language = app_language()
        self.lesson: Lesson | None = None
        self.index = 0
        self.ready = False
        self._target: Scenario | None = None  # the scenario whose run the current step waits for
        self._start: Scenario | None = None  # the scenario in effect when the lesson began
        self._saved: dict | None = None  # the tab and each page's view state when the lesson began
        self.overlay = overlay_for(window)

        self.panel = LessonPanel()
        self.dock = QDockWidget(self.tr("Lesson"), window)
        self.dock.setObjectName("lesson_dock")
        self.dock.setWidget(self.panel)
        self.dock.setAllowedAreas(Qt.DockWidgetArea.BottomDockWidgetArea | Qt.DockWidgetArea.TopDockWidgetArea
                                  | Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.LeftDockWidgetArea)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.dock.hide()
        self.panel.previous_requested.connect(self.previous)
        self.panel.next_requested.connect(self.next)
        self.panel.close_requested.connect(self.stop)
        self.panel.lesson_chosen.connect(self.start)
        self.dock.visibilityChanged.connect(lambda _v: QTimer.singleShot(0, self, self.fit_dock))
        self._refit = QTimer(self)  # the window's size changed: the narration's height with it
        self._refit.setSingleShot(True)
        self._refit.setInterval(30)
        self._refit.timeout.connect(self.fit_dock)
        window.installEventFilter(self)
        window.tabs.currentChanged.connect(lambda _i: self._refit.start())  # another page's minimum height

        session = window.workspace.session  # the Explorer's scenario and run
        session.run_changed.connect(self._on_run)
        session.scenario_changed.connect(self._on_scenario)
        self._build_menu()
        self._refresh_texts()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.window and event.type() == QEvent.Type.Resize:
            self._refit.start()
        return False

    # -- menu and keys ------------------------------------------------------------------
    def _build_menu(self) -> None:
        w = self.window
        self.menu = QMenu(self.tr("&Lessons"), w)
        w.menuBar().insertMenu(w.help_menu.menuAction(), self.menu)
        self.lesson_actions: dict[str, QAction] = {}
        for lesson in self.lessons:
            action = QAction(w)
            action.triggered.connect(lambda _c=False, name=lesson.name: self.start(name))
            self.menu.addAction(action)
            self.lesson_actions[lesson.name] = action
        self.menu.addSeparator()
        self.next_action = QAction(self.tr("&Next step"), w)
        self.next_action.setShortcut(QKeySequence(Qt.Key.Key_PageDown))
        self.next_action.triggered.connect(self.next)
        self.previous_action = QAction(self.tr("&Previous step"), w)
        self.previous_action.setShortcut(QKeySequence(Qt.Key.Key_PageUp))
        self.previous_action.triggered.connect(self.previous)
        self.stop_action = QAction(self.tr("&End lesson"), w)
        self.stop_action.triggered.connect(self.stop)
        for action in (self.next_action, self.previous_action, self.stop_action):
            self.menu.addAction(action)
            w.addAction(action)  # the keys work with the menu bar hidden too
        self.menu.addSeparator()
        self.panel_action = self.dock.toggleViewAction()
        self.panel_action.setText(self.tr("Show the lesson &panel"))
        self.menu.addAction(self.panel_action)
        self._update_actions()

    def _update_actions(self) -> None:
        active = self.lesson is not None
        self.next_action.setEnabled(active and self.index < len(self.lesson.steps) - 1)
        self.previous_action.setEnabled(active and self.index > 0)
        self.stop_action.setEnabled(active)

    def _refresh_texts(self) -> None:
        lang = self.language
        for i, lesson in enumerate(self.lessons, 1):
            # Alt+1..9, then Alt+0 for lesson 10 ("1&0": "&10" would take the 1 of lesson 1 again)
            number = f"&{i}" if i < 10 else "1&0" if i == 10 else str(i)
            self.lesson_actions[lesson.name].setText(f"{number}  {lesson.title_text(lang)}")
        self.panel.set_lessons(self.lessons, lang, self.lesson.name if self.lesson else None)
        if self.lesson is None:
            self.dock.setWindowTitle(self.tr("Lesson"))
        else:
            self.dock.setWindowTitle(self.tr("Lesson: {title}").format(title=self.lesson.title_text(lang)))
            # the program matters where the Explorer's figures are on screen (a GEMM or Memory step's are the
            # GEMM model's); there the counter says whose figures the narration quotes
            program = self.lesson.program if self.step.view == "explorer" else ""
            self.panel.show_step(self.index, len(self.lesson.steps), self.step.text(lang), program)
        self.fit_dock()

    # -- language -------------------------------------------------------------------------
    def set_language(self, code: str) -> None:
        """Narration and lesson titles in ``code`` ("en", "ru"); other codes fall back to English."""
        code = (code or "en").split("_")[0].lower()
        self.language = code if code in LANGUAGES else "en"
        self._refresh_texts()

    # -- playing --------------------------------------------------------------------------
    @property
    def step(self):
        return self.lesson.steps[self.index] if self.lesson is not None else None

    def find(self, name: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.name == name:
                return lesson
        raise InputError("lesson", f"unknown lesson {name!r}; lessons: {', '.join(l.name for l in self.lessons)}")

    def start(self, lesson: str | Lesson, step: int = 0) -> None:
        """Begin a lesson (by name) at ``step`` (0-based)."""
        if isinstance(lesson, str):
            lesson = self.find(lesson)
        if self.lesson is None:
            self._start = self.window.workspace.scenario
            self._enter_view()
        self.lesson = lesson
        self.dock.show()
        self.dock.raise_()
        self.lesson_changed.emit(lesson)
        self.go(step)

    def next(self) -> None:
        if self.lesson is not None and self.index < len(self.lesson.steps) - 1:
            self.go(self.index + 1)

    def previous(self) -> None:
        if self.lesson is not None and self.index > 0:
            self.go(self.index - 1)

    def stop(self) -> None:
        """Leave the lesson: spotlight off; the scenario it reached stays (simulated, editable), but run by the
        program the user had before (a lesson that quotes the workload model's figures switches the program for
        its steps only: issue 31 item 9)."""
        if self.lesson is None:
            return
        lesson, start = self.lesson, self._start
        self.lesson = None
        workspace = self.window.workspace
        now = workspace.scenario
        if lesson.program and start is not None and now is not None and now.program != start.program:
            workspace.change_scenario(now.with_values(program=start.program), "lesson")
        self.index = 0
        self._target = None
        self.ready = False
        self.overlay.clear_targets()
        self.panel.show_idle()
        self.panel.set_note("")
        self._refresh_texts()
        self._update_actions()
        self._leave_view()
        self.lesson_changed.emit(None)

    # -- the view state a lesson borrows ------------------------------------------------------
    def _enter_view(self) -> None:
        """Remember the tab and every page's view state; the default layout while the lesson plays."""
        w = self.window
        self._saved = {"tab": w.tabs.currentIndex(),
                       "pages": {name: page.view_state() for name, page in w.views.items()
                                 if callable(getattr(page, "view_state", None))}}
        presentation = w.feature("presentation")
        if presentation is None or not presentation.presenting:
            for page in w.views.values():
                if callable(getattr(page, "default_layout", None)):
                    page.default_layout()

    def _leave_view(self) -> None:
        """Give back what :meth:`_enter_view` remembered (the scenario stays: it is the lesson's result)."""
        saved, self._saved = self._saved, None
        if not saved:
            return
        w = self.window
        for name, state in saved["pages"].items():
            page = w.views.get(name)
            if page is not None:
                page.restore_view_state(state)
        if 0 <= saved["tab"] < w.tabs.count():
            w.tabs.setCurrentIndex(saved["tab"])

    def go(self, index: int) -> None:
        """Show step ``index`` (0-based) of the current lesson."""
        lesson = self.lesson
        if lesson is None:
            return
        index = max(0, min(int(index), len(lesson.steps) - 1))
        self.index = index
        self.ready = False
        step = lesson.steps[index]
        self.window.explorer.clock.pause()
        self.overlay.clear_targets()
        self.panel.set_note("")
        self._refresh_texts()
        self._update_actions()
        self.step_changed.emit(index)
        try:
            scenario = lesson.scenario_at(index, self._start)
        except InputError as exc:  # the shipped lessons are validated; a hand-made one may not be
            self._target = None
            self.panel.set_note(self.tr("This step's scenario is not valid: {msg}").format(msg=str(exc)))
            return
        if step.view != "explorer":  # nothing on that view waits for the explorer's run
            self._show_view_and_spotlight(step, scenario)
        self._target = scenario
        workspace = self.window.workspace
        session = workspace.session
        if session.scenario == scenario and session.run_is_current:
            self._finish(session.run)
            return
        self.panel.set_pending(True)
        workspace.change_scenario(scenario, "lesson")
        if session.run_is_current and session.run.result.scenario == scenario:
            self._finish(session.run)  # the run on screen was this scenario's all along (e.g. after an invalid edit)

    def show_step_with_run(self, lesson: str | Lesson, index: int, run) -> None:
        """Show a step with a run computed elsewhere (``warp-explorer render --lesson``): no worker."""
        if isinstance(lesson, str):
            lesson = self.find(lesson)
        self.lesson = lesson
        self.index = max(0, min(int(index), len(lesson.steps) - 1))
        self.dock.show()
        self._refresh_texts()
        self._update_actions()
        self._target = run.result.scenario
        self.window.workspace.show_run(run, "lesson")
        self._finish(run)

    # -- session events -------------------------------------------------------------------
    def _on_scenario(self, scenario: Scenario) -> None:
        if self._target is not None and scenario != self._target:
            self._target = None  # the user took over (an edit, a preset, a file): stop waiting
            self.panel.set_pending(False)

    def _on_run(self, run) -> None:
        if self._target is not None and run.result.scenario == self._target and not self.ready:
            # the explorer shows it during this same notification; move the cycle right after
            QTimer.singleShot(0, self, lambda r=run: None if self.ready else self._finish(r))

    def _finish(self, run) -> None:
        if self.lesson is None or self._target is None or run.result.scenario != self._target:
            return
        step = self.step
        session = self.window.workspace.session
        if session.run is not run:
            return
        self.panel.set_pending(False)
        if step.select_sm is not None:
            session.select_sm(step.select_sm)
        session.set_cycle(step.resolve_cycle(run.cycles))
        self._show_view_and_spotlight(step, run.result.scenario)
        self.ready = True
        self.step_shown.emit(self.index)

    def _show_view_and_spotlight(self, step, scenario: Scenario) -> None:
        w = self.window
        for each in w.views.values():
            follow = getattr(each, "follow_lesson", None)
            if callable(follow):
                follow(step, scenario)
        page = w.views.get(step.view)
        hook = getattr(page, "show_lesson_step", None)
        if callable(hook):
            hook(step, scenario)
        shown = w.show_view(step.view)
        if not shown:
            self.panel.set_note(self.tr("(This step belongs to a view this version does not have; "
                                        "the narration still applies.)"))
        targets = [t for t in (w.lesson_targets.get(name) for name in step.highlight) if t is not None]
        self.overlay.set_targets(targets, keep_bright=[self.dock])
        self.reveal_targets()
        QTimer.singleShot(0, self, self.fit_dock)

    def reveal_targets(self) -> None:
        """Scroll each spotlit panel inside a scrolled column (the DRAM row) into view."""
        for target in self.overlay.targets:
            area = _scroll_area_of(target)
            if area is not None:
                area.ensureWidgetVisible(target, 0, 0)
                if target.height() > area.viewport().height():  # Qt centres a taller one: its top instead
                    top = target.mapTo(area.widget(), target.rect().topLeft()).y()
                    area.verticalScrollBar().setValue(top)

    def highlighted(self) -> list[QWidget]:
        return list(self.overlay.targets)

    # -- state: a rebuilt window (View > Language) ---------------------------------------
    def capture_state(self, live: bool = False) -> dict:
        """Nothing between runs; for a rebuilt window, the lesson, its step and what it shows."""
        if not live or self.lesson is None:
            return {}
        targets = self.overlay.targets
        return {"lesson": self.lesson.name, "index": self.index, "start": self._start, "ready": self.ready,
                "saved": self._saved,
                "highlight": [name for name, w in self.window.lesson_targets.items() if w in targets]}

    def restore_state(self, state: dict) -> None:
        """Go on with a lesson where another window's controller was; a shown step is not replayed."""
        self.lesson = self.find(state["lesson"])
        self.index = max(0, min(int(state["index"]), len(self.lesson.steps) - 1))
        self._start = state["start"]
        self._saved = state.get("saved")  # given back when the lesson ends, in this window
        self.dock.show()
        self._refresh_texts()
        self._update_actions()
        session = self.window.workspace.session
        if not state["ready"] or session.run is None:
            self.go(self.index)  # the step was still waiting for its simulation: wait again
            return
        self._target = session.run.result.scenario
        self.ready = True
        targets = [self.window.lesson_targets.get(name) for name in state["highlight"]]
        self.overlay.set_targets([t for t in targets if t is not None], keep_bright=[self.dock])
        QTimer.singleShot(0, self, self.fit_dock)

    # -- layout ---------------------------------------------------------------------------
    def fit_dock(self, exact: bool = False) -> None:
        """Tall enough for the whole narration, never more than 40% of the window nor more than the tab in
        front leaves (the narration is set smaller to fit what it gets, as far as the window's text size).
        A few pixels more than the text needs are left as they are (a dock that follows its text does not
        jitter; never fewer: the narration's last line was cut by 4 px at 1280x720 in Russian) unless ``exact``:
        leaving presentation mode gives back a fresh window's height (3 px more were kept, and the Explorer's
        plots lacked them)."""
        w = self.window
        area = w.dockWidgetArea(self.dock)
        beside = area in (Qt.DockWidgetArea.BottomDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)
        if not self.dock.isVisible() or self.dock.isFloating() or not beside:
            return
        chrome = self.dock.height() - self.panel.height()
        cap = int(w.height() * MAX_SHARE)
        presentation = w.feature("presentation")
        if presentation is None or not presentation.presenting:  # presenting, a smaller scale makes the room
            cap = min(cap, self._room())
        self.panel.fit_narration(cap - chrome)
        want = min(self.panel.wanted_height() + chrome, cap)
        # a few pixels taller than the text are left (no jitter), never a pixel shorter: that cuts a line
        if want > self.dock.height() or self.dock.height() - want > (0 if exact else 4):
            w.resizeDocks([self.dock], [want], Qt.Orientation.Vertical)
        QTimer.singleShot(0, self, self.reveal_targets)  # once the columns have their height: scroll again

    def _room(self) -> int:
        """The most height the dock can have: its own and what the tab area can give up above its minimum
        (the tab in front's only: ``shell.front_tabs``)."""
        w = self.window
        w.layout().activate()  # the heights of now, with the tab now in front
        tabs = w.tabs
        least = max(tabs.minimumSizeHint().height(), tabs.minimumHeight())
        return self.dock.height() + max(0, tabs.height() - least)


def _scroll_area_of(widget: QWidget) -> QScrollArea | None:
    """The scroll area whose content holds ``widget`` (None: it is not inside one)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and parent.widget() is not None and parent.widget().isAncestorOf(widget):
            return parent
        parent = parent.parentWidget()
    return None


def install(window) -> None:
    window.add_feature("lessons", LessonController(window))
