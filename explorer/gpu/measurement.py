"""A measurement of one kernel launch on a real GPU, and its file format.

``Measurement`` shares the simulator's timeline shapes (``explorer.timeline``):
``blocks`` (``BlockRecords`` in SM cycles since the kernel's first warp),
``residency`` (per-SM resident warps as +/- events in cycles) and ``cycles``, so
the GUI overlays a measurement on a ``SimResult`` without conversion; the raw
nanoseconds stay beside them (``blocks_ns``, the per-warp ``warps`` arrays) with the
clock that converts one into the other.

File: a compressed ``.npz`` (numpy only; loads anywhere, no GPU, no pickle) with
``format = "warp-explorer-measurement"``, an integer ``version``, a JSON ``meta``
(scenario, device, compiled kernel, occupancy, timing, NVML) and the arrays. Array
names match ``SimResult.save_npz`` where they mean the same thing (``block_sm``,
``block_start``, ``block_end``, ``residency_*``).
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from explorer.model.atomic import atomic_write

from explorer.gpu.analysis import Analysis
from explorer.toolchain.errors import MeasurementFormatError
from explorer.toolchain.names import one_line
from explorer.model.errors import MAX_MEASUREMENT_BYTES
from explorer.timeline import BlockRecords, Residency

FORMAT = "warp-explorer-measurement"
VERSION = 1
SIM_FORMAT = "warp-explorer-sim"
REQUIRED_META = ("launch", "device", "timing", "sm_count", "max_warps_per_sm")
BLOCK_ARRAYS = ("block", "block_sm", "block_start", "block_end", "block_start_ns", "block_end_ns")
RESIDENCY_ARRAYS = ("residency_time", "residency_sm", "residency_delta")
WARP_ARRAYS = ("warp_block", "warp_sm", "warp_start", "warp_end", "warp_start_ns", "warp_end_ns", "warp_hw_id")
# measure --iteration-clocks: per warp, the clock at each iteration's top and at the loop's end, in cycles since
# that warp's entry clock, warp-major (meta launch.iteration_clocks entries per warp; explorer.gpu.iterations)
ITERATION_ARRAY = "warp_iteration_clocks"
ARRAY_MEMBERS = frozenset(BLOCK_ARRAYS + RESIDENCY_ARRAYS + WARP_ARRAYS + ("sm_ids", ITERATION_ARRAY))
TEXT_MEMBERS = frozenset({"format", "meta_json"})
MEMBERS = ARRAY_MEMBERS | TEXT_MEMBERS | {"version"}  # everything else in a file is never read

# Loader limits (not hardware facts): far above any real measurement, low enough that a
# crafted file is refused from its zip directory in milliseconds and memory stays bounded.
MAX_ENTRIES = 1 << 24  # per array: 16.7 M blocks, warps or residency events (a run records <= 2 M warps)
MAX_MEMBER_BYTES = MAX_ENTRIES * 8 + 4096  # an int64 array of MAX_ENTRIES and its header
MAX_META_BYTES = 64 << 20  # meta_json as numpy stores text (4 B per character): 16 M characters
MAX_TOTAL_BYTES = 512 << 20  # all known members together, uncompressed
NPY_HEADER_MAX = 10_000  # numpy's own default for an untrusted .npy header


@dataclass(eq=False)
class Measurement:
    meta: dict
    blocks: BlockRecords  # cycles since the first warp started
    blocks_ns: BlockRecords  # the same blocks in ns
    residency: Residency  # resident warps per SM over cycles
    sm_ids: np.ndarray  # hardware %smid for each SM index (-1 where no block ran)
    warps: dict | None = None  # per-warp arrays: block, sm, start, end (cycles), start_ns, end_ns, hw_warp
    # measure --iteration-clocks: int64 [warps, loop + 1], cycles since each warp's entry (ITERATION_ARRAY)
    iteration_clocks: np.ndarray | None = None
    path: str = field(default="", compare=False)

    # -- facts -----------------------------------------------------------------------
    @property
    def cycles(self) -> int:
        return int(self.blocks.end.max()) if len(self.blocks) else 0

    @property
    def duration_ns(self) -> int:
        return int(self.blocks_ns.end.max()) if len(self.blocks_ns) else 0

    @property
    def clock_mhz(self) -> float:
        return float(self.meta["timing"]["clock_mhz"])

    @property
    def sm_count(self) -> int:
        return int(self.meta["sm_count"])

    @property
    def max_warps_per_sm(self) -> int:
        return int(self.meta["max_warps_per_sm"])

    @property
    def warps_per_block(self) -> int:
        return int(self.meta["launch"]["warps_per_block"])

    @property
    def gpu_name(self) -> str:
        """The catalog GPU this device is (e.g. ``H200``), else the device's own name."""
        return self.meta.get("gpu") or self.meta["device"].get("name", "?")

    @property
    def scenario(self):
        """The scenario as measured (None if the file does not carry one)."""
        return _scenario_of(self.meta)

    def cycles_to_ns(self, cycles):
        return np.asarray(cycles, dtype=np.float64) * 1000.0 / self.clock_mhz

    def achieved_occupancy(self) -> float:
        return self.residency.achieved_occupancy(self.max_warps_per_sm)

    def summary(self) -> dict:
        """The measured counterparts of ``SimResult.summary()`` (same key where the meaning is the same)."""
        m = self.meta
        occ = m.get("occupancy", {})
        ours = occ.get("ours", {})
        timing = m["timing"]
        nvml = m.get("nvml", {})
        warp_cycles, active = self.residency.warp_cycles_and_active_cycles(self.cycles)
        cycles = max(self.cycles, 1)
        per_wave = (ours.get("active_blocks_per_sm") or 0) * self.sm_count
        util = nvml.get("utilization_gpu_mean")
        gpm = nvml.get("gpm", {}) if isinstance(nvml.get("gpm"), dict) else {}
        kernel = m.get("kernel", {})
        return {
            "gpu": self.gpu_name,
            "device": m["device"].get("name", "?"),
            "total_blocks": int(m["launch"]["total_blocks"]),
            "warps_per_block": self.warps_per_block,
            "launched_warps": int(m["launch"]["total_blocks"]) * self.warps_per_block,
            "cycles": self.cycles,
            "kernel_time_us": (timing.get("kernel_ms") or 0.0) * 1000.0,
            "records_time_us": self.duration_ns / 1000.0,
            "clock_mhz": self.clock_mhz,
            "globaltimer_tick_ns": timing.get("globaltimer", {}).get("tick_ns"),
            "l2_flush_bytes": timing.get("l2_flush_bytes"),
            "theoretical_occupancy": ours.get("occupancy"),
            "achieved_occupancy": self.achieved_occupancy(),
            "active_blocks_per_sm": ours.get("active_blocks_per_sm"),
            "driver_active_blocks_per_sm": occ.get("driver_active_blocks_per_sm"),
            "measured_max_blocks_per_sm": int(self.blocks.max_concurrent_per_sm(self.sm_count).max())
            if len(self.blocks) else 0,
            "waves": (int(m["launch"]["total_blocks"]) / per_wave) if per_wave else None,
            "sm_active_fraction": float(active.sum() / (cycles * self.sm_count)),
            "kernel_active_fraction": (util / 100.0) if util is not None else None,
            "nvml_utilization_gpu": util,
            "gpm_sm_util": gpm.get("sm_util"),
            "gpm_sm_occupancy": gpm.get("sm_occupancy"),
            "registers": kernel.get("registers"),
            "static_shared_bytes": kernel.get("static_shared_bytes"),
            "limiters": ours.get("limiters", []),
            "synthetic": bool(m.get("synthetic", False)),
        }

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_analysis(cls, meta: dict, analysis: Analysis,
                      iteration_clocks: np.ndarray | None = None) -> "Measurement":
        meta = dict(meta)
        meta.setdefault("format", FORMAT)
        meta.setdefault("version", VERSION)
        meta.setdefault("created", datetime.now(timezone.utc).isoformat(timespec="seconds"))
        meta["sm_count"] = analysis.sm_count
        meta["max_warps_per_sm"] = analysis.max_warps_per_sm
        timing = dict(meta.get("timing", {}))
        timing["clock_mhz"] = analysis.clock_mhz
        timing["alignment"] = analysis.alignment
        meta["timing"] = timing
        if analysis.problems:
            meta["problems"] = list(analysis.problems)
        return cls(meta=meta, blocks=analysis.blocks, blocks_ns=analysis.blocks_ns, residency=analysis.residency,
                   sm_ids=analysis.sm_ids, warps=analysis.warps, iteration_clocks=iteration_clocks)

    # -- files --------------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> Path:
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_suffix(path.suffix + ".npz") if path.suffix else path.with_suffix(".npz")
        payload = {
            "format": np.array(FORMAT),
            "version": np.array(VERSION),
            "meta_json": np.array(json.dumps(self.meta, default=_json_default)),
            "block": self.blocks.block.astype(np.int64),
            "block_sm": self.blocks.sm.astype(np.int32),
            "block_start": self.blocks.start.astype(np.int64),
            "block_end": self.blocks.end.astype(np.int64),
            "block_start_ns": self.blocks_ns.start.astype(np.int64),
            "block_end_ns": self.blocks_ns.end.astype(np.int64),
            "residency_time": self.residency.time,
            "residency_sm": self.residency.sm,
            "residency_delta": self.residency.delta,
            "sm_ids": self.sm_ids.astype(np.int64),
        }
        if self.warps is not None:
            for key in WARP_ARRAYS:
                payload[key] = np.asarray(self.warps[key[len("warp_"):] if key != "warp_hw_id" else "hw_warp"])
        if self.iteration_clocks is not None:
            payload[ITERATION_ARRAY] = np.asarray(self.iteration_clocks, np.int64).reshape(-1)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda fh: np.savez_compressed(fh, **payload))
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Measurement":
        return load_measurement(path)


