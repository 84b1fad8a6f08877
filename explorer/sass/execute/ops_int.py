"""The interpreter's integer arithmetic, logic and bit operations (IADD3, IMAD, LEA, LOP3, SHF, PRMT, ...).

Each operation computes from the operands ``alu`` gathered into the scratch rows, for the lanes in
E (the ones whose result is written; some loops run over all 32 lanes and the writes pick), and
says what to write: the destination slot and row, whether 64 bits, and the result predicates
(``operands.write_results``). Carry-ins (IADD3.X, IMAD.X, LEA.X) read their predicates per lane.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.isa import (
    C_E0, C_OPND, E_BMSK, E_BREV, E_FLO, E_IABS, E_IADD, E_IADD3, E_IMAD, E_IMNMX, E_IMNMX3, E_ISCADD, E_LEA, E_LOP3,
    E_POPC, E_PRMT, E_SGXT, E_SHF, E_SHL, E_SHR, MOD_NEG, MOD_NOT,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _popc, _sext32, fields, imod, penc
from explorer.sass.execute.records import M32, SC_P0, SC_P1, SC_PRED, SC_RAW, SC_RAW64, SC_RES, SC_RES64

# what this class executes (interp.OP_CLASS)
OPS = (
    E_IADD3, E_IADD, E_IMAD, E_LEA, E_ISCADD, E_LOP3, E_SHF, E_SHL, E_SHR, E_IABS, E_IMNMX, E_IMNMX3, E_POPC, E_FLO,
    E_BREV, E_PRMT, E_BMSK, E_SGXT,
)


@njit
def int_op(code, i, op, E, w, P, UP, sc):
    """An integer instruction for the lanes in E, from the operands in sc: the result into sc[SC_RES] (the 64-bit
    forms: SC_RES64), IADD3's carries and LEA's, LOP3's non-zero flag into SC_P0 / SC_P1; returns what to write
    (``operands.write_results``: dst, out, wide, preds, pk0, pk1)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_IADD3:
        e0 = code[i, C_E0]
        e1 = code[i, C_E0 + 1]
        for lane in range(32):
            if (E >> lane) & 1:
                s = np.int64(0)
                for k in range(3, 6):
                    x = sc[SC_RAW + k, lane]
                    m = code[i, C_OPND + 4 * k + 2]
                    if m & MOD_NOT:
                        x = (~x) & M32
                    if m & MOD_NEG:
                        s += ((~x) & M32) + 1
                    else:
                        s += x
                if f1 == 1:
                    s += np.int64(penc(e0, w, lane, P, UP)) + np.int64(penc(e1, w, lane, P, UP))
                sc[SC_RES, lane] = s & M32
                carry = s >> 32
                sc[SC_P0, lane] = 1 if carry >= 1 else 0
                sc[SC_P1, lane] = 1 if carry >= 2 else 0
        preds, pk0, pk1 = 2, 1, 2
    elif op == E_IADD:
        if f1 == 1:  # IADD.64 (sm_120): register pairs, each source possibly negated
            for lane in range(32):
                a = sc[SC_RAW64 + 1, lane]
                b = sc[SC_RAW64 + 2, lane]
                if m1 & MOD_NEG:
                    a = -a
                if m2 & MOD_NEG:
                    b = -b
                sc[SC_RES64, lane] = a + b
            out, wide = SC_RES64, True
        else:
            for lane in range(32):
                sc[SC_RES, lane] = (imod(sc[SC_RAW + 1, lane], m1) + imod(sc[SC_RAW + 2, lane], m2)) & M32
    elif op == E_IMAD:
        e0 = code[i, C_E0]
        for lane in range(32):
            if (E >> lane) & 1:
                a = imod(sc[SC_RAW + 1, lane], m1)
                b = imod(sc[SC_RAW + 2, lane], m2)
                if f2 == 0 and f1 != 0:  # signed high/wide products
                    a = _sext32(a)
                    b = _sext32(b)
                cin = np.int64(penc(e0, w, lane, P, UP)) if f3 == 1 else np.int64(0)
                if f1 == 0:
                    sc[SC_RES, lane] = (a * b + imod(sc[SC_RAW + 3, lane], m3) + cin) & M32
                elif f1 == 1:  # .HI: bits 32..63 of a*b + (c+1:c), the addend a register pair
                    c = sc[SC_RAW64 + 3, lane]
                    sc[SC_RES, lane] = ((a * b + c + cin) >> 32) & M32
                else:
                    c = sc[SC_RAW64 + 3, lane]
                    if m3 & MOD_NEG:
                        c = -c
                    if m3 & MOD_NOT:
                        c = ~c
                    sc[SC_RES64, lane] = a * b + c + cin
        if f1 == 2:
            out, wide = SC_RES64, True
    elif op == E_LEA:
        sh = code[i, C_E0]
        e1 = code[i, C_E0 + 1]
        for lane in range(32):
            if (E >> lane) & 1:
                a = imod(sc[SC_RAW + 2, lane], m2)
                b = imod(sc[SC_RAW + 3, lane], m3)
                cin = np.int64(penc(e1, w, lane, P, UP)) if f2 == 1 else np.int64(0)
                if f1 == 0:
                    s = ((a << sh) & M32) + b + cin
                else:
                    hiword = (_sext32(a) >> 32) & M32 if f3 == 1 else imod(sc[SC_RAW + 4, lane], m4)
                    if sh == 0:
                        top = hiword
                    elif sh < 32:
                        top = ((hiword << sh) | (a >> (32 - sh))) & M32
                    else:
                        top = (a << (sh - 32)) & M32
                    s = top + b + cin
                sc[SC_RES, lane] = s & M32
                sc[SC_P0, lane] = 1 if (s >> 32) != 0 else 0
        preds, pk0 = 1, 1
    elif op == E_ISCADD:
        sh = code[i, C_E0]
        for lane in range(32):
            sc[SC_RES, lane] = ((imod(sc[SC_RAW + 1, lane], m1) << sh) + imod(sc[SC_RAW + 2, lane], m2)) & M32
    elif op == E_LOP3:
        lut = code[i, C_E0]
        for lane in range(32):
            if (E >> lane) & 1:
                r = _lop3(imod(sc[SC_RAW + 2, lane], m2), imod(sc[SC_RAW + 3, lane], m3),
                          imod(sc[SC_RAW + 4, lane], m4), lut)
                sc[SC_RES, lane] = r
                sc[SC_P0, lane] = 1 if r != 0 else 0
        preds, pk0 = 1, 1
    elif op == E_SHF:
        for lane in range(32):
            if (E >> lane) & 1:
                sc[SC_RES, lane] = _shf(imod(sc[SC_RAW + 1, lane], m1), imod(sc[SC_RAW + 2, lane], m2),
                                     imod(sc[SC_RAW + 3, lane], m3), f1, f2, f3, f4)
    elif op == E_SHL or op == E_SHR:
        for lane in range(32):
            a = imod(sc[SC_RAW + 1, lane], m1)
            s = imod(sc[SC_RAW + 2, lane], m2)
            s = s & 31 if f4 == 1 else (32 if s > 32 else s)
            if op == E_SHL:
                r = (a << s) & M32 if s < 32 else np.int64(0)
            elif f2 == 1:
                r = (_sext32(a) >> (31 if s > 31 else s)) & M32
            else:
                r = a >> s if s < 32 else np.int64(0)
            sc[SC_RES, lane] = r
    elif op == E_IABS:
        for lane in range(32):
            sc[SC_RES, lane] = abs(_sext32(imod(sc[SC_RAW + 1, lane], m1))) & M32
    elif op == E_IMNMX:
        for lane in range(32):
            a = imod(sc[SC_RAW + 1, lane], m1)
            b = imod(sc[SC_RAW + 2, lane], m2)
            if f2 == 0:
                a = _sext32(a)
                b = _sext32(b)
            if sc[SC_PRED + 3, lane]:
                r = a if a < b else b
            else:
                r = a if a > b else b
            sc[SC_RES, lane] = r & M32
    elif op == E_IMNMX3:  # f1 0: minmax(a, b, c); 1: minmax(a + b, c); slot 4 the predicate (true: min)
        for lane in range(32):
            a = imod(sc[SC_RAW + 1, lane], m1)
            b = imod(sc[SC_RAW + 2, lane], m2)
            c = imod(sc[SC_RAW + 3, lane], m3)
            if f1 == 1:
                a = (a + b) & M32
                b = a
            if f2 == 0:
                a = _sext32(a)
                b = _sext32(b)
                c = _sext32(c)
            if sc[SC_PRED + 4, lane]:
                r = a if a < b else b
                r = r if r < c else c
            else:
                r = a if a > b else b
                r = r if r > c else c
            sc[SC_RES, lane] = r & M32
    elif op == E_POPC:
        for lane in range(32):
            sc[SC_RES, lane] = _popc(imod(sc[SC_RAW + 1, lane], m1))
    elif op == E_FLO:
        for lane in range(32):
            sc[SC_RES, lane] = _flo(imod(sc[SC_RAW + 1, lane], m1), f2, f3)
    elif op == E_BREV:
        for lane in range(32):
            sc[SC_RES, lane] = _brev(imod(sc[SC_RAW + 1, lane], m1))
    elif op == E_PRMT:
        for lane in range(32):
            sc[SC_RES, lane] = _prmt(imod(sc[SC_RAW + 1, lane], m1), imod(sc[SC_RAW + 2, lane], m2),
                                  imod(sc[SC_RAW + 3, lane], m3))
    elif op == E_BMSK:
        for lane in range(32):
            pos = imod(sc[SC_RAW + 1, lane], m1)
            wid = imod(sc[SC_RAW + 2, lane], m2)
            if f4 == 1:
                pos &= 31
                wid &= 31
            else:
                pos = 32 if pos > 32 else pos
                wid = 32 if wid > 32 else wid
            sc[SC_RES, lane] = (((np.int64(1) << wid) - 1) << pos) & M32
    elif op == E_SGXT:
        for lane in range(32):
            a = imod(sc[SC_RAW + 1, lane], m1)
            nb = imod(sc[SC_RAW + 2, lane], m2)
            nb = nb & 31 if f4 == 1 else (32 if nb > 32 else nb)
            if nb == 0:
                r = np.int64(0)
            elif nb >= 32:
                r = a
            else:
                r = a & ((np.int64(1) << nb) - 1)
                if f2 == 0 and (r >> (nb - 1)) & 1:
                    r |= (~((np.int64(1) << nb) - 1)) & M32
            sc[SC_RES, lane] = r
    return dst, out, wide, preds, pk0, pk1



