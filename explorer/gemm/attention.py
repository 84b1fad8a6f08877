"""Attention, naive vs FlashAttention-style tiled: HBM bytes, FLOPs, intensity, time.

One forward pass of softmax(Q Kᵀ / sqrt(d)) V for ``batch x heads`` independent
(sequence length N, head size d) problems, inputs and outputs in ``dtype``.

Two byte counts per kernel, and they are kept apart on purpose:

* ``global_bytes`` (exact for the algorithm and tiling): what the SMs read from
  and write to global memory, i.e. what crosses L2. FlashAttention's IO
  accounting counts these as HBM accesses (no cache).
* ``hbm_bytes`` (modelled): the part that reaches HBM. A re-read is served by L2
  when what it re-reads fits the usable L2: K and V of the heads in flight for
  the flash kernel's query blocks; S or P just written by the previous naive
  kernel. Writes always reach HBM. ``reuse_level`` says where the re-reads come
  from (``"l2"`` or ``"hbm"``), so a headline can name it.

Naive (three kernels, as in FlashAttention's "standard attention" algorithm):
  1. S = Q Kᵀ          reads Q, K (2·N·d), writes S (N²)
  2. P = softmax(S)    reads S (N²), writes P (N²)
  3. O = P V           reads P (N²) and V (N·d), writes O (N·d)
  global bytes = (4·N·d + 4·N²) x element size per (batch, head): exact for this
  algorithm (S and P are stored in the input type).

FlashAttention-2 style (one kernel; each CTA owns Br query rows and streams all
key/value blocks of Bc rows through shared memory, with an online softmax):
  reads Q once (N·d), K and V once per query block (2·N·d·ceil(N/Br)), writes O
  (N·d) and the logsumexp (N x 4 B) for the backward pass.
  global bytes = (N·d·(2 + 2·ceil(N/Br))) x element size + 4·N: exact for this
  tiling; HBM bytes = (4·N·d) x element size + 4·N when K and V stay in L2.

FLOPs: the two matrix products are 2·N²·d each (exact, both variants). The
softmax is counted as ``softmax_flops_per_score`` per score (gemm.toml); the
online softmax adds a rescale of the output rows per key/value block. Times are
roofline estimates: per kernel max(Tensor Core time, SFU exp time, HBM time of
its HBM bytes, L2 time of its global bytes), and the largest names the bound, so
bytes, time and bound always agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.gemm.data import dtype_spec, gemm_data, peak_tflops, throughput
from explorer.model.sim_model import model_constants
from explorer.gemm.waves import ceil_div
from explorer.model.catalog import GpuSpec, get_gpu
from explorer.model.errors import InputError, require_int
from explorer.texts.errors import ERRORS
from explorer.texts.gemm import ATTENTION

MAX_SEQ = 1 << 22
MAX_HEAD = 512
MAX_INSTANCES = 1 << 20


@dataclass(frozen=True)
class AttentionStep:
    """One kernel (or phase) of an attention variant."""

    name: str
    read_bytes: int  # global memory (through L2), exact
    write_bytes: int
    matmul_flops: int
    other_flops: int
    exps: int
    seconds: float
    bound: str  # compute, sfu, memory (HBM bandwidth), l2 (L2 bandwidth)
    hbm_bytes: int  # of those, what reaches HBM (re-reads served by L2 where they fit); the time uses it
    reuse_level: str  # where this kernel's re-reads come from: l2, hbm ("" when it re-reads nothing)

    @property
    def bytes(self) -> int:
        return self.read_bytes + self.write_bytes


@dataclass(frozen=True)
class AttentionCost:
    variant: str  # naive, flash
    label: str
    steps: tuple[AttentionStep, ...]
    kernels: int
    shared_bytes_per_block: int  # 0 for naive (its GEMMs' tiling is not modelled here)
    launch_overhead_seconds: float

    @property
    def global_bytes(self) -> int:
        """Bytes the SMs move to and from global memory (exact; FlashAttention's IO accounting)."""
        return sum(s.bytes for s in self.steps)

    @property
    def hbm_bytes(self) -> int:
        """Of those, the bytes that reach HBM (modelled: re-reads served by L2 where they fit)."""
        return sum(s.hbm_bytes for s in self.steps)

    @property
    def reuse_level(self) -> str:
        """Where the re-reads come from: ``l2`` if any kernel's re-reads hit L2, else ``hbm``."""
        return "l2" if any(s.reuse_level == "l2" for s in self.steps) else "hbm"

    @property
    def matmul_flops(self) -> int:
        return sum(s.matmul_flops for s in self.steps)

    @property
    def flops(self) -> int:
        return sum(s.matmul_flops + s.other_flops for s in self.steps)

    @property
    def arithmetic_intensity(self) -> float:
        """FLOPs per HBM byte (the roofline's x; the one the time uses)."""
        return self.flops / self.hbm_bytes

    @property
    def global_intensity(self) -> float:
        """FLOPs per byte through L2."""
        return self.flops / self.global_bytes

    @property
    def predicted_seconds(self) -> float:
        return sum(s.seconds for s in self.steps)

    @property
    def bound(self) -> str:
        return max(self.steps, key=lambda s: s.seconds).bound

    def to_json(self) -> dict:
        return {
            "variant": self.variant, "label": self.label, "kernels": self.kernels,
            "hbm_bytes": self.hbm_bytes, "global_bytes": self.global_bytes, "reuse_level": self.reuse_level,
            "flops": self.flops, "matmul_flops": self.matmul_flops,
            "arithmetic_intensity": self.arithmetic_intensity, "global_intensity": self.global_intensity,
            "predicted_seconds": self.predicted_seconds,
            "launch_overhead_seconds": self.launch_overhead_seconds, "bound": self.bound,
            "shared_bytes_per_block": self.shared_bytes_per_block,
            "steps": [{"name": s.name, "read_bytes": s.read_bytes, "write_bytes": s.write_bytes,
                       "global_bytes": s.bytes, "hbm_bytes": s.hbm_bytes, "reuse_level": s.reuse_level,
                       "matmul_flops": s.matmul_flops, "other_flops": s.other_flops, "exps": s.exps,
                       "seconds": s.seconds, "bound": s.bound}
                      for s in self.steps],
        }


@dataclass(frozen=True)
class AttentionComparison:
    gpu: str
    seq_len: int
    head_dim: int
    heads: int
    batch: int
    dtype: str
    element_bytes: int
    block_q: int
    block_kv: int
    naive: AttentionCost
    flash: AttentionCost
    kv_working_set_bytes: int  # K and V of the (batch, head) pairs the flash kernel's CTAs work on at once
    l2_usable_bytes: int
    assumptions: tuple[str, ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def hbm_reduction(self) -> float:
        """Naive HBM bytes / flash HBM bytes."""
        return self.naive.hbm_bytes / self.flash.hbm_bytes

    @property
    def global_reduction(self) -> float:
        """Naive / flash bytes through L2 (what the FlashAttention paper's IO accounting compares)."""
        return self.naive.global_bytes / self.flash.global_bytes

    @property
    def speedup(self) -> float:
        return self.naive.predicted_seconds / self.flash.predicted_seconds

    def to_json(self) -> dict:
        return {
            "gpu": self.gpu, "seq_len": self.seq_len, "head_dim": self.head_dim, "heads": self.heads,
            "batch": self.batch, "dtype": self.dtype, "element_bytes": self.element_bytes,
            "block_q": self.block_q, "block_kv": self.block_kv,
            "naive": self.naive.to_json(), "flash": self.flash.to_json(),
            "kv_working_set_bytes": self.kv_working_set_bytes, "l2_usable_bytes": self.l2_usable_bytes,
            "hbm_reduction": self.hbm_reduction, "global_reduction": self.global_reduction, "speedup": self.speedup,
            "assumptions": list(self.assumptions), "notes": list(self.notes),
        }


def naive_hbm_bytes(seq_len: int, head_dim: int, element_bytes: int, instances: int = 1) -> int:
    """Naive attention's bytes through global memory, all of them HBM if nothing hits L2:
    (4·N·d + 4·N²) x element size x instances."""
    n, d = seq_len, head_dim
    return (4 * n * d + 4 * n * n) * element_bytes * instances


def flash_hbm_bytes(seq_len: int, head_dim: int, element_bytes: int, block_q: int, lse_bytes: int = 4,
                    instances: int = 1) -> int:
    """The flash kernel's bytes through global memory, all of them HBM if no K/V re-read hits L2
    (FlashAttention's IO accounting): (N·d·(2 + 2·ceil(N/Br))) x element size + N x lse_bytes, per instance."""
    n, d = seq_len, head_dim
    tr = ceil_div(n, block_q)
    return ((2 + 2 * tr) * n * d * element_bytes + n * lse_bytes) * instances


def compare_attention(
    gpu: GpuSpec | str,
    seq_len,
    head_dim,
    heads=1,
    batch=1,
    dtype: str = "fp16",
    block_q=None,
    block_kv=None,
) -> AttentionComparison:
    """Naive vs FlashAttention-style forward attention, side by side (plain data)."""
    gpu = get_gpu(gpu) if isinstance(gpu, str) else gpu
    n = require_int("seq_len", seq_len, lo=1, hi=MAX_SEQ)
    d = require_int("head_dim", head_dim, lo=1, hi=MAX_HEAD)
    heads = require_int("heads", heads, lo=1, hi=MAX_INSTANCES)
    batch = require_int("batch", batch, lo=1, hi=MAX_INSTANCES)
    dt = dtype_spec(dtype)
    peak = peak_tflops(gpu, dt.name)
    am = gemm_data().attention
    model = gemm_data().model
    b = dt.bytes
    inst = heads * batch
    notes: list[str] = []

    # -- flash tiling: Q block + K block + V block in shared memory --------------------
    limit = gpu.arch.shared_per_block_optin
    br = require_int("block_q", block_q, lo=16, hi=1024) if block_q is not None else am.block_q
    bc = require_int("block_kv", block_kv, lo=16, hi=1024) if block_kv is not None else am.block_kv

    def smem(br_, bc_):
        return (br_ + 2 * bc_) * d * b

    if block_q is None and block_kv is None:
        while smem(br, bc) > limit and bc > 16:
            bc //= 2
        while smem(br, bc) > limit and br > 16:
            br //= 2
        if (br, bc) != (am.block_q, am.block_kv):
            notes.append(ATTENTION("blocks_unfit", bq=am.block_q, kv=am.block_kv, gpu=gpu.name, d=d, br=br, bc=bc))
    if smem(br, bc) > limit:
        field_name = "block_kv" if block_kv is not None else ("block_q" if block_q is not None else "head_dim")
        raise InputError(field_name, ERRORS("attention_blocks", bq=br, bkv=bc, d=d, b=b, need=smem(br, bc),
                                            limit=limit, gpu=gpu.name))

    # -- rates ------------------------------------------------------------------------------
    clock = gpu.boost_clock_mhz * 1e6
    hbm_eff = float(model_constants()["dram"]["efficiency"])
    bw = gpu.memory_bandwidth_gbs * 1e9 * hbm_eff
    l2_bw = throughput(gpu).l2_bandwidth_gbs.value * 1e9
    mm_rate = peak.value * 1e12
    sfu_rate = gpu.arch.sfu_lanes_per_sub_partition * gpu.arch.sub_partitions * gpu.sm_count * clock  # exp/s
    other_rate = gpu.fp32_tflops * 1e12
    l2_usable = int(gpu.l2_bytes * model.l2_usable_fraction)

    def step(name, rd, wr, mm, other, exps, hbm=None, reuse="") -> AttentionStep:
        hbm = rd + wr if hbm is None else hbm
        terms = {"compute": mm / mm_rate + other / other_rate, "sfu": exps / sfu_rate, "memory": hbm / bw,
                 "l2": (rd + wr) / l2_bw}
        bound = max(terms, key=lambda k: terms[k])
        return AttentionStep(name, rd, wr, mm, other, exps, terms[bound], bound, hbm, reuse)

    nn, nd = n * n * inst, n * d * inst
    mm_flops = 2 * n * n * d * inst
    soft = am.softmax_flops_per_score * nn
    # naive: a kernel reading the S (or P) the previous kernel wrote hits L2 if all of it fits there
    s_hits = nn * b <= l2_usable
    reread = "l2" if s_hits else "hbm"
    naive = AttentionCost(
        "naive", "standard attention (S and P stored in global memory)",
        (
            step("S = Q K^T", 2 * nd * b, nn * b, mm_flops, 0, 0),
            step("P = softmax(S)", nn * b, nn * b, 0, soft, nn, nn * b if s_hits else None, reread),
            step("O = P V", nn * b + nd * b, nd * b, mm_flops, 0, 0, 2 * nd * b if s_hits else None, reread),
        ),
        kernels=3, shared_bytes_per_block=0, launch_overhead_seconds=3 * model.launch_overhead_us * 1e-6,
    )
    tr, tc = ceil_div(n, br), ceil_div(n, bc)
    rescale = (n * d * tc + n * d) * inst  # O rows rescaled once per K/V block, normalised once at the end
    flash_reads = nd * b + 2 * nd * b * tr
    flash_writes = nd * b + n * am.lse_bytes * inst
    # L2: the CTAs in flight (one per SM, query blocks of a head next to each other) work on a few heads;
    # if those heads' K and V fit the usable L2, every re-read after the first hits L2.
    ctas = tr * inst
    heads_in_flight = min(inst, ceil_div(min(ctas, gpu.sm_count), tr) + 1)
    kv_working_set = heads_in_flight * 2 * n * d * b
    kv_in_l2 = kv_working_set <= l2_usable
    once = (4 * nd) * b + n * am.lse_bytes * inst  # Q, K, V read once, O and the logsumexp written
    flash = AttentionCost(
        "flash", "FlashAttention-2 style (tiles in shared memory, online softmax)",
        (step("fused: S, softmax, O per block", flash_reads, flash_writes, 2 * mm_flops, soft + rescale, nn,
              once if kv_in_l2 else None, ("l2" if kv_in_l2 else "hbm") if tr > 1 else ""),),
        kernels=1, shared_bytes_per_block=smem(br, bc), launch_overhead_seconds=model.launch_overhead_us * 1e-6,
    )
    assert naive.global_bytes == naive_hbm_bytes(n, d, b, inst)
    assert flash.global_bytes == flash_hbm_bytes(n, d, b, br, am.lse_bytes, inst)

    assumptions = (
        ATTENTION("no_mask"),
        ATTENTION("stored", dtype=dt.name, b=b),
        ATTENTION("softmax", flop=am.softmax_flops_per_score, lanes=gpu.arch.sfu_lanes_per_sub_partition),
        ATTENTION("flash_order"),
        ATTENTION("kv_in_l2" if kv_in_l2 else "kv_not_in_l2", h=heads_in_flight, ws=kv_working_set,
                  frac=model.l2_usable_fraction, l2=gpu.l2_bytes),
        ATTENTION("s_in_l2" if s_hits else "s_from_hbm", s=nn * b),
        ATTENTION("kernel_time", tflops=peak.value, eff=hbm_eff, bw=gpu.memory_bandwidth_gbs, l2bw=l2_bw / 1e9),
    )
    return AttentionComparison(
        gpu=gpu.name, seq_len=n, head_dim=d, heads=heads, batch=batch, dtype=dt.name, element_bytes=b,
        block_q=br, block_kv=bc, naive=naive, flash=flash, kv_working_set_bytes=kv_working_set,
        l2_usable_bytes=l2_usable,
        assumptions=assumptions, notes=tuple(notes),
    )
