"""The bottleneck's sentence ("DRAM at 85% of 3.35 TB/s: the kernel moves ...") from the simulator's record.

``explorer.sim.bottleneck`` decides what limits useful work and returns a record: the unit (or
"latency"), its share of the peak and a *reason*, a code with the figures it cites
(``{"code": "wait_level", "figures": {"warps": 1920, "cycles": 741, "level": "dram"}}``). This
module words the record: English for the JSON contract's ``why`` and the CLI, the interface
language in the window (it passes its translator and number style). The window used to recognise
the core's English sentence with a regular expression per reason and re-state it; now both render
the same record, so a reworded template is one edit and cannot drift from its translation. The
templates are one :class:`~explorer.texts.message.Catalog` (:data:`SOL`), the mechanism of every
core sentence: a reason's code is its template's, its figures the template's fields; the tables
below are the catalogue's words (busy, unit names, warp states), its specs say how each number is
written (the one number formatter's rounding and significant figures).
"""

from __future__ import annotations

from explorer.texts import QT_TRANSLATE_NOOP, Translate, english
from explorer.texts.message import Catalog, Message
from explorer.texts.numbers import ENGLISH, Style, num, pct, si, significant

CONTEXT = "SolTexts"

# the units' names (explorer.model.units.LABEL is this table), and "latency" when no unit is near its peak
LABEL = {
    "issue": QT_TRANSLATE_NOOP("SolTexts", "Issue slots"), "fp32": QT_TRANSLATE_NOOP("SolTexts", "FP32"),
    "int": QT_TRANSLATE_NOOP("SolTexts", "INT32"), "sfu": QT_TRANSLATE_NOOP("SolTexts", "SFU"),
    "tensor": QT_TRANSLATE_NOOP("SolTexts", "Tensor Cores"), "lsu": QT_TRANSLATE_NOOP("SolTexts", "LSU"),
    "l1": QT_TRANSLATE_NOOP("SolTexts", "L1"), "shared": QT_TRANSLATE_NOOP("SolTexts", "Shared memory"),
    "l2": QT_TRANSLATE_NOOP("SolTexts", "L2"), "dram": QT_TRANSLATE_NOOP("SolTexts", "DRAM"),
    "latency": QT_TRANSLATE_NOOP("SolTexts", "latency"),
}

# how often a unit at its share of peak is busy (explorer.sim.bottleneck.busy_code)
BUSY = {"full": QT_TRANSLATE_NOOP("SolTexts", "nearly every cycle"),
        "busy": QT_TRANSLATE_NOOP("SolTexts", "in most cycles")}

# what a latency-bound kernel's warps mostly do, by the warp state they spend most cycles in
WAITING = {
    "wait": QT_TRANSLATE_NOOP("SolTexts", "wait on dependent arithmetic (a fixed latency each); more independent "
                                          "instructions (ILP) or warps would help"),
    "short_scoreboard": QT_TRANSLATE_NOOP("SolTexts", "wait for shared-memory or special-function results; more "
                                                      "independent work would help"),
    "barrier": QT_TRANSLATE_NOOP("SolTexts", "wait at __syncthreads for their block's slowest warp; smaller or "
                                             "better-balanced phases would help"),
    "drain": QT_TRANSLATE_NOOP("SolTexts", "wait for their stores to complete before they can exit"),
    "math_pipe_throttle": QT_TRANSLATE_NOOP("SolTexts", "find their pipe busy; spreading work over more units "
                                                        "would help"),
    "mio_throttle": QT_TRANSLATE_NOOP("SolTexts", "find the shared-memory queue full"),
    "lg_throttle": QT_TRANSLATE_NOOP("SolTexts", "find the global-memory queue full"),
    "mbarrier": QT_TRANSLATE_NOOP("SolTexts", "wait on their stages' mbarriers (consumers for TMA copies, producers "
                                              "for free stages); more stages or more bytes in flight would help"),
    "wgmma_wait": QT_TRANSLATE_NOOP("SolTexts", "wait for their asynchronous MMAs, with too few warpgroups to fill "
                                                "the Tensor Cores"),
    "not_selected": QT_TRANSLATE_NOOP("SolTexts", "are ready but wait their turn at the scheduler"),
    "selected": QT_TRANSLATE_NOOP("SolTexts", "issue whenever they can, yet too few are ready"),
}

# the memory level a latency-bound kernel's warps wait for
LEVEL = {"l1": "L1", "l2": "L2", "hbm": "HBM", "dram": "DRAM"}

