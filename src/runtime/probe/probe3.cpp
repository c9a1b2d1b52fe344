#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>
#define P(expr) do { cudaError_t r_ = (expr); printf("%-70s -> %d %s\n", #expr, (int)r_, cudaGetErrorName(r_)); cudaGetLastError(); } while (0)
int main() {
    setvbuf(stdout, NULL, _IONBF, 0);
    cudaEvent_t e; cudaEventCreate(&e); cudaStream_t s; cudaStreamCreate(&s);
    P(cudaEventElapsedTime(NULL, NULL, NULL));
    P(cudaEventElapsedTime(NULL, e, e));
    P(cudaStreamWaitEvent(s, NULL, 2));
    P(cudaStreamWaitEvent(s, e, 0));
    P(cudaStreamWaitEvent(NULL, e, 0));
    P(cudaEventRecord(e, NULL)); P(cudaEventRecord(e, cudaStreamPerThread));
    void *p1, *p2; cudaMallocHost(&p1, 64); cudaMallocHost(&p2, 64);
    P(cudaMemcpy(p1, p2, 64, cudaMemcpyDeviceToDevice));
    void *pm; P(cudaHostAlloc(&pm, 64, cudaHostAllocMapped)); void *dp; P(cudaHostGetDevicePointer(&dp, pm, 0));
    P(cudaHostGetDevicePointer(&dp, (char*)pm + 64, 0));
    P(cudaHostGetDevicePointer(&dp, (char*)pm + 4096, 0));
    void *d; cudaMalloc(&d, 100);
    P(cudaMemcpy((char*)d + 100, p1, 1, cudaMemcpyHostToDevice));
    P(cudaMemcpy((char*)d + 99, p1, 1, cudaMemcpyHostToDevice));
    P(cudaMemcpy((char*)d + 99, p1, 2, cudaMemcpyHostToDevice));
    P(cudaMemset((char*)d + 99, 0, 2));
    P(cudaMemsetAsync(d, 0, 100, cudaStreamPerThread));
    P(cudaMemcpyAsync(d, p1, 1, cudaMemcpyDefault, cudaStreamPerThread));
    P(cudaMemcpyAsync(d, p1, 1, cudaMemcpyDefault, cudaStreamLegacy));
    P(cudaLaunchHostFunc(cudaStreamPerThread, NULL, NULL));
    size_t f, t; cudaMemGetInfo(&f, &t); printf("free<=total %d\n", f <= t);
    int v; P(cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0));
    P(cudaSetDevice(0)); P(cudaDeviceReset()); P(cudaGetLastError());
    printf("name(-5)=%s str(-5)=%s\n", cudaGetErrorName((cudaError_t)-5), cudaGetErrorString((cudaError_t)-5));
    return 0;
}
