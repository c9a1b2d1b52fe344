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
#include "extmem/surface_types.h"
#include "extmem/texture_types.h"

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
#define cudaEventRecordWithFlags cudaEventRecordWithFlags_ptsz
#define cudaStreamGetPriority cudaStreamGetPriority_ptsz
#define cudaStreamGetId     cudaStreamGetId_ptsz
#define cudaStreamGetDevice cudaStreamGetDevice_ptsz
#define cudaLaunchHostFunc  cudaLaunchHostFunc_ptsz
#define cudaLaunchKernel    cudaLaunchKernel_ptsz
#define cudaStreamAddCallback cudaStreamAddCallback_ptsz
#define cudaMemcpyToSymbol  cudaMemcpyToSymbol_ptds
#define cudaMemcpyFromSymbol cudaMemcpyFromSymbol_ptds
#define cudaMemcpyToSymbolAsync cudaMemcpyToSymbolAsync_ptsz
#define cudaMemcpyFromSymbolAsync cudaMemcpyFromSymbolAsync_ptsz
#define cudaMemPrefetchAsync cudaMemPrefetchAsync_ptsz
#define cudaStreamAttachMemAsync cudaStreamAttachMemAsync_ptsz
#define cudaMemPrefetchBatchAsync cudaMemPrefetchBatchAsync_ptsz
#define cudaMemDiscardBatchAsync cudaMemDiscardBatchAsync_ptsz
#define cudaMemDiscardAndPrefetchBatchAsync cudaMemDiscardAndPrefetchBatchAsync_ptsz
#define cudaMallocAsync     cudaMallocAsync_ptsz
#define cudaMemcpy2D        cudaMemcpy2D_ptds
#define cudaMemcpyToArray   cudaMemcpyToArray_ptds
#define cudaMemcpy2DToArray cudaMemcpy2DToArray_ptds
#define cudaMemcpyFromArray cudaMemcpyFromArray_ptds
#define cudaMemcpy2DFromArray cudaMemcpy2DFromArray_ptds
#define cudaMemcpyArrayToArray cudaMemcpyArrayToArray_ptds
#define cudaMemcpy2DArrayToArray cudaMemcpy2DArrayToArray_ptds
#define cudaMemcpyToArrayAsync cudaMemcpyToArrayAsync_ptsz
#define cudaMemcpy2DToArrayAsync cudaMemcpy2DToArrayAsync_ptsz
#define cudaMemcpyFromArrayAsync cudaMemcpyFromArrayAsync_ptsz
#define cudaMemcpy2DFromArrayAsync cudaMemcpy2DFromArrayAsync_ptsz
#define cudaMemcpy2DAsync   cudaMemcpy2DAsync_ptsz
#define cudaMemcpy3D        cudaMemcpy3D_ptds
#define cudaMemcpy3DAsync   cudaMemcpy3DAsync_ptsz
#define cudaMemcpy3DPeer    cudaMemcpy3DPeer_ptds
#define cudaMemcpy3DPeerAsync cudaMemcpy3DPeerAsync_ptsz
#define cudaMemset2D        cudaMemset2D_ptds
#define cudaMemset2DAsync   cudaMemset2DAsync_ptsz
#define cudaMemset3D        cudaMemset3D_ptds
#define cudaMemset3DAsync   cudaMemset3DAsync_ptsz
#define cudaMemcpyBatchAsync cudaMemcpyBatchAsync_ptsz
#define cudaMemcpy3DBatchAsync cudaMemcpy3DBatchAsync_ptsz
#define cudaSignalExternalSemaphoresAsync cudaSignalExternalSemaphoresAsync_ptsz
#define cudaWaitExternalSemaphoresAsync cudaWaitExternalSemaphoresAsync_ptsz
#define cudaFreeAsync       cudaFreeAsync_ptsz
#define cudaMallocFromPoolAsync cudaMallocFromPoolAsync_ptsz
#define cudaLaunchKernelExC cudaLaunchKernelExC_ptsz
#define cudaLaunchCooperativeKernel cudaLaunchCooperativeKernel_ptsz
#define cudaGetDriverEntryPoint cudaGetDriverEntryPoint_ptsz
#define cudaStreamGetFlags  cudaStreamGetFlags_ptsz
#define cudaStreamGetAttribute cudaStreamGetAttribute_ptsz
#define cudaStreamSetAttribute cudaStreamSetAttribute_ptsz
#define cudaStreamCopyAttributes cudaStreamCopyAttributes_ptsz
#define cudaStreamIsCapturing cudaStreamIsCapturing_ptsz
#define cudaGetDriverEntryPointByVersion cudaGetDriverEntryPointByVersion_ptsz
#define __cudaLaunchKernel  __cudaLaunchKernel_ptsz
#define cudaGraphInstantiateWithParams cudaGraphInstantiateWithParams_ptsz
#define cudaGraphUpload     cudaGraphUpload_ptsz
#define cudaGraphLaunch     cudaGraphLaunch_ptsz
#define cudaStreamBeginCapture cudaStreamBeginCapture_ptsz
#define cudaStreamBeginCaptureToGraph cudaStreamBeginCaptureToGraph_ptsz
#define cudaStreamEndCapture cudaStreamEndCapture_ptsz
#define cudaStreamGetCaptureInfo cudaStreamGetCaptureInfo_ptsz
#define cudaStreamUpdateCaptureDependencies cudaStreamUpdateCaptureDependencies_ptsz
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

/* ---- Driver entry points ----------------------------------------------------------------
 * The driver's functions by base name ("cuMemAlloc"), through cuGetProcAddress: the variant
 * of cudaVersion (cudaGetDriverEntryPoint: this runtime's, CUDART_VERSION). flags:
 * cudaEnableLegacyStream, cudaEnablePerThreadDefaultStream, or cudaEnableDefault (the
 * per-thread forms where the program is compiled for the per-thread default stream).
 * A name the driver lacks, or lacks at that version, is cudaSuccess with *funcPtr NULL and
 * *driverStatus saying which, as NVIDIA's runtime answers.
 * Returns:
 *   cudaErrorInvalidValue  symbol or funcPtr NULL, unknown flags, cudaVersion newer than the
 *                          driver */
