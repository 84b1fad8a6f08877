"""Catalog loading, scenario validation, TOML round trips and atomic saves."""

import copy
import os
import tomllib

import pytest

from explorer.model.catalog import CatalogError, get_gpu, load_catalog, parse_catalog
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.paths import resource

REQUIRED = ["V100", "T4", "A100", "A6000", "RTX4090", "L4", "H100", "H200", "B200", "RTX5090"]


def test_catalog_has_required_gpus_with_published_figures():
    cat = load_catalog()
    assert set(REQUIRED) <= set(cat)
    assert cat["H100"].sm_count == 132 and cat["H100"].compute_capability == "9.0"
    assert cat["A100"].sm_count == 108 and cat["A100"].arch.shared_per_sm == 164 * 1024
    assert cat["T4"].max_warps_per_sm == 32
    assert cat["RTX5090"].sm_count == 170 and cat["RTX5090"].arch.max_blocks_per_sm == 24
    assert cat["H200"].memory_bandwidth_gbs == 4800
    for gpu in cat.values():
        assert gpu.arch.sub_partitions == 4
        assert gpu.lat_fma < gpu.lat_shared < gpu.lat_l2 < gpu.lat_dram


def test_every_figure_has_a_source():
    raw = tomllib.loads(resource("gpus.toml").read_text())
    for cc, table in raw["arch"].items():
        for key, value in table.items():
            if isinstance(value, (int, float, list)) and not isinstance(value, bool):
                assert key in table["sources"], f"arch.{cc}.{key}"
    for name, table in raw["gpu"].items():
        for key, value in table.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert table["sources"].get(key), f"gpu.{name}.{key}"


def test_catalog_refuses_a_figure_without_source():
    raw = tomllib.loads(resource("gpus.toml").read_text())
    broken = copy.deepcopy(raw)
    del broken["gpu"]["H100"]["sources"]["lat_dram"]
    with pytest.raises(CatalogError, match="lat_dram"):
        parse_catalog(broken)
    broken = copy.deepcopy(raw)
    broken["arch"]["9.0"]["max_threads_per_sm"] = 2047
    with pytest.raises(CatalogError, match="multiple of warp_size"):
        parse_catalog(broken)


def test_gpu_names_are_case_insensitive_and_aliases_work():
    assert get_gpu("h100").name == "H100"
    assert get_gpu("RTX-4090").name == "RTX4090"
    assert get_gpu("4090").name == "RTX4090"
    with pytest.raises(InputError, match="unknown GPU 'H900'"):
        get_gpu("H900")


def test_scenario_round_trip(tmp_path):
    s = Scenario().with_values(**{"launch.grid": [480, 2, 1], "scheduler.policy": "lrr", "seed": 7})
    path = tmp_path / "s.toml"
    s.save(path)
    assert Scenario.load(path) == s
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_a_description_in_several_languages_round_trips(tmp_path):
    """``description = { en, ru }`` as a lesson writes its narration: English is ``description``, the others are
    looked up by language code, and a save writes the table back."""
    s = Scenario.from_dict({"description": {"en": "A stream.", "ru": "Поток.\u202e"}})
    assert s.description == "A stream." and s.description_in("ru") == "Поток." and s.description_in("de") == "A stream."
    path = tmp_path / "s.toml"
    s.save(path)
    assert tomllib.loads(path.read_text())["description"] == {"en": "A stream.", "ru": "Поток."}
    assert Scenario.load(path) == s and Scenario.load(path).description_texts == s.description_texts
    assert Scenario.from_dict({"description": "A stream."}) == s  # translations are not what a run depends on
    assert s.with_values(description="Other.").description_texts == ()  # a new text has no translations yet
    assert Scenario.from_dict({"description": "Plain."}).to_dict()["description"] == "Plain."


