"""What the window's start imports: pyqtgraph without its CUDA-OpenGL interop (``cuda.bindings.runtime`` and the
driver bindings it pulls in cost ~10% of the start's imports), and cuda-python still importable afterwards.

A fresh interpreter each time: in the test process pyqtgraph is long imported."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
import explorer.gui.shell.app
from pyqtgraph.widgets import RawImageWidget
before = sorted(m for m in ("cuda.bindings.runtime", "cuda.bindings.driver") if m in sys.modules)
interop = RawImageWidget.cudart is not None
later = None
try:
    from cuda.bindings import runtime
    later = runtime.__name__
except ImportError as exc:
    later = "ImportError: " + str(exc)
print(json.dumps({"before": before, "interop": interop, "later": later}))
"""


def _probe(code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(importlib.util.find_spec("cuda") is None or importlib.util.find_spec("cuda.bindings") is None,
                    reason="cuda-bindings is not installed: pyqtgraph has no interop to leave out")
def test_the_window_imports_pyqtgraph_without_the_cuda_runtime_and_cuda_python_still_imports_later():
    got = _probe(PROBE)
    assert got["before"] == [] and got["interop"] is False  # pyqtgraph left its CuPy-OpenGL path off
    assert got["later"] == "cuda.bindings.runtime"  # nothing stays refused: the GPU path imports it as usual


def test_a_cuda_runtime_imported_before_the_window_is_left_alone():
    code = "import sys; sys.modules['cuda.bindings.runtime'] = mod = type(sys)('cuda.bindings.runtime')\n" + PROBE.replace(
        "print(json.dumps(", "print(json.dumps({'same': sys.modules['cuda.bindings.runtime'] is mod} | ")
    got = _probe(code)
    assert got["same"] and got["before"][:1] == ["cuda.bindings.runtime"]