def _scenario_of(meta: dict):
    text = meta.get("scenario_toml")
    if not text:
        return None
    import tomllib

    from explorer.model.scenario import Scenario

    return Scenario.from_dict(tomllib.loads(text))


def _json_default(obj):
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, (bytes, bytearray)):
        return obj.decode("utf-8", "replace")
    raise TypeError(f"{type(obj).__name__} is not JSON serializable")


def load_measurement(path: str | os.PathLike) -> Measurement:
    """Open a measurement file; any problem is a MeasurementFormatError naming the file and the fault.

    Memory and time stay bounded whatever the file holds: the file is size-capped and
    must be a regular file; only the known members are read, and each one's declared
    size (the zip central directory), dtype and shape are checked against the limits
    above before a byte of it is decompressed; ``meta_json`` must be finite JSON of
    the types the readers of a Measurement expect (:mod:`explorer.gpu.measurement_schema`).
    """
    from explorer.gpu.measurement_schema import check_meta
    from explorer.model.errors import InputError, read_user_bytes

    p = Path(path)
    name = p.name or str(path)

    def bad(message: str) -> MeasurementFormatError:
        return MeasurementFormatError(name, message)

    try:
        raw = read_user_bytes(p, kind="a measurement file", limit=MAX_MEASUREMENT_BYTES)
    except InputError as exc:
        raise bad(exc.message) from None
    if raw[:4] not in (b"PK\x03\x04", b"PK\x05\x06"):  # a zip archive (an empty one ends at once)
        raise bad("not a measurement file (not a .npz archive)")
    members = _Members(raw, bad)
    if "format" not in members:
        raise bad("not a measurement file (no 'format' entry)")
    fmt = _scalar_text(members.read("format"), "format", bad)
    if fmt == SIM_FORMAT:
        raise bad("is a simulation file (simulate --out), not a measurement")
    if fmt != FORMAT:
        raise bad(f"format {one_line(fmt, 60)!r} is not {FORMAT!r}")
    version = members.read("version") if "version" in members else None
    if version is None or version.ndim != 0 or version.dtype.kind not in "iu":
        raise bad("has no valid format version (an integer)")
    version = int(version[()])
    if version > VERSION:
        raise bad(f"written by a newer Warp Explorer (format version {version}; this one reads up to {VERSION})")
    if version < 1:
        raise bad(f"format version {version} is not valid")
    if "meta_json" not in members:
        raise bad("has no 'meta_json' entry")
    meta = _parse_meta(_scalar_text(members.read("meta_json"), "meta_json", bad), bad)
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise bad(f"its meta_json lacks {missing[0]!r}")
    problem = check_meta(meta)
    if problem:
        raise bad(f"its meta_json field {problem}")
    if meta.get("scenario_toml"):
        try:
            _scenario_of(meta)
        except InputError as exc:
            raise bad(f"its scenario is not valid ({one_line(exc, 120)})") from None
        except Exception as exc:  # noqa: BLE001 - TOML syntax, nesting: the text came from a file
            raise bad(f"its scenario_toml is not a valid scenario ({type(exc).__name__}: {one_line(exc, 120)})") \
                from None
    sm_count, max_warps = int(meta["sm_count"]), int(meta["max_warps_per_sm"])

    # every array's length is known from its header before any array is decompressed
    for key in BLOCK_ARRAYS + RESIDENCY_ARRAYS + ("sm_ids",):
        if key not in members:
            raise bad(f"has no {key!r} array")
    length = {k: members.length(k) for k in ARRAY_MEMBERS if k in members}
    n = length["block"]
    for key in BLOCK_ARRAYS:
        if length[key] != n:
            raise bad(f"its {key!r} array has {length[key]} entries, expected {n} (one per block)")
    r = length["residency_time"]
    for key in RESIDENCY_ARRAYS:
        if length[key] != r:
            raise bad(f"its {key!r} array has {length[key]} entries, expected {r}")
    if length["sm_ids"] != sm_count:
        raise bad(f"its 'sm_ids' array has {length['sm_ids']} entries, expected sm_count = {sm_count}")
    per_warp = "warp_block" in members
    if per_warp:
        missing = [k for k in WARP_ARRAYS if k not in members]
        if missing:
            raise bad(f"has per-warp arrays but no {missing[0]!r}")
        if len({length[k] for k in WARP_ARRAYS}) != 1:
            raise bad("its per-warp arrays differ in length")

    arrays = {k: members.read(k).astype(np.int64) for k in length}
    del members, raw
    for key in ("block_sm", "residency_sm"):
        if arrays[key].size and (arrays[key].min() < 0 or arrays[key].max() >= sm_count):
            raise bad(f"its {key!r} array names an SM outside 0..{sm_count - 1}")
    if n and ((arrays["block_end"] < arrays["block_start"]).any()
              or (arrays["block_end_ns"] < arrays["block_start_ns"]).any()):
        raise bad("a block ends before it starts")
    if r and (np.diff(arrays["residency_time"]) < 0).any():
        raise bad("its residency events are not in time order")
    if np.abs(arrays["residency_delta"]).max(initial=0) > max_warps:
        raise bad(f"a residency event changes an SM by more than max_warps_per_sm = {max_warps} warps")
    iterations = None
    if ITERATION_ARRAY in arrays:
        per = meta["launch"].get("iteration_clocks")
        if not per_warp or not per:
            raise bad(f"has {ITERATION_ARRAY!r} without per-warp records and launch.iteration_clocks")
        flat = arrays[ITERATION_ARRAY]
        if flat.size != length["warp_block"] * per:
            raise bad(f"its {ITERATION_ARRAY!r} array has {flat.size} entries, expected {length['warp_block']} warps "
                      f"x {per} clocks")
        iterations = flat.reshape(-1, per)
        if iterations.size and (iterations.min() < 0 or (np.diff(iterations, axis=1) < 0).any()):
            raise bad(f"its {ITERATION_ARRAY!r} run backwards (a warp's clocks must not decrease)")
    warps = None
    if per_warp:
        warps = {"block": arrays["warp_block"], "sm": arrays["warp_sm"], "start": arrays["warp_start"],
                 "end": arrays["warp_end"], "start_ns": arrays["warp_start_ns"], "end_ns": arrays["warp_end_ns"],
                 "hw_warp": arrays["warp_hw_id"]}
    blocks = BlockRecords(block=arrays["block"], sm=arrays["block_sm"].astype(np.int32),
                          start=arrays["block_start"], end=arrays["block_end"])
    blocks_ns = BlockRecords(block=blocks.block, sm=blocks.sm, start=arrays["block_start_ns"],
                             end=arrays["block_end_ns"])
    residency = Residency(sm_count, arrays["residency_time"], arrays["residency_sm"].astype(np.int32),
                          arrays["residency_delta"].astype(np.int32))
    return Measurement(meta=meta, blocks=blocks, blocks_ns=blocks_ns, residency=residency,
                       sm_ids=arrays["sm_ids"], warps=warps, iteration_clocks=iterations, path=str(p))


