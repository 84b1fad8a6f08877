"""DT_NEEDED of ELF shared objects (Linux), and the libraries a bundle no longer needs.

Used by warp-explorer.spec to drop the system libraries PyInstaller collected only
for Qt plugins the spec then trimmed (GTK's cairo/pango for the gtk3 theme, Kerberos
for QtNetwork's TLS plugins...), and by the packaging test to check that every
library in the bundle finds its dependencies. No third-party modules.
"""

from __future__ import annotations

import struct
from pathlib import Path

DT_NEEDED, DT_STRTAB, DT_STRSZ = 1, 5, 10


def is_elf(path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def needed(path) -> list[str]:
    """The DT_NEEDED names of an ELF file ([] for anything else or on a parse failure)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    if data[:4] != b"\x7fELF":
        return []
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    try:
        if is64:
            phoff, = struct.unpack_from(end + "Q", data, 0x20)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
        else:
            phoff, = struct.unpack_from(end + "I", data, 0x1C)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2A)
        loads, dynamic = [], None
        for i in range(phnum):
            off = phoff + i * phentsize
            if is64:
                p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(end + "IIQQQQ", data, off)
            else:
                p_type, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from(end + "IIIII", data, off)
            if p_type == 1:  # PT_LOAD
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == 2:  # PT_DYNAMIC
                dynamic = (p_offset, p_filesz)
        if dynamic is None:
            return []
        fmt, size = (end + "qQ", 16) if is64 else (end + "iI", 8)
        names, strtab = [], None
        for off in range(dynamic[0], dynamic[0] + dynamic[1], size):
            tag, val = struct.unpack_from(fmt, data, off)
            if tag == 0:
                break
            if tag == DT_NEEDED:
                names.append(val)
            elif tag == DT_STRTAB:
                strtab = val
        if strtab is None:
            return []
        for vaddr, offset, filesz in loads:  # DT_STRTAB is an address: map it to a file offset
            if vaddr <= strtab < vaddr + filesz:
                strtab = strtab - vaddr + offset
                break
        out = []
        for n in names:
            start = strtab + n
            out.append(data[start:data.index(b"\0", start)].decode())
        return out
    except (struct.error, ValueError, IndexError):
        return []


def unneeded(roots: dict[str, str], candidates: dict[str, str]) -> set[str]:
    """Candidate libraries (basename -> path) that no root (name -> path) needs, even indirectly."""
    seen: set[str] = set()
    todo = list(roots.values())
    while todo:
        for name in needed(todo.pop()):
            if name in candidates and name not in seen:
                seen.add(name)
                todo.append(candidates[name])
    return set(candidates) - seen
