"""The compiled loop's packed slots and its pure-Python fallback."""

import dataclasses
import os
import subprocess
import sys

from explorer.sim.kernel import CFG_F, CFG_FLOAT_FIELDS, CFG_I, CFG_INT_FIELDS, G, G_SLOTS
from explorer.sim.params import SimParams


def test_packed_slots_name_simparams_attributes_once():
    names = {f.name for f in dataclasses.fields(SimParams)} | {n for n, v in vars(SimParams).items()
                                                              if isinstance(v, property)}
    for fields, enum in ((CFG_INT_FIELDS, CFG_I), (CFG_FLOAT_FIELDS, CFG_F)):
        assert set(fields) <= names and len(set(fields)) == len(fields)
        assert [m.name.lower() for m in enum] == list(fields) and [int(m) for m in enum] == list(range(len(fields)))
    assert [m.name.lower() for m in G] == list(G_SLOTS)


def test_without_numba_no_overflow_warning():
    """Without numba the loop runs as Python; uint64 wraparound in the RNG must not warn."""
    code = ("from explorer.model.scenario import Scenario\n"
            "from explorer.sim import simulate\n"
            "s = Scenario().with_values(**{'launch.grid': [2, 1, 1], 'workload.loop': 2})\n"
            "print(simulate(s).cycles)\n")
    env = dict(os.environ, WARP_EXPLORER_NO_JIT="1")
    proc = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr and int(proc.stdout) > 0
