"""Translatable copies of the fixed texts the core and the shipped data give the window.

The core (``explorer.model``, ``explorer.gemm``) and the shipped scenario files
speak English; the window shows some of their fixed sentences: the shipped
scenarios' descriptions, the memory levels' places and managers, the GEMM data
types. (Scheduler policies and workload presets are translated by name from the
core's own tables, ``explorer/texts/names.py``.) Each table below maps the
English text to its translation with literal strings, so ``pyside6-lupdate``
finds them; tests check that every table covers the core's texts exactly. A text
a table does not know (a hand-written scenario file) is shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.texts.names import MODEL_CONTEXT, POLICY_DOC, WORKLOAD_DOC


def policy_doc(name: str) -> str:
    """A scheduler policy's one line (``explorer.texts.names.POLICY_DOC``) in the interface language."""
    text = POLICY_DOC.get(name)
    return QCoreApplication.translate(MODEL_CONTEXT, text) if text else ""


def workload_doc(preset: str) -> str:
    """A workload preset's one line (``explorer.texts.names.WORKLOAD_DOC``) in the interface language."""
    text = WORKLOAD_DOC.get(preset)
    return QCoreApplication.translate(MODEL_CONTEXT, text) if text else ""


def scenario_descriptions() -> dict[str, str]:
    """The shipped scenarios' descriptions (``resources/scenarios/*.toml``), whitespace collapsed."""
    translate = QCoreApplication.translate
    return {
        "Shared-memory tiling: each block stages a tile from global memory into shared memory, waits at "
        "__syncthreads, computes from shared memory and waits again. Watch whole blocks stall in 'barrier' while "
        "their slowest warp catches up.": translate(
            "CoreTexts",
            "Shared-memory tiling: each block stages a tile from global memory into shared memory, waits at "
            "__syncthreads, computes from shared memory and waits again. Watch whole blocks stall in 'barrier' "
            "while their slowest warp catches up."),
        "Long FMA chains with 4-way instruction-level parallelism: the schedulers issue almost every cycle. Issue "
        "slots, not memory, limit this kernel.": translate(
            "CoreTexts",
            "Long FMA chains with 4-way instruction-level parallelism: the schedulers issue almost every cycle. "
            "Issue slots, not memory, limit this kernel."),
        "The mission's example: 240 blocks of 256 threads (61,440 threads, 1,920 warps) on an H100. All 1,920 "
        "warps fit on the GPU at once (one partial wave: 240 of 1,056 block places), but each warp loads a value "
        "from HBM and waits ~740 cycles for it (its loaded latency; 703 on an idle GPU, measured on the H200), so "
        "only a handful are ready to issue at any moment.": translate(
            "CoreTexts",
            "The mission's example: 240 blocks of 256 threads (61,440 threads, 1,920 warps) on an H100. All "
            "1,920 warps fit on the GPU at once (one partial wave: 240 of 1,056 block places), but each warp "
            "loads a value from HBM and waits ~740 cycles for it (its loaded latency; 703 on an idle GPU, "
            "measured on the H200), so only a handful are ready to issue at any moment."),
        "A load-then-compute kernel, 1,056 blocks, with 168 registers per thread: registers allow only one block "
        "of 256 threads per SM (8 of 64 warps), too few warps to hide HBM latency, and the grid runs in 8 waves. "
        "Lower the registers (128, 64, 32) and the run gets shorter as occupancy rises, until HBM bandwidth is "
        "the limit. (40 registers is slower than 64: 6 blocks per SM make 1.33 waves.)": translate(
            "CoreTexts",
            "A load-then-compute kernel, 1,056 blocks, with 168 registers per thread: registers allow only one "
            "block of 256 threads per SM (8 of 64 warps), too few warps to hide HBM latency, and the grid runs "
            "in 8 waves. Lower the registers (128, 64, 32) and the run gets shorter as occupancy rises, until HBM "
            "bandwidth is the limit. (40 registers is slower than 64: 6 blocks per SM make 1.33 waves.)"),
        "Each warp re-reads its own 1 KB (two iterations of 16-byte read-only loads, __ldg, which L1 keeps) 32 "
        "times, 20 FMAs per load, on a full H100: 64 warps x 1 KB per SM do not fit the 28 KB of L1 the launch "
        "leaves beside shared memory. LRR rotates through every warp, so each warp's lines are evicted before it "
        "comes back, and its loads go to L2; GTO keeps issuing the oldest ready warps, whose lines stay in L1 and "
        "hit, so those warps stay ready and the rest wait: higher L1 hit rate, shorter run (Rogers et al., MICRO "
        "2012).": translate(
            "CoreTexts",
            "Each warp re-reads its own 1 KB (two iterations of 16-byte read-only loads, __ldg, which L1 keeps) "
            "32 times, 20 FMAs per load, on a full H100: 64 warps x 1 KB per SM do not fit the 28 KB of L1 the "
            "launch leaves beside shared memory. LRR rotates through every warp, so each warp's lines are evicted "
            "before it comes back, and its loads go to L2; GTO keeps issuing the oldest ready warps, whose lines "
            "stay in L1 and hit, so those warps stay ready and the rest wait: higher L1 hit rate, shorter run "
            "(Rogers et al., MICRO 2012)."),
        "A streaming kernel (c = a * s + b, 16-byte vectors) on a full H100: every SM full of warps, almost all "
        "of them waiting on HBM. Throughput is capped by memory bandwidth, not by warps or issue slots.": translate(
            "CoreTexts",
            "A streaming kernel (c = a * s + b, 16-byte vectors) on a full H100: every SM full of warps, almost "
            "all of them waiting on HBM. Throughput is capped by memory bandwidth, not by warps or issue slots."),
        "One block more than a full wave: 133 blocks of 1,024 threads with 64 registers per thread, so each SM "
        "holds exactly one block (registers: 64 x 1,024 = 65,536, the whole register file). 132 blocks run in "
        "the first wave; the 133rd runs alone on one SM while 131 SMs sit idle, and the kernel takes nearly "
        "twice as long as 132 blocks would - the same wave quantization as 133 GEMM tiles on 132 SMs.": translate(
            "CoreTexts",
            "One block more than a full wave: 133 blocks of 1,024 threads with 64 registers per thread, so each "
            "SM holds exactly one block (registers: 64 x 1,024 = 65,536, the whole register file). 132 blocks "
            "run in the first wave; the 133rd runs alone on one SM while 131 SMs sit idle, and the kernel takes "
            "nearly twice as long as 132 blocks would - the same wave quantization as 133 GEMM tiles on 132 "
            "SMs."),
        "A GEMM-like main loop: stage a tile global->shared, barrier, load fragments from shared memory, issue "
        "Tensor Core MMAs, barrier. The Tensor Cores do only the MMA; loads, barriers and address math still run "
        "on the other units.": translate(
            "CoreTexts",
            "A GEMM-like main loop: stage a tile global->shared, barrier, load fragments from shared memory, "
            "issue Tensor Core MMAs, barrier. The Tensor Cores do only the MMA; loads, barriers and address math "
            "still run on the other units."),
    }


