"""``explorer.jit.runtime.prefetch`` (the cycle loop asks for a request's cache sets before it looks them up):
a hint only, so a compiled function that prefetches computes what one without it does, for arrays of any
dimension and dtype the loop passes, and the compiled code carries the prefetch instruction."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.jit import runtime


def _walk(a, n):
    s = 0
    for i in range(n):
        runtime.prefetch(a, i * 3)
        s += a[i, 0]
    return s


@pytest.mark.parametrize("dtype", [np.int64, np.uint8])
def test_a_prefetch_changes_nothing_it_computes(dtype):
    a = np.arange(30, dtype=dtype).reshape(10, 3)
    before = a.copy()
    walk = runtime.njit(_walk) if runtime.JIT else _walk
    assert walk(a, 10) == int(a[:, 0].sum())
    assert np.array_equal(a, before)


def test_the_compiled_code_prefetches():
    if not runtime.JIT:
        pytest.skip("no numba")
    import numba

    walk = numba.njit(_walk)  # uncached: its assembly is only kept for a compile in this process
    walk(np.zeros((4, 3), np.int64), 4)
    asm = walk.inspect_asm(walk.signatures[0])
    assert "prefetch" in asm
