"""What executed: the integration contract between the functional executor and the timing engine.

The executor runs a launch block by block, in grid order (block ``b`` = ctaid.x +
gridDim.x * (ctaid.y + gridDim.y * ctaid.z)), and hands over an :class:`ExecutedStream`
per chunk of consecutive whole blocks. A chunk holds at most ``chunk_instructions``
warp-instructions (``explorer.sass.execute.session``; one block larger than that gets a
chunk of its own, up to the run's memory limit), so memory stays bounded however long
the kernel runs: the timing engine consumes a chunk and drops it. Because execution and
timing are separate passes, this is trace-driven at block granularity: a block's results
(its stores, its atomics) are in global memory before the next block executes. Kernels
whose blocks wait for one another through global memory (spin locks across blocks,
grid-wide synchronisation) are not supported (they stop at the instruction limit).

Per warp ``w`` of the chunk (``n_warps = n_blocks * warps_per_block``; warp ``w`` is warp
``w % warps_per_block`` of block ``first_block + w // warps_per_block``), its issued
warp-instructions in program order are entries ``warp_start[w] .. warp_start[w + 1] - 1``:

- ``row[e]`` (int32): the static instruction, an index into the kernel's listing
  (``UserKernel.decoded``; pc = 16 * row). The opcode table (``resources/sass/opcodes.toml``)
  gives its unit, latency and class, as for a ``WarpProgram``'s ``static_index``.
- ``active[e]`` (uint32): the lanes that issued it (the warp's converged group; a diverged
  warp issues each path with its partial mask, one after the other).
- ``executed[e]`` (uint32): of those, the lanes whose guard predicate was true (the rest
  issue and do nothing). ``active`` is what Nsight Compute's "threads executed" counts,
  ``executed`` its "predicated-on threads".

A warp's last entry is the ``EXIT`` that ended its last lanes. ``BAR`` entries are block
barriers: the warp waits until every non-exited thread of its block has arrived (the
executor already checked that the block completes). ``BSYNC``/``WARPSYNC`` entries are
where diverged paths reconverge; their waiting is already in the order of the entries
(a warp issues nothing while its lanes wait for each other).

Memory events, one per executed memory instruction with at least one executed lane, in
entry order: ``mem_entry[m]`` (int64) is the entry, ``mem_class[m]`` (int8) its class
(``isa.MEMORY_CLASSES``: global_load, global_store, global_atomic, shared_load,
shared_store, shared_atomic, local_load, local_store), ``mem_count[m]`` (int32):

- global and local classes: the number of distinct 32-byte sectors the executed lanes'
  bytes touch (coalescing emerges: 4 for 32 consecutive floats, 32 for a stride of 32
  floats); their sector numbers (address >> 5, global addresses as the buffers were
  placed; local addresses interleaved per thread as the hardware lays them out) are
  ``sectors[sector_start[m] : sector_start[m] + mem_count[m]]`` for a cache model;
- shared classes: the number of wavefronts (the most distinct 32-bit words any of the 32
  banks serves, summed over the access's phases: 32 lanes for 4-byte accesses, 16 for
  8-byte, 8 for 16-byte); ``sector_start[m]`` is -1 and ``mem_count[m] - mem_ideal[m]``
  are its bank conflicts.

An ``LDGSTS`` (asynchronous global-to-shared copy) gives two events: its global load
and its shared store.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.sass.execute.isa import MEMORY_CLASSES


@dataclass(frozen=True)
class ExecutedStream:
    first_block: int
    n_blocks: int
    warps_per_block: int
    warp_start: np.ndarray  # int64 [n_warps + 1]
    row: np.ndarray  # int32 [entries]
    active: np.ndarray  # uint32 [entries]
    executed: np.ndarray  # uint32 [entries]
    mem_entry: np.ndarray  # int64 [events]
    mem_class: np.ndarray  # int8 [events]
    mem_count: np.ndarray  # int32 [events]
    mem_ideal: np.ndarray  # int32 [events] (shared: wavefronts without conflicts; global/local: 0)
    sector_start: np.ndarray  # int64 [events] (-1 for shared events)
    sectors: np.ndarray  # int64 [sector numbers]

    @property
    def n_warps(self) -> int:
        return int(self.warp_start.shape[0] - 1)

    @property
    def entries(self) -> int:
        return int(self.row.shape[0])

    def warp(self, w: int) -> slice:
        """Entries of warp ``w`` of the chunk."""
        return slice(int(self.warp_start[w]), int(self.warp_start[w + 1]))

    def block_of(self, w: int) -> tuple[int, int]:
        """(block index in the grid, warp index in the block) of the chunk's warp ``w``."""
        return self.first_block + w // self.warps_per_block, w % self.warps_per_block

    def class_name(self, m: int) -> str:
        return MEMORY_CLASSES[int(self.mem_class[m])]

    def check(self) -> None:
        """The contract's invariants (raises AssertionError)."""
        n = self.entries
        assert self.warp_start[0] == 0 and self.warp_start[-1] == n
        assert np.all(np.diff(self.warp_start) >= 0)
        assert self.n_warps == self.n_blocks * self.warps_per_block
        assert np.all((self.executed & ~self.active) == 0)
        e = self.mem_entry
        assert e.shape == self.mem_class.shape == self.mem_count.shape == self.sector_start.shape
        assert np.all((e >= 0) & (e < n)) and np.all(np.diff(e) >= 0)
        glob = self.sector_start >= 0
        assert np.all(self.sector_start[glob] + self.mem_count[glob] <= self.sectors.shape[0])
        assert np.all(self.mem_count >= self.mem_ideal)


def build_stream(first_block: int, n_blocks: int, warps_per_block: int, warp_gid, row, active, executed,
                 m_pos, m_cls, m_n, m_ideal, m_first, sectors) -> ExecutedStream:
    """An ExecutedStream from the interpreter's arrays (entries in issue order, warps interleaved)."""
    local = (np.asarray(warp_gid, dtype=np.int64) - first_block * warps_per_block)
    order = np.argsort(local, kind="stable")
    counts = np.bincount(local, minlength=n_blocks * warps_per_block)
    start = np.zeros(n_blocks * warps_per_block + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    inverse = np.empty_like(order)
    inverse[order] = np.arange(order.shape[0])
    new_pos = inverse[np.asarray(m_pos, dtype=np.int64)] if len(m_pos) else np.zeros(0, dtype=np.int64)
    ev = np.argsort(new_pos, kind="stable")
    return ExecutedStream(
        first_block=first_block, n_blocks=n_blocks, warps_per_block=warps_per_block, warp_start=start,
        row=np.asarray(row)[order].astype(np.int32), active=np.asarray(active)[order].astype(np.uint32),
        executed=np.asarray(executed)[order].astype(np.uint32), mem_entry=new_pos[ev].astype(np.int64),
        mem_class=np.asarray(m_cls)[ev].astype(np.int8), mem_count=np.asarray(m_n)[ev].astype(np.int32),
        mem_ideal=np.asarray(m_ideal)[ev].astype(np.int32),
        sector_start=np.asarray(m_first)[ev].astype(np.int64), sectors=np.asarray(sectors, dtype=np.int64).copy(),
    )
