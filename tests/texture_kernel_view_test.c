/*
 * What a kernel sees of a texture or surface object (image_for_kernel, src/image/kernel_view.c):
 * the struct kimage khost.image hands the engine, for each kind of resource, checked field by
 * field through the library's own headers (a C program over the static library: the core's
 * headers are C11). Registered as the ctest `texture_kernel_view`.
 */
#include "image/image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #cond,   \
                    extmem_error_detail());                                            \
            ++failures;                                                                \
        }                                                                              \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

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

static void linear_texture(CUdeviceptr d)
{
    CUDA_RESOURCE_DESC r = linear(d + 512, CU_AD_FORMAT_FLOAT, 2, 1000);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER;
    td.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER;
    td.maxAnisotropy = 3;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.mipmapLevelBias = 0.5f;
    td.minMipmapLevelClamp = 1;
    td.maxMipmapLevelClamp = 2;
    td.borderColor[0] = 0.25f;
    td.borderColor[3] = -1;
    CUtexObject t = 0;
    OK(cuTexObjectCreate(&t, &r, &td, NULL));
    struct kimage k;
    memset(&k, 0xab, sizeof k);
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.surface == 0);
    CHECK(k.geometry == KIMG_LINEAR);
    CHECK(k.layered == 0);
    CHECK(k.channels == 2);
    CHECK(k.format == CU_AD_FORMAT_FLOAT);
    CHECK(k.texel_bytes == 8);
    CHECK(k.layers == 1);
    CHECK(k.nlevels == 1);
    CHECK(k.level[0].base == d + 512);
    CHECK(k.level[0].width == 125);
    CHECK(k.level[0].height == 1 && k.level[0].depth == 1);
    CHECK(k.address_mode[0] == CU_TR_ADDRESS_MODE_BORDER && k.address_mode[1] == CU_TR_ADDRESS_MODE_MIRROR);
    CHECK(k.filter_mode == CU_TR_FILTER_MODE_LINEAR && k.mip_filter_mode == CU_TR_FILTER_MODE_LINEAR);
    CHECK(k.flags == (CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER));
    CHECK(k.max_anisotropy == 3);
    CHECK(k.mip_bias == 0.5f && k.min_lod_clamp == 1 && k.max_lod_clamp == 2);
    CHECK(k.border[0] == 0.25f && k.border[3] == -1);
    CHECK(k.first_level == 0 && k.first_layer == 0);
    CHECK(k.lo == d + 512 && k.hi == d + 1512);
    /* The wrong kind, a forged handle, 0. */
    CHECK(!image_for_kernel(t, true, &k));
    CHECK(!image_for_kernel(0, false, &k));
    CHECK(!image_for_kernel(0x12345678, false, &k));
    OK(cuTexObjectDestroy(t));
    CHECK(!image_for_kernel(t, false, &k)); /* destroyed */
}

static void pitch2d_texture(CUdeviceptr d)
{
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_PITCH2D;
    r.res.pitch2D.devPtr = d;
    r.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
    r.res.pitch2D.numChannels = 4;
    r.res.pitch2D.width = 16;
    r.res.pitch2D.height = 8;
    r.res.pitch2D.pitchInBytes = 128;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.flags = CU_TRSF_SRGB;
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_UINT_1X32; /* the same 4 bytes as one 32-bit channel */
    v.width = 16;
    v.height = 8;
    CUtexObject t = 0;
    OK(cuTexObjectCreate(&t, &r, &td, &v));
    struct kimage k;
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.geometry == KIMG_2D);
    CHECK(k.format == CU_AD_FORMAT_UNSIGNED_INT32 && k.channels == 1); /* the view's */
    CHECK(k.texel_bytes == 4);
    CHECK(k.level[0].base == d && k.level[0].width == 16 && k.level[0].height == 8 && k.level[0].depth == 1);
    CHECK(k.level[0].row_pitch == 128 && k.level[0].slice_pitch == 1024);
    CHECK(k.flags == CU_TRSF_SRGB);
    CHECK(k.lo == d && k.hi == d + 128 * 7 + 64);
    OK(cuTexObjectDestroy(t));
}

