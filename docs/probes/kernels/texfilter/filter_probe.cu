// How the H100's texture unit filters and decodes (issue 23, part texfilter): binary records the
// fits in fit_*.py read back. Built and run by run.sh on the GPU machine:
//   nvcc -arch=sm_90 -o filter_probe filter_probe.cu -lcuda && ./filter_probe $OUT
// Files: bc.bin (BC4/BC3-alpha tables over every endpoint pair, random blocks of every BC
// format), filt1.bin / filt2.bin / filt3.bin (linear filtering of texel pairs at 16 weights,
// random bilinear footprints, 3D weights from one-hot texels), probe.txt (creation codes,
// planar formats). A record is: char name[32], uint32 count, uint32 element bytes, the data.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <string>
#include <vector>

static FILE *txt;
#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(txt, "ERROR %s at %d: %s\n", #x, __LINE__, cudaGetErrorName(e_));                          \
            fflush(txt);                                                                                       \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

static void rec(FILE *f, const char *name, const void *p, uint32_t n, uint32_t esz)
{
    char nm[32] = {0};
    strncpy(nm, name, 31);
    fwrite(nm, 32, 1, f);
    fwrite(&n, 4, 1, f);
    fwrite(&esz, 4, 1, f);
    fwrite(p, esz, n, f);
}

static uint32_t st = 4242;
static uint32_t rnd()
{
    st = st * 1664525u + 1013904223u;
    return st;
}
static float rnd01() { return (rnd() >> 8) * (1.0f / 16777216.0f); }

struct C4 {
    float x, y, z, w;
};

__global__ void k2d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, c[i].x, c[i].y);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void k1d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex1D<float4>(t, c[i].x);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void k3d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex3D<float4>(t, c[i].x, c[i].y, c[i].z);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
// every texel of a W x H texture at its centre, point or not
__global__ void kall(cudaTextureObject_t t, uint4 *o, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
        o[(size_t)y * w + x] =
            make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void kallu(cudaTextureObject_t t, uint4 *o, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        o[(size_t)y * w + x] = tex2D<uint4>(t, x + 0.5f, y + 0.5f);
}

static C4 *dc;
static uint4 *dout;
static const size_t MAXN = 1 << 21;

static std::vector<uint4> run(void (*k)(cudaTextureObject_t, const C4 *, uint4 *, int), cudaTextureObject_t t,
                              const std::vector<C4> &c)
{
    std::vector<uint4> o(c.size());
    for (size_t off = 0; off < c.size(); off += MAXN) {
        size_t n = c.size() - off < MAXN ? c.size() - off : MAXN;
        CK(cudaMemcpy(dc, c.data() + off, n * sizeof(C4), cudaMemcpyHostToDevice));
        k<<<(unsigned)((n + 255) / 256), 256>>>(t, dc, dout, (int)n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(o.data() + off, dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
    }
    return o;
}

static std::vector<uint4> run_all(cudaTextureObject_t t, int w, int h, bool u = false)
{
    std::vector<uint4> o((size_t)w * h);
    dim3 g((w + 255) / 256, h);
    if (u)
        kallu<<<g, 256>>>(t, dout, w, h);
    else
        kall<<<g, 256>>>(t, dout, w, h);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o.data(), dout, o.size() * sizeof(uint4), cudaMemcpyDeviceToHost));
    return o;
}

static cudaError_t mktex(cudaTextureObject_t *t, cudaArray_t a, cudaTextureFilterMode fm, cudaTextureReadMode rm,
                         int srgb = 0, cudaTextureAddressMode am = cudaAddressModeClamp)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = fm;
    td.readMode = rm;
    td.sRGB = srgb;
    return cudaCreateTextureObject(t, &rd, &td, nullptr);
}

