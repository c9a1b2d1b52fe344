// Texture and surface objects through the driver API (src/image/texture.c, surface.c). The
// expected codes are what NVIDIA's driver 580 returned on an H100 for the same calls
// (docs/probes/images/texobj/texobj_probe.out); where it crashed (a forged array, a NULL
// pSurfObject, a surface over a destroyed array) extmem answers CUDA_ERROR_INVALID_VALUE.
#include "framework/testing.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace extmem_test;

namespace {

class TexObject : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        ASSERT_OK(cuMemAlloc(&d, 1 << 20));
        memset(&td, 0, sizeof td);
    }
    void TearDown() override
    {
        if (d) {
            EXPECT_OK(cuMemFree(d));
        }
        ContextTest::TearDown();
    }
    static CUDA_RESOURCE_DESC linear(CUdeviceptr p, CUarray_format f, unsigned ch, size_t size)
    {
        CUDA_RESOURCE_DESC r;
        memset(&r, 0, sizeof r);
        r.resType = CU_RESOURCE_TYPE_LINEAR;
        r.res.linear.devPtr = p;
        r.res.linear.format = f;
        r.res.linear.numChannels = ch;
        r.res.linear.sizeInBytes = size;
        return r;
    }
    static CUDA_RESOURCE_DESC pitch2d(CUdeviceptr p, CUarray_format f, unsigned ch, size_t w, size_t h, size_t pitch)
    {
        CUDA_RESOURCE_DESC r;
        memset(&r, 0, sizeof r);
        r.resType = CU_RESOURCE_TYPE_PITCH2D;
        r.res.pitch2D.devPtr = p;
        r.res.pitch2D.format = f;
        r.res.pitch2D.numChannels = ch;
        r.res.pitch2D.width = w;
        r.res.pitch2D.height = h;
        r.res.pitch2D.pitchInBytes = pitch;
        return r;
    }
    static CUDA_RESOURCE_DESC array(CUarray a)
    {
        CUDA_RESOURCE_DESC r;
        memset(&r, 0, sizeof r);
        r.resType = CU_RESOURCE_TYPE_ARRAY;
        r.res.array.hArray = a;
        return r;
    }
    /* Creates and destroys; the result of the creation. */
    CUresult make(const CUDA_RESOURCE_DESC &r, const CUDA_TEXTURE_DESC *t, const CUDA_RESOURCE_VIEW_DESC *v = nullptr)
    {
        CUtexObject o = 0;
        CUresult res = cuTexObjectCreate(&o, &r, t, v);
        if (res == CUDA_SUCCESS) {
            EXPECT_OK(cuTexObjectDestroy(o));
        }
        return res;
    }
    CUarray make_array(size_t w, size_t h, size_t depth, CUarray_format f, unsigned ch, unsigned flags)
    {
        CUDA_ARRAY3D_DESCRIPTOR a;
        memset(&a, 0, sizeof a);
        a.Width = w;
        a.Height = h;
        a.Depth = depth;
        a.Format = f;
        a.NumChannels = ch;
        a.Flags = flags;
        CUarray out = nullptr;
        EXPECT_OK(cuArray3DCreate(&out, &a));
        return out;
    }
    CUdeviceptr d = 0;
    CUDA_TEXTURE_DESC td;
};

} // namespace

// ---- Arguments ----

TEST_F(TexObject, Create_NullArguments_AreInvalidValue)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(nullptr, &r, &td, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, nullptr, &td, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &r, nullptr, nullptr));
    EXPECT_DETAIL_HAS("pTexDesc is NULL");
    EXPECT_EQ(0u, t);
}

TEST_F(TexObject, Create_UnknownResourceTypeOrFlags_IsInvalidValue)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    r.resType = (CUresourcetype)4;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td));
    r.resType = (CUresourcetype)0x7fffffff;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td));
    r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    r.flags = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td));
    EXPECT_DETAIL_HAS("flags");
}

TEST_F(TexObject, Create_WithoutACurrentContext_IsInvalidContext)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUcontext cur = nullptr;
    ASSERT_OK(cuCtxPopCurrent(&cur));
    CUtexObject t = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuTexObjectCreate(&t, &r, &td, nullptr));
    ASSERT_OK(cuCtxPushCurrent(cur));
}

// ---- Linear memory ----

