"""TMA copies through the L2 tags by the tiles they copy (issue 29: ``[workload.tiles]``).

References: hand-computed sector counts (a tile's lines are its rows' bytes; a first touch misses, every later
copy of the same lines hits while L2 holds them, an L2 smaller than the tiles cycled through it misses them
all), the first-touch count of a tiled GEMM from its grid shape (A row-panels shared by the blocks of a tile row,
B column-panels by a tile column), the lane-free reference ``TmaLayout.copy_lines`` against the cycle loop's
compiled ``_tma_copy_lines``, the validation's one-line errors, and ``--set`` keys into the tile tables (a
deep key runs what the same value in the file runs).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.gemm import gemm_scenario, plan_gemm
from explorer.gemm.waves import grouped_position
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.model.tma_tiles import DATA_LIMIT, parse_tiles, tile_position
from explorer.sim.engine import estimate_run, simulate
from explorer.sim.kernel import _tma_copy_lines
from explorer.sim.params import params_for
from explorer.toolchain.addresses import HOT_BASE, tma_layout
from tests.helpers import assert_one_line_error, run_cli

SECTOR = 32


def _operand(base=0, pitch=8192, box=(128, 64), eb=2, at=("m", "k"), multicast=1):
    d = {"base": base, "pitch": pitch, "box": list(box), "element_bytes": eb, "at": list(at)}
    if multicast != 1:
        d["multicast"] = multicast
    return d


def _scenario(tiles: dict, blocks: int, loop: int = 1, operands=("a", "b")) -> Scenario:
    """A warp-specialized Hopper block (a producer warpgroup, one consumer warpgroup) that copies one tile of each
    operand per K-step and consumes it with one wgmma."""
    body = [{"op": "tma", "operand": name} for name in operands] + [{"op": "wgmma", "count": 1, "n": 64}]
    return Scenario.from_dict({
        "gpu": "H100", "program": "model",
        "launch": {"grid": [blocks, 1, 1], "block": [256, 1, 1], "registers_per_thread": 128},
        "workload": {"loop": loop, "stages": 2, "producer_warps": 4, "body": body, "tiles": tiles},
    })


def _row_sectors(r, row):
    """(L2 hit, L2 missed) sectors of program row ``row``."""
    return tuple(int(x) for x in r.sectors_by_instruction[row, 2:4])


def test_the_second_block_to_copy_an_a_tile_hits():
    """Two blocks of one tile row (grid 1 x 2) copy the same A tile (128 x 64 x 2 B = 16 KB: 128 lines, 512
    sectors) and their own B tile (64 x 64 x 2 B: 256 sectors): A is fetched once and hit once, B twice missed.
    L2: 2 x 512 + 2 x 256 = 1,536 sectors looked up, 512 hit; device memory reads the other 1,024 (32 KB)."""
    tiles = {"grid": [1, 2], "a": _operand(), "b": _operand(base=1 << 20, box=(64, 64), at=("n", "k"))}
    r = simulate(_scenario(tiles, 2))
    c = r.cache_counters()
    assert c["by_address"] and c["l1tex__t_sectors"] == 0  # TMA passes no L1
    assert c["lts__t_sectors"] == 1536 and c["lts__t_sector_hit_rate"] == pytest.approx(100 * 512 / 1536)
    assert c["dram__bytes_read.sum"] == (512 + 2 * 256) * SECTOR
    assert r.memory["l2_bytes"] == 512 * SECTOR and r.memory["dram_bytes"] == 1024 * SECTOR
    assert _row_sectors(r, 0) == (512, 512)  # the A copy's row: one copy hit, one missed
    assert _row_sectors(r, 1) == (0, 512)  # B: two tiles, each once


def test_a_tile_bigger_than_l2_misses_every_time():
    """An L2 of 8 sets x 16 ways x 128 B = 16 KB and a 32 KB tile (128 x 128 x 2 B: 256 consecutive lines, 32 per
    set): LRU keeps each set's last 16 of its 32 lines, so the second block's copy, walking the lines in the same
    order, evicts each line just before it would be asked for: all 2 x 1,024 sectors miss. In the H100's 50 MB the
    same second copy hits every sector."""
    tiles = {"grid": [1, 2], "a": _operand(pitch=256, box=(128, 128))}
    sc = _scenario(tiles, 2, operands=("a",))
    small = dataclasses.replace(params_for(sc), l2_sets=8, l2_ways=16, l2_bytes=16 * 1024)
    c = simulate(sc, params=small).cache_counters()
    assert c["lts__t_sectors"] == 2048 and c["lts__t_sector_hit_rate"] == 0.0
    assert c["dram__bytes_read.sum"] == 2 * 32 * 1024
    c = simulate(sc).cache_counters()
    assert c["lts__t_sectors"] == 2048 and c["lts__t_sector_hit_rate"] == pytest.approx(50.0)


def test_a_gemm_grid_hits_all_but_its_first_touches():
    """A 4 x 3 grid of blocks (row-major: group 1) over 5 K-steps; A tiles 64 x 64 x 2 B = 8 KB at (m, k), B tiles
    128 x 64 x 2 B = 16 KB at (n, k). Lookups: 12 blocks x 5 x (8 + 16) KB = 1,440 KB; first touches: the 4 A
    row-panels and 3 B column-panels, 5 x (4 x 8 + 3 x 16) KB = 400 KB; hit rate 1 - 400 / 1,440 = 72.2%."""
    tiles = {"grid": [4, 3], "a": _operand(pitch=5 * 128, box=(64, 64)),
             "b": _operand(base=1 << 20, pitch=5 * 128, box=(128, 64), at=("n", "k"))}
    r = simulate(_scenario(tiles, 12, loop=5))
    c = r.cache_counters()
    kb = 1024 // SECTOR
    assert c["lts__t_sectors"] == 1440 * kb
    assert c["lts__t_sector_hit_rate"] == pytest.approx(100 * (1 - 400 / 1440))
    assert c["dram__bytes_read.sum"] == 400 * 1024
    assert _row_sectors(r, 0) == ((60 - 20) * 8 * kb, 20 * 8 * kb)  # A: 60 copies, 20 distinct tiles
    assert _row_sectors(r, 1) == ((60 - 15) * 16 * kb, 15 * 16 * kb)  # B: 60 copies, 15 distinct tiles


def test_a_multicast_tile_is_read_once_per_cluster():
    """Two blocks of one tile row share the A tile with multicast 2: each copies half its rows (the half n mod 2
    picks), so L2 sees each of the tile's 512 sectors once, all first touches."""
    tiles = {"grid": [1, 2], "a": _operand(multicast=2)}
    sc = _scenario(tiles, 2, operands=("a",))
    assert sc.workload.body[0].bytes == 64 * 128
    c = simulate(sc).cache_counters()
    assert c["lts__t_sectors"] == 512 and c["lts__t_sector_hit_rate"] == 0.0
    layout = tma_layout(sc.workload.tiles)
    halves = [layout.copy_lines(b, 0, "a") for b in (0, 1)]
    assert not set(halves[0]) & set(halves[1]) and len(halves[0]) == len(halves[1]) == 64


