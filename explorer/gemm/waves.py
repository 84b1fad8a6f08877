"""Tiles -> CTAs -> SMs -> waves: the arithmetic of wave quantization, and which
SM computes which output tile in which wave (an idealized dispatcher).

A GPU with S SMs that each hold B resident CTAs runs S x B tiles at once: one
*wave*. T tiles need ceil(T / (S x B)) waves; when T is just above a multiple of
S x B the last wave is almost empty but still costs a full wave's time (133 tiles
on 132 SMs with one CTA each: 2 waves for 1.008 waves of work, efficiency 50%).
"""

from __future__ import annotations

from dataclasses import dataclass


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


def panels_touched(first: int, stop: int, tiles_n: int) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Rows and column ranges of the tile grid that tiles [first, stop) touch.

    Returns ``((row_first, row_last), [(col_first, col_last), ...])`` (inclusive);
    the columns are one range, or two when the run of tiles wraps around a row.
    """
    last = stop - 1
    rows = (first // tiles_n, last // tiles_n)
    if stop - first >= tiles_n:
        return rows, [(0, tiles_n - 1)]
    c0, c1 = first % tiles_n, last % tiles_n
    if c0 <= c1:
        return rows, [(c0, c1)]
    return rows, [(c0, tiles_n - 1), (0, c1)]


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


__all__ = ["TileSchedule", "WaveStats", "ceil_div", "panels_touched", "wave_stats"]
