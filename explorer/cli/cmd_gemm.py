"""``warp-explorer gemm``: how an M x N x K GEMM maps onto a GPU.

The main-loop path (``wgmma`` + TMA on Hopper/Blackwell B200, ``mma.sync``
elsewhere or when asked with ``--path``), its pipeline, grid, occupancy, waves and
wave quantization, FLOPs, minimum HBM bytes and arithmetic intensity, bytes per
memory level, Tensor Core instructions beside the rest, the predicted time and
what bounds it (compute, memory or latency) and why.
``--scenario-out FILE.toml`` writes the simulator scenario of the GEMM's main loop
(run it with ``warp-explorer simulate FILE.toml``).
"""

from __future__ import annotations

from explorer.cli.output import print_json
from explorer.model.errors import InputError
from explorer.texts.numbers import ENGLISH, seconds_text, si


def register(sub) -> None:
    p = sub.add_parser("gemm", help="map a GEMM onto a GPU: tiles, waves, bytes per level, bound")
    p.add_argument("--gpu", help="GPU name (see `warp-explorer gpus`)")
    p.add_argument("--m", help="rows of A and C")
    p.add_argument("--n", help="columns of B and C")
    p.add_argument("--k", help="columns of A, rows of B")
    p.add_argument("--dtype", help="input data type: fp32, tf32, fp16, bf16 or fp8")
    p.add_argument("--path", help="main loop: wgmma (default on CC 9.0/10.0), mma.sync, or simt (fp32)")
    p.add_argument("--tile", help="CTA tile BMxBNxBK (default per data type and path: 128x128x64 for fp16 "
                                  "mma.sync, 128x256x64 for wgmma)")
    p.add_argument("--warps", help="warps per CTA (mma.sync; default per data type)")
    p.add_argument("--warp-tile", help="warp tile WMxWN (mma.sync; default: the CTA tile split as squarely as "
                                       "possible)")
    p.add_argument("--stages", help="shared-memory pipeline stages (default: per data type for mma.sync, "
                                    "as many as fit for wgmma)")
    p.add_argument("--schedule", help="wgmma schedule: cooperative (default) or pingpong")
    p.add_argument("--cluster", help="wgmma thread-block cluster MxN, e.g. 2x1 (default; shares B by multicast)")
    p.add_argument("--a-from", dest="a_source", help="wgmma A operand: shared (default) or registers")
    p.add_argument("--scenario-out", metavar="FILE.toml", help="write the simulator scenario of the main loop")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.gemm import plan_gemm

    for flag, value in (("--gpu", args.gpu), ("--m", args.m), ("--n", args.n), ("--k", args.k),
                        ("--dtype", args.dtype)):
        if value is None:
            raise InputError(flag, "is required (e.g. --gpu H100 --m 4096 --n 4096 --k 4096 --dtype bf16)")
    plan = plan_gemm(args.gpu, args.m, args.n, args.k, args.dtype, tile=args.tile, warps=args.warps,
                     warp_tile=args.warp_tile, stages=args.stages, path=args.path, schedule=args.schedule,
                     cluster=args.cluster, a_source=args.a_source)
    out = plan.to_json()
    if args.scenario_out:
        from explorer.gemm import gemm_scenario

        try:
            gemm_scenario(plan).save(args.scenario_out)
        except OSError as exc:
            raise InputError("--scenario-out", f"{args.scenario_out}: cannot write ({exc.strerror or exc})") from None
        out["scenario_file"] = args.scenario_out
    if args.json:
        print_json(out)
    else:
        print(format_text(out))
    return 0


def _en_si(value: float, unit: str) -> str:
    """The one SI formatter, in English (a CLI's output)."""
    return si(value, unit, style=ENGLISH)


def _time(seconds: float) -> str:
    """A duration as the window writes it (the one formatter), in English."""
    return seconds_text(seconds, style=ENGLISH)


