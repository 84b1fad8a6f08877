"""The interpreter's numba cache is keyed by every module it is compiled from (explorer/sass/execute/jit.py).

numba stamps a function's cached machine code with its own source file only; ``interp.run`` is compiled from
several modules, so ``jit.JITTED`` names them and each cache entry carries their hash. These tests keep the
list whole: a module with a compiled function, or one a compiled module imports from the package (its
constants are frozen into the code), missing from it would let an edit there run the old machine code."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from explorer.sass.execute import jit

PACKAGE = Path(jit.__file__).resolve().parent


def _package_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("explorer.sass.execute."):
                names.add(node.module.rsplit(".", 1)[1] + ".py")
            elif node.module == "explorer.sass.execute":
                names.update(alias.name + ".py" for alias in node.names)
    return names


def test_every_compiled_module_is_in_the_stamp():
    compiled = {p.name for p in PACKAGE.glob("*.py") if "@njit" in p.read_text(encoding="utf-8")}
    assert compiled <= set(jit.JITTED), compiled - set(jit.JITTED)


def test_what_the_compiled_modules_import_from_the_package_is_in_the_stamp():
    for name in jit.JITTED:
        assert (PACKAGE / name).is_file(), name
        missing = _package_imports(PACKAGE / name) - set(jit.JITTED)
        assert not missing, f"{name} imports {sorted(missing)}"


def test_the_stamp_covers_the_sources():
    stamp = jit.sources_stamp()
    assert len(stamp) == 64
    if jit.JIT:
        from explorer.sass.execute import interp

        cache_file = getattr(interp.run._cache, "_cache_file", None)
        if cache_file is not None:  # numba's cache is on (a writable folder)
            assert cache_file._source_stamp[1] == stamp


@pytest.mark.parametrize("error", [AttributeError("Can't get attribute 'Stream' on <module "
                                                  "'explorer.sass.execute.records'>"),
                                   pickle.UnpicklingError("pickle data was truncated")])
def test_an_index_naming_a_type_these_sources_lack_reads_as_stale(error):
    """numba unpickles its index (the argument types: the records, by module and class) before it compares the
    stamp; an index from sources with another record raised AttributeError at the call. It reads as empty."""

    class CacheFile:
        _source_stamp = "numba's"

        def _load_index(self):
            raise error

    dispatcher = SimpleNamespace(_cache=SimpleNamespace(_cache_file=CacheFile()))
    jit._stamp(dispatcher)
    assert dispatcher._cache._cache_file._load_index() == {}
