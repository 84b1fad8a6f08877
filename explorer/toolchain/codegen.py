"""Generate the CUDA C++ kernel a scenario's Workload describes, instrumented for timing.

The kernel runs the same loop as the simulator (``explorer.sass.model_program``): the body's
operations, in order, ``workload.loop`` times, with the same register dependencies:

- every operation is one PTX instruction in ``asm volatile``, so the compiler neither
  deletes nor merges nor reorders them (a load whose value nobody reads still loads);
- a load writes a fresh value and depends on nothing (its address comes from the loop
  index); ``stride`` spaces neighbouring threads, whole 32-byte sectors as the model counts;
  a ``read_only`` load is ``ld.global.nc`` (SASS ``LDG.E.CONSTANT``: L1 keeps its line);
- the first instruction of each FMA/MMA chain reads the previous value-producing step
  (the latest two of the values the simulator makes it wait for: an FFMA has two free
  operands), every instruction of a chain reads and writes its accumulator, and chains
  are loop-carried; ``ilp`` chains interleave;
- an SFU step is a chain on one value (ex2, rsqrt, ex2...; one MUFU instruction each);
- a store reads the previous step's values; ``sync`` is ``bar.sync 0``;
- shared loads and stores hit ``conflict_ways`` addresses per bank; a shared load reads
  another warp's region (what a tile exchange after a barrier does). They are
  ``ld/st.volatile.shared`` (plain LDS/STS in SASS) so ptxas neither merges two loads of
  one address nor drops a store that a later one overwrites;

L1/L2 hit rates: when the workload asks for hits, each warp draws (warp-uniformly, an
LCG step per memory instruction, as the simulator draws per warp-instruction) whether
the access goes to a small per-warp region (L1 hit), to a region a quarter of the L2
size (L2 hit), or streams through a buffer far larger than L2 (device memory). Without
hit rates the addresses simply stream, each byte touched once. The extra address
arithmetic (an integer add or two per memory instruction, plus a multiply-add and
selects when hit rates are set) is the only work the simulator does not model.

Instrumentation: each warp reads ``%globaltimer`` (ns), ``clock64`` (SM cycles),
``%smid``, ``%warpid`` and ``%nsmid`` at entry and at exit; lane 0 writes one 64-byte
record per warp (``per_warp``), or the warps of a block fold theirs into one record per
block with 64-bit atomics (start fields stored bit-inverted so ``atomicMax`` gives the
minimum). A second kernel, ``we_tick``, measures the globaltimer's update step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from explorer.toolchain.names import slug
from explorer.model.catalog import GpuSpec
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.model.workload import ASYNC_OPS, Op, Workload
from explorer.toolchain.addresses import (
    L1_SLOT_BYTES,
    L1_SLOTS,
    LCG_A,
    LCG_C,
    STREAM_CAP_BYTES,
    WARP_HASH,
    memory_layout,
)

KERNEL_NAME = "we_kernel"
TICK_KERNEL = "we_tick"
RECORD_WORDS = 8  # u64 per record: start_ns end_ns start_clk end_clk smid(start|end<<32) hw_warp nsmid index
STATIC_SHARED_LIMIT = 48 * 1024  # static __shared__ per block (more only as dynamic, opt-in)
MAX_SRC = 4  # as explorer.sass.model_program
PER_WARP_RECORD_LIMIT = 1 << 21
ITERATION_CLOCK_LIMIT = 1 << 24  # clock64 words of --iteration-clocks (128 MiB; a measurement file's array cap)
# above this many warps, record per block

# Kernel parameters, in order: (name, C type, numpy dtype name). The launcher packs them.
PARAMS = (
    ("gbuf", "unsigned char*", "uint64"),
    ("ghot", "unsigned char*", "uint64"),
    ("rec", "unsigned long long*", "uint64"),
    ("sink", "float*", "uint64"),
    ("seed", "unsigned int", "uint32"),
    ("flag", "unsigned int", "uint32"),
    ("fm", "float", "float32"),
    ("fc", "float", "float32"),
)
# ``iteration_clocks`` adds one: where lane 0 of each warp writes clock64 at the top of every iteration
ICLK_PARAM = ("iclk", "unsigned long long*", "uint64")
TICK_PARAMS = (("out", "unsigned long long*", "uint64"), ("n", "unsigned int", "uint32"),
               ("span_ns", "unsigned long long", "uint64"))


@dataclass(frozen=True)
class GeneratedKernel:
    """A generated source plus everything the launcher and the analysis need to know."""

    source: str
    kernel: str
    tick_kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    threads_per_block: int
    warps_per_block: int
    total_blocks: int
    total_warps: int
    per_warp: bool
    records: int  # number of 64-byte records the kernel writes
    static_shared_bytes: int  # declared __shared__ bytes (the cubin's figure is the truth)
    dynamic_shared_bytes: int  # bytes to request at launch
    footprint: int  # bytes the global loads and stores stream through over the whole loop
    buffer_bytes: int  # bytes of the streaming buffer to allocate (smaller than footprint when it wraps)
    wrap_iterations: int  # the stream restarts at the buffer's start every this many iterations
    hot_bytes: int  # L1-hit and L2-hit regions
    l2_region_bytes: int
    loop: int
    notes: tuple[str, ...] = ()
    # clock64 words the kernel writes per warp (loop + 1: each iteration's top and the loop's end); 0: none
    iteration_clock_words: int = 0
    body_doc: tuple[str, ...] = field(default=(), compare=False)


def _vec_type(nbytes: int) -> str:
    return {4: "float", 8: "float2", 16: "float4"}[nbytes]


def _comps(name: str, nbytes: int) -> list[str]:
    return [name] if nbytes == 4 else [f"{name}.{c}" for c in "xyzw"[: nbytes // 4]]


def _ptx_vec(nbytes: int) -> str:
    return {4: ".f32", 8: ".v2.f32", 16: ".v4.f32"}[nbytes]


def _braces(n: int, start: int, *, vector: bool = False) -> str:
    """PTX operands %start..%start+n-1: a scalar alone, else a {vector}. ``vector``: always
    braced (mma.sync fragments are vector operands even with one register, e.g. B of m16n8k8)."""
    regs = ", ".join(f"%{start + i}" for i in range(n))
    return regs if n == 1 and not vector else "{" + regs + "}"


@dataclass
class _Val:
    comps: list[str]


def _shared_row(op: Op) -> int:
    """Elements between the rows of a conflict pattern (rows 128 B apart map to the same banks)."""
    per_row = 128 // op.bytes
    lanes_per_row = math.ceil(32 / op.conflict_ways)
    return per_row * math.ceil(lanes_per_row / per_row)


def _shared_region_bytes(body: tuple[Op, ...]) -> int:
    sizes = [op.conflict_ways * _shared_row(op) * op.bytes for op in body if op.op in ("lds", "sts")]
    return max(sizes, default=0)


class _Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.indent = 1

    def __call__(self, text: str = "") -> None:
        self.lines.append(("    " * self.indent + text) if text else "")


def generate(scenario: Scenario, *, per_warp: bool | None = None, gpu: GpuSpec | None = None,
             stream_cap_bytes: int = STREAM_CAP_BYTES, max_registers: int | None = None,
             launch_bounds: bool = True, iteration_clocks: bool = False) -> GeneratedKernel:
    """The instrumented kernel for ``scenario`` (``gpu`` sizes the L2-hit region; default: the scenario's).

    ``stream_cap_bytes`` bounds the streaming buffer: a longer stream restarts at its start
    (the cap is many times any L2, so restarted addresses still miss).

    Registers: the kernel carries ``__launch_bounds__(threads per block)``; with
    ``max_registers`` it carries ``__maxnreg__(max_registers)`` instead (the two cannot be
    combined, and ptxas ignores ``--maxrregcount`` under ``__launch_bounds__``);
    ``launch_bounds=False`` leaves both out (for ``--maxrregcount`` on compilers older
    than CUDA 12.4, which lack ``__maxnreg__``).

    ``iteration_clocks``: a diagnostic variant (``measure --iteration-clocks``) whose lane 0 of every warp
    also writes ``clock64`` at the top of each iteration and after the loop into ``iclk`` (an extra, last
    parameter), so a measurement tells *which* iteration of a slow warp lost the time (docs/real-gpu.md: the
    example's loop-16 tail). The default source stays byte for byte what it was (compile caches, SASS seeds
    and the kernels kept beside measurements are keyed on it); the variant costs one clock read and one 8-byte
    store per warp and iteration, so its durations are not the plain kernel's."""
    gpu = gpu or scenario.gpu
    wl: Workload = scenario.workload
    if wl.uses_async_ops:
        i, op = next((i, op) for i, op in enumerate(wl.body) if op.op in ASYNC_OPS)
        raise InputError(f"workload.body[{i}].op", f"{op.op} is simulated from the workload model only; the "
                                                   "generated CUDA kernel has no TMA or wgmma to measure")
    launch = scenario.launch
    threads = launch.threads_per_block
    wpb = math.ceil(threads / 32)
    blocks = launch.total_blocks
    total_warps = blocks * wpb
    if per_warp is None:
        per_warp = total_warps <= PER_WARP_RECORD_LIMIT
    notes: list[str] = []
    if iteration_clocks:
        if not per_warp:
            raise InputError("--iteration-clocks", "needs per-warp records (not --per-block, and at most "
                                                   f"{PER_WARP_RECORD_LIMIT:,} warps)")
        words = (wl.loop + 1) * total_warps
        if words > ITERATION_CLOCK_LIMIT:
            raise InputError("--iteration-clocks", f"{total_warps:,} warps x {wl.loop + 1:,} clocks = {words:,} "
                                                   f"words, above the limit of {ITERATION_CLOCK_LIMIT:,} (a smaller "
                                                   "grid or workload.loop)")
        notes.append(f"iteration clocks: lane 0 of each warp stores clock64 at every iteration's top and the loop's "
                     f"end ({words * 8:,} B); the timing is the instrumented kernel's")

    # -- shared memory layout ------------------------------------------------------------
    region = _shared_region_bytes(wl.body)
    region = -(-region // 128) * 128
    shared_needed = region * wpb
    static_req = launch.static_shared_bytes
    dynamic = launch.dynamic_shared_bytes
    use_dynamic_pool = shared_needed > STATIC_SHARED_LIMIT
    if static_req > STATIC_SHARED_LIMIT:
        moved = static_req - STATIC_SHARED_LIMIT
        notes.append(f"static shared memory above 48 KB is not allowed in CUDA: {moved} B of the scenario's "
                     f"{static_req} B are requested as dynamic shared memory instead")
        dynamic += moved
        static_req = STATIC_SHARED_LIMIT
    if use_dynamic_pool:
        if dynamic < shared_needed:
            notes.append(f"the workload's shared-memory traffic needs {shared_needed} B per block; "
                         f"dynamic shared memory raised from {dynamic} B to {shared_needed} B")
            dynamic = shared_needed
        static_bytes = static_req
    else:
        static_bytes = max(static_req, shared_needed)
        if shared_needed > static_req:
            notes.append(f"the workload's shared-memory traffic needs {shared_needed} B per block; the kernel "
                         f"declares {static_bytes} B of static shared memory (scenario: {static_req} B)")

    # -- global memory layout -------------------------------------------------------------
    # One streaming buffer: per iteration a slab per global instruction (loads first, then
    # stores), each slab total_warps x 32 lanes x stride x bytes; iteration i starts at i x ITER.
    # The numbers come from explorer.toolchain.addresses, which the simulator computes its addresses from too.
    layout = memory_layout(wl, gpu, total_warps, stream_cap_bytes)
    in_slabs, out_slabs = list(layout.in_slabs), list(layout.out_slabs)
    iter_bytes, footprint, wrap, buffer_bytes = layout.iter_bytes, layout.footprint, layout.wrap, layout.buffer_bytes
    if wl.wrap and wrap == wl.wrap and wrap < wl.loop:
        notes.append(f"the workload's addresses repeat every {wrap} iterations: each warp re-reads "
                     f"{wrap * iter_bytes // max(1, total_warps)} B of its own")
    elif wrap < wl.loop:
        notes.append(f"the loop streams {footprint / 2**20:.0f} MiB; the buffer is {buffer_bytes / 2**20:.0f} MiB "
                     f"and the stream restarts every {wrap} iterations (still far beyond the L2 cache)")
    hits, l2_region, hot_bytes = layout.hits, layout.l2_region, layout.hot_bytes
    t_l1, t_l2 = layout.t_l1, layout.t_l2

    e = _Emitter()
    body_doc = []
    # per-thread offsets for each (stride, bytes) used by global ops
    pairs = sorted({(op.stride, op.bytes) for op in wl.body if op.op in ("ldg", "stg")})
    e("// ---- per-thread constants (computed once, outside the loop)")
    for s, b in pairs:
        e(f"const u64 toff_s{s}_b{b} = ((u64)gwarp * {32 * s}ull + (u64)lane * {s}ull) * {b}ull;")
        e(f"unsigned char* gp_s{s}_b{b} = gbuf + toff_s{s}_b{b};  // this thread's stream, advanced per iteration")
        if hits:
            e(f"u32 go_s{s}_b{b} = (u32)toff_s{s}_b{b};  // the same offset, for the L2-hit region")
    wrapping = pairs and wrap < wl.loop
    if wrapping:
        e("u32 wrap = 0;")
    shared_ops = [op for op in wl.body if op.op in ("lds", "sts")]
    if shared_ops:
        pool = "we_dsmem" if use_dynamic_pool else "we_smem"
        e(f"const u32 sh_base = (u32)__cvta_generic_to_shared({pool});")
        for b, c, row in sorted({(op.bytes, op.conflict_ways, _shared_row(op)) for op in shared_ops}):
            e(f"const u32 shoff_b{b}_c{c} = ((lane % {c}u) * {row}u + lane / {c}u) * {b}u;"
              f"  // {c}-way bank conflicts")
    # accumulators and fragments
    acc_decl: list[str] = []
    lds_index = 0
    for si, op in enumerate(wl.body):
        if op.op == "ffma":
            for c in range(op.ilp):
                e(f"float a{si}_{c} = fc * (float)(lane + {c + 1});")
                acc_decl.append(f"a{si}_{c}")
        elif op.op == "mma":
            for c in range(op.ilp):
                e(f"float m{si}_{c}[4] = {{0.f, 0.f, 0.f, 0.f}};")
                acc_decl += [f"m{si}_{c}[{k}]" for k in range(4)]
        elif op.op == "lds":
            for k in range(op.count):
                region_of = f"((wib + {lds_index + 1}u) % {wpb}u)" if wpb > 1 else "0u"
                e(f"const u32 sh_lds{lds_index} = sh_base + {region_of} * {region}u + shoff_b{op.bytes}_c{op.conflict_ways};")
                lds_index += 1
    if any(op.op == "sts" for op in wl.body):
        e(f"const u32 sh_own = sh_base + wib * {region}u;")
    if any(op.op == "mma" for op in wl.body):
        e("const u32 fa0 = __float_as_uint(fm), fa1 = fa0 + 1u, fa2 = fa0 + 2u, fa3 = fa0 + 3u;  // loop-invariant fragments")
        e("const u32 fb0 = __float_as_uint(fc), fb1 = fb0 + 1u;")
    if hits:
        e(f"u32 we_rng = seed ^ ((u32)gwarp * {WARP_HASH}u);  // warp-uniform: every lane draws the same")
        e(f"const u64 l1_off = (gwarp & {L1_SLOTS - 1}ull) * {L1_SLOT_BYTES}ull + (u64)lane * 16ull;")

    e("")
    loop_at = len(e.lines)  # value declarations go here, before the loop
    value_decls: list[str] = []
    e("#pragma unroll 1")
    e(f"for (u32 it = 0; it < {wl.loop}u; ++it) {{")
    e.indent += 1
    if iteration_clocks:
        e(f"if (lane == 0) iclk[gwarp * {wl.loop + 1}ull + it] = we_clock();  // this iteration's first issue")
    prev: list[_Val] = []
    vid = 0
    q_in = q_out = 0
    lds_index = 0
    is_mma_new = _mma_variant(gpu.arch.sm_arch)

    def latest(k: int) -> list[_Val]:
        """The values the simulator makes a consumer wait for (prev[:k]), latest first."""
        return list(reversed(prev[:k]))

    def gather(vals: list[_Val], n: int, start: int = 0) -> list[str]:
        flat = [c for v in vals for c in v.comps]
        if not flat:
            return []
        return [flat[(start + i) % len(flat)] for i in range(n)]

    for si, op in enumerate(wl.body):
        body_doc.append(f"step {si}: {op.op} x{op.count}")
        e(f"// step {si}: {_describe(op)}")
        if op.op in ("ldg", "lds"):
            made = []
            for k in range(op.count):
                name = f"v{vid}"
                vid += 1
                vt = _vec_type(op.bytes)
                comps = _comps(name, op.bytes)
                outs = ", ".join(f'"=f"({c})' for c in comps)
                n = len(comps)
                if op.op == "ldg":
                    addr, imm = _global_addr(e, "in", q_in, in_slabs[q_in], op, hits, t_l1, t_l2, load=True)
                    q_in += 1
                    value_decls.append(_zero_decl(vt, name))
                    space = "global.nc" if op.read_only else "global"  # nc: read-only, cached in L1 (LDG.CONSTANT)
                    e(f'asm volatile("ld.{space}{_ptx_vec(op.bytes)} {_braces(n, 0)}, [%{n}{imm}];" : {outs} : "l"({addr}));')
                else:
                    value_decls.append(_zero_decl(vt, name))
                    e(f'asm volatile("ld.volatile.shared{_ptx_vec(op.bytes)} {_braces(n, 0)}, [%{n}];" : {outs} : "r"(sh_lds{lds_index}));')
                    lds_index += 1
                made.append(_Val(comps))
                acc_decl += comps
            prev = made[-MAX_SRC:]
        elif op.op in ("stg", "sts"):
            words = op.bytes // 4
            for k in range(op.count):
                vals = gather(latest(MAX_SRC), words, start=k) or ["fc"] * words
                ins = ", ".join(f'"f"({v})' for v in vals)
                if op.op == "stg":
                    addr, imm = _global_addr(e, "out", q_out, out_slabs[q_out], op, hits, t_l1, t_l2, load=False)
                    q_out += 1
                    e(f'asm volatile("st.global{_ptx_vec(op.bytes)} [%0{imm}], {_braces(words, 1)};" :: "l"({addr}), {ins} : "memory");')
                else:
                    e(f'asm volatile("st.volatile.shared{_ptx_vec(op.bytes)} [%0], {_braces(words, 1)};" :: "r"(sh_own), {ins} : "memory");')
        elif op.op == "ffma":
            for j in range(op.count):
                c = j % op.ilp
                acc = f"a{si}_{c}"
                if j < op.ilp and prev:
                    src = latest(3)
                    a = gather(src[:1], 1, start=c)[0]
                    b = gather(src[1:2] or src[:1], 1, start=c + 1)[0]
                else:
                    a, b = "fm", "fc"
                e(f'asm volatile("fma.rn.f32 %0, %1, %2, %0;" : "+f"({acc}) : "f"({a}), "f"({b}));')
            prev = [_Val([f"a{si}_{c}"]) for c in range(op.ilp)][-MAX_SRC:]
        elif op.op == "mma":
            na, nb = (4, 2) if is_mma_new else (2, 1)
            shape = "m16n8k16" if is_mma_new else "m16n8k8"
            for j in range(op.count):
                c = j % op.ilp
                acc = f"m{si}_{c}"
                if j < op.ilp and prev:
                    src = latest(3)
                    afr = [f"__float_as_uint({x})" for x in gather(src, na, start=0)]
                    bfr = [f"__float_as_uint({x})" for x in gather(src[1:] or src, nb, start=na if len(src) == 1 else 0)]
                else:
                    afr, bfr = [f"fa{k}" for k in range(na)], [f"fb{k}" for k in range(nb)]
                outs = ", ".join(f'"+f"({acc}[{k}])' for k in range(4))
                ins = ", ".join(f'"r"({x})' for x in afr + bfr)
                e(f'asm volatile("mma.sync.aligned.{shape}.row.col.f32.f16.f16.f32 {{%0,%1,%2,%3}}, '
                  f'{_braces(na, 4, vector=True)}, {_braces(nb, 4 + na, vector=True)}, {{%0,%1,%2,%3}};" : {outs} : {ins});')
            prev = [_Val([f"m{si}_{c}[{k}]" for k in range(4)]) for c in range(op.ilp)][-MAX_SRC:]
        elif op.op == "sfu":
            name = f"x{si}"
            src = latest(MAX_SRC)
            first = gather(src[:1], 1)[0] if src else "fm"
            value_decls.append(_zero_decl("float", name))
            for j in range(op.count):
                ins = "ex2.approx.ftz.f32" if j % 2 == 0 else "rsqrt.approx.ftz.f32"
                arg = first if j == 0 else name
                e(f'asm volatile("{ins} %0, %1;" : "=f"({name}) : "f"({arg}));')
            prev = [_Val([name])]
            acc_decl.append(name)
        elif op.op == "sync":
            e('asm volatile("bar.sync 0;" ::: "memory");')
    if pairs:
        e("// next iteration's slabs" + (f" (the stream restarts every {wrap} iterations)" if wrapping else ""))
        if wrapping:
            e(f"const bool restart = ++wrap == {wrap}u;")
            e("if (restart) wrap = 0;")
        for s_, b_ in pairs:
            if wrapping:
                e(f"gp_s{s_}_b{b_} = restart ? gp_s{s_}_b{b_} - {(wrap - 1) * iter_bytes}ull : gp_s{s_}_b{b_} + {iter_bytes}ull;")
            else:
                e(f"gp_s{s_}_b{b_} += {iter_bytes}ull;")
            if hits:
                e(f"go_s{s_}_b{b_} += {iter_bytes % (1 << 32)}u;")
    e.indent -= 1
    e("}")
    if iteration_clocks:
        e(f"if (lane == 0) iclk[gwarp * {wl.loop + 1}ull + {wl.loop}ull] = we_clock();  // the loop's end")
    e.lines[loop_at:loop_at] = ["    // every value lives across iterations, as the simulator's registers do: a load waits for"]
    e.lines[loop_at + 1:loop_at + 1] = ["    // the previous iteration's same load (WAW), and no load or op is dead code"]
    e.lines[loop_at + 2:loop_at + 2] = ["    " + d for d in value_decls]
    loop_code = "\n".join(e.lines)

    sink_terms = " + ".join(acc_decl) if acc_decl else "0.f"
    keep_static = ""
    if static_bytes and not (shared_ops and not use_dynamic_pool):
        keep_static = f"        we_smem[tib % {static_bytes}u] = (unsigned char)s;  // keeps the declared static shared memory\n"
    source = _TEMPLATE.format(
        header=_header(scenario, gpu, wl, per_warp, notes),
        qualifier=(f"__maxnreg__({int(max_registers)}) " if max_registers
                   else (f"__launch_bounds__({threads}) " if launch_bounds else "")),
        threads=threads,
        wpb=wpb,
        static_decl=(f"    __shared__ __align__(16) unsigned char we_smem[{static_bytes}];\n" if static_bytes else ""),
        dyn_decl=("    extern __shared__ __align__(16) unsigned char we_dsmem[];\n" if use_dynamic_pool else ""),
        params=",\n    ".join(f"{t} {n}" for n, t, _ in (PARAMS + (ICLK_PARAM,) if iteration_clocks else PARAMS)),
        body=loop_code,
        sink_terms=sink_terms,
        keep_static=keep_static,
        record=_PER_WARP_RECORD if per_warp else _PER_BLOCK_RECORD,
        kernel=KERNEL_NAME,
        tick=TICK_KERNEL,
        l2_region=max(l2_region, 1),
        tick_params=", ".join(f"{t} {n}" for n, t, _ in TICK_PARAMS),
    )
    return GeneratedKernel(
        source=source,
        kernel=KERNEL_NAME,
        tick_kernel=TICK_KERNEL,
        grid=tuple(launch.grid.to_list()),
        block=tuple(launch.block.to_list()),
        threads_per_block=threads,
        warps_per_block=wpb,
        total_blocks=blocks,
        total_warps=total_warps,
        per_warp=per_warp,
        records=total_warps if per_warp else blocks,
        static_shared_bytes=static_bytes,
        dynamic_shared_bytes=dynamic,
        footprint=footprint,
        buffer_bytes=buffer_bytes,
        wrap_iterations=wrap,
        hot_bytes=hot_bytes,
        l2_region_bytes=l2_region,
        loop=wl.loop,
        notes=tuple(notes),
        iteration_clock_words=(wl.loop + 1) * total_warps if iteration_clocks else 0,
        body_doc=tuple(body_doc),
    )


def _zero_decl(ctype: str, name: str) -> str:
    zero = {"float": "0.f", "float2": "make_float2(0.f, 0.f)", "float4": "make_float4(0.f, 0.f, 0.f, 0.f)"}[ctype]
    return f"{ctype} {name} = {zero};"


def _mma_variant(sm_arch: str) -> bool:
    """m16n8k16 (FP16 in, FP32 out) needs sm_80+; sm_75 has m16n8k8."""
    digits = "".join(ch for ch in sm_arch if ch.isdigit())
    return int(digits or 0) >= 80


def _global_addr(e: _Emitter, kind: str, q: int, slab: int, op: Op, hits: bool, t_l1: int, t_l2: int,
                 load: bool) -> tuple[str, str]:
    """Emit the address of one global access; return (C pointer expression, PTX immediate offset)."""
    stream = f"gp_s{op.stride}_b{op.bytes}"
    if not hits:
        if slab < 2**31:
            return stream, (f"+{slab}" if slab else "")  # [reg+imm]: no address arithmetic in the loop
        return f"({stream} + {slab}ull)", ""
    name = f"p{kind}{q}"
    e(f"we_rng = we_rng * {LCG_A}u + {LCG_C}u;")
    l2 = f"ghot + {L1_SLOTS * L1_SLOT_BYTES}ull + ((go_s{op.stride}_b{op.bytes} + {slab % (1 << 32)}u) & (u32)(L2_REGION - 1ull))"
    dram = f"{stream} + {slab}ull"

    def below(t: int) -> str | None:
        return None if t <= 0 else ("true" if t >= 1 << 32 else f"we_rng < {t}u")

    expr = dram
    c2 = below(t_l2)
    if c2:
        expr = l2 if c2 == "true" else f"({c2} ? {l2} : {expr})"
    c1 = below(t_l1) if load else None
    if c1:
        expr = "ghot + l1_off" if c1 == "true" else f"({c1} ? ghot + l1_off : {expr})"
    e(f"{'const ' if load else ''}unsigned char* {name} = {expr};")
    return name, ""


def _describe(op: Op) -> str:
    text = f"{op.count} x {op.op}"
    if op.op in ("ldg", "stg", "lds", "sts"):
        text += f" {op.bytes} B"
    if op.op in ("ldg", "stg") and op.stride != 1:
        text += f", stride {op.stride}"
    if op.op in ("lds", "sts") and op.conflict_ways != 1:
        text += f", {op.conflict_ways}-way bank conflicts"
    if op.op in ("ffma", "mma") and op.ilp != 1:
        text += f", {op.ilp} independent chains"
    return text


def _header(scenario: Scenario, gpu: GpuSpec, wl: Workload, per_warp: bool, notes: list[str]) -> str:
    """The comment block on top; the scenario's name appears only as a slug (a newline in it is no new line)."""
    lines = [
        # the module's name before issue 32 moved it: the generated source (and so every compile cache and SASS
        # seed key, and the kernels kept beside measurements) stays byte for byte what it was
        "// Generated by Warp Explorer (explorer.gpu.codegen): the scenario's workload as a CUDA kernel.",
        f"// scenario: {slug(scenario.name, '(unnamed)')}; GPU {gpu.name} ({gpu.arch.sm_arch}); "
        f"grid {scenario.launch.grid}, block {scenario.launch.block}",
        f"// workload: {wl.describe()}; l1_hit_rate {wl.l1_hit_rate:g}, l2_hit_rate {wl.l2_hit_rate:g}",
        f"// records: one per {'warp' if per_warp else 'block'} (%smid, %globaltimer and clock64 at entry and exit)",
    ]
    lines += [f"// note: {n}" for n in notes]
    return "\n".join(lines)


_PER_WARP_RECORD = """\
    if (lane == 0) {
        unsigned long long* r = rec + (u64)gwarp * 8ull;
        r[0] = t_start; r[1] = t_end; r[2] = c_start; r[3] = c_end;
        r[4] = (u64)sm_start | ((u64)sm_end << 32); r[5] = hw_warp; r[6] = nsm; r[7] = blk;
    }"""

_PER_BLOCK_RECORD = """\
    if (lane == 0) {  // fold this warp into its block's record: start fields stored inverted (max of ~t = ~min t)
        unsigned long long* r = rec + (u64)blk * 8ull;
        atomicMax(r + 0, ~t_start); atomicMax(r + 1, t_end); atomicMax(r + 2, ~c_start); atomicMax(r + 3, c_end);
        if (wib == 0) { r[4] = (u64)sm_start | ((u64)sm_end << 32); r[5] = hw_warp; r[6] = nsm; r[7] = blk; }
    }"""

_TEMPLATE = """\
{header}
typedef unsigned long long u64;
typedef unsigned int u32;
#define L2_REGION {l2_region}ull  // bytes of the L2-hit region (a power of two)

__device__ __forceinline__ u64 we_globaltimer() {{ u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }}
__device__ __forceinline__ u64 we_clock() {{ u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)); return t; }}
__device__ __forceinline__ u32 we_smid() {{ u32 r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }}
__device__ __forceinline__ u32 we_nsmid() {{ u32 r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); return r; }}
__device__ __forceinline__ u32 we_warpid() {{ u32 r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }}

extern "C" __global__ void {qualifier}{kernel}(
    {params})
{{
{static_decl}{dyn_decl}    const u64 t_start = we_globaltimer();
    const u64 c_start = we_clock();
    const u32 sm_start = we_smid();
    const u32 hw_warp = we_warpid();
    const u32 nsm = we_nsmid();
    const u32 tib = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const u64 blk = blockIdx.x + (u64)gridDim.x * (blockIdx.y + (u64)gridDim.y * blockIdx.z);
    const u32 lane = tib & 31u;
    const u32 wib = tib >> 5;
    const u64 gwarp = blk * {wpb}ull + wib;

{body}

    // every accumulator and value feeds a write no launch ever takes (flag is 0): nothing is dead code
    const float s = {sink_terms};
    if (flag == 0x5EED5EEDu) {{
        sink[blk * {threads}ull + tib] = s;
{keep_static}    }}
    const u64 c_end = we_clock();
    const u64 t_end = we_globaltimer();
    const u32 sm_end = we_smid();
{record}
}}

// The globaltimer's update step and the SM clock: one thread spins for span_ns.
extern "C" __global__ void {tick}({tick_params})
{{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    const u64 t0 = we_globaltimer();
    const u64 c0 = we_clock();
    u64 last = t0;
    u32 k = 0;
    for (;;) {{
        const u64 t = we_globaltimer();
        if (t != last) {{
            if (k < n) out[4 + k] = t - last;
            ++k;
            last = t;
        }}
        if (t - t0 >= span_ns) break;
    }}
    const u64 c1 = we_clock();
    out[0] = last - t0; out[1] = c1 - c0; out[2] = k; out[3] = we_smid();
}}
"""
