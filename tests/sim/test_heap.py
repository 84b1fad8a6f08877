"""The allocator policy of explorer.jit.heap: memory a simulation frees is reused by the next one without new
pages (page faults counted by the kernel: ``ru_minflt``), and a user's own allocator settings stand."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                                reason="mallopt is glibc's")

CHILD = r"""
import json, resource, sys
import numpy as np
from explorer.jit.heap import keep_freed_memory
took = keep_freed_memory() if sys.argv[1] == "keep" else None
faults = []
for _ in range(5):  # what a simulation does with its tags, events and series: ~12 MB arrays, touched, freed
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    arrays = [np.zeros(12 << 20, np.uint8) for _ in range(4)]
    for a in arrays:
        a[::4096] = 1
    del arrays, a
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(json.dumps({"took": took, "faults": faults[1:]}))
"""


def _child(mode: str, **env) -> dict:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, timeout=60,
                         env={**environ, **env}, check=True)
    return json.loads(out.stdout)


def test_freed_arrays_are_reused_without_new_pages():
    off, keep = _child("off"), _child("keep")
    assert keep["took"] is True
    pages = 4 * (12 << 20) // 4096
    if min(off["faults"]) < pages // 8:
        pytest.skip(f"this kernel maps the arrays in huge pages ({off['faults']} faults): nothing to save here")
    # glibc's default gives most of the blocks back (trimmed or unmapped): every round faults ~2,000 pages in
    # again; kept on the heap, they are reused as they are
    assert max(keep["faults"]) < pages // 50


def test_the_users_own_settings_stand():
    assert _child("keep", MALLOC_TRIM_THRESHOLD_="0")["took"] is False
