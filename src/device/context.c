/*
 * Contexts: created ones (cuCtxCreate) and the device's primary context, and each thread's
 * stack of current contexts. The stack holds handles, so a context destroyed by another
 * thread is reported as destroyed, never dereferenced.
 */
#include "device/device.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTX_STACK_MAX 64

static OS_THREAD_LOCAL uint64_t ctx_stack[CTX_STACK_MAX];
static OS_THREAD_LOCAL int ctx_depth;

/* The primary context of the one device. */
static struct {
    os_mutex lock;
    struct ctx *ctx; /* NULL while inactive */
    int retains;
    unsigned int flags;
} primary = {OS_MUTEX_INITIALIZER, NULL, 0, 0};

static void ctx_free(struct obj *o)
{
    struct ctx *ctx = (struct ctx *)o;
    os_mutex_destroy(&ctx->lock);
    free(ctx);
}

uint64_t ctx_next_id(void)
{
    static _Atomic uint64_t next;
    return atomic_fetch_add(&next, 1) + 1;
}

static struct ctx *ctx_new(CUdevice dev, unsigned int flags, bool is_primary)
{
    struct ctx *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return NULL;
    ctx->dev = dev;
    ctx->flags = flags;
    ctx->primary = is_primary;
    os_mutex_init(&ctx->lock);
    list_init(&ctx->streams);
    list_init(&ctx->events);
    list_init(&ctx->ranges);
    list_init(&ctx->modules);
    ctx->stack_limit = 1024; /* the driver's default CU_LIMIT_STACK_SIZE */
    ctx->printf_fifo_limit = 8650752; /* the H100's defaults (CUDA 13.0) */
    ctx->malloc_heap_limit = 8388608;
    ctx->pending_launch_limit = 2048; /* the H200's default (CUDA 13.0) */
    ctx->id = ctx_next_id();
    ctx->legacy_stream_id = ctx_next_id();
    ctx->usage = is_primary ? 0 : 1; /* cuCtxCreate's own use, which cuCtxDetach may drop */
    if (!obj_register(&ctx->base, OBJ_CONTEXT, ctx_free)) {
        ctx_free(&ctx->base);
        return NULL;
    }
    return ctx;
}

void ctx_add_teardown(struct ctx *ctx, const struct ctx_step *step)
{
    /* Registered already? Two subsystems' steps may share an order: look at all of them. */
    for (unsigned int j = 0; j < ctx->nsteps; ++j)
        if (ctx->steps[j] == step)
            return;
    unsigned int i = 0;
    while (i < ctx->nsteps && ctx->steps[i]->order <= step->order)
        i++;
    if (ctx->nsteps == CTX_STEPS_MAX)
        abort(); /* a subsystem registers one step: CTX_STEPS_MAX counts the subsystems */
    for (unsigned int j = ctx->nsteps; j > i; --j)
        ctx->steps[j] = ctx->steps[j - 1];
    ctx->steps[i] = step;
    ctx->nsteps++;
}

/* The registered step that comes after order `after` (INT_MIN: the first), or NULL. Read
 * under the lock each time: a step registered while earlier ones run still runs at its turn,
 * as a subsystem called by name would have. */
static const struct ctx_step *next_step(struct ctx *ctx, int after)
{
    const struct ctx_step *step = NULL;
    os_mutex_lock(&ctx->lock);
    for (unsigned int i = 0; i < ctx->nsteps && !step; ++i)
        if (ctx->steps[i]->order > after)
            step = ctx->steps[i];
    os_mutex_unlock(&ctx->lock);
    return step;
}

/* Waits for the context's work (for the call `fn`), then frees everything it owns through the
 * steps its subsystems registered (device.h says their order and why). A created context's
 * handle dies with it; the primary context keeps its handle, inactive, until retained again. */
static void ctx_teardown(const char *fn, struct ctx *ctx)
{
    atomic_store(&ctx->destroyed, true);
    /* Work on any context's streams may use this context's memory (unified addressing). The
     * callers checked device_wait_allowed; only a nested submission can be refused here, and
     * then the wait alone has to do. A kernel that does not end is waited for as long as the
     * grace period, then cancelled (the driver would wait for ever). */
    bool held = device_teardown_begin(fn);
    for (const struct ctx_step *step = next_step(ctx, INT_MIN); step; step = next_step(ctx, step->order))
        step->run(ctx);
    if (held)
        device_release_end();
    /* A reset primary context starts healthy again (docs/kernels.md). */
    os_mutex_lock(&ctx->lock);
    atomic_store(&ctx->sticky, 0);
    ctx->sticky_reason[0] = 0;
    ctx->stack_limit = 1024;
    ctx->printf_fifo_limit = 8650752;
    ctx->malloc_heap_limit = 8388608;
    ctx->pending_launch_limit = 2048;
    os_mutex_unlock(&ctx->lock);
    if (!ctx->primary)
        obj_unregister(&ctx->base);
}

