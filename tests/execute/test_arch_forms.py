"""Opcodes and forms of the catalog's other architectures (issue 30, items 3 and 4): sm_75, sm_100, sm_120.

Each rule was read where it is used in the compiler's own code (NVRTC 13.5, quoted in each
test) with its meaning from NVIDIA's CUDA Binary Utilities (CBU) and the PTX ISA; the
kernels of tests/execute/test_suite.py then check the results against numpy on every
architecture. Hand-written instructions here pin each rule down without a compiler.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from explorer.sass.execute.arguments import GLOBAL_BASE, launch_layout
from tests.execute.support import Warp, execute_kernel, sass_kernel

LANES = np.arange(32)
OUT = {"out": {"dtype": "u32", "count": 64}}


# -- .E: a 64-bit address whether or not nvdisasm prints .64 ------------------------------------------
def test_an_extended_address_without_64_is_a_register_pair():
    # sm_75: "LDG.E.SYS R2, [R2]" after IMAD.WIDE R2 (a pointer in R2:R3); every arch prints
    # "ATOMG.E.CAS.STRONG.GPU PT, R3, [R2], R6, R7" for atomicCAS. Read as 32 bits, the address was
    # 0x0 (saxpy on a T4) and 0x4 (every atomicCAS): false out-of-bounds errors (issue 30)
    k = sass_kernel([
        "S2R R0, SR_LANEID",
        "LDC.64 R2, c[0x0][0x210]",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",
        "IADD3 R5, R0, 0x100, RZ",
        "STG.E.SYS [R2], R5",  # sm_75's form: out[lane] = lane + 0x100
        "IADD3 R6, R0, 0x100, RZ",
        "IADD3 R7, R0, 0x200, RZ",
        "ATOMG.E.CAS.STRONG.GPU PT, R8, [R2], R6, R7",  # swaps: out[lane] = lane + 0x200, R8 = the old
        "IMAD.WIDE.U32 R10, R0, 0x4, RZ",
        "ULDC.64 UR4, c[0x0][0x210]",
        "LDG.E.SYS R9, [R10.64+UR4]",  # sm_75: a 64-bit base in UR4:UR5 plus a 64-bit offset
        "IADD3 R9, R9, R8, RZ",
        "STG.E.SYS [R2+0x80], R9",
        "EXIT",
    ])
    out = execute_kernel(k, OUT).outputs["out"]
    assert list(out[:32]) == list(LANES + 0x200)
    assert list(out[32:]) == list(2 * LANES + 0x300)


# -- bank 0 on sm_100 and newer ---------------------------------------------------------------------
def test_launch_values_sit_where_each_architecture_reads_them():
    # sm_75..sm_90: LDC R5, c[0x0][RZ] (blockDim.x), c[0x0][0xc] (gridDim.x), LDC R1, c[0x0][0x28] (the stack);
    # sm_100/sm_120: LDC R5, c[0x0][0x360], c[0x0][0x370], LDC R1, c[0x0][0x37c] (tests/kernels: dims)
    assert launch_layout("sm_75") == launch_layout("sm_90") == (0x0, 0xC, 0x28)
    assert launch_layout("sm_100") == launch_layout("sm_120") == launch_layout("sm_100a") == (0x360, 0x370, 0x37C)
    k = sass_kernel([
        "S2R R0, SR_LANEID",
        "LDC.64 R2, c[0x0][0x380]",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",
        "LDC R4, c[0x0][0x360]",
        "LDCU UR4, c[0x0][0x370]",  # sm_100's constant load into a uniform register
        "LDC R5, c[0x0][0x37c]",
        "IMAD R4, R4, 0x100, R5",
        "IADD3 R4, R4, UR4, RZ",
        "STG.E desc[UR6][R2.64], R4",
        "EXIT",
    ], arch="sm_100", param_base=0x380, frame=32)
    out = execute_kernel(k, OUT, grid=(3, 1, 1)).outputs["out"]
    assert out[0] == 32 * 0x100 + 32 + 3  # blockDim.x, the frame (32 bytes), gridDim.x


def test_ldcu_64_and_128_fill_uniform_register_pairs_and_quads():
    # sm_100: "LDCU.64 UR4, c[0x0][0x358]", "LDCU.128 UR8, c[0x0][0x390]" (four parameters at once)
    k = sass_kernel([
        "S2R R0, SR_LANEID",
        "LDC.64 R2, c[0x0][0x380]",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",
        "LDCU.128 UR8, c[0x0][0x380]",  # out's and b's addresses: UR8:UR9 and UR10:UR11
        "LDCU.64 UR12, c[0x0][0x388]",
        "MOV R4, UR8", "MOV R5, UR9", "MOV R6, UR10", "MOV R7, UR11", "MOV R8, UR12", "MOV R9, UR13",
        "STG.E desc[UR6][R2.64], R4",
        "STG.E desc[UR6][R2.64+0x80], R5",
        "STG.E desc[UR6][R2.64+0x100], R6",
        "STG.E desc[UR6][R2.64+0x180], R7",
        "STG.E desc[UR6][R2.64+0x200], R8",
        "STG.E desc[UR6][R2.64+0x280], R9",
        "EXIT",
    ], params=(("out", "u32"), ("b", "u32")), arch="sm_100", param_base=0x380)
    r = execute_kernel(k, {"out": {"dtype": "u32", "count": 192}, "b": {"dtype": "u32", "count": 4}})
    out = r.outputs["out"].reshape(6, 32)[:, 0]
    a, b = (buf.address for buf in r.bound.buffers)
    assert a == GLOBAL_BASE
    assert list(out) == [a & 0xFFFFFFFF, a >> 32, b & 0xFFFFFFFF, b >> 32, b & 0xFFFFFFFF, b >> 32]


# -- integer forms -----------------------------------------------------------------------------------
def test_sm120_iadd_forms():
    # sm_120 emits IADD where sm_90 has IADD3 with an RZ: "IADD R8, R3, -R4", "IADD R1, R1, -0x100",
    # "IADD RZ, P0, R7, R8" (a carry out), "IADD.64 R6, R6, UR8" (register pairs) (CBU: integer addition)
    w = Warp().set("R3", 10).set("R4", 3).run("IADD R8, R3, -R4")
    assert w.r("R8", 0) == 7
    w.run("IADD R9, R3, -0x100")
    assert w.r("R9", 0) == (10 - 0x100) & 0xFFFFFFFF
    w.set("R1", 0xFFFFFFF0).set("R2", 0x20).run("IADD RZ, P0, R1, R2")
    assert w.p("P0", 0)  # 0xfffffff0 + 0x20 carries out
    w.set("R2", 0x5).run("IADD R0, P1, R1, R2")
    assert w.r("R0", 0) == 0xFFFFFFF5 and not w.p("P1", 0)
    w.set("R5", 1).set("R6", 2).run("IADD.X R7, R5, R6, P0")  # + the carry in (IADD3.X)
    assert w.r("R7", 0) == 4
    w.set64("R10", (1 << 40) + 5).set("UR8", 0xFFFFFFFF).set("UR9", 0).run("IADD.64 R12, R10, UR8")
    assert w.r64("R12") == (1 << 40) + 5 + 0xFFFFFFFF
    w.set64("R14", 3).run("IADD.64 R16, R10, -R14")
    assert w.r64("R16") == (1 << 40) + 2


def test_sm100_vimnmx_with_its_predicate_results():
    # sm_100 prints VIMNMX Rd, PT, PT, a, b, P: "VIMNMX.U32 R9, PT, PT, R4, 0x100, !PT" (the loop bound of
    # for (b = tid; b < 256; b += blockDim.x)) and "VIMNMX R0, PT, PT, R4, R3, PT" (min(x, y)); PT = min
    w = Warp().set("R4", LANES * 20).run("VIMNMX.U32 R9, PT, PT, R4, 0x100, !PT")
    assert list(w.r("R9")) == list(np.maximum(LANES * 20, 0x100))
    w.set("R3", -5).run("VIMNMX R0, PT, PT, R4, R3, PT")
    assert w.r("R0", 3) == (-5) & 0xFFFFFFFF
    from explorer.sass.execute.decode import decode
    from explorer.sass.listing import parse_instruction

    dec = decode([parse_instruction(0, "VIMNMX R0, P1, PT, R4, R3, PT")])  # results whose meaning is unknown
    assert "predicate results" in dec.unsupported[0]


def test_sm100_three_way_and_add_min_max():
    # "VIMNMX3 R15, R0, R15, R12, PT" for min(min(a, b), c); "VIADDMNMX R13, R11, R10, R12, PT" for
    # min(a + b, c), "!PT" for max, ".U32" for unsigned (tests/kernels/mixed.cu add_min_max)
    a = np.array([5, -7, 100, 0x7FFFFFFF] * 8)
    b = np.array([-3, 2, -200, 1] * 8)
    c = np.array([1, 1, 1, -1] * 8)
    w = Warp().set("R0", a).set("R1", b).set("R2", c)
    w.run("VIMNMX3 R3, R0, R1, R2, PT").run("VIMNMX3 R4, R0, R1, R2, !PT")
    assert [w.r("R3", k) for k in range(4)] == [x & 0xFFFFFFFF for x in (-3, -7, -200, -1)]
    assert [w.r("R4", k) for k in range(4)] == [5, 2, 100, 0x7FFFFFFF]
    w.run("VIADDMNMX R5, R0, R1, R2, PT").run("VIADDMNMX R6, R0, R1, R2, !PT")
    assert [w.r("R5", k) for k in range(4)] == [1, (-5) & 0xFFFFFFFF, (-100) & 0xFFFFFFFF, 0x80000000]
    assert [w.r("R6", k) for k in range(4)] == [2, 1, 1, 0xFFFFFFFF]  # 0x7fffffff + 1 wraps to INT_MIN < -1
    w.run("VIADDMNMX.U32 R7, R0, R1, R2, PT")  # unsigned: -1 is the largest
    assert [w.r("R7", k) for k in range(4)] == [1, 1, 1, 0x80000000]


def test_sm120_64_bit_compare():
    # "ISETP.GE.U64.AND P3, PT, R6, R4, PT" in atomicMin's loop on 64-bit shared memory (sm_120)
    w = Warp().set64("R4", 1 << 40).set64("R6", (1 << 40) - 1)
    w.run("ISETP.GE.U64.AND P3, PT, R6, R4, PT")
    assert not w.p("P3", 0)
    w.set64("R6", 2**64 - 1).run("ISETP.GE.U64.AND P3, PT, R6, R4, PT")
    assert w.p("P3", 0)  # unsigned: 0xffff...ffff is the largest
    w.run("ISETP.GE.S64.AND P4, PT, R6, R4, PT")
    assert not w.p("P4", 0)  # signed: it is -1


def test_plain_redux_is_the_and_and_credux_reduces_as_redux():
    # ptxas combines a warp's atomicAnd operands with a REDUX that prints no operation (the others print
    # theirs: REDUX.OR, .XOR, .SUM, .MIN, .MAX); sm_100 emits CREDUX.MIN.S32 for atomicMin's
    w = Warp().set("R0", (~(1 << LANES) & 0xFFFFFFFF) | 0x80000000).run("REDUX UR4, R0")
    assert w.r("UR4", 0) == 0x80000000  # each lane clears its bit; bit 31 stays set by every lane
    w.set("R1", LANES - 9).run("CREDUX.MIN.S32 UR5, R1")
    assert w.r("UR5", 0) == (-9) & 0xFFFFFFFF


# -- shared-memory compare-and-store ----------------------------------------------------------------
@pytest.mark.parametrize("dest", ["R4", "P2"])
def test_atoms_cast_stores_once_and_says_whether_it_did(dest):
    # ptxas' loops for 64-bit and float atomics on shared memory: "ATOMS.CAST.SPIN.64 R10, [R21], R8, R10;
    # ISETP.EQ.U32.AND P0, PT, R10, 0x1, PT" (sm_75..sm_90: a flag in a register) and
    # "ATOMS.CAST.SPIN.64 P3, [R19], R8, R10; @!P3 BRA" (sm_100, sm_120: a predicate). Every lane compares
    # with 0 and stores its lane + 1: exactly one stores (whichever comes first), the others see it stored
    flag = ["SEL R4, RZ, 0x1, !P2"] if dest == "P2" else []
    k = sass_kernel([
        "S2R R0, SR_LANEID",
        "LDC.64 R2, c[0x0][0x210]",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",
        "STS.64 [RZ], RZ",
        "IADD3 R6, R0, 0x1, RZ",
        "MOV R7, RZ",
        "MOV R8, RZ",
        "MOV R9, RZ",
        f"ATOMS.CAST.SPIN.64 {dest}, [RZ], R8, R6",
        *flag,
        "STG.E [R2.64], R4",
        "LDS R5, [RZ]",
        "STG.E [R2.64+0x80], R5",
        "EXIT",
    ], shared=16)
    out = execute_kernel(k, OUT).outputs["out"]
    flags, word = out[:32], out[32:]
    assert sorted(flags) == [0] * 31 + [1]
    assert (word == int(np.argmax(flags)) + 1).all()


# -- indirect branches (switch tables) ----------------------------------------------------------------
def test_brx_jumps_each_lane_to_its_case():
    # sm_120: "LDC R4, c[0x2][R7]; SHF.R.S32.HI R5, RZ, 0x1f, R4; BRX R4 -0x150" at 0x140 (BRANCH_TARGETS
    # .L_x_4,.L_x_52,.L_x_53): the jump table in bank 2 holds function offsets (0x200, 0x150, 0x1d0 in
    # .nv.constant2), and the immediate is minus the next instruction's offset
    lines = [
        "S2R R0, SR_LANEID",  # 0x00
        "LDC.64 R2, c[0x0][0x210]",  # 0x10
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",  # 0x20
        "LOP3.LUT R7, R0, 0x3, RZ, 0xc0, !PT",  # 0x30: the case: lane % 4
        "IMAD.SHL.U32 R7, R7, 0x4, RZ",  # 0x40
        "BSSY B0, `(.L_join)",  # 0x50
        "LDC R4, c[0x2][R7]",  # 0x60
        "SHF.R.S32.HI R5, RZ, 0x1f, R4",  # 0x70
        "BRX R4 -0x90",  # 0x80: the next instruction is at 0x90
        "MOV R1, 0xa",  # 0x90: case 0
        "BRA `(.L_join)",  # 0xa0
        "MOV R1, 0xb",  # 0xb0: case 1
        "BRA `(.L_join)",  # 0xc0
        "MOV R1, 0xc",  # 0xd0: cases 2 and 3
        ".L_join:",
        "BSYNC B0",  # 0xe0
        "STG.E [R2.64], R1",
        "EXIT",
    ]
    table = struct.pack("<4i", 0x90, 0xB0, 0xD0, 0xD0)
    k = sass_kernel(lines, banks={2: table})
    out = execute_kernel(k, OUT).outputs["out"][:32]
    assert list(out) == [[0xA, 0xB, 0xC, 0xC][x % 4] for x in LANES]
    bad = sass_kernel(lines, banks={2: struct.pack("<4i", 0x90, 0x1000, 0x94, 0x90)})
    from explorer.model.errors import InputError

    with pytest.raises(InputError, match="jumped outside the kernel's code"):
        execute_kernel(bad, OUT)
