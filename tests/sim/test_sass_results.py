"""The SimResult data contract of the program that ran (for the SASS view), and invariants of SASS runs.

``result.warp_program`` is the program; ``pc_trace(sm)`` the row each slot issues next
(-1: empty); ``stall_by_instruction[row, state]`` the warp-cycles per row and state. They
are checked against the state trace and the series, which the loop keeps independently.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.model.presets import load_preset
from explorer.model.scenario import POLICIES, Scenario
from explorer.sim import simulate
from explorer.sim.states import EMPTY, NAMES, SELECTED
from tests.sim.programs import DEFAULTS, program, row


def check_contract(r):
    prog = r.warp_program
    L = prog.length
    st_ = r.stall_by_instruction
    assert st_.shape == (L, len(NAMES)) and st_.dtype == np.int64
    # every warp-cycle of every SM, per state: the series' exact totals (empty slots belong to no row)
    assert st_[:, EMPTY].sum() == 0
    assert np.array_equal(st_.sum(axis=0)[1:], r.series_totals[4:][1:])
    # each row is selected once per execution, in every warp
    warps = r.params.total_blocks * r.params.warps_per_block
    executions = np.ones(L, np.int64)
    executions[prog.loop_start:prog.loop_end] = prog.trip
    assert np.array_equal(st_[:, SELECTED], warps * executions)
    assert r.warp_instructions == warps * prog.dynamic_instructions_per_warp == int(r.series_totals[3])
    assert r.pc_trace(r.params.sm_count) is None  # no such SM
    full = len(r.recorded_sms) == r.params.sm_count and r.trace_cycles == r.cycles
    counted = np.zeros_like(st_)
    for k, sm in enumerate(r.recorded_sms.tolist()):
        pcs = r.pc_trace(sm)
        states = r.trace[:, k, :]
        assert pcs.dtype == np.int16 and pcs.shape == states.shape
        assert np.array_equal(pcs == -1, states == EMPTY)
        assert pcs.max(initial=-1) < L
        busy = states != EMPTY
        np.add.at(counted, (pcs[busy].astype(np.int64), states[busy].astype(np.int64)), 1)
    if full:  # the per-slot traces tell the same story, cell by cell
        assert np.array_equal(counted, st_)


@pytest.mark.parametrize("name", ["example-240x256", "barrier-tiling", "tail-effect"])
def test_contract_on_presets(name):
    r = simulate(load_preset(name))
    check_contract(r)
    assert r.warp_program.source in ("sass", "model")
    if r.warp_program.source == "model":
        assert r.program_notice  # the SASS was asked for: the fallback says why


def test_pc_trace_is_decimated_with_the_state_trace():
    s = load_preset("example-240x256").with_values(program="model")
    r = simulate(s, trace_budget_bytes=2_000_000)
    assert 0 < len(r.recorded_sms) < r.params.sm_count
    check_contract(r)
    assert r.pc_trace(int(r.recorded_sms[-1]) + 1) is None


CLASSES = sorted(set(DEFAULTS) - {"exit"})


@st.composite
def programs(draw):
    n = draw(st.integers(1, 8))
    rows = []
    for _ in range(n):
        cls = draw(st.sampled_from(CLASSES))
        regs = st.lists(st.sampled_from(["R0", "R1", "R2", "R3", "P0", "UR4"]), max_size=3, unique=True)
        no_result = cls in ("stg", "sts", "stl", "sync", "branch")
        rows.append(row(cls, [] if no_result else draw(regs), draw(regs), latency=draw(st.integers(1, 30)),
                        req=draw(st.sampled_from([0, 32, 128, 512]))))
    a = draw(st.integers(0, n))
    b = draw(st.integers(a, n))
    return program(rows, a, b, draw(st.integers(1, 4)))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(1, 300), st.sampled_from([32, 96, 256, 1024]), st.sampled_from(POLICIES),
       st.sampled_from(["H100", "A100", "T4"]), st.integers(0, 2**16))
def test_invariants_for_any_program(prog, blocks, threads, policy, gpu, seed):
    s = Scenario().with_values(**{"gpu": gpu, "launch.grid": [blocks, 1, 1], "launch.block": [threads, 1, 1],
                                  "scheduler.policy": policy, "seed": seed, "workload.l2_hit_rate": 0.5})
    r = simulate(s, program=prog)
    assert (r.issued <= r.eligible).all() and (r.eligible <= r.resident).all() and (r.resident <= r.launched).all()
    check_contract(r)
    again = simulate(s, program=prog)
    assert again.cycles == r.cycles and np.array_equal(again.trace, r.trace)
    assert np.array_equal(again.stall_by_instruction, r.stall_by_instruction)
