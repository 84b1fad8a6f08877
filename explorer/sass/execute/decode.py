"""Decode SASS instructions (``explorer.sass.listing``) into the executor's int64 rows (``isa``).

Each supported opcode has a decoder that puts its operands into fixed slots; what a slot
means is written next to each decoder, with the source of the rule (the opcode's meaning
from NVIDIA's CUDA Binary Utilities instruction list, "CBU"; the PTX instruction it comes
from, "PTX ISA"; operand orders as nvdisasm prints them). An opcode or a form the
executor does not implement becomes an ``E_UNSUPPORTED`` row with the reason: the run
stops with a clear message only if a warp reaches it, so kernels with unused exotic
code still run.

Immediates: nvdisasm prints integer immediates in hex and floating-point immediates in
decimal (``0.5``, ``+INF``, ``1.84467440737095516160e+19``); half-precision pairs print as
two numbers, the high half first (``HFMA2.MMA R5, -RZ, RZ, 0, 2.38e-07`` makes R5 = 4).
Constant-bank operands keep their bank and offset; :func:`link` replaces them with the
launch's values (kernel parameters, block and grid sizes) once they are known.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

import numpy as np

from explorer.sass.execute import isa
from explorer.sass.execute.isa import (
    C_AIMM, C_AREG, C_ASCALE, C_AUREG, C_AWIDE, C_E0, C_F1, C_F2, C_F3, C_F4, C_GNEG, C_GUARD, C_MCLASS,
    C_MSIGN, C_OP, C_OPND, C_TARGET, C_UNIF, C_W64, C_WIDTH, K_BREG, K_CBANK, K_CIDX, K_IMM, K_NONE, K_PRED, K_R,
    K_SREG, K_UR, MOD_64, MOD_ABS, MOD_NEG, MOD_NOT, N_COLS, PT, RZ, UPT, URZ,
)
from explorer.sass.listing import Instruction


class Unsupported(Exception):
    """This instruction (or this form of it) is not executed by the interpreter."""


@dataclass
class Operand:
    kind: int
    val: int = 0
    mods: int = 0
    sel: int = 0
    fval: float | None = None  # a decimal (floating-point) immediate as printed
    text: str = ""
    address: tuple | None = None  # (reg, wide, ureg, imm, scale) for a memory operand


@dataclass(frozen=True)
class DecodedKernel:
    """A function's instructions as executor rows; ``rows[i]`` is the instruction at ``pcs[i]``."""

    rows: np.ndarray  # int64 [n, N_COLS]
    pcs: np.ndarray  # int64 [n]
    texts: tuple[str, ...]
    unsupported: dict  # row -> reason

    @property
    def n(self) -> int:
        return int(self.rows.shape[0])


# -- operands --------------------------------------------------------------------------------
REG_RE = re.compile(r"^(RZ|R\d+|URZ|UR\d+)((?:\.[A-Za-z0-9_]+)*)$")
PRED_RE = re.compile(r"^(!?)(PT|P[0-6]|UPT|UP[0-6])$")
CBANK_RE = re.compile(r"^c\[(0x[0-9a-fA-F]+)\]\s*\[(.+)\]$")
HEX_RE = re.compile(r"^(-?)0x([0-9a-fA-F]+)$")
FLOAT_RE = re.compile(r"^[-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|INF|QNAN|NAN|SNAN)$")
SELECTORS = {"H0_H0": isa.SEL_H0_H0, "H1_H1": isa.SEL_H1_H1, "H1_H0": isa.SEL_H1_H0, "H0_H1": isa.SEL_H0_H1,
             "F32": isa.SEL_F32, "B0": isa.SEL_B0, "B1": isa.SEL_B1, "B2": isa.SEL_B2, "B3": isa.SEL_B3,
             "H0": isa.SEL_H0, "H1": isa.SEL_H1}


def reg_index(name: str) -> tuple[int, int]:
    """(kind, index) of ``R5``/``RZ``/``UR4``/``URZ``."""
    if name == "RZ":
        return K_R, RZ
    if name == "URZ":
        return K_UR, URZ
    if name.startswith("UR"):
        return K_UR, int(name[2:])
    return K_R, int(name[1:])


def pred_index(name: str) -> int:
    if name == "PT":
        return PT
    if name == "UPT":
        return UPT
    if name.startswith("UP"):
        return 8 + int(name[2:])
    return int(name[1:])


def parse_float(text: str) -> float:
    t = text.strip()
    sign = -1.0 if t.startswith("-") else 1.0
    body = t.lstrip("+-")
    if body == "INF":
        return sign * math.inf
    if body in ("QNAN", "NAN", "SNAN"):
        return math.nan
    return float(t)


def parse_address(text: str) -> tuple[int, int, int, int, int]:
    """``[R2.64+UR4+0x10]``, ``[R7.X4+0xa0]``, ``desc[UR6][R2.64]``, ``[UR4]`` -> (reg, wide, ureg, imm, scale)."""
    body = text
    m = re.match(r"^desc\[[^\]]*\]", body)
    if m:
        body = body[m.end():]
    if not (body.startswith("[") and body.endswith("]")):
        raise Unsupported(f"address {text!r}")
    inner = body[1:-1].replace(" ", "")
    reg, wide, ureg, imm, scale = RZ, 0, URZ, 0, 1
    for term in re.findall(r"[+-]?[^+-]+", inner):
        neg = term.startswith("-")
        term = term.lstrip("+-")
        h = HEX_RE.match(term)
        if h:
            v = int(h.group(2), 16)
            imm += -v if neg else v
            continue
        parts = term.split(".")
        name, suffixes = parts[0], [x for x in parts[1:] if x not in ("U32", "reuse")]
        if neg or not (name in ("RZ", "URZ") or re.fullmatch(r"U?R\d+", name)):
            raise Unsupported(f"address {text!r}")
        kind, idx = reg_index(name)
        for sfx in suffixes:
            if sfx == "64":
                wide |= 2 if kind == K_UR else 1
            elif sfx in ("X2", "X4", "X8", "X16") and kind == K_R:
                scale = int(sfx[1:])
            else:
                raise Unsupported(f"address {text!r}: .{sfx}")
        if kind == K_UR:
            ureg = idx
        else:
            reg = idx
    return reg, wide, ureg, imm, scale


def parse_operand(text: str) -> Operand:
    t = text.replace(".reuse", "").strip()
    orig = t
    if t.startswith("desc[") or t.startswith("["):
        return Operand(K_NONE, text=orig, address=parse_address(t))
    m = PRED_RE.match(t)
    if m:
        return Operand(K_PRED, pred_index(m.group(2)), MOD_NOT if m.group(1) else 0, text=orig)
    if t.startswith("SR_") or t == "SRZ":
        code = isa.SPECIAL_REGISTERS.get(t)
        if code is None:
            raise Unsupported(f"special register {t}")
        return Operand(K_SREG, code, text=orig)
    if re.fullmatch(r"B\d+", t):
        return Operand(K_BREG, int(t[1:]), text=orig)
    mods = 0
    while t and t[0] in "-~!":
        mods |= MOD_NEG if t[0] == "-" else MOD_NOT
        t = t[1:]
    if t.startswith("|"):
        end = t.rfind("|")
        if end <= 0:
            raise Unsupported(f"operand {orig!r}")
        t = t[1:end] + t[end + 1:]
        mods |= MOD_ABS
    h = HEX_RE.match(t)
    if h:
        v = int(h.group(2), 16)
        return Operand(K_IMM, -v if (h.group(1) or mods & MOD_NEG) else v, text=orig)
    c = CBANK_RE.match(t)
    if c:
        bank = int(c.group(1), 16)
        inner = c.group(2).replace(" ", "")
        h = HEX_RE.match(inner)
        if h:
            return Operand(K_CBANK, (bank << 32) | int(h.group(2), 16), mods, text=orig)
        # an indexed constant: c[0x0][R2+0x10]
        im = re.fullmatch(r"(R\d+|RZ|UR\d+|URZ)(?:\+(0x[0-9a-fA-F]+))?", inner)
        if not im:
            raise Unsupported(f"constant operand {orig!r}")
        kind, idx = reg_index(im.group(1))
        off = int(im.group(2), 16) if im.group(2) else 0
        return Operand(K_CIDX, (bank << 32) | off, mods, sel=idx if kind == K_R else 256 + idx, text=orig)
    if FLOAT_RE.match(t):
        v = parse_float(t)
        if mods & MOD_NEG:
            v = -v
        return Operand(K_IMM, 0, 0, fval=v, text=orig)
    m = REG_RE.match(t)
    if m:
        kind, idx = reg_index(m.group(1))
        sel = 0
        for s in (m.group(2) or "").split(".")[1:]:
            if s == "64":
                mods |= MOD_64
            elif s in SELECTORS:
                sel = SELECTORS[s]
            elif s in ("U32", "S32"):
                continue
            else:
                raise Unsupported(f"operand {orig!r}")
        return Operand(kind, idx, mods, sel, text=orig)
    raise Unsupported(f"operand {orig!r}")


# -- immediates by type --------------------------------------------------------------------------
def f32_bits(v: float) -> int:
    if math.isnan(v):
        return 0x7FFFFFFF
    return struct.unpack("<I", struct.pack("<f", np.float32(v)))[0]


def f64_bits(v: float) -> int:
    if math.isnan(v):
        return 0x7FFFFFFFFFFFFFFF
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def f16_bits(v: float) -> int:
    if math.isnan(v):
        return 0x7FFF
    return int(np.array([v], dtype=np.float16).view(np.uint16)[0])


