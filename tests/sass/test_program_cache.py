"""Programs are cached on disk per (kernel source, arch, register request, toolchain): a second
build reads the cache, a damaged entry is rebuilt, an unwritable folder only costs speed."""

from __future__ import annotations

import json

from explorer.model.presets import load_preset
from explorer.sass.kernel_program import CACHE_ENV, sass_program
from tests.sass.support import needs_sass

pytestmark = needs_sass


def _rows(program):
    return [(r.pc, r.text, r.segment, r.instrumentation) for r in program.listing]


def test_the_second_build_reads_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    scenario = load_preset("compute-bound-fma")
    first = sass_program(scenario)
    files = list(tmp_path.glob("*.json"))
    assert first.meta["cache"] == "miss" and len(files) == 1
    entry = json.loads(files[0].read_text())
    assert entry["arch"] == "sm_90" and entry["function"] == "we_kernel" and entry["lines"]
    second = sass_program(scenario)
    assert second.meta["cache"] == "hit"
    assert _rows(second) == _rows(first)
    assert second.dynamic_instructions_per_warp == first.dynamic_instructions_per_warp
    # another workload or architecture is another entry
    sass_program(scenario.with_values(**{"workload.loop": 3}))
    sass_program(scenario.with_values(gpu="A100"))
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_a_damaged_entry_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    scenario = load_preset("tail-effect")
    good = sass_program(scenario)
    (path,) = tmp_path.glob("*.json")
    path.write_text('{"format": 1, "lines": 12')  # truncated JSON
    again = sass_program(scenario)
    assert again.meta["cache"] == "miss" and _rows(again) == _rows(good)
    assert json.loads(path.read_text())["lines"]  # rewritten whole (atomically)


def test_an_unwritable_cache_folder_still_gives_the_program(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "sass"))
    program = sass_program(load_preset("tail-effect"))
    assert program.meta["cache"] == "off" and program.listing


def test_an_entry_with_a_damaged_listing_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    scenario = load_preset("tail-effect")
    good = sass_program(scenario)
    (path,) = tmp_path.glob("*.json")
    entry = json.loads(path.read_text())
    entry["lines"] = ["        /*0000*/  this is not SASS ;"]
    path.write_text(json.dumps(entry))
    again = sass_program(scenario)
    assert again.meta["cache"] == "miss" and _rows(again) == _rows(good)


def test_a_program_built_again_in_the_process_is_the_same_and_its_own(tmp_path, monkeypatch):
    """The process keeps the programs it built (kernel_program._BUILT): the same scenario gives an equal
    program, each caller its own arrays (a change to one never reaches the next), and the on-disk cache's
    word (hit, miss) stays the call's own."""
    import numpy as np

    from explorer.sass import kernel_program

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    scenario = load_preset("latency-bound-low-occupancy").with_values(**{"workload.loop": 5})
    first = sass_program(scenario)
    assert first.meta["cache"] == "miss" and len(kernel_program._BUILT) >= 1
    first.latency[:] = -1
    first.meta["compile_notes"].append("changed")
    second = sass_program(scenario)
    assert second.meta["cache"] == "hit" and "changed" not in second.meta["compile_notes"]
    assert (second.latency >= 0).all() and second.latency is not first.latency
    assert _rows(second) == _rows(first)
    other = sass_program(scenario.with_values(**{"workload.loop": 6}))  # the trip count is the workload's
    assert other.trip == 6 and second.trip == 5
    assert np.array_equal(other.op, second.op)
