"""The types a measurement's ``meta_json`` must have, checked once when a file is opened.

Why: everything that shows a Measurement (``measure --from``, ``--compare``,
``--calibrate``, the window's panels) reads ``meta`` with plain ``meta["timing"]["clock_mhz"]``
and ``.get(...)``. A crafted file with a string where a table belongs, a list in
``nvml``, ``true`` as a register count or a 1e300 clock would otherwise raise
somewhere far from the loader (in the window: inside the event loop). So the loader
checks every key those readers use, with its type and a sane range, and refuses the
file with one message naming the key. Keys not listed here are kept but never read.

Ranges are loader limits, not hardware facts: wide enough for any GPU and run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

TEXT_MAX = 1 << 24  # characters in one text field (the generated source is < 1 MB)
LIST_MAX = 1 << 20  # entries in one list (NVML samples: a few thousand)
BIG = 1 << 62


@dataclass(frozen=True)
class Int:
    lo: int = 0
    hi: int = BIG
    none: bool = False

    def check(self, v) -> str:
        if v is None and self.none:
            return ""
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be an integer, not {_kind(v)}"
        if not self.lo <= v <= self.hi:
            return f"is {v}, outside {self.lo}..{self.hi}"
        return ""


@dataclass(frozen=True)
class Num:
    lo: float = 0.0
    hi: float = 1e18
    none: bool = False

    def check(self, v) -> str:
        if v is None and self.none:
            return ""
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return f"must be a number, not {_kind(v)}"
        if not math.isfinite(v) or not self.lo <= v <= self.hi:
            return f"is {v:g}, outside {self.lo:g}..{self.hi:g}"
        return ""


@dataclass(frozen=True)
class Text:
    none: bool = False

    def check(self, v) -> str:
        if v is None and self.none:
            return ""
        if not isinstance(v, str):
            return f"must be text, not {_kind(v)}"
        if len(v) > TEXT_MAX:
            return f"is {len(v):,} characters, above the limit of {TEXT_MAX:,}"
        return ""


@dataclass(frozen=True)
class Bool:
    def check(self, v) -> str:
        return "" if isinstance(v, bool) else f"must be true or false, not {_kind(v)}"


@dataclass(frozen=True)
class List:
    item: object
    length: int | None = None  # an exact length, else up to LIST_MAX

    def check(self, v) -> str:
        if not isinstance(v, list):
            return f"must be a list, not {_kind(v)}"
        if self.length is not None and len(v) != self.length:
            return f"must have {self.length} entries, not {len(v)}"
        if len(v) > LIST_MAX:
            return f"has {len(v):,} entries, above the limit of {LIST_MAX:,}"
        for i, x in enumerate(v):
            problem = self.item.check(x)
            if problem:
                return f"[{i}] {problem}"
        return ""


@dataclass(frozen=True)
class Any:
    def check(self, v) -> str:
        return ""


@dataclass(frozen=True)
class Table:
    fields: dict = field(default_factory=dict)
    required: tuple = ()
    values: object = None  # the type of every other key's value (None: not checked)

    def check(self, v) -> str:
        if not isinstance(v, dict):
            return f"must be a table, not {_kind(v)}"
        for key in self.required:
            if key not in v:
                return f"lacks {key!r}"
        for key, value in v.items():
            spec = self.fields.get(key, self.values)
            if spec is None:
                continue
            problem = spec.check(value)
            if problem:
                return f".{key}{problem}" if problem.startswith((".", "[")) else f".{key} {problem}"
        return ""


def _kind(v) -> str:
    return {dict: "a table", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(v), type(v).__name__)


OCCUPANCY = Table({
    "active_blocks_per_sm": Int(0, 1 << 16, none=True),
    "active_warps_per_sm": Int(0, 1 << 16, none=True),
    "occupancy": Num(0.0, 1.0, none=True),
    "limiters": List(Text()),
    "block_limits": Table(values=Any()),
})
TEXTS = List(Text())
SCHEMA = Table({
    "format": Text(), "version": Int(1, 1 << 31), "created": Text(), "synthetic": Bool(), "note": Text(),
    "scenario_toml": Text(none=True), "scenario_name": Text(none=True), "gpu": Text(none=True),
    "source": Text(none=True),
    "sm_count": Int(1, 1024),  # the largest GPU has 170 SMs
    "max_warps_per_sm": Int(1, 256),  # 64 on every CUDA GPU so far
    "device": Table({"name": Text(), "compute_capability": Text(), "sm_count": Int(0, 1024, none=True)}),
    "launch": Table({
        "grid": List(Int(1, (1 << 31) - 1), length=3), "block": List(Int(1, 1024), length=3),
        "threads_per_block": Int(1, 1024), "warps_per_block": Int(1, 32), "total_blocks": Int(0, 1 << 40),
        "dynamic_shared_bytes": Int(0, 1 << 31, none=True), "carveout": Int(-1, 100, none=True),
        "occupancy_pad_bytes": Int(0, 1 << 31), "per_warp": Bool(), "buffer_bytes": Int(0, BIG),
        "footprint_bytes": Int(0, BIG),
        "iteration_clocks": Int(2, 1 << 24, none=True),  # clocks per warp in warp_iteration_clocks (loop + 1)
    }, required=("warps_per_block", "total_blocks")),
    "kernel": Table({
        "registers": Int(0, 256, none=True), "static_shared_bytes": Int(0, 1 << 31, none=True),
        "barriers": Int(0, 16, none=True), "spill_bytes": Int(0, BIG, none=True),
        "function_attributes": Table(values=Int(-BIG, BIG, none=True)),
        "compiler": Text(), "symbol": Text(), "options": TEXTS, "sha256": Text(),
    }),
    "occupancy": Table({"ours": OCCUPANCY, "scenario": OCCUPANCY,
                        "driver_active_blocks_per_sm": Int(0, 1 << 16, none=True)}),
    "timing": Table({
        "clock_mhz": Num(1.0, 100_000.0), "kernel_ms": Num(0.0, 1e9, none=True),
        "event_ms": List(Num(0.0, 1e9, none=True)), "repeats": Int(0, 1 << 20, none=True),
        "globaltimer": Table({"tick_ns": Num(0.0, 1e12, none=True)}, values=Any()),
        "clock_mhz_tick_kernel": Num(0.0, 100_000.0, none=True), "alignment": Text(),
        "l2_flush_bytes": Int(0, BIG, none=True), "warm_up_ms": Num(0.0, 1e9, none=True),
        "warm_up_launches": Int(0, BIG, none=True),
        "clock_probe_mhz": Table(values=Num(0.0, 100_000.0, none=True)),
    }, required=("clock_mhz",)),
    "nvml": Table({
        "available": Bool(), "reason": Text(), "utilization_gpu_mean": Num(0.0, 100.0, none=True),
        "kernel_busy_fraction": Num(0.0, 1.0, none=True), "launches": Int(0, BIG, none=True),
        "elapsed_s": Num(0.0, 1e9, none=True), "window_s": Num(0.0, 1e9, none=True),
        "sm_clock_mhz_median": Num(0.0, 100_000.0, none=True), "launch_method": Text(),
        "gpm": Table({"available": Bool(), "reason": Text(), "sm_util": Num(0.0, 1000.0, none=True),
                      "sm_occupancy": Num(0.0, 1000.0, none=True)}),  # percent, as NVML reports it
    }),
    "notes": TEXTS, "problems": TEXTS, "warnings": TEXTS,
})


def check_meta(meta) -> str:
    """'' when ``meta`` has the types its readers expect, else e.g. ``timing.clock_mhz must be a number, not text``."""
    return SCHEMA.check(meta).removeprefix(".")
