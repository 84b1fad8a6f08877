"""What every warp of a kernel executes: a loop over a short body of operations.

The same ``Workload`` drives the simulator (which turns it into an instruction
stream with register dependencies) and the real-GPU backend (which turns it into
CUDA C++), so a simulation and a measurement run the same kernel.

Operations (``op``), each repeated ``count`` times per iteration:

- ``ldg`` / ``stg``: global load / store of ``bytes`` per thread (4, 8 or 16) with
  neighbouring threads ``stride`` elements apart (1 = coalesced); an ``ldg`` with
  ``read_only = true`` is a read-only load (``ld.global.nc``, what ``__ldg`` and a
  ``const __restrict__`` pointer compile to), whose line L1 keeps when it misses there
  (a plain load's it does not: ``resources/sim_model.toml`` [caches]);
- ``lds`` / ``sts``: shared load / store with ``conflict_ways``-way bank conflicts;
- ``ffma``: FP32 fused multiply-adds in ``ilp`` independent chains (1 = fully
  dependent: each FMA waits for the previous one);
- ``sfu``: a special-function op (``__expf``, ``rsqrtf``...);
- ``mma``: a Tensor Core matrix multiply-accumulate (m16n8k16, FP16 in, FP32 out);
- ``sync``: ``__syncthreads()``;
- ``tma`` (CC >= 9.0): a bulk copy global -> shared of ``bytes`` per copy
  (``cp.async.bulk.tensor``), issued by one thread of the block's producer warp,
  completing on the stage's mbarrier: no per-thread loads, no registers. With
  ``operand = "a"`` it copies one tile of the matrix ``[workload.tiles.a]`` describes
  (``explorer.model.tma_tiles``: which tile each block copies in each K-step), and its
  lines meet the L2 tags by their addresses; without, each line draws ``l2_hit_rate``;
- ``wgmma`` (CC >= 9.0): ``count`` asynchronous warpgroup MMAs m64n``n``k16 (FP16/BF16
  in, FP32 out) reading A and B from shared memory through descriptors, issued by
  every warp of a consumer warpgroup, then ``wgmma.commit_group`` and
  ``wgmma.wait_group`` with ``pending`` groups left in flight.

Warp specialization (``producer_warps`` > 0): warp 0 of each block is the producer
and issues only the ``tma`` copies; warps ``producer_warps`` and up are the consumers
and issue everything else; the warps in between idle (their registers went to the
consumers). The copies of K-step ``i`` go to stage ``i % stages``: the producer first
waits until the consumers released that stage (K-step ``i - stages``); the consumers
wait on the stage's mbarrier before their first ``wgmma`` of the K-step and release
the stage when ``wait_group`` says its MMAs are done.

Addresses (``explorer.toolchain.addresses``): each global load and store streams, every byte
touched once, unless ``wrap`` is set: then every ``wrap`` iterations the loads and stores
go back to the first iteration's addresses, so each warp re-reads its own working set of
``wrap`` iterations' lines (a per-warp tile a kernel walks again and again).

Dependencies follow a simple rule that matches how such kernels are written: a
load's address comes from the loop index (independent); the first op of a compute
or store step consumes the result of the previous value-producing step; FMA and
MMA chains accumulate across iterations (loop-carried).
"""

from __future__ import annotations

from explorer.texts.names import WORKLOAD_DOC

from dataclasses import dataclass, replace

from explorer.model.errors import InputError, reject_unknown_keys, require_int, shown
from explorer.model.tma_tiles import TmaTiles, check_tiles, parse_tiles
from explorer.texts.errors import ERRORS, quoting

