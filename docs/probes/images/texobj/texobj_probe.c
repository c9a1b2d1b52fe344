/* Texture and surface objects on NVIDIA's driver: every descriptor check's code, the getters'
 * answers, lifetimes, and what is left of texture references. Built against NVIDIA's headers:
 *   gcc -O0 -I/usr/local/cuda/include texobj_probe.c -lcuda -o texobj_probe && ./texobj_probe
 * (run.sh beside this file is the command the device machine ran). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static const char *nm(CUresult r) { const char *s = 0; cuGetErrorName(r, &s); return s ? s : "?"; }
#define P(label, call) do { CUresult r_ = (call); printf("%-64s %d %s\n", label, (int)r_, nm(r_)); fflush(stdout); } while (0)
#define CK(call) do { CUresult r_ = (call); if (r_) { printf("SETUP FAIL %s line %d: %d %s\n", #call, __LINE__, r_, nm(r_)); exit(1); } } while (0)

static CUdeviceptr d;      /* 1 MiB */
static CUDA_TEXTURE_DESC td0;

static CUDA_RESOURCE_DESC lin(CUdeviceptr p, CUarray_format f, unsigned ch, size_t sz)
{
    CUDA_RESOURCE_DESC r; memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_LINEAR; r.res.linear.devPtr = p; r.res.linear.format = f;
    r.res.linear.numChannels = ch; r.res.linear.sizeInBytes = sz; return r;
}
static CUDA_RESOURCE_DESC p2d(CUdeviceptr p, CUarray_format f, unsigned ch, size_t w, size_t h, size_t pitch)
{
    CUDA_RESOURCE_DESC r; memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_PITCH2D; r.res.pitch2D.devPtr = p; r.res.pitch2D.format = f;
    r.res.pitch2D.numChannels = ch; r.res.pitch2D.width = w; r.res.pitch2D.height = h; r.res.pitch2D.pitchInBytes = pitch;
    return r;
}
static CUDA_RESOURCE_DESC arr(CUarray a)
{
    CUDA_RESOURCE_DESC r; memset(&r, 0, sizeof r); r.resType = CU_RESOURCE_TYPE_ARRAY; r.res.array.hArray = a; return r;
}
static CUDA_RESOURCE_DESC mip(CUmipmappedArray m)
{
    CUDA_RESOURCE_DESC r; memset(&r, 0, sizeof r); r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY; r.res.mipmap.hMipmappedArray = m; return r;
}
/* Creates, prints, destroys. */
static void T(const char *label, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *tdp, const CUDA_RESOURCE_VIEW_DESC *vd)
{
    CUtexObject t = 0;
    CUresult r = cuTexObjectCreate(&t, rd, tdp, vd);
    printf("%-64s %d %s\n", label, (int)r, nm(r)); fflush(stdout);
    if (r == CUDA_SUCCESS) cuTexObjectDestroy(t);
}
static CUarray mkarr(size_t w, size_t h, size_t dd, CUarray_format f, unsigned ch, unsigned flags)
{
    CUDA_ARRAY3D_DESCRIPTOR a; memset(&a, 0, sizeof a);
    a.Width = w; a.Height = h; a.Depth = dd; a.Format = f; a.NumChannels = ch; a.Flags = flags;
    CUarray h_ = 0; CUresult r = cuArray3DCreate(&h_, &a);
    if (r) { printf("array %zux%zux%zu f%x c%u fl%x: %d %s\n", w, h, dd, f, ch, flags, r, nm(r)); return 0; }
    return h_;
}
static void print_td(const char *label, const CUDA_TEXTURE_DESC *t)
{
    printf("%s: addr %d %d %d filter %d flags 0x%x aniso %u mipfilter %d bias %g clamp %g %g border %g %g %g %g reserved0 %d\n",
           label, t->addressMode[0], t->addressMode[1], t->addressMode[2], t->filterMode, t->flags, t->maxAnisotropy,
           t->mipmapFilterMode, t->mipmapLevelBias, t->minMipmapLevelClamp, t->maxMipmapLevelClamp,
           t->borderColor[0], t->borderColor[1], t->borderColor[2], t->borderColor[3], t->reserved[0]); fflush(stdout);
}
static void print_rd(const char *label, const CUDA_RESOURCE_DESC *r)
{
    printf("%s: type %d flags %u", label, r->resType, r->flags);
    if (r->resType == CU_RESOURCE_TYPE_LINEAR)
        printf(" ptr+%lld fmt 0x%x ch %u size %zu", (long long)(r->res.linear.devPtr - d), r->res.linear.format, r->res.linear.numChannels, r->res.linear.sizeInBytes);
    if (r->resType == CU_RESOURCE_TYPE_PITCH2D)
        printf(" ptr+%lld fmt 0x%x ch %u w %zu h %zu pitch %zu", (long long)(r->res.pitch2D.devPtr - d), r->res.pitch2D.format, r->res.pitch2D.numChannels, r->res.pitch2D.width, r->res.pitch2D.height, r->res.pitch2D.pitchInBytes);
    if (r->resType == CU_RESOURCE_TYPE_ARRAY) printf(" array %p", (void *)r->res.array.hArray);
    if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) printf(" mipmap %p", (void *)r->res.mipmap.hMipmappedArray);
    printf("\n"); fflush(stdout);
}
static void print_vd(const char *label, const CUDA_RESOURCE_VIEW_DESC *v)
{
    printf("%s: fmt 0x%x w %zu h %zu d %zu mip %u..%u layer %u..%u\n", label, v->format, v->width, v->height, v->depth,
           v->firstMipmapLevel, v->lastMipmapLevel, v->firstLayer, v->lastLayer); fflush(stdout);
}

