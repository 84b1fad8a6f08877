"""The cycle loop's numba cache is keyed by every source its machine code is compiled from (issue 27).

numba stamps a function's cached machine code with its own file only. The loop (``explorer/sim/kernel.py``)
freezes constants of the modules it imports into its code (opcode roles, flags, units, the address layout), so
each cache entry also carries ``explorer.paths.sources_key`` (``explorer.jit.runtime.stamp_cache``): an edit of
``warp_program.py`` alone once left the old machine code running. These tests keep the key's list whole."""

from __future__ import annotations

import ast
from pathlib import Path

from explorer import paths
from explorer.jit import runtime

REPO = Path(__file__).resolve().parents[2]
# prose only: the loop reads no constant of these (state meanings, messages), so an edit there needs no recompile
PROSE = ("explorer/texts/",)


def _module_file(name: str) -> Path | None:
    base = REPO / name.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(path: Path) -> set[str]:
    """The project modules ``path`` imports at module level (what can be frozen into compiled code)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("explorer"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if _module_file(sub) else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("explorer"))
    return found


def _covered() -> set[Path]:
    files = set((REPO / "explorer" / "sim").glob("*.py"))
    for pattern in paths.JITTED_ELSEWHERE:
        files.update(REPO.glob(pattern))
    return {f.resolve() for f in files}


def test_every_module_the_loop_imports_is_in_its_sources_key():
    seen, todo = set(), ["explorer.sim.kernel"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name)
        if path is not None:
            todo.extend(_imports(path))
    covered = _covered()
    missing = sorted(str(_module_file(n).relative_to(REPO)) for n in seen
                     if _module_file(n) is not None and _module_file(n).resolve() not in covered
                     and not str(_module_file(n).relative_to(REPO)).startswith(PROSE))
    assert not missing, f"the loop imports these, not in explorer.paths.JITTED_ELSEWHERE: {missing}"


def test_the_key_changes_with_a_module_outside_the_simulator(tmp_path):
    for rel in ("explorer/sim/kernel.py", "explorer/sass/warp_program.py", "explorer/jit/runtime.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("X = 1\n")
    first = paths.sources_key(tmp_path)
    (tmp_path / "explorer/sass/warp_program.py").write_text("X = 2\n")
    assert paths.sources_key(tmp_path) != first


def test_the_loops_cache_entries_carry_the_key():
    from explorer.sim import kernel

    assert runtime.loop_sources_stamp() == paths.sources_key()
    cache_file = getattr(getattr(kernel.run_cycles, "_cache", None), "_cache_file", None)
    if runtime.JIT and cache_file is not None:  # numba's cache is on (a writable folder)
        assert cache_file._source_stamp[1] == paths.sources_key()


def test_an_index_naming_a_type_these_sources_lack_reads_as_stale():
    class CacheFile:
        _source_stamp = "numba's"

        def _load_index(self):
            raise AttributeError("Can't get attribute 'Warps' on <module 'explorer.sim.kernel'>")

    class Cache:
        _cache_file = CacheFile()

    class Dispatcher:
        _cache = Cache()

    runtime.stamp_cache(Dispatcher, "abc")
    assert Dispatcher._cache._cache_file._source_stamp == ("numba's", "abc")
    assert Dispatcher._cache._cache_file._load_index() == {}
