// Concurrency: any interleaving of valid calls from many threads completes, and nothing is
// freed under another thread's use. These cases also run under ThreadSanitizer (scripts/test.sh).
#include "framework/testing.h"
#include "vmm_fixture.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace extmem_test;

using Concurrency = ContextTest;
using ConcurrencyVmm = Vmm;

namespace {

/* Runs the threads and ends the process with a message if they have not all finished within
 * `seconds`: a deadlock is a failure here, not a hung test. */
void run_threads_within(int seconds, const std::vector<std::function<void()>> &bodies, const char *what)
{
    std::atomic<int> done{0};
    std::vector<std::thread> threads;
    for (const auto &body : bodies)
        threads.emplace_back([&done, body] {
            body();
            done++;
        });
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (done.load() < (int)bodies.size()) {
        if (std::chrono::steady_clock::now() > deadline) {
            std::fprintf(stderr, "%s: %d of %zu threads still running after %d s: deadlock\n", what,
                         (int)bodies.size() - done.load(), bodies.size(), seconds);
            std::_Exit(3);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (auto &t : threads)
        t.join();
}

} // namespace

// A record on the legacy default stream waits for the blocking streams; a wait queued on a
// blocking stream must not capture a record that is still waiting for that stream.
TEST_F(Concurrency, RecordOnLegacyStreamAgainstWaitOnABlockingStream_Completes)
{
    CUevent e;
    CUstream s;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuStreamCreate(&s, 0)); // blocking: the legacy stream synchronises with it
    CUcontext c = ctx;
    run_threads_within(20,
                       {[&] {
                            cuCtxSetCurrent(c);
                            for (int i = 0; i < 3000; ++i) {
                                ASSERT_OK(cuEventRecord(e, CU_STREAM_LEGACY));
                            }
                        },
                        [&] {
                            cuCtxSetCurrent(c);
                            for (int i = 0; i < 3000; ++i) {
                                ASSERT_OK(cuStreamWaitEvent(s, e, 0));
                                if (i % 64 == 0) {
                                    ASSERT_OK(cuStreamSynchronize(s));
                                }
                            }
                            ASSERT_OK(cuStreamSynchronize(s));
                        }},
                       "legacy record / blocking wait");
    EXPECT_OK(cuEventSynchronize(e));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuEventDestroy(e));
}

// Records and waits of one event on one stream from two threads: a wait must never be queued
// ahead of the record it waits for. The stream is held busy meanwhile, so every wait captures
// a record still pending and the two threads contend for the stream's queue.
TEST_F(Concurrency, RecordsAndWaitsOfOneEventOnOneStreamFromTwoThreads_Complete)
{
    CUevent e;
    CUstream s;
    ASSERT_OK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int round = 0; round < 8; ++round) {
        std::atomic<bool> open{false};
        ASSERT_OK(cuLaunchHostFunc(
            s,
            [](void *p) {
                while (!static_cast<std::atomic<bool> *>(p)->load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            },
            &open));
        CUcontext c = ctx;
        std::atomic<int> queued{0};
        run_threads_within(20,
                           {[&] {
                                cuCtxSetCurrent(c);
                                for (int i = 0; i < 20000; ++i) {
                                    ASSERT_OK(cuEventRecord(e, s));
                                }
                                queued++;
                            },
                            [&] {
                                cuCtxSetCurrent(c);
                                for (int i = 0; i < 20000; ++i) {
                                    ASSERT_OK(cuStreamWaitEvent(s, e, 0));
                                }
                                queued++;
                                while (queued.load() < 2)
                                    std::this_thread::yield();
                                open = true;
                                // A wait queued ahead of its record would hold the stream forever.
                                ASSERT_OK(cuStreamSynchronize(s));
                            }},
                           "record / wait on one stream");
    }
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuEventDestroy(e));
}

// A stale pointer freed by one thread while another allocates: the new allocation may land at
// the stale address, and must be whole (in its context's list) before any free can find it.
TEST_F(Concurrency, StaleFreeWhileAnotherThreadAllocatesTheSameAddress_NeverCrashes)
{
    std::atomic<CUdeviceptr> stale{0};
    std::atomic<bool> stop{false};
    CUcontext c = ctx;
    run_threads_within(30,
                       {[&] {
                            cuCtxSetCurrent(c);
                            for (int i = 0; i < 3000; ++i) {
                                CUdeviceptr p;
                                ASSERT_OK(cuMemAlloc(&p, 4096));
                                stale.store(p);
                                CUresult r = cuMemFree(p); // the other thread may have freed it
                                ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_VALUE) << r;
                            }
                            stop = true;
                        },
                        [&] {
                            cuCtxSetCurrent(c);
                            while (!stop.load()) {
                                CUresult r = cuMemFree(stale.load());
                                ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_VALUE) << r;
                            }
                        }},
                       "stale frees");
}

