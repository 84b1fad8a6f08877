"""Bounded memory: runs beyond the limits are refused before they start; accepted runs stay
within the budget however long; binned series and shortened traces are faithful to the exact run;
progress moves; a cancelled run lets its memory go."""

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.model.errors import InputError
from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario
from explorer.sim import simulate
from explorer.sim.engine import estimate_run
from explorer.model.sim_model import model_constants
from tests.helpers import assert_one_line_error, run_cli

GIB = 2**30
REPO = Path(__file__).resolve().parents[2]
RSS_LIMIT = 2 * GIB  # issue 12: peak RSS of any accepted CLI run
ADDRESS_SPACE = 4 * GIB  # RLIMIT_AS for the child: a run that tried to hold much more fails instead of swapping

REFUSED = [
    # the documented maximum loop on the mission example: ~600 M cycles
    ["example-240x256", "--set", "workload.loop=1000000"],
    # 4 M blocks of 1024 threads on an RTX 5090
    ["example-240x256", "--set", "gpu=RTX5090", "--set", "launch.grid=[4194304,1,1]", "--set", "launch.block=[1024,1,1]"],
    # one block of 64 threads x 256 dependent FMAs, loop 1e6: ~1e9 cycles
    ["example-240x256", "--set", "launch.grid=[1,1,1]", "--set", "launch.block=[64,1,1]", "--set",
     "workload.loop=1000000", "--set", 'workload.body=[{op="ffma",count=256}]'],
]


@pytest.mark.parametrize("args", REFUSED)
def test_runs_beyond_the_limit_are_refused_before_they_start(args):
    started = time.perf_counter()
    proc = run_cli("simulate", *args)
    assert_one_line_error(proc, 2, "limit of 50,000,000")
    assert "estimated before it starts" in proc.stderr
    assert time.perf_counter() - started < 60  # nothing was simulated (the interpreter start dominates)


def test_runs_beyond_the_memory_budget_are_refused():
    s = load_preset("example-240x256").with_values(**{"launch.grid": [400000, 1, 1], "launch.block": [1024, 1, 1],
                                                      "workload.loop": 1, "workload.body": [{"op": "ffma"}]})
    estimate = estimate_run(s)
    assert estimate.cycles < estimate.max_cycles < 10**9
    assert estimate.memory_bytes > estimate.memory_budget_bytes
    with pytest.raises(InputError, match="budget of 1.5 GiB"):
        simulate(s)


