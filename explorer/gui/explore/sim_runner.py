"""Simulations off the GUI thread: one worker, newest request wins.

``SimRunner.submit(scenario)`` starts a simulation in a ``QThreadPool`` of one
thread and returns its generation number. A newer ``submit`` supersedes it: the
running job's ``cancel()`` callback sees the newer generation and the core raises
``Cancelled`` at its next chunk boundary (8192 cycles; the compiled loop runs
without the GIL, so the GUI stays live meanwhile), and jobs still queued are
dropped before they start. Results reach the GUI thread only through queued
signals; the derived arrays (``SimRun``) are built in the worker too.

``record_sm(scenario, sm)`` re-simulates one SM whose per-slot trace the run did
not keep (long runs); it is superseded only by another ``record_sm``.
"""

from __future__ import annotations

import threading
import time
import traceback

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario


class _Signals(QObject):
    """Lives in the GUI thread; emitting from the worker queues the call there."""

    started = Signal(int)
    progress = Signal(int, float)  # generation, fraction done
    finished = Signal(int, object)  # generation, SimRun
    failed = Signal(int, str, str)  # generation, field, message (bad input)
    crashed = Signal(int, str)  # generation, traceback text (a bug)
    cancelled = Signal(int)
    sm_recorded = Signal(int, int, object)  # generation, sm, uint8[cycles, W]


class _Job(QRunnable):
    def __init__(self, runner: "SimRunner", generation: int, scenario: Scenario, sm: int | None = None):
        super().__init__()
        self.setAutoDelete(True)
        self.runner, self.generation, self.scenario, self.sm = runner, generation, scenario, sm

    def superseded(self) -> bool:
        if self.runner.closing:
            return True
        latest = self.runner._latest_sm if self.sm is not None else self.runner._latest
        return self.generation != latest

    def emit(self, name: str, *args) -> bool:
        """Emit a signal; False once the runner is gone (the window closed under a running job)."""
        try:
            getattr(self.runner.signals, name).emit(*args)
            return True
        except RuntimeError:  # "Signal source has been deleted"
            self.runner.closing = True
            return False

    def run(self) -> None:  # noqa: D401 - Qt API; runs in the pool's thread
        gen = self.generation
        if self.superseded():
            self.emit("cancelled", gen)
            return
        self.emit("started", gen)
        try:
            from explorer.sim import Cancelled, simulate  # numba loads here, off the GUI thread
        except Exception:  # noqa: BLE001 - a broken install: say so in the window
            self.emit("crashed", gen, traceback.format_exc())
            return
        from explorer.gui.explore.run_data import SimRun

        try:
            last = [0.0]

            def progress(done: int, total: int) -> None:
                now = time.perf_counter()
                if now - last[0] > 0.05:
                    last[0] = now
                    self.emit("progress", gen, done / max(total, 1))

            delay = self.runner.test_delay_s
            if delay:  # tests: make a run slow enough to be superseded
                self._sleep(delay)
            if self.sm is not None:
                result = simulate(self.scenario, record_sms=[self.sm], cancel=self.superseded)
                self.emit("sm_recorded", gen, self.sm, result.sm_trace(self.sm))
                return
            result = simulate(self.scenario, progress=progress, cancel=self.superseded)
            if self.superseded():
                raise Cancelled()
            run = SimRun.from_result(result)
            run.pyramid(self.runner.prefetch_sm)  # the selected SM's timeline, ready on arrival
            self.emit("finished", gen, run)
        except Cancelled:
            self.emit("cancelled", gen)
        except InputError as exc:
            self.emit("failed", gen, exc.field, exc.message)
        except Exception as exc:  # noqa: BLE001 - reported to the GUI, never lost in the thread
            self.emit("crashed", gen, "".join(traceback.format_exception(exc)))

    def _sleep(self, seconds: float) -> None:
        from explorer.sim import Cancelled

        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if self.superseded():
                raise Cancelled()
            time.sleep(0.005)


class SimRunner(QObject):
    """Submit scenarios; listen to ``signals``. Owned by the explorer page."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.signals = _Signals(self)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._lock = threading.Lock()
        self._latest = 0
        self._latest_sm = 0
        self._next = 0
        self.closing = False
        self.prefetch_sm = 0
        self.test_delay_s = 0.0  # tests only: sleep (cancellably) before simulating
        self.cancelled_generations: list[int] = []
        self.signals.cancelled.connect(self.cancelled_generations.append)

    def _new_generation(self) -> int:
        with self._lock:
            self._next += 1
            return self._next

    def submit(self, scenario: Scenario) -> int:
        gen = self._new_generation()
        self._latest = gen
        self.pool.start(_Job(self, gen, scenario))
        return gen

    def record_sm(self, scenario: Scenario, sm: int) -> int:
        gen = self._new_generation()
        self._latest_sm = gen
        self.pool.start(_Job(self, gen, scenario, sm))
        return gen

    def is_latest(self, generation: int) -> bool:
        return generation == self._latest

    def is_latest_sm(self, generation: int) -> bool:
        return generation == self._latest_sm

    def cancel_all(self) -> None:
        self._latest = self._latest_sm = -1

    def busy(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything and wait for the worker (window closing, app quitting)."""
        self.closing = True
        self.cancel_all()
        self.pool.clear()
        return self.pool.waitForDone(timeout_ms)
