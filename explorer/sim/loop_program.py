"""A WarpProgram (``explorer.sass.warp_program``) in the arrays the cycle loop reads.

The loop does not care where a program came from (the kernel's SASS or the workload
model): it needs, per instruction, which *path* issue takes, which throughput pipe of
``explorer.model.units`` it holds, the warp state a dependent waits in, its latency,
registers and bytes. This module is the one place that maps the contract's names onto
the engine's.

Paths (what issuing the instruction does):

- ``ALU``: the result (every destination register) is ready ``latency`` cycles after
  issue. Classes fma, sfu, mma, int, fp64, uniform, branch, ldc, mio: fixed-latency
  pipes, the constant cache, special-register reads and shuffles differ only in their
  latency, pipe and scoreboard kind, all from the program.
- ``GLOAD``: global or local memory through L1TEX, may hit in L1 (ldg, ldl);
- ``GSTORE``: through L1TEX to L2, never an L1 hit (stores write through, atomics
  are performed at L2): stg, stl, atom. With a destination (an atomic's result) the
  register waits for the round trip; a store is posted: the warp's exit waits only until it
  has left L1TEX (drain; sim_model.toml [stores]);
- ``SHARED``: the SM's shared-memory data path (lds, sts);
- ``SYNC``: a block barrier (BAR.SYNC);
- ``EXIT``: the warp ends once its stores have left L1TEX (and its wgmma groups completed);
- ``TMA``, ``MBWAIT``, ``WGMMA``, ``WGWAIT``: the workload model's Hopper pipeline
  (classes tma, mbarrier_wait, wgmma, wgmma_wait; ``explorer.sass.model_program``): a bulk copy
  into a stage, a consumer's wait on the stage's mbarrier, an asynchronous warpgroup MMA,
  commit + wait_group. ``role`` and ``arg`` carry the warp roles and their arguments.

Pipes (``UNIT_MAP``, contract unit -> ``explorer.model.units``), with what it simplifies:

======== ========== ===============================================================
contract engine     note
======== ========== ===============================================================
fma      fp32       the FP32 pipe
fmaheavy fp32       estimate: IMAD and friends at the FP32 pipe's rate (the heavy
                    half of the pipe alone has half its lanes on sm_80+)
fp16     fp32       estimate: HFMA2 shares the FMA pipes (FP16x2 dual-issued to them)
alu      int        the INT32/logic pipe
xu       sfu        the special-function (MUFU, conversion) unit
tensor   tensor     the Tensor Cores (an HMMA's FLOPs at the Tensor peak)
lsu      lsu        load/store issue to L1TEX/MIO (memory, S2R, shuffles)
fp64     issue      not a counted pipe: its rate is in the latency (opcode table)
adu      issue      not a counted pipe (address divergence unit: LDC, barriers)
cbu      issue      not a counted pipe (branch unit: BRA, EXIT)
uniform  issue      not a counted pipe (the uniform datapath beside the vector ones)
======== ========== ===============================================================

``issue`` means the instruction only takes its scheduler's issue slot (every one does).

Scoreboard kinds -> the state a dependent waits in: fixed -> ``wait``, short ->
``short_scoreboard``, long -> ``long_scoreboard``; none has no register result.

A flat program (a user kernel's executed stream, ``explorer.sim.executed``): every warp
runs its own rows, without a loop (``loop_start == loop_end == 0``): ``entry[w]`` is the row
warp ``w`` of the grid (its place in grid order) starts at, and it ends at the first EXIT
row it reaches. Its stall counts and next-instruction events name ``row[i]``, the kernel's
listing row of entry ``i``, so they stay per static instruction (``n_rows`` of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from explorer.sass.warp_program import OP, SB, UNIT_NAMES, WarpProgram
from explorer.model import units
from explorer.sim.states import LONG_SB, SHORT_SB, WAIT

ALU, GLOAD, GSTORE, SHARED, SYNC, EXIT, TMA, MBWAIT, WGMMA, WGWAIT = range(10)
FIRST_ASYNC = TMA  # the asynchronous paths are contiguous from here
PATH_NAMES = ("alu", "gload", "gstore", "shared", "sync", "exit", "tma", "mbarrier_wait", "wgmma", "wgmma_wait")
PATH_OF = {  # contract op class -> path
    "fma": ALU, "sfu": ALU, "mma": ALU, "int": ALU, "fp64": ALU, "uniform": ALU, "branch": ALU, "ldc": ALU,
    "mio": ALU, "ldg": GLOAD, "ldl": GLOAD, "stg": GSTORE, "stl": GSTORE, "atom": GSTORE, "lds": SHARED,
    "sts": SHARED, "sync": SYNC, "exit": EXIT,
    "tma": TMA, "mbarrier_wait": MBWAIT, "wgmma": WGMMA, "wgmma_wait": WGWAIT,
}
UNIT_MAP = {
    "fma": units.FP32, "fmaheavy": units.FP32, "fp16": units.FP32, "alu": units.INT, "xu": units.SFU,
    "tensor": units.TENSOR, "lsu": units.LSU, "fp64": units.ISSUE, "adu": units.ISSUE, "cbu": units.ISSUE,
    "uniform": units.ISSUE,
}
WAIT_STATE = {"fixed": WAIT, "short": SHORT_SB, "long": LONG_SB, "none": WAIT}

_PATH = np.array([PATH_OF[name] for name in sorted(OP, key=OP.get)], dtype=np.int8)
_UNIT = np.array([UNIT_MAP[name] for name in UNIT_NAMES], dtype=np.int8)
_WAIT = np.array([WAIT_STATE[name] for name in sorted(SB, key=SB.get)], dtype=np.uint8)


@dataclass(frozen=True)
class LoopProgram:
    """What ``kernel.run_cycles`` reads of one program (arrays of length L, rows as the WarpProgram's)."""

    path: np.ndarray  # int8[L]: ALU .. EXIT
    unit: np.ndarray  # int8[L]: explorer.model.units index (ISSUE: no counted pipe)
    latency: np.ndarray  # int32[L]
    wait_state: np.ndarray  # uint8[L]: the state a dependent waits in (explorer.sim.states)
    dst: np.ndarray  # int16[L, D], -1 padded
    src: np.ndarray  # int16[L, S], -1 padded
    req_bytes: np.ndarray  # int32[L]
    loop_start: int
    loop_end: int
    trip: int
    n_regs: int
    role: np.ndarray  # int8[L]: which warps of a block run the row (explorer.sass.model_program ROLE_*)
    # int32[L]: WGMMA's MMA intervals, WGWAIT's groups left in flight, TMA's tile table + 1 (0: none: its lines draw
    # the scenario's L2 hit rate; explorer.toolchain.addresses.tma_layout); else 0
    arg: np.ndarray
    row: np.ndarray  # int32[L]: the row stall counts and next-instruction events name (the listing row)
    n_rows: int  # rows of the stall counts (row.max() + 1 at most)
    entry: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # int64[warps]: flat programs
    # uint32[L]: a flat program's entries' active lanes (what issued them); empty: all 32 lanes
    active: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint32))
    # int16[L]: a generated kernel's global access each row performs (explorer.toolchain.addresses: the loop computes
    # its lanes' addresses and the caches see them); -1: none known (the scenario's hit rates are drawn)
    access: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int16))
    # int64[L]: a user kernel's executed global load or store (explorer.sim.executed.ProgramFeed): start << 8 |
    # count (>= 1) of its lines in the feed's line table; 0 (or empty): none known (the scenario's hit rates are drawn)
    lines_at: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    # int8[n_rows], per listing row (``row`` indexes it): its way through L1 (explorer.sass.warp_program PLAIN 0,
    # L1_ALLOCATE 1: its load leaves its line in L1 when it misses there, a read-only, .ca or local load; ATOMIC 2:
    # a global atomic, resolved in L2; sim_model.toml [caches]); empty: every row plain
    l1_alloc: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))

    @property
    def flat(self) -> bool:
        return self.entry.shape[0] > 0

    def warp_instructions(self, warps: int) -> int:
        """Warp-instructions a launch of ``warps`` warps issues (EXIT included)."""
        return self.length if self.flat else warps * self.dynamic_instructions_per_warp

    @property
    def length(self) -> int:
        return int(self.path.shape[0])

    @property
    def uses_tensor_cores(self) -> bool:
        return bool((self.unit == units.TENSOR).any())

    @property
    def executions(self) -> np.ndarray:
        """int64[L]: how often a warp executes each row (``trip`` in the loop body, else once)."""
        n = np.ones(self.length, np.int64)
        n[self.loop_start:self.loop_end] = self.trip
        return n

    @property
    def dynamic_instructions_per_warp(self) -> int:
        return int(self.executions.sum())

    def warps_executing(self, warps_per_block: int, producer_warps: int = 0) -> np.ndarray:
        """int64[L]: how many warps of a block execute each row (its role's warps)."""
        if producer_warps == 0:
            return np.full(self.length, warps_per_block, np.int64)
        per_role = np.array([warps_per_block, 1, warps_per_block - producer_warps, 0], np.int64)
        return per_role[self.role]

    def instructions_per_block(self, warps_per_block: int, producer_warps: int = 0) -> int:
        """Warp-instructions a block issues: each warp its role's rows, as often as it runs them."""
        if producer_warps == 0:
            return warps_per_block * self.dynamic_instructions_per_warp
        return int((self.executions * self.warps_executing(warps_per_block, producer_warps)).sum())