// cuCtxDestroy while another thread frees the context's allocations: each allocation is freed
// exactly once, by whichever gets it first.
TEST_F(Concurrency, CtxDestroyWhileAnotherThreadFreesItsAllocations_FreesEachOnce)
{
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    for (int round = 0; round < 150; ++round) {
        CUcontext victim;
        ASSERT_OK(cuCtxCreate(&victim, nullptr, 0, dev));
        std::vector<CUdeviceptr> ptrs(16);
        for (auto &p : ptrs)
            ASSERT_OK(cuMemAlloc(&p, 4096));
        ASSERT_OK(cuCtxPopCurrent(nullptr));
        run_threads_within(20,
                           {[&] { EXPECT_OK(cuCtxDestroy(victim)); },
                            [&] {
                                cuCtxSetCurrent(ctx);
                                for (auto p : ptrs) {
                                    CUresult r = cuMemFree(p);
                                    ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_VALUE) << r;
                                }
                            }},
                           "destroy / free");
    }
}

TEST_F(Concurrency, ArraysDestroyedWhileOtherThreadsCopyAndQueryThem_AnswerOrRefuseCleanly)
{
    // Threads copy into, read back and query arrays that a third thread destroys, and a fourth
    // destroys the context of a second set: every call succeeds or answers INVALID_HANDLE
    // (a destroyed array) or, for a copy whose array went between its lookup and the check of
    // its addresses, INVALID_VALUE (the memory is no longer there); each array's memory is
    // freed once (src/image/array.c).
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    for (int round = 0; round < 40; ++round) {
        CUDA_ARRAY3D_DESCRIPTOR d;
        memset(&d, 0, sizeof(d));
        d.Width = 64, d.Height = 8, d.Format = CU_AD_FORMAT_UNSIGNED_INT8, d.NumChannels = 4;
        std::vector<CUarray> arrays(8);
        for (auto &a : arrays)
            ASSERT_OK(cuArray3DCreate(&a, &d));
        CUcontext victim;
        ASSERT_OK(cuCtxCreate(&victim, nullptr, 0, dev));
        std::vector<CUarray> theirs(4);
        CUmipmappedArray mip;
        for (auto &a : theirs)
            ASSERT_OK(cuArray3DCreate(&a, &d));
        ASSERT_OK(cuMipmappedArrayCreate(&mip, &d, 3));
        ASSERT_OK(cuCtxPopCurrent(nullptr));
        auto user = [&](const std::vector<CUarray> &set) {
            cuCtxSetCurrent(ctx);
            std::vector<unsigned char> buf(256 * 8, (unsigned char)round);
            for (int k = 0; k < 4; ++k)
                for (CUarray a : set) {
                    CUresult r = cuMemcpyHtoA(a, 0, buf.data(), 256);
                    ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_INVALID_VALUE)
                        << r;
                    r = cuMemcpyAtoH(buf.data(), a, 0, 256);
                    ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_INVALID_VALUE)
                        << r;
                    CUDA_ARRAY3D_DESCRIPTOR g;
                    r = cuArray3DGetDescriptor(&g, a);
                    ASSERT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE) << r;
                }
        };
        run_threads_within(20,
                           {[&] { user(arrays); }, [&] { user(theirs); },
                            [&] {
                                cuCtxSetCurrent(ctx);
                                for (CUarray a : arrays)
                                    EXPECT_OK(cuArrayDestroy(a));
                            },
                            [&] {
                                CUarray level;
                                CUresult r = cuMipmappedArrayGetLevel(&level, mip, 1);
                                EXPECT_TRUE(r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE) << r;
                                EXPECT_OK(cuCtxDestroy(victim));
                            }},
                           "arrays: destroy / copy / query");
        CUDA_ARRAY3D_DESCRIPTOR g;
        for (CUarray a : theirs)
            EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, a));
    }
}
