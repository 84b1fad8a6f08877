"""The GEMM and Memory views' state behind the widgets (Qt-free): judge, compute, sample.

* :func:`evaluate_gemm` turns the GEMM inputs' texts into a ``GemmPlan`` (the
  core's ``plan_gemm``) or an error message per field, marking every bad size
  field at once (the core stops at the first one);
* :func:`wave_image` / :func:`sm_image` give the output matrix's tile grid as a
  small integer array (one cell per tile, or a regular sample of the tiles when
  there are too many to draw one by one), using the core's ``TileSchedule``;
* :func:`explorer_scenario` sizes the GEMM's scenario for an interactive
  simulation (the whole grid and K loop when that is cheap, a shorter K loop
  otherwise);
* :func:`evaluate_attention` is the same judging for the attention comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.gemm import (
    AttentionComparison,
    GemmPlan,
    TileSchedule,
    compare_attention,
    gemm_scenario,
    dtype_spec,
    parse_tile,
    parse_warp_tile,
    plan_gemm,
    resolve_path,
    tile_resources,
)
from explorer.gemm.data import SCHEDULES
from explorer.gemm.mapper import MAX_DIM, MAX_STAGES
from explorer.gemm.wgmma import parse_cluster
from explorer.model.catalog import get_gpu
from explorer.model.errors import InputError, require_int
from explorer.model.scenario import Scenario

DEFAULT_DTYPE = "bf16"
# Text fields of the GEMM inputs; an empty knob field means "the default".
GEMM_FIELDS = ("m", "n", "k", "tile", "warps", "warp_tile", "cluster", "stages")
# Choices (combo boxes); "" means "the default" (the GPU's path, the path's schedule, A from shared memory).
GEMM_CHOICES = ("path", "schedule", "a_source")
GEMM_DEFAULTS = {"m": "4096", "n": "4096", "k": "4096", "tile": "", "warps": "", "warp_tile": "", "cluster": "",
                 "stages": "", "path": "", "schedule": "", "a_source": ""}
OPTIONAL = ("tile", "warps", "warp_tile", "cluster", "stages")
# The knobs each main-loop path has (``plan_gemm`` refuses the others' knobs); the tile and stages are common.
PATH_KNOBS = {"wgmma": ("schedule", "cluster", "a_source"), "mma.sync": ("warps", "warp_tile"),
              "simt": ("warps", "warp_tile")}
KNOBS = ("warps", "warp_tile", "schedule", "cluster", "a_source")
ATTENTION_FIELDS = ("seq_len", "head_dim")
ATTENTION_DEFAULTS = {"seq_len": "4096", "head_dim": "128"}

MAX_CELLS = 512  # tiles drawn one by one per side of the grid; beyond that, a regular sample
SIM_BUDGET = 70_000  # tiles x K-steps that simulate in a few seconds


@dataclass(frozen=True)
class GemmEvaluation:
    plan: GemmPlan | None
    errors: dict  # field -> message (fields: gpu, dtype, GEMM_FIELDS and GEMM_CHOICES)
    path: str  # the main-loop path whose knobs apply: the chosen one, else the GPU's default


def _clean(raw: dict) -> dict:
    return {name: str(raw.get(name, "") or "").strip() for name in GEMM_FIELDS + GEMM_CHOICES}


def knob_path(gpu: str, dtype: str, chosen: str = "") -> str:
    """The path whose knobs the inputs show: the chosen one, else the core's default for this GPU and type."""
    if chosen in PATH_KNOBS:
        return chosen
    try:
        return resolve_path(get_gpu(gpu), dtype_spec(dtype))
    except (InputError, KeyError):  # an unknown GPU or type is marked by its own field
        return "mma.sync"


def _core_inputs(texts: dict, path: str) -> dict:
    """The knobs ``plan_gemm`` takes for ``path``: the chosen path, the common knobs and that path's own."""
    kw = {"tile": texts["tile"] or None, "stages": texts["stages"] or None, "path": texts["path"] or None}
    for name in PATH_KNOBS[path]:
        kw[name] = texts[name] or None
    return kw


