"""The scenario panel: a shipped scenario to start from, then every knob of the launch.

The panel only collects texts and shows verdicts: ``scenario_fields`` turns the
texts into a Scenario (the core validates it) and the page tells the panel which
fields are wrong and why; the message appears under the field, which turns red.

Below the launch, a collapsible "Stream of launches" section holds the scenario's
``[stream]`` (launches, the gap between them, CUDA Graph, synchronize every N,
NVML's sample period): closed for a single launch so the column fits a 1280x720
screen, open whenever the scenario on screen launches its kernel more than once.
An empty gap or period is the GPU's published figure, shown as the field's
placeholder with its source in the tooltip (``resources/launch_overhead.toml``).
"""

from __future__ import annotations

import textwrap

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QSizePolicy, QStyle, QToolButton,
                               QVBoxLayout, QWidget)

from explorer.gui.common.core_texts import interface_language, policy_doc, workload_doc
from explorer.gui.common.int_field import IntField, show_field_errors
from explorer.texts.numbers import num
from explorer.gui.common.widgets import add_gpus, add_row, muted_label, select_data
from explorer.gui.explore.scenario_fields import (CUSTOM_WORKLOAD, FIELDS, NOT_IN_KERNEL_SCENARIOS, STREAM_FIELDS,
                                                  number_text, percent_text, scenario_to_texts)
from explorer.model.presets import preset_names
from explorer.model.scenario import POLICIES, Scenario
from explorer.model.stream import overhead_figures
from explorer.model.workload import PRESETS

FIELD_ROOM = "1, 1, 1"  # the value every field shows whole beside its label (a grid or block of three dims)
STEPS = {"grid": 1, "block": 32, "regs": 1, "smem_static": 1024, "smem_dynamic": 1024, "carveout": 1,
         "barriers": 1, "loop": 1, "l2_hit": 5, "seed": 1,
         "kernels": 1, "launch_gap": 1, "sync_every": 1, "nvml_period": 100}


