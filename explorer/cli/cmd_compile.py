"""``warp-explorer compile FILE.cu --kernel NAME --arch sm_XX [--json] [--cubin-out FILE]``.

Compiles a CUDA C++ file with NVRTC (or nvcc) for one architecture, no GPU needed, and
prints the kernel's registers, static shared memory, spill bytes and barriers as the
occupancy calculator wants them. Exit 2 for a file that does not compile or a kernel
that is not there; exit 3 when no CUDA compiler is installed.
"""

from __future__ import annotations

from explorer.cli.output import print_json


def register(sub) -> None:
    p = sub.add_parser("compile", help="compile a .cu file (no GPU needed) and show a kernel's resources")
    p.add_argument("file", metavar="FILE.cu", help="CUDA C++ source file")
    p.add_argument("--kernel", metavar="NAME", help="kernel name (a template instance like 'k<float>' works too); "
                   "optional when the file has one kernel")
    p.add_argument("--arch", required=True, metavar="sm_XX", help="target architecture, e.g. sm_90 (or 9.0)")
    p.add_argument("--maxrregcount", type=int, metavar="N", help="register limit per thread, as nvcc's")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="a macro")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR", help="an include folder")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--cubin-out", metavar="FILE", help="also write the cubin")
    p.set_defaults(func=run)


def run(args) -> int:
    from explorer.cli.errors import NoGpuError
    from explorer.toolchain.compiler import compile_file, normalize_arch
    from explorer.toolchain.errors import GpuUnavailable
    from explorer.model.errors import InputError

    arch = normalize_arch(args.arch)
    if args.maxrregcount is not None and not 16 <= args.maxrregcount <= 255:
        raise InputError("--maxrregcount", f"{args.maxrregcount} is outside 16..255")
    if args.cubin_out is not None and not args.cubin_out.strip():
        raise InputError("--cubin-out", "give a file name")
    kernel = args.kernel
    try:
        if kernel is None:
            kernel = _only_kernel(args.file)
        result = compile_file(args.file, kernel, arch, defines=args.defines, include_dirs=args.includes,
                              maxrregcount=args.maxrregcount)
    except GpuUnavailable as exc:
        raise NoGpuError(str(exc)) from None
    if args.cubin_out:
        write_output("--cubin-out", args.cubin_out, result.cubin)
    data = result.to_json()
    data["file"] = str(args.file)
    if args.cubin_out:
        data["cubin_out"] = str(args.cubin_out)
    if args.json:
        print_json(data)
        return 0
    r = result.resources
    name = result.kernel if result.symbol == result.kernel else f"{result.kernel} ({result.symbol})"
    spill = "unknown (no ptxas log)" if r.spill_bytes is None else \
        f"{r.spill_store_bytes} B stores, {r.spill_load_bytes} B loads (stack frame {r.stack_frame_bytes} B)"
    shared = f"{r.static_shared_bytes} B"
    if r.reserved_shared_bytes:
        shared += f" (the cubin's .nv.shared section is {r.shared_section_bytes} B incl. {r.reserved_shared_bytes} B reserved)"
    lines = [
        f"{name} for {result.arch} ({result.compiler}, {len(result.cubin)} B cubin)",
        f"  registers per thread   {r.registers}" + (f" (limit {r.max_registers})" if r.max_registers and r.max_registers < 255 else ""),
        f"  static shared memory   {shared}",
        f"  spills                 {spill}",
        f"  barriers               {r.barriers}",
    ]
    if r.max_threads_per_block:
        lines.append(f"  max threads per block  {r.max_threads_per_block} (__launch_bounds__)")
    if args.cubin_out:
        lines.append(f"  cubin written to       {args.cubin_out}")
    lines.append(f"  occupancy: warp-explorer occupancy --gpu GPU --threads N --regs {r.registers} "
                 f"--smem-static {r.static_shared_bytes} --barriers {max(r.barriers, 1)}")
    print("\n".join(lines))
    return 0


def write_output(flag: str, path: str, data: bytes) -> None:
    """Write a file the user named, atomically; any failure is one InputError naming ``flag``."""
    from explorer.model.atomic import atomic_write_bytes
    from explorer.model.errors import InputError

    try:
        atomic_write_bytes(path, data)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise InputError(flag, f"{path}: cannot write ({getattr(exc, 'strerror', None) or exc})") from None


def _only_kernel(path: str) -> str:
    """Without --kernel: the file's one ``__global__`` function."""
    import re

    from explorer.model.errors import MAX_SOURCE_BYTES, InputError, read_user_text

    source = read_user_text(path, kind="a .cu file", limit=MAX_SOURCE_BYTES)
    names = sorted(set(re.findall(r"__global__\s+(?:void|[\w:<>]+)\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(",
                                  source)))
    if len(names) == 1:
        return names[0]
    from explorer.toolchain.names import one_line

    raise InputError("--kernel", f"{one_line(path)} has {len(names) or 'no'} kernels"
                                 + (f" ({', '.join(names)}); name one" if names else ""))
