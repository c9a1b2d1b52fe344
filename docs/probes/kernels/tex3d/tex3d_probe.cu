// Issue 23, part tex3d: what is left of texture sampling that extmem does not yet reproduce bit
// for bit. Built and run on the GPU machine by run.sh:
//   nvcc -arch=sm_90 -o tex3d_probe tex3d_probe.cu && ./tex3d_probe $OUT
// Outputs (little-endian binary, gzipped by run.sh):
// - w3d_miss.bin: the full 3D weight sweep. A 2x2x2 float4 texture whose texel k = x + 2y + 4z
//   holds 1 (k < 4) or 512 (k >= 4) in channel k % 4, so one sample gives all eight weights
//   (channel c = (w_c + 512 w_{c+4}) / 256, exact in f32). Every (wx, wy, wz) in 0..255^3 at
//   (0.5 + w / 256) is sampled; the records are the ones whose weights differ from "x and z
//   paired first, then y" (extmem's rule before this part): uint8 wx, wy, wz, 0, uint16 w[8].
//   w3d_count.txt: how many samples and misses.
// - w3d_axis.bin: each axis alone at fractions k / 4096 (the others at weight 0): uint32 axis,
//   k, then the four channels' bits.
// - srgb.bin: a 512x256 8-bit sRGB texture whose row r, pair p holds texels (r, p), linear:
//   "pairs16": every pair at the 16 weights of the texfilter probe (f32 bits, [r][p][k]);
//   "rows": pairs (a, 0), (a, 1), (a, a), (a, 128), (a, 255) at every weight 0..255 ([a][5][w]);
//   "point": every value point-sampled; "bilin": 65536 random footprints (x, y, result).
// - bc.bin: signed BC4 (every endpoint pair, indices 0..7; red) and signed BC5 (red block
//   (a0, a1), green block (a1, a0)): f32 bits of each texel.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "ERROR %s at %d: %s\n", #x, __LINE__, cudaGetErrorName(e_));                       \
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

struct Miss {
    unsigned char wx, wy, wz, pad;
    unsigned short w[8];
};

__device__ void decode8(float4 v, unsigned w[8])
{
    float c[4] = {v.x, v.y, v.z, v.w};
    for (int i = 0; i < 4; ++i) {
        unsigned s = (unsigned)(c[i] * 256.0f + 0.5f);
        w[i] = s % 512;
        w[i + 4] = s / 512;
    }
}

__global__ void sweep3d(cudaTextureObject_t t, Miss *miss, unsigned *nmiss, unsigned cap)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x; // 0 .. 2^24
    unsigned wx = i & 255, wy = (i >> 8) & 255, wz = i >> 16;
    float4 v = tex3D<float4>(t, 0.5f + wx / 256.0f, 0.5f + wy / 256.0f, 0.5f + wz / 256.0f);
    unsigned w[8];
    decode8(v, w);
    // extmem's rule before: x with z, then y
    unsigned w11 = (wx * wz + 128) >> 8;
    unsigned w2[4] = {256 - wx - wz + w11, wx - w11, wz - w11, w11};
    unsigned p[8];
    for (int q = 0; q < 4; ++q) {
        unsigned hi = (w2[q] * wy + 128) >> 8;
        unsigned x = q & 1, z = q >> 1;
        p[x + 4 * z] = w2[q] - hi;
        p[x + 2 + 4 * z] = hi;
    }
    bool same = true;
    for (int k = 0; k < 8; ++k)
        same = same && p[k] == w[k];
    if (!same) {
        unsigned j = atomicAdd(nmiss, 1u);
        if (j < cap) {
            Miss m;
            m.wx = wx; m.wy = wy; m.wz = wz; m.pad = 0;
            for (int k = 0; k < 8; ++k)
                m.w[k] = (unsigned short)w[k];
            miss[j] = m;
        }
    }
}

struct C4 {
    float x, y, z, w;
};
__global__ void k3d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex3D<float4>(t, c[i].x, c[i].y, c[i].z);
        o[i] = uint4{__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w)};
    }
}
__global__ void k2d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, c[i].x, c[i].y);
        o[i] = uint4{__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w)};
    }
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

