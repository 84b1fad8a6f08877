"""The GUI benchmark as a (slow) test: it prints the figures; no timing is asserted.

Run: ``pytest -m slow -s tests/perf`` (or ``python tests/perf/bench_gui.py``).
The figures go to the README by hand; asserting them here would make the suite
fail on a busy machine rather than on a regression.
"""

from __future__ import annotations

import json

import pytest

from tests.perf.bench_gui import run_benchmark


@pytest.mark.slow
def test_gui_benchmark_runs_and_prints(qapp, capsys):
    result = run_benchmark(frames=300, with_startup=True)
    with capsys.disabled():
        print("\nGUI benchmark:", json.dumps(result, indent=1))
    frame = result["frame"]
    assert frame["grid_paints"] == frame["frames"]  # every frame was really painted
    assert result["playback"]["grid_paints"] > 0
    assert result["sass"]["visible"] and result["sass"]["relayouts"] == 0  # following moves a highlight only
    assert result["resimulation"]["rounds"] == 5
    assert result["startup"]["window_painted_s"] > 0
