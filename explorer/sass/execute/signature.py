"""A kernel's parameters by name and type: from its source and its (demangled) symbol.

Why the source: a cubin records each parameter's offset and size in the constant bank
(``EIATTR_KPARAM_INFO``) but not its name, and an ``extern "C"`` symbol carries no types
either. So the names come from the ``__global__`` declaration in the ``.cu`` file; the
types from the demangled symbol for C++ kernels (exact, templates instantiated:
``scale_by<3>(float*, int)``) or from the declaration (with the file's ``typedef``,
``using`` and one-word ``#define`` aliases applied). The sizes must agree with the cubin's,
or the kernel is refused with the parameter named.

Demangling uses the C++ runtime's ``abi::__cxa_demangle`` (libstdc++ through ctypes, as
``c++filt`` does); where it is missing the mangled name is shown.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from dataclasses import dataclass
from functools import cache

from explorer.model.errors import InputError

# C and CUDA scalar types -> (dtype, bytes). long is 8 bytes (LP64: Linux; the executor's
# kernels are compiled as NVRTC does for a 64-bit host).
SCALARS = {
    "bool": ("b8", 1), "char": ("i8", 1), "signed char": ("i8", 1), "unsigned char": ("u8", 1),
    "short": ("i16", 2), "short int": ("i16", 2), "signed short": ("i16", 2), "unsigned short": ("u16", 2),
    "unsigned short int": ("u16", 2),
    "int": ("i32", 4), "signed": ("i32", 4), "signed int": ("i32", 4), "unsigned": ("u32", 4),
    "unsigned int": ("u32", 4),
    "long": ("i64", 8), "long int": ("i64", 8), "signed long": ("i64", 8), "unsigned long": ("u64", 8),
    "unsigned long int": ("u64", 8), "long long": ("i64", 8), "long long int": ("i64", 8),
    "signed long long": ("i64", 8), "unsigned long long": ("u64", 8), "unsigned long long int": ("u64", 8),
    "int8_t": ("i8", 1), "uint8_t": ("u8", 1), "int16_t": ("i16", 2), "uint16_t": ("u16", 2),
    "int32_t": ("i32", 4), "uint32_t": ("u32", 4), "int64_t": ("i64", 8), "uint64_t": ("u64", 8),
    "size_t": ("u64", 8), "ptrdiff_t": ("i64", 8), "ssize_t": ("i64", 8), "intptr_t": ("i64", 8),
    "uintptr_t": ("u64", 8),
    "float": ("f32", 4), "double": ("f64", 8),
    "__half": ("f16", 2), "half": ("f16", 2), "__nv_bfloat16": ("bf16", 2), "nv_bfloat16": ("bf16", 2),
}
# by-value vectors: (element dtype, lanes)
VECTORS = {}
for _base, _dt, _size in (("char", "i8", 1), ("uchar", "u8", 1), ("short", "i16", 2), ("ushort", "u16", 2),
                          ("int", "i32", 4), ("uint", "u32", 4), ("long", "i64", 8), ("ulong", "u64", 8),
                          ("longlong", "i64", 8), ("ulonglong", "u64", 8), ("float", "f32", 4),
                          ("double", "f64", 8)):
    for _n in (1, 2, 3, 4):
        VECTORS[f"{_base}{_n}"] = (_dt, _n)
VECTORS.update({"__half2": ("f16", 2), "half2": ("f16", 2), "__nv_bfloat162": ("bf16", 2),
                "nv_bfloat162": ("bf16", 2)})
DTYPE_BYTES = {"b8": 1, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "f16": 2,
               "bf16": 2, "f32": 4, "f64": 8}
QUALIFIERS = ("const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__", "struct",
              "class", "typename", "__device__", "__constant__", "__shared__")
MAX_SIGNATURE_CHARS = 16_384


@dataclass(frozen=True)
class ParamType:
    """A parameter's type: a pointer to ``pointee`` or a scalar/vector by value."""

    text: str  # as read (normalised spaces)
    pointer: bool
    dtype: str | None  # scalar: its dtype; pointer: the pointee's element dtype; None: unknown
    lanes: int = 1  # vectors (float4: 4), or the pointee's lanes (float4*: 4)
    size: int | None = None  # bytes by value (8 for a pointer)

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class Declared:
    """One ``__global__`` declaration found in the source."""

    name: str
    params: tuple[tuple[str | None, str], ...]  # (name or None, type text)
    template: bool


