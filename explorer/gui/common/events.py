"""A Qt-free signal: a list of callbacks that ``emit`` calls in order.

The Qt-free state objects (the Explorer's session, the command stack) tell their
views about changes with these, so they can be built and tested without a
QApplication and moved between windows (a language switch rebuilds the window).
"""

from __future__ import annotations

from typing import Callable


class Event:
    """``connect(callback)``; ``emit(*args)`` calls every callback with the args."""

    def __init__(self):
        self._callbacks: list[Callable] = []

    def connect(self, callback: Callable) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable) -> None:
        self._callbacks.remove(callback)

    def is_connected(self, callback: Callable) -> bool:
        return callback in self._callbacks

    def callbacks(self) -> list[Callable]:
        """The callbacks connected now, in order (a copy)."""
        return list(self._callbacks)

    def emit(self, *args) -> None:
        for callback in list(self._callbacks):
            callback(*args)
