// Pageable host memory (memory CUDA did not allocate) in copies, as the H100's driver treats it
// (docs/probes/pageable_copy_probe.out): refused where a call names a device pointer; in the
// asynchronous copies, the caller's buffer is never touched after the call returns (a source
// is staged at the call, a copy into it returns once done), so freeing it at once is safe.
#include "framework/testing.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_test;

namespace {

/* A stream held behind a host function until the test opens the gate. */
struct Gate {
    std::atomic<bool> open{false};
    static void CUDA_CB hold(void *p)
    {
        auto *g = static_cast<Gate *>(p);
        while (!g->open.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};

class CopyPageable : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&d, kSize));
        ASSERT_OK(cuMemsetD8(d, 0x33, kSize));
        ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    }
    void TearDown() override
    {
        for (Gate &g : gates) // a failed expectation must not leave the stream held
            g.open = true;
        EXPECT_OK(cuStreamSynchronize(s));
        EXPECT_OK(cuStreamDestroy(s));
        EXPECT_OK(cuMemFree(d));
        ContextTest::TearDown();
    }
    /* Opens the gate from another thread after a moment, for calls that wait for the stream;
     * joined when it goes out of scope, also after a failed assertion. */
    struct Opener {
        std::thread t;
        explicit Opener(Gate &g)
            : t([&g] {
                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
                  g.open = true;
              })
        {
        }
        ~Opener() { t.join(); }
    };
    static constexpr size_t kSize = 8u << 20; /* above the 4 MiB that an async copy stages */
    Gate gates[2];
    CUdeviceptr d = 0;
    CUstream s = nullptr;
};

TEST_F(CopyPageable, DevicePointerParameters_RefusePageableMemory_AsTheDriverDoes)
{
    std::vector<unsigned char> pageable(4096, 0x5a), host(4096, 0);
    CUdeviceptr p = (CUdeviceptr)pageable.data();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), p, 4096));
    EXPECT_DETAIL_HAS("is not device memory");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(p, host.data(), 4096));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, p, 4096));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(p, d, 4096));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoHAsync(host.data(), p, 4096, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoDAsync(p, host.data(), 4096, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(p, 1, 4096));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(p, 1, 1024, s));
    EXPECT_EQ(0x5a, pageable[0]) << "a refused call wrote the memory";
    EXPECT_EQ(0, host[0]) << "a refused call wrote the memory";

    // A freed device pointer is refused the same way (no longer any allocation's).
    CUdeviceptr freed;
    ASSERT_OK(cuMemAlloc(&freed, 4096));
    ASSERT_OK(cuMemFree(freed));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), freed, 4096));

    // 2D: a DEVICE side must be device memory; a UNIFIED side takes any address.
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = p;
    c.srcPitch = 4096;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = host.data();
    c.dstPitch = 4096;
    c.WidthInBytes = 4096;
    c.Height = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    EXPECT_OK(cuMemcpy2D(&c));
    EXPECT_EQ(0x5a, host[4095]);

    // The unified-addressing copy takes pageable memory on either side, host to host included.
    std::vector<unsigned char> other(4096, 0);
    EXPECT_OK(cuMemcpy((CUdeviceptr)other.data(), p, 4096));
    EXPECT_EQ(0x5a, other[0]);
    // Pinned host memory is CUDA's: a device pointer parameter takes it.
    void *pinned;
    ASSERT_OK(cuMemAllocHost(&pinned, 4096));
    EXPECT_OK(cuMemcpyDtoD((CUdeviceptr)pinned, d, 4096));
    EXPECT_EQ(0x33, static_cast<unsigned char *>(pinned)[0]);
    EXPECT_OK(cuMemFreeHost(pinned));
}

