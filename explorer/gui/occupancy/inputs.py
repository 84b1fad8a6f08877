"""The calculator's inputs: a GPU picker and six integer fields.

This view only collects text and shows verdicts; the session judges the text
(with the core's validator) and tells it which fields are wrong and why.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QWidget

from explorer.gui.common.int_field import FieldTexts, IntField, show_field_errors
from explorer.gui.common.widgets import add_gpus, add_row, input_form, select_data
from explorer.gui.occupancy.session import DEFAULTS, FIELDS
from explorer.model.catalog import GpuSpec, load_catalog

# Up/Down step per field: a warp of threads, one register, 1 KB of shared memory.
STEPS = {"threads": 32, "regs": 1, "smem_static": 1024, "smem_dynamic": 1024, "carveout": 1, "barriers": 1}


class OccupancyInputs(QGroupBox, FieldTexts):
    """GPU + launch numbers; emits ``changed`` on every edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("Kernel launch"))
        self.gpu = QComboBox(self)
        self.gpu.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        add_gpus(self.gpu, self._gpu_tooltip)
        self.gpu_info = QLabel(self)
        self.gpu_info.setProperty("role", "muted")
        self.gpu_info.setWordWrap(True)

        self.fields: dict[str, IntField] = {}
        for name in FIELDS:
            field = IntField(str(DEFAULTS[name]), STEPS[name], self)
            field.setObjectName(f"field_{name}")
            field.edited.connect(self.changed)
            self.fields[name] = field

        labels = self._labels()
        form = input_form(self)
        add_row(form, self, self.tr("GP&U:"), self.gpu)
        form.addRow("", self.gpu_info)
        for name in FIELDS:
            add_row(form, self, labels[name][0], self.fields[name], labels[name][1])

        self.gpu.setToolTip(self.tr("The GPU whose per-SM limits the calculator applies."))
        self.gpu.currentIndexChanged.connect(self._on_gpu_changed)
        self._on_gpu_changed()
        previous = self.gpu
        for name in FIELDS:
            self.setTabOrder(previous, self.fields[name].edit)
            previous = self.fields[name].edit

    def _labels(self) -> dict[str, tuple[str, str]]:
        """Label (with mnemonic) and one-sentence help per field."""
        return {
            "threads": (
                self.tr("&Threads per block:"),
                self.tr("Threads in one block (blockDim.x × y × z); the SM allocates whole warps of 32."),
            ),
            "regs": (
                self.tr("&Registers per thread:"),
                self.tr("Registers the compiler gave each thread (nvcc -Xptxas -v, or the compile command)."),
            ),
            "smem_static": (
                self.tr("&Static shared memory (bytes):"),
                self.tr("Bytes of __shared__ arrays declared in the kernel, fixed at compile time."),
            ),
            "smem_dynamic": (
                self.tr("D&ynamic shared memory (bytes):"),
                self.tr("Bytes passed as the third launch parameter <<<grid, block, bytes>>>."),
            ),
            "carveout": (
                self.tr("&Carveout (%):"),
                self.tr("Preferred share of L1/shared storage used as shared memory, 0–100; −1 lets the driver choose."),
            ),
            "barriers": (
                self.tr("B&arriers per block:"),
                self.tr("Named barriers the kernel uses (1 for __syncthreads); limits blocks only on CC 9.0 and newer."),
            ),
        }

    def _gpu_tooltip(self, spec: GpuSpec) -> str:
        return self.tr("{full}\nCompute capability {cc} · {sms} SMs · {warps} warps per SM").format(
            full=spec.full_name, cc=spec.compute_capability, sms=spec.sm_count, warps=spec.max_warps_per_sm
        )

    def _on_gpu_changed(self) -> None:
        self.show_gpu_info()
        self.changed.emit()

    def show_gpu_info(self) -> None:
        """The chosen GPU's line under the picker (and its tooltip)."""
        spec = load_catalog()[self.gpu_name()]
        self.gpu_info.setText(
            self.tr("{full} · CC {cc} · {sms} SMs").format(
                full=spec.full_name, cc=spec.compute_capability, sms=spec.sm_count
            )
        )
        self.gpu.setToolTip(self._gpu_tooltip(spec))

    # -- values in and out ---------------------------------------------------------
    def gpu_name(self) -> str:
        return self.gpu.currentData()

    def set_gpu(self, name: str) -> bool:
        return select_data(self.gpu, name)

    def add_source_row(self, text: str, widget: QWidget, buddy: QWidget) -> None:
        """A row under the GPU for another way to fill the fields (the measure feature's .cu file)."""
        form = self.layout()
        form.insertRow(2, text, widget)
        label = form.labelForField(widget)
        if label is not None:
            label.setBuddy(buddy)

    def show_errors(self, errors: dict[str, str]) -> None:
        """Mark the bad fields with the core's message; clear the rest."""
        show_field_errors(self.fields, errors, self.tr("enter a whole number"))
