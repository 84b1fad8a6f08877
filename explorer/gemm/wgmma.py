"""The wgmma + TMA path (Hopper ``wgmma.mma_async``; Blackwell B200 ``tcgen05.mma``).

A CUTLASS 3.x warp-specialized, persistent kernel (one CTA per SM walks the tiles):

* a producer warp issues one TMA bulk copy per operand per stage
  (``cp.async.bulk.tensor``); it completes on the stage's mbarrier, with no
  per-thread loads and no registers; a cluster of CTAs that share a tile receives
  it by multicast (each loads a slice, all get the whole tile);
* consumers issue asynchronous MMAs that read A and B from shared memory through
  matrix descriptors (A may come from registers instead: the RS variant), then
  release the stage (mbarrier arrive);
* CC 9.0: 1 producer + 2 consumer warpgroups (384 threads); ``setmaxnreg``
  moves registers from the producer (40) to the consumers (232). *Cooperative*:
  both consumers split one tile by rows, both read all of B, the epilogue is not
  overlapped. *Ping-pong*: each consumer owns a tile; one's epilogue overlaps the
  other's main loop;
* CC 10.0: one thread of the MMA warp issues ``tcgen05.mma`` for the whole CTA
  tile (A and B read once); accumulators live in Tensor Memory, so 4 epilogue
  warps drain one tile while the MMAs of the next run (two accumulator buffers
  when they fit the 512 Tensor-Memory columns).

Exact for the tiling: instruction counts of MMAs, TMA copies, mbarrier
operations, and bytes per level. Estimates (gemm.toml ``[wgmma]``): the epilogue
sub-tiling, register overhead, and B being read once per consumer warpgroup.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.gemm.data import AsyncMma, DTypeSpec, gemm_data
from explorer.gemm.pipeline import Pipeline, resolve_a_source, resolve_schedule
from explorer.gemm.tiles import MAX_STAGES, Tile, TileResources, parse_dims, parse_tile
from explorer.gemm.waves import ceil_div
from explorer.model.catalog import GpuSpec
from explorer.model.errors import InputError, require_int
from explorer.occupancy import theoretical_occupancy
from explorer.texts.errors import ERRORS
from explorer.texts.gemm import GEMM

WARPGROUP = 4  # warps
MBARRIER_BYTES = 8
MAX_CLUSTER = 8  # CTAs: the portable cluster size limit (CUDA Programming Guide, thread block clusters)
TMEM_COLUMNS = 512  # 32-bit columns x 128 lanes per SM (PTX ISA, tcgen05 Tensor Memory)
_KIND = {"tf32": ("tf32", "tf32"), "fp16": ("f16", "f16"), "bf16": ("bf16", "f16"), "fp8": ("e4m3", "f8f6f4")}


@dataclass(frozen=True)
class MmaSplit:
    """How one CTA tile splits into asynchronous MMA instructions."""

    consumers_per_tile: int  # warpgroups (CC 9.0) computing one tile; 1 on CC 10.0
    rows_per_consumer: int
    instr_m: int
    instr_n: int
    m_instr: int  # instructions along M per consumer per k-slice
    n_instr: int  # along N
    k_instr: int  # per K-step (BK / instruction K)
    issuing_warps: int  # warps that execute each instruction (4: a warpgroup; 1: one thread of the MMA warp)
    b_reads_per_tile: int  # times B is read from shared memory per K-step of one tile

    @property
    def per_k_step(self) -> int:
        """MMA instructions (warpgroup- or thread-level) per K-step of one tile."""
        return self.consumers_per_tile * self.m_instr * self.n_instr * self.k_instr


def async_mma(gpu: GpuSpec) -> AsyncMma:
    return gemm_data().async_mma[gpu.compute_capability]


def instruction_name(am: AsyncMma, dt: DTypeSpec, n: int) -> str:
    ab, kind = _KIND[dt.name]
    if am.instruction == "wgmma.mma_async":
        return f"wgmma.mma_async.sync.aligned.m{am.mma_m}n{n}k{dt.mma_k}.f32.{ab}.{ab}"
    return f"{am.instruction}.cta_group::1.kind::{kind} (m{am.mma_m}n{n}k{dt.mma_k})"


def parse_cluster(value) -> tuple[int, int]:
    """``"2x1"`` -> (2, 1): CTAs per cluster along M and N (product <= 8)."""
    if value is None:
        return gemm_data().wgmma.default_cluster
    cm, cn = parse_dims(value, "cluster", 2, "2x1")
    if cm * cn > MAX_CLUSTER:
        raise InputError("cluster", ERRORS("cluster_above_limit", cluster=f"{cm}x{cn}", ctas=cm * cn, limit=MAX_CLUSTER))
    return cm, cn


def _n_split(bn: int, max_n: int) -> tuple[int, int] | None:
    """(instructions along N, N per instruction): the fewest equal instructions of N <= max_n, multiple of 8."""
    for count in range(1, bn // 8 + 1):
        if bn % count == 0 and bn // count <= max_n and (bn // count) % 8 == 0:
            return count, bn // count
    return None


def mma_split(am: AsyncMma, dt: DTypeSpec, tile: Tile, schedule: str) -> MmaSplit:
    """The instructions of one tile; InputError (field ``tile``) for a tile the instructions cannot cover."""
    hopper = am.accumulators == "registers"
    consumers = 2 if hopper and schedule == "cooperative" else 1
    unit_m = am.mma_m if hopper else 64
    shape = f"m{unit_m}nNk{dt.mma_k}"  # the instruction shape, in the words the mma.sync messages use
    for name, size, unit in (("BM", tile.bm, unit_m), ("BN", tile.bn, 8), ("BK", tile.bk, dt.mma_k)):
        if size % unit:
            raise InputError("tile", ERRORS("not_mma_multiple", name=name, size=size, unit=unit, shape=shape,
                                            dtype=dt.name))
    if tile.bm % (unit_m * consumers):
        raise InputError("tile", ERRORS("cooperative_bm", bm=tile.bm, unit=unit_m * consumers, consumers=consumers,
                                        rows=am.mma_m))
    split = _n_split(tile.bn, am.max_n)
    assert split is not None  # BN is a multiple of 8: N = 8 per instruction always fits
    n_instr, instr_n = split
    rows = tile.bm // consumers
    instr_m = am.mma_m if hopper or tile.bm % am.mma_m == 0 else 64
    return MmaSplit(
        consumers_per_tile=consumers, rows_per_consumer=rows, instr_m=instr_m, instr_n=instr_n,
        m_instr=rows // instr_m, n_instr=n_instr, k_instr=tile.bk // dt.mma_k,
        issuing_warps=WARPGROUP if hopper else 1,
        b_reads_per_tile=consumers if am.b_per_consumer else 1,
    )


def wgmma_resources(gpu: GpuSpec, dt: DTypeSpec, tile=None, stages=None, schedule=None, cluster=None,
                    a_source=None, warps=None, warp_tile=None) -> tuple[TileResources, MmaSplit]:
    """Registers, shared memory, occupancy and pipeline of one wgmma-path CTA (defaults from gemm.toml)."""
    arch = gpu.arch
    w = gemm_data().wgmma
    am = async_mma(gpu)
    hopper = am.accumulators == "registers"
    if warps is not None or warp_tile is not None:
        roles = ("1 producer + 2 consumer warpgroups = 12 warps" if hopper
                 else "an MMA warp, a TMA warp, 2 helper warps and 4 epilogue warps = 8 warps")
        raise InputError("warps" if warps is not None else "warp_tile",
                         f"on the wgmma path the warps are the schedule's ({roles}); choose the mma.sync path "
                         "to set warps or a warp tile")
    if not hopper and schedule is not None:
        raise InputError("schedule", ERRORS("schedule_not_hopper", instr=am.instruction))
    sched = resolve_schedule(schedule) if hopper else "warp-specialized"
    a_src = resolve_a_source(a_source)
    if a_src == "registers" and not hopper:
        raise InputError("a_source", ERRORS("a_source_registers", instr=am.instruction))
    cm, cn = parse_cluster(cluster)
    notes: list[str] = []
    t = parse_tile(tile) if tile is not None else Tile(*dt.wgmma_tile)
    if hopper and schedule is None and sched == "cooperative" and t.bm % (2 * am.mma_m) and t.bm % am.mma_m == 0:
        sched = "pingpong"  # a 64-row multiple that two consumers cannot split: one consumer per tile
        notes.append(GEMM("pingpong", bm=t.bm))
    split = mma_split(am, dt, t, sched)

    # -- shared memory ---------------------------------------------------------------
    ob = dt.bytes  # C in the input's element size (gemm.toml [model] output_same_as_input)
    a_stage, b_stage = t.bm * t.bk * dt.bytes, t.bn * t.bk * dt.bytes
    stage = a_stage + b_stage + w.barriers_per_stage * MBARRIER_BYTES
    epilogue = w.epilogue_stages * t.bm * min(t.bn, w.epilogue_tile_n) * ob
    limit = arch.shared_per_block_optin
    room = (limit - epilogue) // stage
    if stages is not None:
        n_stages = require_int("stages", stages, lo=2, hi=MAX_STAGES)
    else:
        n_stages = min(MAX_STAGES, room)
        if n_stages < 2:
            raise InputError("tile", ERRORS("stage_too_big", tile=str(t), stage=a_stage + b_stage, limit=limit,
                                            gpu=gpu.name, epilogue=epilogue))
    smem = n_stages * stage + epilogue
    if smem > limit:
        raise InputError("stages", ERRORS("stages_shared", stages=n_stages, tile=str(t), need=smem, n=n_stages,
                                          a=a_stage, b=b_stage, epilogue=epilogue, limit=limit, gpu=gpu.name))

    # -- threads and registers ---------------------------------------------------------
    if hopper:
        threads = (w.producer_warpgroups + w.consumer_warpgroups) * WARPGROUP * arch.warp_size
        acc = split.rows_per_consumer * t.bn // (WARPGROUP * arch.warp_size)
    else:
        threads = 2 * WARPGROUP * arch.warp_size  # MMA, scheduler, TMA, epilogue-load warps + 4 epilogue warps
        acc = 0  # in Tensor Memory
    a_frag = 0
    if a_src == "registers":  # the consumer's A slice of one K-step, 4 B per register
        a_frag = (split.rows_per_consumer * t.bk * dt.bytes) // (WARPGROUP * arch.warp_size * 4)
    launch_regs = min(arch.max_registers_per_thread, arch.registers_per_sm // threads // 8 * 8)
    need = acc + a_frag + w.consumer_register_overhead
    if hopper:
        budget = {"producer": w.producer_registers, "consumer": w.consumer_registers, "launch": launch_regs}
        used = (w.producer_warpgroups * w.producer_registers + w.consumer_warpgroups * w.consumer_registers) \
            * WARPGROUP * arch.warp_size
        if used > arch.registers_per_sm:
            raise InputError("tile", f"setmaxnreg budgets of {used} registers exceed the {arch.registers_per_sm} "
                                     f"of an SM on {gpu.name}")
        if need > w.consumer_registers:
            raise InputError("tile", ERRORS("consumer_registers_pingpong" if sched == "pingpong" else
                                            "consumer_registers", tile=f"{split.rows_per_consumer}x{t.bn}", regs=need,
                                            acc=acc, frag=a_frag, other=w.consumer_register_overhead,
                                            limit=w.consumer_registers))
    else:
        budget = {"all": launch_regs}
        cols = ceil_div(t.bm, 128) * t.bn
        if cols > TMEM_COLUMNS:
            raise InputError("tile", ERRORS("tmem_columns", tile=f"{t.bm}x{t.bn}", cols=cols, limit=TMEM_COLUMNS))
    occ = theoretical_occupancy(gpu, threads, launch_regs, 0, smem, -1, 1)
    if occ.active_blocks_per_sm == 0:
        raise InputError("tile", f"no CTA of this tile fits on an SM (limiter: {', '.join(occ.limiters)})")

    warps_m = (w.consumer_warpgroups * WARPGROUP if sched == "cooperative" else WARPGROUP) if hopper else WARPGROUP
    mc = (f"B tile multicast to the {cm} CTAs along M" if cm > 1 else "")
    mc = "; ".join(x for x in (mc, f"A tile multicast to the {cn} CTAs along N" if cn > 1 else "") if x)
    pipeline = Pipeline(
        path="wgmma", instruction=instruction_name(am, dt, split.instr_n),
        copy="TMA (cp.async.bulk.tensor, one per operand per stage, completion on an mbarrier)",
        stages=n_stages, schedule=sched, persistent=True,
        producer_warps=1, consumer_warps=(w.consumer_warpgroups * WARPGROUP if hopper else 1),
        a_source=a_src, b_source="shared", accumulators=am.accumulators, register_budget=budget,
        cluster=(cm, cn), multicast=mc,
        steps=("TMA", "shared", am.instruction, "registers" if hopper else "tensor memory", "epilogue"),
    )
    res = TileResources(
        dtype=dt.name, tile=t, warps=threads // arch.warp_size, warps_m=warps_m, warps_n=1,
        warp_tile_m=t.bm // warps_m, warp_tile_n=t.bn, thread_tile_m=0, thread_tile_n=0, stages=n_stages,
        registers_per_thread=launch_regs,
        register_breakdown={"accumulators": acc, "a_fragments": a_frag, "overhead": w.consumer_register_overhead},
        shared_bytes_per_block=smem,
        shared_breakdown={"a_per_stage": a_stage, "b_per_stage": b_stage, "stages": n_stages,
                          "barriers_per_stage": w.barriers_per_stage * MBARRIER_BYTES, "epilogue": epilogue},
        occupancy=occ, notes=tuple(notes), pipeline=pipeline,
    )
    return res, split


def tmem_buffers(r: TileResources) -> int:
    """Accumulator buffers in Tensor Memory (2 lets the epilogue drain one tile while the next computes)."""
    return 2 if 2 * ceil_div(r.tile.bm, 128) * r.tile.bn <= TMEM_COLUMNS else 1


def wgmma_instructions(dt: DTypeSpec, r: TileResources, split: MmaSplit, tiles: int, k_steps: int) -> dict:
    """Warp-instructions of the whole kernel by category (the loop is almost instruction-free)."""
    model = gemm_data().model
    p = r.pipeline
    hopper = p.accumulators == "registers"
    t = r.tile
    steps = tiles * k_steps
    consumer_warps = split.consumers_per_tile * WARPGROUP if hopper else 1
    mma = steps * split.per_k_step * split.issuing_warps
    tma = steps * 2  # one bulk copy for A, one for B, per CTA per stage
    # producer: wait for an empty stage, arrive with the expected bytes; consumers: wait full, release
    barrier = steps * (2 + 2 * consumer_warps)
    # wgmma.fence + commit_group + wait_group per K-step per consumer warp; tcgen05.commit per K-step
    mma_sync = steps * (3 * consumer_warps if hopper else 1)
    a_frag = 0
    if p.a_source == "registers":  # ldmatrix of the consumer's A slice per K-step
        a_frag = steps * consumer_warps * ceil_div(split.rows_per_consumer * t.bk * dt.bytes // WARPGROUP,
                                                   model.shared_bytes_per_warp_load)
    addr = steps * (1 + consumer_warps) * model.loop_ops_per_k_step
    epi_warps = consumer_warps if hopper else WARPGROUP
    acc_per_thread = t.bm * t.bn // (epi_warps * 32)
    epi_loads = 0 if hopper else tiles * epi_warps * ceil_div(acc_per_thread, 32)  # tcgen05.ld 32 columns
    # convert + pack per accumulator, stmatrix (512 B per warp) to the staging sub-tile, one TMA store per sub-tile
    stmatrix = ceil_div(t.bm * t.bn * dt.bytes, model.shared_bytes_per_warp_load)
    subtiles = ceil_div(t.bn, gemm_data().wgmma.epilogue_tile_n)
    epilogue = tiles * (epi_warps * acc_per_thread * model.epilogue_ops_per_accumulator + stmatrix + subtiles) \
        + epi_loads
    out = {"mma": mma, "global_to_shared": tma, "barrier": barrier, "mma_sync": mma_sync}
    if a_frag:
        out["shared_to_registers"] = a_frag
    out["address_and_loop"] = addr
    out["epilogue"] = epilogue
    return out


__all__ = ["MmaSplit", "async_mma", "instruction_name", "mma_split", "parse_cluster",
           "tmem_buffers", "wgmma_instructions", "wgmma_resources"]
