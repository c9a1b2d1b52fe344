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
 * then issue 27's kernels: saxpy, a shared-memory tree reduction, a warp-shuffle reduction, a
 * transcendental-heavy kernel, a tiled matrix multiply (shared memory and barriers), a 2D
 * stencil and a histogram with global atomics. Against extmem each has four times: the PTX on
 * the portable executor, the PTX natively, the same computation as a C kernel on extmem's pool
 * (extmem_launch_kernel), and as plain C threaded over all cores with pthreads (no extmem in
 * the loop: the baseline), with the first three as multiples of the last.
 *
 * Options: --quick (small sizes, few runs: the CI smoke test), --ptx FILE, --runs N (default
 * 11), --only KERNEL (one row), --no-portable (skip the portable executor's column).
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
static double time_kernel(const struct config *cfg, CUfunction f, const unsigned *grid, const unsigned *block,
                          void **params)
{
    double *s = calloc(cfg->runs, sizeof(double));
    if (!s)
        exit(1);
    CHECK(cuLaunchKernel(f, grid[0], grid[1], 1, block[0], block[1], 1, 0, stream, params, NULL)); /* warm-up */
    CHECK(cuStreamSynchronize(stream));
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        CHECK(cuLaunchKernel(f, grid[0], grid[1], 1, block[0], block[1], 1, 0, stream, params, NULL));
        CHECK(cuStreamSynchronize(stream));
        s[i] = bench_now_us() - t0;
    }
    double m = median_of(s, cfg->runs);
    free(s);
    return m;
}

#ifdef EXTMEM_EXTMEM_H
/* ---- The same computations as C kernels on extmem's worker pool (extmem_launch_kernel) ---- */
struct c_args {
    int n, w, h;
    float a;
    const float *x, *b;
    float *y;
    unsigned *bins;
};

static void c_saxpy(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    int base = (int)(b->blockIdx.x * b->blockDim.x);
    int end = base + (int)b->blockDim.x < a->n ? base + (int)b->blockDim.x : a->n;
    for (int i = base; i < end; ++i)
        a->y[i] = a->a * a->x[i] + a->y[i];
}

/* Each block sums one contiguous share of x, as a C programmer splits a sum over blocks (the
 * PTX kernels' grid-stride order suits a GPU's coalesced loads, not a CPU's caches and
 * prefetchers: walked from C it measured 1.24x to 1.31x the threaded loop on 2 cores). */
static void c_reduce(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    long nb = (long)b->gridDim.x, per = ((long)a->n + nb - 1) / nb, lo = (long)b->blockIdx.x * per;
    long hi = lo + per < a->n ? lo + per : a->n;
    float v = 0;
    for (long i = lo; i < hi; ++i)
        v += a->x[i];
    a->y[b->blockIdx.x] = v;
}

static float transcend(float v)
{
    for (int k = 0; k < 8; ++k)
        v = sinf(v) * expf(-v * v) + cosf(v);
    return v;
}

static void c_transcendental(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    int base = (int)(b->blockIdx.x * b->blockDim.x);
    int end = base + (int)b->blockDim.x < a->n ? base + (int)b->blockDim.x : a->n;
    for (int i = base; i < end; ++i)
        a->y[i] = transcend(a->x[i]);
}

/* One TILE x TILE block of C (blocks as the PTX kernel's). */
static void c_matmul(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    int n = a->n, r0 = (int)b->blockIdx.y * 16, c0 = (int)b->blockIdx.x * 16;
    for (int r = r0; r < r0 + 16; ++r) {
        float acc[16] = {0};
        for (int k = 0; k < n; ++k) {
            float v = a->x[r * n + k];
            for (int c = 0; c < 16; ++c)
                acc[c] += v * a->b[k * n + c0 + c];
        }
        for (int c = 0; c < 16; ++c)
            a->y[r * n + c0 + c] = acc[c];
    }
}

static void stencil_rows(const struct c_args *a, int y0, int y1, int x0, int x1)
{
    int w = a->w;
    for (int y = y0 > 1 ? y0 : 1; y < y1 && y < a->h - 1; ++y)
        for (int x = x0 > 1 ? x0 : 1; x < x1 && x < w - 1; ++x) {
            int i = y * w + x;
            a->y[i] = 0.2f * (a->x[i] + a->x[i - 1] + a->x[i + 1] + a->x[i - w] + a->x[i + w]);
        }
}

static void c_stencil(const extmem_block *b, void *p)
{
    int x0 = (int)(b->blockIdx.x * b->blockDim.x), y0 = (int)(b->blockIdx.y * b->blockDim.y);
    stencil_rows(p, y0, y0 + (int)b->blockDim.y, x0, x0 + (int)b->blockDim.x);
}

