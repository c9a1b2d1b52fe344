// 3D copies (cuMemcpy3D and its runtime forms) between pitched allocations and host memory,
// peer copies, batch copies, pitched allocations and 2D/3D fills through the runtime.
// tests/copy_test.cpp has the 1D and 2D copies; this file starts where they end.
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"
#include "extmem/driver_functions.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace extmem_test;

// The per-thread forms (exec/per_thread.h in the library; code built with
// CUDA_API_PER_THREAD_DEFAULT_STREAM reaches them through the header's macros), and CUDA
// 12.8's batch forms with failIdx, under the unversioned names.
#undef cuMemcpyBatchAsync
#undef cuMemcpy3DBatchAsync
extern "C" {
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount);
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx,
                                    CUstream hStream);
CUresult CUDAAPI cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx,
                                      unsigned long long flags, CUstream hStream);
}

namespace {

// A volume of W x H x D bytes in a pitched allocation (cuMemAllocPitch of H * D rows).
struct Volume {
    CUdeviceptr p = 0;
    size_t pitch = 0;
    size_t w = 0, h = 0, d = 0;
    unsigned char *at(size_t x, size_t y, size_t z) const
    {
        return (unsigned char *)(uintptr_t)p + (z * h + y) * pitch + x;
    }
};

unsigned char pattern(size_t x, size_t y, size_t z) { return (unsigned char)(x * 7 + y * 13 + z * 31 + 1); }

class Copy3D : public ContextTest {
protected:
    Volume make(size_t w, size_t h, size_t d)
    {
        Volume v;
        v.w = w, v.h = h, v.d = d;
        EXPECT_OK(cuMemAllocPitch(&v.p, &v.pitch, w, h * d, 4));
        if (v.p)
            memset((void *)(uintptr_t)v.p, 0, v.pitch * h * d);
        volumes.push_back(v.p);
        return v;
    }
    void TearDown() override
    {
        for (CUdeviceptr p : volumes)
            EXPECT_OK(cuMemFree(p));
        ContextTest::TearDown();
    }
    std::vector<CUdeviceptr> volumes;
};

// A host side: W bytes per row, H rows per layer, tightly packed.
CUDA_MEMCPY3D host_to_volume(const void *host, size_t hw, size_t hh, const Volume &v)
{
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = hw;
    c.srcHeight = hh;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = v.p;
    c.dstPitch = v.pitch;
    c.dstHeight = v.h;
    return c;
}

} // namespace

// A box of 5 x 3 x 2 from (2, 1, 1) of a host volume to (7, 2, 3) of a pitched one, and back to
// another host volume at (1, 0, 0): every byte of the box arrives, nothing around it changes.
TEST_F(Copy3D, ABoxWithOffsets_ArrivesAndLeavesItsSurroundings)
{
    const size_t hw = 16, hh = 6, hd = 4;
    std::vector<unsigned char> host(hw * hh * hd);
    for (size_t z = 0; z < hd; ++z)
        for (size_t y = 0; y < hh; ++y)
            for (size_t x = 0; x < hw; ++x)
                host[(z * hh + y) * hw + x] = pattern(x, y, z);
    Volume v = make(40, 8, 6);
    ASSERT_EQ(512u, v.pitch);
    CUDA_MEMCPY3D c = host_to_volume(host.data(), hw, hh, v);
    c.srcXInBytes = 2, c.srcY = 1, c.srcZ = 1;
    c.dstXInBytes = 7, c.dstY = 2, c.dstZ = 3;
    c.WidthInBytes = 5, c.Height = 3, c.Depth = 2;
    ASSERT_OK(cuMemcpy3D(&c));
    for (size_t z = 0; z < v.d; ++z)
        for (size_t y = 0; y < v.h; ++y)
            for (size_t x = 0; x < v.pitch; ++x) {
                bool in = x >= 7 && x < 12 && y >= 2 && y < 5 && z >= 3 && z < 5;
                unsigned char want = in ? pattern(x - 7 + 2, y - 2 + 1, z - 3 + 1) : 0;
                ASSERT_EQ(want, *v.at(x, y, z)) << x << "," << y << "," << z;
            }
    std::vector<unsigned char> back(8 * 3 * 2, 0xee);
    CUDA_MEMCPY3D b = {};
    b.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    b.srcDevice = v.p;
    b.srcPitch = v.pitch;
    b.srcHeight = v.h;
    b.srcXInBytes = 7, b.srcY = 2, b.srcZ = 3;
    b.dstMemoryType = CU_MEMORYTYPE_HOST;
    b.dstHost = back.data();
    b.dstPitch = 8;
    b.dstHeight = 3;
    b.dstXInBytes = 1;
    b.WidthInBytes = 5, b.Height = 3, b.Depth = 2;
    ASSERT_OK(cuMemcpy3D(&b));
    for (size_t z = 0; z < 2; ++z)
        for (size_t y = 0; y < 3; ++y)
            for (size_t x = 0; x < 8; ++x) {
                unsigned char want = x >= 1 && x < 6 ? pattern(x - 1 + 2, y + 1, z + 1) : 0xee;
                ASSERT_EQ(want, back[(z * 3 + y) * 8 + x]) << x << "," << y << "," << z;
            }
}

