"""The GPU catalog: typed, validated facts loaded from ``resources/gpus.toml``.

Hardware figures live in the data file with their sources, never as literals in
code; this module only checks that each figure is present, of the right type, has
a source, and is consistent (e.g. warps per SM divide evenly into sub-partitions).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path

from explorer.model.errors import InputError, shown
from explorer.paths import resource


@dataclass(frozen=True)
class ArchSpec:
    """Facts shared by every GPU of one compute capability (occupancy rules, pipes)."""

    compute_capability: str
    family: str
    warp_size: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    registers_per_block: int
    max_registers_per_thread: int
    reg_alloc_max_per_thread: int
    register_alloc_unit: int
    shared_per_sm: int
    shared_per_block: int
    shared_per_block_optin: int
    shared_reserved_per_block: int
    shared_alloc_unit: int
    carveout_kb: tuple[int, ...]
    sub_partitions: int
    barriers_per_block_slot: int
    fp32_lanes_per_sub_partition: int
    sfu_lanes_per_sub_partition: int
    tensor_cores_per_sub_partition: int
    sources: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def cc(self) -> tuple[int, int]:
        major, minor = self.compute_capability.split(".")
        return int(major), int(minor)

    @property
    def max_warps_per_sm(self) -> int:
        return self.max_threads_per_sm // self.warp_size

    @property
    def sm_arch(self) -> str:
        """NVRTC/nvcc target name, e.g. ``sm_90``."""
        major, minor = self.cc
        return f"sm_{major}{minor}"


@dataclass(frozen=True)
class GpuSpec:
    """One product: its architecture plus SM count, clocks, memory and latencies."""

    name: str
    full_name: str
    aliases: tuple[str, ...]
    arch: ArchSpec
    sm_count: int
    boost_clock_mhz: int
    memory_bandwidth_gbs: float
    memory_bytes: int
    l2_bytes: int
    memory_kind: str
    # device memory's organisation (the simulator's row-burst model, resources/sim_model.toml [dram]): the
    # independent channels the bus is split into, and the share of the datasheet bandwidth reads and writes
    # sustain
    dram_channels: int
    dram_read_efficiency: float
    dram_write_efficiency: float
    lat_fma: int
    lat_sfu: int
    lat_shared: int
    lat_l1: int
    lat_l2: int
    lat_dram: int
    lat_mma: int
    tensor_fp16_tflops: float
    sources: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def compute_capability(self) -> str:
        return self.arch.compute_capability

    @property
    def max_warps_per_sm(self) -> int:
        return self.arch.max_warps_per_sm

    @property
    def fp32_tflops(self) -> float:
        """Peak FP32 (FMA = 2 FLOP) at boost clock, from the lanes per sub-partition."""
        lanes = self.arch.fp32_lanes_per_sub_partition * self.arch.sub_partitions
        return self.sm_count * lanes * 2 * self.boost_clock_mhz * 1e6 / 1e12

    @property
    def dram_bytes_per_cycle(self) -> float:
        """Device-memory bandwidth in bytes per SM clock cycle (at boost clock)."""
        return self.memory_bandwidth_gbs * 1e9 / (self.boost_clock_mhz * 1e6)

    @property
    def measured(self):
        """What was measured on this GPU itself (``resources/measured/NAME.toml``), or None.

        A :class:`~explorer.model.measured.MeasuredFacts`: every figure with its unit and its
        source (run, date, method). It is *not* merged into the figures above, which stay the
        published ones with their sources: where a measured figure should replace one (a
        latency, the DRAM curve, a launch gap) is decided where the figure is used, e.g.
        ``spec.measured.value("latency_cycles", "dram_256mib")``.
        """
        from explorer.model.measured import load_measured

        return load_measured(self.name)

    def summary(self) -> dict:
        """The facts ``warp-explorer gpus --json`` prints (``measured``: the measured fragment, or None)."""
        a = self.arch
        return {
            "name": self.name,
            "full_name": self.full_name,
            "compute_capability": a.compute_capability,
            "family": a.family,
            "sm_count": self.sm_count,
            "boost_clock_mhz": self.boost_clock_mhz,
            "max_threads_per_sm": a.max_threads_per_sm,
            "max_warps_per_sm": a.max_warps_per_sm,
            "max_blocks_per_sm": a.max_blocks_per_sm,
            "max_threads_per_block": a.max_threads_per_block,
            "registers_per_sm": a.registers_per_sm,
            "max_registers_per_thread": a.max_registers_per_thread,
            "shared_per_sm": a.shared_per_sm,
            "shared_per_block": a.shared_per_block,
            "shared_per_block_optin": a.shared_per_block_optin,
            "shared_reserved_per_block": a.shared_reserved_per_block,
            "carveout_kb": list(a.carveout_kb),
            "schedulers_per_sm": a.sub_partitions,
            "memory_bandwidth_gbs": self.memory_bandwidth_gbs,
            "memory_bytes": self.memory_bytes,
            "memory_kind": self.memory_kind,
            "l2_bytes": self.l2_bytes,
            "dram_channels": self.dram_channels,
            "dram_read_efficiency": self.dram_read_efficiency,
            "dram_write_efficiency": self.dram_write_efficiency,
            "fp32_tflops": round(self.fp32_tflops, 1),
            "tensor_fp16_tflops": self.tensor_fp16_tflops,
            "latency_cycles": {
                "fma": self.lat_fma,
                "sfu": self.lat_sfu,
                "shared": self.lat_shared,
                "l1": self.lat_l1,
                "l2": self.lat_l2,
                "dram": self.lat_dram,
                "mma": self.lat_mma,
            },
            "measured": None if self.measured is None else self.measured.to_json(),
        }


class CatalogError(Exception):
    """The catalog file itself is malformed (a bug in shipped data, or a user's edit)."""


def _typed(cls, table: dict, where: str, skip: set[str]) -> dict:
    """Check the table against the dataclass fields and return constructor kwargs."""
    out = {}
    sources = table.get("sources", {})
    for f in fields(cls):
        if f.name in skip:
            continue
        if f.name not in table:
            raise CatalogError(f"{where}: missing '{f.name}'")
        value = table[f.name]
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise CatalogError(f"{where}.{f.name}: expected a non-negative integer, got {value!r}")
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise CatalogError(f"{where}.{f.name}: expected a positive number, got {value!r}")
            value = float(value)
        elif kind.startswith("tuple"):
            if not isinstance(value, list):
                raise CatalogError(f"{where}.{f.name}: expected a list, got {value!r}")
            value = tuple(value)
        elif kind == "str":
            if not isinstance(value, str) or not value:
                raise CatalogError(f"{where}.{f.name}: expected text, got {value!r}")
        if kind in ("int", "float", "tuple[int, ...]") and f.name not in sources:
            raise CatalogError(f"{where}.{f.name}: the figure has no source in {where}.sources")
        out[f.name] = value
    out["sources"] = dict(sources)
    return out


def _check_arch(a: ArchSpec) -> None:
    where = f"arch.{a.compute_capability}"
    if a.max_threads_per_sm % a.warp_size:
        raise CatalogError(f"{where}: max_threads_per_sm is not a multiple of warp_size")
    if a.max_warps_per_sm % a.sub_partitions:
        raise CatalogError(f"{where}: warps per SM do not divide into sub_partitions")
    if a.registers_per_sm % a.sub_partitions:
        raise CatalogError(f"{where}: registers per SM do not divide into sub_partitions")
    if a.shared_per_sm // 1024 not in a.carveout_kb:
        raise CatalogError(f"{where}: shared_per_sm is not one of the carveout sizes")
    if list(a.carveout_kb) != sorted(a.carveout_kb):
        raise CatalogError(f"{where}: carveout_kb must be ascending")


def parse_catalog(data: dict) -> dict[str, GpuSpec]:
    archs: dict[str, ArchSpec] = {}
    for cc, table in data.get("arch", {}).items():
        kwargs = _typed(ArchSpec, table, f"arch.{cc}", {"compute_capability"})
        arch = ArchSpec(compute_capability=cc, **kwargs)
        _check_arch(arch)
        archs[cc] = arch
    gpus: dict[str, GpuSpec] = {}
    for name, table in data.get("gpu", {}).items():
        cc = table.get("compute_capability")
        if cc not in archs:
            raise CatalogError(f"gpu.{name}: compute_capability {cc!r} has no [arch.\"{cc}\"] table")
        kwargs = _typed(GpuSpec, table, f"gpu.{name}", {"name", "arch"})
        gpus[name] = GpuSpec(name=name, arch=archs[cc], **kwargs)
    if not gpus:
        raise CatalogError("the catalog lists no GPUs")
    return gpus


@cache
def load_catalog(path: Path | None = None) -> dict[str, GpuSpec]:
    """All GPUs by canonical name (cached; the file is read once per process)."""
    path = path or resource("gpus.toml")
    with open(path, "rb") as fh:
        return parse_catalog(tomllib.load(fh))


def gpu_names() -> list[str]:
    return list(load_catalog())


def _key(text: str) -> str:
    return text.strip().lower().replace(" ", "").replace("_", "-")


def get_gpu(name: str, field_name: str = "gpu") -> GpuSpec:
    """Look a GPU up by name or alias, case-insensitively."""
    if not isinstance(name, str):
        raise InputError(field_name, f"{shown(name)} is not a GPU name")
    wanted = _key(name)
    for spec in load_catalog().values():
        if wanted == _key(spec.name) or wanted in {_key(a) for a in spec.aliases}:
            return spec
    raise InputError(field_name, f"unknown GPU {shown(name)}; known: {', '.join(gpu_names())}")
