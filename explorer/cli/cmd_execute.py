"""``warp-explorer execute SCENARIO [--set k=v ...] [--json] [--dump-buffers FILE.npz]``: run your own kernel.

The scenario's ``[kernel]`` names a ``.cu`` file, a kernel and its arguments. The kernel is
compiled for the scenario's GPU (NVRTC, no GPU needed), and its SASS is executed lane by
lane on the CPU: every block, with the real addresses of its buffers, divergence,
barriers, atomics and shuffles. It prints what executed (warp-instructions, SIMT
efficiency, sectors per request, bank conflicts) and writes the buffers with
``--dump-buffers``. ``execute`` is functional execution only; ``simulate`` on a ``[kernel]``
scenario executes the same way and then times what executed (``cmd_simulate``).
"""

from __future__ import annotations

from explorer.cli.output import add_scenario_arguments, print_json
from explorer.model.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("execute", help="execute a [kernel] scenario's own CUDA kernel lane by lane (no GPU needed)")
    add_scenario_arguments(p, example="kernel.args.n=4096")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--listing", action="store_true",
                   help="also list every instruction: how often it issued and its average active lanes")
    add_dump_argument(p)
    p.set_defaults(func=run)


def add_dump_argument(parser) -> None:
    parser.add_argument("--dump-buffers", metavar="FILE.npz",
                        help="write every buffer argument after the kernel as NAME and before it as NAME.in")
    parser.add_argument("--jobs", type=int, metavar="N", default=1,
                        help="execute the kernel's blocks on N threads (0: every core; default 1); the results are "
                             "the same (a kernel with global atomics runs on one)")
    parser.add_argument("--max-instructions", type=int, metavar="N",
                        help="stop the kernel after N warp-instructions (kernel.max_instructions, default "
                             "500,000,000: an endless loop reaches it in minutes; a terminal shows the progress)")


def with_max_instructions(scenario, args):
    """The scenario with ``--max-instructions`` as its kernel.max_instructions (a [kernel] scenario only)."""
    n = getattr(args, "max_instructions", None)
    if n is None:
        return scenario
    if scenario.kernel is None:
        raise InputError("--max-instructions", "only a [kernel] scenario executes instructions")
    return scenario.with_overrides([f"kernel.max_instructions={n}"])


def jobs_of(args) -> int:
    """``--jobs``: 0 is every core this process may use."""
    from explorer.sass.execute.run import default_jobs

    n = getattr(args, "jobs", 1)
    if n is None:
        return 1
    if n < 0 or n > 1024:
        raise InputError("--jobs", f"{n} is outside 0..1024 (0: every core)")
    return default_jobs() if n == 0 else n


def terminal_progress(scenario):
    """The executor's progress on an interactive terminal (``explorer.cli.progress``)."""
    from explorer.cli.progress import TerminalProgress

    return TerminalProgress(scenario.kernel.name, scenario.kernel.max_instructions)


def run(args) -> int:
    from explorer.model.presets import load_scenario_arg

    scenario = load_scenario_arg(args.scenario).with_overrides(args.overrides)
    return run_scenario(scenario, args)


def run_scenario(scenario, args) -> int:
    """Execute a [kernel] scenario (functional execution only)."""
    from explorer.sass.execute.run import check_dump_path, dump_buffers, listing, run_kernel, summary

    if scenario.kernel is None:
        raise InputError("scenario", "has no [kernel] section; execute runs your own kernel (see "
                                     "docs/your-kernel.md); simulate runs workload scenarios")
    scenario = with_max_instructions(scenario, args)
    dump = getattr(args, "dump_buffers", None)
    if dump is not None:  # "" too: refused, not ignored
        check_dump_path(dump)
    progress = terminal_progress(scenario)
    try:
        run_ = run_kernel(scenario, keep_inputs=True, progress=progress, jobs=jobs_of(args))
    finally:
        progress.close()
    if dump is not None:
        dump_buffers(run_, dump)
    s = summary(run_)
    if getattr(args, "listing", False):
        s["instructions"] = listing(run_)
    if args.json:
        print_json(s)
    else:
        print(format_text(s))
        if dump is not None:
            print(f"  buffers written to {dump} (NAME after the kernel, NAME.in before it)")
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def memory_lines(mem: dict) -> list[str]:
    """Per memory class: requests and sectors (or wavefronts and bank conflicts) per request."""
    if not mem:
        return []
    lines = ["  memory                   requests   per request"]
    for name, e in mem.items():
        if "sectors" in e:
            per = f"{e['sectors_per_request']:.2f} sectors"
        else:
            per = f"{e['wavefronts_per_request']:.2f} wavefronts, {e['bank_conflicts']:,} bank conflicts"
        lines.append(f"    {name.replace('_', ' '):22s} {e['requests']:>10,}   {per}")
    return lines


