// tests/device_runtime/kernels.cu (devrt, issue 25): the kernels of tests/device_runtime_test.cpp,
// which loads their PTX (kernels.ptx, checked in: no toolkit needed) through the driver API:
//   nvcc -rdc=true -gencode arch=compute_80,code=compute_80 -ptx kernels.cu -o kernels.ptx
// heap_kernel, copy_kernel and copy2d_kernel are the sections of tests/cuda/device_runtime.cu that
// faulted on the H100 (docs/probes/kernels/devrt); api, bad_free, nest and many_copies are the
// probe's (docs/probes/kernels/devrt/devrt_probe.cu), whose H100 answers the test asserts.
#include <cstdint>
#include <cstring>

__device__ long long g_out[256];
__device__ long long g[4096];
__device__ int g_arr[1024];

__global__ void heap_child(long long *o)
{
    void *p = nullptr;
    o[0] = cudaMalloc(&p, 1000);
    o[1] = p != nullptr && ((unsigned long long)p % 16) == 0;
    if (p) {
        memset(p, 7, 1000);
        o[2] = ((unsigned char *)p)[999];
    }
    o[3] = cudaFree(p);
}

extern "C" __global__ void heap_kernel()
{
    void *p = (void *)0x1234;
    g_out[0] = cudaMalloc(&p, 100);
    g_out[1] = p != nullptr && ((unsigned long long)p % 16) == 0;
    ((int *)p)[24] = 42;
    g_out[2] = ((int *)p)[24];
    g_out[3] = cudaFree(p);
    void *z = (void *)0x1234;
    g_out[4] = cudaMalloc(&z, 0);
    g_out[5] = z == nullptr ? 0 : z == (void *)0x1234 ? 1 : 2;
    g_out[6] = cudaFree(z);
    void *h = (void *)0x1234;
    g_out[7] = cudaMalloc(&h, 1ull << 40);
    g_out[8] = h == nullptr ? 0 : h == (void *)0x1234 ? 1 : 2;
    g_out[9] = cudaGetLastError();
    g_out[10] = cudaGetLastError();
    g_out[11] = cudaFree(nullptr);
    // The heap (16 MiB, set by the host) holds fewer than sixteen 1 MiB blocks: they come from
    // the heap malloc uses.
    void *blocks[20];
    int n = 0;
    cudaError_t e = cudaSuccess;
    while (n < 20 && (e = cudaMalloc(&blocks[n], 1 << 20)) == cudaSuccess)
        ++n;
    g_out[12] = n;
    g_out[13] = e;
    g_out[14] = malloc(1 << 20) == nullptr;
    g_out[15] = cudaGetLastError();
    for (int i = 0; i < n; ++i) {
        cudaError_t f = i % 2 ? cudaFree(blocks[i]) : (free(blocks[i]), cudaSuccess);
        if (f)
            g_out[16] = f;
    }
    void *m = malloc(1 << 20);
    g_out[17] = m != nullptr;
    g_out[18] = cudaFree(m);
    heap_child<<<1, 1>>>(&g_out[20]);
    g_out[19] = cudaGetLastError();
}

__global__ void check_kernel(const unsigned char *p, int n, long long *o)
{
    long long s = 0;
    for (int i = 0; i < n; ++i)
        s += p[i] * (i % 7 + 1);
    *o = s;
}