static void extent_is_the_memory_under_it(void)
{
    CUdeviceptr m = 0;
    OK(cuMemAlloc(&m, 1 << 16));
    CUDA_RESOURCE_DESC r = linear(m, CU_AD_FORMAT_FLOAT, 1, 1 << 20); /* past the allocation */
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject past = 0, freed = 0, host = 0;
    OK(cuTexObjectCreate(&past, &r, &td, NULL));
    struct kimage k;
    CHECK(image_for_kernel(past, false, &k));
    CHECK(k.lo == m && k.hi == m + (1 << 16)); /* clipped: a texel beyond faults */
    CUdeviceptr f = 0;
    OK(cuMemAlloc(&f, 1 << 16));
    r = linear(f, CU_AD_FORMAT_FLOAT, 1, 1024);
    OK(cuTexObjectCreate(&freed, &r, &td, NULL));
    OK(cuMemFree(f));
    CHECK(!image_for_kernel(freed, false, &k)); /* no device memory under it now */
    void *h = aligned_alloc(512, 4096);
    r = linear((CUdeviceptr)(uintptr_t)h, CU_AD_FORMAT_FLOAT, 1, 1024);
    OK(cuTexObjectCreate(&host, &r, &td, NULL));
    CHECK(!image_for_kernel(host, false, &k)); /* pageable host memory is no device memory */
    free(h);
    OK(cuTexObjectDestroy(past));
    OK(cuTexObjectDestroy(freed));
    OK(cuTexObjectDestroy(host));
    OK(cuMemFree(m));
}

static CUarray make_array(size_t w, size_t h, size_t depth, CUarray_format f, unsigned ch, unsigned flags)
{
    CUDA_ARRAY3D_DESCRIPTOR a;
    memset(&a, 0, sizeof a);
    a.Width = w;
    a.Height = h;
    a.Depth = depth;
    a.Format = f;
    a.NumChannels = ch;
    a.Flags = flags;
    CUarray out = NULL;
    OK(cuArray3DCreate(&out, &a));
    return out;
}

