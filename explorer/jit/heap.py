"""The process's C allocator keeps the memory a simulation frees, for the next one to reuse.

Why: a simulation allocates its state and outputs fresh (the mission example: L2's tags, ~10 MB on an
H100, the slots' state events, ~10 MB, gathered chunk by chunk and joined, the series), tens of MB in
all, and frees them when its result is read. glibc's malloc gives arrays of that size back to the
kernel when they are freed (they are mmap'ed above its threshold, or trimmed off the heap's top),
so every simulation touched ~46 MB of brand-new pages: ~11,700 page faults, each a trap and a page
zeroed by the kernel. On the example that was ~16% of ``simulate``'s CPU time (issue 27, 2026-12-07:
115-124 ms against 95-98 ms with the memory kept; 168,000 against 37,000 page faults in 12 runs;
docs/performance.md). Kept on the heap, a freed block is reused by the next simulation's arrays
without a fault (``numpy.zeros`` of reused memory is a memset).

The policy (glibc's ``mallopt``): blocks under 32 MiB come from the heap (glibc's own ceiling for its
adaptive threshold, fixed so it does not move), and the heap keeps up to 128 MiB free at its top
before it gives any back. Bigger arrays (a long run's trace) are still mapped and returned whole, so
what the process holds beyond its live data is bounded by those two figures. Only glibc has
``mallopt``; elsewhere (macOS, Windows, musl) this does nothing. The user's own ``MALLOC_*_``
environment settings win: glibc has read them at start, and this leaves them alone.

Called once by the entry point (``explorer.cli.main``, which also starts the window), not on import:
a library user's process keeps its allocator as it was.
"""

from __future__ import annotations

import os

MMAP_THRESHOLD = 32 << 20  # bytes: a block at least this big is mapped, and unmapped when freed
TRIM_THRESHOLD = 128 << 20  # bytes free at the heap's top before glibc returns any to the kernel
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
ENV = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")

_done = False


def keep_freed_memory() -> bool:
    """Set the policy above once per process; True when glibc took both settings."""
    global _done
    if _done:
        return True
    if any(os.environ.get(name) for name in ENV):
        return False  # the user tuned the allocator: theirs stands
    try:
        import ctypes
        import platform

        if platform.libc_ver()[0] != "glibc":
            return False
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError, ValueError):  # no C library by that name, or no mallopt in it
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _done = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return _done
