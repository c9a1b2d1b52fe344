// The GPU-differential texture corpus (issue 23): texture and surface objects over CUDA arrays,
// sampled by kernels in every address mode, filter, read mode and format, gathers, levels of
// detail and gradients, cube maps and layers, surface reads and writes in each boundary mode.
// Every result is printed as its bits. textures.expected is what an H100 printed (nvcc
// -arch=sm_90 -cudart shared textures.cu, NVIDIA's runtime 13.0, driver 580.159.04; run by
// docs/probes/images/sampling/run2.sh); extmem must print the same, bit for bit. (The vector
// and channel-descriptor helpers were later written without make_uint4 and the template
// cudaCreateChannelDesc<T>, which extmem's headers for clang lack: the same values, the same
// output.)
//
// The corpus samples what the software device reproduces exactly (docs/images.md, "Sampling");
// what it only approaches (f32 texels needing more than 28 bits of alignment, halves and sRGB
// filtered, anisotropic gradients, the blend of two levels with different texels) is measured
// against the H100 by tests/kernels/image_engine_test.c instead.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check.h"

struct Q {
    float x, y, z, w;
};

static uint32_t bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// One sample per thread; kind picks the call.
enum { K1D, K2D, K3D, K2DLOD, K2DGRAD, KCUBE, KLAYER, KGATHER0, KGATHER1, KGATHER2, KGATHER3, K2DU, K1DI };

__global__ void sample(cudaTextureObject_t t, int kind, const Q *q, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Q c = q[i];
    float4 v = {0, 0, 0, 0};
    uint4 u = {0, 0, 0, 0};
    bool integer = false;
    switch (kind) {
    case K1D: v = tex1D<float4>(t, c.x); break;
    case K2D: v = tex2D<float4>(t, c.x, c.y); break;
    case K3D: v = tex3D<float4>(t, c.x, c.y, c.z); break;
    case K2DLOD: v = tex2DLod<float4>(t, c.x, c.y, c.z); break;
    case K2DGRAD: v = tex2DGrad<float4>(t, c.x, c.y, make_float2(c.z, 0), make_float2(0, c.w)); break;
    case KCUBE: v = texCubemap<float4>(t, c.x, c.y, c.z); break;
    case KLAYER: v = tex2DLayered<float4>(t, c.x, c.y, (int)c.z); break;
    case KGATHER0: v = tex2Dgather<float4>(t, c.x, c.y, 0); break;
    case KGATHER1: v = tex2Dgather<float4>(t, c.x, c.y, 1); break;
    case KGATHER2: v = tex2Dgather<float4>(t, c.x, c.y, 2); break;
    case KGATHER3: v = tex2Dgather<float4>(t, c.x, c.y, 3); break;
    case K2DU: u = tex2D<uint4>(t, c.x, c.y); integer = true; break;
    case K1DI: {
        int4 s = tex2D<int4>(t, c.x, c.y);
        u = uint4{(unsigned)s.x, (unsigned)s.y, (unsigned)s.z, (unsigned)s.w};
        integer = true;
        break;
    }
    }
    if (!integer)
        u = uint4{__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w)};
    out[i] = u;
}

static Q *dq;
static uint4 *dout;
static Q hq[512];
static uint4 hout[512];

static void run(const char *name, cudaTextureObject_t t, int kind, int n)
{
    CHECK(cudaMemcpy(dq, hq, n * sizeof(Q), cudaMemcpyHostToDevice));
    sample<<<(n + 63) / 64, 64>>>(t, kind, dq, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        std::printf("%s %d: %08x %08x %08x %08x\n", name, i, hout[i].x, hout[i].y, hout[i].z, hout[i].w);
}

static cudaTextureObject_t tex(cudaArray_t a, cudaTextureAddressMode am, cudaTextureFilterMode fm,
                               cudaTextureReadMode rm, int norm, int srgb = 0)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = fm;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.sRGB = srgb;
    td.borderColor[0] = 0.75f;
    td.borderColor[1] = 0.25f;
    td.borderColor[2] = 0.5f;
    td.borderColor[3] = 1.0f;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

static cudaArray_t array2d(cudaChannelFormatDesc cd, int w, int h, const void *data, size_t esize, unsigned flags = 0)
{
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, w, h, flags));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, data, w * esize, w * esize, h ? h : 1, cudaMemcpyHostToDevice));
    return a;
}

static const char *mode_name[] = {"wrap", "clamp", "mirror", "border"};

