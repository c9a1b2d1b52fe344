// Kernel attributes and occupancy: cudaFuncGetAttributes, cudaFuncSetAttribute,
// cudaFuncSetCacheConfig, cudaOccupancyMaxActiveBlocksPerMultiprocessor and the
// cudaOccupancyMaxPotentialBlockSize template, whose block size is then launched.
#include "check.h"

__global__ void __launch_bounds__(256) bounded(float *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void with_shared(float *p)
{
    __shared__ float buffer[1024];
    buffer[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    p[blockIdx.x * blockDim.x + threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, bounded));
    std::printf("bounded: max threads per block %d\n", attr.maxThreadsPerBlock);
    CHECK(cudaFuncGetAttributes(&attr, with_shared));
    std::printf("with_shared: static shared memory %zu bytes\n", attr.sharedSizeBytes);

    CHECK(cudaFuncSetAttribute(with_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
    CHECK(cudaFuncGetAttributes(&attr, with_shared));
    std::printf("with_shared: max dynamic shared memory %d bytes\n", attr.maxDynamicSharedSizeBytes);
    CHECK(cudaFuncSetCacheConfig(with_shared, cudaFuncCachePreferShared));

    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 128, 0));
    REQUIRE(blocks > 0);

    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
    REQUIRE(block > 0 && block <= 256 && block % 32 == 0);
    REQUIRE(min_grid > 0);
    float *p;
    CHECK(cudaMalloc(&p, (size_t)block * 4 * sizeof(float)));
    bounded<<<4, block>>>(p);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("potential block size fits the bound and launches\n");

    bounded<<<1, 512>>>(p);
    std::printf("block above the bound: %s\n", cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaFree(p));
    return 0;
}