// Device to device between two pitched volumes, and UNIFIED sides (any address).
TEST_F(Copy3D, DeviceToDeviceAndUnified_CopyEveryLayer)
{
    Volume a = make(100, 4, 3), b = make(700, 5, 3);
    for (size_t z = 0; z < 3; ++z)
        for (size_t y = 0; y < 4; ++y)
            for (size_t x = 0; x < 100; ++x)
                *a.at(x, y, z) = pattern(x, y, z);
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = a.p, c.srcPitch = a.pitch, c.srcHeight = a.h;
    c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    c.dstDevice = b.p, c.dstPitch = b.pitch, c.dstHeight = b.h;
    c.WidthInBytes = 100, c.Height = 4, c.Depth = 3;
    ASSERT_OK(cuMemcpy3D(&c));
    for (size_t z = 0; z < 3; ++z)
        for (size_t y = 0; y < 4; ++y)
            ASSERT_EQ(0, memcmp(a.at(0, y, z), b.at(0, y, z), 100)) << y << "," << z;
    EXPECT_EQ(0, *b.at(0, 4, 0)); // the fifth row of each layer is not part of the copy
}

// More than the engine's parallel threshold (4 MiB) across layers: the pool's pieces cut
// through layers and rows, and every byte arrives.
TEST_F(Copy3D, ALargeCopy_AcrossLayers_IsExact)
{
    const size_t w = 3000, h = 100, d = 20; // 6 MB
    Volume v = make(w, h, d);
    std::vector<unsigned char> host(w * h * d);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (unsigned char)(i * 2654435761u >> 13);
    CUDA_MEMCPY3D c = host_to_volume(host.data(), w, h, v);
    c.WidthInBytes = w, c.Height = h, c.Depth = d;
    ASSERT_OK(cuMemcpy3D(&c));
    for (size_t z = 0; z < d; ++z)
        for (size_t y = 0; y < h; ++y)
            ASSERT_EQ(0, memcmp(v.at(0, y, z), &host[(z * h + y) * w], w)) << y << "," << z;
}

// Async forms in stream order: a fill, then the copy, then a copy back, on one stream.
TEST_F(Copy3D, AsyncForms_RunInStreamOrder)
{
    Volume a = make(64, 4, 2), b = make(64, 4, 2);
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuMemsetD8Async(a.p, 0x3c, a.pitch * 8, s));
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = a.p, c.srcPitch = a.pitch, c.srcHeight = 4;
    c.dstDevice = b.p, c.dstPitch = b.pitch, c.dstHeight = 4;
    c.WidthInBytes = 64, c.Height = 4, c.Depth = 2;
    ASSERT_OK(cuMemcpy3DAsync(&c, s));
    std::vector<unsigned char> out(64, 0);
    ASSERT_OK(cuMemcpyDtoHAsync(out.data(), (CUdeviceptr)(uintptr_t)b.at(0, 3, 1), 64, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(std::vector<unsigned char>(64, 0x3c), out);
    // The per-thread forms take the same descriptor.
    memset((void *)(uintptr_t)b.p, 0, b.pitch * 8);
    ASSERT_OK(cuMemcpy3DAsync_v2_ptsz(&c, nullptr));
    ASSERT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_EQ(0x3c, *b.at(63, 3, 1));
    memset((void *)(uintptr_t)b.p, 0, b.pitch * 8);
    ASSERT_OK(cuMemcpy3D_v2_ptds(&c));
    EXPECT_EQ(0x3c, *b.at(0, 0, 0));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Copy3D, EmptyExtents_AreNoOps)
{
    Volume v = make(16, 2, 2);
    std::vector<unsigned char> host(64, 1);
    CUDA_MEMCPY3D c = host_to_volume(host.data(), 16, 2, v);
    c.WidthInBytes = 0, c.Height = 2, c.Depth = 2;
    EXPECT_OK(cuMemcpy3D(&c));
    c.WidthInBytes = 16, c.Height = 2, c.Depth = 0;
    EXPECT_OK(cuMemcpy3D(&c));
    EXPECT_EQ(0, *v.at(0, 0, 0));
}

// Each field, one at a time, against a valid descriptor.
TEST_F(Copy3D, BadDescriptors_AreInvalidValueWithAReason)
{
    Volume v = make(64, 4, 4);
    std::vector<unsigned char> host(64 * 4 * 4);
    CUDA_MEMCPY3D ok = host_to_volume(host.data(), 64, 4, v);
    ok.WidthInBytes = 64, ok.Height = 4, ok.Depth = 4;
    ASSERT_OK(cuMemcpy3D(&ok));

    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(nullptr));
    CUDA_MEMCPY3D c = ok;
    int dummy;
    c.reserved0 = &dummy;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("reserved0");
    c = ok, c.dstLOD = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("dstLOD");
    c = ok, c.srcMemoryType = (CUmemorytype)9;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.srcHost = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.srcPitch = 63; // below the width, with several rows
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("srcPitch 63 is smaller than srcXInBytes 0 + WidthInBytes 64");
    c = ok, c.dstXInBytes = v.pitch - 10; // X + width runs past the pitch
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.srcHeight = 3; // fewer rows per layer than the copy's
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("srcHeight 3 is smaller than srcY 0 + Height 4");
    c = ok, c.dstY = 1; // Y + Height runs past the layer
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.srcHeight = 0; // 0 only for one layer
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.srcPitch = (size_t)1 << 31; // above CU_DEVICE_ATTRIBUTE_MAX_PITCH
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("maximum pitch");
    c = ok, c.Depth = 1, c.srcHeight = 0, c.srcZ = 1; // a layer offset with no layer height
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.dstZ = 1; // four layers from layer 1 run past the allocation
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("runs past the end of its allocation");
    c = ok, c.srcZ = SIZE_MAX / 2; // the offset wraps the address space
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
    c = ok, c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = (CUdeviceptr)(uintptr_t)host.data();
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c)); // pageable memory named a device pointer
    EXPECT_DETAIL_HAS("not device memory");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DAsync(nullptr, nullptr));
}

