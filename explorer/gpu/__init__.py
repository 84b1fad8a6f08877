"""The real GPU: what needs a device, or reads what a device measured.

Qt-free; no module here is imported by the rest of the package unless a GPU feature is
used, and importing this package costs nothing (submodules import cuda-python lazily).
Generating and compiling a kernel needs no GPU: that is ``explorer.toolchain``, below the
simulator, which this package uses.

- ``probe``: is there a driver and a GPU? asked in a child process, never hangs;
- ``measure`` / ``worker`` / ``driver``: launch and measure in a child process with a timeout;
- ``analysis`` / ``measurement`` / ``measurement_schema``: raw records -> the simulator's
  timeline shapes, and the versioned ``.npz`` file that loads anywhere (within fixed limits);
- ``compare`` / ``nsight``: the simulation beside a measurement (the same launch, joined on the
  timeline's shapes), and Nsight Compute's figures;
- ``calibrate``: fit the simulator's DRAM latency and bandwidth to measurements;
- ``microbench``: the microbenchmarks that measured ``resources/measured/``.
"""
