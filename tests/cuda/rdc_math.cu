// The unit that defines scale(), rdc_calls and rdc_table, and has a kernel of its own that calls
// into the library unit.
#include "check.h"
#include "rdc.h"

__device__ int rdc_calls;
__device__ float rdc_table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

static __device__ int unit_local(int v) { return v + 2000; }

__device__ int scale(int v) { return unit_local(v) - 2000 + v * 9; }

__global__ void math_kernel(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = scale(i) * 2 + lib_offset(0) + shared_inline(1);
    if (i == 5)
        printf("math unit: thread %d, unit_local(1) = %d\n", i, unit_local(1));
}

cudaError_t math_unit_kernel(int *out, int n)
{
    math_kernel<<<(n + 31) / 32, 32>>>(out, n);
    return cudaGetLastError();
}
