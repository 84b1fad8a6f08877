"""The A/B comparison's state, Qt-free: the pinned run (A), the current run (B), one playback position.

Both columns follow one position ``t`` on the compare view's own timeline, which
is as long as the longer run, so the shorter one can be watched ending. How ``t``
becomes each run's cycle is the *alignment*:

* ``"cycle"`` (default): both at the same cycle since launch (both kernels start
  at cycle 0, so this is also "aligned at start"); a run shorter than ``t`` shows
  its last cycle and is *finished*;
* ``"progress"``: both at the same share of their own run (half-way through each),
  so two runs of different lengths end together.

The position is the workspace's one playback cursor seen from here: given the
Explorer's session (``explorer``), B is the Explorer's run and the cycle B shows
*is* the Explorer's cycle (``ExplorerSession.cycle``). Moving the position moves
that cycle (the Explorer's views follow), and a cycle moved anywhere else (the
Explorer's slider, its plots, a lesson) moves the position to where B shows it.
The position keeps what the cycle cannot say: how far past B's end it stands (a
shorter B, aligned by cycle) and which of the positions that show one B cycle it is
(same share, a B shorter than A).

The session owns no widgets: the page observes it through its events and the
tests drive it directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.gui.common.events import Event

ALIGNMENTS = ("cycle", "progress")
SIDES = ("a", "b")


@dataclass(frozen=True)
class SideFrame:
    """What one column shows at the compare position."""

    cycle: int  # the run's own cycle
    finished: bool  # the run has ended before this position: the column shows its last cycle
    cursor: int  # where the plots' cursor stands: the position itself on the shared cycle axis, else ``cycle``


def side_frame(t: int, cycles: int, longest: int, alignment: str) -> SideFrame:
    """The cycle of a run of ``cycles`` cycles at position ``t`` of a compare timeline ``longest`` cycles long."""
    last = max(cycles - 1, 0)
    end = max(longest - 1, 0)
    t = max(0, min(int(t), end))
    if alignment == "progress":
        cycle = round(t * last / end) if end else 0
        return SideFrame(cycle, t >= end and end > 0, cycle)
    return SideFrame(min(t, last), t > last, t)


def position_of(cycle: int, cycles: int, longest: int, alignment: str) -> int:
    """The compare position that shows ``cycle`` of a run of ``cycles`` cycles (a click on its plot)."""
    last, end = max(cycles - 1, 0), max(longest - 1, 0)
    cycle = max(0, min(int(cycle), end))
    if alignment == "progress":
        return round(min(cycle, last) * end / last) if last else 0
    return cycle


class CompareSession:
    """A (pinned), B (the Explorer's run on screen), the position, the alignment, the selected SM."""

    def __init__(self, explorer=None):
        self.runs_changed = Event()  # (): A or B was replaced (or A unpinned)
        self.position_changed = Event()  # (t)
        self.selection_changed = Event()  # (sm)
        self.pinned = None  # SimRun or None: run A
        self.current = None  # SimRun or None: run B
        self.alignment = ALIGNMENTS[0]
        self.t = 0
        self.selected_sm = 0
        self.explorer = explorer  # the Explorer's session: its run is B, its cycle the cursor (None: on its own)
        if explorer is not None:
            self.current = explorer.run
            explorer.run_changed.connect(self.set_current)
            explorer.cycle_changed.connect(self._cursor_moved)

    # -- runs ---------------------------------------------------------------------------
    def pin(self, run) -> None:
        """Make ``run`` A (the same object: pinning copies nothing, so it keeps what the run keeps)."""
        self.pinned = run
        self._runs_changed()

    def unpin(self) -> None:
        self.pinned = None
        self._runs_changed()

    def set_current(self, run) -> None:
        if run is not self.current:
            self.current = run
            self._runs_changed()

    def _runs_changed(self) -> None:
        self.t = max(0, min(self.t, self.length - 1))
        self._follow()
        self.runs_changed.emit()
        self.position_changed.emit(self.t)

    # -- the shared cursor ------------------------------------------------------------------
    @property
    def follows(self) -> bool:
        """B is the Explorer's run on screen: its cycle is the shared cursor."""
        return self.explorer is not None and self.current is not None and self.current is self.explorer.run

    def _follow(self) -> None:
        """The position that shows the cursor's cycle of B, unless the position shows it already."""
        if self.follows and self.frame("b").cycle != self.explorer.cycle:
            self.t = max(0, min(self.position_for("b", self.explorer.cycle), self.length - 1))

    def _cursor_moved(self, _cycle: int) -> None:
        """The cursor moved elsewhere (the Explorer): the position follows it."""
        before = self.t
        self._follow()
        if self.t != before:
            self.position_changed.emit(self.t)

    def _lead(self) -> None:
        """The position moved here: the cursor moves to the cycle B shows."""
        if self.follows:
            self.explorer.set_cycle(self.frame("b").cycle)

    def run(self, side: str):
        return self.pinned if side == "a" else self.current

    @property
    def ready(self) -> bool:
        """Both runs are there to compare."""
        return self.pinned is not None and self.current is not None

    @property
    def same_run(self) -> bool:
        return self.pinned is not None and self.pinned is self.current

    @property
    def length(self) -> int:
        """Cycles of the compare timeline: the longer run's (at least 1)."""
        return max([1] + [r.cycles for r in (self.pinned, self.current) if r is not None])

    # -- position ---------------------------------------------------------------------
    def set_alignment(self, alignment: str) -> None:
        if alignment not in ALIGNMENTS:
            raise ValueError(f"alignment must be one of {ALIGNMENTS}, not {alignment!r}")
        if alignment != self.alignment:
            self.alignment = alignment
            self._follow()  # the cursor stays where it is; the position that shows it may not
            self.runs_changed.emit()  # the plots' ranges depend on it
            self.position_changed.emit(self.t)

    def set_position(self, t: int) -> None:
        t = max(0, min(int(t), self.length - 1))
        if t != self.t:
            self.t = t
            self.position_changed.emit(t)
            self._lead()

    def step(self, delta: int) -> None:
        self.set_position(self.t + delta)

    def to_start(self) -> None:
        self.set_position(0)

    def to_end(self) -> None:
        self.set_position(self.length - 1)

    @property
    def at_end(self) -> bool:
        return self.t >= self.length - 1

    def frame(self, side: str) -> SideFrame | None:
        """The cycle the side's column shows now (None: that side has no run)."""
        run = self.run(side)
        return None if run is None else side_frame(self.t, run.cycles, self.length, self.alignment)

    def position_for(self, side: str, cycle: int) -> int:
        run = self.run(side)
        return cycle if run is None else position_of(cycle, run.cycles, self.length, self.alignment)

    # -- selection --------------------------------------------------------------------
    def select_sm(self, sm: int) -> None:
        """One SM number for both columns (each column shows it when its GPU has it, else its last SM)."""
        sm = max(0, int(sm))
        if sm != self.selected_sm:
            self.selected_sm = sm
            self.selection_changed.emit(sm)

    def sm_for(self, side: str) -> int:
        run = self.run(side)
        return 0 if run is None else min(self.selected_sm, run.sm_count - 1)
