"""A scenario's ``[stream]``: N launches of its kernel, the gaps between them, NVML's window.

Why a stream at all: NVML's "GPU utilization" is the share of a sample period in
which at least one kernel runs, so over one kernel's own duration it is 100% by
definition. What it says about a real program depends on the gaps between
launches (launch overhead, host synchronizations) and on how long NVML's window
is. ``StreamConfig`` holds what the user wrote (``None``: the GPU's published
default); :meth:`StreamConfig.resolve` turns it into the figures for one GPU, taken
from ``resources/launch_overhead.toml`` with their sources. The simulator composes
the stream (``explorer.sim.stream``); this module only validates and resolves.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache

from explorer.model.catalog import CatalogError, GpuSpec, gpu_names
from explorer.model.errors import InputError, reject_unknown_keys, require_int, shown
from explorer.paths import resource
from explorer.texts.errors import ERRORS, quoting

# Bounds of the model, not facts of a GPU. A stream is composed analytically, so
# its cost does not grow with these; they keep figures finite and catch typos.
MAX_KERNELS = 1_000_000
MAX_GAP_US = 1_000_000.0  # one second between two launches is an idle GPU, not a gap
# NVML documents 1/6 s to 1 s; shorter windows model a tool that samples faster
# (GPM metrics are taken between two samples at any interval).
MIN_PERIOD_MS = 1.0
MAX_PERIOD_MS = 60_000.0
FIGURES = ("launch_gap_us", "graph_gap_us", "sync_gap_us", "nvml_period_ms")
KEYS = ("kernels", "launch_gap_us", "graph", "sync_every", "nvml_period_ms")


@dataclass(frozen=True)
class StreamTiming:
    """A stream's figures for one GPU, defaults filled in."""

    kernels: int
    gap_us: float  # between two launches: the plain launch gap, or the graph's per-node gap
    graph: bool
    sync_every: int  # 0: the host never waits inside the stream
    sync_gap_us: float  # the gap after every sync_every-th kernel
    nvml_period_ms: float
    sources: dict = field(default_factory=dict, compare=False)  # figure -> source, for defaults used


@dataclass(frozen=True)
class StreamConfig:
    kernels: int = 1
    launch_gap_us: float | None = None  # None: the GPU's published figure
    graph: bool = False
    sync_every: int = 0
    nvml_period_ms: float | None = None

    @property
    def is_default(self) -> bool:
        return self == StreamConfig()

    def to_dict(self) -> dict:
        d: dict = {"kernels": self.kernels}
        if self.launch_gap_us is not None:
            d["launch_gap_us"] = self.launch_gap_us
        d["graph"] = self.graph
        d["sync_every"] = self.sync_every
        if self.nvml_period_ms is not None:
            d["nvml_period_ms"] = self.nvml_period_ms
        return d

    def resolve(self, gpu: GpuSpec) -> StreamTiming:
        """The figures for ``gpu``: the user's where given, else the published defaults."""
        figures, sources = overhead_figures(gpu.name)
        used = {}  # the defaults this stream uses, with their sources
        if self.graph:
            gap, used["gap_us"] = figures["graph_gap_us"], sources["graph_gap_us"]
        elif self.launch_gap_us is None:
            gap, used["gap_us"] = figures["launch_gap_us"], sources["launch_gap_us"]
        else:
            gap = self.launch_gap_us
        if self.sync_every:
            used["sync_gap_us"] = sources["sync_gap_us"]
        if self.kernels == 1:
            used = {}  # one kernel has no gaps
        period = self.nvml_period_ms
        if period is None:
            period, used["nvml_period_ms"] = figures["nvml_period_ms"], sources["nvml_period_ms"]
        return StreamTiming(
            kernels=self.kernels,
            gap_us=float(gap),
            graph=self.graph,
            sync_every=self.sync_every,
            sync_gap_us=float(figures["sync_gap_us"]),
            nvml_period_ms=float(period),
            sources=used,
        )


def _number(field_name: str, value, lo: float, hi: float, unit: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field_name, quoting("not_number", shown(value)))
    value = float(value)
    if not math.isfinite(value):
        raise InputError(field_name, f"{value} is not a finite number")
    if value < lo:
        raise InputError(field_name, ERRORS(f"below_minimum_{unit}", value=value, limit=lo))
    if value > hi:
        raise InputError(field_name, ERRORS(f"above_maximum_{unit}", value=value, limit=hi))
    return value


def parse_stream(data, where: str = "stream") -> StreamConfig:
    """Build a validated StreamConfig from a scenario's ``[stream]`` table (absent: one kernel)."""
    if data is None:
        return StreamConfig()
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    reject_unknown_keys(data, set(KEYS), where)
    graph = data.get("graph", False)
    if not isinstance(graph, bool):
        raise InputError(f"{where}.graph", f"{shown(graph)}; write true (a CUDA Graph) or false (plain launches)")
    gap = data.get("launch_gap_us")
    period = data.get("nvml_period_ms")
    return StreamConfig(
        kernels=require_int(f"{where}.kernels", data.get("kernels", 1), lo=1, hi=MAX_KERNELS),
        launch_gap_us=None if gap is None else _number(f"{where}.launch_gap_us", gap, 0.0, MAX_GAP_US, "us"),
        graph=graph,
        sync_every=require_int(f"{where}.sync_every", data.get("sync_every", 0), lo=0, hi=MAX_KERNELS),
        nvml_period_ms=None if period is None else _number(f"{where}.nvml_period_ms", period, MIN_PERIOD_MS,
                                                           MAX_PERIOD_MS, "ms"),
    )


def parse_overheads(data: dict) -> dict[str, tuple[dict, dict]]:
    """Per catalog GPU: (figures, sources), each figure from its table or from [default]."""
    default = data.get("default")
    if not isinstance(default, dict):
        raise CatalogError("launch_overhead.toml: no [default] table")
    tables = data.get("gpu", {})
    known = gpu_names()  # catalog order: the first error found is the same every run
    for name in tables:
        if name not in known:
            raise CatalogError(f"launch_overhead.toml: gpu.{name} is not in the GPU catalog")
    out = {}
    for name in known:
        figures, sources = {}, {}
        for key in FIGURES:
            table, where = (tables[name], f"gpu.{name}") if key in tables.get(name, {}) else (default, "default")
            value = table.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise CatalogError(f"launch_overhead.toml: {where}.{key}: expected a non-negative number, "
                                   f"got {value!r}")
            source = table.get("sources", {}).get(key)
            if not isinstance(source, str) or not source:
                raise CatalogError(f"launch_overhead.toml: {where}.{key}: the figure has no source in {where}.sources")
            figures[key], sources[key] = float(value), source
        out[name] = (figures, sources)
    return out


@cache
def _overheads() -> dict[str, tuple[dict, dict]]:
    with open(resource("launch_overhead.toml"), "rb") as fh:
        return parse_overheads(tomllib.load(fh))


def overhead_figures(gpu_name: str) -> tuple[dict, dict]:
    """(figures, sources) for one catalog GPU: launch/graph/sync gaps in us, NVML period in ms."""
    figures, sources = _overheads()[gpu_name]
    return dict(figures), dict(sources)
