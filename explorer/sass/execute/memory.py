"""The interpreter's memory instructions: loads, stores, atomics, constant loads and asynchronous copies.

An access's addresses are per lane (a register, a uniform register and an immediate); its memory is
global (one heap with the buffers at the addresses the caller assigned: ``Memory.gtab``), shared (the
block's bytes) or local (a frame per thread), a generic access's by the window its first lane's
address falls in. What the access moved is recorded as an event of the executed stream: the distinct
32-byte sectors of a global or local access, the bank-conflict wavefronts of a shared one.
"""

from __future__ import annotations

import numpy as np

from explorer.sass.execute.fpmath import RN, as_f32, as_f64, bits64, f32_add
from explorer.sass.execute.isa import (
    A_ADD, A_AND, A_CAS, A_CAST, A_CLASS, A_DEC, A_EXCH, A_FIELDS, A_INC, A_MAX, A_MIN, A_OR, A_POPC_INC, A_XOR, C_AIMM,
    C_AREG, C_ASCALE, C_AUREG, C_AWIDE, C_E0, C_F1, C_F2, C_F3, C_MCLASS, C_MSIGN, C_OPND, C_WIDTH, ERR_CONST_BOUNDS,
    ERR_LOCAL_BOUNDS, ERR_MISALIGNED, ERR_OUT_OF_BOUNDS, ERR_SHARED_BOUNDS, E_ATOM, E_ATOMS, E_LD, E_LDC, E_LDGSTS,
    E_LDL, E_LDS, E_RED, E_ST, E_STG, E_STL, E_STS, K_IMM, K_R, K_UR, M_LOCAL_LOAD, M_LOCAL_STORE, M_SHARED_ATOMIC,
    M_SHARED_LOAD, M_SHARED_STORE, PT, RZ, T_F32, T_F64, T_S32, T_U64, URZ,
)
from explorer.sass.execute.jit import njit
from explorer.sass.execute.operands import _bits_f32, _fail, _first_lane, _sext32, gather, scatter
from explorer.sass.execute.records import (
    CTL_MPOS, CTL_SPOS, CTL_WARP_BASE, CX_FRAME, CX_LWIN, CX_SHARED, CX_SWIN, M32, SC_RAW, SC_RAW64, SC_RES64, SC_TMP,
)


@njit
def _wavefronts(sc, row, E, width, wscr):
    """Shared-memory wavefronts of one warp access (the offsets in sc[row]): per phase (32, 16 or
    8 lanes for 4, 8 or 16 bytes per thread), the most distinct 32-bit words any of the 32 banks
    holds. Returns (wavefronts, phases): a conflict-free access needs one wavefront per phase
    (CUDA C++ Programming Guide, "Shared Memory": 32 banks of successive 32-bit words; lanes
    reading the same word get it broadcast)."""
    words_per_lane = width // 4 if width >= 4 else 1
    lanes_per_phase = 32 // words_per_lane
    total = 0
    phases = 0
    for p in range(0, 32, lanes_per_phase):
        any_lane = False
        for b in range(32):
            wscr[b] = 0
        worst = 0
        for lane in range(p, p + lanes_per_phase):
            if (E >> lane) & 1 == 0:
                continue
            any_lane = True
            for j in range(words_per_lane):
                word = (sc[row, lane] >> 2) + j
                b = word & 31
                n = wscr[b]
                seen = False
                for q in range(n):
                    if wscr[32 + b * 33 + q] == word:
                        seen = True
                        break
                if not seen:
                    wscr[32 + b * 33 + n] = word
                    wscr[b] = n + 1
                    if n + 1 > worst:
                        worst = n + 1
        if any_lane:
            phases += 1
            total += worst
    return total, phases


@njit(inline=True)
def _record(cls_, nval, first, pos, mpos, events, acc, nbytes, lanes, ideal):
    """The memory event ``mpos`` of the stream's entry ``pos``, and the metrics of its class."""
    events.m_pos[mpos] = pos
    events.m_cls[mpos] = cls_
    events.m_n[mpos] = nval
    events.m_ideal[mpos] = ideal
    events.m_first[mpos] = first
    base = A_CLASS + A_FIELDS * cls_
    acc[base] += 1
    acc[base + 1] += nval
    acc[base + 2] += ideal
    acc[base + 3] += nbytes
    acc[base + 4] += lanes


