// devrt_probe.cu (issue 25, devrt): what the GPU does with bad frees of the device heap, with
// the device runtime's cudaMalloc/cudaFree, and with deep and many device launches.
// nvcc -rdc=true -arch=sm_90 devrt_probe.cu -o devrt_probe; ./devrt_probe MODE (each in a fresh process)
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

__device__ long long g[4096];
__device__ int g_arr[1024];

__global__ void bad_free(int mode, char *devp)
{
    __shared__ int sh[64];
    int local[16];
    local[0] = mode;
    char *p = (char *)malloc(64);
    char *q = (char *)malloc(64);
    g[0] = (long long)(uintptr_t)p;
    g[1] = (long long)(uintptr_t)q;
    g[2] = -1;
    cudaError_t e = cudaSuccess;
    switch (mode) {
    case 1: free(nullptr); break;
    case 2: free(p); free(p); break;
    case 3: free(p + 16); break;
    case 4: free(p + 1); break;
    case 5: free(&g_arr[512]); break;
    case 6: sh[0] = 1; free(&sh[16]); break;
    case 7: free(devp); break;
    case 8: free(devp + 4096); break;
    case 9: free(p); free(q); free(p); break;                       /* double free after a merge */
    case 10: { free(p); char *c = (char *)malloc(64); g[3] = c == p; free(p); free(c); break; } /* reused */
    case 11: free(local); break;
    case 12: e = cudaFree(nullptr); break;
    case 13: e = cudaFree(p); g[4] = e; e = cudaFree(p); break;
    case 14: e = cudaFree(p + 16); break;
    case 15: e = cudaFree((void *)0x1000); break;
    case 16: e = cudaFree(devp); break;
    case 17: e = cudaFree(local); break;
    case 18: free(q); free(q + 64); break; /* the next block's start after q was freed? (q+64 is inside or the header) */
    case 19: { /* a copy of p's header at p + 64 inside a bigger block: does free read headers? */
        char *b = (char *)malloc(512);
        memcpy(b + 128 - 64, b - 64, 64);
        free(b + 128);
        g[5] = 1;
        free(b);
        break;
    }
    case 20: free(p - 16); break;
    case 21: free(p - 64); break;
    case 22: free(p + 64); break; /* q - 16? the gap between blocks */
    case 23: { char *b = (char *)malloc(4096); free(b + 2048); free(b); break; }
    case 24: { void *m = nullptr; e = cudaMalloc((void **)0x1000, 16); g[6] = (long long)m; break; }
    case 25: { void *m = nullptr; e = cudaMalloc(&m, 16); g[6] = m != nullptr; free(m); break; } /* free of cudaMalloc'd */
    case 26: free(p); e = cudaFree(p); break;
    }
    g[2] = e;
    g[7] = local[0];
}

/* The 64 bytes before blocks, live and freed. */
__global__ void header_dump(unsigned int *o)
{
    char *a = (char *)malloc(1), *b = (char *)malloc(100), *c = (char *)malloc(1000);
    o[0] = (unsigned)((uintptr_t)b - (uintptr_t)a);
    o[1] = (unsigned)((uintptr_t)c - (uintptr_t)b);
    for (int i = 0; i < 32; ++i) o[8 + i] = ((unsigned *)(b - 128))[i];
    free(b);
    for (int i = 0; i < 32; ++i) o[40 + i] = ((unsigned *)(b - 128))[i];
    free(a);
    for (int i = 0; i < 32; ++i) o[72 + i] = ((unsigned *)(b - 128))[i];
    free(c);
}

/* Nesting: each level launches the next into `how` (0 default, 1 tail, 2 fire and forget). */
__global__ void nest(int depth, int max, int how)
{
    if (depth >= max)
        return;
    cudaStream_t s = how == 1 ? cudaStreamTailLaunch : how == 2 ? cudaStreamFireAndForget : (cudaStream_t)0;
    nest<<<1, 1, 0, s>>>(depth + 1, max, how);
    g[depth] = cudaGetLastError();
    g[2048 + depth] = 1;
}

