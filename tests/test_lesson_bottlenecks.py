"""Lesson 9's five kernels really have its five answers (issue 15 item 5).

"What limits useful work right now?" walks through five kernels whose bottlenecks
differ: DRAM, L2, FP32/issue slots, the Tensor Cores and latency. Each step's
scenario (the lesson file's preset plus its changes) is written to a file and run
through ``simulate --json`` as a user would, and the contract's ``bottleneck`` must
name the unit the step's narration names, with the share it cites.
"""

from __future__ import annotations

import json

import pytest

from explorer.model.lessons import get_lesson
from explorer.model.tomlio import dumps
from tests.helpers import run_cli

LESSON = get_lesson("what-limits-useful-work")
# step -> the bottleneck the narration names, and the units whose share of peak it cites (rounded)
EXPECTED = {
    1: ("dram", {"dram": 81}),
    2: ("l2", {"l2": 96, "dram": 29}),  # over the run; the narration cites the 100% L2 and 0% DRAM at the cursor too
    3: ("issue", {"issue": 100, "fp32": 99}),
    4: ("tensor", {"tensor": 99, "issue": 26}),
    5: ("latency", {"dram": 17}),
}


def test_five_steps_five_different_answers():
    assert len(LESSON.steps) == len(EXPECTED) == 5
    assert len({unit for unit, _ in EXPECTED.values()}) == 5
    for step in LESSON.steps:
        assert "sol" in step.highlight  # every step points at the panel


@pytest.mark.parametrize("k", sorted(EXPECTED))
def test_each_steps_scenario_has_the_bottleneck_it_teaches(k, tmp_path):
    scenario = LESSON.scenario_at(k - 1)
    path = tmp_path / f"step{k}.toml"
    path.write_text(dumps(scenario.to_dict()), encoding="utf-8")
    done = run_cli("simulate", str(path), "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    unit, shares = EXPECTED[k]
    assert summary["bottleneck"]["unit"] == unit, summary["bottleneck"]
    for name, cited in shares.items():
        assert round(summary["throughput"][name]["pct_of_peak"]) == cited, (name, summary["throughput"][name])
    narration = LESSON.steps[k - 1].text("en")
    for cited in shares.values():
        assert f"{cited}%" in narration
    if k == 1:  # "the issue slots at 1.5%": the whole run's issue-slot use
        assert f"{100 * summary['issue_slot_utilization']:.1f}%" == "1.5%" and "1.5%" in narration
