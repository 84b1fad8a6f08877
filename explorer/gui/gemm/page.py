"""The "GEMM" tab: type a GEMM shape, see tiles -> CTAs -> SMs -> waves, the pipeline, the roofline, the bytes.

Inputs on the left (GPU, data type, the main-loop path, M, N, K, the CTA tile
and the path's knobs: warps and warp tile for mma.sync, schedule, cluster and A
source for wgmma; pipeline stages for both), judged by the core
(``explorer.gemm.plan_gemm``) on every edit: a bad value, or a path the GPU
cannot run, gets the core's message under its field, and the last good result
stays on screen, marked as such. The centre shows the output matrix as tiles
coloured by wave (or SM), with a player that steps through the waves and the
wave-quantization story in plain words; under it, the main loop's pipeline
(TMA -> shared -> wgmma -> registers -> epilogue, or its mma.sync counterpart)
with why the bound is what it is, and bytes per memory level. The right column
holds the roofline (the binding roof marked) and the time split (Tensor Cores
beside everything else, the model's terms and the overheads). "Simulate in the
Explorer" hands the GEMM's main loop (``gemm_scenario``) to the Explorer tab;
when its simulation is back, the page sets the simulated time beside the
model's main loop at the simulator's clock and lists why they differ.

Lessons drive the page through :meth:`GemmPage.apply_lesson_gemm` (the ``gemm`` table of a step).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer.gemm import DTYPES, GemmPlan, WaveStats, dtype_spec, plan_roofs, roofline
from explorer.gemm.data import GemmDataError
from explorer.gui.common.core_texts import interface_language, limiter_names
from explorer.gui.common.error_texts import core_error
from explorer.gui.common.int_field import FieldTexts, IntField, show_field_errors
from explorer.texts.numbers import flops_text, num, seconds_text, tflops_text
from explorer.gui.common.page import Page
from explorer.gui.common.settings import as_str
from explorer.gui.common.widgets import (
    add_gpus,
    add_row,
    error_label,
    input_form,
    muted_label,
    scroll_area,
    select_data,
    show_combo_error,
    splitter,
)
from explorer.gui.gemm.charts import LevelTrafficView, RooflinePlot, TimeSplitView
from explorer.gui.gemm.model_texts import model_text, path_names, schedule_names
from explorer.gui.gemm.pipeline_view import PipelineView
from explorer.gui.gemm.precision_view import PrecisionView
from explorer.gui.gemm.session import (
    DEFAULT_DTYPE,
    GEMM_CHOICES,
    GEMM_DEFAULTS,
    GEMM_FIELDS,
    KNOBS,
    OPTIONAL,
    PATH_KNOBS,
    SentScenario,
    evaluate_gemm,
    explorer_scenario,
    lesson_texts,
)
from explorer.gui.gemm.tiles import TilePanel
from explorer.model.catalog import get_gpu
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

UNLIMITED = 16777215  # QWIDGETSIZE_MAX
ROOFLINE_EXTRA_LINES = 9  # text lines above the roofline box's minimum it keeps beside the precision chart
PRECISION_ROOM = 300  # px the precision view wants in a lesson step: a chart about 170 px tall, its legend and notes
STEPS = {"m": 128, "n": 128, "k": 64, "tile": 1, "warps": 1, "warp_tile": 1, "cluster": 1, "stages": 1}


def breakable(instruction: str) -> str:
    """A PTX instruction name that may wrap after its dots (a zero-width space after each)."""
    return instruction.replace(".", ".\u200b")


class WholeCombo(QComboBox):
    """A combo box never narrower than its longest choice (its size hint), at any font: presentation mode's
    larger type makes the form put it under its label instead of cutting it."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.sizeHint()


