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
from explorer.sim.kernel import run_cycles
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
            "w_state": np.zeros(G, np.uint8),
            "w_start": np.zeros(G, np.int64),
            "w_pc": np.zeros(G, np.int32),
            "w_iter": np.zeros(G, np.int32),
            "w_wake": np.zeros(G, np.int64),
            "w_wkind": np.zeros(G, np.uint8),
            "w_drain": np.zeros(G, np.int64),
            "w_age": np.zeros(G, np.int64),
            "w_tl": np.zeros(G, np.int8),
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
            # t, next block, round-robin SM, exited warps, done, events written, deadlock,
            # free block slots
            "g": np.array([0, 0, 0, 0, 0, 0, 0, p.sm_count * p.active_blocks_per_sm], np.int64),
            # warp slots in each state, GPU-wide (all empty at first)
            "sc": np.array([G] + [0] * (len(NAMES) - 1), np.int64),
            "dram_free": np.zeros(1, np.float64),
            "rng": np.array([np.uint64(p.seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(1)], np.uint64),
            "ev_t": np.zeros(2 * B * p.warps_per_block, np.int64),
            "ev_sm": np.zeros(2 * B * p.warps_per_block, np.int32),
            "ev_d": np.zeros(2 * B * p.warps_per_block, np.int32),
            "mem_bytes": np.zeros(4, np.float64),
        }
        return cls(a)


def _config_arrays(p: SimParams) -> tuple[np.ndarray, np.ndarray]:
    cfg_i = np.array(
        [
            p.sm_count, p.warps_per_sm, p.sub_partitions, p.active_blocks_per_sm, p.warps_per_block,
            p.total_blocks, p.lat_fma, p.lat_sfu, p.lat_mma, p.lat_shared, p.lat_l1, p.lat_l2, p.lat_dram,
            p.fma_interval, p.sfu_interval, p.mma_interval, p.l1_bytes_per_cycle, p.l1_queue_cycles,
            p.shared_bytes_per_cycle, p.shared_queue_cycles, p.block_launch_latency, p.barrier_latency,
            p.policy, p.active_warps,
        ],
        dtype=np.int64,
    )
    cfg_f = np.array([p.dram_bytes_per_cycle, p.l1_hit_rate, p.l2_hit_rate], dtype=np.float64)
    return cfg_i, cfg_f


def choose_recorded_sms(p: SimParams, record_sms: Sequence[int] | None) -> np.ndarray:
    """The SMs whose per-slot states are kept: all (the default) or the ones asked for."""
    if record_sms is None:
        return np.arange(p.sm_count)
    sms = sorted(set(int(s) for s in record_sms))
    for s in sms:
        if not 0 <= s < p.sm_count:
            raise InputError("record_sms", f"SM {s} does not exist; this GPU has SMs 0..{p.sm_count - 1}")
    return np.asarray(sms, dtype=np.int64)


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
    program = build_program(scenario.workload)
    consts = model_constants()["trace"]
    budget = consts["budget_bytes"] if trace_budget_bytes is None else trace_budget_bytes
    chunk = int(consts["chunk_cycles"])
    max_cycles = int(consts["max_cycles"])
    recorded = choose_recorded_sms(p, record_sms)

    state = _State.allocate(p, program.n_regs)
    a = state.arrays
    cfg_i, cfg_f = _config_arrays(p)
    total_warps = p.total_blocks * p.warps_per_block
    W = p.warps_per_sm
    nstates = len(NAMES)

    traces: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    state_counts: list[np.ndarray] = []
    started = time.perf_counter()
    while True:
        rec_map = np.full(p.sm_count, -1, np.int64)
        rec_map[recorded] = np.arange(len(recorded))
        t0 = int(a["g"][0])
        trace = np.zeros((chunk, len(recorded), W), np.uint8)
        cnt = np.zeros((chunk, 4), np.int32)
        scnt = np.zeros((chunk, nstates), np.int32)
        run_cycles(
            program.op, program.dst, program.src, program.req_bytes, program.loop,
            cfg_i, cfg_f,
            a["w_block"], a["w_phase"], a["w_state"], a["w_start"], a["w_pc"], a["w_iter"], a["w_wake"], a["w_wkind"],
            a["w_drain"], a["w_age"], a["w_tl"], a["reg_ready"], a["reg_kind"],
            a["sp_next"], a["sp_last"], a["sp_fma"], a["sp_sfu"], a["sp_mma"], a["sm_l1"], a["sm_smem"], a["sm_blocks"],
            a["b_sm"], a["b_start"], a["b_end"], a["b_alive"], a["b_arrived"],
            a["g"], a["sc"], a["dram_free"], a["rng"],
            a["ev_t"], a["ev_sm"], a["ev_d"],
            rec_map, trace, cnt, scnt, a["mem_bytes"],
            t0 + chunk,
        )
        n = int(a["g"][0]) - t0
        traces.append(trace[:n])
        counts.append(cnt[:n])
        state_counts.append(scnt[:n])
        # keep the dense trace within budget: drop to the first SMs when it outgrows it
        kept = sum(tr.nbytes for tr in traces)
        if kept > budget and len(recorded) > 1:
            keep = max(1, int(len(recorded) * budget // max(kept, 1)))
            keep = min(keep, len(recorded) - 1)
            recorded = recorded[:keep]
            traces = [tr[:, :keep].copy() for tr in traces]
        if progress is not None:
            progress(int(a["g"][3]), total_warps)
        if a["g"][6]:
            raise SimulationError(f"the simulation stalled for good at cycle {int(a['g'][0])} "
                                  f"(no warp can ever issue): {scenario.to_dict()}")
        if a["g"][4]:
            break
        if int(a["g"][0]) >= max_cycles:
            raise InputError("scenario", f"the run needs more than {max_cycles} cycles, the simulator's limit; "
                                         "shorten workload.loop or the grid")
        if cancel is not None and cancel():
            raise Cancelled()
    sim_seconds = time.perf_counter() - started

    cycles = int(a["g"][0])
    n_events = int(a["g"][5])
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
        counts=np.concatenate(counts),
        state_counts=np.concatenate(state_counts),
        trace=np.concatenate(traces) if traces else np.zeros((0, len(recorded), W), np.uint8),
        recorded_sms=np.asarray(recorded, dtype=np.int64),
        blocks=blocks,
        residency=residency,
        memory_bytes={"l1": a["mem_bytes"][0], "l2": a["mem_bytes"][1], "dram": a["mem_bytes"][2],
                      "shared": a["mem_bytes"][3]},
        warp_instructions=total_warps * program.instructions_per_warp,
        sim_seconds=sim_seconds,
    )
