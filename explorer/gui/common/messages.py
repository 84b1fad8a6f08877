"""The window's one kind of warning: a message box that does not block.

Features tell the user what went wrong (a file that cannot be opened, a refused
save, a failed GPU run, an export that cannot be written) with :func:`warn`: a
window-modal box opened with ``open()`` rather than ``exec()``, so the event loop,
tests and scripts go on while it is shown, and it deletes itself when closed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def warn(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """Show ``text`` in a warning box over ``parent``; the box (already open)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Close, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
    return box
