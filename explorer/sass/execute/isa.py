"""The executor's encoding of decoded SASS: row columns, operation codes, operand kinds.

``explorer.sass.execute.decode`` turns each instruction of a listing into one row of an
int64 table; the compiled interpreter (``interp``) reads only these numbers. They are
module-level integers so numba folds them into the compiled code as constants.

A row holds a header (operation, guard predicate, flags, branch target, memory width),
six operand slots of four fields each, an address (for memory instructions) and a few
opcode-specific extras (a LOP3 truth table, a shift count, carry-in predicates). What
each slot means is fixed per operation by the decoder (e.g. ``IADD3``: slot 0 the
destination, 1 and 2 the carry-out predicates, 3-5 the addends), so the interpreter never
re-parses text.
"""

from __future__ import annotations

# -- row columns -------------------------------------------------------------------------
C_OP = 0  # operation code (E_*)
C_GUARD = 1  # guard predicate: 0-7 P0..P6/PT, 8-15 UP0..UP6/UPT (7 and 15 are always true)
C_GNEG = 2  # guard negated (@!P0)
C_UNIF = 3  # 1: a uniform-datapath instruction (registers are UR, predicates UP; executes once)
C_F1, C_F2, C_F3, C_F4 = 4, 5, 6, 7  # opcode-specific flags
C_TARGET = 8  # branch / call / BSSY target as a row index (-1: none)
C_WIDTH = 9  # memory access bytes per thread (1, 2, 4, 8, 16)
C_MSIGN = 10  # 1: a sign-extending narrow load (.S8, .S16)
C_MCLASS = 11  # memory class (M_*), -1 for other instructions
C_OPND = 12  # operand k occupies C_OPND + 4k .. + 3: kind, value, mods, sub-word selector
N_OPND = 6
C_AREG = 36  # address: general register (255: none / RZ)
C_AWIDE = 37  # 1: the register is a 64-bit pair (R2.64)
C_AUREG = 38  # uniform register added (63: none / URZ)
C_AIMM = 39  # immediate offset (signed)
C_ASCALE = 40  # the register is scaled (.X4 -> 4)
C_E0 = 41  # extras E0..E5
C_W64 = 47  # bit k: operand slot k is read as 64 bits (a register pair, a 64-bit constant or immediate)
N_COLS = 48

# -- operand kinds -----------------------------------------------------------------------
K_NONE, K_R, K_UR, K_IMM, K_PRED, K_SREG, K_CBANK, K_CIDX, K_BREG = 0, 1, 2, 3, 4, 5, 6, 7, 8
RZ, URZ, PT, UPT = 255, 63, 7, 15
# operand modifiers (bit mask)
MOD_NEG, MOD_ABS, MOD_NOT, MOD_64 = 1, 2, 4, 8
# sub-word selectors
SEL_NONE, SEL_H0_H0, SEL_H1_H1, SEL_H1_H0, SEL_H0_H1, SEL_F32 = 0, 1, 2, 3, 4, 5
SEL_B0, SEL_B1, SEL_B2, SEL_B3, SEL_H0, SEL_H1 = 8, 9, 10, 11, 12, 13

# -- operations --------------------------------------------------------------------------
E_NOP = 0
E_UNSUPPORTED = 1
E_MOV = 2
E_SEL = 3
E_IADD3 = 4
E_IMAD = 5
E_LEA = 6
E_LOP3 = 7
E_SHF = 8
E_IABS = 9
E_IMNMX = 10
E_ISETP = 11
E_POPC = 12
E_FLO = 13
E_BREV = 14
E_PRMT = 15
E_BMSK = 16
E_SGXT = 17
E_PLOP3 = 18
E_P2R = 19
E_R2P = 20
E_FADD = 21
E_FMUL = 22
E_FFMA = 23
E_FMNMX = 24
E_FSETP = 25
E_FSET = 26
E_MUFU = 27
E_FRND = 28
E_FCHK = 29
E_I2F = 30
E_F2I = 31
E_F2F = 32
E_F2FP = 33
E_I2I = 34
E_HADD2 = 35
E_HMUL2 = 36
E_HFMA2 = 37
E_HMNMX2 = 38
E_HSETP2 = 39
E_DADD = 40
E_DMUL = 41
E_DFMA = 42
E_DSETP = 43
E_DMNMX = 44
E_S2R = 45
E_CS2R = 46
E_SHFL = 47
E_VOTE = 48
E_MATCH = 49
E_REDUX = 50
E_R2UR = 51
E_LDC = 52
E_IADD = 53  # VIADD / IADD (two-operand add)
E_SHL = 54  # old-style SHL / SHR (Turing and older listings)
E_SHR = 55
E_ISCADD = 56
E_B2R = 57
E_HSET2 = 58
E_IMNMX3 = 59  # VIMNMX3 / VIADDMNMX (sm_100 and newer): a three-way min/max, or an add then a min/max
# control
E_BRA = 60
E_EXIT = 61
E_BSSY = 62
E_BSYNC = 63
E_BREAK = 64
E_WARPSYNC = 65
E_BAR = 66
E_CALL = 67
E_RET = 68
E_BMOV_R = 69  # BMOV Rd, Bx (.CLEAR clears Bx)
E_BMOV_B = 70  # BMOV Bx, Ra
E_BRX = 71  # BRX Ra imm: an indirect branch (a switch's jump table)
# memory
E_LDG = 80
E_STG = 81
E_LDS = 82
E_STS = 83
E_LDL = 84
E_STL = 85
E_LD = 86  # generic address
E_ST = 87
E_ATOM = 88  # ATOMG / ATOM (global or generic)
E_RED = 89
E_ATOMS = 90
E_LDGSTS = 91