static void array_objects(void)
{
    CUarray a = make_array(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, CUDA_ARRAY3D_SURFACE_LDST);
    CHECK(a != NULL);
    if (!a)
        return;
    struct image_array *ia = NULL;
    OK(image_array_get("test", "a", a, &ia));
    CUDA_RESOURCE_DESC r;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    CUsurfObject s = 0;
    OK(cuSurfObjectCreate(&s, &r));
    struct kimage k;
    CHECK(image_for_kernel(s, true, &k));
    CHECK(!image_for_kernel(s, false, &k)); /* a surface is no texture */
    CHECK(image_for_kernel(s, true, &k));
    CHECK(k.surface == 1 && k.geometry == KIMG_2D && k.layered == 0 && k.layers == 1);
    CHECK(k.format == CU_AD_FORMAT_UNSIGNED_INT32 && k.channels == 2 && k.texel_bytes == 8);
    CHECK(k.level[0].base == ia->level.base && k.level[0].width == 64 && k.level[0].height == 32);
    CHECK(k.level[0].row_pitch == ia->level.row_pitch);
    CHECK(k.lo == ia->level.base && k.hi == ia->level.base + ia->level.size);
    /* The array's handle destroyed: the object keeps its memory. */
    OK(cuArrayDestroy(a));
    CHECK(image_for_kernel(s, true, &k));
    CHECK(k.level[0].base == ia->level.base);
    OK(cuSurfObjectDestroy(s));
    image_array_put(ia);

    /* A layered array seen through a view of layers 2..4. */
    CUarray l = make_array(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED);
    OK(image_array_get("test", "l", l, &ia));
    r.res.array.hArray = l;
    CUDA_RESOURCE_VIEW_DESC v;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
    v.width = v.height = 16;
    v.depth = 6;
    v.firstLayer = 2;
    v.lastLayer = 4;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CUtexObject t = 0;
    OK(cuTexObjectCreate(&t, &r, &td, &v));
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.geometry == KIMG_2D && k.layered == 1 && k.layers == 3 && k.first_layer == 2);
    CHECK(k.level[0].depth == 1);
    CHECK(k.level[0].base == ia->level.base + 2 * ia->level.slice_pitch);
    OK(cuTexObjectDestroy(t));
    image_array_put(ia);
    OK(cuArrayDestroy(l));

    CUarray cube = make_array(8, 8, 6, CU_AD_FORMAT_HALF, 4, CUDA_ARRAY3D_CUBEMAP);
    r.res.array.hArray = cube;
    OK(cuTexObjectCreate(&t, &r, &td, NULL));
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.geometry == KIMG_CUBE && k.layered == 0 && k.layers == 6 && k.texel_bytes == 8);
    OK(cuTexObjectDestroy(t));
    OK(cuArrayDestroy(cube));

    CUarray vol = make_array(8, 4, 2, CU_AD_FORMAT_SIGNED_INT8, 1, 0);
    r.res.array.hArray = vol;
    OK(cuTexObjectCreate(&t, &r, &td, NULL));
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.geometry == KIMG_3D && k.layers == 1 && k.level[0].depth == 2 && k.texel_bytes == 1);
    OK(cuTexObjectDestroy(t));
    OK(cuArrayDestroy(vol));

    /* A mipmapped array through a view of levels 2..5. */
    CUDA_ARRAY3D_DESCRIPTOR md;
    memset(&md, 0, sizeof md);
    md.Width = 64;
    md.Height = 64;
    md.Format = CU_AD_FORMAT_FLOAT;
    md.NumChannels = 4;
    CUmipmappedArray mm = NULL;
    OK(cuMipmappedArrayCreate(&mm, &md, 7));
    struct image_mipmap *im = NULL;
    OK(image_mipmap_get("test", "mm", mm, &im));
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    r.res.mipmap.hMipmappedArray = mm;
    memset(&v, 0, sizeof v);
    v.format = CU_RES_VIEW_FORMAT_FLOAT_4X32;
    v.width = v.height = 64;
    v.firstMipmapLevel = 2;
    v.lastMipmapLevel = 5;
    OK(cuTexObjectCreate(&t, &r, &td, &v));
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.geometry == KIMG_2D && k.nlevels == 4 && k.first_level == 2 && k.texel_bytes == 16);
    CHECK(k.level[0].base == im->level[2].base && k.level[0].width == 16 && k.level[0].height == 16);
    CHECK(k.level[3].base == im->level[5].base && k.level[3].width == 2);
    CHECK(k.lo == im->level[0].base && k.hi >= im->level[6].base + im->level[6].size);
    OK(cuTexObjectDestroy(t));
    /* No view: every level. */
    OK(cuTexObjectCreate(&t, &r, &td, NULL));
    CHECK(image_for_kernel(t, false, &k));
    CHECK(k.nlevels == 7 && k.first_level == 0 && k.level[6].width == 1 && k.level[6].base == im->level[6].base);
    OK(cuTexObjectDestroy(t));
    image_mipmap_put(im);
    OK(cuMipmappedArrayDestroy(mm));
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate(&ctx, NULL, 0, dev));
    CUdeviceptr d = 0;
    OK(cuMemAlloc(&d, 1 << 20));
    linear_texture(d);
    pitch2d_texture(d);
    extent_is_the_memory_under_it();
    array_objects();
    OK(cuMemFree(d));
    OK(cuCtxDestroy(ctx));
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("texture_kernel_view: all checks passed\n");
    return failures ? 1 : 0;
}
