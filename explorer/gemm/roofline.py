"""Roofline data for one GPU: a compute roof per data type and bandwidth slopes.

Attainable TFLOPS at arithmetic intensity I (FLOP/byte) under one roof and one
slope: min(peak, bandwidth x I). A kernel is memory-bound left of the ridge point
(peak / bandwidth) and compute-bound right of it. Plain data; the view draws it on
log-log axes.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.gemm.data import DTYPES, dtype_spec, throughput
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
    level: str  # "hbm" or "l2"
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
    slopes: tuple[BandwidthSlope, ...]  # HBM, then L2

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
    """The GPU's compute roofs (every data type it supports) and its HBM and L2 slopes."""
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
    )
    return Roofline(gpu.name, tuple(roofs), slopes)


def gemm_points(plan) -> list[RooflinePoint]:
    """A GemmPlan on the roofline: at its HBM and its L2 intensity, at the predicted throughput."""
    label = f"{plan.m}x{plan.n}x{plan.k} {plan.dtype} ({plan.tile})"
    return [RooflinePoint(label, plan.dtype, t.level, t.intensity, plan.achieved_tflops)
            for t in plan.traffic if t.level in ("hbm", "l2")]
