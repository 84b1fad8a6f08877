#include <cuda_fp16.h>
#include <cuda_bf16.h>

// Half and bfloat16 arithmetic, float/int conversions, integer division and modulo, min/max.
extern "C" __global__ void halves(const __half* a, const __half* b, __half* c, __nv_bfloat16* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half x = a[i], y = b[i];
        c[i] = __hfma(x, y, __float2half(0.5f));
        d[i] = __float2bfloat16(__half2float(x) - __half2float(y));
    }
}

extern "C" __global__ void half2_axpy(const __half2* x, __half2* y, __half2 alpha, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) y[i] = __hfma2(alpha, x[i], y[i]);
}

extern "C" __global__ void int_math(const int* a, const int* b, int* q, int* r, unsigned* u, float* f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        q[i] = x / y;
        r[i] = x % y;
        unsigned ux = (unsigned)x;
        u[i] = (ux >> (y & 31)) ^ __popc(ux) ^ (unsigned)__clz(x) ^ (unsigned)min(x, y) ^ (unsigned)max(x, -y);
        f[i] = (float)x / (float)y + (float)(ux % 7u);
    }
}

extern "C" __global__ void float_math(const float* a, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        out[i] = sqrtf(fabsf(x)) + expf(x * 0.1f) + fminf(x, 1.5f) + floorf(x) + (float)(int)x + rsqrtf(fabsf(x) + 1.0f);
    }
}

extern "C" __global__ void doubles(const double* a, double* out, float* outf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i];
        double y = x * 1.5 + 0.25;
        out[i] = y * y - x;
        outf[i] = (float)(y + (double)i);
    }
}

// A local array indexed at run time (lives in local memory: written and read by index).
extern "C" __global__ void local_mem(const int* idx, int* out, int n)
{
    int buf[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64; ++k) buf[k] = k * k + i;
    if (i < n) {
        buf[idx[i] & 63] = -i;
        out[i] = buf[(idx[i] + 5) & 63] + buf[idx[i] & 63];
    }
}

// C++ linkage and a template: the name is found demangled.
template <int SCALE>
__global__ void scale_by(float* data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= (float)SCALE;
}
template __global__ void scale_by<3>(float*, int);

__global__ void add_one(int* data, long long n, unsigned short step)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1 + step;
}

// Integer min/max of three and of a sum (sm_100 and newer: VIMNMX3 and VIADDMNMX), signed and unsigned.
extern "C" __global__ void add_min_max(const int* a, const int* b, const int* c, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned ua = (unsigned)a[i], ub = (unsigned)b[i], uc = (unsigned)c[i];
        out[6 * i] = min(a[i] + b[i], c[i]);
        out[6 * i + 1] = max(a[i] + b[i], c[i]);
        out[6 * i + 2] = (int)min(ua + ub, uc);
        out[6 * i + 3] = (int)max(ua + ub, uc);
        out[6 * i + 4] = min(min(a[i], b[i]), c[i]);
        out[6 * i + 5] = max(max(a[i], b[i]), c[i]);
    }
}
