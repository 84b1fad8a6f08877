"""A Scenario whose workload runs a GemmPlan's main loop in the simulator.

One CTA per output tile (grid order = tile order, so ``SimResult.blocks`` says
which SM computed which tile); one loop iteration per K-step, per warp.

The mma.sync / SIMT path (what the workload ops express directly):

* stages >= 2 (software pipeline, register-staged): global loads of the next
  stage first, then the fragment loads and MMAs of this stage, one slice of
  ``mma_k`` at a time, then the shared-memory stores of the loaded stage and a
  barrier. The next iteration's global loads wait for this one's (the same
  registers), so memory latency overlaps the MMAs as in a double buffer.
* stages == 1: load, store, barrier, then fragment loads and MMAs, barrier: the
  memory latency is exposed every K-step.

The wgmma path (CC 9.0+) runs its real main loop, warp-specialized: a producer
warpgroup whose warp 0 issues one ``tma`` bulk copy per operand per K-step into
stage ``k % stages`` (after the consumers released the stage), and the consumer
warpgroups, which wait on the stage's mbarrier, issue their ``wgmma`` instructions
(m64nNk16 as the plan splits the tile) and ``wait_group`` with one group left in
flight (CUTLASS's default), releasing the stage. :data:`WGMMA_APPROXIMATIONS`
lists what the simulation still leaves out; the scenario's description repeats it.

The L2 hit rate: the wgmma path's TMA copies read the tiles of A and B by their
addresses (``[workload.tiles]``, :func:`gemm_tiles`: A is M x K and B is N x K, both
K-contiguous, padded to whole tiles; block ``b`` computes the output tile the plan's
swizzle puts ``b``-th, groups of ``tile_group_rows`` tile rows walked column by
column), so their hits in the simulated L2 come from the blocks that share an A
row-panel or a B column-panel, and no rate is set for them. The mma.sync path's
global loads still take the plan's HBM model as their L2 hit rate. Not
simulated: the prologue that fills the pipeline and the epilogue's stores (the
plan's ``overheads``; ``plan.simulation_differences`` lists why a simulated time
differs from the plan's).
"""

from __future__ import annotations

from explorer.gemm.data import dtype_spec, gemm_data
from explorer.gemm.mapper import GemmPlan
from explorer.gemm.waves import ceil_div
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.model.workload import MAX_BODY, MAX_COUNT, MAX_LOOP, TMA_BYTES_UNIT, WARPGROUP
from explorer.texts.errors import ERRORS

WGMMA_M = 64  # rows of one wgmma (m64nNk16): the workload's wgmma op

WGMMA_APPROXIMATIONS = (
    "one CTA per tile in waves instead of a persistent CTA per SM (the same rounds; no epilogue)",
    "cluster multicast: each CTA copies its slice of the shared tile (L2 reads the tile once per cluster), the "
    "peers' slices land with its own, and the cluster's CTAs are not placed together",
    "edge tiles copied whole (the operands padded to whole tiles; TMA reads only the in-bounds part)",
    "the producer warpgroup's warps other than the TMA warp idle",
    "every MMA instruction is simulated as a wgmma of the same shape in 16-bit terms (same time and bytes)",
)
PIPELINE_PENDING = 1  # wgmma groups a consumer leaves in flight (CUTLASS sm90 mainloops: K_PIPE_MMAS = 1)
PRODUCER_WARPS = 4  # the producer warpgroup


def _op(op: str, count: int, **kw) -> dict:
    d = {"op": op, "count": max(1, min(MAX_COUNT, count))}
    d.update(kw)
    return d


