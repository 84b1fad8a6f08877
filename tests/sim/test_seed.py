"""The shipped numba cache (issue 14 item 18): used where it fits, ignored where it does not, never stale.

The reference for "numba accepts what was installed" is numba itself: its own
``IndexDataCacheFile`` loads the entry, and a fresh process's dispatcher reports a
cache hit and no compile (``Dispatcher.stats``).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import types
from pathlib import Path

import pytest

from explorer.jit import seed

numba = pytest.importorskip("numba")
ROOT = Path(__file__).resolve().parents[2]


def _env(tmp: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES",
                                                            "WARP_EXPLORER_NO_JIT", seed.SEED_ENV)}
    env.update(PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp / "cache"), **extra)
    return env


CHILD = """
import json, sys
from explorer.model.presets import load_preset
from explorer.sim.engine import simulate
import explorer.sim.kernel as k
result = simulate(load_preset("example-240x256"))
stats = k.run_cycles.stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values()),
                  "cycles": result.cycles, "issued": result.count_total("issued")}))
"""


@pytest.fixture(scope="module")
def built_seed(tmp_path_factory):
    """A seed built as the packaging builds it (a child compiles the loop once, ~7 s of CPU)."""
    return seed.build(tmp_path_factory.mktemp("seed") / "numba_seed", pythonpath=str(ROOT))


def _child(tmp: Path, **extra) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD], env=_env(tmp, **extra), capture_output=True, text=True,
                          timeout=600, cwd=str(tmp))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # compiles the loop cold, into an empty cache
def test_a_fresh_cache_loads_the_seed_instead_of_compiling(built_seed, tmp_path):
    manifest = json.loads((built_seed / seed.MANIFEST).read_text())
    assert manifest == seed.expected_manifest(ROOT)
    assert any(p.name.startswith("kernel.run_cycles-") for p in built_seed.glob("*.nbi"))
    got = _child(tmp_path, **{seed.SEED_ENV: str(built_seed)})
    assert got["hits"] == 1 and got["misses"] == 0, got
    # the same run as this process's own (compiled here or from this machine's cache): same numbers
    from explorer.model.presets import load_preset
    from explorer.sim.engine import simulate

    here = simulate(load_preset("example-240x256"))
    assert (got["cycles"], got["issued"]) == (here.cycles, here.count_total("issued"))


@pytest.mark.slow  # compiles the loop cold, into an empty cache
def test_a_seed_of_other_sources_is_ignored(built_seed, tmp_path):
    """Edited simulator sources (another hash): the seed is not used, numba compiles."""
    stale = tmp_path / "stale"
    stale.mkdir()
    for p in built_seed.iterdir():
        (stale / p.name).write_bytes(p.read_bytes())
    manifest = json.loads((stale / seed.MANIFEST).read_text())
    manifest["sources"] = "000000000000"
    (stale / seed.MANIFEST).write_text(json.dumps(manifest))
    import explorer.sim.kernel as kernel

    assert seed.install(kernel, stale) == 0
    got = _child(tmp_path, **{seed.SEED_ENV: str(stale)})
    assert got["misses"] == 1 and got["hits"] == 0, got


def _fake_seed(folder: Path, version: str, stamp, data: bytes) -> tuple[Path, tuple]:
    folder.mkdir(parents=True, exist_ok=True)
    key = (("int64",), ("triple", "generic", ""), ("code", "closure"))
    index = folder / "kernel.f-10.py311.nbi"
    with open(index, "wb") as f:
        pickle.dump(version, f, protocol=-1)
        f.write(pickle.dumps((stamp, {key: "kernel.f-10.py311.1.nbc"}), protocol=-1))
    (folder / "kernel.f-10.py311.1.nbc").write_bytes(data)
    return index, key


def test_installed_index_carries_this_machines_stamp_and_numba_reads_it(tmp_path):
    """The build's stamp (its source file's mtime) is replaced by the one numba compares against here."""
    from numba.core.caching import IndexDataCacheFile

    payload = pickle.dumps(("machine code", 42))
    _index, key = _fake_seed(tmp_path / "seed", numba.__version__, (1.0, 100), payload)
    cache = tmp_path / "cache"
    here_stamp = (1234567.5, 4321)
    target = IndexDataCacheFile(cache_path=str(cache), filename_base="kernel.f-10.py311", source_stamp=here_stamp)
    # what install() reads from a dispatcher: numba's own object
    assert seed._install_one(target, tmp_path / "seed") == 1
    assert target.load(key) == ("machine code", 42)  # numba accepts the index and finds the data
    # an index already there (this machine's own cache) is left alone
    assert seed._install_one(target, tmp_path / "seed") == 0


@pytest.mark.parametrize("left_by", ["other sources", "other numba", "unreadable"])
def test_a_stale_index_left_by_an_upgrade_is_replaced_by_the_seed(tmp_path, left_by):
    """pip upgrades a package over its folder and leaves numba's files in ``__pycache__``: an index numba
    would not use (another source stamp or numba version) must not keep the seed out, or the first start
    after an upgrade compiles for ~15 s of CPU."""
    from numba.core.caching import IndexDataCacheFile

    _index, key = _fake_seed(tmp_path / "seed", numba.__version__, (1.0, 100), pickle.dumps(("new code", 2)))
    here_stamp = (1234567.5, 4321)
    target = IndexDataCacheFile(cache_path=str(tmp_path / "cache"), filename_base="kernel.f-10.py311",
                                source_stamp=here_stamp)
    old = {"other sources": (numba.__version__, (7.0, 1)), "other numba": ("0.0.1", here_stamp)}.get(left_by)
    if old is None:  # a torn write of an older numba: numba cannot read it either
        (tmp_path / "cache").mkdir()
        Path(target._index_path).write_bytes(b"not a pickle")
    else:
        _fake_seed(tmp_path / "cache", old[0], old[1], pickle.dumps(("old code", 1)))
        assert target.load(key) is None  # numba itself would not use what is there: it would compile
    assert seed._install_one(target, tmp_path / "seed") == 1
    assert target.load(key) == ("new code", 2)


def test_another_numba_version_is_not_installed(tmp_path):
    _fake_seed(tmp_path / "seed", "0.0.1", (1.0, 100), b"x")
    target = types.SimpleNamespace(_index_path=str(tmp_path / "cache" / "kernel.f-10.py311.nbi"),
                                   _version=numba.__version__, _source_stamp=(2.0, 5))
    assert seed._install_one(target, tmp_path / "seed") == 0
    assert not (tmp_path / "cache").exists()


def test_no_seed_is_no_error(tmp_path):
    import explorer.sim.kernel as kernel

    assert seed.install(kernel, tmp_path / "absent") == 0
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / seed.MANIFEST).write_text("{not json")
    assert seed.install(kernel, tmp_path / "bad") == 0


def _host_is_x86_64_v2() -> bool:
    """Independently of explorer.jit.runtime: the kernel's own list of this CPU's flags (Linux)."""
    import platform

    if platform.machine() != "x86_64" or not Path("/proc/cpuinfo").is_file():
        return False
    flags = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    # x86-64-v2 (the x86-64 psABI's microarchitecture levels): CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3, SSSE3,
    # SSE4.1, SSE4.2, as /proc/cpuinfo names them
    return {"cx16", "lahf_lm", "popcnt", "pni", "ssse3", "sse4_1", "sse4_2"} <= flags


@pytest.mark.parametrize("chosen", [None, "skylake"])
def test_the_loop_targets_a_baseline_cpu_unless_the_user_chose_one(tmp_path, chosen):
    """x86-64-v2 where the CPU has it, else generic; never the host's own features (numba adds them for any
    target but generic unless NUMBA_CPU_FEATURES is set), so the cache's key is the same on every such CPU."""
    extra = {"NUMBA_CPU_NAME": chosen} if chosen else {}
    code = "import explorer.jit.runtime, numba.core.config as c; print(c.CPU_NAME, repr(c.CPU_FEATURES))"
    proc = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path, **extra), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    name, features = proc.stdout.split()
    if chosen:
        assert name == chosen
    else:
        assert name == ("x86-64-v2" if _host_is_x86_64_v2() else "generic")
        assert features == "''"


