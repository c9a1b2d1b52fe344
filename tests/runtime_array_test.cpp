// CUDA arrays through the runtime (src/runtime/array.c): channel descriptors and the formats
// they map to, the array and mipmapped-array calls, and every copy with an array on either side,
// checked against memcpy of the same bytes. The driver's side is tests/array_test.cpp.
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"
#include "extmem/driver_functions.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

::testing::AssertionResult rt_equal(const char *, const char *call_text, cudaError_t expected, cudaError_t actual)
{
    if (expected == actual)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << call_text << " returned " << cudaGetErrorName(actual) << " ("
                                         << (int)actual << "), expected " << cudaGetErrorName(expected)
                                         << "; detail: " << extmem_error_detail();
}
#define EXPECT_RT(expected, call) EXPECT_PRED_FORMAT2(rt_equal, expected, call)
#define ASSERT_RT(expected, call) ASSERT_PRED_FORMAT2(rt_equal, expected, call)
#define EXPECT_RT_OK(call) EXPECT_RT(cudaSuccess, call)
#define ASSERT_RT_OK(call) ASSERT_RT(cudaSuccess, call)

void fill_pattern(std::vector<unsigned char> &v, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (auto &b : v) {
        x = x * 1664525u + 1013904223u;
        b = (unsigned char)(x >> 24);
    }
}

class RuntimeArray : public ::testing::Test {
protected:
    void TearDown() override
    {
        for (cudaArray_t a : arrays)
            cudaFreeArray(a);
        for (cudaMipmappedArray_t m : mipmaps)
            cudaFreeMipmappedArray(m);
        cudaGetLastError();
    }
    cudaArray_t make(cudaChannelFormatDesc d, size_t w, size_t h, size_t depth = 0, unsigned flags = 0)
    {
        cudaArray_t a = nullptr;
        EXPECT_RT_OK(depth || flags ? cudaMalloc3DArray(&a, &d, make_cudaExtent(w, h, depth), flags)
                                    : cudaMallocArray(&a, &d, w, h));
        if (a)
            arrays.push_back(a);
        return a;
    }
    std::vector<cudaArray_t> arrays;
    std::vector<cudaMipmappedArray_t> mipmaps;
};

} // namespace

// ---- Channel descriptors ----

TEST_F(RuntimeArray, ChannelDescriptors_MakeArraysAndReadBackTheSame)
{
    const cudaChannelFormatDesc descs[] = {
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned),
        cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned),
        cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat),
        cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat),
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned),
        cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsignedNormalized8X2),
        cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindSignedNormalized16X4),
        cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1),
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSignedBlockCompressed4),
        cudaCreateChannelDesc(16, 16, 16, 0, cudaChannelFormatKindUnsignedBlockCompressed6H),
        cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed7SRGB),
        cudaCreateChannelDesc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102),
    };
    for (const cudaChannelFormatDesc &d : descs) {
        cudaArray_t a = make(d, 64, 16);
        cudaChannelFormatDesc g;
        memset(&g, 0xee, sizeof(g));
        ASSERT_RT_OK(cudaGetChannelDesc(&g, a));
        EXPECT_EQ(0, memcmp(&g, &d, sizeof(d))) << "kind " << (int)d.f << " x " << d.x;
        cudaExtent e;
        unsigned flags = 99;
        memset(&g, 0, sizeof(g));
        ASSERT_RT_OK(cudaArrayGetInfo(&g, &e, &flags, a));
        EXPECT_EQ(64u, e.width);
        EXPECT_EQ(16u, e.height);
        EXPECT_EQ(0u, e.depth);
        EXPECT_EQ(0u, flags);
        EXPECT_EQ(d.f, g.f);
        EXPECT_RT_OK(cudaArrayGetInfo(nullptr, nullptr, nullptr, a));
    }
}

TEST_F(RuntimeArray, BadChannelDescriptors_AreInvalidChannelDescriptor)
{
    const cudaChannelFormatDesc bad[] = {
        cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned),  // 3 channels
        cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned), // unequal bits
        cudaCreateChannelDesc(8, 0, 8, 0, cudaChannelFormatKindUnsigned),  // a gap
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat),     // an 8-bit float
        cudaCreateChannelDesc(64, 0, 0, 0, cudaChannelFormatKindSigned),
        cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindUnsigned),
        cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindNone),
        cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed4), // BC4 has one
        cudaCreateChannelDesc(8, 0, 0, 0, (cudaChannelFormatKind)77),
    };
    for (const cudaChannelFormatDesc &d : bad) {
        cudaArray_t a = (cudaArray_t)(uintptr_t)1;
        EXPECT_RT(cudaErrorInvalidChannelDescriptor, cudaMallocArray(&a, &d, 16, 16));
        EXPECT_EQ(nullptr, a);
        cudaMipmappedArray_t m;
        EXPECT_RT(cudaErrorInvalidChannelDescriptor, cudaMallocMipmappedArray(&m, &d, make_cudaExtent(16, 16, 0), 2));
    }
}

