"""Is there a usable NVIDIA GPU? Answered without ever hanging or poisoning this process.

Without a driver, some cuda-python calls raise and a second call can hang (seen with
cuda.core's ``get_kernel``). So the question is asked in two steps, neither of which
touches cuda-python in this process:

1. is the driver library there at all (``libcuda.so.1`` / ``nvcuda.dll``)? A file
   check, instant;
2. a child Python process loads it with ``ctypes`` and calls ``cuInit``,
   ``cuDriverGetVersion``, ``cuDeviceGetCount`` and a few device attributes, printing
   JSON; it is killed after ``timeout`` seconds.

``WARP_EXPLORER_NO_GPU=1`` makes the answer "no" (tests of the no-GPU paths on a GPU
machine). The answer is cached per process for a minute.
"""

from __future__ import annotations

import ctypes.util
import glob
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

from explorer.toolchain.errors import GpuUnavailable

CACHE_SECONDS = 60.0
_cache: tuple[float, "DriverProbe"] | None = None

LIB_CANDIDATES = (
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
    "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
    "/usr/lib64/libcuda.so.1",
    "/usr/lib/libcuda.so.1",
    "/usr/local/nvidia/lib64/libcuda.so.1",
    "/usr/local/nvidia/lib/libcuda.so.1",
    "/usr/lib/wsl/lib/libcuda.so.1",
    "/run/opengl-driver/lib/libcuda.so.1",
)

# The child: ctypes only, no imports from this package, JSON on stdout.
_CHILD = r"""
import ctypes, json, sys
path = sys.argv[1]
out = {"ok": False, "library": path}
try:
    lib = ctypes.WinDLL(path) if sys.platform == "win32" else ctypes.CDLL(path)
except OSError as exc:
    out["reason"] = "cannot load the NVIDIA driver library %s (%s)" % (path, exc)
    print(json.dumps(out)); sys.exit(0)

def errname(code):
    s = ctypes.c_char_p()
    try:
        if lib.cuGetErrorName(code, ctypes.byref(s)) == 0 and s.value:
            return "%s (%d)" % (s.value.decode(), code)
    except Exception:
        pass
    return "CUDA error %d" % code

r = lib.cuInit(0)
if r != 0:
    out["reason"] = "the NVIDIA driver is installed but cuInit failed: " + errname(r)
    print(json.dumps(out)); sys.exit(0)
v = ctypes.c_int()
lib.cuDriverGetVersion(ctypes.byref(v))
out["driver_version"] = v.value
n = ctypes.c_int()
r = lib.cuDeviceGetCount(ctypes.byref(n))
if r != 0 or n.value == 0:
    out["reason"] = "the NVIDIA driver sees no CUDA device" + ("" if r == 0 else ": " + errname(r))
    print(json.dumps(out)); sys.exit(0)
ATTR = {"sm_count": 16, "cc_major": 75, "cc_minor": 76, "max_threads_per_sm": 39, "clock_khz": 13,
        "l2_bytes": 38, "shared_per_sm": 81}
devs = []
for i in range(n.value):
    d = ctypes.c_int()
    if lib.cuDeviceGet(ctypes.byref(d), i) != 0:
        continue
    name = ctypes.create_string_buffer(256)
    lib.cuDeviceGetName(name, 256, d)
    info = {"ordinal": i, "name": name.value.decode(errors="replace")}
    for key, code in ATTR.items():
        val = ctypes.c_int()
        if lib.cuDeviceGetAttribute(ctypes.byref(val), code, d) == 0:
            info[key] = val.value
    mem = ctypes.c_size_t()
    fn = getattr(lib, "cuDeviceTotalMem_v2", None) or lib.cuDeviceTotalMem
    if fn(ctypes.byref(mem), d) == 0:
        info["memory_bytes"] = mem.value
    bus = ctypes.create_string_buffer(64)
    if lib.cuDeviceGetPCIBusId(bus, 64, d) == 0:
        info["pci_bus_id"] = bus.value.decode()
    if "cc_major" in info:
        info["compute_capability"] = "%d.%d" % (info["cc_major"], info.get("cc_minor", 0))
    devs.append(info)
out["devices"] = devs
out["ok"] = bool(devs)
if not devs:
    out["reason"] = "the NVIDIA driver lists devices but none could be opened"
print(json.dumps(out))
"""