class _Members:
    """The known ``.npy`` members of a measurement archive, each read only when asked for.

    The central directory is checked when the archive opens (every member's declared
    size, and the known ones' total); a member's header (dtype, shape) is checked
    against its declared size before its data is decompressed.
    """

    def __init__(self, raw: bytes, bad):
        import io

        self.bad = bad
        try:
            self.zf = zipfile.ZipFile(io.BytesIO(raw))
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError):
            raise bad("not a measurement file (not a .npz archive)") from None
        self.infos: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            limit = MAX_META_BYTES if info.filename == "meta_json.npy" else MAX_MEMBER_BYTES
            if info.file_size > limit:
                raise bad(f"its member {one_line(info.filename, 60)!r} declares {info.file_size:,} bytes, above the "
                          f"limit of {limit:,} bytes")
            key = info.filename[:-4] if info.filename.endswith(".npy") else None
            if key in MEMBERS:
                self.infos[key] = info
                total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise bad(f"its arrays declare {total:,} bytes in all, above the limit of {MAX_TOTAL_BYTES:,} bytes")
        self.headers: dict[str, tuple] = {}

    def __contains__(self, key: str) -> bool:
        return key in self.infos

    def length(self, key: str) -> int:
        """Entries of a 1-D integer array, from its header (nothing else is decompressed)."""
        return int(self._read(key, header_only=True)[0])

    def read(self, key: str) -> np.ndarray:
        return self._read(key, header_only=False)

    def _read(self, key: str, header_only: bool):
        info = self.infos[key]
        try:
            with self.zf.open(info) as fh:
                shape, fortran, dtype, nbytes = self._header(fh, key, info.file_size)
                if header_only:
                    return shape
                buf = fh.read(nbytes)
        except MeasurementFormatError:
            raise
        except Exception as exc:  # noqa: BLE001 - zlib, CRC, encryption, unsupported compression...
            raise self.bad(f"damaged ({type(exc).__name__}: {one_line(exc, 120)})") from None
        if len(buf) != nbytes:
            raise self.bad(f"its {key!r} entry is truncated")
        return np.frombuffer(buf, dtype=dtype).reshape(shape, order="F" if fortran else "C")

    def _header(self, fh, key: str, declared: int):
        from numpy.lib import format as npy

        bad = self.bad
        version = npy.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = npy.read_array_header_1_0(fh, max_header_size=NPY_HEADER_MAX)
        elif version == (2, 0):
            shape, fortran, dtype = npy.read_array_header_2_0(fh, max_header_size=NPY_HEADER_MAX)
        else:
            raise bad(f"its {key!r} entry is in .npy format {version}, which this version does not read")
        if dtype.hasobject:
            raise bad("holds Python objects; a measurement file holds only arrays and text")
        if key in TEXT_MEMBERS:
            if dtype.kind != "U" or shape != ():
                raise bad(f"its {key!r} entry is not text")
        elif key == "version":
            if shape != ():
                raise bad("has no valid format version (an integer)")
        elif len(shape) != 1 or dtype.kind not in "iu" or dtype.itemsize > 8:
            raise bad(f"its {key!r} array is not a 1-D integer array")
        count = 1
        for d in shape:
            count *= int(d)
        if key in ARRAY_MEMBERS and count > MAX_ENTRIES:
            raise bad(f"its {key!r} array declares {count:,} entries, above the limit of {MAX_ENTRIES:,}")
        nbytes = count * dtype.itemsize
        if nbytes != declared - fh.tell():
            raise bad(f"its {key!r} entry is damaged (its header and its size disagree)")
        return shape, fortran, dtype, nbytes


