// The device heap: malloc, free, new and delete in kernels, sized by cudaLimitMallocHeapSize;
// NULL when it is exhausted; the limit fixed once kernels have used it. (A free of a pointer the
// heap did not give is tests/link_test.cpp's: the GPU answers it differently from run to run,
// docs/driver-observations.md.)
#include <cstdint>
#include "check.h"

__global__ void many_blocks(unsigned long long *sum, unsigned *nulls, unsigned *misaligned)
{
    int n = 16 + (threadIdx.x % 8);
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        atomicAdd(nulls, 1);
        return;
    }
    if ((uintptr_t)p % 16)
        atomicAdd(misaligned, 1);
    for (int i = 0; i < n; ++i)
        p[i] = blockIdx.x * 1000 + threadIdx.x + i;
    unsigned long long s = 0;
    for (int i = 0; i < n; ++i)
        s += p[i];
    free(p);
    atomicAdd(sum, s);
}

__global__ void keep(int **table)
{
    // One allocation per block, kept across launches.
    if (threadIdx.x == 0) {
        int *p = (int *)malloc(256 * sizeof(int));
        for (int i = 0; p && i < 256; ++i)
            p[i] = blockIdx.x + i;
        table[blockIdx.x] = p;
    }
}

__global__ void use_and_release(int **table, unsigned long long *sum)
{
    int *p = table[blockIdx.x];
    if (p == nullptr)
        return;
    atomicAdd(sum, (unsigned long long)p[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
        free(p);
}

__global__ void exhaust(size_t big, unsigned *results)
{
    void *p = malloc(big);
    results[0] = p == nullptr;
    results[3] = (unsigned)(uintptr_t)p; /* a use: clang drops a malloc only compared with NULL */
    // Fill with 64 KiB blocks, then release them all and allocate again.
    void *held[128];
    unsigned count = 0;
    while (count < 128 && (held[count] = malloc(64 * 1024)) != nullptr)
        ++count;
    results[1] = count;
    for (unsigned i = 0; i < count; ++i)
        free(held[i]);
    void *again = malloc(1024 * 1024);
    results[2] = again != nullptr;
    free(again);
    free(nullptr); // a no-op, as in C
}

struct Point {
    int x, y;
    __device__ Point(int a) : x(a), y(2 * a) {}
    __device__ ~Point() {}
};

__global__ void with_new(int *out)
{
    int *a = new int[32];
    for (int i = 0; i < 32; ++i)
        a[i] = i * threadIdx.x;
    Point *pt = new Point(threadIdx.x);
    out[threadIdx.x] = a[31] + pt->y;
    delete pt;
    delete[] a;
}

int main()
{
    size_t limit = 0;
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    std::printf("default heap size: %zu\n", limit);
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    std::printf("heap size set to 4 MiB: %zu\n", limit);

    unsigned long long *sum;
    unsigned *counts;
    CHECK(cudaMallocManaged(&sum, sizeof *sum));
    CHECK(cudaMallocManaged(&counts, 4 * sizeof *counts));
    *sum = 0;
    counts[0] = counts[1] = 0;
    many_blocks<<<64, 128>>>(sum, &counts[0], &counts[1]);
    CHECK(cudaDeviceSynchronize());
    std::printf("many blocks: sum %llu, NULL %u, not 16-byte aligned %u\n", *sum, counts[0], counts[1]);

    int **table;
    CHECK(cudaMalloc(&table, 16 * sizeof *table));
    keep<<<16, 32>>>(table);
    CHECK(cudaDeviceSynchronize());
    *sum = 0;
    use_and_release<<<16, 256>>>(table, sum);
    CHECK(cudaDeviceSynchronize());
    std::printf("kept across launches: sum %llu\n", *sum);

    unsigned *results;
    CHECK(cudaMallocManaged(&results, 4 * sizeof *results));
    exhaust<<<1, 1>>>(8 << 20, results);
    CHECK(cudaDeviceSynchronize());
    std::printf("8 MiB from a 4 MiB heap: %s\n", results[0] ? "NULL" : "not NULL");
    std::printf("64 KiB blocks before NULL: %s\n", results[1] >= 32 && results[1] < 64 ? "32 to 63" : "other");
    std::printf("1 MiB after freeing them: %s\n", results[2] ? "allocated" : "NULL");

    int *out;
    CHECK(cudaMallocManaged(&out, 64 * sizeof *out));
    with_new<<<1, 64>>>(out);
    CHECK(cudaDeviceSynchronize());
    std::printf("new and delete: %d %d %d\n", out[0], out[1], out[63]);

    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
    std::printf("changing the heap size after use: %s\n", cudaGetErrorName(e));
    CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
    std::printf("heap size now: %zu\n", limit);

    return 0;
}
