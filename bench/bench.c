/*
 * bench: times call sequences of the driver API and sets each beside what bounds it: the OS
 * calls an allocation is built from, a plain memcpy() for a device-to-device copy, and the
 * real driver's figures from shared/BEHAVIOR.md.
 *
 * One source, two builds (DESIGN.md §12):
 *   - against extmem (CMake target extmem-bench, which defines BENCH_EXTMEM): the software
 *     device, kernels launched with extmem_launch_kernel;
 *   - against NVIDIA's cuda.h and libcuda (see bench/README.md): the real driver, kernels
 *     loaded from a PTX string. The module calls are looked up with cuGetProcAddress, so this
 *     binary also starts on a driver without them (extmem's libcuda.so.1) and skips those rows.
 * The OS baseline runs in both. The VMM rows (cuMemCreate, cuMemMap, ...) are set beside the
 * raw calls the software device builds them from (DESIGN.md §8): on Linux an
 * mmap(MAP_FIXED|MAP_SHARED) of a memfd into PROT_NONE address space, mprotect, and an
 * anonymous PROT_NONE mmap back over it; on Windows (the extmem build, cross-compiled with
 * mingw-w64) views of a section mapped into VirtualAlloc reservations. bench_os.h has both.
 *
 * Options: --quick (few runs and a 32 MiB copy, for a CI smoke test), --json, --runs N, --graphs
 * (the graph rows alone).
 */
#define _GNU_SOURCE

#if defined(BENCH_EXTMEM)
#include "extmem/extmem.h"
#else
#include <cuda.h>
#endif

#include "bench_os.h" /* the raw OS calls, POSIX or Windows: everything OS-specific is there */
#include "timing.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef EXTMEM_EXTMEM_H
#define BENCH_BUILD "extmem"
#else
#define BENCH_BUILD "nvidia"
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif

/* The real driver on an NVIDIA H100, driver 580.159.04 (CUDA 13.0), median of 41 runs:
 * shared/BEHAVIOR.md, "Costs on that machine". */
#define REFERENCE_NOTE "real driver on an NVIDIA H100 (580.159.04, CUDA 13.0), median of 41 runs, from BEHAVIOR.md"
#define REF_ALLOC_FREE_2MIB_US 90.0
#define REF_VMM_MAP_ACCESS_UNMAP_GRANULE_US 47.0
#define REF_VMM_MAP_ACCESS_UNMAP_256MIB_US 80.0
#define REF_VMM_FULL_CYCLE_US 77.0
#define REF_VMM_4096_MAPS_US 4880.0
#define REF_VMM_EXPORT_US 543.0        /* BEHAVIOR.md: the export alone */
#define REF_VMM_EXPORT_CLOSE_US 1067.0 /* docs/driver-observations.md §15: export + close */
#define REF_IMPORT_CYCLE_US 616.0 /* BEHAVIOR.md: import + mapped buffer + free + destroy, 2 or 256 MiB */

#define MIB ((size_t)1 << 20)
#define ALLOC_BYTES (2 * MIB)

struct config {
    size_t runs;               /* rows of single short sequences */
    size_t bulk_runs;          /* rows of 4096 mappings */
    size_t lookups;            /* lookups per timed run */
    size_t batch_runs;         /* batches of launches */
    size_t launches_per_batch;
    size_t copy_runs;
    size_t copy_bytes;
    bool json, quick;
    bool graphs_only; /* --graphs: the graph rows alone */
};

struct row {
    char key[48];
    char sequence[96];
    bench_stats st;
    double reference_us; /* < 0: none recorded */
    double ratio;        /* < 0: none */
    const char *ratio_text;
    double gbps; /* < 0: not a copy */
    bool skipped;
    char note[160];
    size_t per;          /* > 0: one run is this many launches or graph nodes (the graph rows) */
    const char *per_text; /* "launch" or "node" */
};

static struct row rows[72];
static size_t row_count;

static struct row *new_row(const char *key, const char *sequence)
{
    if (row_count == sizeof(rows) / sizeof(rows[0])) {
        fprintf(stderr, "bench: more rows than the table holds (%zu)\n", row_count);
        exit(1);
    }
    struct row *r = &rows[row_count++];
    memset(r, 0, sizeof(*r));
    snprintf(r->key, sizeof(r->key), "%s", key);
    snprintf(r->sequence, sizeof(r->sequence), "%s", sequence);
    r->reference_us = -1;
    r->ratio = -1;
    r->gbps = -1;
    return r;
}

static void die(const char *call, CUresult r)
{
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    fprintf(stderr, "bench: %s failed: %s (%d)\n", call, name ? name : "unknown error", (int)r);
#ifdef EXTMEM_EXTMEM_H
    fprintf(stderr, "  why: %s\n", extmem_error_detail());
#endif
    exit(1);
}

#define CHECK(call)                                                                                              \
    do {                                                                                                         \
        CUresult check_r_ = (call);                                                                              \
        if (check_r_ != CUDA_SUCCESS)                                                                            \
            die(#call, check_r_);                                                                                \
    } while (0)

static double *samples_buffer(size_t n)
{
    double *s = malloc(n * sizeof(*s));
    if (!s) {
        fprintf(stderr, "bench: out of host memory\n");
        exit(1);
    }
    return s;
}

/* ---- cuMemAlloc + cuMemFree against the OS cycle it is built from ---- */

static void bench_alloc_free(const struct config *cfg, struct row *r)
{
    double *s = samples_buffer(cfg->runs);
    CUdeviceptr p;
    for (int i = 0; i < 5; ++i) {
        CHECK(cuMemAlloc(&p, ALLOC_BYTES));
        CHECK(cuMemFree(p));
    }
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        CHECK(cuMemAlloc(&p, ALLOC_BYTES));
        CHECK(cuMemFree(p));
        s[i] = bench_now_us() - t0;
    }
    r->st = bench_summarise(s, cfg->runs);
    r->reference_us = REF_ALLOC_FREE_2MIB_US;
    free(s);
}

/* What a software-device allocation cannot avoid: a sealed memfd mapped shared
 * (src/posix/memory.c), or a named section and a view of it (src/win32/memory.c), then
 * unmapped and closed. */
static void os_cycle(size_t size)
{
    bench_os_mem m = bench_os_mem_create(size);
    bench_os_unmap_any(bench_os_map_any(m, size), size);
    bench_os_mem_close(m);
}

static void bench_os_cycle(const struct config *cfg, struct row *r)
{
    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        os_cycle(ALLOC_BYTES);
        double t = bench_now_us() - t0;
        if (i >= 5) /* the first five warm up */
            s[i - 5] = t;
    }
    r->st = bench_summarise(s, cfg->runs);
    free(s);
}

/* ---- An empty kernel of one block of one thread ---- */

/* A module of one empty kernel as PTX: what the real driver runs for the launch rows (JIT-compiled),
 * and what both builds run for the graph rows, since a kernel node names a CUfunction. */
