"""Typed, validated loaders for ``resources/gemm.toml``, and the GEMM's view of ``resources/gpu_throughput.toml``
(loaded and validated once, by the model: ``explorer.model.units.throughput_table``).

Hardware figures and model assumptions live in the data files with a source next
to each one; this module checks each is present, of the right type and sourced,
and turns them into frozen dataclasses. Nothing here imports Qt or numpy.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from explorer.model.languages import text_in, texts_by_language
from explorer.model.catalog import CatalogError, GpuSpec, load_catalog
from explorer.model.errors import InputError
from explorer.model.units import Figure, ThroughputTable, parse_throughput_table, throughput_table
from explorer.paths import resource
from explorer.texts.errors import ERRORS

DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8")
TENSOR_DTYPES = ("tf32", "fp16", "bf16", "fp8")


class GemmDataError(Exception):
    """A shipped data file (gemm.toml, gpu_throughput.toml) is malformed."""


# ---------------------------------------------------------------------------
# small typed readers
# ---------------------------------------------------------------------------
def _num(table: dict, key: str, where: str, *, integer: bool = False, allow_zero: bool = False) -> float | int:
    if key not in table:
        raise GemmDataError(f"{where}: missing '{key}'")
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise GemmDataError(f"{where}.{key}: expected a number, got {v!r}")
    if integer and not isinstance(v, int):
        raise GemmDataError(f"{where}.{key}: expected an integer, got {v!r}")
    if v < 0 or (v == 0 and not allow_zero):
        raise GemmDataError(f"{where}.{key}: expected a {'non-negative' if allow_zero else 'positive'} number, got {v!r}")
    return v if integer else float(v)


def _source(table: dict, key: str, where: str) -> str:
    src = table.get("sources", {}).get(key)
    if not isinstance(src, str) or not src.strip():
        raise GemmDataError(f"{where}.{key}: the figure has no source in {where}.sources")
    return src


def _text(table: dict, key: str, where: str) -> str:
    v = table.get(key)
    if not isinstance(v, str) or not v:
        raise GemmDataError(f"{where}.{key}: expected text")
    return v


def _flag(table: dict, key: str, where: str) -> bool:
    v = table.get(key)
    if not isinstance(v, bool):
        raise GemmDataError(f"{where}.{key}: expected true or false")
    return v


def _load(name: str, path: Path | None) -> dict:
    path = path or resource(name)
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise GemmDataError(f"{path}: not valid TOML ({exc})") from None


# ---------------------------------------------------------------------------
# gemm.toml
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DTypeSpec:
    """One GEMM input type: element size, MMA instruction shape, default tiling."""

    name: str
    label: str
    bytes: int
    tensor_core: bool
    mma_m: int
    mma_n: int
    mma_k: int
    default_tile: tuple[int, int, int]
    default_warps: int
    default_stages: int
    wgmma_tile: tuple[int, int, int] | None = None  # the wgmma path's default tile (Tensor Core types)
    sources: dict = field(default_factory=dict, compare=False, repr=False)
    label_texts: tuple[tuple[str, str], ...] = ()  # the label in other languages (gemm.toml's label.ru, ...)

    def label_in(self, lang: str) -> str:
        """The label in ``lang`` (a language code), English where gemm.toml has none in it."""
        return text_in(self.label, self.label_texts, lang)

    @property
    def flops_per_instruction(self) -> int:
        """FLOPs of one warp-instruction: an m x n x k MMA, or 32 lanes x one FFMA."""
        if self.tensor_core:
            return 2 * self.mma_m * self.mma_n * self.mma_k
        return 2 * 32


@dataclass(frozen=True)
class GemmModel:
    """The assumptions of the GEMM performance model (see gemm.toml [model])."""

    register_overhead: int
    fragment_buffers: int
    copy_bytes_per_thread: int
    shared_bytes_per_warp_load: int
    address_ops_per_memory_op: int
    loop_ops_per_k_step: int
    epilogue_ops_per_accumulator: int
    l2_usable_fraction: float
    launch_overhead_us: float
    tile_group_rows: int = 1
    sources: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class AttentionModel:
    softmax_flops_per_score: int
    block_q: int
    block_kv: int
    lse_bytes: int
    sources: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class WgmmaModel:
    """The warp-specialized wgmma + TMA kernels (gemm.toml [wgmma])."""

    compute_capabilities: tuple[str, ...]  # CCs that have the path
    default_schedule: str  # cooperative or pingpong
    default_cluster: tuple[int, int]  # CTAs along M x N
    producer_warpgroups: int  # TMA
    consumer_warpgroups: int  # wgmma
    producer_registers: int  # setmaxnreg.dec
    consumer_registers: int  # setmaxnreg.inc
    epilogue_tile_n: int  # columns of a staged epilogue sub-tile
    epilogue_stages: int  # sub-tiles in flight
    barriers_per_stage: int  # mbarriers (full, empty)
    consumer_register_overhead: int  # beyond the accumulators
    sources: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class AsyncMma:
    """The asynchronous MMA instruction of one compute capability (gemm.toml [async_mma])."""

    cc: str  # "9.0"
    instruction: str  # PTX name
    mma_m: int  # rows per instruction
    max_n: int  # columns per instruction (multiples of 8)
    b_per_consumer: bool  # each consumer warpgroup reads B itself
    accumulators: str  # registers, tensor_memory
    sources: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class GemmClock:
    """The clock a GEMM's per-clock figures convert at, and the rate it sustains (gemm.toml [clock])."""

    gpu: str
    peak_clock_mhz: float  # the clock the math units' peak is stated at (Tensor Cores, or the FP32 pipes)
    sustained_fraction: float  # of that rate, what a long dense GEMM keeps
    sources: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def effective_mhz(self) -> float:
        """The clock every per-clock figure of the GEMM model converts at."""
        return self.peak_clock_mhz * self.sustained_fraction


