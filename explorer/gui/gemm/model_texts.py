"""The GEMM model's own sentences and names in the interface language.

The core (``explorer.gemm``) explains a plan in English: why the bound is what
it is (``GemmPlan.bound_reason``), why a simulation of its main loop differs
(``simulation_differences``) and what it chose for the user (``notes``). Like
``common.error_texts`` for validation messages, each pattern below recognises
one sentence the core builds and re-states it through ``translate`` with the
same numbers; in English the result is the core's sentence itself (the tests
compare), and a sentence no pattern knows is shown as the core wrote it.
``tests/gui/gemm/test_model_texts.py`` runs the real model over the paths and
GPUs so a reworded sentence is caught.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from explorer.gemm.mapper import TERM_TEXT
from explorer.gui.common.error_texts import translate_by_patterns
from explorer.texts.numbers import localize

def path_names() -> dict[str, str]:
    """The main-loop paths (``Pipeline.path``) in a few words."""
    translate = QCoreApplication.translate
    return {"wgmma": translate("GemmModelTexts", "wgmma + TMA"), "mma.sync": "mma.sync",
            "simt": translate("GemmModelTexts", "SIMT (FFMA)")}


def schedule_names() -> dict[str, str]:
    """``Pipeline.schedule`` values."""
    translate = QCoreApplication.translate
    return {"cooperative": translate("GemmModelTexts", "cooperative"),
            "pingpong": translate("GemmModelTexts", "ping-pong"),
            "warp-specialized": translate("GemmModelTexts", "warp-specialized"),
            "multistage": translate("GemmModelTexts", "multistage")}


def term_texts() -> dict[str, str]:
    """``explorer.gemm.mapper.TERM_TEXT``: each time term as the bound reason names it."""
    translate = QCoreApplication.translate
    return {
        "tensor_core": translate("GemmModelTexts", "Tensor Core math"),
        "fp32_pipe": translate("GemmModelTexts", "FP32 math (CUDA cores)"),
        "issue": translate("GemmModelTexts", "instruction issue"),
        "shared": translate("GemmModelTexts", "shared-memory bandwidth"),
        "hbm": translate("GemmModelTexts", "HBM bandwidth"),
        "l2": translate("GemmModelTexts", "L2 bandwidth"),
        "latency": translate("GemmModelTexts", "latency (waiting on memory, not enough in flight)"),
        "fill_and_epilogue": translate("GemmModelTexts", "pipeline fill and epilogue (not hidden by the main loop)"),
    }


def _term_alternatives() -> str:
    return "|".join(re.escape(text) for text in sorted(TERM_TEXT.values(), key=len, reverse=True))


def _translate_term(group: str, text: str) -> str:
    """A matched part in the interface language: a term's name translated, a decimal number localized."""
    if re.fullmatch(r"\d+\.\d+", text):
        return localize(text)
    if group.startswith("term"):
        names = term_texts()
        for key, english in TERM_TEXT.items():
            if english == text:
                return names.get(key, text)
    return text


def _reason_patterns() -> list[tuple[str, str]]:
    """What each term's reason says (the part after "term: ")."""
    translate = QCoreApplication.translate
    return [
        (r"the MMAs of the (?P<n>\d+) tile\(s\) on the busiest SM take longer than moving their data",
         translate("GemmModelTexts", "the MMAs of the {n} tile(s) on the busiest SM take longer than moving their "
                                     "data")),
        (r"the FFMAs of the (?P<n>\d+) tile\(s\) on the busiest SM take longer than moving their data",
         translate("GemmModelTexts", "the FFMAs of the {n} tile(s) on the busiest SM take longer than moving their "
                                     "data")),
        (r"the warps issue more instructions than the schedulers can issue per clock",
         translate("GemmModelTexts", "the warps issue more instructions than the schedulers can issue per clock")),
        (r"every operand passes through shared memory at (?P<bpc>\d+) B/clk per SM; the wgmma path reads them once "
         r"from shared memory without register staging",
         translate("GemmModelTexts", "every operand passes through shared memory at {bpc} B/clk per SM; the wgmma "
                                     "path reads them once from shared memory without register staging")),
        (r"every operand passes through shared memory at (?P<bpc>\d+) B/clk per SM",
         translate("GemmModelTexts", "every operand passes through shared memory at {bpc} B/clk per SM")),
        (r"the bytes that must come from device memory take longer than the math",
         translate("GemmModelTexts", "the bytes that must come from device memory take longer than the math")),
        (r"the tile loads from L2 take longer than the math \(bigger tiles or cluster multicast cut them\)",
         translate("GemmModelTexts", "the tile loads from L2 take longer than the math (bigger tiles or cluster "
                                     "multicast cut them)")),
        (r"too few loads in flight to cover the memory latency \(more stages or more CTAs per SM would help\)",
         translate("GemmModelTexts", "too few loads in flight to cover the memory latency (more stages or more CTAs "
                                     "per SM would help)")),
        (r"the K loop is too short to hide the first stage's latency and the epilogue",
         translate("GemmModelTexts", "the K loop is too short to hide the first stage's latency and the epilogue")),
    ]


