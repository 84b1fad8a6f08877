"""``warp-explorer simulate SCENARIO|PRESET [--set k=v ...] [--json] [--out FILE.npz]``."""

from __future__ import annotations

import sys

from explorer.cli.output import add_scenario_arguments, print_json
from explorer.model.errors import InputError, shown_path



def cache_lines(s: dict) -> list[str]:
    """One line on what the caches did, in Nsight Compute's terms (summary["caches"]); none without global
    traffic."""
    c = s.get("caches")
    if not c or not any(s["memory_bytes"][k] for k in ("l1", "l2", "dram")):
        return []
    dram = f"DRAM {c['dram__bytes_read.sum'] / 1e6:.2f} MB read, {c['dram__bytes_write.sum'] / 1e6:.2f} MB written"
    if not c["by_address"]:
        return [f"  caches                   hits drawn from the scenario's hit rates (no addresses for these accesses); {dram}"]
    if not c["l1tex__t_sectors"]:  # TMA copies of tiles: L2 only
        return [f"  caches (from addresses)  L1 not used, L2 {c['lts__t_sector_hit_rate']:.1f}% of "
                f"{c['lts__t_sectors']:,} sectors hit; {dram}"]
    return [f"  caches (from addresses)  L1 {c['l1tex__t_sector_hit_rate']:.1f}% of {c['l1tex__t_sectors']:,} sectors hit, "
            f"L2 {c['lts__t_sector_hit_rate']:.1f}% of {c['lts__t_sectors']:,}; {dram}"]

def register(sub) -> None:
    p = sub.add_parser("simulate", help="simulate a scenario cycle by cycle")
    add_scenario_arguments(p)
    p.add_argument("--json", action="store_true", help="print the summary metrics as JSON")
    p.add_argument("--out", metavar="FILE.npz", help="write per-cycle arrays (launched, resident, eligible, issued, ...)")
    from explorer.cli.cmd_execute import add_dump_argument

    add_dump_argument(p)  # [kernel] scenarios: the buffers after (and before) the kernel
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.presets import load_scenario_arg
    from explorer.sim import simulate
    from explorer.sim.stream import compose

    from explorer.cli.cmd_execute import with_max_instructions

    scenario = with_max_instructions(load_scenario_arg(args.scenario).with_overrides(args.overrides), args)
    if scenario.kernel is None and args.dump_buffers is not None:
        raise InputError("--dump-buffers", "only a [kernel] scenario has buffers")
    if args.out is not None:
        from explorer.model.atomic import check_target

        check_target(args.out, "--out")  # before the run: '', a missing folder, a folder in the way
        if not args.out.endswith(".npz"):
            raise InputError("--out", f"{args.out!r}: the file name must end in .npz")
        if args.dump_buffers is not None and same_file(args.out, args.dump_buffers):
            raise InputError("--dump-buffers", f"{shown_path(args.dump_buffers)} is the --out file too; one file "
                                               "cannot hold both (give each its own name)")
    if scenario.kernel is not None:  # the user's own kernel: executed lane by lane, then timed
        from explorer.cli.cmd_execute import jobs_of

        result, summary = simulate_kernel_scenario(scenario, args.dump_buffers, jobs_of(args))
        scenario = result.scenario
    else:
        result = simulate(scenario)
        if result.program_notice:  # the SASS was asked for but could not be built: the model ran
            print(f"warp-explorer: note: {result.program_notice}", file=sys.stderr)
        summary = result.summary()
    summary["stream"] = compose(result).summary()  # [stream]: N launches of this one simulated kernel
    if args.out:
        try:
            result.save_npz(args.out)
        except OSError as exc:
            raise InputError("--out", f"{args.out}: {exc.strerror or exc}") from None
    if args.json:
        print_json(summary)
    else:
        print(format_text(scenario, summary))
        if args.out:
            print(f"  {kept_text(result)} written to {args.out}")
        if args.dump_buffers is not None:
            print(f"  buffers written to {args.dump_buffers} (NAME after the kernel, NAME.in before it)")
    return 0


