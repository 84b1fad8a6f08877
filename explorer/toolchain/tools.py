"""Find the CUDA command-line tools (nvcc, cuobjdump) and read ``cuobjdump`` output.

Looked for, in order: ``PATH``, ``$CUDA_HOME``/``$CUDA_PATH``/bin, ``/usr/local/cuda/bin``,
and the ``bin/`` folders of NVIDIA's pip wheels (``nvidia-cuda-cuobjdump`` installs
``site-packages/nvidia/cu13/bin/cuobjdump``).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path


def _candidates(name: str) -> list[Path]:
    out: list[Path] = []
    found = shutil.which(name)
    if found:
        out.append(Path(found))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root:
            out.append(Path(root) / "bin" / name)
    out.append(Path("/usr/local/cuda/bin") / name)
    for entry in sys.path:
        if entry and os.path.isdir(os.path.join(entry, "nvidia")):
            out += [Path(p) for p in sorted(glob.glob(os.path.join(entry, "nvidia", "*", "bin", name)), reverse=True)]
            out.append(Path(entry) / "nvidia" / "cuda_cuobjdump" / "bin" / name)
    return out


@cache
def find_tool(name: str) -> str | None:
    """Path of a CUDA tool (``nvcc``, ``cuobjdump``, ``ptxas``) or None."""
    for path in _candidates(name):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    try:  # cuda-pathfinder knows more layouts (conda, Windows)
        from cuda.pathfinder import find_nvidia_binary_utility

        found = find_nvidia_binary_utility(name)
        if found:
            return str(found)
    except Exception:  # noqa: BLE001 - optional helper; any failure means "not found"
        pass
    return None


RESOURCE_LINE = re.compile(r"^\s*Function\s+(\S+)\s*:\s*$")
FIELD = re.compile(r"([A-Z_]+(?:\[\d+\])?):\s*(\d+)")


def parse_resource_usage(text: str) -> dict[str, dict[str, int]]:
    """``cuobjdump --dump-resource-usage`` output -> {function: {"REG": n, "SHARED": n, ...}}."""
    out: dict[str, dict[str, int]] = {}
    current = None
    for line in text.splitlines():
        m = RESOURCE_LINE.match(line)
        if m:
            current = m.group(1)
            out[current] = {}
            continue
        if current is not None and "REG:" in line:
            out[current].update({k: int(v) for k, v in FIELD.findall(line)})
            current = None
    return out


def cuobjdump_resource_usage(cubin_path: str | os.PathLike, timeout: float = 60) -> dict[str, dict[str, int]] | None:
    """Run ``cuobjdump --dump-resource-usage`` on a cubin; None when cuobjdump is not installed."""
    tool = find_tool("cuobjdump")
    if tool is None:
        return None
    proc = subprocess.run([tool, "--dump-resource-usage", str(cubin_path)], capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"cuobjdump failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}")
    return parse_resource_usage(proc.stdout)
