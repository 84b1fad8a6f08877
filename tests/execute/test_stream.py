"""The executed stream's contract (explorer/sass/execute/stream.py): invariants, chunks, determinism."""

from __future__ import annotations

import numpy as np

from tests.execute.cases import KERNELS, buf
from tests.execute.support import built, collect_streams
from tests.sass.support import needs_sass

pytestmark = needs_sass


def _saxpy_streams(chunk):
    k = built(str(KERNELS / "saxpy.cu"), "saxpy", "sm_90")
    n = 5000
    args = {"n": n, "a": 1.5, "x": buf("f32", n, "random"), "y": buf("f32", n, "random")}
    return k, collect_streams(k, args, grid=(7, 1, 1), block=(128, 1, 1), chunk_instructions=chunk)


def test_chunks_hold_whole_blocks_in_order_and_add_up_to_the_run():
    k, (r, chunks) = _saxpy_streams(chunk=100)
    assert len(chunks) > 1
    first = 0
    for st in chunks:
        st.check()
        assert st.first_block == first and st.warps_per_block == 4
        first += st.n_blocks
    assert first == 7
    assert sum(st.entries for st in chunks) == r.metrics["warp_instructions"]
    lanes = sum(int(np.unpackbits(st.active.view(np.uint8)).sum()) for st in chunks)
    assert lanes == r.metrics["thread_instructions"]
    events = sum(len(st.mem_entry) for st in chunks)
    assert events == sum(m["requests"] for m in r.metrics["memory"].values())


def test_every_warp_ends_with_exit_and_memory_events_point_at_memory_instructions():
    k, (r, chunks) = _saxpy_streams(chunk=1 << 20)
    st = chunks[0]
    exit_rows = {i for i, t in enumerate(k.decoded.texts) if "EXIT" in t}
    for w in range(st.n_warps):
        e = st.warp(w)
        assert int(st.row[e][-1]) in exit_rows
    for m in range(len(st.mem_entry)):
        text = k.decoded.texts[int(st.row[st.mem_entry[m]])]
        assert text.split()[0].startswith(("LDG", "STG")), text
        assert st.class_name(m) in ("global_load", "global_store")
        lo = int(st.sector_start[m])
        sec = st.sectors[lo:lo + int(st.mem_count[m])]
        assert len(set(sec.tolist())) == len(sec)  # distinct sectors


def test_the_same_run_gives_the_same_stream():
    _, (r1, c1) = _saxpy_streams(chunk=1 << 20)
    _, (r2, c2) = _saxpy_streams(chunk=1 << 20)
    for a, b in zip(c1, c2):
        for field in ("row", "active", "executed", "mem_entry", "mem_count", "sectors"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert np.array_equal(r1.outputs["y"], r2.outputs["y"])