static const char empty_ptx[] = ".version 7.0\n"
                                ".target sm_70\n"
                                ".address_size 64\n"
                                ".visible .entry bench_empty()\n"
                                "{\n"
                                "\tret;\n"
                                "}\n";

#ifdef EXTMEM_EXTMEM_H
static void empty_kernel(const extmem_block *block, void *args)
{
    (void)block;
    (void)args;
}

static bool kernel_setup(char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    return true;
}

static CUresult launch_empty(CUstream stream)
{
    const extmem_dim3 one = {1, 1, 1};
    return extmem_launch_kernel(empty_kernel, one, one, NULL, 0, stream);
}

static void kernel_teardown(void) {}
#else
typedef CUresult (*module_load_data_fn)(CUmodule *, const void *);
typedef CUresult (*module_get_function_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*module_unload_fn)(CUmodule);
typedef CUresult (*launch_kernel_fn)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                                     unsigned int, unsigned int, CUstream, void **, void **);

static CUmodule empty_module;
static CUfunction empty_function;
static launch_kernel_fn launch_kernel;
static module_unload_fn module_unload;

static void *entry_point(const char *name)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status;
    if (cuGetProcAddress(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS ||
        status != CU_GET_PROC_ADDRESS_SUCCESS)
        return NULL;
    return fn;
}

static bool kernel_setup(char *why, size_t why_size)
{
    module_load_data_fn load = (module_load_data_fn)entry_point("cuModuleLoadData");
    module_get_function_fn get = (module_get_function_fn)entry_point("cuModuleGetFunction");
    launch_kernel = (launch_kernel_fn)entry_point("cuLaunchKernel");
    module_unload = (module_unload_fn)entry_point("cuModuleUnload");
    if (!load || !get || !launch_kernel || !module_unload) {
        snprintf(why, why_size, "this driver has no cuModuleLoadData/cuModuleGetFunction/cuLaunchKernel");
        return false;
    }
    CUresult r = load(&empty_module, empty_ptx);
    if (r == CUDA_SUCCESS && (r = get(&empty_function, empty_module, "bench_empty")) != CUDA_SUCCESS)
        module_unload(empty_module);
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        cuGetErrorName(r, &name);
        snprintf(why, why_size, "loading the PTX kernel failed: %s", name ? name : "unknown error");
        return false;
    }
    return true;
}

static CUresult launch_empty(CUstream stream)
{
    return launch_kernel(empty_function, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL);
}

static void kernel_teardown(void) { module_unload(empty_module); }
#endif

static void bench_launches(const struct config *cfg, struct row *batched, struct row *round_trip)
{
    char why[160];
    if (!kernel_setup(why, sizeof(why))) {
        batched->skipped = round_trip->skipped = true;
        snprintf(batched->note, sizeof(batched->note), "%s", why);
        snprintf(round_trip->note, sizeof(round_trip->note), "%s", why);
        return;
    }
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

    /* Enqueue cost: many launches, one synchronize, divided by the launches. */
    size_t n = cfg->batch_runs;
    double *s = samples_buffer(n > cfg->runs ? n : cfg->runs);
    for (size_t b = 0; b < n + 1; ++b) {
        double t0 = bench_now_us();
        for (size_t i = 0; i < cfg->launches_per_batch; ++i)
            CHECK(launch_empty(stream));
        CHECK(cuStreamSynchronize(stream));
        double t = (bench_now_us() - t0) / (double)cfg->launches_per_batch;
        if (b > 0) /* the first batch warms up */
            s[b - 1] = t;
    }
    batched->st = bench_summarise(s, n);

    /* A synchronous round trip: launch, then wait for it. */
    for (int i = 0; i < 10; ++i) {
        CHECK(launch_empty(stream));
        CHECK(cuStreamSynchronize(stream));
    }
    for (size_t i = 0; i < cfg->runs; ++i) {
        double t0 = bench_now_us();
        CHECK(launch_empty(stream));
        CHECK(cuStreamSynchronize(stream));
        s[i] = bench_now_us() - t0;
    }
    round_trip->st = bench_summarise(s, cfg->runs);
    free(s);
    CHECK(cuStreamDestroy(stream));
    kernel_teardown();
}

/* ---- cuMemcpyDtoD against memcpy() ---- */

static volatile unsigned char sink; /* reads a copied byte so no copy can be optimised away */

static double gbps(size_t bytes, double us) { return us > 0 ? (double)bytes / (us * 1e3) : 0; }

struct par_copy {
    unsigned char *dst;
    const unsigned char *src;
    size_t n;
    unsigned int threads;
};

static void par_copy_piece(void *arg, unsigned int i)
{
    struct par_copy *p = arg;
    size_t piece = (p->n / p->threads + 63) / 64 * 64, at = (size_t)i * piece;
    if (at < p->n)
        memcpy(p->dst + at, p->src + at, p->n - at < piece ? p->n - at : piece);
}

static void bench_copies(const struct config *cfg, struct row *dtod, struct row *plain, struct row *parallel)
{
    size_t n = cfg->copy_bytes;
    CUdeviceptr src, dst;
    CHECK(cuMemAlloc(&src, n));
    CHECK(cuMemAlloc(&dst, n));
    /* Fault every page in before timing: first touch is not what a copy costs. */
    CHECK(cuMemsetD8(src, 0x5a, n));
    CHECK(cuMemsetD8(dst, 0, n));
    CHECK(cuCtxSynchronize());

    double *s = samples_buffer(cfg->copy_runs);
    CHECK(cuMemcpyDtoD(dst, src, n));
    CHECK(cuCtxSynchronize());
    for (size_t i = 0; i < cfg->copy_runs; ++i) {
        double t0 = bench_now_us();
        CHECK(cuMemcpyDtoD(dst, src, n));
        CHECK(cuCtxSynchronize()); /* a device-to-device copy need not block the host */
        s[i] = bench_now_us() - t0;
    }
    dtod->st = bench_summarise(s, cfg->copy_runs);

#ifdef EXTMEM_EXTMEM_H
    /* Device pointers are host addresses: the same buffers, copied by the C library. */
    unsigned char *hsrc = (unsigned char *)(uintptr_t)src, *hdst = (unsigned char *)(uintptr_t)dst;
#else
    /* Device memory is not host-addressable here: host buffers of the same size instead. */
    unsigned char *hsrc = malloc(n), *hdst = malloc(n);
    if (!hsrc || !hdst) {
        fprintf(stderr, "bench: out of host memory for two %zu-byte buffers\n", n);
        exit(1);
    }
    memset(hsrc, 0x5a, n);
    memset(hdst, 0, n);
#endif
    memcpy(hdst, hsrc, n);
    for (size_t i = 0; i < cfg->copy_runs; ++i) {
        double t0 = bench_now_us();
        memcpy(hdst, hsrc, n);
        sink = hdst[(i * 4099) % n];
        s[i] = bench_now_us() - t0;
    }
    plain->st = bench_summarise(s, cfg->copy_runs);
    /* The same copy on every core, a slice each (threads made per copy, as a program without a
     * pool of its own would; that costs tens of microseconds against milliseconds). */
    struct par_copy pc = {hdst, hsrc, n, bench_os_cpus()};
    bench_os_parallel(par_copy_piece, &pc, pc.threads);
    for (size_t i = 0; i < cfg->copy_runs; ++i) {
        double t0 = bench_now_us();
        bench_os_parallel(par_copy_piece, &pc, pc.threads);
        sink = hdst[(i * 4099) % n];
        s[i] = bench_now_us() - t0;
    }
    parallel->st = bench_summarise(s, cfg->copy_runs);
    snprintf(parallel->note, sizeof(parallel->note), "%u threads", pc.threads);
#ifndef EXTMEM_EXTMEM_H
    free(hsrc);
    free(hdst);
#endif
    free(s);
    CHECK(cuMemFree(src));
    CHECK(cuMemFree(dst));

    dtod->gbps = gbps(n, dtod->st.median);
    plain->gbps = gbps(n, plain->st.median);
    parallel->gbps = gbps(n, parallel->st.median);
    dtod->ratio = parallel->gbps > 0 ? dtod->gbps / parallel->gbps : -1;
    dtod->ratio_text = "of memcpy() on all cores";
    plain->ratio = parallel->gbps > 0 ? plain->gbps / parallel->gbps : -1;
    plain->ratio_text = "of memcpy() on all cores";
}

