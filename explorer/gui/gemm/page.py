"""The "GEMM" tab: type a GEMM shape, see tiles -> CTAs -> SMs -> waves, the roofline and the bytes.

Inputs on the left (GPU, data type, M, N, K, the CTA tile and, optionally, warps
per CTA and pipeline stages), judged by the core (``explorer.gemm.plan_gemm``) on
every edit: a bad value gets the core's message under its field, and the last
good result stays on screen, marked as such. The centre shows the output matrix
as tiles coloured by wave (or SM), with a player that steps through the waves
and the wave-quantization story in plain words; under it, bytes per memory
level. The right column holds the roofline and the time split (Tensor Cores
beside everything else). "Simulate in the Explorer" hands the GEMM's main loop
(``gemm_scenario``) to the Explorer tab.

Lessons drive the page through :meth:`GemmPage.apply_lesson_gemm` (the ``gemm`` table of a step).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
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
    QVBoxLayout,
    QWidget,
)

from explorer.gemm import DTYPES, GemmPlan, WaveStats, dtype_spec, roofline
from explorer.gemm.data import GemmDataError
from explorer.gui.common.core_texts import dtype_labels, limiter_names, translated
from explorer.gui.common.int_field import FieldTexts, IntField, show_field_errors
from explorer.gui.common.numbers import flops_text, num, seconds_text, tflops_text
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
from explorer.gui.gemm.session import (
    DEFAULT_DTYPE,
    GEMM_DEFAULTS,
    GEMM_FIELDS,
    OPTIONAL,
    evaluate_gemm,
    explorer_scenario,
    lesson_texts,
)
from explorer.gui.gemm.tiles import TilePanel
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

STEPS = {"m": 128, "n": 128, "k": 64, "tile": 1, "warps": 1, "stages": 1}


class GemmInputs(QGroupBox, FieldTexts):
    """GPU, data type and the text fields; emits ``changed`` on every edit."""

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
            self.dtype.setItemData(self.dtype.count() - 1, translated(dtype_labels(), spec.label),
                                   Qt.ItemDataRole.ToolTipRole)
        self.dtype.setCurrentIndex(self.dtype.findData(DEFAULT_DTYPE))
        self.dtype_error = error_label(self)

        self.fields: dict[str, IntField] = {}
        for name in GEMM_FIELDS:
            f = IntField(GEMM_DEFAULTS[name], STEPS[name], self)
            f.setObjectName(f"gemm_field_{name}")
            f.edited.connect(self.changed)
            self.fields[name] = f
        self.fields["tile"].edit.setAlignment(Qt.AlignmentFlag.AlignLeft)

        labels = {
            "m": (self.tr("M (&rows of C):"), self.tr("Rows of A and of the output C.")),
            "n": (self.tr("&N (columns of C):"), self.tr("Columns of B and of the output C.")),
            "k": (self.tr("&K (inner size):"), self.tr("Columns of A = rows of B: the length of every dot product.")),
            "tile": (self.tr("CTA &tile BM×BN×BK:"),
                     self.tr("The C tile one CTA computes (BM × BN), and the K slice it loads per step (BK), "
                             "e.g. 128x256x64. Empty: the data type's default.")),
            "warps": (self.tr("&Warps per CTA:"), self.tr("Optional. Empty: chosen to fit the tile.")),
            "stages": (self.tr("Pipeline &stages:"),
                       self.tr("Optional: tiles in flight in shared memory (double buffering = 2). "
                               "Empty: the data type's default, fewer if shared memory is short.")),
        }
        form = input_form(self)
        add_row(form, self, self.tr("GP&U:"), self.gpu)
        add_row(form, self, self.tr("Data t&ype:"), self.dtype)
        form.addRow("", self.dtype_error)
        for name in GEMM_FIELDS:
            text, tip = labels[name]
            add_row(form, self, text, self.fields[name], tip)
        self.gpu.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.dtype.currentIndexChanged.connect(lambda _i: self.changed.emit())
        previous = self.dtype
        self.setTabOrder(self.gpu, self.dtype)
        for name in GEMM_FIELDS:
            self.setTabOrder(previous, self.fields[name].edit)
            previous = self.fields[name].edit

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

    def show_errors(self, errors: dict[str, str]) -> None:
        show_field_errors(self.fields, errors, self.tr("enter a whole number"))
        show_combo_error(self.dtype, self.dtype_error, errors.get("dtype") or errors.get("gpu"))

    def show_defaults(self, plan: GemmPlan) -> None:
        """Empty optional fields show the value in use as their placeholder."""
        r = plan.resources
        used = {"tile": str(r.tile), "warps": str(r.warps), "stages": str(r.stages)}
        for name in OPTIONAL:
            self.fields[name].edit.setPlaceholderText(self.tr("auto: {v}").format(v=used[name]))


class GemmPage(Page):
    """Owns the inputs and shows the last good plan in every view."""

    scenario_requested = Signal(object)  # a Scenario for the Explorer tab

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_page")
        self.plan: GemmPlan | None = None
        self.errors: dict[str, str] = {}
        self.sent: Scenario | None = None

        self.inputs = GemmInputs(self)
        self.mapping = QGroupBox(self.tr("The mapping"), self)
        self.mapping.setObjectName("gemm_mapping")
        form = QFormLayout(self.mapping)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.values: dict[str, QLabel] = {}
        for key, text in (("grid", self.tr("Grid:")), ("cta", self.tr("Per CTA:")),
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

        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 4, 0)
        ll.addWidget(self.inputs)
        ll.addWidget(self.stale)
        ll.addWidget(self.mapping)
        ll.addWidget(self.send)
        ll.addWidget(self.send_note)
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
        self.levels = LevelTrafficView(self)
        center_top = QWidget(self)
        ct = QVBoxLayout(center_top)
        ct.setContentsMargins(0, 0, 0, 0)
        ct.addWidget(self.tiles, 1)
        ct.addWidget(self.explain)
        ct.addWidget(self.explain_core)
        self.center = splitter(Qt.Orientation.Vertical, self, "gemm_center",
                               (center_top, scroll_area(self.levels, self)), stretch=(3, 1), fit_panes=True)

        self.roofline = RooflinePlot(self)
        self.roofline_caption = QLabel(self)
        self.roofline_caption.setObjectName("gemm_roofline_caption")
        self.roofline_caption.setWordWrap(True)
        self.roofline_caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.roofline_box = QGroupBox(self.tr("Roofline"), self)
        self.roofline_box.setObjectName("gemm_roofline_box")
        rl = QVBoxLayout(self.roofline_box)
        rl.addWidget(self.roofline, 1)
        rl.addWidget(self.roofline_caption)
        self.time_split = TimeSplitView(self)
        self.right = splitter(Qt.Orientation.Vertical, self, "gemm_right",
                              (self.roofline_box, scroll_area(self.time_split, self)), stretch=(3, 2), fit_panes=True)

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

        self.inputs.changed.connect(self.recompute)
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
        stale = bool(errors) and self.plan is not None
        self.stale.setVisible(stale)
        self.stale.setText(self.tr("Invalid input ({n}): the views show the last valid GEMM.").format(n=len(errors)))
        self.send.setEnabled(self.plan is not None or (ev is not None and ev.plan is not None))
        if errors:
            self.set_status(self.tr("Invalid input ({n}): showing the last valid GEMM.").format(n=len(errors)))
            return
        self.show_plan(ev.plan)

    def show_plan(self, plan: GemmPlan) -> None:
        self.plan = plan
        self.inputs.show_defaults(plan)
        self._show_mapping(plan)
        self.tiles.set_plan(plan)
        self._show_explanation(plan.waves)
        self.levels.show_plan(plan)
        self.roofline.show_plan(plan, roofline(plan.gpu))
        self._show_roofline_caption(plan)
        self.time_split.show_plan(plan)
        self.set_status(self._summary(plan))

    def _show_mapping(self, plan: GemmPlan) -> None:
        r, w = plan.resources, plan.waves
        occ = r.occupancy
        v = self.values
        v["grid"].setText(self.tr("{tn} × {tm} = {tiles} CTAs, one per {bm}×{bn} tile of C").format(
            tn=num(plan.tiles_n), tm=num(plan.tiles_m), tiles=num(plan.tiles), bm=r.tile.bm, bn=r.tile.bn))
        v["cta"].setText(self.tr("{warps} warps ({wm}×{wn} each) · {stages} stage(s) · {k} K-steps of {bk}").format(
            warps=r.warps, wm=r.warp_tile_m, wn=r.warp_tile_n, stages=r.stages, k=num(plan.k_steps), bk=r.tile.bk))
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
        self.notes.setText(" ".join(n.rstrip(".") + "." for n in plan.notes))
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
        self.roofline_caption.setText(self.tr(
            "{dtype} roof {peak}. The GEMM (● at its HBM intensity, ◆ at its L2 intensity) sits {side}; "
            "predicted {tf}, {pct:.0f}% of the roof.").format(
            dtype=plan.dtype.upper(), peak=tflops_text(plan.peak.value), side=side.format(r=num(ridge)),
            tf=tflops_text(plan.achieved_tflops), pct=100 * plan.achieved_tflops / plan.peak.value))

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
            self.send_note.setText(self.tr("The simulator cannot run this GEMM: {msg}").format(msg=str(exc)))
            return None
        self.sent = sent.scenario
        if sent.shortened:
            self.send_note.setText(self.tr(
                "Sent {tiles} CTAs × {k} K-steps (the whole GEMM has {all_tiles} × {all_k}: shortened so the "
                "simulation takes seconds).").format(tiles=num(sent.tiles), k=num(sent.k_steps),
                                                       all_tiles=num(self.plan.tiles),
                                                       all_k=num(self.plan.k_steps)))
        else:
            self.send_note.setText(self.tr("Sent the whole GEMM: {tiles} CTAs × {k} K-steps.").format(
                tiles=num(sent.tiles), k=num(sent.k_steps)))
        self.scenario_requested.emit(sent.scenario)
        return sent.scenario

    # -- lessons ------------------------------------------------------------------------
    def apply_lesson_gemm(self, inputs: dict) -> None:
        """Fill the inputs from a lesson step's ``gemm`` table (m, n, k, dtype, tile, gpu, warps, stages).

        Keys the step leaves out go back to their defaults, so a step always shows
        the same GEMM; an empty table changes nothing. The waves are shown all at once.
        """
        if not inputs:
            return
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
        return self.tiles, self.levels, self.roofline, self.time_split

    def first_sizes(self) -> None:
        total = max(self.splitter.width(), 1000)
        left = max(self.left_scroll.minimumWidth(), min(380, int(total * 0.23)))
        right = int((total - left) * 0.42)
        self.splitter.setSizes([left, total - left - right, right])
        h = max(self.center.height(), 600)
        levels = min(self.levels.sizeHint().height(), int(h * 0.4))
        self.center.setSizes([h - levels, levels])
        rh = max(self.right.height(), 600)
        self.right.setSizes([int(rh * 0.55), rh - int(rh * 0.55)])

    def shutdown(self) -> None:
        self.tiles.stop()

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "center": self.center, "right": self.right}

    def capture_state(self, live: bool = False) -> dict:
        return super().capture_state(live) | {"gpu": self.inputs.gpu_name(), "dtype": self.inputs.dtype_name(),
                                              "color_by": self.tiles.color_by.currentData()} | self.inputs.raw_values()

    def restore_state(self, state: dict) -> None:
        """The saved inputs, colouring and splitters; recomputed only when the inputs differ from those on screen."""
        before = self._input_key()
        self.inputs.blockSignals(True)
        try:
            self.inputs.set_gpu(as_str(state.get("gpu"), self.inputs.gpu_name()))
            self.inputs.set_dtype(as_str(state.get("dtype"), self.inputs.dtype_name()))
            self.inputs.set_values({name: as_str(state.get(name), GEMM_DEFAULTS[name]) for name in GEMM_FIELDS})
            select_data(self.tiles.color_by, as_str(state.get("color_by"), "wave"))
        finally:
            self.inputs.blockSignals(False)
        super().restore_state(state)
        if self._input_key() != before:
            self.recompute()

    def _input_key(self) -> tuple:
        return self.inputs.gpu_name(), self.inputs.dtype_name(), self.inputs.raw_values()
