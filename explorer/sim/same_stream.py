"""Whether a simulation ran the instruction stream a GPU measurement executed.

A measurement (``explorer.gpu.measure``) records the SHA-256 of the cubin it launched;
a SASS program (``explorer.sass.kernel_program``) records the SHA-256 of the cubin it
was disassembled from. Equal hashes: the simulator issued the very instructions the GPU
ran (timed by the model, not by the GPU). Otherwise it is the same generated kernel
compiled here (another compiler, another register request), or the workload model: the
``--compare`` report and the window's overlay say which, in one line.
"""

from __future__ import annotations


def stream_comparison(measurement_meta: dict, program) -> dict:
    """``{"source", "arch", "dynamic_instructions_per_warp", "same_cubin", "text"}`` for a measurement's
    metadata and the WarpProgram a re-simulation ran."""
    measured = (measurement_meta.get("kernel") or {}).get("sha256")
    ran = program.meta.get("cubin_sha256") if program.source == "sass" else None
    same = bool(measured and ran and measured == ran)
    n = program.dynamic_instructions_per_warp
    if same:
        text = f"the measured kernel's own SASS (the same cubin), {n} instructions per warp"
    elif program.source == "sass":
        why = "the measurement records no cubin hash" if not measured else "the cubin differs"
        text = f"the generated kernel's SASS compiled here ({program.arch}; {why}), {n} instructions per warp"
    else:
        text = (f"the workload model, {n} instructions per warp, not the kernel's SASS: "
                "issue-bound timings differ from the GPU's")
    return {"source": program.source, "arch": program.arch, "dynamic_instructions_per_warp": n,
            "same_cubin": same, "text": text}