TEST_F(CopyPageable, AsyncUploadFromPageableMemory_IsStagedAtTheCall)
{
    Gate &g = gates[0];
    ASSERT_OK(cuLaunchHostFunc(s, Gate::hold, &g));
    {
        std::vector<unsigned char> src(4096, 0x5a);
        ASSERT_OK(cuMemcpyHtoDAsync(d, src.data(), 4096, s));
        EXPECT_FALSE(g.open.load()) << "the call waited for the stream";
        std::memset(src.data(), 0xee, src.size()); // after the call: the copy must not see it
    } // and the buffer is freed while the copy is still queued
    std::vector<unsigned char> generic(4096, 0x6b);
    ASSERT_OK(cuMemcpyAsync(d + 4096, (CUdeviceptr)generic.data(), 4096, s));
    generic.assign(4096, 0xee);
    g.open = true;
    ASSERT_OK(cuStreamSynchronize(s));
    std::vector<unsigned char> out(8192);
    ASSERT_OK(cuMemcpyDtoH(out.data(), d, 8192));
    EXPECT_EQ(0x5a, out[0]);
    EXPECT_EQ(0x5a, out[4095]);
    EXPECT_EQ(0x6b, out[4096]);
    EXPECT_EQ(0x6b, out[8191]);
}

TEST_F(CopyPageable, AsyncUploadAboveTheStagingLimit_WaitsForItsCopy)
{
    std::vector<unsigned char> src(kSize, 0x5a);
    Gate &g = gates[0];
    ASSERT_OK(cuLaunchHostFunc(s, Gate::hold, &g));
    Opener opener(g);
    ASSERT_OK(cuMemcpyHtoDAsync(d, src.data(), kSize, s));
    EXPECT_TRUE(g.open.load()) << "the call returned before its copy ran";
    src.assign(kSize, 0xee);
    ASSERT_OK(cuStreamSynchronize(s));
    unsigned char first = 0, last = 0;
    ASSERT_OK(cuMemcpyDtoH(&first, d, 1));
    ASSERT_OK(cuMemcpyDtoH(&last, d + kSize - 1, 1));
    EXPECT_EQ(0x5a, first);
    EXPECT_EQ(0x5a, last);
}

TEST_F(CopyPageable, AsyncDownloadIntoPageableMemory_ReturnsOnceDone)
{
    std::vector<unsigned char> dst(4096, 0);
    Gate &g = gates[0];
    ASSERT_OK(cuLaunchHostFunc(s, Gate::hold, &g));
    Opener opener(g);
    ASSERT_OK(cuMemcpyDtoHAsync(dst.data(), d, 4096, s));
    EXPECT_TRUE(g.open.load()) << "the call returned before its copy ran";
    EXPECT_EQ(0x33, dst[0]);
    EXPECT_EQ(0x33, dst[4095]);

    // Host to host through the unified copy: the same.
    std::vector<unsigned char> from(4096, 0x77), to(4096, 0);
    Gate &g2 = gates[1];
    ASSERT_OK(cuLaunchHostFunc(s, Gate::hold, &g2));
    Opener opener2(g2);
    ASSERT_OK(cuMemcpyAsync((CUdeviceptr)to.data(), (CUdeviceptr)from.data(), 4096, s));
    EXPECT_TRUE(g2.open.load());
    EXPECT_EQ(0x77, to[4095]);
}

TEST_F(CopyPageable, AsyncDownloadIntoPinnedMemory_StaysAsynchronous)
{
    void *pinned;
    ASSERT_OK(cuMemAllocHost(&pinned, 4096));
    std::memset(pinned, 0, 4096);
    Gate &g = gates[0];
    ASSERT_OK(cuLaunchHostFunc(s, Gate::hold, &g));
    ASSERT_OK(cuMemcpyDtoHAsync(pinned, d, 4096, s));
    EXPECT_FALSE(g.open.load());
    EXPECT_EQ(0, static_cast<unsigned char *>(pinned)[0]) << "the copy ran before the stream's earlier work";
    g.open = true;
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0x33, static_cast<unsigned char *>(pinned)[4095]);
    EXPECT_OK(cuMemFreeHost(pinned));
}

} // namespace
