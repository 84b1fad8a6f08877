"""Hand-computed micro cases: the simulator's timing matches arithmetic done by hand.

Timeline conventions (explorer/sim/kernel.py): a block placed at cycle 0 starts
issuing at the launch latency L (resources/sim_model.toml), its warp k at L + k x the
warp launch interval (the SM creates a block's warps one after another); a dependent
instruction issues exactly when its producer's result is ready; EXIT issues the
cycle after the last instruction and the warp leaves one cycle later.
"""

import numpy as np
import pytest

from explorer.model.scenario import Scenario
from explorer.sim import simulate
from explorer.sim.params import params_for
from explorer.sim.states import BARRIER, CODE, SELECTED, WAIT

H100 = "H100"


def one_warp(body, loop=1, gpu=H100, **extra):
    """One warp running the workload model's program (hand-timed below; SASS programs: test_warp_program_engine)."""
    values = {"gpu": gpu, "launch.grid": [1, 1, 1], "launch.block": [32, 1, 1], "workload.body": body,
              "workload.loop": loop, "program": "model"}
    values.update(extra)
    return Scenario().with_values(**values)


def issue_cycles(result, sm=0, slot=0):
    trace = result.sm_trace(sm)
    return np.nonzero(trace[:, slot] == SELECTED)[0]


@pytest.mark.parametrize("n", [1, 2, 10, 33])
def test_dependent_fma_chain_costs_the_latency_sum(n):
    s = one_warp([{"op": "ffma", "count": n}])
    p = params_for(s)
    r = simulate(s)
    start = p.block_launch_latency
    # FMA k issues at start + lat_fma * (k - 1); EXIT one cycle after the last; gone one later
    expected_issues = [start + p.lat_fma * k for k in range(n)] + [start + p.lat_fma * (n - 1) + 1]
    assert list(issue_cycles(r)) == expected_issues
    assert r.cycles == start + p.lat_fma * (n - 1) + 2
    assert r.summary()["warp_state_cycles"]["wait"] == (p.lat_fma - 1) * (n - 1)


def test_independent_fmas_issue_back_to_back():
    s = one_warp([{"op": "ffma", "count": 8, "ilp": 4}])
    p = params_for(s)
    r = simulate(s)
    start = p.block_launch_latency
    # four chains: FMAs 0-3 issue on consecutive cycles, FMA 4 waits for FMA 0's result
    assert list(issue_cycles(r)[:4]) == [start, start + 1, start + 2, start + 3]
    assert issue_cycles(r)[4] == start + p.lat_fma


def _load_ready(r, p, iteration_start):
    """The cycle a load issued at ``iteration_start`` has its data, as the FMA consuming it issues then."""
    issues = issue_cycles(r)
    k = int(np.searchsorted(issues, iteration_start))
    return issues[k], issues[k + 1]


@pytest.mark.parametrize("level", ["lat_dram", "lat_l2", "lat_l1"])
def test_one_global_load_costs_its_latency(level):
    """Caches from addresses: a warp's first load of a line misses everything (lat_dram); its second, a
    loop later, finds it in L2 (lat_l2: plain loads do not allocate in L1, sim_model.toml [caches]), or in L1
    when L1 keeps a copy (lat_l1). An idle memory system adds no queueing: the level's unloaded latency after
    L1TEX's one wavefront."""
    extra = {"workload.l2_hit_rate": 1.0} if level != "lat_dram" else {}
    s = one_warp([{"op": "ldg", "bytes": 4}, {"op": "ffma"}], loop=2, **extra)
    p = params_for(s)
    if level == "lat_l1":
        from dataclasses import replace

        p = replace(p, l1_allocates_loads=1)
    r = simulate(s, params=p)
    start = p.block_launch_latency
    first, ready = _load_ready(r, p, start)
    assert first == start
    if level == "lat_dram":  # cold: the first iteration's load goes to device memory
        assert ready == start + 1 + p.lat_dram
        return
    second = issue_cycles(r)[2]  # the second iteration's load: the same line (the L2 region repeats)
    _, ready2 = _load_ready(r, p, second)
    assert ready2 == second + 1 + getattr(p, level)
    trace = r.sm_trace(0)[:, 0]
    assert (trace[second + 1:ready2] == CODE["long_scoreboard"]).all()


