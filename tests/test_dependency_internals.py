"""The private parts of numba and pyqtgraph the code reaches into still exist (pyproject bounds them: numba < 0.70,
pyqtgraph < 0.15; this test is what tells whether a newer version may be allowed)."""

import numba
import pytest


def test_numba_cache_internals_the_seed_reads():
    """explorer/jit/seed.py ships the compiled loop by writing numba's own cache files: it reads a cached
    dispatcher's _cache._cache_file and that file's _index_path, _source_stamp and _version."""
    from numba.core import config

    assert hasattr(config, "CPU_NAME")

    @numba.njit(cache=True)
    def twice(x):
        return 2 * x

    cache_file = twice._cache._cache_file
    for name in ("_index_path", "_source_stamp", "_version"):
        assert hasattr(cache_file, name), name


def test_pyqtgraph_axis_internals_the_plots_call():
    """explorer/gui/common/plots.py re-lays an axis out after changing its tick font: AxisItem's private
    _updateWidth, _updateHeight and _updateLabel."""
    pg = pytest.importorskip("pyqtgraph")
    for name in ("_updateWidth", "_updateHeight", "_updateLabel"):
        assert callable(getattr(pg.AxisItem, name, None)), name
