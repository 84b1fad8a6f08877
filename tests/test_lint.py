"""The code passes the project's linter (pyproject's [tool.ruff]: pyflakes and the error-class pycodestyle rules)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    try:
        import ruff  # noqa: F401 - only whether the test extra installed it
        command = [sys.executable, "-m", "ruff"]
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.skip("ruff is not installed (pip install -e '.[test]')")
        command = [shutil.which("ruff")]
    proc = subprocess.run([*command, "check", "explorer", "tests", "scripts"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
