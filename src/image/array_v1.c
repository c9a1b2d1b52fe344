/*
 * The CUDA 3.1 forms of the array calls, exported under the unversioned names that NVIDIA's
 * header renames to their _v2 forms: their sizes and offsets are 32-bit (unsigned int), which
 * every array fits (the largest extent is 131072, the largest 1D copy one row), so they are the
 * _v2 calls with the values widened. The forms that take a 32-bit device pointer
 * (cuMemcpyAtoD, cuMemcpyDtoA) stay refused (V1_32BIT: no device address of the software device
 * fits 32 bits).
 */
#include "image/array.h"

#include <string.h>

/* The CUDA 3.1 descriptors: the same fields, with unsigned int extents. */
typedef struct {
    unsigned int Width, Height;
    CUarray_format Format;
    unsigned int NumChannels;
} array_desc_v1;
typedef struct {
    unsigned int Width, Height, Depth;
    CUarray_format Format;
    unsigned int NumChannels, Flags;
} array3d_desc_v1;

#undef cuArrayCreate
#undef cuArray3DCreate
#undef cuArrayGetDescriptor
#undef cuArray3DGetDescriptor
#undef cuMemcpyHtoA
#undef cuMemcpyAtoH
#undef cuMemcpyAtoA
#undef cuMemcpyHtoAAsync
#undef cuMemcpyAtoHAsync
EXTMEM_API CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const array_desc_v1 *pAllocateArray);
EXTMEM_API CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const array3d_desc_v1 *pAllocateArray);
EXTMEM_API CUresult CUDAAPI cuArrayGetDescriptor(array_desc_v1 *pArrayDescriptor, CUarray hArray);
EXTMEM_API CUresult CUDAAPI cuArray3DGetDescriptor(array3d_desc_v1 *pArrayDescriptor, CUarray hArray);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                                         unsigned int ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset,
                                         unsigned int ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray,
                                         unsigned int srcOffset, unsigned int ByteCount);
EXTMEM_API CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                                              unsigned int ByteCount, CUstream hStream);
EXTMEM_API CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset,
                                              unsigned int ByteCount, CUstream hStream);

CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const array_desc_v1 *pAllocateArray)
{
    if (!pAllocateArray)
        return cuArrayCreate_v2(pHandle, NULL);
    CUDA_ARRAY_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height, pAllocateArray->Format,
                               pAllocateArray->NumChannels};
    return cuArrayCreate_v2(pHandle, &d);
}

CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const array3d_desc_v1 *pAllocateArray)
{
    if (!pAllocateArray)
        return cuArray3DCreate_v2(pHandle, NULL);
    CUDA_ARRAY3D_DESCRIPTOR d = {pAllocateArray->Width, pAllocateArray->Height, pAllocateArray->Depth,
                                 pAllocateArray->Format, pAllocateArray->NumChannels, pAllocateArray->Flags};
    return cuArray3DCreate_v2(pHandle, &d);
}

/* Every extent fits 32 bits: the limits (docs/images.md) are far below them. */
CUresult CUDAAPI cuArrayGetDescriptor(array_desc_v1 *pArrayDescriptor, CUarray hArray)
{
    CUDA_ARRAY_DESCRIPTOR d;
    CUresult r = cuArrayGetDescriptor_v2(pArrayDescriptor ? &d : NULL, hArray);
    if (r == CUDA_SUCCESS) {
        pArrayDescriptor->Width = (unsigned int)d.Width;
        pArrayDescriptor->Height = (unsigned int)d.Height;
        pArrayDescriptor->Format = d.Format;
        pArrayDescriptor->NumChannels = d.NumChannels;
    }
    return r;
}

CUresult CUDAAPI cuArray3DGetDescriptor(array3d_desc_v1 *pArrayDescriptor, CUarray hArray)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = cuArray3DGetDescriptor_v2(pArrayDescriptor ? &d : NULL, hArray);
    if (r == CUDA_SUCCESS) {
        pArrayDescriptor->Width = (unsigned int)d.Width;
        pArrayDescriptor->Height = (unsigned int)d.Height;
        pArrayDescriptor->Depth = (unsigned int)d.Depth;
        pArrayDescriptor->Format = d.Format;
        pArrayDescriptor->NumChannels = d.NumChannels;
        pArrayDescriptor->Flags = d.Flags;
    }
    return r;
}

CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount)
{
    return cuMemcpyHtoA_v2(dstArray, dstOffset, srcHost, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
    return cuMemcpyAtoH_v2(dstHost, srcArray, srcOffset, ByteCount);
}
CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset,
                              unsigned int ByteCount)
{
    return cuMemcpyAtoA_v2(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
}
CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                                   unsigned int ByteCount, CUstream hStream)
{
    return cuMemcpyHtoAAsync_v2(dstArray, dstOffset, srcHost, ByteCount, hStream);
}
CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount,
                                   CUstream hStream)
{
    return cuMemcpyAtoHAsync_v2(dstHost, srcArray, srcOffset, ByteCount, hStream);
}