def strip_comments(source: str) -> str:
    """The source with comments and string/character literals blanked (lengths kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _aliases(text: str) -> dict[str, str]:
    """typedef / using / one-word #define aliases of the file (one level is applied at a time)."""
    out: dict[str, str] = {}
    for m in re.finditer(r"\btypedef\s+([^;{}()]+?)\s+([A-Za-z_]\w*)\s*;", text):
        out[m.group(2)] = " ".join(m.group(1).split())
    for m in re.finditer(r"\busing\s+([A-Za-z_]\w*)\s*=\s*([^;{}()]+?)\s*;", text):
        out[m.group(1)] = " ".join(m.group(2).split())
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([A-Za-z_][\w ]*?)[ \t]*$", text,
                         flags=re.MULTILINE):
        out[m.group(1)] = " ".join(m.group(2).split())
    return out


def _matching(text: str, start: int, open_: str, close: str) -> int:
    depth = 0
    for j in range(start, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _split_top(text: str) -> list[str]:
    from explorer.sass.listing import split_operands

    return split_operands(text, "(<[{", ")>]}")


def declarations(source: str) -> list[Declared]:
    """Every ``__global__`` function declared in ``source`` (definitions and prototypes)."""
    text = strip_comments(source)
    found = []
    for m in re.finditer(r"\b__global__\b", text):
        j = m.end()
        depth = 0
        k = j
        while k < len(text):  # up to the parameter list's "(": the last identifier before it is the name
            ch = text[k]
            if ch == "(" and depth == 0:
                head = text[j:k]
                name_m = re.search(r"([A-Za-z_]\w*)\s*$", head)
                if name_m and name_m.group(1) not in ("__launch_bounds__", "__maxnreg__", "__cluster_dims__",
                                                      "__align__", "__attribute__", "__declspec"):
                    break
                end = _matching(text, k, "(", ")")  # an attribute's arguments
                if end < 0:
                    break
                k = end + 1
                continue
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth -= 1
            elif ch in ";{}":
                break
            k += 1
        if k >= len(text) or text[k] != "(":
            continue
        name_m = re.search(r"([A-Za-z_]\w*)\s*$", text[j:k])
        if not name_m:
            continue
        end = _matching(text, k, "(", ")")
        if end < 0:
            continue
        inner = text[k + 1:end]
        if len(inner) > MAX_SIGNATURE_CHARS:
            continue
        params = []
        for part in _split_top(inner):
            part = part.split("=")[0].strip()
            if not part or part == "void":
                continue
            pm = re.match(r"^(.*?[\s*&])\s*([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", part)
            if pm and pm.group(2) not in SCALARS and pm.group(2) not in QUALIFIERS:
                tname = pm.group(1) + ("*" if pm.group(3) is not None else "")
                params.append((pm.group(2), " ".join(tname.split())))
            else:
                params.append((None, " ".join(part.split())))
        before = text[max(0, m.start() - 400):m.start()]
        template = bool(re.search(r"template\s*<[^;{}]*>\s*(?:static\s+|inline\s+|extern\s+\"C\"\s+)*$",
                                  before.rstrip()))
        found.append(Declared(name=name_m.group(1), params=tuple(params), template=template))
    return found


def parse_type(text: str, aliases: dict[str, str] | None = None) -> ParamType:
    """A parameter type from its C text (``const float * __restrict__``) or a demangled one (``float const*``)."""
    aliases = aliases or {}
    t = " ".join(text.replace("*", " * ").replace("&", " & ").split())
    for _ in range(8):  # apply aliases (a few levels)
        words = t.split()
        new = " ".join(aliases.get(w, w) for w in words)
        if new == t:
            break
        t = " ".join(new.replace("*", " * ").split())
    words = [w for w in t.split() if w not in QUALIFIERS]
    stars = words.count("*")
    if "&" in words:
        return ParamType(text=" ".join(text.split()), pointer=False, dtype=None, size=None)
    base = " ".join(w for w in words if w != "*")
    base = re.sub(r"^(?:::)?(?:std|cuda::std)::", "", base)
    shown = " ".join(text.split())
    if stars >= 1:
        if stars > 1:
            return ParamType(text=shown, pointer=True, dtype=None, size=8)
        if base in SCALARS:
            dt, _ = SCALARS[base]
            return ParamType(text=shown, pointer=True, dtype=dt if dt != "b8" else "u8", size=8)
        if base in VECTORS:
            dt, lanes = VECTORS[base]
            return ParamType(text=shown, pointer=True, dtype=dt, lanes=lanes, size=8)
        return ParamType(text=shown, pointer=True, dtype=None, size=8)  # void* or a struct: any dtype
    if base in SCALARS:
        dt, size = SCALARS[base]
        return ParamType(text=shown, pointer=False, dtype=dt, size=size)
    if base in VECTORS:
        dt, lanes = VECTORS[base]
        return ParamType(text=shown, pointer=False, dtype=dt, lanes=lanes, size=DTYPE_BYTES[dt] * lanes)
    return ParamType(text=shown, pointer=False, dtype=None, size=None)


# -- demangling ---------------------------------------------------------------------------
@cache
def _cxa_demangle():
    for name in (ctypes.util.find_library("stdc++"), "libstdc++.so.6", "libc++.so.1", "libc++abi.dylib"):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
            fn = lib.__cxa_demangle
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_void_p
        fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        free = ctypes.CDLL(None).free if hasattr(ctypes.CDLL(None), "free") else None
        return fn, free
    return None


def demangle(symbol: str) -> str:
    """The C++ name of an Itanium-mangled symbol (``_Z5saxpyifPKfPf`` -> ``saxpy(int, float, float const*, float*)``);
    the symbol itself when it is not mangled or no demangler is available."""
    if not symbol.startswith("_Z") or len(symbol) > 4096:
        return symbol
    found = _cxa_demangle()
    if found is None:
        return symbol
    fn, free = found
    status = ctypes.c_int(0)
    ptr = fn(symbol.encode(), None, None, ctypes.byref(status))
    if status.value != 0 or not ptr:
        return symbol
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        if free is not None:
            free.argtypes = [ctypes.c_void_p]
            free(ptr)


def demangled_parts(demangled: str) -> tuple[str, list[str] | None]:
    """(name with template arguments, parameter types) of a demangled signature
    (``void scale_by<3>(float*, int)`` -> ``scale_by<3>``, [float*, int]); (name, None) if unparsable."""
    d = demangled.strip()
    if not d.endswith(")"):
        return d, None
    depth = 0
    for k in range(len(d) - 1, -1, -1):
        if d[k] == ")":
            depth += 1
        elif d[k] == "(":
            depth -= 1
            if depth == 0:
                head, inner = d[:k], d[k + 1:-1]
                break
    else:
        return d, None
    head = head.strip()
    # a template function's demangled name starts with its return type ("void scale_by<3>")
    depth, cut = 0, 0
    for k, ch in enumerate(head):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            cut = k + 1
    name = head[cut:]
    params = [p.strip() for p in _split_top(inner)] if inner.strip() not in ("", "void") else []
    return name, params


def short_name(demangled: str) -> str:
    """``ns::scale_by<3>`` -> ``scale_by`` (the identifier a declaration carries)."""
    name, _ = demangled_parts(demangled)
    base = name.split("<")[0]
    return base.split("::")[-1]


def kernel_parameters(source: str, symbol: str, sizes: list[int], field: str = "kernel.name"
                      ) -> tuple[list[str], list[ParamType]]:
    """(names, types) of the kernel's parameters, checked against the cubin's parameter sizes.

    A parameter the source leaves unnamed gets ``arg<N>`` (its position from 0).
    """
    demangled = demangle(symbol)
    cpp_types = None
    if demangled != symbol:
        _, cpp_types = demangled_parts(demangled)
    wanted = short_name(demangled) if demangled != symbol else symbol
    text = strip_comments(source)
    aliases = _aliases(text)
    candidates = [d for d in declarations(source) if d.name == wanted]
    if cpp_types is not None:
        same = [d for d in candidates if len(d.params) == len(cpp_types)]
        candidates = same or candidates
    else:
        candidates = [d for d in candidates if len(d.params) == len(sizes)] or candidates
    if not candidates:
        raise InputError(field, f"found no __global__ declaration of {wanted!r} in the source (needed for the "
                                "parameters' names)")
    decl = candidates[0]
    if len(decl.params) != len(sizes):
        raise InputError(field, f"{wanted} declares {len(decl.params)} parameters but the compiled kernel has "
                                f"{len(sizes)}")
    names, types = [], []
    for k, (pname, ptext) in enumerate(decl.params):
        t = parse_type(cpp_types[k], aliases) if cpp_types is not None else parse_type(ptext, aliases)
        if cpp_types is None and t.dtype is None and not t.pointer and decl.template:
            t = ParamType(text=ptext, pointer=False, dtype=None, size=None)
        name = pname or f"arg{k}"
        if t.size is not None and t.size != sizes[k]:
            raise InputError(f"kernel.args.{name}", f"the parameter's type {t.text} is {t.size} bytes in the "
                                                    f"source but {sizes[k]} in the compiled kernel")
        names.append(name)
        types.append(t)
    return names, types
