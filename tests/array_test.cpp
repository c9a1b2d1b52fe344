// CUDA arrays and mipmapped arrays through the driver API (src/image): creation, descriptors,
// planes, memory requirements, limits, every bad input with the H100's code
// (docs/probes/images/arrays), lifetimes; and every copy with an array on either side, checked
// against memcpy of the same bytes.
#include "framework/testing.h"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace extmem_test;

namespace {

CUDA_ARRAY3D_DESCRIPTOR desc3(size_t w, size_t h, size_t d, CUarray_format f, unsigned ch, unsigned flags = 0)
{
    CUDA_ARRAY3D_DESCRIPTOR a;
    memset(&a, 0, sizeof(a));
    a.Width = w;
    a.Height = h;
    a.Depth = d;
    a.Format = f;
    a.NumChannels = ch;
    a.Flags = flags;
    return a;
}

class Array : public ContextTest {
protected:
    void TearDown() override
    {
        for (CUarray a : arrays)
            cuArrayDestroy(a);
        for (CUmipmappedArray m : mipmaps)
            cuMipmappedArrayDestroy(m);
        ContextTest::TearDown();
    }
    CUarray make(const CUDA_ARRAY3D_DESCRIPTOR &d)
    {
        CUarray a = nullptr;
        EXPECT_OK(cuArray3DCreate(&a, &d));
        if (a)
            arrays.push_back(a);
        return a;
    }
    CUresult try_make(const CUDA_ARRAY3D_DESCRIPTOR &d)
    {
        CUarray a = nullptr;
        CUresult r = cuArray3DCreate(&a, &d);
        if (r == CUDA_SUCCESS)
            arrays.push_back(a);
        return r;
    }
    CUmipmappedArray make_mip(const CUDA_ARRAY3D_DESCRIPTOR &d, unsigned levels)
    {
        CUmipmappedArray m = nullptr;
        EXPECT_OK(cuMipmappedArrayCreate(&m, &d, levels));
        if (m)
            mipmaps.push_back(m);
        return m;
    }
    std::vector<CUarray> arrays;
    std::vector<CUmipmappedArray> mipmaps;
};

const CUarray_format F32 = CU_AD_FORMAT_FLOAT, U8 = CU_AD_FORMAT_UNSIGNED_INT8;

} // namespace

// ---- Creation and descriptors ----

TEST_F(Array, Create1D2D3D_DescriptorsReadBackAsGiven)
{
    const CUDA_ARRAY3D_DESCRIPTOR shapes[] = {desc3(64, 0, 0, F32, 1), desc3(64, 32, 0, F32, 4),
                                              desc3(64, 32, 8, F32, 2), desc3(17, 3, 0, U8, 1),
                                              desc3(100, 50, 7, U8, 1)};
    for (const auto &d : shapes) {
        CUarray a = make(d);
        CUDA_ARRAY3D_DESCRIPTOR g;
        memset(&g, 0xee, sizeof(g));
        ASSERT_OK(cuArray3DGetDescriptor(&g, a));
        EXPECT_EQ(0, memcmp(&g, &d, sizeof(d)));
        CUDA_ARRAY_DESCRIPTOR g2;
        ASSERT_OK(cuArrayGetDescriptor(&g2, a));
        EXPECT_EQ(d.Width, g2.Width);
        EXPECT_EQ(d.Height, g2.Height);
        EXPECT_EQ(d.Format, g2.Format);
        EXPECT_EQ(d.NumChannels, g2.NumChannels);
    }
}

TEST_F(Array, ArrayCreate_MakesA2DArrayWithNoFlags)
{
    CUDA_ARRAY_DESCRIPTOR d = {33, 7, CU_AD_FORMAT_HALF, 2};
    CUarray a = nullptr;
    ASSERT_OK(cuArrayCreate(&a, &d));
    arrays.push_back(a);
    CUDA_ARRAY3D_DESCRIPTOR g;
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(33u, g.Width);
    EXPECT_EQ(7u, g.Height);
    EXPECT_EQ(0u, g.Depth);
    EXPECT_EQ(0u, g.Flags);
    d.Height = 0; // 1D
    CUarray b = nullptr;
    ASSERT_OK(cuArrayCreate(&b, &d));
    arrays.push_back(b);
}

TEST_F(Array, EveryFormat_TakesTheChannelCountsTheH100Takes)
{
    struct Case {
        unsigned fmt;
        unsigned ok_mask; // bit c-1: c channels accepted (array_probe.out)
    } cases[] = {{0x01, 0xb}, {0x02, 0xb}, {0x03, 0xb}, {0x08, 0xb}, {0x09, 0xb}, {0x0a, 0xb}, {0x10, 0xb},
                 {0x20, 0xb}, {0x50, 0x8}, {0x91, 0x8}, {0x92, 0x8}, {0x93, 0x8}, {0x94, 0x8}, {0x95, 0x8},
                 {0x96, 0x8}, {0x97, 0x1}, {0x98, 0x1}, {0x99, 0x2}, {0x9a, 0x2}, {0x9b, 0x4}, {0x9c, 0x4},
                 {0x9d, 0x8}, {0x9e, 0x8}, {0xc0, 0x1}, {0xc1, 0x2}, {0xc2, 0x8}, {0xc3, 0x1}, {0xc4, 0x2},
                 {0xc5, 0x8}, {0xc6, 0x1}, {0xc7, 0x2}, {0xc8, 0x8}, {0xc9, 0x1}, {0xca, 0x2}, {0xcb, 0x8},
                 // video formats without CUDA_ARRAY3D_VIDEO_ENCODE_DECODE: none
                 {0x9f, 0}, {0xa5, 0}, {0xb0, 0}, {0xb2, 0}};
    for (const Case &c : cases)
        for (unsigned ch = 1; ch <= 4; ++ch) {
            bool ok = c.ok_mask & (1u << (ch - 1));
            EXPECT_CU(ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE,
                      try_make(desc3(256, 64, 0, (CUarray_format)c.fmt, ch)))
                << "format 0x" << std::hex << c.fmt << " channels " << ch;
        }
}

TEST_F(Array, VideoFormats_NeedTheVideoFlagAndTakeTheirChannels)
{
    const unsigned V = CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
    struct Case {
        unsigned fmt, channels;
    } cases[] = {{0x9f, 3}, {0xa1, 3}, {0xa2, 3}, {0xa3, 3}, {0xa4, 3}, {0xb0, 3}, {0xb2, 3}, {0xb3, 3},
                 {0xa5, 4}, {0xa6, 2}, {0xa7, 2}, {0xa8, 4}, {0xa9, 1}, {0xb1, 4}};
    for (const Case &c : cases) {
        for (unsigned ch = 1; ch <= 4; ++ch)
            EXPECT_CU(ch == c.channels ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE,
                      try_make(desc3(64, 32, 0, (CUarray_format)c.fmt, ch, V)))
                << "format 0x" << std::hex << c.fmt << " channels " << ch;
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, (CUarray_format)c.fmt, c.channels)));
    }
}

