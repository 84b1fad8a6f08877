"""The GEMM mapper: C[M x N] = A[M x K] x B[K x N] on one GPU, as plain data.

Input: the shape, the data type, the main-loop path (``explorer.gemm.pipeline``:
``wgmma`` by default where the GPU has it, else ``mma.sync``; ``simt`` for FP32)
and the path's knobs: a CTA tile BM x BN x BK, warps per CTA, warp tile and
stages (mma.sync), or schedule, cluster and A source (wgmma); defaults from
``resources/gemm.toml``. Output, a :class:`GemmPlan`:

* the tile grid, registers and shared memory per CTA derived from the tile, and
  the occupancy those give (``explorer.occupancy``); the pipeline (who copies,
  who computes, where each operand is read from, register budgets);
* waves and wave quantization (``explorer.gemm.waves``);
* FLOPs (2·M·N·K), the minimum HBM bytes ((M·K + K·N + M·N) x element size:
  inputs read once, the output written once, in the input's element size) and
  the arithmetic intensity;
* bytes per level, HBM -> L2 -> shared -> registers -> Tensor Cores, with the
  reuse each level's tiling buys (and, on the wgmma path, what it no longer moves:
  no operand staging through registers, multicast halving L2 reads);
* Tensor Core MMA instructions beside everything else (copies, fragment loads,
  barriers, address math, epilogue);
* a predicted time: the main loop's largest term (Tensor Cores or FP32 pipes,
  issue slots, shared-memory, L2 and HBM bandwidth, latency), which names the
  *bound*, plus what the main loop cannot hide (pipeline fill, epilogue).

Exact: grid, tiles, waves, FLOPs, minimum bytes, bytes per level for L2 and
below, instruction counts of MMAs, copies, fragment loads and barriers. Modelled
(each assumption listed in ``GemmPlan.assumptions`` with its source): registers
per thread, HBM bytes beyond the minimum (L2 reuse across a wave), address and
epilogue instructions, the clocks, and the time terms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.gemm.data import (
    DTypeSpec,
    Figure,
    GemmClock,
    dtype_spec,
    gemm_clock,
    gemm_data,
    peak_tflops,
    throughput,
)
from explorer.model.sim_model import model_constants
from explorer.gemm.pipeline import Pipeline, multistage_pipeline, resolve_path, wgmma_capable
from explorer.gemm.tiles import MAX_STAGES, Tile, TileResources, parse_tile, parse_warp_tile
from explorer.gemm.wgmma import MmaSplit, tmem_buffers, wgmma_instructions, wgmma_resources
from explorer.gemm.waves import (
    TileSchedule,
    WaveStats,
    ceil_div,
    wave_panels,
    wave_stats,
)
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import InputError, require_int
from explorer.occupancy import OccupancyResult, theoretical_occupancy
from explorer.texts.errors import ERRORS
from explorer.texts.gemm import GEMM, path_text
from explorer.texts.message import Message

MAX_DIM = 2**31 - 1  # CUDA's int32 matrix dimensions
MAX_WAVES_EXACT = 20_000  # HBM model: beyond this many waves, sample them

BOUND_OF_TERM = {"tensor_core": "compute", "fp32_pipe": "compute", "issue": "compute",
                 "shared": "memory", "hbm": "memory", "l2": "memory", "latency": "latency",
                 "fill_and_epilogue": "latency"}


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
    path=None,
    schedule=None,
    cluster=None,
    a_source=None,
) -> TileResources:
    """Registers, shared memory, occupancy and pipeline of one GEMM CTA (defaults from gemm.toml).

    ``path`` defaults as in :func:`plan_gemm` (wgmma where the GPU has it).
    Raises InputError (naming the field and the limit) for a tile that does not
    split into warps, needs more than the per-thread register maximum, or does not
    fit the per-block shared-memory limit.
    """
    return _resources(gpu, dtype, tile, warps, warp_tile, stages, path, schedule, cluster, a_source)[0]


def _resources(gpu, dtype, tile, warps, warp_tile, stages, path, schedule, cluster, a_source):
    """(TileResources, MmaSplit or None) for the resolved path."""
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    dt = dtype_spec(dtype)
    chosen = resolve_path(gpu, dt, path)
    if chosen == "wgmma":
        return wgmma_resources(gpu, dt, tile, stages, schedule, cluster, a_source, warps, warp_tile)
    for name, value in (("schedule", schedule), ("cluster", cluster), ("a_source", a_source)):
        if value is not None:
            raise InputError(name, f"only the wgmma path has a {name.replace('_', ' ')}; this plan runs {chosen}")
    return _multistage_resources(gpu, dt, tile, warps, warp_tile, stages), None


def _multistage_resources(gpu: GpuSpec, dt: DTypeSpec, tile, warps, warp_tile, stages) -> TileResources:
    """The mma.sync / SIMT CTA: every warp owns a warp tile of the CTA tile."""
    arch = gpu.arch
    model = gemm_data().model
    notes: list[str] = []
    tile_given = tile is not None
    tile = parse_tile(tile) if tile_given else Tile(*dt.default_tile)
    if dt.tensor_core:
        for name, size, unit in (("BM", tile.bm, dt.mma_m), ("BN", tile.bn, dt.mma_n), ("BK", tile.bk, dt.mma_k)):
            if size % unit:
                raise InputError("tile", ERRORS("not_mma_multiple", name=name, size=size, unit=unit,
                                                shape=_mma_text(dt), dtype=dt.name))

    # -- warps and the warp tile ----------------------------------------------
    max_warps = arch.max_threads_per_block // arch.warp_size
    if warp_tile is not None:
        wm, wn = parse_warp_tile(warp_tile)
        if tile.bm % wm or tile.bn % wn:
            raise InputError("warp_tile", ERRORS("warp_tile_divides", wt=f"{wm}x{wn}", tile=f"{tile.bm}x{tile.bn}"))
        if not _warp_tile_ok(dt, wm, wn):
            raise InputError("warp_tile", ERRORS("warp_tile_mma", wt=f"{wm}x{wn}", unit=f"{dt.mma_m}x{dt.mma_n}",
                                                 shape=_mma_text(dt)) if dt.tensor_core
                             else ERRORS("warp_tile_simt", wt=f"{wm}x{wn}"))
        wm_count, wn_count = tile.bm // wm, tile.bn // wn
        n_warps = wm_count * wn_count
        if warps is not None and require_int("warps", warps, lo=1, hi=max_warps) != n_warps:
            raise InputError("warp_tile", ERRORS("warp_tile_warps", wt=f"{wm}x{wn}", n=n_warps,
                                                 tile=f"{tile.bm}x{tile.bn}", asked=f"{warps}"))
        if n_warps > max_warps:
            raise InputError("warp_tile", ERRORS("warp_tile_warps_limit", wt=f"{wm}x{wn}", n=n_warps, limit=max_warps,
                                                 threads=arch.max_threads_per_block))
    else:
        if warps is not None:
            n_warps = require_int("warps", warps, lo=1, hi=max_warps)
            layout = _warp_layout(dt, tile, n_warps)
        else:
            n_warps, layout = _default_warps(dt, tile, arch, model)
            if n_warps != dt.default_warps:
                notes.append(GEMM("warps_unsuitable", asked=dt.default_warps, tile=str(tile), n=n_warps))
        if layout is None:
            what = f"warp tiles that are multiples of {dt.mma_m}x{dt.mma_n}" if dt.tensor_core else "warp tiles"
            if warps is None:
                raise InputError("tile", f"{tile.bm}x{tile.bn} does not split into {what} for any warp count "
                                         f"up to {max_warps}")
            raise InputError("warps", ERRORS("warps_split_mma", n=n_warps, tile=f"{tile.bm}x{tile.bn}",
                                             unit=f"{dt.mma_m}x{dt.mma_n}", max=max_warps) if dt.tensor_core
                             else ERRORS("warps_split", n=n_warps, tile=f"{tile.bm}x{tile.bn}", max=max_warps))
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
            notes.append(GEMM("stages_unfit", asked=dt.default_stages, tile=str(tile), gpu=gpu.name, n=n_stages))
    smem = n_stages * (a_stage + b_stage)
    if smem > limit:
        field_name = "stages" if stages is not None and (a_stage + b_stage) <= limit else "tile"
        raise InputError(field_name, ERRORS("tile_shared", tile=str(tile), stages=n_stages, need=smem,
                                            formula=f"{n_stages} x ({tile.bm}+{tile.bn}) x {tile.bk} x {dt.bytes} B",
                                            limit=limit, gpu=gpu.name))

    # -- registers ---------------------------------------------------------------
    acc, frag, tm, tn = _register_parts(dt, wm, wn, model)
    regs = acc + frag + model.register_overhead
    if regs > arch.max_registers_per_thread:
        field_name = "warp_tile" if warp_tile is not None else ("warps" if warps is not None else "tile")
        raise InputError(field_name, ERRORS("warp_tile_registers", warp_tile=f"{wm}x{wn}", regs=regs, acc=acc,
                                            frag=frag, other=model.register_overhead,
                                            limit=arch.max_registers_per_thread))

    occ = theoretical_occupancy(gpu, n_warps * 32, regs, 0, smem, -1, 1)
    if occ.active_blocks_per_sm == 0:
        field_name = "warp_tile" if warp_tile is not None else ("warps" if warps is not None else "tile")
        if "registers" in occ.limiters:
            raise InputError(field_name, ERRORS("cta_registers", warps=n_warps, regs=regs,
                                                need=occ.allocated_registers_per_block, limit=arch.registers_per_block))
        raise InputError(field_name, f"no CTA of this tile fits on an SM (limiter: {', '.join(occ.limiters)})")
    return TileResources(
        dtype=dt.name, tile=tile, warps=n_warps, warps_m=wm_count, warps_n=wn_count,
        warp_tile_m=wm, warp_tile_n=wn, thread_tile_m=tm, thread_tile_n=tn, stages=n_stages,
        registers_per_thread=regs,
        register_breakdown={"accumulators": acc, "fragments": frag, "overhead": model.register_overhead},
        shared_bytes_per_block=smem,
        shared_breakdown={"a_per_stage": a_stage, "b_per_stage": b_stage, "stages": n_stages},
        occupancy=occ, notes=tuple(notes), pipeline=multistage_pipeline(gpu, dt, n_stages, n_warps, regs),
    )


# ---------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LevelTraffic:
    """Bytes that cross one boundary of the memory hierarchy over the whole GEMM."""

    level: str  # hbm, l2, shared, registers
    places: tuple[str, ...]  # the places the bytes cross, toward the math units (explorer.texts.gemm.PATH_PLACE)
    via: str | None  # what carries them over the last hop (PATH_VIA: "tma", "descriptors"), or None
    read_bytes: int  # toward the math units
    write_bytes: int  # the output (or the copy landing in shared memory, or accumulators handed on)
    intensity: float  # FLOPs per byte crossing this boundary (read + write)
    reuse: float  # times each operand byte read here is used: 2·M·N·K·bytes / read_bytes (0: none read here)
    note: str

    @property
    def bytes(self) -> int:
        return self.read_bytes + self.write_bytes

    @property
    def path(self) -> str:
        """The path in English, e.g. "L2 -> shared memory (TMA)" (the window words ``places`` and ``via`` itself)."""
        return path_text(self.places, self.via)


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
    peak: Figure  # TFLOPS of the math units this data type uses (datasheet, at clock.peak_clock_mhz)
    times: dict  # main-loop term -> seconds
    bound: str  # compute, memory, latency
    bound_term: str  # the largest term (or fill_and_epilogue when those exceed the main loop)
    predicted_seconds: float  # the main loop's largest term + overheads
    launch_overhead_seconds: float
    tile_latency_cycles: float
    clock: GemmClock
    overheads: dict = field(default_factory=dict)  # pipeline_fill, epilogue -> seconds not hidden by the main loop
    ctas: int = 0  # CTAs launched (one per tile; the SMs' count for a persistent kernel)
    shared_bytes_charged: int = 0  # the shared-memory bytes the shared term charges (operand reads; STS before CC 8.0)
    bound_reason: str = ""
    simulation_differences: tuple[str, ...] = field(default=(), compare=False)
    split: MmaSplit | None = field(default=None, compare=False)
    assumptions: tuple[str, ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    # -- convenient views ---------------------------------------------------------
    @property
    def tile(self) -> Tile:
        return self.resources.tile

    @property
    def pipeline(self) -> Pipeline:
        return self.resources.pipeline

    @property
    def path(self) -> str:
        return self.resources.pipeline.path

    @property
    def tiles(self) -> int:
        return self.tiles_m * self.tiles_n

    @property
    def grid(self) -> tuple[int, int, int]:
        """The tile grid (x, y, z): x along N, y along M (blockIdx.x = tile column)."""
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
    def sustained_peak_tflops(self) -> float:
        """The math units' rate the model uses: the datasheet peak x the sustained fraction."""
        return self.peak.value * self.clock.sustained_fraction

    @property
    def mainloop_seconds(self) -> float:
        return max(self.times.values())

    @property
    def mainloop_at_simulator_clock(self) -> float:
        """The main loop's largest term with every clocked term at the simulator's clock (gpus.toml boost).

        What a simulation of ``gemm_scenario(plan)`` (main loop only) is to be compared with; the HBM term
        does not depend on the clock.
        """
        scale = self.clock.effective_mhz / get_gpu(self.gpu).boost_clock_mhz
        return max(v if k == "hbm" else v * scale for k, v in self.times.items())

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

    @property
    def efficiency(self) -> dict:
        """Where the datasheet peak goes: each factor, their product = achieved / peak."""
        math = self.times["tensor_core" if "tensor_core" in self.times else "fp32_pipe"]
        ideal = self.flops / (self.sustained_peak_tflops * 1e12)
        return {
            "sustained_clock": self.clock.sustained_fraction,
            "waves_and_tiles": ideal / math,
            "mainloop": math / self.mainloop_seconds,
            "fill_and_epilogue": self.mainloop_seconds / self.predicted_seconds,
            "of_peak": self.achieved_tflops / self.peak.value,
        }

    def level(self, name: str) -> LevelTraffic:
        for t in self.traffic:
            if t.level == name:
                return t
        raise KeyError(name)

    def schedule(self) -> TileSchedule:
        """Which SM computes which tile in which wave (idealized dispatcher; a persistent CTA's rounds)."""
        return TileSchedule(self.tiles_m, self.tiles_n, get_gpu(self.gpu).sm_count, self.blocks_per_sm)

    def to_json(self) -> dict:
        from explorer.gemm.roofline import plan_roofs

        r = self.resources
        occ = r.occupancy.to_json()
        return {
            "gpu": self.gpu,
            "dtype": self.dtype,
            "path": self.path,
            "m": self.m, "n": self.n, "k": self.k,
            "tile": str(r.tile),
            "tile_m": r.tile.bm, "tile_n": r.tile.bn, "tile_k": r.tile.bk,
            "warps_per_cta": r.warps,
            "threads_per_cta": r.threads,
            "warp_tile": f"{r.warp_tile_m}x{r.warp_tile_n}",
            "warp_layout": f"{r.warps_m}x{r.warps_n}",
            "stages": r.stages,
            "pipeline": r.pipeline.to_json(),
            "mma_instruction": r.pipeline.instruction,
            "k_steps": self.k_steps,
            "grid": list(self.grid),
            "ctas": self.ctas,
            "tiles": self.tiles,
            "tiles_m": self.tiles_m,
            "tiles_n": self.tiles_n,
            "registers_per_thread": r.registers_per_thread,
            "register_breakdown": dict(r.register_breakdown),
            "register_budget": dict(r.pipeline.register_budget),
            "shared_bytes_per_block": r.shared_bytes_per_block,
            "shared_breakdown": dict(r.shared_breakdown),
            "shared_bytes_charged": self.shared_bytes_charged,
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
            "sustained_peak_tflops": self.sustained_peak_tflops,
            "clock": {"peak_clock_mhz": self.clock.peak_clock_mhz,
                      "sustained_fraction": self.clock.sustained_fraction,
                      "effective_mhz": self.clock.effective_mhz, "sources": dict(self.clock.sources)},
            "times_seconds": dict(self.times),
            "mainloop_seconds": self.mainloop_seconds,
            "overheads_seconds": dict(self.overheads),
            "bound": self.bound,
            "bound_term": self.bound_term,
            "bound_reason": self.bound_reason,
            "roofs": plan_roofs(self),
            "predicted_seconds": self.predicted_seconds,
            "achieved_tflops": self.achieved_tflops,
            "efficiency": self.efficiency,
            "time_split": self.time_split,
            "launch_overhead_seconds": self.launch_overhead_seconds,
            "tile_latency_cycles": self.tile_latency_cycles,
            "mainloop_at_simulator_clock": self.mainloop_at_simulator_clock,
            "simulation_differences": list(self.simulation_differences),
            "notes": list(self.notes),
            "assumptions": list(self.assumptions),
        }


