// Probe kernel for the SASS opcode table: one dependent chain per operation class, so the
// compiler's control bits (stall counts, scoreboard barriers) show each opcode's latency kind.
// Compiled for every architecture family by tests/sass/test_opcode_table.py (no GPU needed).
#include <cuda_fp16.h>

extern "C" __global__ void probe(const float* __restrict__ in, float* out, double* dout, unsigned* uout,
                                 const double* __restrict__ din, int n, float f, double d)
{
    __shared__ float sm[256];
    const unsigned t = threadIdx.x;
    unsigned u = t * 2654435761u + (unsigned)n;
    // integer / logic chain
    u = u + (unsigned)n;          u = u ^ (u >> 7);      u = (u << 3) | (u >> 29);
    u = __byte_perm(u, t, 0x3210 + n);  u = max(u, (unsigned)n);  u = u * 9u + t;
    u = __popc(u) + __clz(u) + __brev(u) + __ffs(u);
    // fp32 chain with special functions and conversions
    float x = in[t] * f + 1.0f;
    x = __expf(x); x = rsqrtf(x); x = __sinf(x); x = __fdividef(x, f); x = sqrtf(x); x = log2f(x);
    x = x + (float)u;             unsigned v = (unsigned)x;  x = fminf(x, f);
    // half precision
    __half2 h = __floats2half2_rn(x, f);
    h = __hfma2(h, h, h);         h = __hadd2(h, h);     x = __low2float(h) + __high2float(h);
    // double precision
    double y = din[t] * d + (double)x;
    y = fma(y, d, y);             y = y * d;             y = y + (double)v;
    float z = (float)y;
    // warp-level and shared memory
    z += __shfl_xor_sync(0xffffffffu, z, 1);
    unsigned b = __ballot_sync(0xffffffffu, z > 0.f);
    sm[t] = z;
    __syncthreads();
    z += sm[(t + 1) & 255];
    atomicAdd(out + (t & 7), z);
    unsigned old = atomicAdd(uout, b);
    out[t] = z + (float)old;
    dout[t] = y;
}
