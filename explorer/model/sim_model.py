"""``resources/sim_model.toml``: the simulator's modelling constants (queues, caches, DRAM, the trace
budget, the bottleneck's thresholds), each with its source in the file, read once per process.

Why here, in pure data: the simulator (``explorer.sim.params``, ``engine``, ``bottleneck``) and the
GEMM model (``explorer.gemm``) read the same figures, and the GEMM model must not load the simulator
(numba, numpy) to get them; one loader, below both, is one copy of the file in memory.
"""

from __future__ import annotations

import tomllib
from functools import cache

from explorer.paths import resource


@cache
def model_constants() -> dict:
    with open(resource("sim_model.toml"), "rb") as fh:
        return tomllib.load(fh)
