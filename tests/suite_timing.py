"""How the suite keeps inside CI's time: slow tests last and under a budget, a ceiling per main-set test,
the compiled loops built once before any test, and a frozen heap so the GUI tests' collections stay cheap.

Why each part:

- ``.ci/run`` must finish well inside CI's 90 minutes (target 25, issue 27). The main set (every test not
  marked ``slow``) always runs; the ``slow`` set (the PyInstaller bundle, long fuzz campaigns, sweeps of
  every lesson step at every size) runs after it, in the same command, while the time budget allows:
  ``.ci/run`` exports the deadline (``WARP_EXPLORER_TEST_DEADLINE``, seconds since the epoch) and a slow
  test that could not finish before it (``@pytest.mark.slow(expect_s=...)``, else :data:`SLOW_ALLOWANCE_S`)
  is skipped with that reason; the summary lists what was skipped. Without the variable (a developer's run) every test runs.
- A main-set test that runs longer than :data:`MAIN_TEST_LIMIT_S` fails, naming the limit: it either gets
  faster or moves to the slow set, so the main set cannot creep back to an hour. Every test also has a
  timeout (``timeout`` in pyproject.toml, pytest-timeout), so a hang fails one test instead of CI.
- numba compiles the simulator's loop and the executor's interpreter once per checkout (``cache=True``);
  inside a test that took minutes under load. The controller compiles both, in parallel, before the
  workers start (:func:`explorer.jit.warm.warm`), and every test then loads machine code.
- After collection every module the tests import is loaded: :func:`gc.freeze` moves those objects out of
  the collector's reach, so each ``gc.collect()`` (the GUI tests' leak check runs them) walks only what the
  test made (~50 ms -> a few ms each here).
"""

from __future__ import annotations

import gc
import os
import time

import pytest

DEADLINE_ENV = "WARP_EXPLORER_TEST_DEADLINE"
MAIN_TEST_LIMIT_S = 60.0
SLOW_ALLOWANCE_S = 90.0  # what a slow test may need unless its mark says (slow(expect_s=...))
BUDGET_REASON = "over .ci/run's time budget"


def deadline() -> float | None:
    value = os.environ.get(DEADLINE_ENV)
    try:
        return float(value) if value else None
    except ValueError:
        return None


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: slower end-to-end tests, run last and only while .ci/run's time "
                                       "budget allows (tests/suite_timing.py); slow(expect_s=N): what it needs")


def pytest_sessionstart(session):
    """Before xdist starts its workers (its own sessionstart runs last): compile once, in the controller."""
    config = session.config
    if _is_worker(config) or os.environ.get("WARP_EXPLORER_NO_WARM"):
        return
    from explorer.jit.warm import warm

    started = time.monotonic()
    lines = warm()
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if lines and tr is not None:
        tr.write_line(f"numba: {'; '.join(lines)} ({time.monotonic() - started:.1f} s)")


def pytest_collection_modifyitems(session, config, items):
    """Slow tests last (a stable sort: the rest keep their order)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is not None)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


def _allowance(item) -> float:
    mark = item.get_closest_marker("slow")
    return float(mark.kwargs.get("expect_s", SLOW_ALLOWANCE_S))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    end = deadline()
    if end is None or item.get_closest_marker("slow") is None:
        return
    left = end - time.time()
    need = _allowance(item)
    if left < need:
        pytest.skip(f"{BUDGET_REASON}: {max(left, 0):.0f} s left, this slow test may need {need:.0f} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (call.when == "call" and report.passed and item.get_closest_marker("slow") is None
            and call.duration > MAIN_TEST_LIMIT_S):
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} took {call.duration:.0f} s, over the main set's {MAIN_TEST_LIMIT_S:.0f} s "
                           "per test (tests/suite_timing.py): make it faster or mark it slow")


def pytest_terminal_summary(terminalreporter):
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if isinstance(r.longrepr, tuple) and BUDGET_REASON in str(r.longrepr[2])]
    if skipped:
        terminalreporter.write_line(f"time budget: {len(skipped)} slow test(s) not run (they run when there is time: "
                                    "a developer's run, or a faster CI machine):")
        for r in skipped:
            terminalreporter.write_line(f"  {r.nodeid}")
