// A CUDA program built against the installed package through extmem_add_cuda_executable
// (cmake/ExtmemCuda.cmake): clang, no CUDA toolkit, the software device.
#include <cstdio>

__global__ void square(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= p[i];
}

int main()
{
    int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int *d = nullptr;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess || cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
        return 1;
    square<<<1, 8>>>(d, 8);
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess || h[7] != 64)
        return 1;
    cudaFree(d);
    std::printf("consumer_cuda: 8 squared on the software device is %d\n", h[7]);
    return 0;
}
