"""The one error type for bad user input, and the one way to read a file a user names.

Every validator raises :class:`InputError` with the field, the value and the limit,
so the CLI prints one line and exits 2, and the GUI shows the text under the field.
Every file a user hands us (scenario, lesson, CSV, ``.cu``, measurement) is opened
by :func:`open_user_file`, which refuses what is not a regular file or is over a
size cap before anything is read.
"""

from __future__ import annotations

import errno
import os
import re
import stat

from explorer.texts.errors import ERRORS, quoting


LONG_PART = 200  # characters of one quoted piece or one word of input a message keeps (issue 30, item 7)
_QUOTED = re.compile(r'"[^"\n]{%d,}"|\'[^\'\n]{%d,}\'' % (LONG_PART + 1, LONG_PART + 1))
_WORD = re.compile(r"\S{%d,}" % (LONG_PART + 1))


def cut_long(text: str) -> str:
    """``text`` with every quoted piece and every word longer than ``LONG_PART`` characters cut, saying how
    long it was: a message that quotes the user's 5,000-character identifier (the compiler's first error)
    or key stays one readable line."""
    def cut(m):
        part = m.group()
        return f"{part[:LONG_PART - 2]}\u2026 ({len(part):,} characters)"  # short enough not to be cut again

    plain = str(text)
    if len(plain) <= LONG_PART:
        return text if isinstance(text, str) else plain  # a Message stays one (the window renders its record)
    out = _WORD.sub(cut, _QUOTED.sub(cut, plain))
    return text if out == plain and isinstance(text, str) else out


class InputError(ValueError):
    """Bad input from a user: a field, a flag, a scenario or a trace file. Long quoted input in the field or
    the message is cut (:func:`cut_long`)."""

    def __init__(self, field: str, message: str):
        self.field = cut_long(field) if isinstance(field, str) else field
        self.message = cut_long(message) if isinstance(message, str) else message
        super().__init__(f"{self.field}: {self.message}" if self.field else self.message)

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class WriteError(InputError, OSError):
    """A file we were asked to write could not be written (missing or read-only folder, full disk).

    An :class:`InputError`, so the CLI says so in one line with exit code 2, and an
    :class:`OSError`, so code that already catches OSError around a save (the
    window's dialogs) keeps working; ``errno`` and ``strerror`` are the system's.
    """

    def __init__(self, field: str, message: str, err: int | None = None, strerror: str | None = None):
        InputError.__init__(self, field, message)
        self.errno = err
        self.strerror = strerror or message


SHOWN_CHARS = 80  # how much of a bad value a message quotes
# Unicode's bidirectional controls (embeddings, overrides, isolates, marks): one in a name reverses the text
# shown after it (a U+202E in a scenario or file name turned the narration around it backwards, issue 30)
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))


def strip_bidi(text: str) -> str:
    """``text`` without bidirectional control characters (for names that are displayed)."""
    return str(text).translate(BIDI_CONTROLS)


