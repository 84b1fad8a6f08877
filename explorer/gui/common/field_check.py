"""Mark every bad field of a form at once, with the core's own messages (Qt-free).

The core's validators stop at the first bad value (``InputError`` names its field),
but a form should show all of them. So the form's texts are judged again and again,
each time with the field the core just refused replaced by its last good value,
until the core accepts: every refused field is then known, each with its message,
and the core has judged each against valid values of all the others. The Explorer's
scenario panel and the occupancy calculator both check their fields this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from explorer.model.errors import InputError

T = TypeVar("T")


def judge_fields(texts: dict, good: dict, judge: Callable[[dict], T],
                 key_of: Callable[[str], str | None] = lambda field: field) -> tuple[T, dict[str, str]]:
    """(what ``judge`` made of the texts, {field key: message}) once the core accepts them.

    ``judge(values)`` raises ``InputError`` for a bad value; ``key_of`` maps the
    error's field to the form's key (``launch.grid.x`` -> ``grid``). ``good`` holds
    a valid value for every key. A refused good value is not the user's input but a
    bug: the InputError goes up.
    """
    values = dict(texts)
    errors: dict[str, str] = {}
    for _ in range(len(values) + 1):
        try:
            return judge(values), errors
        except InputError as exc:
            key = key_of(exc.field)
            if key is None or key not in values or (key in errors and values[key] == good[key]):
                raise
            errors.setdefault(key, exc.message)
            values[key] = good[key]
    raise AssertionError("unreachable: every field was replaced by its last good value")