TEST_F(Copy3D, AForgedArraySide_IsInvalidHandle)
{
    Volume v = make(64, 4, 1);
    CUDA_MEMCPY3D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = (CUarray)(uintptr_t)0x1234;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = v.p, c.dstPitch = v.pitch;
    c.WidthInBytes = 16, c.Height = 1, c.Depth = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpy3D(&c));
    EXPECT_DETAIL_HAS("rray");
    std::swap(c.srcMemoryType, c.dstMemoryType);
    c.srcDevice = v.p, c.srcPitch = v.pitch;
    c.dstArray = c.srcArray;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpy3D(&c));
}

TEST_F(Copy3D, AsyncOnADestroyedStream_IsInvalidHandle)
{
    Volume v = make(16, 1, 1);
    std::vector<unsigned char> host(16);
    CUDA_MEMCPY3D c = host_to_volume(host.data(), 16, 1, v);
    c.WidthInBytes = 16, c.Height = 1, c.Depth = 1;
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuStreamDestroy(s));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpy3DAsync(&c, s));
}

// ---- Peer copies: one device, so both contexts are of device 0 ----

TEST_F(Copy3D, PeerCopies_BetweenContextsOfTheOneDevice)
{
    CUdeviceptr a = 0, b = 0;
    ASSERT_OK(cuMemAlloc(&a, 4096));
    ASSERT_OK(cuMemAlloc(&b, 4096));
    memset((void *)(uintptr_t)a, 0x11, 4096);
    EXPECT_OK(cuMemcpyPeer(b, ctx, a, ctx, 4096));
    EXPECT_EQ(0x11, ((unsigned char *)(uintptr_t)b)[4095]);
    // A second context: the copy names both, and runs in the current one's stream.
    CUcontext other = nullptr;
    CUdevice dev = 0;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, dev));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    memset((void *)(uintptr_t)a, 0x22, 4096);
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_OK(cuMemcpyPeerAsync(b + 100, other, a, ctx, 100, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0x22, ((unsigned char *)(uintptr_t)b)[199]);
    EXPECT_EQ(0x11, ((unsigned char *)(uintptr_t)b)[200]);
    memset((void *)(uintptr_t)a, 0x33, 4096);
    EXPECT_OK(cuMemcpyPeer_ptds(b, ctx, a, other, 10));
    EXPECT_EQ(0x33, ((unsigned char *)(uintptr_t)b)[9]);
    // Bad contexts and pointers.
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyPeer(b, nullptr, a, ctx, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyPeer(b, ctx, a, nullptr, 16));
    ASSERT_OK(cuCtxDestroy(other));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    EXPECT_NE(CUDA_SUCCESS, cuMemcpyPeer(b, other, a, ctx, 16)); // a destroyed context
    std::vector<unsigned char> host(16);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b, ctx, (CUdeviceptr)(uintptr_t)host.data(), ctx, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b, ctx, a, ctx, 4097));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(a));
    EXPECT_OK(cuMemFree(b));
}

TEST_F(Copy3D, Peer3D_CopiesABoxBetweenContexts)
{
    Volume a = make(32, 4, 2), b = make(32, 4, 2);
    for (size_t z = 0; z < 2; ++z)
        for (size_t y = 0; y < 4; ++y)
            for (size_t x = 0; x < 32; ++x)
                *a.at(x, y, z) = pattern(x, y, z);
    CUDA_MEMCPY3D_PEER c = {};
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = a.p, c.srcPitch = a.pitch, c.srcHeight = 4, c.srcContext = ctx;
    c.dstDevice = b.p, c.dstPitch = b.pitch, c.dstHeight = 4, c.dstContext = ctx;
    c.srcY = 1, c.dstZ = 1;
    c.WidthInBytes = 32, c.Height = 3, c.Depth = 1;
    ASSERT_OK(cuMemcpy3DPeer(&c));
    EXPECT_EQ(0, memcmp(a.at(0, 1, 0), b.at(0, 0, 1), 32));
    EXPECT_EQ(0, memcmp(a.at(0, 3, 0), b.at(0, 2, 1), 32));
    EXPECT_EQ(0, *b.at(0, 0, 0));
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, 0));
    c.dstZ = 0;
    ASSERT_OK(cuMemcpy3DPeerAsync(&c, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0, memcmp(a.at(0, 1, 0), b.at(0, 0, 0), 32));
    c.srcContext = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpy3DPeer(&c));
    c.srcContext = ctx;
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY; // with no array (tests/array_test.cpp copies arrays)
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(&c));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(nullptr));
    EXPECT_OK(cuStreamDestroy(s));
}

// ---- Batches ----

namespace {
CUmemcpyAttributes attr(CUmemcpySrcAccessOrder order)
{
    CUmemcpyAttributes a = {};
    a.srcAccessOrder = order;
    return a;
}
} // namespace

