""""Run on GPU": disabled with the probe's reason here, a worker with progress and cancel, errors as messages.

The worker is tested with the backend's ``measure`` injected, and end to end against the fake
``libcuda.so.1`` of tests/gpu (cuda-bindings and the child worker process, no GPU needed).
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from explorer.toolchain.errors import GpuRunError, GpuUnavailable
from explorer.gpu.measurement import load_measurement
from tests.gui.gpu_support import (
    REPO,
    close_message,
    synthetic_measurement,
    wait_for_run,
)


@pytest.fixture
def gpu(window, qtbot):
    wait_for_run(qtbot, window)
    g = window.feature("gpu")
    qtbot.waitUntil(lambda: "…" not in g.gpu_text, timeout=60_000)  # the start-up probe answered
    return g


def fake_gpu(g, qtbot, name="Fake H100 (CC 9.0, 132 SMs), driver 13.0"):
    g.probe_fn = lambda: (True, name)
    g.check_gpu()
    qtbot.waitUntil(lambda: g.gpu_ok, timeout=10_000)


def test_run_on_gpu_is_disabled_with_the_probes_reason(window, gpu, qtbot, monkeypatch):
    from explorer.gpu.probe import gpu_status_text, probe

    monkeypatch.setenv("WARP_EXPLORER_NO_GPU", "1")  # whatever this machine has
    gpu.check_gpu()
    qtbot.waitUntil(lambda: "…" not in gpu.gpu_text, timeout=60_000)
    reason = gpu_status_text()
    assert not probe().ok and reason == "GPU use is switched off (WARP_EXPLORER_NO_GPU is set)"
    assert not gpu.run_action.isEnabled()
    assert reason in gpu.run_action.toolTip() and reason in gpu.run_action.statusTip()
    assert gpu.run_action.toolTip().startswith("Run on GPU is unavailable")
    gpu.run_action.trigger()  # a disabled action does nothing
    assert gpu.long_task is None and gpu.message_box is None


def test_this_machine_without_a_gpu_says_why(window, gpu, qtbot):
    from explorer.gpu.probe import gpu_status_text, probe

    if probe().ok:
        pytest.skip("this machine has a usable GPU")
    assert not gpu.run_action.isEnabled()
    assert gpu_status_text() in gpu.run_action.toolTip()
    assert window.file_menu.toolTipsVisible()


def test_run_on_gpu_measures_in_a_worker_and_overlays(window, gpu, qtbot, tmp_path):
    fake_gpu(gpu, qtbot)
    assert gpu.run_action.isEnabled() and "Fake H100" in gpu.run_action.toolTip()
    measured = synthetic_measurement()
    release = threading.Event()
    seen = {}

    def measure(scenario, options, *, progress, cancel):
        seen["scenario"], seen["options"] = scenario, options
        progress("compiling")
        release.wait(10)
        progress("launching")
        return measured

    gpu.measure_fn = measure
    gpu.measure_options = {"nvml_seconds": 0.0}
    gpu.run_action.trigger()
    assert gpu.long_task is not None and gpu.cancel_button.isVisible() and gpu.progress.isVisible()
    assert not gpu.run_action.isEnabled()  # one run at a time
    qtbot.waitUntil(lambda: "compiling" in gpu.progress_label.text(), timeout=10_000)
    # the GUI keeps working while the GPU runs
    window.workspace.session.set_cycle(1234)
    assert window.explorer.transport.isEnabled()
    release.set()
    qtbot.waitUntil(lambda: gpu.measurement is measured, timeout=10_000)
    assert seen["scenario"] == window.workspace.session.scenario and seen["options"].nvml_seconds == 0.0
    assert not gpu.cancel_button.isVisible() and gpu.run_action.isEnabled()
    assert gpu.box.isVisible() and "not saved yet" in gpu.box.heading.text()
    assert gpu.counts_overlay.curves["resident"].isVisible()
    assert gpu.save_action.isEnabled()
    assert gpu.save(tmp_path / "run") and Path(gpu.measurement.path) == tmp_path / "run.npz"
    assert "run.npz" in gpu.box.heading.text()
    again = load_measurement(tmp_path / "run.npz")
    assert again.cycles == measured.cycles and len(again.blocks) == len(measured.blocks)


@pytest.mark.parametrize("error, expected", [
    (GpuUnavailable("no NVIDIA driver on this machine"), "No usable GPU: no NVIDIA driver on this machine"),
    (GpuRunError("the measurement did not finish within 5 s and was stopped"),
     "The GPU run failed: the measurement did not finish within 5 s and was stopped"),
    (GpuRunError("cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS"), "CUDA_ERROR_ILLEGAL_ADDRESS"),
    (ZeroDivisionError("boom"), "Unexpected error (a bug; details on the console): ZeroDivisionError: boom"),
])
def test_errors_become_messages(window, gpu, qtbot, error, expected):
    fake_gpu(gpu, qtbot)

    def measure(scenario, options, *, progress, cancel):
        raise error

    gpu.measure_fn = measure
    gpu.run_on_gpu()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=10_000)
    kind, text = gpu.last_message
    assert kind == "error" and expected in text
    assert gpu.message_box is not None and expected in gpu.message_box.text()
    assert gpu.measurement is None and window.workspace.session.run is not None
    close_message(gpu)


def test_a_kernel_that_does_not_compile_is_a_message(window, gpu, qtbot):
    from explorer.toolchain.errors import CompileError

    fake_gpu(gpu, qtbot)

    def measure(scenario, options, *, progress, cancel):
        raise CompileError("example.cu", "does not compile: error: identifier \"x\" is undefined")

    gpu.measure_fn = measure
    gpu.run_on_gpu()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=10_000)
    assert gpu.last_message[1].startswith("The kernel could not be prepared: example.cu: does not compile")
    close_message(gpu)


def test_cancel_stops_the_run(window, gpu, qtbot):
    fake_gpu(gpu, qtbot)
    started = threading.Event()

    def measure(scenario, options, *, progress, cancel):
        started.set()
        while not cancel():  # as run_worker polls it, then kills the child
            time.sleep(0.01)
        raise GpuRunError("cancelled")

    gpu.measure_fn = measure
    gpu.run_on_gpu()
    assert started.wait(10)
    gpu.cancel_button.click()
    assert "Cancelling" in gpu.progress_label.text()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=10_000)
    assert gpu.last_message[0] == "cancelled" and gpu.message_box is None and gpu.measurement is None
    assert window.statusBar().currentMessage() == "Cancelled."


def test_closing_the_window_cancels_a_running_measurement(qtbot, settings, light_theme):
    from explorer.gui.shell.main_window import MainWindow

    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.show()
    g = w.feature("gpu")
    fake_gpu(g, qtbot)
    started, cancelled = threading.Event(), threading.Event()

    def measure(scenario, options, *, progress, cancel):
        started.set()
        while not cancel():
            time.sleep(0.01)
        cancelled.set()
        raise GpuRunError("cancelled")

    g.measure_fn = measure
    g.run_on_gpu()
    assert started.wait(10)
    w.close()
    assert cancelled.is_set()  # shutdown cancelled it and waited for the worker


# -- end to end against the fake driver (tests/gpu/fake_libcuda.c) ---------------------------
@pytest.fixture(scope="module")
def fake_libcuda(tmp_path_factory):
    from tests.gpu.support import compiler_problem

    if compiler_problem():
        pytest.skip(f"needs a CUDA compiler: {compiler_problem()}")
    try:
        from cuda.bindings import driver  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"needs cuda-bindings: {exc}")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build the fake driver library")
    d = tmp_path_factory.mktemp("fakecuda-gui")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(d / "libcuda.so.1"), str(REPO / "tests/gpu/fake_libcuda.c"),
                    "-ldl"], check=True, capture_output=True)
    return d


def test_run_on_gpu_end_to_end_with_a_fake_driver(window, gpu, qtbot, monkeypatch, fake_libcuda):
    monkeypatch.setenv("LD_LIBRARY_PATH", str(fake_libcuda))
    monkeypatch.setenv("WARP_EXPLORER_NO_GPU", "")
    for var in ("FAKE_CUDA_FAULT", "FAKE_CUDA_HANG"):
        monkeypatch.delenv(var, raising=False)
    gpu.check_gpu()
    qtbot.waitUntil(lambda: "…" not in gpu.gpu_text, timeout=60_000)
    assert gpu.gpu_ok, gpu.gpu_text
    assert gpu.run_action.isEnabled() and "H200" in gpu.run_action.toolTip()
    gpu.measure_options = {"nvml_seconds": 0.0, "repeats": 2}
    gpu.run_action.trigger()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=240_000)
    assert gpu.last_message[0] != "error", gpu.last_message
    m = gpu.measurement
    assert m is not None and m.meta["device"]["name"] == "NVIDIA H200" and len(m.blocks) == 240
    assert gpu.box.isVisible() and gpu.counts_overlay.curves["resident"].isVisible()
    # the fake compiles and reports 24 registers... whatever the compiler made, re-simulating uses it
    assert gpu.box.rows["registers"].measured == m.meta["kernel"]["registers"]
    if gpu.resim_action.isEnabled():
        gpu.resim_action.trigger()
        assert window.workspace.session.scenario.launch.registers_per_thread == m.meta["kernel"]["registers"]

    monkeypatch.setenv("FAKE_CUDA_FAULT", "1")  # a kernel fault: one line, no crash
    gpu.run_on_gpu()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=240_000)
    kind, text = gpu.last_message
    assert kind == "error" and "CUDA_ERROR_ILLEGAL_ADDRESS" in text and text.startswith("The GPU run failed")
    assert gpu.measurement is m  # the previous measurement stays on screen
    close_message(gpu)

    monkeypatch.setenv("FAKE_CUDA_FAULT", "")
    monkeypatch.setenv("FAKE_CUDA_HANG", "1")  # a hung kernel: Cancel kills the child process
    gpu.run_on_gpu()
    in_child = ("allocating", "globaltimer", "warm-up", "timed runs")  # the worker process's stages
    qtbot.waitUntil(lambda: any(s in gpu.progress_label.text() for s in in_child), timeout=120_000)
    t = time.monotonic()
    gpu.cancel()
    qtbot.waitUntil(lambda: gpu.long_task is None, timeout=30_000)
    assert gpu.last_message[0] == "cancelled" and time.monotonic() - t < 20