TEST_F(TexObject, Linear_RoundTripsItsResourceAndEveryTextureField)
{
    CUDA_RESOURCE_DESC r = linear(d + 512, CU_AD_FORMAT_HALF, 2, 1000);
    td.addressMode[0] = CU_TR_ADDRESS_MODE_MIRROR;
    td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
    td.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
               CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
    td.maxAnisotropy = 7;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.mipmapLevelBias = 0.5f;
    td.minMipmapLevelClamp = 0.25f;
    td.maxMipmapLevelClamp = 3.5f;
    td.borderColor[0] = 0.1f;
    td.borderColor[3] = 0.4f;
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    EXPECT_NE(0u, t);

    CUDA_RESOURCE_DESC gr;
    memset(&gr, 0xab, sizeof gr);
    ASSERT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_EQ(CU_RESOURCE_TYPE_LINEAR, gr.resType);
    EXPECT_EQ(0u, gr.flags);
    EXPECT_EQ(d + 512, gr.res.linear.devPtr);
    EXPECT_EQ(CU_AD_FORMAT_HALF, gr.res.linear.format);
    EXPECT_EQ(2u, gr.res.linear.numChannels);
    EXPECT_EQ(1000u, gr.res.linear.sizeInBytes);

    CUDA_TEXTURE_DESC g;
    memset(&g, 0xab, sizeof g);
    ASSERT_OK(cuTexObjectGetTextureDesc(&g, t));
    EXPECT_EQ(CU_TR_ADDRESS_MODE_MIRROR, g.addressMode[0]);
    EXPECT_EQ(CU_TR_ADDRESS_MODE_BORDER, g.addressMode[1]);
    EXPECT_EQ(CU_TR_ADDRESS_MODE_CLAMP, g.addressMode[2]);
    EXPECT_EQ(CU_TR_FILTER_MODE_LINEAR, g.filterMode);
    EXPECT_EQ(td.flags, g.flags);
    EXPECT_EQ(7u, g.maxAnisotropy);
    EXPECT_EQ(CU_TR_FILTER_MODE_LINEAR, g.mipmapFilterMode);
    EXPECT_EQ(0.5f, g.mipmapLevelBias);
    EXPECT_EQ(0.25f, g.minMipmapLevelClamp);
    EXPECT_EQ(3.5f, g.maxMipmapLevelClamp);
    // The driver writes nothing from borderColor on: the caller's bytes stay.
    uint32_t word;
    memcpy(&word, &g.borderColor[0], 4);
    EXPECT_EQ(0xababababu, word);
    EXPECT_EQ((int)0xabababab, g.reserved[0]);

    CUDA_RESOURCE_VIEW_DESC gv;
    memset(&gv, 0xcd, sizeof gv);
    EXPECT_OK(cuTexObjectGetResourceViewDesc(&gv, t)); // made without a view: nothing written
    uint32_t format_word;
    memcpy(&format_word, &gv.format, sizeof format_word); // no enum load of bytes that are no enum value
    EXPECT_EQ(0xcdcdcdcdu, format_word);
    EXPECT_OK(cuTexObjectDestroy(t));
}

TEST_F(TexObject, Linear_PointerNotAlignedToTheTextureAlignment_IsInvalidValue)
{
    int align = 0;
    ASSERT_OK(cuDeviceGetAttribute(&align, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 0));
    EXPECT_EQ(512, align);
    for (size_t off : {1, 4, 16, 64, 128, 256}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(d + off, CU_AD_FORMAT_FLOAT, 1, 1024), &td)) << off;
        EXPECT_DETAIL_HAS("TEXTURE_ALIGNMENT");
    }
    EXPECT_OK(make(linear(d + 512, CU_AD_FORMAT_FLOAT, 1, 1024), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(0, CU_AD_FORMAT_FLOAT, 1, 1024), &td));
}

TEST_F(TexObject, Linear_FormatsAndChannels_AreThoseTheDriverTakes)
{
    const unsigned ok[] = {0x01, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x10, 0x20, 0x50};
    const unsigned refused[] = {0x00, 0x07, 0x91, 0x97, 0x9f, 0xb0, 0xc0, 0xc2, 0xc6, 0xcb};
    for (unsigned f : ok)
        for (unsigned ch : {1u, 2u, 4u})
            EXPECT_OK(make(linear(d, (CUarray_format)f, ch, 4096), &td)) << std::hex << f << " " << ch;
    for (unsigned f : refused)
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(d, (CUarray_format)f, 1, 4096), &td)) << std::hex << f;
    for (unsigned ch : {0u, 3u, 5u})
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(d, CU_AD_FORMAT_FLOAT, ch, 1536), &td)) << ch;
}