/* ---- Virtual memory management against the OS calls it is built from ---- */

static size_t vmm_granularity;

static CUmemAllocationProp vmm_prop(void)
{
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = BENCH_HANDLE_TYPE;
    return prop;
}

static CUmemAccessDesc vmm_rw(void)
{
    CUmemAccessDesc rw;
    memset(&rw, 0, sizeof(rw));
    rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    rw.location.id = 0;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return rw;
}

/* cuMemMap + cuMemSetAccess + cuMemUnmap of size bytes, and the same in raw OS calls. */
static void bench_map_access_unmap(const struct config *cfg, size_t size, struct row *vmm, struct row *os)
{
    CUmemAllocationProp prop = vmm_prop();
    CUmemAccessDesc rw = vmm_rw();
    CUmemGenericAllocationHandle h;
    CUdeviceptr p;
    CHECK(cuMemCreate(&h, size, &prop, 0));
    CHECK(cuMemAddressReserve(&p, size, 0, 0, 0));
    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        CHECK(cuMemMap(p, size, 0, h, 0));
        CHECK(cuMemSetAccess(p, size, &rw, 1));
        CHECK(cuMemUnmap(p, size));
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    vmm->st = bench_summarise(s, cfg->runs);
    CHECK(cuMemAddressFree(p, size));
    CHECK(cuMemRelease(h));

    bench_os_mem m = bench_os_mem_create(size);
    void *q = bench_os_reserve(size, vmm_granularity);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        bench_os_map_fixed(q, size, m);
        bench_os_protect_rw(q, size);
        bench_os_map_back(q, size);
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    os->st = bench_summarise(s, cfg->runs);
    bench_os_unreserve(q, size);
    bench_os_mem_close(m);
    free(s);
    vmm->ratio = os->st.median > 0 ? vmm->st.median / os->st.median : -1;
    vmm->ratio_text = "the OS calls";
}

