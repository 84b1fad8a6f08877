// Every atomic operation, on global and on shared memory, 32 and 64 bits, integer and floating point.
// Each result is independent of the order the threads apply their operations in (sums of values whose
// partial sums are exact, min, max, and, or, xor, identical increments, exchanges and compare-and-swaps
// into a thread's own slot, a compare-and-swap retry loop), so numpy's answer is exact.

// g32: [add, sub, min, max, and, or, xor, inc, dec] (int/unsigned views); g64: [add, min, max, and, or, xor]
// gmin64 signed min/max as long long; fsum: float adds; dsum: double adds.
extern "C" __global__ void atomics_global(const int* v, int n, int* g32, unsigned long long* g64, long long* s64,
                                          float* fsum, double* dsum, int* slot, int* old, unsigned long long* slot64,
                                          unsigned long long* old64, float* fslot, float* fold, int* cas, int* casold,
                                          unsigned long long* cas64, unsigned long long* casold64, unsigned* product)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i];
    unsigned u = (unsigned)x;
    atomicAdd(&g32[0], x);
    atomicSub(&g32[1], x);
    atomicMin(&g32[2], x);
    atomicMax(&g32[3], x);
    atomicAnd(&g32[4], ~(1 << (i & 31)));
    atomicOr(&g32[5], 1 << (u % 29u));
    atomicXor(&g32[6], x * 2654435761u);
    atomicInc((unsigned*)&g32[7], 17u);   // ((old >= 17) ? 0 : old + 1): n increments from 0 end at n % 18
    atomicDec((unsigned*)&g32[8], 13u);   // ((old == 0 || old > 13) ? 13 : old - 1)
    atomicMin((unsigned*)&g32[9], u);
    atomicMax((unsigned*)&g32[10], u);
    unsigned long long w = (unsigned long long)u * 0x9E3779B97F4A7C15ull;
    atomicAdd(&g64[0], w);
    atomicMin(&g64[1], w);
    atomicMax(&g64[2], w);
    atomicAnd(&g64[3], ~(1ull << (i & 63)));
    atomicOr(&g64[4], 1ull << (w >> 58));
    atomicXor(&g64[5], w);
    atomicMin(&s64[0], (long long)x * -1000003ll);
    atomicMax(&s64[1], (long long)x * -1000003ll);
    atomicAdd(&fsum[0], (float)(x & 255) * 0.5f);   // exact partial sums: order does not matter
    atomicAdd(&fsum[1], -0.25f);
    atomicAdd(&dsum[0], (double)x * 0.125);
    atomicAdd(&dsum[1], 1.0);
    old[i] = atomicExch(&slot[i], x);                 // each thread its own slot: old = the slot's first value
    old64[i] = atomicExch(&slot64[i], w);
    fold[i] = atomicExch(&fslot[i], (float)x * 0.5f);
    casold[i] = atomicCAS(&cas[i], (i % 3 == 0) ? i : -1, x);           // swaps where i % 3 == 0
    casold64[i] = atomicCAS(&cas64[i], (i % 4 == 1) ? (unsigned long long)i : 0ull, w);
    // a retry loop: product *= (2u * (i % 7) + 1) with compare-and-swap (lanes of a warp contend for it)
    unsigned seen = *(volatile unsigned*)product, want;
    do {
        want = seen;
        seen = atomicCAS(product, want, want * (2u * (unsigned)(i % 7) + 1u));
    } while (seen != want);
}

// The same on shared memory, per block; thread 0 writes the block's results: out32[block * 12 + k],
// out64[block * 8 + k], outf[block * 2 + k], outd[block * 2 + k]; exchanges and CAS into each thread's slot.
extern "C" __global__ void atomics_shared(const int* v, int* out32, unsigned long long* out64, float* outf,
                                          double* outd, int* old, int* casold)
{
    __shared__ int s32[12];
    __shared__ unsigned long long s64[8];
    __shared__ float sf[2];
    __shared__ double sd[2];
    __shared__ int slot[256];
    __shared__ int cas[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < 12) s32[t] = (t == 2) ? 0x7fffffff : (t == 3) ? (int)0x80000000 : (t == 4) ? -1 : (t == 9) ? -1 : 0;
    if (t < 8) s64[t] = (t == 1) ? ~0ull : (t == 3) ? ~0ull : 0ull;
    if (t < 2) { sf[t] = 0.f; sd[t] = 0.0; }
    slot[t] = -t;
    cas[t] = t;
    __syncthreads();
    int x = v[i];
    unsigned u = (unsigned)x;
    atomicAdd(&s32[0], x);
    atomicSub(&s32[1], x);
    atomicMin(&s32[2], x);
    atomicMax(&s32[3], x);
    atomicAnd(&s32[4], ~(1 << (t & 31)));
    atomicOr(&s32[5], 1 << (u % 29u));
    atomicXor(&s32[6], x * 2654435761u);
    atomicInc((unsigned*)&s32[7], 17u);
    atomicDec((unsigned*)&s32[8], 13u);
    atomicMin((unsigned*)&s32[9], u);
    atomicMax((unsigned*)&s32[10], u);
    atomicAdd(&s32[11], 1);
    unsigned long long w = (unsigned long long)u * 0x9E3779B97F4A7C15ull;
    atomicAdd(&s64[0], w);
    atomicMin(&s64[1], w);
    atomicMax(&s64[2], w);
    atomicAnd(&s64[3], ~(1ull << (t & 63)));
    atomicOr(&s64[4], 1ull << (w >> 58));
    atomicXor(&s64[5], w);
    atomicAdd(&sf[0], (float)(x & 255) * 0.5f);
    atomicAdd(&sf[1], -0.25f);
    atomicAdd(&sd[0], (double)x * 0.125);
    atomicAdd(&sd[1], 1.0);
    old[i] = atomicExch(&slot[t], x);
    casold[i] = atomicCAS(&cas[t], (t % 3 == 0) ? t : -1, x);
    __syncthreads();
    if (t < 12) out32[blockIdx.x * 12 + t] = s32[t];
    if (t < 8) out64[blockIdx.x * 8 + t] = s64[t];
    if (t < 2) { outf[blockIdx.x * 2 + t] = sf[t]; outd[blockIdx.x * 2 + t] = sd[t]; }
    // the slots after the exchange and the CAS, summed per block (every slot holds its thread's value now)
    if (t == 0) {
        int a = 0, b = 0;
        for (int k = 0; k < blockDim.x; ++k) { a += slot[k]; b += cas[k]; }
        out32[gridDim.x * 12 + blockIdx.x * 2] = a;
        out32[gridDim.x * 12 + blockIdx.x * 2 + 1] = b;
    }
}
