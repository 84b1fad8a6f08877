"""`warp-explorer precision`: the table, the JSON and one-line bad-input errors (as a user runs it)."""

import json

import pytest

from explorer.cli.main import main
from explorer.gemm.precision import precision_study
from tests.helpers import assert_one_line_error, run_cli


def test_json_subprocess():
    proc = run_cli("precision", "--k-max", "256", "--samples", "8", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["ks"] == [16, 32, 64, 128, 256] and d["samples"] == 8 and d["distribution"] == "normal"
    assert [(c["inputs"], c["accumulator"]) for c in d["curves"]][-1] == ("fp16", "fp16")
    assert d == json.loads(json.dumps(precision_study(256, 8).to_json()))  # the core's numbers, unchanged


def test_text_table(capsys):
    assert main(["precision", "--distribution", "uniform", "--k-max", "1024"]) == 0
    out = capsys.readouterr().out
    for text in ("K ", "FP32", "TF32", "BF16", "FP16", "E4M3", "E5M2", "FP16 acc16", "1,024", "U[0,1)",
                 "sequential", "DeepSeek-V3"):
        assert text in out
    bf16 = precision_study(1024, distribution="uniform").curve("bf16").relative_error[-1]
    assert f"{bf16:.1e}" in next(line for line in out.splitlines() if line.startswith("1,024"))


@pytest.mark.parametrize("args, contains", [
    (["--k-max", "1000"], "--k-max: 1000 is not a power of two"),
    (["--k-max", "131072"], "--k-max: 131072 is above the maximum of 65536"),
    (["--k-max", "abc"], "--k-max: 'abc' is not an integer"),
    (["--samples", "0"], "--samples: 0 is below the minimum of 1"),
    (["--k-max", "65536", "--samples", "100"], "--samples: 100 dot products of length 65536 need about 400 MiB, "
                                                "above the limit of 256 MiB"),
    (["--distribution", "cauchy"], "--distribution: 'cauchy'; choose one of normal, uniform"),
    (["--seed", "-1"], "--seed: -1 is below the minimum of 0"),
])
def test_bad_input_exit_2_one_line(args, contains):
    assert_one_line_error(run_cli("precision", *args), 2, contains)
