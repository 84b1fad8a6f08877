"""Compile CUDA C++ to a cubin for one architecture and read the kernel's resources.

No GPU and no driver are needed: NVRTC (``cuda.bindings.nvrtc`` with the
``nvidia-cuda-nvrtc`` wheel, or a CUDA toolkit's libnvrtc) compiles straight to a
cubin. Where NVRTC is missing or broken (it loads but fails for reasons that are not
the source's, or cannot target the architecture) and ``nvcc`` is installed, ``nvcc
-cubin`` is used instead (``WARP_EXPLORER_COMPILER=nvrtc|nvcc`` forces one). ptxas
runs verbose so the log gives the exact spill bytes; everything else is read from
the cubin.

The compiler runs in a child process (``explorer.toolchain.compile_child``) with a memory and a
time limit, in a process group killed as a whole (``explorer.toolchain.sandbox``): a source that
makes NVRTC grow without bound costs that child, not the app (issue 30). Before it starts,
the source's ``#include``s are checked to stay in the kernel's folder, the ``-I`` folders
and the CUDA headers (:func:`check_includes`).

User text never reaches a shell: nvcc runs its steps through ``sh`` with the file
names, include folders and macros pasted in, so it only ever sees fixed names
(``kernel.cu``, ``kernel.cubin``, ``defines.h``, ``include0``...) inside a private
temporary folder it runs in; the user's include folders are symlinks there and
their macros a header of ``#define`` lines (one line each, checked by
:func:`explorer.toolchain.names.parse_define`). NVRTC gets the same fixed program name.
Kernel names are checked to be name expressions before NVRTC pastes them into code.
Messages show the user's file name where the compiler's log says ``kernel.cu``.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from explorer.toolchain.cubin import Cubin, KernelResources, ptxas_spills
from explorer.toolchain.errors import CompileError, CompilerUnavailable
from explorer.toolchain.names import check_kernel_name, one_line, parse_define
from explorer.model.errors import MAX_SOURCE_BYTES, InputError, read_user_text
from explorer.toolchain.backends import (  # noqa: F401 - the compiler's public names live here
    ARCH_RE,
    CUBIN_NAME,
    DEFINES_NAME,
    INSTALL_HINT,
    NVRTC_ERROR_COMPILATION,
    NVRTC_ERROR_INVALID_OPTION,
    NvrtcArchUnsupported,
    NvrtcBroken,
    SOURCE_NAME,
    UnknownKernel,
    _SOURCE_IN_LOG,
    _compile_nvcc,
    _compile_nvrtc,
    _define_options,
    _first_error,
    _forced_backend,
    _log,
    _nvrtc_check,
    _nvrtc_module,
    _raise_compile_error,
    _user_log,
    arch_number,
    build_cubin,
    compiler_backend,
    cuda_include_dirs,
    match_kernel,
    normalize_arch,
    nvcc_version,
    nvrtc_supported_archs,
    nvrtc_version,
)


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
    """:func:`build_cubin` in a child process under ``limits`` (``explorer.toolchain.sandbox``)."""
    import base64

    from explorer.toolchain.sandbox import CompileLimitExceeded, Limits, memory_message, out_of_memory, run_python_child

    limits = limits or Limits.from_env()
    answer = run_python_child("explorer.toolchain.compile_child", request, field=display, what="compiling",
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
    ``explorer.toolchain.sandbox.Limits``, by default from the environment) that ``cancel()``
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
    build = FileBuild(source=source, cubin=cubin, arch=arch, log=log, compiler=compiler, options=tuple(used),
                      line_info=bool(line_info), defines=tuple(defines), include_dirs=tuple(includes),
                      maxrregcount=maxrregcount)
    return kernel_in(build, kernel, lowered)


@dataclass(frozen=True)
class FileBuild:
    """One compile of a source: the cubin holds every kernel the file defines (and every template instance it
    names), so a second kernel of the same file, or the file's list of kernels, needs no second compile
    (``kernel_in``). An ``UnknownKernel`` raised by :func:`compile_source` or ``kernel_in`` carries it as
    ``build``."""

    source: str
    cubin: bytes
    arch: str
    log: str
    compiler: str
    options: tuple[str, ...] = ()
    # what else it was compiled with: a kernel asked for with other settings is compiled again
    line_info: bool = False
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    maxrregcount: int | None = None

    def serves(self, source: str, arch: str, *, line_info: bool = False, defines=(), include_dirs=(),
               maxrregcount: int | None = None) -> bool:
        """Whether this compile is the one ``compile_source`` would make for these arguments."""
        return (self.source == source and self.arch == normalize_arch(arch) and self.line_info == bool(line_info)
                and self.defines == tuple(defines) and self.include_dirs == tuple(str(d) for d in include_dirs)
                and self.maxrregcount == maxrregcount)


def kernel_in(build: FileBuild, kernel: str, lowered: str | None = None) -> CompileResult:
    """``kernel``'s CompileResult from a compile of its file: its symbol (``lowered``, the compiler's name for a
    name expression, or the cubin's symbol ``match_kernel`` finds), registers, shared memory, spills, barriers."""
    parsed = Cubin(build.cubin)
    try:
        symbol = lowered if lowered and lowered in parsed.kernels() else match_kernel(parsed.kernels(), kernel)
    except UnknownKernel as exc:  # the file compiled: its cubin answers for another of its kernels too
        exc.build = build
        raise
    resources = parsed.resources(symbol)
    spills = ptxas_spills(build.log, symbol)
    if spills:
        resources = resources.with_spills(*spills)
    return CompileResult(cubin=build.cubin, kernel=kernel, symbol=symbol, arch=build.arch, resources=resources,
                         log=build.log, compiler=build.compiler, options=build.options)


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


