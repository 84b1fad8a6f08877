"""The engine runs WarpPrograms; the model program must give exactly what it gave before.

``data/model_program_results.json`` was recorded from main (commit in the file) when the
engine still ran ``explorer.sim.program.Program``: cycles, the per-cycle series, the
per-slot trace, unit busy, memory statistics, per preset and policy (and the example on
every other GPU). The same scenarios with ``program = "model"`` must reproduce every
array bit for bit.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from explorer.model.presets import load_preset
from explorer.sim import simulate

RECORDED = json.loads((Path(__file__).parent / "data" / "model_program_results.json").read_text())["runs"]


def digest(a) -> str:
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.tobytes() + str(a.dtype).encode() + str(a.shape).encode()).hexdigest()


def scenario_of(key: str):
    name_gpu, policy = key.split("/")
    name, _, gpu = name_gpu.partition("@")
    values = {"program": "model"}
    if gpu:
        values["gpu"] = gpu  # recorded under the preset's own policy
    else:
        values["scheduler.policy"] = policy
    return load_preset(name).with_values(**values)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_model_program_results_are_unchanged(key):
    want = RECORDED[key]
    r = simulate(scenario_of(key))
    assert r.warp_program.source == "model"
    assert r.cycles == want["cycles"]
    assert r.series_stride == want["series_stride"]
    assert r.series_totals.tolist() == want["series_totals"]
    assert digest(r.counts) == want["counts"]
    assert digest(r.state_counts) == want["state_counts"]
    assert r.recorded_sms.tolist() == want["recorded_sms"]
    assert digest(r.trace) == want["trace"]
    assert digest(r.unit_busy_cycles) == want["unit_busy_cycles"]
    assert r.memory == want["memory"]
    assert r.warp_instructions == want["warp_instructions"]
