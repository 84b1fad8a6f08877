"""The whole-run sentence names what was idle and what was busy; DRAM bandwidth is on screen (issue 14 items 9, 12).

On ``compute-bound-fma`` the panel said "The GPU reads 100% utilized, yet 0% of its
issue slots did nothing"; on a Tensor Core loop it called 89% of the issue slots idle
while the Tensor pipe worked. Lessons said "HBM is near its limit" with no number on
the screen to point at.
"""

from __future__ import annotations

import re

import pytest

from explorer.gui.explore.run_verdict import HBM_BUSY, ISSUE_BUSY, MMA_HEAVY, run_verdict, top_stall
from explorer.model.presets import load_preset
from explorer.sim.program import MMA, build_program
from tests.gui.support import RUN_TIMEOUT, wait_run


def summary(issue=0.05, dram=0.0, states=None) -> dict:
    return {"issue_slot_utilization": issue, "kernel_active_fraction": 1.0, "dram_bandwidth_gbs": dram,
            "warp_state_cycles": states or {"selected": 5, "not_selected": 1, "long_scoreboard": 90, "wait": 4}}


# -- the decision, Qt-free ------------------------------------------------------------------------
def test_the_verdict_follows_what_is_busy():
    assert run_verdict(summary(issue=0.996), 3350, 0.0).kind == "issue"
    assert run_verdict(summary(issue=ISSUE_BUSY - 0.01), 3350, 0.0).kind == "waiting"
    assert run_verdict(summary(dram=3350 * HBM_BUSY), 3350, 0.0).kind == "hbm"
    assert run_verdict(summary(dram=3350 * HBM_BUSY - 1), 3350, 0.0).kind == "waiting"
    # MMA-heavy: issue slots are the wrong measure, whatever else holds
    for s in (summary(issue=0.9), summary(dram=3000), summary()):
        assert run_verdict(s, 3350, MMA_HEAVY).kind == "tensor"
    v = run_verdict(summary(issue=0.25, dram=1675), 3350, 0.0)
    assert v.issue_idle == pytest.approx(0.75) and v.dram_fraction == pytest.approx(0.5)


def test_top_stall_ignores_issuing_states():
    assert top_stall({"selected": 80, "not_selected": 15, "barrier": 3, "wait": 2}) == ("barrier", 0.03)
    assert top_stall({"selected": 10, "not_selected": 5}) == ("", 0.0)
    assert top_stall({}) == ("", 0.0)


def test_mma_share_is_the_programs(window, qtbot):
    page = window.explorer
    page.load_preset("tensor-gemm")
    run = wait_run(qtbot, page)
    qtbot.waitUntil(lambda: page.session.run.result.scenario.name == "tensor-gemm", timeout=RUN_TIMEOUT)
    run = page.session.run
    program = run.result.warp_program  # the program that ran (SASS, or the model where it cannot be built)
    if program.source == "model":
        model = build_program(load_preset("tensor-gemm").workload)
        per_warp = int((model.op == MMA).sum()) * model.loop
    else:  # count the executed HMMA rows of the listing: prologue/epilogue once, the loop body trip times
        per_warp = sum((program.trip if row.segment == "body" else 1) for row in program.listing
                       if row.executed and row.op_class == "mma")
    assert per_warp > 0
    assert run.mma_share == pytest.approx(per_warp / program.dynamic_instructions_per_warp)
    assert run.mma_share * run.summary["warp_instructions"] == pytest.approx(per_warp * run.summary["launched_warps"])


# -- on screen ------------------------------------------------------------------------------------------
def shown(window, qtbot, preset: str, **changes):
    page = window.explorer
    wait_run(qtbot, page)
    scenario = load_preset(preset).with_values(**changes) if changes else load_preset(preset)
    page.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.session.run is not None and page.session.run.result.scenario == scenario
                    and not page.simulating, timeout=RUN_TIMEOUT)
    return page.metrics.whole, page.session.run.summary


def percent_in(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"(\d+)%", text)]


def test_a_compute_bound_kernel_is_not_called_idle(window, qtbot):
    whole, s = shown(window, qtbot, "compute-bound-fma")
    text = whole.point.text()
    assert s["issue_slot_utilization"] > 0.95
    assert "yet" not in text and "did nothing" not in text
    assert "schedulers are busy" in text and f"{100 * s['issue_slot_utilization']:.0f}%" in text
    assert whole.issue.text == f"{100 * s['issue_slot_utilization']:.1f}%"


def test_a_tensor_core_loop_says_issue_slots_are_the_wrong_measure(window, qtbot):
    whole, s = shown(window, qtbot, "tensor-gemm")
    text = whole.point.text()
    assert "wrong measure" in text and "Tensor Core MMAs" in text
    run = window.explorer.session.run
    assert f"{100 * run.mma_share:.0f}% of the warp-instructions" in text
    assert f"busy for {run.result.params.mma_interval} cycles" in text


def test_hbm_near_its_peak_is_a_number_on_screen(window, qtbot):
    """Lesson 1's last step: 1,056 blocks of the example keep HBM near its peak."""
    whole, s = shown(window, qtbot, "example-240x256", **{"launch.grid": [1056, 1, 1]})
    gpu = window.explorer.session.run.result.scenario.gpu
    share = s["dram_bandwidth_gbs"] / gpu.memory_bandwidth_gbs
    assert share > 0.8
    assert whole.dram.text == f"{100 * share:.0f}%" and whole.dram.fraction == pytest.approx(share)
    assert whole.dram_figures.text() == f"{s['dram_bandwidth_gbs'] / 1000:.2f} of 3.35 TB/s peak"
    assert whole.dram_box.isVisible() and whole.dram_box.isAncestorOf(whole.dram)
    text = whole.point.text()
    assert "HBM moves" in text and f"{100 * share:.0f}% of its peak" in text
    assert "did nothing" in text and percent_in(text)[1] == round(100 * (1 - s["issue_slot_utilization"]))


def test_a_latency_bound_run_names_its_main_wait(window, qtbot):
    whole, s = shown(window, qtbot, "example-240x256")
    text = whole.point.text()
    assert "utilization only says a kernel was running" in text
    assert "“memory wait”" in text
    assert whole.dram_figures.text().endswith("of 3.35 TB/s peak")
