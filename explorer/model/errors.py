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


# Size caps for files a user hands us. They bound memory before anything is parsed;
# each is far above any real file of that kind (the shipped scenarios are < 2 KB,
# lessons < 16 KB, a big .cu a few hundred KB).
MAX_TOML_BYTES = 1 << 20  # scenario and lesson files
MAX_CSV_BYTES = 64 << 20  # occupancy --batch (about a million rows)
MAX_SOURCE_BYTES = 4 << 20  # .cu files
MAX_MEASUREMENT_BYTES = 512 << 20  # measurement .npz (compressed; members are checked separately)


def read_user_bytes(path, field: str | None = None, kind: str = "file", limit: int = MAX_TOML_BYTES) -> bytes:
    """Read a file the user named, refusing what is not a regular file or is over ``limit``.

    Why not ``Path.read_bytes``: a FIFO or a device (``/dev/zero``) would block or
    read forever, a symlink loop surfaces as an OSError, and an oversized file is
    read whole before anything can refuse it. Here the file is opened non-blocking,
    checked with ``fstat`` (the object actually opened, not a name that can change
    in between), and read up to ``limit`` + 1 bytes. Every failure is an
    :class:`InputError` naming the file and the limit.
    """
    import errno
    import os
    import stat

    name = field or str(path)

    def fail(message: str):
        raise InputError(name, f"{path}: {message}" if field else message) from None

    try:
        fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        fail("file not found")
    except IsADirectoryError:
        fail(f"is a folder, not {kind}")
    except PermissionError:
        fail("permission denied")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            fail("symbolic link loop")
        if exc.errno == errno.ENAMETOOLONG:
            fail("file name too long")
        fail(f"cannot open: {exc.strerror or exc}")
    except (ValueError, TypeError):  # a NUL byte in the name, or no path at all
        fail("not a valid file name")
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            fail(f"is a folder, not {kind}")
        if not stat.S_ISREG(info.st_mode):
            fail(f"is not a regular file (a pipe, device or socket), not {kind}")
        if info.st_size > limit:
            fail(f"is {info.st_size:,} bytes, above the limit of {limit:,} bytes for {kind}")
        chunks, total = [], 0
        while total <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            except OSError as exc:
                fail(f"cannot read: {exc.strerror or exc}")
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            fail(f"is above the limit of {limit:,} bytes for {kind}")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_user_text(path, field: str | None = None, kind: str = "file", encoding: str = "utf-8",
                   limit: int = MAX_TOML_BYTES) -> str:
    """Read a text file the user named (see :func:`read_user_bytes`); binary text is an InputError.

    ``field`` names the input in the message (default: the path itself); ``kind``
    says what was expected ("a .cu file"). A UTF-8 byte-order mark is dropped.
    """
    data = read_user_bytes(path, field, kind, limit)
    name = field or str(path)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        where = f" (byte {exc.start:,})"
        raise InputError(name, f"{path}: is not UTF-8 text{where}" if field else f"is not UTF-8 text{where}") from None
    return text[1:] if text.startswith("\ufeff") else text
