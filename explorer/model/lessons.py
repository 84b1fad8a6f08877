"""Guided lessons: data files under ``resources/lessons/``, validated here (Qt-free).

A lesson is a sequence of steps. Each step may load a scenario (a preset name),
change fields of the current one (dotted keys, as ``--set`` takes them), switch
the view, move to a cycle, select an SM, name the panels to highlight, and carries
2-5 sentences of narration in every shipped language. The GUI's lesson panel plays
them; ``warp-explorer render --lesson NAME --step K`` draws a step for a slide.

A step also sets the view state its narration talks about, so what the screen
shows never depends on what the user had on before: ``counts = "gpu"`` (the
default: the counts plot shows the whole GPU, "launched" included) or ``"sm"``
(the selected SM's counts). The rest follows from the step's scenario (the
occupancy calculator's inputs, the scenario panel) and from the lesson itself
(the default layout while it plays, everything given back when it ends).

A lesson may name the instruction stream its presets run (top-level ``program =
"model"`` or ``"sass"``; default: the preset's own, the kernel's SASS). Lessons 1-8
narrate the workload model's figures (one instruction per modelled operation), so
they say ``program = "model"``: their numbers are then the ones the narration cites,
whatever the default becomes, and the window shows that the model ran.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from explorer.model.errors import InputError, reject_unknown_keys, require_int, shown, shown_path
from explorer.model.presets import load_preset
from explorer.model.tomlio import load_toml
from explorer.model.scenario import Scenario, parse_program
from explorer.paths import resource

LANGUAGES = ("en", "ru")
VIEWS = ("explorer", "occupancy", "gemm", "memory", "kernel")
# Panels a step can point at; the GUI maps each to a widget.
TARGETS = ("scenario", "sm_grid", "timeline", "counts", "metrics", "dram", "stream", "legend", "occupancy",
           "occupancy_graphs", "gemm", "roofline", "pipeline", "precision", "memory", "sol",
           "unit_strip")
COUNTS = ("gpu", "sm")  # the counts plot: the whole GPU, or the selected SM
_CYCLE = re.compile(r"^(start|end|\d+(\.\d+)?%)$")


_GROUP_SPACE = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")  # "1 920", "4 096": a space between digit groups


@dataclass(frozen=True)
class Step:
    narration: dict  # language -> text
    scenario: str = ""  # preset name to load (empty: keep the current scenario)
    changes: dict = field(default_factory=dict)  # dotted key -> value
    view: str = "explorer"
    cycle: int | str = "start"  # a cycle number, "start", "end" or "N%" of the run
    select_sm: int | None = None
    highlight: tuple[str, ...] = ()
    gemm: dict = field(default_factory=dict)  # inputs for the GEMM view (m, n, k, dtype, tile)
    counts: str = "gpu"  # the counts plot: "gpu" (whole GPU, with "launched") or "sm" (the selected SM)

    def text(self, lang: str) -> str:
        """The narration in ``lang``, its digit groups joined by no-break spaces: Russian writes 1 920 with a
        space, which a word-wrapping label may break ("1 / 920 варпов", issue 31 item 14); the window's own
        numbers group with the same character (``explorer.texts.numbers``)."""
        return _GROUP_SPACE.sub("\u00a0", self.narration.get(lang) or self.narration["en"])

    def resolve_cycle(self, cycles: int) -> int:
        """The step's cycle within a run of ``cycles`` cycles."""
        last = max(0, cycles - 1)
        if isinstance(self.cycle, int):
            return min(max(0, self.cycle), last)
        if self.cycle == "start":
            return 0
        if self.cycle == "end":
            return last
        return min(last, int(round(float(self.cycle[:-1]) / 100 * last)))


@dataclass(frozen=True)
class Lesson:
    name: str
    order: int
    title: dict
    steps: tuple[Step, ...]
    # the instruction stream the lesson's presets run ("sass" | "model"; "" = the preset's own): a lesson
    # whose narration cites the workload model's figures says so, so its numbers stay the ones it narrates
    program: str = ""

    def title_text(self, lang: str) -> str:
        return self.title.get(lang) or self.title["en"]

    def scenario_at(self, index: int, current: Scenario | None = None) -> Scenario:
        """The scenario in effect at step ``index``: the last loaded one plus every change since."""
        scenario = current
        for step in self.steps[: index + 1]:
            scenario = self._after(step, scenario)
        if scenario is None:
            raise InputError(f"lesson {self.name}", "no step loads a scenario")
        return scenario

    def _after(self, step, scenario: Scenario | None) -> Scenario | None:
        """The scenario in effect once ``step`` has applied its preset and changes to ``scenario``."""
        if step.scenario:
            scenario = load_preset(step.scenario)
            if self.program:
                scenario = scenario.with_values(program=self.program)
        if step.changes:
            if scenario is None:
                raise InputError(f"lesson {self.name}", "a step changes fields before any scenario is loaded")
            scenario = scenario.with_values(**step.changes)
        return scenario


