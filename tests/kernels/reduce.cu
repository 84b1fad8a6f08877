// Shared-memory tree reduction: one partial sum per block (blockDim.x a power of two, <= 1024).
extern "C" __global__ void reduce_shared(const float* in, float* partial, int n)
{
    extern __shared__ float buf[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = buf[0];
}

// Warp-shuffle reduction: each warp sums its 32 values with __shfl_down_sync, lane 0 adds the
// warp's sum to the total with one atomic; every thread's ballot of (value > 0) goes to votes.
extern "C" __global__ void reduce_shuffle(const int* in, int* total, unsigned* votes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(total, v);
        votes[i / 32] = ballot;
    }
}

// Butterfly (xor) all-reduce of a float max, and __any/__all votes.
extern "C" __global__ void warp_max(const float* in, float* out, int* flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : -1e30f;
    for (int m = 16; m > 0; m >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, m));
    int any_neg = __any_sync(0xffffffffu, i < n && in[i] < 0.0f);
    int all_pos = __all_sync(0xffffffffu, i >= n || in[i] > 0.0f);
    if (i < n) {
        out[i] = v;
        flags[i] = any_neg * 2 + all_pos;
    }
}