extern "C" __global__ void copy_kernel(unsigned char *src, unsigned char *dst)
{
    // 1D copies in each kind of stream; a child in the same stream sees the copy.
    g_out[0] = cudaMemcpyAsync(dst, src, 4096, cudaMemcpyDeviceToDevice, 0);
    check_kernel<<<1, 1>>>(dst, 4096, &g_out[1]);
    g_out[2] = cudaMemcpyAsync(dst + 4096, src, 16, cudaMemcpyDefault, 0);
    g_out[7] = cudaMemcpyAsync(dst, src, 0, cudaMemcpyDeviceToDevice, 0);
    cudaStream_t s;
    g_out[8] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    g_out[9] = cudaMemcpyAsync(dst + 5000, src + 5000, 100, cudaMemcpyDefault, s);
    check_kernel<<<1, 1, 0, s>>>(dst + 5000, 100, &g_out[10]);
    g_out[11] = cudaMemsetAsync(dst + 6000, 0xab, 1000, s);
    check_kernel<<<1, 1, 0, s>>>(dst + 6000, 1001, &g_out[12]);
    g_out[13] = cudaStreamDestroy(s);
    g_out[14] = cudaMemsetAsync(dst + 7100, 0x11, 50, cudaStreamFireAndForget);
    g_out[15] = cudaMemcpyAsync(dst + 7200, src + 7200, 50, cudaMemcpyDeviceToDevice, cudaStreamTailLaunch);
    g_out[16] = cudaMemsetAsync(dst + 7300, 0x22, 50, cudaStreamTailLaunch);
    check_kernel<<<1, 1, 0, cudaStreamTailLaunch>>>(dst + 7200, 150, &g_out[17]);
    g_out[18] = cudaGetLastError();
}

__device__ cudaPitchedPtr pitched(void *p, size_t pitch, size_t x, size_t y)
{
    cudaPitchedPtr r;
    r.ptr = p;
    r.pitch = pitch;
    r.xsize = x;
    r.ysize = y;
    return r;
}
__device__ cudaExtent extent3(size_t w, size_t h, size_t d)
{
    cudaExtent r;
    r.width = w;
    r.height = h;
    r.depth = d;
    return r;
}
__device__ cudaPos pos3(size_t x, size_t y, size_t z)
{
    cudaPos r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}

extern "C" __global__ void copy2d_kernel(unsigned char *src, unsigned char *dst)
{
    g_out[0] = cudaMemset2DAsync(dst, 64, 0x5a, 40, 5, 0);
    g_out[2] = cudaMemset2DAsync(dst, 64, 0x5a, 0, 5, 0);
    g_out[3] = cudaMemcpy2DAsync(dst + 1024, 64, src, 48, 40, 5, cudaMemcpyDeviceToDevice, 0);
    cudaPitchedPtr pp = pitched(dst + 2048, 64, 40, 4);
    g_out[6] = cudaMemset3DAsync(pp, 0x3c, extent3(40, 4, 3), 0);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = pitched(src, 48, 48, 6);
    p.dstPtr = pitched(dst + 4096, 64, 64, 5);
    p.srcPos = pos3(2, 1, 0);
    p.dstPos = pos3(4, 0, 1);
    p.extent = extent3(30, 4, 2);
    p.kind = cudaMemcpyDeviceToDevice;
    g_out[7] = cudaMemcpy3DAsync(&p, 0);
    g_out[10] = cudaGetLastError();
}

__device__ void devfn(int *p) { *p = 1; }
extern "C" __global__ void api(int mode, unsigned char *src, unsigned char *dst)
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

extern "C" __global__ void bad_free(int mode, char *devp)
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

/* Nesting: each level launches the next into `how` (0 default, 1 tail, 2 fire and forget). */
extern "C" __global__ void nest(int depth, int max, int how)
{
    if (depth >= max)
        return;
    cudaStream_t s = how == 1 ? cudaStreamTailLaunch : how == 2 ? cudaStreamFireAndForget : (cudaStream_t)0;
    nest<<<1, 1, 0, s>>>(depth + 1, max, how);
    cudaError_t e = cudaGetLastError();
    if (depth < 2048) { /* levels past 2048 are not recorded */
        g[depth] = e;
        g[2048 + depth] = 1;
    }
}

/* Device memcpy/memset count as pending launches? */
extern "C" __global__ void many_copies(int count, int how, char *buf)
{
    cudaStream_t s = how == 1 ? cudaStreamTailLaunch : how == 2 ? cudaStreamFireAndForget : (cudaStream_t)0;
    for (int i = 0; i < count && i < 256; ++i)
        g[i] = cudaMemsetAsync(buf + i, i, 1, s);
    g[300] = cudaGetLastError();
}


/* A kernel that writes into the device runtime's error string: read-only memory. */
extern "C" __global__ void write_error_name(void)
{
    char *s = (char *)cudaGetErrorName(cudaErrorInvalidValue);
    g_out[0] = s[4];
    s[0] = 'x';
}
