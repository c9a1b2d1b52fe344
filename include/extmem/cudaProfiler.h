/*
 * extmem/cudaProfiler.h: the driver API's profiler control, as NVIDIA's cudaProfiler.h has it
 * (its own header there too, not part of cuda.h).
 *
 * No profiler can attach to the software device: cuProfilerStart and cuProfilerStop succeed in
 * a current context (CUDA_ERROR_INVALID_CONTEXT without one) and say so at EXTMEM_LOG=info;
 * cuProfilerInitialize, deprecated, is CUDA_ERROR_NOT_SUPPORTED, as documented.
 */
#ifndef EXTMEM_CUDA_PROFILER_H
#define EXTMEM_CUDA_PROFILER_H

#include "extmem/cuda.h"

/* This header stands in for NVIDIA's: keep the include guard NVIDIA's code tests for. */
#ifndef __CUDA_PROFILER_H__
#define __CUDA_PROFILER_H__
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* cuProfilerInitialize's output format. */
typedef enum CUoutput_mode_enum {
    CU_OUT_KEY_VALUE_PAIR = 0x00,
    CU_OUT_CSV = 0x01
} CUoutput_mode;

EXTMEM_API CUresult CUDAAPI cuProfilerInitialize(const char *configFile, const char *outputFile,
                                                 CUoutput_mode outputMode);
EXTMEM_API CUresult CUDAAPI cuProfilerStart(void);
EXTMEM_API CUresult CUDAAPI cuProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_CUDA_PROFILER_H */