def _limited_child(code: str, timeout: int) -> dict:
    """Run ``code`` in a child with an address-space limit; it prints a JSON line; add its own peak RSS (VmHWM)."""
    prelude = ("import json, resource, sys\n"
               f"sys.path.insert(0, {str(REPO)!r})\n"
               f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))\n")
    coda = "\nfrom tests.helpers import peak_rss_bytes\nprint(json.dumps(dict(out, maxrss=peak_rss_bytes())))\n"
    proc = subprocess.run([sys.executable, "-c", prelude + code + coda], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_largest_grid_stays_within_the_budget():
    """4,194,304 one-warp blocks (the block limit): per-warp records dominate, RSS stays far below 2 GB."""
    out = _limited_child(
        "from explorer.model.scenario import Scenario\n"
        "from explorer.sim import simulate\n"
        "s = Scenario().with_values(**{'launch.grid': [4194304, 1, 1], 'launch.block': [32, 1, 1],\n"
        "    'workload.loop': 1, 'workload.body': [{'op': 'ffma'}], 'program': 'model'})\n"  # 2 instructions a warp
        "r = simulate(s)\n"
        "out = {'cycles': r.cycles, 'summary_blocks': r.summary()['total_blocks']}\n", timeout=600)
    assert out["summary_blocks"] == 4194304
    assert out["maxrss"] < RSS_LIMIT


@pytest.mark.slow
def test_a_21_million_cycle_run_keeps_bounded_memory(tmp_path):
    """Issue 12's example: 5.2 GB before; the series are binned, the trace shortened, --out says so."""
    path = tmp_path / "long.npz"
    out = _limited_child(
        "import numpy as np\n"
        "from explorer.cli.main import main\n"
        "code = main(['simulate', 'memory-bound-stream', '--set', 'workload.loop=20000', '--set',\n"
        f"            'launch.grid=[132,1,1]', '--out', {str(path)!r}])\n"
        f"d = np.load({str(path)!r})\n"
        "out = {'code': code, 'stride': int(d['series_stride']), 'rows': len(d['issued']),\n"
        "       'trace_cycles': int(d['trace_cycles']), 'windows': d['unit_busy'].shape[0],\n"
        "       'cycles': json.loads(str(d['summary_json']))['cycles']}\n", timeout=1500)
    assert out["code"] == 0
    assert out["cycles"] > 20_000_000
    assert out["stride"] > 1 and out["rows"] == -(-out["cycles"] // out["stride"])
    assert out["trace_cycles"] < out["cycles"]
    assert out["windows"] <= model_constants()["trace"]["unit_windows"]
    assert out["maxrss"] < RSS_LIMIT


def test_cancelling_lets_the_run_memory_go():
    out = _limited_child(
        "import gc\n"
        "from explorer.model.presets import load_preset\n"
        "from explorer.sim import Cancelled, simulate\n"
        "def rss():\n"
        "    return int(open('/proc/self/statm').read().split()[1]) * 4096\n"
        "simulate(load_preset('example-240x256'))\n"
        "before = rss()\n"
        "s = load_preset('memory-bound-stream').with_values(**{'workload.loop': 2000, 'launch.grid': [132, 1, 1]})\n"
        "seen = []\n"
        "def progress(done, total):\n"
        "    seen.append((done / total, rss()))\n"
        "try:\n"
        "    simulate(s, progress=progress, cancel=lambda: seen[-1][0] > 0.5)\n"
        "except Cancelled:\n"
        "    pass\n"
        "gc.collect()\n"
        "out = {'before': before, 'peak_during': max(r for _, r in seen), 'after': rss()}\n", timeout=600)
    held = out["peak_during"] - out["before"]
    assert held > 100 * 2**20  # the run held its trace and series (a test that could not fail otherwise)
    assert out["after"] - out["before"] < 0.2 * held


def test_progress_moves_when_every_warp_finishes_at_the_end():
    """One wave whose warps all leave together: warps finished stay 0 until the end, yet progress moves."""
    s = load_preset("example-240x256").with_values(**{"workload.loop": 200})
    seen = []
    r = simulate(s, progress=lambda done, total: seen.append(done / total))
    assert r.cycles > 10 * model_constants()["trace"]["chunk_cycles"]
    assert seen == sorted(seen) and 0 < seen[0] and seen[-1] < 1
    assert seen[len(seen) // 2] > 0.25 and len(set(seen)) > len(seen) // 2


def _example(loop=64, policy="gto"):
    return load_preset("example-240x256").with_values(**{"workload.loop": loop, "scheduler.policy": policy})


@settings(max_examples=8, deadline=None)
@given(budget=st.sampled_from([8192 * 60 * 2, 8192 * 60 * 3, 200_000, 1_000_000]),
       policy=st.sampled_from(["gto", "lrr"]))
def test_binned_series_are_the_exact_series_binned(budget, policy):
    """Min / max / mean per bin, computed here with numpy from the exact run, and exact totals."""
    exact = simulate(_example(policy=policy))
    binned = simulate(_example(policy=policy), series_budget_bytes=budget)
    stride = binned.series_stride
    assert stride > 1 and stride & (stride - 1) == 0
    full = np.concatenate([exact.counts, exact.state_counts], axis=1).astype(np.int64)
    n = -(-exact.cycles // stride)
    pad = n * stride - exact.cycles
    lo = np.concatenate([full, np.repeat(full[-1:], pad, axis=0)]).reshape(n, stride, -1).min(axis=1)
    hi = np.concatenate([full, np.repeat(full[-1:], pad, axis=0)]).reshape(n, stride, -1).max(axis=1)
    sums = np.add.reduceat(full, np.arange(0, exact.cycles, stride), axis=0)
    lengths = np.minimum(stride, exact.cycles - np.arange(n) * stride)
    got = np.concatenate([binned.counts, binned.state_counts], axis=1)
    assert np.array_equal(np.concatenate([binned.counts_min, binned.state_counts_min], axis=1), lo)
    assert np.array_equal(np.concatenate([binned.counts_max, binned.state_counts_max], axis=1), hi)
    assert np.allclose(got, sums / lengths[:, None], rtol=1e-6)
    assert binned.summary()["warp_state_cycles"] == exact.summary()["warp_state_cycles"]
    assert binned.count_total("issued") == exact.count_total("issued") == int(exact.issued.sum())
    assert binned.row_of(exact.cycles - 1) == n - 1 and binned.series_cycles[-1] == (n - 1) * stride


def test_a_trace_too_big_for_every_sm_keeps_fewer_sms_exactly():
    exact = simulate(_example())
    per_sm = exact.cycles * exact.params.warps_per_sm
    small = simulate(_example(), trace_budget_bytes=20 * per_sm)
    assert 1 <= len(small.recorded_sms) <= 20 + 1 and small.trace_cycles == small.cycles == exact.cycles
    for sm in small.recorded_sms:
        assert np.array_equal(small.sm_trace(sm), exact.sm_trace(sm))


def test_a_trace_too_long_for_one_sm_keeps_its_first_cycles():
    exact = simulate(_example(), record_sms=[5])
    short = simulate(_example(), record_sms=[5], trace_budget_bytes=8192 * 64)
    assert 0 < short.trace_cycles < short.cycles == exact.cycles
    assert np.array_equal(short.sm_trace(5), exact.sm_trace(5)[: short.trace_cycles])
    late = short.states_at(short.trace_cycles + 1)
    assert (late == 255).all()  # not kept: unknown, not empty


def test_a_scenario_default_run_is_within_budget_and_exact():
    """Short runs keep everything: stride 1, every SM, the whole run."""
    r = simulate(Scenario())
    assert r.series_stride == 1 and len(r.recorded_sms) == r.params.sm_count and r.trace_cycles == r.cycles
