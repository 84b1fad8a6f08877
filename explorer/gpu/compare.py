"""A simulation beside a measurement: the same figures, their error and a plain word, for every view.

One join serves the CLI (``measure --compare``), the window's measurement panel and the fidelity test
(``tests/sim/test_fidelity.py``), so a user never computes an error and the three never disagree.

What is simulated (:func:`comparison_setup`): the measured launch as it ran, not the scenario as written:

- the measured GPU, the compiled kernel's registers and shared memory (``resim_scenario``);
- L2 full of dirty lines when the launch followed an L2 flush by writing (the device check writes twice the
  L2's size before each timed launch): the kernel's first allocations then write them back
  (``SimParams.l2_dirty_bytes``);
- the launch's own placement of its first wave (which SM got which block: the GPC the hardware starts from
  changes between launches, so it is a fact of this launch, like its clock: ``explorer.sim.dispatch``).

What each figure is (docs/real-gpu.md, "What a duration is", says the same):

- ``warp_span_cycles``: from the first warp's start to the last warp's end. The measurement's records give
  exactly this (``%globaltimer``/``clock64`` at each warp's entry and exit); the simulation's residency
  events likewise. This is the duration the verdict is about.
- ``kernel_cycles`` (simulated only): from the launch's first block placement to the kernel's end, its
  posted stores complete: what Nsight Compute's ``gpu__time_duration`` measures, less the front end's own
  start-up, which the simulator does not model. The measured events time (``kernel_time_us``) also holds the
  launch call and the timer's own resolution, so it is shown beside, not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from explorer.texts import Translate, english
from explorer.texts.figures import COMPARE_NOTES, COMPARED_LABELS, comparison_lines, error_text
from explorer.texts.numbers import ENGLISH, Style

RELATIVE_WORDS = ((0.05, "within 5%"), (0.15, "within 15%"))
POINT_WORDS = ((0.02, "within 2 points"), (0.05, "within 5 points"))
OFF = "off"


@dataclass(frozen=True)
class Figure:
    """One compared quantity. ``unit``: ``cycles`` / ``warps`` / ``blocks`` / ``bytes`` / ``share`` (a rate shown
    as a percentage) are compared relatively; ``fraction`` (an occupancy, a hit rate) in percentage points;
    ``sms`` (SMs alike) not at all."""

    key: str
    label: str
    simulated: float | None
    measured: float | None
    unit: str

    @property
    def error(self) -> float | None:
        """sim / measured - 1 (relative units) or sim - measured (fractions: x100 = points); None if unknown."""
        if self.simulated is None or self.measured is None:
            return None
        if self.unit == "fraction":
            return float(self.simulated) - float(self.measured)
        if self.unit == "sms":
            return None
        if not self.measured:
            return None
        return float(self.simulated) / float(self.measured) - 1.0

    @property
    def word(self) -> str:
        """The verdict a reader needs: within 5% / within 15% / off (points for fractions); '' if none."""
        e = self.error
        if e is None:
            return ""
        words = POINT_WORDS if self.unit == "fraction" else RELATIVE_WORDS
        for limit, word in words:
            if abs(e) <= limit + 1e-12:
                return word
        return OFF

    def error_text(self, style: Style | None = ENGLISH) -> str:
        """The error as the CLI writes it: +3.2% or -1.5 pt (explorer.texts.figures); '' if unknown."""
        return error_text(self.error, self.unit, style)

    def to_json(self) -> dict:
        return {"simulated": self.simulated, "measured": self.measured, "unit": self.unit, "error": self.error,
                "verdict": self.word}


@dataclass
class Comparison:
    """Every figure, and the per-SM detail the overlay draws on the hardware's SM numbering."""

    figures: list[Figure]
    result: object  # the SimResult
    blocks_per_sm_simulated: np.ndarray
    blocks_per_sm_measured: np.ndarray
    placed_as_measured: int  # blocks of the first wave the simulation placed on the measured SM
    dispatch_note: str
    notes: list[str] = field(default_factory=list)

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.key == key)

    @property
    def headline(self) -> Figure:
        """The duration: the figure a verdict on the whole comparison is about."""
        return self.figure("warp_span_cycles")

    def to_json(self) -> dict:
        return {
            "figures": {f.key: f.to_json() for f in self.figures},
            "blocks_per_sm": {"simulated": self.blocks_per_sm_simulated.tolist(),
                              "measured": self.blocks_per_sm_measured.tolist()},
            "placed_as_measured": self.placed_as_measured,
            "dispatch": self.dispatch_note,
            "notes": list(self.notes),
        }

    def text(self, translate: Translate = english, style: Style | None = ENGLISH) -> list[str]:
        """The CLI's lines (label, simulated, measured, error, word; the placement; the notes), or the window's in
        its language and number style (explorer.texts.figures.comparison_lines)."""
        return comparison_lines(self, translate, style)


