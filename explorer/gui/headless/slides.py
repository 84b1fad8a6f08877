"""Slides from the command line: ``warp-explorer render`` for a lesson step and for animations.

``render --lesson NAME --step K`` draws the window as the lesson panel plays step K
(1-based, as the panel's "step k of n" counts): the step's scenario simulated,
its cycle, SM and view, the spotlight on its panels and the narration.
``render ... --animate START:END[:STEP] --out FILE.gif|FILE.mp4`` steps the
Explorer through the cycle range instead of drawing one cycle. Both are built on
the real window, offscreen, as :mod:`explorer.gui.headless.render` does for one PNG.
"""

from __future__ import annotations

from pathlib import Path

from explorer.gui.explore.run_data import simulate_run
from explorer.gui.headless.render import atomic_save, check_cycle, check_sm, default_cycle, grab, offscreen_window, settle
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario


def lesson_step_index(lesson, step: int | None) -> int:
    """``--step K`` (1-based) as an index into the lesson's steps."""
    if step is None:
        return 0
    if not 1 <= step <= len(lesson.steps):
        raise InputError("--step", f"{step} is outside the lesson's steps 1..{len(lesson.steps)}")
    return step - 1


def _show_lesson_step(window, app, lesson, index: int, lang: str):
    lessons = window.feature("lessons")
    if lessons is None:
        raise InputError("--lesson", "this build of the window has no lesson panel")
    lessons.set_language(lang)
    run = simulate_run(lesson.scenario_at(index))
    lessons.show_step_with_run(lesson, index, run)
    settle(app)
    lessons.fit_dock()
    settle(app)
    overlay = window.feature("overlay")
    overlay.set_targets(overlay.targets, overlay.keep_bright)
    overlay.freeze()  # a still picture: no pulse
    settle(app)
    return run


def _show(window, app, scenario: Scenario | None, lesson, step: int | None, lang: str):
    """The lesson step (with its narration and spotlight), or the scenario, simulated and on screen; its run."""
    if lesson is not None:
        return _show_lesson_step(window, app, lesson, lesson_step_index(lesson, step), lang)
    run = simulate_run(scenario)
    window.explorer.show_run(run)
    return run


def render_still(out: Path, size: tuple[int, int], theme: str, *, scenario: Scenario | None = None,
                 lesson=None, step: int | None = None, cycle: int | None = None, sm: int | None = None,
                 lang: str = "en") -> tuple[int, int, int]:
    """One PNG of the window for a lesson step (or a scenario at a cycle); (width, height, cycle)."""
    with offscreen_window(size, theme, lang) as (app, window):
        page = window.explorer
        run = _show(window, app, scenario, lesson, step, lang)
        if lesson is not None:
            if cycle is not None:
                page.session.set_cycle(check_cycle(run, cycle))
            if sm is not None:
                check_sm(run, sm)
                page.session.select_sm(sm)
        else:
            if sm is not None:
                check_sm(run, sm)
                page.session.select_sm(sm)
            page.session.set_cycle(default_cycle(run) if cycle is None else check_cycle(run, cycle))
        settle(app)
        image = grab(window, size)
        shown = page.session.cycle
    atomic_save(image, out)
    return image.width(), image.height(), shown


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
        page = window.explorer
        run = _show(window, app, scenario, lesson, step, lang)
        if sm is not None:
            check_sm(run, sm)
            page.session.select_sm(sm)
        cycle_range = ex.parse_cycle_range(animate, run.cycles)
        settle(app)
        frames = ex.export_animation(page, window, out, cycle_range, fps, 1.0)
        width, height = window.width(), window.height()
    return width, height, frames
