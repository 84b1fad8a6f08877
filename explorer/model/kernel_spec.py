"""A scenario's ``[kernel]``: the user's own ``.cu`` kernel and its arguments (replaces the workload).

::

    [kernel]
    file = "saxpy.cu"          # relative to the scenario file
    name = "saxpy"             # extern "C" or C++ (demangled) name
    [kernel.args]              # by the kernel's parameter names
    n = 1048576                # scalars by value
    a = 2.0
    x = { dtype = "f32", count = 1048576, init = "arange" }   # pointers: buffers
    y = { dtype = "f32", count = 1048576, init = "ones" }

This module checks only what can be checked without compiling: the shape of each value
(a number, a list of numbers for a vector, or a buffer table), the buffer fields and the
total buffer bytes (bounded up front: every accepted run fits in memory). Whether a
value fits the parameter's type is checked against the kernel's signature once it is
compiled (``explorer.sass.execute.arguments``). The file path is kept as written and
resolved against ``base_dir``, the folder of the scenario file it came from.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from explorer.model.errors import InputError, require_int, shown
from explorer.model.workload import parse_rate

DTYPES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4,
          "i64": 8, "u64": 8}
INITS = ("zeros", "ones", "arange", "random")
# Bounds of the model. Buffers are held twice when their contents before the kernel are
# kept (--dump-buffers); 1 GiB keeps that within what a laptop has.
MAX_BUFFER_BYTES = 1 << 30  # all buffer arguments together
MAX_ARGS = 64
MAX_NAME_CHARS = 512
DEFAULT_MAX_INSTRUCTIONS = 500_000_000  # warp-instructions: an endless loop stops here (about a minute)
MAX_INSTRUCTIONS = 100_000_000_000
BUFFER_KEYS = ("dtype", "count", "init", "seed", "low", "high")
KERNEL_KEYS = ("file", "name", "args", "max_instructions", "l1_hit_rate", "l2_hit_rate")
SOURCE_SUFFIXES = (".cu", ".cuh")  # what kernel.file may name
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class BufferArg:
    """A pointer argument: a device buffer of ``count`` elements of ``dtype``, filled by ``init``."""

    dtype: str
    count: int
    init: str = "zeros"
    seed: int | None = None  # random: None = the scenario's seed
    low: float | None = None  # random: the range (defaults: [0, 1) floats, [0, 256) integers)
    high: float | None = None

    @property
    def nbytes(self) -> int:
        return self.count * DTYPES[self.dtype]

    def to_dict(self) -> dict:
        d: dict = {"dtype": self.dtype, "count": self.count, "init": self.init}
        for key in ("seed", "low", "high"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d

    def describe(self) -> str:
        return f"{self.dtype} x {self.count:,} ({self.init})"


@dataclass(frozen=True)
class KernelSpec:
    file: str
    name: str
    args: tuple = ()  # ((parameter name, int | float | bool | tuple of numbers | BufferArg), ...)
    max_instructions: int = DEFAULT_MAX_INSTRUCTIONS
    # the simulator's cache model, as a workload's: the share of global loads served by L1, and of the
    # rest by L2 (real caches from the executed sector numbers come later)
    l1_hit_rate: float = 0.0
    l2_hit_rate: float = 0.0
    base_dir: str = field(default="", compare=False)  # the scenario file's folder (not saved)

    @property
    def path(self) -> Path:
        p = Path(self.file)
        return p if p.is_absolute() or not self.base_dir else Path(self.base_dir) / p

    def anchored(self) -> "KernelSpec":
        """The same kernel with its file as an absolute path (the window keeps it so: a copy of the
        scenario that loses ``base_dir``, e.g. in the settings, still finds the file)."""
        return replace(self, file=os.path.normpath(self.path.absolute()), base_dir="")

    def relative_to(self, folder: str | Path) -> "KernelSpec":
        """The same kernel with its file written relative to ``folder`` (where its scenario file goes);
        absolute where no relative path leads there (another drive)."""
        target = os.path.normpath(self.path.absolute())
        try:
            file = os.path.relpath(target, Path(folder).absolute())
        except ValueError:
            file = str(target)
        return replace(self, file=Path(file).as_posix(), base_dir=str(Path(folder).absolute()))

    def arg(self, name: str):
        for k, v in self.args:
            if k == name:
                return v
        return None

    @property
    def buffers(self) -> list[tuple[str, BufferArg]]:
        return [(k, v) for k, v in self.args if isinstance(v, BufferArg)]

    @property
    def buffer_bytes(self) -> int:
        return sum(b.nbytes for _, b in self.buffers)

    def to_dict(self) -> dict:
        d: dict = {"file": self.file, "name": self.name}
        if self.max_instructions != DEFAULT_MAX_INSTRUCTIONS:
            d["max_instructions"] = self.max_instructions
        for key in ("l1_hit_rate", "l2_hit_rate"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        d["args"] = {k: (v.to_dict() if isinstance(v, BufferArg) else (list(v) if isinstance(v, tuple) else v))
                     for k, v in self.args}
        return d


def _number(where: str, value, what: str = "a number"):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(where, f"{shown(value)} is not {what}")
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(where, f"{value} is not a finite number")
    return value


def parse_buffer(data: dict, where: str) -> BufferArg:
    unknown = set(data) - set(BUFFER_KEYS)
    if unknown:
        raise InputError(f"{where}.{sorted(unknown)[0]}", f"unknown key; a buffer has {', '.join(BUFFER_KEYS)}")
    if "dtype" not in data or "count" not in data:
        raise InputError(where, "a buffer needs dtype and count, e.g. { dtype = \"f32\", count = 1024, "
                                "init = \"zeros\" }")
    dtype = data["dtype"]
    if not isinstance(dtype, str) or dtype.strip().lower() not in DTYPES:
        raise InputError(f"{where}.dtype", f"{shown(dtype)} is not a dtype; choose one of {', '.join(DTYPES)}")
    dtype = dtype.strip().lower()
    most = MAX_BUFFER_BYTES // DTYPES[dtype]
    count = require_int(f"{where}.count", data["count"], lo=1, hi=most)
    init = data.get("init", "zeros")
    if not isinstance(init, str) or init.strip().lower() not in INITS:
        raise InputError(f"{where}.init", f"{shown(init)} is not an initialiser; choose one of {', '.join(INITS)}")
    init = init.strip().lower()
    seed = data.get("seed")
    if seed is not None:
        seed = require_int(f"{where}.seed", seed, lo=0, hi=2**63 - 1)
    low = data.get("low")
    high = data.get("high")
    if (low is not None or high is not None) and init != "random":
        raise InputError(f"{where}.{'low' if low is not None else 'high'}", "low and high are for init = \"random\"")
    if low is not None:
        low = _number(f"{where}.low", low)
    if high is not None:
        high = _number(f"{where}.high", high)
    if low is not None and high is not None and not low < high:
        raise InputError(f"{where}.high", f"{high} is not above low ({low})")
    if init == "random" and (low is None) != (high is None):
        # one end given: the other is the default, and the pair must still be a range (issue 30, item 6:
        # low = 2 alone met the default high of 1 in numpy: "high - low < 0", exit 1)
        lo, hi = random_range(dtype, low, high)
        if not lo < hi:
            given, other = ("low", "high") if low is not None else ("high", "low")
            value = low if low is not None else high
            raise InputError(f"{where}.{given}", f"{value} leaves an empty range with the default {other} of "
                                                 f"{hi if other == 'high' else lo} for {dtype}; give both low and high")
    return BufferArg(dtype=dtype, count=count, init=init, seed=seed, low=low, high=high)


FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")


def random_range(dtype: str, low, high) -> tuple:
    """The [low, high) a random fill draws from, the defaults filled in: [0, 1) for floats, [0, 256) for
    integers (the executor also clips integers to the dtype's range)."""
    if dtype in FLOAT_DTYPES:
        return (0.0 if low is None else float(low)), (1.0 if high is None else float(high))
    return (0 if low is None else low), (256 if high is None else high)


def parse_arg(value, where: str):
    """A scalar (int, float, bool), a vector (list of numbers) or a buffer (table)."""
    if isinstance(value, dict):
        return parse_buffer(value, where)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return _number(where, value)
    if isinstance(value, list):
        if not 1 <= len(value) <= 4:
            raise InputError(where, f"a vector argument has 1 to 4 numbers, got {len(value)}")
        return tuple(_number(f"{where}[{k}]", v) for k, v in enumerate(value))
    raise InputError(where, f"{shown(value)} is not an argument; give a number, a list of numbers (a vector) or a "
                            "buffer { dtype, count, init }")


def parse_kernel(data, base_dir: str = "", where: str = "kernel") -> KernelSpec:
    """A validated KernelSpec from a scenario's ``[kernel]`` table."""
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    unknown = set(data) - set(KERNEL_KEYS)
    if unknown:
        raise InputError(f"{where}.{sorted(unknown)[0]}", f"unknown key; allowed: {', '.join(KERNEL_KEYS)}")
    file = data.get("file")
    if not isinstance(file, str) or not file.strip():
        raise InputError(f"{where}.file", "give the .cu file (relative to the scenario file), e.g. file = \"saxpy.cu\"")
    if "\0" in file or len(file) > 4096:
        raise InputError(f"{where}.file", "not a valid file name")
    if not file.strip().lower().endswith(SOURCE_SUFFIXES):
        # a scenario names CUDA sources only: any other file it names (a key, a password file) would be read
        # and quoted back in the compiler's first error (issue 30, item 7)
        raise InputError(f"{where}.file", f"{shown(file.strip())} is not a CUDA source; the file name must end in "
                                          f"{' or '.join(SOURCE_SUFFIXES)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}.name", "give the kernel's name (extern \"C\" or its C++ name)")
    name = name.strip()
    if len(name) > MAX_NAME_CHARS or any(ord(c) < 32 for c in name):
        raise InputError(f"{where}.name", f"not a kernel name (one line, at most {MAX_NAME_CHARS} characters; the "
                                          "compiler checks the rest)")
    args_data = data.get("args", {})
    if not isinstance(args_data, dict):
        raise InputError(f"{where}.args", "expected a table of the kernel's arguments by parameter name")
    if len(args_data) > MAX_ARGS:
        raise InputError(f"{where}.args", f"{len(args_data)} arguments is above the limit of {MAX_ARGS}")
    args = []
    for key, value in args_data.items():
        if not _NAME.fullmatch(str(key)):
            raise InputError(f"{where}.args", f"{shown(key)} is not a parameter name")
        args.append((key, parse_arg(value, f"{where}.args.{key}")))
    spec = KernelSpec(file=file.strip(), name=name, args=tuple(args),
                      max_instructions=require_int(f"{where}.max_instructions",
                                                   data.get("max_instructions", DEFAULT_MAX_INSTRUCTIONS), lo=1,
                                                   hi=MAX_INSTRUCTIONS),
                      l1_hit_rate=parse_rate(f"{where}.l1_hit_rate", data.get("l1_hit_rate", 0.0)),
                      l2_hit_rate=parse_rate(f"{where}.l2_hit_rate", data.get("l2_hit_rate", 0.0)),
                      base_dir=base_dir)
    total = spec.buffer_bytes
    if total > MAX_BUFFER_BYTES:
        raise InputError(f"{where}.args", f"the buffers take {total:,} bytes, above the limit of "
                                          f"{MAX_BUFFER_BYTES:,} bytes for all buffer arguments together")
    return spec
