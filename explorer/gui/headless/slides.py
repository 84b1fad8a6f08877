"""Slides from the command line: ``warp-explorer render`` for a lesson step and for animations.

``render --lesson NAME --step K`` draws the window as the lesson panel plays step K
(1-based, as the panel's "step k of n" counts): the step's scenario simulated,
its cycle, SM and view, the spotlight on its panels and the narration.
``render ... --animate START:END[:STEP] --out FILE.gif|FILE.mp4`` steps the
Explorer through the cycle range instead of drawing one cycle. Both are built on
the real window, offscreen, by :mod:`explorer.gui.headless.render`; a still can
be drawn in presentation mode and checked for text that does not fit
(``--presentation``, ``--scale``, ``--tab``, ``--check-layout``).
"""

from __future__ import annotations

from pathlib import Path

from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.headless.render import Drawn, atomic_save, check_sm, draw, offscreen_window, settle, show_lesson_step
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario


def lesson_step_index(lesson, step: int | None) -> int:
    """``--step K`` (1-based) as an index into the lesson's steps."""
    if step is None:
        return 0
    if not 1 <= step <= len(lesson.steps):
        raise InputError("--step", f"{step} is outside the lesson's steps 1..{len(lesson.steps)}")
    return step - 1


def render_still(out: Path | None, size: tuple[int, int], theme: str, *, scenario: Scenario | None = None,
                 lesson=None, step: int | None = None, cycle: int | None = None, sm: int | None = None,
                 lang: str = "en", tab: str | None = None, scale: float | None = None, check: bool = False,
                 sass: bool = False) -> Drawn:
    """The window for a lesson step (or a scenario at a cycle), as a PNG at ``out`` (None: no file) and,
    with ``check``, the layout check's verdict."""
    index = lesson_step_index(lesson, step) if lesson is not None else 0
    drawn = draw(size, theme, lang, scenario=scenario, lesson=lesson, index=index, cycle=cycle, sm=sm, tab=tab,
                 scale=scale, check=check, sass=sass)
    if out is not None:
        atomic_save(drawn.image, out)
    return drawn


def render_animation(out: Path, size: tuple[int, int], theme: str, animate: str, fps: float, *,
                     scenario: Scenario | None = None, lesson=None, step: int | None = None,
                     sm: int | None = None, lang: str = "en") -> tuple[int, int, int]:
    """A GIF or MP4 of the window over a cycle range; (width, height, frames)."""
    from explorer.gui.files import export as ex
    ex.check_fps(fps)
    kind = ex.format_of(out)
    if kind == "gif":
        ex.require_pillow()
    else:
        ex.require_ffmpeg()
    with offscreen_window(size, theme, lang) as (app, window):
        if lesson is not None:
            run = show_lesson_step(window, app, lesson, lesson_step_index(lesson, step), lang)
        else:
            run = simulate_run(scenario)
            window.workspace.show_run(run)
        if sm is not None:
            check_sm(run, sm)
            window.workspace.session.select_sm(sm)
        cycle_range = ex.parse_cycle_range(animate, run.cycles)
        settle(app)
        frames = ex.export_animation(window.workspace, window, out, cycle_range, fps, 1.0)
        width, height = window.width(), window.height()
    return width, height, frames