def format_text(o: dict) -> str:
    occ = o["occupancy"]
    pipe = o["pipeline"]
    if o["path"] == "wgmma":
        budget = pipe["register_budget"]
        regs = (f"{budget['producer']}/{budget['consumer']} registers/thread producer/consumer (setmaxnreg, "
                f"launched with {o['registers_per_thread']})" if "consumer" in budget
                else f"{o['registers_per_thread']} registers/thread (accumulators in Tensor Memory)")
        path_line = (f"  path                 wgmma: {o['mma_instruction']}, {pipe['schedule']}, "
                     f"cluster {pipe['cluster'][0]}x{pipe['cluster'][1]}, A from {pipe['a_source']}, TMA copies")
        tile_line = (f"  tile                 {o['tile']} ({o['warps_per_cta']} warps, {o['stages']} stage(s), "
                     f"{o['k_steps']} K-steps)")
        grid_line = (f"  grid                 {o['grid'][0]} x {o['grid'][1]} = {o['tiles']} tiles on {o['ctas']} "
                     "persistent CTAs")
    else:
        regs = f"{o['registers_per_thread']} registers/thread"
        path_line = f"  path                 {o['path']}: {o['mma_instruction']}, {pipe['copy']}"
        tile_line = (f"  tile                 {o['tile']} ({o['warps_per_cta']} warps, warp tile {o['warp_tile']}, "
                     f"{o['stages']} stage(s), {o['k_steps']} K-steps)")
        grid_line = f"  grid                 {o['grid'][0]} x {o['grid'][1]} = {o['tiles']} tiles (CTAs)"
    lines = [
        f"GEMM {o['m']} x {o['n']} x {o['k']} {o['dtype']} on {o['gpu']}",
        path_line,
        tile_line,
        grid_line,
        f"  per CTA              {regs}, {o['shared_bytes_per_block']} B shared memory",
        (f"  occupancy            {o['blocks_per_sm']} CTA(s)/SM, {occ['active_warps_per_sm']} of "
        f"{occ['max_warps_per_sm']} warps ({100 * occ['occupancy']:.1f}%), limited by {', '.join(occ['limiters'])}"),
        (f"  waves                {o['waves']:.3f} -> {o['full_waves']} wave(s) on {o['sm_count']} SMs, "
        f"wave efficiency {100 * o['wave_efficiency']:.1f}% (last wave {o['last_wave_tiles']} tiles)"),
        f"  FLOPs                {_en_si(o['flops'], 'FLOP')} (2MNK); executed {_en_si(o['executed_flops'], 'FLOP')}",
        (f"  min HBM bytes        {_en_si(o['min_hbm_bytes'], 'B')} ((MK+KN+MN) x {o['element_bytes']} B); "
        f"intensity {o['arithmetic_intensity']:.1f} FLOP/B"),
        "  bytes per level:",
    ]
    width = max(len(level["path"]) for level in o["bytes_per_level"].values())
    for level in o["bytes_per_level"].values():
        reuse = f"reuse x{level['reuse']:.0f}" if level["reuse"] else "no operand bytes"
        lines.append(f"    {level['path']:{width}} {_en_si(level['bytes'], 'B'):>10}  {level['intensity']:9.1f} FLOP/B  "
                     f"{reuse}")
    ins = o["instructions"]
    lines.append("  warp-instructions:    " + ", ".join(f"{k} {_en_si(v, '')}".strip() for k, v in ins.items())
                 + f" (Tensor Core share {100 * o['tensor_core_instruction_fraction']:.1f}%)")
    lines.append("  main-loop terms:      " + ", ".join(f"{k} {_time(v)}" for k, v in o["times_seconds"].items()))
    lines.append("  not hidden:           " + ", ".join(f"{k} {_time(v)}" for k, v in o["overheads_seconds"].items()))
    lines.append(f"  predicted            {_time(o['predicted_seconds'])} ({o['achieved_tflops']:.0f} TFLOPS of "
                 f"{o['peak_tflops']:g}; {o['sustained_peak_tflops']:.0f} sustained); bound: {o['bound']} "
                 f"({o['bound_term']}); + ~{_time(o['launch_overhead_seconds'])} launch")
    lines.append(f"  why                  {o['bound_reason']}")
    lines += [f"  note: {n}" for n in o["notes"]]
    if "scenario_file" in o:
        lines.append(f"  scenario written to {o['scenario_file']} (run: warp-explorer simulate {o['scenario_file']})")
    return "\n".join(lines)
