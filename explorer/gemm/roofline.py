"""Roofline data for one GPU: a compute roof per data type and bandwidth slopes.

Attainable TFLOPS at arithmetic intensity I (FLOP/byte) under one roof and one
slope: min(peak, bandwidth x I). A kernel is memory-bound left of the ridge point
(peak / bandwidth) and compute-bound right of it. Plain data; the view draws it on
log-log axes.

:func:`roofline` gives the datasheet roofs and the HBM, L2 and shared-memory
slopes of a GPU; :func:`plan_roofs` gives, for one GEMM plan, every roof its
bound can name (the math units, issue slots, shared memory, L2, HBM, latency) at
the rates the plan uses, with the plan's intensity against each level.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.gemm.data import DTYPES, dtype_spec, throughput
from explorer.model.sim_model import model_constants
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import InputError


@dataclass(frozen=True)
class ComputeRoof:
    dtype: str
    label: str
    tflops: float
    tensor_core: bool
    source: str


@dataclass(frozen=True)
class BandwidthSlope:
    level: str  # "hbm", "l2" or "shared"
    label: str
    gbs: float  # GB/s (10^9 B/s)
    source: str


@dataclass(frozen=True)
class RooflinePoint:
    """A kernel on the roofline: its intensity against one level and its throughput."""

    label: str
    dtype: str
    level: str
    intensity: float  # FLOP/byte
    tflops: float


@dataclass(frozen=True)
class Roofline:
    gpu: str
    roofs: tuple[ComputeRoof, ...]  # supported data types only, FP32 first
    slopes: tuple[BandwidthSlope, ...]  # HBM, L2, shared memory

    def roof(self, dtype: str) -> ComputeRoof:
        for r in self.roofs:
            if r.dtype == dtype:
                return r
        raise InputError("dtype", f"{dtype!r} has no compute roof on {self.gpu}; "
                                  f"choose one of {', '.join(r.dtype for r in self.roofs)}")

    def slope(self, level: str) -> BandwidthSlope:
        for s in self.slopes:
            if s.level == level:
                return s
        raise InputError("level", f"{level!r} is not a bandwidth slope; choose one of "
                                  f"{', '.join(s.level for s in self.slopes)}")

    def ridge_point(self, dtype: str, level: str = "hbm") -> float:
        """FLOP/byte where the slope meets the roof."""
        return self.roof(dtype).tflops * 1e12 / (self.slope(level).gbs * 1e9)

    def attainable_tflops(self, intensity: float, dtype: str, level: str = "hbm") -> float:
        return min(self.roof(dtype).tflops, self.slope(level).gbs * 1e9 * intensity / 1e12)

    def curve(self, dtype: str, level: str, intensities) -> list[float]:
        """Attainable TFLOPS at each intensity (for a polyline)."""
        return [self.attainable_tflops(i, dtype, level) for i in intensities]

    def intensity_range(self, decades_below: int = 2, decades_above: int = 2) -> tuple[float, float]:
        """An x-axis range that shows every ridge point with some margin."""
        ridges = [self.ridge_point(r.dtype, s.level) for r in self.roofs for s in self.slopes]
        return min(ridges) / 10**decades_below, max(ridges) * 10**decades_above

    def to_json(self) -> dict:
        return {
            "gpu": self.gpu,
            "roofs": [{"dtype": r.dtype, "label": r.label, "tflops": r.tflops, "tensor_core": r.tensor_core,
                       "source": r.source} for r in self.roofs],
            "slopes": [{"level": s.level, "label": s.label, "gbs": s.gbs, "source": s.source} for s in self.slopes],
            "ridge_points": {f"{r.dtype}/{s.level}": self.ridge_point(r.dtype, s.level)
                             for r in self.roofs for s in self.slopes},
        }


def roofline(gpu: GpuSpec | str) -> Roofline:
    """The GPU's compute roofs (every data type it supports) and its HBM, L2 and shared-memory slopes."""
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    tp = throughput(gpu)
    roofs = []
    for d in DTYPES:
        fig = tp.peak_tflops[d]
        if fig.value > 0:
            spec = dtype_spec(d)
            roofs.append(ComputeRoof(d, spec.label, fig.value, spec.tensor_core, fig.source))
    slopes = (
        BandwidthSlope("hbm", f"{gpu.memory_kind} (device memory)", gpu.memory_bandwidth_gbs,
                       gpu.sources.get("memory_bandwidth_gbs", "gpus.toml")),
        BandwidthSlope("l2", "L2 cache", tp.l2_bandwidth_gbs.value, tp.l2_bandwidth_gbs.source),
        BandwidthSlope("shared", "shared memory (all SMs)", _shared_bpc() * gpu.sm_count * gpu.boost_clock_mhz / 1e3,
                       f"sim_model.toml [shared]: {_shared_bpc():g} B/clk per SM x {gpu.sm_count} SMs x "
                       f"{gpu.boost_clock_mhz:g} MHz"),
    )
    return Roofline(gpu.name, tuple(roofs), slopes)