// ---- Planes ----

TEST_F(Array, Nv12_HasALumaPlaneAndAHalfSizeChromaPlane)
{
    CUarray a = make(desc3(64, 32, 0, CU_AD_FORMAT_NV12, 3, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE));
    CUarray y = nullptr, uv = nullptr, again = nullptr, none = nullptr;
    ASSERT_OK(cuArrayGetPlane(&y, a, 0));
    ASSERT_OK(cuArrayGetPlane(&uv, a, 1));
    ASSERT_OK(cuArrayGetPlane(&again, a, 0));
    EXPECT_EQ(y, again);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetPlane(&none, a, 2));
    CUDA_ARRAY3D_DESCRIPTOR g;
    ASSERT_OK(cuArray3DGetDescriptor(&g, y));
    EXPECT_EQ(64u, g.Width);
    EXPECT_EQ(32u, g.Height);
    EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT8, g.Format);
    EXPECT_EQ(1u, g.NumChannels);
    EXPECT_EQ((unsigned)CUDA_ARRAY3D_VIDEO_ENCODE_DECODE, g.Flags);
    ASSERT_OK(cuArray3DGetDescriptor(&g, uv));
    EXPECT_EQ(32u, g.Width);
    EXPECT_EQ(16u, g.Height);
    EXPECT_EQ(2u, g.NumChannels);
    // Destroying a plane leaves it (it is its array's), as the driver does for levels.
    EXPECT_OK(cuArrayDestroy(uv));
    EXPECT_OK(cuArray3DGetDescriptor(&g, uv));
    // The planes die with the array.
    ASSERT_OK(cuArrayDestroy(a));
    arrays.clear();
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, y));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, uv));
}

TEST_F(Array, PlanarFormats_HaveThePlaneShapesTheH100Reports)
{
    struct Case {
        CUarray_format fmt;
        unsigned planes;
        CUarray_format plane_fmt;
        size_t cw, ch;
        unsigned cchan;
    } cases[] = {{CU_AD_FORMAT_P010, 2, CU_AD_FORMAT_UNSIGNED_INT16, 32, 16, 2},
                 {CU_AD_FORMAT_P016, 2, CU_AD_FORMAT_UNSIGNED_INT16, 32, 16, 2},
                 {CU_AD_FORMAT_NV16, 2, CU_AD_FORMAT_UNSIGNED_INT8, 32, 32, 2},
                 {CU_AD_FORMAT_P210, 2, CU_AD_FORMAT_UNSIGNED_INT16, 32, 32, 2},
                 {CU_AD_FORMAT_P216, 2, CU_AD_FORMAT_UNSIGNED_INT16, 32, 32, 2},
                 {CU_AD_FORMAT_Y444_PLANAR8, 3, CU_AD_FORMAT_UNSIGNED_INT8, 64, 32, 1},
                 {CU_AD_FORMAT_Y444_PLANAR10, 3, CU_AD_FORMAT_UNSIGNED_INT16, 64, 32, 1}};
    for (const Case &c : cases) {
        CUarray a = make(desc3(64, 32, 2, c.fmt, 3, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE | CUDA_ARRAY3D_LAYERED));
        for (unsigned p = 0; p < 3; ++p) {
            CUarray pl = nullptr;
            if (p >= c.planes) {
                EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetPlane(&pl, a, p));
                continue;
            }
            ASSERT_OK(cuArrayGetPlane(&pl, a, p));
            CUDA_ARRAY3D_DESCRIPTOR g;
            ASSERT_OK(cuArray3DGetDescriptor(&g, pl));
            EXPECT_EQ(p ? c.cw : 64u, g.Width);
            EXPECT_EQ(p ? c.ch : 32u, g.Height);
            EXPECT_EQ(2u, g.Depth);
            EXPECT_EQ(c.plane_fmt, g.Format);
            EXPECT_EQ(p ? c.cchan : 1u, g.NumChannels);
        }
    }
}

TEST_F(Array, GetPlane_OfAnArrayThatIsNotPlanar_IsInvalidValue)
{
    CUarray a = make(desc3(64, 32, 0, F32, 1));
    CUarray p = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetPlane(&p, a, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetPlane(nullptr, a, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayGetPlane(&p, nullptr, 0));
}

TEST_F(Array, PlanarFormat_OddWidthOr1D_IsInvalidValue)
{
    const unsigned V = CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(15, 16, 0, CU_AD_FORMAT_NV12, 3, V)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 15, 0, CU_AD_FORMAT_NV12, 3, V)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 0, 0, CU_AD_FORMAT_NV12, 3, V)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 16, 2, CU_AD_FORMAT_NV12, 3, V)));
}

// ---- Flags ----

TEST_F(Array, LayeredCubemapGatherSurface_AreTakenInTheirShapes)
{
    EXPECT_OK(try_make(desc3(64, 0, 2048, F32, 1, CUDA_ARRAY3D_LAYERED)));
    EXPECT_OK(try_make(desc3(64, 32, 3, F32, 1, CUDA_ARRAY3D_LAYERED)));
    EXPECT_OK(try_make(desc3(16, 16, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_OK(try_make(desc3(16, 16, 12, F32, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED)));
    EXPECT_OK(try_make(desc3(16, 16, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED)));
    EXPECT_OK(try_make(desc3(64, 32, 0, F32, 1, CUDA_ARRAY3D_TEXTURE_GATHER)));
    EXPECT_OK(try_make(desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_TEXTURE_GATHER)));
    EXPECT_OK(try_make(desc3(16, 16, 6, F32, 4, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_OK(try_make(desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_DEFERRED_MAPPING)));
    EXPECT_OK(try_make(desc3(64, 32, 0, U8, 4, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)));
    EXPECT_OK(try_make(desc3(16, 16, 4, CU_AD_FORMAT_BC1_UNORM, 4)));
    EXPECT_OK(try_make(desc3(17, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4)));
    EXPECT_OK(try_make(desc3(16, 16, 2, CU_AD_FORMAT_BC7_UNORM, 4, CUDA_ARRAY3D_LAYERED)));
}

TEST_F(Array, CubemapNotSquare_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 8, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_DETAIL_HAS("square");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 0, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
}

TEST_F(Array, CubemapWithoutSixFaces_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 16, 5, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 16, 0, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 16, 12, F32, 1, CUDA_ARRAY3D_CUBEMAP)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              try_make(desc3(16, 16, 7, F32, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED)));
}

TEST_F(Array, TextureGatherOutside2D_IsInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, F32, 1, CUDA_ARRAY3D_TEXTURE_GATHER)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 4, F32, 1, CUDA_ARRAY3D_TEXTURE_GATHER)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              try_make(desc3(64, 32, 4, F32, 1, CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_LAYERED)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(32769, 4, 0, U8, 1, CUDA_ARRAY3D_TEXTURE_GATHER)));
}

