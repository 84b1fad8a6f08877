"""`warp-explorer gemm`: the JSON contract and one-line bad-input errors (as a user runs it)."""

import json

import pytest

from explorer.cli.main import main
from tests.helpers import assert_one_line_error, run_cli

CONTRACT_KEYS = {"tiles", "blocks_per_sm", "waves", "wave_efficiency", "flops", "min_hbm_bytes",
                 "arithmetic_intensity", "bound", "predicted_seconds"}
EXTRA_KEYS = {"grid", "occupancy", "bytes_per_level", "instructions", "mma_instructions", "other_instructions",
              "warps_per_cta", "warp_tile", "stages", "registers_per_thread", "shared_bytes_per_block",
              "output_bytes_per_element", "times_seconds"}


def test_json_contract_subprocess():
    proc = run_cli("gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16",
                   "--tile", "128x128x64", "--path", "mma.sync", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert CONTRACT_KEYS <= set(d) and EXTRA_KEYS <= set(d)
    assert d["tiles"] == 32 * 32 and d["grid"] == [32, 32, 1]
    assert d["waves"] == pytest.approx(d["tiles"] / (d["blocks_per_sm"] * 132))
    assert d["wave_efficiency"] == pytest.approx(1024 / (4 * d["blocks_per_sm"] * 132))
    assert d["flops"] == 2 * 4096**3
    assert d["min_hbm_bytes"] == 3 * 4096 * 4096 * 2
    assert d["arithmetic_intensity"] == pytest.approx(d["flops"] / d["min_hbm_bytes"])
    assert d["bound"] in ("compute", "memory", "latency")
    assert set(d["bytes_per_level"]) == {"hbm", "l2", "shared", "registers"}
    assert d["mma_instructions"] + d["other_instructions"] == d["total_instructions"]
    assert d["occupancy"]["active_blocks_per_sm"] == d["blocks_per_sm"]
    assert d["path"] == "mma.sync" and d["pipeline"]["path"] == "mma.sync"


def test_wave_quantization_example_cli(capsys):
    assert main(["gemm", "--gpu", "H100", "--m", "896", "--n", "4864", "--k", "4096", "--dtype", "fp16",
                 "--tile", "128x256x64", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["tiles"] == 133 and d["blocks_per_sm"] == 1
    assert d["full_waves"] == 2 and d["wave_efficiency"] == pytest.approx(133 / 264)


def test_text_output(capsys):
    assert main(["gemm", "--gpu", "a100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp16"]) == 0
    out = capsys.readouterr().out
    for text in ("tile", "waves", "bytes per level", "HBM -> L2", "Tensor Core share", "bound:"):
        assert text in out


def test_text_durations_as_the_window_writes_them(capsys):
    """The CLI's durations come from the window's formatter (``seconds_text``, English): "190 µs", not "190 us"."""
    from explorer.texts.numbers import ENGLISH, seconds_text

    argv = ["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16"]
    assert main(argv + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"predicted            {seconds_text(d['predicted_seconds'], style=ENGLISH)} (" in out
    assert f"+ ~{seconds_text(d['launch_overhead_seconds'], style=ENGLISH)} launch" in out
    for key, value in d["times_seconds"].items():
        assert f"{key} {seconds_text(value, style=ENGLISH)}" in out
    assert " us" not in out


def test_optional_inputs(capsys):
    assert main(["gemm", "--gpu", "H100", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp16",
                 "--tile", "128x256x64", "--warps", "8", "--warp-tile", "64x64", "--stages", "4", "--path", "mma.sync",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["warps_per_cta"], d["warp_tile"], d["stages"]) == (8, "64x64", 4)


def test_scenario_out(tmp_path, capsys):
    path = tmp_path / "g.toml"
    assert main(["gemm", "--gpu", "H100", "--m", "1024", "--n", "1024", "--k", "1024", "--dtype", "fp16",
                 "--scenario-out", str(path), "--json"]) == 0
    from explorer.model.scenario import Scenario

    s = Scenario.load(path)
    assert s.launch.total_blocks == json.loads(capsys.readouterr().out)["tiles"]


@pytest.mark.parametrize("args, contains", [
    (["--m", "0"], "m: 0 is below the minimum of 1"),
    (["--n", "-4"], "n: -4 is below the minimum of 1"),
    (["--k", "abc"], "k: 'abc' is not an integer"),
    (["--dtype", "fp64"], "dtype: 'fp64' is not a data type; choose one of fp32, tf32, fp16, bf16, fp8"),
    (["--tile", "128x128"], "tile:"),
    (["--tile", "axbxc"], "tile:"),
    (["--tile", "512x512x128"], "above the limit of 232448 B"),
    (["--tile", "128x128x40"], "not a multiple of 16"),
    (["--stages", "0"], "stages: 0 is below the minimum of 1"),
    (["--warps", "3"], "warps:"),
    (["--gpu", "Z100"], "gpu: unknown GPU"),
    (["--gpu", "A100", "--path", "wgmma"], "path: wgmma needs compute capability 9.0 or 10.0"),
    (["--path", "tensor"], "path: 'tensor' is not a main-loop path"),
    (["--path", "wgmma", "--schedule", "x"], "schedule: 'x' is not a wgmma schedule"),
    (["--path", "wgmma", "--cluster", "3x3"], "cluster: 3x3 = 9 CTAs"),
    (["--path", "wgmma", "--a-from", "l1"], "a_source:"),
    (["--path", "wgmma", "--warps", "8"], "warps: on the wgmma path"),
    (["--schedule", "pingpong"], "schedule: only the wgmma path has a schedule"),
])
def test_bad_input_exit_2_one_line(args, contains):
    base = {"--gpu": "H100", "--m": "4096", "--n": "4096", "--k": "4096", "--dtype": "fp16", "--path": "mma.sync"}
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    argv = [x for pair in base.items() for x in pair]
    proc = run_cli("gemm", *argv, "--json")
    assert_one_line_error(proc, 2, contains)


def test_missing_required_flag_and_unsupported_dtype():
    assert_one_line_error(run_cli("gemm", "--gpu", "H100", "--m", "8", "--n", "8", "--k", "8"), 2, "--dtype")
    assert_one_line_error(run_cli("gemm", "--gpu", "V100", "--m", "8", "--n", "8", "--k", "8", "--dtype", "bf16"),
                          2, "dtype: bf16 has no Tensor Core support on V100")
