// Texture sampling on the GPU, printed bit for bit: what the engine's tex, tld4, txq, suld,
// sust and suq must reproduce (docs/images.md, "Sampling"). Built and run by run.sh on the
// H100; its output is sampling.out. Every line is "section key: values" with values in hex
// (float results as their bits), so that fit.py can read them back.
//
//   sampling_probe            every sampling section
//   sampling_probe <fault>    one fault case in a process of its own (the context dies)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            printf("ERROR %s at %d: %s\n", #x, __LINE__, cudaGetErrorName(e_));                                       \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

// ---- kernels: one sample per thread, results as bits ----
struct C4 {
    float x, y, z, w;
};
__global__ void k1d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex1D<float4>(t, c[i].x);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void k1du(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = tex1D<uint4>(t, c[i].x);
}
__global__ void k1ds(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 v = tex1D<int4>(t, c[i].x);
        o[i] = make_uint4(v.x, v.y, v.z, v.w);
    }
}
__global__ void k2d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2D<float4>(t, c[i].x, c[i].y);
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
__global__ void k2dlod(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2DLod<float4>(t, c[i].x, c[i].y, c[i].z);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
// c[2i] = (x, y, dx.x, dx.y), c[2i+1] = (dy.x, dy.y)
__global__ void k2dgrad(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        C4 a = c[2 * i], b = c[2 * i + 1];
        float4 v = tex2DGrad<float4>(t, a.x, a.y, make_float2(a.z, a.w), make_float2(b.x, b.y));
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void kcube(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = texCubemap<float4>(t, c[i].x, c[i].y, c[i].z);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
__global__ void ka2d(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2DLayered<float4>(t, c[i].x, c[i].y, (int)__float_as_uint(c[i].z));
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
template <int comp> __global__ void kgather(cudaTextureObject_t t, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = tex2Dgather<float4>(t, c[i].x, c[i].y, comp);
        o[i] = make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
    }
}
// Queries: each one a module of its own, loaded through the driver API, so that a query the
// driver refuses to load (CUDA_ERROR_NOT_SUPPORTED) does not take the others with it.
static const char *const tex_queries[] = {"txq.width", "txq.height", "txq.depth", "txq.channel_data_type",
                                          "txq.channel_order", "txq.normalized_coords", "txq.filter_mode",
                                          "txq.addr_mode_0", "txq.addr_mode_1", "txq.num_mipmap_levels",
                                          "txq.array_size", "txq.num_samples", "istypep.texref",
                                          "istypep.samplerref", "istypep.surfref"};
static const char *const surf_queries[] = {"suq.width", "suq.height", "suq.depth", "suq.channel_data_type",
                                           "suq.channel_order", "suq.array_size", "suq.memory_layout",
                                           "istypep.texref", "istypep.surfref"};
static void query(const char *what, const char *q, unsigned long long h)
{
    char ptx[1024];
    bool pred = !strncmp(q, "istypep", 7);
    char body[128];
    if (pred)
        snprintf(body, sizeof body, " %s %%p1, %%rd1;\n selp.u32 %%r1, 1, 0, %%p1;", q);
    else
        snprintf(body, sizeof body, " %s.b32 %%r1, [%%rd1];", q);
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry q(.param .u64 h, .param .u64 o)\n{\n"
             " .reg .b32 %%r<3>; .reg .b64 %%rd<3>; .reg .pred %%p<2>;\n ld.param.u64 %%rd1, [h];\n"
             " ld.param.u64 %%rd2, [o];\n%s\n st.global.u32 [%%rd2], %%r1;\n ret;\n}\n",
             body);
    CUmodule m;
    CUresult r = cuModuleLoadData(&m, ptx);
    if (r != CUDA_SUCCESS) {
        const char *n = "?";
        cuGetErrorName(r, &n);
        printf("%s %s: load %s\n", what, q, n);
        return;
    }
    CUfunction f;
    cuModuleGetFunction(&f, m, "q");
    uint32_t *d;
    CK(cudaMalloc(&d, 4));
    CK(cudaMemset(d, 0xee, 4));
    void *args[] = {&h, &d};
    r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr);
    CUresult r2 = cuCtxSynchronize();
    uint32_t v = 0;
    cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost);
    const char *n1 = "?", *n2 = "?";
    cuGetErrorName(r, &n1);
    cuGetErrorName(r2, &n2);
    printf("%s %s: %s %s %x\n", what, q, n1, n2, v);
    cudaFree(d);
    cuModuleUnload(m);
}
static void kquery(const char *what, unsigned long long h)
{
    for (size_t i = 0; i < sizeof tex_queries / sizeof *tex_queries; ++i)
        query(what, tex_queries[i], h);
}
static void ksquery(const char *what, unsigned long long h)
{
    for (size_t i = 0; i < sizeof surf_queries / sizeof *surf_queries; ++i)
        query(what, surf_queries[i], h);
}
// Surface reads in each boundary mode: c[i].x = byte x, .y = y; results .zero, .clamp
__global__ void ksuld(cudaSurfaceObject_t s, const C4 *c, uint4 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = (int)__float_as_uint(c[i].x), y = (int)__float_as_uint(c[i].y);
        uint32_t a, b;
        asm volatile("suld.b.2d.b32.zero {%0}, [%1, {%2, %3}];" : "=r"(a) : "l"(s), "r"(x), "r"(y));
        asm volatile("suld.b.2d.b32.clamp {%0}, [%1, {%2, %3}];" : "=r"(b) : "l"(s), "r"(x), "r"(y));
        o[i] = make_uint4(a, b, 0, 0);
    }
}
__global__ void ksust(cudaSurfaceObject_t s, int x, int y, uint32_t v, int mode)
{
    if (mode == 0)
        asm volatile("sust.b.2d.b32.zero [%0, {%1, %2}], {%3};" ::"l"(s), "r"(x), "r"(y), "r"(v));
    else if (mode == 1)
        asm volatile("sust.b.2d.b32.clamp [%0, {%1, %2}], {%3};" ::"l"(s), "r"(x), "r"(y), "r"(v));
    else
        asm volatile("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};" ::"l"(s), "r"(x), "r"(y), "r"(v));
}
__global__ void ksuld_trap(cudaSurfaceObject_t s, int x, int y, uint32_t *o)
{
    uint32_t a;
    asm volatile("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];" : "=r"(a) : "l"(s), "r"(x), "r"(y));
    *o = a;
}
__global__ void ksured(cudaSurfaceObject_t s, int x, uint32_t v)
{
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" ::"l"(s), "r"(x), "r"(v));
}