TEST_F(TexObject, Linear_SizeIsBoundedBy4GiBOnly)
{
    // The driver takes a size of 0, one less than an element, one past the 1D linear width in
    // elements, and one past the allocation; it refuses 4 GiB + 16.
    for (size_t size : {size_t(0), size_t(2), size_t(6), size_t(2) << 20, (size_t(1) << 30) + 4})
        EXPECT_OK(make(linear(d, CU_AD_FORMAT_FLOAT, 1, size), &td)) << size;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(d, CU_AD_FORMAT_FLOAT, 4, (size_t(1) << 32) + 16), &td));
}

TEST_F(TexObject, Linear_FreedOrHostPointer_IsAcceptedAsOnTheDriver)
{
    CUdeviceptr f = 0;
    ASSERT_OK(cuMemAlloc(&f, 1 << 16));
    ASSERT_OK(cuMemFree(f));
    EXPECT_OK(make(linear(f, CU_AD_FORMAT_FLOAT, 1, 1024), &td));
    alignas(512) static unsigned char host[4096]; /* host memory extmem did not allocate (portable: no aligned_alloc on Windows) */
    EXPECT_OK(make(linear((CUdeviceptr)(uintptr_t)host, CU_AD_FORMAT_FLOAT, 1, 1024), &td));
}

TEST_F(TexObject, Linear_MemoryFreedUnderTheTexture_LeavesItsGettersWorking)
{
    CUdeviceptr f = 0;
    ASSERT_OK(cuMemAlloc(&f, 1 << 16));
    CUDA_RESOURCE_DESC r = linear(f, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    EXPECT_OK(cuMemFree(f));
    CUDA_RESOURCE_DESC gr;
    EXPECT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_EQ(f, gr.res.linear.devPtr);
    EXPECT_OK(cuTexObjectDestroy(t));
}

// ---- Pitch-2D memory ----

TEST_F(TexObject, Pitch2D_PitchNotAMultipleOf32_IsInvalidValue)
{
    int align = 0;
    ASSERT_OK(cuDeviceGetAttribute(&align, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 0));
    EXPECT_EQ(32, align);
    for (size_t pitch : {64, 96, 128, 256})
        EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, pitch), &td)) << pitch;
    for (size_t pitch : {68, 100, 33}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, pitch), &td)) << pitch;
        EXPECT_DETAIL_HAS("TEXTURE_PITCH_ALIGNMENT");
    }
}

TEST_F(TexObject, Pitch2D_PointerNotAlignedTo512_IsInvalidValue)
{
    for (size_t off : {4, 32, 128, 256})
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d + off, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128), &td)) << off;
    EXPECT_OK(make(pitch2d(d + 512, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(0, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128), &td));
}

TEST_F(TexObject, Pitch2D_Limits_AreTheLinearTextureAttributes)
{
    int w = 0, h = 0, p = 0, w1 = 0;
    ASSERT_OK(cuDeviceGetAttribute(&w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 0));
    ASSERT_OK(cuDeviceGetAttribute(&h, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 0));
    ASSERT_OK(cuDeviceGetAttribute(&p, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 0));
    ASSERT_OK(cuDeviceGetAttribute(&w1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 0));
    EXPECT_EQ(131072, w);
    EXPECT_EQ(65000, h);
    EXPECT_EQ(2097120, p);
    EXPECT_EQ(268435456, w1);
    auto round = [](size_t x) { return (x + 127) & ~size_t(127); };
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, w, 2, round(w)), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, w + 1, 2, round(w + 1)), &td));
    EXPECT_DETAIL_HAS("MAXIMUM_TEXTURE2D_LINEAR_WIDTH");
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, h, 128), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, h + 1, 128), &td));
    EXPECT_DETAIL_HAS("MAXIMUM_TEXTURE2D_LINEAR_HEIGHT");
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, p), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, size_t(p) + 128), &td));
    EXPECT_DETAIL_HAS("MAXIMUM_TEXTURE2D_LINEAR_PITCH");
}