@njit
def _atomic(op, t, old, b, c):
    """The new value of an atomic (op, type) on ``old`` with operand b (c: CAS's new value).
    Integer results are taken modulo the width by the store (PTX atom: .add/.inc/.dec wrap)."""
    if t == T_F32:
        fo = np.float64(as_f32(old))
        fb = np.float64(as_f32(b))
        if op == A_ADD:
            return _bits_f32(f32_add(fo, fb, RN, True))  # atom.add.f32 flushes subnormals (PTX ISA)
        if op == A_MIN:
            return b if (fb < fo or fo != fo) else old
        if op == A_MAX:
            return b if (fb > fo or fo != fo) else old
    if t == T_F64 and op == A_ADD:
        return bits64(as_f64(old) + as_f64(b))
    if op == A_ADD:
        return old + b
    if op == A_MIN or op == A_MAX:
        x, y = old, b
        if t == T_S32:
            x, y = _sext32(x), _sext32(y)
        elif t == T_U64:  # unsigned 64-bit order through the sign-flipped signed order
            x = x ^ np.int64(-9223372036854775808)
            y = y ^ np.int64(-9223372036854775808)
        if op == A_MIN:
            return b if y < x else old
        return b if y > x else old
    if op == A_INC:  # PTX atom.inc: (old >= b) ? 0 : old + 1
        return np.int64(0) if old >= b else old + 1
    if op == A_DEC:  # PTX atom.dec: (old == 0 || old > b) ? b : old - 1
        return b if (old == 0 or old > b) else old - 1
    if op == A_AND:
        return old & b
    if op == A_OR:
        return old | b
    if op == A_XOR:
        return old ^ b
    if op == A_EXCH:
        return b
    if op == A_CAS or op == A_CAST:
        return c if old == b else old
    if op == A_POPC_INC:
        return old + 1
    return old


@njit
def _add_sector(sect, first, nsec, s):
    for q in range(first, first + nsec):
        if sect[q] == s:
            return nsec
    sect[first + nsec] = s
    return nsec + 1


# -- one memory instruction ------------------------------------------------------------------------------------
# Rows of Work.sc: A the addresses, O the byte offsets in the memory they go to, S (LDGSTS) the shared offsets.
A = SC_TMP
O = SC_TMP + 1
S = SC_TMP + 2


@njit(inline=True)
def _load_constant(code, i, E, w, blk, regs, memory, work):
    """LDC / LDCU: a constant bank's bytes to registers (an index register added); an error code (0: none)."""
    R, UR = regs.R, regs.UR
    cbank, err, sc = memory.cbank, work.err, work.sc
    width = code[i, C_WIDTH]
    b = C_OPND + 4
    if width == 16:  # LDCU.128: four uniform registers (a uniform instruction: one lane)
        packed = code[i, b + 1]
        bank = packed >> 32
        off = packed & M32
        lane = _first_lane(E)
        if lane < 0:
            return 0
        if off + 16 > cbank.shape[1] or bank >= cbank.shape[0]:
            return _fail(err, ERR_CONST_BOUNDS, i, blk, w, lane, off, width, 0)
        d = code[i, C_OPND + 1]
        for k in range(4):
            v = np.int64(0)
            for j in range(4):
                v |= np.int64(cbank[bank, off + 4 * k + j]) << (8 * j)
            if d != URZ and d + k < URZ:
                UR[w, d + k] = v
        return 0
    for lane in range(32):
        if (E >> lane) & 1:
            if code[i, b] == K_IMM:
                v = code[i, b + 1]
            else:
                packed = code[i, b + 1]
                bank = packed >> 32
                sel = code[i, b + 3]
                idx = np.int64(R[w, sel, lane]) if sel < 256 else np.int64(UR[w, sel - 256])
                off = (packed & M32) + idx
                if off < 0 or off + width > cbank.shape[1] or bank >= cbank.shape[0]:
                    return _fail(err, ERR_CONST_BOUNDS, i, blk, w, lane, off, width, 0)
                v = np.int64(0)
                for j in range(width):
                    v |= np.int64(cbank[bank, off + j]) << (8 * j)
                if code[i, C_MSIGN] == 1 and width < 8 and (v >> (8 * width - 1)) & 1:
                    v -= np.int64(1) << (8 * width)
            sc[SC_RES64, lane] = v
    scatter(code, i, 0, w, E, regs, sc, SC_RES64, width == 8)
    return 0


