"""Says so while a worker waits for numba to compile the simulator or the kernel interpreter.

Why: numba compiles a function on its first call on a machine and caches the machine code (seconds
idle, a minute or more on a loaded 2-core machine). A worker in that call reports no progress: the
window showed "Simulating… 0%" for up to a minute. The watch looks, from the GUI thread, at the
functions a task is about to need (``explorer.jit.runtime.compile_state``: in memory, in numba's cache
for this machine, or to be compiled) and, while one is being compiled, gives the page a line
("Compiling the simulator once (about 9 s on an idle machine); later starts are instant") and a progress fraction
judged against the measured compile time in ``resources/compile_times.toml`` (held below 100%
until the code is there; a busy machine takes longer, the line then says "taking longer than
usual").

It never imports numba or the engine itself: a module the worker has not imported yet is not
being compiled. A cached entry loads in about a second; a wait on one longer than
``LOAD_GRACE_S`` is a compile too (the cache held the function for other argument types).
"""

from __future__ import annotations

import sys
import time
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.paths import resource

TICK_MS = 200
LOAD_GRACE_S = 3.0  # a cached entry loads in about a second; longer than this, numba is compiling
HOLD = 0.95  # the progress fraction stops here until the code is there


@dataclass(frozen=True)
class Part:
    """A compiled function a task may wait for: where it lives and what the window calls it."""

    key: str  # its table in compile_times.toml
    module: str
    function: str


SIMULATOR = Part("simulator_loop", "explorer.sim.kernel", "run_cycles")
INTERPRETER = Part("kernel_interpreter", "explorer.sass.execute.interp", "run")


@lru_cache(maxsize=1)
def compile_seconds() -> dict[str, float]:
    """The measured compile time of each part (``resources/compile_times.toml``)."""
    with open(resource("compile_times.toml"), "rb") as f:
        data = tomllib.load(f)
    return {key: float(table["seconds"]) for key, table in data.items() if isinstance(table, dict)}


def state_of(part: Part) -> str | None:
    """``explorer.jit.runtime.compile_state`` of the part, or None while its module is not imported."""
    module = sys.modules.get(part.module)
    dispatcher = getattr(module, part.function, None) if module is not None else None
    if dispatcher is None:
        return None
    from explorer.jit.runtime import compile_state

    return compile_state(dispatcher)


class CompileWatch(QObject):
    """While ``parts`` are being compiled for a task: :attr:`text` and :attr:`fraction` (``changed``)."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.parts: tuple[Part, ...] = ()
        self.compiling: Part | None = None  # what the task waits for now
        self.started = 0.0
        self.since = 0.0  # when that compile was first seen
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.poll)

    def start(self, *parts: Part) -> None:
        """A task that may need ``parts`` started."""
        self.parts, self.started, self.compiling = parts, time.monotonic(), None
        self._timer.start()
        self.poll()

    def stop(self) -> None:
        """The task ended (done, failed or cancelled)."""
        self._timer.stop()
        was, self.compiling, self.parts = self.compiling, None, ()
        if was is not None:
            self.changed.emit()

    @property
    def active(self) -> bool:
        return self.compiling is not None

    def poll(self) -> None:
        now = time.monotonic()
        found = None
        for part in self.parts:
            state = state_of(part)
            if state == "compiles" or (state == "cached" and now - self.started > LOAD_GRACE_S):
                found = part
                break
        if found is not self.compiling:
            self.compiling, self.since = found, now
            self.changed.emit()
        elif found is not None:
            self.changed.emit()  # the fraction moved

    @property
    def estimate_s(self) -> float:
        return compile_seconds().get(self.compiling.key, 0.0) if self.compiling is not None else 0.0

    @property
    def fraction(self) -> float:
        if self.compiling is None or self.estimate_s <= 0:
            return 0.0
        return min(HOLD, (time.monotonic() - self.since) / self.estimate_s)

    @property
    def text(self) -> str:
        """One line: what compiles, about how long, and that it happens once ("" when nothing compiles)."""
        if self.compiling is None:
            return ""
        estimate = self.estimate_s
        late = time.monotonic() - self.since > estimate
        if self.compiling is SIMULATOR:
            text = self.tr("Compiling the simulator once (about {s} s on an idle machine); later starts are "
                           "instant.")
        else:
            text = self.tr("Compiling the kernel interpreter once (about {s} s on an idle machine); later runs "
                           "are instant.")
        from explorer.texts.numbers import num

        text = text.format(s=num(round(estimate)))
        if late:
            text += " " + self.tr("This machine is busy: it is taking longer.")
        return text
