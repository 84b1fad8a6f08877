"""The interpreter's integer compares and predicate logic (ISETP, PLOP3, P2R, R2P).

As every ALU class (``ops_int``'s docstring): from the gathered operands, for the lanes in E; a
compare's two result predicates are the boolean operation of the comparison (and its negation)
with the predicate operand. R2P writes its predicates itself (no destination register).
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.isa import (
    CMP_EQ, CMP_GE, CMP_GT, CMP_LE, CMP_LT, CMP_NE, C_E0, E_ISETP, E_P2R, E_PLOP3, E_R2P,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _bool, _icmp, _sext32, fields, imod
from explorer.sass.execute.records import SC_P0, SC_P1, SC_PRED, SC_RAW, SC_RAW64, SC_RES

# what this class executes (interp.OP_CLASS)
OPS = (
    E_ISETP, E_PLOP3, E_P2R, E_R2P,
)


@njit
def pred_op(code, i, op, E, w, P, sc):
    """A compare or predicate instruction for the lanes in E: ISETP's and PLOP3's two predicates into SC_P0 and
    SC_P1, P2R's register into SC_RES; R2P writes its predicates itself. Returns what to write (as ``int_op``)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_ISETP:
        for lane in range(32):
            if (E >> lane) & 1:
                if f3 >= 2:  # .U64 / .S64: register pairs (unsigned order through the sign-flipped signed one)
                    a = sc[SC_RAW64 + 2, lane]
                    b = sc[SC_RAW64 + 3, lane]
                    if f3 == 2:
                        a = a ^ np.int64(-9223372036854775808)
                        b = b ^ np.int64(-9223372036854775808)
                else:
                    a = imod(sc[SC_RAW + 2, lane], m2)
                    b = imod(sc[SC_RAW + 3, lane], m3)
                if f3 == 0:
                    a = _sext32(a)
                    b = _sext32(b)
                if f4 == 1:  # high words of a 64-bit compare; the low words' result decides ties
                    low = sc[SC_PRED + 5, lane] != 0
                    if f1 == CMP_EQ:
                        r = a == b and low
                    elif f1 == CMP_NE:
                        r = a != b or low
                    elif f1 == CMP_LT or f1 == CMP_LE:
                        r = a < b or (a == b and low)
                    elif f1 == CMP_GT or f1 == CMP_GE:
                        r = a > b or (a == b and low)
                    else:
                        r = _icmp(a, b, f1)
                else:
                    r = _icmp(a, b, f1)
                c = sc[SC_PRED + 4, lane] != 0
                sc[SC_P0, lane] = 1 if _bool(r, c, f2) else 0
                sc[SC_P1, lane] = 1 if _bool(not r, c, f2) else 0
        preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_PLOP3:
        l1 = code[i, C_E0]
        l2 = code[i, C_E0 + 1]
        for lane in range(32):
            idx = (sc[SC_PRED + 2, lane] << 2) | (sc[SC_PRED + 3, lane] << 1) | sc[SC_PRED + 4, lane]
            sc[SC_P0, lane] = (l1 >> idx) & 1
            sc[SC_P1, lane] = (l2 >> idx) & 1
        preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_P2R:
        for lane in range(32):
            if (E >> lane) & 1:
                src = imod(sc[SC_RAW + 1, lane], m1)
                mask = imod(sc[SC_RAW + 2, lane], m2) & 0x7F
                pr = np.int64(0)
                for j in range(7):
                    if P[w, j, lane]:
                        pr |= np.int64(1) << j
                sc[SC_RES, lane] = (src & ~mask) | (pr & mask)
    elif op == E_R2P:
        for lane in range(32):
            if (E >> lane) & 1:
                src = imod(sc[SC_RAW + 1, lane], m1)
                mask = imod(sc[SC_RAW + 2, lane], m2)
                for j in range(7):
                    if (mask >> j) & 1:
                        P[w, j, lane] = (src >> j) & 1
        dst = -1
    return dst, out, wide, preds, pk0, pk1