FIRST_MEMORY_OP = E_LDG

# compare codes (ISETP, FSETP, DSETP, HSETP2): F1
CMP_F, CMP_LT, CMP_EQ, CMP_LE, CMP_GT, CMP_NE, CMP_GE, CMP_NUM, CMP_NAN = 0, 1, 2, 3, 4, 5, 6, 7, 8
CMP_LTU, CMP_EQU, CMP_LEU, CMP_GTU, CMP_NEU, CMP_GEU, CMP_T = 9, 10, 11, 12, 13, 14, 15
CMP_CODES = {"F": CMP_F, "LT": CMP_LT, "EQ": CMP_EQ, "LE": CMP_LE, "GT": CMP_GT, "NE": CMP_NE, "GE": CMP_GE,
             "NUM": CMP_NUM, "NAN": CMP_NAN, "LTU": CMP_LTU, "EQU": CMP_EQU, "LEU": CMP_LEU, "GTU": CMP_GTU,
             "NEU": CMP_NEU, "GEU": CMP_GEU, "T": CMP_T}
BOOL_AND, BOOL_OR, BOOL_XOR = 0, 1, 2
BOOL_CODES = {"AND": BOOL_AND, "OR": BOOL_OR, "XOR": BOOL_XOR}

# rounding modes (F2I, F2F, I2F, FADD/FMUL/FFMA): RN (nearest even), RM (down), RP (up), RZ (toward zero)
RND_RN, RND_RM, RND_RP, RND_RZ = 0, 1, 2, 3
ROUNDING = {"RN": RND_RN, "RM": RND_RM, "RP": RND_RP, "RZ": RND_RZ, "FLOOR": RND_RM, "CEIL": RND_RP,
            "TRUNC": RND_RZ}

# numeric types (conversions, atomics)
T_U8, T_S8, T_U16, T_S16, T_U32, T_S32, T_U64, T_S64, T_F16, T_BF16, T_F32, T_F64 = range(12)
TYPES = {"U8": T_U8, "S8": T_S8, "U16": T_U16, "S16": T_S16, "U32": T_U32, "S32": T_S32, "U64": T_U64,
         "S64": T_S64, "F16": T_F16, "BF16": T_BF16, "F32": T_F32, "F64": T_F64}

# MUFU functions
MUFU_RCP, MUFU_RSQ, MUFU_SQRT, MUFU_EX2, MUFU_LG2, MUFU_SIN, MUFU_COS, MUFU_TANH = 0, 1, 2, 3, 4, 5, 6, 7
MUFU_RCP64H, MUFU_RSQ64H = 8, 9
MUFU_CODES = {"RCP": MUFU_RCP, "RSQ": MUFU_RSQ, "SQRT": MUFU_SQRT, "EX2": MUFU_EX2, "LG2": MUFU_LG2,
              "SIN": MUFU_SIN, "COS": MUFU_COS, "TANH": MUFU_TANH, "RCP64H": MUFU_RCP64H, "RSQ64H": MUFU_RSQ64H}

# shuffle modes
SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY = 0, 1, 2, 3
# vote modes
VOTE_ALL, VOTE_ANY, VOTE_EQ = 0, 1, 2
# atomic operations
A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_POPC_INC, A_CAST = range(12)
ATOMIC_OPS = {"ADD": A_ADD, "MIN": A_MIN, "MAX": A_MAX, "INC": A_INC, "DEC": A_DEC, "AND": A_AND, "OR": A_OR,
              "XOR": A_XOR, "EXCH": A_EXCH, "CAS": A_CAS}
# reductions (REDUX, BAR.RED)
R_SUM, R_MIN, R_MAX, R_AND, R_OR, R_XOR, R_POPC = range(7)