def registers_first(regs: np.ndarray) -> np.ndarray:
    """int16[L, R] with each row's registers first, in their order, then the -1s: the loop stops at a
    row's first -1 (``kernel._scoreboard``, ``_set_results``). Every program built here is already in that
    form (checked cheaply); another is reordered, keeping the registers' order (the first register to
    reach the latest ready time names the wait)."""
    regs = np.ascontiguousarray(regs, dtype=np.int16)
    if regs.shape[1] < 2 or not ((regs[:, :-1] < 0) & (regs[:, 1:] >= 0)).any():
        return regs
    order = np.argsort(regs < 0, axis=1, kind="stable")
    return np.ascontiguousarray(np.take_along_axis(regs, order, axis=1))


def lower(program: WarpProgram) -> LoopProgram:
    """The loop's arrays for ``program`` (its contract invariants are checked first). A program
    without a loop may mark it anywhere (``explorer.sass.build`` puts an absent loop after the last
    row): it is the same program with the empty loop at 0."""
    if program.loop_start == program.loop_end and program.loop_start != 0:
        program = replace(program, loop_start=0, loop_end=0)
    program.check()
    return LoopProgram(
        path=_PATH[program.op.astype(np.int64)],
        unit=_UNIT[program.unit.astype(np.int64)],
        latency=np.ascontiguousarray(program.latency, dtype=np.int32),
        wait_state=_WAIT[program.scoreboard.astype(np.int64)],
        dst=registers_first(program.dst.reshape(program.length, -1)),
        src=registers_first(program.src.reshape(program.length, -1)),
        req_bytes=np.ascontiguousarray(program.req_bytes, dtype=np.int32),
        loop_start=int(program.loop_start),
        loop_end=int(program.loop_end),
        trip=int(program.trip),
        n_regs=max(1, program.n_regs),
        role=np.ascontiguousarray(program.role, dtype=np.int8),
        arg=np.ascontiguousarray(program.arg, dtype=np.int32),
        row=np.arange(program.length, dtype=np.int32),
        n_rows=program.length,
        access=np.ascontiguousarray(program.access, dtype=np.int16),
        l1_alloc=row_flags(program.l1_alloc),
    )


