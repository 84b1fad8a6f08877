"""The core's validation messages, shown in the interface language.

Every message here comes from the real validators (scenario, occupancy, GEMM,
attention), so a reworded core message that the GUI no longer recognises fails
here instead of silently appearing in English in a Russian lecture.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from explorer.gemm.attention import compare_attention
from explorer.gemm.data import peak_tflops
from explorer.gemm.mapper import parse_tile, tile_resources
from explorer.gui.common.error_texts import _patterns, core_error, core_message
from explorer.gui.explore.scenario_fields import parse_dims, parse_number, parse_percent
from explorer.gui.shell.i18n import install_translators
from explorer.model.catalog import get_gpu
from explorer.model.errors import InputError, require_int
from explorer.model.presets import load_preset
from explorer.model.scenario import Dim3
from explorer.model.stream import parse_stream
from explorer.model.workload import parse_workload
from explorer.sass.execute.arguments import _scalar_bytes
from explorer.occupancy import occupancy_for_launch, why_no_block_fits

CYRILLIC = re.compile("[а-яА-Я]")


def _message(fn) -> str:
    with pytest.raises(InputError) as info:
        fn()
    return info.value.message


def _no_block(**values) -> list[str]:
    """The per-field parts of why_no_block_fits for the example with ``values`` changed."""
    scenario = load_preset("example-240x256")
    launch = dataclasses.replace(scenario.launch, **values)
    text = why_no_block_fits(scenario.gpu, launch, occupancy_for_launch(scenario.gpu, launch))
    return [part.partition(": ")[2] for part in text.split("; ")]


def core_messages() -> dict[str, str]:
    """A name -> one real message from each validator the window shows under a field."""
    example = load_preset("example-240x256")
    out = {
        "not an integer": _message(lambda: require_int("regs", "12a")),
        "below the minimum": _message(lambda: require_int("regs", -1, lo=0)),
        "above the maximum": _message(lambda: require_int("seed", 10**12, lo=0, hi=2**32 - 1)),
        "block above 1024": _message(lambda: example.with_values(**{"launch.block": [2048, 1, 1]})),
        "not a dimension": _message(lambda: example.with_values(**{"launch.grid": "abc"})),
        "not a size": _message(lambda: parse_dims("a, b", "grid")),
        "regs above the maximum": _no_block(registers_per_thread=300)[0],
        "regs x threads": _no_block(registers_per_thread=255, block=Dim3(1024))[0],
        "shared memory": _no_block(dynamic_shared_bytes=300_000)[0],
        "tile numbers": _message(lambda: parse_tile("128x128")),
        "tile text": _message(lambda: parse_tile("big")),
        "tile multiple": _message(lambda: tile_resources("H100", "bf16", "100x128x64")),
        "tile shared memory": _message(lambda: tile_resources("H100", "fp32", "256x256x64", stages=4)),
        "warp tile registers": _message(lambda: tile_resources("H100", "fp32", "128x128x8", warps=1)),
        "no tensor core": _message(lambda: peak_tflops(get_gpu("V100"), "fp8")),
        "attention blocks": _message(lambda: compare_attention("T4", 4096, 1024, block_q=256, block_kv=256)),
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
        "hit rate range": _message(lambda: parse_workload({"preset": "fma-global", "l2_hit_rate": 2})),
        "percent text": _message(lambda: parse_percent("half", "workload.l2_hit_rate")),
        "percent range": _message(lambda: parse_percent("100.5", "workload.l2_hit_rate")),
        # the stream of launches (the Explorer's stream section)
        "stream gap below": _message(lambda: parse_stream({"kernels": 10, "launch_gap_us": -1})),
        "stream gap above": _message(lambda: parse_stream({"kernels": 10, "launch_gap_us": 2e6})),
        "nvml period below": _message(lambda: parse_stream({"nvml_period_ms": 0.5})),
        "nvml period above": _message(lambda: parse_stream({"nvml_period_ms": 70000})),
        "stream gap text": _message(lambda: parse_number("abc", "stream.launch_gap_us")),
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


def test_every_pattern_is_a_valid_regex_and_template():
    for rx, template in _patterns():
        names = set(re.compile(rx).groupindex) - {"q"}
        assert set(re.findall(r"\{(\w+)\}", template)) <= names, (rx, template)


def test_english_messages_come_back_unchanged(qapp):
    install_translators(qapp, "en")
    for name, message in core_messages().items():
        assert core_message(message) == message, name


@pytest.mark.parametrize("name", sorted(core_messages()))
def test_each_core_message_is_shown_in_russian_with_its_numbers(russian, name):
    message = core_messages()[name]
    shown = core_message(message)
    assert shown != message and CYRILLIC.search(shown), f"{name}: {message!r} has no Russian pattern"
    for number in re.findall(r"\d+", message):
        assert number in shown, f"{name}: {number} lost in {shown!r}"


def test_an_unknown_message_is_shown_as_written(russian):
    assert core_message("something new went wrong") == "something new went wrong"
    assert core_message(None) is None and core_message("") == ""
    assert core_error("launch.grid", "300 is above the maximum of 255") == "launch.grid: 300 больше максимума 255"


def test_the_scenario_panel_shows_the_registers_limit_in_russian(russian, qtbot):
    from explorer.gui.common.int_field import IntField

    field = IntField("300")
    qtbot.addWidget(field)
    field.set_error(_no_block(registers_per_thread=300)[0])
    assert field.message == "300 больше предела 256 (ограничитель: регистры)"  # cuda_occupancy.h: 256 fits
