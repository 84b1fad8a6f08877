"""The private parts of numba and pyqtgraph the code reaches into still exist (pyproject bounds them: numba < 0.70,
at build time too, pyqtgraph < 0.15; this test is what tells whether a newer version may be allowed)."""

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


def test_the_build_seeds_with_a_numba_the_runtime_allows():
    """setup.py seeds numba's cache with the build's numba: the build requirement has the runtime's bounds."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))

    def numba_spec(requirements):
        return [r for r in requirements if r.split(">")[0].split("<")[0].split("=")[0].strip() == "numba"]

    build, runtime = numba_spec(project["build-system"]["requires"]), numba_spec(project["project"]["dependencies"])
    assert build == runtime and len(runtime) == 1 and "<" in runtime[0], (build, runtime)


def test_pyqtgraph_axis_internals_the_plots_call():
    """explorer/gui/common/plots.py re-lays an axis out after changing its tick font: AxisItem's private
    _updateWidth, _updateHeight and _updateLabel (the tick state it reads: the test below)."""
    pg = pytest.importorskip("pyqtgraph")
    for name in ("_updateWidth", "_updateHeight", "_updateLabel"):
        assert callable(getattr(pg.AxisItem, name, None)), name


def test_pyqtgraph_axis_tick_state_the_plots_read(qapp):
    """explorer/gui/common/plots.py reads AxisItem's private _tickLevels (None while the ticks are automatic; the
    levels set with setTicks, an empty level list when the owner chose no labels) and _tickSpacing (None while
    automatic; the levels given to setTickSpacing, compared with the spacing it wants)."""
    pg = pytest.importorskip("pyqtgraph")
    axis = pg.AxisItem("bottom")
    assert axis._tickLevels is None and axis._tickSpacing is None  # automatic ticks: what fit_axes re-spaces
    axis.setTickSpacing(levels=[(500.0, 0)])
    assert axis._tickSpacing == [(500.0, 0)]  # fit_axes: ``if wanted != axis._tickSpacing``
    axis.setTickSpacing()
    assert axis._tickSpacing is None
    axis.setTicks([[(0.0, "0"), (1.0, "1")], []])
    assert axis._tickLevels is not None and any(level for level in axis._tickLevels)
    axis.setTicks([[], []])
    assert axis._tickLevels is not None and not any(level for level in axis._tickLevels)  # dropped_texts: no labels
    axis.setTicks(None)
    assert axis._tickLevels is None
