"""The "Simulated vs measured" box: the two runs' numbers side by side, and what to do next.

Shown at the top of the explorer's metrics column while a measurement is open.
Numbers come straight from ``SimResult.summary()`` and ``Measurement.summary()``
(``measurement_data.comparison``); this view only formats them. Below the table:
why the two may differ (the scenario vs the compiled kernel, synthetic data,
the backend's notes), buttons to re-simulate with the compiled kernel's resources
and to calibrate, and the calibration's before/after error once asked for.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.texts.figures import comparison_table, error_text
from explorer.texts.numbers import num, pct
from explorer.gui.common.widgets import wrap
from explorer.gui.measure import data as md


def signed(fraction: float) -> str:
    """+3.2% / -3.2%: a calibration's relative error, as the error column writes one, in the window's style."""
    return error_text(fraction, "cycles", style=None)


class MeasurementBox(QGroupBox):
    """Simulated | measured | difference, one row per quantity."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("measurement_box")
        self.setTitle(self.tr("Simulated vs measured on the GPU"))
        self.heading = wrap(QLabel(self))
        self.heading.setObjectName("measurement_heading")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.warning = wrap(QLabel(self))
        self.warning.setObjectName("measurement_warning")
        self.warning.setProperty("role", "error")
        self.warning.hide()
        self.verdict = wrap(QLabel(self))
        self.verdict.setObjectName("measurement_verdict")
        self.verdict.hide()
        self.as_ran = wrap(QLabel(self))
        self.as_ran.setObjectName("measurement_as_ran")
        self.as_ran.hide()

        self.table = QGridLayout()
        self.table.setHorizontalSpacing(6)
        self.table.setVerticalSpacing(1)
        self.table.setColumnStretch(0, 1)
        bold = QFont(self.font())
        bold.setBold(True)
        for col, (text, tip) in enumerate((
            ("", ""),
            (self.tr("Sim."), self.tr("Simulated: the simulation on screen (solid curves, solid block outlines).")),
            (self.tr("Measured"), self.tr("Measured: the GPU run (dotted curves, hatched block boxes).")),
            (self.tr("Error"), self.tr("Simulated ÷ measured − 1 (for shares: simulated − measured, in points), "
                                       "and what it means: within 5%, within 15%, or off.")),
        )):
            head = QLabel(text, self)
            head.setFont(bold)
            head.setToolTip(tip)
            head.setAlignment(Qt.AlignmentFlag.AlignRight if col else Qt.AlignmentFlag.AlignLeft)
            self.table.addWidget(head, 0, col)
        self.names = self._names()
        self.cells: dict[str, tuple[QLabel, QLabel, QLabel, QLabel]] = {}
        for row, key in enumerate(self.names, start=1):
            name, tip = self.names[key]
            cells = (QLabel(name, self), QLabel("–", self), QLabel("–", self), QLabel("", self))
            for col, cell in enumerate(cells):
                cell.setToolTip(tip)
                if col:
                    cell.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    cell.setObjectName(f"cmp_{key}_{('sim', 'meas', 'diff')[col - 1]}")
                self.table.addWidget(cell, row, col)
            cells[0].setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.cells[key] = cells
        self.rows: dict[str, md.Row] = {}

        self.notes = wrap(QLabel(self))
        self.notes.setObjectName("measurement_notes")
        self.notes.setProperty("role", "muted")
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        self.differs = wrap(QLabel(self))
        self.differs.setObjectName("measurement_differs")
        self.differs.hide()

        self.resim_button = QPushButton(self.tr("Re-simulate with the compiled kernel"), self)
        self.resim_button.setObjectName("resim_button")
        self.calibrate_button = QPushButton(self.tr("Calibrate…"), self)
        self.calibrate_button.setObjectName("calibrate_button")
        self.close_button = QToolButton(self)
        self.close_button.setText(self.tr("Close"))
        self.close_button.setObjectName("close_measurement_button")
        for button in (self.resim_button, self.calibrate_button):
            policy = button.sizePolicy()
            policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)  # never wider than the column
            button.setSizePolicy(policy)
        self.resim_button.setToolTip(self.tr("Simulate the measured launch with the registers and shared memory the "
                                             "compiler actually produced, on the measured GPU."))
        self.calibrate_button.setToolTip(self.tr("Fit the simulator's DRAM latency and bandwidth to the open "
                                                 "measurements of this GPU; shows the error before and after."))
        self.close_button.setToolTip(self.tr("Stop showing the measurement."))
        buttons = QGridLayout()
        buttons.setSpacing(4)
        buttons.addWidget(self.resim_button, 0, 0, 1, 2)
        buttons.addWidget(self.calibrate_button, 1, 0)
        buttons.addWidget(self.close_button, 1, 1)
        buttons.setColumnStretch(0, 1)

        self.calibration = wrap(QLabel(self))
        self.calibration.setObjectName("calibration_result")
        self.calibration.setTextFormat(Qt.TextFormat.RichText)
        self.calibration.hide()

        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.warning)
        layout.addWidget(self.verdict)
        layout.addWidget(self.as_ran)
        layout.addLayout(self.table)
        layout.addWidget(self.differs)
        layout.addLayout(buttons)
        layout.addWidget(self.calibration)
        layout.addWidget(self.notes)

    def _names(self) -> dict[str, tuple[str, str]]:
        return {
            "cycles": (self.tr("Duration (cyc.)"),
                       self.tr("From the first warp's start to the last warp's end, in SM cycles of each run's clock.")),
            "kernel_time_us": (self.tr("Duration (µs)"),
                               self.tr("Simulated: cycles at the catalog's boost clock. Measured: CUDA events "
                                       "(median of the timed launches).")),
            "clock_mhz": (self.tr("SM clock (MHz)"),
                          self.tr("Measured: clock64 cycles over globaltimer nanoseconds while the kernel ran.")),
            "mean_block_cycles": (self.tr("Mean block (cyc.)"),
                                  self.tr("Average time from a block's first warp starting to its last warp ending.")),
            "achieved_occupancy": (self.tr("Achieved occ."),
                                   self.tr("Resident warps averaged over the cycles an SM was active ÷ its warp "
                                           "slots, from the residency curves (Nsight's sm__warps_active).")),
            "theoretical_occupancy": (self.tr("Theoretical occ."),
                                      self.tr("NVIDIA's occupancy rules. Measured: with the compiled kernel's "
                                              "registers and shared memory.")),
            "active_blocks_per_sm": (self.tr("Blocks/SM allowed"),
                                     self.tr("Blocks one SM can hold by NVIDIA's occupancy rules (our calculator). "
                                             "Measured: with the compiled kernel's resources.")),
            "driver_active_blocks_per_sm": (self.tr("  driver's answer"),
                                            self.tr("The driver's own occupancy answer for the compiled kernel "
                                                    "(cuOccupancyMaxActiveBlocksPerMultiprocessor), beside ours.")),
            "max_blocks_per_sm": (self.tr("Blocks/SM (peak)"),
                                  self.tr("The most blocks any SM actually held at the same time.")),
            "sm_active_fraction": (self.tr("SMs busy"),
                                   self.tr("Share of SM-cycles with at least one resident warp.")),
            "kernel_active_fraction": (self.tr("“GPU util.” (NVML)"),
                                       self.tr("Simulated: share of cycles with a kernel running. Measured: NVML's "
                                               "utilization.gpu sampled during repeated launches.")),
            "gpm_sm_occupancy": (self.tr("GPM SM occupancy"),
                                 self.tr("Measured: NVML GPM's SM occupancy; simulated: achieved occupancy.")),
            "registers": (self.tr("Registers/thread"),
                          self.tr("Simulated: the scenario's. Measured: what the compiler produced (cubin).")),
            "static_shared_bytes": (self.tr("Static smem (B)"),
                                    self.tr("Simulated: the scenario's. Measured: the cubin's .nv.shared section "
                                            "without the reserved 1 KB.")),
        }

    # -- content --------------------------------------------------------------------
    def word_text(self, word: str) -> str:
        """explorer.gpu.compare's verdict words, translated as measure --compare's table has them
        (explorer.texts.figures.VERDICT_WORDS)."""
        return QCoreApplication.translate("CompareTexts", word) if word else word

    def show_as_ran(self, comparison) -> None:
        """The launch simulated as it ran (explorer.gpu.compare: its placement, its L2), the figure a verdict is
        about, shown above the table; None clears it."""
        if comparison is None:
            self.as_ran.hide()
            return
        f = comparison.headline
        self.as_ran.setText(self.tr("As it ran (the measured placement of blocks, L2 as the launch found it): "
                                    "duration {sim} vs {meas} cycles, {e} — {word}.").format(
            sim=num(f.simulated), meas=num(f.measured), e=f.error_text(style=None), word=self.word_text(f.word)))
        # measure --compare's table, in the window's language and number style
        self.as_ran.setToolTip(self.table_html(comparison))
        self.as_ran.show()

    @staticmethod
    def table_html(comparison) -> str:
        """measure --compare's table as rich text: the columns a table's cells (the CLI aligns them with spaces,
        which a tooltip's proportional font does not keep), numbers to the right, the notes below it wrapped."""
        heads, rows, below = comparison_table(comparison, QCoreApplication.translate, None)

        def cells(values, tag):
            return "".join(f'<{tag} align="{"left" if i in (0, 4) else "right"}">{html.escape(v)}</{tag}>'
                           for i, v in enumerate(values))

        table = "".join([f"<tr>{cells(heads, 'th')}</tr>", *(f"<tr>{cells(r, 'td')}</tr>" for r in rows)])
        notes = "".join(f"<p>{html.escape(line)}</p>" for line in below)
        return f'<table cellspacing="0" cellpadding="3">{table}</table>{notes}'

    @staticmethod
    def format(value, kind: str) -> str:
        if value is None:
            return "–"
        if kind == "pct":
            return pct(float(value))
        if kind == "us":
            return num(float(value), 2)
        return num(round(float(value)))  # "int", "mhz", "blocks"

    def show_measurement(self, m, saved: bool) -> None:
        meta = m.meta
        device = meta.get("device", {}).get("name", "?")
        name = meta.get("scenario_name") or self.tr("kernel")
        where = Path(m.path).name if saved and m.path else self.tr("not saved yet")
        self.heading.setText(self.tr("<b>{name}</b> on {device} ({sms} SMs) — {file}").format(
            name=html.escape(name), device=html.escape(device), sms=m.sm_count, file=html.escape(where)))
        self.heading.setToolTip(m.path or "")
        if meta.get("synthetic"):
            self.warning.setText(self.tr("Synthetic: made from a simulation, not measured on a GPU."))
            self.warning.show()
        else:
            self.warning.hide()
        notes = [*meta.get("notes", []), *[self.tr("problem: {p}").format(p=p) for p in meta.get("problems", [])]]
        timing = meta.get("timing", {})
        if timing.get("alignment"):
            notes.append(self.tr("time axis: {a}").format(a=timing["alignment"]))
        self.notes.setText("\n".join(f"• {t}" for t in notes))
        self.notes.setVisible(bool(notes))

    def show_comparison(self, rows: list[md.Row], current: bool = True) -> None:
        """The rows; ``current`` False while the simulation on screen is not of the scenario shown (yet)."""
        self.rows = {r.key: r for r in rows}
        for key, cells in self.cells.items():
            row = self.rows.get(key)
            for cell in cells:
                cell.setVisible(row is not None)
            if row is None:
                continue
            cells[1].setText(self.format(row.simulated, row.kind) if current else "…")
            cells[2].setText(self.format(row.measured, row.kind))
            f = row.figure  # its error in the window's number style (+1,5% in Russian), as the figures beside it
            error = "" if f.error is None or not current else f"{f.error_text(style=None)} {self.word_text(f.word)}"
            cells[3].setText(error)
            cells[3].setProperty("role", "error" if current and f.word == "off" else "")
            cells[3].style().polish(cells[3])
        cycles = self.rows.get("cycles")
        if cycles is not None and current and cycles.figure.error is not None:
            f = cycles.figure
            self.verdict.setText(self.tr("Duration: simulated {e} against measured — {word}.").format(
                e=f.error_text(style=None), word=self.word_text(f.word)))
            self.verdict.setProperty("role", "error" if f.word == "off" else "")
            self.verdict.style().polish(self.verdict)
            self.verdict.show()
        else:
            self.verdict.hide()
        self.cells["cycles"][1].setToolTip(self.names["cycles"][1] if current else self.tr(
            "The simulation of the scenario shown is still running (or its input is invalid)."))

    def show_differences(self, diffs: list[tuple[str, object, object]], resim_possible: bool) -> None:
        if not diffs:
            self.differs.hide()
            return
        names = {"gpu": self.tr("GPU"), "grid": self.tr("grid"), "block": self.tr("block"),
                 "registers_per_thread": self.tr("registers/thread"), "static_shared_bytes": self.tr("static shared"),
                 "dynamic_shared_bytes": self.tr("dynamic shared"), "carveout": self.tr("carveout"),
                 "barriers": self.tr("barriers"), "workload": self.tr("workload")}
        parts = [names.get(k, k) if k == "workload"
                 else self.tr("{name} {a} vs {b}").format(name=names.get(k, k), a=a, b=b) for k, a, b in diffs]
        text = self.tr("The simulation differs from what ran on the GPU: {parts}.").format(parts="; ".join(parts))
        if resim_possible:
            text += " " + self.tr("Re-simulate for a like-for-like comparison.")
        self.differs.setText(text)
        self.differs.show()

    def show_calibration(self, cal) -> None:
        j = cal.to_json()
        b, a = j["before"], j["after"]
        lines = [
            self.tr("<b>Calibration</b> ({count} measurement(s), {sims} simulations): RMS error "
                    "<b>{before}</b> → <b>{after}</b>").format(
                count=len(cal.points), sims=cal.evaluations, before=pct(cal.error_before),
                after=pct(cal.error_after)),
            self.tr("DRAM latency {lb} → {la} cycles; bandwidth {bb} → {ba} GB/s").format(
                lb=num(b["lat_dram"]), la=num(a["lat_dram"]), bb=num(b["dram_gbs"]), ba=num(a["dram_gbs"])),
        ]
        for m in j["measurements"]:
            eb, ea = m["error_before"], m["error_after"]
            lines.append(self.tr("{name}: kernel {kb} → {ka}, mean block {bb} → {ba}").format(
                name=html.escape(str(m["name"])), kb=signed(eb[0]), ka=signed(ea[0]), bb=signed(eb[1]),
                ba=signed(ea[1])))
        lines += [f"<i>{html.escape(note)}</i>" for note in cal.notes]
        self.calibration.setText("<br>".join(lines))
        self.calibration.show()

    def clear_calibration(self) -> None:
        self.calibration.clear()
        self.calibration.hide()
