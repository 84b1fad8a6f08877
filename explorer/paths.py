"""Where the shipped data files are, and the per-user folders the app writes its caches to.

``resources/`` sits at the top of the repository (design card) and is installed as
the package ``explorer.resources``; a PyInstaller bundle puts it next to the
executable. One function finds it in all three layouts. Standard library only: the
bundle's start-up (``explorer.startup.frozen``) uses it before numba is imported.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

APP_DIR_NAME = "warp-explorer"


def is_frozen() -> bool:
    """Whether this is the PyInstaller bundle."""
    return bool(getattr(sys, "frozen", False)) and hasattr(sys, "_MEIPASS")


def bundle_dir() -> Path:
    """The bundle's folder (``sys._MEIPASS``), else the folder holding the ``explorer`` package."""
    return Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[1]))


# what the cycle loop's machine code is compiled from, beyond explorer/sim/*.py: the numba runtime it is
# compiled with and the modules whose constants numba freezes into it (the address layout, the units, the
# model program's roles); they were sim/*.py modules until issue 32 moved them below the simulator
# (tests/sim/test_jit_cache.py checks that every module the loop imports, directly or not, is here or is prose)
JITTED_ELSEWHERE = ("explorer/jit/*.py", "explorer/toolchain/addresses.py", "explorer/model/units.py",
                    "explorer/sass/model_program.py", "explorer/sass/warp_program.py", "explorer/sass/opcodes.py",
                    "explorer/model/workload.py", "explorer/model/catalog.py", "explorer/model/errors.py",
                    "explorer/model/tma_tiles.py", "explorer/model/sim_model.py", "explorer/paths.py")


def sources_key(root: Path | None = None) -> str:
    """12 hex digits over the jitted modules' sources (explorer/sim/*.py and ``JITTED_ELSEWHERE``) under
    ``root``: what names the bundle's numba cache folder and what a shipped numba cache must match
    (``explorer.jit.seed``)."""
    root = bundle_dir() if root is None else root
    digest = hashlib.sha256()
    for path in sorted((root / "explorer" / "sim").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for pattern in JITTED_ELSEWHERE:
        for path in sorted(root.glob(pattern)):
            digest.update(pattern.encode() + b"\0" + path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@cache
def resource_dir() -> Path:
    candidates = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "resources")
    here = Path(__file__).resolve().parent
    candidates.append(here.parent / "resources")  # source checkout / editable install
    candidates.append(here / "resources")  # wheel install (package-dir mapping)
    for path in candidates:
        if (path / "gpus.toml").is_file():
            return path
    try:  # last resort: an installed explorer.resources package elsewhere on the path
        from importlib.resources import files

        path = Path(str(files("explorer.resources")))
        if (path / "gpus.toml").is_file():
            return path
    except Exception:  # noqa: BLE001 - any failure means "not found" here
        pass
    raise FileNotFoundError(
        "Warp Explorer's resources folder (gpus.toml) was not found; reinstall the package"
    )


def resource(*parts: str) -> Path:
    return resource_dir().joinpath(*parts)


def user_cache_root(environ=None, platform: str | None = None) -> Path:
    """The OS's per-user cache folder (XDG on Linux, ~/Library/Caches, %LOCALAPPDATA%)."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    if platform == "win32":
        base = env.get("LOCALAPPDATA")
        return Path(base) if base else home / "AppData" / "Local"
    if platform == "darwin":
        return home / "Library" / "Caches"
    base = env.get("XDG_CACHE_HOME", "")
    return Path(base) if os.path.isabs(base) else home / ".cache"
