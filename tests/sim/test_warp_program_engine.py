"""The engine runs WarpPrograms: segments, registers, scoreboard kinds, op classes, units.

Hand-made programs on one warp, timed by hand: the rows a warp issues and the cycles
between them follow from the contract (explorer/sass/warp_program.py) alone.
"""

import numpy as np
import pytest

from explorer.sass.warp_program import OP_NAMES
from explorer.sim import simulate
from explorer.model import units
from explorer.sim.loop_program import UNIT_MAP
from explorer.sim.states import EMPTY, LONG_SB, MATH_THROTTLE, SELECTED, SHORT_SB, WAIT
from tests.sim.programs import issue_cycles, issue_order, one_warp, program, row


def test_prologue_body_times_trip_then_epilogue():
    rows = [row("int", ["R0"]), row("int", ["R1"]),  # prologue
            row("int", ["R2"]), row("fma", ["R3"]), row("uniform", ["UR4"]),  # body
            row("int", ["R5"])]  # epilogue, then EXIT
    prog = program(rows, loop_start=2, loop_end=5, trip=5)
    r = simulate(one_warp(), program=prog)
    assert issue_order(r) == [0, 1] + [2, 3, 4] * 5 + [5, 6]
    assert prog.dynamic_instructions_per_warp == 19 == r.warp_instructions
    assert int(r.issued.sum()) == 19
    assert r.stall_by_instruction[:, SELECTED].tolist() == [1, 1, 5, 5, 5, 1, 1]


def test_no_loop_runs_every_row_once():
    prog = program([row("int", ["R0"]), row("int", ["R1"], ["R0"])], loop_start=1, loop_end=1)
    r = simulate(one_warp(), program=prog)
    assert issue_order(r) == [0, 1, 2]


def test_every_destination_is_waited_for():
    # row 0 writes the pair R0, R1 (10 cycles); row 1 reads only R1, the second destination
    prog = program([row("fp64", ["R0", "R1"], latency=10, sb="fixed"), row("int", ["R2"], ["R1"])])
    r = simulate(one_warp(), program=prog)
    c0, c1, _ = issue_cycles(r)
    assert c1 - c0 == 10
    assert r.stall_by_instruction[1, WAIT] == 9
    # a write after write: row 1 rewrites R1
    prog = program([row("fp64", ["R0", "R1"], latency=10, sb="fixed"), row("int", ["R1"])])
    c0, c1, _ = issue_cycles(simulate(one_warp(), program=prog))
    assert c1 - c0 == 10


def test_scoreboard_kind_is_the_state_a_dependent_waits_in():
    prog = program([
        row("mio", ["R0"], latency=20, sb="short"), row("int", ["R9"], ["R0"]),  # S2R-like: short scoreboard
        row("int", ["R2"], latency=6, sb="fixed"), row("int", ["R8"], ["R2"]),  # fixed latency: wait
        row("ldg", ["R1"], req=128), row("int", ["R7"], ["R1"]),  # global load: long scoreboard
    ])
    s = one_warp()
    r = simulate(s, program=prog)
    st = r.stall_by_instruction
    assert st[1, SHORT_SB] == 19 and st[1, WAIT] == 0
    assert st[3, WAIT] == 5 and st[3, SHORT_SB] == 0
    c = issue_cycles(r)
    p = r.params
    # the load: one 128-byte wavefront through L1TEX (1 cycle), an empty L2 queue, then L2's latency
    assert c[5] - c[4] == 1 + p.lat_l2
    assert st[5, LONG_SB] == c[5] - c[4] - 1


# the Hopper pipeline classes need warp roles, stages and mbarriers: tests/sim/test_async_ops.py
PIPELINE = ("tma", "mbarrier_wait", "wgmma", "wgmma_wait")


@pytest.mark.parametrize("cls", [c for c in OP_NAMES if c != "exit" and c not in PIPELINE])
def test_every_op_class_issues_and_completes(cls):
    # the row under test, then a reader of its result (if it has one)
    writes = cls not in ("stg", "sts", "stl", "sync", "branch")
    prog = program([row("int", ["R0"]), row(cls, ["R1"] if writes else [], ["R0"], latency=7),
                    row("int", ["R2"], ["R1"] if writes else [])], loop_start=0, loop_end=3, trip=2)
    r = simulate(one_warp(), program=prog)
    assert r.stall_by_instruction[:, SELECTED].tolist() == [2, 2, 2, 1]
    assert r.warp_instructions == 7 == int(r.issued.sum())
    moved = 2 * 128
    if cls in ("ldg", "stg", "ldl", "stl", "atom"):
        assert r.memory_bytes["l2"] == moved  # no L1 hits (l1_hit_rate 0), all served by L2
    elif cls in ("lds", "sts"):
        assert r.memory_bytes["shared"] == moved
    else:
        assert sum(r.memory_bytes.values()) == 0


def test_units_feed_the_engines_pipes():
    """Each contract unit charges the pipe loop_program.UNIT_MAP names, at that pipe's interval."""
    n = 8
    names = ["alu", "fma", "fmaheavy", "fp16", "xu", "fp64", "uniform", "adu", "cbu"]
    cls = {"alu": "int", "fma": "fma", "fmaheavy": "int", "fp16": "fma", "xu": "sfu", "fp64": "fp64",
           "uniform": "uniform", "adu": "ldc", "cbu": "branch"}
    for unit in names:
        rows = [row(cls[unit], [f"R{i}"] if cls[unit] != "branch" else [], unit=unit) for i in range(n)]
        r = simulate(one_warp(), program=program(rows))
        busy = r.unit_busy_cycles.sum(axis=0)
        p = r.params
        interval = dict(zip(range(units.FIRST_PIPE, units.LAST_PIPE + 1), p.pipe_intervals))
        target = UNIT_MAP[unit]
        for pipe, iv in interval.items():
            want = n * iv if pipe == target else 0.0
            assert busy[pipe] == pytest.approx(want), (unit, units.UNITS[pipe])
        assert busy[units.ISSUE] == n + 1