def bf16_bits(v: float) -> int:
    if math.isnan(v):
        return 0x7FFF
    b = f32_bits(v)
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16 & 0xFFFF


# -- the row builder -------------------------------------------------------------------------
RAW_OPERANDS = frozenset({"BRX"})


class Row:
    def __init__(self, ins: Instruction, index_of_pc):
        self.v = [0] * N_COLS
        self.v[C_TARGET] = -1
        self.v[C_MCLASS] = -1
        self.v[C_AREG] = RZ
        self.v[C_AUREG] = URZ
        self.v[C_ASCALE] = 1
        self.ins = ins
        self.mods = set(ins.modifiers)
        self.index_of_pc = index_of_pc
        if ins.guard is None:
            self.v[C_GUARD] = PT
        else:
            self.v[C_GUARD] = pred_index(ins.guard)
            self.v[C_GNEG] = int(ins.guard_negated)
        # a function-name reference (RET.REL.NODEC R4 `(kernel)) is not an operand
        texts = [re.sub(r"\s*`\([^)]*\)", "", t) for t in ins.operands]
        # BRX's operand ("R4 -0x150") is not a standalone operand: its decoder reads the text
        self.ops = [] if ins.opcode in RAW_OPERANDS else [parse_operand(t) for t in texts if t]

    def set(self, col: int, value: int) -> None:
        self.v[col] = int(value)

    def op(self, code: int, unif: bool = False) -> None:
        self.v[C_OP] = code
        self.v[C_UNIF] = int(unif)

    def slot(self, k: int, o: Operand, *, imm: str = "u32") -> None:
        """Put operand ``o`` in slot ``k``; a float immediate becomes the bits of ``imm``'s type."""
        if o.kind == K_IMM:
            if o.fval is not None:
                val = {"f32": f32_bits, "f64": f64_bits, "u32": _int_from_float, "h2": None}[imm]
                if imm == "h2":
                    raise Unsupported("a half-precision pair needs two numbers")
                value = val(o.fval)
            else:
                value = o.val
                if imm == "f64" and 0 <= value < (1 << 32):
                    value <<= 32  # a hex immediate of a double operation is its high word
            value &= (1 << 64) - 1
            if value >= 1 << 63:
                value -= 1 << 64
            o = Operand(K_IMM, value, 0, 0)
        base = C_OPND + 4 * k
        self.v[base:base + 4] = [o.kind, o.val, o.mods, o.sel]

    def pred(self, k: int, o: Operand) -> None:
        if o.kind != K_PRED:
            raise Unsupported(f"expected a predicate, got {o.text!r}")
        self.slot(k, o)

    def target(self) -> None:
        t = self.ins.target
        if t is None:
            raise Unsupported("no branch target")
        idx = self.index_of_pc(t)
        if idx is None:
            raise Unsupported(f"branch target 0x{t:x} is not an instruction")
        self.v[C_TARGET] = idx

    def address(self, o: Operand) -> None:
        if o.address is None:
            raise Unsupported(f"expected an address, got {o.text!r}")
        reg, wide, ureg, imm, scale = o.address
        if "E" in self.mods:
            # .E ("extended"): a 64-bit address: its register and its uniform register are pairs, whether
            # or not nvdisasm prints .64 (sm_75 prints LDG.E.SYS R2, [R2] and, for a ULDC.64 base pointer,
            # LDG.E.U8.SYS R3, [R2.64+UR4]; every arch prints ATOMG.E.CAS PT, R3, [R2], R6, R7: read as
            # 32 bits, every atomicCAS hit address 0x4, issue 30)
            if reg != RZ:
                wide |= 1
            if ureg != URZ:
                wide |= 2
        self.v[C_AREG], self.v[C_AWIDE], self.v[C_AUREG], self.v[C_AIMM], self.v[C_ASCALE] = reg, wide, ureg, imm, scale

    def has(self, *mods: str) -> bool:
        return any(m in self.mods for m in mods)


def _int_from_float(v: float) -> int:
    if v != v or v in (math.inf, -math.inf) or v != int(v):
        raise Unsupported(f"a decimal immediate {v!r} in an integer operation")
    return int(v)


def _rounding(r: Row, default: int = isa.RND_RN) -> int:
    for m in r.ins.modifiers:
        if m in isa.ROUNDING:
            return isa.ROUNDING[m]
    return default


def _types(r: Row) -> list[int]:
    return [isa.TYPES[m] for m in r.ins.modifiers if m in isa.TYPES]


def _width(r: Row) -> tuple[int, int]:
    """(bytes, signed) of a memory instruction from its size modifier."""
    for m in r.ins.modifiers:
        if m in ("U8", "S8"):
            return 1, int(m == "S8")
        if m in ("U16", "S16"):
            return 2, int(m == "S16")
        if m == "64":
            return 8, 0
        if m == "128":
            return 16, 0
    return 4, 0


def _cmp(r: Row) -> tuple[int, int, int]:
    cmp_, boolop, unsigned = None, isa.BOOL_AND, 0
    for m in r.ins.modifiers:
        if m in isa.CMP_CODES and cmp_ is None:
            cmp_ = isa.CMP_CODES[m]
        elif m in isa.BOOL_CODES:
            boolop = isa.BOOL_CODES[m]
        elif m == "U32":
            unsigned = 1
        elif m in ("U64", "S64"):  # sm_120: a 64-bit compare of register pairs (ISETP.GE.U64)
            unsigned = 2 if m == "U64" else 3
    if cmp_ is None:
        raise Unsupported("no comparison")
    return cmp_, boolop, unsigned


# -- decoders (by base opcode) --------------------------------------------------------------------
def _n(r: Row, k: int) -> None:
    if len(r.ops) < k:
        raise Unsupported(f"expected {k} operands")


def _slots(r: Row, code: int, n: int, unif: bool) -> None:
    """The common form: ``code`` with the first ``n`` operands in slots 0..n-1 (the destination first)."""
    _n(r, n)
    r.op(code, unif)
    for k in range(n):
        r.slot(k, r.ops[k])


def d_nop(r: Row, unif: bool) -> None:
    r.op(isa.E_NOP)


