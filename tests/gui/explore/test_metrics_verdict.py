"""The whole-run sentence names what was idle and what was busy; DRAM bandwidth is on screen (issue 14 items 9, 12).

On ``compute-bound-fma`` the panel said "The GPU reads 100% utilized, yet 0% of its
issue slots did nothing"; on a Tensor Core loop it called 89% of the issue slots idle
while the Tensor pipe worked. Lessons said "HBM is near its limit" with no number on
the screen to point at.
"""

from __future__ import annotations

import re

import pytest

from explorer.gui.common.widgets import whole_text
from explorer.gui.explore.run_verdict import KIND_OF_UNIT, run_verdict, top_stall
from explorer.model.presets import load_preset
from explorer.sass.model_program import MMA, build_program
from explorer.model.units import UNITS
from tests.gui.support import RUN_TIMEOUT, wait_run


def summary(issue=0.05, dram=0.0, states=None, unit="latency", shares=None, active=None) -> dict:
    shares = shares or {}
    through = {u: {"pct_of_peak": 100.0 * shares.get(u, 0.01)} for u in UNITS}
    for u, share in (active or {}).items():  # over the SMs' active cycles (pct_of_peak_active)
        through[u]["pct_of_peak_active"] = 100.0 * share
    top = max(through, key=lambda u: through[u]["pct_of_peak"])
    return {"issue_slot_utilization": issue, "kernel_active_fraction": 1.0, "dram_bandwidth_gbs": dram,
            "warp_state_cycles": states or {"selected": 5, "not_selected": 1, "long_scoreboard": 90, "wait": 4},
            "throughput": through, "bottleneck": {"unit": unit, "pct_of_peak": through[top]["pct_of_peak"]}}


# -- the decision, Qt-free ------------------------------------------------------------------------
def test_the_verdict_follows_the_simulators_bottleneck():
    assert run_verdict(summary(issue=0.996, unit="issue", shares={"issue": 0.996}), 3350, 0.0).kind == "issue"
    assert run_verdict(summary(unit="fp32", shares={"fp32": 0.99}), 3350, 0.0).kind == "compute"
    assert run_verdict(summary(dram=3000, unit="dram", shares={"dram": 0.9}), 3350, 0.0).kind == "hbm"
    assert run_verdict(summary(unit="l2", shares={"l2": 0.95}), 3350, 0.0).kind == "memory"
    # MMA-heavy or not, the Tensor Cores are named only when they are the bottleneck
    assert run_verdict(summary(unit="tensor", shares={"tensor": 0.99}), 3350, 0.5).kind == "tensor"
    v = run_verdict(summary(issue=0.25, dram=1675, shares={"dram": 0.5}), 3350, 0.5)
    assert v.kind == "waiting" and v.busiest == "dram" and v.unit_share == pytest.approx(0.5)
    assert v.issue_idle == pytest.approx(0.75) and v.dram_fraction == pytest.approx(0.5)
    assert set(KIND_OF_UNIT) == {*UNITS, "latency"}
    assert not v.on_busy_sms


def test_tensor_cores_full_on_the_sms_with_work_are_tensor_work():
    """Too few blocks for the GPU: latency over the GPU, yet the Tensor Cores are full where blocks run (the
    simulator's 60% rule over the SMs' active cycles): the Tensor Core sentence, with both shares."""
    v = run_verdict(summary(issue=0.003, shares={"tensor": 0.22}, active={"tensor": 0.91}), 3350, 0.62, 128)
    assert v.kind == "tensor" and v.unit == "tensor" and v.on_busy_sms
    assert v.unit_share == pytest.approx(0.91) and v.gpu_share == pytest.approx(0.22)
    # below the rule where blocks run, or another unit there: the latency sentence stays
    assert run_verdict(summary(shares={"tensor": 0.1}, active={"tensor": 0.45}), 3350, 0.6).kind == "waiting"
    assert run_verdict(summary(shares={"issue": 0.33}, active={"issue": 0.6}), 3350, 0.0).kind == "waiting"


def test_top_stall_ignores_issuing_states():
    assert top_stall({"selected": 80, "not_selected": 15, "barrier": 3, "wait": 2}) == ("barrier", 0.03)
    assert top_stall({"selected": 10, "not_selected": 5}) == ("", 0.0)
    assert top_stall({}) == ("", 0.0)