TEST_F(Copy3D, Batch_CopiesEachPairWithItsAttributes)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 4096));
    memset((void *)(uintptr_t)d, 0, 4096);
    std::vector<unsigned char> h1(100, 1), h2(200, 2), h3(300, 3);
    CUdeviceptr dsts[3] = {d, d + 1000, d + 2000};
    CUdeviceptr srcs[3] = {(CUdeviceptr)(uintptr_t)h1.data(), (CUdeviceptr)(uintptr_t)h2.data(),
                           (CUdeviceptr)(uintptr_t)h3.data()};
    size_t sizes[3] = {100, 200, 300};
    CUmemcpyAttributes attrs[2] = {attr(CU_MEMCPY_SRC_ACCESS_ORDER_STREAM),
                                   attr(CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL)};
    size_t idxs[2] = {0, 1};
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 3, attrs, idxs, 2, s));
    // DURING_API_CALL: the sources of copies 1 and 2 are the caller's again at once.
    h2.assign(200, 0x77);
    h3.assign(300, 0x77);
    ASSERT_OK(cuStreamSynchronize(s));
    const unsigned char *p = (const unsigned char *)(uintptr_t)d;
    EXPECT_EQ(1, p[99]);
    EXPECT_EQ(0, p[100]);
    EXPECT_EQ(2, p[1000]);
    EXPECT_EQ(2, p[1199]);
    EXPECT_EQ(3, p[2299]);
    EXPECT_EQ(0, p[2300]);
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(d));
}

// A DURING_API_CALL source is read before the call returns, even where it is device memory
// and the stream is busy; a STREAM source is read in stream order.
TEST_F(Copy3D, Batch_DuringApiCallSources_AreReadAtTheCall)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 4096));
    unsigned char *p = (unsigned char *)(uintptr_t)d;
    memset(p, 0, 4096);
    memset(p, 1, 64); // the sources: [0, 64)
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    static std::atomic<bool> open{false};
    open = false;
    ASSERT_OK(cuLaunchHostFunc(
        s,
        [](void *) {
            while (!open.load())
                std::this_thread::yield();
        },
        nullptr));
    CUdeviceptr dsts[2] = {d + 1000, d + 2000};
    CUdeviceptr srcs[2] = {d, d};
    size_t sizes[2] = {64, 64};
    CUmemcpyAttributes attrs[2] = {attr(CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL),
                                   attr(CU_MEMCPY_SRC_ACCESS_ORDER_STREAM)};
    size_t idxs[2] = {0, 1};
    ASSERT_OK(cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, attrs, idxs, 2, s));
    memset(p, 2, 64); // after the call, before the stream reaches the copies
    open = true;
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(1, p[1000]);
    EXPECT_EQ(1, p[1063]);
    EXPECT_EQ(2, p[2000]);
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(d));
}

TEST_F(Copy3D, Batch_BadInput_IsInvalidValueAndQueuesNothing)
{
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, 4096));
    memset((void *)(uintptr_t)d, 0, 4096);
    std::vector<unsigned char> h(4096, 9);
    CUdeviceptr dsts[2] = {d, d + 4000};
    CUdeviceptr srcs[2] = {(CUdeviceptr)(uintptr_t)h.data(), (CUdeviceptr)(uintptr_t)h.data()};
    size_t sizes[2] = {16, 200}; // the second runs past the allocation
    CUmemcpyAttributes a[2] = {attr(CU_MEMCPY_SRC_ACCESS_ORDER_STREAM), attr(CU_MEMCPY_SRC_ACCESS_ORDER_ANY)};
    size_t idx[2] = {0, 1};
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, 0));
    size_t failIdx = 99;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync(dsts, srcs, sizes, 2, a, idx, 1, &failIdx, s));
    EXPECT_EQ(1u, failIdx);
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(0, ((unsigned char *)(uintptr_t)d)[0]); // the good first copy was not queued either
    sizes[1] = 16;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, idx, 1, nullptr));
    EXPECT_DETAIL_HAS("legacy NULL stream");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, idx, 1, CU_STREAM_LEGACY));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(nullptr, srcs, sizes, 2, a, idx, 1, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 0, a, idx, 1, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, nullptr, idx, 1, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, idx, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 1, a, idx, 2, s)); // numAttrs > count
    size_t bad_first[2] = {1, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, bad_first, 1, s));
    EXPECT_DETAIL_HAS("attrsIdxs[0]");
    size_t not_rising[2] = {0, 0};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, not_rising, 2, s));
    CUmemcpyAttributes bad = attr(CU_MEMCPY_SRC_ACCESS_ORDER_INVALID);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, idx, 1, s));
    EXPECT_DETAIL_HAS("srcAccessOrder");
    bad = attr(CU_MEMCPY_SRC_ACCESS_ORDER_STREAM);
    bad.flags = 2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, &bad, idx, 1, s));
    failIdx = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyBatchAsync(dsts, srcs, sizes, 2, &bad, idx, 1, &failIdx, s));
    EXPECT_EQ(SIZE_MAX, failIdx); // no one copy's fault
    // The per-thread stream is a stream a batch may use.
    EXPECT_OK(cuMemcpyBatchAsync_v2(dsts, srcs, sizes, 2, a, idx, 1, CU_STREAM_PER_THREAD));
    ASSERT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_EQ(9, ((unsigned char *)(uintptr_t)d)[4015]);
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuMemFree(d));
}

namespace {
CUmemcpy3DOperand ptr_operand(const void *p, size_t row, size_t layer)
{
    CUmemcpy3DOperand o = {};
    o.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    o.op.ptr.ptr = (CUdeviceptr)(uintptr_t)p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}
} // namespace

