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
"""

from __future__ import annotations

import math

import numpy as np

from explorer.sass.execute.fpmath import (
    RN,
    as_f32,
    as_f64,
    bits32,
    bits64,
    f32_add,
    f32_fma,
    f32_mul,
    flush32,
    float_to_int,
    float_to_u64,
    fma64,
    half_bits,
    half_value,
    int_to_float,
    mufu,
    mufu64h,
    saturate,
    to_f32,
    two_sum,
)
from explorer.sass.execute.isa import (
    A_ACTIVE_LANES, A_ADD, A_AND, A_BLOCKS_DONE, A_CAS, A_CAST, A_CLASS, A_DEC, A_EXCH, A_EXEC_LANES, A_FIELDS, A_INC,
    A_MAX, A_MIN, A_OR, A_POPC_INC, A_WARP_INSTR, A_XOR, CMP_EQ, CMP_F, CMP_GE, CMP_GT, CMP_LE, CMP_LT, CMP_LTU,
    CMP_NAN, CMP_NE, CMP_NUM, CMP_T, C_AIMM, C_AREG, C_ASCALE, C_AUREG, C_AWIDE, C_E0, C_F1, C_F2, C_F3, C_F4, C_GNEG,
    C_GUARD, C_MCLASS, C_MSIGN, C_OP, C_OPND, C_TARGET, C_UNIF, C_W64, C_WIDTH, ERR_CONST_BOUNDS, ERR_DEADLOCK,
    ERR_LIMIT, ERR_LOCAL_BOUNDS, ERR_MISALIGNED, ERR_OUT_OF_BOUNDS, ERR_PC, ERR_SHARED_BOUNDS, ERR_UNSUPPORTED,
    E_ATOM, E_ATOMS, E_B2R, E_BAR, E_BMOV_B, E_BMOV_R, E_BMSK, E_BRA, E_BREAK, E_BREV, E_BRX, E_BSSY, E_BSYNC, E_CALL,
    E_CS2R, E_DADD, E_DFMA, E_DMNMX, E_DMUL, E_DSETP, E_EXIT, E_F2F, E_F2FP, E_F2I, E_FADD, E_FCHK, E_FFMA, E_FLO,
    E_FMNMX, E_FMUL, E_FRND, E_FSET, E_FSETP, E_HADD2, E_HFMA2, E_HMNMX2, E_HMUL2, E_HSETP2, E_I2F, E_I2I, E_IABS,
    E_IADD, E_IADD3, E_IMAD, E_IMNMX, E_IMNMX3, E_ISCADD, E_ISETP, E_LD, E_LDC, E_LDGSTS, E_LDL, E_LDS, E_LEA, E_LOP3,
    E_MATCH, E_MOV, E_MUFU, E_NOP, E_P2R, E_PLOP3, E_POPC, E_PRMT, E_R2P, E_R2UR, E_RED, E_REDUX, E_RET, E_S2R, E_SEL,
    E_SGXT, E_SHF, E_SHFL, E_SHL, E_SHR, E_ST, E_STG, E_STL, E_STS, E_UNSUPPORTED, E_VOTE, E_WARPSYNC, K_IMM, K_PRED,
    K_R, K_UR, L_ABSENT, L_BAR, L_BSYNC, L_EXITED, L_READY, L_WARPSYNC, MOD_ABS, MOD_NEG, MOD_NOT, M_LOCAL_LOAD,
    M_LOCAL_STORE, M_SHARED_ATOMIC, M_SHARED_LOAD, M_SHARED_STORE, PT, RZ, R_AND, R_MAX, R_MIN, R_OR, R_SUM, SEL_B0,
    SEL_B3, SEL_H0, SEL_H0_H0, SEL_H0_H1, SEL_H1, SEL_H1_H1, SHFL_BFLY, SHFL_DOWN, SHFL_UP, SR_CLOCK64, SR_CLOCKHI,
    SR_CLOCKLO, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_EQMASK, SR_GEMASK, SR_GLOBALTIMERHI, SR_GLOBALTIMERLO,
    SR_GRIDID, SR_GTMASK, SR_LANEID, SR_LEMASK, SR_LTMASK, SR_NSMID, SR_SMID, SR_SWINHI, SR_TID_X, SR_TID_Y, SR_TID_Z,
    SR_WARPID, S_DONE, S_ERROR, S_FULL, T_BF16, T_F16, T_F32, T_F64, T_S16, T_S32, T_S64, T_S8, T_U16, T_U32, T_U64,
    T_U8, URZ, VOTE_ALL, VOTE_ANY, X_ADDR, X_BLOCK, X_CODE, X_LANE, X_ROW, X_SIZE, X_STORE, X_WARP,
)
from explorer.sass.execute.jit import njit

S_GROW = 3  # inside a block, the stream or event arrays are full: enlarge them and call again
M32 = 0xFFFFFFFF
FULL = 0xFFFFFFFF
# launch fields
G_GX, G_GY, G_GZ, G_BX, G_BY, G_BZ, G_THREADS, G_WARPS, G_NSM, G_LAST, G_LIMIT = range(11)
G_FRAME, G_SHARED, G_SWIN, G_SLICE, G_NREGS = 11, 12, 13, 14, 15
N_LAUNCH = 16
# control fields
CTL_BLOCK, CTL_STARTED, CTL_POS, CTL_MPOS, CTL_SPOS, CTL_TOTAL, CTL_WARP, CTL_SLICE, CTL_SOFT = range(9)
CTL_WARP_BASE = 9  # global id of the block's first warp
CTL_BLOCK_T0 = 10  # CTL_TOTAL when the block started (the global timer reads the block's own count)
N_CTL = 16
WSCR = 32 + 32 * 33  # bank bookkeeping of _wavefronts


# -- operands ------------------------------------------------------------------------------------
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
def _sreg(code_sr, w, lane, ctx, wcount, total):
    """A special register's value (32 bits) for one lane."""
    t = w * 32 + lane
    if code_sr == SR_TID_X:
        return t % ctx[3]
    if code_sr == SR_TID_Y:
        return (t // ctx[3]) % ctx[4]
    if code_sr == SR_TID_Z:
        return t // (ctx[3] * ctx[4])
    if code_sr == SR_CTAID_X:
        return ctx[0]
    if code_sr == SR_CTAID_Y:
        return ctx[1]
    if code_sr == SR_CTAID_Z:
        return ctx[2]
    if code_sr == SR_LANEID:
        return np.int64(lane)
    if code_sr == SR_SMID:
        return ctx[6]
    if code_sr == SR_NSMID:
        return ctx[7]
    if code_sr == SR_WARPID:
        return np.int64(w)
    if code_sr == SR_LTMASK:
        return (np.int64(1) << lane) - 1
    if code_sr == SR_LEMASK:
        return ((np.int64(1) << (lane + 1)) - 1) & M32
    if code_sr == SR_GTMASK:
        return (~((np.int64(1) << (lane + 1)) - 1)) & M32
    if code_sr == SR_GEMASK:
        return (~((np.int64(1) << lane) - 1)) & M32
    if code_sr == SR_EQMASK:
        return np.int64(1) << lane
    if code_sr == SR_CLOCKLO or code_sr == SR_CLOCK64:
        return wcount[w] & M32
    if code_sr == SR_CLOCKHI:
        return (wcount[w] >> 32) & M32
    if code_sr == SR_GLOBALTIMERLO:
        return total & M32
    if code_sr == SR_GLOBALTIMERHI:
        return (total >> 32) & M32
    if code_sr == SR_SWINHI:
        return (ctx[8] >> 32) & M32
    if code_sr == SR_GRIDID:
        return np.int64(1)
    return np.int64(0)  # SRZ, SR_CgaCtaId (no clusters: CTA 0 of its cluster)


# -- operands of a whole warp at once -----------------------------------------------------------
# Why: a numba call that takes arrays costs reference counting per call; per lane and operand
# that dominated (about 90 ns a lane). So an instruction gathers its operands for every
# lane into the scratch rows once, computes from them, and scatters its results once.
SC_RAW, SC_RAW64, SC_PRED, SC_RES, SC_RES64, SC_P0, SC_P1, SC_TMP = 0, 6, 12, 18, 19, 20, 21, 22
SC_ROWS = 26


@njit
def gather(code, i, w, G, R, UR, P, UP, sc):
    """Operand slots' values for the lanes in G: raw 32 bits (rows 0-5), 64 bits where the row's
    C_W64 mask asks (rows 6-11), predicates with ! applied (rows 12-17)."""
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
def scatter(code, i, k, w, E, R, UR, sc, row, wide):
    """Write sc[row] (32 bits, or 64 bits to a pair when ``wide``) to slot k for the lanes in E."""
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
def scatter_pred(code, i, k, w, E, P, UP, sc, row):
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


@njit
def _float_cmp_set(a, b, c, boolop, cin):
    r = _fcmp(a, b, c)
    return _bool(r, cin, boolop), _bool(not r, cin, boolop)


# -- the ALU (every lane of the exec mask) --------------------------------------------------------
@njit
def alu(code, i, op, E, w, R, P, UR, UP, ctx, wcount, total, sc):
    """Execute an arithmetic, logic, conversion or warp-exchange instruction for the lanes in E.

    Returns an error code (0 = none)."""
    f1 = code[i, C_F1]
    f2 = code[i, C_F2]
    f3 = code[i, C_F3]
    f4 = code[i, C_F4]
    m1 = code[i, C_OPND + 4 + 2]
    m2 = code[i, C_OPND + 8 + 2]
    m3 = code[i, C_OPND + 12 + 2]
    m4 = code[i, C_OPND + 16 + 2]
    G = FULL if (op == E_SHFL or op == E_MATCH) else E
    gather(code, i, w, G, R, UR, P, UP, sc)
    res = SC_RES
    res64 = SC_RES64
    wide = False
    out = res
    preds = 0  # result predicates: 1 -> slot given by pk0 from row SC_P0, 2 -> also pk1 from SC_P1
    pk0 = 0
    pk1 = 0
    dst = 0
    if op == E_MOV:
        if f1 == 1:
            for lane in range(32):
                sc[res64, lane] = sc[SC_RAW64 + 1, lane]
            out, wide = res64, True
        else:
            for lane in range(32):
                sc[res, lane] = imod(sc[SC_RAW + 1, lane], m1)
    elif op == E_SEL:
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 == 1:
                    sc[res64, lane] = sc[SC_RAW64 + 1, lane] if sc[SC_PRED + 3, lane] else sc[SC_RAW64 + 2, lane]
                elif sc[SC_PRED + 3, lane]:
                    sc[res, lane] = imod(sc[SC_RAW + 1, lane], m1)
                else:
                    sc[res, lane] = imod(sc[SC_RAW + 2, lane], m2)
        if f1 == 1:
            out, wide = res64, True
    elif op == E_IADD3:
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
                sc[res, lane] = s & M32
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
                sc[res64, lane] = a + b
            out, wide = res64, True
        else:
            for lane in range(32):
                sc[res, lane] = (imod(sc[SC_RAW + 1, lane], m1) + imod(sc[SC_RAW + 2, lane], m2)) & M32
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
                    sc[res, lane] = (a * b + imod(sc[SC_RAW + 3, lane], m3) + cin) & M32
                elif f1 == 1:  # .HI: bits 32..63 of a*b + (c+1:c), the addend a register pair
                    c = sc[SC_RAW64 + 3, lane]
                    sc[res, lane] = ((a * b + c + cin) >> 32) & M32
                else:
                    c = sc[SC_RAW64 + 3, lane]
                    if m3 & MOD_NEG:
                        c = -c
                    if m3 & MOD_NOT:
                        c = ~c
                    sc[res64, lane] = a * b + c + cin
        if f1 == 2:
            out, wide = res64, True
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
                sc[res, lane] = s & M32
                sc[SC_P0, lane] = 1 if (s >> 32) != 0 else 0
        preds, pk0 = 1, 1
    elif op == E_ISCADD:
        sh = code[i, C_E0]
        for lane in range(32):
            sc[res, lane] = ((imod(sc[SC_RAW + 1, lane], m1) << sh) + imod(sc[SC_RAW + 2, lane], m2)) & M32
    elif op == E_LOP3:
        lut = code[i, C_E0]
        for lane in range(32):
            if (E >> lane) & 1:
                r = _lop3(imod(sc[SC_RAW + 2, lane], m2), imod(sc[SC_RAW + 3, lane], m3),
                          imod(sc[SC_RAW + 4, lane], m4), lut)
                sc[res, lane] = r
                sc[SC_P0, lane] = 1 if r != 0 else 0
        preds, pk0 = 1, 1
    elif op == E_SHF:
        for lane in range(32):
            if (E >> lane) & 1:
                sc[res, lane] = _shf(imod(sc[SC_RAW + 1, lane], m1), imod(sc[SC_RAW + 2, lane], m2),
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
            sc[res, lane] = r
    elif op == E_IABS:
        for lane in range(32):
            sc[res, lane] = abs(_sext32(imod(sc[SC_RAW + 1, lane], m1))) & M32
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
            sc[res, lane] = r & M32
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
            sc[res, lane] = r & M32
    elif op == E_ISETP:
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
    elif op == E_POPC:
        for lane in range(32):
            sc[res, lane] = _popc(imod(sc[SC_RAW + 1, lane], m1))
    elif op == E_FLO:
        for lane in range(32):
            sc[res, lane] = _flo(imod(sc[SC_RAW + 1, lane], m1), f2, f3)
    elif op == E_BREV:
        for lane in range(32):
            sc[res, lane] = _brev(imod(sc[SC_RAW + 1, lane], m1))
    elif op == E_PRMT:
        for lane in range(32):
            sc[res, lane] = _prmt(imod(sc[SC_RAW + 1, lane], m1), imod(sc[SC_RAW + 2, lane], m2),
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
            sc[res, lane] = (((np.int64(1) << wid) - 1) << pos) & M32
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
            sc[res, lane] = r
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
                sc[res, lane] = (src & ~mask) | (pr & mask)
    elif op == E_R2P:
        for lane in range(32):
            if (E >> lane) & 1:
                src = imod(sc[SC_RAW + 1, lane], m1)
                mask = imod(sc[SC_RAW + 2, lane], m2)
                for j in range(7):
                    if (mask >> j) & 1:
                        P[w, j, lane] = (src >> j) & 1
        dst = -1
    elif op == E_FADD or op == E_FMUL or op == E_FFMA:
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
                sc[res, lane] = _bits_f32(r)
    elif op == E_FMNMX:
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + 1, lane], m1)
                b = fmod32(sc[SC_RAW + 2, lane], m2)
                if f2 == 1:
                    a, b = flush32(a), flush32(b)
                sc[res, lane] = _bits_f32(_fminmax(a, b, sc[SC_PRED + 3, lane] != 0))
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
                sc[res, lane] = (0x3F800000 if f4 == 1 else M32) if p else 0
        if op == E_FSETP:
            preds, pk0, pk1, dst = 2, 0, 1, -1
    elif op == E_MUFU:
        for lane in range(32):
            if (E >> lane) & 1:
                if f1 >= 8:
                    sc[res, lane] = mufu64h(f1, imod(sc[SC_RAW + 1, lane], m1))
                else:
                    sc[res, lane] = _bits_f32(mufu(f1, fmod32(sc[SC_RAW + 1, lane], m1)))
    elif op == E_FRND:
        for lane in range(32):
            if (E >> lane) & 1:
                x = fmod32(sc[SC_RAW + 1, lane], m1)
                if f2 == 1:
                    x = flush32(x)
                sc[res, lane] = _bits_f32(_frnd(x, f1))
    elif op == E_FCHK:
        for lane in range(32):
            ea = (sc[SC_RAW + 1, lane] >> 23) & 0xFF
            eb = (sc[SC_RAW + 2, lane] >> 23) & 0xFF
            bad = ea == 0 or ea == 0xFF or eb == 0 or eb == 0xFF or eb >= 253 or ea >= 253 or \
                ea - eb >= 125 or eb - ea >= 125 or ea <= 24
            sc[SC_P0, lane] = 1 if bad else 0
        preds, pk0, dst = 1, 0, -1
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
                    sc[res64, lane] = bits64(int_to_float(v, uns, 1, f3))
                elif f2 == T_F16:
                    sc[res, lane] = half_bits(int_to_float(v, uns, 2, f3), 0.0, RN, False, False)
                else:
                    sc[res, lane] = _bits_f32(int_to_float(v, uns, 0, f3))
        if f2 == T_F64:
            out, wide = res64, True
    elif op == E_F2I:
        lo, hi = _type_range(f1)
        sel = code[i, C_OPND + 4 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                x = float_of(sc[SC_RAW + 1, lane], sc[SC_RAW64 + 1, lane], m1, sel, f2)
                if f4 == 1 and f2 == T_F32:
                    x = flush32(x)
                if f1 == T_U64:
                    sc[res64, lane] = float_to_u64(x, f3)
                else:
                    sc[res64, lane] = float_to_int(x, f3, lo, hi)
        out = res64
        wide = f1 == T_U64 or f1 == T_S64
    elif op == E_F2F:
        sel = code[i, C_OPND + 4 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                x = float_of(sc[SC_RAW + 1, lane], sc[SC_RAW64 + 1, lane], m1, sel, f2)
                if f4 == 1 and f2 == T_F32:
                    x = flush32(x)
                if f1 == T_F64:
                    sc[res64, lane] = bits64(x)
                elif f1 == T_F32:
                    sc[res64, lane] = _bits_f32(to_f32(x, 0.0, f3, f4 == 1))
                else:
                    sc[res64, lane] = half_bits(x, 0.0, f3, f4 == 1, f1 == T_BF16)
        out = res64
        wide = f1 == T_F64
    elif op == E_F2FP:
        bf = f1 == T_BF16
        for lane in range(32):
            if (E >> lane) & 1:
                a = fmod32(sc[SC_RAW + 1, lane], m1)
                b = fmod32(sc[SC_RAW + 2, lane], m2)
                sc[res, lane] = (half_bits(a, 0.0, f3, False, bf) << 16) | half_bits(b, 0.0, f3, False, bf)
    elif op == E_I2I:
        lo, hi = _type_range(f1)
        for lane in range(32):
            x = _int_of_type(sc[SC_RAW + 1, lane], f2)
            if f3 == 1:
                x = lo if x < lo else (hi if x > hi else x)
            sc[res, lane] = x & M32
    elif op == E_HSETP2:
        bf = f1 == 1
        sel2 = code[i, C_OPND + 8 + 3]
        sel3 = code[i, C_OPND + 12 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                a0, a1 = _halves(sc[SC_RAW + 2, lane], sel2, m2, bf)
                b0, b1 = _halves(sc[SC_RAW + 3, lane], sel3, m3, bf)
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
        sel1 = code[i, C_OPND + 4 + 3]
        sel2 = code[i, C_OPND + 8 + 3]
        sel3 = code[i, C_OPND + 12 + 3]
        for lane in range(32):
            if (E >> lane) & 1:
                a0, a1 = _halves(sc[SC_RAW + 1, lane], sel1, m1, bf)
                b0, b1 = _halves(sc[SC_RAW + 2, lane], sel2, m2, bf)
                c0, c1 = 0.0, 0.0
                if op == E_HFMA2:
                    c0, c1 = _halves(sc[SC_RAW + 3, lane], sel3, m3, bf)
                take_min = op == E_HMNMX2 and sc[SC_PRED + 3, lane] != 0
                lo_bits = _half_op(op, a0, b0, c0, take_min, f3 == 1, f4 == 1, ftz, bf)
                if f3 == 1:
                    sc[res, lane] = lo_bits
                else:
                    sc[res, lane] = lo_bits | (_half_op(op, a1, b1, c1, take_min, False, f4 == 1, ftz, bf) << 16)
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
                sc[res64, lane] = np.int64(0x7FFFFFFFFFFFFFFF) if r != r else bits64(r)
        out, wide = res64, True
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
                sc[res64, lane] = bits64(r)
        out, wide = res64, True
    elif op == E_S2R or op == E_CS2R:
        sr = code[i, C_OPND + 4 + 1]
        for lane in range(32):
            if (E >> lane) & 1:
                v = _sreg(sr, w, lane, ctx, wcount, total)
                hi = np.int64(0)
                if sr == SR_CLOCKLO or sr == SR_CLOCK64:
                    hi = (wcount[w] >> 32) & M32
                elif sr == SR_GLOBALTIMERLO:
                    hi = (total >> 32) & M32
                sc[res64, lane] = (v & M32) | (hi << 32)
        out = res64
        wide = op == E_CS2R and f1 == 2
    elif op == E_SHFL:
        for lane in range(32):
            if (E >> lane) & 1:
                b = imod(sc[SC_RAW + 3, lane], m3)
                c = imod(sc[SC_RAW + 4, lane], m4)
                j, ok = _shfl_lane(lane, b, c, f1)
                sc[SC_RES64, lane] = sc[SC_RAW + 2, j]
                sc[SC_P0, lane] = 1 if ok else 0
        out = res64
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
            sc[res, lane] = ballot
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
                    sc[res, lane] = E if all_same else 0
                    sc[SC_P0, lane] = 1 if all_same else 0
                else:
                    m = np.int64(0)
                    for j in range(32):
                        if (E >> j) & 1 and sc[SC_RAW + 2, j] == sc[SC_RAW + 2, lane]:
                            m |= np.int64(1) << j
                    sc[res, lane] = m
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
            sc[res, lane] = acc & M32
    elif op == E_R2UR:
        for lane in range(32):
            sc[res64, lane] = sc[SC_RAW64 + 1, lane] if f1 == 1 else sc[SC_RAW + 1, lane]
        out = res64
        wide = f1 == 1
    elif op == E_NOP:
        return 0
    else:
        return ERR_UNSUPPORTED
    if dst >= 0:
        scatter(code, i, dst, w, E, R, UR, sc, out, wide)
    if preds >= 1:
        scatter_pred(code, i, pk0, w, E, P, UP, sc, SC_P0)
    if preds >= 2:
        scatter_pred(code, i, pk1, w, E, P, UP, sc, SC_P1)
    return 0


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


# -- memory ----------------------------------------------------------------------------------------
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


@njit
def _record(cls_, nval, first, pos, mpos, m_pos, m_cls, m_n, m_ideal, m_first, acc, nbytes, lanes, ideal):
    m_pos[mpos] = pos
    m_cls[mpos] = cls_
    m_n[mpos] = nval
    m_ideal[mpos] = ideal
    m_first[mpos] = first
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


@njit
def mem(code, i, op, E, w, R, P, UR, UP, blk, heap8, heap32, gtab, smem8, smem32, lmem8, lmem32, cbank, ctx,
        pos, ctl, m_pos, m_cls, m_n, m_ideal, m_first, sect, acc, err, sc, wscr, hint):
    """Execute a memory instruction for the lanes in E and record its sectors or wavefronts.

    Rows of sc: SC_TMP the addresses, SC_TMP + 1 the byte offsets in the memory they go to,
    SC_TMP + 2 (LDGSTS) the shared offsets, SC_TMP + 3 a lane's loaded/stored words."""
    width = code[i, C_WIDTH]
    cls_ = code[i, C_MCLASS]
    frame = ctx[11]
    sh_size = ctx[9]
    A = SC_TMP
    O = SC_TMP + 1
    if op == E_LDC:
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
        scatter(code, i, 0, w, E, R, UR, sc, SC_RES64, width == 8)
        return 0
    is_store = op == E_STG or op == E_STS or op == E_STL or op == E_ST
    store_flag = 1 if is_store else 0
    # addresses
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
                return _fail(err, ERR_MISALIGNED, i, blk, w, lane, a, width, store_flag)
    if nlanes == 0:
        return 0
    generic = op == E_LD or op == E_ST or op == E_ATOM
    # which memory: 0 global, 1 shared, 2 local (a generic access by its first lane's window)
    if op == E_LDS or op == E_STS or op == E_ATOMS:
        space = 1
    elif op == E_LDL or op == E_STL:
        space = 2
    elif generic:
        a0 = sc[A, first_lane]
        if a0 >= ctx[8] and a0 < ctx[8] + sh_size:
            space = 1
        elif a0 >= ctx[10] and a0 < ctx[10] + frame:
            space = 2
        else:
            space = 0
    else:
        space = 0
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
                o = a - ctx[8] if generic else a
                if o < 0 or o + width > sh_size:
                    return _fail(err, ERR_SHARED_BOUNDS, i, blk, w, lane, a, width, store_flag)
            else:
                o = a - ctx[10] if generic else a
                if o < 0 or o + width > frame:
                    return _fail(err, ERR_LOCAL_BOUNDS, i, blk, w, lane, a, width, store_flag)
                o += (w * 32 + lane) * frame
            sc[O, lane] = o
    hint[0] = h if h >= 0 else 0
    if space == 0:
        m8, m32 = heap8, heap32
    elif space == 1:
        m8, m32 = smem8, smem32
    else:
        m8, m32 = lmem8, lmem32
    n = width // 4 if width >= 4 else 1
    if op == E_ATOM or op == E_RED or op == E_ATOMS:
        aop = code[i, C_F1]
        t = code[i, C_F2]
        gather(code, i, w, E, R, UR, P, UP, sc)  # the data operands (slots 1 and 2)
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
            scatter(code, i, 0, w, E, R, UR, sc, SC_RES64, width == 8)
    elif op == E_LDGSTS:
        S = SC_TMP + 2
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
    elif is_store:
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
    else:
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
    # what the access moved: sectors (global, local) or wavefronts (shared)
    mpos = ctl[CTL_MPOS]
    nbytes = nlanes * width
    if space == 1:
        if generic:
            cls_ = M_SHARED_LOAD if op == E_LD else (M_SHARED_STORE if op == E_ST else M_SHARED_ATOMIC)
        if generic:
            for lane in range(32):
                sc[O, lane] = sc[A, lane] - ctx[8]
            waves, ideal = _wavefronts(sc, O, E, width, wscr)
        else:
            waves, ideal = _wavefronts(sc, A, E, width, wscr)
        _record(cls_, waves, -1, pos, mpos, m_pos, m_cls, m_n, m_ideal, m_first, acc, nbytes, nlanes, ideal)
        ctl[CTL_MPOS] = mpos + 1
        return 0
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
                    a = ctx[10] + ((gw * (frame >> 2) + word) * 32 + lane) * 4
                    nsec = _add_sector(sect, first, nsec, a >> 5)
    ctl[CTL_SPOS] = first + nsec
    _record(cls_, nsec, first, pos, mpos, m_pos, m_cls, m_n, m_ideal, m_first, acc, nbytes, nlanes, 0)
    ctl[CTL_MPOS] = mpos + 1
    if op == E_LDGSTS:  # its shared side: a store of the same bytes
        mpos = ctl[CTL_MPOS]
        waves, ideal = _wavefronts(sc, SC_TMP + 2, E, width, wscr)
        _record(M_SHARED_STORE, waves, -1, pos, mpos, m_pos, m_cls, m_n, m_ideal, m_first, acc, nbytes, nlanes,
                ideal)
        ctl[CTL_MPOS] = mpos + 1
    return 0


# -- convergence -------------------------------------------------------------------------------------
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


# -- the run ------------------------------------------------------------------------------------------
@njit
def _start_block(blk, launch, ctx, nw, R, P, UR, UP, B, lpc, lst, larg, wrow, wmask, wdiv, wcount, bar_res,
                 bar_cnt, bar_exp, bar_red, smem8, lmem8, sm_of_block):
    gx, gy = launch[G_GX], launch[G_GY]
    ctx[0] = blk % gx
    ctx[1] = (blk // gx) % gy
    ctx[2] = blk // (gx * gy)
    ctx[6] = sm_of_block[blk] if sm_of_block.shape[0] > blk else blk % launch[G_NSM]
    threads = launch[G_THREADS]
    R[:nw, :launch[G_NREGS]] = 0
    P[:nw] = 0
    P[:nw, 7, :] = 1
    UR[:nw] = 0
    UP[:nw] = 0
    UP[:nw, 7] = 1
    B[:nw] = 0
    larg[:nw] = 0
    lpc[:nw] = 0
    for w in range(nw):
        for lane in range(32):
            lst[w, lane] = L_READY if w * 32 + lane < threads else L_ABSENT
        wcount[w] = 0
        bar_res[w] = 0
        _select(w, lst, lpc, wrow, wmask, wdiv)
    bar_cnt[:] = 0
    bar_exp[:] = 0
    bar_red[:] = 0
    smem8[:] = 0
    lmem8[:] = 0


@njit
def run(code, launch, sm_of_block, R, P, UR, UP, B, lpc, lst, larg, wrow, wmask, wdiv, wcount, bar_res,
        bar_cnt, bar_exp, bar_red, heap8, heap32, gtab, smem8, smem32, lmem8, lmem32, cbank, ctx,
        s_warp, s_row, s_act, s_exe, m_pos, m_cls, m_n, m_ideal, m_first, sect, acc, st_exec, st_act, st_exe, ctl,
        err, sc, wscr, hint):
    """Execute blocks from ctl[CTL_BLOCK] up to launch[G_LAST]; see the module docstring."""
    nw = launch[G_WARPS]
    n_rows = code.shape[0]
    cap = s_row.shape[0]
    mcap = m_pos.shape[0]
    scap = sect.shape[0]
    limit = launch[G_LIMIT]
    slice_len = launch[G_SLICE]
    while ctl[CTL_BLOCK] < launch[G_LAST]:
        blk = ctl[CTL_BLOCK]
        if ctl[CTL_STARTED] == 0:
            if ctl[CTL_POS] >= ctl[CTL_SOFT]:
                return S_FULL  # a chunk of whole blocks is ready
            _start_block(blk, launch, ctx, nw, R, P, UR, UP, B, lpc, lst, larg, wrow, wmask, wdiv, wcount,
                         bar_res, bar_cnt, bar_exp, bar_red, smem8, lmem8, sm_of_block)
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
                # the guard
                g = code[i, C_GUARD]
                if g == 7 or g == 15:
                    E = M
                    if code[i, C_GNEG] == 1:
                        E = np.int64(0)
                elif g >= 8:
                    gv = UP[w, g - 8] != 0
                    if code[i, C_GNEG] == 1:
                        gv = not gv
                    E = M if gv else np.int64(0)
                else:
                    E = np.int64(0)
                    neg = code[i, C_GNEG] == 1
                    for lane in range(32):
                        if (M >> lane) & 1:
                            pv = P[w, g, lane] != 0
                            if pv != neg:
                                E |= np.int64(1) << lane
                # record the issue
                s_warp[pos] = ctl[CTL_WARP_BASE] + w
                s_row[pos] = i
                s_act[pos] = M
                s_exe[pos] = E
                ctl[CTL_POS] = pos + 1
                ctl[CTL_TOTAL] += 1
                wcount[w] += 1
                na = _popc(M)
                ne = _popc(E)
                acc[A_WARP_INSTR] += 1
                acc[A_ACTIVE_LANES] += na
                acc[A_EXEC_LANES] += ne
                st_exec[i] += 1
                st_act[i] += na
                st_exe[i] += ne
                uni = code[i, C_UNIF] == 1
                if uni and E != 0 and op != E_VOTE:
                    E = np.int64(1) << _first_lane(E)  # the uniform datapath executes once
                # execute
                advance = True  # the whole group goes on to the next row
                if op >= 80 or op == E_LDC:
                    if E != 0:
                        rc = mem(code, i, op, E, w, R, P, UR, UP, blk, heap8, heap32, gtab, smem8, smem32, lmem8,
                                 lmem32, cbank, ctx, pos, ctl, m_pos, m_cls, m_n, m_ideal, m_first, sect, acc, err, sc,
                                 wscr, hint)
                        if rc != 0:
                            return S_ERROR
                elif op < 60:
                    if op == E_UNSUPPORTED:
                        _fail(err, ERR_UNSUPPORTED, i, blk, w, _first_lane(M), 0, 0, 0)
                        return S_ERROR
                    if E != 0:
                        rc = alu(code, i, op, E, w, R, P, UR, UP, ctx, wcount, ctl[CTL_TOTAL] - ctl[CTL_BLOCK_T0],
                                 sc)
                        if rc != 0:
                            _fail(err, rc, i, blk, w, _first_lane(M), 0, 0, 0)
                            return S_ERROR
                elif op == E_BRA:
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
                    scatter(code, i, 0, w, E, R, UR, sc, SC_RES, False)
                elif op == E_CALL:
                    if E == M:
                        wrow[w] = code[i, C_TARGET]
                        advance = False
                    elif E != 0:
                        _fail(err, ERR_UNSUPPORTED, i, blk, w, _first_lane(M), 0, 0, 0)
                        return S_ERROR
                elif op == E_RET:
                    if E != 0:
                        _writeback(w, lpc, wrow, wmask)
                        for lane in range(32):
                            if (M >> lane) & 1:
                                if (E >> lane) & 1:
                                    t = _raw(code, i, 0, w, lane, R, UR)
                                    if t % 16 != 0 or t // 16 >= n_rows:
                                        _fail(err, ERR_PC, i, blk, w, lane, t, 0, 0)
                                        return S_ERROR
                                    lpc[w, lane] = t // 16
                                else:
                                    lpc[w, lane] = i + 1
                        _select(w, lst, lpc, wrow, wmask, wdiv)
                        advance = False
                elif op == E_BRX:  # per lane: the next instruction's offset + Ra + imm (a jump table's case)
                    if E != 0:
                        _writeback(w, lpc, wrow, wmask)
                        for lane in range(32):
                            if (M >> lane) & 1:
                                if (E >> lane) & 1:
                                    t = 16 * (i + 1) + _sext32(_raw(code, i, 0, w, lane, R, UR)) + code[i, C_E0]
                                    if t < 0 or t % 16 != 0 or t // 16 >= n_rows:
                                        _fail(err, ERR_PC, i, blk, w, lane, t, 0, 0)
                                        return S_ERROR
                                    lpc[w, lane] = t // 16
                                else:
                                    lpc[w, lane] = i + 1
                        _select(w, lst, lpc, wrow, wmask, wdiv)
                        advance = False
                elif op == E_BMOV_R:
                    x = code[i, C_E0]
                    for lane in range(32):
                        sc[SC_RES, lane] = np.int64(B[w, x])
                    scatter(code, i, 0, w, E, R, UR, sc, SC_RES, False)
                    if E != 0 and code[i, C_F1] == 1:
                        B[w, x] = 0
                elif op == E_BMOV_B:
                    lane = _first_lane(E)
                    if lane >= 0:
                        B[w, code[i, C_E0]] = _raw(code, i, 1, w, lane, R, UR)
                if advance:
                    wrow[w] = i + 1
                    if wdiv[w] == 1:  # merge the lanes waiting at the new pc
                        nr = i + 1
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
            if done:
                # everything left is waiting (barriers) or has exited
                _release_bars(nw, lst, larg, lpc, bar_cnt, bar_exp, bar_red, bar_res, wrow, wmask, wdiv)
                any_ready = False
                for ww in range(nw):
                    _release_all(ww, lst, larg, lpc, B)
                    if _select(ww, lst, lpc, wrow, wmask, wdiv):
                        any_ready = True
                if not any_ready:
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
                        return S_ERROR
                    break  # the block is finished
        ctl[CTL_STARTED] = 0
        ctl[CTL_BLOCK] = blk + 1
        acc[A_BLOCKS_DONE] += 1
    return S_DONE