TEST_F(Array, DepthTextureAndColorAttachment_AreInvalidValueAsOnTheH100)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, F32, 1, CUDA_ARRAY3D_DEPTH_TEXTURE)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, U8, 1, CUDA_ARRAY3D_DEPTH_TEXTURE)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_COLOR_ATTACHMENT)));
}

TEST_F(Array, Sparse_IsNotSupportedWithAReason)
{
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, try_make(desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_SPARSE)));
    EXPECT_DETAIL_HAS("sparse");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              try_make(desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING)));
    int supported = -1;
    ASSERT_OK(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, 0));
    EXPECT_EQ(0, supported);
}

TEST_F(Array, UnknownFlagBits_AreInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, F32, 4, 0x200)));
}

TEST_F(Array, SurfaceOverABlockFormat_IsNotSupported)
{
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
              try_make(desc3(16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4, CUDA_ARRAY3D_SURFACE_LDST)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16, 0, 0, CU_AD_FORMAT_BC1_UNORM, 4)));
}

// ---- Bad shapes and limits ----

TEST_F(Array, ZeroExtents_AreInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(0, 0, 0, F32, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(0, 4, 0, F32, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(0, 4, 4, F32, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(4, 0, 4, F32, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 32, 0, F32, 1, CUDA_ARRAY3D_LAYERED)));
}

TEST_F(Array, ThreeChannelsBadFormats_AreInvalidValue)
{
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, F32, 3)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, F32, 0)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, F32, 5)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, (CUarray_format)0, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 0, (CUarray_format)0x33, 1)));
}

TEST_F(Array, Limits_AreTheDeviceAttributesAndEnforcedAtTheirEdge)
{
    struct Case {
        CUdevice_attribute attr;
        int value;
    } attrs[] = {{CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384},
                 {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768}};
    for (const Case &c : attrs) {
        int v = 0;
        ASSERT_OK(cuDeviceGetAttribute(&v, c.attr, 0));
        EXPECT_EQ(c.value, v) << "attribute " << (int)c.attr;
    }
    EXPECT_OK(try_make(desc3(131072, 0, 0, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(131073, 0, 0, U8, 1)));
    EXPECT_OK(try_make(desc3(32768, 0, 0, U8, 1, CUDA_ARRAY3D_SURFACE_LDST)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(32769, 0, 0, U8, 1, CUDA_ARRAY3D_SURFACE_LDST)));
    EXPECT_OK(try_make(desc3(1, 65536, 0, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(1, 65537, 0, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(131073, 1, 0, U8, 1)));
    EXPECT_OK(try_make(desc3(16384, 1, 1, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(16385, 1, 1, U8, 1)));
    EXPECT_OK(try_make(desc3(1, 1, 32768, U8, 1))); // the alternate 3D limits
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(1, 1, 32769, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(1, 1, 16385, U8, 1, CUDA_ARRAY3D_SURFACE_LDST)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3((size_t)1 << 40, 1, 1, U8, 1)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(64, 0, 2049, F32, 1, CUDA_ARRAY3D_LAYERED)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(32769, 0, 2, F32, 1, CUDA_ARRAY3D_LAYERED)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(32769, 1, 1, U8, 1, CUDA_ARRAY3D_LAYERED)));
    EXPECT_OK(try_make(desc3(4, 4, 2046, U8, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(4, 4, 2052, U8, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, try_make(desc3(32769, 32769, 6, U8, 1, CUDA_ARRAY3D_CUBEMAP)));
}

// ---- Handles ----

TEST_F(Array, NullArguments_HaveTheDriversCodes)
{
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 4, 0, F32, 1);
    CUDA_ARRAY_DESCRIPTOR d2 = {64, 0, F32, 1};
    CUarray a = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArray3DCreate(&a, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArray3DCreate(nullptr, &d));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&a, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(nullptr, &d2));
    CUDA_ARRAY3D_DESCRIPTOR g;
    CUDA_ARRAY_DESCRIPTOR g2;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayGetDescriptor(&g2, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(nullptr));
    a = make(d);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArray3DGetDescriptor(nullptr, a));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetDescriptor(nullptr, a));
    CUDA_ARRAY_MEMORY_REQUIREMENTS m;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetMemoryRequirements(nullptr, a, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetMemoryRequirements(&m, nullptr, 0));
    CUDA_ARRAY_SPARSE_PROPERTIES sp;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetSparseProperties(&sp, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetSparseProperties(nullptr, a));
}

TEST_F(Array, DestroyedAndForgedHandles_AreInvalidHandle)
{
    CUarray a = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 0, 0, F32, 1);
    ASSERT_OK(cuArray3DCreate(&a, &d));
    ASSERT_OK(cuArrayDestroy(a));
    CUDA_ARRAY3D_DESCRIPTOR g;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, a));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(a));
    CUarray forged = (CUarray)(uintptr_t)0x12345678;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, forged));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(forged));
    // A handle of another kind.
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, (CUarray)s));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Array, SparseProperties_OfAnOrdinaryArray_AreInvalidValue)
{
    CUarray a = make(desc3(64, 32, 0, F32, 4));
    CUDA_ARRAY_SPARSE_PROPERTIES sp;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetSparseProperties(&sp, a));
}

// ---- Memory requirements ----

TEST_F(Array, MemoryRequirements_OnlyForDeferredMapping_In64KiBUnits)
{
    CUarray plain = make(desc3(64, 64, 0, F32, 4));
    CUDA_ARRAY_MEMORY_REQUIREMENTS m;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetMemoryRequirements(&m, plain, 0));
    struct Case {
        size_t w, h, d;
        size_t at_least;
    } cases[] = {{1, 0, 0, 16}, {64, 64, 0, 65536}, {1024, 1024, 0, 16u << 20}, {100, 37, 5, 100 * 37 * 5 * 16}};
    for (const Case &c : cases) {
        CUarray a = make(desc3(c.w, c.h, c.d, F32, 4, CUDA_ARRAY3D_DEFERRED_MAPPING));
        memset(&m, 0xee, sizeof(m));
        ASSERT_OK(cuArrayGetMemoryRequirements(&m, a, 0));
        EXPECT_EQ(65536u, m.alignment);
        EXPECT_EQ(0u, m.size % 65536);
        EXPECT_GE(m.size, c.at_least);
        EXPECT_LT(m.size, c.at_least + 2 * 65536 + c.at_least / 4);
        EXPECT_EQ(0u, m.reserved[0]);
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetMemoryRequirements(&m, a, 1));
    }
}

// ---- Mipmapped arrays ----

