// Histogram of byte values with atomics: per-block bins in shared memory, then global atomics.
extern "C" __global__ void histogram(const unsigned char* data, unsigned* bins, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

// Straight to global memory (one atomic per element), with the old value kept.
extern "C" __global__ void histogram_global(const int* keys, int* bins, int* old, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = keys[i] % nbins;
        if (k < 0) k += nbins;
        old[i] = atomicAdd(&bins[k], 1) >= 0;
    }
}
