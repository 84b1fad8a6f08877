/* A stand-in for libcuda.so.1 that implements the driver calls explorer.gpu.worker makes,
 * so the whole measure path (cuda-bindings included) runs on a machine without a GPU.
 * "Device memory" is host memory; launching we_kernel writes plausible per-warp records
 * (132 SMs, 8 blocks per SM, 1980 MHz, a 32 ns globaltimer), we_tick writes timer steps.
 *
 * It also holds the worker to the real driver's rules, so tests can prove them:
 * - dynamic shared memory above (48 KB - the kernel's static shared memory) fails the launch
 *   with CUDA_ERROR_INVALID_VALUE unless CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
 *   allows it (static shared memory is read from the cubin's .nv.shared.<kernel> section);
 * - FAKE_CUDA_LOG=FILE appends one line per memset, attribute, launch, capture and graph
 *   launch ("memset BYTES", "launch KERNEL SHMEM", "setattr ATTR VALUE", ...), so tests can
 *   check what ran before the recorded launch (the L2 flush, the opt-in);
 * - FAKE_CUDA_PIDFILE=FILE appends the pid of every process that calls cuInit (tests check
 *   that no worker outlives a killed step).
 * FAKE_CUDA_FAULT=1 makes every kernel launch fail with CUDA_ERROR_ILLEGAL_ADDRESS (700);
 * FAKE_CUDA_HANG=1 makes cuStreamSynchronize wait forever (a kernel that never ends);
 * FAKE_CUDA_HANG_KERNEL=NAME does so from the first launch of kernel NAME on;
 * FAKE_CUDA_REFUSE_KERNEL=NAME refuses every launch of kernel NAME with CUDA_ERROR_INVALID_VALUE.
 *
 * The microbenchmarks (resources/microbench/microbench.cu, kernels mb_*) get answers whose
 * figures a test can compute by hand, so the host side's arithmetic and plumbing are checked:
 * a pointer chase of 2^bits lines costs 100 + bits cycles per load (300 + bits with .cg),
 * shared memory 29, a dependent FFMA 4; a loaded-latency warp 700 + 10 W cycles per load from
 * an array of 64 MiB or more (DRAM), 330 + W from a smaller one, 300 + W with .cg (W = warps per
 * SM), at 50 W, 200 W and 250 W GB/s; DRAM read/write/copy run at 4,000 GB/s, the L2 read at
 * 8,000, the FFMA rate is 60 TFLOP/s; the SM clock is 1980 MHz; a spinning kernel takes its
 * time plus a 1.7 us gap on the fake clock (and, from 10 ms on, in real time before a
 * synchronize returns, so NVML can be polled while it "runs"); its launch span goes to its
 * record. Memsets above 256 MiB only log (the fake's "device memory" is calloc'd host memory,
 * zero already; a 2 GiB memset would commit 2 GiB of this machine's RAM).
 * Build: cc -shared -fPIC -o libcuda.so.1 fake_libcuda.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef uint64_t u64;
enum { SMS = 132, PER_SM = 8, DEFAULT_SMEM = 48 * 1024 };
static int fault(void) { const char* f = getenv("FAKE_CUDA_FAULT"); return f && *f == '1'; }

static void logf_(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void logf_(const char* fmt, ...) {
    const char* path = getenv("FAKE_CUDA_LOG");
    if (!path || !*path) return;
    FILE* f = fopen(path, "a");
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

CUresult cuInit(unsigned flags) {
    const char* path = getenv("FAKE_CUDA_PIDFILE");
    if (path && *path) {
        FILE* f = fopen(path, "a");
        if (f) { fprintf(f, "%d\n", (int)getpid()); fclose(f); }
    }
    return 0;
}
CUresult cuDriverGetVersion(int* v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int* n) { *n = 1; return 0; }
CUresult cuDeviceGet(int* d, int i) { *d = i; return i == 0 ? 0 : 101; }
CUresult cuDeviceGetName(char* b, int len, int d) { strncpy(b, "NVIDIA H200", len); return 0; }
CUresult cuDeviceGetAttribute(int* v, int a, int d) {
    switch (a) {
    case 16: *v = SMS; break;             /* MULTIPROCESSOR_COUNT */
    case 75: *v = 9; break; case 76: *v = 0; break;
    case 39: *v = 2048; break;            /* MAX_THREADS_PER_MULTIPROCESSOR */
    case 13: *v = 1980000; break;         /* CLOCK_RATE (kHz) */
    case 38: *v = 52428800; break;        /* L2 */
    case 81: *v = 233472; break;          /* shared per SM */
    case 97: *v = 232448; break;          /* optin */
    default: *v = 0;
    }
    return 0;
}
CUresult cuDeviceTotalMem_v2(size_t* b, int d) { *b = (size_t)141 << 30; return 0; }
CUresult cuDeviceGetPCIBusId(char* b, int len, int d) { strncpy(b, "0000:1B:00.0", len); return 0; }
CUresult cuDeviceGetUuid(char* u, int d) { memset(u, 0xab, 16); return 0; }
CUresult cuDeviceGetUuid_v2(char* u, int d) { memset(u, 0xab, 16); return 0; }
static int ctx_token;
CUresult cuDevicePrimaryCtxRetain(void** c, int d) { *c = &ctx_token; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
CUresult cuCtxSetCurrent(void* c) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuMemGetInfo_v2(size_t* f, size_t* t) { *f = (size_t)100 << 30; *t = (size_t)141 << 30; return 0; }

typedef struct { int kind; int static_smem; int max_dyn; const char* name; } Func;  /* kind 1 = we_kernel, 2 = we_tick, 3 = mb_* */
static Func f_kernel = {1, 0, DEFAULT_SMEM, "we_kernel"}, f_tick = {2, 0, DEFAULT_SMEM, "we_tick"};
enum { MB_MAX = 32 };
static Func f_mb[MB_MAX];
static char mb_names[MB_MAX][64];
static int mb_count = 0;
static int module_token;

/* Static shared memory of a kernel in a cubin (ELF64): the size of .nv.shared.NAME, less the
 * 1 KB the driver reserves on sm_90+ when the cubin says so (a .nv.reservedSmem symbol). */
static int static_shared(const unsigned char* img, const char* kernel) {
    const Elf64_Ehdr* eh = (const Elf64_Ehdr*)img;
    const Elf64_Shdr* sh = (const Elf64_Shdr*)(img + eh->e_shoff);
    const char* names = (const char*)(img + sh[eh->e_shstrndx].sh_offset);
    char want[256];
    snprintf(want, sizeof want, ".nv.shared.%s", kernel);
    long size = 0;
    int reserved = 0;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (!strcmp(names + sh[i].sh_name, want)) size = (long)sh[i].sh_size;
        if (sh[i].sh_type == SHT_SYMTAB) {
            const Elf64_Sym* sym = (const Elf64_Sym*)(img + sh[i].sh_offset);
            const char* str = (const char*)(img + sh[sh[i].sh_link].sh_offset);
            for (size_t k = 0; k < sh[i].sh_size / sizeof(Elf64_Sym); k++) {
                const char* n = str + sym[k].st_name;
                if (!strncmp(n, ".nv.reservedSmem", 16) || !strncmp(n, "__nv_reservedSMEM", 17)) reserved = 1;
            }
        }
    }
    if (reserved && size >= 1024) size -= 1024;
    return (int)size;
}