/* The whole life of one granule: create, reserve, map, access, unmap, free, release. */
static void bench_full_cycle(const struct config *cfg, struct row *vmm, struct row *os)
{
    size_t g = vmm_granularity;
    CUmemAllocationProp prop = vmm_prop();
    CUmemAccessDesc rw = vmm_rw();
    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        CUmemGenericAllocationHandle h;
        CUdeviceptr p;
        double t0 = bench_now_us();
        CHECK(cuMemCreate(&h, g, &prop, 0));
        CHECK(cuMemAddressReserve(&p, g, 0, 0, 0));
        CHECK(cuMemMap(p, g, 0, h, 0));
        CHECK(cuMemSetAccess(p, g, &rw, 1));
        CHECK(cuMemUnmap(p, g));
        CHECK(cuMemAddressFree(p, g));
        CHECK(cuMemRelease(h));
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    vmm->st = bench_summarise(s, cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        bench_os_mem m = bench_os_mem_create(g);
        void *q = bench_os_reserve(g, g);
        bench_os_map_fixed(q, g, m);
        bench_os_protect_rw(q, g);
        bench_os_map_back(q, g);
        bench_os_unreserve(q, g);
        bench_os_mem_close(m);
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    os->st = bench_summarise(s, cfg->runs);
    free(s);
    vmm->ratio = os->st.median > 0 ? vmm->st.median / os->st.median : -1;
    vmm->ratio_text = "the OS calls";
}

/* 4096 one-granule mappings of one allocation side by side in one reservation (the total);
 * unmapped between runs with one call, untimed. */
#define BULK_MAPS 4096

static void bench_bulk_maps(const struct config *cfg, struct row *vmm, struct row *os)
{
    size_t g = vmm_granularity, span = (size_t)BULK_MAPS * g;
    CUmemAllocationProp prop = vmm_prop();
    CUmemGenericAllocationHandle h;
    CUdeviceptr p;
    CHECK(cuMemCreate(&h, g, &prop, 0));
    CHECK(cuMemAddressReserve(&p, span, 0, 0, 0));
    double *s = samples_buffer(cfg->bulk_runs);
    for (size_t i = 0; i < cfg->bulk_runs + 1; ++i) {
        double t0 = bench_now_us();
        for (size_t k = 0; k < BULK_MAPS; ++k)
            CHECK(cuMemMap(p + k * g, g, 0, h, 0));
        double t = bench_now_us() - t0;
        CHECK(cuMemUnmap(p, span));
        if (i >= 1)
            s[i - 1] = t;
    }
    vmm->st = bench_summarise(s, cfg->bulk_runs);
    CHECK(cuMemAddressFree(p, span));
    CHECK(cuMemRelease(h));

    bench_os_mem m = bench_os_mem_create(g);
    unsigned char *q = bench_os_reserve(span, g);
    for (size_t i = 0; i < cfg->bulk_runs + 1; ++i) {
        double t0 = bench_now_us();
        for (size_t k = 0; k < BULK_MAPS; ++k)
            bench_os_map_fixed(q + k * g, g, m);
        double t = bench_now_us() - t0;
        bench_os_map_back(q, span);
        if (i >= 1)
            s[i - 1] = t;
    }
    os->st = bench_summarise(s, cfg->bulk_runs);
    bench_os_unreserve(q, span);
    bench_os_mem_close(m);
    free(s);
    vmm->ratio = os->st.median > 0 ? vmm->st.median / os->st.median : -1;
    vmm->ratio_text = "the OS calls";
}

/* cuMemExportToShareableHandle, alone (the fd or handle closed outside the timing) and with the
 * close. */
static void bench_export(const struct config *cfg, struct row *alone, struct row *with_close, struct row *os)
{
    CUmemAllocationProp prop = vmm_prop();
    CUmemGenericAllocationHandle h;
    CHECK(cuMemCreate(&h, vmm_granularity, &prop, 0));
    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        bench_os_mem shared;
        double t0 = bench_now_us();
        CHECK(cuMemExportToShareableHandle(&shared, h, BENCH_HANDLE_TYPE, 0));
        double t = bench_now_us() - t0;
        bench_os_mem_close(shared);
        if (i >= 5)
            s[i - 5] = t;
    }
    alone->st = bench_summarise(s, cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        bench_os_mem shared;
        double t0 = bench_now_us();
        CHECK(cuMemExportToShareableHandle(&shared, h, BENCH_HANDLE_TYPE, 0));
        bench_os_mem_close(shared);
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    with_close->st = bench_summarise(s, cfg->runs);
    CHECK(cuMemRelease(h));
    bench_os_mem m = bench_os_mem_create(vmm_granularity);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        bench_os_dup_close(m);
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    os->st = bench_summarise(s, cfg->runs);
    bench_os_mem_close(m);
    free(s);
    with_close->ratio = os->st.median > 0 ? with_close->st.median / os->st.median : -1;
    with_close->ratio_text = "the OS calls";
}

/* How the cost of a map and of a pointer lookup grows with the mappings already live: live
 * one-granule mappings side by side in one reservation (with access, so lookups find them),
 * then the timed calls. The OS row maps a memfd (a section) into address space of its own in
 * the same process, so the kernel has as many mappings to search. */
struct scale_rows {
    struct row *map, *os_map, *attr, *range;
};

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void bench_scaling(const struct config *cfg, size_t live, const struct scale_rows *out)
{
    size_t g = vmm_granularity, span = (live + 2) * g;
    CUmemAllocationProp prop = vmm_prop();
    CUmemAccessDesc rw = vmm_rw();
    CUmemGenericAllocationHandle h;
    CUdeviceptr p;
    CHECK(cuMemCreate(&h, g, &prop, 0));
    CHECK(cuMemAddressReserve(&p, span, 0, 0, 0));
    for (size_t k = 0; k < live; ++k)
        CHECK(cuMemMap(p + k * g, g, 0, h, 0));
    CHECK(cuMemSetAccess(p, live * g, &rw, 1));
    CUdeviceptr spare = p + (live + 1) * g; /* one granule of gap after the live ones */

    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        CHECK(cuMemMap(spare, g, 0, h, 0));
        double t = bench_now_us() - t0;
        CHECK(cuMemUnmap(spare, g));
        if (i >= 5)
            s[i - 5] = t;
    }
    out->map->st = bench_summarise(s, cfg->runs);

    bench_os_mem m = bench_os_mem_create(g);
    void *q = bench_os_reserve(g, g);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        bench_os_map_fixed(q, g, m);
        double t = bench_now_us() - t0;
        bench_os_map_back(q, g);
        if (i >= 5)
            s[i - 5] = t;
    }
    out->os_map->st = bench_summarise(s, cfg->runs);
    bench_os_unreserve(q, g);
    bench_os_mem_close(m);
    out->map->ratio = out->os_map->st.median > 0 ? out->map->st.median / out->os_map->st.median : -1;
    out->map->ratio_text = "the OS call";

    /* Lookups of random addresses inside random live mappings, cfg->lookups per run. */
    CUdeviceptr *addr = malloc(cfg->lookups * sizeof(*addr));
    if (!addr) {
        fprintf(stderr, "bench: out of host memory\n");
        exit(1);
    }
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < cfg->lookups; ++i)
        addr[i] = p + (xorshift(&x) % live) * g + xorshift(&x) % g;
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        CUdeviceptr start = 0, sum = 0;
        double t0 = bench_now_us();
        for (size_t k = 0; k < cfg->lookups; ++k) {
            CHECK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, addr[k]));
            sum += start;
        }
        double t = (bench_now_us() - t0) / (double)cfg->lookups;
        if (sum != p * cfg->lookups) {
            fprintf(stderr, "bench: RANGE_START_ADDR is not the reservation\n");
            exit(1);
        }
        if (i >= 5)
            s[i - 5] = t;
    }
    out->attr->st = bench_summarise(s, cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        CUdeviceptr base = 0;
        size_t size = 0;
        double t0 = bench_now_us();
        for (size_t k = 0; k < cfg->lookups; ++k)
            CHECK(cuMemGetAddressRange(&base, &size, addr[k]));
        double t = (bench_now_us() - t0) / (double)cfg->lookups;
        if (size != g) {
            fprintf(stderr, "bench: cuMemGetAddressRange did not give the mapping\n");
            exit(1);
        }
        if (i >= 5)
            s[i - 5] = t;
    }
    out->range->st = bench_summarise(s, cfg->runs);
    free(addr);
    free(s);
    CHECK(cuMemUnmap(p, span));
    CHECK(cuMemAddressFree(p, span));
    CHECK(cuMemRelease(h));
}

/* The physical limit: Linux allows vm.max_map_count mappings per process; each cuMemMap is
 * one. Maps one granule side by side until the driver refuses, and reports how far it got
 * and what it answered. extmem only: on the real driver GPU mappings are not host VMAs. */
struct map_limit {
    long max_map_count;
    size_t mapped;
    CUresult result;
    char detail[256];
    double seconds;
};

static struct map_limit map_limit = {-1, 0, CUDA_SUCCESS, "", 0};

static void probe_map_limit(void)
{
#ifndef BENCH_OS_NO_MAP_LIMIT /* Windows: print_text says why not */
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (!f || fscanf(f, "%ld", &map_limit.max_map_count) != 1)
        map_limit.max_map_count = -1;
    if (f)
        fclose(f);
#if defined(EXTMEM_EXTMEM_H) && !defined(BENCH_SANITIZED) /* a sanitizer's runtime dies without mmap */
    if (map_limit.max_map_count <= 0 || map_limit.max_map_count > (1 << 20))
        return;
    size_t g = vmm_granularity, slots = (size_t)map_limit.max_map_count + 1000;
    CUmemAllocationProp prop = vmm_prop();
    CUmemGenericAllocationHandle h;
    CUdeviceptr p;
    CHECK(cuMemCreate(&h, g, &prop, 0));
    CHECK(cuMemAddressReserve(&p, slots * g, 0, 0, 0));
    double t0 = bench_now_us();
    for (map_limit.mapped = 0; map_limit.mapped < slots; ++map_limit.mapped) {
        map_limit.result = cuMemMap(p + map_limit.mapped * g, g, 0, h, 0);
        if (map_limit.result != CUDA_SUCCESS) {
            snprintf(map_limit.detail, sizeof(map_limit.detail), "%s", extmem_error_detail());
            break;
        }
    }
    map_limit.seconds = (bench_now_us() - t0) / 1e6;
    /* cuMemAddressFree munmaps the whole range whatever is left in it. */
    CHECK(cuMemUnmap(p, slots * g));
    CHECK(cuMemAddressFree(p, slots * g));
    CHECK(cuMemRelease(h));
#endif
#endif
}

