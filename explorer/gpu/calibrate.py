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
The fit minimises the sum of squared relative errors sim/measured - 1 (the error it reports; the point reported
is the best simulated, so the error after is never above the error before) by damped Gauss-Newton in log space
from the catalog's figures: a first wave of simulations (the catalog's figures and a 10% step of each) gives the
Jacobian, then each step simulates one point and updates it (Broyden): a few times fewer simulations than the
pattern search it replaced (issue 27 item 4: the five H200 files in under two minutes on a 2-core machine; the
counts and times in docs/performance.md). The simulations of a wave run on threads (the cycle loop
runs without the GIL), keep no per-cycle states, and are reported one by one: the plan before anything runs, and
once the first wave is timed, how long the rest can take. Measurements of several kernels (a streaming one and a
latency-bound one) constrain both parameters; one measurement constrains what it can.
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


def _simulate(simulate_fn, scenario, params, placement, cancel):
    """One simulation of a calibration: the observables only, so no SM's per-cycle states are kept
    (``record_sms=[]``: the same run, its trace left out)."""
    if simulate_fn is not None:
        return _observe(simulate_fn(scenario, params=params, placement=placement))
    from explorer.sim import simulate

    return _observe(simulate(scenario, params=params, placement=placement, record_sms=[], cancel=cancel))


#: the finite-difference step of the first Jacobian, in log space (10%: well above the cycle noise of one
#: simulation, small against the search range)
FD_STEP = math.log(1.1)
#: the search stops when its next step moves both figures by less than this (0.5%, a tenth of the
#: finest step of the pattern search it replaced)
TOLERANCE = math.log(1.005)


