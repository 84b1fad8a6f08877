"""Read and write the small TOML documents we own (scenarios, lessons).

``tomllib`` reads; writing needs only tables of scalars, flat lists and inline
tables, so a short emitter beats another dependency. Saves are atomic
(``explorer.model.atomic``). Every TOML text a user hands us is parsed by
:func:`parse_toml`, which turns everything ``tomllib`` can raise on hostile text
(nesting thousands deep, a 5,000-digit integer) into one InputError.
"""

from __future__ import annotations

import json
import math
import os
import tomllib

from explorer.model.errors import InputError, read_user_text, shown, shown_path

# Tables and arrays nested deeper than this are refused. Our documents need 5
# (a lesson step's ``set`` table holding a list); tomllib itself recurses once per
# level and would hit Python's recursion limit near a thousand.
MAX_TOML_DEPTH = 32


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


def _depth(value) -> int:
    """How deeply tables and arrays nest in ``value`` (iteratively: the value may be as deep as the parser allowed)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            node = node.values()
        elif not isinstance(node, list):
            continue
        depth += 1
        deepest = max(deepest, depth)
        if depth <= MAX_TOML_DEPTH:
            stack.extend((child, depth) for child in node)
    return deepest


def parse_toml(text: str, field: str) -> dict:
    """Parse TOML text; malformed, too deeply nested or oversized values are an InputError naming ``field``."""
    too_deep = f"tables or arrays nested more than {MAX_TOML_DEPTH} levels deep"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(field, f"invalid TOML: {exc}") from None
    except RecursionError:
        raise InputError(field, too_deep) from None
    except ValueError as exc:  # an integer of more digits than Python converts (4,300)
        raise InputError(field, f"invalid TOML: {shown(str(exc), 200)}") from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise InputError(field, too_deep)
    return data


def load_toml(path: str | os.PathLike, kind: str = "a TOML file") -> dict:
    """Parse a TOML file; a missing, oversized or malformed file is an InputError naming it.

    ``kind`` says what the file should have been ("a scenario file") in the message.
    """
    return parse_toml(read_user_text(path, kind=kind), shown_path(path))


def parse_value(text: str, field: str):
    """Parse one value written in TOML syntax (``--set key=value``); bare words are strings.

    One value on one line: a line break would let the text carry more keys after
    the value (``7\\nseed=2``), which would be dropped without a word.
    """
    if "\n" in text or "\r" in text:
        raise InputError(field, f"{shown(text)}: the value has a line break; give one key=value per --set")
    try:
        doc = parse_toml(f"v = {text}", field)
    except InputError as exc:
        if not exc.message.startswith("invalid TOML"):
            raise
        stripped = text.strip()
        if stripped and all(c.isalnum() or c in "-_." for c in stripped):
            return stripped
        raise InputError(field, f"{shown(text)} is not a TOML value (e.g. 42, [480,1,1], \"gto\")") from None
    return doc["v"]
