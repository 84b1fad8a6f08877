"""Crafted measurement files (issue 12, item 4): refused with one clear error, fast, in bounded memory.

Zip bombs are built by hand (a raw deflate stream of 4 GiB of zeros is 4 MB and takes a
second to make: the same flushed 1 MiB block repeated), so the files are the real thing,
not files that merely claim a size.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.toolchain.errors import MeasurementFormatError
from explorer.gpu.measurement import load_measurement
from tests.gpu.support import REPO, assert_one_line_error, run_cli
from tests.gpu.test_measurement_file import make_measurement

GiB = 1 << 30


def npy_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.asanyarray(arr), allow_pickle=False)
    return buf.getvalue()


def members_of(path: Path) -> dict[str, bytes]:
    """The raw .npy bytes of every member of an archive we wrote ourselves."""
    import zipfile

    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def zeros_deflate(size: int) -> tuple[bytes, int]:
    """(raw deflate stream, CRC-32) of ``size`` zero bytes (a multiple of 1 MiB), in about a second for 4 GiB."""
    mib = 1 << 20
    assert size % mib == 0
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(bytes(mib)) + c.flush(zlib.Z_FULL_FLUSH)
    stream = block * (size // mib) + c.flush()
    crc = 0
    zeros = bytes(mib)
    for _ in range(size // mib):
        crc = zlib.crc32(zeros, crc)
    return stream, crc


def write_zip(path: Path, members: list[tuple[str, bytes, int, int]]) -> None:
    """A zip64 archive of already-deflated members: (name, deflated bytes, crc, uncompressed size)."""
    out = bytearray()
    central = bytearray()
    for name, data, crc, size in members:
        offset = len(out)
        fname = name.encode()
        extra = struct.pack("<HHQQ", 1, 16, size, len(data))
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                           len(fname), len(extra)) + fname + extra + data
        cextra = struct.pack("<HHQQQ", 1, 24, size, len(data), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0x21, crc, 0xFFFFFFFF,
                               0xFFFFFFFF, len(fname), len(cextra), 0, 0, 0, 0, 0xFFFFFFFF) + fname + cextra
    cd_offset = len(out)
    out += central
    n = len(members)
    z64_offset = len(out)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(central), cd_offset)
    out += struct.pack("<IIQI", 0x07064B50, 0, z64_offset, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    path.write_bytes(bytes(out))


def deflated(raw: bytes) -> tuple[bytes, int, int]:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(raw) + c.flush(), zlib.crc32(raw), len(raw)


def archive(path: Path, members: dict[str, bytes], extra: list[tuple[str, bytes, int, int]] = ()) -> Path:
    write_zip(path, [(name, *deflated(raw)) for name, raw in members.items()] + list(extra))
    return path


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict[str, bytes]:
    path = make_measurement().save(tmp_path_factory.mktemp("good") / "m.npz")
    return members_of(path)


@pytest.fixture(scope="module")
def bomb_4gib():
    return zeros_deflate(4 * GiB)


def run_limited(*args, address_space: int = 3 * GiB, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """The CLI in a child whose address space is capped: decompressing a bomb would fail there, not pass."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    env = dict(os.environ, PYTHONPATH=str(REPO), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    t = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, env=env,
                          cwd=str(REPO), timeout=timeout, preexec_fn=limit)
    return proc, time.monotonic() - t


def test_the_writer_makes_files_the_loader_reads(tmp_path, good):
    m = load_measurement(archive(tmp_path / "copy.npz", good))
    assert len(m.blocks) == 3 and m.sm_count == 2


@pytest.mark.parametrize("member", ["junk.npy", "block.npy"])
def test_a_4_gib_zero_member_is_refused_from_the_directory(tmp_path, good, bomb_4gib, member):
    stream, crc = bomb_4gib
    members = {k: v for k, v in good.items() if k != member}
    path = archive(tmp_path / "bomb.npz", members, [(member, stream, crc, 4 * GiB)])
    assert path.stat().st_size < 5 << 20  # a 4 MB file...
    t = time.monotonic()
    with pytest.raises(MeasurementFormatError, match="declares 4,294,967,296 bytes, above the limit"):
        load_measurement(path)
    assert time.monotonic() - t < 2.0
    proc, seconds = run_limited("measure", "--from", str(path))  # ...refused in bounded memory, in seconds
    assert_one_line_error(proc, 2, "above the limit")
    assert seconds < 20


