"""The GPU-free toolchain: a scenario's workload as CUDA C++, compiled in a sandboxed child, its cubin read.

No GPU, no driver, no numba: what every default simulation runs (its generated kernel's own SASS,
``explorer.sass.kernel_program``), what ``measure`` runs before it needs a GPU, and what ``execute``
runs on the user's ``.cu``. Below the simulator and the SASS layer, above the model:

- ``codegen``: Workload -> instrumented CUDA C++ (per-warp %smid, %globaltimer, clock64), its global
  accesses laid out by ``addresses`` (the same layout the simulator's caches see);
- ``compiler`` / ``backends`` / ``compile_child`` / ``sandbox``: NVRTC (or nvcc) in a child process with
  memory and time limits, cached on disk; ``tools`` finds nvdisasm and nvcc; ``cubin`` reads a cubin's
  registers, static shared memory, spills, barriers;
- ``prepare``: generate and compile a scenario's kernel for a GPU (registers steered, occupancy matched);
- ``names`` / ``folders``: what user text may become (slugs, one-line messages, checked kernel names
  and macros) and where we write (private temporary and per-user folders);
- ``errors``: the toolchain's and the real GPU's errors, each mapped to one CLI exit code.

Importing this package costs nothing (submodules import cuda-python lazily).
"""
