"""The scenario key ``program = "sass" | "model"``: default, validation, --set, files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.model.errors import InputError
from explorer.model.presets import load_preset
from explorer.model.scenario import PROGRAMS, Scenario


def test_default_is_sass_and_is_not_written():
    s = load_preset("example-240x256")
    assert s.program == "sass"
    assert "program" not in s.to_dict()


def test_set_and_save_round_trip(tmp_path):
    s = load_preset("example-240x256").with_overrides(["program=MODEL"])
    assert s.program == "model" and s.to_dict()["program"] == "model"
    path = tmp_path / "s.toml"
    s.save(path)
    assert 'program = "model"' in path.read_text()
    assert Scenario.load(path).program == "model"
    assert Scenario.load(path).with_values(program="sass").program == "sass"


@pytest.mark.parametrize("value", ["ptx", "", 3, True, ["sass"]])
def test_other_values_are_refused_naming_the_field(value):
    with pytest.raises(InputError) as exc:
        Scenario.from_dict({"program": value})
    assert exc.value.field == "program" and "sass" in exc.value.message and "model" in exc.value.message


@given(st.one_of(st.text(max_size=12), st.integers(), st.none(), st.booleans()))
def test_any_value_is_accepted_or_refused_with_our_error(value):
    try:
        s = Scenario.from_dict({"program": value})
    except InputError as exc:
        assert exc.field == "program"
    else:
        assert s.program in PROGRAMS and isinstance(value, str) and value.strip().lower() == s.program
