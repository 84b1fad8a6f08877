"""The occupancy calculator's "from a .cu file" row: compile a kernel, fill in its resources.

Pick a ``.cu`` file (or drop it on the window) and one of its kernels; the file is
read as the CLI's ``compile`` reads it (``read_user_bytes``: a regular file, at most
``MAX_SOURCE_BYTES``; UTF-8 text) and compiled for the calculator's GPU with
``explorer.gpu`` (NVRTC, or nvcc; no GPU needed) in a worker thread (a newer
request wins; the file's one compile per GPU is the window's, shared with the Your
kernel tab: ``toolchain.compiler.FileBuilds``), and the registers, static shared memory and barriers
the compiler produced fill the calculator's fields. Spills (local memory the
compiler had to use) are shown, since they cost what the occupancy hides. A
different GPU recompiles for its architecture: register counts differ between
architectures. When the fields stop holding the compiled numbers (an edit, a
lesson step's launch), the line says so instead of naming numbers the fields no
longer show.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from explorer.texts.numbers import num
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.common.theme import restyle

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_KERNEL = re.compile(
    r"__global__\s+(?:(?:static|inline|__forceinline__|__noinline__|void|"
    r"__launch_bounds__\s*\([^)]*\)|__maxnreg__\s*\([^)]*\))\s*)+(\w+)\s*\(")


def kernel_names(source: str) -> list[str]:
    """The ``__global__`` functions of a CUDA source, in the order they appear (templates by their bare name)."""
    names: list[str] = []
    for name in _KERNEL.findall(_COMMENTS.sub(" ", source)):
        if name not in names:
            names.append(name)
    return names


class CudaSourceRow(QWidget):
    """[Open .cu…] [kernel ▾] and what the compiler made of it; owned by the occupancy inputs."""

    compiled = Signal(object)  # CompileResult, after its numbers went into the fields

    def __init__(self, inputs, parent: QWidget | None = None, builds=None):
        super().__init__(parent)
        self.setObjectName("cu_source_row")
        self.inputs = inputs
        if builds is None:  # a bare row (a test); in the window, the workspace's, shared with the Your kernel tab
            from explorer.toolchain.compiler import FileBuilds

            builds = FileBuilds()
        self.builds = builds
        self.runner = TaskRunner(self, threads=1)
        self.path: Path | None = None
        self.result = None  # the last CompileResult whose numbers are in the fields
        self.error = ""
        self.busy = False

        self.open_button = QPushButton(self.tr("Open .cu…"), self)
        self.open_button.setObjectName("cu_open")
        self.open_button.setToolTip(self.tr("Compile a CUDA source file (no GPU needed) and fill in the registers, "
                                            "static shared memory and barriers its kernel uses."))
        self.kernel = QComboBox(self)
        self.kernel.setObjectName("cu_kernel")
        self.kernel.setToolTip(self.tr("The kernel whose resources fill the fields."))
        self.kernel.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kernel.setMinimumContentsLength(8)
        self.kernel.hide()
        self.info = QLabel(self.tr("or type the numbers below"), self)
        self.info.setObjectName("cu_info")
        self.info.setProperty("role", "muted")
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.open_button)
        top.addWidget(self.kernel, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.info)

        self.open_button.clicked.connect(self.open_dialog)
        self.kernel.activated.connect(lambda _i: self.compile())
        inputs.gpu.currentIndexChanged.connect(lambda _i: self.compile() if self.path is not None else None)
        inputs.changed.connect(self._fields_changed)
        self._shown: tuple[str, str] | None = None  # the compile result's line and role

    # -- actions --------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(self.path.parent) if self.path else ""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a CUDA source"), start,
                                              self.tr("CUDA sources (*.cu *.cuh);;All files (*)"))
        if path:
            self.open_file(path)

    def open_file(self, path) -> bool:
        """Read the file, list its kernels and compile the first (False, with the reason shown, if it cannot)."""
        from explorer.model.errors import MAX_SOURCE_BYTES, InputError, read_user_bytes

        p = Path(path)
        try:
            source = read_user_bytes(p, kind="a .cu file", limit=MAX_SOURCE_BYTES).decode("utf-8")
        except InputError as exc:
            return self._fail(self.tr("cannot read {name}: {why}").format(name=p.name, why=exc.message))
        except UnicodeDecodeError:
            return self._fail(self.tr("{name} is not a UTF-8 text file").format(name=p.name))
        names = kernel_names(source)
        if not names:
            return self._fail(self.tr("{name} has no __global__ kernel").format(name=p.name))
        self.path = p
        self.kernel.blockSignals(True)
        self.kernel.clear()
        self.kernel.addItems(names)
        self.kernel.setCurrentIndex(0)
        self.kernel.blockSignals(False)
        self.kernel.setVisible(True)
        self.kernel.setEnabled(len(names) > 1)
        self.compile()
        return True

    def compile(self) -> None:
        """Compile the chosen kernel for the calculator's GPU, in the worker (a newer request wins)."""
        if self.path is None or self.kernel.count() == 0:
            return
        from explorer.model.catalog import load_catalog

        kernel = self.kernel.currentText()
        arch = load_catalog()[self.inputs.gpu_name()].arch.sm_arch
        path, builds = self.path, self.builds
        self.busy = True
        self._set_info(self.tr("Compiling {kernel} in {name} for {arch}…").format(
            kernel=kernel, name=path.name, arch=arch), "muted")

        def work(task):
            from explorer.model.errors import InputError
            from explorer.toolchain.compiler import compile_file, kernel_in

            # the compiler's child process is killed when a newer request or the window's closing cancels this;
            # the file's one compile for this GPU, shared with the Your kernel tab (made there already, or there
            # being made: waited for)
            build = builds.build(path, arch, cancel=task.is_cancelled)
            try:
                return kernel_in(build, kernel)
            except InputError:  # a name only a compile for it resolves (a template by its bare name): as before
                return compile_file(path, kernel, arch, cancel=task.is_cancelled)

        self.runner.start("compile", work, newest_wins=True, on_done=self._done, on_error=self._error)

    # -- results --------------------------------------------------------------------
    def _done(self, result) -> None:
        self.busy = False
        self.result, self.error = result, ""
        r = result.resources
        self.inputs.blockSignals(True)  # one recompute for the three fields, not three
        try:
            self.inputs.set_values({"regs": r.registers, "smem_static": r.static_shared_bytes,
                                    "barriers": r.barriers})
        finally:
            self.inputs.blockSignals(False)
        self.inputs.changed.emit()
        name = result.kernel if result.symbol == result.kernel else f"{result.kernel} ({result.symbol})"
        parts = [
            self.tr("{n} registers").format(n=r.registers),
            self.tr("{b} B static shared memory").format(b=num(r.static_shared_bytes)),
            self.tr("{n} barriers").format(n=r.barriers),
        ]
        spills = r.spill_bytes
        role = "muted"
        if spills is None:
            parts.append(self.tr("spills unknown (no ptxas log)"))
        elif spills:
            parts.append(self.tr("SPILLS {s} B per thread to local memory (loads {l} B)").format(
                s=num(spills), l=num(r.spill_load_bytes or 0)))
            role = "error"
        else:
            parts.append(self.tr("no spills"))
        text = self.tr("{kernel} in {file} for {arch} ({compiler}): {parts}.").format(
            kernel=name, file=self.path.name if self.path else "?", arch=result.arch, compiler=result.compiler,
            parts=", ".join(parts))
        threads = self.inputs.raw_values().get("threads", "")
        if r.max_threads_per_block and threads.strip().isdigit() and int(threads) > r.max_threads_per_block:
            text += " " + self.tr("Its __launch_bounds__ allow at most {m} threads per block.").format(
                m=r.max_threads_per_block)
            role = "error"
        self._shown = (text, role)
        self._set_info(text, role)
        self.compiled.emit(result)

    def holds_result(self) -> bool:
        """Whether the fields hold the compiled kernel's registers, static shared memory and barriers."""
        if self.result is None:
            return False
        r, raw = self.result.resources, self.inputs.raw_values()
        return (raw.get("regs", "").strip(), raw.get("smem_static", "").strip(), raw.get("barriers", "").strip()) == (
            str(r.registers), str(r.static_shared_bytes), str(r.barriers))

    def _fields_changed(self) -> None:
        if self.result is None or self.busy or self._shown is None:
            return
        if self.holds_result():
            self._set_info(*self._shown)
        else:
            self._set_info(self.tr("The fields no longer hold {kernel}'s numbers; choose the kernel again to use "
                                   "them.").format(kernel=self.result.kernel), "muted")

    def _error(self, error: TaskError) -> None:
        self.busy = False
        message = error.text
        if error.kind == "unavailable":
            message = self.tr("no CUDA compiler: {m}").format(m=message)
        self._fail(message)

    def _fail(self, message: str) -> bool:
        self.busy = False
        self.error = message
        self._shown = None  # the line is the failure now
        self._set_info(message, "error")
        return False

    def _set_info(self, text: str, role: str) -> None:
        self.info.setText(text)
        self.info.setToolTip(text)
        if self.info.property("role") != role:
            self.info.setProperty("role", role)
            restyle(self.info)

    def shutdown(self) -> None:
        self.runner.shutdown()
