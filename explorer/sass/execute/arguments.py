"""A ``[kernel.args]`` table bound to the compiled kernel's parameters: buffers and constant bank 0.

Each parameter needs an argument of its kind: a pointer a buffer ``{dtype, count, init}``
whose dtype is the pointee's (``float*`` -> ``f32``; ``float4*`` -> ``f32`` with a count
that is a multiple of 4; ``void*`` and pointers to structs take any dtype), a scalar a
number of its type (integers in range, a float for ``float``/``double``/``__half``, true or
false for ``bool``), a vector (``float2``, ``__half2``...) a list of its numbers. A missing,
extra or mistyped argument is refused naming the parameter and its type.

Buffers are placed as ``cudaMalloc`` would: at 4 KiB-aligned device addresses from
``0x7f0000000000`` on (real allocations are at least 256-byte aligned), each followed by
an unmapped 4 KiB gap, so an access just past a buffer's end is out of bounds.

Bank 0 (``c[0x0][...]``) holds what the hardware puts there for a launch (offsets read in
the compiler's code, ``LAUNCH_LAYOUTS``): on sm_75 to sm_90 blockDim x, y, z at 0x0, 0x4,
0x8; gridDim at 0xc, 0x10, 0x14; the local-memory stack pointer at 0x28 (the frame size: the
stack grows down to 0); on sm_100 and sm_120 the same from 0x360, 0x370 and 0x37c; the
parameters at the offsets the cubin gives.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from explorer.model.errors import InputError, shown
from explorer.model.kernel_spec import DTYPES, BufferArg
from explorer.texts.errors import ERRORS

GLOBAL_BASE = 0x7F00_0000_0000
SHARED_WINDOW = 0x7E00_0000_0000  # generic addresses of shared memory (low 32 bits 0: SR_SWINHI is the top)
LOCAL_WINDOW = 0x7D00_0000_0000
ALIGN = 4096
GAP = 4096
BANK_BYTES = 65536
NUMPY = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
         "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64}
INT_RANGES = {"b8": (0, 1), "i8": (-2**7, 2**7 - 1), "u8": (0, 2**8 - 1), "i16": (-2**15, 2**15 - 1),
              "u16": (0, 2**16 - 1), "i32": (-2**31, 2**31 - 1), "u32": (0, 2**32 - 1), "i64": (-2**63, 2**63 - 1),
              "u64": (0, 2**64 - 1)}


@dataclass(frozen=True)
class Buffer:
    name: str
    arg: BufferArg
    address: int  # device address of element 0
    heap_offset: int  # where its bytes start in the executor's heap

    @property
    def nbytes(self) -> int:
        return self.arg.nbytes


@dataclass(frozen=True)
class BoundArguments:
    buffers: tuple[Buffer, ...]
    param_bytes: bytes  # the parameter area of bank 0 from param_base
    values: dict  # parameter -> what was passed (buffer address or scalar), for reports
    heap_bytes: int


def _kind(t) -> str:
    if t.pointer:
        return f"{t.text} (a buffer: give {{ dtype, count, init }})"
    if t.lanes > 1:
        return f"{t.text} (a vector: give a list of {t.lanes} numbers)"
    if t.dtype is None:
        return t.text
    return f"{t.text} ({'true or false' if t.dtype == 'b8' else 'an integer' if t.dtype in INT_RANGES else 'a number'})"


def _scalar_bytes(value, dtype: str, where: str, text: str) -> bytes:
    if dtype == "b8":
        if not isinstance(value, bool):
            raise InputError(where, ERRORS("arg_not_bool", value=shown(value), type=text))
        return bytes([int(value)])
    if isinstance(value, bool):
        raise InputError(where, f"{shown(value)}: the parameter is {text}; give a number")
    if dtype in INT_RANGES:
        if not isinstance(value, int):
            raise InputError(where, ERRORS("arg_not_integer", value=shown(value), type=text))
        lo, hi = INT_RANGES[dtype]
        if not lo <= value <= hi:
            raise InputError(where, ERRORS("arg_out_of_range", value=value, type=text, lo=lo, hi=hi))
        size = DTYPES[dtype]
        return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    v = float(value)
    if dtype == "f32":
        if abs(v) > 3.4028234663852886e38:
            raise InputError(where, f"{value} is outside float's range")
        return struct.pack("<f", v)
    if dtype == "f64":
        return struct.pack("<d", v)
    if dtype == "f16":
        if abs(v) > 65504:
            raise InputError(where, f"{value} is outside __half's range (65504)")
        return np.array([v], dtype=np.float16).tobytes()
    if dtype == "bf16":
        b = struct.unpack("<I", struct.pack("<f", v))[0]
        return struct.pack("<H", ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF)
    raise InputError(where, f"the parameter's type {text} is not supported")


def bind(kernel, spec, seed: int) -> BoundArguments:
    """Check ``spec.args`` against ``kernel.params`` and lay out buffers and parameter bytes."""
    names = [p.name for p in kernel.params]
    for name, _ in spec.args:
        if name not in names:
            listed = ", ".join(f"{p.name}: {p.type.text}" for p in kernel.params) or "none"
            raise InputError(f"kernel.args.{name}", f"{kernel.name} has no parameter {shown(name)}; its parameters: "
                                                    f"{listed}")
    end = max((p.offset + p.size for p in kernel.params), default=kernel.param_base)
    area = bytearray(max(0, end - kernel.param_base))
    buffers: list[Buffer] = []
    values: dict = {}
    address = GLOBAL_BASE
    heap = 0
    for p in kernel.params:
        where = f"kernel.args.{p.name}"
        value = spec.arg(p.name)
        t = p.type
        if value is None:
            raise InputError(where, f"missing: the kernel's parameter {shown(p.name)} is {_kind(t)}")
        if t.pointer:
            if not isinstance(value, BufferArg):
                raise InputError(where, f"{shown(value)}: the parameter is {_kind(t)}")
            want = t.dtype
            plain_char = want == "i8" and "char" in t.text and "signed" not in t.text  # char's sign is the compiler's
            if want is not None and value.dtype != want and not (plain_char and value.dtype == "u8"):
                raise InputError(f"{where}.dtype", f"{shown(value.dtype)}: the parameter is {t.text}, whose "
                                                   f"elements are {want}")
            if t.lanes > 1 and value.count % t.lanes:
                raise InputError(f"{where}.count", f"{value.count}: the parameter is {t.text}; give a multiple of "
                                                   f"{t.lanes} elements")
            buffers.append(Buffer(name=p.name, arg=value, address=address, heap_offset=heap))
            values[p.name] = address
            raw = address.to_bytes(8, "little")
            address += -(-(value.nbytes + GAP) // ALIGN) * ALIGN
            heap += -(-value.nbytes // 256) * 256
        else:
            if isinstance(value, BufferArg):
                raise InputError(where, f"a buffer: the parameter is {_kind(t)}, passed by value")
            if t.dtype is None:
                raise InputError(where, f"the parameter's type {t.text} is not supported (scalars, vectors of "
                                        "numbers and pointers are)")
            items = value if isinstance(value, tuple) else (value,)
            if len(items) != t.lanes:
                raise InputError(where, f"{shown(value)}: the parameter is {_kind(t)}")
            raw = b"".join(_scalar_bytes(v, t.dtype, where, t.text) for v in items)
            values[p.name] = list(items) if t.lanes > 1 else items[0]
        if len(raw) != p.size:
            raw = (raw + b"\0" * p.size)[:p.size]
        off = p.offset - kernel.param_base
        area[off:off + p.size] = raw
    return BoundArguments(buffers=tuple(buffers), param_bytes=bytes(area), values=values, heap_bytes=heap)


INIT_CHUNK = 1 << 20  # elements generated at a time: a buffer's fill never needs a second buffer's memory


def initial_chunks(buf: Buffer, seed: int, index: int, chunk: int = INIT_CHUNK):
    """The buffer's contents before the kernel (its ``init``), ``chunk`` elements at a time, in the buffer's
    dtype (bf16 as raw 16-bit patterns). Deterministic: the same chunks for the same (arg, seed, index)
    whatever ``chunk`` is (numpy's generators draw sequentially), so the run keeps no copy of its inputs:
    they are made again where they are needed (``changed`` counts, ``NAME.in`` in a dump)."""
    a = buf.arg
    dt = NUMPY[a.dtype]
    chunk = max(1, int(chunk))
    if a.count == 0:
        return
    spans = [(k, min(a.count, k + chunk)) for k in range(0, a.count, chunk)]
    if a.init in ("zeros", "ones"):
        value = 0 if a.init == "zeros" else (0x3F80 if a.dtype == "bf16" else 1)
        for lo, hi in spans:
            yield np.full(hi - lo, value, dtype=dt)
        return
    if a.init == "arange":
        for lo, hi in spans:
            if a.dtype in ("f16", "bf16", "f32", "f64"):
                with np.errstate(over="ignore"):  # f16 past 65504 is inf, as on the GPU
                    yield _as_dtype(np.arange(lo, hi, dtype=np.float64), a.dtype)
            else:  # integers wrap modulo the dtype's width, as the whole-array cast did
                yield np.arange(lo, hi, dtype=np.int64).astype(dt)
        return
    rng = np.random.default_rng([a.seed if a.seed is not None else seed, index])
    if a.dtype in ("f16", "bf16", "f32", "f64"):
        lo_v = 0.0 if a.low is None else float(a.low)
        hi_v = 1.0 if a.high is None else float(a.high)
        for lo, hi in spans:
            yield _as_dtype(rng.uniform(lo_v, hi_v, hi - lo), a.dtype)
        return
    lo_t, hi_t = INT_RANGES[a.dtype]
    lo_v = 0 if a.low is None else int(a.low)
    hi_v = min(256, hi_t + 1) if a.high is None else int(a.high)
    lo_v, hi_v = max(lo_v, lo_t), min(hi_v, hi_t + 1)
    if lo_v >= hi_v:
        raise InputError(f"kernel.args.{buf.name}.low", f"the range [{a.low}, {a.high}) holds no {a.dtype} value")
    for lo, hi in spans:
        yield rng.integers(lo_v, hi_v, hi - lo, dtype=np.int64 if a.dtype != "u64" else np.uint64).astype(dt)


class Inputs:
    """The buffers' contents before the kernel, made again when asked for (a run keeps no copy of them).

    ``inputs[name]`` is the whole array (tests, small buffers); :meth:`head` the first elements
    (the window's preview) and :meth:`chunks` the contents piece by piece (``changed`` counts, a dump).
    """

    def __init__(self, bound: "BoundArguments", seed: int):
        self._bufs = {buf.name: (k, buf) for k, buf in enumerate(bound.buffers)}
        self._seed = seed

    def __contains__(self, name) -> bool:
        return name in self._bufs

    def __iter__(self):
        return iter(self._bufs)

    def __len__(self) -> int:
        return len(self._bufs)

    def keys(self):
        return self._bufs.keys()

    def items(self):
        return ((name, self[name]) for name in self._bufs)

    def __getitem__(self, name: str) -> np.ndarray:
        k, buf = self._bufs[name]
        return initial_values(buf, self._seed, k)

    def chunks(self, name: str, chunk: int = INIT_CHUNK):
        k, buf = self._bufs[name]
        return initial_chunks(buf, self._seed, k, chunk)

    def head(self, name: str, n: int) -> np.ndarray:
        k, buf = self._bufs[name]
        return next(initial_chunks(buf, self._seed, k, max(1, n)), np.zeros(0, NUMPY[buf.arg.dtype]))[:n]


def initial_values(buf: Buffer, seed: int, index: int) -> np.ndarray:
    """The buffer's whole contents before the kernel (see :func:`initial_chunks`)."""
    out = np.empty(buf.arg.count, dtype=NUMPY[buf.arg.dtype])
    pos = 0
    for part in initial_chunks(buf, seed, index):
        out[pos:pos + part.shape[0]] = part
        pos += part.shape[0]
    return out


def _as_dtype(v: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "bf16":
        b = v.astype(np.float32).view(np.uint32).astype(np.uint64)
        return (((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF).astype(np.uint16)
    if dtype in ("f16", "f32", "f64"):
        return v.astype(NUMPY[dtype])
    return v.astype(np.int64).astype(NUMPY[dtype])


# Where a launch's values sit in bank 0: (blockDim, gridDim, the stack pointer), by the first architecture
# of a layout. Read in the compiler's code for kernels that read blockDim.{x,y,z}, gridDim.{x,y,z} and use
# a stack frame (NVRTC 13.5): sm_75 to sm_90 load them from c[0x0][0x0..0x8], [0xc..0x14] and [0x28]
# (parameters from 0x160 on sm_75, 0x210 on sm_80-90); sm_100 and sm_120 from c[0x0][0x360..0x368],
# [0x370..0x378] and [0x37c] (parameters from 0x380; c[0x0][0x358] is the memory descriptor that
# desc[URx] names, unused here).
LAUNCH_LAYOUTS = ((100, (0x360, 0x370, 0x37C)), (0, (0x0, 0xC, 0x28)))


def launch_layout(arch: str) -> tuple[int, int, int]:
    """(blockDim, gridDim, stack pointer) offsets in bank 0 for ``arch`` (``sm_90``, ``sm_100a``...)."""
    import re

    m = re.match(r"sm_(\d+)", arch or "")
    number = int(m.group(1)) if m else 0
    return next(layout for first, layout in LAUNCH_LAYOUTS if number >= first)


def bank0(kernel, launch, bound: BoundArguments, frame_bytes: int) -> bytes:
    """Constant bank 0 for the launch (see the module docstring and ``LAUNCH_LAYOUTS``)."""
    block_at, grid_at, stack_at = launch_layout(kernel.arch)
    size = max(kernel.param_base + len(bound.param_bytes), stack_at + 4, 0x30)
    b = bytearray(size)
    struct.pack_into("<III", b, block_at, launch.block.x, launch.block.y, launch.block.z)
    struct.pack_into("<III", b, grid_at, launch.grid.x, launch.grid.y, launch.grid.z)
    struct.pack_into("<I", b, stack_at, frame_bytes)
    b[kernel.param_base:kernel.param_base + len(bound.param_bytes)] = bound.param_bytes
    return bytes(b)
