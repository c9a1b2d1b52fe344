// Texture and surface objects through the runtime API (src/runtime/texture.c): the runtime's
// descriptors turned into the driver's and back (channel descriptors, readMode and the other
// flag fields), and the driver's codes as cudaError_t.
#include "framework/testing.h"

#include "extmem/cuda_runtime_api.h"
#include "extmem/driver_functions.h"

#include <cstdint>
#include <cstring>

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

class RuntimeTexture : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_RT_OK(cudaMalloc(&mem, 1 << 20));
        memset(&td, 0, sizeof td);
    }
    void TearDown() override
    {
        EXPECT_RT_OK(cudaFree(mem));
        EXPECT_RT_OK(cudaDeviceReset());
    }
    static cudaResourceDesc linear(void *p, cudaChannelFormatDesc d, size_t size)
    {
        cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeLinear;
        r.res.linear.devPtr = p;
        r.res.linear.desc = d;
        r.res.linear.sizeInBytes = size;
        return r;
    }
    static cudaChannelFormatDesc desc(int x, int y, int z, int w, cudaChannelFormatKind f)
    {
        cudaChannelFormatDesc d = {x, y, z, w, f};
        return d;
    }
    void *mem = nullptr;
    cudaTextureDesc td;
};

} // namespace

TEST_F(RuntimeTexture, Linear_RoundTripsTheChannelDescriptorAndEveryTextureField)
{
    cudaResourceDesc r = linear(mem, desc(16, 16, 0, 0, cudaChannelFormatKindFloat), 4096);
    td.addressMode[0] = cudaAddressModeMirror;
    td.addressMode[1] = cudaAddressModeBorder;
    td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType; // floats: normalized reads are for 8 and 16-bit integers
    td.sRGB = 1;
    td.normalizedCoords = 1;
    td.maxAnisotropy = 4;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.mipmapLevelBias = -1.5f;
    td.minMipmapLevelClamp = 0.5f;
    td.maxMipmapLevelClamp = 2.75f;
    td.disableTrilinearOptimization = 1;
    td.borderColor[0] = 1.0f;
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_NE(0u, t);

    cudaResourceDesc gr;
    memset(&gr, 0xab, sizeof gr);
    ASSERT_RT_OK(cudaGetTextureObjectResourceDesc(&gr, t));
    EXPECT_EQ(cudaResourceTypeLinear, gr.resType);
    EXPECT_EQ(mem, gr.res.linear.devPtr);
    EXPECT_EQ(16, gr.res.linear.desc.x);
    EXPECT_EQ(16, gr.res.linear.desc.y);
    EXPECT_EQ(0, gr.res.linear.desc.z);
    EXPECT_EQ(0, gr.res.linear.desc.w);
    EXPECT_EQ(cudaChannelFormatKindFloat, gr.res.linear.desc.f);
    EXPECT_EQ(4096u, gr.res.linear.sizeInBytes);

    cudaTextureDesc g;
    memset(&g, 0xab, sizeof g);
    ASSERT_RT_OK(cudaGetTextureObjectTextureDesc(&g, t));
    EXPECT_EQ(cudaAddressModeMirror, g.addressMode[0]);
    EXPECT_EQ(cudaAddressModeBorder, g.addressMode[1]);
    EXPECT_EQ(cudaAddressModeClamp, g.addressMode[2]);
    EXPECT_EQ(cudaFilterModeLinear, g.filterMode);
    EXPECT_EQ(cudaReadModeElementType, g.readMode);
    EXPECT_EQ(1, g.sRGB);
    EXPECT_EQ(1, g.normalizedCoords);
    EXPECT_EQ(4u, g.maxAnisotropy);
    EXPECT_EQ(cudaFilterModeLinear, g.mipmapFilterMode);
    EXPECT_EQ(-1.5f, g.mipmapLevelBias);
    EXPECT_EQ(0.5f, g.minMipmapLevelClamp);
    EXPECT_EQ(2.75f, g.maxMipmapLevelClamp);
    EXPECT_EQ(1, g.disableTrilinearOptimization);
    EXPECT_EQ(0, g.seamlessCubemap);
    EXPECT_EQ(0.0f, g.borderColor[0]); // the driver hands back no border colour

    // The driver's view of the same object: the fields became flags.
    CUDA_TEXTURE_DESC dt;
    memset(&dt, 0, sizeof dt);
    ASSERT_OK(cuTexObjectGetTextureDesc(&dt, t));
    EXPECT_EQ((unsigned)(CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
                         CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION),
              dt.flags);
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
}