def d_mov(r: Row, unif: bool) -> None:
    # MOV Rd, src [, lane mask]; MOV32I; UMOV URd, src (CBU: move)
    _n(r, 2)
    r.op(isa.E_MOV, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    if "64" in r.mods:
        r.set(C_F1, 1)


def d_sel(r: Row, unif: bool) -> None:
    # SEL Rd, a, b, P: d = P ? a : b (CBU: select source with predicate; PTX selp)
    _n(r, 4)
    r.op(isa.E_SEL, unif)
    for k in range(3):
        r.slot(k, r.ops[k], imm="f32" if r.ins.opcode == "FSEL" else "u32")
    r.pred(3, r.ops[3])
    if "64" in r.mods:
        r.set(C_F1, 1)


def d_iadd3(r: Row, unif: bool) -> None:
    # IADD3[.X] Rd, [Pc1, [Pc2,]] a, b, c [, Pin1, Pin2] (CBU: 3-input integer addition; carry-out
    # predicates after the destination, carry-in predicates at the end for .X). A negated source
    # adds its two's complement: -a = ~a + 1, so carries behave as in a wide unsigned sum.
    ops = r.ops
    r.op(isa.E_IADD3, unif)
    tail = 0
    if "X" in r.mods:
        while tail < 2 and len(ops) > 4 + tail and ops[len(ops) - 1 - tail].kind == K_PRED:
            tail += 1
    end = len(ops) - tail
    srcs, outs = ops[end - 3:end], ops[1:end - 3]
    if len(srcs) != 3 or len(outs) > 2 or any(o.kind != K_PRED for o in outs):
        raise Unsupported("IADD3 operands")
    r.slot(0, ops[0])
    for j in range(2):
        r.slot(1 + j, outs[j] if j < len(outs) else Operand(K_PRED, UPT if unif else PT))
    for j, o in enumerate(srcs):
        r.slot(3 + j, o)
    if "X" in r.mods:
        r.set(C_F1, 1)
        pins = ops[end:]
        for j in range(2):
            p = pins[j] if j < len(pins) else Operand(K_PRED, UPT if unif else PT, MOD_NOT)
            r.set(C_E0 + j, p.val | (16 if p.mods & MOD_NOT else 0))


def d_iadd(r: Row, unif: bool) -> None:
    # VIADD Rd, a, b (Hopper+: integer add, CBU) ; IADD32I Rd, a, imm. Each source possibly negated.
    _slots(r, isa.E_IADD, 3, unif)
    if len(r.ops) > 3:
        raise Unsupported(f"{r.ins.opcode} with a third operand")


def d_iadd2(r: Row, unif: bool) -> None:
    # IADD (sm_120; CBU "IADD: Integer Addition"): the two-source add ptxas emits where sm_90 has IADD3.
    # IADD Rd, a, b is IADD3 Rd, a, b, RZ; IADD Rd, Pc, a, b its carry-out form (IADD3 Rd, Pc, PT, a, b, RZ);
    # IADD.X Rd, [Pc,] a, b, Pin adds the carry-in (IADD3.X ... RZ, Pin, !PT); IADD.64 Rd, a, b adds
    # register pairs (a 64-bit result in Rd, Rd+1).
    ops = r.ops
    mods = r.mods - {"X"}
    if mods == {"64"}:
        if len(ops) != 3 or any(o.kind == K_PRED for o in ops):
            raise Unsupported("IADD.64 operands")
        r.op(isa.E_IADD, unif)
        for k in range(3):
            r.slot(k, ops[k])
        r.set(C_F1, 1)
        return
    if mods:
        raise Unsupported("IADD form")
    pins = []
    if "X" in r.mods:
        while ops and ops[-1].kind == K_PRED and len(pins) < 2:
            pins.insert(0, ops.pop())
        if not pins:
            raise Unsupported("IADD.X without a carry-in predicate")
    srcs = [o for o in ops[1:] if o.kind != K_PRED]
    outs = [o for o in ops[1:] if o.kind == K_PRED]
    if len(srcs) != 2 or len(outs) > 2 or ops[1:] != outs + srcs:
        raise Unsupported("IADD operands")
    zero = Operand(K_R, RZ) if not unif else Operand(K_UR, URZ)
    r.ops = [ops[0], *outs, *srcs, zero, *pins]
    d_iadd3(r, unif)


def d_imad(r: Row, unif: bool) -> None:
    # IMAD[.MOV|.SHL|.IADD|.U32] Rd, a, b, c: d = a*b + c (low 32 bits; the alias modifiers only say
    # how ptxas uses it); .WIDE[.U32]: Rd:Rd+1 = a*b + (c+1:c); .HI: d = bits 32..63 of a*b + (c+1:c)
    # (the addend is a register pair: ptxas' division sequence zeroes R4 and keeps the quotient
    # estimate in R5 to get q + umulhi(q, e) in one IMAD.HI R5, R5, R7, R4; PTX mad.hi, mul.hi);
    # .X: + the carry-in predicate (CBU: integer multiply and add)
    ops = r.ops
    r.op(isa.E_IMAD, unif)
    k = 1
    carry_out = None
    if len(ops) > 4 and ops[1].kind == K_PRED:
        carry_out = ops[1]
        k = 2
    srcs = ops[k:k + 3]
    if len(srcs) != 3:
        raise Unsupported("IMAD operands")
    r.slot(0, ops[0])
    for j, o in enumerate(srcs):
        r.slot(1 + j, o)
    r.slot(4, carry_out or Operand(K_PRED, UPT if unif else PT))
    mode = 0
    if "HI" in r.mods:
        mode = 1
    elif "WIDE" in r.mods:
        mode = 2
    r.set(C_F1, mode)
    r.set(C_F2, int("U32" in r.mods))
    if "X" in r.mods:
        r.set(C_F3, 1)
        pins = [o for o in ops[k + 3:] if o.kind == K_PRED]
        p = pins[0] if pins else Operand(K_PRED, UPT if unif else PT, MOD_NOT)
        r.set(C_E0, p.val | (16 if p.mods & MOD_NOT else 0))


def d_lea(r: Row, unif: bool) -> None:
    # LEA Rd, [Pout,] a, b, shift: d = (a << shift) + b, carry out (CBU: load effective address).
    # LEA.HI Rd, [Pout,] a, b, c, shift: d = b + hi32((c:a) << shift) (c the high word of a 64-bit
    # value; .SX32: c is a's sign, printed without c); .X adds the carry-in predicate at the end.
    ops = r.ops
    r.op(isa.E_LEA, unif)
    r.slot(0, ops[0])
    k = 1
    pout = Operand(K_PRED, UPT if unif else PT)
    if ops[1].kind == K_PRED:
        pout = ops[1]
        k = 2
    hi = "HI" in r.mods
    sx = "SX32" in r.mods
    n_src = 2 if (not hi or sx) else 3
    srcs = ops[k:k + n_src]
    shift = ops[k + n_src] if k + n_src < len(ops) else None
    if shift is None or shift.kind != K_IMM or shift.fval is not None:
        raise Unsupported("LEA shift")
    r.slot(1, pout)
    r.slot(2, srcs[0])
    r.slot(3, srcs[1])
    if n_src == 3:
        r.slot(4, srcs[2])
    else:
        r.slot(4, Operand(K_R if not unif else K_UR, RZ if not unif else URZ))
    r.set(C_E0, shift.val)
    r.set(C_F1, int(hi))
    r.set(C_F3, int(sx))
    if "X" in r.mods:
        r.set(C_F2, 1)
        pins = [o for o in ops[k + n_src + 1:] if o.kind == K_PRED]
        p = pins[0] if pins else Operand(K_PRED, UPT if unif else PT, MOD_NOT)
        r.set(C_E0 + 1, p.val | (16 if p.mods & MOD_NOT else 0))


def d_lop3(r: Row, unif: bool) -> None:
    # LOP3.LUT [Pd,] Rd, a, b, c, lut, Pin: bitwise function of three inputs given by its truth
    # table (bit (a<<2 | b<<1 | c) of lut); Pd = (result != 0) (CBU: logic operation with three
    # inputs; PTX lop3.b32). The trailing predicate is not an input of the LUT: it is ORed in
    # (estimate: always !PT in the compiler's code, so it contributes nothing).
    ops = r.ops
    r.op(isa.E_LOP3, unif)
    k = 0
    pd = Operand(K_PRED, UPT if unif else PT)
    if ops[0].kind == K_PRED:
        pd = ops[0]
        k = 1
    r.slot(0, ops[k])
    r.slot(1, pd)
    r.slot(2, ops[k + 1])
    r.slot(3, ops[k + 2])
    r.slot(4, ops[k + 3])
    lut = ops[k + 4]
    if lut.kind != K_IMM:
        raise Unsupported("LOP3 truth table")
    r.set(C_E0, lut.val & 0xFF)
    pin = ops[k + 5] if len(ops) > k + 5 else Operand(K_PRED, PT, MOD_NOT)
    r.set(C_E0 + 1, pin.val | (16 if pin.mods & MOD_NOT else 0))
    if "PAND" in r.mods or "POR" in r.mods:
        raise Unsupported("LOP3 with a predicate operation")


def d_lop(r: Row, unif: bool) -> None:
    # LOP32I / LOP.AND etc. (older forms): d = a op b
    _n(r, 3)
    op = next((m for m in r.ins.modifiers if m in ("AND", "OR", "XOR")), None)
    if op is None:
        raise Unsupported("LOP operation")
    lut = {"AND": 0xC0, "OR": 0xFC, "XOR": 0x3C}[op]
    r.op(isa.E_LOP3, unif)
    r.slot(0, r.ops[0])
    r.slot(1, Operand(K_PRED, UPT if unif else PT))
    r.slot(2, r.ops[1])
    r.slot(3, r.ops[2])
    r.slot(4, Operand(K_R if not unif else K_UR, RZ if not unif else URZ))
    r.set(C_E0, lut)
    r.set(C_E0 + 1, PT | 16)


def d_shf(r: Row, unif: bool) -> None:
    # SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] Rd, a, s, c: funnel shift of the 64-bit value (c:a)
    # (c the high word) by s; the result is the low word, or the high word with .HI; the count
    # is clamped (32 or 64 by type) unless .W wraps it (CBU: funnel shift; PTX shf.l/shf.r
    # .clamp/.wrap; 64-bit types: PTX shl/shr.b64 lowered to a pair of SHF).
    _slots(r, isa.E_SHF, 4, unif)
    r.set(C_F1, 1 if "R" in r.mods else 0)
    t = 0
    for m, code in (("U32", 0), ("S32", 1), ("U64", 2), ("S64", 3)):
        if m in r.mods:
            t = code
    r.set(C_F2, t)
    r.set(C_F3, int("HI" in r.mods))
    r.set(C_F4, int("W" in r.mods))


def d_shl_shr(r: Row, unif: bool) -> None:
    _n(r, 3)
    r.op(isa.E_SHL if r.ins.opcode.endswith("SHL") else isa.E_SHR, unif)
    for k in range(3):
        r.slot(k, r.ops[k])
    r.set(C_F2, int("U32" not in r.mods and r.ins.opcode.endswith("SHR")))
    r.set(C_F4, int("W" in r.mods))


def d_unary(code: int):
    def dec(r: Row, unif: bool) -> None:
        _n(r, 2)
        r.op(code, unif)
        r.slot(0, r.ops[0])
        r.slot(1, r.ops[1])
        r.set(C_F2, int("U32" in r.mods or "U64" in r.mods))
        r.set(C_F3, int("SH" in r.mods))
        if "64" in r.mods or "U64" in r.mods or "S64" in r.mods:
            raise Unsupported("64-bit form")
    return dec


def d_imnmx(r: Row, unif: bool) -> None:
    # IMNMX[.U32] Rd, a, b, P / VIMNMX: d = P ? min(a, b) : max(a, b) (CBU: integer min/max; PT = min).
    # sm_100 and newer print VIMNMX Rd, Pu, Pv, a, b, P: two predicate results first, which ptxas leaves
    # at PT (discarded) in every kernel seen; their meaning is not documented, so any other is refused.
    if r.ins.opcode == "VIMNMX" and len(r.ops) == 6 and r.ops[1].kind == K_PRED and r.ops[2].kind == K_PRED:
        if any(o.val != PT or o.mods for o in r.ops[1:3]):
            raise Unsupported("VIMNMX with predicate results")
        r.ops = [r.ops[0], *r.ops[3:]]
    _n(r, 4)
    r.op(isa.E_IMNMX, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.slot(2, r.ops[2])
    r.pred(3, r.ops[3])
    r.set(C_F2, int("U32" in r.mods))
    if "64" in r.mods or len(r.ops) > 4:
        raise Unsupported("IMNMX form")


def d_imnmx3(r: Row, unif: bool) -> None:
    # VIMNMX3[.U32] Rd, a, b, c, P: d = P ? min(a, b, c) : max(a, b, c); VIADDMNMX[.U32] Rd, a, b, c, P:
    # d = P ? min(a + b, c) : max(a + b, c) (sm_100 and newer; CBU "integer three-way min/max", "integer add
    # and min/max"; PT = min as for VIMNMX; the operand order read in the compiler's code for min(a + b, c),
    # max(a + b, c) and min(min(a, b), c), tests/kernels/mixed.cu add_min_max, checked against numpy)
    if len(r.ops) != 5 or r.ops[4].kind != K_PRED or r.mods - {"U32"}:
        raise Unsupported(f"{r.ins.opcode} form")
    r.op(isa.E_IMNMX3, unif)
    for k in range(4):
        r.slot(k, r.ops[k])
    r.pred(4, r.ops[4])
    r.set(C_F1, int(r.ins.opcode == "VIADDMNMX"))
    r.set(C_F2, int("U32" in r.mods))


def d_isetp(r: Row, unif: bool) -> None:
    # ISETP.cmp[.U32].bool[.EX] Pd, Pq, a, b, Pc [, Pex]: Pd = (a cmp b) bool Pc, Pq = !(a cmp b) bool Pc.
    # .EX (the high words of a 64-bit compare): the low words' result Pex decides equal high words
    # (CBU: integer compare and set predicate; PTX setp with .u64/.s64 operands).
    _n(r, 5)
    r.op(isa.E_ISETP, unif)
    cmp_, boolop, unsigned = _cmp(r)
    r.pred(0, r.ops[0])
    r.pred(1, r.ops[1])
    r.slot(2, r.ops[2])
    r.slot(3, r.ops[3])
    r.pred(4, r.ops[4])
    r.set(C_F1, cmp_)
    r.set(C_F2, boolop)
    r.set(C_F3, unsigned)
    if unsigned >= 2 and (r.ops[2].mods or r.ops[3].mods or "EX" in r.mods or r.ins.opcode != "ISETP"):
        raise Unsupported(f"{r.ins.opcode} 64-bit form")
    if "EX" in r.mods:
        if len(r.ops) < 6:
            raise Unsupported("ISETP.EX without the low-word predicate")
        r.set(C_F4, 1)
        r.pred(5, r.ops[5])


def d_prmt(r: Row, unif: bool) -> None:
    # PRMT Rd, a, sel, b: byte permute of (b:a) by the four selector nibbles (CBU; PTX prmt.b32,
    # default mode; a nibble's bit 3 replicates the sign bit of the chosen byte)
    _n(r, 4)
    mode = [m for m in r.ins.modifiers if m in ("F4E", "B4E", "RC8", "ECL", "ECR", "RC16")]
    if mode:
        raise Unsupported(f"the byte-permute mode {mode[0]}")
    _slots(r, isa.E_PRMT, 4, unif)


def d_bmsk(r: Row, unif: bool) -> None:
    # BMSK Rd, pos, width: a mask of `width` ones from bit `pos` (CBU; PTX bmsk.clamp/.wrap)
    _slots(r, isa.E_BMSK, 3, unif)
    r.set(C_F4, int("W" in r.mods))


def d_sgxt(r: Row, unif: bool) -> None:
    # SGXT[.U32] Rd, a, bits: sign- (or zero-) extend the low `bits` bits (CBU; PTX szext)
    _slots(r, isa.E_SGXT, 3, unif)
    r.set(C_F2, int("U32" in r.mods))
    r.set(C_F4, int("W" in r.mods))


def d_plop3(r: Row, unif: bool) -> None:
    # PLOP3.LUT Pd, Pq, a, b, c, lut_d, lut_q: predicate logic through two truth tables (CBU)
    _n(r, 7)
    r.op(isa.E_PLOP3, unif)
    for k in range(5):
        r.pred(k, r.ops[k])
    r.set(C_E0, r.ops[5].val & 0xFF)
    r.set(C_E0 + 1, r.ops[6].val & 0xFF)


def d_p2r(r: Row, unif: bool) -> None:
    # P2R Rd, PR, Ra, mask: d = (Ra & ~mask) | (predicate bits & mask) (CBU: move predicates to register)
    _n(r, 4)
    r.op(isa.E_P2R, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[2])
    r.slot(2, r.ops[3])
    if r.has("B1", "B2", "B3"):
        raise Unsupported("P2R byte select")


def d_r2p(r: Row, unif: bool) -> None:
    # R2P PR, Ra, mask: predicates i with mask bit i set take bit i of Ra (CBU)
    _n(r, 3)
    r.op(isa.E_R2P, unif)
    r.slot(1, r.ops[1])
    r.slot(2, r.ops[2])
    if r.has("B1", "B2", "B3"):
        raise Unsupported("R2P byte select")


def _fp_flags(r: Row) -> None:
    r.set(C_F1, _rounding(r))
    r.set(C_F2, int("FTZ" in r.mods))
    r.set(C_F3, int("SAT" in r.mods))


def d_fadd(r: Row, unif: bool) -> None:
    # FADD/FMUL[.FTZ][.RM|.RP|.RZ][.SAT] Rd, a, b (PTX add/mul.f32); FADD32I/FMUL32I
    _n(r, 3)
    r.op(isa.E_FADD if r.ins.opcode.startswith("FADD") else isa.E_FMUL)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.slot(2, r.ops[2], imm="f32")
    _fp_flags(r)
    if r.has("D2", "D4", "M2", "M4", "M8"):
        raise Unsupported("FMUL scaling")


def d_ffma(r: Row, unif: bool) -> None:
    # FFMA[.FTZ][.RM|.RP|.RZ][.SAT] Rd, a, b, c: fused a*b + c, one rounding (PTX fma.rn.f32)
    _n(r, 4)
    r.op(isa.E_FFMA)
    r.slot(0, r.ops[0])
    for k in range(1, 4):
        r.slot(k, r.ops[k], imm="f32")
    _fp_flags(r)


def d_fmnmx(r: Row, unif: bool) -> None:
    # FMNMX[.FTZ] Rd, a, b, P: P ? min : max, a NaN input gives the other (PTX min/max.f32)
    _n(r, 4)
    r.op(isa.E_FMNMX)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.slot(2, r.ops[2], imm="f32")
    r.pred(3, r.ops[3])
    r.set(C_F2, int("FTZ" in r.mods))
    if r.has("NAN", "XORSIGN"):
        raise Unsupported("FMNMX form")


def d_fsetp(r: Row, unif: bool) -> None:
    # FSETP.cmp[.FTZ].bool Pd, Pq, a, b, Pc (PTX setp.f32: ordered compares are false on NaN,
    # the U forms true)
    _n(r, 5)
    r.op(isa.E_FSETP)
    cmp_, boolop, _ = _cmp(r)
    r.pred(0, r.ops[0])
    r.pred(1, r.ops[1])
    r.slot(2, r.ops[2], imm="f32")
    r.slot(3, r.ops[3], imm="f32")
    r.pred(4, r.ops[4])
    r.set(C_F1, cmp_)
    r.set(C_F2, boolop)
    r.set(C_F3, int("FTZ" in r.mods))


def d_fset(r: Row, unif: bool) -> None:
    # FSET.BF.cmp.bool Rd, a, b, Pc: 1.0f (.BF) or 0xffffffff when true, else 0 (PTX set.f32)
    _n(r, 4)
    r.op(isa.E_FSET)
    cmp_, boolop, _ = _cmp(r)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.slot(2, r.ops[2], imm="f32")
    r.pred(3, r.ops[3])
    r.set(C_F1, cmp_)
    r.set(C_F2, boolop)
    r.set(C_F3, int("FTZ" in r.mods))
    r.set(C_F4, int("BF" in r.mods))


def d_mufu(r: Row, unif: bool) -> None:
    # MUFU.fn Rd, a: the special function unit (CBU: multi function operation). SIN/COS take the
    # angle in turns (ptxas multiplies by 1/(2 pi) first: __sinf compiles to FMUL.RZ x, 0.159155
    # then MUFU.SIN). Results here are the exact function rounded to FP32; the hardware's
    # approximations differ in the last bits (CUDA C++ Programming Guide, intrinsic functions'
    # maximum ulp errors).
    _n(r, 2)
    fn = next((isa.MUFU_CODES[m] for m in r.ins.modifiers if m in isa.MUFU_CODES), None)
    if fn is None or r.has("F16", "BF16"):
        raise Unsupported("MUFU function")
    r.op(isa.E_MUFU)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.set(C_F1, fn)


def d_frnd(r: Row, unif: bool) -> None:
    # FRND[.FLOOR|.CEIL|.TRUNC][.FTZ] Rd, a: round to an integral value (PTX cvt.rni/rmi/rpi/rzi.f32.f32)
    _n(r, 2)
    if r.has("F64"):
        raise Unsupported("FRND.F64")
    r.op(isa.E_FRND)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.set(C_F1, _rounding(r))
    r.set(C_F2, int("FTZ" in r.mods))


def d_fchk(r: Row, unif: bool) -> None:
    # FCHK.DIVIDE P, a, b: is the fast division path a*rcp(b) unsafe? (CBU: range check).
    # estimate: NVIDIA does not document the exact conditions; here P is set whenever an
    # operand is zero, denormal, infinite or NaN or the exponents could over/underflow, a
    # superset of the hardware's (the slow path then computes the IEEE quotient anyway).
    _n(r, 3)
    r.op(isa.E_FCHK)
    r.pred(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.slot(2, r.ops[2], imm="f32")


def d_i2f(r: Row, unif: bool) -> None:
    # I2F[.dst][.src][.rnd] Rd, a (PTX cvt.rn.f32.s32 ...; CBU: integer to float). Types: the
    # destination float type (F32 default, F64, F16) and the source integer type (S32 default).
    # I2FP.F32.S32/U32 (Ampere+ fast path on the ALU) is the same conversion.
    _n(r, 2)
    ts = _types(r)
    floats = [t for t in ts if t in (isa.T_F16, isa.T_BF16, isa.T_F32, isa.T_F64)]
    ints = [t for t in ts if t not in floats]
    dst = floats[0] if floats else isa.T_F32
    src = ints[0] if ints else isa.T_S32
    if dst == isa.T_BF16:
        raise Unsupported("I2F to bf16")
    r.op(isa.E_I2F)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.set(C_F1, src)
    r.set(C_F2, dst)
    r.set(C_F3, _rounding(r))


def d_f2i(r: Row, unif: bool) -> None:
    # F2I[.FTZ][.dst][.src][.TRUNC|.FLOOR|.CEIL][.NTZ] Rd, a: float to integer, saturating, NaN -> 0
    # (PTX cvt.rzi.s32.f32 ...; default rounding to nearest even)
    _n(r, 2)
    ts = _types(r)
    floats = [t for t in ts if t in (isa.T_F16, isa.T_BF16, isa.T_F32, isa.T_F64)]
    ints = [t for t in ts if t not in floats]
    r.op(isa.E_F2I)
    src = floats[0] if floats else isa.T_F32
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f64" if src == isa.T_F64 else "f32")
    r.set(C_F1, ints[0] if ints else isa.T_S32)
    r.set(C_F2, src)
    r.set(C_F3, _rounding(r))
    r.set(C_F4, int("FTZ" in r.mods))


def d_f2f(r: Row, unif: bool) -> None:
    # F2F[.FTZ].dst.src[.rnd] Rd, a (PTX cvt.f32.f64 ...)
    _n(r, 2)
    ts = [t for t in _types(r) if t in (isa.T_F16, isa.T_BF16, isa.T_F32, isa.T_F64)]
    if len(ts) != 2:
        raise Unsupported("F2F types")
    r.op(isa.E_F2F)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f64" if ts[1] == isa.T_F64 else "f32")
    r.set(C_F1, ts[0])
    r.set(C_F2, ts[1])
    r.set(C_F3, _rounding(r))
    r.set(C_F4, int("FTZ" in r.mods))


def d_f2fp(r: Row, unif: bool) -> None:
    # F2FP[.F16|.BF16][.F32].PACK_AB Rd, a, b: two FP32 values to a packed pair, a in the high half
    # (PTX cvt.rn.f16x2.f32 d, a, b: "a" goes to the upper half)
    _n(r, 3)
    if "PACK_AB" not in r.mods:
        raise Unsupported("F2FP without PACK_AB")
    r.op(isa.E_F2FP)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f32")
    r.slot(2, r.ops[2], imm="f32")
    r.set(C_F1, isa.T_BF16 if "BF16" in r.mods else isa.T_F16)
    r.set(C_F3, _rounding(r))
    if r.has("E4M3", "E5M2", "E2M1", "SATFINITE", "RELU"):
        raise Unsupported("F2FP form")


def d_i2i(r: Row, unif: bool) -> None:
    # I2I.dst.src[.SAT] Rd, a (PTX cvt.s8.s32.sat ...)
    _n(r, 2)
    ts = [t for t in _types(r) if t <= isa.T_S64]
    if len(ts) != 2 or max(ts) > isa.T_S32:
        raise Unsupported("I2I types")
    r.op(isa.E_I2I)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.set(C_F1, ts[0])
    r.set(C_F2, ts[1])
    r.set(C_F3, int("SAT" in r.mods))


def _half_operands(r: Row, first: int, count: int) -> list[Operand]:
    """``count`` half-precision sources from operand ``first`` on; a decimal pair is one packed immediate."""
    out = []
    ops = r.ops
    k = first
    bf = "BF16_V2" in r.mods or "BF16" in r.mods
    while len(out) < count:
        if k >= len(ops):
            raise Unsupported("half-precision operands")
        o = ops[k]
        if o.kind == K_IMM and o.fval is not None:
            if k + 1 >= len(ops) or ops[k + 1].fval is None:
                raise Unsupported("half-precision immediate")
            conv = bf16_bits if bf else f16_bits
            packed = (conv(o.fval) << 16) | conv(ops[k + 1].fval)
            out.append(Operand(K_IMM, packed))
            k += 2
        else:
            out.append(o)
            k += 1
    r._after_halves = k
    return out


def _half_flags(r: Row) -> None:
    if "BF16_V2" in r.mods or "BF16" in r.mods:
        r.set(C_F1, 1)
    r.set(C_F2, int("FTZ" in r.mods))
    r.set(C_F3, int("F32" in r.mods))
    r.set(C_F4, int("SAT" in r.mods))
    if r.has("RELU", "MMA_BF16"):
        raise Unsupported("half form")


def d_h3(code: int, n_src: int):
    def dec(r: Row, unif: bool) -> None:
        # HADD2/HMUL2/HFMA2[.MMA][.BF16_V2][.F32] Rd, a, b[, c]: per-half arithmetic of packed pairs,
        # each half rounded once (PTX add/mul/fma.rn.f16x2, .bf16x2); .F32: one FP32 result from
        # the low halves (the compiler's half -> float conversion is HADD2.F32 Rd, -RZ, Ra.H0_H0)
        r.op(code)
        r.slot(0, r.ops[0])
        srcs = _half_operands(r, 1, n_src)
        for j, o in enumerate(srcs):
            r.slot(1 + j, o)
        _half_flags(r)
    return dec


def d_hmnmx2(r: Row, unif: bool) -> None:
    r.op(isa.E_HMNMX2)
    r.slot(0, r.ops[0])
    srcs = _half_operands(r, 1, 2)
    r.slot(1, srcs[0])
    r.slot(2, srcs[1])
    r.pred(3, r.ops[r._after_halves])
    _half_flags(r)


def d_hsetp2(r: Row, unif: bool) -> None:
    # HSETP2.cmp.bool Pd, Pq, a, b, Pc: the two halves' compares each give one predicate (.H_AND: both)
    r.op(isa.E_HSETP2)
    cmp_, boolop, _ = _cmp(r)
    r.pred(0, r.ops[0])
    r.pred(1, r.ops[1])
    srcs = _half_operands(r, 2, 2)
    r.slot(2, srcs[0])
    r.slot(3, srcs[1])
    r.pred(4, r.ops[r._after_halves])
    r.set(C_E0, cmp_)
    r.set(C_E0 + 1, boolop)
    r.set(C_E0 + 2, int("H_AND" in r.mods))
    _half_flags(r)


def d_dop(code: int, n_src: int):
    def dec(r: Row, unif: bool) -> None:
        # DADD/DMUL/DFMA Rd, a, b[, c]: FP64 on register pairs (PTX add/mul/fma.rn.f64)
        r.op(code)
        if r.has("RM", "RP", "RZ"):
            raise Unsupported("FP64 directed rounding")
        r.slot(0, r.ops[0])
        for j in range(n_src):
            r.slot(1 + j, r.ops[1 + j], imm="f64")
    return dec


def d_dsetp(r: Row, unif: bool) -> None:
    _n(r, 5)
    r.op(isa.E_DSETP)
    cmp_, boolop, _ = _cmp(r)
    r.pred(0, r.ops[0])
    r.pred(1, r.ops[1])
    r.slot(2, r.ops[2], imm="f64")
    r.slot(3, r.ops[3], imm="f64")
    r.pred(4, r.ops[4])
    r.set(C_F1, cmp_)
    r.set(C_F2, boolop)


def d_dmnmx(r: Row, unif: bool) -> None:
    _n(r, 4)
    r.op(isa.E_DMNMX)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1], imm="f64")
    r.slot(2, r.ops[2], imm="f64")
    r.pred(3, r.ops[3])


def d_s2r(r: Row, unif: bool) -> None:
    # S2R Rd, SR_x / S2UR URd, SR_x: read a special register (CBU)
    _n(r, 2)
    if r.ops[1].kind != K_SREG:
        raise Unsupported("special register")
    r.op(isa.E_S2R, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])


