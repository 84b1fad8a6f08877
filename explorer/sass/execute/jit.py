"""numba for the executor: compiled once per machine (cached), and without reference counting.

Why not ``explorer.jit.runtime.njit`` as it is: the interpreter's functions take a dozen arrays
each, and numba's runtime increments and decrements an array's reference count (an atomic
operation through a call) at every call and every return of a function that takes it:
measured here, about 0.5 us per executed instruction, more than the work. These functions
never allocate an array, so they are compiled with the runtime off (``_nrt=False``), which
drops that bookkeeping. Without numba (``explorer.jit.runtime.JIT`` false, e.g.
``WARP_EXPLORER_NO_JIT=1``) the same source runs as Python.
"""

from __future__ import annotations

from explorer.jit.runtime import CACHE, JIT


def njit(fn):
    if not JIT:
        return fn
    import numba

    # CACHE: explorer.jit.runtime found a writable folder for numba's cache (or none: compiled every start)
    return numba.njit(cache=CACHE, nogil=True, _nrt=False)(fn)
