"""Named scenarios shipped in ``resources/scenarios/`` and the SCENARIO|PRESET argument."""

from __future__ import annotations

from pathlib import Path

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.paths import resource

DEFAULT_PRESET = "example-240x256"


def preset_dir() -> Path:
    return resource("scenarios")


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.toml"))


def load_preset(name: str) -> Scenario:
    path = preset_dir() / f"{name}.toml"
    if not path.is_file():
        raise InputError("scenario", f"unknown preset {name!r}; presets: {', '.join(preset_names())}")
    return Scenario.load(path)


def load_scenario_arg(text: str) -> Scenario:
    """A scenario file path, or the name of a shipped preset (files win on a clash)."""
    if not text:
        raise InputError("scenario", "give a scenario file or a preset name")
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        return Scenario.load(path)
    return load_preset(text)


def default_scenario() -> Scenario:
    return load_preset(DEFAULT_PRESET)
