"""What every tab of the main window offers the shell, the lessons and presentation mode.

A page is a ``QWidget`` the window adds with ``add_page``; everything the window,
a language switch, presentation mode or a lesson does with it goes through the
hooks below, so none of them reaches into a page's widgets:

* ``status`` / ``status_text``: one line for the status bar while the tab is current;
* ``apply_theme(theme)``: re-colours the views listed by ``themed_views()``;
* ``capture_state(live)`` / ``restore_state(state)``: the page's state as a dict —
  plain values (with ``live=False``: what the settings keep between runs) plus, with
  ``live=True``, objects a rebuilt window takes over (a run, a measurement);
* first sizes: the splitters named by ``splitters()`` get ``first_sizes()`` when the
  page is first shown, unless saved sizes were restored;
* ``show_lesson_step(step, scenario)``: a lesson step on this page's view, with the
  step's scenario (default: the step's ``gemm`` table to :meth:`apply_lesson_gemm`);
* ``presentation_hidden_widgets()``: the controls presentation mode hides, and
  ``presentation_changed(on)``: presenting starts or stops (a column that must then
  fit without scrolling);
* ``shutdown()``: the window is closing (stop timers and workers).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QSplitter, QWidget

from explorer.gui.common.settings import as_bytes
from explorer.gui.common.theme import LIGHT, Theme


class Page(QWidget):
    """A main-window tab; subclasses override the hooks they need."""

    status = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme: Theme = LIGHT
        self.status_text = ""
        self._sized = False  # the splitters got their first (or saved) sizes

    def set_status(self, text: str) -> None:
        if text != self.status_text:
            self.status_text = text
            self.status.emit(text)

    # -- theme ----------------------------------------------------------------------
    def themed_views(self) -> tuple:
        """The child views with an ``apply_theme``."""
        return ()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for view in self.themed_views():
            view.apply_theme(theme)

    # -- layout ---------------------------------------------------------------------
    def splitters(self) -> dict[str, QSplitter]:
        """The splitters whose sizes are remembered, by settings key."""
        return {}

    def first_sizes(self) -> None:
        """Give the splitters their sizes the first time the page is shown."""

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self.first_sizes()

    # -- state ----------------------------------------------------------------------
    def capture_state(self, live: bool = False) -> dict:
        """The splitters' sizes under their keys; subclasses add their own entries."""
        return {key: s.saveState() for key, s in self.splitters().items()}

    def restore_state(self, state: dict) -> None:
        """Saved splitter sizes (then the page keeps them instead of its first sizes)."""
        restored = False
        for key, s in self.splitters().items():
            blob = as_bytes(state.get(key))
            if blob is not None and s.restoreState(blob):
                restored = True
        if restored:
            self._sized = True

    # -- lessons, presentation, closing -----------------------------------------------
    def show_lesson_step(self, step, scenario=None) -> None:
        self.apply_lesson_gemm(dict(getattr(step, "gemm", {}) or {}))

    def apply_lesson_gemm(self, inputs: dict) -> None:
        """A lesson step's input table (``gemm = {...}`` in the lesson file) for this page; {}: no change."""

    def presentation_hidden_widgets(self) -> list[QWidget]:
        return []

    def presentation_changed(self, on: bool) -> None:
        """Presentation mode started (``on``) or stopped."""

    def shutdown(self) -> None:
        """The window is closing."""
