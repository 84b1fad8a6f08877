"""The selected warp's active lanes: 32 cells, lane 0 on the left, filled where the lane issues.

A warp-instruction issues for the lanes of the warp's converged group (a diverged
warp issues each path with its partial mask, one after the other: see
``explorer.sass.execute.stream``). The strip shows that mask for the instruction the
warp issues next at the cursor, as the listing's ▶ marks it: a filled cell is a lane
that issues it, an outlined one a lane that does not (diverged away or exited). Shape
carries it as well as colour, and the tooltip gives the mask in hexadecimal and the
count, so nothing depends on telling colours apart. Painting 32 rectangles per
change; nothing is laid out again during playback.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from explorer.gui.common.theme import LIGHT, Theme

LANES = 32
GROUP = 8  # a small gap after every 8 lanes: easier to read a lane's number off the strip


def mask_text(mask: int) -> str:
    """The mask as the hardware's registers hold it (bit k = lane k), e.g. ``0x0000ffff``."""
    return f"0x{mask & 0xFFFFFFFF:08x}"


def active_lanes(mask: int) -> int:
    return bin(mask & 0xFFFFFFFF).count("1")


class LaneMaskStrip(QWidget):
    """32 lane cells for one warp-instruction's active mask (None: no warp, nothing filled)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sass_lanes")
        self.mask: int | None = None
        self.theme: Theme = LIGHT
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._resize_cells()

    def _resize_cells(self) -> None:
        h = max(8, self.fontMetrics().height() - 4)
        self.cell = max(4, h // 3)  # 4 px at a 17 px line: the strip stays narrower than the warp's slot box
        self.setFixedSize(QSize(LANES * self.cell + (LANES // GROUP - 1) * 2 + 2, h + 2))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.size()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.FontChange:  # presentation mode scales it with the text
            self._resize_cells()

    def set_mask(self, mask: int | None, tip: str = "") -> None:
        if mask != self.mask:
            self.mask = mask
            self.update()
        self.setToolTip(tip)

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        on = QColor(self.theme.text)
        off = QColor(self.theme.mid)
        h = self.height() - 2
        for lane in range(LANES):
            x = 1 + lane * self.cell + (lane // GROUP) * 2
            rect = QRectF(x + 0.5, 1.5, self.cell - 2, h - 1)
            if self.mask is not None and (self.mask >> lane) & 1:
                p.fillRect(rect, on)
            else:
                p.setPen(QPen(off, 1))
                p.drawRect(rect)
        p.end()
