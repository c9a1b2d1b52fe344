/*
 * extmem/cuda_runtime_api.h: the CUDA runtime API subset that extmem implements.
 *
 * Written for extmem from the CUDA runtime documentation. The runtime is built on the
 * driver API of extmem/cuda.h, as NVIDIA's is: the first call that needs a context retains
 * the primary context of the thread's device and makes it current (cudaSetDevice does so at
 * once); a context the thread already has current is used as it is.
 *
 * Results. Each declaration lists the codes extmem returns and when. Besides those:
 *   - every call that fails records its code as the thread's last error (cudaGetLastError),
 *     except cudaErrorNotReady, which reports progress, not failure;
 *   - a failure of the driver below is returned translated (CUDA_ERROR_OUT_OF_MEMORY is
 *     cudaErrorMemoryAllocation, CUDA_ERROR_INVALID_HANDLE is cudaErrorInvalidResourceHandle,
 *     CUDA_ERROR_INVALID_CONTEXT is cudaErrorDeviceUninitialized, ...), and its reason stays
 *     readable through extmem_error_detail(); a failure the runtime finds itself records a
 *     reason of its own ("cudaMemcpy: kind 7 is not a cudaMemcpyKind: ...");
 *   - a destroyed or forged stream or event is cudaErrorInvalidResourceHandle. NVIDIA's
 *     runtime crashes on those; extmem answers instead (DESIGN.md section 4).
 *
 * Per-thread default stream: compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc
 * --default-stream per-thread), the calls below that use the default stream are renamed to
 * their _ptds / _ptsz forms, as NVIDIA's header renames them, and a NULL stream means
 * cudaStreamPerThread. libextmem exports both forms.
 */
#ifndef EXTMEM_CUDA_RUNTIME_API_H
#define EXTMEM_CUDA_RUNTIME_API_H

#include <stddef.h>

#include "extmem/driver_types.h"
#include "extmem/export.h"

/* This header stands in for NVIDIA's: keep the include guard that code tests for. */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif

#define CUDART_VERSION 13000

#if defined(_WIN32)
#define CUDARTAPI __stdcall
#else
#define CUDARTAPI
#endif

/* C++ callers may leave out a trailing stream or flags argument, as with NVIDIA's header. */
#if defined(__cplusplus)
#define EXTMEM_RT_DEFAULT(v) = v
#else
#define EXTMEM_RT_DEFAULT(v)
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cudaMemcpy          cudaMemcpy_ptds
#define cudaMemset          cudaMemset_ptds
#define cudaMemcpyAsync     cudaMemcpyAsync_ptsz
#define cudaMemsetAsync     cudaMemsetAsync_ptsz
#define cudaStreamQuery     cudaStreamQuery_ptsz
#define cudaStreamSynchronize cudaStreamSynchronize_ptsz
#define cudaStreamWaitEvent cudaStreamWaitEvent_ptsz
#define cudaEventRecord     cudaEventRecord_ptsz
#define cudaLaunchHostFunc  cudaLaunchHostFunc_ptsz
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ----------------------------------------------------------------------------
 * The last error is per thread. A failing call sets it; successful calls leave it alone. */

/* Returns the thread's last error and resets it to cudaSuccess. */
EXTMEM_API cudaError_t CUDARTAPI cudaGetLastError(void);

/* Returns the thread's last error and leaves it set. */
EXTMEM_API cudaError_t CUDARTAPI cudaPeekAtLastError(void);

/* The enumerator's name ("cudaErrorInvalidValue") and a short description ("invalid
 * argument"). Never NULL: a value that is no cudaError_t gives "unrecognized error code".
 * Neither call sets the last error. */
EXTMEM_API const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
EXTMEM_API const char *CUDARTAPI cudaGetErrorString(cudaError_t error);

/* ---- Versions ---- */

/* The driver's CUDA_VERSION (13000); no context is created.
 * Returns:
 *   cudaErrorInvalidValue  driverVersion is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion);

/* CUDART_VERSION (13000); no context is created.
 * Returns:
 *   cudaErrorInvalidValue  runtimeVersion is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- Device management ------------------------------------------------------------------
 * The software device is the only one: ordinal 0. */

/* Initialises the driver if needed; creates no context.
 * Returns:
 *   cudaErrorInvalidValue  count is NULL
 *   (from cuInit)          cudaErrorNoDevice and the like when the driver cannot start;
 *                          *count is then 0 */
EXTMEM_API cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);

/* Makes device the thread's device, retains its primary context and makes that context
 * current, replacing any context current to the thread.
 * Returns:
 *   cudaErrorInvalidDevice  device is not 0 (negative ordinals included)
 *   (from the driver)       a failure to initialise or to retain the primary context */
EXTMEM_API cudaError_t CUDARTAPI cudaSetDevice(int device);

