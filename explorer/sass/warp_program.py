"""The program one warp runs, in the shape the timing engine executes: the integration contract.

A ``WarpProgram`` comes from the kernel's SASS (``source == "sass"``:
``explorer.sass.kernel_program``) or from the workload model (``source == "model"``:
:func:`from_model`, the same instructions as ``explorer.sass.model_program.build_program`` plus
its EXIT). Both have the same shape.

Execution. ``L`` instructions in three segments: the prologue ``[0, loop_start)``, the
loop body ``[loop_start, loop_end)`` run ``trip`` times, the epilogue ``[loop_end, L)``.
``loop_start == loop_end`` means no loop. A warp starts at 0; after the instruction at
``loop_end - 1`` it goes back to ``loop_start`` until the body has run ``trip`` times,
then on to ``loop_end``; the last instruction (``op[L-1] == OP["exit"]``) ends the warp
(after its stores drain). Branches are already resolved into this shape: a branch,
guarded EXIT or skipped instruction is not something the engine decides. Hence
``dynamic_instructions_per_warp = loop_start + trip * (loop_end - loop_start) +
(L - loop_end)``, and a simulation's ``warp_instructions`` is launched warps times that.

Per instruction ``i`` (numpy arrays of length L):

- ``op[i]`` (int8): what the engine does, an index into :data:`OP_NAMES`. Codes 0-8 are
  today's ``explorer.sass.model_program`` codes (FMA, SFU, MMA, LDG, STG, LDS, STS, SYNC, EXIT);
  9-17 are new: ``int`` (fixed-latency ALU on the integer/logic pipe), ``fp64``,
  ``uniform`` (uniform datapath), ``branch`` (branches, convergence, NOP, memory barriers:
  issue and go on), ``ldc`` (constant-cache load), ``mio`` (special-register read, shuffle:
  a short-scoreboard result without memory traffic), ``ldl``/``stl`` (local memory through
  L1TEX, like LDG/STG), ``atom`` (global atomic or reduction: LDG-like traffic, a result
  when ``dst`` has one).
- ``unit[i]`` (int8): the pipe, an index into :data:`UNIT_NAMES` (Nsight Compute's names:
  fma, fmaheavy, fp16, alu, fp64, xu, tensor, lsu, adu, cbu, uniform). The throughput
  model charges the instruction's issue to this pipe.
- ``latency[i]`` (int32): cycles from issue until a dependent instruction may issue, for
  this GPU; for ``scoreboard`` short it is the unloaded figure (shared memory: the
  engine's shared-memory queue adds to it); 0 for long (the memory system decides).
- ``scoreboard[i]`` (int8, :data:`SB_NAMES`): how a dependent waits: 0 fixed (``wait``
  state), 1 short (``short_scoreboard``), 2 long (``long_scoreboard``), 3 none (no
  register result).
- ``dst[i, :]``, ``src[i, :]`` (int16, -1 padded): registers written and read, dense ids
  ``0 .. n_regs-1`` over general (R), uniform (UR), predicate (P) and uniform predicate
  (UP) registers (``reg_names[id]`` is "R4", "UP0", ...). 64-bit values are two ids
  (R4, R5), 128-bit four; the guard predicate is a source. An instruction issues when
  every source and every destination is ready (RAW and WAW, as today).
- ``req_bytes[i]`` (int32): bytes the memory system moves for a memory instruction
  (whole 32-byte sectors; for the generated kernels' loop the workload's bytes per
  request, conflicts included for shared memory); 0 otherwise and for instructions
  whose guard is false for every thread. ``useful_bytes[i]``: bytes the threads asked for.
- ``instrumentation[i]`` (bool): the generated kernel's %smid/%globaltimer/clock64
  recording (views dim these).
- ``static_index[i]`` (int32): the row of ``listing`` it comes from (the SASS view
  highlights that row).

``listing`` holds every static instruction up to the last EXIT in program order,
executed or not (a skipped instruction has ``segment == "skipped"``), with its text and
timing facts, for the CLI and the views; ``blocks`` its basic blocks (first row, last
row, successor rows). ``notes`` says what was assumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from explorer.sass.opcodes import CLASSES, SCOREBOARDS, UNITS

# a row's way through L1 (``WarpProgram.l1_alloc``, sim_model.toml [caches]): a plain access, a load that leaves
# its line in L1 when it misses there, a global atomic (resolved in L2 on the line it reads and changes)
PLAIN, L1_ALLOCATE, ATOMIC = 0, 1, 2

OP_NAMES = CLASSES
OP = {name: i for i, name in enumerate(OP_NAMES)}
UNIT_NAMES = UNITS
UNIT = {name: i for i, name in enumerate(UNIT_NAMES)}
SB_NAMES = SCOREBOARDS
SB = {name: i for i, name in enumerate(SB_NAMES)}


@dataclass(frozen=True)
class ListingRow:
    """One static instruction as the CLI and the SASS view show it."""

    pc: int
    opcode: str
    mnemonic: str
    text: str
    unit: str
    op_class: str
    latency: int | None  # cycles; None when the memory system decides
    scoreboard: str
    dst: tuple[str, ...]
    src: tuple[str, ...]
    segment: str  # prologue | body | epilogue | skipped
    executed: bool
    predicated_off: bool = False
    instrumentation: bool = False
    known: bool = True  # False: the opcode is not in the table (timed as a generic ALU instruction)
    control: dict | None = None
    source: str = ""  # where the timing comes from (the opcode table's source)

    def to_json(self) -> dict:
        return {"pc": self.pc, "opcode": self.opcode, "mnemonic": self.mnemonic, "text": self.text,
                "unit": self.unit, "class": self.op_class, "latency": self.latency, "scoreboard": self.scoreboard,
                "dst": list(self.dst), "src": list(self.src), "segment": self.segment, "executed": self.executed,
                "predicated_off": self.predicated_off, "instrumentation": self.instrumentation,
                "known_opcode": self.known, "control": self.control}


@dataclass(frozen=True)
class WarpProgram:
    source: str  # "sass" | "model"
    arch: str
    function: str
    op: np.ndarray
    unit: np.ndarray
    latency: np.ndarray
    scoreboard: np.ndarray
    dst: np.ndarray
    src: np.ndarray
    req_bytes: np.ndarray
    useful_bytes: np.ndarray
    instrumentation: np.ndarray
    static_index: np.ndarray
    loop_start: int
    loop_end: int
    trip: int
    reg_names: tuple[str, ...]
    listing: tuple[ListingRow, ...]
    notes: tuple[str, ...] = ()
    blocks: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # basic blocks: (first, last, successors) rows of listing
    meta: dict = field(default_factory=dict, compare=False)
    # warp specialization (the model's tma/wgmma pipeline, explorer.sass.model_program): per row which warps
    # of a block run it (ROLE_*; None: every warp), and its argument (a wgmma's MMA intervals, a
    # wait_group's groups left in flight; None: 0)
    role: np.ndarray | None = field(default=None, compare=False)
    arg: np.ndarray | None = field(default=None, compare=False)
    # per row, a generated kernel's global access it performs (its index in source order, as
    # explorer.toolchain.addresses numbers them: the simulator computes its addresses); -1: none known
    access: np.ndarray | None = field(default=None, compare=False)
    # per row, its way through L1 (PLAIN, L1_ALLOCATE, ATOMIC; sim_model.toml [caches]): L1_ALLOCATE where its
    # load leaves a copy in L1 when it misses there (a read-only load: SASS LDG...CONSTANT, the model's read_only
    # ldg; one cached at all levels on request: LDG...STRONG.SM; a local load, LDL), ATOMIC for a global atomic
    # or reduction (ATOMG, RED); None: every row plain
    l1_alloc: np.ndarray | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.role is None:
            object.__setattr__(self, "role", np.zeros(self.length, np.int8))
        if self.arg is None:
            object.__setattr__(self, "arg", np.zeros(self.length, np.int32))
        if self.access is None:
            object.__setattr__(self, "access", np.full(self.length, -1, np.int16))
        if self.l1_alloc is None:
            object.__setattr__(self, "l1_alloc", np.zeros(self.length, bool))

    @property
    def length(self) -> int:
        return int(self.op.shape[0])

    @property
    def n_regs(self) -> int:
        return len(self.reg_names)

    @property
    def dynamic_instructions_per_warp(self) -> int:
        body = self.loop_end - self.loop_start
        return self.loop_start + self.trip * body + (self.length - self.loop_end)

    @property
    def instrumentation_per_warp(self) -> int:
        inst = self.instrumentation.astype(np.int64)
        return int(inst[: self.loop_start].sum() + self.trip * inst[self.loop_start:self.loop_end].sum()
                   + inst[self.loop_end:].sum())

    def loop_json(self) -> dict | None:
        if self.loop_end == self.loop_start:
            return None
        first, last = self.listing[self.static_index[self.loop_start]], self.listing[self.static_index[self.loop_end - 1]]
        return {"start_pc": first.pc, "end_pc": last.pc, "trip_count": self.trip,
                "body_instructions": self.loop_end - self.loop_start}

    def to_json(self) -> dict:
        """The ``program`` command's JSON (the CLI adds the scenario's name and GPU)."""
        return {
            "source": self.source,
            "arch": self.arch,
            "function": self.function,
            "instructions": [row.to_json() for row in self.listing],
            "loop": self.loop_json(),
            "blocks": [{"start_pc": self.listing[a].pc, "end_pc": self.listing[b].pc,
                        "successors": [self.listing[c].pc for c in succ]} for a, b, succ in self.blocks],
            "dynamic_instructions_per_warp": self.dynamic_instructions_per_warp,
            "instrumentation_instructions_per_warp": self.instrumentation_per_warp,
            "static_instructions": len(self.listing),
            "dependency_registers": len(self.reg_names),
            "notes": list(self.notes),
            **self.meta,
        }

    def check(self) -> None:
        """The contract's invariants (shapes, codes, segments); raises AssertionError."""
        n = self.length
        assert n >= 1 and int(self.op[-1]) == OP["exit"]
        for name in ("unit", "latency", "scoreboard", "req_bytes", "useful_bytes", "instrumentation",
                     "static_index", "role", "arg", "access", "l1_alloc"):
            assert getattr(self, name).shape == (n,), name
        assert self.dst.shape[0] == n and self.src.shape[0] == n
        assert 0 <= self.loop_start <= self.loop_end < n and self.trip >= 1
        assert int(self.op.max()) < len(OP_NAMES) and int(self.unit.max()) < len(UNIT_NAMES)
        assert int(self.dst.max(initial=-1)) < self.n_regs and int(self.src.max(initial=-1)) < self.n_regs


