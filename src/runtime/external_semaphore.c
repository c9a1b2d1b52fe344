/* The runtime's external semaphore calls: the driver's, with the runtime's types and codes. */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

/* The runtime's descriptors have the driver's layout (tests/abi checks both against NVIDIA's
 * headers); copying field by field keeps that an implementation detail. */
cudaError_t CUDARTAPI cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                                  const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!extSem_out || !semHandleDesc)
        return rt_fail(cudaErrorInvalidValue, "cudaImportExternalSemaphore: %s is NULL",
                       !extSem_out ? "extSem_out" : "semHandleDesc");
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
    memset(&d, 0, sizeof(d));
    d.type = (CUexternalSemaphoreHandleType)semHandleDesc->type;
    d.handle.win32.handle = semHandleDesc->handle.win32.handle;
    d.handle.win32.name = semHandleDesc->handle.win32.name;
    if (d.type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD ||
        d.type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD)
        d.handle.fd = semHandleDesc->handle.fd;
    d.flags = semHandleDesc->flags;
    memcpy(d.reserved, semHandleDesc->reserved, sizeof(d.reserved));
    CUexternalSemaphore s = NULL;
    err = rt_cu(cuImportExternalSemaphore(&s, &d));
    if (err == cudaSuccess)
        *extSem_out = (cudaExternalSemaphore_t)(void *)s;
    return err;
}

/* Up to BATCH parameters are converted on the stack, more in memory of their own. */
#define BATCH 32

static void signal_params(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *out, const struct cudaExternalSemaphoreSignalParams *in)
{
    memset(out, 0, sizeof(*out));
    out->params.fence.value = in->params.fence.value;
    out->params.nvSciSync.reserved = in->params.nvSciSync.reserved;
    out->params.keyedMutex.key = in->params.keyedMutex.key;
    memcpy(out->params.reserved, in->params.reserved, sizeof(out->params.reserved));
    out->flags = in->flags;
    memcpy(out->reserved, in->reserved, sizeof(out->reserved));
}

static void wait_params(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *out, const struct cudaExternalSemaphoreWaitParams *in)
{
    memset(out, 0, sizeof(*out));
    out->params.fence.value = in->params.fence.value;
    out->params.nvSciSync.reserved = in->params.nvSciSync.reserved;
    out->params.keyedMutex.key = in->params.keyedMutex.key;
    out->params.keyedMutex.timeoutMs = in->params.keyedMutex.timeoutMs;
    memcpy(out->params.reserved, in->params.reserved, sizeof(out->params.reserved));
    out->flags = in->flags;
    memcpy(out->reserved, in->reserved, sizeof(out->reserved));
}

/* Signals or waits: the runtime's parameter type, the driver's, and the driver's call. */
struct direction {
    size_t in_size, out_size;
    void (*convert)(void *out, const void *in);
    CUresult (*call)(const CUexternalSemaphore *sems, const void *params, unsigned int n, CUstream stream);
};

static void convert_signal(void *out, const void *in) { signal_params(out, in); }
static void convert_wait(void *out, const void *in) { wait_params(out, in); }
static CUresult call_signal(const CUexternalSemaphore *sems, const void *params, unsigned int n, CUstream stream)
{
    return cuSignalExternalSemaphoresAsync(sems, params, n, stream);
}
static CUresult call_wait(const CUexternalSemaphore *sems, const void *params, unsigned int n, CUstream stream)
{
    return cuWaitExternalSemaphoresAsync(sems, params, n, stream);
}

static const struct direction signals = {sizeof(struct cudaExternalSemaphoreSignalParams),
                                         sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS), convert_signal, call_signal};
static const struct direction waits = {sizeof(struct cudaExternalSemaphoreWaitParams),
                                       sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS), convert_wait, call_wait};

/* One driver call for all of them, so the stream sees one piece of work, as the driver's
 * caller would: the parameters are converted into a buffer of the driver's type. */
static cudaError_t all(const char *fn, const struct direction *dir, const cudaExternalSemaphore_t *sems,
                       const void *params, unsigned int n, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!sems || !params || n == 0)
        return rt_fail(cudaErrorInvalidValue, "%s: %s", fn,
                       !sems ? "extSemArray is NULL" : !params ? "paramsArray is NULL" : "numExtSems is 0");
    union {
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal[BATCH];
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait[BATCH];
    } local;
    unsigned char *p = n <= BATCH ? (unsigned char *)&local : malloc((size_t)n * dir->out_size);
    if (!p)
        return rt_fail(cudaErrorMemoryAllocation, "%s: out of host memory for %u parameters", fn, n);
    for (unsigned int i = 0; i < n; ++i)
        dir->convert(p + i * dir->out_size, (const unsigned char *)params + i * dir->in_size);
    err = rt_cu(dir->call((const CUexternalSemaphore *)(const void *)sems, p, n, (CUstream)(void *)stream));
    if (p != (unsigned char *)&local)
        free(p);
    return err;
}

static cudaError_t signal_all(const char *fn, const cudaExternalSemaphore_t *sems,
                              const struct cudaExternalSemaphoreSignalParams *params, unsigned int n, cudaStream_t stream)
{
    return all(fn, &signals, sems, params, n, stream);
}

static cudaError_t wait_all(const char *fn, const cudaExternalSemaphore_t *sems,
                            const struct cudaExternalSemaphoreWaitParams *params, unsigned int n, cudaStream_t stream)
{
    return all(fn, &waits, sems, params, n, stream);
}

cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                        const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                        unsigned int numExtSems, cudaStream_t stream)
{
    return signal_all("cudaSignalExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, stream);
}

cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                                      const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                      unsigned int numExtSems, cudaStream_t stream)
{
    return wait_all("cudaWaitExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, stream);
}

cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                             const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                             unsigned int numExtSems, cudaStream_t stream)
{
    return signal_all("cudaSignalExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                           const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                           unsigned int numExtSems, cudaStream_t stream)
{
    return wait_all("cudaWaitExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

/* CUDA 12's libcudart names (the _v2 forms its header selected); same layouts. */
EXTMEM_API cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_v2(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_v2(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_v2_ptsz(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);
EXTMEM_API cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_v2_ptsz(
    const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream);

cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_v2(const cudaExternalSemaphore_t *extSemArray,
                                                           const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                           unsigned int numExtSems, cudaStream_t stream)
{
    return signal_all("cudaSignalExternalSemaphoresAsync_v2", extSemArray, paramsArray, numExtSems, stream);
}

cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_v2(const cudaExternalSemaphore_t *extSemArray,
                                                         const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                         unsigned int numExtSems, cudaStream_t stream)
{
    return wait_all("cudaWaitExternalSemaphoresAsync_v2", extSemArray, paramsArray, numExtSems, stream);
}

cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_v2_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                                const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                                unsigned int numExtSems, cudaStream_t stream)
{
    return signal_all("cudaSignalExternalSemaphoresAsync_v2", extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_v2_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                              const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                              unsigned int numExtSems, cudaStream_t stream)
{
    return wait_all("cudaWaitExternalSemaphoresAsync_v2", extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuDestroyExternalSemaphore((CUexternalSemaphore)(void *)extSem));
}
