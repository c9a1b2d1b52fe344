/*
 * app.cu: a small CUDA runtime program, built twice for the extmem-run tests: by clang through
 * extmem_add_cuda_executable (linked with libextmem) and by nvcc -cudart shared (loading
 * libcudart.so.13 by name). It sums 0..N-1 with a kernel and atomics and prints the device and
 * the sum; exit status 0 when the sum is right.
 */
#include <cstdio>

#include <cuda_runtime.h>

__global__ void sum(const unsigned *in, unsigned n, unsigned long long *out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, static_cast<unsigned long long>(in[i]));
}

static int failed(const char *call, cudaError_t e)
{
    std::printf("%s failed: %s\n", call, cudaGetErrorName(e));
    return 1;
}

int main()
{
    const unsigned n = 10000;
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, 0);
    if (e != cudaSuccess)
        return failed("cudaGetDeviceProperties", e);
    std::printf("device: %s\n", prop.name);
    unsigned *in = nullptr;
    unsigned long long *out = nullptr;
    if ((e = cudaMallocManaged(&in, n * sizeof(unsigned))) != cudaSuccess)
        return failed("cudaMallocManaged", e);
    if ((e = cudaMallocManaged(&out, sizeof(unsigned long long))) != cudaSuccess)
        return failed("cudaMallocManaged", e);
    for (unsigned i = 0; i < n; ++i)
        in[i] = i;
    *out = 0;
    sum<<<(n + 127) / 128, 128>>>(in, n, out);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess)
        return failed("cudaDeviceSynchronize", e);
    const unsigned long long want = 1ull * n * (n - 1) / 2;
    const bool right = *out == want;
    std::printf("sum of 0..%u on the device: %llu (%s)\n", n - 1, *out, right ? "right" : "WRONG");
    cudaFree(in);
    cudaFree(out);
    return right ? 0 : 1;
}
