// The GPU-differential corpus of texel decoding and filtering (issue 23, part texfilter): every
// format the texture unit reads, point and linear, in each read mode it takes, in 1D, 2D and 3D,
// with texels of full precision (random bits, not small integers), at fractions the linear filter
// rounds; every block-compressed format (BC1 to BC7, signed, sRGB) point-sampled at every texel
// and linear-filtered; the planar video formats through their planes. Every result is printed as
// its bits; textures_filter.expected is what an H100 printed (nvcc -arch=sm_90 -cudart shared,
// driver 580; docs/probes/kernels/texfilter/run.sh). extmem must print the same, bit for bit.
// Written for nvcc and clang alike (no make_uint4, no template cudaCreateChannelDesc<T>).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check.h"

struct Q {
    float x, y, z, w;
};

enum { K1D, K2D, K3D, K2DU, K2DI };

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
    case K2DU: u = tex2D<uint4>(t, c.x, c.y); integer = true; break;
    case K2DI: {
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
static Q hq[1024];
static uint4 hout[1024];

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

static uint32_t lcg = 20261127u;
static uint32_t rnd()
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg >> 8;
}

// A float of full precision: values around 1, around 1000, tiny and huge exponents, both signs.
static float rfloat()
{
    uint32_t r = rnd();
    float m = (float)(rnd() & 0xffffff) / 16777216.0f + 0.5f;
    switch (r & 3) {
    case 0: return (m - 0.75f) * 2000.0f;
    case 1: return m;
    case 2: return std::ldexp(m, (int)(rnd() % 40) - 20) * ((rnd() & 1) ? 1.0f : -1.0f);
    default: return (float)(rnd() % 256) + m;
    }
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
    td.borderColor[0] = 0.3f;
    td.borderColor[1] = -0.6f;
    td.borderColor[2] = 0.9f;
    td.borderColor[3] = 0.45f;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

static const char *mode_name[] = {"wrap", "clamp", "mirror", "border"};

// Coordinates in texels of a w x h texture: footprints at fractions of 1/256 and between them,
// edges and just outside.
static int coords(int w, int h, int dims)
{
    int n = 0;
    for (int i = 0; i < 18; ++i) {
        float fx = (float)((i * 73 + 11) % 256) / 256.0f, fy = (float)((i * 151 + 7) % 256) / 256.0f,
              fz = (float)((i * 29 + 101) % 256) / 256.0f;
        if (i % 3 == 2) { // not a multiple of 1/256: the weight is rounded
            fx += 0.37f / 256.0f;
            fy += 0.61f / 256.0f;
            fz += 0.5f / 256.0f;
        }
        hq[n++] = Q{0.5f + (float)((i * 5) % w) + fx, dims > 1 ? 0.5f + (float)((i * 3) % h) + fy : 0.0f,
                    dims > 2 ? 0.5f + (float)((i * 7) % 4) + fz : 0.0f, 0};
    }
    hq[n++] = Q{0.1f, 0.2f, 0.3f, 0};
    hq[n++] = Q{(float)w - 0.2f, (float)h - 0.1f, 3.9f, 0};
    hq[n++] = Q{-0.7f, (float)h + 0.6f, -0.4f, 0};
    hq[n++] = Q{(float)w + 0.3f, -0.3f, 4.6f, 0};
    return n;
}

struct Fmt {
    const char *name;
    cudaChannelFormatDesc cd;
    int esize;
    int kind; // 0 unsigned int, 1 signed int, 2 half, 3 float
};

static void fill(const Fmt &f, unsigned char *p, int count)
{
    for (int i = 0; i < count; ++i) {
        if (f.kind == 3) {
            for (int c = 0; c < f.esize / 4; ++c) {
                float v = rfloat();
                std::memcpy(p + i * f.esize + 4 * c, &v, 4);
            }
        } else if (f.kind == 2) {
            for (int c = 0; c < f.esize / 2; ++c) {
                uint16_t h;
                do
                    h = (uint16_t)rnd();
                while ((h & 0x7c00) == 0x7c00); // finite halves
                std::memcpy(p + i * f.esize + 2 * c, &h, 2);
            }
        } else {
            for (int b = 0; b < f.esize; ++b)
                p[i * f.esize + b] = (unsigned char)rnd();
        }
    }
}

static void formats()
{
    const cudaChannelFormatKind U = cudaChannelFormatKindUnsigned, S = cudaChannelFormatKindSigned,
                                F = cudaChannelFormatKindFloat;
    const Fmt fmts[] = {
        {"u8x1", cudaCreateChannelDesc(8, 0, 0, 0, U), 1, 0},     {"u8x2", cudaCreateChannelDesc(8, 8, 0, 0, U), 2, 0},
        {"u8x4", cudaCreateChannelDesc(8, 8, 8, 8, U), 4, 0},     {"s8x1", cudaCreateChannelDesc(8, 0, 0, 0, S), 1, 1},
        {"s8x4", cudaCreateChannelDesc(8, 8, 8, 8, S), 4, 1},     {"u16x1", cudaCreateChannelDesc(16, 0, 0, 0, U), 2, 0},
        {"u16x4", cudaCreateChannelDesc(16, 16, 16, 16, U), 8, 0}, {"s16x1", cudaCreateChannelDesc(16, 0, 0, 0, S), 2, 1},
        {"s16x2", cudaCreateChannelDesc(16, 16, 0, 0, S), 4, 1},  {"half1", cudaCreateChannelDesc(16, 0, 0, 0, F), 2, 2},
        {"half2", cudaCreateChannelDesc(16, 16, 0, 0, F), 4, 2},  {"half4", cudaCreateChannelDesc(16, 16, 16, 16, F), 8, 2},
        {"float1", cudaCreateChannelDesc(32, 0, 0, 0, F), 4, 3},  {"float2", cudaCreateChannelDesc(32, 32, 0, 0, F), 8, 3},
        {"float4", cudaCreateChannelDesc(32, 32, 32, 32, F), 16, 3},
    };
    const int W = 6, H = 5;
    static unsigned char data[W * H * 16];
    for (const Fmt &f : fmts) {
        fill(f, data, W * H);
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &f.cd, W, H));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, data, W * f.esize, W * f.esize, H, cudaMemcpyHostToDevice));
        bool integer = f.kind < 2;
        for (int rm = 0; rm < (integer ? 2 : 1); ++rm) {
            cudaTextureReadMode mode = integer && rm == 0 ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
            for (int fm = 0; fm < 2; ++fm) {
                if (mode == cudaReadModeElementType && integer && fm == 1)
                    continue; // integers are not filtered
                for (int am = 1; am < 4; am += 2) {
                    cudaTextureObject_t t = tex(a, (cudaTextureAddressMode)am, fm ? cudaFilterModeLinear : cudaFilterModePoint,
                                                mode, 0);
                    char name[64];
                    std::snprintf(name, sizeof name, "%s %s %s %s", f.name, integer && rm == 0 ? "norm" : "elem",
                                  fm ? "linear" : "point", mode_name[am]);
                    int kind = !integer || rm == 0 ? K2D : (f.kind == 1 ? K2DI : K2DU);
                    run(name, t, kind, coords(W, H, 2));
                    CHECK(cudaDestroyTextureObject(t));
                }
            }
        }
        // sRGB on the 8-bit unsigned formats
        if (f.kind == 0 && f.esize <= 4 && f.cd.x == 8) {
            for (int fm = 0; fm < 2; ++fm) {
                cudaTextureObject_t t = tex(a, cudaAddressModeBorder, fm ? cudaFilterModeLinear : cudaFilterModePoint,
                                            cudaReadModeNormalizedFloat, 0, 1);
                char name[64];
                std::snprintf(name, sizeof name, "%s srgb %s border", f.name, fm ? "linear" : "point");
                run(name, t, K2D, coords(W, H, 2));
                CHECK(cudaDestroyTextureObject(t));
            }
        }
        CHECK(cudaFreeArray(a));
        // 1D, linear, normalized coordinates, wrap
        if (f.kind != 1 || f.esize == 1) {
            cudaArray_t a1;
            CHECK(cudaMallocArray(&a1, &f.cd, 7, 0));
            CHECK(cudaMemcpy2DToArray(a1, 0, 0, data, 7 * f.esize, 7 * f.esize, 1, cudaMemcpyHostToDevice));
            cudaTextureObject_t t = tex(a1, cudaAddressModeWrap, cudaFilterModeLinear,
                                        integer ? cudaReadModeNormalizedFloat : cudaReadModeElementType, 1);
            int n = coords(7, 1, 1);
            for (int i = 0; i < n; ++i)
                hq[i].x /= 7.0f;
            char name[64];
            std::snprintf(name, sizeof name, "%s 1d linear wrap", f.name);
            run(name, t, K1D, n);
            CHECK(cudaDestroyTextureObject(t));
            CHECK(cudaFreeArray(a1));
        }
    }
}

