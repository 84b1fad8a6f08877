"""The compiled interpreter: a block's warps execute decoded SASS rows, 32 lanes each.

One call of :func:`run` executes blocks ``ctl[CTL_BLOCK] .. last`` in order, writing each
issued warp-instruction to the stream arrays and each memory access's sectors (global,
local) or bank-conflict wavefronts (shared) to the event arrays. All state lives in the
arrays the caller owns, so a call that runs out of room returns ``S_FULL`` (at a block
boundary, when the soft capacity is passed) or ``S_GROW`` (inside a block, when the hard
capacity is reached: the caller enlarges the arrays) and the next call resumes exactly
where it stopped.

Divergence (Volta and newer: each lane has its own pc). A warp issues for one group of
lanes at a time: the ready lanes at the lowest pc ("min-pc" scheduling, as in Collange's
and Diamos et al.'s thread-frontier reconvergence studies), so a diverged warp runs its
paths one after the other and merges as soon as the lanes meet at one pc. The compiler's
convergence barriers give the reconvergence points: ``BSSY Bx`` records the active lanes
in Bx; at ``BSYNC Bx`` lanes wait until every non-exited lane of Bx is there; ``BREAK
Bx`` takes lanes out of Bx; ``WARPSYNC mask`` waits for the mask's lanes. ``EXIT`` of some
lanes lets the others go on. ``BAR.SYNC`` waits for the block's non-exited threads. The
order in which a diverged warp runs its paths is a choice of this model (the hardware's
is not documented); the masks, the number of issued instructions per path and the
results do not depend on it for programs without data races.

Memory. Global buffers live in one byte heap at the addresses the caller assigned
(``gtab``: base address, size, heap offset); an access outside every buffer stops the run
with the pc, lane and address (as compute-sanitizer reports it). Shared memory is one
block's bytes at offsets 0..size (on sm_90 the 1 KB system region comes first, as the
compiler addresses it); local memory is per thread, addressed from the stack pointer the
constant bank gives (``c[0x0][0x28]`` = the frame size, growing down to 0).

The parts. The state is a few records of arrays (``records``: the program, the lanes' registers,
the warps' convergence state, the block's barriers, the memories, the block's context and special
registers, the executed stream, the tallies, the call's bookkeeping); ``run`` takes them all and
each part the ones it reads. ``run`` issues a warp's group, finds its executed lanes (the guard),
records the issue, and hands the instruction to its class (``OP_CLASS``): ``alu`` for the ALU
classes, one module each (``ops_int``: integer arithmetic and logic; ``ops_pred``: integer compares
and predicates; ``ops_convert``: moves and conversions; ``ops_float``: FP32 and FP64; ``ops_half``:
packed FP16/BF16; ``ops_warp``: special registers and the warp-wide exchanges), ``memory.mem`` for
loads, stores and atomics, ``control.control`` for branches, barriers and calls.

What a call costs. A compiled call passes every field of every record it is given (an array is
seven to eleven words), so a part called per instruction takes only what it reads: an ALU class's
function the arrays its operations touch (``ops_float``: the row and the scratch rows), ``mem``
the events and the metrics, not the whole stream and tallies (those cost saxpy 3%). ``control`` is
inlined into ``run`` and ``mem``'s parts into ``mem`` (numba's IR, as the code was before the
split); the ALU classes are not inlined into ``alu``: inlined, they doubled ``alu``'s compile time
(numba types each inlined copy apart) for no measured speed, called they compile in what the one
``alu`` took.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute import ops_convert, ops_float, ops_half, ops_int, ops_pred, ops_warp
from explorer.sass.execute.control import (
    FAILED, GO_ON, _release_all, _release_bars, _select, _writeback, control, lpc_min_below,
)
from explorer.sass.execute.isa import (
    A_ACTIVE_LANES, A_BLOCKS_DONE, A_EXEC_LANES, A_WARP_INSTR, C_GNEG, C_GUARD, C_OP, C_UNIF, E_B2R, ERR_DEADLOCK, ERR_LIMIT,
    ERR_PC, ERR_UNSUPPORTED, E_BRA, E_LDC, E_MATCH, E_NOP, E_SHFL, E_UNSUPPORTED, E_VOTE, FIRST_MEMORY_OP, L_ABSENT,
    L_BAR, L_BSYNC, L_READY, L_WARPSYNC, S_DONE, S_ERROR, S_FULL,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.memory import mem
from explorer.sass.execute.operands import _fail, _first_lane, _popc, gather, write_results
from explorer.sass.execute.records import (
    CTL_BLOCK, CTL_BLOCK_T0, CTL_MPOS, CTL_POS, CTL_SLICE, CTL_SOFT, CTL_SPOS, CTL_STARTED, CTL_TOTAL, CTL_WARP,
    CTL_WARP_BASE, CX_CTAID_X, CX_CTAID_Y, CX_CTAID_Z, CX_SMID, FULL, G_GX, G_GY, G_LAST, G_LIMIT, G_NREGS, G_NSM,
    G_SLICE, G_THREADS, G_WARPS, S_GROW,
)

# -- the opcode classes ------------------------------------------------------------------------------------
# which part executes an operation (isa.E_*): the ALU classes (CLS_NOP .. CLS_NONE, through ``alu``; CLS_NONE: an
# operation the ALU does not execute, an error when a lane executes it), the control instructions, memory
CLS_NOP, CLS_INT, CLS_PRED, CLS_CONVERT, CLS_FLOAT, CLS_HALF, CLS_WARP, CLS_NONE, CLS_CONTROL, CLS_MEMORY = range(10)
OP_CLASS = np.full(256, CLS_NONE, dtype=np.int64)
for _ops, _class in ((ops_int.OPS, CLS_INT), (ops_pred.OPS, CLS_PRED), (ops_convert.OPS, CLS_CONVERT),
                     (ops_float.OPS, CLS_FLOAT), (ops_half.OPS, CLS_HALF), (ops_warp.OPS, CLS_WARP)):
    OP_CLASS[list(_ops)] = _class
OP_CLASS[E_NOP] = CLS_NOP
OP_CLASS[E_BRA:FIRST_MEMORY_OP] = CLS_CONTROL
OP_CLASS[E_B2R] = CLS_CONTROL  # numbered among the ALU's operations (below E_BRA)
OP_CLASS[FIRST_MEMORY_OP:] = CLS_MEMORY
OP_CLASS[E_LDC] = CLS_MEMORY


@njit
def alu(code, i, op, E, w, regs, context, clock, total, sc):
    """Execute an instruction of an ALU class for the lanes in E: its operands gathered into sc, its class's
    function computes the results there (given only the arrays it reads), they are written to the registers.
    ``clock``: the warp's issued instructions, ``total``: the block's (the clock and timer registers). Returns an
    error code (0 = none)."""
    cls = OP_CLASS[op]
    G = FULL if (op == E_SHFL or op == E_MATCH) else E
    gather(code, i, w, G, regs, sc)
    if cls == CLS_INT:
        dst, out, wide, preds, pk0, pk1 = ops_int.int_op(code, i, op, E, w, regs.P, regs.UP, sc)
    elif cls == CLS_FLOAT:
        dst, out, wide, preds, pk0, pk1 = ops_float.float_op(code, i, op, E, sc)
    elif cls == CLS_CONVERT:
        dst, out, wide, preds, pk0, pk1 = ops_convert.convert_op(code, i, op, E, sc)
    elif cls == CLS_PRED:
        dst, out, wide, preds, pk0, pk1 = ops_pred.pred_op(code, i, op, E, w, regs.P, sc)
    elif cls == CLS_HALF:
        dst, out, wide, preds, pk0, pk1 = ops_half.half_op(code, i, op, E, sc)
    elif cls == CLS_WARP:
        dst, out, wide, preds, pk0, pk1 = ops_warp.warp_op(code, i, op, E, w, context, clock, total, sc)
    elif cls == CLS_NOP:
        return 0
    else:
        return ERR_UNSUPPORTED
    write_results(code, i, w, E, regs, sc, dst, out, wide, preds, pk0, pk1)
    return 0


# -- the run ------------------------------------------------------------------------------------------
@njit
def _start_block(blk, prog, regs, warps, bars, memory, context):
    """Block ``blk``'s context, and every warp's registers, lanes and barriers as a block starts."""
    launch, sm_of_block, ctx = prog.launch, prog.sm_of_block, context.ctx
    R, P, UR, UP = regs.R, regs.P, regs.UR, regs.UP
    lst, lpc, wrow, wmask, wdiv = warps.lst, warps.lpc, warps.wrow, warps.wmask, warps.wdiv
    nw = launch[G_WARPS]
    gx, gy = launch[G_GX], launch[G_GY]
    ctx[CX_CTAID_X] = blk % gx
    ctx[CX_CTAID_Y] = (blk // gx) % gy
    ctx[CX_CTAID_Z] = blk // (gx * gy)
    ctx[CX_SMID] = sm_of_block[blk] if sm_of_block.shape[0] > blk else blk % launch[G_NSM]
    threads = launch[G_THREADS]
    R[:nw, :launch[G_NREGS]] = 0
    P[:nw] = 0
    P[:nw, 7, :] = 1
    UR[:nw] = 0
    UP[:nw] = 0
    UP[:nw, 7] = 1
    warps.B[:nw] = 0
    warps.larg[:nw] = 0
    lpc[:nw] = 0
    for w in range(nw):
        for lane in range(32):
            lst[w, lane] = L_READY if w * 32 + lane < threads else L_ABSENT
        warps.wcount[w] = 0
        bars.res[w] = 0
        _select(w, lst, lpc, wrow, wmask, wdiv)
    bars.cnt[:] = 0
    bars.exp[:] = 0
    bars.red[:] = 0
    memory.smem8[:] = 0
    memory.lmem8[:] = 0


@njit(inline=True)
def _guard(code, i, w, M, regs):
    """The group's lanes whose guard predicate is true."""
    g = code[i, C_GUARD]
    if g == 7 or g == 15:
        E = M
        if code[i, C_GNEG] == 1:
            E = np.int64(0)
    elif g >= 8:
        gv = regs.UP[w, g - 8] != 0
        if code[i, C_GNEG] == 1:
            gv = not gv
        E = M if gv else np.int64(0)
    else:
        E = np.int64(0)
        neg = code[i, C_GNEG] == 1
        for lane in range(32):
            if (M >> lane) & 1:
                pv = regs.P[w, g, lane] != 0
                if pv != neg:
                    E |= np.int64(1) << lane
    return E


