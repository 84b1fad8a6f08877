"""The executor benchmark as a (slow) test: it prints the figures; no timing is asserted.

Run: ``pytest -m slow -s tests/perf/test_execute_perf.py`` (or ``python tests/perf/bench_execute.py``).
"""

from __future__ import annotations

import json

import pytest

from tests.perf.bench_execute import run_benchmark
from tests.sass.support import needs_sass


@pytest.mark.slow
@needs_sass
def test_execute_benchmark_runs_and_prints(capsys):
    result = run_benchmark(repeats=1)
    with capsys.disabled():
        print("\nexecutor benchmark:", json.dumps(result, indent=1))
    for label in ("execute", "execute + stream", "execute + timing"):
        assert result[label]["warp_instructions"] == 786_432  # 32,768 warps x 24 (sm_90 SASS)
