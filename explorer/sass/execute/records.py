"""The interpreter's state records and the fixed layouts of its small arrays.

``session`` owns every array the interpreter reads and writes; it groups them into these named
tuples, and ``interp.run`` and the opcode classes (``ops_*``, ``memory``, ``control``) take the
records they read. numba passes a record as its fields, so grouping costs nothing over separate
arguments (as the cycle loop's records, ``explorer.sim.kernel``); a field is named where it is
read (``regs.R``), never by position. The arrays' sizes: ``warps`` = the block's warps.
"""

from __future__ import annotations

from collections import namedtuple

# what is executed: fixed for the whole launch
Program = namedtuple("Program", (
    "code",  # int64 [rows, isa.N_COLS]: the decoded rows, constant bank linked in (decode.link)
    "launch",  # int64 [N_LAUNCH]: the launch's figures (G_*; a worker's own copy: G_LAST and G_LIMIT are its span)
    "sm_of_block",  # int64 [blocks]: the SM each block is placed on (empty: block % G_NSM)
))
# the lanes' registers
Regs = namedtuple("Regs", (
    "R",  # uint32 [warps, 256, 32]: general registers per warp, register, lane (RZ = 255 is never written)
    "P",  # uint8 [warps, 8, 32]: predicates P0..P6 per lane; PT (7) is 1
    "UR",  # uint32 [warps, 64]: uniform registers (URZ = 63 is never written)
    "UP",  # uint8 [warps, 8]: uniform predicates UP0..UP6; UPT (7) is 1
))
# where each warp's lanes are (divergence and convergence barriers)
Warps = namedtuple("Warps", (
    "B",  # uint32 [warps, 16]: convergence barriers B0..B15, each a lane mask (BSSY sets it, BREAK clears lanes)
    "lpc",  # int64 [warps, 32]: each lane's pc (row) while it is outside the issuing group
    "lst",  # int8 [warps, 32]: each lane's state (isa.L_*: ready, waiting at BSYNC / WARPSYNC / BAR, exited, absent)
    "larg",  # int64 [warps, 32]: what a waiting lane waits for: its BSYNC barrier, WARPSYNC mask or BAR id
    "wrow",  # int64 [warps]: the row the warp's issuing group is at
    "wmask",  # int64 [warps]: the issuing group's lanes (0: none ready)
    "wdiv",  # int8 [warps]: 1 when other lanes of the warp are ready at another pc (the group merges with them)
    "wcount",  # int64 [warps]: instructions the warp issued in this block (its clock registers)
))
# the block's barriers (BAR)
Barriers = namedtuple("Barriers", (
    "cnt",  # int64 [16]: per barrier, the threads arrived
    "exp",  # int64 [16]: per barrier, the threads expected (0: every non-exited thread of the block)
    "red",  # int64 [32]: BAR.RED per barrier: [b] the arrivals whose predicate was true, [16 + b] the reduction
    "res",  # int64 [warps]: per warp, the last BAR.RED's result it was released with (B2R.RESULT)
))
# the memories
Memory = namedtuple("Memory", (
    "heap8", "heap32",  # uint8 / uint32 views of one heap: the global buffers at the offsets in gtab
    "gtab",  # int64 [buffers, 3]: per buffer its device address, size and heap offset (none: address -1)
    "smem8", "smem32",  # the block's shared memory (uint8 / uint32 views)
    "lmem8", "lmem32",  # local memory, a frame per thread of the block (uint8 / uint32 views)
    "cbank",  # uint8 [banks, bytes]: the constant banks
    "hint",  # int64 [1]: the buffer the last global access went to (searched first)
))
# the block's context: its coordinates and windows, and the special registers
Context = namedtuple("Context", (
    "ctx",  # int64 [16]: the CX_* fields below
    "sreg",  # uint32 [warps, isa.N_SR, 32]: per warp, code and lane the special registers that are fixed for the
             # launch (ops_warp.special_registers fills it once; the others come from ctx or the clocks)
))
# the executed stream of the current chunk (session._stream_arrays), in two parts: the issued warp-instructions
# and the memory events
Issues = namedtuple("Issues", (
    "s_warp",  # int32 [entries]: the issuing warp (global id: block * warps + warp)
    "s_row",  # int32 [entries]: the row it issued
    "s_act", "s_exe",  # uint32 [entries]: the group's lanes (active), of those the ones whose guard was true
))
Events = namedtuple("Events", (
    "m_pos",  # int64 [events]: the entry (Issues index) of the memory instruction
    "m_cls",  # int8 [events]: its class (isa.M_*)
    "m_n",  # int32 [events]: the sectors it touched (global, local) or its wavefronts (shared)
    "m_ideal",  # int32 [events]: shared: its wavefronts without bank conflicts (else 0)
    "m_first",  # int64 [events]: where its sectors start in sect (shared: -1)
    "sect",  # int64: the events' sector numbers
))
# what the run counts
Tally = namedtuple("Tally", (
    "acc",  # int64 [isa.N_ACC]: the metrics (isa.A_*)
    "st_exec", "st_act", "st_exe",  # int64 [rows]: per row, times issued, active lanes, executed lanes
))
# the call's bookkeeping and scratch
Work = namedtuple("Work", (
    "ctl",  # int64 [N_CTL]: where the run is (CTL_*): the next call resumes there
    "err",  # int64 [16]: the error record (isa.X_*) when the run stops with S_ERROR
    "sc",  # int64 [SC_ROWS, 32]: an instruction's operands and results for its 32 lanes (SC_* rows)
    "wscr",  # int64 [WSCR]: the bank bookkeeping of memory._wavefronts
))

S_GROW = 3  # inside a block, the stream or event arrays are full: enlarge them and call again
M32 = 0xFFFFFFFF
FULL = 0xFFFFFFFF
# launch fields (Program.launch)
G_GX, G_GY, G_GZ, G_BX, G_BY, G_BZ, G_THREADS, G_WARPS, G_NSM, G_LAST, G_LIMIT = range(11)
G_FRAME, G_SHARED, G_SWIN, G_SLICE, G_NREGS = 11, 12, 13, 14, 15
N_LAUNCH = 16
# control fields (Work.ctl)
CTL_BLOCK, CTL_STARTED, CTL_POS, CTL_MPOS, CTL_SPOS, CTL_TOTAL, CTL_WARP, CTL_SLICE, CTL_SOFT = range(9)
CTL_WARP_BASE = 9  # global id of the block's first warp
CTL_BLOCK_T0 = 10  # CTL_TOTAL when the block started (the global timer reads the block's own count)
N_CTL = 16
# context fields (Context.ctx): the block's coordinates (per block), its shape, the SM it is on, the GPU's SMs, the
# shared window's address and the block's shared bytes, the local window's address and a thread's frame bytes
CX_CTAID_X, CX_CTAID_Y, CX_CTAID_Z, CX_BX, CX_BY, CX_BZ, CX_SMID, CX_NSM = range(8)
CX_SWIN, CX_SHARED, CX_LWIN, CX_FRAME = 8, 9, 10, 11
WSCR = 32 + 32 * 33  # bank bookkeeping of _wavefronts
# rows of Work.sc. Why: a numba call that takes arrays costs reference counting per call; per lane and operand
# that dominated (about 90 ns a lane). So an instruction gathers its operands for every lane into the scratch
# rows once, computes from them, and scatters its results once.
SC_RAW, SC_RAW64, SC_PRED, SC_RES, SC_RES64, SC_P0, SC_P1, SC_TMP = 0, 6, 12, 18, 19, 20, 21, 22
SC_ROWS = 26
