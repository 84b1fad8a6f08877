"""The kernel suite: real CUDA kernels (tests/kernels/*.cu), their launches and numpy's answers.

Each case names a kernel, its grid and block, its arguments (as a scenario's [kernel.args]
table) and a function that computes from the inputs what the buffers must hold after the
kernel; ``tol`` is the relative tolerance for floating-point outputs (0: exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

KERNELS = Path(__file__).resolve().parent.parent / "kernels"


def buf(dtype, count, init="zeros", **kw):
    return {"dtype": dtype, "count": count, "init": init, **kw}


@dataclass(frozen=True)
class Case:
    file: str
    name: str
    grid: tuple
    block: tuple
    args: dict
    expect: object  # inputs (dict of arrays and scalars) -> {buffer: expected array}
    tol: float = 0.0
    dynamic_shared: int = 0
    id: str = ""
    checks: dict = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return KERNELS / self.file


def fma32(a, b, c) -> np.ndarray:
    """a*b + c rounded once to FP32 (what FFMA does): exact rationals, nearest, ties to even."""
    a, b, c = (np.broadcast_to(np.asarray(x, dtype=np.float32), np.broadcast(a, b, c).shape).ravel() for x in (a, b, c))
    out = np.empty(a.shape, dtype=np.float32)
    for k in range(a.size):
        exact = Fraction(float(a[k])) * Fraction(float(b[k])) + Fraction(float(c[k]))
        r = np.float32(float(exact))
        best = r
        for cand in (np.nextafter(r, np.float32(-np.inf)), np.nextafter(r, np.float32(np.inf))):
            d_c, d_b = abs(Fraction(float(cand)) - exact), abs(Fraction(float(best)) - exact)
            if d_c < d_b or (d_c == d_b and int(cand.view(np.uint32)) % 2 == 0):
                best = cand
        out[k] = best
    return out


def fma64(a, b, c) -> np.ndarray:
    """a*b + c rounded once to FP64 (DFMA)."""
    return np.array([float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(*np.broadcast_arrays(a, b, c))], dtype=np.float64)


def _saxpy(v):
    return {"y": fma32(v["a"], v["x"], v["y"])}


def _transpose(v, rows, cols):
    return {"out": v["in"].reshape(rows, cols).T.reshape(-1).copy()}


def _matmul(v, M, N, K):
    A = v["A"].reshape(M, K).astype(np.float64)
    B = v["B"].reshape(K, N).astype(np.float64)
    return {"C": (A @ B).astype(np.float32).reshape(-1)}


def _reduce_shared(v, n, block):
    x = np.zeros(-(-n // block) * block, dtype=np.float64)
    x[:n] = v["in"]
    return {"partial": x.reshape(-1, block).sum(axis=1).astype(np.float32)}


def _reduce_shuffle(v, n, threads):
    x = np.zeros(threads, dtype=np.int64)
    x[:n] = v["in"]
    warps = x.reshape(-1, 32)
    ballots = np.array([sum(1 << k for k in range(32) if w[k] > 0) for w in warps], dtype=np.uint64)
    return {"total": np.array([x.sum()], dtype=np.int32), "votes": ballots.astype(np.uint32)}


def _warp_max(v, n, threads):
    x = np.full(threads, -1e30, dtype=np.float32)
    x[:n] = v["in"]
    w = x.reshape(-1, 32)
    mx = np.repeat(w.max(axis=1), 32)[:n]
    inside = np.arange(threads) < n
    neg = np.repeat([(w[k][inside.reshape(-1, 32)[k]] < 0).any() for k in range(w.shape[0])], 32)[:n]
    pos = np.repeat([(w[k][inside.reshape(-1, 32)[k]] > 0).all() for k in range(w.shape[0])], 32)[:n]
    return {"out": mx.astype(np.float32), "flags": (neg.astype(np.int32) * 2 + pos.astype(np.int32))}


def _histogram(v, nbins=256):
    return {"bins": np.bincount(v["data"].astype(np.int64), minlength=nbins).astype(np.uint32)}


def _histogram_global(v, nbins):
    k = v["keys"].astype(np.int64) % nbins
    return {"bins": np.bincount(k, minlength=nbins).astype(np.int32), "old": np.ones(len(k), dtype=np.int32)}


def _divergent(v, n, threads):
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        x = int(v["in"][i])
        t = i % threads
        r = x * 3 + 1 if t & 1 else int(x / 2) - 7
        if (t & 7) == 0:
            for k in range(t & 31):
                r += k ^ x
        elif (t & 7) == 3:
            r = -r
        steps, u = 0, (x & 0xFFFF) + 1
        while u != 1 and steps < 200:
            u = 3 * u + 1 if u & 1 else u >> 1
            u &= 0xFFFFFFFF
            steps += 1
        out[i] = r + steps
    return {"out": ((out + 2**31) % 2**32 - 2**31).astype(np.int32)}


def _partial_warp(v, k, threads):
    lane = np.arange(threads) % 32
    ref = (np.sqrt(lane.astype(np.float32)) + np.float32(1.0) / (lane + 1).astype(np.float32)).astype(np.float32)
    return {"out": np.where(lane < k, ref, np.float32(0)).astype(np.float32)}


def _halves(v):
    a = v["a"].astype(np.float32)
    b = v["b"].astype(np.float32)
    c = (a * b + np.float32(0.5)).astype(np.float16)  # one rounding: the product is exact in FP32
    d = (a - b).astype(np.float32)
    bits = d.view(np.uint32).astype(np.uint64)
    bf = (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF).astype(np.uint16)
    return {"c": c, "d": bf}


def _half2_axpy(v, alpha=(1.5, -0.25)):
    x = v["x"].astype(np.float32).reshape(-1, 2)
    y = v["y"].astype(np.float32).reshape(-1, 2)
    al = np.array(alpha, dtype=np.float32)
    return {"y": (al * x + y).astype(np.float16).reshape(-1)}


def _int_math(v):
    a = v["a"].astype(np.int64)
    b = v["b"].astype(np.int64)
    q = np.trunc(a / b).astype(np.int64)
    r = a - q * b
    ua = a & 0xFFFFFFFF
    clz = np.array([32 - int(x).bit_length() if x >= 0 else 0 for x in a], dtype=np.int64)
    popc = np.array([bin(int(x)).count("1") for x in ua], dtype=np.int64)
    u = (ua >> (b & 31)) ^ popc ^ clz ^ (np.minimum(a, b) & 0xFFFFFFFF) ^ (np.maximum(a, -b) & 0xFFFFFFFF)
    f = (a.astype(np.float32) / b.astype(np.float32) + (ua % 7).astype(np.float32)).astype(np.float32)
    return {"q": q.astype(np.int32), "r": r.astype(np.int32), "u": (u & 0xFFFFFFFF).astype(np.uint32), "f": f}


def _float_math(v):
    x = v["a"].astype(np.float32)
    out = (np.sqrt(np.abs(x)) + np.exp(x * np.float32(0.1)) + np.minimum(x, np.float32(1.5)) + np.floor(x)
           + np.trunc(x) + np.float32(1) / np.sqrt(np.abs(x) + np.float32(1)))
    return {"out": out.astype(np.float32)}


def _doubles(v):
    x = v["a"]
    y = fma64(x, 1.5, 0.25)  # ptxas contracts x*1.5 + 0.25 and y*y - x into DFMA
    i = np.arange(len(x), dtype=np.float64)
    return {"out": fma64(y, y, -x), "outf": (y + i).astype(np.float32)}


def _local_mem(v, n):
    i = np.arange(n, dtype=np.int64)
    idx = v["idx"].astype(np.int64)
    k = np.arange(64)
    buf = k[None, :] * k[None, :] + i[:, None]
    rows = np.arange(n)
    buf[rows, idx & 63] = -i
    return {"out": (buf[rows, (idx + 5) & 63] + buf[rows, idx & 63]).astype(np.int32)}


def _scale_by(v):
    return {"data": (v["data"] * np.float32(3)).astype(np.float32)}


def _add_one(v, n, step):
    d = v["data"].astype(np.int64)
    d[:n] += 1 + step
    return {"data": d.astype(np.int32)}


def _copy(v):
    return {"out": v["in"].copy()}


def _copy_strided(v, n, stride):
    return {"out": v["in"][: n * stride: stride].copy()}


def _gather(v):
    return {"out": v["in"][v["idx"].astype(np.int64)]}


M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _i32(x: int) -> int:
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def _i64(x: int) -> int:
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def _inc(old: int, limit: int) -> int:  # atomicInc: ((old >= limit) ? 0 : old + 1), unsigned
    return 0 if old >= limit else old + 1


def _dec(old: int, limit: int) -> int:  # atomicDec: ((old == 0) | (old > limit)) ? limit : old - 1, unsigned
    return limit if old == 0 or old > limit else old - 1


def _atomics_global(v, n):
    """What atomics_global leaves behind, computed one operation at a time (every result is order-free)."""
    x = [int(a) for a in v["v"][:n]]
    g = [int(a) for a in v["g32"]]
    u = [a & M32 for a in g]  # the unsigned view of the same words
    g64 = [int(a) for a in v["g64"]]
    s64 = [int(a) for a in v["s64"]]
    for i, a in enumerate(x):
        w = ((a & M32) * GOLDEN) & M64
        u[0] = (u[0] + a) & M32
        u[1] = (u[1] - a) & M32
        u[2] = min(_i32(u[2]), a) & M32
        u[3] = max(_i32(u[3]), a) & M32
        u[4] &= ~(1 << (i & 31)) & M32
        u[5] |= 1 << ((a & M32) % 29)
        u[6] ^= (a * 2654435761) & M32
        u[7] = _inc(u[7], 17)
        u[8] = _dec(u[8], 13)
        u[9] = min(u[9], a & M32)
        u[10] = max(u[10], a & M32)
        g64[0] = (g64[0] + w) & M64
        g64[1] = min(g64[1], w)
        g64[2] = max(g64[2], w)
        g64[3] &= ~(1 << (i & 63)) & M64
        g64[4] |= 1 << (w >> 58)
        g64[5] ^= w
        s64[0] = min(s64[0], a * -1000003)
        s64[1] = max(s64[1], a * -1000003)
    xs = np.array(x, dtype=np.int64)
    idx = np.arange(n)
    w = (((xs & M32).astype(object) * GOLDEN) & M64).astype(np.uint64)
    fsum = v["fsum"].astype(np.float64) + [((xs & 255) * 0.5).sum(), -0.25 * n]
    dsum = v["dsum"] + [(xs * 0.125).sum(), float(n)]
    slot, slot64, fslot = v["slot"].copy(), v["slot64"].copy(), v["fslot"].copy()
    cas, cas64 = v["cas"].copy(), v["cas64"].copy()
    old, old64, fold = slot[:n].copy(), slot64[:n].copy(), fslot[:n].copy()
    casold, casold64 = cas[:n].copy(), cas64[:n].copy()
    slot[:n], slot64[:n], fslot[:n] = xs, w, (xs * 0.5).astype(np.float32)
    swap = (idx % 3 == 0) & (cas[:n] == idx)
    cas[:n] = np.where(swap, xs, cas[:n])
    swap64 = cas64[:n] == np.where(idx % 4 == 1, idx, 0).astype(np.uint64)
    cas64[:n] = np.where(swap64, w, cas64[:n])
    product = int(v["product"][0])
    for i in range(n):
        product = (product * (2 * (i % 7) + 1)) & M32
    return {"g32": np.array([_i32(a) for a in u], dtype=np.int32), "g64": np.array(g64, dtype=np.uint64),
            "s64": np.array(s64, dtype=np.int64), "fsum": fsum.astype(np.float32), "dsum": dsum,
            "slot": slot, "old": old, "slot64": slot64, "old64": old64, "fslot": fslot, "fold": fold,
            "cas": cas, "casold": casold, "cas64": cas64, "casold64": casold64,
            "product": np.array([product], dtype=np.uint32)}


def _atomics_shared(v, blocks, threads):
    """What atomics_shared writes: each block's shared-memory atomics from their initial values."""
    out32 = np.zeros(blocks * 14, dtype=np.int32)
    out64 = np.zeros(blocks * 8, dtype=np.uint64)
    outf = np.zeros(blocks * 2, dtype=np.float32)
    outd = np.zeros(blocks * 2, dtype=np.float64)
    old = np.zeros(blocks * threads, dtype=np.int32)
    casold = np.zeros(blocks * threads, dtype=np.int32)
    for b in range(blocks):
        u = [0, 0, 0x7FFFFFFF, 0x80000000, M32, 0, 0, 0, 0, M32, 0, 0]
        s = [0, M64, 0, M64, 0, 0, 0, 0]
        xs = [int(a) for a in v["v"][b * threads:(b + 1) * threads]]
        for t, a in enumerate(xs):
            w = ((a & M32) * GOLDEN) & M64
            u[0] = (u[0] + a) & M32
            u[1] = (u[1] - a) & M32
            u[2] = min(_i32(u[2]), a) & M32
            u[3] = max(_i32(u[3]), a) & M32
            u[4] &= ~(1 << (t & 31)) & M32
            u[5] |= 1 << ((a & M32) % 29)
            u[6] ^= (a * 2654435761) & M32
            u[7] = _inc(u[7], 17)
            u[8] = _dec(u[8], 13)
            u[9] = min(u[9], a & M32)
            u[10] = max(u[10], a & M32)
            u[11] += 1
            s[0] = (s[0] + w) & M64
            s[1] = min(s[1], w)
            s[2] = max(s[2], w)
            s[3] &= ~(1 << (t & 63)) & M64
            s[4] |= 1 << (w >> 58)
            s[5] ^= w
        x = np.array(xs, dtype=np.int64)
        t = np.arange(threads)
        out32[b * 12:(b + 1) * 12] = [_i32(a) for a in u]
        out64[b * 8:(b + 1) * 8] = s
        outf[b * 2:(b + 1) * 2] = [((x & 255) * 0.5).sum(), -0.25 * threads]
        outd[b * 2:(b + 1) * 2] = [(x * 0.125).sum(), float(threads)]
        old[b * threads:(b + 1) * threads] = -t
        casold[b * threads:(b + 1) * threads] = t
        out32[blocks * 12 + 2 * b] = _i32(int(x.sum()))
        out32[blocks * 12 + 2 * b + 1] = _i32(int(np.where(t % 3 == 0, x, t).sum()))
    return {"out32": out32, "out64": out64, "outf": outf, "outd": outd, "old": old, "casold": casold}


