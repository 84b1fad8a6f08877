"""The calculator's state behind the widgets (Qt-free): validate, compute, cache.

Validation is the core's own (``explorer.occupancy.calc.validate_inputs``), so the
window and the CLI reject exactly the same values with the same messages, and
every bad field is marked at once (``common.field_check``).

The three sweeps are the only costly part (the shared-memory one evaluates ~1,800
configurations, ~25 ms). Each sweep depends on every input except the one it
varies, so it is cached under a key without that input: typing a register count
recomputes the thread and shared-memory curves, never the register curve.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from explorer.gui.common.field_check import judge_fields
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.occupancy import (
    Hint,
    Query,
    Sweep,
    best_block_size,
    hint_items,
    sweep_registers,
    sweep_shared,
    sweep_threads,
)
from explorer.occupancy.calc import OccupancyResult, validate_inputs

# The core's field names, in Query's order; the window's inputs use the same keys.
FIELDS = ("threads", "regs", "smem_static", "smem_dynamic", "carveout", "barriers")
DEFAULTS = {"threads": 256, "regs": 32, "smem_static": 0, "smem_dynamic": 0, "carveout": -1, "barriers": 1}


@dataclass(frozen=True)
class Evaluation:
    """Everything the calculator shows for one valid input."""

    gpu: GpuSpec
    query: Query
    result: OccupancyResult
    threads_sweep: Sweep
    registers_sweep: Sweep
    shared_sweep: Sweep
    best_block: tuple[int, int]  # (threads, blocks per SM)
    best_occupancy: float
    hint_items: tuple[Hint, ...]  # the window shows them in its language (Hint.text(translate))

    @property
    def hints(self) -> tuple[str, ...]:
        """The hints in English, as the CLI prints them."""
        return tuple(h.text() for h in self.hint_items)


def to_query(values: dict) -> Query:
    return Query(
        threads=values["threads"],
        registers=values["regs"],
        static_shared=values["smem_static"],
        dynamic_shared=values["smem_dynamic"],
        carveout=values["carveout"],
        barriers=values["barriers"],
    )


def check_fields(raw: dict, fallback: dict) -> tuple[dict, dict]:
    """(valid ints per field, error message per bad field), judged by the core.

    ``raw`` holds the text of each field; ``fallback`` a valid value per field,
    substituted for a bad one so the core can go on to judge the next field.
    """
    checked, errors = judge_fields({name: raw[name] for name in FIELDS}, fallback,
                                   lambda values: validate_inputs(*(values[name] for name in FIELDS)))
    return dict(zip(FIELDS, checked)), errors


@lru_cache(maxsize=32)
def _threads_sweep(gpu_name: str, q: Query) -> Sweep:
    return sweep_threads(get_gpu(gpu_name), q)


@lru_cache(maxsize=32)
def _registers_sweep(gpu_name: str, q: Query) -> Sweep:
    return sweep_registers(get_gpu(gpu_name), q)


@lru_cache(maxsize=32)
def _shared_sweep(gpu_name: str, q: Query) -> Sweep:
    return sweep_shared(get_gpu(gpu_name), q)


def sweeps(gpu: GpuSpec, q: Query) -> tuple[Sweep, Sweep, Sweep]:
    """The three curves, each cached without the input it varies.

    A sweep's ``current_x`` and its extra x point belong to the query it was made
    for; views place the current point from the result itself, so the curve can
    be shared between queries that differ only along the swept axis.
    """
    warp = gpu.arch.warp_size
    return (
        _threads_sweep(gpu.name, replace(q, threads=warp)),
        _registers_sweep(gpu.name, replace(q, registers=1)),
        _shared_sweep(gpu.name, replace(q, static_shared=0, dynamic_shared=0)),
    )


def evaluate(gpu_name: str, values: dict) -> Evaluation:
    """Run the core on valid field values; no Qt, no rounding for display."""
    gpu = get_gpu(gpu_name)
    q = to_query(values)
    result = q.run(gpu)
    threads, registers, shared = sweeps(gpu, q)
    best = best_block_size(gpu, q)
    best_occ = q.run(gpu, threads=best[0]).occupancy if best[0] else 0.0
    return Evaluation(gpu, q, result, threads, registers, shared, best, best_occ, tuple(hint_items(gpu, q, result)))
