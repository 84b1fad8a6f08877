"""Your own kernel's caches from its executed addresses (issue 29): a user kernel's global loads and stores meet
L1's and L2's tags with the sectors its lanes touched (explorer.sim.executed.chunk_lines), as the generated kernels'.

The references are hand-computed from the kernels' access patterns on a cold L2 that holds every buffer (it never
evicts here): plain loads do not allocate in L1 (sim_model.toml [caches] l1_allocates_loads = false), so they
never hit it; a load sector hits L2 when an earlier access brought it there; a store's sectors are written into L2
without a fetch (L2 hits) and stay there (write-back: no DRAM write before an eviction); Nsight Compute counts a
store as an L1 miss.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.execute.cases import buf
from tests.sass.support import needs_sass
from tests.sim.test_kernel_timing import scenario, timed

pytestmark = needs_sass


def _rows(result, opcode):
    """The listing rows whose opcode is ``opcode`` (LDG, STG)."""
    return [k for k, row in enumerate(result.warp_program.listing) if row.opcode == opcode]


def _check_rows_sum_to_the_run(r):
    """The per-instruction counters (L1 hit, L1 miss, L2 hit, L2 miss sectors) add up to the run's."""
    m = r.memory
    assert r.sectors_by_instruction.sum(axis=0).tolist() == [
        m["l1_hit_sectors"], m["l1_miss_sectors"], m["l2_hit_sectors"], m["l2_miss_sectors"]]