TEST_F(TexObject, Pitch2D_ZeroExtentsAndRowsWiderThanThePitch_AreAcceptedAsOnTheDriver)
{
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 0, 16, 128), &td));
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 0, 128), &td));
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 0), &td));
    EXPECT_OK(make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 40, 16, 128), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_FLOAT, 3, 16, 16, 256), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_BC1_UNORM, 1, 16, 16, 128), &td));
}

// ---- The texture descriptor ----

TEST_F(TexObject, TextureDesc_AddressModesOfTheResourcesDimensions_AreChecked)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUDA_RESOURCE_DESC p2 = pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128);
    for (unsigned m = 0; m < 4; ++m) {
        td.addressMode[0] = (CUaddress_mode)m;
        EXPECT_OK(make(lin, &td)) << m;
    }
    td.addressMode[0] = (CUaddress_mode)4;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td));
    EXPECT_DETAIL_HAS("addressMode[0]");
    memset(&td, 0, sizeof td);
    td.addressMode[1] = (CUaddress_mode)7; // a linear texture has one dimension
    EXPECT_OK(make(lin, &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(p2, &td));
    memset(&td, 0, sizeof td);
    td.addressMode[2] = (CUaddress_mode)5; // a pitch-2D texture has two
    EXPECT_OK(make(p2, &td));
}

TEST_F(TexObject, TextureDesc_FilterModesOutOfRange_AreInvalidValue)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    td.filterMode = (CUfilter_mode)2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td));
    EXPECT_DETAIL_HAS("filterMode");
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.mipmapFilterMode = (CUfilter_mode)2; // checked on linear memory too
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td));
    EXPECT_DETAIL_HAS("mipmapFilterMode");
}

TEST_F(TexObject, TextureDesc_UnknownFlags_AreInvalidValueButTheTwoUnnamedLowBitsPass)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    for (unsigned f : {0x1u, 0x2u, 0x4u, 0x8u, 0x10u, 0x20u}) {
        td.flags = f;
        EXPECT_OK(make(lin, &td)) << std::hex << f;
    }
    for (unsigned f : {0x80u, 0x100u, 0x800u, 0x80000000u}) {
        td.flags = f;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td)) << std::hex << f;
    }
}

TEST_F(TexObject, TextureDesc_SeamlessCubemapOnLinearMemory_IsInvalidValue)
{
    td.flags = CU_TRSF_SEAMLESS_CUBEMAP;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(linear(d, CU_AD_FORMAT_FLOAT, 1, 1024), &td));
    EXPECT_DETAIL_HAS("cubemap");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128), &td));
}

TEST_F(TexObject, TextureDesc_ReservedWords_MustBeZero)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    td.reserved[0] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td));
    td.reserved[0] = 0;
    td.reserved[11] = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td));
    EXPECT_DETAIL_HAS("reserved[11]");
}

TEST_F(TexObject, TextureDesc_AnisotropyLodAndBorder_TakeAnyValue)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    for (unsigned a : {0u, 1u, 16u, 17u, 100u, 0xffffffffu}) {
        td.maxAnisotropy = a;
        EXPECT_OK(make(lin, &td)) << a;
    }
    td.mipmapLevelBias = NAN;
    td.minMipmapLevelClamp = 5;
    td.maxMipmapLevelClamp = -1;
    td.borderColor[0] = NAN;
    td.borderColor[3] = 1e30f;
    EXPECT_OK(make(lin, &td));
}

TEST_F(TexObject, TextureDesc_LinearFilteringOfIntegersReadAsIntegers_IsAcceptedAsOnTheDriver)
{
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_READ_AS_INTEGER;
    for (CUarray_format f : {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32}) {
        EXPECT_OK(make(linear(d, f, 1, 4096), &td)) << f;
        EXPECT_OK(make(pitch2d(d, f, 1, 16, 16, 128), &td)) << f;
    }
}

// ---- Views ----

TEST_F(TexObject, View_OnLinearMemory_KeepsTheElementSize)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
    v.width = 256;
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &lin, &td, &v));
    CUDA_RESOURCE_VIEW_DESC g;
    memset(&g, 0xab, sizeof g);
    ASSERT_OK(cuTexObjectGetResourceViewDesc(&g, t));
    EXPECT_EQ(0, memcmp(&g, &v, sizeof v));
    EXPECT_OK(cuTexObjectDestroy(t));
    v.format = CU_RES_VIEW_FORMAT_UINT_1X32; // same 4 bytes, read as integers
    EXPECT_OK(make(lin, &td, &v));
    v.format = CU_RES_VIEW_FORMAT_FLOAT_2X32;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td, &v));
    EXPECT_DETAIL_HAS("bytes");
}

