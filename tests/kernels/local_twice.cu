// A per-thread array indexed at run time lives in local memory: 32 words a thread, written once, read twice.
extern "C" __global__ void local_twice(const float* in, float* out, int n, int k)
{
    float tmp[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
#pragma unroll 1
    for (int j = 0; j < 32; ++j) tmp[j] = x * j;
    float s = 0.0f;
#pragma unroll 1
    for (int p = 0; p < 2; ++p) {
#pragma unroll 1
        for (int j = 0; j < 32; ++j) s += tmp[(j * 7 + k) & 31];
    }
    out[i] = s;
}