def _switch_table(v, n):
    x = v["in"][:n].astype(np.int64)
    k = x & 15
    table = [x * 3, x - 17, x ^ 0x5A5A, x << 2, -x, x * x, x + 1000, x >> 1, ~x, x * 7 + 1, x & 0xFF, x | 0x100]
    r = np.full(n, 12345, dtype=np.int64)
    for case, value in enumerate(table):
        r = np.where(k == case, value, r)
    return {"out": ((r + 2**31) % 2**32 - 2**31).astype(np.int32)}


def _add_min_max(v, n):
    a, b, c = (v[k][:n].astype(np.int64) for k in ("a", "b", "c"))
    s = (a + b + 2**31) % 2**32 - 2**31  # int addition wraps
    us = (a + b) % 2**32
    uc = c % 2**32
    cols = [np.minimum(s, c), np.maximum(s, c), np.minimum(us, uc), np.maximum(us, uc),
            np.minimum(np.minimum(a, b), c), np.maximum(np.maximum(a, b), c)]
    out = np.stack(cols, axis=1).reshape(-1)
    return {"out": ((out + 2**31) % 2**32 - 2**31).astype(np.int32)}


def cases() -> list[Case]:
    n = 3000
    out = []
    out.append(Case("saxpy.cu", "saxpy", (4, 1, 1), (256, 1, 1),  # 1024 threads: the loop runs 3 times
                    {"n": n, "a": 2.5, "x": buf("f32", n, "random", low=-1, high=1), "y": buf("f32", n, "arange")},
                    _saxpy, id="saxpy-grid-stride"))
    out.append(Case("copy.cu", "copy_coalesced", (12, 1, 1), (256, 1, 1),
                    {"in": buf("f32", n, "random"), "out": buf("f32", n), "n": n}, _copy, id="copy-coalesced"))
    out.append(Case("copy.cu", "copy_strided", (4, 1, 1), (256, 1, 1),
                    {"in": buf("f32", 1024 * 8, "random"), "out": buf("f32", 1024), "n": 1024, "stride": 8},
                    lambda v: _copy_strided(v, 1024, 8), id="copy-strided"))
    out.append(Case("copy.cu", "copy_vec4", (2, 1, 1), (128, 1, 1),
                    {"in": buf("f32", 4 * 250, "random"), "out": buf("f32", 4 * 250), "n4": 250}, _copy,
                    id="copy-vec4"))
    rows, cols = 70, 45
    tp = {"in": buf("f32", rows * cols, "random"), "out": buf("f32", rows * cols), "rows": rows, "cols": cols}
    for kname in ("transpose_naive", "transpose_tiled", "transpose_conflicts"):
        out.append(Case("transpose.cu", kname, (2, 3, 1), (32, 32, 1), tp, lambda v: _transpose(v, rows, cols),
                        id=kname.replace("_", "-")))
    out.append(Case("reduce.cu", "reduce_shared", (6, 1, 1), (128, 1, 1),
                    {"in": buf("f32", 700, "random"), "partial": buf("f32", 6), "n": 700},
                    lambda v: _reduce_shared(v, 700, 128), tol=1e-5, dynamic_shared=128 * 4, id="reduce-shared"))
    out.append(Case("reduce.cu", "reduce_shuffle", (3, 1, 1), (128, 1, 1),
                    {"in": buf("i32", 350, "random", low=-50, high=50), "total": buf("i32", 1),
                     "votes": buf("u32", 12), "n": 350},
                    lambda v: _reduce_shuffle(v, 350, 384), id="reduce-shuffle"))
    out.append(Case("reduce.cu", "warp_max", (2, 1, 1), (96, 1, 1),
                    {"in": buf("f32", 150, "random", low=-1, high=1), "out": buf("f32", 150),
                     "flags": buf("i32", 150), "n": 150},
                    lambda v: _warp_max(v, 150, 192), id="warp-max-vote"))
    M, N, K = 40, 35, 50
    out.append(Case("matmul.cu", "matmul_tiled", (3, 3, 1), (16, 16, 1),
                    {"A": buf("f32", M * K, "random"), "B": buf("f32", K * N, "random"), "C": buf("f32", M * N),
                     "M": M, "N": N, "K": K}, lambda v: _matmul(v, M, N, K), tol=1e-5, id="matmul-tiled"))
    out.append(Case("histogram.cu", "histogram", (4, 1, 1), (128, 1, 1),
                    {"data": buf("u8", 5000, "random"), "bins": buf("u32", 256), "n": 5000}, _histogram,
                    id="histogram-shared-atomics"))
    out.append(Case("histogram.cu", "histogram_global", (8, 1, 1), (128, 1, 1),
                    {"keys": buf("i32", 1000, "random", low=0, high=1000), "bins": buf("i32", 37),
                     "old": buf("i32", 1000), "n": 1000, "nbins": 37},
                    lambda v: _histogram_global(v, 37), id="histogram-global-atomics"))
    out.append(Case("divergence.cu", "divergent", (3, 1, 1), (64, 1, 1),
                    {"in": buf("i32", 180, "random", low=-1000, high=1000), "out": buf("i32", 180), "n": 180},
                    lambda v: _divergent(v, 180, 64), id="divergent-branches"))
    out.append(Case("divergence.cu", "partial_warp", (2, 1, 1), (64, 1, 1),
                    {"out": buf("f32", 128), "k": 13}, lambda v: _partial_warp(v, 13, 128), id="partial-warp-exit"))
    out.append(Case("mixed.cu", "halves", (2, 1, 1), (64, 1, 1),
                    {"a": buf("f16", 100, "random", low=-2, high=2), "b": buf("f16", 100, "random", low=-2, high=2),
                     "c": buf("f16", 100), "d": buf("bf16", 100), "n": 100}, _halves, id="half-bf16"))
    out.append(Case("mixed.cu", "half2_axpy", (1, 1, 1), (64, 1, 1),
                    {"x": buf("f16", 120, "random"), "y": buf("f16", 120, "random"), "alpha": [1.5, -0.25],
                     "n2": 60}, _half2_axpy, tol=1e-3, id="half2-axpy"))
    out.append(Case("mixed.cu", "int_math", (2, 1, 1), (64, 1, 1),
                    {"a": buf("i32", 100, "random", low=-100000, high=100000),
                     "b": buf("i32", 100, "random", low=1, high=300), "q": buf("i32", 100), "r": buf("i32", 100),
                     "u": buf("u32", 100), "f": buf("f32", 100), "n": 100}, _int_math, id="int-math"))
    out.append(Case("mixed.cu", "float_math", (2, 1, 1), (64, 1, 1),
                    {"a": buf("f32", 100, "random", low=-20, high=20), "out": buf("f32", 100), "n": 100},
                    _float_math, tol=2e-6, id="float-math"))
    out.append(Case("mixed.cu", "doubles", (2, 1, 1), (64, 1, 1),
                    {"a": buf("f64", 100, "random"), "out": buf("f64", 100), "outf": buf("f32", 100), "n": 100},
                    _doubles, id="doubles"))
    out.append(Case("mixed.cu", "local_mem", (2, 1, 1), (64, 1, 1),
                    {"idx": buf("i32", 100, "random", low=0, high=1000), "out": buf("i32", 100), "n": 100},
                    lambda v: _local_mem(v, 100), id="local-memory"))
    out.append(Case("mixed.cu", "scale_by<3>", (2, 1, 1), (64, 1, 1),
                    {"data": buf("f32", 100, "random"), "n": 100}, _scale_by, id="template-cpp"))
    out.append(Case("mixed.cu", "add_one", (2, 1, 1), (64, 1, 1),
                    {"data": buf("i32", 128, "arange"), "n": 100, "step": 4}, lambda v: _add_one(v, 100, 4),
                    id="cpp-linkage"))
    out.append(Case("copy.cu", "gather", (3, 1, 1), (128, 1, 1),
                    {"in": buf("f32", 5000, "random"), "idx": buf("i32", 300, "random", low=0, high=5000),
                     "out": buf("f32", 300), "n": 300}, _gather, id="gather"))
    out.append(Case("divergence.cu", "switch_table", (2, 1, 1), (96, 1, 1),
                    {"in": buf("i32", 180, "random", low=-100000, high=100000), "out": buf("i32", 180), "n": 180},
                    lambda v: _switch_table(v, 180), id="switch-table"))
    big = 2**31 - 1
    out.append(Case("mixed.cu", "add_min_max", (2, 1, 1), (64, 1, 1),
                    {k: buf("i32", 100, "random", low=-big, high=big) for k in ("a", "b", "c")}
                    | {"out": buf("i32", 600), "n": 100}, lambda v: _add_min_max(v, 100), id="add-min-max"))
    na = 300  # 3 blocks of 128: the last block's lanes past n return at once
    out.append(Case("atomics.cu", "atomics_global", (3, 1, 1), (128, 1, 1),
                    {"v": buf("i32", na, "random", low=-1000, high=1000), "n": na,
                     "g32": buf("i32", 11, "random", low=-2**31, high=2**31), "g64": buf("u64", 6, "random", low=0,
                                                                                         high=2**63 - 1),
                     "s64": buf("i64", 2, "random", low=-2**40, high=2**40), "fsum": buf("f32", 2),
                     "dsum": buf("f64", 2, "ones"), "slot": buf("i32", na, "arange"), "old": buf("i32", na),
                     "slot64": buf("u64", na, "arange"), "old64": buf("u64", na), "fslot": buf("f32", na, "arange"),
                     "fold": buf("f32", na), "cas": buf("i32", na, "arange"), "casold": buf("i32", na),
                     "cas64": buf("u64", na, "arange"), "casold64": buf("u64", na), "product": buf("u32", 1, "ones")},
                    lambda v: _atomics_global(v, na), id="atomics-global"))
    out.append(Case("atomics.cu", "atomics_shared", (3, 1, 1), (128, 1, 1),
                    {"v": buf("i32", 384, "random", low=-1000, high=1000), "out32": buf("i32", 3 * 14),
                     "out64": buf("u64", 3 * 8), "outf": buf("f32", 6), "outd": buf("f64", 6),
                     "old": buf("i32", 384), "casold": buf("i32", 384)},
                    lambda v: _atomics_shared(v, 3, 128), id="atomics-shared"))
    return out


# the kernels every architecture of the catalog runs (issue 30, item 4): tests/execute/test_suite.py runs
# every case on sm_80, sm_89 and sm_90, and these on the others too
CATALOG = ("saxpy-grid-stride", "gather", "divergent-branches", "switch-table", "reduce-shared", "matmul-tiled",
           "atomics-global", "atomics-shared", "histogram-shared-atomics", "reduce-shuffle", "warp-max-vote",
           "add-min-max")
