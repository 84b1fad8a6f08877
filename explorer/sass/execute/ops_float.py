"""The interpreter's FP32 and FP64 arithmetic, compares and the multi-function unit (FADD, FFMA, FSETP,
MUFU, DADD, DFMA, DSETP, ...).

As every ALU class (``ops_int``'s docstring). A single rounding per operation, the GPU's
(``fpmath``: FP32 from an exact double-double, FMA fused), subnormals flushed where .FTZ says, NaN
results the GPU's canonical one.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.sass.execute.fpmath import RN, bits64, f32_add, f32_fma, f32_mul, flush32, fma64, mufu, mufu64h, saturate
from explorer.sass.execute.isa import (
    C_OPND, E_DADD, E_DFMA, E_DMNMX, E_DMUL, E_DSETP, E_FADD, E_FCHK, E_FFMA, E_FMNMX, E_FMUL, E_FRND, E_FSET, E_FSETP,
    E_MUFU,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _bits_f32, _bool, _fcmp, fields, fmod32, fmod64, imod
from explorer.sass.execute.records import M32, SC_P0, SC_P1, SC_PRED, SC_RAW, SC_RAW64, SC_RES, SC_RES64

# what this class executes (interp.OP_CLASS)
OPS = (
    E_FADD, E_FMUL, E_FFMA, E_FMNMX, E_FSETP, E_FSET, E_MUFU, E_FRND, E_FCHK, E_DADD, E_DMUL, E_DFMA, E_DSETP, E_DMNMX,
)


@njit
def float_op(code, i, op, E, sc):
    """An FP32 or FP64 instruction for the lanes in E: FP32 bits into SC_RES, FP64 into SC_RES64, a compare's two
    predicates into SC_P0 and SC_P1 (FSET also its register). Returns what to write (as ``ops_int.int_op``)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_FADD or op == E_FMUL or op == E_FFMA:
        ftz = f2 == 1
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + 1, lane], m1)
                b = fmod32(sc[SC_RAW + 2, lane], m2)
                if op == E_FADD:
                    r = f32_add(a, b, f1, ftz)
                elif op == E_FMUL:
                    r = f32_mul(a, b, f1, ftz)
                else:
                    r = f32_fma(a, b, fmod32(sc[SC_RAW + 3, lane], m3), f1, ftz)
                if f3 == 1:
                    r = saturate(r)
                sc[SC_RES, lane] = _bits_f32(r)
    elif op == E_FMNMX:
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + 1, lane], m1)
                b = fmod32(sc[SC_RAW + 2, lane], m2)
                if f2 == 1:
                    a, b = flush32(a), flush32(b)
                sc[SC_RES, lane] = _bits_f32(_fminmax(a, b, sc[SC_PRED + 3, lane] != 0))
    elif op == E_FSETP or op == E_FSET:  # FSETP Pd, Pq, a, b, Pc / FSET Rd, a, b, Pc
        ka = 2 if op == E_FSETP else 1
        ma = code[i, C_OPND + 4 * ka + 2]
        mb = code[i, C_OPND + 4 * ka + 6]
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + ka, lane], ma)
                b = fmod32(sc[SC_RAW + ka + 1, lane], mb)
                if f3 == 1:
                    a, b = flush32(a), flush32(b)
                p, q = _float_cmp_set(a, b, f1, f2, sc[SC_PRED + ka + 2, lane] != 0)
                sc[SC_P0, lane] = 1 if p else 0
                sc[SC_P1, lane] = 1 if q else 0
                sc[SC_RES, lane] = (0x3F800000 if f4 == 1 else M32) if p else 0
        if op == E_FSETP:
            preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_MUFU:
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 >= 8:
                    sc[SC_RES, lane] = mufu64h(f1, imod(sc[SC_RAW + 1, lane], m1))
                else:
                    sc[SC_RES, lane] = _bits_f32(mufu(f1, fmod32(sc[SC_RAW + 1, lane], m1)))
    elif op == E_FRND:
        for lane in range(32):
            if (E >> lane) & 1:
                x = fmod32(sc[SC_RAW + 1, lane], m1)
                if f2 == 1:
                    x = flush32(x)
                sc[SC_RES, lane] = _bits_f32(_frnd(x, f1))
    elif op == E_FCHK:
        for lane in range(32):
            ea = (sc[SC_RAW + 1, lane] >> 23) & 0xFF
            eb = (sc[SC_RAW + 2, lane] >> 23) & 0xFF
            bad = ea == 0 or ea == 0xFF or eb == 0 or eb == 0xFF or eb >= 253 or ea >= 253 or \
                ea - eb >= 125 or eb - ea >= 125 or ea <= 24
            sc[SC_P0, lane] = 1 if bad else 0
        preds, pk0, dst = 1, 0, -1
    elif op == E_DADD or op == E_DMUL or op == E_DFMA:
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod64(sc[SC_RAW64 + 1, lane], m1)
                b = fmod64(sc[SC_RAW64 + 2, lane], m2)
                if op == E_DADD:
                    r = a + b
                elif op == E_DMUL:
                    r = a * b
                else:
                    r = fma64(a, b, fmod64(sc[SC_RAW64 + 3, lane], m3))
                sc[SC_RES64, lane] = np.int64(0x7FFFFFFFFFFFFFFF) if r != r else bits64(r)
        out, wide = SC_RES64, True
    elif op == E_DSETP:
        for lane in range(32):
            if (E >> lane) & 1:
                p, q = _float_cmp_set(fmod64(sc[SC_RAW64 + 2, lane], m2), fmod64(sc[SC_RAW64 + 3, lane], m3), f1,
                                      f2, sc[SC_PRED + 4, lane] != 0)
                sc[SC_P0, lane] = 1 if p else 0
                sc[SC_P1, lane] = 1 if q else 0
        preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_DMNMX:
        for lane in range(32):
            if (E >> lane) & 1:
                r = _fminmax(fmod64(sc[SC_RAW64 + 1, lane], m1), fmod64(sc[SC_RAW64 + 2, lane], m2),
                             sc[SC_PRED + 3, lane] != 0)
                sc[SC_RES64, lane] = bits64(r)
        out, wide = SC_RES64, True
    return dst, out, wide, preds, pk0, pk1



@njit
def _fminmax(a, b, take_min):
    """min/max with IEEE 754-2019 minNum/maxNum NaN rules (a NaN gives the other), -0 < +0."""
    if a != a:
        return b
    if b != b:
        return a
    if a == b:
        sa = math.copysign(1.0, a) < 0
        if take_min:
            return a if sa else b
        return b if sa else a
    if take_min:
        return a if a < b else b
    return a if a > b else b


@njit
def _frnd(x, mode):
    if not math.isfinite(x):
        return x
    if mode == RN:
        return np.rint(x)
    if mode == 1:
        return math.floor(x)
    if mode == 2:
        return math.ceil(x)
    return math.copysign(float(math.trunc(x)), x)


@njit
def _float_cmp_set(a, b, c, boolop, cin):
    r = _fcmp(a, b, c)
    return _bool(r, cin, boolop), _bool(not r, cin, boolop)
