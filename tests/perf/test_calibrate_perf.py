"""The calibration benchmark as a (slow) test: it prints the figures; no timing is asserted.

Run: ``pytest -m slow -s tests/perf/test_calibrate_perf.py`` (or ``python tests/perf/bench_calibrate.py
--before REF`` for an A/B).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="calibration runs dozens of simulations")

from tests.perf.bench_calibrate import files_of, machine, run_once, REPO  # noqa: E402


@pytest.mark.slow
def test_calibrate_benchmark_runs_and_prints(capsys):
    out = run_once(REPO, files_of("five"), None)
    with capsys.disabled():
        print("\ncalibration benchmark (five files):", json.dumps({"machine": machine(), "run": out}, indent=1))
    assert out["rms_after"] < out["rms_before"]
    assert out["progress_lines"] >= out["simulations"] + 3  # the plan, each simulation, the time left, the end