def test_a_file_declaring_20_million_sms(tmp_path, good):
    meta = json.loads(str(np.load(io.BytesIO(good["meta_json.npy"]))))
    meta["sm_count"] = 20_000_000
    members = dict(good, **{"meta_json.npy": npy_bytes(np.array(json.dumps(meta))),
                            "sm_ids.npy": npy_bytes(np.zeros(20_000_000, np.int32))})
    path = archive(tmp_path / "sms.npz", members)
    assert path.stat().st_size < 400_000
    proc, seconds = run_limited("measure", "--from", str(path), address_space=2 * GiB)
    assert_one_line_error(proc, 2, "sm_count is 20000000, outside 1..1024")
    assert seconds < 20


def test_an_array_whose_header_declares_too_many_entries(tmp_path, good):
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i8", "fortran_order": False, "shape": (1 << 40,)})
    path = archive(tmp_path / "huge.npz", dict(good, **{"block_end.npy": header.getvalue() + bytes(64)}))
    with pytest.raises(MeasurementFormatError, match="declares 1,099,511,627,776 entries"):
        load_measurement(path)


def with_meta(good: dict[str, bytes], change) -> dict[str, bytes]:
    meta = json.loads(str(np.load(io.BytesIO(good["meta_json.npy"]))))
    text = change(meta)
    if text is None:
        text = json.dumps(meta)
    return dict(good, **{"meta_json.npy": npy_bytes(np.array(text))})


def _set(path: str, value):
    def change(meta):
        *head, last = path.split(".")
        d = meta
        for k in head:
            d = d.setdefault(k, {})
        d[last] = value
    return change


