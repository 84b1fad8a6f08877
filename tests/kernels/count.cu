// Every thread adds 1 to one counter, and its index to a slot of its warp: global atomics whose lines the caches
// see (the counter's one sector, and one sector per warp for the slots of 8 warps sharing a 32 B sector).
extern "C" __global__ void count(unsigned* counter, unsigned* slots, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&counter[0], 1u);
    atomicAdd(&slots[i >> 5], (unsigned)i);
}
