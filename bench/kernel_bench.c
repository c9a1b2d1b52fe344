/*
 * kernel_bench: kernels on the device, from one PTX file (bench/kernels/bench_kernels.ptx,
 * nvcc 13's output for bench_kernels.cu), beside what bounds them.
 *
 * One source, two builds (DESIGN.md §12), like bench.c:
 *   - against extmem (CMake target extmem-kernel-bench, BENCH_EXTMEM): the PTX on the software
 *     device's portable executor, and each computation again as a C kernel run by
 *     extmem_launch_kernel on the same worker pool: the physical reference of this machine
 *     (what compiled code on all cores does), so the ratio says what the executor costs;
 *   - against NVIDIA's cuda.h and libcuda (bench/README.md): the same PTX on the GPU.
 *
 * Rows: an empty launch (queued in batches, and as a round trip with cuStreamSynchronize),
 * saxpy, a shared-memory tree reduction, a warp-shuffle reduction and a transcendental-heavy
 * kernel, as throughput.
 *
 * Options: --quick (small sizes, few runs: the CI smoke test), --ptx FILE, --runs N.
 */
#define _GNU_SOURCE

#if defined(BENCH_EXTMEM)
#include "extmem/extmem.h"
#else
#include <cuda.h>
#endif

#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The native tier's column (extmem on POSIX: Windows compiles no kernels). */
#if defined(EXTMEM_EXTMEM_H) && !defined(_WIN32)
#define BENCH_NATIVE 1
#include <unistd.h>
#endif

#ifndef BENCH_KERNELS_PTX
#define BENCH_KERNELS_PTX "bench/kernels/bench_kernels.ptx"
#endif

static void check(CUresult r, const char *what, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *name = NULL;
    cuGetErrorName(r, &name);
#ifdef EXTMEM_EXTMEM_H
    fprintf(stderr, "kernel_bench: %s failed (line %d): %s: %s\n", what, line, name ? name : "?", extmem_error_detail());
#else
    fprintf(stderr, "kernel_bench: %s failed (line %d): %s\n", what, line, name ? name : "?");
#endif
    exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

struct config {
    size_t runs;
    size_t n;       /* elements of the throughput kernels */
    size_t launches; /* per batch */
    const char *ptx;
};

static CUmodule module;
static CUstream stream;

static CUfunction function(const char *name)
{
    CUfunction f;
    CHECK(cuModuleGetFunction(&f, module, name));
    return f;
}

static double median_of(double *s, size_t n) { return bench_summarise(s, n).median; }

/* Median microseconds of `runs` launches of f, each waited for. */
static double time_kernel(const struct config *cfg, CUfunction f, unsigned grid, unsigned block, void **params)
{
    double *s = calloc(cfg->runs, sizeof(double));
    if (!s)
        exit(1);
    CHECK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, stream, params, NULL)); /* warm-up */
    CHECK(cuStreamSynchronize(stream));
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        CHECK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, stream, params, NULL));
        CHECK(cuStreamSynchronize(stream));
        s[i] = bench_now_us() - t0;
    }
    double m = median_of(s, cfg->runs);
    free(s);
    return m;
}

#ifdef EXTMEM_EXTMEM_H
/* ---- The same computations as C kernels (the physical reference) ---- */
struct c_args {
    int n;
    float a;
    const float *x;
    float *y;
};

static void c_saxpy(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    int base = (int)(b->blockIdx.x * b->blockDim.x);
    int end = base + (int)b->blockDim.x < a->n ? base + (int)b->blockDim.x : a->n;
    for (int i = base; i < end; ++i)
        a->y[i] = a->a * a->x[i] + a->y[i];
}

static void c_reduce(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    float v = 0;
    int stride = (int)(b->blockDim.x * b->gridDim.x);
    for (int t = 0; t < (int)b->blockDim.x; ++t)
        for (int i = (int)(b->blockIdx.x * b->blockDim.x) + t; i < a->n; i += stride)
            v += a->x[i];
    a->y[b->blockIdx.x] = v;
}

static void c_transcendental(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    int base = (int)(b->blockIdx.x * b->blockDim.x);
    int end = base + (int)b->blockDim.x < a->n ? base + (int)b->blockDim.x : a->n;
    for (int i = base; i < end; ++i) {
        float v = a->x[i];
        for (int k = 0; k < 8; ++k)
            v = sinf(v) * expf(-v * v) + cosf(v);
        a->y[i] = v;
    }
}

