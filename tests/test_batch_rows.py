"""`occupancy --batch` never loses a row (issue 12, item 6), and the register limit says what it does.

Contract: exactly one output line per input row, in input order, every error with
its own line number; a file and the same bytes on stdin give the same output.
"""

import io
import json
import re
import sys

import pytest

from explorer.cli.main import main
from explorer.model.catalog import get_gpu, load_catalog
from explorer.model.scenario import LaunchConfig, Dim3
from explorer.occupancy import theoretical_occupancy
from explorer.occupancy.calc import why_no_block_fits
from tests.helpers import assert_one_line_error, run_cli

HEADER = b"gpu,threads,regs,smem_static,smem_dynamic,carveout\n"


def _rows(n: int) -> list[bytes]:
    gpus = [b"H100", b"A100", b"T4", b"RTX5090"]
    return [b"%s,%d,%d,0,0,-1\n" % (gpus[i % 4], 32 * (1 + i % 32), 16 + i % 64) for i in range(n)]


def _batch_file(tmp_path, data: bytes, capsys) -> list[dict]:
    path = tmp_path / "b.csv"
    path.write_bytes(data)
    assert main(["occupancy", "--batch", str(path), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _batch_stdin(data: bytes, monkeypatch, capsys) -> list[dict]:
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")  # .buffer is the raw bytes
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["occupancy", "--batch", "-", "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("where", [0, 150, 1000, 1999])  # in the first 8 KB and far after it
def test_a_bad_byte_costs_exactly_its_row(tmp_path, capsys, monkeypatch, where):
    rows = _rows(2000)
    clean = _batch_file(tmp_path, HEADER + b"".join(rows), capsys)
    rows[where] = b"\xfe" + rows[where][1:]  # the first byte of the row: not UTF-8
    data = HEADER + b"".join(rows)
    from_file = _batch_file(tmp_path, data, capsys)
    from_stdin = _batch_stdin(data, monkeypatch, capsys)
    assert from_file == from_stdin
    assert len(from_file) == 2000
    assert from_file[where] == {"error": f"line {where + 2}: not UTF-8 text (byte 1 of the line)"}
    assert from_file[:where] + from_file[where + 1:] == clean[:where] + clean[where + 1:]


def test_hex_values_and_other_bad_rows_keep_their_line_numbers(tmp_path, capsys):
    data = (HEADER
            + b"H100,0x100,32,0,0,-1\n"           # line 2: hex, read as 256
            + b"H100,256,0x20,0x0,0,-1\n"         # line 3
            + b"H100,\xb2,32,0,0,-1\n"            # line 4: a Latin-1 superscript two
            + "H100,²,32,0,0,-1\n".encode()       # line 5: the same as UTF-8
            + b"H100,256,32,0,0,\"-1\n"           # line 6: an unclosed quote stays on its line
            + b"H100,256,32,0,0,-1\r\n"           # line 7: CRLF
            + b"   \n"                            # line 8: blank, not a row
            + b"H100,256,32,0,0,-1,extra\n"       # line 9
            + b"H100,256,32,0,0,-1")              # line 10: no final newline
    out = _batch_file(tmp_path, data, capsys)
    assert len(out) == 8
    assert out[0]["threads"] == 256 and out[0]["active_blocks_per_sm"] == 8
    assert out[1]["regs"] == 32 and out[1]["smem_static"] == 0
    assert out[2]["error"].startswith("line 4: not UTF-8 text")
    assert out[3]["error"] == "line 5: threads: '²' is not an integer"
    assert out[4]["error"].startswith("line 6: not a CSV row")
    assert out[5]["threads"] == 256
    assert out[6]["error"].startswith("line 9: 7 fields, expected 6")
    assert out[7]["threads"] == 256


def test_an_over_long_line_is_one_error_line(tmp_path, capsys):
    data = HEADER + b"H100," + b"9" * 200_000 + b",32,0,0,-1\n" + b"H100,256,32,0,0,-1\n"
    out = _batch_file(tmp_path, data, capsys)
    assert len(out) == 2
    assert out[0]["error"].startswith("line 2: longer than")
    assert out[1]["threads"] == 256


def test_a_bom_before_the_header(tmp_path, capsys):
    out = _batch_file(tmp_path, b"\xef\xbb\xbf" + HEADER + b"H100,256,32,0,0,-1\n", capsys)
    assert out[0]["threads"] == 256


@pytest.mark.parametrize("header,message", [
    (b"gpu,threads,regs,smem_static,smem_dynamic,carveout,regs\n", "column 'regs' appears twice"),
    (b"gpu,threads,regs,smem_static,smem_dynamic,carveout,barriers,barriers\n", "column 'barriers' appears twice"),
    (b"gpu,threads,\xff,smem_static\n", "the header is unreadable"),
])
def test_bad_headers_exit_2(tmp_path, header, message):
    path = tmp_path / "h.csv"
    path.write_bytes(header + b"H100,256,32,0,0,-1,32\n")
    assert_one_line_error(run_cli("occupancy", "--batch", str(path)), 2, message)


def test_dev_zero_on_stdin_stops_at_the_cap():
    with open("/dev/zero", "rb") as zero:
        import subprocess

        proc = subprocess.run([sys.executable, "-m", "explorer", "occupancy", "--batch", "-"], stdin=zero,
                              capture_output=True, text=True, timeout=120)
    assert_one_line_error(proc, 2, "above the limit of 67,108,864 bytes; stopped at line 1")


def test_hex_threads_flag_exits_0_with_the_value_used(capsys):
    assert main(["occupancy", "--gpu", "H100", "--threads", "0x100", "--regs", "32", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["threads"] == 256 and out["active_warps_per_sm"] == 64


# -- the register limit: the number in the message is the number the calculator applies ----------

@pytest.mark.parametrize("name", sorted(load_catalog()))
def test_register_limit_message_matches_the_calculator(name):
    gpu = get_gpu(name)
    launch = LaunchConfig(block=Dim3(32), registers_per_thread=1000)
    message = why_no_block_fits(gpu, launch, theoretical_occupancy(gpu, 32, 1000))
    limit = int(re.search(r"above the limit of (\d+)", message).group(1))
    # cuda_occupancy.h (cudaOccRegAllocationMaxPerThread): 256 for every CC in the catalog
    assert limit == 256
    assert theoretical_occupancy(gpu, 32, limit).active_blocks_per_sm > 0
    assert theoretical_occupancy(gpu, 32, limit + 1).active_blocks_per_sm == 0


def test_256_registers_fit_and_257_are_refused_with_the_same_number(capsys):
    assert main(["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "256", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["active_blocks_per_sm"] == 1
    assert not any("cannot launch" in h for h in out["hints"])  # no hint contradicting the 1 block
    assert main(["occupancy", "--gpu", "H100", "--threads", "256", "--regs", "257", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["active_blocks_per_sm"] == 0
    assert any("above the hardware maximum of 256" in h for h in out["hints"])
    assert main(["simulate", "example-240x256", "--set", "launch.registers_per_thread=257"]) == 2
    assert "257 is above the limit of 256 (limiter: registers)" in capsys.readouterr().err