CUresult cuModuleLoadData(void** m, const void* image) {
    const unsigned char* p = image;
    if (!p || p[0] != 0x7f || p[1] != 'E') return 200; /* CUDA_ERROR_INVALID_IMAGE */
    f_kernel.static_smem = static_shared(p, "we_kernel");
    f_kernel.max_dyn = DEFAULT_SMEM - f_kernel.static_smem;
    f_tick.static_smem = 0;
    f_tick.max_dyn = DEFAULT_SMEM;
    *m = &module_token; return 0;
}
CUresult cuModuleUnload(void* m) { return 0; }
CUresult cuModuleGetFunction(void** f, void* m, const char* name) {
    if (!strcmp(name, "we_kernel")) { *f = &f_kernel; return 0; }
    if (!strcmp(name, "we_tick")) { *f = &f_tick; return 0; }
    if (!strncmp(name, "mb_", 3) && strlen(name) < 64) {
        for (int i = 0; i < mb_count; i++) if (!strcmp(mb_names[i], name)) { *f = &f_mb[i]; return 0; }
        if (mb_count == MB_MAX) return 2;
        strcpy(mb_names[mb_count], name);
        f_mb[mb_count] = (Func){3, 0, DEFAULT_SMEM, mb_names[mb_count]};
        *f = &f_mb[mb_count++];
        return 0;
    }
    return 500; /* CUDA_ERROR_NOT_FOUND */
}
static int last_regs = 24;
CUresult cuFuncGetAttribute(int* v, int attr, void* f) {
    Func* fn = f;
    switch (attr) {
    case 4: *v = last_regs; break;       /* NUM_REGS */
    case 0: *v = 1024; break;            /* MAX_THREADS_PER_BLOCK */
    case 1: *v = fn->static_smem; break; /* SHARED_SIZE_BYTES */
    case 8: *v = fn->max_dyn; break;     /* MAX_DYNAMIC_SHARED_SIZE_BYTES */
    default: *v = 0;
    }
    return 0;
}
CUresult cuFuncSetAttribute(void* f, int attr, int value) {
    Func* fn = f;
    logf_("setattr %d %d", attr, value);
    if (attr == 8) {  /* MAX_DYNAMIC_SHARED_SIZE_BYTES: at most the opt-in limit less static */
        if (value < 0 || value + fn->static_smem > 232448) return 1;
        fn->max_dyn = value;
    }
    return 0;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void* f, int block, size_t dyn) {
    *n = 2048 / block; if (*n > 32) *n = 32;
    if (((Func*)f)->kind == 3) {  /* the microbenchmarks: shared memory as the driver counts it (1 KB reserved) */
        int by_smem = 233472 / ((int)dyn + ((Func*)f)->static_smem + 1024);
        if (by_smem < *n) *n = by_smem;
        return 0;
    }
    if (dyn > 100000) *n = 1;
    return 0;
}
static struct { u64 p; size_t n; } allocs[64];
CUresult cuMemAlloc_v2(u64* p, size_t n) {
    void* m = calloc(1, n); if (!m) return 2; *p = (u64)(uintptr_t)m;
    for (int i = 0; i < 64; i++) if (!allocs[i].p) { allocs[i].p = *p; allocs[i].n = n; break; }
    return 0;
}
static size_t alloc_size(u64 p) { for (int i = 0; i < 64; i++) if (allocs[i].p == p) return allocs[i].n; return 0; }
CUresult cuMemFree_v2(u64 p) {
    for (int i = 0; i < 64; i++) if (allocs[i].p == p) allocs[i].p = 0;
    free((void*)(uintptr_t)p); return 0;
}
CUresult cuMemsetD8_v2(u64 p, unsigned char c, size_t n) {
    logf_("memset %zu", n);
    if (n > ((size_t)256 << 20)) return 0;  /* see the top: only logged */
    memset((void*)(uintptr_t)p, c, n); return 0;
}
CUresult cuMemsetD8Async(u64 p, unsigned char c, size_t n, void* s) { return cuMemsetD8_v2(p, c, n); }
CUresult cuMemcpyDtoH_v2(void* dst, u64 src, size_t n) { memcpy(dst, (void*)(uintptr_t)src, n); return 0; }
static int stream_token;
static int capturing = 0, captured = 0;
CUresult cuStreamCreate(void** s, unsigned flags) { *s = &stream_token; return 0; }
CUresult cuStreamDestroy_v2(void* s) { return 0; }
static double busy_until = 0;  /* CLOCK_MONOTONIC seconds until which a long spinning kernel "runs" */
static double mono(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9; }
static void wait_busy(void) {
    double left = busy_until - mono();
    if (left > 0) { struct timespec ts = {(time_t)left, (long)((left - (time_t)left) * 1e9)}; nanosleep(&ts, 0); }
}
static int hung = 0;  /* FAKE_CUDA_HANG_KERNEL's kernel was launched */
CUresult cuStreamSynchronize(void* s) {
    const char* h = getenv("FAKE_CUDA_HANG");
    if ((h && *h == '1') || hung) for (;;) sleep(1);  /* a kernel that never finishes */
    wait_busy();
    return 0;
}
typedef struct { double t; } Event;
static double now_ms = 0;
CUresult cuEventCreate(void** e, unsigned flags) { *e = calloc(1, sizeof(Event)); return 0; }
CUresult cuEventRecord(void* e, void* s) { ((Event*)e)->t = now_ms; return 0; }
CUresult cuEventSynchronize(void* e) { if (hung) for (;;) sleep(1); wait_busy(); return 0; }
CUresult cuEventElapsedTime(float* ms, void* a, void* b) { *ms = (float)(((Event*)b)->t - ((Event*)a)->t); return 0; }
CUresult cuEventElapsedTime_v2(float* ms, void* a, void* b) { return cuEventElapsedTime(ms, a, b); }
CUresult cuEventDestroy_v2(void* e) { free(e); return 0; }