def evaluate_gemm(gpu: str, dtype: str, raw: dict) -> GemmEvaluation:
    """The plan for these texts, or the core's message for every field it refuses.

    The sizes M, N, K are judged one by one (so three bad sizes show three
    messages); the path and its knobs (the tile, stages, and warps and warp tile
    for mma.sync, or schedule, cluster and A source for wgmma) together by the
    mapper. Knobs of the other path are ignored: their fields are hidden.
    """
    texts = _clean(raw)
    path = knob_path(gpu, dtype, texts["path"])
    errors: dict[str, str] = {}
    for name in ("m", "n", "k"):
        try:
            require_int(name, texts[name], lo=1, hi=MAX_DIM)
        except InputError as exc:
            errors[name] = exc.message if texts[name] else "enter a whole number"
    checks = {"tile": parse_tile, "warp_tile": parse_warp_tile, "cluster": parse_cluster,
              "warps": lambda v: require_int("warps", v, lo=1, hi=32),
              "stages": lambda v: require_int("stages", v, lo=1, hi=MAX_STAGES)}
    for name, check in checks.items():
        if texts[name] and (name in ("tile", "stages") or name in PATH_KNOBS[path]):
            try:
                check(texts[name])
            except InputError as exc:
                errors[name] = exc.message
    kw = _core_inputs(texts, path)
    if errors:
        if not any(name in errors for name in OPTIONAL):  # the knobs can be judged without M, N, K
            try:
                tile_resources(gpu, dtype, **kw)
            except InputError as exc:
                errors[_field_of(exc)] = exc.message
        return GemmEvaluation(None, errors, path)
    try:
        plan = plan_gemm(gpu, texts["m"], texts["n"], texts["k"], dtype, **kw)
    except InputError as exc:
        return GemmEvaluation(None, {_field_of(exc): exc.message}, path)
    return GemmEvaluation(plan, {}, path)


def _field_of(exc: InputError) -> str:
    """The input that shows a core error (a message about something without a field goes under the tile)."""
    known = GEMM_FIELDS + GEMM_CHOICES + ("gpu", "dtype")
    return exc.field if exc.field in known else "tile"


def lesson_texts(inputs: dict) -> tuple[dict, str | None, str | None]:
    """A lesson step's ``gemm`` table -> (field and choice texts, gpu or None, dtype or None).

    Fields the step leaves out fall back to the defaults (an unset knob means
    the default: the GPU's path, the data type's tile), so a step always shows
    the same thing.
    """
    texts = dict(GEMM_DEFAULTS)
    for name in GEMM_FIELDS + GEMM_CHOICES:
        if name in inputs:
            value = inputs[name]
            if isinstance(value, (list, tuple)):
                value = "x".join(str(v) for v in value)
            texts[name] = str(value).lower() if name in GEMM_CHOICES else str(value)
    gpu = inputs.get("gpu")
    dtype = inputs.get("dtype")
    return texts, (str(gpu) if gpu is not None else None), (str(dtype).lower() if dtype is not None else None)


def plan_inputs(plan: GemmPlan, **changes) -> dict:
    """Every knob of ``plan`` as ``plan_gemm`` keywords (the values in use, the path's own knobs only)."""
    r, p = plan.resources, plan.pipeline
    kw = {"tile": str(r.tile), "stages": r.stages, "path": plan.path}
    if plan.path == "wgmma":
        kw["cluster"] = f"{p.cluster[0]}x{p.cluster[1]}"
        kw["a_source"] = p.a_source
        if p.schedule in SCHEDULES:
            kw["schedule"] = p.schedule
    else:
        kw["warp_tile"] = f"{r.warp_tile_m}x{r.warp_tile_n}"
    kw.update(changes)
    return kw


# ---------------------------------------------------------------------------
# The tile grid
# ---------------------------------------------------------------------------
def sample_axis(count: int, limit: int = MAX_CELLS) -> np.ndarray:
    """Indices 0..count-1, or ``limit`` of them evenly spread (first and last included)."""
    if count <= limit:
        return np.arange(count, dtype=np.int64)
    return np.unique(np.round(np.linspace(0, count - 1, limit)).astype(np.int64))


