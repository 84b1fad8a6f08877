"""Plain-language answers to "what limits occupancy, and what would raise it?".

Each hint is computed, not canned: it re-runs the calculator with one input
changed to find the smallest change that buys another block per SM.

A hint is a template key plus numbers (:class:`Hint`), so the window can show it
in the interface language (the templates are the translation sources); ``text()``
is the English the CLI prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.model.catalog import GpuSpec
from explorer.occupancy.calc import OccupancyResult
from explorer.occupancy.sweeps import Query, best_block_size

# One sentence or two per situation. {state}-like fields are filled by Hint.params;
# "state" fields are themselves formatted with STATE / STATE_ONE.
TEMPLATES: dict[str, str] = {
    "full": "Every warp slot is in use: {state}.",
    "regs_edge": "Registers are at the edge: {regs} or more per thread would drop occupancy.",
    "regs_headroom": "Up to {regs} registers per thread keep full occupancy.",
    "regs_too_many": "{regs} registers per thread is above the hardware maximum of {limit}: the kernel cannot launch.",
    "regs_fewer": "Registers limit you to {state}. With at most {regs} registers per thread, {better} would fit.",
    "regs_not_alone": "Registers limit you to {state}; fewer registers alone would not help, another limit binds too.",
    "smem_too_big": ("The block needs {bytes} bytes of shared memory (with {reserved} reserved), above the per-block "
                     "limit of {limit}: the kernel cannot launch."),
    "smem_limits": "Shared memory limits you to {state}.",
    "smem_carveout": "The carveout of {carveout}% leaves {kb} KB; 100% would allow {better}.",
    "smem_less": "With at most {bytes} bytes per block, {better} would fit.",
    "threads_too_many": "{threads} threads per block is above the limit of {limit}: the kernel cannot launch.",
    "warps_gaps": "Blocks of {warps} warps leave {empty} of {max} warp slots empty ({state}).",
    "warps_better_size": "Blocks of {threads} threads would reach {pct}%.",
    "blocks_limit": "An SM holds at most {limit} blocks: {state}.",
    "blocks_bigger": "Blocks of at least {threads} threads could fill every warp slot.",
    "barriers": "Named barriers limit you to {state}: the SM has {total} and each block uses {barriers}.",
}
STATE = "{blocks} blocks per SM ({warps} of {max} warps, {pct}%)"
STATE_ONE = "1 block per SM ({warps} of {max} warps, {pct}%)"


def state_params(r: OccupancyResult) -> dict:
    return {"blocks": r.active_blocks_per_sm, "warps": r.active_warps_per_sm, "max": r.max_warps_per_sm,
            "pct": round(100 * r.occupancy)}


@dataclass(frozen=True)
class Hint:
    """Sentences by template key; ``params`` values are numbers or, for state fields, dicts."""

    parts: tuple[tuple[str, dict], ...]  # (template key, params) sentences, shown together

    def text(self, translate=lambda template: template) -> str:
        """The hint in one language: ``translate`` maps an English template to its translation."""
        out = []
        for key, params in self.parts:
            values = {}
            for name, value in params.items():
                if isinstance(value, dict):  # an occupancy state
                    template = STATE_ONE if value["blocks"] == 1 else STATE
                    values[name] = translate(template).format(**value)
                else:
                    values[name] = value
            out.append(translate(TEMPLATES[key]).format(**values))
        return " ".join(out)


def _h(*parts: tuple[str, dict]) -> Hint:
    return Hint(tuple(parts))


def _registers_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> Hint:
    arch = gpu.arch
    if q.registers > arch.reg_alloc_max_per_thread:  # the per-thread maximum the calculator applies
        return _h(("regs_too_many", {"regs": q.registers, "limit": arch.reg_alloc_max_per_thread}))
    for regs in range(q.registers - 1, 0, -1):
        better = q.run(gpu, registers=regs)
        if better.active_blocks_per_sm > r.active_blocks_per_sm:
            return _h(("regs_fewer", {"state": state_params(r), "regs": regs, "better": state_params(better)}))
    return _h(("regs_not_alone", {"state": state_params(r)}))


def _shared_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> Hint:
    arch = gpu.arch
    asked = q.static_shared + q.dynamic_shared
    if r.active_blocks_per_sm == 0:
        return _h(("smem_too_big", {"bytes": r.allocated_shared_per_block, "reserved": arch.shared_reserved_per_block,
                                    "limit": r.shared_limit_per_block}))
    parts = [("smem_limits", {"state": state_params(r)})]
    if q.carveout != -1:
        wider = q.run(gpu, carveout=100)
        if wider.active_blocks_per_sm > r.active_blocks_per_sm:
            parts.append(("smem_carveout", {"carveout": q.carveout, "kb": r.shared_per_sm_config // 1024,
                                            "better": state_params(wider)}))
    unit = arch.shared_alloc_unit
    for size in range((asked // unit) * unit - (unit if asked % unit == 0 else 0), -1, -unit):
        better = q.run(gpu, static_shared=0, dynamic_shared=size)
        if better.active_blocks_per_sm > r.active_blocks_per_sm:
            parts.append(("smem_less", {"bytes": size, "better": state_params(better)}))
            break
    return _h(*parts)


def _warps_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> Hint:
    arch = gpu.arch
    if q.threads > arch.max_threads_per_block:
        return _h(("threads_too_many", {"threads": q.threads, "limit": arch.max_threads_per_block}))
    parts = [("warps_gaps", {"warps": r.warps_per_block, "empty": r.max_warps_per_sm - r.active_warps_per_sm,
                             "max": r.max_warps_per_sm, "state": state_params(r)})]
    size, _blocks = best_block_size(gpu, q)
    if size and size != q.threads:
        best = q.run(gpu, threads=size)
        if best.occupancy > r.occupancy:
            parts.append(("warps_better_size", {"threads": size, "pct": round(100 * best.occupancy)}))
    return _h(*parts)


def _blocks_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> Hint:
    arch = gpu.arch
    warps_needed = -(-arch.max_warps_per_sm // arch.max_blocks_per_sm)
    parts = [("blocks_limit", {"limit": arch.max_blocks_per_sm, "state": state_params(r)})]
    if r.occupancy < 1.0:
        parts.append(("blocks_bigger", {"threads": warps_needed * arch.warp_size}))
    return _h(*parts)


def _barriers_hint(gpu: GpuSpec, q: Query, r: OccupancyResult) -> Hint:
    arch = gpu.arch
    total = arch.max_blocks_per_sm * arch.barriers_per_block_slot
    return _h(("barriers", {"state": state_params(r), "total": total, "barriers": q.barriers}))


def _headroom(gpu: GpuSpec, q: Query, r: OccupancyResult) -> list[Hint]:
    """At full occupancy: how many more registers the kernel could use first."""
    for regs in range(q.registers + 1, gpu.arch.reg_alloc_max_per_thread + 1):
        if q.run(gpu, registers=regs).active_blocks_per_sm < r.active_blocks_per_sm:
            if regs == q.registers + 1:
                return [_h(("regs_edge", {"regs": regs}))]
            return [_h(("regs_headroom", {"regs": regs - 1}))]
    return []


_HINTS = {
    "registers": _registers_hint,
    "shared_memory": _shared_hint,
    "warps": _warps_hint,
    "blocks": _blocks_hint,
    "barriers": _barriers_hint,
}


def hint_items(gpu: GpuSpec, q: Query, r: OccupancyResult) -> list[Hint]:
    """One hint per limiting resource, most actionable first (or full occupancy and its headroom)."""
    if r.active_blocks_per_sm and r.occupancy >= 1.0:
        return [_h(("full", {"state": state_params(r)}))] + _headroom(gpu, q, r)
    order = ("registers", "shared_memory", "warps", "blocks", "barriers")
    return [_HINTS[name](gpu, q, r) for name in order if name in r.limiters]


def hints(gpu: GpuSpec, q: Query, r: OccupancyResult) -> list[str]:
    """The hints in English (the CLI's text and JSON)."""
    return [h.text() for h in hint_items(gpu, q, r)]
