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
    if ((err = rt_format_from_desc(fn, &mipmapDesc->formatDesc, &d.arrayDesc.Format, &d.arrayDesc.NumChannels)))
        return err;
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
