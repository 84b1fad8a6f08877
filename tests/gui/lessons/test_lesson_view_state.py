"""Each lesson step sets the view state its narration talks about; leaving gives the user's back (issue 14 item 8).

Before: lesson 1 step 1 talked about the "launched" curve while "Counts of the selected
SM only" hid it; the calculator kept lesson 2's 32 threads / 24 registers while the
Explorer showed 256 / 32; the .cu row said "8,320 B static shared" while the field
said 0; the scenario combo said example-240x256 with a GEMM scenario loaded.
"""

from __future__ import annotations

import pytest

from explorer.gui.measure.cu_source import CudaSourceRow
from tests.gpu.support import compiler_problem
from tests.gui.support import RUN_TIMEOUT, show_page


needs_compiler = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")


def ready(qtbot, ctl) -> None:
    qtbot.waitUntil(lambda: ctl.ready, timeout=RUN_TIMEOUT)


def launch_of(panel) -> dict:
    raw = panel.inputs.raw_values()
    return {"gpu": panel.inputs.gpu_name(), "threads": raw["threads"], "regs": raw["regs"],
            "smem_static": raw["smem_static"]}


def test_the_counts_a_step_talks_about(win, qtbot):
    page, ctl = win.explorer, win.feature("lessons")
    page.per_sm.setChecked(True)  # the user looks at one SM's counts
    assert not page.counts.curves["launched"].isVisible()
    ctl.start("launched-resident-ready")  # step 1 narrates the 'launched' curve
    ready(qtbot, ctl)
    assert not page.per_sm.isChecked() and page.counts.curves["launched"].isVisible()
    assert page.counts.per_sm is None and "whole GPU" in page.counts.title_text
    ctl.stop()
    assert page.per_sm.isChecked() and page.counts.per_sm == page.workspace.session.selected_sm


def test_a_zoomed_in_view_shows_the_whole_run_on_each_step(win, qtbot):
    page, ctl = win.explorer, win.feature("lessons")
    page.timeline.getPlotItem().setXRange(100, 200, padding=0)
    ctl.start("launched-resident-ready", 2)  # the same scenario as on screen: nothing re-simulates
    ready(qtbot, ctl)
    (x0, x1), _ = page.timeline.getPlotItem().getViewBox().viewRange()
    assert x0 == pytest.approx(0) and x1 == pytest.approx(page.workspace.session.run.cycles)


def test_the_calculator_follows_every_step_and_comes_back(win, qtbot):
    occ, ctl = win.occupancy, win.feature("lessons")
    show_page(win, qtbot, "occupancy")
    occ.inputs.fields["threads"].set_text("128")
    occ.inputs.fields["regs"].set_text("40")
    occ.inputs.set_gpu("A100")
    mine = launch_of(occ)
    show_page(win, qtbot, "explorer")
    lesson = ctl.find("what-limits-residency")
    ctl.start(lesson, len(lesson.steps) - 1)  # its last step is on the Explorer: 256 threads, 255 registers
    ready(qtbot, ctl)
    assert win.tabs.currentWidget() is win.explorer
    assert launch_of(occ) == {"gpu": "H100", "threads": "256", "regs": "255", "smem_static": "0"}
    assert occ.evaluation.result.active_blocks_per_sm == win.workspace.session.occupancy.active_blocks_per_sm == 1
    ctl.start("latency-hiding")  # another lesson: the calculator follows it too
    ready(qtbot, ctl)
    sc = win.workspace.session.scenario
    assert launch_of(occ)["regs"] == str(sc.launch.registers_per_thread) == "168"
    ctl.stop()
    assert launch_of(occ) == mine  # what the user had typed
    assert occ.evaluation.gpu.name == "A100" and occ.evaluation.query.threads == 128


