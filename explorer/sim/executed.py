"""A user kernel's executed stream as the engine's program: execution first, then timing.

``kernel_program(scenario, budget)`` compiles the ``[kernel]`` scenario's kernel for its GPU,
executes every block lane by lane (``explorer.sass.execute``), collects the executed
streams into one flat program (``explorer.sass.execute.flat_program``: every executed
warp-instruction, per warp in order, with the sectors and wavefronts it moved) and lowers
it onto the engine's instructions (:func:`engine_program`). The engine then runs it like
any program: each warp starts at its own first entry (``Program.first``) and ends at its
EXIT, so coalescing, bank conflicts, divergence and barriers come out of the timing.

Why execute first, then time (trace-driven at block granularity): a block's results do
not depend on timing (see ``explorer.sass.execute``), and the engine's loop stays the one
compiled loop every run uses. Memory: the program is held whole, within what the
simulator's memory budget leaves after the run's other records (``engine.program_budget``);
a kernel executing more is refused with the count and the limit before more is held.

The engine's instruction vocabulary (``explorer.sim.program``) predates the SASS classes,
so :func:`engine_program` maps each class and pipe onto it: integer, FP64, uniform,
branch, constant-load and MIO classes are fixed-latency instructions whose result a
dependent waits for in the class's scoreboard state (``wait`` or ``short_scoreboard``);
local loads and stores go through L1TEX as global ones do; an atomic is a load when it
returns a value, else a store. Pipes: fma/fmaheavy/fp16 on FP32, alu on INT, xu on SFU,
tensor, lsu; FP64 on the FP32 pipe (estimate: the engine has no FP64 pipe yet); adu, cbu
and the uniform datapath hold no sub-partition pipe (they count as issue slots only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from explorer.model.errors import InputError
from explorer.sim import program as P
from explorer.sim import units
from explorer.sim.states import LONG_SB, SHORT_SB, WAIT

_CLASS = {  # warp_program class -> engine op code
    "fma": P.FMA, "sfu": P.SFU, "mma": P.MMA, "ldg": P.LDG, "stg": P.STG, "lds": P.LDS, "sts": P.STS,
    "sync": P.SYNC, "exit": P.EXIT, "int": P.IALU, "fp64": P.IALU, "uniform": P.IALU, "branch": P.IALU,
    "ldc": P.IALU, "mio": P.IALU, "ldl": P.LDG, "stl": P.STG, "atom": P.LDG,
}
_UNIT = {  # warp_program pipe -> engine unit
    "fma": units.FP32, "fmaheavy": units.FP32, "fp16": units.FP32, "alu": units.INT, "fp64": units.FP32,
    "xu": units.SFU, "tensor": units.TENSOR, "lsu": units.LSU, "adu": units.ISSUE, "cbu": units.ISSUE,
    "uniform": units.ISSUE,
}
_KIND = {"fixed": WAIT, "short": SHORT_SB, "long": LONG_SB, "none": WAIT}


@dataclass(frozen=True)
class KernelProgram:
    scenario: object  # with the cubin's registers, static shared memory and barriers
    params: object  # SimParams
    program: P.Program
    flat: object  # FlatProgram
    run: object  # KernelRun (explorer.sass.execute.run): buffers and execution metrics


def engine_program(flat) -> P.Program:
    """A FlatProgram in the engine's vocabulary (see the module docstring)."""
    from explorer.sass.warp_program import OP, OP_NAMES, SB_NAMES, UNIT_NAMES

    op_map = np.array([_CLASS[name] for name in OP_NAMES], dtype=np.int8)
    unit_map = np.array([_UNIT[name] for name in UNIT_NAMES], dtype=np.int8)
    kind_map = np.array([_KIND[name] for name in SB_NAMES], dtype=np.int8)
    op = np.take(op_map, flat.op)
    atom = flat.op == OP["atom"]
    op[atom & (flat.dst[:, 0] < 0)] = P.STG  # a reduction returns nothing: timed as a store
    return P.Program(
        op=op, dst=flat.dst, src=flat.src, req_bytes=flat.req_bytes, useful_bytes=flat.useful_bytes, loop=1,
        n_regs=max(1, flat.n_regs), unit=np.take(unit_map, flat.unit), latency=flat.latency,
        first=flat.warp_start[:-1].copy(), wait_kind=np.take(kind_map, flat.scoreboard))


def kernel_program(scenario, *, budget: Callable[[object, int], int], keep_inputs: bool = False,
                   kernel=None) -> KernelProgram:
    """Execute the scenario's kernel and build the engine's program from what executed.

    ``budget(params, n_regs)``: the bytes the program may hold (``engine.program_budget``).
    """
    from explorer.occupancy.calc import occupancy_for_launch, why_no_block_fits
    from explorer.sass.execute import isa
    from explorer.sass.execute.flat_program import FlatProgramBuilder
    from explorer.sass.execute.run import KernelRun, compile_for, resolve
    from explorer.sass.execute.session import execute
    from explorer.sass.execute.timing import static_timing
    from explorer.sim.params import model_constants, params_for

    kernel = kernel or compile_for(scenario)
    scenario = resolve(scenario, kernel)
    occ = occupancy_for_launch(scenario.gpu, scenario.launch)
    if occ.active_blocks_per_sm == 0:
        raise InputError("launch", why_no_block_fits(scenario.gpu, scenario.launch, occ))
    timing = static_timing(kernel, scenario.gpu)
    tensor = bool((np.array([_UNIT[u] for u in _unit_names()])[timing.unit] == units.TENSOR).any())
    params = params_for(scenario, uses_tensor_cores=tensor)
    launch = scenario.launch
    builder = FlatProgramBuilder(timing, kernel.decoded.rows[:, isa.C_WIDTH], n_blocks=launch.total_blocks,
                                 warps_per_block=launch.warps_per_block(),
                                 wavefront_bytes=model_constants()["shared"]["bytes_per_cycle"],
                                 budget_bytes=budget(params, max(1, len(timing.reg_names))))
    result = execute(kernel, launch, scenario.kernel, seed=scenario.seed, sm_count=scenario.gpu.sm_count,
                     keep_inputs=keep_inputs, on_chunk=builder.add)
    flat = builder.finish()
    run = KernelRun(scenario=scenario, kernel=kernel, result=result, occupancy=occ)
    return KernelProgram(scenario=scenario, params=params, program=engine_program(flat), flat=flat, run=run)


def _unit_names() -> tuple[str, ...]:
    from explorer.sass.warp_program import UNIT_NAMES

    return UNIT_NAMES
