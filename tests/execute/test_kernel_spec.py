"""The scenario's [kernel] section: parsing, limits, --set, read-only launch fields (no compiler needed)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.model.errors import InputError
from explorer.model.kernel_spec import DTYPES, INITS, MAX_BUFFER_BYTES, BufferArg, parse_buffer, parse_kernel
from explorer.model.scenario import Scenario

BASE = {"gpu": "A100", "launch": {"grid": [4, 1, 1], "block": [128, 1, 1]},
        "kernel": {"file": "k.cu", "name": "saxpy",
                   "args": {"n": 4, "a": 2.0, "v": [1, 2], "x": {"dtype": "f32", "count": 4, "init": "arange"}}}}


def test_round_trip_and_relative_file(tmp_path):
    sc = Scenario.from_dict(BASE, base_dir=str(tmp_path))
    assert sc.kernel.path == tmp_path / "k.cu"
    assert sc.kernel.arg("x") == BufferArg("f32", 4, "arange") and sc.kernel.arg("v") == (1, 2)
    d = sc.to_dict()
    assert "workload" not in d and "registers_per_thread" not in d["launch"]
    assert Scenario.from_dict(d, str(tmp_path)) == sc
    path = tmp_path / "s.toml"
    sc.save(path)
    again = Scenario.load(path)
    assert again.kernel == sc.kernel and again.kernel.base_dir == str(tmp_path.resolve())


def test_set_overrides_reach_kernel_keys_and_keep_the_folder(tmp_path):
    sc = Scenario.from_dict(BASE, base_dir=str(tmp_path))
    sc2 = sc.with_overrides(["kernel.name=other", "kernel.args.n=9", "kernel.args.x.count=16",
                             'kernel.args.y={ dtype = "u8", count = 3, init = "random", seed = 7 }'])
    assert sc2.kernel.name == "other" and sc2.kernel.arg("n") == 9 and sc2.kernel.arg("x").count == 16
    assert sc2.kernel.arg("y") == BufferArg("u8", 3, "random", seed=7)
    assert sc2.kernel.base_dir == str(tmp_path)


@pytest.mark.parametrize("change,field", [
    ({"workload": {"preset": "compute"}}, "workload"),
    ({"program": "model"}, "program"),
    ({"launch": {"grid": [1, 1, 1], "registers_per_thread": 40}}, "launch.registers_per_thread"),
    ({"launch": {"static_shared_bytes": 1024}}, "launch.static_shared_bytes"),
])
def test_kernel_scenarios_refuse_what_the_cubin_or_the_kernel_decides(change, field):
    with pytest.raises(InputError) as err:
        Scenario.from_dict({**BASE, **change})
    assert err.value.field == field


@pytest.mark.parametrize("args,field,message", [
    ({"x": {"dtype": "f33", "count": 4}}, "kernel.args.x.dtype", "is not a dtype"),
    ({"x": {"count": 4}}, "kernel.args.x", "needs dtype and count"),
    ({"x": {"dtype": "f32", "count": 0}}, "kernel.args.x.count", "below the minimum of 1"),
    ({"x": {"dtype": "f32", "count": 4, "init": "ones", "low": 1}}, "kernel.args.x.low", "for init = \"random\""),
    ({"x": {"dtype": "f32", "count": 4, "init": "random", "low": 2, "high": 1}}, "kernel.args.x.high", "not above"),
    ({"x": {"dtype": "f32", "count": 4, "color": 1}}, "kernel.args.x.color", "unknown key"),
    ({"n": "four"}, "kernel.args.n", "is not an argument"),
    ({"v": [1, 2, 3, 4, 5]}, "kernel.args.v", "1 to 4 numbers"),
    ({"a": float("inf")}, "kernel.args.a", "not a finite number"),
    ({"x": {"dtype": "f64", "count": MAX_BUFFER_BYTES // 16},
      "y": {"dtype": "f64", "count": MAX_BUFFER_BYTES // 16 + 1}},
     "kernel.args", "above the limit of 1,073,741,824 bytes for all buffer arguments together"),
])
def test_bad_arguments_name_the_field(args, field, message):
    with pytest.raises(InputError) as err:
        parse_kernel({"file": "k.cu", "name": "k", "args": args})
    assert err.value.field == field and message in err.value.message


def test_kernel_table_fields():
    with pytest.raises(InputError, match="kernel.file"):
        parse_kernel({"name": "k"})
    with pytest.raises(InputError, match="kernel.name"):
        parse_kernel({"file": "k.cu", "name": "  "})
    with pytest.raises(InputError, match="kernel.max_instructions"):
        parse_kernel({"file": "k.cu", "name": "k", "max_instructions": 0})
    with pytest.raises(InputError, match="kernel.speed: unknown key"):
        parse_kernel({"file": "k.cu", "name": "k", "speed": 1})
    with pytest.raises(InputError, match="kernel.l2_hit_rate: 1.5 is outside the range 0 to 1"):
        parse_kernel({"file": "k.cu", "name": "k", "l2_hit_rate": 1.5})
    with pytest.raises(InputError, match="kernel.l1_hit_rate: .* is not a number"):
        parse_kernel({"file": "k.cu", "name": "k", "l1_hit_rate": "high"})


def test_hit_rates_are_kernel_fields_that_round_trip_and_take_set():
    sc = Scenario.from_dict(BASE).with_overrides(["kernel.l2_hit_rate=0.75"])
    assert (sc.kernel.l1_hit_rate, sc.kernel.l2_hit_rate) == (0.0, 0.75)
    assert sc.to_dict()["kernel"]["l2_hit_rate"] == 0.75 and "l1_hit_rate" not in sc.to_dict()["kernel"]
    assert Scenario.from_dict(sc.to_dict()) == sc


_values = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                    st.text(max_size=8), st.sampled_from(list(DTYPES) + list(INITS)))


@given(st.dictionaries(st.sampled_from(["dtype", "count", "init", "seed", "low", "high", "other"]), _values,
                       max_size=6))
def test_buffer_parser_accepts_only_valid_buffers(data):
    try:
        b = parse_buffer(data, "kernel.args.x")
    except InputError as exc:
        assert exc.field.startswith("kernel.args.x")
        return
    assert b.dtype in DTYPES and b.init in INITS and 1 <= b.count and b.nbytes <= MAX_BUFFER_BYTES
    assert (b.low is None and b.high is None) or b.init == "random"


def test_saving_elsewhere_writes_the_cu_relative_to_the_new_file(tmp_path):
    """Scenario.save rebases the [kernel]'s file on the folder it writes to; reading it back finds the same .cu."""
    (tmp_path / "src").mkdir()
    (tmp_path / "out" / "deep").mkdir(parents=True)
    sc = Scenario.from_dict(BASE, base_dir=str(tmp_path / "src"))
    target = tmp_path / "out" / "deep" / "s.toml"
    sc.save(target)
    assert 'file = "../../src/k.cu"' in target.read_text(encoding="utf-8")
    again = Scenario.load(target)
    assert again.kernel.path.resolve() == (tmp_path / "src" / "k.cu").resolve()
    assert again.kernel.args == sc.kernel.args and again.kernel.name == sc.kernel.name