EXTMEM_API cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                                        enum cudaDriverEntryPointQueryResult *driverStatus);
EXTMEM_API cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                                 unsigned int cudaVersion, unsigned long long flags,
                                                                 enum cudaDriverEntryPointQueryResult *driverStatus);
EXTMEM_API cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                             unsigned long long flags,
                                                             enum cudaDriverEntryPointQueryResult *driverStatus);
EXTMEM_API cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus);

/* The driver's private tables (cuGetExportTable): extmem has none, cudaErrorNotSupported. */
EXTMEM_API cudaError_t CUDARTAPI cudaGetExportTable(const void **ppExportTable, const cudaUUID_t *pExportTableId);

/* A channel format: the bits of each channel and their kind. Sets no error. */
EXTMEM_API struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                       enum cudaChannelFormatKind f);

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
/* The image's levels as a mipmapped array over the very bytes (cuExternalMemoryGetMappedMipmappedArray);
 * free it with cudaFreeMipmappedArray. cudaErrorInvalidValue for a NULL pointer, a bad
 * descriptor or an image past the memory; cudaErrorInvalidChannelDescriptor for a channel
 * descriptor that is no array format; cudaErrorInvalidResourceHandle for a handle that is no
 * live external memory. */
EXTMEM_API cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem, const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem);

/* ---- External semaphores ----
 * The driver's rules and codes (see cuImportExternalSemaphore in extmem/cuda.h), mapped to
 * cudaError_t. CUDA 12's libcudart exported the signal and wait calls also as ..._v2; the
 * libraries export those names too, for programs built against CUDA 12's headers. */
EXTMEM_API cudaError_t CUDARTAPI cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                                             const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                                   const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                                   unsigned int numExtSems,
                                                                   cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                                 const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                                 unsigned int numExtSems,
                                                                 cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem);

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

/* ---- Registered host memory ----
 * The driver's cuMemHostRegister rules and codes (extmem/cuda.h), mapped to cudaError_t:
 * cudaErrorHostMemoryAlreadyRegistered for a range sharing a page with a registered one,
 * cudaErrorHostMemoryNotRegistered for an unregister of memory never registered,
 * cudaErrorInvalidValue for the rest (NULL, size 0, unknown flags, cudaHostRegisterIoMemory,
 * memory CUDA allocated, an address inside a registered range but not its start). */
EXTMEM_API cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaHostUnregister(void *ptr);
/* The flags of page-locked host memory, allocated or registered: cudaHostAllocMapped always,
 * with the others that were asked for.
 * Returns:
 *   cudaErrorInvalidValue  pFlags NULL, or pHost in no page-locked memory (*pFlags untouched) */
EXTMEM_API cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost);

/* ---- Pitched and 3D memory ----
 * Rows are padded to a multiple of 512 bytes, as on the H100.
 * cudaMallocPitch returns:
 *   cudaErrorInvalidValue      devPtr or pitch NULL
 *   cudaSuccess                with *devPtr NULL when width or height is 0 (*pitch 0 for a
 *                              width of 0, as NVIDIA's runtime answers)
 *   cudaErrorMemoryAllocation  the memory cannot be had
 * cudaMalloc3D: the same for pitchedDevPtr NULL and a 0 extent; xsize and ysize echo the
 * extent's width and height. */
EXTMEM_API cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
EXTMEM_API cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);

/* height rows of width bytes, as cuMemcpy2D (a large copy runs on all cores).
 * Returns:
 *   cudaSuccess                      width or height is 0 (nothing else is looked at)
 *   cudaErrorInvalidMemcpyDirection  kind is not a cudaMemcpyKind
 *   cudaErrorInvalidValue            dst or src NULL; the addresses contradict kind (as cudaMemcpy)
 *   cudaErrorInvalidPitchValue       dpitch or spitch below width, or above the maximum pitch
 *   the driver's cuMemcpy2D codes otherwise (a side running past its allocation) */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                              size_t height, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                   size_t width, size_t height, enum cudaMemcpyKind kind,
                                                   cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* A 3D copy between pitched pointers (cuMemcpy3D's rules: extent.width and positions' x are
 * bytes; a pointer's ysize is its layer height).
 * Returns:
 *   cudaErrorInvalidValue            p NULL; a side with both an array and a pointer, or neither;
 *                                    the addresses contradict kind
 *   cudaErrorInvalidMemcpyDirection  kind is not a cudaMemcpyKind
 *   the driver's cuMemcpy3D codes otherwise (an array side: src/image/array_copy.c)
 * Where an array takes part, positions and the extent's width are in its elements (a pointer
 * side's x stays in bytes), as NVIDIA's runtime reads them. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                                   cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* Between devices: every ordinal must be 0, the only device (cudaErrorInvalidDevice). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
                                                       cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                                size_t count);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                                     size_t count, cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* Fills height rows of width bytes with the low byte of value (cuMemsetD2D8).
 * Returns:
 *   cudaSuccess            width or height is 0
 *   cudaErrorInvalidValue  devPtr NULL, not device memory, pitch below width, past the end */
EXTMEM_API cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                                   size_t height, cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* The same through extent.depth layers of pitchedDevPtr.ysize rows.
 * Returns: as cudaMemset2D, and cudaErrorInvalidValue where several layers are filled and
 * ysize is below extent.height (the layers would overlap). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                                   struct cudaExtent extent, cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* Batches (CUDA 13's forms: libcudart.so.12 exports CUDA 12.8's, which take a size_t *failIdx
 * before the stream, or before flags). The driver's rules and codes (cuMemcpyBatchAsync,
 * cuMemcpy3DBatchAsync in extmem/cuda.h). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                                      size_t count, struct cudaMemcpyAttributes *attrs,
                                                      size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                        unsigned long long flags, cudaStream_t stream);