class ChoiceField(QWidget):
    """A combo box with the core's message under it (a path or schedule the model refuses)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        # as wide as its longest choice ("разделяемая память (SS)"), never cut: where it and its label do not
        # fit side by side, the form puts it under its label (WrapLongRows) rather than widen the column
        self.combo = WholeCombo(self)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.error = error_label(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.combo)
        layout.addWidget(self.error)
        self.setFocusProxy(self.combo)

    def value(self) -> str:
        return self.combo.currentData() or ""

    def set_value(self, value: str) -> bool:
        return select_data(self.combo, value or "")

    def set_error(self, message: str | None) -> None:
        show_combo_error(self.combo, self.error, message)

    @property
    def message(self) -> str:
        return self.error.text() if self.error.isVisibleTo(self) else ""

    def set_help(self, text: str) -> None:
        self.combo.setToolTip(text)


class GemmInputs(QGroupBox, FieldTexts):
    """GPU, data type, the main-loop path and the text fields; emits ``changed`` on every edit.

    Only the knobs of the path in use are shown: warps and warp tile for
    mma.sync (and SIMT), schedule, cluster and A source for wgmma.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_inputs")
        self.setTitle(self.tr("GEMM  C = A × B"))
        self.gpu = QComboBox(self)
        self.gpu.setObjectName("gemm_gpu")
        add_gpus(self.gpu, lambda spec: self.tr("{full}: {sms} SMs").format(full=spec.full_name, sms=spec.sm_count))
        self.dtype = QComboBox(self)
        self.dtype.setObjectName("gemm_dtype")
        for name in DTYPES:
            spec = dtype_spec(name)
            self.dtype.addItem(name.upper(), name)
            self.dtype.setItemData(self.dtype.count() - 1, spec.label_in(interface_language()),
                                   Qt.ItemDataRole.ToolTipRole)
        self.dtype.setCurrentIndex(self.dtype.findData(DEFAULT_DTYPE))
        self.dtype_error = error_label(self)

        self.choices: dict[str, ChoiceField] = {}
        for name in GEMM_CHOICES:
            c = ChoiceField(self)
            c.setObjectName(f"gemm_choice_{name}")
            c.combo.setObjectName(f"gemm_{name}")
            self.choices[name] = c
        paths, schedules = path_names(), schedule_names()
        for key in ("", "wgmma", "mma.sync", "simt"):
            self.choices["path"].combo.addItem(paths.get(key, self.tr("auto")), key)
        for key in ("", "cooperative", "pingpong"):
            self.choices["schedule"].combo.addItem(schedules.get(key, self.tr("auto")), key)
        for key, text in (("", self.tr("shared memory (SS)")), ("registers", self.tr("registers (RS)"))):
            self.choices["a_source"].combo.addItem(text, key)

        self.fields: dict[str, IntField] = {}
        for name in GEMM_FIELDS:
            f = IntField(GEMM_DEFAULTS[name], STEPS[name], self)
            f.setObjectName(f"gemm_field_{name}")
            f.edited.connect(self.changed)
            self.fields[name] = f
        for name in ("tile", "warp_tile", "cluster"):
            self.fields[name].edit.setAlignment(Qt.AlignmentFlag.AlignLeft)

        labels = {
            "m": (self.tr("M (&rows of C):"), self.tr("Rows of A and of the output C.")),
            "n": (self.tr("&N (columns of C):"), self.tr("Columns of B and of the output C.")),
            "k": (self.tr("&K (inner size):"), self.tr("Columns of A = rows of B: the length of every dot product.")),
            "path": (self.tr("Main-loop &path:"),
                     self.tr("The instruction that does the math: wgmma (Hopper's warpgroup MMA fed by TMA from "
                             "shared memory, CC 9.0 and 10.0), mma.sync (warp-level MMA with both operands in "
                             "registers, Volta to Ada) or SIMT (FFMA on the CUDA cores, FP32). Auto: the GPU's "
                             "best path for the data type.")),
            "tile": (self.tr("CTA &tile BM×BN×BK:"),
                     self.tr("The C tile one CTA computes (BM × BN), and the K slice it loads per step (BK), "
                             "e.g. 128x256x64. Empty: the data type's default.")),
            "warps": (self.tr("&Warps per CTA:"), self.tr("Optional. Empty: chosen to fit the tile.")),
            "warp_tile": (self.tr("Wa&rp tile WM×WN:"),
                          self.tr("Optional: the part of the CTA tile one warp computes, e.g. 64x64. Empty: "
                                  "chosen from the warps.")),
            "schedule": (self.tr("S&chedule:"),
                         self.tr("How the two consumer warpgroups share the work: cooperative (both on one tile, "
                                 "split by rows) or ping-pong (one tile each; one's epilogue overlaps the other's "
                                 "main loop). Hopper only.")),
            "cluster": (self.tr("Clu&ster M×N:"),
                        self.tr("Optional: CTAs per thread-block cluster along M and N, e.g. 2x1: the CTAs of a "
                                "cluster share one TMA load of the operand they have in common (multicast). "
                                "Empty: 2x1.")),
            "a_source": (self.tr("&A operand from:"),
                         self.tr("Where wgmma reads A: shared memory through a descriptor (SS, as B always is) "
                                 "or registers (RS: loaded with ldmatrix first).")),
            "stages": (self.tr("P&ipeline stages:"),
                       self.tr("Optional: tiles in flight in shared memory (double buffering = 2). "
                               "Empty: the data type's default, fewer if shared memory is short; on the wgmma "
                               "path as many as fit.")),
        }
        form = self.form = input_form(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a choice too wide goes under its label
        add_row(form, self, self.tr("GP&U:"), self.gpu)
        add_row(form, self, self.tr("Data t&ype:"), self.dtype)
        form.addRow("", self.dtype_error)
        self.rows: dict[str, QWidget] = {}
        for name in ("path", "m", "n", "k", "tile", "warps", "warp_tile", "schedule", "cluster", "a_source",
                     "stages"):
            text, tip = labels[name]
            widget = self.choices.get(name) or self.fields[name]
            add_row(form, self, text, widget, tip)
            self.rows[name] = widget
        self.gpu.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.dtype.currentIndexChanged.connect(lambda _i: self.changed.emit())
        for c in self.choices.values():
            c.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        previous = self.dtype
        self.setTabOrder(self.gpu, self.dtype)
        for name in self.rows:
            widget = self.choices[name].combo if name in self.choices else self.fields[name].edit
            self.setTabOrder(previous, widget)
            previous = widget

    def gpu_name(self) -> str:
        return self.gpu.currentData()

    def dtype_name(self) -> str:
        return self.dtype.currentData()

    def set_gpu(self, name: str) -> bool:
        i = self.gpu.findData(name)
        if i < 0:
            i = next((j for j in range(self.gpu.count()) if self.gpu.itemData(j).lower() == name.lower()), -1)
        if i >= 0:
            self.gpu.setCurrentIndex(i)
        return i >= 0

    def set_dtype(self, name: str) -> bool:
        return select_data(self.dtype, name.lower())

    def raw_values(self) -> dict[str, str]:
        """Every field's text and every choice (\"\" = the default)."""
        return FieldTexts.raw_values(self) | {name: c.value() for name, c in self.choices.items()}

    def set_values(self, values: dict) -> None:
        FieldTexts.set_values(self, values)
        for name, c in self.choices.items():
            if name in values:
                c.set_value(str(values[name]))

    def show_path_knobs(self, path: str) -> None:
        """Show the knobs of ``path`` (the chosen one, or the GPU's default), hide the other path's."""
        own = PATH_KNOBS.get(path, ())
        for name in KNOBS:
            self.form.setRowVisible(self.rows[name], name in own)

    def show_errors(self, errors: dict[str, str]) -> None:
        required = {name: f for name, f in self.fields.items() if name not in OPTIONAL}
        show_field_errors(required, errors, self.tr("enter a whole number"))
        for name in OPTIONAL:  # empty means "the default": the core's message is about the default in use
            self.fields[name].set_error(errors.get(name))
        for name, c in self.choices.items():
            c.set_error(errors.get(name))
        show_combo_error(self.dtype, self.dtype_error, errors.get("dtype") or errors.get("gpu"))

    def show_defaults(self, plan: GemmPlan) -> None:
        """Empty optional fields show the value in use as their placeholder; "auto" says what it chose."""
        r, p = plan.resources, plan.pipeline
        used = {"tile": str(r.tile), "warps": str(r.warps), "stages": str(r.stages),
                "warp_tile": f"{r.warp_tile_m}x{r.warp_tile_n}", "cluster": f"{p.cluster[0]}x{p.cluster[1]}"}
        for name in OPTIONAL:
            self.fields[name].edit.setPlaceholderText(self.tr("auto: {v}").format(v=used[name]))
        names = path_names()
        self.choices["path"].combo.setItemText(0, self.tr("auto: {v}").format(v=names.get(p.path, p.path)))
        schedules = schedule_names()
        self.choices["schedule"].combo.setItemText(0, self.tr("auto: {v}").format(
            v=schedules.get(p.schedule, p.schedule)))


class GemmPage(Page):
    """Owns the inputs and shows the last good plan in every view."""

    scenario_requested = Signal(object)  # a Scenario for the Explorer tab

    def __init__(self, parent: QWidget | None = None, build_now: bool = True):
        super().__init__(parent)
        self.setObjectName("gemm_page")
        self.sent: Scenario | None = None
        if build_now:
            self.build()
        else:
            self.build_later()

    def build(self) -> None:
        self.plan: GemmPlan | None = None
        self.errors: dict[str, str] = {}
        self.sent_info: SentScenario | None = None  # what "Simulate in the Explorer" sent, for the comparison
        self.sent_plan: GemmPlan | None = None  # the plan on screen when it was sent
        self._pipeline_focus = False  # a lesson step asked for the whole pipeline diagram on screen
        self.simulated_seconds: float | None = None  # the Explorer's kernel time of that scenario, once back

        self.inputs = GemmInputs(self)
        self.mapping = QGroupBox(self.tr("The mapping"), self)
        self.mapping.setObjectName("gemm_mapping")
        form = QFormLayout(self.mapping)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.values: dict[str, QLabel] = {}
        for key, text in (("path", self.tr("Path:")), ("grid", self.tr("Grid:")), ("cta", self.tr("Per CTA:")),
                          ("resources", self.tr("Resources:")),
                          ("occupancy", self.tr("Occupancy:")), ("waves", self.tr("Waves:")),
                          ("flops", self.tr("Work:")), ("time", self.tr("Predicted:")), ("bound", self.tr("Bound:"))):
            label = QLabel(self.mapping)
            label.setObjectName(f"gemm_value_{key}")
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(text, label)
            self.values[key] = label
        self.notes = muted_label(self.mapping)
        self.notes.setObjectName("gemm_notes")
        form.addRow(self.notes)
        self.stale = error_label(self)
        self.stale.setObjectName("gemm_stale")

        self.send = QPushButton(self.tr("Simulate in the E&xplorer"), self)
        self.send.setObjectName("gemm_send")
        self.send.setToolTip(self.tr("Run this GEMM's main loop (global loads, shared-memory stores, barrier, "
                                     "fragment loads, MMAs per K-step) in the simulator, one CTA per tile."))
        self.send_note = muted_label(self)
        self.send_note.setObjectName("gemm_send_note")
        self.simulation = QLabel(self)
        self.simulation.setObjectName("gemm_simulation")
        self.simulation.setWordWrap(True)
        self.simulation.setTextFormat(Qt.TextFormat.RichText)
        self.simulation.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.simulation.hide()

        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 4, 0)
        ll.addWidget(self.inputs)
        ll.addWidget(self.stale)
        ll.addWidget(self.mapping)
        ll.addWidget(self.send)
        ll.addWidget(self.send_note)
        ll.addWidget(self.simulation)
        ll.addStretch(1)
        self.left_scroll = scroll_area(left, self, fit_width=True)  # as wide as its fields need: the page scrolls

        self.tiles = TilePanel(self)
        self.explain = QLabel(self)
        self.explain.setObjectName("gemm_explain")
        self.explain.setWordWrap(True)
        self.explain.setTextFormat(Qt.TextFormat.RichText)
        self.explain.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        big = QFont(self.explain.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.explain.setFont(big)
        self.explain_core = muted_label(self)
        self.explain_core.setObjectName("gemm_explain_core")
        self.pipeline = PipelineView(self)
        self.levels = LevelTrafficView(self)
        below = QWidget(self)
        bl = QVBoxLayout(below)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.pipeline)
        bl.addWidget(self.levels)
        self.below_scroll = scroll_area(below, self)
        center_top = self.center_top = QWidget(self)
        ct = QVBoxLayout(center_top)
        ct.setContentsMargins(0, 0, 0, 0)
        ct.addWidget(self.tiles, 1)
        ct.addWidget(self.explain)
        ct.addWidget(self.explain_core)
        self.center = splitter(Qt.Orientation.Vertical, self, "gemm_center",
                               (center_top, self.below_scroll), stretch=(3, 1), fit_panes=True)

        self.roofline = RooflinePlot(self)
        self.roofline_caption = QLabel(self)
        self.roofline_caption.setObjectName("gemm_roofline_caption")
        self.roofline_caption.setWordWrap(True)
        self.roofline_caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.roofline_box = QGroupBox(self.tr("Roofline"), self)
        self.roofline_box.setObjectName("gemm_roofline_box")
        self.roofline_legend = QLabel(self)
        self.roofline_legend.setObjectName("gemm_roofline_legend")
        self.roofline_legend.setWordWrap(True)
        self.roofline_legend.setTextFormat(Qt.TextFormat.RichText)
        self.roofline_legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        rl = QVBoxLayout(self.roofline_box)
        rl.addWidget(self.roofline, 1)
        rl.addWidget(self.roofline_legend)
        rl.addWidget(self.roofline_caption)
        self.time_split = TimeSplitView(self)
        # under the roofline: the time split, or the precision of the data types (a tab each: the column is full)
        self.precision = PrecisionView(self)
        self.lower_right = QTabWidget(self)
        self.lower_right.setObjectName("gemm_lower_right")
        self.lower_right.setDocumentMode(True)
        self.lower_right.addTab(scroll_area(self.time_split, self), self.tr("Time split"))
        self.lower_right.addTab(self.precision, self.tr("Precision"))
        self.lower_right.setTabToolTip(0, self.tr("Where the predicted time goes: Tensor Cores beside everything "
                                                  "else."))
        self.lower_right.setTabToolTip(1, self.tr("What BF16, FP16 and FP8 inputs with FP32 accumulation do to a "
                                                  "dot product's error as K grows."))
        self.right = splitter(Qt.Orientation.Vertical, self, "gemm_right",
                              (self.roofline_box, self.lower_right), stretch=(3, 2), fit_panes=True)

        self.splitter = splitter(Qt.Orientation.Horizontal, self, "gemm_splitter",
                                 (self.left_scroll, self.center, self.right), stretch=(0, 1, 1))
        # below the columns' minimum widths (a small screen) the page scrolls instead of squeezing them
        self.page_scroll = QScrollArea(self)
        self.page_scroll.setWidget(self.splitter)
        self.page_scroll.setWidgetResizable(True)
        self.page_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(self.page_scroll)

        self.center.installEventFilter(self)
        self.page_scroll.viewport().installEventFilter(self)  # a precision step's room follows the page's height
        self._precision_focus = False  # a lesson step asked for the precision chart (see _fit_precision)
        self.inputs.changed.connect(self.recompute)
        self.lower_right.currentChanged.connect(self._lower_tab_changed)
        self.send.clicked.connect(self.send_to_explorer)
        self.recompute()

    # -- computing ------------------------------------------------------------------
    def recompute(self) -> None:
        try:
            ev = evaluate_gemm(self.inputs.gpu_name(), self.inputs.dtype_name(), self.inputs.raw_values())
        except GemmDataError as exc:  # a broken data file: say so rather than crash the window
            ev = None
            errors = {"dtype": str(exc)}
        else:
            errors = ev.errors
        self.errors = dict(errors)
        self.inputs.show_errors(errors)
        if ev is not None:
            self.inputs.show_path_knobs(ev.path)
        stale = bool(errors) and self.plan is not None
        self.stale.setVisible(stale)
        self.stale.setText(self.tr("Invalid input ({n}): the views show the last valid GEMM.").format(n=len(errors)))
        self.send.setEnabled(self.plan is not None or (ev is not None and ev.plan is not None))
        if errors:
            self.notes.hide()  # what the mapper chose for inputs that are no longer on screen
            self._forget_sent()
            self.set_status(self.tr("Invalid input ({n}): showing the last valid GEMM.").format(n=len(errors)))
            return
        self.show_plan(ev.plan)

    def show_plan(self, plan: GemmPlan) -> None:
        self.plan = plan
        self._pipeline_focus = False
        if self.sent_plan is not None and plan != self.sent_plan:
            self._forget_sent()
        self.inputs.show_defaults(plan)
        self._show_mapping(plan)
        self.tiles.set_plan(plan)
        self._show_explanation(plan.waves)
        self.pipeline.show_plan(plan, self.bound_name(plan))
        self.levels.show_plan(plan)
        self.roofline.show_plan(plan, roofline(plan.gpu))
        self.roofline_legend.setText(self.roofline.legend_html())
        self._show_roofline_caption(plan)
        self.time_split.show_plan(plan)
        self._keep_top_room()
        self.set_status(self._summary(plan))

    def _keep_top_room(self) -> None:
        """The tiles and their story never squeezed under the lower pane (their wrapped text grows with it)."""
        self.center_top.setMinimumHeight(self._top_needed())
        if not self._pipeline_focus:
            self.below_scroll.setMinimumHeight(0)
            self.center_top.setVisible(True)  # it gave way to the pipeline diagram (_fit_pipeline)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        if watched is self.center and event.type() == QEvent.Type.Resize:
            if event.size().width() != event.oldSize().width():
                self._keep_top_room()  # the wrapped texts' height follows the centre column's width
            if self._pipeline_focus and event.size() != event.oldSize():
                self._fit_pipeline()  # another scale or screen: the diagram's room again
        elif (self._precision_focus and watched is self.page_scroll.viewport()
              and event.type() == QEvent.Type.Resize and event.size().height() != event.oldSize().height()):
            self._fit_precision()  # another scale or screen: the chart's room again, before anyone measures
        return super().eventFilter(watched, event)

    def _show_mapping(self, plan: GemmPlan) -> None:
        r, w, p = plan.resources, plan.waves, plan.pipeline
        occ = r.occupancy
        v = self.values
        v["path"].setText(self.tr("<b>{path}</b> · {instr}").format(path=path_names().get(p.path, p.path),
                                                                      instr=breakable(p.instruction)))
        if p.persistent:
            v["grid"].setText(self.tr("{tm} × {tn} = {tiles} tiles of {bm}×{bn}; {ctas} persistent CTAs (one per "
                                      "SM) walk them").format(tn=num(plan.tiles_n), tm=num(plan.tiles_m),
                                                              tiles=num(plan.tiles), bm=r.tile.bm, bn=r.tile.bn,
                                                              ctas=num(plan.ctas)))
        else:
            v["grid"].setText(self.tr("{tm} × {tn} = {tiles} CTAs, one per {bm}×{bn} tile of C").format(
                tn=num(plan.tiles_n), tm=num(plan.tiles_m), tiles=num(plan.tiles), bm=r.tile.bm, bn=r.tile.bn))
        if p.path == "wgmma" and p.consumer_warps > 1:
            # the producer warpgroup's warps: one issues the TMA copies, the rest wait (they add up to r.warps)
            v["cta"].setText(self.tr("{warps} warps: a producer warpgroup ({pw} issuing TMA copies, {idle} idle) + "
                                     "{cw} consumer ({g} warpgroups, {sched}) · {stages} stages · {k} K-steps of "
                                     "{bk}").format(
                warps=r.warps, pw=p.producer_warps, idle=r.warps - p.producer_warps - p.consumer_warps,
                cw=p.consumer_warps, g=p.consumer_warps // 4,
                sched=schedule_names().get(p.schedule, p.schedule), stages=r.stages, k=num(plan.k_steps),
                bk=r.tile.bk))
        elif p.path == "wgmma":
            v["cta"].setText(self.tr("{warps} warps: TMA, MMA and epilogue warps · {stages} stages · {k} K-steps of "
                                     "{bk}").format(warps=r.warps, stages=r.stages, k=num(plan.k_steps), bk=r.tile.bk))
        else:
            v["cta"].setText(self.tr("{warps} warps ({wm}×{wn} each) · {stages} stage(s) · {k} K-steps of {bk}").format(
                warps=r.warps, wm=r.warp_tile_m, wn=r.warp_tile_n, stages=r.stages, k=num(plan.k_steps),
                bk=r.tile.bk))
        budget = p.register_budget
        if "consumer" in budget:
            v["resources"].setText(self.tr("{regs} registers per thread at launch (setmaxnreg: {c} per consumer, "
                                           "{p} per producer) · {smem} KiB shared memory per CTA").format(
                regs=r.registers_per_thread, c=budget["consumer"], p=budget["producer"],
                smem=num(r.shared_bytes_per_block / 1024)))
        else:
            v["resources"].setText(self.tr("{regs} registers per thread · {smem} KiB shared memory per CTA").format(
                regs=r.registers_per_thread, smem=num(r.shared_bytes_per_block / 1024)))
        names = limiter_names()
        limiters = ", ".join(names.get(key, key.replace("_", " ")) for key in occ.limiters)
        v["occupancy"].setText(self.tr("{b} CTA(s) per SM: {aw} of {mw} warps ({occ}%), limited by {lim}").format(
            b=occ.active_blocks_per_sm, aw=occ.active_warps_per_sm, mw=occ.max_warps_per_sm,
            occ=num(100 * occ.occupancy, 1), lim=limiters))
        v["waves"].setText(self.tr("{waves} waves of work → {full} wave(s); wave efficiency {eff}%").format(
            waves=num(w.waves, 3), full=num(w.full_waves), eff=num(100 * w.efficiency, 1)))
        v["flops"].setText(self.tr("{flops} (2·M·N·K)").format(flops=flops_text(plan.flops)))
        v["time"].setText(self.tr("{t} → {tf} of {peak} (+ about {launch} launch)").format(
            t=seconds_text(plan.predicted_seconds), tf=tflops_text(plan.achieved_tflops),
            peak=tflops_text(plan.peak.value), launch=seconds_text(plan.launch_overhead_seconds)))
        v["bound"].setText(self.tr("<b>{bound}</b> ({term})").format(
            bound=self.bound_name(plan), term=self.time_split.term_names().get(plan.bound_term, plan.bound_term)))
        self.notes.setText(" ".join(model_text(n).rstrip(".") + "." for n in plan.notes))
        self.notes.setVisible(bool(plan.notes))

    def bound_name(self, plan: GemmPlan) -> str:
        names = {"compute": self.tr("compute"), "memory": self.tr("memory"), "latency": self.tr("latency")}
        return names.get(plan.bound, plan.bound)

    def wave_explanation(self, w: WaveStats) -> str:
        """The wave-quantization story in plain words (numbers from ``WaveStats``)."""
        head = self.tr("The GPU runs <b>{slots} tiles at a time</b>: {sms} SMs × {b} CTA(s) each.").format(
            slots=num(w.slots), sms=w.sm_count, b=w.blocks_per_sm)
        idle = w.slots - w.last_wave_tiles
        eff = num(100 * w.efficiency, 1) + "%"
        if w.tiles % w.slots == 0:
            body = self.tr("{tiles} tiles fill exactly {full} wave(s): no slot waits, wave efficiency 100%.").format(
                tiles=num(w.tiles), full=num(w.full_waves))
        elif w.full_waves == 1:
            body = self.tr("{tiles} tiles fill one wave only partly: {idle} slots stay empty for the whole run, "
                           "so only {eff} of the GPU's CTA slots work.").format(
                tiles=num(w.tiles), idle=num(idle), eff=eff)
        else:
            body = self.tr(
                "{tiles} tiles are {waves} waves of work, so they need <b>{full} waves</b>. The last wave "
                "computes only {last} tile(s) while {idle} slots wait, yet it takes as long as a full wave: the "
                "GPU pays for {full} waves and {eff} of the slot-time does useful work.").format(
                tiles=num(w.tiles), waves=num(w.waves, 3), full=num(w.full_waves), last=num(w.last_wave_tiles),
                idle=num(idle), eff=eff)
        return f"{head} {body}"

    def wave_sentence(self, w: WaveStats) -> str:
        """``WaveStats.explain()`` in the interface language (the same words in English; a test compares)."""
        return self.tr("{tiles} tiles on {sms} SMs x {b} CTA(s) = {slots} slots per wave: {waves} waves of work "
                       "take {full} wave(s); the last wave runs {last} of {slots} slots, so {eff}% of the "
                       "slot-time is used").format(
            tiles=w.tiles, sms=w.sm_count, b=w.blocks_per_sm, slots=w.slots, waves=num(w.waves, 3, group=False),
            full=w.full_waves, last=w.last_wave_tiles, eff=num(100 * w.efficiency, 1, group=False))

    def _show_explanation(self, w: WaveStats) -> None:
        self.explain.setText(self.wave_explanation(w))
        self.explain_core.setText(self.wave_sentence(w) + ".")

    def _show_roofline_caption(self, plan: GemmPlan) -> None:
        roof = self.roofline.roofline
        ridge = roof.ridge_point(plan.dtype, "hbm")
        hbm = plan.level("hbm").intensity
        side = (self.tr("right of the HBM ridge ({r} FLOP/B): HBM bandwidth is not the limit")
                if hbm >= ridge else self.tr("left of the HBM ridge ({r} FLOP/B): HBM bandwidth limits it"))
        names = self.roofline.roof_names()
        roofs = sorted((r for r in plan_roofs(plan) if r["kind"] != "latency"), key=lambda r: r["tflops"])
        allows = "; ".join(self.tr("{name}: {tf}").format(name=names.get(r["term"], r["label"]),
                                                            tf=tflops_text(r["tflops"])) for r in roofs)
        bound = next((r for r in roofs if r["bound"]), None)
        if bound is not None:
            binds = self.tr("the roof that binds it (thick line): {name}.").format(
                name=names.get(bound["term"], bound["label"]))
        elif plan.bound_term == "latency":
            binds = self.tr("no roof binds it: too few loads are in flight (latency).")
        else:
            binds = self.tr("no roof binds it: the pipeline fill and epilogue take longer than the main loop.")
        self.roofline_caption.setText(self.tr(
            "{dtype} roof {peak}. The GEMM (● at its HBM intensity, ◆ L2, ■ shared memory) sits {side}; predicted "
            "{tf}, {pct:.0f}% of the roof; {binds}").format(
            dtype=plan.dtype.upper(), peak=tflops_text(plan.peak.value), side=side.format(r=num(ridge)),
            tf=tflops_text(plan.achieved_tflops), pct=100 * plan.achieved_tflops / plan.peak.value, binds=binds))
        tip = self.tr("What each roof allows at the model's rates (the lowest binds): {allows}.").format(allows=allows)
        self.roofline_caption.setToolTip(tip)
        self.roofline.setToolTip(tip)

    def _summary(self, plan: GemmPlan) -> str:
        w = plan.waves
        return self.tr("GEMM {m}×{n}×{k} {dtype} on {gpu}: {tiles} tiles in {full} wave(s) ({eff}% wave "
                       "efficiency) · predicted {t} · bound: {bound}").format(
            m=plan.m, n=plan.n, k=plan.k, dtype=plan.dtype, gpu=plan.gpu, tiles=num(plan.tiles),
            full=num(w.full_waves), eff=num(100 * w.efficiency, 1), t=seconds_text(plan.predicted_seconds),
            bound=self.bound_name(plan))

    # -- the Explorer -----------------------------------------------------------------
    def send_to_explorer(self) -> Scenario | None:
        """Emit the (last valid) GEMM's scenario; the window shows it in the Explorer."""
        if self.plan is None:
            return None
        try:
            sent = explorer_scenario(self.plan)
        except InputError as exc:
            self._forget_sent()
            self.send_note.setText(self.tr("The simulator cannot run this GEMM: {msg}").format(
                msg=core_error(exc.field, exc.message)))
            return None
        self.sent, self.sent_info, self.sent_plan = sent.scenario, sent, self.plan
        self.simulated_seconds = None
        if sent.shortened:
            self.send_note.setText(self.tr(
                "Sent {tiles} CTAs × {k} K-steps (the whole GEMM has {all_tiles} × {all_k}: shortened so the "
                "simulation takes seconds).").format(tiles=num(sent.tiles), k=num(sent.k_steps),
                                                       all_tiles=num(self.plan.tiles),
                                                       all_k=num(self.plan.k_steps)))
        else:
            self.send_note.setText(self.tr("Sent the whole GEMM: {tiles} CTAs × {k} K-steps.").format(
                tiles=num(sent.tiles), k=num(sent.k_steps)))
        self._show_simulation()
        self.scenario_requested.emit(sent.scenario)
        return sent.scenario

    def show_run(self, run) -> None:
        """A finished simulation in the Explorer: if it is the scenario this page sent, compare it with the plan
        (an unbuilt page has sent nothing)."""
        if self.sent is None or run.result.scenario != self.sent:
            return
        self.simulated_seconds = float(run.summary["kernel_time_us"]) * 1e-6
        self._show_simulation()

    def explorer_note_text(self, run) -> tuple[str, str]:
        """(text, tooltip) for the Explorer while it shows the run of the scenario this page sent; ("", "") else."""
        if self.sent is None or not self.built or self.sent_info is None or run.result.scenario != self.sent:
            return "", ""
        compared = self.sent_info.simulated_plan
        simulated = seconds_text(float(run.summary["kernel_time_us"]) * 1e-6)
        if compared is None:
            text = self.tr("<b>GEMM main loop</b>: simulated {t}. The GEMM tab compares it with the model and says "
                           "why they differ.").format(t=simulated)
        else:
            text = self.tr("<b>GEMM main loop</b>: simulated {t}; the GEMM model's main loop at this clock: {m} "
                           "(its prediction with fill and epilogue: {p}). Hover for why they differ; the GEMM tab "
                           "lists it too.").format(t=simulated, m=seconds_text(compared.mainloop_at_simulator_clock),
                                                   p=seconds_text(compared.predicted_seconds))
        tip = "\n".join("• " + model_text(d) for d in self.sent_plan.simulation_differences) \
            if self.sent_plan is not None else ""
        return text, tip

    def _forget_sent(self) -> None:
        """The inputs changed: what was sent (and its simulated time) is about another GEMM now."""
        self.sent_info = self.sent_plan = None
        self.simulated_seconds = None
        self.send_note.setText("")
        self.simulation.hide()

    def simulation_comparison(self) -> str:
        """The simulated time beside the model's main loop at the simulator's clock, and why they differ."""
        sent, plan = self.sent_info, self.sent_plan
        if sent is None or plan is None:
            return ""
        compared = sent.simulated_plan
        gpu = get_gpu(plan.gpu)
        if compared is None:
            model = self.tr("The grid was cut for the simulation too, so no plan matches it exactly; the whole "
                            "GEMM's main loop at the simulator's clock is {t}.").format(
                t=seconds_text(plan.mainloop_at_simulator_clock))
        else:
            model = self.tr("The model's main loop at the simulator's {clock} MHz clock: <b>{t}</b>{what} (its "
                            "prediction, {p}, adds fill and epilogue and runs at {eff} MHz).").format(
                clock=num(gpu.boost_clock_mhz), t=seconds_text(compared.mainloop_at_simulator_clock),
                what=(self.tr(" for the {k} K-steps simulated").format(k=num(sent.k_steps)) if sent.shortened
                      else ""),
                p=seconds_text(compared.predicted_seconds), eff=num(compared.clock.effective_mhz))
        if self.simulated_seconds is None:
            head = self.tr("Simulating in the Explorer…")
        else:
            ratio = ""
            if compared is not None and compared.mainloop_at_simulator_clock > 0:
                ratio = self.tr(" (×{r} the model's main loop)").format(
                    r=num(self.simulated_seconds / compared.mainloop_at_simulator_clock, 2))
            head = self.tr("<b>Simulated in the Explorer: {t}</b>{ratio}, the main loop only.").format(
                t=seconds_text(self.simulated_seconds), ratio=ratio)
        items = "".join(f"<li>{model_text(d)}</li>" for d in plan.simulation_differences)
        why = self.tr("Why the two differ:") + f"<ul style='margin-left: 12px; -qt-list-indent: 0;'>{items}</ul>"
        return f"{head} {model}<br>{why}"

    def _show_simulation(self) -> None:
        text = self.simulation_comparison()
        self.simulation.setText(text)
        self.simulation.setVisible(bool(text))

    # -- lessons ------------------------------------------------------------------------
    def apply_lesson_gemm(self, inputs: dict) -> None:
        """Fill the inputs from a lesson step's ``gemm`` table (gpu, dtype, m, n, k, path and the knobs).

        Keys the step leaves out go back to their defaults, so a step always shows
        the same GEMM; an empty table changes nothing. The waves are shown all at once.
        ``precision_inputs`` ("normal" or "uniform", default "normal") picks the precision view's inputs.
        """
        if not inputs:
            return
        self.precision.set_distribution(str(inputs.get("precision_inputs", "normal")))
        texts, gpu, dtype = lesson_texts(inputs)
        self.tiles.stop()
        self.inputs.blockSignals(True)
        try:
            if gpu is not None:
                self.inputs.set_gpu(gpu)
            self.inputs.set_dtype(dtype or DEFAULT_DTYPE)
            self.inputs.set_values(texts)
        finally:
            self.inputs.blockSignals(False)
        self.tiles.show_wave(None)
        self.recompute()

    # -- window hooks -------------------------------------------------------------------
    def themed_views(self) -> tuple:
        return self.tiles, self.pipeline, self.levels, self.roofline, self.time_split, self.precision

    def first_sizes(self) -> None:
        total = max(self.splitter.width(), 1000)
        left = max(self.left_scroll.minimumWidth(), min(380, int(total * 0.23)))
        right = int((total - left) * 0.42)
        self.splitter.setSizes([left, total - left - right, right])
        h = max(self.center.height(), 400)
        below = min(self.pipeline.sizeHint().height() + self.levels.sizeHint().height() // 2, int(h * 0.45))
        top = max(h - below, min(self._top_needed(), h - 120))  # the tiles and their story first; the rest scrolls
        self.center.setSizes([top, h - top])
        rh = max(self.right.height(), 600)
        self.right.setSizes([int(rh * 0.55), rh - int(rh * 0.55)])

    def _top_needed(self) -> int:
        """Height the tile panel and its wrapped explanation need at the centre column's width."""
        return self.center_top.layout().totalMinimumHeightForWidth(max(self.center.width(), 320))

    def show_lesson_step(self, step, scenario=None) -> None:
        """A step's GEMM inputs; a step that points at the pipeline gets it on screen (the tiles give way), one
        that points at the precision view gets its tab in front."""
        super().show_lesson_step(step, scenario)
        # the tab under the roofline the step talks about: the precision view, or else the time split
        self.lower_right.setCurrentWidget(self.precision if "precision" in getattr(step, "highlight", ())
                                          else self.lower_right.widget(0))
        if "precision" in getattr(step, "highlight", ()):
            self._precision_focus = True
            self._fit_precision()  # now, if this page is on screen: before presentation mode measures the page
            QTimer.singleShot(0, self, self._fit_precision)  # once the window has shown (and sized) this page
        else:
            self._roofline_back()
        if "pipeline" in getattr(step, "highlight", ()):
            QTimer.singleShot(0, self, self.show_pipeline)  # once the window has shown (and sized) this page

    def _fit_precision(self) -> None:
        """The precision chart gets the larger share of the right column; where the roofline and a readable
        chart do not fit one above the other (1280x720 with the narration under the page), the roofline gives
        way until the time split is in front again (the step is about precision, not the roofline)."""
        if not self.isVisible() or not self._precision_focus:
            return
        room = self.page_scroll.viewport().height()
        need = max(self.lower_right.minimumSizeHint().height(), PRECISION_ROOM)
        # the roofline's hint counts its plot at its bare minimum: it needs some more to keep its axes apart
        lines = ROOFLINE_EXTRA_LINES * self.roofline_caption.fontMetrics().height()  # at the presented scale
        top = (self.roofline_box.minimumSizeHint().height() + lines
               + self.right.handleWidth())
        fits = room - top >= need
        self.roofline_box.setVisible(fits)
        # alone in its column, the chart takes the page's height, not the (taller) page's: legend and notes stay
        # on screen with it, at the top of a page that is not scrolled
        self.lower_right.setMaximumHeight(UNLIMITED if fits else max(room, need))
        if fits:
            top = max(top, min(int(room * 0.42), room - need))
            self.right.setSizes([top, room - top])
        else:
            self.page_scroll.verticalScrollBar().setValue(0)

    def _lower_tab_changed(self, index: int) -> None:
        if index == 0:
            self._roofline_back()

    def _roofline_back(self) -> None:
        """The roofline, where it gave way to the precision chart (_fit_precision)."""
        self._precision_focus = False
        self.roofline_box.setVisible(True)
        self.lower_right.setMaximumHeight(UNLIMITED)

    def show_pipeline(self) -> None:
        """The pipeline diagram on screen, scrolled to its top, until the next GEMM (see ``_fit_pipeline``)."""
        if not self.isVisible():
            return
        self._pipeline_focus = True
        self._fit_pipeline()
        QTimer.singleShot(0, self, self._scroll_to_pipeline)  # once the lower pane took its new height

    def _fit_pipeline(self) -> None:
        """The centre's lower pane grows to hold the diagram, as far as the page's height allows.

        The page itself never grows for it: a page scrolled down to the diagram cuts the other columns at
        the top (the roofline's numbers, the inputs). Where the tiles and the whole diagram do not fit one
        above the other (a projector at 1280x720 with the narration under the page), the tiles give way and
        the diagram has the whole column; what is still too tall scrolls inside its pane, whose scroll bar
        shows that there is more."""
        need = self.pipeline.heightForWidth(self.below_scroll.viewport().width())
        need = (need if need > 0 else self.pipeline.sizeHint().height()) + 8
        room = self.page_scroll.viewport().height()
        top = self._top_needed() + self.center.handleWidth()
        tiles = room - top >= need
        self.center_top.setVisible(tiles)
        below = max(0, min(need, room - top if tiles else room))
        self.below_scroll.setMinimumHeight(below)
        if tiles:
            self.center.setSizes([room - below, below])

    def _scroll_to_pipeline(self) -> None:
        """The diagram's top at the top of its pane (and of the page, when the page scrolls anyway)."""
        self.below_scroll.verticalScrollBar().setValue(
            self.pipeline.mapTo(self.below_scroll.widget(), QPoint(0, 0)).y())
        if self.page_scroll.verticalScrollBar().maximum() > 0:
            top = self.pipeline.mapTo(self.splitter, QPoint(0, 0)).y()
            self.page_scroll.verticalScrollBar().setValue(max(0, top - 4))

    def shutdown(self) -> None:
        self.tiles.stop()

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "center": self.center, "right": self.right}

    def capture_state(self, live: bool = False) -> dict:
        return super().capture_state(live) | {"gpu": self.inputs.gpu_name(), "dtype": self.inputs.dtype_name(),
                                              "color_by": self.tiles.color_by.currentData(),
                                              "lower_tab": "precision" if self.lower_right.currentIndex() else "time",
                                              "precision_inputs": self.precision.distribution} | self.inputs.raw_values()

    def restore_state(self, state: dict) -> None:
        """The saved inputs, colouring and splitters; recomputed only when the inputs differ from those on screen."""
        before = self._input_key()
        self.inputs.blockSignals(True)
        try:
            self.inputs.set_gpu(as_str(state.get("gpu"), self.inputs.gpu_name()))
            self.inputs.set_dtype(as_str(state.get("dtype"), self.inputs.dtype_name()))
            self.inputs.set_values({name: as_str(state.get(name), GEMM_DEFAULTS[name])
                                    for name in GEMM_FIELDS + GEMM_CHOICES})
            select_data(self.tiles.color_by, as_str(state.get("color_by"), "wave"))
            self.lower_right.setCurrentIndex(1 if as_str(state.get("lower_tab"), "time") == "precision" else 0)
            self.precision.set_distribution(as_str(state.get("precision_inputs"), "normal"))
        finally:
            self.inputs.blockSignals(False)
        super().restore_state(state)
        self._roofline_back()  # e.g. a lesson ended on a precision step at 1280x720
        if self._input_key() != before:
            self.recompute()
        elif self._pipeline_focus:  # e.g. a lesson ended on its pipeline step: the tiles come back
            self._pipeline_focus = False
            self._keep_top_room()

    def _input_key(self) -> tuple:
        return self.inputs.gpu_name(), self.inputs.dtype_name(), self.inputs.raw_values()
