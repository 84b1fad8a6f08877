"""The throughput units the simulator counts busy time on, each with its peak and the source of the peak.

The source text's question, "what limits useful work right now?", is answered the
way Nsight Compute's Speed-of-Light section answers it: how busy was each unit
against its peak. The loop counts each unit's busy time where the work is done
(a pipe when an instruction issues into it, a memory level when it moves the
bytes), per time window; this module says what 100% of each unit is, in the
loop's counting units and in the units a person reads (FLOP/s, B/s), and where
that peak comes from (``resources/``: gpus.toml, gpu_throughput.toml,
sim_model.toml).

Counting units (what the loop adds per event; ``capacity`` is the 100% per cycle):

- ``issue``: 1 per warp-instruction issued; capacity = SMs x schedulers.
- ``fp32``, ``int``, ``sfu``, ``tensor``, ``lsu`` (pipes of a sub-partition): the
  cycles a warp-instruction holds the pipe (32 threads / lanes; for ``tensor`` the
  MMA's FLOPs / FLOP per clock per sub-partition, fractional); capacity = SMs x
  schedulers.
- ``l1``, ``shared``: wavefront cycles of the SM's 128 B/clk data path; capacity = SMs.
- ``l2``, ``dram``: cycles of the GPU-wide peak rate the bytes take; capacity = 1.
"""

from __future__ import annotations

from explorer.texts.bottleneck import LABEL as TEXT_LABEL  # the units' names, one table for core and window
from explorer.texts.names import UNIT_MEANING

import tomllib
from dataclasses import dataclass
from functools import cache

from explorer.model.catalog import CatalogError, GpuSpec, load_catalog
from explorer.paths import resource

UNITS = ("issue", "fp32", "int", "sfu", "tensor", "lsu", "l1", "shared", "l2", "dram")
ISSUE, FP32, INT, SFU, TENSOR, LSU, L1, SHARED, L2, DRAM = range(len(UNITS))
# per-sub-partition pipes, contiguous: pipe index = unit - FIRST_PIPE
FIRST_PIPE, LAST_PIPE = FP32, LSU
N_PIPES = LAST_PIPE - FIRST_PIPE + 1

MEANING = UNIT_MEANING  # what each unit does (explorer/texts/names.py: the window translates them by name)
LABEL = {u: TEXT_LABEL[u] for u in ("issue", "fp32", "int", "sfu", "tensor", "lsu", "l1", "shared", "l2", "dram")}


@dataclass(frozen=True)
class Figure:
    """A number with the source it comes from (what the views show on hover)."""

    value: float
    source: str


# gpu_throughput.toml's figures: per compute capability, per GPU, and the Tensor Core peaks the catalog lacks
ARCH_FIGURES = ("l1_shared_bytes_per_sm", "int32_lanes_per_sub_partition", "lsu_lanes_per_sub_partition")
GPU_FIGURES = ("tensor_clock_mhz", "l2_bytes_per_clock")
TENSOR_PEAKS = ("tf32_tflops", "bf16_tflops", "fp8_tflops")  # dense TFLOPS; 0: no Tensor Core path ("unsupported:")


@dataclass(frozen=True)
class ThroughputTable:
    """``resources/gpu_throughput.toml``, validated: every figure a positive number (a Tensor Core peak 0 when its
    source starts "unsupported:") with a source; one table per catalog GPU and per compute capability it needs.

    The one load of the file: the simulator's units (:func:`unit_facts`) and the GEMM model
    (``explorer.gemm.data.throughput``) both read it."""

    arch: dict  # compute capability -> figure name -> Figure
    gpu: dict  # GPU name -> figure name -> Figure


def _throughput_where(where: str, key: str) -> str:
    return f"gpu_throughput.toml {where}.{key}"