/* ---- CUDA arrays and mipmapped arrays (src/runtime/array.c) ------------------------------
 * The driver's arrays (cuArray3DCreate, cuMipmappedArrayCreate; docs/images.md) under the
 * runtime's names. A channel descriptor becomes a CUarray_format as NVIDIA's runtime maps it:
 * Signed, Unsigned and Float kinds with 1, 2 or 4 channels of equal bits (8, 16, 32; Float 16
 * or 32), the normalized, BC and 1010102 kinds with the bits cudaCreateChannelDesc gives them,
 * NV12 (8, 8, 8, 0: a video array, made with CUDA_ARRAY3D_VIDEO_ENCODE_DECODE).
 *   cudaErrorInvalidValue              an out-pointer or desc NULL; the driver's INVALID_VALUE
 *                                      (a shape, a flag, a limit)
 *   cudaErrorInvalidChannelDescriptor  a channel descriptor that names no format (3 channels,
 *                                      unequal or unknown bits, a gap, an unknown kind)
 *   cudaErrorInvalidResourceHandle     a destroyed or forged array
 *   cudaErrorNotSupported              cudaArraySparse (no sparse arrays) */
EXTMEM_API cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                                 size_t width, size_t height EXTMEM_RT_DEFAULT(0),
                                                 unsigned int flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                                   struct cudaExtent extent, unsigned int flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                          const struct cudaChannelFormatDesc *desc,
                                                          struct cudaExtent extent, unsigned int numLevels,
                                                          unsigned int flags EXTMEM_RT_DEFAULT(0));
/* NULL is success (nothing to free). */
EXTMEM_API cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
EXTMEM_API cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
EXTMEM_API cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                                            cudaMipmappedArray_const_t mipmappedArray,
                                                            unsigned int level);
/* Any of desc, extent, flags may be NULL. The extent is the array's (0 where it has no such
 * dimension, as the driver's descriptor says). */
EXTMEM_API cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                                  unsigned int *flags, cudaArray_t array);
EXTMEM_API cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
                                                   unsigned int planeIdx);
EXTMEM_API cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *memoryRequirements,
                                                                cudaArray_t array, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaMipmappedArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaMipmappedArray_t mipmap, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
                                                              cudaArray_t array);
EXTMEM_API cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaMipmappedArray_t mipmap);
EXTMEM_API cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
/* Copies with arrays. Offsets and widths are in bytes (rows and layers for y and z); the
 * deprecated 1D forms copy count bytes from (wOffset, hOffset) on through the following rows,
 * as the runtime always has. cudaMemcpy3D's positions and extent are in the array's elements
 * where an array takes part (bytes otherwise). The kind says which side a pointer is on:
 * cudaErrorInvalidMemcpyDirection for one that contradicts the array's side (an array is
 * device memory), cudaErrorInvalidPitchValue for a pitch below width; the driver's copy codes
 * otherwise. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                     size_t spitch, size_t width, size_t height,
                                                     enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                                       size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                       enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                          cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                          size_t width, size_t height,
                                                          enum cudaMemcpyKind kind
                                                              EXTMEM_RT_DEFAULT(cudaMemcpyDeviceToDevice));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                          const void *src, size_t spitch, size_t width, size_t height,
                                                          enum cudaMemcpyKind kind,
                                                          cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                            size_t wOffset, size_t hOffset, size_t width,
                                                            size_t height, enum cudaMemcpyKind kind,
                                                            cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                   size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                     size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                        cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                        size_t count,
                                                        enum cudaMemcpyKind kind
                                                            EXTMEM_RT_DEFAULT(cudaMemcpyDeviceToDevice));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                        const void *src, size_t count, enum cudaMemcpyKind kind,
                                                        cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                          cudaStream_t stream EXTMEM_RT_DEFAULT(0));
/* The per-thread default stream forms (what the names above become under
 * CUDA_API_PER_THREAD_DEFAULT_STREAM). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                          const void *src, size_t spitch, size_t width, size_t height,
                                                          enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                                            size_t wOffset, size_t hOffset, size_t width,
                                                            size_t height, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                               cudaArray_const_t src, size_t wOffsetSrc,
                                                               size_t hOffsetSrc, size_t width, size_t height,
                                                               enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                               const void *src, size_t spitch, size_t width,
                                                               size_t height, enum cudaMemcpyKind kind,
                                                               cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                                 size_t wOffset, size_t hOffset, size_t width,
                                                                 size_t height, enum cudaMemcpyKind kind,
                                                                 cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                        const void *src, size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                             cudaArray_const_t src, size_t wOffsetSrc,
                                                             size_t hOffsetSrc, size_t count,
                                                             enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                             const void *src, size_t count, enum cudaMemcpyKind kind,
                                                             cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                               size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                               cudaStream_t stream);

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

/* Priorities are clamped into cudaDeviceGetStreamPriorityRange's [-5, 0].
 * Returns:
 *   cudaErrorInvalidValue  pStream is NULL; flags is not cudaStreamDefault or
 *                          cudaStreamNonBlocking */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
/* The default streams have priority 0. Returns:
 *   cudaErrorInvalidValue           priority is NULL
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority);
/* cuStreamGetId's id: unique in the process, never reused; the default streams have theirs.
 * Returns: cudaErrorInvalidValue (streamId NULL), cudaErrorInvalidResourceHandle */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
/* Returns: cudaErrorInvalidValue (device NULL), cudaErrorInvalidResourceHandle */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int *device);

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

/* cudaEventRecord with flags: cudaEventRecordDefault, or cudaEventRecordExternal, which
 * belongs to stream capture (none in extmem) and is refused outside it as NVIDIA's runtime
 * refuses it.
 * Returns:
 *   cudaErrorInvalidValue           flags has unknown bits
 *   cudaErrorIllegalState           flags is cudaEventRecordExternal, outside stream capture
 *   cudaErrorInvalidResourceHandle  event is NULL, destroyed or forged; stream is destroyed */
EXTMEM_API cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream EXTMEM_RT_DEFAULT(0),
                                                          unsigned int flags EXTMEM_RT_DEFAULT(0));

/* ---- Device management, continued ------------------------------------------------------ */

/* Initialises device (its primary context) for the runtime, without making it the thread's
 * device; with cudaInitDeviceFlagsAreValid in flags, deviceFlags are applied as by
 * cudaSetDeviceFlags, else ignored.
 * Returns:
 *   cudaErrorInvalidDevice  device is not 0
 *   cudaErrorInvalidValue   flags has bits other than cudaInitDeviceFlagsAreValid; deviceFlags
 *                           refused by cudaSetDeviceFlags */
EXTMEM_API cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);