static void bench_vmm(const struct config *cfg)
{
    CUmemAllocationProp prop = vmm_prop();
    CHECK(cuMemGetAllocationGranularity(&vmm_granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    struct row *mau = new_row("vmm_map_access_unmap_granule", "cuMemMap + SetAccess + Unmap, one granule");
    struct row *os_mau = new_row("os_map_protect_unmap_granule", "");
    struct row *mau256 = new_row("vmm_map_access_unmap_256mib", "cuMemMap + SetAccess + Unmap, 256 MiB");
    struct row *os_mau256 = new_row("os_map_protect_unmap_256mib", "");
    snprintf(os_mau->sequence, sizeof(os_mau->sequence), BENCH_TEXT_OS_MAP_ACCESS_UNMAP, "2 MiB");
    snprintf(os_mau256->sequence, sizeof(os_mau256->sequence), BENCH_TEXT_OS_MAP_ACCESS_UNMAP, "256 MiB");
    struct row *cycle = new_row("vmm_full_cycle_granule", "Create+Reserve+Map+Access+Unmap+Free+Release, one granule");
    struct row *os_cycle_row = new_row("os_full_cycle_granule", BENCH_TEXT_OS_FULL_CYCLE);
    char text[96];
    snprintf(text, sizeof(text), "%d x cuMemMap one granule into one reservation (total)", BULK_MAPS);
    struct row *bulk = new_row("vmm_map_4096", text);
    snprintf(text, sizeof(text), BENCH_TEXT_OS_BULK, BULK_MAPS);
    struct row *os_bulk = new_row("os_map_4096", text);
    struct row *exp = new_row("vmm_export", "cuMemExportToShareableHandle (fd closed untimed)");
    struct row *exp_close = new_row("vmm_export_close", "cuMemExportToShareableHandle + close");
    struct row *os_dup = new_row("os_dup_close", BENCH_TEXT_OS_DUP_CLOSE);
    bench_map_access_unmap(cfg, vmm_granularity, mau, os_mau);
    mau->reference_us = REF_VMM_MAP_ACCESS_UNMAP_GRANULE_US;
    bench_map_access_unmap(cfg, 256 * MIB, mau256, os_mau256);
    mau256->reference_us = REF_VMM_MAP_ACCESS_UNMAP_256MIB_US;
    bench_full_cycle(cfg, cycle, os_cycle_row);
    cycle->reference_us = REF_VMM_FULL_CYCLE_US;
    bench_bulk_maps(cfg, bulk, os_bulk);
    bulk->reference_us = REF_VMM_4096_MAPS_US;
    bench_export(cfg, exp, exp_close, os_dup);
    exp->reference_us = REF_VMM_EXPORT_US;
    exp_close->reference_us = REF_VMM_EXPORT_CLOSE_US;

    static const size_t live[] = {1, 1000, 60000};
    for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); ++i) {
        const char *plural = live[i] == 1 ? "" : "s";
        struct scale_rows rs;
        char key[48];
        snprintf(text, sizeof(text), "cuMemMap one granule, %zu live mapping%s", live[i], plural);
        snprintf(key, sizeof(key), "vmm_map_live_%zu", live[i]);
        rs.map = new_row(key, text);
        snprintf(text, sizeof(text), BENCH_TEXT_OS_MAP_LIVE, live[i], plural);
        snprintf(key, sizeof(key), "os_map_live_%zu", live[i]);
        rs.os_map = new_row(key, text);
        snprintf(text, sizeof(text), "cuPointerGetAttribute(RANGE_START), %zu live", live[i]);
        snprintf(key, sizeof(key), "vmm_pointer_attribute_live_%zu", live[i]);
        rs.attr = new_row(key, text);
        snprintf(text, sizeof(text), "cuMemGetAddressRange, %zu live mapping%s", live[i], plural);
        snprintf(key, sizeof(key), "vmm_address_range_live_%zu", live[i]);
        rs.range = new_row(key, text);
        bench_scaling(cfg, live[i], &rs);
    }
    probe_map_limit();
}

/* ---- External memory ----
 * cuImportExternalMemory + cuExternalMemoryGetMappedBuffer + cuMemFree + cuDestroyExternalMemory
 * of an exported fd, as BEHAVIOR.md times it (the fd is exported untimed before each run, as
 * the import consumes it; on Windows an NT handle, which stays the caller's and is closed
 * untimed after the run), beside the raw calls the buffer is made of: mmap of a sealed memfd of
 * the size and munmap (MapViewOfFile and UnmapViewOfFile of a section). The import maps nothing
 * up front, so neither depends on the size. */
static void bench_import(const struct config *cfg, size_t size, struct row *imp, struct row *os)
{
    CUmemAllocationProp prop = vmm_prop();
    CUmemGenericAllocationHandle h;
    CHECK(cuMemCreate(&h, size, &prop, 0));
    double *s = samples_buffer(cfg->runs);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        bench_os_mem shared;
        CHECK(cuMemExportToShareableHandle(&shared, h, BENCH_HANDLE_TYPE, 0));
        CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
        memset(&d, 0, sizeof(d));
        BENCH_SET_EXTERNAL_HANDLE(&d, shared);
        d.size = size;
        CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
        memset(&b, 0, sizeof(b));
        b.size = size;
        CUexternalMemory e;
        CUdeviceptr p;
        double t0 = bench_now_us();
        CHECK(cuImportExternalMemory(&e, &d));
        CHECK(cuExternalMemoryGetMappedBuffer(&p, e, &b));
        CHECK(cuMemFree(p));
        CHECK(cuDestroyExternalMemory(e));
        double t = bench_now_us() - t0;
        bench_os_imported_close(shared);
        if (i >= 5)
            s[i - 5] = t;
    }
    imp->st = bench_summarise(s, cfg->runs);
    /* The OS calls a mapped buffer is: a map of a sealed memfd of the size (what extmem exports).
     * Not the exported handle itself: the real driver's fd is its own object, which the host
     * cannot map (mmap answers EINVAL), and the bench runs against both. */
    bench_os_mem shared = bench_os_mem_create(size);
    for (size_t i = 0; i < cfg->runs + 5; ++i) {
        double t0 = bench_now_us();
        bench_os_unmap_any(bench_os_map_any(shared, size), size);
        double t = bench_now_us() - t0;
        if (i >= 5)
            s[i - 5] = t;
    }
    os->st = bench_summarise(s, cfg->runs);
    bench_os_mem_close(shared);
    CHECK(cuMemRelease(h));
    free(s);
    imp->reference_us = REF_IMPORT_CYCLE_US;
    imp->ratio = os->st.median > 0 ? imp->st.median / os->st.median : -1;
    imp->ratio_text = "the OS calls";
}

