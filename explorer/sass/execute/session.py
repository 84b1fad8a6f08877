"""Run a user kernel functionally: memory set up, blocks executed in chunks, errors turned into messages.

``execute(kernel, launch, spec, ...)`` binds the arguments (``arguments``), fills the
buffers, links the constant bank into the decoded rows, then calls the compiled
interpreter (``interp.run``) until every block has run. With ``on_chunk`` the caller
receives an :class:`~explorer.sass.execute.stream.ExecutedStream` for each chunk of whole
blocks; without it the streams are not built and only the metrics accumulate.
``execute_chunks`` is the same as a generator the consumer pulls chunks from (the timing
engine's input: it asks for the next blocks when it dispatches them). Memory is estimated before anything is allocated (buffers, their
copies when the inputs are kept, per-block state, chunk arrays) and a run that would
not fit ``MEMORY_BUDGET`` is refused.

Errors the interpreter reports (an unsupported opcode, an access outside every buffer,
a misaligned address, shared or local memory out of range, the instruction limit, a
deadlock at a barrier) become one-line ``InputError`` messages with the pc, the
instruction, the thread and block, and the source line.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from explorer.model.errors import InputError
from explorer.sass.execute import interp, isa, records
from explorer.sass.execute.arguments import (
    BANK_BYTES, INIT_CHUNK, LOCAL_WINDOW, NUMPY, SHARED_WINDOW, Inputs, bank0, bind, initial_chunks,
)
from explorer.sass.execute.decode import link
from explorer.sass.execute.ops_warp import special_registers
from explorer.sass.execute.records import Barriers, Context, Events, Issues, Memory, Program, Regs, Tally, Warps, Work
from explorer.sass.execute.stream import ExecutedStream, build_stream

# bytes one run may hold (buffers, state, chunk arrays; the simulator's records too when it times the run):
# the simulator's own memory budget (resources/sim_model.toml [trace] memory_budget_bytes, 1.5 GiB), so that
# with the interpreter, numpy and numba (about 0.2 GB) a run peaks under 2 GB (issue 30; tested)
MEMORY_BUDGET = 1_610_612_736
CHUNK_INSTRUCTIONS = 1 << 20  # warp-instructions per chunk handed to a consumer
MAX_CHUNK_INSTRUCTIONS = 1 << 24  # one block may grow its chunk up to this
# the chunk arrays per warp-instruction (_stream_arrays): warp, row, active, executed (4 B each), one memory
# event (position 8, class 1, count 4, ideal 4, first sector 8) and four sector numbers (8 B each)
ENTRY_BYTES = 4 * 4 + 25 + 4 * 8
TIME_SLICE = 4096  # a warp yields to the block's next warp after this many instructions (spin waits progress)
FIRST_SHARE = 16  # threads, no stream: the first chunk (run alone) is this fraction of a chunk
TASK_SHARE = 4  # threads, no stream: a task is this fraction of a chunk


@dataclass
class ExecutionResult:
    kernel: object  # UserKernel
    outputs: dict  # buffer name -> array after the kernel
    inputs: dict | None  # buffer name -> array before it (when kept)
    metrics: dict
    executions: np.ndarray  # per row: times issued
    active_lanes: np.ndarray  # per row: sum of active lanes
    executed_lanes: np.ndarray  # per row: sum of lanes with a true guard
    seconds: float
    bound: object = field(repr=False, default=None)


def estimate_bytes(kernel, launch, spec, keep_inputs: bool = False, record: bool = False) -> int:
    """What a run holds at most: the buffers (once: their contents before the kernel are made again when
    read, ``arguments.Inputs``), the block's state, the chunk arrays (and the stream built from them for a
    consumer), the constant banks, and one chunk of temporaries (a fill, a report, a dump)."""
    return sum(estimate_parts(kernel, launch, spec, record).values())


def estimate_parts(kernel, launch, spec, record: bool = False) -> dict:
    """:func:`estimate_bytes` by part (the refusal names them)."""
    warps = launch.warps_per_block()
    frame = _frame(kernel)
    per_warp = 256 * 32 * 4 + 8 * 32 + 64 * 4 + 32 * 24 + isa.N_SR * 32 * 4  # registers, lanes, special registers
    state = warps * per_warp + warps * 32 * frame + _shared_bytes(kernel, launch)
    chunk = (CHUNK_INSTRUCTIONS + (1 << 16)) * ENTRY_BYTES * (2 if record else 1)
    return {"buffers": int(spec.buffer_bytes), "state": int(state + 18 * BANK_BYTES), "chunks": int(chunk),
            "temporaries": INIT_CHUNK * 24}


def check_memory(parts: dict, budget: int) -> None:
    """Refuse, before anything is allocated, a run whose parts add up to more than ``budget`` bytes."""
    need = sum(parts.values())
    if need > budget:
        what = ", ".join(f"{name} {value / 2**20:,.0f} MiB" for name, value in parts.items() if value)
        raise InputError("kernel.args", f"this run needs about {need / 2**20:,.0f} MiB ({what}), above the limit of "
                                        f"{budget / 2**20:,.0f} MiB a run may hold; use smaller buffers or a smaller "
                                        "grid")


def _frame(kernel) -> int:
    return -(-kernel.frame_bytes // 16) * 16


def _shared_bytes(kernel, launch) -> int:
    return -(-kernel.shared_section_bytes // 16) * 16 + launch.dynamic_shared_bytes


def execute(kernel, launch, spec, *, on_chunk=None, **options) -> ExecutionResult:
    """Execute every block of the launch; ``on_chunk(stream)`` for each chunk (see the module docstring)."""
    chunks = execute_chunks(kernel, launch, spec, record=on_chunk is not None, **options)
    while True:
        try:
            chunk = next(chunks)
        except StopIteration as done:
            return done.value
        on_chunk(chunk)


def execute_chunks(kernel, launch, spec, *, record: bool = True, seed: int = 1, sm_count: int = 1,
                   keep_inputs: bool = False, chunk_instructions: int = CHUNK_INSTRUCTIONS, sm_of_block=None,
                   progress=None, jobs: int = 1):
    """A generator: it yields an ExecutedStream per chunk of whole blocks, in grid order, and returns
    the ExecutionResult. The next chunk is executed only when asked for, so a consumer that takes
    chunks as it dispatches their blocks holds only those in memory (the timing engine's way in).
    ``progress(blocks_done, total_blocks, warp_instructions, seconds)`` is called each time the
    interpreter returns (about every million warp-instructions, inside a long block too).

    ``jobs`` > 1 executes blocks on that many threads at once (the interpreter releases the GIL),
    when the kernel allows it (:func:`parallel_safe`: no global atomics, whose results must stay
    exact and in the serial order); the buffers, the metrics, the per-row tallies and the streams
    are the serial run's (tested). The first chunk runs alone (its blocks' size sets how many blocks
    each task takes); then up to ``2 * jobs`` tasks of whole blocks are in flight, handed on in grid
    order, each worker with its own block state and chunk arrays (counted in the memory estimate).
    """
    jobs = max(1, int(jobs))
    if jobs > 1 and (launch.total_blocks < 2 or not parallel_safe(kernel)):
        jobs = 1
    parts = estimate_parts(kernel, launch, spec, record)
    while jobs > 1 and sum(parts.values()) + (jobs - 1) * worker_bytes(kernel, launch, record) > MEMORY_BUDGET:
        jobs -= 1  # fewer workers rather than a refusal: each needs its own chunk arrays
    if jobs > 1:
        parts["other workers"] = (jobs - 1) * worker_bytes(kernel, launch, record)
    check_memory(parts, MEMORY_BUDGET)
    if launch.threads_per_block > 1024:
        raise InputError("launch.block", f"{launch.threads_per_block} threads per block is above the maximum of 1024")
    run = _Launch(kernel, launch, spec, seed, sm_count, sm_of_block, keep_inputs)
    n_blocks = launch.total_blocks
    chunk_instructions = max(int(chunk_instructions), 1)
    # the first chunk runs alone: short when nobody reads the streams (it only sizes the tasks), the serial
    # run's own otherwise (the timing engine's estimate reads it: the same run whatever the threads)
    first_soft = chunk_instructions if (jobs == 1 or record) else max(1, chunk_instructions // FIRST_SHARE)
    first = run.worker(first_soft)
    first.warm_up()  # numba's on-disk cache loaded first: execution_seconds measures execution only
    seconds = 0.0
    cpu = 0.0  # CPU seconds the workers spent executing (time.thread_time: the per-core rate's)
    done_blocks = 0
    # the first chunk (the whole launch when serial), on this thread
    while True:
        t0, c0 = time.perf_counter(), time.thread_time()
        status = first.call()
        seconds += time.perf_counter() - t0  # execution only: not the consumer's time between chunks
        cpu += time.thread_time() - c0
        if progress is not None:
            progress(int(first.ctl[records.CTL_BLOCK]), n_blocks, int(first.acc[isa.A_WARP_INSTR]), seconds)
        if status == isa.S_ERROR:
            raise run_error(kernel, launch, run.bound, first.err, spec.max_instructions)
        if status == records.S_GROW:
            first.grow(record)
            continue
        done = int(first.ctl[records.CTL_BLOCK])
        if record and done > done_blocks:
            yield first.chunk(done_blocks, done)
        first.reset_stream()
        done_blocks = done
        if status == isa.S_DONE or jobs > 1:
            break
    workers = [first]
    if done_blocks < n_blocks:  # the rest in parallel tasks of whole blocks
        per_block = max(1.0, float(first.acc[isa.A_WARP_INSTR]) / max(done_blocks, 1))
        # tasks of a share of a chunk: enough of them that the threads finish together
        size = max(1, int(chunk_instructions / (1 if record else TASK_SHARE) / per_block))
        free = [first] + [run.worker(int(size * per_block) + 1) for _ in range(jobs - 1)]
        workers = list(free)
        spans = [(b, min(n_blocks, b + size)) for b in range(done_blocks, n_blocks, size)]
        lock = threading.Lock()

        def task(span, limit):
            with lock:
                worker = free.pop()  # at most `jobs` tasks run at once, each returns its worker when done
            try:
                c0 = time.thread_time()
                status, stream, count = worker.run_span(span[0], span[1], limit, record)  # the stream is a copy
                return status, stream, count, worker.err.copy(), time.thread_time() - c0
            finally:
                with lock:
                    free.append(worker)

        pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="warp-explorer-exec")
        pending = []  # (span, future), in grid order
        executed = int(first.acc[isa.A_WARP_INSTR])
        mark = time.perf_counter()
        try:
            k = 0
            while k < len(spans) or pending:
                while k < len(spans) and len(pending) < 2 * jobs:
                    left = spec.max_instructions - executed  # no task may run past the launch's limit
                    pending.append((spans[k], pool.submit(task, spans[k], max(1, left))))
                    k += 1
                span, fut = pending.pop(0)
                status, stream, count, err, busy = fut.result()
                executed += count
                cpu += busy
                if status == isa.S_ERROR:
                    raise run_error(kernel, launch, run.bound, err, spec.max_instructions)
                if executed > spec.max_instructions:  # the tasks together went past it
                    raise run_error(kernel, launch, run.bound, _limit_error(span[1] - 1), spec.max_instructions)
                now = time.perf_counter()
                seconds += now - mark  # what this run waited for execution (not the consumer's time)
                if progress is not None:
                    progress(span[1], n_blocks, executed, seconds)
                if record:
                    yield stream
                mark = time.perf_counter()
        finally:
            for _, fut in pending:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)  # never leave a thread writing the heap
    outputs = {}
    for buf in run.bound.buffers:
        # views of the heap (not copies): the contents before the kernel are made again when read
        outputs[buf.name] = run.heap8[buf.heap_offset:buf.heap_offset + buf.nbytes].view(NUMPY[buf.arg.dtype])
    acc = sum(w.acc for w in workers)
    metrics = summarize(acc, launch, seconds)
    metrics["jobs"] = jobs
    metrics["execution_cpu_seconds"] = cpu
    return ExecutionResult(kernel=kernel, outputs=outputs, inputs=run.inputs, metrics=metrics,
                           executions=sum(w.st_exec for w in workers), active_lanes=sum(w.st_act for w in workers),
                           executed_lanes=sum(w.st_exe for w in workers), seconds=seconds, bound=run.bound)


def parallel_safe(kernel) -> bool:
    """Whether the kernel's blocks may execute at once: no global atomic (ATOMG, ATOM, RED), whose returned
    values and floating-point sums depend on the order blocks apply them in (kept the serial order's).
    Blocks of a race-free kernel touch disjoint global memory otherwise (blocks that read what other
    blocks of the launch write race on a GPU too)."""
    ops = kernel.decoded.rows[:, isa.C_OP]
    return not bool(np.isin(ops, (isa.E_ATOM, isa.E_RED)).any())


def worker_bytes(kernel, launch, record: bool) -> int:
    """What one more worker holds: its block state and its chunk arrays."""
    parts = estimate_parts(kernel, launch, spec=_NO_BUFFERS, record=record)
    return parts["state"] + parts["chunks"]


class _NoBuffers:
    buffer_bytes = 0


_NO_BUFFERS = _NoBuffers()


def _limit_error(block: int) -> np.ndarray:
    err = np.zeros(16, dtype=np.int64)
    err[isa.X_CODE] = isa.ERR_LIMIT
    err[isa.X_BLOCK] = block
    return err


class _Launch:
    """What every worker of a run shares: the heap with the buffers, the constant banks, the linked code."""

    def __init__(self, kernel, launch, spec, seed, sm_count, sm_of_block, keep_inputs):
        self.kernel, self.launch, self.spec = kernel, launch, spec
        self.bound = bind(kernel, spec, seed)
        self.frame = _frame(kernel)
        self.shared = _shared_bytes(kernel, launch)
        # global memory: one heap, the buffers at their offsets
        self.heap8 = np.zeros(max(self.bound.heap_bytes, 16) + 16, dtype=np.uint8)
        self.heap32 = self.heap8.view(np.uint32)
        self.gtab = np.zeros((max(len(self.bound.buffers), 1), 3), dtype=np.int64)
        self.gtab[:, 0] = -1  # no buffer: nothing matches
        for k, buf in enumerate(self.bound.buffers):
            pos = buf.heap_offset
            for part in initial_chunks(buf, seed, k):  # straight into the heap, a chunk at a time
                raw = part.view(np.uint8)
                self.heap8[pos:pos + raw.shape[0]] = raw
                pos += raw.shape[0]
            self.gtab[k] = (buf.address, buf.nbytes, buf.heap_offset)
        self.inputs = Inputs(self.bound, seed) if keep_inputs else None  # made again when read: no copy held
        self.cbank = np.zeros((18, BANK_BYTES), dtype=np.uint8)
        b0 = bank0(kernel, launch, self.bound, self.frame)
        self.cbank[0, :len(b0)] = np.frombuffer(b0, dtype=np.uint8)
        banks = {0: b0}
        for bank, data in kernel.banks.items():
            if bank < self.cbank.shape[0]:
                data = data[:BANK_BYTES]
                self.cbank[bank, :len(data)] = np.frombuffer(data, dtype=np.uint8)
                banks[bank] = data
        self.code = link(kernel.decoded, banks)
        self.nw = launch.warps_per_block()
        la = np.zeros(records.N_LAUNCH, dtype=np.int64)
        la[records.G_GX:records.G_GZ + 1] = (launch.grid.x, launch.grid.y, launch.grid.z)
        la[records.G_BX:records.G_BZ + 1] = (launch.block.x, launch.block.y, launch.block.z)
        la[records.G_THREADS] = launch.threads_per_block
        la[records.G_WARPS] = self.nw
        la[records.G_NSM] = max(sm_count, 1)
        la[records.G_LAST] = launch.total_blocks
        la[records.G_LIMIT] = spec.max_instructions
        la[records.G_SLICE] = TIME_SLICE
        la[records.G_NREGS] = min(max(kernel.registers, 1) + 2, 255)  # registers the code can touch
        self.launch_arr = la
        self.sm_count = sm_count
        self.smb = np.zeros(0, dtype=np.int64) if sm_of_block is None else np.asarray(sm_of_block, dtype=np.int64)

    def worker(self, soft: int) -> "_Worker":
        return _Worker(self, soft)


class _Worker:
    """One thread's block state, chunk arrays, metrics and tallies (``interp.run``'s arguments)."""

    def __init__(self, run: _Launch, soft: int):
        self.run = run
        nw, launch = run.nw, run.launch
        ctx = np.zeros(16, dtype=np.int64)
        ctx[records.CX_BX:records.CX_BZ + 1] = (launch.block.x, launch.block.y, launch.block.z)
        ctx[records.CX_NSM] = run.sm_count
        ctx[records.CX_SWIN] = SHARED_WINDOW
        ctx[records.CX_SHARED] = run.shared
        ctx[records.CX_LWIN] = LOCAL_WINDOW
        ctx[records.CX_FRAME] = run.frame
        self.launch_arr = run.launch_arr.copy()
        self.cap = soft + (1 << 16)
        self.arrays = _stream_arrays(self.cap)  # the stream's records (Issues, Events), replaced when they grow
        self.acc = np.zeros(isa.N_ACC, dtype=np.int64)
        n_rows = run.code.shape[0]
        self.st_exec = np.zeros(n_rows, dtype=np.int64)
        self.st_act = np.zeros(n_rows, dtype=np.int64)
        self.st_exe = np.zeros(n_rows, dtype=np.int64)
        self.ctl = np.zeros(records.N_CTL, dtype=np.int64)
        self.ctl[records.CTL_SOFT] = soft
        self.err = np.zeros(16, dtype=np.int64)
        # the interpreter's records (explorer/sass/execute/records.py says what each field holds)
        self.prog = Program(code=run.code, launch=self.launch_arr, sm_of_block=run.smb)
        self.regs = Regs(R=np.zeros((nw, 256, 32), dtype=np.uint32), P=np.zeros((nw, 8, 32), dtype=np.uint8),
                         UR=np.zeros((nw, 64), dtype=np.uint32), UP=np.zeros((nw, 8), dtype=np.uint8))
        self.warps = Warps(B=np.zeros((nw, 16), dtype=np.uint32), lpc=np.zeros((nw, 32), dtype=np.int64),
                           lst=np.zeros((nw, 32), dtype=np.int8), larg=np.zeros((nw, 32), dtype=np.int64),
                           wrow=np.zeros(nw, dtype=np.int64), wmask=np.zeros(nw, dtype=np.int64),
                           wdiv=np.zeros(nw, dtype=np.int8), wcount=np.zeros(nw, dtype=np.int64))
        self.bars = Barriers(cnt=np.zeros(16, dtype=np.int64), exp=np.zeros(16, dtype=np.int64),
                             red=np.zeros(32, dtype=np.int64), res=np.zeros(nw, dtype=np.int64))
        smem8 = np.zeros(-(-run.shared // 16) * 16 + 16, dtype=np.uint8)
        lmem8 = np.zeros(max(nw * 32 * run.frame, 16), dtype=np.uint8)
        self.memory = Memory(heap8=run.heap8, heap32=run.heap32, gtab=run.gtab, smem8=smem8,
                             smem32=smem8.view(np.uint32), lmem8=lmem8, lmem32=lmem8.view(np.uint32),
                             cbank=run.cbank, hint=np.zeros(1, dtype=np.int64))
        self.context = Context(ctx=ctx, sreg=special_registers(ctx, nw))
        self.tally = Tally(acc=self.acc, st_exec=self.st_exec, st_act=self.st_act, st_exe=self.st_exe)
        self.work = Work(ctl=self.ctl, err=self.err, sc=np.zeros((records.SC_ROWS, 32), dtype=np.int64),
                         wscr=np.zeros(records.WSCR, dtype=np.int64))

    def call(self) -> int:
        return interp.run(self.prog, self.regs, self.warps, self.bars, self.memory, self.context, *self.arrays,
                          self.tally, self.work)

    def warm_up(self) -> None:
        last = self.launch_arr[records.G_LAST]
        self.launch_arr[records.G_LAST] = 0
        self.call()
        self.launch_arr[records.G_LAST] = last

    def grow(self, record: bool) -> None:
        """The arrays are full inside a block: start them over (nobody reads them) or double them."""
        if not record:
            self.reset_stream()
            return
        if self.cap >= MAX_CHUNK_INSTRUCTIONS:
            raise InputError("kernel", f"block {self.ctl[records.CTL_BLOCK]} executes more than "
                                       f"{MAX_CHUNK_INSTRUCTIONS:,} warp-instructions: its executed stream "
                                       "does not fit the run's memory (use fewer threads per block)")
        self.cap = min(self.cap * 2, MAX_CHUNK_INSTRUCTIONS)
        self.arrays = _grow(self.arrays, self.cap, self.ctl)

    def reset_stream(self) -> None:
        self.ctl[records.CTL_POS] = self.ctl[records.CTL_MPOS] = self.ctl[records.CTL_SPOS] = 0

    def chunk(self, first: int, last: int) -> ExecutedStream:
        return _chunk(self.arrays, self.ctl, first, last, self.run.nw)

    def run_span(self, first: int, last: int, limit: int, record: bool):
        """Execute blocks ``first .. last - 1`` (at most ``limit`` warp-instructions): (status, the span's
        stream or None, warp-instructions executed)."""
        self.ctl[records.CTL_BLOCK] = first
        self.ctl[records.CTL_STARTED] = 0
        self.ctl[records.CTL_SOFT] = 1 << 62  # the whole span, however long
        self.ctl[records.CTL_TOTAL] = 0
        self.reset_stream()
        self.launch_arr[records.G_LAST] = last
        self.launch_arr[records.G_LIMIT] = limit
        before = int(self.acc[isa.A_WARP_INSTR])
        while True:
            status = self.call()
            if status == records.S_GROW:
                self.grow(record)
                continue
            break
        count = int(self.acc[isa.A_WARP_INSTR]) - before
        if status == isa.S_ERROR:
            return status, None, count
        return status, (self.chunk(first, last) if record else None), count


def _stream_arrays(cap: int) -> tuple[Issues, Events]:
    events = cap + 64
    return (Issues(s_warp=np.zeros(cap, dtype=np.int32), s_row=np.zeros(cap, dtype=np.int32),
                   s_act=np.zeros(cap, dtype=np.uint32), s_exe=np.zeros(cap, dtype=np.uint32)),
            Events(m_pos=np.zeros(events, dtype=np.int64), m_cls=np.zeros(events, dtype=np.int8),
                   m_n=np.zeros(events, dtype=np.int32), m_ideal=np.zeros(events, dtype=np.int32),
                   m_first=np.zeros(events, dtype=np.int64), sect=np.zeros(4 * cap + 256, dtype=np.int64)))


def _grow(arrays, cap: int, ctl):
    new = _stream_arrays(cap)
    pos, mpos, spos = (int(ctl[records.CTL_POS]), int(ctl[records.CTL_MPOS]), int(ctl[records.CTL_SPOS]))
    for old, fresh, n in zip((*arrays[0], *arrays[1]), (*new[0], *new[1]), (pos,) * 4 + (mpos,) * 5 + (spos,)):
        fresh[:n] = old[:n]
    return new


def _chunk(arrays, ctl, first: int, last: int, nw: int) -> ExecutedStream:
    (s_warp, s_row, s_act, s_exe), (m_pos, m_cls, m_n, m_ideal, m_first, sect) = arrays
    pos, mpos, spos = (int(ctl[records.CTL_POS]), int(ctl[records.CTL_MPOS]), int(ctl[records.CTL_SPOS]))
    return build_stream(first, last - first, nw, s_warp[:pos], s_row[:pos], s_act[:pos], s_exe[:pos],
                        m_pos[:mpos], m_cls[:mpos], m_n[:mpos], m_ideal[:mpos], m_first[:mpos], sect[:spos])


def summarize(acc: np.ndarray, launch, seconds: float) -> dict:
    """The execution metrics (the ``execute``/``simulate --json`` keys)."""
    wi = int(acc[isa.A_WARP_INSTR])
    act = int(acc[isa.A_ACTIVE_LANES])
    exe = int(acc[isa.A_EXEC_LANES])
    memory = {}
    spr, conflicts = {}, {}
    for c, name in enumerate(isa.MEMORY_CLASSES):
        base = isa.A_CLASS + isa.A_FIELDS * c
        req, n, ideal, nbytes, lanes = (int(x) for x in acc[base:base + isa.A_FIELDS])
        if req == 0:
            continue
        entry = {"requests": req, "bytes_requested": nbytes, "lanes": lanes}
        if c in isa.SHARED_LIKE:
            entry["wavefronts"] = n
            entry["bank_conflicts"] = n - ideal
            entry["wavefronts_per_request"] = n / req
            conflicts[name] = n - ideal
        else:
            entry["sectors"] = n
            entry["sectors_per_request"] = n / req
            spr[name] = n / req
        memory[name] = entry
    return {
        "blocks": int(acc[isa.A_BLOCKS_DONE]),
        "launched_warps": launch.launched_warps(),
        "warp_instructions": wi,
        "thread_instructions": act,
        "predicated_on_thread_instructions": exe,
        "warp_instructions_per_warp": wi / max(launch.launched_warps(), 1),
        "simt_efficiency": act / (32 * wi) if wi else 0.0,
        "predicated_on_efficiency": exe / (32 * wi) if wi else 0.0,
        "sectors_per_request": spr,
        "bank_conflicts": conflicts,
        "memory": memory,
        "execution_seconds": seconds,
        "warp_instructions_per_second": wi / seconds if seconds > 0 else 0.0,
    }


# -- errors ---------------------------------------------------------------------------------------
def _thread(launch, w: int, lane: int) -> str:
    t = w * 32 + lane
    bx, by = launch.block.x, launch.block.y
    return f"({t % bx},{(t // bx) % by},{t // (bx * by)})"


def _block(launch, b: int) -> str:
    gx, gy = launch.grid.x, launch.grid.y
    return f"({b % gx},{(b // gx) % gy},{b // (gx * gy)})"


def _where(kernel, row: int) -> str:
    text = kernel.decoded.texts[row] if 0 <= row < kernel.decoded.n else "?"
    line = kernel.source_line(row)
    src = f", {kernel.source_file} line {line}" if line is not None else ""
    return f"pc 0x{16 * row:04x} ({text}{src})"  # e.g. pc 0x0050 (PRMT.F4E R0, R0, R0, R0, saxpy.cu line 3)


def _nearest(bound, addr: int) -> str:
    best = None
    for buf in bound.buffers:
        end = buf.address + buf.nbytes
        if addr >= end:
            d = addr - end
            text = f"{d:,} bytes past the end of {buf.name} [0x{buf.address:x}, +{buf.nbytes:,})"
        elif addr < buf.address:
            d = buf.address - addr
            text = f"{d:,} bytes before {buf.name} [0x{buf.address:x}, +{buf.nbytes:,})"
        else:
            d = 0
            text = f"it ends past the end of {buf.name} [0x{buf.address:x}, +{buf.nbytes:,})"
        if best is None or d < best[0]:
            best = (d, text)
    return best[1] if best else "the kernel has no buffer arguments"


def run_error(kernel, launch, bound, err, limit: int) -> InputError:
    code = int(err[isa.X_CODE])
    row, blk, w, lane = (int(err[k]) for k in (isa.X_ROW, isa.X_BLOCK, isa.X_WARP, isa.X_LANE))
    addr, size, store = int(err[isa.X_ADDR]), int(err[isa.X_SIZE]), bool(err[isa.X_STORE])
    who = f"thread {_thread(launch, w, lane)} in block {_block(launch, blk)}"
    rw = "write" if store else "read"
    if code == isa.ERR_UNSUPPORTED:
        reason = kernel.decoded.unsupported.get(row, kernel.decoded.texts[row].split(" ")[0] if row < kernel.decoded.n
                                                else "?")
        return InputError("kernel", f"the executor does not support {reason} at {_where(kernel, row)}, reached by "
                                    f"{who}")
    if code == isa.ERR_OUT_OF_BOUNDS:
        return InputError("kernel", f"invalid global {rw} of {size} bytes at {_where(kernel, row)} by {who}: address "
                                    f"0x{addr & (2**64 - 1):x} is outside every buffer ({_nearest(bound, addr)})")
    if code == isa.ERR_MISALIGNED:
        return InputError("kernel", f"misaligned {rw} of {size} bytes at {_where(kernel, row)} by {who}: address "
                                    f"0x{addr & (2**64 - 1):x} is not a multiple of {size}")
    if code == isa.ERR_SHARED_BOUNDS:
        return InputError("kernel", f"invalid shared-memory {rw} of {size} bytes at {_where(kernel, row)} by {who}: "
                                    f"offset 0x{addr & (2**64 - 1):x} is outside the block's "
                                    f"{_shared_bytes(kernel, launch):,} bytes (launch.dynamic_shared_bytes = "
                                    f"{launch.dynamic_shared_bytes:,})")
    if code == isa.ERR_LOCAL_BOUNDS:
        return InputError("kernel", f"invalid local-memory {rw} of {size} bytes at {_where(kernel, row)} by {who}: "
                                    f"offset 0x{addr & (2**64 - 1):x} is outside the thread's {_frame(kernel)} bytes")
    if code == isa.ERR_LIMIT:
        return InputError("kernel.max_instructions", f"the kernel executed more than {limit:,} "
                                                     f"warp-instructions (an endless loop?), last at "
                                                     f"{_where(kernel, row)} in block {_block(launch, blk)}; raise "
                                                     "kernel.max_instructions if it is meant to run that long "
                                                     "(--max-instructions N sets it)")
    if code == isa.ERR_DEADLOCK:
        what = {isa.L_BAR: "a block barrier (BAR)", isa.L_BSYNC: "a convergence barrier (BSYNC)",
                isa.L_WARPSYNC: "WARPSYNC"}.get(addr, "a barrier")
        return InputError("kernel", f"deadlock: {who} waits at {what}, {_where(kernel, row)}, that the other "
                                    "threads never reach")
    if code == isa.ERR_PC:
        return InputError("kernel", f"{who} jumped outside the kernel's code (to 0x{addr:x})")
    if code == isa.ERR_CONST_BOUNDS:
        return InputError("kernel", f"constant-bank read outside the bank at {_where(kernel, row)} by {who}")
    return InputError("kernel", f"execution stopped (error {code}) at {_where(kernel, row)}")