# a kernel name no file defines: compiling a file for it lists the file's kernels (UnknownKernel) and its cubin
# holds every one of them
NO_SUCH_KERNEL = "warp_explorer_no_such_kernel"


class _Pending:
    """A compile one thread is making that others wait for."""

    def __init__(self):
        import threading

        self.done = threading.Event()
        self.build: FileBuild | None = None
        self.error: BaseException | None = None
        self.owner_cancelled = False  # the compiling thread was cancelled: a waiter compiles for itself


class FileBuilds:
    """The compiles of ``.cu`` files one window shares: the Your kernel tab and the occupancy calculator's
    ``.cu`` row open the same file, and one compile (line info on, every kernel in its cubin) serves both.

    Thread-safe (the pages compile in their workers): a file being compiled for an architecture by one thread
    is waited for by another that asks for the same, not compiled twice. Keyed by the file's absolute path, its
    text and the architecture, so a file changed on disk or another GPU compiles again; a header changed under
    an unchanged file does not (as ``FileBuild.serves``). A failed compile is not kept: asking again compiles
    again. Keeps the last ``keep`` builds.
    """

    def __init__(self, keep: int = 8):
        import threading

        self.keep = keep
        self._lock = threading.Lock()
        self._builds: dict[tuple, FileBuild] = {}  # oldest first
        self._pending: dict[tuple, _Pending] = {}
        self.compiles = 0  # made, not served (what the tests count)

    def source_of(self, path) -> str:
        return read_user_text(Path(path), field="kernel.file", kind="a .cu file", limit=MAX_SOURCE_BYTES)

    def build(self, path, arch: str, *, source: str | None = None, cancel=None) -> FileBuild:
        """The compile of the file at ``path`` for ``arch`` (line info on): kept, being made by another
        thread (waited for; ``cancel()`` stops the wait), or made now."""
        p = Path(path).absolute()
        if source is None:
            source = self.source_of(p)
        key = (str(p), source, normalize_arch(arch))
        while True:
            with self._lock:
                build = self._builds.get(key)
                if build is not None:
                    self._builds[key] = self._builds.pop(key)  # the newest again
                    return build
                pending = self._pending.get(key)
                if pending is None:
                    pending = self._pending[key] = _Pending()
                    owner = True
                else:
                    owner = False
            if owner:
                return self._make(key, p, source, pending, cancel)
            while not pending.done.wait(0.05):
                if cancel is not None and cancel():
                    from explorer.toolchain.sandbox import ChildCancelled

                    raise ChildCancelled()
            if pending.build is not None:
                return pending.build
            if not pending.owner_cancelled:
                raise pending.error  # the file does not compile: the same reason for every page
            # the owner was cancelled (a newer request of its page): the loop compiles for this one

    def _make(self, key: tuple, p: Path, source: str, pending: _Pending, cancel) -> FileBuild:
        build = None
        try:
            includes = [str(p.parent.resolve())]
            try:
                r = compile_source(source, NO_SUCH_KERNEL, key[2], filename=p.name, include_dirs=includes,
                                   line_info=True, cancel=cancel)
            except UnknownKernel as exc:  # what a compile for no kernel ends in: its cubin holds them all
                build = exc.build
            else:  # a kernel of that very name: its compile is the file's all the same
                build = FileBuild(source=source, cubin=r.cubin, arch=r.arch, log=r.log, compiler=r.compiler,
                                  options=r.options, line_info=True, include_dirs=tuple(includes))
            return build
        except BaseException as exc:
            pending.error = exc
            pending.owner_cancelled = bool(cancel is not None and cancel())
            raise
        finally:
            with self._lock:
                self.compiles += 1
                del self._pending[key]
                if build is not None:
                    pending.build = build
                    self._builds[key] = build
                    while len(self._builds) > self.keep:
                        self._builds.pop(next(iter(self._builds)))
            pending.done.set()
