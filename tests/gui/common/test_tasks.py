"""The one task runner: results in the GUI thread, progress and partial results, cancel, newest wins."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication

from explorer.gui.common.tasks import TaskRunner
from explorer.model.errors import InputError


@pytest.fixture
def runner(qapp):
    r = TaskRunner(threads=1)
    yield r
    r.shutdown()
    r.deleteLater()


def wait_ended(qtbot, *tasks, timeout=10_000):
    qtbot.waitUntil(lambda: all(t.done for t in tasks), timeout=timeout)


def test_the_result_and_progress_arrive_in_the_gui_thread(runner, qtbot):
    seen = []
    worker_threads = []

    def work(task):
        worker_threads.append(threading.get_ident())
        task.progress("half", 0.5)
        task.partial([1, 2])
        return 42

    gui = threading.get_ident()
    task = runner.start("job", work, on_done=lambda r: seen.append(("done", r, threading.get_ident())),
                        on_progress=lambda text, f: seen.append(("progress", text, f)),
                        on_partial=lambda value: seen.append(("partial", value)))
    wait_ended(qtbot, task)
    assert worker_threads and worker_threads[0] != gui
    assert seen == [("progress", "half", 0.5), ("partial", [1, 2]), ("done", 42, gui)]
    assert task.state == "done" and runner.submitted["job"] == 1 and runner.tasks == {}


def test_errors_become_task_errors(runner, qtbot, caplog):
    errors = []
    bad_input = runner.start("input", lambda _t: (_ for _ in ()).throw(InputError("launch.grid.x", "0 is below 1")),
                             on_error=errors.append)
    with caplog.at_level(logging.ERROR, logger="warp_explorer"):
        bug = runner.start("bug", lambda _t: 1 / 0, on_error=errors.append)
        wait_ended(qtbot, bad_input, bug)
    first, second = errors
    assert (first.kind, first.field, first.message, first.text) == (
        "input", "launch.grid.x", "0 is below 1", "launch.grid.x: 0 is below 1")
    assert second.kind == "bug" and second.message == "ZeroDivisionError: division by zero"
    assert "Traceback" in second.detail and "1 / 0" in second.detail
    assert "ZeroDivisionError" in caplog.text  # the bug's traceback went to the log
    assert bad_input.state == bug.state == "failed"


def test_cancel_stops_the_work_and_says_cancelled(runner, qtbot):
    errors = []
    running = threading.Event()

    def work(task):
        running.set()
        while not task.cancelled:
            time.sleep(0.005)
        return "too late"

    task = runner.start("long", work, on_done=lambda r: errors.append(r), on_error=errors.append)
    assert running.wait(5)
    task.cancel()
    wait_ended(qtbot, task)
    assert [e.kind for e in errors] == ["cancelled"] and task.state == "cancelled"


def test_newest_wins_cancels_and_disconnects_the_older_tasks(runner, qtbot):
    seen = []
    first_running, release = threading.Event(), threading.Event()

    def slow(task):
        first_running.set()
        release.wait(5)  # the worker stays busy, so the second task stays queued
        return "first"

    started = []
    runner.task_started.connect(started.append)
    first = runner.start("sim", slow, newest_wins=True, on_done=seen.append, on_error=seen.append)
    assert first_running.wait(5)
    queued = runner.start("sim", lambda _t: "second", newest_wins=True, on_done=seen.append, on_error=seen.append)
    assert first.cancelled and first.superseded  # at once, while it runs
    newest = runner.start("sim", lambda _t: "third", newest_wins=True, on_done=seen.append, on_error=seen.append)
    other = runner.start("record", lambda _t: "other", newest_wins=True, on_done=seen.append)
    assert queued.cancelled and not newest.cancelled and not other.cancelled
    release.set()
    wait_ended(qtbot, first, queued, newest, other)
    assert seen == ["third", "other"]  # the superseded ones said nothing at all
    assert first.state == queued.state == "cancelled" and newest.state == other.state == "done"
    assert first in started and queued not in started  # superseded while queued: it never ran
    assert runner.running() == []


def test_a_cancelled_simulation_stops_at_its_next_chunk(runner, qtbot):
    """The core's cancel hook is the task's: superseding a simulation ends it long before it would finish."""
    from explorer.model.presets import load_preset

    scenario = load_preset("memory-bound-stream").with_values(**{"workload.loop": 400})
    chunks = []

    def simulate(task):
        from explorer.sim import simulate as run

        return run(scenario, cancel=task.is_cancelled, progress=lambda done, total: chunks.append(done))

    first = runner.start("sim", simulate, newest_wins=True)
    qtbot.waitUntil(lambda: len(chunks) >= 1, timeout=60_000)
    t0 = time.perf_counter()
    newest = runner.start("sim", lambda _t: "next", newest_wins=True)
    wait_ended(qtbot, first, newest, timeout=30_000)
    assert first.state == "cancelled" and newest.state == "done"
    assert time.perf_counter() - t0 < 10


def test_shutdown_cancels_running_work_and_waits(qapp):
    runner = TaskRunner(threads=2)
    entered = threading.Barrier(3)

    def work(task):
        entered.wait(5)
        while not task.cancelled:
            time.sleep(0.005)

    tasks = [runner.start("w", work) for _ in range(2)]
    entered.wait(5)
    assert runner.busy()
    assert runner.shutdown(5000)
    assert not runner.busy() and all(t.cancelled for t in tasks)
    late = runner.start("w", lambda _t: 1)  # a closing runner starts nothing
    assert late.cancelled
    runner.pool.waitForDone(2000)
    runner.deleteLater()
    QApplication.processEvents()


def test_callbacks_never_run_in_a_worker(runner, qtbot):
    where = []
    task = runner.start("x", lambda _t: None, on_done=lambda _r: where.append(QThread.currentThread()))
    wait_ended(qtbot, task)
    assert where == [QApplication.instance().thread()]