TEST_F(Copy3D, Batch3D_CopiesPitchedBoxesAndPackedOnes)
{
    Volume v = make(64, 4, 3);
    const size_t w = 10, h = 4, d = 3;
    std::vector<unsigned char> packed(w * h * d);
    for (size_t i = 0; i < packed.size(); ++i)
        packed[i] = (unsigned char)(i + 1);
    std::vector<unsigned char> back(w * h * d, 0);
    CUDA_MEMCPY3D_BATCH_OP ops[2] = {};
    ops[0].src = ptr_operand(packed.data(), 0, 0); // 0: packed to the extent
    ops[0].dst = ptr_operand((void *)(uintptr_t)v.p, v.pitch, v.h);
    ops[0].extent = {w, h, d};
    ops[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, ops, 0, s));
    ops[1].src = ptr_operand((void *)(uintptr_t)v.p, v.pitch, v.h);
    ops[1].dst = ptr_operand(back.data(), w, h);
    ops[1].extent = {w, h, d};
    ops[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, &ops[1], 0, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(packed, back);
    EXPECT_EQ(packed[w * h], *v.at(0, 0, 1));
    EXPECT_EQ(0, *v.at(w, 0, 0));

    size_t failIdx = 0;
    CUDA_MEMCPY3D_BATCH_OP bad[2] = {ops[0], ops[1]};
    bad[1].extent.depth = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync(2, bad, &failIdx, 0, s));
    EXPECT_EQ(1u, failIdx);
    bad[1] = ops[1];
    bad[1].dst.op.ptr.rowLength = w - 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync(2, bad, &failIdx, 0, s));
    EXPECT_DETAIL_HAS("rowLength");
    bad[1] = ops[1];
    bad[1].src.op.ptr.layerHeight = h - 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(2, bad, 0, s));
    bad[1] = ops[1];
    bad[1].src.type = CU_MEMCPY_OPERAND_TYPE_ARRAY; // op.array.array: NULL
    bad[1].src.op.array = {};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync(2, bad, &failIdx, 0, s));
    EXPECT_EQ(1u, failIdx);
    EXPECT_DETAIL_HAS("NULL");
    bad[1] = ops[1];
    bad[1].dst.type = (CUmemcpy3DOperandType)7;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(2, bad, 0, s));
    bad[1] = ops[1];
    bad[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_INVALID;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(2, bad, 0, s));
    bad[1] = ops[1];
    bad[1].dst.op.ptr.layerHeight = v.h * 10; // layers of 40 rows: the volume's side runs out
    bad[1].src = ptr_operand((void *)(uintptr_t)v.p, v.pitch, v.h * 10);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(2, bad, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(0, ops, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, nullptr, 0, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, ops, 1, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, ops, 0, nullptr));
    EXPECT_OK(cuStreamDestroy(s));
}

// texlod: array operands, as the H100's driver 580 answered them
// (docs/probes/kernels/texlod/batch.out): offsets, extents and a pointer's rowLength and
// layerHeight count the array's elements; a region past the array is INVALID_VALUE.
namespace {
CUmemcpy3DOperand array_operand(CUarray a, size_t x, size_t y, size_t z)
{
    CUmemcpy3DOperand o = {};
    o.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
    o.op.array.array = a;
    o.op.array.offset = {x, y, z};
    return o;
}
CUarray float2_array(size_t w, size_t h, size_t d)
{
    CUDA_ARRAY3D_DESCRIPTOR ad = {};
    ad.Width = w;
    ad.Height = h;
    ad.Depth = d;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 2;
    CUarray a = nullptr;
    EXPECT_EQ(CUDA_SUCCESS, cuArray3DCreate(&a, &ad));
    return a;
}
// The w x h floats2 of layer z of an array, row by row.
std::vector<float> read_array(CUarray a, size_t w, size_t h, size_t z)
{
    std::vector<float> out(w * h * 2, -1.0f);
    CUDA_MEMCPY3D m = {};
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = a;
    m.srcZ = z;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = out.data();
    m.dstPitch = w * 8;
    m.dstHeight = h;
    m.WidthInBytes = w * 8;
    m.Height = h;
    m.Depth = 1;
    EXPECT_EQ(CUDA_SUCCESS, cuMemcpy3D(&m));
    return out;
}
} // namespace

