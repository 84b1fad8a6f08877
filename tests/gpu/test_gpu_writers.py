"""Every file the GPU commands write for the user goes through explorer.model.atomic (issue 12, item 5):
a failure while writing (a full disk here) leaves the old file whole and no temporary file behind."""

from __future__ import annotations

import errno
import os
from types import SimpleNamespace

import pytest

from explorer.model.errors import InputError
from tests.gpu.support import compiler_problem

needs_compiler = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")


def full_disk(monkeypatch):
    def fsync(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", fsync)


def test_cubin_out_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    from explorer.cli.cmd_compile import write_output

    target = tmp_path / "k.cubin"
    target.write_bytes(b"old cubin")
    full_disk(monkeypatch)
    with pytest.raises(InputError, match="--cubin-out.*No space left"):
        write_output("--cubin-out", str(target), b"\x7fELF" + bytes(1 << 20))
    assert target.read_bytes() == b"old cubin"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cubin"]


def test_cubin_out_onto_a_folder_is_one_input_error(tmp_path):
    from explorer.cli.cmd_compile import write_output

    with pytest.raises(InputError, match="--cubin-out"):
        write_output("--cubin-out", str(tmp_path), b"x")
    with pytest.raises(InputError, match="--cubin-out"):
        write_output("--cubin-out", str(tmp_path / "a\0b"), b"x")


@needs_compiler
def test_dry_run_sources_keep_the_old_files_when_the_write_fails(tmp_path, monkeypatch):
    from explorer.cli.cmd_measure import _dry_run
    from explorer.model.presets import load_preset

    stem = tmp_path / "k"
    (tmp_path / "k.cu").write_text("old source")
    (tmp_path / "k.cubin").write_bytes(b"old cubin")
    full_disk(monkeypatch)
    args = SimpleNamespace(out=str(stem), match_occupancy=False, per_block=False, iteration_clocks=False, json=True)
    with pytest.raises(InputError, match="--out.*No space left"):
        _dry_run(args, load_preset("example-240x256"))
    assert (tmp_path / "k.cu").read_text() == "old source"
    assert (tmp_path / "k.cubin").read_bytes() == b"old cubin"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu", "k.cubin"]
