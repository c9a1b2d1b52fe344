/*
 * Contexts: created ones (cuCtxCreate) and the device's primary context, and each thread's
 * stack of current contexts. The stack holds handles, so a context destroyed by another
 * thread is reported as destroyed, never dereferenced.
 */
#include "internal.h"

#include <stdlib.h>

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
    if (!obj_register(&ctx->base, OBJ_CONTEXT, ctx_free)) {
        ctx_free(&ctx->base);
        return NULL;
    }
    return ctx;
}

/* Waits for the context's work, then frees everything it owns. */
static void ctx_teardown(struct ctx *ctx)
{
    atomic_store(&ctx->destroyed, true);
    ctx_synchronize(ctx);
    stream_destroy_all(ctx);
    event_destroy_all(ctx);
    mem_free_context(ctx);
    obj_unregister(&ctx->base);
}

CUresult ctx_lookup(const char *fn, CUcontext handle, struct ctx **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_CONTEXT, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: %s", fn, obj_status_text(st, OBJ_CONTEXT, (uint64_t)(uintptr_t)handle));
    *out = (struct ctx *)o;
    return CUDA_SUCCESS;
}

CUresult ctx_current(const char *fn, struct ctx **out)
{
    REQUIRE_INIT(fn);
    if (ctx_depth == 0)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: no context is current in this thread: create one with cuCtxCreate "
                    "or make the primary context current", fn);
    struct obj *o;
    uint64_t h = ctx_stack[ctx_depth - 1];
    obj_status st = obj_lookup(h, OBJ_CONTEXT, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: the current %s", fn, obj_status_text(st, OBJ_CONTEXT, h));
    *out = (struct ctx *)o;
    return CUDA_SUCCESS;
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

CUresult CUDAAPI cuCtxDestroy(CUcontext handle)
{
    REQUIRE_INIT("cuCtxDestroy");
    struct ctx *ctx;
    CUresult r = ctx_lookup("cuCtxDestroy", handle, &ctx);
    if (r)
        return r;
    if (ctx->primary) {
        ctx_release(ctx);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxDestroy: 0x%llx is the primary context: release it with "
                    "cuDevicePrimaryCtxRelease", (unsigned long long)(uintptr_t)handle);
    }
    stack_forget(ctx->base.handle);
    ctx_teardown(ctx);
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext handle)
{
    REQUIRE_INIT("cuCtxSetCurrent");
    if (!handle) {
        if (ctx_depth > 0)
            ctx_depth--;
        return CUDA_SUCCESS;
    }
    struct ctx *ctx;
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
    struct ctx *ctx;
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
    struct ctx *ctx;
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
    *flags = ctx->flags;
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

CUresult CUDAAPI cuCtxSynchronize(void)
{
    struct ctx *ctx;
    CUresult r = ctx_current("cuCtxSynchronize", &ctx);
    if (r)
        return r;
    ctx_synchronize(ctx);
    ctx_release(ctx);
    return CUDA_SUCCESS;
}

/* ---- Primary context ---- */

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
    }
    primary.retains++;
    *pctx = (CUcontext)(uintptr_t)primary.ctx->base.handle;
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

/* With primary.lock held. */
static void primary_deactivate(void)
{
    struct ctx *ctx = primary.ctx;
    primary.ctx = NULL;
    primary.retains = 0;
    stack_forget(ctx->base.handle);
    ctx_teardown(ctx);
}

static CUresult primary_release(const char *fn, CUdevice dev)
{
    REQUIRE_INIT(fn);
    CUresult r = device_check(fn, dev);
    if (r)
        return r;
    os_mutex_lock(&primary.lock);
    if (primary.retains == 0) {
        os_mutex_unlock(&primary.lock);
        return fail(CUDA_ERROR_INVALID_CONTEXT, "%s: the primary context of device %d is not retained", fn, dev);
    }
    if (--primary.retains == 0)
        primary_deactivate();
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return primary_release("cuDevicePrimaryCtxRelease", dev); }

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev)
{
    REQUIRE_INIT("cuDevicePrimaryCtxReset");
    CUresult r = device_check("cuDevicePrimaryCtxReset", dev);
    if (r)
        return r;
    os_mutex_lock(&primary.lock);
    if (primary.ctx)
        primary_deactivate();
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
    *active = primary.ctx != NULL;
    os_mutex_unlock(&primary.lock);
    return CUDA_SUCCESS;
}

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