// Coordinates in texels of a 5 x 4 texture: edges, centres, halves, tiny fractions, outside, NaN.
static int coords_2d(bool norm)
{
    static const float xs[] = {0.0f, 0.5f, 1.0f, 1.25f, 2.5f, 2.75f, 4.5f, 4.99f, 5.0f, -0.25f, -1.0f, 7.3f, 12.0f,
                               0.5f + 1.0f / 512, 0.5f + 3.0f / 512, 1e30f, -1e30f, __builtin_nanf("")};
    const int nx = sizeof(xs) / sizeof(xs[0]);
    int n = 0;
    for (int i = 0; i < nx; ++i) {
        float x = xs[i], y = xs[(i * 7 + 3) % nx] * 0.8f;
        hq[n++] = norm ? Q{x / 5.0f, y / 4.0f, 0, 0} : Q{x, y, 0, 0};
    }
    return n;
}

static void address_and_filters()
{
    // float texels: small integers, which every filter weight combines exactly
    float f[20];
    for (int i = 0; i < 20; ++i)
        f[i] = (float)((i * 37) % 23);
    cudaArray_t a = array2d(cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat), 5, 4, f, 4);
    for (int norm = 0; norm < 2; ++norm)
        for (int am = 0; am < 4; ++am)
            for (int fm = 0; fm < 2; ++fm) {
                cudaTextureObject_t t = tex(a, (cudaTextureAddressMode)am, (cudaTextureFilterMode)fm,
                                            cudaReadModeElementType, norm);
                char name[64];
                std::snprintf(name, sizeof name, "float %s %s %s", norm ? "norm" : "unnorm", mode_name[am],
                              fm ? "linear" : "point");
                run(name, t, K2D, coords_2d(norm));
                CHECK(cudaDestroyTextureObject(t));
            }
    CHECK(cudaFreeArray(a));
}

static void read_modes()
{
    unsigned char u8[20 * 4];
    signed char s8[20];
    unsigned short u16[20];
    unsigned short h[20];
    for (int i = 0; i < 80; ++i)
        u8[i] = (unsigned char)(i * 53 + 7);
    for (int i = 0; i < 20; ++i) {
        s8[i] = (signed char)(i * 29 - 128);
        u16[i] = (unsigned short)(i * 3307 + 11);
        h[i] = (unsigned short)(0x3c00 + i * 0x1a3); // halves around 1 .. 1000
    }
    struct {
        const char *name;
        cudaChannelFormatDesc cd;
        const void *data;
        size_t esize;
        cudaTextureReadMode rm;
        int srgb;
        bool linear;
        int kind;
    } cases[] = {
        {"unorm8", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), u8, 1, cudaReadModeNormalizedFloat, 0, true, K2D},
        {"u8 element", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), u8, 1, cudaReadModeElementType, 0, false, K2DU},
        {"snorm8", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned), s8, 1, cudaReadModeNormalizedFloat, 0, false, K2D},
        {"s8 element", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned), s8, 1, cudaReadModeElementType, 0, false, K1DI},
        {"unorm16", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned), u16, 2, cudaReadModeNormalizedFloat, 0, true, K2D},
        {"half", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat), h, 2, cudaReadModeElementType, 0, false, K2D},
        {"uchar4 srgb", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), u8, 4, cudaReadModeNormalizedFloat, 1, false, K2D},
        {"uchar4 unorm", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), u8, 4, cudaReadModeNormalizedFloat, 0, true, K2D},
    };
    for (auto &c : cases) {
        cudaArray_t a = array2d(c.cd, 5, 4, c.data, c.esize);
        for (int am = 1; am < 4; am += 2) {
            cudaTextureObject_t t = tex(a, (cudaTextureAddressMode)am,
                                        c.linear ? cudaFilterModeLinear : cudaFilterModePoint, c.rm, 1, c.srgb);
            char name[64];
            std::snprintf(name, sizeof name, "%s %s %s", c.name, mode_name[am], c.linear ? "linear" : "point");
            run(name, t, c.kind, coords_2d(true));
            CHECK(cudaDestroyTextureObject(t));
        }
        CHECK(cudaFreeArray(a));
    }
}

