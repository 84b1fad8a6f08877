"""What limits useful work: every unit's share of its peak, and the bottleneck in one sentence.

Nsight Compute's Speed-of-Light rule: the unit with the highest share of its peak
is the bottleneck when that share is high (``sim_model.toml`` bottleneck.threshold,
60%); when no unit is near its peak the kernel is *latency*-bound: not enough
independent work is in flight to keep any unit busy, and the sentence says what
the warps wait for instead.

How busy a unit is gets said by one rule (:func:`busy_words`): the CLI's sentence
here, the window's metrics sentence and its Speed-of-Light panel all word a share
of peak with it, so "nearly every cycle" means the same figure everywhere.

A grid too small for the GPU leaves SMs without work: over the whole GPU no unit is
near its peak (latency: "SMs sit idle"), yet on the SMs that have work one may be
full. Nsight Compute reports both (``pct_of_peak_sustained_elapsed`` and
``..._active``); so does ``throughput`` (``pct_of_peak``, ``pct_of_peak_active``),
and the latency sentence names the unit that limits the SMs with work
(:func:`where_active`).
"""

from __future__ import annotations

import numpy as np

from explorer.sim.params import model_constants
from explorer.sim.states import EMPTY, NAMES
from explorer.sim.units import FP32, LABEL, UNITS

GPU_WIDE = ("l2", "dram")  # units shared by every SM: their share is the GPU's, active SMs or not

_PREFIX = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))


def si(value: float, unit: str) -> str:
    """3.35e12, "B/s" -> "3.35 TB/s"."""
    sep = "" if unit[:1].isupper() else " "  # TB/s, TFLOP/s; 1.05 T warp-instructions/s
    for scale, prefix in _PREFIX:
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{sep if prefix else ''}{unit}"
    return f"{value:.3g} {unit}"


def threshold() -> float:
    return float(model_constants()["bottleneck"]["threshold"])


def saturated() -> float:
    return float(model_constants()["bottleneck"]["saturated"])


BUSY_WORDS = {"full": "nearly every cycle", "busy": "in most cycles"}


def busy_words(share: float) -> str:
    """How often a unit at ``share`` of its peak (a bottleneck: at least :func:`threshold`) is busy, in
    words: "nearly every cycle" from sim_model.toml's ``saturated`` share up, "in most cycles" below it.
    The one rule every text follows (the window translates these two phrases)."""
    return BUSY_WORDS["full" if share >= saturated() else "busy"]


def active_fraction(result) -> np.ndarray:
    """float64[units]: each unit's share of its peak over the cycles its SMs held a warp (Nsight's
    ``pct_of_peak_sustained_active``); L2 and DRAM serve the whole GPU: their share over the run."""
    frac = result.unit_fraction().astype(np.float64)
    active = float(result.residency.warp_cycles_and_active_cycles(result.cycles)[1].sum())
    if active <= 0:
        return frac
    scale = max(result.cycles, 1) * result.params.sm_count / active  # elapsed SM-cycles / active ones
    return np.array([f if u in GPU_WIDE else f * scale for u, f in zip(UNITS, frac)])


def throughput(result) -> dict:
    """The ``throughput`` key of the JSON contract: per unit pct_of_peak, achieved, peak, units, source,
    and pct_of_peak_active (over the SMs' active cycles, :func:`active_fraction`)."""
    frac = result.unit_fraction()
    active = active_fraction(result)
    return {
        u.name: {"pct_of_peak": 100.0 * float(f), "achieved": float(f) * u.peak, "peak": u.peak, "units": u.units,
                 "source": u.source, "pct_of_peak_active": 100.0 * float(a)}
        for u, f, a in zip(result.unit_peaks, frac, active)
    }


def where_active(through: dict) -> tuple[str, float]:
    """(unit or "latency", share) by the bottleneck rule over the SMs' active cycles, from a ``throughput``
    dict: what limits the SMs that have work, where SMs without work hide it from the run's shares."""
    shares = [float(through[u].get("pct_of_peak_active", through[u]["pct_of_peak"])) / 100.0 for u in UNITS]
    return pick(shares)


def pick(fractions) -> tuple[str, float]:
    """(unit or "latency", the highest share of peak) for shares of peak in UNITS order."""
    fractions = np.asarray(fractions, dtype=np.float64)
    top = int(np.argmax(fractions))
    share = float(fractions[top])
    return (UNITS[top] if share >= threshold() else "latency"), share


def bottleneck(result) -> dict:
    """The ``bottleneck`` key: {"unit": a unit name or "latency", "pct_of_peak", "why"}."""
    frac = result.unit_fraction()
    unit, share = pick(frac)
    top = UNITS[int(np.argmax(frac))]
    why = _why_unit(result, unit, share) if unit != "latency" else _why_latency(result, top, share)
    return {"unit": unit, "pct_of_peak": 100.0 * share, "why": why}


def _fma_threads(result) -> float:
    """Thread-level FP32 operations: the FP32 pipe's busy cycles over its interval, x 32 threads."""
    busy = float(result.unit_busy_cycles[:, FP32].sum())
    return busy / result.params.fma_interval * 32


