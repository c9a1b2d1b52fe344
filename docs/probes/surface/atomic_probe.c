/*
 * atomic_probe.c - NVIDIA's answers for the CUDA 13.0 atomic capability queries, for
 * cuPointerSetAttribute and for cuLibraryGetManaged of a name that is not a managed variable.
 * gcc -std=gnu11 atomic_probe.c -I/usr/local/cuda/include -lcuda
 */
#include <cuda.h>
#include <stdio.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

int main(void)
{
    CUcontext ctx;
    cuInit(0);
    cuCtxCreate(&ctx, NULL, 0, 0);
    CUatomicOperation ops[13];
    unsigned int caps[13];
    for (int i = 0; i < 13; ++i)
        ops[i] = (CUatomicOperation)i, caps[i] = 0xdead;
    CUresult r = cuDeviceGetHostAtomicCapabilities(caps, ops, 13, 0);
    printf("cuDeviceGetHostAtomicCapabilities -> %s:", rn(r));
    for (int i = 0; i < 13; ++i)
        printf(" %d:0x%x", i, caps[i]);
    printf("\n");
    for (int i = 0; i < 13; ++i)
        caps[i] = 0xdead;
    r = cuDeviceGetP2PAtomicCapabilities(caps, ops, 13, 0, 0);
    printf("cuDeviceGetP2PAtomicCapabilities(0, 0) -> %s: %x\n", rn(r), caps[0]);
    printf("cuDeviceGetP2PAtomicCapabilities(0, 1) -> %s\n", rn(cuDeviceGetP2PAtomicCapabilities(caps, ops, 13, 0, 1)));
    ops[0] = (CUatomicOperation)13;
    printf("host caps, op 13 -> %s\n", rn(cuDeviceGetHostAtomicCapabilities(caps, ops, 1, 0)));
    printf("host caps, count 0 -> %s\n", rn(cuDeviceGetHostAtomicCapabilities(caps, ops, 0, 0)));
    printf("host caps, NULL caps -> %s\n", rn(cuDeviceGetHostAtomicCapabilities(NULL, ops, 1, 0)));
    printf("host caps, dev 5 -> %s\n", rn(cuDeviceGetHostAtomicCapabilities(caps, ops, 1, 5)));
    CUdeviceptr d;
    cuMemAlloc(&d, 4096);
    int one = 1, zero = 0, got = 7;
    printf("cuPointerSetAttribute(SYNC_MEMOPS, 1) -> %s\n", rn(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d)));
    printf("cuPointerGetAttribute(SYNC_MEMOPS) -> %s %d\n", rn(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d)), got);
    printf("cuPointerSetAttribute(SYNC_MEMOPS, 0) -> %s\n", rn(cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d)));
    printf("cuPointerGetAttribute(SYNC_MEMOPS) -> %s %d\n", rn(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d)), got);
    printf("cuPointerSetAttribute(MEMORY_TYPE) -> %s\n", rn(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d)));
    printf("cuPointerSetAttribute(SYNC_MEMOPS, stack) -> %s\n", rn(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)&got)));
    printf("cuPointerSetAttribute(NULL value) -> %s\n", rn(cuPointerSetAttribute(NULL, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d)));
    static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .global .align 4 .u32 g;\n";
    CUlibrary lib;
    r = cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0);
    CUdeviceptr m = 0;
    size_t sz = 0;
    printf("cuLibraryLoadData -> %s; cuLibraryGetManaged(g) -> %s; (nothing) -> %s\n", rn(r),
           rn(cuLibraryGetManaged(&m, &sz, lib, "g")), rn(cuLibraryGetManaged(&m, &sz, lib, "nothing")));
    void *fp = NULL;
    printf("cuLibraryGetUnifiedFunction(g) -> %s\n", rn(cuLibraryGetUnifiedFunction(&fp, lib, "g")));
    return 0;
}