TEST_F(Array, MipmappedArray_LevelsHalveAndAreTheSameHandleEachTime)
{
    CUmipmappedArray m = make_mip(desc3(64, 32, 0, F32, 4), 7);
    const size_t w[] = {64, 32, 16, 8, 4, 2, 1}, h[] = {32, 16, 8, 4, 2, 1, 1};
    for (unsigned l = 0; l < 7; ++l) {
        CUarray a = nullptr, b = nullptr;
        ASSERT_OK(cuMipmappedArrayGetLevel(&a, m, l));
        ASSERT_OK(cuMipmappedArrayGetLevel(&b, m, l));
        EXPECT_EQ(a, b);
        CUDA_ARRAY3D_DESCRIPTOR g;
        ASSERT_OK(cuArray3DGetDescriptor(&g, a));
        EXPECT_EQ(w[l], g.Width);
        EXPECT_EQ(h[l], g.Height);
        EXPECT_EQ(0u, g.Depth);
    }
    CUarray a = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&a, m, 7));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(nullptr, m, 0));
}

TEST_F(Array, MipmappedArray_LevelCountsAreClampedAsOnTheDriver)
{
    CUarray a = nullptr;
    CUmipmappedArray zero = make_mip(desc3(64, 32, 0, F32, 4), 0);
    EXPECT_OK(cuMipmappedArrayGetLevel(&a, zero, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&a, zero, 1));
    CUmipmappedArray many = make_mip(desc3(64, 32, 0, F32, 4), 9);
    EXPECT_OK(cuMipmappedArrayGetLevel(&a, many, 6));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&a, many, 7));
    CUmipmappedArray one_d = make_mip(desc3(100, 0, 0, U8, 1), 8);
    const size_t w[] = {100, 50, 25, 12, 6, 3, 1};
    for (unsigned l = 0; l < 7; ++l) {
        ASSERT_OK(cuMipmappedArrayGetLevel(&a, one_d, l));
        CUDA_ARRAY3D_DESCRIPTOR g;
        ASSERT_OK(cuArray3DGetDescriptor(&g, a));
        EXPECT_EQ(w[l], g.Width);
        EXPECT_EQ(0u, g.Height);
    }
}

TEST_F(Array, MipmappedArray_3DLayeredCubemapLevels_HaveTheDriversShapes)
{
    CUarray a = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR g;
    CUmipmappedArray m3 = make_mip(desc3(64, 16, 4, U8, 1), 7);
    ASSERT_OK(cuMipmappedArrayGetLevel(&a, m3, 1));
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(32u, g.Width);
    EXPECT_EQ(8u, g.Height);
    EXPECT_EQ(2u, g.Depth);
    ASSERT_OK(cuMipmappedArrayGetLevel(&a, m3, 6));
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(1u, g.Depth);
    CUmipmappedArray ml = make_mip(desc3(64, 16, 4, U8, 1, CUDA_ARRAY3D_LAYERED), 7);
    ASSERT_OK(cuMipmappedArrayGetLevel(&a, ml, 6));
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(1u, g.Width);
    EXPECT_EQ(4u, g.Depth);
    EXPECT_EQ((unsigned)CUDA_ARRAY3D_LAYERED, g.Flags);
    CUmipmappedArray mc = make_mip(desc3(16, 16, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP), 5);
    ASSERT_OK(cuMipmappedArrayGetLevel(&a, mc, 4));
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(1u, g.Width);
    EXPECT_EQ(1u, g.Height);
    EXPECT_EQ(6u, g.Depth);
    CUmipmappedArray bc = make_mip(desc3(64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4), 7);
    ASSERT_OK(cuMipmappedArrayGetLevel(&a, bc, 6));
    ASSERT_OK(cuArray3DGetDescriptor(&g, a));
    EXPECT_EQ(1u, g.Width);
}

TEST_F(Array, MipmappedArray_BadInput_HasTheDriversCodes)
{
    CUmipmappedArray m = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 64, 0, U8, 1);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, nullptr, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(nullptr, &d, 2));
    CUDA_ARRAY3D_DESCRIPTOR big = desc3(32769, 4, 0, U8, 1), big1 = desc3(32769, 0, 0, U8, 1);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, &big, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, &big1, 2));
    CUDA_ARRAY3D_DESCRIPTOR ch3 = desc3(64, 64, 0, U8, 3);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, &ch3, 2));
    CUDA_ARRAY3D_DESCRIPTOR sparse = desc3(64, 64, 0, U8, 1, CUDA_ARRAY3D_SPARSE);
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMipmappedArrayCreate(&m, &sparse, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(nullptr));
    CUarray a;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&a, nullptr, 0));
    CUDA_ARRAY_MEMORY_REQUIREMENTS mr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetMemoryRequirements(&mr, nullptr, 0));
    CUDA_ARRAY_SPARSE_PROPERTIES sp;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetSparseProperties(&sp, nullptr));
    m = make_mip(d, 2);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetMemoryRequirements(&mr, m, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetSparseProperties(&sp, m));
    CUDA_ARRAY3D_DESCRIPTOR deferred = desc3(64, 32, 0, F32, 4, CUDA_ARRAY3D_DEFERRED_MAPPING);
    CUmipmappedArray md = make_mip(deferred, 3);
    ASSERT_OK(cuMipmappedArrayGetMemoryRequirements(&mr, md, 0));
    EXPECT_EQ(65536u, mr.size);
    EXPECT_EQ(65536u, mr.alignment);
}

TEST_F(Array, MipmappedArray_DestroyingALevelLeavesIt_DestroyingTheArrayKillsEveryLevel)
{
    CUmipmappedArray m = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 32, 0, F32, 4);
    ASSERT_OK(cuMipmappedArrayCreate(&m, &d, 3));
    CUarray l1 = nullptr, again = nullptr;
    ASSERT_OK(cuMipmappedArrayGetLevel(&l1, m, 1));
    EXPECT_OK(cuArrayDestroy(l1));
    ASSERT_OK(cuMipmappedArrayGetLevel(&again, m, 1));
    EXPECT_EQ(l1, again);
    ASSERT_OK(cuMipmappedArrayDestroy(m));
    CUDA_ARRAY3D_DESCRIPTOR g;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, l1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&again, m, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(m));
}

// ---- Context teardown ----

TEST(ArrayContext, DestroyingAContext_FreesItsArraysAndMipmappedArrays)
{
    ASSERT_OK(cuInit(0));
    CUcontext c;
    ASSERT_OK(cuCtxCreate(&c, nullptr, 0, 0));
    size_t free_before = 0, total = 0;
    CUarray a = nullptr;
    CUmipmappedArray m = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(1024, 1024, 0, F32, 4); // 16 MiB
    ASSERT_OK(cuArray3DCreate(&a, &d));
    ASSERT_OK(cuMipmappedArrayCreate(&m, &d, 4));
    CUarray level = nullptr, plane = nullptr, nv12 = nullptr;
    ASSERT_OK(cuMipmappedArrayGetLevel(&level, m, 2));
    CUDA_ARRAY3D_DESCRIPTOR dv = desc3(64, 32, 0, CU_AD_FORMAT_NV12, 3, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE);
    ASSERT_OK(cuArray3DCreate(&nv12, &dv));
    ASSERT_OK(cuArrayGetPlane(&plane, nv12, 1));
    (void)free_before;
    (void)total;
    int fds = open_fd_count();
    ASSERT_OK(cuCtxDestroy(c));
    EXPECT_EQ(fds - 3, open_fd_count()); // the three arrays' memory (memfds) is closed
    ASSERT_OK(cuCtxCreate(&c, nullptr, 0, 0));
    CUDA_ARRAY3D_DESCRIPTOR g;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, a));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, level));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, plane));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, nv12));
    CUarray l = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&l, m, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(a));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(m));
    ASSERT_OK(cuCtxDestroy(c));
}