/* A destroyed context, or an inactive primary one, is CUDA_ERROR_CONTEXT_IS_DESTROYED, as on
 * the driver; anything else that is not a live context is CUDA_ERROR_INVALID_CONTEXT. */
static CUresult lookup(const char *fn, const char *what, uint64_t handle, struct ctx **out)
{
    struct obj *o;
    obj_status st = obj_lookup(handle, OBJ_CONTEXT, &o);
    if (st == OBJ_DESTROYED)
        return fail(CUDA_ERROR_CONTEXT_IS_DESTROYED, "%s: %s%s", fn, what, obj_status_text(st, OBJ_CONTEXT, handle));
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: %s%s", fn, what, obj_status_text(st, OBJ_CONTEXT, handle));
    struct ctx *ctx = (struct ctx *)o;
    if (atomic_load(&ctx->destroyed)) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_CONTEXT_IS_DESTROYED, "%s: %sprimary context 0x%llx was released or reset: retain it "
                    "again with cuDevicePrimaryCtxRetain", fn, what, (unsigned long long)handle);
    }
    *out = ctx;
    return CUDA_SUCCESS;
}

CUresult ctx_lookup(const char *fn, CUcontext handle, struct ctx **out)
{
    return lookup(fn, "", (uint64_t)(uintptr_t)handle, out);
}

CUresult ctx_current(const char *fn, struct ctx **out)
{
    REQUIRE_INIT(fn);
    if (ctx_depth == 0)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: no context is current in this thread: create one with cuCtxCreate "
                    "or make the primary context current", fn);
    CUresult r = lookup(fn, "the current ", ctx_stack[ctx_depth - 1], out);
    if (r)
        return r;
    /* A kernel faulted: as on a GPU, every later call in the context answers the fault until
     * the context is destroyed or the primary context reset (docs/kernels.md). */
    if ((r = ctx_check_sticky(fn, *out))) {
        ctx_release(*out);
        *out = NULL;
    }
    return r;
}

CUresult ctx_check_sticky(const char *fn, struct ctx *ctx)
{
    if (!atomic_load(&ctx->sticky))
        return CUDA_SUCCESS;
    char reason[sizeof(ctx->sticky_reason)];
    os_mutex_lock(&ctx->lock);
    CUresult code = (CUresult)atomic_load(&ctx->sticky);
    memcpy(reason, ctx->sticky_reason, sizeof(reason));
    os_mutex_unlock(&ctx->lock);
    return fail(code, "%s: the context has a sticky error from an earlier kernel (destroy the context or reset the "
                "primary context to go on): %s", fn, reason);
}

CUresult ctx_current_sticky(const char *fn)
{
    if (ctx_depth == 0)
        return CUDA_SUCCESS;
    struct obj *o;
    if (obj_lookup(ctx_stack[ctx_depth - 1], OBJ_CONTEXT, &o) != OBJ_FOUND)
        return CUDA_SUCCESS;
    CUresult r = ctx_check_sticky(fn, (struct ctx *)o);
    obj_release(o);
    return r;
}

void ctx_set_sticky(struct ctx *ctx, CUresult code, const char *reason)
{
    os_mutex_lock(&ctx->lock);
    if (!atomic_load(&ctx->sticky)) {
        snprintf(ctx->sticky_reason, sizeof(ctx->sticky_reason), "%s", reason);
        atomic_store(&ctx->sticky, (int)code);
    }
    os_mutex_unlock(&ctx->lock);
    /* The failing call is later than the fault: log it now, where EXTMEM_LOG asks for it. */
    log_warn("kernel fault, sticky for the context: %s", reason);
}

void ctx_release(struct ctx *ctx) { obj_release(&ctx->base); }