def _scalar_text(arr: np.ndarray, key: str, bad) -> str:
    if arr.dtype.kind != "U" or arr.ndim != 0:
        raise bad(f"its {key!r} entry is not text")
    return str(arr[()])


def _parse_meta(text: str, bad) -> dict:
    def no_constant(word):
        raise ValueError(f"{word} is not a number a measurement can hold")

    def finite(word):
        value = float(word)
        if not np.isfinite(value):
            raise ValueError(f"{word[:40]} is too large for a number")
        return value

    try:
        meta = json.loads(text, parse_constant=no_constant, parse_float=finite)
    except json.JSONDecodeError as exc:
        raise bad(f"its meta_json is not valid JSON ({exc.msg} at character {exc.pos})") from None
    except RecursionError:
        raise bad("its meta_json is nested too deeply") from None
    except ValueError as exc:  # Infinity/NaN, a huge float, an integer of thousands of digits
        raise bad(f"its meta_json holds a value that is not a finite number ({one_line(exc, 80)})") from None
    if not isinstance(meta, dict):
        raise bad("its meta_json is not a JSON object")
    return meta


def measurement_from_sim(result, *, clock_mhz: float | None = None, note: str = "") -> Measurement:
    """A synthetic Measurement from a SimResult (for tests, demos and the overlay without a GPU).

    Block records and residency are the simulation's; nanoseconds follow from ``clock_mhz``
    (default: the GPU's boost clock). ``meta["synthetic"]`` is True so nobody mistakes it
    for a real run.
    """
    from explorer.model.tomlio import dumps
    from explorer.occupancy import occupancy_for_launch

    scenario = result.scenario
    gpu = scenario.gpu
    clock = float(clock_mhz or gpu.boost_clock_mhz)
    p = result.params
    blocks = result.blocks
    to_ns = 1000.0 / clock
    blocks_ns = BlockRecords(block=blocks.block, sm=blocks.sm, start=np.rint(blocks.start * to_ns).astype(np.int64),
                             end=np.rint(blocks.end * to_ns).astype(np.int64))
    occ = occupancy_for_launch(gpu, scenario.launch)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "synthetic": True,
        "note": note or "synthesized from a simulation, not measured",
        "scenario_toml": dumps(scenario.to_dict()),
        "scenario_name": scenario.name,
        "gpu": gpu.name,
        "device": {"name": f"{gpu.full_name} (simulated)", "compute_capability": gpu.compute_capability,
                   "sm_count": gpu.sm_count},
        "launch": {"grid": scenario.launch.grid.to_list(), "block": scenario.launch.block.to_list(),
                   "threads_per_block": scenario.launch.threads_per_block, "warps_per_block": p.warps_per_block,
                   "total_blocks": p.total_blocks, "dynamic_shared_bytes": scenario.launch.dynamic_shared_bytes,
                   "carveout": scenario.launch.carveout, "per_warp": False},
        "kernel": {"registers": scenario.launch.registers_per_thread,
                   "static_shared_bytes": scenario.launch.static_shared_bytes},
        "occupancy": {"ours": {"active_blocks_per_sm": occ.active_blocks_per_sm, "occupancy": occ.occupancy,
                               "limiters": list(occ.limiters)}},
        "timing": {"clock_mhz": clock, "kernel_ms": result.cycles / clock / 1000.0,
                   "globaltimer": {"tick_ns": None}, "alignment": "simulated"},
        "sm_count": p.sm_count,
        "max_warps_per_sm": p.warps_per_sm,
    }
    return Measurement(meta=meta, blocks=blocks, blocks_ns=blocks_ns, residency=result.residency,
                       sm_ids=np.arange(p.sm_count, dtype=np.int64), warps=None)
