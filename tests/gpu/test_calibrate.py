"""Calibration recovers memory figures from (synthetic) measurements and reports before/after error."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the simulator without numba is too slow for calibration tests "
                                    "(dozens of simulations)")

from explorer.gpu.calibrate import calibrate  # noqa: E402
from explorer.gpu.measurement import measurement_from_sim  # noqa: E402
from explorer.model.scenario import Scenario  # noqa: E402
from explorer.sass.execute.run import default_jobs  # noqa: E402
from explorer.sim import simulate  # noqa: E402
from explorer.sim.params import params_for  # noqa: E402
from tests.gpu.support import run_cli  # noqa: E402

TRUE_LAT = 800
BW_FACTOR = 0.55


def small(preset: str, grid: int, block: int, loop: int) -> Scenario:
    return Scenario.from_dict({"name": preset, "gpu": "H100", "launch": {"grid": [grid, 1, 1], "block": [block, 1, 1]},
                               "workload": {"preset": preset, "loop": loop}})


@pytest.fixture(scope="module")
def synthetic():
    """A latency-bound and a bandwidth-bound kernel 'measured' on a GPU with other memory figures."""
    out = []
    for sc in (small("latency", 132, 128, 6), small("stream", 528, 256, 4)):
        p = params_for(sc)
        truth = p.with_memory(lat_dram=TRUE_LAT, dram_bytes_per_cycle=p.dram_bytes_per_cycle * BW_FACTOR)
        m = measurement_from_sim(simulate(sc, params=truth))
        m.meta["scenario_name"] = sc.name
        out.append(m)
    return out


def test_recovers_latency_and_bandwidth(synthetic):
    cal = calibrate(synthetic)
    base_bw = params_for(small("stream", 528, 256, 4)).dram_bytes_per_cycle
    assert cal.after["lat_dram"] == pytest.approx(TRUE_LAT, rel=0.03)  # 802 on 2026-12-05
    assert cal.after["dram_bytes_per_cycle"] == pytest.approx(base_bw * BW_FACTOR, rel=0.04)  # 1.7% high
    assert cal.error_after < 0.05 < cal.error_before
    j = cal.to_json()
    assert j["before"]["lat_dram"] == params_for(small("latency", 132, 128, 6)).lat_dram
    assert len(j["measurements"]) == 2 and j["rms_error_after"] < j["rms_error_before"]
    assert "synthetic" in " ".join(j["notes"])
    assert "lat_dram" in cal.text() and "->" in cal.text()
    tuned = cal.params(small("latency", 132, 128, 6))
    assert tuned.lat_dram == cal.after["lat_dram"]


def test_progress_gives_the_plan_then_the_time_left(synthetic):
    """Before anything runs: how many simulations; once the first wave is timed: how long the rest can take."""
    heard = []
    cal = calibrate(synthetic, progress=lambda text, fraction: heard.append((text, fraction)))
    texts = [t for t, _ in heard]
    assert texts[0] == "2 measurement(s) of H100: 6 simulations first, then 2 per step, at most 24 in all, " \
                       f"{min(6, default_jobs())} at a time"
    sims = [t for t in texts if t.startswith("simulation ")]
    assert len(sims) == cal.evaluations and sims[0].startswith("simulation 1 of at most 24: latency (")
    timed = [i for i, t in enumerate(texts) if t.startswith("the first 6 simulations took ")]
    assert len(timed) == 1 and "a step takes ~" in texts[timed[0]] and "at most 9 more: at most ~" in texts[timed[0]]
    assert texts.index(sims[6 - 1]) < timed[0] < texts.index(sims[6])  # right after the first wave
    assert any(t.startswith("step 1: lat_dram ") for t in texts)
    assert texts[-1].startswith("converged after ") and f"{cal.evaluations} simulations" in texts[-1]
    fractions = [f for _, f in heard]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] <= 1


def test_threads_do_not_change_the_fit(synthetic):
    """The simulations of a wave on one thread or several: the same figures, errors and count."""
    one = calibrate(synthetic, jobs=1).to_json()
    assert calibrate(synthetic, jobs=3).to_json() == one


def test_cancel_stops_the_calibration(synthetic):
    from explorer.sim import Cancelled

    with pytest.raises(Cancelled):
        calibrate(synthetic, cancel=lambda: True)


def test_different_gpus_are_refused(synthetic):
    from explorer.model.errors import InputError

    other = measurement_from_sim(simulate(small("latency", 8, 64, 2).with_values(gpu="A100")))
    with pytest.raises(InputError, match="different GPUs"):
        calibrate([synthetic[0], other])


def test_cli_calibrates_saved_measurements(synthetic, tmp_path):
    paths = [str(m.save(tmp_path / f"m{i}.npz")) for i, m in enumerate(synthetic)]
    proc = run_cli("measure", "--from", paths[0], "--from", paths[1], "--calibrate", "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == 3 and "calibration" in lines[-1]
    assert lines[-1]["calibration"]["rms_error_after"] < lines[-1]["calibration"]["rms_error_before"]
    # not a terminal: still a line per step on stderr, the plan first, then the time the rest can take
    said = proc.stderr.splitlines()
    assert said[0].startswith("warp-explorer: calibrating: 2 measurement(s) of H100: 6 simulations first")
    assert any(" simulations took " in line and "at most ~" in line for line in said)
    assert all(line.startswith("warp-explorer: calibrating: ") for line in said) and "Traceback" not in proc.stderr


def test_the_error_after_is_never_above_the_error_before():
    """A coarse search that misses the truth keeps the error it reports from growing (the fit minimises it)."""
    from explorer.model.presets import load_preset

    sc = load_preset("example-240x256")  # the log-ratio fit of old went from 24.2% to 25.3% here
    p = params_for(sc)
    m = measurement_from_sim(simulate(sc, params=p.with_memory(lat_dram=round(p.lat_dram * 1.35))))
    cal = calibrate([m], max_points=4)  # the first wave and one step
    assert cal.error_after <= cal.error_before
    for point in cal.points:
        after = point.errors("after")
        before = point.errors("before")
        assert after[0] ** 2 + after[1] ** 2 <= before[0] ** 2 + before[1] ** 2 + 1e-12
