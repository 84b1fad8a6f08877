"""The GEMM and attention models' sentences: templates the core fills (``explorer.gemm``) and the window translates.

``GemmPlan.bound_reason``, ``simulation_differences`` and ``notes``, and the attention
comparison's ``assumptions`` and ``notes``, are :class:`~explorer.texts.message.Message`\\ s
made from these templates: English strings for JSON and the CLI, records the window renders
in Russian (``explorer/gui/gemm/model_texts.py`` used to recognise each English sentence
with a regular expression). A level's traffic path (``LevelTraffic.places`` and ``via``) is
worded here too: :func:`path_text`.
"""

from __future__ import annotations

from typing import Sequence

from explorer.texts import QT_TRANSLATE_NOOP, Translate, english
from explorer.texts.message import Catalog

PATH_CONTEXT = "GemmModelTexts"
# the places and units a boundary's bytes cross (explorer.gemm.mapper.LevelTraffic.places), toward the math units
PATH_PLACE = {
    "hbm": QT_TRANSLATE_NOOP("GemmModelTexts", "HBM"), "l2": QT_TRANSLATE_NOOP("GemmModelTexts", "L2"),
    "shared": QT_TRANSLATE_NOOP("GemmModelTexts", "shared memory"),
    "registers": QT_TRANSLATE_NOOP("GemmModelTexts", "registers"),
    "tensor": QT_TRANSLATE_NOOP("GemmModelTexts", "Tensor Cores"),
    "tensor_memory": QT_TRANSLATE_NOOP("GemmModelTexts", "Tensor Memory"),
    "fp32": QT_TRANSLATE_NOOP("GemmModelTexts", "FP32 pipes"),
}
# what carries the bytes over the path's last hop (LevelTraffic.via)
PATH_VIA = {"tma": QT_TRANSLATE_NOOP("GemmModelTexts", "TMA"),
            "descriptors": QT_TRANSLATE_NOOP("GemmModelTexts", "descriptors")}


def path_text(places: Sequence[str], via: str | None = None, translate: Translate = english,
              arrow: str = " -> ") -> str:
    """A boundary's path from its place codes: ``("l2", "shared"), "tma"`` -> "L2 -> shared memory (TMA)" (the
    JSON's ``bytes_per_level`` path and the CLI's); the window passes its translator and an arrow of its own."""
    text = arrow.join(translate(PATH_CONTEXT, PATH_PLACE[p]) for p in places)
    return f"{text} ({translate(PATH_CONTEXT, PATH_VIA[via])})" if via else text

# the main loop's time terms, as the bound reason names them
TERM_TEXT = {
    "tensor_core": QT_TRANSLATE_NOOP("GemmModelTexts", "Tensor Core math"),
    "fp32_pipe": QT_TRANSLATE_NOOP("GemmModelTexts", "FP32 math (CUDA cores)"),
    "issue": QT_TRANSLATE_NOOP("GemmModelTexts", "instruction issue"),
    "shared": QT_TRANSLATE_NOOP("GemmModelTexts", "shared-memory bandwidth"),
    "hbm": QT_TRANSLATE_NOOP("GemmModelTexts", "HBM bandwidth"),
    "l2": QT_TRANSLATE_NOOP("GemmModelTexts", "L2 bandwidth"),
    "latency": QT_TRANSLATE_NOOP("GemmModelTexts", "latency (waiting on memory, not enough in flight)"),
    "fill_and_epilogue": QT_TRANSLATE_NOOP("GemmModelTexts", "pipeline fill and epilogue (not hidden by the main "
                                                             "loop)"),
}

