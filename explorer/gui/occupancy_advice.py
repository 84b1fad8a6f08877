"""What would raise occupancy: the best block size and the core's hints.

The hints are computed by ``explorer.occupancy.hints`` (each re-runs the
calculator with one input changed), so the advice is always about *this*
configuration; the view only lays them out and offers to apply the block size.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from explorer.gui.occupancy_result import percent
from explorer.gui.occupancy_session import Evaluation


class OccupancyAdvice(QGroupBox):
    """Best block size (with a button to use it) and one line per limiting resource."""

    use_block_size = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("What limits occupancy"))
        self.best = QLabel(self)
        self.best.setObjectName("best_block_size")
        self.best.setWordWrap(True)
        self.best.setToolTip(
            self.tr("The block size with the most active threads per SM for these registers and shared memory "
                    "(the rule of cudaOccupancyMaxPotentialBlockSize).")
        )
        self.use_best = QPushButton(self.tr("&Use it"), self)
        self.use_best.setToolTip(self.tr("Put the best block size into the threads-per-block field."))
        self.use_best.clicked.connect(self._on_use)
        self.hints = QLabel(self)
        self.hints.setObjectName("hints")
        self.hints.setWordWrap(True)
        self.hints.setTextFormat(Qt.TextFormat.PlainText)
        self.hints.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.hints.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        best_row = QHBoxLayout()
        best_row.addWidget(self.best, 1)
        best_row.addWidget(self.use_best, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addLayout(best_row)
        layout.addSpacing(6)
        layout.addWidget(self.hints)
        layout.addStretch(1)
        self._best_threads = 0

    def show_evaluation(self, ev: Evaluation) -> None:
        threads, blocks = ev.best_block
        self._best_threads = threads
        if threads:
            self.best.setText(
                self.tr("Best block size: {threads} threads (occupancy {occ}, blocks per SM: {blocks}).").format(
                    threads=threads, blocks=blocks, occ=percent(ev.best_occupancy)
                )
            )
        else:
            self.best.setText(self.tr("No block size fits with these registers and shared memory."))
        self.use_best.setEnabled(bool(threads) and threads != ev.query.threads)
        self.hints.setText("\n\n".join(f"• {line}" for line in ev.hints))

    def _on_use(self) -> None:
        if self._best_threads:
            self.use_block_size.emit(self._best_threads)
