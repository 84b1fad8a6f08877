"""Operands and results of one instruction for a whole warp, and the small integer helpers every opcode class uses.

An instruction gathers its operands for every lane into the scratch rows (``records.SC_*``) once,
computes from them, and scatters its results once (why: ``records``). The helpers that take
registers one lane at a time (``_raw``, ``penc``) serve the control and memory instructions and
the carry-ins.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.fpmath import as_f32, as_f64, bits32
from explorer.sass.execute.isa import (
    CMP_EQ, CMP_F, CMP_GE, CMP_GT, CMP_LE, CMP_LT, CMP_LTU, CMP_NAN, CMP_NE, CMP_NUM, CMP_T, C_F1, C_F2, C_F3, C_F4,
    C_OPND, C_W64, K_IMM, K_PRED, K_R, K_UR, MOD_ABS, MOD_NEG, MOD_NOT, RZ, URZ, X_ADDR, X_BLOCK, X_CODE, X_LANE, X_ROW,
    X_SIZE, X_STORE, X_WARP,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.records import M32, SC_P0, SC_P1, SC_PRED, SC_RAW, SC_RAW64


@njit
def _raw(code, i, k, w, lane, R, UR):
    """Operand k's 32 bits (no modifiers)."""
    b = C_OPND + 4 * k
    kind = code[i, b]
    v = code[i, b + 1]
    if kind == K_R:
        return np.int64(R[w, v, lane])
    if kind == K_UR:
        return np.int64(UR[w, v])
    if kind == K_IMM:
        return v & M32
    return np.int64(0)


@njit
def _sext32(x):
    x = x & M32
    return x - 0x100000000 if x >= 0x80000000 else x


@njit
def _bits_f32(x):
    if x != x:
        return np.int64(0x7FFFFFFF)  # the GPU's canonical NaN
    return bits32(np.float32(x))


@njit
def _bool(a, b, op):
    if op == 0:
        return a and b
    if op == 1:
        return a or b
    return a != b


@njit
def _icmp(a, b, c):
    if c == CMP_LT:
        return a < b
    if c == CMP_EQ:
        return a == b
    if c == CMP_LE:
        return a <= b
    if c == CMP_GT:
        return a > b
    if c == CMP_NE:
        return a != b
    if c == CMP_GE:
        return a >= b
    if c == CMP_T:
        return True
    return False


@njit
def _fcmp(a, b, c):
    """PTX setp's float compares: ordered ones are false with a NaN, the U ones true."""
    nan = a != a or b != b
    if c == CMP_NUM:
        return not nan
    if c == CMP_NAN:
        return nan
    if c == CMP_T:
        return True
    if c == CMP_F:
        return False
    if c >= CMP_LTU:
        if nan:
            return True
        c = c - 8
    elif nan:
        return False
    return _icmp(a, b, c)


@njit
def _popc(x):
    x = x & M32
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit
def _first_lane(mask):
    for lane in range(32):
        if (mask >> lane) & 1:
            return lane
    return -1


@njit
def penc(enc, w, lane, P, UP):
    """A predicate written as index | 16 (negated), e.g. a carry-in of IADD3.X."""
    idx = enc & 15
    if idx == 7 or idx == 15:
        v = True
    elif idx >= 8:
        v = UP[w, idx - 8] != 0
    else:
        v = P[w, idx, lane] != 0
    if enc & 16:
        return not v
    return v


@njit
def imod(x, m):
    """32-bit integer operand with |.|, - and ~ applied."""
    if m & MOD_ABS:
        x = abs(_sext32(x)) & M32
    if m & MOD_NEG:
        x = (-x) & M32
    if m & MOD_NOT:
        x = (~x) & M32
    return x


@njit
def _int(code, i, k, w, lane, R, UR):
    """Operand k of one lane as a 32-bit integer, modifiers applied (control instructions' operands)."""
    return imod(_raw(code, i, k, w, lane, R, UR), code[i, C_OPND + 4 * k + 2])


@njit
def _pslot(code, i, k, w, lane, P, UP):
    """The predicate in slot k for one lane, ! applied."""
    b = C_OPND + 4 * k
    return penc(code[i, b + 1] | (16 if code[i, b + 2] & MOD_NOT else 0), w, lane, P, UP)


@njit
def fmod32(x, m):
    """FP32 operand bits -> value (a double), |.| and - applied."""
    if m & MOD_ABS:
        x = x & 0x7FFFFFFF
    if m & MOD_NEG:
        x = x ^ 0x80000000
    return np.float64(as_f32(x))


@njit
def fmod64(x, m):
    if m & MOD_ABS:
        x = x & 0x7FFFFFFFFFFFFFFF
    if m & MOD_NEG:
        x = x ^ np.int64(-9223372036854775808)
    return as_f64(x)


@njit(inline=True)
def fields(code, i):
    """The row's flags F1..F4 and the modifiers of operand slots 1..4 (f1, f2, f3, f4, m1, m2, m3, m4)."""
    return (code[i, C_F1], code[i, C_F2], code[i, C_F3], code[i, C_F4], code[i, C_OPND + 4 + 2],
            code[i, C_OPND + 8 + 2], code[i, C_OPND + 12 + 2], code[i, C_OPND + 16 + 2])


