// Divergent branches: per-lane if/else, a loop whose trip count varies by lane, early exits.
extern "C" __global__ void divergent(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int r;
    if (threadIdx.x & 1) {
        r = v * 3 + 1;
    } else {
        r = v / 2 - 7;
    }
    if ((threadIdx.x & 7) == 0) {
        for (int k = 0; k < (threadIdx.x & 31); ++k) r += k ^ v;
    } else if ((threadIdx.x & 7) == 3) {
        r = -r;
    }
    int steps = 0;
    unsigned x = (unsigned)(v & 0xffff) + 1u;
    while (x != 1u && steps < 200) {   // Collatz: a data-dependent trip count per lane
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        ++steps;
    }
    out[i] = r + steps;
}

// Only lanes 0..k-1 of each warp do anything; the others leave at once.
extern "C" __global__ void partial_warp(float* out, int k)
{
    int lane = threadIdx.x & 31;
    if (lane >= k) return;
    out[blockIdx.x * blockDim.x + threadIdx.x] = sqrtf((float)lane) + 1.0f / (float)(lane + 1);
}

// Lane j runs the loop j times: iteration k issues with the lanes above k (a shrinking mask).
extern "C" __global__ void lane_loop(const int* in, int* out)
{
    int lane = threadIdx.x & 31;
    int acc = 0;
#pragma unroll 1
    for (int k = 0; k < lane; ++k) acc += in[k] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A switch the compiler turns into a jump table (an indirect branch, BRX): each lane its own case.
extern "C" __global__ void switch_table(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i], r;
    switch (v & 15) {
        case 0: r = v * 3; break;
        case 1: r = v - 17; break;
        case 2: r = v ^ 0x5a5a; break;
        case 3: r = v << 2; break;
        case 4: r = -v; break;
        case 5: r = v * v; break;
        case 6: r = v + 1000; break;
        case 7: r = v >> 1; break;
        case 8: r = ~v; break;
        case 9: r = v * 7 + 1; break;
        case 10: r = v & 0xff; break;
        case 11: r = v | 0x100; break;
        default: r = 12345;
    }
    out[i] = r;
}