static void gathers_and_3d()
{
    float f4[5 * 4 * 4];
    for (int i = 0; i < 80; ++i)
        f4[i] = (float)(i % 41);
    cudaArray_t a = array2d(cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat), 5, 4, f4, 16);
    for (int am = 0; am < 4; ++am) {
        cudaTextureObject_t t = tex(a, (cudaTextureAddressMode)am, cudaFilterModePoint, cudaReadModeElementType, 1);
        for (int comp = 0; comp < 4; ++comp) {
            char name[64];
            std::snprintf(name, sizeof name, "gather %s c%d", mode_name[am], comp);
            run(name, t, KGATHER0 + comp, coords_2d(true));
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
    // 3D: 4 x 3 x 5 of small integers
    float v[60];
    for (int i = 0; i < 60; ++i)
        v[i] = (float)((i * 13) % 31);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(4, 3, 5)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(v, 16, 4, 3);
    p.dstArray = a3;
    p.extent = make_cudaExtent(4, 3, 5);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    for (int am = 0; am < 4; ++am)
        for (int fm = 0; fm < 2; ++fm) {
            cudaTextureObject_t t = tex(a3, (cudaTextureAddressMode)am, (cudaTextureFilterMode)fm,
                                        cudaReadModeElementType, 1);
            int n = 0;
            for (int i = 0; i < 24; ++i)
                hq[n++] = Q{(i % 7) * 0.19f - 0.1f, (i % 5) * 0.27f - 0.05f, (i % 3) * 0.4f + 0.05f, 0};
            char name[64];
            std::snprintf(name, sizeof name, "3d %s %s", mode_name[am], fm ? "linear" : "point");
            run(name, t, K3D, n);
            CHECK(cudaDestroyTextureObject(t));
        }
    CHECK(cudaFreeArray(a3));
}

static void levels()
{
    const int W = 32, L = 6;
    cudaMipmappedArray_t m;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(W, W, 0), L));
    static float buf[W * W];
    for (int l = 0; l < L; ++l) {
        cudaArray_t lv;
        CHECK(cudaGetMipmappedArrayLevel(&lv, m, l));
        int w = W >> l;
        for (int i = 0; i < w * w; ++i)
            buf[i] = (float)(l * 8 + 3);
        CHECK(cudaMemcpy2DToArray(lv, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    struct {
        const char *name;
        cudaTextureFilterMode mip;
        float bias, lo, hi;
        unsigned aniso;
    } cfgs[] = {
        {"mip point", cudaFilterModePoint, 0, 0, 100, 0},
        {"mip linear", cudaFilterModeLinear, 0, 0, 100, 0},
        {"mip bias clamp", cudaFilterModeLinear, 0.6f, 0.75f, 3.5f, 0},
        {"mip aniso", cudaFilterModeLinear, 0, 0, 100, 8},
    };
    for (auto &c : cfgs) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = m;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear;
        td.normalizedCoords = 1;
        td.mipmapFilterMode = c.mip;
        td.mipmapLevelBias = c.bias;
        td.minMipmapLevelClamp = c.lo;
        td.maxMipmapLevelClamp = c.hi;
        td.maxAnisotropy = c.aniso;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        int n = 0;
        for (int k = -8; k < 56; ++k)
            hq[n++] = Q{0.4f, 0.7f, k / 8.0f + (k % 3) / 512.0f, 0};
        hq[n++] = Q{0.4f, 0.7f, __builtin_inff(), 0};
        hq[n++] = Q{0.4f, 0.7f, -__builtin_inff(), 0};
        hq[n++] = Q{0.4f, 0.7f, __builtin_nanf(""), 0};
        char name[64];
        std::snprintf(name, sizeof name, "lod %s", c.name);
        run(name, t, K2DLOD, n);
        // gradients whose footprint is a power of two texels: the level of detail is exact
        n = 0;
        for (int k = -2; k < 8; ++k) {
            float g = (float)(1 << (k + 2)) / 4.0f / W;
            hq[n++] = Q{0.4f, 0.7f, g, g};
            hq[n++] = Q{0.4f, 0.7f, g, g / 2};
        }
        hq[n++] = Q{0.4f, 0.7f, 0, 0};
        std::snprintf(name, sizeof name, "grad %s", c.name);
        run(name, t, K2DGRAD, n);
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeMipmappedArray(m));
}

static void cubes_and_layers()
{
    const int S = 4;
    float buf[6 * S * S];
    for (int i = 0; i < 6 * S * S; ++i)
        buf[i] = (float)(i / (S * S) * 100 + i % (S * S));
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(S, S, 6), cudaArrayCubemap));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(buf, S * 4, S, S);
    p.dstArray = a;
    p.extent = make_cudaExtent(S, S, 6);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    for (int fm = 0; fm < 2; ++fm) {
        cudaTextureObject_t t = tex(a, cudaAddressModeClamp, (cudaTextureFilterMode)fm, cudaReadModeElementType, 1);
        int n = 0;
        const float d[] = {1, -1, 0.5f, -0.5f, 0.25f, 0, 0.9f, -0.3f};
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j)
                hq[n++] = Q{d[i], d[j], d[(i + j * 3) % 8] * (i & 1 ? 1.5f : -1.5f), 0};
        hq[n++] = Q{1, 1, 0, 0};
        hq[n++] = Q{0, 1, 1, 0};
        hq[n++] = Q{1, 0, 1, 0};
        hq[n++] = Q{0, 0, 0, 0};
        hq[n++] = Q{1, 1e-30f, 0, 0};
        run(fm ? "cube linear" : "cube point", t, KCUBE, n);
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(S, S, 3), cudaArrayLayered));
    p.dstArray = a;
    p.extent = make_cudaExtent(S, S, 3);
    CHECK(cudaMemcpy3D(&p));
    for (int fm = 0; fm < 2; ++fm) {
        cudaTextureObject_t t = tex(a, cudaAddressModeBorder, (cudaTextureFilterMode)fm, cudaReadModeElementType, 0);
        int n = 0;
        for (int l = -1; l < 5; ++l)
            for (int i = 0; i < 4; ++i)
                hq[n++] = Q{i * 1.25f - 0.5f, i * 0.75f + 0.25f, (float)l, 0};
        run(fm ? "layered linear" : "layered point", t, KLAYER, n);
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
}

