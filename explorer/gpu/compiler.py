"""Compile CUDA C++ to a cubin for one architecture and read the kernel's resources.

No GPU and no driver are needed: NVRTC (``cuda.bindings.nvrtc`` with the
``nvidia-cuda-nvrtc`` wheel, or a CUDA toolkit's libnvrtc) compiles straight to a
cubin. Where NVRTC is missing or broken (it loads but fails for reasons that are not
the source's, or cannot target the architecture) and ``nvcc`` is installed, ``nvcc
-cubin`` is used instead (``WARP_EXPLORER_COMPILER=nvrtc|nvcc`` forces one). ptxas
runs verbose so the log gives the exact spill bytes; everything else is read from
the cubin.

The compiler runs in a child process (``explorer.gpu.compile_child``) with a memory and a
time limit, in a process group killed as a whole (``explorer.gpu.sandbox``): a source that
makes NVRTC grow without bound costs that child, not the app (issue 30). Before it starts,
the source's ``#include``s are checked to stay in the kernel's folder, the ``-I`` folders
and the CUDA headers (:func:`check_includes`).

User text never reaches a shell: nvcc runs its steps through ``sh`` with the file
names, include folders and macros pasted in, so it only ever sees fixed names
(``kernel.cu``, ``kernel.cubin``, ``defines.h``, ``include0``...) inside a private
temporary folder it runs in; the user's include folders are symlinks there and
their macros a header of ``#define`` lines (one line each, checked by
:func:`explorer.gpu.names.parse_define`). NVRTC gets the same fixed program name.
Kernel names are checked to be name expressions before NVRTC pastes them into code.
Messages show the user's file name where the compiler's log says ``kernel.cu``.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from explorer.gpu.cubin import Cubin, KernelResources, ptxas_spills
from explorer.gpu.errors import CompileError, CompilerUnavailable
from explorer.gpu.folders import SHELL_SAFE_PATH, private_tempdir
from explorer.gpu.names import check_kernel_name, one_line, parse_define
from explorer.gpu.tools import find_tool
from explorer.model.errors import MAX_SOURCE_BYTES, InputError, read_user_text

ARCH_RE = re.compile(r"^(?:sm_?)?(\d)(\d{1,2})([af]?)$", re.IGNORECASE)
INSTALL_HINT = "pip install 'warp-explorer[gpu]' (cuda-bindings and nvidia-cuda-nvrtc)"
SOURCE_NAME = "kernel.cu"  # the only source name a compiler sees
CUBIN_NAME = "kernel.cubin"
DEFINES_NAME = "defines.h"
NVRTC_ERROR_INVALID_OPTION = 5
NVRTC_ERROR_COMPILATION = 6  # the source does not compile; every other failure is NVRTC's own


class NvrtcBroken(Exception):
    """NVRTC loads but cannot compile for a reason that is not the source's (nvcc may still work)."""


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
    buf = bytearray(int(size))  # NVRTC writes into it: never a bytes object (b" " * 1 is Python's shared b" ")
    _nvrtc_check(nvrtc, nvrtc.nvrtcGetProgramLog(prog, buf), "nvrtcGetProgramLog")
    return bytes(buf).rstrip(b"\0 ").decode("utf-8", "replace")


class NvrtcArchUnsupported(InputError):
    """This NVRTC cannot target the architecture (nvcc, when there, may)."""


_SOURCE_IN_LOG = re.compile(r"(?<![\w.\-])(?:\S*/)?" + re.escape(SOURCE_NAME) + r"(?=[(:])")


def _user_log(log: str, display: str) -> str:
    """The compiler's log with our fixed source name replaced by the user's file name."""
    return _SOURCE_IN_LOG.sub(lambda _m: display, log)


def _define_options(defines: list[tuple[str, str | None]]) -> list[str]:
    return [f"-D{n}" if v is None else f"-D{n}={v}" for n, v in defines]


