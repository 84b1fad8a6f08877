"""The `gpus` and `occupancy` commands against the CLI contract in docs/dev/design.md."""

import json
import time

import pytest

from explorer.cli.main import main
from tests.helpers import assert_one_line_error, run_cli


def test_gpus_json_lists_the_catalog(capsys):
    assert main(["gpus", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = {g["name"] for g in data}
    assert {"V100", "T4", "A100", "A6000", "RTX4090", "L4", "H100", "H200", "B200", "RTX5090"} <= names
    h100 = next(g for g in data if g["name"] == "H100")
    assert h100["sm_count"] == 132 and h100["max_warps_per_sm"] == 64 and h100["schedulers_per_sm"] == 4


def test_occupancy_single_json(capsys):
    assert main(["occupancy", "--gpu", "h100", "--threads", "256", "--regs", "64", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["active_blocks_per_sm"] == 4
    assert out["active_warps_per_sm"] == 32
    assert out["occupancy"] == 0.5
    assert out["limiters"] == ["registers"]
    assert out["block_limits"]["registers"] == 4 and out["block_limits"]["warps"] == 8
    assert out["hints"]


def test_occupancy_text(capsys):
    assert main(["occupancy", "--gpu", "A100", "--threads", "128", "--regs", "32", "--smem-dynamic", "40000"]) == 0
    text = capsys.readouterr().out
    assert "limited by             shared_memory" in text
    assert "occupancy" in text


def test_zero_blocks_is_not_an_error(capsys):
    assert main(["occupancy", "--gpu", "H100", "--threads", "2048", "--regs", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["active_blocks_per_sm"] == 0 and set(out["limiters"]) == {"warps", "registers"}


def test_batch_in_order_with_error_lines(tmp_path, capsys):
    csv = tmp_path / "b.csv"
    csv.write_text(
        "gpu,threads,regs,smem_static,smem_dynamic,carveout\n"
        "H100,256,32,0,0,-1\n"
        "nope,256,32,0,0,-1\n"
        "A100,128,40,0,40000,50\n"
        "\n"
        "H100,abc,32,0,0,-1\n"
        "H100,256,32,0,0\n"
        "T4,1024,16,0,0,-1\n"
        ",,,,,\n"
    )
    assert main(["occupancy", "--batch", str(csv), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 7
    assert lines[0]["active_blocks_per_sm"] == 8 and set(lines[0]["limiters"]) == {"warps", "registers"}
    assert "unknown GPU 'nope'" in lines[1]["error"] and "line 3" in lines[1]["error"]
    assert lines[2]["limiters"] == ["shared_memory"]
    assert "threads: 'abc' is not an integer" in lines[3]["error"]
    assert "5 fields, expected 6" in lines[4]["error"]
    assert lines[5]["active_blocks_per_sm"] == 1 and lines[5]["occupancy"] == 1.0
    assert lines[6] == {"error": "line 9: gpu: empty field"}


def test_batch_3000_rows_is_fast(tmp_path, capsys):
    rows = ["gpu,threads,regs,smem_static,smem_dynamic,carveout"]
    gpus = ["H100", "A100", "T4", "RTX5090", "L4"]
    for i in range(3000):
        rows.append(f"{gpus[i % 5]},{32 * (1 + i % 32)},{16 + i % 200},{(i * 37) % 20000},{(i * 101) % 60000},{-1 if i % 3 else i % 101}")
    csv = tmp_path / "big.csv"
    csv.write_text("\n".join(rows) + "\n")
    start = time.perf_counter()
    assert main(["occupancy", "--batch", str(csv), "--json"]) == 0
    elapsed = time.perf_counter() - start
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3000
    assert all("error" not in json.loads(line) for line in out)
    assert elapsed < 5.0, f"3000 rows took {elapsed:.2f} s"


@pytest.mark.parametrize(
    "args,contains",
    [
        (["occupancy", "--gpu", "H100", "--threads", "0", "--regs", "32"], "threads: 0 is below the minimum of 1"),
        (["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "x"], "regs: 'x' is not an integer"),
        (["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "32", "--carveout", "101"], "carveout: 101"),
        (["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "32", "--smem-dynamic", "-4"], "smem_dynamic"),
        (["occupancy", "--gpu", "Q1", "--threads", "256", "--regs", "32"], "unknown GPU 'Q1'"),
        (["occupancy", "--threads", "256", "--regs", "32"], "--gpu"),
        (["occupancy", "--batch", "/nonexistent.csv", "--json"], "file not found"),
        (["occupancy", "--frobnicate"], "unrecognized arguments"),
        (["no-such-command"], "invalid choice"),
    ],
)
def test_bad_input_exit_2_one_line(args, contains):
    assert_one_line_error(run_cli(*args), 2, contains)


def test_batch_bad_header(tmp_path):
    csv = tmp_path / "h.csv"
    csv.write_text("gpu,threads,registers\nH100,256,32\n")
    assert_one_line_error(run_cli("occupancy", "--batch", str(csv), "--json"), 2, "missing column 'regs'")
    empty = tmp_path / "e.csv"
    empty.write_text("")
    assert_one_line_error(run_cli("occupancy", "--batch", str(empty), "--json"), 2, "empty file")
