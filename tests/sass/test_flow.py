"""The executed path of hand-written SASS: loops and trip counts, guards decided from launch
facts, divergence, instrumentation marks, and the control flow the builder refuses."""

from __future__ import annotations

import pytest

from explorer.model.catalog import get_gpu
from explorer.sass.build import build_program
from explorer.sass.errors import ArchUnsupported, ProgramError
from explorer.sass.flow import KernelFacts
from explorer.sass.listing import parse_lines
from explorer.sass.warp_program import OP, SB

H100 = get_gpu("H100")
FLAG, REC = 0x234, 0x220  # byte offsets in constant bank 0 (the generated kernel's flag and rec on sm_90)
FACTS = KernelFacts(known_words={FLAG: 0}, record_words=frozenset({REC, REC + 4}))


def listing(*lines: str) -> list:
    """Instructions from "pc: text" lines (a label is "name:")."""
    out = []
    for line in lines:
        if line.endswith(":"):
            out.append(line)
        else:
            pc, text = line.split(":", 1)
            out.append(f"        /*{int(pc, 16):04x}*/    {text.strip()} ;")
    return parse_lines(out, "k").up_to_last_exit()


def build(instrs, trip=1, facts=FACTS, **kw):
    return build_program(instrs, "sm_90", H100, trip=trip, function="k", facts=facts, **kw)


LOOP = (
    "0000: S2R R0, SR_TID.X",
    "0010: MOV R2, RZ",
    ".L_x_0:",
    "0020: IADD3 R2, R2, 0x1, RZ",
    "0030: FFMA R3, R3, R3, R3",
    "0040: ISETP.NE.AND P0, PT, R2, 0x8, PT",
    "0050: @P0 BRA `(.L_x_0)",
    "0060: EXIT",
)


def test_a_loop_runs_its_body_trip_times():
    p = build(listing(*LOOP), trip=8)
    assert (p.loop_start, p.loop_end, p.trip) == (2, 6, 8)
    assert p.dynamic_instructions_per_warp == 2 + 8 * 4 + 1
    assert [r.segment for r in p.listing] == ["prologue"] * 2 + ["body"] * 4 + ["epilogue"]
    assert p.loop_json() == {"start_pc": 0x20, "end_pc": 0x50, "trip_count": 8, "body_instructions": 4}
    p.check()


def test_basic_blocks_split_at_branches_and_targets():
    p = build(listing(*LOOP), trip=8)
    # [S2R, MOV] -> [IADD3 .. @P0 BRA] -> itself or [EXIT]
    assert p.blocks == ((0, 1, (2,)), (2, 5, (2, 6)), (6, 6, ()))
    assert p.to_json()["blocks"][1] == {"start_pc": 0x20, "end_pc": 0x50, "successors": [0x20, 0x60]}
    sink = build(listing(*SINK))
    # [S2R .. @P0 BRA] over the sink store: both successors; [CS2R .. @P0 EXIT] falls through
    assert sink.blocks == ((0, 3, (5, 4)), (4, 4, (5,)), (5, 7, (8,)), (8, 12, ()))


def test_the_loop_compare_waits_as_long_as_a_guard_needs():
    p = build(listing(*LOOP), trip=8)
    isetp = p.listing[4]
    assert isetp.latency == 13  # its predicate guards the branch (CTRL: 13-cycle stall)
    assert p.listing[2].latency == 4 and p.listing[3].latency == H100.lat_fma


def test_no_loop_with_a_looping_workload_is_refused():
    with pytest.raises(ProgramError, match="no loop"):
        build(listing("0000: MOV R0, RZ", "0010: EXIT"), trip=4)


def test_two_loops_are_refused():
    lines = ("0000: MOV R0, RZ", ".L_x_0:", "0010: IADD3 R0, R0, 0x1, RZ", "0020: @P0 BRA `(.L_x_0)",
             ".L_x_1:", "0030: IADD3 R0, R0, 0x1, RZ", "0040: @P1 BRA `(.L_x_1)", "0050: EXIT")
    with pytest.raises(ProgramError, match="2 backward branches"):
        build(listing(*lines), trip=2)


def test_calls_are_refused():
    with pytest.raises(ProgramError, match="call"):
        build(listing("0000: CALL.REL.NOINC 0x40", "0010: EXIT", "0040: RET.REL.NODEC R20 0x0"))


SINK = (
    "0000: S2R R18, SR_LANEID",
    "0010: LDC R12, c[0x0][0x234]",
    "0020: ISETP.NE.AND P0, PT, R12, 0x5eed5eed, PT",
    "0030: @P0 BRA `(.L_x_5)",
    "0040: STG.E desc[UR6][R14.64], R19",
    ".L_x_5:",
    "0050: CS2R R14, SR_CLOCKLO",
    "0060: ISETP.NE.AND P0, PT, R18, RZ, PT",
    "0070: @P0 EXIT",
    "0080: ULDC.64 UR10, c[0x0][0x220]",
    "0090: LEA R12, P0, R0, UR10, 0x6",
    "00a0: LEA.HI.X R13, R0, UR11, R13, 0x6, P0",
    "00b0: STG.E.64 desc[UR6][R12.64], R14",
    "00c0: EXIT",
)


def test_a_branch_on_a_known_parameter_is_decided():
    p = build(listing(*SINK))
    seg = {r.pc: r.segment for r in p.listing}
    assert seg[0x40] == "skipped"  # flag is 0: flag != 0x5eed5eed, the branch over the sink store is taken
    assert p.dynamic_instructions_per_warp == len(p.listing) - 1


