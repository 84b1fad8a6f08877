"""What executed, as the instructions the timing engine issues: one flat program for the whole launch.

A ``WarpProgram`` says what every warp runs (one path, a loop with a trip count); a user
kernel's warps each run their own path, known only after execution. So the executed
stream (``stream.py``) becomes one *flat* program: every executed warp-instruction of
the launch is an entry, in the shape of a ``WarpProgram``'s instructions without a loop
(``op``, ``unit``, ``latency``, ``scoreboard``, ``dst``/``src`` from the static row's
timing facts, ``timing.py``; ``req_bytes``/``useful_bytes`` from what the entry moved),
and warp ``w`` of the grid (``w = block * warps_per_block + warp in block``, block in grid
order) runs entries ``warp_start[w] .. warp_start[w + 1] - 1``. Its last entry is its
``EXIT``. The engine starts each warp at ``warp_start[w]`` and needs no branch, mask or
address: coalescing, bank conflicts and divergence are already in the entries.

Per entry, from what executed (the lowering the engine relies on):

- memory: ``req_bytes`` = sectors x 32 for a global or local access (the sectors its
  executed lanes touched), wavefronts x the shared data path's bytes per cycle for a
  shared access (bank conflicts are extra wavefronts); ``useful_bytes`` = executed lanes
  x access width. An ``LDGSTS`` is timed by its global half. A memory instruction whose
  guard was false on every lane moved nothing: it issues as a ``branch`` (no traffic, no
  result: its destination keeps its old value, so nothing waits on it).
- divergence: a diverged warp's paths are consecutive entries with partial masks, so
  both issue (``active`` keeps each entry's mask for the views).
- ``BAR.SYNC``/``BAR.RED``/``BAR.ARV``: ``sync`` (a block barrier: the warp waits for every
  warp of its block that has not exited). ``BAR.ARV`` (arrive without waiting) and named
  barriers other than 0 are timed as barrier 0 (the engine has one barrier per block;
  the executor already checked that every barrier completes).
- an ``EXIT`` that is not the warp's last entry (some lanes left, the rest go on) is a
  ``branch``, as the SASS program builder times a guarded EXIT a warp survives.

Memory: the timing engine does not hold a launch's whole flat program: it takes the
executed stream chunk by chunk, each lowered by :func:`lower` (``explorer.sim.executed.
ProgramFeed``: a window of the blocks in flight). :class:`FlatProgramBuilder` joins a
launch's chunks into one FlatProgram (``bytes_per_entry`` bytes per warp-instruction,
twice while joined, refused past its budget as the chunks arrive): the whole stream at
once, for tests and studies of one small launch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.model.errors import InputError
from explorer.sass.execute import isa
from explorer.sass.warp_program import OP, SB

MEMORY_OPS = np.zeros(len(OP), dtype=bool)  # by op class: a memory instruction
MEMORY_OPS[[OP[c] for c in ("ldg", "stg", "lds", "sts", "ldl", "stl", "atom")]] = True
_SHARED_CLASS = np.zeros(isa.N_CLASSES, dtype=bool)  # by memory class: shared memory
_SHARED_CLASS[list(isa.SHARED_LIKE)] = True


@dataclass(frozen=True)
class FlatProgram:
    """Every executed warp-instruction of a launch, per warp in order (see the module docstring)."""

    op: np.ndarray  # int8 [entries] (warp_program.OP)
    unit: np.ndarray  # int8 [entries] (warp_program.UNIT)
    latency: np.ndarray  # int32 [entries]
    scoreboard: np.ndarray  # int8 [entries] (warp_program.SB)
    dst: np.ndarray  # int16 [entries, kd], -1 padded
    src: np.ndarray  # int16 [entries, ks], -1 padded
    req_bytes: np.ndarray  # int32 [entries]
    useful_bytes: np.ndarray  # int32 [entries]
    static_index: np.ndarray  # int32 [entries]: the listing row (pc = 16 * row)
    active: np.ndarray  # uint32 [entries]: the lanes that issued it
    warp_start: np.ndarray  # int64 [warps + 1]
    reg_names: tuple[str, ...]
    warps_per_block: int

    @property
    def entries(self) -> int:
        return int(self.op.shape[0])

    @property
    def n_warps(self) -> int:
        return int(self.warp_start.shape[0] - 1)

    @property
    def n_regs(self) -> int:
        return len(self.reg_names)

    def warp(self, w: int) -> slice:
        return slice(int(self.warp_start[w]), int(self.warp_start[w + 1]))

    def check(self) -> None:
        """The contract's invariants (raises AssertionError)."""
        n = self.entries
        for name in ("unit", "latency", "scoreboard", "req_bytes", "useful_bytes", "static_index", "active"):
            assert getattr(self, name).shape == (n,), name
        assert self.dst.shape[0] == n and self.src.shape[0] == n
        assert self.warp_start[0] == 0 and self.warp_start[-1] == n
        lengths = np.diff(self.warp_start)
        assert np.all(lengths >= 1)
        last = self.warp_start[1:] - 1
        assert np.all(self.op[last] == OP["exit"])
        assert int((self.op == OP["exit"]).sum()) == self.n_warps  # only the last entry ends a warp
        assert int(self.dst.max(initial=-1)) < self.n_regs and int(self.src.max(initial=-1)) < self.n_regs


