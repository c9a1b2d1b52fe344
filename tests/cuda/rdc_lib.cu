// Device code in a static library (nvcc -rdc=true -lib; clang -fgpu-rdc into an archive).
#include "check.h"
#include "rdc.h"

__device__ int lib_hits;

__device__ int lib_offset(int v) { return v + 7; }

__global__ void lib_kernel(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lib_offset(i) + scale(1) + rdc_calls;
}

cudaError_t library_kernel(int *out, int n)
{
    lib_kernel<<<(n + 31) / 32, 32>>>(out, n);
    return cudaGetLastError();
}
