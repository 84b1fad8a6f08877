"""The interpreter's packed FP16 / BF16 pairs (HADD2, HMUL2, HFMA2, HMNMX2, HSETP2).

As every ALU class (``ops_int``'s docstring). Each register holds two halves, each operand's
selector picks which (or an FP32 value in both); each half is computed exactly and rounded once.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.fpmath import RN, as_f32, half_bits, half_value, saturate, to_f32, two_sum
from explorer.sass.execute.isa import (
    C_E0, C_OPND, E_HADD2, E_HFMA2, E_HMNMX2, E_HMUL2, E_HSETP2, MOD_ABS, MOD_NEG, SEL_H0_H0, SEL_H0_H1, SEL_H1_H1,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _bits_f32, _bool, _fcmp, fields
from explorer.sass.execute.ops_float import _fminmax
from explorer.sass.execute.records import SC_P0, SC_P1, SC_PRED, SC_RAW, SC_RES

# what this class executes (interp.OP_CLASS)
OPS = (
    E_HSETP2, E_HADD2, E_HMUL2, E_HFMA2, E_HMNMX2,
)


@njit
def half_op(code, i, op, E, sc):
    """A packed-half instruction for the lanes in E: both halves' bits into SC_RES (.F32: one FP32 result), HSETP2's
    predicates into SC_P0 and SC_P1. Returns what to write (as ``ops_int.int_op``)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_HSETP2:
        bf = f1 == 1
        for lane in range(32):
            if (E >> lane) & 1:
                a0, a1 = _slot_halves(code, i, 2, sc, lane, m2, bf)
                b0, b1 = _slot_halves(code, i, 3, sc, lane, m3, bf)
                r0 = _fcmp(a0, b0, code[i, C_E0])
                r1 = _fcmp(a1, b1, code[i, C_E0])
                c = sc[SC_PRED + 4, lane] != 0
                bop = code[i, C_E0 + 1]
                if code[i, C_E0 + 2] == 1:
                    both = r0 and r1
                    sc[SC_P0, lane] = 1 if _bool(both, c, bop) else 0
                    sc[SC_P1, lane] = 1 if _bool(not both, c, bop) else 0
                else:
                    sc[SC_P0, lane] = 1 if _bool(r0, c, bop) else 0
                    sc[SC_P1, lane] = 1 if _bool(r1, c, bop) else 0
        preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_HADD2 or op == E_HMUL2 or op == E_HFMA2 or op == E_HMNMX2:
        bf = f1 == 1
        ftz = f2 == 1
        for lane in range(32):
            if (E >> lane) & 1:
                a0, a1 = _slot_halves(code, i, 1, sc, lane, m1, bf)
                b0, b1 = _slot_halves(code, i, 2, sc, lane, m2, bf)
                c0, c1 = 0.0, 0.0
                if op == E_HFMA2:
                    c0, c1 = _slot_halves(code, i, 3, sc, lane, m3, bf)
                take_min = op == E_HMNMX2 and sc[SC_PRED + 3, lane] != 0
                lo_bits = _half_op(op, a0, b0, c0, take_min, f3 == 1, f4 == 1, ftz, bf)
                if f3 == 1:
                    sc[SC_RES, lane] = lo_bits
                else:
                    sc[SC_RES, lane] = lo_bits | (_half_op(op, a1, b1, c1, take_min, False, f4 == 1, ftz, bf) << 16)
    return dst, out, wide, preds, pk0, pk1



@njit
def _half_sel(x, sel):
    """The (low, high) halves of a packed pair after an operand's selector."""
    lo = x & 0xFFFF
    hi = (x >> 16) & 0xFFFF
    if sel == SEL_H0_H0:
        return lo, lo
    if sel == SEL_H1_H1:
        return hi, hi
    if sel == SEL_H0_H1:
        return hi, lo
    return lo, hi


@njit
def _halves(x, sel, m, bf):
    """The two half-precision values (low, high) of a packed operand, selector and modifiers applied."""
    h0, h1 = _half_sel(x, sel)
    if sel == 5:  # .F32: an FP32 operand, the same value in both halves
        v0 = np.float64(as_f32(x))
        v1 = v0
    else:
        v0 = half_value(h0, bf)
        v1 = half_value(h1, bf)
    if m & MOD_ABS:
        v0, v1 = abs(v0), abs(v1)
    if m & MOD_NEG:
        v0, v1 = -v0, -v1
    return v0, v1


@njit
def _half_op(op, a, b, c, take_min, to_f32_, sat, ftz, bf):
    """One half of HADD2/HMUL2/HFMA2/HMNMX2, rounded once to FP16/BF16 (or FP32 for .F32)."""
    if op == E_HADD2:
        s, e = two_sum(a, b)
    elif op == E_HMUL2:
        s, e = a * b, 0.0
    elif op == E_HFMA2:
        s, e = two_sum(a * b, c)
    else:
        s, e = _fminmax(a, b, take_min), 0.0
    if to_f32_:
        r = to_f32(s, e, RN, ftz)
        if sat:
            r = saturate(r)
        return _bits_f32(r)
    if sat:
        s, e = saturate(s), 0.0
    return half_bits(s, e, RN, ftz, bf)


@njit(inline=True)
def _slot_halves(code, i, k, sc, lane, m, bf):
    """Operand slot k's two half-precision values of one lane (its selector and modifiers m applied)."""
    return _halves(sc[SC_RAW + k, lane], code[i, C_OPND + 4 * k + 3], m, bf)
