"""A scenario's program: the SASS of its generated kernel, or the workload model.

``sass_program(scenario)`` compiles the scenario's generated kernel exactly as
``measure`` does (``explorer.toolchain.prepare.prepare``: codegen, NVRTC for the GPU's
architecture, register steering), disassembles the cubin (nvdisasm) and builds the
WarpProgram from the function ``we_kernel``:

- the loop's trip count is ``workload.loop``;
- the kernel parameter ``flag`` is 0 at every launch (``explorer.gpu.worker``), so the
  "write the sink" branch is taken and the sink store never runs; the parameter ``rec``
  is the instrumentation record pointer (stores through it are instrumentation); their
  constant-bank offsets come from the cubin's ``EIATTR_PARAM_CBANK`` and
  ``EIATTR_KPARAM_INFO`` records;
- the loop's global and shared memory instructions move the workload's bytes per
  request (matched in order, by access width, to the body's ``ldg``/``stg``/``lds``/``sts``
  operations: strides and bank conflicts are not visible in the SASS).

The disassembly is cached on disk per (generated source, architecture, register request,
compiler and nvdisasm versions) in the per-user cache folder
(``~/.cache/warp-explorer/sass`` on Linux; ``$WARP_EXPLORER_SASS_CACHE`` overrides it),
written atomically; the program is rebuilt from it (a few milliseconds), so a changed
opcode table takes effect at once. An installed copy also ships the presets' entries
(``explorer.sass.seed``), read under the same key when the user's cache has none.

``program_for(scenario)`` honours the scenario's ``program`` key and falls back to the
model for an architecture NVRTC cannot target (sm_70 with NVRTC 13), with a one-line
notice. A missing toolchain is an error (``ToolchainMissing``: exit 2 in the CLI) unless
the caller asks for the fallback.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from pathlib import Path

from explorer.sass.errors import ArchUnsupported, ProgramError, ToolchainMissing
from explorer.sass.listing import Instruction, ListingError, function_lines, parse_lines
from explorer.sass.warp_program import WarpProgram, from_model

CACHE_FORMAT = 1
CACHE_ENV = "WARP_EXPLORER_SASS_CACHE"
SEED_DIR_NAME = "sass_seed"  # the entries the build shipped (explorer.sass.seed), in the resources
MAX_CACHE_ENTRY_BYTES = 8 << 20
EIATTR_PARAM_CBANK = 0x0A
EIATTR_KPARAM_INFO = 0x17
FLAG_PARAM, RECORD_PARAM = "flag", "rec"


# -- toolchain ------------------------------------------------------------------------------
def _compiler_id(arch: str) -> str:
    """The compiler that will build the kernel (``NVRTC 13.5``), after checking it targets ``arch``."""
    from explorer.toolchain.compiler import (
        arch_number,
        compiler_backend,
        nvcc_version,
        nvrtc_supported_archs,
        nvrtc_version,
    )
    from explorer.toolchain.errors import CompilerUnavailable
    from explorer.toolchain.tools import find_tool

    try:
        backend = compiler_backend()
    except CompilerUnavailable as exc:
        raise ToolchainMissing(str(exc)) from None
    if backend == "nvrtc":
        major, minor = nvrtc_version()
        supported = nvrtc_supported_archs()
        if supported and arch_number(arch) not in supported:
            raise ArchUnsupported(f"NVRTC {major}.{minor} cannot target {arch} (it builds sm_{min(supported)} to "
                                  f"sm_{max(supported)})")
        return f"NVRTC {major}.{minor}"
    return f"nvcc {nvcc_version(find_tool('nvcc'))}"


# -- cache -----------------------------------------------------------------------------------
def cache_dirs() -> list[Path]:
    """Where cached disassemblies live: the per-user cache folder, then a per-user temporary one."""
    override = os.environ.get(CACHE_ENV, "").strip()
    if override:
        return [Path(override)]
    from explorer.paths import APP_DIR_NAME, user_cache_root

    uid = getattr(os, "getuid", lambda: "user")()
    return [user_cache_root() / APP_DIR_NAME / "sass", Path(tempfile.gettempdir()) / f"{APP_DIR_NAME}-{uid}" / "sass"]


def read_dirs() -> list[Path]:
    """Where an entry is looked for: the cache folders, then the entries the build shipped
    (``explorer.sass.seed``; not when ``$WARP_EXPLORER_SASS_CACHE`` names the one folder to use)."""
    if os.environ.get(CACHE_ENV, "").strip():
        return cache_dirs()
    return [*cache_dirs(), seed_dir()]


def seed_dir() -> Path:
    """Where the shipped entries are (inside the package or the bundle's resources)."""
    from explorer.paths import resource

    return resource(SEED_DIR_NAME)


def _cache_read(name: str) -> dict | None:
    from explorer.model.errors import InputError, read_user_bytes

    for folder in read_dirs():
        path = folder / name
        if not path.exists():
            continue
        try:
            data = json.loads(read_user_bytes(path, kind="a cached program", limit=MAX_CACHE_ENTRY_BYTES))
        except (InputError, OSError, ValueError):
            continue  # unreadable or damaged: rebuilt and rewritten
        if isinstance(data, dict) and data.get("format") == CACHE_FORMAT and isinstance(data.get("lines"), list):
            return data
    return None


def _cache_write(name: str, entry: dict) -> bool:
    from explorer.model.atomic import atomic_write_text

    text = json.dumps(entry)
    for folder in cache_dirs():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_text(folder / name, text)
            return True
        except OSError:
            continue  # e.g. a read-only home: try the next folder
    return False


# -- the cubin's parameter layout ---------------------------------------------------------------
def parameter_offsets(cubin: bytes, symbol: str) -> dict[int, tuple[int, int]]:
    """Parameter ordinal -> (byte offset in constant bank 0, size) from the cubin's .nv.info records."""
    from explorer.toolchain.cubin import Cubin

    records = Cubin(cubin).info_records(f".nv.info.{symbol}")
    base = None
    params: dict[int, tuple[int, int]] = {}
    for fmt, attr, payload in records:
        if fmt != 4:
            continue
        if attr == EIATTR_PARAM_CBANK and len(payload) >= 8:
            (_sym, packed) = struct.unpack_from("<II", payload)
            base = packed & 0xFFFF
        elif attr == EIATTR_KPARAM_INFO and len(payload) >= 12:
            _index, ordinal, offset, flags = struct.unpack_from("<IHHI", payload)
            params[ordinal] = (offset, (flags >> 18) & 0x3FFF)
    if base is None or not params:
        raise ProgramError(f"the cubin has no parameter layout for {symbol}")
    return {k: (base + off, size) for k, (off, size) in params.items()}


def _facts(entry: dict):
    from explorer.sass.flow import KernelFacts

    flag, rec = int(entry["params"][FLAG_PARAM]), int(entry["params"][RECORD_PARAM])
    return KernelFacts(known_words={flag: 0}, record_words=frozenset({rec, rec + 4}))


# -- memory requests of the loop -----------------------------------------------------------------
def _request_matcher(workload):
    """request_bytes hook: the k-th loop memory instruction of a kind -> the workload's bytes per request."""
    queues: dict[str, list] = {"ldg": [], "stg": [], "lds": [], "sts": []}
    access = 0  # a global load's or store's index in source order (explorer.toolchain.addresses: its address)
    for op in workload.body:
        if op.op in queues:
            moved = op.bytes_per_request if op.op in ("ldg", "stg") else 32 * op.bytes * op.conflict_ways
            for _ in range(op.count):
                queues[op.op].append((op.bytes, moved, op.useful_bytes, access if op.op in ("ldg", "stg") else -1))
                access += op.op in ("ldg", "stg")
    unmatched: list[str] = []

    def match(_position: int, ins: Instruction, cls: str):
        from explorer.sass.build import access_bytes

        queue = queues.get(cls)
        if not queue:
            return None
        width = access_bytes(ins)
        for i, (nbytes, moved, useful, acc) in enumerate(queue):
            if nbytes == width:
                del queue[i]
                return moved, useful, acc
        unmatched.append(ins.text)
        return None

    return match, unmatched


# -- public ------------------------------------------------------------------------------------
def _entry(scenario, read: bool, write: bool) -> dict:
    from explorer.toolchain.codegen import KERNEL_NAME, PARAMS, generate
    from explorer.sass.disasm import disassemble, nvdisasm_path, nvdisasm_version
    from explorer.sass.opcodes import load_table

    gpu = scenario.gpu
    arch = gpu.arch.sm_arch
    compiler = _compiler_id(arch)
    if load_table().family(arch) is None:
        raise ArchUnsupported(f"the SASS opcode table has no family for {arch}")
    disassembler = f"nvdisasm {nvdisasm_version(nvdisasm_path())}"
    source = generate(scenario).source
    key = hashlib.sha256(json.dumps([CACHE_FORMAT, source, arch, scenario.launch.registers_per_thread, compiler,
                                     disassembler]).encode()).hexdigest()
    name = f"{key}.json"
    if read:
        hit = _cache_read(name)
        if hit is not None and hit.get("key") == key:
            return {**hit, "cache": "hit"}
    from explorer.toolchain.prepare import prepare
    from explorer.model.errors import InputError

    try:
        prepared = prepare(scenario)
    except InputError as exc:
        if exc.field == "--arch":  # nvcc (or an NVRTC without the list of targets) refused the architecture
            raise ArchUnsupported(exc.message) from None
        raise
    compiled = prepared.compiled
    lines = function_lines(disassemble(compiled.cubin), compiled.symbol)
    if lines is None:
        raise ProgramError(f"nvdisasm printed no function {compiled.symbol}")
    offsets = parameter_offsets(compiled.cubin, compiled.symbol)
    names = [name for name, _, _ in PARAMS]
    entry = {
        "format": CACHE_FORMAT, "key": key, "arch": arch, "function": compiled.symbol,
        "kernel": KERNEL_NAME, "compiler": compiled.compiler, "disassembler": disassembler,
        "registers": compiled.resources.registers, "cubin_sha256": compiled.sha256,
        "params": {FLAG_PARAM: offsets[names.index(FLAG_PARAM)][0], RECORD_PARAM: offsets[names.index(RECORD_PARAM)][0]},
        "compile_notes": list(prepared.notes), "lines": lines,
    }
    stored = _cache_write(name, entry) if write else False
    return {**entry, "cache": "miss" if stored else "off"}


def sass_program(scenario, *, use_cache: bool = True) -> WarpProgram:
    """The WarpProgram of the scenario's generated kernel's SASS (see the module docstring)."""
    entry = _entry(scenario, read=use_cache, write=use_cache)
    try:
        return _built(scenario, entry)
    except (ListingError, KeyError, TypeError, ValueError):
        if entry.get("cache") != "hit":
            raise
        return _built(scenario, _entry(scenario, read=False, write=True))  # a damaged cache entry: rebuild


# Programs built in this process, by what they are built from: the entry's key (source, architecture,
# register request, compiler, disassembler) and its listing, the workload (its loop and the requests' bytes) and the GPU
# (latencies, units). Parsing the listing and building the program took ~15% of the mission example's
# simulation (docs/performance.md), and the window re-simulates the same kernel on every edit that does
# not change its source (a policy, a grid, a GPU figure). Each caller gets its own copy of the arrays:
# nothing downstream may change the memo's (the cycle loop is handed them as they are, and numba compiles
# a read-only array as another type, so the copies cannot simply be frozen).
_BUILT: dict = {}
_BUILT_MAX = 32


def _built(scenario, entry: dict) -> WarpProgram:
    import copy
    from dataclasses import fields, replace

    import numpy as np

    from explorer.sass.opcodes import load_table

    key = (entry["key"], entry.get("function"), tuple(entry.get("lines") or ()), scenario.workload, scenario.gpu,
           id(load_table()))  # the lines too: a damaged entry under a good key must still fail and be rebuilt
    prog = _BUILT.get(key)
    if prog is None:
        prog = _from_entry(scenario, entry)
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[key] = prog
    copies = {f.name: getattr(prog, f.name).copy() for f in fields(prog)
              if isinstance(getattr(prog, f.name), np.ndarray)}
    return replace(prog, **copies, meta={**copy.deepcopy(prog.meta), "cache": entry["cache"]})


def _from_entry(scenario, entry: dict) -> WarpProgram:
    from explorer.sass.build import build_program

    instrs = parse_lines([str(line) for line in entry["lines"]], entry["function"]).up_to_last_exit()
    match, unmatched = _request_matcher(scenario.workload)
    meta = {k: entry[k] for k in ("compiler", "disassembler", "cubin_sha256", "cache", "compile_notes")}
    meta["registers_per_thread"] = int(entry["registers"])
    prog = build_program(instrs, entry["arch"], scenario.gpu, trip=scenario.workload.loop, function=entry["function"],
                         facts=_facts(entry), request_bytes=match, meta=meta)
    if unmatched:
        prog = _with_note(prog, "memory instructions of the loop without a matching workload operation "
                                f"(sectors counted as contiguous): {'; '.join(unmatched)}")
    return prog


def _with_note(prog: WarpProgram, note: str) -> WarpProgram:
    from dataclasses import replace

    return replace(prog, notes=(*prog.notes, note))


def model_program(scenario) -> WarpProgram:
    return from_model(scenario.workload, scenario.gpu)


def program_for(scenario, *, use_cache: bool = True,
                fallback_on_missing_toolchain: bool = False) -> tuple[WarpProgram, str | None]:
    """(program, notice): the scenario's ``program`` choice, or the model with a one-line notice."""
    if getattr(scenario, "kernel", None) is not None:
        from explorer.model.errors import InputError

        raise InputError("kernel", "a [kernel] scenario's instructions are its own kernel's: warp-explorer execute "
                                   "SCENARIO --listing lists them with what executed")
    if getattr(scenario, "program", "sass") == "model":
        return model_program(scenario), None
    try:
        return sass_program(scenario, use_cache=use_cache), None
    except ArchUnsupported as exc:
        return model_program(scenario), f"{exc.message}; {scenario.gpu.name} runs the model program"
    except ToolchainMissing as exc:
        if not fallback_on_missing_toolchain:
            raise
        return model_program(scenario), f"{exc.message}; running the model program"