@njit(inline=True)
def _record_issue(i, w, M, E, pos, warps, issues, tally, ctl):
    """The issue of row i by warp w's group M (E executing) as the stream's entry ``pos``, and its counts."""
    issues.s_warp[pos] = ctl[CTL_WARP_BASE] + w
    issues.s_row[pos] = i
    issues.s_act[pos] = M
    issues.s_exe[pos] = E
    ctl[CTL_POS] = pos + 1
    ctl[CTL_TOTAL] += 1
    warps.wcount[w] += 1
    na = _popc(M)
    ne = _popc(E)
    acc = tally.acc
    acc[A_WARP_INSTR] += 1
    acc[A_ACTIVE_LANES] += na
    acc[A_EXEC_LANES] += ne
    tally.st_exec[i] += 1
    tally.st_act[i] += na
    tally.st_exe[i] += ne


@njit(inline=True)
def _merge(w, nr, warps):
    """The warp's group went on to row ``nr`` while other lanes are ready elsewhere: the lanes waiting at nr join
    it; a lane ready at a lower pc makes the warp pick its group again."""
    lst, lpc, wrow, wmask, wdiv = warps.lst, warps.lpc, warps.wrow, warps.wmask, warps.wdiv
    add = np.int64(0)
    other = np.int64(0)
    M = wmask[w]
    for lane in range(32):
        if (M >> lane) & 1 == 0 and lst[w, lane] == L_READY:
            if lpc[w, lane] == nr:
                add |= np.int64(1) << lane
            else:
                other |= np.int64(1) << lane
    if add != 0:
        wmask[w] = M | add
    if other == 0:
        wdiv[w] = 0
    elif lpc_min_below(w, lst, lpc, nr, M | add):
        _writeback(w, lpc, wrow, wmask)
        _select(w, lst, lpc, wrow, wmask, wdiv)