def _texts(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise InputError(where, "needs a text per language, e.g. { en = \"...\", ru = \"...\" }")
    for lang in LANGUAGES:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            raise InputError(f"{where}.{lang}", "missing text")
    for lang, text in value.items():
        if not isinstance(text, str):
            raise InputError(f"{where}.{lang}", f"{shown(text)} is not text")
    return {k: " ".join(v.split()) for k, v in value.items()}


def _parse_step(data, where: str) -> Step:
    if not isinstance(data, dict):
        raise InputError(where, "expected a table")
    reject_unknown_keys(data, {"narration", "scenario", "set", "view", "cycle", "select_sm", "highlight", "gemm",
                               "counts"}, where)
    view = data.get("view", "explorer")
    if view not in VIEWS:
        raise InputError(f"{where}.view", f"{shown(view)}; choose one of {', '.join(VIEWS)}")
    cycle = data.get("cycle", "start")
    if not (isinstance(cycle, int) and not isinstance(cycle, bool) and cycle >= 0) and not (
        isinstance(cycle, str) and _CYCLE.match(cycle)
    ):
        raise InputError(f"{where}.cycle", f"{shown(cycle)}; write a cycle number, \"start\", \"end\" or \"40%\"")
    highlight = data.get("highlight", [])
    if isinstance(highlight, str):
        highlight = [highlight]
    if not isinstance(highlight, list):
        raise InputError(f"{where}.highlight", f"{shown(highlight)}; give a panel name or a list of them")
    for target in highlight:
        if target not in TARGETS:
            raise InputError(f"{where}.highlight", f"{shown(target)}; choose from {', '.join(TARGETS)}")
    sm = data.get("select_sm")
    if sm is not None and (not isinstance(sm, int) or isinstance(sm, bool) or sm < 0):
        raise InputError(f"{where}.select_sm", f"{shown(sm)} is not an SM index")
    scenario = data.get("scenario", "")
    if not isinstance(scenario, str):
        raise InputError(f"{where}.scenario", f"{shown(scenario)} is not a preset name")
    changes = data.get("set", {})
    if not isinstance(changes, dict):
        raise InputError(f"{where}.set", "expected a table of dotted keys")
    gemm = data.get("gemm", {})
    if not isinstance(gemm, dict):
        raise InputError(f"{where}.gemm", "expected a table (m, n, k, dtype, tile)")
    counts = data.get("counts", "gpu")
    if counts not in COUNTS:
        raise InputError(f"{where}.counts", f"{shown(counts)}; choose one of {', '.join(COUNTS)}")
    return Step(
        narration=_texts(data.get("narration"), f"{where}.narration"),
        scenario=scenario,
        changes=dict(changes),
        view=view,
        cycle=cycle,
        select_sm=sm,
        highlight=tuple(highlight),
        gemm=dict(gemm),
        counts=counts,
    )


def parse_lesson(data: dict, name: str) -> Lesson:
    steps_raw = data.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise InputError(f"lesson {name}", "has no [[steps]]")
    lesson = Lesson(
        name=name,
        order=require_int(f"lesson {name}.order", data.get("order", 99), lo=0, hi=10_000),
        title=_texts(data.get("title"), f"lesson {name}.title"),
        steps=tuple(_parse_step(s, f"lesson {name}.steps[{i}]") for i, s in enumerate(steps_raw)),
        program=_program(data, name),
    )
    # every scenario a step reaches must be valid (presets exist, changes validate): one walk over the
    # steps, each from the one before (as scenario_at(i) would reach it, without loading a preset per step again)
    scenario = None
    for i, step in enumerate(lesson.steps):
        try:
            scenario = lesson._after(step, scenario)
            if scenario is None:
                raise InputError(f"lesson {name}", "no step loads a scenario")
        except InputError as exc:
            raise InputError(f"lesson {name}.steps[{i}]", str(exc)) from None
    return lesson


def _program(data: dict, name: str) -> str:
    if "program" not in data:
        return ""
    try:
        return parse_program(data["program"])
    except InputError as exc:
        raise InputError(f"lesson {name}.program", str(exc).split(": ", 1)[-1]) from None


def load_lesson_file(path: Path) -> Lesson:
    """A lesson from a TOML file, read as every user file is (size cap, regular files only)."""
    stem = shown_path(Path(path).stem)
    name = stem.split("-", 1)[-1] if stem[:2].isascii() and stem[:2].isdigit() else stem
    return parse_lesson(load_toml(path, "a lesson file"), name)


@cache
def _loaded() -> tuple[tuple[Lesson, ...], tuple[str, ...]]:
    lessons, skipped = [], []
    for path in sorted(resource("lessons").glob("*.toml")):
        try:
            lessons.append(load_lesson_file(path))
        except InputError as exc:  # one bad file costs that lesson, not the window (issue 30, item 7)
            text = str(exc)
            skipped.append(text if path.name in text else f"{shown_path(path.name)}: {text}")
    for line in skipped:
        print(f"warp-explorer: note: lesson skipped: {line}", file=sys.stderr)
    return tuple(sorted(lessons, key=lambda l: (l.order, l.name))), tuple(skipped)


def load_lessons() -> tuple[Lesson, ...]:
    """Every shipped lesson that loads, in teaching order. A file that does not (malformed TOML, an unknown
    key, a step without a scenario) is skipped with a one-line notice on stderr (:func:`skipped_lessons`):
    one bad file made the window exit 2 and ``--smoke-test`` exit 1."""
    return _loaded()[0]


def skipped_lessons() -> tuple[str, ...]:
    """``FILE: why`` for each lesson file that did not load."""
    return _loaded()[1]


load_lessons.cache_clear = _loaded.cache_clear  # the lessons are read once per process (tests reload them)


def get_lesson(name: str) -> Lesson:
    for lesson in load_lessons():
        if lesson.name == name:
            return lesson
    raise InputError("--lesson", f"unknown lesson {name!r}; lessons: {', '.join(l.name for l in load_lessons())}")