// ---- helpers ----
static C4 *dc;
static uint4 *dout;
static const int MAXN = 1 << 16;

typedef void (*kfn)(cudaTextureObject_t, const C4 *, uint4 *, int);
static void run(kfn k, cudaTextureObject_t t, const C4 *c, int n, uint4 *out, int threads_n = -1)
{
    int m = threads_n < 0 ? n : threads_n;
    CK(cudaMemcpy(dc, c, n * sizeof(C4), cudaMemcpyHostToDevice));
    k<<<(m + 127) / 128, 128>>>(t, dc, dout, m);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, m * sizeof(uint4), cudaMemcpyDeviceToHost));
}
static void print(const char *sec, const C4 *c, const uint4 *o, int n, int coords)
{
    for (int i = 0; i < n; ++i) {
        printf("%s:", sec);
        for (int j = 0; j < coords; ++j)
            printf(" %08x", fb((&c[i].x)[j]));
        printf(" = %08x %08x %08x %08x\n", o[i].x, o[i].y, o[i].z, o[i].w);
    }
}

static cudaTextureObject_t texobj(cudaArray_t a, cudaTextureAddressMode am, cudaTextureFilterMode fm,
                                  cudaTextureReadMode rm, int norm, int srgb = 0, const float *border = nullptr)
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
    if (border)
        for (int i = 0; i < 4; ++i)
            td.borderColor[i] = border[i];
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}
static cudaArray_t array1d(cudaChannelFormatDesc cd, int w, const void *data, size_t esize)
{
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, 0));
    CK(cudaMemcpy2DToArray(a, 0, 0, data, w * esize, w * esize, 1, cudaMemcpyHostToDevice));
    return a;
}
static cudaArray_t array2d(cudaChannelFormatDesc cd, int w, int h, const void *data, size_t esize)
{
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, h));
    CK(cudaMemcpy2DToArray(a, 0, 0, data, w * esize, w * esize, h, cudaMemcpyHostToDevice));
    return a;
}
static uint32_t lcg_state = 12345;
static uint32_t lcg()
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}
static float rnd01() { return (lcg() >> 8) * (1.0f / 16777216.0f); }

static const char *amname[] = {"wrap", "clamp", "mirror", "border"};

static C4 c[MAXN];
static uint4 o[MAXN];

static void address_modes()
{
    // 1D float, width 5, texel i = i + 1 (border shows as 0 or the border colour).
    float tx[5] = {1, 2, 3, 4, 5};
    cudaArray_t a = array1d(cudaCreateChannelDesc<float>(), 5, tx, 4);
    const float xs[] = {-2.0f, -1.5f, -1.0f, -0.6f, -0.5f, -0.3f, -0.1f, -1e-7f, -0.0f, 0.0f, 1e-7f, 0.1f, 0.19999999f,
                        0.2f, 0.3f, 0.5f, 0.7f, 0.9f, 0.99999994f, 1.0f, 1.00000012f, 1.1f, 1.5f, 1.9f, 2.0f, 2.5f,
                        3.7f, 1e6f + 0.3f, 1e10f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, -NAN, 1.4e-45f, 0.6f,
                        0.4f, 0.8f, 0.09f, 0.11f, 0.29f, 0.31f, 4.9f, 5.0f, 5.5f, -5.5f, 7.3f, 0.25f, 0.75f, 0.05f,
                        0.15f, 0.35f, 0.45f, 0.55f, 0.65f, 0.85f, 0.95f, 1.05f, -0.05f, -0.15f, -0.95f, -1.05f};
    int n = sizeof(xs) / sizeof(xs[0]);
    float border[4] = {9.5f, 8.5f, 7.5f, 6.5f};
    for (int norm = 0; norm < 2; ++norm)
        for (int am = 0; am < 4; ++am)
            for (int fm = 0; fm < 2; ++fm) {
                cudaTextureObject_t t = texobj(a, (cudaTextureAddressMode)am, (cudaTextureFilterMode)fm,
                                               cudaReadModeElementType, norm, 0, border);
                for (int i = 0; i < n; ++i)
                    c[i].x = norm ? xs[i] : xs[i] * 5.0f;
                run(k1d, t, c, n, o);
                char sec[64];
                snprintf(sec, sizeof sec, "addr %s %s %s", norm ? "norm" : "unnorm", amname[am],
                         fm ? "linear" : "point");
                print(sec, c, o, n, 1);
                cudaDestroyTextureObject(t);
            }
    cudaFreeArray(a);
}