static void three_d()
{
    const cudaChannelFormatKind U = cudaChannelFormatKindUnsigned, S = cudaChannelFormatKindSigned,
                                F = cudaChannelFormatKindFloat;
    const Fmt fmts[] = {
        {"float1", cudaCreateChannelDesc(32, 0, 0, 0, F), 4, 3},
        {"float4", cudaCreateChannelDesc(32, 32, 32, 32, F), 16, 3},
        {"half2", cudaCreateChannelDesc(16, 16, 0, 0, F), 4, 2},
        {"u8x4", cudaCreateChannelDesc(8, 8, 8, 8, U), 4, 0},
        {"s16x1", cudaCreateChannelDesc(16, 0, 0, 0, S), 2, 1},
    };
    const int W = 5, H = 4, D = 4;
    static unsigned char data[W * H * D * 16];
    for (const Fmt &f : fmts) {
        fill(f, data, W * H * D);
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &f.cd, make_cudaExtent(W, H, D)));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(data, W * f.esize, W, H);
        p.dstArray = a;
        p.extent = make_cudaExtent(W, H, D);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        for (int am = 0; am < 4; ++am) {
            cudaTextureObject_t t = tex(a, (cudaTextureAddressMode)am, cudaFilterModeLinear,
                                        f.kind < 2 ? cudaReadModeNormalizedFloat : cudaReadModeElementType, am == 0 || am == 2);
            int n = coords(W, H, 3);
            if (am == 0 || am == 2)
                for (int i = 0; i < n; ++i) {
                    hq[i].x /= W;
                    hq[i].y /= H;
                    hq[i].z /= D;
                }
            char name[64];
            std::snprintf(name, sizeof name, "3d %s linear %s", f.name, mode_name[am]);
            run(name, t, K3D, n);
            CHECK(cudaDestroyTextureObject(t));
        }
        CHECK(cudaFreeArray(a));
    }
}

