"""Timing from what executed: the simulator on real kernels (tests/kernels/*.cu), [kernel] scenarios.

The references are independent of the engine: hand-computed DRAM bytes from the sector
counts (a coalesced float copy moves 4 B per element each way; a stride of 8 floats a
whole 32-byte sector per element on the load side), the executor's own counts
(warp-instructions, lanes), and the orderings the hardware shows (bank conflicts and
uncoalesced loads cost time).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.sim.states import BARRIER, EMPTY, NOT_SELECTED, SELECTED
from tests.execute.cases import KERNELS, buf, cases
from tests.sass.support import needs_sass

pytestmark = needs_sass


def scenario(file, name, args, grid, block, dynamic_shared=0, gpu="H100", **top):
    data = {"gpu": gpu, "launch": {"grid": list(grid), "block": list(block), "dynamic_shared_bytes": dynamic_shared},
            "kernel": {"file": str(KERNELS / file), "name": name, "args": args}, **top}
    return Scenario.from_dict(data)


def timed(sc, **kw):
    from explorer.sim.engine import simulate_kernel

    return simulate_kernel(sc, **kw)


def check_invariants(r, entries):
    launched, resident, eligible, issued = r.launched, r.resident, r.eligible, r.issued
    assert r.series_stride == 1
    assert (issued <= eligible).all() and (eligible <= resident).all() and (resident <= launched).all()
    assert (issued <= r.params.sm_count * r.params.sub_partitions).all()
    assert launched[0] == r.params.total_blocks * r.params.warps_per_block
    # every executed warp-instruction issues once, EXIT included
    assert r.count_total("issued") == entries == r.warp_instructions
    tr = r.trace
    per_sp = (tr == SELECTED).reshape(tr.shape[0], tr.shape[1], -1, r.params.sub_partitions).sum(axis=2)
    assert per_sp.max(initial=0) <= 1
    if len(r.recorded_sms) == r.params.sm_count:
        assert np.array_equal((tr == SELECTED).sum(axis=(1, 2)), issued)
        assert np.array_equal(((tr == SELECTED) | (tr == NOT_SELECTED)).sum(axis=(1, 2)), eligible)
        assert np.array_equal((tr != EMPTY).sum(axis=(1, 2)), resident)
    assert (r.blocks.end > r.blocks.start).all()


SUITE = {c.id: c for c in cases()}
KERNEL_CASES = ["saxpy-grid-stride", "copy-strided", "transpose-tiled", "transpose-conflicts", "reduce-shared",
                "reduce-shuffle", "warp-max-vote", "matmul-tiled", "histogram-shared-atomics",
                "histogram-global-atomics", "divergent-branches", "partial-warp-exit", "local-memory", "doubles"]


@pytest.mark.parametrize("case_id", KERNEL_CASES)
def test_invariants_and_determinism_on_the_kernel_suite(case_id):
    c = SUITE.get(case_id)
    if c is None:
        pytest.fail(f"no suite case {case_id}")
    sc = scenario(c.file, c.name, c.args, c.grid, c.block, c.dynamic_shared, seed=7)
    r1, run1 = timed(sc)
    check_invariants(r1, run1.result.metrics["warp_instructions"])
    # per static instruction: the cycles a warp was selected at it = the times the executor issued it
    stall = r1.stall_by_instruction
    assert stall.shape == (run1.kernel.decoded.n, len(r1.summary()["warp_state_cycles"]) + 1)
    assert np.array_equal(stall[:, SELECTED], run1.result.executions)
    assert np.array_equal(stall.sum(axis=0)[1:], r1.series_totals[4 + 1:])  # every state but empty
    assert r1.warp_program.length == run1.kernel.decoded.n
    rows = r1.pc_trace(int(r1.recorded_sms[0]))
    assert rows.min() >= -1 and rows.max() < run1.kernel.decoded.n
    r2, run2 = timed(sc)
    assert r1.cycles == r2.cycles
    assert np.array_equal(r1.series.mean, r2.series.mean) and np.array_equal(r1.trace, r2.trace)
    assert r1.memory == r2.memory
    # the timing does not change what the kernel computes
    for name, out in run1.result.outputs.items():
        assert np.array_equal(out, run2.result.outputs[name]), name


def _copy(name, n, **extra):
    args = {"in": buf("f32", 8 * n, "arange"), "out": buf("f32", n), "n": n, **extra}
    return timed(scenario("copy.cu", name, args, (n // 256, 1, 1), (256, 1, 1)))


def test_a_strided_copy_moves_eight_times_the_load_bytes_and_takes_longer():
    n = 64 * 1024
    rc, _ = _copy("copy_coalesced", n)
    rs, _ = _copy("copy_strided", n, stride=8)
    # by the executed addresses (issue 29): every load sector is read once from device memory (a cold L2, no
    # sector read twice); the stores are written into L2 (write-back) and stay there (L2 holds them all)
    assert rc.memory["dram_read_bytes"] == 4 * n  # loads: 4 sectors per warp
    assert rs.memory["dram_read_bytes"] == 32 * n  # loads: a 32-byte sector per element
    assert rc.memory["dram_write_bytes"] == rs.memory["dram_write_bytes"] == 0
    assert rs.memory["dram_bytes"] == 8 * rc.memory["dram_bytes"]
    # 8x the load bytes on a kernel this small (2,048 warps, one load each) is partly hidden by its latency: the
    # strided loads' sectors are contiguous (32 B apart), so each request is two full 512 B bursts, not 32 rows
    assert rs.cycles > 1.5 * rc.cycles


def test_hit_rates_in_kernel_override_the_addresses():
    n = 16 * 1024
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n}
    sc = scenario("copy.cu", "copy_coalesced", args, (n // 256, 1, 1), (256, 1, 1))
    miss, _ = timed(sc)
    hit, _ = timed(sc.with_overrides(["kernel.l2_hit_rate=1.0"]))
    assert miss.params.l2_hit_rate == 0.0 and hit.params.l2_hit_rate == 1.0
    # by address (no rate set): the loads' sectors come from device memory, the stores' are written into L2
    assert miss.memory["dram_bytes"] == 4 * n and miss.memory["l2_bytes"] == 4 * n
    assert miss.cache_counters()["by_address"] and not hit.cache_counters()["by_address"]
    assert hit.memory["l2_bytes"] == 8 * n and hit.memory["dram_bytes"] == 0  # every access served by L2
    assert hit.cycles < miss.cycles


def test_bank_conflicts_make_the_shared_transpose_slower():
    rows = cols = 256
    args = {"in": buf("f32", rows * cols, "arange"), "out": buf("f32", rows * cols), "rows": rows, "cols": cols}
    grid = (cols // 32, rows // 32, 1)
    rt, et = timed(scenario("transpose.cu", "transpose_tiled", args, grid, (32, 32, 1)))
    rc, ec = timed(scenario("transpose.cu", "transpose_conflicts", args, grid, (32, 32, 1)))
    assert et.result.metrics["bank_conflicts"].get("shared_load", 0) == 0
    assert ec.result.metrics["bank_conflicts"]["shared_load"] == 31 * (rows * cols // 32)  # 32-way per warp
    # shared bytes: one 128-byte wavefront per conflict-free access, 32 per conflicted column read
    warps = rows * cols // 32
    assert rt.memory["shared_bytes"] == 2 * warps * 128
    assert rc.memory["shared_bytes"] == warps * 128 + warps * 32 * 128
    assert rc.cycles > rt.cycles
    s = rc.summary()
    assert s["throughput"]["shared"]["pct_of_peak"] > rt.summary()["throughput"]["shared"]["pct_of_peak"]


def test_a_divergent_warp_issues_both_paths():
    n = 256
    args = {"in": buf("i32", n, "random"), "out": buf("i32", n), "n": n}
    r, run = timed(scenario("divergence.cu", "divergent", args, (2, 1, 1), (128, 1, 1)))
    m, res = run.result.metrics, run.result
    assert m["simt_efficiency"] < 0.9
    assert r.count_total("issued") == m["warp_instructions"]
    # the instructions that issued with partial masks (the odd/even paths, the lane-dependent loops) were
    # timed as often as they executed: both sides of every branch issue
    partial = (res.executions > 0) & (res.active_lanes < 32 * res.executions)
    assert partial.sum() >= 4
    assert np.array_equal(r.stall_by_instruction[partial, SELECTED], res.executions[partial])
    # zeros in: the data-dependent loop (Collatz) runs no step on any lane, the warps issue fewer
    uniform = {"in": buf("i32", n, "zeros"), "out": buf("i32", n), "n": n}
    ru, runu = timed(scenario("divergence.cu", "divergent", uniform, (2, 1, 1), (128, 1, 1)))
    assert ru.count_total("issued") == runu.result.metrics["warp_instructions"] < m["warp_instructions"]


def test_barrier_kernels_complete_and_wait_at_their_barriers():
    n = 4096
    args = {"in": buf("f32", n, "ones"), "partial": buf("f32", n // 256), "n": n}
    r, run = timed(scenario("reduce.cu", "reduce_shared", args, (n // 256, 1, 1), (256, 1, 1),
                            dynamic_shared=256 * 4))
    assert np.all(run.result.outputs["partial"] == 256.0)
    assert r.summary()["warp_state_cycles"]["barrier"] > 0
    assert (r.state_counts[:, BARRIER] > 0).any()


EXIT_THEN_BARRIER = r"""
extern "C" __global__ void exit_then_barrier(const float* in, float* out)
{
    __shared__ float s[64];
    if (threadIdx.x >= 64) {                // warps 2 and 3: a load from DRAM and a store, then they leave
        int j = blockIdx.x * 64 + threadIdx.x - 64;
        out[192 + j] = 2.0f * in[j];
        return;
    }
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();                        // warps 0 and 1 get here first: they wait until 2 and 3 left
    out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
"""


def test_warps_that_exit_do_not_hold_a_barrier(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text(EXIT_THEN_BARRIER)
    sc = Scenario.from_dict({"gpu": "H100", "launch": {"grid": [3, 1, 1], "block": [128, 1, 1]},
                             "kernel": {"file": str(src), "name": "exit_then_barrier",
                                        "args": {"in": buf("f32", 192, "arange"), "out": buf("f32", 384)}}})
    r, run = timed(sc)
    check_invariants(r, run.result.metrics["warp_instructions"])
    out = run.result.outputs["out"]
    assert np.array_equal(out[:192], np.tile(np.arange(63, -1, -1, dtype=np.float32), 3))
    assert np.array_equal(out[192:], 2 * np.arange(192, dtype=np.float32))
    assert r.summary()["warp_state_cycles"]["barrier"] > 0  # 0 and 1 waited for 2 and 3 to leave


def test_a_kernel_beyond_the_program_budget_is_refused(monkeypatch):
    """Refused before anything runs, naming the parts and the limit (issue 30, item 2: runs near 3 GB were
    refused only after a minute of execution)."""
    from explorer.sass.execute import session
    from explorer.sim import engine

    monkeypatch.setattr(engine, "program_budget", lambda p, n_regs, n_rows: 50_000)
    ran = []
    monkeypatch.setattr(session.interp, "run", lambda *a: ran.append(1))
    n = 64 * 1024
    with pytest.raises(InputError, match=r"kernel.args: this run needs about [\d,]+ MiB \(buffers 2 MiB, .*the "
                                         r"simulator's records [\d,]+ MiB\), above the limit of 1,536 MiB"):
        _copy("copy_coalesced", n)
    assert ran == []  # nothing executed


def test_blocks_in_flight_beyond_the_feeds_store_are_refused_after_the_first_chunk(monkeypatch):
    """A launch whose blocks in flight would not fit the compact store: refused once the first chunk has
    executed (their size is not known before), naming the estimate; later blocks never run."""
    from explorer.sass.execute import session
    from explorer.sim.executed import ProgramFeed

    calls = []
    real = session.interp.run
    monkeypatch.setattr(session.interp, "run", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(ProgramFeed, "in_flight_estimate", lambda self, blocks: 1 << 40)
    n = 64 * 1024
    with pytest.raises(InputError, match=r"kernel: the timing engine would hold about [\d,]+ MiB of executed "
                                         r"instructions in flight \(256 blocks of about 128 warp-instructions, 20 bytes each\), above the "):
        _copy("copy_coalesced", n)
    assert len(calls) <= 3  # the interpreter's warm-up call and the first chunk


def test_the_simulate_entry_point_runs_a_kernel_scenario_and_keeps_the_cubins_launch():
    from explorer.sim import simulate

    n = 4096
    args = {"in": buf("f32", 8 * n, "arange"), "out": buf("f32", n), "n": n}
    sc = scenario("copy.cu", "copy_coalesced", args, (16, 1, 1), (256, 1, 1))
    r = simulate(sc)
    assert r.scenario.launch.registers_per_thread > 0 and r.cycles > 0
    assert r.extra["execution"]["sectors_per_request"] == {"global_load": 4.0, "global_store": 4.0}
    one = simulate(sc, record_sms=[3])  # the window's per-SM re-simulation: the same run
    assert np.array_equal(one.sm_trace(3), r.sm_trace(3))


def test_per_row_counts_and_lane_masks_are_what_executed():
    """The result's per-row counts are the executor's (an independent count: the interpreter's own
    tallies), and every recorded slot's mask at every cycle is the mask of the entry it issues next:
    the lanes the executor issued that warp's instruction with."""
    n = 256
    args = {"in": buf("i32", n, "random"), "out": buf("i32", n), "n": n}
    r, run = timed(scenario("divergence.cu", "divergent", args, (2, 1, 1), (128, 1, 1)))
    res = run.result
    assert np.array_equal(r.row_executions, res.executions)
    assert np.array_equal(r.row_active_lanes, res.active_lanes)
    avg = r.row_average_lanes()
    ran = res.executions > 0
    assert np.allclose(avg[ran], res.active_lanes[ran] / res.executions[ran]) and np.isnan(avg[~ran]).all()
    assert (avg[ran] < 32).sum() >= 4  # the divergent paths
    # masks: for each recorded slot, the masks it shows (one per change of its next instruction) are, in
    # order, the active masks of its warp's executed stream (the flat program's entries)
    flat = whole_flat(r.scenario)
    seen_partial = 0
    for sm in r.recorded_sms.tolist():
        rows, masks, states = r.pc_trace(sm), r.mask_trace(sm), r.sm_trace(sm)
        assert masks.shape == rows.shape
        assert np.all((masks == 0) == (states == EMPTY))
        blocks = np.nonzero(r.blocks.sm == sm)[0]
        assert len(blocks) <= 1  # two blocks on 132 SMs: each slot holds one warp, so its masks are that warp's
        for b in blocks:
            for k, slot in enumerate(r.block_slots[b]):
                w = b * r.params.warps_per_block + k
                live = (np.arange(r.cycles) >= r.blocks.start[b]) & (states[:, slot] != EMPTY)
                t = np.nonzero(live)[0]
                changes = np.append(True, (rows[t[1:], slot] != rows[t[:-1], slot])
                                    | (masks[t[1:], slot] != masks[t[:-1], slot]))
                got = masks[t[changes], slot]
                want = flat.active[flat.warp(w)]
                # consecutive entries with the same row and mask show as one; compare the runs
                keep = np.append(True, (want[1:] != want[:-1])
                                 | (flat.static_index[flat.warp(w)][1:] != flat.static_index[flat.warp(w)][:-1]))
                assert np.array_equal(got, want[keep][: got.shape[0]])
                seen_partial += int((got != 0xFFFFFFFF).sum())
    assert seen_partial > 0


def test_a_uniform_kernel_shows_full_masks():
    n = 4096
    args = {"n": n, "a": 2.0, "x": buf("f32", n, "arange"), "y": buf("f32", n, "ones")}
    r, run = timed(scenario("saxpy.cu", "saxpy", args, (4, 1, 1), (256, 1, 1)))
    masks = r.mask_trace(int(r.recorded_sms[0]))
    live = masks != 0
    assert live.any() and np.all(masks[live] == 0xFFFFFFFF)
    assert int(r.row_active_lanes.sum()) == 32 * int(r.row_executions.sum()) == 32 * r.warp_instructions


def whole_flat(sc):
    """The launch's whole flat program (every executed entry, per warp), built from the executor's chunks."""
    from explorer.sass.execute import isa
    from explorer.sass.execute.flat_program import FlatProgramBuilder
    from explorer.sass.execute.run import compile_for
    from explorer.sass.execute.session import execute
    from explorer.sass.execute.timing import static_timing

    k = compile_for(sc)
    t = static_timing(k, sc.gpu)
    b = FlatProgramBuilder(t, k.decoded.rows[:, isa.C_WIDTH], n_blocks=sc.launch.total_blocks,
                           warps_per_block=sc.launch.warps_per_block(), wavefront_bytes=128, budget_bytes=1 << 30)
    execute(k, sc.launch, sc.kernel, seed=sc.seed, sm_count=sc.gpu.sm_count, on_chunk=b.add)
    return b.finish()


def _fed(sc, chunk):
    """(the run, the most executed entries its feed held) with the executor's chunks of ``chunk`` warp-instructions."""
    from explorer.sim import simulate
    from explorer.sim.engine import program_budget
    from explorer.sim.executed import kernel_feed

    prepared = kernel_feed(sc, budget=program_budget, chunk_instructions=chunk)
    feed, longest = prepared.feed, [prepared.feed.store_len]
    prepare = feed.prepare

    def watched(a):
        lp = prepare(a)
        longest.append(feed.store_len)  # the executed entries it keeps (compact), besides its warps' segments
        return lp

    feed.prepare = watched
    r = simulate(prepared.scenario, program=prepared.listing(), feed=feed, params=prepared.params)
    return r, max(longest), feed


def test_the_run_is_the_same_whatever_the_chunk_size_and_the_window_stays_small():
    """A long grid fed in small chunks: the same run cycle for cycle as one fed whole, and the window the
    engine holds stays a fraction of what executed (finished blocks' entries are dropped)."""
    n = 8192 * 256  # 8,192 blocks: eight waves of 1,056 resident blocks (132 SMs x 8)
    args = {"in": buf("f32", n, "random"), "out": buf("f32", n), "n": n}
    sc = scenario("copy.cu", "copy_coalesced", args, (n // 256, 1, 1), (256, 1, 1))
    whole, whole_len, _ = _fed(sc, 1 << 24)
    small, small_len, feed = _fed(sc, 20_000)
    assert whole_len == whole.warp_instructions == small.warp_instructions == feed.entries
    assert small.cycles == whole.cycles
    assert np.array_equal(small.series.mean, whole.series.mean)
    assert np.array_equal(small.stall_by_instruction, whole.stall_by_instruction)
    assert np.array_equal(small.blocks.start, whole.blocks.start) and np.array_equal(small.blocks.end, whole.blocks.end)
    # the SMs whose trace is kept follow the up-front estimate (from the first chunk's blocks when fed in
    # small chunks): the ones both kept are the same, cycle for cycle, and so are their events
    k = min(len(small.recorded_sms), len(whole.recorded_sms))
    assert np.array_equal(small.recorded_sms[:k], whole.recorded_sms[:k])
    assert np.array_equal(small.trace[:, :k], whole.trace[:, :k])
    W = small.params.warps_per_sm
    for field in ("t", "cell", "row", "mask"):
        a, b = getattr(small.pc_events, field), getattr(whole.pc_events, field)
        assert np.array_equal(a[small.pc_events.cell < k * W], b[whole.pc_events.cell < k * W]), field
    assert np.array_equal(small.row_executions, whole.row_executions)
    assert small.memory == whole.memory
    # the window holds about the resident blocks' entries and a chunk
    assert small_len < whole_len / 2
    check_invariants(small, feed.entries)


@pytest.mark.parametrize("case_id", ["matmul-tiled", "divergent-branches", "histogram-shared-atomics",
                                     "partial-warp-exit"])
def test_tiny_regions_give_the_same_run(case_id):
    """The feed streams each warp's entries a region at a time (issue 30, item 2): with regions of 8 entries
    (calls of one cycle: every segment refilled, moved and its region reused all the time) and chunks of a
    few blocks, the run is the one fed with whole regions, cycle for cycle."""
    from explorer.sim import simulate
    from explorer.sim.engine import program_budget
    from explorer.sim.executed import kernel_feed

    case = SUITE[case_id]
    sc = Scenario.from_dict({"gpu": "H100", "launch": {"grid": list(case.grid), "block": list(case.block),
                                                       "dynamic_shared_bytes": case.dynamic_shared},
                             "kernel": {"file": str(case.path), "name": case.name, "args": case.args}})
    runs = []
    for kw in ({}, {"segment_entries": 8, "chunk_instructions": 3000}):
        prepared = kernel_feed(sc, budget=program_budget, **kw)
        runs.append((simulate(prepared.scenario, program=prepared.listing(), feed=prepared.feed,
                              params=prepared.params), prepared.feed))
    (whole, wf), (small, sf) = runs
    assert sf.cycles_per_call == 1 and wf.cycles_per_call > 1000
    assert small.cycles == whole.cycles and small.warp_instructions == whole.warp_instructions == sf.entries
    assert np.array_equal(small.stall_by_instruction, whole.stall_by_instruction)
    assert np.array_equal(small.series.mean, whole.series.mean)
    # the SMs whose trace is kept follow the up-front estimate, from the first chunk's blocks: those both kept
    k = min(len(small.recorded_sms), len(whole.recorded_sms))
    assert k > 0 and np.array_equal(small.recorded_sms[:k], whole.recorded_sms[:k])
    assert np.array_equal(small.trace[:, :k], whole.trace[:, :k])
    W = small.params.warps_per_sm
    for field in ("t", "cell", "row", "mask"):
        a, b = getattr(small.pc_events, field), getattr(whole.pc_events, field)
        assert np.array_equal(a[small.pc_events.cell < k * W], b[whole.pc_events.cell < k * W]), field
    assert small.memory == whole.memory
    check_invariants(small, sf.entries)
