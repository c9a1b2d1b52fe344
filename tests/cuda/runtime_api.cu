// The runtime API without kernels: devices, memory, errors, flags, limits, peers, pools.
#include <cstring>

#include "check.h"

int main()
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    std::printf("devices: %d\n", count);

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("warp size: %d, unified addressing: %d\n", prop.warpSize, prop.unifiedAddressing);

    int chosen = -1;
    CHECK(cudaChooseDevice(&chosen, &prop));
    std::printf("chosen device: %d\n", chosen);
    CHECK(cudaSetDevice(chosen));

    unsigned int flags = 0;
    CHECK(cudaGetDeviceFlags(&flags));
    std::printf("map host flag: %s\n", (flags & cudaDeviceMapHost) ? "set" : "clear");

    int can = -1;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
    std::printf("device 0 peer of itself: %d\n", can);
    EXPECT_ERR(cudaErrorPeerAccessUnsupported, cudaDeviceEnablePeerAccess(0, 0));

    size_t fifo = 0, stack = 0;
    CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    std::printf("printf fifo: %zu, stack after set: %zu\n", fifo, stack);

    const size_t n = 1 << 16;
    unsigned char *d = nullptr, *h = nullptr;
    CHECK(cudaMalloc(&d, n));
    CHECK(cudaMallocHost(&h, n));
    CHECK(cudaMemset(d, 0x5a, n));
    CHECK(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
    size_t same = 0;
    for (size_t i = 0; i < n; ++i)
        same += h[i] == 0x5a;
    std::printf("memset then copy back: %zu of %zu bytes\n", same, n);

    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    void *a = nullptr;
    CHECK(cudaMallocAsync(&a, 4096, s));
    CHECK(cudaMemsetAsync(a, 1, 4096, s));
    CHECK(cudaMemcpyAsync(h, a, 4096, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaStreamSynchronize(s));
    std::printf("stream-ordered allocation: first byte %d\n", h[0]);

    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    unsigned long long threshold = 1ull << 30, back = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
    std::printf("pool release threshold: %llu\n", back);

    EXPECT_ERR(cudaErrorInvalidValue, cudaMalloc((void **)nullptr, 16));
    std::printf("error name: %s\n", cudaGetErrorName(cudaErrorInvalidValue));
    REQUIRE(cudaGetLastError() == cudaSuccess);

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    std::printf("done\n");
    return 0;
}