TEST_F(Copy3D, Batch3D_ArrayOperands_CountElementsAsTheDriverDoes)
{
    CUarray a = float2_array(16, 8, 0), b = float2_array(16, 8, 4);
    std::vector<float> h(16 * 8 * 4 * 2);
    for (size_t i = 0; i < h.size() / 2; ++i) {
        h[2 * i] = (float)i;
        h[2 * i + 1] = -(float)i;
    }
    CUdeviceptr d = 0;
    ASSERT_OK(cuMemAlloc(&d, h.size() * 4));
    ASSERT_OK(cuMemcpyHtoD(d, h.data(), h.size() * 4));
    CUstream s = nullptr;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    // pointer to array, the whole 16 x 8
    CUDA_MEMCPY3D_BATCH_OP op = {};
    op.src = ptr_operand((void *)(uintptr_t)d, 0, 0);
    op.dst = array_operand(a, 0, 0, 0);
    op.extent = {16, 8, 1};
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, &op, 0, s));
    ASSERT_OK(cuStreamSynchronize(s));
    std::vector<float> got = read_array(a, 16, 8, 0);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), h.begin()));
    EXPECT_EQ(17.0f, got[2 * 17]); // as the H100's a[17]
    // a sub-box at (3, 2) of 5 x 4 from rows of 20 elements
    ASSERT_OK(cuMemsetD8(d + h.size() * 2, 0, 8)); // nothing below is read from there
    CUarray a2 = float2_array(16, 8, 0);
    op.dst = array_operand(a2, 3, 2, 0);
    op.src = ptr_operand((void *)(uintptr_t)d, 20, 0);
    op.extent = {5, 4, 1};
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, &op, 0, s));
    ASSERT_OK(cuStreamSynchronize(s));
    got = read_array(a2, 16, 8, 0);
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 5; ++x)
            EXPECT_EQ(h[2 * (y * 20 + x)], got[2 * ((y + 2) * 16 + x + 3)]) << x << "," << y;
    // array to array: a at (1, 1) to layer 2 of b at (2, 3), 7 x 5
    op.src = array_operand(a, 1, 1, 0);
    op.dst = array_operand(b, 2, 3, 2);
    op.extent = {7, 5, 1};
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, &op, 0, s));
    ASSERT_OK(cuStreamSynchronize(s));
    got = read_array(b, 16, 8, 2);
    EXPECT_EQ(h[2 * (1 * 16 + 1)], got[2 * (3 * 16 + 2)]);
    EXPECT_EQ(h[2 * (5 * 16 + 7)], got[2 * (7 * 16 + 8)]);
    // array to host, layers of b with rowLength 32 and layerHeight 16 into host memory
    std::vector<float> back(32 * 16 * 3 * 2, 5.0f);
    op.src = array_operand(b, 0, 0, 1);
    op.dst = ptr_operand(back.data(), 32, 16);
    op.extent = {16, 8, 3};
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    ASSERT_OK(cuMemcpy3DBatchAsync_v2(1, &op, 0, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_EQ(h[2 * (1 * 16 + 1)], back[2 * (32 * 16 + 3 * 32 + 2)]); // layer 2 of b is layer 1 here
    EXPECT_EQ(5.0f, back[2 * 16]);                                     // past the width: untouched
    // the driver's INVALID_VALUE cases
    size_t failIdx = 0;
    CUDA_MEMCPY3D_BATCH_OP bad = {};
    bad.src = ptr_operand((void *)(uintptr_t)d, 0, 0);
    bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    bad.dst = array_operand(a, 10, 0, 0);
    bad.extent = {8, 8, 1}; // x 10 + 8 > 16
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync(1, &bad, &failIdx, 0, s));
    EXPECT_EQ(0u, failIdx);
    bad.dst = array_operand(a, 0, 0, 0);
    bad.extent = {16, 8, 2}; // two layers of a 2D array
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    bad.dst = array_operand(a, 0, 0, 1);
    bad.extent = {16, 8, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    bad.dst = ptr_operand((void *)(uintptr_t)d, 8, 0); // rowLength below the width
    bad.src = array_operand(a, 0, 0, 0);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    EXPECT_DETAIL_HAS("rowLength");
    bad.src = array_operand(b, 0, 0, 3);
    bad.dst = array_operand(b, 0, 0, 0);
    bad.extent = {16, 8, 2}; // layers 3 and 4 of 4
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    bad.src = array_operand(nullptr, 0, 0, 0); // the driver crashes on it
    bad.extent = {16, 8, 1};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    bad.src = array_operand((CUarray)(uintptr_t)0x123456, 0, 0, 0); // forged
    EXPECT_NE(CUDA_SUCCESS, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    // arrays of different element sizes
    CUDA_ARRAY3D_DESCRIPTOR ad = {};
    ad.Width = 16;
    ad.Height = 8;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 1;
    CUarray c = nullptr;
    ASSERT_OK(cuArray3DCreate(&c, &ad));
    bad.src = array_operand(a, 0, 0, 0);
    bad.dst = array_operand(c, 0, 0, 0);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DBatchAsync_v2(1, &bad, 0, s));
    EXPECT_OK(cuArrayDestroy(c));
    // the runtime's, with an array operand
    cudaMemcpy3DBatchOp rop = {};
    rop.src.type = cudaMemcpyOperandTypePointer;
    rop.src.op.ptr.ptr = (void *)(uintptr_t)d;
    rop.dst.type = cudaMemcpyOperandTypeArray;
    rop.dst.op.array.array = (cudaArray_t)a2;
    rop.extent = make_cudaExtent(16, 8, 1);
    rop.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    EXPECT_EQ(cudaSuccess, cudaMemcpy3DBatchAsync(1, &rop, 0, (cudaStream_t)s));
    ASSERT_OK(cuStreamSynchronize(s));
    got = read_array(a2, 16, 8, 0);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), h.begin()));
    EXPECT_OK(cuStreamDestroy(s));
    EXPECT_OK(cuArrayDestroy(a));
    EXPECT_OK(cuArrayDestroy(a2));
    EXPECT_OK(cuArrayDestroy(b));
    EXPECT_OK(cuMemFree(d));
}

// ---- The runtime ----

TEST_F(Copy3D, Runtime_PitchedAllocations_AsTheH100Pads)
{
    void *p = nullptr;
    size_t pitch = 0;
    EXPECT_EQ(cudaSuccess, cudaMallocPitch(&p, &pitch, 100, 10));
    EXPECT_EQ(512u, pitch);
    EXPECT_EQ(cudaSuccess, cudaFree(p));
    EXPECT_EQ(cudaSuccess, cudaMallocPitch(&p, &pitch, 513, 10));
    EXPECT_EQ(1024u, pitch);
    EXPECT_EQ(cudaSuccess, cudaFree(p));
    EXPECT_EQ(cudaSuccess, cudaMallocPitch(&p, &pitch, 0, 10));
    EXPECT_EQ(0u, pitch);
    EXPECT_EQ(nullptr, p);
    EXPECT_EQ(cudaErrorInvalidValue, cudaMallocPitch(nullptr, &pitch, 100, 10));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMallocPitch(&p, nullptr, 100, 10));
    cudaPitchedPtr p3 = {};
    EXPECT_EQ(cudaSuccess, cudaMalloc3D(&p3, make_cudaExtent(100, 4, 3)));
    EXPECT_EQ(512u, p3.pitch);
    EXPECT_EQ(100u, p3.xsize);
    EXPECT_EQ(4u, p3.ysize);
    ASSERT_NE(nullptr, p3.ptr);
    memset(p3.ptr, 1, 512 * 12); // all 12 rows are there
    EXPECT_EQ(cudaSuccess, cudaFree(p3.ptr));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMalloc3D(nullptr, make_cudaExtent(1, 1, 1)));
    EXPECT_EQ(cudaErrorMemoryAllocation, cudaMalloc3D(&p3, make_cudaExtent(1, SIZE_MAX / 2, 4)));
    cudaGetLastError();
}