# special registers
SR_TID_X, SR_TID_Y, SR_TID_Z, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z = 0, 1, 2, 3, 4, 5
SR_LANEID, SR_SMID, SR_WARPID, SR_NSMID = 6, 7, 8, 9
SR_LTMASK, SR_LEMASK, SR_GTMASK, SR_GEMASK, SR_EQMASK = 10, 11, 12, 13, 14
SR_CLOCKLO, SR_CLOCKHI, SR_GLOBALTIMERLO, SR_GLOBALTIMERHI = 15, 16, 17, 18
SR_CGACTAID, SR_ZERO, SR_SWINHI, SR_GRIDID, SR_CLOCK64 = 19, 20, 21, 22, 23
N_SR = 24
SPECIAL_REGISTERS = {
    "SR_TID.X": SR_TID_X, "SR_TID.Y": SR_TID_Y, "SR_TID.Z": SR_TID_Z,
    "SR_CTAID.X": SR_CTAID_X, "SR_CTAID.Y": SR_CTAID_Y, "SR_CTAID.Z": SR_CTAID_Z,
    "SR_LANEID": SR_LANEID, "SR_VIRTUALSMID": SR_SMID, "SR_SMID": SR_SMID, "SR_VIRTID": SR_WARPID,
    "SR_WARPID": SR_WARPID, "SR_NSMID": SR_NSMID,
    "SR_LTMASK": SR_LTMASK, "SR_LEMASK": SR_LEMASK, "SR_GTMASK": SR_GTMASK, "SR_GEMASK": SR_GEMASK,
    "SR_EQMASK": SR_EQMASK, "SR_CLOCKLO": SR_CLOCKLO, "SR_CLOCKHI": SR_CLOCKHI,
    "SR_GLOBALTIMERLO": SR_GLOBALTIMERLO, "SR_GLOBALTIMERHI": SR_GLOBALTIMERHI, "SR_GLOBALTIMER": SR_GLOBALTIMERLO,
    "SR_CgaCtaId": SR_CGACTAID, "SRZ": SR_ZERO, "SR_SWINHI": SR_SWINHI, "SR_GRIDID": SR_GRIDID,
    "SR_CLOCK": SR_CLOCK64,
}

# -- memory classes (the metrics' and the executed stream's names) -----------------------------
M_GLOBAL_LOAD, M_GLOBAL_STORE, M_GLOBAL_ATOMIC, M_SHARED_LOAD, M_SHARED_STORE, M_SHARED_ATOMIC = 0, 1, 2, 3, 4, 5
M_LOCAL_LOAD, M_LOCAL_STORE = 6, 7
MEMORY_CLASSES = ("global_load", "global_store", "global_atomic", "shared_load", "shared_store", "shared_atomic",
                  "local_load", "local_store")
N_CLASSES = len(MEMORY_CLASSES)
GLOBAL_LIKE = (M_GLOBAL_LOAD, M_GLOBAL_STORE, M_GLOBAL_ATOMIC, M_LOCAL_LOAD, M_LOCAL_STORE)
SHARED_LIKE = (M_SHARED_LOAD, M_SHARED_STORE, M_SHARED_ATOMIC)

# -- lane states -------------------------------------------------------------------------------
L_READY, L_BSYNC, L_WARPSYNC, L_BAR, L_EXITED, L_ABSENT = 0, 1, 2, 3, 4, 5

# -- run status and errors (the interpreter's answer; ``session`` turns errors into messages) ----
S_DONE, S_FULL, S_ERROR = 0, 1, 2
ERR_NONE, ERR_UNSUPPORTED, ERR_OUT_OF_BOUNDS, ERR_MISALIGNED, ERR_LIMIT, ERR_DEADLOCK = 0, 1, 2, 3, 4, 5
ERR_SHARED_BOUNDS, ERR_LOCAL_BOUNDS, ERR_CALL_DEPTH, ERR_PC, ERR_CONST_BOUNDS = 6, 7, 8, 9, 10
# error record fields (int64[16])
X_CODE, X_ROW, X_BLOCK, X_WARP, X_LANE, X_ADDR, X_SIZE, X_STORE = 0, 1, 2, 3, 4, 5, 6, 7

# -- accumulated metrics (int64 array) ------------------------------------------------------------
A_WARP_INSTR = 0  # issued warp-instructions
A_ACTIVE_LANES = 1  # sum of active lanes over them
A_EXEC_LANES = 2  # sum of lanes whose guard was true
A_BLOCKS_DONE = 3
A_THREAD_INSTR = 4  # reserved
A_CLASS = 8  # per class c: 8 + 5c .. : requests, sectors (or wavefronts), ideal wavefronts, bytes asked, lanes
A_FIELDS = 5
N_ACC = A_CLASS + A_FIELDS * N_CLASSES