// The linear filter's weights: texels 0 and 1 at x in [0.5, 1.5].
static void weights()
{
    float tx[4] = {0, 1, 1, 1};
    cudaArray_t a = array1d(cudaCreateChannelDesc<float>(), 4, tx, 4);
    cudaTextureObject_t t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    int n = 0;
    for (int k = 0; k <= 4096; ++k)
        c[n++].x = 0.5f + k / 4096.0f;
    // around the 1/256 steps and half steps, finely
    for (int j = 0; j < 4; ++j)
        for (int d = -8; d <= 8; ++d)
            c[n++].x = 0.5f + (j * 2 + 1) / 512.0f + d * (1.0f / 65536.0f / 4);
    for (int d = -8; d <= 8; ++d)
        c[n++].x = 0.5f + 1 / 256.0f + d * (1.0f / 1048576.0f);
    run(k1d, t, c, n, o);
    print("w1d unnorm", c, o, n, 1);
    cudaDestroyTextureObject(t);
    // normalized: width 4, x * 4 - 0.5 in [0.5, 1.5]
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
    n = 0;
    for (int k = 0; k <= 1024; ++k)
        c[n++].x = (1.0f + k / 1024.0f) / 4.0f;
    for (int k = 0; k < 256; ++k)
        c[n++].x = 0.3f + k * 1e-5f;
    run(k1d, t, c, n, o);
    print("w1d norm4", c, o, n, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // width 3 (not a power of two) normalized
    float t3[3] = {0, 1, 1};
    a = array1d(cudaCreateChannelDesc<float>(), 3, t3, 4);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
    n = 0;
    for (int k = 0; k <= 1024; ++k)
        c[n++].x = (0.5f + k / 1024.0f) / 3.0f;
    run(k1d, t, c, n, o);
    print("w1d norm3", c, o, n, 1);
    cudaDestroyTextureObject(t);
    // wide coordinates: how far the fraction survives
    t = texobj(a, cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
    n = 0;
    for (int k = 0; k < 64; ++k)
        c[n++].x = ldexpf(1.0f, k / 4) + k * 0.0137f;
    run(k1d, t, c, n, o);
    print("w1d wrapbig", c, o, n, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

// Random texels, random positions: how weights and texels combine.
static void combine()
{
    const int W = 64;
    static float tx[W * W];
    lcg_state = 777;
    for (int i = 0; i < W * W; ++i) {
        uint32_t r = lcg();
        tx[i] = (r & 3) == 0 ? (rnd01() - 0.5f) * 1000.0f : (r & 3) == 1 ? rnd01() : (r & 3) == 2 ? ldexpf(rnd01(), (int)(lcg() % 60) - 30) : (float)(lcg() % 256);
    }
    printf("texels:");
    for (int i = 0; i < W * W; ++i)
        printf(" %08x", fb(tx[i]));
    printf("\n");
    cudaArray_t a1 = array1d(cudaCreateChannelDesc<float>(), W, tx, 4);
    cudaTextureObject_t t = texobj(a1, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    int n = 0;
    for (int i = 0; i < 2000; ++i)
        c[n++].x = 1.0f + rnd01() * (W - 2);
    run(k1d, t, c, n, o);
    print("comb1d", c, o, n, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a1);
    cudaArray_t a2 = array2d(cudaCreateChannelDesc<float>(), W, W, tx, 4);
    t = texobj(a2, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    n = 0;
    for (int i = 0; i < 2000; ++i) {
        c[n].x = 1.0f + rnd01() * (W - 2);
        c[n++].y = 1.0f + rnd01() * (W - 2);
    }
    run(k2d, t, c, n, o);
    print("comb2d", c, o, n, 2);
    cudaDestroyTextureObject(t);
    // normalized 2D, wrap
    t = texobj(a2, cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
    n = 0;
    for (int i = 0; i < 500; ++i) {
        c[n].x = rnd01() * 3 - 1;
        c[n++].y = rnd01() * 3 - 1;
    }
    run(k2d, t, c, n, o);
    print("comb2dn", c, o, n, 2);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a2);
    // 3D: 16^3 of the same texels
    cudaArray_t a3;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(16, 16, 16)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(tx, 16 * 4, 16, 16);
    p.dstArray = a3;
    p.extent = make_cudaExtent(16, 16, 16);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    t = texobj(a3, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    n = 0;
    for (int i = 0; i < 1000; ++i) {
        c[n].x = 1.0f + rnd01() * 14;
        c[n].y = 1.0f + rnd01() * 14;
        c[n++].z = 1.0f + rnd01() * 14;
    }
    run(k3d, t, c, n, o);
    print("comb3d", c, o, n, 3);
    cudaDestroyTextureObject(t);
    // 3D point with edges
    t = texobj(a3, cudaAddressModeMirror, cudaFilterModePoint, cudaReadModeElementType, 1);
    n = 0;
    for (int i = 0; i < 200; ++i) {
        c[n].x = rnd01() * 4 - 2;
        c[n].y = rnd01() * 4 - 2;
        c[n++].z = rnd01() * 4 - 2;
    }
    run(k3d, t, c, n, o);
    print("pt3d mirror", c, o, n, 3);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a3);
}

// Read modes: every value of the 8-bit formats, a spread of the 16-bit ones, halves, sRGB.
static void read_modes()
{
    int n = 256;
    for (int i = 0; i < n; ++i)
        c[i].x = i + 0.5f;
    uint8_t u8[256];
    for (int i = 0; i < 256; ++i)
        u8[i] = (uint8_t)i;
    cudaArray_t a = array1d(cudaCreateChannelDesc<unsigned char>(), 256, u8, 1);
    cudaTextureObject_t t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    run(k1d, t, c, n, o);
    print("rm unorm8", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0, 1);
    run(k1d, t, c, n, o);
    print("rm srgb8", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    run(k1du, t, c, n, o);
    print("rm u8 elem", c, o, n, 1);
    cudaDestroyTextureObject(t);
    // linear filtering of unorm8 (and sRGB): between neighbours
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0);
    int m = 0;
    for (int i = 0; i < 600; ++i)
        c[m++].x = 0.5f + rnd01() * 255;
    run(k1d, t, c, m, o);
    print("lin unorm8", c, o, m, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0, 1);
    run(k1d, t, c, m, o);
    print("lin srgb8", c, o, m, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    for (int i = 0; i < n; ++i)
        c[i].x = i + 0.5f;
    int8_t s8[256];
    for (int i = 0; i < 256; ++i)
        s8[i] = (int8_t)(i - 128);
    a = array1d(cudaCreateChannelDesc<signed char>(), 256, s8, 1);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    run(k1d, t, c, n, o);
    print("rm snorm8", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    run(k1ds, t, c, n, o);
    print("rm s8 elem", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0);
    m = 0;
    for (int i = 0; i < 300; ++i)
        c[m++].x = 0.5f + rnd01() * 255;
    run(k1d, t, c, m, o);
    print("lin snorm8", c, o, m, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    for (int i = 0; i < n; ++i)
        c[i].x = i + 0.5f;
    uint16_t u16[256];
    for (int i = 0; i < 256; ++i)
        u16[i] = (uint16_t)(i * 257 + (i * 37) % 200);
    a = array1d(cudaCreateChannelDesc<unsigned short>(), 256, u16, 2);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    run(k1d, t, c, n, o);
    printf("u16 values:");
    for (int i = 0; i < 256; ++i)
        printf(" %04x", u16[i]);
    printf("\n");
    print("rm unorm16", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0);
    m = 0;
    for (int i = 0; i < 300; ++i)
        c[m++].x = 0.5f + rnd01() * 255;
    run(k1d, t, c, m, o);
    print("lin unorm16", c, o, m, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    for (int i = 0; i < n; ++i)
        c[i].x = i + 0.5f;
    a = array1d(cudaCreateChannelDesc<short>(), 256, u16, 2);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    run(k1d, t, c, n, o);
    print("rm snorm16", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    run(k1ds, t, c, n, o);
    print("rm s16 elem", c, o, n, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // half
    uint16_t h[256];
    const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00,
                                0x7c01, 0xfe00, 0x3c00, 0x3555, 0x7fff, 0xffff};
    for (int i = 0; i < 256; ++i)
        h[i] = i < 16 ? special[i] : (uint16_t)lcg();
    a = array1d(cudaCreateChannelDescHalf(), 256, h, 2);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    printf("half values:");
    for (int i = 0; i < 256; ++i)
        printf(" %04x", h[i]);
    printf("\n");
    run(k1d, t, c, n, o);
    print("rm half", c, o, n, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    m = 0;
    for (int i = 0; i < 300; ++i)
        c[m++].x = 16.5f + rnd01() * 238;
    run(k1d, t, c, m, o);
    print("lin half", c, o, m, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // 32-bit ints read as elements; channels missing: 2-channel uchar2 read as uint4 and float4
    uint32_t u32[4] = {0x80000001u, 7, 0xffffffffu, 123456789};
    for (int i = 0; i < 4; ++i)
        c[i].x = i + 0.5f;
    a = array1d(cudaCreateChannelDesc<unsigned int>(), 4, u32, 4);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    run(k1du, t, c, 4, o);
    print("rm u32 elem", c, o, 4, 1);
    run(k1ds, t, c, 4, o);
    print("rm u32 as s", c, o, 4, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    uint8_t u82[8] = {1, 2, 250, 251, 128, 127, 0, 255};
    a = array1d(cudaCreateChannelDesc<uchar2>(), 4, u82, 2);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    run(k1du, t, c, 4, o);
    print("rm uchar2 elem", c, o, 4, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    run(k1d, t, c, 4, o);
    print("rm uchar2 norm", c, o, 4, 1);
    cudaDestroyTextureObject(t);
    // border colour with a normalized read of uchar2 and with an int read
    float border[4] = {0.25f, 2.0f, -1.0f, 300.7f};
    t = texobj(a, cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0, 0, border);
    c[0].x = -3;
    c[1].x = 10;
    run(k1d, t, c, 2, o);
    print("border uchar2 norm", c, o, 2, 1);
    cudaDestroyTextureObject(t);
    t = texobj(a, cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0, 0, border);
    run(k1du, t, c, 2, o);
    print("border uchar2 elem", c, o, 2, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // float4 texture: border with all four
    float f4[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    a = array1d(cudaCreateChannelDesc<float4>(), 2, f4, 16);
    t = texobj(a, cudaAddressModeBorder, cudaFilterModeLinear, cudaReadModeElementType, 0, 0, border);
    c[0].x = -3;
    c[1].x = 0.25f;
    c[2].x = 1.0f;
    c[3].x = 2.25f;
    run(k1d, t, c, 4, o);
    print("border float4 lin", c, o, 4, 1);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

static void mips()
{
    const int W = 64, L = 7;
    cudaMipmappedArray_t ma;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CK(cudaMallocMipmappedArray(&ma, &cd, make_cudaExtent(W, W, 0), L));
    static float buf[W * W];
    for (int l = 0; l < L; ++l) {
        cudaArray_t lv;
        CK(cudaGetMipmappedArrayLevel(&lv, ma, l));
        int w = W >> l;
        for (int i = 0; i < w * w; ++i)
            buf[i] = (float)(l * 16 + 1);
        CK(cudaMemcpy2DToArray(lv, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    for (int cfg = 0; cfg < 6; ++cfg) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = ma;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModeLinear;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = 1;
        td.mipmapFilterMode = cfg == 0 || cfg == 4 ? cudaFilterModePoint : cudaFilterModeLinear;
        td.maxMipmapLevelClamp = 100;
        td.maxAnisotropy = cfg == 3 ? 16 : 0;
        if (cfg == 2) {
            td.mipmapLevelBias = 0.7f;
            td.minMipmapLevelClamp = 1.25f;
            td.maxMipmapLevelClamp = 4.5f;
        }
        if (cfg == 5)
            td.disableTrilinearOptimization = 1;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        int n = 0;
        for (int k = -64; k <= 8 * 64; ++k) {
            c[n].x = 0.3f;
            c[n].y = 0.6f;
            c[n++].z = k / 64.0f;
        }
        for (int k = 0; k < 256; ++k) {
            c[n].x = 0.3f;
            c[n].y = 0.6f;
            c[n++].z = 1.0f + k / 256.0f + 1.0f / 1024;
        }
        c[n++] = C4{0.3f, 0.6f, NAN, 0};
        c[n++] = C4{0.3f, 0.6f, INFINITY, 0};
        c[n++] = C4{0.3f, 0.6f, -INFINITY, 0};
        run(k2dlod, t, c, n, o);
        char sec[32];
        snprintf(sec, sizeof sec, "lod cfg%d", cfg);
        print(sec, c, o, n, 3);
        // gradients: isotropic scan, then anisotropic and diagonal
        n = 0;
        for (int k = -64; k <= 8 * 64; k += 1) {
            float g = exp2f(k / 64.0f) / W;
            c[2 * n] = C4{0.3f, 0.6f, g, 0};
            c[2 * n + 1] = C4{0, g, 0, 0};
            n++;
        }
        lcg_state = 99 + cfg;
        for (int k = 0; k < 300; ++k) {
            float s = exp2f(rnd01() * 8 - 1) / W;
            c[2 * n] = C4{0.3f, 0.6f, (rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s};
            c[2 * n + 1] = C4{(rnd01() - 0.5f) * s, (rnd01() - 0.5f) * s, 0, 0};
            n++;
        }
        c[2 * n] = C4{0.3f, 0.6f, 0, 0};
        c[2 * n + 1] = C4{0, 0, 0, 0};
        n++;
        c[2 * n] = C4{0.3f, 0.6f, NAN, 0};
        c[2 * n + 1] = C4{0, 1, 0, 0};
        n++;
        c[2 * n] = C4{0.3f, 0.6f, INFINITY, 0};
        c[2 * n + 1] = C4{0, 1, 0, 0};
        n++;
        run(k2dgrad, t, c, 2 * n, o, n);
        snprintf(sec, sizeof sec, "grad cfg%d", cfg);
        for (int i = 0; i < n; ++i)
            printf("%s: %08x %08x %08x %08x = %08x\n", sec, fb(c[2 * i].z), fb(c[2 * i].w), fb(c[2 * i + 1].x),
                   fb(c[2 * i + 1].y), o[i].x);
        cudaDestroyTextureObject(t);
    }
    // a mip level with texels that vary: level 0 = i, level 1 = 1000 + i: trilinear on real data
    for (int l = 0; l < 2; ++l) {
        cudaArray_t lv;
        CK(cudaGetMipmappedArrayLevel(&lv, ma, l));
        int w = W >> l;
        for (int i = 0; i < w * w; ++i)
            buf[i] = (float)(l * 1000 + i % 97);
        CK(cudaMemcpy2DToArray(lv, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = ma;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    td.mipmapFilterMode = cudaFilterModeLinear;
    td.maxMipmapLevelClamp = 100;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    int n = 0;
    lcg_state = 5;
    for (int k = 0; k < 300; ++k)
        c[n++] = C4{rnd01(), rnd01(), rnd01() * 1.2f - 0.1f, 0};
    run(k2dlod, t, c, n, o);
    print("trilin", c, o, n, 3);
    cudaDestroyTextureObject(t);
    CK(cudaFreeMipmappedArray(ma));
}

static void cubes_layers_gather()
{
    const int S = 4;
    cudaArray_t a;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(S, S, 6), cudaArrayCubemap));
    static float buf[6 * S * S];
    for (int f = 0; f < 6; ++f)
        for (int i = 0; i < S * S; ++i)
            buf[f * S * S + i] = (float)(f * 100 + i);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(buf, S * 4, S, S);
    p.dstArray = a;
    p.extent = make_cudaExtent(S, S, 6);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    const float dirs[][3] = {{1, 0, 0},       {-1, 0, 0},        {0, 1, 0},        {0, -1, 0},       {0, 0, 1},
                             {0, 0, -1},      {1, 1, 0},         {1, -1, 0},       {-1, 1, 0},       {1, 0, 1},
                             {0, 1, 1},       {1, 1, 1},         {-1, -1, -1},     {1, 0.5f, 0.25f}, {1, -0.5f, -0.25f},
                             {0.5f, 1, 0.25f}, {0.5f, -1, 0.25f}, {0.3f, 0.2f, 1},  {0.3f, 0.2f, -1}, {-1, 0.9f, -0.9f},
                             {2, 1.999f, 0},  {0, 0, 0},         {NAN, 0, 1},      {INFINITY, 1, 0}, {1, 1, -1},
                             {1, -1, 1},      {-1, 1, 1},        {1, 1e-30f, 0},   {-0.0f, 0, -0.0f}, {0.0f, -0.0f, 0}};
    int nd = sizeof(dirs) / sizeof(dirs[0]);
    for (int cfg = 0; cfg < 3; ++cfg) {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
        td.filterMode = cfg ? cudaFilterModeLinear : cudaFilterModePoint;
        td.normalizedCoords = 1;
        td.seamlessCubemap = cfg == 2;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        int n = 0;
        for (int i = 0; i < nd; ++i)
            c[n++] = C4{dirs[i][0], dirs[i][1], dirs[i][2], 0};
        lcg_state = 31;
        for (int i = 0; i < 300; ++i)
            c[n++] = C4{rnd01() * 2 - 1, rnd01() * 2 - 1, rnd01() * 2 - 1, 0};
        run(kcube, t, c, n, o);
        char sec[32];
        snprintf(sec, sizeof sec, "cube cfg%d", cfg);
        print(sec, c, o, n, 3);
        cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
    // layered 2D: 3 layers of 4x4; layer index out of range
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(S, S, 3), cudaArrayLayered));
    p.dstArray = a;
    p.extent = make_cudaExtent(S, S, 3);
    CK(cudaMemcpy3D(&p));
    cudaTextureObject_t t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    int n = 0;
    const int layers[] = {0, 1, 2, 3, 4, -1, -2, 1000, (int)0x80000000, 0x7fffffff, 65535, 65536};
    for (int i = 0; i < 12; ++i)
        c[n++] = C4{1.5f, 2.5f, bf((uint32_t)layers[i]), 0};
    run(ka2d, t, c, n, o);
    print("a2d layer", c, o, n, 3);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // gather: 4x4 float, texel = y*4+x; and a float4 texture's four components
    a = array2d(cd, S, S, buf, 4);
    for (int am = 0; am < 4; ++am) {
        float border[4] = {-7, -8, -9, -10};
        t = texobj(a, (cudaTextureAddressMode)am, cudaFilterModePoint, cudaReadModeElementType, 1, 0, border);
        n = 0;
        const float gx[] = {0.0f, 0.125f, 0.25f, 0.3f, 0.5f, 0.9f, 1.0f, 1.1f, -0.1f, 0.37f, 0.01f, 0.99f};
        for (int i = 0; i < 12; ++i)
            for (int j = 0; j < 12; j += 3)
                c[n++] = C4{gx[i], gx[j], 0, 0};
        run(kgather<0>, t, c, n, o);
        char sec[32];
        snprintf(sec, sizeof sec, "gather %s", amname[am]);
        print(sec, c, o, n, 2);
        cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
    float f4[4 * 4 * 4];
    for (int i = 0; i < 64; ++i)
        f4[i] = (float)i;
    a = array2d(cudaCreateChannelDesc<float4>(), 4, 4, f4, 16);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
    c[0] = C4{0.4f, 0.6f, 0, 0};
    run(kgather<0>, t, c, 1, o);
    print("gather4 c0", c, o, 1, 2);
    run(kgather<1>, t, c, 1, o);
    print("gather4 c1", c, o, 1, 2);
    run(kgather<2>, t, c, 1, o);
    print("gather4 c2", c, o, 1, 2);
    run(kgather<3>, t, c, 1, o);
    print("gather4 c3", c, o, 1, 2);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
    // uchar4 gather with normalized read
    uint8_t u4[64];
    for (int i = 0; i < 64; ++i)
        u4[i] = (uint8_t)(i * 4 + 1);
    a = array2d(cudaCreateChannelDesc<uchar4>(), 4, 4, u4, 4);
    t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 1);
    run(kgather<1>, t, c, 1, o);
    print("gather uchar4 c1", c, o, 1, 2);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
}

static void queries_surfaces()
{
    uint32_t *dq;
    CK(cudaMalloc(&dq, 64));
    struct {
        cudaChannelFormatDesc cd;
        int w, h, d, flags;
    } objs[] = {
        {cudaCreateChannelDesc<float>(), 7, 5, 0, 0},
        {cudaCreateChannelDesc<uchar4>(), 9, 0, 0, 0},
        {cudaCreateChannelDesc<short2>(), 3, 4, 5, 0},
        {cudaCreateChannelDesc<float4>(), 6, 2, 3, cudaArrayLayered},
        {cudaCreateChannelDescHalf2(), 8, 8, 6, cudaArrayCubemap | cudaArraySurfaceLoadStore},
        {cudaCreateChannelDesc<unsigned int>(), 11, 13, 0, cudaArraySurfaceLoadStore},
        {cudaCreateChannelDesc<char>(), 11, 13, 0, cudaArraySurfaceLoadStore},
        {cudaCreateChannelDesc<ushort4>(), 5, 0, 2, cudaArraySurfaceLoadStore | cudaArrayLayered},
    };
    for (int i = 0; i < 8; ++i) {
        cudaArray_t a;
        CK(cudaMalloc3DArray(&a, &objs[i].cd, make_cudaExtent(objs[i].w, objs[i].h, objs[i].d), objs[i].flags));
        for (int rm = 0; rm < 2; ++rm) {
            if (rm && (objs[i].cd.f == cudaChannelFormatKindFloat))
                continue;
            cudaTextureObject_t t =
                texobj(a, cudaAddressModeMirror, cudaFilterModePoint, rm ? cudaReadModeNormalizedFloat : cudaReadModeElementType, 1);
            char what[32];
            snprintf(what, sizeof what, "txq obj%d rm%d", i, rm);
            kquery(what, t);
            cudaDestroyTextureObject(t);
        }
        if (objs[i].flags & cudaArraySurfaceLoadStore) {
            cudaResourceDesc rd = {};
            rd.resType = cudaResourceTypeArray;
            rd.res.array.array = a;
            cudaSurfaceObject_t s;
            CK(cudaCreateSurfaceObject(&s, &rd));
            char what[32];
            snprintf(what, sizeof what, "suq obj%d", i);
            ksquery(what, s);
            cudaDestroySurfaceObject(s);
        }
        cudaFreeArray(a);
    }
    // a texture with LINEAR filter / wrap, unnormalized, 3 mip levels
    {
        cudaMipmappedArray_t ma;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
        CK(cudaMallocMipmappedArray(&ma, &cd, make_cudaExtent(16, 8, 0), 3));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        rd.res.mipmap.mipmap = ma;
        cudaTextureDesc td = {};
        td.addressMode[0] = cudaAddressModeWrap;
        td.addressMode[1] = cudaAddressModeBorder;
        td.filterMode = cudaFilterModeLinear;
        td.normalizedCoords = 1;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        kquery("txq mip", t);
        cudaDestroyTextureObject(t);
        cudaFreeMipmappedArray(ma);
    }
    // linear memory texture
    {
        float *lin;
        CK(cudaMalloc(&lin, 4096));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = lin;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        rd.res.linear.sizeInBytes = 4000;
        cudaTextureDesc td = {};
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        kquery("txq linear", t);
        cudaDestroyTextureObject(t);
        cudaFree(lin);
    }
    // surface boundary modes: 2D uint 11x13, texel (x,y) = y*100+x
    cudaArray_t a;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned int>();
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(11, 13, 0), cudaArraySurfaceLoadStore));
    uint32_t buf[11 * 13];
    for (int i = 0; i < 11 * 13; ++i)
        buf[i] = (i / 11) * 100 + i % 11;
    CK(cudaMemcpy2DToArray(a, 0, 0, buf, 44, 44, 13, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    const int xs[] = {0, 4, 40, 44, 48, -4, -1, -8, 1000, 2, 6, 43};
    const int ys[] = {0, 12, 13, -1, 100};
    int n = 0;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 5; ++j)
            c[n++] = C4{bf((uint32_t)xs[i]), bf((uint32_t)ys[j]), 0, 0};
    CK(cudaMemcpy(dc, c, n * sizeof(C4), cudaMemcpyHostToDevice));
    ksuld<<<1, 64>>>(s, dc, dout, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("suld modes: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
        CK(cudaMemcpy(o, dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i)
            printf("suld x=%d y=%d: zero %08x clamp %08x\n", (int)fb(c[i].x), (int)fb(c[i].y), o[i].x, o[i].y);
    }
    // writes: clamp and zero out of range, then read the array back
    const int wx[] = {-4, 44, 1000, 40, 2};
    const int wy[] = {0, 3, 5, -2, 13};
    for (int i = 0; i < 5; ++i)
        for (int mode = 0; mode < 2; ++mode) {
            ksust<<<1, 1>>>(s, wx[i], wy[i], 0xA0000000u | (i << 4) | mode, mode);
            e = cudaDeviceSynchronize();
            printf("sust x=%d y=%d mode=%d: %s\n", wx[i], wy[i], mode, cudaGetErrorName(e));
        }
    CK(cudaMemcpy2DFromArray(buf, 44, a, 0, 0, 44, 13, cudaMemcpyDeviceToHost));
    printf("after sust:");
    for (int i = 0; i < 11 * 13; ++i)
        printf(" %x", buf[i]);
    printf("\n");
    cudaDestroySurfaceObject(s);
    cudaFreeArray(a);
    cudaFree(dq);
}

static int fault(const char *what)
{
    uint32_t *dq;
    CK(cudaMalloc(&dq, 64));
    cudaArray_t a;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned int>();
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(11, 13, 0), cudaArraySurfaceLoadStore));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    cudaTextureObject_t t = texobj(a, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    C4 one = {1, 1, 0, 0};
    CK(cudaMemcpy(dc, &one, sizeof one, cudaMemcpyHostToDevice));
    if (!strcmp(what, "suld_trap"))
        ksuld_trap<<<1, 1>>>(s, 44, 0, dq);
    else if (!strcmp(what, "suld_trap_y"))
        ksuld_trap<<<1, 1>>>(s, 0, 13, dq);
    else if (!strcmp(what, "suld_trap_neg"))
        ksuld_trap<<<1, 1>>>(s, -4, 0, dq);
    else if (!strcmp(what, "suld_unaligned"))
        ksuld_trap<<<1, 1>>>(s, 2, 0, dq);
    else if (!strcmp(what, "sust_trap"))
        ksust<<<1, 1>>>(s, 44, 0, 1, 2);
    else if (!strcmp(what, "sured_trap"))
        ksured<<<1, 1>>>(s, 44, 1);
    else if (!strcmp(what, "tex_destroyed")) {
        CK(cudaDestroyTextureObject(t));
        k1du<<<1, 1>>>(t, dc, dout, 1);
    } else if (!strcmp(what, "tex_forged"))
        k1du<<<1, 1>>>((cudaTextureObject_t)0x123456, dc, dout, 1);
    else if (!strcmp(what, "tex_zero"))
        k1du<<<1, 1>>>((cudaTextureObject_t)0, dc, dout, 1);
    else if (!strcmp(what, "suld_destroyed")) {
        CK(cudaDestroySurfaceObject(s));
        ksuld_trap<<<1, 1>>>(s, 0, 0, dq);
    } else if (!strcmp(what, "suld_on_tex"))
        ksuld_trap<<<1, 1>>>((cudaSurfaceObject_t)t, 0, 0, dq);
    else if (!strcmp(what, "tex_on_surf"))
        k1du<<<1, 1>>>((cudaTextureObject_t)s, dc, dout, 1);
    else if (!strcmp(what, "txq_destroyed")) {
        CK(cudaDestroyTextureObject(t));
        query("destroyed", "txq.width", t);
    }
    cudaError_t e1 = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t e2 = cudaMalloc(&dq, 64);
    uint32_t v = 0;
    cudaMemcpy(&v, dq, 4, cudaMemcpyDeviceToHost);
    uint4 ov = {};
    cudaMemcpy(&ov, dout, 16, cudaMemcpyDeviceToHost);
    printf("fault %s: launch %s sync %s after %s value %08x tex %08x %08x %08x %08x\n", what, cudaGetErrorName(e1),
           cudaGetErrorName(e), cudaGetErrorName(e2), v, ov.x, ov.y, ov.z, ov.w);
    return 0;
}

int main(int argc, char **argv)
{
    CK(cudaMalloc(&dc, MAXN * sizeof(C4)));
    CK(cudaMalloc(&dout, MAXN * sizeof(uint4)));
    if (argc > 1)
        return fault(argv[1]);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s sm_%d%d\n", p.name, p.major, p.minor);
    address_modes();
    weights();
    combine();
    read_modes();
    mips();
    cubes_layers_gather();
    queries_surfaces();
    return 0;
}
