"""What the explorer views read from one simulation (Qt-free numpy).

``SimRun`` wraps a ``SimResult`` with the few derived arrays the views need and
the core does not keep:

* the timeline's zoom pyramid per SM: level k holds, for each bin of 2**k
  cycles, the most important state in the bin (``state_order.PRIORITY``), so a
  one-cycle issue stays visible when a pixel covers a hundred cycles;
* slot order by scheduler (slot ``s`` belongs to sub-partition ``s % SP``);
* the states of the SMs whose trace the simulator did not keep. A long run keeps
  the per-slot trace of the first SMs only (the trace budget, ``sim_model.toml``);
  the others would show as "not recorded" cells beside a panel counting their
  warps. :func:`fill_plan` and :func:`record_batch` fill them in: the run is
  re-simulated (it is deterministic for its scenario and parameters) recording a
  few of them at a time, and each SM keeps its states sampled every ``stride``
  cycles, so all of them together fit half the trace budget. The window does it
  batch by batch in the background, showing the SMs as they arrive;
  :func:`simulate_run` does it at once for a headless picture.

Everything here is computed once per run (in the simulation worker where it
costs anything) or per selected SM, never per frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from explorer.gui.common.state_order import EMPTY, N_STATES, NOT_SELECTED, PRIORITY, SELECTED

_RANK = np.asarray(PRIORITY, np.uint8)
MIN_PYRAMID_COLUMNS = 256  # stop halving once a level is this narrow
FILL_SHARE = 0.5  # the sampled states of the SMs a run did not keep: at most this share of the trace budget
BATCH_SHARE = 0.25  # one re-simulation's full trace of a batch of those SMs: at most this share


def scheduler_order(warps_per_sm: int, sub_partitions: int) -> np.ndarray:
    """Slots sorted by scheduler, then by position: [0, 4, 8, ..., 1, 5, ...] for 4 schedulers."""
    slots = np.arange(warps_per_sm)
    return np.lexsort((slots // sub_partitions, slots % sub_partitions)).astype(np.int64)


def halvings(level0: np.ndarray, reduce: str = "max") -> list[np.ndarray]:
    """``level0`` and its halvings along axis 0 (bins of 2**k rows), level 0 first.

    ``reduce="max"``: each bin's maximum (an odd length is padded with zeros, the
    smallest value of every series here); ``"mean"``: each bin's average (as float32,
    the last bin averaged over the rows it has). Halving stops once a level is
    MIN_PYRAMID_COLUMNS long.
    """
    level = np.ascontiguousarray(level0 if reduce == "max" else np.asarray(level0, np.float32))
    levels = [level]
    while level.shape[0] > MIN_PYRAMID_COLUMNS:
        if level.shape[0] % 2:
            pad = np.zeros((1, *level.shape[1:]), level.dtype) if reduce == "max" else level[-1:]
            level = np.concatenate([level, pad])
        pairs = level.reshape(-1, 2, *level.shape[1:])
        level = pairs.max(axis=1) if reduce == "max" else pairs.mean(axis=1, dtype=np.float32)
        levels.append(level)
    return levels


def pyramid(trace_sm: np.ndarray, order: np.ndarray) -> list[np.ndarray]:
    """Priority-rank images [cycles / 2**k, W] (slots in scheduler order), level 0 first."""
    return halvings(_RANK[trace_sm[:, order]] if trace_sm.size else np.zeros((0, len(order)), np.uint8))


@dataclass(eq=False)
class SimRun:
    """One finished simulation and what the views derive from it."""

    result: object  # explorer.sim.SimResult (not imported here: the window starts without numba)
    summary: dict
    block_slots: np.ndarray  # int16[blocks, warps_per_block]
    order: np.ndarray  # slots in scheduler order
    extra_traces: dict = field(default_factory=dict)  # sm -> uint8[cycles, W], re-simulated on demand
    sampled: dict = field(default_factory=dict)  # sm -> (stride, uint8[ceil(cycles / stride), W]): filled in
    _pyramids: dict = field(default_factory=dict)
    _partials: dict = field(default_factory=dict)

    @classmethod
    def from_result(cls, result) -> "SimRun":
        p = result.params
        return cls(result, result.summary(), result.block_slots, scheduler_order(p.warps_per_sm, p.sub_partitions))

    # -- shape ----------------------------------------------------------------------
    @property
    def cycles(self) -> int:
        return int(self.result.cycles)

    @property
    def sm_count(self) -> int:
        return int(self.result.params.sm_count)

    @property
    def warps_per_sm(self) -> int:
        return int(self.result.params.warps_per_sm)

    @property
    def sub_partitions(self) -> int:
        return int(self.result.params.sub_partitions)

    @cached_property
    def mma_share(self) -> float:
        """The share of the run's warp-instructions that are Tensor Core MMAs (from the program it ran;
        mma and wgmma rows, each counted for the warps of a block that run it, as often as they do)."""
        per, tensor, _wgmma = self._tensor_rows()
        total = int(per.sum())
        return int(per[tensor].sum()) / total if total else 0.0

    @cached_property
    def mma_cycles(self) -> int:
        """Cycles one of the run's MMA instructions keeps its Tensor Core pipe busy (a wgmma: N / 8 MMA
        intervals), the mean over its MMAs; the simulator's mma_interval when it has no wgmma."""
        interval = self.result.params.mma_interval
        per, tensor, wgmma = self._tensor_rows()
        if not wgmma.any():
            return int(interval)
        intervals = np.where(wgmma, self.result.warp_program.arg, 1)
        return int(interval * float((intervals * per)[tensor].sum()) / float(per[tensor].sum()))

    def _tensor_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(per row the warp-instructions that executed it, mma-or-wgmma rows, wgmma rows) of the program
        that ran: the result's own counts (``SimResult.row_executions``; a user kernel's from what executed)."""
        from explorer.sass.warp_program import OP

        prog = self.result.warp_program
        per = np.asarray(self.result.row_executions, np.int64)
        wgmma = prog.op == OP["wgmma"]
        return per, (prog.op == OP["mma"]) | wgmma, wgmma

    @cached_property
    def unit_windows(self) -> "UnitWindows":
        """Each unit's share of its peak per shown window, and each window's bottleneck (see :class:`UnitWindows`)."""
        return unit_windows(self.result)

    def unit_window(self, cycle: int) -> int:
        """The shown unit window holding ``cycle``."""
        w = self.unit_windows
        return max(0, min(int(cycle) // w.cycles, w.shares.shape[0] - 1))

    # -- per cycle ------------------------------------------------------------------
    def clamp(self, cycle: int) -> int:
        return max(0, min(int(cycle), max(self.cycles - 1, 0)))

    def states_at(self, cycle: int) -> np.ndarray:
        """uint8[sm_count, W]; 255 for SMs whose slots were not recorded (nor filled in yet)."""
        out = self.result.states_at(cycle)
        if 0 <= cycle < self.cycles:
            for sm, (stride, samples) in self.sampled.items():
                out[sm] = samples[min(cycle // stride, len(samples) - 1)]
        for sm, trace in self.extra_traces.items():
            if 0 <= cycle < trace.shape[0]:
                out[sm] = trace[cycle]
        return out

    def counts_at(self, cycle: int) -> tuple[int, int, int, int]:
        c = self.result.counts[self.clamp(cycle)]
        return int(c[0]), int(c[1]), int(c[2]), int(c[3])

    def state_counts_at(self, cycle: int) -> np.ndarray:
        return self.result.state_counts[self.clamp(cycle)]

    def resident_per_sm(self, cycle: int) -> np.ndarray:
        return self.result.residency.at(cycle)

    def live_blocks(self, cycle: int) -> np.ndarray:
        return self.result.blocks.live_at(cycle)

    def slot_owner(self, cycle: int) -> np.ndarray:
        """int64[sm_count, W]: the block holding each slot at ``cycle`` (-1: none).

        A warp gives its slot back when it exits, not when its block ends (the simulator's per-warp release,
        as on the H200), so a live block may list a slot a later block has taken since: the later block owns
        it (its warp can only have started there after the earlier warp left)."""
        owner = np.full((self.sm_count, self.warps_per_sm), -1, np.int64)
        live = self.live_blocks(cycle)
        if live.size:
            live = live[np.argsort(self.result.blocks.start[live], kind="stable")]
            sms = self.result.blocks.sm
            for blk in live.tolist():  # in start order: a later block overwrites the slots it took over
                slots = self.block_slots[blk]
                owner[int(sms[blk]), slots[slots >= 0]] = blk
        return owner

    # -- per SM ---------------------------------------------------------------------
    def sm_trace(self, sm: int) -> np.ndarray | None:
        trace = self.result.sm_trace(sm)
        return trace if trace is not None else self.extra_traces.get(sm)

    def is_recorded(self, sm: int) -> bool:
        return self.result.is_recorded(sm) or sm in self.extra_traces

    def has_states(self, sm: int) -> bool:
        """Whether the SM grid can colour the SM's slots (its trace was kept, re-simulated or filled in)."""
        return sm in self.sampled or self.is_recorded(sm)

    def missing_sms(self) -> list[int]:
        """The SMs whose states are not known yet (the grid shows them as "not recorded")."""
        return [sm for sm in range(self.sm_count) if not self.has_states(sm)]

    def add_samples(self, sm: int, stride: int, samples: np.ndarray) -> None:
        self.sampled[sm] = (int(stride), samples)

    def add_trace(self, sm: int, trace: np.ndarray) -> None:
        self.extra_traces[sm] = trace
        self._pyramids.pop(sm, None)

    def pyramid(self, sm: int) -> list[np.ndarray] | None:
        if sm not in self._pyramids:
            trace = self.sm_trace(sm)
            if trace is None:
                return None
            self._pyramids[sm] = pyramid(trace, self.order)
        return self._pyramids[sm]

    def partial_pyramid(self, sm: int) -> list[np.ndarray] | None:
        """The timeline's partial-warp marks: images [cycles / 2**k, W] (slots in scheduler order), 1 where
        the slot's warp issues its next instruction with fewer than 32 lanes (at any cycle of the bin), level
        0 first, as :meth:`pyramid`; None where no warp of the SM did (a user kernel's diverged warps, and
        any program's last warp of a block whose threads are not a multiple of 32) or the SM was not recorded."""
        if sm not in self._partials:
            self._partials[sm] = None
            r = self.result
            ev = getattr(r, "pc_events", None)
            hit = np.nonzero(r.recorded_sms == sm)[0]
            whole = r.scenario.launch.threads_per_block == 32 * r.params.warps_per_block
            if ev is not None and hit.size and (ev.mask is not None or not whole):
                if ev.mask is None:  # whole warps but a block's last: its threads' lanes
                    masks = r.mask_trace(sm)
                    partial = ((masks != 0xFFFFFFFF) & (masks != 0)).astype(np.uint8)
                else:  # a user kernel: the events' masks, densified as flags (1 byte per slot-cycle)
                    flags = ((ev.mask != 0xFFFFFFFF) & (ev.mask != 0)).astype(np.uint8)
                    partial = ev.dense(int(hit[0]), flags, 0, np.uint8)[: r.trace_cycles]
                partial[r.sm_trace(sm) == EMPTY] = 0
                if partial.any():
                    self._partials[sm] = halvings(partial[:, self.order])
        return self._partials[sm]

    def sm_counts(self, sm: int) -> np.ndarray | None:
        """int32[cycles, 3]: resident, eligible, issued warps of one SM per cycle."""
        trace = self.sm_trace(sm)
        if trace is None:
            return None
        resident = (trace != EMPTY).sum(axis=1, dtype=np.int32)
        issued = (trace == SELECTED).sum(axis=1, dtype=np.int32)
        eligible = issued + (trace == NOT_SELECTED).sum(axis=1, dtype=np.int32)
        return np.stack([resident, eligible, issued], axis=1)


