// __constant__ and __device__ variables: initial values, cudaMemcpyToSymbol / FromSymbol
// (and their Async forms), cudaGetSymbolAddress / Size, and a pointer that is no variable.
#include "check.h"

__constant__ float coeffs[4];
__device__ int counter = 40;
__device__ double table[3] = {1.5, 2.5, 3.5};

__global__ void use(float *out)
{
    int i = threadIdx.x;
    out[i] = coeffs[i] * (float)table[i % 3];
    if (i == 0)
        counter += 2;
}

int main()
{
    int start = 0;
    CHECK(cudaMemcpyFromSymbol(&start, counter, sizeof start));
    std::printf("initial counter: %d\n", start);

    float c[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
    float two = 20.0f;
    CHECK(cudaMemcpyToSymbol(coeffs, &two, sizeof two, 3 * sizeof(float))); // at an offset

    float *out;
    CHECK(cudaMalloc(&out, 4 * sizeof(float)));
    use<<<1, 4>>>(out);
    float h[4];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("constant times device table: %.1f %.1f %.1f %.1f\n", h[0], h[1], h[2], h[3]);

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int after = 0;
    CHECK(cudaMemcpyFromSymbolAsync(&after, counter, sizeof after, 0, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    std::printf("counter after the kernel: %d\n", after);

    void *address = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&address, table));
    CHECK(cudaGetSymbolSize(&size, table));
    double direct[3];
    CHECK(cudaMemcpy(direct, address, sizeof direct, cudaMemcpyDeviceToHost));
    std::printf("table: %zu bytes, through its address: %.1f %.1f %.1f\n", size, direct[0], direct[1], direct[2]);

    EXPECT_ERR(cudaErrorInvalidValue, cudaMemcpyToSymbol(coeffs, c, sizeof c, sizeof(float)));
    static int plain_host_variable;
    EXPECT_ERR(cudaErrorInvalidSymbol, cudaMemcpyToSymbol(plain_host_variable, c, sizeof(int)));
    std::printf("errors: as documented\n");

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(out));
    return 0;
}
