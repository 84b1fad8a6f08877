"""Slow GPU-side work off the GUI thread: probing the driver, measuring, calibrating, compiling.

``TaskRunner.start(fn, ...)`` runs ``fn(progress, cancelled)`` in a small
``QThreadPool``; ``progress(text, fraction)`` (fraction ``None`` when unknown) and
the outcome reach the GUI thread only through queued signals. ``cancelled()``
turns True after ``Task.cancel()``; the work polls it (the measurement's child
process is killed within 0.1 s, a simulation stops at its next chunk).

Every exception becomes a (kind, message) pair — ``unavailable`` (no GPU, no
driver, no compiler), ``input`` (a kernel that does not compile, a bad file, a
launch that fits nothing), ``run`` (the GPU run failed or timed out),
``cancelled`` and ``bug`` (anything else; the traceback goes to stderr) — so
the window shows a message and never crashes.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Signals(QObject):
    progress = Signal(int, str, object)  # task id, text, fraction or None
    finished = Signal(int, object)  # task id, result
    failed = Signal(int, str, str)  # task id, kind, message


def classify(exc: BaseException) -> tuple[str, str]:
    """(kind, one-line message) for an exception raised by GPU-side work."""
    from explorer.gpu.errors import GpuRunError, GpuUnavailable
    from explorer.model.errors import InputError

    engine = sys.modules.get("explorer.sim.engine")  # not imported: nothing could have raised Cancelled
    if engine is not None and isinstance(exc, engine.Cancelled):
        return "cancelled", "cancelled"
    if isinstance(exc, GpuUnavailable):
        return "unavailable", str(exc)
    if isinstance(exc, GpuRunError):
        text = str(exc)
        return ("cancelled" if text == "cancelled" else "run"), text
    if isinstance(exc, InputError):
        field_name = getattr(exc, "field", "")
        message = getattr(exc, "message", str(exc))
        return "input", f"{field_name}: {message}" if field_name else message
    lines = [line for line in "".join(traceback.format_exception_only(type(exc), exc)).splitlines() if line.strip()]
    return "bug", lines[-1] if lines else type(exc).__name__


@dataclass(eq=False)
class Task:
    id: int
    name: str
    on_done: Callable[[object], None] | None = None
    on_error: Callable[[str, str], None] | None = None
    on_progress: Callable[[str, float | None], None] | None = None
    _cancel: threading.Event = field(default_factory=threading.Event)
    done: bool = False

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()


class _Job(QRunnable):
    def __init__(self, runner: TaskRunner, task: Task, fn: Callable):
        super().__init__()
        self.setAutoDelete(True)
        self.runner, self.task, self.fn = runner, task, fn

    def _emit(self, name: str, *args) -> None:
        try:
            getattr(self.runner.signals, name).emit(*args)
        except RuntimeError:  # the window (and the runner) went away under a running job
            pass

    def run(self) -> None:  # noqa: D401 - Qt API; runs in the pool's thread
        task = self.task

        def progress(text: str, fraction: float | None = None) -> None:
            self._emit("progress", task.id, str(text), fraction)

        try:
            result = self.fn(progress, lambda: task.cancelled)
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a message
            kind, message = classify(exc)
            if kind == "bug":
                sys.stderr.write("".join(traceback.format_exception(exc)))
            if task.cancelled and kind != "bug":
                kind, message = "cancelled", "cancelled"
            self._emit("failed", task.id, kind, message)
            return
        if task.cancelled:
            self._emit("failed", task.id, "cancelled", "cancelled")
        else:
            self._emit("finished", task.id, result)


class TaskRunner(QObject):
    """Start tasks; their callbacks run in the GUI thread."""

    def __init__(self, parent: QObject | None = None, threads: int = 3):
        super().__init__(parent)
        self.signals = _Signals(self)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(threads)
        self.tasks: dict[int, Task] = {}
        self._next = 0
        self.signals.progress.connect(self._progress)
        self.signals.finished.connect(self._finished)
        self.signals.failed.connect(self._failed)

    def start(self, name: str, fn: Callable, on_done=None, on_error=None, on_progress=None) -> Task:
        self._next += 1
        task = Task(self._next, name, on_done, on_error, on_progress)
        self.tasks[task.id] = task
        self.pool.start(_Job(self, task, fn))
        return task

    def running(self, name: str | None = None) -> list[Task]:
        return [t for t in self.tasks.values() if name is None or t.name == name]

    def _progress(self, task_id: int, text: str, fraction) -> None:
        task = self.tasks.get(task_id)
        if task is not None and task.on_progress is not None and not task.cancelled:
            task.on_progress(text, fraction)

    def _finished(self, task_id: int, result) -> None:
        task = self.tasks.pop(task_id, None)
        if task is not None:
            task.done = True
            if task.on_done is not None:
                task.on_done(result)

    def _failed(self, task_id: int, kind: str, message: str) -> None:
        task = self.tasks.pop(task_id, None)
        if task is not None:
            task.done = True
            if task.on_error is not None:
                task.on_error(kind, message)

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Cancel everything and wait for the threads (the window is closing)."""
        for task in self.tasks.values():
            task.cancel()
        self.pool.clear()
        return self.pool.waitForDone(timeout_ms)