def test_mma_share_is_the_programs(window, qtbot):
    page = window.explorer
    page.load_preset("tensor-gemm")
    run = wait_run(qtbot, page)
    qtbot.waitUntil(lambda: page.workspace.session.run.result.scenario.name == "tensor-gemm", timeout=RUN_TIMEOUT)
    run = page.workspace.session.run
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
    page.workspace.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.workspace.session.run is not None
                    and page.workspace.session.run.result.scenario == scenario
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    return page.metrics.whole, page.workspace.session.run.summary


def percent_in(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"(\d+)%", text)]


def test_a_compute_bound_kernel_is_not_called_idle(window, qtbot):
    """The workload model's FMA loop keeps every scheduler issuing (99.6%). The kernel's own SASS runs the
    same 8 iterations between a prologue and an epilogue of eight 32-byte stores per warp that each wait
    ~565 cycles for HBM before the warp exits: 70% (94% with a 64-iteration loop), so the subject here,
    a verdict for busy schedulers, runs the model (program = "model")."""
    whole, s = shown(window, qtbot, "compute-bound-fma", program="model")
    text = whole_text(whole.point)
    assert s["issue_slot_utilization"] > 0.95
    assert "yet" not in text and "did nothing" not in text
    assert "schedulers are busy" in text and f"{100 * s['issue_slot_utilization']:.0f}%" in text
    assert whole.issue.text == f"{100 * s['issue_slot_utilization']:.1f}%"


TENSOR_LOOP = {"workload.body": [{"op": "mma", "count": 32, "ilp": 4}]}


def test_a_tensor_core_loop_says_issue_slots_are_the_wrong_measure(window, qtbot):
    whole, s = shown(window, qtbot, "tensor-gemm", **TENSOR_LOOP)
    assert s["bottleneck"]["unit"] == "tensor"
    text = whole_text(whole.point)
    assert "wrong measure" in text and "Tensor Cores run at" in text
    assert f"{s['throughput']['tensor']['pct_of_peak']:.0f}% of their peak" in text
    run = window.workspace.session.run
    assert f"({100 * run.mma_share:.0f}% of the warp-instructions)" in text
    assert f"busy for {run.result.params.mma_interval:.3g} cycles" in text


def test_a_gemm_loop_waiting_on_memory_is_not_called_tensor_bound(window, qtbot):
    """tensor-gemm's MMAs are 40% of its instructions, yet no unit is near its peak: the bottleneck is latency."""
    whole, s = shown(window, qtbot, "tensor-gemm")
    assert s["bottleneck"]["unit"] == "latency"
    text = whole_text(whole.point)
    assert "wrong measure" not in text and "No unit is near its peak (the busiest: " in text
    top = max(s["throughput"].values(), key=lambda t: t["pct_of_peak"])
    assert f"{top['pct_of_peak']:.0f}%" in text


def test_busy_hbm_is_a_number_on_screen(window, qtbot):
    """Where HBM is the busy unit, the sentence and the DRAM row give its share of the peak as a number
    (lesson 5's streaming kernel, as the lesson runs it: program = "model")."""
    whole, s = shown(window, qtbot, "memory-bound-stream", program="model")
    gpu = window.workspace.session.run.result.scenario.gpu
    share = s["dram_bandwidth_gbs"] / gpu.memory_bandwidth_gbs
    assert s["bottleneck"]["unit"] == "dram" and share > 0.6  # Nsight's 60% rule
    assert share == pytest.approx(s["throughput"]["dram"]["pct_of_peak"] / 100, rel=1e-6)
    assert whole.dram.text == f"{100 * share:.0f}%" and whole.dram.fraction == pytest.approx(share)
    assert whole.dram_figures.text() == f"{s['dram_bandwidth_gbs'] / 1000:.2f} of 3.35 TB/s peak"
    assert whole.dram_box.isVisible() and whole.dram_box.isAncestorOf(whole.dram)
    text = whole_text(whole.point)
    assert "HBM moves" in text and f"{100 * share:.0f}% of its peak" in text
    assert "did nothing" in text and percent_in(text)[1] == round(100 * (1 - s["issue_slot_utilization"]))


