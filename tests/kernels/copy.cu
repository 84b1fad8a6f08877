// Coalesced and strided copies: out[i] = in[i] and out[i] = in[i * stride].
extern "C" __global__ void copy_coalesced(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" __global__ void copy_strided(const float* in, float* out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride];
}

// 16-byte accesses: each thread moves one float4.
extern "C" __global__ void copy_vec4(const float4* in, float4* out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = in[i];
}

// A gather: out[i] = in[idx[i]] (data-dependent addresses, scattered sectors).
extern "C" __global__ void gather(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}
