"""``--set`` keys into nested tables (issue 29: ``--set workload.tiles.a.base=4096``).

A ``--set`` key is a TOML dotted key of bare names, and it sets what the same dotted key in a TOML file sets: a
table on the way that the scenario lacks is created and the scenario loader (the one validator) names what it then
lacks; a value on the way is not a table. The key parser and the key setter are pure functions, checked here
against ``tomllib`` itself; the simulated effect of a deep key is in ``tests/sim/test_tma_addresses.py``.
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario, set_key, split_key
from explorer.model.tomlio import MAX_TOML_DEPTH

TILE_A = {"base": 0, "pitch": 8192, "box": [128, 64], "element_bytes": 2, "at": ["m", "k"]}
TMA_BODY = [{"op": "tma", "operand": "a"}, {"op": "wgmma", "n": 64}]


def _tiled(**tiles) -> dict:
    """A warp-specialized Hopper scenario with [workload.tiles] (one operand, a, by default)."""
    return {"gpu": "H100", "program": "model",
            "launch": {"grid": [2, 1, 1], "block": [256, 1, 1], "registers_per_thread": 128},
            "workload": {"loop": 1, "stages": 2, "producer_warps": 4, "body": TMA_BODY,
                         "tiles": {"grid": [1, 2], "a": dict(TILE_A), **tiles}}}


# -- the key parser --------------------------------------------------------------------------------------------

def test_split_key_reads_dotted_names():
    assert split_key("seed") == ("seed",)
    assert split_key("workload.tiles.a.base") == ("workload", "tiles", "a", "base")
    assert split_key(" workload . tiles.a .base ") == ("workload", "tiles", "a", "base")  # TOML allows blanks
    assert split_key("kernel.args.x-1.count") == ("kernel", "args", "x-1", "count")


@pytest.mark.parametrize("key,message", [
    ("workload..loop", "has an empty part"),
    ("workload.", "has an empty part"),
    (".seed", "has an empty part"),
    ("workload.body[0].count", "not list items: set the whole list"),
    ('workload."tiles".a', "is not a key name"),
    ("workload.tiles.a b", "is not a key name"),
    ("launch" + ".a" * MAX_TOML_DEPTH, f"a key is at most {MAX_TOML_DEPTH} names"),
])
def test_split_key_refuses_what_is_not_a_dotted_key(key, message):
    with pytest.raises(InputError, match=message) as exc:
        split_key(key)
    assert exc.value.field == key  # named as written


BARE = st.from_regex(r"[A-Za-z0-9_-]{1,6}", fullmatch=True)
PATHS = st.lists(BARE, min_size=1, max_size=6).map(tuple)


@settings(max_examples=200, deadline=None)
@given(parts=PATHS, blanks=st.lists(st.sampled_from(["", " ", "\t", "  "]), min_size=12, max_size=12))
def test_split_key_returns_the_parts_it_was_given(parts, blanks):
    key = ".".join(f"{blanks[2 * i % 12]}{p}{blanks[(2 * i + 1) % 12]}" for i, p in enumerate(parts))
    assert split_key(key) == parts


@settings(max_examples=300, deadline=None)
@given(key=st.text(max_size=40))
def test_split_key_of_any_text_is_parts_or_one_input_error(key):
    try:
        parts = split_key(key)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert ".".join(parts) == ".".join(p.strip(" \t") for p in key.split("."))
    assert all(parts)


@settings(max_examples=300, deadline=None)
@given(paths=st.lists(PATHS, min_size=1, max_size=3), values=st.lists(st.integers(-1000, 1000), min_size=3,
                                                                         max_size=3))
def test_set_key_sets_what_the_same_dotted_keys_in_toml_set(paths, values):
    """Dotted keys ``a.b.c = 1`` in a TOML document and the same keys set one after the other agree whenever TOML
    accepts the document; where the setter refuses a key (a value on the way), TOML refuses the document too."""
    doc = "\n".join(f"{'.'.join(p)} = {v}" for p, v in zip(paths, values))
    try:
        expected = tomllib.loads(doc)
    except tomllib.TOMLDecodeError:
        expected = None
    data: dict = {}
    try:
        for p, v in zip(paths, values):
            set_key(data, p, v)
    except InputError as exc:
        assert expected is None, (doc, str(exc))
        return
    if expected is not None:  # a later key may replace an earlier one (TOML refuses that; --set lets the last win)
        assert data == expected


# -- keys into the scenario's nested tables -----------------------------------------------------------------

def test_a_deep_key_sets_the_value_the_file_would():
    base = Scenario.from_dict(_tiled())
    moved = base.with_overrides(["workload.tiles.a.base=4096", "workload.tiles.group=1", "workload.tiles.grid=[2,1]"])
    file = _tiled(a={**TILE_A, "base": 4096})
    file["workload"]["tiles"]["grid"] = [2, 1]
    assert moved == Scenario.from_dict(file)
    assert moved.workload.tiles.operands[0].base == 4096 and moved.workload.tiles.grid == (2, 1)
    assert base.with_values(**{"workload.tiles.a.at": ["k", "m"]}).workload.tiles.operands[0].at == ("k", "m")


def test_a_whole_tile_table_written_by_sets_is_the_file():
    """Every --set applies before the loader judges the result, so keys into a table the scenario lacks can write
    all of it: the default scenario (fma-global) becomes the tiled one field by field."""
    sets = ["program=model", "launch.grid=[2,1,1]", "launch.block=[256,1,1]", "launch.registers_per_thread=128",
            "workload.loop=1", "workload.stages=2", "workload.producer_warps=4",
            'workload.body=[{op="tma", operand="a"}, {op="wgmma", n=64}]', "workload.tiles.grid=[1,2]",
            "workload.tiles.a.base=0", "workload.tiles.a.pitch=8192", "workload.tiles.a.box=[128,64]",
            "workload.tiles.a.element_bytes=2", 'workload.tiles.a.at=["m","k"]']
    assert Scenario().with_overrides(sets) == Scenario.from_dict(_tiled())


@pytest.mark.parametrize("assignment,field,message", [
    # unknown deep keys: the loader's unknown-key line, naming what the table allows
    ("workload.tiles.a.bogus=1", "workload.tiles.a.bogus", "unknown key; allowed: at, base, box, element_bytes, "
                                                           "multicast, pitch"),
    ("launch.grid2.x=1", "launch.grid2", "unknown key; allowed: barriers, block"),
    # a bad value: the same line as the file's
    ('workload.tiles.a.box="wide"', "workload.tiles.a.box", "'wide' is not a tile shape [rows, columns]"),
    ("workload.tiles.a.base=8", "workload.tiles.a.base", "8 is not a multiple of 16"),
    ("workload.tiles.group=true", "workload.tiles.group", "not an integer"),
    # a value on the way is not a table
    ("workload.tiles.grid.x=1", "workload.tiles.grid.x", "workload.tiles.grid is [1, 2], not a table; set "
                                                         "workload.tiles.grid itself"),
    ("seed.x=1", "seed.x", "seed is 1, not a table; set seed itself"),
    # a table the scenario lacks: created, and the loader names the first field it lacks
    ("workload.tiles.b.base=0", "workload.tiles.b.pitch", "missing: a tile table needs base, pitch"),
])
def test_a_bad_deep_key_is_one_error_naming_its_field(assignment, field, message):
    with pytest.raises(InputError) as exc:
        Scenario.from_dict(_tiled()).with_overrides([assignment])
    assert exc.value.field == field and message in str(exc.value.message), str(exc.value)


def test_a_key_into_tiles_the_scenario_lacks_names_what_is_missing():
    with pytest.raises(InputError) as exc:
        Scenario().with_overrides(["workload.tiles.a.base=4096"])
    assert exc.value.field == "workload.tiles.grid" and "missing" in exc.value.message
    with pytest.raises(InputError) as exc:  # grid given too: the operand's first missing field
        Scenario().with_overrides(["workload.tiles.grid=[1,1]", "workload.tiles.a.base=4096"])
    assert exc.value.field == "workload.tiles.a.pitch" and "missing" in exc.value.message