def row_flags(l1_alloc) -> np.ndarray:
    """int8 per row of ``l1_alloc`` (a mode, or a bool: allocate), or empty when every row is plain (the loop then
    reads nothing)."""
    flags = np.asarray(l1_alloc, dtype=np.int8)
    return np.ascontiguousarray(flags) if flags.any() else np.zeros(0, np.int8)


def lower_flat(flat, n_rows: int, l1_alloc=None) -> LoopProgram:
    """A flat program (``explorer.sass.execute.flat_program.FlatProgram``: every warp-instruction a
    launch executed, per warp in order) in the loop's arrays: the same names mapped the same way;
    each warp starts at its own first entry; stall counts go to the entries' listing rows
    (``n_rows`` of them); ``l1_alloc``: per listing row, its load allocates in L1 (default: none)."""
    return LoopProgram(
        path=np.take(_PATH, flat.op.astype(np.int64)),
        unit=np.take(_UNIT, flat.unit.astype(np.int64)),
        latency=np.ascontiguousarray(flat.latency, dtype=np.int32),
        wait_state=np.take(_WAIT, flat.scoreboard.astype(np.int64)),
        dst=registers_first(flat.dst),
        src=registers_first(flat.src),
        req_bytes=np.ascontiguousarray(flat.req_bytes, dtype=np.int32),
        loop_start=0, loop_end=0, trip=1,
        n_regs=max(1, flat.n_regs),
        role=np.zeros(flat.op.shape[0], np.int8),  # every warp runs its own entries (no warp specialization)
        arg=np.zeros(flat.op.shape[0], np.int32),
        row=np.ascontiguousarray(flat.static_index, dtype=np.int32),
        n_rows=int(n_rows),
        entry=flat.warp_start[:-1].astype(np.int64),
        active=np.ascontiguousarray(flat.active, dtype=np.uint32),
        access=np.full(flat.op.shape[0], -1, np.int16),
        l1_alloc=row_flags(np.zeros(n_rows, bool) if l1_alloc is None else l1_alloc),
    )
