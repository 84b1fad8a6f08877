"""The model program's results stay exactly what they were recorded as, unless the model changes on purpose.

``data/model_program_results.json`` was first recorded from main (commit 71ad85d) when the
engine still ran ``explorer.sass.model_program.Program``: cycles, the per-cycle series, the
per-slot trace, unit busy, memory statistics, per preset and policy (and the example on
every other GPU). The same scenarios with ``program = "model"`` must reproduce every
array bit for bit: a speed-up of the engine must leave them alone. A deliberate change of
the model re-records them (``python -m tests.sim.test_model_program_identical --record``)
and says in its commit which runs changed and why; the file's ``about`` keeps the history.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from explorer.model.presets import load_preset
from explorer.sim import simulate

DATA = Path(__file__).parent / "data" / "model_program_results.json"
RECORDED = json.loads(DATA.read_text())["runs"]


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
    # the states recorded then (the first 11: the mbarrier and wgmma_wait states came later, and a
    # program without tma or wgmma never enters them)
    n = len(want["series_totals"])
    assert r.series_totals[:n].tolist() == want["series_totals"] and not r.series_totals[n:].any()
    assert digest(r.counts) == want["counts"]
    states = n - r.counts.shape[1]
    assert digest(r.state_counts[:, :states]) == want["state_counts"] and not r.state_counts[:, states:].any()
    assert r.recorded_sms.tolist() == want["recorded_sms"]
    assert digest(r.trace) == want["trace"]
    assert digest(r.unit_busy_cycles) == want["unit_busy_cycles"]
    assert r.memory == want["memory"]
    assert r.warp_instructions == want["warp_instructions"]


def record_run(key: str) -> dict:
    r = simulate(scenario_of(key))
    return {
        "cycles": r.cycles, "series_stride": r.series_stride, "series_totals": r.series_totals.tolist(),
        "counts": digest(r.counts), "state_counts": digest(r.state_counts), "recorded_sms": r.recorded_sms.tolist(),
        "trace": digest(r.trace), "unit_busy_cycles": digest(r.unit_busy_cycles), "memory": r.memory,
        "warp_instructions": r.warp_instructions,
    }


def record(about: str) -> list[str]:
    """Re-record every run of the file (a deliberate model change); returns 'key: cycles old -> new' for
    the runs whose results changed."""
    from explorer.model.atomic import atomic_write_text

    old = json.loads(DATA.read_text())
    runs = {key: record_run(key) for key in sorted(old["runs"])}
    changed = [f"{key}: {old['runs'][key]['cycles']} -> {runs[key]['cycles']} cycles" for key in runs
               if record_run_differs(old["runs"][key], runs[key])]
    atomic_write_text(DATA, json.dumps({"about": about, "runs": runs}, indent=1, sort_keys=True) + "\n")
    return changed


def record_run_differs(old: dict, new: dict) -> bool:
    n = len(old["series_totals"])
    return any(old[k] != new[k] for k in old if k not in ("series_totals", "state_counts")) or \
        old["series_totals"] != new["series_totals"][:n]


if __name__ == "__main__":  # pragma: no cover - a tool for a deliberate model change
    import sys

    if sys.argv[1:2] != ["--record"] or len(sys.argv) != 3:
        sys.exit("usage: python -m tests.sim.test_model_program_identical --record 'ABOUT TEXT'")
    print("\n".join(record(sys.argv[2])) or "no run changed")
