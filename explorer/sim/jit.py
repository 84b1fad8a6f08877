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

# The CPU numba compiles for: a named baseline, never the host's own model and features, so that
# machine code cached on one machine runs on every CPU of the baseline and a build can ship its
# cache (``explorer.sim.seed``, whose manifest names the target). On x86-64 the baseline is
# x86-64-v2 (SSE4.2, POPCNT: every x86-64 CPU since about 2009) where the CPU has it: the cycle
# loop took 0.78x the CPU time of the SSE2-only ``generic`` target with identical results (SSE4.1's
# ``roundsd`` instead of a call for np.ceil, among others; issue 27). x86-64-v3 (AVX2) executed more
# instructions in the loop than v2 and would need a second seed: not used.
# A CPU without it, and every other architecture, gets numba's ``generic`` target.
X86_64_V2 = ("cx16", "sahf", "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2")  # LLVM's names for its features


def cpu_target(machine: str, features) -> str:
    """The target for a CPU: ``x86-64-v2`` on an x86-64 CPU with all of its features (``features``:
    LLVM's host feature map, name -> bool), else ``generic``."""
    if machine.lower() in ("x86_64", "amd64") and all(features.get(f, False) for f in X86_64_V2):
        return "x86-64-v2"
    return "generic"


def host_target() -> str:
    """This machine's target (:func:`cpu_target` of its CPU as LLVM sees it)."""
    try:
        import platform

        import llvmlite.binding as ll  # numba's own LLVM binding (numba imports it anyway)

        return cpu_target(platform.machine(), ll.get_host_cpu_features())
    except Exception:  # noqa: BLE001 - no llvmlite (no numba), or LLVM cannot say: the portable target
        return "generic"


# before numba is first imported, unless the user chose a target: numba reads both once. The features
# are the target's own ("": none added), not the host's, which numba would add for any name but generic.
if "numba" not in sys.modules and not os.environ.get("NUMBA_CPU_NAME") and not os.environ.get("WARP_EXPLORER_NO_JIT"):
    os.environ["NUMBA_CPU_NAME"] = host_target()
    os.environ.setdefault("NUMBA_CPU_FEATURES", "")

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
