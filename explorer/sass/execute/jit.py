"""numba for the executor: compiled once per machine (cached), and without reference counting.

Why not ``explorer.jit.runtime.njit`` as it is: the interpreter's functions take a dozen arrays
each, and numba's runtime increments and decrements an array's reference count (an atomic
operation through a call) at every call and every return of a function that takes it:
measured here, about 0.5 us per executed instruction, more than the work. These functions
never allocate an array, so they are compiled with the runtime off (``_nrt=False``), which
drops that bookkeeping. Without numba (``explorer.jit.runtime.JIT`` false, e.g.
``WARP_EXPLORER_NO_JIT=1``) the same source runs as Python.

The cache's freshness. numba keys a function's cached machine code by its own source file
only, but the interpreter is compiled from several modules (``JITTED``: the opcode classes,
the operand helpers, the constants numba freezes into the code), and a cached ``interp.run``
holds all of them: an edit of ``ops_int.py`` alone would leave the old code running. So each
function's cache entry is stamped with numba's stamp and a hash of all of ``JITTED`` (where
the sources are readable: a frozen bundle's stamp is numba's own, its executable's hash).
And numba's index names the argument types, the state records (``records``) among them, by
module and class: an index written by sources that had a record these do not (renamed, split)
fails to unpickle before its stamp is compared, and the call raised. Such an index is stale too:
it reads as empty, and numba compiles and writes a new one.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from explorer.jit.runtime import CACHE, JIT, stamp_cache

# the modules the interpreter's machine code is compiled from: its functions and the constants numba freezes
# into it (a test checks that every module of the package with a compiled function is named here)
JITTED = ("jit.py", "isa.py", "fpmath.py", "records.py", "operands.py", "ops_int.py", "ops_pred.py",
          "ops_convert.py", "ops_float.py", "ops_half.py", "ops_warp.py", "memory.py", "control.py", "interp.py")


@lru_cache(maxsize=1)
def sources_stamp() -> str:
    """A hash of the ``JITTED`` modules' sources ('' where one cannot be read)."""
    import hashlib

    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in JITTED:
        try:
            digest.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
        except OSError:
            return ""
    return digest.hexdigest()


def _stamp(dispatcher) -> None:
    """The dispatcher's cache entries valid only for these ``JITTED`` sources (see the module docstring)."""
    stamp_cache(dispatcher, "" if getattr(sys, "frozen", False) else sources_stamp())


def njit(fn=None, *, inline: bool = False):
    """Compiled and cached, without the GIL and without reference counting; ``inline=True``: inlined where
    called (numba's IR), for the per-instruction helpers of ``interp.run``'s loop."""
    def wrap(f):
        if not JIT:
            return f
        import numba

        # CACHE: explorer.jit.runtime found a writable folder for numba's cache (or none: compiled every start)
        d = numba.njit(cache=CACHE, nogil=True, _nrt=False, inline="always" if inline else "never")(f)
        _stamp(d)
        return d

    return wrap(fn) if fn is not None else wrap
