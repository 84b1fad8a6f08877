"""GEMM on the hardware and the memory hierarchy (Qt-free; every result is plain data).

For the views:

* :func:`plan_gemm` -> :class:`GemmPlan`: the main-loop path (``wgmma`` or
  ``mma.sync``, ``simt`` for FP32) and its :class:`Pipeline`, grid, tile
  resources and occupancy, waves, FLOPs, bytes per level, instruction mix, time
  terms and overheads, bound and why;
  ``plan.schedule()`` -> :class:`TileSchedule` (tile -> SM, wave);
  ``plan.to_json()`` is the ``warp-explorer gemm --json`` object.
* :func:`roofline` -> :class:`Roofline` (compute roofs per data type, HBM/L2/
  shared-memory slopes); :func:`gemm_points` places a plan on it and
  :func:`plan_roofs` lists every roof the plan's bound can name.
* :func:`memory_hierarchy` -> tuple of :class:`MemoryLevel`;
  :func:`access_pattern` / :func:`coalescing_table` for bytes per request.
* :func:`compare_attention` -> :class:`AttentionComparison` (naive vs flash).
* :func:`gemm_scenario` -> a :class:`explorer.model.scenario.Scenario` that the
  simulator runs (the GEMM's main loop).
"""

from explorer.gemm.attention import (
    AttentionComparison,
    AttentionCost,
    AttentionStep,
    compare_attention,
    flash_hbm_bytes,
    naive_hbm_bytes,
)
from explorer.gemm.data import (
    DTYPES,
    TENSOR_DTYPES,
    DTypeSpec,
    Figure,
    GpuThroughput,
    dtype_spec,
    peak_tflops,
    throughput,
)
from explorer.gemm.hierarchy import (
    SCOPES,
    AccessPattern,
    MemoryLevel,
    access_pattern,
    coalescing_table,
    hierarchy_json,
    memory_hierarchy,
)
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
from explorer.gemm.pipeline import PATHS, Pipeline, resolve_path
from explorer.gemm.roofline import (
    BandwidthSlope,
    ComputeRoof,
    Roofline,
    RooflinePoint,
    gemm_points,
    plan_roofs,
    roofline,
)
from explorer.gemm.scenario import gemm_scenario, gemm_workload
from explorer.gemm.waves import TileSchedule, WaveStats, wave_stats

__all__ = [
    "DTYPES",
    "PATHS",
    "SCOPES",
    "TENSOR_DTYPES",
    "AccessPattern",
    "AttentionComparison",
    "AttentionCost",
    "AttentionStep",
    "BandwidthSlope",
    "ComputeRoof",
    "DTypeSpec",
    "Figure",
    "GemmPlan",
    "GpuThroughput",
    "LevelTraffic",
    "MemoryLevel",
    "Pipeline",
    "Roofline",
    "RooflinePoint",
    "Tile",
    "TileResources",
    "TileSchedule",
    "WaveStats",
    "access_pattern",
    "coalescing_table",
    "compare_attention",
    "dtype_spec",
    "flash_hbm_bytes",
    "gemm_points",
    "gemm_scenario",
    "gemm_workload",
    "hierarchy_json",
    "memory_hierarchy",
    "naive_hbm_bytes",
    "parse_tile",
    "parse_warp_tile",
    "peak_tflops",
    "plan_gemm",
    "plan_roofs",
    "resolve_path",
    "roofline",
    "throughput",
    "tile_resources",
    "wave_stats",
]