__global__ void spin(long long n, int *flag)
{
    long long t0 = clock64();
    while (clock64() - t0 < n) {}
    atomicAdd(flag, 1);
}

/* Pending launches: `count` launches of a spinning child into `how`. */
__global__ void many(int count, int how, int *flag)
{
    cudaStream_t s = how == 1 ? cudaStreamTailLaunch : how == 2 ? cudaStreamFireAndForget : (cudaStream_t)0;
    for (int i = 0; i < count && i < 256; ++i) {
        spin<<<1, 1, 0, s>>>(how == 0 ? 2000000 : 1000, flag);
        g[i] = cudaGetLastError();
    }
}

/* Device memcpy/memset count as pending launches? */
__global__ void many_copies(int count, int how, char *buf)
{
    cudaStream_t s = how == 1 ? cudaStreamTailLaunch : how == 2 ? cudaStreamFireAndForget : (cudaStream_t)0;
    for (int i = 0; i < count && i < 256; ++i)
        g[i] = cudaMemsetAsync(buf + i, i, 1, s);
    g[300] = cudaGetLastError();
}

/* cudaDeviceGetLimit of the device runtime's limits after the host set them. */
__global__ void limits(void)
{
    for (int i = 0; i < 8; ++i) {
        size_t v = 0;
        g[2 * i] = cudaDeviceGetLimit(&v, (cudaLimit)i);
        g[2 * i + 1] = (long long)v;
    }
}


__device__ void devfn(int *p) { *p = 1; }
__global__ void api(int mode, unsigned char *src, unsigned char *dst)
{
    __shared__ unsigned char sh[256];
    cudaFuncAttributes a;
    int n = -7;
    size_t v = 0xdead;
    cudaError_t e = cudaSuccess;
    g[1] = -7;
    switch (mode) {
    case 1: e = cudaFuncGetAttributes(&a, nullptr); break;
    case 2: e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, nullptr, 64, 0); break;
    case 3: e = cudaFuncGetAttributes(&a, (const void *)devfn); break;
    case 4: { cudaMemcpy3DParms p; memset(&p, 0, sizeof(p)); p.srcArray = (cudaArray_t)src;
              p.dstPtr.ptr = dst; p.dstPtr.pitch = 64; p.dstPtr.xsize = 64; p.dstPtr.ysize = 4;
              p.extent.width = 16; p.extent.height = 2; p.extent.depth = 1; p.kind = cudaMemcpyDeviceToDevice;
              e = cudaMemcpy3DAsync(&p, 0); break; }
    case 5: { cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
              p.srcPtr.ptr = src; p.srcPtr.pitch = 64; p.srcPtr.xsize = 64; p.srcPtr.ysize = 4;
              p.dstPtr.ptr = dst; p.dstPtr.pitch = 64; p.dstPtr.xsize = 64; p.dstPtr.ysize = 4;
              p.extent.width = 70; p.extent.height = 2; p.extent.depth = 1; p.kind = cudaMemcpyDeviceToDevice;
              e = cudaMemcpy3DAsync(&p, 0); break; }
    case 6: e = cudaMemcpyAsync(dst, (void *)0x1000, 16, cudaMemcpyDeviceToDevice, 0); break;
    case 7: e = cudaMemsetAsync((void *)0x1000, 1, 16, 0); break;
    case 8: sh[0] = 1; e = cudaMemcpyAsync(dst, sh, 16, cudaMemcpyDeviceToDevice, 0); break;
    case 9: e = cudaFuncGetAttributes(nullptr, (const void *)api); break;
    case 10: { char *p = (char *)malloc(64); free(p + 4); break; }
    case 11: { char *p = (char *)malloc(64); free(p + 8); break; }
    case 12: e = cudaDeviceGetLimit(&v, (cudaLimit)8); break;
    case 13: e = cudaDeviceGetLimit(&v, (cudaLimit)9); break;
    case 14: e = cudaDeviceGetLimit(&v, (cudaLimit)10); break;
    case 15: e = cudaMemcpyAsync(dst, src, 1 << 20, cudaMemcpyDeviceToDevice, 0); break; /* past the allocations */
    case 16: case 17: case 18: case 19: case 20:
        e = cudaMemcpyAsync(dst + 16, src, 16, (cudaMemcpyKind)(mode - 16), 0); break;
    case 21: e = cudaMemcpyAsync(dst, src, 16, (cudaMemcpyKind)7, 0); break;
    case 22: e = cudaMemset2DAsync(dst, 32, 1, 40, 2, 0); break;
    case 23: e = cudaMemcpy2DAsync(dst, 32, src, 64, 40, 2, cudaMemcpyDeviceToDevice, 0); break;
    case 24: e = cudaMemcpy2DAsync(dst, 64, src, 64, 40, 2, cudaMemcpyHostToDevice, 0); break;
    case 25: e = cudaMemcpyAsync(dst, src, 16, cudaMemcpyDeviceToDevice, (cudaStream_t)0x12345); break;
    case 26: e = cudaMalloc(nullptr, 16); break;
    case 27: e = cudaDeviceGetLimit(nullptr, cudaLimitStackSize); break;
    case 28: e = cudaDeviceGetCacheConfig(nullptr); break;
    case 29: e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)devfn, 64, 0); break;
    case 30: e = cudaMemcpy2DAsync(dst, 64, src, 64, 0, 2, cudaMemcpyDeviceToDevice, 0); break;
    case 31: { cudaPitchedPtr pp; pp.ptr = dst; pp.pitch = 32; pp.xsize = 40; pp.ysize = 2; cudaExtent ex; ex.width = 40; ex.height = 2; ex.depth = 2;
               e = cudaMemset3DAsync(pp, 1, ex, 0); break; }
    }
    g[0] = e;
    g[1] = n;
    g[2] = (long long)v;
    g[3] = cudaGetLastError();
}

