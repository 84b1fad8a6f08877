"""``explorer.jit.runtime.compile_state``: what the next call of a compiled function costs, read without calling it
(the window's "Compiling the simulator once" line depends on it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from explorer.jit.runtime import JIT, compile_state

pytestmark = pytest.mark.skipif(not JIT, reason="numba is not installed")

MODULE = textwrap.dedent("""
    from explorer.jit.runtime import njit

    @njit
    def twice(x):
        return 2 * x
""")


def test_a_function_compiles_then_is_in_memory_then_in_the_cache_of_a_new_process(tmp_path):
    (tmp_path / "tiny_jit_module.py").write_text(MODULE)
    code = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        import tiny_jit_module as m
        from explorer.jit.runtime import compile_state
        before = compile_state(m.twice)
        assert m.twice(21) == 42
        print(before, compile_state(m.twice))
    """)
    first = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert first.stdout.split() == ["compiles", "loaded"]
    second = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert second.stdout.split() == ["cached", "loaded"]


def test_a_plain_function_has_nothing_to_compile():
    assert compile_state(len) == "python"