def test_the_gemm_scenario_hits_its_reuse_count():
    """The 1024^3 bf16 GEMM on an H100 (128 x 256 x 64 tiles, 8 x 4 of them, 16 K-steps, cluster 2 x 1: B multicast
    along M): its scenario sets no L2 hit rate and copies its tiles; every block copies a 128 x 64 A tile and half
    a 256 x 64 B tile (16 KB each) per K-step, 32 x 16 x 32 KB = 16 MB looked up, of which the first touches are A
    and B once (2 + 2 MB, all of it fits the 50 MB L2): 75% hits, from the grid shape."""
    p = plan_gemm("H100", 1024, 1024, 1024, "bf16")
    sc = gemm_scenario(p)
    assert sc.workload.l2_hit_rate == 0.0 and sc.workload.tiles is not None
    assert (p.tiles_m, p.tiles_n, p.k_steps, p.pipeline.cluster) == (8, 4, 16, (2, 1))
    r = simulate(sc)
    c = r.cache_counters()
    looked_up = p.tiles * p.k_steps * 2 * 16 * 1024
    first = (1024 * 1024 + 1024 * 1024) * 2
    assert c["lts__t_sectors"] * SECTOR == looked_up
    assert c["lts__t_sector_hit_rate"] == pytest.approx(100 * (1 - first / looked_up))
    assert c["dram__bytes_read.sum"] == first