def measured_l2_dirty_bytes(measurement) -> int:
    """Dirty bytes L2 holds when the measured kernel starts: the flush's (``l2_flush_bytes`` written right before
    the timed launch) as far as L2 holds them (``SimParams`` caps it at the L2's size)."""
    timing = measurement.meta.get("timing", {}) if isinstance(measurement.meta, dict) else {}
    return int(timing.get("l2_flush_bytes") or 0)


def comparison_setup(measurement):
    """(scenario, params, placement) that simulate the measured launch as it ran (see the module docstring)."""
    from explorer.gpu.measure import resim_scenario
    from explorer.sim.dispatch import measured_placement
    from explorer.sim.engine import scenario_program
    from explorer.sim.loop_program import lower
    from explorer.sim.params import params_for

    scenario = resim_scenario(measurement)
    program, _notice = scenario_program(scenario)
    params = params_for(scenario, uses_tensor_cores=lower(program).uses_tensor_cores)
    params = replace(params, l2_dirty_bytes=measured_l2_dirty_bytes(measurement))
    placement = measured_placement(measurement, scenario.gpu.sm_count)
    return scenario, params, placement, program


def warp_span(result) -> int:
    """Cycles from the first warp's start to the last warp's end (the residency events)."""
    res = result.residency
    if not len(res.time):
        return 0
    return int(res.time[res.delta < 0].max() - res.time[res.delta > 0].min())


def _max_live(residency, sm_count: int) -> int:
    best = 0
    for sm in range(sm_count):
        mask = residency.sm == sm
        if mask.any():
            best = max(best, int(np.cumsum(residency.delta[mask].astype(np.int64)).max(initial=0)))
    return best


def compare(measurement, *, progress=None, cancel=None, result=None) -> Comparison:
    """Simulate the measured launch (or take ``result``, a run of :func:`comparison_setup`'s inputs) and join."""
    from explorer.sim import simulate

    scenario, params, placement, program = comparison_setup(measurement)
    if result is None:
        result = simulate(scenario, params=params, placement=placement, program=program, progress=progress,
                          cancel=cancel)
    m = measurement
    ms = m.summary()
    s = result.summary()
    n = scenario.gpu.sm_count
    sim_blocks = result.blocks
    bps_s = np.bincount(sim_blocks.sm, minlength=n)[:n] if len(sim_blocks) else np.zeros(n, np.int64)
    bps_m = np.bincount(m.blocks.sm, minlength=n)[:n] if len(m.blocks) else np.zeros(n, np.int64)
    by_block = np.full(len(sim_blocks), -1, np.int64)
    by_block[sim_blocks.block] = sim_blocks.sm
    placed = int((by_block[:len(placement)] == placement).sum()) if len(placement) else 0
    mean_block_s = float((sim_blocks.end - sim_blocks.start).mean()) if len(sim_blocks) else 0.0
    mean_block_m = float((m.blocks.end - m.blocks.start).mean()) if len(m.blocks) else 0.0
    rows = [  # key, simulated, measured, unit; each labelled by the text layer (COMPARED_LABELS)
        ("warp_span_cycles", warp_span(result), ms["cycles"], "cycles"),
        ("mean_block_cycles", mean_block_s, mean_block_m, "cycles"),
        ("achieved_occupancy", s["achieved_occupancy"], ms["achieved_occupancy"], "fraction"),
        ("max_resident_warps_per_sm", _max_live(result.residency, n), _max_live(m.residency, n), "warps"),
        ("max_blocks_per_sm", int(sim_blocks.max_concurrent_per_sm(n).max()) if len(sim_blocks) else 0,
         ms["measured_max_blocks_per_sm"], "blocks"),
        ("sm_active_fraction", s["sm_active_fraction"], ms["sm_active_fraction"], "fraction"),
        ("sms_alike", int((bps_s == bps_m).sum()), n, "sms"),
        ("kernel_cycles", s["cycles"], None, "cycles"),
    ]
    figures = [Figure(key, COMPARED_LABELS[key], sim, meas, unit) for key, sim, meas, unit in rows]
    if len(placement):
        note = COMPARE_NOTES("placed", n=len(placement), placed=placed)
    else:
        from explorer.sim.dispatch import order_source

        note = COMPARE_NOTES("no_first_wave", source=order_source(scenario.gpu))
    notes = []
    if params.l2_dirty_bytes:
        notes.append(COMPARE_NOTES("l2_dirty", bytes=min(params.l2_dirty_bytes, params.l2_bytes)))
    return Comparison(figures, result, bps_s, bps_m, placed, note, notes)
