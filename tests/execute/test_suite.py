"""The kernel suite: each real kernel's buffers after execution equal numpy's answer, on sm_80, sm_89, sm_90.

The kernels (tests/kernels/*.cu) are compiled by NVRTC for each architecture and their
SASS executed lane by lane; ``tests/execute/cases.py`` gives each one's launch, arguments
and numpy reference (exact for integers and for FP32/FP64 results computed with one
rounding, as the GPU's fused multiply-adds are).
"""

from __future__ import annotations

import pytest

from tests.execute.cases import cases
from tests.execute.support import mismatch, run_case
from tests.sass.support import needs_sass

ARCHS = ("sm_80", "sm_89", "sm_90")
CASES = cases()


@needs_sass
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_numpy(case, arch):
    result, inputs = run_case(case, arch)
    assert mismatch(case, result, inputs) == ""
    # buffers not in the reference are read-only inputs: unchanged
    expected = case.expect(inputs)
    for name, before in result.inputs.items():
        if name not in expected:
            assert (result.outputs[name].view("u1") == before.view("u1")).all(), name
