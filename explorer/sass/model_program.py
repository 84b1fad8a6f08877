"""Turn a Workload into the instruction stream one warp executes.

The body becomes a list of instructions with virtual registers; a warp's
scoreboard (ready time per register) then decides when each can issue, exactly as
in-order issue works on NVIDIA GPUs: an instruction waits for the registers it
reads (RAW) and the one it writes (WAW).

Register rule (also documented in ``explorer.model.workload``):
- a load writes a fresh register per instruction and depends on nothing (its
  address comes from the loop index);
- the first instruction of each FMA/MMA chain reads the previous step's results;
  every instruction of a chain reads and writes the chain's accumulator, so chains
  are loop-carried; ``ilp`` chains interleave;
- an SFU step is a chain on one register (x = exp(x); x = rsqrt(x));
- a store reads the previous step's results and writes nothing;
- the asynchronous Hopper ops (``tma``, ``wgmma``) read and write no register:
  their results are tracked by the mbarriers and the wgmma groups instead (below).

The asynchronous ops become four op codes: ``TMA`` (one bulk copy: ``req_bytes``
through L2 / device memory into the stage; ``arg`` = the tile table it copies + 1, 0 for
none), ``MBWAIT`` (a consumer waits on the
stage's mbarrier: inserted before the body's first ``wgmma`` step when the body
has ``tma``), ``WGMMA`` (one warp's share of a warpgroup MMA m64nNk16: ``arg`` =
its m16n8k16 equivalents, N / 8, so it holds the Tensor pipe ``arg`` MMA
intervals; ``req_bytes`` = its share of the shared-memory descriptor reads) and
``WGWAIT`` (commit_group + wait_group, ``arg`` = the groups left in flight).
``role`` says which warps of a block execute an instruction (warp specialization).

Besides its op code, every instruction names the throughput unit that executes it
(``unit``, see ``explorer.model.units``) and its fixed result latency (``latency``; -1:
the GPU's figure for that unit, from the catalog), so a program built another way
(e.g. from SASS) can map each of its instructions onto the same units.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.model.workload import Workload
from explorer.model import units

# IALU: an integer instruction (IADD3, IMAD, LOP3...): no Workload op makes one, a
# program built from SASS does.
FMA, SFU, MMA, LDG, STG, LDS, STS, SYNC, EXIT, IALU = range(10)
# the asynchronous ops: contiguous, from FIRST_ASYNC, after the SASS classes 10-17 (explorer.sass.opcodes.CLASSES)
TMA, MBWAIT, WGMMA, WGWAIT = range(18, 22)
FIRST_ASYNC = TMA
OPCODE = {"ffma": FMA, "sfu": SFU, "mma": MMA, "ldg": LDG, "stg": STG, "lds": LDS, "sts": STS, "sync": SYNC,
          "tma": TMA, "wgmma": WGMMA}
OPNAME = {v: k for k, v in OPCODE.items()} | {EXIT: "exit", IALU: "ialu", MBWAIT: "mbarrier_wait",
                                              WGWAIT: "wgmma_wait_group"}
# the unit each op code runs on (a SASS program may choose per instruction)
UNIT_OF = {FMA: units.FP32, SFU: units.SFU, MMA: units.TENSOR, IALU: units.INT, LDG: units.LSU, STG: units.LSU,
           LDS: units.LSU, STS: units.LSU, SYNC: units.ISSUE, TMA: units.LSU, MBWAIT: units.ISSUE,
           WGMMA: units.TENSOR, WGWAIT: units.ISSUE}
# which warps of a block execute an instruction: every warp, or (warp specialization) the producer
# (warp 0) or the consumers (warps producer_warps and up); warps 1 .. producer_warps - 1 run nothing
ROLE_ALL, ROLE_PRODUCER, ROLE_CONSUMER, ROLE_IDLE = range(4)
WARPGROUP_M, WGMMA_K = 64, 16  # wgmma.m64nNk16
MAX_SRC = 4
MAX_REGS = 255  # virtual registers of the model, not the kernel's allocation


@dataclass(frozen=True)
class Program:
    op: np.ndarray  # int8[L]
    dst: np.ndarray  # int16[L], -1 = none
    src: np.ndarray  # int16[L, MAX_SRC], -1 = none
    req_bytes: np.ndarray  # int32[L]: bytes the memory system moves per warp-instruction
    useful_bytes: np.ndarray  # int32[L]: bytes the threads asked for
    loop: int
    n_regs: int
    unit: np.ndarray  # int8[L]: the throughput unit that executes it (explorer.model.units)
    latency: np.ndarray  # int32[L]: fixed result latency in cycles; -1 = the GPU's figure for its unit
    role: np.ndarray | None = None  # int8[L]: ROLE_*; None = every warp runs every instruction
    # int32[L]: WGMMA's MMA intervals, WGWAIT's groups left in flight, TMA's tile table + 1 (0: none); else 0
    arg: np.ndarray | None = None
    # int16[L]: a global load's or store's access index in source order (explorer.toolchain.addresses); -1 none
    access: np.ndarray | None = None
    # bool[L]: a global load that leaves a copy in L1 when it misses there (a read_only ldg: ld.global.nc)
    l1_alloc: np.ndarray | None = None

    def __post_init__(self):
        n = self.op.shape[0]
        if self.role is None:
            object.__setattr__(self, "role", np.zeros(n, np.int8))
        if self.arg is None:
            object.__setattr__(self, "arg", np.zeros(n, np.int32))
        if self.access is None:
            object.__setattr__(self, "access", np.full(n, -1, np.int16))
        if self.l1_alloc is None:
            object.__setattr__(self, "l1_alloc", np.zeros(n, bool))

    def warps_executing(self, warps_per_block: int, producer_warps: int = 0) -> np.ndarray:
        """int64[L]: how many warps of a block execute each instruction (its role's warps)."""
        per_role = np.array([warps_per_block, 1, warps_per_block - producer_warps, 0], np.int64)
        return per_role[self.role] if producer_warps else np.full(self.body_length, warps_per_block, np.int64)

    def instructions_per_block(self, warps_per_block: int, producer_warps: int = 0) -> int:
        """Warp-instructions a block issues: each warp its role's share of the body x loop, plus EXIT."""
        if producer_warps == 0:
            return warps_per_block * self.instructions_per_warp
        return int(self.warps_executing(warps_per_block, producer_warps).sum()) * self.loop + warps_per_block

    @property
    def uses_tensor_cores(self) -> bool:
        return bool((self.unit == units.TENSOR).any())

    @property
    def body_length(self) -> int:
        return int(self.op.shape[0])

    @property
    def instructions_per_warp(self) -> int:
        return self.body_length * self.loop + 1  # + EXIT


def build_program(workload: Workload) -> Program:
    ops, dsts, srcs, req, useful, args = [], [], [], [], [], []
    specialized = workload.producer_warps > 0
    await_stage = any(step.op == "tma" for step in workload.body)  # consumers wait on the stage's mbarrier
    next_reg = 0
    prev: list[int] = []  # registers written by the previous value-producing step

    def fresh(n: int) -> list[int]:
        nonlocal next_reg
        regs = [min(next_reg + i, MAX_REGS - 1) for i in range(n)]
        next_reg = min(next_reg + n, MAX_REGS)
        return regs

    accesses: list[int] = []
    cached: list[bool] = []

    def emit(code: int, dst: int, sources: list[int], moved: int = 0, asked: int = 0, arg: int = 0,
             l1: bool = False) -> None:
        accesses.append(sum(a >= 0 for a in accesses) if code in (LDG, STG) else -1)
        cached.append(l1)
        args.append(arg)
        ops.append(code)
        dsts.append(dst)
        row = (list(dict.fromkeys(sources)) + [-1] * MAX_SRC)[:MAX_SRC]
        srcs.append(row)
        req.append(moved)
        useful.append(asked)

    for step in workload.body:
        code = OPCODE[step.op]
        if code in (LDG, LDS):
            regs = fresh(step.count)
            moved = step.bytes_per_request if code == LDG else 32 * step.bytes * step.conflict_ways
            for r in regs:
                emit(code, r, [], moved, step.useful_bytes, l1=code == LDG and step.read_only)
            prev = regs[-MAX_SRC:]
        elif code in (FMA, MMA):
            acc = fresh(step.ilp)
            for j in range(step.count):
                chain = acc[j % step.ilp]
                inputs = prev if j < step.ilp else []
                emit(code, chain, [chain] + inputs[: MAX_SRC - 1])
            prev = acc[-MAX_SRC:]
        elif code == SFU:
            (reg,) = fresh(1)
            for j in range(step.count):
                emit(code, reg, (prev[: MAX_SRC] if j == 0 else [reg]))
            prev = [reg]
        elif code in (STG, STS):
            moved = step.bytes_per_request if code == STG else 32 * step.bytes * step.conflict_ways
            for _ in range(step.count):
                emit(code, -1, prev[:MAX_SRC], moved, step.useful_bytes)
        elif code == SYNC:
            emit(code, -1, [])
        elif code == TMA:
            # arg: the tile table it copies from, + 1 (explorer.model.tma_tiles; 0: none, its lines draw l2_hit_rate)
            tile = workload.tiles.index(step.operand) + 1 if step.operand else 0
            for _ in range(step.count):
                emit(code, -1, [], step.bytes, step.bytes, arg=tile)
        elif code == WGMMA:
            if await_stage:
                emit(MBWAIT, -1, [])
                await_stage = False
            # this warp's share (a quarter) of A (64 x 16) and B (N x 16), 2-byte elements, read from shared memory
            share = (WARPGROUP_M + step.n) * WGMMA_K * 2 // 4
            for _ in range(step.count):
                emit(code, -1, [], share, share, arg=step.n // 8)
            emit(WGWAIT, -1, [], arg=step.pending)
            prev = []
    role = [ROLE_ALL] * len(ops)
    if specialized:
        role = [ROLE_PRODUCER if c == TMA else ROLE_CONSUMER for c in ops]
    return Program(
        op=np.asarray(ops, dtype=np.int8),
        dst=np.asarray(dsts, dtype=np.int16),
        src=np.asarray(srcs, dtype=np.int16).reshape(-1, MAX_SRC),
        req_bytes=np.asarray(req, dtype=np.int32),
        useful_bytes=np.asarray(useful, dtype=np.int32),
        loop=workload.loop,
        n_regs=max(1, next_reg),
        unit=np.asarray([UNIT_OF[c] for c in ops], dtype=np.int8),
        latency=np.full(len(ops), -1, dtype=np.int32),
        role=np.asarray(role, dtype=np.int8),
        arg=np.asarray(args, dtype=np.int32),
        access=np.asarray(accesses, dtype=np.int16),
        l1_alloc=np.asarray(cached, dtype=bool),
    )
