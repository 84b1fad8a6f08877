"""Floating-point rules of the executor: bit casts, IEEE rounding to FP32/FP16/BF16, fused multiply-add.

Why not numpy's float32 arithmetic: a GPU's FFMA rounds ``a*b + c`` once, and the slow
paths ptxas emits for division and square root use directed rounding (``FFMA.RM``,
``FFMA.RP``) and flush-to-zero forms. Here every FP32, FP16 and BF16 result is the exact
value rounded once, from a double-double ``s + e`` (``s`` the double nearest the exact
value, ``e`` the exact remainder):

- a*b of two FP32 (or FP16) numbers is exact in a double; a + b is ``two_sum`` (Knuth,
  TAOCP vol. 2, 4.2.2: s + e == a + b exactly);
- rounding a double that is itself the correctly rounded sum to FP32 gives the correctly
  rounded FP32 result for + and * (Figueroa, "When is double rounding innocuous?", 1995:
  the wider format has >= 2p + 2 bits); for the three-operand FMA only the case where ``s``
  lies exactly halfway between two FP32 numbers needs ``e``, which :func:`round_dd` uses;
- FP64 FMA uses LLVM's ``llvm.fma.f64`` (exact; the CPU's FMA instruction or libm's fma).

Rounding modes (IEEE 754 / PTX ISA ``.rn .rm .rp .rz``) and flush-to-zero (PTX ``.ftz``:
subnormal inputs and results become zero of the same sign) follow the PTX ISA's
floating-point chapter. Everything here compiles with numba (``explorer.jit.runtime.njit``)
and also runs as plain Python when numba is absent.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from explorer.sass.execute.jit import njit
from explorer.jit.runtime import JIT

RN, RM, RP, RZ = 0, 1, 2, 3
F32_P, F32_EMIN, F32_EMAX = 24, -126, 127
F16_P, F16_EMIN, F16_EMAX = 11, -14, 15
BF16_P = 8
F64_P, F64_EMIN, F64_EMAX = 53, -1022, 1023

if JIT:  # pragma: no cover - the environment decides
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def _u32_as_f32(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(builder.trunc(args[0], ir.IntType(32)), ir.FloatType())
        return types.float32(types.int64), codegen

    @intrinsic
    def _f32_as_u32(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.zext(builder.bitcast(args[0], ir.IntType(32)), ir.IntType(64))
        return types.int64(types.float32), codegen

    @intrinsic
    def _u64_as_f64(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.DoubleType())
        return types.float64(types.int64), codegen

    @intrinsic
    def _f64_as_u64(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.IntType(64))
        return types.int64(types.float64), codegen

    @intrinsic
    def _fma64(typingctx, a, b, c):
        def codegen(context, builder, signature, args):
            from numba.core import cgutils

            d = ir.DoubleType()
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(d, [d, d, d]), "llvm.fma.f64")
            return builder.call(fn, args)
        return types.float64(types.float64, types.float64, types.float64), codegen

    @njit
    def as_f32(u):
        """FP32 value of the low 32 bits of ``u`` (an int)."""
        return _u32_as_f32(np.int64(u))

    @njit
    def bits32(f):
        """The 32 bits of an FP32 value, as a non-negative int."""
        return _f32_as_u32(np.float32(f))

    @njit
    def as_f64(u):
        return _u64_as_f64(np.int64(u))

    @njit
    def bits64(f):
        """The 64 bits of a double, as a signed int64 (two's complement)."""
        return _f64_as_u64(np.float64(f))

    @njit
    def fma64(a, b, c):
        return _fma64(np.float64(a), np.float64(b), np.float64(c))

else:  # plain Python

    def as_f32(u):
        return np.float32(struct.unpack("<f", struct.pack("<I", int(u) & 0xFFFFFFFF))[0])

    def bits32(f):
        return struct.unpack("<I", struct.pack("<f", float(np.float32(f))))[0]

    def as_f64(u):
        return struct.unpack("<d", struct.pack("<Q", int(u) & 0xFFFFFFFFFFFFFFFF))[0]

    def bits64(f):
        return struct.unpack("<q", struct.pack("<d", float(f)))[0]

    def fma64(a, b, c):
        from fractions import Fraction

        a, b, c = float(a), float(b), float(c)
        if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
            return a * b + c
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        try:
            return float(exact) if exact != 0 else (a * b + c)
        except OverflowError:
            return math.copysign(math.inf, exact)


@njit
def two_sum(a, b):
    """(s, e) with s = fl(a + b) and s + e == a + b exactly (doubles)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    if not math.isfinite(s):
        e = 0.0
    return s, e


@njit
def round_dd(s, e, p, emin, emax, mode):
    """The value s + e (a double-double) rounded to a binary format of ``p`` significant bits,
    normal exponents ``emin..emax`` (with subnormals), by ``mode``; returned as a double."""
    if s != s or s == 0.0 or not math.isfinite(s):
        return s
    neg = s < 0.0
    a = -s if neg else s
    de = -e if neg else e  # > 0: the exact magnitude is above a
    m, ex = math.frexp(a)  # a = m * 2**ex, 0.5 <= m < 1
    top = ex - 1  # a in [2**top, 2**(top + 1))
    lsb = (top if top > emin else emin) - (p - 1)
    ulp = math.ldexp(1.0, lsb)
    q = a / ulp
    fl = math.floor(q)
    frac = q - fl
    up = False
    below = False  # the result is the representable number just below a (a exact, remainder negative)
    away = (mode == RP and not neg) or (mode == RM and neg)
    if mode == RN:
        if frac > 0.5:
            up = True
        elif frac == 0.5:
            if de > 0.0:
                up = True
            elif de == 0.0:
                up = fl - 2.0 * math.floor(fl * 0.5) == 1.0
    elif away:
        up = frac > 0.0 or (frac == 0.0 and de > 0.0)
    else:  # toward zero
        below = frac == 0.0 and de < 0.0
    if below:
        step = ulp * 0.5 if (m == 0.5 and top > emin) else ulp
        r = a - step
    else:
        r = (fl + 1.0) * ulp if up else fl * ulp
    big = math.ldexp(1.0, emax) * (2.0 - math.ldexp(1.0, 1 - p))  # the largest finite number
    if r > big:
        if mode == RN or away:
            r = math.inf
        else:
            r = big
    return -r if neg else r


@njit
def flush32(x):
    """FP32 flush-to-zero: a subnormal value becomes a zero of the same sign."""
    if x != 0.0 and abs(x) < 1.1754943508222875e-38:
        return -0.0 if x < 0.0 else 0.0
    return x


@njit
def to_f32(s, e, mode, ftz):
    """A double-double rounded to FP32 (as a double holding the FP32 value)."""
    if mode == RN and e == 0.0:
        r = np.float64(np.float32(s))
    elif mode == RN:
        b = bits64(s)
        ex = (b >> 52) & 0x7FF
        if 897 <= ex <= 1150 and (b & 0x1FFFFFFF) != 0x10000000:
            r = np.float64(np.float32(s))  # not halfway between two FP32 numbers: one rounding is exact
        else:
            r = round_dd(s, e, F32_P, F32_EMIN, F32_EMAX, mode)
    else:
        r = round_dd(s, e, F32_P, F32_EMIN, F32_EMAX, mode)
    if ftz:
        r = flush32(r)
    return r


@njit
def f32_add(a, b, mode, ftz):
    if ftz:
        a, b = flush32(a), flush32(b)
    s, e = two_sum(np.float64(a), np.float64(b))
    return to_f32(s, e, mode, ftz)


@njit
def f32_mul(a, b, mode, ftz):
    if ftz:
        a, b = flush32(a), flush32(b)
    return to_f32(np.float64(a) * np.float64(b), 0.0, mode, ftz)


@njit
def f32_fma(a, b, c, mode, ftz):
    if ftz:
        a, b, c = flush32(a), flush32(b), flush32(c)
    p = np.float64(a) * np.float64(b)  # exact: 24 + 24 bits
    s, e = two_sum(p, np.float64(c))
    return to_f32(s, e, mode, ftz)


@njit
def saturate(x):
    """.SAT: clamp to [0, 1], NaN to 0 (PTX ISA, .sat on floating-point results)."""
    if x != x or x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    return x


# -- half precision ----------------------------------------------------------------------
@njit
def f16_value(h):
    """The value of FP16 bits ``h`` (the low 16 bits of an int) as a double."""
    h = h & 0xFFFF
    sign = -1.0 if (h >> 15) else 1.0
    ex = (h >> 10) & 0x1F
    man = h & 0x3FF
    if ex == 0x1F:
        return sign * math.inf if man == 0 else math.nan
    if ex == 0:
        return sign * math.ldexp(np.float64(man), -24)
    return sign * math.ldexp(np.float64(man | 0x400), ex - 25)


@njit
def bf16_value(h):
    return np.float64(as_f32((h & 0xFFFF) << 16))


@njit
def f16_bits(s, e, mode, ftz):
    """A double-double rounded to FP16 bits (RN by default; NaN -> 0x7fff)."""
    if s != s:
        return 0x7FFF
    r = round_dd(s, e, F16_P, F16_EMIN, F16_EMAX, mode)
    neg = r < 0.0 or (r == 0.0 and math.copysign(1.0, r) < 0.0)
    a = -r if neg else r
    if ftz and a < 6.103515625e-05:
        a = 0.0
    if math.isinf(a):
        out = 0x7C00
    elif a == 0.0:
        out = 0
    elif a < 6.103515625e-05:  # subnormal: a multiple of 2**-24
        out = int(a * 16777216.0)
    else:
        m, ex = math.frexp(a)  # a = m 2**ex
        out = ((ex - 1 + 15) << 10) | (int(m * 2048.0) & 0x3FF)
    return out | (0x8000 if neg else 0)


@njit
def bf16_bits(s, e, mode, ftz):
    """A double-double rounded to BF16 bits (the top half of an FP32 number)."""
    if s != s:
        return 0x7FFF
    r = round_dd(s, e, BF16_P, F32_EMIN, F32_EMAX, mode)
    if ftz:
        r = flush32(r)
    return (bits32(np.float32(r)) >> 16) & 0xFFFF


@njit
def half_value(h, bf):
    return bf16_value(h) if bf else f16_value(h)


@njit
def half_bits(s, e, mode, ftz, bf):
    return bf16_bits(s, e, mode, ftz) if bf else f16_bits(s, e, mode, ftz)


# -- integers <-> floats ---------------------------------------------------------------------
@njit
def int_to_float(v, unsigned, fmt, mode):
    """Integer ``v`` (an int64 holding the bits; ``unsigned`` reads them as uint64) rounded to
    fmt 0 FP32, 1 FP64, 2 FP16 (as a double holding the value)."""
    if unsigned and v < 0:  # above 2**63: exact as high part + low part
        hi = np.float64((v >> 1) & 0x7FFFFFFFFFFFFFFF) * 2.0
        lo = np.float64(v & 1)
        s, e = two_sum(hi, lo)
    else:
        s = np.float64(v)
        if abs(v) > 9007199254740992:
            e = np.float64(v - np.int64(s)) if abs(s) < 9.2e18 else 0.0
        else:
            e = 0.0
    if fmt == 0:
        return round_dd(s, e, F32_P, F32_EMIN, F32_EMAX, mode)
    if fmt == 1:
        return round_dd(s, e, F64_P, F64_EMIN, F64_EMAX, mode)
    return round_dd(s, e, F16_P, F16_EMIN, F16_EMAX, mode)


@njit
def float_to_int(x, mode, lo, hi):
    """Float ``x`` rounded by ``mode`` to an integer, saturated to [lo, hi]; NaN -> 0 (PTX cvt)."""
    if x != x:
        return np.int64(0)
    if mode == RN:
        r = np.rint(x)
    elif mode == RM:
        r = math.floor(x) if math.isfinite(x) else x
    elif mode == RP:
        r = math.ceil(x) if math.isfinite(x) else x
    else:
        r = math.trunc(x) if math.isfinite(x) else x
    if r <= np.float64(lo):
        return np.int64(lo)
    if r >= np.float64(hi):
        return np.int64(hi)
    return np.int64(r)


@njit
def float_to_u64(x, mode):
    """Float to uint64 (saturating; the bits returned as int64)."""
    if x != x or x <= 0.0:
        return np.int64(0)
    if mode == RN:
        r = np.rint(x)
    elif mode == RM:
        r = math.floor(x) if math.isfinite(x) else x
    elif mode == RP:
        r = math.ceil(x) if math.isfinite(x) else x
    else:
        r = math.trunc(x) if math.isfinite(x) else x
    if r >= 18446744073709551615.0:
        return np.int64(-1)
    if r >= 9223372036854775808.0:
        return np.int64(np.int64(r - 9223372036854775808.0) ^ np.int64(-9223372036854775808))
    return np.int64(r)


# -- special functions ------------------------------------------------------------------------
@njit
def mufu(fn, x):
    """MUFU's function ``fn`` (isa.MUFU_*) of an FP32 value, rounded to FP32, subnormals flushed."""
    x = flush32(x)
    if fn == 0:  # RCP
        r = 1.0 / x if x != 0.0 else math.copysign(math.inf, x)
    elif fn == 1:  # RSQ
        if x < 0.0 or x != x:
            r = math.nan
        elif x == 0.0:
            r = math.copysign(math.inf, x)
        else:
            r = 1.0 / math.sqrt(x)
    elif fn == 2:  # SQRT
        r = math.sqrt(x) if x >= 0.0 else (x if x == 0.0 else math.nan)
    elif fn == 3:  # EX2
        if x != x:
            r = x
        elif x > 200.0:
            r = math.inf
        elif x < -200.0:
            r = 0.0
        else:
            r = math.pow(2.0, x)
    elif fn == 4:  # LG2
        if x != x or x < 0.0:
            r = math.nan
        elif x == 0.0:
            r = -math.inf
        elif math.isinf(x):
            r = x
        else:
            r = math.log2(x)
    elif fn == 5:  # SIN (the angle in turns)
        r = math.sin(2.0 * math.pi * x) if math.isfinite(x) else math.nan
    elif fn == 6:  # COS
        r = math.cos(2.0 * math.pi * x) if math.isfinite(x) else math.nan
    elif fn == 7:  # TANH
        r = math.tanh(x)
    else:
        r = math.nan
    return flush32(np.float64(np.float32(r)))


@njit
def mufu64h(fn, hi):
    """MUFU.RCP64H / RSQ64H: the high word of an approximate 1/x or 1/sqrt(x) of the double
    whose high word is ``hi`` (low word taken as 0): the seed of ptxas' FP64 division and square root."""
    x = as_f64((hi & 0xFFFFFFFF) << 32)
    if fn == 8:
        r = 1.0 / x if x != 0.0 else math.copysign(math.inf, x)
    else:
        if x < 0.0 or x != x:
            r = math.nan
        elif x == 0.0:
            r = math.copysign(math.inf, x)
        else:
            r = 1.0 / math.sqrt(x)
    return (bits64(r) >> 32) & 0xFFFFFFFF
