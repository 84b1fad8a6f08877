"""Small helpers shared by commands: the scenario arguments, JSON lines and aligned text tables."""

from __future__ import annotations

import json
import sys


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(header), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows])


def add_scenario_arguments(parser, example: str = "launch.grid=[480,1,1]") -> None:
    """SCENARIO|PRESET and repeatable ``--set KEY=VALUE`` (into ``args.overrides``)."""
    parser.add_argument("scenario", metavar="SCENARIO|PRESET", help="a scenario .toml file or a preset name")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help=f"change a scenario field, nested tables too (a dotted key, e.g. {example}; value in "
                             "TOML syntax); repeatable")
