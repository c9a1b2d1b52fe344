// heap_probe.cu: what the H100 does with the device heap, beyond device_heap.cu.
// nvcc -cudart shared -arch=sm_90 heap_probe.cu -o heap_probe; ./heap_probe MODE
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda.h>
__global__ void zero(unsigned long long *r)
{
    void *p = malloc(0), *q = malloc(1), *s = malloc(1);
    r[0] = (unsigned long long)(uintptr_t)p;
    r[1] = (uintptr_t)q % 16;
    r[2] = (uintptr_t)s - (uintptr_t)q;
    unsigned n = 0;
    while (malloc(16))
        ++n;
    r[3] = n;
    unsigned long long lo = ~0ull, hi = 0;
    r[4] = lo; r[5] = hi;
}
__global__ void dfree(int mode, int *devp)
{
    void *p = malloc(64);
    if (mode == 1) { free(p); free(p); }
    if (mode == 2) free((char *)p + 16);
    if (mode == 3) free(devp);
    if (mode == 4) { int x; free(&x); }
    if (mode == 5) free((void *)0x1000);
}
__global__ void addr(unsigned long long *r) { void *p = malloc(64); r[0] = (uintptr_t)p; free(p); }
int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    size_t v;
    if (mode == 0) {
        cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize); printf("default %zu\n", v);
        cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1000); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set 1000: %s -> %zu\n", cudaGetErrorName(e), v);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 0); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set 0: %s -> %zu\n", cudaGetErrorName(e), v);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, (1ull << 20) + 1); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set 1MiB+1: %s -> %zu\n", cudaGetErrorName(e), v);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1ull << 50); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set 2^50: %s -> %zu\n", cudaGetErrorName(e), v);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set 1MiB: %s -> %zu\n", cudaGetErrorName(e), v);
        unsigned long long *r; cudaMallocManaged(&r, 64);
        zero<<<1, 1>>>(r); e = cudaDeviceSynchronize();
        printf("zero: %s malloc(0)=%s q%%16=%llu s-q=%llu n16=%llu\n", cudaGetErrorName(e), r[0] ? "nonNULL" : "NULL", r[1], r[2], r[3]);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
        printf("set after use: %s -> %zu\n", cudaGetErrorName(e), v);
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
        printf("set same after use: %s\n", cudaGetErrorName(e));
        CUresult cr = cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 4 << 20);
        printf("cuCtxSetLimit after use: %d\n", (int)cr);
        addr<<<1, 1>>>(r); cudaDeviceSynchronize();
        void *d; cudaMalloc(&d, 1 << 20);
        cudaPointerAttributes pa; e = cudaPointerGetAttributes(&pa, (void *)r[0]);
        printf("heap ptr attributes: %s type %d (cudaMalloc ptr %p, heap ptr %llx)\n", cudaGetErrorName(e), (int)pa.type, d, r[0]);
        return 0;
    }
    // modes 1..5: bad frees
    if (mode == 6) {
        // Launch that uses the heap before any limit set, then set the limit: does the first launch without malloc lock it?
        unsigned long long *r; cudaMallocManaged(&r, 64);
        addr<<<1,1>>>(r); cudaDeviceSynchronize();
        cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20);
        printf("set after a malloc launch: %s\n", cudaGetErrorName(e));
        return 0;
    }
    if (mode == 7) {
        cudaFree(0);
        cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20);
        printf("set after context creation: %s\n", cudaGetErrorName(e));
        int *dd; cudaMalloc(&dd, 4);
        dfree<<<1, 1>>>(0, dd); e = cudaDeviceSynchronize();
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 3 << 20);
        printf("set after a launch of a kernel with malloc: %s\n", cudaGetErrorName(e));
        return 0;
    }
    int *d; cudaMalloc(&d, 256);
    dfree<<<1, 1>>>(mode, d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("mode %d: sync %s", mode, cudaGetErrorName(e));
    e = cudaGetLastError(); printf(", last %s", cudaGetErrorName(e));
    void *m; e = cudaMalloc(&m, 16); printf(", malloc after %s\n", cudaGetErrorName(e));
    return 0;
}
