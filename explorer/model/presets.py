"""Named scenarios shipped in ``resources/scenarios/`` and the SCENARIO|PRESET argument."""

from __future__ import annotations

import os
from pathlib import Path

from explorer.model.errors import InputError, shown
from explorer.model.scenario import Scenario
from explorer.paths import resource

DEFAULT_PRESET = "example-240x256"


def preset_dir() -> Path:
    return resource("scenarios")


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.toml"))


def load_preset(name: str) -> Scenario:
    """A shipped preset by name; only the names listed are looked up (no path reaches the folder)."""
    names = preset_names()
    if name not in names:
        raise InputError("scenario", f"unknown preset {shown(name)}; presets: {', '.join(names)}")
    return Scenario.load(preset_dir() / f"{name}.toml")


def load_scenario_arg(text: str) -> Scenario:
    """A scenario file path, or the name of a shipped preset (files win on a clash).

    Anything that names a directory entry, even a dangling or looping symlink, or
    that looks like a path, is read as a file, so its reader says what is wrong
    with it rather than "unknown preset".
    """
    if not text:
        raise InputError("scenario", "give a scenario file or a preset name")
    path = Path(text)
    looks_like_path = path.suffix == ".toml" or any(sep and sep in text for sep in (os.sep, os.altsep))
    if looks_like_path or os.path.lexists(text):
        return Scenario.load(path)
    return load_preset(text)


def default_scenario() -> Scenario:
    return load_preset(DEFAULT_PRESET)