def bytes_per_entry(timing) -> int:
    """What one entry costs: op, unit, scoreboard (1 B each), latency, req, useful, row, mask (4 B), registers."""
    return 3 + 5 * 4 + 2 * (timing.dst.shape[1] + timing.src.shape[1])


class FlatProgramBuilder:
    """Collects a launch's executed streams (``add`` each chunk, in grid order) into a FlatProgram.

    ``timing`` is the kernel's ``StaticTiming``, ``widths`` the access bytes per row
    (``kernel.decoded.rows[:, isa.C_WIDTH]``), ``wavefront_bytes`` what one shared-memory
    wavefront moves (the data path's bytes per cycle), ``budget_bytes`` the most the
    program may hold.
    """

    def __init__(self, timing, widths: np.ndarray, *, n_blocks: int, warps_per_block: int, wavefront_bytes: int,
                 budget_bytes: int):
        self.t = timing
        self.widths = np.asarray(widths, dtype=np.int32)
        self.n_blocks = n_blocks
        self.wpb = warps_per_block
        self.wavefront_bytes = int(wavefront_bytes)
        self.per_entry = bytes_per_entry(timing)
        self.max_entries = max(1, int(budget_bytes) // (2 * self.per_entry))  # joined at the end: twice
        self.parts: list[tuple] = []
        self.lengths: list[np.ndarray] = []
        self.entries = 0
        self.next_block = 0

    def add(self, st) -> None:
        if st.first_block != self.next_block or st.warps_per_block != self.wpb:
            raise ValueError(f"chunk of blocks {st.first_block}.. after block {self.next_block}: out of order")
        if self.entries + st.entries > self.max_entries:
            raise InputError("kernel", f"the kernel executes more than {self.max_entries:,} warp-instructions, the "
                                       f"most the timing engine holds ({self.per_entry} bytes each, twice while they "
                                       "are joined, within the simulator's memory budget); use a smaller grid, or "
                                       "`execute` for the functional run alone")
        self.parts.append(lower(st, self.t, self.widths, self.wavefront_bytes))
        self.lengths.append(np.diff(st.warp_start))
        self.entries += st.entries
        self.next_block += st.n_blocks

    def finish(self) -> FlatProgram:
        if self.next_block != self.n_blocks:
            raise ValueError(f"{self.next_block} of {self.n_blocks} blocks executed")
        cols = list(zip(*self.parts)) if self.parts else [[]] * 9
        self.parts = []
        op, unit, lat, sb, dst, src, req, useful, row, active = (np.concatenate(c) for c in cols)
        lengths = np.concatenate(self.lengths)
        start = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
        np.cumsum(lengths, out=start[1:])
        return FlatProgram(op=op, unit=unit, latency=lat, scoreboard=sb, dst=dst, src=src, req_bytes=req,
                           useful_bytes=useful, static_index=row, active=active, warp_start=start,
                           reg_names=self.t.reg_names, warps_per_block=self.wpb)


# a compact entry's flags: what makes it issue as a branch instead of its row's class (see lower)
F_SURVIVED = 1  # an EXIT some lanes took while the warp went on
F_IDLE = 2  # a memory instruction no lane executed: it moves nothing and writes nothing
COMPACT_BYTES = 2 + 1 + 4 + 4  # row (int16), flags (uint8), req_bytes (int32), active (uint32)


def compact(st, t, wavefront_bytes: int) -> tuple:
    """One chunk's entries as the few numbers :func:`lower`'s output does not take from the static row:
    (row int16, flags uint8, req_bytes int32, active uint32), ``COMPACT_BYTES`` each. The timing engine's
    feed keeps the blocks in flight this way and expands a window of each warp's entries at a time
    (``explorer.sim.executed``); expanded, they equal :func:`lower`'s (tested)."""
    rows = st.row
    n = rows.shape[0]
    op = np.take(t.op, rows)
    flags = np.zeros(n, dtype=np.uint8)
    last = np.zeros(n, dtype=bool)
    lengths = np.diff(st.warp_start)
    last[(st.warp_start[1:] - 1)[lengths > 0]] = True
    flags[(op == OP["exit"]) & ~last] = F_SURVIVED
    req = np.zeros(n, dtype=np.int32)
    e, cls, count = st.mem_entry, st.mem_class, st.mem_count.astype(np.int32)
    shared = _SHARED_CLASS[cls]
    req[e[shared]] = count[shared] * wavefront_bytes
    req[e[~shared]] = count[~shared] * 32
    has_event = np.zeros(n, dtype=bool)
    has_event[e] = True
    op[np.take(t.barrier, rows) >= 0] = OP["sync"]
    flags[MEMORY_OPS[op] & ~has_event & (flags == 0)] = F_IDLE
    return rows.astype(np.int16), flags, req, st.active.astype(np.uint32)


def lower(st, t, widths: np.ndarray, wavefront_bytes: int) -> tuple:
    """One chunk's entries as engine instructions (the rules of the module docstring), vectorised."""
    rows = st.row
    n = rows.shape[0]
    op = np.take(t.op, rows)  # copies (np.take: several times faster than fancy indexing here)
    sb = np.take(t.scoreboard, rows)
    dst = np.take(t.dst, rows, axis=0)
    # an EXIT some lanes took while the warp went on issues and goes on
    last = np.zeros(n, dtype=bool)
    lengths = np.diff(st.warp_start)
    last[(st.warp_start[1:] - 1)[lengths > 0]] = True
    survived = (op == OP["exit"]) & ~last
    op[survived] = OP["branch"]
    sb[survived] = SB["none"]
    # block barriers, whatever the table's class for the form
    op[np.take(t.barrier, rows) >= 0] = OP["sync"]
    # bytes moved: shared events first, so an LDGSTS's global half decides its entry
    req = np.zeros(n, dtype=np.int32)
    e, cls, count = st.mem_entry, st.mem_class, st.mem_count.astype(np.int32)
    shared = _SHARED_CLASS[cls]
    req[e[shared]] = count[shared] * wavefront_bytes
    req[e[~shared]] = count[~shared] * 32
    has_event = np.zeros(n, dtype=bool)
    has_event[e] = True
    lanes = np.bitwise_count(st.executed).astype(np.int32)
    useful = np.where(has_event, lanes * np.take(widths, rows), 0).astype(np.int32)
    # a memory instruction no lane executed: it issues, moves nothing and writes nothing
    idle = MEMORY_OPS[op] & ~has_event
    op[idle] = OP["branch"]
    sb[idle] = SB["none"]
    dst[idle] = -1
    return (op, np.take(t.unit, rows), np.take(t.latency, rows), sb, dst, np.take(t.src, rows, axis=0), req, useful,
            rows.astype(np.int32), st.active.astype(np.uint32))
