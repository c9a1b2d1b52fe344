// texlod2 probe (issue 23, part gradlod): the arithmetic of the H100's level of detail from
// .grad gradients and of its anisotropic taps, isolated by sweeps, and .grad on 3D and cube maps.
// Textures whose levels hold their index, a linear mip filter and no trilinear optimisation:
// a sample returns l0 + f/256, the level of detail in 1/256 (clamped to [0, levels - 1]).
// Every line: "section: inputs' bits = result's bits" (floats in hex). Run by run.sh.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("ERROR %s at %d: %s\n", #x, __LINE__, cudaGetErrorName(e_));                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t lcg_state = 1;
static float rnd01() { lcg_state = lcg_state * 1664525u + 1013904223u; return (lcg_state >> 8) / 16777216.0f; }

struct J { float x, y, z, dx[3], dy[3]; };

__global__ void k1(cudaTextureObject_t t, const J *j, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex1DGrad<float>(t, j[i].x, j[i].dx[0], j[i].dy[0]);
}
__global__ void k2(cudaTextureObject_t t, const J *j, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2DGrad<float>(t, j[i].x, j[i].y, make_float2(j[i].dx[0], j[i].dx[1]), make_float2(j[i].dy[0], j[i].dy[1]));
}
__global__ void k3(cudaTextureObject_t t, const J *j, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex3DGrad<float>(t, j[i].x, j[i].y, j[i].z, make_float4(j[i].dx[0], j[i].dx[1], j[i].dx[2], 0), make_float4(j[i].dy[0], j[i].dy[1], j[i].dy[2], 0));
}
__global__ void kc(cudaTextureObject_t t, const J *j, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = texCubemapGrad<float>(t, j[i].x, j[i].y, j[i].z, make_float4(j[i].dx[0], j[i].dx[1], j[i].dx[2], 0), make_float4(j[i].dy[0], j[i].dy[1], j[i].dy[2], 0));
}

static const int MAXJ = 1 << 16;
static J *dj, *hj;
static float *dout, *hout;