// ---- Arrays ----

TEST_F(RuntimeArray, MallocArrays_BadInputHasTheDriversCodes)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a = nullptr;
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocArray(nullptr, &f, 16, 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocArray(&a, nullptr, 16, 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocArray(&a, &f, 0, 16));
    EXPECT_RT(cudaErrorInvalidValue, cudaMallocArray(&a, &f, 131073, 0));
    EXPECT_RT(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &f, make_cudaExtent(16, 8, 6), cudaArrayCubemap));
    EXPECT_RT(cudaErrorNotSupported, cudaMalloc3DArray(&a, &f, make_cudaExtent(16, 16, 0), cudaArraySparse));
    EXPECT_RT(cudaErrorInvalidValue, cudaMalloc3DArray(&a, &f, make_cudaExtent(16, 16, 0), 0x200));
    EXPECT_RT_OK(cudaFreeArray(nullptr));
    EXPECT_RT_OK(cudaFreeMipmappedArray(nullptr));
    ASSERT_RT_OK(cudaMallocArray(&a, &f, 16, 16));
    ASSERT_RT_OK(cudaFreeArray(a));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaFreeArray(a));
    cudaChannelFormatDesc g;
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetChannelDesc(&g, a));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetChannelDesc(nullptr, a));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaArrayGetInfo(&g, nullptr, nullptr, (cudaArray_t)(uintptr_t)0x1234));
}

TEST_F(RuntimeArray, LayeredCubemapAnd3DArrays_ReportTheirExtentAndFlags)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    struct Case {
        cudaExtent e;
        unsigned flags;
    } cases[] = {{make_cudaExtent(32, 0, 5), cudaArrayLayered},
                 {make_cudaExtent(32, 16, 5), cudaArrayLayered | cudaArraySurfaceLoadStore},
                 {make_cudaExtent(16, 16, 6), cudaArrayCubemap},
                 {make_cudaExtent(16, 16, 12), cudaArrayCubemap | cudaArrayLayered},
                 {make_cudaExtent(16, 8, 4), 0},
                 {make_cudaExtent(16, 8, 0), cudaArrayTextureGather}};
    for (const Case &c : cases) {
        cudaArray_t a = nullptr;
        ASSERT_RT_OK(cudaMalloc3DArray(&a, &f, c.e, c.flags));
        arrays.push_back(a);
        cudaExtent e;
        unsigned flags;
        ASSERT_RT_OK(cudaArrayGetInfo(nullptr, &e, &flags, a));
        EXPECT_EQ(c.e.width, e.width);
        EXPECT_EQ(c.e.height, e.height);
        EXPECT_EQ(c.e.depth, e.depth);
        EXPECT_EQ(c.flags, flags);
    }
}

TEST_F(RuntimeArray, Nv12_IsAVideoArrayWithPlanes)
{
    cudaChannelFormatDesc nv12 = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindNV12);
    cudaArray_t a = make(nv12, 64, 32);
    cudaArray_t y = nullptr, uv = nullptr;
    ASSERT_RT_OK(cudaArrayGetPlane(&y, a, 0));
    ASSERT_RT_OK(cudaArrayGetPlane(&uv, a, 1));
    cudaChannelFormatDesc g;
    cudaExtent e;
    ASSERT_RT_OK(cudaArrayGetInfo(&g, &e, nullptr, uv));
    EXPECT_EQ(32u, e.width);
    EXPECT_EQ(16u, e.height);
    EXPECT_EQ(8, g.x);
    EXPECT_EQ(8, g.y);
    EXPECT_EQ(cudaChannelFormatKindUnsigned, g.f);
    cudaArray_t none;
    EXPECT_RT(cudaErrorInvalidValue, cudaArrayGetPlane(&none, a, 2));
    ASSERT_RT_OK(cudaGetChannelDesc(&g, a));
    EXPECT_EQ(0, memcmp(&g, &nv12, sizeof(g)));
}

