"""The scenario panel: a shipped scenario to start from, then every knob of the launch.

The panel only collects texts and shows verdicts: ``scenario_fields`` turns the
texts into a Scenario (the core validates it) and the page tells the panel which
fields are wrong and why; the message appears under the field, which turns red.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QSizePolicy, QVBoxLayout, QWidget

from explorer.gui.common.core_texts import policy_docs, scenario_descriptions, translated, workload_docs
from explorer.gui.common.int_field import IntField, show_field_errors
from explorer.gui.common.numbers import num
from explorer.gui.common.widgets import add_gpus, add_row, input_form, muted_label, select_data
from explorer.gui.explore.scenario_fields import (CUSTOM_WORKLOAD, FIELDS, NOT_IN_KERNEL_SCENARIOS, percent_text,
                                                  scenario_to_texts)
from explorer.model.presets import preset_names
from explorer.model.scenario import POLICIES, POLICY_DOC, Scenario
from explorer.model.workload import PRESETS

STEPS = {"grid": 1, "block": 32, "regs": 1, "smem_static": 1024, "smem_dynamic": 1024, "carveout": 1,
         "barriers": 1, "loop": 1, "l2_hit": 5, "seed": 1}


class ScenarioPanel(QGroupBox):
    """Emits ``edited`` on every change; ``preset_chosen`` when a shipped scenario is picked."""

    edited = Signal()
    preset_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("Kernel and GPU"))
        self.setObjectName("scenario_panel")
        self.preset = QComboBox(self)
        self.preset.setObjectName("scenario_preset")
        for name in preset_names():
            self.preset.addItem(name, name)
        self.preset.setToolTip(self.tr("Start from one of the shipped scenarios; every field below can then be changed."))
        self.description = muted_label(self)

        self.gpu = QComboBox(self)
        self.gpu.setObjectName("field_gpu")
        add_gpus(self.gpu, lambda spec: self.tr("{full}: {sms} SMs × {warps} warp slots").format(
            full=spec.full_name, sms=spec.sm_count, warps=spec.max_warps_per_sm))
        self.workload = QComboBox(self)
        self.workload.setObjectName("field_workload")
        for name, body in PRESETS.items():
            self.workload.addItem(name, name)
            self.workload.setItemData(self.workload.count() - 1, translated(workload_docs(), body["doc"]),
                                      Qt.ItemDataRole.ToolTipRole)
        self.workload.addItem(self.tr("custom (from the scenario file)"), CUSTOM_WORKLOAD)
        self.workload_info = muted_label(self)
        self.policy = QComboBox(self)
        self.policy.setObjectName("field_policy")
        for name in POLICIES:
            self.policy.addItem(name, name)
            self.policy.setItemData(self.policy.count() - 1, translated(policy_docs(), POLICY_DOC[name]),
                                    Qt.ItemDataRole.ToolTipRole)

        self.fields: dict[str, IntField] = {}
        for key in STEPS:
            field = IntField("", STEPS[key], self)
            field.setObjectName(f"field_{key}")
            field.edited.connect(self._changed)
            self.fields[key] = field
        self.launched = QLabel(self)
        self.launched.setObjectName("launched_summary")
        self.launched.setWordWrap(True)
        self.launched.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        form = input_form()
        form.setVerticalSpacing(4)
        self._labels = {}
        for key, widget, text, tip in self._rows():
            self._labels[key] = add_row(form, self, text, widget, tip)
            if key == "block":
                form.addRow(self.launched)
            if key == "workload":
                form.addRow(self.workload_info)
        layout = QVBoxLayout(self)
        layout.setSpacing(6)
        layout.addWidget(self.preset)
        layout.addWidget(self.description)
        layout.addLayout(form)
        layout.addStretch(1)

        self.preset.activated.connect(lambda _i: self.preset_chosen.emit(self.preset.currentData()))
        self.gpu.currentIndexChanged.connect(self._changed)
        self.policy.currentIndexChanged.connect(self._changed)
        self.workload.currentIndexChanged.connect(self._workload_changed)
        for combo in (self.preset, self.gpu, self.workload, self.policy):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)  # "fma-global" whole in the column its labels leave (Russian: 1280x720)
        self._loading = False

    def _rows(self):
        f = self.fields
        return (
            ("gpu", self.gpu, self.tr("GP&U:"), self.tr("The GPU to simulate: its SM count, limits and latencies.")),
            ("grid", f["grid"], self.tr("G&rid (blocks):"),
             self.tr("Blocks in the grid: N or x, y, z (gridDim).")),
            ("block", f["block"], self.tr("Bloc&k (threads):"),
             self.tr("Threads per block: N or x, y, z (blockDim); the SM allocates whole warps of 32.")),
            ("regs", f["regs"], self.tr("Reg&isters / thread:"),
             self.tr("Registers the compiler gave each thread; more registers, fewer blocks per SM.")),
            ("smem_static", f["smem_static"], self.tr("S&tatic shared (B):"),
             self.tr("Bytes of __shared__ arrays declared in the kernel.")),
            ("smem_dynamic", f["smem_dynamic"], self.tr("D&ynamic shared (B):"),
             self.tr("Bytes passed as the third launch parameter <<<grid, block, bytes>>>.")),
            ("carveout", f["carveout"], self.tr("&Carveout (%):"),
             self.tr("Preferred share of L1/shared storage used as shared memory, 0–100; −1 lets the driver choose.")),
            ("barriers", f["barriers"], self.tr("B&arriers / block:"),
             self.tr("Named barriers the kernel uses (1 for __syncthreads); limits blocks on CC 9.0 and newer.")),
            ("workload", self.workload, self.tr("&Workload:"),
             self.tr("What every warp executes: a loop over a short body of loads, math and barriers.")),
            ("loop", f["loop"], self.tr("Loo&p iterations:"), self.tr("How many times each warp runs the body.")),
            ("l2_hit", f["l2_hit"], self.tr("L&2 hit rate (%):"),
             self.tr("Share of global loads served by L2 instead of HBM (the rest wait the full HBM latency).")),
            ("policy", self.policy, self.tr("&Scheduler:"),
             self.tr("How each scheduler picks among its eligible warps.")),
            ("seed", f["seed"], self.tr("Ra&ndom seed:"), self.tr("Seed of the simulation's random choices (cache hits).")),
        )

    # -- values in and out ---------------------------------------------------------
    def texts(self) -> dict[str, str]:
        out = {key: field.text() for key, field in self.fields.items()}
        out["gpu"] = self.gpu.currentData()
        out["workload"] = self.workload.currentData()
        out["policy"] = self.policy.currentData()
        return {key: out[key] for key in FIELDS}

    def set_scenario(self, scenario: Scenario, preset: str | None = None) -> None:
        """Show a scenario's values (no ``edited`` signals while loading)."""
        self._loading = True
        try:
            texts = scenario_to_texts(scenario)
            for key, field in self.fields.items():
                field.set_text(texts[key])
                field.set_error(None)
            select_data(self.gpu, texts["gpu"])
            select_data(self.policy, texts["policy"])
            select_data(self.workload, texts["workload"])
            self.show_preset(preset if preset is not None else scenario.name)
            self.description.setText(translated(scenario_descriptions(), " ".join(scenario.description.split())))
            self.description.setVisible(bool(scenario.description))
            for key in NOT_IN_KERNEL_SCENARIOS:  # read-only for your own kernel: its cubin's, no workload
                (self.workload if key == "workload" else self.fields[key]).setEnabled(scenario.kernel is None)
            self._update_workload_info(scenario)
            self.update_summary(scenario)
        finally:
            self._loading = False

    def show_preset(self, name: str) -> None:
        """The shipped scenario called ``name`` in the combo, or none selected and the name shown greyed.

        A scenario that is not a shipped one (a GEMM's main loop, a file, a measurement)
        must not leave the previous preset's name on display.
        """
        if select_data(self.preset, name):
            return
        self.preset.setPlaceholderText(self.tr("{name} (not a shipped scenario)").format(name=name) if name
                                       else self.tr("(a scenario of its own)"))
        self.preset.setCurrentIndex(-1)

    def show_errors(self, errors: dict[str, str]) -> None:
        show_field_errors(self.fields, errors, self.tr("enter a value"))

    def update_summary(self, scenario: Scenario) -> None:
        launch = scenario.launch
        threads = launch.total_blocks * launch.threads_per_block
        self.launched.setText(self.tr("Launched: {blocks} blocks × {tpb} threads = {threads} threads = {warps} warps").format(
            blocks=num(launch.total_blocks), tpb=num(launch.threads_per_block),
            threads=num(threads), warps=num(launch.launched_warps())))
        self._update_workload_info(scenario)

    def _update_workload_info(self, scenario: Scenario) -> None:
        if scenario.kernel is not None:
            self.workload_info.setText(self.tr("Your own kernel {name} (the Your kernel tab): the cubin gives its "
                                               "registers, shared memory and barriers").format(
                name=scenario.kernel.name))
            return
        doc = translated(workload_docs(), PRESETS.get(scenario.workload.preset, {}).get("doc", ""))
        text = scenario.workload.describe()
        self.workload_info.setText(f"{doc}: {text}" if doc else text)

    # -- edits ----------------------------------------------------------------------
    def _changed(self, *_args) -> None:
        if not self._loading:
            self.edited.emit()

    def _workload_changed(self, *_args) -> None:
        if self._loading:
            return
        name = self.workload.currentData()
        body = PRESETS.get(name)
        if body is not None:  # a preset brings its own loop count and L2 hit rate
            self._loading = True
            self.fields["loop"].set_text(str(body.get("loop", 16)))
            self.fields["l2_hit"].set_text(percent_text(body.get("l2_hit_rate", 0.0)))
            self._loading = False
        self.edited.emit()
