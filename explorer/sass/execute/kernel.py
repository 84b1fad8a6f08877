"""The user's kernel: compiled, disassembled, its parameters laid out, its instructions decoded.

``build_kernel(path, name, arch)`` compiles the ``.cu`` file with NVRTC (line info on: the
code is identical, and nvdisasm ``-g`` then names each instruction's source line),
disassembles the cubin (every instruction of the function, the subroutines ptxas
appends after the last ``EXIT`` included: ``CALL`` targets), reads the parameter layout
(``EIATTR_PARAM_CBANK`` and ``EIATTR_KPARAM_INFO``, as ``kernel_program`` does), the
constant banks the compiler filled (``.nv.constantN`` sections: literal pools, the file's
``__constant__`` data), and the parameters' names and types (``signature``).

An unknown kernel name lists the file's kernels by their C++ names (a C++ kernel can be
named by its demangled name, with or without the parameter list, or by its symbol).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from explorer.model.errors import InputError, shown
from explorer.sass.execute.decode import DecodedKernel, decode
from explorer.sass.execute.signature import ParamType, demangle, demangled_parts, kernel_parameters

LINE_RE = re.compile(r'^\s*//##\s*File\s+"([^"]*)",\s*line\s+(\d+)')


@dataclass(frozen=True)
class Parameter:
    name: str
    type: ParamType
    offset: int  # byte offset in constant bank 0
    size: int


@dataclass(frozen=True)
class UserKernel:
    """Everything the executor needs from the compiled kernel (no launch values yet)."""

    name: str  # as the scenario names it
    symbol: str  # in the cubin
    demangled: str
    arch: str
    source_file: str  # the file name shown in messages
    params: tuple[Parameter, ...]
    decoded: DecodedKernel
    banks: dict  # bank -> bytes the cubin gives (banks other than 0)
    param_base: int
    registers: int
    static_shared_bytes: int  # user static shared memory (what occupancy counts)
    shared_section_bytes: int  # the bytes the code addresses (sm_90+: the 1 KB reserved region first)
    frame_bytes: int  # local memory per thread
    barriers: int
    compiler: str
    lines: dict = field(default_factory=dict)  # row -> source line number
    cubin_sha256: str = ""
    instructions: tuple = ()  # the parsed listing (explorer.sass.listing.Instruction), row by row

    def param(self, name: str) -> Parameter | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def source_line(self, row: int) -> int | None:
        return self.lines.get(row)


def _section_bytes(cubin, name: str) -> bytes:
    sec = cubin.section(name)
    if sec is None:
        return b""
    if sec.type == 8:  # NOBITS
        return b"\0" * sec.size
    return cubin.data[sec.offset:sec.offset + sec.size]


def constant_banks(cubin, symbol: str) -> dict[int, bytes]:
    """Banks 1..17 from ``.nv.constantN`` (module) and ``.nv.constantN.<symbol>`` (function) sections."""
    banks: dict[int, bytes] = {}
    for sec in cubin.sections:
        m = re.fullmatch(r"\.nv\.constant(\d+)(?:\.(.+))?", sec.name)
        if not m or m.group(1) == "0":
            continue
        if m.group(2) is not None and m.group(2) != symbol:
            continue
        banks[int(m.group(1))] = _section_bytes(cubin, sec.name)
    return banks


def line_table(lines: list[str]) -> dict[int, int]:
    """pc -> source line from an ``nvdisasm -g`` function listing."""
    out: dict[int, int] = {}
    current = None
    for line in lines:
        m = LINE_RE.match(line)
        if m:
            current = int(m.group(2))
            continue
        pm = re.match(r"^\s*/\*([0-9a-fA-F]{4,})\*/", line)
        if pm and current is not None:
            out[int(pm.group(1), 16)] = current
    return out


def kernel_names(symbols: list[str]) -> list[str]:
    """The cubin's kernels as a user names them (extern "C" names; C++ names demangled, without a
    template's return type: ``scale_by<3>(float*, int)``)."""
    out = []
    for s in symbols:
        d = demangle(s)
        name, params = demangled_parts(d)
        out.append(f"{name}({', '.join(params)})" if d != s and params is not None else d)
    return out


def _resolve_name(exc, name: str) -> str | None:
    """The cubin symbol a user's (demangled) name means, from an unknown-kernel error's symbol list."""
    want = " ".join(name.split())
    hits = []
    for sym, listed in zip(exc.kernels, kernel_names(exc.kernels)):
        d = demangle(sym)
        short, _ = demangled_parts(d)
        plain = short.split("<")[0].split("::")[-1]
        if want in (d, short, listed, plain) or want == sym:
            hits.append(sym)
    return hits[0] if len(hits) == 1 else None


def compile_user_kernel(path: Path, source: str, name: str, arch: str, field_name: str = "kernel.name", *,
                        cancel=None, build=None):
    """The CompileResult of ``name`` in ``source`` (read from ``path``; line info on). The compiler runs
    in a child process with memory and time limits (``explorer.toolchain.sandbox``); ``cancel()`` stops it.
    ``build``: a compile of the same file already made (``open_kernels``'s): its cubin serves when it is the one
    this call would make, with no second compile; a C++ kernel asked for by its short name resolves in the
    cubin of the first compile, not by a second one."""
    from explorer.toolchain.compiler import UnknownKernel, compile_source, kernel_in

    includes = [str(path.parent.resolve())] if path.parent != Path("") else []
    try:
        if build is not None and build.serves(source, arch, line_info=True, include_dirs=includes):
            return kernel_in(build, name)
        return compile_source(source, name, arch, filename=path.name, include_dirs=includes, line_info=True,
                              cancel=cancel)
    except UnknownKernel as exc:
        symbol = _resolve_name(exc, name)
        if symbol is not None:
            return kernel_in(exc.build, symbol)
        listed = ", ".join(kernel_names(exc.kernels)) or "none"
        raise InputError(field_name, f"no kernel named {shown(name)} in {path.name}; its kernels: {listed}") from None
    except InputError as exc:
        if exc.field == "--kernel":
            raise InputError(field_name, exc.message) from None
        if exc.field == "--arch":
            raise InputError("gpu", f"{exc.message}; the executor needs the GPU's SASS") from None
        raise