static cudaTextureObject_t mktex(cudaArray_t a, cudaTextureFilterMode fm, cudaTextureReadMode rm, int srgb)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = fm;
    td.readMode = rm;
    td.sRGB = srgb;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

static uint32_t st = 777;
static uint32_t rnd()
{
    st = st * 1664525u + 1013904223u;
    return st >> 8;
}

static void weights3d(const char *out)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    float tx[8][4] = {};
    for (int k = 0; k < 8; ++k)
        tx[k][k % 4] = k < 4 ? 1.0f : 512.0f;
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, 2)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(tx, 2 * 16, 2, 2);
    p.dstArray = a;
    p.extent = make_cudaExtent(2, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    cudaTextureObject_t t = mktex(a, cudaFilterModeLinear, cudaReadModeElementType, 0);
    const unsigned cap = 4u << 20;
    Miss *dm;
    unsigned *dn, n = 0;
    CK(cudaMalloc(&dm, cap * sizeof(Miss)));
    CK(cudaMalloc(&dn, 4));
    CK(cudaMemset(dn, 0, 4));
    sweep3d<<<65536, 256>>>(t, dm, dn, cap);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&n, dn, 4, cudaMemcpyDeviceToHost));
    unsigned keep = n < cap ? n : cap;
    std::vector<Miss> m(keep);
    CK(cudaMemcpy(m.data(), dm, keep * sizeof(Miss), cudaMemcpyDeviceToHost));
    char path[512];
    snprintf(path, sizeof path, "%s/w3d_miss.bin", out);
    FILE *f = fopen(path, "wb");
    fwrite(m.data(), sizeof(Miss), keep, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/w3d_count.txt", out);
    f = fopen(path, "w");
    fprintf(f, "samples %u misses %u kept %u\n", 1u << 24, n, keep);
    fclose(f);
    printf("w3d: %u of %u differ from x-z-then-y\n", n, 1u << 24);
    CK(cudaFree(dm));
    CK(cudaFree(dn));
    // each axis alone at k / 4096
    std::vector<C4> c;
    for (int ax = 0; ax < 3; ++ax)
        for (int k = 0; k < 4096; ++k) {
            float v[3] = {0.5f, 0.5f, 0.5f};
            v[ax] = 0.5f + k / 4096.0f;
            c.push_back(C4{v[0], v[1], v[2], 0});
        }
    std::vector<uint4> o = run(k3d, t, c);
    std::vector<uint32_t> r;
    for (size_t i = 0; i < c.size(); ++i) {
        r.push_back((uint32_t)(i / 4096));
        r.push_back((uint32_t)(i % 4096));
        r.push_back(o[i].x); r.push_back(o[i].y); r.push_back(o[i].z); r.push_back(o[i].w);
    }
    snprintf(path, sizeof path, "%s/w3d_axis.bin", out);
    f = fopen(path, "wb");
    fwrite(r.data(), 4, r.size(), f);
    fclose(f);
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
}

static const int WEIGHTS[16] = {1, 2, 3, 7, 16, 31, 64, 85, 127, 128, 129, 171, 200, 230, 254, 255};

