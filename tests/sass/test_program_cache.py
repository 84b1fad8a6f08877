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