// ---- Copies ----

namespace {

// The bytes of an array as a host mirror: slices x rows x row_bytes, packed.
struct Mirror {
    size_t row_bytes = 0, rows = 0, slices = 0;
    std::vector<unsigned char> bytes;
    unsigned char *at(size_t x, size_t y, size_t z) { return &bytes[(z * rows + y) * row_bytes + x]; }
};

Mirror mirror_of(size_t row_bytes, size_t rows, size_t slices)
{
    Mirror m;
    m.row_bytes = row_bytes, m.rows = rows, m.slices = slices;
    m.bytes.assign(row_bytes * rows * slices, 0);
    return m;
}

void fill_pattern(std::vector<unsigned char> &v, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (auto &b : v) {
        x = x * 1664525u + 1013904223u;
        b = (unsigned char)(x >> 24);
    }
}

// A 3D copy between an array and packed host memory of the given box.
CUresult copy_box(bool to_array, CUarray a, void *host, size_t x, size_t y, size_t z, size_t w, size_t h, size_t d,
                  CUstream s = nullptr, bool async = false)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof(c));
    if (to_array) {
        c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = host, c.srcPitch = w, c.srcHeight = h;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a, c.dstXInBytes = x, c.dstY = y, c.dstZ = z;
    } else {
        c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = host, c.dstPitch = w, c.dstHeight = h;
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a, c.srcXInBytes = x, c.srcY = y, c.srcZ = z;
    }
    c.WidthInBytes = w, c.Height = h, c.Depth = d;
    return async ? cuMemcpy3DAsync(&c, s) : cuMemcpy3D(&c);
}

// Reads the whole array back and compares it with the mirror.
void expect_array_is(CUarray a, const Mirror &m)
{
    std::vector<unsigned char> got(m.bytes.size(), 0xcd);
    ASSERT_OK(copy_box(false, a, got.data(), 0, 0, 0, m.row_bytes, m.rows, m.slices));
    EXPECT_TRUE(got == m.bytes) << "the array's bytes differ from memcpy's";
}

// Writes a packed box into the array and the same bytes into the mirror with memcpy.
void write_box(CUarray a, Mirror &m, size_t x, size_t y, size_t z, size_t w, size_t h, size_t d, unsigned seed)
{
    std::vector<unsigned char> src(w * h * d);
    fill_pattern(src, seed);
    ASSERT_OK(copy_box(true, a, src.data(), x, y, z, w, h, d));
    for (size_t k = 0; k < d; ++k)
        for (size_t j = 0; j < h; ++j)
            memcpy(m.at(x, y + j, z + k), &src[(k * h + j) * w], w);
}

} // namespace

TEST_F(Array, Copy3D_WholeAndSubBoxes_MatchMemcpyForEveryShape)
{
    struct Case {
        CUDA_ARRAY3D_DESCRIPTOR d;
        size_t row_bytes, rows, slices;
    } cases[] = {
        {desc3(37, 0, 0, F32, 4), 37 * 16, 1, 1},                                     // 1D
        {desc3(37, 13, 0, F32, 2), 37 * 8, 13, 1},                                    // 2D
        {desc3(17, 9, 5, U8, 1), 17, 9, 5},                                           // 3D
        {desc3(33, 0, 4, CU_AD_FORMAT_HALF, 1, CUDA_ARRAY3D_LAYERED), 66, 1, 4},      // 1D layered
        {desc3(20, 7, 3, CU_AD_FORMAT_SIGNED_INT16, 4, CUDA_ARRAY3D_LAYERED), 160, 7, 3}, // 2D layered
        {desc3(8, 8, 6, F32, 1, CUDA_ARRAY3D_CUBEMAP), 32, 8, 6},                     // cubemap
        {desc3(4, 4, 12, U8, 4, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED), 16, 4, 12},
        {desc3(18, 10, 0, CU_AD_FORMAT_BC1_UNORM, 4), 5 * 8, 3, 1},                   // BC1: blocks
        {desc3(16, 16, 2, CU_AD_FORMAT_BC7_UNORM, 4, CUDA_ARRAY3D_LAYERED), 4 * 16, 4, 2},
    };
    unsigned seed = 1;
    for (const Case &c : cases) {
        CUarray a = make(c.d);
        Mirror m = mirror_of(c.row_bytes, c.rows, c.slices);
        write_box(a, m, 0, 0, 0, c.row_bytes, c.rows, c.slices, seed++);
        expect_array_is(a, m);
        // A sub-box at an odd byte offset, then a single byte at the far corner.
        size_t x = c.row_bytes / 3 + 1, y = c.rows / 2, z = c.slices / 2;
        write_box(a, m, x, y, z, c.row_bytes - x - 1, c.rows - y, c.slices - z, seed++);
        write_box(a, m, c.row_bytes - 1, c.rows - 1, c.slices - 1, 1, 1, 1, seed++);
        expect_array_is(a, m);
        // Reading a sub-box back gives memcpy's bytes of the mirror.
        std::vector<unsigned char> got((c.row_bytes - x) * (c.rows - y) * (c.slices - z));
        ASSERT_OK(copy_box(false, a, got.data(), x, y, z, c.row_bytes - x, c.rows - y, c.slices - z));
        size_t i = 0;
        for (size_t k = z; k < c.slices; ++k)
            for (size_t j = y; j < c.rows; ++j, i += c.row_bytes - x)
                EXPECT_EQ(0, memcmp(&got[i], m.at(x, j, k), c.row_bytes - x)) << "row " << j << " slice " << k;
    }
}