static void run_kernel(Func* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       void** params);

CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shmem, void* stream, void** params, void** extra) {
    Func* fn = f;
    if (fault()) return 700;
    if ((int)shmem > fn->max_dyn) {  /* the real driver: more than allowed without the opt-in */
        logf_("launch-refused %s %u (max dynamic %d)", fn->name, shmem, fn->max_dyn);
        return 1;                     /* CUDA_ERROR_INVALID_VALUE */
    }
    const char* refuse = getenv("FAKE_CUDA_REFUSE_KERNEL");
    if (refuse && !strcmp(refuse, fn->name)) return 1;
    if (capturing) { captured++; logf_("capture-launch %s %u", fn->name, shmem); return 0; }
    const char* hang_kernel = getenv("FAKE_CUDA_HANG_KERNEL");
    if (hang_kernel && !strcmp(hang_kernel, fn->name)) hung = 1;
    logf_("launch %s %u", fn->name, shmem);
    run_kernel(fn, gx, gy, gz, bx, by, bz, params);
    return 0;
}

static u64 P64(void** params, int i) { return *(u64*)params[i]; }
static unsigned P32(void** params, int i) { return *(unsigned*)params[i]; }
static u64* PTR(void** params, int i) { return (u64*)(uintptr_t)P64(params, i); }