@pytest.mark.parametrize("value, field", [
    ({"ru": "Поток."}, "description.en"),
    ({"en": "A", "russian": "B"}, "description.'russian'"),
    ({"en": "A", "ru": 3}, "description.ru"),
    ({"en": "A", "ru": "x\0"}, "description.ru"),
    (["A"], "description"),
])
def test_bad_descriptions_name_their_field(value, field):
    with pytest.raises(InputError) as err:
        Scenario.from_dict({"description": value})
    assert err.value.field == field


def test_atomic_save_keeps_old_file_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "s.toml"
    Scenario().save(path)
    before = path.read_text()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        Scenario().with_values(seed=9).save(path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


@pytest.mark.parametrize(
    "key,value,match",
    [
        ("launch.grid", [0, 1, 1], "launch.grid.x: 0 is below the minimum of 1"),
        ("launch.grid", [1, 70000, 1], "launch.grid.y: 70000 is above the maximum of 65535"),
        ("launch.block", [1, 1, 65], "launch.block.z: 65 is above the maximum of 64"),
        ("launch.block", "big", "launch.block: 'big' is not a dimension"),
        ("launch.registers_per_thread", -1, "registers_per_thread: -1 is below the minimum of 0"),
        ("launch.carveout", 101, "launch.carveout: 101 is above the maximum of 100"),
        ("launch.dynamic_shared_bytes", 1.5, "is not an integer"),
        ("scheduler.policy", "fifo", "scheduler.policy: 'fifo' is not a policy"),
        ("gpu", "Z80", "unknown GPU"),
        ("workload.loop", 0, "workload.loop: 0 is below the minimum of 1"),
        ("workload.preset", "nope", "workload.preset: unknown preset 'nope'"),
        ("workload.body", [{"op": "jmp"}], r"workload.body\[0\].op: 'jmp' is not an operation"),
        ("workload.body", [{"op": "ldg", "bytes": 3}], r"workload.body\[0\].bytes: 3 bytes per thread"),
        ("workload.l2_hit_rate", 1.5, "workload.l2_hit_rate: 1.5 is outside the range 0 to 1"),
    ],
)
def test_validation_names_field_value_and_limit(key, value, match):
    with pytest.raises(InputError, match=match):
        Scenario().with_values(**{key: value})


def test_overrides_parse_toml_values():
    s = Scenario().with_overrides(["launch.grid=[480,1,1]", "scheduler.policy=lrr", "seed=3", "gpu=A100"])
    assert s.launch.grid.x == 480 and s.scheduler.policy == "lrr" and s.seed == 3 and s.gpu.name == "A100"
    with pytest.raises(InputError, match="not key=value"):
        Scenario().with_overrides(["launch.grid"])
    with pytest.raises(InputError, match="unknown scenario key"):
        Scenario().with_overrides(["lunch.grid=[1,1,1]"])


def test_malformed_scenario_files(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("gpu = \n")
    with pytest.raises(InputError, match="invalid TOML"):
        Scenario.load(bad)
    with pytest.raises(InputError, match="file not found"):
        Scenario.load(tmp_path / "missing.toml")
    bad.write_text('gpu = "H100"\n[launch]\ngrid = [1, 1, 1]\nthreads = 5\n')
    with pytest.raises(InputError, match="bad.toml: launch.threads: unknown key"):
        Scenario.load(bad)


def test_coalescing_bytes_per_request():
    from explorer.model.workload import Op

    assert Op("ldg", bytes=4).bytes_per_request == 128
    assert Op("ldg", bytes=16).bytes_per_request == 512
    assert Op("ldg", bytes=4, stride=2).bytes_per_request == 256
    assert Op("ldg", bytes=4, stride=8).bytes_per_request == 1024
    assert Op("ldg", bytes=4, stride=32).bytes_per_request == 1024


def test_saved_files_get_the_usual_mode_not_mkstemps_0600(tmp_path):
    path = tmp_path / "s.toml"
    Scenario().save(path)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    os.chmod(path, 0o640)  # an existing file keeps its mode
    Scenario().with_values(seed=3).save(path)
    assert path.stat().st_mode & 0o777 == 0o640