static CUresult check_flags(const char *fn, unsigned int flags)
{
    if (flags & ~(unsigned int)CU_CTX_FLAGS_MASK)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x has bits outside CU_CTX_FLAGS_MASK", fn, flags);
    unsigned int sched = flags & CU_CTX_SCHED_MASK;
    if (sched & (sched - 1))
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x name more than one scheduling policy", fn, flags);
    return CUDA_SUCCESS;
}

static CUresult create(const char *fn, CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
    REQUIRE_INIT(fn);
    if (!pctx)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: pctx is NULL", fn);
    if (params && (params->execAffinityParams || params->numExecAffinityParams || params->cigParams))
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: the software device has no execution affinity or CIG mode", fn);
    CUresult r = check_flags(fn, flags);
    if (r)
        return r;
    if ((r = device_check(fn, dev)))
        return r;
    if (ctx_depth == CTX_STACK_MAX)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: this thread's context stack is full (%d)", fn, CTX_STACK_MAX);
    struct ctx *ctx = ctx_new(dev, flags, false);
    if (!ctx)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the context", fn);
    ctx_stack[ctx_depth++] = ctx->base.handle;
    *pctx = (CUcontext)(uintptr_t)ctx->base.handle;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    return create("cuCtxCreate", pctx, ctxCreateParams, flags, dev);
}

CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create("cuCtxCreate", pctx, NULL, flags, dev);
}

/* Drops every entry for handle from this thread's stack (the destroyed context is popped). */
static void stack_forget(uint64_t handle)
{
    int w = 0;
    for (int i = 0; i < ctx_depth; ++i)
        if (ctx_stack[i] != handle)
            ctx_stack[w++] = ctx_stack[i];
    ctx_depth = w;
}

CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
                                CUdevice dev)
{
    CUctxCreateParams params = {paramsArray, numParams, NULL};
    return create("cuCtxCreate", pctx, &params, flags, dev);
}