def tile_indices(schedule: TileSchedule, limit: int = MAX_CELLS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, cols, tile index per cell): the tiles drawn (all of them, or a regular sample)."""
    rows = sample_axis(schedule.tiles_m, limit)
    cols = sample_axis(schedule.tiles_n, limit)
    return rows, cols, rows[:, None] * np.int64(schedule.tiles_n) + cols[None, :]


def wave_image(schedule: TileSchedule, limit: int = MAX_CELLS) -> np.ndarray:
    """int64[rows, cols]: the wave of each drawn tile (``schedule.wave_of``, vectorised)."""
    _r, _c, idx = tile_indices(schedule, limit)
    return idx // np.int64(schedule.slots)


def sm_image(schedule: TileSchedule, limit: int = MAX_CELLS) -> np.ndarray:
    """int64[rows, cols]: the SM of each drawn tile (``schedule.sm_of``, vectorised)."""
    _r, _c, idx = tile_indices(schedule, limit)
    return (idx % np.int64(schedule.slots)) % np.int64(schedule.sm_count)


def wave_sms(schedule: TileSchedule, wave: int) -> tuple[int, int]:
    """(tiles, SMs busy) in one wave."""
    tiles = len(schedule.tiles_in_wave(wave))
    return tiles, min(schedule.sm_count, tiles)


# ---------------------------------------------------------------------------
# GEMM -> the Explorer
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SentScenario:
    scenario: Scenario
    tiles: int  # CTAs simulated
    k_steps: int  # K-steps simulated per CTA
    shortened: bool
    # the plan of exactly what is simulated (the GEMM's own, or one with the shorter K), or None when the
    # grid was cut too: its mainloop_at_simulator_clock is what the simulated time compares with
    simulated_plan: GemmPlan | None = None


def explorer_scenario(plan: GemmPlan, budget: int = SIM_BUDGET) -> SentScenario:
    """The GEMM's main loop as a scenario the Explorer simulates in seconds.

    Every tile (so the waves are the GEMM's own) and the whole K loop when
    tiles x K-steps is within ``budget``; otherwise fewer K-steps (at least 4),
    and if the grid alone is far beyond the budget, the first 16 waves' tiles.
    """
    tiles, k_steps = plan.tiles, plan.k_steps
    if tiles * k_steps <= budget:
        return SentScenario(gemm_scenario(plan), tiles, k_steps, False, plan)
    k = max(4, min(k_steps, budget // tiles))
    max_tiles = None
    if tiles * k > 4 * budget:
        max_tiles = min(tiles, 16 * plan.waves.slots)
    scenario = gemm_scenario(plan, k_steps=k, max_tiles=max_tiles)
    simulated = None
    if max_tiles is None or max_tiles == tiles:
        simulated = plan_gemm(plan.gpu, plan.m, plan.n, k * plan.tile.bk, plan.dtype, **plan_inputs(plan))
    return SentScenario(scenario, max_tiles or tiles, k, True, simulated)


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class AttentionEvaluation:
    comparison: AttentionComparison | None
    errors: dict


def evaluate_attention(gpu: str, dtype: str, raw: dict) -> AttentionEvaluation:
    texts = {name: str(raw.get(name, "")).strip() for name in ATTENTION_FIELDS}
    errors: dict[str, str] = {}
    for name in ATTENTION_FIELDS:
        if not texts[name]:
            errors[name] = "enter a whole number"
            continue
        try:
            require_int(name, texts[name], lo=1)
        except InputError as exc:
            errors[name] = exc.message
    if errors:
        return AttentionEvaluation(None, errors)
    try:
        comparison = compare_attention(gpu, texts["seq_len"], texts["head_dim"], dtype=dtype)
    except InputError as exc:
        field = exc.field if exc.field in ATTENTION_FIELDS or exc.field == "dtype" else "head_dim"
        return AttentionEvaluation(None, {field: exc.message})
    return AttentionEvaluation(comparison, {})
