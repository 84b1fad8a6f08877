"""The tiles a workload's TMA copies move: the scenario's ``[workload.tiles]`` table.

A ``tma`` step with ``operand = "a"`` copies one tile of the matrix the table ``[workload.tiles.a]``
describes, so its lines meet the L2 tags by their addresses (issue 29: the L2 hit rate of a tiled
GEMM comes from the tiles' reuse across blocks, not from a rate):

.. code-block:: toml

    [workload.tiles]
    grid = [32, 16]      # output tiles along M and along N: block b computes one tile (m, n)
    group = 8            # the blocks walk the tiles in groups of 8 tile rows, column by column (1: row-major)

    [workload.tiles.a]
    base = 0             # byte address of element (0, 0)
    pitch = 8192         # bytes from one row of the matrix to the next
    box = [128, 64]      # one tile: rows x columns, in elements
    element_bytes = 2
    at = ["m", "k"]      # the tile's (row, column) position: the block's m or n, or the K-step k
    multicast = 1        # the cluster's CTAs that share the tile, each copying a slice of its rows

Block ``b`` (grid order) computes output tile ``(m, n)`` = :func:`tile_position` (CUTLASS's threadblock
swizzle, Triton's GROUP_SIZE_M; ``group = 1`` is row-major: ``m = b // grid[1]``). In K-step ``k`` its copy
of operand ``a`` is the box whose row-tile and column-tile are the indices ``at`` names: rows
``[R * box[0], (R + 1) * box[0])`` and columns ``[C * box[1], (C + 1) * box[1])`` of the matrix, each row
``box[1] * element_bytes`` bytes at ``base + row * pitch + C * box[1] * element_bytes``. With ``multicast
= c`` the ``c`` CTAs that share the tile (the same index in ``at``, neighbours along the other of m and n)
each copy one slice of ``box[0] / c`` rows: the one ``index mod c`` picks (cluster multicast delivers every
slice to all of them; only the copy each CTA issues is modelled).

The limits are a CUDA tensor map's (``resources/sim_model.toml`` [tma], with their source).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.model.errors import InputError, reject_unknown_keys, require_int, shown
from explorer.model.sim_model import model_constants

AXES = ("m", "n", "k")  # the block's output tile row and column, and the K-step
TABLE_KEYS = ("grid", "group")  # every other key of [workload.tiles] is an operand's table
OPERAND_KEYS = ("base", "pitch", "box", "element_bytes", "at", "multicast")
MAX_OPERANDS = 8
MAX_NAME = 32
GRID_MAX = 2**31 - 1  # tiles along one side: no more than a launch has blocks (CUDA's grid.x limit)
# the simulator's data addresses stay below this (explorer.toolchain.addresses.HOT_BASE: its own regions lie above)
DATA_LIMIT = 1 << 40


def _limits() -> dict:
    return model_constants()["tma"]


def tile_position(block: int, tiles_m: int, tiles_n: int, group: int) -> tuple[int, int]:
    """(m, n) of the output tile block ``block`` computes when the blocks walk the tiles in groups of ``group``
    tile rows, column by column inside a group (CUTLASS's threadblock swizzle, Triton's GROUP_SIZE_M); group 1 is
    row-major grid order."""
    g, within = divmod(block, group * tiles_n)
    first = g * group
    rows = min(group, tiles_m - first)
    col, row = divmod(within, rows)
    return first + row, col


@dataclass(frozen=True)
class TmaOperand:
    """One matrix the copies read tiles of (see the module docstring)."""

    name: str
    base: int
    pitch: int
    box: tuple[int, int]  # rows x columns of one tile, in elements
    element_bytes: int
    at: tuple[str, str]  # the indices (AXES) that pick the tile's row-tile and column-tile
    multicast: int = 1

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of a tile."""
        return self.box[1] * self.element_bytes

    @property
    def copy_rows(self) -> int:
        """Rows one copy moves (a slice of the tile under multicast)."""
        return self.box[0] // self.multicast

    @property
    def copy_bytes(self) -> int:
        return self.copy_rows * self.row_bytes

    @property
    def share_axis(self) -> str | None:
        """The block index that picks a multicast slice: the one of m and n the tile does not depend on."""
        if self.multicast == 1:
            return None
        return "n" if "m" in self.at else "m"

    def to_dict(self) -> dict:
        d = {"base": self.base, "pitch": self.pitch, "box": list(self.box), "element_bytes": self.element_bytes,
             "at": list(self.at)}
        if self.multicast != 1:
            d["multicast"] = self.multicast
        return d


