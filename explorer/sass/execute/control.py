"""The interpreter's control instructions and the lanes' convergence (see ``interp``'s docstring: divergence).

A warp issues for one group of lanes at a time, the ready lanes at the lowest pc; ``_select``
picks it, ``_writeback`` parks the group's pc in its lanes, ``_release`` lets the lanes waiting at
a convergence barrier (BSYNC) or WARPSYNC go on once every live lane they wait for is there,
``_release_bars`` completes block barriers (BAR). ``control`` executes one control instruction.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.isa import (
    C_E0, C_F1, C_F2, C_F3, C_OPND, C_TARGET, ERR_PC, ERR_UNSUPPORTED, E_B2R, E_BAR, E_BMOV_B, E_BMOV_R, E_BRA, E_BREAK,
    E_BRX, E_BSSY, E_BSYNC, E_CALL, E_EXIT, E_RET, E_WARPSYNC, L_ABSENT, L_BAR, L_BSYNC, L_EXITED, L_READY, L_WARPSYNC,
    R_AND, R_OR,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _fail, _first_lane, _int, _popc, _pslot, _raw, _sext32, scatter
from explorer.sass.execute.records import SC_RES


@njit
def _live(lst, w):
    m = np.int64(0)
    for lane in range(32):
        s = lst[w, lane]
        if s != L_EXITED and s != L_ABSENT:
            m |= np.int64(1) << lane
    return m


@njit
def _release(w, state, x, lst, larg, lpc, B):
    """Release the lanes waiting in ``state`` (L_BSYNC at barrier x, or L_WARPSYNC) when every live
    lane they wait for (Bx's lanes, or the union of the WARPSYNC masks) is waiting too."""
    waiting = np.int64(0)
    need = np.int64(0)
    live = np.int64(0)
    for lane in range(32):
        s = lst[w, lane]
        if s == state and (state != L_BSYNC or larg[w, lane] == x):
            waiting |= np.int64(1) << lane
            if state == L_WARPSYNC:
                need |= larg[w, lane]
        if s != L_EXITED and s != L_ABSENT:
            live |= np.int64(1) << lane
    if waiting == 0:
        return False
    if state == L_BSYNC:
        need = np.int64(B[w, x])
    if need & live & ~waiting:
        return False
    for lane in range(32):
        if (waiting >> lane) & 1:
            lst[w, lane] = L_READY
            lpc[w, lane] += 1
    return True


@njit
def _wait(w, i, M, E, state, arg, lst, larg, lpc, wrow, wmask, wdiv, B):
    """The group's lanes in E start waiting at row i (BSYNC on barrier ``arg``, or WARPSYNC for mask
    ``arg``); the others go past it; the warp then issues for whichever lanes are ready."""
    _writeback(w, lpc, wrow, wmask)
    for lane in range(32):
        if (M >> lane) & 1:
            if (E >> lane) & 1:
                lst[w, lane] = state
                larg[w, lane] = arg
            else:
                lpc[w, lane] = i + 1
    _release(w, state, arg, lst, larg, lpc, B)
    _select(w, lst, lpc, wrow, wmask, wdiv)


@njit
def _release_all(w, lst, larg, lpc, B):
    for x in range(16):
        _release(w, L_BSYNC, x, lst, larg, lpc, B)
    _release(w, L_WARPSYNC, 0, lst, larg, lpc, B)


@njit
def _select(w, lst, lpc, wrow, wmask, wdiv):
    """The group the warp issues for next: the ready lanes at the lowest pc. False when none."""
    best = np.int64(1) << 62
    for lane in range(32):
        if lst[w, lane] == L_READY and lpc[w, lane] < best:
            best = lpc[w, lane]
    if best == np.int64(1) << 62:
        wmask[w] = 0
        return False
    m = np.int64(0)
    other = np.int64(0)
    for lane in range(32):
        if lst[w, lane] == L_READY:
            if lpc[w, lane] == best:
                m |= np.int64(1) << lane
            else:
                other |= np.int64(1) << lane
    wrow[w] = best
    wmask[w] = m
    wdiv[w] = 1 if other != 0 else 0
    return True


@njit
def _writeback(w, lpc, wrow, wmask):
    m = wmask[w]
    r = wrow[w]
    for lane in range(32):
        if (m >> lane) & 1:
            lpc[w, lane] = r


@njit
def _release_bars(nw, lst, larg, lpc, bar_cnt, bar_exp, bar_red, bar_res, wrow, wmask, wdiv):
    """Complete every block barrier whose expected threads have all arrived.

    bar_red[b] counts the arrivals whose predicate was true (BAR.RED), bar_red[16 + b] the
    reduction; the result (popc, and, or) goes to every released warp for B2R.RESULT."""
    live = 0
    for w in range(nw):
        for lane in range(32):
            s = lst[w, lane]
            if s != L_EXITED and s != L_ABSENT:
                live += 1
    for b in range(16):
        if bar_cnt[b] == 0:
            continue
        expected = bar_exp[b] if bar_exp[b] > 0 else live
        if bar_cnt[b] < expected:
            continue
        kind = bar_red[16 + b]
        if kind == R_AND:
            result = 1 if bar_red[b] == bar_cnt[b] else 0
        elif kind == R_OR:
            result = 1 if bar_red[b] > 0 else 0
        else:
            result = bar_red[b]
        for w in range(nw):
            hit = False
            for lane in range(32):
                if lst[w, lane] == L_BAR and larg[w, lane] == b:
                    lst[w, lane] = L_READY
                    lpc[w, lane] += 1
                    hit = True
            if hit:
                bar_res[w] = result
                if wmask[w] == 0:
                    _select(w, lst, lpc, wrow, wmask, wdiv)
                else:
                    wdiv[w] = 1
        bar_cnt[b] = 0
        bar_exp[b] = 0
        bar_red[b] = 0
        bar_red[16 + b] = 0


@njit
def lpc_min_below(w, lst, lpc, row, group):
    """Is some ready lane outside the group at a lower pc than the group (it must run first)?"""
    for lane in range(32):
        if (group >> lane) & 1 == 0 and lst[w, lane] == L_READY and lpc[w, lane] < row:
            return True
    return False


# -- one control instruction ------------------------------------------------------------------------------
GO_ON, STAY, FAILED = 1, 0, -1  # what control() did: the group goes on to the next row; the warp's group and rows
# are set (a jump, a wait, an exit); the run stops (the error record is filled)


@njit(inline=True)
def control(code, i, op, E, M, w, blk, nw, regs, warps, bars, work):
    """Execute a control instruction (branches, EXIT, convergence and block barriers, calls and returns, the
    convergence barriers' moves) for the issuing group M, E its lanes whose guard is true: GO_ON, STAY or FAILED."""
    R, P, UR, UP = regs.R, regs.P, regs.UR, regs.UP
    B, lpc, lst, larg = warps.B, warps.lpc, warps.lst, warps.larg
    wrow, wmask, wdiv = warps.wrow, warps.wmask, warps.wdiv
    bar_cnt, bar_exp, bar_red, bar_res = bars.cnt, bars.exp, bars.red, bars.res
    err, sc = work.err, work.sc
    n_rows = code.shape[0]
    advance = True
    if op == E_BRA:
        taken = E
        if code[i, C_F1] == 1:  # BRA.DIV: jump when the group is not all of mask's live lanes
            mk = _int(code, i, 1, w, _first_lane(M), R, UR) & _live(lst, w)
            taken = M if (M & mk) != mk else np.int64(0)
        elif code[i, C_OPND + 1] >= 8 and code[i, C_OPND + 1] != 15:  # uniform (BRA.U !UP0)
            if not _pslot(code, i, 0, w, 0, P, UP):
                taken = np.int64(0)
        elif code[i, C_OPND + 1] != 7:  # a per-lane condition (sm_100: @!P0 BRA P1, target)
            for lane in range(32):
                if (taken >> lane) & 1 and not _pslot(code, i, 0, w, lane, P, UP):
                    taken &= ~(np.int64(1) << lane)
        tgt = code[i, C_TARGET]
        if taken == M:
            wrow[w] = tgt
            advance = False
            if wdiv[w] == 1:
                _writeback(w, lpc, wrow, wmask)
                _select(w, lst, lpc, wrow, wmask, wdiv)
        elif taken != 0:
            for lane in range(32):
                if (M >> lane) & 1:
                    lpc[w, lane] = tgt if (taken >> lane) & 1 else i + 1
            _select(w, lst, lpc, wrow, wmask, wdiv)
            advance = False
    elif op == E_EXIT:
        if E != 0:
            for lane in range(32):
                if (E >> lane) & 1:
                    lst[w, lane] = L_EXITED
            rest = M & ~E
            _writeback(w, lpc, wrow, wmask)
            if rest != 0:
                for lane in range(32):
                    if (rest >> lane) & 1:
                        lpc[w, lane] = i + 1
            _release_all(w, lst, larg, lpc, B)
            _release_bars(nw, lst, larg, lpc, bar_cnt, bar_exp, bar_red, bar_res, wrow, wmask, wdiv)
            _select(w, lst, lpc, wrow, wmask, wdiv)
            advance = False
    elif op == E_BSSY:
        B[w, code[i, C_E0]] = M
    elif op == E_BREAK:
        x = code[i, C_E0]
        B[w, x] = np.int64(B[w, x]) & ~E
        if E != 0 and _release(w, L_BSYNC, x, lst, larg, lpc, B):
            wdiv[w] = 1  # lanes waiting for the leavers go on (merged by pc below)
    elif op == E_BSYNC:
        x = code[i, C_E0]
        if E != 0:
            need = np.int64(B[w, x]) & _live(lst, w)
            if need & ~E != 0:  # some lanes of Bx are elsewhere: these wait for them
                _wait(w, i, M, E, L_BSYNC, x, lst, larg, lpc, wrow, wmask, wdiv, B)
                advance = False
    elif op == E_WARPSYNC:
        if E != 0:
            mk = _int(code, i, 0, w, _first_lane(E), R, UR) & _live(lst, w)
            if mk & ~M != 0:
                _wait(w, i, M, E, L_WARPSYNC, mk, lst, larg, lpc, wrow, wmask, wdiv, B)
                advance = False
    elif op == E_BAR:
        if E != 0:
            bid = _int(code, i, 0, w, _first_lane(E), R, UR) & 15
            mode = code[i, C_F1]
            if code[i, C_F2] == 1:
                bar_exp[bid] = _int(code, i, 1, w, _first_lane(E), R, UR)
            n_e = _popc(E)
            bar_cnt[bid] += n_e
            if mode == 2:
                for lane in range(32):
                    if (E >> lane) & 1 and _pslot(code, i, 2, w, lane, P, UP):
                        bar_red[bid] += 1
                bar_red[16 + bid] = code[i, C_F3]
            _writeback(w, lpc, wrow, wmask)
            for lane in range(32):
                if (M >> lane) & 1:
                    if (E >> lane) & 1 and mode != 1:
                        lst[w, lane] = L_BAR
                        larg[w, lane] = bid
                    else:
                        lpc[w, lane] = i + 1
            _release_bars(nw, lst, larg, lpc, bar_cnt, bar_exp, bar_red, bar_res, wrow, wmask, wdiv)
            _select(w, lst, lpc, wrow, wmask, wdiv)
            advance = False
    elif op == E_B2R:
        for lane in range(32):
            sc[SC_RES, lane] = bar_res[w]
        scatter(code, i, 0, w, E, regs, sc, SC_RES, False)
    elif op == E_CALL:
        if E == M:
            wrow[w] = code[i, C_TARGET]
            advance = False
        elif E != 0:
            _fail(err, ERR_UNSUPPORTED, i, blk, w, _first_lane(M), 0, 0, 0)
            return FAILED
    elif op == E_RET or op == E_BRX:  # per lane: RET's address in Ra; BRX's the next instruction's offset + Ra + imm
        if E != 0:  # (a jump table's case). An address is never negative: RET's is a register's 32 bits
            _writeback(w, lpc, wrow, wmask)
            for lane in range(32):
                if (M >> lane) & 1:
                    if (E >> lane) & 1:
                        t = _raw(code, i, 0, w, lane, R, UR)
                        if op == E_BRX:
                            t = 16 * (i + 1) + _sext32(t) + code[i, C_E0]
                        if t < 0 or t % 16 != 0 or t // 16 >= n_rows:
                            _fail(err, ERR_PC, i, blk, w, lane, t, 0, 0)
                            return FAILED
                        lpc[w, lane] = t // 16
                    else:
                        lpc[w, lane] = i + 1
            _select(w, lst, lpc, wrow, wmask, wdiv)
            advance = False
    elif op == E_BMOV_R:
        x = code[i, C_E0]
        for lane in range(32):
            sc[SC_RES, lane] = np.int64(B[w, x])
        scatter(code, i, 0, w, E, regs, sc, SC_RES, False)
        if E != 0 and code[i, C_F1] == 1:
            B[w, x] = 0
    elif op == E_BMOV_B:
        lane = _first_lane(E)
        if lane >= 0:
            B[w, code[i, C_E0]] = _raw(code, i, 1, w, lane, R, UR)
    return GO_ON if advance else STAY
