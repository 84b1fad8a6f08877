"""explorer.startup.frozen: the bundle's start-up (numba cache folder, python -c/-m emulation), tested unfrozen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from explorer import __version__
from explorer.startup import frozen


def test_user_cache_root_per_platform(tmp_path):
    home = str(tmp_path)
    assert frozen.user_cache_root({"HOME": home}, "linux") == tmp_path / ".cache"
    assert frozen.user_cache_root({"HOME": home, "XDG_CACHE_HOME": "/x/c"}, "linux") == Path("/x/c")
    assert frozen.user_cache_root({"HOME": home, "XDG_CACHE_HOME": "relative"}, "linux") == tmp_path / ".cache"
    assert frozen.user_cache_root({"HOME": home}, "darwin") == tmp_path / "Library" / "Caches"
    assert frozen.user_cache_root({"USERPROFILE": home, "LOCALAPPDATA": "C:/L"}, "win32") == Path("C:/L")


def test_sources_key_follows_the_simulator_sources(tmp_path):
    sim = tmp_path / "explorer" / "sim"
    sim.mkdir(parents=True)
    (sim / "kernel.py").write_text("a = 1\n")
    first = frozen.sources_key(tmp_path)
    assert first == frozen.sources_key(tmp_path) and len(first) == 12
    (sim / "kernel.py").write_text("a = 2\n")
    assert frozen.sources_key(tmp_path) != first


def test_numba_cache_dir_is_per_user_and_per_build(tmp_path):
    path = frozen.numba_cache_dir({"HOME": str(tmp_path)})
    assert path is not None and path.is_dir()
    assert path.parent == tmp_path / ".cache" / "warp-explorer" / "numba"
    assert path.name == f"{__version__}-{frozen.sources_key()}"


def test_numba_cache_dir_falls_back_to_the_temporary_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setattr(frozen.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    path = frozen.numba_cache_dir({"HOME": str(tmp_path), "XDG_CACHE_HOME": str(blocker)})
    assert path is not None and str(path).startswith(str(tmp_path / "tmp"))


def test_prepare_does_nothing_outside_a_bundle(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    frozen.prepare()
    assert "NUMBA_CACHE_DIR" not in __import__("os").environ
    assert not frozen.is_frozen()


def test_interpreter_emulation_runs_c_and_m(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    assert frozen._run_as_interpreter(["app", "-c", "import sys; print('argv', sys.argv)", "x", "y"]) == 0
    assert "argv ['-c', 'x', 'y']" in capsys.readouterr().out
    (tmp_path / "emu_mod.py").write_text("import sys\nif __name__ == '__main__':\n    print('main', sys.argv[1:])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert frozen._run_as_interpreter(["app", "-I", "-m", "emu_mod", "z"]) == 0
    assert "main ['z']" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        frozen._run_as_interpreter(["app", "-c", "raise SystemExit(3)"])
    assert exc.value.code == 3


@pytest.mark.parametrize("argv", [["app"], ["app", "--version"], ["app", "-c"], ["app", "gpus", "-c"]])
def test_normal_command_lines_are_not_taken_for_python(argv):
    assert frozen._run_as_interpreter(argv) is None


def test_main_outside_a_bundle_is_the_cli(capsys):
    assert frozen.main(["warp-explorer", "--version"]) == 0
    assert capsys.readouterr().out.strip() == f"warp-explorer {__version__}"