/* Least priority 0, greatest -5 (cuCtxGetStreamPriorityRange); either pointer may be NULL. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
/* Succeeds: there is no L2 (cuCtxResetPersistingL2Cache). */
EXTMEM_API cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void);
/* The current context's preferences (cuCtxSetCacheConfig, cuCtxSetSharedMemConfig): kept,
 * changing nothing on the software device; the bank size reads back cudaSharedMemBankSizeFourByte.
 * Returns: cudaErrorInvalidValue for a NULL out-pointer or a value outside the enum. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);

/* cuDeviceGetP2PAttribute: cudaErrorInvalidDevice for every pair (one device, not its own peer),
 * cudaErrorInvalidValue for value NULL or an unknown attr. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
                                                           int dstDevice);
/* cuDeviceGetPCIBusId / cuDeviceGetByPCIBusId: the software device is "0000:00:00.0".
 * Returns: cudaErrorInvalidValue (NULL, len too short, text that is no PCI address),
 *          cudaErrorInvalidDevice (device not 0, an address that is not the device's) */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
/* cuDeviceGetTexture1DLinearMaxWidth for the format fmtDesc describes (channels of 8, 16 or 32
 * bits, all the same size; signed, unsigned or float).
 * Returns: cudaErrorInvalidValue (NULL, a format that is not one of those, 3 channels),
 *          cudaErrorInvalidDevice */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                                      const struct cudaChannelFormatDesc *fmtDesc,
                                                                      int device);

/* The best device for prop: the software device, 0, whatever prop asks.
 * Returns:
 *   cudaErrorInvalidValue  device or prop is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);

/* Flags for the primary context of the thread's device (cudaDeviceSchedule*, cudaDeviceMapHost,
 * cudaDeviceLmemResizeToMax, cudaDeviceSyncMemops), through cuDevicePrimaryCtxSetFlags, so they
 * hold whether or not the context is active (CUDA 13 no longer refuses an active one).
 * Returns:
 *   cudaErrorInvalidValue  flags has a bit outside cudaDeviceMask, or more than one
 *                          scheduling bit */
EXTMEM_API cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags);

/* The flags of the thread device's primary context, with cudaDeviceMapHost always set (host
 * memory is always mapped on the software device, as on every device NVIDIA still supports).
 * Returns:
 *   cudaErrorInvalidValue  flags is NULL */
EXTMEM_API cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags);

/* One device: a device cannot be its own peer, so *canAccessPeer is 0.
 * Returns:
 *   cudaErrorInvalidValue   canAccessPeer is NULL
 *   cudaErrorInvalidDevice  device or peerDevice is not 0 */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);

/* One device, which is the current one: NVIDIA's answers for a device and itself (probed on an
 * H100, CUDA 13.0; tools/probes/runtime_probe.cu).
 * Returns:
 *   cudaErrorInvalidValue           flags is not 0
 *   cudaErrorInvalidDevice          peerDevice is not 0
 *   cudaErrorPeerAccessUnsupported  peerDevice is 0, the current device */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);

/* Returns:
 *   cudaErrorInvalidDevice         peerDevice is not 0
 *   cudaErrorPeerAccessNotEnabled  peerDevice is 0, the current device */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice);

/* Per-process limits. The runtime keeps them, starting from what an H100 reports under CUDA
 * 13.0 (stack 1024 bytes per thread, malloc heap 8 MiB, sync depth 0, pending launches 2048,
 * L2 fetch granularity 64, persisting L2 0); the software device does not need them to run
 * kernels. The printf FIFO is the current context's, as cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE)
 * keeps and rounds it (8650752 bytes by default): its launches keep their printf records within
 * it (docs/kernels.md, "printf and assert").
 * Returns:
 *   cudaErrorInvalidValue  pValue is NULL (GetLimit); limit is not a cudaLimit (NVIDIA's
 *                          answer, not cudaErrorUnsupportedLimit); cudaLimitMaxL2FetchGranularity
 *                          above 128 */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value);

/* ---- Streams, continued ---- */

/* Queues callback(stream, cudaSuccess, userData) in stream, as cudaLaunchHostFunc does.
 * Returns:
 *   cudaErrorInvalidValue           callback is NULL; flags is not 0
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                                       void *userData, unsigned int flags);

/* The stream's flags (cuStreamGetFlags). */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
/* A stream's attributes (cuStreamGetAttribute): kept and read back. */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                                        cudaStreamAttrValue *value_out);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                                        const cudaStreamAttrValue *value);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
/* Whether stream is capturing (cuStreamIsCapturing). */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);

/* ---- Graphs and stream capture ---------------------------------------------------------
 * The driver's graphs (extmem/cuda.h, docs/graphs.md) in the runtime's words: each call
 * makes the thread's context current as the others do, converts the runtime's node
 * parameters to the driver's and back, and returns the driver's result translated. What the
 * runtime itself answers:
 *   cudaErrorInvalidValue           a NULL output or parameter pointer the call needs; a
 *                                   cudaMemcpyKind that is none; a node parameter block the
 *                                   runtime cannot convert (an unknown cudaGraphNodeType)
 *   cudaErrorInvalidDeviceFunction  a kernel node's func is no registered kernel
 *   cudaErrorInvalidSymbol          a symbol copy's symbol is no registered variable
 *   cudaErrorInvalidDevice          a device ordinal out of range (graph memory calls)
 * A kernel node's getter gives back the host function the node was made with. */

/* Capture: work queued on stream is recorded into a graph instead of run. */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                               const cudaGraphNode_t *dependencies,
                                                               const cudaGraphEdgeData *dependencyData,
                                                               size_t numDependencies, enum cudaStreamCaptureMode mode);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
/* The capture's status, id, graph and open ends; every output but the status may be NULL.
 * The CUDA 13 form (the driver's cuStreamGetCaptureInfo_v3). */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                          enum cudaStreamCaptureStatus *captureStatus_out,
                                                          unsigned long long *id_out EXTMEM_RT_DEFAULT(0),
                                                          cudaGraph_t *graph_out EXTMEM_RT_DEFAULT(0),
                                                          const cudaGraphNode_t **dependencies_out EXTMEM_RT_DEFAULT(0),
                                                          const cudaGraphEdgeData **edgeData_out EXTMEM_RT_DEFAULT(0),
                                                          size_t *numDependencies_out EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                                     const cudaGraphEdgeData *dependencyData,
                                                                     size_t numDependencies,
                                                                     unsigned int flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);

