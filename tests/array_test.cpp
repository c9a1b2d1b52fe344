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
    CUarray level = nullptr;
    ASSERT_OK(cuMipmappedArrayGetLevel(&level, m, 2));
    (void)free_before;
    (void)total;
    ASSERT_OK(cuCtxDestroy(c));
    ASSERT_OK(cuCtxCreate(&c, nullptr, 0, 0));
    CUDA_ARRAY3D_DESCRIPTOR g;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, a));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&g, level));
    CUarray l = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&l, m, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(a));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(m));
    ASSERT_OK(cuCtxDestroy(c));
}
