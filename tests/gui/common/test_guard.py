"""An exception in a slot is logged and shown in a message, and the event loop goes on."""

from __future__ import annotations

import logging

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from explorer.gui.common import guard


def _boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_a_slot_exception_is_logged_and_shown(qapp, qtbot, caplog):
    import sys

    before = sys.excepthook
    guard.install()
    guard.install()  # idempotent
    try:
        with caplog.at_level(logging.ERROR, logger="warp_explorer"):
            QTimer.singleShot(0, lambda: 1 / 0)
            qtbot.waitUntil(lambda: bool(_boxes()), timeout=5000)
            later = []
            QTimer.singleShot(0, lambda: later.append(True))  # the event loop goes on
            qtbot.waitUntil(lambda: later == [True], timeout=5000)
    finally:
        guard.uninstall()
    assert sys.excepthook is before
    (box,) = _boxes()
    assert "ZeroDivisionError: division by zero" in box.text() and "a bug" in box.text()
    assert "Traceback" in caplog.text and "1 / 0" in caplog.text
    box.close()


def test_last_line_of_a_traceback():
    assert guard.last_line("Traceback (most recent call last):\n  x\nValueError: bad\n\n") == "ValueError: bad"
    assert guard.last_line("") == "?"