TEST_F(Array, Copy2D_HostDeviceArrayEveryPairing_MatchesMemcpy)
{
    const size_t W = 29, H = 11, RB = W * 4; // U8 x4
    CUarray a = make(desc3(W, H, 0, U8, 4)), b = make(desc3(W, H, 0, U8, 4));
    std::vector<unsigned char> host(300 * H), out(300 * H, 0);
    fill_pattern(host, 7);
    CUdeviceptr dev;
    size_t dpitch;
    ASSERT_OK(cuMemAllocPitch(&dev, &dpitch, RB, H, 4));
    CUDA_MEMCPY2D c;
    // Host (pitch 300) -> array.
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = host.data(), c.srcPitch = 300;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a, c.dstPitch = 7; // ignored on an array side
    c.WidthInBytes = RB, c.Height = H;
    ASSERT_OK(cuMemcpy2D(&c));
    // Array -> array (cuMemcpy2DUnaligned), array -> device, device -> host.
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = b;
    c.WidthInBytes = RB, c.Height = H;
    ASSERT_OK(cuMemcpy2DUnaligned(&c));
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = b;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = dev, c.dstPitch = dpitch;
    c.WidthInBytes = RB, c.Height = H;
    ASSERT_OK(cuMemcpy2D(&c));
    ASSERT_OK(cuMemcpy2DUnaligned(&c)); // the same again, through the other entry point
    for (size_t y = 0; y < H; ++y)
        EXPECT_EQ(0, memcmp((unsigned char *)(uintptr_t)dev + y * dpitch, &host[y * 300], RB)) << "row " << y;
    // Device -> array at an offset (a sub-rectangle), then array -> host (pitch 300).
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = dev, c.srcPitch = dpitch;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a, c.dstXInBytes = 5, c.dstY = 3;
    c.WidthInBytes = RB - 5, c.Height = H - 3;
    ASSERT_OK(cuMemcpy2D(&c));
    std::vector<unsigned char> expect(host);
    for (size_t y = 3; y < H; ++y)
        memcpy(&expect[y * 300 + 5], &host[(y - 3) * 300], RB - 5);
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = out.data(), c.dstPitch = 300;
    c.WidthInBytes = RB, c.Height = H;
    ASSERT_OK(cuMemcpy2D(&c));
    for (size_t y = 0; y < H; ++y)
        EXPECT_EQ(0, memcmp(&out[y * 300], &expect[y * 300], RB)) << "row " << y;
    EXPECT_OK(cuMemFree(dev));
}

TEST_F(Array, Copy1DForms_AddressRowZeroAndMatchMemcpy)
{
    CUarray a = make(desc3(64, 4, 0, F32, 1)), b = make(desc3(64, 0, 0, F32, 1));
    unsigned char in[256], out[256], mid[256];
    std::vector<unsigned char> v(256);
    fill_pattern(v, 3);
    memcpy(in, v.data(), 256);
    ASSERT_OK(cuMemcpyHtoA(a, 0, in, 256));
    ASSERT_OK(cuMemcpyAtoA(b, 0, a, 0, 256));
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 256));
    ASSERT_OK(cuMemcpyAtoD(d, b, 0, 256));
    EXPECT_EQ(0, memcmp((void *)(uintptr_t)d, in, 256));
    ASSERT_OK(cuMemcpyDtoA(a, 0, d, 256));
    ASSERT_OK(cuMemcpyAtoH(out, a, 0, 256));
    EXPECT_EQ(0, memcmp(out, in, 256));
    // Unaligned offsets, as the driver allows.
    ASSERT_OK(cuMemcpyHtoA(a, 3, in + 100, 7));
    memcpy(mid, in, 256);
    memcpy(mid + 3, in + 100, 7);
    ASSERT_OK(cuMemcpyAtoA(b, 1, a, 2, 200));
    ASSERT_OK(cuMemcpyAtoH(out, b, 1, 200));
    EXPECT_EQ(0, memcmp(out, mid + 2, 200));
    // Row 0 only: the 2D array's 1024 bytes are not reachable past its first 256.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a, 0, in, 257));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(out, a, 252, 8));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoA(b, 0, a, 0, 260));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD(d, a, 0, 1024));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(a, 0, d, 1024));
    EXPECT_OK(cuMemcpyHtoA(a, 0, in, 0));
    // NULL and non-device sides.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a, 0, nullptr, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(nullptr, 0, in, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(nullptr, a, 0, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(a, 0, (CUdeviceptr)(uintptr_t)in, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD((CUdeviceptr)(uintptr_t)out, a, 0, 16));
    EXPECT_OK(cuMemFree(d));
}

TEST_F(Array, CopiesPastAnEdge_AreInvalidValue)
{
    CUarray a = make(desc3(64, 4, 0, F32, 1)); // rows of 256 bytes, 4 rows, 1 slice
    std::vector<unsigned char> buf(4096);
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = buf.data(), c.srcPitch = 256;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a;
    c.WidthInBytes = 256, c.Height = 4;
    EXPECT_OK(cuMemcpy2D(&c));
    c.dstXInBytes = 4;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    EXPECT_DETAIL_HAS("runs past the array's row");
    c.dstXInBytes = 0, c.dstY = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    c.dstY = 0, c.srcPitch = 100; // the host side's pitch is below the width: wrong pitch
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    c.srcPitch = 256, c.Height = 0;
    EXPECT_OK(cuMemcpy2D(&c)); // an empty copy
    c.Height = 4, c.dstArray = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    // 3D: a second slice or a Z offset on a 2D array, a LOD.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, a, buf.data(), 0, 0, 0, 256, 4, 2));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, a, buf.data(), 0, 0, 1, 256, 4, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(false, a, buf.data(), 0, 0, 0, 257, 1, 1));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof(c3));
    c3.srcMemoryType = CU_MEMORYTYPE_HOST, c3.srcHost = buf.data(), c3.srcPitch = 256, c3.srcHeight = 4;
    c3.dstMemoryType = CU_MEMORYTYPE_ARRAY, c3.dstArray = a, c3.dstLOD = 1;
    c3.WidthInBytes = 256, c3.Height = 4, c3.Depth = 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c3));
    c3.dstLOD = 0, c3.dstPitch = 5, c3.dstHeight = 3; // ignored on the array's side, as on the driver
    EXPECT_OK(cuMemcpy3D(&c3));
    // A 1D layered array has one row a layer.
    CUarray l = make(desc3(16, 0, 4, F32, 1, CUDA_ARRAY3D_LAYERED));
    c.dstArray = l, c.WidthInBytes = 64, c.Height = 1;
    EXPECT_OK(cuMemcpy2D(&c));
    c.Height = 4;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
    EXPECT_OK(copy_box(true, l, buf.data(), 0, 0, 0, 64, 1, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, l, buf.data(), 0, 0, 0, 64, 4, 1));
    // BC: rows of blocks.
    CUarray bc = make(desc3(16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4));
    EXPECT_OK(copy_box(true, bc, buf.data(), 0, 0, 0, 32, 4, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, bc, buf.data(), 0, 0, 0, 32, 16, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, bc, buf.data(), 8, 4, 0, 8, 1, 1));
}

TEST_F(Array, CopiesWithAFreedOrForgedArray_AreInvalidHandle)
{
    CUarray a = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR d = desc3(64, 4, 0, F32, 1);
    ASSERT_OK(cuArray3DCreate(&a, &d));
    ASSERT_OK(cuArrayDestroy(a));
    unsigned char buf[1024];
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoA(a, 0, buf, 16));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, copy_box(true, a, buf, 0, 0, 0, 16, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, copy_box(false, (CUarray)(uintptr_t)0x12345678, buf, 0, 0, 0, 16, 1, 1));
}

