/*
 * External semaphores: cuImportExternalSemaphore, cuSignalExternalSemaphoresAsync,
 * cuWaitExternalSemaphoresAsync and cuDestroyExternalSemaphore (DESIGN.md §15; BEHAVIOR.md's
 * external semaphore table; NVIDIA's cuda.h documents each call; docs/external-semaphores.md).
 *
 * A semaphore is a payload page (src/interop/sem_payload.h) shared with whoever exported it:
 * extmem's Vulkan layer in this or another process. Signals and waits are stream work like any
 * other: a wait keeps its stream's worker asleep on the payload's word until the semaphore
 * passes, so the calling thread never waits and later work in the stream runs only after it.
 */
#include "interop/interop.h"
#include "exec/exec.h"
#include "d3d/d3d.h"
#include "exec/per_thread.h"
#include "interop/sem_payload.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

struct ext_semaphore {
    struct obj base;
    CUexternalSemaphoreHandleType type;
    struct semp payload;      /* unless source.owner: an extmem payload */
    struct sem_source source; /* a Direct3D fence (src/d3d) */
    /* A timeline payload imported as OPAQUE_FD / OPAQUE_WIN32, which NVIDIA's driver accepts and
     * uses as a binary semaphore (docs/probes/surface/timeline.out): a signal raises the value to
     * at least 1, a wait passes once it is at least 1, whatever value the parameters give. */
    bool binary_view;
};

/* How long a stream's wait sleeps at a time before it looks whether the library is unloading
 * (a wait nobody will ever satisfy must not hang the process's exit). */
#define WAIT_SLICE_NS (100u * 1000000u)

static void sem_free(struct obj *o)
{
    struct ext_semaphore *s = (struct ext_semaphore *)o;
    if (s->source.owner)
        s->source.release(s->source.owner);
    else
        semp_close(&s->payload);
    free(s);
}

static void sem_owe(struct ext_semaphore *s, uint64_t value)
{
    if (!s->source.owner)
        semp_owe(&s->payload, value);
}

static void sem_signal(struct ext_semaphore *s, uint64_t value)
{
    if (s->source.owner)
        s->source.signal(s->source.owner, value);
    else if (s->binary_view) {
        uint64_t now = semp_value(&s->payload); /* never lowered: Vulkan forbids it */
        semp_signal(&s->payload, now > value ? now : value, true);
    } else
        semp_signal(&s->payload, value, true);
}

static sem_wait_result sem_wait(struct ext_semaphore *s, uint64_t value, uint64_t timeout_ns)
{
    if (s->source.owner)
        return s->source.wait(s->source.owner, value, timeout_ns);
    switch (semp_wait(&s->payload, value, timeout_ns)) {
    case SEMP_PASSED: return SEM_PASSED;
    case SEMP_ABANDONED: return SEM_ABANDONED;
    default: return SEM_TIMED_OUT;
    }
}

