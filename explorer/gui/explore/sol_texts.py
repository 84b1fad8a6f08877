"""The Speed-of-Light texts in the interface language: unit names, what each unit does, the bottleneck's why.

The simulator (``explorer.sim.units``, ``explorer.sim.bottleneck``) words its units
and its one-sentence answer to "what limits useful work?" in English, once, for the
CLI and the JSON contract. The window shows the same words: unit names and meanings
through literal ``translate`` calls (``pyside6-lupdate`` collects them), and the
bottleneck's sentence re-stated like the core's validation messages
(``common.error_texts.translate_by_patterns``): its head ("DRAM at 85% of 3.35 TB/s") is written here from
the summary's own figures, its reason is recognised by a pattern and re-stated with
the same numbers. A reason no pattern knows is shown as the core wrote it.
``tests/gui/explore/test_sol_panel.py`` checks the patterns against sentences of
real runs, so a reworded core sentence is caught.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from explorer.gui.common.error_texts import translate_by_patterns
from explorer.gui.common.numbers import localize, num, pct
from explorer.sim.bottleneck import busy_words


def unit_labels() -> dict[str, str]:
    """``explorer.sim.units.LABEL`` in the interface language, plus "latency"."""
    translate = QCoreApplication.translate
    return {
        "issue": translate("SolTexts", "Issue slots"), "fp32": translate("SolTexts", "FP32"), "int": translate("SolTexts", "INT32"),
        "sfu": translate("SolTexts", "SFU"), "tensor": translate("SolTexts", "Tensor Cores"), "lsu": translate("SolTexts", "LSU"),
        "l1": translate("SolTexts", "L1"), "shared": translate("SolTexts", "Shared memory"), "l2": translate("SolTexts", "L2"),
        "dram": translate("SolTexts", "DRAM"), "latency": translate("SolTexts", "latency"),
    }


def short_labels() -> dict[str, str]:
    """Unit names short enough for the unit-use strip's rows."""
    translate = QCoreApplication.translate
    return {
        "issue": translate("SolTexts", "issue"), "fp32": translate("SolTexts", "fp32"), "int": translate("SolTexts", "int"),
        "sfu": translate("SolTexts", "sfu"), "tensor": translate("SolTexts", "tensor"), "lsu": translate("SolTexts", "lsu"),
        "l1": translate("SolTexts", "l1"), "shared": translate("SolTexts", "shared"), "l2": translate("SolTexts", "l2"),
        "dram": translate("SolTexts", "dram"), "latency": translate("SolTexts", "latency", "a short row name"),
    }


def unit_meanings() -> dict[str, str]:
    """``explorer.sim.units.MEANING`` (what each unit does, one sentence) in the interface language."""
    translate = QCoreApplication.translate
    return {
        "issue": translate("SolTexts", "The warp schedulers: each issues at most one warp-instruction per cycle."),
        "fp32": translate("SolTexts", "FP32 lanes: fused multiply-adds and other single-precision arithmetic."),
        "int": translate("SolTexts", "INT32 lanes: integer arithmetic, address computation, logic."),
        "sfu": translate("SolTexts", "Special-function units (MUFU): exp, log, sin, rsqrt and the like."),
        "tensor": translate("SolTexts", "Tensor Cores: matrix multiply-accumulate (MMA) on small tiles."),
        "lsu": translate("SolTexts", "Load/store units: issue every global and shared-memory access to L1TEX."),
        "l1": translate("SolTexts", "The SM's L1 data path for global memory: 128 bytes per cycle."),
        "shared": translate("SolTexts", "Shared-memory banks: 32 banks x 4 bytes per cycle; conflicts cost extra cycles."),
        "l2": translate("SolTexts", "The L2 cache's bandwidth to the SMs, shared by the whole GPU."),
        "dram": translate("SolTexts", "Device memory (HBM/GDDR): the datasheet bandwidth."),
    }


_PREFIX = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))


def rate_text(value: float, units: str) -> str:
    """A peak or achieved rate with an SI prefix, in the interface's number style: 3.35 TB/s, 1.05 T warp-instr./s."""
    translate = QCoreApplication.translate
    names = {"B/s": translate("SolTexts", "B/s"), "FLOP/s": translate("SolTexts", "FLOP/s"),
             "ops/s": translate("SolTexts", "ops/s"), "warp-instructions/s": translate("SolTexts", "warp-instructions/s")}
    name = names.get(units, units)
    prefixes = {"P": translate("SolTexts", "P"), "T": translate("SolTexts", "T"), "G": translate("SolTexts", "G"),
                "M": translate("SolTexts", "M"), "k": translate("SolTexts", "k"), "": ""}
    for scale, prefix in _PREFIX:
        if abs(value) >= scale:
            shown = value / scale
            digits = f"{shown:.3g}"
            text = localize(digits) if "e" not in digits else num(shown)
            prefix_shown = prefixes[prefix]
            sep = "" if units[:1].isupper() else " "  # TB/s, TFLOP/s; 1.05 T warp-instructions/s
            return f"{text} {prefix_shown}{sep if prefix else ''}{name}"
    return f"{localize(f'{value:.3g}')} {name}"


