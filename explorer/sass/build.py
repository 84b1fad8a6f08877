"""Build a WarpProgram from one function's SASS: timing from the opcode table, registers, path.

Inputs: the function's instructions (``explorer.sass.listing``), the architecture, the
GPU (for the latencies the table names), the loop's trip count and what is known about
the launch (``explorer.sass.flow.KernelFacts``). ``request_bytes`` may give a memory
instruction's bytes per request (the generated kernels' loop uses the workload's; see
``kernel_program``); otherwise a warp-wide access moves the 32-byte sectors its active
lanes touch, contiguous.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from explorer.sass.errors import ArchUnsupported, ProgramError
from explorer.sass.flow import KernelFacts, analyse, basic_blocks
from explorer.sass.listing import Instruction
from explorer.sass.opcodes import OpcodeInfo, OpcodeTable, load_table
from explorer.sass.semantics import register_use
from explorer.sass.warp_program import (ATOMIC, L1_ALLOCATE, OP, PLAIN, SB, UNIT, ListingRow, WarpProgram,
                                        pack_registers)

MEMORY_CLASSES = ("ldg", "stg", "lds", "sts", "ldl", "stl", "atom")
FALLBACK = OpcodeInfo(key="?", group="unknown", op_class="int", unit="alu", latency=4, scoreboard="fixed",
                      source="not in the opcode table: timed as a generic fixed-latency ALU instruction")


def access_bytes(ins: Instruction) -> int:
    """Bytes per thread of a memory instruction, from its size modifier (default 4)."""
    for mod in ins.modifiers:
        if mod in ("U8", "S8"):
            return 1
        if mod in ("U16", "S16"):
            return 2
        if mod == "64":
            return 8
        if mod == "128":
            return 16
    return 4


def allocates_in_l1(ins: Instruction) -> bool:
    """Whether a load leaves its line in L1 when it misses there (``resources/sim_model.toml`` [caches]):
    a local-memory load (``LDL``: local memory is cached in L1 and L2), a read-only, non-coherent global load
    (``LDG...CONSTANT``: ``ld.global.nc``, ``__ldg``, a ``const __restrict__`` pointer) unless it says
    ``L1::no_allocate`` (``.NA``), or a load cached at all levels on request (``LDG...STRONG.SM``:
    ``ld.global.ca``, ``-Xptxas -dlcm=ca``). A plain ``LDG.E`` does not (measured)."""
    if ins.opcode == "LDL":
        return True
    if ins.opcode != "LDG":
        return False
    mods = ins.modifiers
    if "CONSTANT" in mods:
        return "NA" not in mods
    return any(a == "STRONG" and b == "SM" for a, b in zip(mods, mods[1:]))


ATOMIC_OPCODES = ("ATOM", "ATOMG", "RED", "REDG")  # global atomics and reductions (ATOMS is shared memory)


def l1_row_mode(ins: Instruction) -> int:
    """A row's way through L1 for the cache model (``warp_program.PLAIN``, ``L1_ALLOCATE``, ``ATOMIC``)."""
    if ins.opcode in ATOMIC_OPCODES:
        return ATOMIC
    return L1_ALLOCATE if allocates_in_l1(ins) else PLAIN


def arch_number(arch: str) -> int:
    digits = "".join(ch for ch in arch if ch.isdigit())
    return int(digits or 0)


def instruction_timing(ins: Instruction, info: OpcodeInfo, use, table: OpcodeTable, arch: str, gpu, *,
                       guard_consumed: bool, survived_exit: bool) -> tuple[str, str, int | None, str]:
    """(class, unit, latency or None, scoreboard) of one static instruction (the table's entry, adjusted):
    an EXIT a warp survives is a branch; a predicate some instruction is guarded by waits the guard
    latency; an instruction without a register result waits on nothing (memory keeps its scoreboard)."""
    cls = "branch" if survived_exit else info.op_class
    cycles = info.cycles(gpu)
    sb = info.scoreboard
    if guard_consumed and use.dst and all(r.startswith(("P", "UP")) for r in use.dst):
        uniform = all(r.startswith("UP") for r in use.dst)
        cycles = max(cycles or 0, table.guard_latency(arch, uniform))
    if not use.dst and sb in ("fixed", "short", "long") and cls not in MEMORY_CLASSES:
        sb = "none"
    return cls, info.unit, cycles, sb


