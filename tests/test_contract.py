"""docs/contract.md lists every ``--json`` key and every ``.npz`` member: the lists are the program's.

Each section's tables are read from the page (the first cell's backticked names), so a key added, renamed
or dropped in the code fails here until the contract says so.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from explorer.cli.main import main
from tests.gpu.support import needs_compiler
from tests.sass.support import needs_sass

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "docs" / "contract.md"
KERNELS = ROOT / "tests" / "kernels"
SYNTHETIC_MEASUREMENT = ROOT / "tests" / "data" / "measurement-v1-synthetic-example.npz"
SMALL = ["--set", "program=model", "--set", "launch.grid=[8,1,1]"]  # a short run, no compiler needed


def section(heading: str) -> str:
    """The text under the ``### heading``, up to the next heading."""
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index(f"\n### {heading}\n")
    end = re.search(r"\n#{2,3} ", text[start + 1:])
    return text[start:start + 1 + end.start()] if end else text[start:]


def tables(heading: str) -> list[list[str]]:
    """The names in the first column of each table under the ``### heading`` (up to the next heading)."""
    out, rows = [], None
    for line in section(heading).splitlines():
        if line.startswith("|"):
            if rows is None:
                rows = []
            elif not line.startswith("|---"):
                rows.extend(re.findall(r"`([^`]+)`", line.split("|")[1]))
        elif rows is not None:
            out.append(rows)
            rows = None
    if rows is not None:
        out.append(rows)
    return out


def listed(heading: str, index: int = 0) -> list[str]:
    names = tables(heading)[index]
    assert len(names) == len(set(names)), f"{heading}: a key listed twice"
    return names


def rows(heading: str) -> dict[str, str]:
    """Each key of the tables under the heading, with its row's last column (what it means)."""
    out = {}
    for line in section(heading).splitlines():
        cells = line.split("|")
        if len(cells) > 3 and not line.startswith("|---"):
            for name in re.findall(r"`([^`]+)`", cells[1]):
                out[name] = cells[-2]
    return out


def only_with(heading: str, words: str) -> set[str]:
    """The keys whose meaning says they are printed only with ``words`` (a flag, "SASS")."""
    return {name for name, meaning in rows(heading).items() if f"{words} only" in meaning}


def described(heading: str, key: str) -> dict[str, list[str]]:
    """The names ``key``'s meaning lists (a flag such as `--compare` left out), each with the names in the
    parentheses right after it: "`figures` (per figure `simulated`, `unit`), `dispatch`" is
    {"figures": ["simulated", "unit"], "dispatch": []}."""
    out, depth, last = {}, 0, None
    for m in re.finditer(r"`([^`]+)`|[()]", rows(heading)[key]):
        if m.group(0) in "()":
            depth += 1 if m.group(0) == "(" else -1
        elif depth == 0 and not m.group(1).startswith("-"):
            last = m.group(1)
            out[last] = []
        elif depth > 0 and last is not None:
            out[last].append(m.group(1))
    return out


