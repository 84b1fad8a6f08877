"""The interpreter's special registers and warp-wide exchanges (S2R, CS2R, SHFL, VOTE, MATCH, REDUX).

As every ALU class (``ops_int``'s docstring). The exchanges read other lanes' operands (SHFL and
MATCH gather every lane's). A special register's value is a table lookup by its code (see below).
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.isa import (
    C_OPND, E_CS2R, E_MATCH, E_REDUX, E_S2R, E_SHFL, E_VOTE, N_SR, R_AND, R_MAX, R_MIN, R_OR, R_SUM, SHFL_BFLY,
    SHFL_DOWN, SHFL_UP, SR_CLOCK64, SR_CLOCKHI, SR_CLOCKLO, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_EQMASK, SR_GEMASK,
    SR_GLOBALTIMERHI, SR_GLOBALTIMERLO, SR_GRIDID, SR_GTMASK, SR_LANEID, SR_LEMASK, SR_LTMASK, SR_NSMID, SR_SMID,
    SR_SWINHI, SR_TID_X, SR_TID_Y, SR_TID_Z, SR_WARPID, VOTE_ALL, VOTE_ANY,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _first_lane, _sext32, fields, imod
from explorer.sass.execute.records import (
    CX_BX, CX_BY, CX_CTAID_X, CX_CTAID_Y, CX_CTAID_Z, CX_NSM, CX_SMID, CX_SWIN, M32, SC_P0, SC_PRED, SC_RAW, SC_RES,
    SC_RES64,
)

# what this class executes (interp.OP_CLASS)
OPS = (
    E_S2R, E_CS2R, E_SHFL, E_VOTE, E_MATCH, E_REDUX,
)


# -- special registers ---------------------------------------------------------------------------------
# Where each special register's value comes from, by its code (isa.SR_*): the launch-long table Context.sreg
# (filled once by special_registers: thread and lane ids, lane masks, the GPU's SMs, the shared window's high word,
# the grid id, and 0 for SRZ and SR_CgaCtaId: no clusters, CTA 0 of its cluster), a field of the block's context
# (ctx[SR_ARG]: its coordinates and SM), the warp's clock (its issued instructions) or the block's global timer
# (the block's issued instructions), whose high word alone is read where SR_ARG is 32.
SRC_TABLE, SRC_CONTEXT, SRC_CLOCK, SRC_TIMER = 0, 1, 2, 3
SR_SOURCE = np.zeros(N_SR, dtype=np.int64)
SR_ARG = np.zeros(N_SR, dtype=np.int64)
for _code, _source, _arg in ((SR_CTAID_X, SRC_CONTEXT, CX_CTAID_X), (SR_CTAID_Y, SRC_CONTEXT, CX_CTAID_Y),
                             (SR_CTAID_Z, SRC_CONTEXT, CX_CTAID_Z), (SR_SMID, SRC_CONTEXT, CX_SMID),
                             (SR_CLOCKLO, SRC_CLOCK, 0), (SR_CLOCK64, SRC_CLOCK, 0), (SR_CLOCKHI, SRC_CLOCK, 32),
                             (SR_GLOBALTIMERLO, SRC_TIMER, 0), (SR_GLOBALTIMERHI, SRC_TIMER, 32)):
    SR_SOURCE[_code], SR_ARG[_code] = _source, _arg


def special_registers(ctx, warps: int) -> np.ndarray:
    """Context.sreg: per warp, code and lane the special registers of SRC_TABLE (uint32 [warps, N_SR, 32]), from
    the block's shape, the GPU's SMs and the shared window in ``ctx`` (records.CX_*); the other codes' entries are 0."""
    one = np.int64(1)
    t = np.arange(warps * 32, dtype=np.int64).reshape(warps, 32)  # the thread's index in the block
    lane = np.arange(32, dtype=np.int64)
    bx, by = max(int(ctx[CX_BX]), 1), max(int(ctx[CX_BY]), 1)
    v = np.zeros((warps, N_SR, 32), dtype=np.int64)
    v[:, SR_TID_X] = t % bx
    v[:, SR_TID_Y] = (t // bx) % by
    v[:, SR_TID_Z] = t // (bx * by)
    v[:, SR_LANEID] = lane
    v[:, SR_WARPID] = np.arange(warps, dtype=np.int64)[:, None]
    v[:, SR_NSMID] = ctx[CX_NSM]
    v[:, SR_LTMASK] = (one << lane) - 1
    v[:, SR_LEMASK] = ((one << (lane + 1)) - 1) & M32
    v[:, SR_GTMASK] = (~((one << (lane + 1)) - 1)) & M32
    v[:, SR_GEMASK] = (~((one << lane) - 1)) & M32
    v[:, SR_EQMASK] = one << lane
    v[:, SR_SWINHI] = (ctx[CX_SWIN] >> 32) & M32
    v[:, SR_GRIDID] = 1
    return (v & M32).astype(np.uint32)


@njit(inline=True)
def sreg64(sr, w, lane, context, clock, total):
    """Special register ``sr`` of one lane as S2R and CS2R read it: its 32 bits, and for a clock's or the timer's
    low word the high word above them (CS2R's 64 bits). ``clock``: the warp's count, ``total``: the block's."""
    if sr < 0 or sr >= N_SR:
        return np.int64(0)
    source = SR_SOURCE[sr]
    if source == SRC_TABLE:
        return np.int64(context.sreg[w, sr, lane])
    if source == SRC_CONTEXT:
        return context.ctx[SR_ARG[sr]] & M32
    count = clock if source == SRC_CLOCK else total
    if SR_ARG[sr] == 32:
        return (count >> 32) & M32
    return (count & M32) | (((count >> 32) & M32) << 32)


@njit
def warp_op(code, i, op, E, w, context, clock, total, sc):
    """A special-register read or a warp-wide exchange for the lanes in E (SHFL and MATCH read every lane's
    operand): the value into SC_RES or SC_RES64, SHFL's in-range flag, VOTE's and MATCH.ALL's predicate into
    SC_P0. ``clock`` and ``total``: the warp's and the block's issued instructions. Returns what to write (as
    ``ops_int.int_op``)."""
    f1, f2, f3, f4, m1, m2, m3, m4 = fields(code, i)
    dst, out, wide, preds, pk0, pk1 = 0, SC_RES, False, 0, 0, 0
    if op == E_S2R or op == E_CS2R:
        sr = code[i, C_OPND + 4 + 1]
        for lane in range(32):
            if (E >> lane) & 1:
                sc[SC_RES64, lane] = sreg64(sr, w, lane, context, clock, total)
        out = SC_RES64
        wide = op == E_CS2R and f1 == 2
    elif op == E_SHFL:
        for lane in range(32):
            if (E >> lane) & 1:
                b = imod(sc[SC_RAW + 3, lane], m3)
                c = imod(sc[SC_RAW + 4, lane], m4)
                j, ok = _shfl_lane(lane, b, c, f1)
                sc[SC_RES64, lane] = sc[SC_RAW + 2, j]
                sc[SC_P0, lane] = 1 if ok else 0
        out = SC_RES64
        dst = 1
        preds, pk0 = 1, 0
    elif op == E_VOTE:
        ballot = np.int64(0)
        for lane in range(32):
            if (E >> lane) & 1 and sc[SC_PRED + 2, lane]:
                ballot |= np.int64(1) << lane
        if f1 == VOTE_ALL:
            r = ballot == E
        elif f1 == VOTE_ANY:
            r = ballot != 0
        else:
            r = ballot == E or ballot == 0
        for lane in range(32):
            sc[SC_RES, lane] = ballot
            sc[SC_P0, lane] = 1 if r else 0
        preds, pk0 = 1, 1
    elif op == E_MATCH:
        first = _first_lane(E)
        all_same = True
        for lane in range(32):
            if (E >> lane) & 1 and sc[SC_RAW + 2, lane] != sc[SC_RAW + 2, first]:
                all_same = False
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 == 1:
                    sc[SC_RES, lane] = E if all_same else 0
                    sc[SC_P0, lane] = 1 if all_same else 0
                else:
                    m = np.int64(0)
                    for j in range(32):
                        if (E >> j) & 1 and sc[SC_RAW + 2, j] == sc[SC_RAW + 2, lane]:
                            m |= np.int64(1) << j
                    sc[SC_RES, lane] = m
        dst = 1
        if f1 == 1:
            preds, pk0 = 1, 0
    elif op == E_REDUX:
        acc = np.int64(0)
        started = False
        for lane in range(32):
            if (E >> lane) & 1:
                x = sc[SC_RAW + 1, lane]
                if f2 == 1:
                    x = _sext32(x)
                if not started:
                    acc = x
                    started = True
                elif f1 == R_SUM:
                    acc = acc + x
                elif f1 == R_MIN:
                    acc = x if x < acc else acc
                elif f1 == R_MAX:
                    acc = x if x > acc else acc
                elif f1 == R_AND:
                    acc = acc & x
                elif f1 == R_OR:
                    acc = acc | x
                else:
                    acc = acc ^ x
        for lane in range(32):
            sc[SC_RES, lane] = acc & M32
    return dst, out, wide, preds, pk0, pk1



@njit
def _shfl_lane(lane, b, c, mode):
    """PTX shfl.sync: (source lane, in range) for this lane, mode (IDX, UP, DOWN, BFLY), b and c."""
    clamp = c & 0x1F
    seg = (c >> 8) & 0x1F
    max_lane = (lane & seg) | (clamp & ~seg)
    min_lane = lane & seg
    if mode == SHFL_UP:
        j = lane - b
        ok = j >= max_lane
    elif mode == SHFL_DOWN:
        j = lane + b
        ok = j <= max_lane
    elif mode == SHFL_BFLY:
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = min_lane | (b & 0x1F & ~seg)
        ok = j <= max_lane
    if not ok:
        j = lane
    return j & 31, ok