static void c_histogram(const extmem_block *b, void *p)
{
    const struct c_args *a = p;
    const unsigned *x = (const unsigned *)(const void *)a->x;
    int base = (int)(b->blockIdx.x * b->blockDim.x);
    int end = base + (int)b->blockDim.x < a->n ? base + (int)b->blockDim.x : a->n;
    for (int i = base; i < end; ++i)
        __atomic_fetch_add(&a->bins[x[i] & 255u], 1u, __ATOMIC_RELAXED);
}

static double time_c(const struct config *cfg, extmem_kernel fn, extmem_dim3 g, extmem_dim3 bl, struct c_args *args)
{
    double *s = calloc(cfg->runs, sizeof(double));
    if (!s)
        exit(1);
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

/* ---- The same computations as plain C threaded over all cores with pthreads (no extmem in
 * the loop): the baseline. Each run creates the threads, splits the index range into
 * one contiguous part per thread, and joins them. ---- */
#ifndef _WIN32
#define BENCH_THREADS 1
#include <pthread.h>

struct par_job {
    void (*fn)(const struct c_args *, long, long, float *);
    const struct c_args *args;
    long lo, hi;
    float out;
};
static void *par_main(void *p)
{
    struct par_job *j = p;
    j->fn(j->args, j->lo, j->hi, &j->out);
    return NULL;
}
static unsigned ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 1024 ? (unsigned)n : 1;
}
/* Runs fn over [0, total) on every core; returns the sum of the threads' `out`. */
static float par(void (*fn)(const struct c_args *, long, long, float *), const struct c_args *a, long total)
{
    unsigned t = ncpu();
    struct par_job job[1024];
    pthread_t th[1024];
    for (unsigned k = 0; k < t; ++k) {
        job[k] = (struct par_job){fn, a, total * k / t, total * (k + 1) / t, 0};
        if (k && pthread_create(&th[k], NULL, par_main, &job[k]) != 0)
            exit(1);
    }
    par_main(&job[0]);
    float sum = job[0].out;
    for (unsigned k = 1; k < t; ++k) {
        pthread_join(th[k], NULL);
        sum += job[k].out;
    }
    return sum;
}

static void t_saxpy(const struct c_args *a, long lo, long hi, float *out)
{
    (void)out;
    for (long i = lo; i < hi; ++i)
        a->y[i] = a->a * a->x[i] + a->y[i];
}
static void t_reduce(const struct c_args *a, long lo, long hi, float *out)
{
    float v = 0;
    for (long i = lo; i < hi; ++i)
        v += a->x[i];
    *out = v;
}
static void t_transcendental(const struct c_args *a, long lo, long hi, float *out)
{
    (void)out;
    for (long i = lo; i < hi; ++i)
        a->y[i] = transcend(a->x[i]);
}
/* Rows [lo, hi) of C = A * B, the loop order a C programmer writes for it (i, k, j). */
static void t_matmul(const struct c_args *a, long lo, long hi, float *out)
{
    (void)out;
    int n = a->n;
    for (long r = lo; r < hi; ++r) {
        float *cr = a->y + r * n;
        for (int c = 0; c < n; ++c)
            cr[c] = 0;
        for (int k = 0; k < n; ++k) {
            float v = a->x[r * n + k];
            const float *br = a->b + (long)k * n;
            for (int c = 0; c < n; ++c)
                cr[c] += v * br[c];
        }
    }
}
static void t_stencil(const struct c_args *a, long lo, long hi, float *out)
{
    (void)out;
    stencil_rows(a, (int)lo, (int)hi, 0, a->w);
}
static void t_histogram(const struct c_args *a, long lo, long hi, float *out)
{
    (void)out;
    const unsigned *x = (const unsigned *)(const void *)a->x;
    for (long i = lo; i < hi; ++i)
        __atomic_fetch_add(&a->bins[x[i] & 255u], 1u, __ATOMIC_RELAXED);
}

static double time_threads(const struct config *cfg, void (*fn)(const struct c_args *, long, long, float *),
                           const struct c_args *a, long total)
{
    double *s = calloc(cfg->runs, sizeof(double));
    if (!s)
        exit(1);
    volatile float sink = par(fn, a, total);
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        sink = par(fn, a, total);
        s[i] = bench_now_us() - t0;
    }
    (void)sink;
    double m = median_of(s, cfg->runs);
    free(s);
    return m;
}
#endif
#endif

/* One row: the PTX's time on the portable executor (or the GPU), natively, extmem's C-kernel
 * path and the plain threaded C (0 where not measured), and each as a multiple of the last. */