# reason code -> its template; the figures' names in braces (a warp state, "state", is worded by WAITING)
REASONS = {
    "dram_per_fma": QT_TRANSLATE_NOOP("SolTexts", "the kernel moves {per} B per FMA to or from device memory; more "
                                                  "reuse (tiling, caching) would help"),
    "dram_bytes": QT_TRANSLATE_NOOP("SolTexts", "the kernel moves {mb} MB to or from device memory; more reuse "
                                                "(tiling, caching) would help"),
    "l2": QT_TRANSLATE_NOOP("SolTexts", "every L1 miss crosses L2 ({mb} MB); more reuse in L1 or shared memory "
                                        "would help"),
    "l1": QT_TRANSLATE_NOOP("SolTexts", "global accesses keep the SMs' L1 data paths busy {busy}; fewer or "
                                        "better-coalesced accesses would help"),
    "shared": QT_TRANSLATE_NOOP("SolTexts", "shared-memory wavefronts (bank conflicts multiply them) keep the banks "
                                            "busy {busy}; fewer conflicts or wider accesses would help"),
    "lsu": QT_TRANSLATE_NOOP("SolTexts", "memory instructions queue at the load/store units; wider (vector) accesses "
                                         "move the same bytes in fewer instructions"),
    "issue_and_pipe": QT_TRANSLATE_NOOP("SolTexts", "the schedulers issue {busy}; {label} is at {pct}% too (here one "
                                                    "{pipe} instruction per scheduler per cycle is both peaks); only "
                                                    "fewer instructions per result would help, not more warps"),
    "issue": QT_TRANSLATE_NOOP("SolTexts", "the schedulers issue {busy}; only fewer instructions per result would "
                                           "help, not more warps"),
    "fp32": QT_TRANSLATE_NOOP("SolTexts", "FMA lanes are busy {busy}; this is the arithmetic peak for FP32"),
    "tensor": QT_TRANSLATE_NOOP("SolTexts", "the Tensor Cores are busy {busy}; everything else waits on the MMAs"),
    "sfu": QT_TRANSLATE_NOOP("SolTexts", "special functions (exp, rsqrt...) run on 4 lanes per scheduler; cheaper "
                                         "math would help"),
    "int": QT_TRANSLATE_NOOP("SolTexts", "integer instructions keep the INT32 lanes busy {busy}"),
    "idle_sms": QT_TRANSLATE_NOOP("SolTexts", "SMs sit idle {pct}% of the time (too few blocks, or a last wave on "
                                              "few SMs); more or smaller blocks would help"),
    "idle_sms_one_full": QT_TRANSLATE_NOOP("SolTexts", "SMs sit idle {pct}% of the time (too few blocks, or a last "
                                                       "wave on few SMs); on the SMs with work, {label} at {share}% "
                                                       "of the peak; more or smaller blocks would help"),
    "wait_level": QT_TRANSLATE_NOOP("SolTexts", "{warps} warps each wait ~{cycles} cycles for {level}; more bytes in "
                                                "flight per SM (more warps, or more independent loads per warp) would "
                                                "help"),
    "waiting": QT_TRANSLATE_NOOP("SolTexts", "{warps} warps mostly {state}"),
}

HEAD_UNIT = QT_TRANSLATE_NOOP("SolTexts", "{unit} at {pct} of {peak}")
HEAD_LATENCY = QT_TRANSLATE_NOOP("SolTexts", "no unit above {pct} ({unit})")
SENTENCE = QT_TRANSLATE_NOOP("SolTexts", "{head}: {reason}")


def _whole(value, style: Style | None) -> str:  # a share in percent, a cycle count: rounded as the window rounds
    return num(float(value), 0, style=style)


def _count(value, style: Style | None) -> str:
    return num(int(value), style=style)


def _mb(value, style: Style | None) -> str:
    return significant(value, 3, style=style)


def _share(value, style: Style | None) -> str:  # the record's pct_of_peak as a percentage
    return pct(float(value) / 100.0, 0, style=style)


SOL = Catalog(CONTEXT, {**REASONS, "head_unit": HEAD_UNIT, "head_latency": HEAD_LATENCY, "sentence": SENTENCE}, specs={
    "dram_per_fma": {"per": lambda value, style: significant(value, 2, style=style)},
    "dram_bytes": {"mb": _mb}, "l2": {"mb": _mb},
    "issue_and_pipe": {"pct": _whole, "pipe": lambda value, style: value.upper()},
    "idle_sms": {"pct": _whole}, "idle_sms_one_full": {"pct": _whole, "share": _whole},
    "wait_level": {"warps": _count, "cycles": _whole, "level": lambda value, style: LEVEL[value]},
    "waiting": {"warps": _count},
    "head_unit": {"pct": _share, "peak": lambda value, style: si(value[0], value[1], style=style)},  # (peak, units)
    "head_latency": {"pct": _share},
}, words={"busy": BUSY, "label": LABEL, "unit": LABEL, "state": WAITING})


def head_message(record: dict) -> Message:
    """The head as a :class:`~explorer.texts.message.Message`: the unit (or the busiest one of a latency-bound
    run), its share of the peak and, for a unit, the peak."""
    r = record["reason"]
    if record["unit"] == "latency":
        return SOL("head_latency", pct=record["pct_of_peak"], unit=r["top"])
    return SOL("head_unit", unit=record["unit"], pct=record["pct_of_peak"], peak=(r["peak"], r["peak_units"]))


def reason_message(record: dict) -> Message:
    """The reason: its code's template filled with its figures."""
    return SOL(record["reason"]["code"], **record["reason"]["figures"])


def message(record: dict) -> Message:
    """The whole sentence as a Message: "{head}: {reason}"."""
    return SOL("sentence", head=head_message(record), reason=reason_message(record))


def head(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The sentence's head alone ("DRAM at 85% of 3.35 TB/s", "no unit above 42% (DRAM)"): the short form a
    column too short for the whole sentence shows. ``style`` None: the window's current number style."""
    return head_message(record).translated(translate, style)


def reason(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The reason after the head, in ``translate``'s language and ``style``'s numbers."""
    return reason_message(record).translated(translate, style)


def sentence(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The whole sentence: "{head}: {reason}"."""
    return message(record).translated(translate, style)
