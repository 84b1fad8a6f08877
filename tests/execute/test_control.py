"""Divergence, reconvergence, barriers and calls on hand-written SASS: the lanes, masks and results.

Rules (CUDA C++ Programming Guide, "Independent Thread Scheduling" and the PTX ISA for
bar.sync/bar.warp.sync; the convergence-barrier instructions as CBU lists them): lanes of a
warp branch independently; BSSY Bx records the lanes that will reconverge at BSYNC Bx;
BSYNC waits for all of them that have not exited; BREAK removes lanes from Bx; WARPSYNC
waits for the lanes of its mask; BAR.SYNC waits for every non-exited thread of the block.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.model.errors import InputError
from tests.execute.support import collect_streams, execute_kernel, sass_kernel

FULL = 0xFFFFFFFF
LANES = np.arange(32)
OUT = {"out": {"dtype": "u32", "count": 64}}

PROLOGUE = ["S2R R0, SR_LANEID", "LDC.64 R2, c[0x0][0x210]"]
STORE = ["IMAD.WIDE.U32 R2, R0, 0x4, R2", "STG.E [R2.64], R1", "EXIT"]


def rows_of(kernel, text: str) -> list[int]:
    return [k for k, t in enumerate(kernel.decoded.texts) if t == text]


def test_if_else_runs_both_paths_with_partial_masks_and_reconverges_at_bsync():
    k = sass_kernel(PROLOGUE + [
        "ISETP.GE.AND P0, PT, R0, 0x10, PT",
        "BSSY B0, `(.L_join)",
        "@P0 BRA `(.L_else)",
        "IADD3 R1, R0, 0x100, RZ",
        "BRA `(.L_join)",
        ".L_else:",
        "IADD3 R1, R0, 0x200, RZ",
        ".L_join:",
        "BSYNC B0",
    ] + STORE)
    r, chunks = collect_streams(k, OUT)
    assert list(r.outputs["out"][:32]) == [x + (0x100 if x < 16 else 0x200) for x in LANES]
    then_row, = rows_of(k, "IADD3 R1, R0, 0x100, RZ")
    else_row, = rows_of(k, "IADD3 R1, R0, 0x200, RZ")
    st = chunks[0]
    masks = {int(row): int(m) for row, m in zip(st.row, st.active)}
    assert masks[then_row] == 0x0000FFFF and masks[else_row] == 0xFFFF0000
    store_row, = rows_of(k, "STG.E [R2.64], R1")
    assert masks[store_row] == FULL  # reconverged
    # 12 issues: 5 before the branch, then-path 2 (IADD3, BRA), else-path 1, BSYNC once, 3 after
    assert r.metrics["warp_instructions"] == 12
    assert r.metrics["thread_instructions"] == 5 * 32 + 2 * 16 + 16 + 32 + 3 * 32


def test_exit_of_some_lanes_leaves_the_others_running():
    k = sass_kernel(PROLOGUE + ["ISETP.GE.AND P0, PT, R0, 0xd, PT", "@P0 EXIT", "IADD3 R1, R0, 0x1, RZ"] + STORE)
    r, chunks = collect_streams(k, OUT)
    out = r.outputs["out"][:32]
    assert list(out[:13]) == list(LANES[:13] + 1) and not out[13:].any()
    st = chunks[0]
    after = [int(m) for row, m in zip(st.row, st.active) if row > 3]
    assert after and set(after) == {(1 << 13) - 1}
    assert int(st.row[-1]) == len(k.decoded.texts) - 1  # the warp's last entry is its EXIT


def test_loop_with_lane_dependent_trip_count_shrinks_the_mask():
    # for (k = 0; k < lane; ++k) acc += k, with BREAK/BSYNC as ptxas writes data-dependent loops
    k = sass_kernel(PROLOGUE + [
        "MOV R1, RZ",
        "MOV R4, RZ",
        "BSSY B0, `(.L_done)",
        ".L_top:",
        "ISETP.GE.AND P0, PT, R4, R0, PT",
        "@P0 BREAK B0",
        "@P0 BRA `(.L_done)",
        "IADD3 R1, R1, R4, RZ",
        "IADD3 R4, R4, 0x1, RZ",
        "BRA `(.L_top)",
        ".L_done:",
        "BSYNC B0",
    ] + STORE)
    r, chunks = collect_streams(k, OUT)
    assert list(r.outputs["out"][:32]) == [x * (x - 1) // 2 for x in LANES]
    body, = rows_of(k, "IADD3 R1, R1, R4, RZ")
    st = chunks[0]
    masks = [int(m) for row, m in zip(st.row, st.active) if row == body]
    assert masks == [(FULL << (j + 1)) & FULL for j in range(31)]  # iteration j: lanes above j
    assert r.active_lanes[body] == sum(31 - j for j in range(31))
    assert r.executions[body] == 31


def test_warpsync_waits_for_the_mask():
    # lanes 0-7 skip ahead to a WARPSYNC; the others do more work first; all meet there
    k = sass_kernel(PROLOGUE + [
        "MOV R1, 0x5",
        "ISETP.GE.AND P0, PT, R0, 0x8, PT",
        "@!P0 BRA `(.L_sync)",
        "IADD3 R1, R1, 0x10, RZ",
        "IADD3 R1, R1, 0x10, RZ",
        ".L_sync:",
        "WARPSYNC 0xffffffff",
        "SHFL.IDX PT, R1, R1, 0x1f, 0x1f",  # lane 31's value for everyone: needs the others done
    ] + STORE)
    r, chunks = collect_streams(k, OUT)
    assert set(r.outputs["out"][:32]) == {0x25}
    shfl, = rows_of(k, "SHFL.IDX PT, R1, R1, 0x1f, 0x1f")
    assert {int(m) for row, m in zip(chunks[0].row, chunks[0].active) if row == shfl} == {FULL}


def test_block_barrier_orders_shared_memory_between_warps():
    # each warp writes its lane id to shared memory, BAR.SYNC, then reads the next warp's slot
    k = sass_kernel([
        "S2R R0, SR_TID.X",
        "LDC.64 R2, c[0x0][0x210]",
        "SHF.L.U32 R5, R0, 0x2, RZ",
        "STS [R5], R0",
        "BAR.SYNC.DEFER_BLOCKING 0x0",
        "IADD3 R6, R0, 0x20, RZ",
        "LOP3.LUT R6, R6, 0x3f, RZ, 0xc0, !PT",
        "SHF.L.U32 R6, R6, 0x2, RZ",
        "LDS R1, [R6]",
    ] + STORE, shared=256)
    r = execute_kernel(k, OUT, block=(64, 1, 1))
    assert list(r.outputs["out"]) == [(t + 32) % 64 for t in range(64)]


@pytest.mark.parametrize("reduction, expected", [("POPC", 16), ("AND", 0), ("OR", 1)])
def test_a_reduction_barrier_gives_every_thread_its_result(reduction, expected):
    # __syncthreads_count / _and / _or (CUDA C++ Programming Guide, "Synchronization Functions") of tid % 4 == 0
    # over 64 threads: BAR.RED then B2R.RESULT, every thread of the block the same result. B2R was numbered among
    # the ALU's operations, and the ALU stopped the run with "the executor does not support B2R.RESULT".
    k = sass_kernel([
        "S2R R0, SR_TID.X",
        "LDC.64 R2, c[0x0][0x210]",
        "LOP3.LUT R4, R0, 0x3, RZ, 0xc0, !PT",
        "ISETP.EQ.AND P0, PT, R4, RZ, PT",
        f"BAR.RED.{reduction}.DEFER_BLOCKING 0x0, P0",
        "B2R.RESULT R1",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2", "STG.E [R2.64], R1", "EXIT",
    ])
    r = execute_kernel(k, OUT, block=(64, 1, 1))
    assert list(r.outputs["out"]) == [expected] * 64


def test_call_and_return_through_a_register():
    # ptxas: MOV R9, <return pc>; CALL.REL.NOINC `(sub); ... sub: ...; RET.REL.NODEC R9
    k = sass_kernel(PROLOGUE + [
        "MOV R9, 0x40",  # the IADD3 after the CALL
        "CALL.REL.NOINC `($sub)",
        "IADD3 R1, R1, 0x1000, RZ",
        "IMAD.WIDE.U32 R2, R0, 0x4, R2",
        "STG.E [R2.64], R1",
        "EXIT",
        "$sub:",
        "IADD3 R1, R0, 0x7, RZ",
        "RET.REL.NODEC R9 `(hand)",
    ])
    r = execute_kernel(k, OUT)
    assert list(r.outputs["out"][:32]) == list(LANES + 7 + 0x1000)


def test_barriers_that_never_complete_are_a_deadlock():
    k = sass_kernel(PROLOGUE + [
        "ISETP.GE.AND P0, PT, R0, 0x10, PT",
        "@P0 BRA `(.L_other)",
        "BAR.SYNC.DEFER_BLOCKING 0x0",
        "EXIT",
        ".L_other:",
        "BAR.SYNC.DEFER_BLOCKING 0x1",
        "EXIT",
    ])
    with pytest.raises(InputError, match=r"deadlock: thread \(\d+,0,0\) in block \(0,0,0\) waits at a block barrier"):
        execute_kernel(k, OUT)


def test_an_endless_loop_stops_at_the_instruction_limit():
    k = sass_kernel([".L_spin:", "IADD3 R1, R1, 0x1, RZ", "BRA `(.L_spin)", "EXIT"])
    spec_args = dict(OUT)
    from explorer.model.kernel_spec import parse_kernel
    from explorer.model.scenario import parse_launch
    from explorer.sass.execute.session import execute

    spec = parse_kernel({"file": "x.cu", "name": "hand", "args": spec_args, "max_instructions": 5000})
    with pytest.raises(InputError, match=r"kernel.max_instructions: the kernel executed more than 5,000 "
                                         r"warp-instructions \(an endless loop\?\)"):
        execute(k, parse_launch({"grid": [1, 1, 1], "block": [32, 1, 1]}), spec)


def test_out_of_bounds_access_names_pc_lane_and_address():
    k = sass_kernel(PROLOGUE + ["IADD3 R0, R0, 0x10, RZ", "MOV R1, R0"] + STORE)  # out[lane + 16] of 40 elements
    with pytest.raises(InputError) as err:
        execute_kernel(k, {"out": {"dtype": "u32", "count": 40}})
    msg = str(err.value)
    assert "invalid global write of 4 bytes at pc 0x0050 (STG.E [R2.64], R1" in msg
    assert "by thread (24,0,0) in block (0,0,0)" in msg  # lane 24 writes element 40, the first past the end
    assert "address 0x7f00000000a0 is outside every buffer (0 bytes past the end of out" in msg


def test_unsupported_opcode_is_reported_only_when_reached():
    k = sass_kernel(PROLOGUE + ["MOV R1, 0x1"] + STORE + ["HMMA.16816.F32 R4, R8, R12, R4"])
    r = execute_kernel(k, OUT)  # the HMMA after EXIT never runs
    assert set(r.outputs["out"][:32]) == {1}
    k2 = sass_kernel(PROLOGUE + ["HMMA.16816.F32 R4, R8, R12, R4"] + STORE)
    with pytest.raises(InputError, match=r"the executor does not support the opcode HMMA at pc 0x0020 "
                                         r"\(HMMA.16816.F32"):
        execute_kernel(k2, OUT)


def test_shared_memory_outside_the_block_is_refused():
    k = sass_kernel(PROLOGUE + ["SHF.L.U32 R5, R0, 0x2, RZ", "STS [R5+0xf0], R0"] + STORE, shared=256)
    with pytest.raises(InputError, match=r"invalid shared-memory write of 4 bytes at pc 0x0030 "
                                         r"\(STS \[R5\+0xf0\], R0\) by thread \(4,0,0\) in block \(0,0,0\): "
                                         r"offset 0x100 is outside the block's 256 bytes"):
        execute_kernel(k, OUT)


def test_a_run_that_would_not_fit_the_memory_budget_is_refused_up_front(monkeypatch):
    from explorer.sass.execute import session

    monkeypatch.setattr(session, "MEMORY_BUDGET", 1 << 20)
    k = sass_kernel(PROLOGUE + ["MOV R1, RZ"] + STORE)
    with pytest.raises(InputError, match=r"kernel.args: this run needs about [\d,]+ MiB \(buffers 1 MiB, state "
                                         r".*\), above the limit of 1 MiB a run may hold"):
        execute_kernel(k, {"out": {"dtype": "u32", "count": 1 << 18}})