static void block_compressed()
{
    struct {
        const char *name;
        cudaChannelFormatKind kind;
        int x, y, z, w, bytes;
    } bc[] = {
        {"bc1", cudaChannelFormatKindUnsignedBlockCompressed1, 8, 8, 8, 8, 8},
        {"bc1srgb", cudaChannelFormatKindUnsignedBlockCompressed1SRGB, 8, 8, 8, 8, 8},
        {"bc2", cudaChannelFormatKindUnsignedBlockCompressed2, 8, 8, 8, 8, 16},
        {"bc2srgb", cudaChannelFormatKindUnsignedBlockCompressed2SRGB, 8, 8, 8, 8, 16},
        {"bc3", cudaChannelFormatKindUnsignedBlockCompressed3, 8, 8, 8, 8, 16},
        {"bc3srgb", cudaChannelFormatKindUnsignedBlockCompressed3SRGB, 8, 8, 8, 8, 16},
        {"bc4", cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0, 0, 8},
        {"bc4s", cudaChannelFormatKindSignedBlockCompressed4, 8, 0, 0, 0, 8},
        {"bc5", cudaChannelFormatKindUnsignedBlockCompressed5, 8, 8, 0, 0, 16},
        {"bc5s", cudaChannelFormatKindSignedBlockCompressed5, 8, 8, 0, 0, 16},
        {"bc6h", cudaChannelFormatKindUnsignedBlockCompressed6H, 16, 16, 16, 0, 16},
        {"bc6hs", cudaChannelFormatKindSignedBlockCompressed6H, 16, 16, 16, 0, 16},
        {"bc7", cudaChannelFormatKindUnsignedBlockCompressed7, 8, 8, 8, 8, 16},
        {"bc7srgb", cudaChannelFormatKindUnsignedBlockCompressed7SRGB, 8, 8, 8, 8, 16},
    };
    const int BW = 4, BH = 4, W = BW * 4, H = BH * 4; // 16 blocks, 256 texels
    static unsigned char blocks[BW * BH * 16];
    for (auto &f : bc) {
        for (int b = 0; b < BW * BH; ++b) {
            unsigned char *p = blocks + b * f.bytes;
            for (int i = 0; i < f.bytes; ++i)
                p[i] = (unsigned char)rnd();
            if (f.kind == cudaChannelFormatKindUnsignedBlockCompressed7 ||
                f.kind == cudaChannelFormatKindUnsignedBlockCompressed7SRGB) {
                int m = b % 9; // every mode, and the reserved one
                p[0] = m == 8 ? 0 : (unsigned char)((p[0] & ~((2u << m) - 1)) | (1u << m));
            } else if (f.kind == cudaChannelFormatKindUnsignedBlockCompressed6H ||
                       f.kind == cudaChannelFormatKindSignedBlockCompressed6H) {
                static const unsigned char modes[] = {0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23};
                unsigned m = modes[b % 16], mask = (m & 2) ? 31u : 3u;
                p[0] = (unsigned char)((p[0] & ~mask) | m);
            } else if (b % 3 == 0 && f.bytes == 8 && f.x == 8 && f.y == 8) { // BC1: the three-colour mode
                unsigned c0 = p[0] | p[1] << 8, c1 = p[2] | p[3] << 8;
                if (c0 > c1) {
                    p[0] = (unsigned char)c1; p[1] = (unsigned char)(c1 >> 8);
                    p[2] = (unsigned char)c0; p[3] = (unsigned char)(c0 >> 8);
                }
            } else if (b % 3 == 0 && f.y == 0) { // BC4: the six-value mode
                if (p[0] > p[1]) {
                    unsigned char t = p[0]; p[0] = p[1]; p[1] = t;
                }
            }
        }
        cudaChannelFormatDesc cd = cudaCreateChannelDesc(f.x, f.y, f.z, f.w, f.kind);
        cudaArray_t a;
        CHECK(cudaMallocArray(&a, &cd, W, H));
        CHECK(cudaMemcpy2DToArray(a, 0, 0, blocks, BW * f.bytes, BW * f.bytes, BH, cudaMemcpyHostToDevice));
        for (int rm = 0; rm < 2; ++rm)
            for (int fm = 0; fm < 2; ++fm) {
                cudaResourceDesc rd = {};
                rd.resType = cudaResourceTypeArray;
                rd.res.array.array = a;
                cudaTextureDesc td = {};
                td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
                td.filterMode = fm ? cudaFilterModeLinear : cudaFilterModePoint;
                td.readMode = rm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
                cudaTextureObject_t t;
                cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
                std::printf("%s %s %s: create %s\n", f.name, rm ? "norm" : "elem", fm ? "linear" : "point",
                            cudaGetErrorName(e));
                (void)cudaGetLastError();
                if (e != cudaSuccess)
                    continue;
                int n = 0;
                if (fm == 0) {
                    for (int y = 0; y < H; ++y)
                        for (int x = 0; x < W; ++x)
                            hq[n++] = Q{x + 0.5f, y + 0.5f, 0, 0};
                } else {
                    n = coords(W, H, 2);
                    for (int i = 0; i < 40; ++i)
                        hq[n++] = Q{0.5f + (float)(rnd() % (W - 1)) + (float)(rnd() & 255) / 256.0f,
                                    0.5f + (float)(rnd() % (H - 1)) + (float)(rnd() & 255) / 256.0f, 0, 0};
                }
                char name[64];
                std::snprintf(name, sizeof name, "%s %s %s", f.name, rm ? "norm" : "elem", fm ? "linear" : "point");
                run(name, t, K2D, n);
                CHECK(cudaDestroyTextureObject(t));
            }
        CHECK(cudaFreeArray(a));
    }
}

