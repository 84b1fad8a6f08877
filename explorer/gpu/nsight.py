"""Nsight Compute's ``--csv --page details`` output, read as numbers, and joined with a simulation.

Why: Nsight Compute measures what the simulator models per scheduler and per cache level (eligible and
issued warps, warp cycles per issued instruction, L1 and L2 sector hit rates, DRAM throughput). Reading its
report lets the comparison show those beside the simulation's, with the same words as the rest of
``explorer.gpu.compare``. The file is the user's: size-capped, a regular file, parsed as CSV only.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from explorer.model.errors import InputError

MAX_NSIGHT_CSV_BYTES = 4 << 20


def read_details(path: str | Path) -> dict[str, float]:
    """{metric name: value} from a ``ncu --csv --page details`` file (the first kernel's rows; numbers with their
    thousands separators removed; metrics without a number left out)."""
    p = Path(path)
    if not p.is_file():
        raise InputError("nsight", f"{p}: not a regular file")
    if p.stat().st_size > MAX_NSIGHT_CSV_BYTES:
        raise InputError("nsight", f"{p}: larger than {MAX_NSIGHT_CSV_BYTES >> 20} MiB")
    lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise InputError("nsight", f"{p}: no Nsight Compute details table (ncu --csv --page details)")
    out: dict[str, float] = {}
    first_id = None
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if first_id is None:
            first_id = row.get("ID")
        if row.get("ID") != first_id:
            break
        name, value = row.get("Metric Name"), (row.get("Metric Value") or "").replace(",", "")
        try:
            out[name] = float(value)
        except (TypeError, ValueError):
            continue
    return out


def nsight_figures(result, metrics: dict[str, float]) -> list:
    """The figures Nsight Compute measures, simulated beside measured (``explorer.gpu.compare.Figure``).

    The simulation should be run as Nsight ran the kernel: ``--cache-control all`` flushes and invalidates the
    caches before the profiled launch, so L2 starts clean (not dirty, as after the device check's flush)."""
    from explorer.gpu.compare import Figure

    p = result.params
    totals = result.series_totals
    _warp_cycles, active = result.residency.warp_cycles_and_active_cycles(result.cycles)
    scheduler_cycles = float(active.sum()) * p.sub_partitions
    issued, eligible = float(totals[3]), float(totals[2])
    mem = result.memory
    caches = result.cache_counters()  # the simulation's counters under Nsight's names
    figs = []

    def add(key, label, sim, name, unit, scale=1.0):
        if name in metrics:
            figs.append(Figure(key, label, sim, metrics[name] * scale, unit))

    add("eligible_per_scheduler", "eligible warps per scheduler (active cycles)",
        eligible / scheduler_cycles if scheduler_cycles else 0.0, "Eligible Warps Per Scheduler", "warps")
    # Nsight's "Issue Slots Busy" is over the kernel's elapsed cycles (its IPC per elapsed cycle / 4 agrees)
    add("issue_slots_busy", "issue slots busy", issued / (max(result.cycles, 1) * p.sm_count * p.sub_partitions),
        "Issue Slots Busy", "share", 0.01)
    add("warp_cycles_per_issue", "warp cycles per issued instruction",
        float(_warp_cycles.sum()) / issued if issued else 0.0, "Warp Cycles Per Issued Instruction", "cycles")
    if caches["l1tex__t_sector_hit_rate"] is not None:
        add("l1_hit_rate", "L1 sector hit rate", caches["l1tex__t_sector_hit_rate"] / 100, "L1/TEX Hit Rate",
            "fraction", 0.01)
    if caches["lts__t_sector_hit_rate"] is not None:
        add("l2_hit_rate", "L2 sector hit rate", caches["lts__t_sector_hit_rate"] / 100, "L2 Hit Rate", "fraction",
            0.01)
    if "DRAM Throughput" in metrics and "Duration" in metrics:
        peak = result.scenario.gpu.memory_bandwidth_gbs * 1e9
        measured = metrics["DRAM Throughput"] / 100 * peak * metrics["Duration"] * 1e-9
        figs.append(Figure("dram_bytes", "DRAM bytes (read + written)", mem["dram_bytes"], measured, "bytes"))
    return figs
