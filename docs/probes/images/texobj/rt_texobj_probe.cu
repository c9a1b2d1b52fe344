// The runtime's texture and surface object calls on NVIDIA's runtime: the codes its own checks
// give and how its descriptors round-trip. nvcc -o rt_texobj_probe rt_texobj_probe.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#define P(label, call) do { cudaError_t e_ = (call); printf("%-60s %d %s\n", label, (int)e_, cudaGetErrorName(e_)); cudaGetLastError(); fflush(stdout); } while (0)

static void print_td(const char *l, const cudaTextureDesc &t)
{
    printf("%s: addr %d %d %d filter %d read %d srgb %d border %g %g %g %g norm %d aniso %u mip %d bias %g clamp %g %g dto %d seamless %d\n",
           l, t.addressMode[0], t.addressMode[1], t.addressMode[2], t.filterMode, t.readMode, t.sRGB, t.borderColor[0],
           t.borderColor[1], t.borderColor[2], t.borderColor[3], t.normalizedCoords, t.maxAnisotropy, t.mipmapFilterMode,
           t.mipmapLevelBias, t.minMipmapLevelClamp, t.maxMipmapLevelClamp, t.disableTrilinearOptimization, t.seamlessCubemap);
}

int main()
{
    void *mem = 0;
    cudaMalloc(&mem, 1 << 20);
    cudaResourceDesc r; memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear; r.res.linear.devPtr = mem; r.res.linear.sizeInBytes = 4096;
    r.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaTextureDesc td; memset(&td, 0, sizeof td);
    cudaTextureObject_t t = 0;
    td.addressMode[0] = cudaAddressModeMirror; td.addressMode[1] = cudaAddressModeBorder; td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType; td.sRGB = 1; td.borderColor[0] = 0.5f; td.borderColor[3] = 2; td.normalizedCoords = 1;
    td.maxAnisotropy = 3; td.mipmapFilterMode = cudaFilterModeLinear; td.mipmapLevelBias = 0.5f; td.minMipmapLevelClamp = 1;
    td.maxMipmapLevelClamp = 2; td.disableTrilinearOptimization = 1;
    P("create float linear, every field", cudaCreateTextureObject(&t, &r, &td, NULL));
    cudaTextureDesc g; memset(&g, 0xab, sizeof g);
    P("get texture desc", cudaGetTextureObjectTextureDesc(&g, t)); print_td("got", g);
    cudaResourceDesc gr; memset(&gr, 0xab, sizeof gr);
    P("get resource desc", cudaGetTextureObjectResourceDesc(&gr, t));
    printf("got: type %d desc %d %d %d %d kind %d size %zu\n", gr.resType, gr.res.linear.desc.x, gr.res.linear.desc.y,
           gr.res.linear.desc.z, gr.res.linear.desc.w, gr.res.linear.desc.f, gr.res.linear.sizeInBytes);
    cudaResourceViewDesc gv; memset(&gv, 0xab, sizeof gv);
    P("get view desc (none)", cudaGetTextureObjectResourceViewDesc(&gv, t)); printf("got view format 0x%x\n", (unsigned)gv.format);
    P("destroy", cudaDestroyTextureObject(t));
    P("destroy again", cudaDestroyTextureObject(t));
    P("destroy 0", cudaDestroyTextureObject(0));
    P("get texture desc destroyed", cudaGetTextureObjectTextureDesc(&g, t));
    P("get texture desc NULL", cudaGetTextureObjectTextureDesc(NULL, 1));
    // Channel descriptors
    struct { int x, y, z, w; cudaChannelFormatKind f; const char *l; } bad[] = {
        {8, 16, 0, 0, cudaChannelFormatKindUnsigned, "desc 8,16 unsigned"},
        {0, 8, 0, 0, cudaChannelFormatKindUnsigned, "desc 0,8 unsigned"},
        {24, 0, 0, 0, cudaChannelFormatKindSigned, "desc 24 signed"},
        {8, 0, 0, 0, cudaChannelFormatKindFloat, "desc 8 float"},
        {32, 0, 0, 0, cudaChannelFormatKindNone, "desc 32 none"},
        {0, 0, 0, 0, cudaChannelFormatKindFloat, "desc 0 float"},
        {32, 32, 32, 0, cudaChannelFormatKindFloat, "desc 32x3 float"},
        {8, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X1, "desc UnsignedNormalized8X1"},
    };
    for (auto &b : bad) {
        r.res.linear.desc.x = b.x; r.res.linear.desc.y = b.y; r.res.linear.desc.z = b.z; r.res.linear.desc.w = b.w; r.res.linear.desc.f = b.f;
        memset(&td, 0, sizeof td);
        P(b.l, cudaCreateTextureObject(&t, &r, &td, NULL));
    }
    r.res.linear.desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    memset(&td, 0, sizeof td); td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
    P("uchar4 linear filter, element type", cudaCreateTextureObject(&t, &r, &td, NULL));
    td.readMode = cudaReadModeNormalizedFloat;
    P("uchar4 linear filter, normalized float", cudaCreateTextureObject(&t, &r, &td, NULL));
    if (!cudaGetTextureObjectTextureDesc(&g, t)) print_td("got", g);
    td.readMode = (cudaTextureReadMode)2;
    P("readMode 2", cudaCreateTextureObject(&t, &r, &td, NULL));
    memset(&td, 0, sizeof td);
    P("pTexObject NULL", cudaCreateTextureObject(NULL, &r, &td, NULL));
    P("pResDesc NULL", cudaCreateTextureObject(&t, NULL, &td, NULL));
    P("pTexDesc NULL", cudaCreateTextureObject(&t, &r, NULL, NULL));
    cudaSurfaceObject_t s = 0;
    P("surface over linear", cudaCreateSurfaceObject(&s, &r));
    P("surface pSurfObject NULL", cudaCreateSurfaceObject(NULL, &r));
    P("surface pResDesc NULL", cudaCreateSurfaceObject(&s, NULL));
    P("surface destroy 0", cudaDestroySurfaceObject(0));
    P("surface get forged", cudaGetSurfaceObjectResourceDesc(&gr, 0x12345678));
    // An array: the readMode of float arrays, the border round trip
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    cudaArray_t a = 0;
    P("array", cudaMallocArray(&a, &f4, 16, 8, 0));
    memset(&r, 0, sizeof r); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    memset(&td, 0, sizeof td); td.readMode = cudaReadModeNormalizedFloat; td.addressMode[0] = cudaAddressModeBorder; td.borderColor[1] = 0.75f;
    P("float4 array normalized float", cudaCreateTextureObject(&t, &r, &td, NULL));
    memset(&g, 0xab, sizeof g);
    if (!cudaGetTextureObjectTextureDesc(&g, t)) print_td("got", g);
    P("surface over an array without the flag", cudaCreateSurfaceObject(&s, &r));
    printf("done\n");
    return 0;
}
