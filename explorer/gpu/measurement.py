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

from explorer.atomic import atomic_write

from explorer.gpu.analysis import Analysis
from explorer.gpu.errors import MeasurementFormatError
from explorer.timeline import BlockRecords, Residency

FORMAT = "warp-explorer-measurement"
VERSION = 1
SIM_FORMAT = "warp-explorer-sim"
REQUIRED_META = ("launch", "device", "timing", "sm_count", "max_warps_per_sm")
BLOCK_ARRAYS = ("block", "block_sm", "block_start", "block_end", "block_start_ns", "block_end_ns")
RESIDENCY_ARRAYS = ("residency_time", "residency_sm", "residency_delta")
WARP_ARRAYS = ("warp_block", "warp_sm", "warp_start", "warp_end", "warp_start_ns", "warp_end_ns", "warp_hw_id")


@dataclass(eq=False)
class Measurement:
    meta: dict
    blocks: BlockRecords  # cycles since the first warp started
    blocks_ns: BlockRecords  # the same blocks in ns
    residency: Residency  # resident warps per SM over cycles
    sm_ids: np.ndarray  # hardware %smid for each SM index (-1 where no block ran)
    warps: dict | None = None  # per-warp arrays: block, sm, start, end (cycles), start_ns, end_ns, hw_warp
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
        text = self.meta.get("scenario_toml")
        if not text:
            return None
        import tomllib

        from explorer.model.scenario import Scenario

        return Scenario.from_dict(tomllib.loads(text))

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
    def from_analysis(cls, meta: dict, analysis: Analysis) -> "Measurement":
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
                   sm_ids=analysis.sm_ids, warps=analysis.warps)

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
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda fh: np.savez_compressed(fh, **payload))
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Measurement":
        return load_measurement(path)


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
    """Open a measurement file; any problem is a MeasurementFormatError naming the file and the fault."""
    p = Path(path)
    name = p.name or str(path)

    def bad(message: str) -> MeasurementFormatError:
        return MeasurementFormatError(name, message)

    if not p.exists():
        raise bad("file not found")
    if p.is_dir():
        raise bad("is a folder, not a measurement file")
    try:
        with open(p, "rb") as fh:
            magic = fh.read(4)
    except PermissionError:
        raise bad("permission denied") from None
    except OSError as exc:
        raise bad(f"unreadable ({exc.strerror or exc})") from None
    if magic not in (b"PK\x03\x04", b"PK\x05\x06"):  # a zip archive (an empty one ends at once)
        raise bad("not a measurement file (not a .npz archive)")
    try:
        with np.load(p, allow_pickle=False) as npz:
            data = {k: npz[k] for k in npz.files}
    except (zipfile.BadZipFile, EOFError):
        raise bad("not a measurement file (not a .npz archive)") from None
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise bad("holds Python objects; a measurement file holds only arrays and text") from None
        raise bad(f"not a measurement file ({exc})") from None
    except PermissionError:
        raise bad("permission denied") from None
    except (OSError, zipfile.LargeZipFile) as exc:
        raise bad(f"unreadable ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - a damaged member can raise from zlib or the npy parser
        raise bad(f"damaged ({type(exc).__name__}: {exc})") from None
    if "format" not in data:
        raise bad("not a measurement file (no 'format' entry)")
    fmt = str(data["format"])
    if fmt == SIM_FORMAT:
        raise bad("is a simulation file (simulate --out), not a measurement")
    if fmt != FORMAT:
        raise bad(f"format {fmt!r} is not {FORMAT!r}")
    try:
        version = int(data.get("version"))
    except (TypeError, ValueError):
        raise bad("has no valid format version") from None
    if version > VERSION:
        raise bad(f"written by a newer Warp Explorer (format version {version}; this one reads up to {VERSION})")
    if version < 1:
        raise bad(f"format version {version} is not valid")
    try:
        meta = json.loads(str(data["meta_json"]))
    except KeyError:
        raise bad("has no 'meta_json' entry") from None
    except json.JSONDecodeError as exc:
        raise bad(f"its meta_json is not valid JSON ({exc.msg} at character {exc.pos})") from None
    if not isinstance(meta, dict):
        raise bad("its meta_json is not a JSON object")
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise bad(f"its meta_json lacks {missing[0]!r}")
    try:
        clock = float(meta["timing"]["clock_mhz"])
        sm_count = int(meta["sm_count"])
        max_warps = int(meta["max_warps_per_sm"])
        wpb = int(meta["launch"]["warps_per_block"])
        int(meta["launch"]["total_blocks"])
    except (KeyError, TypeError, ValueError) as exc:
        raise bad(f"its meta_json lacks a valid {exc} (timing.clock_mhz, sm_count, max_warps_per_sm, "
                  "launch.warps_per_block, launch.total_blocks)") from None
    if not (clock > 0 and sm_count > 0 and max_warps > 0 and wpb > 0):
        raise bad("its clock, SM count, warps per SM and warps per block must be positive")
    for key in BLOCK_ARRAYS + RESIDENCY_ARRAYS + ("sm_ids",):
        if key not in data:
            raise bad(f"has no {key!r} array")
        if data[key].ndim != 1 or not np.issubdtype(data[key].dtype, np.integer):
            raise bad(f"its {key!r} array is not a 1-D integer array")
    n = data["block"].shape[0]
    for key in BLOCK_ARRAYS:
        if data[key].shape[0] != n:
            raise bad(f"its {key!r} array has {data[key].shape[0]} entries, expected {n} (one per block)")
    r = data["residency_time"].shape[0]
    for key in RESIDENCY_ARRAYS:
        if data[key].shape[0] != r:
            raise bad(f"its {key!r} array has {data[key].shape[0]} entries, expected {r}")
    if data["sm_ids"].shape[0] != sm_count:
        raise bad(f"its 'sm_ids' array has {data['sm_ids'].shape[0]} entries, expected sm_count = {sm_count}")
    for key in ("block_sm", "residency_sm"):
        if data[key].size and (data[key].min() < 0 or data[key].max() >= sm_count):
            raise bad(f"its {key!r} array names an SM outside 0..{sm_count - 1}")
    if n and ((data["block_end"] < data["block_start"]).any() or (data["block_end_ns"] < data["block_start_ns"]).any()):
        raise bad("a block ends before it starts")
    if r and (np.diff(data["residency_time"]) < 0).any():
        raise bad("its residency events are not in time order")
    warps = None
    if "warp_block" in data:
        missing = [k for k in WARP_ARRAYS if k not in data]
        if missing:
            raise bad(f"has per-warp arrays but no {missing[0]!r}")
        w = data["warp_block"].shape[0]
        if any(data[k].shape[0] != w for k in WARP_ARRAYS):
            raise bad("its per-warp arrays differ in length")
        warps = {"block": data["warp_block"], "sm": data["warp_sm"], "start": data["warp_start"],
                 "end": data["warp_end"], "start_ns": data["warp_start_ns"], "end_ns": data["warp_end_ns"],
                 "hw_warp": data["warp_hw_id"]}
    blocks = BlockRecords(block=data["block"].astype(np.int64), sm=data["block_sm"].astype(np.int32),
                          start=data["block_start"].astype(np.int64), end=data["block_end"].astype(np.int64))
    blocks_ns = BlockRecords(block=blocks.block, sm=blocks.sm, start=data["block_start_ns"].astype(np.int64),
                             end=data["block_end_ns"].astype(np.int64))
    residency = Residency(sm_count, data["residency_time"].astype(np.int64), data["residency_sm"].astype(np.int32),
                          data["residency_delta"].astype(np.int32))
    return Measurement(meta=meta, blocks=blocks, blocks_ns=blocks_ns, residency=residency,
                       sm_ids=data["sm_ids"].astype(np.int64), warps=warps, path=str(p))


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
