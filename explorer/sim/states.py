"""Warp states, in Nsight Compute's vocabulary, with one-sentence meanings.

A warp slot is in exactly one state each cycle. ``empty`` means no running warp
(free, or held by a block whose other warps still run); every other state is a
resident warp. ``selected`` + ``not_selected`` are the eligible warps.
"""

from __future__ import annotations

from explorer.texts.names import STATE_MEANING

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

MEANING = STATE_MEANING  # one sentence per state (explorer/texts/names.py: the window translates them by name)

ELIGIBLE = (SELECTED, NOT_SELECTED)
STALLS = (WAIT, SHORT_SB, LONG_SB, BARRIER, MATH_THROTTLE, MIO_THROTTLE, LG_THROTTLE, DRAIN, MBARRIER, WGMMA_WAIT)