def bound_reason_text(reason: str) -> str:
    """``GemmPlan.bound_reason`` in the interface language ("term: why. Next: a x%, b y% of it.")."""
    terms = _term_alternatives()
    m = re.fullmatch(rf"(?P<term>{terms}): (?P<why>.+?)\.(?: Next: (?P<rest>.+) of it\.)?", reason or "")
    if not m:
        return reason
    patterns = _reason_patterns()
    if not any(re.fullmatch(rx, m["why"]) for rx, _template in patterns):
        return reason  # a reason this table does not know: the core's words rather than half a translation
    why = translate_by_patterns(m["why"], patterns)
    translate = QCoreApplication.translate
    head = _translate_term("term", m["term"])
    if not m["rest"]:
        return translate("GemmModelTexts", "{term}: {why}.").format(term=head, why=why)
    parts = re.findall(rf"({terms}) (\d+)%", m["rest"])
    if ", ".join(f"{name} {pct}%" for name, pct in parts) != m["rest"]:
        return reason
    rest = ", ".join(translate("GemmModelTexts", "{term} {pct}%").format(term=_translate_term("term", name), pct=pct)
                     for name, pct in parts)
    return translate("GemmModelTexts", "{term}: {why}. Next: {rest} of it.").format(term=head, why=why, rest=rest)


def _difference_patterns() -> list[tuple[str, str]]:
    translate = QCoreApplication.translate
    terms = _term_alternatives()
    return [
        (r"the scenario runs the main loop only: the plan adds (?P<us>[\d.]+) us of pipeline fill and epilogue that "
         r"the simulation does not have",
         translate("GemmModelTexts", "the scenario runs the main loop only: the plan adds {us} µs of pipeline fill "
                                     "and epilogue that the simulation does not have")),
        (r"clocks: the simulator runs the (?P<gpu>\S+) at its (?P<boost>[\d.]+) MHz boost clock with its own unit "
         r"rates; the plan converts every per-clock figure at (?P<eff>\d+) MHz \((?P<peak>[\d.]+) MHz peak clock x "
         r"(?P<frac>[\d.]+) sustained\): compare the simulated time with mainloop_at_simulator_clock",
         translate("GemmModelTexts", "clocks: the simulator runs the {gpu} at its {boost} MHz boost clock with its "
                                     "own unit rates; the plan converts every per-clock figure at {eff} MHz ({peak} "
                                     "MHz peak clock x {frac} sustained): compare the simulated time with the "
                                     "model's main loop at the simulator's clock")),
        (rf"the plan takes the largest main-loop term \((?P<term>{terms})\) as if everything else overlapped it; "
         r"the simulator issues each warp's instructions in order and queues them at each unit, so latencies and "
         r"near-limit units add up partly, and a unit whose peak the simulator does not cap cannot slow it",
         translate("GemmModelTexts", "the plan takes the largest main-loop term ({term}) as if everything else "
                                     "overlapped it; the simulator issues each warp's instructions in order and "
                                     "queues them at each unit, so latencies and near-limit units add up partly, and "
                                     "a unit whose peak the simulator does not cap cannot slow it")),
        (r"(?P<n>[\d.]+) warp\(s\) per scheduler \((?P<ctas>\d+) CTA\(s\) x (?P<warps>\d+) warps per SM\): while a "
         r"warp waits for its copies, fragment loads or the barrier, little else can issue",
         translate("GemmModelTexts", "{n} warp(s) per scheduler ({ctas} CTA(s) x {warps} warps per SM): while a warp "
                                     "waits for its copies, fragment loads or the barrier, little else can issue")),
        (r"the scenario runs one CTA per tile in waves \(not a persistent CTA walking tiles\): the tiles of the next "
         r"round start when a CTA ends, with an empty pipeline; each CTA copies only its share of a multicast "
         r"operand, and the simulator's L2 is one GPU-wide queue at its bandwidth",
         translate("GemmModelTexts", "the scenario runs one CTA per tile in waves (not a persistent CTA walking "
                                     "tiles): the tiles of the next round start when a CTA ends, with an empty "
                                     "pipeline; each CTA copies only its share of a multicast operand, and the "
                                     "simulator's L2 is one GPU-wide queue at its bandwidth")),
        (r"the simulator stages each copy through registers \(ldg \+ sts; it has no cp\.async\) and charges the sts "
         r"to shared memory, which the plan does not",
         translate("GemmModelTexts", "the simulator stages each copy through registers (ldg + sts; it has no "
                                     "cp.async) and charges the sts to shared memory, which the plan does not")),
        (r"the scenario cannot double-buffer fragments \(each MMA step waits for the fragment loads just before "
         r"it\), so every slice exposes the shared-memory latency; CUTLASS loads the next slice's fragments during "
         r"this slice's MMAs, as the plan assumes",
         translate("GemmModelTexts", "the scenario cannot double-buffer fragments (each MMA step waits for the "
                                     "fragment loads just before it), so every slice exposes the shared-memory "
                                     "latency; CUTLASS loads the next slice's fragments during this slice's MMAs, as "
                                     "the plan assumes")),
        (r"the simulator's mma op is m16n8k16 \(4096 FLOP\); (?P<dtype>\S+)'s (?P<shape>\S+) MMAs are simulated as "
         r"that many m16n8k16 MMAs",
         translate("GemmModelTexts", "the simulator's mma op is m16n8k16 (4096 FLOP); {dtype}'s {shape} MMAs are "
                                     "simulated as that many m16n8k16 MMAs")),
    ]


