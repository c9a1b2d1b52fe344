// Relocatable device code: this unit's kernel calls device functions of two other units (one in
// a static library) and updates their variables; it has main.
#include "check.h"
#include "rdc.h"

// The same name as a static in rdc_math.cu: internal to each unit.
static __device__ int unit_local(int v) { return v + 1000; }

__global__ void combine(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = scale(i) + lib_offset(i) + shared_inline(i) + unit_local(0) + (int)rdc_table[i % 4];
        atomicAdd(&rdc_calls, 1);
        atomicAdd(&lib_hits, 2);
    }
    if (i == 0)
        printf("main unit: scale(3) = %d, lib_offset(3) = %d\n", scale(3), lib_offset(3));
}

int main()
{
    const int n = 64;
    int *d, h[n];
    CHECK(cudaMalloc(&d, sizeof h));
    combine<<<2, 32>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("combine: %d %d %d %d\n", h[0], h[1], h[31], h[63]);
    CHECK(math_unit_kernel(d, n));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("math unit: %d %d %d\n", h[0], h[5], h[63]);
    CHECK(library_kernel(d, n));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("library: %d %d %d\n", h[0], h[5], h[63]);
    int calls = 0, hits = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, rdc_calls, sizeof calls));
    CHECK(cudaMemcpyFromSymbol(&hits, lib_hits, sizeof hits));
    std::printf("rdc_calls = %d, lib_hits = %d\n", calls, hits);
    float table[4] = {10, 20, 30, 40};
    CHECK(cudaMemcpyToSymbol(rdc_table, table, sizeof table));
    combine<<<2, 32>>>(d, n);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("after the table changed: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    CHECK(cudaFree(d));
    return 0;
}
