"""Run a Scenario through the cycle loop, chunk by chunk, into a SimResult.

The loop runs in chunks (``sim_model.toml``: trace.chunk_cycles) so a caller can
show progress and cancel between chunks, and so the trace grows in pieces. The
dense per-slot trace (1 byte per warp-slot-cycle) is kept for every SM while it
fits the budget; past it, only the first SMs (or the ones asked for) are kept, and
the rest can be re-simulated on demand: a run is a pure function of its scenario.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.sim.kernel import CFG_FLOAT_FIELDS, CFG_INT_FIELDS, NEVER, G, run_cycles
from explorer.sim.params import SimParams, model_constants, params_for
from explorer.sim.program import build_program
from explorer.sim.result import SimResult
from explorer.sim.states import NAMES
from explorer.timeline import BlockRecords, Residency


class Cancelled(Exception):
    """The caller asked the simulation to stop (a newer one supersedes it)."""


class SimulationError(RuntimeError):
    """The model reached a state it cannot leave (a bug, reported with the scenario)."""


@dataclass
class _State:
    """Every array the compiled loop reads and writes (see kernel.run_cycles)."""

    arrays: dict

    @classmethod
    def allocate(cls, p: SimParams, n_regs: int) -> "_State":
        G = p.sm_count * p.warps_per_sm
        B = p.total_blocks
        a = {
            "w_block": np.full(G, -1, np.int64),
            "w_phase": np.zeros(G, np.int8),
            "w_state": np.zeros(G, np.uint8),  # in warp-slot order (see kernel.run_cycles)
            "w_start": np.zeros(G, np.int64),
            "w_pc": np.zeros(G, np.int32),
            "w_iter": np.zeros(G, np.int32),
            "w_wake": np.zeros(G, np.int64),
            "w_wkind": np.zeros(G, np.uint8),
            "w_drain": np.zeros(G, np.int64),
            "w_age": np.zeros(G, np.int64),
            "w_tl": np.zeros(G, np.int8),
            "w_next": np.full(G, NEVER, np.int64),  # empty slots never change until a block arrives
            "reg_ready": np.zeros((G, n_regs), np.int64),
            "reg_kind": np.zeros((G, n_regs), np.uint8),
            "sp_next": np.zeros(p.sm_count * p.sub_partitions, np.int64),
            "sp_last": np.full(p.sm_count * p.sub_partitions, -1, np.int64),
            "sp_fma": np.zeros(p.sm_count * p.sub_partitions, np.int64),
            "sp_sfu": np.zeros(p.sm_count * p.sub_partitions, np.int64),
            "sp_mma": np.zeros(p.sm_count * p.sub_partitions, np.int64),
            "sm_l1": np.zeros(p.sm_count, np.int64),
            "sm_smem": np.zeros(p.sm_count, np.int64),
            "sm_blocks": np.zeros(p.sm_count, np.int64),
            "b_sm": np.full(B, -1, np.int32),
            "b_start": np.full(B, -1, np.int64),
            "b_end": np.full(B, -1, np.int64),
            "b_alive": np.zeros(B, np.int32),
            "b_arrived": np.zeros(B, np.int32),
            "b_slot": np.full((B, p.warps_per_block), -1, np.int16),  # warp slots each block held
            "g": _initial_g(p),
            # warp slots in each state, GPU-wide (all empty at first)
            "sc": np.array([G] + [0] * (len(NAMES) - 1), np.int64),
            "dram_free": np.zeros(1, np.float64),
            "rng": np.array([(p.seed * 0x2545F4914F6CDD1D + 1) % 2**64], np.uint64),
            "ev_t": np.zeros(2 * B * p.warps_per_block, np.int64),
            "ev_sm": np.zeros(2 * B * p.warps_per_block, np.int32),
            "ev_d": np.zeros(2 * B * p.warps_per_block, np.int32),
            "mem_bytes": np.zeros(4, np.float64),
        }
        return cls(a)


def _initial_g(p: SimParams) -> np.ndarray:
    g = np.zeros(len(G), np.int64)  # cycle 0, nothing placed, no warp left
    g[G.FREE_BLOCK_SLOTS] = p.sm_count * p.active_blocks_per_sm
    return g


def _config_arrays(p: SimParams) -> tuple[np.ndarray, np.ndarray]:
    cfg_i = np.array([getattr(p, name) for name in CFG_INT_FIELDS], dtype=np.int64)
    cfg_f = np.array([getattr(p, name) for name in CFG_FLOAT_FIELDS], dtype=np.float64)
    return cfg_i, cfg_f


class _TraceSink:
    """Where the loop writes per-slot states (1 byte per slot-cycle), within a budget.

    One buffer sized for the budget but allocated lazily (np.empty: the OS maps a
    page only when the loop first writes it), so a run that fits returns a view and
    copies nothing. A run that outgrows it either continues in chunks (an explicit,
    small set of SMs) or stops recording (all SMs by default: the caller re-runs
    with as many SMs as the budget allows for the now known length — runs are
    deterministic, and growing or trimming a big trace costs more than that here).
    """

    def __init__(self, recorded: np.ndarray, warps_per_sm: int, budget: int, chunk: int, may_drop: bool):
        self.recorded = recorded
        self.W = warps_per_sm
        self.chunk = chunk
        self.may_drop = may_drop
        self.capacity = max(chunk, budget // max(1, len(recorded) * warps_per_sm))
        self.buffer = np.empty((self.capacity + chunk, len(recorded), warps_per_sm), np.uint8)
        self.parts: list[np.ndarray] | None = None
        self.overflowed = False
        self.t0 = 0

    def rec_map(self, sm_count: int) -> np.ndarray:
        rec_map = np.full(sm_count, -1, np.int64)
        if not self.overflowed:
            rec_map[self.recorded] = np.arange(len(self.recorded))
        return rec_map

    def window(self, t0: int) -> np.ndarray:
        self.t0 = t0
        if self.overflowed:
            return np.empty((self.chunk, 0, self.W), np.uint8)
        if self.parts is None and t0 + self.chunk > self.buffer.shape[0]:
            if self.may_drop:
                self.overflowed = True
                self.buffer = None
                return np.empty((self.chunk, 0, self.W), np.uint8)
            self.parts = [self.buffer[:t0]]
        if self.parts is None:
            return self.buffer[t0:t0 + self.chunk]
        self.parts.append(np.empty((self.chunk, len(self.recorded), self.W), np.uint8))
        return self.parts[-1]

    def advance(self, t_now: int) -> None:
        if self.parts is not None and not self.overflowed:
            self.parts[-1] = self.parts[-1][: t_now - self.t0]

    def result(self, cycles: int) -> np.ndarray:
        if self.parts is None:
            return self.buffer[:cycles]
        return np.concatenate(self.parts)[:cycles]


def estimate_cycles(p: SimParams, program) -> int:
    """A quick lower-bound-style estimate of a run's length, to size the trace up front.

    The largest of three bounds: issue (every scheduler busy every cycle), DRAM
    bandwidth (all missing bytes at the sustained rate), and latency (each warp's
    dependent chain, once per wave). Usually within a factor of two of the truth.
    """
    from explorer.sim.program import FMA, LDG, LDS, MMA, SFU, STG

    warps = p.total_blocks * p.warps_per_block
    issue = warps * program.instructions_per_warp / (p.sm_count * p.sub_partitions)
    miss = (1 - p.l1_hit_rate) * (1 - p.l2_hit_rate)
    dram_bytes = sum(int(b) for op, b in zip(program.op, program.req_bytes) if op in (LDG, STG))
    bandwidth = warps * program.loop * dram_bytes * miss / p.dram_bytes_per_cycle
    mean_load = p.l1_hit_rate * p.lat_l1 + (1 - p.l1_hit_rate) * (p.l2_hit_rate * p.lat_l2 + (1 - p.l2_hit_rate) * p.lat_dram)
    per_op = {LDG: mean_load, LDS: p.lat_shared, FMA: p.lat_fma, MMA: p.lat_mma, SFU: p.lat_sfu}
    chain = sum(per_op.get(int(op), 1) for op in program.op)
    waves = -(-p.total_blocks // (p.active_blocks_per_sm * p.sm_count))
    latency = waves * program.loop * chain
    return int(max(issue, bandwidth, latency))


def choose_recorded_sms(p: SimParams, record_sms: Sequence[int] | None) -> np.ndarray:
    """The SMs whose per-slot states are kept: all (the default) or the ones asked for."""
    if record_sms is None:
        return np.arange(p.sm_count)
    sms = sorted(set(int(s) for s in record_sms))
    for s in sms:
        if not 0 <= s < p.sm_count:
            raise InputError("record_sms", f"SM {s} does not exist; this GPU has SMs 0..{p.sm_count - 1}")
    return np.asarray(sms, dtype=np.int64)


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
        tiny = Scenario().with_values(**{"launch.grid": [1, 1, 1], "launch.block": [32, 1, 1], "workload.loop": 1})
        simulate(tiny)


def simulate(
    scenario: Scenario,
    *,
    record_sms: Sequence[int] | None = None,
    trace_budget_bytes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    params: SimParams | None = None,
) -> SimResult:
    """Simulate a scenario cycle by cycle. Deterministic for the scenario (seed included).

    ``progress(done_warps, total_warps)`` is called after every chunk; ``cancel()``
    returning True raises :class:`Cancelled` at the next chunk boundary.
    """
    p = params or params_for(scenario)
    warm_up()
    program = build_program(scenario.workload)
    consts = model_constants()["trace"]
    budget = consts["budget_bytes"] if trace_budget_bytes is None else trace_budget_bytes
    chunk = int(consts["chunk_cycles"])
    max_cycles = int(consts["max_cycles"])
    recorded = choose_recorded_sms(p, record_sms)
    if record_sms is None:
        expected = estimate_cycles(p, program)
        if expected * p.sm_count * p.warps_per_sm > budget:
            # clearly too long to keep every SM: keep the first SMs the budget allows
            record_sms = range(max(1, min(p.sm_count, budget // max(1, expected * p.warps_per_sm))))
            recorded = choose_recorded_sms(p, record_sms)

    state = _State.allocate(p, program.n_regs)
    a = state.arrays
    cfg_i, cfg_f = _config_arrays(p)
    total_warps = p.total_blocks * p.warps_per_block
    W = p.warps_per_sm
    nstates = len(NAMES)

    sink = _TraceSink(recorded, W, budget, chunk, may_drop=record_sms is None and len(recorded) > 1)
    counts_parts: list[np.ndarray] = []
    state_parts: list[np.ndarray] = []
    started = time.perf_counter()
    while True:
        t0 = int(a["g"][G.T])
        counts = np.empty((chunk, 4), np.int32)  # the loop writes every row it covers
        state_counts = np.empty((chunk, nstates), np.int32)
        window = sink.window(t0)  # first: it may switch recording off, which rec_map must see
        rec_map = sink.rec_map(p.sm_count)
        assert window.shape[1] == (rec_map >= 0).sum()  # the loop does not bounds-check
        run_cycles(
            program.op, program.dst, program.src, program.req_bytes, program.loop,
            cfg_i, cfg_f,
            a["w_block"], a["w_phase"], a["w_state"], a["w_start"], a["w_pc"], a["w_iter"], a["w_wake"], a["w_wkind"],
            a["w_drain"], a["w_age"], a["w_tl"], a["w_next"], a["reg_ready"], a["reg_kind"],
            a["sp_next"], a["sp_last"], a["sp_fma"], a["sp_sfu"], a["sp_mma"], a["sm_l1"], a["sm_smem"], a["sm_blocks"],
            a["b_sm"], a["b_start"], a["b_end"], a["b_alive"], a["b_arrived"], a["b_slot"],
            a["g"], a["sc"], a["dram_free"], a["rng"],
            a["ev_t"], a["ev_sm"], a["ev_d"],
            rec_map, window, counts, state_counts, a["mem_bytes"],
            t0 + chunk,
        )
        t_now = int(a["g"][G.T])
        counts_parts.append(counts[: t_now - t0])
        state_parts.append(state_counts[: t_now - t0])
        sink.advance(t_now)
        if progress is not None:
            progress(int(a["g"][G.EXITED]), total_warps)
        if a["g"][G.DEADLOCK]:
            raise SimulationError(f"the simulation stalled for good at cycle {t_now} "
                                  f"(no warp can ever issue): {scenario.to_dict()}")
        if a["g"][G.DONE]:
            break
        if t_now >= max_cycles:
            raise InputError("scenario", f"the run needs more than {max_cycles} cycles, the simulator's limit; "
                                         "shorten workload.loop or the grid")
        if cancel is not None and cancel():
            raise Cancelled()
    sim_seconds = time.perf_counter() - started

    cycles = int(a["g"][G.T])
    if sink.overflowed:
        # the whole trace would not fit: run again, recording the first SMs the budget allows
        keep = max(1, min(p.sm_count, budget // max(1, cycles * W)))
        first_pass = time.perf_counter() - started
        result = simulate(scenario, record_sms=range(keep), trace_budget_bytes=budget, progress=progress,
                          cancel=cancel, params=params)
        result.sim_seconds += first_pass
        return result
    trace = sink.result(cycles)
    n_events = int(a["g"][G.EVENTS])
    blocks = BlockRecords(
        block=np.arange(p.total_blocks, dtype=np.int64),
        sm=a["b_sm"].copy(),
        start=a["b_start"].copy(),
        end=a["b_end"].copy(),
    )
    residency = Residency.from_events(p.sm_count, a["ev_t"][:n_events], a["ev_sm"][:n_events], a["ev_d"][:n_events])
    return SimResult(
        scenario=scenario,
        params=p,
        cycles=cycles,
        counts=np.concatenate(counts_parts),
        state_counts=np.concatenate(state_parts),
        trace=trace,
        recorded_sms=np.asarray(recorded, dtype=np.int64),
        blocks=blocks,
        residency=residency,
        block_slots=a["b_slot"],
        memory_bytes={"l1": a["mem_bytes"][0], "l2": a["mem_bytes"][1], "dram": a["mem_bytes"][2],
                      "shared": a["mem_bytes"][3]},
        warp_instructions=total_warps * program.instructions_per_warp,
        sim_seconds=sim_seconds,
    )
