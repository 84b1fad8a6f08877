"""What the app's named things mean, one sentence each: warp states, units, scheduler policies, workloads.

The core's tables (``explorer.sim.states.MEANING``, ``explorer.model.units.MEANING``,
``explorer.model.scenario.POLICY_DOC``, the workload presets' ``doc``) are these; the window
translates an entry by its key (``QCoreApplication.translate(context, TABLE[key])``). Before,
the window kept a second copy of every English sentence to look its translation up by. The
memory levels' names are a :class:`~explorer.texts.message.Catalog` (``LEVEL_NAME``): device
memory's kind is a figure the window words with the core's template, not a string it parses.
"""

from __future__ import annotations

from explorer.texts import QT_TRANSLATE_NOOP
from explorer.texts.message import Catalog

STATE_CONTEXT = "WarpStates"
# explorer.sim.states: what a warp in each state is doing (Nsight Compute's stall reasons)
STATE_MEANING = {
    "empty": QT_TRANSLATE_NOOP("WarpStates", "No warp runs in this slot (free, or reserved by a block whose other "
                                             "warps still run)."),
    "selected": QT_TRANSLATE_NOOP("WarpStates", "Eligible and picked: the scheduler issued this warp's instruction "
                                                "this cycle."),
    "not_selected": QT_TRANSLATE_NOOP("WarpStates", "Eligible, but the scheduler issued another warp's instruction "
                                                    "this cycle."),
    "wait": QT_TRANSLATE_NOOP("WarpStates", "Waiting a fixed number of cycles for an arithmetic result it depends on "
                                            "(e.g. a previous FMA)."),
    "short_scoreboard": QT_TRANSLATE_NOOP("WarpStates", "Waiting for a shared-memory or special-function (MUFU) "
                                                        "result."),
    "long_scoreboard": QT_TRANSLATE_NOOP("WarpStates", "Waiting for a global-memory load to come back from L1, L2 or "
                                                       "HBM."),
    "barrier": QT_TRANSLATE_NOOP("WarpStates", "Waiting at __syncthreads() for the other warps of its block."),
    "math_pipe_throttle": QT_TRANSLATE_NOOP("WarpStates", "Ready, but the arithmetic pipe it needs (FMA, SFU or "
                                                          "Tensor Core) is busy."),
    "mio_throttle": QT_TRANSLATE_NOOP("WarpStates", "Ready, but the shared-memory (MIO) queue is full."),
    "lg_throttle": QT_TRANSLATE_NOOP("WarpStates", "Ready, but the global-memory (L1TEX) queue is full."),
    "drain": QT_TRANSLATE_NOOP("WarpStates", "Has exited and waits for its outstanding memory stores to finish."),
    "mbarrier": QT_TRANSLATE_NOOP("WarpStates", "Waiting on a stage's mbarrier: a consumer for the TMA copy to land, "
                                                "the producer for a free stage."),
    "wgmma_wait": QT_TRANSLATE_NOOP("WarpStates", "Waiting at wgmma.wait_group for its asynchronous warpgroup MMAs on"
                                                  " the Tensor Cores to finish."),
}

UNIT_CONTEXT = "SolTexts"
# explorer.model.units: what each Speed-of-Light unit does
UNIT_MEANING = {
    "issue": QT_TRANSLATE_NOOP("SolTexts", "The warp schedulers: each issues at most one warp-instruction per cycle."),
    "fp32": QT_TRANSLATE_NOOP("SolTexts", "FP32 lanes: fused multiply-adds and other single-precision arithmetic."),
    "int": QT_TRANSLATE_NOOP("SolTexts", "INT32 lanes: integer arithmetic, address computation, logic."),
    "sfu": QT_TRANSLATE_NOOP("SolTexts", "Special-function units (MUFU): exp, log, sin, rsqrt and the like."),
    "tensor": QT_TRANSLATE_NOOP("SolTexts", "Tensor Cores: matrix multiply-accumulate (MMA) on small tiles."),
    "lsu": QT_TRANSLATE_NOOP("SolTexts", "Load/store units: issue every global and shared-memory access to L1TEX."),
    "l1": QT_TRANSLATE_NOOP("SolTexts", "The SM's L1 data path for global memory: 128 bytes per cycle."),
    "shared": QT_TRANSLATE_NOOP("SolTexts", "Shared-memory banks: 32 banks x 4 bytes per cycle; conflicts cost extra "
                                            "cycles."),
    "l2": QT_TRANSLATE_NOOP("SolTexts", "The L2 cache's bandwidth to the SMs, shared by the whole GPU."),
    "dram": QT_TRANSLATE_NOOP("SolTexts", "Device memory (HBM/GDDR): the datasheet bandwidth."),
}

