"""The kernel suite: each real kernel's buffers after execution equal numpy's answer, on every catalog GPU.

The kernels (tests/kernels/*.cu) are compiled by NVRTC for each architecture and their
SASS executed lane by lane; ``tests/execute/cases.py`` gives each one's launch, arguments
and numpy reference (exact for integers and for FP32/FP64 results computed with one
rounding, as the GPU's fused multiply-adds are). Every case runs on sm_80, sm_89 and sm_90;
the catalog set (``CATALOG``: saxpy, a gather, divergent branches and a switch table, a
shared-memory reduction with barriers, a tiled matmul, every atomic on global and shared
memory, warp shuffles and votes) also runs on the catalog's other architectures: sm_75 (T4),
sm_86 (A6000), sm_100 (B200) and sm_120 (RTX 5090). V100 (sm_70) is refused: NVRTC 13
does not target it (tests/execute/test_cli_execute.py).
"""

from __future__ import annotations

import pytest

from tests.execute.cases import CATALOG, cases
from tests.execute.support import mismatch, run_case
from tests.sass.support import needs_sass

ARCHS = ("sm_80", "sm_89", "sm_90")
OTHER_ARCHS = ("sm_75", "sm_86", "sm_100", "sm_120")  # with ARCHS: every architecture of resources/gpus.toml
CASES = cases()
RUNS = [(case, arch) for arch in ARCHS for case in CASES] + \
       [(case, arch) for arch in OTHER_ARCHS for case in CASES if case.id in CATALOG]


@needs_sass
@pytest.mark.parametrize("case, arch", RUNS, ids=[f"{c.id}-{a}" for c, a in RUNS])
def test_kernel_matches_numpy(case, arch):
    result, inputs = run_case(case, arch)
    assert mismatch(case, result, inputs) == ""
    # buffers not in the reference are read-only inputs: unchanged
    expected = case.expect(inputs)
    for name, before in result.inputs.items():
        if name not in expected:
            assert (result.outputs[name].view("u1") == before.view("u1")).all(), name


def test_the_architectures_are_the_catalogs():
    from explorer.model.catalog import load_catalog

    archs = {gpu.arch.sm_arch for gpu in load_catalog().values()}
    assert archs - {"sm_70"} == set(ARCHS) | set(OTHER_ARCHS)
    assert set(CATALOG) <= {c.id for c in CASES}
