"""``warp-explorer bench [--json]``: the simulator's performance benchmarks."""

from __future__ import annotations

from explorer.cli.output import print_json, table


def register(sub) -> None:
    p = sub.add_parser("bench", help="measure simulator speed and trace memory on this machine")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.add_argument("--quick", action="store_true", help="smaller grids (seconds instead of a minute)")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.sim.bench import run_benchmarks

    report = run_benchmarks(quick=args.quick)
    if args.json:
        print_json(report)
        return 0
    m = report["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}")
    rows = [
        [c["case"], str(c["cycles"]), f"{c['sim_seconds']:.3f}", f"{c['warp_instructions_per_second'] / 1e6:.1f}",
         f"{c['cpu_seconds']:.3f}", f"{c['warp_instructions_per_cpu_second'] / 1e6:.1f}",
         f"{c['cycles_per_second'] / 1e3:.0f}", f"{c['result_bytes_per_warp_slot_cycle']:.3f}"]
        for c in report["cases"]
    ]
    print(table(rows, ["case", "cycles", "sim s", "M warp-instr/s", "CPU s", "M/CPU s", "k cycles/s",
                       "bytes/slot-cycle"]))
    for c in report["cases"]:
        if "execution_seconds" in c:
            print(f"{c['case']}: execution {c['execution_seconds']:.3f} s + timing {c['timing_seconds']:.3f} s "
                  f"(+ building the program); CPU {c['cpu_seconds']:.3f} s = "
                  f"{c['warp_instructions_per_cpu_second'] / 1e6:.1f} M warp-instr/s")
    for note in report["notes"]:
        print(note)
    for e in report["program_extraction"]:
        if "error" in e:
            print(f"SASS program of {e['preset']}: not built ({e['error']})")
        else:
            print(f"SASS program of {e['preset']}: {e['cold_s']:.3f} s cold (compile, disassemble, build), "
                  f"{1000 * e['cached_s']:.1f} ms from the cache")
    return 0