@dataclass(frozen=True)
class TmaTiles:
    """``[workload.tiles]``: the output tile grid the blocks walk and the operands their copies read."""

    grid: tuple[int, int]  # tiles along M, along N
    operands: tuple[TmaOperand, ...]
    group: int = 1

    @property
    def tiles(self) -> int:
        return self.grid[0] * self.grid[1]

    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.operands)

    def index(self, name: str) -> int:
        return self.names().index(name)

    def position(self, block: int) -> tuple[int, int]:
        return tile_position(block, self.grid[0], self.grid[1], self.group)

    def to_dict(self) -> dict:
        d: dict = {"grid": list(self.grid)}
        if self.group != 1:
            d["group"] = self.group
        for o in self.operands:
            d[o.name] = o.to_dict()
        return d


def _axes(value, where: str) -> tuple[str, str]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, str) and v in AXES for v in value)):
        raise InputError(where, f"{shown(value)} is not a tile position; give two of \"m\", \"n\" and \"k\" "
                                "(e.g. [\"m\", \"k\"]: the block's tile row m and the K-step k)")
    if value[0] == value[1]:
        raise InputError(where, f"{shown(list(value))} names {value[0]} twice; the tile's row and column need two "
                                "different indices")
    return value[0], value[1]


def _pair(value, where: str, lo: int, hi: int, what: str) -> tuple[int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InputError(where, f"{shown(value)} is not {what}")
    return (require_int(f"{where}[0]", value[0], lo=lo, hi=hi), require_int(f"{where}[1]", value[1], lo=lo, hi=hi))


def _parse_operand(name: str, data, where: str) -> TmaOperand:
    lim = _limits()
    align = int(lim["alignment_bytes"])
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table (base, pitch, box, element_bytes, at), got {shown(data)}")
    reject_unknown_keys(data, set(OPERAND_KEYS), where)
    for key in ("base", "pitch", "box", "element_bytes", "at"):
        if key not in data:
            raise InputError(f"{where}.{key}", "missing: a tile table needs base, pitch, box, element_bytes and at")
    base = require_int(f"{where}.base", data["base"], lo=0, hi=DATA_LIMIT - 1)
    if base % align:
        raise InputError(f"{where}.base", f"{base} is not a multiple of {align}: a tensor map's address is "
                                          f"{align}-byte aligned")
    eb = data["element_bytes"]
    sizes = [int(x) for x in lim["element_bytes"]]
    if isinstance(eb, bool) or eb not in sizes:
        raise InputError(f"{where}.element_bytes", f"{shown(eb)} bytes; choose {', '.join(map(str, sizes))} (the "
                                                   "tensor map's data types)")
    box = _pair(data["box"], f"{where}.box", 1, int(lim["box_max"]), "a tile shape [rows, columns]")
    row_bytes = box[1] * eb
    if row_bytes % align:
        raise InputError(f"{where}.box[1]", f"{box[1]} columns x {eb} bytes = {row_bytes} bytes per row, not a "
                                            f"multiple of {align} (a tensor map's box rows are)")
    stride_limit = int(lim["stride_limit_bytes"])
    pitch = require_int(f"{where}.pitch", data["pitch"], lo=row_bytes, hi=stride_limit - align)
    if pitch % align:
        raise InputError(f"{where}.pitch", f"{pitch} is not a multiple of {align} (a tensor map's row stride is)")
    at = _axes(data["at"], f"{where}.at")
    multicast = require_int(f"{where}.multicast", data.get("multicast", 1), lo=1, hi=int(lim["multicast_max"]))
    if multicast > 1:
        if "m" in at and "n" in at:
            raise InputError(f"{where}.multicast", f"a tile at {list(at)} belongs to one block; only a tile the "
                                                   "blocks of a tile row or column share can be multicast")
        if box[0] % multicast:
            raise InputError(f"{where}.multicast", f"{box[0]} rows do not split into {multicast} equal slices "
                                                   "(one per CTA of the cluster)")
    return TmaOperand(name, base, pitch, box, int(eb), at, multicast)


def parse_tiles(data, where: str = "workload.tiles") -> TmaTiles:
    """A validated TmaTiles from a ``[workload.tiles]`` table (InputError naming the field and the limit)."""
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table (grid, group and one table per operand), got {shown(data)}")
    if "grid" not in data:
        raise InputError(f"{where}.grid", "missing: the output tiles along M and along N, e.g. [32, 16]")
    grid = _pair(data["grid"], f"{where}.grid", 1, GRID_MAX, "a tile grid [tiles along M, tiles along N]")
    group = require_int(f"{where}.group", data.get("group", 1), lo=1, hi=grid[0])
    names = [k for k in data if k not in TABLE_KEYS]
    if not names:
        raise InputError(where, "no operand: add a table per matrix the tma steps copy, e.g. [workload.tiles.a]")
    if len(names) > MAX_OPERANDS:
        raise InputError(where, f"{len(names)} operands is above the maximum of {MAX_OPERANDS}")
    operands = []
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or not name.isascii() or len(name) > MAX_NAME:
            raise InputError(where, f"{shown(name)} is not an operand name (letters, digits and _, at most "
                                    f"{MAX_NAME} characters)")
        operands.append(_parse_operand(name, data[name], f"{where}.{name}"))
    return TmaTiles(grid, tuple(operands), group)


def _last_byte(o: TmaOperand, extent: dict) -> int:
    rows = extent[o.at[0]] * o.box[0]
    return o.base + (rows - 1) * o.pitch + extent[o.at[1]] * o.row_bytes - 1


def check_tiles(tiles: TmaTiles, loop: int, where: str = "workload.tiles") -> None:
    """Each operand's highest byte stays below DATA_LIMIT over the tiles the grid and the K-steps reach (the
    error names workload.loop where one K-step would stay below it)."""
    extent = {"m": tiles.grid[0], "n": tiles.grid[1], "k": loop}
    for o in tiles.operands:
        last = _last_byte(o, extent)
        if last < DATA_LIMIT:
            continue
        if "k" in o.at and _last_byte(o, {**extent, "k": 1}) < DATA_LIMIT:
            raise InputError(where.rpartition(".")[0] + ".loop",
                             f"{loop:,} K-steps: tile table {o.name}'s tiles reach byte {last:,}, above the "
                             f"simulator's address space of {DATA_LIMIT:,} bytes; use fewer K-steps")
        raise InputError(f"{where}.{o.name}", f"its tiles reach byte {last:,}, above the simulator's address "
                                              f"space of {DATA_LIMIT:,} bytes; use a smaller base or pitch")


def check_launch(tiles: TmaTiles, blocks: int, where: str = "launch.grid") -> None:
    """Every block of the launch computes a tile of the grid (a launch may stop before its last tiles)."""
    if blocks > tiles.tiles:
        raise InputError(where, f"{blocks:,} blocks but workload.tiles.grid = [{tiles.grid[0]}, {tiles.grid[1]}] "
                                f"holds {tiles.tiles:,} tiles, one per block; use at most {tiles.tiles:,} blocks "
                                "or a larger tile grid")
