"""How the views order the warp states (Qt-free): the legend's order and the zoomed-out timeline's priority.

The states themselves — codes, Nsight names, meanings — are the simulator's
(``explorer.sim.states``, importable without loading the engine); this module
adds only what the views decide: the order they are listed in, which state wins
when one pixel covers many cycles, and the code of a slot that was not recorded.
"""

from __future__ import annotations

from explorer.sim.states import EMPTY, NAMES, NOT_SELECTED, SELECTED

N_STATES = len(NAMES)
UNKNOWN = 255  # SimResult.states_at: an SM whose slots were not recorded

# The order views list states in: what issues first, then why the others do not.
DISPLAY_ORDER = (1, 2, 5, 3, 4, 6, 7, 8, 9, 11, 12, 10, 0)

# Zoomed-out timeline: a bin of cycles shows its most important state, so one-cycle
# events survive. Higher wins: issued > eligible > throttles/barrier > dependency
# waits (the wgmma wait among them) > memory waits (mbarrier: a TMA copy) > drain > empty.
PRIORITY = (0, 12, 11, 4, 6, 3, 10, 9, 8, 7, 1, 2, 5)

assert len(PRIORITY) == len(DISPLAY_ORDER) == N_STATES

__all__ = ["DISPLAY_ORDER", "EMPTY", "NAMES", "NOT_SELECTED", "N_STATES", "PRIORITY", "SELECTED", "UNKNOWN"]