/* Graphs and their nodes. */
EXTMEM_API cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                                          cudaGraph_t clonedGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                                       size_t *pNumRootNodes);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                                   cudaGraphEdgeData *edgeData, size_t *numEdges);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                              cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                                cudaGraphEdgeData *edgeData,
                                                                size_t *pNumDependentNodes);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                          const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                          size_t numDependencies);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                             const cudaGraphNode_t *to,
                                                             const cudaGraphEdgeData *edgeData, size_t numDependencies);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies,
                                                  const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                  struct cudaGraphNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                        const struct cudaKernelNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                              struct cudaKernelNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                              const struct cudaKernelNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                                 cudaKernelNodeAttrValue *value_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                                 const cudaKernelNodeAttrValue *value);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                        const struct cudaMemcpy3DParms *pCopyParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                          void *dst, const void *src, size_t count,
                                                          enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                                const cudaGraphNode_t *pDependencies,
                                                                size_t numDependencies, const void *symbol,
                                                                const void *src, size_t count, size_t offset,
                                                                enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                                  const cudaGraphNode_t *pDependencies,
                                                                  size_t numDependencies, void *dst,
                                                                  const void *symbol, size_t count, size_t offset,
                                                                  enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                                              struct cudaMemcpy3DParms *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                              const struct cudaMemcpy3DParms *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                                                size_t count, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                                      const void *src, size_t count, size_t offset,
                                                                      enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                                        const void *symbol, size_t count,
                                                                        size_t offset, enum cudaMemcpyKind kind);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                        const struct cudaMemsetParams *pMemsetParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                              const struct cudaMemsetParams *pNodeParams);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                      const struct cudaHostNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                                            const struct cudaHostNodeParams *pNodeParams);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                            const cudaGraphNode_t *pDependencies,
                                                            size_t numDependencies, cudaGraph_t childGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies, size_t numDependencies);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                             const cudaGraphNode_t *pDependencies,
                                                             size_t numDependencies, cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                           const cudaGraphNode_t *pDependencies,
                                                           size_t numDependencies, cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams *params_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreWaitNodeParams *params_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);

/* Graph-owned memory: the node's address is written to nodeParams->dptr. */
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                          const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                          struct cudaMemAllocNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                                struct cudaMemAllocNodeParams *params_out);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                         const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                         void *dptr);
/* dptr_out is a void ** passed as void *, as in NVIDIA's header. */
EXTMEM_API cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                                void *value);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                                void *value);

EXTMEM_API cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                                  cudaGraph_t graph,
                                                                  unsigned int defaultLaunchValue EXTMEM_RT_DEFAULT(0),
                                                                  unsigned int flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);

/* User objects. */
EXTMEM_API cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                                      unsigned int initialRefcount, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t object, unsigned int count EXTMEM_RT_DEFAULT(1));
EXTMEM_API cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t object, unsigned int count EXTMEM_RT_DEFAULT(1));
EXTMEM_API cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                           unsigned int count EXTMEM_RT_DEFAULT(1),
                                                           unsigned int flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                            unsigned int count EXTMEM_RT_DEFAULT(1));

/* Executable graphs. cudaGraphInstantiate has the CUDA 12 form (flags, not an error node and
 * a log buffer). */
EXTMEM_API cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                      unsigned long long flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                               unsigned long long flags EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                                cudaGraphInstantiateParams *instantiateParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);

/* ---- Texture and surface objects ----
 * The driver's cuTexObject* and cuSurfObject* with the runtime's descriptors: the channel
 * descriptor of linear memory becomes a CUarray_format and channel count, and the texture
 * descriptor's readMode, sRGB, normalizedCoords, disableTrilinearOptimization and seamlessCubemap
 * become CU_TRSF_* flags (readMode cudaReadModeElementType: CU_TRSF_READ_AS_INTEGER).
 * cudaErrorInvalidValue for what the driver refuses (extmem/cuda.h lists it);
 * cudaErrorInvalidChannelDescriptor for a channel descriptor that names no format,
 * cudaErrorInvalidNormSetting for a normalized kind or normalized reads of anything but 8 and
 * 16-bit integers, cudaErrorInvalidFilterSetting for linear filtering of integers read as
 * integers, cudaErrorInvalidResourceHandle for a NULL cudaTextureDesc (as NVIDIA's runtime
 * answers). Destroying 0 or a handle that names no object is cudaSuccess. */
EXTMEM_API cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                                         const struct cudaResourceDesc *pResDesc,
                                                         const struct cudaTextureDesc *pTexDesc,
                                                         const struct cudaResourceViewDesc *pResViewDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject);
EXTMEM_API cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                                  cudaTextureObject_t texObject);
EXTMEM_API cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                                 cudaTextureObject_t texObject);
EXTMEM_API cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                                      cudaTextureObject_t texObject);
EXTMEM_API cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                                         const struct cudaResourceDesc *pResDesc);
EXTMEM_API cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
EXTMEM_API cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                                  cudaSurfaceObject_t surfObject);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                                     cudaGraphExecUpdateResultInfo *resultInfo);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                            struct cudaGraphNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                  const struct cudaKernelNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                  const struct cudaMemcpy3DParms *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                    void *dst, const void *src, size_t count,
                                                                    enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                                          cudaGraphNode_t node, const void *symbol,
                                                                          const void *src, size_t count,
                                                                          size_t offset, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                                            cudaGraphNode_t node, void *dst,
                                                                            const void *symbol, size_t count,
                                                                            size_t offset, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                  const struct cudaMemsetParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                const struct cudaHostNodeParams *pNodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                      cudaGraph_t childGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                                      cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                                    cudaEvent_t event);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                         unsigned int isEnabled);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                         unsigned int *isEnabled);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec);

/* ---- Pointers ---------------------------------------------------------------------------
 * What memory ptr is in: device memory (cudaMalloc), host memory the device maps
 * (cudaMallocHost, cudaHostRegister), managed memory, or cudaMemoryTypeUnregistered for any
 * other address (not an error, as in CUDA 11 and later). */
