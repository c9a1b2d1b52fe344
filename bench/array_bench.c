/*
 * array_bench: copies with a CUDA array on one side or both, beside memcpy() of the same bytes
 * (bench/README.md, "Arrays"). One source, two builds, like bench.c: against extmem (CMake
 * target extmem-bench-arrays, BENCH_EXTMEM), where an array is device memory with pitched rows
 * (docs/images.md) and memcpy() of the same bytes is what bounds a copy; and against NVIDIA's
 * cuda.h and libcuda, where the same calls move data to and from the GPU's tiled arrays:
 *   gcc -O2 bench/array_bench.c -I/usr/local/cuda/include -lcuda -o array-bench-nv
 *
 * Rows, for a 2D float4 array of W x H (64 MiB; --quick: 4 MiB): a whole-array cuMemcpy2D from
 * pinned host memory (HtoA), back (AtoH), array to array (AtoA), from device memory (DtoA);
 * a 1D cuMemcpyHtoA of one row; and memcpy() of the same bytes between two host buffers.
 * Each prints the median, 10th and 90th percentile in microseconds and GB/s at the median.
 */
#define _GNU_SOURCE

#if defined(BENCH_EXTMEM)
#include "extmem/extmem.h"
#else
#include <cuda.h>
#endif

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(CUresult r, const char *what, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *name = NULL;
    cuGetErrorName(r, &name);
#ifdef EXTMEM_EXTMEM_H
    fprintf(stderr, "array_bench: %s failed (line %d): %s: %s\n", what, line, name ? name : "?",
            extmem_error_detail());
#else
    fprintf(stderr, "array_bench: %s failed (line %d): %s\n", what, line, name ? name : "?");
#endif
    exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

static void row(const char *name, double *samples, size_t runs, size_t bytes)
{
    bench_stats s = bench_summarise(samples, runs);
    printf("%-44s %10.1f %10.1f %10.1f %8.2f\n", name, s.median, s.p10, s.p90,
           s.median > 0 ? (double)bytes / (s.median * 1e3) : 0.0);
}

static CUDA_MEMCPY2D copy_desc(CUmemorytype st, const void *sh, CUdeviceptr sd, CUarray sa, size_t spitch,
                               CUmemorytype dt, void *dh, CUdeviceptr dd, CUarray da, size_t dpitch, size_t width,
                               size_t height)
{
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = st, c.srcHost = sh, c.srcDevice = sd, c.srcArray = sa, c.srcPitch = spitch;
    c.dstMemoryType = dt, c.dstHost = dh, c.dstDevice = dd, c.dstArray = da, c.dstPitch = dpitch;
    c.WidthInBytes = width, c.Height = height;
    return c;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    size_t runs = quick ? 5 : 21, W = quick ? 512 : 2048, H = quick ? 512 : 2048, RB = W * 16, bytes = RB * H;
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CUDA_ARRAY3D_DESCRIPTOR d;
    memset(&d, 0, sizeof(d));
    d.Width = W, d.Height = H, d.Format = CU_AD_FORMAT_FLOAT, d.NumChannels = 4;
    CUarray a, b;
    CHECK(cuArray3DCreate(&a, &d));
    CHECK(cuArray3DCreate(&b, &d));
    void *host, *host2;
    CHECK(cuMemAllocHost(&host, bytes));
    CHECK(cuMemAllocHost(&host2, bytes));
    memset(host, 1, bytes);
    memset(host2, 2, bytes);
    CUdeviceptr dp;
    CHECK(cuMemAlloc(&dp, bytes));
    CHECK(cuMemsetD8(dp, 3, bytes));
    double *t = calloc(runs, sizeof(double));
    if (!t)
        return 1;
    printf("array copies, %zu x %zu float4 (%zu MiB)\n", W, H, bytes >> 20);
    printf("%-44s %10s %10s %10s %8s\n", "row", "median us", "p10", "p90", "GB/s");
    struct {
        const char *name;
        CUDA_MEMCPY2D c;
    } rows[] = {
        {"cuMemcpy2D HtoA (pinned), whole array", copy_desc(CU_MEMORYTYPE_HOST, host, 0, NULL, RB, CU_MEMORYTYPE_ARRAY,
                                                            NULL, 0, a, 0, RB, H)},
        {"cuMemcpy2D AtoH (pinned), whole array", copy_desc(CU_MEMORYTYPE_ARRAY, NULL, 0, a, 0, CU_MEMORYTYPE_HOST,
                                                            host2, 0, NULL, RB, RB, H)},
        {"cuMemcpy2D AtoA, whole array", copy_desc(CU_MEMORYTYPE_ARRAY, NULL, 0, a, 0, CU_MEMORYTYPE_ARRAY, NULL, 0,
                                                   b, 0, RB, H)},
        {"cuMemcpy2D DtoA, whole array", copy_desc(CU_MEMORYTYPE_DEVICE, NULL, dp, NULL, RB, CU_MEMORYTYPE_ARRAY,
                                                   NULL, 0, a, 0, RB, H)},
    };
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); ++r) {
        CHECK(cuMemcpy2D(&rows[r].c)); /* warm-up */
        for (size_t i = 0; i < runs; ++i) {
            double t0 = bench_now_us();
            CHECK(cuMemcpy2D(&rows[r].c));
            CHECK(cuCtxSynchronize());
            t[i] = bench_now_us() - t0;
        }
        row(rows[r].name, t, runs, bytes);
    }
    CHECK(cuMemcpyHtoA(a, 0, host, RB)); /* warm-up */
    for (size_t i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        CHECK(cuMemcpyHtoA(a, 0, host, RB));
        t[i] = bench_now_us() - t0;
    }
    row("cuMemcpyHtoA, one row", t, runs, RB);
    for (size_t i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        memcpy(host2, host, bytes);
        t[i] = bench_now_us() - t0;
    }
    row("memcpy() of the same bytes, host to host", t, runs, bytes);
    for (size_t i = 0; i < runs; ++i) {
        double t0 = bench_now_us();
        memcpy(host2, host, RB);
        t[i] = bench_now_us() - t0;
    }
    row("memcpy() of one row", t, runs, RB);
    free(t);
    CHECK(cuMemFree(dp));
    CHECK(cuMemFreeHost(host));
    CHECK(cuMemFreeHost(host2));
    CHECK(cuArrayDestroy(a));
    CHECK(cuArrayDestroy(b));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