TEST_F(RuntimeTexture, ReadModeElementType_IsTheDriversReadAsInteger)
{
    cudaResourceDesc r = linear(mem, desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), 4096);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    CUDA_TEXTURE_DESC dt;
    ASSERT_OK(cuTexObjectGetTextureDesc(&dt, t));
    EXPECT_EQ((unsigned)CU_TRSF_READ_AS_INTEGER, dt.flags);
    CUDA_RESOURCE_DESC dr;
    ASSERT_OK(cuTexObjectGetResourceDesc(&dr, t));
    EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT8, dr.res.linear.format);
    EXPECT_EQ(4u, dr.res.linear.numChannels);
    cudaTextureDesc g;
    ASSERT_RT_OK(cudaGetTextureObjectTextureDesc(&g, t));
    EXPECT_EQ(cudaReadModeElementType, g.readMode);
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
}

TEST_F(RuntimeTexture, Pitch2D_RoundTripsItsExtentAndSignedChannels)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = mem;
    r.res.pitch2D.desc = desc(16, 0, 0, 0, cudaChannelFormatKindSigned);
    r.res.pitch2D.width = 30;
    r.res.pitch2D.height = 20;
    r.res.pitch2D.pitchInBytes = 64;
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    cudaResourceDesc gr;
    ASSERT_RT_OK(cudaGetTextureObjectResourceDesc(&gr, t));
    EXPECT_EQ(cudaResourceTypePitch2D, gr.resType);
    EXPECT_EQ(mem, gr.res.pitch2D.devPtr);
    EXPECT_EQ(16, gr.res.pitch2D.desc.x);
    EXPECT_EQ(0, gr.res.pitch2D.desc.y);
    EXPECT_EQ(cudaChannelFormatKindSigned, gr.res.pitch2D.desc.f);
    EXPECT_EQ(30u, gr.res.pitch2D.width);
    EXPECT_EQ(20u, gr.res.pitch2D.height);
    EXPECT_EQ(64u, gr.res.pitch2D.pitchInBytes);
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
}

TEST_F(RuntimeTexture, View_RoundTrips)
{
    cudaResourceDesc r = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindFloat), 1024);
    cudaResourceViewDesc v;
    memset(&v, 0, sizeof v);
    v.format = cudaResViewFormatUnsignedInt1;
    v.width = 256;
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, &v));
    cudaResourceViewDesc g;
    memset(&g, 0xab, sizeof g);
    ASSERT_RT_OK(cudaGetTextureObjectResourceViewDesc(&g, t));
    EXPECT_EQ(0, memcmp(&g, &v, sizeof v));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
}