OPS = ("ldg", "stg", "lds", "sts", "ffma", "sfu", "mma", "sync", "tma", "wgmma")
OP_DOC = {
    "ldg": "global load",
    "stg": "global store",
    "lds": "shared-memory load",
    "sts": "shared-memory store",
    "ffma": "FP32 fused multiply-add",
    "sfu": "special-function op (exp, rsqrt...)",
    "mma": "Tensor Core matrix multiply-accumulate",
    "sync": "__syncthreads() barrier",
    "tma": "TMA bulk copy global -> shared, completing on an mbarrier (CC 9.0+)",
    "wgmma": "asynchronous warpgroup MMA from shared memory, then wait_group (CC 9.0+)",
}
ASYNC_OPS = ("tma", "wgmma")  # Hopper's: the producer/consumer pipeline (explorer.sass.model_program)
ASYNC_MIN_CC = (9, 0)
WARPGROUP = 4  # warps that issue one wgmma together
MAX_TMA_BYTES = 256 * 1024  # above any GPU's shared memory per block
TMA_BYTES_UNIT = 16  # cp.async.bulk moves multiples of 16 B (PTX ISA)
MAX_PENDING = 7  # wgmma.wait_group N: groups left in flight (the model keeps 8)
MAX_STAGES = 16
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
    n: int = 256  # wgmma: the instruction's N (m64nNk16)
    pending: int = 0  # wgmma: wait_group N after the step
    read_only: bool = False  # ldg: a read-only load (ld.global.nc): L1 keeps its line when it misses
    operand: str = ""  # tma: the tile table ([workload.tiles.<operand>]) it copies from; "": draws l2_hit_rate

    def to_dict(self) -> dict:
        d = {"op": self.op}
        if self.count != 1:
            d["count"] = self.count
        if self.op in MEMORY_OPS or self.op == "tma":
            d["bytes"] = self.bytes
        if self.op == "wgmma":
            d["n"] = self.n
            if self.pending:
                d["pending"] = self.pending
        if self.op in ("ldg", "stg") and self.stride != 1:
            d["stride"] = self.stride
        if self.read_only:
            d["read_only"] = True
        if self.operand:
            d["operand"] = self.operand
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
    stages: int = 1  # tma pipeline depth: shared-memory stages in flight
    producer_warps: int = 0  # warp specialization (see the module docstring); 0 = every warp runs the body
    wrap: int = 0  # the global accesses return to iteration 0's addresses every this many iterations; 0 = never
    tiles: TmaTiles | None = None  # the tiles the tma steps copy ([workload.tiles]); None: they draw l2_hit_rate

    def to_dict(self) -> dict:
        d: dict = {}
        if self.preset:
            d["preset"] = self.preset
        d["loop"] = self.loop
        d["l1_hit_rate"] = self.l1_hit_rate
        d["l2_hit_rate"] = self.l2_hit_rate
        if self.stages != 1:
            d["stages"] = self.stages
        if self.producer_warps:
            d["producer_warps"] = self.producer_warps
        if self.wrap:
            d["wrap"] = self.wrap
        d["body"] = [op.to_dict() for op in self.body]
        if self.tiles is not None:
            d["tiles"] = self.tiles.to_dict()
        return d

    @property
    def tiles_decide_l2_hits(self) -> bool:
        """Whether ``l2_hit_rate`` draws nothing: every global access is a tma copy of ``[workload.tiles]``, which
        meets L2 by its tiles' addresses (loads, stores and untiled copies draw the rate)."""
        return self.tiles is not None and not any(o.op in ("ldg", "stg") or (o.op == "tma" and not o.operand)
                                                  for o in self.body)

    @property
    def uses_async_ops(self) -> bool:
        return any(op.op in ASYNC_OPS for op in self.body)

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
                text += " read-only" if op.read_only else ""
            if op.op in CHAIN_OPS and op.ilp != 1:
                text += f" ilp {op.ilp}"
            if op.op == "tma":
                text += f" {op.bytes}B" + (f" of {op.operand}" if op.operand else "")
            if op.op == "wgmma":
                text += f" n{op.n}" + (f" pending {op.pending}" if op.pending else "")
            parts.append(text)
        stages = f" ({self.stages} stages)" if self.stages != 1 else ""
        wrap = f" (addresses repeat every {self.wrap} iterations)" if self.wrap else ""
        return f"{self.loop} x [" + ", ".join(parts) + "]" + stages + wrap