// ---- block-compressed ----
static void bc_table(FILE *f, const char *name, cudaChannelFormatKind kind, int bytes, int alpha_at, int chan)
{
    // 65536 blocks (every a0, a1), 256 x 256 blocks; texel k of a block has index k % 8
    const int BW = 256, BH = 256, W = BW * 4, H = BH * 4;
    std::vector<unsigned char> blocks((size_t)BW * BH * bytes, 0);
    uint64_t idx = 0;
    for (int k = 0; k < 16; ++k)
        idx |= (uint64_t)(k % 8) << (3 * k);
    for (int b = 0; b < BW * BH; ++b) {
        unsigned char *p = &blocks[(size_t)b * bytes + alpha_at];
        p[0] = (unsigned char)(b & 255);
        p[1] = (unsigned char)(b >> 8);
        for (int q = 0; q < 6; ++q)
            p[2 + q] = (unsigned char)(idx >> (8 * q));
    }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, bytes == 8 ? 0 : 8, bytes == 8 ? 0 : 8, bytes == 8 ? 0 : 8, kind);
    if (kind == cudaChannelFormatKindUnsignedBlockCompressed4 || kind == cudaChannelFormatKindSignedBlockCompressed4)
        cd = cudaCreateChannelDesc(8, 0, 0, 0, kind);
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, blocks.data(), BW * bytes, BW * bytes, BH, cudaMemcpyHostToDevice));
    cudaTextureObject_t t;
    cudaError_t e = mktex(&t, a, cudaFilterModePoint, cudaReadModeNormalizedFloat);
    fprintf(txt, "%s table: create %s\n", name, cudaGetErrorName(e));
    if (e != cudaSuccess)
        return;
    std::vector<uint4> o = run_all(t, W, H);
    std::vector<uint32_t> tab((size_t)BW * BH * 8);
    for (int b = 0; b < BW * BH; ++b) {
        int bx = b % BW, by = b / BW;
        for (int k = 0; k < 8; ++k) {
            int x = bx * 4 + k % 4, y = by * 4 + k / 4;
            const uint4 &v = o[(size_t)y * W + x];
            tab[(size_t)b * 8 + k] = chan == 0 ? v.x : v.w;
        }
    }
    rec(f, name, tab.data(), (uint32_t)tab.size(), 4);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

