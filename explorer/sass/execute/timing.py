"""Per static instruction of a user kernel, what the timing engine needs to time it: the other half
of the executed stream's contract (``stream.py``).

For each row of the kernel's listing (``UserKernel.decoded``; an ``ExecutedStream``'s ``row``
indexes these arrays) the same facts a ``WarpProgram`` gives per instruction, from the same
opcode table and the same rules (``explorer.sass.build.instruction_timing``): ``op`` (engine
class, ``warp_program.OP``), ``unit`` (pipe, ``UNIT``), ``latency`` (cycles; 0 where the
memory system decides), ``scoreboard`` (``SB``), and the registers it writes and reads
(``dst``/``src``: dense ids, -1 padded, names in ``reg_names``; pairs expanded, the guard a
source), whether a global load leaves its line in L1 (``l1_alloc``, from its modifiers as
``explorer.sass.build.allocates_in_l1`` reads them), and for block barriers their kind and id (``barrier``, ``barrier_id``: a warp's
k-th ``BAR.SYNC`` entry waits for the block's other non-exited warps to reach theirs; the
executor already checked that every barrier completes). What a ``WarpProgram`` carries as its path (prologue, loop, trip count) comes
from execution instead: the stream says which rows each warp issued, in order, with
which lanes, and what each memory access moved. A predicate read as a guard anywhere in
the function waits the guard latency (the program builder decides this per path; a
user kernel's path is only known after execution, so any guard use counts). An ``EXIT``
entry that is not a warp's last one is timed as a branch (some lanes left, the warp goes
on), as the program builder times a guarded EXIT a warp survives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.sass.execute import isa


@dataclass(frozen=True)
class StaticTiming:
    op: np.ndarray  # int8 [rows]
    unit: np.ndarray  # int8 [rows]
    latency: np.ndarray  # int32 [rows]
    scoreboard: np.ndarray  # int8 [rows]
    dst: np.ndarray  # int16 [rows, k]
    src: np.ndarray  # int16 [rows, k]
    reg_names: tuple[str, ...]
    known: np.ndarray  # bool [rows]: the opcode is in the table (else timed as a generic ALU instruction)
    barrier: np.ndarray  # int8 [rows]: -1 not a block barrier, 0 BAR.SYNC, 1 BAR.ARV (arrive, no wait), 2 BAR.RED
    barrier_id: np.ndarray  # int8 [rows]: the named barrier (0-15), -1 when a register gives it or no barrier
    # int8 [rows]: each row's way through L1 (explorer.sass.build.l1_row_mode: a load that leaves its line there when
    # it misses, LDG...CONSTANT, LDG...STRONG.SM, LDL; a global atomic); None: every row plain
    l1_alloc: np.ndarray | None = None


def static_timing(kernel, gpu) -> StaticTiming:
    from explorer.sass.build import FALLBACK, arch_number, instruction_timing, l1_row_mode
    from explorer.sass.opcodes import load_table
    from explorer.sass.semantics import register_use
    from explorer.sass.warp_program import OP, SB, UNIT, pack_registers

    table = load_table()
    arch = kernel.arch
    instrs = list(kernel.instructions)
    infos = [table.lookup(ins.opcode, ins.modifiers, arch) for ins in instrs]
    uses = [register_use(ins, table.destination_rule(ins.opcode), arch_number(arch)) for ins in instrs]
    guards = {ins.guard for ins in instrs if ins.guard and ins.guard not in ("PT", "UPT")}
    rows = []
    for ins, info, use in zip(instrs, infos, uses):
        consumed = any(r in guards for r in use.dst)
        rows.append(instruction_timing(ins, info or FALLBACK, use, table, arch, gpu, guard_consumed=consumed,
                                       survived_exit=False))
    dst, src, names = pack_registers([(u.dst, u.src) for u in uses])
    rows_ = kernel.decoded.rows
    is_bar = rows_[:, isa.C_OP] == isa.E_BAR
    bar_imm = rows_[:, isa.C_OPND] == isa.K_IMM
    return StaticTiming(
        op=np.array([OP[c] for c, _, _, _ in rows], dtype=np.int8),
        unit=np.array([UNIT[u] for _, u, _, _ in rows], dtype=np.int8),
        latency=np.array([cycles or 0 for _, _, cycles, _ in rows], dtype=np.int32),
        scoreboard=np.array([SB[sb] for _, _, _, sb in rows], dtype=np.int8),
        dst=dst, src=src, reg_names=names, known=np.array([i is not None for i in infos], dtype=bool),
        barrier=np.where(is_bar, rows_[:, isa.C_F1], -1).astype(np.int8),
        barrier_id=np.where(is_bar & bar_imm, rows_[:, isa.C_OPND + 1] & 15, -1).astype(np.int8),
        l1_alloc=np.array([l1_row_mode(ins) for ins in instrs], dtype=np.int8))