@dataclass(frozen=True)
class DriverProbe:
    ok: bool
    reason: str = ""
    library: str = ""
    driver_version: int | None = None
    devices: list = field(default_factory=list)

    @property
    def driver_version_text(self) -> str:
        v = self.driver_version
        return f"{v // 1000}.{(v % 1000) // 10}" if v else "?"

    def device(self, ordinal: int = 0) -> dict:
        for d in self.devices:
            if d.get("ordinal") == ordinal:
                return d
        raise GpuUnavailable(f"there is no CUDA device {ordinal} (devices: {len(self.devices)})")

    def to_json(self) -> dict:
        return {"ok": self.ok, "reason": self.reason, "library": self.library,
                "driver_version": self.driver_version, "devices": self.devices}


def find_driver_library() -> str | None:
    """Path (or soname) of the CUDA driver library, or None. Touches no GPU."""
    if sys.platform == "win32":
        system = os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32", "nvcuda.dll")
        return system if os.path.isfile(system) else None
    if sys.platform == "darwin":
        return None
    for var in ("LD_LIBRARY_PATH",):
        for d in os.environ.get(var, "").split(os.pathsep):
            if d and os.path.isfile(os.path.join(d, "libcuda.so.1")):
                return os.path.join(d, "libcuda.so.1")
    for path in LIB_CANDIDATES:
        if os.path.isfile(path):
            return path
    for path in sorted(glob.glob("/usr/lib/*/libcuda.so.1")):
        return path
    found = ctypes.util.find_library("cuda")  # ldconfig's cache
    return found or None


def probe(timeout: float = 20.0, *, use_cache: bool = True) -> DriverProbe:
    """Ask (in a child process) whether a CUDA device is usable. Never raises, never hangs."""
    global _cache
    if os.environ.get("WARP_EXPLORER_NO_GPU", "").strip() not in ("", "0"):
        return DriverProbe(False, "GPU use is switched off (WARP_EXPLORER_NO_GPU is set)")
    if use_cache and _cache and time.monotonic() - _cache[0] < CACHE_SECONDS:
        return _cache[1]
    lib = find_driver_library()
    if lib is None:
        result = DriverProbe(False, "no NVIDIA driver on this machine (libcuda.so.1 not found)")
    else:
        result = _probe_child(lib, timeout)
    _cache = (time.monotonic(), result)
    return result


def _probe_child(lib: str, timeout: float) -> DriverProbe:
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, lib], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return DriverProbe(False, f"the NVIDIA driver did not answer within {timeout:g} s", library=lib)
    except OSError as exc:
        return DriverProbe(False, f"cannot start the driver probe ({exc})", library=lib)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        err = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return DriverProbe(False, f"the driver probe failed ({err})", library=lib)
    try:
        data = json.loads(lines[-1])
    except json.JSONDecodeError:
        return DriverProbe(False, "the driver probe answered nonsense", library=lib)
    return DriverProbe(bool(data.get("ok")), data.get("reason", ""), data.get("library", lib),
                       data.get("driver_version"), data.get("devices", []))


def require_gpu(timeout: float = 20.0, ordinal: int = 0) -> tuple[DriverProbe, dict]:
    """The probe and the device, or GpuUnavailable with the reason in one line."""
    result = probe(timeout)
    if not result.ok:
        raise GpuUnavailable(result.reason)
    return result, result.device(ordinal)


def gpu_status_text(timeout: float = 20.0) -> str:
    """One line for a UI: which GPU is there, or why none is usable."""
    result = probe(timeout)
    if not result.ok:
        return result.reason
    d = result.devices[0]
    return (f"{d.get('name', 'GPU')} (CC {d.get('compute_capability', '?')}, {d.get('sm_count', '?')} SMs), "
            f"driver {result.driver_version_text}")
