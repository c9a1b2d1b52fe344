/*
 * src/runtime/event.c: events.
 *
 * A cudaEvent_t is a CUevent, and the driver judges handles. NULL is refused here, as NVIDIA's
 * runtime refuses it (cudaErrorInvalidResourceHandle), before any context is made.
 */
#include "runtime/runtime.h"

#define RT_EVENT_FLAGS (cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)

static cudaError_t rt_event_create(const char *fn, cudaEvent_t *event, unsigned int flags)
{
    if (event == NULL)
        return rt_fail(cudaErrorInvalidValue, "%s: event is NULL", fn);
    if (flags & ~(unsigned int)RT_EVENT_FLAGS)
        return rt_fail(cudaErrorInvalidValue,
                       "%s: flags 0x%x has unknown bits 0x%x: use cudaEventBlockingSync, "
                       "cudaEventDisableTiming and cudaEventInterprocess",
                       fn, flags, flags & ~(unsigned int)RT_EVENT_FLAGS);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    /* The cudaEvent* flags have the values of CU_EVENT_*; the driver refuses Interprocess
     * without DisableTiming. */
    return rt_cu(cuEventCreate(event, flags));
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event)
{
    return rt_event_create("cudaEventCreate", event, cudaEventDefault);
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    return rt_event_create("cudaEventCreateWithFlags", event, flags);
}

static cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream)
{
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: event is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventRecord(event, stream));
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return rt_event_record(event, stream);
}

cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return rt_event_record(event, rt_ptsz(stream));
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event)
{
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventQuery: event is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventQuery(event));
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event)
{
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: event is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventSynchronize(event));
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (ms == NULL)
        return rt_fail(cudaErrorInvalidValue, "cudaEventElapsedTime: ms is NULL");
    if (start == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: start is NULL");
    if (end == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: end is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventElapsedTime(ms, start, end));
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event)
{
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy: event is NULL");
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventDestroy(event));
}

static cudaError_t rt_event_record_with_flags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    const char *fn = "cudaEventRecordWithFlags";
    if (flags & ~(unsigned int)cudaEventRecordExternal)
        return rt_fail(cudaErrorInvalidValue,
                       "%s: flags 0x%x has unknown bits: use cudaEventRecordDefault or cudaEventRecordExternal", fn,
                       flags);
    /* An external record is a node of a stream being captured; NVIDIA's runtime refuses it
     * outside capture (docs/probes/surface), and extmem has no capture. */
    if (flags & cudaEventRecordExternal)
        return rt_fail(cudaErrorIllegalState,
                       "%s: cudaEventRecordExternal is for streams being captured into a graph, and stream is not "
                       "being captured",
                       fn);
    if (event == NULL)
        return rt_fail(cudaErrorInvalidResourceHandle, "%s: event is NULL", fn);
    cudaError_t err = rt_context();
    if (err != cudaSuccess)
        return err;
    return rt_cu(cuEventRecordWithFlags(event, stream, flags));
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return rt_event_record_with_flags(event, stream, flags);
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return rt_event_record_with_flags(event, rt_ptsz(stream), flags);
}
