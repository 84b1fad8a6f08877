"""Register dependencies of hand-written SASS lines: pairs, quads, predicates, uniform registers.

Each expectation is read off the instruction by hand (the operand order and widths of
NVIDIA's CUDA Binary Utilities instruction reference), not computed.
"""

from __future__ import annotations

import pytest

from explorer.sass.listing import Control, parse_function, parse_instruction
from explorer.sass.opcodes import load_table
from explorer.sass.semantics import register_use


def use(text: str, arch: int = 90):
    ins = parse_instruction(0x40, text)
    u = register_use(ins, load_table().destination_rule(ins.opcode), arch)
    return list(u.dst), list(u.src)


CASES = [
    # 64-bit pairs
    ("IMAD.WIDE.U32 R4, R4, R5, UR4", ["R4", "R5"], ["R4", "R5", "UR4", "UR5"]),
    ("IMAD.WIDE R2, R0, 0x4, R6", ["R2", "R3"], ["R0", "R6", "R7"]),
    ("LDG.E.64 R2, desc[UR6][R14.64+0x10]", ["R2", "R3"], ["UR6", "UR7", "R14", "R15"]),
    ("STG.E.128 desc[UR4][R2.64], R8", [], ["UR4", "UR5", "R2", "R3", "R8", "R9", "R10", "R11"]),
    ("LDS.U.128 R4, [R2+0x10]", ["R4", "R5", "R6", "R7"], ["R2"]),
    ("STS.64 [R3], R4", [], ["R3", "R4", "R5"]),
    ("LDC.64 R4, c[0x0][0x210]", ["R4", "R5"], []),
    ("ULDC.64 UR6, c[0x0][0x208]", ["UR6", "UR7"], []),
    ("CS2R R10, SR_GLOBALTIMERLO", ["R10", "R11"], []),
    ("CS2R.32 R3, SR_CLOCKLO", ["R3"], []),
    ("DFMA R4, R4, UR4, R6", ["R4", "R5"], ["R4", "R5", "UR4", "UR5", "R6", "R7"]),
    ("F2F.F64.F32 R6, R6", ["R6", "R7"], ["R6"]),
    ("F2F.F32.F64 R14, R4", ["R14"], ["R4", "R5"]),
    ("I2F.F64.U32 R6, R0", ["R6", "R7"], ["R0"]),
    ("F2I.U64.TRUNC R2, R4", ["R2", "R3"], ["R4"]),
    # Tensor Core fragments: m16n8k16 FP16->FP32: A 4, B 2, C/D 4 registers; m16n8k8: A 2, B 1
    ("HMMA.16816.F32 R4, R8, R12, R4", ["R4", "R5", "R6", "R7"],
     ["R8", "R9", "R10", "R11", "R12", "R13", "R4", "R5", "R6", "R7"]),
    ("HMMA.1688.F32 R4, R8, R12, R16", ["R4", "R5", "R6", "R7"], ["R8", "R9", "R12", "R16", "R17", "R18", "R19"]),
    ("HMMA.16816.F16 R4, R8, R12, R4", ["R4", "R5"], ["R8", "R9", "R10", "R11", "R12", "R13", "R4", "R5"]),
    # predicates: guards, carries, compare outputs, PT/RZ never a dependency
    ("@!P1 IADD3 R20, P1, R14, 0x78000, RZ", ["R20", "P1"], ["R14", "P1"]),
    ("IADD3.X R21, RZ, R15, RZ, P1, !PT", ["R21"], ["R15", "P1"]),
    ("LEA.HI.X R13, R6, RZ, R5, 0x3, P0", ["R13"], ["R6", "R5", "P0"]),
    ("ISETP.NE.AND P0, PT, R12, 0x10, PT", ["P0"], ["R12"]),
    ("ISETP.GE.U32.AND.EX P0, PT, R5, UR9, PT, P0", ["P0"], ["R5", "UR9", "P0"]),
    ("LOP3.LUT P0, RZ, R0, UR4, RZ, 0xfc, !PT", ["P0"], ["R0", "UR4"]),
    ("PLOP3.LUT P0, PT, P1, P2, PT, 0x80, 0x0", ["P0"], ["P1", "P2"]),
    ("SEL R3, R4, R5, P2", ["R3"], ["R4", "R5", "P2"]),
    ("P2R R0, PR, RZ, 0x7f", ["R0"], ["P0", "P1", "P2", "P3", "P4", "P5", "P6"]),
    ("VOTE.ANY R0, PT, P1", ["R0"], ["P1"]),
    ("SHFL.IDX PT, R3, R2, RZ, 0x1f", ["R3"], ["R2"]),
    ("@P0 EXIT", [], ["P0"]),
    ("@!P0 BRA 0x2b0", [], ["P0"]),
    # uniform registers and uniform predicates
    ("UISETP.NE.U32.AND UP0, UPT, UR4, 0x10, UPT", ["UP0"], ["UR4"]),
    ("BRA.U UP0, 0x3d0", [], ["UP0"]),
    ("UIADD3 UR4, UP0, UR4, 0x1, URZ", ["UR4", "UP0"], ["UR4"]),
    ("UIMAD.WIDE.U32 UR4, UR7, UR6, UR4", ["UR4", "UR5"], ["UR7", "UR6", "UR4", "UR5"]),
    ("S2UR UR8, SR_VIRTUALSMID", ["UR8"], []),
    ("IMAD.U32 R6, RZ, RZ, UR10", ["R6"], ["UR10"]),
    # atomics: predicate output first, then the register
    ("ATOMG.E.ADD.STRONG.GPU PT, R6, desc[UR4][R6.64], R9", ["R6"], ["UR4", "UR5", "R6", "R7", "R9"]),
    ("RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5", [], ["UR4", "UR5", "R2", "R3", "R5"]),
    # operand decorations never change the register
    ("FFMA R19, -R4.reuse, |UR4|, R19", ["R19"], ["R4", "UR4", "R19"]),
    ("HFMA2 R7, -RZ, RZ, 1.443359375, -0.2030029296875", ["R7"], []),
]