@njit(inline=True)
def _addresses(code, i, E, w, blk, width, store_flag, regs, work):
    """Each lane's address into sc[A]: (lanes, the first lane, an error code: a misaligned address)."""
    R, UR, err, sc = regs.R, regs.UR, work.err, work.sc
    reg = code[i, C_AREG]
    awide = code[i, C_AWIDE]
    scale = code[i, C_ASCALE]
    ureg = code[i, C_AUREG]
    uadd = np.int64(0)
    if ureg != URZ:
        uadd = np.int64(UR[w, ureg])
        if awide & 2:
            uadd |= np.int64(UR[w, ureg + 1]) << 32
    imm = code[i, C_AIMM]
    nlanes = 0
    first_lane = -1
    for lane in range(32):
        if (E >> lane) & 1:
            a = uadd + imm
            if reg != RZ:
                if awide & 1:
                    a += np.int64(R[w, reg, lane]) | (np.int64(R[w, reg + 1, lane]) << 32)
                else:
                    a += np.int64(R[w, reg, lane]) * scale
            sc[A, lane] = a
            nlanes += 1
            if first_lane < 0:
                first_lane = lane
            if a % width != 0:
                return nlanes, first_lane, _fail(err, ERR_MISALIGNED, i, blk, w, lane, a, width, store_flag)
    return nlanes, first_lane, 0


@njit(inline=True)
def _space(op, generic, first_lane, ctx, sc):
    """Which memory the access goes to: 0 global, 1 shared, 2 local (a generic access by its first lane's window)."""
    if op == E_LDS or op == E_STS or op == E_ATOMS:
        return 1
    if op == E_LDL or op == E_STL:
        return 2
    if generic:
        a0 = sc[A, first_lane]
        if a0 >= ctx[CX_SWIN] and a0 < ctx[CX_SWIN] + ctx[CX_SHARED]:
            return 1
        if a0 >= ctx[CX_LWIN] and a0 < ctx[CX_LWIN] + ctx[CX_FRAME]:
            return 2
    return 0


@njit(inline=True)
def _offsets(i, E, w, blk, space, generic, width, store_flag, memory, ctx, work):
    """Each lane's byte offset in its memory into sc[O] (global: through the buffer table, the last buffer hit
    tried first); an error code: an address outside every buffer, the shared bytes or the thread's frame."""
    gtab, hint = memory.gtab, memory.hint
    err, sc = work.err, work.sc
    frame = ctx[CX_FRAME]
    sh_size = ctx[CX_SHARED]
    h = hint[0]
    nbuf = gtab.shape[0]
    for lane in range(32):
        if (E >> lane) & 1:
            a = sc[A, lane]
            if space == 0:
                if not (h >= 0 and a >= gtab[h, 0] and a + width <= gtab[h, 0] + gtab[h, 1]):
                    h = -1
                    for bb in range(nbuf):
                        if a >= gtab[bb, 0] and a + width <= gtab[bb, 0] + gtab[bb, 1]:
                            h = bb
                            break
                    if h < 0:
                        hint[0] = 0
                        return _fail(err, ERR_OUT_OF_BOUNDS, i, blk, w, lane, a, width, store_flag)
                o = gtab[h, 2] + (a - gtab[h, 0])
            elif space == 1:
                o = a - ctx[CX_SWIN] if generic else a
                if o < 0 or o + width > sh_size:
                    return _fail(err, ERR_SHARED_BOUNDS, i, blk, w, lane, a, width, store_flag)
            else:
                o = a - ctx[CX_LWIN] if generic else a
                if o < 0 or o + width > frame:
                    return _fail(err, ERR_LOCAL_BOUNDS, i, blk, w, lane, a, width, store_flag)
                o += (w * 32 + lane) * frame
            sc[O, lane] = o
    hint[0] = h if h >= 0 else 0
    return 0


@njit(inline=True)
def _atomics(code, i, op, E, w, width, m32, regs, sc):
    """ATOM, ATOMS, RED: each lane's read-modify-write in lane order; the old values (CAST: whether it stored) to
    the destination register, or to a predicate (ATOMS.CAST.SPIN); RED returns nothing."""
    P = regs.P
    aop = code[i, C_F1]
    t = code[i, C_F2]
    gather(code, i, w, E, regs, sc)  # the data operands (slots 1 and 2)
    for lane in range(32):
        if (E >> lane) & 1:
            o = sc[O, lane] >> 2
            if width == 8:
                b = sc[SC_RAW64 + 1, lane]
                c = sc[SC_RAW64 + 2, lane]
            else:
                b = sc[SC_RAW + 1, lane]
                c = sc[SC_RAW + 2, lane]
            if width == 8:
                old = np.int64(m32[o]) | (np.int64(m32[o + 1]) << 32)
                new = _atomic(aop, t, old, b, c)
                m32[o] = new & M32
                m32[o + 1] = (new >> 32) & M32
            else:
                old = np.int64(m32[o])
                b &= M32
                new = _atomic(aop, t, old, b, c & M32)
                m32[o] = new & M32
            if aop == A_CAST:  # compare and store: the result is whether it stored
                sc[SC_RES64, lane] = 1 if old == b else 0
            else:
                sc[SC_RES64, lane] = old
    if aop == A_CAST and code[i, C_F3] == 1:  # the flag to a predicate (ATOMS.CAST.SPIN P0, ...)
        pd = code[i, C_E0]
        if pd != PT:
            for lane in range(32):
                if (E >> lane) & 1:
                    P[w, pd, lane] = sc[SC_RES64, lane]
    elif op != E_RED:
        scatter(code, i, 0, w, E, regs, sc, SC_RES64, width == 8)


