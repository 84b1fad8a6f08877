"""Compile CUDA C++ to a cubin for one architecture and read the kernel's resources.

No GPU and no driver are needed: NVRTC (``cuda.bindings.nvrtc`` with the
``nvidia-cuda-nvrtc`` wheel, or a CUDA toolkit's libnvrtc) compiles straight to a
cubin. Where NVRTC is missing but ``nvcc`` is installed, ``nvcc -cubin`` is used
instead (``WARP_EXPLORER_COMPILER=nvrtc|nvcc`` forces one). ptxas runs verbose so
the log gives the exact spill bytes; everything else is read from the cubin.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from explorer.gpu.cubin import Cubin, KernelResources, ptxas_spills
from explorer.gpu.errors import CompileError, CompilerUnavailable
from explorer.gpu.tools import find_tool
from explorer.model.errors import MAX_SOURCE_BYTES, InputError, read_user_text

ARCH_RE = re.compile(r"^(?:sm_?)?(\d)(\d{1,2})([af]?)$", re.IGNORECASE)
INSTALL_HINT = "pip install 'warp-explorer[gpu]' (cuda-bindings and nvidia-cuda-nvrtc)"


@dataclass(frozen=True)
class CompileResult:
    cubin: bytes
    kernel: str  # the name asked for
    symbol: str  # the name in the cubin (mangled for C++ kernels)
    arch: str
    resources: KernelResources
    log: str
    compiler: str  # e.g. "NVRTC 13.5" or "nvcc 13.0"
    options: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.cubin).hexdigest()

    def to_json(self) -> dict:
        r = self.resources
        return {
            "kernel": self.kernel,
            "symbol": self.symbol,
            "arch": self.arch,
            "registers": r.registers,
            "static_shared_bytes": r.static_shared_bytes,
            "spill_bytes": r.spill_bytes,
            "spill_load_bytes": r.spill_load_bytes,
            "stack_frame_bytes": r.stack_frame_bytes,
            "barriers": r.barriers,
            "max_threads_per_block": r.max_threads_per_block,
            "max_registers": r.max_registers,
            "shared_section_bytes": r.shared_section_bytes,
            "reserved_shared_bytes": r.reserved_shared_bytes,
            "cubin_bytes": len(self.cubin),
            "compiler": self.compiler,
            "options": list(self.options),
        }


def normalize_arch(text: str, field_name: str = "--arch") -> str:
    """``sm_90``, ``sm90``, ``90`` or ``9.0`` -> ``sm_90`` (``sm_90a`` keeps its suffix)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError(field_name, "give a target like sm_90")
    t = text.strip()
    m = re.match(r"^(\d+)\.(\d)$", t)
    if m:
        return f"sm_{m.group(1)}{m.group(2)}"
    m = ARCH_RE.match(t)
    if not m:
        raise InputError(field_name, f"{text!r} is not a GPU architecture; write e.g. sm_90 (compute capability 9.0)")
    return f"sm_{m.group(1)}{m.group(2)}{m.group(3).lower()}"


def arch_number(arch: str) -> int:
    return int(re.match(r"sm_(\d+)", arch).group(1))


# -- NVRTC -------------------------------------------------------------------------------
def _nvrtc_module():
    try:
        from cuda.bindings import nvrtc
    except ImportError:
        try:
            from cuda import nvrtc  # cuda-python < 12.6
        except ImportError:
            raise CompilerUnavailable(f"cuda-bindings is not installed; {INSTALL_HINT}") from None
    return nvrtc


def _nvrtc_check(nvrtc, result, what: str):
    err = result[0] if isinstance(result, tuple) else result
    if int(err) != 0:
        name = nvrtc.nvrtcGetErrorString(err)[1]
        raise RuntimeError(f"{what} failed: {name.decode() if isinstance(name, bytes) else name}")
    if isinstance(result, tuple):
        rest = result[1:]
        return rest[0] if len(rest) == 1 else rest
    return None


def nvrtc_version() -> tuple[int, int]:
    """NVRTC's version; raises CompilerUnavailable when cuda-bindings or libnvrtc is missing."""
    nvrtc = _nvrtc_module()
    try:
        result = nvrtc.nvrtcVersion()
    except Exception as exc:  # noqa: BLE001 - pathfinder raises its own types when libnvrtc is absent
        raise CompilerUnavailable(f"the NVRTC library was not found ({type(exc).__name__}: {exc}); "
                                  f"{INSTALL_HINT}") from None
    major, minor = _nvrtc_check(nvrtc, result, "nvrtcVersion")
    return int(major), int(minor)


