"""CTA tiles and what one CTA needs: parsing, and the resources record both paths fill.

Shared by the mma.sync mapper (``explorer.gemm.mapper``) and the wgmma path
(``explorer.gemm.wgmma``), so neither imports the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from explorer.gemm.pipeline import Pipeline
from explorer.model.errors import InputError, require_int
from explorer.occupancy import OccupancyResult
from explorer.texts.errors import ERRORS, quoting

MAX_TILE_DIM = 1024
MAX_STAGES = 8


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tile:
    bm: int
    bn: int
    bk: int

    def __str__(self) -> str:
        return f"{self.bm}x{self.bn}x{self.bk}"


_SEP = re.compile(r"\s*[x×X*,]\s*")


def parse_dims(value, field_name: str, count: int, example: str) -> tuple[int, ...]:
    if isinstance(value, str):
        parts = _SEP.split(value.strip())
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        raise InputError(field_name, ERRORS("not_size_like", value=repr(value), example=example))
    if len(parts) != count or any(p == "" for p in parts):
        raise InputError(field_name, quoting("not_size_like_count", repr(value), example=example, count=count))
    return tuple(require_int(field_name, p, lo=1, hi=MAX_TILE_DIM) for p in parts)


def parse_tile(value, field_name: str = "tile") -> Tile:
    """``"128x128x64"`` (or a Tile, or three numbers) -> Tile; each side 1..1024."""
    if isinstance(value, Tile):
        value = (value.bm, value.bn, value.bk)
    return Tile(*parse_dims(value, field_name, 3, "128x128x64"))


def parse_warp_tile(value, field_name: str = "warp_tile") -> tuple[int, int]:
    """``"64x64"`` -> (64, 64)."""
    return parse_dims(value, field_name, 2, "64x64")  # type: ignore[return-value]


# ---------------------------------------------------------------------------
# Tile -> warps -> registers, shared memory, occupancy
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TileResources:
    """What one CTA of the GEMM needs, and the occupancy that gives.

    On the mma.sync / SIMT path every warp computes a warp tile of the CTA tile
    (warps = warps_m x warps_n). On the wgmma path ``warps`` counts every warp of
    the CTA (producer included), ``warps_m x warps_n`` the consumer warps of one
    tile with their ``warp_tile`` (16 rows of a warpgroup's 64), the register
    breakdown is a consumer thread's, and ``pipeline.register_budget`` holds the
    per-warpgroup budgets (setmaxnreg).
    """

    dtype: str
    tile: Tile
    warps: int
    warps_m: int
    warps_n: int
    warp_tile_m: int
    warp_tile_n: int
    thread_tile_m: int  # FP32 (SIMT) only: outputs per thread along M and N; 0 otherwise
    thread_tile_n: int
    stages: int
    registers_per_thread: int
    register_breakdown: dict  # accumulators, fragments, overhead
    shared_bytes_per_block: int
    shared_breakdown: dict  # a_per_stage, b_per_stage, stages
    occupancy: OccupancyResult
    notes: tuple[str, ...] = ()
    pipeline: Pipeline | None = None  # how the path moves the operands (always set by the mapper)

    @property
    def threads(self) -> int:
        return self.warps * 32

    @property
    def blocks_per_sm(self) -> int:
        return self.occupancy.active_blocks_per_sm
