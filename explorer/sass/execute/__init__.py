"""Your own kernel, executed: the SASS of a compiled ``.cu`` kernel run lane by lane on the CPU.

Qt-free and GPU-free. ``kernel`` compiles the user's file (NVRTC, line info), disassembles
it (nvdisasm) and decodes every instruction into the int64 rows of ``isa`` (``decode``);
``signature`` and ``arguments`` bind the scenario's ``[kernel.args]`` to the parameters
(buffers at device addresses, constant bank 0); ``interp`` is the compiled interpreter
(numba, ``jit``; FP rules in ``fpmath``) that runs a block's warps, 32 lanes each, with
per-lane pcs, convergence barriers, block barriers, global/shared/local memory, atomics,
shuffles and votes; ``session`` drives it over the grid in chunks of whole blocks and
turns its errors into one-line messages; ``stream`` defines what executed (the timing
engine's input contract); ``run`` does it all for a scenario and reports.

Why trace-driven at block granularity: a block's execution does not depend on timing
(CUDA gives no order between blocks, and within a block only barriers and atomics
order threads, which the interpreter honours), so the functional pass can run compiled
and in bulk, block after block, at several million warp-instructions per second; the
chunks of executed stream it hands on become one flat program the timing engine runs
(``flat_program``; ``explorer.sim.executed``), within the simulator's memory budget. An
execution-driven design (the engine asking each warp for its next instruction) would
cross from the engine into the interpreter once per instruction; here it crosses once
per chunk.
"""
