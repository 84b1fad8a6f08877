"""Simulator benchmarks (``warp-explorer bench``): throughput and trace memory.

Figures, not assertions: the README records what they measured on which machine.
"""

from __future__ import annotations

import os
import platform
import time

from explorer.model.presets import load_preset
from explorer.sim.engine import simulate


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _case(name: str, scenario, repeats: int, record_sms=None) -> dict:
    best = None
    for _ in range(repeats):
        result = simulate(scenario, record_sms=record_sms)
        if best is None or result.sim_seconds < best.sim_seconds:
            best = result
    p = best.params
    slot_cycles = best.cycles * p.sm_count * p.warps_per_sm
    kept = best.trace.nbytes + best.counts.nbytes + best.state_counts.nbytes
    return {
        "case": name,
        "gpu": p and scenario.gpu.name,
        "blocks": p.total_blocks,
        "cycles": best.cycles,
        "warp_instructions": best.warp_instructions,
        "sim_seconds": best.sim_seconds,
        "warp_instructions_per_second": best.warp_instructions / best.sim_seconds,
        "cycles_per_second": best.cycles / best.sim_seconds,
        "recorded_sms": int(len(best.recorded_sms)),
        "result_bytes_per_warp_slot_cycle": kept / slot_cycles,
    }


def run_benchmarks(quick: bool = False) -> dict:
    example = load_preset("example-240x256")
    simulate(example)  # load (or compile) the compiled loop before timing anything
    saturated = example.with_values(**{"launch.grid": [24000 if not quick else 2640, 1, 1]})
    compute = load_preset("compute-bound-fma").with_values(**{"launch.grid": [5280 if not quick else 528, 1, 1]})
    stream = load_preset("memory-bound-stream")
    if quick:
        stream = stream.with_values(**{"launch.grid": [528, 1, 1]})
    cases = [
        _case("example-240x256 (mission example, H100)", example, 5),
        _case(f"saturated H100: example workload, {saturated.launch.total_blocks} blocks", saturated, 1),
        _case(f"saturated H100: compute-bound FMA, {compute.launch.total_blocks} blocks", compute, 1),
        _case(f"memory-bound stream, {stream.launch.total_blocks} blocks", stream, 1),
    ]
    return {
        "machine": {"cpu": _cpu_name(), "cores": os.cpu_count(), "python": platform.python_version()},
        "cases": cases,
        "timestamp": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
