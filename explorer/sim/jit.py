"""numba's ``njit`` when numba is installed, else the plain Python function.

Why numba: the cycle loop has data-dependent control flow per warp (scoreboards,
barriers, policies) that numpy cannot vectorize across cycles, and per-cycle numpy
calls cost ~10 us each, capping a full H100 at ~2 M warp-instructions/s. Compiled,
the same loop runs at tens of millions. The compiled code is cached on disk
(``cache=True``), so only the first run on a machine pays the compile. Without
numba the same source runs as Python: correct, but far slower.
"""

from __future__ import annotations

import os

try:  # pragma: no cover - exercised by the environment, not by a test
    if os.environ.get("WARP_EXPLORER_NO_JIT"):
        raise ImportError("disabled by WARP_EXPLORER_NO_JIT")
    import numba

    def njit(fn=None, *, inline: bool = False):
        """``inline=True`` for small helpers of the hot loop: inlined at the IR level, so
        passing arrays to them costs no call and no reference counting."""
        def wrap(f):
            return numba.njit(cache=True, nogil=True, inline="always" if inline else "never")(f)

        return wrap(fn) if fn is not None else wrap

    JIT = True
except ImportError:  # pragma: no cover

    def njit(fn=None, *, inline: bool = False):
        return fn if fn is not None else (lambda f: f)

    JIT = False