TEST_F(Array, PlanarArrays_AreCopiedThroughTheirPlanes)
{
    CUarray a = make(desc3(64, 32, 0, CU_AD_FORMAT_NV12, 3, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE));
    std::vector<unsigned char> y(64 * 32), uv(32 * 2 * 16), back(64 * 32);
    fill_pattern(y, 11);
    fill_pattern(uv, 12);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, a, y.data(), 0, 0, 0, 8, 1, 1));
    CUarray py, puv;
    ASSERT_OK(cuArrayGetPlane(&py, a, 0));
    ASSERT_OK(cuArrayGetPlane(&puv, a, 1));
    ASSERT_OK(copy_box(true, py, y.data(), 0, 0, 0, 64, 32, 1));
    ASSERT_OK(copy_box(true, puv, uv.data(), 0, 0, 0, 64, 16, 1));
    ASSERT_OK(copy_box(false, py, back.data(), 0, 0, 0, 64, 32, 1));
    EXPECT_TRUE(back == y);
    back.resize(uv.size());
    ASSERT_OK(copy_box(false, puv, back.data(), 0, 0, 0, 64, 16, 1));
    EXPECT_TRUE(back == uv);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, puv, uv.data(), 0, 0, 0, 64, 17, 1));
}

TEST_F(Array, EachMipLevel_IsItsOwnArrayOfTheRightSize)
{
    CUmipmappedArray m = make_mip(desc3(40, 24, 0, F32, 2), 6);
    std::vector<Mirror> mirrors;
    for (unsigned l = 0; l < 6; ++l) {
        CUarray lv;
        ASSERT_OK(cuMipmappedArrayGetLevel(&lv, m, l));
        size_t w = 40 >> l ? 40 >> l : 1, h = 24 >> l ? 24 >> l : 1;
        mirrors.push_back(mirror_of(w * 8, h, 1));
        write_box(lv, mirrors.back(), 0, 0, 0, w * 8, h, 1, 100 + l);
        EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, lv, mirrors.back().bytes.data(), 0, 0, 0, w * 8 + 1, 1, 1));
    }
    for (unsigned l = 0; l < 6; ++l) { // writing one level left the others as they were
        CUarray lv;
        ASSERT_OK(cuMipmappedArrayGetLevel(&lv, m, l));
        expect_array_is(lv, mirrors[l]);
    }
    // The 3D and layered levels too.
    CUmipmappedArray m3 = make_mip(desc3(16, 8, 8, U8, 1), 4);
    CUarray l2;
    ASSERT_OK(cuMipmappedArrayGetLevel(&l2, m3, 2));
    Mirror mm = mirror_of(4, 2, 2);
    write_box(l2, mm, 0, 0, 0, 4, 2, 2, 55);
    expect_array_is(l2, mm);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, copy_box(true, l2, mm.bytes.data(), 0, 0, 0, 4, 2, 3));
}

TEST_F(Array, AsyncCopies_RunInStreamOrder)
{
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUarray a = make(desc3(256, 64, 0, F32, 4)), b = make(desc3(256, 64, 0, F32, 4));
    const size_t RB = 256 * 16, H = 64;
    std::vector<unsigned char> in(RB * H), out(RB * H, 0), row(RB), row_out(RB);
    fill_pattern(in, 21);
    fill_pattern(row, 22);
    ASSERT_OK(copy_box(true, a, in.data(), 0, 0, 0, RB, H, 1, s, true));
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = b;
    c.WidthInBytes = RB, c.Height = H;
    ASSERT_OK(cuMemcpy2DAsync(&c, s));
    ASSERT_OK(cuMemcpyHtoAAsync(b, 0, row.data(), RB, s)); // row 0 of b, after the 2D copy
    ASSERT_OK(cuMemcpyAtoHAsync(row_out.data(), b, 0, RB, s));
    ASSERT_OK(copy_box(false, b, out.data(), 0, 0, 0, RB, H, 1, s, true));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_TRUE(row_out == row);
    memcpy(in.data(), row.data(), RB);
    EXPECT_TRUE(out == in);
    EXPECT_OK(cuStreamDestroy(s));
}

extern "C" {
CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream);
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
}

TEST_F(Array, PerThreadStreamForms_CopyTheSameBytes)
{
    CUarray a = make(desc3(32, 2, 0, U8, 4)), b = make(desc3(32, 2, 0, U8, 4));
    unsigned char in[128], out[128] = {0};
    for (int i = 0; i < 128; ++i)
        in[i] = (unsigned char)(i * 3 + 1);
    CUdeviceptr d;
    ASSERT_OK(cuMemAlloc(&d, 128));
    ASSERT_OK(cuMemcpyHtoA_v2_ptds(a, 0, in, 128));
    ASSERT_OK(cuMemcpyAtoA_v2_ptds(b, 0, a, 0, 128));
    ASSERT_OK(cuMemcpyAtoD_v2_ptds(d, b, 0, 128));
    ASSERT_OK(cuMemcpyDtoA_v2_ptds(a, 0, d, 128));
    ASSERT_OK(cuMemcpyAtoH_v2_ptds(out, a, 0, 128));
    EXPECT_EQ(0, memcmp(in, out, 128));
    memset(out, 0, sizeof(out));
    ASSERT_OK(cuMemcpyHtoAAsync_v2_ptsz(b, 0, in, 128, nullptr));
    ASSERT_OK(cuMemcpyAtoHAsync_v2_ptsz(out, b, 0, 128, nullptr));
    ASSERT_OK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    EXPECT_EQ(0, memcmp(in, out, 128));
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = b, c.dstY = 1;
    c.WidthInBytes = 128, c.Height = 1;
    ASSERT_OK(cuMemcpy2D_v2_ptds(&c));
    memset(out, 0, sizeof(out));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof(c3));
    c3.srcMemoryType = CU_MEMORYTYPE_ARRAY, c3.srcArray = b, c3.srcY = 1;
    c3.dstMemoryType = CU_MEMORYTYPE_HOST, c3.dstHost = out;
    c3.WidthInBytes = 128, c3.Height = 1, c3.Depth = 1;
    ASSERT_OK(cuMemcpy3D_v2_ptds(&c3));
    EXPECT_EQ(0, memcmp(in, out, 128));
    EXPECT_OK(cuMemFree(d));
}