static const char *type_name(CUexternalSemaphoreHandleType t)
{
    static const char *const names[] = {"", "OPAQUE_FD", "OPAQUE_WIN32", "OPAQUE_WIN32_KMT", "D3D12_FENCE",
                                        "D3D11_FENCE", "NVSCISYNC", "D3D11_KEYED_MUTEX", "D3D11_KEYED_MUTEX_KMT",
                                        "TIMELINE_SEMAPHORE_FD", "TIMELINE_SEMAPHORE_WIN32"};
    return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

static bool is_fd_type(CUexternalSemaphoreHandleType t)
{
    return t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD || t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
}

static bool is_d3d11_type(CUexternalSemaphoreHandleType t)
{
    return t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE || t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX ||
           t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT;
}

static bool is_keyed_mutex_type(CUexternalSemaphoreHandleType t)
{
    return t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX ||
           t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT;
}

static bool is_timeline_type(CUexternalSemaphoreHandleType t)
{
    return t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD ||
           t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 ||
           t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE || t == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE;
}

static CUresult check_reserved(const char *fn, const char *what, const unsigned int *reserved, int count)
{
    for (int i = 0; i < count; ++i)
        if (reserved[i])
            return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s[%d] is %u: it must be 0", fn, what, i, reserved[i]);
    return CUDA_SUCCESS;
}

/* The rules that do not look at the handle, in the driver's order (BEHAVIOR.md): the type, the
 * flags and reserved fields, then whether this platform has the type. The caller's fd or
 * handle is untouched on every failure. */
static CUresult check_desc(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d)
{
    CUresult r;
    if (d->type < CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD ||
        d->type > CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: type %d is not a CUexternalSemaphoreHandleType", fn, (int)d->type);
    if (d->flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%x: no flag is defined for semaphores; it must be 0", fn,
                    d->flags);
    if ((r = check_reserved(fn, "semHandleDesc->reserved", d->reserved, 16)))
        return r;
    switch (d->type) {
    case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC:
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: NvSciSync objects exist on NVIDIA's Tegra and DRIVE platforms only",
                    fn);
    case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD:
    case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD:
        if (!OS_HAS_POSIX_FD)
            return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are POSIX file descriptors: this is the Windows build",
                        fn, type_name(d->type));
        return CUDA_SUCCESS;
    default:
        break;
    }
    if (OS_HAS_POSIX_FD)
        return fail(CUDA_ERROR_NOT_SUPPORTED, "%s: %s handles are Windows handles: this is the Linux build", fn,
                    type_name(d->type));
    /* NVIDIA's cuda.h: KMT handles come without a name; the NT-handle types take exactly one of
     * a handle and a name. */
    bool kmt = d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT ||
               d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT;
    return ext_handle_check(fn, type_name(d->type), kmt, d->handle.win32.handle, d->handle.win32.name);
}

/* The payload's handle: the caller's fd or NT handle, or (*opened) one extmem opened by the
 * name or KMT token given. */
static CUresult locate(const char *fn, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d, os_handle *h, bool *opened,
                       char *label, size_t label_size)
{
    *opened = false;
    if (is_fd_type(d->type)) {
        *h = os_handle_from_int32(d->handle.fd);
        snprintf(label, label_size, "fd %d", d->handle.fd);
        return CUDA_SUCCESS;
    }
    return ext_handle_locate(fn, "semaphore", d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT,
                             d->handle.win32.handle, d->handle.win32.name, h, opened, label, label_size);
}

