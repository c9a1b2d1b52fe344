/*
 * extmem/cuda_profiler_api.h: the runtime API's profiler control, as NVIDIA's
 * cuda_profiler_api.h has it.
 *
 * No profiler attaches to the software device: both calls succeed once the runtime has its
 * context (cuProfilerStart / cuProfilerStop, extmem/cudaProfiler.h).
 */
#ifndef EXTMEM_CUDA_PROFILER_API_H
#define EXTMEM_CUDA_PROFILER_API_H

#include "extmem/cuda_runtime_api.h"

#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__
#endif

#ifdef __cplusplus
extern "C" {
#endif

EXTMEM_API cudaError_t CUDARTAPI cudaProfilerStart(void);
EXTMEM_API cudaError_t CUDARTAPI cudaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_CUDA_PROFILER_API_H */
