"""The one way the window runs slow work off the GUI thread: tasks with progress, cancel and "newest wins".

Simulations, re-simulations of one SM, GPU runs, calibrations, compiles, the driver
probe, measurement files and exports all go through :class:`TaskRunner` (modelled on
Orange's ``widgets/utils/concurrent.py``: an executor, a task state the work reports
through, results delivered to the GUI thread only by queued signals).

``runner.start(name, fn, on_done=..., on_error=..., on_progress=..., on_partial=...)``
runs ``fn(task)`` in the runner's ``QThreadPool``. The work talks to its
:class:`Task`: ``task.progress(text, fraction)`` (fraction ``None`` when unknown),
``task.partial(value)`` for results that arrive before the end, and
``task.cancelled`` / ``task.is_cancelled`` (what the core's ``cancel=`` hooks poll:
a simulation stops at its next chunk, a GPU run's child process is killed). The
callbacks run in the GUI thread.

``newest_wins=True`` makes a new task supersede the running and queued tasks of the
same name: they are cancelled *and disconnected* (none of their callbacks runs, a
queued one never starts), so only the newest request's result ever reaches a view.

Every exception becomes a :class:`TaskError` — ``input`` (an ``InputError``: bad
input, with its field), ``unavailable`` (no GPU, driver or compiler), ``run`` (the
GPU run failed or timed out), ``cancelled``, and ``bug`` (anything else: the
traceback goes to the log and into ``detail``) — so the window shows a message and
never crashes.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from explorer.gui.common.guard import report_bug

PROGRESS_INTERVAL_S = 0.05  # the same progress text is passed on at most 20 times a second
STATES = ("queued", "running", "done", "failed", "cancelled")


@dataclass(frozen=True)
class TaskError:
    """Why a task ended without a result."""

    kind: str  # input, unavailable, run, cancelled, bug
    message: str
    field: str = ""  # the InputError's field (kind "input")
    detail: str = ""  # the traceback (kind "bug")

    @property
    def text(self) -> str:
        """The message with its field in front, as the CLI prints an InputError."""
        return f"{self.field}: {self.message}" if self.field else self.message


CANCELLED = TaskError("cancelled", "cancelled")


def classify(exc: BaseException) -> TaskError:
    """The TaskError for an exception raised by a task's work."""
    from explorer.toolchain.errors import GpuRunError, GpuUnavailable
    from explorer.model.errors import InputError

    # not imported (or still being imported by another worker): nothing could have raised Cancelled
    cancelled = getattr(sys.modules.get("explorer.sim.engine"), "Cancelled", None)
    if isinstance(cancelled, type) and isinstance(exc, cancelled):
        return CANCELLED
    if isinstance(exc, GpuUnavailable):
        return TaskError("unavailable", str(exc))
    if isinstance(exc, GpuRunError):
        return CANCELLED if str(exc) == "cancelled" else TaskError("run", str(exc))
    if isinstance(exc, InputError):
        return TaskError("input", exc.message, exc.field or "")
    lines = [line for line in "".join(traceback.format_exception_only(type(exc), exc)).splitlines() if line.strip()]
    return TaskError("bug", lines[-1] if lines else type(exc).__name__, "", "".join(traceback.format_exception(exc)))


