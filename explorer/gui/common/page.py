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
  page is first shown, unless usable saved sizes were restored (:func:`usable_sizes`:
  a splitter that was never laid out saves -1 per pane, and a pane squeezed below
  its minimum is collapsed; such sizes are ignored and the default layout is used);
* ``view_state()`` / ``restore_view_state(state)``: what a lesson changes on the page
  and gives back when it ends (by default the page's plain state; the Explorer leaves
  its scenario out: a lesson keeps the scenario it reached);
* ``show_lesson_step(step, scenario)``: a lesson step on this page's view, with the
  step's scenario (default: the step's ``gemm`` table to :meth:`apply_lesson_gemm`);
  ``follow_lesson(step, scenario)``: every step, on every page, so no tab shows
  something the lesson contradicts (the calculator takes the step's launch);
* ``presentation_hidden_widgets()``: the controls presentation mode hides, and
  ``presentation_changed(on)``: presenting starts or stops (a column that must then
  fit without scrolling);
* ``shutdown()``: the window is closing (stop timers and workers).

Built when first needed (start-up time): a page that is not in front at start-up and costs
time to build (plots, sweeps, tables) calls :meth:`Page.build_later` in its ``__init__`` and
makes its widgets in :meth:`Page.build`. It is built the first time it is shown, when anything
asks it for an attribute it does not have yet (its widgets, a method's data), on
:meth:`Page.ensure_built`, or by the window once the first simulation is on screen, so the
first result does not wait for tabs nobody looks at yet. Until then the hooks marked
:func:`deferred` (the theme, restored state, the Explorer's runs) are kept and replayed in
order once it is built, ``capture_state`` gives back the state it was given, and
:meth:`Page.on_built` runs a feature's additions to its widgets after the build.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QSplitter, QWidget

from explorer.gui.common.settings import as_bytes, splitter_sizes
from explorer.gui.common.theme import LIGHT, Theme


def pane_minimum(splitter: QSplitter, index: int) -> int:
    """The smallest size pane ``index`` can be shown at, along the splitter (at least 1 px)."""
    w = splitter.widget(index)
    horizontal = splitter.orientation() == Qt.Orientation.Horizontal
    hint, own = w.minimumSizeHint(), w.minimumSize()
    return max(1, own.width() if horizontal else own.height(),
               (hint.width() if horizontal else hint.height()) if hint.isValid() else 0)


def usable_sizes(splitter: QSplitter, sizes: list[int] | None) -> bool:
    """Whether ``sizes`` give every pane of ``splitter`` at least its minimum (not collapsed, not -1; a pane
    made to fold, ``FittingSplitter.setCollapsible``, may be folded: 0)."""
    return (sizes is not None and len(sizes) == splitter.count()
            and all(size >= pane_minimum(splitter, i) or (size == 0 and splitter.widget(i).property("foldable"))
                    for i, size in enumerate(sizes)))


def deferred(method):
    """A page hook that an unbuilt page keeps (its latest call) and makes once it is built."""

    @functools.wraps(method)
    def hook(self, *args, **kwargs):
        pending = self.__dict__.get("_pending_calls")
        if pending is not None:
            pending.pop(method.__name__, None)  # the latest call, in the order of the latest calls
            pending[method.__name__] = (args, kwargs)
            return None
        return method(self, *args, **kwargs)

    return hook


def _kept_until_built(method):
    """``capture_state`` of an unbuilt page: the state it was given (nothing on it has changed since)."""

    @functools.wraps(method)
    def capture(self, *args, **kwargs):
        kept = self.kept_state()
        return kept if kept is not None else method(self, *args, **kwargs)

    return capture


def _skipped_until_built(method):
    """``shutdown`` of an unbuilt page: nothing to stop."""

    @functools.wraps(method)
    def hook(self, *args, **kwargs):
        return method(self, *args, **kwargs) if self.built else None

    return hook


# the hooks every page's own definitions get wrapped in (Page.__init_subclass__), so a page that builds
# later needs nothing else to take part in the window's restore / save / close
_UNBUILT_HOOKS = {"restore_state": deferred, "capture_state": _kept_until_built, "shutdown": _skipped_until_built}


class Page(QWidget):
    """A main-window tab; subclasses override the hooks they need."""

    status = Signal(str)
    # nothing on a page stops a language switch unless it says why (a method); None here also keeps the
    # window's look-up of the hook from building a page built later
    rebuild_blocker = None

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme: Theme = LIGHT
        self.status_text = ""
        self._sized = False  # the splitters got their first (or saved) sizes
        self._pending_calls: dict | None = None  # an unbuilt page's deferred hook calls (None: built)
        self._when_built: list[Callable] = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, wrap in _UNBUILT_HOOKS.items():
            if name in cls.__dict__:
                setattr(cls, name, wrap(cls.__dict__[name]))

    # -- built when first needed ------------------------------------------------------
    def build_later(self) -> None:
        """Put :meth:`build` off until the page is first needed (see the module docstring)."""
        self._pending_calls = {}

    def build(self) -> None:
        """A page that builds later makes its widgets here (what ``__init__`` does for the others)."""

    @property
    def built(self) -> bool:
        return self.__dict__.get("_pending_calls") is None

    def ensure_built(self) -> None:
        """Build now if not built yet; the kept hook calls follow, then the features' additions."""
        pending = self.__dict__.get("_pending_calls")
        if pending is None:
            return
        self._pending_calls = None
        self.build()
        self.apply_theme(self.theme)
        for name, (args, kwargs) in pending.items():
            getattr(self, name)(*args, **kwargs)
        callbacks, self._when_built = self._when_built, []
        for callback in callbacks:
            callback(self)

    def on_built(self, callback: Callable[[Page], None]) -> None:
        """``callback(page)`` once the page is built (now, if it is)."""
        if self.built:
            callback(self)
        else:
            self._when_built.append(callback)

    def __getattr__(self, name: str):
        """An attribute an unbuilt page does not have yet (one of its widgets): build, then look again."""
        if not name.startswith("__") and self.__dict__.get("_pending_calls") is not None:
            self.ensure_built()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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
        if not self.built:
            return  # applied once built
        for view in self.themed_views():
            view.apply_theme(theme)

    # -- layout ---------------------------------------------------------------------
    def splitters(self) -> dict[str, QSplitter]:
        """The splitters whose sizes are remembered, by settings key."""
        return {}

    def first_sizes(self) -> None:
        """Give the splitters their sizes the first time the page is shown."""

    def setVisible(self, visible: bool) -> None:  # noqa: N802 - Qt API
        """Built before it is first shown (in showEvent its new widgets would still be hidden, and laid out
        only after the first sizes were given)."""
        if visible and not self.built:
            self.ensure_built()
        super().setVisible(visible)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self.first_sizes()

    @property
    def laid_out(self) -> bool:
        """Whether the splitters have their first (or saved) sizes: before, their sizes are no layout anyone
        chose (a page built but never shown), so nothing should keep them or scale from them."""
        return self._sized

    def default_layout(self) -> None:
        """The splitters' first sizes now (a lesson's layout), or at the first show if not shown yet."""
        if self.isVisible():
            self._sized = True
            self.first_sizes()
        else:
            self._sized = False

    # -- state ----------------------------------------------------------------------
    def splitter_state(self) -> dict:
        """The splitters' sizes under their keys (only usable ones: a splitter never laid out is left out)."""
        out = {}
        for key, s in self.splitters().items():
            blob = s.saveState()
            if usable_sizes(s, splitter_sizes(blob)):
                out[key] = blob
        return out

    def restore_splitters(self, state: dict) -> None:
        """Saved splitter sizes (then the page keeps them instead of its first sizes), when every one is usable."""
        splitters = self.splitters()
        blobs = {key: as_bytes(state.get(key)) for key in splitters}
        if not splitters or not all(usable_sizes(s, splitter_sizes(blobs[key])) for key, s in splitters.items()):
            return  # all or nothing: first_sizes() lays out every splitter together
        for key, s in splitters.items():
            s.restoreState(blobs[key])
        self._sized = True

    def capture_state(self, live: bool = False) -> dict:
        """The splitters' sizes; subclasses add their own entries (an unbuilt page: the state it was given)."""
        return self.splitter_state()

    def kept_state(self) -> dict | None:
        """An unbuilt page's state: what its kept ``restore_state`` call was given ({} if none); None once built."""
        pending = self.__dict__.get("_pending_calls")
        if pending is None:
            return None
        args, kwargs = pending.get("restore_state", (({},), {}))
        return dict(args[0] if args else kwargs.get("state", {}))

    def restore_state(self, state: dict) -> None:
        """What :meth:`capture_state` gave; here, the splitters."""
        self.restore_splitters(state)

    def view_state(self) -> dict:
        """What a lesson may change here, to give back when it ends (default: the plain state)."""
        return self.capture_state(live=False)

    def restore_view_state(self, state: dict) -> None:
        """Give back :meth:`view_state`'s dict (the lesson ended)."""
        self.restore_state(state)

    # -- lessons, presentation, closing -----------------------------------------------
    def show_lesson_step(self, step, scenario=None) -> None:
        self.apply_lesson_gemm(dict(getattr(step, "gemm", {}) or {}))

    def follow_lesson(self, step, scenario=None) -> None:
        """Every step of a lesson, on every page (not only the step's view): show what agrees with the step."""

    def apply_lesson_gemm(self, inputs: dict) -> None:
        """A lesson step's input table (``gemm = {...}`` in the lesson file) for this page; {}: no change."""

    def presentation_hidden_widgets(self) -> list[QWidget]:
        return []

    def presentation_changed(self, on: bool) -> None:
        """Presentation mode started (``on``) or stopped."""

    def shutdown(self) -> None:
        """The window is closing (an unbuilt page has nothing to stop)."""


for _name, _wrap in _UNBUILT_HOOKS.items():
    setattr(Page, _name, _wrap(Page.__dict__[_name]))
