"""Fit the simulator's device-memory figures to measurements of one GPU.

Two parameters, both GPU-wide (``SimParams.with_memory``): ``lat_dram`` (cycles from
an L2 miss to its data) and ``dram_bytes_per_cycle`` (sustained bandwidth). Each
measurement gives two observables, compared with a simulation of the same kernel
(:func:`explorer.gpu.measure.resim_scenario`: the measured GPU, the compiled
registers and shared memory):

- the kernel's duration in cycles (bandwidth-bound kernels pin the bandwidth), and
- the mean block duration in cycles (a latency-bound kernel's blocks are chains of
  dependent loads: they pin the latency).

Each measurement is simulated as its launch ran (``explorer.gpu.compare``: its placement of blocks, L2 as
the launch found it), and the observables are the records' own: the warp span and the mean block.
The fit minimises the sum of squared relative errors sim/measured - 1 (the error it reports, so the error after
is never above the error before) by a pattern search in log space from the catalog's figures, its
simulations spread over a process pool; it reports its progress and, after the first point, how long it
can take at most (issue 27 item 4: the five H200 files in under two minutes). Measurements of several kernels
(a streaming one and a latency-bound one) constrain both parameters; one measurement constrains what it can.
The result reports the error before and after, per measurement.
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
    """(warp span, mean block): the figures a measurement's records give (explorer.gpu.compare)."""
    from explorer.gpu.compare import warp_span

    b = result.blocks
    dur = (b.end - b.start).astype(np.float64)
    return float(max(warp_span(result), 1)), float(dur.mean()) if dur.size else 1.0


def _simulate_case(job) -> tuple[float, float]:
    """One simulation of a calibration (a process pool's task: module level, plain arguments)."""
    from explorer.sim import simulate

    scenario, params, placement = job
    return _observe(simulate(scenario, params=params, placement=placement))


def calibrate(measurements, *, lat_scale=(0.5, 2.0), bw_scale=(0.3, 1.5), steps: int = 5, refine: bool = True,
              simulate_fn=None, progress=None, jobs: int | None = None) -> Calibration:
    """Fit ``lat_dram`` and ``dram_bytes_per_cycle`` to one or more measurements of the same GPU.

    Each measurement is simulated as its launch ran (explorer.gpu.compare: its placement, its L2). The search is
    a pattern search in log space from the catalog's figures: the four neighbours of the best point so far, a
    step of the range / (steps - 1) at first, halved (``refine``) three times when no neighbour is better; at most
    ``1 + 4 * (steps + 3)`` points. The simulations of a round run in a process pool (``jobs`` processes, the
    machine's cores by default; ``simulate_fn`` given: in this process, one after another). ``progress(text,
    fraction)`` hears each simulation, and after the first point how long the rest will take."""
    import os
    import time

    from explorer.gpu.compare import comparison_setup
    from explorer.model.errors import InputError

    if not measurements:
        raise InputError("calibrate", "give at least one measurement")
    cases = []
    gpus = set()
    for i, m in enumerate(measurements):
        scenario, base, placement, _program = comparison_setup(m)
        gpus.add(scenario.gpu.name)
        dur = (m.blocks.end - m.blocks.start).astype(np.float64)
        name = m.meta.get("scenario_name") or scenario.name or f"measurement {i + 1}"
        cases.append((name, scenario, base, float(max(m.cycles, 1)), float(dur.mean()) if dur.size else 1.0,
                      placement))
    if len(gpus) > 1:
        raise InputError("calibrate", f"the measurements are of different GPUs ({', '.join(sorted(gpus))}); "
                                      "calibrate one GPU at a time")
    base = cases[0][2]
    lat0, bw0 = float(base.lat_dram), float(base.dram_bytes_per_cycle)
    lat_lo, lat_hi = lat0 * lat_scale[0], lat0 * lat_scale[1]
    bw_lo, bw_hi = bw0 * bw_scale[0], bw0 * bw_scale[1]
    max_points = 1 + 4 * (steps + (3 if refine else 0))
    total = max_points * len(cases)
    evals = 0
    cache: dict = {}
    pool = None
    workers = 1 if simulate_fn is not None else max(1, min(jobs or os.cpu_count() or 1, 4 * len(cases)))
    started = time.perf_counter()

    def say(text: str) -> None:
        if progress is not None:
            progress(text, min(1.0, evals / total))

    def key_of(lat: float, bw: float):
        return int(round(lat)), round(bw, 4)

    def run_points(points) -> None:
        """Simulate every case at every point not simulated yet (in the pool when there is one)."""
        nonlocal evals, pool
        todo = [key_of(lat, bw) for lat, bw in points]
        todo = list(dict.fromkeys(k for k in todo if k not in cache))
        if not todo:
            return
        jobs_ = [(c[1], c[2].with_memory(lat_dram=k[0], dram_bytes_per_cycle=k[1]), c[5]) for k in todo for c in cases]
        if simulate_fn is not None:
            out = []
            for scenario, params, placement in jobs_:
                out.append(_observe(simulate_fn(scenario, params=params, placement=placement)))
                evals += 1
                say(f"simulation {evals} of at most {total}")
        else:
            if pool is None and workers > 1:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
            results = pool.map(_simulate_case, jobs_) if pool is not None else map(_simulate_case, jobs_)
            out = []
            for r in results:
                out.append(r)
                evals += 1
                say(f"simulation {evals} of at most {total}")
        for i, k in enumerate(todo):
            cache[k] = out[i * len(cases):(i + 1) * len(cases)]

    def cost(lat: float, bw: float) -> float:
        sims = cache[key_of(lat, bw)]
        return sum((s[0] / c[3] - 1.0) ** 2 + (s[1] / c[4] - 1.0) ** 2 for s, c in zip(sims, cases))

    try:
        run_points([(lat0, bw0)])
        first = time.perf_counter() - started
        if progress is not None:
            rest = first * (max_points - 1)
            progress(f"one point ({len(cases)} simulation(s)) took {first:.0f} s; at most {max_points - 1} more "
                     f"points: at most ~{rest:.0f} s", evals / total)
        best = (cost(lat0, bw0), lat0, bw0)
        fl = (lat_scale[1] / lat_scale[0]) ** (1 / max(1, steps - 1))
        fb = (bw_scale[1] / bw_scale[0]) ** (1 / max(1, steps - 1))
        moves = halvings = 0
        while True:
            _, lat_b, bw_b = best
            nbrs = [(min(lat_hi, lat_b * fl), bw_b), (max(lat_lo, lat_b / fl), bw_b),
                    (lat_b, min(bw_hi, bw_b * fb)), (lat_b, max(bw_lo, bw_b / fb))]
            run_points(nbrs)
            cand = min((cost(lat, bw), lat, bw) for lat, bw in nbrs)
            if cand[0] < best[0] - 1e-12 and moves < steps:
                best, moves = cand, moves + 1
                continue
            if not refine or halvings >= 3:
                break
            fl, fb, halvings = fl ** 0.5, fb ** 0.5, halvings + 1
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    _, lat_f, bw_f = best
    before = cache[key_of(lat0, bw0)]
    after = cache[key_of(lat_f, bw_f)]
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
