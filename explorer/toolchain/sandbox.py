"""Compilers and disassemblers in a child process: a memory limit, a time limit, a process group.

Why: NVRTC and nvdisasm are large native programs fed the user's text. A 517 KB ``.cu``
(well under the 4 MiB cap) made an in-process NVRTC grow to 5.2 GB in 280 s and abort
with "LLVM ERROR: out of memory", taking the app with it (issue 30); a macro that
expands to 10^8 tokens reaches 1.5 GB in 3 s. So every compile runs in a child process:

- ``RLIMIT_AS`` (the address space: what malloc and mmap can get) is set by the child
  itself before it loads NVRTC (:func:`apply_memory_limit`), so an allocation beyond it
  fails inside the compiler, which then reports "out of memory" or aborts; either way
  only the child dies. A normal compile needs about 200 MB of address space (measured:
  ``tests/kernels/matmul.cu`` for sm_90, VmPeak 204 MB, Python and NVRTC included);
- a wall-clock limit, checked by the parent ten times a second, and a ``cancel``
  callback polled as often (the window's *Cancel*);
- its own session (process group): a timeout or a cancel kills the group with SIGKILL,
  so nvcc's children (cicc, ptxas) go with it; the child also dies with its parent
  (``PR_SET_PDEATHSIG`` and a watchdog, as the measuring worker does).

Executables (nvdisasm) get the same limits through a small Python launcher that sets
``RLIMIT_AS`` and then ``exec``s the tool (:func:`run_tool`): no ``preexec_fn``, which
is unsafe in a process with threads (the window's workers).

The limits (``Limits.from_env``): ``WARP_EXPLORER_COMPILE_MEMORY_MB`` (default 2,048 MiB
of address space) and ``WARP_EXPLORER_COMPILE_SECONDS`` (default 120 s); a limit that is
exceeded is one line naming it and how to raise it (:class:`CompileLimitExceeded`, an
``InputError``: exit 2). Where ``resource`` is missing (Windows) the memory limit is not
applied; the time limit and the process group are.

The request and the answer are JSON files in a private temporary folder; the child's
stdout and stderr go to a log file whose last lines explain a crash.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from explorer.toolchain.errors import GpuRunError
from explorer.model.errors import InputError

MEMORY_ENV = "WARP_EXPLORER_COMPILE_MEMORY_MB"
SECONDS_ENV = "WARP_EXPLORER_COMPILE_SECONDS"
CHILD_MEMORY_ENV = "WARP_EXPLORER_CHILD_MEMORY_BYTES"  # parent -> child: the limit the child applies to itself
PARENT_ENV = "WARP_EXPLORER_PARENT_PID"  # the child exits when the parent is gone (die_with_parent)
DEFAULT_MEMORY_MB = 2048
DEFAULT_SECONDS = 120.0
MIN_MEMORY_MB = 64  # below this not even the Python child starts
POLL_S = 0.05
LOG_TAIL_CHARS = 4000
OOM_WORDS = ("out of memory", "bad_alloc", "memoryerror", "cannot allocate memory")


class CompileLimitExceeded(InputError):
    """The compiler (or disassembler) went past its memory or time limit and was stopped."""


class ChildCancelled(GpuRunError):
    """Cancelled by the caller (the window's Cancel): its text is "cancelled", as the task runner expects."""

    def __init__(self):
        super().__init__("cancelled")


@dataclass(frozen=True)
class Limits:
    memory_bytes: int | None = DEFAULT_MEMORY_MB << 20  # None: no memory limit
    seconds: float = DEFAULT_SECONDS

    @classmethod
    def from_env(cls, environ=None) -> "Limits":
        """The limits from ``WARP_EXPLORER_COMPILE_MEMORY_MB`` / ``_SECONDS`` (an InputError names a bad value)."""
        env = os.environ if environ is None else environ
        mb = _env_number(env, MEMORY_ENV, DEFAULT_MEMORY_MB, MIN_MEMORY_MB, 1 << 24, integer=True)
        seconds = _env_number(env, SECONDS_ENV, DEFAULT_SECONDS, 1, 86400, integer=False)
        return cls(memory_bytes=int(mb) << 20, seconds=float(seconds))

    def memory_text(self) -> str:
        return f"{self.memory_bytes >> 20:,} MiB" if self.memory_bytes else "no limit"


def _env_number(env, name: str, default, low, high, integer: bool):
    text = str(env.get(name, "") or "").strip()
    if not text:
        return default
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise InputError(name, f"{text[:40]!r} is not {'an integer' if integer else 'a number'}") from None
    if not low <= value <= high:
        raise InputError(name, f"{text[:40]} is outside {low}..{high}")
    return value


# -- the child's side ------------------------------------------------------------------------------
def apply_memory_limit() -> None:
    """Set RLIMIT_AS to what the parent asked for (first thing in the child, before NVRTC loads)."""
    text = os.environ.get(CHILD_MEMORY_ENV, "")
    if not text:
        return
    try:
        import resource
    except ImportError:  # Windows: the time limit still holds
        return
    limit = int(text)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def die_with_parent() -> None:
    """Exit when the process that started us is gone: it runs us in a session of our own, so that it can kill
    our group, and its own group's signals (a step timeout) miss us; an orphaned child would keep compiling
    (or, the measuring worker, keep the GPU busy). ``PR_SET_PDEATHSIG`` on Linux, and a watchdog on the
    parent's pid everywhere."""
    parent = int(os.environ.get(PARENT_ENV, "0") or 0)
    if not parent:
        return
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        except Exception:  # noqa: BLE001 - the watchdog below still works
            pass

    def watch():
        while True:
            if os.getppid() != parent:
                os._exit(3)
            time.sleep(0.25)

    if os.getppid() != parent:  # the parent died before we got here
        os._exit(3)
    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


# -- the parent's side -----------------------------------------------------------------------------
def _package_root() -> str:
    return str(Path(__file__).resolve().parents[2])


def _child_env(limits: Limits) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([_package_root(), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env[PARENT_ENV] = str(os.getpid())
    if limits.memory_bytes:
        env[CHILD_MEMORY_ENV] = str(int(limits.memory_bytes))
    else:
        env.pop(CHILD_MEMORY_ENV, None)
    return env


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group (it leads its own session)."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass


def _wait(proc: subprocess.Popen, limits: Limits, cancel: Callable[[], bool] | None) -> str | None:
    """Wait for the child; kill its group on the time limit or a cancel. Returns why it was killed, or None."""
    deadline = time.monotonic() + limits.seconds
    reason = None
    try:
        while True:
            try:
                proc.wait(timeout=POLL_S)
                return None
            except subprocess.TimeoutExpired:
                pass
            if cancel is not None and cancel():
                reason = "cancelled"
            elif time.monotonic() > deadline:
                reason = "time"
            if reason:
                return reason
    finally:  # a limit, a cancel, or an exception here (Ctrl+C): never leave the child running
        if proc.poll() is None:
            kill_group(proc)
        proc.wait()


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - LOG_TAIL_CHARS))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def out_of_memory(text: str) -> bool:
    low = text.lower()
    return any(word in low for word in OOM_WORDS)


def memory_message(what: str, limits: Limits) -> str:
    why = "the source expands to too much code; " if what == "compiling" else ""
    return (f"{what} needed more memory than its limit of {limits.memory_text()} and was stopped ({why}"
            f"{MEMORY_ENV} raises the limit)")


def time_message(what: str, limits: Limits) -> str:
    return (f"{what} did not finish within its limit of {limits.seconds:g} s and was stopped "
            f"({SECONDS_ENV} raises the limit)")


def run_python_child(module: str, request: dict, *, field: str, what: str, limits: Limits | None = None,
                     cancel: Callable[[], bool] | None = None) -> dict:
    """Run ``python -m MODULE REQUEST.json ANSWER.json`` under ``limits``; return the answer (a dict).

    ``field`` and ``what`` name the input and the step in the messages (``kernel.cu``, "compiling").
    A child killed by a limit raises :class:`CompileLimitExceeded`; one that dies otherwise
    (a signal, no answer) raises ``RuntimeError`` with the last line of its log.
    """
    from explorer.toolchain.folders import private_tempdir

    limits = limits or Limits.from_env()
    kwargs = {"start_new_session": True} if os.name == "posix" else {}
    with private_tempdir("warp-explorer-child-") as tmp:
        req, ans, log = tmp / "request.json", tmp / "answer.json", tmp / "child.log"
        req.write_text(json.dumps(request), encoding="utf-8")
        with open(log, "wb") as fh:
            proc = subprocess.Popen([sys.executable, "-m", module, str(req), str(ans)], stdin=subprocess.DEVNULL,
                                    stdout=fh, stderr=fh, env=_child_env(limits), cwd=str(tmp), **kwargs)
            reason = _wait(proc, limits, cancel)
        if reason == "cancelled":
            raise ChildCancelled()
        if reason == "time":
            raise CompileLimitExceeded(field, time_message(what, limits))
        if ans.exists():
            try:
                return json.loads(ans.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                pass  # a half-written answer: the child died writing it
        tail = _tail(log)
        if limits.memory_bytes and (out_of_memory(tail) or proc.returncode == -getattr(signal, "SIGABRT", 6)):
            # LLVM aborts on a failed allocation ("LLVM ERROR: out of memory"); Python raises MemoryError
            raise CompileLimitExceeded(field, memory_message(what, limits))
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
        raise RuntimeError(f"{what}: the child process died ({how})" + (f": {lines[-1][:200]}" if lines else ""))


LAUNCHER = ("import os, sys\n"
            "try:\n"
            "    import resource\n"
            "    n = int(sys.argv[1])\n"
            "    if n > 0:\n"
            "        hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
            "        resource.setrlimit(resource.RLIMIT_AS, (n if hard == resource.RLIM_INFINITY else min(n, hard), hard))\n"
            "except ImportError:\n"
            "    pass\n"
            "os.execv(sys.argv[2], sys.argv[2:])\n")


def run_tool(args: list[str], *, field: str, what: str, limits: Limits | None = None,
             cancel: Callable[[], bool] | None = None, max_output_chars: int | None = None) -> tuple[int, str, str]:
    """Run an executable (``args[0]``, a full path) under ``limits``: (return code, stdout, stderr).

    Its output goes to files in a private folder (no pipe that fills while we wait); more
    than ``max_output_chars`` of it is refused before it is read.
    """
    from explorer.toolchain.folders import private_tempdir

    limits = limits or Limits.from_env()
    kwargs = {"start_new_session": True} if os.name == "posix" else {}
    if os.name == "posix":
        cmd = [sys.executable, "-c", LAUNCHER, str(int(limits.memory_bytes or 0)), *args]
    else:
        cmd = list(args)
    with private_tempdir("warp-explorer-tool-") as tmp:
        out_path, err_path = tmp / "stdout", tmp / "stderr"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, **kwargs)
            reason = _wait(proc, limits, cancel)
        if reason == "cancelled":
            raise ChildCancelled()
        if reason == "time":
            raise CompileLimitExceeded(field, time_message(what, limits))
        size = out_path.stat().st_size
        if max_output_chars is not None and size > max_output_chars:
            raise InputError(field, f"{what} printed {size:,} characters, above the limit of {max_output_chars:,}")
        stdout = out_path.read_bytes().decode("utf-8", "replace")
        stderr = _tail(err_path)
    aborted = proc.returncode == -getattr(signal, "SIGABRT", 6)
    if proc.returncode != 0 and limits.memory_bytes and (out_of_memory(stderr) or aborted):
        raise CompileLimitExceeded(field, memory_message(what, limits))
    return proc.returncode, stdout, stderr
