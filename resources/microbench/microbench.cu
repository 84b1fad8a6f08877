// Warp Explorer's microbenchmarks: the hardware facts the catalog needs, measured on the GPU itself.
//
// Launched by explorer/gpu/microbench.py (python -m explorer microbench, run by
// scripts/device_check.py); the argument list of every kernel is in microbench.py's KERNELS,
// which a test checks against the signatures below. Every kernel is extern "C" (plain names
// for cuModuleGetFunction) and reads the clocks through inline PTX:
//   %clock64      the SM's cycle counter (latencies are in SM cycles);
//   %globaltimer  the GPU's nanosecond timer (the same on every SM: kernel spans, gaps);
//   %smid         the SM a warp runs on (warps per SM are checked from it).
// Loads that are measured are inline PTX, `asm volatile` so the compiler keeps each one and its
// order: plain `ld.global` (SASS LDG.E: through L1, as an ordinary load and as MICROBENCH.md's
// `ld`) or `ld.global.cg` (LDG.E.STRONG.GPU: L2 only, L1 bypassed).
// Nothing here is timed by the host except where a figure is a host cost; bandwidths and
// rates are bytes (or FLOP) over CUDA event time, as MICROBENCH.md's were.

typedef unsigned long long u64;
typedef unsigned int u32;

__device__ __forceinline__ u64 mb_clock64() { u64 t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)); return t; }
__device__ __forceinline__ u64 mb_gtimer() { u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ u32 mb_smid() { u32 r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

// A bijection on [0, 2^bits): xor with the seed, then three rounds of (multiply by an odd
// constant, xor-shift right). Each step is invertible modulo 2^bits, so k -> mb_mix(k) visits
// every line once: line mb_mix(k) points to line mb_mix(k + 1) and the chase is one cycle of
// all 2^bits lines in a scrambled order (tests/gpu/test_microbench.py runs this code on the
// CPU, through the project's SASS executor, and follows the cycle).
__device__ __forceinline__ u64 mb_mix(u64 x, u32 bits, u64 seed)
{
    const u64 mask = bits >= 64u ? ~0ull : ((1ull << bits) - 1ull);
    const u32 shift = (bits + 1u) >> 1;
    x = (x ^ seed) & mask;
#pragma unroll
    for (int r = 0; r < 3; ++r) {
        x = (x * 0x9E3779B97F4A7C15ull) & mask;
        x ^= x >> shift;
    }
    return x & mask;
}

// ---- the SM clock: one thread spins span_ns of %globaltimer and counts %clock64 meanwhile
extern "C" __global__ void mb_clock(u64 span_ns, u64* out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    const u64 t0 = mb_gtimer();
    const u64 c0 = mb_clock64();
    u64 t = t0;
    while (t - t0 < span_ns) t = mb_gtimer();
    const u64 c1 = mb_clock64();
    out[0] = t - t0;
    out[1] = c1 - c0;
    out[2] = mb_smid();
}

// ---- pointer chains: 2^bits lines of stride_words 8-byte words; each line's first word holds
// the address of the next line of the cycle (absolute, so a chase is one load per step)
extern "C" __global__ void mb_chain(u64* base, u32 bits, u32 stride_words, u64 seed)
{
    const u64 n = 1ull << bits;
    const u64 mask = n - 1ull;
    for (u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (u64)gridDim.x * blockDim.x) {
        const u64 cur = mb_mix(k, bits, seed);
        const u64 nxt = mb_mix((k + 1ull) & mask, bits, seed);
        base[cur * stride_words] = (u64)(base + nxt * stride_words);
    }
}

// Reads the first word of every line (L2 only), so a working set that fits is in L2 before a chase.
extern "C" __global__ void mb_touch(const u64* base, u64 words, u32 stride_words, u64* sink)
{
    u64 acc = 0;
    const u64 step = (u64)gridDim.x * blockDim.x * stride_words;
    for (u64 i = ((u64)blockIdx.x * blockDim.x + threadIdx.x) * stride_words; i < words; i += step) {
        u64 v;
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(base + i));
        acc ^= v;
    }
    if (acc == 0x5EED5EED5EED5EEDull) sink[0] = acc;  // never: the lines hold addresses
}

template <bool CG>
__device__ __forceinline__ u64 mb_step(u64 p)
{
    if (CG) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p) :: "memory");
    else asm volatile("ld.global.u64 %0, [%0];" : "+l"(p) :: "memory");
    return p;
}

