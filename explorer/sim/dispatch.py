"""Where blocks go: the GPU's SM order (measured where it was) and a measured launch's own placement.

The block dispatcher in the cycle loop (``kernel.run_cycles``) goes round the SMs in an order and places
each block on the next SM whose resources admit it. Real GPUs do not go 0, 1, 2, ...: the H200 starts with SMs
124-131, then hands blocks to the two SMs of one TPC at a time, the GPCs in turn (measured; the data and its
source are in ``resources/dispatch_order.toml``). A GPU without a measured order gets 0, 1, 2, ... and says
so (:func:`order_source`).

When a simulation sits beside a measurement, which SM got which block in that launch is a fact of that launch
(the GPC the hardware starts from changes from launch to launch), like its clock: :func:`measured_placement`
gives the blocks of its first wave (those placed before any block ended), which the simulation then places on
the same SMs, so the two can be compared SM by SM; later blocks go where the simulated dispatcher finds room.
"""

from __future__ import annotations

import tomllib
from functools import cache

import numpy as np

from explorer.paths import resource

FALLBACK_SOURCE = "not measured for this GPU: SM 0, 1, 2, ... in turn"


@cache
def _table() -> dict:
    with open(resource("dispatch_order.toml"), "rb") as fh:
        return tomllib.load(fh).get("gpu", {})


def sm_order(gpu) -> np.ndarray:
    """int64[sm_count]: the order the dispatcher goes round the SMs (a permutation of 0 .. sm_count - 1)."""
    entry = _table().get(gpu.name)
    if entry is not None:
        order = np.asarray(entry["order"], np.int64)
        if len(order) == gpu.sm_count and np.array_equal(np.sort(order), np.arange(gpu.sm_count)):
            return order
    return np.arange(gpu.sm_count, dtype=np.int64)


def order_source(gpu) -> str:
    entry = _table().get(gpu.name)
    return entry["source"] if entry is not None and len(entry.get("order", ())) == gpu.sm_count else FALLBACK_SOURCE


def measured_placement(measurement, sm_count: int) -> np.ndarray:
    """int64[n]: the SM of blocks 0 .. n - 1 of a measured launch's first wave (every block placed before the
    first block ended, as long as blocks 0 .. n - 1 all were); empty when the records cannot say."""
    blocks = measurement.blocks
    if len(blocks) == 0:
        return np.zeros(0, np.int64)
    first_end = int(blocks.end.min())
    by_block = np.full(int(blocks.block.max()) + 1, -1, np.int64)
    started = np.zeros_like(by_block, dtype=bool)
    by_block[blocks.block] = blocks.sm
    started[blocks.block] = blocks.start < first_end
    n = 0
    while n < len(by_block) and started[n] and 0 <= by_block[n] < sm_count:
        n += 1
    return by_block[:n].copy()
