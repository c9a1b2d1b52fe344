// The GPU-differential program of issue 23's level-of-detail part (texlod): .grad levels of
// detail from skewed gradients, anisotropic samplers, the trilinear blend of levels whose texels
// vary, seamless cube maps and cube map arrays at edges and corners, texel offsets and
// depth-compare operands in tex and tld4 (inline PTX, PTX ISA 9.0 "tex" operands e and f), and
// cudaMemcpy3DBatchAsync with an array operand. Every result is printed as its bits.
// textures_lod.expected is what an H100 printed (nvcc -arch=sm_90 -cudart shared, NVIDIA's
// runtime 13.0, driver 580.159.04; docs/probes/kernels/texlod/run.sh); extmem must print the
// same, bit for bit, except the lines textures_lod.known lists (the H100's own log2 in a level
// of detail, and anisotropic taps at ratios that are not whole: docs/images.md, "Sampling").
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check.h"

struct Q {
    float x, y, z, w;   // coordinates (cube: direction), level or depth-compare value
    float gx, gy, hx, hy; // gradients
    int ox, oy, layer, pad;
    float gz, hz;         // gradlod: the gradients' third components (3D, cube maps)
};

enum { KGRAD, KLOD, KCUBE, KACUBE, KOFF, KOFF_LEVEL, KDEPTH, KDEPTH_OFF, KGATHER_OFF, KINT_OFF, KGRAD3, KGRADCUBE };

__global__ void sample(cudaTextureObject_t t, int kind, const Q *q, uint4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Q c = q[i];
    float4 v = {0, 0, 0, 0};
    switch (kind) {
    case KGRAD: v = tex2DGrad<float4>(t, c.x, c.y, make_float2(c.gx, c.gy), make_float2(c.hx, c.hy)); break;
    case KLOD: v = tex2DLod<float4>(t, c.x, c.y, c.z); break;
    case KCUBE: v = texCubemap<float4>(t, c.x, c.y, c.z); break;
    case KACUBE: v = texCubemapLayered<float4>(t, c.x, c.y, c.z, c.layer); break;
    case KOFF:
        asm volatile("tex.2d.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6}], {%7,%8};"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "r"(c.ox), "r"(c.oy));
        break;
    case KOFF_LEVEL:
        asm volatile("tex.level.2d.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6}], %7, {%8,%9};"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "f"(c.z), "r"(c.ox), "r"(c.oy));
        break;
    case KDEPTH:
        asm volatile("tex.2d.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6}], %7;"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "f"(c.w));
        break;
    case KDEPTH_OFF:
        asm volatile("tex.2d.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6}], {%7,%8}, %9;"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "r"(c.ox), "r"(c.oy), "f"(c.w));
        break;
    case KGATHER_OFF:
        asm volatile("tld4.r.2d.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6}], {%7,%8};"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "r"(c.ox), "r"(c.oy));
        break;
    case KINT_OFF:
        asm volatile("tex.2d.v4.f32.s32 {%0,%1,%2,%3}, [%4, {%5,%6}], {%7,%8};"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "r"((int)c.x), "r"((int)c.y), "r"(c.ox), "r"(c.oy));
        break;
    case KGRAD3: // gradlod
        v = tex3DGrad<float4>(t, c.x, c.y, c.z, make_float4(c.gx, c.gy, c.gz, 0), make_float4(c.hx, c.hy, c.hz, 0));
        break;
    case KGRADCUBE: // gradlod: what nvcc writes for texCubemapGrad (extmem's header has none)
        asm volatile("tex.grad.cube.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6,%7,%7}], {%8,%9,%10,%10}, {%11,%12,%13,%13};"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(t), "f"(c.x), "f"(c.y), "f"(c.z), "f"(c.gx), "f"(c.gy), "f"(c.gz), "f"(c.hx), "f"(c.hy), "f"(c.hz));
        break;
    }
    out[i] = uint4{__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w)};
}

static Q *dq;
static uint4 *dout;
static Q hq[1024];
static uint4 hout[1024];
static uint32_t lcg = 1;
static float rnd01()
{
    lcg = lcg * 1664525u + 1013904223u;
    return (float)(lcg >> 8) / 16777216.0f;
}

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

static cudaChannelFormatDesc float_channel() { return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat); }

