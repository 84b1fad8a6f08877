"""The SASS view's words for the program's facts: units, scoreboards, segments, which program ran.

One sentence per unit and wait kind, translatable, so a tooltip explains what the
listing abbreviates (the unit names are Nsight Compute's pipe names).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.texts.numbers import counted, num


translate = QCoreApplication.translate


def unit_meaning(unit: str) -> str:
    """One sentence: what the pipe named ``unit`` (warp_program.UNIT_NAMES) executes."""
    return {
        "fma": translate("SassTexts", "FMA pipe: single-precision adds, multiplies and fused multiply-adds."),
        "fmaheavy": translate("SassTexts", "FMA heavy pipe: FP32 work plus integer multiplies and conversions."),
        "fp16": translate("SassTexts", "FP16 pipe: half-precision arithmetic (packed pairs)."),
        "alu": translate("SassTexts", "ALU pipe: integer and logic operations, comparisons, moves."),
        "fp64": translate("SassTexts", "FP64 pipe: double-precision arithmetic."),
        "xu": translate("SassTexts", "XU (SFU): transcendental functions, reciprocals and conversions (MUFU)."),
        "tensor": translate("SassTexts", "Tensor Cores: matrix multiply-accumulate (HMMA, IMMA, HGMMA)."),
        "lsu": translate("SassTexts", "Load/store unit: global, local and shared memory accesses through L1TEX."),
        "adu": translate("SassTexts", "Address divergence unit: branches, barriers and warp synchronisation."),
        "cbu": translate("SassTexts", "Convergence barrier unit: EXIT, BSSY/BSYNC and divergent branches."),
        "uniform": translate("SassTexts", "Uniform datapath: one value for the whole warp (UR registers)."),
    }.get(unit, translate("SassTexts", "A pipe the opcode table does not describe."))


def latency_text(row) -> str:
    """How long a dependent waits for this instruction's result (ListingRow)."""
    if row.scoreboard == "none":
        return translate("SassTexts", "no register result")
    if row.latency is None:
        return translate("SassTexts", "set by the memory system")
    return translate("SassTexts", "{n} cycles").format(n=num(row.latency))


def scoreboard_meaning(kind: str) -> str:
    return {
        "fixed": translate("SassTexts", "fixed latency: a dependent waits a known number of cycles (the wait state)"),
        "short": translate("SassTexts", "short scoreboard: a dependent waits until the shared-memory or MUFU result "
                                        "is back (short_scoreboard)"),
        "long": translate("SassTexts", "long scoreboard: a dependent waits until the global-memory result is back "
                                       "(long_scoreboard)"),
        "none": translate("SassTexts", "no result register to wait for"),
    }.get(kind, kind)


def segment_text(segment: str, trip: int) -> str:
    return {
        "prologue": translate("SassTexts", "before the loop (once per warp)"),
        "body": translate("SassTexts", "loop body ({n} times per warp)").format(n=num(trip)),
        "epilogue": translate("SassTexts", "after the loop (once per warp)"),
        "skipped": translate("SassTexts", "never executed (a branch the kernel's arguments never take)"),
    }.get(segment, segment)


def program_line(program, notice: str | None) -> tuple[str, str]:
    """(one line, its tooltip): which program the run executed and, for the model, why."""
    # "343 instructions", "343 инструкции": the noun agrees with the number (Russian's three forms)
    per_warp = counted(program.dynamic_instructions_per_warp, translate("SassTexts", "instruction|instructions"))
    if program.source == "sass":
        inst = program.instrumentation_per_warp
        line = translate("SassTexts", "SASS of {fn} ({arch}) · {n} per warp").format(
            fn=program.function, arch=program.arch, n=per_warp)
        if inst:
            line += " · " + translate("SassTexts", "{k} of them instrumentation").format(k=num(inst))
        tip = translate("SassTexts", "The simulator ran the kernel's own SASS: the instructions the compiled kernel "
                                     "executes on the GPU, compiled with {compiler} and disassembled with {disasm}.")
        tip = tip.format(compiler=program.meta.get("compiler", "NVRTC"),
                         disasm=program.meta.get("disassembler", "nvdisasm"))
        return line, tip
    why = notice or translate("SassTexts", "the scenario chose program = \"model\"")
    line = translate("SassTexts", "Workload model, not SASS: {why}").format(why=why)
    tip = translate("SassTexts", "The simulator ran the workload model: one instruction per workload operation, "
                                 "virtual registers, no address arithmetic or instrumentation ({n} per warp)."
                     ).format(n=per_warp)
    return line, tip
