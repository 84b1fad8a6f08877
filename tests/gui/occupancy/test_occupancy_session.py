"""The calculator's Qt-free state: the core judges every field; sweeps are cached by what they depend on."""

from __future__ import annotations

from explorer.gui.occupancy.session import DEFAULTS, check_fields, evaluate, sweeps, to_query
from explorer.model.catalog import get_gpu


def raw(**changes) -> dict:
    return {**{k: str(v) for k, v in DEFAULTS.items()}, **changes}


def test_valid_text_becomes_ints():
    values, errors = check_fields(raw(threads=" 128 ", regs="0x20"), DEFAULTS)
    assert errors == {}
    assert values["threads"] == 128 and values["regs"] == 32


def test_every_bad_field_is_reported_with_the_cores_message():
    values, errors = check_fields(raw(regs="abc", smem_dynamic="-5", carveout="250"), DEFAULTS)
    assert errors == {
        "regs": "'abc' is not an integer",
        "smem_dynamic": "-5 is below the minimum of 0",
        "carveout": "250 is above the maximum of 100",
    }
    assert values == DEFAULTS  # the fallbacks stand in for the bad fields


def test_evaluation_matches_the_core():
    ev = evaluate("h100", {**DEFAULTS, "regs": 64})
    assert ev.gpu.name == "H100"
    assert (ev.result.active_blocks_per_sm, ev.result.occupancy, ev.result.limiters) == (4, 0.5, ("registers",))
    assert ev.best_block == (1024, 1) and ev.best_occupancy == 0.5
    assert ev.hints and "48 registers" in ev.hints[0]


def test_sweeps_are_shared_along_their_own_axis():
    gpu = get_gpu("A100")
    a = sweeps(gpu, to_query({**DEFAULTS, "threads": 128, "regs": 40}))
    b = sweeps(gpu, to_query({**DEFAULTS, "threads": 256, "regs": 40}))
    c = sweeps(gpu, to_query({**DEFAULTS, "threads": 128, "regs": 64}))
    assert a[0] is b[0]  # threads curve: independent of the thread count
    assert a[1] is not b[1] and a[2] is not b[2]
    assert a[1] is c[1]  # registers curve: independent of the register count
    assert a[0] is not c[0]