SCHEDULES = ("cooperative", "pingpong")
ACCUMULATORS = ("registers", "tensor_memory")


@dataclass(frozen=True)
class GemmData:
    dtypes: dict  # name -> DTypeSpec
    model: GemmModel
    attention: AttentionModel
    wgmma: WgmmaModel
    async_mma: dict  # CC -> AsyncMma
    clocks: dict  # GPU name -> raw table (resolved against the catalog by gemm_clock)


def parse_gemm_data(data: dict) -> GemmData:
    dt_tables = data.get("dtype", {})
    dtypes: dict[str, DTypeSpec] = {}
    for name in DTYPES:
        where = f"dtype.{name}"
        t = dt_tables.get(name)
        if not isinstance(t, dict):
            raise GemmDataError(f"gemm.toml: missing [{where}]")
        for key in ("bytes", "mma_shape", "tile"):
            _source(t, key, where)
        label, label_texts = texts_by_language(t.get("label"), f"{where}.label",
                                               lambda f, m: GemmDataError(f"gemm.toml: {f}: {m}"))
        if not label:
            raise GemmDataError(f"{where}.label: expected text")
        tc = _flag(t, "tensor_core", where)
        shape = t.get("mma_shape")
        tile = t.get("tile")
        for key, v in (("mma_shape", shape), ("tile", tile)):
            if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                and x > 0 for x in v)):
                raise GemmDataError(f"{where}.{key}: expected three positive integers, got {v!r}")
        if tc and (tile[0] % shape[0] or tile[1] % shape[1] or tile[2] % shape[2]):
            raise GemmDataError(f"{where}.tile: {tile} is not a multiple of the MMA shape {shape}")
        wt = t.get("wgmma_tile")
        if tc:
            _source(t, "wgmma_tile", where)
            if not (isinstance(wt, list) and len(wt) == 3 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                 and x > 0 for x in wt)):
                raise GemmDataError(f"{where}.wgmma_tile: expected three positive integers, got {wt!r}")
            if wt[0] % 64 or wt[1] % 8 or wt[2] % shape[2]:
                raise GemmDataError(f"{where}.wgmma_tile: {wt} is not a multiple of [64, 8, {shape[2]}]")
        elif wt is not None:
            raise GemmDataError(f"{where}.wgmma_tile: a type without Tensor Cores has no wgmma tile")
        dtypes[name] = DTypeSpec(
            name=name,
            label=label,
            label_texts=label_texts,
            bytes=int(_num(t, "bytes", where, integer=True)),
            tensor_core=tc,
            mma_m=shape[0], mma_n=shape[1], mma_k=shape[2],
            default_tile=tuple(tile),
            default_warps=int(_num(t, "warps", where, integer=True)),
            default_stages=int(_num(t, "stages", where, integer=True)),
            wgmma_tile=tuple(wt) if tc else None,
            sources=dict(t.get("sources", {})),
        )
    unknown = set(dt_tables) - set(DTYPES)
    if unknown:
        raise GemmDataError(f"gemm.toml: unknown data type [dtype.{min(unknown)}]")

    m = data.get("model", {})
    ints = ("register_overhead", "fragment_buffers", "copy_bytes_per_thread", "shared_bytes_per_warp_load",
            "address_ops_per_memory_op", "loop_ops_per_k_step", "epilogue_ops_per_accumulator", "tile_group_rows")
    kw = {k: int(_num(m, k, "model", integer=True, allow_zero=True)) for k in ints}
    for k in ints + ("l2_usable_fraction", "launch_overhead_us"):
        _source(m, k, "model")
    frac = _num(m, "l2_usable_fraction", "model")
    if frac > 1:
        raise GemmDataError(f"model.l2_usable_fraction: {frac} is above 1")
    if m.get("output_same_as_input") is not True:
        raise GemmDataError("model.output_same_as_input: only true is modelled (the CLI contract's min_hbm_bytes)")
    model = GemmModel(**kw, l2_usable_fraction=frac,
                      launch_overhead_us=_num(m, "launch_overhead_us", "model", allow_zero=True),
                      sources=dict(m.get("sources", {})))
    if min(model.fragment_buffers, model.copy_bytes_per_thread, model.shared_bytes_per_warp_load,
           model.tile_group_rows) < 1:
        raise GemmDataError("model: fragment_buffers, copy_bytes_per_thread, shared_bytes_per_warp_load, "
                            "tile_group_rows must be >= 1")

    a = data.get("attention", {})
    akeys = ("softmax_flops_per_score", "block_q", "block_kv", "lse_bytes")
    for k in akeys:
        _source(a, k, "attention")
    attention = AttentionModel(**{k: int(_num(a, k, "attention", integer=True, allow_zero=(k == "lse_bytes")))
                                  for k in akeys}, sources=dict(a.get("sources", {})))
    async_mma = _parse_async_mma(data.get("async_mma", {}))
    wgmma = _parse_wgmma(data.get("wgmma", {}), async_mma)
    clocks = data.get("clock", {})
    if not isinstance(clocks, dict):
        raise GemmDataError("gemm.toml: [clock] must be a table of GPUs")
    return GemmData(dtypes=dtypes, model=model, attention=attention, wgmma=wgmma, async_mma=async_mma,
                    clocks=clocks)