static void bc_random(FILE *f, const char *name, cudaChannelFormatKind kind, int bytes, int kindsel)
{
    const int BW = 32, BH = 64, W = BW * 4, H = BH * 4, N = BW * BH;
    std::vector<unsigned char> blocks((size_t)N * bytes);
    for (auto &b : blocks)
        b = (unsigned char)(rnd() >> 13);
    for (int b = 0; b < N; ++b) {
        unsigned char *p = &blocks[(size_t)b * bytes];
        if (kindsel == 7) { // BC7: every mode, and a few reserved (byte 0 == 0)
            int m = b % 9;
            if (m == 8)
                p[0] = 0;
            else
                p[0] = (unsigned char)((p[0] & ~((2u << m) - 1)) | (1u << m));
        } else if (kindsel == 6) { // BC6H: the 14 modes and the reserved ones, spread
            static const unsigned char modes[] = {0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31};
            unsigned m = modes[b % 18];
            unsigned mask = (m & 2) ? 31u : 3u;
            p[0] = (unsigned char)((p[0] & ~mask) | m);
        } else if (kindsel == 1 && b % 3 == 0) { // BC1 three-colour mode
            unsigned c0 = p[0] | p[1] << 8, c1 = p[2] | p[3] << 8;
            if (c0 > c1) {
                p[0] = (unsigned char)c1; p[1] = (unsigned char)(c1 >> 8);
                p[2] = (unsigned char)c0; p[3] = (unsigned char)(c0 >> 8);
            }
        } else if (kindsel == 2 && b % 3 == 0) { // BC2/3: colour with c0 <= c1
            unsigned char *q = p + 8;
            unsigned c0 = q[0] | q[1] << 8, c1 = q[2] | q[3] << 8;
            if (c0 > c1) {
                q[0] = (unsigned char)c1; q[1] = (unsigned char)(c1 >> 8);
                q[2] = (unsigned char)c0; q[3] = (unsigned char)(c0 >> 8);
            }
        }
    }
    cudaChannelFormatDesc cd;
    switch (kindsel) {
    case 4: cd = cudaCreateChannelDesc(8, 0, 0, 0, kind); break;
    case 5: cd = cudaCreateChannelDesc(8, 8, 0, 0, kind); break;
    case 6: cd = cudaCreateChannelDesc(16, 16, 16, 0, kind); break;
    default: cd = cudaCreateChannelDesc(8, 8, 8, 8, kind); break;
    }
    cudaArray_t a;
    cudaError_t e = cudaMallocArray(&a, &cd, W, H);
    fprintf(txt, "%s random: array %s\n", name, cudaGetErrorName(e));
    if (e != cudaSuccess)
        return;
    CK(cudaMemcpy2DToArray(a, 0, 0, blocks.data(), BW * bytes, BW * bytes, BH, cudaMemcpyHostToDevice));
    for (int rm = 0; rm < 2; ++rm)
        for (int srgb = 0; srgb < 2; ++srgb) {
            cudaTextureObject_t t;
            e = mktex(&t, a, cudaFilterModePoint, rm ? cudaReadModeNormalizedFloat : cudaReadModeElementType, srgb);
            fprintf(txt, "%s create readMode %d sRGB %d: %s\n", name, rm, srgb, cudaGetErrorName(e));
            if (e != cudaSuccess) {
                (void)cudaGetLastError();
                continue;
            }
            std::vector<uint4> o = run_all(t, W, H);
            char nm[40];
            snprintf(nm, sizeof nm, "%s rm%d s%d", name, rm, srgb);
            // per block: its bytes then 16 texels x 4 channels
            std::vector<uint32_t> out((size_t)N * (4 + 64));
            for (int b = 0; b < N; ++b) {
                uint32_t *r = &out[(size_t)b * 68];
                memset(r, 0, 16);
                memcpy(r, &blocks[(size_t)b * bytes], bytes);
                int bx = b % BW, by = b / BW;
                for (int k = 0; k < 16; ++k) {
                    const uint4 &v = o[(size_t)(by * 4 + k / 4) * W + bx * 4 + k % 4];
                    r[4 + 4 * k] = v.x; r[5 + 4 * k] = v.y; r[6 + 4 * k] = v.z; r[7 + 4 * k] = v.w;
                }
            }
            rec(f, nm, out.data(), (uint32_t)out.size(), 4);
            // a linear-filtered pass at random points (BC formats through the filter)
            std::vector<C4> c(8192);
            for (auto &q : c)
                q = C4{1.0f + (float)(rnd() % (W - 2)) + (rnd() & 255) / 256.0f,
                       1.0f + (float)(rnd() % (H - 2)) + (rnd() & 255) / 256.0f, 0, 0};
            cudaDestroyTextureObject(t);
            if (mktex(&t, a, cudaFilterModeLinear, rm ? cudaReadModeNormalizedFloat : cudaReadModeElementType, srgb) ==
                cudaSuccess) {
                std::vector<uint4> ol = run(k2d, t, c);
                std::vector<uint32_t> lo(c.size() * 6);
                for (size_t i = 0; i < c.size(); ++i) {
                    memcpy(&lo[6 * i], &c[i].x, 4);
                    memcpy(&lo[6 * i + 1], &c[i].y, 4);
                    lo[6 * i + 2] = ol[i].x; lo[6 * i + 3] = ol[i].y; lo[6 * i + 4] = ol[i].z; lo[6 * i + 5] = ol[i].w;
                }
                snprintf(nm, sizeof nm, "%s rm%d s%d lin", name, rm, srgb);
                rec(f, nm, lo.data(), (uint32_t)lo.size(), 4);
                cudaDestroyTextureObject(t);
            } else {
                (void)cudaGetLastError();
            }
        }
    cudaFreeArray(a);
}

// ---- linear filtering ----
static const int WEIGHTS[16] = {1, 2, 3, 7, 16, 31, 64, 85, 127, 128, 129, 171, 200, 230, 254, 255};

