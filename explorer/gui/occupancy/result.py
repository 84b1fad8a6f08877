"""The calculator's answer: occupancy, per-resource block limits, allocations.

A limiting resource is marked three ways at once — bold text, a "◀ limiter"
marker and a tint — so the answer reads the same in greyscale, on a projector,
and for colour-blind viewers.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from explorer.texts.numbers import num, pct
from explorer.gui.common.theme import restyle
from explorer.gui.common.widgets import error_label
from explorer.model.catalog import GpuSpec
from explorer.occupancy import LIMITERS, OccupancyResult


def _resource_names() -> dict[str, str]:
    return {
        "warps": QCoreApplication.translate("OccupancyResultView", "Warp slots"),
        "registers": QCoreApplication.translate("OccupancyResultView", "Registers"),
        "shared_memory": QCoreApplication.translate("OccupancyResultView", "Shared memory"),
        "blocks": QCoreApplication.translate("OccupancyResultView", "Block slots"),
        "barriers": QCoreApplication.translate("OccupancyResultView", "Named barriers"),
    }


def _resource_help() -> dict[str, str]:
    return {
        "warps": QCoreApplication.translate(
            "OccupancyResultView", "Blocks whose warps fit in the SM's warp slots."),
        "registers": QCoreApplication.translate(
            "OccupancyResultView", "Blocks whose registers fit in the SM's register file."),
        "shared_memory": QCoreApplication.translate(
            "OccupancyResultView", "Blocks whose shared memory fits in the SM's shared-memory carveout."),
        "blocks": QCoreApplication.translate(
            "OccupancyResultView", "The most blocks an SM can hold, however small."),
        "barriers": QCoreApplication.translate(
            "OccupancyResultView", "Blocks whose named barriers fit in the SM's barrier slots (CC 9.0+)."),
    }


class OccupancyResultView(QGroupBox):
    """Numbers only; everything shown comes from an ``OccupancyResult``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("Theoretical occupancy"))
        self.occupancy = QLabel("–", self)
        self.occupancy.setObjectName("occupancy_percent")
        self.occupancy.setProperty("role", "big-number")
        self.occupancy.setToolTip(self.tr("Active warps per SM ÷ the most warps an SM can hold."))
        self.summary = QLabel(self)
        self.summary.setObjectName("occupancy_summary")
        self.summary.setWordWrap(True)
        self.stale = error_label(self, self.tr("Showing the last valid result: fix the marked input."))

        caption = QLabel(self.tr("Blocks per SM each resource allows:"), self)
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(3, 1)
        names, helps = _resource_names(), _resource_help()
        self.limit_name: dict[str, QLabel] = {}
        self.limit_value: dict[str, QLabel] = {}
        self.limit_mark: dict[str, QLabel] = {}
        for row, key in enumerate(LIMITERS):
            name, value, mark = QLabel(names[key], self), QLabel(self), QLabel(self)
            for label in (name, value, mark):
                label.setProperty("role", "limit")  # same padding as a limiter: rows never shift
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value.setObjectName(f"limit_{key}")
            for label in (name, value):
                label.setToolTip(helps[key])
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
            grid.addWidget(mark, row, 2)
            self.limit_name[key], self.limit_value[key], self.limit_mark[key] = name, value, mark

        line = QFrame(self)
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Plain)
        line.setForegroundRole(QPalette.ColorRole.Mid)
        allocation = QGridLayout()
        allocation.setHorizontalSpacing(12)
        allocation.setVerticalSpacing(2)
        allocation.setColumnStretch(1, 1)
        self.allocation: dict[str, QLabel] = {}
        for row, (key, text, tip) in enumerate(self._allocation_rows()):
            name, value = QLabel(text, self), QLabel(self)
            value.setObjectName(f"allocation_{key}")
            value.setWordWrap(True)
            for label in (name, value):
                label.setToolTip(tip)
            allocation.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            allocation.addWidget(value, row, 1, Qt.AlignmentFlag.AlignTop)
            self.allocation[key] = value

        layout = QVBoxLayout(self)
        layout.addWidget(self.occupancy)
        layout.addWidget(self.summary)
        layout.addWidget(self.stale)
        layout.addSpacing(6)
        layout.addWidget(caption)
        layout.addLayout(grid)
        layout.addSpacing(4)
        layout.addWidget(line)
        layout.addLayout(allocation)
        layout.addStretch(1)
        self.limiters: tuple[str, ...] = ()

    def _allocation_rows(self) -> list[tuple[str, str, str]]:
        return [
            ("registers", self.tr("Registers per block:"),
             self.tr("Registers allocated to one block: per warp, rounded up to the allocation unit.")),
            ("shared", self.tr("Shared memory per block:"),
             self.tr("Static + dynamic + the per-block reserve, rounded up to the allocation unit.")),
            ("shared_limit", self.tr("Per-block limit:"),
             self.tr("The most shared memory one block may allocate (48 KB, or the opt-in maximum), plus the reserve.")),
            ("shared_sm", self.tr("Shared memory per SM:"),
             self.tr("The SM's shared-memory size under this carveout, raised if one block needs more.")),
        ]

    def set_stale(self, stale: bool) -> None:
        """Say that the numbers belong to an earlier, valid input."""
        self.stale.setVisible(stale)

    def show_result(self, gpu: GpuSpec, r: OccupancyResult) -> None:
        self.occupancy.setText(pct(r.occupancy))
        self.summary.setText(
            self.tr("Active warps per SM: {warps} of {max}\nActive blocks per SM: {blocks}").format(
                warps=r.active_warps_per_sm, max=r.max_warps_per_sm, blocks=r.active_blocks_per_sm
            )
        )
        self.limiters = tuple(r.limiters)
        for key in LIMITERS:
            limit = r.block_limits.get(key)
            self.limit_value[key].setText(self.tr("no limit") if limit is None else num(limit))
            is_limiter = key in r.limiters
            for label in (self.limit_name[key], self.limit_value[key], self.limit_mark[key]):
                if (label.property("role") == "limiter") != is_limiter:
                    label.setProperty("role", "limiter" if is_limiter else "limit")
                    restyle(label)
            self.limit_mark[key].setText(self.tr("◀ limiter") if is_limiter else "")
            self.limit_name[key].setAccessibleDescription(self.tr("limiter") if is_limiter else "")

        values = {
            "registers": self.tr("{regs} ({warp} per warp)").format(
                regs=num(r.allocated_registers_per_block), warp=num(r.allocated_registers_per_warp)
            ),
            "shared": self.tr("{bytes} B (incl. {reserved} B reserved)").format(
                bytes=num(r.allocated_shared_per_block),
                reserved=num(gpu.arch.shared_reserved_per_block),
            ),
            "shared_limit": self.tr("{bytes} B").format(bytes=num(r.shared_limit_per_block)),
            "shared_sm": self.tr("{kb} KB").format(kb=num(r.shared_per_sm_config // 1024)),
        }
        for key, text in values.items():
            self.allocation[key].setText(text)