TEST_F(TexObject, View_UnknownFormatOrReservedWords_AreInvalidValue)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td, &v)); // CU_RES_VIEW_FORMAT_NONE
    v.format = (CUresourceViewFormat)0x23;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td, &v));
    v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
    v.reserved[0] = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(lin, &td, &v));
    EXPECT_DETAIL_HAS("reserved[0]");
}

// ---- Getters and handles ----

TEST_F(TexObject, Getters_NullOutputs_AreInvalidValue)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(nullptr, t));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(nullptr, t));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceViewDesc(nullptr, t));
    EXPECT_OK(cuTexObjectDestroy(t));
}

TEST_F(TexObject, Getters_ZeroForgedDestroyedOrSurfaceHandles_AreInvalidValue)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    ASSERT_OK(cuTexObjectDestroy(t));
    CUDA_RESOURCE_DESC gr;
    CUDA_TEXTURE_DESC gt;
    CUDA_RESOURCE_VIEW_DESC gv;
    for (CUtexObject h : {CUtexObject(0), CUtexObject(0x12345678), t}) {
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&gr, h)) << h;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(&gt, h)) << h;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceViewDesc(&gv, h)) << h;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&gr, h)) << h;
    }
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_DETAIL_HAS("destroyed");
}

TEST_F(TexObject, Destroy_ZeroForgedDestroyedOrTheOtherKindsHandle_IsSuccessAndDestroysNothing)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0, live = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    ASSERT_OK(cuTexObjectCreate(&live, &r, &td, nullptr));
    EXPECT_OK(cuTexObjectDestroy(t));
    EXPECT_OK(cuTexObjectDestroy(t));
    EXPECT_OK(cuTexObjectDestroy(0));
    EXPECT_OK(cuTexObjectDestroy(0x12345678));
    EXPECT_OK(cuSurfObjectDestroy(live)); // a texture given to the surface call stays
    CUDA_RESOURCE_DESC gr;
    EXPECT_OK(cuTexObjectGetResourceDesc(&gr, live));
    EXPECT_OK(cuTexObjectDestroy(live));
}

TEST_F(TexObject, Objects_BelongToTheirContext)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    CUcontext other = nullptr;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUDA_RESOURCE_DESC gr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_DETAIL_HAS("another context");
    ASSERT_OK(cuCtxDestroy(other));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    EXPECT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_OK(cuTexObjectDestroy(t));
}

TEST_F(TexObject, ContextDestroyed_TakesItsTextureObjectsWithIt)
{
    CUcontext other = nullptr;
    ASSERT_OK(cuCtxCreate(&other, nullptr, 0, 0));
    CUdeviceptr m = 0;
    ASSERT_OK(cuMemAlloc(&m, 1 << 16));
    CUDA_RESOURCE_DESC r = linear(m, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    ASSERT_OK(cuCtxDestroy(other));
    ASSERT_OK(cuCtxSetCurrent(ctx));
    CUDA_RESOURCE_DESC gr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_OK(cuTexObjectDestroy(t)); // as the driver answers
}

TEST_F(TexObject, ManyObjects_HaveDistinctHandles)
{
    CUDA_RESOURCE_DESC r = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t[64];
    for (auto &h : t)
        ASSERT_OK(cuTexObjectCreate(&h, &r, &td, nullptr));
    for (int i = 0; i < 64; ++i)
        for (int j = i + 1; j < 64; ++j)
            EXPECT_NE(t[i], t[j]);
    for (auto h : t)
        EXPECT_OK(cuTexObjectDestroy(h));
}

// ---- Surfaces ----

TEST_F(TexObject, Surface_NullArgumentsOrLinearMemory_AreInvalidValue)
{
    CUDA_RESOURCE_DESC lin = linear(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUsurfObject s = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(nullptr, &lin)); // the driver crashes here
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &lin));
    EXPECT_DETAIL_HAS("surface object is made over an array");
    CUDA_RESOURCE_DESC p2 = pitch2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &p2));
    CUDA_RESOURCE_DESC a = array(nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &a));
    a = array((CUarray)(uintptr_t)0x12345678); // the driver crashes here
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &a));
    a.resType = (CUresourcetype)9;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &a));
    EXPECT_EQ(0u, s);
    EXPECT_OK(cuSurfObjectDestroy(0));
    EXPECT_OK(cuSurfObjectDestroy(0x12345678));
    CUDA_RESOURCE_DESC gr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(nullptr, 0x12345678));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&gr, 0));
}