def build_program(instrs: list[Instruction], arch: str, gpu, *, trip: int, function: str,
                  facts: KernelFacts | None = None,
                  request_bytes: Callable[[int, Instruction, str], tuple | None] | None = None,
                  table: OpcodeTable | None = None, meta: dict | None = None) -> WarpProgram:
    """The WarpProgram of ``instrs`` (a function up to its last EXIT) on ``arch``.

    ``request_bytes(position_in_body, instruction, class)`` -> (moved, useful), (moved, useful, access) (the
    workload's global access the instruction performs: explorer.toolchain.addresses) or None.
    """
    table = table or load_table()
    if table.family(arch) is None:
        raise ArchUnsupported(f"the SASS opcode table has no family for {arch}")
    if trip < 1:
        raise ProgramError(f"the loop trip count {trip} is below 1")
    facts = facts or KernelFacts()
    an = arch_number(arch)
    infos = [table.lookup(ins.opcode, ins.modifiers, arch) for ins in instrs]
    uses = [register_use(ins, table.destination_rule(ins.opcode), an) for ins in instrs]
    flow = analyse(instrs, uses, facts)
    notes = list(flow.notes)
    unknown = sorted({ins.opcode for ins, info in zip(instrs, infos) if info is None})
    if unknown:
        notes.append(f"opcodes not in the table, timed as generic fixed-latency ALU instructions: {', '.join(unknown)}")
    if flow.loop_static is None and trip > 1:
        raise ProgramError(f"the SASS has no loop, but the workload loops {trip} times")
    if flow.loop_static is not None and trip == 1:
        notes.append("the loop runs once")

    segment = ["skipped"] * len(instrs)
    for pos, k in enumerate(flow.path):
        segment[k] = "prologue" if pos < flow.loop_start else ("body" if pos < flow.loop_end else "epilogue")

    # timing per static instruction
    rows: list[ListingRow] = []
    timing: list[tuple[str, str, int, str]] = []
    for k, (ins, info, use) in enumerate(zip(instrs, infos, uses)):
        info = info or FALLBACK
        cls, _, cycles, sb = instruction_timing(ins, info, use, table, arch, gpu,
                                                guard_consumed=flow.guard_consumed[k],
                                                survived_exit=ins.opcode == "EXIT" and k != flow.path[-1])
        timing.append((cls, info.unit, cycles or 0, sb))
        rows.append(ListingRow(pc=ins.pc, opcode=ins.opcode, mnemonic=ins.mnemonic, text=ins.text, unit=info.unit,
                               op_class=cls, latency=cycles, scoreboard=sb, dst=use.dst, src=use.src,
                               segment=segment[k], executed=flow.executed[k],
                               predicated_off=flow.predicated_off[k], instrumentation=flow.instrumentation[k],
                               known=infos[k] is not None,
                               control=ins.control.to_json() if ins.control else None, source=info.source))

    # the executed path as arrays
    path = flow.path
    body_position: dict = {}
    for pos in range(flow.loop_start, flow.loop_end):
        body_position[path[pos]] = pos - flow.loop_start
    req, useful, access = [], [], []
    for k in path:
        ins, (cls, _, _, _) = instrs[k], timing[k]
        access.append(-1)
        if cls not in MEMORY_CLASSES or flow.predicated_off[k]:
            req.append(0)
            useful.append(0)
            continue
        lanes = 1 if flow.single_lane[k] else 32
        width = access_bytes(ins)
        moved = max(32, math.ceil(lanes * width / 32) * 32)
        asked = lanes * width
        if request_bytes is not None and k in body_position and not flow.instrumentation[k]:
            got = request_bytes(body_position[k], ins, cls)
            if got is not None:
                moved, asked = got[0], got[1]
                if len(got) > 2:
                    access[-1] = int(got[2])
        req.append(int(moved))
        useful.append(int(asked))
    dst, src, names = pack_registers([(uses[k].dst, uses[k].src) for k in path])
    n = len(path)
    prog = WarpProgram(
        source="sass", arch=arch, function=function,
        op=np.array([OP[timing[k][0]] for k in path], dtype=np.int8),
        unit=np.array([UNIT[timing[k][1]] for k in path], dtype=np.int8),
        latency=np.array([timing[k][2] for k in path], dtype=np.int32),
        scoreboard=np.array([SB[timing[k][3]] for k in path], dtype=np.int8),
        dst=dst, src=src,
        req_bytes=np.array(req, dtype=np.int32), useful_bytes=np.array(useful, dtype=np.int32),
        access=np.array(access, dtype=np.int16),
        l1_alloc=np.array([l1_row_mode(instrs[k]) for k in path], dtype=np.int8),
        instrumentation=np.array([flow.instrumentation[k] for k in path], dtype=bool),
        static_index=np.array(path, dtype=np.int32),
        loop_start=flow.loop_start, loop_end=flow.loop_end if flow.loop_static else flow.loop_start,
        trip=trip if flow.loop_static else 1, reg_names=names, listing=tuple(rows), notes=tuple(notes),
        blocks=tuple(basic_blocks(instrs)), meta=dict(meta or {}),
    )
    if n == 0 or prog.op[-1] != OP["exit"]:
        raise ProgramError("the executed path does not end with EXIT")
    return prog
