"""``warp-explorer program SCENARIO|PRESET [--set k=v ...] [--json]``: the instructions a warp runs.

With ``program = "sass"`` (the default) the scenario's generated kernel is compiled for
the GPU's architecture (NVRTC, no GPU needed: the cubin ``measure`` launches) and its
SASS is listed up to the last EXIT, with each instruction's pipe, latency, scoreboard
kind and registers, the loop and its trip count, and the instructions per warp. With
``program = "model"`` (or for a GPU NVRTC cannot target, with a one-line notice on
stderr) the workload model's program is listed in the same shape. A missing NVRTC or
nvdisasm, or a kernel that does not compile: one line, exit 2.
"""

from __future__ import annotations

import sys

from explorer.cli.output import add_scenario_arguments, print_json


def register(sub) -> None:
    p = sub.add_parser("program", help="list the instructions one warp executes (the kernel's SASS or the model)")
    add_scenario_arguments(p, example="program=model")
    p.add_argument("--json", action="store_true", help="print the program as JSON")
    p.add_argument("--no-cache", action="store_true", help="compile and disassemble again, without the on-disk cache")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.presets import load_scenario_arg
    from explorer.sass.kernel_program import model_program, program_for

    scenario = load_scenario_arg(args.scenario).with_overrides(args.overrides)
    program, notice = program_for(scenario, use_cache=not args.no_cache)
    if notice:
        print(f"warp-explorer: note: {notice}", file=sys.stderr)
    if args.json:
        print_json({"scenario": scenario.name, "gpu": scenario.gpu.name, **program.to_json(),
                    "notice": notice})
        return 0
    model_count = model_program(scenario).dynamic_instructions_per_warp if program.source == "sass" else None
    print(format_text(scenario, program, model_count))
    return 0


def _flags(row) -> str:
    if not row.executed:
        return "-"
    if row.predicated_off:
        return "0"
    return "i" if row.instrumentation else ""


def format_text(scenario, program, model_count: int | None = None) -> str:
    meta = program.meta
    loop = program.loop_json()
    if program.source == "sass":
        head = (f"{scenario.name or 'scenario'} on {scenario.gpu.name} ({program.arch}): SASS of {program.function} "
                f"({meta.get('compiler', '?')}, {meta.get('disassembler', '?')}), {meta.get('registers_per_thread', '?')} "
                "registers per thread")
    else:
        head = f"{scenario.name or 'scenario'} on {scenario.gpu.name} ({program.arch}): the workload model's program"
    lines = [head]
    where = (f"loop {_pc(program, loop['start_pc'])}-{_pc(program, loop['end_pc'])} "
             f"({loop['body_instructions']} instructions) x {loop['trip_count']}" if loop else "no loop")
    lines.append(f"  {len(program.listing)} instructions up to the last EXIT; {where}")
    per_warp = f"  {program.dynamic_instructions_per_warp} instructions per warp"
    if program.source == "sass":
        per_warp += f" ({program.instrumentation_per_warp} of them instrumentation)"
        if model_count is not None:
            per_warp += f"; the model program has {model_count}"
    lines.append(per_warp)
    lines.append("")
    lines.append("     pc   flag  unit      lat  wait   instruction")
    start = loop["start_pc"] if loop else None
    end = loop["end_pc"] if loop else None
    for row in program.listing:
        mark = " "
        if loop and row.pc == start:
            mark = "["
        elif loop and row.pc == end:
            mark = "]"
        elif loop and start < row.pc < end and row.segment == "body":
            mark = "|"
        lat = "mem" if row.latency is None else str(row.latency)
        wait = {"fixed": "fixed", "short": "short", "long": "long", "none": ""}[row.scoreboard]
        text = row.text
        if loop and row.pc == end:
            text += f"    <- loop x {loop['trip_count']}"
        if not row.executed:
            text += "    (never executed)"
        elif row.predicated_off:
            text += "    (guard false: issues, does nothing)"
        if not row.known:
            text += "    (opcode not in the table)"
        lines.append(f"  {mark} {_pc(program, row.pc)}  {_flags(row):4s}  {row.unit:8s} {lat:>4s}  {wait:5s}  {text}")
    lines.append("")
    lines.append("  flags: i instrumentation (the %smid/%globaltimer/clock64 record), - never executed, "
                 "0 guard always false; [ | ] the loop body")
    for note in program.notes:
        lines.append(f"  note: {note}")
    for note in meta.get("compile_notes", []):
        lines.append(f"  compile note: {note}")
    return "\n".join(lines)


def _pc(program, pc: int) -> str:
    return f"{pc:04x}" if program.source == "sass" else str(pc)