TEST_F(TexObject, ArrayResource_NullOrForgedArray_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(nullptr), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array((CUarray)(uintptr_t)0x12345678), &td));
    CUDA_RESOURCE_DESC m;
    memset(&m, 0, sizeof m);
    m.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(m, &td));
    m.res.mipmap.hMipmappedArray = (CUmipmappedArray)(uintptr_t)0x12345678;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(m, &td));
}

// ---- Arrays ----

TEST_F(TexObject, ArrayResource_RoundTripsAndSurfacesDoNotNeedSurfaceLdstAsOnTheDriver)
{
    CUarray a = make_array(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
    ASSERT_NE(nullptr, a);
    CUarray as = make_array(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, CUDA_ARRAY3D_SURFACE_LDST);
    CUDA_RESOURCE_DESC r = array(a);
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    CUDA_RESOURCE_DESC gr;
    ASSERT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_EQ(CU_RESOURCE_TYPE_ARRAY, gr.resType);
    EXPECT_EQ(a, gr.res.array.hArray);
    // The documentation asks for CUDA_ARRAY3D_SURFACE_LDST; driver 580 takes the array without.
    CUsurfObject s = 0;
    ASSERT_OK(cuSurfObjectCreate(&s, &r));
    EXPECT_OK(cuSurfObjectDestroy(s));
    CUDA_RESOURCE_DESC rs = array(as);
    ASSERT_OK(cuSurfObjectCreate(&s, &rs));
    ASSERT_OK(cuSurfObjectGetResourceDesc(&gr, s));
    EXPECT_EQ(as, gr.res.array.hArray);
    CUDA_TEXTURE_DESC g;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(&g, s));
    EXPECT_OK(cuSurfObjectDestroy(s));
    EXPECT_OK(cuTexObjectDestroy(t));
    EXPECT_OK(cuArrayDestroy(a));
    EXPECT_OK(cuArrayDestroy(as));
}

TEST_F(TexObject, ArrayDestroyedUnderATexture_ReadsAsNullAndTheObjectLives)
{
    CUarray a = make_array(4, 4, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST);
    ASSERT_NE(nullptr, a);
    CUDA_RESOURCE_DESC r = array(a);
    CUtexObject t = 0;
    CUsurfObject s = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, nullptr));
    ASSERT_OK(cuSurfObjectCreate(&s, &r));
    EXPECT_OK(cuArrayDestroy(a));
    CUDA_RESOURCE_DESC gr;
    ASSERT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_EQ(CU_RESOURCE_TYPE_ARRAY, gr.resType);
    EXPECT_EQ(nullptr, gr.res.array.hArray);
    EXPECT_OK(cuSurfObjectGetResourceDesc(&gr, s));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td)); // a new one over the destroyed array
    EXPECT_OK(cuTexObjectDestroy(t));
    EXPECT_OK(cuSurfObjectDestroy(s));
}