def memory_places() -> dict[str, str]:
    """``explorer.gemm.hierarchy`` levels' ``location`` and ``managed_by`` texts."""
    translate = QCoreApplication.translate
    return {
        "each SM sub-partition's register file": translate("CoreTexts", "each SM sub-partition's register file"),
        "on the SM, in the L1/shared SRAM": translate("CoreTexts", "on the SM, in the L1/shared SRAM"),
        "on the SM, the same SRAM as shared memory": translate(
            "CoreTexts", "on the SM, the same SRAM as shared memory"),
        "on the die, shared by all SMs": translate("CoreTexts", "on the die, shared by all SMs"),
        "off the die (stacks or chips beside it)": translate("CoreTexts", "off the die (stacks or chips beside it)"),
        "compiler": translate("CoreTexts", "compiler"),
        "program (__shared__)": translate("CoreTexts", "program (__shared__)"),
        "hardware": translate("CoreTexts", "hardware"),
        "program (cudaMalloc), cached by L2": translate("CoreTexts", "program (cudaMalloc), cached by L2"),
    }


def dtype_labels() -> dict[str, str]:
    """``resources/gemm.toml`` data types' labels."""
    translate = QCoreApplication.translate
    return {
        "FP32 (FFMA on the CUDA cores)": translate("CoreTexts", "FP32 (FFMA on the CUDA cores)"),
        "TF32 (Tensor Cores, FP32 accumulate)": translate("CoreTexts", "TF32 (Tensor Cores, FP32 accumulate)"),
        "FP16 (Tensor Cores, FP32 accumulate)": translate("CoreTexts", "FP16 (Tensor Cores, FP32 accumulate)"),
        "BF16 (Tensor Cores, FP32 accumulate)": translate("CoreTexts", "BF16 (Tensor Cores, FP32 accumulate)"),
        "FP8 E4M3/E5M2 (Tensor Cores, FP32 accumulate)": translate(
            "CoreTexts", "FP8 E4M3/E5M2 (Tensor Cores, FP32 accumulate)"),
    }


def limiter_names() -> dict[str, str]:
    """``explorer.occupancy.LIMITERS``: the resources that limit residency, as the metrics and GEMM views name them."""
    translate = QCoreApplication.translate
    return {
        "warps": translate("MetricsPanel", "warp slots"),
        "registers": translate("MetricsPanel", "registers"),
        "shared_memory": translate("MetricsPanel", "shared memory"),
        "blocks": translate("MetricsPanel", "block slots"),
        "barriers": translate("MetricsPanel", "named barriers"),
    }


def translated(table: dict[str, str], text: str) -> str:
    """``text`` in the interface language when ``table`` knows it (whitespace runs count as one space)."""
    return table.get(" ".join(text.split()), text)


def unit_symbols() -> dict[str, str]:
    """The unit symbols and SI prefixes the window writes (``explorer.texts.numbers.unit`` and ``si``)."""
    translate = QCoreApplication.translate
    return {
        "B": translate("Units", "B"), "kB": translate("Units", "kB"), "MB": translate("Units", "MB"),
        "GB": translate("Units", "GB"), "TB": translate("Units", "TB"), "KiB": translate("Units", "KiB"),
        "MiB": translate("Units", "MiB"), "GiB": translate("Units", "GiB"), "TiB": translate("Units", "TiB"),
        "s": translate("Units", "s"), "ms": translate("Units", "ms"), "µs": translate("Units", "µs"),
        "ns": translate("Units", "ns"), "GB/s": translate("Units", "GB/s"), "TB/s": translate("Units", "TB/s"),
        # the SI prefixes and rate units of explorer.texts.numbers.si (the Speed-of-Light panel's peaks)
        "P": translate("SolTexts", "P"), "T": translate("SolTexts", "T"), "G": translate("SolTexts", "G"),
        "M": translate("SolTexts", "M"), "k": translate("SolTexts", "k"), "B/s": translate("SolTexts", "B/s"),
        "FLOP/s": translate("SolTexts", "FLOP/s"), "ops/s": translate("SolTexts", "ops/s"),
        "warp-instructions/s": translate("SolTexts", "warp-instructions/s"),
    }
