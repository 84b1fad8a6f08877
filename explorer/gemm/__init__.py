"""GEMM on the hardware and the memory hierarchy (Qt-free; every result is plain data)."""

from explorer.gemm.data import DTYPES, TENSOR_DTYPES, DTypeSpec, Figure, GpuThroughput, dtype_spec, peak_tflops, throughput
from explorer.gemm.mapper import (
    GemmPlan,
    LevelTraffic,
    Tile,
    TileResources,
    parse_tile,
    parse_warp_tile,
    plan_gemm,
    tile_resources,
)
from explorer.gemm.waves import TileSchedule, WaveStats, wave_stats

__all__ = [
    "DTYPES", "DTypeSpec", "Figure", "GemmPlan", "GpuThroughput", "LevelTraffic", "TENSOR_DTYPES", "Tile",
    "TileResources", "TileSchedule", "WaveStats", "dtype_spec", "parse_tile", "parse_warp_tile", "peak_tflops",
    "plan_gemm", "throughput", "tile_resources", "wave_stats",
]