TEST_F(TexObject, ArrayView_MustKeepTheElementSizeExtentAndLayers)
{
    CUarray a = make_array(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
    ASSERT_NE(nullptr, a);
    CUDA_RESOURCE_DESC r = array(a);
    CUDA_RESOURCE_VIEW_DESC v;
    auto view = [&](CUresourceViewFormat f, size_t w, size_t h) {
        memset(&v, 0, sizeof v);
        v.format = f;
        v.width = w;
        v.height = h;
        return &v;
    };
    EXPECT_OK(make(r, &td, view(CU_RES_VIEW_FORMAT_UINT_2X32, 64, 32)));
    EXPECT_OK(make(r, &td, view(CU_RES_VIEW_FORMAT_FLOAT_2X32, 64, 32)));
    EXPECT_OK(make(r, &td, view(CU_RES_VIEW_FORMAT_UINT_4X16, 64, 32)));
    EXPECT_OK(make(r, &td, view(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 256, 128)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, view(CU_RES_VIEW_FORMAT_UNSIGNED_BC2, 256, 128)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, view(CU_RES_VIEW_FORMAT_UINT_1X32, 128, 32)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, view(CU_RES_VIEW_FORMAT_UINT_2X32, 32, 16)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, view(CU_RES_VIEW_FORMAT_UINT_2X32, 65, 32)));
    view(CU_RES_VIEW_FORMAT_UINT_2X32, 64, 32)->depth = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    view(CU_RES_VIEW_FORMAT_UINT_2X32, 64, 32)->lastLayer = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    view(CU_RES_VIEW_FORMAT_UINT_2X32, 64, 32)->lastMipmapLevel = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    EXPECT_OK(cuArrayDestroy(a));
}

TEST_F(TexObject, SeamlessCubemap_OnlyOnCubemaps)
{
    CUarray cube = make_array(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    ASSERT_NE(nullptr, cube);
    CUarray flat = make_array(16, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0);
    CUarray layered = make_array(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED);
    td.flags = CU_TRSF_SEAMLESS_CUBEMAP;
    EXPECT_OK(make(array(cube), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(flat), &td));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(layered), &td));
    td.flags = 0x80;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(cube), &td));
    EXPECT_OK(cuArrayDestroy(cube));
    EXPECT_OK(cuArrayDestroy(flat));
    EXPECT_OK(cuArrayDestroy(layered));
}

TEST_F(TexObject, MipmappedResource_ViewsChooseLevelsWithLevelZerosExtent)
{
    CUDA_ARRAY3D_DESCRIPTOR md;
    memset(&md, 0, sizeof md);
    md.Width = 64;
    md.Height = 64;
    md.Format = CU_AD_FORMAT_FLOAT;
    md.NumChannels = 4;
    CUmipmappedArray mm = nullptr;
    ASSERT_OK(cuMipmappedArrayCreate(&mm, &md, 7));
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    r.res.mipmap.hMipmappedArray = mm;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.maxMipmapLevelClamp = 6;
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_FLOAT_4X32;
    v.width = 64;
    v.height = 64;
    v.firstMipmapLevel = 2;
    v.lastMipmapLevel = 5;
    CUtexObject t = 0;
    ASSERT_OK(cuTexObjectCreate(&t, &r, &td, &v));
    CUDA_RESOURCE_VIEW_DESC g;
    memset(&g, 0xab, sizeof g);
    ASSERT_OK(cuTexObjectGetResourceViewDesc(&g, t));
    EXPECT_EQ(0, memcmp(&g, &v, sizeof v));
    CUDA_RESOURCE_DESC gr;
    ASSERT_OK(cuTexObjectGetResourceDesc(&gr, t));
    EXPECT_EQ(CU_RESOURCE_TYPE_MIPMAPPED_ARRAY, gr.resType);
    EXPECT_EQ(mm, gr.res.mipmap.hMipmappedArray);
    EXPECT_OK(cuTexObjectDestroy(t));
    v.width = v.height = 32; // level 1's extent: the driver wants level 0's
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    v.width = v.height = 64;
    v.firstMipmapLevel = 4;
    v.lastMipmapLevel = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    v.firstMipmapLevel = 0;
    v.lastMipmapLevel = 7; // one past the last, taken as by the driver
    EXPECT_OK(make(r, &td, &v));
    v.lastMipmapLevel = 8;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    // A surface is made over a level, not over the mipmapped array.
    CUsurfObject s = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &r));
    EXPECT_OK(cuMipmappedArrayDestroy(mm));
}

TEST_F(TexObject, Surface_OverALevelOfASurfaceLdstMipmappedArray_IsTaken)
{
    CUDA_ARRAY3D_DESCRIPTOR md;
    memset(&md, 0, sizeof md);
    md.Width = 32;
    md.Height = 32;
    md.Format = CU_AD_FORMAT_FLOAT;
    md.NumChannels = 1;
    md.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    CUmipmappedArray mm = nullptr;
    ASSERT_OK(cuMipmappedArrayCreate(&mm, &md, 3));
    CUarray level = nullptr;
    ASSERT_OK(cuMipmappedArrayGetLevel(&level, mm, 1));
    CUDA_RESOURCE_DESC r = array(level);
    CUsurfObject s = 0;
    ASSERT_OK(cuSurfObjectCreate(&s, &r));
    EXPECT_OK(cuSurfObjectDestroy(s));
    EXPECT_OK(cuMipmappedArrayDestroy(mm));
}