def test_leaving_gives_back_the_tab_and_the_splitters(win, qtbot):
    page, ctl = win.explorer, win.feature("lessons")
    show_page(win, qtbot, "occupancy")
    show_page(win, qtbot, "explorer")
    sizes = page.plots.sizes()  # the timeline, the unit-use strip, the counts plot
    squeezed = [sizes[0] + 40, sizes[1], sizes[2] - 40]  # the user gave the timeline room from the counts plot
    page.plots.setSizes(squeezed)
    squeezed = page.plots.sizes()
    assert squeezed[0] > sizes[0]
    win.show_view("occupancy")
    ctl.start("launched-resident-ready")
    ready(qtbot, ctl)
    during = page.plots.sizes()
    assert during[0] >= page.timeline.minimumHeight()  # the lesson's layout: at least the timeline's minimum
    ctl.panel.end_button.click()
    assert win.tabs.currentWidget() is win.occupancy
    show_page(win, qtbot, "explorer")
    after = page.plots.sizes()  # the grid takes what the (still open) lesson dock leaves ...
    assert after[0] == squeezed[0] and after[2] == squeezed[2]
    assert after[1] <= squeezed[1]  # ... the unit strip first giving it what its legend needs (page.arrangement.keep_grid)


def test_the_scenario_combo_names_what_is_loaded(win, qtbot):
    page = win.explorer
    combo = page.panel.preset
    assert combo.currentData() == "example-240x256"
    gemm = show_page(win, qtbot, "gemm")
    gemm.send.click()
    sent = gemm.sent
    qtbot.waitUntil(lambda: page.workspace.session.scenario == sent, timeout=RUN_TIMEOUT)
    assert combo.currentIndex() == -1 and sent.name in combo.placeholderText()
    assert "example-240x256" not in combo.currentText()
    page.load_preset("tail-effect")
    assert combo.currentData() == "tail-effect"
    page.workspace.undo()  # back to the GEMM scenario
    assert combo.currentIndex() == -1


@needs_compiler
def test_the_kernel_source_line_never_names_numbers_the_fields_do_not_hold(win, qtbot, tmp_path):
    occ, ctl = win.occupancy, win.feature("lessons")
    show_page(win, qtbot, "occupancy")
    row = win.feature("gpu").cu_row
    assert isinstance(row, CudaSourceRow)
    src = tmp_path / "tile.cu"
    src.write_text("__global__ void tile(float* y) { __shared__ float t[2080]; t[threadIdx.x] = 1.f; "
                   "__syncthreads(); y[threadIdx.x] = t[(threadIdx.x + 1) % 2080]; }\n", encoding="utf-8")
    assert row.open_file(src)
    qtbot.waitUntil(lambda: row.result is not None and not row.busy, timeout=RUN_TIMEOUT)
    static = row.result.resources.static_shared_bytes
    assert static >= 8320 and occ.inputs.fields["smem_static"].text() == str(static)
    assert f"{static:,} B static shared memory" in row.info.text()
    ctl.start("what-limits-residency", 3)  # static shared memory 0
    ready(qtbot, ctl)
    assert occ.inputs.fields["smem_static"].text() == "0"
    assert f"{static:,}" not in row.info.text() and "no longer hold" in row.info.text()
    assert row.result.resources.static_shared_bytes == static  # nothing recompiled over the lesson's launch
    ctl.stop()
    assert occ.inputs.fields["smem_static"].text() == str(static)
    assert f"{static:,} B static shared memory" in row.info.text()


def test_a_language_switch_in_a_lesson_still_gives_the_view_back(win, qtbot, english):
    from explorer.gui.shell.language import switch_language

    page, ctl = win.explorer, win.feature("lessons")
    page.per_sm.setChecked(True)
    ctl.start("launched-resident-ready")
    ready(qtbot, ctl)
    new = switch_language(win, "ru")
    qtbot.addWidget(new)
    new_ctl = new.feature("lessons")
    assert new_ctl.lesson is not None and not new.explorer.per_sm.isChecked()
    new_ctl.stop()
    assert new.explorer.per_sm.isChecked()


def test_a_lesson_on_the_model_program_gives_the_users_program_back(win, qtbot):
    """Issue 31 item 9: lesson 1 quotes the workload model's figures and runs program = "model" for its steps;
    once it ends the scenario it reached stays, run by the program the user had (the default start's SASS)."""
    page, ctl = win.explorer, win.feature("lessons")
    before = page.workspace.session.scenario.program
    assert before != "model"
    ctl.start("launched-resident-ready")
    ready(qtbot, ctl)
    assert page.workspace.session.scenario.program == "model"
    reached = page.workspace.session.scenario
    ctl.stop()
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating
                    and page.workspace.session.run.result.scenario.program == before, timeout=RUN_TIMEOUT)
    assert page.workspace.session.scenario == reached.with_values(program=before)
