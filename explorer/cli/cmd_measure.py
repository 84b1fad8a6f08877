"""``warp-explorer measure SCENARIO|PRESET [--out FILE] [--dry-run]``: run the scenario on the real GPU.

Without a usable GPU: exit code 3 and one line saying why. ``--dry-run`` generates and
compiles the kernel (NVRTC, no GPU) and prints the source path and its resources.
``--from FILE.npz`` opens saved measurements instead of running; ``--calibrate`` fits
the simulator's memory figures to the measurements; ``--compare`` re-simulates each
one (with the compiled registers) and prints both side by side.
"""

from __future__ import annotations

from explorer.cli.output import print_json


def register(sub) -> None:
    p = sub.add_parser("measure", help="run a scenario's kernel on the real GPU and measure placement and occupancy")
    p.add_argument("scenario", nargs="?", metavar="SCENARIO|PRESET", help="a scenario file or a preset name")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a scenario field (as simulate --set)")
    p.add_argument("--out", metavar="FILE", help="save the measurement (.npz); with --dry-run: where the .cu/.cubin go")
    p.add_argument("--dry-run", action="store_true", help="generate and compile only (no GPU needed)")
    p.add_argument("--json", action="store_true", help="JSON output (one object per line)")
    p.add_argument("--per-block", action="store_true", help="record per block instead of per warp")
    p.add_argument("--match-occupancy", action="store_true",
                   help="pad dynamic shared memory so blocks per SM equal the scenario's (when the compiled kernel "
                        "uses fewer registers than the scenario says)")
    p.add_argument("--iteration-clocks", action="store_true",
                   help="a diagnostic kernel that also records every warp's clock at each loop iteration (which "
                        "iteration a slow warp lost its time in; its timing is the instrumented kernel's)")
    p.add_argument("--repeats", default="5", metavar="N", help="timed launches (default 5; records from the last)")
    p.add_argument("--nvml-seconds", default="1.0", metavar="S",
                   help="seconds of back-to-back launches while NVML samples utilization (0: skip; default 1)")
    p.add_argument("--timeout", default="180", metavar="S", help="stop the measuring process after S seconds")
    p.add_argument("--from", dest="from_files", action="append", default=[], metavar="FILE.npz",
                   help="open a saved measurement instead of running (repeatable)")
    p.add_argument("--calibrate", action="store_true",
                   help="fit the simulator's DRAM latency and bandwidth (its plan, progress and time left on stderr)")
    p.add_argument("--jobs", default="0", metavar="N",
                   help="--calibrate's simulations on N threads at once (0: every core; default 0)")
    p.add_argument("--compare", action="store_true", help="re-simulate and show simulated vs measured")
    p.set_defaults(func=run)


def _number(flag: str, text: str, lo: float, hi: float, integer: bool = False):
    from explorer.model.errors import InputError, require_int

    if integer:
        return require_int(flag, text, lo=int(lo), hi=int(hi))
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise InputError(flag, f"{text!r} is not a number") from None
    if not lo <= value <= hi:
        raise InputError(flag, f"{value:g} is outside {lo:g}..{hi:g}")
    return value


def run(args) -> int:
    from explorer.cli.errors import NoGpuError
    from explorer.toolchain.errors import GpuRunError, GpuUnavailable
    from explorer.model.errors import InputError

    repeats = _number("--repeats", args.repeats, 1, 1000, integer=True)
    nvml_seconds = _number("--nvml-seconds", args.nvml_seconds, 0, 120)
    timeout = _number("--timeout", args.timeout, 1, 86400)
    jobs = _number("--jobs", args.jobs, 0, 1024, integer=True)
    if args.out is not None and not args.out.strip():
        raise InputError("--out", "give a file name")
    try:
        if args.from_files:
            if args.scenario or args.dry_run or args.overrides:
                raise InputError("--from", "opens saved measurements; give it without a scenario, --set or --dry-run")
            from explorer.gpu.measurement import load_measurement

            measurements = [load_measurement(f) for f in args.from_files]
            saved = [str(f) for f in args.from_files]
        else:
            if not args.scenario:
                raise InputError("scenario", "give a scenario file or a preset name (or --from FILE.npz)")
            from explorer.model.presets import load_scenario_arg

            scenario = load_scenario_arg(args.scenario)
            if args.overrides:
                scenario = scenario.with_overrides(args.overrides)
            if scenario.kernel is not None:  # measure launches generated kernels only, for now
                raise InputError("kernel", "measure runs the scenario's generated kernel; a [kernel] scenario's own "
                                           "kernel is not measured yet (warp-explorer execute runs it on the CPU)")
            if args.iteration_clocks and args.per_block:
                raise InputError("--iteration-clocks", "needs per-warp records; give it without --per-block")
            if args.dry_run:
                return _dry_run(args, scenario)
            from explorer.gpu.measure import MeasureOptions, measure

            options = MeasureOptions(per_warp=False if args.per_block else None, repeats=repeats,
                                     nvml_seconds=nvml_seconds, timeout=timeout,
                                     match_occupancy=args.match_occupancy,
                                     iteration_clocks=args.iteration_clocks)
            m = measure(scenario, options)
            saved = [""]
            if args.out:
                try:
                    saved = [str(m.save(args.out))]
                except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
                    raise InputError("--out", f"{args.out}: cannot write ({getattr(exc, 'strerror', None) or exc})") \
                        from None
            measurements = [m]
    except GpuUnavailable as exc:
        raise NoGpuError(str(exc)) from None
    except GpuRunError as exc:  # the GPU is there but the run failed: one line, exit 1
        import sys

        print(f"warp-explorer: the GPU run failed: {exc}", file=sys.stderr)
        return 1

    for m, path in zip(measurements, saved):
        comparison = _compare(m) if args.compare else None
        if args.json:
            out = {**m.summary(), "notes": m.meta.get("notes", []), "file": path}
            if m.iteration_clocks is not None:
                from explorer.gpu.iterations import summary as iteration_summary

                out["iterations"] = iteration_summary(m)
            if comparison is not None:
                c = comparison.pop("comparison")
                out["simulated"] = comparison
                out["comparison"] = c.to_json()
            print_json(out)
        else:
            print(format_measurement(m, path))
            if comparison is not None:
                print(format_comparison(m, comparison))
    if args.calibrate:
        from explorer.gpu.calibrate import calibrate

        import sys

        def progress(text, _fraction):  # one line per step on stderr, terminal or log (stdout carries the result)
            print(f"warp-explorer: calibrating: {text}", file=sys.stderr, flush=True)

        result = calibrate(measurements, progress=progress, jobs=jobs or None)
        if args.json:
            print_json({"calibration": result.to_json()})
        else:
            print(result.text())
    return 0


