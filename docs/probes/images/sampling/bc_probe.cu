// How the H100 decodes block-compressed textures (BC1 to BC5, BC1 sRGB): 32 random blocks of
// each format in a 16 x 8 array, every texel read by point sampling; each line prints the
// block's bytes and the 16 texels' 4 channels as bits. Run by run3.sh; output bc.out.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("ERROR %s at %d: %s\n", #x, __LINE__, cudaGetErrorName(e_));                   \
            return;                                                                                \
        }                                                                                          \
    } while (0)

__global__ void fetch(cudaTextureObject_t t, uint4 *o, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) {
        float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
        o[y * w + x] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}

static uint32_t state = 2024;
static uint32_t rnd()
{
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

static void one(const char *name, cudaChannelFormatKind kind, int bx, int by, int bz, int bw, int block_bytes)
{
    const int W = 32, H = 16, BW = W / 4, BH = H / 4; // 8 x 4 = 32 blocks
    static unsigned char blocks[32 * 16];
    for (int i = 0; i < BW * BH * block_bytes; ++i)
        blocks[i] = (unsigned char)rnd();
    // a few blocks in the other mode: BC1 c0 <= c1, BC4/5 a0 <= a1
    for (int b = 0; b < BW * BH; b += 3) {
        unsigned char *p = blocks + b * block_bytes;
        if (block_bytes == 8 && (kind == cudaChannelFormatKindUnsignedBlockCompressed1 ||
                                 kind == cudaChannelFormatKindUnsignedBlockCompressed1SRGB)) {
            unsigned c0 = p[0] | p[1] << 8, c1 = p[2] | p[3] << 8;
            if (c0 > c1) { // swap to c0 <= c1
                p[0] = (unsigned char)c1; p[1] = (unsigned char)(c1 >> 8); p[2] = (unsigned char)c0; p[3] = (unsigned char)(c0 >> 8);
            }
        } else if (kind == cudaChannelFormatKindUnsignedBlockCompressed4 || kind == cudaChannelFormatKindSignedBlockCompressed4 ||
                   kind == cudaChannelFormatKindUnsignedBlockCompressed5 || kind == cudaChannelFormatKindSignedBlockCompressed5) {
            for (int h = 0; h < block_bytes; h += 8)
                if ((signed char)p[h] > (signed char)p[h + 1] || (kind == cudaChannelFormatKindUnsignedBlockCompressed4 && p[h] > p[h + 1]) ||
                    (kind == cudaChannelFormatKindUnsignedBlockCompressed5 && p[h] > p[h + 1])) {
                    unsigned char t = p[h]; p[h] = p[h + 1]; p[h + 1] = t;
                }
        }
    }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(bx, by, bz, bw, kind);
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, blocks, BW * block_bytes, BW * block_bytes, BH, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
    if (e != cudaSuccess) {
        td.readMode = cudaReadModeNormalizedFloat;
        e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
    }
    printf("%s: create %s readMode %d\n", name, cudaGetErrorName(e), (int)td.readMode);
    if (e != cudaSuccess)
        return;
    uint4 *d;
    CK(cudaMalloc(&d, W * H * sizeof(uint4)));
    fetch<<<H, W>>>(t, d, W, H);
    CK(cudaDeviceSynchronize());
    static uint4 o[32 * 16];
    CK(cudaMemcpy(o, d, sizeof(o), cudaMemcpyDeviceToHost));
    for (int by_ = 0; by_ < BH; ++by_)
        for (int bx_ = 0; bx_ < BW; ++bx_) {
            const unsigned char *p = blocks + (by_ * BW + bx_) * block_bytes;
            printf("%s block", name);
            for (int i = 0; i < block_bytes; ++i)
                printf("%s%02x", i ? "" : " ", p[i]);
            printf(" =");
            for (int j = 0; j < 4; ++j)
                for (int i = 0; i < 4; ++i) {
                    uint4 v = o[(by_ * 4 + j) * W + bx_ * 4 + i];
                    printf(" %08x,%08x,%08x,%08x", v.x, v.y, v.z, v.w);
                }
            printf("\n");
        }
    cudaDestroyTextureObject(t);
    cudaFree(d);
    cudaFreeArray(a);
}

int main()
{
    one("bc1", cudaChannelFormatKindUnsignedBlockCompressed1, 8, 8, 8, 8, 8);
    one("bc1srgb", cudaChannelFormatKindUnsignedBlockCompressed1SRGB, 8, 8, 8, 8, 8);
    one("bc2", cudaChannelFormatKindUnsignedBlockCompressed2, 8, 8, 8, 8, 16);
    one("bc3", cudaChannelFormatKindUnsignedBlockCompressed3, 8, 8, 8, 8, 16);
    one("bc4", cudaChannelFormatKindUnsignedBlockCompressed4, 8, 0, 0, 0, 8);
    one("bc4s", cudaChannelFormatKindSignedBlockCompressed4, 8, 0, 0, 0, 8);
    one("bc5", cudaChannelFormatKindUnsignedBlockCompressed5, 8, 8, 0, 0, 16);
    one("bc5s", cudaChannelFormatKindSignedBlockCompressed5, 8, 8, 0, 0, 16);
    return 0;
}