class ReflowForm(QFormLayout):
    """The panel's form: labels beside their fields where the column has room for both, every label above
    its field where it has not, so a narrow column (an 800 px screen, the splitter dragged in, Russian
    labels) never scrolls sideways and never cuts a label or a value.

    All rows change together (Qt's own ``WrapLongRows`` wraps row by row, a ragged form), decided by the
    width the layout is given alone, so a width always gets the same arrangement. Its minimum is the
    stacked one, so the column may be as narrow as its widest label or field; wrapped, a label too long
    for even that wraps onto a second line."""

    def __init__(self, room_text: str):
        super().__init__()
        self._room_text = room_text
        self.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)

    def _pairs(self):
        for row in range(self.rowCount()):
            label = self.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = self.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is not None and field is not None and not field.isEmpty():
                yield label.widget(), field.widget()

    def _field_minimum(self, field: QWidget) -> int:
        return max(field.minimumSizeHint().width(), field.fontMetrics().horizontalAdvance(self._room_text) + 16)

    def _spacing(self) -> int:
        space = self.horizontalSpacing()
        if space >= 0:
            return space
        parent = self.parentWidget()
        return parent.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing) if parent else 6

    def _margins(self) -> int:
        margins = self.contentsMargins()
        return margins.left() + margins.right()

    def side_by_side_width(self) -> int:
        """The narrowest width that holds every label beside its field (with room for ``room_text``)."""
        pairs = list(self._pairs())
        if not pairs:
            return 0
        label = max(_label_width(label) for label, _field in pairs)
        field = max(self._field_minimum(field) for _label, field in pairs)
        return self._margins() + label + self._spacing() + field

    def stacked_width(self) -> int:
        """The narrowest width once every label stands above its field (a long label may wrap there)."""
        widths = [self._field_minimum(field) for _label, field in self._pairs()]
        widths += [_word_width(label) for label, _field in self._pairs()]
        return self._margins() + max(widths, default=0)

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(self.stacked_width(), super().minimumSize().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API: as wide as side by side needs, when there is room
        hint = super().sizeHint()
        return QSize(max(hint.width(), self.side_by_side_width()), hint.height())

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        stacked = rect.width() < self.side_by_side_width()
        policy = QFormLayout.RowWrapPolicy.WrapAllRows if stacked else QFormLayout.RowWrapPolicy.DontWrapRows
        if policy != self.rowWrapPolicy():
            self.setRowWrapPolicy(policy)
        room = rect.width() - self._margins()
        for label, _field in self._pairs():  # stacked, only a label longer than the column takes two lines
            wrap = stacked and _label_width(label) > room
            if wrap != label.wordWrap():
                label.setWordWrap(wrap)
        super().setGeometry(rect)


def _lines(text: str) -> str:
    """A long source as tooltip lines (a plain-text tooltip does not wrap: one line could outgrow the screen)."""
    return textwrap.fill(text, 90, break_long_words=False, break_on_hyphens=False)


def _figure(value: float) -> str:
    """A published figure as a field shows it (2.1, 0.595, 1000), in the interface's decimal style."""
    text = number_text(value)
    return num(value, len(text.partition(".")[2]), group=False)


def _label_width(label: QLabel) -> int:
    """A label's one-line width (its size hint once wrapping is on can be narrower than its text)."""
    return label.fontMetrics().horizontalAdvance(label.text().replace("&", "")) + 2 * label.margin() + 2


def _word_width(label: QLabel) -> int:
    """A wrapped label's narrowest width: its longest word."""
    words = label.text().replace("&", "").split() or [""]
    return max(label.fontMetrics().horizontalAdvance(word) for word in words) + 2 * label.margin() + 2


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
        for name in PRESETS:
            self.workload.addItem(name, name)
            self.workload.setItemData(self.workload.count() - 1, workload_doc(name),
                                      Qt.ItemDataRole.ToolTipRole)
        # one word: the combo is as narrow as "fma-global" (1280x720, Russian), where "custom (from the scenario
        # file)" was cut in a lesson step that writes its own loop; the tooltip and the line under it say more
        self.workload.addItem(self.tr("custom"), CUSTOM_WORKLOAD)
        self.workload.setItemData(self.workload.count() - 1,
                                  self.tr("A loop body of its own, written in the scenario (a file, a lesson step or "
                                          "a GEMM's main loop), not one of the presets."),
                                  Qt.ItemDataRole.ToolTipRole)
        self.workload_info = muted_label(self)
        self.policy = QComboBox(self)
        self.policy.setObjectName("field_policy")
        for name in POLICIES:
            self.policy.addItem(name, name)
            self.policy.setItemData(self.policy.count() - 1, policy_doc(name),
                                    Qt.ItemDataRole.ToolTipRole)

        self.fields: dict[str, IntField] = {}
        for key in STEPS:
            field = IntField("", STEPS[key], self)
            field.setObjectName(f"field_{key}")
            field.edited.connect(self._changed)
            self.fields[key] = field
        self.graph = QCheckBox(self.tr("as one graph"), self)
        self.graph.setObjectName("field_graph")
        self.graph.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)  # a click beside it: no toggle
        self.stream_toggle = QToolButton(self)
        self.stream_toggle.setObjectName("stream_section")
        self.stream_toggle.setText(self.tr("Stream of launches"))
        self.stream_toggle.setToolTip(self.tr("The kernel launched many times in a row: the gaps between launches "
                                              "and NVML's sample period decide what NVML's utilization reads "
                                              "(the stream strip above the counts)."))
        self.stream_toggle.setCheckable(True)
        self.stream_toggle.setAutoRaise(True)
        self.stream_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.stream_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.stream_info = muted_label(self)
        self.stream_info.setObjectName("stream_info")
        self.launched = QLabel(self)
        self.launched.setObjectName("launched_summary")
        self.launched.setWordWrap(True)
        self.launched.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        form = self.form = ReflowForm(FIELD_ROOM)
        form.setVerticalSpacing(4)
        self._labels, self._tips = {}, {}
        for key, widget, text, tip in self._rows():
            self._labels[key] = add_row(form, self, text, widget, tip)
            self._tips[key] = tip
            if key == "block":
                form.addRow(self.launched)
            if key == "workload":
                form.addRow(self.workload_info)
            if key == "seed":
                form.addRow(self.stream_toggle)
        form.addRow(self.stream_info)
        self._set_stream_open(False)
        f = self.fields  # the line edits themselves: a field's focus proxy
        chain = [f["seed"].edit, self.stream_toggle, f["kernels"].edit, f["launch_gap"].edit, self.graph,
                 f["sync_every"].edit, f["nvml_period"].edit]
        for first, second in zip(chain, chain[1:]):  # Tab goes down the section as it reads (folded: skipped)
            QWidget.setTabOrder(first, second)
        layout = QVBoxLayout(self)
        layout.setSpacing(6)
        layout.addWidget(self.preset)
        layout.addWidget(self.description)
        layout.addLayout(form)
        layout.addStretch(1)

        self.preset.activated.connect(lambda _i: self.preset_chosen.emit(self.preset.currentData()))
        self.gpu.currentIndexChanged.connect(self._changed)
        self.policy.currentIndexChanged.connect(self._changed)
        self.graph.toggled.connect(self._graph_toggled)
        self.stream_toggle.toggled.connect(self._set_stream_open)
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
            ("kernels", f["kernels"], self.tr("&Launches:"),
             self.tr("How many times the kernel is launched in a row, into one stream (1: a single launch).")),
            ("launch_gap", f["launch_gap"], self.tr("&Gap (µs):"),
             self.tr("Microseconds from the end of one kernel to the start of the next (launch overhead); "
                     "empty: the GPU's figure.")),
            ("graph", self.graph, self.tr("CUDA Grap&h:"),
             self.tr("The launches as the nodes of one CUDA Graph: the graph's per-node gap replaces the launch gap.")),
            ("sync_every", f["sync_every"], self.tr("Sync &every:"),
             self.tr("The host waits for the kernel (cudaStreamSynchronize) after every N-th launch, a round trip "
                     "instead of a launch gap; 0: never.")),
            ("nvml_period", f["nvml_period"], self.tr("NVML peri&od (ms):"),
             self.tr("NVML's utilization sample period; empty: the GPU's figure.")),
        )

    # -- values in and out ---------------------------------------------------------
    def texts(self) -> dict[str, str]:
        out = {key: field.text() for key, field in self.fields.items()}
        out["gpu"] = self.gpu.currentData()
        out["workload"] = self.workload.currentData()
        out["policy"] = self.policy.currentData()
        out["graph"] = "true" if self.graph.isChecked() else "false"
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
            self.graph.setChecked(scenario.stream.graph)
            if scenario.stream.kernels > 1:  # a stream on screen: its section open (a single launch leaves it be)
                self.stream_toggle.setChecked(True)
            self.show_preset(preset if preset is not None else scenario.name)
            self.description.setText(" ".join(scenario.description_in(interface_language()).split()))
            self.description.setVisible(bool(scenario.description))
            for key in NOT_IN_KERNEL_SCENARIOS:  # read-only for your own kernel: its cubin's, no workload
                (self.workload if key == "workload" else self.fields[key]).setEnabled(scenario.kernel is None)
            self._show_l2_hit_use(scenario)
            self._update_workload_info(scenario)
            self.update_summary(scenario)
        finally:
            self._loading = False

    def _show_l2_hit_use(self, scenario: Scenario) -> None:
        """The L2 hit rate only draws hits for loads, stores and untiled copies: where every global access is a
        TMA copy of [workload.tiles] (a GEMM's main loop), L2 hits come from the tiles' addresses and the field,
        which would change nothing, is greyed with why."""
        field = self.fields["l2_hit"]
        if scenario.kernel is None and scenario.workload.tiles_decide_l2_hits:
            field.setEnabled(False)
            field.set_help(self.tr("This scenario's copies meet L2 by the addresses of the tiles they copy "
                                   "([workload.tiles]): their hits follow from the tiles' reuse, not from a rate."))
        else:
            field.set_help(self._tips["l2_hit"])

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
        if any(key in errors for key in STREAM_FIELDS):  # a refused stream value is never folded away
            self.stream_toggle.setChecked(True)

    def update_summary(self, scenario: Scenario) -> None:
        launch = scenario.launch
        threads = launch.total_blocks * launch.threads_per_block
        self.launched.setText(self.tr("Launched: {blocks} blocks × {tpb} threads = {threads} threads = {warps} warps").format(
            blocks=num(launch.total_blocks), tpb=num(launch.threads_per_block),
            threads=num(threads), warps=num(launch.launched_warps())))
        self._update_workload_info(scenario)
        self._update_stream_info(scenario)

    def _update_workload_info(self, scenario: Scenario) -> None:
        if scenario.kernel is not None:
            self.workload_info.setText(self.tr("Your own kernel {name} (the Your kernel tab): the cubin gives its "
                                               "registers, shared memory and barriers").format(
                name=scenario.kernel.name))
            return
        doc = workload_doc(scenario.workload.preset)
        text = scenario.workload.describe()
        self.workload_info.setText(f"{doc}: {text}" if doc else text)

    def _update_stream_info(self, scenario: Scenario) -> None:
        """The GPU's figures for the empty fields (placeholders, tooltips with their sources) and the gap in use."""
        figures, sources = overhead_figures(scenario.gpu_name)
        gpu = scenario.gpu_name
        gap_key = "graph_gap_us" if scenario.stream.graph else "launch_gap_us"
        gap = self.fields["launch_gap"]
        gap.edit.setPlaceholderText(_figure(figures[gap_key]))
        gap.setEnabled(not scenario.stream.graph)  # resolve(): a graph's nodes are its per-node gap apart
        default_gap = (self.tr("With a CUDA Graph the {gpu}'s per-node gap applies: {value} µs ({source})")
                       if scenario.stream.graph else
                       self.tr("Empty: the {gpu}'s launch gap, {value} µs ({source})")).format(
            gpu=gpu, value=_figure(figures[gap_key]), source=sources[gap_key])
        gap.set_help(f"{self._tips['launch_gap']}\n\n{_lines(default_gap)}")
        period = self.fields["nvml_period"]
        period.edit.setPlaceholderText(_figure(figures["nvml_period_ms"]))
        period.set_help(f"{self._tips['nvml_period']}\n\n" + _lines(self.tr(
            "Empty: the {gpu}'s period, {value} ms ({source})").format(
            gpu=gpu, value=_figure(figures["nvml_period_ms"]), source=sources["nvml_period_ms"])))
        self.fields["sync_every"].set_help(f"{self._tips['sync_every']}\n\n" + _lines(self.tr(
            "The {gpu}'s round trip: {value} µs ({source})").format(
            gpu=gpu, value=_figure(figures["sync_gap_us"]), source=sources["sync_gap_us"])))
        timing = scenario.stream.resolve(scenario.gpu)
        if timing.kernels == 1:
            text = self.tr("One launch: no gaps; NVML reads the kernel over its own duration.")
        elif timing.sync_every:
            text = self.tr("{n} launches, {gap} µs apart, a {sync} µs round trip after every {every}; NVML window "
                           "{period} ms").format(n=num(timing.kernels), gap=_figure(timing.gap_us),
                                                 sync=_figure(timing.sync_gap_us), every=num(timing.sync_every),
                                                 period=_figure(timing.nvml_period_ms))
        else:
            text = self.tr("{n} launches, {gap} µs apart; NVML window {period} ms").format(
                n=num(timing.kernels), gap=_figure(timing.gap_us), period=_figure(timing.nvml_period_ms))
        self.stream_info.setText(text)
        names = {"gap_us": self.tr("Gap"), "sync_gap_us": self.tr("Round trip"), "nvml_period_ms": self.tr("NVML period")}
        self.stream_info.setToolTip("\n".join(_lines(f"{names.get(key, key)}: {source}")
                                              for key, source in timing.sources.items()))

    def _set_stream_open(self, on: bool) -> None:
        """Show or fold the stream's rows (the header stays)."""
        self.stream_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        for key in STREAM_FIELDS:
            self.form.setRowVisible(self.graph if key == "graph" else self.fields[key], on)
        self.form.setRowVisible(self.stream_info, on)

    @property
    def stream_open(self) -> bool:
        return self.stream_toggle.isChecked()

    # -- edits ----------------------------------------------------------------------
    def _graph_toggled(self, on: bool) -> None:
        gap = self.fields["launch_gap"]
        gap.setEnabled(not on or gap.is_invalid)  # a refused gap stays editable: it blocks the graph's run
        self._changed()

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