@njit
def _lop3(a, b, c, lut):
    r = np.int64(0)
    if lut & 0x01:
        r |= ~a & ~b & ~c
    if lut & 0x02:
        r |= ~a & ~b & c
    if lut & 0x04:
        r |= ~a & b & ~c
    if lut & 0x08:
        r |= ~a & b & c
    if lut & 0x10:
        r |= a & ~b & ~c
    if lut & 0x20:
        r |= a & ~b & c
    if lut & 0x40:
        r |= a & b & ~c
    if lut & 0x80:
        r |= a & b & c
    return r & M32


@njit
def _shf(lo, s, hi, right, t, high, wrap):
    """SHF: the funnel shift of (hi:lo) by s; the low or (.HI) the high word of the result."""
    wide = t >= 2
    if wrap == 1:
        s = s & (63 if wide else 31)
    else:
        lim = 64 if wide else 32
        if s > lim:
            s = lim
    if right == 0:
        if s >= 64:
            v_lo, v_hi = np.int64(0), np.int64(0)
        elif s >= 32:
            v_lo, v_hi = np.int64(0), (lo << (s - 32)) & M32
        elif s == 0:
            v_lo, v_hi = lo, hi
        else:
            v_lo, v_hi = (lo << s) & M32, ((hi << s) | (lo >> (32 - s))) & M32
    else:
        signed = t == 1 or t == 3
        fill = np.int64(M32) if (signed and hi >= 0x80000000) else np.int64(0)
        if s >= 64:
            v_lo, v_hi = fill, fill
        elif s >= 32:
            tt = s - 32
            v_hi = fill
            v_lo = hi if tt == 0 else ((hi >> tt) | (fill << (32 - tt))) & M32
        elif s == 0:
            v_lo, v_hi = lo, hi
        else:
            v_lo = ((lo >> s) | (hi << (32 - s))) & M32
            v_hi = ((hi >> s) | (fill << (32 - s))) & M32
    return v_hi if high == 1 else v_lo


@njit
def _flo(x, unsigned, sh):
    """FLO: the position of the highest set bit (signed: the highest bit unlike the sign), or
    0xffffffff when none; .SH gives 31 - position (a leading-zero count)."""
    if unsigned == 0 and x >= 0x80000000:
        x = (~x) & M32
    r = np.int64(M32)
    for bit in range(31, -1, -1):
        if (x >> bit) & 1:
            r = np.int64(bit)
            break
    if sh == 1 and r != M32:
        r = 31 - r
    return r


@njit
def _brev(x):
    r = np.int64(0)
    for bit in range(32):
        if (x >> bit) & 1:
            r |= np.int64(1) << (31 - bit)
    return r


@njit
def _prmt(a, sel, b):
    """PRMT (default mode): byte j of the result is byte (nibble j & 7) of b:a, or its sign if nibble j & 8."""
    v = (b << 32) | a
    r = np.int64(0)
    for j in range(4):
        nib = (sel >> (4 * j)) & 0xF
        byte = (v >> (8 * (nib & 7))) & 0xFF
        if nib & 8:
            byte = 0xFF if (byte & 0x80) else 0
        r |= byte << (8 * j)
    return r