TEST_F(RuntimeTexture, ChannelDescriptorThatNamesNoFormat_IsInvalidChannelDescriptor)
{
    cudaTextureObject_t t = 0;
    const cudaChannelFormatDesc bad[] = {
        desc(8, 16, 0, 0, cudaChannelFormatKindUnsigned), // channels of different sizes
        desc(0, 8, 0, 0, cudaChannelFormatKindUnsigned),  // a gap
        desc(24, 0, 0, 0, cudaChannelFormatKindSigned),   // no 24-bit format
        desc(8, 0, 0, 0, cudaChannelFormatKindFloat),     // no 8-bit float
        desc(32, 0, 0, 0, cudaChannelFormatKindNone),
        desc(0, 0, 0, 0, cudaChannelFormatKindFloat),
        desc(32, 32, 32, 0, cudaChannelFormatKindFloat),  // three channels
    };
    for (const cudaChannelFormatDesc &d : bad) {
        cudaResourceDesc r = linear(mem, d, 1024);
        EXPECT_RT(cudaErrorInvalidChannelDescriptor, cudaCreateTextureObject(&t, &r, &td, nullptr));
    }
    // A normalized kind (cudaChannelFormatKindUnsignedNormalized8X1, 5) for linear memory.
    cudaResourceDesc r = linear(mem, desc(8, 0, 0, 0, (cudaChannelFormatKind)5), 1024);
    EXPECT_RT(cudaErrorInvalidNormSetting, cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_EQ(0u, t);
}

TEST_F(RuntimeTexture, ReadModes_AsNvidiasRuntimeChecksThem)
{
    cudaTextureObject_t t = 0;
    // Normalized floats are read from 8 and 16-bit integers only.
    cudaResourceDesc f = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindFloat), 1024);
    td.readMode = cudaReadModeNormalizedFloat;
    EXPECT_RT(cudaErrorInvalidNormSetting, cudaCreateTextureObject(&t, &f, &td, nullptr));
    cudaResourceDesc u8 = linear(mem, desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), 4096);
    cudaResourceDesc s16 = linear(mem, desc(16, 0, 0, 0, cudaChannelFormatKindSigned), 4096);
    cudaResourceDesc u32 = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindUnsigned), 4096);
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &u8, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &s16, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT(cudaErrorInvalidNormSetting, cudaCreateTextureObject(&t, &u32, &td, nullptr));
    // Integers read as integers are not filtered linearly; as normalized floats they are.
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    EXPECT_RT(cudaErrorInvalidFilterSetting, cudaCreateTextureObject(&t, &u8, &td, nullptr));
    EXPECT_RT(cudaErrorInvalidFilterSetting, cudaCreateTextureObject(&t, &u32, &td, nullptr));
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &f, &td, nullptr)); // floats filter as they are
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    td.readMode = cudaReadModeNormalizedFloat;
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &u8, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    // A read mode past the enum reads as normalized floats, as on NVIDIA's runtime.
    td.readMode = (cudaTextureReadMode)2;
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &u8, &td, nullptr));
    cudaTextureDesc g;
    ASSERT_RT_OK(cudaGetTextureObjectTextureDesc(&g, t));
    EXPECT_EQ(cudaReadModeNormalizedFloat, g.readMode);
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
}

TEST_F(RuntimeTexture, BadArgumentsAndWhatTheDriverRefuses_AreInvalidValue)
{
    cudaResourceDesc r = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindFloat), 1024);
    cudaTextureObject_t t = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(nullptr, &r, &td, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, nullptr, &td, nullptr));
    // NVIDIA's runtime names a NULL texture descriptor an invalid resource handle.
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaCreateTextureObject(&t, &r, nullptr, nullptr));
    td.readMode = cudaReadModeElementType;
    td.seamlessCubemap = 1; // linear memory is no cubemap
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &r, &td, nullptr));
    td.seamlessCubemap = 0;
    r.res.linear.devPtr = (char *)mem + 256; // not aligned to 512
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_EQ(0u, t);
}

TEST_F(RuntimeTexture, DestroyedOrForgedHandles)
{
    cudaResourceDesc r = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindFloat), 1024);
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaDestroyTextureObject(t)); // as NVIDIA's answers
    EXPECT_RT_OK(cudaDestroyTextureObject(0));
    cudaResourceDesc gr;
    cudaTextureDesc gt;
    cudaResourceViewDesc gv;
    EXPECT_RT(cudaErrorInvalidValue, cudaGetTextureObjectResourceDesc(&gr, t));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetTextureObjectTextureDesc(&gt, t));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetTextureObjectResourceViewDesc(&gv, 0x12345678));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetTextureObjectResourceDesc(nullptr, t));
    EXPECT_RT(cudaErrorInvalidResourceHandle, cudaGetTextureObjectTextureDesc(nullptr, t));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetTextureObjectResourceViewDesc(nullptr, t));
}

