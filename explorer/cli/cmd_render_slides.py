"""``warp-explorer render``: a scenario or a lesson step as a PNG, an animation, or the layout preflight.

Checks every argument before building a window, so a mistake is one line and
exit code 2 (an :class:`InputError`), then hands over to :mod:`explorer.gui.headless.slides`.
With ``--check-layout`` the verdict is the exit status: 0 when every text fits,
1 when the check lists one that is clipped or overlapped.
"""

from __future__ import annotations

from explorer.model.atomic import check_target
from explorer.model.errors import InputError


def run_slides(args) -> int:
    if args.out is None and not args.check_layout:
        raise InputError("--out", "is required (or give --check-layout alone to check the layout)")
    out = check_target(args.out, "--out") if args.out is not None else None
    suffix = out.suffix.lower() if out is not None else ".png"
    if args.step is not None and args.lesson is None:
        raise InputError("--step", "needs --lesson NAME")
    if args.lesson is not None and args.scenario is not None:
        raise InputError("--lesson", f"takes its scenario from the lesson; drop {args.scenario!r}")
    if args.lesson is not None and args.set:
        raise InputError("--set", "cannot be combined with --lesson (the lesson sets its own values)")
    if args.lesson is not None and args.tab is not None:
        raise InputError("--tab", "cannot be combined with --lesson (the step shows its own view)")
    if args.lesson is None and args.scenario is None:
        raise InputError("render", "give a scenario file or a preset name, or --lesson NAME")
    if args.animate is not None:
        if suffix not in (".gif", ".mp4"):
            raise InputError("--out", f"{args.out!r} must end in .gif or .mp4 with --animate")
        if args.cycle is not None:
            raise InputError("--cycle", "cannot be combined with --animate (give the range to --animate)")
        for flag, given in (("--check-layout", args.check_layout), ("--presentation", args.presentation),
                            ("--scale", args.scale is not None), ("--tab", args.tab is not None)):
            if given:
                raise InputError(flag, "draws one still; it cannot be combined with --animate")
    elif suffix != ".png":
        raise InputError("--out", f"{args.out!r} must end in .png (or .gif/.mp4 with --animate START:END)")
    if not 0 < args.fps <= 60:
        raise InputError("--fps", f"{args.fps:g} is outside 1..60")
    try:
        from explorer.gui.headless import slides
        from explorer.gui.headless.render import parse_scale, parse_size
    except ImportError as exc:
        raise InputError("render", f"drawing needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    size = parse_size(args.size)
    lang = getattr(args, "lang", None) or "en"
    scale = None
    if args.presentation or args.scale is not None:
        scale = parse_scale(args.scale)

    lesson = scenario = None
    if args.lesson is not None:
        from explorer.model.lessons import get_lesson

        lesson = get_lesson(args.lesson)
        slides.lesson_step_index(lesson, args.step)
    else:
        from explorer.model.presets import load_scenario_arg

        scenario = load_scenario_arg(args.scenario)
        if args.set:
            scenario = scenario.with_overrides(args.set)
    if args.animate is not None:
        from explorer.gui.files import export as ex

        if suffix == ".gif":
            ex.require_pillow()
        else:
            ex.require_ffmpeg()
        width, height, frames = slides.render_animation(out, size, args.theme, args.animate, args.fps,
                                                        scenario=scenario, lesson=lesson, step=args.step,
                                                        sm=args.sm, lang=lang)
        print(f"wrote {out} ({width}x{height}, {frames} frames at {args.fps:g} per second)")
        return 0
    drawn = slides.render_still(out, size, args.theme, scenario=scenario, lesson=lesson, step=args.step,
                                cycle=args.cycle, sm=args.sm, lang=lang, tab=args.tab, scale=scale,
                                check=args.check_layout, sass=getattr(args, "sass", False))
    width, height = drawn.image.width(), drawn.image.height()
    what = f", lesson {lesson.name} step {args.step or 1} of {len(lesson.steps)}" if lesson is not None else ""
    if out is not None:
        print(f"wrote {out} ({width}x{height}, cycle {drawn.cycle}{what})")
    if not args.check_layout:
        return 0
    from explorer.gui.common.layout_check import report

    view = f"lesson {lesson.name} step {args.step or 1}" if lesson is not None else f"{args.tab or 'explorer'} tab"
    if getattr(args, "sass", False):
        view += ", SASS view"
    mode = f"presentation {round(drawn.scale * 100)}%" if drawn.scale is not None else "normal mode"
    if drawn.scale is not None and scale is not None and drawn.scale != scale:
        mode += f" (asked {round(scale * 100)}%: the most that fits)"
    print(report(drawn.problems, drawn.checked, f"{width}x{height}, {mode}, {lang}, {view}"))
    return 1 if drawn.problems else 0