// A 512 x 256 texture of pairs (row r, pair p) = texels (2p, 2p + 1) of row r; `vals` holds its
// 131072 texels (raw element bits). Samples every pair at the 16 weights with y at the row's
// centre (x only), then 65536 random bilinear footprints.
static void pairs(FILE *f, const char *name, cudaChannelFormatDesc cd, int esize, const std::vector<uint32_t> &vals,
                  cudaTextureReadMode rm, int srgb)
{
    const int W = 512, H = 256;
    std::vector<unsigned char> raw((size_t)W * H * esize);
    for (size_t i = 0; i < vals.size(); ++i)
        memcpy(&raw[i * esize], &vals[i], esize);
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), W * esize, W * esize, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t t;
    cudaError_t e = mktex(&t, a, cudaFilterModeLinear, rm, srgb);
    fprintf(txt, "%s pairs: create %s\n", name, cudaGetErrorName(e));
    if (e != cudaSuccess)
        return;
    std::vector<C4> c((size_t)W / 2 * H * 16);
    size_t n = 0;
    for (int r = 0; r < H; ++r)
        for (int p = 0; p < W / 2; ++p)
            for (int k = 0; k < 16; ++k)
                c[n++] = C4{2.0f * p + 0.5f + WEIGHTS[k] / 256.0f, r + 0.5f, 0, 0};
    std::vector<uint4> o = run(k2d, t, c);
    std::vector<uint32_t> r0(o.size());
    for (size_t i = 0; i < o.size(); ++i)
        r0[i] = o[i].x;
    char nm[40];
    rec(f, (std::string(name) + " texels").c_str(), vals.data(), (uint32_t)vals.size(), 4);
    snprintf(nm, sizeof nm, "%s pairs", name);
    rec(f, nm, r0.data(), (uint32_t)r0.size(), 4);
    // random bilinear footprints: x = i + 0.5 + wx / 256, y likewise (never on the last row/column)
    std::vector<C4> b(65536);
    for (auto &q : b)
        q = C4{(float)(rnd() % (W - 1)) + 0.5f + (rnd() & 255) / 256.0f, (float)(rnd() % (H - 1)) + 0.5f + (rnd() & 255) / 256.0f, 0, 0};
    o = run(k2d, t, b);
    std::vector<uint32_t> bo(b.size() * 3);
    for (size_t i = 0; i < b.size(); ++i) {
        memcpy(&bo[3 * i], &b[i].x, 4);
        memcpy(&bo[3 * i + 1], &b[i].y, 4);
        bo[3 * i + 2] = o[i].x;
    }
    snprintf(nm, sizeof nm, "%s bilinear", name);
    rec(f, nm, bo.data(), (uint32_t)bo.size(), 4);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // 1D: the first 8192 texels as a 1D texture, 4096 pairs x 16 weights
    CK(cudaMallocArray(&a, &cd, 8192, 0));
    CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), 8192 * esize, 8192 * esize, 1, cudaMemcpyHostToDevice));
    CK(mktex(&t, a, cudaFilterModeLinear, rm, srgb));
    c.resize(4096 * 16);
    n = 0;
    for (int p = 0; p < 4096; ++p)
        for (int k = 0; k < 16; ++k)
            c[n++] = C4{2.0f * p + 0.5f + WEIGHTS[k] / 256.0f, 0, 0, 0};
    o = run(k1d, t, c);
    r0.resize(o.size());
    for (size_t i = 0; i < o.size(); ++i)
        r0[i] = o[i].x;
    snprintf(nm, sizeof nm, "%s pairs1d", name);
    rec(f, nm, r0.data(), (uint32_t)r0.size(), 4);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