def d_cs2r(r: Row, unif: bool) -> None:
    # CS2R[.32] Rd, SR_x: a special register, 64-bit unless .32 (CS2R Rd, SRZ clears a pair)
    _n(r, 2)
    if r.ops[1].kind != K_SREG:
        raise Unsupported("special register")
    r.op(isa.E_CS2R, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.set(C_F1, 1 if "32" in r.mods else 2)


def d_shfl(r: Row, unif: bool) -> None:
    # SHFL.{IDX,UP,DOWN,BFLY} Pd, Rd, a, b, c: PTX shfl.sync's rule: c packs the clamp (bits 0-4)
    # and the segment mask (bits 8-12); a source lane outside the segment or the clamp gives the
    # lane its own value and Pd false (PTX ISA, shfl.sync)
    _n(r, 5)
    mode = next(({"IDX": isa.SHFL_IDX, "UP": isa.SHFL_UP, "DOWN": isa.SHFL_DOWN, "BFLY": isa.SHFL_BFLY}[m]
                 for m in r.ins.modifiers if m in ("IDX", "UP", "DOWN", "BFLY")), None)
    if mode is None:
        raise Unsupported("SHFL mode")
    r.op(isa.E_SHFL)
    r.pred(0, r.ops[0])
    for k in range(1, 5):
        r.slot(k, r.ops[k])
    r.set(C_F1, mode)


def d_vote(r: Row, unif: bool) -> None:
    # VOTE.{ALL,ANY,EQ} [Rd,] Pd, Ps: Rd = the ballot of Ps over the active lanes, Pd = all/any/all-equal
    # (CBU: vote across SIMD thread group; VOTEU writes a uniform register)
    mode = next(({"ALL": isa.VOTE_ALL, "ANY": isa.VOTE_ANY, "EQ": isa.VOTE_EQ}[m]
                 for m in r.ins.modifiers if m in ("ALL", "ANY", "EQ")), None)
    if mode is None:
        raise Unsupported("VOTE mode")
    r.op(isa.E_VOTE, unif)
    ops = r.ops
    if ops[0].kind in (K_R, K_UR):
        r.slot(0, ops[0])
        r.pred(1, ops[1])
        r.pred(2, ops[2])
    else:
        r.slot(0, Operand(K_UR if unif else K_R, URZ if unif else RZ))
        r.pred(1, ops[0])
        r.pred(2, ops[1])
    r.set(C_F1, mode)


def d_match(r: Row, unif: bool) -> None:
    # MATCH.ANY Rd, a: the lanes holding the same value; MATCH.ALL Pd, Rd, a: Rd = the active mask if
    # all equal, else 0 (PTX match.sync)
    r.op(isa.E_MATCH)
    if "U64" in r.mods or "64" in r.mods:
        raise Unsupported("MATCH.U64")
    if "ALL" in r.mods:
        r.set(C_F1, 1)
        r.pred(0, r.ops[0])
        r.slot(1, r.ops[1])
        r.slot(2, r.ops[2])
    elif "ANY" in r.mods:
        r.slot(0, Operand(K_PRED, PT))
        r.slot(1, r.ops[0])
        r.slot(2, r.ops[1])
    else:
        raise Unsupported("MATCH mode")


def d_redux(r: Row, unif: bool) -> None:
    # REDUX[.{SUM,MIN,MAX,OR,XOR}][.S32] URd, Ra: the reduction over the active lanes (PTX redux.sync).
    # CREDUX (sm_100 and newer) is what ptxas emits there instead for the same warp-aggregated atomics
    # (atomicMin/Max), with the same operands; tests/kernels/atomics.cu checks its results against numpy.
    # A plain REDUX is the AND (the operation nvdisasm leaves unprinted, as LOP's default: ptxas emits it
    # to combine a warp's atomicAnd operands, tests/kernels/atomics.cu, where the other five print theirs)
    _n(r, 2)
    names = {"SUM": isa.R_SUM, "MIN": isa.R_MIN, "MAX": isa.R_MAX, "AND": isa.R_AND, "OR": isa.R_OR,
             "XOR": isa.R_XOR}
    ops = [names[m] for m in r.ins.modifiers if m in names]
    if len(ops) > 1 or r.mods - set(names) - {"S32"}:
        raise Unsupported("REDUX operation")
    op = ops[0] if ops else isa.R_AND
    r.op(isa.E_REDUX)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.set(C_F1, op)
    r.set(C_F2, int("S32" in r.mods))


def d_r2ur(r: Row, unif: bool) -> None:
    # R2UR URd, Ra: a register's value (the same in every active lane) to a uniform register
    _n(r, 2)
    r.op(isa.E_R2UR)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    if "64" in r.mods:
        r.set(C_F1, 1)


def d_ldc(r: Row, unif: bool) -> None:
    # LDC[.64] Rd, c[bank][offset] / ULDC / LDCU: load from a constant bank (kernel parameters in bank 0).
    # LDCU (sm_100 and newer) is ULDC's successor: a constant into uniform registers (CBU, Blackwell:
    # "Load from Constant to Uniform Register"; ptxas emits it where sm_90 has ULDC)
    _n(r, 2)
    w, signed = _width(r)
    o = r.ops[1]
    if w == 16 and r.ins.opcode == "LDCU" and r.ops[0].kind == K_UR and o.kind == K_CBANK:
        # LDCU.128 URd, c[b][o]: four uniform registers from 16 bytes of the bank, read at run time (an
        # indexed read with no index: the linked immediates hold at most 64 bits)
        o = Operand(K_CIDX, o.val, o.mods, sel=256 + URZ, text=o.text)
    elif w > 8:
        raise Unsupported("LDC width")
    r.op(isa.E_LDC, unif or r.ins.opcode in ("ULDC", "LDCU"))
    r.slot(0, r.ops[0])
    if o.kind not in (K_CBANK, K_CIDX):
        raise Unsupported("LDC operand")
    if w == 8:
        o.mods |= MOD_64
    r.slot(1, o)
    r.set(C_WIDTH, w)
    r.set(C_MSIGN, signed)


def d_iabs(r: Row, unif: bool) -> None:
    _slots(r, isa.E_IABS, 2, unif)


def d_iscadd(r: Row, unif: bool) -> None:
    # ISCADD Rd, a, b, shift: (a << shift) + b (older form of LEA)
    _n(r, 4)
    r.op(isa.E_ISCADD, unif)
    r.slot(0, r.ops[0])
    r.slot(1, r.ops[1])
    r.slot(2, r.ops[2])
    r.set(C_E0, r.ops[3].val)


# control
def d_bra(r: Row, unif: bool) -> None:
    # BRA[.U] [Pc,] target: jump for the lanes whose guard (and uniform condition) holds; BRA.DIV mask:
    # jump when the active lanes are not all of `mask`'s live lanes (CBU: relative branch)
    r.op(isa.E_BRA)
    r.target()
    ops = [o for o in r.ops if o.kind != K_IMM]
    r.slot(0, Operand(K_PRED, PT))
    if "DIV" in r.mods:
        if not r.ops or r.ops[0].kind not in (K_R, K_UR, K_IMM):
            raise Unsupported("BRA.DIV operand")
        r.set(C_F1, 1)
        r.slot(1, r.ops[0])
        return
    if ops and ops[0].kind == K_PRED:
        r.slot(0, ops[0])
    elif ops:
        raise Unsupported("BRA operand")
    if r.has("CONV", "INC", "DEC"):
        raise Unsupported("BRA form")


def d_exit(r: Row, unif: bool) -> None:
    r.op(isa.E_EXIT)
    if r.ins.opcode == "EXIT" and r.ops:
        raise Unsupported("EXIT operands")


def d_bssy(r: Row, unif: bool) -> None:
    # BSSY Bx, target: Bx = the active lanes (they will reconverge at the BSYNC on Bx). CBU:
    # "barrier set convergence synchronization point"
    r.op(isa.E_BSSY)
    if not r.ops or r.ops[0].kind != K_BREG:
        raise Unsupported("BSSY operand")
    r.set(C_E0, r.ops[0].val)
    r.target()


def d_bsync(r: Row, unif: bool) -> None:
    # BSYNC Bx: wait until every non-exited lane of Bx is here, then go on together (CBU)
    r.op(isa.E_BSYNC)
    if not r.ops or r.ops[0].kind != K_BREG:
        raise Unsupported("BSYNC operand")
    r.set(C_E0, r.ops[0].val)


def d_break(r: Row, unif: bool) -> None:
    # BREAK Bx: the lanes leave Bx's set (a loop exit past its BSYNC) (CBU)
    r.op(isa.E_BREAK)
    if not r.ops or r.ops[0].kind != K_BREG:
        raise Unsupported("BREAK operand")
    r.set(C_E0, r.ops[0].val)


def d_warpsync(r: Row, unif: bool) -> None:
    # WARPSYNC mask / WARPSYNC.ALL: the lanes of mask converge here (PTX bar.warp.sync)
    r.op(isa.E_WARPSYNC)
    if "ALL" in r.mods or not r.ops:
        r.slot(0, Operand(K_IMM, 0xFFFFFFFF))
    else:
        r.slot(0, r.ops[0])
    if "EXCLUSIVE" in r.mods:
        raise Unsupported("WARPSYNC.EXCLUSIVE")


def d_bar(r: Row, unif: bool) -> None:
    # BAR.SYNC id[, count] / BAR.ARV id, count / BAR.RED.{POPC,AND,OR} id[, count], P: block barrier
    # (PTX bar.sync/bar.arrive/bar.red; count defaults to all threads of the block)
    mode = 0
    if "ARV" in r.mods:
        mode = 1
    elif "RED" in r.mods:
        mode = 2
    elif "SYNC" not in r.mods and "SYNCALL" not in r.mods:
        raise Unsupported("BAR form")
    r.op(isa.E_BAR)
    ops = r.ops
    preds = [o for o in ops if o.kind == K_PRED]
    vals = [o for o in ops if o.kind != K_PRED]
    if not vals and "SYNCALL" not in r.mods:
        raise Unsupported("BAR operands")
    r.slot(0, vals[0] if vals else Operand(K_IMM, 0))
    r.slot(1, vals[1] if len(vals) > 1 else Operand(K_IMM, 0))
    r.set(C_F1, mode)
    r.set(C_F2, int(len(vals) > 1))
    if mode == 2:
        red = next(({"POPC": isa.R_POPC, "AND": isa.R_AND, "OR": isa.R_OR}[m] for m in r.ins.modifiers
                    if m in ("POPC", "AND", "OR")), None)
        if red is None or not preds:
            raise Unsupported("BAR.RED form")
        r.set(C_F3, red)
        r.pred(2, preds[0])


def d_b2r(r: Row, unif: bool) -> None:
    # B2R.RESULT Rd: the result of the last BAR.RED (CBU: move barrier to register)
    if "RESULT" not in r.mods:
        raise Unsupported("B2R form")
    r.op(isa.E_B2R)
    r.slot(0, r.ops[0])


def d_call(r: Row, unif: bool) -> None:
    # CALL.REL.NOINC target: jump; the return address was put in a register before (ptxas' MOV Rn, pc)
    if "NOINC" not in r.mods:
        raise Unsupported("CALL with a return-address stack")
    r.op(isa.E_CALL)
    r.target()


def d_ret(r: Row, unif: bool) -> None:
    # RET.REL.NODEC Ra: jump to the function-relative address in Ra (per lane)
    if "NODEC" not in r.mods or not r.ops or r.ops[0].kind != K_R:
        raise Unsupported("RET form")
    r.op(isa.E_RET)
    r.slot(0, r.ops[0])


BRX_RE = re.compile(r"^(R\d+|RZ)\s*(?:([+-])\s*(0x[0-9a-fA-F]+))?$")


def d_brx(r: Row, unif: bool) -> None:
    # BRX Ra imm: jump, per lane, to the function offset (pc of the next instruction) + Ra + imm. ptxas
    # builds switch statements from it: Ra holds an entry of a jump table in a constant bank, the function
    # offset of a case, and imm is minus the next instruction's offset (BRX R4 -0x150 at 0x140, with
    # nvdisasm's BRANCH_TARGETS remark listing the cases; checked against .nv.constant2 in
    # tests/execute/test_semantics.py). CBU: "BRX: Relative Branch Indirect".
    if len(r.ins.operands) != 1 or r.mods:
        raise Unsupported("BRX form")
    m = BRX_RE.match(r.ins.operands[0].strip())
    if not m:
        raise Unsupported("BRX operand")
    r.op(isa.E_BRX)
    kind, idx = reg_index(m.group(1))
    r.slot(0, Operand(kind, idx))
    imm = int(m.group(3), 16) if m.group(3) else 0
    r.set(C_E0, -imm if m.group(2) == "-" else imm)


def d_bmov(r: Row, unif: bool) -> None:
    # BMOV.32[.CLEAR] Rd, Bx / BMOV.32 Bx, Ra: save and restore a convergence barrier's lane set
    if len(r.ops) != 2:
        raise Unsupported("BMOV operands")
    if r.ops[1].kind == K_BREG:
        r.op(isa.E_BMOV_R)
        r.slot(0, r.ops[0])
        r.set(C_E0, r.ops[1].val)
        r.set(C_F1, int("CLEAR" in r.mods))
    elif r.ops[0].kind == K_BREG:
        r.op(isa.E_BMOV_B)
        r.set(C_E0, r.ops[0].val)
        r.slot(1, r.ops[1])
    else:
        raise Unsupported("BMOV operands")


# memory
def d_load(code: int, klass: int):
    def dec(r: Row, unif: bool) -> None:
        # LDG/LD/LDS/LDL[.size] Rd, [address]: the size modifier gives the bytes per thread (.U8 .S8
        # .U16 .S16, 32 bits default, .64 and .128 into register pairs and quads)
        _n(r, 2)
        w, signed = _width(r)
        r.op(code)
        r.slot(0, r.ops[0])
        r.address(r.ops[1])
        r.set(C_WIDTH, w)
        r.set(C_MSIGN, signed)
        r.set(C_MCLASS, klass)
    return dec


def d_store(code: int, klass: int):
    def dec(r: Row, unif: bool) -> None:
        _n(r, 2)
        w, _ = _width(r)
        r.op(code)
        r.address(r.ops[0])
        r.slot(1, r.ops[1])
        r.set(C_WIDTH, w)
        r.set(C_MCLASS, klass)
    return dec


def _atomic_kind(r: Row) -> tuple[int, int, int]:
    """(operation, type, width) of an atomic from its modifiers (default: 32-bit unsigned integer)."""
    op = next((isa.ATOMIC_OPS[m] for m in r.ins.modifiers if m in isa.ATOMIC_OPS), None)
    if "POPC" in r.mods and "INC" in r.mods:
        op = isa.A_POPC_INC
    if "CAST" in r.mods:
        # ATOMS.CAST[.SPIN][.64] Rd, [a], b, c: compare and store: if [a] == b then [a] = c; Rd = 1 when it
        # stored, else 0 (a flag, not the old value: ptxas' shared-memory CAS loops test Rd == 1, and Rd:Rd+1
        # == 1 for .64, then retry; PTX atom.cas on shared memory). .SPIN is the loop hint.
        op = isa.A_CAST
    if op is None:
        raise Unsupported("atomic operation")
    t = isa.T_U32
    width = 4
    for m in r.ins.modifiers:
        if m == "S32":
            t = isa.T_S32
        elif m in ("F32", "FTZ") and t != isa.T_F64:
            t = isa.T_F32
        elif m == "F64":
            t, width = isa.T_F64, 8
        elif m in ("64", "U64"):
            t, width = isa.T_U64, 8
        elif m == "S64":
            t, width = isa.T_S64, 8
        elif m in ("F16x2", "BF16x2", "128", "F16", "BF16"):
            raise Unsupported(f"atomic .{m}")
    if t in (isa.T_F32, isa.T_F64) and op not in (isa.A_ADD, isa.A_EXCH, isa.A_CAS, isa.A_MIN, isa.A_MAX):
        raise Unsupported("floating-point atomic operation")
    return op, t, width


def d_atom(code: int, klass: int):
    def dec(r: Row, unif: bool) -> None:
        # ATOMG/ATOM [Pd,] Rd, [address], b[, c] (CAS: compare b, swap c); RED [address], b;
        # ATOMS Rd, [address], b[, c]. Lanes apply in lane order (any order is a legal outcome).
        op, t, width = _atomic_kind(r)
        ops = [o for o in r.ops if o.kind != K_PRED]
        if op == isa.A_CAST and r.ops and r.ops[0].kind == K_PRED:
            # sm_100 and newer: ATOMS.CAST.SPIN[.64] Pd, [a], b, c: the "stored" flag goes to a predicate
            if r.ops[0].mods:
                raise Unsupported("ATOMS.CAST predicate")
            r.set(C_F3, 1)
            r.set(C_E0, r.ops[0].val)
            ops = [Operand(K_R, RZ)] + ops
        r.op(code)
        if code == isa.E_RED:
            r.address(ops[0])
            r.slot(0, Operand(K_R, RZ))
            srcs = ops[1:]
        else:
            r.slot(0, ops[0])
            r.address(ops[1])
            srcs = ops[2:]
        if op == isa.A_POPC_INC:
            srcs = [Operand(K_IMM, 1)]
        if not srcs or (op == isa.A_CAS and len(srcs) < 2):
            raise Unsupported("atomic operands")
        r.slot(1, srcs[0])
        r.slot(2, srcs[1] if len(srcs) > 1 else Operand(K_IMM, 0))
        r.set(C_F1, op)
        r.set(C_F2, t)
        r.set(C_WIDTH, width)
        r.set(C_MCLASS, klass)
    return dec


def d_ldgsts(r: Row, unif: bool) -> None:
    # LDGSTS[.size] [shared address], [global address]: an asynchronous copy (cp.async), done at once here
    _n(r, 2)
    w, _ = _width(r)
    r.op(isa.E_LDGSTS)
    r.address(r.ops[1])  # the global source is the instruction's address
    sh = r.ops[0].address
    if sh is None:
        raise Unsupported("LDGSTS operands")
    reg, wide, ureg, imm, scale = sh
    if wide:
        raise Unsupported("LDGSTS shared address")
    r.set(C_E0, reg)
    r.set(C_E0 + 1, ureg)
    r.set(C_E0 + 2, imm)
    r.set(C_E0 + 3, scale)
    r.set(C_WIDTH, w)
    r.set(C_MCLASS, isa.M_GLOBAL_LOAD)
    if "ZFILL" in r.mods:
        raise Unsupported("LDGSTS.ZFILL")


NOPS = ("NOP", "YIELD", "NANOSLEEP", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "CCTLL", "CCTLT", "DEPBAR", "LDGDEPBAR",
        "PMTRIG", "CGAERRBAR", "ARRIVES")

DECODERS = {
    **{op: d_nop for op in NOPS},
    "MOV": d_mov, "MOV32I": d_mov, "UMOV": d_mov,
    "SEL": d_sel, "FSEL": d_sel, "USEL": d_sel,
    "IADD3": d_iadd3, "UIADD3": d_iadd3,
    "VIADD": d_iadd, "IADD32I": d_iadd, "IADD": d_iadd2,
    "IMAD": d_imad, "UIMAD": d_imad, "IMAD32I": d_imad,
    "IMUL": None, "LEA": d_lea, "ULEA": d_lea,
    "LOP3": d_lop3, "ULOP3": d_lop3, "LOP": d_lop, "LOP32I": d_lop, "ULOP": d_lop, "ULOP32I": d_lop,
    "SHF": d_shf, "USHF": d_shf, "SHL": d_shl_shr, "SHR": d_shl_shr, "USHL": d_shl_shr, "USHR": d_shl_shr,
    "IABS": d_iabs, "UIABS": d_iabs,
    "IMNMX": d_imnmx, "VIMNMX": d_imnmx, "UIMNMX": d_imnmx,
    "ISETP": d_isetp, "UISETP": d_isetp,
    "POPC": d_unary(isa.E_POPC), "UPOPC": d_unary(isa.E_POPC),
    "FLO": d_unary(isa.E_FLO), "UFLO": d_unary(isa.E_FLO),
    "BREV": d_unary(isa.E_BREV), "UBREV": d_unary(isa.E_BREV),
    "PRMT": d_prmt, "UPRMT": d_prmt, "BMSK": d_bmsk, "UBMSK": d_bmsk, "SGXT": d_sgxt, "USGXT": d_sgxt,
    "PLOP3": d_plop3, "UPLOP3": d_plop3, "P2R": d_p2r, "R2P": d_r2p, "ISCADD": d_iscadd,
    "FADD": d_fadd, "FADD32I": d_fadd, "FMUL": d_fadd, "FMUL32I": d_fadd, "FFMA": d_ffma, "FFMA32I": d_ffma,
    "FMNMX": d_fmnmx, "FSETP": d_fsetp, "FSET": d_fset, "MUFU": d_mufu, "FRND": d_frnd, "FCHK": d_fchk,
    "I2F": d_i2f, "I2FP": d_i2f, "F2I": d_f2i, "F2IP": None, "F2F": d_f2f, "F2FP": d_f2fp, "I2I": d_i2i,
    "HADD2": d_h3(isa.E_HADD2, 2), "HMUL2": d_h3(isa.E_HMUL2, 2), "HFMA2": d_h3(isa.E_HFMA2, 3),
    "HMNMX2": d_hmnmx2, "HSETP2": d_hsetp2,
    "DADD": d_dop(isa.E_DADD, 2), "DMUL": d_dop(isa.E_DMUL, 2), "DFMA": d_dop(isa.E_DFMA, 3),
    "DSETP": d_dsetp, "DMNMX": d_dmnmx,
    "S2R": d_s2r, "S2UR": d_s2r, "CS2R": d_cs2r, "CS2UR": d_cs2r,
    "SHFL": d_shfl, "VOTE": d_vote, "VOTEU": d_vote, "MATCH": d_match, "REDUX": d_redux, "CREDUX": d_redux,
    "R2UR": d_r2ur,
    "LDC": d_ldc, "ULDC": d_ldc, "LDCU": d_ldc, "BRX": d_brx, "VIMNMX3": d_imnmx3, "VIADDMNMX": d_imnmx3,
    "BRA": d_bra, "EXIT": d_exit, "KILL": d_exit, "BSSY": d_bssy, "BSYNC": d_bsync, "BREAK": d_break,
    "WARPSYNC": d_warpsync, "BAR": d_bar, "B2R": d_b2r, "CALL": d_call, "RET": d_ret, "BMOV": d_bmov,
    "LDG": d_load(isa.E_LDG, isa.M_GLOBAL_LOAD), "LD": d_load(isa.E_LD, isa.M_GLOBAL_LOAD),
    "LDS": d_load(isa.E_LDS, isa.M_SHARED_LOAD), "LDL": d_load(isa.E_LDL, isa.M_LOCAL_LOAD),
    "STG": d_store(isa.E_STG, isa.M_GLOBAL_STORE), "ST": d_store(isa.E_ST, isa.M_GLOBAL_STORE),
    "STS": d_store(isa.E_STS, isa.M_SHARED_STORE), "STL": d_store(isa.E_STL, isa.M_LOCAL_STORE),
    "ATOMG": d_atom(isa.E_ATOM, isa.M_GLOBAL_ATOMIC), "ATOM": d_atom(isa.E_ATOM, isa.M_GLOBAL_ATOMIC),
    "RED": d_atom(isa.E_RED, isa.M_GLOBAL_ATOMIC), "REDG": d_atom(isa.E_RED, isa.M_GLOBAL_ATOMIC),
    "ATOMS": d_atom(isa.E_ATOMS, isa.M_SHARED_ATOMIC), "LDGSTS": d_ldgsts,
}
UNIFORM_OPCODES = frozenset({"UMOV", "USEL", "UIADD3", "UIMAD", "ULEA", "ULOP3", "ULOP", "ULOP32I", "USHF", "USHL",
                             "USHR", "UIABS", "UIMNMX", "UISETP", "UPOPC", "UFLO", "UBREV", "UPRMT", "UBMSK",
                             "USGXT", "UPLOP3", "S2UR", "CS2UR", "VOTEU"})


def decode_instruction(ins: Instruction, index_of_pc) -> tuple[list[int], str | None]:
    """(row, None) or (an E_UNSUPPORTED row, the reason)."""
    dec = DECODERS.get(ins.opcode)
    try:
        if dec is None:
            raise Unsupported(f"the opcode {ins.opcode}")
        r = Row(ins, index_of_pc)
        dec(r, ins.opcode in UNIFORM_OPCODES)
        r.v[C_W64] = wide_slots(r.v)
        return r.v, None
    except Unsupported as exc:
        row = [0] * N_COLS
        row[C_OP] = isa.E_UNSUPPORTED
        row[C_TARGET] = -1
        row[C_MCLASS] = -1
        try:
            row[C_GUARD] = PT if ins.guard is None else pred_index(ins.guard)
            row[C_GNEG] = int(ins.guard_negated)
        except (ValueError, IndexError):
            row[C_GUARD] = PT
        reason = str(exc)
        if dec is not None and not reason.startswith("the opcode"):
            reason = f"{ins.mnemonic} ({reason})"
        return row, reason
    except (ValueError, IndexError, KeyError) as exc:
        row = [0] * N_COLS
        row[C_OP], row[C_TARGET], row[C_MCLASS], row[C_GUARD] = isa.E_UNSUPPORTED, -1, -1, PT
        return row, f"{ins.mnemonic} (operands not understood: {type(exc).__name__})"


def decode(instructions: list[Instruction]) -> DecodedKernel:
    """Decode a function's instructions (every one, subroutines after the last EXIT included)."""
    pcs = [ins.pc for ins in instructions]
    where = {pc: i for i, pc in enumerate(pcs)}
    rows, unsupported = [], {}
    for i, ins in enumerate(instructions):
        row, reason = decode_instruction(ins, where.get)
        rows.append(row)
        if reason:
            unsupported[i] = reason
    arr = np.array(rows, dtype=np.int64).reshape(len(rows), N_COLS)
    return DecodedKernel(rows=arr, pcs=np.array(pcs, dtype=np.int64), texts=tuple(ins.text for ins in instructions),
                         unsupported=unsupported)


def link(decoded: DecodedKernel, banks: dict[int, bytes]) -> np.ndarray:
    """The rows with every constant-bank operand replaced by its value (an immediate).

    ``banks``: bank number -> bytes (bank 0: the launch's block and grid sizes and the kernel
    parameters at their offsets; others from the cubin's ``.nv.constantN`` sections). An offset
    past a bank's end reads 0. Indexed operands (``c[0x0][R2+0x10]``) stay: the interpreter
    reads bank 0 at run time.
    """
    rows = decoded.rows.copy()
    for k in range(isa.N_OPND):
        kc = C_OPND + 4 * k
        sel = np.nonzero(rows[:, kc] == K_CBANK)[0]
        for i in sel:
            packed = int(rows[i, kc + 1])
            bank, off = packed >> 32, packed & 0xFFFFFFFF
            wide = bool(rows[i, kc + 2] & MOD_64) or bool((rows[i, C_W64] >> k) & 1)
            data = banks.get(bank, b"")
            raw = data[off:off + (8 if wide else 4)]
            raw = raw + b"\0" * ((8 if wide else 4) - len(raw))
            value = int.from_bytes(raw, "little")
            if value >= 1 << 63:
                value -= 1 << 64
            rows[i, kc] = K_IMM
            rows[i, kc + 1] = value
    return rows


def wide_slots(row) -> int:
    """Bit k set: operand slot k of this row is read as 64 bits (FP64 sources, IMAD.WIDE's addend,
    MOV/SEL.64, 64-bit conversions' sources, LDC.64, 64-bit atomics' data)."""
    op, f1, f2 = int(row[C_OP]), int(row[C_F1]), int(row[C_F2])
    if op in (isa.E_DADD, isa.E_DMUL, isa.E_DFMA):
        return 0b1110
    if op == isa.E_DSETP or (op == isa.E_ISETP and int(row[C_F3]) >= 2):  # ISETP.U64/.S64 too
        return 0b1100
    if op == isa.E_DMNMX:
        return 0b0110
    if op in (isa.E_MOV, isa.E_SEL, isa.E_IADD) and f1 == 1:
        return 0b0110
    if op == isa.E_IMAD and f1 in (1, 2):  # .HI and .WIDE add a 64-bit C
        return 0b1000
    if op == isa.E_I2F and f1 in (isa.T_U64, isa.T_S64):
        return 0b0010
    if op in (isa.E_F2I, isa.E_F2F) and f2 == isa.T_F64:
        return 0b0010
    if op == isa.E_R2UR and f1 == 1:
        return 0b0010
    if op == isa.E_LDC and int(row[C_WIDTH]) == 8:
        return 0b0010
    if op in (isa.E_ATOM, isa.E_RED, isa.E_ATOMS) and int(row[C_WIDTH]) == 8:
        return 0b0110
    return 0