TEST_F(TexObject, LayeredView_LayersRunForwardWithinTheLayerCount)
{
    CUarray l = make_array(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED);
    ASSERT_NE(nullptr, l);
    CUDA_RESOURCE_DESC r = array(l);
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
    v.width = v.height = 16;
    v.depth = 6;
    v.firstLayer = 2;
    v.lastLayer = 4;
    EXPECT_OK(make(r, &td, &v));
    v.depth = 3; // the view's layer count is no depth: the array's is wanted
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    v.depth = 6;
    v.firstLayer = 4;
    v.lastLayer = 2;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td, &v));
    v.firstLayer = 5;
    v.lastLayer = 6; // one past the last, taken as by the driver
    EXPECT_OK(make(r, &td, &v));
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_READ_AS_INTEGER;
    EXPECT_OK(make(r, &td));
    EXPECT_OK(cuArrayDestroy(l));
}

// ---- Formats a texture reads (issue 23, part texfilter; docs/probes/kernels/texfilter/probe.txt) ----

TEST_F(TexObject, VideoArray_IsInvalidValue_ButEachOfItsPlanesIsAPlainArray)
{
    static const CUarray_format video[] = {CU_AD_FORMAT_NV12, CU_AD_FORMAT_P010, CU_AD_FORMAT_NV16,
                                           CU_AD_FORMAT_Y444_PLANAR8};
    for (CUarray_format f : video) {
        CUarray a = make_array(8, 4, 0, f, 3, 0x100 /* CUDA_ARRAY3D_VIDEO_ENCODE_DECODE */);
        ASSERT_NE(a, nullptr);
        CUDA_RESOURCE_DESC r = array(a);
        for (unsigned flags : {0u, (unsigned)CU_TRSF_READ_AS_INTEGER}) {
            td.flags = flags;
            td.filterMode = CU_TR_FILTER_MODE_POINT;
            EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td)) << "format 0x" << std::hex << f;
            td.filterMode = CU_TR_FILTER_MODE_LINEAR;
            EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(r, &td)) << "format 0x" << std::hex << f;
        }
        td.flags = 0;
        CUarray plane = nullptr;
        for (unsigned p = 0; cuArrayGetPlane(&plane, a, p) == CUDA_SUCCESS; ++p)
            EXPECT_OK(make(array(plane), &td)) << "plane " << p << " of format 0x" << std::hex << f;
        EXPECT_OK(cuArrayDestroy(a));
    }
    CUarray packed = make_array(8, 4, 0, CU_AD_FORMAT_YUY2, 4, 0x100);
    ASSERT_NE(packed, nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(packed), &td));
    EXPECT_OK(cuArrayDestroy(packed));
}

TEST_F(TexObject, SrgbBlockCompressedFormats_NeedTheSrgbFlag)
{
    static const CUarray_format srgb[] = {CU_AD_FORMAT_BC1_UNORM_SRGB, CU_AD_FORMAT_BC2_UNORM_SRGB,
                                          CU_AD_FORMAT_BC3_UNORM_SRGB, CU_AD_FORMAT_BC7_UNORM_SRGB};
    for (CUarray_format f : srgb) {
        CUarray a = make_array(16, 16, 0, f, 4, 0);
        ASSERT_NE(a, nullptr);
        td.flags = 0;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, make(array(a), &td)) << "format 0x" << std::hex << f;
        td.flags = CU_TRSF_SRGB;
        EXPECT_OK(make(array(a), &td)) << "format 0x" << std::hex << f;
        EXPECT_OK(cuArrayDestroy(a));
    }
    // the formats without sRGB take the flag or leave it
    CUarray bc4 = make_array(16, 16, 0, CU_AD_FORMAT_BC4_UNORM, 1, 0);
    ASSERT_NE(bc4, nullptr);
    td.flags = CU_TRSF_SRGB;
    EXPECT_OK(make(array(bc4), &td));
    td.flags = 0;
    EXPECT_OK(make(array(bc4), &td));
    EXPECT_OK(cuArrayDestroy(bc4));
}