def test_saxpy_reads_x_and_y_from_dram_once_and_writes_y_into_l2():
    n = 64 * 1024
    args = {"n": n, "a": 2.0, "x": buf("f32", n, "arange"), "y": buf("f32", n, "ones")}
    r, _ = timed(scenario("saxpy.cu", "saxpy", args, (n // 256, 1, 1), (256, 1, 1)))
    load_sectors = 2 * n * 4 // 32  # x and y, each sector once
    store_sectors = n * 4 // 32
    c = r.cache_counters()
    assert c["by_address"]
    assert c["l1tex__t_sectors"] == load_sectors + store_sectors and c["l1tex__t_sector_hit_rate"] == 0.0
    assert c["lts__t_sectors"] == load_sectors + store_sectors
    assert r.memory["l2_hit_sectors"] == store_sectors and r.memory["l2_miss_sectors"] == load_sectors
    assert c["dram__bytes_read.sum"] == 2 * n * 4 and c["dram__bytes_write.sum"] == 0
    _check_rows_sum_to_the_run(r)
    loads, stores = _rows(r, "LDG"), _rows(r, "STG")
    assert len(loads) == 2 and len(stores) == 1
    for k in loads:  # each load: every sector misses L1 and L2
        assert r.sectors_by_instruction[k].tolist() == [0, n * 4 // 32, 0, n * 4 // 32]
    assert r.sectors_by_instruction[stores[0]].tolist() == [0, store_sectors, store_sectors, 0]


def test_one_sector_read_by_every_warp_misses_l2_once():
    """copy_strided with stride 0: every lane of every warp reads in[0], one sector; the first warp's miss brings
    it into L2, every later warp's read hits there (L1 keeps no copy: the loads do not allocate)."""
    n = 64 * 1024
    warps = n // 32
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n, "stride": 0}
    r, _ = timed(scenario("copy.cu", "copy_strided", args, (n // 256, 1, 1), (256, 1, 1)))
    m = r.memory
    assert r.cache_counters()["by_address"]
    assert m["l1_hit_sectors"] == 0 and m["l1_miss_sectors"] == warps + n * 4 // 32
    assert m["l2_miss_sectors"] == 1 and m["l2_hit_sectors"] == warps - 1 + n * 4 // 32
    assert m["dram_read_bytes"] == 32 and m["dram_write_bytes"] == 0
    _check_rows_sum_to_the_run(r)
    (load,) = _rows(r, "LDG")
    assert r.sectors_by_instruction[load].tolist() == [0, warps, warps - 1, 1]


def test_a_tiled_matmul_rereads_its_tiles_from_l2():
    """64 x 64 x 64 in 16 x 16 tiles: each of the 16 blocks reads a 16-row strip of A and a 16-column strip of B
    (8 KiB); DRAM sends each of A's and B's 1,024 sectors once, the other reads hit L2."""
    M = N = K = 64
    args = {"A": buf("f32", M * K, "random"), "B": buf("f32", K * N, "random"), "C": buf("f32", M * N),
            "M": M, "N": N, "K": K}
    r, _ = timed(scenario("matmul.cu", "matmul_tiled", args, (N // 16, M // 16, 1), (16, 16, 1)))
    m = r.memory
    blocks = (M // 16) * (N // 16)
    loaded = blocks * 2 * 16 * K * 4 // 32  # sectors the blocks' loads ask for
    unique = (M * K + K * N) * 4 // 32
    stored = M * N * 4 // 32
    assert r.cache_counters()["by_address"]
    assert m["l1_hit_sectors"] == 0 and m["l1_miss_sectors"] == loaded + stored
    assert m["l2_miss_sectors"] == unique and m["l2_hit_sectors"] == loaded - unique + stored
    assert m["dram_read_bytes"] == (M * K + K * N) * 4 and m["dram_write_bytes"] == 0
    _check_rows_sum_to_the_run(r)


def test_the_line_table_compacts_and_the_run_stays_the_same(monkeypatch):
    """A line table far smaller than the run's lines (compacted to the window's live ones again and again, with
    one-cycle calls and small chunks): the same run as with the default table."""
    from explorer.sim import executed, simulate
    from explorer.sim.engine import program_budget
    from explorer.sim.executed import kernel_feed

    n = 16 * 1024
    args = {"n": n, "a": 2.0, "x": buf("f32", n, "arange"), "y": buf("f32", n, "ones")}
    sc = scenario("saxpy.cu", "saxpy", args, (n // 256, 1, 1), (256, 1, 1))
    runs = []
    compact = executed.ProgramFeed._compact_lines
    for size, kw in ((executed.MIN_LINE_TABLE, {}), (16, {"segment_entries": 8, "chunk_instructions": 3000})):
        monkeypatch.setattr(executed, "MIN_LINE_TABLE", size)
        compactions = []
        monkeypatch.setattr(executed.ProgramFeed, "_compact_lines",
                            lambda self, *a, seen=compactions: seen.append(1) or compact(self, *a))
        prepared = kernel_feed(sc, budget=program_budget, **kw)
        runs.append((simulate(prepared.scenario, program=prepared.listing(), feed=prepared.feed,
                              params=prepared.params), len(compactions)))
    (whole, _), (small, compacted) = runs
    assert compacted >= 2
    assert small.cycles == whole.cycles and small.memory == whole.memory
    assert np.array_equal(small.sectors_by_instruction, whole.sectors_by_instruction)
    assert whole.memory["dram_read_bytes"] == 2 * n * 4


@pytest.mark.parametrize("rate", ["l1_hit_rate", "l2_hit_rate"])
def test_a_hit_rate_in_kernel_overrides_the_addresses(rate):
    n = 16 * 1024
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n}
    sc = scenario("copy.cu", "copy_coalesced", args, (n // 256, 1, 1), (256, 1, 1))
    r, _ = timed(sc.with_overrides([f"kernel.{rate}=0.5"]))
    assert not r.cache_counters()["by_address"] and r.sectors_by_instruction.sum() == 0


def test_local_memory_is_cached_in_l1_and_l2_from_its_interleaved_addresses():
    """local_twice.cu: each thread writes 32 words of a local array, then reads them all twice (a run-time index
    keeps the array in local memory). Local memory interleaves a warp's threads word by word, so each STL and LDL
    of one warp touches one 128 B line (4 sectors): 32 lines a warp. Hand-computed for 4 warps (one per SM):
    the stores write 4 x 32 x 4 = 512 sectors into L2 (hits, no DRAM write); the first pass of loads misses L1
    and hits L2 (512 sectors), leaving the lines in L1 (a local load allocates there); the second pass hits L1."""
    n = 128
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n, "k": 3}
    r, run = timed(scenario("local_twice.cu", "local_twice", args, (4, 1, 1), (32, 1, 1)))
    (stl,), (ldl,) = _rows(r, "STL"), _rows(r, "LDL")
    assert r.sectors_by_instruction[stl].tolist() == [0, 512, 512, 0]
    assert r.sectors_by_instruction[ldl].tolist() == [512, 512, 512, 0]
    assert r.cache_counters()["dram__bytes_write.sum"] == 0
    _check_rows_sum_to_the_run(r)
    # the kernel's own answer: out[i] = 2 * sum_j i * j = 992 i
    assert np.array_equal(run.result.outputs["out"], 992.0 * np.arange(n, dtype=np.float32))


def test_a_global_atomic_is_resolved_in_l2_on_the_line_it_reads():
    """count.cu on 4 warps (one per SM): the compiler aggregates the counter's atomicAdd into one REDG per warp
    (one sector) and each warp's slot add is one REDG of one sector (the 4 slots share a 32 B sector).
    Hand-computed: per REDG, 4 sectors pass L1 as stores do (misses), the first reaches L2 cold and reads its
    sector from DRAM, the other 3 find it there: [0, 4, 3, 1]; 2 x 32 B read from DRAM, nothing written back
    (the changed lines stay dirty in L2). Before, atomics drew the scenario's hit rates: 256 B written to DRAM."""
    n = 128
    args = {"counter": buf("u32", 1), "slots": buf("u32", 8), "n": n}
    r, run = timed(scenario("count.cu", "count", args, (4, 1, 1), (32, 1, 1)))
    reds = [k for k, row in enumerate(r.warp_program.listing) if row.opcode == "REDG"]
    assert len(reds) == 2
    for k in reds:
        assert r.sectors_by_instruction[k].tolist() == [0, 4, 3, 1]
    c = r.cache_counters()
    assert c["by_address"] and c["dram__bytes_read.sum"] == 64 and c["dram__bytes_write.sum"] == 0
    _check_rows_sum_to_the_run(r)
    assert run.result.outputs["counter"].tolist() == [n]
    assert run.result.outputs["slots"].tolist() == [sum(range(32 * w, 32 * w + 32)) for w in range(4)] + [0] * 4


def test_a_sector_still_on_its_way_from_dram_is_waited_for():
    """In-flight fills (kernel._l2_lookup): copy_strided with stride 0 on 32 warps that all issue their load
    before the first one's miss is back: the first misses, every other finds the sector allocated in L2 (a hit,
    as Nsight counts it) but on its way from device memory, and waits for that same fill instead of taking L2's
    latency. So each hit's latency is the miss's less how much later it issued (within the launch's stagger: 4
    blocks of 8 warps, one block per SM, warps started a few cycles apart), and none is shorter than that."""
    n = 4 * 256
    warps = n // 32
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n, "stride": 0}
    r, _ = timed(scenario("copy.cu", "copy_strided", args, (n // 256, 1, 1), (256, 1, 1)))
    m = r.memory
    assert m["l2_miss_sectors"] == 1 and m["l2_hit_sectors"] >= warps - 1
    lat = r.latency_cycles()
    assert m["dram_loads"] == 1 and m["l2_loads"] == warps - 1
    stagger = r.params.warps_per_block * r.params.warp_launch_cycles + 16  # the last warp's start after the first
    assert lat["dram"] - stagger <= lat["l2"] <= lat["dram"]
    assert lat["l2"] > 1.5 * r.params.lat_l2  # not L2's own latency (without in-flight fills: lat_l2 + a queue)


def test_an_l1_line_still_on_its_way_is_waited_for():
    """In-flight fills in L1 too: readonly.cu's __ldg (which L1 keeps) with stride 0 in one block of 8 warps on
    one SM: the first warp misses L1 and L2 and leaves the sector on its way into L1; the 7 others find it there
    (L1 hits) before it has landed and wait for the same fill, not L1's latency."""
    n = 256
    warps = n // 32
    args = {"in": buf("f32", n, "arange"), "out": buf("f32", n), "n": n, "stride": 0}
    r, _ = timed(scenario("readonly.cu", "copy_strided_ldg", args, (1, 1, 1), (256, 1, 1)))
    m = r.memory
    assert m["l1_hit_sectors"] == warps - 1 and m["l2_miss_sectors"] == 1
    lat = r.latency_cycles()
    assert m["dram_loads"] == 1 and m["l1_loads"] == warps - 1
    stagger = r.params.warps_per_block * r.params.warp_launch_cycles + 16
    assert lat["dram"] - stagger <= lat["l1"] <= lat["dram"]
    assert lat["l1"] > 10 * r.params.lat_l1  # not L1's own latency (without in-flight fills: lat_l1 + its queue)