static const char *ptx_fetch =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 t, .param .u64 out)\n{\n .reg .u64 %rd<4>;\n .reg .b32 %r<8>;\n"
    " ld.param.u64 %rd1, [t];\n ld.param.u64 %rd2, [out];\n mov.b32 %r5, 1;\n"
    " tex.2d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r5}];\n st.global.u32 [%rd2], %r1;\n ret;\n}\n";
static const char *ptx_texref =
    ".version 8.0\n.target sm_90\n.address_size 64\n.global .texref tr;\n.global .surfref sr;\n"
    ".visible .entry k(.param .u64 out)\n{\n .reg .u64 %rd<4>;\n .reg .b32 %r<8>;\n"
    " ld.param.u64 %rd2, [out];\n mov.b32 %r5, 1;\n"
    " tex.2d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [tr, {%r5, %r5}];\n st.global.u32 [%rd2], %r1;\n ret;\n}\n";

static void load(const char *label, const char *ptx, CUmodule *m)
{
    char log[4096] = {0};
    CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *v[2] = {log, (void *)(size_t)sizeof log};
    CUresult r = cuModuleLoadDataEx(m, ptx, 2, o, v);
    printf("%-64s %d %s log: %s\n", label, (int)r, nm(r), log); fflush(stdout);
}

int main(int argc, char **argv)
{
    int sec = argc > 1 ? atoi(argv[1]) : 0;
#define SEC(n) if (sec == 0 || sec == (n))
    CUdevice dev; CUcontext ctx;
    CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    int v;
    int version = 0; cuDriverGetVersion(&version); printf("driver version %d\n", version);
#define A(x) cuDeviceGetAttribute(&v, x, dev); printf("attr %-56s %d\n", #x, v)
    A(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT); A(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
    A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH); A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
    A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT); A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
    A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH); A(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
    A(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
    CK(cuMemAlloc(&d, 1 << 20));
    size_t maxw1 = 0; cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, dev); maxw1 = (size_t)v;
    int max2w, max2h, max2p;
    cuDeviceGetAttribute(&max2w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, dev);
    cuDeviceGetAttribute(&max2h, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, dev);
    cuDeviceGetAttribute(&max2p, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, dev);

    CUDA_TEXTURE_DESC td; memset(&td0, 0, sizeof td0);
    CUDA_RESOURCE_DESC rd = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024);
    CUtexObject t = 0;
    SEC(1) {
    printf("== create: arguments\n");
    P("create pTexObject NULL", cuTexObjectCreate(NULL, &rd, &td0, NULL));
    P("create pResDesc NULL", cuTexObjectCreate(&t, NULL, &td0, NULL));
    T("create pTexDesc NULL (linear)", &rd, NULL, NULL);
    { CUDA_RESOURCE_DESC b = rd; b.resType = (CUresourcetype)4; T("resType 4", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = rd; b.resType = (CUresourcetype)0x7fffffff; T("resType 0x7fffffff", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = rd; b.flags = 1; T("resDesc.flags 1", &b, &td0, NULL); }
    T("linear ok float1 1024 bytes", &rd, &td0, NULL);
    printf("== linear\n");
    { CUDA_RESOURCE_DESC b = lin(0, CU_AD_FORMAT_FLOAT, 1, 1024); T("linear devPtr 0", &b, &td0, NULL); }
    { size_t offs[] = {1, 4, 16, 64, 128, 256, 512}; char l[80];
      for (unsigned i = 0; i < sizeof offs / sizeof offs[0]; ++i) { CUDA_RESOURCE_DESC b = lin(d + offs[i], CU_AD_FORMAT_FLOAT, 1, 1024); snprintf(l, sizeof l, "linear devPtr d+%zu", offs[i]); T(l, &b, &td0, NULL); } }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, 0); T("linear size 0", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, 6); T("linear size 6 (not multiple of 4)", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, 2); T("linear size 2 (less than one element)", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, maxw1 * 4); T("linear size maxw*4", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, maxw1 * 4 + 4); T("linear size maxw*4+4", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, maxw1); T("linear u8 size maxw", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, maxw1 + 1); T("linear u8 size maxw+1", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 4, maxw1 * 16 + 16); T("linear float4 size maxw*16+16", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, 1, (2u << 20)); T("linear size past the allocation (2 MiB of 1)", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(d + (1 << 20) - 256, CU_AD_FORMAT_FLOAT, 1, 1024); T("linear last 256 bytes + 768 past", &b, &td0, NULL); }
    { unsigned chs[] = {0, 3, 5}; char l[80];
      for (unsigned i = 0; i < 3; ++i) { CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_FLOAT, chs[i], 1536); snprintf(l, sizeof l, "linear channels %u", chs[i]); T(l, &b, &td0, NULL); } }
    { unsigned fmts[] = {0x00, 0x01, 0x02, 0x03, 0x08, 0x09, 0x0a, 0x10, 0x20, 0x50, 0x91, 0x97, 0x9f, 0xb0, 0xc0, 0xc2, 0xc6, 0xcb, 0x7}; char l[80];
      for (unsigned i = 0; i < sizeof fmts / sizeof fmts[0]; ++i)
        for (unsigned c = 1; c <= 4; c *= 2) { CUDA_RESOURCE_DESC b = lin(d, (CUarray_format)fmts[i], c, 4096); snprintf(l, sizeof l, "linear format 0x%x channels %u", fmts[i], c); T(l, &b, &td0, NULL); } }
    { void *h = malloc(4096); CUDA_RESOURCE_DESC b = lin((CUdeviceptr)(((size_t)h + 511) & ~(size_t)511), CU_AD_FORMAT_FLOAT, 1, 1024); T("linear host malloc pointer", &b, &td0, NULL); free(h); }
    { CUdeviceptr f; CK(cuMemAlloc(&f, 1 << 16)); CK(cuMemFree(f)); CUDA_RESOURCE_DESC b = lin(f, CU_AD_FORMAT_FLOAT, 1, 1024); T("linear freed pointer", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = lin(0x10000000000ull, CU_AD_FORMAT_FLOAT, 1, 1024); T("linear forged pointer 0x10000000000", &b, &td0, NULL); }

    printf("== pitch2D\n");
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128); T("pitch2D ok 16x16 pitch 128", &b, &td0, NULL); }
    { size_t ps[] = {64, 68, 96, 100, 256}; char l[80];
      for (unsigned i = 0; i < 5; ++i) { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, ps[i]); snprintf(l, sizeof l, "pitch2D 16x16 float pitch %zu", ps[i]); T(l, &b, &td0, NULL); } }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 40, 16, 128); T("pitch2D width*4 160 > pitch 128", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 0, 16, 128); T("pitch2D width 0", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 0, 128); T("pitch2D height 0", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 0); T("pitch2D pitch 0", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 1, 1, 128); T("pitch2D 1x1", &b, &td0, NULL); }
    { size_t offs[] = {4, 16, 32, 64, 128, 256}; char l[80];
      for (unsigned i = 0; i < 6; ++i) { CUDA_RESOURCE_DESC b = p2d(d + offs[i], CU_AD_FORMAT_FLOAT, 1, 16, 16, 128); snprintf(l, sizeof l, "pitch2D devPtr d+%zu", offs[i]); T(l, &b, &td0, NULL); } }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, max2w, 2, ((size_t)max2w + 127) & ~(size_t)127); T("pitch2D width max", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, max2w + 1, 2, ((size_t)max2w + 1 + 127) & ~(size_t)127); T("pitch2D width max+1", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, max2h, 128); T("pitch2D height max", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, max2h + 1, 128); T("pitch2D height max+1", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, max2p); T("pitch2D pitch max", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, (size_t)max2p + 128); T("pitch2D pitch max+128", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 3, 16, 16, 256); T("pitch2D channels 3", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16384, 128); T("pitch2D past the allocation (2 MiB of 1)", &b, &td0, NULL); }
    { CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_BC1_UNORM, 1, 16, 16, 128); T("pitch2D BC1", &b, &td0, NULL); }

    printf("== texture descriptor\n");
    { unsigned m; char l[80];
      for (m = 0; m < 6; ++m) { td = td0; td.addressMode[0] = (CUaddress_mode)m; snprintf(l, sizeof l, "addressMode[0] %u (linear)", m); T(l, &rd, &td, NULL); }
      for (m = 0; m < 6; ++m) { td = td0; td.addressMode[2] = (CUaddress_mode)m; CUDA_RESOURCE_DESC b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128); snprintf(l, sizeof l, "addressMode[2] %u (pitch2D)", m); T(l, &b, &td, NULL); }
      for (m = 0; m < 4; ++m) { td = td0; td.filterMode = (CUfilter_mode)m; snprintf(l, sizeof l, "filterMode %u (linear float)", m); T(l, &rd, &td, NULL); }
      for (m = 0; m < 4; ++m) { td = td0; td.mipmapFilterMode = (CUfilter_mode)m; snprintf(l, sizeof l, "mipmapFilterMode %u (linear)", m); T(l, &rd, &td, NULL); }
      for (m = 0; m < 12; ++m) { td = td0; td.flags = 1u << m; snprintf(l, sizeof l, "flags 0x%x (linear float)", 1u << m); T(l, &rd, &td, NULL); }
      td = td0; td.flags = 0x80000000u; T("flags 0x80000000", &rd, &td, NULL);
      unsigned an[] = {0, 1, 2, 16, 17, 100, 0xffffffffu};
      for (m = 0; m < 7; ++m) { td = td0; td.maxAnisotropy = an[m]; snprintf(l, sizeof l, "maxAnisotropy %u", an[m]); T(l, &rd, &td, NULL); }
    }
    { td = td0; td.mipmapLevelBias = NAN; T("mipmapLevelBias NaN", &rd, &td, NULL); }
    { td = td0; td.mipmapLevelBias = 1e30f; T("mipmapLevelBias 1e30", &rd, &td, NULL); }
    { td = td0; td.minMipmapLevelClamp = 5; td.maxMipmapLevelClamp = 1; T("minClamp 5 > maxClamp 1", &rd, &td, NULL); }
    { td = td0; td.minMipmapLevelClamp = -5; td.maxMipmapLevelClamp = -1; T("clamps negative", &rd, &td, NULL); }
    { td = td0; td.minMipmapLevelClamp = NAN; T("minClamp NaN", &rd, &td, NULL); }
    { td = td0; td.borderColor[0] = NAN; td.borderColor[3] = 1e30f; T("borderColor NaN, 1e30", &rd, &td, NULL); }
    { td = td0; td.reserved[0] = 1; T("reserved[0] 1", &rd, &td, NULL); }
    { td = td0; td.reserved[11] = 1; T("reserved[11] 1", &rd, &td, NULL); }
    { unsigned fm[] = {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_SIGNED_INT32, CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT, CU_AD_FORMAT_UNORM_INT8X1};
      char l[96];
      for (unsigned i = 0; i < 7; ++i) for (unsigned fl = 0; fl < 2; ++fl) {
        CUDA_RESOURCE_DESC b = lin(d, (CUarray_format)fm[i], 1, 4096);
        td = td0; td.filterMode = CU_TR_FILTER_MODE_LINEAR; td.flags = fl ? CU_TRSF_READ_AS_INTEGER : 0;
        snprintf(l, sizeof l, "linear filter fmt 0x%x%s (linear res)", fm[i], fl ? " READ_AS_INTEGER" : ""); T(l, &b, &td, NULL);
        b = p2d(d, (CUarray_format)fm[i], 1, 16, 16, 128);
        snprintf(l, sizeof l, "linear filter fmt 0x%x%s (pitch2D res)", fm[i], fl ? " READ_AS_INTEGER" : ""); T(l, &b, &td, NULL); } }
    { td = td0; td.flags = CU_TRSF_SRGB; CUDA_RESOURCE_DESC b = lin(d, CU_AD_FORMAT_UNSIGNED_INT8, 4, 4096); T("SRGB on u8x4 linear", &b, &td, NULL); }
    { td = td0; td.flags = CU_TRSF_SRGB; T("SRGB on float linear", &rd, &td, NULL); }
    { td = td0; td.flags = CU_TRSF_SEAMLESS_CUBEMAP; T("SEAMLESS_CUBEMAP on linear", &rd, &td, NULL); }

    printf("== getters\n");
    { td = td0; td.addressMode[0] = CU_TR_ADDRESS_MODE_MIRROR; td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER; td.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
      td.filterMode = CU_TR_FILTER_MODE_LINEAR; td.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB | CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_READ_AS_INTEGER | 0x8;
      td.maxAnisotropy = 7; td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR; td.mipmapLevelBias = 0.5f; td.minMipmapLevelClamp = 0.25f; td.maxMipmapLevelClamp = 3.5f;
      td.borderColor[0] = 0.1f; td.borderColor[1] = 0.2f; td.borderColor[2] = 0.3f; td.borderColor[3] = 0.4f;
      CUDA_RESOURCE_DESC b = p2d(d + 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 16, 8, 128);
      print_td("given", &td);
      P("create pitch2D with every field", cuTexObjectCreate(&t, &b, &td, NULL));
      CUDA_TEXTURE_DESC g; memset(&g, 0xab, sizeof g);
      P("GetTextureDesc", cuTexObjectGetTextureDesc(&g, t)); print_td("got", &g);
      CUDA_RESOURCE_DESC gr; memset(&gr, 0xab, sizeof gr);
      P("GetResourceDesc", cuTexObjectGetResourceDesc(&gr, t)); print_rd("got", &gr);
      printf("got resource reserved word after pitch2D: 0x%x\n", (unsigned)gr.res.reserved.reserved[10]);
      CUDA_RESOURCE_VIEW_DESC gv; memset(&gv, 0xab, sizeof gv);
      P("GetResourceViewDesc (no view given)", cuTexObjectGetResourceViewDesc(&gv, t)); print_vd("got", &gv);
      P("GetTextureDesc NULL out", cuTexObjectGetTextureDesc(NULL, t));
      P("GetResourceDesc NULL out", cuTexObjectGetResourceDesc(NULL, t));
      P("GetResourceViewDesc NULL out", cuTexObjectGetResourceViewDesc(NULL, t));
      P("destroy", cuTexObjectDestroy(t));
      P("GetTextureDesc destroyed", cuTexObjectGetTextureDesc(&g, t));
      P("GetResourceDesc destroyed", cuTexObjectGetResourceDesc(&gr, t));
      P("GetResourceViewDesc destroyed", cuTexObjectGetResourceViewDesc(&gv, t));
      P("destroy again", cuTexObjectDestroy(t));
      printf("handle value of a texture object: %llu\n", (unsigned long long)t);
      P("destroy 0", cuTexObjectDestroy(0));
      P("destroy forged 0x12345678", cuTexObjectDestroy(0x12345678));
      P("GetTextureDesc 0", cuTexObjectGetTextureDesc(&g, 0));
      P("GetTextureDesc forged 0x12345678", cuTexObjectGetTextureDesc(&g, 0x12345678));
      P("GetResourceDesc forged 0x12345678", cuTexObjectGetResourceDesc(&gr, 0x12345678));
      P("GetResourceViewDesc forged", cuTexObjectGetResourceViewDesc(&gv, 0x12345678));
      td = td0; CUDA_RESOURCE_DESC l1 = lin(d, CU_AD_FORMAT_FLOAT, 2, 1000);
      P("create linear float2 size 1000", cuTexObjectCreate(&t, &l1, &td, NULL));
      memset(&gr, 0xab, sizeof gr); P("GetResourceDesc linear", cuTexObjectGetResourceDesc(&gr, t)); print_rd("got", &gr);
      memset(&g, 0xab, sizeof g); P("GetTextureDesc zero desc", cuTexObjectGetTextureDesc(&g, t)); print_td("got", &g);
      CUtexObject t2 = 0; P("second create", cuTexObjectCreate(&t2, &l1, &td, NULL));
      printf("handle values: %llu %llu\n", (unsigned long long)t, (unsigned long long)t2);
      CUsurfObject s = 0;
      P("surf destroy on a texture object's handle", cuSurfObjectDestroy(t));
      P("surf get resource on a texture object's handle", cuSurfObjectGetResourceDesc(&gr, t));
      cuTexObjectDestroy(t); cuTexObjectDestroy(t2); (void)s;
      CUDA_RESOURCE_DESC ln = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024);
      P("create pTexDesc NULL again", cuTexObjectCreate(&t, &ln, NULL, NULL));
    }

    }
    printf("== arrays and views\n");
    CUarray a2 = mkarr(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
    CUarray a2s = mkarr(64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, CUDA_ARRAY3D_SURFACE_LDST);
    CUarray a1 = mkarr(64, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0);
    CUarray a3 = mkarr(16, 16, 8, CU_AD_FORMAT_FLOAT, 4, 0);
    CUarray al = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED);
    CUarray ac = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
    CUarray ai8 = mkarr(64, 32, 0, CU_AD_FORMAT_SIGNED_INT8, 4, 0);
    CUmipmappedArray mm = 0;
    { CUDA_ARRAY3D_DESCRIPTOR md; memset(&md, 0, sizeof md); md.Width = 64; md.Height = 64; md.Format = CU_AD_FORMAT_FLOAT; md.NumChannels = 4;
      P("mipmapped array 64x64 7 levels", cuMipmappedArrayCreate(&mm, &md, 7)); }
    SEC(2) {
    { CUDA_RESOURCE_DESC b = arr(a2); T("array 2D u32x2", &b, &td0, NULL);
      b = arr(a1); T("array 1D", &b, &td0, NULL); b = arr(a3); T("array 3D", &b, &td0, NULL);
      b = arr(al); T("array layered", &b, &td0, NULL); b = arr(ac); T("array cubemap", &b, &td0, NULL);
      b = arr(0); T("array NULL", &b, &td0, NULL);
      b = mip(mm); T("mipmapped array", &b, &td0, NULL);
      b = mip(0); T("mipmapped NULL", &b, &td0, NULL);
      CUarray lv = 0; P("mipmap level 2", cuMipmappedArrayGetLevel(&lv, mm, 2)); b = arr(lv); T("array resource: a mipmap's level", &b, &td0, NULL);
      td = td0; td.filterMode = CU_TR_FILTER_MODE_LINEAR; b = arr(a2); T("array u32 linear filter", &b, &td, NULL);
      td.flags = CU_TRSF_READ_AS_INTEGER; T("array u32 linear filter READ_AS_INTEGER", &b, &td, NULL);
      b = arr(ai8); T("array s8x4 linear filter READ_AS_INTEGER", &b, &td, NULL);
      td = td0; td.flags = CU_TRSF_SRGB; T("array s8x4 SRGB", &b, &td, NULL);
      td = td0; td.filterMode = CU_TR_FILTER_MODE_LINEAR; td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR; td.maxMipmapLevelClamp = 6; b = mip(mm); T("mipmap linear/linear clamp 6", &b, &td, NULL);
      td.minMipmapLevelClamp = 3; td.maxMipmapLevelClamp = 1; T("mipmap min clamp 3 > max 1", &b, &td, NULL);
      td.minMipmapLevelClamp = 0; td.maxMipmapLevelClamp = 100; T("mipmap max clamp 100", &b, &td, NULL);
      td.minMipmapLevelClamp = -3; td.maxMipmapLevelClamp = 0; T("mipmap min clamp -3", &b, &td, NULL);
      td = td0; td.flags = CU_TRSF_SEAMLESS_CUBEMAP; b = arr(ac); T("cubemap SEAMLESS_CUBEMAP", &b, &td, NULL);
      b = arr(a2); T("2D array SEAMLESS_CUBEMAP", &b, &td, NULL);
    }
    printf("== views\n");
    { CUDA_RESOURCE_VIEW_DESC vd, v0; memset(&v0, 0, sizeof v0);
      CUDA_RESOURCE_DESC b = arr(a2);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; T("view u32x2 64x32 on u32x2 64x32", &b, &td0, &vd);
      vd = v0; T("view all zero on array", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; T("view u32x2 w0 h0", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_2X32; vd.width = 64; vd.height = 32; T("view f32x2 on u32x2", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_SINT_2X32; vd.width = 64; vd.height = 32; T("view s32x2 on u32x2", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_4X16; vd.width = 64; vd.height = 32; T("view u16x4 on u32x2 (same bytes)", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_1X32; vd.width = 128; vd.height = 32; T("view u32x1 w128 on u32x2", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_4X32; vd.width = 32; vd.height = 32; T("view u32x4 w32 on u32x2", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 32; vd.height = 16; T("view u32x2 smaller 32x16", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 65; vd.height = 32; T("view u32x2 wider 65", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 33; T("view u32x2 taller 33", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; vd.depth = 1; T("view depth 1 on 2D", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; vd.depth = 2; T("view depth 2 on 2D", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; vd.lastLayer = 1; T("view lastLayer 1 on 2D", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; vd.firstMipmapLevel = 1; vd.lastMipmapLevel = 1; T("view mip 1..1 on array", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC1; vd.width = 256; vd.height = 128; T("view BC1 256x128 on u32x2 64x32", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC2; vd.width = 256; vd.height = 128; T("view BC2 on u32x2 (8-byte blocks vs 16)", &b, &td0, &vd);
      vd = v0; vd.format = (CUresourceViewFormat)0x23; vd.width = 64; vd.height = 32; T("view format 0x23", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_2X32; vd.width = 64; vd.height = 32; vd.reserved[0] = 1; T("view reserved[0] 1", &b, &td0, &vd);
      b = arr(ai8);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_4X8; vd.width = 64; vd.height = 32; T("view u8x4 on s8x4", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_1X32; vd.width = 64; vd.height = 32; T("view u32x1 on s8x4", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32; vd.width = 64; vd.height = 32; T("view f32x1 on s8x4", &b, &td0, &vd);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_2X16; vd.width = 64; vd.height = 32; T("view f16x2 on s8x4", &b, &td0, &vd);
      b = arr(al);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32; vd.width = 16; vd.height = 16; vd.depth = 6; vd.firstLayer = 2; vd.lastLayer = 4; T("view layers 2..4 of 6 depth 6", &b, &td0, &vd);
      vd.depth = 3; T("view layers 2..4 depth 3", &b, &td0, &vd);
      vd.depth = 0; T("view layers 2..4 depth 0", &b, &td0, &vd);
      vd.firstLayer = 4; vd.lastLayer = 2; T("view layers 4..2", &b, &td0, &vd);
      vd.firstLayer = 5; vd.lastLayer = 6; vd.depth = 6; T("view layers 5..6 of 6", &b, &td0, &vd);
      b = mip(mm);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_4X32; vd.width = 64; vd.height = 64; vd.firstMipmapLevel = 1; vd.lastMipmapLevel = 4; T("view mip 1..4 of 7, level-0 extent", &b, &td0, &vd);
      vd.width = 32; vd.height = 32; T("view mip 1..4 of 7, level-1 extent", &b, &td0, &vd);
      vd.width = 64; vd.height = 64; vd.firstMipmapLevel = 4; vd.lastMipmapLevel = 1; T("view mip 4..1", &b, &td0, &vd);
      vd.firstMipmapLevel = 0; vd.lastMipmapLevel = 7; T("view mip 0..7 of 7", &b, &td0, &vd);
      vd.firstMipmapLevel = 0; vd.lastMipmapLevel = 6; T("view mip 0..6 of 7", &b, &td0, &vd);
      b = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32; vd.width = 256; T("view on linear", &b, &td0, &vd);
      b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32; vd.width = 16; vd.height = 16; T("view on pitch2D", &b, &td0, &vd);
      b = mip(mm);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_FLOAT_4X32; vd.width = 64; vd.height = 64; vd.firstMipmapLevel = 2; vd.lastMipmapLevel = 5;
      CUtexObject tv = 0; P("create with mip view 2..5", cuTexObjectCreate(&tv, &b, &td0, &vd));
      CUDA_RESOURCE_VIEW_DESC gv; memset(&gv, 0xab, sizeof gv);
      P("GetResourceViewDesc", cuTexObjectGetResourceViewDesc(&gv, tv)); print_vd("got", &gv);
      cuTexObjectDestroy(tv);
      b = arr(a2);
      vd = v0; vd.format = CU_RES_VIEW_FORMAT_UINT_4X16; vd.width = 64; vd.height = 32;
      P("create with view u16x4 on u32x2", cuTexObjectCreate(&tv, &b, &td0, &vd));
      memset(&gv, 0xab, sizeof gv); P("GetResourceViewDesc", cuTexObjectGetResourceViewDesc(&gv, tv)); print_vd("got", &gv);
      cuTexObjectDestroy(tv);
    }

    printf("== surfaces\n");
    { CUsurfObject s = 0; CUDA_RESOURCE_DESC b = arr(a2s);
      P("surf pResDesc NULL", cuSurfObjectCreate(&s, NULL));
      P("surf on SURFACE_LDST array", cuSurfObjectCreate(&s, &b));
      CUDA_RESOURCE_DESC gr; memset(&gr, 0xab, sizeof gr);
      P("surf GetResourceDesc", cuSurfObjectGetResourceDesc(&gr, s)); print_rd("got", &gr);
      P("surf GetResourceDesc NULL", cuSurfObjectGetResourceDesc(NULL, s));
      printf("surface handle value %llu\n", (unsigned long long)s);
      CUDA_TEXTURE_DESC g; P("tex GetTextureDesc on a surface handle", cuTexObjectGetTextureDesc(&g, s));
      P("tex destroy on a surface handle", cuTexObjectDestroy(s));
      P("surf destroy", cuSurfObjectDestroy(s));
      P("surf destroy again", cuSurfObjectDestroy(s));
      P("surf GetResourceDesc destroyed", cuSurfObjectGetResourceDesc(&gr, s));
      P("surf destroy 0", cuSurfObjectDestroy(0));
      P("surf destroy forged", cuSurfObjectDestroy(0x12345678));
      P("surf GetResourceDesc 0", cuSurfObjectGetResourceDesc(&gr, 0));
      b = arr(a2); P("surf on array without SURFACE_LDST", cuSurfObjectCreate(&s, &b));
      b.flags = 1; b.res.array.hArray = a2s; P("surf flags 1", cuSurfObjectCreate(&s, &b));
      b = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024); P("surf on linear", cuSurfObjectCreate(&s, &b));
      b = p2d(d, CU_AD_FORMAT_FLOAT, 1, 16, 16, 128); P("surf on pitch2D", cuSurfObjectCreate(&s, &b));
      b = mip(mm); P("surf on mipmapped array", cuSurfObjectCreate(&s, &b));
      b = arr(0); P("surf array NULL", cuSurfObjectCreate(&s, &b));
      b.resType = (CUresourcetype)9; P("surf resType 9", cuSurfObjectCreate(&s, &b));
      CUmipmappedArray ms = 0; CUDA_ARRAY3D_DESCRIPTOR md; memset(&md, 0, sizeof md); md.Width = 32; md.Height = 32; md.Format = CU_AD_FORMAT_FLOAT; md.NumChannels = 1; md.Flags = CUDA_ARRAY3D_SURFACE_LDST;
      P("mipmapped SURFACE_LDST", cuMipmappedArrayCreate(&ms, &md, 3));
      CUarray lv = 0; P("its level 1", cuMipmappedArrayGetLevel(&lv, ms, 1));
      b = arr(lv); P("surf on a SURFACE_LDST mipmap's level", cuSurfObjectCreate(&s, &b)); if (s) cuSurfObjectDestroy(s);
      b = mip(ms); s = 0; P("surf on a SURFACE_LDST mipmapped array", cuSurfObjectCreate(&s, &b)); if (s) cuSurfObjectDestroy(s);
      cuMipmappedArrayDestroy(ms);
      CUarray a3s = mkarr(8, 8, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_LAYERED);
      b = arr(a3s); s = 0; P("surf on layered SURFACE_LDST", cuSurfObjectCreate(&s, &b)); if (s) cuSurfObjectDestroy(s);
      cuArrayDestroy(a3s);
    }

    }
    SEC(3) {
    printf("== lifetime: the array destroyed under a texture object\n");
    { CUarray la = mkarr(4, 4, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST);
      unsigned hv[16]; for (int i = 0; i < 16; ++i) hv[i] = 100 + i;
      { CUDA_MEMCPY2D c; memset(&c, 0, sizeof c); c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = hv; c.srcPitch = 16; c.dstMemoryType = CU_MEMORYTYPE_ARRAY; c.dstArray = la; c.WidthInBytes = 16; c.Height = 4; CK(cuMemcpy2D(&c)); }
      CUDA_RESOURCE_DESC b = arr(la); CUtexObject lt = 0; CUsurfObject ls = 0;
      CK(cuTexObjectCreate(&lt, &b, &td0, NULL)); CK(cuSurfObjectCreate(&ls, &b));
      CUmodule m = 0; load("load fetch kernel", ptx_fetch, &m);
      CUfunction k = 0; CK(cuModuleGetFunction(&k, m, "k"));
      CUdeviceptr out; CK(cuMemAlloc(&out, 64)); CK(cuMemsetD32(out, 0xdeadbeef, 1));
      void *args[] = {&lt, &out};
      P("launch before destroy", cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL)); P("sync", cuCtxSynchronize());
      unsigned got = 0; cuMemcpyDtoH(&got, out, 4); printf("fetch (1,1) before: %u\n", got);
      P("cuArrayDestroy under live texture and surface objects", cuArrayDestroy(la));
      CUDA_RESOURCE_DESC gr; memset(&gr, 0, sizeof gr);
      P("GetResourceDesc after the array's destroy", cuTexObjectGetResourceDesc(&gr, lt)); print_rd("got", &gr);
      P("surf GetResourceDesc after the array's destroy", cuSurfObjectGetResourceDesc(&gr, ls));
      CK(cuMemsetD32(out, 0xdeadbeef, 1));
      /* Fill fresh memory so a reused allocation shows. */
      CUarray other = mkarr(4, 4, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0);
      unsigned hv2[16]; for (int i = 0; i < 16; ++i) hv2[i] = 900 + i; { CUDA_MEMCPY2D c; memset(&c, 0, sizeof c); c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = hv2; c.srcPitch = 16; c.dstMemoryType = CU_MEMORYTYPE_ARRAY; c.dstArray = other; c.WidthInBytes = 16; c.Height = 4; cuMemcpy2D(&c); }
      P("launch after destroy", cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL)); P("sync", cuCtxSynchronize());
      got = 0; P("read", cuMemcpyDtoH(&got, out, 4)); printf("fetch (1,1) after: %u\n", got);
      P("texture destroy after the array's", cuTexObjectDestroy(lt));
      P("surface destroy after the array's", cuSurfObjectDestroy(ls));
      cuArrayDestroy(other); cuMemFree(out); cuModuleUnload(m);
    }
    { CUdeviceptr fm; CK(cuMemAlloc(&fm, 1 << 16)); CUDA_RESOURCE_DESC b = lin(fm, CU_AD_FORMAT_FLOAT, 1, 1024); CUtexObject lt = 0;
      CK(cuTexObjectCreate(&lt, &b, &td0, NULL));
      P("cuMemFree under a linear texture object", cuMemFree(fm));
      CUDA_RESOURCE_DESC gr; P("GetResourceDesc after the memory's free", cuTexObjectGetResourceDesc(&gr, lt));
      P("destroy after the memory's free", cuTexObjectDestroy(lt)); }
    { CUDA_RESOURCE_DESC b = mip(mm); CUtexObject lt = 0; CK(cuTexObjectCreate(&lt, &b, &td0, NULL));
      P("cuMipmappedArrayDestroy under a texture object", cuMipmappedArrayDestroy(mm));
      P("destroy texture after", cuTexObjectDestroy(lt)); }

    }
    SEC(4) {
    printf("== texture references\n");
    { CUtexref tr = 0; CUsurfref sr = 0;
      P("cuTexRefCreate", cuTexRefCreate(&tr));
      printf("texref %p\n", (void *)tr);
      if (tr) { P("cuTexRefSetArray", cuTexRefSetArray(tr, a2, CU_TRSA_OVERRIDE_FORMAT)); P("cuTexRefDestroy", cuTexRefDestroy(tr)); }
      P("cuTexRefCreate NULL", cuTexRefCreate(NULL));
      P("cuTexRefSetArray on NULL texref", cuTexRefSetArray(NULL, a2, CU_TRSA_OVERRIDE_FORMAT));
      size_t off = 0;
      P("cuTexRefSetAddress_v2 on NULL texref", cuTexRefSetAddress(&off, NULL, d, 1024));
      P("cuTexRefSetFormat on NULL texref", cuTexRefSetFormat(NULL, CU_AD_FORMAT_FLOAT, 1));
      P("cuTexRefDestroy NULL", cuTexRefDestroy(NULL));
      P("cuSurfRefSetArray NULL surfref", cuSurfRefSetArray(NULL, a2s, 0));
      CUmodule m = 0; load("load PTX with .texref/.surfref", ptx_texref, &m);
      if (m) {
        P("cuModuleGetTexRef tr", cuModuleGetTexRef(&tr, m, "tr")); printf("texref %p\n", (void *)tr);
        P("cuModuleGetTexRef missing", cuModuleGetTexRef(&tr, m, "nope"));
        P("cuModuleGetSurfRef sr", cuModuleGetSurfRef(&sr, m, "sr"));
        if (tr) { P("cuTexRefSetArray", cuTexRefSetArray(tr, a2, CU_TRSA_OVERRIDE_FORMAT));
                  P("cuTexRefSetAddress", cuTexRefSetAddress(&off, tr, d, 1024));
                  P("cuTexRefSetFilterMode", cuTexRefSetFilterMode(tr, CU_TR_FILTER_MODE_POINT));
                  CUarray ga = 0; P("cuTexRefGetArray", cuTexRefGetArray(&ga, tr)); }
        if (sr) P("cuSurfRefSetArray", cuSurfRefSetArray(sr, a2s, 0));
        cuModuleUnload(m);
      }
      CUmodule m2 = 0;
      char ptx7[2048]; snprintf(ptx7, sizeof ptx7, "%s", ptx_texref); memcpy(ptx7 + 9, "7.0", 3); memcpy(strstr(ptx7, "sm_90") , "sm_70", 5);
      load("load PTX 7.0 sm_70 with .texref/.surfref", ptx7, &m2);
      if (m2) { P("cuModuleGetTexRef (7.0)", cuModuleGetTexRef(&tr, m2, "tr")); cuModuleUnload(m2); }
    }

    }
    SEC(5) {
    printf("== context destroyed with objects alive\n");
    { CUcontext c2; CK(cuCtxCreate(&c2, NULL, 0, dev));
      CUdeviceptr m2; CK(cuMemAlloc(&m2, 1 << 16));
      CUDA_RESOURCE_DESC b = lin(m2, CU_AD_FORMAT_FLOAT, 1, 1024); CUtexObject ct = 0; CK(cuTexObjectCreate(&ct, &b, &td0, NULL));
      CUarray ca = mkarr(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST); b = arr(ca); CUsurfObject cs = 0; CK(cuSurfObjectCreate(&cs, &b));
      printf("texture in ctx2 %llu, surface %llu\n", (unsigned long long)ct, (unsigned long long)cs);
      P("texture from ctx2 read in ctx2", cuTexObjectGetResourceDesc(&b, ct));
      CK(cuCtxSetCurrent(ctx));
      P("texture from ctx2 read in the primary", cuTexObjectGetResourceDesc(&b, ct));
      P("cuCtxDestroy ctx2", cuCtxDestroy(c2));
      P("texture of destroyed ctx2 GetResourceDesc", cuTexObjectGetResourceDesc(&b, ct));
      P("texture of destroyed ctx2 destroy", cuTexObjectDestroy(ct));
      P("surface of destroyed ctx2 destroy", cuSurfObjectDestroy(cs));
    }
    P("no current context: cuTexObjectCreate", (cuCtxSetCurrent(NULL), cuTexObjectCreate(&t, &rd, &td0, NULL)));
    P("no current context: cuTexObjectDestroy(0)", cuTexObjectDestroy(0));
    }

    SEC(6) {
    printf("== more getters and flags\n");
    { CUDA_TEXTURE_DESC td1; memset(&td1, 0, sizeof td1); td1.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER; td1.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR; td1.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
      td1.filterMode = CU_TR_FILTER_MODE_LINEAR; td1.flags = CU_TRSF_SEAMLESS_CUBEMAP | CU_TRSF_NORMALIZED_COORDINATES; td1.maxAnisotropy = 40; td1.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
      td1.mipmapLevelBias = -1.5f; td1.minMipmapLevelClamp = 0.5f; td1.maxMipmapLevelClamp = 2.75f; td1.borderColor[0] = 1; td1.borderColor[1] = 2; td1.borderColor[2] = 3; td1.borderColor[3] = NAN;
      CUDA_RESOURCE_DESC b = arr(ac); CUtexObject t1 = 0;
      print_td("given", &td1);
      P("create cubemap with every field", cuTexObjectCreate(&t1, &b, &td1, NULL));
      CUDA_TEXTURE_DESC g; memset(&g, 0xab, sizeof g); P("GetTextureDesc", cuTexObjectGetTextureDesc(&g, t1)); print_td("got", &g);
      CUDA_RESOURCE_VIEW_DESC gv; memset(&gv, 0xab, sizeof gv); P("GetResourceViewDesc (none given)", cuTexObjectGetResourceViewDesc(&gv, t1)); print_vd("got", &gv);
      cuTexObjectDestroy(t1);
      td1.addressMode[0] = td1.addressMode[1] = td1.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP; td1.flags = 0;
      b = arr(a2); P("create 2D array clamp, border colour given", cuTexObjectCreate(&t1, &b, &td1, NULL));
      memset(&g, 0xab, sizeof g); P("GetTextureDesc", cuTexObjectGetTextureDesc(&g, t1)); print_td("got", &g); cuTexObjectDestroy(t1);
      td1.addressMode[2] = (CUaddress_mode)7; T("2D array addressMode[2] 7", &b, &td1, NULL);
      td1.addressMode[2] = 0; td1.addressMode[1] = (CUaddress_mode)7; b = arr(a1); T("1D array addressMode[1] 7", &b, &td1, NULL);
      b = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024); T("linear addressMode[1] 7", &b, &td1, NULL);
      td1.addressMode[1] = 0; td1.addressMode[2] = (CUaddress_mode)7; b = arr(a3); T("3D array addressMode[2] 7", &b, &td1, NULL);
      memset(&td1, 0, sizeof td1); unsigned fl[] = {0x4, 0x8, 0x40, 0x80, 0x100};
      char l[80];
      for (unsigned i = 0; i < 5; ++i) { td1.flags = fl[i]; b = arr(ac); snprintf(l, sizeof l, "cubemap flags 0x%x", fl[i]); T(l, &b, &td1, NULL);
                                         b = arr(a2); snprintf(l, sizeof l, "2D array flags 0x%x", fl[i]); T(l, &b, &td1, NULL); }
      memset(&td1, 0, sizeof td1); td1.flags = CU_TRSF_SEAMLESS_CUBEMAP; b = arr(al); T("layered flags SEAMLESS", &b, &td1, NULL);
      CUarray acl = mkarr(16, 16, 12, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
      b = arr(acl); T("cubemap layered SEAMLESS", &b, &td1, NULL);
      CUDA_ARRAY3D_DESCRIPTOR md; memset(&md, 0, sizeof md); md.Width = 16; md.Height = 16; md.Depth = 6; md.Format = CU_AD_FORMAT_FLOAT; md.NumChannels = 1; md.Flags = CUDA_ARRAY3D_CUBEMAP;
      CUmipmappedArray mc = 0; P("mipmapped cubemap", cuMipmappedArrayCreate(&mc, &md, 3)); b = mip(mc); T("mipmapped cubemap SEAMLESS", &b, &td1, NULL);
      CUarray dead = mkarr(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST); cuArrayDestroy(dead);
      b = arr(dead); T("texture over a destroyed array", &b, &td0, NULL);
      CUsurfObject s = 0;
      CUmipmappedArray deadm = 0; md.Flags = 0; md.Depth = 0; cuMipmappedArrayCreate(&deadm, &md, 2); cuMipmappedArrayDestroy(deadm);
      b = mip(deadm); T("texture over a destroyed mipmapped array", &b, &td0, NULL);
      CUDA_RESOURCE_DESC ln = lin(d, CU_AD_FORMAT_FLOAT, 1, 1024);
      CUcontext cur = 0; cuCtxGetCurrent(&cur); cuCtxSetCurrent(NULL); CUtexObject tn = 0;
      P("no current context: create", cuTexObjectCreate(&tn, &ln, &td0, NULL)); printf("handle %llu\n", (unsigned long long)tn);
      CUDA_RESOURCE_DESC gr; P("no current context: GetResourceDesc", cuTexObjectGetResourceDesc(&gr, tn));
      cuCtxSetCurrent(cur); P("then in the primary: GetResourceDesc", cuTexObjectGetResourceDesc(&gr, tn));
      P("then in the primary: destroy", cuTexObjectDestroy(tn));
      cuCtxSetCurrent(NULL); P("no current context: surface create", cuSurfObjectCreate(&s, &b)); cuCtxSetCurrent(cur);
    }
    }
    SEC(7) {
      CUDA_RESOURCE_DESC b = arr((CUarray)(uintptr_t)mm); T("array resource given a mipmapped array handle", &b, &td0, NULL);
    }
    SEC(8) {
      CUDA_RESOURCE_DESC b = mip((CUmipmappedArray)(uintptr_t)a2); T("mipmapped resource given an array handle", &b, &td0, NULL);
    }
    SEC(10) {
      CUDA_RESOURCE_DESC b = arr(a2s); P("surf pSurfObject NULL", cuSurfObjectCreate(NULL, &b));
    }
    SEC(11) {
      CUarray dead = mkarr(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST); cuArrayDestroy(dead);
      CUDA_RESOURCE_DESC b = arr(dead); CUsurfObject s = 0; P("surface over a destroyed array", cuSurfObjectCreate(&s, &b));
    }
    SEC(9) {
      CUDA_RESOURCE_DESC b = arr((CUarray)(uintptr_t)0x12345678); CUsurfObject s = 0; P("surf array forged", cuSurfObjectCreate(&s, &b));
    }
    printf("done\n");
    return 0;
}
