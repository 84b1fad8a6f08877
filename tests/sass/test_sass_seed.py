"""The shipped SASS programs (explorer.sass.seed): an entry the build made is read under the same key
when the user's cache has none, never written to, and an entry of another toolchain is never used."""

from __future__ import annotations

import shutil
import tempfile

from explorer.model.presets import default_scenario
from explorer.sass import seed
from explorer.sass import kernel_program
from explorer.sass.kernel_program import CACHE_ENV, read_dirs, sass_program
from tests.sass.support import needs_sass

pytestmark = needs_sass


def _rows(program):
    return [(r.pc, r.text, r.segment, r.instrumentation) for r in program.listing]


def _shipped(tmp_path, monkeypatch):
    """The default scenario's entry, made as the build makes it, in a seed folder; an empty user cache."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "made"))
    made = sass_program(default_scenario())
    assert made.meta["cache"] == "miss"
    shipped = tmp_path / "sass_seed"
    shutil.copytree(tmp_path / "made", shipped)
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    # tempfile remembers the folder it chose first: without this the fallback cache is the shared /tmp one,
    # where another test may have stored this very entry (CI saw a "hit" there)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.setattr(kernel_program, "seed_dir", lambda: shipped)
    return made, shipped


def test_a_fresh_install_reads_the_shipped_program(tmp_path, monkeypatch):
    made, shipped = _shipped(tmp_path, monkeypatch)
    assert read_dirs()[-1] == shipped
    before = {p.name: p.read_bytes() for p in shipped.iterdir()}
    program = sass_program(default_scenario())
    assert program.meta["cache"] == "hit" and _rows(program) == _rows(made)
    assert {p.name: p.read_bytes() for p in shipped.iterdir()} == before  # read, never written
    assert not (tmp_path / "user-cache").exists()  # nothing compiled, so nothing cached


def test_another_toolchain_compiles_instead(tmp_path, monkeypatch):
    """A shipped entry is found only by the key of this machine's compiler and nvdisasm: one made by
    another toolchain has another name, so the kernel is compiled here (into the user's cache)."""
    made, shipped = _shipped(tmp_path, monkeypatch)
    (entry,) = shipped.glob("*.json")
    entry.rename(shipped / ("0" * 64 + ".json"))
    program = sass_program(default_scenario())
    assert program.meta["cache"] == "miss" and _rows(program) == _rows(made)
    assert list((tmp_path / "user-cache" / "warp-explorer" / "sass").glob("*.json"))


def test_the_cache_override_names_the_one_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert read_dirs() == [tmp_path]


def test_the_warm_up_finds_nvrtc_on_the_path_only(tmp_path):
    """pip's isolated build has the NVRTC wheel on sys.path, not in a site-packages folder: its library
    folder is what the warm-up names to the loader."""
    lib = tmp_path / "overlay" / "nvidia" / "cu13" / "lib"
    lib.mkdir(parents=True)
    (lib / "libnvrtc.so.13").write_bytes(b"")
    (tmp_path / "overlay" / "nvidia" / "other" / "lib").mkdir(parents=True)
    assert seed.nvrtc_lib_dirs([str(tmp_path / "overlay"), "", str(tmp_path / "missing")]) == [str(lib)]
