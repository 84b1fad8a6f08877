"""A thin layer over ``cuda.bindings.driver`` (the CUDA driver API), for the worker process only.

Only the low-level bindings are used: their calls are the C driver API one to one,
and they have been stable from cuda-bindings 12.x to 13.x (cuda.core's pythonic API
changed between releases). Every call returns ``(CUresult, values...)``; :func:`ck`
turns a failure into :class:`CudaError` naming the call and the error.

Import this module only after the probe said a driver is there.
"""

from __future__ import annotations

import numpy as np

from explorer.toolchain.errors import GpuRunError, GpuUnavailable


def load_driver():
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver  # cuda-python < 12.6
        except ImportError:
            raise GpuUnavailable("cuda-bindings is not installed; pip install 'warp-explorer[gpu]'") from None
    return driver


drv = load_driver()


class CudaError(GpuRunError):
    def __init__(self, what: str, code):
        self.code = code
        try:
            name = drv.cuGetErrorName(code)[1]
            desc = drv.cuGetErrorString(code)[1]
            name = name.decode() if isinstance(name, bytes) else str(name)
            desc = desc.decode() if isinstance(desc, bytes) else str(desc)
        except Exception:  # noqa: BLE001 - the message must not fail
            name, desc = str(code), ""
        super().__init__(f"{what} failed: {name}" + (f" ({desc})" if desc else ""))


def ck(result, what: str):
    """Unpack ``(CUresult, *values)``: raise CudaError on failure, else return the value(s)."""
    if isinstance(result, tuple):
        err, rest = result[0], result[1:]
    else:
        err, rest = result, ()
    if int(err) != 0:
        raise CudaError(what, err)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


def dev_attr(dev, name: str) -> int | None:
    """A device attribute by its short name (``MULTIPROCESSOR_COUNT``), None if this driver lacks it."""
    enum = getattr(drv.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}", None)
    if enum is None:
        return None
    try:
        return int(ck(drv.cuDeviceGetAttribute(enum, dev), f"cuDeviceGetAttribute({name})"))
    except CudaError:
        return None


def func_attr(fn, name: str) -> int | None:
    enum = getattr(drv.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{name}", None)
    if enum is None:
        return None
    try:
        return int(ck(drv.cuFuncGetAttribute(enum, fn), f"cuFuncGetAttribute({name})"))
    except CudaError:
        return None


def set_func_attr(fn, name: str, value: int) -> None:
    enum = getattr(drv.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{name}")
    ck(drv.cuFuncSetAttribute(fn, enum, int(value)), f"cuFuncSetAttribute({name}={value})")


def as_text(value) -> str:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).split(b"\0", 1)[0].decode("utf-8", "replace")
    return str(value)


DEVICE_ATTRIBUTES = (
    "MULTIPROCESSOR_COUNT", "COMPUTE_CAPABILITY_MAJOR", "COMPUTE_CAPABILITY_MINOR", "CLOCK_RATE",
    "MEMORY_CLOCK_RATE", "GLOBAL_MEMORY_BUS_WIDTH", "L2_CACHE_SIZE", "MAX_THREADS_PER_MULTIPROCESSOR",
    "MAX_BLOCKS_PER_MULTIPROCESSOR", "MAX_REGISTERS_PER_MULTIPROCESSOR", "MAX_REGISTERS_PER_BLOCK",
    "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", "MAX_SHARED_MEMORY_PER_BLOCK", "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
    "RESERVED_SHARED_MEMORY_PER_BLOCK", "MAX_THREADS_PER_BLOCK", "WARP_SIZE", "COMPUTE_PREEMPTION_SUPPORTED",
    "MULTI_GPU_BOARD", "ECC_ENABLED",
)


def device_properties(dev) -> dict:
    props = {"name": as_text(ck(drv.cuDeviceGetName(256, dev), "cuDeviceGetName"))}
    for name in DEVICE_ATTRIBUTES:
        value = dev_attr(dev, name)
        if value is not None:
            props[name.lower()] = value
    try:
        props["pci_bus_id"] = as_text(ck(drv.cuDeviceGetPCIBusId(64, dev), "cuDeviceGetPCIBusId"))
    except CudaError:
        pass
    try:
        props["memory_bytes"] = int(ck(drv.cuDeviceTotalMem(dev), "cuDeviceTotalMem"))
    except (CudaError, AttributeError):
        pass
    try:
        uuid = ck(drv.cuDeviceGetUuid(dev), "cuDeviceGetUuid")
        raw = bytes(getattr(uuid, "bytes", b""))
        if raw:
            h = raw.hex()
            props["uuid"] = f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
    except Exception:  # noqa: BLE001 - informational only
        pass
    major = props.get("compute_capability_major")
    if major is not None:
        props["compute_capability"] = f"{major}.{props.get('compute_capability_minor', 0)}"
    return props


class Buffer:
    """Device memory freed on close."""

    def __init__(self, nbytes: int, what: str):
        self.nbytes = max(int(nbytes), 256)
        try:
            self.ptr = ck(drv.cuMemAlloc(self.nbytes), f"cuMemAlloc({what}, {self.nbytes} B)")
        except CudaError as exc:
            raise GpuRunError(f"cannot allocate {self.nbytes / 2**20:.1f} MiB for {what}: {exc}") from None

    @property
    def address(self) -> int:
        return int(self.ptr)

    def fill(self, value: int, stream=None) -> None:
        """Set every byte to ``value`` (asynchronously in ``stream`` when one is given)."""
        if stream is None:
            ck(drv.cuMemsetD8(self.ptr, int(value) & 0xFF, self.nbytes), "cuMemsetD8")
        else:
            ck(drv.cuMemsetD8Async(self.ptr, int(value) & 0xFF, self.nbytes, stream), "cuMemsetD8Async")

    def zero(self, stream=None) -> None:
        self.fill(0, stream)

    def to_host(self, dtype, count: int | None = None) -> np.ndarray:
        dtype = np.dtype(dtype)
        n = self.nbytes // dtype.itemsize if count is None else int(count)
        out = np.empty(n, dtype=dtype)
        if n:
            ck(drv.cuMemcpyDtoH(out.ctypes.data, self.ptr, out.nbytes), "cuMemcpyDtoH")
        return out

    def close(self) -> None:
        if getattr(self, "ptr", None) is not None:
            try:
                drv.cuMemFree(self.ptr)
            finally:
                self.ptr = None


def pack_args(values_and_types) -> tuple[np.ndarray, list[np.ndarray]]:
    """``[(value, "uint64"), ...]`` -> (array of pointers for cuLaunchKernel, the arrays to keep alive)."""
    holders = [np.array([v], dtype=np.dtype(t)) for v, t in values_and_types]
    pointers = np.array([h.ctypes.data for h in holders], dtype=np.uint64)
    return pointers, holders


def launch(fn, grid, block, shared_bytes: int, stream, args) -> None:
    pointers, holders = pack_args(args)
    ck(drv.cuLaunchKernel(fn, int(grid[0]), int(grid[1]), int(grid[2]), int(block[0]), int(block[1]), int(block[2]),
                          int(shared_bytes), stream, pointers.ctypes.data, 0), "cuLaunchKernel")
    del holders  # parameters are copied at launch