EXTMEM_API cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* ---- Libraries (cuLibrary*): a module loaded into every context ---- */
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                                     enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                                     unsigned int numJitOptions,
                                                     enum cudaLibraryOption *libraryOptions,
                                                     void **libraryOptionValues, unsigned int numLibraryOptions);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName,
                                                         enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                                         unsigned int numJitOptions,
                                                         enum cudaLibraryOption *libraryOptions,
                                                         void **libraryOptionValues, unsigned int numLibraryOptions);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library, const char *name);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library,
                                                      const char *name);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib);
EXTMEM_API cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels,
                                                             cudaLibrary_t lib);
/* A kernel's attribute for one device (cuKernelSetAttribute). */
EXTMEM_API cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                                                 int value, int device);

/* The dynamic shared memory a block may use with numBlocks blocks of blockSize threads on a
 * multiprocessor (cuOccupancyAvailableDynamicSMemPerBlock). */
EXTMEM_API cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                          int numBlocks, int blockSize);

/* cuDeviceGetHostAtomicCapabilities / cuDeviceGetP2PAtomicCapabilities with runtime types. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                                     const enum cudaAtomicOperation *operations,
                                                                     unsigned int count, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                                    const enum cudaAtomicOperation *operations,
                                                                    unsigned int count, int srcDevice, int dstDevice);

/* The devices a thread may be given, in order of preference: only device 0 exists. */
EXTMEM_API cudaError_t CUDARTAPI cudaSetValidDevices(int *device_arr, int len);

/* Makes GPUDirect RDMA writes visible: the software device's memory is host memory, so a full
 * memory fence does it. */
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceFlushGPUDirectRDMAWrites(enum cudaFlushGPUDirectRDMAWritesTarget target,
                                                                    enum cudaFlushGPUDirectRDMAWritesScope scope);

/* ---- Managed memory ---------------------------------------------------------------------
 * All device memory is host memory: managed memory is device memory the host may touch
 * (cuMemAllocManaged), which remembers what it was advised and where it was prefetched, for
 * cudaMemRangeGetAttribute(s); nothing moves. Each call is the driver's (extmem/cuda.h says
 * which codes and when), in the runtime's codes. */

/* Returns:
 *   cudaErrorInvalidValue      devPtr is NULL; flags is not cudaMemAttachGlobal or
 *                              cudaMemAttachHost
 *   cudaSuccess                with *devPtr = NULL when size is 0 (NVIDIA's runtime too)
 *   cudaErrorMemoryAllocation  the memory cannot be had */
EXTMEM_API cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size,
                                                   unsigned int flags EXTMEM_RT_DEFAULT(cudaMemAttachGlobal));

/* CUDA 13's form (a cudaMemLocation; libcudart.so.12 exports CUDA 12's, with an int device).
 * Returns:
 *   cudaErrorInvalidValue           devPtr is NULL or count is 0; the range is not inside one
 *                                   allocation the driver knows; flags is not 0; location is
 *                                   not the device 0 or the host
 *   cudaErrorInvalidDevice          location names a device other than 0
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                      unsigned int flags, cudaStream_t stream EXTMEM_RT_DEFAULT(0));

/* Returns:
 *   cudaErrorInvalidValue   as cudaMemPrefetchAsync for the range; advice is not a
 *                           cudaMemoryAdvise; the location is not the host or device 0 where
 *                           the advice needs one (read-mostly takes none) */
EXTMEM_API cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                               struct cudaMemLocation location);
/* As cuMemRangeGetAttribute(s): data answers what the range's pages were told.
 *   cudaErrorInvalidValue   data NULL; dataSize wrong for the attribute; an unknown attribute;
 *                           count 0; the range not inside one cudaMallocManaged allocation */
EXTMEM_API cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize,
                                                          enum cudaMemRangeAttribute attribute, const void *devPtr,
                                                          size_t count);
EXTMEM_API cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                                           enum cudaMemRangeAttribute *attributes,
                                                           size_t numAttributes, const void *devPtr, size_t count);
/* As cuStreamAttachMemAsync: cudaErrorInvalidValue for memory that is not managed (cudaMalloc
 * memory too, as NVIDIA's runtime answers), a length that is neither 0 nor the allocation's
 * size, unknown flags, cudaMemAttachSingle on the legacy stream. */
EXTMEM_API cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
                                                          size_t length EXTMEM_RT_DEFAULT(0),
                                                          unsigned int flags EXTMEM_RT_DEFAULT(cudaMemAttachSingle));
/* As cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync and cuMemDiscardAndPrefetchBatchAsync
 * (CUDA 12.8): a discard keeps the bytes (CUDA makes them undefined). */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                           struct cudaMemLocation *prefetchLocs,
                                                           size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                           unsigned long long flags, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                          unsigned long long flags, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                                     struct cudaMemLocation *prefetchLocs,
                                                                     size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                                     unsigned long long flags, cudaStream_t stream);

/* ---- The driver's log (CUDA 12.9): the cuLogs* calls, in the runtime's codes ---- */
typedef void (CUDART_CB *cudaLogsCallback_t)(void *data, cudaLogLevel logLevel, char *message, size_t length);
EXTMEM_API cudaError_t CUDARTAPI cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                                                          cudaLogsCallbackHandle *callback_out);
EXTMEM_API cudaError_t CUDARTAPI cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback);
EXTMEM_API cudaError_t CUDARTAPI cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaLogsDumpToFile(cudaLogIterator *iterator, const char *pathToFile,
                                                    unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaLogsDumpToMemory(cudaLogIterator *iterator, char *buffer, size_t *size,
                                                      unsigned int flags);

/* ---- Stream-ordered allocation and memory pools (docs/memory-pools.md) ------------------
 * Over the driver's pools (cuMemAllocAsync, cuMemPool*): an allocation is usable at once; a
 * free gives the memory back to its pool once the stream's earlier work has run. Codes are the
 * driver's, as the runtime maps them: a NULL out-pointer, a bad pool handle, a bad attribute or
 * property are cudaErrorInvalidValue; a device other than 0 is cudaErrorInvalidDevice; a
 * destroyed or forged stream is cudaErrorInvalidResourceHandle. */

/* Returns:
 *   cudaErrorInvalidValue           devPtr is NULL
 *   cudaSuccess                     with *devPtr = NULL when size is 0
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged
 *   cudaErrorMemoryAllocation       the memory cannot be had */
EXTMEM_API cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                                         cudaStream_t stream);