def test_a_cpu_without_the_baseline_gets_the_generic_target():
    from explorer.jit.runtime import X86_64_V2, cpu_target

    every = {f: True for f in X86_64_V2}
    assert cpu_target("x86_64", every) == cpu_target("AMD64", every) == "x86-64-v2"
    for missing in X86_64_V2:  # e.g. a 2008 CPU without SSE4.2 or POPCNT
        assert cpu_target("x86_64", dict(every, **{missing: False})) == "generic"
    assert cpu_target("x86_64", {}) == "generic"
    assert cpu_target("aarch64", every) == "generic"


@pytest.mark.slow  # compiles the loop cold, into an empty cache
def test_a_seed_built_for_another_target_is_not_installed(built_seed, tmp_path):
    """A seed whose target this CPU does not have (here: a manifest naming another CPU) is never used:
    numba compiles for this machine's own target instead."""
    other = tmp_path / "other"
    other.mkdir()
    for p in built_seed.iterdir():
        (other / p.name).write_bytes(p.read_bytes())
    manifest = json.loads((other / seed.MANIFEST).read_text())
    assert manifest["cpu"] == seed.cpu_name()
    manifest["cpu"] = "x86-64-v4" if manifest["cpu"] != "x86-64-v4" else "generic"
    (other / seed.MANIFEST).write_text(json.dumps(manifest))
    import explorer.sim.kernel as kernel

    assert seed.install(kernel, other) == 0
    got = _child(tmp_path, **{seed.SEED_ENV: str(other)})
    assert got["misses"] == 1 and got["hits"] == 0, got