def _dry_run(args, scenario) -> int:
    from explorer.toolchain.prepare import dry_run_stem, prepare, write_sources
    from explorer.toolchain.names import one_line
    from explorer.model.errors import InputError
    from explorer.texts.numbers import ENGLISH, pct

    prepared = prepare(scenario, match_occupancy=args.match_occupancy, per_warp=False if args.per_block else None,
                       iteration_clocks=args.iteration_clocks)
    stem = dry_run_stem(prepared, args.out)
    try:
        src, cubin = write_sources(prepared, stem)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise InputError("--out", f"{stem}: cannot write ({getattr(exc, 'strerror', None) or exc})") from None
    data = {**prepared.to_json(), "source": str(src), "cubin": str(cubin)}
    if args.json:
        print_json(data)
        return 0
    occ_s, occ_c = prepared.occupancy_scenario, prepared.occupancy_compiled
    lines = [
        f"source   {src}",
        f"cubin    {cubin}",
        f"kernel   {data['kernel']} for {data['arch']} ({data['compiler']}), {scenario.gpu.name} scenario "
        f"'{one_line(scenario.name or '(unnamed)')}'",
        f"  registers per thread   {data['registers']} (scenario: {data['registers_requested']}"
        + (f"; --maxrregcount={data['maxrregcount']}" if data["maxrregcount"] else "") + ")",
        f"  static shared memory   {data['static_shared_bytes']} B",
        f"  dynamic shared memory  {data['dynamic_shared_bytes']} B"
        + (f" (incl. {prepared.occupancy_pad_bytes} B padding)" if prepared.occupancy_pad_bytes else ""),
        f"  spills                 {data['spill_bytes']} B",
        f"  barriers               {data['barriers']}",
        f"  occupancy              {occ_c['active_blocks_per_sm']} blocks/SM ({pct(occ_c['occupancy'], 1, ENGLISH)}, "
        f"limited by {', '.join(occ_c['limiters'])}); scenario: {occ_s['active_blocks_per_sm']} blocks/SM "
        f"({pct(occ_s['occupancy'], 1, ENGLISH)})",
        f"  records                one per {'warp' if data['per_warp'] else 'block'} ({data['records']})",
    ]
    lines += [f"  note: {n}" for n in prepared.notes]
    print("\n".join(lines))
    return 0


