"""``warp-explorer program``: the JSON contract, the text listing, the model, the fallbacks and
one-line errors (exit 2, no traceback)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from explorer.cli.main import main
from explorer.sass.model_program import build_program
from tests.gpu.support import assert_one_line_error, run_cli
from tests.sass.support import needs_sass

INSTRUCTION_KEYS = {"pc", "opcode", "text", "unit", "latency", "dst", "src"}


def cli(capsys, *args):
    code = main(["program", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


class _Proc:  # what assert_one_line_error reads
    def __init__(self, code, out, err):
        self.returncode, self.stdout, self.stderr = code, out, err


@needs_sass
def test_json_lists_the_sass_up_to_the_last_exit(capsys):
    code, out, err = cli(capsys, "example-240x256", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert (data["source"], data["arch"], data["function"], data["gpu"]) == ("sass", "sm_90", "we_kernel", "H100")
    ins = data["instructions"]
    assert all(INSTRUCTION_KEYS <= set(i) for i in ins)
    assert ins[-1]["opcode"] == "EXIT" and [i["pc"] for i in ins] == sorted(i["pc"] for i in ins)
    loop = data["loop"]
    assert loop["trip_count"] == 16 and loop["start_pc"] < loop["end_pc"]
    body = [i for i in ins if i["segment"] == "body"]
    assert body[0]["pc"] == loop["start_pc"] and body[-1]["pc"] == loop["end_pc"]
    assert len(body) == loop["body_instructions"]
    executed = sum(1 for i in ins if i["executed"])
    assert data["dynamic_instructions_per_warp"] == executed + (loop["trip_count"] - 1) * len(body)
    ldg = next(i for i in body if i["opcode"] == "LDG")
    assert (ldg["unit"], ldg["latency"], ldg["scoreboard"]) == ("lsu", None, "long")
    assert "R14" in ldg["src"] and "R15" in ldg["src"]  # the 64-bit address pair


@needs_sass
def test_text_is_a_readable_listing(capsys):
    code, out, _ = cli(capsys, "example-240x256")
    assert code == 0
    assert out.startswith("example-240x256 on H100 (sm_90): SASS of we_kernel")
    assert "instructions per warp" in out and "<- loop x 16" in out and "(never executed)" in out
    assert "FFMA R19, R4, UR4, R19" in out


def test_the_model_program_in_the_same_shape(capsys):
    code, out, err = cli(capsys, "example-240x256", "--set", "program=model", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    from explorer.model.presets import load_preset

    wl = load_preset("example-240x256").workload
    assert data["source"] == "model"
    assert data["dynamic_instructions_per_warp"] == build_program(wl).instructions_per_warp
    assert all(INSTRUCTION_KEYS <= set(i) for i in data["instructions"])
    assert data["instructions"][-1]["opcode"] == "EXIT"


@needs_sass
def test_an_architecture_nvrtc_cannot_target_falls_back_with_a_notice(capsys):
    code, out, err = cli(capsys, "example-240x256", "--set", "gpu=V100", "--json")
    assert code == 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "sm_70" in lines[0] and "model program" in lines[0], err
    data = json.loads(out)
    assert data["source"] == "model" and data["arch"] == "sm_70" and "sm_70" in data["notice"]


def test_a_bad_program_key_is_one_line(capsys):
    code, out, err = cli(capsys, "example-240x256", "--set", "program=quantum")
    assert_one_line_error(_Proc(code, out, err), 2, "program: 'quantum' is not a program source")


@needs_sass
def test_a_missing_disassembler_is_one_line(capsys, monkeypatch):
    import explorer.toolchain.tools as tools

    real = tools.find_tool
    monkeypatch.setattr(tools, "find_tool", lambda name: None if name == "nvdisasm" else real(name))
    code, out, err = cli(capsys, "example-240x256")
    line = assert_one_line_error(_Proc(code, out, err), 2, "no SASS toolchain: nvdisasm was not found")
    assert "nvidia-cuda-nvdisasm" in line and "program=model" in line


def test_a_missing_compiler_is_one_line(capsys, monkeypatch):
    import explorer.toolchain.compiler as compiler
    from explorer.toolchain.errors import CompilerUnavailable

    def unavailable():
        raise CompilerUnavailable("no CUDA compiler: cuda-bindings is not installed")

    monkeypatch.setattr(compiler, "compiler_backend", unavailable)
    code, out, err = cli(capsys, "example-240x256")
    assert_one_line_error(_Proc(code, out, err), 2, "no SASS toolchain: no CUDA compiler")


@needs_sass
def test_a_kernel_that_does_not_compile_is_one_line(capsys, monkeypatch):
    import explorer.toolchain.codegen as codegen
    import explorer.toolchain.prepare as measure

    real = codegen.generate

    def broken(*args, **kwargs):
        gen = real(*args, **kwargs)
        return replace(gen, source=gen.source + "\n#error this kernel is broken on purpose\n")

    monkeypatch.setattr(codegen, "generate", broken)
    monkeypatch.setattr(measure, "generate", broken)
    code, out, err = cli(capsys, "example-240x256", "--no-cache")
    assert_one_line_error(_Proc(code, out, err), 2, "does not compile")


def test_an_unknown_preset_is_one_line(capsys):
    code, out, err = cli(capsys, "no-such-preset")
    assert_one_line_error(_Proc(code, out, err), 2, "unknown preset")


@needs_sass
def test_the_installed_command_prints_json_without_a_traceback():
    proc = run_cli("program", "memory-bound-stream", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert data["source"] == "sass" and data["loop"]["trip_count"] == 8


@pytest.mark.parametrize("preset", ["barrier-tiling", "tensor-gemm"])
def test_model_listing_shows_every_operation_of_the_body(capsys, preset):
    code, out, _ = cli(capsys, preset, "--set", "program=model")
    assert code == 0 and "the workload model's program" in out


@needs_sass
def test_the_readme_example_is_what_the_command_prints(capsys):
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "docs" / "model.md").read_text()
    block = readme.split("$ warp-explorer program example-240x256\n", 1)[1].split("```", 1)[0]
    code, out, _ = cli(capsys, "example-240x256")
    assert code == 0
    printed = out.splitlines()
    shown = [line for line in block.splitlines() if line.strip() and line.strip() != "..."]
    assert shown and all(line in printed for line in shown), [line for line in shown if line not in printed]