def nvrtc_supported_archs() -> list[int]:
    nvrtc = _nvrtc_module()
    try:
        return [int(a) for a in _nvrtc_check(nvrtc, nvrtc.nvrtcGetSupportedArchs(), "nvrtcGetSupportedArchs")]
    except AttributeError:  # very old bindings
        return []


def cuda_include_dirs() -> list[str]:
    """CUDA toolkit header folders NVRTC does not search by itself (cuda_fp16.h, cuda_bf16.h...)."""
    dirs = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            dirs.append(os.path.join(os.environ[var], "include"))
    dirs.append("/usr/local/cuda/include")
    try:
        from cuda.pathfinder import find_nvidia_header_directory

        for lib in ("cudart",):
            found = find_nvidia_header_directory(lib)
            if found:
                dirs.append(str(found))
    except Exception:  # noqa: BLE001 - optional helper
        pass
    seen, out = set(), []
    for d in dirs:
        if d not in seen and os.path.isfile(os.path.join(d, "cuda_fp16.h")):
            seen.add(d)
            out.append(d)
    return out


def _log(nvrtc, prog) -> str:
    size = _nvrtc_check(nvrtc, nvrtc.nvrtcGetProgramLogSize(prog), "nvrtcGetProgramLogSize")
    buf = b" " * int(size)
    _nvrtc_check(nvrtc, nvrtc.nvrtcGetProgramLog(prog, buf), "nvrtcGetProgramLog")
    return buf.rstrip(b"\0 ").decode("utf-8", "replace")


