"""``warp-explorer precision``: what low-precision inputs and the accumulator do to a GEMM's dot products.

The relative error against FP64 (RMS over seeded random dot products) for K = 16,
32, ..., ``--k-max``: inputs rounded to FP32, TF32, BF16, FP16, FP8 E4M3 and E5M2 and
accumulated in FP32, and FP16 inputs accumulated in FP16 for contrast
(``explorer.gemm.precision``; sequential accumulation, an emulation of the hardware's).
"""

from __future__ import annotations

from explorer.cli.output import print_json, table
from explorer.model.errors import InputError

SHORT = {"fp32": "FP32", "tf32": "TF32", "bf16": "BF16", "fp16": "FP16", "fp8_e4m3": "E4M3", "fp8_e5m2": "E5M2"}


def register(sub) -> None:
    p = sub.add_parser("precision", help="error of BF16/FP16/FP8 inputs with FP32 (or FP16) accumulation vs FP64, "
                                         "as K grows")
    p.add_argument("--k-max", default="16384", help="longest dot product, a power of two from 16 to 65536 "
                                                    "(default 16384)")
    p.add_argument("--samples", default="32", help="random dot products per K, 1 to 1024 (default 32)")
    p.add_argument("--distribution", default="normal",
                   help="input values: normal (N(0,1), random signs; default) or uniform (U[0,1), all positive)")
    p.add_argument("--seed", default="1", help="random seed (default 1)")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.gemm.precision import precision_study

    try:
        study = precision_study(args.k_max, args.samples, args.distribution, args.seed)
    except InputError as exc:  # the core names its field: say it as the flag
        raise InputError(f"--{str(exc.field).replace('_', '-')}", exc.message) from None
    if args.json:
        print_json(study.to_json())
    else:
        print(format_text(study))
    return 0


def column(curve) -> str:
    return SHORT[curve.inputs] + ("" if curve.accumulator == "fp32" else " acc16")


def format_text(study) -> str:
    header = ["K"] + [column(c) for c in study.curves]
    rows = [[f"{k:,}"] + [f"{c.relative_error[i]:.1e}" for c in study.curves] for i, k in enumerate(study.ks)]
    what = ("N(0,1), random signs" if study.distribution == "normal" else "U[0,1), all positive")
    lines = [
        f"Relative error against FP64 of {study.samples} random dot products per K (inputs {what}, seed {study.seed})",
        "Columns: input format with FP32 accumulation; 'FP16 acc16': FP16 inputs, FP16 accumulation.",
        "",
        table(rows, header),
        "",
        "  note: RMS of (result - FP64 dot) over the samples / RMS of the FP64 dots; the FP64 dot is of the FP32 data.",
        "  note: sums are sequential in K order, an emulation: Tensor Cores add in their own order and width "
        "(Hopper's FP8 MMAs keep ~14 bits, DeepSeek-V3 report section 3.3.2; not modelled).",
    ]
    return "\n".join(lines)