GEMM = Catalog("GemmModelTexts", {
    # the bound: "term: why." and the next terms as shares of it
    "bound": QT_TRANSLATE_NOOP("GemmModelTexts", "{term}: {why}."),
    "bound_next": QT_TRANSLATE_NOOP("GemmModelTexts", "{term}: {why}. Next: {rest} of it."),
    "term_share": QT_TRANSLATE_NOOP("GemmModelTexts", "{term} {pct}%"),
    # why each term bounds
    "mma_longer": QT_TRANSLATE_NOOP("GemmModelTexts", "the MMAs of the {n} tile(s) on the busiest SM take longer "
                                                      "than moving their data"),
    "ffma_longer": QT_TRANSLATE_NOOP("GemmModelTexts", "the FFMAs of the {n} tile(s) on the busiest SM take longer "
                                                       "than moving their data"),
    "issue": QT_TRANSLATE_NOOP("GemmModelTexts", "the warps issue more instructions than the schedulers can issue "
                                                 "per clock"),
    "shared_wgmma": QT_TRANSLATE_NOOP("GemmModelTexts", "every operand passes through shared memory at {bpc} B/clk "
                                                        "per SM; the wgmma path reads them once from shared memory "
                                                        "without register staging"),
    "shared": QT_TRANSLATE_NOOP("GemmModelTexts", "every operand passes through shared memory at {bpc} B/clk per SM"),
    "hbm": QT_TRANSLATE_NOOP("GemmModelTexts", "the bytes that must come from device memory take longer than the "
                                               "math"),
    "l2": QT_TRANSLATE_NOOP("GemmModelTexts", "the tile loads from L2 take longer than the math (bigger tiles or "
                                              "cluster multicast cut them)"),
    "latency": QT_TRANSLATE_NOOP("GemmModelTexts", "too few loads in flight to cover the memory latency (more stages "
                                                   "or more CTAs per SM would help)"),
    "fill": QT_TRANSLATE_NOOP("GemmModelTexts", "the K loop is too short to hide the first stage's latency and the "
                                                "epilogue"),
    # why a simulation of the main loop differs from the plan
    "main_loop_only": QT_TRANSLATE_NOOP("GemmModelTexts", "the scenario runs the main loop only: the plan adds {us} µs "
                                                          "of pipeline fill and epilogue that the simulation does not "
                                                          "have"),
    "clocks": QT_TRANSLATE_NOOP("GemmModelTexts", "clocks: the simulator runs the {gpu} at its {boost} MHz boost clock "
                                                  "with its own unit rates; the plan converts every per-clock figure "
                                                  "at {eff} MHz ({peak} MHz peak clock x {frac} sustained): compare "
                                                  "the simulated time with the model's main loop at the simulator's "
                                                  "clock"),
    "largest_term": QT_TRANSLATE_NOOP("GemmModelTexts", "the plan takes the largest main-loop term ({term}) as if "
                                                        "everything else overlapped it; the simulator issues each "
                                                        "warp's instructions in order and queues them at each unit, so "
                                                        "latencies and near-limit units add up partly, and a unit "
                                                        "whose peak the simulator does not cap cannot slow it"),
    "few_warps": QT_TRANSLATE_NOOP("GemmModelTexts", "{n} warp(s) per scheduler ({ctas} CTA(s) x {warps} warps per "
                                                     "SM): while a warp waits for its copies, fragment loads or the "
                                                     "barrier, little else can issue"),
    "waves_not_persistent": QT_TRANSLATE_NOOP("GemmModelTexts", "the scenario runs one CTA per tile in waves (not a "
                                                                "persistent CTA walking tiles): the tiles of the next "
                                                                "round start when a CTA ends, with an empty pipeline; "
                                                                "each CTA copies only its share of a multicast "
                                                                "operand, and the simulator's L2 is one GPU-wide queue "
                                                                "at its bandwidth"),
    "l2_from_tiles": QT_TRANSLATE_NOOP("GemmModelTexts", "the plan estimates that {pct}% of the copies hit in L2 "
                                                         "(it assumes a share of L2 holds the operands); the "
                                                         "simulation looks each copied tile up in its L2 by the "
                                                         "tile's addresses, so its hit rate follows from which "
                                                         "blocks run together"),
    "no_cp_async": QT_TRANSLATE_NOOP("GemmModelTexts", "the simulator stages each copy through registers (ldg + sts; "
                                                       "it has no cp.async) and charges the sts to shared memory, "
                                                       "which the plan does not"),
    "no_double_buffer": QT_TRANSLATE_NOOP("GemmModelTexts", "the scenario cannot double-buffer fragments (each MMA "
                                                            "step waits for the fragment loads just before it), so "
                                                            "every slice exposes the shared-memory latency; CUTLASS "
                                                            "loads the next slice's fragments during this slice's "
                                                            "MMAs, as the plan assumes"),
    "mma_shape": QT_TRANSLATE_NOOP("GemmModelTexts", "the simulator's mma op is m16n8k16 (4096 FLOP); {dtype}'s "
                                                     "{shape} MMAs are simulated as that many m16n8k16 MMAs"),
    # what the mapper chose for the user
    "warps_unsuitable": QT_TRANSLATE_NOOP("GemmModelTexts", "{asked} warps do not suit the {tile} tile; using {n}"),
    "stages_unfit": QT_TRANSLATE_NOOP("GemmModelTexts", "{asked} stages of a {tile} tile do not fit {gpu}'s shared "
                                                        "memory; using {n}"),
    "pingpong": QT_TRANSLATE_NOOP("GemmModelTexts", "BM = {bm} does not split between 2 consumer warpgroups; using "
                                                    "the pingpong schedule"),
    "cluster_pads": QT_TRANSLATE_NOOP("GemmModelTexts", "the {cluster} cluster pads the {grid} tile grid to {padded}: "
                                                        "{n} padded tiles compute nothing"),
}, specs={"term_share": {"pct": ".0f"}, "main_loop_only": {"us": ".1f"}, "clocks": {"eff": ".0f"},
           "l2_from_tiles": {"pct": ".1f"}},
    words={"term": TERM_TEXT})

