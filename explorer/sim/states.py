"""Warp states, in Nsight Compute's vocabulary, with one-sentence meanings.

A warp slot is in exactly one state each cycle. ``empty`` means no running warp
(free, or held by a block whose other warps still run); every other state is a
resident warp. ``selected`` + ``not_selected`` are the eligible warps.
"""

from __future__ import annotations

EMPTY, SELECTED, NOT_SELECTED, WAIT, SHORT_SB, LONG_SB, BARRIER, MATH_THROTTLE, MIO_THROTTLE, LG_THROTTLE, DRAIN = range(11)
# Hopper's asynchronous pipeline (tma / wgmma ops). Not in Nsight Compute's public list of stall
# reasons, so named after the instruction the warp waits in: a consumer in mbarrier.try_wait for
# its stage's TMA copy (or the producer for a free stage); a consumer in wgmma.wait_group.
MBARRIER, WGMMA_WAIT = 11, 12

NAMES = (
    "empty",
    "selected",
    "not_selected",
    "wait",
    "short_scoreboard",
    "long_scoreboard",
    "barrier",
    "math_pipe_throttle",
    "mio_throttle",
    "lg_throttle",
    "drain",
    "mbarrier",
    "wgmma_wait",
)
CODE = {name: i for i, name in enumerate(NAMES)}

MEANING = {
    "empty": "No warp runs in this slot (free, or reserved by a block whose other warps still run).",
    "selected": "Eligible and picked: the scheduler issued this warp's instruction this cycle.",
    "not_selected": "Eligible, but the scheduler issued another warp's instruction this cycle.",
    "wait": "Waiting a fixed number of cycles for an arithmetic result it depends on (e.g. a previous FMA).",
    "short_scoreboard": "Waiting for a shared-memory or special-function (MUFU) result.",
    "long_scoreboard": "Waiting for a global-memory load to come back from L1, L2 or HBM.",
    "barrier": "Waiting at __syncthreads() for the other warps of its block.",
    "math_pipe_throttle": "Ready, but the arithmetic pipe it needs (FMA, SFU or Tensor Core) is busy.",
    "mio_throttle": "Ready, but the shared-memory (MIO) queue is full.",
    "lg_throttle": "Ready, but the global-memory (L1TEX) queue is full.",
    "drain": "Has exited and waits for its outstanding memory stores to finish.",
    "mbarrier": "Waiting on a stage's mbarrier: a consumer for the TMA copy to land, the producer for a free stage.",
    "wgmma_wait": "Waiting at wgmma.wait_group for its asynchronous warpgroup MMAs on the Tensor Cores to finish.",
}

ELIGIBLE = (SELECTED, NOT_SELECTED)
STALLS = (WAIT, SHORT_SB, LONG_SB, BARRIER, MATH_THROTTLE, MIO_THROTTLE, LG_THROTTLE, DRAIN, MBARRIER, WGMMA_WAIT)
