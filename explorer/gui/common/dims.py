"""Grid and block sizes as a field shows them ("240", "16, 16") and reads them back (Qt-free).

One spelling for every form that takes a launch (the Explorer's scenario panel, the kernel
form), so a size typed in one reads the same in the other.
"""

from __future__ import annotations

import re

from explorer.model.errors import InputError, require_int
from explorer.texts.errors import quoting


def parse_dims(text: str, key: str) -> list[int]:
    """'240', '240, 2' or '[16, 16, 1]' -> [x, y, z] (ints; the core checks the limits)."""
    cleaned = text.strip().strip("[]()")
    parts = [p for p in re.split(r"[\s,x×*]+", cleaned) if p]
    if not 1 <= len(parts) <= 3:
        raise InputError(key, quoting("not_size", repr(text.strip())))
    return [require_int(f"{key}.{axis}", part) for axis, part in zip("xyz", parts)]


def format_dims(values: list[int]) -> str:
    while len(values) > 1 and values[-1] == 1:
        values = values[:-1]
    return ", ".join(str(v) for v in values)
