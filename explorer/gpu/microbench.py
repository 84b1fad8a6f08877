"""The microbenchmarks: the hardware's facts (latencies, bandwidths, FFMA, launch costs, NVML) measured on the GPU.

``warp-explorer microbench`` (and ``scripts/device_check.py``, which runs it) compiles
``resources/microbench/microbench.cu`` for the GPU it finds, runs it in a child process
(``python -m explorer.gpu.microbench REQUEST.json OUT.npz``: a hung or faulting kernel
stays there, and is killed with it) and writes two files:

- ``microbench.json``: everything measured, every repetition, with how;
- ``<GPU>.toml``: the catalog fragment (:mod:`explorer.model.measured`), merged over the
  shipped ``resources/measured/<GPU>.toml`` so a figure this run did not take keeps its
  earlier value and source. Copy it there (or ``scripts/device_check.py --adopt``).

What is measured (the methods of the shared H200 run's ``MICROBENCH.md``, as the project's
own code; each figure's source says how it was taken):

- latency, one thread, a dependent pointer chase over a random cycle of 128 B lines
  (``mb_chain`` builds it on the GPU): L1 hit (8 KiB, after a warm-up pass), shared memory
  (4 KiB), L2 hit with L1 bypassed (``ld.global.cg``, 1 MiB), L2 hit through L1 (1, 8 and
  32 MiB), DRAM (256 MiB and 2 GiB, L2 flushed, each repetition starting elsewhere in the
  cycle); dependent FFMA. Cycles per load by ``clock64``; 16 loads per loop trip, so the
  loop's own instructions hide behind the loads (MICROBENCH.md's figures include ~4-6
  cycles of loop);
- the loaded-latency curve: W = 1..48 warps on every SM (dynamic shared memory makes exactly
  W / 32 blocks fit, the driver's occupancy API and each warp's ``%smid`` confirm it), each
  warp one coalesced 512 B load in flight (the next address adds the loaded zero): latency
  by ``clock64`` (median over warps), bandwidth = bytes over event time; from a 2 GiB array
  (DRAM, L2 flushed) and a 16 MiB one (L2), plain ``ld`` and ``ld.global.cg``;
- bandwidth: DRAM read, write and copy (2 GiB, float4 grid-stride, 1,056 blocks of 512 on an
  H200), L2 read with L1 bypassed (4, 16, 32 MiB, 64 passes); FFMA rate (8 chains per thread);
- launches: one launch call from Python, launch + synchronize, a CUDA Graph of 1,000 empty
  kernels (per node), and, queued behind a "gate" kernel so the host's own pace cannot
  show, empty kernels and 1,000 kernels spinning 5 us (the gap between them: event period
  less each kernel's own span, which the kernels record by ``%globaltimer``);
- NVML ``utilization.gpu`` (polled every 50 ms) at idle, with one warp spinning 1.2 s, and
  with 200 us of full-GPU work every 1 ms for 1.2 s.

Budget: the groups run in that order, each only when the time left (``budget_s``) holds
its estimate (:data:`GROUP_SECONDS`); partial results are written after every group, so a
run stopped by its time limit still yields what it measured. An estimated 15-30 s on an
H200 (not yet timed on a GPU; the NVML windows alone are ~7 s).
Device memory is planned before any work (:func:`plan_sizes`): about 4.2 GiB on a large
GPU, less (the biggest working sets dropped) on a small one, refused below 1 GiB free.

Worker imports: numpy, cuda-bindings, optionally nvidia-ml-py; no Qt, numba or simulator.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import date as _date
from pathlib import Path
from typing import Callable

CUDA_SOURCE = ("microbench", "microbench.cu")  # under resources/
FORMAT = 1  # of microbench.json

# Every kernel's parameters, in order (tests/gpu/test_microbench.py checks them against the .cu).
KERNELS: dict[str, tuple[str, ...]] = {
    "mb_clock": ("u64", "ptr"),
    "mb_chain": ("ptr", "u32", "u32", "u64"),
    "mb_touch": ("ptr", "u64", "u32", "ptr"),
    "mb_chase": ("ptr", "u32", "u32", "u64", "u64", "u32", "u32", "ptr"),
    "mb_chase_cg": ("ptr", "u32", "u32", "u64", "u64", "u32", "u32", "ptr"),
    "mb_chase_shared": ("u32", "u64", "u32", "ptr"),
    "mb_ffma_dep": ("f32", "f32", "u32", "ptr"),
    "mb_ffma_rate": ("f32", "f32", "u32", "ptr"),
    "mb_read": ("ptr", "u64", "ptr"),
    "mb_write": ("ptr", "u64", "f32"),
    "mb_copy": ("ptr", "ptr", "u64"),
    "mb_read_l2": ("ptr", "u64", "u32", "ptr"),
    "mb_loaded": ("ptr", "u64", "u32", "ptr"),
    "mb_loaded_cg": ("ptr", "u64", "u32", "ptr"),
    "mb_spin": ("u64", "ptr", "u32"),
    "mb_empty": (),
}
ARG_DTYPES = {"ptr": "uint64", "u64": "uint64", "u32": "uint32", "f32": "float32"}

GROUPS = ("latency", "loaded", "bandwidth", "ffma", "launch", "nvml")
# seconds a group may take on a large GPU (an H200 needs about half): a group starts only when this fits
GROUP_SECONDS = {"latency": 6, "loaded": 8, "bandwidth": 5, "ffma": 3, "launch": 8, "nvml": 9}
STARTUP_SECONDS = 30  # the child's start, the driver's initialisation and the memory plan, before the groups

REPEATS = 5  # per figure; the median is the figure
SEED = 0x5EED
LINE = 128  # bytes per line of a pointer chain
CHASE_STEPS = 4096  # timed loads per chase (an L1-hit chase: 160 k cycles)
L1_SET = 8 << 10
SHARED_SLOTS_LOG2 = 10  # 1,024 slots of 4 B: 4 KiB of shared memory
L2_BYPASS_SET = 1 << 20
L2_SETS = {"l2_hit_1mib": 1 << 20, "l2_hit_8mib": 8 << 20, "l2_hit_32mib": 32 << 20}
DRAM_SETS = {"dram_256mib": 256 << 20, "dram_2gib": 2 << 30}
FFMA_DEP_TRIPS = 256  # x 64 dependent FMAs
FFMA_RATE_TRIPS = 1000  # x 128 FMAs per thread (16 blocks of 256 per SM: ~2 ms on an H200)
LOADED_WARPS = (1, 2, 4, 8, 12, 16, 24, 32, 48)
LOADED_DRAM = 2 << 30
LOADED_L2 = 16 << 20
LOADED_ITERS = 256  # loads per warp: at 48 warps x 132 SMs, 830 MB of a 2 GiB array, read once
WARP_LOAD = 512  # bytes per warp load: 32 lanes x float4
BW_BYTES = 2 << 30
BW_BLOCKS_PER_SM, BW_THREADS = 8, 512
L2_BW_SETS = {"l2_read_4mib": 4 << 20, "l2_read_16mib": 16 << 20, "l2_read_32mib": 32 << 20}
L2_BW_PASSES, L2_BW_BLOCKS_PER_SM = 64, 4
LAUNCH_CALLS = 2000  # empty kernels launched back to back from Python
LAUNCH_SYNCS = 300  # launch + synchronize round trips
GRAPH_NODES = 1000
# empty or 5 us kernels queued behind the gate: all must be queued before the gate ends. A stream's
# launch queue is finite (a launch that finds it full waits), so this stays modest; host_kept_ahead
# records whether the host did keep ahead, and a figure for which it did not is not written
QUEUED_KERNELS = 500
SPIN_NS, SPIN_THREADS = 5000, 128
GATE_MIN_NS = 20_000_000  # the gate kernel spins at least this long while the host queues
CLOCK_SPAN_NS = 20_000_000
NVML_POLL_S, NVML_QUIET_S, NVML_WINDOW_S, NVML_SKIP_S = 0.05, 1.0, 1.2, 0.4
DUTY_PERIOD_S, DUTY_BUSY_NS, DUTY_BLOCKS_PER_SM = 1e-3, 200_000, 4
MIN_FREE_BYTES = 1 << 30  # below this much free device memory the run is refused before any work


# -- pure helpers (tested without a GPU) --------------------------------------------------------
def pow2_floor(n: int) -> int:
    return 1 << (max(int(n), 1).bit_length() - 1)


def plan_sizes(free_bytes: int, l2_bytes: int, flush_bytes: int) -> dict:
    """The working sets this GPU can take: DRAM sets within free memory, L2 sets within half the L2.

    The largest allocation is the copy's two buffers (2 x ``bw``) beside the L2 flush buffer;
    every other group uses at most one buffer of ``big`` bytes. Raises ValueError when less
    than :data:`MIN_FREE_BYTES` is free.
    """
    usable = int(free_bytes * 0.85) - flush_bytes - (64 << 20)
    if free_bytes < MIN_FREE_BYTES or usable < (512 << 20):
        raise ValueError(f"the microbenchmarks need at least {MIN_FREE_BYTES / 2**30:.0f} GiB of free device memory "
                         f"(and the {flush_bytes / 2**20:.0f} MiB L2 flush buffer); {free_bytes / 2**30:.2f} GiB "
                         "are free")
    big = min(BW_BYTES, pow2_floor(usable // 2))
    l2_cap = max(l2_bytes * 3 // 5, 1 << 20) if l2_bytes else 1 << 20
    return {
        "bw_bytes": big,
        "dram_sets": {k: v for k, v in DRAM_SETS.items() if v <= 2 * big and v >= 4 * max(l2_bytes, 1)},
        "loaded_dram": min(LOADED_DRAM, 2 * big),
        "l2_sets": {k: v for k, v in L2_SETS.items() if v <= l2_cap},
        "l2_bypass_set": min(L2_BYPASS_SET, l2_cap),
        "loaded_l2": min(LOADED_L2, pow2_floor(l2_cap)),
        "l2_bw_sets": {k: v for k, v in L2_BW_SETS.items() if v <= l2_cap},
        "device_bytes": 2 * big + flush_bytes,
    }


def shared_pad(shared_per_sm: int, reserved_per_block: int, optin_per_block: int, blocks: int,
               unit: int = 128) -> int | None:
    """Dynamic shared memory per block so that exactly ``blocks`` blocks fit on an SM (None if none does).

    (blocks + 1) x (pad + reserved) must exceed the SM's shared memory, blocks x (pad +
    reserved) must not, and the pad must be within the opt-in limit.
    """
    pad = shared_per_sm // (blocks + 1) - reserved_per_block + 1
    pad = -(-pad // unit) * unit
    if blocks * (pad + reserved_per_block) > shared_per_sm or pad > optin_per_block or pad < 0:
        return None
    return pad


def median(values) -> float:
    return float(statistics.median(values))


def spread(values) -> dict:
    values = [float(v) for v in values]
    return {"median": median(values), "min": min(values), "max": max(values), "samples": values}


def stage(text: str) -> None:
    sys.stderr.write(f"stage: {text}\n")
    sys.stderr.flush()


def driver_version_text() -> str:
    """The kernel driver's version (``580.159.04``) from NVML or /proc, else ''."""
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            v = pynvml.nvmlSystemGetDriverVersion()
            return v.decode() if isinstance(v, bytes) else str(v)
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - NVML is optional
        pass
    try:
        with open("/proc/driver/nvidia/version", encoding="utf-8", errors="replace") as fh:
            text = fh.read(4096)
        import re

        m = re.search(r"Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)", text)
        return m.group(1) if m else ""
    except OSError:
        return ""