static double time_c(const struct config *cfg, extmem_kernel fn, unsigned grid, unsigned block, struct c_args *args)
{
    double *s = calloc(cfg->runs, sizeof(double));
    if (!s)
        exit(1);
    extmem_dim3 g = {grid, 1, 1}, bl = {block, 1, 1};
    CHECK(extmem_launch_kernel(fn, g, bl, args, sizeof(*args), stream));
    CHECK(cuStreamSynchronize(stream));
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        CHECK(extmem_launch_kernel(fn, g, bl, args, sizeof(*args), stream));
        CHECK(cuStreamSynchronize(stream));
        s[i] = bench_now_us() - t0;
    }
    double m = median_of(s, cfg->runs);
    free(s);
    return m;
}
#endif

/* The native tier's time for the current row (extmem build), 0 when not measured. */
static double native_us;

static void row(const char *name, double ptx_us, double c_us, const char *unit, double work)
{
    if (native_us > 0 && c_us > 0) {
        printf("%-44s portable %10.1f us %8.2f %-7s | native %9.1f us %8.2f %-7s | C kernel %9.1f us %8.2f %-7s | "
               "portable/C %.1fx native/C %.2fx\n",
               name, ptx_us, work / ptx_us / 1e3, unit, native_us, work / native_us / 1e3, unit, c_us,
               work / c_us / 1e3, unit, ptx_us / c_us, native_us / c_us);
        return;
    }
    /* work: bytes (GB/s) or elements (Melem/s) per run */
    double ptx_rate = ptx_us > 0 ? work / ptx_us / 1e3 : 0;
    if (c_us > 0) {
        double c_rate = work / c_us / 1e3;
        printf("%-44s %10.1f us %9.2f %-7s | C kernel %9.1f us %9.2f %-7s | PTX/C time %.1fx\n", name, ptx_us, ptx_rate,
               unit, c_us, c_rate, unit, ptx_us / c_us);
    } else {
        printf("%-44s %10.1f us %9.2f %s\n", name, ptx_us, ptx_rate, unit);
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "kernel_bench: cannot open %s (--ptx FILE)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    b[n] = 0;
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    struct config cfg = {41, (size_t)1 << 24, 1000, BENCH_KERNELS_PTX};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            cfg.runs = 3;
            cfg.n = (size_t)1 << 16;
            cfg.launches = 50;
        } else if (strcmp(argv[i], "--ptx") == 0 && i + 1 < argc) {
            cfg.ptx = argv[++i];
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            cfg.runs = (size_t)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s [--quick] [--ptx FILE] [--runs N]\n", argv[0]);
            return 2;
        }
    }
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    char name[128] = "";
    cuDeviceGetName(name, sizeof(name), dev);
    char *ptx = read_file(cfg.ptx);
    CHECK(cuModuleLoadData(&module, ptx));
#ifdef BENCH_NATIVE
    CUmodule native_module = NULL;
    const char *jit = getenv("EXTMEM_JIT");
    bool want_native = !jit || strcmp(jit, "portable") != 0;
#endif
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
#ifdef BENCH_NATIVE
    if (want_native) {
        /* The native tier's first launch of a module: compiled (a cache of its own, emptied
         * first, unless EXTMEM_CACHE_DIR names one), then the same from the cache in a new
         * module. */
        char dir[256] = "";
        if (!getenv("EXTMEM_CACHE_DIR")) {
            snprintf(dir, sizeof(dir), "/tmp/extmem-kernel-bench-%d", (int)getpid());
            setenv("EXTMEM_CACHE_DIR", dir, 1);
        }
        setenv("EXTMEM_JIT", "native", 1);
        double first[2];
        for (int round = 0; round < 2; ++round) {
            CUmodule m;
            CUfunction e;
            CHECK(cuModuleLoadData(&m, ptx));
            CHECK(cuModuleGetFunction(&e, m, "empty"));
            double t0 = bench_now_us();
            CUresult r = cuLaunchKernel(e, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL);
            if (!r)
                r = cuStreamSynchronize(stream);
            first[round] = bench_now_us() - t0;
            if (r) {
                printf("native tier: not available (%s): only the portable executor is timed\n", extmem_error_detail());
                cuModuleUnload(m);
                break;
            }
            if (round == 0)
                CHECK(cuModuleUnload(m));
            else
                native_module = m;
        }
        if (native_module)
            printf("native tier, first launch of the module: %.1f ms compiling, %.2f ms from the cache\n",
                   first[0] / 1e3, first[1] / 1e3);
        if (dir[0]) {
            char cmd[300];
            snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
            if (system(cmd) != 0)
                fprintf(stderr, "kernel_bench: could not remove %s\n", dir);
        }
        /* The launch rows below time the portable executor's module. */
        setenv("EXTMEM_JIT", "portable", 1);
    }
#endif
    free(ptx);
    printf("kernel_bench (%s build) on %s: median of %zu runs, %zu elements\n",
#ifdef EXTMEM_EXTMEM_H
           "extmem", name, cfg.runs, cfg.n);
    printf("worker threads: %u\n", extmem_worker_count());
