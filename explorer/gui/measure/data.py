"""What the overlay of a GPU measurement shows, computed without Qt (numpy only).

A ``Measurement`` and a ``SimResult`` share their timeline shapes (cycles since
the kernel's first warp, dense SM indices), so everything here is a join:

* step curves of measured resident warps (GPU-wide or one SM) and of unfinished
  ("launched") warps, in the counts plot's units;
* measured resident warps and blocks per SM at a cycle, for the SM grid;
* the side-by-side table of simulated vs measured numbers, straight from
  ``SimResult.summary()`` and ``Measurement.summary()``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_CURVE_POINTS = 100_000  # above this many steps a curve is binned (peak per bin)


@dataclass(frozen=True)
class StepCurve:
    """A step function for ``stepMode="center"``: ``y[i]`` holds on ``[x[i], x[i+1])``; len(x) = len(y) + 1."""

    x: np.ndarray
    y: np.ndarray

    def at(self, cycles) -> np.ndarray:
        """The plotted value at each of ``cycles`` (0 outside the curve)."""
        c = np.asarray(cycles, dtype=np.float64)
        i = np.searchsorted(self.x, c, side="right") - 1
        ok = (i >= 0) & (i < len(self.y))
        return np.where(ok, self.y[np.clip(i, 0, max(len(self.y) - 1, 0))], 0.0) if len(self.y) else np.zeros(c.shape)

    @property
    def top(self) -> float:
        return float(self.y.max()) if len(self.y) else 0.0


def _steps(times: np.ndarray, levels_at, end: int) -> StepCurve:
    """Levels at each change time, from 0 to ``end`` (the last level holds one cycle past it)."""
    t = np.unique(np.concatenate([[0], np.asarray(times, np.int64)]))
    t = t[t <= end]
    y = np.asarray(levels_at(t), dtype=np.float64)
    x = np.concatenate([t, [end + 1]]).astype(np.float64)
    if len(y) > MAX_CURVE_POINTS:  # a huge grid: keep each bin's peak so bursts stay visible
        edges = np.linspace(0, end + 1, MAX_CURVE_POINTS // 2 + 1)
        bins = len(edges) - 1
        which = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, bins - 1)
        peak = np.full(bins, -np.inf)
        np.maximum.at(peak, which, y)
        # a bin without a change holds the level the last change before it left
        last = np.searchsorted(which, np.arange(bins), side="right") - 1
        held = np.where(last >= 0, y[np.maximum(last, 0)], 0.0)
        return StepCurve(edges, np.where(np.isfinite(peak), np.maximum(peak, held), held))
    return StepCurve(x, y)


def resident_curve(measurement, sm: int | None = None) -> StepCurve:
    """Measured resident warps over cycles: the whole GPU, or one SM."""
    r = measurement.residency
    end = max(measurement.cycles, r.end)
    if sm is None:
        return _steps(r.time, r.total, end)
    mask = r.sm == sm
    times = r.time[mask]
    deltas = r.delta[mask].astype(np.int64)
    cum = np.concatenate([[0], np.cumsum(deltas)])

    def level(t):
        return cum[np.searchsorted(times, t, side="right")]

    return _steps(times, level, end)


def unfinished_curve(measurement) -> StepCurve:
    """Measured warps not finished yet (the simulator's "launched"): all of them at 0, minus those that ended."""
    m = measurement
    if m.warps is not None and len(m.warps.get("end", ())):
        ends = np.sort(np.asarray(m.warps["end"], np.int64))
        weight = np.ones(len(ends), np.int64)
    else:
        ends = np.sort(m.blocks.end.astype(np.int64))
        weight = np.full(len(ends), m.warps_per_block, np.int64)
    total = int(weight.sum())
    done = np.concatenate([[0], np.cumsum(weight)])

    def level(t):
        return total - done[np.searchsorted(ends, t, side="right")]

    return _steps(ends, level, max(m.cycles, int(ends[-1]) if len(ends) else 0))


def sm_max_resident(measurement) -> int:
    """The most warps any one SM held at once (the per-SM plot's height)."""
    r = measurement.residency
    best = 0
    for sm in np.unique(r.sm):
        mask = r.sm == sm
        best = max(best, int(np.cumsum(r.delta[mask].astype(np.int64)).max(initial=0)))
    return best


def live_per_sm(measurement, cycle: int, sm_count: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(resident warps, resident blocks) on every SM at ``cycle``."""
    n = measurement.sm_count if sm_count is None else sm_count
    warps = measurement.residency.at(cycle)
    live = measurement.blocks.live_at(cycle)
    blocks = np.bincount(measurement.blocks.sm[live], minlength=n)
    out_w = np.zeros(n, np.int64)
    out_b = np.zeros(n, np.int64)
    k = min(n, len(warps))
    out_w[:k] = warps[:k]
    k = min(n, len(blocks))
    out_b[:k] = blocks[:k]
    return out_w, out_b


def blocks_live_on(measurement, cycle: int, sm: int) -> np.ndarray:
    """Block numbers resident on one SM at ``cycle``."""
    b = measurement.blocks
    live = b.live_at(cycle)
    return b.block[live[b.sm[live] == sm]]


def mean_block_cycles(blocks) -> float:
    return float((blocks.end - blocks.start).mean()) if len(blocks) else 0.0


@dataclass(frozen=True)
class Row:
    key: str
    simulated: object  # a number, or None where the simulator has no counterpart
    measured: object
    kind: str  # "int", "pct", "us", "mhz", "blocks"

    @property
    def figure(self):
        """The row as ``explorer.gpu.compare`` judges it: one error and one word for the CLI and the window."""
        from explorer.gpu.compare import Figure

        unit = {"int": "cycles", "us": "cycles", "pct": "fraction"}.get(self.kind, "sms")
        sim = self.simulated if isinstance(self.simulated, (int, float)) else None
        meas = self.measured if isinstance(self.measured, (int, float)) else None
        return Figure(self.key, self.key, sim, meas, unit)

    @property
    def difference(self) -> float | None:
        """simulated / measured - 1 (the error, as ``measure --compare`` prints it), or simulated - measured for
        shares (percentage points); None where there is no error to state."""
        return self.figure.error

    @property
    def word(self) -> str:
        """within 5% / within 15% / off (points for shares): explorer.gpu.compare's words."""
        return self.figure.word


def comparison(run_summary: dict, result, measurement) -> list[Row]:
    """Simulated vs measured, one row per quantity (values straight from the two summaries)."""
    s = run_summary
    m = measurement.summary()
    p = result.params
    sim_max = int(result.blocks.max_concurrent_per_sm(p.sm_count).max()) if len(result.blocks) else 0
    driver = m.get("driver_active_blocks_per_sm")
    kernel_us = m["kernel_time_us"] or m["records_time_us"]
    rows = [
        Row("cycles", s["cycles"], m["cycles"], "int"),
        Row("kernel_time_us", s["kernel_time_us"], kernel_us, "us"),
        Row("clock_mhz", float(p.clock_mhz), m["clock_mhz"], "mhz"),
        Row("mean_block_cycles", mean_block_cycles(result.blocks), mean_block_cycles(measurement.blocks), "int"),
        Row("achieved_occupancy", s["achieved_occupancy"], m["achieved_occupancy"], "pct"),
        Row("theoretical_occupancy", s["theoretical_occupancy"], m["theoretical_occupancy"], "pct"),
        Row("active_blocks_per_sm", s["active_blocks_per_sm"], m["active_blocks_per_sm"], "blocks"),
    ]
    if driver is not None:  # the driver's own occupancy answer, beside ours
        rows.append(Row("driver_active_blocks_per_sm", None, int(driver), "blocks"))
    rows += [
        Row("max_blocks_per_sm", sim_max, m["measured_max_blocks_per_sm"], "blocks"),
        Row("sm_active_fraction", s["sm_active_fraction"], m["sm_active_fraction"], "pct"),
    ]
    if m.get("kernel_active_fraction") is not None:
        rows.append(Row("kernel_active_fraction", s["kernel_active_fraction"], m["kernel_active_fraction"], "pct"))
    if m.get("gpm_sm_occupancy") is not None:
        rows.append(Row("gpm_sm_occupancy", s["achieved_occupancy"], m["gpm_sm_occupancy"] / 100.0, "pct"))
    launch = result.scenario.launch
    rows.append(Row("registers", launch.registers_per_thread, m.get("registers"), "blocks"))
    rows.append(Row("static_shared_bytes", launch.static_shared_bytes, m.get("static_shared_bytes"), "blocks"))
    return rows


def scenario_differences(scenario, measured_scenario) -> list[tuple[str, object, object]]:
    """(what, simulated, measured) for the launch settings that differ between two scenarios."""
    if measured_scenario is None:
        return []
    out = []
    if scenario.gpu.name != measured_scenario.gpu.name:
        out.append(("gpu", scenario.gpu.name, measured_scenario.gpu.name))
    a, b = scenario.launch, measured_scenario.launch
    for key in ("grid", "block", "registers_per_thread", "static_shared_bytes", "dynamic_shared_bytes",
                "carveout", "barriers"):
        va, vb = getattr(a, key), getattr(b, key)
        if va != vb:
            out.append((key, va.to_list() if hasattr(va, "to_list") else va,
                        vb.to_list() if hasattr(vb, "to_list") else vb))
    if scenario.workload != measured_scenario.workload:
        out.append(("workload", "", ""))
    return out