def test_barrier_holds_the_block_until_the_last_warp_arrives():
    # 5 warps: slots 0..4, schedulers 0,1,2,3,0 -> warps 0 and 4 share scheduler 0, so
    # warp 4 reaches the barrier last. Nobody may pass it before warp 4 arrives.
    s = one_warp([{"op": "ffma", "count": 4, "ilp": 4}, {"op": "sync"}, {"op": "ffma"}],
                 **{"launch.block": [160, 1, 1]})
    p = params_for(s)
    r = simulate(s)
    trace = r.sm_trace(0)
    sync_issue = {slot: issue_cycles(r, 0, slot)[4] for slot in range(5)}
    last = max(sync_issue.values())
    assert last == sync_issue[4] > sync_issue[0]
    for slot in range(5):
        after = issue_cycles(r, 0, slot)[5]  # the FMA after the barrier
        assert after >= last + p.barrier_latency
        # between its own arrival and the release, the warp is in 'barrier'
        assert (trace[sync_issue[slot] + 1:last + p.barrier_latency, slot] == BARRIER).all()


def _scheduler0_order(policy):
    """Scheduler 0's picks once both of its warps (slots 0 and 4) can issue: warp 4 starts 4 warp launch intervals
    after warp 0, which issues alone until then (its 4 chains keep it eligible every cycle)."""
    s = one_warp([{"op": "ffma", "count": 24, "ilp": 4}], **{"launch.block": [160, 1, 1], "scheduler.policy": policy})
    p = params_for(s)
    r = simulate(s)
    trace = r.sm_trace(0)
    both = p.block_launch_latency + 4 * p.warp_launch_cycles
    alone = list(issue_cycles(r, 0, 0)[:4 * p.warp_launch_cycles])
    assert alone == list(range(p.block_launch_latency, both))
    order = []
    for t in range(both, r.cycles):
        for slot in (0, 4):  # scheduler 0's warps
            if trace[t, slot] == SELECTED:
                order.append(slot)
    return order


def test_lrr_alternates_and_gto_runs_one_warp_to_completion():
    # 25 instructions each (24 FMAs in 4 chains + EXIT); warp 0 has issued 12 when warp 4 starts: 13 left
    assert _scheduler0_order("lrr") == [4, 0] * 13 + [4] * 12
    assert _scheduler0_order("gto") == [0] * 13 + [4] * 25
    assert _scheduler0_order("oldest") == [0] * 13 + [4] * 25


def test_math_pipe_throttle_on_a_16_lane_fma_pipe():
    # A100: 16 FP32 lanes per scheduler -> one warp-FMA every 2 cycles. Two warps on one
    # scheduler with independent FMAs: one issues, the other finds the pipe busy.
    s = one_warp([{"op": "ffma", "count": 4, "ilp": 4}], gpu="A100", **{"launch.block": [160, 1, 1]})
    p = params_for(s)
    assert p.fma_interval == 2
    r = simulate(s)
    assert r.summary()["warp_state_cycles"]["math_pipe_throttle"] > 0
    issues = issue_cycles(r, 0, 0)
    assert all(b - a >= 2 for a, b in zip(issues[:4], issues[1:4]))


def test_wait_state_is_fixed_latency_dependency():
    s = one_warp([{"op": "ffma", "count": 3}])
    r = simulate(s)
    trace = r.sm_trace(0)[:, 0]
    p = params_for(s)
    start = p.block_launch_latency
    assert list(trace[start:start + p.lat_fma + 1]) == [SELECTED] + [WAIT] * (p.lat_fma - 1) + [SELECTED]