/* Returns:
 *   cudaErrorInvalidValue           devPtr is not the start of a live allocation
 *   cudaErrorInvalidResourceHandle  stream is destroyed or forged */
EXTMEM_API cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t stream);

EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
EXTMEM_API cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
/* By location (CUDA 13), as cuMemGetDefaultMemPool, cuMemGetMemPool, cuMemSetMemPool. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                                          enum cudaMemAllocationType type);
EXTMEM_API cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                                   enum cudaMemAllocationType type);
EXTMEM_API cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                                   cudaMemPool_t memPool);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
/* cudaErrorInvalidValue: the default pool. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool);
/* Reserved and used bytes are true counts: see docs/memory-pools.md for when memory is kept.
 * cudaErrorInvalidValue: value is NULL; attr is not a cudaMemPoolAttr; a current counter is
 * set; a high mark is set to anything but 0. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                                      size_t count);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                                      struct cudaMemLocation *location);
/* POSIX: shareableHandle points to an int that receives a new fd, the caller's to close. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                                                    enum cudaMemAllocationHandleType handleType,
                                                                    unsigned int flags);
/* The caller's fd stays open and the caller's. */
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                                      enum cudaMemAllocationHandleType handleType,
                                                                      unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData, void *ptr);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                                                          struct cudaMemPoolPtrExportData *exportData);

/* ---- Kernels ----------------------------------------------------------------------------
 * A kernel is named by its host function: the stub nvcc or clang generates for a __global__
 * function, which the program registered with __cudaRegisterFunction at start-up. The fat
 * binary holding the kernel is loaded into the current context on its first use there (once
 * per context), as NVIDIA's runtime does lazily. Below, func NULL is
 * cudaErrorInvalidDeviceFunction and a pointer that names no registered kernel
 * cudaErrorInvalidResourceHandle, with a reason naming it: NVIDIA's answers (H100, CUDA 13.0). */

/* Launches func with args (one pointer per parameter, as cuLaunchKernel's kernelParams).
 * Returns:
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel
 *   cudaErrorInvalidKernelImage     its fat binary holds no image the engine can load (the
 *                                   reason says why: a bad wrapper, relocatable device code)
 *   cudaErrorInvalidValue           a grid or block dimension is 0, the block has more
 *                                   threads than the kernel takes, or too much shared memory
 *                                   (the driver's answer, as on an H100)
 *   (from cuLaunchKernel)           the rest, translated; a fault of an earlier kernel is
 *                                   sticky (cudaErrorIllegalAddress, cudaErrorLaunchFailure) */
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                       size_t sharedMem, cudaStream_t stream);

/* cudaLaunchKernel with a configuration. Attributes with no effect on the software device
 * are accepted: cudaLaunchAttributeIgnore, AccessPolicyWindow, SynchronizationPolicy,
 * Priority, ClusterSchedulingPolicyPreference and a cluster of 1x1x1; cooperative nonzero makes
 * it cudaLaunchCooperativeKernel's launch.
 * Returns: as cudaLaunchKernel, and
 *   cudaErrorInvalidValue   config is NULL (NVIDIA's runtime crashes); numAttrs is not 0 and
 *                           attrs is NULL
 *   cudaErrorCooperativeLaunchTooLarge  as cudaLaunchCooperativeKernel
 *   cudaErrorNotSupported   a cluster: the engine runs none (an H100 does) */
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                                          void **args);

/* cudaLaunchKernel with every block of the grid resident at once (issue 25), so that blocks may
 * wait for each other: cooperative_groups' grid.sync().
 * Returns: as cudaLaunchKernel, and
 *   cudaErrorCooperativeLaunchTooLarge  more blocks than cudaOccupancyMaxActiveBlocksPerMultiprocessor
 *                                       times cudaDevAttrMultiProcessorCount */
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                             size_t sharedMem, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                                  void **args, size_t sharedMem, cudaStream_t stream);

/* The kernel's attributes (cuFuncGetAttribute of each field); reserved is zeroed.
 * Returns:
 *   cudaErrorInvalidValue           attr is NULL
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel */
EXTMEM_API cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);

/* Returns:
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel
 *   cudaErrorInvalidValue           attr is not a cudaFuncAttribute that can be set; value out
 *                                   of its range (cuFuncSetAttribute's answer) */
EXTMEM_API cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);

/* The preference is kept (cuFuncSetCacheConfig) and changes nothing on the software device.
 * Returns:
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel
 *   cudaErrorInvalidValue           cacheConfig is not a cudaFuncCache */
EXTMEM_API cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
/* Accepted and ignored (cuFuncSetSharedMemConfig). Errors as cudaFuncSetCacheConfig. */
EXTMEM_API cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
/* The kernel's name as the module has it (mangled for C++: "_Z1kPii"), and its parameters'
 * offsets and sizes (cuFuncGetName, cuFuncGetParamInfo).
 * Returns:
 *   cudaErrorInvalidValue           name NULL; paramIndex past the last parameter
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel */
EXTMEM_API cudaError_t CUDARTAPI cudaFuncGetName(const char **name, const void *func);
EXTMEM_API cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                      size_t *paramSize);
/* The driver function of a registered kernel in the current context (loaded there if need be),
 * and the runtime's kernel handle, which cudaLaunchKernel-style launches and __cudaLaunchKernel
 * take.
 * Returns:
 *   cudaErrorInvalidValue           functionPtr / kernelPtr NULL
 *   cudaErrorInvalidDeviceFunction  the symbol is NULL
 *   cudaErrorInvalidResourceHandle  the symbol is not a registered kernel */
EXTMEM_API cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
EXTMEM_API cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);

/* Blocks of blockSize threads with dynamicSMemSize bytes of dynamic shared memory that fit on
 * one multiprocessor at once (cuOccupancyMaxActiveBlocksPerMultiprocessor).
 * Returns:
 *   cudaErrorInvalidValue           numBlocks is NULL; flags is not cudaOccupancyDefault or
 *                                   cudaOccupancyDisableCachingOverride
 *   cudaErrorInvalidDeviceFunction  func is NULL
 *   cudaErrorInvalidResourceHandle  func is not a registered kernel
 *   (from the driver)               blockSize or dynamicSMemSize out of range */