def _hbm_input_reads(m, n, k, b, tile: Tile, tiles_m, tiles_n, slots, l2_usable, group) -> tuple[int, str]:
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
        row_ranges, col_ranges = wave_panels(first, stop, tiles_m, tiles_n, group)
        rows = sum(min(m, (r1 + 1) * tile.bm) - r0 * tile.bm for r0, r1 in row_ranges)
        width = sum(min(n, (c1 + 1) * tile.bn) - c0 * tile.bn for c0, c1 in col_ranges)
        total += (rows + width) * k * b
    if step != 1:
        total = int(total * n_waves / len(sampled))
    return max(a_total + b_total, total), (
        f"A and B exceed the usable L2: each wave reads the A row-panels and B column-panels its tiles touch; "
        f"tuned kernels walk the tiles in groups of {group} tile rows, column by column (a threadblock swizzle), "
        "so a wave touches few panels of each")


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


def _level(level, places, via, rd, wr, flops, untiled, note) -> LevelTraffic:
    return LevelTraffic(level, places, via, rd, wr, flops / (rd + wr), untiled / rd if rd else 0.0, note)


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
    path=None,
    schedule=None,
    cluster=None,
    a_source=None,
) -> GemmPlan:
    """Map an M x N x K GEMM onto ``gpu``; every field of the result is plain data.

    ``path``: ``"wgmma"`` (default on CC 9.0 and 10.0), ``"mma.sync"`` (default
    elsewhere, and on Hopper when asked) or ``"simt"`` (FP32). ``warps``,
    ``warp_tile`` belong to the mma.sync path; ``schedule`` (cooperative,
    pingpong), ``cluster`` ("2x1") and ``a_source`` (shared, registers) to wgmma.
    Bad input raises :class:`InputError` naming the field and the limit.
    """
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    m = require_int("m", m, lo=1, hi=MAX_DIM)
    n = require_int("n", n, lo=1, hi=MAX_DIM)
    k = require_int("k", k, lo=1, hi=MAX_DIM)
    dt = dtype_spec(dtype)
    peak = peak_tflops(gpu, dt.name)
    r, split = _resources(gpu, dt.name, tile, warps, warp_tile, stages, path, schedule, cluster, a_source)
    pipe = r.pipeline
    async_path = pipe.path == "wgmma"
    model = gemm_data().model
    tp = throughput(gpu)
    clk = gemm_clock(gpu, dt.tensor_core)
    t = r.tile
    b = ob = dt.bytes

    tiles_m, tiles_n = ceil_div(m, t.bm), ceil_div(n, t.bn)
    tiles = tiles_m * tiles_n
    k_steps = ceil_div(k, t.bk)
    ws = wave_stats(tiles, gpu.sm_count, r.blocks_per_sm)
    notes = list(r.notes)
    cm, cn = pipe.cluster
    if async_path:  # persistent: the SMs (a whole number of clusters) walk cluster-shaped groups of tiles
        slots_per_round = gpu.sm_count // (cm * cn) * (cm * cn)
        pm, pn = ceil_div(tiles_m, cm) * cm, ceil_div(tiles_n, cn) * cn
        walked = pm * pn
        ctas = min(walked, slots_per_round)
        busiest = ceil_div(walked, slots_per_round)
        if walked > tiles:
            notes.append(GEMM("cluster_pads", cluster=f"{cm}x{cn}", grid=f"{tiles_m}x{tiles_n}", padded=f"{pm}x{pn}",
                              n=walked - tiles))
    else:
        ctas = tiles
        busiest = ceil_div(tiles, gpu.sm_count)  # tiles the busiest SM computes (equal tiles, grid order)
    flops = 2 * m * n * k
    tile_flops = 2 * t.bm * t.bn * t.bk * k_steps
    executed = tiles * tile_flops
    min_hbm = (m * k + k * n + m * n) * b

    # -- bytes per level -----------------------------------------------------------
    untiled = 2 * m * n * k * b  # every multiply-add reading its A and B element from memory
    c_bytes = m * n * ob
    landed = tiles_n * m * k * b + tiles_m * k * n * b  # each CTA's A row-panel and B column-panel in its shared memory
    if async_path:  # a cluster's CTAs share one load of the operand they have in common (multicast)
        l2_reads = ceil_div(tiles_n, cn) * m * k * b + ceil_div(tiles_m, cm) * k * n * b
    else:
        l2_reads = landed
    l2_usable = int(gpu.l2_bytes * model.l2_usable_fraction)
    hbm_reads, hbm_note = _hbm_input_reads(m, n, k, b, t, tiles_m, tiles_n, ws.slots, l2_usable,
                                            model.tile_group_rows)
    hbm_reads = min(hbm_reads, l2_reads)
    hbm = hbm_reads + c_bytes
    l2_hit = 1.0 - hbm_reads / l2_reads
    accumulators_out = tiles * t.bm * t.bn * 4  # FP32 accumulators the epilogue reads, once per tile
    if async_path:
        smem_reads = tiles * k_steps * (t.bm + split.b_reads_per_tile * t.bn) * t.bk * b
        reg_reads = tiles * k_steps * t.bm * t.bk * b if pipe.a_source == "registers" else 0
        b_times = "twice (once per consumer warpgroup)" if split.b_reads_per_tile == 2 else "once"
        levels = (
            ("l2", ("l2", "shared"), "tma", l2_reads, c_bytes,  # the wgmma path's copies are TMA's
             f"every CTA's A panel ({t.bm} x K) and B panel (K x {t.bn}) by TMA; "
             + (f"{pipe.multicast}, so L2 serves {l2_reads / landed:.0%} of the bytes that land"
                if pipe.multicast else "no multicast (1x1 cluster)")),
            ("shared", ("shared", "tensor"), "descriptors", smem_reads, landed,
             f"{pipe.instruction.split(' ')[0]} reads A once and B {b_times} per K-step straight from shared memory; "
             "no operand passes through registers"
             + (" except A (RS: ldmatrix, then registers)" if pipe.a_source == "registers" else "")
             + " (write = the TMA copies landing)"),
            ("registers", ("tensor", "registers") if pipe.accumulators == "registers"
             else ("tensor", "tensor_memory", "registers"), None, reg_reads, accumulators_out,
             ("A fragments read from registers (RS); " if reg_reads else "no A or B operand bytes (SS); ")
             + f"the FP32 accumulators reach the epilogue once per tile ({pipe.accumulators.replace('_', ' ')})"),
        )
    else:
        smem_reads = tiles * k_steps * r.warps * (r.warp_tile_m + r.warp_tile_n) * t.bk * b
        if dt.tensor_core:
            n_mma = tiles * k_steps * r.warps * (r.warp_tile_m // dt.mma_m) * (r.warp_tile_n // dt.mma_n) \
                * (t.bk // dt.mma_k)
            reg_reads = n_mma * (dt.mma_m * dt.mma_k + dt.mma_k * dt.mma_n) * b
            unit = "tensor"
            reg_note = f"A and B operands of every {_mma_text(dt)} MMA; accumulators stay in registers"
        else:
            reg_reads = executed // 2 * 2 * b  # two register operands per FFMA lane
            unit = "fp32"
            reg_note = "two register operands per FFMA; the accumulator stays in its register"
        levels = (
            ("l2", ("l2", "shared"), None, l2_reads, c_bytes,
             f"every CTA loads an A panel ({t.bm} x K) and a B panel (K x {t.bn}): A is read {tiles_n}x, "
             f"B {tiles_m}x"),
            ("shared", ("shared", "registers"), None, smem_reads, l2_reads,
             f"each warp reads its {r.warp_tile_m} x {t.bk} A and {t.bk} x {r.warp_tile_n} B fragments per K-step "
             "(write = the copies landing in shared memory)"),
            ("registers", ("registers", unit), None, reg_reads, 0, reg_note),
        )
    traffic = (_level("hbm", ("hbm", "l2"), None, hbm_reads, c_bytes, flops, untiled, hbm_note),) + tuple(
        _level(lv, places, via, rd, wr, flops, untiled, note) for lv, places, via, rd, wr, note in levels)

    instructions = (wgmma_instructions(dt, r, split, tiles, k_steps) if async_path
                    else _instruction_counts(gpu, dt, r, tiles, k_steps))

    # -- time terms ------------------------------------------------------------------
    clock = clk.effective_mhz * 1e6
    consts = model_constants()
    hbm_eff = float(consts["dram"]["efficiency"])
    barrier = float(consts["barrier"]["release_latency"])
    smem_bpc = float(consts["shared"]["bytes_per_cycle"])
    l2_bpc = tp.l2_bytes_per_clock.value
    l2_share = l2_bpc / gpu.sm_count  # B/clk one SM gets while every SM streams
    per_sm_rate = peak.value * 1e12 / gpu.sm_count * clk.sustained_fraction
    math_term = "tensor_core" if dt.tensor_core else "fp32_pipe"
    total_instr = sum(instructions.values())
    sps = gpu.arch.sub_partitions
    async_copy = gpu.arch.cc >= (8, 0)
    # shared memory: the operand reads (ldmatrix/LDS, or the MMA's descriptor reads); STS writes before CC 8.0;
    # cp.async and TMA land without an instruction writing them (estimate, see assumptions)
    smem_charged = smem_reads + (0 if async_path or async_copy else landed)
    tile_smem_bytes = smem_charged / tiles
    lat_mem = l2_hit * gpu.lat_l2 + (1 - l2_hit) * gpu.lat_dram
    stage_bytes = (t.bm + t.bn) * t.bk * b
    if async_path:
        step = lat_mem / (r.stages - 1)  # the producer keeps stages - 1 copies in flight
        latency = busiest * k_steps * step / clock
    else:
        per_sp_flops = per_sm_rate / (sps * clock)
        math_per_warp_step = tile_flops / k_steps / r.warps
        lat_math = gpu.lat_mma if dt.tensor_core else gpu.lat_fma
        step = gpu.lat_shared + lat_math + barrier
        if r.stages >= 2:  # the pipeline keeps stages - 1 loads in flight
            step = max(step, lat_mem / (r.stages - 1))
        else:  # nothing overlaps inside the CTA: load, copy, fragments, MMAs one after another
            step += lat_mem + tile_smem_bytes / k_steps / smem_bpc + math_per_warp_step / per_sp_flops
        latency = ws.full_waves * k_steps * step / clock
    times = {
        math_term: busiest * tile_flops / per_sm_rate,
        "issue": busiest * (total_instr / tiles) / (sps * clock),
        "shared": busiest * tile_smem_bytes / (smem_bpc * clock),
        "hbm": hbm / (gpu.memory_bandwidth_gbs * 1e9 * hbm_eff),
        "l2": (l2_reads + c_bytes) / (l2_bpc * clock),
        "latency": latency,
    }
    # -- what the main loop does not hide -------------------------------------------
    c_tile = t.bm * t.bn * ob
    epi_instr = instructions["epilogue"] / tiles
    fill_cycles = lat_mem + stage_bytes / l2_share  # the first stage must arrive before the first MMA
    staged = c_tile if async_path else 2 * c_tile  # TMA epilogue: stmatrix in; CUTLASS 2.x: write + read back
    epi_cycles = max(staged / smem_bpc, c_tile / l2_share, epi_instr / sps) + gpu.lat_l2
    if async_path:
        fills = 1  # the producer runs ahead into the next tile while the consumers finish this one
        if pipe.accumulators == "tensor_memory":
            epilogues = 1 if tmem_buffers(r) == 2 else busiest
        else:
            epilogues = busiest if pipe.schedule == "cooperative" else 1
    else:
        fills = epilogues = ws.full_waves  # every wave of CTAs starts, and finishes, together
    overheads = {"pipeline_fill": fills * fill_cycles / clock, "epilogue": epilogues * epi_cycles / clock}
    mainloop = max(times.values())
    predicted = mainloop + sum(overheads.values())
    candidates = dict(times, fill_and_epilogue=sum(overheads.values()))
    bound_term = max(candidates, key=lambda key: candidates[key])
    bound_reason = _bound_reason(bound_term, candidates, busiest, pipe, gpu)

    hidden = "hidden behind the next tile's main loop" if async_path else "one per wave"
    assumptions = (
        f"path {pipe.path}: {_path_text(pipe)}",
        f"C is written in the input's element size ({ob} B); accumulation is FP32 "
        f"({pipe.accumulators.replace('_', ' ')})",
        _register_text(pipe, r, model),
        _shared_text(pipe, r),
        f"HBM model: {hbm_note}; usable L2 = {model.l2_usable_fraction:g} x {gpu.l2_bytes} B",
        (f"HBM time at {hbm_eff:g} x the datasheet bandwidth (sim_model.toml dram.efficiency); "
         f"L2 time at {l2_bpc:g} B/clk ({tp.l2_bytes_per_clock.source})"),
        (f"clock: every per-clock figure converts at {clk.peak_clock_mhz:g} MHz ({clk.sources['peak_clock_mhz']}) "
         f"x {clk.sustained_fraction:g} sustained ({clk.sources['sustained_fraction']}) = {clk.effective_mhz:.0f} MHz"),
        (f"math time: the busiest SM computes {busiest} tiles at {peak.value:g} TFLOPS ({peak.source}) x "
         f"{clk.sustained_fraction:g} / {gpu.sm_count} SMs"),
        (f"shared-memory time at {smem_bpc:g} B/clock per SM (sim_model.toml [shared]) for the operand reads "
         + ("(wgmma/tcgen05 descriptor reads); estimate: TMA writes land through the async-copy path and are not "
            "charged to that bandwidth" if async_path else
            "(ldmatrix/LDS); " + ("estimate: cp.async writes are not charged" if async_copy else "STS writes too"))),
        (f"pipeline fill: memory latency + one stage at the SM's share of L2 bandwidth ({l2_share:.1f} B/clk), "
         f"{fills} time(s); epilogue: C tile through shared memory and out at that share + L2 latency, "
         f"{epilogues} time(s) ({hidden if epilogues == 1 and async_path else 'not overlapped'})"),
        ("latency: per K-step " + ("memory latency / (stages - 1) (the producer keeps that many TMA copies in flight)"
                                   if async_path else
                                   "max(shared + MMA + barrier latency, memory latency / (stages - 1)); with 1 stage "
                                   "the CTA's memory latency, copies, fragment loads and MMAs add up; one wave after "
                                   "another")),
        ("instructions: MMAs, copies, fragment loads and barriers are counted exactly for the tiling; address math "
         "and epilogue are estimates (gemm.toml [model])"),
        ("predicted time = the main loop's largest term (a roofline-style bound, no overlap penalties) + the pipeline "
         "fill and epilogue it does not hide; launch overhead is reported apart"),
    )
    return GemmPlan(
        gpu=gpu.name, dtype=dt.name, m=m, n=n, k=k, resources=r,
        tiles_m=tiles_m, tiles_n=tiles_n, k_steps=k_steps, waves=ws,
        flops=flops, executed_flops=executed, element_bytes=b, output_bytes_per_element=ob,
        min_hbm_bytes=min_hbm, hbm_bytes=hbm, l2_hit_rate=l2_hit, traffic=traffic,
        instructions=instructions, peak=peak, times=times, bound=BOUND_OF_TERM[bound_term],
        bound_term=bound_term, predicted_seconds=predicted,
        launch_overhead_seconds=model.launch_overhead_us * 1e-6,
        tile_latency_cycles=fill_cycles + k_steps * step + epi_cycles, clock=clk, overheads=overheads,
        ctas=ctas, shared_bytes_charged=smem_charged, bound_reason=bound_reason, split=split,
        simulation_differences=_simulation_differences(gpu, dt, r, bound_term, clk, overheads, async_copy, l2_hit),
        assumptions=assumptions, notes=tuple(notes),
    )


def _path_text(p: Pipeline) -> str:
    if p.path == "wgmma":
        return (f"{p.instruction}; {p.copy}; {p.stages} stages; {p.schedule} schedule, persistent; "
                f"cluster {p.cluster[0]}x{p.cluster[1]}" + (f" ({p.multicast})" if p.multicast else "")
                + f"; A from {p.a_source}, B from shared memory")
    return (f"{p.instruction}; {p.copy}; {p.stages} stage(s); every warp copies, waits at the barrier, loads its "
            "A and B fragments into registers and computes; one CTA per tile")


def _register_text(p: Pipeline, r: TileResources, model) -> str:
    b = r.register_breakdown
    if p.path != "wgmma":
        return (f"registers per thread = accumulators + {model.fragment_buffers}x-buffered fragments + "
                f"{model.register_overhead} (estimate); a compiler's count will differ")
    budget = p.register_budget
    if "consumer" in budget:
        return (f"registers: launched with {budget['launch']} per thread (65536 / threads); setmaxnreg gives the "
                f"producer warpgroup {budget['producer']} and each consumer {budget['consumer']} (CUTLASS); a "
                f"consumer thread needs {b['accumulators']} accumulators + {b['a_fragments']} A fragment + "
                f"{b['overhead']} other (estimate)")
    return (f"registers: {budget['all']} per thread; accumulators live in Tensor Memory, the epilogue warps load "
            "them with tcgen05.ld")


def _shared_text(p: Pipeline, r: TileResources) -> str:
    s = r.shared_breakdown
    if p.path != "wgmma":
        return "shared memory per CTA = stages x (BM + BN) x BK x element size (the epilogue reuses it)"
    return (f"shared memory per CTA = {s['stages']} stages x ({s['a_per_stage']} + {s['b_per_stage']} + "
            f"{s['barriers_per_stage']} B of mbarriers) + {s['epilogue']} B epilogue staging; stages: as many as fit "
            "(CUTLASS StageCountAutoCarveout), at least 2 (CUTLASS sm90 collectives require it)")


def _bound_reason(term: str, candidates: dict, busiest: int, p: Pipeline, gpu: GpuSpec) -> Message:
    ordered = sorted(candidates.items(), key=lambda kv: -kv[1])
    top = ordered[0][1]
    rest = [GEMM("term_share", term=k, pct=100 * v / top) for k, v in ordered[1:3]]
    why = {
        "tensor_core": GEMM("mma_longer", n=busiest),
        "fp32_pipe": GEMM("ffma_longer", n=busiest),
        "issue": GEMM("issue"),
        "shared": (GEMM("shared_wgmma", bpc=128) if p.path == "mma.sync" and wgmma_capable(gpu)
                   else GEMM("shared", bpc=128)),
        "hbm": GEMM("hbm"),
        "l2": GEMM("l2"),
        "latency": GEMM("latency"),
        "fill_and_epilogue": GEMM("fill"),
    }[term]
    return GEMM("bound_next", term=term, why=why, rest=rest) if rest else GEMM("bound", term=term, why=why)


def _simulation_differences(gpu: GpuSpec, dt: DTypeSpec, r: TileResources, bound_term: str, clk: GemmClock,
                            overheads: dict, async_copy: bool, l2_hit: float) -> tuple[str, ...]:
    """Why simulating ``gemm_scenario(plan)`` in the Explorer gives a different time than the plan.

    Compare the simulated kernel time with ``GemmPlan.mainloop_at_simulator_clock``: the plan's main loop
    at the clock the simulator runs, without the overheads the scenario leaves out.
    """
    p = r.pipeline
    warps = r.warps_m * r.warps_n if p.path == "wgmma" else r.warps  # the warps that issue the math
    per_scheduler = r.blocks_per_sm * warps / gpu.arch.sub_partitions
    out = [
        GEMM("main_loop_only", us=1e6 * sum(overheads.values())),
        GEMM("clocks", gpu=gpu.name, boost=gpu.boost_clock_mhz, eff=clk.effective_mhz, peak=clk.peak_clock_mhz,
             frac=clk.sustained_fraction),
        GEMM("largest_term", term=bound_term),
    ]
    if per_scheduler <= 2:
        out.append(GEMM("few_warps", n=per_scheduler, ctas=r.blocks_per_sm, warps=warps))
    if p.path == "wgmma":
        out.append(GEMM("waves_not_persistent"))
        # the scenario's copies look their tiles up in the simulated L2 (explorer.gemm.scenario writes
        # [workload.tiles]): the hit rate comes out of the blocks' order, not the plan's estimate
        out.append(GEMM("l2_from_tiles", pct=100 * l2_hit))
    else:
        if async_copy:
            out.append(GEMM("no_cp_async"))
        out.append(GEMM("no_double_buffer"))
    if dt.tensor_core and (dt.mma_m, dt.mma_n, dt.mma_k) != (16, 8, 16):
        out.append(GEMM("mma_shape", dtype=dt.name, shape=_mma_text(dt)))
    return tuple(out)