/* Destroys a created context (ctx: the caller's reference, which this drops). */
static CUresult destroy(const char *fn, struct ctx *ctx)
{
    CUresult r = device_wait_allowed(fn);
    if (r) {
        ctx_release(ctx);
        return r;
    }
    if (ctx->primary) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: 0x%llx is the primary context: release it with "
                    "cuDevicePrimaryCtxRelease", fn, (unsigned long long)ctx->base.handle);
    }
    stack_forget(ctx->base.handle);
    ctx_teardown(fn, ctx);
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDestroy(CUcontext handle)
{
    /* The driver answers NULL with INVALID_VALUE, before cuInit too (docs/probes/surface). */
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxDestroy: ctx is NULL");
    REQUIRE_INIT("cuCtxDestroy");
    struct ctx *ctx = NULL; /* gcc -O3 cannot see that a failed lookup returns */
    CUresult r = ctx_lookup("cuCtxDestroy", handle, &ctx);
    if (r)
        return r;
    return destroy("cuCtxDestroy", ctx);
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext handle)
{
    REQUIRE_INIT("cuCtxSetCurrent");
    if (!handle) {
        if (ctx_depth > 0)
            ctx_depth--;
        return CUDA_SUCCESS;
    }
    struct ctx *ctx = NULL; /* gcc -O3 cannot see that a failed lookup returns */
    CUresult r = ctx_lookup("cuCtxSetCurrent", handle, &ctx);
    if (r)
        return r;
    if (ctx_depth == 0)
        ctx_depth = 1;
    ctx_stack[ctx_depth - 1] = ctx->base.handle;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    REQUIRE_INIT("cuCtxGetCurrent");
    if (!pctx)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetCurrent: pctx is NULL");
    *pctx = ctx_depth ? (CUcontext)(uintptr_t)ctx_stack[ctx_depth - 1] : NULL;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext handle)
{
    REQUIRE_INIT("cuCtxPushCurrent");
    if (!handle)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxPushCurrent: ctx is NULL");
    struct ctx *ctx = NULL; /* gcc -O3 cannot see that a failed lookup returns */
    CUresult r = ctx_lookup("cuCtxPushCurrent", handle, &ctx);
    if (r)
        return r;
    if (ctx_depth == CTX_STACK_MAX) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuCtxPushCurrent: this thread's context stack is full (%d)", CTX_STACK_MAX);
    }
    ctx_stack[ctx_depth++] = ctx->base.handle;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
    REQUIRE_INIT("cuCtxPopCurrent");
    if (ctx_depth == 0)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxPopCurrent: this thread's context stack is empty");
    uint64_t h = ctx_stack[--ctx_depth];
    if (pctx)
        *pctx = (CUcontext)(uintptr_t)h;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    if (!device && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetDevice: device is NULL");
    struct ctx *ctx = NULL; /* gcc -O3 cannot see that a failed ctx_current returns */
    CUresult r = ctx_current("cuCtxGetDevice", &ctx);
    if (r)
        return r;
    *device = ctx->dev;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags)
{
    if (!flags && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetFlags: flags is NULL");
    struct ctx *ctx;
    CUresult r = ctx_current("cuCtxGetFlags", &ctx);
    if (r)
        return r;
    /* Mapped host memory is always on; the driver reports it in the primary context's flags,
     * and a created context's flags as they were given (0 for cuCtxCreate(.., 0, ..):
     * docs/probes/surface). */
    *flags = ctx->primary ? ctx->flags | CU_CTX_MAP_HOST : ctx->flags;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetApiVersion(CUcontext handle, unsigned int *version)
{
    REQUIRE_INIT("cuCtxGetApiVersion");
    if (!version)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetApiVersion: version is NULL");
    struct ctx *ctx;
    CUresult r = handle ? ctx_lookup("cuCtxGetApiVersion", handle, &ctx) : ctx_current("cuCtxGetApiVersion", &ctx);
    if (r)
        return r;
    *version = 3020; /* the API generation of the _v2 entry points */
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

/* cuCtxSynchronize waits for the context's streams: it is in src/exec/stream.c. */

/* A context argument where NULL means the current one, with a reference. */
static CUresult ctx_or_current(const char *fn, CUcontext handle, struct ctx **out)
{
    return handle ? ctx_lookup(fn, handle, out) : ctx_current(fn, out);
}

CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext handle)
{
    REQUIRE_INIT("cuCtxGetDevice_v2");
    if (!device)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetDevice_v2: device is NULL");
    struct ctx *ctx = NULL;
    CUresult r = ctx_or_current("cuCtxGetDevice_v2", handle, &ctx);
    if (r)
        return r;
    *device = ctx->dev;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetId(CUcontext handle, unsigned long long *ctxId)
{
    REQUIRE_INIT("cuCtxGetId");
    if (!ctxId)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetId: ctxId is NULL");
    struct ctx *ctx = NULL;
    CUresult r = ctx_or_current("cuCtxGetId", handle, &ctx);
    if (r)
        return r;
    *ctxId = ctx->id;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

/* ---- The usage count (deprecated since CUDA 4.0, still exported) ---- */

CUresult CUDAAPI cuCtxAttach(CUcontext *pctx, unsigned int flags)
{
    REQUIRE_INIT("cuCtxAttach");
    if (!pctx)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxAttach: pctx is NULL");
    if (flags != 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxAttach: flags is 0x%x: it must be 0", flags);
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxAttach", &ctx);
    if (r)
        return r;
    os_mutex_lock(&ctx->lock);
    ctx->usage++;
    os_mutex_unlock(&ctx->lock);
    *pctx = (CUcontext)(uintptr_t)ctx->base.handle;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDetach(CUcontext handle)
{
    const char *fn = "cuCtxDetach";
    REQUIRE_INIT(fn);
    if (!handle)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: ctx is NULL", fn);
    struct ctx *ctx = NULL;
    CUresult r = ctx_lookup(fn, handle, &ctx);
    if (r)
        return r;
    /* The documentation requires the context to be current to the calling thread. */
    if (ctx_depth == 0 || ctx_stack[ctx_depth - 1] != ctx->base.handle) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: context 0x%llx is not current to this thread", fn,
                    (unsigned long long)(uintptr_t)handle);
    }
    os_mutex_lock(&ctx->lock);
    bool unattached = ctx->usage == 0;
    if (!unattached)
        ctx->usage--;
    bool last = !ctx->primary && ctx->usage == 0;
    os_mutex_unlock(&ctx->lock);
    if (unattached) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: the primary context 0x%llx was not attached (cuCtxAttach): "
                    "release it with cuDevicePrimaryCtxRelease", fn, (unsigned long long)(uintptr_t)handle);
    }
    if (last) /* its creator's use and every attachment are gone: destroyed, as the driver does */
        return destroy(fn, ctx);
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

/* ---- Flags and preferences ---- */

static bool primary_is(const struct ctx *ctx);
static void primary_set_flags(unsigned int flags);

CUresult CUDAAPI cuCtxSetFlags(unsigned int flags)
{
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxSetFlags", &ctx);
    if (r)
        return r;
    if (!(r = check_flags("cuCtxSetFlags", flags))) {
        /* Replaces the flags, as documented. Scheduling policies change how a host thread
         * waits, which the software device decides itself; the rest are accepted as on the
         * driver. The primary context keeps what it reports to cuDevicePrimaryCtxGetState too,
         * less MAP_HOST (always on, never a settable primary flag). */
        if (primary_is(ctx))
            primary_set_flags(flags & ~(unsigned int)CU_CTX_MAP_HOST);
        else
            ctx->flags = flags;
    }
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    if (!pconfig && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetCacheConfig: pconfig is NULL");
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxGetCacheConfig", &ctx);
    if (r)
        return r;
    *pconfig = (CUfunc_cache)atomic_load(&ctx->cache_config);
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config)
{
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxSetCacheConfig", &ctx);
    if (r)
        return r;
    /* A preference only: the software device has no L1 to split. */
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxSetCacheConfig: config %d is not a CUfunc_cache (0..3)", (int)config);
    else
        atomic_store(&ctx->cache_config, (int)config);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    if (!pConfig && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetSharedMemConfig: pConfig is NULL");
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxGetSharedMemConfig", &ctx);
    if (r)
        return r;
    /* Banks are four bytes wide whatever was set: what the H100 answers (docs/probes/surface). */
    *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxSetSharedMemConfig", &ctx);
    if (r)
        return r;
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxSetSharedMemConfig: config %d is not a CUsharedconfig (0..2)",
                 (int)config);
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxGetStreamPriorityRange", &ctx);
    if (r)
        return r;
    if (leastPriority)
        *leastPriority = CTX_PRIORITY_LEAST;
    if (greatestPriority)
        *greatestPriority = CTX_PRIORITY_GREATEST;
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxResetPersistingL2Cache(void)
{
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxResetPersistingL2Cache", &ctx);
    if (r)
        return r;
    /* No L2, so no persisting lines: nothing to reset. */
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetExecAffinity(CUexecAffinityParam *pExecAffinity, CUexecAffinityType type)
{
    if (!pExecAffinity && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetExecAffinity: pExecAffinity is NULL");
    struct ctx *ctx = NULL;
    CUresult r = ctx_current("cuCtxGetExecAffinity", &ctx);
    if (r)
        return r;
    if (type != CU_EXEC_AFFINITY_TYPE_SM_COUNT) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetExecAffinity: type %d is not a CUexecAffinityType (only "
                 "CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0)", (int)type);
    } else {
        /* The context has the whole device: its multiprocessors are the worker threads. */
        pExecAffinity->type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
        pExecAffinity->param.smCount.val = pool_worker_count();
    }
    ctx_release(ctx);
    return r;
}

/* ---- Peer access: one device, which is not its own peer ---- */

static CUresult peer(const char *fn, CUcontext handle, CUresult code, const char *why)
{
    struct ctx *cur = NULL, *other = NULL;
    CUresult r = ctx_current(fn, &cur);
    if (r)
        return r;
    if (!(r = ctx_lookup(fn, handle, &other))) {
        r = fail(code, "%s: context 0x%llx is on device %d, the current context's own device: %s", fn,
                 (unsigned long long)(uintptr_t)handle, other->dev, why);
        ctx_release(other);
    }
    ctx_release(cur);
    return r;
}

CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    if (Flags != 0 && lib_initialized())
        return fail(CUDA_ERROR_INVALID_VALUE, "cuCtxEnablePeerAccess: Flags is 0x%x: it must be 0", Flags);
    return peer("cuCtxEnablePeerAccess", peerContext, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                "a device is not its own peer, and the software device is the only one");
}

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext)
{
    return peer("cuCtxDisablePeerAccess", peerContext, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
                "peer access was never enabled (there is no peer device)");
}

/* ---- Primary context ----
 * As on the driver, the primary context keeps one handle for the life of the process:
 * releasing its last reference or resetting it frees its resources and leaves the handle
 * inactive (CUDA_ERROR_CONTEXT_IS_DESTROYED); a retain makes the same handle active again.
 * A reset does not change the retain count. */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    REQUIRE_INIT("cuDevicePrimaryCtxRetain");
    if (!pctx)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxRetain: pctx is NULL");
    CUresult r = device_check("cuDevicePrimaryCtxRetain", dev);
    if (r)
        return r;
    os_mutex_lock(&primary.lock);
    if (!primary.ctx) {
        primary.ctx = ctx_new(dev, primary.flags, true);
        if (!primary.ctx) {
            os_mutex_unlock(&primary.lock);
            return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuDevicePrimaryCtxRetain: out of host memory for the context");
        }
    } else if (atomic_load(&primary.ctx->destroyed)) {
        primary.ctx->flags = primary.flags;
        atomic_store(&primary.ctx->destroyed, false);
    }
    primary.retains++;
    *pctx = (CUcontext)(uintptr_t)primary.ctx->base.handle;
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

/* With primary.lock held. */
static bool primary_active(void) { return primary.ctx && !atomic_load(&primary.ctx->destroyed); }

static bool primary_is(const struct ctx *ctx) { return ctx->primary; }

static void primary_set_flags(unsigned int flags)
{
    os_mutex_lock(&primary.lock);
    primary.flags = flags;
    if (primary.ctx)
        primary.ctx->flags = flags;
    os_mutex_unlock(&primary.lock);
}

static CUresult primary_release(const char *fn, CUdevice dev)
{
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, dev);
    if (r || (r = device_wait_allowed(fn)))
        return r;
    os_mutex_lock(&primary.lock);
    if (primary.retains == 0) {
        os_mutex_unlock(&primary.lock);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: the primary context of device %d is not retained", fn, dev);
    }
    if (--primary.retains == 0 && primary_active())
        ctx_teardown(fn, primary.ctx);
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return primary_release("cuDevicePrimaryCtxRelease", dev); }

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev)
{
    REQUIRE_INIT("cuDevicePrimaryCtxReset");
    CUresult r = device_check("cuDevicePrimaryCtxReset", dev);
    if (r || (r = device_wait_allowed("cuDevicePrimaryCtxReset")))
        return r;
    os_mutex_lock(&primary.lock);
    if (primary_active())
        ctx_teardown("cuDevicePrimaryCtxReset", primary.ctx);
    primary.flags = 0;
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    REQUIRE_INIT("cuDevicePrimaryCtxSetFlags");
    CUresult r = device_check("cuDevicePrimaryCtxSetFlags", dev);
    if (r || (r = check_flags("cuDevicePrimaryCtxSetFlags", flags)))
        return r;
    if (flags & CU_CTX_MAP_HOST) /* the driver refuses it here: it is always on */
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxSetFlags: CU_CTX_MAP_HOST cannot be set (it is always on)");
    os_mutex_lock(&primary.lock);
    primary.flags = flags;
    if (primary.ctx)
        primary.ctx->flags = flags;
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    REQUIRE_INIT("cuDevicePrimaryCtxGetState");
    if (!flags || !active)
        return fail(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxGetState: %s is NULL", !flags ? "flags" : "active");
    CUresult r = device_check("cuDevicePrimaryCtxGetState", dev);
    if (r)
        return r;
    os_mutex_lock(&primary.lock);
    *flags = primary.flags;
    *active = primary_active();
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

/* The unsuffixed context symbols of binaries built before CUDA 4.0 (the public header renames
 * them to their _v2 forms; the signatures are the same but cuCtxCreate's, which is _v2's). */
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
EXTMEM_API CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
EXTMEM_API CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create("cuCtxCreate", pctx, NULL, flags, dev);
}
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }
CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }

/* The unsuffixed primary-context symbols of CUDA 7.0-10.x binaries. */
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
EXTMEM_API CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* ---- Limits ---- */
#define STACK_LIMIT_MAX (256 * 1024)

/* The printf FIFO the H100 makes of a requested size, which cuCtxGetLimit then answers:
 * at least 512 KiB, a multiple of 128 bytes, at most 2 GiB (probed with CUDA 13.0). Every
 * size succeeds. Launches keep what their printf records cost within it (docs/kernels.md). */
static size_t printf_fifo_size(size_t value)
{
    const size_t min = 512 * 1024, max = (size_t)2 << 30;
    if (value >= max)
        return max;
    value = (value + 127) & ~(size_t)127;
    return value < min ? min : value;
}

CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuCtxSetLimit", &ctx);
    if (r)
        return r;
    switch (limit) {
    case CU_LIMIT_STACK_SIZE:
        if (value == 0 || value > STACK_LIMIT_MAX)
            r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxSetLimit: a stack of %zu bytes: the software device takes 1 to %d "
                     "(it allocates a block's stacks at once)", value, STACK_LIMIT_MAX);
        else
            ctx->stack_limit = (uint32_t)((value + 15) & ~(size_t)15); /* launches read it when queued */
        break;
    case CU_LIMIT_PRINTF_FIFO_SIZE:
        os_mutex_lock(&ctx->lock); /* launches read it when queued */
        ctx->printf_fifo_limit = printf_fifo_size(value);
        os_mutex_unlock(&ctx->lock);
        break;
    case CU_LIMIT_MALLOC_HEAP_SIZE:
        /* The heap's size is fixed once a kernel has used it (the driver answers
         * INVALID_VALUE then, even for the same size); a smaller size than 4 MiB reads back
         * as 4 MiB (docs/driver-observations.md, "Linking and the device heap"). */
        os_mutex_lock(&ctx->lock);
        if (ctx->heap)
            r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxSetLimit: the device heap is in use (a kernel called malloc or "
                     "free) and keeps its %zu bytes: set CU_LIMIT_MALLOC_HEAP_SIZE before the first such launch",
                     ctx->malloc_heap_limit);
        else
            ctx->malloc_heap_limit = value < ((size_t)4 << 20) ? ((size_t)4 << 20) : value;
        os_mutex_unlock(&ctx->lock);
        break;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
        /* Launches from kernels that may be pending at once (src/kernel/cdp.c); any count is
         * taken and read back as given (the H200 took 40), at least 32: the H100 reads 0, 1 and
         * 31 back as 32 (devrt, docs/probes/kernels/devrt; it also caps large counts by its
         * memory, 1000000 reading back as 599186, which the software device does not). */
        os_mutex_lock(&ctx->lock); /* launches read it when queued */
        ctx->pending_launch_limit = value < 32 ? 32 : value;
        os_mutex_unlock(&ctx->lock);
        break;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
        /* CDP1's limit: CUDA 12's device runtime has no device-side cudaDeviceSynchronize, and
         * the H200 answers UNSUPPORTED_LIMIT to setting and to reading it. */
        r = fail(CUDA_ERROR_UNSUPPORTED_LIMIT, "cuCtxSetLimit: CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH belongs to the device "
                 "runtime of CUDA 11 (device-side cudaDeviceSynchronize), which CUDA 12 removed");
        break;
    default:
        if ((unsigned)limit >= CU_LIMIT_MAX)
            r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxSetLimit: limit %d is not a CUlimit", (int)limit);
        else
            r = fail(CUDA_ERROR_UNSUPPORTED_LIMIT, "cuCtxSetLimit: limit %d cannot be set on the software device "
                     "(no L2 or CIG)", (int)limit);
        break;
    }
    ctx_release(ctx);
    return r;
}

CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuCtxGetLimit", &ctx);
    if (r)
        return r;
    static const size_t fixed[CU_LIMIT_MAX] = {
        [CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
        [CU_LIMIT_SHMEM_SIZE] = DEVICE_SHARED_PER_BLOCK_OPTIN,
    };
    if (!pvalue)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetLimit: pvalue is NULL");
    else if ((unsigned)limit >= CU_LIMIT_MAX)
        r = fail(CUDA_ERROR_INVALID_VALUE, "cuCtxGetLimit: limit %d is not a CUlimit", (int)limit);
    else if (limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH)
        r = fail(CUDA_ERROR_UNSUPPORTED_LIMIT, "cuCtxGetLimit: CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH belongs to the device "
                 "runtime of CUDA 11 (device-side cudaDeviceSynchronize), which CUDA 12 removed (the H200 answers "
                 "this too)");
    else if (limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) {
        os_mutex_lock(&ctx->lock);
        *pvalue = ctx->pending_launch_limit;
        os_mutex_unlock(&ctx->lock);
    } else
        *pvalue = limit == CU_LIMIT_STACK_SIZE          ? ctx->stack_limit
                  : limit == CU_LIMIT_PRINTF_FIFO_SIZE  ? ctx->printf_fifo_limit
                  : limit == CU_LIMIT_MALLOC_HEAP_SIZE  ? ctx->malloc_heap_limit
                                                        : fixed[limit];
    ctx_release(ctx);
    return r;
}