// Surfaces: reads and writes in each boundary mode (.trap ends the context: the engine test and
// the sampling probe cover it).
__global__ void surf_read(cudaSurfaceObject_t s, const int2 *xy, uint2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned a = surf2Dread<unsigned>(s, xy[i].x, xy[i].y, cudaBoundaryModeZero);
        unsigned b = surf2Dread<unsigned>(s, xy[i].x, xy[i].y, cudaBoundaryModeClamp);
        out[i] = uint2{a, b};
    }
}
__global__ void surf_write(cudaSurfaceObject_t s, int x, int y, unsigned v, int clamp)
{
    if (clamp)
        surf2Dwrite(v, s, x, y, cudaBoundaryModeClamp);
    else
        surf2Dwrite(v, s, x, y, cudaBoundaryModeZero);
}
__global__ void surf_shapes(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, uint4 *out)
{
    uchar4 c = surf1Dread<uchar4>(s1, 8);
    surf1Dwrite(uchar4{(unsigned char)(c.x + 1), c.y, c.z, (unsigned char)(c.w + 2)}, s1, 8);
    ushort2 h = surf3Dread<ushort2>(s3, 4, 1, 2);
    surf3Dwrite(ushort2{h.x, (unsigned short)(h.y + 3)}, s3, 4, 1, 2);
    float4 f = surf2DLayeredread<float4>(sl, 16, 1, 2);
    surf2DLayeredwrite(float4{f.x, f.y, f.z, f.w * 2}, sl, 16, 1, 2);
    unsigned w;
    asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(sl));
    out[0] = uint4{*(unsigned *)&c, *(unsigned *)&h, __float_as_uint(f.w), w};
}

