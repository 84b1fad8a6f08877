"""numba's ``njit`` when numba is installed, else the plain Python function.

Why numba: the cycle loop has data-dependent control flow per warp (scoreboards,
barriers, policies) that numpy cannot vectorize across cycles, and per-cycle numpy
calls cost ~10 us each, capping a full H100 at ~2 M warp-instructions/s. Compiled,
the same loop runs at tens of millions. The compiled code is cached on disk
(``cache=True``), so only the first run on a machine pays the compile, and a build ships
that cache (``explorer.jit.seed``) so a fresh install does not pay it either. Without
numba the same source runs as Python: correct, but far slower.
"""

from __future__ import annotations

import os
import sys

# The CPU numba compiles for: a named baseline, never the host's own model and features, so that
# machine code cached on one machine runs on every CPU of the baseline and a build can ship its
# cache (``explorer.jit.seed``, whose manifest names the target). On x86-64 the baseline is
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

CACHE = True  # numba's on-disk cache (False: every start compiles; see _cache_folder)
CACHE_NOTICE = ""  # the one line said when the cache is not where numba looks first


def _writable(folder: str) -> bool:
    """Whether a file can be made in ``folder`` (made if missing), as numba's cache locators test it."""
    import tempfile

    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def _private_folder(path: str) -> bool:
    """``path`` made (mode 0700) or found as our own folder that only we can write: not a symlink, not
    another user's, not group- or world-writable (a fixed name under /tmp can be made by anyone first)."""
    import stat

    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
        return False
    return _writable(path)


def _cache_folder() -> None:
    """Where numba's cache goes when numba itself would find no writable folder (issue 30, item 5).

    numba caches next to the sources (``__pycache__``) or in the user's cache folder
    (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``numba``); with neither writable (a read-only
    install run by another user, ``HOME=/nonexistent``) decorating a function with ``cache=True``
    raised at import and every simulation exited 1. Then: ``NUMBA_CACHE_DIR`` is set to a private
    per-user folder under the system's temporary folder (``warp-explorer-numba-UID``, kept for the
    next start; the shipped seed is copied there as anywhere numba looks), or, without one, caching
    is off (every start compiles), with a one-line notice on stderr either way.
    """
    global CACHE, CACHE_NOTICE
    if "numba" in sys.modules or os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # explorer/
    in_tree = [os.path.join(package, "sim", "__pycache__"),  # beside the jitted modules: the loop's and the
               os.path.join(package, "sass", "execute", "__pycache__")]  # interpreter's
    if all(_writable(folder) for folder in in_tree):
        return
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if _writable(os.path.join(base, "numba")):
        return
    import tempfile

    uid = getattr(os, "getuid", lambda: "user")()
    folder = os.path.join(tempfile.gettempdir(), f"warp-explorer-numba-{uid}")
    if _private_folder(folder):
        os.environ["NUMBA_CACHE_DIR"] = folder
        CACHE_NOTICE = (f"no writable folder for numba's cache (the package's __pycache__, {base}); compiled code "
                        f"is cached in {folder} (set NUMBA_CACHE_DIR to keep it elsewhere)")
    else:
        CACHE = False
        CACHE_NOTICE = ("no writable folder for numba's cache (the package's __pycache__, "
                        f"{base}, {tempfile.gettempdir()}): the simulator is compiled on every start (about a "
                        "minute; set NUMBA_CACHE_DIR to a writable folder)")
    print(f"warp-explorer: note: {CACHE_NOTICE}", file=sys.stderr)


if not os.environ.get("WARP_EXPLORER_NO_JIT"):
    _cache_folder()

def loop_sources_stamp() -> str:
    """What the cycle loop's machine code is compiled from (``explorer.paths.sources_key``: explorer/sim/*.py and
    the modules whose constants numba freezes into it), as the stamp of its cache entries (:func:`stamp_cache`).
    This module's ``njit`` compiles the cycle loop only; the executor stamps with its own sources."""
    global _LOOP_STAMP
    if _LOOP_STAMP is None:
        from explorer.paths import sources_key

        try:
            _LOOP_STAMP = sources_key()
        except OSError:  # a source that cannot be read: numba's own per-file stamp alone
            _LOOP_STAMP = ""
    return _LOOP_STAMP


_LOOP_STAMP: str | None = None


def stamp_cache(dispatcher, stamp: str) -> None:
    """A compiled function's cache entries valid only for ``stamp`` (a hash of every source its machine code is
    compiled from), and an index naming types these sources do not define read as stale.

    Why: numba keys a function's cached machine code by its own source file only (mtime and size), but a compiled
    function holds the code of the functions it calls and the module constants numba froze into it, from other
    files: an edit of one of those alone would leave the old machine code running. So the entry's stamp is
    numba's and ``stamp`` together ('' keeps numba's alone: a frozen bundle, whose cache folder is named by the
    sources already). And numba unpickles its index (the argument types, by module and class) before it compares
    the stamp: an index written by sources with a type these lack raised at the call; it reads as empty instead,
    and numba compiles and writes a new one."""
    import pickle

    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_source_stamp") or not hasattr(cache_file, "_load_index"):
        return
    if stamp:
        cache_file._source_stamp = (cache_file._source_stamp, stamp)
    load_index = cache_file._load_index

    def _load_index():
        try:
            return load_index()
        except (AttributeError, ImportError, pickle.UnpicklingError):  # a type these sources do not define
            return {}

    cache_file._load_index = _load_index


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
            d = numba.njit(cache=CACHE, nogil=True, inline="always" if inline else "never", _nrt=nrt)(f)
            stamp_cache(d, "" if getattr(sys, "frozen", False) else loop_sources_stamp())
            return d

        return wrap(fn) if fn is not None else wrap

    from llvmlite import ir as _ir
    from numba.core import cgutils as _cgutils
    from numba.core import types as _types
    from numba.core.extending import intrinsic as _intrinsic

    @_intrinsic
    def ctz(typingctx, x):
        """The index of the lowest set bit of an int64 that is not 0 (LLVM's cttz: one instruction)."""
        if not isinstance(x, _types.Integer):
            return None

        def codegen(context, builder, signature, args):
            v = context.cast(builder, args[0], signature.args[0], _types.int64)
            return builder.cttz(v, _ir.Constant(_ir.IntType(1), 1))

        return _types.int64(x), codegen

    @_intrinsic
    def prefetch(typingctx, arr, i):
        """Ask the host's caches for the line holding flat element ``i`` of the C-contiguous ``arr`` (LLVM's
        prefetch: one instruction, no fault on any address, nothing read or written). For loads whose addresses
        are known before they are needed, so that their misses overlap instead of following one another."""
        if not isinstance(arr, _types.Array) or not isinstance(i, _types.Integer):
            return None

        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            idx = context.cast(builder, args[1], signature.args[1], _types.intp)
            ptr = builder.bitcast(builder.gep(data, [idx]), _ir.IntType(8).as_pointer())
            i32 = _ir.IntType(32)
            fnty = _ir.FunctionType(_ir.VoidType(), [ptr.type, i32, i32, i32])
            fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [ptr, i32(0), i32(3), i32(1)])  # read, keep in all levels, data
            return context.get_dummy_value()

        return _types.none(arr, i), codegen

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

    def ctz(x):
        """The index of the lowest set bit of ``x`` (not 0)."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def prefetch(arr, i):
        """Nothing to do without machine code."""

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
