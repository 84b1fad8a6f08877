"""The GEMM tab's two main-loop paths through the real widgets: the path selector and its knobs, the pipeline
diagram, the roofline's shared-memory slope and binding roof, bytes per level, the simulation comparison.

Expected values come from hand arithmetic on the tiles (a 128x256x64 bf16 stage is 128·64·2 + 256·64·2 B =
48 KiB) and from the core (``plan_gemm``, ``plan_roofs``, ``roofline``) called independently of the view.
"""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtWidgets import QLabel

from explorer.gemm import gemm_points, plan_gemm, plan_roofs, roofline
from explorer.texts.numbers import seconds_text
from explorer.gui.gemm.charts import BOUND_COLOR, SHARED_COLOR
from explorer.gui.gemm.page import GemmPage
from explorer.gui.gemm.pipeline_view import UNIT_COLORS, PipelineDiagram, step_kind
from explorer.gui.gemm.session import evaluate_gemm, explorer_scenario, knob_path, lesson_texts, plan_inputs
from explorer.gui.shell.i18n import install_translators
from explorer.model.lessons import get_lesson
from tests.gui.gemm.pixels import count_color
from tests.gui.support import RUN_TIMEOUT, show_page

BIG = {"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16"}


@pytest.fixture
def page(window, qtbot) -> GemmPage:
    return show_page(window, qtbot, "gemm")


def visible_knobs(page) -> set[str]:
    return {name for name, w in page.inputs.rows.items() if w.isVisibleTo(page.inputs)}


