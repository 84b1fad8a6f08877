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

from explorer.model.sim_model import model_constants
from explorer.sim.states import EMPTY, NAMES
from explorer.model.units import FP32, UNITS
from explorer.texts.bottleneck import BUSY, sentence

GPU_WIDE = ("l2", "dram")  # units shared by every SM: their share is the GPU's, active SMs or not

def threshold() -> float:
    return float(model_constants()["bottleneck"]["threshold"])


def saturated() -> float:
    return float(model_constants()["bottleneck"]["saturated"])


def busy_code(share: float) -> str:
    """How often a unit at ``share`` of its peak (a bottleneck: at least :func:`threshold`) is busy: "full"
    (nearly every cycle) from sim_model.toml's ``saturated`` share up, "busy" (in most cycles) below it.
    The one rule every text follows (``explorer.texts.bottleneck.BUSY`` words the two codes)."""
    return "full" if share >= saturated() else "busy"


def busy_words(share: float) -> str:
    """:func:`busy_code` in English words."""
    return BUSY[busy_code(share)]


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
    """The ``bottleneck`` key: {"unit": a unit name or "latency", "pct_of_peak", "reason", "why"}.

    ``reason`` is the record every text is written from: ``code`` (which sentence), ``figures`` (what
    it cites), and for the head ``peak``/``peak_units`` (a unit's peak) or ``top`` (the busiest unit of
    a latency-bound run). ``why`` is that record in English (``explorer.texts.bottleneck.sentence``)."""
    frac = result.unit_fraction()
    unit, share = pick(frac)
    top = UNITS[int(np.argmax(frac))]
    if unit != "latency":
        peak = dict(zip(UNITS, result.unit_peaks))[unit]
        reason = {**_why_unit(result, unit, share), "peak": float(peak.peak), "peak_units": peak.units}
    else:
        reason = {**_why_latency(result, share), "top": top}
    record = {"unit": unit, "pct_of_peak": 100.0 * share, "reason": reason}
    return {**record, "why": sentence(record)}


def _fma_threads(result) -> float:
    """Thread-level FP32 operations: the FP32 pipe's busy cycles over its interval, x 32 threads."""
    busy = float(result.unit_busy_cycles[:, FP32].sum())
    return busy / result.params.fma_interval * 32


def _why_unit(result, unit: str, share: float) -> dict:
    """The reason a unit near its peak is the bottleneck: {"code", "figures"} (``explorer.texts.bottleneck``)."""
    mem = result.memory_bytes
    busy = busy_code(share)
    if unit == "dram":
        fmas = _fma_threads(result)
        if fmas:
            return {"code": "dram_per_fma", "figures": {"per": mem["dram"] / fmas}}
        return {"code": "dram_bytes", "figures": {"mb": mem["dram"] / 1e6}}
    if unit == "l2":
        return {"code": "l2", "figures": {"mb": (mem["l2"] + mem["dram"]) / 1e6}}
    if unit == "issue":
        frac = dict(zip(UNITS, result.unit_fraction()))
        pipe = max(("fp32", "int", "sfu", "tensor", "lsu"), key=frac.get)
        if frac[pipe] >= share - 0.02:  # one instruction per scheduler per cycle is both peaks
            return {"code": "issue_and_pipe", "figures": {"busy": busy, "label": pipe, "pct": 100 * float(frac[pipe]),
                                                          "pipe": pipe}}
        return {"code": "issue", "figures": {"busy": busy}}
    if unit in ("lsu", "sfu"):
        return {"code": unit, "figures": {}}
    return {"code": unit, "figures": {"busy": busy}}  # l1, shared, fp32, tensor, int


def _why_latency(result, share: float) -> dict:
    """What the warps wait for when no unit is near its peak: {"code", "figures"}."""
    p = result.params
    warps = p.total_blocks * p.warps_per_block
    idle_sm = 1.0 - float(result.residency.warp_cycles_and_active_cycles(result.cycles)[1].sum()) / (
        max(result.cycles, 1) * p.sm_count)
    if idle_sm > 0.4:
        unit, busy = pick(active_fraction(result))
        if unit != "latency":
            return {"code": "idle_sms_one_full", "figures": {"pct": 100 * idle_sm, "label": unit, "share": 100 * busy}}
        return {"code": "idle_sms", "figures": {"pct": 100 * idle_sm}}
    states = result.series_totals[4:]
    busy = [(int(states[i]), NAMES[i]) for i in range(len(NAMES)) if i != EMPTY]
    # a ready warp that waits its turn waits while another issues: the unused issue slots are the
    # cycles no warp was ready, so the reason is the commonest state that cannot issue (where any is)
    stalled = [(n, name) for n, name in busy if name not in ("selected", "not_selected") and n > 0]
    _, state = max(stalled or busy)
    if state == "long_scoreboard":
        lat = result.latency_cycles()
        waited = {lvl: result.memory[f"{lvl}_lat"] for lvl in ("l1", "l2", "dram")}  # load-cycles per level
        level = max(waited, key=waited.get)
        if level == "dram" and "HBM" in result.scenario.gpu.memory_kind:
            level = "hbm"
        mean = lat[max(waited, key=waited.get)] or 0.0
        return {"code": "wait_level", "figures": {"warps": int(warps), "cycles": float(mean), "level": level}}
    return {"code": "waiting", "figures": {"warps": int(warps), "state": state}}