ATTENTION = Catalog("AttentionTexts", {
    "no_mask": QT_TRANSLATE_NOOP("AttentionTexts", "forward pass only, no mask, no dropout; the 1/sqrt(d) scale is "
                                                   "folded into the softmax"),
    "stored": QT_TRANSLATE_NOOP("AttentionTexts", "S and P are stored in {dtype} ({b} B per element); Q, K, V and O "
                                                  "too"),
    "softmax": QT_TRANSLATE_NOOP("AttentionTexts", "softmax = {flop} FLOP per score (max, subtract, exp, sum, divide); "
                                                   "exp also occupies the SFU ({lanes} lanes per sub-partition)"),
    "flash_order": QT_TRANSLATE_NOOP("AttentionTexts", "flash: FlashAttention-2 loop order (query blocks outer, "
                                                       "key/value blocks inner); the SMs read K and V once per query "
                                                       "block (global_bytes, exact: FlashAttention's IO accounting); "
                                                       "logsumexp saved in FP32"),
    "kv_in_l2": QT_TRANSLATE_NOOP("AttentionTexts", "flash HBM bytes: one CTA per SM, so about {h} (batch, head) pairs "
                                                    "are in flight; their K and V ({ws} B) fit the usable L2 ({frac} x "
                                                    "{l2} B), so the K/V re-reads come from L2 and HBM sees K and V "
                                                    "once"),
    "kv_not_in_l2": QT_TRANSLATE_NOOP("AttentionTexts", "flash HBM bytes: one CTA per SM, so about {h} (batch, head) "
                                                        "pairs are in flight; their K and V ({ws} B) do not fit the "
                                                        "usable L2 ({frac} x {l2} B), so every K/V re-read comes from "
                                                        "HBM"),
    "s_in_l2": QT_TRANSLATE_NOOP("AttentionTexts", "naive: S and P ({s} B each) go to global memory; the next kernel's "
                                                   "read of them hits L2 (they fit the usable L2); their writes still "
                                                   "reach HBM"),
    "s_from_hbm": QT_TRANSLATE_NOOP("AttentionTexts", "naive: S and P ({s} B each) go to global memory; the next "
                                                      "kernel's read of them comes from HBM (they do not fit the "
                                                      "usable L2)"),
    "kernel_time": QT_TRANSLATE_NOOP("AttentionTexts", "each kernel takes max(matmul at {tflops} TFLOPS + other FLOPs "
                                                       "at the FP32 peak, exps on the SFUs, HBM bytes at {eff} x {bw} "
                                                       "GB/s, global bytes at the L2's {l2bw} GB/s); the largest is "
                                                       "the bound; a kernel's own tiling and waves are not modelled; "
                                                       "launch overhead is reported apart"),
    "blocks_unfit": QT_TRANSLATE_NOOP("AttentionTexts", "blocks {bq}x{kv} do not fit {gpu}'s shared memory at head "
                                                        "size {d}; using {br}x{bc}"),
}, specs={"kernel_time": {"l2bw": ".0f"}})