@pytest.mark.parametrize("text,dst,src", CASES)
def test_register_use(text, dst, src):
    assert use(text) == (dst, src)


def test_turing_global_addresses_are_64_bit_without_suffix():
    # sm_75 prints [R2] with .E for a 64-bit generic address; sm_80+ print [R2.64]
    assert use("LDG.E.CONSTANT.SYS R2, [R2]", arch=75) == (["R2"], ["R2", "R3"])
    assert use("LDS R2, [R2]", arch=75) == (["R2"], ["R2"])


def test_labels_become_addresses_and_the_guard_is_parsed():
    listing = """
        .section	.text.k,"ax",@progbits
k:
        /*0000*/                   MOV R0, RZ ;
.L_x_1:
        /*0010*/                   IADD3 R0, R0, 0x1, RZ ;
        /*0020*/                   ISETP.NE.AND P0, PT, R0, 0x4, PT ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
.L_x_2:
        /*0050*/                   BRA `(.L_x_2);
"""
    fn = parse_function(listing, "k")
    assert fn.labels == {".L_x_1": 0x10, ".L_x_2": 0x50}
    br = fn.instructions[3]
    assert (br.text, br.target, br.guard, br.guard_negated) == ("@P0 BRA 0x10", 0x10, "P0", False)
    assert [i.opcode for i in fn.up_to_last_exit()] == ["MOV", "IADD3", "ISETP", "BRA", "EXIT"]


def test_control_bits_decode_like_the_bit_layout_says():
    # upper words from an sm_90 cubin: bits 41-44 stall, 45 yield, 46-48 write barrier,
    # 49-51 read barrier, 52-57 wait mask (decoded by hand from the hex)
    ldc = Control.decode(0x000FE20000000800)  # 0x000fe2... >> 41 = 0b111_1111_0001
    assert (ldc.stall, ldc.yield_, ldc.write_barrier, ldc.read_barrier, ldc.wait_mask) == (1, True, None, None, 0)
    s2r = Control.decode(0x000E260000002300)  # >> 41 = 0b111_0001_0011
    assert (s2r.stall, s2r.yield_, s2r.write_barrier, s2r.read_barrier, s2r.wait_mask) == (3, True, 0, None, 0)
    ffma = Control.decode(0x004FC80000000013)  # waits on barrier 2, stall 4, no yield
    assert (ffma.stall, ffma.yield_, ffma.wait_mask) == (4, False, 0b000100)


def test_nvdisasm_remarks_are_kept_apart_from_the_text():
    ins = parse_instruction(0x40, 'STL.64 [R1], R2 (*"SpillRefill"*)')
    assert ins.text == "STL.64 [R1], R2" and ins.annotations == ("SpillRefill",)