static void bench_external(const struct config *cfg)
{
    struct row *imp2 = new_row("import_cycle_2mib", "Import+MappedBuffer+MemFree+Destroy, 2 MiB");
    struct row *os2 = new_row("os_mmap_fd_2mib", "");
    struct row *imp256 = new_row("import_cycle_256mib", "Import+MappedBuffer+MemFree+Destroy, 256 MiB");
    struct row *os256 = new_row("os_mmap_fd_256mib", "");
    snprintf(os2->sequence, sizeof(os2->sequence), BENCH_TEXT_OS_MAP_SAME, "2 MiB");
    snprintf(os256->sequence, sizeof(os256->sequence), BENCH_TEXT_OS_MAP_SAME, "256 MiB");
    bench_import(cfg, vmm_granularity, imp2, os2);
    bench_import(cfg, 256 * MIB, imp256, os256);
}

/* ---- Graphs of empty kernels beside the same launches on a stream (issue 24) ----
 * For N = 1, 10, 100, 1000 empty 1x1 kernels (the PTX module above, in both builds):
 *   stream:  N cuLaunchKernel on a stream, then one cuStreamSynchronize;
 *   chain:   a graph of N kernel nodes, each after the one before, instantiated once;
 *            one run is cuGraphLaunch + cuStreamSynchronize;
 *   fan-out: one root kernel node and N-1 kernel nodes that each depend on the root only
 *            (N nodes in all, as the chain; for N = 1 it is the chain, so left out);
 *   instantiate: cuGraphInstantiateWithFlags(0) of each graph (cuGraphExecDestroy untimed).
 * Every row's median is the whole run; `per` gives the time per launch or per node. On the real
 * driver the calls are looked up with cuGetProcAddress, so bench-nv still starts (and skips these
 * rows) on a driver without them. */
typedef CUresult (*graph_create_fn)(CUgraph *, unsigned int);
typedef CUresult (*graph_add_kernel_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                                        const CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*graph_instantiate_fn)(CUgraphExec *, CUgraph, unsigned long long);
typedef CUresult (*graph_launch_fn)(CUgraphExec, CUstream);
typedef CUresult (*graph_exec_destroy_fn)(CUgraphExec);
typedef CUresult (*graph_destroy_fn)(CUgraph);
typedef CUresult (*g_load_fn)(CUmodule *, const void *);
typedef CUresult (*g_get_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*g_unload_fn)(CUmodule);
typedef CUresult (*g_launch_kernel_fn)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                                       unsigned int, unsigned int, unsigned int, CUstream, void **, void **);

struct graph_api {
    graph_create_fn create;
    graph_add_kernel_fn add_kernel;
    graph_instantiate_fn instantiate;
    graph_launch_fn launch;
    graph_exec_destroy_fn exec_destroy;
    graph_destroy_fn destroy;
    g_load_fn load;
    g_get_fn get;
    g_unload_fn unload;
    g_launch_kernel_fn launch_kernel;
};

static bool graph_api_get(struct graph_api *a)
{
#ifdef EXTMEM_EXTMEM_H
    a->create = cuGraphCreate;
    a->add_kernel = cuGraphAddKernelNode;
    a->instantiate = cuGraphInstantiate;
    a->launch = cuGraphLaunch;
    a->exec_destroy = cuGraphExecDestroy;
    a->destroy = cuGraphDestroy;
    a->load = cuModuleLoadData;
    a->get = cuModuleGetFunction;
    a->unload = cuModuleUnload;
    a->launch_kernel = cuLaunchKernel;
#else
    /* cuGraphAddKernelNode at CUDA_VERSION is the _v2 entry (CUDA_KERNEL_NODE_PARAMS_v2). */
    a->create = (graph_create_fn)entry_point("cuGraphCreate");
    a->add_kernel = (graph_add_kernel_fn)entry_point("cuGraphAddKernelNode");
    a->instantiate = (graph_instantiate_fn)entry_point("cuGraphInstantiateWithFlags");
    a->launch = (graph_launch_fn)entry_point("cuGraphLaunch");
    a->exec_destroy = (graph_exec_destroy_fn)entry_point("cuGraphExecDestroy");
    a->destroy = (graph_destroy_fn)entry_point("cuGraphDestroy");
    a->load = (g_load_fn)entry_point("cuModuleLoadData");
    a->get = (g_get_fn)entry_point("cuModuleGetFunction");
    a->unload = (g_unload_fn)entry_point("cuModuleUnload");
    a->launch_kernel = (g_launch_kernel_fn)entry_point("cuLaunchKernel");
#endif
    return a->create && a->add_kernel && a->instantiate && a->launch && a->exec_destroy && a->destroy && a->load &&
           a->get && a->unload && a->launch_kernel;
}

enum graph_shape { SHAPE_CHAIN, SHAPE_FANOUT };

static CUgraph graph_make(const struct graph_api *a, CUfunction f, size_t n, enum graph_shape shape)
{
    CUgraph g;
    CHECK(a->create(&g, 0));
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof(p));
    p.func = f;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    CUgraphNode first = NULL, last = NULL;
    for (size_t i = 0; i < n; ++i) {
        CUgraphNode node;
        const CUgraphNode *dep = shape == SHAPE_CHAIN ? &last : &first;
        CHECK(a->add_kernel(&node, g, i ? dep : NULL, i ? 1 : 0, &p));
        if (!i)
            first = node;
        last = node;
    }
    return g;
}

/* The instantiation (each run a new executable graph, destroyed untimed) and the launches of one. */
static void graph_time(const struct config *cfg, const struct graph_api *a, CUgraph g, CUstream stream, size_t runs,
                       struct row *launch_row, struct row *inst_row)
{
    size_t inst_runs = cfg->bulk_runs;
    double *s = samples_buffer(runs > inst_runs ? runs : inst_runs);
    CUgraphExec e;
    for (size_t i = 0; i < inst_runs + 2; ++i) {
        double t0 = bench_now_us();
        CHECK(a->instantiate(&e, g, 0));
        double t = bench_now_us() - t0;
        CHECK(a->exec_destroy(e));
        if (i >= 2)
            s[i - 2] = t;
    }
    inst_row->st = bench_summarise(s, inst_runs);

    CHECK(a->instantiate(&e, g, 0));
    for (int i = 0; i < 5; ++i) { /* the first launches may upload or warm up */
        CHECK(a->launch(e, stream));
        CHECK(cuStreamSynchronize(stream));
    }
    for (size_t i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        CHECK(a->launch(e, stream));
        CHECK(cuStreamSynchronize(stream));
        s[i] = bench_now_us() - t0;
    }
    launch_row->st = bench_summarise(s, runs);
    CHECK(a->exec_destroy(e));
    free(s);
}