def _figure(table: dict, key: str, where: str, *, integer: bool = False, allow_zero: bool = False) -> Figure:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (value == 0 and not allow_zero):
        expected = "a non-negative number" if allow_zero else "a positive number"
        raise CatalogError(f"{_throughput_where(where, key)}: expected {expected}, got {value!r}")
    if integer and not isinstance(value, int):
        raise CatalogError(f"{_throughput_where(where, key)}: expected an integer, got {value!r}")
    source = table.get("sources", {}).get(key)
    if not isinstance(source, str) or not source.strip():
        raise CatalogError(f"{_throughput_where(where, key)}: the figure has no source in {where}.sources")
    if value == 0 and not source.lower().startswith("unsupported"):
        raise CatalogError(f"{_throughput_where(where, key)}: 0 means unsupported, and its source must start with "
                           "'unsupported:'")
    return Figure(float(value), source)


def parse_throughput_table(data: dict, catalog: dict[str, GpuSpec]) -> ThroughputTable:
    """Validate gpu_throughput.toml's ``data`` against the GPU ``catalog`` (a CatalogError names the first fault)."""
    arch: dict[str, dict[str, Figure]] = {}
    for cc, t in data.get("arch", {}).items():
        where = f'arch."{cc}"'
        arch[cc] = {key: _figure(t, key, where, integer=key == "l1_shared_bytes_per_sm") for key in ARCH_FIGURES}
    tables = data.get("gpu", {})
    gpu: dict[str, dict[str, Figure]] = {}
    for name, spec in catalog.items():
        where = f"gpu.{name}"
        t = tables.get(name)
        if not isinstance(t, dict):
            raise CatalogError(f"gpu_throughput.toml: no [{where}] for the catalog's GPU {name}")
        cc = spec.compute_capability
        if cc not in arch:
            raise CatalogError(f'gpu_throughput.toml: no [arch."{cc}"] (needed by {name})')
        if arch[cc]["l1_shared_bytes_per_sm"].value < spec.arch.shared_per_sm:
            raise CatalogError(f'gpu_throughput.toml arch."{cc}".l1_shared_bytes_per_sm is below the catalog\'s '
                               "shared_per_sm")
        figures = {key: _figure(t, key, where, allow_zero=True) for key in TENSOR_PEAKS}
        figures.update({key: _figure(t, key, where) for key in GPU_FIGURES})
        gpu[name] = figures
    extra = set(tables) - set(catalog)
    if extra:
        raise CatalogError(f"gpu_throughput.toml: [gpu.{min(extra)}] is not in gpus.toml")
    return ThroughputTable(arch, gpu)


@cache
def _throughput_file() -> dict:
    path = resource("gpu_throughput.toml")
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from None


@cache
def throughput_table() -> ThroughputTable:
    """The shipped gpu_throughput.toml, read and validated once per process."""
    return parse_throughput_table(_throughput_file(), load_catalog())


@dataclass(frozen=True)
class UnitFacts:
    """The figures of one GPU the units need beyond gpus.toml's, with their sources."""

    int32_lanes: Figure  # per sub-partition
    lsu_lanes: Figure  # per sub-partition
    tensor_clock_mhz: Figure  # the clock the datasheet's dense Tensor figure is stated at
    l2_bytes_per_clock: Figure  # GPU-wide, per SM clock
    l1_shared_bytes_per_sm: Figure  # the unified L1 data cache + shared memory of one SM


@cache
def unit_facts(gpu: GpuSpec) -> UnitFacts:
    table = throughput_table()
    arch = table.arch[gpu.compute_capability]
    figures = table.gpu[gpu.name]
    return UnitFacts(
        int32_lanes=arch["int32_lanes_per_sub_partition"],
        lsu_lanes=arch["lsu_lanes_per_sub_partition"],
        tensor_clock_mhz=figures["tensor_clock_mhz"],
        l2_bytes_per_clock=figures["l2_bytes_per_clock"],
        l1_shared_bytes_per_sm=arch["l1_shared_bytes_per_sm"],
    )


def tensor_flops_per_clock_per_sm(gpu: GpuSpec) -> float:
    """Dense FP16 Tensor FLOP per clock per SM: the datasheet peak at the clock it is stated at."""
    return gpu.tensor_fp16_tflops * 1e12 / (gpu.sm_count * unit_facts(gpu).tensor_clock_mhz.value * 1e6)


