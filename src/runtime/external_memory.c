/* The runtime's external memory calls: the driver's, with the runtime's types and codes. */
#include "runtime.h"

#include <string.h>

/* The runtime's descriptors have the driver's layout (tests/abi checks both against NVIDIA's
 * headers); copying field by field keeps that an implementation detail. */
cudaError_t CUDARTAPI cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                               const struct cudaExternalMemoryHandleDesc *memHandleDesc)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!extMem_out || !memHandleDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaImportExternalMemory: %s is NULL",
                       !extMem_out ? "extMem_out" : "memHandleDesc");
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    memset(&d, 0, sizeof(d));
    d.type = (CUexternalMemoryHandleType)memHandleDesc->type;
    d.handle.win32.handle = memHandleDesc->handle.win32.handle;
    d.handle.win32.name = memHandleDesc->handle.win32.name;
    if (d.type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD)
        d.handle.fd = memHandleDesc->handle.fd;
    d.size = memHandleDesc->size;
    d.flags = memHandleDesc->flags;
    memcpy(d.reserved, memHandleDesc->reserved, sizeof(d.reserved));
    CUexternalMemory e = NULL;
    err = rt_cu(cuImportExternalMemory(&e, &d));
    if (err == cudaSuccess)
        *extMem_out = (cudaExternalMemory_t)(void *)e;
    return err;
}

cudaError_t CUDARTAPI cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                        const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!devPtr || !bufferDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaExternalMemoryGetMappedBuffer: %s is NULL",
                       !devPtr ? "devPtr" : "bufferDesc");
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
    memset(&b, 0, sizeof(b));
    b.offset = bufferDesc->offset;
    b.size = bufferDesc->size;
    b.flags = bufferDesc->flags;
    memcpy(b.reserved, bufferDesc->reserved, sizeof(b.reserved));
    CUdeviceptr p = 0;
    err = rt_cu(cuExternalMemoryGetMappedBuffer(&p, (CUexternalMemory)(void *)extMem, &b));
    if (err == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    return err;
}

cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDestroyExternalMemory((CUexternalMemory)(void *)extMem));
}

/* The array format of a channel descriptor (the runtime's cudaCreateChannelDesc kinds): every
 * channel of x, y, z, w that has bits has the same bits; 0 when the descriptor is no array
 * format. */
static CUarray_format channel_format(const struct cudaChannelFormatDesc *c, unsigned *channels)
{
    int bits[4] = {c->x, c->y, c->z, c->w};
    unsigned n = 0;
    for (; n < 4 && bits[n] > 0; ++n)
        if (bits[n] != bits[0])
            return (CUarray_format)0;
    for (unsigned i = n; i < 4; ++i)
        if (bits[i] != 0)
            return (CUarray_format)0;
    *channels = n;
    switch ((int)c->f) {
    case cudaChannelFormatKindSigned:
        return n == 0 ? 0 : bits[0] == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_SIGNED_INT16
                                         : bits[0] == 32 ? CU_AD_FORMAT_SIGNED_INT32 : (CUarray_format)0;
    case cudaChannelFormatKindUnsigned:
        return n == 0 ? 0 : bits[0] == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                                         : bits[0] == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : (CUarray_format)0;
    case cudaChannelFormatKindFloat:
        return n == 0 ? 0 : bits[0] == 16 ? CU_AD_FORMAT_HALF : bits[0] == 32 ? CU_AD_FORMAT_FLOAT : (CUarray_format)0;
    default:
        break;
    }
    /* The normalized and block-compressed kinds name their format whole. */
    static const struct { int kind; CUarray_format format; } named[] = {
        {5, CU_AD_FORMAT_UNORM_INT8X1},   {6, CU_AD_FORMAT_UNORM_INT8X2},   {7, CU_AD_FORMAT_UNORM_INT8X4},
        {8, CU_AD_FORMAT_UNORM_INT16X1},  {9, CU_AD_FORMAT_UNORM_INT16X2},  {10, CU_AD_FORMAT_UNORM_INT16X4},
        {11, CU_AD_FORMAT_SNORM_INT8X1},  {12, CU_AD_FORMAT_SNORM_INT8X2},  {13, CU_AD_FORMAT_SNORM_INT8X4},
        {14, CU_AD_FORMAT_SNORM_INT16X1}, {15, CU_AD_FORMAT_SNORM_INT16X2}, {16, CU_AD_FORMAT_SNORM_INT16X4},
        {17, CU_AD_FORMAT_BC1_UNORM},     {18, CU_AD_FORMAT_BC1_UNORM_SRGB}, {19, CU_AD_FORMAT_BC2_UNORM},
        {20, CU_AD_FORMAT_BC2_UNORM_SRGB}, {21, CU_AD_FORMAT_BC3_UNORM},    {22, CU_AD_FORMAT_BC3_UNORM_SRGB},
        {23, CU_AD_FORMAT_BC4_UNORM},     {24, CU_AD_FORMAT_BC4_SNORM},     {25, CU_AD_FORMAT_BC5_UNORM},
        {26, CU_AD_FORMAT_BC5_SNORM},     {27, CU_AD_FORMAT_BC6H_UF16},     {28, CU_AD_FORMAT_BC6H_SF16},
        {29, CU_AD_FORMAT_BC7_UNORM},     {30, CU_AD_FORMAT_BC7_UNORM_SRGB}, {31, CU_AD_FORMAT_UNORM_INT_101010_2},
    };
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); ++i)
        if (named[i].kind == (int)c->f)
            return n ? named[i].format : (CUarray_format)0;
    return (CUarray_format)0;
}

cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
                                                                const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
    static const char fn[] = "cudaExternalMemoryGetMappedMipmappedArray";
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!mipmap || !mipmapDesc)
        return rt_fail(cudaErrorInvalidValue, "%s: %s is NULL", fn, !mipmap ? "mipmap" : "mipmapDesc");
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
    memset(&d, 0, sizeof(d));
    unsigned channels = 0;
    d.arrayDesc.Format = channel_format(&mipmapDesc->formatDesc, &channels);
    if (!d.arrayDesc.Format)
        return rt_fail(cudaErrorInvalidChannelDescriptor, "%s: formatDesc {%d, %d, %d, %d, kind %d} is no array format",
                       fn, mipmapDesc->formatDesc.x, mipmapDesc->formatDesc.y, mipmapDesc->formatDesc.z,
                       mipmapDesc->formatDesc.w, (int)mipmapDesc->formatDesc.f);
    d.arrayDesc.NumChannels = channels;
    d.offset = mipmapDesc->offset;
    d.arrayDesc.Width = mipmapDesc->extent.width;
    d.arrayDesc.Height = mipmapDesc->extent.height;
    d.arrayDesc.Depth = mipmapDesc->extent.depth;
    d.arrayDesc.Flags = mipmapDesc->flags;
    d.numLevels = mipmapDesc->numLevels;
    memcpy(d.reserved, mipmapDesc->reserved, sizeof(d.reserved));
    CUmipmappedArray m = NULL;
    err = rt_cu(cuExternalMemoryGetMappedMipmappedArray(&m, (CUexternalMemory)(void *)extMem, &d));
    if (err == cudaSuccess)
        *mipmap = (cudaMipmappedArray_t)(void *)m;
    return err;
}
