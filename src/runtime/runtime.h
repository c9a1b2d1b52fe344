/*
 * src/runtime/runtime.h: what the files of the runtime layer share.
 *
 * The runtime is a client of the public driver API, as NVIDIA's runtime is of libcuda: it
 * calls cu* entry points only, and translates their results. Its own state is the thread's
 * last error (error.c) and the thread's device and context (context.c).
 */
#ifndef EXTMEM_RUNTIME_H
#define EXTMEM_RUNTIME_H

#include <stdbool.h>

#include "extmem/cuda.h"
#include "extmem/cuda_runtime_api.h"

/* The one platform difference of this layer: how a variable is made per thread. */
#if defined(_MSC_VER) && !defined(__clang__)
#define RT_THREAD_LOCAL __declspec(thread)
#else
#define RT_THREAD_LOCAL _Thread_local
#endif

#define RT_PRINTF(f, a) EXTMEM_PRINTF_FORMAT(f, a)

/* Provided by the core (src/device/error.c): records a failure's reason in the thread and logs it
 * under EXTMEM_LOG; returns code. */
CUresult extmem__fail(CUresult code, const char *file, int line, const char *fmt, ...);

/* ---- Results (error.c) ---- */

/* The runtime code for a driver result, through the one table of error.c. Codes with no
 * runtime counterpart (CUDA_ERROR_CONTEXT_ALREADY_CURRENT, CUDA_ERROR_KEY_ROTATION) are
 * cudaErrorUnknown. */
cudaError_t rt_from_cu(CUresult r);

/* Every runtime entry point returns through one of these. rt_result records err as the
 * thread's last error unless it is cudaSuccess or cudaErrorNotReady; rt_cu does the same for
 * a driver result, leaving the driver's reason in place. */
cudaError_t rt_result(cudaError_t err);
cudaError_t rt_cu(CUresult r);

/* A failure the runtime finds itself: records the reason (a "function: what: why" message)
 * with the driver code of the same meaning, sets the last error and returns err. */
cudaError_t rt__fail(cudaError_t err, const char *file, int line, const char *fmt, ...) RT_PRINTF(4, 5);
#define rt_fail(err, ...) rt__fail((err), __FILE__, __LINE__, __VA_ARGS__)

/* ---- Devices and contexts (context.c) ---- */

/* Makes sure the driver is initialised (cuInit), without creating a context. */
CUresult rt_driver_init(void);

/* Checks an ordinal and turns it into a CUdevice; cudaErrorInvalidDevice (with a reason)
 * otherwise. fn names the caller for the reason. */
cudaError_t rt_device(const char *fn, int ordinal, CUdevice *dev);

/* Makes sure the thread has a context current, as the runtime does before any call that
 * works in one: a context the thread already has is used; otherwise the primary context of
 * the thread's device is retained (once per process) and made current. */
cudaError_t rt_context(void);

/* The thread's device becomes ordinal (already checked) and its primary context current. */
cudaError_t rt_set_device(int ordinal);

/* The thread's device, as cudaSetDevice left it (0 by default). */
int rt_thread_device(void);

/* Resets the primary context of the thread's device; every thread retains it afresh on its
 * next call. */
cudaError_t rt_reset_device(void);

/* Counts cudaDeviceReset calls: what the runtime loaded into the primary context of an
 * earlier generation (modules) is gone. */
unsigned int rt_context_generation(void);

/* ---- Kernels and variables (register.c) ---- */

/* The kernel a host function names, loaded into the current context (rt_context first):
 * cudaErrorInvalidDeviceFunction (with a reason naming fn) when hostFun is no registered
 * kernel, the module load's result when its image cannot be loaded. */
cudaError_t rt_kernel_function(const char *fn, const void *hostFun, CUfunction *f);

/* The host function whose kernel resolved to f (rt_kernel_function), for the calls that hand
 * a kernel back (graph kernel nodes); NULL when f is no registered kernel's. */
const void *rt_kernel_host(CUfunction f);

/* A registered __device__ / __constant__ variable's device address and size in the current
 * context: cudaErrorInvalidSymbol (with a reason) when symbol is no registered variable. */
cudaError_t rt_symbol(const char *fn, const void *symbol, CUdeviceptr *dptr, size_t *size);

/* The checks cudaMemcpyToSymbol / cudaMemcpyFromSymbol make (kind cudaErrorInvalidMemcpyDirection,
 * the symbol, count bytes at offset within it: cudaErrorInvalidValue), and the variable's
 * address at offset (kernel.c). */
cudaError_t rt_to_symbol(const char *fn, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                         void **at);
cudaError_t rt_from_symbol(const char *fn, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                           void **at);

/* ---- Memory (memory.c) ---- */

/* True when the driver knows p (device memory, page-locked or registered host memory, other
 * mapped memory); asks without recording an error. */
bool rt_is_device_memory(const void *p);

/* The checks NVIDIA's runtime makes before a copy, in its order: the kind (cudaErrorInvalid-
 * MemcpyDirection), NULL addresses, the context, then the addresses against the kind
 * (HostToDevice needs dst in device memory, DeviceToHost src, DeviceToDevice both). */
cudaError_t rt_memcpy_check(const char *fn, void *dst, const void *src, enum cudaMemcpyKind kind);

/* ---- Pitched and 3D copies (pitched.c) ---- */

/* A runtime 3D copy as the driver's descriptor, after the checks cudaMemcpy3D makes (the
 * kind, one side each, the addresses against the kind); p is not NULL. Needs no context. */
cudaError_t rt_copy3d_to_cu(const char *fn, const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c);

/* And back, for the calls that read a copy: a pointer side is its host or device address, the
 * kind follows the two memory types (cudaMemcpyDefault for unified ones). */
void rt_copy3d_from_cu(const CUDA_MEMCPY3D *c, struct cudaMemcpy3DParms *p);

/* Where an array takes part in a 3D copy (src or dst not NULL), turns its x positions and the
 * width from the arrays' elements into bytes, as the runtime counts them (NVIDIA's runtime
 * reads positions and extents in elements of the array; a pointer side's x is in bytes). */
cudaError_t rt_copy3d_elements_to_bytes(CUarray src, CUarray dst, size_t *src_x, size_t *dst_x, size_t *width);

/* ---- Arrays (array.c) ---- */
/* A channel descriptor as NVIDIA's runtime maps it to an array format and channel count:
 * cudaErrorInvalidChannelDescriptor (with a reason naming fn) when it names none. */
cudaError_t rt_format_from_desc(const char *fn, const struct cudaChannelFormatDesc *d, CUarray_format *format,
                                unsigned int *channels);
/* And back (cudaGetChannelDesc): the kind and bits cudaCreateChannelDesc<T> would give; the
 * video formats without a kind are cudaChannelFormatKindNone with no bits. */
void rt_desc_from_format(CUarray_format format, unsigned int channels, struct cudaChannelFormatDesc *d);
/* Bytes of one element of array (one 4x4 block for a BC format): the lookup's error otherwise. */
cudaError_t rt_array_element_bytes(CUarray array, size_t *bytes);

/* ---- Streams (stream.c) ---- */

/* The stream a _ptsz form means: NULL is the per-thread stream there. */
/* A runtime pointer as a driver device pointer (unified addressing: the same value). */
static inline CUdeviceptr rt_dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

static inline cudaStream_t rt_ptsz(cudaStream_t stream)
{
    return stream ? stream : cudaStreamPerThread;
}

#endif /* EXTMEM_RUNTIME_H */