TEST_F(RuntimeTexture, Surface_OverLinearMemoryOrNothing_IsInvalidValue)
{
    cudaResourceDesc r = linear(mem, desc(32, 0, 0, 0, cudaChannelFormatKindFloat), 1024);
    cudaSurfaceObject_t s = 0;
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateSurfaceObject(nullptr, &r));
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, nullptr));
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &r));
    cudaResourceDesc a;
    memset(&a, 0, sizeof a);
    a.resType = cudaResourceTypeArray;
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &a));
    EXPECT_EQ(0u, s);
    EXPECT_RT_OK(cudaDestroySurfaceObject(0));
    cudaResourceDesc gr;
    EXPECT_RT(cudaErrorInvalidValue, cudaGetSurfaceObjectResourceDesc(&gr, 0x12345678));
    EXPECT_RT(cudaErrorInvalidValue, cudaGetSurfaceObjectResourceDesc(nullptr, 0x12345678));
}

TEST_F(RuntimeTexture, TypesHaveTheRuntimesLayout)
{
    // The runtime's texture descriptor is its own (flags as fields); its view is the driver's.
    EXPECT_EQ(72u, sizeof(cudaTextureDesc));
    EXPECT_EQ(sizeof(CUDA_RESOURCE_VIEW_DESC), sizeof(cudaResourceViewDesc));
    EXPECT_EQ(sizeof(CUDA_RESOURCE_DESC), sizeof(cudaResourceDesc));
    EXPECT_EQ(8u, sizeof(cudaTextureObject_t));
    EXPECT_EQ(8u, sizeof(cudaSurfaceObject_t));
    EXPECT_EQ(0xF2, cudaTextureType2DLayered);
    EXPECT_EQ(2, (int)cudaBoundaryModeTrap);
}

TEST_F(RuntimeTexture, ArrayAndMipmappedArray_RoundTripThroughBothObjects)
{
    cudaChannelFormatDesc f = desc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    cudaArray_t a = nullptr;
    ASSERT_RT_OK(cudaMallocArray(&a, &f, 16, 8, cudaArraySurfaceLoadStore));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    cudaSurfaceObject_t s = 0;
    ASSERT_RT_OK(cudaCreateSurfaceObject(&s, &r));
    cudaResourceDesc gr;
    memset(&gr, 0xab, sizeof gr);
    ASSERT_RT_OK(cudaGetTextureObjectResourceDesc(&gr, t));
    EXPECT_EQ(cudaResourceTypeArray, gr.resType);
    EXPECT_EQ(a, gr.res.array.array);
    memset(&gr, 0xab, sizeof gr);
    ASSERT_RT_OK(cudaGetSurfaceObjectResourceDesc(&gr, s));
    EXPECT_EQ(a, gr.res.array.array);
    EXPECT_RT_OK(cudaDestroySurfaceObject(s));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaFreeArray(a));

    cudaMipmappedArray_t m = nullptr;
    ASSERT_RT_OK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(32, 32, 0), 4, 0));
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = m;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = 3;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    memset(&gr, 0xab, sizeof gr);
    ASSERT_RT_OK(cudaGetTextureObjectResourceDesc(&gr, t));
    EXPECT_EQ(cudaResourceTypeMipmappedArray, gr.resType);
    EXPECT_EQ(m, gr.res.mipmap.mipmap);
    EXPECT_RT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &r)); // a surface wants one level
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaFreeMipmappedArray(m));
}

