"""Disassemble a cubin with nvdisasm (the ``nvidia-cuda-nvdisasm`` wheel or a CUDA toolkit).

The binary is found where the CUDA tools are (``explorer.toolchain.tools.find_tool``: PATH,
``$CUDA_HOME``, ``/usr/local/cuda``, the ``nvidia/*/bin`` folders of NVIDIA's wheels,
cuda-pathfinder). It runs without a shell on a plain argument list, with the compiler's
memory and time limits in a process group of its own (``explorer.toolchain.sandbox``), on a
copy of the cubin under a fixed name in a private folder (``mkdtemp``: mode 0700), which
is removed afterwards.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from explorer.sass.errors import DisassemblyError, ToolchainMissing
from explorer.sass.listing import MAX_LISTING_CHARS

TIMEOUT_S = 60.0


def nvdisasm_path() -> str:
    """nvdisasm's path; ToolchainMissing when it is not installed."""
    from explorer.toolchain.tools import find_tool

    tool = find_tool("nvdisasm")
    if tool is None:
        raise ToolchainMissing("nvdisasm was not found (PATH, CUDA_HOME, /usr/local/cuda, the nvidia-cuda-nvdisasm wheel)")
    return tool


@cache
def nvdisasm_version(tool: str | None = None) -> str:
    """e.g. ``13.5.37`` (the cache key of disassembled programs includes it)."""
    tool = tool or nvdisasm_path()
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=TIMEOUT_S).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainMissing(f"nvdisasm at {tool} does not run ({exc})") from None
    m = re.search(r"V(\d+\.\d+\.\d+)", out) or re.search(r"release (\d+\.\d+)", out)
    if not m:
        raise ToolchainMissing(f"nvdisasm at {tool} printed no version")
    return m.group(1)


def disassemble(cubin: bytes, timeout: float | None = None, line_info: bool = False, *, limits=None,
                cancel=None) -> str:
    """``nvdisasm -c -hex`` of a cubin: every function's code with its encodings.

    ``line_info`` adds ``-g``: a ``//## File "...", line N`` comment before the instructions
    of each source line (for a cubin compiled with line info; the parser skips them).
    nvdisasm runs as the compiler does (``explorer.toolchain.sandbox.run_tool``): in its own process
    group with the compile limits (memory, time: ``timeout`` when given, else ``limits``'),
    stopped by ``cancel()``.
    """
    from dataclasses import replace

    from explorer.toolchain.sandbox import Limits, run_tool

    tool = nvdisasm_path()
    limits = limits or Limits.from_env()
    limits = replace(limits, seconds=min(limits.seconds, TIMEOUT_S if timeout is None else timeout))
    folder = tempfile.mkdtemp(prefix="warp-explorer-sass-")
    try:
        path = Path(folder) / "kernel.cubin"
        with open(path, "xb") as fh:  # a fresh name in our own folder: never someone else's file
            fh.write(cubin)
        args = [tool, "-c", "-hex", *(["-g"] if line_info else []), str(path)]
        try:
            code, stdout, stderr = run_tool(args, field="nvdisasm", what="nvdisasm", limits=limits, cancel=cancel,
                                            max_output_chars=MAX_LISTING_CHARS)
        except OSError as exc:
            raise ToolchainMissing(f"nvdisasm at {tool} does not run ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if code != 0:
        first = (stderr.strip() or stdout.strip()).splitlines()
        raise DisassemblyError(f"failed ({code}): {first[0] if first else 'no message'}")
    if len(stdout) > MAX_LISTING_CHARS:
        raise DisassemblyError(f"the listing has {len(stdout)} characters, above the limit of {MAX_LISTING_CHARS}")
    return stdout
