"""The Measurement file: round trip, shapes shared with the simulator, clear errors for bad files."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from explorer.gpu.analysis import RawRecords, analyze
from explorer.toolchain.errors import MeasurementFormatError
from explorer.gpu.measurement import FORMAT, VERSION, Measurement, load_measurement
from explorer.model.errors import InputError
from tests.gpu.support import assert_one_line_error, run_cli
from tests.gpu.test_analysis import WARPS, words


def make_measurement() -> Measurement:
    raw = RawRecords.decode(words(WARPS), per_warp=True)
    a = analyze(raw, warps_per_block=2, device_sm_count=2, max_warps_per_sm=4)
    meta = {
        "scenario_name": "synthetic-records",
        "gpu": "",
        "device": {"name": "Test GPU", "compute_capability": "9.0"},
        "launch": {"grid": [3, 1, 1], "block": [64, 1, 1], "threads_per_block": 64, "warps_per_block": 2,
                   "total_blocks": 3, "dynamic_shared_bytes": 0},
        "kernel": {"registers": 24, "static_shared_bytes": 0},
        "occupancy": {"ours": {"active_blocks_per_sm": 2, "occupancy": 1.0, "limiters": ["warps"]},
                      "driver_active_blocks_per_sm": 2},
        "timing": {"kernel_ms": 0.0002, "globaltimer": {"tick_ns": 32.0}},
        "nvml": {"available": False, "reason": "test"},
    }
    return Measurement.from_analysis(meta, a)


def test_round_trip_keeps_arrays_and_meta(tmp_path):
    m = make_measurement()
    path = m.save(tmp_path / "m")  # the suffix is added
    assert path.suffix == ".npz"
    back = load_measurement(path)
    assert back.meta["format"] == FORMAT and back.meta["version"] == VERSION
    for name in ("block", "sm", "start", "end"):
        assert np.array_equal(getattr(back.blocks, name), getattr(m.blocks, name))
        assert np.array_equal(getattr(back.blocks_ns, name), getattr(m.blocks_ns, name))
    assert np.array_equal(back.residency.time, m.residency.time)
    assert back.residency.sm_count == 2 and list(back.sm_ids) == [4, 10]
    assert back.warps is not None and np.array_equal(back.warps["start"], m.warps["start"])
    assert back.achieved_occupancy() == pytest.approx(0.57)
    s = back.summary()
    assert s["cycles"] == 150 and s["measured_max_blocks_per_sm"] == 2 and s["warps_per_block"] == 2
    assert s["achieved_occupancy"] == pytest.approx(0.57) and s["globaltimer_tick_ns"] == 32.0
    assert back.cycles_to_ns(1000)[()] == pytest.approx(1000.0)


def test_arrays_use_the_simulation_file_names(tmp_path):
    path = make_measurement().save(tmp_path / "m.npz")
    with np.load(path) as npz:
        names = set(npz.files)
    assert {"block_sm", "block_start", "block_end", "residency_time", "residency_sm", "residency_delta"} <= names


def test_synthetic_measurement_from_a_simulation_overlays_it(tmp_path):
    from explorer.gpu.measurement import measurement_from_sim
    from explorer.model.scenario import Scenario
    from explorer.sim import simulate

    sc = Scenario.from_dict({"gpu": "H100", "launch": {"grid": [20, 1, 1], "block": [128, 1, 1]},
                             "workload": {"preset": "fma-global", "loop": 2}})
    r = simulate(sc)
    m = load_measurement(measurement_from_sim(r).save(tmp_path / "s.npz"))
    assert m.meta["synthetic"] and m.summary()["synthetic"]
    assert np.array_equal(m.blocks.start, r.blocks.start) and m.sm_count == r.params.sm_count
    assert m.achieved_occupancy() == pytest.approx(r.summary()["achieved_occupancy"])
    assert m.scenario.to_dict() == sc.to_dict()


def rewrite(path, **changes):
    """Copy an npz with some entries replaced (None deletes)."""
    with np.load(path) as npz:
        data = {k: npz[k] for k in npz.files}
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    np.savez(path, **data)


@pytest.mark.parametrize("change, message", [
    ({"format": np.array("warp-explorer-sim")}, "simulation file"),
    ({"format": np.array("something-else")}, "is not 'warp-explorer-measurement'"),
    ({"format": None}, "no 'format'"),
    ({"version": np.array(VERSION + 1)}, "newer Warp Explorer"),
    ({"meta_json": np.array("{not json")}, "not valid JSON"),
    ({"meta_json": np.array("[1, 2]")}, "not a JSON object"),
    ({"meta_json": np.array(json.dumps({"launch": {}}))}, "lacks"),
    ({"block_end": None}, "no 'block_end' array"),
    ({"block_end": np.array([1, 2])}, "expected 3"),
    ({"block_sm": np.array([0, 0, 7], np.int32)}, "outside 0..1"),
    ({"block_end": np.array([0, 0, 0])}, "ends before it starts"),
    ({"residency_time": np.arange(12)[::-1].copy()}, "time order"),
    ({"warp_end": None}, "no 'warp_end'"),
    ({"block": np.array([0.5, 1.5, 2.5])}, "not a 1-D integer array"),
])
def test_malformed_files_are_clear_input_errors(tmp_path, change, message):
    path = make_measurement().save(tmp_path / "m.npz")
    rewrite(path, **change)
    with pytest.raises(MeasurementFormatError) as info:
        load_measurement(path)
    assert isinstance(info.value, InputError)
    assert message in str(info.value) and "m.npz" in str(info.value)


def test_files_that_are_not_archives(tmp_path):
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(MeasurementFormatError, match="not a .npz"):
        load_measurement(tmp_path / "text.npz")
    with pytest.raises(MeasurementFormatError, match="file not found"):
        load_measurement(tmp_path / "missing.npz")
    with pytest.raises(MeasurementFormatError, match="folder"):
        load_measurement(tmp_path)
    pickled = tmp_path / "obj.npz"
    np.savez(pickled, format=np.array([{"a": 1}], dtype=object))
    with pytest.raises(MeasurementFormatError, match="Python objects"):
        load_measurement(pickled)
    damaged = tmp_path / "damaged.npz"
    good = make_measurement().save(tmp_path / "good.npz").read_bytes()
    damaged.write_bytes(good[: len(good) // 2])
    with pytest.raises(MeasurementFormatError):
        load_measurement(damaged)
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(MeasurementFormatError, match="no 'format'"):
        load_measurement(tmp_path / "empty.npz")


def test_cli_opens_measurements_and_rejects_bad_ones(tmp_path):
    path = make_measurement().save(tmp_path / "m.npz")
    ok = run_cli("measure", "--from", str(path), "--json")
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout.splitlines()[0])
    assert out["cycles"] == 150 and out["file"] == str(path) and out["achieved_occupancy"] == pytest.approx(0.57)
    text = run_cli("measure", "--from", str(path))
    assert text.returncode == 0 and "achieved 57%" in text.stdout
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04garbage")
    assert_one_line_error(run_cli("measure", "--from", str(tmp_path / "bad.npz")), 2, "bad.npz")
    assert_one_line_error(run_cli("measure", "--from", str(tmp_path / "nope.npz")), 2, "file not found")
    assert_one_line_error(run_cli("measure", "example-240x256", "--from", str(path)), 2, "--from")


def test_version_1_fixture_keeps_loading():
    """A file written by format version 1 (tests/data) must open in every later version."""
    from tests.gpu.support import DATA

    m = load_measurement(DATA / "measurement-v1-synthetic-example.npz")
    assert m.meta["version"] == 1 and m.meta["synthetic"]
    assert len(m.blocks) == 240 and m.sm_count == 132 and m.warps_per_block == 8
    assert m.cycles > 0 and 0 < m.achieved_occupancy() < 1
    assert m.scenario.name == "example-240x256"
    s = m.summary()
    assert s["gpu"] == "H100" and s["launched_warps"] == 1920 and s["synthetic"]