MODEL_CONTEXT = "CoreTexts"
# explorer.model.scenario: the scheduler policies
POLICY_DOC = {
    "lrr": QT_TRANSLATE_NOOP("CoreTexts", "loose round-robin: the next ready warp after the one that issued last"),
    "gto": QT_TRANSLATE_NOOP("CoreTexts", "greedy-then-oldest: keep issuing one warp until it stalls, then the oldest"
                                          " ready one"),
    "oldest": QT_TRANSLATE_NOOP("CoreTexts", "oldest first: always the ready warp that was launched earliest"),
    "two_level": QT_TRANSLATE_NOOP("CoreTexts", "two-level: round-robin among a small active set; stalled warps swap "
                                                "out"),
}
# explorer.model.workload: the workload presets
WORKLOAD_DOC = {
    "fma-global": QT_TRANSLATE_NOOP("CoreTexts", "load one value, eight dependent FMAs on it, store it (the mission's"
                                                 " example)"),
    "stream": QT_TRANSLATE_NOOP("CoreTexts", "memory-bound streaming: c[i] = a[i] * s + b[i] with 16-byte vectors"),
    "compute": QT_TRANSLATE_NOOP("CoreTexts", "compute-bound: long FMA chains with 4-way instruction-level "
                                              "parallelism"),
    "latency": QT_TRANSLATE_NOOP("CoreTexts", "latency-bound: a load, then a dependent FMA chain that needs its "
                                              "result"),
    "strided": QT_TRANSLATE_NOOP("CoreTexts", "uncoalesced: threads 32 elements apart, every thread its own 32-byte "
                                              "sector"),
    "tiled-shared": QT_TRANSLATE_NOOP("CoreTexts", "shared-memory tiling: stage a tile, barrier, compute from shared "
                                                   "memory, barrier"),
    "tensor-gemm": QT_TRANSLATE_NOOP("CoreTexts", "GEMM-like main loop: global->shared stage, barrier, fragments from"
                                                  " shared, MMAs"),
    "sfu": QT_TRANSLATE_NOOP("CoreTexts", "special functions: each value goes through exp and rsqrt"),
}

# where each memory level lives and who manages it (explorer.gemm.hierarchy.MemoryLevel's location and managed_by):
# the Memory tab's tooltips, translated by level in the window
PLACE = {
    "registers": (QT_TRANSLATE_NOOP("CoreTexts", "each SM sub-partition's register file"),
                  QT_TRANSLATE_NOOP("CoreTexts", "compiler")),
    "shared": (QT_TRANSLATE_NOOP("CoreTexts", "on the SM, in the L1/shared SRAM"),
               QT_TRANSLATE_NOOP("CoreTexts", "program (__shared__)")),
    "l1": (QT_TRANSLATE_NOOP("CoreTexts", "on the SM, the same SRAM as shared memory"),
           QT_TRANSLATE_NOOP("CoreTexts", "hardware")),
    "l2": (QT_TRANSLATE_NOOP("CoreTexts", "on the die, shared by all SMs"), QT_TRANSLATE_NOOP("CoreTexts", "hardware")),
    "hbm": (QT_TRANSLATE_NOOP("CoreTexts", "off the die (stacks or chips beside it)"),
            QT_TRANSLATE_NOOP("CoreTexts", "program (cudaMalloc), cached by L2")),
}

# the memory levels' names (explorer.gemm.hierarchy.MemoryLevel.name: a Message, so the window words the same
# record); device memory's names its kind (HBM3, GDDR6X) as a figure
LEVEL_NAME = Catalog("MemoryLevelTexts", {
    "registers": QT_TRANSLATE_NOOP("MemoryLevelTexts", "Registers"),
    "shared": QT_TRANSLATE_NOOP("MemoryLevelTexts", "Shared memory"),
    "l1": QT_TRANSLATE_NOOP("MemoryLevelTexts", "L1 data cache"),
    "l2": QT_TRANSLATE_NOOP("MemoryLevelTexts", "L2 cache"),
    "hbm": QT_TRANSLATE_NOOP("MemoryLevelTexts", "Device memory ({kind})"),
})