CUresult CUDAAPI cuImportExternalSemaphore(CUexternalSemaphore *extSem_out,
                                           const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc)
{
    static const char fn[] = "cuImportExternalSemaphore";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!extSem_out || !semHandleDesc)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !extSem_out ? "extSem_out" : "semHandleDesc");
    const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d = semHandleDesc;
    if ((r = check_desc(fn, d)))
        return r;
    /* A Direct3D 12 fence: opened with extmem's own Direct3D device (src/d3d); the caller's NT
     * handle stays the caller's. */
    if (d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE)
        return d3d_open_fence(fn, d, extSem_out);
    /* Direct3D 11 fences and keyed mutexes: extmem's own Direct3D 11 device opens them. */
    if (is_d3d11_type(d->type))
        return d3d_open_d3d11_sync(fn, d, extSem_out);
    bool fd = is_fd_type(d->type), opened;
    os_handle h;
    char label[128], why[200] = "", text[128];
    if ((r = locate(fn, d, &h, &opened, label, sizeof(label))))
        return r;
    const char *stays = opened ? "" : fd ? "; it stays open and yours" : "; it stays yours";
    struct ext_semaphore *s = calloc(1, sizeof(*s));
    if (!s) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory%s", fn, stays);
        goto fail;
    }
    /* The driver answers CUDA_ERROR_UNKNOWN for an fd that is no semaphore (BEHAVIOR.md). */
    int err = semp_open(h, &s->payload, why, sizeof(why));
    if (err) {
        r = fail(why[0] ? CUDA_ERROR_UNKNOWN : os_error_is_out_of_memory(err) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_UNKNOWN,
                 "%s: %s %s%s", fn, label, why[0] ? why : os_error_string(err, text, sizeof(text)), stays);
        goto fail;
    }
    bool timeline = semp_kind_of(&s->payload) == SEMP_TIMELINE;
    /* NVIDIA's driver takes a timeline imported as the binary type (timeline.out); a binary
     * payload imported as a timeline is refused: what the driver would make of it is unprobed. */
    s->binary_view = timeline && !is_timeline_type(d->type);
    if (!timeline && is_timeline_type(d->type)) {
        r = fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is a %s semaphore: import it as %s%s", fn, label,
                 timeline ? "timeline" : "binary", timeline ? (fd ? "TIMELINE_SEMAPHORE_FD" : "TIMELINE_SEMAPHORE_WIN32")
                                                            : (fd ? "OPAQUE_FD" : "OPAQUE_WIN32"),
                 stays);
        goto fail;
    }
    s->type = d->type;
    if (!obj_register(&s->base, OBJ_EXTERNAL_SEMAPHORE, sem_free)) {
        r = fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table%s", fn, stays);
        goto fail;
    }
    /* Success: an fd is extmem's now (the specification), and extmem keeps a duplicate of its
     * own (semp_open), so the caller's number is closed, as the driver closes it. An NT handle
     * stays the caller's; one extmem opened by name or token is closed. */
    if (fd || opened)
        os_handle_close(h);
    log_info("%s: %s (%s, value %llu) imported as 0x%llx", fn, label, type_name(d->type),
             (unsigned long long)semp_value(&s->payload), (unsigned long long)s->base.handle);
    *extSem_out = (CUexternalSemaphore)(uintptr_t)s->base.handle;
    return CUDA_SUCCESS;
fail:
    if (s) {
        semp_close(&s->payload);
        free(s);
    }
    if (opened)
        os_handle_close(h);
    return r;
}

CUresult ext_semaphore_from_source(const char *fn, const struct sem_source *src, CUexternalSemaphoreHandleType type,
                                   CUexternalSemaphore *out)
{
    struct ext_semaphore *s = calloc(1, sizeof(*s));
    if (!s) {
        src->release(src->owner);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    }
    s->source = *src;
    s->type = type;
    if (!obj_register(&s->base, OBJ_EXTERNAL_SEMAPHORE, sem_free)) {
        sem_free(&s->base);
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the handle table", fn);
    }
    log_info("%s: %s (value %llu) imported as 0x%llx", fn, type_name(type),
             (unsigned long long)src->value(src->owner), (unsigned long long)s->base.handle);
    *out = (CUexternalSemaphore)(uintptr_t)s->base.handle;
    return CUDA_SUCCESS;
}

static CUresult lookup(const char *fn, CUexternalSemaphore handle, struct ext_semaphore **out)
{
    struct obj *o;
    obj_status st = obj_lookup((uint64_t)(uintptr_t)handle, OBJ_EXTERNAL_SEMAPHORE, &o);
    if (st != OBJ_FOUND)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: %s", fn,
                    obj_status_text(st, OBJ_EXTERNAL_SEMAPHORE, (uint64_t)(uintptr_t)handle));
    *out = (struct ext_semaphore *)o;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem)
{
    static const char fn[] = "cuDestroyExternalSemaphore";
    struct ctx *ctx;
    CUresult r = ctx_current(fn, &ctx);
    if (r)
        return r;
    ctx_release(ctx);
    if (!extSem)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: extSem is NULL", fn);
    struct ext_semaphore *s;
    if ((r = lookup(fn, extSem, &s)))
        return r;
    /* Queued signals and waits hold references: they run as queued. */
    bool mine = obj_unregister(&s->base);
    obj_release(&s->base);
    if (!mine)
        return fail(CUDA_ERROR_INVALID_HANDLE, "%s: external semaphore 0x%llx was destroyed by another thread", fn,
                    (unsigned long long)(uintptr_t)extSem);
    return CUDA_SUCCESS;
}