def pack_registers(rows: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(dst names, src names) per instruction -> dense int16 arrays and the id -> name table."""
    order = {"R": 0, "UR": 1, "P": 2, "UP": 3}

    def key(name: str):
        prefix = name.rstrip("0123456789")
        return order.get(prefix, 4), int(name[len(prefix):] or 0)

    names = sorted({r for d, s in rows for r in (*d, *s)}, key=key)
    ids = {r: i for i, r in enumerate(names)}
    width_d = max([len(d) for d, _ in rows] + [1])
    width_s = max([len(s) for _, s in rows] + [1])
    dst = np.full((len(rows), width_d), -1, dtype=np.int16)
    src = np.full((len(rows), width_s), -1, dtype=np.int16)
    for i, (d, s) in enumerate(rows):
        dst[i, : len(d)] = [ids[r] for r in d]
        src[i, : len(s)] = [ids[r] for r in s]
    return dst, src, tuple(names)


# -- the model program in the same shape -------------------------------------------------------
_MODEL = {  # engine code -> (class, unit, scoreboard, opcode shown, latency field or cycles)
    0: ("fma", "fma", "fixed", "FFMA", "lat_fma"),
    1: ("sfu", "xu", "short", "MUFU", "lat_sfu"),
    2: ("mma", "tensor", "fixed", "HMMA", "lat_mma"),
    3: ("ldg", "lsu", "long", "LDG", None),
    4: ("stg", "lsu", "none", "STG", None),
    5: ("lds", "lsu", "short", "LDS", "lat_shared"),
    6: ("sts", "lsu", "none", "STS", "lat_shared"),
    7: ("sync", "adu", "none", "BAR", 1),
    8: ("exit", "cbu", "none", "EXIT", 1),
    # Hopper's pipeline ops (explorer.sass.model_program TMA, MBWAIT, WGMMA, WGWAIT): no register results
    18: ("tma", "lsu", "none", "UTMALDG", 1),
    19: ("mbarrier_wait", "adu", "none", "SYNCS", 1),
    20: ("wgmma", "tensor", "none", "HGMMA", "lat_mma"),
    21: ("wgmma_wait", "adu", "none", "WARPGROUP.DEPBAR", 1),
}


def from_model(workload, gpu) -> WarpProgram:
    """The workload model's program (``explorer.sass.model_program``) as a WarpProgram: body x loop, then EXIT."""
    from explorer.sass.model_program import EXIT, build_program

    prog = build_program(workload)
    n = prog.body_length
    ops = [int(x) for x in prog.op] + [EXIT]
    rows, listing = [], []
    for i, code in enumerate(ops):
        cls, unit, sb, shown, lat = _MODEL[code]
        d = tuple(f"r{int(r)}" for r in (prog.dst[i:i + 1] if i < n else []) if r >= 0)
        s = tuple(f"r{int(r)}" for r in (prog.src[i] if i < n else []) if r >= 0)
        cycles = None if lat is None else (lat if isinstance(lat, int) else int(getattr(gpu, lat)))
        text = shown + (" " + ", ".join((*d, *s)) if d or s else "")
        if i < n and code in (3, 4, 5, 6, 18):
            text += f"  // {int(prog.req_bytes[i])} B per request"
            if prog.l1_alloc[i]:
                text += ", read-only: cached in L1"
        rows.append((d, s))
        listing.append(ListingRow(pc=i, opcode=shown, mnemonic=shown, text=text, unit=unit, op_class=cls,
                                  latency=cycles, scoreboard=sb, dst=d, src=s,
                                  segment="body" if i < n else "epilogue", executed=True,
                                  source="the workload model (explorer.sass.model_program)"))
    dst, src, names = pack_registers(rows)
    lat = np.array([row.latency or 0 for row in listing], dtype=np.int32)
    return WarpProgram(
        source="model", arch=gpu.arch.sm_arch, function="(workload model)",
        op=np.asarray(ops, dtype=np.int8),
        unit=np.array([UNIT[r.unit] for r in listing], dtype=np.int8), latency=lat,
        scoreboard=np.array([SB[r.scoreboard] for r in listing], dtype=np.int8), dst=dst, src=src,
        req_bytes=np.concatenate([prog.req_bytes, [0]]).astype(np.int32),
        role=np.concatenate([prog.role, [0]]).astype(np.int8),  # EXIT: every warp
        arg=np.concatenate([prog.arg, [0]]).astype(np.int32),
        access=np.concatenate([prog.access, [-1]]).astype(np.int16),
        l1_alloc=np.concatenate([prog.l1_alloc, [False]]).astype(bool),
        useful_bytes=np.concatenate([prog.useful_bytes, [0]]).astype(np.int32),
        instrumentation=np.zeros(n + 1, dtype=bool), static_index=np.arange(n + 1, dtype=np.int32),
        loop_start=0, loop_end=n, trip=workload.loop, reg_names=names, listing=tuple(listing),
        blocks=((0, n - 1, (0, n)), (n, n, ())),
        notes=("the model program: one instruction per workload operation, virtual registers, no address "
               "arithmetic or instrumentation",),
    )
