"""The one error type for bad user input.

Every validator raises :class:`InputError` with the field, the value and the limit,
so the CLI prints one line and exits 2, and the GUI shows the text under the field.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from a user: a field, a flag, a scenario or a trace file."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


def require_int(field: str, value, *, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int within [lo, hi] or raise an InputError naming the limit."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str):
            try:
                value = int(value.strip(), 0) if value.strip().lower().startswith("0x") else int(value.strip())
            except ValueError:
                raise InputError(field, f"{value!r} is not an integer") from None
        else:
            raise InputError(field, f"{value!r} is not an integer")
    if lo is not None and value < lo:
        raise InputError(field, f"{value} is below the minimum of {lo}")
    if hi is not None and value > hi:
        raise InputError(field, f"{value} is above the maximum of {hi}")
    return value


def read_user_text(path, field: str | None = None, kind: str = "file", encoding: str = "utf-8") -> str:
    """Read a text file the user named; a missing, unreadable or binary file is an InputError.

    ``field`` names the input in the message (default: the path itself); ``kind``
    says what was expected ("a .cu file").
    """
    from pathlib import Path

    name = field or str(path)
    try:
        return Path(path).read_text(encoding=encoding)
    except FileNotFoundError:
        raise InputError(name, f"{path}: file not found" if field else "file not found") from None
    except IsADirectoryError:
        raise InputError(name, f"{path}: is a folder, not {kind}" if field else f"is a folder, not {kind}") from None
    except PermissionError:
        raise InputError(name, f"{path}: permission denied" if field else "permission denied") from None
    except UnicodeDecodeError:
        raise InputError(name, f"{path}: is not UTF-8 text" if field else "is not UTF-8 text") from None
