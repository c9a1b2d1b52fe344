/*
 * managed_probe.c - NVIDIA's answers for managed ranges (cuMemRangeGetAttribute(s) after
 * advice and prefetches, cuStreamAttachMemAsync) and for cudaPointerGetAttributes of each kind
 * of memory (through the runtime, linked dynamically).
 * gcc -std=gnu11 managed_probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcuda -lcudart
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}
#define P(call) printf("%-90s -> %s\n", #call, rn(call))

static void attrs(const char *when, CUdeviceptr p, size_t n)
{
    int v[8];
    for (int a = 1; a <= 8; ++a) {
        memset(v, 0x55, sizeof v);
        CUresult r = cuMemRangeGetAttribute(v, a == 3 ? 8 : 4, (CUmem_range_attribute)a, p, n);
        printf("%s: attr %d (%zu bytes) -> %s %d%s\n", when, a, n, rn(r), v[0], a == 3 ? " (ACCESSED_BY, 2 ints)" : "");
    }
}

static void ptr(const char *what, const void *p)
{
    struct cudaPointerAttributes a;
    memset(&a, 0x55, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    printf("cudaPointerGetAttributes(%s) -> %s type=%d device=%d devicePointer=%s hostPointer=%s\n", what,
           cudaGetErrorName(e), (int)a.type, a.device,
           a.devicePointer == p ? "p" : a.devicePointer ? "other" : "NULL",
           a.hostPointer == p ? "p" : a.hostPointer ? "other" : "NULL");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUcontext ctx;
    cuInit(0);
    cuDevicePrimaryCtxRetain(&ctx, 0);
    cuCtxSetCurrent(ctx);
    CUdeviceptr m, d;
    P(cuMemAllocManaged(&m, 1 << 20, CU_MEM_ATTACH_GLOBAL));
    cuMemAlloc(&d, 1 << 20);
    attrs("fresh", m, 4096);
    CUmemLocation dev0 = {CU_MEM_LOCATION_TYPE_DEVICE, 0}, host = {CU_MEM_LOCATION_TYPE_HOST, 0};
    P(cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dev0));
    P(cuMemAdvise(m + 65536, 65536, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
    P(cuMemAdvise(m + 131072, 65536, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
    P(cuMemAdvise(m, 65536, CU_MEM_ADVISE_SET_ACCESSED_BY, dev0));
    attrs("after advice, first page", m, 4096);
    attrs("after advice, two pages (one read-mostly)", m, 8192);
    attrs("preferred device range", m + 65536, 65536);
    attrs("preferred device + host ranges", m + 65536, 131072);
    P(cuMemPrefetchAsync(m + 262144, 65536, dev0, 0, NULL));
    cuCtxSynchronize();
    attrs("prefetched to device", m + 262144, 65536);
    P(cuMemPrefetchAsync(m + 262144, 4096, host, 0, NULL));
    cuCtxSynchronize();
    attrs("then first page to host", m + 262144, 65536);
    int v[4];
    P(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, d, 4096));
    P(cuMemRangeGetAttribute(v, 3, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
    P(cuMemRangeGetAttribute(v, 8, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
    P(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
    P(cuMemRangeGetAttribute(v, 4, (CUmem_range_attribute)99, m, 4096));
    P(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + 1, 4096));
    P(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m + (1 << 20) - 4096, 8192));
    P(cuMemRangeGetAttribute(v, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 4096));
    P(cuMemRangeGetAttribute(NULL, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
    CUmem_range_attribute as[2] = {CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION};
    int r0 = 9, r1 = 9;
    void *data[2] = {&r0, &r1};
    size_t sizes[2] = {4, 4};
    CUresult r = cuMemRangeGetAttributes(data, sizes, as, 2, m, 4096);
    printf("cuMemRangeGetAttributes(2) -> %s %d %d\n", rn(r), r0, r1);
    CUstream st;
    cuStreamCreate(&st, 0);
    P(cuStreamAttachMemAsync(st, m, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m, 4096, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m + 4096, 0, CU_MEM_ATTACH_HOST));
    P(cuStreamAttachMemAsync(st, d, 0, CU_MEM_ATTACH_SINGLE));
    P(cuStreamAttachMemAsync(st, m, 0, 7));
    /* flags 0 crashed NVIDIA's driver 580 (probe3.out): left out */
    P(cuStreamSynchronize(st));

    void *hm = malloc(4096), *ph = NULL, *rm = NULL;
    cudaMallocHost(&ph, 4096);
    rm = aligned_alloc(4096, 8192);
    cudaHostRegister(rm, 8192, 0);
    int local = 0;
    ptr("device", (void *)d);
    ptr("device+16", (void *)(d + 16));
    ptr("managed", (void *)m);
    ptr("cudaMallocHost", ph);
    ptr("registered", rm);
    ptr("malloc", hm);
    ptr("stack", &local);
    ptr("NULL", NULL);
    ptr("0x10", (void *)0x10);
    struct cudaPointerAttributes a;
    printf("cudaPointerGetAttributes(NULL attributes) -> %s\n", cudaGetErrorName(cudaPointerGetAttributes(NULL, ph)));
    cuMemFree(d);
    ptr("freed device", (void *)d);
    (void)a;
    return 0;
}
