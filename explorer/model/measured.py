"""Facts measured on the GPU itself: ``resources/measured/<GPU>.toml``, one fragment per catalog GPU.

The catalog (``resources/gpus.toml``) holds published figures and estimates; a
fragment holds what a microbenchmark run measured on one GPU (``python -m explorer
microbench``, run by ``scripts/device_check.py``): latencies, the loaded-latency curve,
bandwidths, the FFMA rate, launch costs, NVML's utilization, and what the driver
reports (L2 size...). Every figure names its own run and method, so a fragment can
hold figures of several runs: a new run replaces the figures it measured and keeps the
others with their sources (:func:`merge_fragments`).

Schema (version 1)::

    schema = 1
    gpu = "H200"                       # the catalog name; the file is <gpu>.toml
    [run]                              # the run that wrote the file last
    date = "2026-12-04"                # ISO date
    device = "NVIDIA H200"             # as the driver names it
    driver = "580.159.04"              # driver version
    cuda = "13.0"                      # the driver's CUDA version (cuDriverGetVersion)
    clock_mhz = 1980.0                 # SM clock during the run (clock64 against %globaltimer)
    # optional: clock_mhz_min, clock_mhz_max, compiler, tool, method, notes (a list of text)
    [SECTION]                          # one of SECTIONS below
    figure = 39.0                      # a number, or a list in [loaded_latency]
    [SECTION.sources]
    figure = "measured, H200, 2026-12-04, <method>"   # or "driver, H200, <date>, <call>"

The sections and their figures are :data:`SECTIONS` (name -> unit, what): a figure
outside them, a figure without a source, a source that does not say where it was
measured and when, a value that is not a finite non-negative number, or lists of
different lengths are refused (:class:`MeasuredError`), as ``gpus.toml``'s loader
refuses a figure without a source. Nothing here changes a catalog figure: the
simulator still reads ``gpus.toml``; :meth:`GpuSpec.measured <explorer.model.catalog.GpuSpec.measured>`
gives the fragment to whoever decides to use a measured figure, and ``warp-explorer
gpus --json`` shows every figure with its source.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date as _date
from functools import cache
from pathlib import Path

from explorer.model.errors import InputError, read_user_text
from explorer.paths import resource

SCHEMA_VERSION = 1
MEASURED_DIR = "measured"  # under resources/
MAX_FRAGMENT_BYTES = 256 * 1024  # a fragment is a few KB; anything larger is not one
MAX_LIST = 64  # points of a loaded-latency curve

# section -> figure -> (unit, what it is). The order is the file's order.
SECTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "device": {
        "sm_count": ("SMs", "multiprocessors (CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)"),
        "l2_bytes": ("bytes", "L2 cache size (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)"),
        "shared_per_sm": ("bytes", "shared memory per SM (MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)"),
        "registers_per_sm": ("registers", "32-bit registers per SM (MAX_REGISTERS_PER_MULTIPROCESSOR)"),
        "max_threads_per_sm": ("threads", "threads per SM (MAX_THREADS_PER_MULTIPROCESSOR)"),
        "memory_bytes": ("bytes", "device memory (cuDeviceTotalMem)"),
        "memory_bus_bits": ("bits", "memory bus width (GLOBAL_MEMORY_BUS_WIDTH)"),
        "memory_clock_mhz": ("MHz", "memory clock (MEMORY_CLOCK_RATE)"),
    },
    "latency_cycles": {
        "l1_hit": ("cycles", "dependent global load that hits in L1"),
        "shared": ("cycles", "dependent shared-memory load"),
        "l2_hit_bypass_l1": ("cycles", "dependent global load with L1 bypassed (ld.global.cg) that hits in L2"),
        "l2_hit_1mib": ("cycles", "dependent global load that misses L1 and hits L2, 1 MiB working set"),
        "l2_hit_8mib": ("cycles", "the same, 8 MiB working set"),
        "l2_hit_32mib": ("cycles", "the same, 32 MiB working set"),
        "dram_256mib": ("cycles", "dependent global load that misses L2, 256 MiB working set"),
        "dram_2gib": ("cycles", "the same, 2 GiB working set (more TLB misses)"),
        "ffma_dependent": ("cycles", "dependent FFMA"),
    },
    "loaded_latency": {
        "warps_per_sm": ("warps", "warps on every SM, each with one coalesced 512 B load in flight"),
        "dram_cycles": ("cycles", "latency of such a load from DRAM (2 GiB array)"),
        "dram_gbs": ("GB/s", "the bandwidth those loads reach"),
        "l2_cycles": ("cycles", "latency of such a load from a 16 MiB array (plain ld: some may hit L1)"),
        "l2_gbs": ("GB/s", "the bandwidth those loads reach"),
        "l2_bypass_l1_cycles": ("cycles", "latency of such a load with L1 bypassed (ld.global.cg), 16 MiB"),
        "l2_bypass_l1_gbs": ("GB/s", "the bandwidth those loads reach"),
    },
    "bandwidth_gbs": {
        "dram_read": ("GB/s", "device-memory read"),
        "dram_write": ("GB/s", "device-memory write"),
        "dram_copy": ("GB/s", "device-memory copy (bytes read + bytes written)"),
        "l2_read_4mib": ("GB/s", "L2 read with L1 bypassed, 4 MiB buffer"),
        "l2_read_16mib": ("GB/s", "the same, 16 MiB buffer"),
        "l2_read_32mib": ("GB/s", "the same, 32 MiB buffer"),
    },
    "compute": {
        "ffma_tflops": ("TFLOP/s", "FP32 FMA rate (an FMA is 2 FLOP)"),
        "ffma_per_clk_per_sm": ("FMA/clk/SM", "FP32 FMAs per SM per cycle at the run's clock"),
    },
    "launch_us": {
        "launch_gap": ("us", "end of one kernel to the start of the next, back-to-back launches in one stream"),
        "back_to_back_5us_kernel": ("us", "period of back-to-back 5 us kernels (kernel + gap)"),
        "graph_node": ("us", "per kernel node of a CUDA Graph of empty kernels"),
        "empty_kernel_queued": ("us", "per empty kernel when launches are queued ahead (the GPU's own pace)"),
        "launch_call_python": ("us", "host time of one launch call from Python (cuda.bindings cuLaunchKernel)"),
        "launch_sync_python": ("us", "launch + cuStreamSynchronize round trip of an empty kernel, from Python"),
        "launch_call_cpp": ("us", "host time of one launch call from C++ (runtime API)"),
        "launch_sync_cpp": ("us", "launch + cudaStreamSynchronize round trip of an empty kernel, from C++"),
    },
    "nvml_utilization_pct": {
        "idle": ("%", "utilization.gpu with nothing running"),
        "one_warp": ("%", "utilization.gpu while one warp (1 block x 32 threads) spins on one SM"),
        "duty_20pct": ("%", "utilization.gpu with 200 us of full-GPU work every 1 ms"),
    },
}
LIST_SECTIONS = {"loaded_latency"}
RUN_REQUIRED = {"date": str, "device": str, "driver": str, "cuda": str, "clock_mhz": float}
RUN_OPTIONAL = {"clock_mhz_min": float, "clock_mhz_max": float, "compiler": str, "tool": str, "method": str,
                "notes": list}
SOURCE_RE = re.compile(r"^(measured|driver), (?P<gpu>[^,]+), (?P<date>\d{4}-\d{2}-\d{2}), \S.*$", re.DOTALL)


class MeasuredError(InputError):
    """A measured fragment that does not follow the schema (names the file, the figure and the rule)."""

    def __init__(self, where: str, message: str):
        super().__init__(where, message)


@dataclass(frozen=True)
class Figure:
    value: int | float | tuple[int | float, ...]
    unit: str
    source: str

    def to_json(self) -> dict:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"value": value, "unit": self.unit, "source": self.source}


@dataclass(frozen=True)
class MeasuredFacts:
    """One GPU's measured figures: ``sections[section][figure]`` with its unit and source."""

    gpu: str
    run: dict
    sections: dict[str, dict[str, Figure]] = field(default_factory=dict)
    path: str = ""

    def figure(self, section: str, name: str) -> Figure | None:
        return self.sections.get(section, {}).get(name)

    def value(self, section: str, name: str):
        f = self.figure(section, name)
        return None if f is None else f.value

    def to_json(self) -> dict:
        """What ``gpus --json`` prints under ``measured``."""
        out: dict = {"file": self.path, "run": dict(self.run)}
        for section, figures in self.sections.items():
            out[section] = {name: f.to_json() for name, f in figures.items()}
        return out

    def to_document(self) -> dict:
        """The TOML document (a dict) this was parsed from: what :func:`format_fragment` writes."""
        doc: dict = {"schema": SCHEMA_VERSION, "gpu": self.gpu, "run": dict(self.run)}
        for section, figures in self.sections.items():
            table = {name: (list(f.value) if isinstance(f.value, tuple) else f.value) for name, f in figures.items()}
            table["sources"] = {name: f.source for name, f in figures.items()}
            doc[section] = table
        return doc