def _n(text: str) -> str:
    """A number the core formatted (``1,920``, ``0.75``, ``1.2e+02``) in the interface's style."""
    if "e" in text:
        try:
            return num(float(text), 0)
        except ValueError:
            return text
    return localize(text)


def _reasons() -> list[tuple[str, str]]:
    """(regex for the core's reason, the translated template with the regex's group names)."""
    translate = QCoreApplication.translate
    labels = r"(?P<label>Issue slots|FP32|INT32|SFU|Tensor Cores|LSU|L1|Shared memory|L2|DRAM)"
    number = r"[\d.,e+-]+"
    busy = r"(?P<busy>nearly every cycle|in most cycles)"  # explorer.sim.bottleneck.busy_words
    return [
        (rf"the kernel moves (?P<per>{number}) B per FMA to or from device memory; more reuse \(tiling, caching\) "
         r"would help",
         translate("SolTexts", "the kernel moves {per} B per FMA to or from device memory; more reuse (tiling, caching) "
                       "would help")),
        (rf"the kernel moves (?P<mb>{number}) MB to or from device memory; more reuse \(tiling, caching\) would help",
         translate("SolTexts", "the kernel moves {mb} MB to or from device memory; more reuse (tiling, caching) would help")),
        (rf"every L1 miss crosses L2 \((?P<mb>{number}) MB\); more reuse in L1 or shared memory would help",
         translate("SolTexts", "every L1 miss crosses L2 ({mb} MB); more reuse in L1 or shared memory would help")),
        (rf"global accesses keep the SMs' L1 data paths busy {busy}; fewer or better-coalesced accesses would help",
         translate("SolTexts", "global accesses keep the SMs' L1 data paths busy {busy}; fewer or better-coalesced "
                       "accesses would help")),
        (rf"shared-memory wavefronts \(bank conflicts multiply them\) keep the banks busy {busy}; fewer conflicts "
         r"or wider accesses would help",
         translate("SolTexts", "shared-memory wavefronts (bank conflicts multiply them) keep the banks busy {busy}; fewer "
                       "conflicts or wider accesses would help")),
        (r"memory instructions queue at the load/store units; wider \(vector\) accesses move the same bytes in "
         r"fewer instructions",
         translate("SolTexts", "memory instructions queue at the load/store units; wider (vector) accesses move the same "
                       "bytes in fewer instructions")),
        (rf"the schedulers issue {busy}; {labels} is at (?P<pct>\d+)% too \(here one (?P<pipe>\w+) "
         r"instruction per scheduler per cycle is both peaks\); only fewer instructions per result would help, "
         r"not more warps",
         translate("SolTexts", "the schedulers issue {busy}; {label} is at {pct}% too (here one {pipe} "
                       "instruction per scheduler per cycle is both peaks); only fewer instructions per result "
                       "would help, not more warps")),
        (rf"the schedulers issue {busy}; only fewer instructions per result would help, not more warps",
         translate("SolTexts", "the schedulers issue {busy}; only fewer instructions per result would help, "
                       "not more warps")),
        (rf"FMA lanes are busy {busy}; this is the arithmetic peak for FP32",
         translate("SolTexts", "FMA lanes are busy {busy}; this is the arithmetic peak for FP32")),
        (rf"the Tensor Cores are busy {busy}; everything else waits on the MMAs",
         translate("SolTexts", "the Tensor Cores are busy {busy}; everything else waits on the MMAs")),
        (r"special functions \(exp, rsqrt...\) run on 4 lanes per scheduler; cheaper math would help",
         translate("SolTexts", "special functions (exp, rsqrt...) run on 4 lanes per scheduler; cheaper math would help")),
        (rf"integer instructions keep the INT32 lanes busy {busy}",
         translate("SolTexts", "integer instructions keep the INT32 lanes busy {busy}")),
        # latency: what the warps wait for instead
        (r"SMs sit idle (?P<pct>\d+)% of the time \(too few blocks, or a last wave on few SMs\); more or smaller "
         r"blocks would help",
         translate("SolTexts", "SMs sit idle {pct}% of the time (too few blocks, or a last wave on few SMs); more or "
                       "smaller blocks would help")),
        (rf"SMs sit idle (?P<pct>\d+)% of the time \(too few blocks, or a last wave on few SMs\); on the SMs with "
         rf"work, {labels} at (?P<share>\d+)% of the peak; more or smaller blocks would help",
         translate("SolTexts", "SMs sit idle {pct}% of the time (too few blocks, or a last wave on few SMs); on the SMs "
                       "with work, {label} at {share}% of the peak; more or smaller blocks would help")),
        (r"(?P<warps>[\d,]+) warps each wait ~(?P<cycles>\d+) cycles for (?P<where>L1|L2|HBM|DRAM); more bytes in "
         r"flight per SM \(more warps, or more independent loads per warp\) would help",
         translate("SolTexts", "{warps} warps each wait ~{cycles} cycles for {where}; more bytes in flight per SM (more "
                       "warps, or more independent loads per warp) would help")),
        (r"(?P<warps>[\d,]+) warps mostly (?P<waiting>.+)", translate("SolTexts", "{warps} warps mostly {waiting}")),
    ]