# Named bodies, each teaching one thing. A scenario may name one and override fields.
PRESETS: dict[str, dict] = {
    "fma-global": {
        "doc": WORKLOAD_DOC["fma-global"],
        "loop": 16,
        "l2_hit_rate": 0.0,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 8}, {"op": "stg", "bytes": 4}],
    },
    "stream": {
        "doc": WORKLOAD_DOC["stream"],
        "loop": 8,
        "body": [
            {"op": "ldg", "bytes": 16, "count": 2},
            {"op": "ffma", "count": 4, "ilp": 4},
            {"op": "stg", "bytes": 16},
        ],
    },
    "compute": {
        "doc": WORKLOAD_DOC["compute"],
        "loop": 32,
        "body": [{"op": "ffma", "count": 32, "ilp": 4}],
    },
    "latency": {
        "doc": WORKLOAD_DOC["latency"],
        "loop": 16,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 4}, {"op": "stg", "bytes": 4}],
    },
    "strided": {
        "doc": WORKLOAD_DOC["strided"],
        "loop": 8,
        "body": [{"op": "ldg", "bytes": 4, "stride": 32}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}],
    },
    "tiled-shared": {
        "doc": WORKLOAD_DOC["tiled-shared"],
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
        "doc": WORKLOAD_DOC["tensor-gemm"],
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
        "doc": WORKLOAD_DOC["sfu"],
        "loop": 16,
        "body": [{"op": "ldg", "bytes": 4}, {"op": "sfu", "count": 2}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}],
    },
}