static cudaTextureObject_t texture(const cudaResourceDesc &rd, cudaTextureFilterMode filter, unsigned aniso,
                                   bool notri, bool seamless, cudaTextureAddressMode mode, int normalized)
{
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = filter;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = normalized;
    td.maxAnisotropy = aniso;
    td.disableTrilinearOptimization = notri;
    td.seamlessCubemap = seamless;
    td.maxMipmapLevelClamp = 100;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

// A 64 x 64 float mipmapped array of 7 levels; level l's texel (x, y) is fill(l, x, y).
static cudaMipmappedArray_t mip64(float (*fill)(int, int, int))
{
    cudaMipmappedArray_t ma;
    cudaChannelFormatDesc cd = float_channel();
    CHECK(cudaMallocMipmappedArray(&ma, &cd, make_cudaExtent(64, 64, 0), 7));
    static float buf[64 * 64];
    for (int l = 0; l < 7; ++l) {
        cudaArray_t lv;
        CHECK(cudaGetMipmappedArrayLevel(&lv, ma, l));
        int w = 64 >> l;
        for (int y = 0; y < w; ++y)
            for (int x = 0; x < w; ++x)
                buf[y * w + x] = fill(l, x, y);
        CHECK(cudaMemcpy2DToArray(lv, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    return ma;
}
static float level_index(int l, int, int) { return (float)l; }
static float level_ints(int l, int x, int y) { return (float)((l * 37 + x * 5 + y * 11) % 97); }
static float impulse(int l, int x, int y) { return l == 0 && x == 32 && y == 32 ? 1.0f : 0.0f; }

static void levels()
{
    cudaMipmappedArray_t ml = mip64(level_index), mv = mip64(level_ints), mi = mip64(impulse);
    cudaResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeMipmappedArray;
    // skewed gradients: the level of detail (levels holding their index), isotropic and
    // anisotropic, then the same on levels whose texels vary
    int n = 0;
    lcg = 5;
    for (int k = 0; k < 96; ++k) {
        float s = std::exp2(rnd01() * 6 - 0.5f) / 64; // glibc's exp2f, as nvcc's host code calls
        Q q;
        std::memset(&q, 0, sizeof q);
        q.x = rnd01();
        q.y = rnd01();
        q.gx = (rnd01() - 0.5f) * s;
        q.gy = (rnd01() - 0.5f) * s;
        q.hx = (rnd01() - 0.5f) * s;
        q.hy = (rnd01() - 0.5f) * s;
        hq[n++] = q;
    }
    const unsigned anisos[] = {0, 4, 16};
    for (unsigned a : anisos) {
        char name[48];
        rd.res.mipmap.mipmap = ml;
        cudaTextureObject_t t = texture(rd, cudaFilterModeLinear, a, true, false, cudaAddressModeWrap, 1);
        std::snprintf(name, sizeof name, "grad lod aniso %u", a);
        run(name, t, KGRAD, n);
        CHECK(cudaDestroyTextureObject(t));
        rd.res.mipmap.mipmap = mv;
        t = texture(rd, cudaFilterModeLinear, a, a != 4, false, cudaAddressModeWrap, 1);
        std::snprintf(name, sizeof name, "grad texels aniso %u", a);
        run(name, t, KGRAD, n);
        CHECK(cudaDestroyTextureObject(t));
    }
    // anisotropic taps: the impulse response along x of whole ratios
    rd.res.mipmap.mipmap = mi;
    cudaTextureObject_t t = texture(rd, cudaFilterModeLinear, 16, true, false, cudaAddressModeWrap, 1);
    n = 0;
    const float majors[] = {2, 4, 8};
    for (float m : majors)
        for (int sx = -6; sx <= 6; ++sx) {
            Q q;
            std::memset(&q, 0, sizeof q);
            q.x = (32 + sx + 0.5f + 0.3f) / 64;
            q.y = (32 + 0.5f + 0.1f) / 64;
            q.gx = m / 64;
            q.hy = 1.0f / 64;
            hq[n++] = q;
        }
    run("aniso taps", t, KGRAD, n);
    CHECK(cudaDestroyTextureObject(t));
    // trilinear blends of varying levels
    rd.res.mipmap.mipmap = mv;
    t = texture(rd, cudaFilterModeLinear, 0, false, false, cudaAddressModeWrap, 1);
    n = 0;
    lcg = 9;
    for (int k = 0; k < 128; ++k) {
        Q q;
        std::memset(&q, 0, sizeof q);
        q.x = rnd01();
        q.y = rnd01();
        q.z = rnd01() * 3.2f - 0.1f;
        hq[n++] = q;
    }
    run("trilinear", t, KLOD, n);
    // texel offsets with an explicit level
    n = 0;
    const int offs[] = {-9, -3, 0, 2, 7, 8};
    for (int ox : offs)
        for (int k = 0; k < 4; ++k) {
            Q q;
            std::memset(&q, 0, sizeof q);
            q.x = 0.3f;
            q.y = 0.6f;
            q.z = k * 0.75f;
            q.ox = ox;
            q.oy = -2;
            hq[n++] = q;
        }
    run("offset level", t, KOFF_LEVEL, n);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeMipmappedArray(ml));
    CHECK(cudaFreeMipmappedArray(mv));
    CHECK(cudaFreeMipmappedArray(mi));
}

static void cubes()
{
    // 4 x 4 faces of f * 100 + i; a cube map array of two cubes (the second + 1000)
    cudaArray_t a;
    cudaChannelFormatDesc cd = float_channel();
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(4, 4, 12), cudaArrayCubemap | cudaArrayLayered));
    static float buf[12 * 16];
    for (int i = 0; i < 12 * 16; ++i)
        buf[i] = (float)((i / 96) * 1000 + (i % 96) / 16 * 100 + i % 16);
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(buf, 16, 4, 4);
    p.dstArray = a;
    p.extent = make_cudaExtent(4, 4, 12);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    int n = 0;
    lcg = 17;
    for (int k = 0; k < 96; ++k) { // near the eight corners and along the edges
        Q q;
        std::memset(&q, 0, sizeof q);
        float v[3] = {1, 0.5f + rnd01() * 0.5f, k < 64 ? 0.5f + rnd01() * 0.5f : rnd01() * 2 - 1};
        int r = k % 3;
        q.x = ((k >> 2) & 1 ? 1 : -1) * v[r];
        q.y = ((k >> 3) & 1 ? 1 : -1) * v[(r + 1) % 3];
        q.z = ((k >> 4) & 1 ? 1 : -1) * v[(r + 2) % 3];
        q.layer = k & 1;
        hq[n++] = q;
    }
    cudaTextureObject_t t = texture(rd, cudaFilterModeLinear, 0, false, true, cudaAddressModeClamp, 1);
    run("cube array seamless", t, KACUBE, n);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
    p.dstArray = a;
    p.extent = make_cudaExtent(4, 4, 6);
    CHECK(cudaMemcpy3D(&p));
    rd.res.array.array = a;
    t = texture(rd, cudaFilterModeLinear, 0, false, true, cudaAddressModeClamp, 1);
    run("cube seamless", t, KCUBE, n);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
}

static void offsets_and_depth()
{
    cudaArray_t a;
    cudaChannelFormatDesc cd = float_channel();
    CHECK(cudaMallocArray(&a, &cd, 8, 8));
    static float buf[64];
    for (int i = 0; i < 64; ++i)
        buf[i] = (float)i / 64.0f;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, buf, 32, 32, 8, cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    const int offs[] = {-9, -8, -3, 0, 1, 7, 8, 15, 16, 100};
    for (int cfg = 0; cfg < 4; ++cfg) {
        cudaTextureFilterMode f = cfg & 1 ? cudaFilterModeLinear : cudaFilterModePoint;
        int norm = cfg >= 2;
        cudaTextureObject_t t = texture(rd, f, 0, false, false, norm ? cudaAddressModeWrap : cudaAddressModeClamp, norm);
        int n = 0;
        for (int ox : offs)
            for (int oy = -3; oy <= 3; oy += 3) {
                Q q;
                std::memset(&q, 0, sizeof q);
                q.x = norm ? 3.3f / 8 : 3.3f;
                q.y = norm ? 4.6f / 8 : 4.6f;
                q.ox = ox;
                q.oy = oy;
                q.w = 0.5f;
                hq[n++] = q;
            }
        char name[48];
        static const char *kinds[] = {"tex offset", "tex depth", "tex offset depth", "tld4 offset", "tex s32 offset"};
        static const int ks[] = {KOFF, KDEPTH, KDEPTH_OFF, KGATHER_OFF, KINT_OFF};
        for (int k = 0; k < 5; ++k) {
            if (ks[k] == KINT_OFF)
                for (int i = 0; i < n; ++i) {
                    hq[i].x = 3;
                    hq[i].y = 4;
                }
            std::snprintf(name, sizeof name, "%s cfg %d", kinds[k], cfg);
            run(name, t, ks[k], n);
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
}

static void batch_with_arrays()
{
    cudaArray_t a;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
    CHECK(cudaMallocArray(&a, &cd, 16, 8));
    float *d;
    static float h[16 * 8 * 2], back[16 * 8 * 2];
    for (int i = 0; i < 16 * 8 * 2; ++i)
        h[i] = (float)i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaMemcpy3DBatchOp op;
    std::memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = d;
    op.src.op.ptr.rowLength = 16;
    op.src.op.ptr.locHint.type = cudaMemLocationTypeDevice;
    op.dst.type = cudaMemcpyOperandTypeArray;
    op.dst.op.array.array = a;
    op.dst.op.array.offset.x = 3;
    op.dst.op.array.offset.y = 2;
    op.extent = make_cudaExtent(5, 4, 1);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    cudaError_t e = cudaMemcpy3DBatchAsync(1, &op, 0, s);
    std::printf("batch pointer to array: %d\n", (int)e);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy2DFromArray(back, 128, a, 0, 0, 128, 8, cudaMemcpyDeviceToHost));
    std::printf("batch array (3, 2) (7, 5) (8, 2): %g %g %g\n", back[2 * (2 * 16 + 3)], back[2 * (5 * 16 + 7)],
                back[2 * (2 * 16 + 8)]);
    op.dst.op.array.offset.x = 12; // 12 + 5 > 16
    std::printf("batch past the array: %d\n", (int)cudaMemcpy3DBatchAsync(1, &op, 0, s));
    (void)cudaGetLastError();
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
    CHECK(cudaFreeArray(a));
}

// gradlod: .grad on 3D textures and cube maps (levels holding their index: a sample reads the
// level of detail), isotropic and anisotropic.
static float level_index3(int l, int, int, int) { return (float)l; }
static void grads_3d_cube()
{
    cudaChannelFormatDesc cd = float_channel();
    for (int cube = 0; cube < 2; ++cube) {
        const int W = 32, L = 6;
        cudaMipmappedArray_t ma;
        CHECK(cudaMallocMipmappedArray(&ma, &cd, make_cudaExtent(W, W, cube ? 6 : W), L, cube ? cudaArrayCubemap : 0));
        static float buf[32 * 32 * 32];
        for (int l = 0; l < L; ++l) {
            cudaArray_t lv;
            CHECK(cudaGetMipmappedArrayLevel(&lv, ma, l));
            int w = W >> l, d = cube ? 6 : w;
            for (int i = 0; i < w * w * d; ++i)
                buf[i] = level_index3(l, 0, 0, 0);
            cudaMemcpy3DParms p;
            std::memset(&p, 0, sizeof p);
            p.srcPtr = make_cudaPitchedPtr(buf, w * 4, w, w);
            p.dstArray = lv;
            p.extent = make_cudaExtent(w, w, d);
            p.kind = cudaMemcpyHostToDevice;
            CHECK(cudaMemcpy3D(&p));
        }
        cudaResourceDesc rd;
        std::memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = ma;
        int n = 0;
        lcg = cube ? 23 : 21;
        for (int k = 0; k < 64; ++k) {
            float s = std::exp2(rnd01() * 5) / W;
            Q q;
            std::memset(&q, 0, sizeof q);
            q.x = cube ? rnd01() * 2 - 1 : rnd01();
            q.y = cube ? rnd01() * 2 - 1 : rnd01();
            q.z = cube ? rnd01() * 2 - 1 : rnd01();
            q.gx = (rnd01() - 0.5f) * s;
            q.gy = (rnd01() - 0.5f) * s;
            q.gz = (rnd01() - 0.5f) * s;
            q.hx = (rnd01() - 0.5f) * s;
            q.hy = (rnd01() - 0.5f) * s;
            q.hz = (rnd01() - 0.5f) * s;
            hq[n++] = q;
        }
        const unsigned anisos[] = {0, 16};
        for (unsigned a : anisos) {
            cudaTextureObject_t t = texture(rd, cudaFilterModeLinear, a, true, false, cudaAddressModeWrap, 1);
            char name[48];
            std::snprintf(name, sizeof name, "grad %s aniso %u", cube ? "cube" : "3d", a);
            run(name, t, cube ? KGRADCUBE : KGRAD3, n);
            CHECK(cudaDestroyTextureObject(t));
        }
        CHECK(cudaFreeMipmappedArray(ma));
    }
}

int main()
{
    CHECK(cudaMalloc(&dq, sizeof(hq)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    levels();
    cubes();
    offsets_and_depth();
    batch_with_arrays();
    grads_3d_cube();
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dout));
    std::printf("textures_lod: done\n");
    return 0;
}
