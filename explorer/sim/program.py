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
- a store reads the previous step's results and writes nothing.

Besides its op code, every instruction names the throughput unit that executes it
(``unit``, see ``explorer.sim.units``) and its fixed result latency (``latency``; -1:
the GPU's figure for that unit, from the catalog), so a program built another way
(e.g. from SASS) can map each of its instructions onto the same units.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.model.workload import Workload
from explorer.sim import units

# IALU: an integer instruction (IADD3, IMAD, LOP3...): no Workload op makes one, a
# program built from SASS does.
FMA, SFU, MMA, LDG, STG, LDS, STS, SYNC, EXIT, IALU = range(10)
OPCODE = {"ffma": FMA, "sfu": SFU, "mma": MMA, "ldg": LDG, "stg": STG, "lds": LDS, "sts": STS, "sync": SYNC}
OPNAME = {v: k for k, v in OPCODE.items()} | {EXIT: "exit", IALU: "ialu"}
# the unit each op code runs on (a SASS program may choose per instruction)
UNIT_OF = {FMA: units.FP32, SFU: units.SFU, MMA: units.TENSOR, IALU: units.INT, LDG: units.LSU, STG: units.LSU,
           LDS: units.LSU, STS: units.LSU, SYNC: units.ISSUE}
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
    unit: np.ndarray  # int8[L]: the throughput unit that executes it (explorer.sim.units)
    latency: np.ndarray  # int32[L]: fixed result latency in cycles; -1 = the GPU's figure for its unit

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
    ops, dsts, srcs, req, useful = [], [], [], [], []
    next_reg = 0
    prev: list[int] = []  # registers written by the previous value-producing step

    def fresh(n: int) -> list[int]:
        nonlocal next_reg
        regs = [min(next_reg + i, MAX_REGS - 1) for i in range(n)]
        next_reg = min(next_reg + n, MAX_REGS)
        return regs

    def emit(code: int, dst: int, sources: list[int], moved: int = 0, asked: int = 0) -> None:
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
                emit(code, r, [], moved, step.useful_bytes)
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
    )