def difference_text(sentence: str) -> str:
    """One of ``GemmPlan.simulation_differences`` in the interface language."""
    return translate_by_patterns(sentence, _difference_patterns(), _translate_term)


def _note_patterns() -> list[tuple[str, str]]:
    translate = QCoreApplication.translate
    return [
        (r"(?P<asked>\d+) warps do not suit the (?P<tile>\S+) tile; using (?P<n>\d+)",
         translate("GemmModelTexts", "{asked} warps do not suit the {tile} tile; using {n}")),
        (r"(?P<asked>\d+) stages of a (?P<tile>\S+) tile do not fit (?P<gpu>\S+)'s shared memory; using (?P<n>\d+)",
         translate("GemmModelTexts", "{asked} stages of a {tile} tile do not fit {gpu}'s shared memory; using {n}")),
        (r"BM = (?P<bm>\d+) does not split between 2 consumer warpgroups; using the pingpong schedule",
         translate("GemmModelTexts", "BM = {bm} does not split between 2 consumer warpgroups; using the pingpong "
                                     "schedule")),
        (r"the (?P<cluster>\d+x\d+) cluster pads the (?P<grid>\d+x\d+) tile grid to (?P<padded>\d+x\d+): "
         r"(?P<n>\d+) padded tiles compute nothing",
         translate("GemmModelTexts", "the {cluster} cluster pads the {grid} tile grid to {padded}: {n} padded tiles "
                                     "compute nothing")),
    ]


def note_text(note: str) -> str:
    """One of ``GemmPlan.notes`` (what the mapper chose for the user) in the interface language."""
    return translate_by_patterns(note, _note_patterns(), _translate_term)


