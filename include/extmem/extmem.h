/*
 * extmem/extmem.h: extmem's own calls, beside the CUDA API it implements.
 *
 * Error detail: every failing call records why it failed, in the calling thread.
 * Kernels: a kernel on the software device is a C function run once per block of a grid,
 * on a pool of worker threads, ordered in a stream like any other work.
 */
#ifndef EXTMEM_EXTMEM_H
#define EXTMEM_EXTMEM_H

#include "extmem/cuda.h"
#include "extmem/cudaProfiler.h"
#include "extmem/export.h"
#include "extmem/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Error detail ---- */

/* The reason for the last failure of an extmem or CUDA call in this thread, in the form
 * "function: what: why" (for example "cuMemAlloc: bytesize is 0: the size must be at least
 * one byte"). Never NULL: an empty string when the thread has no failure recorded. The text
 * stays valid until the thread's next failing call. Successful calls leave it as it is. */
EXTMEM_API const char *extmem_error_detail(void);

/* The result code that went with extmem_error_detail(), or CUDA_SUCCESS. */
EXTMEM_API CUresult extmem_error_code(void);

/* For extmem's interop libraries (extmem_vulkan): records code and the reason ("function: what:
 * why") as this thread's failure, as extmem's own calls do, and logs it under EXTMEM_LOG.
 * Returns code. */
EXTMEM_API CUresult extmem_error_set(CUresult code, const char *fmt, ...) EXTMEM_PRINTF_FORMAT(2, 3);

/* Forgets the recorded failure of this thread. */
EXTMEM_API void extmem_error_clear(void);

/* EXTMEM_LOG=error prints each failure with its reason to stderr as it happens; warn adds what
 * went wrong without failing a call (an interprocess event's recorder that died, docs/ipc.md);
 * info (or trace) adds what extmem sets up: the device at cuInit, each import of external
 * memory, lookups cuGetProcAddress could not answer. extmem_log_set overrides the
 * environment: 0 off, 1 error, 2 warn, 3 info, 4 trace. */
EXTMEM_API void extmem_log_set(int level);

/* The library's version, "major.minor.patch". */
EXTMEM_API const char *extmem_version(void);

/* ---- Kernels ---- */

typedef struct extmem_dim3 {
    unsigned int x, y, z;
} extmem_dim3;

/* What one block of a kernel knows about itself, like CUDA's built-in variables. */
typedef struct extmem_block {
    extmem_dim3 gridDim;
    extmem_dim3 blockDim;
    extmem_dim3 blockIdx;
} extmem_block;

/* A kernel runs once per block; the block's threads are a loop inside it (see
 * EXTMEM_FOR_EACH_THREAD). args points to the launch's own copy of the argument bytes. */
typedef void (*extmem_kernel)(const extmem_block *block, void *args);

/* Launches fn over grid (blocks) of block (threads), in stream order on hStream (NULL is the
 * legacy default stream). args_size bytes at args are copied at launch, as CUDA copies kernel
 * parameters, so the caller may reuse its buffer at once.
 * Returns:
 *   CUDA_ERROR_INVALID_VALUE      fn is NULL; a grid or block dimension is 0; args is NULL with
 *                                 args_size > 0; args_size > 32764 (CUDA's parameter limit)
 *   CUDA_ERROR_INVALID_VALUE      a grid or block dimension exceeds the device limits
 *                                 (grid 2147483647 x 65535 x 65535; block 1024 x 1024 x 64,
 *                                 1024 threads in all)
 *   CUDA_ERROR_INVALID_HANDLE     hStream is destroyed or forged
 *   CUDA_ERROR_INVALID_CONTEXT    no current context, or hStream belongs to another context */
EXTMEM_API CUresult extmem_launch_kernel(extmem_kernel fn, extmem_dim3 grid, extmem_dim3 block,
                                         const void *args, size_t args_size, CUstream hStream);

/* Number of pool threads that run kernel blocks (EXTMEM_THREADS overrides; default: the
 * number of CPUs). */
EXTMEM_API unsigned int extmem_worker_count(void);

/* Loops over the threads of a block: x, y, z are the thread's threadIdx components. */
#define EXTMEM_FOR_EACH_THREAD(blk, tx, ty, tz)                                        \
    for (unsigned int tz = 0; tz < (blk)->blockDim.z; ++tz)                            \
        for (unsigned int ty = 0; ty < (blk)->blockDim.y; ++ty)                        \
            for (unsigned int tx = 0; tx < (blk)->blockDim.x; ++tx)

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_EXTMEM_H */
