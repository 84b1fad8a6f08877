// Test oracle: runs configurations through NVIDIA's cuda_occupancy.h.
// Built by tests/test_occupancy_vs_header.py when g++ and the CUDA toolkit are present;
// never shipped. Input lines (stdin):
//   major minor maxThreadsPerSm smemPerSm smemOptin reserved threads regs smemStatic smemDynamic carveout barriers
// Output lines: status blocks limitingFactors limWarps limRegs limSmem limBlocks limBars allocRegs allocSmem
#include <cstdio>
#include <climits>
#include <cuda_occupancy.h>

int main() {
    int major, minor, maxThreadsSm, threads, regs, carveout, barriers;
    long smemSm, smemOptin, reserved, smemStatic, smemDynamic;
    while (scanf("%d %d %d %ld %ld %ld %d %d %ld %ld %d %d", &major, &minor, &maxThreadsSm, &smemSm, &smemOptin,
                 &reserved, &threads, &regs, &smemStatic, &smemDynamic, &carveout, &barriers) == 12) {
        cudaOccDeviceProp prop;
        prop.computeMajor = major;
        prop.computeMinor = minor;
        prop.maxThreadsPerBlock = 1024;
        prop.maxThreadsPerMultiprocessor = maxThreadsSm;
        prop.regsPerBlock = 65536;
        prop.regsPerMultiprocessor = 65536;
        prop.warpSize = 32;
        prop.sharedMemPerBlock = 49152;
        prop.sharedMemPerMultiprocessor = smemSm;
        prop.numSms = 100;
        prop.sharedMemPerBlockOptin = smemOptin;
        prop.reservedSharedMemPerBlock = reserved;

        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = 1024;
        attr.numRegs = regs;
        attr.sharedSizeBytes = smemStatic;
        attr.partitionedGCConfig = PARTITIONED_GC_OFF;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;   // the kernel opts in ...
        attr.maxDynamicSharedSizeBytes = smemDynamic;       // ... to exactly what it launches with
        attr.numBlockBarriers = barriers;
        attr.virtualResourceCount = 0;

        cudaOccDeviceState state;
        state.carveoutConfig = carveout;

        cudaOccResult r = {};
        cudaOccError st = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &prop, &attr, &state, threads, smemDynamic);
        printf("%d %d %u %d %d %d %d %d %d %zu\n", (int)st, r.activeBlocksPerMultiprocessor, r.limitingFactors,
               r.blockLimitWarps, r.blockLimitRegs, r.blockLimitSharedMem, r.blockLimitBlocks, r.blockLimitBarriers,
               r.allocatedRegistersPerBlock, r.allocatedSharedMemPerBlock);
    }
    return 0;
}
