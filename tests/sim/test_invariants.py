"""Invariants on random scenarios (hypothesis): what must hold for any kernel, any policy."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.model.catalog import load_catalog
from explorer.model.errors import InputError
from explorer.model.scenario import POLICIES, Scenario
from explorer.sim import simulate
from explorer.sim.states import EMPTY, NOT_SELECTED, SELECTED
from explorer.model.units import DRAM, L2, TENSOR

OPS = st.sampled_from(["ldg", "stg", "lds", "sts", "ffma", "sfu", "mma", "sync"])


@st.composite
def bodies(draw):
    steps = []
    for _ in range(draw(st.integers(1, 5))):
        op = draw(OPS)
        step = {"op": op}
        if op != "sync":
            step["count"] = draw(st.integers(1, 4))
        if op in ("ldg", "stg", "lds", "sts"):
            step["bytes"] = draw(st.sampled_from([4, 8, 16]))
        if op in ("ldg", "stg"):
            step["stride"] = draw(st.sampled_from([1, 2, 32]))
        if op in ("ffma", "mma"):
            step["ilp"] = draw(st.integers(1, step["count"]))
        steps.append(step)
    return steps


@st.composite
def scenarios(draw, program="model"):
    """Random scenarios running the workload model's program (``program="sass"``: the generated
    kernel's SASS, compiled once per distinct kernel and cached)."""
    gpu = draw(st.sampled_from(sorted(load_catalog())))
    threads = draw(st.sampled_from([32, 64, 96, 128, 160, 256, 512, 1024]))
    values = {
        "gpu": gpu,
        "launch.grid": [draw(st.integers(1, 300)), 1, 1],
        "launch.block": [threads, 1, 1],
        "launch.registers_per_thread": draw(st.sampled_from([16, 32, 40, 64, 96, 128, 255])),
        "launch.static_shared_bytes": draw(st.sampled_from([0, 1024, 8192, 40000])),
        "workload.body": draw(bodies()),
        "workload.loop": draw(st.integers(1, 3)),
        "workload.l1_hit_rate": draw(st.sampled_from([0.0, 0.5])),
        "workload.l2_hit_rate": draw(st.sampled_from([0.0, 0.5, 1.0])),
        "scheduler.policy": draw(st.sampled_from(POLICIES)),
        "scheduler.active_warps": draw(st.integers(1, 8)),
        "seed": draw(st.integers(0, 2**32)),
        "program": program,
    }
    try:
        return Scenario().with_values(**values)
    except InputError:
        return None