static uint32_t rfloat()
{
    uint32_t r = rnd() >> 8;
    float v;
    switch (r & 3) {
    case 0: v = (rnd01() - 0.5f) * 1000.0f; break;
    case 1: v = rnd01(); break;
    case 2: v = ldexpf(rnd01(), (int)(rnd() % 60) - 30) * ((rnd() & 1) ? 1 : -1); break;
    default: v = (float)(rnd() % 256); break;
    }
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static void weights3d(FILE *f)
{
    // two 2x2x2 float4 textures with one-hot texels: texel k (x + 2y + 4z) has 1 in channel k % 4 of
    // texture k / 4
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    std::vector<C4> c(65536);
    for (auto &q : c)
        q = C4{0.5f + (rnd() & 255) / 256.0f, 0.5f + (rnd() & 255) / 256.0f, 0.5f + (rnd() & 255) / 256.0f, 0};
    std::vector<uint32_t> out(c.size() * 11);
    for (int half = 0; half < 2; ++half) {
        float tx[8][4] = {};
        for (int k = 0; k < 8; ++k)
            if (k / 4 == half)
                tx[k][k % 4] = 1.0f;
        cudaArray_t a;
        CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, 2)));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(tx, 2 * 16, 2, 2);
        p.dstArray = a;
        p.extent = make_cudaExtent(2, 2, 2);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        cudaTextureObject_t t;
        CK(mktex(&t, a, cudaFilterModeLinear, cudaReadModeElementType));
        std::vector<uint4> o = run(k3d, t, c);
        for (size_t i = 0; i < c.size(); ++i) {
            memcpy(&out[11 * i], &c[i].x, 12);
            memcpy(&out[11 * i + 3 + 4 * half], &o[i], 16);
        }
        cudaDestroyTextureObject(t);
        cudaFreeArray(a);
    }
    rec(f, "w3d", out.data(), (uint32_t)out.size(), 4);
    // random float texels 16^3, random samples
    std::vector<uint32_t> tx(4096);
    for (auto &v : tx)
        v = rfloat();
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &c1, make_cudaExtent(16, 16, 16)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(tx.data(), 16 * 4, 16, 16);
    p.dstArray = a;
    p.extent = make_cudaExtent(16, 16, 16);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaTextureObject_t t;
    CK(mktex(&t, a, cudaFilterModeLinear, cudaReadModeElementType));
    std::vector<C4> q(65536);
    for (auto &v : q)
        v = C4{0.5f + (rnd() % 15) + (rnd() & 255) / 256.0f, 0.5f + (rnd() % 15) + (rnd() & 255) / 256.0f,
               0.5f + (rnd() % 15) + (rnd() & 255) / 256.0f, 0};
    std::vector<uint4> o = run(k3d, t, q);
    std::vector<uint32_t> r(q.size() * 4);
    for (size_t i = 0; i < q.size(); ++i) {
        memcpy(&r[4 * i], &q[i].x, 12);
        r[4 * i + 3] = o[i].x;
    }
    rec(f, "comb3d texels", tx.data(), (uint32_t)tx.size(), 4);
    rec(f, "comb3d", r.data(), (uint32_t)r.size(), 4);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

// ---- planar (video) formats, through the driver API ----
static const char *cu(CUresult r)
{
    const char *s = "?";
    cuGetErrorName(r, &s);
    return s;
}