def calibrate(measurements, *, lat_scale=(0.5, 2.0), bw_scale=(0.3, 1.5), max_points: int = 12,
              simulate_fn=None, progress=None, jobs: int | None = None, cancel=None) -> Calibration:
    """Fit ``lat_dram`` and ``dram_bytes_per_cycle`` to one or more measurements of the same GPU.

    Each measurement is simulated as its launch ran (explorer.gpu.compare: its placement, its L2). The search is
    damped Gauss-Newton (Levenberg-Marquardt) in log space on the residuals sim/measured - 1: the catalog's
    figures and a 10% step of each (one wave of ``3 x measurements`` simulations) give the first Jacobian, each
    step after simulates one point (one simulation per measurement) and updates the Jacobian from it (Broyden);
    a step that does not lower the error is damped. It stops when the next step moves both figures by less than
    0.5%, or after ``max_points`` points. The point reported is the best simulated, so the error after is never
    above the error before. The simulations of a wave run on ``jobs`` threads (the cycle loop runs without the
    GIL; default: every core this process may use); ``simulate_fn(scenario, params=, placement=)`` replaces
    :func:`explorer.sim.simulate`. ``progress(text, fraction)`` hears the plan before anything runs, each
    simulation, the time the rest can take once the first wave is timed, and each step. ``cancel()`` returning
    True stops the simulations running (:class:`explorer.sim.Cancelled`)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from explorer.gpu.compare import comparison_setup
    from explorer.model.errors import InputError
    from explorer.sass.execute.run import default_jobs

    if not measurements:
        raise InputError("calibrate", "give at least one measurement")
    if max_points < 3:
        raise InputError("max_points", f"{max_points} is below 3 (the start and one step of each figure)")
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
    from explorer.sim.engine import estimate_run

    for c in cases:  # a run the simulator refuses is one line before the plan, not after a page of progress
        estimate_run(c[1], params=c[2]).check()
    base = cases[0][2]
    n = len(cases)
    lat0, bw0 = float(base.lat_dram), float(base.dram_bytes_per_cycle)
    lo = np.log([lat0 * lat_scale[0], bw0 * bw_scale[0]])
    hi = np.log([lat0 * lat_scale[1], bw0 * bw_scale[1]])
    total = max_points * n
    workers = max(1, min(jobs or default_jobs(), 3 * n))
    evals = 0
    cache: dict = {}
    seconds = [0.0] * n  # each measurement's last simulation, wall seconds
    started = time.perf_counter()

    def say(text: str) -> None:
        if progress is not None:
            progress(text, min(1.0, evals / total))

    def key_of(x) -> tuple[int, float]:
        return int(round(math.exp(x[0]))), round(math.exp(x[1]), 4)

    def x_of(key) -> np.ndarray:
        return np.log([float(key[0]), float(key[1])])

    stopping = []  # set when a simulation failed or the wait was interrupted (Ctrl+C): the others stop too

    def stop() -> bool:
        return bool(stopping) or (cancel is not None and cancel())

    def one(job):
        k, c = job
        t = time.perf_counter()
        out = _simulate(simulate_fn, cases[c][1], cases[c][2].with_memory(lat_dram=k[0], dram_bytes_per_cycle=k[1]),
                        cases[c][5], stop)
        return out, time.perf_counter() - t

    def run_points(keys, pool) -> None:
        """Simulate every measurement at every point not simulated yet, the longest first (by their last time)."""
        nonlocal evals
        todo = list(dict.fromkeys(k for k in keys if k not in cache))
        if not todo:
            return
        order = sorted(((k, c) for k in todo for c in range(n)), key=lambda j: -seconds[j[1]])
        got: dict = {}
        futures = [pool.submit(one, j) for j in order]
        try:
            for job, fut in zip(order, futures):
                got[job], dt = fut.result()
                seconds[job[1]] = dt
                evals += 1
                say(f"simulation {evals} of at most {total}: {cases[job[1]][0]} ({dt:.1f} s)")
        except BaseException:
            stopping.append(True)
            for fut in futures:
                fut.cancel()
            raise
        for k in todo:
            cache[k] = [got[(k, c)] for c in range(n)]

    def residuals(key) -> np.ndarray:
        sims = cache[key]
        return np.array([v for s, c in zip(sims, cases) for v in (s[0] / c[3] - 1.0, s[1] / c[4] - 1.0)])

    def cost(key) -> float:
        r = residuals(key)
        return float(r @ r)

    def rms(key) -> float:
        return math.sqrt(cost(key) / (2 * n))

    if progress is not None:
        say(f"{n} measurement(s) of {cases[0][1].gpu.name}: {3 * n} simulations first, then {n} per step, at most "
            f"{total} in all, {workers} at a time")
    x0 = x_of(key_of(np.log([lat0, bw0])))
    k0 = key_of(x0)
    # the first wave: the catalog's figures and a step of each (towards the middle of the range at a bound)
    probes = []
    for j in range(2):
        x = x0.copy()
        x[j] += FD_STEP if x0[j] + FD_STEP <= hi[j] else -FD_STEP
        probes.append(key_of(x))
    converged = False
    steps = 0
    with ThreadPoolExecutor(workers, thread_name_prefix="calibrate") as pool:
        run_points([k0, *probes], pool)
        if progress is not None:
            first = time.perf_counter() - started
            per_step = max(max(seconds), sum(seconds) / workers)
            left = max_points - 3
            say(f"the first {3 * n} simulations took {first:.0f} s; a step takes ~{per_step:.0f} s, at most {left} "
                f"more: at most ~{per_step * left:.0f} s more")
        r0 = residuals(k0)
        jac = np.column_stack([(residuals(k) - r0) / (x_of(k)[j] - x0[j]) for j, k in enumerate(probes)])
        best = min([k0, *probes], key=cost)
        mu = 0.0
        while len(cache) < max_points:
            xb, rb = x_of(best), residuals(best)
            scale = np.sqrt(np.maximum((jac * jac).sum(axis=0), 1e-30))
            a = np.vstack([jac, math.sqrt(mu) * np.diag(scale)]) if mu > 0 else jac
            b = np.concatenate([-rb, np.zeros(2)]) if mu > 0 else -rb
            d = np.linalg.lstsq(a, b, rcond=None)[0]
            xt = x_of(key_of(np.clip(xb + d, lo, hi)))
            d = xt - xb
            if np.all(np.abs(d) < TOLERANCE):
                converged = True
                break
            kt = key_of(xt)
            if kt in cache:  # been there: a step back to a point already simulated, damp and try again
                mu = max(4 * mu, 1.0)
                if mu > 1e6:
                    converged = True
                    break
                continue
            run_points([kt], pool)
            steps += 1
            rt = residuals(kt)
            jac = jac + np.outer(rt - rb - jac @ d, d) / float(d @ d)  # Broyden: the secant through both points
            if cost(kt) < cost(best):
                best, mu = kt, (mu / 4 if mu > 0.01 else 0.0)
                word = "better"
            else:
                mu = max(4 * mu, 1.0)
                word = "not better"
            say(f"step {steps}: lat_dram {kt[0]}, {kt[1]:.1f} B/cycle: RMS error {100 * rms(kt):.1f}% ({word}; "
                f"best {100 * rms(best):.1f}%)")
    say(f"{'converged' if converged else 'stopped at ' + str(max_points) + ' points'} after {steps} step(s), "
        f"{evals} simulations, {time.perf_counter() - started:.0f} s")
    lat_f, bw_f = best
    lat_f, bw_f = float(lat_f), float(bw_f)
    before = cache[k0]
    after = cache[best]
    points = [Point(c[0], c[3], c[4], before=b, after=a) for c, b, a in zip(cases, before, after)]
    notes = []
    if any(m.meta.get("synthetic") for m in measurements):
        notes.append("synthetic measurement(s) (from a simulation), not a real GPU run")
    if len(measurements) == 1:
        notes.append("one measurement constrains the two figures only partly; add a streaming and a "
                     "latency-bound kernel")
    if not converged:
        notes.append(f"the search stopped at its limit of {max_points} points before its steps fell below 0.5%")
    xf = x_of(best)
    for j, what in enumerate(("lat_dram", "dram_bytes_per_cycle")):
        if xf[j] <= lo[j] + 1e-9 or xf[j] >= hi[j] - 1e-9:
            notes.append(f"{what} ended at the bound of its search range ({lat_scale if j == 0 else bw_scale} "
                         "times the catalog's): the measurements may want a figure outside it")
    clock = float(np.median([m.clock_mhz for m in measurements]))
    return Calibration(gpu=cases[0][1].gpu.name, clock_mhz=clock,
                       before={"lat_dram": int(round(lat0)), "dram_bytes_per_cycle": round(bw0, 4)},
                       after={"lat_dram": int(round(lat_f)), "dram_bytes_per_cycle": round(bw_f, 4)},
                       points=points, evaluations=evals, notes=notes)
