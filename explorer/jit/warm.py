"""Compile the simulator's cycle loop and the executor's interpreter once, both at the same time.

Why: numba compiles each on first use and caches the machine code on disk (``explorer.jit.runtime``):
~9 s for the loop and ~18 s for the interpreter on an idle 2-core machine, minutes under load.
Whatever runs first pays it, silently: the window's first simulation, a test, a user's first
``execute``. ``warm`` pays it up front, in two child processes at once (the two caches are
independent), so an editable install (``setup.py``) and the test suite (``tests/suite_timing.py``)
finish with both caches filled. A cache already filled loads in about a second; a part that cannot
run here (no numba, no NVRTC for the executor's small kernel) is reported and skipped: the product
then compiles on first use as before.

``python -m explorer.jit.warm`` does the same from a shell.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

# each child's program: strings, so importing this module loads neither numba nor the engine
LOOP = """
from explorer.jit.seed import WARM_PRESETS
from explorer.model.presets import load_preset
from explorer.sim.engine import simulate
for name in WARM_PRESETS:
    scenario = load_preset(name)
    simulate(scenario.with_values(**{"launch.grid": [min(8, scenario.launch.total_blocks), 1, 1]}))
"""
INTERPRETER = """
from explorer.model.presets import load_scenario_arg
from explorer.paths import resource
from explorer.sass.execute.run import run_kernel
scenario = load_scenario_arg(str(resource("kernels", "saxpy.toml")))
run_kernel(scenario.with_values(**{"launch.grid": [8, 1, 1], "kernel.args.n": 4096}))
"""
PARTS = (("simulator loop", LOOP), ("kernel interpreter", INTERPRETER))


def warm(timeout_s: float = 900.0) -> list[str]:
    """Run both warm-ups in parallel; one line per part (ready, or why it was skipped)."""
    from explorer.jit.runtime import JIT

    if not JIT:
        return []
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    started = time.monotonic()
    procs = [(name, subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True))
             for name, code in PARTS]
    lines = []
    for name, proc in procs:
        try:
            _out, err = proc.communicate(timeout=max(1.0, timeout_s - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            lines.append(f"{name} not compiled (over {timeout_s:.0f} s)")
            continue
        if proc.returncode == 0:
            lines.append(f"{name} ready")
        else:
            last = (err.strip().splitlines() or ["?"])[-1]
            lines.append(f"{name} not compiled ahead ({last[:200]}); it compiles on first use")
    return lines


def main() -> int:
    started = time.monotonic()
    lines = warm()
    print(f"numba: {'; '.join(lines) or 'not installed'} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
