"""Tiles -> CTAs -> SMs -> waves: the arithmetic of wave quantization, and which
SM computes which output tile in which wave (an idealized dispatcher).

A GPU with S SMs that each hold B resident CTAs runs S x B tiles at once: one
*wave*. T tiles need ceil(T / (S x B)) waves; when T is just above a multiple of
S x B the last wave is almost empty but still costs a full wave's time (133 tiles
on 132 SMs with one CTA each: 2 waves for 1.008 waves of work, efficiency 50%).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.model.tma_tiles import tile_position


@dataclass(frozen=True)
class WaveStats:
    tiles: int
    sm_count: int
    blocks_per_sm: int
    slots: int  # tiles one wave holds: sm_count x blocks_per_sm
    waves: float  # tiles / slots (fractional)
    full_waves: int  # ceil(waves): what the GPU pays for
    efficiency: float  # tiles / (full_waves x slots)
    last_wave_tiles: int  # tiles in the last wave (slots when it is full)

    @property
    def idle_slots(self) -> int:
        """CTA slots left empty over the whole run (the cost of quantization)."""
        return self.full_waves * self.slots - self.tiles

    def explain(self) -> str:
        """One sentence for a lecture slide or a tooltip."""
        return (
            f"{self.tiles} tiles on {self.sm_count} SMs x {self.blocks_per_sm} CTA(s) = {self.slots} slots per wave: "
            f"{self.waves:.3f} waves of work take {self.full_waves} wave(s); the last wave runs "
            f"{self.last_wave_tiles} of {self.slots} slots, so {100 * self.efficiency:.1f}% of the slot-time is used"
        )

    def to_json(self) -> dict:
        return {
            "tiles": self.tiles,
            "sm_count": self.sm_count,
            "blocks_per_sm": self.blocks_per_sm,
            "slots_per_wave": self.slots,
            "waves": self.waves,
            "full_waves": self.full_waves,
            "wave_efficiency": self.efficiency,
            "last_wave_tiles": self.last_wave_tiles,
            "idle_slots": self.idle_slots,
        }


def wave_stats(tiles: int, sm_count: int, blocks_per_sm: int) -> WaveStats:
    """Waves and wave efficiency for ``tiles`` CTAs (all of equal duration)."""
    if tiles < 1 or sm_count < 1 or blocks_per_sm < 1:
        raise ValueError("tiles, sm_count and blocks_per_sm must be >= 1")
    slots = sm_count * blocks_per_sm
    full = -(-tiles // slots)
    last = tiles - (full - 1) * slots
    return WaveStats(
        tiles=tiles,
        sm_count=sm_count,
        blocks_per_sm=blocks_per_sm,
        slots=slots,
        waves=tiles / slots,
        full_waves=full,
        efficiency=tiles / (full * slots),
        last_wave_tiles=last,
    )


@dataclass(frozen=True)
class TileSchedule:
    """Which SM computes which output tile in which wave.

    Model: CTAs are dispatched in grid order (tile t = row x tiles_n + col, the
    order of ``blockIdx.x``); wave w holds tiles [w x slots, (w+1) x slots); inside
    a wave, consecutive tiles go to consecutive SMs, then the next CTA slot of each
    SM. Real hardware dispatches by GPC and when a CTA finishes, so a simulation's
    block records (``SimResult.blocks``) are the measured counterpart.
    """

    tiles_m: int
    tiles_n: int
    sm_count: int
    blocks_per_sm: int

    @property
    def tiles(self) -> int:
        return self.tiles_m * self.tiles_n

    @property
    def slots(self) -> int:
        return self.sm_count * self.blocks_per_sm

    @property
    def waves(self) -> int:
        return -(-self.tiles // self.slots)

    def position(self, tile: int) -> tuple[int, int]:
        """(row, col) of a tile in the output matrix's tile grid."""
        return divmod(tile, self.tiles_n)

    def tile_index(self, row: int, col: int) -> int:
        return row * self.tiles_n + col

    def wave_of(self, tile: int) -> int:
        return tile // self.slots

    def sm_of(self, tile: int) -> int:
        return (tile % self.slots) % self.sm_count

    def slot_of(self, tile: int) -> int:
        """The CTA slot on its SM (0 .. blocks_per_sm - 1)."""
        return (tile % self.slots) // self.sm_count

    def tiles_in_wave(self, wave: int) -> range:
        return range(wave * self.slots, min((wave + 1) * self.slots, self.tiles))

    def wave_grid(self) -> list[list[int]]:
        """tiles_m x tiles_n: the wave of each tile (color the output matrix by it)."""
        return [[self.wave_of(r * self.tiles_n + c) for c in range(self.tiles_n)] for r in range(self.tiles_m)]

    def sm_grid(self) -> list[list[int]]:
        """tiles_m x tiles_n: the SM of each tile."""
        return [[self.sm_of(r * self.tiles_n + c) for c in range(self.tiles_n)] for r in range(self.tiles_m)]

    def to_json(self) -> dict:
        return {"tiles_m": self.tiles_m, "tiles_n": self.tiles_n, "sm_count": self.sm_count,
                "blocks_per_sm": self.blocks_per_sm, "waves": self.waves}


def grouped_position(tile: int, tiles_m: int, tiles_n: int, group: int) -> tuple[int, int]:
    """(row, col) of the tile-th tile when tiles are walked in groups of ``group`` tile rows, column by column
    inside a group (CUTLASS's threadblock swizzle, Triton's GROUP_SIZE_M); group 1 is row-major grid order. The
    simulator's TMA tiles walk the same order (one definition: ``explorer.model.tma_tiles.tile_position``)."""
    return tile_position(tile, tiles_m, tiles_n, group)


def wave_panels(first: int, stop: int, tiles_m: int, tiles_n: int,
                group: int = 1) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Tile rows and tile columns that tiles [first, stop) of the grouped order touch.

    Returns ``(row_ranges, col_ranges)``, each a sorted list of disjoint inclusive
    ranges (an A row-panel per tile row, a B column-panel per tile column).
    """
    rows: list[tuple[int, int]] = []
    cols: list[tuple[int, int]] = []
    span = group * tiles_n
    i = first
    while i < stop:
        g = i // span
        base = g * span
        end = min(stop, base + span)
        r_first = g * group
        rg = min(group, tiles_m - r_first)
        a, b = i - base, end - base
        cols.append((a // rg, (b - 1) // rg))
        if b - a >= rg:
            rows.append((r_first, r_first + rg - 1))
        else:
            r0, r1 = a % rg, (b - 1) % rg
            if r0 <= r1:
                rows.append((r_first + r0, r_first + r1))
            else:
                rows += [(r_first + r0, r_first + rg - 1), (r_first, r_first + r1)]
        i = end
    return _merge(rows), _merge(cols)


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


__all__ = ["TileSchedule", "WaveStats", "ceil_div", "grouped_position", "wave_panels", "wave_stats"]
