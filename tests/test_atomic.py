"""The one atomic writer: no half files, no leftovers, one clear error (issue 12, item 5 and 8).

The interruption tests run a real writer in a subprocess and kill it in the
middle of a write (SIGKILL, SIGTERM, SIGINT), then look at the folder.
"""

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from explorer.model import atomic
from explorer.model.atomic import atomic_write, atomic_write_bytes, check_target, remove_stale_temps
from explorer.model.errors import InputError, WriteError

REPO = Path(__file__).resolve().parents[1]

# A writer that writes 1 KB, then waits (so the parent can interrupt it mid-write).
SLOW_WRITER = textwrap.dedent("""
    import sys, time
    from explorer.model.atomic import atomic_write

    def write(fh):
        fh.write(b"x" * 1024)
        fh.flush()
        print("writing", flush=True)
        time.sleep(60)

    atomic_write(sys.argv[1], write)
""")


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _start_slow_writer(target: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target)], stdout=subprocess.PIPE, env=env)
    assert proc.stdout.readline().strip() == b"writing"  # the temp file exists now
    return proc


def test_a_write_leaves_only_the_target(tmp_path):
    atomic_write_bytes(tmp_path / "a.bin", b"data")
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]
    assert (tmp_path / "a.bin").read_bytes() == b"data"


def test_kill_9_leftover_is_removed_by_the_next_write_to_that_folder(tmp_path):
    target = tmp_path / "out.npz"
    target.write_bytes(b"old")
    proc = _start_slow_writer(target)
    proc.kill()
    proc.wait()
    left = _temps(tmp_path)
    assert len(left) == 1 and left[0].startswith(".out.npz.") and left[0].endswith(".tmp"), left
    assert target.read_bytes() == b"old"  # the kill never touched the old file
    atomic_write_bytes(tmp_path / "other.txt", b"new")  # any write into the folder cleans up
    assert _temps(tmp_path) == []
    assert target.read_bytes() == b"old"


def test_a_live_writers_temp_file_is_left_alone(tmp_path):
    proc = _start_slow_writer(tmp_path / "busy.bin")
    try:
        live = _temps(tmp_path)
        assert len(live) == 1
        atomic_write_bytes(tmp_path / "mine.bin", b"x")
        assert remove_stale_temps(tmp_path) == []
        assert _temps(tmp_path) == live
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_sigint_remove_the_temp_file_being_written(tmp_path, sig):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    proc = _start_slow_writer(target)
    proc.send_signal(sig)
    code = proc.wait(timeout=30)
    assert code != 0
    if sig == signal.SIGTERM:
        assert code == -signal.SIGTERM  # it still ends as SIGTERM ends a process
    assert _temps(tmp_path) == []
    assert target.read_bytes() == b"old"


def test_handlers_are_held_only_during_a_write(tmp_path):
    before = signal.getsignal(signal.SIGTERM)
    seen = []
    atomic_write(tmp_path / "a", lambda fh: seen.append(signal.getsignal(signal.SIGTERM)))
    assert signal.getsignal(signal.SIGTERM) is before
    if before is signal.SIG_DFL:
        assert seen == [atomic._on_signal]


def test_stale_files_by_age_and_other_names_are_kept(tmp_path):
    old_pattern = tmp_path / ".a.toml.abcd1234.tmp"  # the names before the id was added
    old_pattern.write_bytes(b"")
    young_old_pattern = tmp_path / ".b.toml.efgh5678.tmp"
    young_old_pattern.write_bytes(b"")
    reused_id = tmp_path / f".c.toml.{os.getpid()}-abcdefgh.tmp"  # our own id, but a day old
    reused_id.write_bytes(b"")
    users = [tmp_path / n for n in (".hidden", ".x.tmp", "notes.123-abcdefgh.tmp", ".d.1-abc.tmp",
                                    ".notes.20240101.tmp", ".cache.backup01.tmp")]
    day = time.time() - atomic.STALE_SECONDS - 10
    for p in users:
        p.write_bytes(b"")
        os.utime(p, (day, day))  # old, and still not ours
    os.utime(old_pattern, (day, day))
    os.utime(reused_id, (day, day))
    removed = remove_stale_temps(tmp_path)
    assert sorted(removed) == sorted([old_pattern.name, reused_id.name])
    assert young_old_pattern.exists() and all(p.exists() for p in users)


def test_full_disk_keeps_the_old_file_and_is_a_write_error(tmp_path):
    target = tmp_path / "s.toml"
    target.write_bytes(b"old")

    def write(fh):
        fh.write(b"partial")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(WriteError) as info:
        atomic_write(target, write, field="--out")
    assert info.value.errno == errno.ENOSPC
    assert isinstance(info.value, OSError) and isinstance(info.value, InputError)
    assert str(info.value) == f"--out: {target}: cannot write (no space left on the device)"
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


def test_read_only_folder_is_a_write_error(tmp_path, monkeypatch):
    # root ignores permission bits, so the refusal the kernel would give is injected
    def refuse(*a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)
    with pytest.raises(WriteError, match="read-only file system"):
        atomic_write_bytes(tmp_path / "a.png", b"x")


@pytest.mark.parametrize("name,reason", [
    ("", "give a file name"),
    ("missing/a.png", "the folder"),
    (".", "is a folder"),
    ("a\0b.png", "NUL character"),
    ("x" * 300 + ".png", "the file name is too long"),
])
def test_bad_targets_are_refused_before_writing(tmp_path, monkeypatch, name, reason):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(WriteError, match=reason):
        check_target(name, "--out")
    with pytest.raises(WriteError, match=reason):
        atomic_write_bytes(name, b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_in_the_way(tmp_path):
    (tmp_path / "d.png").mkdir()
    with pytest.raises(WriteError, match="is a folder"):
        atomic_write_bytes(tmp_path / "d.png", b"x")
    assert [p.name for p in tmp_path.iterdir()] == ["d.png"]


def test_a_device_or_fifo_target_is_refused_and_kept(tmp_path):
    """As root, renaming over /dev/zero replaced the device with a scenario file."""
    fifo = tmp_path / "out.toml"
    os.mkfifo(fifo)
    with pytest.raises(WriteError, match="not a file"):
        atomic_write_bytes(fifo, b"x")
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["out.toml"]
    for device in ("/dev/zero", "/dev/null"):
        with pytest.raises(WriteError, match="not a file"):
            check_target(device)
    assert Path("/dev/zero").is_char_device()


def test_a_long_target_name_still_gets_a_temp_file(tmp_path):
    name = "n" * 250  # the temp name keeps only part of it, so it stays under NAME_MAX
    atomic_write_bytes(tmp_path / name, b"x")
    assert [p.name for p in tmp_path.iterdir()] == [name]
