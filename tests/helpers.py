"""Run the CLI the way a user does: a subprocess, capturing exit code and output."""

import os
import subprocess
import sys


def run_cli(*args, input=None, env=None, timeout=120):
    full_env = dict(os.environ)
    full_env.setdefault("QT_QPA_PLATFORM", "offscreen")
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args],
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def assert_one_line_error(proc, code=2, contains=""):
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert contains in lines[0], lines[0]


def peak_rss_bytes(pid="self") -> int:
    """The peak resident set of a process's *own* address space (``VmHWM``), in bytes; 0 if gone.

    Not ``getrusage().ru_maxrss``: Linux carries that figure across ``fork`` + ``exec``,
    so a child started by a long pytest run reports the parent's peak (CI saw 6.5 GB
    for a 0.3 GB child). ``VmHWM`` belongs to the address space, which ``exec`` replaces.
    """
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