def shown(value, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message quotes a 5,000-digit number, not all of it."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # a list nested thousands deep, an int too long to print
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    tail = f"... ({len(text):,} chars)"
    return text[: max(0, limit - len(tail))] + tail


def shown_path(path, limit: int = 4 * SHOWN_CHARS) -> str:
    """A file name or key as a message prints it: as is when printable and short, else escaped and cut."""
    text = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    if text.isprintable() and len(text) <= limit:
        return text
    return shown(text, limit)


def require_int(field: str, value, *, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int within [lo, hi] or raise an InputError naming the limit.

    Text is read as ASCII decimal, or hexadecimal with ``0x`` (``"0x100"`` is 256
    here and wherever the value is used after this check); other digits (``"²"``,
    Arabic-Indic digits) are refused rather than guessed.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str):
            text = value.strip()
            hexadecimal = text.lower().lstrip("+-").startswith("0x")
            try:
                if not text.isascii():
                    raise ValueError(text)
                value = int(text, 16 if hexadecimal else 10)
            except ValueError:
                raise InputError(field, quoting("not_integer", shown(value))) from None
        else:
            raise InputError(field, quoting("not_integer", shown(value)))
    if lo is not None and value < lo:
        raise InputError(field, ERRORS("below_minimum", value=shown(value), limit=lo))
    if hi is not None and value > hi:
        raise InputError(field, ERRORS("above_maximum", value=shown(value), limit=hi))
    return value


def reject_unknown_keys(data: dict, known, where: str) -> None:
    """An InputError naming the first key of ``data`` that is not in ``known`` (keys of any type)."""
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        field = f"{where}.{unknown[0]}" if where else unknown[0]
        raise InputError(shown_path(field, SHOWN_CHARS), f"unknown key; allowed: {', '.join(sorted(known))}")


# Size caps for files a user hands us. They bound memory before anything is parsed;
# each is far above any real file of that kind (the shipped scenarios are < 2 KB,
# lessons < 16 KB, a big .cu a few hundred KB).
MAX_TOML_BYTES = 1 << 20  # scenario and lesson files
MAX_CSV_BYTES = 64 << 20  # occupancy --batch (about a million rows)
MAX_SOURCE_BYTES = 4 << 20  # .cu files
MAX_MEASUREMENT_BYTES = 512 << 20  # measurement .npz (compressed; members are checked separately)


MAX_LINE_BYTES = 64 << 10  # one CSV row (a real one is under 100 bytes)


def _failure(path, field: str | None):
    """The raiser for one file: the message names the field (if any) and the file."""
    name = shown_path(path)

    def fail(message: str):
        raise InputError(field or name, f"{name}: {message}" if field else message) from None

    return fail


def open_user_file(path, field: str | None = None, kind: str = "file", limit: int = MAX_TOML_BYTES):
    """Open a file the user named for reading (binary), refusing what is not a regular file or is over ``limit``.

    Why not ``open``: a FIFO or a device (``/dev/zero``) would block or read
    forever, a symlink loop or an over-long name surfaces as an OSError, a NUL
    byte in the name as a ValueError, and an oversized file would be read whole
    before anything could refuse it. Here the file is opened non-blocking (a FIFO
    with no writer does not hang the open), checked with ``fstat`` (the object
    actually opened, not a name that can change in between) and handed back as a
    binary file; every failure is an :class:`InputError` naming the file and the
    limit. The caller closes it (``with open_user_file(...) as fh``).
    """
    fail = _failure(path, field)
    if isinstance(path, str) and not path:
        fail("no file name given")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(os.fspath(path), flags)
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
        if exc.errno == errno.ENXIO:  # a socket
            fail(f"is not a regular file (a pipe, device or socket), not {kind}")
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
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_user_bytes(path, field: str | None = None, kind: str = "file", limit: int = MAX_TOML_BYTES) -> bytes:
    """The whole of a file the user named (see :func:`open_user_file`), at most ``limit`` bytes.

    The size is checked before reading and again while reading (a file that grows
    in between is cut off with the same error, not read without end).
    """
    fail = _failure(path, field)
    with open_user_file(path, field, kind, limit) as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            fail(f"cannot read: {exc.strerror or exc}")
    if len(data) > limit:
        fail(f"is above the limit of {limit:,} bytes for {kind}")
    return data


def decode_text(data: bytes, fail, encoding: str = "utf-8") -> str:
    """``data`` as text without a leading byte-order mark; undecodable bytes go to ``fail`` with their offset."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        fail(f"is not UTF-8 text (byte {exc.start:,})")
    return text[1:] if text.startswith("\ufeff") else text


def read_user_text(path, field: str | None = None, kind: str = "file", encoding: str = "utf-8",
                   limit: int = MAX_TOML_BYTES) -> str:
    """Read a text file the user named (see :func:`read_user_bytes`); binary text is an InputError.

    ``field`` names the input in the message (default: the path itself); ``kind``
    says what was expected ("a .cu file"). A UTF-8 byte-order mark is dropped.
    """
    return decode_text(read_user_bytes(path, field, kind, limit), _failure(path, field), encoding)


def capped_lines(fh, name: str, limit: int, line_limit: int = MAX_LINE_BYTES):
    """Yield the lines of a binary stream one by one (``None`` for a line over ``line_limit``).

    For input that is read row by row (``occupancy --batch``, from a file or from
    stdin): memory stays at one line however long the input is or whatever it
    holds (``/dev/zero`` on stdin is one endless line: it is skipped in bounded
    pieces). Past ``limit`` bytes in all it stops with an InputError naming the
    limit and the line it stopped at; every line before has been handed out.
    """
    total, number = 0, 0
    while True:
        line = fh.readline(line_limit + 1)
        if not line:
            return
        number += 1
        total += len(line)
        too_long = len(line) > line_limit and not line.endswith(b"\n")
        while too_long and total <= limit:  # skip the rest of an over-long line, piece by piece
            more = fh.readline(line_limit)
            total += len(more)
            if not more or more.endswith(b"\n"):
                break
        if total > limit:
            raise InputError(name, f"the input is above the limit of {limit:,} bytes; stopped at line {number:,}")
        yield None if too_long else line
