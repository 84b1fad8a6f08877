"""No exception reaches the event loop: bugs are logged and shown, never only printed.

An exception raised in a slot, an event handler or a task callback goes to
``sys.excepthook``; :func:`install` (called by ``app.run`` for the real window)
replaces Python's hook, which prints the traceback to a console the user may not
have, by one that logs it (logger ``warp_explorer``) and shows one line in a
warning box over the active window, and the app goes on. Work that fails in a
worker thread is reported the same way (:func:`report_bug`) by the task runner.
Expected problems (bad input, a file that cannot be read) never get here: the
feature that meets them shows its own message.
"""

from __future__ import annotations

import logging
import sys
import traceback

log = logging.getLogger("warp_explorer")
_previous = None
_shown: list = []  # the open message boxes (one without a parent window is kept alive here)


def report_bug(where: str, detail: str) -> None:
    """Log a bug's traceback (``detail``) with where it happened."""
    log.error("unexpected error in %s (a bug):\n%s", where, detail.rstrip())


def last_line(detail: str) -> str:
    lines = [line for line in detail.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "?"


def _hook(kind, value, tb) -> None:
    if issubclass(kind, KeyboardInterrupt):  # Ctrl+C in the terminal: Python's own behaviour
        (_previous or sys.__excepthook__)(kind, value, tb)
        return
    detail = "".join(traceback.format_exception(kind, value, tb))
    report_bug("the window", detail)
    try:
        from PySide6.QtCore import QCoreApplication
        from PySide6.QtWidgets import QApplication

        from explorer.gui.common.messages import warn

        if QApplication.instance() is not None:
            box = warn(QApplication.activeWindow(), QCoreApplication.translate("Guard", "Warp Explorer"),
                       QCoreApplication.translate("Guard", "Unexpected error (a bug; the details are in the log): {m}")
                       .format(m=last_line(detail)))
            _shown.append(box)
            box.finished.connect(lambda _result, b=box: _shown.remove(b) if b in _shown else None)
    except Exception:  # noqa: BLE001 - showing the message must never raise in turn
        log.exception("could not show the error message")


def install() -> None:
    """Route uncaught exceptions to the log and a message box (idempotent)."""
    global _previous
    if sys.excepthook is not _hook:
        _previous = sys.excepthook
        sys.excepthook = _hook


def uninstall() -> None:
    global _previous
    if sys.excepthook is _hook:
        sys.excepthook = _previous or sys.__excepthook__
        _previous = None
