"""Atomic file writes: a crash or a full disk never leaves half a file over the user's data.

Write to a temporary file in the same folder, flush it, then rename it over the
target (``os.replace`` is atomic on POSIX and Windows). The temporary file gets the
mode a new file normally gets (mkstemp's 0600 is meant for secrets), or the mode of
the file it replaces. Used for scenarios, simulation arrays, measurements, cubins
and exported images: every file the app writes goes through :func:`atomic_target`.

Leftovers. A write that is interrupted leaves no temporary file behind where it
can help it: an exception (Ctrl+C included) removes it; SIGTERM during a write in
the main thread removes it before the process ends as SIGTERM would have ended
it. A ``kill -9`` or a power cut cannot be handled, so every temporary name carries
the writer's process id (``.NAME.PID-XXXXXXXX.tmp``), and the next write into
that folder removes the ones whose writer is gone (or that are over a day old,
should the id have been reused). Temporary files of the earlier naming, without
the id (``.NAME.XXXXXXXX.tmp``, NAME a kind of file the app writes), are removed
once they are an hour old. Only names of exactly these patterns are touched.

A write that cannot be done (no such folder, a folder in the way, a read-only
folder, a full disk, a name too long) is a :class:`WriteError`: one line naming
the file and the reason, exit code 2 on the command line, an OSError for callers
that catch those.
"""

from __future__ import annotations

import atexit
import errno
import os
import re
import signal
import stat
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from explorer.model.errors import WriteError, shown_path

STALE_SECONDS = 24 * 3600  # a temp file this old is stale even if a process with its id runs
LEGACY_STALE_SECONDS = 3600  # the earlier names carry no id: age alone says the writer is gone
_TEMP_NAME = re.compile(r"^\..*\.(?P<pid>\d+)-[a-z0-9_]{8}\.tmp(\.[A-Za-z0-9]{1,8})?$")
# the earlier names: ".TARGET.XXXXXXXX.tmp", TARGET one of the files the app writes (a user's own
# ".notes.20240101.tmp" is not one of them)
_LEGACY_TEMP_NAME = re.compile(r"^\..+\.(toml|npz|png|gif|mp4|svg|pdf|cubin|cu|json)\.[a-z0-9_]{8}\.tmp$")
_NAME_KEPT = 100  # characters of the target's name kept in the temporary name (NAME_MAX is 255 bytes)

_active: set[str] = set()  # temporary files this process is writing now
_lock = threading.Lock()
_previous_handlers: dict[int, object] = {}
_main_writes = 0  # nested writes in the main thread holding our SIGTERM handler


def _usual_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _writer_alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would terminate the process there: rely on age alone
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a process of another user has this id
        return True
    return True


def remove_stale_temps(folder: str | os.PathLike) -> list[str]:
    """Remove our temporary files in ``folder`` whose writer is gone; returns the names removed."""
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        legacy = match is None and _LEGACY_TEMP_NAME.match(entry.name) is not None
        if not match and not legacy:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        age = now - info.st_mtime
        if legacy:
            if age <= LEGACY_STALE_SECONDS:
                continue
        elif age <= STALE_SECONDS and _writer_alive(int(match["pid"])):  # this process's own included
            continue
        try:
            os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            pass
    return removed


def _remove_active() -> None:
    with _lock:
        paths = list(_active)
        _active.clear()
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


def _on_signal(signum, frame) -> None:
    """Remove the temp files being written, then end as the signal's default action would."""
    _remove_active()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _hold_signals() -> bool:
    """In the main thread, catch SIGTERM (and SIGINT/SIGHUP where they would kill outright) for one write.

    Only for the length of the write, and only where the signal's action is the
    default one: Python's own SIGINT handler (KeyboardInterrupt) already reaches
    the cleanup, and a handler someone else installed is theirs to keep.
    """
    global _main_writes
    if threading.current_thread() is not threading.main_thread():
        return False
    if _main_writes == 0:
        for name in ("SIGTERM", "SIGINT", "SIGHUP"):
            sig = getattr(signal, name, None)
            try:
                if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
                    signal.signal(sig, _on_signal)
                    _previous_handlers[sig] = signal.SIG_DFL
            except (OSError, ValueError):
                pass
    _main_writes += 1
    return True


