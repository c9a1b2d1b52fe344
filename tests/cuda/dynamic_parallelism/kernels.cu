// tests/cuda/dynamic_parallelism/kernels.cu: kernels that launch kernels (CDP2, CUDA 12+), for
// dynamic_parallelism.c. kernels.ptx is what `nvcc -rdc=true -ptx -arch=compute_80 -std=c++17
// -O3 kernels.cu` makes of it (scripts in ../../../docs/probes/kernels/grid/README.md): its
// launches are calls of the device runtime's __cudaCDP2* functions, which extmem's engine
// provides and NVIDIA's driver takes from libcudadevrt.a when the PTX is linked with it.
#include <cuda_runtime.h>

// Each level records that it ran and what its own launch of the next level returned.
extern "C" __global__ void recurse(int *out, int depth, int max)
{
    out[depth] = depth + 1;
    if (depth < max) {
        recurse<<<1, 1>>>(out, depth + 1, max);
        out[64 + depth] = (int)cudaGetLastError();
    }
}

extern "C" __global__ void append(int *log, int v)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int i = atomicAdd(&log[0], 1);
        log[1 + i] = v;
    }
}

// A tail launch runs after the grid that launched it and all of that grid's other work.
extern "C" __global__ void tail_reader(int *counter, int *log, int *res)
{
    res[0] = *(volatile int *)counter;
    res[1] = *(volatile int *)&log[0];
    int i = atomicAdd(&log[0], 1);
    log[1 + i] = 100;
}

extern "C" __global__ void forget(int *res) { atomicAdd(&res[2], threadIdx.x + 1); }

extern "C" __global__ void parent(int *counter, int *log, int *res)
{
    atomicAdd(counter, 1);
    if (blockIdx.x != 1 || threadIdx.x != 5)
        return;
    tail_reader<<<1, 1, 0, cudaStreamTailLaunch>>>(counter, log, res);
    append<<<1, 1>>>(log, 1);
    append<<<2, 32>>>(log, 2);
    append<<<1, 1>>>(log, 3);
    forget<<<1, 32, 0, cudaStreamFireAndForget>>>(res);
    cudaStream_t s;
    res[3] = (int)cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    append<<<1, 1, 0, s>>>(log, 4);
    res[4] = (int)cudaStreamDestroy(s);
    res[5] = (int)cudaGetLastError();
    int d = -1;
    res[6] = (int)cudaGetDevice(&d);
    res[7] = d;
    int v = 0;
    res[8] = (int)cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, d);
    res[9] = v;
    append<<<1, 2048>>>(log, 99); // not a valid block
    res[10] = (int)cudaPeekAtLastError();
    res[11] = (int)cudaGetLastError();
    res[12] = (int)cudaGetLastError();
    // The launch API under <<<>>>, called directly.
    void *buf = cudaGetParameterBuffer(8, 16);
    if (buf) {
        *(int **)buf = log;
        *(int *)((char *)buf + 8) = 5;
        res[13] = (int)cudaLaunchDevice((void *)append, buf, dim3(1), dim3(1), 0, 0);
    } else {
        res[13] = -1;
    }
    cudaEvent_t e;
    res[14] = (int)cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    res[15] = (int)cudaEventRecord(e, 0);
    res[16] = (int)cudaEventDestroy(e);
    cudaStream_t s2;
    res[17] = (int)cudaStreamCreateWithFlags(&s2, cudaStreamDefault);
    res[18] = (int)cudaGetLastError();
}

extern "C" __global__ void empty() {}

// Launches n empty grids into one of the named streams (0: the tail launch stream, 1: fire and
// forget, 2: the default stream) and records what each launch returned.
extern "C" __global__ void many(int *codes, int n, int mode)
{
    cudaStream_t s = mode == 0 ? cudaStreamTailLaunch : mode == 1 ? cudaStreamFireAndForget : 0;
    for (int i = 0; i < n; ++i) {
        empty<<<1, 1, 0, s>>>();
        codes[i] = (int)cudaGetLastError();
    }
}

// A child reads what its parent wrote before launching it, and a child's writes are seen by the
// parent's tail launch.
extern "C" __global__ void child_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

extern "C" __global__ void fill_then_launch(int *buf, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = i + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        int first = blockIdx.x * blockDim.x;
        child_sum<<<1, blockDim.x>>>(buf + first, out + 1 + blockIdx.x, n - first < (int)blockDim.x ? n - first : (int)blockDim.x);
    }
}
