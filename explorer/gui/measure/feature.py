"""The real GPU in the window: run a scenario on it, open measurements, overlay, calibrate.

``install(window)`` (listed in ``main_window.FEATURES``; the feature is called "gpu")
adds to the File menu:

* **Open measurement…** (also File > Open and drag-and-drop of ``.npz`` files):
  the file is read by the CLI's loader (``load_measurement``) in a worker, then
  drawn over the simulation (counts plot, SM grid) and the "Simulated vs
  measured" box appears at the top of the metrics column;
* **Run on GPU**: measures the explorer's scenario on the real GPU in a worker
  (the backend runs the kernel in a child process with a timeout), with progress
  and Cancel in the status bar. Without a usable GPU the action is disabled and
  its tooltip and status tip say why (``explorer.gpu.probe.gpu_status_text``;
  the driver is probed in a worker at start-up, since the probe may take
  seconds);
* **Save measurement as…**, **Re-simulate with the compiled kernel's resources**
  (``resim_scenario``), **Calibrate the simulator…** (fits DRAM latency and
  bandwidth to the open measurements of one GPU, in a worker; the box shows the
  error before and after) and **Close measurement**;
* a ``.cu`` row in the occupancy calculator (``cu_source``), and ``.cu`` files
  for File > Open and drag-and-drop.

Every failure (no GPU, a kernel that does not compile, a timeout, a kernel
fault, a malformed file) ends as a message; the state on screen is kept. The
measured scenario and its re-simulation reach the Explorer as undoable commands.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
)

from explorer.texts.numbers import num
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.measure import data as md
from explorer.gui.measure.cu_source import CudaSourceRow
from explorer.gui.measure.overlay import CountsOverlay, GridOverlay
from explorer.gui.measure.panel import MeasurementBox

MEASUREMENT_SUFFIXES = (".npz",)
CUDA_SUFFIXES = (".cu",)


def install(window) -> GpuController:
    return window.add_feature("gpu", GpuController(window))


class GpuController(QObject):
    """Owns the open measurement, the GPU actions and the GPU workers of one window."""

    measurement_changed = Signal(object)  # Measurement or None
    message_shown = Signal(str, str)  # kind, text (tests and the status bar)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.workspace = window.workspace  # the scenario measured, its run, the changes a measurement makes
        self.page = window.explorer  # the views the overlays and the box join
        self.tasks = TaskRunner(self, threads=3)
        self.measurement = None
        self.saved = False  # whether the open measurement is in a file
        self.measurements: list = []  # opened in this window, for calibration (newest last)
        self.calibration = None
        self.gpu_ok = False
        self.gpu_text = self.tr("Looking for an NVIDIA GPU…")
        self.long_task = None  # the running measurement or calibration (one at a time)
        self.message_box: QMessageBox | None = None
        self.last_message = ("", "")
        # injectable for tests: the backend's functions, and options for them
        self.measure_fn: Callable | None = None  # default: explorer.gpu.measure.measure
        self.measure_options: dict = {}
        self.calibrate_kwargs: dict = {}
        self.probe_fn: Callable | None = None  # default: probe + gpu_status_text

        self._build_actions()
        self._build_views()
        window.register_file_handler(MEASUREMENT_SUFFIXES, self.tr("GPU measurements"), self.open_measurement)
        window.register_file_handler(CUDA_SUFFIXES, self.tr("CUDA sources"), self.open_cuda_source)
        s = self.workspace.session
        s.scenario_changed.connect(lambda _sc: (self._update_actions(), self._update_comparison()))
        s.errors_changed.connect(lambda _errors: self._update_comparison())
        s.run_changed.connect(lambda _run: self._update_comparison())
        self._update_actions()
        self.check_gpu()

    # -- construction ---------------------------------------------------------------
    def _build_actions(self) -> None:
        w = self.window
        self.open_action = QAction(self.tr("Open &measurement…"), w)
        self.open_action.setObjectName("open_measurement_action")
        self.open_action.setStatusTip(self.tr("Open a GPU measurement (warp-explorer measure --out FILE.npz) and "
                                              "draw it over the simulation."))
        self.open_action.triggered.connect(self.open_dialog)
        self.run_action = QAction(self.tr("Run on &GPU"), w)
        self.run_action.setObjectName("run_on_gpu_action")
        self.run_action.setShortcut("Ctrl+G")
        self.run_action.triggered.connect(self.run_on_gpu)
        self.save_action = QAction(self.tr("Sa&ve measurement as…"), w)
        self.save_action.setObjectName("save_measurement_action")
        self.save_action.triggered.connect(self.save_dialog)
        self.resim_action = QAction(self.tr("Re-simulate with the compiled &kernel's resources"), w)
        self.resim_action.setObjectName("resim_action")
        self.resim_action.setStatusTip(self.tr("Simulate the measured launch with the registers and shared memory "
                                               "the compiler actually produced, on the measured GPU."))
        self.resim_action.triggered.connect(self.resimulate)
        self.calibrate_action = QAction(self.tr("Ca&librate the simulator from the measurement(s)"), w)
        self.calibrate_action.setObjectName("calibrate_action")
        self.calibrate_action.setStatusTip(self.tr("Fit the simulator's DRAM latency and bandwidth to the open "
                                                   "measurements of this GPU and show the error before and after."))
        self.calibrate_action.triggered.connect(self.calibrate)
        self.close_action = QAction(self.tr("Close measuremen&t"), w)
        self.close_action.setObjectName("close_measurement_action")
        self.close_action.triggered.connect(self.close_measurement)
        menu = w.file_menu
        menu.setToolTipsVisible(True)  # a disabled "Run on GPU" says why on hover
        before = w.file_menu_end
        menu.insertSeparator(before)
        for action in (self.open_action, self.run_action, self.save_action, self.resim_action,
                       self.calibrate_action, self.close_action):
            menu.insertAction(before, action)

    def _build_views(self) -> None:
        page = self.page
        self.counts_overlay = CountsOverlay(page, self.workspace.session, self)
        page.add_under_counts(self.counts_overlay.legend)
        self.grid_overlay = GridOverlay(page, self.workspace.session)
        self.grid_note = QLabel(page)
        self.grid_note.setObjectName("measured_grid_note")
        self.grid_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # one line, clipped
        self.grid_note.hide()
        page.add_under_grid(self.grid_note)
        self.box = MeasurementBox(page.metrics)
        self.box.hide()
        page.add_to_metrics(self.box)
        self.box.resim_button.clicked.connect(self.resimulate)
        self.box.calibrate_button.clicked.connect(self.calibrate)
        self.box.close_button.clicked.connect(self.close_measurement)
        # status bar: what the GPU run or calibration is doing, with Cancel
        bar = self.window.statusBar()
        self.progress_label = QLabel(bar)
        self.progress_label.setObjectName("gpu_progress_label")
        self.progress = QProgressBar(bar)
        self.progress.setObjectName("gpu_progress")
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(self.tr("Cancel"), bar)
        self.cancel_button.setObjectName("gpu_cancel")
        self.cancel_button.clicked.connect(self.cancel)
        for widget in (self.progress_label, self.progress, self.cancel_button):
            bar.addPermanentWidget(widget)
            widget.hide()
        # the occupancy calculator takes a .cu file instead of typed-in numbers (once it is built)
        self._cu_row: CudaSourceRow | None = None
        self.window.occupancy.on_built(self._add_source_row)

    def _add_source_row(self, occupancy) -> None:
        inputs = occupancy.inputs
        self._cu_row = CudaSourceRow(inputs, inputs, builds=self.window.workspace.builds)
        inputs.add_source_row(self.tr("&Kernel source:"), self._cu_row, self._cu_row.open_button)

    @property
    def cu_row(self) -> CudaSourceRow:
        """The calculator's "Kernel source" row (the calculator is built first if it was not yet)."""
        self.window.occupancy.ensure_built()
        return self._cu_row

    # -- GPU availability -------------------------------------------------------------
    def check_gpu(self) -> None:
        """Probe the driver in a worker; "Run on GPU" stays disabled until it answers yes."""
        self.gpu_ok = False
        self.gpu_text = self.tr("Looking for an NVIDIA GPU…")
        self._update_actions()

        probe_fn = self.probe_fn

        def work(_task):
            if probe_fn is not None:
                return probe_fn()
            from explorer.gpu.probe import gpu_status_text, probe

            result = probe(use_cache=False)
            return result.ok, gpu_status_text()

        self.tasks.start("probe", work, newest_wins=True, on_done=self._probed,
                         on_error=lambda error: self._probed((False, error.message)))

    def _probed(self, answer) -> None:
        self.gpu_ok, self.gpu_text = bool(answer[0]), str(answer[1])
        self._update_actions()

    def _update_actions(self) -> None:
        m = self.measurement
        busy = self.long_task is not None
        if self.gpu_ok:
            tip = self.tr("Measure the explorer's scenario on {gpu}.").format(gpu=self.gpu_text)
        elif self.gpu_text and "…" in self.gpu_text:
            tip = self.gpu_text
        else:
            tip = self.tr("Run on GPU is unavailable: {why}").format(why=self.gpu_text)
        self.run_action.setEnabled(self.gpu_ok and not busy)
        self.run_action.setToolTip(tip)
        self.run_action.setStatusTip(tip)
        self.save_action.setEnabled(m is not None)
        resim = self._resim_scenario()
        can_resim = resim is not None and resim != self.workspace.scenario
        self.resim_action.setEnabled(can_resim)
        self.box.resim_button.setEnabled(can_resim)
        same = self._calibration_set()
        self.calibrate_action.setEnabled(bool(same) and not busy)
        self.box.calibrate_button.setEnabled(bool(same) and not busy)
        self.close_action.setEnabled(m is not None)
        if m is not None:  # against what really ran: the measured GPU, the compiled kernel's resources
            ran = resim if resim is not None else self._safe_scenario(m)
            self.box.show_differences(md.scenario_differences(self.workspace.scenario, ran), can_resim)

    # -- measurements -----------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open a GPU measurement"), "",
                                              self.tr("GPU measurements (*.npz);;All files (*)"))
        if path:
            self.open_measurement(Path(path))

    def open_measurement(self, path) -> None:
        """Read a measurement file in a worker (the CLI's loader), then overlay it; a bad file is a message."""
        path = Path(path)

        def work(_task):
            from explorer.gpu.measurement import load_measurement

            return load_measurement(path)

        self.window.statusBar().showMessage(self.tr("Opening the measurement {name}…").format(name=path.name), 6000)
        self.tasks.start("open", work, newest_wins=True, on_done=lambda m: self._opened(path, m),
                         on_error=lambda error: self._open_failed(path, error))

    @property
    def opening(self) -> bool:
        """Whether a measurement file is being read."""
        return bool(self.tasks.running("open"))

    def _opened(self, path: Path, m) -> None:
        self.show_measurement(m, saved=True)
        self.window.statusBar().showMessage(self.tr("Opened the measurement {name}.").format(name=path.name), 6000)

    def _open_failed(self, path: Path, error: TaskError) -> None:
        why = error.message if error.kind == "input" else error.text
        self.show_message("error", self.tr("Cannot open the measurement {name}: {why}").format(name=path.name, why=why))

    def show_measurement(self, m, saved: bool) -> None:
        """Overlay ``m``; switch the explorer to the measured scenario unless it already shows it (or its re-run)."""
        self.measurement, self.saved = m, saved
        self.measurements = [x for x in self.measurements if not (m.path and x.path == m.path)] + [m]
        self.calibration = None
        self.box.clear_calibration()
        measured = self._safe_scenario(m)
        current = self.workspace.scenario
        if measured is not None and current not in (measured, self._resim_scenario()):
            self.workspace.change_scenario(measured, "measurement")
        self.counts_overlay.set_measurement(m)
        self.grid_overlay.set_measurement(m)
        self.box.show_measurement(m, saved)
        self.box.show_as_ran(None)
        self.box.show()
        self.window.show_view("explorer")
        self._compare_as_ran(m)
        self._update_comparison()
        self._update_actions()
        self.measurement_changed.emit(m)

    def _compare_as_ran(self, m) -> None:
        """Simulate the measured launch as it ran (explorer.gpu.compare) in a worker; its verdict goes above the
        table, the same figures ``measure --compare`` prints."""
        if m.scenario is None:
            return

        def work(task):
            from explorer.gpu.compare import compare

            return compare(m, progress=lambda done, total: task.progress(self.tr("simulating the launch as it ran"),
                                                                         done / max(total, 1)),
                           cancel=task.is_cancelled)

        def done(c):
            if self.measurement is m:
                self.box.show_as_ran(c)

        self.tasks.start("compare_as_ran", work, newest_wins=True, on_done=done,
                         on_error=lambda _error: self.box.show_as_ran(None))

    def close_measurement(self) -> None:
        self.tasks.cancel("compare_as_ran", disconnect=True)
        self.measurement = None
        self.counts_overlay.set_measurement(None)
        self.grid_overlay.set_measurement(None)
        self.grid_note.hide()
        self.box.hide()
        self._update_actions()
        self.measurement_changed.emit(None)

    def save_dialog(self) -> None:
        m = self.measurement
        if m is None:
            return
        name = (m.meta.get("scenario_name") or "measurement") + ".npz"
        path, _ = QFileDialog.getSaveFileName(self.window, self.tr("Save the measurement"), m.path or name,
                                              self.tr("GPU measurements (*.npz)"))
        if path:
            self.save(path)

    def save(self, path) -> bool:
        m = self.measurement
        if m is None:
            return False
        try:
            written = m.save(path)
        except OSError as exc:
            self.show_message("error", self.tr("Cannot save the measurement to {path}: {why}").format(
                path=path, why=exc.strerror or exc))
            return False
        m.path = str(written)
        self.saved = True
        self.box.show_measurement(m, True)
        self.window.statusBar().showMessage(self.tr("Saved the measurement to {path}.").format(path=written), 6000)
        return True

    @staticmethod
    def _safe_scenario(m):
        try:
            return m.scenario
        except Exception:  # noqa: BLE001 - an unreadable scenario: the overlay still works
            return None

    def _resim_scenario(self):
        if self.measurement is None:
            return None
        from explorer.gpu.measure import resim_scenario

        try:
            return resim_scenario(self.measurement)
        except Exception:  # noqa: BLE001 - no scenario in the file, or an unknown GPU
            return None

    def _update_comparison(self) -> None:
        m = self.measurement
        run = self.workspace.run
        if m is None:
            return
        if run is not None:
            self.box.show_comparison(md.comparison(run.summary, run.result, m), self.workspace.session.run_is_current)
        mismatch = self.grid_overlay.mismatch
        if mismatch:
            self.grid_note.setText(self.tr("Measured blocks are not drawn on the SM grid: {why}.").format(why=mismatch))
        else:
            self.grid_note.setText(self.tr(
                "<b>Hatched boxes</b> = blocks resident on the real GPU at this cycle (how many, not which slots) · "
                "solid outlines = simulated blocks"))
        self.grid_note.show()

    def resimulate(self) -> None:
        """Simulate with the compiled kernel's registers and shared memory, on the measured GPU."""
        scenario = self._resim_scenario()
        if scenario is None:
            self.show_message("error", self.tr("This measurement carries no scenario to re-simulate."))
            return
        self.workspace.change_scenario(scenario, "resimulate")
        self._update_actions()

    # -- long tasks: run on GPU, calibrate ---------------------------------------------
    def _start_long(self, name: str, text: str, fn, on_done) -> None:
        self.progress_label.setText(text)
        self.progress.setRange(0, 0)  # busy until a fraction arrives
        for widget in (self.progress_label, self.progress, self.cancel_button):
            widget.show()
        self.cancel_button.setEnabled(True)
        self.long_task = self.tasks.start(name, fn, on_done=lambda r: self._long_done(on_done, r),
                                          on_error=self._long_failed, on_progress=self._long_progress)
        self._update_actions()

    def _long_progress(self, text: str, fraction) -> None:
        head = self.tr("GPU run") if self.long_task and self.long_task.name == "measure" else self.tr("Calibration")
        self.progress_label.setText(f"{head}: {text}")
        if fraction is not None:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * max(0.0, min(1.0, float(fraction)))))

    def _end_long(self) -> None:
        self.long_task = None
        for widget in (self.progress_label, self.progress, self.cancel_button):
            widget.hide()
        self._update_actions()

    def _long_done(self, on_done, result) -> None:
        self._end_long()
        on_done(result)

    def _long_failed(self, error: TaskError) -> None:
        kind, message = error.kind, error.text
        name = self.long_task.name if self.long_task else ""
        self._end_long()
        if kind == "cancelled":
            self.window.statusBar().showMessage(self.tr("Cancelled."), 6000)
            self.last_message = ("cancelled", message)
            self.message_shown.emit("cancelled", message)
            return
        what = {
            "unavailable": self.tr("No usable GPU: {m}"),
            "input": self.tr("The kernel could not be prepared: {m}"),
            "run": self.tr("The GPU run failed: {m}"),
            "bug": self.tr("Unexpected error (a bug; details on the console): {m}"),
        }
        if name == "calibrate":
            what.update(input=self.tr("Cannot calibrate: {m}"), run=self.tr("The calibration failed: {m}"))
        self.show_message("error", what.get(kind, "{m}").format(m=message))
        if kind == "unavailable":
            self.check_gpu()

    def cancel(self) -> None:
        if self.long_task is not None:
            self.long_task.cancel()
            self.cancel_button.setEnabled(False)
            self.progress_label.setText(self.tr("Cancelling…"))

    def run_on_gpu(self) -> None:
        """Measure the explorer's scenario on the GPU (a worker; the backend uses a child process)."""
        if self.long_task is not None:
            return
        scenario = self.workspace.scenario
        options = dict(self.measure_options)
        measure_fn = self.measure_fn

        def work(task):
            from explorer.gpu.measure import MeasureOptions, measure

            fn = measure_fn or measure
            return fn(scenario, MeasureOptions(**options), progress=task.progress, cancel=task.is_cancelled)

        self._start_long("measure", self.tr("GPU run: starting…"), work, self._measured)

    def _measured(self, m) -> None:
        self.show_measurement(m, saved=False)
        self.window.statusBar().showMessage(
            self.tr("Measured on {device}. File > Save measurement as… keeps it.").format(
                device=m.meta.get("device", {}).get("name") or self.tr("the GPU")), 10000)

    def _calibration_set(self) -> list:
        """The open measurements of the current measurement's GPU (calibration fits one GPU at a time)."""
        if self.measurement is None:
            return []
        from explorer.gpu.measure import resim_scenario

        def gpu_of(m):
            try:
                return resim_scenario(m).gpu.name
            except Exception:  # noqa: BLE001
                return None

        target = gpu_of(self.measurement)
        if target is None:
            return []
        return [m for m in self.measurements if gpu_of(m) == target]

    def calibrate(self) -> None:
        if self.long_task is not None:
            return
        measurements = self._calibration_set()
        if not measurements:
            self.show_message("error", self.tr("Open a measurement (with its scenario) to calibrate from."))
            return
        kwargs = dict(self.calibrate_kwargs)

        def work(task):
            from explorer.gpu.calibrate import calibrate

            # on threads of this process (every core), so Cancel stops the simulations running; calibrate's own
            # words for the progress
            return calibrate(measurements, cancel=task.is_cancelled,
                             progress=lambda t, f: task.progress(t, min(f, 0.99)), **kwargs)

        self._start_long("calibrate", self.tr("Calibration: starting…"), work, self._calibrated)

    def _calibrated(self, cal) -> None:
        self.calibration = cal
        self.box.show_calibration(cal)
        self.window.statusBar().showMessage(self.tr("Calibrated: RMS error {b}% → {a}%.").format(
            b=num(100 * cal.error_before, 1), a=num(100 * cal.error_after, 1)), 10000)

    # -- .cu files ----------------------------------------------------------------------
    def open_cuda_source(self, path) -> None:
        """The window's one way in for a ``.cu``: the calculator's row compiles it for its resources, and
        the "Your kernel" tab (the feature "kernel", where installed) lists its kernels to run one; that tab
        comes forward unless the calculator is in front."""
        kernel = self.window.feature("kernel")
        stay = self.window.tabs.currentWidget() is self.window.occupancy  # opened from the calculator
        self.cu_row.open_file(path)
        if kernel is not None:
            kernel.open_file(path)
        self.window.show_view("occupancy" if stay or kernel is None else "kernel")

    # -- messages, theme, shutdown ------------------------------------------------------
    def show_message(self, kind: str, text: str) -> None:
        """A non-blocking message box (and the status bar); the window stays usable."""
        self.last_message = (kind, text)
        self.window.statusBar().showMessage(text, 15000)
        if self.message_box is not None:
            self.message_box.close()
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Warp Explorer"), text,
                          QMessageBox.StandardButton.Close, self.window)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.destroyed.connect(lambda *_: setattr(self, "message_box", None))
        self.message_box = box
        box.open()
        self.message_shown.emit(kind, text)

    # -- window hooks -------------------------------------------------------------------
    def apply_theme(self, theme) -> None:
        self.counts_overlay.apply_theme(theme)
        self.grid_overlay.apply_theme(theme)

    def capture_state(self, live: bool = False) -> dict:
        """Nothing between runs; for a rebuilt window the open measurements and the calibration."""
        if not live:
            return {}
        return {"measurement": self.measurement, "saved": self.saved, "measurements": list(self.measurements),
                "calibration": self.calibration}

    def restore_state(self, state: dict) -> None:
        self.measurements = list(state.get("measurements") or [])
        if state.get("measurement") is not None:
            self.show_measurement(state["measurement"], bool(state.get("saved")))
        if state.get("calibration") is not None:
            self.calibration = state["calibration"]
            self.box.show_calibration(self.calibration)

    def rebuild_blocker(self) -> str | None:
        """A GPU run or calibration would be cancelled by rebuilding the window."""
        if self.long_task is None:
            return None
        return self.tr("Finish or cancel the GPU run first: changing the language rebuilds the window.")

    def shutdown(self) -> None:
        """Cancel the GPU run or calibration (its child process is killed) and wait for the workers."""
        self.tasks.shutdown()
        if self._cu_row is not None:  # the calculator was built
            self._cu_row.shutdown()
        if self.message_box is not None:
            self.message_box.close()
        sys.stderr.flush()
