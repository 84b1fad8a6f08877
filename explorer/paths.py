"""Where the shipped data files are.

``resources/`` sits at the top of the repository (design card) and is installed as
the package ``explorer.resources``; a PyInstaller bundle puts it next to the
executable. One function finds it in all three layouts.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


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
