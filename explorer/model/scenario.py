"""The Scenario: GPU + launch + workload + scheduler policy + seed.

One Scenario drives the simulator, the real-GPU backend, the CLI and the GUI. It
is immutable; edits make a new one (``with_values``), so a worker thread can hold
one while the user types into the next.
"""

from __future__ import annotations

from explorer.texts.names import POLICY_DOC as POLICY_TEXT

import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from explorer.model.atomic import atomic_write_text
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import (SHOWN_CHARS, InputError, reject_unknown_keys, require_int, shown, shown_path,
                                   strip_bidi)
from explorer.model.kernel_spec import KernelSpec, parse_kernel
from explorer.model.languages import Pairs, text_in, texts_by_language
from explorer.model.stream import StreamConfig, parse_stream
from explorer.model.tomlio import MAX_TOML_DEPTH, dumps, load_toml, parse_value
from explorer.model.tma_tiles import check_launch
from explorer.model.workload import Workload, check_async_ops, parse_workload
from explorer.texts.errors import ERRORS, quoting

# CUDA launch limits (CUDA C++ Programming Guide, "Technical Specifications per
# Compute Capability": identical for every CC the catalog holds).
GRID_MAX = (2**31 - 1, 65535, 65535)
BLOCK_MAX = (1024, 1024, 64)
# Sizes beyond this are not a GPU question but a typo; the occupancy rules use
# 32-bit arithmetic.
BYTES_MAX = 2**31 - 1
MAX_BARRIERS = 16  # named barriers per block (PTX bar.sync 0..15)

POLICIES = ("lrr", "gto", "oldest", "two_level")
# Which instruction stream the simulator runs: the generated kernel's SASS (compiled for the
# GPU's architecture, as `measure` launches it) or the workload model (explorer.sass.model_program).
PROGRAMS = ("sass", "model")
POLICY_DOC = POLICY_TEXT  # one line per policy (explorer/texts/names.py: the window translates them by name)


@dataclass(frozen=True)
class Dim3:
    x: int = 1
    y: int = 1
    z: int = 1

    @property
    def size(self) -> int:
        return self.x * self.y * self.z

    def to_list(self) -> list[int]:
        return [self.x, self.y, self.z]

    def __str__(self) -> str:
        return f"({self.x}, {self.y}, {self.z})"

    @classmethod
    def parse(cls, value, field_name: str, limits: tuple[int, int, int], block_threads: int | None = None) -> "Dim3":
        """``block_threads``: a block's thread limit, named when an axis is above its maximum."""
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= 3:
            raise InputError(field_name, quoting("not_dimension", shown(value)))
        dims = list(value) + [1] * (3 - len(value))
        out = []
        for axis, v, hi in zip("xyz", dims, limits):
            try:
                out.append(require_int(f"{field_name}.{axis}", v, lo=1, hi=hi))
            except InputError as exc:
                if block_threads and getattr(exc.message, "code", None) == "above_maximum":
                    raise InputError(exc.field, ERRORS("above_maximum_block", **exc.message.figures,
                                                       max=block_threads)) from None
                raise
        return cls(*out)


@dataclass(frozen=True)
class LaunchConfig:
    grid: Dim3 = Dim3(240)
    block: Dim3 = Dim3(256)
    registers_per_thread: int = 32
    static_shared_bytes: int = 0
    dynamic_shared_bytes: int = 0
    carveout: int = -1
    barriers: int = 1

    @property
    def total_blocks(self) -> int:
        return self.grid.size

    @property
    def threads_per_block(self) -> int:
        return self.block.size

    def warps_per_block(self, warp_size: int = 32) -> int:
        return math.ceil(self.threads_per_block / warp_size)

    def launched_warps(self, warp_size: int = 32) -> int:
        return self.total_blocks * self.warps_per_block(warp_size)

    def to_dict(self) -> dict:
        return {
            "grid": self.grid.to_list(),
            "block": self.block.to_list(),
            "registers_per_thread": self.registers_per_thread,
            "static_shared_bytes": self.static_shared_bytes,
            "dynamic_shared_bytes": self.dynamic_shared_bytes,
            "carveout": self.carveout,
            "barriers": self.barriers,
        }