def test_a_busy_hbm_below_the_rule_is_still_a_number(window, qtbot):
    """Lesson 1's last step (the example at 1,056 blocks): HBM is the busiest unit but below Nsight's 60%
    rule, its requests waiting on banks (the calibrated device-memory model): the verdict names the memory
    wait and the DRAM row still gives HBM's share as a number."""
    whole, s = shown(window, qtbot, "example-240x256", **{"launch.grid": [1056, 1, 1], "program": "model"})
    gpu = window.workspace.session.run.result.scenario.gpu
    share = s["dram_bandwidth_gbs"] / gpu.memory_bandwidth_gbs
    busiest = max(s["throughput"], key=lambda unit: s["throughput"][unit]["pct_of_peak"])
    assert busiest == "dram" and 0.3 < share < 0.6
    assert s["bottleneck"]["unit"] == "latency"
    assert whole.dram.text == f"{100 * share:.0f}%" and whole.dram_box.isVisible()
    assert "“memory wait”" in whole_text(whole.point)


def test_a_latency_bound_run_names_its_main_wait(window, qtbot):
    whole, s = shown(window, qtbot, "example-240x256")
    text = whole_text(whole.point)
    assert "utilization only says a kernel was running" in text
    assert "“memory wait”" in text
    assert whole.dram_figures.text().endswith("of 3.35 TB/s peak")


def test_a_wgmma_run_is_read_as_tensor_work(window, qtbot):
    """A warp-specialized wgmma main loop: MMAs counted for the consumers that issue them, 128 cycles each."""
    from explorer.gemm import gemm_scenario, plan_gemm

    page = window.explorer
    wait_run(qtbot, page)
    scenario = gemm_scenario(plan_gemm("H100", 1024, 1024, 512, "bf16"))
    page.workspace.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.workspace.session.run is not None
                    and page.workspace.session.run.result.scenario == scenario
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    run = page.workspace.session.run
    wgmma = scenario.workload.body[2]
    consumers = run.result.params.warps_per_block - scenario.workload.producer_warps
    per_block = consumers * wgmma.count * scenario.workload.loop
    issued = run.summary["warp_instructions"] / run.result.params.total_blocks
    assert run.mma_share == pytest.approx(per_block / issued)
    assert run.mma_cycles == int(run.result.params.mma_interval * wgmma.n / 8) == 128
    text = whole_text(page.metrics.whole.point)
    assert "wrong measure" in text and "busy for 128 cycles" in text


def test_a_figure_the_narration_cites_keeps_its_detail_longest(window, qtbot):
    """Lesson 6's last step cites "132" (the blocks that fit at once): the waves line outranks every
    detail that shows no cited figure, whatever its own rank, and the lesson's end gives the ranks back."""
    from explorer.gui.explore.metrics import DETAIL, cited_figures

    whole, s = shown(window, qtbot, "example-240x256", **{"launch.registers_per_thread": 255})
    metrics = window.explorer.metrics
    assert "132 fit at once" in whole.facts.text()
    figures = cited_figures("With 255 registers per thread one block fits per SM, so the 240 blocks need two "
                            "waves, 132 and then 108, and 1.5 times 8 is arithmetic.")
    assert figures == {255.0, 240.0, 132.0, 108.0, 1.5}  # one-digit whole numbers point at nothing
    metrics.cite(figures)
    order = metrics.details()
    uncited = [w for w in order if not metrics.rank(w)[0]]
    assert metrics.rank(whole.facts) == (True, whole.facts.property(DETAIL))
    assert order.index(whole.facts) > max(order.index(w) for w in uncited)  # makes way after all of them
    window.explorer.restore_view_state(window.explorer.view_state())  # what a lesson's end does
    assert metrics.cited == frozenset() and metrics.rank(whole.facts) == (False, whole.facts.property(DETAIL))


def test_cycles_agree_with_their_number():
    """Issue 31 item 14: "4 такта", "128 тактов", "4.5 такта" (a fraction takes the "few" form), "1 cycle"."""
    from explorer.gui.explore.metrics import cycles_text

    ru = "такт|такта|тактов"
    assert [cycles_text(n, ru) for n in (1, 4, 8, 128, 4.5, 21)] == [
        "1 такт", "4 такта", "8 тактов", "128 тактов", "4.5 такта", "21 такт"]
    assert cycles_text(1, "cycle|cycles") == "1 cycle" and cycles_text(128, "cycle|cycles") == "128 cycles"
