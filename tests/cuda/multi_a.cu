// Two translation units, each with its own kernels and device code: this one has main.
#include "check.h"
#include "multi.h"

__device__ int twice(int v) { return 2 * v; }

__global__ void double_all(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = twice(p[i]);
}

int main()
{
    const int n = 64;
    int h[n];
    for (int i = 0; i < n; ++i)
        h[i] = i;
    int *p;
    CHECK(cudaMalloc(&p, sizeof h));
    CHECK(cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice));
    double_all<<<1, n>>>(p, n);
    CHECK(add_from_other_unit(p, n, 5));
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("unit a doubled, unit b added: %d %d %d\n", h[0], h[1], h[63]);
    std::printf("unit b's variable: %d\n", read_other_unit_variable());
    CHECK(cudaFree(p));
    return 0;
}