/* The device of the context current to the thread, else the thread's device (0 unless
 * cudaSetDevice said otherwise). Creates no context.
 * Returns:
 *   cudaErrorInvalidValue  device is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaGetDevice(int *device);

/* Fills *prop from the driver: name (cuDeviceGetName), uuid (cuDeviceGetUuid), luid and
 * luidDeviceNodeMask (cuDeviceGetLuid; left zero where the driver has no LUID),
 * totalGlobalMem (cuDeviceTotalMem), and every other field from the cuDeviceGetAttribute
 * value of the same meaning (sharedMemPerBlock = MAX_SHARED_MEMORY_PER_BLOCK, memPitch =
 * MAX_PITCH, maxTexture2D = MAXIMUM_TEXTURE2D_WIDTH/HEIGHT, ...). reserved is zeroed.
 * Creates no context.
 * Returns:
 *   cudaErrorInvalidValue   prop is NULL (checked before device)
 *   cudaErrorInvalidDevice  device is not 0 */
EXTMEM_API cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);

/* The cuDeviceGetAttribute value of attr: every value below cudaDevAttrMax is answered,
 * including the ones cudaDeviceAttr leaves out or calls Reserved. Creates no context.
 * Returns:
 *   cudaErrorInvalidValue   value is NULL
 *   cudaErrorInvalidDevice  device is not 0
 *   cudaErrorInvalidValue   attr is 0, negative, or cudaDevAttrMax and above */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);

/* Waits for all work of every stream of the current context (cuCtxSynchronize). */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSynchronize(void);

/* Destroys every allocation, stream and event of the thread device's primary context
 * (cuDevicePrimaryCtxReset). The next call that needs a context, in any thread, retains the
 * primary context afresh. Succeeds when no context was ever created. Handles from before the
 * reset are stale: streams and events are then cudaErrorInvalidResourceHandle (NVIDIA's
 * runtime says cudaErrorContextIsDestroyed for a stream), memory cudaErrorInvalidValue. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceReset(void);

/* ---- Memory ------------------------------------------------------------------------- */

/* Device memory (cuMemAlloc): shareable OS memory, aligned to at least 4096 bytes.
 * Returns:
 *   cudaSuccess                with *devPtr = NULL when size is 0, as NVIDIA's runtime does
 *   cudaErrorInvalidValue      devPtr is NULL
 *   cudaErrorMemoryAllocation  the memory cannot be had; *devPtr is then NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);

/* Frees what cudaMalloc returned. NULL is a no-op success (and, as with NVIDIA's runtime,
 * a common way to create the context).
 * Returns:
 *   cudaErrorInvalidValue  devPtr is not the start of a live cudaMalloc allocation (an
 *                          interior, freed, host or unknown address) */
EXTMEM_API cudaError_t CUDARTAPI cudaFree(void *devPtr);

/* Page-locked host memory (cuMemAllocHost), usable by the device at the same address.
 * Returns:
 *   cudaSuccess                with *ptr = NULL when size is 0
 *   cudaErrorInvalidValue      ptr is NULL
 *   cudaErrorMemoryAllocation  the memory cannot be had; *ptr is then NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size);

/* Page-locked host memory with cudaHostAlloc* flags (cuMemHostAlloc).
 * Returns:
 *   cudaErrorInvalidValue      pHost is NULL
 *   cudaSuccess                with *pHost = NULL when size is 0 (flags are not looked at)
 *   cudaErrorInvalidValue      flags has a bit outside Portable | Mapped | WriteCombined
 *   cudaErrorMemoryAllocation  the memory cannot be had; *pHost is then NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size, unsigned int flags);

/* Frees what cudaMallocHost or cudaHostAlloc returned. NULL is a no-op success.
 * Returns:
 *   cudaErrorInvalidValue  ptr is not the start of a live page-locked allocation */
EXTMEM_API cudaError_t CUDARTAPI cudaFreeHost(void *ptr);

/* ---- Interprocess communication ----
 * The driver's cuIpc* rules and codes (extmem/cuda.h, docs/ipc.md), mapped to cudaError_t:
 * a handle that names nothing live is cudaErrorInvalidResourceHandle; the exporting process
 * opening its own handle, or a second context, is cudaErrorInvalidContext. */
EXTMEM_API cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
EXTMEM_API cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
EXTMEM_API cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *devPtr);

/* ---- External memory ----
 * The driver's rules and codes (see cuImportExternalMemory in extmem/cuda.h), mapped to
 * cudaError_t; the DMABUF_FD type of the driver API has no runtime name in CUDA 13.0. */
EXTMEM_API cudaError_t CUDARTAPI cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                                          const struct cudaExternalMemoryHandleDesc *memHandleDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                                   const struct cudaExternalMemoryBufferDesc *bufferDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem);

/* The device address of page-locked host memory: the same address on the software device.
 * Any address inside an allocation is accepted.
 * Returns:
 *   cudaErrorInvalidValue  pDevice or pHost is NULL; flags is not 0; pHost lies in no
 *                          page-locked allocation (pageable or device memory) */