@njit(inline=True)
def _copy_to_shared(code, i, E, w, blk, width, regs, memory, ctx, work):
    """LDGSTS: the global bytes (offsets in sc[O]) to each lane's shared offset (into sc[S]); an error code."""
    R, UR = regs.R, regs.UR
    smem8, heap8 = memory.smem8, memory.heap8
    err, sc = work.err, work.sc
    sh_size = ctx[CX_SHARED]
    sreg = code[i, C_E0]
    sur = code[i, C_E0 + 1]
    for lane in range(32):
        if (E >> lane) & 1:
            sa = code[i, C_E0 + 2]
            if sreg != RZ:
                sa += np.int64(R[w, sreg, lane]) * code[i, C_E0 + 3]
            if sur != URZ:
                sa += np.int64(UR[w, sur])
            if sa % width != 0 or sa < 0 or sa + width > sh_size:
                return _fail(err, ERR_SHARED_BOUNDS, i, blk, w, lane, sa, width, 1)
            sc[S, lane] = sa
    for lane in range(32):
        if (E >> lane) & 1:
            for j in range(width):
                smem8[sc[S, lane] + j] = heap8[sc[O, lane] + j]
    return 0


@njit(inline=True)
def _store(code, i, E, w, width, m8, m32, regs, sc):
    """A store: operand slot 1's registers (or immediate) to each lane's offset in sc[O]."""
    R, UR = regs.R, regs.UR
    n = width // 4 if width >= 4 else 1
    b = C_OPND + 4
    kind = code[i, b]
    v = code[i, b + 1]
    for lane in range(32):
        if (E >> lane) & 1:
            o = sc[O, lane]
            for j in range(n):
                if kind == K_R:
                    x = np.int64(R[w, v + j, lane]) if v != RZ else np.int64(0)
                elif kind == K_UR:
                    x = np.int64(UR[w, v + j]) if v != URZ else np.int64(0)
                else:
                    x = (code[i, b + 1] >> (32 * j)) & M32
                if width == 1:
                    m8[o] = x & 0xFF
                elif width == 2:
                    m8[o] = x & 0xFF
                    m8[o + 1] = (x >> 8) & 0xFF
                else:
                    m32[(o >> 2) + j] = x & M32


@njit(inline=True)
def _load(code, i, E, w, width, m8, m32, regs, sc):
    """A load: each lane's bytes at its offset in sc[O] to operand slot 0's registers (narrow ones extended)."""
    R, UR = regs.R, regs.UR
    n = width // 4 if width >= 4 else 1
    signed = code[i, C_MSIGN] == 1
    b = C_OPND
    kind = code[i, b]
    v = code[i, b + 1]
    if not ((kind == K_R and v == RZ) or (kind == K_UR and v == URZ)):
        for lane in range(32):
            if (E >> lane) & 1:
                o = sc[O, lane]
                if width < 4:
                    if width == 1:
                        x = np.int64(m8[o])
                        if signed and x >= 128:
                            x -= 256
                    else:
                        x = np.int64(m8[o]) | (np.int64(m8[o + 1]) << 8)
                        if signed and x >= 32768:
                            x -= 65536
                    if kind == K_R:
                        R[w, v, lane] = x & M32
                    else:
                        UR[w, v] = x & M32
                else:
                    for j in range(n):
                        x = np.int64(m32[(o >> 2) + j])
                        if kind == K_R:
                            R[w, v + j, lane] = x
                        else:
                            UR[w, v + j] = x