static void srgb(FILE *f)
{
    const int W = 512, H = 256;
    std::vector<unsigned char> raw(W * H);
    for (int r = 0; r < H; ++r)
        for (int p = 0; p < 256; ++p) {
            raw[r * W + 2 * p] = (unsigned char)r;
            raw[r * W + 2 * p + 1] = (unsigned char)p;
        }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), W, W, H, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = mktex(a, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
    std::vector<C4> c;
    for (int r = 0; r < H; ++r)
        for (int p = 0; p < 256; ++p)
            for (int k = 0; k < 16; ++k)
                c.push_back(C4{2.0f * p + 0.5f + WEIGHTS[k] / 256.0f, r + 0.5f, 0, 0});
    std::vector<uint4> o = run(k2d, t, c);
    std::vector<uint32_t> v(o.size());
    for (size_t i = 0; i < o.size(); ++i)
        v[i] = o[i].x;
    rec(f, "pairs16", v.data(), (uint32_t)v.size(), 4);
    static const int P[5] = {-1, 1, -2, 128, 255}; // -1: 0, -2: a
    c.clear();
    for (int r = 0; r < H; ++r)
        for (int j = 0; j < 5; ++j)
            for (int w = 0; w < 256; ++w) {
                int p = P[j] == -1 ? 0 : P[j] == -2 ? r : P[j];
                c.push_back(C4{2.0f * p + 0.5f + w / 256.0f, r + 0.5f, 0, 0});
            }
    o = run(k2d, t, c);
    v.resize(o.size());
    for (size_t i = 0; i < o.size(); ++i)
        v[i] = o[i].x;
    rec(f, "rows", v.data(), (uint32_t)v.size(), 4);
    c.clear();
    for (int r = 0; r < 65536; ++r)
        c.push_back(C4{(float)(rnd() % (W - 1)) + 0.5f + (rnd() & 255) / 256.0f,
                       (float)(rnd() % (H - 1)) + 0.5f + ((rnd() >> 8) & 255) / 256.0f, 0, 0});
    o = run(k2d, t, c);
    v.clear();
    for (size_t i = 0; i < o.size(); ++i) {
        uint32_t x, y;
        memcpy(&x, &c[i].x, 4);
        memcpy(&y, &c[i].y, 4);
        v.push_back(x); v.push_back(y); v.push_back(o[i].x);
    }
    rec(f, "bilin", v.data(), (uint32_t)v.size(), 4);
    CK(cudaDestroyTextureObject(t));
    t = mktex(a, cudaFilterModePoint, cudaReadModeNormalizedFloat, 1);
    c.clear();
    for (int p = 0; p < 256; ++p)
        c.push_back(C4{2.0f * p + 1.5f, 0.5f, 0, 0});
    o = run(k2d, t, c);
    v.clear();
    for (auto &x : o)
        v.push_back(x.x);
    rec(f, "point", v.data(), (uint32_t)v.size(), 4);
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
}

static void bc(FILE *f, bool bc5)
{
    const int BW = 256, BH = 256, W = BW * 4, H = BH * 4, bytes = bc5 ? 16 : 8;
    std::vector<unsigned char> blocks((size_t)BW * BH * bytes, 0);
    uint64_t idx = 0;
    for (int k = 0; k < 16; ++k)
        idx |= (uint64_t)(k % 8) << (3 * k);
    for (int b = 0; b < BW * BH; ++b)
        for (int h = 0; h < (bc5 ? 2 : 1); ++h) {
            unsigned char *p = &blocks[(size_t)b * bytes + 8 * h];
            p[0] = (unsigned char)(h ? b >> 8 : b & 255);
            p[1] = (unsigned char)(h ? b & 255 : b >> 8);
            for (int q = 0; q < 6; ++q)
                p[2 + q] = (unsigned char)(idx >> (8 * q));
        }
    cudaChannelFormatDesc cd = bc5 ? cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindSignedBlockCompressed5)
                                   : cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSignedBlockCompressed4);
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, blocks.data(), BW * bytes, BW * bytes, BH, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = mktex(a, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    std::vector<C4> c;
    for (int b = 0; b < BW * BH; ++b)
        for (int k = 0; k < 8; ++k)
            c.push_back(C4{(b % BW) * 4 + k % 4 + 0.5f, (b / BW) * 4 + k / 4 + 0.5f, 0, 0});
    std::vector<uint4> o = run(k2d, t, c);
    std::vector<uint32_t> v;
    for (auto &x : o) {
        v.push_back(x.x);
        if (bc5)
            v.push_back(x.y);
    }
    rec(f, bc5 ? "bc5s" : "bc4s", v.data(), (uint32_t)v.size(), 4);
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s sm_%d%d\n", prop.name, prop.major, prop.minor);
    CK(cudaMalloc(&dc, MAXN * sizeof(C4)));
    CK(cudaMalloc(&dout, MAXN * sizeof(uint4)));
    weights3d(out);
    char path[512];
    snprintf(path, sizeof path, "%s/srgb.bin", out);
    FILE *f = fopen(path, "wb");
    srgb(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/bc.bin", out);
    f = fopen(path, "wb");
    bc(f, false);
    bc(f, true);
    fclose(f);
    printf("done\n");
    return 0;
}