# what executed, from the execution's summary (explorer.sass.execute.run.summary), beside the timing
EXECUTION_KEYS = ("scenario", "arch", "kernel", "arguments", "buffers", "thread_instructions",
                  "predicated_on_thread_instructions", "simt_efficiency", "predicated_on_efficiency",
                  "sectors_per_request", "bank_conflicts", "memory", "execution_seconds", "jobs",
                  "execution_cpu_seconds")


def simulate_kernel_scenario(scenario, dump: str | None, jobs: int = 1):
    """(SimResult, the summary: the timing's metrics plus what executed) of a [kernel] scenario;
    the buffers go to ``dump`` (checked before the run, written after it)."""
    from explorer.sass.execute.run import check_dump_path, dump_buffers, summary as execution_summary
    from explorer.sim.engine import simulate_kernel

    from explorer.cli.cmd_execute import terminal_progress

    if dump is not None:
        check_dump_path(dump)
    progress = terminal_progress(scenario)
    try:
        result, run = simulate_kernel(scenario, keep_inputs=dump is not None, execution_progress=progress,
                                      jobs=jobs)
    finally:
        progress.close()
    if dump is not None:
        dump_buffers(run, dump)
    summary = result.summary()
    executed = execution_summary(run)
    summary.update({key: executed[key] for key in EXECUTION_KEYS})
    return result, summary


def same_file(a: str, b: str) -> bool:
    """Whether two output names are one file (the same path once resolved, or already the same file)."""
    import os

    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return a == b


def kept_text(result) -> str:
    """What --out holds, saying where a long run's series are binned or its trace shortened."""
    if result.series_stride == 1:
        text = "per-cycle arrays"
    else:
        text = f"arrays (series binned: min/max/mean per {result.series_stride} cycles)"
    sms = len(result.recorded_sms)
    if sms < result.params.sm_count or result.trace_cycles < result.cycles:
        span = "" if result.trace_cycles == result.cycles else f", first {result.trace_cycles:,} cycles"
        text += f" with the per-slot trace of {sms} SM{'s' if sms != 1 else ''}{span}"
    return text


def clock_text(scenario, s: dict) -> str:
    boost = scenario.gpu.boost_clock_mhz
    return "boost clock" if s["clock_mhz"] == boost else f"{s['clock_mhz']:g} MHz, the Tensor Core clock"


