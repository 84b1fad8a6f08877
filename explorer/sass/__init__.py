"""The SASS layer: the instructions a compiled kernel really executes, for the simulator.

Qt-free and GPU-free. ``disasm`` runs nvdisasm on a cubin; ``listing`` parses its text
(opcodes, modifiers, operands, guards, branch targets, control bits); ``semantics``
says which registers each instruction reads and writes; ``opcodes`` loads the opcode
table (``resources/sass/opcodes.toml``: class, pipe, latency, scoreboard kind per
architecture family, with sources); ``flow`` finds the executed path (the loop, the
guards decided at launch, divergence) and the instrumentation; ``build`` turns that
into a ``warp_program.WarpProgram``, the shape the timing engine runs (its docstring is
the contract); ``kernel_program`` does all of it for a scenario's generated kernel,
cached on disk, or gives the model's program in the same shape.
"""