/* The microbenchmarks' answers (see the top of the file). */
static void run_mb(Func* fn, unsigned gx, unsigned bx, void** params) {
    const char* n = fn->name;
    const double sms = SMS;
    if (!strcmp(n, "mb_clock")) {
        u64* out = PTR(params, 1); u64 span = P64(params, 0);
        out[0] = span; out[1] = span * 198 / 100; out[2] = 0; now_ms += span / 1e6;
    } else if (!strcmp(n, "mb_chase") || !strcmp(n, "mb_chase_cg")) {
        unsigned bits = P32(params, 1), steps = P32(params, 6); u64* out = PTR(params, 7);
        u64 loads = (steps + 15) / 16 * 16, per = (n[8] == '_' ? 300 : 100) + bits;
        out[0] = loads * per; out[1] = loads; out[2] = 0; out[3] = 0; now_ms += loads * per / 1.98e6;
    } else if (!strcmp(n, "mb_chase_shared")) {
        unsigned steps = P32(params, 2); u64* out = PTR(params, 3); u64 loads = (steps + 15) / 16 * 16;
        out[0] = loads * 29; out[1] = loads; out[2] = 0; out[3] = 0;
    } else if (!strcmp(n, "mb_ffma_dep")) {
        unsigned trips = P32(params, 2); u64* out = PTR(params, 3);
        out[0] = (u64)trips * 64 * 4; out[1] = (u64)trips * 64; out[2] = 0; out[3] = 0;
    } else if (!strcmp(n, "mb_ffma_rate")) {
        now_ms += 2.0 * 128 * P32(params, 2) * (double)gx * bx / 6e10;  /* 60 TFLOP/s */
    } else if (!strcmp(n, "mb_read") || !strcmp(n, "mb_write")) {
        now_ms += 16.0 * P64(params, 1) / 4e9;  /* 4,000 GB/s */
    } else if (!strcmp(n, "mb_copy")) {
        now_ms += 2 * 16.0 * P64(params, 2) / 4e9;
    } else if (!strcmp(n, "mb_read_l2")) {
        now_ms += 16.0 * P64(params, 1) * P32(params, 2) / 8e9;  /* 8,000 GB/s */
    } else if (!strcmp(n, "mb_loaded") || !strcmp(n, "mb_loaded_cg")) {
        u64 mask = P64(params, 1); unsigned iters = P32(params, 2); u64* rec = PTR(params, 3);
        unsigned wpb = bx / 32; double w = gx * (double)wpb / sms;
        int cg = n[9] == '_', dram = !cg && (mask + 1) * 512 >= ((u64)64 << 20);
        double per = cg ? 300 + w : dram ? 700 + 10 * w : 330 + w, gbs = cg ? 250 * w : dram ? 50 * w : 200 * w;
        for (u64 b = 0; b < gx; b++)
            for (unsigned k = 0; k < wpb; k++) {
                u64* r = rec + (b * wpb + k) * 4;
                r[0] = (u64)(iters * per); r[1] = iters; r[2] = b % SMS; r[3] = (u64)(iters * per / 1.98);
            }
        now_ms += gx * (double)wpb * iters * 512 / (gbs * 1e6);
    } else if (!strcmp(n, "mb_spin")) {
        u64 ns = P64(params, 0); u64* rec = PTR(params, 1); unsigned slot = P32(params, 2);
        u64 t0 = 1000000000ull + (u64)(now_ms * 1e6), t1 = t0 + ns;
        if (rec) {
            if (t0 < rec[2 * slot]) rec[2 * slot] = t0;
            if (~t1 < rec[2 * slot + 1]) rec[2 * slot + 1] = ~t1;
        }
        now_ms += ns / 1e6 + 0.0017;
        if (ns >= 10000000ull) { double end = mono() + ns / 1e9; if (end > busy_until) busy_until = end; }
    } else {
        now_ms += 0.001;  /* mb_chain, mb_touch, mb_empty */
    }
}