def format_text(scenario, s: dict) -> str:
    from explorer.texts.figures import summary_figure

    def f(key: str) -> str:  # a figure as the window writes it too (explorer/texts/figures.py)
        return summary_figure(s, key)

    launch = scenario.launch
    states = s["warp_state_cycles"]
    resident_cycles = sum(states.values()) or 1
    top = sorted(states.items(), key=lambda kv: -kv[1])[:5]
    busy = [(name, t) for name, t in s["throughput"].items() if t["pct_of_peak"] >= 0.5]
    b = s["bottleneck"]
    lines = [
        f"{scenario.name or 'scenario'} on {s['gpu']}: grid {launch.grid}, block {launch.block}, "
        f"{launch.registers_per_thread} registers/thread, {what_runs(scenario, s)}, "
        f"policy {s['scheduler_policy']}",
        f"  launched warps           {f('launched_warps')} ({f('total_blocks')} blocks x {f('warps_per_block')} warps)",
        f"  cycles                   {f('cycles')} ({f('kernel_time_us')} us at {clock_text(scenario, s)})",
        f"  waves                    {f('waves')} ({f('active_blocks_per_sm')} blocks per SM at once)",
        f"  occupancy                theoretical {f('theoretical_occupancy')}, "
        f"achieved {f('achieved_occupancy')} (limited by {', '.join(s['limiters'])})",
        f"  'GPU utilization' (NVML) {f('kernel_active_fraction')} of the time a kernel runs",
        f"  issue slots used         {f('issue_slot_utilization')} "
        f"(IPC {f('ipc')} per active SM cycle; {f('avg_eligible_per_scheduler')} eligible warps per scheduler)",
        f"  DRAM traffic             {s['dram_bytes'] / 1e6:.2f} MB at {f('dram_bandwidth_gbs')} GB/s",
        *cache_lines(s),
        "  where resident warps spent their cycles: "
        + ", ".join(f"{name} {100 * v / resident_cycles:.1f}%" for name, v in top),
        "  % of peak                " + ", ".join(f"{name} {t['pct_of_peak']:.0f}%" for name, t in busy),
        f"  bottleneck               {b['unit']}: {b['why']}",
        f"  program                  {program_text(s['program'])}",
        f"  simulated {s['warp_instructions']} warp-instructions in {s['sim_seconds']:.3f} s",
    ]
    if s.get("stream", {}).get("kernels", 1) > 1:
        lines.insert(-1, stream_line(s["stream"]))
    if "simt_efficiency" in s:  # a [kernel] scenario: what executed
        from explorer.cli.cmd_execute import memory_lines

        lines[-1:-1] = [f"  SIMT efficiency          {100 * s['simt_efficiency']:.1f}% (active lanes per issued "
                        f"warp-instruction / 32); predicated on {100 * s['predicated_on_efficiency']:.1f}%",
                        *memory_lines(s["memory"])]
        lines.append(f"  executed lane by lane in {s['execution_seconds']:.3f} s, chunk by chunk as the timing "
                     "placed the blocks")
    return "\n".join(lines)


def what_runs(scenario, s: dict) -> str:
    if scenario.kernel is not None:
        k = s["kernel"]
        return f"kernel {k['demangled']} from {k['file']} ({k['static_shared_bytes']:,} B static shared memory)"
    return f"workload {scenario.workload.describe()}"


def program_text(prog: dict) -> str:
    """Which instruction stream ran: the kernel's SASS or the workload model."""
    what = (f"the kernel's SASS ({prog['arch']})" if prog["source"] == "sass"
            else "the workload model (one instruction per workload operation)")
    per_warp = prog["dynamic_instructions_per_warp"]
    if isinstance(per_warp, float):  # your own kernel: every warp ran its own executed path
        return f"{what} as it executed, {per_warp:.1f} instructions per warp on average"
    if prog.get("warp_specialized"):
        return (f"{what}, {per_warp} instructions in all, warp-specialized: the "
                "producer and the consumers each run their own")
    return f"{what}, {per_warp} instructions per warp"


def stream_line(st: dict) -> str:
    """One line: the same stream read four ways (NVML, SM active, occupancy, issue slots)."""
    how = "graph nodes" if st["graph"] else "launches"
    sync = f", a {st['sync_gap_us']:g} us sync every {st['sync_every']}" if st["sync_every"] else ""
    span = f"{st['span_us'] / 1000:,.2f} ms" if st["span_us"] >= 10_000 else f"{st['span_us']:,.1f} us"
    if st["nvml_windows"]:
        window = (f"{st['nvml_windows']:,} periods of {st['nvml_period_ms']:g} ms read "
                  f"{100 * st['nvml_min']:.1f}-{100 * st['nvml_max']:.1f}%")
    else:
        window = f"over the span: shorter than one {st['nvml_period_ms']:g} ms period"
    return (f"  stream                   {st['kernels']:,} {how}, {st['gap_us']:g} us apart{sync}, "
            f"{span}: NVML {100 * st['nvml_utilization']:.1f}% ({window}), "
            f"SM active {100 * st['sm_active']:.1f}%, occupancy {100 * st['achieved_occupancy']:.1f}%, "
            f"issue slots {100 * st['issue_slot_utilization']:.1f}%")