def _parse_wgmma(w: dict, async_mma: dict) -> WgmmaModel:
    where = "wgmma"
    ints = ("producer_warpgroups", "consumer_warpgroups", "producer_registers", "consumer_registers",
            "epilogue_tile_n", "epilogue_stages", "barriers_per_stage", "consumer_register_overhead")
    for k in ints + ("compute_capabilities", "default_schedule", "default_cluster"):
        _source(w, k, where)
    kw = {k: int(_num(w, k, where, integer=True, allow_zero=(k == "consumer_register_overhead"))) for k in ints}
    ccs = w.get("compute_capabilities")
    if not (isinstance(ccs, list) and ccs and all(isinstance(c, str) for c in ccs)):
        raise GemmDataError(f"{where}.compute_capabilities: expected a list of CC strings like \"9.0\"")
    missing = [c for c in ccs if c not in async_mma]
    if missing:
        raise GemmDataError(f"{where}.compute_capabilities: no [async_mma.\"{missing[0]}\"]")
    sched = w.get("default_schedule")
    if sched not in SCHEDULES:
        raise GemmDataError(f"{where}.default_schedule: {sched!r}; expected one of {', '.join(SCHEDULES)}")
    cl = w.get("default_cluster")
    if not (isinstance(cl, list) and len(cl) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                          and 1 <= x <= 8 for x in cl)):
        raise GemmDataError(f"{where}.default_cluster: expected two integers 1..8, got {cl!r}")
    if kw["consumer_warpgroups"] != 2 or kw["producer_warpgroups"] != 1:
        raise GemmDataError(f"{where}: only 1 producer + 2 consumer warpgroups (the CUTLASS schedules) are modelled")
    return WgmmaModel(compute_capabilities=tuple(ccs), default_schedule=sched, default_cluster=tuple(cl), **kw,
                      sources=dict(w.get("sources", {})))


