"""The per-row timing facts of a user kernel come from the same rules as a WarpProgram's."""

from __future__ import annotations

import numpy as np

from explorer.model.catalog import get_gpu
from explorer.sass.warp_program import OP
from tests.execute.cases import KERNELS
from tests.execute.support import built
from tests.sass.support import needs_sass

pytestmark = needs_sass


def test_static_timing_agrees_with_the_program_builder():
    from explorer.sass.build import build_program
    from explorer.sass.execute.timing import static_timing

    k = built(str(KERNELS / "saxpy.cu"), "saxpy", "sm_90")
    gpu = get_gpu("H100")
    t = static_timing(k, gpu)
    n = k.decoded.n
    assert t.op.shape == (n,) and t.dst.shape[0] == n and t.known.all()
    # the program builder on the same listing (up to the last EXIT; the grid-stride loop taken 4 times)
    instrs = list(k.instructions)
    last = max(i for i, ins in enumerate(instrs) if ins.opcode == "EXIT")
    prog = build_program(instrs[:last + 1], "sm_90", gpu, trip=4, function="saxpy")
    for pos, row in enumerate(prog.static_index):
        assert (t.unit[row], t.latency[row], t.scoreboard[row]) == (prog.unit[pos], prog.latency[pos],
                                                                   prog.scoreboard[pos]), k.decoded.texts[row]
        if prog.op[pos] != OP["branch"]:
            assert t.op[row] == prog.op[pos]
    ldg = [i for i, text in enumerate(k.decoded.texts) if text.startswith("LDG")]
    assert np.all(t.op[ldg] == OP["ldg"])


def test_barrier_rows_and_pulled_chunks():
    from explorer.model.kernel_spec import parse_kernel
    from explorer.model.scenario import parse_launch
    from explorer.sass.execute.session import execute_chunks
    from explorer.sass.execute.timing import static_timing
    from tests.execute.cases import buf

    k = built(str(KERNELS / "reduce.cu"), "reduce_shared", "sm_90")
    t = static_timing(k, get_gpu("H100"))
    bars = [i for i, text in enumerate(k.decoded.texts) if text.startswith("BAR.SYNC")]
    assert bars and all(t.barrier[i] == 0 and t.barrier_id[i] == 0 for i in bars)
    assert (t.barrier == -1).sum() == k.decoded.n - len(bars)
    spec = parse_kernel({"file": "x.cu", "name": "reduce_shared", "args": {
        "in": buf("f32", 4096, "ones"), "partial": buf("f32", 32), "n": 4096}})
    launch = parse_launch({"grid": [32, 1, 1], "block": [128, 1, 1], "dynamic_shared_bytes": 512})
    gen = execute_chunks(k, launch, spec, chunk_instructions=500)
    first = next(gen)  # only the first chunk's blocks have executed
    assert first.first_block == 0 and 0 < first.n_blocks < 32
    blocks = first.n_blocks
    for chunk in gen:
        assert chunk.first_block == blocks
        blocks += chunk.n_blocks
    assert blocks == 32
