// The kernels bench/kernel_bench.c times, as CUDA C++ (our own text). bench_kernels.ptx beside
// this file is what nvcc 13 made of it (scripts/bench-kernels-ptx.sh), so extmem and the real
// driver run the same PTX.
extern "C" __global__ void empty(void) {}

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// One partial sum per block through shared memory (a tree), 256 threads per block.
extern "C" __global__ void reduce_shared(const float *x, float *partial, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    float v = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
        v += x[i];
    s[t] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

// The same with warp shuffles: each warp reduces in registers, one shared slot per warp.
extern "C" __global__ void reduce_shuffle(const float *x, float *partial, int n)
{
    __shared__ float w[32];
    int t = threadIdx.x;
    float v = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
        v += x[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((t & 31) == 0)
        w[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        v = t < (int)(blockDim.x >> 5) ? w[t] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}

// Transcendental-heavy: the fast intrinsics, 8 rounds per element.
extern "C" __global__ void transcendental(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < 8; ++k)
            v = __sinf(v) * __expf(-v * v) + __cosf(v);
        y[i] = v;
    }
}

// Issue 27's further kernels: a tiled matrix multiply (shared memory and barriers), a 5-point
// 2D stencil and a histogram with global atomics.
#define TILE 16
// C = A * B, n x n, n a multiple of TILE; blocks of TILE x TILE threads.
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// out = 0.2 * (the point and its four neighbours), inside a w x h grid.
extern "C" __global__ void stencil2d(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
        int i = y * w + x;
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
}

// 256 bins of the low byte, counted with global atomics.
extern "C" __global__ void histogram(const unsigned *x, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[x[i] & 255u], 1u);
}