def _compile_nvrtc(source: str, kernel: str, arch: str, maxrregcount: int | None,
                   defines: list[tuple[str, str | None]], include_dirs: list[str], display: str,
                   line_info: bool = False):
    nvrtc = _nvrtc_module()
    major, minor = nvrtc_version()
    supported = nvrtc_supported_archs()
    if supported and arch_number(arch) not in supported:
        raise NvrtcArchUnsupported("--arch", f"{arch} is not a target of NVRTC {major}.{minor} "
                                             f"(it supports sm_{min(supported)} to sm_{max(supported)})")
    opts = [f"--gpu-architecture={arch}", "--ptxas-options=-v"]
    if maxrregcount is not None:
        opts.append(f"--maxrregcount={int(maxrregcount)}")
    if line_info:
        opts.append("--generate-line-info")
    opts += _define_options(defines) + [f"-I{d}" for d in include_dirs]
    if "#include" in source:  # users' kernels: let <cuda_fp16.h> and friends resolve
        opts += [f"-I{d}" for d in cuda_include_dirs()]

    def attempt(with_name: bool):
        prog = _nvrtc_check(nvrtc, nvrtc.nvrtcCreateProgram(source.encode(), SOURCE_NAME.encode(), 0, [], []),
                            "nvrtcCreateProgram")
        try:
            if with_name:
                _nvrtc_check(nvrtc, nvrtc.nvrtcAddNameExpression(prog, kernel.encode()), "nvrtcAddNameExpression")
            result = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])
            log = _user_log(_log(nvrtc, prog), display)
            if int(result[0]) != 0:
                return None, None, log, int(result[0])
            lowered = None
            if with_name:
                got = nvrtc.nvrtcGetLoweredName(prog, kernel.encode())
                if int(got[0]) == 0 and got[1]:
                    lowered = got[1].decode() if isinstance(got[1], bytes) else str(got[1])
            size = _nvrtc_check(nvrtc, nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize")
            cubin = bytearray(int(size))
            _nvrtc_check(nvrtc, nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
            return bytes(cubin), lowered, log, 0
        finally:
            nvrtc.nvrtcDestroyProgram(prog)

    try:
        cubin, lowered, log, err = attempt(with_name=True)
        if cubin is None and "__nv_name_map" in log:
            # not a valid name expression (e.g. a template's bare name): compile without it and
            # match the name against the cubin's symbols instead
            cubin, lowered, log, err = attempt(with_name=False)
    except RuntimeError as exc:  # a failing NVRTC call other than the compilation itself
        raise NvrtcBroken(str(exc)) from None
    if cubin is None:
        if err == NVRTC_ERROR_COMPILATION:
            _raise_compile_error(log, display, err)
        if err == NVRTC_ERROR_INVALID_OPTION:
            raise InputError("options", f"NVRTC rejected an option: {one_line(' '.join(opts))} "
                                        f"({_first_error(log) or 'invalid option'})")
        name = nvrtc.nvrtcGetErrorString(err)[1]
        raise NvrtcBroken(f"nvrtcCompileProgram failed: {name.decode() if isinstance(name, bytes) else name}"
                          + (f" ({_first_error(log)})" if log.strip() else ""))
    return cubin, lowered, log, f"NVRTC {major}.{minor}", opts


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if "error" in line.lower():
            return line.strip()
    return log.strip().splitlines()[0] if log.strip() else ""


def _raise_compile_error(log: str, display: str, err: int = NVRTC_ERROR_COMPILATION):
    errors = [line.strip() for line in log.splitlines() if re.search(r"\berror\b", line)]
    errors = [e for e in errors if not re.match(r"^\d+ errors? detected", e)]
    first = errors[0] if errors else (log.strip().splitlines()[0] if log.strip() else f"NVRTC error {err}")
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    raise CompileError(display, f"does not compile: {first}{more}")


# -- nvcc ---------------------------------------------------------------------------------
def nvcc_version(nvcc: str) -> str:
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else "?"


def _compile_nvcc(source: str, arch: str, maxrregcount: int | None, defines: list[tuple[str, str | None]],
                  include_dirs: list[str], display: str, line_info: bool = False):
    """nvcc in a private folder, where every name it pastes into its ``sh`` commands is one of ours."""
    nvcc = find_tool("nvcc")
    if nvcc is None:
        raise CompilerUnavailable(f"neither NVRTC nor nvcc was found; {INSTALL_HINT}")
    shown = [f"-arch={arch}", "-Xptxas", "-v"]
    with private_tempdir("warp-explorer-nvcc-", shell_safe=True) as tmp:
        (tmp / SOURCE_NAME).write_text(source, encoding="utf-8")
        cmd = [nvcc, "-cubin", f"-arch={arch}", "-Xptxas", "-v"]
        if maxrregcount is not None:
            cmd.append(f"--maxrregcount={int(maxrregcount)}")
            shown.append(cmd[-1])
        if line_info:
            cmd.append("-lineinfo")
            shown.append(cmd[-1])
        if defines:  # a header of #define lines instead of -D (nvcc would paste the values into sh)
            lines = [f"#define {n} 1" if v is None else f"#define {n} {v}" for n, v in defines]
            (tmp / DEFINES_NAME).write_text("\n".join(lines) + "\n", encoding="utf-8")
            cmd += ["-include", DEFINES_NAME]
            shown += _define_options(defines)
        for i, folder in enumerate(include_dirs):  # a symlink with a fixed name for each include folder
            link = f"include{i}"
            try:
                os.symlink(os.path.abspath(folder), tmp / link, target_is_directory=True)
            except OSError:  # no symlinks here (Windows without the privilege): a plain path only
                link = os.path.abspath(folder)
                if not SHELL_SAFE_PATH.fullmatch(link):
                    raise InputError("-I", f"{one_line(folder, 80)!r} has characters nvcc cannot take safely "
                                           "and this system cannot link to it; use NVRTC or rename it") from None
            cmd.append(f"-I{link}")
            shown.append(f"-I{folder}")
        cmd += ["-o", CUBIN_NAME, SOURCE_NAME]
        env = {**os.environ, "TMPDIR": str(tmp)}  # nvcc's own intermediate files stay private too
        try:
            proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=300,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise CompileError(display, "nvcc did not finish within 300 s") from None
        log = _user_log(proc.stdout + proc.stderr, display)
        if proc.returncode != 0:
            if "Unsupported gpu architecture" in log or "is not defined for option 'gpu-architecture'" in log:
                raise InputError("--arch", f"{arch} is not a target of nvcc {nvcc_version(nvcc)}")
            _raise_compile_error(log, display)
        cubin = (tmp / CUBIN_NAME).read_bytes()
    return cubin, None, log, f"nvcc {nvcc_version(nvcc)}", shown


class UnknownKernel(InputError):
    """No kernel of that name in the compiled file; ``kernels`` lists the cubin's symbols."""

    def __init__(self, field: str, message: str, kernels: list[str]):
        super().__init__(field, message)
        self.kernels = list(kernels)


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
    raise UnknownKernel("--kernel", f"no kernel named {wanted!r}; kernels: {', '.join(names) or 'none'}", names)


# -- public -------------------------------------------------------------------------------
def _forced_backend() -> str:
    return os.environ.get("WARP_EXPLORER_COMPILER", "").strip().lower()


def compiler_backend() -> str:
    """``nvrtc`` or ``nvcc``: what :func:`compile_source` will try first (CompilerUnavailable if neither)."""
    forced = _forced_backend()
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


def build_cubin(source: str, kernel: str, arch: str, maxrregcount: int | None,
                defines: list[tuple[str, str | None]], include_dirs: list[str], display: str,
                line_info: bool = False):
    """(cubin, lowered name, log, compiler, options) from the backend :func:`compiler_backend` picks,
    falling back to nvcc where NVRTC cannot compile. This is what the compiling child runs
    (``explorer.gpu.compile_child``); arguments are already checked by :func:`compile_source`."""
    backend = compiler_backend()
    fallback_note = ""
    if backend == "nvrtc":
        try:
            return _compile_nvrtc(source, kernel, arch, maxrregcount, defines, include_dirs, display, line_info)
        except (NvrtcBroken, NvrtcArchUnsupported) as exc:
            if _forced_backend() == "nvrtc" or find_tool("nvcc") is None:
                if isinstance(exc, InputError):
                    raise
                raise CompilerUnavailable(f"NVRTC cannot compile ({exc}) and nvcc was not found") from None
            fallback_note = f" (NVRTC could not: {exc})"
    cubin, lowered, log, compiler, used = _compile_nvcc(source, arch, maxrregcount, defines, include_dirs, display,
                                                        line_info)
    return cubin, lowered, log, compiler + fallback_note, used


# -- includes ------------------------------------------------------------------------------
MAX_HEADERS = 256  # headers an include scan reads at most
MAX_INCLUDE_DEPTH = 64
_LOGICAL_LINE = re.compile(r"\\\r?\n")
_INCLUDE = re.compile(r"^[ \t]*#[ \t]*(include|include_next|import)\b[ \t]*(.*)$", re.MULTILINE)


def _strip_comments(text: str) -> str:
    """``text`` with its comments blanked (string and character literals kept), line breaks kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        else:
            j = i
            while j < n and text[j] not in "\"'/":
                j += 1
            out.append(text[i:j + 1] if j == i else text[i:j])
            i = j + 1 if j == i else j
    return "".join(out)


def includes_of(text: str) -> list[tuple[str, str]]:
    """(kind, name) of each ``#include`` (``"`` or ``<``; kind ``macro`` for a computed one) in a source."""
    body = _LOGICAL_LINE.sub("", _strip_comments(text))
    found = []
    for m in _INCLUDE.finditer(body):
        arg = m.group(2).strip()
        q = re.match(r'^"([^"\n]*)"', arg) or re.match(r"^<([^>\n]*)>", arg)
        found.append((arg[0], q.group(1)) if q else ("macro", arg))
    return found


def _inside(path: str, roots: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def check_includes(source: str, display: str, include_dirs: list[str], system_dirs: list[str]) -> None:
    """Refuse a source whose ``#include`` would read a file outside its allowed folders (issue 30, item 7:
    ``#include "/etc/passwd"`` and ``"../../x"`` were read, and quoted back in the compiler's first error).

    Allowed: the kernel's folder and the folders the user names (``include_dirs``, ``-I``) and the CUDA
    headers (``system_dirs``). Each quoted include is looked up in the including file's folder, then in the
    include folders, an angled one in the include and CUDA folders, as the compiler does; a name that
    resolves (symbolic links followed) outside them, an absolute name, or a computed include (a macro) is
    refused; one found nowhere is left to the compiler (its built-in headers, or its own error). Headers
    found are scanned in turn (at most ``MAX_HEADERS``, each size-capped as a ``.cu`` is)."""
    from explorer.model.errors import MAX_SOURCE_BYTES, read_user_text

    roots = [os.path.realpath(d) for d in list(include_dirs) + list(system_dirs) if d]
    user = [os.path.realpath(d) for d in include_dirs if d]
    seen: set[str] = set()
    todo = [(source, None, "", 0)]  # (text, its folder, what messages call it: "" for the source itself)
    while todo:
        text, folder, where, depth = todo.pop()
        at = f"{where}: " if where else ""
        for kind, name in includes_of(text):
            if kind == "macro":
                raise CompileError(display, f"{at}#include {one_line(name, 60)} names its header through a "
                                            "macro; name the header itself (\"x.cuh\" or <x.h>)")
            if os.path.isabs(name) or re.match(r"^[A-Za-z]:[\\/]", name):
                raise CompileError(display, f"{at}#include {one_line(name, 80)!r} is an absolute path; "
                                            "includes are read from the kernel's folder, the folders given with "
                                            "-I and the CUDA headers")
            search = ([folder] if kind == '"' and folder else []) + (user if kind == '"' else roots)
            hit = None
            for base in search:
                candidate = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(candidate):
                    hit = candidate
                    break
            if hit is None:
                if ".." in re.split(r"[\\/]", name):
                    raise CompileError(display, f"{at}#include {one_line(name, 80)!r} leaves the include "
                                                "folders; includes are read from the kernel's folder, the folders "
                                                "given with -I and the CUDA headers")
                continue  # the compiler's own header, or its own "cannot open" error
            if not _inside(hit, roots):
                raise CompileError(display, f"{at}#include {one_line(name, 80)!r} is outside the kernel's "
                                            "folder, the folders given with -I and the CUDA headers")
            real = os.path.realpath(hit)
            if real in seen or any(real.startswith(r.rstrip(os.sep) + os.sep) for r in map(os.path.realpath,
                                                                                             system_dirs)):
                continue  # scanned already, or a CUDA header (trusted: not scanned)
            seen.add(real)
            if len(seen) > MAX_HEADERS or depth >= MAX_INCLUDE_DEPTH:
                raise CompileError(display, f"includes more than {MAX_HEADERS} headers or nests them more than "
                                            f"{MAX_INCLUDE_DEPTH} deep")
            header = read_user_text(hit, field=display, kind="a header", limit=MAX_SOURCE_BYTES)
            todo.append((header, os.path.dirname(hit), one_line(name, 80), depth + 1))


# errors the compiling child reports by class name, raised again here as the same class
_CHILD_ERRORS = {"CompileError": CompileError, "NvrtcArchUnsupported": NvrtcArchUnsupported,
                 "InputError": InputError, "CompilerUnavailable": CompilerUnavailable}


def _build_in_child(request: dict, display: str, limits, cancel):
    """:func:`build_cubin` in a child process under ``limits`` (``explorer.gpu.sandbox``)."""
    import base64

    from explorer.gpu.sandbox import CompileLimitExceeded, Limits, memory_message, out_of_memory, run_python_child

    limits = limits or Limits.from_env()
    answer = run_python_child("explorer.gpu.compile_child", request, field=display, what="compiling",
                              limits=limits, cancel=cancel)
    if answer.get("ok"):
        return (base64.b64decode(answer["cubin"]), answer.get("lowered"), answer.get("log", ""),
                answer.get("compiler", "?"), tuple(answer.get("options", ())))
    cls, field_, message = answer.get("class"), answer.get("field") or "", answer.get("message", "")
    if cls == "MemoryError" or (cls == "CompileError" and limits.memory_bytes and out_of_memory(message)):
        raise CompileLimitExceeded(display, memory_message("compiling", limits))  # EDG: "catastrophic error: out of memory"
    kind = _CHILD_ERRORS.get(cls)
    if kind is None:
        raise RuntimeError(f"compiling {display}: {message}")
    if issubclass(kind, InputError):
        raise kind(field_, message)
    raise kind(message)


def compile_source(
    source: str,
    kernel: str,
    arch: str,
    *,
    maxrregcount: int | None = None,
    defines: list[str] | tuple[str, ...] = (),
    include_dirs: list[str] | tuple[str, ...] = (),
    filename: str = SOURCE_NAME,
    line_info: bool = False,
    isolated: bool = True,
    limits=None,
    cancel=None,
) -> CompileResult:
    """Compile ``source`` for ``arch`` and read ``kernel``'s registers, shared memory, spills, barriers.

    ``defines`` are ``NAME`` or ``NAME=VALUE`` (as ``-D``), ``include_dirs`` folders (as
    ``-I``); ``filename`` is only what messages call the source. ``line_info`` adds the
    source-line table (``-lineinfo``: the code is the same, nvdisasm ``-g`` then names lines).

    The compiler runs in a child process with a memory and a time limit (``limits``: an
    ``explorer.gpu.sandbox.Limits``, by default from the environment) that ``cancel()``
    (polled) can stop: a source that makes the compiler grow without bound costs that
    child, not the app (issue 30). ``isolated=False`` compiles in this process (the
    fallback tests patch the backends here).
    """
    arch = normalize_arch(arch)
    kernel = check_kernel_name(kernel)
    defs = [parse_define(d) for d in defines]
    includes = [str(d) for d in include_dirs]
    display = one_line(Path(str(filename)).name or str(filename), 120)
    if maxrregcount is not None:
        maxrregcount = int(maxrregcount)
    if "#" in source:  # a source with no directive includes nothing
        check_includes(source, display, includes, cuda_include_dirs())
    if isolated:
        request = {"source": source, "kernel": kernel, "arch": arch, "maxrregcount": maxrregcount,
                   "defines": [list(d) for d in defs], "include_dirs": includes, "display": display,
                   "line_info": bool(line_info)}
        cubin, lowered, log, compiler, used = _build_in_child(request, display, limits, cancel)
    else:
        cubin, lowered, log, compiler, used = build_cubin(source, kernel, arch, maxrregcount, defs, includes,
                                                          display, line_info)
    parsed = Cubin(cubin)
    symbol = lowered if lowered and lowered in parsed.kernels() else match_kernel(parsed.kernels(), kernel)
    resources = parsed.resources(symbol)
    spills = ptxas_spills(log, symbol)
    if spills:
        resources = resources.with_spills(*spills)
    return CompileResult(cubin=cubin, kernel=kernel, symbol=symbol, arch=arch, resources=resources, log=log,
                         compiler=compiler, options=tuple(used))


def compile_file(path: str | os.PathLike, kernel: str, arch: str, *, defines=(), include_dirs=(),
                 maxrregcount: int | None = None, line_info: bool = False, limits=None, cancel=None) -> CompileResult:
    """Compile a ``.cu`` file (size-capped, a regular file); ``#include "x.cuh"`` next to it resolves."""
    p = Path(path)
    source = read_user_text(p, kind="a .cu file", limit=MAX_SOURCE_BYTES)
    includes = list(include_dirs)
    if p.parent != Path(""):
        includes.append(str(p.parent.resolve()))
    return compile_source(source, kernel, arch, filename=p.name, defines=defines, include_dirs=includes,
                          maxrregcount=maxrregcount, line_info=line_info, limits=limits, cancel=cancel)