static void row(const char *name, double ptx_us, double native_us, double c_us, double t_us, const char *unit,
                double work)
{
    printf("%-34s", name);
    const double cells[] = {ptx_us, native_us, c_us, t_us};
    for (int k = 0; k < 4; ++k) {
        if (cells[k] > 0)
            printf(" %11.1f", cells[k]);
        else
            printf(" %11s", "-");
    }
    for (int k = 0; k < 3; ++k) {
        if (cells[k] > 0 && t_us > 0)
            printf(" %7.2fx", cells[k] / t_us);
        else
            printf(" %8s", "-");
    }
    double best = native_us > 0 ? native_us : ptx_us;
    if (best > 0)
        printf("  %.2f %s", work / best / 1e3, unit);
    printf("\n");
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
    const char *only = NULL;
    bool no_portable = false;
    struct config cfg = {11, (size_t)1 << 24, 1000, BENCH_KERNELS_PTX};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            cfg.runs = 3;
            cfg.n = (size_t)1 << 16;
            cfg.launches = 50;
        } else if (strcmp(argv[i], "--ptx") == 0 && i + 1 < argc) {
            cfg.ptx = argv[++i];
        } else if (strcmp(argv[i], "--no-portable") == 0) {
            no_portable = true;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
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
        /* Issue 27's goal: a small kernel's first launch within 100 ms of the module's load, the
         * portable tier running while the module compiles (EXTMEM_JIT=auto, the default; the
         * cache is empty here unless EXTMEM_CACHE_DIR names a filled one). */
        {
            setenv("EXTMEM_JIT", "auto", 1);
            CUmodule m;
            CUfunction f;
            CUdeviceptr buf;
            int small = 1024;
            float two = 2.0f;
            double t0 = bench_now_us();
            CHECK(cuModuleLoadData(&m, ptx));
            CHECK(cuModuleGetFunction(&f, m, "saxpy"));
            CHECK(cuMemAlloc(&buf, (size_t)small * sizeof(float)));
            void *params[] = {&small, &two, &buf, &buf};
            CHECK(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, stream, params, NULL));
            CHECK(cuStreamSynchronize(stream));
            double us = bench_now_us() - t0;
            printf("first launch of a small kernel (saxpy, 1024 elements) after its module's load, EXTMEM_JIT=auto: "
                   "%.2f ms (goal: 100 ms)\n",
                   us / 1e3);
            CHECK(cuMemFree(buf));
            CHECK(cuModuleUnload(m)); /* waits for nothing: a compile under way goes on or is dropped */
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
    /* The matrices: mn x mn (2^20 elements each at full size); the stencil's grid: sw x sw. */
    int mn = cfg.n >= ((size_t)1 << 20) ? 512 : 64, sw = 1;
    while ((size_t)sw * (size_t)sw * 4 <= cfg.n)
        sw *= 2;
    CUdeviceptr x, y, partial, mb, bins;
    CHECK(cuMemAlloc(&x, bytes));
    CHECK(cuMemAlloc(&y, bytes));
    CHECK(cuMemAlloc(&partial, 4096 * sizeof(float)));
    CHECK(cuMemAlloc(&mb, (size_t)mn * mn * sizeof(float)));
    CHECK(cuMemAlloc(&bins, 256 * sizeof(unsigned)));
    float *hx = malloc(bytes);
    if (!hx)
        return 1;
    for (size_t i = 0; i < cfg.n; ++i)
        hx[i] = (float)(i % 1000) * 0.001f;
    CHECK(cuMemcpyHtoD(x, hx, bytes));
    CHECK(cuMemcpyHtoD(y, hx, bytes));
    CHECK(cuMemcpyHtoD(mb, hx, (size_t)mn * mn * sizeof(float)));
    /* The histogram's input: hashed words, so the bins fill evenly. */
    CUdeviceptr hin;
    CHECK(cuMemAlloc(&hin, bytes));
    unsigned *hu = (unsigned *)(void *)hx;
    for (size_t i = 0; i < cfg.n; ++i)
        hu[i] = (unsigned)(i * 2654435761u) >> 7;
    CHECK(cuMemcpyHtoD(hin, hu, bytes));
    free(hx);
    float a = 2.0f;
    unsigned block = 256, grid = (unsigned)((cfg.n + block - 1) / block);
    unsigned rgrid = grid < 1024 ? grid : 1024;
    int sh = sw;
    void *saxpy_params[] = {&n, &a, &x, &y};
    void *reduce_params[] = {&x, &partial, &n};
    void *trans_params[] = {&x, &y, &n};
    void *matmul_params[] = {&x, &mb, &y, &mn};
    void *stencil_params[] = {&x, &y, &sw, &sh};
    void *hist_params[] = {&hin, &bins, &n};
    struct {
        const char *label, *kernel;
        unsigned grid[2], block[2];
        void **params;
        double work;
        const char *unit;
#ifdef EXTMEM_EXTMEM_H
        extmem_kernel c;
#ifdef BENCH_THREADS
        void (*t)(const struct c_args *, long, long, float *);
        long total;
#endif
#endif
    } rows[] = {
#ifdef BENCH_THREADS
#define CK(c, t, total) , c, t, total
#elif defined(EXTMEM_EXTMEM_H)
#define CK(c, t, total) , c
#else
#define CK(c, t, total)
#endif
        {"saxpy", "saxpy", {grid, 1}, {block, 1}, saxpy_params, 12.0 * (double)cfg.n, "GB/s" CK(c_saxpy, t_saxpy, n)},
        {"reduction, shared memory", "reduce_shared", {rgrid, 1}, {block, 1}, reduce_params, 4.0 * (double)cfg.n,
         "GB/s" CK(c_reduce, t_reduce, n)},
        {"reduction, warp shuffles", "reduce_shuffle", {rgrid, 1}, {block, 1}, reduce_params, 4.0 * (double)cfg.n,
         "GB/s" CK(c_reduce, t_reduce, n)},
        {"sin/exp/cos x8 per element", "transcendental", {grid, 1}, {block, 1}, trans_params, (double)cfg.n * 1e3,
         "Melem/s" CK(c_transcendental, t_transcendental, n)},
        {"matmul, 16x16 tiles in shared", "matmul_tiled", {(unsigned)mn / 16, (unsigned)mn / 16}, {16, 16},
         matmul_params, 2.0 * mn * mn * (double)mn, "GFLOP/s" CK(c_matmul, t_matmul, mn)},
        {"2D 5-point stencil", "stencil2d", {(unsigned)sw / 32, (unsigned)sh / 8}, {32, 8}, stencil_params,
         8.0 * sw * (double)sh, "GB/s" CK(c_stencil, t_stencil, sh)},
        {"histogram, global atomics", "histogram", {grid, 1}, {block, 1}, hist_params, 4.0 * (double)cfg.n,
         "GB/s" CK(c_histogram, t_histogram, n)},
#undef CK
    };
    printf("matmul %d x %d, stencil %d x %d, histogram of %d words into 256 bins\n", mn, mn, sw, sh, n);
    printf("%-34s %11s %11s %11s %11s %8s %8s %8s  %s\n", "kernel (median us)",
#ifdef EXTMEM_EXTMEM_H
           "portable", "native", "C kernel", "C threads", "port/thr", "nat/thr", "Ck/thr",
#else
           "GPU", "-", "-", "-", "-", "-", "-",
#endif
           "rate (native or GPU)");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
        if (only && strcmp(only, rows[i].kernel) != 0)
            continue;
        double native_us = 0, c_us = 0, t_us = 0;
#ifdef BENCH_NATIVE
        /* The tier is chosen at a module's first launch (EXTMEM_JIT, read then): the portable
         * executor runs this module, a second copy of it runs natively. Set while no launch
         * is in flight. */
        setenv("EXTMEM_JIT", "portable", 1);
#endif
        double ptx_us = no_portable ? 0
                                    : time_kernel(&cfg, function(rows[i].kernel), rows[i].grid, rows[i].block,
                                                  rows[i].params);
#ifdef BENCH_NATIVE
        if (native_module) {
            setenv("EXTMEM_JIT", "native", 1);
            CUfunction nf;
            CHECK(cuModuleGetFunction(&nf, native_module, rows[i].kernel));
            native_us = time_kernel(&cfg, nf, rows[i].grid, rows[i].block, rows[i].params);
        }
#endif
#ifdef EXTMEM_EXTMEM_H
        {
            const float *xp = (const float *)(uintptr_t)x;
            float *yp = (float *)(uintptr_t)y;
            struct c_args ca = {n, sw, sh, a, xp, (const float *)(uintptr_t)mb, yp, (unsigned *)(uintptr_t)bins};
            if (rows[i].c == c_reduce)
                ca.y = (float *)(uintptr_t)partial;
            if (rows[i].c == c_matmul)
                ca.n = mn;
            if (rows[i].c == c_histogram)
                ca.x = (const float *)(uintptr_t)hin;
            extmem_dim3 g = {rows[i].grid[0], rows[i].grid[1], 1}, bl = {rows[i].block[0], rows[i].block[1], 1};
            c_us = time_c(&cfg, rows[i].c, g, bl, &ca);
#ifdef BENCH_THREADS
            t_us = time_threads(&cfg, rows[i].t, &ca, rows[i].total);
#endif
        }
#endif
        row(rows[i].label, ptx_us, native_us, c_us, t_us, rows[i].unit, rows[i].work);
    }
#ifdef BENCH_THREADS
    printf("C threads: plain C (-O2) over %u pthreads, no extmem; port/thr, nat/thr, Ck/thr: portable, native, C "
           "kernel as a multiple of it\n",
           ncpu());
#endif
    CHECK(cuMemFree(mb));
    CHECK(cuMemFree(bins));
    CHECK(cuMemFree(hin));
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