def _release_signals() -> None:
    global _main_writes
    _main_writes -= 1
    if _main_writes == 0:
        for sig, handler in list(_previous_handlers.items()):
            try:
                signal.signal(sig, handler)
            except (OSError, ValueError):
                pass
        _previous_handlers.clear()


def _write_error(path: Path, field: str | None, exc: OSError) -> WriteError:
    reason = {
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.EISDIR: "is a folder",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EROFS: "the folder is on a read-only file system",
        errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "disk quota exceeded",
        errno.ENAMETOOLONG: "the file name is too long",
        errno.ELOOP: "symbolic link loop",
    }.get(exc.errno, exc.strerror or str(exc))
    name = shown_path(path)
    return WriteError(field or name, f"{name}: cannot write ({reason})" if field else f"cannot write ({reason})",
                      exc.errno, exc.strerror)


def check_target(path: str | os.PathLike, field: str | None = None) -> Path:
    """``path`` as a Path when a file can be written there, else a WriteError saying why.

    For commands to check an output path before hours of work, and for every
    write: an empty name, a NUL byte, a missing folder, a folder in the way or an
    existing target that is not a regular file (``/dev/zero``, a FIFO: the rename
    would replace the device node itself) are refused here with the same one line.
    """
    text = os.fspath(path)
    name = shown_path(text)

    def fail(reason: str):
        raise WriteError(field or name, f"{name}: cannot write ({reason})" if field else f"cannot write ({reason})",
                         strerror=reason)

    if not text:
        raise WriteError(field or "output", "give a file name", strerror="no file name given")
    if "\0" in str(text):
        fail("the file name contains a NUL character")
    target = Path(text)
    if target.name in ("", ".", ".."):
        fail("is a folder")
    try:
        is_folder, parent_is_folder = target.is_dir(), target.parent.is_dir()
        existing = target.stat() if target.exists() else None
    except OSError as exc:
        raise _write_error(target, field, exc) from None
    if is_folder:
        fail("is a folder")
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        # renaming over /dev/zero would replace the device itself (as root it can)
        fail("is a device, pipe or socket, not a file")
    if not parent_is_folder:
        fail(f"the folder {shown_path(target.parent)} does not exist")
    return target


@contextmanager
def atomic_target(path: str | os.PathLike, suffix: str = ".tmp", field: str | None = None) -> Iterator[Path]:
    """A temporary path beside ``path``, moved over it when the block ends without an error.

    For writers that want a file name (QImage.save, QSvgGenerator, QPdfWriter);
    ``suffix`` keeps the extension some of them look at. ``field`` names the
    input (``--out``) in a :class:`WriteError`.
    """
    path = check_target(path, field)
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale_temps(folder)
    extension = suffix if suffix == ".tmp" else ".tmp" + suffix
    holding = _hold_signals()
    tmp = None
    try:
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:_NAME_KEPT]}.{os.getpid()}-", suffix=extension,
                                       dir=folder)
            with _lock:
                _active.add(tmp)
            os.close(fd)
            os.chmod(tmp, _usual_mode(path))
        except OSError as exc:
            raise _write_error(path, field, exc) from None
        yield Path(tmp)
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise _write_error(path, field, exc) from None
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    finally:
        if tmp is not None:
            with _lock:
                _active.discard(tmp)
        if holding:
            _release_signals()


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None], field: str | None = None) -> None:
    """Call ``write(fh)`` on a temporary binary file, flush it to disk, then move it to ``path``."""
    with atomic_target(path, field=field) as tmp:
        try:
            with open(tmp, "wb") as fh:
                write(fh)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:  # a full disk, a quota: the old file stays as it was
            if isinstance(exc, WriteError):
                raise
            raise _write_error(Path(path), field, exc) from None


def atomic_write_bytes(path: str | os.PathLike, data: bytes, field: str | None = None) -> None:
    atomic_write(path, lambda fh: fh.write(data), field=field)


def atomic_write_text(path: str | os.PathLike, text: str, field: str | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), field=field)


atexit.register(_remove_active)  # a daemon thread still writing when the interpreter exits