TEST_F(Array, Copy3DPeer_IgnoresTheContextOfAnArraySide)
{
    CUarray a = make(desc3(64, 4, 0, F32, 1));
    std::vector<unsigned char> in(1024), out(1024);
    fill_pattern(in, 31);
    CUDA_MEMCPY3D_PEER p;
    memset(&p, 0, sizeof(p));
    p.srcMemoryType = CU_MEMORYTYPE_HOST, p.srcHost = in.data(), p.srcPitch = 256, p.srcHeight = 4;
    p.srcContext = ctx;
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY, p.dstArray = a, p.dstContext = nullptr;
    p.WidthInBytes = 256, p.Height = 4, p.Depth = 1;
    ASSERT_OK(cuMemcpy3DPeer(&p));
    std::swap(p.srcMemoryType, p.dstMemoryType);
    p.srcArray = a, p.dstHost = out.data(), p.dstPitch = 256, p.dstHeight = 4, p.dstContext = ctx;
    p.srcContext = nullptr;
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, 0));
    ASSERT_OK(cuMemcpy3DPeerAsync(&p, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_TRUE(in == out);
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Array, CapturedArrayCopies_BecomeMemcpyNodesThatCopyTheSameBytes)
{
    CUarray a = make(desc3(64, 8, 0, U8, 4));
    std::vector<unsigned char> in(256 * 8), out(256 * 8, 0);
    fill_pattern(in, 41);
    CUstream s;
    ASSERT_OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    ASSERT_OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(copy_box(true, a, in.data(), 0, 0, 0, 256, 8, 1, s, true));
    ASSERT_OK(copy_box(false, a, out.data(), 0, 0, 0, 256, 8, 1, s, true));
    CUgraph g;
    ASSERT_OK(cuStreamEndCapture(s, &g));
    size_t n = 0;
    ASSERT_OK(cuGraphGetNodes(g, nullptr, &n));
    ASSERT_EQ(2u, n);
    CUgraphNode nodes[2];
    ASSERT_OK(cuGraphGetNodes(g, nodes, &n));
    CUgraphNodeType t;
    ASSERT_OK(cuGraphNodeGetType(nodes[0], &t));
    EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMCPY, t);
    EXPECT_TRUE(std::vector<unsigned char>(out.size(), 0) == out); // nothing ran while capturing
    CUgraphExec e;
    ASSERT_OK(cuGraphInstantiate(&e, g, 0));
    ASSERT_OK(cuGraphLaunch(e, s));
    ASSERT_OK(cuStreamSynchronize(s));
    EXPECT_TRUE(in == out);
    EXPECT_OK(cuGraphExecDestroy(e));
    EXPECT_OK(cuGraphDestroy(g));
    EXPECT_OK(cuStreamDestroy(s));
}

TEST_F(Array, MemcpyNodesWithArraySides_CopyTheSameBytesWhenLaunched)
{
    CUarray a = make(desc3(32, 4, 0, F32, 2));
    const size_t RB = 32 * 8, H = 4;
    std::vector<unsigned char> in(RB * H), out(RB * H, 0);
    fill_pattern(in, 51);
    CUgraph g;
    ASSERT_OK(cuGraphCreate(&g, 0));
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = in.data(), c.srcPitch = RB, c.srcHeight = H;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a;
    c.WidthInBytes = RB, c.Height = H, c.Depth = 1;
    CUgraphNode up, down;
    ASSERT_OK(cuGraphAddMemcpyNode(&up, g, nullptr, 0, &c, ctx));
    CUDA_MEMCPY3D back;
    memset(&back, 0, sizeof(back));
    back.srcMemoryType = CU_MEMORYTYPE_ARRAY, back.srcArray = a;
    back.dstMemoryType = CU_MEMORYTYPE_HOST, back.dstHost = out.data(), back.dstPitch = RB, back.dstHeight = H;
    back.WidthInBytes = RB, back.Height = H, back.Depth = 1;
    ASSERT_OK(cuGraphAddMemcpyNode(&down, g, &up, 1, &back, ctx));
    // A node whose region leaves the array, or with no array, is refused when it is made.
    CUgraphNode bad;
    c.Height = H + 1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&bad, g, nullptr, 0, &c, ctx));
    c.Height = H, c.dstArray = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&bad, g, nullptr, 0, &c, ctx));
    CUgraphExec e;
    ASSERT_OK(cuGraphInstantiate(&e, g, 0));
    ASSERT_OK(cuGraphLaunch(e, nullptr));
    ASSERT_OK(cuStreamSynchronize(nullptr));
    EXPECT_TRUE(in == out);
    EXPECT_OK(cuGraphExecDestroy(e));
    EXPECT_OK(cuGraphDestroy(g));
}

// The CUDA 3.1 forms under the unversioned names (32-bit extents and offsets): the _v2 calls.
extern "C" {
struct ArrayDescV1 {
    unsigned int Width, Height;
    CUarray_format Format;
    unsigned int NumChannels;
};
struct Array3DDescV1 {
    unsigned int Width, Height, Depth;
    CUarray_format Format;
    unsigned int NumChannels, Flags;
};
#undef cuArrayCreate
#undef cuArray3DCreate
#undef cuArrayGetDescriptor
#undef cuArray3DGetDescriptor
#undef cuMemcpyHtoA
#undef cuMemcpyAtoH
#undef cuMemcpyAtoA
#undef cuMemcpyHtoAAsync
#undef cuMemcpyAtoHAsync
CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const ArrayDescV1 *pAllocateArray);
CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const Array3DDescV1 *pAllocateArray);
CUresult CUDAAPI cuArrayGetDescriptor(ArrayDescV1 *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuArray3DGetDescriptor(Array3DDescV1 *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount,
                                   CUstream hStream);
}

TEST_F(Array, UnversionedCuda31Forms_AreTheV2CallsWith32BitExtents)
{
    ArrayDescV1 d = {16, 2, CU_AD_FORMAT_UNSIGNED_INT32, 1};
    CUarray a = nullptr, b = nullptr;
    ASSERT_OK(cuArrayCreate(&a, &d));
    arrays.push_back(a);
    Array3DDescV1 d3 = {16, 2, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST};
    ASSERT_OK(cuArray3DCreate(&b, &d3));
    arrays.push_back(b);
    ArrayDescV1 g;
    Array3DDescV1 g3;
    ASSERT_OK(cuArrayGetDescriptor(&g, a));
    EXPECT_EQ(16u, g.Width);
    EXPECT_EQ(2u, g.Height);
    ASSERT_OK(cuArray3DGetDescriptor(&g3, b));
    EXPECT_EQ(0u, g3.Depth);
    EXPECT_EQ((unsigned)CUDA_ARRAY3D_SURFACE_LDST, g3.Flags);
    uint32_t in[16], out[16] = {0};
    for (int i = 0; i < 16; ++i)
        in[i] = 0x1000u + (uint32_t)i;
    ASSERT_OK(cuMemcpyHtoA(a, 0, in, sizeof(in)));
    ASSERT_OK(cuMemcpyAtoA(b, 4, a, 0, 60));
    ASSERT_OK(cuMemcpyHtoAAsync(b, 0, in, 4, nullptr));
    ASSERT_OK(cuMemcpyAtoHAsync(out, b, 0, sizeof(out), nullptr));
    ASSERT_OK(cuStreamSynchronize(nullptr));
    EXPECT_EQ(in[0], out[0]);
    EXPECT_EQ(0, memcmp(in, out + 1, 60));
    ASSERT_OK(cuMemcpyAtoH(out, a, 0, sizeof(out)));
    EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&a, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetDescriptor(nullptr, a));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(out, a, 0, sizeof(out) + 4));
}
