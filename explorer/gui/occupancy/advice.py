"""What would raise occupancy: the best block size and the core's hints.

The hints are computed by ``explorer.occupancy.hints`` (each re-runs the
calculator with one input changed), so the advice is always about *this*
configuration; the view only lays them out and offers to apply the block size.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from explorer.texts.numbers import pct
from explorer.gui.occupancy.session import Evaluation


def hint_templates() -> dict[str, str]:
    """The core's hint templates (``explorer.occupancy.hints``: TEMPLATES, STATE, STATE_ONE) -> this language.

    Literal copies, so lupdate finds them; a test checks they match the core's exactly.
    """
    translate = QCoreApplication.translate
    return {
        "Every warp slot is in use: {state}.": translate("OccupancyHints", "Every warp slot is in use: {state}."),
        "Registers are at the edge: {regs} or more per thread would drop occupancy.": translate(
            "OccupancyHints", "Registers are at the edge: {regs} or more per thread would drop occupancy."),
        "Up to {regs} registers per thread keep full occupancy.": translate(
            "OccupancyHints", "Up to {regs} registers per thread keep full occupancy."),
        "{regs} registers per thread is above the hardware maximum of {limit}: the kernel cannot launch.": translate(
            "OccupancyHints",
            "{regs} registers per thread is above the hardware maximum of {limit}: the kernel cannot launch."),
        "Registers limit you to {state}. With at most {regs} registers per thread, {better} would fit.": translate(
            "OccupancyHints",
            "Registers limit you to {state}. With at most {regs} registers per thread, {better} would fit."),
        "Registers limit you to {state}; fewer registers alone would not help, another limit binds too.": translate(
            "OccupancyHints",
            "Registers limit you to {state}; fewer registers alone would not help, another limit binds too."),
        "The block needs {bytes} bytes of shared memory (with {reserved} reserved), above the per-block "
        "limit of {limit}: the kernel cannot launch.": translate(
            "OccupancyHints",
            "The block needs {bytes} bytes of shared memory (with {reserved} reserved), above the per-block "
            "limit of {limit}: the kernel cannot launch."),
        "Shared memory limits you to {state}.": translate("OccupancyHints", "Shared memory limits you to {state}."),
        "The carveout of {carveout}% leaves {kb} KB; 100% would allow {better}.": translate(
            "OccupancyHints", "The carveout of {carveout}% leaves {kb} KB; 100% would allow {better}."),
        "With at most {bytes} bytes per block, {better} would fit.": translate(
            "OccupancyHints", "With at most {bytes} bytes per block, {better} would fit."),
        "{threads} threads per block is above the limit of {limit}: the kernel cannot launch.": translate(
            "OccupancyHints", "{threads} threads per block is above the limit of {limit}: the kernel cannot launch."),
        "Blocks of {warps} warps leave {empty} of {max} warp slots empty ({state}).": translate(
            "OccupancyHints", "Blocks of {warps} warps leave {empty} of {max} warp slots empty ({state})."),
        "Blocks of {threads} threads would reach {pct}%.": translate(
            "OccupancyHints", "Blocks of {threads} threads would reach {pct}%."),
        "An SM holds at most {limit} blocks: {state}.": translate(
            "OccupancyHints", "An SM holds at most {limit} blocks: {state}."),
        "Blocks of at least {threads} threads could fill every warp slot.": translate(
            "OccupancyHints", "Blocks of at least {threads} threads could fill every warp slot."),
        "Named barriers limit you to {state}: the SM has {total} and each block uses {barriers}.": translate(
            "OccupancyHints",
            "Named barriers limit you to {state}: the SM has {total} and each block uses {barriers}."),
        "{blocks} blocks per SM ({warps} of {max} warps, {pct}%)": translate(
            "OccupancyHints", "{blocks} blocks per SM ({warps} of {max} warps, {pct}%)"),
        "1 block per SM ({warps} of {max} warps, {pct}%)": translate(
            "OccupancyHints", "1 block per SM ({warps} of {max} warps, {pct}%)"),
    }


def hint_text(hint) -> str:
    """A core ``Hint`` in the interface language (a template the table lacks stays English)."""
    table = hint_templates()
    return hint.text(lambda template: table.get(template, template))


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
        self.use_best = QPushButton(self.tr("Use &it"), self)
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
        current = ev.query.threads
        ties = (threads and current != threads
                and current * ev.result.active_blocks_per_sm == threads * blocks)
        if ties:  # NVIDIA's configurator takes the largest of equals: the user's size is as good (issue 31 item 13)
            self._best_threads = 0
            self.best.setText(
                self.tr("Best block size: your {current} threads already reach the most (occupancy {occ}); {threads} "
                        "ties (NVIDIA's configurator picks the largest of equals).").format(
                    current=current, threads=threads, occ=pct(ev.best_occupancy)))
        elif threads:
            self.best.setText(
                self.tr("Best block size: {threads} threads (occupancy {occ}, blocks per SM: {blocks}).").format(
                    threads=threads, blocks=blocks, occ=pct(ev.best_occupancy)
                )
            )
        else:
            self.best.setText(self.tr("No block size fits with these registers and shared memory."))
        self.use_best.setEnabled(bool(self._best_threads) and self._best_threads != current)
        self.hints.setText("\n\n".join(f"• {hint_text(h)}" for h in ev.hint_items))

    def _on_use(self) -> None:
        if self._best_threads:
            self.use_block_size.emit(self._best_threads)