static void run_kernel(Func* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       void** params) {
    if (fn->kind == 3) { run_mb(fn, gx * gy * gz, bx * by * bz, params); return; }
    if (fn->kind == 2) {
        u64* out = (u64*)(uintptr_t)(*(u64*)params[0]);
        unsigned n = *(unsigned*)params[1];
        u64 span = *(u64*)params[2];
        out[0] = span; out[1] = span * 198 / 100; out[2] = n < 10 ? n : 10; out[3] = 0;
        for (unsigned i = 0; i < 10 && i < n; i++) out[4 + i] = 32;
        return;
    }
    u64* rec = (u64*)(uintptr_t)(*(u64*)params[2]);
    unsigned threads = bx * by * bz, wpb = (threads + 31) / 32;
    u64 blocks = (u64)gx * gy * gz;
    u64 t0 = 1000000000ull;
    int per_block = alloc_size(*(u64*)params[2]) < blocks * wpb * 64;  /* records per block: fold warps */
    /* measure --iteration-clocks: the kernel's 9th parameter; the test says how many clocks per warp */
    const char* ic = getenv("FAKE_CUDA_ITERATION_CLOCKS");
    int per_warp_clocks = ic ? atoi(ic) : 0;
    u64* iclk = (per_warp_clocks >= 2 && !per_block) ? PTR(params, 8) : 0;
    for (u64 b = 0; b < blocks; b++) {
        unsigned sm = (unsigned)(b % SMS);
        u64 wave = b / (SMS * PER_SM);
        for (unsigned w = 0; w < wpb; w++) {
            u64* r = rec + (per_block ? b : b * wpb + w) * 8;
            u64 s = t0 + wave * 6000 + (b / SMS % PER_SM) * 20 + w * 3, e = s + 5000 + (w % 4) * 100;
            u64 gs = s - s % 32, ge = e - e % 32;
            u64 cs = 777000 * (sm + 1) + (s - t0) * 198 / 100, ce = 777000 * (sm + 1) + (e - t0) * 198 / 100;
            if (per_block) {  /* as the kernel's atomicMax: starts stored inverted */
                if (~gs > r[0]) r[0] = ~gs;
                if (ge > r[1]) r[1] = ge;
                if (~cs > r[2]) r[2] = ~cs;
                if (ce > r[3]) r[3] = ce;
            } else {
                r[0] = gs; r[1] = ge; r[2] = cs; r[3] = ce;
            }
            r[4] = (u64)sm | ((u64)sm << 32); r[5] = (b % PER_SM) * wpb + w; r[6] = SMS; r[7] = b;
            if (iclk) {  /* even iterations; warps 100-119 lose 3,000 cycles in iteration 5 */
                u64 g = b * wpb + w, step = (ce - cs) / (u64)(per_warp_clocks - 1);
                for (int k = 0; k < per_warp_clocks; k++)
                    iclk[g * per_warp_clocks + k] = cs + k * step + (g >= 100 && g < 120 && k > 5 ? 3000 : 0);
            }
        }
    }
    now_ms += 0.006 * (double)((blocks + SMS * PER_SM - 1) / (SMS * PER_SM));
}

