"""From the scenario panel's texts to a validated Scenario, Qt-free.

The core judges every value (``Scenario.with_values`` raises ``InputError`` with
the field and the limit), so the window rejects exactly what ``simulate --set``
rejects, with the same words, and every bad field is marked at once
(``common.field_check``). A launch that is valid but fits no block on an SM is
refused too (``simulate`` would refuse it), with the message naming the limiter.

Every text :func:`scenario_to_texts` writes is one :func:`build_scenario` accepts
and reads back as the same scenario: the L2 hit rate is a fraction in the scenario
(``workload.l2_hit_rate``, any value from 0 to 1; the GEMM hand-off computes one
such as 0.879699), so its field is a percentage with decimals, written exactly
(``87.9699``) and read back exactly. The stream's gap and NVML period are decimals
written the same way; an empty one is the GPU's published figure (``None``).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal, InvalidOperation

from explorer.gui.common.dims import format_dims, parse_dims
from explorer.gui.common.field_check import judge_fields
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.occupancy import no_block_reasons, occupancy_for_launch
from explorer.texts.errors import ERRORS, quoting

# form key -> dotted scenario key, in the order they are applied (a workload preset
# first: it brings its own loop and hit rates, which the later keys override)
FIELDS = {
    "gpu": "gpu",
    "grid": "launch.grid",
    "block": "launch.block",
    "regs": "launch.registers_per_thread",
    "smem_static": "launch.static_shared_bytes",
    "smem_dynamic": "launch.dynamic_shared_bytes",
    "carveout": "launch.carveout",
    "barriers": "launch.barriers",
    "workload": "workload.preset",
    "loop": "workload.loop",
    "l2_hit": "workload.l2_hit_rate",
    "policy": "scheduler.policy",
    "seed": "seed",
    # the stream of launches (explorer.model.stream): empty gap and period are the GPU's published figures
    "kernels": "stream.kernels",
    "launch_gap": "stream.launch_gap_us",
    "graph": "stream.graph",
    "sync_every": "stream.sync_every",
    "nvml_period": "stream.nvml_period_ms",
}
STREAM_FIELDS = ("kernels", "launch_gap", "graph", "sync_every", "nvml_period")
OPTIONAL_NUMBERS = ("launch_gap", "nvml_period")  # empty: the GPU's default (None in the scenario)
# a [kernel] scenario runs its own kernel: no workload, and the cubin gives these launch fields
NOT_IN_KERNEL_SCENARIOS = ("regs", "smem_static", "barriers", "workload", "loop", "l2_hit")
CUSTOM_WORKLOAD = ""  # the workload combo's value for a hand-written body (from a scenario file)


def _exact_text(value: Decimal) -> str:
    """A decimal as a field shows it, exactly: 87.9699, 50 (not 50.0), 2.1."""
    text = format(value.normalize(), "f")
    return text[:-2] if text.endswith(".0") else text


def _decimal(cleaned: str) -> Decimal | None:
    """A field's text (its comma already a point) as a finite decimal, or None."""
    try:
        value = Decimal(cleaned) if cleaned.isascii() else None
    except InvalidOperation:
        return None
    return value if value is not None and value.is_finite() else None


def percent_text(rate: float) -> str:
    """A fraction as the percentage a field shows: 0.879699 -> '87.9699', 0.5 -> '50' (exact, no float noise)."""
    return _exact_text(Decimal(repr(float(rate))) * 100)


def parse_percent(text: str, key: str) -> float:
    """'87.9699', '87,97 %' or '50' -> the fraction (0.879699); an InputError for the field otherwise."""
    value = _decimal(text.strip().rstrip("%").strip().replace(",", "."))
    if value is None:
        raise InputError(key, quoting("not_percentage", repr(text.strip())))
    if value < 0:
        raise InputError(key, ERRORS("below_minimum", value=f"{value:f}", limit=0))
    if value > 100:
        raise InputError(key, ERRORS("above_maximum", value=f"{value:f}", limit=100))
    return float(value / 100)


def number_text(value: float | None) -> str:
    """A decimal the way a field shows it, exact: 2.1 -> '2.1', 5.0 -> '5', None (the default) -> ''."""
    return "" if value is None else _exact_text(Decimal(repr(float(value))))