def _compile_nvrtc(source: str, kernel: str, arch: str, options: list[str], filename: str):
    nvrtc = _nvrtc_module()
    major, minor = nvrtc_version()
    supported = nvrtc_supported_archs()
    if supported and arch_number(arch) not in supported:
        raise InputError("--arch", f"{arch} is not a target of NVRTC {major}.{minor} "
                                   f"(it supports sm_{min(supported)} to sm_{max(supported)})")
    opts = [f"--gpu-architecture={arch}", "--ptxas-options=-v", *options]
    if "#include" in source:  # users' kernels: let <cuda_fp16.h> and friends resolve
        opts += [f"-I{d}" for d in cuda_include_dirs()]

    def attempt(with_name: bool):
        prog = _nvrtc_check(nvrtc, nvrtc.nvrtcCreateProgram(source.encode(), filename.encode(), 0, [], []),
                            "nvrtcCreateProgram")
        try:
            if with_name:
                _nvrtc_check(nvrtc, nvrtc.nvrtcAddNameExpression(prog, kernel.encode()), "nvrtcAddNameExpression")
            result = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])
            log = _log(nvrtc, prog)
            if int(result[0]) != 0:
                return None, None, log, int(result[0])
            lowered = None
            if with_name:
                got = nvrtc.nvrtcGetLoweredName(prog, kernel.encode())
                if int(got[0]) == 0 and got[1]:
                    lowered = got[1].decode() if isinstance(got[1], bytes) else str(got[1])
            size = _nvrtc_check(nvrtc, nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize")
            cubin = b" " * int(size)
            _nvrtc_check(nvrtc, nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
            return cubin, lowered, log, 0
        finally:
            nvrtc.nvrtcDestroyProgram(prog)

    cubin, lowered, log, err = attempt(with_name=True)
    if cubin is None and "__nv_name_map" in log:
        # not a valid name expression (e.g. a template's bare name): compile without it and
        # match the name against the cubin's symbols instead
        cubin, lowered, log, err = attempt(with_name=False)
    if cubin is None:
        if err == 5:  # NVRTC_ERROR_INVALID_OPTION
            raise InputError("options", f"NVRTC rejected an option: {' '.join(opts)} ({_first_error(log) or 'invalid option'})")
        _raise_compile_error(log, filename, err)
    return cubin, lowered, log, f"NVRTC {major}.{minor}", opts


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if "error" in line.lower():
            return line.strip()
    return log.strip().splitlines()[0] if log.strip() else ""


def _raise_compile_error(log: str, filename: str, err: int = 6):
    errors = [line.strip() for line in log.splitlines() if re.search(r"\berror\b", line)]
    errors = [e for e in errors if not re.match(r"^\d+ errors? detected", e)]
    first = errors[0] if errors else (log.strip().splitlines()[0] if log.strip() else f"NVRTC error {err}")
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    raise CompileError(filename, f"does not compile: {first}{more}")


# -- nvcc ---------------------------------------------------------------------------------
def nvcc_version(nvcc: str) -> str:
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else "?"


def _compile_nvcc(source: str, kernel: str, arch: str, options: list[str], filename: str):
    nvcc = find_tool("nvcc")
    if nvcc is None:
        raise CompilerUnavailable(f"neither NVRTC nor nvcc was found; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="warp-explorer-nvcc-") as tmp:
        src = Path(tmp) / (Path(filename).stem + ".cu")
        src.write_text(source, encoding="utf-8")
        out = Path(tmp) / "kernel.cubin"
        cmd = [nvcc, "-cubin", f"-arch={arch}", "-Xptxas", "-v", *options, "-o", str(out), str(src)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            raise CompileError(filename, "nvcc did not finish within 300 s") from None
        log = (proc.stdout + proc.stderr).replace(str(src), filename)
        if proc.returncode != 0:
            if "Unsupported gpu architecture" in log or "is not defined for option 'gpu-architecture'" in log:
                raise InputError("--arch", f"{arch} is not a target of nvcc {nvcc_version(nvcc)}")
            _raise_compile_error(log, filename)
        cubin = out.read_bytes()
    return cubin, None, log, f"nvcc {nvcc_version(nvcc)}", cmd[1:-3]


def match_kernel(names: list[str], wanted: str) -> str:
    """The cubin symbol for a kernel asked for by its source name (plain or Itanium-mangled)."""
    if wanted in names:
        return wanted
    base = wanted.split("<")[0].split("::")[-1]
    tag = f"{len(base)}{base}"
    hits = [n for n in names if n.startswith("_Z") and tag in n]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise InputError("--kernel", f"{wanted!r} matches several kernels ({', '.join(hits)}); give the mangled name")
    raise InputError("--kernel", f"no kernel named {wanted!r}; kernels: {', '.join(names) or 'none'}")


# -- public -------------------------------------------------------------------------------
def compiler_backend() -> str:
    """``nvrtc`` or ``nvcc``: what :func:`compile_source` will use (CompilerUnavailable if neither)."""
    forced = os.environ.get("WARP_EXPLORER_COMPILER", "").strip().lower()
    if forced == "nvcc":
        if find_tool("nvcc") is None:
            raise CompilerUnavailable("WARP_EXPLORER_COMPILER=nvcc but nvcc was not found")
        return "nvcc"
    try:
        nvrtc_version()
        return "nvrtc"
    except CompilerUnavailable as exc:
        if forced == "nvrtc" or find_tool("nvcc") is None:
            raise CompilerUnavailable(f"no CUDA compiler: {exc}") from None
        return "nvcc"


def compile_source(
    source: str,
    kernel: str,
    arch: str,
    *,
    maxrregcount: int | None = None,
    options: list[str] | tuple[str, ...] = (),
    filename: str = "kernel.cu",
) -> CompileResult:
    """Compile ``source`` for ``arch`` and read ``kernel``'s registers, shared memory, spills, barriers."""
    arch = normalize_arch(arch)
    opts = list(options)
    if maxrregcount is not None:
        opts.append(f"--maxrregcount={int(maxrregcount)}")
    backend = compiler_backend()
    if backend == "nvrtc":
        cubin, lowered, log, compiler, used = _compile_nvrtc(source, kernel, arch, opts, filename)
    else:
        cubin, lowered, log, compiler, used = _compile_nvcc(source, kernel, arch, opts, filename)
    parsed = Cubin(cubin)
    symbol = lowered if lowered and lowered in parsed.kernels() else match_kernel(parsed.kernels(), kernel)
    resources = parsed.resources(symbol)
    spills = ptxas_spills(log, symbol)
    if spills:
        resources = resources.with_spills(*spills)
    return CompileResult(cubin=cubin, kernel=kernel, symbol=symbol, arch=arch, resources=resources, log=log,
                         compiler=compiler, options=tuple(used))


def compile_file(path: str | os.PathLike, kernel: str, arch: str, **kwargs) -> CompileResult:
    p = Path(path)
    source = read_user_text(p, kind="a .cu file", limit=MAX_SOURCE_BYTES)
    options = list(kwargs.pop("options", ()))
    if p.parent != Path(""):
        options.append(f"-I{p.parent.resolve()}")  # #include "x.cuh" next to the file
    return compile_source(source, kernel, arch, filename=p.name, options=options, **kwargs)