def parse_launch(data, where: str = "launch") -> LaunchConfig:
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    reject_unknown_keys(data, set(LaunchConfig().to_dict()), where)
    base = LaunchConfig()
    carveout = require_int(f"{where}.carveout", data.get("carveout", base.carveout), lo=-1, hi=100)
    return LaunchConfig(
        grid=Dim3.parse(data.get("grid", base.grid.to_list()), f"{where}.grid", GRID_MAX),
        block=Dim3.parse(data.get("block", base.block.to_list()), f"{where}.block", BLOCK_MAX,
                         block_threads=1024),
        registers_per_thread=require_int(
            f"{where}.registers_per_thread", data.get("registers_per_thread", base.registers_per_thread), lo=0, hi=65536
        ),
        static_shared_bytes=require_int(
            f"{where}.static_shared_bytes", data.get("static_shared_bytes", 0), lo=0, hi=BYTES_MAX
        ),
        dynamic_shared_bytes=require_int(
            f"{where}.dynamic_shared_bytes", data.get("dynamic_shared_bytes", 0), lo=0, hi=BYTES_MAX
        ),
        carveout=carveout,
        barriers=require_int(f"{where}.barriers", data.get("barriers", base.barriers), lo=0, hi=MAX_BARRIERS),
    )


@dataclass(frozen=True)
class SchedulerConfig:
    policy: str = "gto"
    active_warps: int = 4  # two-level: size of the active set per scheduler

    def to_dict(self) -> dict:
        return {"policy": self.policy, "active_warps": self.active_warps}


def parse_scheduler(data, where: str = "scheduler") -> SchedulerConfig:
    if data is None:
        return SchedulerConfig()
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table, got {shown(data)}")
    reject_unknown_keys(data, {"policy", "active_warps"}, where)
    policy = data.get("policy", "gto")
    if not isinstance(policy, str) or policy.lower() not in POLICIES:
        raise InputError(f"{where}.policy", f"{shown(policy)} is not a policy; choose one of {', '.join(POLICIES)}")
    active = require_int(f"{where}.active_warps", data.get("active_warps", 4), lo=1, hi=64)
    return SchedulerConfig(policy=policy.lower(), active_warps=active)


def _check_text(key: str, text) -> None:
    if not isinstance(text, str):
        raise InputError(key, "must be text")
    if "\0" in text:  # no file name, C string or terminal line can carry one
        raise InputError(key, f"{shown(text)} contains a NUL character")


def parse_description(value) -> tuple[str, Pairs]:
    """``description``: English text, or a table of texts by language code (``{ en = "...", ru = "..." }``,
    English required: :mod:`explorer.model.languages`). Returns the English text and the others as pairs."""
    english, others = texts_by_language(value, "description")
    _check_text("description", english)
    for lang, text in others:
        _check_text(f"description.{lang}", text)
    return strip_bidi(english), tuple((lang, strip_bidi(text)) for lang, text in others)


