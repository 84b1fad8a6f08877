"""Run the CLI on hostile input and check the contract every run must keep (issue 12).

The contract, for any argument list and any input file:

* the exit code is 0 or 2 (3 for ``measure`` without a GPU): exit 1 is our bug;
* with exit 2, stderr is exactly one line, and no traceback;
* no exception but our own ``InputError`` leaves a loader or validator;
* no file appears except the output the arguments name;
* memory stays bounded (``run_limited``: a subprocess under an address-space limit).

``run_main`` calls ``explorer.cli.main.main`` in this process (fast: numba and Qt
load once) with ``WARP_EXPLORER_DEBUG=1``, so an unexpected exception propagates
as itself and hypothesis shows and shrinks it instead of an "internal error" line.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, event, settings

from tests.helpers import peak_rss_bytes

REPO = Path(__file__).resolve().parents[2]

# numba and llvmlite reserve address space well beyond what they touch: the
# example simulation needs about 700 MiB of it (it fails at 600 MiB) and 236 MB
# resident. 2 GiB is about three times that, and the bound for any accepted
# run; a run that needs more fails here with MemoryError, which is exit 1.
ADDRESS_SPACE_LIMIT = 2 << 30

# Example counts are set per test so the whole suite stays near a minute on a
# loaded 2-core machine; deadline off because the machine's load varies.
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MEDIUM = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    new_files: set[str] = field(default_factory=set)


def _tree(root: Path) -> set[str]:
    found = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(folder, name), root))
    return found


@contextlib.contextmanager
def workdir():
    """A fresh, empty current folder for one example (hypothesis cannot use tmp_path per example)."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="we-fuzz-") as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(old)


def run_main(argv: list[str], stdin: bytes | None = None, cwd: Path | None = None) -> Outcome:
    """``main(argv)`` in this process, with stdout/stderr captured and ``stdin`` as the bytes given."""
    from explorer.cli.main import main

    root = Path.cwd() if cwd is None else cwd
    before = _tree(root)
    out, err = io.StringIO(), io.StringIO()
    old_stdin, old_debug = sys.stdin, os.environ.get("WARP_EXPLORER_DEBUG")
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8", newline="")
    os.environ["WARP_EXPLORER_DEBUG"] = "1"
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        sys.stdin = old_stdin
        if old_debug is None:
            os.environ.pop("WARP_EXPLORER_DEBUG", None)
        else:
            os.environ["WARP_EXPLORER_DEBUG"] = old_debug
    event(f"exit {code}")  # --hypothesis-show-statistics: how many runs got past the validators
    return Outcome(code, out.getvalue(), err.getvalue(), _tree(root) - before)


def check(outcome: Outcome, allowed_codes=(0, 2), outputs: tuple[str, ...] = ()) -> None:
    """The contract above, for one run; ``outputs`` are the files the arguments name."""
    detail = f"exit {outcome.code}\nstderr: {outcome.err[-2000:]}"
    assert outcome.code in allowed_codes, detail
    assert "Traceback" not in outcome.err and "internal error" not in outcome.err, detail
    if outcome.code == 2:
        lines = [line for line in outcome.err.splitlines() if line.strip()]
        assert len(lines) == 1, detail
        assert len(lines[0]) < 2000, detail
    allowed = {os.path.normpath(p) for p in outputs if p} if outcome.code == 0 else set()
    assert outcome.new_files <= allowed, (outcome.new_files, allowed, detail)


MARKERS = ("evil", "pwned")  # the names the fuzz gives to paths and commands that must not happen


def marker_files() -> set[str]:
    """Entries named like our hostile inputs in the folders a traversal or injected command reaches.

    The top of ``/``, the temp folder, the home folder and its cache: where
    ``../../evil`` lands from an output folder, and where ``$(touch pwned)`` runs.
    """
    found = set()
    home = Path.home()
    for folder in (Path("/"), Path(tempfile.gettempdir()), home, home / ".cache", Path.cwd()):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found.update(str(folder / n) for n in names if any(m in n for m in MARKERS))
    return found


def assert_no_new_markers(before: set[str]) -> None:
    """Fail if a marker entry appeared since ``before``; remove it first, so a rerun sees the same state."""
    new = marker_files() - before
    for path in new:
        try:
            os.unlink(path)
        except OSError:
            pass
    assert not new, f"written outside the output folder or by an injected command: {sorted(new)}"


# ``python -m explorer`` that writes its own peak resident set (VmHWM) on the way out.
# Not the parent's ``wait4`` rusage: Linux carries ``ru_maxrss`` across fork + exec, so
# a child of a long pytest run reported the parent's 6.5 GB (see tests.helpers.peak_rss_bytes).
_CLI_REPORTING_PEAK = (
    "import os, runpy, sys\n"
    "sys.argv[0] = 'explorer'\n"
    "try:\n"
    "    runpy.run_module('explorer', run_name='__main__', alter_sys=True)\n"
    "finally:\n"
    "    from tests.helpers import peak_rss_bytes\n"
    "    with open(os.environ['WX_TEST_PEAK_RSS_FILE'], 'w') as fh:\n"
    "        fh.write(str(peak_rss_bytes()))\n"
)


@dataclass
class Limited:
    code: int
    out: str
    err: str
    max_rss: int  # bytes, the child's peak resident set


def run_limited(args: list[str], stdin=None, timeout: float = 120, cwd: Path | None = None,
                limit: int = ADDRESS_SPACE_LIMIT) -> Limited:
    """The CLI in a subprocess whose address space is capped at ``limit`` bytes; its exit and peak RSS.

    ``stdin`` is a file object (``/dev/zero``) or None. A run past ``timeout``
    seconds is killed and reported as exit code -9.
    """

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    env.pop("WARP_EXPLORER_DEBUG", None)
    with tempfile.TemporaryDirectory() as private:
        peak_file = Path(private) / "peak"
        env["WX_TEST_PEAK_RSS_FILE"] = str(peak_file)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([sys.executable, "-c", _CLI_REPORTING_PEAK, *args],
                                    stdin=stdin or subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=cwd,
                                    preexec_fn=cap)
            deadline = time.monotonic() + timeout
            polled = 0  # the child's own peak as last seen, in case it never reaches its finally
            while True:
                polled = max(polled, peak_rss_bytes(proc.pid))
                pid, status = os.waitpid(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    proc.kill()
                    pid, status = os.waitpid(proc.pid, 0)
                    break
                time.sleep(0.02)
            proc.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            reported = int(peak_file.read_text() or 0) if peak_file.exists() else 0
            return Limited(proc.returncode, out.read().decode("utf-8", "replace"),
                           err.read().decode("utf-8", "replace"), max(polled, reported))
