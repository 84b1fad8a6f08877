"""The WarpProgram contract: engine codes 0-8 are today's, the model program has the model's
instruction count, every preset's program keeps the invariants."""

from __future__ import annotations

import pytest

import explorer.sass.model_program as model
from explorer.model.presets import load_preset, preset_names
from explorer.sass.warp_program import OP, OP_NAMES, SB, UNIT, from_model


def test_the_first_nine_codes_are_the_engines_codes():
    assert (OP["fma"], OP["sfu"], OP["mma"], OP["ldg"], OP["stg"], OP["lds"], OP["sts"], OP["sync"], OP["exit"]) == (
        model.FMA, model.SFU, model.MMA, model.LDG, model.STG, model.LDS, model.STS, model.SYNC, model.EXIT)
    assert len(set(OP_NAMES)) == len(OP_NAMES)


@pytest.mark.parametrize("preset", preset_names())
def test_the_model_program_has_the_models_count_and_registers(preset):
    scenario = load_preset(preset)
    p = from_model(scenario.workload, scenario.gpu)
    ref = model.build_program(scenario.workload)
    p.check()
    assert p.dynamic_instructions_per_warp == ref.instructions_per_warp
    assert list(p.op[:-1]) == list(ref.op) and p.op[-1] == OP["exit"]
    assert list(p.req_bytes[:-1]) == list(ref.req_bytes)
    # the model's registers, renamed densely: the same dependency structure
    names = {f"r{i}" for i in range(ref.n_regs)}
    assert set(p.reg_names) <= names
    fma = [i for i, op in enumerate(ref.op) if op == model.FMA]
    for i in fma:
        assert p.scoreboard[i] == SB["fixed"] and p.unit[i] == UNIT["fma"] and p.latency[i] == scenario.gpu.lat_fma