// One thread, from the cycle's line number `first` (a repetition that starts elsewhere touches
// other lines, and other pages): `warm` steps (not timed: they bring the lines into L1 or L2),
// then `steps` dependent loads (rounded up to 16) timed by clock64. out: cycles, loads, the
// final address (keeps the chain live), the SM.
template <bool CG>
__device__ __forceinline__ void mb_chase_body(const u64* base, u32 bits, u32 stride_words, u64 seed, u64 first,
                                              u32 warm, u32 steps, u64* out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    const u64 mask = bits >= 64u ? ~0ull : ((1ull << bits) - 1ull);
    u64 p = (u64)(base + mb_mix(first & mask, bits, seed) * stride_words);
#pragma unroll 1
    for (u32 i = 0; i < warm; ++i) p = mb_step<CG>(p);
    const u32 trips = (steps + 15u) >> 4;
    const u64 c0 = mb_clock64();
#pragma unroll 1
    for (u32 i = 0; i < trips; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) p = mb_step<CG>(p);
    }
    const u64 c1 = mb_clock64();
    out[0] = c1 - c0;
    out[1] = (u64)trips * 16ull;
    out[2] = p;
    out[3] = mb_smid();
}

extern "C" __global__ void mb_chase(const u64* base, u32 bits, u32 stride_words, u64 seed, u64 first, u32 warm,
                                    u32 steps, u64* out)
{
    mb_chase_body<false>(base, bits, stride_words, seed, first, warm, steps, out);
}

extern "C" __global__ void mb_chase_cg(const u64* base, u32 bits, u32 stride_words, u64 seed, u64 first, u32 warm,
                                    u32 steps, u64* out)
{
    mb_chase_body<true>(base, bits, stride_words, seed, first, warm, steps, out);
}

// Shared memory: a cycle of 2^bits 4-byte slots (bits <= 10: 4 KiB), one thread.
extern "C" __global__ void mb_chase_shared(u32 bits, u64 seed, u32 steps, u64* out)
{
    __shared__ u32 ring[1024];
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    if (bits > 10u) bits = 10u;
    const u32 n = 1u << bits;
    const u32 base = (u32)__cvta_generic_to_shared(ring);
    for (u32 k = 0; k < n; ++k)
        ring[(u32)mb_mix(k, bits, seed)] = base + 4u * (u32)mb_mix((k + 1u) & (n - 1u), bits, seed);
    asm volatile("" ::: "memory");
    u32 p = base + 4u * (u32)mb_mix(0ull, bits, seed);
#pragma unroll 1
    for (u32 i = 0; i < n; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p) :: "memory");
    const u32 trips = (steps + 15u) >> 4;
    const u64 c0 = mb_clock64();
#pragma unroll 1
    for (u32 i = 0; i < trips; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p) :: "memory");
    }
    const u64 c1 = mb_clock64();
    out[0] = c1 - c0;
    out[1] = (u64)trips * 16ull;
    out[2] = p;
    out[3] = mb_smid();
}

// ---- FFMA: the dependent latency (one warp, 64 dependent FMAs per trip) and the rate
// (8 independent chains per thread, 16 FMAs each per trip: 128 per thread per trip)
extern "C" __global__ void mb_ffma_dep(float a, float b, u32 trips, u64* out)
{
    float x = (float)threadIdx.x;
    const u64 c0 = mb_clock64();
#pragma unroll 1
    for (u32 i = 0; i < trips; ++i) {
#pragma unroll
        for (int j = 0; j < 64; ++j) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    }
    const u64 c1 = mb_clock64();
    if (threadIdx.x == 0) {
        out[0] = c1 - c0;
        out[1] = (u64)trips * 64ull;
        out[2] = __float_as_uint(x);
        out[3] = mb_smid();
    }
}

extern "C" __global__ void mb_ffma_rate(float a, float b, u32 trips, float* sink)
{
    float x0 = threadIdx.x, x1 = x0 + 1.f, x2 = x0 + 2.f, x3 = x0 + 3.f;
    float x4 = x0 + 4.f, x5 = x0 + 5.f, x6 = x0 + 6.f, x7 = x0 + 7.f;
#pragma unroll 1
    for (u32 i = 0; i < trips; ++i) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x0) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x1) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x2) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x3) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x4) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x5) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x6) : "f"(a), "f"(b));
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x7) : "f"(a), "f"(b));
        }
    }
    const float s = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
    if (__float_as_uint(s) == 0x7FC0FFEEu) sink[0] = s;  // a NaN payload no sum of these makes
}

// ---- bandwidth: float4 grid-stride loops over n4 float4s (the buffers are zeroed), four
// independent float4s per thread per trip, so a warp has four 512 B requests in flight (one per
// trip would leave DRAM short of requests: Little's law at ~1 us and 4.8 TB/s needs ~5 MB in flight)
__device__ __forceinline__ float mb_sum4(const float4 v) { return (v.x + v.y) + (v.z + v.w); }

extern "C" __global__ void mb_read(const float4* __restrict__ src, u64 n4, float* sink)
{
    const u64 stride = (u64)gridDim.x * blockDim.x;
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (; i + 3ull * stride < n4; i += 4ull * stride) {
        const float4 a = src[i], b = src[i + stride], c = src[i + 2ull * stride], d = src[i + 3ull * stride];
        acc += (mb_sum4(a) + mb_sum4(b)) + (mb_sum4(c) + mb_sum4(d));
    }
    for (; i < n4; i += stride) acc += mb_sum4(src[i]);
    if (acc == 1.2345f) sink[0] = acc;  // never: the buffer holds zeros
}

