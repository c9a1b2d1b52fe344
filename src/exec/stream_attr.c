/*
 * src/exec/stream_attr.c: what a stream is told and answers besides its work: its attributes
 * (cuStreamGet/Set/CopyAttributes), the callback form of host functions (cuStreamAddCallback),
 * (its capture status is src/graph/capture.c's).
 *
 * The attributes are hints to the GPU's scheduler and caches (CUDA Driver API, "Stream
 * Management"): the software device keeps each one, checks it as the driver documents, and
 * reads it back. The priority is the stream's own (cuStreamGetPriority), clamped into the
 * context's range as cuStreamCreateWithPriority clamps it.
 */
#include "exec/exec.h"
#include "exec/per_thread.h"

#include <stdlib.h>
#include <string.h>

/* cuCtxGetStreamPriorityRange's answer on the H100 (docs/probes/surface/probe.out). */
enum { LEAST_PRIORITY = 0, GREATEST_PRIORITY = -5 };

static bool known_attr(CUstreamAttrID attr)
{
    return attr == CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW || attr == CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY ||
           attr == CU_STREAM_ATTRIBUTE_PRIORITY || attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ||
           attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN;
}

/* With s->lock held (s NULL: a default stream, whose attributes are the defaults). */
static void get_attr(const struct stream *s, CUstreamAttrID attr, CUstreamAttrValue *v)
{
    memset(v, 0, sizeof(*v));
    switch (attr) {
    case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        if (s)
            v->accessPolicyWindow = s->access_policy;
        break;
    case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        v->syncPolicy = s && s->sync_policy ? s->sync_policy : CU_SYNC_POLICY_AUTO;
        break;
    case CU_STREAM_ATTRIBUTE_PRIORITY:
        v->priority = s ? s->priority : 0;
        break;
    case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        if (s)
            v->memSyncDomainMap = s->mem_sync_domain_map;
        else
            v->memSyncDomainMap.remote = 1;
        break;
    default: /* CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN */
        v->memSyncDomain = s ? s->mem_sync_domain : CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT;
        break;
    }
}

static CUresult check_value(const char *fn, CUstreamAttrID attr, const CUstreamAttrValue *v)
{
    switch (attr) {
    case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW: {
        const CUaccessPolicyWindow *w = &v->accessPolicyWindow;
        if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f))
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: the access policy window's hitRatio %g is not in [0, 1]", fn,
                        (double)w->hitRatio);
        if ((unsigned)w->hitProp > CU_ACCESS_PROPERTY_PERSISTING)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: hitProp %d is not a CUaccessProperty", fn, (int)w->hitProp);
        /* "missProp ... Must be either NORMAL or STREAMING" (cuda.h). */
        if ((unsigned)w->missProp > CU_ACCESS_PROPERTY_STREAMING)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: missProp %d is neither NORMAL nor STREAMING", fn,
                        (int)w->missProp);
        return CUDA_SUCCESS;
    }
    case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        if (v->syncPolicy < CU_SYNC_POLICY_AUTO || v->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: syncPolicy %d is not a CUsynchronizationPolicy (1..4)", fn,
                        (int)v->syncPolicy);
        return CUDA_SUCCESS;
    case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN:
        if ((unsigned)v->memSyncDomain > CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE)
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: memSyncDomain %d is not a CUlaunchMemSyncDomain", fn,
                        (int)v->memSyncDomain);
        return CUDA_SUCCESS;
    default:
        return CUDA_SUCCESS;
    }
}

/* With s->lock held. */
static void set_attr(struct stream *s, CUstreamAttrID attr, const CUstreamAttrValue *v)
{
    switch (attr) {
    case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW:
        s->access_policy = v->accessPolicyWindow;
        break;
    case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        s->sync_policy = v->syncPolicy;
        break;
    case CU_STREAM_ATTRIBUTE_PRIORITY:
        s->priority = v->priority < GREATEST_PRIORITY ? GREATEST_PRIORITY
                      : v->priority > LEAST_PRIORITY  ? LEAST_PRIORITY
                                                      : v->priority;
        break;
    case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
        s->mem_sync_domain_map = v->memSyncDomainMap;
        break;
    default:
        s->mem_sync_domain = v->memSyncDomain;
        break;
    }
}