/* Stream capture and graphs: a captured launch is counted, not run; a graph launch advances
 * the fake clock by its kernels' time (the NVML window's back-to-back launches). */
typedef struct { int launches; } Graph;
CUresult cuStreamBeginCapture_v2(void* s, int mode) { capturing = 1; captured = 0; logf_("capture-begin"); return 0; }
CUresult cuStreamEndCapture(void* s, void** graph) {
    Graph* g = calloc(1, sizeof(Graph)); g->launches = captured;
    capturing = 0; *graph = g; logf_("capture-end %d", captured); return 0;
}
CUresult cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags) {
    Graph* g = calloc(1, sizeof(Graph)); *g = *(Graph*)graph; *exec = g; return 0;
}
CUresult cuGraphLaunch(void* exec, void* s) {
    logf_("graph-launch %d", ((Graph*)exec)->launches);
    now_ms += 0.006 * ((Graph*)exec)->launches; return 0;
}
CUresult cuGraphExecDestroy(void* exec) { free(exec); return 0; }
CUresult cuGraphDestroy(void* graph) { free(graph); return 0; }

static const char* errname(int e) {
    switch (e) { case 0: return "CUDA_SUCCESS"; case 1: return "CUDA_ERROR_INVALID_VALUE";
                 case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
                 case 200: return "CUDA_ERROR_INVALID_IMAGE"; case 500: return "CUDA_ERROR_NOT_FOUND";
                 default: return "CUDA_ERROR_UNKNOWN"; }
}
CUresult cuGetErrorName(int e, const char** s) { *s = errname(e); return 0; }
CUresult cuGetErrorString(int e, const char** s) { *s = e == 700 ? "an illegal memory access was encountered" : errname(e); return 0; }

/* cuda-bindings resolves every entry point through cuGetProcAddress: answer with our
 * symbols, preferring the _v2 ABI where we define one. */
static CUresult lookup(const char* symbol, void** pfn, int* status) {
    char name[256];
    snprintf(name, sizeof name, "%s_v2", symbol);
    void* p = dlsym(RTLD_DEFAULT, name);
    if (!p) p = dlsym(RTLD_DEFAULT, symbol);
    if (status) *status = p ? 0 : 1;
    if (!p) logf_("missing %s", symbol);
    *pfn = p;
    return p ? 0 : 500;
}
CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, u64 flags, int* status) {
    return lookup(symbol, pfn, status);
}
CUresult cuGetProcAddress(const char* symbol, void** pfn, int version, u64 flags) { return lookup(symbol, pfn, 0); }
/* NVRTC looks for the driver's private tables when a driver is present: say there are none. */
CUresult cuGetExportTable(const void** table, const void* id) { *table = 0; return 801; }
