"""Folders the GPU backend writes into: private temporary folders and the per-user output folder.

Why not ``/tmp/warp-explorer``: a fixed name in a world-writable folder can be made
in advance by another user (or be a symlink to somewhere else), and whatever we
write there is then theirs to read or redirect. So:

- :func:`private_tempdir` is ``tempfile.mkdtemp`` (a fresh folder only this user
  can enter), removed afterwards; its path is checked to hold only characters a
  shell takes literally, since nvcc pastes it into the commands it runs through ``sh``;
- :func:`user_output_dir` is the per-user folder for files meant to be kept
  (``measure --dry-run`` without ``--out``): ``$XDG_CACHE_HOME/warp-explorer/KIND``
  (``~/.cache/...``; ``%LOCALAPPDATA%`` on Windows), made with mode 0700 and refused
  when it is a symlink or belongs to someone else.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from explorer.model.errors import InputError

SHELL_SAFE_PATH = re.compile(r"[A-Za-z0-9_./+-]+")


@contextmanager
def private_tempdir(prefix: str, *, shell_safe: bool = False) -> Iterator[Path]:
    """A fresh 0700 folder (``tempfile.mkdtemp``), deleted with everything in it when the block ends.

    ``shell_safe``: the folder's full path must survive being pasted into a shell
    command (for nvcc); when ``$TMPDIR`` holds other characters, ``/tmp`` is tried.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    if shell_safe and not SHELL_SAFE_PATH.fullmatch(str(path)):
        shutil.rmtree(path, ignore_errors=True)
        fallback = "/tmp" if os.name == "posix" and os.path.isdir("/tmp") else None
        if fallback is None:
            raise InputError("TMPDIR", f"the temporary folder {tempfile.gettempdir()!r} has characters nvcc cannot "
                                       "take safely; set TMPDIR to a plain path")
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=fallback))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _cache_root() -> Path:
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    return Path.home() / ".cache"


def user_output_dir(kind: str) -> Path:
    """``<user cache>/warp-explorer/<kind>``, made private to this user; InputError when it is not ours."""
    base = _cache_root() / "warp-explorer"
    folder = base / kind
    for d in (base, folder):
        try:
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError("--out", f"cannot make the output folder {d} ({exc.strerror or exc}); "
                                      "name a file with --out") from None
        check_private_dir(d)
    return folder


def check_private_dir(path: Path) -> None:
    """Refuse a folder that is a symlink, not a folder, or owned by another user (InputError naming it)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise InputError("--out", f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise InputError("--out", f"{path} is a symbolic link; refusing to write through it (name a file with --out)")
    if not stat.S_ISDIR(info.st_mode):
        raise InputError("--out", f"{path} is not a folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise InputError("--out", f"{path} belongs to another user; refusing to write there (name a file with --out)")
    if os.name == "posix" and info.st_mode & 0o022:
        raise InputError("--out", f"{path} can be written by other users; refusing to write there "
                                  "(name a file with --out)")
