"""An integer input that can hold a wrong value and say what is wrong with it.

A ``QSpinBox`` silently refuses "abc" or -5, so the user never learns the rule;
this field accepts any text, lets the core's validator judge it, and shows the
core's message right under the field (red border *and* text). Up/Down (and
Page Up/Down for ten steps) change the number, so it stays keyboard-friendly.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QSizePolicy, QStyle, QStyleOptionFrame, QVBoxLayout, QWidget

from explorer.gui.common.error_texts import core_message
from explorer.gui.common.theme import restyle
from explorer.gui.common.widgets import error_label


class _StepEdit(QLineEdit):
    """A line edit whose arrow keys step its number (an integer, or a decimal such as 87.5), never
    narrower than its text or placeholder ("4096" never shows as "409", in any language or presentation
    scale)."""

    def __init__(self, step: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.step = step
        self.textChanged.connect(self.updateGeometry)

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 - Qt API
        super().setPlaceholderText(text)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = super().minimumSizeHint()
        opt = QStyleOptionFrame()
        self.initStyleOption(opt)
        inner = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, self)
        margins = self.textMargins()
        frame = self.width() - inner.width() + margins.left() + margins.right() + 4 + 2  # 2 px each side: Qt's own
        widest = max(self.fontMetrics().horizontalAdvance(t) for t in (self.text(), self.placeholderText(), "0"))
        return QSize(max(hint.width(), widest + frame), hint.height())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        steps = {
            Qt.Key.Key_Up: 1,
            Qt.Key.Key_Down: -1,
            Qt.Key.Key_PageUp: 10,
            Qt.Key.Key_PageDown: -10,
        }.get(Qt.Key(event.key()))
        if steps is None:
            super().keyPressEvent(event)
            return
        text = self.text().strip()
        try:
            value = int(text)
        except ValueError:
            try:  # a field that takes decimals (a percentage): step it, keeping its decimals
                value = Decimal(text.replace(",", "."))
            except InvalidOperation:
                return  # nothing sensible to step from; the error message already says why
            if not value.is_finite():
                return
        self.setText(str(value + steps * self.step))
        event.accept()


class IntField(QWidget):
    """A line edit plus the message line under it; focus goes to the edit."""

    edited = Signal(str)

    def __init__(self, text: str, step: int = 1, parent: QWidget | None = None):
        super().__init__(parent)
        self.edit = _StepEdit(step, self)
        self.edit.setText(text)
        self.edit.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.error = error_label(self)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        self.setFocusProxy(self.edit)
        self._help = ""
        self.edit.textChanged.connect(self.edited)

    def text(self) -> str:
        return self.edit.text()

    def set_text(self, text: str) -> None:
        self.edit.setText(text)

    def set_help(self, text: str) -> None:
        """The one-sentence explanation shown as the tooltip (and to screen readers)."""
        self._help = text
        self.edit.setToolTip(text)
        self.edit.setAccessibleDescription(text)

    @property
    def message(self) -> str:
        """The error shown now ("" when the value is valid)."""
        return self.error.text() if self.is_invalid else ""

    @property
    def is_invalid(self) -> bool:
        return bool(self.edit.property("invalid"))

    def set_error(self, message: str | None) -> None:
        """Show ``message`` under the field (a core message in the interface language); None clears it."""
        message = core_message(message)
        invalid = bool(message)
        if invalid == self.is_invalid and (not invalid or message == self.error.text()):
            return
        self.edit.setProperty("invalid", invalid)
        restyle(self.edit)
        self.error.setText(message or "")
        self.error.setVisible(invalid)
        self.edit.setToolTip(f"{self._help}\n\n{message}" if invalid and self._help else (message or self._help))


class FieldTexts:
    """For a form that keeps its IntFields in ``self.fields`` (name -> field): their texts by name."""

    fields: dict[str, IntField]

    def raw_values(self) -> dict[str, str]:
        return {name: field.text() for name, field in self.fields.items()}

    def set_values(self, values: dict) -> None:
        """Set the fields ``values`` names (other names are ignored)."""
        for name, value in values.items():
            if name in self.fields:
                self.fields[name].set_text(str(value))


def show_field_errors(fields: dict[str, IntField], errors: dict[str, str], empty_message: str) -> None:
    """Mark each field with its message in ``errors`` (clear the others); an empty field says ``empty_message``."""
    for name, field in fields.items():
        message = errors.get(name)
        if message is not None and not field.text().strip():
            message = empty_message
        field.set_error(message)
