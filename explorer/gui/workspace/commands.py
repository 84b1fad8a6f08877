"""Every change of the Explorer's scenario is a command on one stack: Edit > Undo / Redo (Qt-free).

The pattern is glue's ``core/command.py``: a command is a small object that knows
how to ``do`` and ``undo`` itself on a *target* (the application's workspace,
``workspace.Workspace``, passed in, so the stack holds no widgets), and
:class:`CommandStack` runs it, keeps it for Undo, and drops the Redo branch when a
new command arrives. Field edits, shipped presets, opened scenario files, "Simulate
in the Explorer", a measurement's scenario and its re-simulation are undoable; a
lesson step and a restored session go through the same path but are not steps of
their own (``undoable=False``): they are only logged. :attr:`CommandStack.history`
is the log of every change, newest last.

The target offers ``scenario`` (the one on screen) and ``apply_scenario(scenario,
run=None, from_panel=False)``; only commands call the latter.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from explorer.gui.common.events import Event
from explorer.model.scenario import Scenario

# What changed the scenario (the Edit menu names each in the interface language).
KINDS = ("edit", "preset", "file", "gemm", "measurement", "resimulate", "kernel", "lesson", "restore")
UNDOABLE = frozenset(KINDS) - {"lesson", "restore"}
MERGE_SECONDS = 1.5  # edits of the same field closer than this are one step (typing "2", "25", "256")
UNDO_LIMIT = 100
HISTORY_LIMIT = 500


@dataclass(eq=False)
class ScenarioChange:
    """Show ``after`` instead of the scenario on screen (``before``, filled in when done)."""

    kind: str
    after: Scenario
    before: Scenario | None = None
    fields: frozenset[str] = frozenset()  # "edit": the panel's fields that changed
    run: object | None = None  # a SimRun of ``after`` computed elsewhere (shown instead of simulating)
    when: float = field(default_factory=time.monotonic)
    _done_once: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of scenario change {self.kind!r}; kinds: {', '.join(KINDS)}")

    @property
    def undoable(self) -> bool:
        return self.kind in UNDOABLE

    def do(self, target) -> None:
        if self.before is None:
            self.before = target.scenario
        # the panel already shows a field edit's values the first time: leave the text being typed alone
        target.apply_scenario(self.after, run=self.run, from_panel=self.kind == "edit" and not self._done_once)
        self._done_once = True
        self.run = None  # redo simulates again: a command keeps no run alive

    def undo(self, target) -> None:
        target.apply_scenario(self.before)

    def merge(self, newer: ScenarioChange) -> bool:
        """Absorb ``newer`` when it goes on editing the same fields right after this edit."""
        if (self.kind == newer.kind == "edit" and newer.fields == self.fields and newer.before == self.after
                and newer.when - self.when < MERGE_SECONDS):
            self.after, self.when = newer.after, newer.when
            return True
        return False


class CommandStack:
    """Done and undone commands; ``changed`` fires whenever Undo or Redo would do something else."""

    def __init__(self, limit: int = UNDO_LIMIT):
        self.limit = limit
        self.done: list[ScenarioChange] = []
        self.undone: list[ScenarioChange] = []
        self.history: list[tuple[str, str]] = []  # (what, kind): "do", "undo", "redo"
        self.changed = Event()

    def do(self, command: ScenarioChange, target) -> None:
        command.do(target)
        self._log("do", command)
        if not command.undoable:
            return
        if not (self.done and not self.undone and self.done[-1].merge(command)):
            self.done.append(command)
            del self.done[:-self.limit]
        self.undone.clear()
        self.changed.emit()

    def undo(self, target) -> bool:
        """Undo the newest done step (False: nothing to undo)."""
        return self._move(self.done, self.undone, "undo", target)

    def redo(self, target) -> bool:
        """Do the newest undone step again (False: nothing to redo)."""
        return self._move(self.undone, self.done, "redo", target)

    def _move(self, source: list[ScenarioChange], destination: list[ScenarioChange], what: str, target) -> bool:
        if not source:
            return False
        command = source.pop()
        if what == "undo":
            command.undo(target)
        else:
            command.do(target)
        destination.append(command)
        self._log(what, command)
        self.changed.emit()
        return True

    @property
    def undo_kind(self) -> str | None:
        return self.done[-1].kind if self.done else None

    @property
    def redo_kind(self) -> str | None:
        return self.undone[-1].kind if self.undone else None

    def _log(self, what: str, command: ScenarioChange) -> None:
        self.history.append((what, command.kind))
        del self.history[:-HISTORY_LIMIT]
