"""``warp-explorer render SCENARIO|PRESET --out FILE.png [--cycle N] [--size WxH]``: the window, headless."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "render",
        help="draw the explorer window (SM grid, timeline, counts, metrics) into a PNG, headless",
        description="Simulate a scenario and draw the main window's Explorer tab at one cycle into a PNG "
                    "(offscreen: no display needed). For slides, docs and tests.",
    )
    p.add_argument("scenario", metavar="SCENARIO|PRESET", nargs="?", default=None,
                   help="a scenario .toml file or a preset name (not with --lesson)")
    p.add_argument("--out", required=True, metavar="FILE.png",
                   help="the PNG to write, or .gif/.mp4 with --animate (replaced atomically)")
    p.add_argument("--cycle", type=int, default=None, metavar="N",
                   help="the cycle to show (default: the middle of the busiest stretch)")
    p.add_argument("--size", default="1600x900", metavar="WxH", help="image size in pixels (default 1600x900)")
    p.add_argument("--theme", choices=("light", "dark"), default="light", help="colour theme (default light)")
    p.add_argument("--sm", type=int, default=None, metavar="N", help="the SM shown in the timeline (default 0)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a scenario value, as in simulate (e.g. launch.registers_per_thread=64)")
    p.add_argument("--lesson", default=None, metavar="NAME",
                   help="draw a lesson step as the lesson panel plays it (e.g. launched-resident-ready)")
    p.add_argument("--step", type=int, default=None, metavar="K", help="the lesson's step, 1..n (default 1)")
    p.add_argument("--animate", default=None, metavar="START:END[:STEP]",
                   help="a cycle range as an animation (cycles, start, end or N%%; END included; STEP default: "
                        "about 100 frames); --out must end in .gif or .mp4 (MP4: the optional video extra)")
    p.add_argument("--fps", type=float, default=10.0, metavar="N", help="frames per second of --animate (default 10)")
    p.add_argument("--lang", choices=("en", "ru"), default=argparse.SUPPRESS,
                   help="language of the window's text and the lesson's narration (default en)")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.atomic import check_target
    from explorer.model.errors import InputError
    from explorer.model.presets import load_scenario_arg

    out = check_target(args.out, "--out")  # '', a missing folder, a folder in the way: before drawing
    if args.lesson is not None or args.animate is not None or args.step is not None:
        from explorer.cli.cmd_render_slides import run_slides

        return run_slides(args)
    if args.scenario is None:
        raise InputError("render", "give a scenario file or a preset name, or --lesson NAME")
    if out.suffix.lower() != ".png":
        raise InputError("--out", f"{args.out!r} must end in .png")
    try:
        from explorer.gui.headless.render import parse_size, render_png
    except ImportError as exc:
        raise InputError("render", f"drawing needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    size = parse_size(args.size)
    scenario = load_scenario_arg(args.scenario)
    if args.set:
        scenario = scenario.with_overrides(args.set)
    width, height, cycle = render_png(scenario, out, size=size, cycle=args.cycle, theme=args.theme, sm=args.sm,
                                      lang=getattr(args, "lang", None) or "en")
    print(f"wrote {out} ({width}x{height}, cycle {cycle})")
    return 0