# -- the child: runs the kernels -----------------------------------------------------------------
class Bench:
    """The kernels, a stream, two events and the buffers of one run; every launch checked against KERNELS."""

    def __init__(self, D, module, props: dict, sizes: dict):
        self.D, self.drv = D, D.drv
        self.props, self.sizes = props, sizes
        self.fn = {name: D.ck(self.drv.cuModuleGetFunction(module, name.encode()), f"cuModuleGetFunction({name})")
                   for name in KERNELS}
        self.stream = D.ck(self.drv.cuStreamCreate(0), "cuStreamCreate")
        self.ev = [D.ck(self.drv.cuEventCreate(0), "cuEventCreate") for _ in range(2)]
        self.sms = int(props.get("multiprocessor_count") or 1)
        self.buffers: list = []
        self.out = self.buffer(64 * 8, "the result words")
        self.sink = self.buffer(256, "the sink")
        from explorer.gpu.worker import l2_flush_bytes

        self.scratch = self.buffer(l2_flush_bytes(props), "the L2 flush buffer")
        for b in self.buffers:
            b.zero()
        self.base_buffers = len(self.buffers)  # the ones every group shares
        self.flushes = 0
        self.clocks: list[tuple[str, float]] = []

    # plumbing
    def buffer(self, nbytes: int, what: str):
        b = self.D.Buffer(nbytes, what)
        self.buffers.append(b)
        return b

    def release(self, *buffers) -> None:
        self.sync()
        for b in buffers:
            b.close()
            self.buffers.remove(b)

    def release_group_buffers(self) -> None:
        """Free what a failed group left allocated (the next group needs the memory)."""
        for b in self.buffers[self.base_buffers:]:
            try:
                b.close()
            except Exception:  # noqa: BLE001 - cleanup after a failure must not mask it
                pass
        del self.buffers[self.base_buffers:]

    def close(self) -> None:
        for b in self.buffers:
            try:
                b.close()
            except Exception:  # noqa: BLE001 - cleanup after a fault must not mask it
                pass
        for ev in self.ev:
            self.drv.cuEventDestroy(ev)
        self.drv.cuStreamDestroy(self.stream)

    def launch(self, name: str, grid, block, args=(), shared: int = 0) -> None:
        types = KERNELS[name]
        if len(args) != len(types):
            raise ValueError(f"{name} takes {len(types)} arguments, {len(args)} given")
        packed = [(a.address if isinstance(a, self.D.Buffer) else a, ARG_DTYPES[t]) for a, t in zip(args, types)]
        grid = (int(grid), 1, 1) if isinstance(grid, int) else tuple(grid)
        block = (int(block), 1, 1) if isinstance(block, int) else tuple(block)
        self.D.launch(self.fn[name], grid, block, shared, self.stream, packed)

    def sync(self, what: str = "cuStreamSynchronize") -> None:
        self.D.ck(self.drv.cuStreamSynchronize(self.stream), what)

    def record(self, i: int) -> None:
        self.D.ck(self.drv.cuEventRecord(self.ev[i], self.stream), "cuEventRecord")

    def elapsed_ms(self) -> float:
        self.sync()
        return float(self.D.ck(self.drv.cuEventElapsedTime(self.ev[0], self.ev[1]), "cuEventElapsedTime"))

    def timed_ms(self, name: str, grid, block, args=(), shared: int = 0) -> float:
        self.record(0)
        self.launch(name, grid, block, args, shared)
        self.record(1)
        return self.elapsed_ms()

    def flush_l2(self) -> None:
        self.flushes += 1
        self.scratch.fill(self.flushes & 0xFF, self.stream)

    def touch(self, buf, nbytes: int) -> None:
        """Read every 32 B sector of ``nbytes`` (L2 only): a set that fits is then in L2."""
        self.launch("mb_touch", self.sms * 4, 256, (buf, nbytes // 8, 4, self.sink))

    def words(self, n: int):
        import numpy as np

        self.sync()
        return self.out.to_host(np.uint64, n)

    def clock_mhz(self, when: str) -> float:
        self.out.fill(0, self.stream)
        self.launch("mb_clock", 1, 32, (CLOCK_SPAN_NS, self.out))
        w = self.words(3)
        mhz = float(w[1]) / float(w[0]) * 1000.0 if int(w[0]) > 0 else float("nan")
        self.clocks.append((when, mhz))
        return mhz

    def set_max_shared(self, name: str, nbytes: int) -> None:
        self.D.set_func_attr(self.fn[name], "MAX_DYNAMIC_SHARED_SIZE_BYTES", nbytes)

    def blocks_per_sm(self, name: str, threads: int, shared: int) -> int:
        return int(self.D.ck(self.drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(self.fn[name], threads, shared),
                             "cuOccupancyMaxActiveBlocksPerMultiprocessor"))

    # -- the groups ------------------------------------------------------------------------
    def latency(self) -> dict:
        s = self.sizes
        biggest = max([L1_SET, s["l2_bypass_set"], *s["l2_sets"].values(), *s["dram_sets"].values()])
        buf = self.buffer(biggest, "the pointer-chase buffer")
        out: dict = {}

        def chase(kernel: str, nbytes: int, *, warm: bool = False, touch: bool = False, flush: bool = False,
                  vary_start: bool = False) -> dict:
            bits = (nbytes // LINE).bit_length() - 1
            lines = 1 << bits
            self.launch("mb_chain", self.sms * 8, 256, (buf, bits, LINE // 8, SEED))
            if touch:
                self.touch(buf, nbytes)
            values, loads = [], 0
            for r in range(REPEATS):
                if flush:
                    self.flush_l2()
                first = r * 3 * CHASE_STEPS if vary_start else 0
                self.out.fill(0, self.stream)
                self.launch(kernel, 1, 1, (buf, bits, LINE // 8, SEED, first, lines if warm else 0, CHASE_STEPS,
                                           self.out))
                w = self.words(4)
                loads = int(w[1])
                values.append(float(w[0]) / max(loads, 1))
            return {**spread(values), "working_set_bytes": nbytes, "lines": lines, "loads": loads,
                    "warm_up_loads": lines if warm else 0, "l2_flushed": flush, "kernel": kernel}

        stage("latency: L1 hit")
        out["l1_hit"] = chase("mb_chase", L1_SET, warm=True)
        stage("latency: shared memory")
        values = []
        for _ in range(REPEATS):
            self.out.fill(0, self.stream)
            self.launch("mb_chase_shared", 1, 1, (SHARED_SLOTS_LOG2, SEED, CHASE_STEPS, self.out))
            w = self.words(4)
            values.append(float(w[0]) / max(int(w[1]), 1))
        out["shared"] = {**spread(values), "working_set_bytes": 4 << SHARED_SLOTS_LOG2, "loads": int(w[1])}
        stage("latency: L2 hit, L1 bypassed")
        out["l2_hit_bypass_l1"] = chase("mb_chase_cg", s["l2_bypass_set"], touch=True)
        for key, nbytes in s["l2_sets"].items():
            stage(f"latency: L2 hit through L1, {nbytes >> 20} MiB")
            out[key] = chase("mb_chase", nbytes, touch=True)
        for key, nbytes in s["dram_sets"].items():
            stage(f"latency: DRAM, {nbytes >> 20} MiB")
            out[key] = chase("mb_chase", nbytes, flush=True, vary_start=True)
        self.release(buf)
        stage("latency: dependent FFMA")
        values = []
        for _ in range(REPEATS):
            self.out.fill(0, self.stream)
            self.launch("mb_ffma_dep", 1, 32, (1.0001, 1e-7, FFMA_DEP_TRIPS, self.out))
            w = self.words(4)
            values.append(float(w[0]) / max(int(w[1]), 1))
        out["ffma_dependent"] = {**spread(values), "fmas": int(w[1])}
        return out

    def loaded(self) -> dict:
        import numpy as np

        s = self.sizes
        props = self.props
        max_warps = int(props.get("max_threads_per_multiprocessor") or 2048) // 32
        arr = self.buffer(s["loaded_dram"], "the loaded-latency array")
        arr.zero()
        rec = self.buffer(self.sms * max_warps * 32, "the per-warp records")
        shared_sm = int(props.get("max_shared_memory_per_multiprocessor") or 0)
        reserved = int(props.get("reserved_shared_memory_per_block") or 0)
        optin = int(props.get("max_shared_memory_per_block_optin") or 0)
        points = []
        for warps_per_sm in LOADED_WARPS:
            if warps_per_sm > max_warps:
                continue
            blocks = -(-warps_per_sm // 32)
            if warps_per_sm % blocks:
                continue
            threads = warps_per_sm // blocks * 32
            pad = shared_pad(shared_sm, reserved, optin, blocks) if shared_sm else None
            point: dict = {"warps_per_sm": warps_per_sm, "blocks_per_sm": blocks, "threads_per_block": threads,
                           "dynamic_shared_bytes": pad or 0}
            for kernel in ("mb_loaded", "mb_loaded_cg"):
                if pad:
                    self.set_max_shared(kernel, pad)
            point["driver_blocks_per_sm"] = self.blocks_per_sm("mb_loaded", threads, pad or 0)
            warps = self.sms * warps_per_sm
            for kind, kernel, nbytes in (("dram", "mb_loaded", s["loaded_dram"]), ("l2", "mb_loaded", s["loaded_l2"]),
                                         ("l2_bypass_l1", "mb_loaded_cg", s["loaded_l2"])):
                stage(f"loaded latency: {warps_per_sm} warps per SM, {kind}")
                if kind != "dram":
                    self.touch(arr, nbytes)
                lat, gbs, seen = [], [], (0, 0)
                for _ in range(REPEATS):
                    if kind == "dram":
                        self.flush_l2()
                    rec.fill(0, self.stream)
                    ms = self.timed_ms(kernel, self.sms * blocks, threads, (arr, nbytes // WARP_LOAD - 1, LOADED_ITERS,
                                                                           rec), shared=pad or 0)
                    words = rec.to_host(np.uint64, warps * 4).reshape(warps, 4)
                    lat.append(float(np.median(words[:, 0] / np.maximum(words[:, 1], 1))))
                    gbs.append(warps * LOADED_ITERS * WARP_LOAD / (ms * 1e-3) / 1e9)
                    per_sm = np.bincount((words[:, 2] & 0xFFFFFFFF).astype(np.int64))
                    per_sm = per_sm[per_sm > 0]
                    seen = (int(per_sm.min()), int(per_sm.max())) if len(per_sm) else (0, 0)
                point[kind] = {"cycles": spread(lat), "gbs": spread(gbs), "array_bytes": nbytes,
                               "warps_per_sm_seen": list(seen)}
            points.append(point)
        self.release(arr, rec)
        return {"points": points, "loads_per_warp": LOADED_ITERS, "bytes_per_load": WARP_LOAD}

    def bandwidth(self) -> dict:
        s = self.sizes
        n = s["bw_bytes"]
        a = self.buffer(n, "the source buffer")
        b = self.buffer(n, "the destination buffer")
        a.zero()
        b.zero()
        grid, block = self.sms * BW_BLOCKS_PER_SM, BW_THREADS
        out: dict = {}

        def rate(name: str, args, nbytes: int, grid_: int, flush: bool) -> dict:
            self.launch(name, grid_, block, args)  # the first launch of a kernel pays for loading it
            values = []
            for _ in range(REPEATS):
                if flush:
                    self.flush_l2()
                values.append(nbytes / (self.timed_ms(name, grid_, block, args) * 1e-3) / 1e9)
            return {**spread(values), "bytes": nbytes, "grid": grid_, "block": block}

        stage("bandwidth: DRAM read, write, copy")
        out["dram_read"] = rate("mb_read", (a, n // 16, self.sink), n, grid, True)
        out["dram_write"] = rate("mb_write", (b, n // 16, 0.0), n, grid, True)
        out["dram_copy"] = rate("mb_copy", (a, b, n // 16), 2 * n, grid, True)
        for key, nbytes in s["l2_bw_sets"].items():
            stage(f"bandwidth: L2 read, {nbytes >> 20} MiB")
            self.touch(a, nbytes)
            out[key] = rate("mb_read_l2", (a, nbytes // 16, L2_BW_PASSES, self.sink), nbytes * L2_BW_PASSES,
                            self.sms * L2_BW_BLOCKS_PER_SM, False)
            out[key]["buffer_bytes"] = nbytes
        self.release(a, b)
        out["clock_mhz"] = self.clock_mhz("after bandwidth")
        return out

    def ffma(self) -> dict:
        grid, block = self.sms * 16, 256
        args = (0.9999, 1e-4, FFMA_RATE_TRIPS, self.sink)
        self.launch("mb_ffma_rate", grid, block, args)
        stage("FFMA rate")
        ms = [self.timed_ms("mb_ffma_rate", grid, block, args) for _ in range(REPEATS)]
        mhz = self.clock_mhz("after FFMA")
        fmas = 128 * FFMA_RATE_TRIPS * grid * block
        tflops = [2 * fmas / (t * 1e-3) / 1e12 for t in ms]
        per_clk = [fmas / (t * 1e-3) / (mhz * 1e6) / self.sms for t in ms]
        return {"tflops": spread(tflops), "per_clk_per_sm": spread(per_clk), "fmas": fmas, "grid": grid,
                "block": block, "clock_mhz": mhz}

    def _gate(self, ns: int) -> None:
        self.launch("mb_spin", 1, 32, (int(ns), 0, 0))

    def launch_costs(self) -> dict:
        import numpy as np

        out: dict = {}
        stage("launches: one call from Python")
        self.launch("mb_empty", 1, 32)
        self.sync()
        t0 = time.perf_counter()
        for _ in range(LAUNCH_CALLS):
            self.launch("mb_empty", 1, 32)
        call_us = (time.perf_counter() - t0) / LAUNCH_CALLS * 1e6
        self.sync()
        out["launch_call_python"] = {"median": call_us, "launches": LAUNCH_CALLS}
        stage("launches: launch + synchronize")
        trips = []
        for _ in range(LAUNCH_SYNCS):
            t0 = time.perf_counter()
            self.launch("mb_empty", 1, 32)
            self.sync()
            trips.append((time.perf_counter() - t0) * 1e6)
        out["launch_sync_python"] = {**spread(trips), "samples": [], "round_trips": LAUNCH_SYNCS}
        stage("launches: a CUDA Graph of empty kernels")
        out["graph_node"] = self._graph()
        gate_ns = max(GATE_MIN_NS, int(3 * call_us * 1000 * QUEUED_KERNELS))
        stage("launches: empty kernels queued behind a gate")
        self._gate(gate_ns)
        self.record(0)
        t0 = time.perf_counter()
        for _ in range(QUEUED_KERNELS):
            self.launch("mb_empty", 1, 32)
        queue_s = time.perf_counter() - t0
        self.record(1)
        out["empty_kernel_queued"] = {"median": self.elapsed_ms() * 1000.0 / QUEUED_KERNELS, "kernels": QUEUED_KERNELS,
                                      "host_queue_s": queue_s, "gate_ns": gate_ns,
                                      "host_kept_ahead": queue_s * 1e9 < 0.8 * gate_ns}
        stage(f"launches: {QUEUED_KERNELS} kernels of {SPIN_NS / 1000:g} us back to back")
        rec = self.buffer(QUEUED_KERNELS * 16, "the launch spans")
        rec.fill(0xFF, self.stream)
        self._gate(gate_ns)
        self.record(0)
        t0 = time.perf_counter()
        for i in range(QUEUED_KERNELS):
            self.launch("mb_spin", self.sms, SPIN_THREADS, (SPIN_NS, rec, i))
        queue_s = time.perf_counter() - t0
        self.record(1)
        period_us = self.elapsed_ms() * 1000.0 / QUEUED_KERNELS
        words = rec.to_host(np.uint64, 2 * QUEUED_KERNELS).reshape(QUEUED_KERNELS, 2)
        self.release(rec)
        starts, ends = words[:, 0].astype(np.int64), (~words[:, 1]).astype(np.int64)
        recorded = bool((words[:, 0] != np.uint64(0xFFFFFFFFFFFFFFFF)).all())
        spans_ns = (ends - starts) if recorded else np.zeros(1, np.int64)
        gaps_ns = (starts[1:] - ends[:-1]) if recorded else np.zeros(1, np.int64)
        span_us = float(np.median(spans_ns)) / 1000.0
        out["back_to_back_5us_kernel"] = {"median": period_us, "kernels": QUEUED_KERNELS, "grid": self.sms,
                                          "block": SPIN_THREADS, "spin_ns": SPIN_NS, "host_queue_s": queue_s,
                                          "gate_ns": gate_ns, "host_kept_ahead": queue_s * 1e9 < 0.8 * gate_ns,
                                          "all_recorded": recorded}
        out["launch_gap"] = {"median": period_us - span_us, "kernel_span_us": span_us,
                             "gap_by_globaltimer_us": spread((gaps_ns / 1000.0).tolist()) if recorded else None,
                             "method": "event period less the median span of one kernel"}
        if out["launch_gap"]["gap_by_globaltimer_us"]:
            out["launch_gap"]["gap_by_globaltimer_us"]["samples"] = []
        return out

    def _graph(self) -> dict:
        D, drv = self.D, self.drv
        mode = drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
        D.ck(drv.cuStreamBeginCapture(self.stream, mode), "cuStreamBeginCapture")
        try:
            for _ in range(GRAPH_NODES):
                self.launch("mb_empty", 1, 32)
        finally:
            graph = D.ck(drv.cuStreamEndCapture(self.stream), "cuStreamEndCapture")
        try:
            exe = D.ck(drv.cuGraphInstantiate(graph, 0), "cuGraphInstantiate")
            try:
                D.ck(drv.cuGraphLaunch(exe, self.stream), "cuGraphLaunch")  # the first launch uploads the graph
                self.sync()
                values = []
                for _ in range(REPEATS):
                    self.record(0)
                    D.ck(drv.cuGraphLaunch(exe, self.stream), "cuGraphLaunch")
                    self.record(1)
                    values.append(self.elapsed_ms() * 1000.0 / GRAPH_NODES)
            finally:
                drv.cuGraphExecDestroy(exe)
        finally:
            drv.cuGraphDestroy(graph)
        return {**spread(values), "nodes": GRAPH_NODES}

    def nvml(self) -> dict:
        try:
            import pynvml
        except ImportError:
            return {"available": False, "reason": "nvidia-ml-py is not installed"}
        from explorer.gpu.worker import _nvml_handle

        try:
            pynvml.nvmlInit()
        except Exception as exc:  # noqa: BLE001
            return {"available": False, "reason": f"nvmlInit failed: {exc}"}
        try:
            h = _nvml_handle(pynvml, self.props)
            polled: list[tuple[float, int]] = []
            stop = threading.Event()

            def poll():
                t0 = time.perf_counter()
                while not stop.is_set():
                    try:
                        polled.append((time.perf_counter() - t0, int(pynvml.nvmlDeviceGetUtilizationRates(h).gpu)))
                    except Exception:  # noqa: BLE001 - a failed poll is a missing sample
                        pass
                    stop.wait(NVML_POLL_S)

            def window(run: Callable[[], None]) -> dict:
                polled.clear()
                stop.clear()
                thread = threading.Thread(target=poll, daemon=True, name="nvml-poll")
                thread.start()
                try:
                    run()
                finally:
                    stop.set()
                    thread.join(timeout=2)
                values = [v for t, v in polled if t >= NVML_SKIP_S]
                return {**spread(values), "polled": len(polled)} if values else {"samples": [], "polled": len(polled)}

            out: dict = {"available": True, "poll_s": NVML_POLL_S, "skip_s": NVML_SKIP_S}
            stage("NVML: idle")
            self.sync()
            time.sleep(NVML_QUIET_S)
            out["idle"] = window(lambda: time.sleep(NVML_WINDOW_S))
            stage("NVML: one warp spinning 1.2 s")

            def one_warp():
                self.launch("mb_spin", 1, 32, (int(NVML_WINDOW_S * 1e9), 0, 0))
                self.sync()

            out["one_warp"] = window(one_warp)
            time.sleep(NVML_QUIET_S)
            stage("NVML: 200 us of work every 1 ms")

            def duty():
                t0 = time.perf_counter()
                k = 0
                while time.perf_counter() - t0 < NVML_WINDOW_S:
                    # wait for the next period's start: asleep for most of it (a bare spin holds the GIL, and
                    # the NVML polling thread starved: no sample on a loaded host), then a short spin
                    wake = t0 + k * DUTY_PERIOD_S
                    while time.perf_counter() < wake:
                        left = wake - time.perf_counter()
                        if left > 2e-4:
                            time.sleep(left - 1e-4)
                    self.launch("mb_spin", self.sms * DUTY_BLOCKS_PER_SM, 256, (DUTY_BUSY_NS, 0, 0))
                    k += 1
                self.sync()
                out["duty_launches"] = k

            out["duty_20pct"] = window(duty)
            return out
        except Exception as exc:  # noqa: BLE001 - NVML is optional: report, do not fail the run
            return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
        finally:
            try:
                pynvml.nvmlShutdown()
            except Exception:  # noqa: BLE001
                pass


GROUP_METHODS = {"latency": "latency", "loaded": "loaded", "bandwidth": "bandwidth", "ffma": "ffma",
                 "launch": "launch_costs", "nvml": "nvml"}
STICKY = ("ILLEGAL_ADDRESS", "LAUNCH_FAILED", "ILLEGAL_INSTRUCTION", "MISALIGNED", "HARDWARE_STACK", "ECC",
          "CONTEXT_IS_DESTROYED", "ASSERT")


def run(req: dict, partial: Path | None = None) -> dict:
    """Run the groups of ``req`` on the GPU; the results (see the module docstring)."""
    import numpy as np

    from explorer.model.atomic import atomic_write_text
    from explorer.gpu import driver as D
    from explorer.gpu.worker import l2_flush_bytes

    started = time.monotonic()
    budget = float(req.get("budget_s", 150))
    drv = D.drv
    stage("initialising the driver")
    D.ck(drv.cuInit(0), "cuInit")
    version = int(D.ck(drv.cuDriverGetVersion(), "cuDriverGetVersion"))
    dev = D.ck(drv.cuDeviceGet(int(req.get("ordinal", 0))), "cuDeviceGet")
    props = D.device_properties(dev)
    results: dict = {"format": FORMAT, "tool": "explorer.gpu.microbench", "date": req.get("date") or
                     _date.today().isoformat(), "device": props, "driver_version": version,
                     "cuda": f"{version // 1000}.{version % 1000 // 10}", "driver": driver_version_text(),
                     "compiler": req.get("compiler", ""), "arch": req.get("arch", ""), "budget_s": budget,
                     "groups": {}, "skipped": {}, "errors": {}, "seconds": {}, "warnings": [], "clock_mhz": []}
    cc = props.get("compute_capability", "?")
    if req.get("arch") and req["arch"].rstrip("af") != f"sm_{cc.replace('.', '')}":
        raise D.GpuRunError(f"the microbenchmarks were compiled for {req['arch']} but the device is CC {cc}")
    ctx = D.ck(drv.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    module = bench = None

    def save() -> None:
        if partial is not None:
            atomic_write_text(partial, json.dumps(results, default=str))

    try:
        D.ck(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        free, total = D.ck(drv.cuMemGetInfo(), "cuMemGetInfo")
        results["memory_free_bytes"] = int(free)
        try:
            sizes = plan_sizes(int(free), int(props.get("l2_cache_size") or 0), l2_flush_bytes(props))
        except ValueError as exc:
            raise D.GpuRunError(str(exc)) from None
        results["sizes"] = sizes
        stage("loading the kernels")
        image = np.frombuffer(Path(req["cubin_path"]).read_bytes(), dtype=np.uint8).copy()
        module = D.ck(drv.cuModuleLoadData(image.ctypes.data), "cuModuleLoadData")
        bench = Bench(D, module, props, sizes)
        stage("warming the GPU up")
        bench.launch("mb_spin", bench.sms * 4, 256, (200_000_000, 0, 0))  # 0.2 s: an idle GPU runs at low clocks
        bench.sync()
        bench.clock_mhz("start")
        results["clock_mhz"] = [(w, round(m, 1)) for w, m in bench.clocks]
        save()
        for group in req.get("groups", GROUPS):
            left = budget - (time.monotonic() - started)
            if left < GROUP_SECONDS[group]:
                results["skipped"][group] = (f"not run: {left:.0f} s of the {budget:.0f} s budget were left, it needs "
                                             f"~{GROUP_SECONDS[group]} s")
                stage(f"{group}: skipped ({left:.0f} s left)")
                continue
            t0 = time.monotonic()
            try:
                results["groups"][group] = getattr(bench, GROUP_METHODS[group])()
            except (D.GpuRunError, ValueError) as exc:
                results["errors"][group] = str(exc)
                if any(word in str(exc) for word in STICKY):  # the context is gone: nothing after this can run
                    results["warnings"].append(f"{group} failed and left the GPU context unusable; the rest was not run")
                    save()
                    break
                bench.release_group_buffers()
            results["seconds"][group] = round(time.monotonic() - t0, 2)
            try:
                bench.clock_mhz(f"after {group}")
            except D.GpuRunError as exc:
                results["warnings"].append(f"the clock probe after {group} failed: {exc}")
            results["clock_mhz"] = [(w, round(m, 1)) for w, m in bench.clocks]
            save()
        results["seconds"]["total"] = round(time.monotonic() - started, 2)
        return results
    finally:
        if bench is not None:
            try:
                bench.close()
            except Exception:  # noqa: BLE001
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


def main(argv: list[str] | None = None) -> int:
    """``python -m explorer.gpu.microbench REQUEST.json OUT.npz``: the child process (see :func:`run`)."""
    import numpy as np

    from explorer.model.atomic import atomic_write_text
    from explorer.toolchain.sandbox import die_with_parent

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        sys.stderr.write("usage: python -m explorer.gpu.microbench REQUEST.json OUT.npz\n")
        return 2
    req_path, out_path = argv
    die_with_parent()
    info: dict = {"ok": False}
    code = 1
    try:
        req = json.loads(Path(req_path).read_text(encoding="utf-8"))
        info.update(run(req, Path(out_path).with_name("partial.json")))
        np.savez(out_path, format=np.array([FORMAT]))
        info["ok"] = True
        code = 0
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
        from explorer.toolchain.errors import GpuRunError, GpuUnavailable

        info["error"] = str(exc) if isinstance(exc, (GpuRunError, GpuUnavailable)) else f"{type(exc).__name__}: {exc}"
        info["unavailable"] = isinstance(exc, GpuUnavailable)
    atomic_write_text(out_path + ".json", json.dumps(info, default=str))  # its presence means "finished"
    return code


# -- the parent: compile, run the child, write the files ----------------------------------------
@dataclass
class MicrobenchOptions:
    budget_s: float = 150.0  # the groups' own time: one that would not fit in what is left is skipped
    groups: tuple[str, ...] = GROUPS
    ordinal: int = 0
    probe_timeout: float = 20.0
    date: str | None = None  # default: today
    timeout_s: float | None = None  # the child is stopped after this (default: budget_s + STARTUP_SECONDS)


@dataclass
class MicrobenchRun:
    results: dict
    gpu: str  # the catalog name (or a slug of the device's name when the catalog lacks it)
    fragment: dict  # this run's figures only (merge_fragments puts them over an earlier file)
    stopped: str = ""  # why the child was stopped, when it was
    notes: list[str] = field(default_factory=list)


def run_microbenchmarks(options: MicrobenchOptions | None = None, *, progress: Callable[[str], None] | None = None,
                        cancel: Callable[[], bool] | None = None) -> MicrobenchRun:
    """Compile, run in a child with ``budget_s`` (+ start-up) as its time limit, and build the fragment."""
    from explorer.model.atomic import atomic_write_bytes
    from explorer.toolchain.compiler import compile_source
    from explorer.toolchain.errors import GpuRunError
    from explorer.toolchain.folders import private_tempdir
    from explorer.gpu.measure import match_catalog_gpu, run_worker
    from explorer.toolchain.names import slug
    from explorer.gpu.probe import require_gpu
    from explorer.paths import resource

    options = options or MicrobenchOptions()
    _probe, device = require_gpu(options.probe_timeout, options.ordinal)
    cc = str(device.get("compute_capability", ""))
    arch = "sm_" + cc.replace(".", "")
    if progress:
        progress(f"compiling the microbenchmarks for {arch}")
    source = resource(*CUDA_SOURCE).read_text(encoding="utf-8")
    compiled = compile_source(source, "mb_empty", arch, filename="microbench.cu")
    spec = match_catalog_gpu(device)
    gpu = spec.name if spec is not None else slug(device.get("name", "gpu"), "gpu")
    notes = [] if spec is not None else [f"{device.get('name')} is not in the GPU catalog: the fragment is named {gpu}"]
    stopped = ""
    with private_tempdir("warp-explorer-microbench-") as work:
        cubin = work / "microbench.cubin"
        atomic_write_bytes(cubin, compiled.cubin)
        request = {"cubin_path": str(cubin), "ordinal": options.ordinal, "budget_s": options.budget_s,
                   "groups": list(options.groups), "arch": arch, "compiler": compiled.compiler, "date": options.date}
        try:
            timeout = options.timeout_s if options.timeout_s is not None else options.budget_s + STARTUP_SECONDS
            info, _arrays = run_worker(request, work, timeout, progress, cancel, module="explorer.gpu.microbench")
        except GpuRunError as exc:
            partial = work / "partial.json"
            if not partial.is_file() or "did not finish" not in str(exc):
                raise
            info = json.loads(partial.read_text(encoding="utf-8"))
            stopped = str(exc)
            info.setdefault("warnings", []).append(f"stopped before the end ({exc}): what it measured is kept")
    results = info
    results.pop("ok", None)
    return MicrobenchRun(results=results, gpu=gpu, fragment=fragment_from_results(results, gpu), stopped=stopped,
                         notes=notes)


def _round(value: float, digits: int) -> float:
    return float(round(float(value), digits))


def fragment_from_results(results: dict, gpu: str) -> dict:
    """The catalog fragment (:mod:`explorer.model.measured`) of one run's results: each figure with its method.

    A figure is left out when its group did not run, or when its own check failed (a
    loaded-latency point whose warps per SM were not the plan's, launches the host did
    not keep ahead of); the raw results say why.
    """
    day = results.get("date") or _date.today().isoformat()
    props = results.get("device", {})
    groups = results.get("groups", {})
    clocks = [m for _w, m in results.get("clock_mhz", []) if isinstance(m, (int, float)) and math.isfinite(m)]
    clock = median(clocks) if clocks else float(props.get("clock_rate", 0)) / 1000.0

    def src(method: str) -> str:
        return f"measured, {gpu}, {day}, {method} (explorer.gpu.microbench)"

    doc: dict = {"schema": 1, "gpu": gpu, "run": {
        "date": day, "device": str(props.get("name") or gpu), "driver": results.get("driver") or
        f"unknown (CUDA {results.get('cuda', '?')} driver API)", "cuda": str(results.get("cuda") or "?"),
        "clock_mhz": _round(clock, 1)}}
    if clocks:
        doc["run"]["clock_mhz_min"] = _round(min(clocks), 1)
        doc["run"]["clock_mhz_max"] = _round(max(clocks), 1)
    if results.get("compiler"):
        doc["run"]["compiler"] = str(results["compiler"])
    doc["run"]["tool"] = "explorer.gpu.microbench (warp-explorer microbench; scripts/device_check.py)"
    doc["run"]["method"] = (f"medians of {REPEATS} repetitions unless a figure says otherwise; the SM clock by clock64 "
                            "against %globaltimer over 20 ms before and after each group")
    notes = [str(w) for w in results.get("warnings", [])]
    notes += [f"{g}: {why}" for g, why in results.get("skipped", {}).items()]
    notes += [f"{g} failed: {why}" for g, why in results.get("errors", {}).items()]
    if notes:
        doc["run"]["notes"] = notes

    device_attrs = {"sm_count": "multiprocessor_count", "l2_bytes": "l2_cache_size",
                    "shared_per_sm": "max_shared_memory_per_multiprocessor",
                    "registers_per_sm": "max_registers_per_multiprocessor",
                    "max_threads_per_sm": "max_threads_per_multiprocessor", "memory_bytes": "memory_bytes",
                    "memory_bus_bits": "global_memory_bus_width", "memory_clock_mhz": "memory_clock_rate"}
    device: dict = {"sources": {}}
    for key, attr in device_attrs.items():
        value = props.get(attr)
        if isinstance(value, int) and value > 0:
            device[key] = value // 1000 if key == "memory_clock_mhz" else value
            call = "cuDeviceTotalMem" if attr == "memory_bytes" else f"cuDeviceGetAttribute({attr.upper()})"
            device["sources"][key] = f"driver, {gpu}, {day}, {call}"
    if device["sources"]:
        doc["device"] = device

    chase = "1 thread, dependent pointer chase over a random cycle of 128 B lines, 16 loads per loop trip; cycles per load"
    lat = groups.get("latency") or {}
    section: dict = {"sources": {}}
    methods = {
        "l1_hit": lambda e: f"{chase}, plain ld, {e['working_set_bytes'] >> 10} KiB after a warm-up pass",
        "shared": lambda e: f"1 thread, dependent ld.shared chase over {e['working_set_bytes'] >> 10} KiB; cycles per load",
        "l2_hit_bypass_l1": lambda e: f"{chase}, ld.global.cg, {e['working_set_bytes'] >> 20} MiB already in L2",
        "l2_hit_1mib": lambda e: f"{chase}, plain ld, L1 miss and L2 hit, 1 MiB already in L2",
        "l2_hit_8mib": lambda e: f"{chase}, plain ld, L1 miss and L2 hit, 8 MiB already in L2",
        "l2_hit_32mib": lambda e: f"{chase}, plain ld, L1 miss and L2 hit, 32 MiB already in L2",
        "dram_256mib": lambda e: f"{chase}, plain ld, L2 flushed, 256 MiB working set",
        "dram_2gib": lambda e: f"{chase}, plain ld, L2 flushed, 2 GiB working set",
        "ffma_dependent": lambda e: "1 warp, 64 dependent FMAs per loop trip; cycles per FMA",
    }
    for key, method in methods.items():
        e = lat.get(key)
        if e:
            section[key] = _round(e["median"], 2)
            section["sources"][key] = src(f"{method(e)} (median of {len(e['samples'])}: {e['min']:.2f}-{e['max']:.2f})")
    if section["sources"]:
        doc["latency_cycles"] = section

    loaded = groups.get("loaded") or {}
    good = [p for p in loaded.get("points", [])
            if all(p[k]["warps_per_sm_seen"] == [p["warps_per_sm"]] * 2 for k in ("dram", "l2", "l2_bypass_l1"))]
    if good:
        curve = ("coalesced 512 B warp loads (32 lanes x float4), one in flight per warp, W warps on every SM (checked "
                 "by %smid), 256 loads per warp; latency = clock64 per load, median over warps and of 5 runs; "
                 "bandwidth = bytes / event time")
        dram_mib = good[0]["dram"]["array_bytes"] >> 20
        l2_mib = good[0]["l2"]["array_bytes"] >> 20
        ll = {"warps_per_sm": [p["warps_per_sm"] for p in good], "sources": {}}
        ll["sources"]["warps_per_sm"] = src(f"{curve}; W = {', '.join(str(p['warps_per_sm']) for p in good)}")
        for kind, what in (("dram", f"a {dram_mib} MiB array, L2 flushed before each run"),
                           ("l2", f"a {l2_mib} MiB array already in L2, plain ld (some loads may hit in L1)"),
                           ("l2_bypass_l1", f"a {l2_mib} MiB array already in L2, ld.global.cg (L1 bypassed)")):
            ll[f"{kind}_cycles"] = [_round(p[kind]["cycles"]["median"], 1) for p in good]
            ll[f"{kind}_gbs"] = [_round(p[kind]["gbs"]["median"], 1) for p in good]
            ll["sources"][f"{kind}_cycles"] = src(f"{curve}; {what}")
            ll["sources"][f"{kind}_gbs"] = src(f"{curve}; {what}")
        doc["loaded_latency"] = ll

    bw = groups.get("bandwidth") or {}
    section = {"sources": {}}
    for key, what in (("dram_read", "float4 grid-stride loads, 4 per thread per trip"),
                      ("dram_write", "float4 grid-stride stores"),
                      ("dram_copy", "float4 load + store, 4 per thread per trip; bytes read + written")):
        e = bw.get(key)
        if e:
            section[key] = _round(e["median"], 1)
            section["sources"][key] = src(f"{e['bytes'] >> 20 if key != 'dram_copy' else e['bytes'] >> 21} MiB, {what}, "
                                          f"{e['grid']:,} blocks x {e['block']} threads, L2 flushed; bytes / event time "
                                          f"(median of {len(e['samples'])}: {e['min']:.0f}-{e['max']:.0f})")
    for key in L2_BW_SETS:
        e = bw.get(key)
        if e:
            bpc = e["median"] * 1e9 / (bw.get("clock_mhz") or clock) / 1e6
            section[key] = _round(e["median"], 1)
            section["sources"][key] = src(f"__ldcg (L1 bypassed), {L2_BW_PASSES} passes over an L2-resident "
                                          f"{e['buffer_bytes'] >> 20} MiB buffer, {e['grid']:,} blocks x {e['block']} "
                                          f"threads; bytes / event time: {bpc:,.0f} B/clk at "
                                          f"{bw.get('clock_mhz') or clock:.0f} MHz")
    if section["sources"]:
        doc["bandwidth_gbs"] = section

    ff = groups.get("ffma") or {}
    if ff:
        doc["compute"] = {
            "ffma_tflops": _round(ff["tflops"]["median"], 2),
            "ffma_per_clk_per_sm": _round(ff["per_clk_per_sm"]["median"], 2),
            "sources": {
                "ffma_tflops": src(f"8 independent FMA chains per thread, {ff['grid']:,} blocks x {ff['block']} threads; "
                                   "2 FLOP per FMA / event time"),
                "ffma_per_clk_per_sm": src(f"the same FMAs per SM and cycle at the clock measured right after "
                                           f"({ff['clock_mhz']:.0f} MHz)"),
            }}

    la = groups.get("launch") or {}
    section = {"sources": {}}
    if la:
        b2b = la["back_to_back_5us_kernel"]
        trusted = b2b["host_kept_ahead"] and b2b["all_recorded"]
        if trusted:
            section["launch_gap"] = _round(la["launch_gap"]["median"], 3)
            section["back_to_back_5us_kernel"] = _round(b2b["median"], 3)
            queued = (f"{b2b['kernels']:,} kernels of {b2b['grid']} blocks x {b2b['block']} threads spinning "
                      f"{b2b['spin_ns'] / 1000:g} us, queued behind a {b2b['gate_ns'] / 1e6:.0f} ms gate kernel so "
                      "the host's pace cannot show")
            g = la["launch_gap"]
            by_timer = g.get("gap_by_globaltimer_us") or {}
            section["sources"]["launch_gap"] = src(
                f"{queued}: event period less one kernel's own span ({g['kernel_span_us']:.2f} us by %globaltimer); "
                f"the gaps by %globaltimer: median {by_timer.get('median', float('nan')):.2f} us")
            section["sources"]["back_to_back_5us_kernel"] = src(f"{queued}: event time / kernels")
        e = la.get("graph_node")
        if e:
            section["graph_node"] = _round(e["median"], 3)
            section["sources"]["graph_node"] = src(f"a CUDA Graph of {e['nodes']:,} empty kernels, launched after one "
                                                   "upload launch: event time / nodes")
        e = la.get("empty_kernel_queued")
        if e and e["host_kept_ahead"]:
            section["empty_kernel_queued"] = _round(e["median"], 3)
            section["sources"]["empty_kernel_queued"] = src(f"{e['kernels']:,} empty kernels queued behind a gate "
                                                            "kernel: event time / kernels")
        e = la.get("launch_call_python")
        if e:
            section["launch_call_python"] = _round(e["median"], 3)
            section["sources"]["launch_call_python"] = src(f"{e['launches']:,} empty kernels launched back to back "
                                                           "from Python (cuda.bindings cuLaunchKernel, numpy-packed "
                                                           "arguments): host time per call")
        e = la.get("launch_sync_python")
        if e:
            section["launch_sync_python"] = _round(e["median"], 3)
            section["sources"]["launch_sync_python"] = src(f"launch + cuStreamSynchronize of an empty kernel from "
                                                           f"Python, median of {e['round_trips']} round trips")
    if section["sources"]:
        doc["launch_us"] = section

    nv = groups.get("nvml") or {}
    section = {"sources": {}}
    if nv.get("available"):
        for key, what in (("idle", "nothing running"),
                          ("one_warp", "one warp (1 block x 32 threads) spinning on one SM for 1.2 s"),
                          ("duty_20pct", f"200 us of full-GPU work ({DUTY_BLOCKS_PER_SM} blocks of 256 per SM) every "
                                         "1 ms for 1.2 s")):
            e = nv.get(key) or {}
            if e.get("samples"):
                section[key] = _round(e["median"], 1)
                section["sources"][key] = src(f"nvmlDeviceGetUtilizationRates().gpu polled every 50 ms, {what}: "
                                              f"median of {len(e['samples'])} samples after the first "
                                              f"{NVML_SKIP_S:g} s (min {e['min']:.0f}, max {e['max']:.0f})")
    if section["sources"]:
        doc["nvml_utilization_pct"] = section
    return doc


def write_outputs(run: MicrobenchRun, folder: Path, *, merge: bool = True) -> tuple[Path, Path, dict]:
    """Write ``microbench.json`` and ``<GPU>.toml`` into ``folder`` (each atomically); returns both and the document.

    ``merge``: put this run's figures over the shipped ``resources/measured/<GPU>.toml``
    (figures this run did not take keep their value and source).
    """
    from explorer.model.atomic import atomic_write_text
    from explorer.model.measured import format_fragment, measured_dir, merge_fragments, read_fragment

    folder.mkdir(parents=True, exist_ok=True)
    doc = run.fragment
    shipped = measured_dir() / f"{run.gpu}.toml"
    if merge and shipped.is_file():
        doc = merge_fragments(read_fragment(shipped).to_document(), doc)
    raw = folder / "microbench.json"
    atomic_write_text(raw, json.dumps({**run.results, "gpu": run.gpu, "stopped": run.stopped, "notes": run.notes},
                                      indent=1, default=str) + "\n")
    toml = folder / f"{run.gpu}.toml"
    atomic_write_text(toml, format_fragment(doc))
    return raw, toml, doc


if __name__ == "__main__":
    sys.exit(main())