def waiting_texts() -> dict[str, str]:
    """``explorer.sim.bottleneck._WAITING_FOR``'s phrases (the warps mostly ...) in the interface language."""
    translate = QCoreApplication.translate
    return {
        "wait on dependent arithmetic (a fixed latency each); more independent instructions (ILP) or warps would "
        "help": translate("SolTexts", "wait on dependent arithmetic (a fixed latency each); more independent instructions "
                              "(ILP) or warps would help"),
        "wait for shared-memory or special-function results; more independent work would help": translate(
            "SolTexts", "wait for shared-memory or special-function results; more independent work would help"),
        "wait at __syncthreads for their block's slowest warp; smaller or better-balanced phases would help": translate(
            "SolTexts", "wait at __syncthreads for their block's slowest warp; smaller or better-balanced phases "
                        "would help"),
        "wait for their stores to complete before they can exit": translate(
            "SolTexts", "wait for their stores to complete before they can exit"),
        "find their pipe busy; spreading work over more units would help": translate(
            "SolTexts", "find their pipe busy; spreading work over more units would help"),
        "find the shared-memory queue full": translate("SolTexts", "find the shared-memory queue full"),
        "find the global-memory queue full": translate("SolTexts", "find the global-memory queue full"),
        "are ready but wait their turn at the scheduler": translate("SolTexts", "are ready but wait their turn at the scheduler"),
        "issue whenever they can, yet too few are ready": translate("SolTexts", "issue whenever they can, yet too few are ready"),
        "wait for their asynchronous MMAs, with too few warpgroups to fill the Tensor Cores": translate(
            "SolTexts", "wait for their asynchronous MMAs, with too few warpgroups to fill the Tensor Cores"),
        "wait on their stages' mbarriers (consumers for TMA copies, producers for free stages); more stages or more "
        "bytes in flight would help": translate(
            "SolTexts", "wait on their stages' mbarriers (consumers for TMA copies, producers for free stages); more "
                        "stages or more bytes in flight would help"),
    }


def busy_texts() -> dict[str, str]:
    """``explorer.sim.bottleneck.BUSY_WORDS``' phrases (how often a unit is busy) in the interface language."""
    translate = QCoreApplication.translate
    return {"nearly every cycle": translate("SolTexts", "nearly every cycle"),
            "in most cycles": translate("SolTexts", "in most cycles")}


def busy_text(share: float) -> str:
    """How often a unit at ``share`` of its peak is busy, by the simulator's one rule (``busy_words``),
    in the interface language: what the CLI's sentence says of the same share."""
    return busy_texts()[busy_words(share)]


def known(reason: str) -> bool:
    """Whether a pattern recognises the core's reason (the tests check every sentence real runs give)."""
    return any(re.fullmatch(pattern, reason) for pattern, _ in _reasons())


def reason_text(reason: str) -> str:
    """The core's reason (its sentence after the head) in the interface language; unknown reasons as they are."""
    labels = unit_labels()
    english = {"Issue slots": "issue", "FP32": "fp32", "INT32": "int", "SFU": "sfu", "Tensor Cores": "tensor",
               "LSU": "lsu", "L1": "l1", "Shared memory": "shared", "L2": "l2", "DRAM": "dram"}
    waits = waiting_texts()

    def value(group: str, text: str) -> str:
        if group in ("per", "mb", "warps"):
            return _n(text)
        if group == "label":
            return labels[english[text]]
        if group == "waiting":
            return waits.get(text, text)
        if group == "busy":
            return busy_texts().get(text, text)
        return text

    return translate_by_patterns(reason, _reasons(), value) or reason


def bottleneck_head(summary: dict) -> str:
    """The sentence's head alone ("DRAM at 85% of 3.35 TB/s", "no unit above 42% (DRAM)"): the short form a
    column too short for the whole sentence shows."""
    translate = QCoreApplication.translate
    b = summary["bottleneck"]
    through = summary["throughput"]
    labels = unit_labels()
    unit = b["unit"]
    share = float(b["pct_of_peak"]) / 100.0
    if unit == "latency":
        top = max(through, key=lambda u: through[u]["pct_of_peak"])
        return translate("SolTexts", "no unit above {pct} ({unit})").format(pct=pct(share, 0), unit=labels[top])
    peak = through[unit]
    return translate("SolTexts", "{unit} at {pct} of {peak}").format(
        unit=labels[unit], pct=pct(share, 0), peak=rate_text(peak["peak"], peak["units"]))


def bottleneck_text(summary: dict) -> str:
    """The run's bottleneck in one sentence, in the interface language: head written from the summary's
    figures (the unit, its share, its peak), reason re-stated from the core's sentence."""
    translate = QCoreApplication.translate
    b = summary["bottleneck"]
    head = bottleneck_head(summary)
    why = str(b.get("why", ""))
    _, sep, reason = why.partition(": ")
    if not sep or not known(reason):
        return why  # a sentence the patterns do not know: as the core wrote it
    return translate("SolTexts", "{head}: {reason}").format(head=head, reason=reason_text(reason))
