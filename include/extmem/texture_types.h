/*
 * extmem/texture_types.h: the runtime's texture object types, where NVIDIA keeps them (names,
 * values and layout as in CUDA 13.0; the text is extmem's). Included by
 * extmem/cuda_runtime_api.h.
 */
#ifndef EXTMEM_TEXTURE_TYPES_H
#define EXTMEM_TEXTURE_TYPES_H

#include "extmem/driver_types.h"

/* This header stands in for NVIDIA's: keep the include guard that code tests for. */
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The shapes a texture may have (the values txq and the texture templates use). */
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

/* How a fetch outside [0, size) finds its texel: CUaddress_mode's values. */
enum cudaTextureAddressMode {
    cudaAddressModeWrap = 0,
    cudaAddressModeClamp = 1,
    cudaAddressModeMirror = 2,
    cudaAddressModeBorder = 3
};

/* Nearest texel or the weighted mean of the nearest: CUfilter_mode's values. */
enum cudaTextureFilterMode {
    cudaFilterModePoint = 0,
    cudaFilterModeLinear = 1
};

/* Integer texels as integers, or as floats in [0, 1] ([-1, 1] when signed). */
enum cudaTextureReadMode {
    cudaReadModeElementType = 0,
    cudaReadModeNormalizedFloat = 1
};

/* How a texture object samples: the driver's CUDA_TEXTURE_DESC with its flags spelled as
 * fields (readMode, sRGB, normalizedCoords, disableTrilinearOptimization, seamlessCubemap). */
struct cudaTextureDesc {
    enum cudaTextureAddressMode addressMode[3];
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};

/* A texture object: the 64-bit value kernels take (a CUtexObject). */
typedef unsigned long long cudaTextureObject_t;

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_TEXTURE_TYPES_H */
