"""Hand-made WarpPrograms for engine tests: a few rows whose timing can be worked out by hand."""

from __future__ import annotations

import numpy as np

from explorer.model.scenario import Scenario
from explorer.sass.warp_program import OP, SB, UNIT, ListingRow, WarpProgram, pack_registers

# op class -> (unit, scoreboard) a row of that class gets unless given
DEFAULTS = {
    "fma": ("fma", "fixed"), "sfu": ("xu", "short"), "mma": ("tensor", "fixed"), "ldg": ("lsu", "long"),
    "stg": ("lsu", "none"), "lds": ("lsu", "short"), "sts": ("lsu", "none"), "sync": ("adu", "none"),
    "exit": ("cbu", "none"), "int": ("alu", "fixed"), "fp64": ("fp64", "short"), "uniform": ("uniform", "fixed"),
    "branch": ("cbu", "none"), "ldc": ("adu", "short"), "mio": ("lsu", "short"), "ldl": ("lsu", "long"),
    "stl": ("lsu", "none"), "atom": ("lsu", "long"),
}
MEMORY = ("ldg", "stg", "lds", "sts", "ldl", "stl", "atom")


def row(cls: str, dst=(), src=(), latency: int = 4, unit: str | None = None, sb: str | None = None,
        req: int = 128) -> dict:
    u, s = DEFAULTS[cls]
    return {"cls": cls, "dst": tuple(dst), "src": tuple(src), "latency": latency, "unit": unit or u,
            "sb": sb or s, "req": req if cls in MEMORY else 0}


def program(rows: list[dict], loop_start: int = 0, loop_end: int = 0, trip: int = 1) -> WarpProgram:
    """A WarpProgram of ``rows`` (an EXIT row is appended)."""
    rows = [*rows, row("exit", latency=1)]
    dst, src, names = pack_registers([(r["dst"], r["src"]) for r in rows])
    listing = tuple(ListingRow(pc=16 * i, opcode=r["cls"].upper(), mnemonic=r["cls"].upper(), text=r["cls"],
                               unit=r["unit"], op_class=r["cls"], latency=r["latency"], scoreboard=r["sb"],
                               dst=r["dst"], src=r["src"], segment="body", executed=True)
                    for i, r in enumerate(rows))
    n = len(rows)
    prog = WarpProgram(
        source="sass", arch="sm_90", function="test",
        op=np.array([OP[r["cls"]] for r in rows], np.int8), unit=np.array([UNIT[r["unit"]] for r in rows], np.int8),
        latency=np.array([r["latency"] for r in rows], np.int32),
        scoreboard=np.array([SB[r["sb"]] for r in rows], np.int8), dst=dst, src=src,
        req_bytes=np.array([r["req"] for r in rows], np.int32), useful_bytes=np.array([r["req"] for r in rows], np.int32),
        instrumentation=np.zeros(n, bool), static_index=np.arange(n, dtype=np.int32),
        loop_start=loop_start, loop_end=loop_end, trip=trip, reg_names=names, listing=listing)
    prog.check()
    return prog


def one_warp(**values) -> Scenario:
    """One block of one warp on an H100; global loads served by L2 (no L1 hits, no DRAM draws)."""
    base = {"launch.grid": [1, 1, 1], "launch.block": [32, 1, 1], "program": "model",
            "workload.l1_hit_rate": 0.0, "workload.l2_hit_rate": 1.0}
    return Scenario().with_values(**{**base, **values})


def issue_order(result, sm: int = 0, slot: int = 0) -> list[int]:
    """The rows a slot issued, in order: its next row at each cycle it was selected."""
    from explorer.sim.states import SELECTED

    k = int(np.nonzero(result.recorded_sms == sm)[0][0])
    pcs = result.pc_trace(sm)[:, slot]
    return pcs[result.trace[:, k, slot] == SELECTED].tolist()


def issue_cycles(result, sm: int = 0, slot: int = 0) -> list[int]:
    from explorer.sim.states import SELECTED

    k = int(np.nonzero(result.recorded_sms == sm)[0][0])
    return np.nonzero(result.trace[:, k, slot] == SELECTED)[0].tolist()