def _why_unit(result, unit: str, share: float) -> str:
    peak = dict(zip(UNITS, result.unit_peaks))[unit]
    head = f"{LABEL[unit]} at {100 * share:.0f}% of {si(peak.peak, peak.units)}"
    mem = result.memory_bytes
    fmas = _fma_threads(result)
    busy = busy_words(share)
    if unit == "dram":
        per = f"{mem['dram'] / fmas:.2g} B per FMA" if fmas else f"{mem['dram'] / 1e6:.3g} MB"
        return f"{head}: the kernel moves {per} to or from device memory; more reuse (tiling, caching) would help"
    if unit == "l2":
        return (f"{head}: every L1 miss crosses L2 ({(mem['l2'] + mem['dram']) / 1e6:.3g} MB); more reuse in L1 "
                "or shared memory would help")
    if unit == "l1":
        return (f"{head}: global accesses keep the SMs' L1 data paths busy {busy}; fewer or better-coalesced "
                "accesses would help")
    if unit == "shared":
        return (f"{head}: shared-memory wavefronts (bank conflicts multiply them) keep the banks busy {busy}; fewer "
                "conflicts or wider accesses would help")
    if unit == "lsu":
        return (f"{head}: memory instructions queue at the load/store units; wider (vector) accesses move the same "
                "bytes in fewer instructions")
    if unit == "issue":
        frac = dict(zip(UNITS, result.unit_fraction()))
        pipe = max(("fp32", "int", "sfu", "tensor", "lsu"), key=frac.get)
        also = (f"; {LABEL[pipe]} is at {100 * frac[pipe]:.0f}% too (here one {pipe.upper()} instruction per "
                "scheduler per cycle is both peaks)") if frac[pipe] >= share - 0.02 else ""
        return (f"{head}: the schedulers issue {busy}{also}; only fewer instructions per result "
                "would help, not more warps")
    if unit == "fp32":
        return f"{head}: FMA lanes are busy {busy}; this is the arithmetic peak for FP32"
    if unit == "tensor":
        return f"{head}: the Tensor Cores are busy {busy}; everything else waits on the MMAs"
    if unit == "sfu":
        return f"{head}: special functions (exp, rsqrt...) run on 4 lanes per scheduler; cheaper math would help"
    return f"{head}: integer instructions keep the INT32 lanes busy {busy}"


_WAITING_FOR = {
    "wait": "wait on dependent arithmetic (a fixed latency each); more independent instructions (ILP) or warps "
            "would help",
    "short_scoreboard": "wait for shared-memory or special-function results; more independent work would help",
    "barrier": "wait at __syncthreads for their block's slowest warp; smaller or better-balanced phases would help",
    "drain": "wait for their stores to complete before they can exit",
    "math_pipe_throttle": "find their pipe busy; spreading work over more units would help",
    "mio_throttle": "find the shared-memory queue full",
    "lg_throttle": "find the global-memory queue full",
    "mbarrier": "wait on their stages' mbarriers (consumers for TMA copies, producers for free stages); more stages "
                "or more bytes in flight would help",
    "wgmma_wait": "wait for their asynchronous MMAs, with too few warpgroups to fill the Tensor Cores",
    "not_selected": "are ready but wait their turn at the scheduler",
    "selected": "issue whenever they can, yet too few are ready",
}


def _why_latency(result, top: str, share: float) -> str:
    p = result.params
    warps = p.total_blocks * p.warps_per_block
    head = f"no unit above {100 * share:.0f}% ({LABEL[top]})"
    idle_sm = 1.0 - float(result.residency.warp_cycles_and_active_cycles(result.cycles)[1].sum()) / (
        max(result.cycles, 1) * p.sm_count)
    if idle_sm > 0.4:
        unit, busy = pick(active_fraction(result))
        there = (f"; on the SMs with work, {LABEL[unit]} at {100 * busy:.0f}% of the peak"
                 if unit != "latency" else "")
        return (f"{head}: SMs sit idle {100 * idle_sm:.0f}% of the time (too few blocks, or a last wave on few "
                f"SMs){there}; more or smaller blocks would help")
    states = result.series_totals[4:]
    busy = [(int(states[i]), NAMES[i]) for i in range(len(NAMES)) if i != EMPTY]
    # a ready warp that waits its turn waits while another issues: the unused issue slots are the
    # cycles no warp was ready, so the reason is the commonest state that cannot issue (where any is)
    stalled = [(n, name) for n, name in busy if name not in ("selected", "not_selected") and n > 0]
    _, reason = max(stalled or busy)
    if reason == "long_scoreboard":
        lat = result.latency_cycles()
        waited = {lvl: result.memory[f"{lvl}_lat"] for lvl in ("l1", "l2", "dram")}  # load-cycles per level
        level = max(waited, key=waited.get)
        where = {"l1": "L1", "l2": "L2", "dram": "HBM" if "HBM" in result.scenario.gpu.memory_kind else "DRAM"}[level]
        mean = lat[level] or 0.0
        return (f"{head}: {warps:,} warps each wait ~{mean:.0f} cycles for {where}; more bytes in flight per SM "
                "(more warps, or more independent loads per warp) would help")
    return f"{head}: {warps:,} warps mostly {_WAITING_FOR.get(reason, reason)}"
