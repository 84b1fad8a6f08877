"""The "Your kernel" tab driven as a user drives it: open a .cu, pick a kernel, fill the form, simulate.

The kernels are the executor's test suite (tests/kernels); every figure shown is compared
with the core's own run of the same scenario or with numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from explorer.model.scenario import Scenario
from tests.gpu.support import compiler_problem
from tests.gui.files.test_bad_files import no_exception_escapes  # noqa: F401 - a fixture: nothing reaches the event loop

needs_compiler = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")
KERNELS = Path(__file__).resolve().parents[2] / "kernels"
LONG = 120_000


def _alive(pid: int) -> bool:
    """Whether process group ``pid`` still has a process (a compiler child not yet stopped)."""
    import os

    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def page(window):
    return window.feature("kernel")


def open_kernel(qtbot, window, page, path: Path, kernel: str | None = None):
    assert window.open_path(path)  # File > Open and drag and drop go here
    qtbot.waitUntil(lambda: page.kernel is not None or page.message_role == "error", timeout=LONG)
    if kernel is not None and page.kernel_combo.currentText() != kernel:
        page.kernel_combo.setCurrentIndex(page.kernel_combo.findText(kernel))
        page.kernel_combo.activated.emit(page.kernel_combo.currentIndex())
        qtbot.waitUntil(lambda: not page.busy and page.kernel is not None and page.kernel.name == kernel,
                        timeout=LONG)
    return page.kernel


def simulate(qtbot, page):
    assert page.simulate()
    qtbot.waitUntil(lambda: not page.busy, timeout=LONG)
    return page.report


@needs_compiler
def test_saxpy_from_the_file_to_the_report_and_the_explorer(window, page, qtbot, no_exception_escapes):
    kernel = open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    assert window.tabs.currentWidget() is page
    assert [page.kernel_combo.itemText(i) for i in range(page.kernel_combo.count())] == ["saxpy"]
    assert [r.name for r in page.rows] == ["n", "a", "x", "y"]
    assert page.regs.text() == str(kernel.registers) and page.regs.isReadOnly()
    assert page.smem_static.text() == "0"
    # the form: x and y are f32 buffers (fixed by float*), n an int, a a float
    f = page.args.fields
    assert page.args.combos["x.dtype"].currentData() == "f32" and not page.args.combos["x.dtype"].isEnabled()
    f["n"].set_text("2000")
    f["a"].set_text("2.5")
    f["x.count"].set_text("2000")
    page.args.combos["x.init"].setCurrentIndex(page.args.combos["x.init"].findData("arange"))
    f["y.count"].set_text("2000")
    page.args.combos["y.init"].setCurrentIndex(page.args.combos["y.init"].findData("ones"))
    page.fields["grid"].set_text("2")
    page.fields["block"].set_text("128")
    report = simulate(qtbot, page)
    assert report is not None, page.message
    s = report.summary
    # the core's run of the same scenario, independently
    from explorer.sass.execute.run import run_kernel, summary

    mine = summary(run_kernel(report.scenario, keep_inputs=True))
    assert s["warp_instructions"] == mine["warp_instructions"] > 0
    assert s["simt_efficiency"] == mine["simt_efficiency"]
    y = next(b for b in report.buffers if b.name == "y")
    expected = 2.5 * np.arange(8, dtype=np.float32) + 1
    assert np.allclose(y.after, expected) and y.before == (1.0,) * 8 and y.changed == 1999  # y[0] = 2.5 * 0 + 1 stays
    table = page.report_view.table
    assert table.rowCount() == 2 and table.item(1, 0).text() == "y"
    assert table.item(1, 4).text().startswith("1, 3.5, 6, 8.5")
    assert page.report_view.values["simt"].text().startswith(f"{100 * s['simt_efficiency']:.1f}%")
    # the Explorer holds the scenario (one undoable step) with the cubin's registers
    ex = window.explorer
    assert ex.workspace.scenario == report.scenario and ex.workspace.scenario.kernel.name == "saxpy"
    assert ex.workspace.scenario.launch.registers_per_thread == kernel.registers
    assert ex.workspace.commands.undo_kind == "kernel"
    # one execution per Simulate: the Explorer shows the run the page timed, nothing simulates again, and it is
    # the run the CLI's simulate makes of the same scenario
    assert (ex.workspace.session.run is not None and ex.workspace.session.run_is_current
            and not ex.workspace.session.simulating)
    from explorer.sim.engine import simulate_kernel

    cli, _run = simulate_kernel(report.scenario)
    assert (ex.workspace.session.run.summary["cycles"] == cli.cycles
            and ex.workspace.session.run.result.scenario == report.scenario)
    assert ex.workspace.session.run.summary["warp_instructions"] == s["warp_instructions"]
    # the Explorer's panel edits it as any scenario: the launch changes, the kernel and the cubin's numbers stay
    panel = ex.panel
    assert not panel.fields["regs"].isEnabled() and not panel.workload.isEnabled()
    panel.fields["grid"].set_text("3")
    ex.apply_edits()
    assert not ex.workspace.session.errors, ex.workspace.session.errors
    assert ex.workspace.scenario.launch.grid.x == 3 and ex.workspace.scenario.kernel == report.scenario.kernel
    assert ex.workspace.scenario.launch.registers_per_thread == kernel.registers
    # a stream of launches of your kernel, from the Explorer's stream section (the core allows one)
    assert panel.fields["kernels"].isEnabled() and panel.graph.isEnabled()
    panel.fields["kernels"].set_text("10")
    ex.apply_edits()
    assert not ex.workspace.session.errors, ex.workspace.session.errors
    assert ex.workspace.scenario.stream.kernels == 10 and ex.workspace.scenario.kernel == report.scenario.kernel
    ex.workspace.undo()
    assert ex.workspace.scenario.stream.kernels == 1 and ex.workspace.scenario.launch.grid.x == 3
    ex.workspace.undo()
    assert ex.workspace.scenario == report.scenario
    qtbot.waitUntil(lambda: not ex.workspace.session.simulating, timeout=LONG)
    timing = page.report_view.values["timing"].text()
    if ex.workspace.session.failed:  # the timing engine does not run [kernel] scenarios (yet): its reason, one line
        assert "[kernel]" in timing
    else:  # it does: the Explorer's own run is the kernel's
        assert ex.workspace.session.run.result.scenario == report.scenario and "cycles" in timing


@needs_compiler
def test_bad_arguments_are_marked_by_the_cores_words_and_nothing_runs(window, page, qtbot, no_exception_escapes):
    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    f = page.args.fields
    f["n"].set_text("2.5")  # an int
    f["x.count"].set_text("0")
    page.fields["block"].set_text("2048")
    assert page.check() is None
    assert "integer" in f["n"].message
    assert "below the minimum of 1" in f["x.count"].message
    assert "1024" in page.fields["block"].message
    before = window.workspace.scenario
    assert page.simulate() is False and page.message_role == "error"
    assert window.workspace.scenario == before and page.report is None
    f["n"].set_text("99999999999")
    assert page.check() is None and "outside int's range" in f["n"].message


@needs_compiler
def test_an_access_outside_every_buffer_is_one_line(window, page, qtbot, no_exception_escapes):
    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    page.args.fields["n"].set_text("4096")  # the buffers hold 1024
    assert simulate(qtbot, page) is None
    assert page.message_role == "error" and "outside every buffer" in page.message
    assert "\n" not in page.message and window.workspace.commands.undo_kind != "kernel"


@needs_compiler
def test_a_file_that_does_not_compile_and_one_with_no_kernel(window, page, qtbot, tmp_path, no_exception_escapes):
    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __global__ void k(int* p) { p[0] = undefined_name; }\n', encoding="utf-8")
    assert open_kernel(qtbot, window, page, bad) is None
    assert page.message_role == "error" and "undefined_name" in page.message
    assert not page.simulate_button.isEnabled()
    none = tmp_path / "none.cu"
    none.write_text("__device__ int twice(int x) { return 2 * x; }\n", encoding="utf-8")
    assert open_kernel(qtbot, window, page, none) is None
    qtbot.waitUntil(lambda: not page.busy, timeout=LONG)
    assert page.message_role == "error" and "none.cu" in page.message


@needs_compiler
def test_pick_a_kernel_of_several_and_shared_memory_is_read_only(window, page, qtbot, monkeypatch,
                                                                  no_exception_escapes):
    from explorer.toolchain import compiler

    compiles = []
    real = compiler._build_in_child

    def counted(*args, **kwargs):  # the occupancy calculator's row shares the window's compile of the file
        compiles.append(args[0]["kernel"])
        return real(*args, **kwargs)

    monkeypatch.setattr(compiler, "_build_in_child", counted)
    open_kernel(qtbot, window, page, KERNELS / "reduce.cu", "reduce_shared")
    assert len(compiles) == 1, compiles  # the file's one compile listed its kernels, serves the one picked and the
    # calculator's row
    assert [r.name for r in page.rows] == ["in", "partial", "n"]
    page.fields["grid"].set_text("4")
    page.fields["block"].set_text("256")
    page.fields["smem_dynamic"].set_text("1024")  # 256 floats: extern __shared__ buf[]
    page.args.fields["n"].set_text("1024")
    page.args.fields["in.count"].set_text("1024")
    page.args.fields["partial.count"].set_text("4")
    report = simulate(qtbot, page)
    assert report is not None, page.message
    from explorer.sass.execute.run import run_kernel

    run = run_kernel(report.scenario, keep_inputs=True)
    x = run.result.inputs["in"].astype(np.float64).reshape(4, 256).sum(axis=1)
    partial = next(b for b in report.buffers if b.name == "partial")
    assert np.allclose(partial.after[:4], x, rtol=1e-5)
    assert report.summary["launch"]["dynamic_shared_bytes"] == 1024
    assert "shared" in page.report_view.values["memory"].text()


@needs_compiler
def test_save_load_and_undo_a_kernel_scenario(window, page, qtbot, tmp_path, no_exception_escapes):
    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    page.args.fields["a"].set_text("3.0")
    report = simulate(qtbot, page)
    assert report is not None, page.message
    files = window.feature("files")
    target = tmp_path / "sub" / "mine.toml"
    target.parent.mkdir()
    assert files.save_to(target)
    text = target.read_text(encoding="utf-8")
    import os

    expected = Path(os.path.relpath(KERNELS / "saxpy.cu", target.parent)).as_posix()
    assert f'file = "{expected}"' in text and "registers_per_thread" not in text
    loaded = Scenario.load(target)
    assert loaded.kernel.path.resolve() == (KERNELS / "saxpy.cu").resolve()
    assert dict(loaded.kernel.args)["a"] == 3.0
    # back to the previous scenario, then open the file: the form follows the Explorer's [kernel] scenario
    window.workspace.undo()
    assert window.workspace.scenario.kernel is None
    page.args.fields["a"].set_text("7")
    assert files.open_file(target)
    qtbot.waitUntil(lambda: not page.busy and page.kernel is not None and page.args.fields.get("a") is not None
                    and page.args.fields["a"].text() == "3.0", timeout=LONG)
    assert page.fields["grid"].text() == "4" and page.fields["block"].text() == "256"
    # the file holds no registers: the Explorer gets the cubin's (a logged change, not an Undo step)
    ex = window.explorer
    assert ex.workspace.scenario.launch.registers_per_thread == page.kernel.registers
    assert ex.workspace.commands.undo_kind == "file" and ex.workspace.commands.history[-1] == ("do", "restore")
    # the window keeps the .cu findable without the file's folder (the settings keep the scenario as TOML)
    import tomllib

    from explorer.model.tomlio import dumps

    again = Scenario.from_dict(tomllib.loads(dumps(window.workspace.scenario.to_dict())))
    assert again.kernel.path == (KERNELS / "saxpy.cu").absolute()


@needs_compiler
def test_cancel_stops_a_long_run(window, page, qtbot, no_exception_escapes):
    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    f = page.args.fields
    for key in ("n", "x.count", "y.count"):
        f[key].set_text(str(1 << 24))
    page.fields["grid"].set_text("65536")
    assert page.simulate() and page.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: page.progress.value() > 0, timeout=LONG)
    page.cancel()
    qtbot.waitUntil(lambda: not page.busy, timeout=LONG)
    assert page.report is None and "Cancelled" in page.message
    assert page.simulate_button.isEnabled()



@needs_compiler
def test_a_compile_that_runs_for_ever_can_be_cancelled_and_the_window_stays_live(window, page, qtbot, tmp_path,
                                                                                   monkeypatch, no_exception_escapes):
    """The compiler runs in a child process (issue 30, item 1): the event loop keeps running while it
    compiles, and Cancel kills the child and its group."""
    import subprocess
    import time
    import traceback

    from PySide6.QtCore import Qt, QTimer

    from explorer.toolchain import sandbox
    from tests.gpu.test_compiler_sandbox import template_bomb

    pids = []
    real = subprocess.Popen

    def popen(*args, **kwargs):
        proc = real(*args, **kwargs)
        if any(frame.name == "open_kernels" for frame in traceback.extract_stack()):  # this tab's
            pids.append(proc.pid)
        return proc

    monkeypatch.setattr(sandbox.subprocess, "Popen", popen)
    src = tmp_path / "bomb.cu"
    src.write_text(template_bomb(17))  # minutes of compiling
    # the tab alone (the window's open would hand it to the calculator's row too, and the row's compile, which the
    # tab's would wait for, is not the tab's to cancel: toolchain.compiler.FileBuilds)
    page.open_file(src)
    qtbot.waitUntil(lambda: bool(pids), timeout=LONG)
    assert page.busy == "compile" and page.cancel_button.isEnabled() and not page.simulate_button.isEnabled()
    ticks = []
    timer = QTimer(page)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    # the window is live while the child compiles: its timer fires again and again before the compile (minutes of
    # it) is over. Counted against the compile, not the clock: a fixed 300 ms window saw 4 ticks on a loaded
    # machine (2026-12-07 CI), the GUI process starved by the compiler and the other test worker
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=LONG)
    assert page.busy == "compile" and any(_alive(pid) for pid in pids)
    t0 = time.monotonic()
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.busy, timeout=10_000)
    timer.stop()
    assert time.monotonic() - t0 < 5
    assert "Cancelled: the compiler was stopped" in page.message and page.message_role == "muted"
    for pid in pids:
        assert not _alive(pid), f"the compiler's process group {pid} is still there"


@needs_compiler
def test_a_file_name_with_a_bidi_control_is_shown_without_it(window, page, qtbot, tmp_path, no_exception_escapes):
    """Issue 30, item 7: a U+202E in a name reversed the text shown after it."""
    src = tmp_path / "sax\u202epy.cu"
    src.write_text((KERNELS / "saxpy.cu").read_text(encoding="utf-8"), encoding="utf-8")
    kernel = open_kernel(qtbot, window, page, src)
    assert kernel is not None, page.message
    assert page.file_label.text() == "saxpy.cu"
    assert "\u202e" not in page.message and "\u202e" not in page.compile_info.text()

LDSM = r'''
extern "C" __global__ void ldsm(unsigned* out)
{
    __shared__ unsigned short tile[8 * 8];
    for (int k = threadIdx.x; k < 64; k += blockDim.x) tile[k] = k;
    __syncthreads();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(threadIdx.x % 8) * 8]);
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(addr));
    out[threadIdx.x] = r;
}
'''


@needs_compiler
def test_an_unsupported_opcode_is_announced_then_refused_in_one_line(window, page, qtbot, tmp_path,
                                                                      no_exception_escapes):
    src = tmp_path / "ldsm.cu"
    src.write_text(LDSM, encoding="utf-8")
    kernel = open_kernel(qtbot, window, page, src)
    assert kernel is not None and kernel.decoded.unsupported  # ldmatrix: LDSM
    assert "not supported by the executor" in page.compile_info.text()
    page.fields["grid"].set_text("1")
    page.fields["block"].set_text("32")
    page.args.fields["out.count"].set_text("32")
    assert simulate(qtbot, page) is None
    assert page.message_role == "error" and "LDSM" in page.message and "ldsm.cu line" in page.message


@needs_compiler
def test_a_language_switch_keeps_the_form_and_the_report(window, page, qtbot, english, no_exception_escapes):
    from explorer.gui.shell.language import switch_language

    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    page.args.fields["a"].set_text("4.5")
    page.fields["grid"].set_text("2")
    report = simulate(qtbot, page)
    assert report is not None, page.message
    qtbot.waitUntil(lambda: not window.workspace.session.simulating, timeout=LONG)
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    new = ru.feature("kernel")
    assert new is not page and new.report is report and new.kernel is page.kernel
    assert new.args.fields["a"].text() == "4.5" and new.fields["grid"].text() == "2"
    assert new.report_view.values["executed"].text().startswith("варп-инструкций")
    assert new.simulate_button.text() == "Модели&ровать" and new.simulate_button.isEnabled()
    from explorer.sass.execute.run import resolve

    assert ru.workspace.scenario == report.scenario == resolve(new.check(), new.kernel)


@needs_compiler
def test_what_the_form_does_not_show_is_kept_from_the_file(window, page, qtbot, tmp_path, no_exception_escapes):
    (tmp_path / "saxpy.cu").write_text((KERNELS / "saxpy.cu").read_text(encoding="utf-8"), encoding="utf-8")
    scenario_file = tmp_path / "mine.toml"
    scenario_file.write_text('''name = "mine"
description = "my saxpy"
gpu = "A100"
seed = 7
[launch]
grid = [2, 1, 1]
block = [64, 1, 1]
carveout = 50
[scheduler]
policy = "lrr"
[kernel]
file = "saxpy.cu"
name = "saxpy"
max_instructions = 1000000
[kernel.args]
n = 128
a = 0.5
x = { dtype = "f32", count = 128, init = "random", low = -1.0, high = 1.0 }
y = { dtype = "f32", count = 128 }
''', encoding="utf-8")
    assert window.feature("files").open_file(scenario_file)
    qtbot.waitUntil(lambda: not page.busy and page.kernel is not None, timeout=LONG)
    assert page.gpu_name() == "A100" and page.kernel.arch == "sm_80"
    assert page.args.fields["a"].text() == "0.5" and page.args.combos["x.init"].currentData() == "random"
    report = simulate(qtbot, page)
    assert report is not None, page.message
    sc = window.workspace.scenario
    assert sc == report.scenario
    assert (sc.name, sc.description, sc.seed, sc.scheduler.policy, sc.launch.carveout) == ("mine", "my saxpy", 7,
                                                                                             "lrr", 50)
    assert sc.kernel.max_instructions == 1_000_000 and sc.kernel.arg("x").low == -1.0
    x = next(b for b in report.buffers if b.name == "x")
    assert all(-1.0 <= v < 1.0 for v in x.before) and min(x.before) < 0


def test_a_small_kernels_time_on_this_machine_is_in_a_unit_that_shows_it(window, page):
    """A 3 ms execution read "On this machine: 0.00 s" (issue 31 item 1)."""
    view = page.report_view
    assert view.speed_text(0.0032, 4.5e6) == "3.2 ms (4.5 M warp-instructions/s)"
    assert view.speed_text(1.25, 2e6) == "1.25 s (2 M warp-instructions/s)"
    assert view.speed_text(0.0, 0.0) == "under the clock's resolution"


def test_executing_says_when_the_interpreter_is_being_compiled(window, page, qtbot, monkeypatch,
                                                             no_exception_escapes):
    from explorer.gui.common import compile_watch

    open_kernel(qtbot, window, page, KERNELS / "saxpy.cu")
    monkeypatch.setattr(compile_watch, "state_of", lambda part: "compiles")
    clock = [0.0]
    monkeypatch.setattr(compile_watch.time, "monotonic", lambda: clock[0])
    real_start = page.runner.start
    monkeypatch.setattr(page.runner, "start", lambda *a, **k: None)  # the run itself is not the point here
    assert page.simulate()
    assert page.compile_watch.active and page.message.startswith("Compiling the kernel interpreter once")
    clock[0] = compile_watch.compile_seconds()["kernel_interpreter"] / 4
    page.compile_watch.poll()
    assert page.progress.value() == 250 and page.message.endswith("25%")
    monkeypatch.setattr(page.runner, "start", real_start)
    page.busy = ""
    page.compile_watch.stop()


@needs_compiler
def test_a_language_switch_keeps_the_explorers_cycle_and_the_kernel_list(window, page, qtbot, english,
                                                                         no_exception_escapes):
    """Issue 31 item 2: with a kernel's run in the Explorer a switch re-simulated it (the cycle went back to 0:
    its scenario's TOML leaves the cubin's registers out), and the kernel list came back disabled with one name."""
    from explorer.gui.shell.language import switch_language

    open_kernel(qtbot, window, page, KERNELS / "reduce.cu", "reduce_shared")
    names = [page.kernel_combo.itemText(i) for i in range(page.kernel_combo.count())]
    assert len(names) > 1 and page.kernel_combo.isEnabled()
    page.fields["grid"].set_text("4")
    page.fields["block"].set_text("256")
    page.fields["smem_dynamic"].set_text("1024")
    page.args.fields["n"].set_text("1024")
    page.args.fields["in.count"].set_text("1024")
    page.args.fields["partial.count"].set_text("4")
    assert simulate(qtbot, page) is not None, page.message
    explorer = window.explorer
    qtbot.waitUntil(lambda: explorer.workspace.session.run is not None and explorer.workspace.session.run_is_current
                    and explorer.workspace.scenario.kernel is not None, timeout=LONG)
    run = explorer.workspace.session.run
    cycle = run.cycles // 2
    explorer.workspace.session.set_cycle(cycle)
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert (ru.workspace.session.run is run and ru.workspace.session.cycle == cycle
            and not ru.workspace.session.simulating)
    combo = ru.feature("kernel").kernel_combo
    assert [combo.itemText(i) for i in range(combo.count())] == names and combo.isEnabled()
    assert combo.currentText() == "reduce_shared"