/* ---- Signals and waits as stream work ---- */

struct sem_item {
    struct ext_semaphore *s; /* a reference */
    uint64_t value;          /* timelines and fences: the value; keyed mutexes: the key */
    uint32_t timeout_ms;     /* keyed mutexes: how long the wait may try to acquire */
};

struct sem_work {
    struct work w;
    unsigned int count;
    bool owed;               /* the signal is owed (sem_owe): a discard makes it */
    struct sem_item items[];
};

static void release_items(struct sem_work *sw)
{
    for (unsigned int i = 0; i < sw->count; ++i)
        obj_release(&sw->items[i].s->base);
    free(sw);
}

static void run_signal(struct work *w)
{
    struct sem_work *sw = (struct sem_work *)w;
    d3d_staged_sync(false); /* CUDA's writes to staged Direct3D memory, before the other side may look */
    for (unsigned int i = 0; i < sw->count; ++i)
        sem_signal(sw->items[i].s, sw->items[i].value);
    release_items(sw);
}

/* A signal made for a graph's launch (a sink) is owed from when the launch joins its stream's
 * order; one that never did (an instantiation's check, a failed launch) is dropped unmade. */
static void owe_signal(struct work *w)
{
    struct sem_work *sw = (struct sem_work *)w;
    for (unsigned int i = 0; i < sw->count; ++i)
        sem_owe(sw->items[i].s, sw->items[i].value);
    sw->owed = true;
}

static void discard_signal(struct work *w)
{
    struct sem_work *sw = (struct sem_work *)w;
    if (sw->owed)
        run_signal(w); /* owed: the other side may wait for it */
    else
        release_items(sw);
}

static void wait_one(struct ext_semaphore *s, uint64_t value, uint32_t timeout_ms)
{
    /* A keyed mutex's acquisition gives up after params.keyedMutex.timeoutMs (INFINITE: never). */
    bool bounded = is_keyed_mutex_type(s->type) && timeout_ms != 0xffffffffu;
    uint64_t start = os_time_ns();
    for (;;) {
        uint64_t slice = WAIT_SLICE_NS;
        if (bounded) {
            uint64_t spent = os_time_ns() - start, limit = (uint64_t)timeout_ms * 1000000u;
            if (spent >= limit && timeout_ms) {
                log_warn("external semaphore 0x%llx: the keyed mutex was not acquired with key %llu within %u ms: the "
                         "stream goes on without it", (unsigned long long)s->base.handle, (unsigned long long)value,
                         timeout_ms);
                return;
            }
            slice = limit - spent < slice ? limit - spent : slice;
        }
        sem_wait_result res = sem_wait(s, value, slice);
        if (res == SEM_PASSED)
            return;
        if (res == SEM_FAILED) {
            log_warn("external semaphore 0x%llx: a stream's wait for it failed and was given up (EXTMEM_LOG=info "
                     "says why)", (unsigned long long)s->base.handle);
            return;
        }
        if (res == SEM_ABANDONED) {
            int pid = s->source.owner ? 0 : atomic_load(&s->payload.dead_pid);
            log_warn("external semaphore 0x%llx: the process%s%.0d that held it died and no other can signal it: "
                     "its waits pass from now on (docs/external-semaphores.md)",
                     (unsigned long long)s->base.handle, pid ? " " : "", pid);
            return;
        }
        if (bounded && timeout_ms == 0) {
            log_warn("external semaphore 0x%llx: the keyed mutex was not free for key %llu (timeoutMs 0): the stream "
                     "goes on without it", (unsigned long long)s->base.handle, (unsigned long long)value);
            return;
        }
        if (device_unloading()) {
            log_warn("external semaphore 0x%llx: a stream's wait for it was given up: the library is unloading",
                     (unsigned long long)s->base.handle);
            return;
        }
    }
}

