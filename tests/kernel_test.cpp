// Kernels: C functions run per block over a grid on the worker pool, in stream order.
#include "framework/testing.h"

#include <atomic>
#include <vector>

using namespace extmem_test;

using Kernel = ContextTest;

namespace {

struct IndexArgs {
    unsigned int *out; // one slot per thread of the grid
};

/* Writes a code for (block, thread) into that thread's slot: every thread exactly once. */
void write_indices(const extmem_block *b, void *p)
{
    auto *a = static_cast<IndexArgs *>(p);
    uint64_t threads = (uint64_t)b->blockDim.x * b->blockDim.y * b->blockDim.z;
    uint64_t block = b->blockIdx.x + (uint64_t)b->gridDim.x * (b->blockIdx.y + (uint64_t)b->gridDim.y * b->blockIdx.z);
    EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
    {
        uint64_t t = tx + (uint64_t)b->blockDim.x * (ty + (uint64_t)b->blockDim.y * tz);
        a->out[block * threads + t] += (unsigned int)(block * 1000 + t + 1);
    }
}

struct Saxpy {
    float a;
    const float *x;
    float *y;
    unsigned int n;
};

void saxpy(const extmem_block *b, void *p)
{
    auto *s = static_cast<Saxpy *>(p);
    EXTMEM_FOR_EACH_THREAD(b, tx, ty, tz)
    {
        (void)ty;
        (void)tz;
        unsigned int i = b->blockIdx.x * b->blockDim.x + tx;
        if (i < s->n)
            s->y[i] = s->a * s->x[i] + s->y[i];
    }
}

void nothing(const extmem_block *, void *) {}

} // namespace

TEST_F(Kernel, EveryThreadOfEveryGridShape_RunsExactlyOnce)
{
    const extmem_dim3 shapes[][2] = {
        {{1, 1, 1}, {1, 1, 1}},   {{7, 1, 1}, {3, 1, 1}},   {{1, 5, 1}, {1, 1, 9}},  {{3, 4, 5}, {2, 3, 4}},
        {{100, 1, 1}, {256, 1, 1}}, {{1, 1, 33}, {32, 32, 1}}, {{17, 13, 1}, {1, 1, 64}}, {{1000, 2, 1}, {1, 1, 1}},
    };
    for (auto &shape : shapes) {
        extmem_dim3 g = shape[0], blk = shape[1];
        uint64_t blocks = (uint64_t)g.x * g.y * g.z, threads = (uint64_t)blk.x * blk.y * blk.z;
        CUdeviceptr out;
        ASSERT_OK(cuMemAlloc(&out, blocks * threads * 4));
        ASSERT_OK(cuMemsetD32(out, 0, blocks * threads));
        IndexArgs args{(unsigned int *)out};
        ASSERT_OK(extmem_launch_kernel(write_indices, g, blk, &args, sizeof(args), nullptr));
        ASSERT_OK(cuCtxSynchronize());
        const unsigned int *o = (const unsigned int *)out;
        for (uint64_t blkid = 0; blkid < blocks; ++blkid)
            for (uint64_t t = 0; t < threads; ++t)
                ASSERT_EQ((unsigned int)(blkid * 1000 + t + 1), o[blkid * threads + t])
                    << "grid " << g.x << "x" << g.y << "x" << g.z << " block " << blk.x << "x" << blk.y << "x" << blk.z;
        ASSERT_OK(cuMemFree(out));
    }
}

TEST_F(Kernel, Saxpy_ComputesTheRightResultInAStream)
{
    const unsigned int n = 1 << 20;
    CUdeviceptr x, y;
    ASSERT_OK(cuMemAlloc(&x, n * 4));
    ASSERT_OK(cuMemAlloc(&y, n * 4));
    std::vector<float> hx(n), hy(n), out(n);
    for (unsigned int i = 0; i < n; ++i) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuMemcpyHtoDAsync(x, hx.data(), n * 4, s));
    ASSERT_OK(cuMemcpyHtoDAsync(y, hy.data(), n * 4, s));
    Saxpy args{2.0f, (const float *)x, (float *)y, n};
    ASSERT_OK(extmem_launch_kernel(saxpy, {(n + 255) / 256, 1, 1}, {256, 1, 1}, &args, sizeof(args), s));
    ASSERT_OK(cuMemcpyDtoHAsync(out.data(), y, n * 4, s));
    ASSERT_OK(cuStreamSynchronize(s));
    for (unsigned int i = 0; i < n; i += 997)
        ASSERT_EQ(2.0f * i + 1.0f, out[i]) << i;
    EXPECT_EQ(2.0f * (n - 1) + 1.0f, out[n - 1]);
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(x));
    EXPECT_OK(cuMemFree(y));
}

TEST_F(Kernel, Arguments_AreCopiedAtLaunch)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    static std::atomic<int> seen{0};
    std::atomic<bool> gate{false};
    ASSERT_OK(cuLaunchHostFunc(s, [](void *p) {
        while (!static_cast<std::atomic<bool> *>(p)->load()) {
        }
    }, &gate));
    int value = 7;
    ASSERT_OK(extmem_launch_kernel([](const extmem_block *, void *p) { seen = *static_cast<int *>(p); }, {1, 1, 1},
                                   {1, 1, 1}, &value, sizeof(value), s));
    value = 99; // the launch holds its own copy
    gate = true;
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(7, seen.load());
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Kernel, InvalidLaunches_AreInvalidValue)
{
    int arg = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nullptr, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {0, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr));
    EXPECT_DETAIL_HAS("grid.x is 0");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 65536, 1}, {1, 1, 1}, nullptr, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 1, 1}, {1, 1, 65}, nullptr, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 1, 1}, {1025, 1, 1}, nullptr, 0, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 1, 1}, {64, 32, 1}, nullptr, 0, nullptr));
    EXPECT_DETAIL_HAS("2048 threads");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 1, 1}, {1, 1, 1}, nullptr, 4, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, extmem_launch_kernel(nothing, {1, 1, 1}, {1, 1, 1}, &arg, 40000, nullptr));
}

TEST_F(Kernel, ADestroyedStream_IsInvalidHandle)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, extmem_launch_kernel(nothing, {1, 1, 1}, {1, 1, 1}, nullptr, 0, s));
}

TEST_F(Kernel, ManyStreams_LaunchConcurrentlyAndAllComplete)
{
    const int streams = 6, launches = 50;
    std::vector<CUstream> s(streams);
    static std::atomic<long> blocks_run{0};
    for (auto &x : s)
        ASSERT_OK(cuStreamCreate(&x, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < launches; ++i)
        for (auto &x : s)
            ASSERT_OK(extmem_launch_kernel([](const extmem_block *, void *) { ++blocks_run; }, {8, 2, 1}, {32, 1, 1},
                                           nullptr, 0, x));
    ASSERT_OK(cuCtxSynchronize());
    EXPECT_EQ((long)streams * launches * 16, blocks_run.load());
    for (auto &x : s)
        EXPECT_OK(cuStreamDestroy(x));
}

TEST(KernelNoContext, Launch_WithoutAContext_IsInvalidContext)
{
    ASSERT_OK(cuInit(0));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, extmem_launch_kernel(nothing, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr));
}
