"""The calculator's answer: occupancy, per-resource block limits, allocations.

A limiting resource is marked three ways at once — bold text, a "◀ limiter"
marker and a tint — so the answer reads the same in greyscale, on a projector,
and for colour-blind viewers.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from explorer.gui.theme import restyle
from explorer.model.catalog import GpuSpec
from explorer.occupancy import LIMITERS, OccupancyResult


def percent(fraction: float) -> str:
    """62.5%, 50%, 33.3%: one decimal, none when it is zero."""
    text = f"{100 * fraction:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


def _resource_names() -> dict[str, str]:
    tr = QCoreApplication.translate
    return {
        "warps": tr("OccupancyResultView", "Warp slots"),
        "registers": tr("OccupancyResultView", "Registers"),
        "shared_memory": tr("OccupancyResultView", "Shared memory"),
        "blocks": tr("OccupancyResultView", "Block slots"),
        "barriers": tr("OccupancyResultView", "Named barriers"),
    }


def _resource_help() -> dict[str, str]:
    tr = QCoreApplication.translate
    return {
        "warps": tr("OccupancyResultView", "Blocks whose warps fit in the SM's warp slots."),
        "registers": tr("OccupancyResultView", "Blocks whose registers fit in the SM's register file."),
        "shared_memory": tr("OccupancyResultView", "Blocks whose shared memory fits in the SM's shared-memory carveout."),
        "blocks": tr("OccupancyResultView", "The most blocks an SM can hold, however small."),
        "barriers": tr("OccupancyResultView", "Blocks whose named barriers fit in the SM's barrier slots (CC 9.0+)."),
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
        self.stale = QLabel(self.tr("Showing the last valid result: fix the marked input."), self)
        self.stale.setProperty("role", "error")
        self.stale.setWordWrap(True)
        self.stale.hide()

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
        self.allocation = QLabel(self)
        self.allocation.setObjectName("allocation")
        self.allocation.setTextFormat(Qt.TextFormat.PlainText)

        layout = QVBoxLayout(self)
        layout.addWidget(self.occupancy)
        layout.addWidget(self.summary)
        layout.addWidget(self.stale)
        layout.addSpacing(6)
        layout.addWidget(caption)
        layout.addLayout(grid)
        layout.addSpacing(4)
        layout.addWidget(line)
        layout.addWidget(self.allocation)
        layout.addStretch(1)
        self.limiters: tuple[str, ...] = ()

    def set_stale(self, stale: bool) -> None:
        """Say that the numbers belong to an earlier, valid input."""
        self.stale.setVisible(stale)

    def show_result(self, gpu: GpuSpec, r: OccupancyResult) -> None:
        loc = QLocale()
        loc.setNumberOptions(QLocale.NumberOption.DefaultNumberOptions)  # group digits even in the C locale
        self.occupancy.setText(percent(r.occupancy))
        self.summary.setText(
            self.tr("Active warps per SM: {warps} of {max} · active blocks per SM: {blocks}").format(
                warps=r.active_warps_per_sm, max=r.max_warps_per_sm, blocks=r.active_blocks_per_sm
            )
        )
        self.limiters = tuple(r.limiters)
        for key in LIMITERS:
            limit = r.block_limits.get(key)
            self.limit_value[key].setText(self.tr("no limit") if limit is None else loc.toString(limit))
            is_limiter = key in r.limiters
            for label in (self.limit_name[key], self.limit_value[key], self.limit_mark[key]):
                if (label.property("role") == "limiter") != is_limiter:
                    label.setProperty("role", "limiter" if is_limiter else None)
                    restyle(label)
            self.limit_mark[key].setText(self.tr("◀ limiter") if is_limiter else "")
            self.limit_name[key].setAccessibleDescription(self.tr("limiter") if is_limiter else "")

        lines = [
            self.tr("Registers per block: {regs} ({warp} per warp)").format(
                regs=loc.toString(r.allocated_registers_per_block), warp=loc.toString(r.allocated_registers_per_warp)
            ),
            self.tr("Shared memory per block: {bytes} B, {reserved} B of it reserved (limit {limit} B)").format(
                bytes=loc.toString(r.allocated_shared_per_block),
                reserved=loc.toString(gpu.arch.shared_reserved_per_block),
                limit=loc.toString(r.shared_limit_per_block),
            ),
            self.tr("Shared memory per SM (carveout): {kb} KB").format(kb=loc.toString(r.shared_per_sm_config // 1024)),
        ]
        self.allocation.setText("\n".join(lines))
