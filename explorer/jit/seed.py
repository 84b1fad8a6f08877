"""A shipped numba cache for the cycle loop, so a fresh install's first simulation does not wait for LLVM.

Why: numba compiles ``kernel.run_cycles`` on first use, ~7 s of CPU here, and caches
the machine code on disk (``cache=True``); only a fresh install pays it, but that
is the user's first impression (issue 14 item 18). So the build compiles it once
(:func:`build`: the pip wheel's ``build_py`` in ``setup.py``, ``packaging/build.sh``
for the bundle) and ships the cache files as ``resources/numba_seed/``; the first
import of the kernel on a user's machine (:func:`install`) copies them to where
numba looks, before anything is compiled.

What makes a shipped cache valid on another machine:

- the CPU: numba keys machine code by the target CPU and its features, so the
  simulator targets a named baseline, never the host's model: ``x86-64-v2`` on an
  x86-64 CPU that has it, numba's ``generic`` CPU elsewhere (``explorer.jit.runtime``,
  unless the user chose a target), with no features beyond the baseline's. The
  manifest names the target the seed was built for, and a machine whose target is
  another (an x86-64 CPU without SSE4.2, or a user's own choice) does not use it:
  a seed never runs machine code the CPU lacks;
- the code: numba's index is keyed by the function's bytecode, but the helpers
  inlined into it are not, so the seed carries a hash of the simulator's sources
  (``explorer.paths.sources_key``) and is used only when it matches;
- numba's and Python's versions (the manifest's and numba's own index check);
- the freshness stamp: numba's index records the source file's mtime and size
  (the executable's in a bundle), which an installer does not keep, so
  :func:`install` writes the index with this machine's stamp, the one numba will
  compare against.

Anything that does not match, or any error, leaves numba to compile as it always
did: the seed can only save time, never run machine code of other sources.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MANIFEST = "manifest.json"
SEED_DIR_NAME = "numba_seed"
# the warm-up: what a fresh start simulates first (the default scenario), plus presets that reach the
# loop with other argument types, each shrunk to a few blocks
WARM_PRESETS = ("example-240x256", "memory-bound-stream", "tensor-gemm", "barrier-tiling")


SEED_ENV = "WARP_EXPLORER_NUMBA_SEED"  # another seed folder (tests, a packager's check)


def seed_dir() -> Path:
    from explorer.paths import resource

    return Path(os.environ[SEED_ENV]) if os.environ.get(SEED_ENV) else resource(SEED_DIR_NAME)


def cpu_name() -> str:
    """The CPU target numba compiles for in this process (``explorer.jit.runtime`` chose it, or the user)."""
    import explorer.jit.runtime  # noqa: F401 - fixes the target before numba reads it
    from numba.core import config

    return config.CPU_NAME or "host"


def expected_manifest(sources_root: Path | None = None) -> dict:
    """What a seed must say to be used here: numba, Python, CPU target, simulator sources."""
    import numba

    from explorer.paths import sources_key

    root = sources_root if sources_root is not None else Path(__file__).resolve().parents[2]
    return {"numba": numba.__version__, "python": f"py{sys.version_info[0]}{sys.version_info[1]}",
            "cpu": cpu_name(), "sources": sources_key(root)}


def _dispatchers(module) -> list:
    """The module's cached numba dispatchers (the functions the loop calls by name, not inlined ones)."""
    return [v for v in vars(module).values() if hasattr(v, "py_func") and getattr(v, "_cache", None) is not None
            and hasattr(v._cache, "_cache_file")]


def _sources_root() -> Path:
    """Where explorer/sim/*.py are (a checkout, site-packages, or a bundle's folder)."""
    from explorer.paths import bundle_dir, is_frozen

    return bundle_dir() if is_frozen() else Path(__file__).resolve().parents[2]


def install(module, seed: Path | None = None) -> int:
    """Copy the seed's cache files for ``module``'s dispatchers to where numba will look; how many.

    Only where numba has no index it would use for a function (a fresh cache of this machine wins; a stale
    one, left by an upgrade, is replaced), and only when the manifest matches this numba, Python, CPU target
    and these sources."""
    seed = seed_dir() if seed is None else seed
    try:
        manifest = json.loads((seed / MANIFEST).read_text(encoding="utf-8"))
        if manifest != expected_manifest(_sources_root()):
            return 0
        done = 0
        for dispatcher in _dispatchers(module):
            done += _install_one(dispatcher._cache._cache_file, seed)
        return done
    except Exception:  # noqa: BLE001 - no seed, not one for here, or numba changed inside: numba compiles
        return 0