@njit(inline=True)
def _account(code, i, op, E, w, pos, space, generic, width, nlanes, ctx, events, acc, work):
    """What the access moved, as the stream's event: wavefronts (shared) or distinct sectors (global, local;
    LDGSTS also its shared store's wavefronts)."""
    ctl, sc, wscr = work.ctl, work.sc, work.wscr
    sect = events.sect
    cls_ = code[i, C_MCLASS]
    frame = ctx[CX_FRAME]
    n = width // 4 if width >= 4 else 1
    mpos = ctl[CTL_MPOS]
    nbytes = nlanes * width
    if space == 1:
        if generic:
            cls_ = M_SHARED_LOAD if op == E_LD else (M_SHARED_STORE if op == E_ST else M_SHARED_ATOMIC)
        if generic:
            for lane in range(32):
                sc[O, lane] = sc[A, lane] - ctx[CX_SWIN]
            waves, ideal = _wavefronts(sc, O, E, width, wscr)
        else:
            waves, ideal = _wavefronts(sc, A, E, width, wscr)
        _record(cls_, waves, -1, pos, mpos, events, acc, nbytes, nlanes, ideal)
        ctl[CTL_MPOS] = mpos + 1
        return
    if space == 2 and generic:
        cls_ = M_LOCAL_LOAD if op == E_LD else M_LOCAL_STORE
    first = ctl[CTL_SPOS]
    nsec = 0
    gw = ctl[CTL_WARP_BASE] + w
    for lane in range(32):
        if (E >> lane) & 1:
            if space == 0:
                a = sc[A, lane]
                s_lo = a >> 5
                s_hi = (a + width - 1) >> 5
                for s in range(s_lo, s_hi + 1):
                    nsec = _add_sector(sect, first, nsec, s)
            else:
                # local memory is interleaved by 32-bit word across a warp's threads (CUDA C++
                # Programming Guide, "Local Memory": accesses to the same offset coalesce)
                o = sc[O, lane] - (w * 32 + lane) * frame
                for j in range(n):
                    word = (o >> 2) + j
                    a = ctx[CX_LWIN] + ((gw * (frame >> 2) + word) * 32 + lane) * 4
                    nsec = _add_sector(sect, first, nsec, a >> 5)
    ctl[CTL_SPOS] = first + nsec
    _record(cls_, nsec, first, pos, mpos, events, acc, nbytes, nlanes, 0)
    ctl[CTL_MPOS] = mpos + 1
    if op == E_LDGSTS:  # its shared side: a store of the same bytes
        mpos = ctl[CTL_MPOS]
        waves, ideal = _wavefronts(sc, S, E, width, wscr)
        _record(M_SHARED_STORE, waves, -1, pos, mpos, events, acc, nbytes, nlanes, ideal)
        ctl[CTL_MPOS] = mpos + 1


@njit
def mem(code, i, op, E, w, blk, pos, regs, memory, ctx, events, acc, work):
    """Execute a memory instruction for the lanes in E and record its sectors or wavefronts (an event of the
    stream's entry ``pos``; ``acc``: the metrics); an error code (0: none), the error record filled."""
    if op == E_LDC:
        return _load_constant(code, i, E, w, blk, regs, memory, work)
    sc = work.sc
    width = code[i, C_WIDTH]
    is_store = op == E_STG or op == E_STS or op == E_STL or op == E_ST
    store_flag = 1 if is_store else 0
    nlanes, first_lane, rc = _addresses(code, i, E, w, blk, width, store_flag, regs, work)
    if rc != 0:
        return rc
    if nlanes == 0:
        return 0
    generic = op == E_LD or op == E_ST or op == E_ATOM
    space = _space(op, generic, first_lane, ctx, sc)
    rc = _offsets(i, E, w, blk, space, generic, width, store_flag, memory, ctx, work)
    if rc != 0:
        return rc
    if space == 0:
        m8, m32 = memory.heap8, memory.heap32
    elif space == 1:
        m8, m32 = memory.smem8, memory.smem32
    else:
        m8, m32 = memory.lmem8, memory.lmem32
    if op == E_ATOM or op == E_RED or op == E_ATOMS:
        _atomics(code, i, op, E, w, width, m32, regs, sc)
    elif op == E_LDGSTS:
        rc = _copy_to_shared(code, i, E, w, blk, width, regs, memory, ctx, work)
        if rc != 0:
            return rc
    elif is_store:
        _store(code, i, E, w, width, m8, m32, regs, sc)
    else:
        _load(code, i, E, w, width, m8, m32, regs, sc)
    _account(code, i, op, E, w, pos, space, generic, width, nlanes, ctx, events, acc, work)
    return 0
