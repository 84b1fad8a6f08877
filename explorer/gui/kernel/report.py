"""What the kernel's run gave: instructions, SIMT efficiency, memory per class, occupancy, timing, buffers.

Every figure is the executor's (``report_data.KernelReport``: ``execute --json``'s
summary) in the interface language; the buffers table shows what each buffer argument
held before the kernel and after it (its first elements, how many changed, the range),
the quickest check that the kernel did what it should. The timing line is the
Explorer's: cycles when the timing engine runs the scenario, else why it does not.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from explorer.gui.common.core_texts import limiter_names
from explorer.texts.numbers import count_text, num, pct, seconds_text
from explorer.gui.common.widgets import add_row, input_form, muted_label, wrap
from explorer.gui.kernel.report_data import KernelReport


def _value_text(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


class ReportView(QWidget):
    """The report of the last run (empty until one)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("kernel_report")
        self.report: KernelReport | None = None
        self.title = wrap(QLabel(self))
        self.title.setObjectName("kernel_report_title")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.placeholder = muted_label(self, self.tr(
            "Simulate the kernel: what it executed, how its memory accesses coalesced and what its buffers hold "
            "afterwards appear here."))
        self.values: dict[str, QLabel] = {}
        form = input_form()
        for key, text, tip in (
            ("executed", self.tr("Executed:"), self.tr("Warp-instructions issued by all warps (one per warp and "
                                                      "instruction), and the threads that were active in them.")),
            ("simt", self.tr("SIMT efficiency:"), self.tr("Average active lanes per issued warp-instruction ÷ 32 "
                                                         "(Nsight Compute's average active threads per warp): below "
                                                         "100% when warps diverge or a block's last warp is partial.")),
            ("memory", self.tr("Memory:"), self.tr("Global and local accesses: 32-byte sectors per request (4 is a "
                                                  "coalesced warp of 4-byte loads); shared: bank conflicts (extra "
                                                  "wavefronts).")),
            ("occupancy", self.tr("Occupancy:"), self.tr("Theoretical occupancy of this launch with the compiled "
                                                        "kernel's registers and shared memory.")),
            ("timing", self.tr("Timing:"), self.tr("Cycles and kernel time from the timing engine (the Explorer tab "
                                                  "shows the run).")),
            ("speed", self.tr("On this machine:"), self.tr("How long the functional execution took here (not a GPU "
                                                          "time)."))):
            label = wrap(QLabel(self))
            label.setObjectName(f"kernel_report_{key}")
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            add_row(form, self, text, label, tip)
            self.values[key] = label
        self.table = QTableWidget(0, 6, self)
        self.table.setObjectName("kernel_buffers")
        self.table.setHorizontalHeaderLabels([self.tr("Buffer"), self.tr("Elements"), self.tr("Changed"),
                                              self.tr("Range after"), self.tr("First values after"),
                                              self.tr("First values before")])
        self.table.setToolTip(self.tr("Each buffer argument after the kernel ran: how many elements it changed, "
                                      "their range, and its first elements after and before."))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setSizeAdjustPolicy(QTableWidget.SizeAdjustPolicy.AdjustToContents)  # no empty rows below
        self.show_button = QPushButton(self.tr("Show in the Explorer"), self)
        self.show_button.setObjectName("kernel_show_explorer")
        self.show_button.setToolTip(self.tr("The Explorer tab holds this kernel's scenario (File > Save Scenario "
                                            "saves it)."))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.placeholder)
        layout.addLayout(form)
        self.buffers_title = QLabel(self.tr("<b>Buffers</b>"), self)
        layout.addWidget(self.buffers_title)
        layout.addWidget(self.table)
        layout.addWidget(self.show_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.show_report(None)

    def show_report(self, report: KernelReport | None) -> None:
        self.report = report
        has = report is not None
        self.placeholder.setVisible(not has)
        self.buffers_title.setVisible(has)
        self.table.setVisible(has)
        self.show_button.setEnabled(has)
        if not has:
            self.title.setText("")
            for label in self.values.values():
                label.setText("—")
            self.table.setRowCount(0)
            return
        s = report.summary
        k = s["kernel"]
        self.title.setText(self.tr("{kernel} from {file} on {gpu} ({arch}): grid {grid} × block {block}").format(
            kernel=k["demangled"], file=k["file"].replace("\\", "/").rsplit("/", 1)[-1], gpu=s["gpu"], arch=s["arch"],
            grid=tuple(s["launch"]["grid"]), block=tuple(s["launch"]["block"])))
        self.values["executed"].setText(self.tr(
            "{wi} warp-instructions ({per} per warp), {ti} thread-instructions").format(
            wi=num(s["warp_instructions"]), per=num(s["warp_instructions_per_warp"], 1),
            ti=num(s["thread_instructions"])))
        self.values["simt"].setText(self.tr("{eff} (predicated on: {on})").format(
            eff=pct(s["simt_efficiency"]), on=pct(s["predicated_on_efficiency"])))
        self.values["memory"].setText(self._memory_text(s["memory"]))
        occ = s["occupancy"]
        self.values["occupancy"].setText(self.tr("{occ} ({blocks} blocks per SM; limited by {lim})").format(
            occ=pct(occ["theoretical_occupancy"]), blocks=occ["active_blocks_per_sm"],
            lim=", ".join(limiter_names().get(k, k) for k in occ["limiters"])))
        self.values["speed"].setText(self.speed_text(s["execution_seconds"], s["warp_instructions_per_second"]))
        self.show_timing(self.tr("waiting for the Explorer…"))
        self.table.setRowCount(len(report.buffers))
        for i, b in enumerate(report.buffers):
            rng = "" if b.low is None else f"{_value_text(b.low)} … {_value_text(b.high)}"
            cells = (b.name, f"{b.dtype} × {num(b.count)}", "" if b.changed is None else num(b.changed), rng,
                     ", ".join(_value_text(v) for v in b.after), ", ".join(_value_text(v) for v in b.before))
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j in (1, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)

    def speed_text(self, seconds: float, rate: float) -> str:
        """How long the execution took here, in a unit that shows it: a small kernel's 3.2 ms is not "0.00 s"."""
        if seconds <= 0 or not rate > 0:
            return self.tr("under the clock's resolution")
        return self.tr("{time} ({rate} warp-instructions/s)").format(time=seconds_text(seconds),
                                                                     rate=count_text(rate))

    def _memory_text(self, memory: dict) -> str:
        if not memory:
            return self.tr("no memory instructions")
        names = {"global_load": self.tr("global loads"), "global_store": self.tr("global stores"),
                 "global_atomic": self.tr("global atomics"), "local_load": self.tr("local loads"),
                 "local_store": self.tr("local stores"), "shared_load": self.tr("shared loads"),
                 "shared_store": self.tr("shared stores"), "shared_atomic": self.tr("shared atomics")}
        lines = []
        for name, e in memory.items():
            what = names.get(name, name.replace("_", " "))
            if "sectors" in e:
                lines.append(self.tr("{what}: {n} requests, {per} sectors per request").format(
                    what=what, n=num(e["requests"]), per=num(e["sectors_per_request"], 2)))
            else:
                lines.append(self.tr("{what}: {n} requests, {c} bank conflicts").format(
                    what=what, n=num(e["requests"]), c=num(e["bank_conflicts"])))
        return "\n".join(lines)

    def show_timing(self, text: str) -> None:
        self.values["timing"].setText(text)