def _fresh_index(cache_file, index: Path) -> bool:
    """Whether numba would use the index already there: its numba version and source stamp are this install's.
    A stale one (an upgrade or reinstall over the same folder: pip leaves numba's files in ``__pycache__``)
    would only make numba compile, so the seed replaces it."""
    try:
        with open(index, "rb") as f:
            if pickle.load(f) != cache_file._version:
                return False
            stamp, _overloads = pickle.loads(f.read())
    except FileNotFoundError:
        return False
    except Exception:  # noqa: BLE001 - unreadable: numba would find nothing in it either
        return False
    return stamp == cache_file._source_stamp


def _install_one(cache_file, seed: Path) -> int:
    index = Path(cache_file._index_path)
    source = seed / index.name
    if not source.is_file() or _fresh_index(cache_file, index):
        return 0
    with open(source, "rb") as f:
        version = pickle.load(f)
        data = f.read()
    if version != cache_file._version:
        return 0
    _stamp, overloads = pickle.loads(data)
    folder = index.parent
    folder.mkdir(parents=True, exist_ok=True)
    for name in overloads.values():
        _atomic_copy(seed / Path(name).name, folder / Path(name).name)
    payload = pickle.dumps(version, protocol=-1) + pickle.dumps((cache_file._source_stamp, overloads), protocol=-1)
    _atomic_write(index, payload)  # the index last: numba never sees one without its data
    return 1


def _atomic_write(path: Path, data: bytes) -> None:
    from explorer.model.atomic import atomic_write_bytes

    atomic_write_bytes(path, data)


def _atomic_copy(src: Path, dst: Path) -> None:
    _atomic_write(dst, src.read_bytes())


# -- building a seed (at build time) ------------------------------------------------------
# the child's program: a string, so this module imports neither the engine nor the kernel (no import cycle)
WARM_UP = """
from explorer.model.presets import load_preset
from explorer.sim.engine import simulate
for name in {presets!r}:
    scenario = load_preset(name)
    simulate(scenario.with_values(**{{"launch.grid": [min(8, scenario.launch.total_blocks), 1, 1]}}))
import json
from explorer.jit import seed
print(json.dumps(seed.expected_manifest(seed._sources_root())))
"""


def build(out: Path, python: str = sys.executable, pythonpath: str | None = None) -> Path:
    """Compile the loop in a child process with an empty cache, for the baseline CPU target this
    machine's CPU has (``explorer.jit.runtime``: the build machine's own model and features never
    reach the seed); write the cache files and the manifest into ``out`` (replaced).
    ``pythonpath``: where the child imports explorer from (the tree being packaged)."""
    from explorer.jit.runtime import host_target

    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="warp-explorer-seed-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, NUMBA_CPU_NAME=host_target(), NUMBA_CPU_FEATURES="",
                   QT_QPA_PLATFORM="offscreen")
        env.pop("WARP_EXPLORER_NO_JIT", None)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
        code = WARM_UP.format(presets=WARM_PRESETS)
        proc = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"the warm-up failed: {proc.stderr.strip().splitlines()[-1:]}")
        manifest = json.loads(proc.stdout.strip().splitlines()[-1])
        files = [p for p in Path(tmp).rglob("kernel.*") if p.suffix in (".nbi", ".nbc")]
        if not any(p.suffix == ".nbi" for p in files):
            raise RuntimeError("the warm-up left no numba cache (is numba installed?)")
        replace_folder(out, files, {MANIFEST: json.dumps(manifest, indent=1) + "\n"})
    return out


def replace_folder(out: Path, files: list[Path], texts: dict[str, str] | None = None) -> None:
    """``out`` (replaced) holding copies of ``files`` and the ``texts`` (name -> content), filled beside it
    first, so an interrupted build leaves no half seed under the name the packaging ships."""
    staging = out.with_name(out.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for p in files:
        shutil.copy2(p, staging / p.name)
    for name, text in (texts or {}).items():
        (staging / name).write_text(text, encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)


def seed_main(module: str, argv: list[str] | None, make) -> int:
    """``python -m MODULE OUT_DIR`` for a seed: ``make(out)`` builds it and says what it wrote."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(f"usage: python -m {module} OUT_DIR", file=sys.stderr)
        return 2
    print(f"wrote {argv[0]} ({make(Path(argv[0]))})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m explorer.jit.seed OUT_DIR``: build a seed (what the packaging runs)."""
    return seed_main("explorer.jit.seed", argv,
                     lambda out: f"{len(list(build(out).glob('*.nbc')))} compiled functions")


if __name__ == "__main__":
    sys.exit(main())