static void bench_graphs(const struct config *cfg)
{
    static const size_t sizes[] = {1, 10, 100, 1000};
    enum { NSIZES = sizeof(sizes) / sizeof(sizes[0]) };
    struct row *stream_rows[NSIZES], *chain[NSIZES], *chain_inst[NSIZES], *fan[NSIZES], *fan_inst[NSIZES];
    char text[96], key[48];
    for (size_t k = 0; k < NSIZES; ++k) {
        size_t n = sizes[k];
        snprintf(key, sizeof(key), "graph_stream_%zu", n);
        snprintf(text, sizeof(text), "stream: %zu x cuLaunchKernel empty + cuStreamSynchronize", n);
        stream_rows[k] = new_row(key, text);
        snprintf(key, sizeof(key), "graph_chain_launch_%zu", n);
        snprintf(text, sizeof(text), "graph: chain of %zu empty kernels, cuGraphLaunch + sync", n);
        chain[k] = new_row(key, text);
        fan[k] = fan_inst[k] = NULL;
        if (n > 1) {
            snprintf(key, sizeof(key), "graph_fanout_launch_%zu", n);
            snprintf(text, sizeof(text), "graph: fan-out 1 + %zu empty kernels, cuGraphLaunch + sync", n - 1);
            fan[k] = new_row(key, text);
        }
        snprintf(key, sizeof(key), "graph_chain_instantiate_%zu", n);
        snprintf(text, sizeof(text), "graph: chain of %zu empty kernels, cuGraphInstantiate", n);
        chain_inst[k] = new_row(key, text);
        if (n > 1) {
            snprintf(key, sizeof(key), "graph_fanout_instantiate_%zu", n);
            snprintf(text, sizeof(text), "graph: fan-out 1 + %zu empty kernels, cuGraphInstantiate", n - 1);
            fan_inst[k] = new_row(key, text);
        }
    }

    struct graph_api a;
    const char *why = NULL;
    CUmodule module = NULL;
    CUfunction f = NULL;
    if (!graph_api_get(&a))
        why = "this driver has no cuGraph*/cuModuleLoadData/cuLaunchKernel";
    else if (a.load(&module, empty_ptx) != CUDA_SUCCESS)
        why = "loading the PTX kernel failed";
    else if (a.get(&f, module, "bench_empty") != CUDA_SUCCESS)
        why = "the PTX module has no bench_empty";
    if (why) {
        for (size_t i = 0; i < row_count; ++i)
            if (strncmp(rows[i].key, "graph_", 6) == 0) {
                rows[i].skipped = true;
                snprintf(rows[i].note, sizeof(rows[i].note), "%s", why);
            }
        if (module)
            a.unload(module);
        return;
    }
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    for (size_t k = 0; k < NSIZES; ++k) {
        size_t n = sizes[k];
        /* Short runs many times, long ones fewer: 201 runs up to 10 kernels, 41 beyond. */
        size_t runs = n <= 10 ? cfg->runs : cfg->batch_runs;
        double *s = samples_buffer(runs);
        for (size_t i = 0; i < runs + 5; ++i) {
            double t0 = bench_now_us();
            for (size_t j = 0; j < n; ++j)
                CHECK(a.launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL));
            CHECK(cuStreamSynchronize(stream));
            double t = bench_now_us() - t0;
            if (i >= 5)
                s[i - 5] = t;
        }
        stream_rows[k]->st = bench_summarise(s, runs);
        free(s);
        stream_rows[k]->per = n;
        stream_rows[k]->per_text = "launch";

        CUgraph g = graph_make(&a, f, n, SHAPE_CHAIN);
        graph_time(cfg, &a, g, stream, runs, chain[k], chain_inst[k]);
        CHECK(a.destroy(g));
        if (fan[k]) {
            g = graph_make(&a, f, n, SHAPE_FANOUT);
            graph_time(cfg, &a, g, stream, runs, fan[k], fan_inst[k]);
            CHECK(a.destroy(g));
        }
        struct row *launches[] = {chain[k], fan[k], chain_inst[k], fan_inst[k]};
        for (size_t i = 0; i < 4; ++i) {
            if (!launches[i])
                continue;
            launches[i]->per = n;
            launches[i]->per_text = "node";
            if (i < 2) { /* a launch's time per node beside the stream's per launch */
                double sp = stream_rows[k]->st.median / (double)n;
                launches[i]->ratio = sp > 0 ? launches[i]->st.median / (double)n / sp : -1;
                launches[i]->ratio_text = "the stream's per launch";
            }
        }
    }
    CHECK(cuStreamDestroy(stream));
    CHECK(a.unload(module));
}

/* ---- Output ---- */

static const char *format_us(double us, char *buf, size_t size)
{
    snprintf(buf, size, us < 100 ? "%.2f" : us < 10000 ? "%.1f" : "%.0f", us);
    return buf;
}

