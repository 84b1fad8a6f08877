"""``warp-explorer render SCENARIO|PRESET --out FILE.png [--cycle N] [--size WxH]``: the window, headless.

Also a lesson step (``--lesson``), an animation (``--animate``), presentation mode
(``--presentation``, ``--scale``), another tab (``--tab``), the A/B compare tab
(``--compare OTHER``: SCENARIO as A beside OTHER as B) and the layout preflight
(``--check-layout``: exit 0 when every text fits, exit 1 with the list when one
does not; that 1 is the check's verdict, not a crash).
"""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "render",
        help="draw the explorer window (SM grid, timeline, counts, metrics) into a PNG, headless",
        description="Simulate a scenario and draw the main window's Explorer tab at one cycle into a PNG "
                    "(offscreen: no display needed). For slides, docs and tests. With --check-layout, a "
                    "preflight for a projector: every text the window shows is measured.",
        epilog="exit status with --check-layout: 0 every text fits; 1 the check found text that is clipped or "
               "overlapped (each one listed on stdout; that is the check's verdict, not a crash); 2 bad input.",
    )
    p.add_argument("scenario", metavar="SCENARIO|PRESET", nargs="?", default=None,
                   help="a scenario .toml file or a preset name (not with --lesson)")
    p.add_argument("--out", default=None, metavar="FILE.png",
                   help="the PNG to write, or .gif/.mp4 with --animate (replaced atomically); optional with "
                        "--check-layout")
    p.add_argument("--cycle", type=int, default=None, metavar="N",
                   help="the cycle to show (default: the middle of the busiest stretch)")
    p.add_argument("--size", default="1600x900", metavar="WxH", help="image size in pixels (default 1600x900)")
    p.add_argument("--theme", choices=("light", "dark"), default="light", help="colour theme (default light)")
    p.add_argument("--sm", type=int, default=None, metavar="N", help="the SM shown in the timeline (default 0)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a scenario value, as in simulate (e.g. launch.registers_per_thread=64)")
    p.add_argument("--compare", default=None, metavar="OTHER",
                   help="draw the A/B compare tab: SCENARIO pinned as A beside OTHER (a scenario .toml file or a "
                        "preset name) as B, with the table of differences")
    p.add_argument("--compare-set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a value of OTHER, as --set does for SCENARIO (e.g. launch.registers_per_thread=64)")
    p.add_argument("--lesson", default=None, metavar="NAME",
                   help="draw a lesson step as the lesson panel plays it (e.g. launched-resident-ready)")
    p.add_argument("--step", type=int, default=None, metavar="K", help="the lesson's step, 1..n (default 1)")
    p.add_argument("--animate", default=None, metavar="START:END[:STEP]",
                   help="a cycle range as an animation (cycles, start, end or N%%; END included; STEP default: "
                        "about 100 frames); --out must end in .gif or .mp4 (MP4: the optional video extra)")
    p.add_argument("--fps", type=float, default=10.0, metavar="N", help="frames per second of --animate (default 10)")
    p.add_argument("--lang", choices=("en", "ru"), default=argparse.SUPPRESS,
                   help="language of the window's text and the lesson's narration (default en)")
    p.add_argument("--tab", choices=("explorer", "occupancy", "gemm", "memory"), default=None,
                   help="the tab to show (default explorer; a lesson step shows its own)")
    p.add_argument("--presentation", action="store_true",
                   help="presentation mode (F5): only the views and the narration, text and lines scaled")
    p.add_argument("--scale", type=int, default=None, metavar="PCT",
                   help="presentation scale in percent: 100, 125, 150, 175, 200 or 250 (default 150; "
                        "implies --presentation)")
    p.add_argument("--sass", action="store_true",
                   help="with the SASS view open beside the timeline (View > SASS view, Ctrl+I)")
    p.add_argument("--check-layout", action="store_true",
                   help="list every text that is clipped or overlapped; exit 1 when there is one, 0 when "
                        "all fit")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.atomic import check_target
    from explorer.cli.cmd_render_slides import run_slides
    from explorer.model.errors import InputError

    if args.compare_set and args.compare is None:
        raise InputError("--compare-set", "changes OTHER: give --compare OTHER too")
    if args.compare is None:
        return run_slides(args)
    for flag, given in (("--lesson", args.lesson is not None), ("--animate", args.animate is not None),
                        ("--check-layout", args.check_layout), ("--presentation", args.presentation),
                        ("--scale", args.scale is not None), ("--tab", args.tab is not None), ("--sass", args.sass)):
        if given:
            raise InputError("--compare", f"draws one picture of two runs: not with {flag}")
    if args.out is None:
        raise InputError("--out", "is required")
    out = check_target(args.out, "--out")  # '', a missing folder, a folder in the way: before drawing
    if args.scenario is None:
        raise InputError("render", "give a scenario file or a preset name as A")
    if out.suffix.lower() != ".png":
        raise InputError("--out", f"{args.out!r} must end in .png")
    try:
        from explorer.gui.headless.render import parse_size, render_compare_png
    except ImportError as exc:
        raise InputError("render", f"drawing needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    from explorer.model.presets import load_scenario_arg

    size = parse_size(args.size)
    scenario = load_scenario_arg(args.scenario)
    if args.set:
        scenario = scenario.with_overrides(args.set)
    other = load_scenario_arg(args.compare)
    if args.compare_set:
        other = other.with_overrides(args.compare_set)
    lang = getattr(args, "lang", None) or "en"
    width, height, cycle = render_compare_png(scenario, other, out, size=size, cycle=args.cycle,
                                              theme=args.theme, sm=args.sm, lang=lang)
    print(f"wrote {out} ({width}x{height}, cycle {cycle}, A/B compare)")
    return 0