TEST_F(RuntimeArray, MemoryRequirementsAndSparseProperties)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    cudaArray_t plain = make(f, 64, 64), deferred = make(f, 64, 64, 0, cudaArrayDeferredMapping);
    cudaArrayMemoryRequirements r;
    EXPECT_RT(cudaErrorInvalidValue, cudaArrayGetMemoryRequirements(&r, plain, 0));
    ASSERT_RT_OK(cudaArrayGetMemoryRequirements(&r, deferred, 0));
    EXPECT_EQ(65536u, r.size);
    EXPECT_EQ(65536u, r.alignment);
    EXPECT_RT(cudaErrorInvalidDevice, cudaArrayGetMemoryRequirements(&r, deferred, 1));
    cudaArraySparseProperties sp;
    EXPECT_RT(cudaErrorInvalidValue, cudaArrayGetSparseProperties(&sp, plain));
    cudaMipmappedArray_t m = nullptr;
    ASSERT_RT_OK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(64, 32, 0), 3, cudaArrayDeferredMapping));
    mipmaps.push_back(m);
    ASSERT_RT_OK(cudaMipmappedArrayGetMemoryRequirements(&r, m, 0));
    EXPECT_EQ(65536u, r.size);
    EXPECT_RT(cudaErrorInvalidValue, cudaMipmappedArrayGetSparseProperties(&sp, m));
}

TEST_F(RuntimeArray, MipmappedArray_LevelsAreArraysThatCopy)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaMipmappedArray_t m = nullptr;
    ASSERT_RT_OK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(32, 16, 0), 4));
    for (unsigned l = 0; l < 4; ++l) {
        cudaArray_t lv = nullptr;
        ASSERT_RT_OK(cudaGetMipmappedArrayLevel(&lv, m, l));
        cudaExtent e;
        ASSERT_RT_OK(cudaArrayGetInfo(nullptr, &e, nullptr, lv));
        EXPECT_EQ(32u >> l, e.width);
        EXPECT_EQ(16u >> l, e.height);
        std::vector<unsigned char> in(e.width * 2 * e.height), out(in.size());
        fill_pattern(in, l + 1);
        ASSERT_RT_OK(cudaMemcpy2DToArray(lv, 0, 0, in.data(), e.width * 2, e.width * 2, e.height,
                                         cudaMemcpyHostToDevice));
        ASSERT_RT_OK(cudaMemcpy2DFromArray(out.data(), e.width * 2, lv, 0, 0, e.width * 2, e.height,
                                           cudaMemcpyDeviceToHost));
        EXPECT_TRUE(in == out);
    }
    cudaArray_t lv;
    EXPECT_RT(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(&lv, m, 4));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(nullptr, m, 0));
    ASSERT_RT_OK(cudaFreeMipmappedArray(m));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetMipmappedArrayLevel(&lv, m, 0));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaFreeMipmappedArray(m));
}

// ---- Copies ----