TEST_F(Copy3D, Runtime_Memcpy2DAndMemset2D)
{
    void *p = nullptr;
    size_t pitch = 0;
    ASSERT_EQ(cudaSuccess, cudaMallocPitch(&p, &pitch, 50, 6));
    EXPECT_EQ(cudaSuccess, cudaMemset2D(p, pitch, 0xab, 50, 6));
    EXPECT_EQ(0xab, ((unsigned char *)p)[5 * pitch + 49]);
    EXPECT_EQ(0, ((unsigned char *)p)[5 * pitch + 50]);
    std::vector<unsigned char> host(20 * 6);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (unsigned char)i;
    EXPECT_EQ(cudaSuccess, cudaMemcpy2D(p, pitch, host.data(), 20, 20, 6, cudaMemcpyHostToDevice));
    EXPECT_EQ(0, memcmp((unsigned char *)p + 3 * pitch, &host[60], 20));
    EXPECT_EQ(0xab, ((unsigned char *)p)[3 * pitch + 20]);
    std::vector<unsigned char> back(30 * 6, 0);
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    EXPECT_EQ(cudaSuccess, cudaMemset2DAsync(p, pitch, 1, 5, 6, s));
    EXPECT_EQ(cudaSuccess, cudaMemcpy2DAsync(back.data(), 30, p, pitch, 30, 6, cudaMemcpyDeviceToHost, s));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    EXPECT_EQ(1, back[5 * 30 + 4]);
    EXPECT_EQ(host[5 * 20 + 5], back[5 * 30 + 5]);
    EXPECT_EQ(0xab, back[5 * 30 + 29]);
    EXPECT_EQ(cudaSuccess, cudaMemcpy2D_ptds(back.data(), 30, p, pitch, 30, 6, cudaMemcpyDefault));
    EXPECT_EQ(cudaSuccess, cudaMemset2D_ptds(p, pitch, 2, 1, 1));
    EXPECT_EQ(2, ((unsigned char *)p)[0]);
    // Bad input.
    EXPECT_EQ(cudaSuccess, cudaMemcpy2D(p, pitch, host.data(), 20, 0, 6, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaErrorInvalidPitchValue, cudaMemcpy2D(p, pitch, host.data(), 19, 20, 6, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaErrorInvalidPitchValue,
              cudaMemcpy2D(p, (size_t)1 << 32, host.data(), 20, 20, 6, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaErrorInvalidMemcpyDirection,
              cudaMemcpy2D(p, pitch, host.data(), 20, 20, 6, (cudaMemcpyKind)7));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy2D(host.data(), 20, p, pitch, 20, 6, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy2D(nullptr, 20, p, pitch, 20, 6, cudaMemcpyDeviceToHost));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy2D(p, pitch, host.data(), 20, 20, 7, cudaMemcpyHostToDevice));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemset2D(host.data(), 20, 0, 20, 2));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemset2D(nullptr, 20, 0, 20, 2));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemset2D(p, 10, 0, 20, 2));
    EXPECT_EQ(cudaSuccess, cudaMemset2D(nullptr, 20, 0, 0, 2));
    EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
    EXPECT_EQ(cudaSuccess, cudaFree(p));
    cudaGetLastError();
}