static long long h[4096];
static int finish(const char *what)
{
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t l = cudaGetLastError();
    cudaError_t r = cudaMemcpyFromSymbol(h, g, sizeof(h));
    printf("%s: sync %s, last %s, read %s\n", what, cudaGetErrorName(e), cudaGetErrorName(l), cudaGetErrorName(r));
    return r == cudaSuccess;
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    int arg = argc > 2 ? atoi(argv[2]) : 0;
    if (!strcmp(m, "free")) {
        char *d;
        cudaMalloc(&d, 1 << 16);
        bad_free<<<1, 1>>>(arg, d);
        char w[32];
        snprintf(w, sizeof w, "free mode %d", arg);
        if (finish(w))
            printf("  ret %lld first %lld reused %lld extra %lld %lld local %lld p-q %lld\n", h[2], h[4], h[3], h[5], h[6], h[7], h[1] - h[0]);
        void *x;
        printf("  cudaMalloc after: %s\n", cudaGetErrorName(cudaMalloc(&x, 16)));
    } else if (!strcmp(m, "header")) {
        unsigned *o;
        cudaMallocManaged(&o, 512 * 4);
        header_dump<<<1, 1>>>(o);
        printf("header: sync %s; b-a %u c-b %u\n", cudaGetErrorName(cudaDeviceSynchronize()), o[0], o[1]);
        for (int k = 0; k < 3; ++k) {
            printf(k == 0 ? "live   " : k == 1 ? "b freed" : "a freed");
            for (int i = 0; i < 32; ++i) printf("%s%08x", i % 4 ? " " : "  ", o[8 + 32 * k + i]);
            printf("\n");
        }
    } else if (!strcmp(m, "nest")) {
        int how = argc > 3 ? atoi(argv[3]) : 0;
        if (argc > 4) printf("set pending %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, atoi(argv[4]))));
        nest<<<1, 1>>>(0, arg, how);
        char w[64];
        snprintf(w, sizeof w, "nest max %d how %d", arg, how);
        if (finish(w)) {
            int ran = 0;
            for (int i = 0; i < arg && i < 2048; ++i) ran += h[2048 + i] != 0;
            printf("  levels that ran their code %d; codes:", ran);
            for (int i = 0; i < arg && i < 2048; ++i) if (h[2048 + i] && (i < 2 || h[i] != h[i - 1])) printf(" %d:%lld", i, h[i]);
            for (int i = 0; i < arg && i < 2048; ++i) if (!h[2048 + i]) { printf(" (first level that did not run: %d)", i); break; }
            printf("\n");
        }
    } else if (!strcmp(m, "many")) {
        int how = argc > 3 ? atoi(argv[3]) : 0;
        int limit = argc > 4 ? atoi(argv[4]) : 0;
        if (limit) printf("set pending %d: %s\n", limit, cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit)));
        int *flag;
        cudaMallocManaged(&flag, 4);
        *flag = 0;
        many<<<1, 1>>>(arg, how, flag);
        char w[64];
        snprintf(w, sizeof w, "many %d how %d limit %d", arg, how, limit);
        if (finish(w)) {
            printf("  ran %d; codes:", *flag);
            for (int i = 0; i < arg; ++i) if (i < 3 || h[i] != h[i - 1]) printf(" %d:%lld", i, h[i]);
            printf("\n");
        }
    } else if (!strcmp(m, "copies")) {
        int how = argc > 3 ? atoi(argv[3]) : 0;
        int limit = argc > 4 ? atoi(argv[4]) : 0;
        if (limit) printf("set pending %d: %s\n", limit, cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit)));
        char *buf;
        cudaMalloc(&buf, 256);
        many_copies<<<1, 1>>>(arg, how, buf);
        char w[64];
        snprintf(w, sizeof w, "copies %d how %d limit %d", arg, how, limit);
        if (finish(w)) {
            printf("  last %lld codes:", h[300]);
            for (int i = 0; i < arg; ++i) if (i < 3 || h[i] != h[i - 1]) printf(" %d:%lld", i, h[i]);
            printf("\n");
        }
    } else if (!strcmp(m, "api")) {
        unsigned char *src, *dst;
        cudaMalloc(&src, 4096);
        cudaMalloc(&dst, 4096);
        api<<<1, 1>>>(arg, src, dst);
        char w[32];
        snprintf(w, sizeof w, "api mode %d", arg);
        if (finish(w))
            printf("  ret %lld n %lld v %lld last %lld\n", h[0], h[1], h[2], h[3]);
    } else if (!strcmp(m, "pend")) {
        size_t vals[] = {0, 1, 31, 32, 33, 100, 1000000};
        for (size_t v : vals) {
            cudaError_t e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, v);
            size_t r = 0;
            cudaDeviceGetLimit(&r, cudaLimitDevRuntimePendingLaunchCount);
            printf("set pending %zu: %s, reads %zu\n", v, cudaGetErrorName(e), r);
        }
        size_t r = 0;
        cudaError_t e = cudaDeviceGetLimit(&r, cudaLimitPersistingL2CacheSize);
        int mx = 0;
        cudaDeviceGetAttribute(&mx, cudaDevAttrMaxPersistingL2CacheSize, 0);
        printf("host persisting L2 limit %s %zu, attribute max %d\n", cudaGetErrorName(e), r, mx);
    } else if (!strcmp(m, "limits")) {
        printf("set pending 7: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 7)));
        printf("set sync depth 5: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 5)));
        limits<<<1, 1>>>();
        if (finish("limits"))
            for (int i = 0; i < 8; ++i) printf("  limit %d: %lld %lld\n", i, h[2 * i], h[2 * i + 1]);
        printf("set pending 9 after a launch: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 9)));
        size_t v = 0;
        cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
        printf("pending reads %zu\n", v);
        int *flag;
        cudaMallocManaged(&flag, 4);
        *flag = 0;
        many<<<1, 1>>>(20, 1, flag);
        if (finish("20 tail launches after setting 9"))
            { printf("  ran %d; codes:", *flag); for (int i = 0; i < 20; ++i) printf(" %lld", h[i]); printf("\n"); }
    }
    return 0;
}
