"""Blocks executed on several threads (issue 27, item 3): the buffers, the metrics, the per-row tallies and
the executed streams are the serial run's, whatever the number of threads and the task size; a kernel with
global atomics (whose returned values and float sums follow the blocks' order) runs on one thread."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.model.kernel_spec import parse_kernel
from explorer.model.scenario import parse_launch
from tests.execute.cases import cases
from tests.execute.support import built
from tests.sass.support import needs_sass

pytestmark = needs_sass
SUITE = {c.id: c for c in cases()}
SAME_KEYS_SKIP = ("execution_seconds", "execution_cpu_seconds", "warp_instructions_per_second", "jobs")


def _run(case, jobs, chunk, record=True):
    from explorer.sass.execute.session import execute

    k = built(str(case.path), case.name, "sm_90")
    spec = parse_kernel({"file": str(case.path), "name": case.name, "args": case.args})
    launch = parse_launch({"grid": list(case.grid), "block": list(case.block),
                           "dynamic_shared_bytes": case.dynamic_shared})
    streams = []
    r = execute(k, launch, spec, keep_inputs=True, jobs=jobs, chunk_instructions=chunk,
                on_chunk=streams.append if record else None)
    return r, streams


@pytest.mark.parametrize("case_id", ["matmul-tiled", "divergent-branches", "atomics-shared", "switch-table",
                                     "transpose-conflicts", "local-memory"])
def test_threads_give_the_serial_run(case_id):
    case = SUITE[case_id]
    serial, s_streams = _run(case, 1, 1 << 20)
    for jobs, chunk in ((2, 300), (3, 40)):
        par, p_streams = _run(case, jobs, chunk)
        assert par.metrics["jobs"] == jobs
        for name, out in serial.outputs.items():
            assert np.array_equal(out.view(np.uint8), par.outputs[name].view(np.uint8)), name
        assert ({k: v for k, v in serial.metrics.items() if k not in SAME_KEYS_SKIP}
                == {k: v for k, v in par.metrics.items() if k not in SAME_KEYS_SKIP})
        for a, b in ((serial.executions, par.executions), (serial.active_lanes, par.active_lanes),
                     (serial.executed_lanes, par.executed_lanes)):
            assert np.array_equal(a, b)
        # the same entries per warp, in grid order, whatever the chunks
        for field in ("row", "active", "executed"):
            assert np.array_equal(np.concatenate([getattr(s, field) for s in s_streams]),
                                  np.concatenate([getattr(s, field) for s in p_streams])), field
        assert [s.first_block for s in p_streams] == sorted(s.first_block for s in p_streams)


def test_global_atomics_run_on_one_thread():
    from explorer.sass.execute.session import parallel_safe

    for case_id in ("atomics-global", "histogram-global-atomics", "reduce-shuffle"):
        case = SUITE[case_id]
        assert not parallel_safe(built(str(case.path), case.name, "sm_90"))
        r, _ = _run(case, 4, 100, record=False)
        assert r.metrics["jobs"] == 1
    assert parallel_safe(built(str(SUITE["atomics-shared"].path), "atomics_shared", "sm_90"))  # shared: per block


def test_the_instruction_limit_holds_across_threads(tmp_path):
    from explorer.model.errors import InputError
    from explorer.sass.execute.kernel import build_kernel
    from explorer.sass.execute.session import execute

    src = tmp_path / "spin.cu"
    src.write_text('extern "C" __global__ void spin(float* x, float* y) {\n'
                   '  if (blockIdx.x == 5) while (x[0] < 1e30f) y[threadIdx.x] += 1.0f; }\n')
    k = build_kernel(src, "spin", "sm_90")
    spec = parse_kernel({"file": "spin.cu", "name": "spin", "max_instructions": 300_000,
                         "args": {"x": {"dtype": "f32", "count": 4}, "y": {"dtype": "f32", "count": 64}}})
    launch = parse_launch({"grid": [64, 1, 1], "block": [64, 1, 1]})
    with pytest.raises(InputError, match=r"more than 300,000 warp-instructions .* in block \(5,0,0\)"):
        execute(k, launch, spec, jobs=2, chunk_instructions=50)


def test_the_cli_takes_jobs_and_the_window_uses_every_core(capsys):
    import json

    from explorer.cli.main import main
    from explorer.sass.execute.run import default_jobs

    assert main(["execute", "resources/kernels/saxpy.toml", "--jobs", "2", "--json", "--set",
                 "launch.grid=[64,1,1]", "--set", "kernel.args.n=16384", "--set", "kernel.args.x.count=16384",
                 "--set", "kernel.args.y.count=16384"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["jobs"] == 2 and s["execution_cpu_seconds"] > 0
    assert main(["execute", "resources/kernels/saxpy.toml", "--jobs", "-1"]) == 2
    assert "--jobs: -1 is outside 0..1024" in capsys.readouterr().err
    assert default_jobs() >= 1