def test_the_same_branch_without_the_launch_fact_is_timed_as_not_taken():
    p = build(listing(*SINK), facts=KernelFacts(record_words=FACTS.record_words))
    assert all(r.executed for r in p.listing)
    assert any("warp-uniform value unknown" in n for n in p.notes)


def test_a_lane_dependent_exit_lets_the_warp_go_on_with_one_lane():
    p = build(listing(*SINK))
    rows = {r.pc: r for r in p.listing}
    assert rows[0x70].executed and rows[0x70].op_class == "branch"  # the warp survives it
    assert rows[0xc0].op_class == "exit"
    record = list(p.static_index).index(next(i for i, r in enumerate(p.listing) if r.pc == 0xb0))
    assert p.req_bytes[record] == 32  # one lane writes 8 bytes: one 32-byte sector


def test_instrumentation_is_the_record_and_what_only_it_needs():
    p = build(listing(*SINK))
    marked = {r.pc for r in p.listing if r.instrumentation}
    # the lane id (here only the lane test reads it), clock read, lane test and exit, the record
    # pointer and address, the record store; not the sink test, not the final EXIT
    assert marked == {0x00, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0}
    assert p.instrumentation_per_warp == 8


def test_a_guard_known_false_issues_but_moves_nothing():
    lines = ("0000: LDC R12, c[0x0][0x234]", "0010: ISETP.NE.AND P0, PT, R12, 0x5eed5eed, PT",
             "0020: @!P0 STG.E desc[UR6][R14.64], R19", "0030: EXIT")
    p = build(listing(*lines))
    store = p.listing[2]
    assert store.executed and store.predicated_off
    assert p.dynamic_instructions_per_warp == 4 and p.req_bytes[2] == 0


def test_a_thread_dependent_forward_branch_runs_both_sides():
    lines = ("0000: S2R R0, SR_TID.X", "0010: ISETP.GE.AND P0, PT, R0, 0x10, PT", "0020: @P0 BRA `(.L_x_1)",
             "0030: FFMA R1, R1, R1, R1", ".L_x_1:", "0040: EXIT")
    p = build(listing(*lines))
    assert all(r.executed for r in p.listing) and not p.notes
    assert p.dynamic_instructions_per_warp == 5


def test_a_loop_carried_value_is_not_taken_for_a_constant():
    # R2 is 0 on entry but changes every iteration: the branch inside the loop is undecided
    lines = ("0000: MOV R2, RZ", ".L_x_0:", "0010: ISETP.NE.AND P1, PT, R2, RZ, PT", "0020: @P1 BRA `(.L_x_2)",
             "0030: FFMA R3, R3, R3, R3", ".L_x_2:", "0040: IADD3 R2, R2, 0x1, RZ",
             "0050: ISETP.NE.AND P0, PT, R2, 0x4, PT", "0060: @P0 BRA `(.L_x_0)", "0070: EXIT")
    p = build(listing(*lines), trip=4)
    assert p.listing[3].executed  # not skipped on the strength of the first iteration's R2 == 0
    assert any("0x0020" in n for n in p.notes)


def test_an_unknown_opcode_is_timed_as_a_generic_alu_instruction():
    p = build(listing("0000: FROBNICATE R0, R1", "0010: EXIT"))
    row = p.listing[0]
    assert not row.known and row.op_class == "int" and row.latency == 4
    assert any("FROBNICATE" in n for n in p.notes)
    assert p.op[0] == OP["int"] and p.scoreboard[0] == SB["fixed"]


def test_an_architecture_without_a_family_is_refused():
    with pytest.raises(ArchUnsupported):
        build_program(listing(*LOOP), "sm_70", H100, trip=8, function="k")


def test_register_ids_are_dense_and_named():
    p = build(listing(*LOOP), trip=8)
    used = {int(x) for x in p.dst.ravel() if x >= 0} | {int(x) for x in p.src.ravel() if x >= 0}
    assert used == set(range(p.n_regs))
    assert set(p.reg_names) == {"R0", "R2", "R3", "P0"}
    ffma = 3
    assert [p.reg_names[i] for i in p.dst[ffma] if i >= 0] == ["R3"]


@pytest.mark.parametrize("cmp,value,taken", [("NE", 0, True), ("EQ", 0, False), ("GT", 0, False),
                                             ("GE.U32", 0, False), ("LT", 0, True)])
def test_compares_on_known_values_decide_the_branch(cmp, value, taken):
    # flag (known 0) against 0x5eed5eed; LT is signed: 0 < 0x5eed5eed
    lines = ("0000: LDC R12, c[0x0][0x234]", f"0010: ISETP.{cmp}.AND P0, PT, R12, 0x5eed5eed, PT",
             "0020: @P0 BRA `(.L_x_1)", "0030: FFMA R1, R1, R1, R1", ".L_x_1:", "0040: EXIT")
    p = build(listing(*lines))
    assert p.listing[3].executed is not taken


def test_the_second_compare_output_is_the_negated_compare():
    # ISETP Pd, Pq: Pq = !(a cmp b) AND c; here the branch is guarded by Pq = !(0 != magic) = false
    lines = ("0000: LDC R12, c[0x0][0x234]", "0010: ISETP.NE.AND PT, P1, R12, 0x5eed5eed, PT",
             "0020: @P1 BRA `(.L_x_1)", "0030: FFMA R1, R1, R1, R1", ".L_x_1:", "0040: EXIT")
    p = build(listing(*lines))
    assert p.listing[3].executed and p.listing[2].predicated_off
