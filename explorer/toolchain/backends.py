"""The compilers themselves: NVRTC and nvcc, in the calling process, for the compiling child.

``explorer.toolchain.compiler`` checks a source (size, includes, names) and runs :func:`build_cubin` in a child with
limits (``explorer.toolchain.compile_child``); the child imports this module only, so the compiler module that starts
it is never imported in it (no module cycle). The names are re-exported by ``explorer.toolchain.compiler``.
"""

from __future__ import annotations
import os
import re
import subprocess
from explorer.toolchain.errors import CompileError, CompilerUnavailable
from explorer.toolchain.folders import SHELL_SAFE_PATH, private_tempdir
from explorer.toolchain.names import one_line
from explorer.toolchain.tools import find_tool
from explorer.model.errors import InputError

ARCH_RE = re.compile(r"^(?:sm_?)?(\d)(\d{1,2})([af]?)$", re.IGNORECASE)
INSTALL_HINT = "pip install 'warp-explorer[gpu]' (cuda-bindings and nvidia-cuda-nvrtc)"
SOURCE_NAME = "kernel.cu"  # the only source name a compiler sees
CUBIN_NAME = "kernel.cubin"
DEFINES_NAME = "defines.h"
NVRTC_ERROR_INVALID_OPTION = 5
NVRTC_ERROR_COMPILATION = 6  # the source does not compile; every other failure is NVRTC's own


class NvrtcBroken(Exception):
    """NVRTC loads but cannot compile for a reason that is not the source's (nvcc may still work)."""



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
    (``explorer.toolchain.compile_child``); arguments are already checked by :func:`compile_source`."""
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
