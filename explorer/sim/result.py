"""What a simulation produced, and the summary metrics of the ``simulate --json`` contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from explorer.model.scenario import Scenario
from explorer.occupancy import occupancy_for_launch
from explorer.sim.params import SimParams
from explorer.sim.states import EMPTY, NAMES
from explorer.timeline import BlockRecords, Residency

COUNT_NAMES = ("launched", "resident", "eligible", "issued")


@dataclass(eq=False)
class SimResult:
    scenario: Scenario
    params: SimParams
    cycles: int
    counts: np.ndarray  # int32[cycles, 4]: launched, resident, eligible, issued (GPU-wide)
    state_counts: np.ndarray  # int32[cycles, n_states]: warp slots in each state (GPU-wide)
    trace: np.ndarray  # uint8[cycles, len(recorded_sms), warps_per_sm]: state per warp slot
    recorded_sms: np.ndarray  # int64[k]: which SMs ``trace`` holds, in order
    blocks: BlockRecords
    block_slots: np.ndarray  # int16[blocks, warps_per_block]: the warp slots each block held on its SM
    residency: Residency
    memory_bytes: dict
    warp_instructions: int
    sim_seconds: float
    extra: dict = field(default_factory=dict)

    # -- per-cycle GPU-wide series -------------------------------------------
    @property
    def launched(self) -> np.ndarray:
        return self.counts[:, 0]

    @property
    def resident(self) -> np.ndarray:
        return self.counts[:, 1]

    @property
    def eligible(self) -> np.ndarray:
        return self.counts[:, 2]

    @property
    def issued(self) -> np.ndarray:
        return self.counts[:, 3]

    # -- per-SM views -----------------------------------------------------------
    def sm_trace(self, sm: int) -> np.ndarray | None:
        """uint8[cycles, warps_per_sm] states of one SM, or None if it was not recorded."""
        hit = np.nonzero(self.recorded_sms == sm)[0]
        return self.trace[:, hit[0], :] if hit.size else None

    def states_at(self, cycle: int) -> np.ndarray:
        """uint8[sm_count, warps_per_sm] at ``cycle``; unrecorded SMs read as EMPTY (255 marks unknown)."""
        out = np.full((self.params.sm_count, self.params.warps_per_sm), 255, np.uint8)
        if 0 <= cycle < self.cycles:
            out[self.recorded_sms] = self.trace[cycle]
        else:
            out[self.recorded_sms] = EMPTY
        return out

    # -- summary ----------------------------------------------------------------
    @cached_property
    def theoretical(self):
        return occupancy_for_launch(self.scenario.gpu, self.scenario.launch)

    def summary(self) -> dict:
        """The metrics of the ``simulate --json`` contract (DESIGN.md), with units in the names."""
        p = self.params
        gpu = self.scenario.gpu
        cycles = max(self.cycles, 1)
        warp_cycles, active = self.residency.warp_cycles_and_active_cycles(self.cycles)
        active_total = float(active.sum())
        issued = int(self.issued.sum(dtype=np.int64))
        eligible = int(self.eligible.sum(dtype=np.int64))
        schedulers = p.sm_count * p.sub_partitions
        per_wave = p.active_blocks_per_sm * p.sm_count
        state_cycles = self.state_counts.sum(axis=0, dtype=np.int64)
        seconds = self.cycles / (p.clock_mhz * 1e6)
        dram = self.memory_bytes["dram"]
        return {
            "gpu": gpu.name,
            "total_blocks": p.total_blocks,
            "warps_per_block": p.warps_per_block,
            "launched_warps": p.total_blocks * p.warps_per_block,
            "cycles": self.cycles,
            "kernel_time_us": seconds * 1e6,
            "theoretical_occupancy": self.theoretical.occupancy,
            "achieved_occupancy": float(warp_cycles.sum() / active_total / p.warps_per_sm) if active_total else 0.0,
            "active_blocks_per_sm": p.active_blocks_per_sm,
            "waves": p.total_blocks / per_wave,
            "issue_slot_utilization": issued / (cycles * schedulers),
            # NVML over the kernel's own duration: it runs from launch to completion, block launches
            # included (no resident warp yet), so 1; a stream's gaps: explorer.sim.stream
            "kernel_active_fraction": 1.0 if self.cycles else 0.0,
            "sm_active_fraction": active_total / (cycles * p.sm_count),
            "avg_eligible_per_scheduler": eligible / (active_total * p.sub_partitions) if active_total else 0.0,
            "ipc": issued / active_total if active_total else 0.0,
            "warp_instructions": self.warp_instructions,
            "warp_state_cycles": {NAMES[i]: int(state_cycles[i]) for i in range(len(NAMES)) if i != EMPTY},
            "limiters": list(self.theoretical.limiters),
            "dram_bytes": int(dram),
            "dram_bandwidth_gbs": dram / seconds / 1e9 if seconds else 0.0,
            "memory_bytes": {k: int(v) for k, v in self.memory_bytes.items()},
            "scheduler_policy": self.scenario.scheduler.policy,
            "seed": self.scenario.seed,
            "sim_seconds": self.sim_seconds,
        }

    # -- files ------------------------------------------------------------------
    def save_npz(self, path) -> None:
        """Per-cycle arrays for plots and the GUI (launched/resident/eligible/issued, states, blocks)."""
        import json

        from explorer.model.tomlio import dumps

        summary = self.summary()
        payload = {
            "format": np.array("warp-explorer-sim"),
            "version": np.array(1),
            "launched": self.launched,
            "resident": self.resident,
            "eligible": self.eligible,
            "issued": self.issued,
            "state_names": np.array(NAMES),
            "state_counts": self.state_counts,
            "block_sm": self.blocks.sm,
            "block_start": self.blocks.start,
            "block_end": self.blocks.end,
            "block_slots": self.block_slots,
            "residency_time": self.residency.time,
            "residency_sm": self.residency.sm,
            "residency_delta": self.residency.delta,
            "recorded_sms": self.recorded_sms,
            "trace": self.trace,
            "summary_json": np.array(json.dumps(summary)),
            "scenario_toml": np.array(dumps(self.scenario.to_dict())),
        }
        _atomic_savez(path, payload)


def _atomic_savez(path, payload: dict) -> None:
    from explorer.atomic import atomic_write

    atomic_write(path, lambda fh: np.savez_compressed(fh, **payload))
