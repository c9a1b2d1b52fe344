// Managed memory: cudaMallocManaged written by a kernel and read by the host without a copy,
// prefetches and advice, and a __managed__ variable.
#include "check.h"

#if defined(__clang__) && !defined(__NVCC__)
// clang (to 17 at least) ignores __managed__ when compiling CUDA: the counter is a __device__
// variable there, which the host reads through the runtime.
__device__ int hits;
static int read_hits()
{
    int v = -1;
    CHECK(cudaMemcpyFromSymbol(&v, hits, sizeof v));
    return v;
}
static void reset_hits()
{
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
}
#else
__managed__ int hits;
static int read_hits() { return hits; }
static void reset_hits() { hits = 0; }
#endif

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] = 2 * i;
        atomicAdd(&hits, 1);
    }
}

int main()
{
    const int n = 1000;
    int *p = nullptr;
    CHECK(cudaMallocManaged(&p, n * sizeof(int)));
    for (int i = 0; i < n; ++i)
        p[i] = -1;
    reset_hits();

    cudaMemLocation device = {};
    device.type = cudaMemLocationTypeDevice;
    device.id = 0;
    CHECK(cudaMemAdvise(p, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device));
    CHECK(cudaMemPrefetchAsync(p, n * sizeof(int), device, 0, 0));
    fill<<<(n + 255) / 256, 256>>>(p, n);
    CHECK(cudaDeviceSynchronize());

    long long sum = 0;
    for (int i = 0; i < n; ++i)
        sum += p[i];
    std::printf("managed array sum: %lld\n", sum);
    std::printf("managed variable: %d\n", read_hits());

    CHECK(cudaFree(p));
    CHECK(cudaMallocManaged(&p, 0)); // success and NULL, as cudaMalloc
    REQUIRE(p == nullptr);
    return 0;
}
