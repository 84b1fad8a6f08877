"""``warp-explorer gpus [--json]``: the GPU catalog."""

from __future__ import annotations

from explorer.cli.output import print_json, table


def register(sub) -> None:
    p = sub.add_parser("gpus", help="list the GPUs in the catalog")
    p.add_argument("--json", action="store_true", help="one JSON array with every figure")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.model.catalog import load_catalog

    gpus = list(load_catalog().values())
    if args.json:
        print_json([g.summary() for g in gpus])
        return 0
    rows = [
        [g.name, g.compute_capability, str(g.sm_count), f"{g.boost_clock_mhz}", str(g.max_warps_per_sm),
         str(g.arch.max_blocks_per_sm), f"{g.arch.shared_per_sm // 1024} KB",
         f"{g.memory_bandwidth_gbs:g} GB/s", g.full_name]
        for g in gpus
    ]
    print(table(rows, ["GPU", "CC", "SMs", "MHz", "warps/SM", "blocks/SM", "smem/SM", "bandwidth", "product"]))
    measured = [g for g in gpus if g.measured is not None]
    if measured:
        which = ", ".join(f"{g.name} ({g.measured.run['date']}, resources/{g.measured.path})" for g in measured)
        print(f"measured on the GPU itself: {which}; gpus --json shows each figure with its method")
    return 0