def _shared_bpc() -> float:
    return float(model_constants()["shared"]["bytes_per_cycle"])


def gemm_points(plan) -> list[RooflinePoint]:
    """A GemmPlan on the roofline: at its HBM, L2 and shared-memory intensity, at the predicted throughput.

    The shared-memory intensity counts the bytes the plan charges to shared-memory
    bandwidth (the operand reads; see ``plan_roofs``).
    """
    label = f"{plan.m}x{plan.n}x{plan.k} {plan.dtype} ({plan.tile})"
    points = [RooflinePoint(label, plan.dtype, t.level, t.intensity, plan.achieved_tflops)
              for t in plan.traffic if t.level in ("hbm", "l2")]
    shared = next(r for r in plan_roofs(plan) if r["term"] == "shared")
    points.append(RooflinePoint(label, plan.dtype, "shared", shared["intensity"], plan.achieved_tflops))
    return points


ROOF_LABELS = {
    "tensor_core": "Tensor Cores (sustained)", "fp32_pipe": "FP32 pipes (sustained)", "issue": "instruction issue",
    "shared": "shared-memory bandwidth", "l2": "L2 bandwidth", "hbm": "HBM bandwidth",
    "latency": "latency (memory in flight)",
}


def plan_roofs(plan) -> list[dict]:
    """Every roof the plan's bound can name, at the rates the plan uses (plain dicts, for JSON and the view).

    Each roof has ``term`` (a key of ``plan.times``), ``kind`` (``compute``,
    ``bandwidth`` or ``latency``) and ``tflops``: the throughput this term alone
    would allow, flops / term time, so the lowest roof is the bound. Compute roofs
    add ``peak_tflops`` (the rate, flat on the roofline); bandwidth roofs add
    ``gbs`` (the slope) and ``intensity`` (the plan's FLOP per byte at that level,
    the x of its point). Wave quantization makes a roof's ``tflops`` lower than
    its rate alone gives.
    """
    gpu = get_gpu(plan.gpu)
    clock_hz = plan.clock.effective_mhz * 1e6
    consts = model_constants()
    bytes_at = {
        "shared": plan.shared_bytes_charged,
        "l2": plan.level("l2").bytes,
        "hbm": plan.hbm_bytes,
    }
    gbs = {
        "shared": _shared_bpc() * gpu.sm_count * clock_hz / 1e9,
        "l2": throughput(gpu).l2_bytes_per_clock.value * clock_hz / 1e9,
        "hbm": gpu.memory_bandwidth_gbs * float(consts["dram"]["efficiency"]),
    }
    issue_rate = gpu.arch.sub_partitions * gpu.sm_count * clock_hz  # warp-instructions per second
    out = []
    for term, seconds in plan.times.items():
        roof = {"term": term, "label": ROOF_LABELS[term], "tflops": plan.flops / seconds / 1e12,
                "seconds": seconds, "bound": term == plan.bound_term}
        if term in ("tensor_core", "fp32_pipe"):
            roof.update(kind="compute", peak_tflops=plan.sustained_peak_tflops)
        elif term == "issue":
            roof.update(kind="compute", peak_tflops=plan.flops / plan.total_instructions * issue_rate / 1e12)
        elif term == "latency":
            roof.update(kind="latency")
        else:
            roof.update(kind="bandwidth", gbs=gbs[term], intensity=plan.flops / bytes_at[term])
        out.append(roof)
    return out
