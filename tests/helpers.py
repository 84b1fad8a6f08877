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
