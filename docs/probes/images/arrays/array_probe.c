/*
 * array_probe.c - what the real driver answers for CUDA arrays where cuda.h's documentation is
 * silent: cuArray3DCreate's codes for bad shapes, formats and flag combinations, the
 * MAXIMUM_TEXTURE and SURFACE attributes, cuArrayGetMemoryRequirements' size and alignment,
 * cuArrayGetPlane on the planar formats, the mipmapped-array calls, and copies past an edge.
 *
 * Built against NVIDIA's cuda.h and linked with -lcuda (NOT against extmem):
 *   gcc -std=gnu11 -O0 array_probe.c -I/usr/local/cuda/include -lcuda -o probe && ./probe
 *   ./probe destroyed   (a destroyed handle; its own run, in case it crashes)
 * Output: array_probe.out (run.sh made it on the H100, driver 580).
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *rn(CUresult r)
{
    const char *n = "?";
    cuGetErrorName(r, &n);
    return n;
}

static void attrs(CUdevice dev)
{
    static const int ids[] = {21, 22, 23, 24, 25, 26, 27, 28, 29, 42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54,
                              55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 77,
                              14, 30, 112, 121};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); ++i) {
        int v = -1;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)ids[i], dev);
        printf("attr %d = %d (%s)\n", ids[i], v, rn(r));
    }
}

static CUarray mk(const char *what, size_t w, size_t h, size_t d, CUarray_format f, unsigned ch, unsigned flags,
                  int keep)
{
    CUDA_ARRAY3D_DESCRIPTOR a = {w, h, d, f, ch, flags};
    CUarray arr = NULL;
    CUresult r = cuArray3DCreate(&arr, &a);
    printf("3d %-34s W=%zu H=%zu D=%zu fmt=0x%x ch=%u fl=0x%x -> %s\n", what, w, h, d, (unsigned)f, ch, flags, rn(r));
    if (r == CUDA_SUCCESS) {
        CUDA_ARRAY3D_DESCRIPTOR g;
        memset(&g, 0xee, sizeof g);
        r = cuArray3DGetDescriptor(&g, arr);
        printf("    get3d -> %s W=%zu H=%zu D=%zu fmt=0x%x ch=%u fl=0x%x\n", rn(r), g.Width, g.Height, g.Depth,
               (unsigned)g.Format, g.NumChannels, g.Flags);
        CUDA_ARRAY_DESCRIPTOR g2;
        memset(&g2, 0xee, sizeof g2);
        r = cuArrayGetDescriptor(&g2, arr);
        printf("    get2d -> %s W=%zu H=%zu fmt=0x%x ch=%u\n", rn(r), g2.Width, g2.Height, (unsigned)g2.Format,
               g2.NumChannels);
        CUDA_ARRAY_MEMORY_REQUIREMENTS m;
        memset(&m, 0, sizeof m);
        r = cuArrayGetMemoryRequirements(&m, arr, 0);
        printf("    memreq -> %s size=%zu align=%zu\n", rn(r), m.size, m.alignment);
        CUDA_ARRAY_SPARSE_PROPERTIES sp;
        memset(&sp, 0xee, sizeof sp);
        r = cuArrayGetSparseProperties(&sp, arr);
        printf("    sparse -> %s tile=%u,%u,%u first=%u size=%llu flags=%u\n", rn(r), sp.tileExtent.width,
               sp.tileExtent.height, sp.tileExtent.depth, sp.miptailFirstLevel, sp.miptailSize, sp.flags);
        if (!keep) {
            cuArrayDestroy(arr);
            arr = NULL;
        }
    }
    return arr;
}

static void planes(const char *name, CUarray_format f, unsigned ch, size_t w, size_t h)
{
    CUarray arr = mk(name, w, h, 0, f, ch, 0, 1);
    if (!arr)
        return;
    for (unsigned p = 0; p < 4; ++p) {
        CUarray pl = NULL;
        CUresult r = cuArrayGetPlane(&pl, arr, p);
        printf("    plane %u -> %s", p, rn(r));
        if (!r) {
            CUDA_ARRAY3D_DESCRIPTOR g;
            memset(&g, 0xee, sizeof g);
            CUresult r2 = cuArray3DGetDescriptor(&g, pl);
            printf(" desc %s W=%zu H=%zu D=%zu fmt=0x%x ch=%u fl=0x%x same=%d", rn(r2), g.Width, g.Height, g.Depth,
                   (unsigned)g.Format, g.NumChannels, g.Flags, pl == arr);
            CUarray pl2 = NULL;
            r2 = cuArrayGetPlane(&pl2, arr, p);
            printf(" again_same=%d", pl2 == pl);
            CUDA_ARRAY_MEMORY_REQUIREMENTS m = {0};
            r2 = cuArrayGetMemoryRequirements(&m, pl, 0);
            printf(" memreq %s %zu/%zu", rn(r2), m.size, m.alignment);
            r2 = cuArrayGetPlane(&pl2, pl, 0);
            printf(" plane-of-plane %s", rn(r2));
            r2 = cuArrayDestroy(pl);
            printf(" destroy-plane %s", rn(r2));
        }
        printf("\n");
    }
    cuArrayDestroy(arr);
}

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    cuDevicePrimaryCtxRetain(&ctx, dev);
    cuCtxSetCurrent(ctx);
    if (argc > 1 && !strcmp(argv[1], "destroyed")) {
        CUarray a = mk("1d", 64, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0, 1);
        cuArrayDestroy(a);
        CUDA_ARRAY3D_DESCRIPTOR g;
        printf("destroyed: get3d %s\n", rn(cuArray3DGetDescriptor(&g, a)));
        printf("destroyed: destroy %s\n", rn(cuArrayDestroy(a)));
        char buf[256];
        printf("destroyed: HtoA %s\n", rn(cuMemcpyHtoA(a, 0, buf, 16)));
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "forged")) {
        CUarray a = (CUarray)(uintptr_t)0x12345678;
        CUDA_ARRAY3D_DESCRIPTOR g;
        printf("forged: get3d %s\n", rn(cuArray3DGetDescriptor(&g, a)));
        printf("forged: destroy %s\n", rn(cuArrayDestroy(a)));
        return 0;
    }
    attrs(dev);
    const CUarray_format F = CU_AD_FORMAT_FLOAT, U8 = CU_AD_FORMAT_UNSIGNED_INT8;
    mk("1d", 64, 0, 0, F, 1, 0, 0);
    mk("2d", 64, 32, 0, F, 4, 0, 0);
    mk("3d", 64, 32, 8, F, 2, 0, 0);
    mk("1d u8", 1, 0, 0, U8, 1, 0, 0);
    mk("1d u8 w=3", 3, 0, 0, U8, 1, 0, 0);
    mk("2d u8 17x3", 17, 3, 0, U8, 1, 0, 0);
    mk("2d u8 1000x1000", 1000, 1000, 0, U8, 4, 0, 0);
    mk("3d u8 100x50x7", 100, 50, 7, U8, 1, 0, 0);
    mk("w0", 0, 0, 0, F, 1, 0, 0);
    mk("w0 h4", 0, 4, 0, F, 1, 0, 0);
    mk("w0 h4 d4", 0, 4, 4, F, 1, 0, 0);
    mk("h0 d4", 4, 0, 4, F, 1, 0, 0);
    mk("ch0", 64, 0, 0, F, 0, 0, 0);
    mk("ch3", 64, 0, 0, F, 3, 0, 0);
    mk("ch5", 64, 0, 0, F, 5, 0, 0);
    mk("fmt0", 64, 0, 0, (CUarray_format)0, 1, 0, 0);
    mk("fmt0x33", 64, 0, 0, (CUarray_format)0x33, 1, 0, 0);
    mk("1d max", 131072, 0, 0, F, 1, 0, 0);
    mk("1d max+1", 131073, 0, 0, F, 1, 0, 0);
    mk("1d max surf", 32768, 0, 0, F, 1, CUDA_ARRAY3D_SURFACE_LDST, 0);
    mk("1d max+1 surf", 32769, 0, 0, F, 1, CUDA_ARRAY3D_SURFACE_LDST, 0);
    mk("2d w max", 131072, 1, 0, U8, 1, 0, 0);
    mk("2d w max+1", 131073, 1, 0, U8, 1, 0, 0);
    mk("2d h max", 1, 65536, 0, U8, 1, 0, 0);
    mk("2d h max+1", 1, 65537, 0, U8, 1, 0, 0);
    mk("3d 16384", 16384, 1, 1, U8, 1, 0, 0);
    mk("3d 16385", 16385, 1, 1, U8, 1, 0, 0);
    mk("3d d 16385", 1, 1, 16385, U8, 1, 0, 0);
    mk("3d alt 8192x8192x32768?", 1, 1, 32768, U8, 1, 0, 0);
    mk("3d d 32769", 1, 1, 32769, U8, 1, 0, 0);
    mk("3d surf d 16385", 1, 1, 16385, U8, 1, CUDA_ARRAY3D_SURFACE_LDST, 0);
    mk("3d w huge", (size_t)1 << 40, 1, 1, U8, 1, 0, 0);
    mk("layered 1d 2048", 64, 0, 2048, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered 1d 2049", 64, 0, 2049, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered 1d w 32769", 32769, 0, 2, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered 2d", 64, 32, 3, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered 2d w 32769", 32769, 1, 1, U8, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered d0", 64, 32, 0, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("layered 1d d0", 64, 0, 0, F, 1, CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap", 16, 16, 6, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap not square", 16, 8, 6, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap d5", 16, 16, 5, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap d0", 16, 16, 0, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap d12 unlayered", 16, 16, 12, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap layered d12", 16, 16, 12, F, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap layered d7", 16, 16, 7, F, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap layered d6", 16, 16, 6, F, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap layered d2046", 4, 4, 2046, U8, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap layered d2052", 4, 4, 2052, U8, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0);
    mk("cubemap 32768", 32768, 32768, 6, U8, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap 32769", 32769, 32769, 6, U8, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("cubemap h0", 16, 0, 6, F, 1, CUDA_ARRAY3D_CUBEMAP, 0);
    mk("gather 2d", 64, 32, 0, F, 1, CUDA_ARRAY3D_TEXTURE_GATHER, 0);
    mk("gather 1d", 64, 0, 0, F, 1, CUDA_ARRAY3D_TEXTURE_GATHER, 0);
    mk("gather 3d", 64, 32, 4, F, 1, CUDA_ARRAY3D_TEXTURE_GATHER, 0);
    mk("gather layered", 64, 32, 4, F, 1, CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_LAYERED, 0);
    mk("gather 2d w 32769", 32769, 4, 0, U8, 1, CUDA_ARRAY3D_TEXTURE_GATHER, 0);
    mk("depth f32x1", 64, 32, 0, F, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth u8", 64, 32, 0, U8, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth u16", 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT16, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth u32", 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth f32x4", 64, 32, 0, F, 4, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth 1d", 64, 0, 0, F, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth 3d", 64, 4, 4, F, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("depth half", 64, 4, 0, CU_AD_FORMAT_HALF, 1, CUDA_ARRAY3D_DEPTH_TEXTURE, 0);
    mk("color attachment", 64, 32, 0, F, 4, CUDA_ARRAY3D_COLOR_ATTACHMENT, 0);
    mk("color attachment 1d", 64, 0, 0, F, 4, CUDA_ARRAY3D_COLOR_ATTACHMENT, 0);
    mk("color attachment 3d", 64, 4, 4, F, 4, CUDA_ARRAY3D_COLOR_ATTACHMENT, 0);
    mk("surface 2d", 64, 32, 0, F, 4, CUDA_ARRAY3D_SURFACE_LDST, 0);
    mk("surface+gather", 64, 32, 0, F, 4, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_TEXTURE_GATHER, 0);
    mk("surface cubemap", 16, 16, 6, F, 4, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP, 0);
    mk("sparse", 64, 32, 0, F, 4, CUDA_ARRAY3D_SPARSE, 0);
    mk("deferred", 64, 32, 0, F, 4, CUDA_ARRAY3D_DEFERRED_MAPPING, 0);
    mk("sparse+deferred", 64, 32, 0, F, 4, CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING, 0);
    mk("video", 64, 32, 0, U8, 4, CUDA_ARRAY3D_VIDEO_ENCODE_DECODE, 0);
    mk("flag 0x200", 64, 32, 0, F, 4, 0x200, 0);
    mk("flag 0x80000000", 64, 32, 0, F, 4, 0x80000000u, 0);
    mk("bc1 ch4 16x16", 16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0, 0);
    mk("bc1 ch1", 16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 1, 0, 0);
    mk("bc1 ch4 17x16", 17, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0, 0);
    mk("bc1 ch4 1d", 16, 0, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0, 0);
    mk("bc1 ch4 3d", 16, 16, 4, CU_AD_FORMAT_BC1_UNORM, 4, 0, 0);
    mk("bc1 surface", 16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4, CUDA_ARRAY3D_SURFACE_LDST, 0);
    mk("bc2 ch4", 16, 16, 0, CU_AD_FORMAT_BC2_UNORM, 4, 0, 0);
    mk("bc4 ch1", 16, 16, 0, CU_AD_FORMAT_BC4_UNORM, 1, 0, 0);
    mk("bc4 ch4", 16, 16, 0, CU_AD_FORMAT_BC4_UNORM, 4, 0, 0);
    mk("bc5 ch2", 16, 16, 0, CU_AD_FORMAT_BC5_UNORM, 2, 0, 0);
    mk("bc6h ch3", 16, 16, 0, CU_AD_FORMAT_BC6H_UF16, 3, 0, 0);
    mk("bc6h ch4", 16, 16, 0, CU_AD_FORMAT_BC6H_UF16, 4, 0, 0);
    mk("bc7 ch4", 16, 16, 0, CU_AD_FORMAT_BC7_UNORM, 4, 0, 0);
    mk("bc7 layered", 16, 16, 2, CU_AD_FORMAT_BC7_UNORM, 4, CUDA_ARRAY3D_LAYERED, 0);
    mk("unorm8x4 ch4", 16, 16, 0, CU_AD_FORMAT_UNORM_INT8X4, 4, 0, 0);
    mk("unorm8x4 ch1", 16, 16, 0, CU_AD_FORMAT_UNORM_INT8X4, 1, 0, 0);
    mk("unorm8x1 ch1", 16, 16, 0, CU_AD_FORMAT_UNORM_INT8X1, 1, 0, 0);
    mk("snorm16x2 ch2", 16, 16, 0, CU_AD_FORMAT_SNORM_INT16X2, 2, 0, 0);
    mk("snorm16x2 ch4", 16, 16, 0, CU_AD_FORMAT_SNORM_INT16X2, 4, 0, 0);
    mk("101010_2 ch4", 16, 16, 0, CU_AD_FORMAT_UNORM_INT_101010_2, 4, 0, 0);
    mk("101010_2 ch1", 16, 16, 0, CU_AD_FORMAT_UNORM_INT_101010_2, 1, 0, 0);
    mk("101010_2 ch3", 16, 16, 0, CU_AD_FORMAT_UNORM_INT_101010_2, 3, 0, 0);
    mk("yuy2 ch3", 16, 16, 0, CU_AD_FORMAT_YUY2, 3, 0, 0);
    mk("yuy2 ch1", 16, 16, 0, CU_AD_FORMAT_YUY2, 1, 0, 0);
    mk("yuy2 ch2", 16, 16, 0, CU_AD_FORMAT_YUY2, 2, 0, 0);
    mk("yuy2 ch4", 16, 16, 0, CU_AD_FORMAT_YUY2, 4, 0, 0);
    mk("ayuv ch4", 16, 16, 0, CU_AD_FORMAT_AYUV, 4, 0, 0);
    mk("y410 ch4", 16, 16, 0, CU_AD_FORMAT_Y410, 4, 0, 0);
    mk("y416 ch4", 16, 16, 0, CU_AD_FORMAT_Y416, 4, 0, 0);
    mk("y210 ch3", 16, 16, 0, CU_AD_FORMAT_Y210, 3, 0, 0);
    mk("nv12 ch3 odd", 15, 16, 0, CU_AD_FORMAT_NV12, 3, 0, 0);
    mk("nv12 ch3 1d", 16, 0, 0, CU_AD_FORMAT_NV12, 3, 0, 0);
    mk("nv12 ch1", 16, 16, 0, CU_AD_FORMAT_NV12, 1, 0, 0);
    mk("nv12 ch3 3d", 16, 16, 2, CU_AD_FORMAT_NV12, 3, 0, 0);
    mk("nv12 surface", 16, 16, 0, CU_AD_FORMAT_NV12, 3, CUDA_ARRAY3D_SURFACE_LDST, 0);
    planes("nv12 ch3 64x32", CU_AD_FORMAT_NV12, 3, 64, 32);
    planes("p010 ch3", CU_AD_FORMAT_P010, 3, 64, 32);
    planes("p016 ch3", CU_AD_FORMAT_P016, 3, 64, 32);
    planes("nv16 ch3", CU_AD_FORMAT_NV16, 3, 64, 32);
    planes("p210 ch3", CU_AD_FORMAT_P210, 3, 64, 32);
    planes("p216 ch3", CU_AD_FORMAT_P216, 3, 64, 32);
    planes("y444p8 ch3", CU_AD_FORMAT_Y444_PLANAR8, 3, 64, 32);
    planes("y444p10 ch3", CU_AD_FORMAT_Y444_PLANAR10, 3, 64, 32);
    planes("not planar", F, 1, 64, 32);
    /* Every format with 1, 2, 4 channels: which are accepted (2D 16x16), and their memory req. */
    static const unsigned fmts[] = {0x01, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x10, 0x20, 0x50, 0x91, 0x92, 0x93, 0x94,
                                    0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa1, 0xa2,
                                    0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xb0, 0xb1, 0xb2, 0xb3, 0xc0, 0xc1,
                                    0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xcb};
    for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); ++i) {
        printf("fmt 0x%02x:", fmts[i]);
        for (unsigned ch = 1; ch <= 4; ++ch) {
            CUDA_ARRAY3D_DESCRIPTOR a = {256, 64, 0, (CUarray_format)fmts[i], ch, 0};
            CUarray arr;
            CUresult r = cuArray3DCreate(&arr, &a);
            printf(" ch%u=%s", ch, rn(r));
            if (!r) {
                CUDA_ARRAY_MEMORY_REQUIREMENTS m = {0};
                cuArrayGetMemoryRequirements(&m, arr, 0);
                printf("(%zu)", m.size);
                cuArrayDestroy(arr);
            }
        }
        printf("\n");
    }
    /* cuArrayCreate (2D descriptor). */
    {
        CUDA_ARRAY_DESCRIPTOR d = {64, 0, F, 1};
        CUarray a;
        printf("2dcreate h0 %s\n", rn(cuArrayCreate(&a, &d)));
        cuArrayDestroy(a);
        printf("2dcreate NULL desc %s\n", rn(cuArrayCreate(&a, NULL)));
        printf("2dcreate NULL out %s\n", rn(cuArrayCreate(NULL, &d)));
        CUDA_ARRAY3D_DESCRIPTOR d3 = {64, 4, 0, F, 1, 0};
        printf("3dcreate NULL desc %s\n", rn(cuArray3DCreate(&a, NULL)));
        printf("3dcreate NULL out %s\n", rn(cuArray3DCreate(NULL, &d3)));
        CUDA_ARRAY3D_DESCRIPTOR g;
        printf("get3d NULL array %s\n", rn(cuArray3DGetDescriptor(&g, NULL)));
        printf("destroy NULL %s\n", rn(cuArrayDestroy(NULL)));
        cuArray3DCreate(&a, &d3);
        printf("get3d NULL desc %s\n", rn(cuArray3DGetDescriptor(NULL, a)));
        CUDA_ARRAY_DESCRIPTOR g2;
        printf("get2d NULL desc %s\n", rn(cuArrayGetDescriptor(NULL, a)));
        printf("get2d NULL array %s\n", rn(cuArrayGetDescriptor(&g2, NULL)));
        CUDA_ARRAY_MEMORY_REQUIREMENTS m;
        printf("memreq NULL %s\n", rn(cuArrayGetMemoryRequirements(NULL, a, 0)));
        printf("memreq dev 1 %s\n", rn(cuArrayGetMemoryRequirements(&m, a, 1)));
        printf("memreq dev -1 %s\n", rn(cuArrayGetMemoryRequirements(&m, a, -1)));
        printf("memreq NULL array %s\n", rn(cuArrayGetMemoryRequirements(&m, NULL, 0)));
        CUarray p;
        printf("plane NULL out %s\n", rn(cuArrayGetPlane(NULL, a, 0)));
        printf("plane NULL arr %s\n", rn(cuArrayGetPlane(&p, NULL, 0)));
        CUDA_ARRAY_SPARSE_PROPERTIES sp;
        printf("sparse NULL arr %s\n", rn(cuArrayGetSparseProperties(&sp, NULL)));
        printf("sparse NULL out %s\n", rn(cuArrayGetSparseProperties(NULL, a)));
        /* copies */
        char buf[4096] = {0};
        CUdeviceptr dp;
        cuMemAlloc(&dp, 4096);
        printf("HtoA 2d array at 0 n=64 %s\n", rn(cuMemcpyHtoA(a, 0, buf, 64)));
        printf("HtoA 2d array whole n=1024 %s\n", rn(cuMemcpyHtoA(a, 0, buf, 1024)));
        printf("HtoA 2d array n=1025 %s\n", rn(cuMemcpyHtoA(a, 0, buf, 1025)));
        printf("HtoA 2d array off 4 n=1020 %s\n", rn(cuMemcpyHtoA(a, 4, buf, 1020)));
        printf("HtoA 2d array off 2 n=4 %s\n", rn(cuMemcpyHtoA(a, 2, buf, 4)));
        printf("HtoA 2d array off 0 n=3 %s\n", rn(cuMemcpyHtoA(a, 0, buf, 3)));
        printf("HtoA n=0 %s\n", rn(cuMemcpyHtoA(a, 0, buf, 0)));
        printf("HtoA NULL host %s\n", rn(cuMemcpyHtoA(a, 0, NULL, 16)));
        printf("HtoA NULL array %s\n", rn(cuMemcpyHtoA(NULL, 0, buf, 16)));
        printf("AtoH 2d n=1024 %s\n", rn(cuMemcpyAtoH(buf, a, 0, 1024)));
        printf("AtoH off 1020 n=8 %s\n", rn(cuMemcpyAtoH(buf, a, 1020, 8)));
        printf("AtoD n=1024 %s\n", rn(cuMemcpyAtoD(dp, a, 0, 1024)));
        printf("DtoA n=1024 %s\n", rn(cuMemcpyDtoA(a, 0, dp, 1024)));
        printf("DtoA bad dptr %s\n", rn(cuMemcpyDtoA(a, 0, (CUdeviceptr)buf, 16)));
        CUarray b;
        cuArray3DCreate(&b, &d3);
        printf("AtoA n=1024 %s\n", rn(cuMemcpyAtoA(b, 0, a, 0, 1024)));
        printf("AtoA n=1028 %s\n", rn(cuMemcpyAtoA(b, 0, a, 0, 1028)));
        printf("AtoA off 2 %s\n", rn(cuMemcpyAtoA(b, 2, a, 0, 8)));
        CUDA_MEMCPY2D c = {0};
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = buf;
        c.srcPitch = 256;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = a;
        c.WidthInBytes = 256;
        c.Height = 4;
        printf("2D HtoA whole %s\n", rn(cuMemcpy2D(&c)));
        c.dstXInBytes = 2;
        c.WidthInBytes = 8;
        printf("2D HtoA x=2 %s\n", rn(cuMemcpy2D(&c)));
        c.dstXInBytes = 4;
        c.WidthInBytes = 6;
        printf("2D HtoA w=6 %s\n", rn(cuMemcpy2D(&c)));
        c.dstXInBytes = 4;
        c.WidthInBytes = 256;
        printf("2D HtoA past right edge %s\n", rn(cuMemcpy2D(&c)));
        c.dstXInBytes = 0;
        c.dstY = 1;
        c.WidthInBytes = 256;
        printf("2D HtoA past bottom %s\n", rn(cuMemcpy2D(&c)));
        c.dstY = 0;
        c.srcPitch = 100;
        printf("2D HtoA src pitch < width %s\n", rn(cuMemcpy2D(&c)));
        c.srcPitch = 256;
        c.dstPitch = 7; /* ignored for arrays? */
        printf("2D HtoA dstPitch 7 (ignored?) %s\n", rn(cuMemcpy2D(&c)));
        c.dstPitch = 0;
        c.dstArray = NULL;
        printf("2D HtoA NULL array %s\n", rn(cuMemcpy2D(&c)));
        c.dstArray = a;
        c.Height = 0;
        printf("2D HtoA height 0 %s\n", rn(cuMemcpy2D(&c)));
        CUDA_MEMCPY3D c3 = {0};
        c3.srcMemoryType = CU_MEMORYTYPE_HOST;
        c3.srcHost = buf;
        c3.srcPitch = 256;
        c3.srcHeight = 4;
        c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c3.dstArray = a;
        c3.WidthInBytes = 256;
        c3.Height = 4;
        c3.Depth = 1;
        printf("3D HtoA whole %s\n", rn(cuMemcpy3D(&c3)));
        c3.Depth = 2;
        printf("3D HtoA depth 2 on 2d array %s\n", rn(cuMemcpy3D(&c3)));
        c3.Depth = 1;
        c3.dstZ = 1;
        printf("3D HtoA z 1 on 2d array %s\n", rn(cuMemcpy3D(&c3)));
        c3.dstZ = 0;
        c3.dstLOD = 1;
        printf("3D HtoA dstLOD 1 %s\n", rn(cuMemcpy3D(&c3)));
        c3.dstLOD = 0;
        c3.Depth = 0;
        printf("3D HtoA depth 0 %s\n", rn(cuMemcpy3D(&c3)));
        c3.Depth = 1;
        c3.dstHeight = 3; c3.dstPitch = 5;
        printf("3D HtoA dstPitch/Height junk %s\n", rn(cuMemcpy3D(&c3)));
        /* 1D array copies: AtoH with offset past, 2D copy into 1D array. */
        CUDA_ARRAY3D_DESCRIPTOR d1 = {64, 0, 0, F, 1, 0};
        CUarray one;
        cuArray3DCreate(&one, &d1);
        printf("1d HtoA n=256 %s\n", rn(cuMemcpyHtoA(one, 0, buf, 256)));
        printf("1d HtoA n=260 %s\n", rn(cuMemcpyHtoA(one, 0, buf, 260)));
        c.dstArray = one; c.dstXInBytes = 0; c.dstY = 0; c.WidthInBytes = 256; c.Height = 1;
        printf("2D HtoA 1d array h1 %s\n", rn(cuMemcpy2D(&c)));
        c.Height = 2;
        printf("2D HtoA 1d array h2 %s\n", rn(cuMemcpy2D(&c)));
        /* 3D array: AtoH on it */
        CUDA_ARRAY3D_DESCRIPTOR d33 = {16, 4, 4, F, 1, 0};
        CUarray t3;
        cuArray3DCreate(&t3, &d33);
        printf("AtoH 3d array n=64 %s\n", rn(cuMemcpyAtoH(buf, t3, 0, 64)));
        printf("AtoH 3d array n=1024 %s\n", rn(cuMemcpyAtoH(buf, t3, 0, 1024)));
        c.dstArray = t3; c.Height = 4; c.WidthInBytes = 64;
        printf("2D HtoA 3d array %s\n", rn(cuMemcpy2D(&c)));
        /* layered 1D: 2D copy rows = layers? */
        CUDA_ARRAY3D_DESCRIPTOR dl = {16, 0, 4, F, 1, CUDA_ARRAY3D_LAYERED};
        CUarray l1;
        cuArray3DCreate(&l1, &dl);
        c.dstArray = l1; c.Height = 1;
        printf("2D HtoA layered1d h1 %s\n", rn(cuMemcpy2D(&c)));
        c.Height = 4;
        printf("2D HtoA layered1d h4 %s\n", rn(cuMemcpy2D(&c)));
        c3.dstArray = l1; c3.WidthInBytes = 64; c3.Height = 1; c3.Depth = 4; c3.srcPitch = 64; c3.srcHeight = 1;
        c3.dstPitch = 0; c3.dstHeight = 0;
        printf("3D HtoA layered1d h1 d4 %s\n", rn(cuMemcpy3D(&c3)));
        c3.Height = 4; c3.Depth = 1; c3.srcHeight = 4;
        printf("3D HtoA layered1d h4 d1 %s\n", rn(cuMemcpy3D(&c3)));
        printf("AtoH layered1d n=256 %s\n", rn(cuMemcpyAtoH(buf, l1, 0, 256)));
        /* BC copies: widths in blocks? */
        CUDA_ARRAY3D_DESCRIPTOR dbc = {16, 16, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0};
        CUarray bc;
        if (!cuArray3DCreate(&bc, &dbc)) {
            c.dstArray = bc; c.dstXInBytes = 0; c.dstY = 0; c.srcPitch = 256;
            c.WidthInBytes = 32; c.Height = 4;
            printf("2D HtoA bc1 16x16 w32 h4 (blocks) %s\n", rn(cuMemcpy2D(&c)));
            c.WidthInBytes = 32; c.Height = 16;
            printf("2D HtoA bc1 16x16 w32 h16 %s\n", rn(cuMemcpy2D(&c)));
            c.WidthInBytes = 128; c.Height = 4;
            printf("2D HtoA bc1 16x16 w128 h4 %s\n", rn(cuMemcpy2D(&c)));
            c.WidthInBytes = 8; c.Height = 1; c.dstXInBytes = 8; c.dstY = 3;
            printf("2D HtoA bc1 x8 y3 %s\n", rn(cuMemcpy2D(&c)));
            c.dstY = 4;
            printf("2D HtoA bc1 x8 y4 %s\n", rn(cuMemcpy2D(&c)));
            printf("AtoH bc1 n=128 %s\n", rn(cuMemcpyAtoH(buf, bc, 0, 128)));
            printf("AtoH bc1 n=129 %s\n", rn(cuMemcpyAtoH(buf, bc, 0, 129)));
            cuArrayDestroy(bc);
        }
        /* Peer with array */
        CUDA_MEMCPY3D_PEER pp = {0};
        pp.srcMemoryType = CU_MEMORYTYPE_HOST; pp.srcHost = buf; pp.srcPitch = 256; pp.srcHeight = 4;
        pp.dstMemoryType = CU_MEMORYTYPE_ARRAY; pp.dstArray = a; pp.WidthInBytes = 256; pp.Height = 4; pp.Depth = 1;
        pp.srcContext = ctx; pp.dstContext = NULL;
        printf("3DPeer HtoA dstContext NULL %s\n", rn(cuMemcpy3DPeer(&pp)));
        cuArrayDestroy(l1); cuArrayDestroy(t3); cuArrayDestroy(one); cuArrayDestroy(b); cuArrayDestroy(a);
        cuMemFree(dp);
    }
    /* Mipmapped arrays */
    {
        CUmipmappedArray m;
        CUDA_ARRAY3D_DESCRIPTOR d = {64, 32, 0, F, 4, 0};
        for (unsigned n = 0; n <= 9; ++n) {
            CUresult r = cuMipmappedArrayCreate(&m, &d, n);
            printf("mip 64x32 levels %u -> %s", n, rn(r));
            if (!r) {
                for (unsigned l = 0; l <= n; ++l) {
                    CUarray lv = NULL;
                    CUresult r2 = cuMipmappedArrayGetLevel(&lv, m, l);
                    CUDA_ARRAY3D_DESCRIPTOR g = {0};
                    if (!r2)
                        cuArray3DGetDescriptor(&g, lv);
                    printf(" L%u=%s(%zux%zux%zu fl%x)", l, rn(r2), g.Width, g.Height, g.Depth, g.Flags);
                    if (!r2 && l == 1) {
                        printf(" destroylevel=%s", rn(cuArrayDestroy(lv)));
                        CUarray lv2;
                        cuMipmappedArrayGetLevel(&lv2, m, l);
                        printf(" samehandle=%d", lv2 == lv);
                    }
                }
                CUDA_ARRAY_MEMORY_REQUIREMENTS mr = {0};
                CUresult r3 = cuMipmappedArrayGetMemoryRequirements(&mr, m, 0);
                printf(" memreq %s %zu/%zu", rn(r3), mr.size, mr.alignment);
                CUDA_ARRAY_SPARSE_PROPERTIES sp;
                memset(&sp, 0xee, sizeof sp);
                r3 = cuMipmappedArrayGetSparseProperties(&sp, m);
                printf(" sparse %s", rn(r3));
                printf(" destroy %s", rn(cuMipmappedArrayDestroy(m)));
            }
            printf("\n");
        }
        CUDA_ARRAY3D_DESCRIPTOR d1 = {100, 0, 0, U8, 1, 0};
        printf("mip 1d 100 levels 7 %s\n", rn(cuMipmappedArrayCreate(&m, &d1, 7)));
        if (!cuMipmappedArrayCreate(&m, &d1, 7)) {
            for (unsigned l = 0; l < 7; ++l) {
                CUarray lv;
                CUDA_ARRAY3D_DESCRIPTOR g = {0};
                cuMipmappedArrayGetLevel(&lv, m, l);
                cuArray3DGetDescriptor(&g, lv);
                printf("  L%u %zux%zux%zu\n", l, g.Width, g.Height, g.Depth);
            }
            cuMipmappedArrayDestroy(m);
        }
        printf("mip 1d 100 levels 8 %s\n", rn(cuMipmappedArrayCreate(&m, &d1, 8)));
        CUDA_ARRAY3D_DESCRIPTOR d3 = {64, 16, 4, U8, 1, 0};
        printf("mip 3d 64x16x4 levels 7 %s\n", rn(cuMipmappedArrayCreate(&m, &d3, 7)));
        if (!cuMipmappedArrayCreate(&m, &d3, 7)) {
            for (unsigned l = 0; l < 7; ++l) {
                CUarray lv;
                CUDA_ARRAY3D_DESCRIPTOR g = {0};
                cuMipmappedArrayGetLevel(&lv, m, l);
                cuArray3DGetDescriptor(&g, lv);
                printf("  L%u %zux%zux%zu\n", l, g.Width, g.Height, g.Depth);
            }
            CUDA_ARRAY_MEMORY_REQUIREMENTS mr = {0};
            cuMipmappedArrayGetMemoryRequirements(&mr, m, 0);
            printf("  memreq %zu/%zu\n", mr.size, mr.alignment);
            cuMipmappedArrayDestroy(m);
        }
        CUDA_ARRAY3D_DESCRIPTOR dl = {64, 16, 4, U8, 1, CUDA_ARRAY3D_LAYERED};
        printf("mip layered 64x16 x4 levels 7 %s\n", rn(cuMipmappedArrayCreate(&m, &dl, 7)));
        if (!cuMipmappedArrayCreate(&m, &dl, 7)) {
            for (unsigned l = 0; l < 7; ++l) {
                CUarray lv;
                CUDA_ARRAY3D_DESCRIPTOR g = {0};
                cuMipmappedArrayGetLevel(&lv, m, l);
                cuArray3DGetDescriptor(&g, lv);
                printf("  L%u %zux%zux%zu fl%x\n", l, g.Width, g.Height, g.Depth, g.Flags);
            }
            cuMipmappedArrayDestroy(m);
        }
        CUDA_ARRAY3D_DESCRIPTOR dc = {16, 16, 6, F, 1, CUDA_ARRAY3D_CUBEMAP};
        printf("mip cubemap 16 levels 5 %s\n", rn(cuMipmappedArrayCreate(&m, &dc, 5)));
        if (!cuMipmappedArrayCreate(&m, &dc, 5)) {
            CUarray lv;
            CUDA_ARRAY3D_DESCRIPTOR g = {0};
            cuMipmappedArrayGetLevel(&lv, m, 4);
            cuArray3DGetDescriptor(&g, lv);
            printf("  L4 %zux%zux%zu fl%x\n", g.Width, g.Height, g.Depth, g.Flags);
            cuMipmappedArrayDestroy(m);
        }
        CUDA_ARRAY3D_DESCRIPTOR dbc = {64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0};
        printf("mip bc1 64 levels 7 %s\n", rn(cuMipmappedArrayCreate(&m, &dbc, 7)));
        if (!cuMipmappedArrayCreate(&m, &dbc, 7)) {
            for (unsigned l = 0; l < 7; ++l) {
                CUarray lv;
                CUDA_ARRAY3D_DESCRIPTOR g = {0};
                CUresult rr = cuMipmappedArrayGetLevel(&lv, m, l);
                if (!rr) cuArray3DGetDescriptor(&g, lv);
                printf("  L%u %s %zux%zux%zu\n", l, rn(rr), g.Width, g.Height, g.Depth);
            }
            cuMipmappedArrayDestroy(m);
        }
        CUDA_ARRAY3D_DESCRIPTOR dbig = {32769, 4, 0, U8, 1, 0};
        printf("mip 2d w 32769 %s\n", rn(cuMipmappedArrayCreate(&m, &dbig, 2)));
        CUDA_ARRAY3D_DESCRIPTOR dbig2 = {32768, 4, 0, U8, 1, 0};
        printf("mip 2d w 32768 %s\n", rn(cuMipmappedArrayCreate(&m, &dbig2, 2)));
        if (!cuMipmappedArrayCreate(&m, &dbig2, 2)) cuMipmappedArrayDestroy(m);
        CUDA_ARRAY3D_DESCRIPTOR dbig1 = {32769, 0, 0, U8, 1, 0};
        printf("mip 1d w 32769 %s\n", rn(cuMipmappedArrayCreate(&m, &dbig1, 2)));
        CUDA_ARRAY3D_DESCRIPTOR dsp = {64, 64, 0, U8, 1, CUDA_ARRAY3D_SPARSE};
        printf("mip sparse %s\n", rn(cuMipmappedArrayCreate(&m, &dsp, 2)));
        CUDA_ARRAY3D_DESCRIPTOR dch3 = {64, 64, 0, U8, 3, 0};
        printf("mip ch3 %s\n", rn(cuMipmappedArrayCreate(&m, &dch3, 2)));
        printf("mip NULL desc %s\n", rn(cuMipmappedArrayCreate(&m, NULL, 2)));
        printf("mip NULL out %s\n", rn(cuMipmappedArrayCreate(NULL, &d, 2)));
        printf("mip destroy NULL %s\n", rn(cuMipmappedArrayDestroy(NULL)));
        CUarray lv;
        printf("mip getlevel NULL %s\n", rn(cuMipmappedArrayGetLevel(&lv, NULL, 0)));
        CUDA_ARRAY_MEMORY_REQUIREMENTS mr;
        printf("mip memreq NULL %s\n", rn(cuMipmappedArrayGetMemoryRequirements(&mr, NULL, 0)));
        CUDA_ARRAY3D_DESCRIPTOR dnv = {64, 64, 0, CU_AD_FORMAT_NV12, 3, 0};
        printf("mip nv12 %s\n", rn(cuMipmappedArrayCreate(&m, &dnv, 2)));
        CUDA_ARRAY3D_DESCRIPTOR dg = {64, 64, 0, F, 1, CUDA_ARRAY3D_TEXTURE_GATHER};
        printf("mip gather %s\n", rn(cuMipmappedArrayCreate(&m, &dg, 2)));
        /* memory requirements of deferred arrays and mipmapped arrays */
        CUDA_ARRAY3D_DESCRIPTOR dd = {64, 32, 0, F, 4, CUDA_ARRAY3D_DEFERRED_MAPPING};
        printf("mip deferred %s\n", rn(cuMipmappedArrayCreate(&m, &dd, 3)));
        if (!cuMipmappedArrayCreate(&m, &dd, 3)) {
            CUDA_ARRAY_MEMORY_REQUIREMENTS q = {0};
            CUresult rr = cuMipmappedArrayGetMemoryRequirements(&q, m, 0);
            printf("  memreq %s %zu/%zu\n", rn(rr), q.size, q.alignment);
            cuMipmappedArrayDestroy(m);
        }
    }
    static const size_t shapes[][3] = {{1, 0, 0}, {64, 0, 0}, {4096, 0, 0}, {1, 1, 0}, {64, 64, 0}, {100, 37, 0},
                                       {1024, 1024, 0}, {4096, 4096, 0}, {16, 16, 16}, {100, 37, 5}};
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i) {
        for (int defer = 0; defer < 2; ++defer) {
            CUDA_ARRAY3D_DESCRIPTOR d = {shapes[i][0], shapes[i][1], shapes[i][2], F, 4,
                                         defer ? CUDA_ARRAY3D_DEFERRED_MAPPING : 0};
            CUarray a;
            CUresult r = cuArray3DCreate(&a, &d);
            CUDA_ARRAY_MEMORY_REQUIREMENTS q = {0};
            CUresult r2 = r ? r : cuArrayGetMemoryRequirements(&q, a, 0);
            printf("memreq f32x4 %zux%zux%zu deferred=%d: %s size=%zu align=%zu\n", shapes[i][0], shapes[i][1],
                   shapes[i][2], defer, rn(r2), q.size, q.alignment);
            if (!r)
                cuArrayDestroy(a);
        }
    }
    return 0;
}