@njit
def _all_waiting(blk, nw, warps, bars, err):
    """No warp of the block has a group ready: release what the barriers allow. 1: some warp is ready again; 0:
    the block is finished (every lane exited); -1: a deadlock (lanes wait for others that never come; the error
    record is filled)."""
    lst, lpc, larg, B = warps.lst, warps.lpc, warps.larg, warps.B
    wrow, wmask, wdiv = warps.wrow, warps.wmask, warps.wdiv
    _release_bars(nw, lst, larg, lpc, bars.cnt, bars.exp, bars.red, bars.res, wrow, wmask, wdiv)
    any_ready = False
    for ww in range(nw):
        _release_all(ww, lst, larg, lpc, B)
        if _select(ww, lst, lpc, wrow, wmask, wdiv):
            any_ready = True
    if any_ready:
        return 1
    waiting = -1
    for ww in range(nw):
        for lane in range(32):
            s = lst[ww, lane]
            if s == L_BAR or s == L_BSYNC or s == L_WARPSYNC:
                waiting = ww * 32 + lane
                break
        if waiting >= 0:
            break
    if waiting >= 0:
        ww = waiting // 32
        lane = waiting % 32
        _fail(err, ERR_DEADLOCK, lpc[ww, lane], blk, ww, lane, lst[ww, lane], 0, 0)
        return -1
    return 0


