// The second translation unit: a kernel of the same shape as unit a's, and a variable.
#include "check.h"
#include "multi.h"

__device__ int calls;

__global__ void add_value(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
    if (i == 0)
        calls = 7;
}

cudaError_t add_from_other_unit(int *p, int n, int v)
{
    add_value<<<(n + 31) / 32, 32>>>(p, n, v);
    return cudaGetLastError();
}

int read_other_unit_variable()
{
    int v = 0;
    CHECK(cudaMemcpyFromSymbol(&v, calls, sizeof v));
    return v;
}
