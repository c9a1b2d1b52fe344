// Streams, events and callbacks: work on two streams, one waiting for the other's event, and
// host callbacks that run in stream order.
#include <vector>

#include "check.h"

__global__ void add(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

static std::vector<int> order;

static void CUDART_CB note(cudaStream_t, cudaError_t status, void *data)
{
    order.push_back(status == cudaSuccess ? (int)(size_t)data : -1);
}

static void CUDART_CB host_fn(void *data)
{
    order.push_back((int)(size_t)data);
}

int main()
{
    const int n = 4096;
    int *p;
    CHECK(cudaMalloc(&p, n * sizeof(int)));
    CHECK(cudaMemset(p, 0, n * sizeof(int)));
    cudaStream_t a, b;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t done_a;
    CHECK(cudaEventCreate(&done_a));

    add<<<n / 256, 256, 0, a>>>(p, 1, n);
    CHECK(cudaStreamAddCallback(a, note, (void *)1, 0));
    add<<<n / 256, 256, 0, a>>>(p, 10, n);
    CHECK(cudaLaunchHostFunc(a, host_fn, (void *)2));
    CHECK(cudaEventRecord(done_a, a));
    CHECK(cudaStreamWaitEvent(b, done_a, 0));
    add<<<n / 256, 256, 0, b>>>(p, 100, n);
    CHECK(cudaStreamAddCallback(b, note, (void *)3, 0));
    CHECK(cudaStreamSynchronize(b));

    int h[n];
    CHECK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += h[i] != 111;
    std::printf("three kernels on two streams: %d wrong\n", wrong);
    std::printf("callbacks in order:");
    for (int v : order)
        std::printf(" %d", v);
    std::printf("\n");
    EXPECT_ERR(cudaErrorInvalidValue, cudaStreamAddCallback(a, note, nullptr, 1));

    CHECK(cudaEventDestroy(done_a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaFree(p));
    return 0;
}
