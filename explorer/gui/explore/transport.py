"""Playback: the transport bar (play/pause, steps, scrub slider, speed) and its clock.

The clock ticks at the display rate (~60 Hz) and advances the cycle by
speed × elapsed time, so playback runs at the chosen cycles per second however
fast frames are drawn; a slow frame skips cycles rather than slowing time.
"""

from __future__ import annotations

import time

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QSlider, QToolButton, QWidget

from explorer.texts.numbers import num
from explorer.gui.common.widgets import select_data

SPEEDS = (10, 30, 100, 300, 1000, 3000, 10000, 30000)  # cycles per second
DEFAULT_SPEED = 300
FRAME_MS = 16


def playback_keys(widget: QWidget, *, play: Callable[[], None], step: Callable[[int], None],
                  to_start: Callable[[], None], to_end: Callable[[], None]) -> dict[str, QAction]:
    """The playback keys (Space, Left/Right, Shift+Left/Right, Home/End) on ``widget``, by name.

    Active anywhere in ``widget`` except while typing in a field (the shortcuts'
    context is the widget and its children), so every page that plays cycles (the
    Explorer, the A/B compare) has the same keys and the same texts.
    """
    translate = QCoreApplication.translate
    keys = (
        ("play", translate("ExplorerPage", "Play / pause"), "Space", play),
        ("back1", translate("ExplorerPage", "Back one cycle"), "Left", lambda: step(-1)),
        ("fwd1", translate("ExplorerPage", "Forward one cycle"), "Right", lambda: step(1)),
        ("back100", translate("ExplorerPage", "Back 100 cycles"), "Shift+Left", lambda: step(-100)),
        ("fwd100", translate("ExplorerPage", "Forward 100 cycles"), "Shift+Right", lambda: step(100)),
        ("start", translate("ExplorerPage", "First cycle"), "Home", to_start),
        ("end", translate("ExplorerPage", "Last cycle"), "End", to_end),
    )
    actions: dict[str, QAction] = {}
    for name, text, key, slot in keys:
        action = QAction(text, widget)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        widget.addAction(action)
        actions[name] = action
    return actions


class PlaybackClock(QObject):
    """Emits ``advance(cycles)`` while playing; ``finished`` is the page's business."""

    advance = Signal(int)
    playing_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._tick)
        self.speed = DEFAULT_SPEED
        self._last = 0.0
        self._carry = 0.0

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def play(self) -> None:
        if not self.playing:
            self._last = time.perf_counter()
            self._carry = 0.0
            self.timer.start()
            self.playing_changed.emit(True)

    def pause(self) -> None:
        if self.playing:
            self.timer.stop()
            self.playing_changed.emit(False)

    def _tick(self) -> None:
        now = time.perf_counter()
        dt = min(now - self._last, 0.25)  # after a stall, do not leap
        self._last = now
        self._carry += self.speed * dt
        steps = int(self._carry)
        if steps:
            self._carry -= steps
            self.advance.emit(steps)


class TransportBar(QWidget):
    """Buttons, slider and speed; it shows the cycle and asks for new ones through signals."""

    cycle_requested = Signal(int)
    step_requested = Signal(int)
    play_toggled = Signal()
    speed_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("transport")

        def button(text: str, tip: str, name: str) -> QToolButton:
            b = QToolButton(self)
            b.setText(text)
            b.setToolTip(tip)
            b.setObjectName(name)
            b.setAutoRaise(False)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the page's shortcuts
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            return b

        self.start_button = button("|◀", self.tr("Go to the first cycle (Home)"), "to_start")
        self.back100 = button("−100", self.tr("Back 100 cycles (Shift+Left)"), "back100")
        self.back1 = button("−1", self.tr("Back one cycle (Left)"), "back1")
        self.play = button(self.tr("▶ Play"), self.tr("Play or pause (Space)"), "play")
        self.play.setMinimumWidth(self.play.fontMetrics().horizontalAdvance(self.tr("▮▮ Pause")) + 20)
        self.fwd1 = button("+1", self.tr("Forward one cycle (Right)"), "fwd1")
        self.fwd100 = button("+100", self.tr("Forward 100 cycles (Shift+Right)"), "fwd100")
        self.end_button = button("▶|", self.tr("Go to the last cycle (End)"), "to_end")
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("scrub")
        self.slider.setToolTip(self.tr("Drag to scrub through the run."))
        self.slider.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cycle_label = QLabel(self)
        self.cycle_label.setObjectName("cycle_label")
        self.cycle_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.cycle_label.setMinimumWidth(self.fontMetrics().horizontalAdvance(self.tr("cycle 88,888,888 of 88,888,888")) + 8)
        speed_label = QLabel(self.tr("Speed:"), self)
        self.speed = QComboBox(self)
        self.speed.setObjectName("speed")
        for s in SPEEDS:
            self.speed.addItem(self.tr("{n} cycles/s").format(n=num(s)), s)
        self.speed.setCurrentIndex(SPEEDS.index(DEFAULT_SPEED))
        self.speed.setToolTip(self.tr("Simulated cycles per second of playback."))
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        speed_label.setBuddy(self.speed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setSpacing(4)
        for w in (self.start_button, self.back100, self.back1, self.play, self.fwd1, self.fwd100, self.end_button):
            layout.addWidget(w)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.cycle_label)
        layout.addSpacing(8)
        layout.addWidget(speed_label)
        layout.addWidget(self.speed)

        self.start_button.clicked.connect(lambda: self.cycle_requested.emit(0))
        self.end_button.clicked.connect(lambda: self.cycle_requested.emit(self.slider.maximum()))
        self.back100.clicked.connect(lambda: self.step_requested.emit(-100))
        self.back1.clicked.connect(lambda: self.step_requested.emit(-1))
        self.fwd1.clicked.connect(lambda: self.step_requested.emit(1))
        self.fwd100.clicked.connect(lambda: self.step_requested.emit(100))
        self.play.clicked.connect(self.play_toggled)
        self.slider.valueChanged.connect(self._slider_moved)
        self.speed.currentIndexChanged.connect(lambda _i: self.speed_changed.emit(int(self.speed.currentData())))
        self._total = 0
        self._updating = False

    def set_length(self, cycles: int) -> None:
        self._total = cycles
        self._updating = True
        self.slider.setRange(0, max(cycles - 1, 0))
        self.slider.setPageStep(max(1, cycles // 20))
        self._updating = False

    def set_cycle(self, cycle: int) -> None:
        self._updating = True
        self.slider.setValue(cycle)
        self._updating = False
        self.cycle_label.setText(self.tr("cycle {c} of {n}").format(c=num(cycle), n=num(self._total)))

    def set_playing(self, playing: bool) -> None:
        self.play.setText(self.tr("▮▮ Pause") if playing else self.tr("▶ Play"))

    def set_speed(self, speed: int) -> None:
        select_data(self.speed, speed)

    def _slider_moved(self, value: int) -> None:
        if not self._updating:
            self.cycle_requested.emit(value)