def test_anchored_keeps_the_file_findable_without_its_folder(tmp_path):
    sc = Scenario.from_dict(BASE, base_dir=str(tmp_path / "a" / ".." / "b"))
    anchored = sc.anchored()
    assert anchored.kernel.file == str(tmp_path / "b" / "k.cu") and anchored.kernel.base_dir == ""
    assert Scenario.from_dict(anchored.to_dict()).kernel.path == tmp_path / "b" / "k.cu"  # no base_dir needed
    assert Scenario().anchored() == Scenario()



def test_bidirectional_controls_are_stripped_from_displayed_names():
    """Issue 30, item 7: a U+202E in a name reversed the narration text shown after it. Names that are shown
    (a scenario's name and description, a file's name in the compiler's messages) lose every bidi control."""
    from explorer.toolchain.names import one_line
    from explorer.model.errors import BIDI_CONTROLS, strip_bidi
    from explorer.model.scenario import Scenario

    controls = "".join(map(chr, BIDI_CONTROLS))
    assert len(controls) == 12 and strip_bidi(f"a{controls}b") == "ab"
    sc = Scenario.from_dict({"name": "saxpy\u202e4pm.exe", "description": "x\u2067y\u2069"})
    assert sc.name == "saxpy4pm.exe" and sc.description == "xy"
    assert one_line("kernel\u202eu.cu") == "kernelu.cu"
