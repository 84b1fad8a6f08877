"""numba's ``njit`` when numba is installed, else the plain Python function.

Why numba: the cycle loop has data-dependent control flow per warp (scoreboards,
barriers, policies) that numpy cannot vectorize across cycles, and per-cycle numpy
calls cost ~10 us each, capping a full H100 at ~2 M warp-instructions/s. Compiled,
the same loop runs at tens of millions. The compiled code is cached on disk
(``cache=True``), so only the first run on a machine pays the compile, and a build ships
that cache (``explorer.sim.seed``) so a fresh install does not pay it either. Without
numba the same source runs as Python: correct, but far slower.
"""

from __future__ import annotations

import os
import sys

# numba's generic CPU target (unless the user chose one, before numba is first imported): machine
# code cached for it runs on every CPU of the architecture, so a build can ship its cache
# (``explorer.sim.seed``); the loop is branchy scalar code and measured no slower than the host target.
if "numba" not in sys.modules and not os.environ.get("NUMBA_CPU_NAME"):
    os.environ["NUMBA_CPU_NAME"] = "generic"

try:  # pragma: no cover - exercised by the environment, not by a test
    if os.environ.get("WARP_EXPLORER_NO_JIT"):
        raise ImportError("disabled by WARP_EXPLORER_NO_JIT")
    import numba

    def njit(fn=None, *, inline: bool = False, nrt: bool = True):
        """Compiled, cached on disk, without the GIL (the window stays live while it runs).
        ``inline=True`` for helpers of the hot loop that take arrays: inlined at numba's IR
        level, so calling them costs no call. ``nrt=False`` for the cycle loop itself: no
        reference counting at all. numba counts references to an array each time it is
        bound to a new name (a helper's parameter, inlined or not) and its pruning pass
        leaves the counts that span branches: two atomic operations per array per helper
        call, measured at 16% of a saturated run. Such a function may not allocate (its
        scratch arrays come from the caller)."""
        def wrap(f):
            return numba.njit(cache=True, nogil=True, inline="always" if inline else "never", _nrt=nrt)(f)

        return wrap(fn) if fn is not None else wrap

    JIT = True
except ImportError:  # pragma: no cover
    import functools

    import numpy as np

    def njit(fn=None, *, inline: bool = False, nrt: bool = True):
        """The Python function, with compiled semantics for fixed-width integers: numpy
        scalars warn on wraparound (``_splitmix`` relies on uint64 wraparound), numba wraps
        silently; so does this."""

        def wrap(f):
            @functools.wraps(f)
            def run(*args):
                with np.errstate(over="ignore"):
                    return f(*args)

            return run

        return wrap(fn) if fn is not None else wrap

    JIT = False


def compile_state(dispatcher) -> str:
    """What the next call of a compiled function costs, read without calling it: ``"loaded"`` (machine code
    in this process), ``"cached"`` (numba's cache on disk has code for this machine: loading it takes about a
    second), ``"compiles"`` (nothing for this machine: the call waits for LLVM, seconds to minutes) or
    ``"python"`` (no numba: nothing to wait for).

    Why: the window must never wait silently; it says "compiling ... once" only when that is what the wait
    is. A cache entry for another argument type still compiles on the call, so a caller that sees the call
    take much longer than a load treats it as a compile too."""
    if not JIT or not hasattr(dispatcher, "overloads"):
        return "python"
    if dispatcher.overloads:
        return "loaded"
    try:
        index = dispatcher._cache._cache_file._load_index()  # numba's own read: {} when stale or absent
        magic = dispatcher.targetctx.codegen().magic_tuple()
        return "cached" if any(key[1] == magic for key in index) else "compiles"
    except Exception:  # noqa: BLE001 - numba's internals moved: unknown, so the caller's timing decides
        return "cached"