static void surfaces()
{
    const int W = 11, H = 13;
    unsigned buf[W * H];
    for (int i = 0; i < W * H; ++i)
        buf[i] = (i / W) * 100 + i % W;
    cudaArray_t a = array2d(cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned), W, H, buf, 4, cudaArraySurfaceLoadStore);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rd));
    static const int xs[] = {0, 4, 40, 44, 48, -4, -8, 1000, 8, 40};
    static const int ys[] = {0, 12, 13, -1, 100, 6};
    int2 xy[60];
    int n = 0;
    for (int x : xs)
        for (int y : ys)
            xy[n++] = make_int2(x, y);
    int2 *dxy;
    uint2 *dr;
    CHECK(cudaMalloc(&dxy, sizeof(xy)));
    CHECK(cudaMalloc(&dr, n * sizeof(uint2)));
    CHECK(cudaMemcpy(dxy, xy, sizeof(xy), cudaMemcpyHostToDevice));
    surf_read<<<1, 64>>>(s, dxy, dr, n);
    CHECK(cudaDeviceSynchronize());
    uint2 r[60];
    CHECK(cudaMemcpy(r, dr, n * sizeof(uint2), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        std::printf("surf read (%d, %d): zero %08x clamp %08x\n", xy[i].x, xy[i].y, r[i].x, r[i].y);
    static const int wx[] = {-4, 44, 1000, 40, 8, 0};
    static const int wy[] = {0, 3, 5, -2, 13, 200};
    for (int i = 0; i < 6; ++i)
        for (int clamp = 0; clamp < 2; ++clamp) {
            surf_write<<<1, 1>>>(s, wx[i], wy[i], 0xa0000000u | (i << 4) | clamp, clamp);
            CHECK(cudaDeviceSynchronize());
        }
    CHECK(cudaMemcpy2DFromArray(buf, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    std::printf("surf after writes:");
    for (int i = 0; i < W * H; ++i)
        std::printf(" %x", buf[i]);
    std::printf("\n");
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(dxy));
    CHECK(cudaFree(dr));

    // 1D uchar4, 3D ushort2, layered 2D float4
    unsigned char c1[16 * 4];
    for (int i = 0; i < 64; ++i)
        c1[i] = (unsigned char)(i * 5);
    cudaArray_t a1 = array2d(cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), 16, 0, c1, 4, cudaArraySurfaceLoadStore);
    cudaChannelFormatDesc cd3 = cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &cd3, make_cudaExtent(4, 3, 3), cudaArraySurfaceLoadStore));
    unsigned short h3[4 * 3 * 3 * 2];
    for (int i = 0; i < 72; ++i)
        h3[i] = (unsigned short)(1000 + i);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h3, 16, 4, 3);
    p.dstArray = a3;
    p.extent = make_cudaExtent(4, 3, 3);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaChannelFormatDesc cdl = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    cudaArray_t al;
    CHECK(cudaMalloc3DArray(&al, &cdl, make_cudaExtent(3, 2, 3), cudaArraySurfaceLoadStore | cudaArrayLayered));
    float fl[3 * 2 * 3 * 4];
    for (int i = 0; i < 72; ++i)
        fl[i] = (float)i * 0.5f;
    p.srcPtr = make_cudaPitchedPtr(fl, 48, 3, 2);
    p.dstArray = al;
    p.extent = make_cudaExtent(3, 2, 3);
    CHECK(cudaMemcpy3D(&p));
    cudaSurfaceObject_t s1, s3, sl;
    rd.res.array.array = a1;
    CHECK(cudaCreateSurfaceObject(&s1, &rd));
    rd.res.array.array = a3;
    CHECK(cudaCreateSurfaceObject(&s3, &rd));
    rd.res.array.array = al;
    CHECK(cudaCreateSurfaceObject(&sl, &rd));
    uint4 *dout4;
    CHECK(cudaMalloc(&dout4, 16));
    surf_shapes<<<1, 1>>>(s1, s3, sl, dout4);
    CHECK(cudaDeviceSynchronize());
    uint4 o;
    CHECK(cudaMemcpy(&o, dout4, 16, cudaMemcpyDeviceToHost));
    std::printf("surf shapes: %08x %08x %08x %08x\n", o.x, o.y, o.z, o.w);
    CHECK(cudaMemcpy2DFromArray(c1, 64, a1, 0, 0, 64, 1, cudaMemcpyDeviceToHost));
    p = {};
    p.srcArray = a3;
    p.dstPtr = make_cudaPitchedPtr(h3, 16, 4, 3);
    p.extent = make_cudaExtent(4, 3, 3);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    p.srcArray = al;
    p.dstPtr = make_cudaPitchedPtr(fl, 48, 3, 2);
    p.extent = make_cudaExtent(3, 2, 3);
    CHECK(cudaMemcpy3D(&p));
    std::printf("surf 1d after: %08x %08x %08x\n", ((unsigned *)c1)[1], ((unsigned *)c1)[2], ((unsigned *)c1)[3]);
    std::printf("surf 3d after: %04x %04x\n", h3[((2 * 3 + 1) * 4 + 1) * 2], h3[((2 * 3 + 1) * 4 + 1) * 2 + 1]);
    std::printf("surf layered after: %08x\n", bits(fl[((2 * 2 + 1) * 3 + 1) * 4 + 3]));
    CHECK(cudaDestroySurfaceObject(s1));
    CHECK(cudaDestroySurfaceObject(s3));
    CHECK(cudaDestroySurfaceObject(sl));
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a3));
    CHECK(cudaFreeArray(al));
    CHECK(cudaFree(dout4));
}

int main()
{
    CHECK(cudaMalloc(&dq, sizeof(hq)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    address_and_filters();
    read_modes();
    gathers_and_3d();
    levels();
    cubes_and_layers();
    surfaces();
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dout));
    std::printf("textures: done\n");
    return 0;
}
