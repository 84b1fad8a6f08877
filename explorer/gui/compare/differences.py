"""What differs between two runs (Qt-free): the numbers of the A/B table and the scenario keys that changed.

The table compares two ``SimResult.summary()`` dicts (the ``simulate --json``
contract), so the window, ``render --compare`` and the tests read the same
figures. Every difference is stated both ways a lecturer needs it: the change
(``b - a``; for shares such as occupancy, in fractions, which the view shows as
percentage points) and the ratio ``b / a`` (None when ``a`` is 0).

The bottleneck is decided in one place, :func:`bottleneck_of`: the simulator's
own ``bottleneck``/``throughput`` keys when the summary has them (a measurement of
the simulated run's units), otherwise what every summary has — issue-slot use and
the warp states (Nsight Compute's Speed-of-Light rule: a kernel whose busiest unit
stays under ~60% of its peak is latency-bound, and the warp state that holds most
warp-cycles says what the warps wait for).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from explorer.sim.bottleneck import threshold

ISSUING = ("selected", "not_selected")  # eligible warps: they wait for nothing
NOT_WAITING = ISSUING + ("empty",)
SOURCES = ("simulator", "warp states")

# the table's rows, in the order it shows them
ROWS = ("cycles", "time_us", "theoretical_occupancy", "limiters", "achieved_occupancy",
        "issue_slot_utilization", "dram_bandwidth", "bottleneck")
SCENARIO_SKIP = ("name", "description")  # labels, not what the run depends on


@dataclass(frozen=True)
class Bottleneck:
    """What limits the run: a throughput unit, or ``"latency"`` when none is near its peak."""

    unit: str  # "issue", "fp32", "tensor", "dram", ... (the simulator's unit names) or "latency"
    share: float  # the unit's share of its peak, 0..1 (latency: the busiest unit's share, or issue-slot use)
    waiting_for: str | None  # latency: the warp state holding most warp-cycles (Nsight name); else None
    source: str  # "simulator" (the summary's own key) or "warp states" (estimated here from the summary)


@dataclass(frozen=True)
class Bandwidth:
    """Device-memory (DRAM/HBM) traffic over the run."""

    gbs: float  # bytes / kernel time, in GB/s
    share: float | None  # of the GPU's peak, 0..1; None when neither the summary nor the caller gives a peak


@dataclass(frozen=True)
class Difference:
    """One row of the table: A's value, B's value and how B differs."""

    key: str  # one of ROWS
    a: object
    b: object
    delta: float | None = None  # b - a for numbers (shares: in fractions); None for labels
    ratio: float | None = None  # b / a; None for labels and when a is 0
    changed: bool = False


def dominant_wait(summary: dict) -> str | None:
    """The warp state (not issuing, not empty) with the most warp-cycles; None when no warp waited."""
    cycles = summary.get("warp_state_cycles") or {}
    waits = [(int(v), name) for name, v in cycles.items() if name not in NOT_WAITING and v]
    return max(waits)[1] if waits else None


def bottleneck_of(summary: dict, peak_gbs: float | None = None) -> Bottleneck:
    """The run's bottleneck (the one place this is decided): the simulator's ``bottleneck`` key when the summary
    has it; otherwise estimated from what every summary has — the busier of issue-slot use and DRAM bandwidth
    against its peak (``peak_gbs``, when known) if it reaches the simulator's Speed-of-Light threshold
    (``explorer.sim.bottleneck.threshold``: the one 60% rule), else latency, waiting
    mostly in the dominant warp state."""
    own = summary.get("bottleneck")
    if isinstance(own, dict) and isinstance(own.get("unit"), str):
        unit = own["unit"]
        share = float(own.get("pct_of_peak", 0.0)) / 100.0
        return Bottleneck(unit, share, dominant_wait(summary) if unit == "latency" else None, SOURCES[0])
    shares = [("issue", float(summary.get("issue_slot_utilization", 0.0)))]
    dram = bandwidth_of(summary, peak_gbs).share
    if dram is not None:
        shares.append(("dram", dram))
    unit, share = max(shares, key=lambda us: us[1])
    if share >= threshold():
        return Bottleneck(unit, share, None, SOURCES[1])
    return Bottleneck("latency", share, dominant_wait(summary), SOURCES[1])


def bandwidth_of(summary: dict, peak_gbs: float | None = None) -> Bandwidth:
    """DRAM bandwidth of the run and its share of the peak (the simulator's ``throughput`` when present,
    else ``peak_gbs``: the GPU's catalog figure)."""
    gbs = float(summary.get("dram_bandwidth_gbs", 0.0))
    dram = (summary.get("throughput") or {}).get("dram")
    if isinstance(dram, dict) and "pct_of_peak" in dram:
        return Bandwidth(gbs, float(dram["pct_of_peak"]) / 100.0)
    return Bandwidth(gbs, gbs / peak_gbs if peak_gbs else None)


def _ratio(a: float, b: float) -> float | None:
    """b / a, or None when it has no finite value (a is 0, or so small the quotient overflows)."""
    if not a:
        return None
    ratio = b / a
    return ratio if math.isfinite(ratio) else None


def _number(key: str, a: float, b: float) -> Difference:
    a, b = float(a), float(b)
    return Difference(key, a, b, b - a, _ratio(a, b), a != b)


def differences(a: dict, b: dict, peak_gbs: tuple[float | None, float | None] = (None, None)) -> list[Difference]:
    """The A/B table's rows (:data:`ROWS` order) for two ``simulate --json`` summaries.

    ``peak_gbs``: each GPU's device-memory bandwidth, used for the share of peak when a
    summary has no ``throughput`` of its own.
    """
    rows = [
        _number("cycles", a["cycles"], b["cycles"]),
        _number("time_us", a["kernel_time_us"], b["kernel_time_us"]),
        _number("theoretical_occupancy", a["theoretical_occupancy"], b["theoretical_occupancy"]),
    ]
    la, lb = tuple(a.get("limiters", ())), tuple(b.get("limiters", ()))
    rows.append(Difference("limiters", la, lb, changed=set(la) != set(lb)))
    rows.append(_number("achieved_occupancy", a["achieved_occupancy"], b["achieved_occupancy"]))
    rows.append(_number("issue_slot_utilization", a["issue_slot_utilization"], b["issue_slot_utilization"]))
    wa, wb = bandwidth_of(a, peak_gbs[0]), bandwidth_of(b, peak_gbs[1])
    rows.append(Difference("dram_bandwidth", wa, wb, wb.gbs - wa.gbs, _ratio(wa.gbs, wb.gbs),
                           wa.gbs != wb.gbs))
    ba, bb = bottleneck_of(a, peak_gbs[0]), bottleneck_of(b, peak_gbs[1])
    rows.append(Difference("bottleneck", ba, bb, changed=(ba.unit, ba.waiting_for) != (bb.unit, bb.waiting_for)))
    return rows


def speedup(a: dict, b: dict) -> float | None:
    """How many times faster B runs than A (A's kernel time / B's); None when B took no time."""
    tb = float(b["kernel_time_us"])
    return float(a["kernel_time_us"]) / tb if tb else None


# -- what the scenarios differ in -----------------------------------------------------
def _flat(value, prefix: str = "") -> dict[str, object]:
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            if not prefix and key in SCENARIO_SKIP:
                continue
            out.update(_flat(item, f"{prefix}{key}."))
        return out
    return {prefix[:-1]: value}


def value_text(value) -> str:
    """A scenario value as ``--set`` writes it (lists of ops as their names: "ldg, ffma×8, stg")."""
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) and "op" in v for v in value):
            return ", ".join(f"{v['op']}×{v['count']}" if int(v.get("count", 1)) != 1 else str(v["op"])
                             for v in value)
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def scenario_changes(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """[(dotted key, A's value, B's value)] for every scenario key whose value differs (``Scenario.to_dict()``
    of each; the name and description are labels and are left out); a key only one side has reads "–"."""
    fa, fb = _flat(a), _flat(b)
    out = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(key), fb.get(key)
        if va != vb:
            out.append((key, "–" if key not in fa else value_text(va), "–" if key not in fb else value_text(vb)))
    return out
