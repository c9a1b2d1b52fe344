/*
 * tests/cuda/dynamic_parallelism/dynamic_parallelism.c: kernels launching kernels (CDP2), run
 * through the driver API from the PTX nvcc -rdc=true makes (kernels.ptx). On extmem the module
 * is loaded as it is (the engine provides the device runtime's functions); on NVIDIA's driver
 * (built with -DDP_LINK) give the path of libcudadevrt.a as the second argument and the PTX is
 * linked with it first.
 * Prints what it finds; dynamic_parallelism.expected is an H100's output.
 *
 * Usage: dynamic_parallelism [KERNELS.ptx [libcudadevrt.a]]   (default: DP_KERNELS_PTX, the build's)
 */
#ifdef DP_LINK
#include <cuda.h>
#else
#include "extmem/cuda.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                                                                      \
    do {                                                                                                              \
        CUresult r_ = (call);                                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                                     \
            const char *n_ = "?";                                                                                     \
            cuGetErrorName(r_, &n_);                                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, n_);                                       \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

/* A device runtime's error (a cudaError_t) by its number, with the driver's name where the
 * driver has the same number (cudaSuccess, and the launch errors of the 700s). */
static const char *name(int code)
{
    static char buf[8][64];
    static unsigned next;
    char *b = buf[next++ % 8];
    const char *n = NULL;
    if (code == 0)
        return "success";
    if (cuGetErrorName((CUresult)code, &n) == CUDA_SUCCESS && code >= 700)
        snprintf(b, 64, "%d (%s)", code, n);
    else
        snprintf(b, 64, "%d", code);
    return b;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    p[n] = 0;
    fclose(f);
    return p;
}

static CUmodule mod;

static CUfunction fn(const char *n)
{
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, n));
    return f;
}

static CUdeviceptr zeroed(size_t bytes)
{
    CUdeviceptr p;
    CK(cuMemAlloc(&p, bytes));
    CK(cuMemsetD8(p, 0, bytes));
    return p;
}

static void get(int *h, CUdeviceptr d, size_t n) { CK(cuMemcpyDtoH(h, d, n * sizeof(int))); }