# -- the path and its knobs ----------------------------------------------------------------
def test_hopper_defaults_to_wgmma_with_its_knobs_and_mma_sync_on_request(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    plan = page.plan
    assert plan.path == "wgmma" and plan.pipeline.instruction.startswith("wgmma.mma_async")
    assert {"schedule", "cluster", "a_source"} <= visible_knobs(page)
    assert not {"warps", "warp_tile"} & visible_knobs(page)
    assert page.inputs.choices["path"].combo.currentText() == "auto: wgmma + TMA"
    assert page.inputs.choices["schedule"].combo.currentText() == "auto: cooperative"
    assert "wgmma + TMA" in page.values["path"].text() and "m64n256k16" in page.values["path"].text()
    text = page.values["cta"].text()  # the warps add up: 1 + 3 + 8 = 12
    assert "12 warps: a producer warpgroup (1 issuing TMA copies, 3 idle) + 8 consumer (2 warpgroups, cooperative)" \
        in text
    assert "setmaxnreg: 232 per consumer, 40 per producer" in page.values["resources"].text()
    # the selector: mma.sync on the same GPU
    combo = page.inputs.choices["path"].combo
    combo.setCurrentIndex(combo.findData("mma.sync"))
    plan = page.plan
    assert plan.path == "mma.sync" and plan.pipeline.instruction == "mma.sync.aligned.m16n8k16"
    assert {"warps", "warp_tile"} <= visible_knobs(page)
    assert not {"schedule", "cluster", "a_source"} & visible_knobs(page)
    assert plan == plan_gemm("H100", 4096, 4096, 4096, "bf16", path="mma.sync")
    # a warp tile on mma.sync: the mapper's warps follow it
    page.inputs.fields["warp_tile"].set_text("64x64")
    assert (page.plan.resources.warp_tile_m, page.plan.resources.warp_tile_n) == (64, 64)
    assert page.plan.resources.warps == 128 * 128 // (64 * 64)


def test_a_path_the_gpu_cannot_run_is_the_cores_message_under_the_path(page):
    page.apply_lesson_gemm(dict(BIG, gpu="A100"))
    good = page.plan
    assert good.path == "mma.sync" and page.inputs.choices["path"].combo.currentText() == "auto: mma.sync"
    combo = page.inputs.choices["path"].combo
    combo.setCurrentIndex(combo.findData("wgmma"))
    path = page.inputs.choices["path"]
    assert path.message == ("wgmma needs compute capability 9.0 or 10.0 (Hopper, Blackwell B200); A100 is CC 8.0: "
                            "choose mma.sync")
    assert page.plan is good and page.stale.isVisible()
    assert {"schedule", "cluster", "a_source"} <= visible_knobs(page)  # the chosen path's knobs
    combo.setCurrentIndex(combo.findData(""))
    assert not path.message and page.plan == good


def test_wgmma_knobs_reach_the_model_and_its_refusals_their_fields(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    cluster = page.inputs.fields["cluster"]
    cluster.set_text("4x4")
    assert cluster.message == "4x4 = 16 CTAs, above the portable cluster limit of 8"
    cluster.set_text("1x1")
    assert page.plan.pipeline.cluster == (1, 1) and page.plan.pipeline.multicast == ""
    sched = page.inputs.choices["schedule"].combo
    before = page.plan
    sched.setCurrentIndex(sched.findData("pingpong"))  # one consumer per 128x256 tile: too many accumulators
    assert page.inputs.fields["tile"].message.startswith("a 128x256 consumer tile needs about 280 registers")
    assert page.plan is before
    page.inputs.fields["tile"].set_text("128x128x64")
    assert page.plan.pipeline.schedule == "pingpong" and page.plan.tile.bn == 128
    a_src = page.inputs.choices["a_source"].combo
    a_src.setCurrentIndex(a_src.findData("registers"))
    assert page.plan.pipeline.a_source == "registers" and page.plan.resources.register_breakdown["a_fragments"] > 0
    # B200: tcgen05 has no Hopper schedules; the refusal goes under the schedule
    page.inputs.set_gpu("B200")
    assert page.inputs.choices["schedule"].message.startswith("tcgen05.mma kernels have one MMA warp")


def test_session_judges_only_the_knobs_of_the_path_in_use():
    # warps typed for mma.sync do not reach a wgmma plan (their field is hidden)
    ev = evaluate_gemm("H100", "bf16", {"m": "4096", "n": "4096", "k": "4096", "warps": "3"})
    assert ev.plan is not None and ev.path == "wgmma" and not ev.errors
    ev = evaluate_gemm("H100", "bf16", {"m": "4096", "n": "4096", "k": "4096", "warps": "3", "path": "mma.sync"})
    assert ev.plan is None and ev.errors["warps"].startswith("3 warps cannot split")
    assert knob_path("A100", "bf16") == "mma.sync" and knob_path("H100", "fp32") == "simt"
    assert knob_path("A100", "bf16", "wgmma") == "wgmma"
    # the knobs of a plan give the same plan back
    for gpu, kw in (("H100", {}), ("A100", {}), ("B200", {}), ("H100", {"path": "mma.sync"}),
                    ("H100", {"tile": "64x256x64"})):
        plan = plan_gemm(gpu, 2048, 2048, 1024, "bf16", **kw)
        again = plan_gemm(gpu, 2048, 2048, 1024, "bf16", **plan_inputs(plan))
        assert dataclasses.replace(again.resources, notes=()) == dataclasses.replace(plan.resources, notes=())
        assert again.times == plan.times
    texts, _gpu, _dt = lesson_texts({"path": "MMA.SYNC", "warp_tile": [64, 32]})
    assert texts["path"] == "mma.sync" and texts["warp_tile"] == "64x32" and texts["schedule"] == ""


# -- the pipeline diagram ---------------------------------------------------------------------
def test_the_pipeline_diagram_of_the_wgmma_path(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    plan, view = page.plan, page.pipeline
    boxes = view.diagram.boxes
    assert [b.title for b in boxes] == ["global memory", "TMA", "shared memory", "wgmma.mma_async", "registers",
                                        "epilogue"]
    assert [b.kind for b in boxes] == ["global", "copy", "shared", "math", "registers", "epilogue"]
    lines = {b.title: " | ".join(b.lines) for b in boxes}
    assert "1 producer warp" in lines["TMA"] and "65,536 in all" in lines["TMA"]  # 512 tiles x 64 K-steps x 2
    assert "B multicast to 2 CTAs" in lines["TMA"]
    assert "4 stages × 48 KiB (A + B)" in lines["shared memory"]  # (128 + 256) x 64 x 2 B = 48 KiB
    assert "+ 16 KiB epilogue staging" in lines["shared memory"]
    assert "m64n256k16" in lines["wgmma.mma_async"] and "2 consumer warpgroup(s), cooperative" in lines[
        "wgmma.mma_async"]
    assert "A from shared memory, B from shared memory" in lines["wgmma.mma_async"]
    assert "128 FP32 accumulators per thread" in lines["registers"]  # 64 x 256 / 128 threads
    assert "setmaxnreg: 232 per consumer, 40 per producer thread" in lines["registers"]
    assert seconds_text(plan.overheads["epilogue"]) in lines["epilogue"]
    assert view.reason.text() == f"<b>Why compute:</b> {plan.bound_reason}"
    assert "Tensor Core math: the MMAs of the 4 tile(s) on the busiest SM" in view.reason.text()
    for name in ("pipeline_fill", "epilogue"):
        assert seconds_text(plan.overheads[name]) in view.overheads.text()
    assert "1 producer warp issues the TMA copies and 8 consumer warps (2 warpgroups)" in view.roles.text()
    # drawn: the TMA box orange, the wgmma box blue, the words inside
    assert count_color(view.diagram, UNIT_COLORS["copy"], tol=8) > 200
    assert count_color(view.diagram, UNIT_COLORS["math"], tol=8) > 200


def test_the_pipeline_diagram_of_the_other_paths(page):
    cases = {
        ("A100", "bf16", ""): ["global memory", "cp.async", "shared memory", "ldmatrix → registers", "mma.sync",
                               "registers", "epilogue"],
        ("V100", "fp16", ""): ["global memory", "LDG + STS", "shared memory", "ldmatrix → registers", "mma.sync",
                               "registers", "epilogue"],
        ("H100", "fp32", ""): ["global memory", "cp.async", "shared memory", "LDS → registers", "FFMA", "registers",
                               "epilogue"],
        ("B200", "bf16", ""): ["global memory", "TMA", "shared memory", "tcgen05.mma", "Tensor Memory", "epilogue"],
    }
    for (gpu, dtype, path), titles in cases.items():
        page.apply_lesson_gemm(dict(BIG, gpu=gpu, dtype=dtype, path=path))
        plan = page.plan
        assert [b.title for b in page.pipeline.diagram.boxes] == titles, gpu
        assert len(page.pipeline.diagram.boxes) == len(plan.pipeline.steps) + 1
        assert page.pipeline.reason.text().endswith(plan.bound_reason)
    page.apply_lesson_gemm(dict(BIG, gpu="A100"))
    lines = {b.title: " | ".join(b.lines) for b in page.pipeline.diagram.boxes}
    r = page.plan.resources
    assert f"{r.register_breakdown['fragments']} registers per thread" in lines["ldmatrix → registers"]
    assert f"{r.registers_per_thread} registers per thread in all" in lines["registers"]
    assert "all 4 warps copy" in lines["cp.async"]
    assert "Every one of the 4 warps copies" in page.pipeline.roles.text()


def test_step_kinds_and_the_diagram_layout_fits_any_width(qtbot):
    assert [step_kind(s, i) for i, s in enumerate(("TMA", "shared", "wgmma.mma_async", "registers", "epilogue"))] \
        == ["copy", "shared", "math", "registers", "epilogue"]
    assert step_kind("ldmatrix -> registers", 2) == "fragments" and step_kind("tensor memory", 3) == "tensor memory"
    page = GemmPage()
    qtbot.addWidget(page)
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    diagram: PipelineDiagram = page.pipeline.diagram
    for width in (170, 260, 400, 560, 900, 1400):
        rects = diagram.layout_rects(width)
        assert len(rects) == len(diagram.boxes)
        for i, a in enumerate(rects):
            assert a.left() >= 0 and a.right() <= width, (width, i)
            for b in rects[i + 1:]:
                assert not a.intersects(b), (width, i)
        assert diagram.heightForWidth(width) >= max(r.bottom() for r in rects)
    assert diagram.heightForWidth(170) > diagram.heightForWidth(1400)  # narrow: more rows


# -- the roofline ----------------------------------------------------------------------------------
def test_the_roofline_draws_the_shared_memory_slope_and_point_and_the_binding_roof(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    plan, plot = page.plan, page.roofline
    roof = roofline("H100")
    assert plot.slopes_drawn == {s.level: s.gbs for s in roof.slopes}
    assert plot.slopes_drawn["shared"] == pytest.approx(128 * 132 * 1980 / 1e3)  # B/clk x SMs x MHz -> GB/s
    # the point at its shared-memory intensity: FLOPs / the operand bytes the shared term charges
    charged = 512 * 64 * (128 + 2 * 256) * 64 * 2  # tiles x K-steps x (A once + B per consumer) x BK x 2 B
    assert plan.shared_bytes_charged == charged
    assert plot.point_xy["shared"] == pytest.approx((2 * 4096**3 / charged, plan.achieved_tflops))
    assert plot.point_xy["shared"] == pytest.approx(
        next((p.intensity, p.tflops) for p in gemm_points(plan) if p.level == "shared"))
    bound = plot.bound_roof
    assert bound == next(r for r in plan_roofs(plan) if r["bound"])
    assert bound["term"] == "tensor_core" and bound["peak_tflops"] == pytest.approx(989.4 * 0.78)
    assert any("bound: Tensor Cores (sustained), 772 TFLOPS" in text for text, *_ in plot.legend_entries)
    assert "bound: Tensor Cores (sustained), 772 TFLOPS" in page.roofline_legend.text().replace("&nbsp;", " ")
    assert "shared 33.5 TB/s" in page.roofline_legend.text().replace("&nbsp;", " ")
    assert "the roof that binds it (thick line): Tensor Cores (sustained)" in page.roofline_caption.text()
    assert count_color(plot, SHARED_COLOR, tol=8) > 30 and count_color(plot, BOUND_COLOR, tol=8) > 30
    # a bandwidth bound: the slope the model uses, named
    page.apply_lesson_gemm(dict(BIG, gpu="B200"))
    bound = page.roofline.bound_roof
    assert page.plan.bound_term == "l2" and bound["term"] == "l2" and bound["kind"] == "bandwidth"
    assert bound["gbs"] == pytest.approx(next(r for r in plan_roofs(page.plan) if r["term"] == "l2")["gbs"])
    assert "the roof that binds it (thick line): L2 bandwidth" in page.roofline_caption.text()
    assert "L2 bandwidth:" in page.roofline_caption.toolTip()


def test_compute_roof_labels_never_cover_each_other(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    labels = page.roofline.roof_labels
    assert "BF16: 989 TFLOPS" in labels  # the chosen type is always named
    assert set(labels.values()) <= {"left", "above", "below"}


# -- bytes per level, names ------------------------------------------------------------------------
def test_bytes_per_level_are_labelled_by_the_paths_own_way(page):
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    rows = page.levels.rows
    assert rows["l2"]["path"].text() == "L2 → shared memory (TMA)"
    assert rows["shared"]["path"].text() == "shared memory → Tensor Cores (descriptors)"
    assert rows["registers"]["path"].text() == "Tensor Cores → registers"
    assert page.plan.level("registers").reuse == 0.0 and rows["registers"]["reuse"].text() == "—"
    assert rows["shared"]["reuse"].text() == "×102"  # 2·M·N·K·2 B / the descriptor reads
    page.apply_lesson_gemm(dict(BIG, gpu="A100"))
    assert rows["shared"]["path"].text() == "shared memory → registers"
    assert rows["registers"]["path"].text() == "registers → Tensor Cores"
    # the instruction mix and the terms name the wgmma path's categories and the overheads
    page.apply_lesson_gemm(dict(BIG, gpu="H100"))
    ts = page.time_split
    assert "MMA fences and waits" in [n for n, _v, _c in ts.instr_bar.segments]
    names = [label.text() for label, _m in ts.term_rows if label.isVisibleTo(ts)]
    assert names[-2:] == ["pipeline fill", "epilogue"] and ts.overhead_title.isVisibleTo(ts)
    assert set(ts.term_names()) >= set(page.plan.times) | {"fill_and_epilogue"}


# -- the stale message, the Explorer ----------------------------------------------------------------
def test_the_mappers_note_goes_when_the_inputs_change(page):
    page.apply_lesson_gemm({"gpu": "A100", "m": 896, "n": 4864, "k": 4096, "dtype": "fp16", "tile": "128x256x64"})
    assert page.notes.isVisibleTo(page) and page.notes.text() == "4 warps do not suit the 128x256x64 tile; using 8."
    page.inputs.fields["m"].set_text("-1")  # invalid: the note is about inputs no longer on screen
    assert page.stale.isVisible() and not page.notes.isVisibleTo(page)
    page.inputs.fields["m"].set_text("896")
    assert page.notes.isVisibleTo(page)  # the same GEMM again: the same note
    page.inputs.fields["tile"].set_text("128x128x64")
    assert not page.notes.isVisibleTo(page) and page.plan.notes == ()


def test_simulate_in_the_explorer_sets_the_simulated_time_beside_the_model(window, page, qtbot):
    page.apply_lesson_gemm({"gpu": "H100", "m": 1024, "n": 1024, "k": 1024, "dtype": "bf16"})
    plan = page.plan
    page.send.click()
    explorer = window.explorer
    assert "Simulating in the Explorer" in page.simulation.text()
    qtbot.waitUntil(lambda: explorer.workspace.session.run is not None
                    and explorer.workspace.session.run.result.scenario == page.sent
                    and not explorer.workspace.session.simulating, timeout=RUN_TIMEOUT)
    run = explorer.workspace.session.run
    assert page.simulated_seconds == pytest.approx(run.summary["kernel_time_us"] * 1e-6)
    text = page.simulation.text()
    assert f"Simulated in the Explorer: {seconds_text(page.simulated_seconds)}" in text
    assert seconds_text(plan.mainloop_at_simulator_clock) in text and "1,980 MHz" in text
    for d in plan.simulation_differences[2:]:
        assert d in text
    # beside the Explorer's own metrics, while its run is this GEMM's
    note = explorer.findChild(QLabel, "gemm_explorer_note")
    assert note.isVisibleTo(explorer) and seconds_text(plan.mainloop_at_simulator_clock) in note.text()
    assert plan.simulation_differences[-1] in note.toolTip()
    # another GEMM on the tab: the comparison (and the send note) go, they are about the other one
    window.show_view("gemm")
    page.inputs.fields["k"].set_text("2048")
    assert not page.simulation.isVisibleTo(page) and page.send_note.text() == ""


def test_a_shortened_simulation_is_compared_with_the_plan_of_what_runs():
    plan = plan_gemm("H100", 16384, 16384, 16384, "bf16")
    sent = explorer_scenario(plan)
    assert sent.shortened and sent.tiles == plan.tiles
    short = sent.simulated_plan
    assert short.k == sent.k_steps * plan.tile.bk and short.k_steps == sent.k_steps
    assert (short.resources, short.tiles) == (plan.resources, plan.tiles)
    assert short.mainloop_at_simulator_clock < plan.mainloop_at_simulator_clock
    assert explorer_scenario(plan_gemm("H100", 1024, 1024, 1024, "bf16")).simulated_plan == plan_gemm(
        "H100", 1024, 1024, 1024, "bf16")


# -- lesson 8 --------------------------------------------------------------------------------------------
def test_the_hopper_lesson_step_points_at_the_pipeline_and_its_numbers_are_on_screen(window, qtbot):
    from explorer.gui.workspace.run_data import SimRun
    from explorer.sim import simulate

    lessons = window.feature("lessons")
    window.resize(1280, 720)
    lesson = get_lesson("tensor-cores")
    index = next(i for i, s in enumerate(lesson.steps) if "pipeline" in s.highlight)
    step = lesson.steps[index]
    assert step.view == "gemm" and window.lesson_targets["pipeline"] is window.views["gemm"].pipeline
    lessons.show_step_with_run(lesson, index, SimRun.from_result(simulate(lesson.scenario_at(index))))
    page = window.views["gemm"]
    assert window.tabs.currentWidget() is page and page.pipeline in lessons.highlighted()
    qtbot.waitUntil(lambda: not page.pipeline.diagram.visibleRegion().isEmpty(), timeout=5000)
    boxes = " | ".join(" | ".join((b.title,) + b.lines) for b in page.pipeline.diagram.boxes)
    en = step.text("en")
    for number in ("65,536", "4 ", "48 KiB", "128 FP32 accumulators"):
        assert number in en and number in boxes, number
    assert "8 consumer warps" in page.pipeline.roles.text() and "Eight consumer warps" in en
    assert "65\u00a0536" in step.text("ru")  # digit groups joined by a no-break space


def test_the_pipeline_in_russian(page, qapp):
    install_translators(qapp, "ru")
    try:
        view = type(page.pipeline)()
        view.show_plan(plan_gemm("H100", 4096, 4096, 4096, "bf16"), "вычисления")
        titles = [b.title for b in view.diagram.boxes]
        assert titles[:3] == ["глобальная память", "TMA", "разделяемая память"]
        assert "Почему ограничение — вычисления" in view.reason.text()
        assert "вычисления на тензорных ядрах" in view.reason.text()
        view.deleteLater()
    finally:
        install_translators(qapp, "en")


def test_the_path_and_its_knobs_survive_a_restart(qtbot, settings, light_theme):
    from explorer.gui.shell.main_window import MainWindow

    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.views["gemm"].apply_lesson_gemm(dict(BIG, gpu="H100", path="wgmma", schedule="pingpong",
                                               tile="128x128x64", cluster="1x2", a_source="registers"))
    assert first.views["gemm"].plan.pipeline.schedule == "pingpong"
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    g = second.views["gemm"]
    assert {name: g.inputs.choices[name].value() for name in ("path", "schedule", "a_source")} == \
        {"path": "wgmma", "schedule": "pingpong", "a_source": "registers"}
    p = g.plan.pipeline
    assert (p.schedule, p.cluster, p.a_source) == ("pingpong", (1, 2), "registers")