def _parse_async_mma(tables: dict) -> dict:
    out = {}
    for cc, t in tables.items():
        where = f"async_mma.{cc}"
        if not isinstance(t, dict):
            raise GemmDataError(f"gemm.toml: [{where}] must be a table")
        for k in ("instruction", "mma_m", "max_n", "b_per_consumer", "accumulators"):
            _source(t, k, where)
        instr = _text(t, "instruction", where)
        b_per = _flag(t, "b_per_consumer", where)
        acc = t.get("accumulators")
        if acc not in ACCUMULATORS:
            raise GemmDataError(f"{where}.accumulators: {acc!r}; expected one of {', '.join(ACCUMULATORS)}")
        mma_m = int(_num(t, "mma_m", where, integer=True))
        max_n = int(_num(t, "max_n", where, integer=True))
        if mma_m % 64 or max_n % 8:
            raise GemmDataError(f"{where}: mma_m must be a multiple of 64 and max_n of 8")
        out[cc] = AsyncMma(cc, instr, mma_m, max_n, b_per, acc, sources=dict(t.get("sources", {})))
    return out


@cache
def gemm_data(path: Path | None = None) -> GemmData:
    return parse_gemm_data(_load("gemm.toml", path))


def gemm_clock(gpu: GpuSpec, tensor_core: bool = True) -> GemmClock:
    """The clock a GEMM on ``gpu`` converts its per-clock figures at (gemm.toml [clock.NAME]).

    Tensor-Core GEMMs: the clock the Tensor peak is stated at (``tensor_clock_mhz``
    where it is not the boost clock); FP32 GEMMs: the boost clock their derived peak
    uses. Either times the sustained fraction. Every catalog GPU has a table.
    """
    t = gemm_data().clocks.get(gpu.name)
    where = f"clock.{gpu.name}"
    if not isinstance(t, dict):
        raise GemmDataError(f"gemm.toml: no [{where}] for the catalog's GPU {gpu.name}")
    frac = _num(t, "sustained_fraction", where)
    if frac > 1:
        raise GemmDataError(f"{where}.sustained_fraction: {frac} is above 1")
    _source(t, "sustained_fraction", where)
    sources = {"sustained_fraction": t["sources"]["sustained_fraction"]}
    if tensor_core and "tensor_clock_mhz" in t:
        mhz = float(_num(t, "tensor_clock_mhz", where))
        sources["peak_clock_mhz"] = _source(t, "tensor_clock_mhz", where)
    else:
        mhz = float(gpu.boost_clock_mhz)
        what = "the Tensor peak" if tensor_core else "the FP32 peak (lanes x SMs x 2 x clock)"
        sources["peak_clock_mhz"] = (f"gpus.toml boost clock ({gpu.sources.get('boost_clock_mhz', 'gpus.toml')}): "
                                     f"{what} is stated at it")
    return GemmClock(gpu.name, mhz, float(frac), sources)


def dtype_spec(name, field_name: str = "dtype") -> DTypeSpec:
    """The data type by name (case-insensitive), or an InputError listing the choices."""
    key = name.strip().lower() if isinstance(name, str) else name
    specs = gemm_data().dtypes
    if key not in specs:
        raise InputError(field_name, f"{name!r} is not a data type; choose one of {', '.join(DTYPES)}")
    return specs[key]


