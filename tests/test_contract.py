"""docs/contract.md lists every ``--json`` key and every ``.npz`` member: the lists are the program's.

Each section's tables are read from the page (the first cell's backticked names), so a key added, renamed
or dropped in the code fails here until the contract says so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from explorer.cli.main import main

CONTRACT = Path(__file__).resolve().parents[1] / "docs" / "contract.md"
SMALL = ["--set", "program=model", "--set", "launch.grid=[8,1,1]"]  # a short run, no compiler needed


def tables(heading: str) -> list[list[str]]:
    """The names in the first column of each table under the ``### heading`` (up to the next heading)."""
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index(f"\n### {heading}\n")
    end = re.search(r"\n#{2,3} ", text[start + 1:])
    section = text[start:start + 1 + end.start()] if end else text[start:]
    out, rows = [], None
    for line in section.splitlines():
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
