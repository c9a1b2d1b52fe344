// A kernel in a static library: its registration comes with the object the program links.
#include "static_lib.h"

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

cudaError_t library_saxpy(float a, const float *x, float *y, int n, cudaStream_t stream)
{
    saxpy<<<(n + 255) / 256, 256, 0, stream>>>(a, x, y, n);
    return cudaGetLastError();
}