static void run_wait(struct work *w)
{
    struct sem_work *sw = (struct sem_work *)w;
    for (unsigned int i = 0; i < sw->count; ++i)
        wait_one(sw->items[i].s, sw->items[i].value, sw->items[i].timeout_ms);
    d3d_staged_sync(true); /* the other side's writes to staged Direct3D memory, now CUDA's to read */
    release_items(sw);
}

/* A stream that never ran its work (no thread could start) still makes its signals, so no
 * waiter elsewhere hangs on them; its waits are dropped with it. */
static void discard_wait(struct work *w) { release_items((struct sem_work *)w); }

/* The argument rules that signal and wait share, in declaration order (BEHAVIOR.md). */
static CUresult check_call(const char *fn, const CUexternalSemaphore *sems, const void *params, unsigned int count)
{
    if (!sems || !params)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !sems ? "extSemArray" : "paramsArray");
    if (count == 0)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: numExtSems is 0", fn);
    return CUDA_SUCCESS;
}

/* Looks up the semaphores into a new piece of work (references held). */
static CUresult gather(const char *fn, const CUexternalSemaphore *sems, unsigned int count, struct sem_work **out)
{
    struct sem_work *sw = calloc(1, sizeof(*sw) + (size_t)count * sizeof(sw->items[0]));
    if (!sw)
        return fail(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %u semaphores", fn, count);
    for (unsigned int i = 0; i < count; ++i) {
        CUresult r;
        if (!sems[i])
            r = fail(CUDA_ERROR_INVALID_VALUE, "%s: extSemArray[%u] is NULL", fn, i);
        else
            r = lookup(fn, sems[i], &sw->items[i].s);
        if (r) {
            release_items(sw);
            return r;
        }
        sw->count = i + 1;
    }
    *out = sw;
    return CUDA_SUCCESS;
}

/* The rules for one element of paramsArray, which signal and wait parameters share apart from
 * the length of params.reserved. */
static CUresult check_params(const char *fn, unsigned int i, unsigned int flags, const unsigned int *params_reserved,
                             int params_reserved_count, const unsigned int *reserved)
{
    char what[64];
    CUresult r;
    if (flags)
        return fail(CUDA_ERROR_INVALID_VALUE, "%s: paramsArray[%u].flags is 0x%x: its flags are for NvSciSync objects "
                    "only", fn, i, flags);
    snprintf(what, sizeof(what), "paramsArray[%u].params.reserved", i);
    if ((r = check_reserved(fn, what, params_reserved, params_reserved_count)))
        return r;
    snprintf(what, sizeof(what), "paramsArray[%u].reserved", i);
    return check_reserved(fn, what, reserved, 16);
}

/* After the parameters' rules: the stream, then the semaphores, into a new piece of work. On
 * success release *t with target_put once the work is submitted. */
static CUresult prepare(const char *fn, const CUexternalSemaphore *sems, unsigned int count, CUstream stream,
                        struct target *t, struct sem_work **out)
{
    CUresult r = target_get(fn, stream, t);
    if (r)
        return r;
    *out = NULL;
    if (t->capture) /* recorded as a node instead (the caller's capture_node) */
        return CUDA_SUCCESS;
    if ((r = gather(fn, sems, count, out)))
        target_put(t);
    return r;
}

/* A capturing stream records the signal or wait as a node of its graph (src/graph). */
static CUresult capture_node(struct target *t, CUgraphNodeType type, const CUexternalSemaphore *sems,
                             const void *params, unsigned int count)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof(p));
    p.type = type;
    if (type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) {
        p.extSemSignal.extSemArray = (CUexternalSemaphore *)sems;
        p.extSemSignal.paramsArray = params;
        p.extSemSignal.numExtSems = count;
    } else {
        p.extSemWait.extSemArray = (CUexternalSemaphore *)sems;
        p.extSemWait.paramsArray = params;
        p.extSemWait.numExtSems = count;
    }
    CUresult r = target_capture_params(t, &p);
    target_put(t);
    return r;
}

