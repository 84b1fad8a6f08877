"""measure --iteration-clocks: the diagnostic kernel's source, the file's new array, and the analysis of which
iterations were slow (explorer.gpu.iterations), each against a hand-made case."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from explorer.gpu.iterations import episodes, format_lines, iteration_waits, runs, summary
from explorer.gpu.measurement import ITERATION_ARRAY, load_measurement
from explorer.model.errors import InputError
from explorer.model.presets import load_preset
from explorer.toolchain.codegen import ITERATION_CLOCK_LIMIT, generate
from explorer.toolchain.errors import MeasurementFormatError
from tests.gpu.test_measurement_file import make_measurement, rewrite


def _example(loop=16):
    return load_preset("example-240x256").with_values(**{"workload.loop": loop})


# -- the kernel --------------------------------------------------------------------------------------------------

def test_the_default_kernel_is_unchanged_and_the_variant_only_adds_the_clocks():
    plain, probe = generate(_example()), generate(_example(), iteration_clocks=True)
    assert plain.iteration_clock_words == 0 and "iclk" not in plain.source
    assert probe.iteration_clock_words == 1920 * 17
    added = [line for line in probe.source.splitlines() if line not in plain.source.splitlines()]
    # the parameter (last), a store at each iteration's top and one after the loop, and the header's note
    assert any(line.strip() == "unsigned long long* iclk)" for line in added)
    assert sum("iclk[gwarp * 17ull + it] = we_clock()" in line for line in added) == 1
    assert sum("iclk[gwarp * 17ull + 16ull] = we_clock()" in line for line in added) == 1
    assert sum(line.startswith("// note: iteration clocks") for line in added) == 1
    assert len(added) == 5  # "float fc," lost its closing parenthesis to the new parameter
    source = probe.source
    assert source.index("iclk[gwarp * 17ull + it]") > source.index("for (u32 it = 0;")


@pytest.mark.parametrize("kwargs, message", [
    ({"per_warp": False}, "needs per-warp records"),
])
def test_the_variant_refuses_what_it_cannot_record(kwargs, message):
    with pytest.raises(InputError) as info:
        generate(_example(), iteration_clocks=True, **kwargs)
    assert info.value.field == "--iteration-clocks" and message in str(info.value)


def test_the_variant_is_bounded_before_any_work():
    loop = ITERATION_CLOCK_LIMIT // 1920 + 1  # one clock word per warp too many
    with pytest.raises(InputError) as info:
        generate(_example(loop), iteration_clocks=True)
    assert "above the limit of 16,777,216" in str(info.value)


# -- the analysis, on hand-made clocks -----------------------------------------------------------------------------

def _with_clocks(clocks, starts):
    m = make_measurement()  # 6 warps (tests/gpu/test_analysis.py's WARPS)
    warps = dict(m.warps, start=np.asarray(starts, np.int64))
    meta = dict(m.meta, launch=dict(m.meta["launch"], iteration_clocks=clocks.shape[1]))
    return dataclasses.replace(m, meta=meta, warps=warps, iteration_clocks=np.asarray(clocks, np.int64))


def _even(warps=6, loop=8, step=500):
    return np.tile(np.arange(loop + 1, dtype=np.int64) * step, (warps, 1))


def test_no_slow_iteration_when_every_warp_steps_evenly():
    w = iteration_waits(_with_clocks(_even(), [0] * 6))
    assert w.slow_warp.size == 0 and (w.median == 500).all()
    s = summary(_with_clocks(_even(), [0] * 6))
    assert s["slow_iterations"] == 0 and s["largest_episode"] is None
    assert "no slow iteration" in format_lines(s)[1]


def test_same_time_different_iterations_is_one_episode_across_iterations():
    """Warps 1 and 2 lose 3,000 cycles at the same moment, in different iterations (they started apart):
    one event in time, not one place in the stream."""
    c = _even()
    starts = [0, 0, 1000, 0, 0, 0]
    c[1, 5:] += 3000  # warp 1's iteration 4 runs from 2,000 to 5,500
    c[2, 3:] += 3000  # warp 2's iteration 2 runs from 1,000 + 1,000: overlaps warp 1's
    w = iteration_waits(_with_clocks(c, starts))
    assert w.slow_warp.tolist() == [1, 2] and w.slow_iteration.tolist() == [4, 2]  # by start, then warp
    assert w.slow_start.tolist() == [2000, 2000] and w.slow_extra.tolist() == [3000, 3000]
    (e,) = episodes(w)
    assert e.warps == (1, 2) and e.iterations == (2, 4) and e.count == 2 and e.last_end == 5500
    s = summary(_with_clocks(c, starts))
    assert s["episodes"] == 1 and s["episodes_across_iterations"] == 1 and s["slow_per_iteration"][2:5] == [1, 0, 1]


def test_same_iteration_different_times_are_separate_episodes():
    """Warps 0 and 4 lose time in the same iteration, far apart in time: the same place in the stream."""
    c = _even()
    starts = [0, 0, 0, 0, 50_000, 0]
    c[0, 4:] += 3000
    c[4, 4:] += 3000
    w = iteration_waits(_with_clocks(c, starts))
    eps = episodes(w)
    assert [e.warps for e in eps] == [(0,), (4,)] and all(e.iterations == (3,) for e in eps)
    assert [e.first for e in eps] == [1500, 51_500]
    s = summary(_with_clocks(c, starts))
    assert s["episodes"] == 2 and s["episodes_across_iterations"] == 0 and s["slow_warps"] == 2


def test_the_slow_rule_needs_both_the_factor_and_the_cycles():
    c = _even(step=400)
    c[0, 2:] += 900  # 1,300 of 400: over 2x, but 900 more is under 1,000 more
    c[1, 2:] += 1000  # 1,400: both
    w = iteration_waits(_with_clocks(c, [0] * 6))
    assert w.slow_warp.tolist() == [1]


def test_runs_of_neighbouring_warps():
    assert runs((7, 3, 4, 5, 9, 10)) == [(3, 5), (7, 7), (9, 10)] and runs(()) == []


# -- the file --------------------------------------------------------------------------------------------------

def test_iteration_clocks_round_trip(tmp_path):
    c = _even()
    c[3, 2:] += 5000
    m = _with_clocks(c, [0] * 6)
    back = load_measurement(m.save(tmp_path / "i.npz"))
    assert np.array_equal(back.iteration_clocks, c) and back.meta["launch"]["iteration_clocks"] == 9
    assert summary(back) == summary(m)


@pytest.mark.parametrize("change, message", [
    (lambda flat, meta: (flat[:-1], meta), "expected 6 warps x 9 clocks"),
    (lambda flat, meta: (flat[::-1].copy(), meta), "run backwards"),
    (lambda flat, meta: (flat, {**meta, "launch": {k: v for k, v in meta["launch"].items()
                                                   if k != "iteration_clocks"}}), "without per-warp records"),
    (lambda flat, meta: (flat, {**meta, "launch": {**meta["launch"], "iteration_clocks": "9"}}),
     "launch.iteration_clocks must be an integer"),
])
def test_a_damaged_iteration_array_is_one_clear_error(tmp_path, change, message):
    path = _with_clocks(_even(), [0] * 6).save(tmp_path / "i.npz")
    with np.load(path) as npz:
        flat, meta = npz[ITERATION_ARRAY], json.loads(str(npz["meta_json"]))
    flat, meta = change(flat, meta)
    rewrite(path, **{ITERATION_ARRAY: flat, "meta_json": np.array(json.dumps(meta))})
    with pytest.raises(MeasurementFormatError) as info:
        load_measurement(path)
    assert message in str(info.value) and "i.npz" in str(info.value)