EXTMEM_API cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                               int blockSize, size_t dynamicSMemSize);
EXTMEM_API cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                                        const void *func,
                                                                                        int blockSize,
                                                                                        size_t dynamicSMemSize,
                                                                                        unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                                const cudaLaunchConfig_t *launchConfig);
EXTMEM_API cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                                      const cudaLaunchConfig_t *launchConfig);

/* ---- Device variables -------------------------------------------------------------------
 * A __device__ or __constant__ variable is named by its host shadow (&variable in host code),
 * registered with __cudaRegisterVar. Its module is loaded into the current context on first
 * use, as a kernel's is. */

/* Copies count bytes from src to the variable, at offset bytes into it, in the legacy
 * default stream (the Async forms: in stream).
 * Returns:
 *   cudaErrorInvalidSymbol           symbol is not a registered variable
 *   cudaErrorInvalidValue            offset + count runs past the variable's end
 *   cudaErrorInvalidMemcpyDirection  kind is not HostToDevice, DeviceToDevice or Default
 *                                    (ToSymbol), DeviceToHost, DeviceToDevice or Default
 *                                    (FromSymbol)
 *   (from cudaMemcpy)                as cudaMemcpy for src / dst */
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                                    size_t offset EXTMEM_RT_DEFAULT(0),
                                                    enum cudaMemcpyKind kind EXTMEM_RT_DEFAULT(cudaMemcpyHostToDevice));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                                      size_t offset EXTMEM_RT_DEFAULT(0),
                                                      enum cudaMemcpyKind kind EXTMEM_RT_DEFAULT(cudaMemcpyDeviceToHost));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                         size_t offset, enum cudaMemcpyKind kind,
                                                         cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                           enum cudaMemcpyKind kind,
                                                           cudaStream_t stream EXTMEM_RT_DEFAULT(0));

/* The variable's device address and size (cuModuleGetGlobal).
 * Returns:
 *   cudaErrorInvalidValue   devPtr / size is NULL
 *   cudaErrorInvalidSymbol  symbol is not a registered variable */
EXTMEM_API cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol);
EXTMEM_API cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol);

/* ---- Registration ABI -------------------------------------------------------------------
 * What compilers' host code calls (nvcc's crt/host_runtime.h, clang's CUDA code generation);
 * not for programs to call. The handle __cudaRegisterFatBinary returns names the fat binary
 * in the calls after it. The wrapper it takes is {int magic = 0x466243b1; int version; const
 * void *data; void *unused}: data is a fat binary (nvcc) or PTX text ending in a NUL byte
 * (extmem's CMake helper through clang), loaded lazily. Failures cannot be returned from
 * start-up: a bad wrapper is recorded and reported by the first launch that needs it. */
EXTMEM_API void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);
EXTMEM_API void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
EXTMEM_API void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);
EXTMEM_API void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                                 const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                                 dim3 *bDim, dim3 *gDim, int *wSize);
EXTMEM_API void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                            const char *deviceName, int ext, size_t size, int constant, int global);
EXTMEM_API void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                                   char *deviceAddress, const char *deviceName, int ext, size_t size,
                                                   int constant, int global);
EXTMEM_API char CUDARTAPI __cudaInitModule(void **fatCubinHandle);
EXTMEM_API unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem EXTMEM_RT_DEFAULT(0),
                                                          struct CUstream_st *stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                            void *stream);
EXTMEM_API cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
EXTMEM_API cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                                    size_t sharedMem, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                                         size_t sharedMem, cudaStream_t stream);

/* The launch ABI of older compilers (clang before CUDA 9.2 mode, which is what clang picks
 * with no CUDA installation): the configuration, then each argument copied at its offset,
 * then the launch. Per thread, like the configuration stack.
 * Returns:
 *   cudaErrorInvalidValue           (cudaSetupArgument) the arguments pass 4 KiB, or arg is
 *                                   NULL with size not 0
 *   cudaErrorMissingConfiguration   (cudaLaunch) no cudaConfigureCall came before it
 *   and cudaLaunchKernel's results */
EXTMEM_API cudaError_t CUDARTAPI cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem EXTMEM_RT_DEFAULT(0),
                                                   cudaStream_t stream EXTMEM_RT_DEFAULT(0));
EXTMEM_API cudaError_t CUDARTAPI cudaSetupArgument(const void *arg, size_t size, size_t offset);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunch(const void *func);

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
EXTMEM_API cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                               unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
EXTMEM_API cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                                            void *userData, unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                                         size_t offset, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                                           enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                              size_t offset, enum cudaMemcpyKind kind,
                                                              cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                                size_t offset, enum cudaMemcpyKind kind,
                                                                cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                                           struct cudaMemLocation location, unsigned int flags,
                                                           cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                             cudaStreamAttrValue *value_out);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                                             const cudaStreamAttrValue *value);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                                            enum cudaStreamCaptureStatus *pCaptureStatus);
EXTMEM_API cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                               unsigned int flags);
EXTMEM_API cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                                struct cudaMemLocation *prefetchLocs,
                                                                size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                                unsigned long long flags, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                               unsigned long long flags, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                                          struct cudaMemLocation *prefetchLocs,
                                                                          size_t *prefetchLocIdxs,
                                                                          size_t numPrefetchLocs,
                                                                          unsigned long long flags,
                                                                          cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                              cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                   size_t width, size_t height, enum cudaMemcpyKind kind);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                        size_t width, size_t height, enum cudaMemcpyKind kind,
                                                        cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                                            cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                                   size_t height);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                                        size_t height, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                                   struct cudaExtent extent);
EXTMEM_API cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                                        struct cudaExtent extent, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                                           const size_t *sizes, size_t count,
                                                           struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                                           size_t numAttrs, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                             unsigned long long flags, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                                     cudaGraphInstantiateParams *instantiateParams);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                                    const cudaGraphNode_t *dependencies,
                                                                    const cudaGraphEdgeData *dependencyData,
                                                                    size_t numDependencies,
                                                                    enum cudaStreamCaptureMode mode);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
EXTMEM_API cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                          cudaGraphNode_t *dependencies,
                                                                          const cudaGraphEdgeData *dependencyData,
                                                                          size_t numDependencies,
                                                                          unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* EXTMEM_CUDA_RUNTIME_API_H */