def test_simulate_json_keys_are_the_contracts(capsys, tmp_path):
    out = tmp_path / "run.npz"
    assert main(["simulate", "example-240x256", *SMALL, "--json", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == listed("`simulate --json`")  # the keys, in the order printed
    saved = set(np.load(out).files)
    assert saved == set(listed("The simulation `.npz` (`simulate --out`)"))
    assert set(json.loads(str(np.load(out)["summary_json"]))) == set(printed) - {"stream"}


def test_a_kernel_scenarios_extra_keys_are_the_contracts():
    from explorer.cli.cmd_simulate import EXECUTION_KEYS

    assert list(EXECUTION_KEYS) == listed("`simulate --json`", 1)
    execute = listed("`execute --json`")
    assert set(EXECUTION_KEYS) <= set(execute)  # the same keys as execute --json prints


def test_a_binned_runs_extra_members_are_the_contracts():
    from explorer.sim.result import COUNT_NAMES

    extra = {f"{name}_{end}" for name in (*COUNT_NAMES, "state_counts") for end in ("min", "max")}
    assert set(listed("The simulation `.npz` (`simulate --out`)", 1)) == extra


def test_the_measurement_npz_members_are_the_contracts():
    from explorer.gpu.measurement import MEMBERS

    assert set(listed("The measurement `.npz` (`measure --out`)")) == set(MEMBERS)


@pytest.mark.parametrize("heading, argv", [
    ("`occupancy --json`", ["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "32", "--json"]),
    ("`gemm --json`", ["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                       "--json"]),
    ("`precision --json`", ["precision", "--k-max", "32", "--samples", "2", "--json"]),
])
def test_other_commands_json_keys_are_the_contracts(capsys, heading, argv):
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    optional = {"scenario_file"}  # gemm --scenario-out
    assert list(printed) == [k for k in listed(heading) if k not in optional or k in printed]


def test_gpus_json_keys_are_the_contracts(capsys):
    assert main(["gpus", "--json"]) == 0
    for gpu in json.loads(capsys.readouterr().out):
        assert list(gpu) == listed("`gpus --json`")


def test_scenario_keys_are_the_contracts():
    from explorer.model.scenario import Scenario

    names = [n.strip("[]") for n in listed("Scenario (`.toml`)")]
    top = [n for n in names if "." not in n]
    assert set(top) == set(Scenario().to_dict()) | {"name", "description", "program", "kernel", "stream"}


@pytest.mark.parametrize("program", ["model", pytest.param("sass", marks=needs_sass)])
def test_program_json_keys_are_the_contracts(capsys, program):
    assert main(["program", "example-240x256", "--set", f"program={program}", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    sass_only = only_with("`program --json`", "SASS") if program == "model" else set()
    assert list(printed) == [k for k in listed("`program --json`") if k not in sass_only]


@needs_sass
def test_execute_json_keys_are_the_contracts(capsys, tmp_path):
    """A small ``[kernel]`` scenario (a copy, two blocks), with ``--listing`` (which adds ``instructions``)."""
    scenario = tmp_path / "copy.toml"
    scenario.write_text(f'''gpu = "H100"
[launch]
grid = [2, 1, 1]
block = [64, 1, 1]
[kernel]
file = "{(KERNELS / "copy.cu").as_posix()}"
name = "copy_coalesced"
[kernel.args]
n = 128
in = {{ dtype = "f32", count = 128, init = "arange" }}
out = {{ dtype = "f32", count = 128 }}
''', encoding="utf-8")
    assert main(["execute", str(scenario), "--listing", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == listed("`execute --json`")


@needs_compiler
def test_compile_json_keys_are_the_contracts(capsys, tmp_path):
    assert main(["compile", str(KERNELS / "copy.cu"), "--kernel", "copy_coalesced", "--arch", "sm_90", "--json",
                 "--cubin-out", str(tmp_path / "copy.cubin")]) == 0
    assert list(json.loads(capsys.readouterr().out)) == listed("`compile --json`")


def test_bench_json_keys_are_the_contracts(capsys, monkeypatch):
    """``bench --quick`` made tiny (a minute of work otherwise): each case a short model-program run, the SASS
    extraction not timed, the own-kernel case its skip note."""
    from explorer.sim import bench

    real_case = bench._case

    def tiny(name, scenario, repeats, record_sms=None):
        return real_case(name, scenario.with_values(**{"program": "model", "launch.grid": [8, 1, 1]}), 1, record_sms)

    monkeypatch.setattr(bench, "_case", tiny)
    monkeypatch.setattr(bench, "extraction", lambda scenario: {"preset": scenario.name, "cold_s": 0.0, "cached_s": 0.0})
    monkeypatch.setattr(bench, "_kernel_case", lambda repeats: "your-own-kernel case skipped: not in this test")
    assert main(["bench", "--quick", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == listed("`bench --json`") and printed["notes"] and printed["cases"]


def test_measure_json_keys_are_the_contracts(capsys):
    """A committed measurement, with ``--compare`` (which adds ``simulated`` and ``comparison``); the file has no
    iteration clocks (``iterations``)."""
    assert main(["measure", "--from", str(SYNTHETIC_MEASUREMENT), "--compare", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    heading = "`measure --json`"
    assert list(printed) == [k for k in listed(heading) if k not in only_with(heading, "`--iteration-clocks`")]
    assert list(printed["simulated"]) == list(described(heading, "simulated"))
    comparison = described(heading, "comparison")
    assert list(printed["comparison"]) == list(comparison)
    assert list(printed["comparison"]["blocks_per_sm"]) == comparison["blocks_per_sm"]
    for figure in printed["comparison"]["figures"].values():
        assert list(figure) == comparison["figures"]


@needs_compiler
def test_microbench_json_keys_are_the_contracts(tmp_path):
    """One group on the fake driver (tests/gpu/fake_libcuda.c): no GPU needed, a few seconds."""
    from tests.gpu.support import REPO, build_fake_driver, run_cli

    env = {**build_fake_driver(tmp_path), "PYTHONPATH": os.pathsep.join([str(REPO / "tests" / "gpu" / "fake_nvml"),
                                                                         str(REPO)])}
    proc = run_cli("microbench", "--out", str(tmp_path / "out"), "--only", "ffma", "--no-merge", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    assert list(json.loads(proc.stdout)) == listed("`microbench --json`")
