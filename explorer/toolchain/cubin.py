"""Read a kernel's resources from a CUDA cubin (an ELF file) — pure Python, no GPU.

What the occupancy rules need is in the cubin itself:

- registers per thread: the ``.nv.info`` record ``EIATTR_REGCOUNT`` (attribute 0x2f,
  payload ``<u32 symbol index, u32 registers>``), one per function;
- static shared memory: the size of section ``.nv.shared.<function>``. From sm_90 on
  that section also holds a 1 KB region the system reserves per block (its symbols
  are named ``.nv.reservedSmem.*`` / ``__nv_reservedSMEM*``); the occupancy rules add
  the reserved 1 KB themselves (``cuda_occupancy.h``: ``reservedSharedMemory``), so it
  is subtracted here. ``ptxas -v`` and the driver's ``CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES``
  report the size without it; ``cuobjdump --dump-resource-usage`` reports the section
  size with it. (Counting shared memory through ``sh_info`` returns 0 on sm_90+.)
- per function, ``.nv.info.<function>``: ``EIATTR_MAX_THREADS`` (0x05, from
  ``__launch_bounds__``), ``EIATTR_MAXREG_COUNT`` (0x1b), ``EIATTR_NUM_BARRIERS`` (0x4c),
  ``EIATTR_REQNTID`` (0x10);
- stack frame bytes (``EIATTR_FRAME_SIZE`` 0x11, in ``.nv.info``), which is where
  spilled registers live. The exact spill store/load bytes are not in the cubin;
  they come from the ptxas log (``ptxas info: ... bytes spill stores``), which the
  compiler module asks for.

Record layout in ``.nv.info*``: ``u8 format, u8 attribute`` then, by format,
1 = no value (2 bytes padding), 2 = one byte (+1 padding), 3 = u16, 4 = ``u16 size``
followed by ``size`` bytes.
"""

from __future__ import annotations

import re
import struct
from dataclasses import asdict, dataclass, field

from explorer.model.errors import InputError

EM_CUDA = 190
SHT_SYMTAB = 2
STT_FUNC = 2

EIATTR_MAX_THREADS = 0x05
EIATTR_REQNTID = 0x10
EIATTR_FRAME_SIZE = 0x11
EIATTR_MIN_STACK_SIZE = 0x12
EIATTR_MAXREG_COUNT = 0x1B
EIATTR_REGCOUNT = 0x2F
EIATTR_NUM_BARRIERS = 0x4C

RESERVED_SMEM_BYTES = 1024  # per block, sm_80+; inside .nv.shared.<fn> from sm_90 on
RESERVED_SMEM_SYMBOLS = (".nv.reservedSmem", "__nv_reservedSMEM")


class CubinError(InputError):
    """Not a CUDA cubin, or a damaged one."""

    def __init__(self, message: str, where: str = "cubin"):
        super().__init__(where, message)


@dataclass(frozen=True)
class KernelResources:
    """One kernel's resources as the occupancy rules use them (bytes, registers)."""

    name: str  # symbol name in the cubin (mangled for C++ kernels)
    arch: str  # e.g. "sm_90"
    registers: int
    static_shared_bytes: int  # user static shared memory (reserved region excluded)
    shared_section_bytes: int  # size of .nv.shared.<fn> as stored (what cuobjdump prints)
    reserved_shared_bytes: int  # reserved region found inside that section (0 before sm_90)
    stack_frame_bytes: int  # per-thread local memory frame (spills and local arrays)
    barriers: int  # named barriers the kernel uses (0 if it never synchronizes)
    max_threads_per_block: int | None  # __launch_bounds__ maximum, None if not declared
    max_registers: int | None  # register limit ptxas honoured (maxrregcount / launch bounds)
    spill_store_bytes: int | None = None  # from the ptxas log; None when no log was available
    spill_load_bytes: int | None = None
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def spill_bytes(self) -> int | None:
        """Bytes of spill stores per thread (ptxas' figure), None without a ptxas log."""
        return self.spill_store_bytes

    def with_spills(self, stores: int | None, loads: int | None) -> "KernelResources":
        from dataclasses import replace

        return replace(self, spill_store_bytes=stores, spill_load_bytes=loads)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("extra", None)
        d["spill_bytes"] = self.spill_bytes
        return d


@dataclass
class _Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    info: int


