/*
 * extmem/surface_types.h: the runtime's surface object types, where NVIDIA keeps them (names,
 * values and layout as in CUDA 13.0; the text is extmem's). Included by
 * extmem/cuda_runtime_api.h.
 */
#ifndef EXTMEM_SURFACE_TYPES_H
#define EXTMEM_SURFACE_TYPES_H

#include "extmem/driver_types.h"

/* This header stands in for NVIDIA's: keep the include guard that code tests for. */
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The shapes a surface may have. */
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/* What a surface access outside the surface does: reads 0 and drops the write, clamps to the
 * edge, or faults (suld/sust's .zero, .clamp, .trap). */
enum cudaSurfaceBoundaryMode {
    cudaBoundaryModeZero = 0,
    cudaBoundaryModeClamp = 1,
    cudaBoundaryModeTrap = 2
};

enum cudaSurfaceFormatMode {
    cudaFormatModeForced = 0,
    cudaFormatModeAuto = 1
};

/* A surface object: the 64-bit value kernels take (a CUsurfObject). */
typedef unsigned long long cudaSurfaceObject_t;

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_SURFACE_TYPES_H */