@dataclass(frozen=True)
class UnitPeak:
    """100% of one unit: per cycle in the loop's counting units, and per second for people."""

    name: str
    capacity: float  # busy counts per cycle at 100% (see the module docstring)
    peak: float  # per second, in ``units``
    units: str
    source: str

    @property
    def meaning(self) -> str:
        return MEANING[self.name]


def unit_peaks(gpu: GpuSpec, params) -> tuple[UnitPeak, ...]:
    """Every unit's peak for a run with ``params`` (explorer.sim.params.SimParams), in UNITS order."""
    a = gpu.arch
    facts = unit_facts(gpu)
    sms, sps = params.sm_count, params.sub_partitions
    hz = params.clock_mhz * 1e6
    clock = f"{params.clock_mhz:g} MHz"
    schedulers = sms * sps
    fp32 = a.fp32_lanes_per_sub_partition
    sfu = a.sfu_lanes_per_sub_partition
    l1 = params.l1_bytes_per_cycle
    sh = params.shared_bytes_per_cycle
    return (
        UnitPeak("issue", schedulers, schedulers * hz, "warp-instructions/s",
                 f"1 warp-instruction per cycle per scheduler (gpus.toml sub_partitions: {a.sources.get('sub_partitions')}) "
                 f"x {sps} x {sms} SMs x {clock}"),
        UnitPeak("fp32", schedulers, schedulers * fp32 * 2 * hz, "FLOP/s",
                 f"{fp32} FP32 lanes per scheduler ({a.sources.get('fp32_lanes_per_sub_partition')}) x {sps} x "
                 f"{sms} SMs x 2 FLOP (FMA) x {clock}"),
        UnitPeak("int", schedulers, schedulers * facts.int32_lanes.value * hz, "ops/s",
                 f"{facts.int32_lanes.value:g} INT32 lanes per scheduler ({facts.int32_lanes.source}) x {sps} x "
                 f"{sms} SMs x {clock}"),
        UnitPeak("sfu", schedulers, schedulers * sfu * hz, "ops/s",
                 f"{sfu} SFU lanes per scheduler ({a.sources.get('sfu_lanes_per_sub_partition')}) x {sps} x "
                 f"{sms} SMs x {clock}"),
        UnitPeak("tensor", schedulers, gpu.tensor_fp16_tflops * 1e12, "FLOP/s",
                 f"dense FP16 {gpu.tensor_fp16_tflops:g} TFLOP/s ({gpu.sources.get('tensor_fp16_tflops')}) = "
                 f"{sms} SMs x {tensor_flops_per_clock_per_sm(gpu):.0f} FLOP/clk x "
                 f"{facts.tensor_clock_mhz.value:g} MHz ({facts.tensor_clock_mhz.source})"),
        UnitPeak("lsu", schedulers, schedulers * facts.lsu_lanes.value / a.warp_size * hz, "warp-instructions/s",
                 f"{facts.lsu_lanes.value:g} LD/ST lanes per scheduler ({facts.lsu_lanes.source}): one warp-instruction "
                 f"per {a.warp_size / facts.lsu_lanes.value:g} cycles x {sps} x {sms} SMs x {clock}"),
        UnitPeak("l1", sms, sms * l1 * hz, "B/s", f"{l1} B/clk per SM (sim_model.toml [l1tex]) x {sms} SMs x {clock}"),
        UnitPeak("shared", sms, sms * sh * hz, "B/s",
                 f"{sh} B/clk per SM (sim_model.toml [shared]: 32 banks x 4 B) x {sms} SMs x {clock}"),
        UnitPeak("l2", 1.0, params.l2_bytes_per_cycle * hz, "B/s",
                 f"{params.l2_bytes_per_cycle:g} B/clk ({facts.l2_bytes_per_clock.source}) x {clock}"),
        UnitPeak("dram", 1.0, params.dram_bytes_per_cycle * hz, "B/s",
                 f"{params.dram_bytes_per_cycle * hz / 1e9:.0f} GB/s ({gpu.sources.get('memory_bandwidth_gbs')})"),
    )
