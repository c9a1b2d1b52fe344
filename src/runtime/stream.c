/*
 * src/runtime/stream.c: streams and host functions.
 *
 * A cudaStream_t is a CUstream. The driver tells a destroyed or forged handle from a live one
 * (DESIGN.md section 6), so the runtime passes handles through; it checks what the driver
 * would accept but the runtime refuses (destroying a default stream).
 */
#include <stdint.h>
#include <stdlib.h>

#include "runtime/runtime.h"

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream)
{
    if (pStream == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamCreate: pStream is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamCreate(pStream, CU_STREAM_DEFAULT));
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    if (pStream == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamCreateWithFlags: pStream is NULL");
    if (flags & ~(unsigned int)cudaStreamNonBlocking)
        return rt_fail(cudaErrorInvalidValue,
                       "cudaStreamCreateWithFlags: flags 0x%x has unknown bits: use cudaStreamDefault or "
                       "cudaStreamNonBlocking",
                       flags);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamCreate(pStream, flags));
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream)
{
    if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return rt_fail(cudaErrorInvalidResourceHandle,
                       "cudaStreamDestroy: stream %p is a default stream: only streams from "
                       "cudaStreamCreate can be destroyed",
                       (void *)stream);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamDestroy(stream));
}

static cudaError_t rt_stream_synchronize(cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamSynchronize(stream));
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream)
{
    return rt_stream_synchronize(stream);
}

cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    return rt_stream_synchronize(rt_ptsz(stream));
}

static cudaError_t rt_stream_query(cudaStream_t stream)
{
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamQuery(stream));
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream)
{
    return rt_stream_query(stream);
}

cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream)
{
    return rt_stream_query(rt_ptsz(stream));
}

static cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    /* NVIDIA's runtime looks at the flags before the event. */
    if (flags & ~(unsigned int)cudaEventWaitExternal)
        return rt_fail(cudaErrorInvalidValue,
                       "cudaStreamWaitEvent: flags 0x%x has unknown bits: use cudaEventWaitDefault or "
                       "cudaEventWaitExternal",
                       flags);
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: event is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamWaitEvent(stream, event, flags));
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return rt_stream_wait_event(stream, event, flags);
}

cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return rt_stream_wait_event(rt_ptsz(stream), event, flags);
}

static cudaError_t rt_launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    if (fn == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaLaunchHostFunc: fn is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    /* cudaHostFn_t and CUhostFn are the same function type. */
    return rt_cu(cuLaunchHostFunc(stream, (CUhostFn)fn, userData));
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return rt_launch_host_func(stream, fn, userData);
}

cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return rt_launch_host_func(rt_ptsz(stream), fn, userData);
}

/* cudaStreamAddCallback's callback takes the stream and a status besides the user's data:
 * a trampoline carries them to cuLaunchHostFunc. */
struct rt_callback {
    cudaStreamCallback_t callback;
    cudaStream_t stream;
    void *userData;
};

static void CUDA_CB rt_callback_run(void *p)
{
    struct rt_callback c = *(struct rt_callback *)p;
    free(p);
    /* A host function runs only after the work before it succeeded: the status is success
     * (a failed stream's later work, callbacks included, does not run on extmem). */
    c.callback(c.stream, cudaSuccess, c.userData);
}

static cudaError_t rt_stream_add_callback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                          unsigned int flags)
{
    if (callback == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamAddCallback: callback is NULL");
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamAddCallback: flags 0x%x is not 0", flags);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    struct rt_callback *c = malloc(sizeof *c);
    if (c == NULL)
        return rt_fail(cudaErrorMemoryAllocation, "cudaStreamAddCallback: out of host memory");
    *c = (struct rt_callback){callback, stream, userData};
    CUresult r = cuLaunchHostFunc(stream, rt_callback_run, c);
    if (r != CUDA_SUCCESS)
        free(c);
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags)
{
    return rt_stream_add_callback(stream, callback, userData, flags);
}

cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                                 unsigned int flags)
{
    return rt_stream_add_callback(rt_ptsz(stream), callback, userData, flags);
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    const char *fn = "cudaStreamCreateWithPriority";
    if (pStream == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: pStream is NULL", fn);
    if (flags & ~(unsigned int)cudaStreamNonBlocking)
        return rt_fail(cudaErrorInvalidValue,
                       "%s: flags 0x%x has unknown bits: use cudaStreamDefault or cudaStreamNonBlocking", fn, flags);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamCreateWithPriority(pStream, flags, priority)); /* the driver clamps it */
}

static cudaError_t rt_stream_get_priority(cudaStream_t stream, int *priority)
{
    if (priority == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamGetPriority: priority is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamGetPriority(stream, priority));
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    return rt_stream_get_priority(hStream, priority);
}

cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    return rt_stream_get_priority(rt_ptsz(hStream), priority);
}

static cudaError_t rt_stream_get_id(cudaStream_t stream, unsigned long long *streamId)
{
    if (streamId == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamGetId: streamId is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuStreamGetId(stream, streamId));
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    return rt_stream_get_id(hStream, streamId);
}

cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    return rt_stream_get_id(rt_ptsz(hStream), streamId);
}

static cudaError_t rt_stream_get_device(cudaStream_t stream, int *device)
{
    if (device == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamGetDevice: device is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    CUdevice dev;
    CUresult r = cuStreamGetDevice(stream, &dev);
    if (r == CUDA_SUCCESS)
        *device = (int)dev;
    return rt_cu(r);
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    return rt_stream_get_device(hStream, device);
}

cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    return rt_stream_get_device(rt_ptsz(hStream), device);
}