# ---------------------------------------------------------------------------
# gpu_throughput.toml: the model's one load and validation (explorer.model.units), typed for the GEMM views
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GpuThroughput:
    """Peak math throughput per data type and L2/L1 figures of one GPU."""

    gpu: str
    peak_tflops: dict  # dtype -> Figure (0 = no Tensor Core path for that type)
    l2_bytes_per_clock: Figure
    l2_bandwidth_gbs: Figure
    l1_shared_bytes_per_sm: Figure

    def supports(self, dtype: str) -> bool:
        return self.peak_tflops[dtype].value > 0

    @property
    def supported_dtypes(self) -> tuple[str, ...]:
        return tuple(d for d in DTYPES if self.supports(d))


def _gpu_throughput(table: ThroughputTable, spec: GpuSpec) -> GpuThroughput:
    """One GPU's GEMM figures from the validated table: FP32 and FP16 peaks from the catalog, the rest from it."""
    figures = table.gpu[spec.name]
    lanes = spec.arch.fp32_lanes_per_sub_partition * spec.arch.sub_partitions
    peaks = {
        "fp32": Figure(spec.fp32_tflops,
                       f"derived (gpus.toml): {lanes} FP32 lanes/SM x {spec.sm_count} SMs x 2 FLOP x "
                       f"{spec.boost_clock_mhz} MHz"),
        "fp16": Figure(spec.tensor_fp16_tflops, spec.sources.get("tensor_fp16_tflops", "gpus.toml")),
    }
    for dt in ("tf32", "bf16", "fp8"):
        peaks[dt] = figures[f"{dt}_tflops"]
    bpc = figures["l2_bytes_per_clock"]
    return GpuThroughput(
        gpu=spec.name,
        peak_tflops={d: peaks[d] for d in DTYPES},
        l2_bytes_per_clock=bpc,
        l2_bandwidth_gbs=Figure(bpc.value * spec.boost_clock_mhz / 1000.0,
                                f"{bpc.value:g} B/clk x {spec.boost_clock_mhz} MHz boost clock; {bpc.source}"),
        l1_shared_bytes_per_sm=table.arch[spec.compute_capability]["l1_shared_bytes_per_sm"],
    )


def parse_throughput(data: dict, catalog: dict[str, GpuSpec]) -> dict[str, GpuThroughput]:
    """Every catalog GPU's figures from gpu_throughput.toml's ``data`` (validated by the model's one validator;
    a fault is a GemmDataError here, as for gemm.toml)."""
    try:
        table = parse_throughput_table(data, catalog)
    except CatalogError as exc:
        raise GemmDataError(str(exc)) from None
    return {name: _gpu_throughput(table, spec) for name, spec in catalog.items()}


@cache
def load_throughput(path: Path | None = None) -> dict[str, GpuThroughput]:
    """The shipped file as the model loaded it (``path``: another file, read and validated the same way)."""
    catalog = load_catalog()
    if path is not None:
        return parse_throughput(_load("gpu_throughput.toml", path), catalog)
    try:
        table = throughput_table()
    except CatalogError as exc:
        raise GemmDataError(str(exc)) from None
    return {name: _gpu_throughput(table, spec) for name, spec in catalog.items()}


def throughput(gpu: GpuSpec) -> GpuThroughput:
    return load_throughput()[gpu.name]


def peak_tflops(gpu: GpuSpec, dtype: str, field_name: str = "dtype") -> Figure:
    """Peak dense TFLOPS for ``dtype`` on ``gpu``; an InputError if the type has no path there."""
    spec = dtype_spec(dtype, field_name)
    tp = throughput(gpu)
    fig = tp.peak_tflops[spec.name]
    if fig.value <= 0:
        raise InputError(field_name, ERRORS("no_tensor_core", dtype=spec.name, gpu=gpu.name,
                                            cc=gpu.compute_capability, choices=", ".join(tp.supported_dtypes)))
    return fig