TEST_F(Copy3D, Runtime_Memcpy3DAndMemset3D)
{
    cudaPitchedPtr v = {};
    ASSERT_EQ(cudaSuccess, cudaMalloc3D(&v, make_cudaExtent(30, 4, 3)));
    EXPECT_EQ(cudaSuccess, cudaMemset3D(v, 0, make_cudaExtent(v.pitch, 4, 3)));
    EXPECT_EQ(cudaSuccess, cudaMemset3D(v, 5, make_cudaExtent(30, 2, 3))); // layers of 4 rows, 2 filled
    unsigned char *b = (unsigned char *)v.ptr;
    EXPECT_EQ(5, b[(2 * 4 + 1) * v.pitch + 29]);
    EXPECT_EQ(0, b[(2 * 4 + 2) * v.pitch]);
    EXPECT_EQ(0, b[(1 * 4 + 1) * v.pitch + 30]);
    std::vector<unsigned char> host(8 * 2 * 2);
    for (size_t i = 0; i < host.size(); ++i)
        host[i] = (unsigned char)(100 + i);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host.data(), 8, 8, 2);
    p.dstPtr = v;
    p.dstPos = make_cudaPos(3, 1, 1);
    p.extent = make_cudaExtent(8, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    EXPECT_EQ(cudaSuccess, cudaMemcpy3D(&p));
    EXPECT_EQ(100, b[(1 * 4 + 1) * v.pitch + 3]);
    EXPECT_EQ(100 + 31, b[(2 * 4 + 2) * v.pitch + 10]);
    std::vector<unsigned char> back(host.size(), 0);
    cudaMemcpy3DParms q = {};
    q.srcPtr = v;
    q.srcPos = make_cudaPos(3, 1, 1);
    q.dstPtr = make_cudaPitchedPtr(back.data(), 8, 8, 2);
    q.extent = make_cudaExtent(8, 2, 2);
    q.kind = cudaMemcpyDefault;
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    EXPECT_EQ(cudaSuccess, cudaMemset3DAsync(v, 9, make_cudaExtent(1, 1, 1), s));
    EXPECT_EQ(cudaSuccess, cudaMemcpy3DAsync(&q, s));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    EXPECT_EQ(host, back);
    EXPECT_EQ(9, b[0]);
    EXPECT_EQ(cudaSuccess, cudaMemcpy3D_ptds(&q));
    EXPECT_EQ(cudaSuccess, cudaMemset3D_ptds(v, 4, make_cudaExtent(2, 1, 1)));
    EXPECT_EQ(4, b[1]);
    // Bad input.
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3D(nullptr));
    cudaMemcpy3DParms r = p;
    r.kind = (cudaMemcpyKind)9;
    EXPECT_EQ(cudaErrorInvalidMemcpyDirection, cudaMemcpy3D(&r));
    r = p;
    r.srcArray = (cudaArray_t)(uintptr_t)0x10;
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3D(&r)); // an array and a pointer
    r.srcPtr.ptr = nullptr;
    EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaMemcpy3D(&r)); // a forged array
    r = p;
    r.dstPtr.ptr = nullptr;
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3D(&r)); // neither
    r = p;
    r.kind = cudaMemcpyDeviceToHost; // the addresses contradict the kind
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3D(&r));
    r = p;
    r.dstPos.z = 2; // two layers from layer 2 run past the allocation
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3D(&r));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemset3D(v, 0, make_cudaExtent(30, 5, 2))); // layers overlap
    cudaPitchedPtr none = v;
    none.ptr = nullptr;
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemset3D(none, 0, make_cudaExtent(1, 1, 1)));
    EXPECT_EQ(cudaSuccess, cudaMemset3D(none, 0, make_cudaExtent(0, 1, 1)));
    EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
    EXPECT_EQ(cudaSuccess, cudaFree(v.ptr));
    cudaGetLastError();
}

TEST_F(Copy3D, Runtime_PeerCopies_OnTheOneDevice)
{
    void *d = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d, 4096));
    memset(d, 0, 4096);
    memset((char *)d + 100, 0x5e, 16);
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    EXPECT_EQ(cudaSuccess, cudaMemcpyPeerAsync(d, 0, (char *)d + 100, 0, 16, s)); // probe.out 471
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    EXPECT_EQ(0x5e, ((unsigned char *)d)[15]);
    EXPECT_EQ(cudaSuccess, cudaMemcpyPeer((char *)d + 200, 0, (char *)d + 100, 0, 16)); // 472
    EXPECT_EQ(0x5e, ((unsigned char *)d)[215]);
    EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpyPeer(d, 1, (char *)d + 100, 0, 16));
    EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpyPeer(d, 0, (char *)d + 100, -1, 16));
    cudaMemcpy3DPeerParms p = {};
    p.srcPtr = make_cudaPitchedPtr((char *)d + 100, 16, 16, 1);
    p.dstPtr = make_cudaPitchedPtr((char *)d + 1000, 16, 16, 1);
    p.extent = make_cudaExtent(16, 1, 1);
    EXPECT_EQ(cudaSuccess, cudaMemcpy3DPeer(&p));
    EXPECT_EQ(0x5e, ((unsigned char *)d)[1015]);
    EXPECT_EQ(cudaSuccess, cudaMemcpy3DPeerAsync(&p, s));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    p.dstDevice = 3;
    EXPECT_EQ(cudaErrorInvalidDevice, cudaMemcpy3DPeer(&p));
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpy3DPeer(nullptr));
    EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
    EXPECT_EQ(cudaSuccess, cudaFree(d));
    cudaGetLastError();
}

TEST_F(Copy3D, Runtime_Batches)
{
    void *d = nullptr;
    ASSERT_EQ(cudaSuccess, cudaMalloc(&d, 4096));
    memset(d, 0, 4096);
    std::vector<unsigned char> h(64, 0x21);
    void *dsts[2] = {d, (char *)d + 64};
    const void *srcs[2] = {h.data(), h.data()};
    size_t sizes[2] = {64, 32};
    cudaMemcpyAttributes a = {};
    a.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t idx = 0;
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreate(&s));
    EXPECT_EQ(cudaSuccess, cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &a, &idx, 1, s));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    EXPECT_EQ(0x21, ((unsigned char *)d)[95]);
    EXPECT_EQ(0, ((unsigned char *)d)[96]);
    EXPECT_EQ(cudaErrorInvalidValue, cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &a, &idx, 1, nullptr));
    cudaMemcpy3DBatchOp op = {};
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = h.data();
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = (char *)d + 1000;
    op.dst.op.ptr.rowLength = 100;
    op.extent = make_cudaExtent(8, 4, 2);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
    EXPECT_EQ(cudaSuccess, cudaMemcpy3DBatchAsync(1, &op, 0, s));
    EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(s));
    EXPECT_EQ(0x21, ((unsigned char *)d)[1000 + 7 * 100 + 7]);
    EXPECT_EQ(0, ((unsigned char *)d)[1000 + 7 * 100 + 8]);
    op.dst.type = cudaMemcpyOperandTypeArray; // op.array.array aliases the pointer: no array
    EXPECT_NE(cudaSuccess, cudaMemcpy3DBatchAsync(1, &op, 0, s));
    EXPECT_EQ(cudaSuccess, cudaStreamDestroy(s));
    EXPECT_EQ(cudaSuccess, cudaFree(d));
    cudaGetLastError();
}