@st.composite
def async_scenarios(draw):
    """Hopper pipelines: a producer's tma copies into stages (now and then of tiles: [workload.tiles]), consumer
    warpgroups' wgmma + wait_group (or wgmma alone, every warp a consumer), now and then with FMAs between."""
    stages = draw(st.integers(1, 4))
    producers = draw(st.sampled_from([0, 1, 4]))
    grid = draw(st.integers(1, 200))
    loop = draw(st.integers(1, 6))
    body = []
    tiles = None
    if producers:
        body += [{"op": "tma", "bytes": draw(st.sampled_from([16, 1024, 16384, 32768]))}
                 for _ in range(draw(st.integers(1, 2)))]
        if draw(st.booleans()):  # copies of tiles: 128-byte rows, whole lines (their sectors are their bytes)
            tm = draw(st.integers(1, grid))
            tiles = {"grid": [tm, -(-grid // tm)], "group": draw(st.integers(1, tm))}
            for i, step in enumerate(body):
                step["bytes"] = max(step["bytes"], 1024)
                at = draw(st.sampled_from([["m", "k"], ["n", "k"], ["k", "m"], ["m", "n"]]))
                tiles[f"t{i}"] = {"base": i << 30, "pitch": 128 * draw(st.integers(1, 8)) * max(1, loop),
                                  "box": [step["bytes"] // 128, 64], "element_bytes": 2, "at": at}
                step["operand"] = f"t{i}"
    if draw(st.booleans()):
        body.append({"op": "ffma", "count": draw(st.integers(1, 4))})
    for _ in range(draw(st.integers(1, 2))):
        body.append({"op": "wgmma", "count": draw(st.integers(1, 4)), "n": draw(st.sampled_from([8, 64, 256])),
                     "pending": draw(st.integers(0, 3))})
    if producers:
        body[-1]["pending"] = min(body[-1]["pending"], stages - 1)
    else:
        stages = 1
    values = {
        "gpu": draw(st.sampled_from(["H100", "H200", "B200"])),
        "program": "model",
        "launch.grid": [grid, 1, 1],
        "launch.block": [32 * (producers + 4 * draw(st.integers(1, 2))), 1, 1],
        "launch.registers_per_thread": 128,
        "workload.body": body,
        "workload.stages": stages,
        "workload.producer_warps": producers,
        "workload.loop": loop,
        "workload.l2_hit_rate": draw(st.sampled_from([0.0, 0.5, 1.0])),
        "scheduler.policy": draw(st.sampled_from(POLICIES)),
        "seed": draw(st.integers(0, 2**32)),
    }
    if tiles:
        values["workload.tiles"] = tiles
    return Scenario().with_values(**values)  # every drawn pipeline is valid: a refusal is a bug


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_invariants(scenario):
    check_invariants(scenario)


def test_the_write_drain_keeps_device_memory_within_its_peak():
    """Found by hypothesis on CI: strided stores on an A100 evict dirty L2 lines faster than device memory
    writes them; the kernel's end then waits for the drain's last burst as for a load's (DRAM at 111% before)."""
    body = [{"op": "stg", "count": 2, "bytes": 16, "stride": 32}, {"op": "stg", "count": 1, "bytes": 8, "stride": 32},
            {"op": "ffma", "count": 1}, {"op": "lds", "count": 2, "bytes": 16}]
    r = check_invariants(Scenario().with_values(**{
        "gpu": "A100", "program": "model", "launch.grid": [224, 1, 1], "launch.block": [512, 1, 1],
        "launch.registers_per_thread": 64, "launch.static_shared_bytes": 40000, "workload.body": body,
        "workload.loop": 3, "scheduler.policy": "oldest", "scheduler.active_warps": 2, "seed": 0}))
    assert r.memory["dram_write_bytes"] > 0  # the drain ran


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(async_scenarios())
def test_invariants_with_tma_and_wgmma(scenario):
    r = check_invariants(scenario)  # never stalls for good: the validation refuses pipelines that could
    assert r is not None
    wl = scenario.workload
    consumers = r.params.warps_per_block - wl.producer_warps
    blocks = r.params.total_blocks
    # every copy's bytes crossed L2 (hits) or came from device memory; nothing went through L1
    tma = sum(op.bytes * op.count for op in wl.body if op.op == "tma")
    assert r.memory_bytes["l2"] + r.memory_bytes["dram"] == blocks * wl.loop * tma
    assert r.memory_bytes["l1"] == 0
    if wl.tiles is not None:  # by address: every copied sector looked up in L2, the misses read from device memory
        c = r.cache_counters()
        assert c["lts__t_sectors"] * 32 == blocks * wl.loop * tma
        assert c["dram__bytes_read.sum"] == r.memory_bytes["dram"] == r.memory["l2_miss_sectors"] * 32
    # the Tensor pipes were busy N / 8 MMA intervals per warp per wgmma, and never above 100% over the run
    mmas = sum(op.count * op.n // 8 for op in wl.body if op.op == "wgmma")
    busy = r.unit_busy_cycles[:, TENSOR].sum()
    assert busy == pytest.approx(blocks * consumers * wl.loop * mmas * r.params.mma_interval)
    assert busy <= r.cycles * r.params.sm_count * r.params.sub_partitions


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(program="sass"))
def test_invariants_with_sass_programs(scenario):
    """The same invariants when warps run the kernel's SASS (the model where NVRTC cannot target the GPU)."""
    r = check_invariants(scenario)
    if r is not None:
        assert r.warp_instructions == r.summary()["launched_warps"] * r.warp_program.dynamic_instructions_per_warp


def check_invariants(scenario):
    if scenario is None:
        return None
    try:
        r = simulate(scenario)
    except InputError:
        return None  # a launch that fits no block is refused, not simulated
    p = r.params
    launched, resident, eligible, issued = r.launched, r.resident, r.eligible, r.issued
    # issued <= eligible <= resident <= launched, every cycle
    assert (issued <= eligible).all()
    assert (eligible <= resident).all()
    assert (resident <= launched).all()
    # at most one issue per scheduler per cycle
    assert (issued <= p.sm_count * p.sub_partitions).all()
    tr = r.trace  # [cycles, recorded SMs, slots]
    per_sp = (tr == SELECTED).reshape(tr.shape[0], tr.shape[1], -1, p.sub_partitions).sum(axis=2)
    assert per_sp.max(initial=0) <= 1
    if len(r.recorded_sms) == p.sm_count:  # the per-slot trace tells the same story as the counts
        states = r.state_counts.shape[1]
        per_state = np.stack([(tr == code).sum(axis=(1, 2)) for code in range(states)], axis=1)
        assert np.array_equal(per_state, r.state_counts)
    # 'selected' is exactly the issued warps; eligible = selected + not_selected
    assert (r.state_counts[:, SELECTED] == issued).all()
    assert (r.state_counts[:, SELECTED] + r.state_counts[:, NOT_SELECTED] == eligible).all()
    # non-empty states sum to resident warps; all states sum to the warp slots
    non_empty = r.state_counts.sum(axis=1) - r.state_counts[:, EMPTY]
    assert (non_empty == resident).all()
    assert (r.state_counts.sum(axis=1) == p.sm_count * p.warps_per_sm).all()
    # residency never exceeds what the SM's resources hold, per SM, at any moment: blocks by the block-granular
    # resources, warps by the warp-granular ones (slots and registers come back per warp: a block may start
    # before an older one has wholly left, so live warps may pass theoretical occupancy's whole blocks)
    assert r.blocks.max_concurrent_per_sm(p.sm_count).max() <= p.block_capacity
    levels = r.residency.sample(np.unique(r.residency.time))
    assert levels.max() <= p.warp_capacity_per_sp * p.sub_partitions
    assert p.block_capacity >= r.theoretical.active_blocks_per_sm
    assert p.warp_capacity_per_sp * p.sub_partitions >= r.theoretical.active_warps_per_sm
    per_sp_live = (tr != EMPTY).reshape(tr.shape[0], tr.shape[1], -1, p.sub_partitions).sum(axis=2)
    assert per_sp_live.max(initial=0) <= p.warp_capacity_per_sp
    # every warp issued its whole program, every block ran, the kernel drained
    assert int(issued.sum()) == r.warp_instructions
    assert (r.blocks.start >= 0).all() and (r.blocks.end > r.blocks.start).all()
    assert (np.diff(launched) <= 0).all() and launched[0] == p.total_blocks * p.warps_per_block
    summary = r.summary()
    # achieved occupancy is bounded by what the SM's warp-granular resources hold, not by theoretical occupancy's
    # whole blocks: a block may start as an older one's warps leave (above), so a launch of one block per SM at a
    # time may average a little over it (A6000, 255 registers, 5-warp blocks: 10.4182% against 10.4167%)
    assert 0 <= summary["achieved_occupancy"] <= p.warp_capacity_per_sp * p.sub_partitions / p.warps_per_sm + 1e-9
    assert 0 <= summary["issue_slot_utilization"] <= 1
    # the kernel ends once its stores are complete: no unit above its peak over the run, and L2 and
    # device memory (whose late bus time is counted in the last windows) not in any window either, but
    # for a request's bytes counted in the window its turn starts in (a few cycles over at most)
    assert (r.unit_fraction() <= 1 + 1e-9).all()
    assert (r.unit_busy[:, [L2, DRAM]] <= 1 + 64 / r.window_cycles).all()
    assert r.cycles >= int(r.blocks.end.max()) and summary["store_tail_cycles"] == r.cycles - r.blocks.end.max()
    return r


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(scenarios(), scenarios(program="sass")))
def test_deterministic_for_a_seed(scenario):
    if scenario is None:
        return
    try:
        a = simulate(scenario)
    except InputError:
        return
    b = simulate(scenario)
    assert a.cycles == b.cycles
    assert np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.trace, b.trace)
    assert np.array_equal(a.blocks.sm, b.blocks.sm)


def test_seed_changes_memory_hits_but_not_the_contract():
    base = Scenario().with_values(**{"workload.l2_hit_rate": 0.5, "launch.grid": [132, 1, 1], "program": "model"})
    a, b = simulate(base.with_values(seed=1)), simulate(base.with_values(seed=2))
    assert a.memory_bytes != b.memory_bytes  # different draws of which loads hit L2
    assert a.warp_instructions == b.warp_instructions


def test_a_kernel_ending_on_an_mma_ends_after_its_tensor_pipe_is_free():
    """Found by the SASS-program invariants on a fresh clone: a V100 MMA holds its sub-partition's Tensor pipe
    ~16 cycles, and a warp whose last instruction was one exited at once (nothing read its result), so the
    kernel ended after 10 cycles with the pipe 100.3% busy over the run. The warp's EXIT waits (drain) until
    the instruction has left its pipe."""
    from explorer.model.scenario import Dim3, LaunchConfig, Workload
    from explorer.model.workload import Op

    scenario = Scenario(gpu_name="V100",
                        launch=LaunchConfig(grid=Dim3(50, 1, 1), block=Dim3(128, 1, 1), registers_per_thread=16),
                        workload=Workload(body=(Op(op="mma", count=1, n=256),), loop=1, l1_hit_rate=0.0,
                                          l2_hit_rate=0.0))
    r = check_invariants(scenario)
    # 200 warps on 80 SMs x 4 sub-partitions: one MMA per pipe at most, so the run lasts at least one MMA's
    # pipe time, and no pipe is busy longer than the run
    assert r.cycles >= np.ceil(r.params.mma_interval)
    assert r.unit_fraction()[TENSOR] <= 1
