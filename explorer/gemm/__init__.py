"""GEMM on the hardware and the memory hierarchy (Qt-free; every result is plain data)."""

from explorer.gemm.attention import (
    AttentionComparison,
    AttentionCost,
    AttentionStep,
    compare_attention,
    flash_hbm_bytes,
    naive_hbm_bytes,
)
from explorer.gemm.data import DTYPES, TENSOR_DTYPES, DTypeSpec, Figure, GpuThroughput, dtype_spec, peak_tflops, throughput
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
from explorer.gemm.roofline import BandwidthSlope, ComputeRoof, Roofline, RooflinePoint, gemm_points, roofline
from explorer.gemm.waves import TileSchedule, WaveStats, wave_stats
