"""The memory hierarchy of one GPU as data: per level capacity, latency, bandwidth,
scope (thread / block / SM / GPU) and who manages it, each figure with its source.

The levels differ not only in speed: registers belong to one thread and are
allocated by the compiler; shared memory belongs to one block and is managed by the
program; L1 is a per-SM hardware cache sharing its SRAM with shared memory; L2 is
one cache for the whole GPU; HBM is the device memory every SM (and the host) sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.gemm.data import throughput
from explorer.model.sim_model import model_constants
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import InputError, require_int
from explorer.model.workload import Op
from explorer.texts.names import LEVEL_NAME, PLACE

SCOPES = ("thread", "block", "SM", "GPU")


@dataclass(frozen=True)
class MemoryLevel:
    key: str  # registers, shared, l1, l2, hbm
    name: str  # explorer.texts.names.LEVEL_NAME's Message: English, and the record (device memory's kind) to word
    scope: str  # one of SCOPES: who can see the data
    location: str  # where it lives physically
    managed_by: str
    capacity_bytes: int  # one instance (per SM for on-SM levels, whole GPU otherwise)
    instances: int  # how many of them the GPU has
    limit_bytes: int | None  # the most one thread (registers) or one block (shared) may hold
    latency_cycles: int | None  # None: operands are read within the issue pipeline
    bandwidth_gbs: float  # GPU-wide aggregate, GB/s
    bandwidth_bytes_per_clock_per_sm: float
    sources: dict = field(default_factory=dict)

    @property
    def total_bytes(self) -> int:
        return self.capacity_bytes * self.instances

    def latency_ns(self, clock_mhz: float) -> float | None:
        return None if self.latency_cycles is None else self.latency_cycles * 1e3 / clock_mhz

    def to_json(self, clock_mhz: float) -> dict:
        return {
            "key": self.key, "name": self.name, "scope": self.scope, "location": self.location,
            "managed_by": self.managed_by, "capacity_bytes": self.capacity_bytes, "instances": self.instances,
            "total_bytes": self.total_bytes, "limit_bytes": self.limit_bytes,
            "latency_cycles": self.latency_cycles, "latency_ns": self.latency_ns(clock_mhz),
            "bandwidth_gbs": self.bandwidth_gbs,
            "bandwidth_bytes_per_clock_per_sm": self.bandwidth_bytes_per_clock_per_sm,
            "sources": dict(self.sources),
        }


def memory_hierarchy(gpu: GpuSpec | str) -> tuple[MemoryLevel, ...]:
    """Registers, shared memory, L1, L2, HBM of ``gpu``, nearest the math units first."""
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    a = gpu.arch
    tp = throughput(gpu)
    consts = model_constants()
    clock_ghz = gpu.boost_clock_mhz / 1000.0
    sms = gpu.sm_count
    lanes = a.fp32_lanes_per_sub_partition * a.sub_partitions
    reg_bpc = lanes * 3 * 4  # three 4-byte source operands per FP32 lane per clock
    smem_bpc = float(consts["shared"]["bytes_per_cycle"])
    l1_bpc = float(consts["l1tex"]["bytes_per_cycle"])
    l2_gbs = tp.l2_bandwidth_gbs.value
    src = gpu.sources
    return (
        MemoryLevel(
            "registers", LEVEL_NAME("registers"), "thread", *PLACE["registers"],
            a.registers_per_sm * 4, sms, a.max_registers_per_thread * 4, None,
            reg_bpc * sms * clock_ghz, reg_bpc,
            {"capacity_bytes": f"gpus.toml arch {a.compute_capability}: {a.registers_per_sm} 32-bit registers per SM",
             "limit_bytes": f"{a.max_registers_per_thread} registers per thread (PG)",
             "latency_cycles": f"read within the pipeline; a dependent FFMA waits {gpu.lat_fma} cycles "
                               f"({src.get('lat_fma', 'gpus.toml')})",
             "bandwidth_gbs": f"estimate: 3 source operands x 4 B per FP32 lane ({lanes}/SM) per clock; "
                              "ignores the operand reuse cache and Tensor Core operand paths"}),
        MemoryLevel(
            "shared", LEVEL_NAME("shared"), "block", *PLACE["shared"],
            a.shared_per_sm, sms, a.shared_per_block_optin, gpu.lat_shared,
            smem_bpc * sms * clock_ghz, smem_bpc,
            {"capacity_bytes": f"gpus.toml arch {a.compute_capability}: shared_per_sm (largest carveout)",
             "limit_bytes": "gpus.toml: shared_per_block_optin",
             "latency_cycles": src.get("lat_shared", "gpus.toml"),
             "bandwidth_gbs": "sim_model.toml [shared]: 32 banks x 4 B per clock per SM"}),
        MemoryLevel(
            "l1", LEVEL_NAME("l1"), "SM", *PLACE["l1"],
            int(tp.l1_shared_bytes_per_sm.value), sms, None, gpu.lat_l1,
            l1_bpc * sms * clock_ghz, l1_bpc,
            {"capacity_bytes": f"L1 + shared together: {tp.l1_shared_bytes_per_sm.source}; the carveout decides "
                               "how much of it is L1",
             "latency_cycles": src.get("lat_l1", "gpus.toml"),
             "bandwidth_gbs": "sim_model.toml [l1tex]: 128 B per clock per SM"}),
        MemoryLevel(
            "l2", LEVEL_NAME("l2"), "GPU", *PLACE["l2"],
            gpu.l2_bytes, 1, None, gpu.lat_l2, l2_gbs, tp.l2_bytes_per_clock.value / sms,
            {"capacity_bytes": src.get("l2_bytes", "gpus.toml"),
             "latency_cycles": src.get("lat_l2", "gpus.toml"),
             "bandwidth_gbs": tp.l2_bandwidth_gbs.source}),
        MemoryLevel(
            "hbm", LEVEL_NAME("hbm", kind=gpu.memory_kind), "GPU", *PLACE["hbm"],
            gpu.memory_bytes, 1, None, gpu.lat_dram, gpu.memory_bandwidth_gbs,
            gpu.memory_bandwidth_gbs / (sms * clock_ghz),
            {"capacity_bytes": src.get("memory_bytes", "gpus.toml"),
             "latency_cycles": src.get("lat_dram", "gpus.toml"),
             "bandwidth_gbs": src.get("memory_bandwidth_gbs", "gpus.toml")}),
    )


def hierarchy_json(gpu: GpuSpec | str) -> dict:
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    return {"gpu": gpu.name, "clock_mhz": gpu.boost_clock_mhz,
            "levels": [lv.to_json(gpu.boost_clock_mhz) for lv in memory_hierarchy(gpu)]}


@dataclass(frozen=True)
class AccessPattern:
    """A warp-wide global access: what the threads asked for and what moves."""

    bytes_per_thread: int
    stride: int  # elements between neighbouring threads (1 = coalesced)
    useful_bytes: int  # 32 threads x bytes_per_thread
    bytes_per_request: int  # whole 32-byte sectors the warp touches
    sectors: int

    @property
    def efficiency(self) -> float:
        return self.useful_bytes / self.bytes_per_request


def access_pattern(bytes_per_thread: int = 4, stride: int = 1) -> AccessPattern:
    """Coalesced vs strided: the same sector arithmetic the simulator uses (Workload Op)."""
    nbytes = require_int("bytes_per_thread", bytes_per_thread, lo=1, hi=16)
    if nbytes not in (4, 8, 16):
        raise InputError("bytes_per_thread", f"{nbytes}; choose 4, 8 or 16 (vector widths)")
    stride = require_int("stride", stride, lo=1, hi=1024)
    op = Op("ldg", bytes=nbytes, stride=stride)
    moved = op.bytes_per_request
    return AccessPattern(nbytes, stride, op.useful_bytes, moved, moved // 32)


def coalescing_table(bytes_per_thread: int = 4, strides=(1, 2, 4, 8, 16, 32)) -> list[AccessPattern]:
    return [access_pattern(bytes_per_thread, s) for s in strides]