def format_text(s: dict) -> str:
    from explorer.texts.figures import figure_text

    k, la, occ = s["kernel"], s["launch"], s["occupancy"]
    lines = [
        f"{s['scenario'] or 'scenario'} on {s['gpu']} ({s['arch']}): kernel {k['demangled']} from {k['file']} "
        f"({k['compiler']}), {k['registers_per_thread']} registers/thread, {k['static_shared_bytes']:,} B static "
        f"shared memory" + (f", {k['local_bytes_per_thread']} B local memory/thread" if k["local_bytes_per_thread"]
                             else ""),
        f"  launch                   grid {tuple(la['grid'])} x block {tuple(la['block'])}: {la['blocks']:,} blocks, "
        f"{s['launched_warps']:,} warps, {la['threads']:,} threads"
        + (f", {la['dynamic_shared_bytes']:,} B dynamic shared memory" if la["dynamic_shared_bytes"] else ""),
        f"  occupancy                theoretical {figure_text('theoretical_occupancy', occ['theoretical_occupancy'])} "
        f"({occ['active_blocks_per_sm']} blocks per SM; limited by {', '.join(occ['limiters'])})",
        f"  executed                 {s['warp_instructions']:,} warp-instructions "
        f"({s['warp_instructions_per_warp']:.1f} per warp), {s['thread_instructions']:,} thread-instructions",
        f"  SIMT efficiency          {_pct(s['simt_efficiency'])} (active lanes per issued warp-instruction / 32); "
        f"predicated on {_pct(s['predicated_on_efficiency'])}",
    ]
    lines += memory_lines(s["memory"])
    args = []
    for name, v in s["arguments"].items():
        if isinstance(v, dict):
            args.append(f"{name} = {v['dtype']} x {v['count']:,} ({v['init']}) at {v['address']}")
        else:
            args.append(f"{name} = {v}")
    lines.append("  arguments                " + "; ".join(args))
    for name, b in s["buffers"].items():
        rng = f", min {b['min']:.6g} max {b['max']:.6g}" if b.get("min") is not None else ""
        lines.append(f"    {name:22s} {b['changed']:,} of {b['count']:,} elements changed{rng}")
    lines.append(f"  executed in {s['execution_seconds']:.2f} s ({s['warp_instructions_per_second'] / 1e6:.2f} M "
                 "warp-instructions/s on this machine" + (f", {s['jobs']} threads" if s.get("jobs", 1) > 1 else "")
                 + ")")
    lines.append(f"  note: {s['note']}")
    if "instructions" in s:
        lines += ["", "     pc   line   issued  lanes  instruction"]
        for row in s["instructions"]:
            avg = "" if row["average_active_lanes"] is None else f"{row['average_active_lanes']:.1f}"
            line = "" if row["line"] is None else str(row["line"])
            mark = "    (not supported: " + row["unsupported"] + ")" if row["unsupported"] else ""
            lines.append(f"  {row['pc']:05x} {line:>6s} {row['executions']:>8,} {avg:>6s}  {row['text']}{mark}")
        lines.append("  issued: times a warp issued it (all warps); lanes: its average active lanes per issue")
    return "\n".join(lines)
