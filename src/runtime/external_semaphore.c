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

/* Parameters are converted in batches, so any number of semaphores goes through. */
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

/* One driver call for all of them, so the stream sees one piece of work, as the driver's
 * caller would: the parameters are converted into a buffer of the driver's type. */
static cudaError_t signal_all(const char *fn, const cudaExternalSemaphore_t *sems,
                              const struct cudaExternalSemaphoreSignalParams *params, unsigned int n, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!sems || !params || n == 0)
        return rt_fail(cudaErrorInvalidValue, "%s: %s", fn,
                       !sems ? "extSemArray is NULL" : !params ? "paramsArray is NULL" : "numExtSems is 0");
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS local[BATCH], *p = n <= BATCH ? local : malloc(n * sizeof(*p));
    if (!p)
        return rt_fail(cudaErrorMemoryAllocation, "%s: out of host memory for %u parameters", fn, n);
    for (unsigned int i = 0; i < n; ++i)
        signal_params(&p[i], &params[i]);
    err = rt_cu(cuSignalExternalSemaphoresAsync((const CUexternalSemaphore *)(const void *)sems, p, n,
                                                (CUstream)(void *)stream));
    if (p != local)
        free(p);
    return err;
}

static cudaError_t wait_all(const char *fn, const cudaExternalSemaphore_t *sems,
                            const struct cudaExternalSemaphoreWaitParams *params, unsigned int n, cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    if (!sems || !params || n == 0)
        return rt_fail(cudaErrorInvalidValue, "%s: %s", fn,
                       !sems ? "extSemArray is NULL" : !params ? "paramsArray is NULL" : "numExtSems is 0");
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS local[BATCH], *p = n <= BATCH ? local : malloc(n * sizeof(*p));
    if (!p)
        return rt_fail(cudaErrorMemoryAllocation, "%s: out of host memory for %u parameters", fn, n);
    for (unsigned int i = 0; i < n; ++i)
        wait_params(&p[i], &params[i]);
    err = rt_cu(cuWaitExternalSemaphoresAsync((const CUexternalSemaphore *)(const void *)sems, p, n,
                                              (CUstream)(void *)stream));
    if (p != local)
        free(p);
    return err;
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
