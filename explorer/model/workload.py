"""What every warp of a kernel executes: a loop over a short body of operations.

The same ``Workload`` drives the simulator (which turns it into an instruction
stream with register dependencies) and the real-GPU backend (which turns it into
CUDA C++), so a simulation and a measurement run the same kernel.

Operations (``op``), each repeated ``count`` times per iteration:

- ``ldg`` / ``stg``: global load / store of ``bytes`` per thread (4, 8 or 16) with
  neighbouring threads ``stride`` elements apart (1 = coalesced);
- ``lds`` / ``sts``: shared load / store with ``conflict_ways``-way bank conflicts;
- ``ffma``: FP32 fused multiply-adds in ``ilp`` independent chains (1 = fully
  dependent: each FMA waits for the previous one);
- ``sfu``: a special-function op (``__expf``, ``rsqrtf``...);
- ``mma``: a Tensor Core matrix multiply-accumulate (m16n8k16, FP16 in, FP32 out);
- ``sync``: ``__syncthreads()``.

Dependencies follow a simple rule that matches how such kernels are written: a
load's address comes from the loop index (independent); the first op of a compute
or store step consumes the result of the previous value-producing step; FMA and
MMA chains accumulate across iterations (loop-carried).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.model.errors import InputError, reject_unknown_keys, require_int, shown

OPS = ("ldg", "stg", "lds", "sts", "ffma", "sfu", "mma", "sync")
OP_DOC = {
    "ldg": "global load",
    "stg": "global store",
    "lds": "shared-memory load",
    "sts": "shared-memory store",
    "ffma": "FP32 fused multiply-add",
    "sfu": "special-function op (exp, rsqrt...)",
    "mma": "Tensor Core matrix multiply-accumulate",
    "sync": "__syncthreads() barrier",
}
MEMORY_OPS = ("ldg", "stg", "lds", "sts")
CHAIN_OPS = ("ffma", "mma")
MAX_COUNT = 256
MAX_LOOP = 1_000_000
MAX_BODY = 64
SECTOR_BYTES = 32


@dataclass(frozen=True)
class Op:
    op: str
    count: int = 1
    bytes: int = 4
    stride: int = 1
    ilp: int = 1
    conflict_ways: int = 1

    def to_dict(self) -> dict:
        d = {"op": self.op}
        if self.count != 1:
            d["count"] = self.count
        if self.op in MEMORY_OPS:
            d["bytes"] = self.bytes
        if self.op in ("ldg", "stg") and self.stride != 1:
            d["stride"] = self.stride
        if self.op in CHAIN_OPS and self.ilp != 1:
            d["ilp"] = self.ilp
        if self.op in ("lds", "sts") and self.conflict_ways != 1:
            d["conflict_ways"] = self.conflict_ways
        return d

    @property
    def bytes_per_request(self) -> int:
        """Bytes a warp-wide access moves: whole 32-byte sectors touched by 32 threads.

        Coalesced 4-byte loads touch 4 sectors (128 B); with threads 8 or more
        elements apart every thread touches its own sector (32 x 32 B = 1 KB).
        """
        if self.op not in ("ldg", "stg"):
            return 32 * self.bytes
        sectors = set()
        for lane in range(32):
            first = lane * self.stride * self.bytes
            last = first + self.bytes - 1  # an element (<= 16 B) spans at most two sectors
            sectors.update((first // SECTOR_BYTES, last // SECTOR_BYTES))
        return len(sectors) * SECTOR_BYTES

    @property
    def useful_bytes(self) -> int:
        return 32 * self.bytes


@dataclass(frozen=True)
class Workload:
    body: tuple[Op, ...]
    loop: int = 16
    l1_hit_rate: float = 0.0
    l2_hit_rate: float = 0.0
    preset: str = ""

    def to_dict(self) -> dict:
        d: dict = {}
        if self.preset:
            d["preset"] = self.preset
        d["loop"] = self.loop
        d["l1_hit_rate"] = self.l1_hit_rate
        d["l2_hit_rate"] = self.l2_hit_rate
        d["body"] = [op.to_dict() for op in self.body]
        return d

    @property
    def instructions_per_iteration(self) -> int:
        return sum(op.count for op in self.body)

    @property
    def instructions_per_warp(self) -> int:
        """Warp-instructions a warp issues: the loop body times the loop count, plus EXIT."""
        return self.instructions_per_iteration * self.loop + 1

    def describe(self) -> str:
        parts = []
        for op in self.body:
            text = op.op if op.count == 1 else f"{op.count}x {op.op}"
            if op.op in ("ldg", "stg"):
                text += f" {op.bytes}B" + (f" stride {op.stride}" if op.stride != 1 else "")
            if op.op in CHAIN_OPS and op.ilp != 1:
                text += f" ilp {op.ilp}"
            parts.append(text)
        return f"{self.loop} x [" + ", ".join(parts) + "]"


# Named bodies, each teaching one thing. A scenario may name one and override fields.
PRESETS: dict[str, dict] = {
    "fma-global": {
        "doc": "load one value, eight dependent FMAs on it, store it (the mission's example)",
        "loop": 16,
        "l2_hit_rate": 0.0,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 8}, {"op": "stg", "bytes": 4}],
    },
    "stream": {
        "doc": "memory-bound streaming: c[i] = a[i] * s + b[i] with 16-byte vectors",
        "loop": 8,
        "body": [
            {"op": "ldg", "bytes": 16, "count": 2},
            {"op": "ffma", "count": 4, "ilp": 4},
            {"op": "stg", "bytes": 16},
        ],
    },
    "compute": {
        "doc": "compute-bound: long FMA chains with 4-way instruction-level parallelism",
        "loop": 32,
        "body": [{"op": "ffma", "count": 32, "ilp": 4}],
    },
    "latency": {
        "doc": "latency-bound: a load, then a dependent FMA chain that needs its result",
        "loop": 16,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 4}, {"op": "stg", "bytes": 4}],
    },
    "strided": {
        "doc": "uncoalesced: threads 32 elements apart, every thread its own 32-byte sector",
        "loop": 8,
        "body": [{"op": "ldg", "bytes": 4, "stride": 32}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}],
    },
    "tiled-shared": {
        "doc": "shared-memory tiling: stage a tile, barrier, compute from shared memory, barrier",
        "loop": 16,
        "l2_hit_rate": 0.5,
        "body": [
            {"op": "ldg", "bytes": 4},
            {"op": "sts", "bytes": 4},
            {"op": "sync"},
            {"op": "lds", "bytes": 4, "count": 8},
            {"op": "ffma", "count": 8, "ilp": 2},
            {"op": "sync"},
        ],
    },
    "tensor-gemm": {
        "doc": "GEMM-like main loop: global->shared stage, barrier, fragments from shared, MMAs",
        "loop": 32,
        "l2_hit_rate": 0.7,
        "body": [
            {"op": "ldg", "bytes": 16},
            {"op": "sts", "bytes": 16},
            {"op": "sync"},
            {"op": "lds", "bytes": 16, "count": 4},
            {"op": "mma", "count": 8, "ilp": 4},
            {"op": "sync"},
        ],
    },
    "sfu": {
        "doc": "special functions: each value goes through exp and rsqrt",
        "loop": 16,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "sfu", "count": 2}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}],
    },
}


def parse_rate(field_name: str, value) -> float:
    """A hit rate: a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field_name, f"{shown(value)} is not a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise InputError(field_name, f"{value} is outside the range 0 to 1")
    return float(value)


