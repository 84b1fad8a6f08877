"""A user kernel's executed stream as the engine's program: execution first, then timing, chunk by chunk.

:func:`kernel_feed` compiles the ``[kernel]`` scenario's kernel for its GPU and returns a
:class:`ProgramFeed`: the executor (``explorer.sass.execute.session.execute_chunks``) runs
blocks lane by lane, in grid order, a chunk of about a million warp-instructions at a time,
and each chunk's executed stream is lowered into the loop's arrays
(``explorer.sass.execute.flat_program.lower``, then the same class, pipe and scoreboard
mapping as every WarpProgram: ``loop_program.lower_flat``). The engine runs the feed's
*window*: the entries of the blocks still running or not yet placed, each warp from its
own first entry to its EXIT, so coalescing, bank conflicts, divergence and barriers come
out of the timing. Before each call of the cycle loop the engine asks the feed to
:meth:`ProgramFeed.prepare`: it drops the entries no warp can reach again (finished
blocks'), shifts the warps' positions by as much, and executes and appends chunks until
every block the next cycle may place is loaded (the loop stops early, at a cycle
boundary, when it would place a block that is not: ``kernel.G.LOADED_BLOCKS``). The run is
the same, cycle for cycle, whatever the chunk size (tested), and memory stays bounded: the
window holds about the resident blocks' instructions plus one chunk, however long the
kernel runs; the run's limits are the executor's instruction limit (``kernel.max_instructions``)
and the simulator's cycle limit. A window that outgrows the simulator's memory budget
(blocks that stay resident while millions of instructions of later blocks arrive) is
refused with the count and the limit.

Its stall counts and next-instruction events name the kernel's listing rows, and the
result's ``warp_program`` is that listing (:func:`listing_program`: one row per static
instruction, none of them a loop).

Why execute first, then time (trace-driven at block granularity): a block's results do
not depend on timing (see ``explorer.sass.execute``), and the engine's loop stays the one
compiled loop every run uses.

The up-front estimate (issue 12's contract: refuse before the run what cannot fit) is the
engine's own, on the first chunk's blocks, scaled to the grid: exact for a launch that
fits one chunk (most lessons and studies of one kernel), an extrapolation beyond.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from explorer.model.errors import InputError
from explorer.sim import units
from explorer.sim.loop_program import UNIT_MAP, LoopProgram, lower_flat

MAX_ROWS = 32767  # next-instruction events store the listing row as int16 (result.PcEvents)
_LOOP_ARRAYS = ("path", "unit", "latency", "wait_state", "dst", "src", "req_bytes", "role", "arg", "row", "active")


class ProgramFeed:
    """A launch's executed stream, lowered chunk by chunk into a window of the loop's arrays.

    ``loop``: the window as a LoopProgram (its ``entry`` is every warp's first entry, relative
    to the window; warps of blocks not loaded yet hold -1); ``entries``: warp-instructions
    executed so far; ``result``: the executor's ExecutionResult once every block ran.
    """

    # the most one entry moves: 32 sectors of 32 B (a global or local access: aligned lanes touch one
    # sector each at most), or 32 shared wavefronts of the 128 B data path (every phase's worst case)
    MAX_REQ_BYTES = 32 * 128

    def __init__(self, kernel, scenario, timing, chunks, *, sm_count: int, wavefront_bytes: int, budget_bytes: int):
        from explorer.sass.execute import isa
        from explorer.sass.execute.flat_program import bytes_per_entry

        self.kernel, self.scenario, self.t = kernel, scenario, timing
        self.widths = np.asarray(kernel.decoded.rows[:, isa.C_WIDTH], dtype=np.int32)
        self.chunks = chunks  # the executor's generator (execute_chunks)
        self.wpb = scenario.launch.warps_per_block()
        self.total_blocks = scenario.launch.total_blocks
        self.sm_count = sm_count
        self.wavefront_bytes = int(wavefront_bytes)
        self.per_entry = bytes_per_entry(timing) + 4  # + the loop's mask
        self.max_entries = max(1, int(budget_bytes) // (2 * self.per_entry))  # appending copies: twice
        self.n_rows = kernel.decoded.n
        self.entry = np.full(self.total_blocks * self.wpb, -1, np.int64)  # relative to the window
        self.loaded_blocks = 0
        self.entries = 0
        self.max_req_bytes = 0
        self.result = None
        self.loop: LoopProgram | None = None
        self.seconds = 0.0  # spent executing and lowering chunks (inside the engine's run: not its timing)
        self._load(1)

    # -- what the engine asks -----------------------------------------------------------------
    def prepare(self, a: dict) -> LoopProgram:
        """The window for the loop's next call (``a``: the engine's state arrays, shifted in place when
        entries are dropped): every block the next cycle may place is loaded."""
        from explorer.sim.kernel import G

        g = a["g"]
        next_block = int(g[G.NEXT_BLOCK])
        need = min(self.total_blocks, next_block + self.sm_count)
        if self.loaded_blocks < need:
            self._drop(a, next_block)
            self._load(need)
        g[G.LOADED_BLOCKS] = self.loaded_blocks
        return self.loop

    def loaded_loop(self) -> LoopProgram:
        """The window as a flat LoopProgram of the loaded warps alone (what the engine's estimate reads)."""
        return replace(self.loop, entry=self.entry[: self.loaded_blocks * self.wpb].copy())

    def row_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """(per listing row the warp-instructions that executed it, their active lanes): the executor's tallies."""
        return (np.asarray(self.result.executions, np.int64).copy(),
                np.asarray(self.result.active_lanes, np.int64).copy())

    # -- the window ---------------------------------------------------------------------------
    def _drop(self, a: dict, next_block: int) -> None:
        """Drop the entries before the earliest one a warp can still reach: the live warps' positions and the
        first entry of the next block to place; shift those positions and the warps' first entries."""
        lp = self.loop
        live = (a["w_block"] >= 0) | self._unaccounted(a)
        first = lp.length
        if live.any():
            first = min(first, int(a["w_pc"][live].min()))
        if next_block < self.loaded_blocks:
            first = min(first, int(self.entry[next_block * self.wpb]))
        if first <= 0 or first < lp.length // 2:  # drop when it halves the window: each entry is copied O(1) times
            return
        a["w_pc"][live] -= first
        a["w_pc"][~live] = 0  # an empty slot's position is only read for its (discarded) empty cycles
        self.entry[self.entry >= 0] -= first
        self.loop = replace(lp, **{name: getattr(lp, name)[first:].copy() for name in _LOOP_ARRAYS})

    def _unaccounted(self, a: dict) -> np.ndarray:
        """Per warp (in the loop's warp order) whether its slot still holds a state not yet booked to its
        last instruction's row: a warp that left at the cycle before the window moves has its last cycles
        booked when its leaving is processed, through its position, which must then still point at its
        ``EXIT`` (without this, posted stores made a chunked run book one cycle to another row)."""
        from explorer.sim.kernel import warp_of_slot
        from explorer.sim.states import EMPTY

        n = a["w_state"].shape[0]
        gi = warp_of_slot(self.sm_count, n // self.sm_count, a["sp_next"].shape[0] // self.sm_count)
        out = np.zeros(n, np.bool_)
        out[gi] = a["w_state"] != EMPTY  # w_state is in slot order, w_pc in warp order
        return out

    def _load(self, need: int) -> None:
        """Execute and append chunks until ``need`` blocks are loaded (or every block is)."""
        from explorer.sass.execute.flat_program import FlatProgram, lower

        started = time.perf_counter()
        parts = []
        base = 0 if self.loop is None else self.loop.length
        while self.loaded_blocks < need and self.result is None:
            try:
                st = next(self.chunks)
            except StopIteration as done:
                self.result = done.value
                break
            cols = lower(st, self.t, self.widths, self.wavefront_bytes)
            op, unit, lat, sb, dst, src, req, useful, row, active = cols
            flat = FlatProgram(op=op, unit=unit, latency=lat, scoreboard=sb, dst=dst, src=src, req_bytes=req,
                               useful_bytes=useful, static_index=row, active=active, warp_start=st.warp_start,
                               reg_names=self.t.reg_names, warps_per_block=self.wpb)
            part = lower_flat(flat, self.n_rows)
            w0 = st.first_block * self.wpb
            self.entry[w0:w0 + st.n_warps] = base + st.warp_start[:-1]
            base += part.length
            parts.append(part)
            self.loaded_blocks = st.first_block + st.n_blocks
            self.entries += st.entries
            self.max_req_bytes = max(self.max_req_bytes, int(req.max(initial=0)))
            if base > self.max_entries:
                raise InputError("kernel", f"the kernel keeps more than {self.max_entries:,} warp-instructions of "
                                           f"the blocks in flight, the most the timing engine holds ({self.per_entry} "
                                           "bytes each, twice while a chunk is appended, within the simulator's memory "
                                           "budget); use a smaller grid, or `execute` for the functional run alone")
        if self.loaded_blocks == self.total_blocks and self.result is None:
            try:  # the executor's result (its tallies, the buffers): the generator's return value
                next(self.chunks)
            except StopIteration as done:
                self.result = done.value
        if parts:
            old = [] if self.loop is None else [self.loop]
            whole = old + parts
            self.loop = replace(parts[0], entry=self.entry, **{
                name: np.concatenate([getattr(q, name) for q in whole]) for name in _LOOP_ARRAYS})
        self.seconds += time.perf_counter() - started


@dataclass(frozen=True)
class KernelFeed:
    scenario: object  # with the cubin's registers, static shared memory and barriers
    params: object  # SimParams
    feed: ProgramFeed  # what runs
    kernel: object  # UserKernel
    timing: object  # StaticTiming
    occupancy: object
    keep_inputs: bool

    def listing(self, result=None):
        """The kernel's listing (the rows the stall counts name); executed rows marked once ``result`` ran."""
        return listing_program(self.kernel, self.timing, result)

    def run(self):
        """The KernelRun (buffers and execution metrics), once every block executed."""
        from explorer.sass.execute.run import KernelRun

        return KernelRun(scenario=self.scenario, kernel=self.kernel, result=self.feed.result, occupancy=self.occupancy)


def kernel_feed(scenario, *, budget: Callable[[object, int, int], int], keep_inputs: bool = False,
                kernel=None, chunk_instructions: int | None = None) -> KernelFeed:
    """Compile the scenario's kernel and start executing it into a :class:`ProgramFeed` (its first chunk runs now).

    ``budget(params, n_regs, n_rows)``: the bytes the program window may hold (``engine.program_budget``);
    ``chunk_instructions``: the executor's chunk size (``session.CHUNK_INSTRUCTIONS`` by default).
    """
    from explorer.occupancy.calc import occupancy_that_fits
    from explorer.sass.execute.run import compile_for, resolve
    from explorer.sass.execute.session import CHUNK_INSTRUCTIONS, execute_chunks
    from explorer.sass.execute.timing import static_timing
    from explorer.sass.warp_program import UNIT_NAMES
    from explorer.sim.params import model_constants, params_for

    kernel = kernel or compile_for(scenario)
    if kernel.decoded.n > MAX_ROWS:
        raise InputError("kernel", f"{kernel.name} has {kernel.decoded.n:,} instructions; the timing engine names "
                                   f"at most {MAX_ROWS:,} (`execute` runs it)")
    scenario = resolve(scenario, kernel)
    occ = occupancy_that_fits(scenario.gpu, scenario.launch)
    timing = static_timing(kernel, scenario.gpu)
    tensor = any(UNIT_MAP[UNIT_NAMES[u]] == units.TENSOR for u in set(timing.unit.tolist()))
    params = params_for(scenario, uses_tensor_cores=tensor)
    n_regs = max(1, len(timing.reg_names))
    chunks = execute_chunks(kernel, scenario.launch, scenario.kernel, seed=scenario.seed,
                            sm_count=scenario.gpu.sm_count, keep_inputs=keep_inputs,
                            chunk_instructions=chunk_instructions or CHUNK_INSTRUCTIONS)
    feed = ProgramFeed(kernel, scenario, timing, chunks, sm_count=params.sm_count,
                       wavefront_bytes=model_constants()["shared"]["bytes_per_cycle"],
                       budget_bytes=budget(params, n_regs, kernel.decoded.n))
    return KernelFeed(scenario=scenario, params=params, feed=feed, kernel=kernel, timing=timing, occupancy=occ,
                      keep_inputs=keep_inputs)


def listing_program(kernel, timing, result):
    """The kernel's static instructions as a WarpProgram without a loop: row k is pc 16 k, with its
    timing facts, executed or not (``segment`` "body" or "skipped"). It names the rows of a flat run's
    stall counts and next-instruction events; it is not what each warp ran (that was its own path)."""
    from explorer.sass.warp_program import OP_NAMES, SB_NAMES, UNIT_NAMES, ListingRow, WarpProgram

    names = timing.reg_names
    ran = result.executions if result is not None else np.zeros(len(kernel.instructions), np.int64)
    rows = []
    for k, ins in enumerate(kernel.instructions):
        sb = SB_NAMES[timing.scoreboard[k]]
        rows.append(ListingRow(
            pc=ins.pc, opcode=ins.opcode, mnemonic=ins.mnemonic, text=ins.text, unit=UNIT_NAMES[timing.unit[k]],
            op_class=OP_NAMES[timing.op[k]], latency=None if sb == "long" else int(timing.latency[k]),
            scoreboard=sb, dst=tuple(names[r] for r in timing.dst[k] if r >= 0),
            src=tuple(names[r] for r in timing.src[k] if r >= 0),
            segment="body" if ran[k] else "skipped", executed=bool(ran[k]),
            known=bool(timing.known[k]), control=ins.control.to_json() if ins.control else None,
            source="the opcode table (resources/sass/opcodes.toml)"))
    n = len(rows)
    return WarpProgram(
        source="sass", arch=kernel.arch, function=kernel.demangled, op=timing.op, unit=timing.unit,
        latency=timing.latency, scoreboard=timing.scoreboard, dst=timing.dst, src=timing.src,
        req_bytes=np.zeros(n, np.int32), useful_bytes=np.zeros(n, np.int32), instrumentation=np.zeros(n, bool),
        static_index=np.arange(n, dtype=np.int32), loop_start=0, loop_end=0, trip=1, reg_names=names,
        listing=tuple(rows),
        notes=("your own kernel: each warp ran its own executed path (explorer.sass.execute); these rows are "
               "its static instructions, which the stall counts and the next-instruction trace name",),
        meta={"executed": True})