# -- a whole warp at once ----------------------------------------------------------------------------------
@njit
def gather(code, i, w, G, regs, sc):
    """Operand slots' values for the lanes in G: raw 32 bits (rows 0-5), 64 bits where the row's
    C_W64 mask asks (rows 6-11), predicates with ! applied (rows 12-17)."""
    R, P, UR, UP = regs.R, regs.P, regs.UR, regs.UP
    w64 = code[i, C_W64]
    for k in range(6):
        b = C_OPND + 4 * k
        kind = code[i, b]
        if kind == 0:
            continue
        v = code[i, b + 1]
        wide = (w64 >> k) & 1
        if kind == K_R:
            if v == RZ:
                for lane in range(32):
                    sc[SC_RAW + k, lane] = 0
                    sc[SC_RAW64 + k, lane] = 0
            else:
                for lane in range(32):
                    if (G >> lane) & 1:
                        lo = np.int64(R[w, v, lane])
                        sc[SC_RAW + k, lane] = lo
                        if wide:
                            sc[SC_RAW64 + k, lane] = lo | (np.int64(R[w, v + 1, lane]) << 32)
        elif kind == K_UR:
            lo = np.int64(0) if v == URZ else np.int64(UR[w, v])
            hi = np.int64(0) if v == URZ else np.int64(UR[w, v + 1]) if v < 63 else np.int64(0)
            for lane in range(32):
                sc[SC_RAW + k, lane] = lo
                sc[SC_RAW64 + k, lane] = lo | (hi << 32)
        elif kind == K_IMM:
            for lane in range(32):
                sc[SC_RAW + k, lane] = v & M32
                sc[SC_RAW64 + k, lane] = v
        elif kind == K_PRED:
            neg = (code[i, b + 2] & MOD_NOT) != 0
            if v == 7 or v == 15:
                for lane in range(32):
                    sc[SC_PRED + k, lane] = 0 if neg else 1
            elif v >= 8:
                x = UP[w, v - 8] != 0
                for lane in range(32):
                    sc[SC_PRED + k, lane] = 1 if x != neg else 0
            else:
                for lane in range(32):
                    x = P[w, v, lane] != 0
                    sc[SC_PRED + k, lane] = 1 if x != neg else 0


@njit
def scatter(code, i, k, w, E, regs, sc, row, wide):
    """Write sc[row] (32 bits, or 64 bits to a pair when ``wide``) to slot k for the lanes in E."""
    R, UR = regs.R, regs.UR
    b = C_OPND + 4 * k
    kind = code[i, b]
    v = code[i, b + 1]
    if kind == K_R:
        if v == RZ:
            return
        for lane in range(32):
            if (E >> lane) & 1:
                x = sc[row, lane]
                R[w, v, lane] = x & M32
                if wide:
                    R[w, v + 1, lane] = (x >> 32) & M32
    elif kind == K_UR:
        if v == URZ:
            return
        lane = _first_lane(E)
        if lane >= 0:
            x = sc[row, lane]
            UR[w, v] = x & M32
            if wide:
                UR[w, v + 1] = (x >> 32) & M32


@njit
def scatter_pred(code, i, k, w, E, regs, sc, row):
    """Write sc[row] (0 or 1) to the predicate in slot k for the lanes in E (a uniform one from E's first lane)."""
    P, UP = regs.P, regs.UP
    b = C_OPND + 4 * k
    if code[i, b] != K_PRED:
        return
    idx = code[i, b + 1]
    if idx == 7 or idx == 15:
        return
    if idx >= 8:
        lane = _first_lane(E)
        if lane >= 0:
            UP[w, idx - 8] = 1 if sc[row, lane] else 0
        return
    for lane in range(32):
        if (E >> lane) & 1:
            P[w, idx, lane] = 1 if sc[row, lane] else 0


@njit(inline=True)
def write_results(code, i, w, E, regs, sc, dst, out, wide, preds, pk0, pk1):
    """An ALU instruction's results for the lanes in E: sc[out] to operand slot ``dst`` (none: -1; 64 bits to a
    pair when ``wide``), and ``preds`` result predicates: sc[SC_P0] to slot pk0, then sc[SC_P1] to slot pk1."""
    if dst >= 0:
        scatter(code, i, dst, w, E, regs, sc, out, wide)
    if preds >= 1:
        scatter_pred(code, i, pk0, w, E, regs, sc, SC_P0)
    if preds >= 2:
        scatter_pred(code, i, pk1, w, E, regs, sc, SC_P1)


# -- the error record ---------------------------------------------------------------------------------------
@njit
def _fail(err, code_, i, blk, w, lane, addr, size, store):
    err[X_CODE] = code_
    err[X_ROW] = i
    err[X_BLOCK] = blk
    err[X_WARP] = w
    err[X_LANE] = lane
    err[X_ADDR] = addr
    err[X_SIZE] = size
    err[X_STORE] = store
    return code_
