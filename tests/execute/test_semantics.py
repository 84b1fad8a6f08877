"""Each supported opcode's semantics against hand-computed values, with the rule's source.

Sources: NVIDIA CUDA Binary Utilities, "Instruction Set Reference" (CBU: each opcode's
one-line meaning); the PTX ISA for the PTX instruction each SASS form implements (PTX);
Jia et al. 2018/2019 and the compiler's own code where the operand roles are only visible
there (ptxas: how the instruction is used in code it emits, quoted in each test).
No compiler or GPU is needed: instructions are parsed from their text.
"""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from tests.execute.support import FULL, Warp

LANES = np.arange(32)


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def as_float(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


# -- integer ---------------------------------------------------------------------------------------
def test_iadd3_sums_three_operands_and_sets_the_carry():
    # CBU IADD3 "3-input integer addition"; the carry-out predicate feeds IADD3.X in 64-bit adds
    # (PTX add.cc / addc): 0xffffffff + 2 = 0x1_00000001
    w = Warp().set("R1", 0xFFFFFFFF).set("R2", 2).run("IADD3 R0, P0, R1, R2, RZ")
    assert w.r("R0", 0) == 1 and w.p("P0", 0)
    w.set("R4", 7).set("R5", 9).run("IADD3.X R3, R4, R5, RZ, P0, !PT")
    assert w.r("R3", 0) == 7 + 9 + 1


def test_iadd3_negated_operand_is_twos_complement():
    # -a is ~a + 1: 3 - 5 = -2 = 0xfffffffe; the carry of a - b is "no borrow" (a >= b)
    w = Warp().set("R1", 5).set("R2", 3).run("IADD3 R0, P0, -R1, R2, RZ")
    assert w.r("R0", 0) == 0xFFFFFFFE and not w.p("P0", 0)
    w.run("IADD3 R0, P0, -R2, R1, RZ")
    assert w.r("R0", 0) == 2 and w.p("P0", 0)


def test_imad_forms():
    w = Warp().set("R1", 0x10000).set("R2", 0x10001).set("R3", 5)
    w.run("IMAD R0, R1, R2, R3")  # low 32 bits of a*b + c (PTX mad.lo.u32)
    assert w.r("R0", 0) == (0x10000 * 0x10001 + 5) & 0xFFFFFFFF
    w.set("R1", -3).set("R2", 5).set64("R6", 1 << 32)
    w.run("IMAD.WIDE R8, R1, R2, R6")  # signed 32x32 -> 64, plus a 64-bit addend (PTX mad.wide.s32)
    assert w.r64("R8") == ((1 << 32) - 15) & (2**64 - 1)
    w.set("R1", 0xFFFFFFFF).set("R2", 0xFFFFFFFF).run("IMAD.WIDE.U32 R8, R1, R2, RZ")
    assert w.r64("R8") == 0xFFFFFFFE00000001
    w.run("IMAD.MOV.U32 R9, RZ, RZ, -0x7")  # ptxas' move: 0 * 0 + imm
    assert w.r("R9", 0) == 0xFFFFFFF9


def test_imad_hi_adds_a_register_pair():
    # ptxas' unsigned division: HFMA2.MMA R4, -RZ, RZ, 0, 0 (R4 = 0) then IMAD.HI.U32 R5, R5, R7, R4:
    # the addend is the pair R5:R4 = q << 32, so R5 = q + umulhi(q, e) (PTX mad.hi.u32 with the
    # estimate's correction); with RZ it is plain mul.hi
    q, e = 0x80000000, 0x40000000
    w = Warp().set("R5", q).set("R7", e).set("R4", 0).run("IMAD.HI.U32 R5, R5, R7, R4")
    assert w.r("R5", 0) == (q + ((q * e) >> 32)) & 0xFFFFFFFF
    w.set("R1", 0xFFFFFFFF).set("R2", 3).run("IMAD.HI.U32 R0, R1, R2, RZ")
    assert w.r("R0", 0) == (0xFFFFFFFF * 3) >> 32
    w.set("R1", -1 & 0xFFFFFFFF).set("R2", 1).run("IMAD.HI R0, R1, R2, RZ")  # signed: -1 * 1 = -1
    assert w.r("R0", 0) == 0xFFFFFFFF


def test_lea_lo_and_hi_make_a_64_bit_address():
    # CBU LEA "load effective address": d = (a << s) + b with a carry; LEA.HI.X adds the high part
    # of (c:a) << s and the carry: ptxas' &p[i] for a 64-bit i = (R7:R6), base c[0x160]:c[0x164]
    base, i = 0x7F0000000F00, 0x1_0000_0041
    w = Warp().set("R6", i & 0xFFFFFFFF).set("R7", i >> 32).set("R8", base & 0xFFFFFFFF).set("R9", base >> 32)
    w.run("LEA R4, P0, R6, R8, 0x2").run("LEA.HI.X R5, R6, R9, R7, 0x2, P0")
    assert w.r64("R4") == (base + 4 * i) & (2**64 - 1)


def test_lea_hi_sign_trick_of_signed_division():
    # x / 32 for signed x: ptxas emits SHF.R.S32.HI R5, RZ, 0x1f, R0 (sign) then LEA.HI R5, R5, R0,
    # RZ, 0x5 = x + (sign >>> 27), then SHF.R.S32.HI by 5 (rounding toward zero)
    x = -33
    w = Warp().set("R0", x).run("SHF.R.S32.HI R5, RZ, 0x1f, R0").run("LEA.HI R5, R5, R0, RZ, 0x5")
    w.run("SHF.R.S32.HI R6, RZ, 0x5, R5")
    assert np.int32(np.uint32(w.r("R6", 0))) == int(x / 32)


@pytest.mark.parametrize("lut,fn", [(0xC0, lambda a, b, c: a & b), (0xFC, lambda a, b, c: a | b),
                                    (0x3C, lambda a, b, c: a ^ b), (0x96, lambda a, b, c: a ^ b ^ c),
                                    (0xE8, lambda a, b, c: (a & b) | (a & c) | (b & c)),
                                    (0x33, lambda a, b, c: ~b)])
def test_lop3_truth_table(lut, fn):
    # PTX lop3.b32: the LUT is F(0xF0, 0xCC, 0xAA) of the three inputs' bits
    a, b, c = 0x12345678, 0x0F0F0FF0, 0xFF00FF00
    w = Warp().set("R1", a).set("R2", b).set("R3", c).run(f"LOP3.LUT R0, R1, R2, R3, {hex(lut)}, !PT")
    assert w.r("R0", 0) == fn(a, b, c) & 0xFFFFFFFF


def test_lop3_predicate_output_is_nonzero_result():
    # ptxas tests a bit with LOP3.LUT P0, RZ, R9, 0x1f, RZ, 0xc0, !PT: P0 = (R9 & 0x1f) != 0
    w = Warp().set("R9", LANES).run("LOP3.LUT P0, RZ, R9, 0x1f, RZ, 0xc0, !PT")
    assert list(w.p("P0")) == [bool(x & 0x1F) for x in LANES]


def test_funnel_shifts():
    # CBU SHF "funnel shift": (hi:lo) shifted; PTX shf.l/shf.r (clamp unless .W wraps the count)
    w = Warp().set("R7", 0x80000001).run("SHF.L.U32 R0, R7, 0x2, RZ")
    assert w.r("R0", 0) == 0x00000004
    w.set("R2", 0x89ABCDEF).set("R3", 0x01234567).run("SHF.R.U64 R4, R2, 0x4, R3").run("SHF.R.U32.HI R5, RZ, 0x4, R3")
    assert w.r64("R4") == 0x0123456789ABCDEF >> 4
    w.set("R0", -8 & 0xFFFFFFFF).run("SHF.R.S32.HI R1, RZ, 0x1, R0")
    assert w.r("R1", 0) == (-4) & 0xFFFFFFFF
    w.set("R5", 33).set("R2", 0x100).run("SHF.R.W.U32.HI R6, RZ, R5, R2")  # wraps: 33 & 31 = 1
    assert w.r("R6", 0) == 0x80
    w.set("R5", 40).run("SHF.L.U32 R6, R2, R5, RZ")  # clamps at 32: everything shifted out
    assert w.r("R6", 0) == 0


def test_isetp_signed_unsigned_and_the_combining_predicate():
    # CBU ISETP "integer compare and set predicate": Pd = (a cmp b) op Pc, Pq = !(a cmp b) op Pc
    w = Warp().set("R0", -1 & 0xFFFFFFFF).set("R1", 1)
    w.run("ISETP.GE.AND P0, P1, R0, R1, PT")
    assert not w.p("P0", 0) and w.p("P1", 0)
    w.run("ISETP.GE.U32.AND P0, PT, R0, R1, PT")  # 0xffffffff >= 1 unsigned
    assert w.p("P0", 0)
    w.set("P2", True).run("ISETP.GT.OR P3, PT, R1, R0, P2")  # false OR true
    assert w.p("P3", 0)


def test_isetp_ex_compares_64_bit_values():
    # ptxas' 64-bit i < n: ISETP.GE.U32.AND P0, PT, lo, nlo, PT then ISETP.GE.AND.EX P0, PT, hi, nhi, PT, P0
    for a, b in ((5, 7), (7, 5), ((1 << 32) + 1, (1 << 32) + 2), (-1, 3), (3, -1), (1 << 40, 1 << 40)):
        w = Warp().set("R2", a & 0xFFFFFFFF).set("R3", (a >> 32) & 0xFFFFFFFF)
        w.set("R4", b & 0xFFFFFFFF).set("R5", (b >> 32) & 0xFFFFFFFF)
        w.run("ISETP.GE.U32.AND P0, PT, R2, R4, PT").run("ISETP.GE.AND.EX P0, PT, R3, R5, PT, P0")
        assert w.p("P0", 0) == (a >= b), (a, b)


def test_min_max_select_and_bit_counts():
    w = Warp().set("R1", -5 & 0xFFFFFFFF).set("R2", 3)
    w.run("IMNMX R0, R1, R2, PT")  # PT: min, signed (CBU IMNMX)
    assert w.r("R0", 0) == (-5) & 0xFFFFFFFF
    w.run("IMNMX.U32 R0, R1, R2, PT")  # unsigned min
    assert w.r("R0", 0) == 3
    w.run("VIMNMX R0, R1, R2, !PT")  # Hopper's form: !PT = max
    assert w.r("R0", 0) == 3
    w.set("P0", LANES % 2 == 0).run("SEL R4, R1, R2, P0")  # PTX selp
    assert list(w.r("R4")) == [0xFFFFFFFB if k % 2 == 0 else 3 for k in LANES]
    w.set("R3", 0xF0F0).run("POPC R5, R3").run("IABS R6, R1")
    assert w.r("R5", 0) == 8 and w.r("R6", 0) == 5
    w.set("R3", 0x00010000).run("FLO.U32 R7, R3").run("FLO.U32.SH R8, R3")  # PTX bfind(.shiftamt)
    assert w.r("R7", 0) == 16 and w.r("R8", 0) == 15
    w.set("R3", 0).run("FLO.U32 R7, R3")
    assert w.r("R7", 0) == 0xFFFFFFFF
    w.set("R3", 0x1).run("BREV R9, R3")
    assert w.r("R9", 0) == 0x80000000


def test_prmt_byte_permute():
    # PTX prmt.b32 default mode: selector nibble j picks byte (n & 7) of {b, a}; bit 3 replicates its sign
    a, b = 0x44332211, 0x88776655
    w = Warp().set("R1", a).set("R2", b)
    w.set("R3", 0x0123).run("PRMT R0, R1, R3, R2")
    assert w.r("R0", 0) == 0x11223344
    w.set("R3", 0x7654).run("PRMT R0, R1, R3, R2")
    assert w.r("R0", 0) == b
    w.set("R3", 0x8880 | 0x7).run("PRMT R0, R1, R3, R2")  # byte 7 = 0x88; nibble 8 -> sign of byte 0 (0x11)
    assert w.r("R0", 0) == 0x00000088


def test_plop3_and_bit_field_helpers():
    # PLOP3.LUT Pd, Pq, a, b, c, lut_d, lut_q (CBU: predicate logic): 0x80 = a & b & c
    w = Warp().set("P0", LANES % 2 == 0).set("P1", LANES % 3 == 0)
    w.run("PLOP3.LUT P2, PT, P0, P1, PT, 0x80, 0x0")
    assert list(w.p("P2")) == [k % 6 == 0 for k in LANES]
    w.set("R1", 4).set("R2", 3).run("BMSK R0, R1, R2")  # PTX bmsk: 3 ones from bit 4
    assert w.r("R0", 0) == 0b1110000
    w.set("R1", 0xF0).set("R2", 8).run("SGXT R0, R1, R2")  # PTX szext.s32: bit 7 is the sign
    assert w.r("R0", 0) == 0xFFFFFFF0
    w.run("SGXT.U32 R0, R1, R2")
    assert w.r("R0", 0) == 0xF0


# -- FP32 ----------------------------------------------------------------------------------------------
def test_ffma_rounds_once():
    # PTX fma.rn.f32: a*b + c with one rounding. a = b = 1 + 2^-23: a*b = 1 + 2^-22 + 2^-46, which
    # an unfused multiply rounds to 1 + 2^-22; with c = -(1 + 2^-22) only the fused result keeps 2^-46
    a = 1 + 2**-23
    c = -(1 + 2**-22)
    w = Warp().set("R1", a).set("R2", a).set("R3", c).run("FFMA R0, R1, R2, R3")
    assert w.f("R0") == 2**-46
    w.run("FMUL R4, R1, R2").run("FADD R5, R4, R3")
    assert w.f("R5") == 0.0


def test_directed_rounding_of_ffma():
    # ptxas' division slow path uses FFMA.RM/.RP (PTX fma.rm/.rp.f32): 1 + 2^-30 is between 1 and
    # the next float 1 + 2^-23
    w = Warp().set("R1", 1.0).set("R2", 2.0**-30).set("R3", 1.0)
    assert w.run("FFMA.RP R0, R1, R2, R3").r("R0", 0) == 0x3F800001
    assert w.run("FFMA.RM R0, R1, R2, R3").r("R0", 0) == 0x3F800000
    assert w.run("FFMA.RZ R0, R1, R2, R3").r("R0", 0) == 0x3F800000
    assert w.run("FFMA R0, R1, R2, R3").r("R0", 0) == 0x3F800000
    w.set("R3", -1.0).set("R1", -1.0).run("FFMA.RM R0, R1, R2, R3")  # -1 - 2^-30 rounds down (away from 0)
    assert w.r("R0", 0) == 0xBF800001


def test_flush_to_zero_and_saturate():
    tiny = 1e-40  # an FP32 subnormal
    w = Warp().set("R1", tiny).set("R2", 0.0)
    assert w.run("FADD R0, R1, R2").f("R0") == np.float32(tiny)
    assert w.run("FADD.FTZ R0, R1, R2").f("R0") == 0.0  # PTX .ftz: subnormal inputs are zero
    w.set("R1", 0.75).set("R2", 2.0).set("R3", 0.25)
    assert w.run("FFMA.SAT R0, R1, R2, R3").f("R0") == 1.0  # PTX .sat clamps to [0, 1]


def test_fmnmx_nan_and_fsetp_ordering():
    nan = float("nan")
    w = Warp().set("R1", nan).set("R2", 2.0)
    assert w.run("FMNMX R0, R1, R2, PT").f("R0") == 2.0  # PTX min.f32: a NaN operand gives the other
    w.set("R1", -1.0)
    assert w.run("FMNMX R0, R1, R2, !PT").f("R0") == 2.0 and w.run("FMNMX R0, R1, R2, PT").f("R0") == -1.0
    w.set("R1", nan)
    w.run("FSETP.GT.AND P0, PT, R1, R2, PT").run("FSETP.GTU.AND P1, PT, R1, R2, PT")
    assert not w.p("P0", 0) and w.p("P1", 0)  # PTX setp: ordered compares false with NaN, unordered true
    w.run("FSETP.NEU.AND P2, PT, R1, R1, PT")
    assert w.p("P2", 0)
    w.set("R1", 3.0).run("FSET.BF.GT.AND R3, R1, R2, PT")  # PTX set.gt.f32.f32: 1.0f when true (.BF)
    assert w.f("R3") == 1.0
    w.run("FSET.BF.LT.AND R3, R1, R2, PT")
    assert w.r("R3", 0) == 0


@pytest.mark.parametrize("fn,x,want", [("RCP", 4.0, 0.25), ("RSQ", 4.0, 0.5), ("EX2", 3.0, 8.0), ("LG2", 8.0, 3.0),
                                       ("SIN", 0.25, 1.0), ("COS", 0.5, -1.0), ("SQRT", 9.0, 3.0)])
def test_mufu(fn, x, want):
    # CBU MUFU "multi function operation"; SIN/COS take the angle in turns (ptxas multiplies by
    # 1/(2 pi) before: __sinf(x) is FMUL.RZ R0, R0, 0.15915... then MUFU.SIN R0, R0)
    w = Warp().set("R1", x).run(f"MUFU.{fn} R0, R1")
    assert w.f("R0") == pytest.approx(want, rel=1e-7, abs=1e-7)


def test_mufu_special_values():
    w = Warp().set("R1", 0.0)
    assert w.run("MUFU.RCP R0, R1").f("R0") == math.inf
    assert w.run("MUFU.LG2 R0, R1").f("R0") == -math.inf
    w.set("R1", -1.0)
    assert math.isnan(w.run("MUFU.RSQ R0, R1").f("R0"))


def test_frnd_and_fchk():
    w = Warp().set("R1", -2.5)
    assert w.run("FRND R0, R1").f("R0") == -2.0  # PTX cvt.rni: nearest even
    assert w.run("FRND.FLOOR R0, R1").f("R0") == -3.0
    assert w.run("FRND.CEIL R0, R1").f("R0") == -2.0
    assert w.run("FRND.TRUNC R0, R1").f("R0") == -2.0
    w.set("R1", 3.0).set("R2", 0.0).run("FCHK P0, R1, R2")  # x / 0 must take the slow path
    assert w.p("P0", 0)
    w.set("R2", 7.0).run("FCHK P0, R1, R2")
    assert not w.p("P0", 0)


# -- conversions -------------------------------------------------------------------------------------
def test_i2f_rounding_modes():
    # PTX cvt.rn/.rp/.rz.f32.u32: 0xffffffff is not an FP32 value
    w = Warp().set("R1", 0xFFFFFFFF)
    assert w.run("I2F.U32.RP R0, R1").f("R0") == 4294967296.0
    assert w.run("I2F.U32 R0, R1").f("R0") == 4294967296.0
    assert w.run("I2F.U32.RZ R0, R1").f("R0") == 4294967040.0
    w.set("R1", -3 & 0xFFFFFFFF)
    assert w.run("I2F R0, R1").f("R0") == -3.0 and w.run("I2FP.F32.S32 R0, R1").f("R0") == -3.0
    assert w.run("I2F.F64 R2, R1").f64("R2") == -3.0


def test_f2i_rounds_saturates_and_maps_nan_to_zero():
    w = Warp().set("R1", -2.7)
    assert np.int32(np.uint32(w.run("F2I.TRUNC.NTZ R0, R1").r("R0", 0))) == -2
    assert np.int32(np.uint32(w.run("F2I.FLOOR.NTZ R0, R1").r("R0", 0))) == -3
    assert np.int32(np.uint32(w.run("F2I R0, R1").r("R0", 0))) == -3  # nearest
    assert w.run("F2I.FTZ.U32.TRUNC.NTZ R0, R1").r("R0", 0) == 0  # negative -> 0 for unsigned (PTX cvt saturates)
    w.set("R1", 1e10)
    assert w.run("F2I.TRUNC.NTZ R0, R1").r("R0", 0) == 0x7FFFFFFF
    w.set("R1", float("nan"))
    assert w.run("F2I.TRUNC.NTZ R0, R1").r("R0", 0) == 0


def test_f2f_and_packing_to_half_and_bfloat16():
    w = Warp().set64("R2", 1.0 + 2**-30)
    assert w.run("F2F.F32.F64 R0, R2").f("R0") == 1.0  # PTX cvt.rn.f32.f64
    w.set("R4", 1.5).run("F2F.F64.F32 R6, R4")
    assert w.f64("R6") == 1.5
    # PTX cvt.rn.f16x2.f32 d, a, b: a in the upper half; 1.0 = 0x3c00, 2.0 = 0x4000
    w.set("R1", 1.0).set("R2", 2.0).run("F2FP.F16.F32.PACK_AB R0, R1, R2")
    assert w.r("R0", 0) == 0x3C004000
    w.run("F2FP.BF16.F32.PACK_AB R0, R1, R2")  # bf16: the top half of the FP32 bits
    assert w.r("R0", 0) == 0x3F804000
    w.set("R1", 1.0 + 2**-8 + 2**-20).run("F2FP.BF16.F32.PACK_AB R0, RZ, R1")  # rounds to nearest
    assert w.r("R0", 0) == 0x3F81


def test_half_precision_arithmetic():
    # HFMA2 per half, one rounding each (PTX fma.rn.f16x2); .H0_H0 broadcasts the low half
    h = lambda x: int(np.array([x], dtype=np.float16).view(np.uint16)[0])  # noqa: E731
    w = Warp().set("R1", (h(3.0) << 16) | h(2.0)).set("R2", (h(0.5) << 16) | h(4.0))
    w.run("HFMA2 R0, R1, R2, 0.5, 0.25")  # hi = 3*0.5 + 0.5, lo = 2*4 + 0.25
    assert w.r("R0", 0) == (h(2.0) << 16) | h(8.25)
    w.run("HFMA2 R0, R1.H0_H0, R2.H1_H1, -RZ")  # both halves 2 * 0.5
    assert w.r("R0", 0) == (h(1.0) << 16) | h(1.0)
    w.run("HADD2.F32 R3, -RZ, R1.H0_H0")  # ptxas' __half2float: one FP32 result
    assert w.f("R3") == 2.0
    # ptxas materialises the integer 4 as HFMA2.MMA R5, -RZ, RZ, 0, 2.38e-07 (halves: high 0, low 0x0004)
    assert Warp().run("HFMA2.MMA R5, -RZ, RZ, 0, 2.384185791015625e-07").r("R5", 0) == 4


# -- FP64 ------------------------------------------------------------------------------------------------
def test_fp64_arithmetic_rounds_once():
    a = 1 + 2**-52
    w = Warp().set64("R2", a).set64("R4", a).set64("R6", -(1 + 2**-51))
    w.run("DFMA R8, R2, R4, R6")  # exact a*b + c = 2^-104 (PTX fma.rn.f64)
    assert w.f64("R8") == 2**-104
    w.run("DMUL R10, R2, R4").run("DADD R12, R10, R6")
    assert w.f64("R12") == 0.0
    w.run("DSETP.GT.AND P0, PT, R2, R6, PT")
    assert w.p("P0", 0)


# -- warp-level ------------------------------------------------------------------------------------------
def test_shuffles_follow_ptx_shfl_sync():
    # PTX shfl.sync: c packs the clamp (bits 0-4) and the segment mask (bits 8-12); an out-of-range
    # source lane leaves the lane its own value and the predicate false
    w = Warp().set("R0", LANES * 10)
    w.run("SHFL.BFLY PT, R1, R0, 0x10, 0x1f")
    assert list(w.r("R1")) == list((LANES ^ 16) * 10)
    w.run("SHFL.DOWN P0, R2, R0, 0x4, 0x1f")
    assert list(w.r("R2")) == [10 * (k + 4) if k + 4 < 32 else 10 * k for k in LANES]
    assert list(w.p("P0")) == [k + 4 < 32 for k in LANES]
    w.run("SHFL.UP P1, R3, R0, 0x1, RZ")
    assert list(w.r("R3")) == [10 * (k - 1) if k >= 1 else 0 for k in LANES]
    w.run("SHFL.IDX PT, R4, R0, 0x3, 0x1f")  # broadcast lane 3
    assert set(w.r("R4")) == {30}
    w.run("SHFL.IDX PT, R5, R0, 0x2, 0x181f")  # width 8: (32 - 8) << 8 | 0x1f: lane 2 of each 8-lane segment
    assert list(w.r("R5")) == [10 * ((k & ~7) + 2) for k in LANES]


def test_votes_ballots_and_reductions():
    w = Warp().set("P0", LANES % 4 == 0)
    w.run("VOTE.ANY R9, PT, P0")  # PTX vote.ballot: bit per active lane
    assert w.r("R9", 0) == sum(1 << k for k in range(0, 32, 4))
    w.run("VOTE.ALL P1, P0", mask=0x11111111)  # only lanes 0, 4, 8... active: all true there
    assert w.p("P1", 0)
    w.run("VOTE.ALL P1, P0")
    assert not w.p("P1", 0)
    w.run("VOTEU.ANY UR4, UPT, PT", mask=0x0000FFF0)  # the active mask (ptxas: leader election with UFLO)
    assert w.r("UR4", 0) == 0x0000FFF0
    w.set("R6", LANES + 1).run("REDUX.SUM UR5, R6")  # PTX redux.sync.add
    assert w.r("UR5", 0) == sum(range(1, 33))
    w.set("R6", LANES - 7).run("REDUX.MIN.S32 UR6, R6")
    assert w.r("UR6", 0) == (-7) & 0xFFFFFFFF
    w.set("R7", LANES % 3).run("MATCH.ANY R8, R7")  # PTX match.any.sync: lanes with the same value
    assert w.r("R8", 5) == sum(1 << k for k in LANES if k % 3 == 2)


def test_special_registers():
    w = Warp()
    w.ctx[0:3] = (7, 2, 1)  # ctaid
    w.ctx[3:6] = (16, 2, 1)  # blockDim: 32 threads = 16 x 2
    w.run("S2R R0, SR_LANEID").run("S2R R1, SR_TID.X").run("S2R R2, SR_TID.Y").run("S2R R3, SR_CTAID.X")
    assert list(w.r("R0")) == list(LANES) and list(w.r("R1")) == list(LANES % 16)
    assert list(w.r("R2")) == list(LANES // 16) and set(w.r("R3")) == {7}
    w.run("S2R R4, SR_LTMASK")
    assert w.r("R4", 5) == 0b11111
    w.run("CS2R R6, SRZ")
    assert w.r64("R6") == 0


def test_predicated_instructions_touch_only_their_lanes():
    w = Warp().set("R1", 5).set("R0", 100).set("P0", LANES < 3)
    w.run("@P0 IADD3 R0, R1, 0x1, RZ")
    assert list(w.r("R0")) == [6, 6, 6] + [100] * 29
    w.run("@!P0 MOV R0, 0x7", mask=FULL & ~1)
    assert list(w.r("R0")[:5]) == [6, 6, 6, 7, 7]


# -- atomics and bank conflicts (the interpreter's helpers) ------------------------------------------------
def test_atomic_operations_follow_ptx_atom():
    from explorer.sass.execute import isa
    from explorer.sass.execute.memory import _atomic

    t = isa.T_U32
    assert _atomic(isa.A_INC, t, 5, 5, 0) == 0 and _atomic(isa.A_INC, t, 4, 5, 0) == 5  # (old >= b) ? 0 : old+1
    assert _atomic(isa.A_DEC, t, 0, 9, 0) == 9 and _atomic(isa.A_DEC, t, 12, 9, 0) == 9  # (old==0||old>b) ? b
    assert _atomic(isa.A_DEC, t, 4, 9, 0) == 3
    assert _atomic(isa.A_CAS, t, 7, 7, 42) == 42 and _atomic(isa.A_CAS, t, 8, 7, 42) == 8
    assert _atomic(isa.A_MIN, isa.T_S32, 0xFFFFFFFF, 3, 0) == 0xFFFFFFFF  # -1 < 3 signed
    assert _atomic(isa.A_MIN, isa.T_U32, 0xFFFFFFFF, 3, 0) == 3
    assert _atomic(isa.A_EXCH, t, 1, 2, 0) == 2 and _atomic(isa.A_XOR, t, 6, 3, 0) == 5
    assert as_float(_atomic(isa.A_ADD, isa.T_F32, f32(1.5), f32(2.25), 0)) == 3.75


@pytest.mark.parametrize("stride_words,width,waves,phases", [
    (1, 4, 1, 1),     # 32 consecutive words: 32 banks once
    (2, 4, 2, 1),     # stride 2: 16 banks, two words each
    (32, 4, 32, 1),   # a column of a 32 x 32 float tile: one bank, 32 words
    (33, 4, 1, 1),    # the +1 padding: 32 banks again
    (0, 4, 1, 1),     # every lane the same word: a broadcast
    (2, 8, 2, 2),     # 8 bytes per lane: half-warp phases, each conflict-free
    (4, 16, 4, 4),    # 16 bytes per lane: quarter-warp phases
    (8, 8, 8, 2),     # 8-byte lanes 32 bytes apart: per half warp banks 0, 8, 16, 24 (and +1) hold 4 words each
])
def test_shared_memory_wavefronts(stride_words, width, waves, phases):
    # CUDA C++ Programming Guide, "Shared Memory": 32 banks of successive 32-bit words, one word per
    # bank per cycle; lanes reading the same word share it. 64- and 128-bit accesses go by half and
    # quarter warps (Nsight Compute counts their ideal wavefronts as 2 and 4).
    from explorer.sass.execute.memory import _wavefronts
    from explorer.sass.execute.records import SC_ROWS, WSCR

    sc = np.zeros((SC_ROWS, 32), dtype=np.int64)
    sc[0] = LANES * stride_words * 4
    got = _wavefronts(sc, 0, np.int64(FULL), width, np.zeros(WSCR, dtype=np.int64))
    assert tuple(got) == (waves, phases)