CUresult CUDAAPI cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue *value_out)
{
    const char *fn = "cuStreamGetAttribute";
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    if (!value_out)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: value_out is NULL", fn);
    else if (!known_attr(attr))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a stream attribute", fn, (int)attr);
    else if (t.s) {
        os_mutex_lock(&t.s->lock);
        get_attr(t.s, attr, value_out);
        os_mutex_unlock(&t.s->lock);
    } else {
        get_attr(NULL, attr, value_out);
    }
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue *value)
{
    const char *fn = "cuStreamSetAttribute";
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    if (!value)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: value is NULL", fn);
    else if (!known_attr(attr))
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not a stream attribute", fn, (int)attr);
    else if (!t.s)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: the default streams' attributes cannot be changed; create a stream", fn);
    else if (!(r = check_value(fn, attr, value))) {
        os_mutex_lock(&t.s->lock);
        set_attr(t.s, attr, value);
        os_mutex_unlock(&t.s->lock);
    }
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    const char *fn = "cuStreamCopyAttributes";
    static const CUstreamAttrID all[] = {CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW,
                                         CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, CU_STREAM_ATTRIBUTE_PRIORITY,
                                         CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN};
    struct target from, to;
    CUresult r = target_get(fn, src, &from);
    if (r)
        return r;
    if ((r = target_get(fn, dst, &to))) {
        target_put(&from);
        return r;
    }
    if (!to.s)
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: dst is a default stream, whose attributes cannot be changed", fn);
    else if (from.s != to.s) {
        CUstreamAttrValue v[sizeof(all) / sizeof(all[0])];
        if (from.s)
            os_mutex_lock(&from.s->lock);
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
            get_attr(from.s, all[i], &v[i]);
        if (from.s)
            os_mutex_unlock(&from.s->lock);
        os_mutex_lock(&to.s->lock);
        for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
            set_attr(to.s, all[i], &v[i]);
        os_mutex_unlock(&to.s->lock);
    }
    target_put(&to);
    target_put(&from);
    return r;
}

/* ---- cuStreamAddCallback ---- */

struct callback_call {
    CUstream stream;
    CUstreamCallback fn;
    void *data;
};

static void CUDA_CB run_callback(void *arg)
{
    struct callback_call c = *(struct callback_call *)arg;
    free(arg);
    /* The stream's earlier work ran: a failed kernel is reported by the calls that wait
     * (cuStreamSynchronize), as for cuLaunchHostFunc. */
    c.fn(c.stream, CUDA_SUCCESS, c.data);
}

CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
    const char *fn = "cuStreamAddCallback";
    if (!callback)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: callback is NULL", fn);
    /* "flags: Reserved for future use, must be 0" (cuda.h). */
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags %u is not 0", fn, flags);
    /* A callback runs once and frees its record: it cannot be a node that runs at every launch.
     * A capturing stream refuses it (cuLaunchHostFunc is what graphs take). */
    struct target t;
    CUresult r = target_get(fn, hStream, &t);
    if (r)
        return r;
    r = capture_check_target(&t);
    target_put(&t);
    if (r)
        return r;
    struct callback_call *c = malloc(sizeof(*c));
    if (!c)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    c->stream = hStream;
    c->fn = callback;
    c->data = userData;
    if ((r = cuLaunchHostFunc(hStream, run_callback, c)))
        free(c);
    return r;
}

/* ---- Per-thread default stream variants (per_thread.h) ---- */
CUresult CUDAAPI cuStreamGetAttribute_ptsz(CUstream s, CUstreamAttrID attr, CUstreamAttrValue *v)
{
    return cuStreamGetAttribute(per_thread(s), attr, v);
}
CUresult CUDAAPI cuStreamSetAttribute_ptsz(CUstream s, CUstreamAttrID attr, const CUstreamAttrValue *v)
{
    return cuStreamSetAttribute(per_thread(s), attr, v);
}
CUresult CUDAAPI cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
    return cuStreamCopyAttributes(per_thread(dst), per_thread(src));
}
CUresult CUDAAPI cuStreamAddCallback_ptsz(CUstream s, CUstreamCallback cb, void *data, unsigned int flags)
{
    return cuStreamAddCallback(per_thread(s), cb, data, flags);
}