def _grouped(slices: int, fixed: int, step) -> list[dict]:
    """The compute steps of one K-step, slices grouped so the body stays within MAX_BODY."""
    group = max(1, ceil_div(slices, max(1, (MAX_BODY - fixed) // 2)))
    out: list[dict] = []
    done = 0
    while done < slices:
        g = min(group, slices - done)
        out += step(g)
        done += g
    return out


def scenario_warps(plan: GemmPlan) -> int:
    """Warps per simulated CTA: every warp (mma.sync), or the producer warpgroup + the consumer warpgroups
    of one tile (wgmma)."""
    r = plan.resources
    if plan.path != "wgmma":
        return r.warps
    return PRODUCER_WARPS + WARPGROUP * plan.split.consumers_per_tile


def _multistage_body(plan: GemmPlan) -> list[dict]:
    dt = dtype_spec(plan.dtype)
    r = plan.resources
    t = r.tile
    model = gemm_data().model
    copies_cta = ceil_div((t.bm + t.bn) * t.bk * dt.bytes, model.copy_bytes_per_thread * 32)
    copies_w = ceil_div(copies_cta, r.warps)
    if dt.tensor_core:
        slices = t.bk // dt.mma_k
        lds_slice = ceil_div((r.warp_tile_m + r.warp_tile_n) * dt.mma_k * dt.bytes, model.shared_bytes_per_warp_load)
        math_slice = (r.warp_tile_m // dt.mma_m) * (r.warp_tile_n // dt.mma_n)
        math_op = "mma"
    else:
        slices = t.bk
        # LDS.128 per thread: the thread's column of A and row of B for one k
        lds_slice = ceil_div((r.thread_tile_m + r.thread_tile_n) * dt.bytes, 16)
        math_slice = r.warp_tile_m * r.warp_tile_n // 32
        math_op = "ffma"

    def step(g):
        mcount = min(MAX_COUNT, math_slice * g)
        return [_op("lds", lds_slice * g, bytes=16), _op(math_op, mcount, ilp=min(8, mcount))]

    compute = _grouped(slices, 4 if r.stages >= 2 else 5, step)
    load = _op("ldg", copies_w, bytes=16)
    store = _op("sts", copies_w, bytes=16)
    if r.stages >= 2:
        return [load, *compute, store, {"op": "sync"}]
    return [load, store, {"op": "sync"}, *compute, {"op": "sync"}]


def tma_copy_bytes(plan: GemmPlan) -> tuple[int, int]:
    """Bytes of this CTA's TMA copies of A and B per K-step (a multicast operand: this CTA's share)."""
    dt = dtype_spec(plan.dtype)
    t = plan.resources.tile
    cm, cn = plan.pipeline.cluster
    return (ceil_div(t.bm * t.bk * dt.bytes // cn, TMA_BYTES_UNIT) * TMA_BYTES_UNIT,
            ceil_div(t.bn * t.bk * dt.bytes // cm, TMA_BYTES_UNIT) * TMA_BYTES_UNIT)


def gemm_tiles(plan: GemmPlan) -> dict:
    """The ``[workload.tiles]`` table of the wgmma path's TMA copies (explorer.model.tma_tiles): A (M x K) and B
    (N x K), K-contiguous (the layout TMA and wgmma read both operands in, "TN"), each padded to whole tiles and
    allocated ALLOCATION_ALIGN apart; block b computes output tile ``grouped_position(b)`` (the plan's swizzle,
    ``tile_group_rows``); a cluster's CTAs along M copy a slice of B each, along N of A (multicast)."""
    dt = dtype_spec(plan.dtype)
    t = plan.resources.tile
    cm, cn = plan.pipeline.cluster
    pitch = plan.k_steps * t.bk * dt.bytes  # K padded to whole K-steps
    b_base = plan.tiles_m * t.bm * pitch  # after A's padded rows
    group = min(gemm_data().model.tile_group_rows, plan.tiles_m)
    return {
        "grid": [plan.tiles_m, plan.tiles_n],
        "group": group,
        "a": {"base": 0, "pitch": pitch, "box": [t.bm, t.bk], "element_bytes": dt.bytes, "at": ["m", "k"],
              "multicast": cn},
        "b": {"base": b_base, "pitch": pitch, "box": [t.bn, t.bk], "element_bytes": dt.bytes, "at": ["n", "k"],
              "multicast": cm},
    }


def _async_body(plan: GemmPlan) -> list[dict]:
    """The wgmma main loop: the producer's TMA copies of A and B (their tiles: :func:`gemm_tiles`), the consumers'
    wgmmas and wait_group."""
    split = plan.split
    a_bytes, b_bytes = tma_copy_bytes(plan)
    # per consumer warpgroup per K-step: its rows in 64-row wgmmas x the N split x the K slices
    count = split.rows_per_consumer // WGMMA_M * split.n_instr * split.k_instr
    if count > MAX_COUNT:
        raise InputError("tile", f"{count} wgmma instructions per K-step per warpgroup, above the workload's "
                                 f"{MAX_COUNT} per step; use a smaller BK")
    pending = min(PIPELINE_PENDING, plan.resources.stages - 1)
    return [{"op": "tma", "bytes": a_bytes, "operand": "a"}, {"op": "tma", "bytes": b_bytes, "operand": "b"},
            {"op": "wgmma", "count": count, "n": split.instr_n, "pending": pending}]


def gemm_workload(plan: GemmPlan, k_steps: int | None = None) -> dict:
    """The ``[workload]`` table (plain dict, validated by Scenario.from_dict)."""
    body = _async_body(plan) if plan.path == "wgmma" else _multistage_body(plan)
    loop = plan.k_steps if k_steps is None else k_steps
    out = {
        "loop": max(1, min(MAX_LOOP, loop)),
        "l1_hit_rate": 0.0,
        # the mma.sync path's loads draw the plan's rate; the wgmma path's copies hit by their tiles' addresses
        "l2_hit_rate": 0.0 if plan.path == "wgmma" else round(plan.l2_hit_rate, 6),
        "body": body,
    }
    if plan.path == "wgmma":
        out["stages"] = plan.resources.stages
        out["producer_warps"] = PRODUCER_WARPS
        out["tiles"] = gemm_tiles(plan)
    return out


def gemm_scenario(plan: GemmPlan, *, k_steps: int | None = None, max_tiles: int | None = None,
                  policy: str = "gto", seed: int = 1) -> Scenario:
    """A validated Scenario running ``plan``'s main loop (``explorer.sim.simulate`` takes it).

    ``k_steps`` shortens the K loop and ``max_tiles`` the grid (for a quick,
    interactive run); both default to the whole GEMM.
    """
    tiles = plan.tiles
    if max_tiles is not None:
        if max_tiles < 1:
            raise InputError("max_tiles", ERRORS("below_minimum", value=max_tiles, limit=1))
        tiles = min(tiles, max_tiles)
    if k_steps is not None and k_steps < 1:
        raise InputError("k_steps", ERRORS("below_minimum", value=k_steps, limit=1))
    r = plan.resources
    p = plan.pipeline
    warps = scenario_warps(plan)
    if plan.path == "wgmma":
        registers = r.registers_per_thread  # the launch's; setmaxnreg moves them from producer to consumers
        desc = (f"GEMM {plan.m}x{plan.n}x{plan.k} {plan.dtype}, wgmma path: {plan.tiles} tiles of {r.tile}, "
                f"a producer warpgroup (TMA) + {warps - PRODUCER_WARPS} consumer warps ({p.schedule}, "
                f"{plan.split.instr_m}x{plan.split.instr_n} MMAs), {r.stages} stages, {plan.k_steps} K-steps; "
                f"simplified: {'; '.join(WGMMA_APPROXIMATIONS)}; generated by explorer.gemm")
    else:
        registers = r.registers_per_thread
        desc = (f"GEMM {plan.m}x{plan.n}x{plan.k} {plan.dtype}: {plan.tiles} tiles of {r.tile}, "
                f"{r.warps} warps ({r.warp_tile_m}x{r.warp_tile_n} each), {r.stages} stage(s), "
                f"{plan.k_steps} K-steps; generated by explorer.gemm")
    data = {
        "name": f"gemm-{plan.m}x{plan.n}x{plan.k}-{plan.dtype}",
        "description": desc,
        "gpu": plan.gpu,
        "seed": seed,
        "launch": {
            "grid": [tiles, 1, 1],
            "block": [warps * 32, 1, 1],
            "registers_per_thread": registers,
            "static_shared_bytes": 0,
            "dynamic_shared_bytes": r.shared_bytes_per_block,
            "carveout": -1,
            "barriers": 1,
        },
        "workload": gemm_workload(plan, k_steps),
        "scheduler": {"policy": policy},
    }
    if plan.path == "wgmma":
        data["program"] = "model"  # tma and wgmma exist in the workload model only
    return Scenario.from_dict(data)
