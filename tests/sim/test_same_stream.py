"""``measure --compare`` says whether the simulation ran the instruction stream the GPU ran."""

import json
from dataclasses import replace
from pathlib import Path

from explorer.model.presets import load_preset
from explorer.sass.kernel_program import model_program
from explorer.sim.same_stream import stream_comparison
from tests.helpers import run_cli
from tests.sim.programs import program, row

SYNTHETIC = Path(__file__).parents[1] / "data" / "measurement-v1-synthetic-example.npz"


def test_the_same_cubin_is_the_same_stream():
    prog = replace(program([row("int", ["R0"])]), meta={"cubin_sha256": "ab" * 32})
    same = stream_comparison({"kernel": {"sha256": "ab" * 32}}, prog)
    assert same["same_cubin"] and "same cubin" in same["text"]
    assert same["dynamic_instructions_per_warp"] == 2 and same["source"] == "sass"
    other = stream_comparison({"kernel": {"sha256": "cd" * 32}}, prog)
    assert not other["same_cubin"] and "differs" in other["text"]
    unknown = stream_comparison({}, prog)
    assert not unknown["same_cubin"] and "no cubin hash" in unknown["text"]


def test_the_model_is_never_the_same_stream():
    prog = model_program(load_preset("example-240x256"))
    out = stream_comparison({"kernel": {"sha256": "ab" * 32}}, prog)
    assert not out["same_cubin"] and out["source"] == "model" and "workload model" in out["text"]
    assert out["dynamic_instructions_per_warp"] == 161


def test_compare_report_names_the_stream():
    proc = run_cli("measure", "--from", str(SYNTHETIC), "--compare", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "instruction stream: " in proc.stdout
    proc = run_cli("measure", "--from", str(SYNTHETIC), "--compare", "--json", timeout=300)
    data = json.loads(proc.stdout)
    prog = data["simulated"]["program"]
    assert prog["source"] in ("sass", "model") and prog["same_cubin"] is False  # a synthetic file: no cubin ran
