"""The warp-state legend: a swatch and a name per state, the meaning in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QWidget

from explorer.gui.common.state_colors import display_names, meanings, short_names, state_color
from explorer.gui.common.state_order import DISPLAY_ORDER
from explorer.gui.common.theme import LIGHT, Theme


class Swatch(QWidget):
    def __init__(self, code: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.code = code
        self.theme: Theme = LIGHT
        side = self.fontMetrics().height() - 2
        self.setFixedSize(QSize(side, side))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(state_color(self.code, self.theme.dark)))
        p.setPen(QPen(QColor(self.theme.mid), 1))
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        p.end()


class StateLegend(QWidget):
    """Every state, in the order that explains a cycle: issued, eligible, then the stalls."""

    def __init__(self, columns: int = 6, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("state_legend")
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        names, long_names, meaning = short_names(), display_names(), meanings()
        self.swatches: list[Swatch] = []
        self.labels: dict[int, QLabel] = {}
        for i, code in enumerate(DISPLAY_ORDER):
            row, col = divmod(i, columns)
            swatch = Swatch(code, self)
            label = QLabel(names[code], self)
            tip = f"<b>{long_names[code]}</b><br>{meaning[code]}"
            swatch.setToolTip(tip)
            label.setToolTip(tip)
            grid.addWidget(swatch, row, 2 * col)
            grid.addWidget(label, row, 2 * col + 1)
            self.swatches.append(swatch)
            self.labels[code] = label
        for col in range(columns):
            grid.setColumnStretch(2 * col + 1, 1)
        # clipped rather than widening the window (tooltips carry the same text)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def apply_theme(self, theme: Theme) -> None:
        for s in self.swatches:
            s.theme = theme
            s.update()
