"""What a simulation produced, and the summary metrics of the ``simulate --json`` contract.

GPU-wide per-cycle series may be binned on long runs: ``series_stride`` cycles per
row (1: exact per cycle). ``counts``/``state_counts`` are then each bin's mean
(float32), ``counts_min``/``counts_max`` (and the state equivalents) its extremes,
``series_cycles`` the first cycle of every row, and ``row_of(cycle)`` the row
holding a cycle. Totals in the summary are exact whatever the stride. The per-slot
``trace`` covers the first ``trace_cycles`` cycles (all of them unless the run was
too long to keep even one SM); the run keeps it as the slots' state changes
(``state_events``: about 1% of the slot-cycles of the mission example change) and builds
the dense array only for a reader who asks: ``sm_trace`` one SM, ``states_at`` one cycle
and ``trace`` everything.

The program that ran (``warp_program``, ``explorer.sass.warp_program``) is the key to the
per-instruction views: ``pc_trace(sm)`` is, for a recorded SM, the row of the program
each warp slot will issue next, per cycle of the trace (-1: no warp); and
``stall_by_instruction[row, state]`` the warp-cycles, over the whole run and every SM,
warps spent in each state (``explorer.sim.states`` order) while that row was next
(Nsight Compute's per-instruction warp-state sampling, without sampling). For every
row, ``stall_by_instruction.sum(axis=0)`` equals the state totals of the series
(empty slots aside), and where every SM's trace is kept each entry equals the count
of (cycle, slot) with that row in ``pc_trace`` and that state in ``trace``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from explorer.model.scenario import Scenario
from explorer.occupancy import occupancy_for_launch
from explorer.sim.params import SimParams
from explorer.sim.states import EMPTY, NAMES
from explorer.model.units import UNITS, unit_peaks
from explorer.timeline import BlockRecords, Residency

COUNT_NAMES = ("launched", "resident", "eligible", "issued")
N_COUNTS = len(COUNT_NAMES)
UNKNOWN = 255  # states_at: a slot whose state the run did not keep


@dataclass(frozen=True)
class Series:
    """GPU-wide series, ``[rows, 4 counts + one column per state]``, one row per ``stride`` cycles."""

    stride: int
    cycles: int
    mean: np.ndarray  # int32 values when stride == 1, else float32 bin means
    lo: np.ndarray  # int32 bin minimum (the values when stride == 1)
    hi: np.ndarray  # int32 bin maximum


@dataclass(frozen=True)
class PcEvents:
    """The recorded slots' next-instruction changes: from cycle ``t[k]`` the slot ``cell[k]``
    (recorded SM index x warps_per_sm + slot) will issue row ``row[k]`` next. One event per
    issue and per warp placed, so a few bytes per instruction instead of two per slot-cycle."""

    ENTRY_BYTES = 10  # int32 cycle, int32 cell, int16 row
    MASK_BYTES = 4  # uint32 mask, where kept
    BUFFER_ENTRIES = 1 << 18  # the loop's event buffer (emptied by the engine after every call)

    t: np.ndarray
    cell: np.ndarray
    row: np.ndarray
    warps_per_sm: int
    cycles: int  # the trace's cycles: events from here on are not kept
    # uint32 per event: the lanes that issue that instruction (a user kernel's run); None: all 32
    mask: np.ndarray | None = None

    def dense(self, index: int, values: np.ndarray | None = None, empty=-1, dtype=np.int16) -> np.ndarray:
        """int16[cycles, warps_per_sm]: the row each slot of recorded SM ``index`` issues next (-1 before
        any warp came); with ``values`` (one per event, e.g. ``mask``), that value instead (``empty``
        before any warp came, as ``dtype``)."""
        W = self.warps_per_sm
        out = np.full((self.cycles, W), empty, dtype)
        mine = (self.cell >= index * W) & (self.cell < (index + 1) * W) & (self.t < self.cycles)
        t, slot = self.t[mine], self.cell[mine] - index * W
        row = (self.row if values is None else values)[mine]
        for s in range(W):
            at = slot == s
            if not at.any():
                continue
            ts, rs = t[at], row[at]  # in cycle order (the loop writes them so)
            keep = np.append(ts[1:] != ts[:-1], True)  # of two events in one cycle, the later holds
            ts, rs = ts[keep], rs[keep]
            idx = np.searchsorted(ts, np.arange(self.cycles), side="right") - 1
            col = np.where(idx >= 0, rs[np.maximum(idx, 0)], empty)
            out[:, s] = col
        return out


@dataclass(frozen=True)
class StateEvents:
    """The recorded slots' state changes: from cycle ``t[k]`` slot ``cell[k]`` (recorded SM index x
    warps_per_sm + slot) shows ``state[k]`` (``explorer.sim.states``); every slot is EMPTY until its first
    event, and of two events of one slot in one cycle the later holds. In cycle order, as the loop wrote them.

    A slot's state changes at ~1% of its cycles on the mission example, so the events take ~0.1 byte per
    slot-cycle where the dense trace takes 1: the loop writes these, and ``SimResult`` builds the dense
    form a reader asks for."""

    ENTRY_BYTES = 9  # int32 cycle, int32 cell, uint8 state
    BUFFER_ENTRIES = 1 << 19  # the loop's event buffer (emptied by the engine after every call)

    t: np.ndarray
    cell: np.ndarray
    state: np.ndarray
    warps_per_sm: int
    sms: int  # recorded SMs: cells 0 .. sms * warps_per_sm - 1
    cycles: int  # the trace's cycles: events from here on are not kept

    @cached_property
    def _index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(key, state, starts): the events within the trace sorted by cell, then cycle (stable: a cycle's later
        event stays later), key = cell * (cycles + 1) + cycle, and where each cell's events start."""
        within = self.t < self.cycles
        cell, t, state = self.cell[within], self.t[within], self.state[within]
        order = np.argsort(cell, kind="stable")  # t is already in order within a cell
        cell, t = cell[order].astype(np.int64), t[order].astype(np.int64)
        key = cell * (self.cycles + 1) + t
        starts = np.searchsorted(cell, np.arange(self.sms * self.warps_per_sm + 1))
        return key, state[order], starts

    def dense(self, first: int = 0, count: int | None = None) -> np.ndarray:
        """uint8[cycles, count, warps_per_sm]: the states of recorded SMs [first, first + count) per cycle
        (a view of a slot-major array: one ``np.repeat`` of each event's state over the cycles it holds)."""
        W, cycles = self.warps_per_sm, self.cycles
        count = self.sms - first if count is None else count
        key, state, starts = self._index
        lo, hi = int(starts[first * W]), int(starts[(first + count) * W])
        cells = key[lo:hi] // (cycles + 1) - first * W
        t = key[lo:hi] % (cycles + 1)
        n = count * W
        # every cell opens with EMPTY at cycle 0, inserted ahead of its own events (already sorted by cell)
        opens = starts[first * W:(first + count) * W] - lo
        all_cell = np.insert(cells, opens, np.arange(n, dtype=np.int64))
        all_t = np.insert(t, opens, 0)
        all_v = np.insert(state[lo:hi], opens, EMPTY)
        until = np.append(all_t[1:], cycles)
        until[np.append(all_cell[1:] != all_cell[:-1], True)] = cycles  # a cell's last event holds to the end
        flat = np.repeat(all_v, until - all_t)  # [cell][cycle]
        return flat.reshape(count, W, cycles).transpose(2, 0, 1)

    def at(self, cycle: int) -> np.ndarray:
        """uint8[sms, warps_per_sm]: every recorded slot's state at ``cycle`` (0 <= cycle < cycles)."""
        W = self.warps_per_sm
        key, state, starts = self._index
        cells = np.arange(self.sms * W, dtype=np.int64)
        pos = np.searchsorted(key, cells * (self.cycles + 1) + cycle, side="right") - 1
        held = pos >= starts[:-1]  # an event of this cell at or before the cycle
        out = np.full(self.sms * W, EMPTY, np.uint8)
        out[held] = state[pos[held]]
        return out.reshape(self.sms, W)

    def slot_at(self, index: int, slot: int, cycle: int) -> int:
        """One recorded slot's state at ``cycle`` (SM ``index`` of the recorded ones)."""
        key, state, starts = self._index
        cell = index * self.warps_per_sm + slot
        lo, hi = int(starts[cell]), int(starts[cell + 1])
        k = lo + int(np.searchsorted(key[lo:hi], cell * (self.cycles + 1) + cycle, side="right")) - 1
        return int(state[k]) if k >= lo else EMPTY


