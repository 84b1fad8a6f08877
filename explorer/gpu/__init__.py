"""The real GPU: the scenario's workload as CUDA C++, compiled with NVRTC, launched and measured.

Qt-free; no module here is imported by the rest of the package unless a GPU feature is
used, and importing this package costs nothing (submodules import cuda-python lazily):

- ``codegen``: Workload -> instrumented CUDA C++ (per-warp %smid, %globaltimer, clock64);
- ``compiler`` / ``cubin``: NVRTC (or nvcc) -> cubin -> registers, static shared memory,
  spills, barriers (no GPU needed);
- ``probe``: is there a driver and a GPU? asked in a child process, never hangs;
- ``measure`` / ``worker``: launch and measure in a child process with a timeout;
- ``analysis`` / ``measurement`` / ``measurement_schema``: raw records -> the simulator's
  timeline shapes, and the versioned ``.npz`` file that loads anywhere (within fixed limits);
- ``names`` / ``folders``: what user text may become (slugs, one-line messages, checked
  kernel names and macros) and where we write (private temporary and per-user folders);
- ``calibrate``: fit the simulator's DRAM latency and bandwidth to measurements.
"""
