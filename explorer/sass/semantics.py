"""Which registers a SASS instruction reads and writes (the dependencies the scoreboard sees).

SASS writes ``OPCODE dst, src, src...``. The destination count depends on the opcode
family (``dst`` in ``resources/sass/opcodes.toml``):

- ``0``: stores, reductions, branches, barriers (``STG [R2.64], R5``: every operand is read);
- ``1``: the usual single destination;
- ``2``: compare-and-set-predicate and vote forms with two outputs
  (``ISETP.NE.AND P0, PT, R12, 0x10, PT``: P0 and PT are written);
- ``carry``: one destination plus the carry-out predicates right after it
  (``IADD3 R20, P1, R14, 0x78000, RZ``; ``LEA R0, P0, ...``), or a predicate output
  followed by a register output (``LOP3.LUT P0, RZ, ...``, ``SHFL.IDX PT, R3, ...``).

Widths: a 64-bit value occupies a register pair (R4 = R4, R5), a 128-bit one four.
The width comes from the size modifier of memory operations (``.64``, ``.128``), from
``.WIDE`` (``IMAD.WIDE R4, R2, R3, R4``: R4:R5 written, C read as a pair), from the
FP64 opcodes (every register operand a pair), from the type modifiers of conversions
(``F2F.F64.F32``: a pair written, one register read), from the shape of Tensor Core
MMAs (``HMMA.16816.F32``: A 4 registers, B 2, C and D 4), from ``CS2R`` (a 64-bit
special register unless ``.32``), and inside addresses from ``.64`` and ``desc[URn]``
(a 64-bit descriptor). The guard predicate (``@P0``) is read too. RZ, URZ, PT and
UPT are constants: never a dependency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from explorer.sass.listing import (
    Instruction,
    expand,
    is_predicate_operand,
    is_register_operand,
    operand_registers,
)

LOADS = frozenset({"LDG", "LDS", "LDL", "LD", "LDC", "ULDC", "LDCU", "LDSM", "ATOM", "ATOMG", "ATOMS"})
STORES = frozenset({"STG", "STS", "STL", "ST", "RED", "REDG", "STSM"})
GLOBAL_MEMORY = frozenset({"LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED", "REDG", "LDGSTS"})
FP64 = frozenset({"DADD", "DFMA", "DMUL", "DSETP", "DMNMX", "DSET"})
CONVERSIONS = frozenset({"F2F", "F2I", "I2F", "I2I", "F2IP", "I2FP", "FRND", "F2FP"})
MMA = frozenset({"HMMA", "IMMA", "DMMA", "BMMA"})
FLOAT_TYPES = {"F16": 1, "BF16": 1, "F32": 1, "TF32": 1, "F64": 2, "E4M3": 1, "E5M2": 1}
INT_TYPES = {"U8": 1, "S8": 1, "U16": 1, "S16": 1, "U32": 1, "S32": 1, "U64": 2, "S64": 2}
ELEMENT_BYTES = {"F16": 2, "BF16": 2, "TF32": 4, "F32": 4, "F64": 8, "S8": 1, "U8": 1, "S4": 0.5, "U4": 0.5,
                 "S32": 4, "E4M3": 1, "E5M2": 1}


@dataclass(frozen=True)
class RegisterUse:
    dst: tuple[str, ...]  # registers written (pairs expanded)
    src: tuple[str, ...]  # registers read, guard predicate included


def _size_width(ins: Instruction) -> int:
    for mod in ins.modifiers:
        if mod == "64":
            return 2
        if mod == "128":
            return 4
    if ins.opcode == "LDSM":
        for mod in ins.modifiers:
            if re.fullmatch(r"M\d+", mod):
                continue
            if mod in ("2", "4"):
                return int(mod)
        return 1
    return 1


def _dst_count(ins: Instruction, rule) -> int:
    ops = ins.operands
    if rule == "carry":
        if not ops:
            return 0
        n = 1
        if is_predicate_operand(ops[0]):
            return 2 if len(ops) > 1 and is_register_operand(ops[1]) else 1
        while n < len(ops) - 1 and is_predicate_operand(ops[n]):
            n += 1
        return n
    return min(int(rule), len(ops))


def _mma_widths(ins: Instruction) -> tuple[int, int, int]:
    """Registers per thread of A, B and C/D for an MMA (``HMMA.16816.F32.BF16`` ...)."""
    shape = next((m for m in ins.modifiers if m.isdigit()), "")
    dims = {"16816": (16, 8, 16), "1688": (16, 8, 8), "1684": (16, 8, 4), "884": (8, 8, 4), "16832": (16, 8, 32),
            "8816": (8, 8, 16), "8832": (8, 8, 32), "168256": (16, 8, 256), "16864": (16, 8, 64)}.get(shape)
    if dims is None:
        return 1, 1, 1
    m, n, k = dims
    types = [t for t in ins.modifiers if t in ELEMENT_BYTES]
    acc = types[0] if types else "F32"
    inp = types[1] if len(types) > 1 else {"HMMA": "F16", "IMMA": "S8", "DMMA": "F64", "BMMA": "U4"}[ins.opcode]
    if ins.opcode == "DMMA":
        acc = inp = "F64"
    if ins.opcode == "IMMA":
        acc = "S32"
    a = max(1, round(m * k * ELEMENT_BYTES[inp] / 128))
    b = max(1, round(k * n * ELEMENT_BYTES[inp] / 128))
    c = max(1, round(m * n * ELEMENT_BYTES[acc] / 128))
    return a, b, c


def _conversion_widths(ins: Instruction) -> tuple[int, int]:
    types = [t for t in ins.modifiers if t in FLOAT_TYPES or t in INT_TYPES]
    width = {**FLOAT_TYPES, **INT_TYPES}
    if ins.opcode == "F2F" or ins.opcode == "FRND":
        if ins.opcode == "FRND":
            w = width.get(types[0], 1) if types else 1
            return w, w
        dst = width.get(types[0], 1) if types else 1
        src = width.get(types[1], 1) if len(types) > 1 else 1
        return dst, src
    ints = [t for t in types if t in INT_TYPES]
    floats = [t for t in types if t in FLOAT_TYPES]
    if ins.opcode in ("I2F", "I2FP"):  # float destination type, integer source type
        return (FLOAT_TYPES.get(floats[0], 1) if floats else 1), (INT_TYPES.get(ints[0], 1) if ints else 1)
    if ins.opcode in ("F2I", "F2IP"):  # integer destination, float source
        return (INT_TYPES.get(ints[0], 1) if ints else 1), (FLOAT_TYPES.get(floats[0], 1) if floats else 1)
    if ins.opcode == "I2I":
        return (INT_TYPES.get(ints[0], 1) if ints else 1), (INT_TYPES.get(ints[1], 1) if len(ints) > 1 else 1)
    return 1, 1


def register_use(ins: Instruction, dst_rule=1, arch_number: int = 90) -> RegisterUse:
    """The registers ``ins`` writes and reads (see the module docstring for the rules)."""
    n_dst = _dst_count(ins, dst_rule)
    ops = list(ins.operands)
    op = ins.opcode
    # width of each operand position (0 = decided per register inside the operand)
    widths = [1] * len(ops)
    if op in LOADS and n_dst:
        widths[0] = _size_width(ins)
    elif op in STORES and ops:
        widths[-1] = _size_width(ins)
    if "WIDE" in ins.modifiers and ops:
        widths[0] = 2
        if len(ops) > n_dst + 2:
            widths[n_dst + 2] = 2  # the addend C
    if op in FP64:
        widths = [2] * len(ops)
    if op in CONVERSIONS and len(ops) >= 2:
        dw, sw = _conversion_widths(ins)
        widths[0] = dw
        for i in range(n_dst, len(ops)):
            widths[i] = sw
    if op in MMA and len(ops) >= 4:
        a, b, c = _mma_widths(ins)
        widths[:4] = [c, a, b, c]
    if op in ("CS2R", "CS2UR") and ops:
        widths[0] = 1 if "32" in ins.modifiers else 2
    if "64" in ins.modifiers and op not in LOADS and op not in STORES and op not in FP64:
        widths = [2] * len(ops)  # IADD.64, UIADD3.64, MOV.64 ...
    wide_address = op in GLOBAL_MEMORY and "E" in ins.modifiers and arch_number < 80  # sm_75: [R2] is 64-bit

    dst: list[str] = []
    src: list[str] = []
    for i, text in enumerate(ops):
        for name, w in operand_registers(text):
            if name.startswith("P") or name.startswith("UP") or name == "PR":
                w = 1
            elif w == 0:
                w = widths[i]
            elif w == 1 and wide_address and "[" in text and not re.search(rf"{name}\.[A-Z]", text):
                w = 2
            regs = expand(name, w)
            if i < n_dst and "[" not in text:
                dst += regs
            else:
                src += regs
    if ins.guard and ins.guard not in ("PT", "UPT"):
        src.append(ins.guard)
    return RegisterUse(dst=tuple(dict.fromkeys(dst)), src=tuple(dict.fromkeys(src)))