@dataclass
class _Symbol:
    name: str
    info: int
    shndx: int
    value: int
    size: int

    @property
    def kind(self) -> int:
        return self.info & 0xF


class Cubin:
    """A parsed cubin: sections, symbols and the ``.nv.info`` attributes."""

    def __init__(self, data: bytes):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise CubinError("expected the bytes of a cubin")
        self.data = bytes(data)
        b = self.data
        if len(b) < 64 or b[:4] != b"\x7fELF":
            raise CubinError("not an ELF file (a cubin starts with \\x7fELF)")
        if b[4] != 2 or b[5] != 1:
            raise CubinError("not a 64-bit little-endian ELF file")
        try:
            (_type, machine, _ver, _entry, _phoff, shoff, self.flags, _ehsize, _phentsize, _phnum,
             shentsize, shnum, shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", b, 16)
        except struct.error:
            raise CubinError("truncated ELF header") from None
        if machine != EM_CUDA:
            raise CubinError(f"ELF machine {machine} is not CUDA ({EM_CUDA})")
        if shoff + shnum * shentsize > len(b) or shentsize < 64 or shstrndx >= max(shnum, 1):
            raise CubinError("truncated or damaged section table")
        raw = []
        for i in range(shnum):
            name, typ, _flags, _addr, off, size, link, info, _align, _entsize = struct.unpack_from(
                "<IIQQQQIIQQ", b, shoff + i * shentsize)
            raw.append((name, typ, off, size, link, info))
        strtab = raw[shstrndx]
        self.sections = [_Section(self._str(strtab[2], strtab[3], n), t, o, s, lk, inf)
                         for n, t, o, s, lk, inf in raw]
        self.symbols: list[_Symbol] = []
        for sec in self.sections:
            if sec.type == SHT_SYMTAB:
                if sec.link >= len(self.sections):
                    raise CubinError("symbol table links to a missing string table")
                names = self.sections[sec.link]
                self._check(sec)
                for j in range(sec.size // 24):
                    nm, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", b, sec.offset + 24 * j)
                    self.symbols.append(_Symbol(self._str(names.offset, names.size, nm), info, shndx, value, size))

    # -- low level -----------------------------------------------------------------
    def _check(self, sec: _Section) -> None:
        if sec.type != 8 and sec.offset + sec.size > len(self.data):  # 8 = NOBITS (shared memory)
            raise CubinError(f"section {sec.name or '?'} runs past the end of the file")

    def _str(self, table_off: int, table_size: int, off: int) -> str:
        if off >= table_size:
            return ""
        start = table_off + off
        end = self.data.find(b"\0", start, table_off + table_size)
        end = table_off + table_size if end < 0 else end
        return self.data[start:end].decode("utf-8", "replace")

    def section(self, name: str) -> _Section | None:
        for sec in self.sections:
            if sec.name == name:
                return sec
        return None

    def info_records(self, section_name: str) -> list[tuple[int, int, bytes]]:
        """``(format, attribute, payload)`` of every record in an ``.nv.info*`` section."""
        sec = self.section(section_name)
        if sec is None:
            return []
        self._check(sec)
        b, o, end = self.data, sec.offset, sec.offset + sec.size
        out = []
        while o + 2 <= end:
            fmt, attr = b[o], b[o + 1]
            o += 2
            if fmt == 4:
                if o + 2 > end:
                    raise CubinError(f"{section_name}: truncated attribute record")
                (size,) = struct.unpack_from("<H", b, o)
                o += 2
                if o + size > end:
                    raise CubinError(f"{section_name}: attribute 0x{attr:02x} runs past the section")
                out.append((fmt, attr, b[o:o + size]))
                o += size
            elif fmt in (1, 2, 3):
                out.append((fmt, attr, b[o:o + 2]))
                o += 2
            else:
                raise CubinError(f"{section_name}: unknown attribute format {fmt}")
        return out

    # -- what a user asks for ---------------------------------------------------------
    @property
    def arch(self) -> str:
        """``sm_XX`` from the ELF flags: bits 8-15 in current cubins (ABI v8+), bits 0-7 in older ones."""
        high, low = (self.flags >> 8) & 0xFF, self.flags & 0xFF
        sm = high if high >= 30 and low < 30 else low
        return f"sm_{sm}"

    @property
    def sm_version(self) -> int:
        m = re.match(r"sm_(\d+)", self.arch)
        return int(m.group(1)) if m else 0

    def kernels(self) -> list[str]:
        """Names of the entry functions (those with a ``.nv.info.<name>`` section)."""
        names = []
        for sec in self.sections:
            if sec.name.startswith(".nv.info."):
                names.append(sec.name[len(".nv.info."):])
        funcs = {s.name for s in self.symbols if s.kind == STT_FUNC}
        return [n for n in names if n in funcs] or names

    def _symbol_index(self, name: str) -> int | None:
        for i, s in enumerate(self.symbols):
            if s.name == name and s.kind == STT_FUNC:
                return i
        for i, s in enumerate(self.symbols):
            if s.name == name:
                return i
        return None

    def resources(self, kernel: str) -> KernelResources:
        if kernel not in self.kernels():
            found = ", ".join(self.kernels()) or "none"
            raise CubinError(f"no kernel named {kernel!r} in the cubin (kernels: {found})", where="kernel")
        index = self._symbol_index(kernel)
        registers = frame = None
        for fmt, attr, payload in self.info_records(".nv.info"):
            if fmt == 4 and len(payload) >= 8:
                sym, value = struct.unpack_from("<II", payload)
                if sym != index:
                    continue
                if attr == EIATTR_REGCOUNT:
                    registers = value
                elif attr == EIATTR_FRAME_SIZE:
                    frame = value
        max_threads = max_regs = None
        barriers = 0
        reqntid = None
        for fmt, attr, payload in self.info_records(f".nv.info.{kernel}"):
            if attr == EIATTR_MAX_THREADS and fmt == 4 and len(payload) >= 12:
                x, y, z = struct.unpack_from("<III", payload)
                max_threads = x * y * z
            elif attr == EIATTR_REQNTID and fmt == 4 and len(payload) >= 12:
                x, y, z = struct.unpack_from("<III", payload)
                reqntid = x * y * z
            elif attr == EIATTR_MAXREG_COUNT and fmt in (2, 3):
                max_regs = struct.unpack_from("<H", payload)[0] if fmt == 3 else payload[0]
            elif attr == EIATTR_NUM_BARRIERS and fmt in (2, 3):
                barriers = payload[0] if fmt == 2 else struct.unpack_from("<H", payload)[0]
        if registers is None:
            raise CubinError(f"the cubin has no register count (EIATTR_REGCOUNT) for {kernel!r}")
        shared = self.section(f".nv.shared.{kernel}")
        section_bytes = shared.size if shared is not None else 0
        reserved = 0
        if shared is not None and self.sm_version >= 90 and section_bytes >= RESERVED_SMEM_BYTES:
            if any(s.name.startswith(RESERVED_SMEM_SYMBOLS) for s in self.symbols):
                reserved = RESERVED_SMEM_BYTES
        return KernelResources(
            name=kernel,
            arch=self.arch,
            registers=int(registers),
            static_shared_bytes=section_bytes - reserved,
            shared_section_bytes=section_bytes,
            reserved_shared_bytes=reserved,
            stack_frame_bytes=int(frame or 0),
            barriers=int(barriers),
            max_threads_per_block=max_threads if max_threads is not None else reqntid,
            max_registers=max_regs,
        )


PTXAS_SPILL = re.compile(r"(\d+)\s+bytes stack frame,\s*(\d+)\s+bytes spill stores,\s*(\d+)\s+bytes spill loads")
PTXAS_FUNC = re.compile(r"(?:Compiling entry function|Function properties for)\s+'?([^'\s]+)'?")


def ptxas_spills(log: str, kernel: str) -> tuple[int, int] | None:
    """``(spill store bytes, spill load bytes)`` for ``kernel`` from a ``ptxas -v`` log."""
    current = None
    for line in log.splitlines():
        m = PTXAS_FUNC.search(line)
        if m:
            current = m.group(1)
            continue
        m = PTXAS_SPILL.search(line)
        if m and current == kernel:
            return int(m.group(2)), int(m.group(3))
    return None


def read_resources(cubin: bytes, kernel: str, ptxas_log: str = "") -> KernelResources:
    res = Cubin(cubin).resources(kernel)
    spills = ptxas_spills(ptxas_log, kernel) if ptxas_log else None
    return res.with_spills(*spills) if spills else res
