"""The interpreter's moves, selects and conversions (MOV, SEL, R2UR, I2F, F2I, F2F, F2FP, I2I).

As every ALU class (``ops_int``'s docstring). Conversions round and saturate as PTX's cvt does
(``fpmath``): a float's source type and a sub-word selector (.H1, .B1) pick what is read.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.fpmath import (
    RN, bits64, float_to_int, float_to_u64, flush32, half_bits, half_value, int_to_float, to_f32,
)
from explorer.sass.execute.isa import (
    C_OPND, E_F2F, E_F2FP, E_F2I, E_I2F, E_I2I, E_MOV, E_R2UR, E_SEL, MOD_ABS, MOD_NEG, SEL_B0, SEL_B3, SEL_H0, SEL_H1,
    SEL_H1_H1, T_BF16, T_F16, T_F32, T_F64, T_S16, T_S32, T_S64, T_S8, T_U16, T_U32, T_U64, T_U8,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _bits_f32, _sext32, fields, fmod32, fmod64, imod
from explorer.sass.execute.records import M32, SC_PRED, SC_RAW, SC_RAW64, SC_RES, SC_RES64

# what this class executes (interp.OP_CLASS)
OPS = (
    E_MOV, E_SEL, E_R2UR, E_I2F, E_F2I, E_F2F, E_F2FP, E_I2I,
)


@njit
def convert_op(code, i, op, E, sc):
    """A move or conversion for the lanes in E: the value into SC_RES, or SC_RES64 where it may be 64 bits wide
    (a 64-bit source or result). Returns what to write (as ``ops_int.int_op``)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_MOV:
        if f1 == 1:
            for lane in range(32):
                sc[SC_RES64, lane] = sc[SC_RAW64 + 1, lane]
            out, wide = SC_RES64, True
        else:
            for lane in range(32):
                sc[SC_RES, lane] = imod(sc[SC_RAW + 1, lane], m1)
    elif op == E_SEL:
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 == 1:
                    sc[SC_RES64, lane] = sc[SC_RAW64 + 1, lane] if sc[SC_PRED + 3, lane] else sc[SC_RAW64 + 2, lane]
                elif sc[SC_PRED + 3, lane]:
                    sc[SC_RES, lane] = imod(sc[SC_RAW + 1, lane], m1)
                else:
                    sc[SC_RES, lane] = imod(sc[SC_RAW + 2, lane], m2)
        if f1 == 1:
            out, wide = SC_RES64, True
    elif op == E_R2UR:
        for lane in range(32):
            sc[SC_RES64, lane] = sc[SC_RAW64 + 1, lane] if f1 == 1 else sc[SC_RAW + 1, lane]
        out = SC_RES64
        wide = f1 == 1
    elif op == E_I2F:
        sel = code[i, C_OPND + 4 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 == T_U64 or f1 == T_S64:
                    v = sc[SC_RAW64 + 1, lane]
                    uns = f1 == T_U64
                else:
                    x = sc[SC_RAW + 1, lane]
                    signed = f1 == T_S32 or f1 == T_S16 or f1 == T_S8
                    if sel != 0:
                        x = _sub_int(x, sel, signed)
                    v = _int_of_type(x, f1)
                    if m1 & MOD_NEG:
                        v = -v
                    if m1 & MOD_ABS:
                        v = abs(v)
                    uns = False
                if f2 == T_F64:
                    sc[SC_RES64, lane] = bits64(int_to_float(v, uns, 1, f3))
                elif f2 == T_F16:
                    sc[SC_RES, lane] = half_bits(int_to_float(v, uns, 2, f3), 0.0, RN, False, False)
                else:
                    sc[SC_RES, lane] = _bits_f32(int_to_float(v, uns, 0, f3))
        if f2 == T_F64:
            out, wide = SC_RES64, True
    elif op == E_F2I:
        lo, hi = _type_range(f1)
        sel = code[i, C_OPND + 4 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                x = _float_source(sc, lane, m1, sel, f2, f4)
                if f1 == T_U64:
                    sc[SC_RES64, lane] = float_to_u64(x, f3)
                else:
                    sc[SC_RES64, lane] = float_to_int(x, f3, lo, hi)
        out = SC_RES64
        wide = f1 == T_U64 or f1 == T_S64
    elif op == E_F2F:
        sel = code[i, C_OPND + 4 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                x = _float_source(sc, lane, m1, sel, f2, f4)
                if f1 == T_F64:
                    sc[SC_RES64, lane] = bits64(x)
                elif f1 == T_F32:
                    sc[SC_RES64, lane] = _bits_f32(to_f32(x, 0.0, f3, f4 == 1))
                else:
                    sc[SC_RES64, lane] = half_bits(x, 0.0, f3, f4 == 1, f1 == T_BF16)
        out = SC_RES64
        wide = f1 == T_F64
    elif op == E_F2FP:
        bf = f1 == T_BF16
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + 1, lane], m1)
                b = fmod32(sc[SC_RAW + 2, lane], m2)
                sc[SC_RES, lane] = (half_bits(a, 0.0, f3, False, bf) << 16) | half_bits(b, 0.0, f3, False, bf)
    elif op == E_I2I:
        lo, hi = _type_range(f1)
        for lane in range(32):
            x = _int_of_type(sc[SC_RAW + 1, lane], f2)
            if f3 == 1:
                x = lo if x < lo else (hi if x > hi else x)
            sc[SC_RES, lane] = x & M32
    return dst, out, wide, preds, pk0, pk1



@njit
def _sub_int(x, sel, signed):
    """A register's byte or half selected by .B0..B3 / .H0 .H1 (conversions)."""
    if sel >= SEL_B0 and sel <= SEL_B3:
        v = (x >> (8 * (sel - SEL_B0))) & 0xFF
        return v - 256 if (signed and v >= 128) else v
    if sel == SEL_H0 or sel == SEL_H1:
        v = (x >> (16 * (sel - SEL_H0))) & 0xFFFF
        return v - 65536 if (signed and v >= 32768) else v
    return x


@njit
def _type_range(t):
    if t == T_U8:
        return np.int64(0), np.int64(255)
    if t == T_S8:
        return np.int64(-128), np.int64(127)
    if t == T_U16:
        return np.int64(0), np.int64(65535)
    if t == T_S16:
        return np.int64(-32768), np.int64(32767)
    if t == T_U32:
        return np.int64(0), np.int64(M32)
    if t == T_S32:
        return np.int64(-2147483648), np.int64(2147483647)
    return np.int64(-9223372036854775808), np.int64(9223372036854775807)


@njit
def _int_of_type(x, t):
    """An integer source value read as type t (sign-extended for signed types)."""
    if t == T_U8:
        return x & 0xFF
    if t == T_S8:
        v = x & 0xFF
        return v - 256 if v >= 128 else v
    if t == T_U16:
        return x & 0xFFFF
    if t == T_S16:
        v = x & 0xFFFF
        return v - 65536 if v >= 32768 else v
    if t == T_U32:
        return x & M32
    if t == T_S32:
        return _sext32(x)
    return x


@njit
def float_of(x, x64, m, sel, t):
    """A conversion's floating-point source of type t (F16/BF16 from the low half unless .H1)."""
    if t == T_F64:
        return fmod64(x64, m)
    if t == T_F32:
        return fmod32(x, m)
    if sel == SEL_H1 or sel == SEL_H1_H1:
        x = x >> 16
    v = half_value(x & 0xFFFF, t == T_BF16)
    if m & MOD_ABS:
        v = abs(v)
    if m & MOD_NEG:
        v = -v
    return v


@njit(inline=True)
def _float_source(sc, lane, m1, sel, f2, f4):
    """F2I's and F2F's source (slot 1) of one lane: of type f2, an FP32 one flushed when .FTZ (f4)."""
    x = float_of(sc[SC_RAW + 1, lane], sc[SC_RAW64 + 1, lane], m1, sel, f2)
    if f4 == 1 and f2 == T_F32:
        x = flush32(x)
    return x