def test_a_partial_gemm_grid_hits_the_reuse_numpy_counts():
    """The first 100 of a 2048^2 x 1024 GEMM's 16 x 8 tiles (groups of 8 tile rows walked column by column), 8
    K-steps: the distinct (m, k) A tiles and (n, k, m mod 2) B slices its blocks touch, counted with numpy from
    the tile order, are its misses (the operands fit L2); the simulated hit rate is that count's within a point."""
    p = plan_gemm("H100", 2048, 2048, 1024, "bf16")
    sc = gemm_scenario(p, max_tiles=100, k_steps=8)
    pos = np.array([grouped_position(b, p.tiles_m, p.tiles_n, 8) for b in range(100)])
    m, n = pos[:, 0], pos[:, 1]
    a_tiles = len(np.unique(m)) * 8
    b_slices = len(np.unique(np.stack([n, m % 2]), axis=1).T) * 8
    copies = 100 * 8
    expected = 1 - (a_tiles + b_slices) / (2 * copies)  # A's and B's copies are 16 KB each
    c = simulate(sc).cache_counters()
    assert c["lts__t_sector_hit_rate"] / 100 == pytest.approx(expected, abs=0.01)
    assert c["dram__bytes_read.sum"] == (a_tiles + b_slices) * 16 * 1024


def test_a_gemm_larger_than_l2_stays_near_its_first_touches():
    """The 4096^3 bf16 GEMM on an H100: A and B are 32 MiB each, 64 MiB against the 50 MiB L2, but the blocks resident
    together (132 of 512, groups of 8 tile rows) share few panels, so L2 holds what they reuse: the hit rate is at most
    the first-touch count's 1 - 64 MiB / 1 GiB = 93.75% and within a point of it (the few lines LRU evicts before
    their last reuse are read again)."""
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    c = simulate(gemm_scenario(p)).cache_counters()
    looked_up = p.tiles * p.k_steps * 2 * 16 * 1024
    first = 2 * 4096 * 4096 * 2
    assert c["lts__t_sectors"] * SECTOR == looked_up
    assert 100 * (1 - first / looked_up) - 1 < c["lts__t_sector_hit_rate"] <= 100 * (1 - first / looked_up)
    assert first <= c["dram__bytes_read.sum"] < 1.1 * first


def test_the_estimate_counts_first_touches():
    """The up-front estimate's device-memory bound takes the tiles' first touches, not a rate (the scenario sets
    none: 0 would make every copied byte a miss)."""
    p = plan_gemm("H100", 4096, 4096, 4096, "bf16")
    sc = gemm_scenario(p)
    layout = tma_layout(sc.workload.tiles)
    assert layout.first_touch_bytes(p.tiles, p.k_steps) == 2 * 4096 * 4096 * 2
    est = estimate_run(sc)
    every_miss = estimate_run(sc.with_values(**{"workload.l2_hit_rate": 0.0}))  # the same: the rate is unused
    assert est.cycles == every_miss.cycles
    assert est.cycles < 0.5 * p.tiles * p.k_steps * 32768 / params_for(sc).dram_bytes_per_cycle


# -- the addresses --------------------------------------------------------------------------------------------
def test_tile_positions_are_the_gemm_swizzle():
    for tm, tn, g in ((4, 4, 2), (5, 4, 2), (32, 16, 8), (3, 7, 1)):
        assert [tile_position(b, tm, tn, g) for b in range(tm * tn)] == \
            [grouped_position(b, tm, tn, g) for b in range(tm * tn)]
        assert sorted(tile_position(b, tm, tn, g) for b in range(tm * tn)) == \
            [(i, j) for i in range(tm) for j in range(tn)]