@dataclass(frozen=True)
class Scenario:
    gpu_name: str = "H100"
    launch: LaunchConfig = field(default_factory=LaunchConfig)
    workload: Workload = field(default_factory=lambda: parse_workload(None))
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    seed: int = 1
    name: str = ""
    description: str = ""
    stream: StreamConfig = field(default_factory=StreamConfig)  # N launches of this kernel (explorer.model.stream)
    program: str = "sass"
    # the user's own kernel (explorer.model.kernel_spec); it replaces the workload, and the
    # cubin gives registers, static shared memory and barriers (read-only launch fields)
    kernel: KernelSpec | None = None
    # the description in other languages, (code, text) pairs: a shipped scenario carries its translations in its
    # own file, as a lesson does (``description.en`` / ``description.ru``), so data and its languages stay together;
    # not compared: a measurement file's copy of a preset (English only) is the same scenario as the preset
    description_texts: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def gpu(self) -> GpuSpec:
        return get_gpu(self.gpu_name)

    def to_dict(self) -> dict:
        d: dict = {}
        if self.name:
            d["name"] = self.name
        if self.description_texts:
            d["description"] = {"en": self.description, **dict(self.description_texts)}
        elif self.description:
            d["description"] = self.description
        d["gpu"] = self.gpu_name
        d["seed"] = self.seed
        if self.program != "sass":
            d["program"] = self.program
        d["launch"] = self.launch.to_dict()
        if self.kernel is not None:
            for key in KERNEL_LAUNCH_FIELDS:
                d["launch"].pop(key)
            d["kernel"] = self.kernel.to_dict()
        else:
            d["workload"] = self.workload.to_dict()
        d["scheduler"] = self.scheduler.to_dict()
        if not self.stream.is_default:
            d["stream"] = self.stream.to_dict()
        return d

    @classmethod
    def from_dict(cls, data, base_dir: str = "") -> "Scenario":
        """``base_dir``: the folder a ``[kernel]``'s file is relative to (the scenario file's)."""
        if not isinstance(data, dict):
            raise InputError("scenario", "expected a table")
        reject_unknown_keys(
            data, {"name", "description", "gpu", "seed", "launch", "workload", "scheduler", "stream", "program",
                   "kernel"}, "")
        gpu = get_gpu(data.get("gpu", "H100"))  # validates the name
        _check_text("name", data.get("name", ""))
        description, description_texts = parse_description(data.get("description", ""))
        kernel = None
        if "kernel" in data:
            kernel = parse_kernel(data["kernel"], base_dir)
            _check_kernel_scenario(data)
        scenario = cls(
            gpu_name=gpu.name,
            launch=parse_launch(data.get("launch", {})),
            workload=parse_workload(data.get("workload")),
            scheduler=parse_scheduler(data.get("scheduler")),
            seed=require_int("seed", data.get("seed", 1), lo=0, hi=2**63 - 1),
            name=strip_bidi(data.get("name", "")),  # shown in titles, status lines and narration
            description=description,
            description_texts=description_texts,
            stream=parse_stream(data.get("stream")),
            program=parse_program(data.get("program", "sass")),
            kernel=kernel,
        )
        if kernel is None:
            check_async_ops(scenario.workload, gpu, -(-scenario.launch.threads_per_block // gpu.arch.warp_size),
                            scenario.program)
            if scenario.workload.tiles is not None:
                check_launch(scenario.workload.tiles, scenario.launch.grid.size)
        return scenario

    def description_in(self, lang: str) -> str:
        """The description in ``lang`` (a language code), English where the file has none in it."""
        return text_in(self.description, self.description_texts, lang)

    def with_values(self, **dotted) -> "Scenario":
        """A copy with dotted keys replaced (``{"launch.grid": [480, 1, 1]}``), re-validated."""
        data = self.to_dict()
        for key, value in dotted.items():
            _set_dotted(data, str(key), value)
        return Scenario.from_dict(data, self.base_dir)

    def with_overrides(self, assignments: list[str]) -> "Scenario":
        """Apply ``key=value`` strings (values in TOML syntax), as ``--set`` does."""
        data = self.to_dict()
        for text in assignments:
            if "=" not in text:
                raise InputError("--set", f"{shown(text)} is not key=value (e.g. launch.grid=[480,1,1])")
            key, _, raw = text.partition("=")
            key = key.strip()
            if not key:
                raise InputError("--set", f"{shown(text)} has no key")
            _set_dotted(data, key, parse_value(raw, shown_path(key, SHOWN_CHARS)))
        return Scenario.from_dict(data, self.base_dir)

    def save(self, path: str | Path, field: str | None = None) -> None:
        """Write the scenario as TOML, atomically; a failed write is a WriteError naming ``field`` or the file.

        A ``[kernel]``'s file is written relative to the folder the scenario goes to, as it is read back."""
        out = self
        if self.kernel is not None:
            out = replace(self, kernel=self.kernel.relative_to(Path(path).parent))
        atomic_write_text(path, dumps(out.to_dict()), field=field)

    def anchored(self) -> "Scenario":
        """The scenario with a ``[kernel]``'s file as an absolute path (see ``KernelSpec.anchored``)."""
        return self if self.kernel is None else replace(self, kernel=self.kernel.anchored())

    @property
    def base_dir(self) -> str:
        return self.kernel.base_dir if self.kernel is not None else ""

    @classmethod
    def load(cls, path: str | Path) -> "Scenario":
        data = load_toml(path, "a scenario file")
        try:
            return cls.from_dict(data, str(Path(path).resolve().parent))
        except InputError as exc:
            raise InputError(f"{shown_path(Path(path).name)}: {exc.field}", exc.message) from None


def parse_program(value) -> str:
    if not isinstance(value, str) or value.strip().lower() not in PROGRAMS:
        raise InputError("program", f"{shown(value)} is not a program source; choose sass (the kernel's SASS) or model "
                                    "(the workload model)")
    return value.strip().lower()


_SECTIONS = {"launch", "workload", "scheduler", "stream", "kernel"}
# launch fields a [kernel] scenario takes from the cubin (read-only there)
KERNEL_LAUNCH_FIELDS = ("registers_per_thread", "static_shared_bytes", "barriers")


def _check_kernel_scenario(data: dict) -> None:
    """A [kernel] replaces the workload; the cubin gives registers, static shared memory, barriers."""
    if "workload" in data:
        raise InputError("workload", "a scenario with [kernel] runs that kernel: remove the [workload] table")
    if str(data.get("program", "sass")).strip().lower() != "sass":
        raise InputError("program", "a [kernel] scenario runs the kernel's SASS (program = \"sass\")")
    launch = data.get("launch", {})
    if isinstance(launch, dict):
        for key in KERNEL_LAUNCH_FIELDS:
            if key in launch:
                raise InputError(f"launch.{key}", "read-only with [kernel]: the compiled kernel (cubin) gives it")


# A --set key is TOML's dotted key of bare names (``workload.tiles.a.base``); quoted parts are not taken. No table
# of the format is deeper than 4 (workload.tiles.a.base, kernel.args.x.count): the loader refuses every deeper key
# by name; this cap only keeps a hostile key from building a table thousands deep before it does.
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_TOP_KEYS = _SECTIONS | {"gpu", "seed", "name", "description", "program"}


def split_key(key: str) -> tuple[str, ...]:
    """The parts of a dotted key (``"workload.tiles.a.base"`` -> ``("workload", "tiles", "a", "base")``), as TOML
    reads a dotted key of bare names: blanks around a dot are allowed, an empty part or another character is an
    InputError naming the key."""
    field_name = shown_path(key, SHOWN_CHARS)
    parts = tuple(part.strip(" \t") for part in str(key).split("."))
    if len(parts) > MAX_TOML_DEPTH:
        raise InputError(field_name, f"{len(parts)} parts; a key is at most {MAX_TOML_DEPTH} names joined by dots")
    for part in parts:
        if _BARE_KEY.fullmatch(part):
            continue
        if not part:
            raise InputError(field_name, "has an empty part; a key is names joined by dots (workload.tiles.a.base)")
        if "[" in part:
            raise InputError(field_name, "a key names tables, not list items: set the whole list (e.g. "
                                         "workload.body=[...])")
        raise InputError(field_name, f"{shown(part)} is not a key name (letters, digits, _ and -)")
    return parts


def set_key(data: dict, parts: tuple[str, ...], value) -> None:
    """``data`` with ``value`` at ``parts`` (in place), as a TOML dotted key sets it: a table on the way that is
    missing is created (empty: the loader then names what it lacks), a value on the way that is not a table is an
    InputError naming it."""
    node = data
    for i, part in enumerate(parts[:-1]):
        nxt = node.setdefault(part, {})
        if not isinstance(nxt, dict):
            path = ".".join(parts[: i + 1])
            raise InputError(shown_path(".".join(parts), SHOWN_CHARS),
                             f"{path} is {shown(nxt)}, not a table; set {path} itself")
        node = nxt
    node[parts[-1]] = value


def _set_dotted(data: dict, key: str, value) -> None:
    parts = split_key(key)
    if parts[0] not in _TOP_KEYS:
        raise InputError(shown_path(key, SHOWN_CHARS), "unknown scenario key; e.g. gpu, seed, program, launch.grid, "
                                                       "workload.loop, workload.tiles.a.base, scheduler.policy, "
                                                       "kernel.name")
    if parts == ("workload", "preset"):
        data["workload"] = {"preset": value}  # a new preset brings its own body and fields
        return
    if parts == ("workload", "body") and isinstance(data.get("workload"), dict):
        data["workload"].pop("preset", None)  # a hand-written body is no longer the preset
    set_key(data, parts, value)