TEST_F(RuntimeArray, Copies2D_EveryFormAndOrder_MatchMemcpy)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
    const size_t W = 23, H = 9, RB = W * 8, P = 200;
    cudaArray_t a = make(f, W, H), b = make(f, W, H);
    std::vector<unsigned char> in(P * H), out(P * H, 0), expect(P * H, 0);
    fill_pattern(in, 5);
    void *dev = nullptr;
    size_t dpitch = 0;
    ASSERT_RT_OK(cudaMallocPitch(&dev, &dpitch, RB, H));
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    // host -> a (sync), a -> b (array to array, per-thread form), b -> device (async on s),
    // device -> a at an offset (async per-thread stream), a -> host.
    ASSERT_RT_OK(cudaMemcpy2DToArray(a, 0, 0, in.data(), P, RB, H, cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaMemcpy2DArrayToArray_ptds(b, 0, 0, a, 0, 0, RB, H, cudaMemcpyDeviceToDevice));
    ASSERT_RT_OK(cudaMemcpy2DFromArrayAsync(dev, dpitch, b, 0, 0, RB, H, cudaMemcpyDeviceToDevice, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    for (size_t y = 0; y < H; ++y)
        EXPECT_EQ(0, memcmp((unsigned char *)dev + y * dpitch, &in[y * P], RB)) << "row " << y;
    ASSERT_RT_OK(cudaMemcpy2DToArrayAsync_ptsz(a, 8, 2, dev, dpitch, RB - 8, H - 2, cudaMemcpyDefault, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(cudaStreamPerThread));
    expect = in;
    for (size_t y = 2; y < H; ++y)
        memcpy(&expect[y * P + 8], &in[(y - 2) * P], RB - 8);
    ASSERT_RT_OK(cudaMemcpy2DFromArray_ptds(out.data(), P, a, 0, 0, RB, H, cudaMemcpyDeviceToHost));
    for (size_t y = 0; y < H; ++y)
        EXPECT_EQ(0, memcmp(&out[y * P], &expect[y * P], RB)) << "row " << y;
    // The same through the remaining forms.
    std::fill(out.begin(), out.end(), 0);
    ASSERT_RT_OK(cudaMemcpy2DToArray_ptds(b, 0, 0, in.data(), P, RB, H, cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaMemcpy2DArrayToArray(a, 0, 0, b, 0, 0, RB, H));
    ASSERT_RT_OK(cudaMemcpy2DFromArrayAsync_ptsz(out.data(), P, a, 0, 0, RB, H, cudaMemcpyDeviceToHost, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(cudaStreamPerThread));
    for (size_t y = 0; y < H; ++y)
        EXPECT_EQ(0, memcmp(&out[y * P], &in[y * P], RB)) << "row " << y;
    EXPECT_RT_OK(cudaStreamDestroy(s));
    EXPECT_RT_OK(cudaFree(dev));
}

TEST_F(RuntimeArray, Copies2D_BadInput)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = make(f, 64, 4);
    std::vector<unsigned char> buf(1024);
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaMemcpy2DToArray(a, 0, 0, buf.data(), 64, 64, 4, cudaMemcpyDeviceToHost));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaMemcpy2DFromArray(buf.data(), 64, a, 0, 0, 64, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection,
              cudaMemcpy2DToArray(a, 0, 0, buf.data(), 64, 64, 4, (cudaMemcpyKind)9));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpy2DArrayToArray(a, 0, 0, a, 0, 0, 8, 1, cudaMemcpyHostToHost));
    EXPECT_RT(cudaErrorInvalidPitchValue, cudaMemcpy2DToArray(a, 0, 0, buf.data(), 32, 64, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 1, 0, buf.data(), 64, 64, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 0, 1, buf.data(), 64, 64, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy2DToArray(nullptr, 0, 0, buf.data(), 64, 64, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 0, 0, nullptr, 64, 64, 4, cudaMemcpyHostToDevice));
    // A host pointer named device memory.
    EXPECT_RT(cudaErrorInvalidValue,
              cudaMemcpy2DToArray(a, 0, 0, buf.data(), 64, 64, 4, cudaMemcpyDeviceToDevice));
    EXPECT_RT_OK(cudaMemcpy2DToArray(a, 0, 0, buf.data(), 64, 0, 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidResourceHandle,
              cudaMemcpy2DToArray((cudaArray_t)(uintptr_t)0x4321, 0, 0, buf.data(), 64, 64, 4, cudaMemcpyHostToDevice));
}

TEST_F(RuntimeArray, DeprecatedLinearForms_RunThroughTheRows)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    const size_t W = 10, H = 6, RB = W * 4;
    cudaArray_t a = make(f, W, H), b = make(f, W + 3, H);
    std::vector<unsigned char> in(RB * H), out(RB * H, 0), whole(RB * H);
    fill_pattern(in, 9);
    // 100 bytes from (12, 1): the rest of row 1, all of row 2, the start of row 3.
    ASSERT_RT_OK(cudaMemcpyToArray(a, 12, 1, in.data(), 100, cudaMemcpyHostToDevice));
    std::vector<unsigned char> expect(RB * H, 0);
    memcpy(&expect[RB + 12], in.data(), 100);
    ASSERT_RT_OK(cudaMemcpy2DFromArray(whole.data(), RB, a, 0, 0, RB, H, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(whole == expect);
    ASSERT_RT_OK(cudaMemcpyFromArray(out.data(), a, 12, 1, 100, cudaMemcpyDeviceToHost));
    EXPECT_EQ(0, memcmp(out.data(), in.data(), 100));
    // Array to array with rows of different lengths: the bytes in row-major order are the same.
    ASSERT_RT_OK(cudaMemcpyArrayToArray(b, 5, 0, a, 0, 0, RB * H));
    std::vector<unsigned char> bl(RB * H);
    ASSERT_RT_OK(cudaMemcpyFromArray(bl.data(), b, 5, 0, RB * H, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(bl == expect);
    // Async and per-thread forms.
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    ASSERT_RT_OK(cudaMemcpyToArrayAsync(a, 0, 0, in.data(), RB * H, cudaMemcpyHostToDevice, s));
    std::fill(out.begin(), out.end(), 0);
    ASSERT_RT_OK(cudaMemcpyFromArrayAsync(out.data(), a, 0, 0, RB * H, cudaMemcpyDeviceToHost, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    EXPECT_TRUE(out == in);
    ASSERT_RT_OK(cudaMemcpyToArray_ptds(a, 4, 0, in.data(), 8, cudaMemcpyHostToDevice));
    ASSERT_RT_OK(cudaMemcpyArrayToArray_ptds(b, 0, 0, a, 4, 0, 8, cudaMemcpyDeviceToDevice));
    ASSERT_RT_OK(cudaMemcpyToArrayAsync_ptsz(a, 0, 0, in.data() + 8, 8, cudaMemcpyHostToDevice, nullptr));
    std::fill(out.begin(), out.end(), 0);
    ASSERT_RT_OK(cudaMemcpyFromArrayAsync_ptsz(out.data(), a, 0, 0, 8, cudaMemcpyDeviceToHost, nullptr));
    ASSERT_RT_OK(cudaStreamSynchronize(cudaStreamPerThread));
    EXPECT_EQ(0, memcmp(out.data(), in.data() + 8, 8));
    ASSERT_RT_OK(cudaMemcpyFromArray_ptds(out.data(), b, 0, 0, 8, cudaMemcpyDeviceToHost));
    EXPECT_EQ(0, memcmp(out.data(), in.data(), 8));
    // Past the end, a row offset past the row, a contradicting kind.
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpyToArray(a, 0, 0, in.data(), RB * H + 1, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpyToArray(a, RB, 0, in.data(), 4, cudaMemcpyHostToDevice));
    EXPECT_RT(cudaErrorInvalidMemcpyDirection, cudaMemcpyFromArray(out.data(), a, 0, 0, 4, cudaMemcpyHostToDevice));
    EXPECT_RT_OK(cudaStreamDestroy(s));
}

TEST_F(RuntimeArray, Memcpy3D_CountsAnArraysPositionsAndWidthInElements)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    const size_t W = 12, H = 5, D = 3;
    cudaArray_t a = make(f, W, H, D), b = make(f, W, H, D);
    std::vector<float> in(W * H * D), out(W * H * D, -1.0f);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = (float)i + 0.5f;
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(in.data(), W * 4, W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, D); // elements of the array
    p.kind = cudaMemcpyHostToDevice;
    ASSERT_RT_OK(cudaMemcpy3D(&p));
    // Array to array, a sub-box: x positions in elements.
    memset(&p, 0, sizeof(p));
    p.srcArray = a, p.srcPos = make_cudaPos(2, 1, 1);
    p.dstArray = b, p.dstPos = make_cudaPos(3, 0, 0);
    p.extent = make_cudaExtent(W - 3, H - 1, D - 1);
    p.kind = cudaMemcpyDeviceToDevice;
    ASSERT_RT_OK(cudaMemcpy3D(&p));
    memset(&p, 0, sizeof(p));
    p.srcArray = b;
    p.dstPtr = make_cudaPitchedPtr(out.data(), W * 4, W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    cudaStream_t s;
    ASSERT_RT_OK(cudaStreamCreate(&s));
    ASSERT_RT_OK(cudaMemcpy3DAsync(&p, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    for (size_t z = 0; z < D - 1; ++z)
        for (size_t y = 0; y < H - 1; ++y)
            for (size_t x = 0; x < W - 3; ++x)
                ASSERT_EQ(in[((z + 1) * H + y + 1) * W + x + 2], out[(z * H + y) * W + x + 3])
                    << x << "," << y << "," << z;
    // Past the array's edge in elements.
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(in.data(), W * 4, W, H);
    p.dstArray = a, p.dstPos = make_cudaPos(1, 0, 0);
    p.extent = make_cudaExtent(W, 1, 1);
    p.kind = cudaMemcpyHostToDevice;
    EXPECT_RT(cudaErrorInvalidValue, cudaMemcpy3D(&p));
    // Peer: between arrays of the one device.
    cudaMemcpy3DPeerParms q;
    memset(&q, 0, sizeof(q));
    q.srcArray = a, q.dstArray = b;
    q.extent = make_cudaExtent(W, H, D);
    ASSERT_RT_OK(cudaMemcpy3DPeer(&q));
    ASSERT_RT_OK(cudaMemcpy3DPeerAsync(&q, s));
    ASSERT_RT_OK(cudaStreamSynchronize(s));
    memset(&p, 0, sizeof(p));
    p.srcArray = b;
    p.dstPtr = make_cudaPitchedPtr(out.data(), W * 4, W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    ASSERT_RT_OK(cudaMemcpy3D_ptds(&p));
    EXPECT_TRUE(in == out);
    EXPECT_RT_OK(cudaStreamDestroy(s));
}
