"""No writable folder for numba's cache (issue 30, item 5): a read-only install run by another user, or
HOME=/nonexistent. numba decorated with cache=True raised at import ("cannot cache function '_splitmix':
no locator available") and simulate and --smoke-test exited 1.

Each case runs in a child process whose ``tempfile.TemporaryFile`` refuses the folders numba tests for
writability (its cache locators make a temporary file there, as ``explorer.jit.runtime`` does), so numba itself
sees no writable folder, as it does for that user; ``TMPDIR`` is the test's own folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CHILD = r"""
import os, sys, tempfile
real = tempfile.TemporaryFile
refused = os.environ["WX_TEST_REFUSE"].split(os.pathsep)

def guarded(*args, dir=None, **kwargs):
    if dir is not None and any(part and part in str(dir) for part in refused):
        raise PermissionError(13, "Permission denied (the test's read-only folder)", str(dir))
    return real(*args, dir=dir, **kwargs)

tempfile.TemporaryFile = guarded
mode = sys.argv[1]
if mode == "cli":
    import runpy
    sys.argv = ["warp-explorer", *sys.argv[2:]]
    runpy.run_module("explorer", run_name="__main__")
else:
    import explorer.jit.runtime as jit
    import explorer.sim.kernel  # every cycle-loop function decorated (no compile until called)
    import explorer.sass.execute.interp  # and the executor's
    print(repr((jit.CACHE, os.environ.get("NUMBA_CACHE_DIR"))))
"""


def _child(tmp_path, refuse: list[str], *args, timeout=600):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env.update(PYTHONPATH=str(REPO), TMPDIR=str(tmp_path), HOME=str(tmp_path / "no-home"),
               XDG_CACHE_HOME=str(tmp_path / "no-home" / ".cache"), WX_TEST_REFUSE=os.pathsep.join(refuse),
               QT_QPA_PLATFORM="offscreen")
    env.pop("WARP_EXPLORER_NO_JIT", None)
    return subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=tmp_path)


READ_ONLY = ["__pycache__", "no-home"]  # the package's folders and the user's cache: as for another user


def test_a_private_temporary_cache_with_a_notice(tmp_path):
    p = _child(tmp_path, READ_ONLY, "import")
    assert p.returncode == 0, p.stderr
    cache, folder = eval(p.stdout.strip().splitlines()[-1])
    assert cache is True and folder == str(tmp_path / f"warp-explorer-numba-{os.getuid()}")
    notes = [line for line in p.stderr.splitlines() if line.startswith("warp-explorer: note:")]
    assert len(notes) == 1 and "no writable folder for numba's cache" in notes[0] and folder in notes[0]
    assert oct(os.stat(folder).st_mode & 0o777) == "0o700"


@pytest.mark.slow  # the simulator compiles into the new folder (16 s here) unless a built seed is shipped
def test_simulate_runs_with_the_cache_in_the_temporary_folder(tmp_path):
    p = _child(tmp_path, READ_ONLY, "cli", "simulate", "example-240x256", "--json")
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout)["cycles"] > 0
    assert "cannot cache function" not in p.stderr
    assert any((tmp_path / f"warp-explorer-numba-{os.getuid()}").rglob("*.nbi"))  # the cache (or seed) is there


def test_without_any_writable_folder_caching_is_off_with_a_notice(tmp_path):
    p = _child(tmp_path, READ_ONLY + ["warp-explorer-numba"], "import")
    assert p.returncode == 0, p.stderr
    cache, folder = eval(p.stdout.strip().splitlines()[-1])
    assert cache is False and folder is None
    assert "compiled on every start" in p.stderr


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX ownership")
def test_a_folder_someone_else_made_first_is_not_used(tmp_path):
    """A fixed name under /tmp can be made by another user first (or be a symlink): not ours, not used."""
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.symlink(target, tmp_path / f"warp-explorer-numba-{os.getuid()}")
    p = _child(tmp_path, READ_ONLY, "import")
    assert p.returncode == 0, p.stderr
    cache, folder = eval(p.stdout.strip().splitlines()[-1])
    assert cache is False and folder is None and not any(target.iterdir())