@pytest.mark.parametrize("members, message", [
    (lambda g: dict(g, **{"version.npy": npy_bytes(np.array(np.inf))}), "no valid format version"),
    (lambda g: dict(g, **{"version.npy": npy_bytes(np.array([1, 2]))}), "no valid format version"),
    (lambda g: dict(g, **{"format.npy": npy_bytes(np.array(7))}), "'format' entry is not text"),
    (lambda g: with_meta(g, lambda m: json.dumps(m).replace('"clock_mhz": ', '"clock_mhz": Infinity, "x": ')),
     "not a finite number"),
    (lambda g: with_meta(g, lambda m: json.dumps(m).replace('"clock_mhz": ', '"clock_mhz": 1e400, "x": ')),
     "not a finite number"),
    (lambda g: with_meta(g, lambda m: json.dumps(m).replace('"sm_count": ', '"sm_count": ' + "9" * 5000 + ', "x": ')),
     "not a finite number"),
    (lambda g: with_meta(g, lambda m: "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    (lambda g: with_meta(g, _set("device", "GPU")), "device must be a table, not text"),
    (lambda g: with_meta(g, _set("nvml", [1, 2])), "nvml must be a table, not a list"),
    (lambda g: with_meta(g, _set("kernel.registers", "24")), "kernel.registers must be an integer, not text"),
    (lambda g: with_meta(g, _set("kernel.registers", True)), "kernel.registers must be an integer"),
    (lambda g: with_meta(g, _set("timing.clock_mhz", -5)), "timing.clock_mhz is -5"),
    (lambda g: with_meta(g, _set("launch.warps_per_block", 0)), "launch.warps_per_block is 0"),
    (lambda g: with_meta(g, _set("notes", [1])), "notes[0] must be text"),
    (lambda g: with_meta(g, _set("occupancy.ours.limiters", "warps")), "occupancy.ours.limiters must be a list"),
    (lambda g: with_meta(g, _set("scenario_toml", "gpu = 'NOPE'")), "its scenario is not valid"),
    (lambda g: with_meta(g, _set("scenario_toml", "a = [" * 5000)), "not a valid scenario"),
    (lambda g: dict(g, **{"sm_ids.npy": npy_bytes(np.zeros(2, np.float64))}), "not a 1-D integer array"),
    (lambda g: dict(g, **{"residency_delta.npy": npy_bytes(np.full(12, 10**6, np.int64))}), "more than max_warps"),
])
def test_crafted_meta_and_arrays_are_one_clear_error(tmp_path, good, members, message):
    path = archive(tmp_path / "bad.npz", members(good))
    with pytest.raises(MeasurementFormatError) as info:
        load_measurement(path)
    assert message in str(info.value) and "bad.npz" in str(info.value) and "\n" not in str(info.value)


def test_files_that_are_not_regular_files(tmp_path):
    fifo = tmp_path / "pipe.npz"
    os.mkfifo(fifo)
    with pytest.raises(MeasurementFormatError, match="not a regular file"):
        load_measurement(fifo)
    loop = tmp_path / "loop.npz"
    loop.symlink_to(loop)
    with pytest.raises(MeasurementFormatError, match="symbolic link loop"):
        load_measurement(loop)
    assert_one_line_error(run_cli("measure", "--from", str(loop)), 2, "symbolic link loop")


# -- property: whatever the meta holds, only our error escapes, and what loads can be shown -----------
JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False,
                    allow_infinity=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)
PATHS = ["device", "device.name", "launch", "launch.total_blocks", "launch.warps_per_block", "launch.grid",
         "launch.dynamic_shared_bytes", "kernel", "kernel.registers", "kernel.static_shared_bytes", "kernel.barriers",
         "timing", "timing.clock_mhz", "timing.kernel_ms", "timing.globaltimer", "timing.globaltimer.tick_ns",
         "timing.alignment", "timing.repeats", "nvml", "nvml.available", "nvml.gpm", "nvml.utilization_gpu_mean",
         "nvml.gpm.sm_occupancy", "occupancy", "occupancy.ours", "occupancy.ours.active_blocks_per_sm",
         "occupancy.ours.occupancy", "occupancy.driver_active_blocks_per_sm", "notes", "problems", "scenario_name",
         "scenario_toml", "gpu", "synthetic", "sm_count", "max_warps_per_sm", "version", "format", "source"]


@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=4))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_meta_loads_cleanly_or_is_refused_clearly(tmp_path, good, changes):
    from explorer.cli.cmd_measure import format_measurement
    from explorer.gpu.measure import resim_scenario
    from explorer.model.errors import InputError

    def change(meta):
        for path, value in changes:
            try:
                _set(path, value)(meta)
            except (AttributeError, TypeError):  # a parent was replaced by a non-table: fine, keep going
                pass
    path = archive(tmp_path / "h.npz", with_meta(good, change))
    try:
        m = load_measurement(path)
    except MeasurementFormatError as exc:
        assert "\n" not in str(exc)
        return
    s = m.summary()
    json.dumps(s, allow_nan=False)
    format_measurement(m, str(path))
    try:
        resim_scenario(m)
    except InputError:
        pass


@given(key=st.sampled_from(["block", "block_sm", "block_start", "block_end_ns", "residency_time", "residency_sm",
                            "residency_delta", "sm_ids", "warp_block", "warp_end", "version", "format"]),
       dtype=st.sampled_from(["<i8", ">i4", "<u8", "|u1", "<f8", "<U3", "|b1", "<c16"]),
       length=st.integers(0, 20) | st.none(),
       fill=st.integers(-2**40, 2**40))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_array_loads_cleanly_or_is_refused_clearly(tmp_path, good, key, dtype, length, fill):
    dt = np.dtype(dtype)
    shape = () if length is None else (length,)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        value = np.clip(fill, info.min, info.max)
    elif dt.kind == "U":
        value = str(fill)[:3]
    else:
        value = fill
    arr = np.full(shape, value, dtype=dt)
    path = archive(tmp_path / "a.npz", dict(good, **{f"{key}.npy": npy_bytes(arr)}))
    try:
        m = load_measurement(path)
    except MeasurementFormatError as exc:
        assert "\n" not in str(exc)
        return
    json.dumps(m.summary(), allow_nan=False)
