"""``warp-explorer occupancy``: the theoretical-occupancy calculator, single or batch.

Batch mode reads a CSV (header ``gpu,threads,regs,smem_static,smem_dynamic,carveout``
and optionally ``barriers``) and prints one JSON object per row in input order; a
bad row prints ``{"error": ...}`` on its line and the batch goes on.

The batch is read line by line, from a file or from stdin alike: one line is one
row, decoded and parsed on its own, so a bad byte, a stray quote or an over-long
line costs exactly that row (with its line number) and never the rows after it.
Blank lines are not rows. Memory stays at one line; the input is capped at
``MAX_CSV_BYTES`` (a file is refused up front, a stream stops there with exit 2).
"""

from __future__ import annotations

import csv
import sys

from explorer.cli.output import print_json
from explorer.model.errors import (MAX_CSV_BYTES, MAX_LINE_BYTES, InputError, capped_lines, open_user_file,
                                   shown)

BATCH_COLUMNS = ("gpu", "threads", "regs", "smem_static", "smem_dynamic", "carveout")
OPTIONAL_COLUMNS = ("barriers",)


def register(sub) -> None:
    p = sub.add_parser("occupancy", help="theoretical occupancy of a launch configuration")
    p.add_argument("--gpu", help="GPU name (see `warp-explorer gpus`)")
    p.add_argument("--threads", help="threads per block")
    p.add_argument("--regs", help="registers per thread")
    p.add_argument("--smem-static", default="0", help="static shared memory per block, bytes (default 0)")
    p.add_argument("--smem-dynamic", default="0", help="dynamic shared memory per block, bytes (default 0)")
    p.add_argument("--carveout", default="-1", help="shared-memory carveout in percent, -1 = driver default")
    p.add_argument("--barriers", default="1", help="named barriers per block (default 1: __syncthreads)")
    p.add_argument("--batch", metavar="FILE.csv", help="compute every row of a CSV file ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="JSON output")
    p.set_defaults(func=run)


def compute(gpu_name, threads, regs, smem_static=0, smem_dynamic=0, carveout=-1, barriers=1, with_hints=True) -> dict:
    """One calculator query as the JSON object the CLI contract defines."""
    from explorer.model.catalog import get_gpu
    from explorer.occupancy import Query, hints, theoretical_occupancy
    from explorer.occupancy.calc import validate_inputs

    gpu = get_gpu(gpu_name)
    # the values as the validator reads them ("0x100" is 256), used for the result and the query alike
    values = validate_inputs(threads, regs, smem_static, smem_dynamic, carveout, barriers)
    result = theoretical_occupancy(gpu, *values)
    query = Query(*values)
    out = {
        "gpu": gpu.name,
        "compute_capability": gpu.compute_capability,
        "threads": query.threads,
        "regs": query.registers,
        "smem_static": query.static_shared,
        "smem_dynamic": query.dynamic_shared,
        "carveout": query.carveout,
        "barriers": query.barriers,
    }
    out.update(result.to_json())
    if with_hints:
        out["hints"] = hints(gpu, query, result)
    return out


def run(args) -> int:
    if args.batch:
        return run_batch(args.batch, as_json=args.json)
    missing = [flag for flag, v in (("--gpu", args.gpu), ("--threads", args.threads), ("--regs", args.regs)) if v is None]
    if missing:
        raise InputError(missing[0], "is required (or use --batch FILE.csv)")
    out = compute(args.gpu, args.threads, args.regs, args.smem_static, args.smem_dynamic, args.carveout, args.barriers)
    if args.json:
        print_json(out)
    else:
        print(format_text(out))
    return 0


def format_text(o: dict) -> str:
    def lim(v):
        return "no limit" if v is None else str(v)

    carve = "driver default" if o["carveout"] == -1 else f"{o['carveout']}%"
    limits = " | ".join(f"{k.replace('_', ' ')} {lim(v)}" for k, v in o["block_limits"].items())
    lines = [
        f"{o['gpu']} (CC {o['compute_capability']}): {o['threads']} threads/block, {o['regs']} registers/thread, "
        f"{o['smem_static']} B static + {o['smem_dynamic']} B dynamic shared memory, carveout {carve}",
        f"  active blocks per SM   {o['active_blocks_per_sm']}",
        f"  active warps per SM    {o['active_warps_per_sm']} of {o['max_warps_per_sm']}",
        f"  occupancy              {100 * o['occupancy']:.1f}%",
        f"  limited by             {', '.join(o['limiters'])}",
        f"  blocks per SM allowed  {limits}",
        f"  allocated per block    {o['allocated_registers_per_block']} registers, "
        f"{o['allocated_shared_per_block']} B shared memory (SM configured for {o['shared_per_sm_config'] // 1024} KB)",
    ]
    lines += [f"  hint: {h}" for h in o["hints"]]
    return "\n".join(lines)


class _TextLines:
    """A text stream (a test's StringIO standing in for stdin) read as bytes, line by line."""

    def __init__(self, stream):
        self.stream = stream

    def readline(self, size: int) -> bytes:
        return self.stream.readline(size).encode("utf-8", "surrogateescape")


def _open_batch(path: str):
    if path == "-":
        return getattr(sys.stdin, "buffer", None) or _TextLines(sys.stdin)
    return open_user_file(path, "--batch", "a CSV file", MAX_CSV_BYTES)


def _decode_row(line: bytes | None, number: int) -> list[str] | str | None:
    """One line as its CSV fields, ``None`` for a blank line, or the text of its error."""
    if line is None:
        return f"line {number}: longer than {MAX_LINE_BYTES:,} bytes"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"line {number}: not UTF-8 text (byte {exc.start + 1} of the line)"
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    text = text.removesuffix("\n").removesuffix("\r")
    if not text.strip():
        return None
    try:
        return next(csv.reader([text], strict=True))
    except csv.Error as exc:
        return f"line {number}: not a CSV row ({exc})"


def _read_header(lines, path: str) -> tuple[list[str], int]:
    wanted = f"the header is {','.join(BATCH_COLUMNS)}[,barriers]"
    for number, line in enumerate(lines, start=1):
        row = _decode_row(line, number)
        if row is None:
            continue
        if isinstance(row, str):
            raise InputError("--batch", f"{path}: the header is unreadable ({row}); {wanted}")
        header = [h.strip().lower() for h in row]
        missing = [c for c in BATCH_COLUMNS if c not in header]
        unknown = [c for c in header if c not in BATCH_COLUMNS + OPTIONAL_COLUMNS]
        twice = [c for c in header if header.count(c) > 1]
        if missing or unknown or twice:
            what = (f"missing column {missing[0]!r}" if missing else f"unknown column {shown(unknown[0])}"
                    if unknown else f"column {twice[0]!r} appears twice")
            raise InputError("--batch", f"{path}: {what}; {wanted}")
        return header, number
    raise InputError("--batch", f"{path}: empty file; {wanted}")


def run_batch(path: str, as_json: bool) -> int:
    fh = _open_batch(path)
    try:
        lines = capped_lines(fh, "--batch", MAX_CSV_BYTES)
        header, number = _read_header(lines, path)
        for number, line in enumerate(lines, start=number + 1):
            row = _decode_row(line, number)
            if row is None:
                continue  # a blank line is not a row; ",,,,," is one, with empty fields, and gets its error line
            if isinstance(row, str):
                _emit({"error": row}, as_json)
                continue
            if len(row) != len(header):
                _emit({"error": f"line {number}: {len(row)} fields, expected {len(header)} ({','.join(header)})"},
                      as_json)
                continue
            values = dict(zip(header, (field.strip() for field in row)))
            empty = [name for name in BATCH_COLUMNS if not values[name]]
            if empty:
                _emit({"error": f"line {number}: {empty[0]}: empty field"}, as_json)
                continue
            try:
                out = compute(
                    values["gpu"], values["threads"], values["regs"], values["smem_static"], values["smem_dynamic"],
                    values["carveout"], values.get("barriers", "1") or "1", with_hints=False,
                )
            except InputError as exc:
                out = {"error": f"line {number}: {exc}"}
            _emit(out, as_json)
    finally:
        if path != "-":
            fh.close()
    return 0


def _emit(out: dict, as_json: bool) -> None:
    if as_json:
        print_json(out)
    elif "error" in out:
        print(f"error: {out['error']}")
    else:
        print(f"{out['gpu']:8} {out['threads']:5} thr {out['regs']:4} regs {out['smem_static'] + out['smem_dynamic']:7} B"
              f"  -> {out['active_blocks_per_sm']:3} blocks/SM {100 * out['occupancy']:6.1f}%  "
              f"limited by {', '.join(out['limiters'])}")