static void recursion(int max)
{
    CUdeviceptr out = zeroed(128 * sizeof(int));
    int depth = 0;
    void *args[] = {&out, &depth, &max};
    CK(cuLaunchKernel(fn("recurse"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CUresult r = cuCtxSynchronize();
    int h[128];
    get(h, out, 128);
    int ran = 0;
    while (ran < 64 && h[ran] == ran + 1)
        ran++;
    printf("recursion to %d: synchronize %s, levels that ran %d", max, name(r), ran);
    for (int d = 0; d < max && d < 64; ++d)
        if (h[64 + d])
            printf(", level %d's launch: %s", d, name(h[64 + d]));
    printf("\n");
    CK(cuMemFree(out));
}

static void ordering(void)
{
    CUdeviceptr counter = zeroed(4), log = zeroed(64 * sizeof(int)), res = zeroed(32 * sizeof(int));
    void *args[] = {&counter, &log, &res};
    CK(cuLaunchKernel(fn("parent"), 3, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    int hl[64], hr[32];
    get(hl, log, 64);
    get(hr, res, 32);
    printf("tail launch saw %d of the parent's 192 threads and %d appends before it\n", hr[0], hr[1]);
    printf("appends:");
    for (int i = 0; i < hl[0] && i < 63; ++i)
        printf(" %d", hl[1 + i]);
    printf("\n");
    /* the default stream's children in launch order; the created stream's, the old API's and
     * the tail launch's anywhere before the tail */
    int pos1 = -1, pos2 = -1, pos3 = -1, pos100 = -1;
    for (int i = 0; i < hl[0] && i < 63; ++i) {
        if (hl[1 + i] == 1 && pos1 < 0) pos1 = i;
        if (hl[1 + i] == 2 && pos2 < 0) pos2 = i;
        if (hl[1 + i] == 3 && pos3 < 0) pos3 = i;
        if (hl[1 + i] == 100) pos100 = i;
    }
    printf("default stream in order: %s; tail last: %s\n", pos1 < pos2 && pos2 < pos3 ? "yes" : "no",
           pos100 == hl[0] - 1 ? "yes" : "no");
    printf("fire and forget: %d\n", hr[2]);
    printf("stream create %s, destroy %s, last error %s\n", name(hr[3]), name(hr[4]), name(hr[5]));
    printf("get device %s: %d; max threads per block %s: %d\n", name(hr[6]), hr[7], name(hr[8]), hr[9]);
    printf("block of 2048: peek %s, get %s, then %s\n", name(hr[10]), name(hr[11]), name(hr[12]));
    printf("cudaGetParameterBuffer + cudaLaunchDevice: %s\n", hr[13] < 0 ? "no buffer" : name(hr[13]));
    printf("event create %s, record %s, destroy %s\n", name(hr[14]), name(hr[15]), name(hr[16]));
    printf("stream create with cudaStreamDefault: %s, last error %s\n", name(hr[17]), name(hr[18]));
    CK(cuMemFree(counter));
    CK(cuMemFree(log));
    CK(cuMemFree(res));
}

static void many(int mode, int n)
{
    static const char *const modes[] = {"tail launch", "fire and forget", "default stream"};
    CUdeviceptr codes = zeroed((size_t)n * sizeof(int));
    void *args[] = {&codes, &n, &mode};
    CK(cuLaunchKernel(fn("many"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    CUresult r = cuCtxSynchronize();
    int *h = malloc((size_t)n * sizeof(int));
    get(h, codes, (size_t)n);
    int ok = 0, first_bad = -1;
    for (int i = 0; i < n; ++i) {
        if (h[i] == 0)
            ok++;
        else if (first_bad < 0)
            first_bad = i;
    }
    printf("%d launches into the %s stream: synchronize %s, %d succeeded", n, modes[mode], name(r), ok);
    if (first_bad >= 0)
        printf(", the first refused was #%d: %s", first_bad, name(h[first_bad]));
    printf("\n");
    free(h);
    CK(cuMemFree(codes));
}

static void fill(void)
{
    int n = 1000;
    CUdeviceptr buf = zeroed((size_t)n * sizeof(int)), out = zeroed(16 * sizeof(int));
    void *args[] = {&buf, &out, &n};
    CK(cuLaunchKernel(fn("fill_then_launch"), 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    int h[16];
    get(h, out, 16);
    printf("children summed their parent's writes: %d %d %d %d (total %d)\n", h[1], h[2], h[3], h[4],
           h[1] + h[2] + h[3] + h[4]);
    CK(cuMemFree(buf));
    CK(cuMemFree(out));
}

int main(int argc, char **argv)
{
#ifdef DP_KERNELS_PTX
    const char *ptx_path = argc > 1 ? argv[1] : DP_KERNELS_PTX;
#else
    if (argc < 2) {
        fprintf(stderr, "usage: %s KERNELS.ptx [libcudadevrt.a]\n", argv[0]);
        return 2;
    }
    const char *ptx_path = argv[1];
#endif
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char *ptx = read_file(ptx_path);
    if (argc > 2) {
#ifdef DP_LINK /* built against NVIDIA's cuda.h for the GPU (docs/probes/kernels/grid/README.md) */
        CUlinkState link;
        void *image;
        size_t size;
        CK(cuLinkCreate(0, NULL, NULL, &link));
        CK(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1, "kernels.ptx", 0, NULL, NULL));
        CK(cuLinkAddFile(link, CU_JIT_INPUT_LIBRARY, argv[2], 0, NULL, NULL));
        CK(cuLinkComplete(link, &image, &size));
        CK(cuModuleLoadData(&mod, image));
        CK(cuLinkDestroy(link));
#else
        fprintf(stderr, "built without DP_LINK: no linking\n");
        return 2;
#endif
    } else {
        CK(cuModuleLoadData(&mod, ptx));
    }
    free(ptx);
    size_t v;
    CK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
    printf("pending launch count limit: %zu\n", v);
    CUresult r = cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH);
    printf("sync depth limit: %s %zu\n", name(r), r ? 0 : v);

    ordering();
    fill();
    recursion(30);
    many(0, 300);
    many(1, 300);
    r = cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 40);
    CK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
    printf("pending launch count set to 40: %s, reads %zu\n", name(r), v);
    many(0, 100);
    many(1, 100);
    r = cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4);
    printf("sync depth set to 4: %s\n", name(r));
    recursion(8);
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("done\n");
    return 0;
}