@dataclass(frozen=True)
class UnitWindows:
    """The run's unit windows as the Speed-of-Light panel and the unit-use strip show them.

    The simulator keeps every unit's busy time per window of a few cycles (16 on
    the mission's example: hundreds of windows whose shares jump with single
    requests); the views show neighbouring windows merged, a power of two of them,
    so a run has at most ``SHOWN_WINDOWS`` (each still the exact busy time over its
    cycles, over the unit's capacity), and each shown window's bottleneck by the
    simulator's own rule (``explorer.sim.bottleneck.pick``): a unit index in
    ``explorer.model.units.UNITS``, or -1 (latency: no unit near its peak).
    """

    cycles: int  # cycles per shown window
    shares: np.ndarray  # float32[windows, units]: share of each unit's peak
    bottleneck: np.ndarray  # int8[windows]


SHOWN_WINDOWS = 160


def unit_windows(result) -> UnitWindows:
    from explorer.sim.bottleneck import pick
    from explorer.model.units import UNITS

    busy = result.unit_busy_cycles
    base = max(int(result.window_cycles), 1)
    group = 1
    while -(-busy.shape[0] // group) > SHOWN_WINDOWS:
        group *= 2
    n = -(-busy.shape[0] // group)
    padded = np.zeros((n * group, busy.shape[1]), np.float64)
    padded[: busy.shape[0]] = busy
    summed = padded.reshape(n, group, -1).sum(axis=1)
    size = base * group
    lengths = np.minimum((np.arange(n) + 1) * size, max(int(result.cycles), 1)) - np.arange(n) * size
    capacity = np.array([u.capacity for u in result.unit_peaks])
    shares = (summed / np.maximum(lengths, 1)[:, None] / capacity).astype(np.float32)
    index = {name: i for i, name in enumerate(UNITS)}
    top = np.array([index.get(pick(row)[0], -1) for row in shares], dtype=np.int8)
    return UnitWindows(size, shares, top)


@dataclass(frozen=True)
class FillPlan:
    """How to fill in a run's missing SMs: which, sampled every ``stride`` cycles, in which batches."""

    sms: tuple[int, ...]
    stride: int
    batches: tuple[tuple[int, ...], ...]


def trace_budget() -> int:
    """The simulator's trace budget in bytes (``sim_model.toml``: trace.budget_bytes)."""
    from explorer.model.sim_model import model_constants

    return int(model_constants()["trace"]["budget_bytes"])


def fill_plan(run: SimRun, budget: int | None = None) -> FillPlan | None:
    """The batches that fill in ``run``'s missing SMs within the budget (None: nothing is missing)."""
    missing = run.missing_sms()
    if not missing or run.cycles == 0:
        return None
    budget = trace_budget() if budget is None else budget
    per_sm = run.cycles * run.warps_per_sm  # bytes of one SM's full trace
    rows = int(budget * FILL_SHARE) // (len(missing) * run.warps_per_sm)  # samples per SM that fit
    stride = max(1, -(-run.cycles // rows)) if rows > 0 else run.cycles  # too small a budget: one sample each
    size = max(1, int(budget * BATCH_SHARE) // per_sm)
    batches = tuple(tuple(missing[i:i + size]) for i in range(0, len(missing), size))
    return FillPlan(tuple(missing), stride, batches)


def record_batch(run: SimRun, sms, stride: int, cancel=None) -> dict[int, np.ndarray]:
    """Re-simulate ``run``'s scenario recording ``sms``; each SM's states sampled every ``stride`` cycles.

    The same scenario and parameters give the same run, cycle for cycle; a result of
    another length (a bug) gives nothing rather than states from a different run.
    """
    from explorer.sim import simulate

    result = simulate(run.result.scenario, record_sms=list(sms), cancel=cancel, params=run.result.params)
    if result.cycles != run.cycles:
        return {}
    out = {}
    for sm in sms:
        trace = result.sm_trace(sm)
        if trace is not None:
            out[sm] = np.ascontiguousarray(trace[::stride])
    return out


def fill_in(run: SimRun, cancel=None) -> SimRun:
    """Fill in every missing SM of ``run`` now (a headless picture; the window does it in the background)."""
    plan = fill_plan(run)
    if plan is not None:
        for batch in plan.batches:
            for sm, samples in record_batch(run, batch, plan.stride, cancel).items():
                run.add_samples(sm, plan.stride, samples)
    return run


def simulate_run(scenario, *, prefetch_sm: int | None = None, progress=None, cancel=None,
                 fill: bool = True) -> SimRun:
    """Simulate ``scenario`` and wrap the result; ``prefetch_sm``'s timeline pyramid is built too.

    The one way a view's run is made (the window's worker, ``render``, slides): the
    simulator (and numba) is imported here, on first use, not when the window starts.
    ``fill``: fill in the SMs a long run did not keep (:func:`fill_in`); the window
    passes False and fills them in the background, batch by batch.
    """
    from explorer.sim import simulate

    run = SimRun.from_result(simulate(scenario, progress=progress, cancel=cancel))
    run.result.states_at(0)  # the SM grid's lookups (the state events sorted by slot: ~90 ms on the example) here
    if prefetch_sm is not None:
        run.pyramid(prefetch_sm)  # the selected SM's timeline, ready on arrival
    if fill:
        fill_in(run, cancel)
    return run


def simulate_sm_trace(scenario, sm: int, cancel=None, params=None):
    """One SM's per-slot trace (uint8[cycles, W]) re-simulated: a long run keeps only some SMs' traces.

    The hook every view of a run uses when it needs an SM the run did not keep (the
    Explorer's timeline, the A/B compare columns); run it in a worker and hand the
    trace to :meth:`SimRun.add_trace`. The simulation is deterministic for a seed, so
    the trace is the one the run would have kept (given the run's own ``params``: a
    calibrated run re-simulates as calibrated).
    """
    from explorer.sim import simulate

    return simulate(scenario, record_sms=[sm], cancel=cancel, params=params).sm_trace(sm)


def state_breakdown(counts: np.ndarray) -> list[tuple[int, int]]:
    """[(state code, warps)] for the non-empty states with warps, largest first."""
    counts = np.asarray(counts)
    pairs = [(code, int(counts[code])) for code in range(1, min(len(counts), N_STATES)) if counts[code] > 0]
    return sorted(pairs, key=lambda p: -p[1])
