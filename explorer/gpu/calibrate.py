"""Fit the simulator's device-memory figures to measurements of one GPU.

Two parameters, both GPU-wide (``SimParams.with_memory``): ``lat_dram`` (cycles from
an L2 miss to its data) and ``dram_bytes_per_cycle`` (sustained bandwidth). Each
measurement gives two observables, compared with a simulation of the same kernel
(:func:`explorer.gpu.measure.resim_scenario`: the measured GPU, the compiled
registers and shared memory):

- the kernel's duration in cycles (bandwidth-bound kernels pin the bandwidth), and
- the mean block duration in cycles (a latency-bound kernel's blocks are chains of
  dependent loads: they pin the latency).

The fit minimises the sum of squared relative errors sim/measured - 1 (the error it
reports, so the error after is never above the error before) over a log-spaced grid,
then refines around the best point three times with half the step each time. Measurements of several kernels (a streaming one
and a latency-bound one) constrain both parameters; one measurement constrains what
it can. The result reports the error before and after, per measurement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Point:
    name: str
    measured_cycles: float
    measured_block_cycles: float
    before: tuple[float, float] = (0.0, 0.0)  # simulated (cycles, mean block cycles)
    after: tuple[float, float] = (0.0, 0.0)

    def errors(self, which: str) -> tuple[float, float]:
        sim = self.before if which == "before" else self.after
        return sim[0] / self.measured_cycles - 1.0, sim[1] / self.measured_block_cycles - 1.0


@dataclass
class Calibration:
    gpu: str
    clock_mhz: float
    before: dict
    after: dict
    points: list[Point]
    evaluations: int
    notes: list[str] = field(default_factory=list)

    @staticmethod
    def _rms(points: list[Point], which: str) -> float:
        errs = [e for p in points for e in p.errors(which)]
        return float(math.sqrt(sum(e * e for e in errs) / len(errs))) if errs else 0.0

    @property
    def error_before(self) -> float:
        return self._rms(self.points, "before")

    @property
    def error_after(self) -> float:
        return self._rms(self.points, "after")

    def params(self, scenario):
        """SimParams for ``scenario`` with the fitted memory figures."""
        from explorer.sim.params import params_for

        return params_for(scenario).with_memory(**self.after)

    def to_json(self) -> dict:
        def gbs(bpc):
            return bpc * self.clock_mhz * 1e6 / 1e9

        return {
            "gpu": self.gpu,
            "clock_mhz": self.clock_mhz,
            "before": {**self.before, "dram_gbs": gbs(self.before["dram_bytes_per_cycle"])},
            "after": {**self.after, "dram_gbs": gbs(self.after["dram_bytes_per_cycle"])},
            "rms_error_before": self.error_before,
            "rms_error_after": self.error_after,
            "evaluations": self.evaluations,
            "measurements": [
                {"name": p.name, "measured_cycles": p.measured_cycles, "measured_block_cycles": p.measured_block_cycles,
                 "sim_before": list(p.before), "sim_after": list(p.after),
                 "error_before": list(p.errors("before")), "error_after": list(p.errors("after"))}
                for p in self.points
            ],
            "notes": self.notes,
        }

    def text(self) -> str:
        j = self.to_json()
        b, a = j["before"], j["after"]
        lines = [
            f"calibration for {self.gpu} ({len(self.points)} measurement(s), {self.evaluations} simulations)",
            f"  lat_dram              {b['lat_dram']:8.0f} -> {a['lat_dram']:8.0f} cycles",
            f"  dram_bytes_per_cycle  {b['dram_bytes_per_cycle']:8.2f} -> {a['dram_bytes_per_cycle']:8.2f} "
            f"({b['dram_gbs']:.0f} -> {a['dram_gbs']:.0f} GB/s at {self.clock_mhz:.0f} MHz)",
            f"  RMS error             {100 * self.error_before:7.1f}% -> {100 * self.error_after:6.1f}%",
        ]
        for m in j["measurements"]:
            eb, ea = m["error_before"], m["error_after"]
            lines.append(f"  {m['name']}: kernel {100 * eb[0]:+.1f}% -> {100 * ea[0]:+.1f}%, "
                         f"mean block {100 * eb[1]:+.1f}% -> {100 * ea[1]:+.1f}%")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def _observe(result) -> tuple[float, float]:
    b = result.blocks
    dur = (b.end - b.start).astype(np.float64)
    return float(max(result.cycles, 1)), float(dur.mean()) if dur.size else 1.0


def calibrate(measurements, *, lat_scale=(0.5, 2.0), bw_scale=(0.3, 1.5), steps: int = 5, refine: bool = True,
              simulate_fn=None) -> Calibration:
    """Fit ``lat_dram`` and ``dram_bytes_per_cycle`` to one or more measurements of the same GPU."""
    from explorer.gpu.measure import resim_scenario
    from explorer.model.errors import InputError
    from explorer.sim import simulate
    from explorer.sim.params import params_for

    simulate_fn = simulate_fn or simulate
    if not measurements:
        raise InputError("calibrate", "give at least one measurement")
    cases = []
    gpus = set()
    for i, m in enumerate(measurements):
        scenario = resim_scenario(m)
        gpus.add(scenario.gpu.name)
        base = params_for(scenario)
        dur = (m.blocks.end - m.blocks.start).astype(np.float64)
        name = m.meta.get("scenario_name") or scenario.name or f"measurement {i + 1}"
        cases.append((name, scenario, base, float(max(m.cycles, 1)), float(dur.mean()) if dur.size else 1.0))
    if len(gpus) > 1:
        raise InputError("calibrate", f"the measurements are of different GPUs ({', '.join(sorted(gpus))}); "
                                      "calibrate one GPU at a time")
    base = cases[0][2]
    lat0, bw0 = float(base.lat_dram), float(base.dram_bytes_per_cycle)
    evals = 0
    cache: dict = {}

    def run(lat: float, bw: float) -> list[tuple[float, float]]:
        nonlocal evals
        key = (int(round(lat)), round(bw, 4))
        if key not in cache:
            out = []
            for _, scenario, p, _, _ in cases:
                evals += 1
                out.append(_observe(simulate_fn(scenario, params=p.with_memory(lat_dram=key[0],
                                                                                dram_bytes_per_cycle=key[1]))))
            cache[key] = out
        return cache[key]

    def cost(lat: float, bw: float) -> float:
        sims = run(lat, bw)
        return sum((s[0] / c[3] - 1.0) ** 2 + (s[1] / c[4] - 1.0) ** 2 for s, c in zip(sims, cases))

    lats = np.geomspace(lat0 * lat_scale[0], lat0 * lat_scale[1], steps)
    bws = np.geomspace(bw0 * bw_scale[0], bw0 * bw_scale[1], steps)
    grid = [(cost(lat, bw), lat, bw) for lat in lats for bw in bws]
    best = min(grid + [(cost(lat0, bw0), lat0, bw0)])
    if refine:  # three rounds of a 3 x 3 pattern around the best point, halving the step (log space)
        dl = (lat_scale[1] / lat_scale[0]) ** (1 / (steps - 1))
        db = (bw_scale[1] / bw_scale[0]) ** (1 / (steps - 1))
        for _ in range(3):
            dl, db = dl ** 0.5, db ** 0.5
            _, lat_b, bw_b = best
            fine = [(cost(lat_b * a, bw_b * b), lat_b * a, bw_b * b)
                    for a in (1 / dl, 1.0, dl) for b in (1 / db, 1.0, db)]
            best = min([best] + fine)
    _, lat_f, bw_f = best
    before = run(lat0, bw0)
    after = run(lat_f, bw_f)
    points = [Point(c[0], c[3], c[4], before=b, after=a) for c, b, a in zip(cases, before, after)]
    notes = []
    if any(m.meta.get("synthetic") for m in measurements):
        notes.append("synthetic measurement(s) (from a simulation), not a real GPU run")
    if len(measurements) == 1:
        notes.append("one measurement constrains the two figures only partly; add a streaming and a "
                     "latency-bound kernel")
    clock = float(np.median([m.clock_mhz for m in measurements]))
    return Calibration(gpu=cases[0][1].gpu.name, clock_mhz=clock,
                       before={"lat_dram": int(round(lat0)), "dram_bytes_per_cycle": round(bw0, 4)},
                       after={"lat_dram": int(round(lat_f)), "dram_bytes_per_cycle": round(bw_f, 4)},
                       points=points, evaluations=evals, notes=notes)