@dataclass(eq=False)
class Task:
    """One piece of work: what it reports goes to the GUI thread; ``cancel()`` asks it to stop."""

    id: int
    name: str
    on_done: Callable[[object], None] | None = None
    on_error: Callable[[TaskError], None] | None = None
    on_progress: Callable[[str, float | None], None] | None = None
    on_partial: Callable[[object], None] | None = None
    state: str = "queued"
    superseded: bool = False  # cancelled by a newer task of the same name (newest wins)
    _cancel: threading.Event = field(default_factory=threading.Event)
    _relay: _Relay | None = field(default=None, repr=False)
    _last_progress: tuple[float, str] = (0.0, "")

    # -- the GUI side ---------------------------------------------------------------
    def cancel(self) -> None:
        self._cancel.set()

    def disconnect(self) -> None:
        """None of the callbacks will run (the task's outcome no longer matters)."""
        self.on_done = self.on_error = self.on_progress = self.on_partial = None

    @property
    def done(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    # -- the worker side ------------------------------------------------------------
    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def is_cancelled(self) -> bool:
        """The ``cancel=`` callback the core's long loops poll."""
        return self._cancel.is_set()

    def progress(self, text: str = "", fraction: float | None = None) -> None:
        """Report progress; repeats of the same text come through at most every PROGRESS_INTERVAL_S."""
        now = time.perf_counter()
        last_time, last_text = self._last_progress
        text = str(text)
        if text == last_text and now - last_time < PROGRESS_INTERVAL_S and (fraction is None or fraction < 1):
            return
        self._last_progress = (now, text)
        self._emit("progress", self, text, fraction)

    def partial(self, value) -> None:
        """Hand a result that is ready before the end (``on_partial`` shows it)."""
        self._emit("partial", self, value)

    def sleep(self, seconds: float) -> None:
        """Wait up to ``seconds``, returning early once cancelled (tests slow work down with it)."""
        self._cancel.wait(seconds)

    def _emit(self, name: str, *args) -> None:
        relay = self._relay
        if relay is None:
            return
        try:
            getattr(relay, name).emit(*args)
        except RuntimeError:  # "Signal source has been deleted": the window closed under a running task
            self._relay = None


class _Relay(QObject):
    """Lives in the GUI thread; a worker emitting its signals queues the call there."""

    started = Signal(object)  # task
    progress = Signal(object, str, object)  # task, text, fraction or None
    partial = Signal(object, object)  # task, value
    finished = Signal(object, object)  # task, result
    failed = Signal(object, object)  # task, TaskError


class _Job(QRunnable):
    def __init__(self, task: Task, fn: Callable[[Task], object]):
        super().__init__()
        self.setAutoDelete(True)
        self.task, self.fn = task, fn

    def run(self) -> None:  # noqa: D401 - Qt API; runs in the pool's thread
        task = self.task
        if task.cancelled:  # superseded or cancelled while queued: never starts
            task._emit("failed", task, CANCELLED)
            return
        task.state = "running"
        task._emit("started", task)
        try:
            result = self.fn(task)
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a message
            try:
                error = classify(exc)
            except Exception:  # noqa: BLE001 - the report itself must not fail
                error = TaskError("bug", f"{type(exc).__name__}: {exc}", "", traceback.format_exc())
            if error.kind == "bug":
                report_bug(f"{task.name} task", error.detail)
            elif task.cancelled:
                error = CANCELLED
            task._emit("failed", task, error)
            return
        if task.cancelled:
            task._emit("failed", task, CANCELLED)
        else:
            task._emit("finished", task, result)


class TaskRunner(QObject):
    """Start tasks (``threads`` at a time); their callbacks run in the GUI thread."""

    task_started = Signal(object)  # Task, once its work began in a worker
    task_ended = Signal(object)  # Task, done, failed or cancelled (superseded ones included)

    def __init__(self, parent: QObject | None = None, threads: int = 1):
        super().__init__(parent)
        self.relay = _Relay(self)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(threads)
        self.tasks: dict[int, Task] = {}  # not yet ended
        self.submitted: Counter[str] = Counter()  # tasks started so far, by name
        self.closing = False
        self._next = 0
        self.relay.started.connect(self._started)
        self.relay.progress.connect(self._progress)
        self.relay.partial.connect(self._partial)
        self.relay.finished.connect(self._finished)
        self.relay.failed.connect(self._failed)

    def start(self, name: str, fn: Callable[[Task], object], *, on_done=None, on_error=None, on_progress=None,
              on_partial=None, newest_wins: bool = False) -> Task:
        """Run ``fn(task)`` in a worker; with ``newest_wins`` it supersedes the other tasks called ``name``."""
        if newest_wins:
            self.cancel(name, disconnect=True)
        self._next += 1
        task = Task(self._next, name, on_done, on_error, on_progress, on_partial, _relay=self.relay)
        self.tasks[task.id] = task
        self.submitted[name] += 1
        if self.closing:
            task.cancel()
        self.pool.start(_Job(task, fn))
        return task

    def running(self, name: str | None = None) -> list[Task]:
        """The tasks (called ``name``) that have not ended, superseded ones excluded."""
        return [t for t in self.tasks.values() if (name is None or t.name == name) and not t.superseded]

    def cancel(self, name: str | None = None, disconnect: bool = False) -> None:
        """Cancel the tasks called ``name`` (all with None); ``disconnect``: their callbacks never run."""
        for task in list(self.tasks.values()):
            if name is None or task.name == name:
                task.cancel()
                if disconnect:
                    task.superseded = True
                    task.disconnect()

    def busy(self) -> bool:
        """Whether a worker is running something now."""
        return self.pool.activeThreadCount() > 0

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Cancel everything and wait for the workers (the window is closing)."""
        self.closing = True
        self.cancel(disconnect=True)
        self.pool.clear()
        return self.pool.waitForDone(timeout_ms)

    # -- from the workers (GUI thread) --------------------------------------------------
    def _started(self, task: Task) -> None:
        self.task_started.emit(task)

    def _progress(self, task: Task, text: str, fraction) -> None:
        if task.on_progress is not None and not task.cancelled:
            task.on_progress(text, fraction)

    def _partial(self, task: Task, value) -> None:
        if task.on_partial is not None and not task.cancelled:
            task.on_partial(value)

    def _finished(self, task: Task, result) -> None:
        self.tasks.pop(task.id, None)
        task.state = "done"
        callback = task.on_done
        task.disconnect()  # a task reports once; and the result is not kept alive by the callbacks
        self.task_ended.emit(task)
        if callback is not None:
            callback(result)

    def _failed(self, task: Task, error: TaskError) -> None:
        self.tasks.pop(task.id, None)
        task.state = "cancelled" if error.kind == "cancelled" else "failed"
        callback = task.on_error
        task.disconnect()
        self.task_ended.emit(task)
        if callback is not None:
            callback(error)
