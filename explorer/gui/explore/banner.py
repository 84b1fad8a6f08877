"""A notice drawn over a view while what it shows is not the final picture yet.

The SM grid and the timeline keep showing the last run while a new one is
simulated, and a long run's grid fills in the SMs the simulator did not keep a
few at a time. Without a word on the view itself, an SM with no states yet looks
idle and an old picture looks current; the banner says "simulating… 42%" or
"filling in SMs 56–131…" right where the eye is. It ignores the mouse (clicks and
hovers go to the view under it) and stays centred on the area it is given.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QLabel, QWidget

from explorer.gui.common.theme import LIGHT, Theme


class Banner(QLabel):
    """A framed, word-wrapped line over ``parent``; empty text hides it."""

    def __init__(self, parent: QWidget, name: str):
        super().__init__(parent)
        self.setObjectName(name)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setMargin(8)
        self.setAutoFillBackground(False)
        self.area: QRect | None = None  # where to centre (parent coordinates); None: the whole parent
        self.theme: Theme = LIGHT
        self.apply_theme(LIGHT)
        self.hide()
        parent.installEventFilter(self)

    def apply_theme(self, theme: Theme) -> None:
        """Painted, not styled: a style sheet here would undo presentation mode's font scaling."""
        self.theme = theme
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.WindowText, QColor(theme.text))
        self.setPalette(pal)
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(self.theme.marker), 2))
        p.setBrush(QColor(self.theme.base))
        p.drawRoundedRect(self.rect().adjusted(1, 1, -1, -1), 6, 6)
        p.end()
        super().paintEvent(event)

    def show_text(self, text: str, area: QRect | None = None) -> None:
        """Show ``text`` centred on ``area`` (the whole parent when None); "" hides the banner."""
        self.area = area
        if not text:
            self.hide()
            return
        if text != self.text():
            self.setText(text)
        self._place()
        self.show()
        self.raise_()

    def _place(self) -> None:
        parent = self.parentWidget()
        area = self.area if self.area is not None else parent.rect()
        width = max(120, min(parent.width() - 16, max(area.width() - 16, 0), 520))
        height = self.heightForWidth(width)
        if height <= 0:
            height = self.sizeHint().height()
        x = max(0, min(area.center().x() - width // 2, parent.width() - width))
        y = max(0, min(area.center().y() - height // 2, parent.height() - height))
        self.setGeometry(x, y, width, height)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.parentWidget() and event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return False
