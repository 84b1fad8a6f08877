"""What user text may become once it leaves the user's hands: a file name, a comment, a compiler name.

Scenario names, file names, kernel names and ``-D`` macros are typed by users (or
arrive in a shared scenario file). nvcc runs its compilation steps through ``sh``
with the file names and macros pasted in, and generated CUDA source is parsed line
by line, so none of that text may reach a path, a comment or a command line as it
is. The rules, one function each:

- :func:`slug` - the only form a name takes in a path or in generated source: letters,
  digits, ``.``, ``_`` and ``-``, no leading dot, at most 64 characters (so
  ``../../x``, ``$(touch x)`` and newlines become harmless dashes);
- :func:`one_line` - how user text is shown in a one-line message (control characters
  escaped, length capped);
- :func:`check_kernel_name` - a kernel name is a C++ name expression (NVRTC pastes it
  into code it generates), nothing else;
- :func:`parse_define` - ``NAME`` or ``NAME=VALUE`` with an identifier name and a value
  of one line.
"""

from __future__ import annotations

import re

from explorer.model.errors import InputError, strip_bidi

SLUG_MAX = 64
KERNEL_NAME_MAX = 512
DEFINE_VALUE_MAX = 4096

_NOT_SLUG = re.compile(r"[^A-Za-z0-9._-]+")
# identifiers, scopes and template arguments (types, numbers, pointers, simple expressions)
_KERNEL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[A-Za-z0-9_:<>,*&()\[\] .+\-]*[A-Za-z0-9_>)\]])?")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def slug(text, fallback: str = "scenario") -> str:
    """``text`` reduced to a safe file-name part (and comment text); ``fallback`` when nothing is left."""
    s = re.sub(r"[.-]{2,}", "-", _NOT_SLUG.sub("-", str(text or "")))
    s = s.strip(".-")[:SLUG_MAX].strip(".-")
    return s or fallback


def one_line(text, limit: int = 200) -> str:
    """``text`` for a one-line message: control characters as escapes, long text cut with an ellipsis."""
    s = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), strip_bidi(text))
    return s if len(s) <= limit else s[: limit - 1] + "\u2026"


def check_kernel_name(name, field: str = "--kernel") -> str:
    """``name`` if it is a kernel name (``saxpy``, ``ns::k<float, 32>``), else an InputError."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(field, "give the kernel's name")
    name = name.strip()
    if len(name) > KERNEL_NAME_MAX:
        raise InputError(field, f"a kernel name of {len(name):,} characters is above the limit of {KERNEL_NAME_MAX}")
    if not _KERNEL_NAME.fullmatch(name):
        raise InputError(field, f"{one_line(name, 80)!r} is not a kernel name (letters, digits, _ and a C++ "
                                "name expression like ns::k<float, 32>)")
    return name


def parse_define(text, field: str = "-D") -> tuple[str, str | None]:
    """``NAME`` or ``NAME=VALUE`` -> (name, value or None); the value is one line of at most 4 KB."""
    if not isinstance(text, str):
        raise InputError(field, f"{text!r} is not NAME or NAME=VALUE")
    name, eq, value = text.partition("=")
    if not _IDENTIFIER.fullmatch(name):
        raise InputError(field, f"{one_line(text, 80)!r}: the macro name must be an identifier (letters, digits, _)")
    if _CONTROL.search(value):
        raise InputError(field, f"{one_line(text, 80)!r}: the value must be one line without control characters")
    if len(value) > DEFINE_VALUE_MAX:
        raise InputError(field, f"a value of {len(value):,} characters is above the limit of {DEFINE_VALUE_MAX}")
    if value.endswith("\\"):
        raise InputError(field, f"{one_line(text, 80)!r}: the value must not end with a backslash")
    return name, (value if eq else None)
