"""The "Your kernel" tab: open a .cu, pick a kernel, fill in its arguments, simulate it.

Left, the form: the ``.cu`` file (File > Open, drag and drop or the button; read as the
CLI reads it: a regular file under ``MAX_SOURCE_BYTES``), its kernels (``open_kernels``:
the compiler's own list, C++ kernels by their demangled names), the GPU, grid, block and
dynamic shared memory; registers and static shared memory read-only, from the cubin
(occupancy uses them); then one row per parameter (``args_form``). Compiling runs in a
worker (a newer request wins). Opening a file compiles it once: the compile that lists
its kernels holds every one of them, so picking one disassembles it from that cubin; a
different GPU, or a file changed on disk, compiles again.

**Simulate** builds the ``[kernel]`` scenario from the form (the core judges every
field: ``form_values``) and runs it once in a worker (``common.tasks``: progress by
blocks executed and cycles timed, Cancel): ``simulate_kernel`` executes the compiled
kernel lane by lane and times what executed, so one execution gives both the report
(``report``: the buffers before and after) and the Explorer's run. The scenario, with the
cubin's numbers in its launch, becomes the Explorer's with that run
(``change_scenario(scenario, "kernel", run=...)``: one step for Edit > Undo, nothing
simulated again; File > Save Scenario writes it with the ``.cu`` path relative to the
file), and the report's timing line shows its cycles. A ``[kernel]`` scenario that
reaches the Explorer another way (File > Open, Undo, a restored session) fills the form
and the Explorer simulates it as any scenario.

Every failure (a file that does not compile, an unknown kernel, a bad argument, an
unsupported opcode, an access outside every buffer) is one line under the buttons;
the last report stays.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QProgressBar,
                               QPushButton, QVBoxLayout, QWidget)

from explorer.gui.common.compile_watch import INTERPRETER, CompileWatch
from explorer.gui.common.core_texts import limiter_names
from explorer.gui.common.error_texts import core_error
from explorer.gui.common.int_field import IntField, show_field_errors
from explorer.texts.numbers import num, pct
from explorer.gui.common.page import Page
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.common.theme import restyle
from explorer.gui.common.widgets import add_gpus, add_row, input_form, muted_label, scroll_area, select_data, splitter, wrap
from explorer.gui.kernel.args_form import ArgumentsForm
from explorer.gui.kernel.form_values import (DEFAULT_LAUNCH, FormInput, ParamRow, build, default_texts, launch_texts,
                                             param_rows, texts_of_spec)
from explorer.gui.kernel.report import ReportView
from explorer.model.errors import InputError, strip_bidi


class KernelPage(Page):
    """The form, the run and its report; the window's workspace (``workspace``) gets the scenario it ran (the
    Explorer shows it)."""

    simulated = Signal(object)  # KernelReport, once shown

    def __init__(self, workspace=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("kernel_page")
        self.workspace = workspace  # the window's (change_scenario, show_result, session); None in a bare test
        self.runner = TaskRunner(self, threads=1)
        self.compile_watch = CompileWatch(self)  # the first run on a machine waits for numba: it says so
        self.compile_watch.changed.connect(self._compile_progress)
        self._executing = ""  # the line shown while executing (back once a compile is over)
        self.path: Path | None = None
        self.kernel = None  # the compiled UserKernel the argument rows belong to
        self.kernel_key: tuple | None = None  # (path, name, gpu) it was compiled for
        self.file_build = None  # the open file's compile (toolchain.compiler.FileBuild): its kernels' cubin
        # the window's compiles of .cu files, shared with the occupancy calculator's row (one compile per file and GPU)
        self.builds = getattr(workspace, "builds", None) or _own_builds()
        self.rows: list[ParamRow] = []
        self.wanted = None  # a scenario whose values fill the form once its kernel is compiled
        self.pushed = None  # the scenario the last run handed to the Explorer
        self.base: dict = {}  # the loaded [kernel] scenario's table (its scheduler, seed, limits are kept)
        self.report = None
        self.message = ""  # the one line shown under the buttons
        self.busy = ""  # "", "compile" or "execute"

        # -- the form -------------------------------------------------------------------
        form_box = QWidget(self)
        self.open_button = QPushButton(self.tr("Open .cu…"), form_box)
        self.open_button.setObjectName("kernel_open")
        self.open_button.setToolTip(self.tr("Open a CUDA source file (also File > Open, or drop it on the window)."))
        self.file_label = QLabel(self.tr("no file"), form_box)
        self.file_label.setObjectName("kernel_file")
        self.file_label.setProperty("role", "muted")
        self.file_label.setTextFormat(Qt.TextFormat.PlainText)
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.file_label, 1)

        form = input_form()
        self.kernel_combo = QComboBox(form_box)
        self.kernel_combo.setObjectName("kernel_name")
        self.kernel_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kernel_combo.setMinimumContentsLength(12)
        self.kernel_combo.setEnabled(False)
        self.gpu = QComboBox(form_box)
        self.gpu.setObjectName("kernel_gpu")
        add_gpus(self.gpu, lambda spec: f"{spec.name}: {spec.arch.sm_arch}, {spec.sm_count} SMs")
        self.fields = {key: IntField(DEFAULT_LAUNCH[key], step=1, parent=form_box) for key in DEFAULT_LAUNCH}
        for key, field in self.fields.items():
            field.setObjectName(f"kernel_{key}")
        self.regs = self._read_only(form_box, "kernel_regs")
        self.smem_static = self._read_only(form_box, "kernel_smem_static")
        self.compile_info = wrap(QLabel(self.tr("Compiled with NVRTC (no GPU needed)."), form_box))
        self.compile_info.setObjectName("kernel_compile_info")
        self.compile_info.setProperty("role", "muted")
        add_row(form, form_box, self.tr("&Kernel:"), self.kernel_combo,
                self.tr("The file's kernels (C++ kernels by their demangled names)."))
        add_row(form, form_box, self.tr("GP&U:"), self.gpu,
                self.tr("The GPU the kernel is compiled for and simulated on."))
        add_row(form, form_box, self.tr("G&rid:"), self.fields["grid"],
                self.tr("Blocks in the grid: N or x, y, z."))
        add_row(form, form_box, self.tr("Blo&ck:"), self.fields["block"],
                self.tr("Threads per block: N or x, y, z (at most 1024 in all)."))
        add_row(form, form_box, self.tr("D&ynamic shared memory (B):"), self.fields["smem_dynamic"],
                self.tr("Bytes of extern __shared__ memory per block, given at launch."))
        add_row(form, form_box, self.tr("Registers per thread:"), self.regs,
                self.tr("From the compiled kernel (cubin); occupancy uses it. Read-only."))
        add_row(form, form_box, self.tr("Static shared memory (B):"), self.smem_static,
                self.tr("The kernel's __shared__ arrays, from the cubin; occupancy uses it. Read-only."))
        self.occupancy = wrap(QLabel(form_box))
        self.occupancy.setObjectName("kernel_occupancy")
        self.occupancy.setProperty("role", "muted")

        self.args_box = QGroupBox(self.tr("Arguments"), form_box)
        self.args = ArgumentsForm(self.args_box)
        QVBoxLayout(self.args_box).addWidget(self.args)

        self.simulate_button = QPushButton(self.tr("&Simulate"), form_box)
        self.simulate_button.setObjectName("kernel_simulate")
        self.simulate_button.setToolTip(self.tr("Execute the kernel lane by lane from its SASS (no GPU needed) and "
                                                "hand its scenario to the Explorer."))
        self.simulate_button.setEnabled(False)
        self.cancel_button = QPushButton(self.tr("Cancel"), form_box)
        self.cancel_button.setObjectName("kernel_cancel")
        self.cancel_button.setToolTip(self.tr("Stop the compiler, or the run (after the blocks being executed)."))
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(form_box)
        self.progress.setObjectName("kernel_progress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setToolTip(self.tr("Blocks executed so far."))
        self.progress.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.simulate_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        self.line = wrap(QLabel(form_box))
        self.line.setObjectName("kernel_message")
        self.line.setProperty("role", "muted")
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = muted_label(form_box, self.tr(
            "Your own CUDA kernel, executed from its compiled SASS warp by warp, 32 lanes: real addresses, "
            "divergence, barriers. Pointer parameters are buffers the window allocates and fills."))

        fl = QVBoxLayout(form_box)
        for item in (self.hint, top, form, self.compile_info, self.occupancy, self.args_box, buttons, self.line):
            (fl.addWidget if isinstance(item, QWidget) else fl.addLayout)(item)
        fl.addStretch(1)

        self.report_view = ReportView(self)
        self.form_scroll = scroll_area(form_box, self)
        self.form_scroll.setMinimumWidth(360)
        self.report_scroll = scroll_area(self.report_view, self)
        self.splitter = splitter(Qt.Orientation.Horizontal, self, "kernel_splitter",
                                 (self.form_scroll, self.report_scroll), stretch=(0, 1))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)

        # -- wiring -------------------------------------------------------------------------
        self.open_button.clicked.connect(self.open_dialog)
        self.kernel_combo.activated.connect(lambda _i: self.compile())
        self.gpu.currentIndexChanged.connect(lambda _i: self.compile() if self.path is not None else None)
        for field in self.fields.values():
            field.edited.connect(lambda _t: self._edited())
        self.args.edited.connect(self._edited)
        self.simulate_button.clicked.connect(self.simulate)
        self.cancel_button.clicked.connect(self.cancel)
        self.report_view.show_button.clicked.connect(self._show_explorer)
        if workspace is not None:
            s = workspace.session
            s.scenario_changed.connect(self._explorer_scenario)
            s.run_changed.connect(lambda _run: self._explorer_timing())
            s.simulation_changed.connect(self._explorer_timing)

    @staticmethod
    def _read_only(parent: QWidget, name: str) -> QLineEdit:
        edit = QLineEdit("—", parent)
        edit.setObjectName(name)
        edit.setReadOnly(True)
        edit.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        edit.setAlignment(Qt.AlignmentFlag.AlignRight)
        return edit

    # -- the file and the kernel ------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(self.path.parent) if self.path else ""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a CUDA source"), start,
                                              self.tr("CUDA sources (*.cu);;All files (*)"))
        if path:
            window = self.window()
            opener = getattr(window, "open_path", None)
            if callable(opener):  # the window's one way in for a .cu (the calculator's row gets it too)
                opener(path)
            else:
                self.open_file(path)

    def open_file(self, path, wanted=None) -> None:
        """List the file's kernels and compile the first (or ``wanted``'s: a scenario whose values fill the form)."""
        p = Path(path).absolute()
        self.path, self.wanted = p, wanted
        self.base = wanted.to_dict() if wanted is not None else {}
        self.kernel, self.kernel_key, self.rows, self.file_build = None, None, [], None
        self.file_label.setText(strip_bidi(p.name))  # a U+202E in a file name would reverse what follows
        self.file_label.setToolTip(str(p))
        self.kernel_combo.clear()
        self.kernel_combo.setEnabled(False)
        self.args.set_rows([], {})
        self._resources(None)
        self._update_buttons()
        gpu = self.gpu_name()
        name = wanted.kernel.name if wanted is not None else None
        self._say(self.tr("Reading the kernels of {name}…").format(name=strip_bidi(p.name)), "muted")
        self.busy = "compile"
        self._update_buttons()
        builds = self.builds

        def work(task):
            from explorer.sass.execute.kernel import open_kernels

            return open_kernels(p, _arch(gpu), cancel=task.is_cancelled, builds=builds)

        self.runner.start("compile", work, newest_wins=True,
                          on_done=lambda listed: self._listed(p, *listed, name),
                          on_error=self._failed)

    def _listed(self, path: Path, names: list[str], build, wanted_name: str | None) -> None:
        self.busy = ""
        self.file_build = build  # the compile that listed them: the first kernel's compile reuses it
        if not names:
            self._say(self.tr("{name} has no __global__ kernel").format(name=strip_bidi(path.name)), "error")
            return
        self.kernel_combo.addItems(names)
        self.kernel_combo.setEnabled(len(names) > 1)
        if wanted_name is not None:
            index = self.kernel_combo.findText(wanted_name)
            if index < 0:  # a scenario may name a C++ kernel by its short name: the compiler resolves it
                self.kernel_combo.addItem(wanted_name)
                index = self.kernel_combo.count() - 1
            self.kernel_combo.setCurrentIndex(index)
        self.compile()

    def compile(self) -> None:
        """Compile the chosen kernel for the chosen GPU (in the worker; a newer request wins)."""
        if self.path is None or self.kernel_combo.count() == 0:
            return
        from explorer.model.kernel_spec import KernelSpec
        from explorer.model.scenario import Scenario

        name, gpu, path = self.kernel_combo.currentText(), self.gpu_name(), self.path
        key = (path, name, gpu)
        self.busy = "compile"
        self._update_buttons()
        self._say(self.tr("Compiling {kernel} in {name} for {gpu}…").format(kernel=name, name=strip_bidi(path.name),
                                                                            gpu=gpu), "muted")
        scenario = Scenario(gpu_name=gpu, kernel=KernelSpec(file=str(path), name=name))

        builds = self.builds  # the file's compile for this GPU: the one that listed its kernels, or the calculator's

        def work(task):
            from explorer.sass.execute.run import compile_for

            return compile_for(scenario, cancel=task.is_cancelled, builds=builds)

        self.runner.start("compile", work, newest_wins=True, on_done=lambda kernel: self._compiled(key, kernel),
                          on_error=self._failed)

    def _compiled(self, key: tuple, kernel) -> None:
        self.busy = ""
        keep = self.args.texts() if self.kernel is not None and self.kernel_key[:2] == key[:2] else {}
        self.kernel, self.kernel_key = kernel, key
        self.rows = param_rows(kernel)
        texts = default_texts(self.rows)
        wanted = self.wanted
        if wanted is not None and wanted.kernel is not None and Path(wanted.kernel.path) == key[0]:
            texts = texts_of_spec(self.rows, wanted.kernel)
            for k, v in launch_texts(wanted).items():
                self.fields[k].set_text(v)
            self.wanted = None
            self._resolve_explorer()
        else:
            texts.update({k: v for k, v in keep.items() if k in texts})  # a recompile for another GPU keeps them
        self.args.set_rows(self.rows, texts)
        self._resources(kernel)
        name = kernel.demangled if kernel.demangled != kernel.name else kernel.name
        unsupported = len(kernel.decoded.unsupported)
        text = self.tr("{kernel} for {arch} ({compiler}): {regs} registers, {smem} B static shared memory, "
                       "{bars} barriers, {n} instructions.").format(
            kernel=name, arch=kernel.arch, compiler=kernel.compiler, regs=kernel.registers,
            smem=num(kernel.static_shared_bytes), bars=kernel.barriers, n=num(kernel.decoded.n))
        if unsupported:
            text += " " + self.tr("{n} of its instructions are not supported by the executor (a run that reaches one "
                                  "stops there, naming it).").format(n=unsupported)
        self.compile_info.setText(text)
        self._say(self.tr("Fill in the arguments and press Simulate."), "muted")
        self._edited()

    def _resources(self, kernel) -> None:
        self.regs.setText(str(kernel.registers) if kernel is not None else "—")
        self.smem_static.setText(num(kernel.static_shared_bytes) if kernel is not None else "—")
        if kernel is None:
            self.compile_info.setText(self.tr("Compiled with NVRTC (no GPU needed)."))
            self.occupancy.setText("")

    def gpu_name(self) -> str:
        return str(self.gpu.currentData())

    # -- the form -------------------------------------------------------------------------------
    def texts(self) -> dict[str, str]:
        return {key: field.text() for key, field in self.fields.items()} | self.args.texts()

    def form_input(self) -> FormInput | None:
        if self.kernel is None or self.path is None:
            return None
        base = self.workspace.scenario if self.workspace is not None else None
        seed = base.seed if base is not None else 1
        return FormInput(file=str(self.path), name=self.kernel_key[1], kernel=self.kernel, gpu=self.gpu_name(),
                         seed=seed, scenario_name=self.kernel.name, base=self.base)

    def check(self):
        """The scenario the form makes (None, with every bad field marked, when it makes none)."""
        form = self.form_input()
        if form is None:
            return None
        try:
            scenario, errors = build(form, self.rows, self.texts())
        except InputError as exc:  # no text fixes it (a struct passed by value)
            self._say(core_error(exc.field, exc.message), "error")
            return None
        show_field_errors(self.fields, {k: v for k, v in errors.items() if k in self.fields},
                          self.tr("Give a value"))
        self.args.show_errors(errors)
        if scenario is not None:
            self._show_occupancy(scenario)
        return scenario

    def _edited(self) -> None:
        scenario = self.check()
        self._update_buttons()
        if scenario is None and self.kernel is not None and self.message_role != "error" and not self.busy:
            self._say(self.tr("Some fields are invalid: see the messages under them."), "muted")
        elif scenario is not None and not self.busy and self.message_role != "error":
            self._say(self.tr("Fill in the arguments and press Simulate."), "muted")

    def _show_occupancy(self, scenario) -> None:
        from explorer.occupancy import occupancy_for_launch
        from explorer.sass.execute.run import resolve

        resolved = resolve(scenario, self.kernel)
        occ = occupancy_for_launch(resolved.gpu, resolved.launch)
        if occ.active_blocks_per_sm == 0:
            self.occupancy.setText(self.tr("No block of this launch fits an SM."))
        else:
            self.occupancy.setText(self.tr("Theoretical occupancy {occ}: {blocks} blocks per SM, limited by {lim}.")
                                   .format(occ=pct(occ.occupancy), blocks=occ.active_blocks_per_sm,
                                           lim=", ".join(limiter_names().get(k, k) for k in occ.limiters)))

    # -- simulate ------------------------------------------------------------------------------
    def simulate(self) -> bool:
        """Execute the form's scenario in the worker (False, with the reason shown, when it cannot start)."""
        if self.busy:
            return False
        scenario = self.check()
        if scenario is None:
            if self.kernel is not None and self.message_role != "error":
                self._say(self.tr("Not simulated: some fields are invalid."), "error")
            return False
        kernel = self.kernel
        total = max(scenario.launch.total_blocks, 1)
        self.busy = "execute"
        self.progress.setValue(0)
        self.progress.show()
        self._update_buttons()
        self._executing = self.tr("Executing {kernel}: {blocks} blocks…").format(kernel=kernel.name,
                                                                                  blocks=num(total))
        self._say(self._executing, "muted")
        self.compile_watch.start(INTERPRETER)

        def work(task):
            from explorer.gui.kernel.report_data import execution_report
            from explorer.sass.execute.run import default_jobs
            from explorer.sim.engine import Cancelled, simulate_kernel

            # execution and timing interleave (the executed stream is timed chunk by chunk): the bar shows both
            done = {"executed": 0.0, "timed": 0.0}

            def show():
                task.progress("", 0.5 * (done["executed"] + done["timed"]))

            def executing(blocks, total_blocks, _instructions, _seconds):
                if task.cancelled:
                    raise Cancelled()
                done["executed"] = blocks / max(total_blocks, 1)
                show()

            def timing(cycles, total_cycles):
                done["timed"] = cycles / max(total_cycles, 1)
                show()

            # the one execution of this Simulate: its buffers make the report, its timing the Explorer's run
            result, run = simulate_kernel(scenario, keep_inputs=True, kernel=kernel, execution_progress=executing,
                                          jobs=default_jobs(), progress=timing, cancel=task.is_cancelled)
            return execution_report(run, result.scenario), result

        self.runner.start("execute", work, newest_wins=True, on_done=self._executed, on_error=self._failed,
                          on_progress=self._block_progress)
        return True

    def cancel(self) -> None:
        """Stop the compile (its child process is killed) or the run."""
        self.runner.cancel("compile" if self.busy == "compile" else "execute")

    def _block_progress(self, _text: str, fraction: float | None) -> None:
        if not self.compile_watch.active:
            self.progress.setValue(int(1000 * (fraction or 0)))

    def _compile_progress(self) -> None:
        """The interpreter is being compiled (the first run on a machine): the line and the bar say so."""
        if self.busy != "execute":
            return
        watch = self.compile_watch
        if watch.active:
            self.progress.setValue(int(1000 * watch.fraction))
            self._say(f"{watch.text} {pct(watch.fraction, 0)}", "muted")
        else:
            self.progress.setValue(0)
            self._say(self._executing, "muted")

    def _executed(self, done) -> None:
        report, result = done
        self.compile_watch.stop()
        self.busy = ""
        self.progress.hide()
        self.report = report
        self.report_view.show_report(report)
        self._say(self.tr("Executed {wi} warp-instructions; the Explorer now holds this scenario.").format(
            wi=num(report.summary["warp_instructions"])), "muted")
        self._update_buttons()
        self.pushed = report.scenario
        if self.workspace is not None:  # the run this Simulate timed: the Explorer shows it, nothing runs again
            self.workspace.show_result(result, "kernel")
        self._explorer_timing()
        self.simulated.emit(report)

    def _failed(self, error: TaskError) -> None:
        if error.kind != "cancelled" or not self.runner.running("execute"):
            self.compile_watch.stop()
        was = self.busy
        self.busy = ""
        self.progress.hide()
        self._update_buttons()
        if error.kind == "cancelled":
            if was == "execute":
                self._say(self.tr("Cancelled: the run was stopped; the last report stays."), "muted")
            elif was == "compile":
                self._say(self.tr("Cancelled: the compiler was stopped."), "muted")
            return
        if error.kind == "input":
            key = _form_key(error.field, self.rows)
            if key in self.fields:
                self.fields[key].set_error(error.message)
            elif key is not None:
                self.args.show_errors({key: error.message})
            text = core_error(error.field, error.message)
        elif error.kind == "unavailable":
            text = self.tr("no CUDA compiler: {m}").format(m=error.message)
        else:
            text = self.tr("The run failed (a bug): {m}").format(m=error.message)
        self._say(text, "error")

    # -- the Explorer ------------------------------------------------------------------------------
    def _explorer_scenario(self, scenario) -> None:
        """A [kernel] scenario the Explorer got another way (a file, Undo, a restored session) fills the form."""
        if scenario.kernel is None or scenario == self.pushed or self.busy == "execute":
            return
        self.pushed = None
        self.gpu.blockSignals(True)  # open_file compiles for it: no second compile
        select_data(self.gpu, scenario.gpu_name)
        self.gpu.blockSignals(False)
        for k, v in launch_texts(scenario).items():
            self.fields[k].set_text(v)
        path = scenario.kernel.path.absolute()
        self.open_file(path, wanted=scenario)

    def _resolve_explorer(self) -> None:
        """The Explorer's [kernel] scenario gets the cubin's registers, shared memory and barriers in its launch
        (a scenario file or the settings' copy has none): a logged change, not a step of Edit > Undo."""
        if self.workspace is None or self.kernel is None:
            return
        from explorer.sass.execute.run import resolve

        sc = self.workspace.scenario
        path, name, gpu = self.kernel_key
        if sc.kernel is None or Path(sc.kernel.path).absolute() != path or (sc.kernel.name, sc.gpu_name) != (name, gpu):
            return
        resolved = resolve(sc, self.kernel)
        if resolved != sc:
            self.pushed = resolved
            self.workspace.change_scenario(resolved, "restore")

    def _explorer_timing(self) -> None:
        """The report's timing line: the Explorer's run of the pushed scenario, its refusal, or its progress."""
        if self.report is None or self.workspace is None:
            return
        s = self.workspace.session
        if s.scenario != self.report.scenario:
            self.report_view.show_timing(self.tr("the Explorer shows another scenario now"))
        elif s.failed:
            self.report_view.show_timing(self.tr("no cycle count: {why}").format(why=s.failed))
        elif s.simulating:
            self.report_view.show_timing(self.tr("the Explorer is simulating it… {p}").format(p=pct(s.progress, 0)))
        elif s.run is not None and s.run_is_current:
            sm = s.run.summary
            self.report_view.show_timing(self.tr("{cycles} cycles ({us} µs at the GPU's clock): see the Explorer tab")
                                         .format(cycles=num(sm["cycles"]), us=num(sm["kernel_time_us"], 2)))

    def _show_explorer(self) -> None:
        window = self.window()
        show = getattr(window, "show_view", None)
        if callable(show):
            show("explorer")

    # -- small things ------------------------------------------------------------------------------
    @property
    def message_role(self) -> str:
        return str(self.line.property("role") or "")

    def _say(self, text: str, role: str) -> None:
        self.message = text
        self.line.setText(text)
        self.line.setToolTip(text)
        if self.line.property("role") != role:
            self.line.setProperty("role", role)
            restyle(self.line)
        self.set_status(text)

    def _update_buttons(self) -> None:
        running = self.busy == "execute"
        self.simulate_button.setEnabled(self.kernel is not None and not self.busy)
        self.cancel_button.setEnabled(bool(self.busy))  # a compile (a child process) or a run
        self.open_button.setEnabled(not running)

    # -- window hooks ------------------------------------------------------------------------------
    def splitters(self) -> dict:
        return {"splitter": self.splitter}

    def first_sizes(self) -> None:
        total = max(self.splitter.width(), 900)
        left = max(self.form_scroll.minimumWidth(), min(520, int(total * 0.42)))
        self.splitter.setSizes([left, total - left])

    def capture_state(self, live: bool = False) -> dict:
        state = super().capture_state(live)
        if live:  # a rebuilt window (a language switch) takes the form and the report over
            state |= {"path": self.path, "kernel": self.kernel, "key": self.kernel_key, "texts": self.texts(),
                      "names": [self.kernel_combo.itemText(i) for i in range(self.kernel_combo.count())],
                      "report": self.report, "pushed": self.pushed, "gpu": self.gpu_name(), "base": self.base}
        return state

    def restore_state(self, state: dict) -> None:
        super().restore_state(state)
        if state.get("gpu"):
            self.gpu.blockSignals(True)
            select_data(self.gpu, state["gpu"])
            self.gpu.blockSignals(False)
        path, kernel, key, texts = state.get("path"), state.get("kernel"), state.get("key"), state.get("texts")
        if isinstance(path, Path) and kernel is not None and isinstance(key, tuple) and isinstance(texts, dict):
            # the Explorer restored first: the compile its scenario started is this kernel, here already
            self.runner.cancel("compile", disconnect=True)
            self.busy, self.wanted = "", None
            self.base = dict(state.get("base") or {})
            self.path = path
            self.file_label.setText(strip_bidi(path.name))
            self.file_label.setToolTip(str(path))
            names = [n for n in state.get("names") or () if isinstance(n, str)] or [key[1]]
            self.kernel_combo.clear()
            self.kernel_combo.addItems(names)  # the file's kernels, as listed before: the list stays usable
            self.kernel_combo.setCurrentIndex(max(0, self.kernel_combo.findText(key[1])))
            self.kernel_combo.setEnabled(len(names) > 1)
            self.kernel_key = None
            self._compiled(key, kernel)
            for k in self.fields:
                if k in texts:
                    self.fields[k].set_text(texts[k])
            self.args.set_rows(self.rows, {k: v for k, v in texts.items() if k not in self.fields})
        if state.get("report") is not None:
            self.report = state["report"]
            self.pushed = state.get("pushed")
            self.report_view.show_report(self.report)
        self._resolve_explorer()
        self._explorer_timing()
        self._edited()

    def rebuild_blocker(self) -> str | None:
        if self.busy == "execute":
            return self.tr("Finish or cancel the kernel's run first: changing the language rebuilds the window.")
        return None

    def shutdown(self) -> None:
        self.runner.shutdown()


def _own_builds():
    """A bare page's (a test's) compiles of its files; in the window, the workspace's."""
    from explorer.toolchain.compiler import FileBuilds

    return FileBuilds()


def _arch(gpu: str) -> str:
    from explorer.model.catalog import get_gpu

    return get_gpu(gpu).arch.sm_arch


def _form_key(field: str, rows: list[ParamRow]) -> str | None:
    from explorer.gui.kernel.form_values import key_of

    return key_of(rows)(field or "")