def parse_rate(field_name: str, value) -> float:
    """A hit rate: a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field_name, quoting("not_rate", shown(value)))
    if not 0.0 <= float(value) <= 1.0:
        raise InputError(field_name, ERRORS("outside_rate", value=value))
    return float(value)


def _parse_op(item, where: str) -> Op:
    if not isinstance(item, dict):
        raise InputError(where, f"expected a table like {{ op = \"ffma\", count = 4 }}, got {shown(item)}")
    reject_unknown_keys(item, {"op", "count", "bytes", "stride", "ilp", "conflict_ways", "n", "pending", "read_only",
                               "operand"}, where)
    name = item.get("op")
    if not isinstance(name, str) or name not in OPS:
        raise InputError(f"{where}.op", f"{shown(name)} is not an operation; choose one of {', '.join(OPS)}")
    count = require_int(f"{where}.count", item.get("count", 1), lo=1, hi=MAX_COUNT)
    operand = item.get("operand", "")
    if "operand" in item and name != "tma":
        raise InputError(f"{where}.operand", "only a tma step copies a tile of an operand")
    if not isinstance(operand, str) or ("operand" in item and not operand):
        raise InputError(f"{where}.operand", f"{shown(operand)} is not an operand name; name a table of "
                                             "[workload.tiles] (e.g. \"a\")")
    if operand and count != 1:
        raise InputError(f"{where}.count", "a tma step with an operand copies its one tile per K-step; write a step "
                                           "per copy")
    if name == "tma" and operand and "bytes" not in item:
        nbytes = 0  # the tile's (_check_tiles)
    elif name == "tma":
        if "bytes" not in item:
            raise InputError(f"{where}.bytes", "a tma step needs bytes: the size of one bulk copy (e.g. 16384)")
        nbytes = require_int(f"{where}.bytes", item["bytes"], lo=TMA_BYTES_UNIT, hi=MAX_TMA_BYTES)
        if nbytes % TMA_BYTES_UNIT:
            raise InputError(f"{where}.bytes", f"{nbytes} is not a multiple of {TMA_BYTES_UNIT}: a bulk copy moves "
                                               f"{TMA_BYTES_UNIT}-byte units")
    else:
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
    n = require_int(f"{where}.n", item.get("n", 256), lo=8, hi=256)
    if n % 8:
        raise InputError(f"{where}.n", f"{n} is not a multiple of 8 (wgmma shapes are m64nNk16, N = 8..256 step 8)")
    pending = require_int(f"{where}.pending", item.get("pending", 0), lo=0, hi=MAX_PENDING)
    for key in ("n", "pending"):
        if key in item and name != "wgmma":
            raise InputError(f"{where}.{key}", f"only a wgmma step has {key}")
    read_only = item.get("read_only", False)
    if not isinstance(read_only, bool):
        raise InputError(f"{where}.read_only", f"{shown(read_only)} is not true or false")
    if read_only and name != "ldg":
        raise InputError(f"{where}.read_only", "only an ldg step is a read-only load (ld.global.nc)")
    return Op(name, count=count, bytes=nbytes, stride=stride, ilp=ilp, conflict_ways=ways, n=n, pending=pending,
              read_only=read_only, operand=operand)


def _check_tiles(body: tuple[Op, ...], tiles: TmaTiles | None, loop: int, where: str) -> tuple[Op, ...]:
    """The tma steps and the tile tables name each other: with [workload.tiles] every tma step names one of its
    operands (and moves that tile's bytes), and every operand is copied by some step. Returns the body with each
    such step's bytes (the tile's, where the step left them out)."""
    tma = [(i, op) for i, op in enumerate(body) if op.op == "tma"]
    if tiles is None:
        for i, op in tma:
            if op.operand:
                raise InputError(f"{where}.body[{i}].operand", f"names the tile table {shown(op.operand)} but the "
                                                               f"workload has no [{where}.tiles]")
        return body
    if not tma:
        raise InputError(f"{where}.tiles", "no tma step copies these tiles; add tma steps with operand = \"...\"")
    check_tiles(tiles, loop, f"{where}.tiles")
    out = list(body)
    for i, op in tma:
        if not op.operand:
            raise InputError(f"{where}.body[{i}].operand", "missing: with [workload.tiles] every tma step names the "
                                                           f"operand it copies ({', '.join(tiles.names())})")
        if op.operand not in tiles.names():
            raise InputError(f"{where}.body[{i}].operand", f"{shown(op.operand)} is not a table of [{where}.tiles]; "
                                                           f"choose one of {', '.join(tiles.names())}")
        o = tiles.operands[tiles.index(op.operand)]
        if o.copy_bytes > MAX_TMA_BYTES:
            raise InputError(f"{where}.tiles.{o.name}.box", f"one copy of {o.copy_bytes:,} bytes is above the "
                                                            f"maximum of {MAX_TMA_BYTES:,}")
        if op.bytes == 0:
            out[i] = replace(op, bytes=o.copy_bytes)
        elif op.bytes != o.copy_bytes:
            share = f" / {o.multicast} CTAs" if o.multicast > 1 else ""
            raise InputError(f"{where}.body[{i}].bytes", f"{op.bytes} but one copy of tile {o.name} moves "
                                                         f"{o.box[0]} x {o.box[1]} x {o.element_bytes} B{share} = "
                                                         f"{o.copy_bytes} bytes (leave bytes out to take the tile's)")
    copied = {op.operand for _, op in tma}
    for o in tiles.operands:
        if o.name not in copied:
            raise InputError(f"{where}.tiles.{o.name}", f"no tma step copies it; add one with operand = "
                                                        f"\"{o.name}\" or remove the table")
    return tuple(out)


def _check_pipeline(body: tuple[Op, ...], stages: int, producers: int, where: str) -> None:
    """The producer/consumer rules a body with tma/wgmma must keep (else the pipeline could never move)."""
    ops = [op.op for op in body]
    has_tma = "tma" in ops
    if has_tma and producers == 0:
        raise InputError(f"{where}.producer_warps", "tma copies are issued by a producer warp: set producer_warps "
                                                    "(e.g. 4, a producer warpgroup)")
    if producers and not has_tma:
        raise InputError(f"{where}.producer_warps", f"{producers} producer warp(s) but no tma step for them to issue")
    if stages != 1 and not has_tma:
        raise InputError(f"{where}.stages", f"{stages} stages: the pipeline depth counts tma stages; the body has no "
                                            "tma step")
    if has_tma and "wgmma" not in ops:
        raise InputError(f"{where}.body", "the stages tma fills are consumed and released by wgmma steps; add a "
                                          "wgmma step")
    if producers and "sync" in ops:
        i = ops.index("sync")
        raise InputError(f"{where}.body[{i}].op", "sync waits for every warp of the block; with producer_warps the "
                                                  "stages change hands through the tma mbarriers instead")
    if has_tma:
        last = max(i for i, o in enumerate(ops) if o == "wgmma")
        if body[last].pending >= stages:
            raise InputError(f"{where}.body[{last}].pending",
                             f"{body[last].pending} wgmma group(s) left in flight still read as many stages; with "
                             f"stages = {stages} the producer could never refill one: use pending <= {stages - 1} "
                             "or more stages")


def check_async_ops(workload: Workload, gpu, warps_per_block: int, program: str = "model",
                    where: str = "workload") -> None:
    """tma/wgmma need CC 9.0+, the model program, and whole consumer warpgroups (InputError otherwise)."""
    if not workload.uses_async_ops:
        return
    i, op = next((i, op) for i, op in enumerate(workload.body) if op.op in ASYNC_OPS)
    if gpu.arch.cc < ASYNC_MIN_CC:
        raise InputError(f"{where}.body[{i}].op",
                         f"{op.op} needs compute capability 9.0 or newer (Hopper); {gpu.name} is CC "
                         f"{gpu.compute_capability}: use ldg/sts/lds and mma (mma.sync) there")
    if program != "model":
        raise InputError("program", f"{op.op} runs on the workload model only (program = \"model\"): the generated "
                                    "CUDA kernel has no TMA or wgmma")
    consumers = warps_per_block - workload.producer_warps
    if consumers < 1:
        raise InputError(f"{where}.producer_warps", f"{workload.producer_warps} producer warp(s) leave no consumer "
                                                    f"warp in a block of {warps_per_block} warp(s)")
    if any(o.op == "wgmma" for o in workload.body) and consumers % WARPGROUP:
        raise InputError("launch.block", f"{consumers} consumer warp(s) per block: wgmma is issued by whole warpgroups "
                                         f"of {WARPGROUP} warps; use a multiple of {WARPGROUP * 32} consumer threads")


def parse_workload(data, where: str = "workload") -> Workload:
    """Build a validated Workload from a scenario's ``[workload]`` table."""
    if data is None:
        data = {"preset": "fma-global"}
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    reject_unknown_keys(data, {"preset", "loop", "l1_hit_rate", "l2_hit_rate", "body", "stages", "producer_warps",
                               "wrap", "tiles"}, where)
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
    stages = require_int(f"{where}.stages", merged.get("stages", 1), lo=1, hi=MAX_STAGES)
    producers = require_int(f"{where}.producer_warps", merged.get("producer_warps", 0), lo=0, hi=31)
    wrap = require_int(f"{where}.wrap", merged.get("wrap", 0), lo=0, hi=MAX_LOOP)
    tiles = parse_tiles(merged["tiles"], f"{where}.tiles") if "tiles" in merged else None
    body = _check_tiles(body, tiles, loop, where)
    _check_pipeline(body, stages, producers, where)
    return Workload(
        body=body,
        loop=loop,
        l1_hit_rate=parse_rate(f"{where}.l1_hit_rate", merged.get("l1_hit_rate", 0.0)),
        l2_hit_rate=parse_rate(f"{where}.l2_hit_rate", merged.get("l2_hit_rate", 0.0)),
        preset=preset,
        stages=stages,
        producer_warps=producers,
        wrap=wrap,
        tiles=tiles,
    )
