"""The generated kernels' addresses as the simulator computes them (explorer.toolchain.addresses, kernel._request_lines).

References: the generated CUDA itself (its address expressions, read in the test below from the source codegen
writes), hand-computed addresses of the mission's example, and the lane-by-lane reference
``request_addresses`` against the cycle loop's compiled version (whose coalesced fast path computes line ranges,
not lanes) over random workloads.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.toolchain.codegen import generate
from explorer.model.catalog import get_gpu
from explorer.model.presets import load_preset
from explorer.model.workload import parse_workload
from explorer.toolchain.addresses import lcg_power, memory_layout, request_addresses
from explorer.sim.kernel import _lcg_draw, _request_lines


def test_the_examples_addresses_by_hand():
    """The example: 1,920 warps, one 4-byte load and one 4-byte store per iteration; a slab per access of
    1,920 x 32 x 4 B = 245,760 B, loads first: warp w, lane l, iteration i loads at i x 491,520 + w x 128 + l x 4
    and stores 245,760 further (the generated kernel's ``st.global.f32 [%0+245760]`` and ``gp += 491520``)."""
    sc = load_preset("example-240x256")
    layout = memory_layout(sc.workload, sc.gpu, 1920)
    src = generate(sc).source
    assert "[%0+245760]" in src and "+= 491520ull" in src.replace(" ", "").replace("+=", " += ")
    for w, i in ((0, 0), (5, 2), (1919, 15)):
        lanes = np.arange(32)
        assert (request_addresses(layout, 1, w, i, 0) == i * 491520 + w * 128 + lanes * 4).all()
        assert (request_addresses(layout, 1, w, i, 1) == i * 491520 + 245760 + w * 128 + lanes * 4).all()


def test_the_draw_is_the_kernels_lcg_stepped_n_times():
    """we_rng = we_rng * 1664525 + 1013904223 per access (the generated kernel), by squaring in the loop."""
    x = 0xDEADBEEF
    y = x
    for n in range(1, 40):
        y = (y * 1664525 + 1013904223) & 0xFFFFFFFF
        a, c = lcg_power(n)
        assert (a * x + c) & 0xFFFFFFFF == y == _lcg_draw(n, x)


ops = st.fixed_dictionaries({"op": st.sampled_from(["ldg", "stg"]), "bytes": st.sampled_from([4, 8, 16]),
                             "stride": st.sampled_from([1, 2, 3, 4, 8, 32, 33])})


@settings(max_examples=60, deadline=None)
@given(body=st.lists(ops, min_size=1, max_size=3), l1=st.sampled_from([0.0, 0.3]), l2=st.sampled_from([0.0, 0.5]),
       warp=st.integers(0, 3999), it=st.integers(0, 9), seed=st.integers(0, 2**32 - 1))
def test_the_loops_lines_are_the_lanes_addresses(body, l1, l2, warp, it, seed):
    wl = parse_workload({"loop": 10, "body": body + [{"op": "ffma"}], "l1_hit_rate": l1, "l2_hit_rate": l2})
    layout = memory_layout(wl, get_gpu("H100"), 4000)
    acc, plan = layout.access_array(), layout.plan_array(seed)
    lines, masks = np.zeros(32, np.int64), np.zeros(32, np.int64)
    for q in range(len(layout.accesses)):
        n = _request_lines(acc, q, plan, warp, it, lines, masks)
        ref: dict = {}
        for a in request_addresses(layout, seed, warp, it, q).astype(np.int64):
            ref[int(a) >> 7] = ref.get(int(a) >> 7, 0) | (1 << ((int(a) >> 5) & 3))
        got: dict = {}
        for k in range(n):
            got[int(lines[k])] = got.get(int(lines[k]), 0) | int(masks[k])
        assert got == ref
