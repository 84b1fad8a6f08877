"""The SASS program benchmark as a (slow) test: it prints the figures; no timing is asserted.

Run: ``pytest -m slow -s tests/perf/test_program_perf.py`` (or ``python tests/perf/bench_program.py``).
"""

from __future__ import annotations

import json

import pytest

from tests.perf.bench_program import run_benchmark
from tests.sass.support import needs_sass


@pytest.mark.slow
@needs_sass
def test_program_benchmark_runs_and_prints(capsys):
    result = run_benchmark(repeats=1)
    with capsys.disabled():
        print("\nSASS program benchmark:", json.dumps(result, indent=1))
    for r in result.values():
        assert r["cache"] == ["miss", "hit"]  # the second build came from the cache
        assert r["cold_s"] > r["cached_s"] > 0
