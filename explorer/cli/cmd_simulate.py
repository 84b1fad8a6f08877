"""``warp-explorer simulate SCENARIO|PRESET [--set k=v ...] [--json] [--out FILE.npz]``."""

from __future__ import annotations

from explorer.cli.output import print_json
from explorer.model.errors import InputError


def register(sub) -> None:
    p = sub.add_parser("simulate", help="simulate a scenario cycle by cycle")
    p.add_argument("scenario", metavar="SCENARIO|PRESET", help="a scenario .toml file or a preset name")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="change a scenario field, value in TOML syntax (e.g. launch.grid=[480,1,1]); repeatable")
    p.add_argument("--json", action="store_true", help="print the summary metrics as JSON")
    p.add_argument("--out", metavar="FILE.npz", help="write per-cycle arrays (launched, resident, eligible, issued, ...)")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.presets import load_scenario_arg
    from explorer.sim import simulate

    scenario = load_scenario_arg(args.scenario).with_overrides(args.overrides)
    if args.out and not args.out.endswith(".npz"):
        raise InputError("--out", f"{args.out!r}: the file name must end in .npz")
    result = simulate(scenario)
    summary = result.summary()
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
    return 0


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
    launch = scenario.launch
    states = s["warp_state_cycles"]
    resident_cycles = sum(states.values()) or 1
    top = sorted(states.items(), key=lambda kv: -kv[1])[:5]
    busy = [(name, t) for name, t in s["throughput"].items() if t["pct_of_peak"] >= 0.5]
    b = s["bottleneck"]
    lines = [
        f"{scenario.name or 'scenario'} on {s['gpu']}: grid {launch.grid}, block {launch.block}, "
        f"{launch.registers_per_thread} registers/thread, workload {scenario.workload.describe()}, "
        f"policy {s['scheduler_policy']}",
        f"  launched warps           {s['launched_warps']} ({s['total_blocks']} blocks x {s['warps_per_block']} warps)",
        f"  cycles                   {s['cycles']} ({s['kernel_time_us']:.2f} us at {clock_text(scenario, s)})",
        f"  waves                    {s['waves']:.3f} ({s['active_blocks_per_sm']} blocks per SM at once)",
        f"  occupancy                theoretical {100 * s['theoretical_occupancy']:.1f}%, "
        f"achieved {100 * s['achieved_occupancy']:.1f}% (limited by {', '.join(s['limiters'])})",
        f"  'GPU utilization' (NVML) {100 * s['kernel_active_fraction']:.1f}% of the time a kernel runs",
        f"  issue slots used         {100 * s['issue_slot_utilization']:.1f}% "
        f"(IPC {s['ipc']:.2f} per active SM cycle; {s['avg_eligible_per_scheduler']:.2f} eligible warps per scheduler)",
        f"  DRAM traffic             {s['dram_bytes'] / 1e6:.2f} MB at {s['dram_bandwidth_gbs']:.0f} GB/s",
        "  where resident warps spent their cycles: "
        + ", ".join(f"{name} {100 * v / resident_cycles:.1f}%" for name, v in top),
        "  % of peak                " + ", ".join(f"{name} {t['pct_of_peak']:.0f}%" for name, t in busy),
        f"  bottleneck               {b['unit']}: {b['why']}",
        f"  simulated {s['warp_instructions']} warp-instructions in {s['sim_seconds']:.3f} s",
    ]
    return "\n".join(lines)
