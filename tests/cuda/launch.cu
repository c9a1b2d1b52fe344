// Kernel launches: <<<>>> with 2-D shapes and dynamic shared memory, cudaLaunchKernel with a
// kernel and an argument array, cudaLaunchKernelEx, and the errors of a bad launch.
#include "check.h"

__global__ void iota2d(int *out, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = y * 1000 + x;
}

// Reverses each block's slice through dynamic shared memory.
__global__ void reverse_blocks(const int *in, int *out)
{
    extern __shared__ int tile[];
    unsigned int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    tile[t] = in[base + t];
    __syncthreads();
    out[base + t] = tile[blockDim.x - 1 - t];
}

__global__ void scale(float *p, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= factor;
}

__global__ void warp_sum(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, v);
}

int main()
{
    const int w = 64, h = 16;
    int *grid2d;
    CHECK(cudaMalloc(&grid2d, w * h * sizeof(int)));
    iota2d<<<dim3(w / 16, h / 8), dim3(16, 8)>>>(grid2d, w);
    CHECK(cudaGetLastError());
    int host[w * h];
    CHECK(cudaMemcpy(host, grid2d, sizeof host, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            bad += host[y * w + x] != y * 1000 + x;
    std::printf("2-D launch: %d wrong of %d\n", bad, w * h);

    const int block = 128, blocks = 4, n = block * blocks;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    int seq[n];
    for (int i = 0; i < n; ++i)
        seq[i] = i;
    CHECK(cudaMemcpy(in, seq, sizeof seq, cudaMemcpyHostToDevice));
    reverse_blocks<<<blocks, block, block * sizeof(int)>>>(in, out);
    CHECK(cudaMemcpy(seq, out, sizeof seq, cudaMemcpyDeviceToHost));
    std::printf("dynamic shared memory: out[0]=%d out[127]=%d out[128]=%d\n", seq[0], seq[127], seq[128]);

    float *f;
    const int fn = 100;
    CHECK(cudaMalloc(&f, fn * sizeof(float)));
    float ones[fn];
    for (int i = 0; i < fn; ++i)
        ones[i] = 1.5f;
    CHECK(cudaMemcpy(f, ones, sizeof ones, cudaMemcpyHostToDevice));
    float factor = 4.0f;
    int count = fn;
    void *args[] = {&f, &factor, &count};
    CHECK(cudaLaunchKernel((const void *)scale, dim3(1), dim3(128), args, 0, nullptr));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(64);
    CHECK(cudaLaunchKernelEx(&config, scale, f, 0.5f, fn));
    CHECK(cudaMemcpy(ones, f, sizeof ones, cudaMemcpyDeviceToHost));
    std::printf("cudaLaunchKernel then cudaLaunchKernelEx: %.2f %.2f\n", ones[0], ones[fn - 1]);

    int *sum;
    CHECK(cudaMalloc(&sum, sizeof(int)));
    CHECK(cudaMemset(sum, 0, sizeof(int)));
    warp_sum<<<1, 128>>>(in, sum);
    int total = 0;
    CHECK(cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost));
    std::printf("shuffles and atomics: %d\n", total);

    // A block of 0 threads is the launch's error (cudaErrorInvalidValue on an H100 too).
    scale<<<1, 0>>>(f, 1.0f, fn);
    std::printf("empty block: %s\n", cudaGetErrorName(cudaGetLastError()));
    int not_a_kernel = 0;
    std::printf("host address as kernel: %s\n",
                cudaGetErrorName(cudaLaunchKernel((const void *)&not_a_kernel, dim3(1), dim3(1), nullptr, 0, nullptr)));
    (void)cudaGetLastError();

    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(sum));
    CHECK(cudaFree(f));
    CHECK(cudaFree(out));
    CHECK(cudaFree(in));
    CHECK(cudaFree(grid2d));
    std::printf("done\n");
    return 0;
}
