"""The SASS opcode table (``resources/sass/opcodes.toml``): class, pipe, latency per family.

``lookup(instruction, arch)`` answers what the simulator needs to time one instruction on
one architecture; ``None`` for an opcode the table does not know (the program builder
then times it as a generic fixed-latency ALU instruction and says so in its notes, so
an unknown opcode never stops a program). The loader refuses a table whose groups or
overrides lack a source, name an unknown class, unit, scoreboard kind or family, or
list an opcode twice.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from explorer.model.errors import InputError
from explorer.paths import resource

CLASSES = ("fma", "sfu", "mma", "ldg", "stg", "lds", "sts", "sync", "exit",
           "int", "fp64", "uniform", "branch", "ldc", "mio", "ldl", "stl", "atom",
           # the workload model's Hopper pipeline ops (explorer.sass.model_program TMA..WGWAIT; no SASS row maps here yet)
           "tma", "mbarrier_wait", "wgmma", "wgmma_wait")
UNITS = ("fma", "fmaheavy", "fp16", "alu", "fp64", "xu", "tensor", "lsu", "adu", "cbu", "uniform")
SCOREBOARDS = ("fixed", "short", "long", "none")
GPU_LATENCIES = ("lat_fma", "lat_sfu", "lat_shared", "lat_mma")
FIELDS = ("class", "unit", "latency", "scoreboard")


class OpcodeTableError(InputError):
    def __init__(self, message: str):
        super().__init__("resources/sass/opcodes.toml", message)


@dataclass(frozen=True)
class OpcodeInfo:
    """How one opcode is timed on one family."""

    key: str  # the table entry that matched ("FFMA", "HFMA2.MMA")
    group: str
    op_class: str
    unit: str
    latency: int | str  # cycles, a gpus.toml latency name, or "memory"
    scoreboard: str
    source: str

    def cycles(self, gpu) -> int | None:
        """The latency in cycles on ``gpu`` (a GpuSpec); None when the memory system decides."""
        if isinstance(self.latency, int):
            return self.latency
        if self.latency == "memory":
            return None
        return int(getattr(gpu, self.latency))


@dataclass(frozen=True)
class OpcodeTable:
    entries: dict  # (family, key) -> OpcodeInfo
    keys: frozenset  # every opcode key
    arch_family: dict
    families: tuple[str, ...]
    destinations: dict  # opcode -> 0 | 2 | "carry"
    guard: dict  # family -> {"predicate_latency": n, "uniform_predicate_latency": n}

    def family(self, arch: str) -> str | None:
        return self.arch_family.get(arch)

    def lookup(self, opcode: str, modifiers: tuple[str, ...], arch: str) -> OpcodeInfo | None:
        fam = self.family(arch)
        if fam is None:
            return None
        for mod in modifiers:
            hit = self.entries.get((fam, f"{opcode}.{mod}"))
            if hit:
                return hit
        return self.entries.get((fam, opcode))

    def destination_rule(self, opcode: str):
        return self.destinations.get(opcode, 1)

    def guard_latency(self, arch: str, uniform: bool) -> int:
        g = self.guard.get(self.family(arch) or "", self.guard.get("", {}))
        return int(g["uniform_predicate_latency" if uniform else "predicate_latency"])


def _require_source(where: str, fields: dict) -> None:
    if not str(fields.get("source", "")).strip():
        raise OpcodeTableError(f"{where} has no source")


def _check_fields(where: str, fields: dict, complete: bool) -> None:
    _require_source(where, fields)
    if complete:
        missing = [f for f in FIELDS if f not in fields]
        if missing:
            raise OpcodeTableError(f"{where} lacks {', '.join(missing)}")
    if "class" in fields and fields["class"] not in CLASSES:
        raise OpcodeTableError(f"{where}: unknown class {fields['class']!r}")
    if "unit" in fields and fields["unit"] not in UNITS:
        raise OpcodeTableError(f"{where}: unknown unit {fields['unit']!r}")
    if "scoreboard" in fields and fields["scoreboard"] not in SCOREBOARDS:
        raise OpcodeTableError(f"{where}: unknown scoreboard kind {fields['scoreboard']!r}")
    if "latency" in fields:
        lat = fields["latency"]
        ok = (isinstance(lat, int) and not isinstance(lat, bool) and 0 < lat < 10_000) or lat in (*GPU_LATENCIES,
                                                                                                   "memory")
        if not ok:
            raise OpcodeTableError(f"{where}: latency {lat!r} is not a number of cycles, "
                                   f"{', '.join(GPU_LATENCIES)} or memory")


def parse_table(data: dict) -> OpcodeTable:
    """Validate the TOML data and index it by (family, opcode)."""
    if data.get("format") != 1:
        raise OpcodeTableError(f"format {data.get('format')!r} is not 1")
    families = tuple(data.get("families", {}).get("order", ()))
    arch_family = dict(data.get("arch_family", {}))
    if not families or set(arch_family.values()) - set(families):
        raise OpcodeTableError("arch_family names a family missing from families.order")
    dest = data.get("destinations", {})
    _require_source("destinations", dest)
    destinations: dict = {}
    for name, rule in (("zero", 0), ("two", 2), ("carry", "carry")):
        for op in dest.get(name, ()):
            if op in destinations:
                raise OpcodeTableError(f"destinations list {op} twice")
            destinations[op] = rule
    guard_data = data.get("guard", {})
    _require_source("guard", guard_data)
    base_guard = {k: guard_data[k] for k in ("predicate_latency", "uniform_predicate_latency")}
    guard = {"": base_guard}
    for fam in families:
        over = guard_data.get("by_family", {}).get(fam)
        if over is not None:
            _require_source(f"guard.by_family.{fam}", over)
        guard[fam] = {**base_guard, **{k: v for k, v in (over or {}).items() if k != "source"}}
    entries: dict = {}
    keys: set = set()
    for group in data.get("group", []):
        name = group.get("name", "?")
        _check_fields(f"group {name!r}", group, complete=True)
        since = group.get("since", families[0])
        if since not in families:
            raise OpcodeTableError(f"group {name!r}: since {since!r} is not a family")
        overrides = group.get("by_family", {})
        for fam, over in overrides.items():
            if fam not in families:
                raise OpcodeTableError(f"group {name!r}: by_family {fam!r} is not a family")
            _check_fields(f"group {name!r} by_family {fam}", over, complete=False)
        for key in group.get("opcodes", ()):
            if key in keys:
                raise OpcodeTableError(f"opcode {key} is listed twice")
            keys.add(key)
            for fam in families[families.index(since):]:
                merged = {**group, **overrides.get(fam, {})}
                source = group["source"] if fam not in overrides else f"{overrides[fam]['source']}; {group['source']}"
                entries[(fam, key)] = OpcodeInfo(key=key, group=name, op_class=merged["class"], unit=merged["unit"],
                                                 latency=merged["latency"], scoreboard=merged["scoreboard"],
                                                 source=source)
    return OpcodeTable(entries=entries, keys=frozenset(keys), arch_family=arch_family, families=families,
                       destinations=destinations, guard=guard)


@cache
def load_table() -> OpcodeTable:
    path = resource("sass", "opcodes.toml")
    with open(path, "rb") as fh:
        return parse_table(tomllib.load(fh))
