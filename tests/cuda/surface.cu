// The runtime calls of the whole-surface issue (22) as a CUDA program uses them: pitched 2D
// copies and sets, host memory registered and written by a kernel, stream priorities and
// attributes, pointer attributes, driver entry points, peer queries on one device. The
// expected output is what NVIDIA's runtime printed on an H200, driver 580.159.04, CUDA 13.0
// (surface.expected: nvcc -arch=sm_90 -cudart shared surface.cu, run there).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check.h"

__global__ void fill_rows(char *base, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < width && y < height)
        base[y * pitch + x] = (char)(x + 3 * y);
}

__global__ void add_to(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

static const char *name(cudaError_t e) { return cudaGetErrorName(e); }

int main()
{
    // Pitched memory: the pitch, a kernel over rows, a 2D copy out and a 2D set.
    const int width = 100, height = 7;
    char *d = nullptr;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d, &pitch, width, height));
    printf("pitch for %d bytes: %zu\n", width, pitch);
    fill_rows<<<dim3(1, height), 128>>>(d, pitch, width, height);
    CHECK(cudaGetLastError());
    char host[height][width];
    CHECK(cudaMemcpy2D(host, width, d, pitch, width, height, cudaMemcpyDeviceToHost));
    printf("row 0: %d %d, row 6: %d %d\n", host[0][0], host[0][99], host[6][0], host[6][99]);
    CHECK(cudaMemset2D(d + pitch, pitch, 0x7f, 10, 2));
    CHECK(cudaMemcpy2D(host, width, d, pitch, width, height, cudaMemcpyDeviceToHost));
    printf("after memset2D: %d %d %d %d\n", host[0][0], host[1][0], host[2][9], host[2][10]);
    printf("cudaMemcpy2D with a pitch below the width: %s\n",
           name(cudaMemcpy2D(host, width, d, 50, width, height, cudaMemcpyDeviceToHost)));
    cudaGetLastError();
    CHECK(cudaFree(d));

    // Host memory registered, then written by a kernel through the same address.
    static int registered[1024] __attribute__((aligned(4096)));
    for (int i = 0; i < 1024; ++i)
        registered[i] = i;
    CHECK(cudaHostRegister(registered, sizeof registered, cudaHostRegisterDefault));
    unsigned int flags = 0;
    CHECK(cudaHostGetFlags(&flags, registered));
    void *dev_view = nullptr;
    CHECK(cudaHostGetDevicePointer(&dev_view, registered, 0));
    printf("registered: flags %u, device pointer %s\n", flags, dev_view == (void *)registered ? "the same" : "other");
    add_to<<<4, 256>>>((int *)dev_view, 1024, 1000);
    CHECK(cudaDeviceSynchronize());
    printf("kernel wrote registered memory: %d %d\n", registered[0], registered[1023]);
    printf("register twice: %s\n", name(cudaHostRegister(registered, sizeof registered, 0)));
    cudaGetLastError();
    CHECK(cudaHostUnregister(registered));
    printf("unregister twice: %s\n", name(cudaHostUnregister(registered)));
    cudaGetLastError();

    // Streams: priorities clamped into the range, attributes, capture status.
    int least = 9, greatest = 9;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("priority range: least %d greatest %d\n", least, greatest);
    cudaStream_t hi, lo;
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest - 10));
    CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least + 10));
    int ph = 9, pl = 9;
    CHECK(cudaStreamGetPriority(hi, &ph));
    CHECK(cudaStreamGetPriority(lo, &pl));
    printf("stream priorities: %d %d\n", ph, pl);
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = cudaSyncPolicyYield;
    CHECK(cudaStreamSetAttribute(hi, cudaStreamAttributeSynchronizationPolicy, &v));
    memset(&v, 0, sizeof v);
    CHECK(cudaStreamGetAttribute(hi, cudaStreamAttributeSynchronizationPolicy, &v));
    printf("sync policy: %d\n", (int)v.syncPolicy);
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusActive;
    CHECK(cudaStreamIsCapturing(hi, &cs));
    printf("capturing: %d\n", (int)cs);
    CHECK(cudaStreamDestroy(hi));
    CHECK(cudaStreamDestroy(lo));

    // Pointer attributes of each kind of memory.
    void *dm = nullptr, *hm = nullptr;
    CHECK(cudaMalloc(&dm, 256));
    CHECK(cudaMallocHost(&hm, 256));
    int local = 0;
    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, dm));
    printf("device memory: type %d device %d host pointer %s\n", (int)a.type, a.device, a.hostPointer ? "set" : "NULL");
    CHECK(cudaPointerGetAttributes(&a, hm));
    printf("pinned memory: type %d device pointer %s\n", (int)a.type, a.devicePointer == hm ? "the same" : "other");
    CHECK(cudaPointerGetAttributes(&a, &local));
    printf("stack memory: type %d device %d\n", (int)a.type, a.device);
    CHECK(cudaFree(dm));
    CHECK(cudaFreeHost(hm));

    // The driver's entry points through the runtime.
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &q));
    printf("cuMemAlloc: %s, status %d\n", fn ? "found" : "NULL", (int)q);
    CHECK(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000, cudaEnableDefault, &q));
    printf("cuNoSuchFunction: %s, status %d\n", fn ? "found" : "NULL", (int)q);

    // One device: no peer.
    int peer = 9;
    CHECK(cudaDeviceCanAccessPeer(&peer, 0, 0));
    printf("peer access to itself: %d; enable: %s\n", peer, name(cudaDeviceEnablePeerAccess(0, 0)));
    cudaGetLastError();
    printf("done\n");
    return 0;
}
