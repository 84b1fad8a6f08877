"""The bottleneck's sentence ("DRAM at 85% of 3.35 TB/s: the kernel moves ...") from the simulator's record.

``explorer.sim.bottleneck`` decides what limits useful work and returns a record: the unit (or
"latency"), its share of the peak and a *reason*, a code with the figures it cites
(``{"code": "wait_level", "figures": {"warps": 1920, "cycles": 741, "level": "dram"}}``). This
module words the record: English for the JSON contract's ``why`` and the CLI, the interface
language in the window (it passes its translator and number style). The window used to recognise
the core's English sentence with a regular expression per reason and re-state it; now both render
the same record, so a reworded template is one edit and cannot drift from its translation.
"""

from __future__ import annotations

from explorer.texts import QT_TRANSLATE_NOOP, Translate, english
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

# reason code -> its template; the figures' names in braces
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
    "wait_level": QT_TRANSLATE_NOOP("SolTexts", "{warps} warps each wait ~{cycles} cycles for {where}; more bytes in "
                                                "flight per SM (more warps, or more independent loads per warp) would "
                                                "help"),
    "waiting": QT_TRANSLATE_NOOP("SolTexts", "{warps} warps mostly {waiting}"),
}

HEAD_UNIT = QT_TRANSLATE_NOOP("SolTexts", "{unit} at {pct} of {peak}")
HEAD_LATENCY = QT_TRANSLATE_NOOP("SolTexts", "no unit above {pct} ({unit})")
SENTENCE = QT_TRANSLATE_NOOP("SolTexts", "{head}: {reason}")


def head(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The sentence's head alone ("DRAM at 85% of 3.35 TB/s", "no unit above 42% (DRAM)"): the short form a
    column too short for the whole sentence shows. ``style`` None: the window's current number style."""
    unit = record["unit"]
    share = float(record["pct_of_peak"]) / 100.0
    if unit == "latency":
        top = record["reason"]["top"]
        return translate(CONTEXT, HEAD_LATENCY).format(pct=pct(share, 0, style=style),
                                                      unit=translate(CONTEXT, LABEL[top]))
    return translate(CONTEXT, HEAD_UNIT).format(unit=translate(CONTEXT, LABEL[unit]), pct=pct(share, 0, style=style),
                                                peak=si(record["reason"]["peak"], record["reason"]["peak_units"],
                                                        style=style))


def reason(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The reason after the head, in ``translate``'s language and ``style``'s numbers."""
    r = record["reason"]
    f = r["figures"]
    t = {k: v for k, v in f.items()}
    if "busy" in f:
        t["busy"] = translate(CONTEXT, BUSY[f["busy"]])
    if "per" in f:
        t["per"] = significant(f["per"], 2, style=style)
    if "mb" in f:
        t["mb"] = significant(f["mb"], 3, style=style)
    if "label" in f:
        t["label"] = translate(CONTEXT, LABEL[f["label"]])
    if "pipe" in f:
        t["pipe"] = f["pipe"].upper()
    for key in ("pct", "share", "cycles"):
        if key in f:
            t[key] = num(float(f[key]), 0, style=style)
    if "warps" in f:
        t["warps"] = num(int(f["warps"]), style=style)
    if "level" in f:
        t["where"] = LEVEL[f["level"]]
    if "state" in f:
        state = f["state"]
        t["waiting"] = translate(CONTEXT, WAITING[state]) if state in WAITING else state
    return translate(CONTEXT, REASONS[r["code"]]).format(**t)


def sentence(record: dict, translate: Translate = english, style: Style | None = ENGLISH) -> str:
    """The whole sentence: "{head}: {reason}"."""
    return translate(CONTEXT, SENTENCE).format(head=head(record, translate, style),
                                               reason=reason(record, translate, style))