extern "C" __global__ void mb_write(float4* __restrict__ dst, u64 n4, float value)
{
    const float4 v = make_float4(value, value, value, value);
    const u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) dst[i] = v;
}

extern "C" __global__ void mb_copy(const float4* __restrict__ src, float4* __restrict__ dst, u64 n4)
{
    const u64 stride = (u64)gridDim.x * blockDim.x;
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3ull * stride < n4; i += 4ull * stride) {
        const float4 a = src[i], b = src[i + stride], c = src[i + 2ull * stride], d = src[i + 3ull * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2ull * stride] = c;
        dst[i + 3ull * stride] = d;
    }
    for (; i < n4; i += stride) dst[i] = src[i];
}

// `passes` reads of an L2-resident buffer with L1 bypassed (__ldcg: ld.global.cg)
extern "C" __global__ void mb_read_l2(const float4* __restrict__ src, u64 n4, u32 passes, float* sink)
{
    const u64 stride = (u64)gridDim.x * blockDim.x;
    float acc = 0.f;
#pragma unroll 1
    for (u32 pass = 0; pass < passes; ++pass) {
        u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
        for (; i + 3ull * stride < n4; i += 4ull * stride) {
            const float4 a = __ldcg(src + i), b = __ldcg(src + i + stride);
            const float4 c = __ldcg(src + i + 2ull * stride), d = __ldcg(src + i + 3ull * stride);
            acc += (mb_sum4(a) + mb_sum4(b)) + (mb_sum4(c) + mb_sum4(d));
        }
        for (; i < n4; i += stride) acc += mb_sum4(__ldcg(src + i));
    }
    if (acc == 1.2345f) sink[0] = acc;
}

// ---- loaded latency: every warp loads 512 B (32 lanes x float4, 4 lines), one load in flight
// (the next address adds the loaded value, which is 0), `iters` times; chunk g of 512 B is
// read by warp g % warps in turn, so the whole grid streams through the array (wrapping at
// chunk_mask + 1 chunks). rec, 4 words per warp: clock64 cycles, loads, SM | acc bits << 32,
// %globaltimer ns.
template <bool CG>
__device__ __forceinline__ float4 mb_load4(const float4* p)
{
    float4 v;
    if (CG) asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                         : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory");
    else asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
                      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory");
    return v;
}

template <bool CG>
__device__ __forceinline__ void mb_loaded_body(const float4* arr, u64 chunk_mask, u32 iters, u64* rec)
{
    const u32 lane = threadIdx.x & 31u;
    const u64 wpb = blockDim.x >> 5;
    const u64 gw = (u64)blockIdx.x * wpb + (threadIdx.x >> 5);
    const u64 warps = (u64)gridDim.x * wpb;
    u64 chunk = gw;
    float acc = 0.f;
    const u64 t0 = mb_gtimer();
    const u64 c0 = mb_clock64();
#pragma unroll 1
    for (u32 i = 0; i < iters; ++i) {
        const float4 v = mb_load4<CG>(arr + ((chunk & chunk_mask) * 32ull + lane));
        chunk += warps + (u64)__float_as_uint(v.x);
        acc += (v.y + v.z) + v.w;  // every lane's 16 B are used: the load stays 128 bits wide
    }
    const u64 c1 = mb_clock64();
    const u64 t1 = mb_gtimer();
    if (lane == 0) {
        u64* r = rec + gw * 4ull;
        r[0] = c1 - c0;
        r[1] = iters;
        r[2] = (u64)mb_smid() | ((u64)__float_as_uint(acc) << 32);
        r[3] = t1 - t0;
    }
}

extern "C" __global__ void mb_loaded(const float4* arr, u64 chunk_mask, u32 iters, u64* rec)
{
    mb_loaded_body<false>(arr, chunk_mask, iters, rec);
}

extern "C" __global__ void mb_loaded_cg(const float4* arr, u64 chunk_mask, u32 iters, u64* rec)
{
    mb_loaded_body<true>(arr, chunk_mask, iters, rec);
}

// ---- launches and NVML: every thread spins ns of %globaltimer from its own start; with rec,
// the launch's first start and last end go to rec[2 slot] and rec[2 slot + 1] (the end stored
// inverted, so both are atomicMin over a buffer filled with ones)
extern "C" __global__ void mb_spin(u64 ns, u64* rec, u32 slot)
{
    const u64 t0 = mb_gtimer();
    u64 t = t0;
    while (t - t0 < ns) t = mb_gtimer();
    if (rec != 0 && threadIdx.x == 0) {
        atomicMin(rec + 2ull * slot, t0);
        atomicMin(rec + 2ull * slot + 1ull, ~t);
    }
}

extern "C" __global__ void mb_empty() {}