EXTMEM_API cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);

/* Free and total device memory (cuMemGetInfo). Either pointer may be NULL. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free, size_t *total);

/* Copies count bytes, in the legacy default stream, and returns when the copy is done.
 * "Device memory" below is what the device can address: cudaMalloc memory, page-locked
 * host memory and the other memory the driver knows (mapped, imported, registered).
 * Returns:
 *   cudaSuccess                      count is 0 (nothing else is looked at)
 *   cudaErrorInvalidMemcpyDirection  kind is not a cudaMemcpyKind
 *   cudaErrorInvalidValue            dst or src is NULL
 *   cudaErrorInvalidValue            the addresses contradict kind: HostToDevice needs dst in
 *                                    device memory, DeviceToHost src, DeviceToDevice both
 *                                    (HostToHost and Default accept any address)
 *   cudaErrorInvalidValue            a range that starts in an allocation runs past its end */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);

/* cudaMemcpy ordered in stream; it may return before the copy is done.
 * Returns: as cudaMemcpy (kind is checked before stream), and
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream EXTMEM_RT_DEFAULT(0));

/* Sets count bytes of device memory to the low byte of value, in the legacy default stream.
 * Returns:
 *   cudaSuccess            count is 0 (devPtr is not looked at)
 *   cudaErrorInvalidValue  devPtr is NULL, or not device memory (pageable host memory), or
 *                          the range runs past the end of its allocation */
EXTMEM_API cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count);

/* cudaMemset ordered in stream.
 * Returns: as cudaMemset, and
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count,
                                                 cudaStream_t stream EXTMEM_RT_DEFAULT(0));

/* ---- Streams ---------------------------------------------------------------------------
 * NULL (and cudaStreamLegacy) is the legacy default stream, cudaStreamPerThread the
 * per-thread one. */

/* A blocking stream (cudaStreamDefault).
 * Returns:
 *   cudaErrorInvalidValue  pStream is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream);

/* Returns:
 *   cudaErrorInvalidValue  pStream is NULL; flags is not cudaStreamDefault or
 *                          cudaStreamNonBlocking */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);

/* Work already queued still runs; the call returns at once.
 * Returns:
 *   cudaErrorInvalidResourceHandle  stream is NULL, cudaStreamLegacy or cudaStreamPerThread
 *                                   (the default streams cannot be destroyed), or destroyed
 *                                   or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream);

/* Returns:
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream);

/* Returns:
 *   cudaSuccess                     all work queued in stream is done
 *   cudaErrorNotReady               some is pending (not recorded as the last error)
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);

/* Work queued in stream after this call waits for the event's recorded work.
 * Returns:
 *   cudaErrorInvalidValue           flags is not cudaEventWaitDefault or
 *                                   cudaEventWaitExternal (checked before the event)
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged; stream is destroyed
 *                                   or forged
 *   cudaErrorIllegalState           flags is cudaEventWaitExternal: it belongs to stream
 *                                   capture, which extmem does not have (the driver's answer,
 *                                   and NVIDIA's outside capture) */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                                     unsigned int flags EXTMEM_RT_DEFAULT(0));

/* Queues fn(userData) in stream: it runs on a driver thread once the work before it is done,
 * and work after it waits for it to return. fn must not call CUDA.
 * Returns:
 *   cudaErrorInvalidValue           fn is NULL
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/* ---- Events -------------------------------------------------------------------------- */

/* A timing event (cudaEventDefault).
 * Returns:
 *   cudaErrorInvalidValue  event is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);

/* Returns:
 *   cudaErrorInvalidValue  event is NULL; flags has a bit outside BlockingSync |
 *                          DisableTiming | Interprocess; Interprocess without DisableTiming */
EXTMEM_API cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);

/* Captures the work queued in stream so far.
 * Returns:
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged; stream is destroyed
 *                                   or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream EXTMEM_RT_DEFAULT(0));

/* Returns:
 *   cudaSuccess                     the recorded work is done, or the event was never
 *                                   recorded
 *   cudaErrorNotReady               the recorded work is pending (not recorded as the last
 *                                   error)
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event);

/* Waits for the recorded work; an event never recorded is complete.
 * Returns:
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event);

/* Milliseconds between two recorded, completed timing events.
 * Returns:
 *   cudaErrorInvalidValue           ms is NULL
 *   cudaErrorInvalidResourceHandle  start or end is NULL, destroyed or forged, was never
 *                                   recorded, or has timing disabled
 *   cudaErrorNotReady               either has not completed (not recorded as the last
 *                                   error) */
EXTMEM_API cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* Returns:
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event);

/* ---- Per-thread default stream forms ---------------------------------------------------
 * What the calls above become under CUDA_API_PER_THREAD_DEFAULT_STREAM: the same results,
 * with the per-thread stream where the plain form uses the legacy one (for the _ptsz forms:
 * where stream is NULL). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value, size_t count);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_CUDA_RUNTIME_API_H */