def open_kernels(path: str | Path, arch: str, *, cancel=None, builds=None):
    """(the kernels a ``.cu`` file defines, by the names a scenario may give; the compile that listed them): one
    compile, with line info, that ``build_kernel`` reuses for any of them (``build=``). ``builds``: the window's
    ``toolchain.compiler.FileBuilds``, so a file another page compiled already (the occupancy calculator's row)
    is not compiled again."""
    from explorer.toolchain.compiler import FileBuilds
    from explorer.toolchain.cubin import Cubin

    build = (builds if builds is not None else FileBuilds()).build(path, arch, cancel=cancel)
    return in_source_order(kernel_names(Cubin(build.cubin).kernels()), build.source), build


def list_kernels(path: str | Path, arch: str, *, cancel=None) -> list[str]:
    """The kernels a ``.cu`` file defines, by the names a scenario may give (for a file picker)."""
    return open_kernels(path, arch, cancel=cancel)[0]


def in_source_order(names: list[str], source: str) -> list[str]:
    """The kernels as the file defines them, first to last (the compiler reports its symbols in another order,
    the reverse of the source for NVRTC's cubins): each by where its plain name (no namespace, no template
    arguments) first follows ``__global__``; a name not found keeps its place after the found ones."""
    def where(name: str) -> int:
        plain = re.split(r"[<(]", name, maxsplit=1)[0].rsplit("::", 1)[-1].strip()
        m = re.search(r"__global__[^;{]*?\b" + re.escape(plain) + r"\s*[(<]", source)
        return m.start() if m else len(source)

    return sorted(names, key=where)


def build_kernel(path: str | Path, name: str, arch: str, *, source: str | None = None, cancel=None,
                 build=None) -> UserKernel:
    """Compile, disassemble and decode ``name`` from the ``.cu`` file at ``path`` for ``arch`` (the compiler
    and nvdisasm in child processes with limits; ``cancel()`` stops either). ``build``: the file's compile from
    ``open_kernels``, used instead of compiling again while the file is unchanged."""
    from explorer.toolchain.cubin import Cubin
    from explorer.model.errors import MAX_SOURCE_BYTES, read_user_text
    from explorer.sass.disasm import disassemble
    from explorer.sass.errors import ProgramError
    from explorer.sass.kernel_program import parameter_offsets
    from explorer.sass.listing import function_lines, parse_lines

    path = Path(path)
    if source is None:
        source = read_user_text(path, field="kernel.file", kind="a .cu file", limit=MAX_SOURCE_BYTES)
    compiled = compile_user_kernel(path, source, name, arch, cancel=cancel, build=build)
    cubin = Cubin(compiled.cubin)
    text = disassemble(compiled.cubin, line_info=True, cancel=cancel)
    lines = function_lines(text, compiled.symbol)
    if lines is None:
        raise ProgramError(f"nvdisasm printed no function {compiled.symbol}")
    fn = parse_lines(lines, compiled.symbol)
    pcs = [ins.pc for ins in fn.instructions]
    if pcs != [16 * k for k in range(len(pcs))]:
        raise ProgramError(f"{compiled.symbol}: the instructions are not 16 bytes apart from 0 (not Volta+ SASS)")
    try:
        offsets = parameter_offsets(compiled.cubin, compiled.symbol)
    except ProgramError:
        offsets = {}
    ordinals = sorted(offsets)
    if ordinals != list(range(len(ordinals))):
        raise ProgramError(f"{compiled.symbol}: the cubin's parameter records are incomplete")
    sizes = [offsets[k][1] for k in ordinals]
    names, types = kernel_parameters(source, compiled.symbol, sizes)
    params = tuple(Parameter(name=n, type=t, offset=offsets[k][0], size=offsets[k][1])
                   for k, (n, t) in enumerate(zip(names, types)))
    base = min((p.offset for p in params), default=_param_base(cubin, compiled.symbol))
    by_pc = line_table(lines)
    rows_lines = {k: by_pc[pc] for k, pc in enumerate(pcs) if pc in by_pc}
    res = compiled.resources
    return UserKernel(
        name=name, symbol=compiled.symbol, demangled=demangle(compiled.symbol), arch=arch, source_file=path.name,
        params=params, decoded=decode(fn.instructions), banks=constant_banks(cubin, compiled.symbol),
        param_base=base, registers=res.registers, static_shared_bytes=res.static_shared_bytes,
        shared_section_bytes=res.shared_section_bytes, frame_bytes=res.stack_frame_bytes, barriers=res.barriers,
        compiler=compiled.compiler, lines=rows_lines, cubin_sha256=compiled.sha256,
        instructions=tuple(fn.instructions),
    )


def _param_base(cubin, symbol: str) -> int:
    import struct

    from explorer.sass.kernel_program import EIATTR_PARAM_CBANK

    for fmt, attr, payload in cubin.info_records(f".nv.info.{symbol}"):
        if fmt == 4 and attr == EIATTR_PARAM_CBANK and len(payload) >= 8:
            return struct.unpack_from("<II", payload)[1] & 0xFFFF
    return 0

