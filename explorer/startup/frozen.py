"""Start-up of the packaged app (a PyInstaller bundle); does nothing in a normal Python install.

``main()`` is the bundle's entry point (``packaging/entry.py`` calls it). Before the
command line runs it:

* points numba's on-disk cache (``NUMBA_CACHE_DIR``) at a per-user folder: the
  bundle's own folder (``/opt/warp-explorer``) is read-only for users, and numba's
  cache key in a frozen app is the executable, not the jitted module's source, so
  the folder is named after the app's version and a hash of the simulator's
  sources (a new build never reads an old build's machine code);
* lets ``cuda.pathfinder`` find the bundled NVRTC (``nvidia/cu13/lib`` inside the
  bundle), which it looks for under ``site.getsitepackages()`` as in a pip install;
* answers ``-c CODE ...`` and ``-m MODULE ...`` as a Python interpreter would: the
  GPU probe, the measuring worker and cuda.pathfinder start ``sys.executable`` as
  ``python -c``/``python -m``, and in a bundle ``sys.executable`` is this app.

Everything here must run before numba is imported, so this module imports nothing
from the rest of the package at module level but ``explorer.paths`` (the standard
library only), where the per-user folders are named.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from explorer.paths import APP_DIR_NAME, user_cache_root  # noqa: F401 - names the per-user folders
from explorer.paths import bundle_dir, is_frozen, sources_key  # noqa: F401 - the bundle and its sources' hash

INTERPRETER_FLAGS = {"-B", "-E", "-I", "-s", "-S", "-u", "-O", "-OO", "-q"}




def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def numba_cache_dir(environ=None) -> Path | None:
    """A writable per-user folder for numba's cache, or None (numba then compiles every run)."""
    from explorer import __version__

    leaf = Path(APP_DIR_NAME) / "numba" / f"{__version__}-{sources_key()}"
    uid = getattr(os, "getuid", lambda: "user")()
    for root in (user_cache_root(environ), Path(tempfile.gettempdir()) / f"{APP_DIR_NAME}-{uid}"):
        if _writable_dir(root / leaf):
            return root / leaf
    return None


def _include_bundle_in_site_packages() -> None:
    """cuda.pathfinder looks for nvidia/cu13/lib under site.getsitepackages(); add the bundle to it."""
    import site

    original = getattr(site, "getsitepackages", None)
    if original is None or getattr(original, "_warp_explorer", False):
        return
    root = str(bundle_dir())

    def getsitepackages(prefixes=None):
        try:
            found = list(original(prefixes))
        except Exception:  # noqa: BLE001 - PyInstaller's site may not know the layout
            found = []
        return [root] + [p for p in found if p != root]

    getsitepackages._warp_explorer = True
    site.getsitepackages = getsitepackages


def prepare() -> None:
    """Environment for a frozen app; a no-op in a normal install."""
    if not is_frozen():
        return
    for name in ("stdout", "stderr"):  # a windowed executable (Windows, macOS) has none
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - for the whole run
    if not os.environ.get("NUMBA_CACHE_DIR"):
        path = numba_cache_dir()
        if path is not None:
            os.environ["NUMBA_CACHE_DIR"] = str(path)
    _include_bundle_in_site_packages()


def _run_as_interpreter(argv: list[str]) -> int | None:
    """``APP [-flags] -c CODE args`` / ``APP [-flags] -m MODULE args`` like ``python``; None otherwise."""
    i = 1
    while i < len(argv) and argv[i] in INTERPRETER_FLAGS:
        i += 1
    if i >= len(argv) or argv[i] not in ("-c", "-m") or i + 1 >= len(argv):
        return None
    mode, target, rest = argv[i], argv[i + 1], argv[i + 2:]
    if mode == "-c":
        sys.argv = ["-c", *rest]
        namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        exec(compile(target, "<string>", "exec"), namespace)  # noqa: S102 - as python -c does
        return 0
    import runpy

    sys.argv = [target, *rest]
    runpy.run_module(target, run_name="__main__", alter_sys=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    prepare()
    if is_frozen():
        code = _run_as_interpreter(argv)
        if code is not None:
            return code
    from explorer.cli.main import main as cli_main

    return cli_main(argv[1:])