def _attention_patterns() -> list[tuple[str, str]]:
    """``AttentionComparison.assumptions`` and ``notes`` (``explorer.gemm.attention``), sentence by sentence."""
    translate = QCoreApplication.translate
    n, x = r"\d+(?:\.\d+)?", r"[\d.e+]+"  # a number as the core formats it (":g" may write 3.35e+03)
    return [
        (r"forward pass only, no mask, no dropout; the 1/sqrt\(d\) scale is folded into the softmax",
         translate("AttentionTexts", "forward pass only, no mask, no dropout; the 1/sqrt(d) scale is folded into "
                                     "the softmax")),
        (r"S and P are stored in (?P<dtype>\S+) \((?P<b>\d+) B per element\); Q, K, V and O too",
         translate("AttentionTexts", "S and P are stored in {dtype} ({b} B per element); Q, K, V and O too")),
        (rf"softmax = (?P<flop>{n}) FLOP per score \(max, subtract, exp, sum, divide\); exp also occupies the SFU "
         r"\((?P<lanes>\d+) lanes per sub-partition\)",
         translate("AttentionTexts", "softmax = {flop} FLOP per score (max, subtract, exp, sum, divide); exp also "
                                     "occupies the SFU ({lanes} lanes per sub-partition)")),
        (r"flash: FlashAttention-2 loop order \(query blocks outer, key/value blocks inner\); the SMs read K and V "
         r"once per query block \(global_bytes, exact: FlashAttention's IO accounting\); logsumexp saved in FP32",
         translate("AttentionTexts", "flash: FlashAttention-2 loop order (query blocks outer, key/value blocks "
                                     "inner); the SMs read K and V once per query block (global_bytes, exact: "
                                     "FlashAttention's IO accounting); logsumexp saved in FP32")),
        (rf"flash HBM bytes: one CTA per SM, so about (?P<h>\d+) \(batch, head\) pairs are in flight; their K and "
         rf"V \((?P<ws>\d+) B\) fit the usable L2 \((?P<frac>{x}) x (?P<l2>\d+) B\), so the K/V re-reads come from "
         r"L2 and HBM sees K and V once",
         translate("AttentionTexts", "flash HBM bytes: one CTA per SM, so about {h} (batch, head) pairs are in "
                                     "flight; their K and V ({ws} B) fit the usable L2 ({frac} x {l2} B), so the "
                                     "K/V re-reads come from L2 and HBM sees K and V once")),
        (rf"flash HBM bytes: one CTA per SM, so about (?P<h>\d+) \(batch, head\) pairs are in flight; their K and "
         rf"V \((?P<ws>\d+) B\) do not fit the usable L2 \((?P<frac>{x}) x (?P<l2>\d+) B\), so every K/V re-read "
         r"comes from HBM",
         translate("AttentionTexts", "flash HBM bytes: one CTA per SM, so about {h} (batch, head) pairs are in "
                                     "flight; their K and V ({ws} B) do not fit the usable L2 ({frac} x {l2} B), so "
                                     "every K/V re-read comes from HBM")),
        (r"naive: S and P \((?P<s>\d+) B each\) go to global memory; the next kernel's read of them hits L2 \(they "
         r"fit the usable L2\); their writes still reach HBM",
         translate("AttentionTexts", "naive: S and P ({s} B each) go to global memory; the next kernel's read of "
                                     "them hits L2 (they fit the usable L2); their writes still reach HBM")),
        (r"naive: S and P \((?P<s>\d+) B each\) go to global memory; the next kernel's read of them comes from HBM "
         r"\(they do not fit the usable L2\)",
         translate("AttentionTexts", "naive: S and P ({s} B each) go to global memory; the next kernel's read of "
                                     "them comes from HBM (they do not fit the usable L2)")),
        (rf"each kernel takes max\(matmul at (?P<tflops>{x}) TFLOPS \+ other FLOPs at the FP32 peak, exps on the "
         rf"SFUs, HBM bytes at (?P<eff>{x}) x (?P<bw>{x}) GB/s, global bytes at the L2's (?P<l2bw>\d+) GB/s\); the "
         r"largest is the bound; a kernel's own tiling and waves are not modelled; launch overhead is reported apart",
         translate("AttentionTexts", "each kernel takes max(matmul at {tflops} TFLOPS + other FLOPs at the FP32 "
                                     "peak, exps on the SFUs, HBM bytes at {eff} x {bw} GB/s, global bytes at the "
                                     "L2's {l2bw} GB/s); the largest is the bound; a kernel's own tiling and waves are "
                                     "not modelled; launch overhead is reported apart")),
        (r"blocks (?P<bq>\d+)x(?P<kv>\d+) do not fit (?P<gpu>\S+)'s shared memory at head size (?P<d>\d+); using "
         r"(?P<br>\d+)x(?P<bc>\d+)",
         translate("AttentionTexts", "blocks {bq}x{kv} do not fit {gpu}'s shared memory at head size {d}; using "
                                     "{br}x{bc}")),
    ]


def attention_text(sentence: str) -> str:
    """One of the attention comparison's assumptions or notes in the interface language (issue 31 item 14: the
    list under the FlashAttention table stayed English in a Russian lecture)."""
    return translate_by_patterns(sentence, _attention_patterns(), _translate_term)
