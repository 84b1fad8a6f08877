"""Legends outside the plots: the warp states (a swatch and a name each, the meaning in the tooltip),
and rows of line samples with curve names (the counts plot's and the measured curves').

Both wrap onto more lines rather than clip (:class:`~explorer.gui.common.flow_layout.FlowLayout`):
in a narrow column or at a projector's scale every name stays whole."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QSize
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from explorer.gui.common.flow_layout import FlowLayout
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
    """Every state, in the order that explains a cycle: issued, eligible, then the stalls; in as many
    equal columns as the width holds."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("state_legend")
        flow = FlowLayout(self, spacing=10, line_spacing=2, uniform=True)
        flow.setContentsMargins(4, 2, 4, 2)
        names, long_names, meaning = short_names(), display_names(), meanings()
        self.swatches: list[Swatch] = []
        self.labels: dict[int, QLabel] = {}
        for code in DISPLAY_ORDER:
            entry = QWidget(self)
            row = QHBoxLayout(entry)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(6)
            swatch = Swatch(code, entry)
            label = QLabel(names[code], entry)
            tip = f"<b>{long_names[code]}</b><br>{meaning[code]}"
            swatch.setToolTip(tip)
            label.setToolTip(tip)
            row.addWidget(swatch)
            row.addWidget(label)
            row.addStretch(1)
            flow.addWidget(entry)
            self.swatches.append(swatch)
            self.labels[code] = label
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def apply_theme(self, theme: Theme) -> None:
        for s in self.swatches:
            s.theme = theme
            s.update()


class LineSample(QWidget):
    """A short line drawn with a curve's pen (``pen()``, read at every paint; None draws nothing)."""

    def __init__(self, pen: Callable[[], QPen | None], parent: QWidget, antialias: bool = True):
        super().__init__(parent)
        self.pen, self.antialias = pen, antialias
        self.setFixedSize(QSize(28, 12))
        self.setProperty("flow_keep_with_next", True)  # a sample never ends a line without its name

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        pen = self.pen()
        if pen is None:
            return
        p = QPainter(self)
        if self.antialias:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(pen))
        p.drawLine(QPointF(1, self.height() / 2), QPointF(self.width() - 1, self.height() / 2))
        p.end()


class LegendRow(QWidget):
    """Line samples and curve names outside the plot, on as many lines as the width needs."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = FlowLayout(self, spacing=4, line_spacing=0)
        layout.setContentsMargins(4, 0, 4, 0)
        self.samples: list[LineSample] = []
        # as narrow as its row gives it (a window's minimum width does not grow with it); it wraps instead
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def add_curve(self, pen: Callable[[], QPen | None], name: str, tip: str, antialias: bool = True) -> QLabel:
        """A sample and the curve's name (both with ``tip``); returns the name's label."""
        sample = LineSample(pen, self, antialias)
        label = QLabel(name, self)
        sample.setToolTip(tip)
        label.setToolTip(tip)
        label.setProperty("flow_keep_with_next", False)
        layout = self.layout()
        layout.addWidget(sample)
        layout.addWidget(label)
        layout.addSpacing(10)
        self.samples.append(sample)
        return label

    def refresh(self) -> None:
        """Repaint the samples (the pens changed with the theme)."""
        for sample in self.samples:
            sample.update()
