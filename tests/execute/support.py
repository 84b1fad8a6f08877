"""Running a suite case through the executor and comparing with numpy (shared by the tests)."""

from __future__ import annotations

from functools import cache

import numpy as np

from explorer.model.kernel_spec import parse_kernel
from explorer.model.scenario import parse_launch


@cache
def built(path: str, name: str, arch: str):
    from explorer.sass.execute.kernel import build_kernel

    return build_kernel(path, name, arch)


def run_case(case, arch: str, **kw):
    """(ExecutionResult, inputs: buffers before + scalars) of a case on ``arch``."""
    from explorer.sass.execute.session import execute

    kernel = built(str(case.path), case.name, arch)
    spec = parse_kernel({"file": str(case.path), "name": case.name, "args": case.args})
    launch = parse_launch({"grid": list(case.grid), "block": list(case.block),
                           "dynamic_shared_bytes": case.dynamic_shared})
    result = execute(kernel, launch, spec, keep_inputs=True, **kw)
    inputs = dict(result.inputs)
    for k, v in case.args.items():
        if not isinstance(v, dict):
            inputs[k] = v
    return result, inputs


def mismatch(case, result, inputs) -> str:
    """'' when every expected buffer matches, else what differs first."""
    expected = case.expect(inputs)
    for name, want in expected.items():
        got = result.outputs[name]
        want = np.asarray(want)
        if got.shape != want.shape:
            return f"{name}: shape {got.shape} != {want.shape}"
        if case.tol and got.dtype.kind == "f":
            ok = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=case.tol, atol=case.tol)
        else:
            ok = got == want
        if not np.all(ok):
            k = int(np.argmin(ok))
            return f"{name}[{k}] = {got[k]!r}, numpy says {want[k]!r} ({int((~ok).sum())} of {ok.size} differ)"
    return ""
