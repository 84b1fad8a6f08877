"""The executed stream -> flat program lowering (explorer/sass/execute/flat_program.py), against the stream."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.model.catalog import get_gpu
from explorer.model.errors import InputError
from explorer.sass.execute import isa
from explorer.sass.warp_program import OP, SB
from tests.execute.cases import KERNELS, buf
from tests.execute.support import built
from tests.sass.support import needs_sass

pytestmark = needs_sass
WAVE = 128


def _flat(file, name, args, grid, block, chunk=1 << 20, budget=1 << 30, dynamic_shared=0):
    from explorer.model.kernel_spec import parse_kernel
    from explorer.model.scenario import parse_launch
    from explorer.sass.execute.flat_program import FlatProgramBuilder
    from explorer.sass.execute.session import execute
    from explorer.sass.execute.timing import static_timing

    k = built(str(KERNELS / file), name, "sm_90")
    spec = parse_kernel({"file": file, "name": name, "args": args})
    launch = parse_launch({"grid": list(grid), "block": list(block), "dynamic_shared_bytes": dynamic_shared})
    chunks = []
    r = execute(k, launch, spec, on_chunk=chunks.append, chunk_instructions=chunk)
    t = static_timing(k, get_gpu("H100"))
    nb = grid[0] * grid[1] * grid[2]
    b = FlatProgramBuilder(t, k.decoded.rows[:, isa.C_WIDTH], n_blocks=nb, warps_per_block=chunks[0].warps_per_block,
                           wavefront_bytes=WAVE, budget_bytes=budget)
    for st in chunks:
        b.add(st)
    prog = b.finish()
    prog.check()
    return k, r, chunks, prog


def test_entries_are_the_stream_in_grid_order_with_one_start_per_warp():
    n = 3000
    k, r, chunks, prog = _flat("saxpy.cu", "saxpy", {"n": n, "a": 2.0, "x": buf("f32", n), "y": buf("f32", n)},
                               (5, 1, 1), (128, 1, 1), chunk=200)
    assert len(chunks) > 1
    assert prog.entries == r.metrics["warp_instructions"] == sum(st.entries for st in chunks)
    assert prog.n_warps == 5 * 4
    rows = np.concatenate([st.row for st in chunks])
    assert np.array_equal(prog.static_index, rows)
    w = 0
    for st in chunks:
        for local in range(st.n_warps):
            assert np.array_equal(prog.static_index[prog.warp(w)], st.row[st.warp(local)])
            w += 1


def test_global_bytes_are_sectors_times_32_and_a_strided_copy_moves_eight_times_more():
    n = 2048
    base = {"in": buf("f32", 8 * n, "arange"), "out": buf("f32", n), "n": n}
    _, rc, _, coal = _flat("copy.cu", "copy_coalesced", base, (8, 1, 1), (256, 1, 1))
    _, rs, _, strd = _flat("copy.cu", "copy_strided", {**base, "stride": 8}, (8, 1, 1), (256, 1, 1))
    for r, prog in ((rc, coal), (rs, strd)):
        mem = r.metrics["memory"]
        loads = prog.req_bytes[prog.op == OP["ldg"]]
        stores = prog.req_bytes[prog.op == OP["stg"]]
        assert loads.sum() == 32 * mem["global_load"]["sectors"]
        assert stores.sum() == 32 * mem["global_store"]["sectors"]
        assert (loads > 0).all() and (stores > 0).all()
    # hand count: 32 consecutive floats = 4 sectors; a stride of 8 floats = 32 sectors per warp
    assert set(coal.req_bytes[coal.op == OP["ldg"]].tolist()) == {4 * 32}
    assert set(strd.req_bytes[strd.op == OP["ldg"]].tolist()) == {32 * 32}
    assert strd.req_bytes[strd.op == OP["ldg"]].sum() == 8 * coal.req_bytes[coal.op == OP["ldg"]].sum()
    assert coal.useful_bytes[coal.op == OP["ldg"]].sum() == 4 * n


def test_shared_bytes_are_wavefronts_and_conflicts_add_them():
    rows_, cols = 64, 64
    args = {"in": buf("f32", rows_ * cols, "arange"), "out": buf("f32", rows_ * cols), "rows": rows_, "cols": cols}
    _, rt, _, tiled = _flat("transpose.cu", "transpose_tiled", args, (2, 2, 1), (32, 32, 1))
    _, rc, _, confl = _flat("transpose.cu", "transpose_conflicts", args, (2, 2, 1), (32, 32, 1))
    for r, prog in ((rt, tiled), (rc, confl)):
        mem = r.metrics["memory"]
        shared = (prog.op == OP["lds"]) | (prog.op == OP["sts"])
        waves = sum(mem[c]["wavefronts"] for c in ("shared_load", "shared_store") if c in mem)
        assert prog.req_bytes[shared].sum() == WAVE * waves
    assert rt.metrics["bank_conflicts"].get("shared_load", 0) == 0
    assert rc.metrics["bank_conflicts"]["shared_load"] > 0
    lds = lambda p: p.req_bytes[p.op == OP["lds"]]  # noqa: E731
    assert lds(confl).sum() > lds(tiled).sum()
    assert set(lds(tiled).tolist()) == {WAVE}
    # the unpadded 32 x 32 tile read down a column: 32-way conflicts, 32 wavefronts per warp
    assert set(lds(confl).tolist()) == {32 * WAVE}


def test_divergent_paths_both_issue_with_partial_masks_and_only_the_last_exit_ends_a_warp():
    n = 64
    args = {"in": buf("i32", n, "random"), "out": buf("i32", n), "n": n}
    k, r, chunks, prog = _flat("divergence.cu", "divergent", args, (1, 1, 1), (64, 1, 1))
    assert prog.entries == r.metrics["warp_instructions"]
    lanes = int(np.bitwise_count(prog.active).sum())
    assert lanes == r.metrics["thread_instructions"]
    assert (prog.active != 0xFFFFFFFF).any()  # partial masks issue
    for w in range(prog.n_warps):
        ops = prog.op[prog.warp(w)]
        assert ops[-1] == OP["exit"] and (ops[:-1] != OP["exit"]).all()


def test_early_exits_become_branches_and_idle_memory_instructions_move_nothing():
    args = {"out": buf("f32", 64), "k": 5}
    k, r, chunks, prog = _flat("divergence.cu", "partial_warp", args, (1, 1, 1), (64, 1, 1))
    texts = k.decoded.texts
    exits = [i for i, row in enumerate(prog.static_index) if texts[row].lstrip("@!P0123456789 ").startswith("EXIT")]
    last = set((prog.warp_start[1:] - 1).tolist())
    for i in exits:
        assert prog.op[i] == (OP["exit"] if i in last else OP["branch"])
    mem = np.isin(prog.op, [OP["ldg"], OP["stg"], OP["lds"], OP["sts"], OP["ldl"], OP["stl"], OP["atom"]])
    assert (prog.req_bytes[mem] > 0).all()
    assert (prog.req_bytes[~mem] == 0).all()


def test_barriers_are_block_barriers():
    n = 1024
    args = {"in": buf("f32", n, "ones"), "partial": buf("f32", 4), "n": n}
    k, r, chunks, prog = _flat("reduce.cu", "reduce_shared", args, (4, 1, 1), (256, 1, 1),
                                 dynamic_shared=256 * 4)
    bars = np.array([k.decoded.texts[row].startswith("BAR") for row in prog.static_index])
    assert bars.any()
    assert (prog.op[bars] == OP["sync"]).all() and (prog.op[~bars] != OP["sync"]).all()
    assert (prog.scoreboard[prog.op == OP["branch"]] != SB["long"]).all()


def test_a_run_beyond_the_budget_is_refused_with_the_limit():
    n = 3000
    args = {"n": n, "a": 2.0, "x": buf("f32", n), "y": buf("f32", n)}
    with pytest.raises(InputError, match="more than .* warp-instructions"):
        _flat("saxpy.cu", "saxpy", args, (5, 1, 1), (128, 1, 1), chunk=200, budget=10_000)


@pytest.mark.parametrize("file, name, args, grid, block", [
    ("divergence.cu", "partial_warp", {"out": buf("f32", 128), "k": 13}, (2, 1, 1), (64, 1, 1)),
    ("histogram.cu", "histogram", {"data": buf("u8", 3000, "random"), "bins": buf("u32", 256), "n": 3000},
     (3, 1, 1), (128, 1, 1)),
    ("divergence.cu", "divergent", {"in": buf("i32", 180, "random", low=-1000, high=1000), "out": buf("i32", 180),
                                    "n": 180}, (3, 1, 1), (64, 1, 1)),
])
def test_compact_entries_expand_to_the_lowered_ones(file, name, args, grid, block):
    """The timing engine's feed keeps the blocks in flight compact (row, flags, bytes, mask: 11 bytes an entry)
    and expands a window at a time (issue 30, item 2): expanded, every entry is the one lower() gives."""
    from explorer.sass.execute.flat_program import compact
    from explorer.sass.execute.timing import static_timing
    from explorer.sim.executed import _LOOP_ARRAYS, ProgramFeed, _RowTables
    from explorer.sim.loop_program import lower_flat

    k, _, chunks, prog = _flat(file, name, args, grid, block)
    t = static_timing(k, get_gpu("H100"))
    parts = [compact(st, t, WAVE) for st in chunks]
    row, flags, req, active = (np.concatenate(c) for c in zip(*parts))
    feed = ProgramFeed.__new__(ProgramFeed)
    feed.tables = _RowTables(t)
    got = feed._expand(row, flags, req, active)
    want = lower_flat(prog, k.decoded.n)
    for field in _LOOP_ARRAYS:
        assert np.array_equal(got[field], getattr(want, field)), field
    assert flags.any() or name == "histogram"  # the survived EXITs, the memory instructions no lane ran
