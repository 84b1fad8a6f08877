"""The measuring child process: ``python -m explorer.gpu.worker REQUEST.json OUT.npz``.

Runs on the GPU what the parent prepared (a cubin, a launch configuration), and
writes ``OUT.npz`` (the raw records and the globaltimer probe) and ``OUT.npz.json``
(device properties, kernel attributes, the driver's occupancy answer, event times,
NVML samples, or ``{"ok": false, "error": ...}``). A faulty kernel, a driver error or
a hang stays in this process: the parent kills it after its timeout.

What the recorded launch sees, so that its figures mean what they say:

- the GPU is warmed up first (``warm_seconds`` of back-to-back launches, ~200 ms: an
  idle GPU runs at low clocks), and the SM clock is probed by the tick kernel right
  after the recorded launch, in the same stream (``clock_probe_mhz``);
- the L2 cache is flushed before every timed launch by writing a scratch buffer twice
  the L2's size (``l2_flush_bytes``), so the streamed loads come from device memory, as
  the simulator assumes and as Nsight Compute's own cache control does; the small
  regions the workload's ``l1_hit_rate``/``l2_hit_rate`` mean to hit are then written
  once more, which brings them (alone) back into L2;
- dynamic shared memory is opted in whenever there is any: the driver's default limit
  is 48 KB *less the static shared memory*, so static + dynamic above 48 KB needs it even
  when the dynamic part alone is smaller;
- the NVML window launches from a CUDA Graph (a captured batch of launches), so NVML
  samples back-to-back kernels rather than Python's launch speed (``launch_method``).

This process dies with its parent (``explorer.toolchain.sandbox.die_with_parent``: ``PR_SET_PDEATHSIG`` on Linux, and a watchdog on
the parent's pid everywhere): it runs in a session of its own so the parent can kill
its group, which also means a step timeout that kills the parent's group would not
reach it, and an orphaned worker would keep the GPU busy.

Imports: numpy, cuda-bindings, optionally nvidia-ml-py; nothing from Qt, numba or the
simulator. Progress goes to stderr as ``stage: ...`` lines.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

from explorer.toolchain.sandbox import die_with_parent


L2_FLUSH_FACTOR = 2  # the scratch buffer written before each timed launch, in L2 sizes
MIN_L2_FLUSH_BYTES = 8 << 20  # when the device does not say how large its L2 is
GRAPH_MAX_LAUNCHES = 1000  # kernels captured in the NVML window's graph


def stage(text: str) -> None:
    sys.stderr.write(f"stage: {text}\n")
    sys.stderr.flush()


def run(req: dict) -> tuple[dict, dict]:
    from explorer.gpu import driver as D

    drv = D.drv
    out: dict = {"warnings": []}
    stage("initialising the driver")
    D.ck(drv.cuInit(0), "cuInit")
    out["driver_version"] = int(D.ck(drv.cuDriverGetVersion(), "cuDriverGetVersion"))
    dev = D.ck(drv.cuDeviceGet(int(req.get("ordinal", 0))), "cuDeviceGet")
    props = D.device_properties(dev)
    out["device"] = props
    try:
        import cuda.bindings as cb

        out["cuda_bindings"] = getattr(cb, "__version__", "?")
    except Exception:  # noqa: BLE001
        out["cuda_bindings"] = "?"
    cc = props.get("compute_capability", "?")
    if req.get("arch") and req["arch"].rstrip("af") != f"sm_{cc.replace('.', '')}":
        raise D.GpuRunError(f"the kernel was compiled for {req['arch']} but the device is CC {cc}")
    ctx = D.ck(drv.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    buffers: list = []
    module = None
    try:
        D.ck(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        free, total = D.ck(drv.cuMemGetInfo(), "cuMemGetInfo")
        out["memory_free_bytes"], out["memory_total_bytes"] = int(free), int(total)

        stage("loading the kernel")
        image = np.frombuffer(Path(req["cubin_path"]).read_bytes(), dtype=np.uint8).copy()
        module = D.ck(drv.cuModuleLoadData(image.ctypes.data), "cuModuleLoadData")
        fn = D.ck(drv.cuModuleGetFunction(module, req["kernel"].encode()), f"cuModuleGetFunction({req['kernel']})")
        tick_fn = D.ck(drv.cuModuleGetFunction(module, req["tick_kernel"].encode()), "cuModuleGetFunction(tick)")
        attrs = {}
        for name in ("NUM_REGS", "SHARED_SIZE_BYTES", "LOCAL_SIZE_BYTES", "CONST_SIZE_BYTES", "MAX_THREADS_PER_BLOCK",
                     "BINARY_VERSION", "PTX_VERSION", "MAX_DYNAMIC_SHARED_SIZE_BYTES",
                     "PREFERRED_SHARED_MEMORY_CARVEOUT"):
            value = D.func_attr(fn, name)
            if value is not None:
                attrs[name.lower()] = value
        out["function_attributes"] = attrs

        grid, block = req["grid"], req["block"]
        threads = int(block[0]) * int(block[1]) * int(block[2])
        dyn = int(req.get("dynamic_shared_bytes", 0))
        if dyn > 0:  # the default limit is 48 KB less the static shared memory: opt in whenever there is any
            D.set_func_attr(fn, "MAX_DYNAMIC_SHARED_SIZE_BYTES", dyn)
        carveout = int(req.get("carveout", -1))
        if carveout >= 0:
            D.set_func_attr(fn, "PREFERRED_SHARED_MEMORY_CARVEOUT", carveout)
        blocks_per_sm = int(D.ck(drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(fn, threads, dyn),
                                 "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
        out["driver_active_blocks_per_sm"] = blocks_per_sm
        if blocks_per_sm == 0:
            raise D.GpuRunError(f"the driver says no block of {threads} threads with {dyn} B dynamic shared memory "
                                f"fits on an SM ({attrs.get('num_regs')} registers, "
                                f"{attrs.get('shared_size_bytes')} B static shared memory)")

        stage("allocating memory")
        flush_bytes = l2_flush_bytes(props)
        iclk_words = int(req.get("iteration_clock_words", 0))
        need = (int(req["buffer_bytes"]) + int(req.get("hot_bytes", 0)) + int(req["records"]) * 64
                + flush_bytes + iclk_words * 8)
        if need > free * 0.9:
            raise D.GpuRunError(f"the run needs {need / 2**30:.2f} GiB of device memory; {free / 2**30:.2f} GiB are free")
        gbuf = D.Buffer(req["buffer_bytes"], "the streaming buffer")
        buffers.append(gbuf)
        hot = D.Buffer(req.get("hot_bytes", 0), "the L1/L2-hit regions")
        buffers.append(hot)
        rec = D.Buffer(int(req["records"]) * 64, "the timing records")
        buffers.append(rec)
        sink = D.Buffer(256, "the sink")
        buffers.append(sink)
        scratch = D.Buffer(flush_bytes, "the L2 flush buffer")
        buffers.append(scratch)
        tick_max = int(req.get("tick_max", 4096))
        tick_buf = D.Buffer((4 + tick_max) * 8, "the timer probe")
        buffers.append(tick_buf)
        probe_buf = D.Buffer((4 + 16) * 8, "the clock probe")
        buffers.append(probe_buf)
        iclk = D.Buffer(iclk_words * 8, "the iteration clocks") if iclk_words else None
        if iclk is not None:
            buffers.append(iclk)
        for b in buffers:
            b.zero()
        stream = D.ck(drv.cuStreamCreate(0), "cuStreamCreate")
        ev0 = D.ck(drv.cuEventCreate(0), "cuEventCreate")
        ev1 = D.ck(drv.cuEventCreate(0), "cuEventCreate")

        def tick(buf, count: int, span_ns: int) -> None:
            D.launch(tick_fn, (1, 1, 1), (32, 1, 1), 0, stream,
                     [(buf.address, "uint64"), (count, "uint32"), (span_ns, "uint64")])

        stage("measuring the globaltimer step")
        tick(tick_buf, tick_max, int(req.get("tick_span_ns", 2_000_000)))
        D.ck(drv.cuStreamSynchronize(stream), "cuStreamSynchronize(tick)")
        tick_words = tick_buf.to_host(np.uint64)

        args = [(gbuf.address, "uint64"), (hot.address, "uint64"), (rec.address, "uint64"), (sink.address, "uint64"),
                (int(req.get("seed", 1)) & 0xFFFFFFFF, "uint32"), (0, "uint32"), (1.0001, "float32"), (1e-7, "float32")]
        if iclk is not None:  # the diagnostic kernel's extra, last parameter (codegen.ICLK_PARAM)
            args.append((iclk.address, "uint64"))
        flushes = [0]

        def one(timed: bool, probe_after: bool = False) -> float | None:
            if timed:  # evict the buffers (zeroed or touched by the last launch) from L2...
                flushes[0] += 1
                scratch.fill(flushes[0] & 0xFF, stream)
                if int(req.get("hot_bytes", 0)) > 0:  # ...but for the regions the workload means to hit in L2/L1
                    hot.zero(stream)
            if not req.get("per_warp", True):
                rec.zero(stream)  # per-block records are folded with atomics: start from zero
            if timed:
                D.ck(drv.cuEventRecord(ev0, stream), "cuEventRecord")
            D.launch(fn, grid, block, dyn, stream, args)
            if timed:
                D.ck(drv.cuEventRecord(ev1, stream), "cuEventRecord")
            if probe_after:  # the SM clock right after the recorded launch, before anything else runs
                tick(probe_buf, 16, int(req.get("clock_probe_ns", 200_000)))
            D.ck(drv.cuStreamSynchronize(stream), "kernel run (cuStreamSynchronize)")
            if timed:
                return float(D.ck(drv.cuEventElapsedTime(ev0, ev1), "cuEventElapsedTime"))
            return None

        stage("warm-up")
        warm_seconds = float(req.get("warm_seconds", 0.2))
        t0 = time.perf_counter()
        warm = 0
        while warm < int(req.get("warmup", 1)) or time.perf_counter() - t0 < warm_seconds:
            one(False)
            warm += 1
        out["warm_up"] = {"launches": warm, "ms": (time.perf_counter() - t0) * 1000.0}
        stage("timed runs")
        repeats = max(1, int(req.get("repeats", 5)))
        times = [one(True, probe_after=(i == repeats - 1)) for i in range(repeats)]
        out["event_ms"] = times
        out["kernel_ms"] = statistics.median(times)
        out["l2_flush_bytes"] = flush_bytes
        records = rec.to_host(np.uint64, int(req["records"]) * 8)
        probe_words = probe_buf.to_host(np.uint64)
        extra = {"iteration_clocks": iclk.to_host(np.uint64, iclk_words)} if iclk is not None else {}

        seconds = float(req.get("nvml_seconds", 0))
        if seconds > 0:
            stage(f"NVML window ({seconds:g} s of back-to-back launches)")
            out["nvml"] = nvml_window(props, seconds, out["kernel_ms"], BatchLauncher(fn, grid, block, dyn, stream,
                                                                                      args), (ev0, ev1))
        else:
            out["nvml"] = {"available": False, "reason": "not requested (nvml_seconds = 0)"}
        D.ck(drv.cuStreamSynchronize(stream), "cuStreamSynchronize")
        for ev in (ev0, ev1):
            drv.cuEventDestroy(ev)
        drv.cuStreamDestroy(stream)
        return out, {"records": records, "tick": tick_words, "clock_probe": probe_words, **extra}
    finally:
        for b in buffers:
            try:
                b.close()
            except Exception:  # noqa: BLE001 - cleanup after a fault must not mask it
                pass
        if module is not None:
            try:
                drv.cuModuleUnload(module)
            except Exception:  # noqa: BLE001
                pass
        try:
            drv.cuDevicePrimaryCtxRelease(dev)
        except Exception:  # noqa: BLE001
            pass


def l2_flush_bytes(props: dict) -> int:
    """Bytes to write so nothing of ours stays in L2: twice its size (a few MB when unknown)."""
    l2 = int(props.get("l2_cache_size") or 0)
    return max(L2_FLUSH_FACTOR * l2, MIN_L2_FLUSH_BYTES)


class BatchLauncher:
    """Back-to-back launches for the NVML window: a CUDA Graph of captured launches, else a Python loop.

    One graph launch runs up to ``GRAPH_MAX_LAUNCHES`` kernels with no host in between;
    without graphs (an old driver) each launch goes through Python (~36 us apiece).
    """

    def __init__(self, fn, grid, block, dyn: int, stream, args):
        from explorer.gpu import driver as D

        self.D, self.fn, self.grid, self.block, self.dyn, self.stream, self.args = D, fn, grid, block, dyn, stream, args
        self.graph = self.exec = None
        self.per_graph = 0
        self.method = "python loop"
        self.reason = ""

    def prepare(self, batch: int) -> None:
        D, drv = self.D, self.D.drv
        n = max(1, min(GRAPH_MAX_LAUNCHES, batch))
        try:
            mode = drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
            D.ck(drv.cuStreamBeginCapture(self.stream, mode), "cuStreamBeginCapture")
            try:
                for _ in range(n):
                    D.launch(self.fn, self.grid, self.block, self.dyn, self.stream, self.args)
            finally:
                self.graph = D.ck(drv.cuStreamEndCapture(self.stream), "cuStreamEndCapture")
            self.exec = D.ck(drv.cuGraphInstantiate(self.graph, 0), "cuGraphInstantiate")
            self.per_graph = n
            self.method = f"CUDA graph of {n} launches"
        except Exception as exc:  # noqa: BLE001 - fall back to launching from Python
            self.reason = f"{type(exc).__name__}: {exc}"
            self.close()

    def __call__(self, n: int, ev) -> int:
        """Queue about ``n`` launches, then record ``ev``; returns how many were queued."""
        D, drv = self.D, self.D.drv
        if self.exec is not None:
            graphs = max(1, round(n / self.per_graph))
            for _ in range(graphs):
                D.ck(drv.cuGraphLaunch(self.exec, self.stream), "cuGraphLaunch")
            queued = graphs * self.per_graph
        else:
            for _ in range(n):
                D.launch(self.fn, self.grid, self.block, self.dyn, self.stream, self.args)
            queued = n
        D.ck(drv.cuEventRecord(ev, self.stream), "cuEventRecord")
        return queued

    def close(self) -> None:
        drv = self.D.drv
        if self.exec is not None:
            drv.cuGraphExecDestroy(self.exec)
        if self.graph is not None:
            drv.cuGraphDestroy(self.graph)
        self.exec = self.graph = None


def _nvml_handle(pynvml, props: dict):
    bus = props.get("pci_bus_id")
    if bus:
        try:
            return pynvml.nvmlDeviceGetHandleByPciBusId(bus.encode())
        except Exception:  # noqa: BLE001 - fall through to the UUID
            pass
    uuid = props.get("uuid")
    if uuid:
        try:
            return pynvml.nvmlDeviceGetHandleByUUID(uuid.encode())
        except Exception:  # noqa: BLE001
            pass
    if pynvml.nvmlDeviceGetCount() == 1:
        return pynvml.nvmlDeviceGetHandleByIndex(0)
    raise RuntimeError("cannot match the CUDA device to an NVML device")


def nvml_window(props: dict, seconds: float, kernel_ms: float, launcher: "BatchLauncher", events) -> dict:
    """Launch the kernel back to back for ``seconds`` while NVML samples utilization (and GPM where supported)."""
    from explorer.gpu import driver as D

    def wait(ev):
        D.ck(D.drv.cuEventSynchronize(ev), "cuEventSynchronize")

    try:
        import pynvml
    except ImportError:
        return {"available": False, "reason": "nvidia-ml-py is not installed"}
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # noqa: BLE001
        return {"available": False, "reason": f"nvmlInit failed: {exc}"}
    result: dict = {"available": True, "window_s": seconds}
    try:
        h = _nvml_handle(pynvml, props)
        try:
            v = pynvml.nvmlSystemGetDriverVersion()
            result["driver"] = v.decode() if isinstance(v, bytes) else str(v)
        except Exception:  # noqa: BLE001
            pass
        gpm = _gpm_start(pynvml, h)
        polled: list = []
        stop = threading.Event()

        def sampler():
            t0 = time.perf_counter()
            while not stop.is_set():
                try:
                    u = pynvml.nvmlDeviceGetUtilizationRates(h)
                    clk = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)
                    polled.append((time.perf_counter() - t0, int(u.gpu), int(u.memory), int(clk)))
                except Exception:  # noqa: BLE001 - a failed poll is just a missing sample
                    pass
                stop.wait(0.02)

        start_us = int(time.time() * 1e6)
        thread = threading.Thread(target=sampler, daemon=True)
        thread.start()
        batch = max(1, min(20000, int(20.0 / max(kernel_ms, 1e-4))))  # ~20 ms of kernels per batch
        launcher.prepare(batch)
        result["launch_method"] = launcher.method
        if launcher.reason:
            result["graph_error"] = launcher.reason
        launches = 0
        t0 = time.perf_counter()
        k = 0
        pending = None
        while time.perf_counter() - t0 < seconds:
            ev = events[k % 2]
            launches += launcher(batch, ev)
            if pending is not None:
                wait(pending)
            pending = ev
            k += 1
        if pending is not None:
            wait(pending)
        elapsed = time.perf_counter() - t0
        stop.set()
        thread.join(timeout=2)
        result["launches"] = launches
        result["elapsed_s"] = elapsed
        result["kernel_busy_fraction"] = min(1.0, launches * kernel_ms / 1000.0 / elapsed) if elapsed else None
        result["polled"] = polled
        # the driver's own sample buffer: utilization per sample period, with timestamps
        try:
            _, samples = pynvml.nvmlDeviceGetSamples(h, pynvml.NVML_GPU_UTILIZATION_SAMPLES, start_us)
            result["samples"] = [(int(s.timeStamp), int(s.sampleValue.uiVal)) for s in samples]
        except Exception as exc:  # noqa: BLE001
            result["samples_error"] = str(exc)
        values = [s[1] for s in result.get("samples", []) if s[0] >= start_us]
        if not values:  # polled values after the first 0.3 s (NVML averages over its sample period)
            values = [p[1] for p in polled if p[0] >= min(0.3, seconds / 2)]
        result["utilization_gpu_mean"] = float(np.mean(values)) if values else None
        clocks = [p[3] for p in polled]
        result["sm_clock_mhz_median"] = float(np.median(clocks)) if clocks else None
        result["gpm"] = _gpm_finish(pynvml, h, gpm)
    except Exception as exc:  # noqa: BLE001 - NVML is optional: report, do not fail the measurement
        result["available"] = False
        result["reason"] = f"{type(exc).__name__}: {exc}"
    finally:
        launcher.close()
        try:
            pynvml.nvmlShutdown()
        except Exception:  # noqa: BLE001
            pass
    return result


def _gpm_start(pynvml, h):
    try:
        support = pynvml.nvmlGpmQueryDeviceSupport(h)
        if not support.isSupportedDevice:
            return {"reason": "GPM is not supported on this GPU (Hopper and newer)"}
        s1 = pynvml.nvmlGpmSampleAlloc()
        s2 = pynvml.nvmlGpmSampleAlloc()
        pynvml.nvmlGpmSampleGet(h, s1)
        return {"s1": s1, "s2": s2}
    except Exception as exc:  # noqa: BLE001
        return {"reason": f"GPM unavailable: {type(exc).__name__}: {exc}"}


def _gpm_finish(pynvml, h, gpm: dict) -> dict:
    if "s1" not in gpm:
        return {"available": False, "reason": gpm.get("reason", "?")}
    out: dict = {"available": True}
    try:
        pynvml.nvmlGpmSampleGet(h, gpm["s2"])
        wanted = {"sm_util": pynvml.NVML_GPM_METRIC_SM_UTIL, "sm_occupancy": pynvml.NVML_GPM_METRIC_SM_OCCUPANCY}
        mg = pynvml.c_nvmlGpmMetricsGet_t()
        mg.version = pynvml.NVML_GPM_METRICS_GET_VERSION
        mg.numMetrics = len(wanted)
        mg.sample1 = gpm["s1"]
        mg.sample2 = gpm["s2"]
        for i, metric in enumerate(wanted.values()):
            mg.metrics[i].metricId = metric
        pynvml.nvmlGpmMetricsGet(mg)
        for i, key in enumerate(wanted):
            if int(mg.metrics[i].nvmlReturn) == 0:
                out[key] = float(mg.metrics[i].value)
            else:
                out[f"{key}_error"] = int(mg.metrics[i].nvmlReturn)
    except Exception as exc:  # noqa: BLE001
        out = {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    finally:
        for key in ("s1", "s2"):
            try:
                pynvml.nvmlGpmSampleFree(gpm[key])
            except Exception:  # noqa: BLE001
                pass
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        sys.stderr.write("usage: python -m explorer.gpu.worker REQUEST.json OUT.npz\n")
        return 2
    req_path, out_path = argv
    die_with_parent()
    result: dict = {"ok": False}
    code = 1
    try:
        req = json.loads(Path(req_path).read_text(encoding="utf-8"))
        info, arrays = run(req)
        np.savez(out_path, **arrays)
        result.update(info)
        result["ok"] = True
        code = 0
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
        from explorer.toolchain.errors import GpuRunError, GpuUnavailable

        if isinstance(exc, (GpuRunError, GpuUnavailable)):
            result["error"] = str(exc)
        else:
            result["error"] = f"{type(exc).__name__}: {exc}"
        result["unavailable"] = isinstance(exc, GpuUnavailable)
    from explorer.model.atomic import atomic_write_text

    atomic_write_text(out_path + ".json", json.dumps(result, default=str))  # its presence means "finished"
    return code


if __name__ == "__main__":
    sys.exit(main())