/* The value a signal or wait of s works with: a keyed mutex's key, 1 for a timeline seen as
 * binary (binary_view), else the fence value. */
static uint64_t param_value(const struct ext_semaphore *s, uint64_t fence, uint64_t key)
{
    return is_keyed_mutex_type(s->type) ? key : s->binary_view ? 1 : fence;
}

static CUresult signal_async(const char *fn, const CUexternalSemaphore *extSemArray,
                             const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems,
                             CUstream stream)
{
    CUresult r;
    if ((r = check_call(fn, extSemArray, paramsArray, numExtSems)))
        return r;
    for (unsigned int i = 0; i < numExtSems; ++i) {
        const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p = &paramsArray[i];
        if ((r = check_params(fn, i, p->flags, p->params.reserved, 12, p->reserved)))
            return r;
    }
    struct target t;
    struct sem_work *sw;
    if ((r = prepare(fn, extSemArray, numExtSems, stream, &t, &sw)))
        return r;
    if (!sw)
        return capture_node(&t, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, extSemArray, paramsArray, numExtSems);
    for (unsigned int i = 0; i < numExtSems; ++i) {
        sw->items[i].value = param_value(sw->items[i].s, paramsArray[i].params.fence.value,
                                         paramsArray[i].params.keyedMutex.key);
    }
    sw->w.run = run_signal;
    sw->w.discard = discard_signal;
    /* Owed from now: if this process dies before the stream gets here, a waiter in another
     * process makes the signal (src/interop/sem_payload.h). A graph's launch owes it when it is
     * queued. */
    if (t.sink)
        sw->w.queued = owe_signal;
    else
        owe_signal(&sw->w);
    r = target_submit(&t, &sw->w);
    target_put(&t);
    return r;
}

static CUresult wait_async(const char *fn, const CUexternalSemaphore *extSemArray,
                           const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems,
                           CUstream stream)
{
    CUresult r;
    if ((r = check_call(fn, extSemArray, paramsArray, numExtSems)))
        return r;
    for (unsigned int i = 0; i < numExtSems; ++i) {
        const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *p = &paramsArray[i];
        if ((r = check_params(fn, i, p->flags, p->params.reserved, 10, p->reserved)))
            return r;
    }
    struct target t;
    struct sem_work *sw;
    if ((r = prepare(fn, extSemArray, numExtSems, stream, &t, &sw)))
        return r;
    if (!sw)
        return capture_node(&t, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, extSemArray, paramsArray, numExtSems);
    for (unsigned int i = 0; i < numExtSems; ++i) {
        bool keyed = is_keyed_mutex_type(sw->items[i].s->type);
        sw->items[i].value = param_value(sw->items[i].s, paramsArray[i].params.fence.value,
                                         paramsArray[i].params.keyedMutex.key);
        sw->items[i].timeout_ms = keyed ? paramsArray[i].params.keyedMutex.timeoutMs : 0;
    }
    sw->w.run = run_wait;
    sw->w.discard = discard_wait;
    /* On the legacy stream, whose work runs in the calling thread, the wait goes to the context's
     * queue for deferred legacy work: the caller never waits (stream.c). */
    r = target_defer(&t, &sw->w);
    target_put(&t);
    return r;
}

CUresult CUDAAPI cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                                 const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                 unsigned int numExtSems, CUstream stream)
{
    return signal_async("cuSignalExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, stream);
}

CUresult CUDAAPI cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                               const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                               unsigned int numExtSems, CUstream stream)
{
    return wait_async("cuWaitExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, stream);
}

CUresult CUDAAPI cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray,
                                                      const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                      unsigned int numExtSems, CUstream stream)
{
    return signal_async("cuSignalExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, per_thread(stream));
}

CUresult CUDAAPI cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray,
                                                    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                                    unsigned int numExtSems, CUstream stream)
{
    return wait_async("cuWaitExternalSemaphoresAsync", extSemArray, paramsArray, numExtSems, per_thread(stream));
}
