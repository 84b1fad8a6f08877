"""``warp-explorer render SCENARIO|PRESET --out FILE.png [--cycle N] [--size WxH]``: the window, headless."""

from __future__ import annotations

from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "render",
        help="draw the explorer window (SM grid, timeline, counts, metrics) into a PNG, headless",
        description="Simulate a scenario and draw the main window's Explorer tab at one cycle into a PNG "
                    "(offscreen: no display needed). For slides, docs and tests.",
    )
    p.add_argument("scenario", metavar="SCENARIO|PRESET", help="a scenario .toml file or a preset name")
    p.add_argument("--out", required=True, metavar="FILE.png", help="the PNG to write (replaced atomically)")
    p.add_argument("--cycle", type=int, default=None, metavar="N",
                   help="the cycle to show (default: the middle of the busiest stretch)")
    p.add_argument("--size", default="1600x900", metavar="WxH", help="image size in pixels (default 1600x900)")
    p.add_argument("--theme", choices=("light", "dark"), default="light", help="colour theme (default light)")
    p.add_argument("--sm", type=int, default=None, metavar="N", help="the SM shown in the timeline (default 0)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a scenario value, as in simulate (e.g. launch.registers_per_thread=64)")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.errors import InputError
    from explorer.model.presets import load_scenario_arg

    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise InputError("--out", f"{args.out!r} must end in .png")
    if not out.parent.is_dir():
        raise InputError("--out", f"the folder {str(out.parent)!r} does not exist")
    try:
        from explorer.gui.render import parse_size, render_png
    except ImportError as exc:
        raise InputError("render", f"drawing needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    size = parse_size(args.size)
    scenario = load_scenario_arg(args.scenario)
    if args.set:
        scenario = scenario.with_overrides(args.set)
    width, height, cycle = render_png(scenario, out, size=size, cycle=args.cycle, theme=args.theme, sm=args.sm)
    print(f"wrote {out} ({width}x{height}, cycle {cycle})")
    return 0
