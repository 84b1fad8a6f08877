"""The core's validation messages, shown in the interface language.

Every message here comes from the real validators (scenario, occupancy, GEMM,
attention, the kernel form's arguments): each is a record of a template in
``explorer/texts/errors.py``. Its English is the line the CLI prints; the window
renders the same record in Russian with the same numbers. Every template is
produced by at least one call here, so a template no validator writes any more
(or a validator that went back to an f-string) fails here instead of silently
appearing in English in a Russian lecture.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from explorer.gemm.attention import compare_attention
from explorer.gemm.data import peak_tflops
from explorer.gemm.mapper import parse_tile, plan_gemm, tile_resources
from explorer.gemm.scenario import gemm_scenario
from explorer.gui.common.error_texts import core_error, core_message
from explorer.gui.explore.scenario_fields import parse_dims, parse_number, parse_percent
from explorer.gui.shell.i18n import install_translators
from explorer.model.catalog import get_gpu
from explorer.model.errors import InputError, require_int
from explorer.model.presets import load_preset
from explorer.model.scenario import Dim3
from explorer.model.stream import parse_stream
from explorer.model.workload import parse_workload
from explorer.occupancy import no_block_reasons, occupancy_for_launch, why_no_block_fits
from explorer.sass.execute.arguments import _scalar_bytes
from explorer.texts.errors import ERRORS
from explorer.texts.message import Message

CYRILLIC = re.compile("[а-яА-Я]")


def _message(fn) -> str:
    with pytest.raises(InputError) as info:
        fn()
    return info.value.message


def _no_block(gpu=None, **values) -> list[str]:
    """The messages of no_block_reasons for the example with ``values`` changed (on ``gpu``)."""
    scenario = load_preset("example-240x256")
    gpu = gpu or scenario.gpu
    launch = dataclasses.replace(scenario.launch, **values)
    occ = occupancy_for_launch(gpu, launch)
    reasons = no_block_reasons(gpu, launch, occ)
    assert why_no_block_fits(gpu, launch, occ) == "; ".join(f"{field}: {text}" for field, text in reasons)
    return [text for _, text in reasons]


def _one_block_slot():
    """An H100 whose SM holds one block: two named barriers per block leave it no slot."""
    h100 = get_gpu("H100")
    return dataclasses.replace(h100, arch=dataclasses.replace(h100.arch, max_blocks_per_sm=1))


def core_messages() -> dict[str, str]:
    """A name -> one real message from each validator the window shows under a field."""
    example = load_preset("example-240x256")
    out = {
        "not an integer": _message(lambda: require_int("regs", "12a")),
        "not an integer (a list)": _message(lambda: require_int("regs", [1.5])),
        "not an integer (an apostrophe)": _message(lambda: require_int("regs", "it's")),
        "below the minimum": _message(lambda: require_int("regs", -1, lo=0)),
        "above the maximum": _message(lambda: require_int("seed", 10**12, lo=0, hi=2**32 - 1)),
        "block above 1024": _message(lambda: example.with_values(**{"launch.block": [2048, 1, 1]})),
        "not a dimension": _message(lambda: example.with_values(**{"launch.grid": "abc"})),
        "not a dimension (an apostrophe)": _message(lambda: example.with_values(**{"launch.grid": "it's"})),
        "not a size": _message(lambda: parse_dims("a, b, c, d", "grid")),
        "not a size (an apostrophe)": _message(lambda: parse_dims("a's, b, c, d", "grid")),
        "threads above the limit": _no_block(block=Dim3(1024, 2))[0],
        "regs above the maximum": _no_block(registers_per_thread=300)[0],
        "regs x threads": _no_block(registers_per_thread=255, block=Dim3(1024))[0],
        "shared memory": _no_block(dynamic_shared_bytes=300_000)[0],
        "barriers": _no_block(_one_block_slot(), barriers=2)[0],
        "tile numbers": _message(lambda: parse_tile("128x128")),
        "tile text": _message(lambda: parse_tile("big")),
        "tile list": _message(lambda: parse_tile(["a"])),
        "tile not a size": _message(lambda: parse_tile(5)),
        "tile multiple": _message(lambda: tile_resources("H100", "bf16", "100x128x64")),
        "tile shared memory": _message(lambda: tile_resources("H100", "fp32", "256x256x64", stages=4)),
        "warp tile registers": _message(lambda: tile_resources("H100", "fp32", "128x128x8", warps=1)),
        "CTA registers": _message(lambda: tile_resources("A100", "bf16", "256x256x32", warps=32)),
        "no tensor core": _message(lambda: peak_tflops(get_gpu("V100"), "fp8")),
        "attention head_dim": _message(lambda: compare_attention("T4", 4096, 1024, block_q=256, block_kv=256)),
        "attention blocks": _message(lambda: compare_attention("T4", 4096, 256, block_q=256, block_kv=256)),
        "gemm scenario tiles": _message(lambda: gemm_scenario(plan_gemm("H100", 1024, 1024, 512, "bf16"),
                                                              max_tiles=0)),
        # the main-loop path and its knobs (the GEMM tab's path selector, wgmma and mma.sync fields)
        "path fp32 on an MMA path": _message(lambda: tile_resources("H100", "fp32", path="mma.sync")),
        "path simt on Hopper": _message(lambda: tile_resources("H100", "bf16", path="simt")),
        "path simt on Ampere": _message(lambda: tile_resources("A100", "bf16", path="simt")),
        "path wgmma on Ampere": _message(lambda: tile_resources("A100", "bf16", path="wgmma")),
        "cluster too big": _message(lambda: tile_resources("H100", "bf16", cluster="4x4")),
        "cluster text": _message(lambda: tile_resources("H100", "bf16", cluster="4")),
        "schedule on B200": _message(lambda: tile_resources("B200", "bf16", schedule="pingpong")),
        "A from registers on B200": _message(lambda: tile_resources("B200", "bf16", a_source="registers")),
        "cooperative BM": _message(lambda: tile_resources("H100", "bf16", "64x256x64", schedule="cooperative")),
        "wgmma stage too big": _message(lambda: tile_resources("H100", "tf32", "128x256x128")),
        "wgmma stages": _message(lambda: tile_resources("H100", "bf16", stages=8)),
        "wgmma one stage": _message(lambda: tile_resources("H100", "bf16", stages=1)),
        "consumer registers (pingpong)": _message(lambda: tile_resources("H100", "bf16", "256x256x64",
                                                                         schedule="pingpong")),
        "consumer registers": _message(lambda: tile_resources("H100", "bf16", "256x256x32")),
        "tensor memory columns": _message(lambda: tile_resources("B200", "bf16", "256x512x32")),
        "warp tile divides": _message(lambda: tile_resources("A100", "bf16", warp_tile="48x64")),
        "warp tile multiple": _message(lambda: tile_resources("A100", "bf16", "128x128x32", warp_tile="8x64")),
        "warp tile simt multiple": _message(lambda: tile_resources("A100", "fp32", "6x6x8", warp_tile="3x3")),
        "warp tile vs warps": _message(lambda: tile_resources("A100", "bf16", warps=8, warp_tile="64x64")),
        "warp tile warps limit": _message(lambda: tile_resources("A100", "bf16", "256x256x32", warp_tile="16x8")),
        "warps split": _message(lambda: tile_resources("A100", "bf16", warps=3)),
        "warps split simt": _message(lambda: tile_resources("A100", "fp32", "128x128x8", warps=3)),
        "hit rate text": _message(lambda: parse_workload({"preset": "fma-global", "l2_hit_rate": "half"})),
        "hit rate list": _message(lambda: parse_workload({"preset": "fma-global", "l2_hit_rate": [1]})),
        "hit rate range": _message(lambda: parse_workload({"preset": "fma-global", "l2_hit_rate": 2})),
        "percent text": _message(lambda: parse_percent("half", "workload.l2_hit_rate")),
        "percent text (an apostrophe)": _message(lambda: parse_percent("it's", "workload.l2_hit_rate")),
        "percent range": _message(lambda: parse_percent("100.5", "workload.l2_hit_rate")),
        "percent below": _message(lambda: parse_percent("-5", "workload.l2_hit_rate")),
        # the stream of launches (the Explorer's stream section)
        "stream gap below": _message(lambda: parse_stream({"kernels": 10, "launch_gap_us": -1})),
        "stream gap above": _message(lambda: parse_stream({"kernels": 10, "launch_gap_us": 2e6})),
        "nvml period below": _message(lambda: parse_stream({"nvml_period_ms": 0.5})),
        "nvml period above": _message(lambda: parse_stream({"nvml_period_ms": 70000})),
        "stream gap text": _message(lambda: parse_number("abc", "stream.launch_gap_us")),
        "stream gap not a number": _message(lambda: parse_stream({"kernels": 10, "launch_gap_us": True})),
        # the kernel form's scalars, judged as the executor binds them
        "kernel int": _message(lambda: _scalar_bytes(2.5, "i32", "kernel.args.n", "int")),
        "kernel int range": _message(lambda: _scalar_bytes(2**40, "i32", "kernel.args.n", "int")),
        "kernel bool": _message(lambda: _scalar_bytes(1, "b8", "kernel.args.flag", "bool")),
    }
    return out


@pytest.fixture
def russian(qapp):
    install_translators(qapp, "ru")
    yield
    install_translators(qapp, "en")


def test_every_template_is_written_by_a_real_validator():
    """No template is dead: each code of ERRORS is the record of one of the messages above."""
    messages = core_messages()
    assert all(isinstance(m, Message) and m.catalog is ERRORS for m in messages.values()), \
        [name for name, m in messages.items() if not isinstance(m, Message)]
    assert set(ERRORS.templates) == {m.code for m in messages.values()}


def test_english_is_the_line_the_cli_prints(qapp):
    install_translators(qapp, "en")
    for name, message in core_messages().items():
        assert core_message(message) == str(message) == message.translated(), name
        assert "{" not in message, name


@pytest.mark.parametrize("name", sorted(core_messages()))
def test_each_core_message_is_shown_in_russian_with_its_numbers(russian, name):
    message = core_messages()[name]
    shown = core_message(message)
    assert shown != message and CYRILLIC.search(shown), f"{name}: {message!r} is not translated"
    for number in re.findall(r"\d+", message):
        assert number in shown, f"{name}: {number} lost in {shown!r}"


def test_a_plain_message_is_shown_as_written(russian):
    assert core_message("something new went wrong") == "something new went wrong"
    assert core_message(None) is None and core_message("") == ""
    assert core_error("launch.grid", ERRORS("above_maximum", value="300", limit=255)) == \
        "launch.grid: 300 больше максимума 255"


def test_the_russian_quotes_the_users_text_as_before(russian):
    assert core_message(core_messages()["not an integer"]) == "«12a» — не целое число"
    assert core_message(core_messages()["percent text"]) == "'half' — не процент (нужно число от 0 до 100)"


def test_the_scenario_panel_shows_the_registers_limit_in_russian(russian, qtbot):
    from explorer.gui.common.int_field import IntField

    field = IntField("300")
    qtbot.addWidget(field)
    field.set_error(_no_block(registers_per_thread=300)[0])
    assert field.message == "300 больше предела 256 (ограничитель: регистры)"  # cuda_occupancy.h: 256 fits
