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