def format_measurement(m, path: str = "") -> str:
    """The measurement's report, its figures written by the one number formatter (explorer.texts.numbers) in
    English: percentages as the other commands write them (``75%``, ``24.9%``), a figure the driver or NVML did
    not give as ``n/a``."""
    from explorer.texts.numbers import ENGLISH as E, known, num, pct, percent
    from explorer.toolchain.names import one_line

    s = m.summary()
    meta = m.meta
    dev = meta.get("device", {})
    nvml = meta.get("nvml", {})
    timing = meta.get("timing", {})
    kernel = meta.get("kernel", {})
    launch = meta.get("launch", {})
    head = "SYNTHETIC (from a simulation) " if s["synthetic"] else ""
    name = one_line(meta.get("scenario_name") or "scenario")
    clock = num(s["clock_mhz"], group=False, style=E)
    lines = [
        f"{head}{name} on {dev.get('name', '?')} ({s['gpu']}, CC {dev.get('compute_capability', '?')}, "
        f"{m.sm_count} SMs)",
        f"  kernel         {s['registers']} registers, {kernel.get('static_shared_bytes', 0)} B static + "
        f"{launch.get('dynamic_shared_bytes', 0)} B dynamic shared memory, grid {launch.get('grid')}, "
        f"block {launch.get('block')}",
        f"  time           {known(s['kernel_time_us'], num, 1, group=False, style=E)} us "
        f"({'events, median of ' + str(timing['repeats']) if timing.get('repeats') else 'from the block records'}); "
        f"records {num(s['records_time_us'], 1, group=False, style=E)} us = {num(s['cycles'], style=E)} cycles "
        f"at {clock} MHz",
        f"  occupancy      theoretical {known(s['theoretical_occupancy'], pct, style=E)} "
        f"({s['active_blocks_per_sm']} blocks/SM; driver: {known(s['driver_active_blocks_per_sm'], style=E)}), "
        f"achieved {known(s['achieved_occupancy'], pct, style=E)}",
        f"  blocks per SM  at most {s['measured_max_blocks_per_sm']} at once; "
        f"SMs busy {known(s['sm_active_fraction'], pct, style=E)} of the kernel",
    ]
    if nvml.get("available"):
        gpm = nvml.get("gpm", {})
        gpm_text = (f"GPM SM occupancy {known(gpm.get('sm_occupancy'), percent, style=E)}, "
                    f"SM util {known(gpm.get('sm_util'), percent, style=E)}"
                    if gpm.get("available") else f"GPM: {gpm.get('reason', 'n/a')}")
        lines.append(f"  NVML           utilization {known(nvml.get('utilization_gpu_mean'), percent, 0, style=E)} | "
                     f"{gpm_text} | kernels busy {known(nvml.get('kernel_busy_fraction'), pct, style=E)} of "
                     f"{known(nvml.get('launches'), style=E)} launches in "
                     f"{known(nvml.get('elapsed_s'), num, 1, group=False, style=E)} s"
                     + (f" ({nvml['launch_method']})" if nvml.get("launch_method") else ""))
    elif nvml:
        lines.append(f"  NVML           {nvml.get('reason', 'n/a')}")
    if timing.get("l2_flush_bytes") or timing.get("warm_up_ms") is not None:
        probe = timing.get("clock_probe_mhz", {}).get("after_recorded_launch")
        lines.append(f"  conditions     L2 flushed before each timed launch ({known(timing.get('l2_flush_bytes'), style=E)}"
                     f" B written); warmed up {known(timing.get('warm_up_ms'), num, group=False, style=E)} ms "
                     f"({known(timing.get('warm_up_launches'), style=E)} launches); SM clock after the recorded "
                     f"launch {known(probe, num, group=False, style=E)} MHz")
    tick = timing.get("globaltimer", {})
    if tick.get("tick_ns") is not None:
        lines.append(f"  globaltimer    step {num(tick['tick_ns'], group=False, style=E)} ns; clock {clock} MHz from the "
                     f"records (timer probe: {known(timing.get('clock_mhz_tick_kernel'), num, group=False, style=E)} "
                     f"MHz); {timing.get('alignment', '')}")
    if m.iteration_clocks is not None:
        from explorer.gpu.iterations import format_lines, summary as iteration_summary

        lines += ["  " + line for line in format_lines(iteration_summary(m))]
    lines += [f"  note: {n}" for n in meta.get("notes", [])]
    lines += [f"  problem: {p}" for p in meta.get("problems", [])]
    if path:
        lines.append(f"  file           {path}")
    return "\n".join(lines)


def _compare(m) -> dict:
    """The simulation of the measured launch beside it (explorer.gpu.compare: every figure with its error and
    word); ``simulated`` keeps the simulation's own summary figures."""
    from explorer.gpu.compare import compare
    from explorer.sim.same_stream import stream_comparison

    c = compare(m)
    r = c.result
    s = r.summary()
    return {k: s[k] for k in ("cycles", "achieved_occupancy", "theoretical_occupancy", "active_blocks_per_sm",
                              "kernel_time_us")} | {
        "mean_block_cycles": float((r.blocks.end - r.blocks.start).mean()) if len(r.blocks) else 0.0,
        "max_blocks_per_sm": int(r.blocks.max_concurrent_per_sm(r.params.sm_count).max()) if len(r.blocks) else 0,
        "program": stream_comparison(m.meta, r.warp_program), "program_notice": r.program_notice,
        "comparison": c}


def format_comparison(m, sim: dict) -> str:
    c = sim["comparison"]
    head = c.headline
    lines = [f"  simulated vs measured: duration {head.error_text()} ({head.word}); the launch simulated as it ran "
             "(explorer.gpu.compare):",
             f"    instruction stream: {sim['program']['text']}"]
    if sim.get("program_notice"):
        lines.append(f"    ({sim['program_notice']})")
    return "\n".join(lines + c.text())