def _number(value, where: str) -> int | float:
    """A finite number >= 0, kept an int when it is one (counts, bytes) so it is written back as it was read."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MeasuredError(where, f"expected a number, got {value!r}")
    if isinstance(value, int):
        if value < 0 or value > 2**63 - 1:
            raise MeasuredError(where, f"expected a whole number from 0 to 2**63 - 1, got {value!r}")
        return value
    if not math.isfinite(value) or value < 0:
        raise MeasuredError(where, f"expected a finite number >= 0, got {value!r}")
    return float(value)


def _check_date(text, where: str) -> str:
    if not isinstance(text, str):
        raise MeasuredError(where, f"expected an ISO date (YYYY-MM-DD), got {text!r}")
    try:
        _date.fromisoformat(text)
    except ValueError:
        raise MeasuredError(where, f"expected an ISO date (YYYY-MM-DD), got {text!r}") from None
    return text


def parse_fragment(data: dict, where: str = "fragment") -> MeasuredFacts:
    """Check a parsed fragment against the schema (see the module docstring) and type it."""
    if not isinstance(data, dict):
        raise MeasuredError(where, "expected a TOML table")
    if data.get("schema") != SCHEMA_VERSION:
        raise MeasuredError(f"{where}: schema", f"expected {SCHEMA_VERSION}, got {data.get('schema')!r}")
    gpu = data.get("gpu")
    if not isinstance(gpu, str) or not gpu.strip():
        raise MeasuredError(f"{where}: gpu", "expected the catalog name of the GPU")
    unknown = set(data) - {"schema", "gpu", "run", *SECTIONS}
    if unknown:
        raise MeasuredError(where, f"unknown table(s) {', '.join(sorted(unknown))}; known: run, {', '.join(SECTIONS)}")
    run = data.get("run")
    if not isinstance(run, dict):
        raise MeasuredError(f"{where}: run", "missing (date, device, driver, cuda, clock_mhz)")
    checked_run: dict = {}
    for key, kind in {**RUN_REQUIRED, **RUN_OPTIONAL}.items():
        if key not in run:
            if key in RUN_REQUIRED:
                raise MeasuredError(f"{where}: run.{key}", "missing")
            continue
        value = run[key]
        if kind is float:
            value = float(_number(value, f"{where}: run.{key}"))
        elif kind is list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise MeasuredError(f"{where}: run.{key}", "expected a list of text")
        elif not isinstance(value, str) or not value.strip():
            raise MeasuredError(f"{where}: run.{key}", f"expected text, got {value!r}")
        checked_run[key] = value
    extra = set(run) - set(RUN_REQUIRED) - set(RUN_OPTIONAL)
    if extra:
        raise MeasuredError(f"{where}: run", f"unknown key(s) {', '.join(sorted(extra))}")
    _check_date(checked_run["date"], f"{where}: run.date")

    sections: dict[str, dict[str, Figure]] = {}
    for section, schema in SECTIONS.items():
        table = data.get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            raise MeasuredError(f"{where}: {section}", "expected a table")
        sources = table.get("sources", {})
        if not isinstance(sources, dict):
            raise MeasuredError(f"{where}: {section}.sources", "expected a table")
        names = [k for k in table if k != "sources"]
        for name in names:
            if name not in schema:
                raise MeasuredError(f"{where}: {section}.{name}",
                                    f"not a figure of [{section}]; known: {', '.join(schema)}")
        for name in sources:
            if name not in table:
                raise MeasuredError(f"{where}: {section}.sources.{name}", "a source for a figure that is not there")
        figures: dict[str, Figure] = {}
        for name in schema:  # the schema's order
            if name not in table:
                continue
            at = f"{where}: {section}.{name}"
            raw = table[name]
            if section in LIST_SECTIONS:
                if not isinstance(raw, list) or not raw or len(raw) > MAX_LIST:
                    raise MeasuredError(at, f"expected a list of 1 to {MAX_LIST} numbers")
                value = tuple(_number(v, at) for v in raw)
            else:
                value = _number(raw, at)
            source = sources.get(name)
            if not isinstance(source, str) or not SOURCE_RE.match(source):
                raise MeasuredError(at, "the figure has no source of the form 'measured, GPU, YYYY-MM-DD, method' "
                                        f"(or 'driver, GPU, YYYY-MM-DD, call') in [{section}.sources]")
            _check_date(SOURCE_RE.match(source).group("date"), f"{at} (its source)")
            figures[name] = Figure(value=value, unit=schema[name][0], source=source)
        if section in LIST_SECTIONS and figures:
            if "warps_per_sm" not in figures:
                raise MeasuredError(f"{where}: {section}", "the curves need warps_per_sm")
            warps = figures["warps_per_sm"].value
            if any(w != int(w) or w < 1 for w in warps) or list(warps) != sorted(set(warps)):
                raise MeasuredError(f"{where}: {section}.warps_per_sm", "expected whole numbers >= 1, ascending")
            for name, f in figures.items():
                if len(f.value) != len(warps):
                    raise MeasuredError(f"{where}: {section}.{name}",
                                        f"{len(f.value)} points for {len(warps)} warps_per_sm")
        if figures:
            sections[section] = figures
    return MeasuredFacts(gpu=gpu, run=checked_run, sections=sections)


# -- writing ---------------------------------------------------------------------------------
HEADER = """\
# Measured on the GPU itself: the figures of {gpu}, each with the run and method it comes from.
# Written by explorer/gpu/microbench.py (python -m explorer microbench, run by
# scripts/device_check.py); a later run replaces the figures it measures and keeps the rest.
# The schema is explorer/model/measured.py's; `warp-explorer gpus --json` shows every figure
# with its source. Nothing here changes resources/gpus.toml: see docs/real-gpu.md.
"""


def _toml_value(value) -> str:
    from explorer.model.tomlio import _scalar

    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return _scalar(value)


def format_fragment(doc: dict) -> str:
    """The fragment's TOML text: header, schema, gpu, [run], then the sections in schema order.

    ``doc`` must pass :func:`parse_fragment` (checked here, so nothing invalid is written).
    """
    facts = parse_fragment(doc, "fragment")
    lines = [HEADER.format(gpu=facts.gpu).rstrip("\n"), "", f"schema = {SCHEMA_VERSION}",
             f"gpu = {_toml_value(facts.gpu)}", "", "[run]"]
    for key in (*RUN_REQUIRED, *RUN_OPTIONAL):
        if key in facts.run:
            lines.append(f"{key} = {_toml_value(facts.run[key])}")
    for section, figures in facts.sections.items():
        lines += ["", f"[{section}]"]
        for name, f in figures.items():
            lines.append(f"{name} = {_toml_value(f.value)}")
        lines += ["", f"[{section}.sources]"]
        for name, f in figures.items():
            lines.append(f"{name} = {_toml_value(f.source)}")
    return "\n".join(lines) + "\n"


def merge_fragments(old: dict | None, new: dict) -> dict:
    """``new`` over ``old``: the new run's figures and [run]; the old figures the new run lacks, with their sources.

    A loaded-latency curve is kept whole: the old curves stay beside the new ones only
    when both were taken at the same warps per SM, else the new section replaces the old.
    Both documents must be valid fragments of the same GPU.
    """
    new_facts = parse_fragment(new, "new fragment")
    if old is None:
        return new_facts.to_document()
    old_facts = parse_fragment(old, "old fragment")
    if old_facts.gpu.lower() != new_facts.gpu.lower():
        raise MeasuredError("gpu", f"cannot merge {new_facts.gpu}'s figures into {old_facts.gpu}'s")
    merged: dict[str, dict[str, Figure]] = {}
    for section in SECTIONS:
        o = old_facts.sections.get(section, {})
        n = new_facts.sections.get(section, {})
        if section in LIST_SECTIONS and o and n and o["warps_per_sm"].value != n["warps_per_sm"].value:
            o = {}
        both = {**o, **n}
        if both:
            merged[section] = {name: both[name] for name in SECTIONS[section] if name in both}
    facts = MeasuredFacts(gpu=new_facts.gpu, run=new_facts.run, sections=merged)
    return facts.to_document()


# -- loading -----------------------------------------------------------------------------------
def measured_dir() -> Path:
    return resource(MEASURED_DIR)


def read_fragment(path: str | Path) -> MeasuredFacts:
    """Read and check one fragment file (a regular file of at most 256 KiB)."""
    path = Path(path)
    text = read_user_text(path, kind="a measured-figures TOML file", limit=MAX_FRAGMENT_BYTES)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MeasuredError(str(path), f"not valid TOML: {exc}") from None
    facts = parse_fragment(data, path.name)
    if facts.gpu.lower() != path.stem.lower():
        raise MeasuredError(f"{path.name}: gpu", f"{facts.gpu!r} does not match the file name (expected {path.stem!r})")
    return MeasuredFacts(gpu=facts.gpu, run=facts.run, sections=facts.sections, path=f"{MEASURED_DIR}/{path.name}")


@cache
def load_measured_all() -> dict[str, MeasuredFacts]:
    """Every shipped fragment by GPU name, lower-cased (cached: read once per process)."""
    folder = measured_dir()
    out: dict[str, MeasuredFacts] = {}
    if folder.is_dir():
        for path in sorted(folder.glob("*.toml")):
            facts = read_fragment(path)
            out[facts.gpu.lower()] = facts
    return out


def load_measured(gpu: str) -> MeasuredFacts | None:
    """The fragment of one catalog GPU, or None when it was never measured."""
    return load_measured_all().get(gpu.lower())