static void planar()
{
    struct {
        const char *name;
        CUarray_format f;
        unsigned ch;
    } fm[] = {{"NV12", CU_AD_FORMAT_NV12, 3},   {"P010", CU_AD_FORMAT_P010, 3},   {"P016", CU_AD_FORMAT_P016, 3},
              {"NV16", CU_AD_FORMAT_NV16, 3},   {"P210", CU_AD_FORMAT_P210, 3},   {"P216", CU_AD_FORMAT_P216, 3},
              {"YUY2", CU_AD_FORMAT_YUY2, 4},   {"Y210", CU_AD_FORMAT_Y210, 2},   {"Y216", CU_AD_FORMAT_Y216, 2},
              {"AYUV", CU_AD_FORMAT_AYUV, 4},   {"Y410", CU_AD_FORMAT_Y410, 1},   {"Y416", CU_AD_FORMAT_Y416, 4},
              {"Y444P8", CU_AD_FORMAT_Y444_PLANAR8, 3}, {"Y444P10", CU_AD_FORMAT_Y444_PLANAR10, 3},
              {"YUV444SP8", CU_AD_FORMAT_YUV444_8bit_SemiPlanar, 3},
              {"YUV444SP16", CU_AD_FORMAT_YUV444_16bit_SemiPlanar, 3}};
    const unsigned W = 8, H = 4;
    for (auto &F : fm) {
        CUDA_ARRAY3D_DESCRIPTOR d = {};
        d.Width = W;
        d.Height = H;
        d.Format = F.f;
        d.NumChannels = F.ch;
        d.Flags = 0x100; // CUDA_ARRAY3D_VIDEO_ENCODE_DECODE
        CUarray a;
        CUresult r = cuArray3DCreate(&a, &d);
        fprintf(txt, "planar %s: create %s\n", F.name, cu(r));
        if (r != CUDA_SUCCESS)
            continue;
        // fill: planes (or the whole array) with bytes 0x11 * k + i pattern
        CUarray planes[3];
        int np = 0;
        for (int p = 0; p < 3; ++p) {
            if (cuArrayGetPlane(&planes[p], a, p) != CUDA_SUCCESS)
                break;
            np++;
        }
        unsigned char buf[4096];
        for (int i = 0; i < 4096; ++i)
            buf[i] = (unsigned char)(i * 37 + 11);
        std::vector<CUarray> targets;
        if (np)
            targets.assign(planes, planes + np);
        else
            targets.push_back(a);
        for (CUarray t : targets) {
            CUDA_ARRAY3D_DESCRIPTOR pd;
            cuArray3DGetDescriptor(&pd, t);
            unsigned es = pd.NumChannels * (pd.Format == CU_AD_FORMAT_UNSIGNED_INT8 ? 1 : pd.Format == CU_AD_FORMAT_UNSIGNED_INT16 ? 2 : 4);
            if (t == a) // packed: the element size the arrays helper measured
                es = (F.f == CU_AD_FORMAT_Y410 || F.f == CU_AD_FORMAT_YUY2 || F.f == CU_AD_FORMAT_AYUV) ? 4 : (F.f == CU_AD_FORMAT_Y416 ? 8 : 4);
            CUDA_MEMCPY2D m = {};
            m.srcMemoryType = CU_MEMORYTYPE_HOST;
            m.srcHost = buf;
            m.srcPitch = pd.Width * es;
            m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
            m.dstArray = t;
            m.WidthInBytes = pd.Width * es;
            m.Height = pd.Height ? pd.Height : 1;
            fprintf(txt, "planar %s: plane %dx%d fmt 0x%x ch %u copy %s\n", F.name, (int)pd.Width, (int)pd.Height,
                    pd.Format, pd.NumChannels, cu(cuMemcpy2D(&m)));
        }
        // textures: over the array, and over each plane, point and linear, element and normalized
        for (int which = -1; which < np; ++which) {
            for (int mode = 0; mode < 4; ++mode) {
                CUDA_RESOURCE_DESC rd = {};
                rd.resType = CU_RESOURCE_TYPE_ARRAY;
                rd.res.array.hArray = which < 0 ? a : planes[which];
                CUDA_TEXTURE_DESC td = {};
                td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
                td.filterMode = (mode & 1) ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
                td.flags = (mode & 2) ? CU_TRSF_READ_AS_INTEGER : 0;
                CUtexObject t;
                r = cuTexObjectCreate(&t, &rd, &td, nullptr);
                fprintf(txt, "planar %s tex %s%d %s %s: %s", F.name, which < 0 ? "array" : "plane", which < 0 ? 0 : which,
                        (mode & 1) ? "linear" : "point", (mode & 2) ? "int" : "norm", cu(r));
                if (r == CUDA_SUCCESS) {
                    std::vector<C4> c;
                    for (int i = 0; i < 6; ++i)
                        c.push_back(C4{i * 1.25f + 0.3f, (i % 3) * 1.1f + 0.5f, 0, 0});
                    std::vector<uint4> o;
                    if (mode & 2) {
                        // integer read: the kernel reads uint4
                        uint4 *dd = dout;
                        (void)dd;
                        std::vector<uint4> all = run_all((cudaTextureObject_t)t, 4, 2, true);
                        o = all;
                    } else {
                        o = run(k2d, (cudaTextureObject_t)t, c);
                    }
                    cudaError_t e = cudaGetLastError();
                    fprintf(txt, " run %s:", cudaGetErrorName(e));
                    for (auto &v : o)
                        fprintf(txt, " %08x,%08x,%08x,%08x", v.x, v.y, v.z, v.w);
                    cuTexObjectDestroy(t);
                }
                fprintf(txt, "\n");
            }
        }
        cuArrayDestroy(a);
    }
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    char path[512];
    snprintf(path, sizeof path, "%s/probe.txt", out);
    txt = fopen(path, "w");
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    fprintf(txt, "device: %s sm_%d%d\n", prop.name, prop.major, prop.minor);
    CK(cudaMalloc(&dc, MAXN * sizeof(C4)));
    CK(cudaMalloc(&dout, (size_t)1024 * 1024 * sizeof(uint4)));
    snprintf(path, sizeof path, "%s/bc.bin", out);
    FILE *f = fopen(path, "wb");
    bc_table(f, "bc4u", cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0);
    bc_table(f, "bc4s", cudaChannelFormatKindSignedBlockCompressed4, 8, 0, 0);
    bc_table(f, "bc3a", cudaChannelFormatKindUnsignedBlockCompressed3, 16, 0, 3);
    fflush(txt);
    bc_random(f, "bc1", cudaChannelFormatKindUnsignedBlockCompressed1, 8, 1);
    bc_random(f, "bc1srgb", cudaChannelFormatKindUnsignedBlockCompressed1SRGB, 8, 1);
    bc_random(f, "bc2", cudaChannelFormatKindUnsignedBlockCompressed2, 16, 2);
    bc_random(f, "bc2srgb", cudaChannelFormatKindUnsignedBlockCompressed2SRGB, 16, 2);
    bc_random(f, "bc3", cudaChannelFormatKindUnsignedBlockCompressed3, 16, 2);
    bc_random(f, "bc3srgb", cudaChannelFormatKindUnsignedBlockCompressed3SRGB, 16, 2);
    bc_random(f, "bc4u", cudaChannelFormatKindUnsignedBlockCompressed4, 8, 4);
    bc_random(f, "bc4s", cudaChannelFormatKindSignedBlockCompressed4, 8, 4);
    bc_random(f, "bc5u", cudaChannelFormatKindUnsignedBlockCompressed5, 16, 5);
    bc_random(f, "bc5s", cudaChannelFormatKindSignedBlockCompressed5, 16, 5);
    bc_random(f, "bc6u", cudaChannelFormatKindUnsignedBlockCompressed6H, 16, 6);
    bc_random(f, "bc6s", cudaChannelFormatKindSignedBlockCompressed6H, 16, 6);
    bc_random(f, "bc7", cudaChannelFormatKindUnsignedBlockCompressed7, 16, 7);
    bc_random(f, "bc7srgb", cudaChannelFormatKindUnsignedBlockCompressed7SRGB, 16, 7);
    fclose(f);
    fflush(txt);

    std::vector<uint32_t> v(512 * 256);
    snprintf(path, sizeof path, "%s/filt1.bin", out);
    f = fopen(path, "wb");
    // every pair of 8-bit values: row a, pair b = (a, b)
    for (int r = 0; r < 256; ++r)
        for (int p = 0; p < 256; ++p) {
            v[r * 512 + 2 * p] = (uint32_t)r;
            v[r * 512 + 2 * p + 1] = (uint32_t)p;
        }
    pairs(f, "unorm8", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), 1, v, cudaReadModeNormalizedFloat, 0);
    pairs(f, "snorm8", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned), 1, v, cudaReadModeNormalizedFloat, 0);
    pairs(f, "srgb8", cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), 1, v, cudaReadModeNormalizedFloat, 1);
    fclose(f);
    fflush(txt);
    snprintf(path, sizeof path, "%s/filt2.bin", out);
    f = fopen(path, "wb");
    for (auto &x : v)
        x = rnd() >> 16;
    pairs(f, "unorm16", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned), 2, v, cudaReadModeNormalizedFloat, 0);
    for (auto &x : v)
        x = rnd() >> 16;
    pairs(f, "snorm16", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned), 2, v, cudaReadModeNormalizedFloat, 0);
    for (auto &x : v) {
        do
            x = rnd() >> 16;
        while ((x & 0x7c00) == 0x7c00 && (rnd() & 7)); // a few infinities and NaNs
    }
    pairs(f, "half", cudaCreateChannelDescHalf(), 2, v, cudaReadModeElementType, 0);
    fclose(f);
    fflush(txt);
    snprintf(path, sizeof path, "%s/filt3.bin", out);
    f = fopen(path, "wb");
    for (auto &x : v)
        x = rfloat();
    pairs(f, "float", cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat), 4, v, cudaReadModeElementType, 0);
    weights3d(f);
    fclose(f);
    fflush(txt);
    planar(); // last: a fault there would end the context
    fprintf(txt, "done\n");
    fclose(txt);
    return 0;
}
