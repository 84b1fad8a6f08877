"""Atomic file writes: a crash or a full disk never leaves half a file over the user's data.

Write to a temporary file in the same folder, flush it, then rename it over the
target (``os.replace`` is atomic on POSIX and Windows). The temporary file gets the
mode a new file normally gets (mkstemp's 0600 is meant for secrets), or the mode of
the file it replaces. Used for scenarios, simulation arrays, measurements and
exported images.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, Iterator


def _usual_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def atomic_target(path: str | os.PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """A temporary path beside ``path``, moved over it when the block ends without an error.

    For writers that want a file name (QImage.save, QSvgGenerator, QPdfWriter);
    ``suffix`` keeps the extension some of them look at.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent if str(path.parent) else ".")
    os.close(fd)
    try:
        os.chmod(tmp, _usual_mode(path))
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(fh)`` on a temporary binary file, flush it to disk, then move it to ``path``."""
    with atomic_target(path) as tmp:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    atomic_write(path, lambda fh: fh.write(data))


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
