"""Coalescing, bank conflicts and divergence from execution, against hand-computed counts.

Global sectors: a warp's request moves every 32-byte sector its executed lanes' bytes
touch (Nsight Compute's l1tex__t_sectors / l1tex__t_requests). Shared wavefronts: per
phase, the most distinct 32-bit words one of the 32 banks holds; bank conflicts are the
wavefronts beyond one per phase. SIMT efficiency: active lanes per issued warp-instruction
/ 32 (Nsight Compute's "average active threads per warp" / 32).
"""

from __future__ import annotations

import pytest

from tests.execute.cases import KERNELS, buf
from tests.execute.support import built, collect_streams, execute_kernel
from tests.sass.support import needs_sass

pytestmark = needs_sass
ARCH = "sm_90"


def run(file, name, args, grid, block, **kw):
    return execute_kernel(built(str(KERNELS / file), name, ARCH), args, grid=grid, block=block, **kw)


@pytest.mark.parametrize("stride,sectors", [(1, 4), (2, 8), (4, 16), (8, 32), (64, 32)])
def test_strided_loads_move_one_sector_per_32_bytes_of_span(stride, sectors):
    # 32 lanes x 4 bytes, `stride` floats apart: the span is 128 * stride bytes; from a stride of
    # 8 floats (32 bytes) on, every lane has a sector of its own
    n = 1024
    r = run("copy.cu", "copy_strided", {"in": buf("f32", n * stride), "out": buf("f32", n), "n": n,
                                        "stride": stride}, (4, 1, 1), (256, 1, 1))
    mem = r.metrics["memory"]
    assert mem["global_load"]["requests"] == n // 32
    assert mem["global_load"]["sectors"] == sectors * n // 32
    assert r.metrics["sectors_per_request"] == {"global_load": sectors, "global_store": 4.0}


def test_vector_loads_and_a_partial_last_warp():
    # float4: 32 lanes x 16 bytes = 512 bytes = 16 sectors; n4 = 250: the last warp's lanes 26-31 skip
    r = run("copy.cu", "copy_vec4", {"in": buf("f32", 1000), "out": buf("f32", 1000), "n4": 250},
            (2, 1, 1), (128, 1, 1))
    ld = r.metrics["memory"]["global_load"]
    assert ld["requests"] == 8  # warps 0-7: the warp of lanes 256+ is outside n4 entirely
    assert ld["sectors"] == 7 * 16 + (250 - 224) * 16 // 32
    assert ld["bytes_requested"] == 250 * 16


def test_naive_transpose_stores_are_uncoalesced():
    rows = cols = 64
    r = run("transpose.cu", "transpose_naive", {"in": buf("f32", rows * cols), "out": buf("f32", rows * cols),
                                                "rows": rows, "cols": cols}, (2, 2, 1), (32, 32, 1))
    mem = r.metrics["memory"]
    assert mem["global_load"]["sectors_per_request"] == 4  # a row: consecutive floats
    assert mem["global_store"]["sectors_per_request"] == 32  # a column: 256 bytes apart
    assert mem["global_store"]["requests"] == 128


@pytest.mark.parametrize("kernel,waves", [("transpose_tiled", 1), ("transpose_conflicts", 32)])
def test_shared_tile_column_reads_conflict_without_padding(kernel, waves):
    # tile[threadIdx.x][threadIdx.y]: lanes 32 (unpadded) or 33 (padded) words apart
    rows = cols = 64
    r = run("transpose.cu", kernel, {"in": buf("f32", rows * cols), "out": buf("f32", rows * cols), "rows": rows,
                                     "cols": cols}, (2, 2, 1), (32, 32, 1))
    lds, sts = r.metrics["memory"]["shared_load"], r.metrics["memory"]["shared_store"]
    assert lds["requests"] == sts["requests"] == 128  # 4 blocks x 32 warps, one each
    assert sts["wavefronts"] == 128 and sts["bank_conflicts"] == 0  # rows: consecutive words
    assert lds["wavefronts"] == 128 * waves and lds["bank_conflicts"] == 128 * (waves - 1)
    assert r.metrics["bank_conflicts"] == {"shared_load": 128 * (waves - 1), "shared_store": 0}


def test_a_shrinking_loop_halves_simt_efficiency_of_its_body():
    # lane j loops j times: iteration k runs with 31 - k lanes; over 31 iterations the body's
    # lanes average (31 * 32 / 2) / 31 = 16 of 32. Every iteration reads in[k]: one address, one sector.
    k = built(str(KERNELS / "divergence.cu"), "lane_loop", ARCH)
    r, chunks = collect_streams(k, {"in": buf("i32", 32, "arange"), "out": buf("i32", 64)}, block=(64, 1, 1))
    body = [row for row in range(k.decoded.n) if r.executions[row] == 2 * 31]
    assert len(body) >= 5
    for row in body:
        assert r.active_lanes[row] == 2 * sum(31 - j for j in range(31))  # 2 warps
    loads = [row for row in body if k.decoded.texts[row].startswith("LDG")]
    assert loads
    ld = r.metrics["memory"]["global_load"]
    assert ld["requests"] == 2 * 31 and ld["sectors"] == 2 * 31
    assert list(r.outputs["out"][:32]) == [sum(3 * x + 1 for x in range(j)) for j in range(32)]


def test_lanes_past_an_exit_issue_with_the_survivors_mask():
    k = built(str(KERNELS / "divergence.cu"), "partial_warp", ARCH)
    r, chunks = collect_streams(k, {"out": buf("f32", 64), "k": 13}, block=(64, 1, 1))
    st = chunks[0]
    exit_row = next(i for i, t in enumerate(k.decoded.texts) if t.startswith("@P0 EXIT"))
    for w in range(st.n_warps):
        e = st.warp(w)
        rows, act = st.row[e], st.active[e]
        after = [int(m) for row, m in zip(rows[list(rows).index(exit_row) + 1:], act[list(rows).index(exit_row) + 1:])]
        assert after and all(m & ~0x1FFF == 0 for m in after) and 0x1FFF in after
    calls = [i for i, t in enumerate(k.decoded.texts) if t.startswith(("CALL", "RET"))]
    assert any(r.executions[i] for i in calls)  # the sqrt/rcp slow paths ran (lane 0: sqrt(0), 1 / 1)
    assert r.metrics["simt_efficiency"] < 13 / 32 + 0.05


def test_histogram_atomics_count_requests_per_warp_instruction():
    n = 4096
    r = run("histogram.cu", "histogram", {"data": buf("u8", n, "random"), "bins": buf("u32", 256), "n": n},
            (4, 1, 1), (256, 1, 1))
    assert r.metrics["memory"]["shared_atomic"]["requests"] == n // 32
    assert r.metrics["memory"]["shared_atomic"]["lanes"] == n
    assert r.metrics["memory"]["global_load"]["requests"] == n // 32
    assert r.metrics["memory"]["global_load"]["sectors"] == n // 32  # 32 bytes per warp: one sector