TEST_F(RuntimeTexture, ReadModesOverArrays_AreCheckedWithTheArraysFormat)
{
    cudaChannelFormatDesc f4 = desc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    cudaChannelFormatDesc u8 = desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t af = nullptr, au = nullptr;
    ASSERT_RT_OK(cudaMallocArray(&af, &f4, 16, 8, 0));
    ASSERT_RT_OK(cudaMallocArray(&au, &u8, 16, 8, 0));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    cudaTextureObject_t t = 0;
    r.res.array.array = af;
    td.readMode = cudaReadModeNormalizedFloat; // as the H100 answered for a float4 array
    EXPECT_RT(cudaErrorInvalidNormSetting, cudaCreateTextureObject(&t, &r, &td, nullptr));
    r.res.array.array = au;
    td.readMode = cudaReadModeElementType;
    td.filterMode = cudaFilterModeLinear;
    EXPECT_RT(cudaErrorInvalidFilterSetting, cudaCreateTextureObject(&t, &r, &td, nullptr));
    td.readMode = cudaReadModeNormalizedFloat;
    ASSERT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaFreeArray(af));
    EXPECT_RT_OK(cudaFreeArray(au));
}

// Issue 23, part texfilter (docs/probes/kernels/texfilter/probe.txt, NVIDIA's runtime 13.0 and
// driver 580): block-compressed arrays are read as normalized floats, BC6H's halves as elements;
// the sRGB BC formats need sRGB; a video array takes no texture.
TEST_F(RuntimeTexture, BlockCompressedReadModes_AndVideoArrays_AsNvidiasRuntimeTakesThem)
{
    struct {
        cudaChannelFormatKind kind;
        int x, y, z, w;
        bool halves, srgb;
    } bc[] = {
        {cudaChannelFormatKindUnsignedBlockCompressed1, 8, 8, 8, 8, false, false},
        {cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0, 0, false, false},
        {cudaChannelFormatKindSignedBlockCompressed5, 8, 8, 0, 0, false, false},
        {cudaChannelFormatKindUnsignedBlockCompressed6H, 16, 16, 16, 0, true, false},
        {cudaChannelFormatKindSignedBlockCompressed6H, 16, 16, 16, 0, true, false},
        {cudaChannelFormatKindUnsignedBlockCompressed7, 8, 8, 8, 8, false, false},
        {cudaChannelFormatKindUnsignedBlockCompressed7SRGB, 8, 8, 8, 8, false, true},
    };
    for (const auto &b : bc) {
        cudaChannelFormatDesc d = desc(b.x, b.y, b.z, b.w, b.kind);
        cudaArray_t a = nullptr;
        ASSERT_RT_OK(cudaMallocArray(&a, &d, 16, 16));
        cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = a;
        cudaTextureObject_t t = 0;
        td.filterMode = cudaFilterModeLinear;
        td.sRGB = b.srgb;
        td.readMode = b.halves ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
        EXPECT_RT(cudaErrorInvalidNormSetting, cudaCreateTextureObject(&t, &r, &td, nullptr)) << "kind " << b.kind;
        td.readMode = b.halves ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
        EXPECT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr)) << "kind " << b.kind;
        EXPECT_RT_OK(cudaDestroyTextureObject(t));
        if (b.srgb) {
            td.sRGB = 0;
            EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &r, &td, nullptr));
        }
        EXPECT_RT_OK(cudaFreeArray(a));
    }
    td.sRGB = 0;
    cudaChannelFormatDesc nv12 = desc(8, 8, 8, 0, cudaChannelFormatKindNV12);
    cudaArray_t v = nullptr, plane = nullptr;
    ASSERT_RT_OK(cudaMalloc3DArray(&v, &nv12, make_cudaExtent(8, 4, 0), 0x100 /* video encode/decode */));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = v;
    cudaTextureObject_t t = 0;
    for (cudaTextureReadMode rm : {cudaReadModeElementType, cudaReadModeNormalizedFloat}) {
        td.readMode = rm;
        td.filterMode = cudaFilterModePoint;
        EXPECT_RT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &r, &td, nullptr));
    }
    ASSERT_RT_OK(cudaArrayGetPlane(&plane, v, 1));
    r.res.array.array = plane;
    td.readMode = cudaReadModeNormalizedFloat;
    td.filterMode = cudaFilterModeLinear;
    EXPECT_RT_OK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    EXPECT_RT_OK(cudaDestroyTextureObject(t));
    EXPECT_RT_OK(cudaFreeArray(v));
}
