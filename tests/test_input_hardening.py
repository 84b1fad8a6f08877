"""Hostile input files and flags get one line and exit code 2 (issue 12, items 3 and 8).

Each case here was an exit 1 (a traceback turned "internal error"), a hang or a
silent truncation before; the messages are checked for the field they name.
"""

import os

import pytest

from explorer.cli.main import main
from explorer.model.errors import (InputError, capped_lines, read_user_bytes, read_user_text, require_int,
                                   shown)
from explorer.model.presets import load_preset
from explorer.model.scenario import Scenario
from explorer.model.tomlio import MAX_TOML_DEPTH, parse_value
from tests.helpers import assert_one_line_error, run_cli


def _one_line(capsys, contains: str) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert contains in lines[0], lines[0]
    assert "internal error" not in lines[0]
    return lines[0]


@pytest.fixture
def loop(tmp_path):
    a, b = tmp_path / "loop-a", tmp_path / "loop-b"
    a.symlink_to(b)
    b.symlink_to(a)
    return a


# -- input files: regular files only, size-capped, read before anything is parsed --------------

@pytest.mark.parametrize("command", [["simulate"], ["render", "--out", "x.png"], ["occupancy", "--batch"]])
def test_symlink_loops_are_named(loop, capsys, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(command + [str(loop)]) == 2
    _one_line(capsys, "symbolic link loop")


@pytest.mark.parametrize("command", [["simulate"], ["occupancy", "--batch"]])
def test_devices_are_refused(capsys, command):
    assert main(command + ["/dev/zero"]) == 2
    _one_line(capsys, "is not a regular file")


@pytest.mark.parametrize("command", [["simulate"], ["occupancy", "--batch"]])
def test_a_fifo_is_refused_without_blocking(tmp_path, command):
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    assert_one_line_error(run_cli(*command, str(fifo), timeout=60), 2, "is not a regular file")


@pytest.mark.parametrize("command", [["simulate"], ["occupancy", "--batch"]])
def test_over_long_names(capsys, command):
    assert main(command + ["a" * 300 + ".toml"]) == 2
    _one_line(capsys, "file name too long")


@pytest.mark.parametrize("argv", [
    ["simulate", "a\0b.toml"],
    ["simulate", "a\0b"],
    ["occupancy", "--batch", "a\0b.csv"],
    ["simulate", "example-240x256", "--out", "a\0b.npz"],
    ["render", "example-240x256", "--out", "a\0b.png"],
])
def test_a_nul_byte_in_a_name(capsys, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    line = _one_line(capsys, "error")
    assert "\0" not in line  # quoted, not written raw to the terminal
    assert list(tmp_path.iterdir()) == []


def test_a_nul_byte_in_a_scenario_name(capsys):
    assert main(["simulate", "example-240x256", "--set", 'name="a\\u0000b"']) == 2
    _one_line(capsys, "name: 'a\\x00b' contains a NUL character")
    with pytest.raises(InputError, match="NUL"):
        Scenario.from_dict({"description": "x\0"})


def test_files_over_the_cap_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2048)
    with pytest.raises(InputError, match="2,048 bytes, above the limit of 1,024 bytes"):
        read_user_bytes(big, limit=1024)
    assert read_user_bytes(big, limit=2048) == b"#" * 2048


def test_a_file_that_grows_while_read_is_still_capped(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_bytes(b"x" * 110)
    real_fstat = os.fstat

    def stat_before_it_grew(fd):  # fstat saw 10 bytes; 110 are there by the time it is read
        st = list(real_fstat(fd))
        st[6] = 10
        return os.stat_result(st)

    monkeypatch.setattr(os, "fstat", stat_before_it_grew)
    with pytest.raises(InputError, match="is above the limit of 50 bytes"):
        read_user_bytes(path, limit=50)


def test_a_utf8_bom_is_accepted(tmp_path, capsys):
    path = tmp_path / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfgpu = "A100"\n[launch]\ngrid = [4, 1, 1]\n[workload]\npreset = "compute"\nloop = 1\n')
    assert Scenario.load(path).gpu_name == "A100"
    assert main(["simulate", str(path), "--json"]) == 0
    assert read_user_text(path).startswith("gpu")


def test_binary_text_names_the_byte(tmp_path):
    path = tmp_path / "b.toml"
    path.write_bytes(b'gpu = "H100"\n\xff\n')
    with pytest.raises(InputError, match=r"is not UTF-8 text \(byte 13\)"):
        Scenario.load(path)


@pytest.mark.parametrize("text", [
    "a = " + "[" * 3000 + "]" * 3000,
    "a = " + "{b = " * 3000 + "}" * 3000,
    "a = " + "[" * 3000,  # unbalanced as well
    "[launch]\ngrid = " + "[" * (MAX_TOML_DEPTH + 1) + "1" + "]" * (MAX_TOML_DEPTH + 1),  # below Python's limit
])
def test_deeply_nested_toml(tmp_path, capsys, text):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    assert main(["simulate", str(path)]) == 2
    _one_line(capsys, f"nested more than {MAX_TOML_DEPTH} levels deep")


def test_a_5000_digit_integer(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text("seed = " + "9" * 5000 + "\n")
    assert main(["simulate", str(path)]) == 2
    assert len(_one_line(capsys, "big.toml")) < 400
    assert main(["simulate", "example-240x256", "--set", "seed=" + "9" * 5000]) == 2
    assert len(_one_line(capsys, "seed")) < 400


def test_preset_names_cannot_reach_outside_the_folder():
    with pytest.raises(InputError, match="unknown preset"):
        load_preset("../scenarios/example-240x256")
    with pytest.raises(InputError, match="unknown preset"):
        load_preset(["example-240x256"])


def test_capped_lines_bounds_a_stream():
    import io

    out = list(capped_lines(io.BytesIO(b"a\n" + b"x" * 100 + b"\nb\n"), "in", limit=1000, line_limit=10))
    assert out == [b"a\n", None, b"b\n"]  # the long line is one None, the line after it is intact
    with pytest.raises(InputError, match="above the limit of 20 bytes; stopped at line 3"):
        list(capped_lines(io.BytesIO(b"1234567\n" * 10), "in", limit=20))


# -- --set, Scenario.from_dict / with_values / with_overrides -------------------------------------

@pytest.mark.parametrize("value", [["stream"], {"a": 1}, 5])
def test_a_preset_that_is_not_a_name(value):
    with pytest.raises(InputError, match="workload.preset: .* is not a preset name"):
        Scenario.from_dict({"workload": {"preset": value}})
    with pytest.raises(InputError, match="workload.preset"):
        Scenario().with_values(**{"workload.preset": value})


def test_a_preset_that_is_not_a_name_on_the_command_line(capsys):
    assert main(["simulate", "example-240x256", "--set", 'workload.preset=["stream"]']) == 2
    _one_line(capsys, "workload.preset")
    with pytest.raises(InputError, match="workload.preset"):
        Scenario().with_overrides(["workload.preset={ a = 1 }"])


def test_keys_of_any_type_are_named_not_sorted():
    with pytest.raises(InputError, match="unknown key"):
        Scenario.from_dict({1: 2, "a": 3})
    with pytest.raises(InputError, match="launch.1: unknown key"):
        Scenario.from_dict({"launch": {1: 2}})
    with pytest.raises(InputError, match="workload.body.0: unknown key|workload.body\\[0\\]"):
        Scenario.from_dict({"workload": {"body": [{0: 1, "op": "ffma"}]}})


@pytest.mark.parametrize("depth", [600, 3000])
def test_set_nesting(capsys, depth):
    assert main(["simulate", "example-240x256", "--set", "launch.grid=" + "[" * depth + "1" + "]" * depth]) == 2
    _one_line(capsys, "nested more than")
    key = "launch" + ".a" * depth
    assert main(["simulate", "example-240x256", "--set", key + "=1"]) == 2
    assert len(_one_line(capsys, "launch.a.a")) < 400


@pytest.mark.parametrize("text", ["seed=3\nseed=2", "seed=3\r\nlaunch.grid=[1,1,1]", "seed=3\n[launch]\ngrid=1"])
def test_a_line_break_in_set_is_refused(capsys, text):
    assert main(["simulate", "example-240x256", "--set", text]) == 2
    _one_line(capsys, "line break")


def test_parse_value_still_reads_one_value():
    assert parse_value("[480, 1, 1]", "k") == [480, 1, 1]
    assert parse_value("gto", "k") == "gto"
    assert parse_value("2 # a comment", "k") == 2


# -- numbers: the validator and the use agree --------------------------------------------------

def test_require_int_reads_what_it_accepts():
    assert require_int("f", "0x100") == 256
    assert require_int("f", " 0X10 ") == 16
    assert require_int("f", "-0x10", lo=-100) == -16
    for bad in ("²", "١٢٨", "0x", "1e3", "12abc", "٣"):
        with pytest.raises(InputError, match="is not an integer"):
            require_int("f", bad)
    with pytest.raises(InputError) as info:
        require_int("f", "9" * 5000)
    assert len(str(info.value)) < 200


def test_shown_cuts_long_values():
    assert shown("abc") == "'abc'"
    assert len(shown("x" * 10_000)) <= 80
    deep = []
    for _ in range(100_000):
        deep = [deep]
    assert shown(deep) == "<list>"


@pytest.mark.parametrize("flag", ["--threads", "--regs", "--smem-static", "--smem-dynamic", "--barriers"])
def test_hex_flags_are_used_as_validated(capsys, flag):
    import json

    args = {"--threads": "256", "--regs": "32", "--smem-static": "0", "--smem-dynamic": "0", "--barriers": "1"}
    args[flag] = hex(int(args[flag]))
    argv = ["occupancy", "--gpu", "H100", "--json"] + [x for kv in args.items() for x in kv]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["threads"], out["regs"], out["barriers"]) == (256, 32, 1)


@pytest.mark.parametrize("size", ["²x900", "1600x٩٠٠", "1600x"])
def test_render_size_in_other_digits(tmp_path, capsys, size):
    assert main(["render", "example-240x256", "--size", size, "--out", str(tmp_path / "a.png")]) == 2
    _one_line(capsys, "--size")
    assert list(tmp_path.iterdir()) == []


# -- output paths: checked before the work, written atomically -----------------------------------

@pytest.mark.parametrize("command", [["simulate", "example-240x256"], ["render", "example-240x256"],
                                     ["render", "--lesson", "launched-resident-ready"]])
@pytest.mark.parametrize("out,message", [
    ("", "give a file name"),
    ("missing/x.EXT", "the folder missing does not exist"),
    ("folder.EXT", "is a folder"),
])
def test_bad_output_paths(tmp_path, monkeypatch, capsys, command, out, message):
    monkeypatch.chdir(tmp_path)
    ext = "npz" if command[0] == "simulate" else "png"
    (tmp_path / f"folder.{ext}").mkdir()
    assert main(command + ["--out", out.replace("EXT", ext)]) == 2
    _one_line(capsys, message)
    assert [p.name for p in tmp_path.iterdir()] == [f"folder.{ext}"]


def test_a_full_disk_on_render_and_simulate(tmp_path, monkeypatch, capsys):
    import errno

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    for name in ("a.npz", "a.png"):
        (tmp_path / name).write_bytes(b"old")
    monkeypatch.setattr(os, "fsync", full)
    assert main(["simulate", "example-240x256", "--out", str(tmp_path / "a.npz")]) == 2
    _one_line(capsys, "--out")
    assert main(["render", "example-240x256", "--out", str(tmp_path / "a.png")]) == 2
    _one_line(capsys, "no space left on the device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "a.png"]
    assert all((tmp_path / n).read_bytes() == b"old" for n in ("a.npz", "a.png"))


def test_a_read_only_folder_on_render(tmp_path, monkeypatch, capsys):
    import errno

    from explorer.model import atomic

    def refuse(*a, **k):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)  # root would not be refused by the mode bits
    assert main(["render", "example-240x256", "--out", str(tmp_path / "a.png")]) == 2
    _one_line(capsys, "permission denied")


def test_gemm_scenario_out_goes_through_the_atomic_writer(tmp_path, capsys):
    (tmp_path / "d.toml").mkdir()
    argv = ["gemm", "--gpu", "H100", "--m", "256", "--n", "256", "--k", "256", "--dtype", "fp16"]
    assert main(argv + ["--scenario-out", str(tmp_path / "d.toml")]) == 2
    _one_line(capsys, "is a folder")
    assert main(argv + ["--scenario-out", str(tmp_path / "g.toml")]) == 0
    assert Scenario.load(tmp_path / "g.toml").gpu_name == "H100"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.toml", "g.toml"]


@pytest.mark.parametrize("args", [["gpus"], ["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "32"]])
def test_stdout_on_a_full_disk(args):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "explorer", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "warp-explorer: error: output: cannot write (No space left on device)"


def test_a_broken_pipe_is_quiet(tmp_path):
    import subprocess
    import sys

    rows = "gpu,threads,regs,smem_static,smem_dynamic,carveout\n" + "H100,256,32,0,0,-1\n" * 20000
    (tmp_path / "b.csv").write_text(rows)
    proc = subprocess.Popen([sys.executable, "-m", "explorer", "occupancy", "--batch", str(tmp_path / "b.csv"),
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    assert proc.wait(timeout=120) == 0
    assert proc.stderr.read() == b""


def test_a_line_break_in_a_cu_file_name_stays_on_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "k\n#error x.cu"
    (tmp_path / name).write_text("// no kernel here\n")
    assert main(["compile", name, "--arch", "sm_90"]) == 2
    _one_line(capsys, "k\\n#error x.cu has no kernels")
    (tmp_path / "d.cubin").mkdir()
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k(float *x) { x[0] = 1; }\n')
    code = main(["compile", "k.cu", "--arch", "sm_90", "--cubin-out", "d.cubin"])
    if code != 3:  # 3: no CUDA compiler on this machine
        assert code == 2
        assert _one_line(capsys, "--cubin-out").endswith("d.cubin: cannot write (is a folder)")
