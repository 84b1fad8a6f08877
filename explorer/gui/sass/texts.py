"""The SASS view's words for the program's facts: units, scoreboards, segments, which program ran.

One sentence per unit and wait kind, translatable, so a tooltip explains what the
listing abbreviates (the unit names are Nsight Compute's pipe names).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.gui.common.numbers import num


def _t(text: str) -> str:
    return QCoreApplication.translate("SassTexts", text)


def unit_meaning(unit: str) -> str:
    """One sentence: what the pipe named ``unit`` (warp_program.UNIT_NAMES) executes."""
    return {
        "fma": _t("FMA pipe: single-precision adds, multiplies and fused multiply-adds."),
        "fmaheavy": _t("FMA heavy pipe: FP32 work plus integer multiplies and conversions."),
        "fp16": _t("FP16 pipe: half-precision arithmetic (packed pairs)."),
        "alu": _t("ALU pipe: integer and logic operations, comparisons, moves."),
        "fp64": _t("FP64 pipe: double-precision arithmetic."),
        "xu": _t("XU (SFU): transcendental functions, reciprocals and conversions (MUFU)."),
        "tensor": _t("Tensor Cores: matrix multiply-accumulate (HMMA, IMMA, HGMMA)."),
        "lsu": _t("Load/store unit: global, local and shared memory accesses through L1TEX."),
        "adu": _t("Address divergence unit: branches, barriers and warp synchronisation."),
        "cbu": _t("Convergence barrier unit: EXIT, BSSY/BSYNC and divergent branches."),
        "uniform": _t("Uniform datapath: one value for the whole warp (UR registers)."),
    }.get(unit, _t("A pipe the opcode table does not describe."))


def latency_text(row) -> str:
    """How long a dependent waits for this instruction's result (ListingRow)."""
    if row.scoreboard == "none":
        return _t("no register result")
    if row.latency is None:
        return _t("set by the memory system")
    return _t("{n} cycles").format(n=num(row.latency))


def scoreboard_meaning(kind: str) -> str:
    return {
        "fixed": _t("fixed latency: a dependent waits a known number of cycles (the wait state)"),
        "short": _t("short scoreboard: a dependent waits until the shared-memory or MUFU result is back "
                    "(short_scoreboard)"),
        "long": _t("long scoreboard: a dependent waits until the global-memory result is back (long_scoreboard)"),
        "none": _t("no result register to wait for"),
    }.get(kind, kind)


def segment_text(segment: str, trip: int) -> str:
    return {
        "prologue": _t("before the loop (once per warp)"),
        "body": _t("loop body ({n} times per warp)").format(n=num(trip)),
        "epilogue": _t("after the loop (once per warp)"),
        "skipped": _t("never executed (a branch the kernel's arguments never take)"),
    }.get(segment, segment)


def program_line(program, notice: str | None) -> tuple[str, str]:
    """(one line, its tooltip): which program the run executed and, for the model, why."""
    per_warp = num(program.dynamic_instructions_per_warp)
    if program.source == "sass":
        inst = program.instrumentation_per_warp
        line = _t("SASS of {fn} ({arch}) · {n} instructions per warp").format(
            fn=program.function, arch=program.arch, n=per_warp)
        if inst:
            line += " · " + _t("{k} of them instrumentation").format(k=num(inst))
        tip = _t("The simulator ran the kernel's own SASS: the instructions the compiled kernel executes on the "
                 "GPU, compiled with {compiler} and disassembled with {disasm}.").format(
            compiler=program.meta.get("compiler", "NVRTC"), disasm=program.meta.get("disassembler", "nvdisasm"))
        return line, tip
    why = notice or _t("the scenario chose program = \"model\"")
    line = _t("Workload model, not SASS: {why}").format(why=why)
    tip = _t("The simulator ran the workload model: one instruction per workload operation, virtual registers, "
             "no address arithmetic or instrumentation ({n} instructions per warp).").format(n=per_warp)
    return line, tip