@dataclass(eq=False)
class SimResult:
    scenario: Scenario
    params: SimParams
    cycles: int
    series: Series
    series_totals: np.ndarray  # int64[4 + n_states]: each column summed over every cycle (exact)
    state_events: StateEvents  # the recorded slots' state changes: ``trace`` on demand
    recorded_sms: np.ndarray  # int64[k]: which SMs ``trace`` holds, in order
    blocks: BlockRecords
    block_slots: np.ndarray  # int16[blocks, warps_per_block]: the warp slots each block held on its SM
    residency: Residency
    memory: dict  # kernel.MEM_SLOTS: bytes per level, loads' latency sums and counts per level
    unit_busy_cycles: np.ndarray  # float64[windows, units]: busy counts per window (explorer.model.units)
    window_cycles: int  # cycles per unit window (a power of two)
    warp_instructions: int
    sim_seconds: float
    extra: dict = field(default_factory=dict)
    warp_program: object = None  # explorer.sass.warp_program.WarpProgram: the program that ran
    stall_by_instruction: np.ndarray | None = None  # int64[L, n_states] (see the module docstring)
    # int64[L, 4]: per program row, the sectors its global accesses looked up in the caches' tags (L1 hits, L1
    # misses, L2 hits, L2 misses; all 0 for accesses drawn from the scenario's hit rates): each load's hit rates
    sectors_by_instruction: np.ndarray | None = None
    pc_events: PcEvents | None = None
    program_notice: str | None = None  # why the program is not the one the scenario asked for
    # per program row: warp-instructions that executed it, and their active lanes summed (engine.row_counts)
    row_executions: np.ndarray | None = None  # int64[L]
    row_active_lanes: np.ndarray | None = None  # int64[L]
    _mask_index: dict = field(default_factory=dict, repr=False)  # sm -> mask_at's sorted events
    _sm_traces: dict = field(default_factory=dict, init=False, repr=False)  # sm -> sm_trace, the last few asked
    _trace: np.ndarray | None = field(default=None, init=False, repr=False)  # ``trace`` once built

    SM_TRACES_KEPT = 8  # ``sm_trace``s kept built (~1 MB each on the mission example)

    # -- the program that ran ---------------------------------------------------
    def pc_trace(self, sm: int) -> np.ndarray | None:
        """int16[trace_cycles, warps_per_sm]: per cycle, the program row each slot of SM ``sm`` will issue
        next (-1: an empty slot); None if the SM's trace was not recorded."""
        hit = np.nonzero(self.recorded_sms == sm)[0]
        if not hit.size or self.pc_events is None:
            return None
        rows = self.pc_events.dense(int(hit[0]))[: self.trace_cycles]
        rows[self.sm_trace(sm) == EMPTY] = -1
        return rows

    def mask_trace(self, sm: int) -> np.ndarray | None:
        """uint32[trace_cycles, warps_per_sm]: per cycle, the lanes that issue the instruction each slot of
        SM ``sm`` will issue next (``pc_trace``'s row; 0: an empty slot); None if the SM was not recorded.
        A run whose warps all issue with 32 lanes (every program but a user kernel's) reads 0xFFFFFFFF."""
        hit = np.nonzero(self.recorded_sms == sm)[0]
        if not hit.size or self.pc_events is None:
            return None
        ev = self.pc_events
        if ev.mask is None:
            masks = self._warp_masks(sm, np.full((self.trace_cycles, ev.warps_per_sm), 0xFFFFFFFF, np.uint32))
        else:
            masks = ev.dense(int(hit[0]), ev.mask, 0, np.uint32)[: self.trace_cycles]
        masks[self.sm_trace(sm) == EMPTY] = 0
        return masks

    def mask_at(self, sm: int, slot: int, cycle: int) -> int | None:
        """The lanes (a 32-bit mask) that issue the instruction slot ``slot`` of SM ``sm`` issues next at
        ``cycle``; None where no warp is there or the SM was not recorded. One SM's events are indexed once
        (sorted by slot and cycle), so a lookup is two binary searches, not a dense trace."""
        hit = np.nonzero(self.recorded_sms == sm)[0]
        ev = self.pc_events
        if not hit.size or ev is None or not (0 <= cycle < self.trace_cycles) or not (0 <= slot < ev.warps_per_sm):
            return None
        if self.state_events.slot_at(int(hit[0]), slot, cycle) == EMPTY:
            return None
        if ev.mask is None:  # the latest block placed in the slot by then: its last warp may hold fewer lanes
            b, wpb = self.blocks, self.params.warps_per_block
            held = np.nonzero((b.sm == sm) & (b.start >= 0) & (b.start <= cycle)
                              & (self.block_slots == slot).any(axis=1))[0]
            threads = self.scenario.launch.threads_per_block
            if not held.size or threads == 32 * wpb:
                return 0xFFFFFFFF
            blk = int(held[np.argmax(b.start[held])])
            return (1 << (threads - 32 * (wpb - 1))) - 1 if self.block_slots[blk][-1] == slot else 0xFFFFFFFF
        index = self._mask_index.get(sm)
        if index is None:
            W = ev.warps_per_sm
            mine = np.nonzero((ev.cell >= hit[0] * W) & (ev.cell < (hit[0] + 1) * W))[0]
            order = mine[np.lexsort((np.arange(mine.shape[0]), ev.t[mine], ev.cell[mine]))]
            cells = ev.cell[order] - hit[0] * W
            index = self._mask_index[sm] = (np.searchsorted(cells, np.arange(W + 1)), ev.t[order], ev.mask[order])
        starts, t, masks = index
        lo, hi = int(starts[slot]), int(starts[slot + 1])
        k = lo + int(np.searchsorted(t[lo:hi], cycle, side="right")) - 1  # the latest event at or before it
        return int(masks[k]) if k >= lo else None

    def _warp_masks(self, sm: int, masks: np.ndarray) -> np.ndarray:
        """A program every warp runs whole: each warp's lanes are its threads (a block's last warp holds what is
        left of them), written into ``masks`` [cycles, W] for the slots they held."""
        threads = self.scenario.launch.threads_per_block
        wpb = self.params.warps_per_block
        if threads == 32 * wpb:
            return masks
        last = np.uint32((1 << (threads - 32 * (wpb - 1))) - 1)
        b = self.blocks
        mine = np.nonzero((b.sm == sm) & (b.start >= 0))[0]
        for blk in mine[np.argsort(b.start[mine], kind="stable")].tolist():  # a slot's latest warp holds it
            start, end = int(b.start[blk]), int(b.end[blk]) if b.end[blk] >= 0 else self.cycles
            masks[start:end, self.block_slots[blk]] = 0xFFFFFFFF
            masks[start:end, self.block_slots[blk][-1]] = last
        return masks

    def row_average_lanes(self) -> np.ndarray | None:
        """float64[L]: per program row, the active lanes per warp-instruction that executed it (NaN: none did)."""
        if self.row_executions is None or self.row_active_lanes is None:
            return None
        n = self.row_executions.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, self.row_active_lanes / np.maximum(n, 1), np.nan)

    def program_summary(self) -> dict:
        """``simulate --json``'s ``program``: where the instructions came from and how many a warp runs."""
        prog = self.warp_program
        execution = self.extra.get("execution")  # a [kernel] run: each warp ran its own path
        per_warp = (execution["warp_instructions_per_warp"] if execution is not None
                    else prog.dynamic_instructions_per_warp)
        out = {"source": prog.source, "arch": prog.arch, "dynamic_instructions_per_warp": per_warp}
        if self.params.producer_warps:  # warp-specialized: each warp runs only its role's rows of that
            out["warp_specialized"] = True
        return out

    # -- per-cycle GPU-wide series (one row per series_stride cycles) ---------------
    @property
    def series_stride(self) -> int:
        return self.series.stride

    @property
    def counts(self) -> np.ndarray:
        """[rows, 4]: launched, resident, eligible, issued (bin means when series_stride > 1)."""
        return self.series.mean[:, :N_COUNTS]

    @property
    def counts_min(self) -> np.ndarray:
        return self.series.lo[:, :N_COUNTS]

    @property
    def counts_max(self) -> np.ndarray:
        return self.series.hi[:, :N_COUNTS]

    @property
    def state_counts(self) -> np.ndarray:
        """[rows, n_states]: warp slots in each state (bin means when series_stride > 1)."""
        return self.series.mean[:, N_COUNTS:]

    @property
    def state_counts_min(self) -> np.ndarray:
        return self.series.lo[:, N_COUNTS:]

    @property
    def state_counts_max(self) -> np.ndarray:
        return self.series.hi[:, N_COUNTS:]

    @property
    def series_cycles(self) -> np.ndarray:
        """int64[rows]: the first cycle of each row."""
        return np.arange(self.series.mean.shape[0], dtype=np.int64) * self.series.stride

    def row_of(self, cycle: int) -> int:
        """The series row holding ``cycle`` (clamped to the run)."""
        rows = self.series.mean.shape[0]
        return max(0, min(int(cycle) // self.series.stride, rows - 1))

    def count_total(self, name: str) -> int:
        """A count (launched, resident, eligible, issued) summed over every cycle: exact whatever the stride."""
        return int(self.series_totals[COUNT_NAMES.index(name)])

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
    @property
    def trace(self) -> np.ndarray:
        """uint8[trace_cycles, len(recorded_sms), warps_per_sm]: the state of every recorded warp slot per cycle,
        built from ``state_events`` on first use (1 byte per slot-cycle: ~122 MB on the mission example; a
        reader of one SM or one cycle asks ``sm_trace`` or ``states_at`` instead)."""
        if self._trace is None:
            self._trace = self.state_events.dense()
        return self._trace

    @property
    def kept_bytes(self) -> int:
        """What the run keeps per cycle and per slot: the series and the recorded slots' state and
        next-instruction events (the dense ``trace`` a reader may build from them is not counted)."""
        ev, pe = self.state_events, self.pc_events
        events = ev.t.nbytes + ev.cell.nbytes + ev.state.nbytes
        if pe is not None:
            events += pe.t.nbytes + pe.cell.nbytes + pe.row.nbytes + (pe.mask.nbytes if pe.mask is not None else 0)
        return int(events + self.counts.nbytes + self.state_counts.nbytes)

    @property
    def trace_cycles(self) -> int:
        return int(self.state_events.cycles)

    def is_recorded(self, sm: int) -> bool:
        """Whether the run kept SM ``sm``'s slot states (``sm_trace`` is not None), without building them."""
        return bool((self.recorded_sms == sm).any())

    def sm_trace(self, sm: int) -> np.ndarray | None:
        """uint8[trace_cycles, warps_per_sm] states of one SM, or None if it was not recorded (built from the
        events, the last few kept)."""
        hit = np.nonzero(self.recorded_sms == sm)[0]
        if not hit.size:
            return None
        if self._trace is not None:
            return self._trace[:, hit[0], :]
        trace = self._sm_traces.pop(sm, None)
        if trace is None:
            trace = np.ascontiguousarray(self.state_events.dense(int(hit[0]), 1)[:, 0, :])
        self._sm_traces[sm] = trace  # the newest last
        while len(self._sm_traces) > self.SM_TRACES_KEPT:
            self._sm_traces.pop(next(iter(self._sm_traces)))
        return trace

    def states_at(self, cycle: int) -> np.ndarray:
        """uint8[sm_count, warps_per_sm] at ``cycle``; 255 (UNKNOWN) where the run kept no state
        (unrecorded SMs, cycles past trace_cycles); recorded slots read EMPTY outside the run."""
        out = np.full((self.params.sm_count, self.params.warps_per_sm), UNKNOWN, np.uint8)
        if 0 <= cycle < self.trace_cycles:
            out[self.recorded_sms] = self._trace[cycle] if self._trace is not None else self.state_events.at(cycle)
        elif not 0 <= cycle < self.cycles:
            out[self.recorded_sms] = EMPTY
        return out

    # -- throughput units -----------------------------------------------------
    @cached_property
    def unit_peaks(self):
        return unit_peaks(self.scenario.gpu, self.params)

    @property
    def unit_names(self) -> tuple[str, ...]:
        return UNITS

    @cached_property
    def unit_busy(self) -> np.ndarray:
        """float32[windows, units]: each unit's share of its peak in each window of window_cycles."""
        n = self.unit_busy_cycles.shape[0]
        lengths = np.full(n, float(self.window_cycles))
        lengths[-1] = self.cycles - (n - 1) * self.window_cycles or self.window_cycles
        capacity = np.array([u.capacity for u in self.unit_peaks])
        return (self.unit_busy_cycles / lengths[:, None] / capacity).astype(np.float32)

    def unit_fraction(self) -> np.ndarray:
        """float64[units]: each unit's share of its peak over the whole run."""
        capacity = np.array([u.capacity for u in self.unit_peaks])
        return self.unit_busy_cycles.sum(axis=0) / (max(self.cycles, 1) * capacity)

    def cache_counters(self) -> dict:
        """Per level what the caches did, under the names Nsight Compute gives the same counters (issue 29), so a
        simulation reads beside a profile without translation. Sectors are counted where hits come from
        addresses: the generated kernels' global loads and stores (``explorer.toolchain.addresses``) and a user's kernel's,
        by the sectors its lanes executed (``explorer.sim.executed.chunk_lines``), and TMA copies of a workload's
        tiles (``[workload.tiles]``: L2 only, they pass no L1); TMA copies without tiles and every access of a
        ``[kernel]`` that sets a hit rate draw the scenario's hit rates and are not in them (none with an address:
        ``by_address`` False, the rates None).
        Stores count as L1 misses (they write through) and as L2 hits (written into L2 without a fetch), as
        Nsight counts them; DRAM bytes read and written count every access, with or without an address."""
        m = self.memory
        l1 = m["l1_hit_sectors"] + m["l1_miss_sectors"]
        l2 = m["l2_hit_sectors"] + m["l2_miss_sectors"]
        return {
            "by_address": bool(l1 or l2),
            "l1tex__t_sectors": int(l1),
            "l1tex__t_sector_hit_rate": 100.0 * m["l1_hit_sectors"] / l1 if l1 else None,
            "lts__t_sectors": int(l2),
            "lts__t_sector_hit_rate": 100.0 * m["l2_hit_sectors"] / l2 if l2 else None,
            "dram__bytes_read.sum": int(m["dram_read_bytes"]),
            "dram__bytes_write.sum": int(m["dram_write_bytes"]),
        }

    def latency_cycles(self) -> dict:
        """Mean observed (loaded) latency of global loads served by each level; None if none was."""
        m = self.memory
        return {level: (m[f"{level}_lat"] / m[f"{level}_loads"] if m[f"{level}_loads"] else None)
                for level in ("l1", "l2", "dram")}

    @property
    def memory_bytes(self) -> dict:
        """Bytes moved per level of the hierarchy: l1, l2, dram, shared."""
        m = self.memory
        return {"l1": m["l1_bytes"], "l2": m["l2_bytes"], "dram": m["dram_bytes"], "shared": m["shared_bytes"]}

    # -- summary ----------------------------------------------------------------
    @cached_property
    def theoretical(self):
        return occupancy_for_launch(self.scenario.gpu, self.scenario.launch)

    def summary(self) -> dict:
        """The metrics of the ``simulate --json`` contract (docs/dev/design.md), with units in the names."""
        from explorer.sim.bottleneck import bottleneck, throughput

        p = self.params
        gpu = self.scenario.gpu
        cycles = max(self.cycles, 1)
        warp_cycles, active = self.residency.warp_cycles_and_active_cycles(self.cycles)
        active_total = float(active.sum())
        totals = self.series_totals
        issued = int(totals[3])
        eligible = int(totals[2])
        schedulers = p.sm_count * p.sub_partitions
        per_wave = p.active_blocks_per_sm * p.sm_count
        state_cycles = totals[N_COUNTS:]
        seconds = self.cycles / (p.clock_mhz * 1e6)
        dram = self.memory_bytes["dram"]
        return {
            "gpu": gpu.name,
            "total_blocks": p.total_blocks,
            "warps_per_block": p.warps_per_block,
            "launched_warps": p.total_blocks * p.warps_per_block,
            "cycles": self.cycles,
            # the kernel ends once its posted stores completed: the cycles after its last warp left
            "store_tail_cycles": self.cycles - int(self.blocks.end.max(initial=0)),
            "clock_mhz": p.clock_mhz,
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
            "program": self.program_summary(),
            "warp_state_cycles": {NAMES[i]: int(state_cycles[i]) for i in range(len(NAMES)) if i != EMPTY},
            "limiters": list(self.theoretical.limiters),
            "dram_bytes": int(dram),
            "dram_bandwidth_gbs": dram / seconds / 1e9 if seconds else 0.0,
            "memory_bytes": {k: int(v) for k, v in self.memory_bytes.items()},
            "throughput": throughput(self),
            "bottleneck": bottleneck(self),
            "latency_cycles": self.latency_cycles(),
            "caches": self.cache_counters(),
            "series_stride": self.series_stride,
            "scheduler_policy": self.scenario.scheduler.policy,
            "seed": self.scenario.seed,
            "sim_seconds": self.sim_seconds,
        }

    # -- files ------------------------------------------------------------------
    def save_npz(self, path) -> None:
        """Per-cycle arrays for plots and the GUI: the series as kept (binned runs say so: series_stride
        and per-bin _min/_max), block records, residency, the per-slot trace, unit busy per window."""
        import json

        from explorer.model.tomlio import dumps

        summary = self.summary()
        payload = {
            "format": np.array("warp-explorer-sim"),
            "version": np.array(2),
            "series_stride": np.array(self.series_stride),
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
            "trace_cycles": np.array(self.trace_cycles),
            "unit_busy": self.unit_busy,
            "unit_names": np.array(UNITS),
            "window_cycles": np.array(self.window_cycles),
            "summary_json": np.array(json.dumps(summary)),
            "scenario_toml": np.array(dumps(self.scenario.to_dict())),
        }
        for i, name in enumerate(COUNT_NAMES):
            payload[name] = self.counts[:, i]
        if self.series_stride > 1:
            for i, name in enumerate(COUNT_NAMES):
                payload[f"{name}_min"] = self.counts_min[:, i]
                payload[f"{name}_max"] = self.counts_max[:, i]
            payload["state_counts_min"] = self.state_counts_min
            payload["state_counts_max"] = self.state_counts_max
        _atomic_savez(path, payload)


def _atomic_savez(path, payload: dict) -> None:
    from explorer.model.atomic import atomic_write

    atomic_write(path, lambda fh: np.savez_compressed(fh, **payload))
