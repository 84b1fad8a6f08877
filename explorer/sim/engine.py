"""Run a Scenario through the cycle loop, chunk by chunk, into a SimResult, within a memory budget.

Before anything is allocated, :func:`estimate_run` bounds the run from the scenario
alone (cheap: warps x instructions x latency and bandwidth bounds) and a run beyond
the cycle limit or the memory budget (``sim_model.toml`` [trace]) is refused with
an InputError naming the limit and the estimate.

The loop runs in chunks (trace.chunk_cycles) so a caller can show progress and
cancel between chunks. What a run keeps stays bounded however long it is:

* GPU-wide per-cycle series (counts, state counts): exact while they fit their
  budget, then min/max/sum per bin of 2**k cycles, bins doubling as needed;
* the per-slot trace (1 byte per warp-slot-cycle once built): kept as the recorded
  slots' state changes (``StateEvents``: ~1% of the slot-cycles change on the mission
  example) and rebuilt on demand, for every SM while its dense form and the events fit
  the budget, else for half as many SMs (halved again as the run grows), and for a run
  too long for one SM, that SM's first cycles; any SM can be re-simulated on demand
  (``record_sms``): a run is a pure function of its scenario;
* throughput-unit busy per time window (at most trace.unit_windows windows);
* per program row, warp-cycles in each state while it was the warp's next instruction
  (``stall_by_instruction``), and for the recorded SMs the cycles each slot's next
  instruction changed (``pc_trace``: events, counted in the trace budget).

The program is a ``WarpProgram`` (``explorer.sass.warp_program``): the kernel's SASS
(the scenario's ``program = "sass"``, the default, where the toolchain builds it) or the
workload model (``program = "model"``, and the fallback, with a one-line notice, where
it cannot: see :func:`scenario_program`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.sim.kernel import (
    A_RING,
    CFG_FLOAT_FIELDS,
    CFG_INT_FIELDS,
    LBUF_ROWS,
    M_FILL_ITER,
    M_FREE_ITER,
    M_FULL_ITER,
    M_SLOTS,
    RING,
    MEM_SLOTS,
    N_COUNTS,
    N_STATES,
    NEVER,
    Q_SLOTS,
    G,
    Blocks,
    Config,
    Memory,
    Outputs,
    Places,
    Program,
    Warps,
    run_cycles,
    warp_of_slot,
)
from explorer.sass.warp_program import WarpProgram
from explorer.sim import loop_program
from explorer.sim.loop_program import LoopProgram, lower
from explorer.model.sim_model import model_constants
from explorer.sim.params import SimParams, params_for
from explorer.sim.result import PcEvents, Series, SimResult, StateEvents
from explorer.sim.states import EMPTY, NAMES
from explorer.model.units import UNITS
from explorer.timeline import BlockRecords, Residency

N_COLUMNS = N_COUNTS + len(NAMES)  # series columns
# bytes a run holds per warp and per block whatever its length (measured: two residency
# events per warp in the loop, their sorted copies in Residency, the per-SM regrouping
# the summary makes; per block the loop's records and BlockRecords)
BYTES_PER_WARP = 160
BYTES_PER_BLOCK = 64
# the estimate is a lower bound and runs mostly end within this factor of it: the trace is
# sized for that (halving the recorded SMs mid-run costs a copy)
SIZING_MARGIN = 1.3


class Cancelled(Exception):
    """The caller asked the simulation to stop (a newer one supersedes it)."""


class SimulationError(RuntimeError):
    """The model reached a state it cannot leave (a bug, reported with the scenario)."""


def _limits() -> dict:
    return model_constants()["trace"]


# --------------------------------------------------------------------------- program
def scenario_program(scenario: Scenario) -> tuple[WarpProgram, str | None]:
    """(the program a scenario runs, a one-line notice when it is not the one asked for).

    ``program = "sass"`` (the default): the generated kernel's SASS, compiled and
    disassembled once and cached on disk (``explorer.sass.kernel_program``); the model
    program, with the notice, where the toolchain cannot build it (an architecture NVRTC
    cannot target, e.g. sm_70 with NVRTC 13; NVRTC or nvdisasm missing). ``"model"``:
    the workload model's program.
    """
    from explorer.sass.errors import ProgramError
    from explorer.sass.kernel_program import model_program, program_for

    try:
        return program_for(scenario, fallback_on_missing_toolchain=True)
    except ProgramError as exc:  # the toolchain ran but its output could not be read: say so, run the model
        return model_program(scenario), f"{exc.message}; running the model program"


# --------------------------------------------------------------------------- estimate
def _chain_cycles(p: SimParams, lp: LoopProgram) -> np.ndarray:
    """Per row, what it adds to a warp's dependent chain: a global load's mean latency, a shared
    load's, an instruction's own latency, 1 for one without a register result (and for EXIT,
    which nothing waits on: 0)."""
    mean_load = p.l1_hit_rate * p.lat_l1 + (1 - p.l1_hit_rate) * (p.l2_hit_rate * p.lat_l2 + (1 - p.l2_hit_rate) * p.lat_dram)
    result = lp.dst[:, 0] >= 0
    memory = (lp.path == loop_program.GLOAD) | (lp.path == loop_program.GSTORE)
    cost = np.where(memory & result, mean_load,
                    np.where((lp.path == loop_program.SHARED) & result, p.lat_shared,
                             np.where(result, np.maximum(lp.latency, 1), 1))).astype(np.float64)
    cost[lp.path == loop_program.EXIT] = 0.0
    return cost


def estimate_cycles(p: SimParams, lp: LoopProgram, tma_miss: float | None = None) -> int:
    """A lower-bound-style estimate of a run's length, from the scenario alone.

    The largest of three bounds: issue (every scheduler busy every cycle, for every
    instruction a warp executes), DRAM bandwidth (all missing bytes at the plateau rate),
    and latency (each warp's dependent chain, once per wave). Usually within a factor
    of two of the truth. ``tma_miss``: the share of the TMA copies' bytes device memory sends when
    they copy tiles (their first touches, ``addresses.TmaLayout.first_touch_bytes``); else the
    scenario's hit rates say.
    """
    warps = p.total_blocks * p.warps_per_block
    schedulers = p.sm_count * p.sub_partitions
    issue = lp.warp_instructions(warps) / schedulers
    miss = (1 - p.l1_hit_rate) * (1 - p.l2_hit_rate)
    body = np.zeros(lp.length, bool)
    body[lp.loop_start:lp.loop_end] = True
    global_ops = (lp.path == loop_program.GLOAD) | (lp.path == loop_program.GSTORE)
    # summed as (body bytes x trip + the rest) and (body chain x trip + the rest): the model
    # program (the body, then EXIT) gives the figures it always did, to the last bit
    body_bytes = float(lp.req_bytes[global_ops & body].sum())
    other_bytes = float(lp.req_bytes[global_ops & ~body].sum())
    plateau = p.dram_read_efficiency  # the sustained share of the datasheet bandwidth
    runs = 1 if lp.flat else warps  # a flat program holds every warp's rows: each runs once
    bandwidth = runs * (lp.trip * body_bytes + other_bytes) * miss / (p.dram_bytes_per_cycle * plateau)
    if p.producer_warps:  # warp specialization: each row by its role's warps; the tma bytes too
        per_block = lp.warps_executing(p.warps_per_block, p.producer_warps) * lp.executions
        issue = p.total_blocks * float(per_block.sum()) / schedulers
        moved = global_ops | (lp.path == loop_program.TMA)
        copies = (lp.path == loop_program.TMA) & (lp.arg > 0)  # a tile's copies: their first touches miss
        by_rate = moved & ~copies
        sent = float((lp.req_bytes * per_block)[by_rate].sum()) * miss
        if copies.any():
            sent += float((lp.req_bytes * per_block)[copies].sum()) * (miss if tma_miss is None else tma_miss)
        bandwidth = p.total_blocks * sent / (p.dram_bytes_per_cycle * plateau)
    wgmma = lp.path == loop_program.WGMMA
    if wgmma.any():  # the Tensor pipes: each wgmma holds its warp's pipe ``arg`` MMA intervals
        per_block = lp.warps_executing(p.warps_per_block, p.producer_warps) * lp.executions
        busy = float((lp.arg * per_block)[wgmma].sum()) * p.mma_interval
        issue = max(issue, p.total_blocks * busy / schedulers)
    chain = _chain_cycles(p, lp)
    waves = -(-p.total_blocks // (p.active_blocks_per_sm * p.sm_count))
    latency = waves * lp.trip * float(chain[body].sum()) + waves * float(chain[~body].sum())
    if lp.flat:
        latency /= warps  # the mean warp's chain
    return int(max(issue, bandwidth, latency))


@dataclass(frozen=True)
class RunEstimate:
    """What a run will cost, known before it starts."""

    cycles: int  # a lower bound (estimate_cycles)
    memory_bytes: int  # the most it holds: records plus the series/trace budgets
    max_cycles: int
    memory_budget_bytes: int

    def check(self) -> None:
        """Refuse, before anything runs, a run beyond the cycle limit or the memory budget."""
        if self.cycles > self.max_cycles:
            raise InputError("scenario", f"the run needs at least {self.cycles:,} cycles (estimated before it "
                                         f"starts), above the simulator's limit of {self.max_cycles:,}; "
                                         "shorten workload.loop or the grid")
        if self.memory_bytes > self.memory_budget_bytes:
            raise InputError("scenario", f"the run would hold about {self.memory_bytes / 2**30:.1f} GiB (per-warp "
                                         f"and per-block records), above the simulator's budget of "
                                         f"{self.memory_budget_bytes / 2**30:.1f} GiB; use fewer blocks or warps")


def estimate_run(scenario: Scenario, *, params: SimParams | None = None,
                 program: WarpProgram | None = None, loop: LoopProgram | None = None) -> RunEstimate:
    """Cycles and memory of a run, estimated cheaply from the scenario and its program (nothing is
    simulated; without ``program``, the scenario's: see :func:`scenario_program`; ``loop``: the
    program already lowered, e.g. a flat one)."""
    lp = loop if loop is not None else lower(program if program is not None else scenario_program(scenario)[0])
    p = params or params_for(scenario, uses_tensor_cores=lp.uses_tensor_cores)
    lim = _limits()
    held = (held_bytes(p, lp.n_regs, lp.n_rows, _mbarriers(p.total_blocks, p.stages, lp, size_only=True))
            + (program_bytes(lp) if lp.flat else 0))
    return RunEstimate(estimate_cycles(p, lp, _tma_miss(scenario, p, lp)), int(held), int(lim["max_cycles"]),
                       int(lim["memory_budget_bytes"]))


def _tma_miss(scenario: Scenario, p: SimParams, lp: LoopProgram) -> float | None:
    """The share of a workload's tile copies that are first touches (the least device memory sends for them), or
    None without tiles."""
    tiles = scenario.workload.tiles if scenario.kernel is None else None
    copies = (lp.path == loop_program.TMA) & (lp.arg > 0)
    if tiles is None or not copies.any():
        return None
    from explorer.toolchain.addresses import tma_layout

    total = p.total_blocks * lp.trip * float(lp.req_bytes[copies].sum())
    return min(1.0, tma_layout(tiles).first_touch_bytes(p.total_blocks, lp.trip) / max(total, 1.0))


def feed_estimate(scenario: Scenario, p: SimParams, feed) -> RunEstimate:
    """A streamed flat program's up-front estimate (``explorer.sim.executed.ProgramFeed``): the run of the
    first chunk's blocks, its cycles scaled to the grid (exact when one chunk holds the launch); its memory
    the run's records and what the feed may hold (its window and its store of executed blocks)."""
    from dataclasses import replace

    loaded = feed.estimate_blocks  # the first chunk's blocks, fully expanded for the estimate
    first = estimate_run(scenario, params=replace(p, total_blocks=loaded), loop=feed.loaded_loop())
    cycles = first.cycles if loaded == p.total_blocks else int(first.cycles * p.total_blocks / loaded)
    held = held_bytes(p, feed.loop.n_regs, feed.n_rows) + feed.held_bytes()
    return RunEstimate(cycles, int(held), first.max_cycles, first.memory_budget_bytes)


def held_bytes(p: SimParams, n_regs: int, n_rows: int, mbarrier_bytes: int = 0) -> int:
    """What a run holds besides a flat program: per-warp and per-block records, warp state, the
    blocks' stage mbarriers (``mbarrier_bytes``: a tma pipeline's), stall counts, series, trace."""
    lim = _limits()
    warps = p.total_blocks * p.warps_per_block
    slots = p.sm_count * p.warps_per_sm
    state = (slots * (9 * n_regs + 64 + 8 * (A_RING + RING)) + p.total_blocks * 2 * p.warps_per_block
             + mbarrier_bytes + n_rows * len(NAMES) * 8 + 2 * n_rows * 8
             + PcEvents.BUFFER_ENTRIES * (PcEvents.ENTRY_BYTES + PcEvents.MASK_BYTES)
             + StateEvents.BUFFER_ENTRIES * StateEvents.ENTRY_BYTES + slots * 4)
    caches = 24 * (p.sm_count * p.l1_sets * p.l1_ways + p.l2_sets * p.l2_ways) + 8 * p.dram_queues
    return int(warps * BYTES_PER_WARP + p.total_blocks * BYTES_PER_BLOCK + state + caches
               + lim["series_budget_bytes"] + lim["budget_bytes"] * 3 // 2)


def program_bytes(lp: LoopProgram) -> int:
    return int(sum(a.nbytes for a in (lp.path, lp.unit, lp.latency, lp.wait_state, lp.dst, lp.src, lp.req_bytes,
                                      lp.row, lp.entry, lp.role, lp.arg)))


def program_budget(p: SimParams, n_regs: int, n_rows: int) -> int:
    """The most a flat program may hold in a run of ``p``: the memory budget less everything else the
    run holds."""
    return max(0, int(_limits()["memory_budget_bytes"]) - held_bytes(p, n_regs, n_rows))


def _progress_fraction(t: int, exited: int, total_warps: int, expected: int) -> float:
    """How far a run is: cycles against the estimate, or warps finished, whichever is further.

    The estimate is a lower bound, so past it the fraction keeps moving towards 1
    (0.9 at the estimate, 0.95 at twice it, ...) rather than stopping.
    """
    x = t / max(expected, 1)
    by_time = 0.9 * x if x <= 1 else 1 - 0.1 / x
    return min(0.999, max(by_time, 0.999 * exited / max(total_warps, 1)))


# --------------------------------------------------------------------------- state
def _initial_g(p: SimParams) -> np.ndarray:
    g = np.zeros(len(G), np.int64)  # cycle 0, nothing placed, no warp left
    g[G.DISPATCH] = 1
    g[G.LOADED_BLOCKS] = p.total_blocks  # a streamed program (explorer.sim.executed.ProgramFeed) lowers it
    return g


def _config_arrays(p: SimParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cfg_i = np.array([getattr(p, name) for name in CFG_INT_FIELDS], dtype=np.int64)
    cfg_f = np.array([getattr(p, name) for name in CFG_FLOAT_FIELDS], dtype=np.float64)
    return cfg_i, cfg_f, np.array(p.pipe_intervals, dtype=np.float64)


def _mbarriers(blocks: int, stages: int, lp: LoopProgram, size_only: bool = False):
    """Every block's stage mbarriers (kernel.M_*): nothing filled, nothing released yet; one unused
    entry for a program without tma (the loop reads them only for tma). ``size_only``: their bytes."""
    shape = (blocks, stages, M_SLOTS) if (lp.path == loop_program.TMA).any() else (1, 1, M_SLOTS)
    if size_only:
        return int(np.prod(shape)) * 8
    m = np.zeros(shape, np.int64)
    m[:, :, [M_FULL_ITER, M_FILL_ITER, M_FREE_ITER]] = -1
    return m


def _set_index(lines: np.ndarray, sets: int) -> np.ndarray:
    """kernel._set_index over an array."""
    return (lines ^ (lines >> 13) ^ (lines >> 26)) % sets


def _l2_state(p: SimParams) -> np.ndarray:
    """L2's entries when the kernel starts (kernel C_TAG, C_BITS, C_AGE): empty, or for a run compared with a
    measured launch that followed an L2 flush by writing (``l2_dirty_bytes``), full of the flush's last lines,
    all sectors valid and dirty, older than anything the kernel touches: its first allocations evict them and
    write them back, as on the hardware."""
    from explorer.toolchain.addresses import FLUSH_BASE

    l2c = np.zeros((p.l2_sets * p.l2_ways, 3), np.int64)  # per entry: tag, sector bits, age
    n = min(p.l2_dirty_bytes, p.l2_bytes) // 128
    if n <= 0:
        return l2c
    lines = FLUSH_BASE // 128 + np.arange(n, dtype=np.int64)
    sets = _set_index(lines, p.l2_sets)
    order = np.lexsort((np.arange(n), sets))  # by set, then in the order the flush wrote them
    s_sorted = sets[order]
    first = np.searchsorted(s_sorted, s_sorted, side="left")
    count = np.bincount(sets, minlength=p.l2_sets)[s_sorted]
    rank = np.arange(n) - first
    keep = rank >= count - p.l2_ways  # a set holds its last l2_ways lines
    slot = np.where(count > p.l2_ways, rank - (count - p.l2_ways), rank)[keep]
    idx = order[keep]
    entry = s_sorted[keep] * p.l2_ways + slot
    l2c[entry, 0] = lines[idx] + 1
    l2c[entry, 1] = 0xFF
    l2c[entry, 2] = idx - n  # before cycle 0, the oldest first
    return l2c


_NO_LINES = np.zeros(0, np.int64)  # no executed addresses (run_cycles' line_tab)


def _loop_records(lp: LoopProgram, a: dict, cfg_i, cfg_f, pipe_iv, p_acc, acc_i, plan, by_lines: bool, feed,
                  rec_map, rec_cell, series, windows, tiles) -> tuple:
    """The cycle loop's state records for one call (kernel.Program, Config, Warps, Places, Blocks, Memory,
    Outputs: see kernel.run_cycles), over the arrays of ``_state_arrays`` (the same arrays on every call; the
    program, the recorded slots' cells, the series window, the unit windows and a feed's line table may be new each
    call)."""
    return (
        Program(lp.path, lp.unit, lp.latency, lp.wait_state, lp.dst, lp.src, lp.req_bytes, lp.role, lp.arg,
                lp.row, lp.entry, lp.active, p_acc, lp.l1_alloc, lp.lines_at if by_lines else _NO_LINES,
                lp.loop_start, lp.loop_end, lp.trip),
        Config(cfg_i, cfg_f, pipe_iv, acc_i, plan, rec_map, windows.shift, tiles),
        Warps(a["w_block"], a["w_phase"], a["w_state"], a["w_start"], a["w_pc"], a["w_iter"], a["w_wake"],
              a["w_wkind"], a["w_drain"], a["w_age"], a["w_tl"], a["w_next"], a["w_since"], a["reg_ready"],
              a["reg_kind"], a["w_async"]),
        Places(a["sp_next"], a["sp_last"], a["sp_pipe"], a["sp_warps"], a["sp_hi"], a["sm_l1"], a["sm_smem"],
               a["sm_blocks"], a["sm_order"], a["b_fixed"]),
        Blocks(a["b_sm"], a["b_start"], a["b_end"], a["b_alive"], a["b_arrived"], a["b_slot"], a["b_mbar"]),
        Memory(a["l1c"], a["l1f"], a["l2c"], a["l2f"], a["lbuf"], feed.line_table if by_lines else _NO_LINES,
               a["mq"], a["dram_q"], a["rng"], a["mem"], windows.busy, windows.overflow),
        Outputs(a["g"], a["sc"], a["ev_t"], a["ev_sm"], a["ev_d"], series, a["stall"], a["row_sect"],
                a["pe_t"], a["pe_cell"], a["pe_row"], a["pe_mask"], a["st_t"], a["st_cell"], a["st_state"], rec_cell,
                a["pend_slot"], a["pend_gi"], a["pend_state"], a["scratch"]),
    )


def _tma_tiles(scenario: Scenario, lp: LoopProgram) -> np.ndarray:
    """The table of the tiles the workload's TMA copies read (explorer.toolchain.addresses.tma_layout; kernel.Config
    ``tiles``), or one empty row when its copies have none (they draw the scenario's L2 hit rate)."""
    from explorer.toolchain import addresses

    tiles = scenario.workload.tiles if scenario.kernel is None else None
    if tiles is None or not ((lp.path == loop_program.TMA) & (lp.arg > 0)).any():
        return np.zeros((1, addresses.T_COLS), np.int64)
    return addresses.tma_layout(tiles).table()


def _line_scratch(scenario: Scenario) -> np.ndarray:
    """The loop's scratch for one request's lines (kernel.LBUF_ROWS rows): 128 (a generated kernel's request: 32
    lanes; an executed access's sectors, at most MAX_REQ_BYTES / 32), or a TMA copy's most lines."""
    n = 128
    tiles = scenario.workload.tiles if scenario.kernel is None else None
    if tiles is not None:
        from explorer.toolchain.addresses import tma_layout

        n = max(n, tma_layout(tiles).max_lines())
    return np.zeros((LBUF_ROWS, n), np.int64)


def _access_plan(scenario: Scenario, p: SimParams, lp: LoopProgram):
    """(per-row access, access table, plan) for the loop: a generated kernel's rows compute their addresses
    (explorer.toolchain.addresses); rows without a known access draw the scenario's hit rates (a user's kernel's
    global loads and stores carry their executed lines instead: the feed's ``lines_at``, not this plan; TMA copies
    of tiles theirs: ``_tma_tiles``). An empty per-row array tells the loop no row has an address."""
    from explorer.toolchain import addresses

    acc = lp.access if lp.access.shape[0] == lp.length else np.zeros(0, np.int16)
    if scenario.kernel is not None or not (acc >= 0).any():
        return np.zeros(0, np.int16), np.zeros((1, addresses.A_COLS), np.int64), np.zeros(addresses.P_COLS, np.int64)
    layout = addresses.memory_layout(scenario.workload, scenario.gpu, p.total_blocks * p.warps_per_block)
    return np.ascontiguousarray(acc, np.int16), layout.access_array(), layout.plan_array(scenario.seed)


def _state_arrays(p: SimParams, lp: LoopProgram, order: np.ndarray | None = None,
                  placement: np.ndarray | None = None) -> dict:
    """Every array the compiled loop reads and writes (see kernel.run_cycles). ``order``: the SMs in the order
    the dispatcher goes round them (explorer.sim.dispatch; 0, 1, ... by default); ``placement``: the SM of each
    of the first blocks (a measured launch's, explorer.sim.dispatch.measured_placement)."""
    sm_order = np.empty((2, p.sm_count), np.int64)
    sm_order[0] = np.arange(p.sm_count) if order is None else order
    sm_order[1] = -1  # the cycle each SM last took a block
    fixed = (np.zeros(0, np.int64) if placement is None
             else np.asarray(placement, np.int64)[:p.total_blocks].copy())
    G_ = p.sm_count * p.warps_per_sm
    B = p.total_blocks
    SPS = p.sm_count * p.sub_partitions
    return {
        "w_block": np.full(G_, -1, np.int64),
        "w_phase": np.zeros(G_, np.int8),
        "w_state": np.zeros(G_, np.uint8),  # in warp-slot order (see kernel.run_cycles)
        "w_start": np.zeros(G_, np.int64),
        "w_pc": np.zeros(G_, np.int32),
        "w_iter": np.zeros(G_, np.int32),
        "w_wake": np.zeros(G_, np.int64),
        "w_wkind": np.zeros(G_, np.uint8),
        "w_drain": np.zeros(G_, np.int64),
        "w_age": np.zeros(G_, np.int64),
        "w_tl": np.zeros(G_, np.int8),
        "w_next": np.full(G_, NEVER, np.int64),  # empty slots never change until a block arrives
        "w_since": np.zeros(G_, np.int64),  # in warp-slot order: the cycle its state or row last changed
        "reg_ready": np.zeros((G_, lp.n_regs), np.int64),
        "reg_kind": np.zeros((G_, lp.n_regs), np.uint8),
        "sp_next": np.zeros(SPS, np.int64),
        "sp_last": np.full(SPS, -1, np.int64),
        "sp_pipe": np.zeros((SPS, len(p.pipe_intervals)), np.float64),
        "sm_l1": np.zeros(p.sm_count, np.int64),
        "sm_smem": np.zeros(p.sm_count, np.int64),
        "sm_blocks": np.zeros(p.sm_count, np.int64),
        "l1c": np.zeros((p.sm_count * p.l1_sets * p.l1_ways, 3), np.int64),
        "l1f": np.zeros(p.sm_count * p.l1_sets * p.l1_ways, np.int64),  # per L1 entry: when its fill lands
        "l2c": _l2_state(p),
        "l2f": np.zeros(p.l2_sets * p.l2_ways, np.int64),  # per L2 entry: when its fill from device memory lands
        # a request's lines (the caller's _line_scratch)
        "lbuf": np.zeros((LBUF_ROWS, 128), np.int64),
        "sp_warps": np.zeros(SPS, np.int64),
        "sp_hi": np.zeros(SPS, np.int64),  # slots each sub-partition's warps ever used (kernel.Places)
        "sm_order": sm_order,
        "b_fixed": fixed,
        "b_sm": np.full(B, -1, np.int32),
        "b_start": np.full(B, -1, np.int64),
        "b_end": np.full(B, -1, np.int64),
        "b_alive": np.zeros(B, np.int32),
        "b_arrived": np.zeros(B, np.int32),
        "b_slot": np.full((B, p.warps_per_block), -1, np.int16),  # warp slots each block held
        "w_async": np.zeros((G_, A_RING + RING), np.int64),  # wgmma groups (kernel.A_*)
        "b_mbar": _mbarriers(B, p.stages, lp),
        "g": _initial_g(p),
        # warp slots in each state, GPU-wide (all empty at first)
        "sc": np.array([G_] + [0] * (len(NAMES) - 1), np.int64),
        "mq": np.zeros(len(Q_SLOTS), np.float64),
        "dram_q": np.zeros(p.dram_queues, np.float64),
        "rng": np.array([(p.seed * 0x2545F4914F6CDD1D + 1) % 2**64], np.uint64),
        "ev_t": np.zeros(2 * B * p.warps_per_block, np.int64),
        "ev_sm": np.zeros(2 * B * p.warps_per_block, np.int32),
        "ev_d": np.zeros(2 * B * p.warps_per_block, np.int32),
        "mem": np.zeros(len(MEM_SLOTS), np.float64),
        # state changes the loop queues for the next cycle: at most one issue per sub-partition per cycle
        "pend_slot": np.zeros(SPS, np.int64),
        "pend_gi": np.zeros(SPS, np.int64),
        "pend_state": np.zeros(SPS, np.uint8),
        "stall": np.zeros(lp.n_rows * N_STATES, np.int64),  # [row * N_STATES + state] (LoopProgram.row)
        "row_sect": np.zeros(lp.n_rows * 4, np.int64),  # [row * 4 + k]: L1 hit, L1 miss, L2 hit, L2 miss sectors
        "pe_t": np.zeros(PcEvents.BUFFER_ENTRIES, np.int32),
        "pe_cell": np.zeros(PcEvents.BUFFER_ENTRIES, np.int32),
        "pe_row": np.zeros(PcEvents.BUFFER_ENTRIES, np.int16),
        "pe_mask": np.zeros(PcEvents.BUFFER_ENTRIES, np.uint32),
        "st_t": np.zeros(StateEvents.BUFFER_ENTRIES, np.int32),
        "st_cell": np.zeros(StateEvents.BUFFER_ENTRIES, np.int32),
        "st_state": np.zeros(StateEvents.BUFFER_ENTRIES, np.uint8),
        "scratch": np.zeros(2 * (p.warps_per_sm // p.sub_partitions) + SPS, np.int64),
    }


# --------------------------------------------------------------------------- what a run keeps
class _TraceSink:
    """What the loop records of the chosen SMs' warp slots, within a budget: their state changes
    (``StateEvents``) and next-instruction changes (``PcEvents``).

    The per-slot trace they stand for (1 byte per slot-cycle, ``SimResult.trace``) is built from the state
    events only when a reader asks, so a run writes a few bytes per change instead of a byte per slot every
    cycle. The budget bounds the trace that can be built plus the next-instruction events (as when the loop
    wrote the dense trace itself, so the same SMs are kept), and the state events on their own to half of it
    (~0.1 byte per slot-cycle on the mission example; ``held_bytes`` counts the budget 1.5 times): a run that outgrows either keeps the first half of its SMs
    (dropping the others' events) and goes on; with one SM left, recording stops there and the trace is
    that SM's first ``cycles`` cycles. ``masks``: the next-instruction events keep the
    lanes that issue each instruction too (a flat program: a user kernel's partial masks; every other
    program's warps issue with all 32 lanes, so nothing is kept for them).
    """

    def __init__(self, recorded: np.ndarray, warps_per_sm: int, budget: int, chunk: int, masks: bool = False):
        self.W = warps_per_sm
        self.masks = masks
        self.entry_bytes = PcEvents.ENTRY_BYTES + (PcEvents.MASK_BYTES if masks else 0)
        self.chunk = chunk
        self.budget = budget
        self.full = False  # recording stopped: the trace ends at self.cycles
        self.cycles = 0
        self.events: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = []
        self.states: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.event_bytes = 0  # next-instruction events kept
        self.state_bytes = 0  # state events kept
        self._recorded(np.asarray(recorded, dtype=np.int64))

    def add_events(self, pe_t: np.ndarray, pe_cell: np.ndarray, pe_row: np.ndarray, pe_mask: np.ndarray) -> None:
        if len(pe_t):
            self.events.append((pe_t.copy(), pe_cell.copy(), pe_row.copy(), pe_mask.copy() if self.masks else None))
            self.event_bytes += len(pe_t) * self.entry_bytes

    def add_states(self, st_t: np.ndarray, st_cell: np.ndarray, st_state: np.ndarray) -> None:
        if len(st_t):
            self.states.append((st_t.copy(), st_cell.copy(), st_state.copy()))
            self.state_bytes += len(st_t) * StateEvents.ENTRY_BYTES

    def _keep_events(self, sms: int) -> None:
        """Only the events of the first ``sms`` recorded SMs (cells ri * W + slot)."""
        kept = []
        for t, cell, row, mask in self.events:
            mine = cell < sms * self.W
            kept.append((t[mine], cell[mine], row[mine], None if mask is None else mask[mine]))
        self.events = kept
        states = []
        for t, cell, st in self.states:
            mine = cell < sms * self.W
            states.append((t[mine], cell[mine], st[mine]))
        self.states = states
        self.event_bytes = sum(len(t) for t, _, _, _ in kept) * self.entry_bytes
        self.state_bytes = sum(len(t) for t, _, _ in states) * StateEvents.ENTRY_BYTES

    def _rows_allowed(self) -> int:
        """The cycles whose trace the recorded SMs may keep: the budget's rows less what the next-instruction
        events take (none once the state events alone outgrow half the budget)."""
        if self.state_bytes > self.budget // 2:
            return 0
        return self.rows - self.event_bytes // max(1, len(self.recorded) * self.W)

    def _recorded(self, recorded: np.ndarray) -> None:
        self.recorded = recorded
        k = max(1, len(recorded))
        self.rows = max(self.chunk, self.budget // (k * self.W)) + self.chunk

    def rec_map(self, sm_count: int) -> np.ndarray:
        rec_map = np.full(sm_count, -1, np.int64)
        if not self.full:
            rec_map[self.recorded] = np.arange(len(self.recorded))
        return rec_map

    def rec_cell(self, rec_map: np.ndarray) -> np.ndarray:
        """int32[sm_count * W]: each warp slot's cell in the events (recorded index * W + slot; -1: not recorded),
        in the loop's slot order (sm * W + slot), from ``rec_map``."""
        W = self.W
        slot = np.arange(rec_map.shape[0] * W, dtype=np.int64)
        ri = rec_map[slot // W]
        return np.where(ri >= 0, ri * W + slot % W, -1).astype(np.int32)

    def window(self, t0: int) -> None:
        """Make room for cycles [t0, t0 + chunk); call before rec_map (it may stop recording)."""
        while not self.full and t0 + self.chunk > self._rows_allowed():
            if len(self.recorded) > 1:
                self._recorded(self.recorded[: len(self.recorded) // 2])
                self._keep_events(len(self.recorded))
            else:
                self.full = True
                self.cycles = t0

    def state_events(self, cycles: int) -> StateEvents:
        """The recorded slots' state changes (call once, when the run is done)."""
        if not self.full:
            self.cycles = cycles
        if self.states:
            t, cell, st = (np.concatenate(parts) for parts in zip(*self.states))
        else:
            t, cell, st = np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.uint8)
        return StateEvents(t=t, cell=cell, state=st, warps_per_sm=self.W, sms=len(self.recorded),
                           cycles=self.cycles)

    def pc_events(self) -> PcEvents:
        """The recorded slots' next-instruction changes, in cycle order (call after state_events)."""
        if self.events:
            t, cell, row = (np.concatenate(parts) for parts in list(zip(*self.events))[:3])
            mask = np.concatenate([e[3] for e in self.events]) if self.masks else None
        else:
            t, cell, row = np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int16)
            mask = np.zeros(0, np.uint32) if self.masks else None
        return PcEvents(t=t, cell=cell, row=row, warps_per_sm=self.W, cycles=self.cycles, mask=mask)

    def release(self) -> None:
        self.events = []
        self.states = []


class _SeriesSink:
    """GPU-wide series (N_COLUMNS int32 per cycle): exact while they fit, then binned.

    Exact rows live in one lazily mapped buffer the loop writes into directly.
    When they would outgrow the budget, they become bins of ``stride`` cycles (a
    power of two, at most a chunk) holding each column's min, max and sum; when the
    bins outgrow their budget, neighbours merge and the stride doubles. Chunks start
    at multiples of the chunk length, so every bin but the last is whole.
    """

    def __init__(self, budget: int, chunk: int):
        self.chunk = chunk
        self.exact_rows = max(chunk, budget // (N_COLUMNS * 4)) // chunk * chunk
        self.max_bins = 1 << max(1, (budget // (N_COLUMNS * 16)).bit_length() - 1)  # even: bins merge in pairs
        self.exact = np.empty((self.exact_rows, N_COLUMNS), np.int32)
        self.scratch = None
        self.rows = None  # what the loop writes this chunk
        self.stride = 1
        self.lo = self.hi = self.sum = None
        self.totals = np.zeros(N_COLUMNS, np.int64)  # exact sums over every cycle

    def window(self, t0: int) -> np.ndarray:
        if self.exact is not None and t0 + self.chunk > self.exact_rows:
            self._to_bins(t0)
        self.rows = self.exact[t0:t0 + self.chunk] if self.exact is not None else self.scratch
        return self.rows

    def _to_bins(self, t0: int) -> None:
        stride = 2
        while -(-t0 // stride) > self.max_bins // 2 and stride < self.chunk // 4:
            stride *= 2
        rows = self.exact[:t0].reshape(-1, stride, N_COLUMNS)
        self.lo = np.empty((self.max_bins, N_COLUMNS), np.int32)
        self.hi = np.empty((self.max_bins, N_COLUMNS), np.int32)
        self.sum = np.empty((self.max_bins, N_COLUMNS), np.int64)
        n = rows.shape[0]
        self.lo[:n] = rows.min(axis=1)
        self.hi[:n] = rows.max(axis=1)
        self.sum[:n] = rows.sum(axis=1, dtype=np.int64)
        self.stride = stride
        self.exact = None
        self.scratch = np.empty((self.chunk, N_COLUMNS), np.int32)

    def commit(self, t0: int, t_now: int) -> None:
        m = t_now - t0
        rows = self.rows[:m]
        self.totals += rows.sum(axis=0, dtype=np.int64)
        if self.exact is not None:
            return
        first = t0 // self.stride
        while first + -(-m // self.stride) > self.max_bins:
            self._merge()
            first = t0 // self.stride
        whole = m // self.stride * self.stride
        n = whole // self.stride
        if n:
            r = rows[:whole].reshape(n, self.stride, N_COLUMNS)
            self.lo[first:first + n] = r.min(axis=1)
            self.hi[first:first + n] = r.max(axis=1)
            self.sum[first:first + n] = r.sum(axis=1, dtype=np.int64)
        if whole < m:  # the run's last, partial bin
            r = rows[whole:m]
            self.lo[first + n] = r.min(axis=0)
            self.hi[first + n] = r.max(axis=0)
            self.sum[first + n] = r.sum(axis=0, dtype=np.int64)

    def _merge(self) -> None:
        """Neighbouring bins into one (stride doubles). The bins written so far are whole and even
        in number: they end at a chunk boundary, and a bin stays shorter than half a chunk."""
        assert 2 * self.stride <= self.chunk, "more cycles than the series budget can bin"
        half = self.max_bins // 2
        for arr, fn in ((self.lo, np.minimum), (self.hi, np.maximum), (self.sum, np.add)):
            arr[:half] = fn(arr[0:2 * half:2], arr[1:2 * half:2])
        self.stride *= 2

    def result(self, cycles: int) -> Series:
        if self.exact is not None:
            rows = self.exact[:cycles]
            return Series(stride=1, cycles=cycles, mean=rows, lo=rows, hi=rows)
        n = -(-cycles // self.stride)
        lengths = np.full(n, self.stride, np.float64)
        lengths[-1] = cycles - (n - 1) * self.stride
        mean = (self.sum[:n] / lengths[:, None]).astype(np.float32)
        return Series(stride=self.stride, cycles=cycles, mean=mean, lo=self.lo[:n].copy(), hi=self.hi[:n].copy())

    def release(self) -> None:
        self.exact = self.scratch = self.rows = self.lo = self.hi = self.sum = None


class _UnitWindows:
    """Per-window busy of every unit: ``busy[window, unit]``, window = cycle >> shift.

    The shift starts from the estimate (about unit_windows / 2 windows) and grows by
    one (neighbours merged) whenever the run needs more than unit_windows windows.
    Before each chunk the array covers the chunk and what the memory queues already
    hold; bytes a queue moves past that come back in the loop's overflow list.
    """

    OVERFLOW_ENTRIES = 65536

    def __init__(self, expected: int, max_windows: int, margin: int):
        self.max_windows = max_windows
        self.margin = margin
        self.shift = 4
        while (expected >> self.shift) > max_windows // 2:
            self.shift += 1
        self.busy = np.zeros((1, len(UNITS)), np.float64)
        self.overflow = np.zeros((self.OVERFLOW_ENTRIES, 3), np.float64)

    def _merge_neighbours(self) -> None:
        self.shift += 1
        n = self.busy.shape[0] // 2 * 2
        merged = self.busy[0:n:2] + self.busy[1:n:2]
        if n < self.busy.shape[0]:
            merged = np.concatenate([merged, self.busy[n:]])
        self.busy = merged

    def _cover(self, cycle: float) -> None:
        need = (int(cycle) >> self.shift) + 1
        if need > self.busy.shape[0]:
            grown = np.zeros((max(need, 2 * self.busy.shape[0]), len(UNITS)), np.float64)
            grown[: self.busy.shape[0]] = self.busy
            self.busy = grown

    def prepare(self, t_limit: int, queued_until: float) -> None:
        """Room for every cycle the loop may write until t_limit (a request's data path starts at most
        ``margin`` cycles after it issues; queues may hold work until ``queued_until``), and at most
        max_windows windows of the run itself."""
        while (t_limit >> self.shift) >= self.max_windows:
            self._merge_neighbours()
        self._cover(max(t_limit + self.margin, queued_until + self.margin))

    def collect(self, g: np.ndarray) -> None:
        """Fold the loop's overflow entries (window, unit, amount) into busy."""
        n = int(g[G.OVERFLOW])
        if n:
            entries = self.overflow[:n]
            w = entries[:, 0].astype(np.int64)
            self._cover(float(w.max() << self.shift))
            np.add.at(self.busy, (w, entries[:, 1].astype(np.int64)), entries[:, 2])
            g[G.OVERFLOW] = 0

    def result(self, cycles: int) -> tuple[np.ndarray, int]:
        """Busy sums [windows, units] for the run's windows, and the window length in cycles."""
        n = max(1, (cycles + (1 << self.shift) - 1) >> self.shift)
        self._cover(float(n << self.shift))
        busy = self.busy[:n].copy()
        late = self.busy[n:].sum(axis=0)
        # device memory may still write back the kernel's last lines after it ended (kernel._kernel_end):
        # that bus time is the kernel's, counted in its last windows up to their length (the bus moves
        # no faster than its peak); nothing else moves after the run
        length = np.full(n, float(1 << self.shift))
        length[-1] = cycles - (n - 1) * (1 << self.shift) or length[-1]
        for u in (UNITS.index("l2"), UNITS.index("dram")):  # capacity 1: busy cycles per cycle
            for w in range(n - 1, -1, -1):
                total = busy[w, u] + late[u]
                if total <= length[w]:
                    busy[w, u] = total
                    late[u] = 0.0
                    break
                busy[w, u] = length[w]
                late[u] = total - length[w]
        busy[n - 1] += late
        return busy, 1 << self.shift


# --------------------------------------------------------------------------- running
def choose_recorded_sms(p: SimParams, record_sms: Sequence[int] | None) -> np.ndarray:
    """The SMs whose per-slot states are kept: all (the default) or the ones asked for."""
    if record_sms is None:
        return np.arange(p.sm_count)
    sms = sorted(set(int(s) for s in record_sms))
    for s in sms:
        if not 0 <= s < p.sm_count:
            raise InputError("record_sms", f"SM {s} does not exist; this GPU has SMs 0..{p.sm_count - 1}")
    return np.asarray(sms, dtype=np.int64)


def _close_stall_counts(p: SimParams, a: dict, cycles: int, rows: np.ndarray) -> np.ndarray:
    """int64[n_rows, n_states]: the loop's counts with each slot's cycles since its last change (to the run's
    end); ``rows``: the program's LoopProgram.row."""
    gi = warp_of_slot(p.sm_count, p.warps_per_sm, p.sub_partitions)
    state = a["w_state"].astype(np.int64)
    np.add.at(a["stall"], rows[a["w_pc"][gi]].astype(np.int64) * N_STATES + state, cycles - a["w_since"])
    stall = a["stall"].reshape(-1, N_STATES)
    stall[:, EMPTY] = 0  # the loop adds empty slots' cycles there (branch-free); they belong to no warp
    return stall


def row_counts(p: SimParams, lp: LoopProgram, threads_per_block: int) -> tuple[np.ndarray, np.ndarray]:
    """(int64[n_rows] warp-instructions that executed each row, int64[n_rows] their active lanes summed).

    A flat program (a user kernel) from its entries, each with the lanes that issued it; every
    other program's warps run its rows as often as ``LoopProgram.executions`` says, each warp
    of a block that runs the row (its role's), with every lane of the warp's threads (the
    engine's program has no masks; a block's last warp holds what is left of its threads,
    counted where every warp runs the row).
    """
    if lp.flat:
        executions = np.bincount(lp.row, minlength=lp.n_rows).astype(np.int64)
        lanes = np.bincount(lp.row, weights=np.bitwise_count(lp.active), minlength=lp.n_rows)
        return executions, np.rint(lanes).astype(np.int64)
    warps = lp.warps_executing(p.warps_per_block, p.producer_warps)
    per_row = lp.executions * warps * p.total_blocks
    lanes = per_row * 32 - np.where(warps == p.warps_per_block,
                                    lp.executions * p.total_blocks * (p.warps_per_block * 32 - threads_per_block), 0)
    executions = np.zeros(lp.n_rows, np.int64)
    summed = np.zeros(lp.n_rows, np.int64)
    np.add.at(executions, lp.row, per_row)
    np.add.at(summed, lp.row, lanes)
    return executions, summed


_WARM = False


def warm_up() -> None:
    """Load (or, on a new machine, compile) the cycle loop before anything is timed.

    numba compiles on first call and caches to disk; ``sim_seconds`` must measure
    the simulation, not the loading, so the first simulate() of a process runs a
    one-block scenario first (about a millisecond once the cache exists).
    """
    global _WARM
    if not _WARM:
        _WARM = True
        tiny = Scenario().with_values(**{"launch.grid": [1, 1, 1], "launch.block": [32, 1, 1], "workload.loop": 1,
                                         "program": "model"})
        simulate(tiny)


def simulate(
    scenario: Scenario,
    *,
    record_sms: Sequence[int] | None = None,
    trace_budget_bytes: int | None = None,
    series_budget_bytes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    params: SimParams | None = None,
    program: WarpProgram | None = None,
    loop: LoopProgram | None = None,
    feed=None,
    placement: np.ndarray | None = None,
) -> SimResult:
    """Simulate a scenario cycle by cycle. Deterministic for the scenario (seed included).

    A run beyond the limits is refused before it starts (:class:`RunEstimate`).
    ``progress(done, total)`` is called after every chunk: done / total is the
    fraction of the run done, judged against the up-front estimate (see
    :func:`_progress_fraction`). ``cancel()`` returning True raises
    :class:`Cancelled` at the next chunk boundary, after the run's buffers are let go.
    ``program`` replaces the scenario's (:func:`scenario_program`; its notice, if any, is
    ``result.program_notice``); ``loop``, when given, is what runs (``program`` then only names
    its rows: a flat program's listing). The budgets default to ``sim_model.toml`` [trace] (smaller
    ones exercise what long runs keep). A ``[kernel]`` scenario (the user's own kernel) runs
    through :func:`simulate_kernel`; ``feed`` (``explorer.sim.executed.ProgramFeed``) is then what runs, a
    window of its executed stream at a time. ``placement``: the SM of each of the first blocks, as a
    measured launch placed them (explorer.sim.dispatch.measured_placement; a comparison with that launch).
    """
    if program is None and loop is None and scenario.kernel is not None:  # on every core (the window's way)
        return simulate_kernel(scenario, record_sms=record_sms, trace_budget_bytes=trace_budget_bytes,
                               series_budget_bytes=series_budget_bytes, progress=progress, cancel=cancel,
                               params=params, jobs=None)[0]
    notice = None
    if program is None:
        program, notice = scenario_program(scenario)
    lp = feed.loop if feed is not None else loop if loop is not None else lower(program)
    p = params or params_for(scenario, uses_tensor_cores=lp.uses_tensor_cores)
    warm_up()
    estimate = feed_estimate(scenario, p, feed) if feed is not None else estimate_run(scenario, params=p, program=program,
                                                                                      loop=lp)
    estimate.check()
    lim = _limits()
    budget = lim["budget_bytes"] if trace_budget_bytes is None else trace_budget_bytes
    chunk = int(lim["chunk_cycles"])
    recorded = choose_recorded_sms(p, record_sms)
    likely = int(estimate.cycles * SIZING_MARGIN)
    if record_sms is None and likely * p.sm_count * p.warps_per_sm > budget:
        # clearly too long to keep every SM: keep the first SMs the budget allows
        recorded = recorded[: max(1, min(p.sm_count, budget // max(1, likely * p.warps_per_sm)))]

    from explorer.sim.dispatch import sm_order

    a = _state_arrays(p, lp, sm_order(scenario.gpu), placement)
    p_acc, acc_i, plan = _access_plan(scenario, p, lp)
    tiles = _tma_tiles(scenario, lp)
    a["lbuf"] = _line_scratch(scenario)
    # a user kernel's global loads and stores meet the caches' tags by the addresses its lanes executed, unless its
    # [kernel] sets a hit rate (an override: every access then draws the rates, as before issue 29)
    by_lines = feed is not None and not (scenario.kernel is not None
                                         and (scenario.kernel.l1_hit_rate or scenario.kernel.l2_hit_rate))
    cfg_i, cfg_f, pipe_iv = _config_arrays(p)
    total_warps = p.total_blocks * p.warps_per_block
    max_req = int(lp.req_bytes.max(initial=0)) if feed is None else feed.MAX_REQ_BYTES
    margin = max(p.l1_queue_cycles, p.shared_queue_cycles) + max_req // 32 + 64
    trace = _TraceSink(recorded, p.warps_per_sm, budget, chunk, masks=lp.flat)
    series = _SeriesSink(int(lim["series_budget_bytes"] if series_budget_bytes is None else series_budget_bytes),
                         chunk)
    windows = _UnitWindows(estimate.cycles, int(lim["unit_windows"]), margin)
    started = time.perf_counter()
    fed = feed.seconds if feed is not None else 0.0
    try:
        while True:
            t0 = int(a["g"][G.T])
            trace.window(t0)  # first: it may stop recording, which rec_map must see
            rec_map = trace.rec_map(p.sm_count)
            rec_cell = trace.rec_cell(rec_map)
            rows = series.window(t0)
            t_now = t0
            while True:  # once, unless the loop returns early to let ub grow
                windows.prepare(t0 + chunk, max(float(a["mq"].max()), float(a["dram_q"].max())))
                done = t_now - t0
                call_end = t0 + chunk
                if feed is not None:  # every warp has entries for the call, the blocks it may place are loaded
                    lp = feed.prepare(a)
                    call_end = min(call_end, t_now + feed.cycles_per_call)  # a warp issues <= 1 per cycle
                run_cycles(*_loop_records(lp, a, cfg_i, cfg_f, pipe_iv, p_acc, acc_i, plan, by_lines, feed, rec_map,
                                          rec_cell, rows[done:], windows, tiles), call_end)
                t_now = int(a["g"][G.T])
                windows.collect(a["g"])
                n_pe = int(a["g"][G.PC_EVENTS])
                trace.add_events(a["pe_t"][:n_pe], a["pe_cell"][:n_pe], a["pe_row"][:n_pe], a["pe_mask"][:n_pe])
                a["g"][G.PC_EVENTS] = 0
                n_st = int(a["g"][G.ST_EVENTS])
                trace.add_states(a["st_t"][:n_st], a["st_cell"][:n_st], a["st_state"][:n_st])
                a["g"][G.ST_EVENTS] = 0
                if a["g"][G.DONE] or t_now >= t0 + chunk:
                    break
            series.commit(t0, t_now)
            if progress is not None:
                f = _progress_fraction(t_now, int(a["g"][G.EXITED]), total_warps, estimate.cycles)
                progress(int(f * 1_000_000), 1_000_000)
            if a["g"][G.DEADLOCK]:
                raise SimulationError(f"the simulation stalled for good at cycle {t_now} "
                                      f"(no warp can ever issue): {scenario.to_dict()}")
            if a["g"][G.DONE]:
                break
            if t_now >= estimate.max_cycles:
                raise InputError("scenario", f"the run needs more than {estimate.max_cycles:,} cycles, the "
                                             f"simulator's limit (estimated {estimate.cycles:,} before it started); "
                                             "shorten workload.loop or the grid")
            if cancel is not None and cancel():
                raise Cancelled()
        # the timing alone: not the chunks a feed executed meanwhile
        sim_seconds = time.perf_counter() - started - (feed.seconds - fed if feed is not None else 0.0)
        cycles = int(a["g"][G.T])
        busy, window_cycles = windows.result(cycles)
        n_events = int(a["g"][G.EVENTS])
        stall = _close_stall_counts(p, a, cycles, lp.row)
        executions, lanes = (feed.row_counts() if feed is not None
                             else row_counts(p, lp, scenario.launch.threads_per_block))
        return SimResult(
            scenario=scenario,
            params=p,
            cycles=cycles,
            series=series.result(cycles),
            series_totals=series.totals,
            state_events=trace.state_events(cycles),
            recorded_sms=np.asarray(trace.recorded, dtype=np.int64),
            blocks=BlockRecords(
                block=np.arange(p.total_blocks, dtype=np.int64),
                sm=a["b_sm"].copy(),
                start=a["b_start"].copy(),
                end=a["b_end"].copy(),
            ),
            residency=Residency.from_events(p.sm_count, a["ev_t"][:n_events], a["ev_sm"][:n_events],
                                            a["ev_d"][:n_events]),
            block_slots=a["b_slot"],
            memory=dict(zip(MEM_SLOTS, a["mem"].tolist())),
            unit_busy_cycles=busy,
            window_cycles=window_cycles,
            warp_instructions=(feed.entries if feed is not None else lp.warp_instructions(total_warps) if lp.flat else
                               p.total_blocks * lp.instructions_per_block(p.warps_per_block, p.producer_warps)),
            sim_seconds=sim_seconds,
            warp_program=program,
            stall_by_instruction=stall,
            sectors_by_instruction=a["row_sect"].reshape(-1, 4).copy(),
            pc_events=trace.pc_events(),
            row_executions=executions,
            row_active_lanes=lanes,
            program_notice=notice,
        )
    finally:  # a cancelled or failed run keeps nothing: its traceback must not hold the buffers
        trace.release()
        series.release()
        a.clear()
        windows.busy = windows.overflow = None




def simulate_kernel(scenario: Scenario, *, keep_inputs: bool = False, kernel=None, params: SimParams | None = None,
                    execution_progress=None, jobs: int | None = None, **options):
    """A ``[kernel]`` scenario: its kernel executed lane by lane, then what executed timed.

    Returns (SimResult, KernelRun). The result's ``scenario`` carries the cubin's registers,
    shared memory and barriers, ``warp_instructions`` the executed warp-instructions,
    ``warp_program`` the kernel's listing (the rows ``stall_by_instruction`` and ``pc_trace``
    name), and ``extra["execution"]`` the execution's metrics (SIMT efficiency, sectors per
    request, bank conflicts); the KernelRun holds the buffers (their contents before the
    kernel too with ``keep_inputs``; ``execution_progress`` sees the execution's progress, as
    ``session.execute_chunks``'s ``progress``; ``jobs`` threads execute it, every core by default: the
    results are the same). ``params`` replaces the
    scenario's (a calibrated run);
    ``options`` are :func:`simulate`'s. The kernel is executed again on every call (a
    re-simulation of one SM too): a run is a pure function of its scenario, and keeping the
    executed program between runs would hold its memory twice.
    """
    from explorer.sim.executed import kernel_feed

    warm_up()
    if jobs is None:
        from explorer.sass.execute.run import default_jobs

        jobs = default_jobs()
    prepared = kernel_feed(scenario, budget=program_budget, keep_inputs=keep_inputs, kernel=kernel,
                           progress=execution_progress, jobs=jobs)
    result = simulate(prepared.scenario, program=prepared.listing(), feed=prepared.feed,
                      params=params or prepared.params, **options)
    run = prepared.run()
    result.warp_program = prepared.listing(run.result)  # which rows executed: known once every block ran
    result.extra["execution"] = run.result.metrics
    return result, run