@njit
def run(prog, regs, warps, bars, memory, context, issues, events, tally, work):
    """Execute blocks from ctl[CTL_BLOCK] up to launch[G_LAST]; see the module docstring."""
    code, launch = prog.code, prog.launch
    wrow, wmask, wdiv, wcount = warps.wrow, warps.wmask, warps.wdiv, warps.wcount
    ctl, err, sc = work.ctl, work.err, work.sc
    nw = launch[G_WARPS]
    n_rows = code.shape[0]
    cap = issues.s_row.shape[0]
    mcap = events.m_pos.shape[0]
    scap = events.sect.shape[0]
    limit = launch[G_LIMIT]
    slice_len = launch[G_SLICE]
    while ctl[CTL_BLOCK] < launch[G_LAST]:
        blk = ctl[CTL_BLOCK]
        if ctl[CTL_STARTED] == 0:
            if ctl[CTL_POS] >= ctl[CTL_SOFT]:
                return S_FULL  # a chunk of whole blocks is ready
            _start_block(blk, prog, regs, warps, bars, memory, context)
            ctl[CTL_STARTED] = 1
            ctl[CTL_WARP] = 0
            ctl[CTL_SLICE] = 0
            ctl[CTL_WARP_BASE] = blk * nw
            ctl[CTL_BLOCK_T0] = ctl[CTL_TOTAL]
        # run the block's warps round-robin, each until it blocks (or for a time slice)
        while True:
            w = ctl[CTL_WARP]
            while wmask[w] != 0:
                pos = ctl[CTL_POS]
                if pos >= cap or ctl[CTL_MPOS] + 2 >= mcap or ctl[CTL_SPOS] + 64 >= scap:
                    return S_GROW
                if ctl[CTL_TOTAL] >= limit:
                    _fail(err, ERR_LIMIT, wrow[w], blk, w, 0, 0, 0, 0)
                    return S_ERROR
                i = wrow[w]
                if i < 0 or i >= n_rows:
                    _fail(err, ERR_PC, 0, blk, w, 0, i, 0, 0)
                    return S_ERROR
                M = wmask[w]
                op = code[i, C_OP]
                E = _guard(code, i, w, M, regs)
                _record_issue(i, w, M, E, pos, warps, issues, tally, ctl)
                if code[i, C_UNIF] == 1 and E != 0 and op != E_VOTE:
                    E = np.int64(1) << _first_lane(E)  # the uniform datapath executes once
                # execute, by the operation's class
                cls = OP_CLASS[op]
                advance = True  # the whole group goes on to the next row
                if cls == CLS_MEMORY:
                    if E != 0:
                        if mem(code, i, op, E, w, blk, pos, regs, memory, context.ctx, events, tally.acc, work) != 0:
                            return S_ERROR
                elif cls < CLS_CONTROL:
                    if op == E_UNSUPPORTED:
                        _fail(err, ERR_UNSUPPORTED, i, blk, w, _first_lane(M), 0, 0, 0)
                        return S_ERROR
                    if E != 0:
                        rc = alu(code, i, op, E, w, regs, context, wcount[w], ctl[CTL_TOTAL] - ctl[CTL_BLOCK_T0], sc)
                        if rc != 0:
                            _fail(err, rc, i, blk, w, _first_lane(M), 0, 0, 0)
                            return S_ERROR
                else:
                    did = control(code, i, op, E, M, w, blk, nw, regs, warps, bars, work)
                    if did == FAILED:
                        return S_ERROR
                    advance = did == GO_ON
                if advance:
                    wrow[w] = i + 1
                    if wdiv[w] == 1:  # merge the lanes waiting at the new pc
                        _merge(w, i + 1, warps)
                ctl[CTL_SLICE] += 1
                if ctl[CTL_SLICE] >= slice_len:
                    break
            # next warp of the block
            ctl[CTL_SLICE] = 0
            ctl[CTL_WARP] = (w + 1) % nw
            done = True
            for ww in range(nw):
                if wmask[ww] != 0:
                    done = False
                    break
            if done:  # everything left is waiting (barriers) or has exited
                state = _all_waiting(blk, nw, warps, bars, err)
                if state < 0:
                    return S_ERROR
                if state == 0:
                    break  # the block is finished
        ctl[CTL_STARTED] = 0
        ctl[CTL_BLOCK] = blk + 1
        tally.acc[A_BLOCKS_DONE] += 1
    return S_DONE
