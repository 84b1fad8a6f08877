"""What the SASS view reads from one simulation (Qt-free numpy): rows, stall counts, the warp's instruction.

A run's ``result.warp_program`` is the program every warp ran (``explorer.sass.warp_program``:
the kernel's SASS or the workload model); its ``listing`` is what the view lists, one row
per static instruction. The simulator counts, per row of the program it executed,
the warp-cycles spent in each state while that row was the warp's next instruction
(``result.stall_by_instruction``, int64[L, states]); here they are summed onto the
listing rows (``static_index``), so a row is as hot as every warp-cycle spent in front
of it, in Nsight Compute's sense of "stall sampling" but counted every cycle.

``result.pc_trace(sm)`` (int16[cycles, W], -1 = empty slot) says which program row each
warp slot of a recorded SM issues next at each cycle; :meth:`ProgramData.row_at` turns
that into the listing row the view highlights. It is read once per SM and kept, so a
playback frame costs one array lookup.

Per listing row, how many warp-instructions executed it and their active lanes
(``result.row_executions`` / ``row_active_lanes``, summed onto the listing rows as the
stall counts are): :meth:`ProgramData.average_lanes` is Nsight Compute's "average active
threads per warp" for one instruction. :meth:`ProgramData.mask_at` is the selected warp's
active-lane mask for its next instruction (``result.mask_at``: the lanes that issue it).

What an instruction *waits on* is read from the program itself: each register it reads
(RAW) or writes (WAW), with the instruction that last wrote it on the path a warp
runs (the loop's previous iteration included) and how long that producer takes
(its latency and scoreboard: the stall state a wait on it shows as).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from explorer.sim.states import EMPTY, LONG_SB, NAMES, SELECTED, SHORT_SB, WAIT

N_STATES = len(NAMES)
# how a dependent waits on a producer with this scoreboard kind (warp_program.SB_NAMES)
WAIT_STATE = {"fixed": WAIT, "short": SHORT_SB, "long": LONG_SB}


@dataclass(frozen=True)
class Producer:
    """The instruction a register comes from, as seen from a consumer."""

    register: str
    row: int | None  # listing row of the last writer; None: ready when the warp starts (never written)
    previous_iteration: bool = False  # written later in the loop body: the previous iteration's value
    prologue: bool = False  # written before the loop (only the first iteration waits on it)
    write: bool = False  # the consumer writes it too (WAW)


def program_of(result):
    """The WarpProgram a run executed (None for a result from before the simulator ran SASS)."""
    return getattr(result, "warp_program", None)


class ProgramData:
    """One run's program, its per-row stall counts and the per-SM next-instruction traces."""

    def __init__(self, result):
        self.result = result
        self.program = program_of(result)
        if self.program is None:
            raise ValueError("the run carries no program")
        self._pc: dict[int, np.ndarray | None] = {}

    @property
    def notice(self) -> str | None:
        """Why the model ran instead of the SASS, when the simulator fell back to it (one line)."""
        text = getattr(self.result, "program_notice", None) or self.program.meta.get("notice")
        return str(text) if text else None

    @property
    def rows(self) -> int:
        return len(self.program.listing)

    # -- stall counts ------------------------------------------------------------------
    @cached_property
    def stalls(self) -> np.ndarray:
        """int64[listing rows, states]: warp-cycles in each state while the row was a warp's next instruction."""
        prog = self.program
        out = np.zeros((self.rows, N_STATES), np.int64)
        raw = getattr(self.result, "stall_by_instruction", None)
        if raw is None:
            return out
        raw = np.asarray(raw, np.int64)
        if raw.shape[0] != prog.length:
            return out
        cols = min(raw.shape[1], N_STATES)
        np.add.at(out[:, :cols], np.asarray(prog.static_index, np.int64), raw[:, :cols])
        out[:, EMPTY] = 0  # an empty slot has no next instruction
        return out

    @cached_property
    def totals(self) -> np.ndarray:
        """int64[rows]: warp-cycles spent in front of each row (every state but empty)."""
        return self.stalls.sum(axis=1)

    @cached_property
    def total(self) -> int:
        return int(self.totals.sum())

    def top_stall(self, row: int) -> tuple[int, float] | None:
        """(the state, its share of the row's warp-cycles) that kept warps longest at ``row`` without issuing."""
        counts = self.stalls[row].copy()
        total = int(counts.sum())
        counts[SELECTED] = 0
        if total <= 0 or counts.max() <= 0:
            return None
        state = int(counts.argmax())
        return state, float(counts[state]) / total

    def hottest_first(self) -> np.ndarray:
        """Listing rows by warp-cycles, most first (ties in program order)."""
        return np.lexsort((np.arange(self.rows), -self.totals)).astype(np.int64)

    # -- which instruction a warp is at ----------------------------------------------------
    def pc_trace(self, sm: int) -> np.ndarray | None:
        """int16[cycles, W] program rows of SM ``sm``'s slots (-1 empty), or None where it was not recorded."""
        if sm not in self._pc:
            if len(self._pc) >= 4:  # the selected SM and a few before it: each is cycles x W
                self._pc.pop(next(iter(self._pc)))
            trace = None
            fn = getattr(self.result, "pc_trace", None)
            if callable(fn):
                try:
                    trace = fn(sm)
                except (IndexError, KeyError, ValueError):
                    trace = None
            self._pc[sm] = None if trace is None else np.asarray(trace)
        return self._pc[sm]

    def row_at(self, sm: int, slot: int, cycle: int) -> int | None:
        """The listing row slot ``slot`` of SM ``sm`` issues next at ``cycle`` (None: empty or not recorded)."""
        trace = self.pc_trace(sm)
        if trace is None or not (0 <= cycle < trace.shape[0]) or not (0 <= slot < trace.shape[1]):
            return None
        pc = int(trace[cycle, slot])
        if pc < 0 or pc >= self.program.length:
            return None
        return int(self.program.static_index[pc])

    def mask_at(self, sm: int, slot: int, cycle: int) -> int | None:
        """The lanes (bit k = lane k) that issue the instruction the slot's warp issues next at ``cycle``."""
        fn = getattr(self.result, "mask_at", None)
        return fn(sm, slot, cycle) if callable(fn) else None

    @cached_property
    def executions(self) -> np.ndarray | None:
        """int64[listing rows]: warp-instructions that executed each row over the whole run (None: not counted)."""
        return self._per_listing_row(getattr(self.result, "row_executions", None))

    @cached_property
    def lanes(self) -> np.ndarray | None:
        """int64[listing rows]: those warp-instructions' active lanes, summed."""
        return self._per_listing_row(getattr(self.result, "row_active_lanes", None))

    def _per_listing_row(self, raw) -> np.ndarray | None:
        if raw is None or np.asarray(raw).shape[0] != self.program.length:
            return None
        out = np.zeros(self.rows, np.int64)
        np.add.at(out, np.asarray(self.program.static_index, np.int64), np.asarray(raw, np.int64))
        return out

    @cached_property
    def sectors(self) -> np.ndarray | None:
        """int64[listing rows, 4]: the sectors each row's global accesses looked up in the caches' tags over the
        whole run: L1 hits, L1 misses, L2 hits, L2 misses (``result.sectors_by_instruction``, summed onto the
        listing rows as the stall counts are); None when the run has none (every access drew the scenario's
        hit rates: TMA copies, atomics, local memory, or a [kernel] that sets a hit rate)."""
        raw = getattr(self.result, "sectors_by_instruction", None)
        if raw is None:
            return None
        raw = np.asarray(raw, np.int64)
        if raw.ndim != 2 or raw.shape != (self.program.length, 4) or not raw.any():
            return None
        out = np.zeros((self.rows, 4), np.int64)
        np.add.at(out, np.asarray(self.program.static_index, np.int64), raw)
        return out

    def hit_rates(self, row: int) -> tuple[float | None, float | None] | None:
        """(L1 hit rate, L2 hit rate) of listing row ``row``'s sectors, Nsight Compute's per-instruction
        ``l1tex__t_sector_hit_rate`` and ``lts__t_sector_hit_rate`` (each None where no sector reached that
        level); None where the row looked up no sector by address."""
        sect = self.sectors
        if sect is None or not sect[row].any():
            return None
        h1, m1, h2, m2 = (int(v) for v in sect[row])
        return (h1 / (h1 + m1) if h1 + m1 else None), (h2 / (h2 + m2) if h2 + m2 else None)

    def average_lanes(self, row: int) -> float | None:
        """Active lanes per warp-instruction that executed listing row ``row`` (None: none did, or not counted)."""
        n, lanes = self.executions, self.lanes
        if n is None or lanes is None or n[row] <= 0:
            return None
        return float(lanes[row]) / float(n[row])

    def recorded_cycles(self, sm: int) -> int:
        trace = self.pc_trace(sm)
        return 0 if trace is None else int(trace.shape[0])

    def first_busy_slot(self, sm: int) -> int | None:
        """The first slot of the SM that ever held a warp (the view's default warp)."""
        trace = self.pc_trace(sm)
        if trace is None or trace.size == 0:
            return None
        busy = np.nonzero((trace >= 0).any(axis=0))[0]
        return int(busy[0]) if busy.size else None

    # -- dependencies ----------------------------------------------------------------------
    @cached_property
    def dynamic_row(self) -> dict[int, int]:
        """Listing row -> the first program row executing it (skipped rows have none)."""
        out: dict[int, int] = {}
        for i, s in enumerate(self.program.static_index.tolist()):
            out.setdefault(int(s), i)
        return out

    def waits_on(self, row: int) -> list[Producer]:
        """Each register listing row ``row`` reads, then each it writes, with the instruction that last wrote it."""
        prog = self.program
        i = self.dynamic_row.get(row)
        if i is None:
            return []
        names = prog.reg_names
        reads = [int(r) for r in prog.src[i] if r >= 0]
        writes = [int(r) for r in prog.dst[i] if r >= 0 and int(r) not in reads]
        return [self._producer(i, r, names[r], write) for r, write in
                [(r, False) for r in dict.fromkeys(reads)] + [(r, True) for r in dict.fromkeys(writes)]]

    def _producer(self, i: int, reg: int, name: str, write: bool) -> Producer:
        prog = self.program
        writes = (prog.dst == reg).any(axis=1)
        start, end = prog.loop_start, prog.loop_end
        in_loop = start <= i < end and end > start
        before = np.nonzero(writes[start if in_loop else 0:i])[0]
        if before.size:
            j = int(before[-1]) + (start if in_loop else 0)
            return Producer(name, int(prog.static_index[j]), write=write)
        if in_loop:
            later = np.nonzero(writes[i:end])[0]
            if later.size:
                return Producer(name, int(prog.static_index[i + int(later[-1])]), previous_iteration=True, write=write)
            head = np.nonzero(writes[:start])[0]
            if head.size:
                return Producer(name, int(prog.static_index[int(head[-1])]), prologue=True, write=write)
        return Producer(name, None, write=write)
