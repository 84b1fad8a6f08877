"""A user kernel's executed stream as the engine's program: execution first, then timing.

``kernel_program(scenario, budget)`` compiles the ``[kernel]`` scenario's kernel for its GPU,
executes every block lane by lane (``explorer.sass.execute``), collects the executed
streams into one flat program (``explorer.sass.execute.flat_program``: every executed
warp-instruction, per warp in order, with the sectors and wavefronts it moved) and lowers
it into the loop's arrays (``loop_program.lower_flat``: the same class, pipe and scoreboard
mapping as every WarpProgram). The engine then runs it like any program: each warp starts
at its own first entry and ends at its EXIT, so coalescing, bank conflicts, divergence
and barriers come out of the timing. Its stall counts and next-instruction events name
the kernel's listing rows, and the result's ``warp_program`` is that listing
(:func:`listing_program`: one row per static instruction, none of them a loop).

Why execute first, then time (trace-driven at block granularity): a block's results do
not depend on timing (see ``explorer.sass.execute``), and the engine's loop stays the one
compiled loop every run uses. Memory: the program is held whole, within what the
simulator's memory budget leaves after the run's other records (``engine.program_budget``);
a kernel executing more is refused with the count and the limit before more is held.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from explorer.model.errors import InputError
from explorer.sim import units
from explorer.sim.loop_program import UNIT_MAP, LoopProgram, lower_flat

MAX_ROWS = 32767  # next-instruction events store the listing row as int16 (result.PcEvents)


@dataclass(frozen=True)
class KernelProgram:
    scenario: object  # with the cubin's registers, static shared memory and barriers
    params: object  # SimParams
    loop: LoopProgram  # what runs
    listing: object  # WarpProgram: the kernel's static instructions (the rows the loop's counts name)
    flat: object  # FlatProgram
    run: object  # KernelRun (explorer.sass.execute.run): buffers and execution metrics


def kernel_program(scenario, *, budget: Callable[[object, int, int], int], keep_inputs: bool = False,
                   kernel=None) -> KernelProgram:
    """Execute the scenario's kernel and build the engine's program from what executed.

    ``budget(params, n_regs, n_rows)``: the bytes the program may hold (``engine.program_budget``).
    """
    from explorer.occupancy.calc import occupancy_for_launch, why_no_block_fits
    from explorer.sass.execute import isa
    from explorer.sass.execute.flat_program import FlatProgramBuilder
    from explorer.sass.execute.run import KernelRun, compile_for, resolve
    from explorer.sass.execute.session import execute
    from explorer.sass.execute.timing import static_timing
    from explorer.sass.warp_program import UNIT_NAMES
    from explorer.sim.params import model_constants, params_for

    kernel = kernel or compile_for(scenario)
    if kernel.decoded.n > MAX_ROWS:
        raise InputError("kernel", f"{kernel.name} has {kernel.decoded.n:,} instructions; the timing engine names "
                                   f"at most {MAX_ROWS:,} (`execute` runs it)")
    scenario = resolve(scenario, kernel)
    occ = occupancy_for_launch(scenario.gpu, scenario.launch)
    if occ.active_blocks_per_sm == 0:
        raise InputError("launch", why_no_block_fits(scenario.gpu, scenario.launch, occ))
    timing = static_timing(kernel, scenario.gpu)
    tensor = any(UNIT_MAP[UNIT_NAMES[u]] == units.TENSOR for u in set(timing.unit.tolist()))
    params = params_for(scenario, uses_tensor_cores=tensor)
    launch = scenario.launch
    n_regs = max(1, len(timing.reg_names))
    builder = FlatProgramBuilder(timing, kernel.decoded.rows[:, isa.C_WIDTH], n_blocks=launch.total_blocks,
                                 warps_per_block=launch.warps_per_block(),
                                 wavefront_bytes=model_constants()["shared"]["bytes_per_cycle"],
                                 budget_bytes=budget(params, n_regs, kernel.decoded.n))
    result = execute(kernel, launch, scenario.kernel, seed=scenario.seed, sm_count=scenario.gpu.sm_count,
                     keep_inputs=keep_inputs, on_chunk=builder.add)
    flat = builder.finish()
    run = KernelRun(scenario=scenario, kernel=kernel, result=result, occupancy=occ)
    return KernelProgram(scenario=scenario, params=params, loop=lower_flat(flat, kernel.decoded.n),
                         listing=listing_program(kernel, timing, result), flat=flat, run=run)


def listing_program(kernel, timing, result):
    """The kernel's static instructions as a WarpProgram without a loop: row k is pc 16 k, with its
    timing facts, executed or not (``segment`` "body" or "skipped"). It names the rows of a flat run's
    stall counts and next-instruction events; it is not what each warp ran (that was its own path)."""
    from explorer.sass.warp_program import OP_NAMES, SB_NAMES, UNIT_NAMES, ListingRow, WarpProgram

    names = timing.reg_names
    rows = []
    for k, ins in enumerate(kernel.instructions):
        sb = SB_NAMES[timing.scoreboard[k]]
        rows.append(ListingRow(
            pc=ins.pc, opcode=ins.opcode, mnemonic=ins.mnemonic, text=ins.text, unit=UNIT_NAMES[timing.unit[k]],
            op_class=OP_NAMES[timing.op[k]], latency=None if sb == "long" else int(timing.latency[k]),
            scoreboard=sb, dst=tuple(names[r] for r in timing.dst[k] if r >= 0),
            src=tuple(names[r] for r in timing.src[k] if r >= 0),
            segment="body" if result.executions[k] else "skipped", executed=bool(result.executions[k]),
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