def test_a_busy_pipe_throttles():
    # independent INT instructions: H100's 16 INT32 lanes per scheduler take one every 2 cycles
    r = simulate(one_warp(), program=program([row("int", [f"R{i}"]) for i in range(6)]))
    assert r.params.int_interval == 2
    c = issue_cycles(r)
    assert np.diff(c[:6]).tolist() == [2] * 5
    assert r.stall_by_instruction[1:6, MATH_THROTTLE].tolist() == [1] * 5


def test_the_estimate_counts_every_instruction_a_warp_executes():
    from explorer.sim.engine import estimate_cycles, estimate_run
    from explorer.sim.loop_program import lower
    from explorer.sim.params import params_for

    prog = program([row("int", ["R0"], latency=6),
                    row("int", ["R1"]), row("int", ["R2"]), row("int", ["R3"], ["R2"])], loop_start=1, loop_end=4, trip=10)
    s = one_warp()
    p = params_for(s)
    # one warp, one wave: its chain is the prologue's 6 cycles + 10 x (4 + 4 + 4); EXIT adds nothing
    assert estimate_cycles(p, lower(prog)) == 6 + 10 * 12
    # 422,400 one-warp blocks, 32 per SM at once on 132 SMs: 100 waves of that chain (12,600 cycles), below
    # the issue bound of 32 instructions per warp over 132 x 4 schedulers (25,600 cycles)
    many = one_warp(**{"launch.grid": [422400, 1, 1]})
    assert params_for(many).active_blocks_per_sm == 32
    assert estimate_run(many, program=prog).cycles == 422400 * 32 // (132 * 4) == 25600


def test_per_row_counts_of_a_program_every_warp_runs():
    """A WarpProgram's rows run ``trip`` times in the body, once elsewhere, by every warp; lanes: a
    block's threads (a 48-thread block's second warp holds 16), hand-counted, and so are the masks."""
    rows = [row("int", ["R0"]), row("int", ["R1"]), row("fma", ["R2"], ["R1"])]
    prog = program(rows, loop_start=1, loop_end=3, trip=4)
    r = simulate(one_warp(**{"launch.grid": [3, 1, 1], "launch.block": [48, 1, 1]}), program=prog)
    warps = 3 * 2
    assert r.row_executions.tolist() == [warps, 4 * warps, 4 * warps, warps]  # EXIT last
    assert r.row_active_lanes.tolist() == [3 * 48, 4 * 3 * 48, 4 * 3 * 48, 3 * 48]
    assert int(r.row_executions.sum()) == r.warp_instructions
    assert np.allclose(r.row_average_lanes(), 24.0)
    # each block's second warp holds threads 32..47: lanes 0-15, wherever it sits
    for sm in np.unique(r.blocks.sm).tolist():
        masks, states = r.mask_trace(sm), r.sm_trace(sm)
        assert np.all((masks == 0) == (states == EMPTY))
        for b in np.nonzero(r.blocks.sm == sm)[0].tolist():
            first, second = r.block_slots[b]
            live = slice(int(r.blocks.start[b]), int(r.blocks.end[b]))
            busy0, busy1 = states[live, first] != EMPTY, states[live, second] != EMPTY
            assert np.all(masks[live, first][busy0] == 0xFFFFFFFF) and np.all(masks[live, second][busy1] == 0xFFFF)
            c = int(np.nonzero(busy1)[0][0]) + live.start
            assert r.mask_at(sm, int(second), c) == 0xFFFF and r.mask_at(sm, int(first), c) == 0xFFFFFFFF


def test_a_row_whose_registers_have_gaps_waits_for_every_one_in_order():
    """The loop stops at a row's first -1 (issue 27: no test per padding entry); ``lower`` puts each
    row's registers first, in their order, so a program with gaps in its rows (-1 before a register)
    runs exactly as the same program without them: row 2 still waits for the load's 200-odd cycles,
    not only for row 1's 4, and in the load's state (the first register to reach the latest time)."""
    from dataclasses import replace

    from explorer.sim.loop_program import lower, registers_first

    prog = program([row("ldg", ["R0"], req=128), row("fma", ["R1"], latency=4), row("fma", ["R2"], ["R1", "R0"])])
    gap = np.full((prog.length, 1), -1, prog.src.dtype)
    holed = replace(prog, src=np.concatenate([gap, prog.src[:, :1], gap, prog.src[:, 1:]], axis=1),
                    dst=np.concatenate([gap, prog.dst], axis=1))
    assert (lower(holed).src[:, :prog.src.shape[1]] == prog.src).all()
    assert (lower(holed).dst[:, :prog.dst.shape[1]] == prog.dst).all()
    assert registers_first(np.array([[-1, 7, -1, 3], [5, -1, -1, 2]])).tolist() == [[7, 3, -1, -1], [5, 2, -1, -1]]
    want, got = simulate(one_warp(), program=prog), simulate(one_warp(), program=holed)
    c = issue_cycles(got)
    assert c == issue_cycles(want) and c[2] - c[0] > 100
    assert (got.stall_by_instruction == want.stall_by_instruction).all()
    assert got.stall_by_instruction[2, LONG_SB] > 100