def _parse_op(item, where: str) -> Op:
    if not isinstance(item, dict):
        raise InputError(where, f"expected a table like {{ op = \"ffma\", count = 4 }}, got {shown(item)}")
    reject_unknown_keys(item, {"op", "count", "bytes", "stride", "ilp", "conflict_ways"}, where)
    name = item.get("op")
    if not isinstance(name, str) or name not in OPS:
        raise InputError(f"{where}.op", f"{shown(name)} is not an operation; choose one of {', '.join(OPS)}")
    count = require_int(f"{where}.count", item.get("count", 1), lo=1, hi=MAX_COUNT)
    nbytes = require_int(f"{where}.bytes", item.get("bytes", 4), lo=1, hi=16)
    if name in MEMORY_OPS and nbytes not in (4, 8, 16):
        raise InputError(f"{where}.bytes", f"{nbytes} bytes per thread; choose 4, 8 or 16 (vector widths)")
    stride = require_int(f"{where}.stride", item.get("stride", 1), lo=1, hi=1024)
    ilp = require_int(f"{where}.ilp", item.get("ilp", 1), lo=1, hi=8)
    if name in CHAIN_OPS and ilp > count:
        raise InputError(f"{where}.ilp", f"{ilp} independent chains need count >= {ilp} (count is {count})")
    ways = require_int(f"{where}.conflict_ways", item.get("conflict_ways", 1), lo=1, hi=32)
    if name == "sync" and count != 1:
        raise InputError(f"{where}.count", "a sync step is one barrier; write several steps for several")
    return Op(name, count=count, bytes=nbytes, stride=stride, ilp=ilp, conflict_ways=ways)


def parse_workload(data, where: str = "workload") -> Workload:
    """Build a validated Workload from a scenario's ``[workload]`` table."""
    if data is None:
        data = {"preset": "fma-global"}
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    reject_unknown_keys(data, {"preset", "loop", "l1_hit_rate", "l2_hit_rate", "body"}, where)
    merged: dict = {}
    preset = data.get("preset", "")
    if not isinstance(preset, str):  # a list or table would not even be hashable
        raise InputError(f"{where}.preset",
                         f"{shown(preset)} is not a preset name; choose one of {', '.join(PRESETS)}")
    if preset:
        if preset not in PRESETS:
            raise InputError(f"{where}.preset", f"unknown preset {shown(preset)}; choose one of {', '.join(PRESETS)}")
        merged.update({k: v for k, v in PRESETS[preset].items() if k != "doc"})
    merged.update({k: v for k, v in data.items() if k != "preset"})
    body_raw = merged.get("body")
    if not isinstance(body_raw, list) or not body_raw:
        raise InputError(f"{where}.body", "needs at least one operation (or name a preset)")
    if len(body_raw) > MAX_BODY:
        raise InputError(f"{where}.body", f"{len(body_raw)} steps is above the maximum of {MAX_BODY}")
    body = tuple(_parse_op(item, f"{where}.body[{i}]") for i, item in enumerate(body_raw))
    loop = require_int(f"{where}.loop", merged.get("loop", 16), lo=1, hi=MAX_LOOP)
    return Workload(
        body=body,
        loop=loop,
        l1_hit_rate=parse_rate(f"{where}.l1_hit_rate", merged.get("l1_hit_rate", 0.0)),
        l2_hit_rate=parse_rate(f"{where}.l2_hit_rate", merged.get("l2_hit_rate", 0.0)),
        preset=preset,
    )
