/*
 * runtime_probe.cu - NVIDIA's runtime answers for the whole-surface issue (22): entry points
 * through cudaGetDriverEntryPoint(ByVersion), the profiler, host registration, pitched
 * allocations, stream priorities, managed attach, function queries.
 * nvcc -arch=sm_90 -cudart shared runtime_probe.cu
 */
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define P(call) do { cudaError_t e_ = (call); printf("%-72s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)
#define PV(call, fmt, ...) do { cudaError_t e_ = (call); printf("%-72s -> %s " fmt "\n", #call, cudaGetErrorName(e_), __VA_ARGS__); } while (0)

__global__ void k(int *p, int v) { p[threadIdx.x] += v; }

int main()
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    void *fn = (void *)1;
    cudaDriverEntryPointQueryResult q = (cudaDriverEntryPointQueryResult)77;
    PV(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, &q), "q=%d %s", (int)q, fn ? "set" : "NULL");
    fn = (void *)1;
    PV(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 12000, cudaEnableDefault, &q), "q=%d %s", (int)q, fn == (void *)1 ? "untouched" : fn ? "set" : "NULL");
    P(cudaGetLastError());
    fn = (void *)1;
    PV(cudaGetDriverEntryPointByVersion("cuMemCreate", &fn, 10000, cudaEnableDefault, &q), "q=%d %s", (int)q, fn == (void *)1 ? "untouched" : fn ? "set" : "NULL");
    PV(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 99999, cudaEnableDefault, &q), "q=%d", (int)q);
    PV(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, 99, &q), "q=%d", (int)q);
    P(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 12000, cudaEnableDefault, NULL));
    P(cudaGetLastError());
    P(cudaInitDevice(0, 0, 0));
    P(cudaInitDevice(0, 1, 0));
    P(cudaInitDevice(5, 0, 0));
    P(cudaProfilerStart());
    P(cudaProfilerStop());
    int lo = 9, hi = 9;
    PV(cudaDeviceGetStreamPriorityRange(&lo, &hi), "%d %d", lo, hi);
    P(cudaCtxResetPersistingL2Cache());
    static char buf[1 << 16];
    char *h = (char *)(((size_t)buf + 4095) & ~(size_t)4095);
    P(cudaHostRegister(h, 8192, cudaHostRegisterDefault));
    P(cudaHostRegister(h, 8192, cudaHostRegisterDefault));
    P(cudaGetLastError());
    P(cudaHostRegister(h + 16384, 4096, 0x100));
    unsigned int fl = 9;
    PV(cudaHostGetFlags(&fl, h), "%u", fl);
    PV(cudaHostGetFlags(&fl, h + 20000), "unregistered %u", fl);
    void *dp = NULL;
    PV(cudaHostGetDevicePointer(&dp, h + 10, 0), "%s", dp == h + 10 ? "same" : "other");
    int *d;
    cudaMalloc(&d, 4096);
    cudaMemset(d, 0, 4096);
    k<<<1, 32>>>((int *)h, 3);
    P(cudaDeviceSynchronize());
    printf("  kernel on registered memory: %d\n", ((int *)h)[5]);
    P(cudaHostUnregister(h));
    P(cudaHostUnregister(h));
    size_t pitch = 0;
    void *pp;
    PV(cudaMallocPitch(&pp, &pitch, 100, 10), "pitch=%zu", pitch);
    PV(cudaMallocPitch(&pp, &pitch, 513, 10), "pitch=%zu", pitch);
    PV(cudaMallocPitch(&pp, &pitch, 0, 10), "pitch=%zu", pitch);
    cudaPitchedPtr p3;
    PV(cudaMalloc3D(&p3, make_cudaExtent(100, 4, 3)), "pitch=%zu xsize=%zu ysize=%zu", p3.pitch, p3.xsize, p3.ysize);
    cudaStream_t s;
    cudaStreamCreate(&s);
    int *m;
    cudaMallocManaged(&m, 4096);
    P(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
    P(cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachSingle));
    const char *name = NULL;
    PV(cudaFuncGetName(&name, (const void *)k), "%s", name ? name : "NULL");
    size_t off = 0, sz = 0;
    PV(cudaFuncGetParamInfo((const void *)k, 1, &off, &sz), "off=%zu size=%zu", off, sz);
    cudaFunction_t f;
    P(cudaGetFuncBySymbol(&f, (const void *)k));
    cudaKernel_t kk;
    P(cudaGetKernel(&kk, (const void *)k));
    cudaEvent_t ev;
    cudaEventCreate(&ev);
    P(cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal));
    P(cudaEventRecordWithFlags(ev, s, 7));
    int peer = 9;
    PV(cudaDeviceCanAccessPeer(&peer, 0, 0), "%d", peer);
    P(cudaDeviceEnablePeerAccess(0, 0));
    P(cudaMemcpyPeerAsync(d, 0, d + 100, 0, 16, s));
    P(cudaMemcpyPeer(d, 0, d + 100, 0, 16));
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
    printf("cudaCreateChannelDesc %d %d %d %d %d\n", cd.x, cd.y, cd.z, cd.w, (int)cd.f);
    cudaMemPool_t mp;
    P(cudaDeviceGetMemPool(&mp, 0));
    int att = 9;
    PV(cudaDeviceGetAttribute(&att, cudaDevAttrMemoryPoolsSupported, 0), "%d", att);
    PV(cudaDeviceGetAttribute(&att, cudaDevAttrMemoryPoolSupportedHandleTypes, 0), "%d", att);
    PV(cudaDeviceGetAttribute(&att, cudaDevAttrManagedMemory, 0), "%d", att);
    PV(cudaDeviceGetAttribute(&att, cudaDevAttrConcurrentManagedAccess, 0), "%d", att);
    PV(cudaDeviceGetAttribute(&att, cudaDevAttrPageableMemoryAccess, 0), "%d", att);
    P(cudaDeviceReset());
    return 0;
}
