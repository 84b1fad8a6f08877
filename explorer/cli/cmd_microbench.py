"""``warp-explorer microbench [--out DIR] [--budget S] [--only GROUPS] [--json]``: measure the GPU's own facts.

Latencies (L1, shared, L2, DRAM, FFMA), the loaded-latency curve, DRAM and L2 bandwidth,
the FFMA rate, launch and graph costs and NVML's utilization, measured by the project's
own kernels (:mod:`explorer.gpu.microbench`) in a child process that is stopped at the
budget (what it measured by then is kept). Writes ``microbench.json`` and the catalog
fragment ``<GPU>.toml`` into ``--out`` (default: the per-user folder
``~/.cache/warp-explorer/measured``). Without a GPU: exit 3 and one line.
"""

from __future__ import annotations

import sys

from explorer.cli.output import print_json

BUDGET_MIN, BUDGET_MAX = 10.0, 600.0


def register(sub) -> None:
    p = sub.add_parser("microbench", help="measure the GPU's latencies, bandwidths, FFMA rate, launch costs and NVML "
                                          "utilization; write a catalog fragment")
    p.add_argument("--out", metavar="DIR", help="folder for microbench.json and GPU.toml "
                                                "(default: ~/.cache/warp-explorer/measured)")
    p.add_argument("--budget", default="150", metavar="S",
                   help=f"seconds the measurements may take ({BUDGET_MIN:g}-{BUDGET_MAX:g}, default 150; groups that "
                        "would not fit are skipped)")
    p.add_argument("--only", default="", metavar="GROUPS",
                   help="comma-separated groups (default: all): latency, loaded, bandwidth, ffma, launch, nvml")
    p.add_argument("--ordinal", default="0", metavar="N", help="the CUDA device (default 0)")
    p.add_argument("--no-merge", action="store_true",
                   help="write this run's figures only (default: over the shipped resources/measured/GPU.toml)")
    p.add_argument("--json", action="store_true", help="one JSON object: the files, the figures, what was skipped")
    p.set_defaults(func=run)


def parse_groups(text: str) -> tuple[str, ...]:
    from explorer.gpu.microbench import GROUPS
    from explorer.model.errors import InputError

    if not text.strip():
        return GROUPS
    wanted = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in wanted if g not in GROUPS]
    if unknown or not wanted:
        from explorer.toolchain.names import one_line

        raise InputError("--only", f"{one_line(', '.join(unknown) or text, 80)} is not a group; known: {', '.join(GROUPS)}")
    return tuple(g for g in GROUPS if g in wanted)  # always in the run's order


def run(args) -> int:
    from pathlib import Path

    from explorer.cli.cmd_measure import _number
    from explorer.cli.errors import NoGpuError
    from explorer.toolchain.errors import GpuRunError, GpuUnavailable
    from explorer.gpu.microbench import MicrobenchOptions, run_microbenchmarks, write_outputs
    from explorer.model.errors import InputError

    budget = _number("--budget", args.budget, BUDGET_MIN, BUDGET_MAX)
    ordinal = _number("--ordinal", args.ordinal, 0, 63, integer=True)
    groups = parse_groups(args.only)
    if args.out is not None and not args.out.strip():
        raise InputError("--out", "give a folder")
    if args.out is not None:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise InputError("--out", f"{args.out} is not a folder")
    else:
        from explorer.toolchain.folders import user_output_dir

        folder = user_output_dir("measured")

    def progress(text: str) -> None:
        print(f"microbench: {text}", file=sys.stderr, flush=True)

    try:
        result = run_microbenchmarks(MicrobenchOptions(budget_s=budget, groups=groups, ordinal=ordinal),
                                     progress=progress)
    except GpuUnavailable as exc:
        raise NoGpuError(str(exc)) from None
    except GpuRunError as exc:
        print(f"warp-explorer: the GPU run failed: {exc}", file=sys.stderr)
        return 1
    try:
        raw, toml, doc = write_outputs(result, folder, merge=not args.no_merge)
    except OSError as exc:
        raise InputError("--out", f"{folder}: cannot write ({getattr(exc, 'strerror', None) or exc})") from None
    r = result.results
    measured = {s: [k for k in t if k != "sources"] for s, t in result.fragment.items()
                if isinstance(t, dict) and s not in ("run",)}
    count = sum(len(v) for v in measured.values())
    summary = {"gpu": result.gpu, "device": r.get("device", {}).get("name"), "raw": str(raw), "fragment": str(toml),
               "figures": count, "measured": measured, "skipped": r.get("skipped", {}), "errors": r.get("errors", {}),
               "seconds": r.get("seconds", {}), "stopped": result.stopped,
               "notes": result.notes + list(r.get("warnings", []))}
    if args.json:
        print_json(summary)
    else:
        from explorer.model.measured import measured_dir

        merged = not args.no_merge and (measured_dir() / f"{result.gpu}.toml").is_file()
        print(format_summary(result, raw, toml, merged))
    return 0 if count else 1


def format_summary(result, raw, toml, merged: bool) -> str:
    from explorer.model.measured import SECTIONS

    r = result.results
    mine = result.fragment
    lines = [f"{r.get('device', {}).get('name', '?')} ({result.gpu}): microbenchmarks of {r.get('date')}, "
             f"driver {r.get('driver') or '?'}, CUDA {r.get('cuda', '?')}, "
             f"{r.get('seconds', {}).get('total', 0):.0f} s"]
    for section, figures in SECTIONS.items():
        if section == "device" or section not in mine:
            continue
        for name, (unit, _what) in figures.items():
            if name not in mine[section]:
                continue
            value = mine[section][name]
            text = ", ".join(f"{v:g}" for v in value) if isinstance(value, list) else f"{value:g}"
            label = f"{section}.{name}"
            lines.append(f"  {label:42} {text} {unit}")
    for group, why in r.get("skipped", {}).items():
        lines.append(f"  skipped {group}: {why}")
    for group, why in r.get("errors", {}).items():
        lines.append(f"  failed {group}: {why}")
    for note in result.notes + list(r.get("warnings", [])):
        lines.append(f"  note: {note}")
    lines.append(f"  raw results   {raw}")
    lines.append(f"  fragment      {toml}" + (" (with the shipped figures this run did not take)" if merged else ""))
    return "\n".join(lines)