def test_a_copys_lines_by_hand():
    """A at (m, k), 128 x 64 x 2 B tiles, pitch 8,192 B: block 9 of a 4 x 4 grid (row-major) is tile (2, 1); its
    copy in K-step 3 reads rows 256..383 at columns 3 x 128 B: line (row x 8192 + 384) / 128, all four sectors."""
    tiles = parse_tiles({"grid": [4, 4], "a": _operand()})
    lines = tma_layout(tiles).copy_lines(9, 3, "a")
    assert lines == {(row * 8192 + 384) // 128: 15 for row in range(256, 384)}
    # a row of 64 B at byte 80 of a line (bytes 80..143): sectors 2 and 3, then sector 0 of the next line
    tiles = parse_tiles({"grid": [1, 1], "a": _operand(base=80, pitch=4096, box=(1, 32))})
    assert tma_layout(tiles).copy_lines(0, 0, "a") == {0: 0b1100, 1: 0b0001}


operand_tables = st.fixed_dictionaries({
    "base": st.integers(0, 1 << 20).map(lambda x: x * 16),
    "pitch_extra": st.integers(0, 64).map(lambda x: x * 16),
    "box": st.tuples(st.integers(1, 64), st.integers(1, 32)),
    "element_bytes": st.sampled_from([1, 2, 4, 8]),
    "at": st.sampled_from([("m", "k"), ("k", "m"), ("n", "k"), ("k", "n"), ("m", "n"), ("n", "m")]),
    "multicast": st.sampled_from([1, 2, 4]),
})


def _fit(o: dict) -> dict:
    """A random operand made valid: whole 16-byte rows, rows splitting into the multicast's slices."""
    eb = o["element_bytes"]
    cols = -(-o["box"][1] * eb // 16) * 16 // eb
    mc = o["multicast"] if set(o["at"]) != {"m", "n"} else 1
    rows = -(-o["box"][0] // mc) * mc
    return _operand(o["base"], cols * eb + o["pitch_extra"], (min(rows, 256), cols), eb, o["at"], mc)


@settings(max_examples=60, deadline=None)
@given(o=operand_tables, grid=st.tuples(st.integers(1, 9), st.integers(1, 9)), group=st.integers(1, 9),
       block=st.integers(0, 80), it=st.integers(0, 20))
def test_the_loops_lines_are_the_tiles_bytes(o, grid, group, block, it):
    tiles = parse_tiles({"grid": list(grid), "group": min(group, grid[0]), "a": _fit(o)})
    layout = tma_layout(tiles)
    block %= tiles.tiles
    lines, masks = np.zeros(layout.max_lines(), np.int64), np.zeros(layout.max_lines(), np.int64)
    n = _tma_copy_lines(layout.table(), 1, block, it, lines, masks)
    got: dict = {}
    for k in range(n):
        assert int(lines[k]) not in got  # each line once
        got[int(lines[k])] = int(masks[k])
    assert got == layout.copy_lines(block, it, "a")


# -- validation -----------------------------------------------------------------------------------------------
BAD = [
    ({"grid": [0, 4], "a": _operand()}, "workload.tiles.grid[0]"),
    ({"grid": [4, 4], "group": 5, "a": _operand()}, "workload.tiles.group"),
    ({"grid": [4, 4]}, "workload.tiles"),
    ({"grid": [4, 4], "a": _operand(box=(257, 64))}, "workload.tiles.a.box[0]"),
    ({"grid": [4, 4], "a": _operand(box=(128, 3))}, "workload.tiles.a.box[1]"),  # 6 B rows
    ({"grid": [4, 4], "a": _operand(eb=3)}, "workload.tiles.a.element_bytes"),
    ({"grid": [4, 4], "a": _operand(base=8)}, "workload.tiles.a.base"),
    ({"grid": [4, 4], "a": _operand(pitch=8200)}, "workload.tiles.a.pitch"),
    ({"grid": [4, 4], "a": _operand(pitch=64)}, "workload.tiles.a.pitch"),  # narrower than a row
    ({"grid": [4, 4], "a": _operand(pitch=1 << 40)}, "workload.tiles.a.pitch"),
    ({"grid": [4, 4], "a": _operand(at=("m", "m"))}, "workload.tiles.a.at"),
    ({"grid": [4, 4], "a": _operand(at=("m", "x"))}, "workload.tiles.a.at"),
    ({"grid": [4, 4], "a": _operand(at=("m", "n"), multicast=2)}, "workload.tiles.a.multicast"),
    ({"grid": [4, 4], "a": _operand(box=(100, 64), multicast=8)}, "workload.tiles.a.multicast"),
    ({"grid": [4, 4], "a": _operand(multicast=17)}, "workload.tiles.a.multicast"),
    ({"grid": [4, 4], "a": {**_operand(), "shape": 1}}, "workload.tiles.a.shape"),
    ({"grid": [4, 4], "a": {k: v for k, v in _operand().items() if k != "pitch"}}, "workload.tiles.a.pitch"),
    ({"grid": [4, 4], "a": _operand(base=DATA_LIMIT - 4096)}, "workload.tiles.a"),  # past the address space
]


@pytest.mark.parametrize("tiles,field", BAD)
def test_a_bad_tile_table_names_its_field(tiles, field):
    with pytest.raises(InputError) as exc:
        _scenario(tiles, 4, operands=("a",))
    assert exc.value.field == field, str(exc.value)


def test_the_steps_and_the_tables_name_each_other():
    ok = {"grid": [2, 2], "a": _operand()}
    with pytest.raises(InputError, match="bytes") as exc:  # bytes that are not the tile's
        Scenario.from_dict({**_scenario(ok, 4, operands=("a",)).to_dict(), "workload": {
            "loop": 1, "stages": 2, "producer_warps": 4, "tiles": ok,
            "body": [{"op": "tma", "operand": "a", "bytes": 4096}, {"op": "wgmma", "n": 64}]}})
    assert exc.value.field == "workload.body[0].bytes"
    cases = [
        (ok, ("b",), "workload.body[0].operand"),  # no such table
        ({"grid": [2, 2], "a": _operand(), "b": _operand()}, ("a",), "workload.tiles.b"),  # a table nobody copies
    ]
    for tiles, ops, field in cases:
        with pytest.raises(InputError) as exc:
            _scenario(tiles, 4, operands=ops)
        assert exc.value.field == field
    with pytest.raises(InputError) as exc:  # more blocks than tiles
        _scenario(ok, 5, operands=("a",))
    assert exc.value.field == "launch.grid" and "at most 4 blocks" in exc.value.message
    with pytest.raises(InputError) as exc:  # K-steps past the address space
        _scenario({"grid": [2, 2], "a": _operand(pitch=1 << 30, at=("k", "m"))}, 4, loop=10_000, operands=("a",))
    assert exc.value.field == "workload.loop"
    with pytest.raises(InputError) as exc:  # an operand without tiles
        Scenario.from_dict({"gpu": "H100", "program": "model", "launch": {"grid": [4], "block": [256]},
                            "workload": {"stages": 2, "producer_warps": 4, "body": [
                                {"op": "tma", "bytes": 4096, "operand": "a"}, {"op": "wgmma", "n": 64}]}})
    assert exc.value.field == "workload.body[0].operand"
    with pytest.raises(InputError) as exc:  # a tma step without an operand beside tiles
        Scenario.from_dict({"gpu": "H100", "program": "model", "launch": {"grid": [4], "block": [256]},
                            "workload": {"stages": 2, "producer_warps": 4, "tiles": ok, "body": [
                                {"op": "tma", "operand": "a"}, {"op": "tma", "bytes": 4096},
                                {"op": "wgmma", "n": 64}]}})
    assert exc.value.field == "workload.body[1].operand"
    with pytest.raises(InputError) as exc:  # operand on another op
        Scenario.from_dict({"workload": {"body": [{"op": "ldg", "operand": "a"}]}})
    assert exc.value.field == "workload.body[0].operand"


@settings(max_examples=80, deadline=None)
@given(data=st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**41, 2**41), st.text(max_size=4), st.floats(allow_nan=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(
        st.sampled_from(["grid", "group", "a", "base", "pitch", "box", "element_bytes", "at", "multicast"]), inner,
        max_size=6)), max_leaves=12))
def test_any_tile_table_parses_or_says_which_field(data):
    """Whatever the table holds: a valid TmaTiles that round-trips, or an InputError naming a field of it."""
    try:
        tiles = parse_tiles(data)
    except InputError as exc:
        assert str(exc.field).startswith("workload.tiles")
        return
    assert parse_tiles(tiles.to_dict()) == tiles


@settings(max_examples=40, deadline=None)
@given(o=operand_tables, grid=st.tuples(st.integers(1, 50), st.integers(1, 50)))
def test_valid_tables_round_trip_through_the_scenario(o, grid):
    tiles = {"grid": list(grid), "a": _fit(o)}
    sc = _scenario(tiles, 1, operands=("a",))
    assert Scenario.from_dict(sc.to_dict()) == sc
    assert sc.workload.body[0].bytes == sc.workload.tiles.operands[0].copy_bytes


def test_the_address_space_ends_below_the_simulators_own_regions():
    assert DATA_LIMIT <= HOT_BASE


def test_the_cli_refuses_a_bad_table_in_one_line(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('gpu = "H100"\nprogram = "model"\n[launch]\ngrid = [4, 1, 1]\nblock = [256, 1, 1]\n'
                 '[workload]\nstages = 2\nproducer_warps = 4\n'
                 'body = [{op = "tma", operand = "a"}, {op = "wgmma", n = 64}]\n'
                 '[workload.tiles]\ngrid = [2, 2]\n'
                 '[workload.tiles.a]\nbase = 0\npitch = 8192\nbox = [300, 64]\nelement_bytes = 2\nat = ["m", "k"]\n')
    assert_one_line_error(run_cli("simulate", str(f)), contains="workload.tiles.a.box[0]: 300 is above the maximum "
                                                               "of 256")


# -- --set keys into the tile tables (workload.tiles.<operand>.<field>) --------------------------------------------

def _two_operand_tiles(b_base: int = 1 << 20) -> dict:
    return {"grid": [1, 2], "a": _operand(), "b": _operand(base=b_base, box=(64, 64), at=("n", "k"))}


def _json_run(*args) -> dict:
    proc = run_cli("simulate", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    out.pop("sim_seconds")  # wall time
    return out


def test_a_deep_set_moves_a_tile_as_the_file_does(tmp_path):
    """``--set workload.tiles.b.base=0`` puts B's tiles inside A's: B tile n (64 x 64 x 2 B, at [n, k]) is rows
    [64n, 64n + 64) of the matrix's first 128 bytes per row, the very lines of A's tile (128 x 64 x 2 B: 128 lines,
    512 sectors). The two blocks look up 2 x 512 + 2 x 256 = 1,536 sectors in L2, which touch 512 distinct ones:
    512 miss, 1,024 hit (66.7%; with B at 1 MiB 512 hit, 33.3%), and device memory reads 512 x 32 B = 16 KB. The
    same value written in the file gives the same scenario and the same run, through the CLI too."""
    moved = _scenario(_two_operand_tiles(), 2).with_overrides(["workload.tiles.b.base=0"])
    assert moved == _scenario(_two_operand_tiles(b_base=0), 2)
    c = simulate(moved).cache_counters()
    assert c["lts__t_sectors"] == 1536 and c["lts__t_sector_hit_rate"] == pytest.approx(100 * 1024 / 1536)
    assert c["dram__bytes_read.sum"] == 512 * SECTOR

    base_file, moved_file = tmp_path / "base.toml", tmp_path / "moved.toml"
    _scenario(_two_operand_tiles(), 2).save(base_file)
    _scenario(_two_operand_tiles(b_base=0), 2).save(moved_file)
    by_set = _json_run(str(base_file), "--set", "workload.tiles.b.base=0")
    assert by_set == _json_run(str(moved_file))
    assert by_set["caches"]["lts__t_sectors"] == 1536 and by_set["caches"]["dram__bytes_read.sum"] == 512 * SECTOR
    assert _json_run(str(base_file))["caches"]["lts__t_sector_hit_rate"] == pytest.approx(100 * 512 / 1536)


@pytest.mark.parametrize("scenario,assignment,line", [
    ("tiled", "workload.tiles.a.bogus=1",
     "error: workload.tiles.a.bogus: unknown key; allowed: at, base, box, element_bytes, multicast, pitch"),
    ("tiled", "workload.tiles.a.box=wide", "error: workload.tiles.a.box: 'wide' is not a tile shape [rows, columns]"),
    ("tiled", "workload.tiles.a.box=[300,64]", "error: workload.tiles.a.box[0]: 300 is above the maximum of 256"),
    ("tiled", "workload.tiles.grid.m=1",
     "error: workload.tiles.grid.m: workload.tiles.grid is [1, 2], not a table; set workload.tiles.grid itself"),
    ("tiled", "workload.body[0].bytes=4096", "error: workload.body[0].bytes: a key names tables, not list items"),
    ("example-240x256", "workload.tiles.a.base=4096",
     "error: workload.tiles.grid: missing: the output tiles along M and along N"),
])
def test_a_bad_deep_set_is_one_line_exit_2(tmp_path, scenario, assignment, line):
    if scenario == "tiled":
        scenario = str(tmp_path / "tiled.toml")
        _scenario(_two_operand_tiles(), 2).save(scenario)
    assert_one_line_error(run_cli("simulate", scenario, "--set", assignment), 2, line)
