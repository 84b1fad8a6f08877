"""The GEMM mapper: C[M x N] = A[M x K] x B[K x N] on one GPU, as plain data.

Input: the shape, the data type, a CTA tile BM x BN x BK, warps per CTA, the warp
tile and the number of shared-memory pipeline stages (defaults per data type from
``resources/gemm.toml``). Output, a :class:`GemmPlan`:

* the grid (one CTA per output tile), registers and shared memory per CTA derived
  from the tile, and the occupancy those give (``explorer.occupancy``);
* waves and wave quantization (``explorer.gemm.waves``);
* FLOPs (2·M·N·K), the minimum HBM bytes ((M·K + K·N + M·N) x element size:
  inputs read once, the output written once, in the input's element size) and
  the arithmetic intensity;
* bytes per level, HBM -> L2 -> shared -> registers -> Tensor Cores, with the
  reuse each level's tiling buys;
* Tensor Core MMA instructions beside everything else (copies, fragment loads,
  barriers, address math, epilogue);
* a predicted time: the largest of the math, issue, HBM, L2 and latency terms,
  and which one it is (the *bound*).

Exact: grid, tiles, waves, FLOPs, minimum bytes, bytes per level for L2 and
below, instruction counts of MMAs, copies and fragment loads. Modelled (each
assumption listed in ``GemmPlan.assumptions``): registers per thread, HBM bytes
beyond the minimum (L2 reuse across a wave), address/epilogue instructions, and
the time terms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from explorer.gemm.data import (
    DTypeSpec,
    Figure,
    dtype_spec,
    gemm_data,
    peak_tflops,
    sim_model_constants,
    throughput,
)
from explorer.gemm.waves import (
    TileSchedule,
    WaveStats,
    ceil_div,
    panels_touched,
    wave_stats,
)
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import InputError, require_int
from explorer.occupancy import OccupancyResult, theoretical_occupancy

MAX_DIM = 2**31 - 1  # CUDA's int32 matrix dimensions
MAX_TILE_DIM = 1024
MAX_STAGES = 8
MAX_WAVES_EXACT = 20_000  # HBM model: beyond this many waves, sample them

BOUND_OF_TERM = {"tensor_core": "compute", "fp32_pipe": "compute", "issue": "compute",
                 "shared": "memory", "hbm": "memory", "l2": "memory", "latency": "latency"}


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tile:
    bm: int
    bn: int
    bk: int

    def __str__(self) -> str:
        return f"{self.bm}x{self.bn}x{self.bk}"


_SEP = re.compile(r"\s*[x×X*,]\s*")


def _parse_dims(value, field_name: str, count: int, example: str) -> tuple[int, ...]:
    if isinstance(value, str):
        parts = _SEP.split(value.strip())
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        raise InputError(field_name, f"{value!r} is not a size like {example}")
    if len(parts) != count or any(p == "" for p in parts):
        raise InputError(field_name, f"{value!r} is not a size like {example} ({count} numbers)")
    return tuple(require_int(field_name, p, lo=1, hi=MAX_TILE_DIM) for p in parts)


def parse_tile(value, field_name: str = "tile") -> Tile:
    """``"128x128x64"`` (or a Tile, or three numbers) -> Tile; each side 1..1024."""
    if isinstance(value, Tile):
        value = (value.bm, value.bn, value.bk)
    return Tile(*_parse_dims(value, field_name, 3, "128x128x64"))


def parse_warp_tile(value, field_name: str = "warp_tile") -> tuple[int, int]:
    """``"64x64"`` -> (64, 64)."""
    return _parse_dims(value, field_name, 2, "64x64")  # type: ignore[return-value]


# ---------------------------------------------------------------------------
# Tile -> warps -> registers, shared memory, occupancy
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TileResources:
    """What one CTA of the GEMM needs, and the occupancy that gives."""

    dtype: str
    tile: Tile
    warps: int
    warps_m: int
    warps_n: int
    warp_tile_m: int
    warp_tile_n: int
    thread_tile_m: int  # FP32 (SIMT) only: outputs per thread along M and N; 0 otherwise
    thread_tile_n: int
    stages: int
    registers_per_thread: int
    register_breakdown: dict  # accumulators, fragments, overhead
    shared_bytes_per_block: int
    shared_breakdown: dict  # a_per_stage, b_per_stage, stages
    occupancy: OccupancyResult
    notes: tuple[str, ...] = ()

    @property
    def threads(self) -> int:
        return self.warps * 32

    @property
    def blocks_per_sm(self) -> int:
        return self.occupancy.active_blocks_per_sm


_SIMT_LANES = ((4, 8), (8, 4), (2, 16), (16, 2), (1, 32), (32, 1))


def _simt_thread_tile(wm: int, wn: int) -> tuple[int, int] | None:
    best = None
    for lm, ln in _SIMT_LANES:
        if wm % lm == 0 and wn % ln == 0:
            tm, tn = wm // lm, wn // ln
            if best is None or tm + tn < best[0] + best[1]:
                best = (tm, tn)
    return best


def _warp_tile_ok(dt: DTypeSpec, wm: int, wn: int) -> bool:
    if dt.tensor_core:
        return wm % dt.mma_m == 0 and wn % dt.mma_n == 0
    return _simt_thread_tile(wm, wn) is not None


def _warp_layout(dt: DTypeSpec, tile: Tile, warps: int) -> tuple[int, int] | None:
    """(warps_m, warps_n) splitting the tile into valid warp tiles, as square as possible."""
    best = None
    for wm_count in range(1, warps + 1):
        if warps % wm_count:
            continue
        wn_count = warps // wm_count
        if tile.bm % wm_count or tile.bn % wn_count:
            continue
        wm, wn = tile.bm // wm_count, tile.bn // wn_count
        if not _warp_tile_ok(dt, wm, wn):
            continue
        key = (wm + wn, -wm)
        if best is None or key < best[0]:
            best = (key, (wm_count, wn_count))
    return None if best is None else best[1]


def _register_parts(dt: DTypeSpec, wm: int, wn: int, model) -> tuple[int, int, int, int]:
    """(accumulators, fragment registers, thread tile m, thread tile n) per thread for a warp tile."""
    if dt.tensor_core:
        acc = wm * wn // 32  # FP32 accumulators spread over the warp's 32 lanes
        frag = ceil_div((wm + wn) * dt.mma_k * dt.bytes, 32 * 4) * model.fragment_buffers
        return acc, frag, 0, 0
    tm, tn = _simt_thread_tile(wm, wn)  # type: ignore[misc]
    return tm * tn, (tm + tn) * model.fragment_buffers, tm, tn


def _default_warps(dt: DTypeSpec, tile: Tile, arch, model) -> tuple[int, tuple[int, int] | None]:
    """The data type's default warp count, doubled (or halved) until the tile splits and fits registers."""
    max_warps = arch.max_threads_per_block // arch.warp_size
    candidates = []
    w = min(dt.default_warps, max_warps)
    while w <= max_warps:
        candidates.append(w)
        w *= 2
    w = min(dt.default_warps, max_warps) // 2
    while w >= 1:
        candidates.append(w)
        w //= 2
    first = None
    for w in candidates:
        layout = _warp_layout(dt, tile, w)
        if layout is None:
            continue
        first = first or (w, layout)
        acc, frag, _, _ = _register_parts(dt, tile.bm // layout[0], tile.bn // layout[1], model)
        regs = acc + frag + model.register_overhead
        per_warp = -(-regs * arch.warp_size // arch.register_alloc_unit) * arch.register_alloc_unit
        if regs <= arch.max_registers_per_thread and per_warp * w <= arch.registers_per_block:
            return w, layout
    return first or (min(dt.default_warps, max_warps), None)


def _mma_text(dt: DTypeSpec) -> str:
    return f"m{dt.mma_m}n{dt.mma_n}k{dt.mma_k}"


def tile_resources(
    gpu: GpuSpec | str,
    dtype: str,
    tile=None,
    warps=None,
    warp_tile=None,
    stages=None,
) -> TileResources:
    """Registers, shared memory and occupancy of one GEMM CTA (defaults from gemm.toml).

    Raises InputError (naming the field and the limit) for a tile that does not
    split into warps, needs more than the per-thread register maximum, or does not
    fit the per-block shared-memory limit.
    """
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    arch = gpu.arch
    dt = dtype_spec(dtype)
    model = gemm_data().model
    notes: list[str] = []
    tile_given = tile is not None
    tile = parse_tile(tile) if tile_given else Tile(*dt.default_tile)
    if dt.tensor_core:
        for name, size, unit in (("BM", tile.bm, dt.mma_m), ("BN", tile.bn, dt.mma_n), ("BK", tile.bk, dt.mma_k)):
            if size % unit:
                raise InputError("tile", f"{name} = {size} is not a multiple of {unit}, the {_mma_text(dt)} "
                                         f"{dt.name} MMA shape")

    # -- warps and the warp tile ----------------------------------------------
    max_warps = arch.max_threads_per_block // arch.warp_size
    if warp_tile is not None:
        wm, wn = parse_warp_tile(warp_tile)
        if tile.bm % wm or tile.bn % wn:
            raise InputError("warp_tile", f"{wm}x{wn} does not divide the {tile.bm}x{tile.bn} CTA tile")
        if not _warp_tile_ok(dt, wm, wn):
            unit = f"multiples of {dt.mma_m}x{dt.mma_n} ({_mma_text(dt)})" if dt.tensor_core else "a multiple of 32 outputs"
            raise InputError("warp_tile", f"{wm}x{wn} is not {unit}")
        wm_count, wn_count = tile.bm // wm, tile.bn // wn
        n_warps = wm_count * wn_count
        if warps is not None and require_int("warps", warps, lo=1, hi=max_warps) != n_warps:
            raise InputError("warp_tile", f"{wm}x{wn} warp tiles make {n_warps} warps per {tile.bm}x{tile.bn} tile, "
                                          f"not the {warps} asked for")
        if n_warps > max_warps:
            raise InputError("warp_tile", f"{wm}x{wn} makes {n_warps} warps per CTA, above the limit of {max_warps} "
                                          f"({arch.max_threads_per_block} threads)")
    else:
        if warps is not None:
            n_warps = require_int("warps", warps, lo=1, hi=max_warps)
            layout = _warp_layout(dt, tile, n_warps)
        else:
            n_warps, layout = _default_warps(dt, tile, arch, model)
            if n_warps != dt.default_warps:
                notes.append(f"{dt.default_warps} warps do not suit the {tile} tile; using {n_warps}")
        if layout is None:
            what = f"warp tiles that are multiples of {dt.mma_m}x{dt.mma_n}" if dt.tensor_core else "warp tiles"
            if warps is None:
                raise InputError("tile", f"{tile.bm}x{tile.bn} does not split into {what} for any warp count "
                                         f"up to {max_warps}")
            raise InputError("warps", f"{n_warps} warps cannot split the {tile.bm}x{tile.bn} tile into {what}; "
                                      f"try a power of two up to {max_warps}")
        wm_count, wn_count = layout
        wm, wn = tile.bm // wm_count, tile.bn // wn_count

    # -- shared memory -----------------------------------------------------------
    a_stage = tile.bm * tile.bk * dt.bytes
    b_stage = tile.bn * tile.bk * dt.bytes
    limit = arch.shared_per_block_optin
    if stages is not None:
        n_stages = require_int("stages", stages, lo=1, hi=MAX_STAGES)
    else:
        n_stages = dt.default_stages
        while n_stages > 1 and n_stages * (a_stage + b_stage) > limit:
            n_stages -= 1
        if n_stages != dt.default_stages:
            notes.append(f"{dt.default_stages} stages of a {tile} tile do not fit {gpu.name}'s shared memory; "
                         f"using {n_stages}")
    smem = n_stages * (a_stage + b_stage)
    if smem > limit:
        field_name = "stages" if stages is not None and (a_stage + b_stage) <= limit else "tile"
        raise InputError(field_name, f"{tile} with {n_stages} stage(s) needs {smem} B of shared memory per block "
                                     f"({n_stages} x ({tile.bm}+{tile.bn}) x {tile.bk} x {dt.bytes} B), above the "
                                     f"limit of {limit} B on {gpu.name}")

    # -- registers ---------------------------------------------------------------
    acc, frag, tm, tn = _register_parts(dt, wm, wn, model)
    regs = acc + frag + model.register_overhead
    if regs > arch.max_registers_per_thread:
        field_name = "warp_tile" if warp_tile is not None else ("warps" if warps is not None else "tile")
        raise InputError(field_name, f"a {wm}x{wn} warp tile needs about {regs} registers per thread ({acc} accumulators "
                                     f"+ {frag} fragment + {model.register_overhead} other), above the limit of "
                                     f"{arch.max_registers_per_thread}; use more warps or a smaller tile")

    occ = theoretical_occupancy(gpu, n_warps * 32, regs, 0, smem, -1, 1)
    if occ.active_blocks_per_sm == 0:
        field_name = "warp_tile" if warp_tile is not None else ("warps" if warps is not None else "tile")
        if "registers" in occ.limiters:
            raise InputError(field_name, f"{n_warps} warps x 32 threads x {regs} registers need "
                                         f"{occ.allocated_registers_per_block} registers per CTA, above the limit of "
                                         f"{arch.registers_per_block}; use fewer warps or a smaller tile")
        raise InputError(field_name, f"no CTA of this tile fits on an SM (limiter: {', '.join(occ.limiters)})")
    return TileResources(
        dtype=dt.name, tile=tile, warps=n_warps, warps_m=wm_count, warps_n=wn_count,
        warp_tile_m=wm, warp_tile_n=wn, thread_tile_m=tm, thread_tile_n=tn, stages=n_stages,
        registers_per_thread=regs,
        register_breakdown={"accumulators": acc, "fragments": frag, "overhead": model.register_overhead},
        shared_bytes_per_block=smem,
        shared_breakdown={"a_per_stage": a_stage, "b_per_stage": b_stage, "stages": n_stages},
        occupancy=occ, notes=tuple(notes),
    )


# ---------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LevelTraffic:
    """Bytes that cross one boundary of the memory hierarchy over the whole GEMM."""

    level: str  # hbm, l2, shared, registers
    path: str  # e.g. "HBM -> L2"
    read_bytes: int  # toward the math units
    write_bytes: int  # the output (or the copy landing in shared memory)
    intensity: float  # FLOPs per byte crossing this boundary (read + write)
    reuse: float  # times each operand byte read here is used: 2·M·N·K·bytes / read_bytes
    note: str

    @property
    def bytes(self) -> int:
        return self.read_bytes + self.write_bytes


@dataclass(frozen=True)
class GemmPlan:
    gpu: str
    dtype: str
    m: int
    n: int
    k: int
    resources: TileResources
    tiles_m: int
    tiles_n: int
    k_steps: int
    waves: WaveStats
    flops: int  # 2·M·N·K
    executed_flops: int  # including the padding of edge tiles
    element_bytes: int
    output_bytes_per_element: int
    min_hbm_bytes: int
    hbm_bytes: int  # modelled: inputs re-read when they do not stay in L2, plus the output
    l2_hit_rate: float  # of the global loads (global -> shared copies)
    traffic: tuple[LevelTraffic, ...]
    instructions: dict  # category -> warp-instructions over the whole kernel
    peak: Figure  # TFLOPS of the math units this data type uses
    times: dict  # term -> seconds
    bound: str  # compute, memory, latency
    bound_term: str  # the largest term: tensor_core / fp32_pipe / issue / shared / hbm / l2 / latency
    predicted_seconds: float
    launch_overhead_seconds: float
    tile_latency_cycles: float
    assumptions: tuple[str, ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    # -- convenient views ---------------------------------------------------------
    @property
    def tile(self) -> Tile:
        return self.resources.tile

    @property
    def tiles(self) -> int:
        return self.tiles_m * self.tiles_n

    @property
    def grid(self) -> tuple[int, int, int]:
        """(x, y, z): x along N, y along M (blockIdx.x = tile column)."""
        return (self.tiles_n, self.tiles_m, 1)

    @property
    def blocks_per_sm(self) -> int:
        return self.resources.blocks_per_sm

    @property
    def occupancy(self) -> OccupancyResult:
        return self.resources.occupancy

    @property
    def arithmetic_intensity(self) -> float:
        return self.flops / self.min_hbm_bytes

    @property
    def tile_efficiency(self) -> float:
        """Useful FLOPs / executed FLOPs: what padding the edge tiles wastes."""
        return self.flops / self.executed_flops

    @property
    def mma_instructions(self) -> int:
        return self.instructions.get("mma", 0)

    @property
    def total_instructions(self) -> int:
        return sum(self.instructions.values())

    @property
    def tensor_core_instruction_fraction(self) -> float:
        return self.mma_instructions / self.total_instructions

    @property
    def achieved_tflops(self) -> float:
        return self.flops / self.predicted_seconds / 1e12

    @property
    def math_busy_seconds(self) -> float:
        """Time the math units (Tensor Cores, or FP32 pipes) need for the useful FLOPs at peak."""
        return self.flops / (self.peak.value * 1e12)

    @property
    def time_split(self) -> dict:
        """The predicted time split into math-unit work at peak and everything else (seconds)."""
        busy = min(self.math_busy_seconds, self.predicted_seconds)
        return {"math": busy, "other": self.predicted_seconds - busy,
                "math_fraction": busy / self.predicted_seconds}

    def level(self, name: str) -> LevelTraffic:
        for t in self.traffic:
            if t.level == name:
                return t
        raise KeyError(name)

    def schedule(self) -> TileSchedule:
        """Which SM computes which tile in which wave (idealized dispatcher)."""
        return TileSchedule(self.tiles_m, self.tiles_n, get_gpu(self.gpu).sm_count, self.blocks_per_sm)

    def to_json(self) -> dict:
        r = self.resources
        occ = r.occupancy.to_json()
        return {
            "gpu": self.gpu,
            "dtype": self.dtype,
            "m": self.m, "n": self.n, "k": self.k,
            "tile": str(r.tile),
            "tile_m": r.tile.bm, "tile_n": r.tile.bn, "tile_k": r.tile.bk,
            "warps_per_cta": r.warps,
            "threads_per_cta": r.threads,
            "warp_tile": f"{r.warp_tile_m}x{r.warp_tile_n}",
            "warp_layout": f"{r.warps_m}x{r.warps_n}",
            "stages": r.stages,
            "k_steps": self.k_steps,
            "grid": list(self.grid),
            "tiles": self.tiles,
            "tiles_m": self.tiles_m,
            "tiles_n": self.tiles_n,
            "registers_per_thread": r.registers_per_thread,
            "register_breakdown": dict(r.register_breakdown),
            "shared_bytes_per_block": r.shared_bytes_per_block,
            "shared_breakdown": dict(r.shared_breakdown),
            "occupancy": occ,
            "blocks_per_sm": self.blocks_per_sm,
            "sm_count": self.waves.sm_count,
            "waves": self.waves.waves,
            "full_waves": self.waves.full_waves,
            "wave_efficiency": self.waves.efficiency,
            "last_wave_tiles": self.waves.last_wave_tiles,
            "flops": self.flops,
            "executed_flops": self.executed_flops,
            "tile_efficiency": self.tile_efficiency,
            "element_bytes": self.element_bytes,
            "output_bytes_per_element": self.output_bytes_per_element,
            "min_hbm_bytes": self.min_hbm_bytes,
            "arithmetic_intensity": self.arithmetic_intensity,
            "hbm_bytes": self.hbm_bytes,
            "l2_hit_rate": self.l2_hit_rate,
            "bytes_per_level": {
                t.level: {"path": t.path, "read_bytes": t.read_bytes, "write_bytes": t.write_bytes,
                          "bytes": t.bytes, "intensity": t.intensity, "reuse": t.reuse, "note": t.note}
                for t in self.traffic
            },
            "instructions": dict(self.instructions),
            "total_instructions": self.total_instructions,
            "mma_instructions": self.mma_instructions,
            "other_instructions": self.total_instructions - self.mma_instructions,
            "tensor_core_instruction_fraction": self.tensor_core_instruction_fraction,
            "peak_tflops": self.peak.value,
            "peak_source": self.peak.source,
            "times_seconds": dict(self.times),
            "bound": self.bound,
            "bound_term": self.bound_term,
            "predicted_seconds": self.predicted_seconds,
            "achieved_tflops": self.achieved_tflops,
            "time_split": self.time_split,
            "launch_overhead_seconds": self.launch_overhead_seconds,
            "tile_latency_cycles": self.tile_latency_cycles,
            "notes": list(self.notes),
            "assumptions": list(self.assumptions),
        }


def _hbm_input_reads(m, n, k, b, tile: Tile, tiles_m, tiles_n, slots, l2_usable) -> tuple[int, str]:
    """HBM bytes for A and B: once if they stay in L2, else the panels each wave touches."""
    a_total, b_total = m * k * b, k * n * b
    if a_total + b_total <= l2_usable:
        return a_total + b_total, "A and B fit in the usable L2: each byte is read from HBM once"
    tiles = tiles_m * tiles_n
    n_waves = ceil_div(tiles, slots)
    step = 1 if n_waves <= MAX_WAVES_EXACT else n_waves / MAX_WAVES_EXACT
    sampled = range(n_waves) if step == 1 else sorted({int(i * step) for i in range(MAX_WAVES_EXACT)})
    total = 0
    for w in sampled:
        first = w * slots
        stop = min(first + slots, tiles)
        (r0, r1), cols = panels_touched(first, stop, tiles_n)
        rows = min(m, (r1 + 1) * tile.bm) - r0 * tile.bm
        width = sum(min(n, (c1 + 1) * tile.bn) - c0 * tile.bn for c0, c1 in cols)
        total += (rows + width) * k * b
    if step != 1:
        total = int(total * n_waves / len(sampled))
    return max(a_total + b_total, total), (
        "A and B exceed the usable L2: each wave reads the A row-panels and B column-panels its tiles touch "
        "(row-major tile order), so B panels are re-read every wave")


def _instruction_counts(gpu: GpuSpec, dt: DTypeSpec, r: TileResources, tiles: int, k_steps: int) -> dict:
    """Warp-instructions of the whole kernel by category (see module docstring)."""
    model = gemm_data().model
    t = r.tile
    per_copy = model.copy_bytes_per_thread * 32
    copies = ceil_div((t.bm + t.bn) * t.bk * dt.bytes, per_copy)  # per CTA per K-step
    async_copy = gpu.arch.cc >= (8, 0)
    copy_instr = copies if async_copy else 2 * copies  # cp.async, or LDG + STS
    if dt.tensor_core:
        lds_w = ceil_div((r.warp_tile_m + r.warp_tile_n) * t.bk * dt.bytes, model.shared_bytes_per_warp_load)
        math_w = (r.warp_tile_m // dt.mma_m) * (r.warp_tile_n // dt.mma_n) * (t.bk // dt.mma_k)
    else:
        lds_w = ceil_div((r.thread_tile_m + r.thread_tile_n) * t.bk * dt.bytes, 16)  # LDS.128 per thread
        math_w = r.warp_tile_m * r.warp_tile_n * t.bk // 32
    bars_w = 1 if r.stages >= 2 else 2
    per_step = tiles * k_steps
    lds = per_step * r.warps * lds_w
    copy_total = per_step * copy_instr
    addr = per_step * (r.warps * model.loop_ops_per_k_step
                       + model.address_ops_per_memory_op * (copies + r.warps * lds_w))
    acc = r.register_breakdown["accumulators"]
    stores = ceil_div(t.bm * t.bn * dt.bytes, per_copy)
    epilogue = tiles * (r.warps * acc * model.epilogue_ops_per_accumulator
                        + stores * (1 + model.address_ops_per_memory_op))
    out = {
        "mma" if dt.tensor_core else "ffma": per_step * r.warps * math_w,
        "global_to_shared": copy_total,
        "shared_to_registers": lds,
        "barrier": per_step * r.warps * bars_w,
        "address_and_loop": addr,
        "epilogue": epilogue,
    }
    return out


def plan_gemm(
    gpu: GpuSpec | str,
    m,
    n,
    k,
    dtype: str = "fp16",
    tile=None,
    warps=None,
    warp_tile=None,
    stages=None,
) -> GemmPlan:
    """Map an M x N x K GEMM onto ``gpu``; every field of the result is plain data.

    Bad input raises :class:`InputError` naming the field and the limit.
    """
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    m = require_int("m", m, lo=1, hi=MAX_DIM)
    n = require_int("n", n, lo=1, hi=MAX_DIM)
    k = require_int("k", k, lo=1, hi=MAX_DIM)
    dt = dtype_spec(dtype)
    peak = peak_tflops(gpu, dt.name)
    r = tile_resources(gpu, dt.name, tile, warps, warp_tile, stages)
    data = gemm_data()
    model = data.model
    tp = throughput(gpu)
    t = r.tile
    b = ob = dt.bytes

    tiles_m, tiles_n = ceil_div(m, t.bm), ceil_div(n, t.bn)
    tiles = tiles_m * tiles_n
    k_steps = ceil_div(k, t.bk)
    ws = wave_stats(tiles, gpu.sm_count, r.blocks_per_sm)
    flops = 2 * m * n * k
    tile_flops = 2 * t.bm * t.bn * t.bk * k_steps
    executed = tiles * tile_flops
    min_hbm = (m * k + k * n + m * n) * b

    # -- bytes per level -----------------------------------------------------------
    untiled = 2 * m * n * k * b  # every multiply-add reading its A and B element from memory
    c_bytes = m * n * ob
    l2_reads = tiles_n * m * k * b + tiles_m * k * n * b  # each CTA loads its A row-panel and B column-panel
    l2_usable = int(gpu.l2_bytes * model.l2_usable_fraction)
    hbm_reads, hbm_note = _hbm_input_reads(m, n, k, b, t, tiles_m, tiles_n, ws.slots, l2_usable)
    hbm_reads = min(hbm_reads, l2_reads)
    hbm = hbm_reads + c_bytes
    l2_hit = 1.0 - hbm_reads / l2_reads
    smem_reads = tiles * k_steps * r.warps * (r.warp_tile_m + r.warp_tile_n) * t.bk * b
    if dt.tensor_core:
        n_mma = tiles * k_steps * r.warps * (r.warp_tile_m // dt.mma_m) * (r.warp_tile_n // dt.mma_n) * (t.bk // dt.mma_k)
        reg_reads = n_mma * (dt.mma_m * dt.mma_k + dt.mma_k * dt.mma_n) * b
        unit = "Tensor Cores"
        reg_note = f"A and B operands of every {_mma_text(dt)} MMA; accumulators stay in registers"
    else:
        reg_reads = executed // 2 * 2 * b  # two register operands per FFMA lane
        unit = "FP32 pipes"
        reg_note = "two register operands per FFMA; the accumulator stays in its register"

    def lvl(level, path, rd, wr, note):
        return LevelTraffic(level, path, rd, wr, flops / (rd + wr), untiled / rd, note)

    traffic = (
        lvl("hbm", "HBM -> L2", hbm_reads, c_bytes, hbm_note),
        lvl("l2", "L2 -> shared memory", l2_reads, c_bytes,
            f"every CTA loads an A panel ({t.bm} x K) and a B panel (K x {t.bn}): A is read {tiles_n}x, B {tiles_m}x"),
        lvl("shared", "shared memory -> registers", smem_reads, l2_reads,
            f"each warp reads its {r.warp_tile_m} x {t.bk} A and {t.bk} x {r.warp_tile_n} B fragments per K-step "
            "(write = the copies landing in shared memory)"),
        lvl("registers", f"registers -> {unit}", reg_reads, 0, reg_note),
    )

    instructions = _instruction_counts(gpu, dt, r, tiles, k_steps)

    # -- time terms ------------------------------------------------------------------
    clock = gpu.boost_clock_mhz * 1e6
    consts = sim_model_constants()
    hbm_eff = float(consts["dram"]["efficiency"])
    barrier = float(consts["barrier"]["release_latency"])
    per_sm_peak = peak.value * 1e12 / gpu.sm_count
    busiest = ceil_div(tiles, gpu.sm_count)  # tiles the busiest SM computes (equal tiles, grid-order dispatch)
    math_term = "tensor_core" if dt.tensor_core else "fp32_pipe"
    total_instr = sum(instructions.values())
    smem_bpc = float(consts["shared"]["bytes_per_cycle"])
    tile_smem_bytes = (smem_reads + l2_reads) / tiles  # fragment reads + copies landing, per tile
    per_sp_flops = peak.value * 1e12 / (gpu.sm_count * gpu.arch.sub_partitions * clock)
    math_per_warp_step = tile_flops / k_steps / r.warps / dt.flops_per_instruction
    lat_mem = l2_hit * gpu.lat_l2 + (1 - l2_hit) * gpu.lat_dram
    lat_math = gpu.lat_mma if dt.tensor_core else gpu.lat_fma
    step = gpu.lat_shared + lat_math + barrier
    if r.stages >= 2:  # the pipeline keeps stages - 1 loads in flight
        step = max(step, lat_mem / (r.stages - 1))
    else:  # nothing overlaps inside the CTA: load, copy, fragments, MMAs one after another
        step += lat_mem + tile_smem_bytes / k_steps / smem_bpc + math_per_warp_step * dt.flops_per_instruction / per_sp_flops
    tile_cycles = lat_mem + k_steps * step + gpu.lat_l2
    times = {
        math_term: busiest * tile_flops / per_sm_peak,
        "issue": busiest * (total_instr / tiles) / (gpu.arch.sub_partitions * clock),
        "shared": busiest * tile_smem_bytes / (smem_bpc * clock),
        "hbm": hbm / (gpu.memory_bandwidth_gbs * 1e9 * hbm_eff),
        "l2": (l2_reads + c_bytes) / (tp.l2_bandwidth_gbs.value * 1e9),
        "latency": ws.full_waves * tile_cycles / clock,
    }
    bound_term = max(times, key=lambda key: times[key])
    predicted = times[bound_term]

    assumptions = (
        f"C is written in the input's element size ({ob} B); accumulation is FP32 in registers",
        (f"registers per thread = accumulators + {model.fragment_buffers}x-buffered fragments + "
        f"{model.register_overhead} (estimate); a compiler's count will differ"),
        "shared memory per CTA = stages x (BM + BN) x BK x element size (the epilogue reuses it)",
        f"HBM model: {hbm_note}; usable L2 = {model.l2_usable_fraction:g} x {gpu.l2_bytes} B",
        (f"HBM time at {hbm_eff:g} x the datasheet bandwidth (sim_model.toml dram.efficiency); "
        f"L2 time at {tp.l2_bandwidth_gbs.value:.0f} GB/s ({tp.l2_bandwidth_gbs.source})"),
        (f"math time: the busiest SM computes ceil(tiles / SMs) = {busiest} tiles at the peak "
        f"{peak.value:g} TFLOPS / {gpu.sm_count} SMs ({peak.source})"),
        (f"shared-memory time at {smem_bpc:g} B/clock per SM (sim_model.toml [shared]) for the fragment reads and "
        "the copies landing, on the busiest SM"),
        ("latency: per K-step max(shared + MMA + barrier latency, memory latency / (stages - 1)); with 1 stage the "
        "CTA's memory latency, copies, fragment loads and MMAs add up; CTAs resident together overlap their "
        "latency; one wave after another"),
        ("instructions: MMAs, copies (cp.async from CC 8.0, LDG+STS before), fragment loads and barriers are "
        "counted exactly for the tiling; address math and epilogue are estimates"),
        ("mainloop in the mma.sync style (fragments go shared -> registers -> Tensor Cores); Hopper/Blackwell "
        "warpgroup MMAs read operands straight from shared memory and cut the shared-memory traffic"),
        ("predicted time = the largest term (a roofline-style bound, no overlap penalties); "
        "launch overhead is reported apart"),
    )
    return GemmPlan(
        gpu=gpu.name, dtype=dt.name, m=m, n=n, k=k, resources=r,
        tiles_m=tiles_m, tiles_n=tiles_n, k_steps=k_steps, waves=ws,
        flops=flops, executed_flops=executed, element_bytes=b, output_bytes_per_element=ob,
        min_hbm_bytes=min_hbm, hbm_bytes=hbm, l2_hit_rate=l2_hit, traffic=traffic,
        instructions=instructions, peak=peak, times=times, bound=BOUND_OF_TERM[bound_term],
        bound_term=bound_term, predicted_seconds=predicted,
        launch_overhead_seconds=model.launch_overhead_us * 1e-6, tile_latency_cycles=tile_cycles,
        assumptions=assumptions, notes=r.notes,
    )