static void print_text(const struct config *cfg, const char *device, int driver, const char *host)
{
#ifdef EXTMEM_EXTMEM_H
    printf("bench (extmem build): extmem %s, driver %d, device \"%s\", %u worker threads\n", extmem_version(), driver,
           device, extmem_worker_count());
#else
    printf("bench (nvidia build): driver %d, device \"%s\"\n", driver, device);
#endif
    printf("host: %s\n", host);
#ifdef BENCH_SANITIZED
    printf("WARNING: built with a sanitizer: these timings are not representative\n");
#endif
    printf("%s; times in microseconds: median, 10th and 90th percentile of the runs\n\n",
           cfg->quick ? "--quick (smoke test: few runs)" : "full run");
    printf("%-60s %5s %10s %10s %10s %8s  %s\n", "sequence", "runs", "median", "p10", "p90", "ref", "compare");
    for (size_t i = 0; i < row_count; ++i) {
        const struct row *r = &rows[i];
        if (r->skipped) {
            printf("%-60s %5s %10s %10s %10s %8s  skipped: %s\n", r->sequence, "-", "-", "-", "-", "-", r->note);
            continue;
        }
        char a[32], b[32], c[32], ref[32] = "-", cmp[96] = "";
        if (r->reference_us >= 0)
            format_us(r->reference_us, ref, sizeof(ref));
        if (r->gbps >= 0 && r->ratio >= 0)
            snprintf(cmp, sizeof(cmp), "%.2f GB/s = %.2f %s", r->gbps, r->ratio, r->ratio_text);
        else if (r->gbps >= 0)
            snprintf(cmp, sizeof(cmp), "%.2f GB/s", r->gbps);
        else if (r->ratio >= 0)
            snprintf(cmp, sizeof(cmp), "%.2fx %s", r->ratio, r->ratio_text);
        if (r->per > 0) {
            char per[32];
            format_us(r->st.median / (double)r->per, per, sizeof(per));
            snprintf(cmp + strlen(cmp), sizeof(cmp) - strlen(cmp), "%s%s per %s", cmp[0] ? "; " : "", per, r->per_text);
        }
        if (r->note[0])
            snprintf(cmp + strlen(cmp), sizeof(cmp) - strlen(cmp), "%s%s", cmp[0] ? "; " : "", r->note);
        printf("%-60s %5zu %10s %10s %10s %8s%s%s\n", r->sequence, r->st.runs, format_us(r->st.median, a, sizeof(a)),
               format_us(r->st.p10, b, sizeof(b)), format_us(r->st.p90, c, sizeof(c)), ref, cmp[0] ? "  " : "", cmp);
    }
    printf("\nref: %s\n", REFERENCE_NOTE);
    printf("GB/s: bytes copied per second (1 GB = 1e9 bytes), from the median\n");
    printf("lookups: the time of one call, from runs of %zu calls at random addresses in the live mappings\n",
           cfg->lookups);
#ifdef BENCH_OS_NO_MAP_LIMIT
    printf("%s\n", BENCH_OS_NO_MAP_LIMIT);
#endif
#ifdef EXTMEM_EXTMEM_H
    if (map_limit.max_map_count > 0)
        printf("limit: vm.max_map_count = %ld mappings per process, the physical limit on live cuMemMap mappings\n",
               map_limit.max_map_count);
#endif
    if (map_limit.mapped) {
        const char *name = NULL;
        cuGetErrorName(map_limit.result, &name);
        printf("       %zu one-granule mappings succeeded (%.2f s), then cuMemMap returned %s: %s\n", map_limit.mapped,
               map_limit.seconds, name ? name : "?", map_limit.detail);
    }
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_number(double v)
{
    if (v < 0)
        printf("null");
    else
        printf("%.4f", v);
}

static void print_json(const struct config *cfg, const char *device, int driver, const char *host)
{
    printf("{\n  \"build\": \"%s\",\n", BENCH_BUILD);
#ifdef EXTMEM_EXTMEM_H
    printf("  \"extmem_version\": \"%s\",\n  \"worker_threads\": %u,\n", extmem_version(), extmem_worker_count());
#endif
    printf("  \"driver_version\": %d,\n  \"device\": ", driver);
    json_string(device);
    printf(",\n  \"host\": ");
    json_string(host);
    printf(",\n");
#ifdef BENCH_SANITIZED
    printf("  \"sanitized\": true,\n");
#else
    printf("  \"sanitized\": false,\n");
#endif
    printf("  \"quick\": %s,\n  \"copy_bytes\": %zu,\n  \"reference\": \"%s\",\n  \"rows\": [\n",
           cfg->quick ? "true" : "false", cfg->copy_bytes, REFERENCE_NOTE);
    for (size_t i = 0; i < row_count; ++i) {
        const struct row *r = &rows[i];
        printf("    {\"key\": \"%s\", \"sequence\": \"%s\", ", r->key, r->sequence);
        if (r->skipped) {
            printf("\"skipped\": true, \"note\": \"%s\"}", r->note);
        } else {
            printf("\"runs\": %zu, \"median_us\": ", r->st.runs);
            json_number(r->st.median);
            printf(", \"p10_us\": ");
            json_number(r->st.p10);
            printf(", \"p90_us\": ");
            json_number(r->st.p90);
            printf(", \"reference_us\": ");
            json_number(r->reference_us);
            printf(", \"ratio\": ");
            json_number(r->ratio);
            printf(", \"gbps\": ");
            json_number(r->gbps);
            if (r->per > 0) {
                printf(", \"per\": %zu, \"per_what\": \"%s\", \"per_us\": ", r->per, r->per_text);
                json_number(r->st.median / (double)r->per);
            }
            printf("}");
        }
        printf("%s\n", i + 1 < row_count ? "," : "");
    }
    printf("  ],\n  \"max_map_count\": %ld", map_limit.max_map_count);
    if (map_limit.mapped) {
        const char *name = NULL;
        cuGetErrorName(map_limit.result, &name);
        printf(",\n  \"map_limit\": {\"mapped\": %zu, \"seconds\": %.3f, \"result\": ", map_limit.mapped,
               map_limit.seconds);
        json_string(name ? name : "?");
        printf(", \"detail\": ");
        json_string(map_limit.detail);
        printf("}");
    }
    printf("\n}\n");
}

/* Every row but the graphs', in the order of the table. */
static void bench_call_sequences(const struct config *cfg)
{
    struct row *alloc = new_row("alloc_free_2mib", "cuMemAlloc + cuMemFree, 2 MiB");
    struct row *os = new_row("os_cycle_2mib", BENCH_TEXT_OS_CYCLE);
    char text[96];
    snprintf(text, sizeof(text), "launch empty 1-block kernel, async (%zu launches + 1 sync)", cfg->launches_per_batch);
    struct row *batched = new_row("launch_async", text);
    struct row *round_trip = new_row("launch_sync", "launch empty kernel + cuStreamSynchronize");
    snprintf(text, sizeof(text), "cuMemcpyDtoD %zu MiB + cuCtxSynchronize", cfg->copy_bytes / MIB);
    struct row *dtod = new_row("memcpy_dtod", text);
#ifdef EXTMEM_EXTMEM_H
    snprintf(text, sizeof(text), "memcpy() %zu MiB, the same buffers", cfg->copy_bytes / MIB);
#else
    snprintf(text, sizeof(text), "memcpy() %zu MiB, host buffers", cfg->copy_bytes / MIB);
#endif
    struct row *plain = new_row("memcpy_host", text);
    snprintf(text, sizeof(text), "memcpy() %zu MiB on all cores, the same buffers", cfg->copy_bytes / MIB);
    struct row *parallel = new_row("memcpy_host_all_cores", text);

    bench_os_cycle(cfg, os);
    bench_alloc_free(cfg, alloc);
    alloc->ratio = os->st.median > 0 ? alloc->st.median / os->st.median : -1;
    alloc->ratio_text = "the OS cycle";
    snprintf(os->note, sizeof(os->note), "the physical limit of an allocation");
    bench_launches(cfg, batched, round_trip);
    bench_copies(cfg, dtod, plain, parallel);
    bench_vmm(cfg);
    bench_external(cfg);
}

static void usage(FILE *to)
{
    fprintf(to, "usage: bench [--quick] [--json] [--runs N]\n"
                "  --quick   few runs and a 32 MiB copy: a smoke test, not a measurement\n"
                "  --json    machine-readable output\n"
                "  --runs N  runs of each short sequence (default 201)\n"
                "  --graphs  only the graph rows (graphs of empty kernels beside stream launches)\n");
}

int main(int argc, char **argv)
{
    struct config cfg = {201, 21, 1000, 41, 1000, 41, 256 * MIB, false, false, false};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            cfg.quick = true;
        } else if (strcmp(argv[i], "--graphs") == 0) {
            cfg.graphs_only = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            cfg.json = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            cfg.runs = (size_t)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "bench: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (cfg.quick) {
        cfg.runs = 11;
        cfg.batch_runs = 5;
        cfg.launches_per_batch = 100;
        cfg.copy_runs = 3;
        cfg.copy_bytes = 32 * MIB;
        cfg.bulk_runs = 3;
        cfg.lookups = 100;
    }

    CUdevice dev;
    CUcontext ctx;
    char device[128], host[256];
    int driver = 0;
    CHECK(cuInit(0));
    CHECK(cuDriverGetVersion(&driver));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(device, (int)sizeof(device), dev));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    bench_os_host(host, sizeof(host));
    if (!cfg.graphs_only)
        bench_call_sequences(&cfg);
    bench_graphs(&cfg);

    if (cfg.json)
        print_json(&cfg, device, driver, host);
    else
        print_text(&cfg, device, driver, host);

    CHECK(cuCtxSetCurrent(NULL));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
