// Texture and surface objects made, read and destroyed from several threads at once, and a
// context destroyed while another thread destroys its objects: no crash, no object lost or
// destroyed twice (the registry and src/image/texture.c's list of live objects).
#include "framework/testing.h"

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_test;

using TextureConcurrency = ContextTest;

namespace {

CUDA_RESOURCE_DESC linear(CUdeviceptr p)
{
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_LINEAR;
    r.res.linear.devPtr = p;
    r.res.linear.format = CU_AD_FORMAT_FLOAT;
    r.res.linear.numChannels = 1;
    r.res.linear.sizeInBytes = 4096;
    return r;
}

} // namespace

TEST_F(TextureConcurrency, Threads_MakeReadAndDestroyObjects_EachSeesItsOwn)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 1 << 20));
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            if (cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
                ++failures;
                return;
            }
            CUDA_RESOURCE_DESC r = linear(d + (CUdeviceptr)t * 4096 * 2);
            CUDA_TEXTURE_DESC td;
            memset(&td, 0, sizeof td);
            td.maxAnisotropy = (unsigned)t;
            for (int i = 0; i < 300; ++i) {
                CUtexObject o = 0;
                if (cuTexObjectCreate(&o, &r, &td, nullptr) != CUDA_SUCCESS) {
                    ++failures;
                    continue;
                }
                CUDA_RESOURCE_DESC g;
                CUDA_TEXTURE_DESC gt;
                if (cuTexObjectGetResourceDesc(&g, o) != CUDA_SUCCESS || g.res.linear.devPtr != r.res.linear.devPtr ||
                    cuTexObjectGetTextureDesc(&gt, o) != CUDA_SUCCESS || gt.maxAnisotropy != (unsigned)t)
                    ++failures;
                if (cuTexObjectDestroy(o) != CUDA_SUCCESS)
                    ++failures;
                if (cuTexObjectGetResourceDesc(&g, o) != CUDA_ERROR_INVALID_VALUE)
                    ++failures;
            }
        });
    }
    for (auto &th : threads)
        th.join();
    EXPECT_EQ(0, failures.load());
    EXPECT_OK(cuMemFree(d));
}

TEST_F(TextureConcurrency, TwoThreadsDestroyingOneSetOfObjects_DestroyEachOnce)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 1 << 16));
    CUDA_RESOURCE_DESC r = linear(d);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    std::vector<CUtexObject> objs(400);
    for (auto &o : objs)
        ASSERT_OK(cuTexObjectCreate(&o, &r, &td, nullptr));
    std::atomic<int> failures{0};
    auto destroy_all = [&](bool backwards) {
        if (cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
            ++failures;
            return;
        }
        for (size_t i = 0; i < objs.size(); ++i)
            if (cuTexObjectDestroy(objs[backwards ? objs.size() - 1 - i : i]) != CUDA_SUCCESS)
                ++failures; // a handle destroyed by the other thread is CUDA_SUCCESS too
    };
    std::thread a(destroy_all, false), b(destroy_all, true);
    a.join();
    b.join();
    EXPECT_EQ(0, failures.load());
    CUDA_RESOURCE_DESC g;
    for (auto o : objs)
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&g, o));
    EXPECT_OK(cuMemFree(d));
}

TEST_F(TextureConcurrency, ContextDestroyedWhileAThreadDestroysItsObjects_EndsWithNoneLeft)
{
    CUcontext other = nullptr;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 1 << 16));
    CUDA_RESOURCE_DESC r = linear(d);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    std::vector<CUtexObject> objs(400);
    for (auto &o : objs)
        ASSERT_OK(cuTexObjectCreate(&o, &r, &td, nullptr));
    std::atomic<bool> go{false};
    std::atomic<int> failures{0};
    std::thread destroyer([&] {
        while (!go.load())
            std::this_thread::yield();
        for (auto o : objs)
            if (cuTexObjectDestroy(o) != CUDA_SUCCESS)
                ++failures;
    });
    go = true;
    EXPECT_OK(cuCtxDestroy(other));
    destroyer.join();
    EXPECT_EQ(0, failures.load());
    ASSERT_OK(cuCtxSetCurrent(ctx));
    CUDA_RESOURCE_DESC g;
    for (auto o : objs)
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&g, o));
}
