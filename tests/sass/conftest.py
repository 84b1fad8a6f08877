"""SASS tests: an isolated program cache, and each preset's program and cubin built once."""

from __future__ import annotations

import os
from functools import cache

import pytest

from explorer.sass.kernel_program import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def _isolated_program_cache(tmp_path_factory):
    """Every test reads and writes programs in a fresh folder, never the user's cache."""
    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("sass-cache"))
    yield
    if old is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = old


@cache
def compiled(preset: str, gpu: str):
    """(program, cubin bytes, scenario) of a preset on a GPU; the cubin is what measure compiles."""
    from explorer.toolchain.prepare import prepare
    from explorer.model.presets import load_preset
    from explorer.sass.kernel_program import sass_program

    scenario = load_preset(preset).with_values(gpu=gpu)
    program = sass_program(scenario)
    cubin = prepare(scenario).compiled.cubin
    return program, cubin, scenario