def parse_number(text: str, key: str) -> float | None:
    """'2.5', '2,5' -> 2.5; '' -> None (the default); an InputError for the field otherwise (the core judges
    the range)."""
    cleaned = text.strip().replace(",", ".")
    if not cleaned:
        return None
    value = _decimal(cleaned)
    if value is None:
        raise InputError(key, quoting("not_number", repr(text.strip())))
    return float(value)


def scenario_to_texts(s: Scenario) -> dict[str, str]:
    """The panel's texts for a scenario."""
    return {
        "gpu": s.gpu_name,
        "grid": format_dims(s.launch.grid.to_list()),
        "block": format_dims(s.launch.block.to_list()),
        "regs": str(s.launch.registers_per_thread),
        "smem_static": str(s.launch.static_shared_bytes),
        "smem_dynamic": str(s.launch.dynamic_shared_bytes),
        "carveout": str(s.launch.carveout),
        "barriers": str(s.launch.barriers),
        "workload": s.workload.preset or CUSTOM_WORKLOAD,
        "loop": str(s.workload.loop),
        "l2_hit": percent_text(s.workload.l2_hit_rate),
        "policy": s.scheduler.policy,
        "seed": str(s.seed),
        "kernels": str(s.stream.kernels),
        "launch_gap": number_text(s.stream.launch_gap_us),
        "graph": "true" if s.stream.graph else "false",
        "sync_every": str(s.stream.sync_every),
        "nvml_period": number_text(s.stream.nvml_period_ms),
    }


def _value(key: str, text: str):
    """A field's text as the value the scenario takes (raises InputError for the field)."""
    dotted = FIELDS[key]
    if key in ("grid", "block"):
        return parse_dims(text, dotted)
    if key == "l2_hit":
        return parse_percent(text, dotted)
    if key in ("gpu", "workload", "policy"):
        return text
    if key == "graph":
        return text == "true"
    if key in OPTIONAL_NUMBERS:
        return parse_number(text, dotted)
    return text.strip()  # the core's require_int parses and judges it


def field_of(dotted: str) -> str | None:
    """The form key an InputError's field belongs to ('launch.grid.x' -> 'grid')."""
    for key, name in FIELDS.items():
        if dotted == name or dotted.startswith(name + "."):
            return key
    return None


def _no_block_errors(reasons) -> dict[str, str]:
    """{form key: message} for ``no_block_reasons`` (a field the form lacks goes under the registers)."""
    out: dict[str, str] = {}
    for name, message in reasons:
        out.setdefault(field_of(name) or "regs", message)
    return out or {"regs": "no block of this launch fits on an SM"}


def build_scenario(base: Scenario, texts: dict[str, str], good: dict[str, str]) -> tuple[Scenario | None, dict[str, str]]:
    """(the scenario, {}) when every field is valid, else (None, {form key: message}).

    ``base`` supplies what the panel does not edit (name, description, a custom
    workload body); ``good`` holds a valid text per field, substituted for a bad
    one so the core can judge the rest (``judge_fields``).
    """

    def judge(values: dict[str, str]) -> Scenario:
        parsed = {dotted: _value(key, values[key]) for key, dotted in FIELDS.items()
                  if not (key == "workload" and values.get(key, CUSTOM_WORKLOAD) == CUSTOM_WORKLOAD)
                  and not (base.kernel is not None and key in NOT_IN_KERNEL_SCENARIOS)}
        scenario = base.with_values(**parsed)  # a custom workload keeps the base scenario's own body
        if base.kernel is not None and scenario.gpu_name == base.gpu_name:  # the same cubin's numbers
            scenario = replace(scenario, launch=replace(
                scenario.launch, registers_per_thread=base.launch.registers_per_thread,
                static_shared_bytes=base.launch.static_shared_bytes, barriers=base.launch.barriers))
        return scenario

    scenario, errors = judge_fields({key: texts[key] for key in FIELDS}, good, judge, field_of)
    occ = occupancy_for_launch(scenario.gpu, scenario.launch)
    if occ.active_blocks_per_sm == 0:  # judged with the other fields at their last good values
        for key, message in _no_block_errors(no_block_reasons(scenario.gpu, scenario.launch, occ)).items():
            errors.setdefault(key, message)
    if errors:
        return None, errors
    return scenario, {}