// Planar video formats: an NV12 array (cudaChannelFormatKindNV12) and its planes
// (cudaArrayGetPlane): which of them a texture object takes, and what it reads.
static void planar()
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindNV12);
    cudaArray_t a;
    cudaError_t e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 4, 0), 0x100 /* video encode/decode */);
    std::printf("nv12: array %s\n", cudaGetErrorName(e));
    (void)cudaGetLastError();
    if (e != cudaSuccess)
        return;
    static unsigned char buf[64];
    for (int i = 0; i < 64; ++i)
        buf[i] = (unsigned char)(i * 37 + 11);
    cudaArray_t planes[2];
    for (int p = 0; p < 2; ++p) {
        e = cudaArrayGetPlane(&planes[p], a, p);
        std::printf("nv12: plane %d %s\n", p, cudaGetErrorName(e));
        if (e != cudaSuccess)
            return;
        cudaChannelFormatDesc pd;
        cudaExtent ext;
        unsigned flags;
        CHECK(cudaArrayGetInfo(&pd, &ext, &flags, planes[p]));
        std::printf("nv12: plane %d %dx%d channels %d %d %d %d kind %d\n", p, (int)ext.width, (int)ext.height, pd.x, pd.y,
                    pd.z, pd.w, (int)pd.f);
        int es = (pd.x + pd.y + pd.z + pd.w) / 8;
        CHECK(cudaMemcpy2DToArray(planes[p], 0, 0, buf, ext.width * es, ext.width * es, ext.height,
                                  cudaMemcpyHostToDevice));
    }
    for (int which = -1; which < 2; ++which)
        for (int mode = 0; mode < 3; ++mode) {
            cudaResourceDesc rd = {};
            rd.resType = cudaResourceTypeArray;
            rd.res.array.array = which < 0 ? a : planes[which];
            cudaTextureDesc td = {};
            td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
            td.filterMode = mode == 1 ? cudaFilterModeLinear : cudaFilterModePoint;
            td.readMode = mode == 2 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
            cudaTextureObject_t t;
            e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
            static const char *mn[] = {"norm point", "norm linear", "elem point"};
            std::printf("nv12 %s%d %s: create %s\n", which < 0 ? "array" : "plane", which < 0 ? 0 : which, mn[mode],
                        cudaGetErrorName(e));
            (void)cudaGetLastError();
            if (e != cudaSuccess)
                continue;
            int n = coords(which == 1 ? 4 : 8, which == 1 ? 2 : 4, 2);
            char name[64];
            std::snprintf(name, sizeof name, "nv12 %s%d %s", which < 0 ? "array" : "plane", which < 0 ? 0 : which, mn[mode]);
            run(name, t, mode == 2 ? K2DU : K2D, n);
            CHECK(cudaDestroyTextureObject(t));
        }
    CHECK(cudaFreeArray(a));
}

int main()
{
    CHECK(cudaMalloc(&dq, sizeof(hq)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    formats();
    three_d();
    block_compressed();
    planar();
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dout));
    std::printf("done\n");
    return 0;
}
