"""Read and write the small TOML documents we own (scenarios).

``tomllib`` reads; writing needs only tables of scalars, flat lists and inline
tables, so a short emitter beats another dependency. Saves are atomic
(``explorer.atomic``).
"""

from __future__ import annotations

import json
import math
import os
import tomllib

from explorer.atomic import atomic_write_text  # noqa: F401 - re-exported for scenario saving
from explorer.model.errors import InputError, read_user_text


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"cannot write {value!r} to TOML")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a valid TOML basic string
    if isinstance(value, dict):  # inline table
        return "{ " + ", ".join(f"{k} = {_scalar(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, dict) for v in value):  # one inline table per line
            return "[\n" + "".join(f"  {_scalar(v)},\n" for v in value) + "]"
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def dumps(doc: dict) -> str:
    """Serialize a dict of scalars, lists and (nested) tables."""
    lines: list[str] = []

    def emit(table: dict, prefix: str) -> None:
        subtables = []
        for key, value in table.items():
            if isinstance(value, dict):
                subtables.append((key, value))
            else:
                lines.append(f"{key} = {_scalar(value)}")
        for key, value in subtables:
            name = f"{prefix}.{key}" if prefix else key
            lines.append("")
            lines.append(f"[{name}]")
            emit(value, name)

    emit(doc, "")
    return "\n".join(lines).lstrip("\n") + "\n"


def load_toml(path: str | os.PathLike) -> dict:
    """Parse a TOML file; a missing or malformed file is an InputError naming it."""
    text = read_user_text(path, kind="a file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), f"invalid TOML: {exc}") from None


def parse_value(text: str, field: str):
    """Parse one value written in TOML syntax (``--set key=value``); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        stripped = text.strip()
        if stripped and all(c.isalnum() or c in "-_." for c in stripped):
            return stripped
        raise InputError(field, f"{text!r} is not a TOML value (e.g. 42, [480,1,1], \"gto\")") from None
