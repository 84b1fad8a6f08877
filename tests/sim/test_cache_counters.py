"""The caches' counters under Nsight Compute's names (issue 29 item 4), against hand-computed access patterns.

A fresh L2 far larger than the footprint: every load's sector misses L2 once and comes from device memory; every
store's sector is written into L2 without a fetch (a hit, as Nsight counts it) and stays there, dirty, when the
kernel ends; no plain load leaves a copy in L1, so nothing hits there."""

import json
import subprocess
import sys

import pytest

from explorer.model.scenario import Scenario
from explorer.sim import simulate


def run(body, grid=132, loop=2, **extra):
    values = {"gpu": "H200", "program": "model", "launch.grid": [grid, 1, 1], "launch.block": [256, 1, 1],
              "workload.body": body, "workload.loop": loop, **extra}
    return simulate(Scenario().with_values(**values))


def test_a_coalesced_load_and_store_read_half_the_l2_sectors_as_hits():
    r = run([{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}])
    warps = 132 * 8
    per_access = warps * 2 * 4  # 2 iterations x 4 sectors (32 lanes x 4 B = 128 B)
    c = r.summary()["caches"]
    assert c["by_address"]
    assert c["l1tex__t_sectors"] == 2 * per_access and c["l1tex__t_sector_hit_rate"] == 0.0
    assert c["lts__t_sectors"] == 2 * per_access and c["lts__t_sector_hit_rate"] == pytest.approx(50.0)
    assert c["dram__bytes_read.sum"] == per_access * 32  # the loads' sectors, once each
    assert c["dram__bytes_write.sum"] == 0  # the stores stay dirty in L2


def test_a_stride_32_load_moves_a_sector_per_lane():
    r = run([{"op": "ldg", "bytes": 4, "stride": 32}, {"op": "ffma", "count": 1}], loop=1)
    warps = 132 * 8
    c = r.cache_counters()
    assert c["l1tex__t_sectors"] == warps * 32 and c["lts__t_sector_hit_rate"] == 0.0
    assert c["dram__bytes_read.sum"] == warps * 32 * 32  # 1 KB per warp for 128 useful bytes


def test_no_global_access_no_rates():
    c = run([{"op": "ffma", "count": 4}]).cache_counters()
    assert c == {"by_address": False, "l1tex__t_sectors": 0, "l1tex__t_sector_hit_rate": None, "lts__t_sectors": 0,
                 "lts__t_sector_hit_rate": None, "dram__bytes_read.sum": 0, "dram__bytes_write.sum": 0}


def test_simulate_prints_and_writes_them():
    cmd = [sys.executable, "-m", "explorer", "simulate", "example-240x256", "--set", "program=model"]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    assert "caches (from addresses)  L1 0.0% of 245,760 sectors hit, L2 50.0% of 245,760; DRAM 3.93 MB read" in text
    data = json.loads(subprocess.run(cmd + ["--json"], capture_output=True, text=True, check=True).stdout)
    assert data["caches"]["lts__t_sector_hit_rate"] == pytest.approx(50.0)
    assert data["caches"]["dram__bytes_read.sum"] == 1920 * 16 * 128


def test_each_instruction_has_its_own_sectors_and_they_sum_to_the_runs():
    """The SASS view's per-instruction hit rates (issue 29 item 4): the load's sectors all miss L1 and L2 (a fresh
    L2, each sector read once), the store's miss L1 (write-through) and hit L2 (written without a fetch); the
    FFMAs look nothing up; the rows add up to the run's counters."""
    r = run([{"op": "ldg", "bytes": 4}, {"op": "ffma", "count": 2}, {"op": "stg", "bytes": 4}])
    per_access = 132 * 8 * 2 * 4
    sect = r.sectors_by_instruction
    listing = r.warp_program.listing
    rows = {}
    for pc, counts in enumerate(sect):
        text = listing[r.warp_program.static_index[pc]].text.split()[0] if sect[pc].any() else None
        if text is not None:
            rows[text] = rows.get(text, 0) + counts
    m = r.memory
    assert sect.sum(axis=0).tolist() == [m["l1_hit_sectors"], m["l1_miss_sectors"], m["l2_hit_sectors"],
                                         m["l2_miss_sectors"]]
    loads = [k for k in rows if k.startswith("LDG")]
    stores = [k for k in rows if k.startswith("STG")]
    assert loads and stores and set(rows) == set(loads) | set(stores)  # only the global accesses have sectors
    assert sum(rows[k] for k in loads).tolist() == [0, per_access, 0, per_access]
    assert sum(rows[k] for k in stores).tolist() == [0, per_access, per_access, 0]