#else
           "nvidia", name, cfg.runs, cfg.n);
#endif

    /* Launch overhead */
    CUfunction empty = function("empty");
    double *s = calloc(cfg.runs, sizeof(double));
    if (!s)
        return 1;
    for (size_t r = 0; r < cfg.runs; ++r) {
        double t0 = bench_now_us();
        for (size_t i = 0; i < cfg.launches; ++i)
            CHECK(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
        CHECK(cuStreamSynchronize(stream));
        s[r] = (bench_now_us() - t0) / (double)cfg.launches;
    }
    printf("%-44s %10.2f us per launch\n", "launch empty kernel, queued in batches", median_of(s, cfg.runs));
    for (size_t r = 0; r < cfg.runs; ++r) {
        double t0 = bench_now_us();
        CHECK(cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
        CHECK(cuStreamSynchronize(stream));
        s[r] = bench_now_us() - t0;
    }
    printf("%-44s %10.2f us\n", "launch empty kernel + cuStreamSynchronize", median_of(s, cfg.runs));
    free(s);

    int n = (int)cfg.n;
    size_t bytes = cfg.n * sizeof(float);
    CUdeviceptr x, y, partial;
    CHECK(cuMemAlloc(&x, bytes));
    CHECK(cuMemAlloc(&y, bytes));
    CHECK(cuMemAlloc(&partial, 4096 * sizeof(float)));
    float *hx = malloc(bytes);
    if (!hx)
        return 1;
    for (size_t i = 0; i < cfg.n; ++i)
        hx[i] = (float)(i % 1000) * 0.001f;
    CHECK(cuMemcpyHtoD(x, hx, bytes));
    CHECK(cuMemcpyHtoD(y, hx, bytes));
    free(hx);
    float a = 2.0f;
    unsigned block = 256, grid = (unsigned)((cfg.n + block - 1) / block);
    unsigned rgrid = grid < 1024 ? grid : 1024;
    void *saxpy_params[] = {&n, &a, &x, &y};
    void *reduce_params[] = {&x, &partial, &n};
    void *trans_params[] = {&x, &y, &n};
    double c_saxpy_us = 0, c_reduce_us = 0, c_trans_us = 0;
#ifdef EXTMEM_EXTMEM_H
    struct c_args ca = {n, a, (const float *)(uintptr_t)x, (float *)(uintptr_t)y};
    struct c_args cr = {n, 0, (const float *)(uintptr_t)x, (float *)(uintptr_t)partial};
    c_saxpy_us = time_c(&cfg, c_saxpy, grid, block, &ca);
    c_reduce_us = time_c(&cfg, c_reduce, rgrid, block, &cr);
    c_trans_us = time_c(&cfg, c_transcendental, grid, block, &ca);
#endif
    struct {
        const char *label, *kernel;
        unsigned grid;
        void **params;
        double c_us, work;
        const char *unit;
    } rows[] = {
        {"saxpy (GB/s: 12 bytes per element)", "saxpy", grid, saxpy_params, c_saxpy_us, 12.0 * (double)cfg.n, "GB/s"},
        {"reduction through shared memory (GB/s read)", "reduce_shared", rgrid, reduce_params, c_reduce_us,
         4.0 * (double)cfg.n, "GB/s"},
        {"reduction with warp shuffles (GB/s read)", "reduce_shuffle", rgrid, reduce_params, c_reduce_us,
         4.0 * (double)cfg.n, "GB/s"},
        {"sin/exp/cos x8 per element (Melem/s)", "transcendental", grid, trans_params, c_trans_us,
         (double)cfg.n * 1e3, "Melem/s"},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
        native_us = 0;
#ifdef BENCH_NATIVE
        /* The tier is chosen at a module's first launch (EXTMEM_JIT, read then): the portable
         * executor runs this module, a second copy of it runs natively. Set while no launch
         * is in flight. */
        setenv("EXTMEM_JIT", "portable", 1);
#endif
        double ptx_us = time_kernel(&cfg, function(rows[i].kernel), rows[i].grid, block, rows[i].params);
#ifdef BENCH_NATIVE
        if (native_module) {
            setenv("EXTMEM_JIT", "native", 1);
            CUfunction nf;
            CHECK(cuModuleGetFunction(&nf, native_module, rows[i].kernel));
            native_us = time_kernel(&cfg, nf, rows[i].grid, block, rows[i].params);
        }
#endif
        row(rows[i].label, ptx_us, rows[i].c_us, rows[i].unit, rows[i].work);
    }
    CHECK(cuMemFree(x));
    CHECK(cuMemFree(y));
    CHECK(cuMemFree(partial));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuModuleUnload(module));
#ifdef BENCH_NATIVE
    if (native_module)
        CHECK(cuModuleUnload(native_module));
#endif
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