static void run(void (*k)(cudaTextureObject_t, const J *, float *, int), cudaTextureObject_t t, int n)
{
    CK(cudaMemcpy(dj, hj, n * sizeof(J), cudaMemcpyHostToDevice));
    k<<<(n + 127) / 128, 128>>>(t, dj, dout, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hout, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
}
// gradients only (coordinates fixed per section)
static void pr_grad(const char *sec, int n, int dims, bool nonzero_only = false, bool coords = false)
{
    for (int i = 0; i < n; ++i) {
        if (nonzero_only && hout[i] == 0)
            continue;
        printf("%s:", sec);
        if (coords)
            printf(" %08x %08x %08x", fb(hj[i].x), fb(hj[i].y), fb(hj[i].z));
        for (int d = 0; d < dims; ++d) printf(" %08x", fb(hj[i].dx[d]));
        for (int d = 0; d < dims; ++d) printf(" %08x", fb(hj[i].dy[d]));
        printf(" = %08x\n", fb(hout[i]));
    }
}

static cudaTextureObject_t mktex(cudaResourceDesc &rd, int aniso, int notri = 1)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.maxAnisotropy = aniso;
    td.disableTrilinearOptimization = notri;
    td.maxMipmapLevelClamp = 100;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

// A mipmapped float array W (x H x D) with L levels (cube: 6 layers), texel = val(level, x, y, z).
static cudaMipmappedArray_t mkmip(int W, int H, int D, int L, unsigned flags, float (*val)(int, int, int, int))
{
    cudaMipmappedArray_t ma;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CK(cudaMallocMipmappedArray(&ma, &cd, make_cudaExtent(W, H, D), L, flags));
    for (int l = 0; l < L; ++l) {
        cudaArray_t lv;
        CK(cudaGetMipmappedArrayLevel(&lv, ma, l));
        int w = W >> l > 0 ? W >> l : 1, h = H ? (H >> l > 0 ? H >> l : 1) : 0;
        int d = flags & cudaArrayCubemap ? 6 : D ? (D >> l > 0 ? D >> l : 1) : 0;
        size_t cnt = (size_t)w * (h ? h : 1) * (d ? d : 1);
        float *buf = (float *)malloc(cnt * 4);
        for (int z = 0; z < (d ? d : 1); ++z)
            for (int y = 0; y < (h ? h : 1); ++y)
                for (int x = 0; x < w; ++x) buf[((size_t)z * (h ? h : 1) + y) * w + x] = val(l, x, y, z);
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(buf, w * 4, w, h ? h : 1);
        p.dstArray = lv;
        p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        free(buf);
    }
    return ma;
}
static float v_level(int l, int, int, int) { return (float)l; }
static float v_imp(int l, int x, int y, int) { return l == 0 && x == 32 && y == 32 ? 1.0f : 0.0f; }

static J jz() { J j; memset(&j, 0, sizeof j); return j; }
static float lgu(float lo, float hi) { return exp2f(lo + rnd01() * (hi - lo)); }
static float sgn() { return rnd01() < 0.5f ? -1.0f : 1.0f; }

// A. 2D levels of detail (256 x 256, 9 levels): gradients in texels / 256.
static void lod2d()
{
    const int W = 256;
    cudaMipmappedArray_t ma = mkmip(W, W, 0, 9, 0, v_level);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    int n = 0;
    auto put = [&](float ax, float ay, float bx, float by) {
        J q = jz();
        q.x = 0.3f; q.y = 0.6f;
        q.dx[0] = ax / W; q.dx[1] = ay / W; q.dy[0] = bx / W; q.dy[1] = by / W;
        hj[n++] = q;
    };
    // vec: one gradient (a, b): the length of a vector (longer a, shorter b = a k / 1024)
    const float as[] = {4.0f, 5.0f, 5.3f, 6.5f, 7.96875f};
    for (float a : as)
        for (int k = 0; k <= 1024; ++k) put(a, a * k / 1024, 0, 0);
    // vec: the same vector turned through 360 degrees in 4096 steps
    for (int k = 0; k < 4096; ++k) {
        double th = k * 2 * M_PI / 4096;
        put((float)(5.3 * cos(th)), (float)(5.3 * sin(th)), 0, 0);
    }
    // par: two parallel gradients (a, 0) and (b, 0): the diagonals' arithmetic in one dimension
    const float pa[] = {4.0f, 5.3f};
    for (float a : pa)
        for (int k = -1024; k <= 1024; ++k) put(a, 0, a * k / 1024, 0);
    // par2: (a, 0) and (b, c) on a grid
    for (int i = 0; i < 128; ++i)
        for (int k = 0; k < 128; ++k) put(4.0f, 0, -8 + 16.0f * i / 128 + 1.0f / 512, -8 + 16.0f * k / 128 + 1.0f / 512);
    // rand: random pairs, scales 2^0 .. 2^7 texels
    lcg_state = 11;
    while (n < MAXJ) {
        float s = lgu(0, 7);
        put((rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s);
    }
    const int an[] = {0, 2, 4, 16};
    for (int a : an) {
        cudaTextureObject_t t = mktex(rd, a);
        run(k2, t, n);
        char sec[32];
        snprintf(sec, sizeof sec, "g2 a%d", a);
        pr_grad(sec, n, 2);
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(ma));
}

// B. 1D levels of detail (a 1D mipmapped array of 256, 9 levels).
static void lod1d()
{
    const int W = 256;
    cudaMipmappedArray_t ma = mkmip(W, 0, 0, 9, 0, v_level);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    int n = 0;
    lcg_state = 13;
    for (int k = 0; k < 4096; ++k) {
        J q = jz();
        q.x = 0.3f;
        float s = lgu(0, 7) / W;
        q.dx[0] = sgn() * rnd01() * s; q.dy[0] = sgn() * rnd01() * s;
        hj[n++] = q;
    }
    for (int a : {0, 16}) {
        cudaTextureObject_t t = mktex(rd, a);
        run(k1, t, n);
        char sec[32];
        snprintf(sec, sizeof sec, "g1 a%d", a);
        pr_grad(sec, n, 1);
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(ma));
}

// C. 3D levels of detail (64^3, 7 levels).
static void lod3d()
{
    const int W = 64;
    cudaMipmappedArray_t ma = mkmip(W, W, W, 7, 0, v_level);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    int n = 0;
    auto put = [&](float ax, float ay, float az, float bx, float by, float bz) {
        J q = jz();
        q.x = 0.3f; q.y = 0.6f; q.z = 0.45f;
        q.dx[0] = ax / W; q.dx[1] = ay / W; q.dx[2] = az / W;
        q.dy[0] = bx / W; q.dy[1] = by / W; q.dy[2] = bz / W;
        hj[n++] = q;
    };
    for (int i = 0; i < 64; ++i) // one vector (4, b, c)
        for (int k = 0; k < 64; ++k) put(4.0f, 4.0f * i / 64, 4.0f * k / 64, 0, 0, 0);
    for (int k = -512; k <= 512; ++k) put(4.0f, 0, 0, 4.0f * k / 512, 0, 0); // parallel pairs
    for (int k = -512; k <= 512; ++k) put(0, 0, 4.0f, 0, 0, 4.0f * k / 512);
    for (int i = 0; i < 64; ++i) // orthogonal pairs (4, 0, 0), (0, b, c)
        for (int k = 0; k < 64; ++k) put(4.0f, 0, 0, 0, 8.0f * i / 64, 8.0f * k / 64);
    lcg_state = 17;
    while (n < 32768) {
        float s = lgu(0, 5);
        put((rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s,
            (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s);
    }
    for (int a : {0, 4, 16}) {
        cudaTextureObject_t t = mktex(rd, a);
        run(k3, t, n);
        char sec[32];
        snprintf(sec, sizeof sec, "g3 a%d", a);
        pr_grad(sec, n, 3);
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(ma));
}

// D. Cube maps (64 x 64 faces, 7 levels).
static void lodcube()
{
    const int W = 64;
    cudaMipmappedArray_t ma = mkmip(W, W, 6, 7, cudaArrayCubemap, v_level);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    int n = 0;
    auto put = [&](float x, float y, float z, float ax, float ay, float az, float bx, float by, float bz) {
        J q = jz();
        q.x = x; q.y = y; q.z = z;
        q.dx[0] = ax; q.dx[1] = ay; q.dx[2] = az;
        q.dy[0] = bx; q.dy[1] = by; q.dy[2] = bz;
        hj[n++] = q;
    };
    // face +x, direction (1, 0.1, 0.2) scaled by m: one gradient along each axis
    for (float m : {1.0f, 2.0f, 0.5f, 3.0f})
        for (int ax = 0; ax < 3; ++ax)
            for (int k = 0; k < 256; ++k) {
                float g[3] = {0, 0, 0};
                g[ax] = exp2f(k / 32.0f - 2) / W;
                put(m, 0.1f * m, 0.2f * m, g[0], g[1], g[2], 0, 0, 0);
            }
    // every face: direction d with |major| = 1, gradient (along each axis) 4 / 64
    for (int f = 0; f < 6; ++f)
        for (int ax = 0; ax < 3; ++ax)
            for (int s = -1; s <= 1; s += 2) {
                float d[3] = {0.3f, -0.2f, 0.1f};
                d[f / 2] = f & 1 ? -1.0f : 1.0f;
                float g[3] = {0, 0, 0};
                g[ax] = s * 4.0f / W;
                put(d[0], d[1], d[2], g[0], g[1], g[2], 0, 0, 0);
            }
    lcg_state = 19;
    while (n < 16384) {
        float d[3] = {rnd01() * 2 - 1, rnd01() * 2 - 1, rnd01() * 2 - 1};
        float m = lgu(-1, 1), s = lgu(0, 5) / W;
        put(d[0] * m, d[1] * m, d[2] * m, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s,
            (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s);
    }
    for (int a : {0, 16}) {
        cudaTextureObject_t t = mktex(rd, a);
        run(kc, t, n);
        char sec[32];
        snprintf(sec, sizeof sec, "gc a%d", a);
        pr_grad(sec, n, 3, false, true);
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(ma));
}

// E. Anisotropic taps: impulse responses. Level 0 (64 x 64, 7 levels) holds 1.0 at (32, 32).
static void taps()
{
    const int W = 64;
    cudaMipmappedArray_t ma = mkmip(W, W, 0, 7, 0, v_imp);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    struct Cfg { float ang, maj, min; int aniso; } cf[] = {
        // along x: 1D sweeps at 1/32 texel
        {0, 1.25f, 0.9f, 16}, {0, 1.5f, 0.9f, 16}, {0, 1.75f, 0.9f, 16}, {0, 2.25f, 0.9f, 16}, {0, 2.5f, 0.9f, 16},
        {0, 2.75f, 0.9f, 16}, {0, 3.3f, 0.9f, 16}, {0, 4.5f, 0.9f, 16}, {0, 5.5f, 0.9f, 16}, {0, 7.2f, 0.9f, 16},
        {0, 9.5f, 0.9f, 16}, {0, 13.0f, 0.9f, 16}, {0, 1.5f, 1.0f, 16}, {0, 2.5f, 1.0f, 16}, {0, 3.3f, 1.0f, 16},
        {0, 3.0f, 1.25f, 16}, {0, 5.0f, 2.0f, 16}, {0, 2.0f, 0.8f, 16}, {0, 6.0f, 0.9f, 4}, {0, 3.0f, 0.9f, 2},
        {0, 2.0f, 0.9f, 16}, {0, 4.0f, 0.9f, 16}, {90, 2.5f, 0.9f, 16}, {0, 16.0f, 0.9f, 16},
        // oblique: 2D sweeps at 1/8 texel
        {10, 3, 0.9f, 16}, {30, 3, 0.9f, 16}, {45, 3, 0.9f, 16}, {60, 3, 0.9f, 16}, {80, 3, 0.9f, 16},
        {10, 2.5f, 0.9f, 16}, {30, 2.5f, 0.9f, 16}, {45, 2.5f, 0.9f, 16}, {30, 4, 0.9f, 16}, {45, 4, 0.9f, 16},
        {30, 6, 0.9f, 16}, {45, 6, 0.9f, 16}, {20, 2, 0.9f, 16}, {45, 2, 0.9f, 16}, {135, 4, 0.9f, 16},
        {45, 4, 0.5f, 16},
    };
    const int ncf = sizeof cf / sizeof cf[0];
    for (int c = 0; c < ncf; ++c) {
        cudaTextureObject_t t = mktex(rd, cf[c].aniso);
        double th = cf[c].ang * M_PI / 180;
        float ax = (float)(cf[c].maj * cos(th)) / W, ay = (float)(cf[c].maj * sin(th)) / W;
        float bx = (float)(-cf[c].min * sin(th)) / W, by = (float)(cf[c].min * cos(th)) / W;
        int n = 0;
        if (cf[c].ang == 0) {
            for (int s = -16 * 32; s <= 16 * 32; ++s) {
                J q = jz();
                q.x = (32.5f + s / 32.0f) / W; q.y = 32.5f / W;
                q.dx[0] = ax; q.dx[1] = ay; q.dy[0] = bx; q.dy[1] = by;
                hj[n++] = q;
            }
        } else {
            int r = (int)(cf[c].maj / 2 + 2.5f) * 8;
            for (int sy = -r; sy <= r; ++sy)
                for (int sx = -r; sx <= r; ++sx) {
                    J q = jz();
                    q.x = (32.5f + sx / 8.0f) / W; q.y = (32.5f + sy / 8.0f) / W;
                    q.dx[0] = ax; q.dx[1] = ay; q.dy[0] = bx; q.dy[1] = by;
                    hj[n++] = q;
                }
        }
        run(k2, t, n);
        printf("taps cfg %d: ang %g maj %g min %g aniso %d: %08x %08x %08x %08x\n", c, cf[c].ang, cf[c].maj, cf[c].min,
               cf[c].aniso, fb(ax), fb(ay), fb(bx), fb(by));
        char sec[32];
        snprintf(sec, sizeof sec, "t%d", c);
        for (int i = 0; i < n; ++i)
            if (hout[i] != 0) printf("%s: %08x %08x = %08x\n", sec, fb(hj[i].x), fb(hj[i].y), fb(hout[i]));
        CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(ma));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOFBF, 1 << 20);
    CK(cudaMalloc(&dj, MAXJ * sizeof(J)));
    CK(cudaMalloc(&dout, MAXJ * sizeof(float)));
    hj = (J *)malloc(MAXJ * sizeof(J));
    hout = (float *)malloc(MAXJ * sizeof(float));
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || !strcmp(only, "g2")) lod2d();
    if (!*only || !strcmp(only, "g1")) lod1d();
    if (!*only || !strcmp(only, "g3")) lod3d();
    if (!*only || !strcmp(only, "gc")) lodcube();
    if (!*only || !strcmp(only, "taps")) taps();
    printf("done\n");
    return 0;
}
